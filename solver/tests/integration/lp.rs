//! The LP sequences (`drf-lp`, `asset-lp`): the sources' numbers, and exact equality with
//! progressive filling on random instances, on badly scaled ones and when the float
//! candidates are forced to fail.

use leontief_solver::drf::{progressive_filling, progressive_filling_by};
use leontief_solver::lp::{
    CapHandling, LexMaxMin, LpBackend, LpForm, LpObjective, LpStatus, Recovery,
};
use leontief_solver::{FreezeRule, Instance, Mechanism, Rational, SolverError, User};
use proptest::prelude::*;
use serde_json::Value;

use crate::common;
use common::{paper_weighting_memory, r, reference_case, rs};

fn reference_instance(id: &str) -> (Instance, Value) {
    let case = reference_case(id);
    (Instance::from_json(&case["instance"]).unwrap(), case)
}

/// The reference case's tasks, in user order.
fn reference_tasks(inst: &Instance, case: &Value) -> Vec<Rational> {
    let want = case["tasks"].as_object().unwrap();
    inst.users()
        .iter()
        .map(|u| r(want[&u.name].as_str().unwrap()))
        .collect()
}

/// The reference case `id`'s instance and tasks, checked: its tasks are `tasks` (derived
/// by hand at each call) and every configuration of `objective` gives them.
fn reference_in_all_configurations(
    id: &str,
    objective: LpObjective,
    tasks: &[&str],
) -> (Instance, Vec<Rational>) {
    let (inst, case) = reference_instance(id);
    let want = reference_tasks(&inst, &case);
    assert_eq!(want, rs(tasks));
    assert_all_configurations(&inst, objective, &want);
    (inst, want)
}

/// Every configuration of `objective` gives the tasks `want` on `inst`.
fn every_configuration_gives(
    inst: &Instance,
    objective: LpObjective,
    want: &[Rational],
) -> Result<(), TestCaseError> {
    for lp in configurations(objective) {
        let out = lp.solve(inst).unwrap();
        prop_assert_eq!(&out.tasks, want, "{:?}", lp);
    }
    Ok(())
}

/// Every LP configuration under test for an objective.
fn configurations(objective: LpObjective) -> Vec<LexMaxMin> {
    let base = match objective {
        LpObjective::DominantShare => LexMaxMin::drf(),
        LpObjective::AggregateShare => LexMaxMin::asset(),
    };
    #[allow(unused_mut)] // only the `highs` feature adds configurations
    let mut all = vec![
        base,
        base.with_caps(CapHandling::InLp),
        base.with_tolerance(0.0),
        base.with_caps(CapHandling::InLp).with_tolerance(0.0),
        base.with_form(LpForm::Explicit),
        base.with_form(LpForm::Explicit)
            .with_caps(CapHandling::InLp),
    ];
    #[cfg(feature = "highs")]
    all.extend([
        base.with_backend(LpBackend::Highs),
        base.with_backend(LpBackend::Highs)
            .with_form(LpForm::Explicit)
            .with_caps(CapHandling::InLp),
    ]);
    all
}

/// The weighted aggregate share of one task, written independently of the crate:
/// `Σ_j d_ij / (R_j w_ij)`, or `Σ_j d_ij / R_j / w_i` with a scalar weight.
fn aggregate_shares(inst: &Instance) -> Vec<Rational> {
    inst.users()
        .iter()
        .map(|u| {
            let mut s = Rational::ZERO;
            for (j, (d, cap)) in u.demand.iter().zip(inst.capacity()).enumerate() {
                s += d / &(cap * u.weight_on(j));
            }
            s
        })
        .collect()
}

fn drf_filling(inst: &Instance) -> Vec<Rational> {
    progressive_filling(inst, FreezeRule::DemandersOnly).tasks
}

fn asset_filling(inst: &Instance) -> Vec<Rational> {
    progressive_filling_by(inst, aggregate_shares(inst), FreezeRule::DemandersOnly).tasks
}

/// Solves with every configuration and checks the answer, the stages' bookkeeping and
/// that every user froze exactly once.
fn assert_all_configurations(inst: &Instance, objective: LpObjective, want: &[Rational]) {
    for lp in configurations(objective) {
        let out = lp.solve(inst).unwrap();
        assert_eq!(out.tasks, want, "{lp:?}");
        let mut seen = vec![0; inst.num_users()];
        for stage in &out.stages {
            assert_eq!(stage.status, LpStatus::Optimal);
            assert!(stage.level.is_positive());
            for &i in stage.frozen.iter().chain(&stage.capped) {
                seen[i] += 1;
            }
            for &i in &stage.frozen {
                assert_eq!(out.levels[i], stage.level);
            }
            for &i in &stage.capped {
                assert!(out.levels[i] <= stage.level);
                assert_eq!(Some(&out.tasks[i]), inst.users()[i].cap.as_ref());
            }
        }
        assert!(seen.iter().all(|&k| k == 1), "{lp:?}: {seen:?}");
        assert!(out.max_float_error.is_finite());
        assert!(out.allocation().is_feasible(inst));
    }
}

#[test]
fn drf_paper_running_example() {
    let (inst, _) = reference_in_all_configurations(
        "drf-paper-running",
        LpObjective::DominantShare,
        &["3", "2"],
    );
    let out = LexMaxMin::drf().solve(&inst).unwrap();
    assert_eq!(out.stages.len(), 1);
    assert_eq!(out.stages[0].level, r("2/3"));
    assert_eq!(out.stages[0].tight, vec![0]);
    assert_eq!(out.stages[0].frozen, vec![0, 1]);
    assert_eq!(out.stages[0].recovery, Recovery::Candidates);
    // Two resource rows; the explicit form adds one level row per user.
    assert_eq!((out.stages[0].variables, out.stages[0].rows), (3, 2));
    let explicit = LexMaxMin::drf()
        .with_form(LpForm::Explicit)
        .solve(&inst)
        .unwrap();
    assert_eq!(
        (explicit.stages[0].variables, explicit.stages[0].rows),
        (3, 4)
    );
    assert_eq!(LexMaxMin::drf().name(), "drf-lp");
    assert!(LexMaxMin::drf().is_exact());
}

#[test]
fn asset_paper_running_example() {
    // The DRF paper §2.2: asset fairness gives A 63/25 and B 54/25 tasks.
    let (inst, want) = reference_in_all_configurations(
        "asset-paper-running",
        LpObjective::AggregateShare,
        &["63/25", "54/25"],
    );
    assert_eq!(asset_filling(&inst), want);
    let x = LexMaxMin::asset().allocate(&inst).unwrap();
    assert_eq!(x.tasks, want);
    assert_eq!(LexMaxMin::asset().name(), "asset-lp");
}

#[test]
fn weighted_cap_zero_reference() {
    // b's cap binds at level 1/5, resource 3 saturates at 9/14: 27/7, 2, 15/7.
    let (inst, _) = reference_in_all_configurations(
        "weighted-cap-zero",
        LpObjective::DominantShare,
        &["27/7", "2", "15/7"],
    );

    // Caps in the LP: one stage for b's cap, one for resource 3.
    let out = LexMaxMin::drf()
        .with_caps(CapHandling::InLp)
        .solve(&inst)
        .unwrap();
    let levels: Vec<Rational> = out.stages.iter().map(|s| s.level.clone()).collect();
    assert_eq!(levels, vec![r("1/5"), r("9/14")]);
    assert_eq!(out.stages[0].capped, vec![1]);
    assert_eq!(out.stages[1].tight, vec![2]);
    assert_eq!(out.stages[1].frozen, vec![0, 2]);

    // Batched caps: the first LP ignores b's cap; its level is above 1/5, so b is frozen
    // at its cap in a batch and the LP is solved again.
    let out = LexMaxMin::drf().solve(&inst).unwrap();
    assert_eq!(out.stages.len(), 2);
    assert_eq!(out.stages[0].capped, vec![1]);
    assert!(out.stages[0].frozen.is_empty() && out.stages[0].tight.is_empty());
    assert!(out.stages[0].level > r("1/5"));
    assert_eq!(out.stages[1].level, r("9/14"));
}

#[test]
fn four_operations_example() {
    // CPU saturates at 1/2 (op1, op2), then memory at 2/3 (op3, op4).
    let (inst, _) = reference_in_all_configurations(
        "collusion-four-operations",
        LpObjective::DominantShare,
        &["1/2", "1/2", "2/3", "2/3"],
    );
    let out = LexMaxMin::drf().solve(&inst).unwrap();
    let levels: Vec<Rational> = out.stages.iter().map(|s| s.level.clone()).collect();
    assert_eq!(levels, vec![r("1/2"), r("2/3")]);
    assert_eq!(out.stages[0].frozen, vec![0, 1]);
    assert_eq!(out.stages[1].frozen, vec![2, 3]);
}

#[test]
fn per_resource_weights() {
    // DRF paper §4.3 with A weighing memory 2 (tests/integration/drf.rs derives 54/13 and 18/13).
    let inst = paper_weighting_memory();
    assert_all_configurations(&inst, LpObjective::DominantShare, &[r("54/13"), r("18/13")]);
    assert_all_configurations(&inst, LpObjective::AggregateShare, &asset_filling(&inst));
}

#[test]
fn recovery_is_exact_on_badly_scaled_instances() {
    // Thirds, sevenths, 1e-7-scale demands and a 1e9 range: no level here is an f64, so
    // every float level was inexact, yet the answer is progressive filling's, exactly.
    let inst = Instance::new(
        vec![r("1/3"), r("1e-6"), r("1e9"), r("22/7")],
        vec![
            User::new("tiny", [r("1e-7"), r("3e-14"), r("0"), r("1/7")]),
            User::new("huge", [r("0"), r("1e-13"), r("123456789"), r("0")]).weight(r("1/3")),
            User::new("mixed", [r("1/9"), r("0"), r("1"), r("1e-9")]).cap(r("7/3")),
            User::new("wide", [r("1e-8"), r("1e-12"), r("1e8"), r("3")]).weight(7),
            User::new("thin", [r("0"), r("1/3000000000"), r("0"), r("0")]),
        ],
    )
    .unwrap();
    let drf = drf_filling(&inst);
    assert_all_configurations(&inst, LpObjective::DominantShare, &drf);
    assert_all_configurations(&inst, LpObjective::AggregateShare, &asset_filling(&inst));
    let out = LexMaxMin::drf().solve(&inst).unwrap();
    for stage in &out.stages {
        // A level with an odd denominator has no exact f64: the float was a candidate only.
        assert!(
            stage.level.denom() % 2u32 == 1u32.into() || stage.level.denom() > (1u64 << 53).into()
        );
    }
    assert!(out.max_float_error < 1e-6, "{}", out.max_float_error);
}

#[test]
fn fallback_recovers_when_candidates_are_missing() {
    // With zero tolerance, a row is a candidate only when the float solution calls it
    // exactly tight; rounding makes some stages miss their binding row. The exact
    // fallback must then find it, and the answer must not change.
    let mut fallbacks = 0;
    for seed in 0..20 {
        let inst = leontief_solver::random_instances::cluster_workload(40, 4, seed);
        let want = drf_filling(&inst);
        for caps in [CapHandling::Batched, CapHandling::InLp] {
            for form in [LpForm::Surplus, LpForm::Explicit] {
                let out = LexMaxMin::drf()
                    .with_caps(caps)
                    .with_form(form)
                    .with_tolerance(0.0)
                    .solve(&inst)
                    .unwrap();
                assert_eq!(out.tasks, want, "seed {seed}, {caps:?}, {form:?}");
                fallbacks += out.fallbacks();
            }
        }
    }
    assert!(fallbacks > 0, "zero tolerance never needed the fallback");
}

#[test]
fn cluster_workload_matches_progressive_filling() {
    let inst = leontief_solver::random_instances::cluster_workload(200, 6, 7);
    assert_all_configurations(&inst, LpObjective::DominantShare, &drf_filling(&inst));
    assert_all_configurations(&inst, LpObjective::AggregateShare, &asset_filling(&inst));
}

#[cfg(feature = "highs")]
#[test]
fn highs_on_the_cluster_workload() {
    // The bench's instance: HiGHS's candidates, recovered exactly, equal progressive filling.
    let inst = leontief_solver::random_instances::cluster_workload(1000, 10, 42);
    let out = LexMaxMin::drf()
        .with_backend(LpBackend::Highs)
        .solve(&inst)
        .unwrap();
    assert_eq!(out.tasks, drf_filling(&inst));
    assert!(out.stages.iter().all(|s| s.status == LpStatus::Optimal));
}

#[test]
fn invalid_tolerance_is_an_error() {
    let (inst, _) = reference_instance("drf-paper-running");
    for bad in [-1e-9, f64::NAN, f64::INFINITY] {
        let err = LexMaxMin::drf()
            .with_tolerance(bad)
            .solve(&inst)
            .unwrap_err();
        assert!(
            matches!(err, SolverError::Invalid { ref field, .. } if field == "candidate_tolerance")
        );
    }
}

/// Small rationals: integers with zeros, and a few fractions.
fn amount() -> impl Strategy<Value = Rational> {
    prop_oneof![
        3 => Just(Rational::ZERO),
        5 => (1i128..=12).prop_map(Rational::from),
        2 => (1i128..=9, 1i128..=7).prop_map(|(p, q)| Rational::new(p, q).unwrap()),
    ]
}

fn positive() -> impl Strategy<Value = Rational> {
    prop_oneof![
        4 => (1i128..=20).prop_map(Rational::from),
        1 => (1i128..=30, 1i128..=7).prop_map(|(p, q)| Rational::new(p, q).unwrap()),
    ]
}

fn user(
    m: usize,
) -> impl Strategy<Value = (Vec<Rational>, u8, Rational, Option<Rational>, Vec<Rational>)> {
    (
        prop::collection::vec(amount(), m),
        0u8..6,
        prop_oneof![3 => Just(Rational::ONE), 1 => positive()],
        prop_oneof![2 => Just(None), 1 => positive().prop_map(|t| Some(t / Rational::from(4)))],
        prop::collection::vec(positive(), m),
    )
}

fn instance() -> impl Strategy<Value = Instance> {
    (1usize..=4, 1usize..=8).prop_flat_map(|(m, n)| {
        (
            prop::collection::vec(positive(), m),
            prop::collection::vec(user(m), n),
        )
            .prop_map(move |(capacity, users)| {
                let users = users
                    .into_iter()
                    .enumerate()
                    .map(|(i, (mut demand, kind, weight, cap, resource_weights))| {
                        if demand.iter().all(Rational::is_zero) {
                            demand[i % m] = Rational::ONE;
                        }
                        let mut u = User::new(format!("u{i}"), demand).weight(weight);
                        // One user in six weighs resources separately (DRF paper §4.3).
                        if kind == 0 {
                            u = u.resource_weights(resource_weights);
                        }
                        if let Some(t) = cap {
                            u = u.cap(t);
                        }
                        u
                    })
                    .collect();
                Instance::new(capacity, users).unwrap()
            })
    })
}

/// A badly scaled positive number: `p/q · 10^k` with `k` in `-9..=9`.
fn scaled() -> impl Strategy<Value = Rational> {
    (1i128..=99, 1i128..=13, -9i32..=9).prop_map(|(p, q, k)| {
        let ten = Rational::from(10);
        let mut x = Rational::new(p, q).unwrap();
        for _ in 0..k.unsigned_abs() {
            x = if k > 0 { &x * &ten } else { &x / &ten };
        }
        x
    })
}

/// Instances whose numbers span 18 orders of magnitude, with zeros and caps.
fn scaled_instance() -> impl Strategy<Value = Instance> {
    (1usize..=4, 1usize..=8).prop_flat_map(|(m, n)| {
        (
            prop::collection::vec(scaled(), m),
            prop::collection::vec(
                (
                    prop::collection::vec(prop_oneof![1 => Just(Rational::ZERO), 2 => scaled()], m),
                    prop_oneof![2 => Just(None), 1 => scaled().prop_map(Some)],
                    prop_oneof![2 => Just(Rational::ONE), 1 => scaled()],
                ),
                n,
            ),
        )
            .prop_map(move |(capacity, users)| {
                let users = users
                    .into_iter()
                    .enumerate()
                    .map(|(i, (mut demand, cap, weight))| {
                        if demand.iter().all(Rational::is_zero) {
                            demand[i % m] = Rational::ONE;
                        }
                        let u = User::new(format!("u{i}"), demand).weight(weight);
                        match cap {
                            Some(t) => u.cap(t),
                            None => u,
                        }
                    })
                    .collect();
                Instance::new(capacity, users).unwrap()
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn badly_scaled_instances_stay_exact(inst in scaled_instance()) {
        let drf = drf_filling(&inst);
        let asset = asset_filling(&inst);
        let cases = configurations(LpObjective::DominantShare)
            .into_iter()
            .map(|lp| (lp, &drf))
            .chain(configurations(LpObjective::AggregateShare).into_iter().map(|lp| (lp, &asset)));
        for (lp, want) in cases {
            match lp.solve(&inst) {
                Ok(out) => prop_assert_eq!(&out.tasks, want, "{:?}", lp),
                // HiGHS's float tolerances can call an LP with coefficients over 18 orders of
                // magnitude infeasible; that must be reported as a failure, never answered
                // wrongly. microlp must always answer.
                Err(SolverError::Mechanism { reason, .. }) if lp.backend != LpBackend::Microlp => {
                    prop_assert!(reason.starts_with("highs"), "{}", reason);
                }
                Err(e) => prop_assert!(false, "{:?}: {}", lp, e),
            }
        }
    }

    #[test]
    fn drf_lp_equals_progressive_filling(inst in instance()) {
        every_configuration_gives(&inst, LpObjective::DominantShare, &drf_filling(&inst))?;
    }

    #[test]
    fn asset_lp_equals_progressive_filling(inst in instance()) {
        every_configuration_gives(&inst, LpObjective::AggregateShare, &asset_filling(&inst))?;
    }
}
