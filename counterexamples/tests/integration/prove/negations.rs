//! Each goal's negated query, with an instance pinned, is satisfiable exactly where the exact
//! mechanism violates the goal there (by the checker, or by explore's metric for the bounds).

use super::{q, random_instances, solver, statement_over, Domain};
use crate::common::instance;
use leontief_counterexamples::candidate::{evaluate, Candidate};
use leontief_counterexamples::explore::{MetricName, Utility};
use leontief_counterexamples::prove::goals;
use leontief_counterexamples::prove::smt::{binary, constant, Answer, Solver};
use leontief_counterexamples::prove::statement::Shape;
use leontief_counterexamples::prove::{Goal, ProvedMechanism, Statement};
use leontief_solver::ceei::Ceei;
use leontief_solver::properties::{Property, Scenario, Witness};
use leontief_solver::{AssetFairness, Drf, Instance, Mechanism, Rational};
use std::time::Duration;

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
    let domain = Domain {
        weights: users.iter().any(|u| u.weight != Rational::ONE),
        caps: users.iter().any(|u| u.cap.is_some()),
        ..Domain::default()
    };
    statement_over(
        mechanism,
        goal,
        (inst.num_users(), inst.num_resources()),
        domain,
    )
}

/// Whether the goal's negated query holds with the instance's numbers pinned (the answers
/// and the goal's other unknowns left free).
fn negation_holds(solver: &Solver, statement: &Statement, inst: &Instance) -> bool {
    negation_holds_pinned(solver, statement, inst, &Rational::integer(2), &[])
}

/// A negation test over instances none of which loses shows nothing.
fn assert_some_losses(losses: usize) {
    assert!(
        losses > 0,
        "no loss among the instances: the test shows nothing"
    );
}

/// Whether the checker finds a violation of the property on `inst` in the scenario whose
/// witness is `expected`, asserting that the negated query of the mechanism's encoded
/// statement holds exactly then.
fn negation_agrees_with_checker(
    solver: &Solver,
    (encoded, mechanism): (ProvedMechanism, &dyn Mechanism),
    (property, scenario): (Property, Scenario),
    inst: &Instance,
    expected: impl Fn(&Witness) -> bool,
) -> bool {
    let found = evaluate(mechanism, property, &Candidate::new(inst.clone(), scenario))
        .unwrap()
        .is_some_and(|v| expected(&v.witness));
    let st = statement_on(encoded, Goal::Property(property), inst);
    assert_eq!(
        negation_holds(solver, &st, inst),
        found,
        "{} {} on {}",
        mechanism.name(),
        property.name(),
        inst.to_json()
    );
    found
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

/// A loss bound `>= c` (`metric`) on a user keeping `ratio` of its tasks on `inst`: `refuted`
/// (the negation holds) never at c = the ratio, and always just above it (c = ratio + 1/8).
fn refuted_just_above(
    ratio: &Rational,
    metric: &str,
    inst: &Instance,
    refuted: impl Fn(Rational) -> bool,
) {
    assert!(
        !refuted(ratio.clone()),
        "{metric} at {ratio} on {}",
        inst.to_json()
    );
    assert!(
        refuted(ratio + &q("1/8")),
        "{metric} above {ratio} on {}",
        inst.to_json()
    );
}

#[test]
fn the_si_and_ef_negations_hold_exactly_where_the_checker_finds_a_violation() {
    // For every user i (renamed u1, the others sorted), the si query with the instance
    // pinned is satisfiable exactly when the checker finds u1 below its split (its first
    // user in order); for every ordered pair (i, k) (renamed u1, u2), the ef query exactly
    // when the checker's first envious pair is (u1, u2) — it tries (u1, u2) first.
    let Some(solver) = solver() else { return };
    let (mut violations, mut holds) = (0, 0);
    for base in random_instances(11, 12, true) {
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
                let found = negation_agrees_with_checker(
                    &solver,
                    (encoded, mechanism.as_ref()),
                    (Property::Si, Scenario::Bounded),
                    &inst,
                    |w| matches!(w, Witness::Si(w) if w.user == 0),
                );
                if found {
                    violations += 1;
                } else {
                    holds += 1;
                }
                for j in (0..n).filter(|&j| j != i) {
                    let inst = arranged(&base, &[i, j]);
                    negation_agrees_with_checker(
                        &solver,
                        (encoded, mechanism.as_ref()),
                        (Property::Ef, Scenario::Bounded),
                        &inst,
                        |w| matches!(w, Witness::Ef(w) if (w.envious, w.envied) == (0, 1)),
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
    let mut losses = 0;
    // docs/theory.md §3.6, by hand: capacities 1, u1 ⟨1, 0⟩, u2 ⟨0, 1⟩, u3 ⟨1/2, 1⟩. DRF
    // fills resource 2 first (λ + λ = 1), freezing u2 and u3 at 1/2, and u1 goes on to
    // x_1 + 1/4 = 1, 3/4; without u2, resource 1 fills at λ + λ/2 = 1: u1 drops to 2/3.
    let hand = instance("1 1", &[("u1", "1 0"), ("u2", "0 1"), ("u3", "1/2 1")]);
    let bases: Vec<Instance> = std::iter::once(hand)
        .chain(random_instances(12, 8, true))
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
                    let found = negation_agrees_with_checker(
                        &solver,
                        (encoded, mechanism.as_ref()),
                        (Property::Pm, Scenario::Remove(0)),
                        &inst,
                        |w| matches!(w, Witness::Pm(w) if w.user == 1),
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
                            refuted_just_above(&ratio, "pm-loss", &inst, |c| {
                                let st = statement_on(
                                    encoded,
                                    Goal::Bound(MetricName::PmLoss, c),
                                    &inst,
                                );
                                negation_holds(&solver, &st, &inst)
                            });
                        }
                    }
                }
            }
        }
    }
    assert_some_losses(losses);
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
    let mut losses = 0;
    let hand = instance("1 1", &[("u1", "1 1/2"), ("u2", "1/2 1")]);
    let before = Drf::extended().allocate(&hand).unwrap().tasks;
    let after = Drf::extended()
        .allocate(&hand.with_capacity(vec![q("1"), q("4")]).unwrap())
        .unwrap()
        .tasks;
    assert_eq!((before[0].clone(), after[0].clone()), (q("2/3"), q("1/2")));
    let bases: Vec<Instance> = std::iter::once(hand)
        .chain(random_instances(13, 4, true))
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
                        refuted_just_above(&ratio, "rm-loss", &inst, |c| {
                            at(Goal::Bound(MetricName::RmLoss, c))
                        });
                    }
                }
            }
        }
    }
    assert_some_losses(losses);
}

#[test]
fn the_welfare_ratio_negation_holds_exactly_above_the_metrics_value() {
    // With the instance pinned, "welfare-ratio <= c" is refuted exactly when explore's
    // metric (an exact LP optimum over the answer's welfare) is above c: so never at c = the
    // value, and always at c = (1 + value)/2 when the value is above 1.
    let Some(solver) = solver() else { return };
    let mut above_one = 0;
    for base in random_instances(13, 12, true) {
        let inst = arranged(&base, &[]);
        let caps = inst.users().iter().any(|u| u.cap.is_some());
        for (encoded, mechanism) in compared() {
            if (caps && encoded == ProvedMechanism::Ceei) || !exact_on(mechanism.as_ref(), &inst) {
                continue;
            }
            let truth = mechanism.allocate(&inst).unwrap();
            let candidate = Candidate::new(inst.clone(), Scenario::Bounded);
            let value = MetricName::WelfareRatio
                .metric()
                .at(&leontief_counterexamples::explore::At::new(
                    mechanism.as_ref(),
                    &candidate,
                    &truth,
                    Utility::DominantShare,
                ))
                .unwrap()
                .unwrap()
                .value;
            let at = |c: Rational| {
                let st = statement_on(encoded, Goal::Bound(MetricName::WelfareRatio, c), &inst);
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
