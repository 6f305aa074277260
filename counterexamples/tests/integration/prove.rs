//! The encodings of `prove` against the exact mechanisms, and its verdicts on statements whose
//! answers are known. These tests need z3 (`pip install z3-solver`; scripts/test.sh puts the
//! project venv's `z3` on PATH); without it they are skipped, except under `CI=true`, where a
//! missing solver fails them.

use leontief_counterexamples::candidate::{evaluate, Candidate};
use leontief_counterexamples::explore::record::rederive;
use leontief_counterexamples::explore::{MetricName, Utility};
use leontief_counterexamples::prove::smt::{and, binary, constant, or, Answer, Script, Solver};
use leontief_counterexamples::prove::statement::{Profile, Shape};
use leontief_counterexamples::prove::{
    asset, ceei, common_level, cross_check, drf, goals, prove, Goal, Options, ProvedMechanism,
    SolverKind, Statement, Verdict,
};
use leontief_counterexamples::record::replay;
use leontief_solver::ceei::Ceei;
use leontief_solver::generate::SplitMix64;
use leontief_solver::properties::{Property, Scenario, Witness};
use leontief_solver::{AssetFairness, Drf, Instance, Mechanism, Rational, User};
use serde_json::Value;
use std::time::Duration;

/// The solver, or `None` (test skipped) when there is none outside CI.
fn solver() -> Option<Solver> {
    match Solver::find(None) {
        Ok(s) => Some(s),
        Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("z3 is required under CI=true: {e}")
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

/// cvc5 (through the Python interpreter on PATH or $LEONTIEF_CVC5), or `None` (test skipped)
/// when there is none outside CI.
fn cvc5() -> Option<Solver> {
    match Solver::find_cvc5(None) {
        Ok(s) => Some(s),
        Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("cvc5 is required under CI=true: {e}")
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

fn q(s: &str) -> Rational {
    s.parse().unwrap()
}

/// A random instance in normal form: capacities 1, demands with entries in {0, 1/4, .., 1}
/// (some zero), each row scaled so that its largest entry is 1; weights in 1..3 and caps
/// (for about one user in three) when asked.
fn random_instance(rng: &mut SplitMix64, weights: bool, caps: bool, positive: bool) -> Instance {
    let n = rng.range(2, 4) as usize;
    let m = rng.range(1, 3) as usize;
    let users = (0..n)
        .map(|i| {
            let mut raw: Vec<u64> = (0..m)
                .map(|_| rng.range(if positive { 1 } else { 0 }, 4))
                .collect();
            if raw.iter().all(|&v| v == 0) {
                raw[rng.range(0, m as u64 - 1) as usize] = 1;
            }
            let top = *raw.iter().max().unwrap();
            let demand: Vec<Rational> = raw
                .iter()
                .map(|&v| Rational::new(v as i128, top as i128).unwrap())
                .collect();
            let mut user = User::new(format!("u{}", i + 1), demand);
            if weights {
                user = user.weight(Rational::integer(rng.range(1, 3) as i128));
            }
            if caps && rng.chance(1, 3) {
                user = user.cap(Rational::new(rng.range(1, 4) as i128, 8).unwrap());
            }
            user
        })
        .collect();
    Instance::new(vec![Rational::ONE; m], users).unwrap()
}

fn profile(inst: &Instance) -> Profile {
    let users = inst.users();
    Profile {
        demands: users
            .iter()
            .map(|u| u.demand.iter().map(constant).collect())
            .collect(),
        weights: users
            .iter()
            .any(|u| u.weight != Rational::ONE)
            .then(|| users.iter().map(|u| constant(&u.weight)).collect()),
        caps: users.iter().any(|u| u.cap.is_some()).then(|| {
            users
                .iter()
                .map(|u| {
                    // An uncapped user: a cap no answer reaches (every task uses a whole
                    // unit of some resource, so at most 1 task fits).
                    constant(u.cap.as_ref().unwrap_or(&Rational::integer(2)))
                })
                .collect()
        }),
    }
}

type Encode = fn(&mut Script, &Profile, &[String]);

/// With the demands fixed to `inst`, the encoding holds at the mechanism's answer (sat) and
/// nowhere else (asserting that some user's tasks differ is unsat).
fn agrees(solver: &Solver, inst: &Instance, exact: &[Rational], encode: Encode) {
    let answer_is = |differs: bool| {
        let mut s = Script::new();
        let tasks: Vec<String> = (0..inst.num_users())
            .map(|i| s.real(&format!("x_{i}")))
            .collect();
        encode(&mut s, &profile(inst), &tasks);
        let equal: Vec<String> = tasks
            .iter()
            .zip(exact)
            .map(|(x, v)| binary("=", x, &constant(v)))
            .collect();
        if differs {
            s.assert(or(&equal
                .iter()
                .map(|e| format!("(not {e})"))
                .collect::<Vec<_>>()));
        } else {
            s.assert(and(&equal));
        }
        solver.check(&s, Duration::from_secs(60)).unwrap()
    };
    assert!(
        matches!(answer_is(false), Answer::Sat(_)),
        "the exact answer {exact:?} is rejected on {}",
        inst.to_json()
    );
    assert_eq!(
        answer_is(true),
        Answer::Unsat,
        "another answer is accepted on {}",
        inst.to_json()
    );
}

fn check_filling(mechanism: &dyn Mechanism, encode: Encode, seed: u64) {
    let Some(solver) = solver() else { return };
    let mut rng = SplitMix64::new(seed);
    for k in 0..24 {
        let inst = random_instance(&mut rng, k % 2 == 1, k % 3 == 2, false);
        let exact = mechanism.allocate(&inst).unwrap();
        assert!(exact.tolerance.is_none());
        agrees(&solver, &inst, &exact.tasks, encode);
    }
}

#[test]
fn the_drf_encoding_accepts_exactly_progressive_filling() {
    check_filling(
        &Drf::extended(),
        |s, p, x| drf::encode(s, p, x, &Shape::Any),
        1,
    );
}

#[test]
fn the_asset_encoding_accepts_exactly_progressive_filling_on_aggregate_shares() {
    check_filling(
        &AssetFairness,
        |s, p, x| asset::encode(s, p, x, &Shape::Any),
        2,
    );
}

#[test]
fn the_common_level_encoding_accepts_exactly_the_common_level_answer() {
    let Some(solver) = solver() else { return };
    let mut rng = SplitMix64::new(3);
    for k in 0..16 {
        let inst = random_instance(&mut rng, k % 2 == 1, false, false);
        let exact = Drf::common_level().allocate(&inst).unwrap();
        agrees(&solver, &inst, &exact.tasks, |s, p, x| {
            common_level::encode(s, p, x, "t")
        });
    }
}

#[test]
fn the_ceei_encoding_accepts_exactly_the_certified_equilibrium() {
    let Some(solver) = solver() else { return };
    let mut rng = SplitMix64::new(4);
    let mut certified = 0;
    for k in 0..40 {
        let inst = random_instance(&mut rng, k % 2 == 1, false, false);
        let exact = Ceei::new().allocate(&inst).unwrap();
        // Irrational equilibria are answered numerically; the encoding is checked on the
        // certified (exact) ones.
        if exact.tolerance.is_some() {
            continue;
        }
        certified += 1;
        agrees(&solver, &inst, &exact.tasks, |s, p, x| {
            ceei::encode(s, p, x, &Shape::Any, "t")
        });
    }
    assert!(certified >= 10, "only {certified} certified equilibria");
}

#[test]
fn the_hand_derived_drf_answer_is_the_only_one_the_encoding_accepts() {
    // Capacities 1; u1 ⟨1, 0⟩, u2 ⟨1/2, 1⟩. Progressive filling: both at level λ use
    // λ + λ/2 of resource 1, which saturates at λ = 2/3 (resource 2 holds 2/3). Both demand
    // resource 1, so both freeze: x = (2/3, 2/3).
    let Some(solver) = solver() else { return };
    let inst = Instance::new(
        vec![Rational::ONE; 2],
        vec![
            User::new("u1", [q("1"), q("0")]),
            User::new("u2", [q("1/2"), q("1")]),
        ],
    )
    .unwrap();
    agrees(&solver, &inst, &[q("2/3"), q("2/3")], |s, p, x| {
        drf::encode(s, p, x, &Shape::Any)
    });
}

fn decide(statement: &Statement) -> Verdict {
    let solver = solver().expect("checked by the caller");
    let options = Options {
        time: Duration::from_secs(300),
        emit_smt: None,
    };
    prove(statement, &solver, &options).unwrap().verdict
}

fn statement(mechanism: ProvedMechanism, goal: Goal, n: usize, m: usize) -> Statement {
    Statement::new(mechanism, goal, n, m, false, false, false, None).unwrap()
}

#[test]
fn drf_is_strategy_proof_with_two_users_and_two_resources() {
    // Ghodsi et al. (NSDI 2011, Theorem 1) and, with zero demands, Parkes, Procaccia and Shah
    // (EC 2012): extended DRF is strategy-proof.
    if solver().is_none() {
        return;
    }
    let sp = statement(ProvedMechanism::Drf, Goal::Property(Property::Sp), 2, 2);
    assert_eq!(decide(&sp), Verdict::Proved);
}

#[test]
fn asset_fairness_is_strategy_proof_with_positive_demands() {
    // The DRF paper's Table 2 (Ghodsi et al., NSDI 2011): asset fairness is strategy-proof
    // (docs/theory.md §3.11), with strictly positive demands.
    if solver().is_none() {
        return;
    }
    let sp = Statement::new(
        ProvedMechanism::Asset,
        Goal::Property(Property::Sp),
        2,
        2,
        true,
        false,
        false,
        None,
    )
    .unwrap();
    assert_eq!(decide(&sp), Verdict::Proved);
}

#[test]
fn ceei_gains_more_than_seven_fifths_with_two_users() {
    // The family with n = 2 (docs/theory.md §6.7): capacities (1, 1), liar ⟨1, 0⟩, u2
    // ⟨1/2, 1⟩; truthful prices (2, 0) give the liar 1/2 task; reporting ⟨1, 2/3⟩ moves the
    // prices to (0, 2) and gives it 3/4: a gain of 3/2 > 7/5. So the bound 7/5 is refuted,
    // and the counterexample must replay as an SP violation of the exact CEEI.
    if solver().is_none() {
        return;
    }
    let gain = statement(ProvedMechanism::Ceei, Goal::SpGain(q("7/5")), 2, 2);
    let Verdict::Refuted(record) = decide(&gain) else {
        panic!("expected a counterexample");
    };
    assert!(q(record["value"].as_str().unwrap()) > q("7/5"));
    assert_eq!(record["property"], "sp");
    replay(&Ceei::new(), &record).unwrap();
}

#[test]
fn ceei_gains_exactly_five_thirds_at_most_with_three_users_and_two_resources() {
    // docs/theory.md §6.8: with equal incomes a single liar gains at most 2 − 1/n, and the
    // family of §6.7 gains exactly that; at n = 3: 5/3. So `<= 5/3` is proved at (3, 2) and
    // `<= 8/5` is refuted, by an instance gaining more than 8/5 that replays exactly.
    if solver().is_none() {
        return;
    }
    let five_thirds = statement(ProvedMechanism::Ceei, Goal::SpGain(q("5/3")), 3, 2);
    assert_eq!(decide(&five_thirds), Verdict::Proved);
    let eight_fifths = statement(ProvedMechanism::Ceei, Goal::SpGain(q("8/5")), 3, 2);
    let Verdict::Refuted(record) = decide(&eight_fifths) else {
        panic!("expected a counterexample");
    };
    let gain = q(record["value"].as_str().unwrap());
    assert!(gain > q("8/5") && gain <= q("5/3"), "gain {gain}");
    replay(&Ceei::new(), &record).unwrap();
}

#[test]
fn drf_with_caps_is_strategy_proof_with_two_users_and_two_resources() {
    // Extended DRF with task caps is strategy-proof (docs/theory.md §3.11; a user capped at T
    // is the user whose demand is met at T tasks, Parkes, Procaccia and Shah, EC 2012). The
    // liar's reported cap is free in the normal form (§6.5), so this covers lies about the
    // scale of a demand too.
    if solver().is_none() {
        return;
    }
    let sp = Statement::new(
        ProvedMechanism::Drf,
        Goal::Property(Property::Sp),
        2,
        2,
        false,
        true,
        true,
        None,
    )
    .unwrap();
    assert_eq!(decide(&sp), Verdict::Proved);
}

#[test]
fn a_liars_reported_cap_scales_its_report_back() {
    // A model of DRF gsp-strong with caps at (3, 2), two liars (found by prove): truthful
    // u1 ⟨1/20, 1⟩ cap 3/8, u2 ⟨1, 0⟩ cap 2, u3 ⟨3/8, 1⟩ cap 2; in normal form u1 reports
    // ⟨1/18, 1⟩ with cap 3/7 and u2 ⟨1, 0⟩ with cap 10/13. A report α e has cap t exactly when
    // e has cap α t, so the reports with the liars' own caps are (3/7)/(3/8) = 8/7 times
    // ⟨1/18, 1⟩ = ⟨4/63, 8/7⟩ and (10/13)/2 = 5/13 times ⟨1, 0⟩ = ⟨5/13, 0⟩. The witness
    // rounds the model to simpler numbers that still re-derive, so the record's reports are
    // near these: not in normal form (u1's largest entry is its scale, not 1), and the
    // record replays with the exact DRF. Read in normal form, with the liars' own caps, the
    // lies would not re-derive at all.
    let gsp = Statement::new(
        ProvedMechanism::Drf,
        Goal::Property(Property::GspStrong),
        3,
        2,
        false,
        false,
        true,
        Some(2),
    )
    .unwrap();
    let model: Vec<(String, Rational)> = [
        ("d_1_1", "1/20"),
        ("d_1_2", "1"),
        ("d_2_1", "1"),
        ("d_2_2", "0"),
        ("d_3_1", "3/8"),
        ("d_3_2", "1"),
        ("t_1", "3/8"),
        ("t_2", "2"),
        ("t_3", "2"),
        ("e_1_1", "1/18"),
        ("e_1_2", "1"),
        ("e_2_1", "1"),
        ("e_2_2", "0"),
        ("tl_1", "3/7"),
        ("tl_2", "10/13"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), q(v)))
    .collect();
    let record = leontief_counterexamples::prove::witness::counterexample(&gsp, &model).unwrap();
    let largest = |liar: &str| {
        record["lies"][liar]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| q(v.as_str().unwrap()))
            .max()
            .unwrap()
    };
    assert!(largest("u1") > q("1"), "{}", record["lies"]);
    assert!(largest("u2") < q("1"), "{}", record["lies"]);
    replay(&Drf::extended(), &record).unwrap();
}

#[test]
fn drf_is_not_strongly_group_strategy_proof_with_zero_demands() {
    // A coalition of two in (4, 3), derived by hand: capacities 1; u1 ⟨2/3, 0, 1⟩,
    // u2 ⟨0, 1, 0⟩, u3 ⟨0, 0, 1⟩, u4 ⟨1, 1/3, 0⟩. Truth: resource 3 fills first (2λ = 1),
    // freezing u1 and u3 at 1/2; then resource 1 (1/3 + λ = 1) freezes u4 at 2/3; then
    // resource 2 (λ + 2/9 = 1) leaves u2 7/9. If u1 reports ⟨1, 0, 1⟩, resources 1 and 3 fill
    // together at λ = 1/2 (u4 frozen at 1/2) and resource 2 gives u2 λ + 1/6 = 1, i.e. 5/6,
    // while u1's bundle ⟨1/2, 0, 1/2⟩ still runs min(3/4, 1/2) = 1/2 of its true tasks. So
    // gsp-strong fails with coalition {u1, u2}; the found record must replay with the exact
    // DRF.
    if solver().is_none() {
        return;
    }
    let gsp = Statement::new(
        ProvedMechanism::Drf,
        Goal::Property(Property::GspStrong),
        4,
        3,
        false,
        false,
        false,
        Some(2),
    )
    .unwrap();
    let Verdict::Refuted(record) = decide(&gsp) else {
        panic!("expected a counterexample");
    };
    assert_eq!(record["property"], "gsp-strong");
    replay(&Drf::extended(), &record).unwrap();
}

/// Every price support of `m` resources (nonempty).
fn supports(m: usize) -> Vec<Vec<bool>> {
    (1..1usize << m)
        .map(|bits| (0..m).map(|r| bits >> r & 1 == 1).collect())
        .collect()
}

/// `bundle` points along `demand`: zero where it is zero, and every pair of entries in the
/// demand's proportion.
fn along(bundle: &[String], demand: &[Rational]) -> Vec<String> {
    let mut out = Vec::new();
    for r in 0..demand.len() {
        if demand[r].is_zero() {
            out.push(binary("=", &bundle[r], "0.0"));
        }
        for t in r + 1..demand.len() {
            out.push(binary(
                "=",
                &format!("(* {} {})", bundle[r], constant(&demand[t])),
                &format!("(* {} {})", bundle[t], constant(&demand[r])),
            ));
        }
    }
    out
}

#[test]
fn the_ceei_bundle_form_accepts_exactly_the_certified_equilibria_of_both_profiles() {
    // For random instances and a random report of u1, both exact CEEI answers (when
    // rational), as bundles x_i d_i, must be accepted by the bundle form under some pair of
    // price supports, and no other pair of bundles along the same demands under any pair.
    let Some(solver) = solver() else { return };
    let mut rng = SplitMix64::new(11);
    let mut checked = 0;
    for k in 0..16 {
        let inst = random_instance(&mut rng, k % 2 == 1, false, false);
        let (n, m) = (inst.num_users(), inst.num_resources());
        let report: Vec<Rational> = (0..m)
            .map(|r| Rational::new(rng.range(if r == 0 { 1 } else { 0 }, 4) as i128, 4).unwrap())
            .collect();
        let lied = inst.with_reports(&[(0, report.clone())]).unwrap();
        let truth = Ceei::new().allocate(&inst).unwrap();
        let after = Ceei::new().allocate(&lied).unwrap();
        if truth.tolerance.is_some() || after.tolerance.is_some() {
            continue;
        }
        checked += 1;
        let statement = Statement::new(
            ProvedMechanism::Ceei,
            Goal::SpGain(Rational::ONE),
            n,
            m,
            false,
            k % 2 == 1,
            false,
            None,
        )
        .unwrap();
        let run = |t: &[bool], l: &[bool], differs: bool| {
            let mut s = Script::new();
            let answers = ceei::manipulation_answers(&mut s, &statement, t, l);
            if statement.weights {
                for (i, u) in inst.users().iter().enumerate() {
                    s.assert(binary("=", &format!("w_{}", i + 1), &constant(&u.weight)));
                }
            }
            let mut equal = Vec::new();
            for (i, u) in inst.users().iter().enumerate() {
                let reported = if i == 0 { &report } else { &u.demand };
                for c in along(&answers.before[i], &u.demand)
                    .into_iter()
                    .chain(along(&answers.after[i], reported))
                {
                    s.assert(c);
                }
                for (r, (d, e)) in u.demand.iter().zip(reported.iter()).enumerate() {
                    equal.push(binary(
                        "=",
                        &answers.before[i][r],
                        &constant(&(&truth.tasks[i] * d)),
                    ));
                    equal.push(binary(
                        "=",
                        &answers.after[i][r],
                        &constant(&(&after.tasks[i] * e)),
                    ));
                }
            }
            if differs {
                s.assert(or(&equal
                    .iter()
                    .map(|e| format!("(not {e})"))
                    .collect::<Vec<_>>()));
            } else {
                s.assert(and(&equal));
            }
            solver.check(&s, Duration::from_secs(60)).unwrap()
        };
        let mut accepted = 0;
        for t in supports(m) {
            for l in supports(m) {
                if matches!(run(&t, &l, false), Answer::Sat(_)) {
                    accepted += 1;
                }
                assert_eq!(
                    run(&t, &l, true),
                    Answer::Unsat,
                    "other bundles accepted under supports {t:?}, {l:?} on {} with u1 \
                     reporting {report:?}",
                    inst.to_json()
                );
            }
        }
        assert!(
            accepted >= 1,
            "the exact answers are rejected under every support on {} with u1 reporting \
             {report:?}",
            inst.to_json()
        );
    }
    assert!(checked >= 8, "only {checked} certified pairs");
}

/// `inst` with the users `roles` first (in that order) and the others after them sorted by
/// their first demand entry, as the queries of the goals not about lies order them.
fn arranged(inst: &Instance, roles: &[usize]) -> Instance {
    let users = inst.users();
    let mut rest: Vec<usize> = (0..users.len()).filter(|i| !roles.contains(i)).collect();
    rest.sort_by(|&a, &b| users[a].demand[0].cmp(&users[b].demand[0]));
    let order: Vec<usize> = roles.iter().copied().chain(rest).collect();
    Instance::new(
        inst.capacity().to_vec(),
        order.iter().map(|&i| users[i].clone()).collect(),
    )
    .unwrap()
}

/// The statement of `goal` on `inst`'s size and domain (weights and caps when it has any).
fn statement_on(mechanism: ProvedMechanism, goal: Goal, inst: &Instance) -> Statement {
    let users = inst.users();
    Statement::new(
        mechanism,
        goal,
        inst.num_users(),
        inst.num_resources(),
        false,
        users.iter().any(|u| u.weight != Rational::ONE),
        users.iter().any(|u| u.cap.is_some()),
        None,
    )
    .unwrap()
}

/// Whether the goal's negated query holds with the instance's numbers pinned (the answers
/// and the goal's other unknowns left free).
fn negation_holds(solver: &Solver, statement: &Statement, inst: &Instance) -> bool {
    negation_holds_pinned(solver, statement, inst, &Rational::integer(2), &[])
}

/// [`negation_holds`] with the cap of an uncapped user `uncapped` (one no answer reaches) and
/// the further unknowns `extra` pinned too.
fn negation_holds_pinned(
    solver: &Solver,
    statement: &Statement,
    inst: &Instance,
    uncapped: &Rational,
    extra: &[(String, Rational)],
) -> bool {
    let mut s = goals::script(statement, &Shape::Any);
    for (name, value) in extra {
        s.assert(binary("=", name, &constant(value)));
    }
    for (i, u) in inst.users().iter().enumerate() {
        for (r, d) in u.demand.iter().enumerate() {
            s.assert(binary("=", &format!("d_{}_{}", i + 1, r + 1), &constant(d)));
        }
        if statement.weights {
            s.assert(binary("=", &format!("w_{}", i + 1), &constant(&u.weight)));
        }
        if statement.caps {
            let cap = u.cap.clone().unwrap_or_else(|| uncapped.clone());
            s.assert(binary("=", &format!("t_{}", i + 1), &constant(&cap)));
        }
    }
    match solver.check(&s, Duration::from_secs(60)).unwrap() {
        Answer::Sat(_) => true,
        Answer::Unsat => false,
        Answer::Unknown(why) => panic!("undecided on {}: {why}", inst.to_json()),
    }
}

/// The mechanisms whose answers the allocation-goal tests compare with, by encoding.
fn compared() -> Vec<(ProvedMechanism, Box<dyn Mechanism>)> {
    vec![
        (ProvedMechanism::Drf, Box::new(Drf::extended())),
        (ProvedMechanism::Asset, Box::new(AssetFairness)),
        (ProvedMechanism::Ceei, Box::new(Ceei::new())),
    ]
}

/// Whether `mechanism` answers `inst` exactly (a CEEI equilibrium may be irrational; the
/// encodings are compared with certified answers only).
fn exact_on(mechanism: &dyn Mechanism, inst: &Instance) -> bool {
    mechanism.allocate(inst).unwrap().tolerance.is_none()
}

#[test]
fn the_si_and_ef_negations_hold_exactly_where_the_checker_finds_a_violation() {
    // For every user i (renamed u1, the others sorted), the si query with the instance
    // pinned is satisfiable exactly when the checker finds u1 below its split (its first
    // user in order); for every ordered pair (i, k) (renamed u1, u2), the ef query exactly
    // when the checker's first envious pair is (u1, u2) — it tries (u1, u2) first.
    let Some(solver) = solver() else { return };
    let mut rng = SplitMix64::new(11);
    let (mut violations, mut holds) = (0, 0);
    for k in 0..12 {
        let base = random_instance(&mut rng, k % 2 == 1, k % 3 == 2, false);
        for (encoded, mechanism) in compared() {
            let caps = base.users().iter().any(|u| u.cap.is_some());
            if caps && encoded == ProvedMechanism::Ceei {
                continue;
            }
            let n = base.num_users();
            for i in 0..n {
                let inst = arranged(&base, &[i]);
                if !exact_on(mechanism.as_ref(), &inst) {
                    continue;
                }
                let found = evaluate(
                    mechanism.as_ref(),
                    Property::Si,
                    &Candidate::new(inst.clone(), Scenario::Bounded),
                )
                .unwrap()
                .is_some_and(|v| matches!(v.witness, Witness::Si(ref w) if w.user == 0));
                let st = statement_on(encoded, Goal::Property(Property::Si), &inst);
                assert_eq!(
                    negation_holds(&solver, &st, &inst),
                    found,
                    "{} si on {}",
                    mechanism.name(),
                    inst.to_json()
                );
                if found {
                    violations += 1;
                } else {
                    holds += 1;
                }
                for j in (0..n).filter(|&j| j != i) {
                    let inst = arranged(&base, &[i, j]);
                    let found = evaluate(
                        mechanism.as_ref(),
                        Property::Ef,
                        &Candidate::new(inst.clone(), Scenario::Bounded),
                    )
                    .unwrap()
                    .is_some_and(|v| {
                        matches!(v.witness, Witness::Ef(ref w) if (w.envious, w.envied) == (0, 1))
                    });
                    let st = statement_on(encoded, Goal::Property(Property::Ef), &inst);
                    assert_eq!(
                        negation_holds(&solver, &st, &inst),
                        found,
                        "{} ef on {}",
                        mechanism.name(),
                        inst.to_json()
                    );
                }
            }
        }
    }
    // Asset fairness falls below the split on some of these instances (the DRF paper, §4).
    assert!(
        violations > 0 && holds > 0,
        "{violations} violations, {holds} holds"
    );
}

#[test]
fn the_pm_negation_holds_exactly_where_the_checker_finds_a_loss() {
    // For every ordered pair (l, i) (renamed u1 leaving, u2 losing; the others sorted), the
    // pm query with the instance pinned is satisfiable exactly when the checker, u1
    // leaving, finds u2 losing (its first remaining user in order).
    let Some(solver) = solver() else { return };
    let mut rng = SplitMix64::new(12);
    let mut losses = 0;
    // docs/theory.md §3.6, by hand: capacities 1, u1 ⟨1, 0⟩, u2 ⟨0, 1⟩, u3 ⟨1/2, 1⟩. DRF
    // fills resource 2 first (λ + λ = 1), freezing u2 and u3 at 1/2, and u1 goes on to
    // x_1 + 1/4 = 1, 3/4; without u2, resource 1 fills at λ + λ/2 = 1: u1 drops to 2/3.
    let hand = Instance::new(
        vec![Rational::ONE; 2],
        vec![
            User::new("u1", [q("1"), q("0")]),
            User::new("u2", [q("0"), q("1")]),
            User::new("u3", [q("1/2"), q("1")]),
        ],
    )
    .unwrap();
    let bases: Vec<Instance> = std::iter::once(hand)
        .chain((0..8).map(|k| random_instance(&mut rng, k % 2 == 1, k % 3 == 2, false)))
        .collect();
    for base in bases {
        let n = base.num_users();
        if n < 3 {
            continue;
        }
        let caps = base.users().iter().any(|u| u.cap.is_some());
        let mechanisms: Vec<(ProvedMechanism, Box<dyn Mechanism>)> = vec![
            (ProvedMechanism::Drf, Box::new(Drf::extended())),
            (ProvedMechanism::Ceei, Box::new(Ceei::new())),
        ];
        for (encoded, mechanism) in mechanisms {
            if caps && encoded == ProvedMechanism::Ceei {
                continue;
            }
            for l in 0..n {
                for i in (0..n).filter(|&i| i != l) {
                    let inst = arranged(&base, &[l, i]);
                    if !exact_on(mechanism.as_ref(), &inst)
                        || !exact_on(mechanism.as_ref(), &inst.without_user(0).unwrap())
                    {
                        continue;
                    }
                    let found = evaluate(
                        mechanism.as_ref(),
                        Property::Pm,
                        &Candidate::new(inst.clone(), Scenario::Remove(0)),
                    )
                    .unwrap()
                    .is_some_and(|v| matches!(v.witness, Witness::Pm(ref w) if w.user == 1));
                    let st = statement_on(encoded, Goal::Property(Property::Pm), &inst);
                    assert_eq!(
                        negation_holds(&solver, &st, &inst),
                        found,
                        "{} pm on {}",
                        mechanism.name(),
                        inst.to_json()
                    );
                    losses += usize::from(found);
                    // pm-loss >= c is refuted by u2 exactly when it has tasks and keeps less
                    // than c times them: never at c = its own ratio, always just above it.
                    let before = &mechanism.allocate(&inst).unwrap().tasks[1];
                    if before.is_positive() {
                        let after = &mechanism
                            .allocate(&inst.without_user(0).unwrap())
                            .unwrap()
                            .tasks[0];
                        let ratio = after / before;
                        if ratio.is_positive() {
                            let at = |c: Rational| {
                                let st = statement_on(encoded, Goal::PmLoss(c), &inst);
                                negation_holds(&solver, &st, &inst)
                            };
                            assert!(
                                !at(ratio.clone()),
                                "pm-loss at {ratio} on {}",
                                inst.to_json()
                            );
                            let above = &ratio + &q("1/8");
                            assert!(at(above), "pm-loss above {ratio} on {}", inst.to_json());
                        }
                    }
                }
            }
        }
    }
    assert!(
        losses > 0,
        "no loss among the instances: the test shows nothing"
    );
}

#[test]
fn the_rm_negation_holds_exactly_where_the_mechanism_loses() {
    // For every user i (renamed u1, the others sorted) and growth g (k_r = 1 / g_r), the rm
    // query with the instance and the growth pinned is satisfiable exactly when the exact
    // mechanism gives u1 fewer tasks on the grown capacities; the checker then finds a loss.
    // The DRF paper's §5 (its Table 2), by hand in normal form: u1 ⟨1, 1/2⟩, u2 ⟨1/2, 1⟩ get
    // 2/3 each (resource 1: x + x/2 = 1); with capacities (1, 4), u2's dominant share is
    // x_2 / 2 (resource 1), so x_1 = x_2 / 2 and resource 1 fills at x_1 + x_2 / 2 = 1:
    // u1 falls to 1/2 (in the paper's units ⟨2, 1⟩, from 1/3 to 1/4 tasks).
    let Some(solver) = solver() else { return };
    let mut rng = SplitMix64::new(13);
    let mut losses = 0;
    let hand = Instance::new(
        vec![Rational::ONE; 2],
        vec![
            User::new("u1", [q("1"), q("1/2")]),
            User::new("u2", [q("1/2"), q("1")]),
        ],
    )
    .unwrap();
    let before = Drf::extended().allocate(&hand).unwrap().tasks;
    let after = Drf::extended()
        .allocate(&hand.with_capacity(vec![q("1"), q("4")]).unwrap())
        .unwrap()
        .tasks;
    assert_eq!((before[0].clone(), after[0].clone()), (q("2/3"), q("1/2")));
    let bases: Vec<Instance> = std::iter::once(hand)
        .chain((0..4).map(|k| random_instance(&mut rng, k % 2 == 1, k % 3 == 2, false)))
        .collect();
    let mechanisms: Vec<(ProvedMechanism, Box<dyn Mechanism>)> = vec![
        (ProvedMechanism::Drf, Box::new(Drf::extended())),
        (
            ProvedMechanism::DrfCommonLevel,
            Box::new(Drf::common_level()),
        ),
        (ProvedMechanism::Asset, Box::new(AssetFairness)),
        (ProvedMechanism::Ceei, Box::new(Ceei::new())),
    ];
    for base in bases {
        let m = base.num_resources();
        let caps = base.users().iter().any(|u| u.cap.is_some());
        // The last resource x4, the first x2, all x3/2.
        let growths: Vec<Vec<Rational>> = vec![
            (0..m)
                .map(|r| q(if r == m - 1 { "4" } else { "1" }))
                .collect(),
            (0..m).map(|r| q(if r == 0 { "2" } else { "1" })).collect(),
            vec![q("3/2"); m],
        ];
        for (encoded, mechanism) in &mechanisms {
            if caps && !matches!(encoded, ProvedMechanism::Drf | ProvedMechanism::Asset) {
                continue;
            }
            for i in 0..base.num_users() {
                let inst = arranged(&base, &[i]);
                for growth in &growths {
                    let grown = inst.with_capacity(growth.clone()).unwrap();
                    if !exact_on(mechanism.as_ref(), &inst) || !exact_on(mechanism.as_ref(), &grown)
                    {
                        continue;
                    }
                    let before = mechanism.allocate(&inst).unwrap().tasks[0].clone();
                    let after = mechanism.allocate(&grown).unwrap().tasks[0].clone();
                    let pins: Vec<(String, Rational)> = growth
                        .iter()
                        .enumerate()
                        .map(|(r, g)| (format!("k_{}", r + 1), g.recip().unwrap()))
                        .collect();
                    // At most 4 tasks fit on the grown capacities: a cap of 5 never binds.
                    let at = |goal: Goal| {
                        let st = statement_on(*encoded, goal, &inst);
                        negation_holds_pinned(&solver, &st, &inst, &q("5"), &pins)
                    };
                    let found = after < before;
                    assert_eq!(
                        at(Goal::Property(Property::Rm)),
                        found,
                        "{} rm on {} growing to {growth:?}",
                        mechanism.name(),
                        inst.to_json()
                    );
                    if found {
                        let checked = evaluate(
                            mechanism.as_ref(),
                            Property::Rm,
                            &Candidate::new(inst.clone(), Scenario::Capacity(growth.clone())),
                        )
                        .unwrap();
                        assert!(checked.is_some(), "the checker misses the loss");
                        losses += 1;
                    }
                    // rm-loss >= c is refuted by u1 exactly when it has tasks and keeps less
                    // than c times them: never at c = its own ratio, always just above it.
                    if before.is_positive() && after.is_positive() {
                        let ratio = &after / &before;
                        assert!(!at(Goal::RmLoss(ratio.clone())), "rm-loss at {ratio}");
                        assert!(
                            at(Goal::RmLoss(&ratio + &q("1/8"))),
                            "rm-loss above {ratio}"
                        );
                    }
                }
            }
        }
    }
    assert!(
        losses > 0,
        "no loss among the instances: the test shows nothing"
    );
}

#[test]
fn drf_violates_resource_monotonicity_and_keeps_half_its_tasks_with_two_users() {
    // The DRF paper (§5, Table 2): DRF is not resource monotonic — the instance of the test
    // above, u1 falling from 2/3 to 1/2 tasks, is one counterexample at (2, 2) — so rm and
    // rm-loss >= 1 are refuted, each counterexample replaying with the exact mechanism
    // (rm-loss's below 1 by explore's metric). rm-loss >= 1/n holds (docs/theory.md §5,
    // question 3): after the growth DRF still gives every user at least its equal split
    // 1/n of the grown capacities (the sharing incentive), which runs at least 1/n of the
    // tasks the whole old capacities run; a user's old tasks are at most that whole. So
    // rm-loss >= 1/2 is proved at (2, 2).
    if solver().is_none() {
        return;
    }
    let st = statement(ProvedMechanism::Drf, Goal::Property(Property::Rm), 2, 2);
    let record = refuted(&st);
    assert_eq!(record["property"], "rm");
    replay(&Drf::extended(), &record).unwrap();
    let record = refuted(&statement(ProvedMechanism::Drf, Goal::RmLoss(q("1")), 2, 2));
    assert_eq!(record["metric"], "rm-loss");
    assert!(q(record["value"].as_str().unwrap()) < q("1"));
    let again = rederive(&Drf::extended(), &record).unwrap();
    assert_eq!(again.value.to_string(), record["value"].as_str().unwrap());
    let half = statement(ProvedMechanism::Drf, Goal::RmLoss(q("1/2")), 2, 2);
    assert_eq!(decide(&half), Verdict::Proved);
}

#[test]
fn collapsed_hdrf_is_strategy_proof_on_every_tree_of_two_leaves_and_not_resource_monotonic() {
    // docs/theory.md §6.10: collapsed HDRF is extended DRF over the leaves weighted by their
    // guaranteed shares, and every positive weight vector is some tree's; extended weighted
    // DRF is strategy-proof (Ghodsi et al., NSDI 2011, Theorem 1; Parkes, Procaccia and Shah,
    // EC 2012, with zero demands and weights), so `sp` is proved on every tree of 2 leaves
    // with 2 resources. DRF is not resource monotonic (the DRF paper, Table 2; the one-pool
    // tree of equal weights is DRF itself), so `rm` is refuted, and the counterexample must
    // replay with collapsed HDRF itself on the one-pool tree of its weights.
    if solver().is_none() {
        return;
    }
    let sp = statement(
        ProvedMechanism::Collapsed,
        Goal::Property(Property::Sp),
        2,
        2,
    );
    assert!(sp.weights, "every tree: the leaves' weights are free");
    assert!(sp.describe().contains("every tree"), "{}", sp.describe());
    assert_eq!(decide(&sp), Verdict::Proved);
    let rm = statement(
        ProvedMechanism::Collapsed,
        Goal::Property(Property::Rm),
        2,
        2,
    );
    let record = refuted(&rm);
    assert_eq!(record["mechanism"], "hdrf:collapsed");
    assert_eq!(record["property"], "rm");
    let collapsed = leontief_counterexamples::mechanisms::by_name("hdrf:collapsed").unwrap();
    replay(collapsed.as_ref(), &record).unwrap();
    // A departing leaf changes its siblings' guaranteed shares: no fixed-weight statement.
    for goal in [Goal::Property(Property::Pm), Goal::PmLoss(q("1/2"))] {
        let err = Statement::new(
            ProvedMechanism::Collapsed,
            goal,
            3,
            2,
            false,
            false,
            false,
            None,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("a departing leaf changes its siblings' guaranteed shares"),
            "{err}"
        );
    }
}

#[test]
fn the_welfare_ratio_negation_holds_exactly_above_the_metrics_value() {
    // With the instance pinned, "welfare-ratio <= c" is refuted exactly when explore's
    // metric (an exact LP optimum over the answer's welfare) is above c: so never at c = the
    // value, and always at c = (1 + value)/2 when the value is above 1.
    let Some(solver) = solver() else { return };
    let mut rng = SplitMix64::new(13);
    let mut above_one = 0;
    for k in 0..12 {
        let inst = arranged(
            &random_instance(&mut rng, k % 2 == 1, k % 3 == 2, false),
            &[],
        );
        let caps = inst.users().iter().any(|u| u.cap.is_some());
        for (encoded, mechanism) in compared() {
            if (caps && encoded == ProvedMechanism::Ceei) || !exact_on(mechanism.as_ref(), &inst) {
                continue;
            }
            let truth = mechanism.allocate(&inst).unwrap();
            let candidate = Candidate::new(inst.clone(), Scenario::Bounded);
            let value = MetricName::WelfareRatio
                .metric()
                .at(
                    mechanism.as_ref(),
                    &candidate,
                    &truth,
                    Utility::DominantShare,
                )
                .unwrap()
                .unwrap()
                .value;
            let at = |c: Rational| {
                let st = statement_on(encoded, Goal::WelfareRatio(c), &inst);
                negation_holds(&solver, &st, &inst)
            };
            assert!(
                !at(value.clone()),
                "{} at {value} on {}",
                mechanism.name(),
                inst.to_json()
            );
            if value > Rational::ONE {
                above_one += 1;
                let half = (&Rational::ONE + &value) / &Rational::integer(2);
                assert!(
                    at(half),
                    "{} below {value} on {}",
                    mechanism.name(),
                    inst.to_json()
                );
            }
        }
    }
    assert!(above_one > 0, "every ratio is 1: the test shows nothing");
}

fn refuted(statement: &Statement) -> Value {
    match decide(statement) {
        Verdict::Refuted(record) => *record,
        other => panic!(
            "{}: expected a counterexample, got {other:?}",
            statement.describe()
        ),
    }
}

#[test]
fn drf_and_ceei_have_the_sharing_incentive_and_envy_freeness() {
    // The DRF paper's Table 2 (Ghodsi et al., NSDI 2011) and, with zero demands, Parkes,
    // Procaccia and Shah (EC 2012): DRF and CEEI have SI and EF.
    if solver().is_none() {
        return;
    }
    for mechanism in [ProvedMechanism::Drf, ProvedMechanism::Ceei] {
        for property in [Property::Si, Property::Ef] {
            for (n, m) in [(2, 2), (3, 2)] {
                let st = statement(mechanism, Goal::Property(property), n, m);
                assert_eq!(decide(&st), Verdict::Proved, "{}", st.describe());
            }
        }
    }
}

#[test]
fn asset_fairness_violates_the_sharing_incentive() {
    // The DRF paper (§4, Table 2): asset fairness lacks SI. By hand at (2, 2): u1 ⟨1, 1⟩ and
    // u2 ⟨1, 0⟩ have aggregate shares 2 x_1 and x_2; equal shares and a full resource 1
    // give x_1 = 1/3, below u1's half of the cluster (1/2 task). So the claim is refuted,
    // and the counterexample must replay as an SI violation of the exact mechanism.
    if solver().is_none() {
        return;
    }
    let st = statement(ProvedMechanism::Asset, Goal::Property(Property::Si), 2, 2);
    let record = refuted(&st);
    assert_eq!(record["property"], "si");
    replay(&AssetFairness, &record).unwrap();
}

#[test]
fn ceei_violates_population_monotonicity_and_drf_has_it_with_positive_demands() {
    // The DRF paper: CEEI is not population monotonic (Theorem 5), DRF is with positive
    // demands (Theorem 14). With zero demands DRF is not (docs/theory.md §3.6: u1 ⟨1, 0⟩,
    // u2 ⟨0, 1⟩, u3 ⟨1/2, 1⟩ at (3, 2)). Every refutation replays with the exact mechanism.
    if solver().is_none() {
        return;
    }
    let on = |mechanism, positive| {
        Statement::new(
            mechanism,
            Goal::Property(Property::Pm),
            3,
            2,
            positive,
            false,
            false,
            None,
        )
        .unwrap()
    };
    let record = refuted(&on(ProvedMechanism::Ceei, true));
    assert_eq!(record["property"], "pm");
    replay(&Ceei::new(), &record).unwrap();
    assert_eq!(decide(&on(ProvedMechanism::Drf, true)), Verdict::Proved);
    let record = refuted(&on(ProvedMechanism::Drf, false));
    replay(&Drf::extended(), &record).unwrap();
}

#[test]
fn drfs_welfare_ratio_with_two_users_and_two_resources_is_nine_eighths() {
    // (n + 1)^2 / (4n) = 9/8 at n = 2 (Bertsimas, Farias and Trichakis's bound for
    // max-min fairness), attained by u1 ⟨1, 0⟩, u2 ⟨1/2, 1⟩: resource 1 fills at
    // λ + λ/2 = 1, so DRF gives 2/3 each (welfare 4/3); the optimum gives u2 1 task and u1
    // the 1/2 of resource 1 left (welfare 3/2). So "<= 9/8" is proved and "<= 11/10"
    // refuted, with a re-derived ratio above 11/10.
    if solver().is_none() {
        return;
    }
    let at = |c: &str| statement(ProvedMechanism::Drf, Goal::WelfareRatio(q(c)), 2, 2);
    assert_eq!(decide(&at("9/8")), Verdict::Proved);
    let record = refuted(&at("11/10"));
    assert_eq!(record["metric"], "welfare-ratio");
    assert!(q(record["value"].as_str().unwrap()) > q("11/10"));
    let again = rederive(&Drf::extended(), &record).unwrap();
    assert_eq!(again.value.to_string(), record["value"].as_str().unwrap());
}

#[test]
fn drfs_pm_loss_with_three_users_and_two_resources_is_eight_ninths() {
    // docs/theory.md §3.6 and docs/explore.md §3.3, by hand: u1 ⟨1, 0⟩, u3 ⟨1/2, 1⟩ get 2/3
    // each (resource 1 fills at λ + λ/2 = 1); when u2 ⟨0, 1⟩ joins, resource 2 fills first
    // (λ + λ = 1) and u1 runs on to 3/4: a ratio of (2/3)/(3/4) = 8/9, so "pm-loss >= 9/10"
    // is refuted (the counterexample re-derives with explore's metric, below 9/10). With
    // positive demands DRF is population monotonic (the DRF paper, Theorem 14): ">= 1".
    if solver().is_none() {
        return;
    }
    let at = |c: &str, positive: bool| {
        Statement::new(
            ProvedMechanism::Drf,
            Goal::PmLoss(q(c)),
            3,
            2,
            positive,
            false,
            false,
            None,
        )
        .unwrap()
    };
    let record = refuted(&at("9/10", false));
    assert_eq!(record["metric"], "pm-loss");
    assert!(q(record["value"].as_str().unwrap()) < q("9/10"));
    let again = rederive(&Drf::extended(), &record).unwrap();
    assert_eq!(again.value.to_string(), record["value"].as_str().unwrap());
    assert_eq!(decide(&at("1", true)), Verdict::Proved);
}

#[test]
fn ceeis_gsp_gain_with_one_liar_exceeds_seven_fifths() {
    // docs/theory.md §6.7 with n = 2: the liar ⟨1, 0⟩ gains 3/2 against u2 ⟨1/2, 1⟩ by
    // reporting ⟨1, 2/3⟩, and a single liar is a coalition whose only liar strictly gains.
    // So "gsp-gain <= 7/5" with coalitions of one liar is refuted; the record replays as a
    // gsp-strong violation of the exact CEEI and its gain (explore's metric) is above 7/5.
    if solver().is_none() {
        return;
    }
    let st = Statement::new(
        ProvedMechanism::Ceei,
        Goal::GspGain(q("7/5")),
        2,
        2,
        false,
        false,
        false,
        Some(1),
    )
    .unwrap();
    let record = refuted(&st);
    assert_eq!(record["property"], "gsp-strong");
    assert_eq!(record["metric"], "gsp-gain");
    assert!(q(record["value"].as_str().unwrap()) > q("7/5"));
    replay(&Ceei::new(), &record).unwrap();
}

#[test]
fn the_cvc5_runner_answers_a_known_sat_and_a_known_unsat_query() {
    let Some(cvc5) = cvc5() else {
        return;
    };
    assert_eq!(cvc5.kind, SolverKind::Cvc5);
    assert!(!cvc5.reports_models());
    let limit = Duration::from_secs(60);
    // x² = 2 with x > 0: x = √2, an irrational real, so only a solver of real (not rational)
    // arithmetic answers sat.
    let mut sat = Script::new();
    let x = sat.real("x");
    sat.assert(binary("=", &format!("(* {x} {x})"), "2.0"));
    sat.assert(binary(">", &x, "0.0"));
    assert_eq!(cvc5.check(&sat, limit).unwrap(), Answer::Sat(Vec::new()));
    // x·y = 1 and x + y = 1: x and y are the roots of t² − t + 1, whose discriminant
    // 1 − 4 = −3 is negative, so there are no real solutions.
    let mut unsat = Script::new();
    let x = unsat.real("x");
    let y = unsat.real("y");
    unsat.assert(binary("=", &format!("(* {x} {y})"), "1.0"));
    unsat.assert(binary("=", &format!("(+ {x} {y})"), "1.0"));
    assert_eq!(cvc5.check(&unsat, limit).unwrap(), Answer::Unsat);
}

/// Proves `statement` with z3, then cross-checks the proof with `checker`.
fn proved_and_cross_checked(
    statement: &Statement,
    checker: &Solver,
) -> leontief_counterexamples::prove::Proof {
    let z3 = solver().expect("checked by the caller");
    let time = Duration::from_secs(300);
    let options = Options {
        time,
        emit_smt: None,
    };
    let proof = prove(statement, &z3, &options).unwrap();
    assert_eq!(proof.verdict, Verdict::Proved);
    cross_check(statement, proof, checker, time).unwrap()
}

#[test]
fn cvc5_agrees_with_z3_on_drf_strategy_proofness_and_the_ceei_gain_bound() {
    // Both statements hold: extended DRF is strategy-proof (Ghodsi et al., NSDI 2011;
    // Parkes, Procaccia and Shah, EC 2012), and a single CEEI liar gains at most
    // 2 − 1/n = 3/2 with n = 2 (docs/theory.md §6.8). So every case is unsat for any correct
    // solver, and cvc5 must agree with z3 on every one.
    if solver().is_none() {
        return;
    }
    let Some(cvc5) = cvc5() else {
        return;
    };
    for statement in [
        statement(ProvedMechanism::Drf, Goal::Property(Property::Sp), 2, 2),
        statement(ProvedMechanism::Ceei, Goal::SpGain(q("3/2")), 2, 2),
    ] {
        let proof = proved_and_cross_checked(&statement, &cvc5);
        assert_eq!(proof.verdict, Verdict::Proved);
        let check = proof.cross_check.as_ref().expect("cross-checked");
        assert_eq!(check.cases.len(), proof.cases.len());
        assert!(check.cases.iter().all(|c| c.answer == Answer::Unsat));
        assert!(check.agreed());
        let answer = proof.to_json(&statement);
        assert_eq!(answer["cross_check"]["agreed"], true);
        let rests_on = answer["rests_on"].as_str().unwrap();
        assert!(
            rests_on.contains("z3 ") && rests_on.contains("cvc5 "),
            "{rests_on}"
        );
        for case in answer["cases"].as_array().unwrap() {
            assert_eq!(case["cross_check"]["status"], "unsat");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_cross_check_answering_sat_makes_the_verdict_unknown() {
    // A stand-in second solver that answers sat to everything: it contradicts z3's unsat on
    // every case of a statement that holds, and the verdict must not stay proved.
    use std::os::unix::fs::PermissionsExt;
    if solver().is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("leontief-cross-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("always-sat");
    std::fs::write(&fake, "#!/bin/sh\ncat > /dev/null\necho sat\n").unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let checker = Solver {
        path: fake,
        name: "cvc5".into(),
        version: "stand-in".into(),
        kind: SolverKind::Cvc5,
    };
    let sp = statement(ProvedMechanism::Drf, Goal::Property(Property::Sp), 2, 2);
    let proof = proved_and_cross_checked(&sp, &checker);
    // (2, 2) splits into two cases (bottlenecks (r1,r1) and (r1,r2)): both contradicted.
    assert_eq!(proof.verdict, Verdict::Unknown(vec![0, 1]));
    let answer = proof.to_json(&sp);
    assert_eq!(answer["verdict"], "unknown");
    assert_eq!(answer["cross_check"]["agreed"], false);
    assert_eq!(
        answer["cross_check"]["disagreed"],
        serde_json::json!([0, 1])
    );
    assert!(answer["cross_check"]["disagreement"]
        .as_str()
        .unwrap()
        .contains("one of the two solvers is wrong"));
    assert!(proof.to_text(&sp).contains("CROSS-CHECK DISAGREES"));
    std::fs::remove_dir_all(&dir).unwrap();
}
