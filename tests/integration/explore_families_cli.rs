//! End-to-end tests of `explore --family` and of the reproductions that run `explore`: flags
//! a family leaves no room for are refused by name, and every record asserted here is
//! re-derived by hand (in the comments) and by a second computation (`solve` on the
//! record's instance, `merge --best --verify`).

use crate::common;

use leontief_solver::Rational;
use serde_json::Value;

use common::{fails_with, run};

fn q(s: &str) -> Rational {
    s.parse().unwrap()
}

fn tmp(name: &str) -> std::path::PathBuf {
    common::scratch_path("explore-families-cli", name)
}

/// [`common::explored_and_verified`] into a scratch file `name`.
fn explored(name: &str, args: &[&str]) -> Vec<Value> {
    common::explored_and_verified(&tmp(name), args)
}

/// The best record (the last) of `explore` with the flags of `line`, verified as
/// [`explored`] verifies every record.
fn best_of(name: &str, line: &str) -> Value {
    let recs = explored(name, &common::words(line));
    recs.last().expect("a record").clone()
}

/// `leontief solve --mechanism MECH` on `instance`: tasks by user name.
fn solve(mechanism: &str, instance: &Value) -> std::collections::BTreeMap<String, Rational> {
    let o = common::run_with(
        &["solve", "--mechanism", mechanism, "-"],
        Some(&instance.to_string()),
    );
    let v = common::ok_json(&o);
    v["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["name"].as_str().unwrap().to_string(),
                q(u["tasks"].as_str().unwrap()),
            )
        })
        .collect()
}

#[test]
fn flags_a_family_leaves_no_room_for_are_refused_by_name() {
    let base = ["explore", "--metric", "welfare-ratio", "--budget", "10"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        a
    };
    // (flags, the error's words): each a flag the family leaves no room for.
    let refused: &[(&[&str], &str)] = &[
        (
            &["--family", "pps", "--pools", "1..2"],
            "error: --pools: families are flat (no pools) with --family pps",
        ),
        (
            &["--family", "two-kinds", "--weights"],
            "error: --weights: families are unweighted with --family two-kinds",
        ),
        (
            &["--family", "two-kinds", "--caps"],
            "error: --caps: families are uncapped with --family two-kinds",
        ),
        (
            &["--family", "pps", "--zeros", "0"],
            "error: --zeros: pps's demands are fixed",
        ),
        (
            &["--family", "two-kinds", "--strategy", "exhaustive"],
            "error: --strategy: two-kinds draws its demand vectors at random",
        ),
        (
            &["--family", "pps", "--users", "2", "--resources", "2..3"],
            "error: --users: pps needs more users than resources",
        ),
        (
            &["--family", "two-kinds", "--users", "1"],
            "error: --users: two-kinds needs at least 2 users",
        ),
    ];
    for (flags, message) in refused {
        fails_with(&with(flags), message);
    }
    // The families an unknown one's error lists; each is documented in --help (below), and
    // two-kinds and pps (F(k, m) of docs/explore.md) are among them.
    let families = common::listed_names(
        &with(&["--family", "three-kinds"]),
        "error: --family: unknown family \"three-kinds\" (expected ",
        ')',
    );
    common::assert_lists(&families, &["two-kinds", "pps"]);
    // --zeros is meaningful for two-kinds (its vectors are drawn with it).
    let o = run(&with(&["--family", "two-kinds", "--zeros", "0"]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let help = String::from_utf8_lossy(&run(&["explore", "--help"]).stdout).to_string();
    assert!(help.contains("--family"), "{help}");
    for family in &families {
        assert!(help.contains(&format!("- {family}:")), "{family}: {help}");
    }
}

#[test]
fn ceei_reaches_the_price_of_proportional_fairness_on_f_2_2() {
    // Bertsimas, Farias and Trichakis (Operations Research 59(1), 2011): the proportionally
    // fair allocation keeps at least (2√n − 1)/n of the optimum when all players' largest
    // utilities are equal, tight for integer √n. In dominant shares every user alone
    // reaches 1 and CEEI is proportionally fair; n = 4 gives the bound 4/3.
    // By hand on F(2, 2) (capacities 1; h1, h2 ⟨1, 1⟩; s1 ⟨1, 0⟩, s2 ⟨0, 1⟩): CEEI maximizes
    // 2 log x + 2 log y with 2x + y = 1 on each resource: x = 1/4, y = 1/2; every μ_i is 1,
    // so its welfare is 2/4 + 2/2 = 3/2. The optimum: Σ_i x_i μ_i <= Σ_j (use of r_j) <= 2,
    // reached by s1 = s2 = 1 and h = 0: OPT = 2, ratio 4/3.
    let recs = explored(
        "ceei-pof.jsonl",
        &common::words(
            "explore --mechanism ceei --metric welfare-ratio --family pps --users 4 \
             --resources 1..3 --budget 200",
        ),
    );
    let best = recs.last().unwrap();
    assert_eq!(best["value"], "4/3");
    assert_eq!(best["exact"], true);
    assert_eq!(best["family"]["name"], "pps");
    assert_eq!(
        best["family"]["params"],
        serde_json::json!({"k": 2, "m": 2})
    );
    let w = &best["witness"];
    assert_eq!(
        (w["numerator"].as_str(), w["denominator"].as_str()),
        (Some("2"), Some("3/2"))
    );
    for (u, t) in [("h1", "1/4"), ("h2", "1/4"), ("s1", "1/2"), ("s2", "1/2")] {
        assert_eq!(w["allocation_before"][u], t, "{u}");
    }
    for (u, t) in [("h1", "0"), ("h2", "0"), ("s1", "1"), ("s2", "1")] {
        assert_eq!(w["allocation_optimum"][u], t, "{u}");
    }
    // A second computation: CEEI solved again on the recorded instance.
    let x = solve("ceei", &best["instance"]);
    assert_eq!(x["h1"], q("1/4"));
    assert_eq!(x["s2"], q("1/2"));
    // No record of the run beats the bound (the theorem holds on every instance).
    for r in &recs {
        assert!(q(r["value"].as_str().unwrap()) <= q("4/3"), "{r}");
    }
}

#[test]
fn the_price_of_fairness_reproductions_find_their_bounds() {
    // n = 9: F(6, 3), x = 1/9, y = 3/9 (multiplier λ = n), welfare 6/9 + 3 · 1/3 = 5/3,
    // OPT = 3: 9/5 = n/(2√n − 1). DRF at odd n: (n + 1)²/(4n) at F((n − 1)/2, (n + 1)/2)
    // (docs/theory.md §5 question 5).
    let o = run(&["reproduce", "explore-ceei-pof", "explore-drf-pof"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    for v in [
        "  4/3  ",
        "  9/5  ",
        "F(2, 2)",
        "F(6, 3)",
        "--users 9, at F(4, 5)",
        "  25/9  ",
    ] {
        assert!(text.contains(v), "{v}: {text}");
    }
    assert!(text.contains("reproduce: 12 passed, 0 failed"), "{text}");
}

/// `δ_i = (x_i − f_i) μ_i` over `μ_max`, largest minus smallest: the discrete gap computed
/// from two `solve` answers (docs/explore.md §3.9).
fn gap_by_solve(instance: &Value) -> Rational {
    let x = solve("discrete-drf", instance);
    let f = solve("drf", instance);
    let cap: Vec<Rational> = instance["capacity"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| q(c.as_str().unwrap()))
        .collect();
    let mut drifts = Vec::new();
    let mut mu_max = Rational::ZERO;
    for u in instance["users"].as_array().unwrap() {
        let name = u["name"].as_str().unwrap();
        let mu = u["demand"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&cap)
            .map(|(d, c)| &q(d.as_str().unwrap()) / c)
            .max()
            .unwrap();
        drifts.push(&(&x[name] - &f[name]) * &mu);
        mu_max = mu_max.max(mu);
    }
    let hi = drifts.iter().max().unwrap();
    let lo = drifts.iter().min().unwrap();
    &(hi - lo) / &mu_max
}

#[test]
fn discrete_drf_within_one_max_task_on_one_resource_and_seven_beyond() {
    // One resource: the record is 1, the bound of Theorem 7 (Ghodsi et al., NSDI 2011),
    // attained. By hand on capacity 1 with two users ⟨1⟩: fluid DRF gives 1/2 each;
    // Algorithm 1 gives the first user 1 task and stops (the second's task does not fit):
    // drifts 1/2 and −1/2, μ_max = 1, gap 1.
    let best = &best_of(
        "gap-one.jsonl",
        "explore --mechanism discrete-drf --metric discrete-gap --users 2..3 \
         --resources 1 --budget 500 --seed 1",
    );
    assert_eq!(best["value"], "1");
    assert_eq!(gap_by_solve(&best["instance"]), q("1"));
    // Two resources: capacities (1, 1), u1 ⟨0, 1/13⟩, u2 ⟨1/13, 0⟩, u3 ⟨0, 1/20⟩. Fluid
    // DRF: u2 alone on r1 runs 13 tasks; u1 and u3 split r2 at share 1/2: 13/2 and 10.
    // Algorithm 1 raises the least share: after u1 6, u2 6, u3 10 (shares 6/13, 6/13, 1/2;
    // r2 at 6/13 + 1/2 = 25/26) u1 is least and its 1/13 of r2 does not fit: stop. Drifts
    // (6 − 13/2)/13 = −1/26, (6 − 13)/13 = −7/13, 0; μ_max = 1/13: gap (7/13)/(1/13) = 7.
    let best = &best_of(
        "gap-two.jsonl",
        "explore --mechanism discrete-drf --metric discrete-gap --users 2..3 \
         --resources 2 --budget 500 --seed 1",
    );
    assert_eq!(best["value"], "7");
    let users: Vec<(&str, Vec<&str>)> = best["instance"]["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["name"].as_str().unwrap(),
                u["demand"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d.as_str().unwrap())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        users,
        [
            ("u1", vec!["0", "1/13"]),
            ("u2", vec!["1/13", "0"]),
            ("u3", vec!["0", "1/20"])
        ]
    );
    assert_eq!(gap_by_solve(&best["instance"]), q("7"));
    // The reproduction shows both records.
    let o = run(&["reproduce", "explore-drf-discrete"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("reproduce: 2 passed, 0 failed"), "{text}");
}

#[test]
fn asset_fairness_record_is_three_sevenths_by_hand() {
    // The record of `explore --mechanism asset --metric si-gap --budget 10000 --seed 1` (at
    // 5,000 scenarios the knife-edge strata have taken the budget that reaches it; it is
    // 1/2 there):
    // capacities 1 on three resources, u1, u2 ⟨0, 0, 1⟩ and u3 ⟨1, 1, 1⟩. Asset fairness
    // equalizes Σ_j x_i d_ij / R_j: x1 = x2 = 3 x3, and r3 binds: x1 + x2 + x3 = 7 x3 = 1, so
    // x3 = 1/7. The equal split (1/3 of each resource) runs 1/3 task of ⟨1, 1, 1⟩:
    // si-gap = (1/7)/(1/3) = 3/7, below the DRF paper's 4/5.
    let best = &best_of(
        "asset-si.jsonl",
        "explore --mechanism asset --metric si-gap --budget 10000 --seed 1",
    );
    assert_eq!(best["value"], "3/7");
    let x = solve("asset", &best["instance"]);
    assert_eq!(
        (x["u1"].clone(), x["u2"].clone(), x["u3"].clone()),
        (q("3/7"), q("3/7"), q("1/7"))
    );
    assert_eq!(best["witness"]["user"], "u3");
}

#[test]
fn two_kinds_records_keep_their_kinds_at_any_thread_count() {
    let args = |threads: &'static str| {
        vec![
            "explore",
            "--mechanism",
            "drf",
            "--metric",
            "rm-loss",
            "--family",
            "two-kinds",
            "--users",
            "2..4",
            "--budget",
            "1500",
            "--seed",
            "2",
            "--threads",
            threads,
        ]
    };
    let recs = explored("two-kinds.jsonl", &args("1"));
    for r in &recs {
        let f = &r["family"];
        assert_eq!(f["name"], "two-kinds");
        let n = f["params"]["n"].as_u64().unwrap() as usize;
        let k = f["params"]["k"].as_u64().unwrap() as usize;
        let users = r["instance"]["users"].as_array().unwrap();
        assert_eq!(users.len(), n);
        // The first k users share one vector, the others another.
        assert!(
            users[..k].iter().all(|u| u["demand"] == users[0]["demand"]),
            "{r}"
        );
        assert!(
            users[k..].iter().all(|u| u["demand"] == users[k]["demand"]),
            "{r}"
        );
    }
    // DRF is not resource monotonic: a loss, at most the truth's 1.
    assert!(q(recs.last().unwrap()["value"].as_str().unwrap()) <= Rational::ONE);
    let again = run(&args("2"));
    assert!(again.status.success());
    assert_eq!(common::jsonl(&again.stdout), recs);
}

#[test]
fn ceei_population_monotonicity_record_is_a_certified_loss_confirmed_by_check() {
    // The record of `explore --mechanism ceei --metric pm-loss --budget 5000 --seed 1`
    // (reproduce explore-ceei-pm) is an arrival: on capacities (1, 1, 1), I = {u1 ⟨1, 1, 0⟩,
    // u2 = u3 ⟨1, 2/3, 0⟩, u4 ⟨0, 1, 0⟩}, and a joiner needing only r1 leaves u4 better off
    // (PM read from arrivals, docs/theory.md §3.6). Before, by hand: with prices
    // (p1, p2, p3) = (0, 4, 0) each user buys 1/(d_i · p) tasks: u1 1/4, u2 and u3
    // 1/(8/3) = 3/8, u4 1/4; r1 holds 1/4 + 2 · 3/8 = 1 and r2 1/4 + 2 · (3/8)(2/3) + 1/4 = 1:
    // feasible, every budget spent, so this is the Eisenberg–Gale optimum (docs/theory.md
    // §2.5) and u4's utility in I is exactly 1/4. After the arrival of ⟨10, 0, 0⟩ CEEI's
    // answer is irrational: r3 is free, prices (p1, p2, 0); spending the five budgets clears
    // r1 and r2 only with p1 + p2 = 5 (Walras: Σ p_j c_j = 5 budgets), and with q = p2 the
    // clearing of r2, 1/(5 − q + q) + 2 · (2/3)/(5 − q + 2q/3) + 1/q = 1, reduces to
    // 4q² − 45q + 75 = 0, q = (45 − 5√33)/8 ≈ 2.0347 (the other root exceeds 5). u4 runs
    // 1/q tasks after the arrival, so the loss u4(I) / u4(I + joiner) = (1/4) / (1/q) = q/4
    // = (45 − 5√33)/32 ≈ 0.5087, a root of 64t² − 180t + 75: exact, below the paper's loss.
    let best = &best_of(
        "ceei-pm.jsonl",
        "explore --mechanism ceei --metric pm-loss --budget 5000 --seed 1",
    );
    assert_eq!(best["exact"], true);
    let w = &best["witness"];
    assert_eq!(w["user"], "u4");
    assert!(w["joined"].is_object(), "{w}");
    assert_eq!(w["numerator"], "1/4");
    for (u, t) in [("u1", "1/4"), ("u2", "3/8"), ("u3", "3/8"), ("u4", "1/4")] {
        assert_eq!(w["allocation_before"][u], t, "{u}");
    }
    let value = &best["value"];
    assert_eq!(
        value["algebraic"]["polynomial"],
        serde_json::json!(["75", "-180", "64"])
    );
    assert_eq!(value["closed_form"], "(45 - 5*sqrt(33))/32");
    // Independently: 64t² − 180t + 75 changes sign across the isolating interval, which
    // lies below the paper's loss 0.889846957.
    let interval = value["algebraic"]["interval"].as_array().unwrap();
    let (lo, hi) = (
        q(interval[0].as_str().unwrap()),
        q(interval[1].as_str().unwrap()),
    );
    let f = |t: &Rational| &(&(&q("64") * &(t * t)) - &(&q("180") * t)) + &q("75");
    assert!(f(&lo).is_positive() && f(&hi).is_negative(), "{lo} {hi}");
    assert!(lo <= hi && hi < q("889846957/1000000000"), "{lo} {hi}");
    // A second computation: the PM oracle of `check` on the larger population I + joiner
    // (the equivalent departure) finds a violation beyond CEEI's tolerance.
    let mut larger = best["instance"].clone();
    larger["users"]
        .as_array_mut()
        .unwrap()
        .push(w["joined"].clone());
    let path = tmp("ceei-pm-instance.json");
    std::fs::write(&path, larger.to_string()).unwrap();
    let o = run(&common::cli(
        "check --mechanism ceei --property pm",
        &[path.to_str().unwrap()],
    ));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let verdict = &v[0];
    assert_eq!(verdict["holds"], false);
    assert_eq!(verdict["within_tolerance"], false);
}
