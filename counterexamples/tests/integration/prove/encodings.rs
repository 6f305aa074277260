//! Each encoding, with the demands pinned to an instance, accepts the exact mechanism's answer
//! and nothing else.

use super::{q, random_instance, random_instances, solver, statement_over, Domain};
use crate::common::instance;
use leontief_counterexamples::explore::MetricName;
use leontief_counterexamples::prove::smt::{and, binary, constant, or, Answer, Script, Solver};
use leontief_counterexamples::prove::statement::{Profile, Shape};
use leontief_counterexamples::prove::{asset, ceei, common_level, drf, Goal, ProvedMechanism};
use leontief_solver::ceei::Ceei;
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{AssetFairness, Drf, Instance, Mechanism, Rational};
use std::time::Duration;

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

/// Pins `equal` (equations of unknowns to the exact answer): all of them, or, when `differs`,
/// the negation of at least one.
fn pin(s: &mut Script, equal: &[String], differs: bool) {
    if differs {
        let negated: Vec<String> = equal.iter().map(|e| format!("(not {e})")).collect();
        s.assert(or(&negated));
    } else {
        s.assert(and(equal));
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
        pin(&mut s, &equal, differs);
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
    for inst in random_instances(seed, 24, true) {
        let exact = mechanism.allocate(&inst).unwrap();
        assert!(exact.tolerance.is_none());
        agrees(&solver, &inst, &exact.tasks, encode);
    }
}

#[test]
fn the_drf_encoding_accepts_exactly_progressive_filling() {
    check_filling(
        &Drf::extended(),
        |s, p, x| drf::encode(s, p, x, x, &Shape::Any),
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
    for inst in random_instances(3, 16, false) {
        let exact = Drf::common_level().allocate(&inst).unwrap();
        agrees(&solver, &inst, &exact.tasks, |s, p, x| {
            common_level::encode(s, p, x, x, "t")
        });
    }
}

#[test]
fn the_ceei_encoding_accepts_exactly_the_certified_equilibrium() {
    let Some(solver) = solver() else { return };
    let mut certified = 0;
    for inst in random_instances(4, 40, false) {
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
    let inst = instance("1 1", &[("u1", "1 0"), ("u2", "1/2 1")]);
    agrees(&solver, &inst, &[q("2/3"), q("2/3")], |s, p, x| {
        drf::encode(s, p, x, x, &Shape::Any)
    });
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
        let weighted = Domain {
            weights: k % 2 == 1,
            ..Domain::default()
        };
        let statement = statement_over(
            ProvedMechanism::Ceei,
            Goal::Bound(MetricName::SpGain, Rational::ONE),
            (n, m),
            weighted,
        );
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
            pin(&mut s, &equal, differs);
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
