//! The encodings of `prove` against the exact mechanisms, and its verdicts on statements whose
//! answers are known. These tests need z3 (`pip install z3-solver`; scripts/test.sh puts the
//! project venv's `z3` on PATH); without it they are skipped, except under `CI=true`, where a
//! missing solver fails them.

use leontief_counterexamples::prove::smt::{and, binary, constant, or, Answer, Script, Solver};
use leontief_counterexamples::prove::statement::{Profile, Shape};
use leontief_counterexamples::prove::{
    asset, ceei, common_level, cross_check, drf, prove, Goal, Options, ProvedMechanism, SolverKind,
    Statement, Verdict,
};
use leontief_counterexamples::record::replay;
use leontief_solver::ceei::Ceei;
use leontief_solver::generate::SplitMix64;
use leontief_solver::properties::Property;
use leontief_solver::{AssetFairness, Drf, Instance, Mechanism, Rational, User};
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
