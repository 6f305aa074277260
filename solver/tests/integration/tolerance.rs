//! Approximate allocations (`Allocation::tolerance`): the oracles must not report
//! violations that the numerical error can explain, must still report genuine ones larger
//! than the margin, and must judge exact allocations exactly (a `1e-30` violation counts).
//!
//! The approximate mechanism here is written in the test: an exact mechanism's answer
//! perturbed deterministically by about `1e-15` relative (well inside the stated tolerance
//! `1e-12`, like an uncertified CEEI answer), so that the true answer is known.

use leontief_solver::properties::allocation::{
    check_allocation, envy_freeness, feasibility, pareto_efficiency, sharing_incentive,
};
use leontief_solver::properties::manipulation::{gsp_scenario, sp_scenario, GspReading};
use leontief_solver::properties::monotonicity::{pm_scenario, rm_scenario};
use leontief_solver::properties::{
    check, check_with, Bounds, MaxMinViolation, Property, Scenario, Verdict, Witness,
};
use leontief_solver::{
    Allocation, AssetFairness, Drf, Instance, Mechanism, Rational, SolverError, User,
};
use proptest::prelude::*;
use serde_json::Value;

use crate::common;
use common::{case_instance, paper, r, rs, small_instances};

/// The stated tolerance, `1e-12`.
fn tol() -> Rational {
    Rational::from_decimal_str("1e-12").unwrap()
}

/// The perturbation step, `1e-15` relative.
fn delta() -> Rational {
    Rational::from_decimal_str("1e-15").unwrap()
}

/// How the answer is perturbed.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// Each task count times `1 + s δ` with `s ∈ {-1, 0, 1}` from a hash of the user's
    /// demand and position: up and down, so capacities can be exceeded by ~1e-15.
    Scattered,
    /// Each task count times `1 − s δ` with `s ∈ {1, 2}`: exactly feasible, as CEEI's
    /// scaled-down answers are, and resources end up unsaturated by ~1e-15.
    Down,
}

/// A deterministic key in `0..3` from user `i`'s demand and position, so that a changed
/// report or a departure changes the perturbation.
fn key(inst: &Instance, i: usize) -> i128 {
    let mut k = i as u64 * 7;
    for (j, d) in inst.users()[i].demand.iter().enumerate() {
        let seven = d * &Rational::from(7);
        k = k.wrapping_add((j as u64 + 1) * seven.floor_u64().unwrap_or(0));
    }
    i128::from(k % 3)
}

fn perturb(inst: &Instance, tasks: &[Rational], mode: Mode) -> Vec<Rational> {
    tasks
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let s = match mode {
                Mode::Scattered => key(inst, i) - 1,
                Mode::Down => -(key(inst, i) % 2 + 1),
            };
            x * &(Rational::ONE + &delta() * &Rational::from(s))
        })
        .collect()
}

/// An exact mechanism whose answers come back perturbed and marked approximate (`1e-12`),
/// or, [`Perturbed::claimed_exact`], the same perturbed numbers claimed exact: what the
/// oracles judged before.
struct Perturbed<'a> {
    inner: &'a dyn Mechanism,
    mode: Mode,
    claims_exact: bool,
}

impl<'a> Perturbed<'a> {
    fn new(inner: &'a dyn Mechanism, mode: Mode) -> Self {
        Perturbed {
            inner,
            mode,
            claims_exact: false,
        }
    }

    fn claimed_exact(self) -> Self {
        Perturbed {
            claims_exact: true,
            ..self
        }
    }
}

impl Mechanism for Perturbed<'_> {
    fn name(&self) -> &str {
        if self.claims_exact {
            "perturbed-claimed-exact"
        } else {
            "perturbed"
        }
    }

    fn is_exact(&self) -> bool {
        false
    }

    fn allocate(&self, instance: &Instance) -> Result<Allocation, SolverError> {
        let x = self.inner.allocate(instance)?;
        let tasks = perturb(instance, &x.tasks, self.mode);
        Ok(if self.claims_exact {
            Allocation::new(tasks)
        } else {
            Allocation::approximate(tasks, tol())
        })
    }
}

fn small_bounds() -> Bounds {
    Bounds {
        max_liars: Some(2),
        max_profiles: 200,
    }
}

fn assert_holds_within_tolerance(v: &Verdict, what: &str) {
    assert!(v.holds, "{what}: {v:?}");
    assert!(
        v.within_tolerance,
        "{what}: expected an excused comparison: {v:?}"
    );
    assert_eq!(v.tolerance, Some(tol()), "{what}");
    assert!(
        v.note.contains("holds within numerical tolerance"),
        "{what}: {}",
        v.note
    );
}

fn assert_genuine_failure(v: &Verdict, what: &str) {
    assert!(!v.holds, "{what}: {v:?}");
    assert!(!v.within_tolerance, "{what}");
    assert_eq!(v.tolerance, Some(tol()), "{what}");
    assert!(
        v.note.contains("decided with tolerance"),
        "{what}: {}",
        v.note
    );
}

// ------------------------------------------------------------ the Allocation API

#[test]
fn approximate_allocation_api() {
    let x = Allocation::approximate(rs(&["3", "2"]), tol());
    assert_eq!(x.tolerance, Some(tol()));
    assert_eq!(Allocation::new(rs(&["3", "2"])).tolerance, None);
    // A negative tolerance is read as its absolute value; zero is exact.
    assert_eq!(
        Allocation::approximate(rs(&["3"]), -tol()).tolerance,
        Some(tol())
    );
    assert_eq!(
        Allocation::approximate(rs(&["3"]), 0),
        Allocation::new(rs(&["3"]))
    );
    // Equality is structural: the claim about the truth differs.
    assert_ne!(x, Allocation::new(rs(&["3", "2"])));
    assert_eq!(x, Allocation::approximate(rs(&["3", "2"]), tol()));
    // e_i = t/(1 - t) max(1, |x_i|).
    let scale = &tol() / &(Rational::ONE - &tol());
    assert_eq!(x.error_bound(0), Some(&scale * &Rational::from(3)));
    let small = Allocation::approximate(rs(&["1/1000"]), tol());
    assert_eq!(small.error_bound(0), Some(scale.clone()));
    assert_eq!(Allocation::approximate(rs(&["5"]), 2).error_bound(0), None);
}

// ------------------------------------------------------------ no spurious violations

/// The perturbed numbers judged exactly produce spurious violations; with the tolerance
/// they hold, marked "within numerical tolerance".
#[test]
fn perturbed_drf_on_the_paper_has_drf_properties() {
    let inst = paper();
    let drf = Drf::extended();
    for mode in [Mode::Scattered, Mode::Down] {
        let approx = Perturbed::new(&drf, mode);
        let claimed = Perturbed::new(&drf, mode).claimed_exact();
        let mut excused = 0;
        for p in [
            Property::Si,
            Property::Ef,
            Property::Po,
            Property::Sp,
            Property::GspWeak,
            Property::Pm,
        ] {
            let exact = check(&drf, &inst, p, &Scenario::Bounded).unwrap();
            assert!(exact.verdict.holds, "{p}: DRF itself");
            let report = check(&approx, &inst, p, &Scenario::Bounded).unwrap();
            assert!(report.verdict.holds, "{mode:?} {p}: {:?}", report.verdict);
            assert_eq!(report.verdict.tolerance, Some(tol()));
            assert!(report.verdict.note.contains("decided with tolerance"));
            assert!(report
                .verdict
                .note
                .contains("judged with the tolerance they carry"));
            let naive = check(&claimed, &inst, p, &Scenario::Bounded).unwrap();
            if !naive.verdict.holds {
                // The spurious violation is exactly what the tolerance excused.
                excused += 1;
                assert_holds_within_tolerance(&report.verdict, p.name());
            }
        }
        assert!(excused > 0, "{mode:?}: the perturbation never bit");
    }
}

#[test]
fn spurious_po_gain_and_overuse_are_excused() {
    // (3, 2) scaled down by ~1e-15 leaves both resources free: judged exactly, A could
    // grow by ~1e-15 tasks.
    let inst = paper();
    let tasks = perturb(&inst, &rs(&["3", "2"]), Mode::Down);
    let naive = pareto_efficiency(&inst, &Allocation::new(tasks.clone())).unwrap();
    let Some(Witness::Po(w)) = &naive.witness else {
        panic!("expected the spurious PO witness, got {naive:?}")
    };
    assert!(w.gain.is_positive() && w.gain < r("1/10000000000000"));
    let v = pareto_efficiency(&inst, &Allocation::approximate(tasks, tol())).unwrap();
    assert_holds_within_tolerance(&v, "po");
    // (3, 2) with B up by 1e-15: CPU is overused by 6e-15, inside the margin.
    let over = vec![r("3"), &r("2") * &(Rational::ONE + &delta())];
    assert!(feasibility(&inst, &Allocation::new(over.clone()))
        .unwrap()
        .is_some());
    let approx = Allocation::approximate(over, tol());
    assert!(feasibility(&inst, &approx).unwrap().is_none());
    for p in [Property::Si, Property::Ef, Property::Po] {
        let v = check_allocation(&inst, &approx, p).unwrap();
        assert_holds_within_tolerance(&v, p.name());
    }
    // DRF fails BBF there for real (A holds 1/3 of the saturated CPU): still reported.
    let v = check_allocation(&inst, &approx, Property::Bbf).unwrap();
    assert_genuine_failure(&v, "bbf");
    let Some(Witness::Bbf(w)) = &v.witness else {
        panic!("expected a BBF witness")
    };
    assert_eq!((w.user, w.shares.len(), w.shares[0].resource), (0, 1, 0));
}

#[test]
fn single_scenarios_use_both_answers_tolerances() {
    let inst = paper();
    let drf = Drf::extended();
    let approx = Perturbed::new(&drf, Mode::Scattered);
    let truth = approx.allocate(&inst).unwrap();
    // Every structured lie of either user: no profitable one under the tolerance.
    for liar in 0..2 {
        for lie in leontief_solver::properties::scenarios::structured_lies(&inst, liar) {
            assert!(sp_scenario(&approx, &inst, &truth, liar, &lie)
                .unwrap()
                .is_none());
            let scenario = Scenario::Lies(vec![(liar, lie)]);
            let report = check(&approx, &inst, Property::Sp, &scenario).unwrap();
            assert!(report.verdict.holds);
            assert_eq!(report.verdict.tolerance, Some(tol()));
        }
    }
    for leaving in 0..2 {
        assert!(pm_scenario(&approx, &inst, &truth, leaving)
            .unwrap()
            .is_none());
    }
    // An exact truth with an approximate scenario answer still gets the margin: the
    // verdict is decided with the scenario's tolerance.
    let exact_truth = drf.allocate(&inst).unwrap();
    let report = check_with(
        &approx,
        &inst,
        &exact_truth,
        Property::Pm,
        &Scenario::Remove(1),
        &Bounds::default(),
    )
    .unwrap();
    assert!(report.verdict.holds);
    assert_eq!(report.verdict.tolerance, Some(tol()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn perturbed_answers_report_only_genuine_violations(inst in small_instances(4)) {
        // The perturbed answer is within the stated error of the exact one, so a violation
        // reported with the tolerance is a violation of the exact answer in the same
        // (deterministic) scenario set: wherever the exact mechanism holds, so must the
        // perturbed one. DRF has SI, EF, PO, SP, SRF, BF, PM, gsp-weak; asset fairness is
        // checked the same way for whatever it has.
        let drf = Drf::extended();
        let mechs: [&dyn Mechanism; 2] = [&drf, &AssetFairness];
        for inner in mechs {
            let truth = inner.allocate(&inst).unwrap();
            for mode in [Mode::Scattered, Mode::Down] {
                let approx = Perturbed::new(inner, mode);
                let approx_truth = approx.allocate(&inst).unwrap();
                for p in Property::ALL {
                    let exact = check_with(inner, &inst, &truth, p, &Scenario::Bounded, &small_bounds())
                        .unwrap();
                    let report =
                        check_with(&approx, &inst, &approx_truth, p, &Scenario::Bounded, &small_bounds())
                            .unwrap();
                    prop_assert_eq!(report.verdict.holds, report.witness().is_none());
                    if exact.verdict.holds {
                        prop_assert!(
                            report.verdict.holds,
                            "{} {:?} {}: spurious {:?}", inner.name(), mode, p, report.verdict
                        );
                    }
                    // Whatever the same numbers claimed exact would fail on is excused.
                    let claimed = Perturbed::new(inner, mode).claimed_exact();
                    let naive = check_with(
                        &claimed, &inst, &Allocation::new(approx_truth.tasks.clone()), p,
                        &Scenario::Bounded, &small_bounds(),
                    )
                    .unwrap();
                    if exact.verdict.holds && !naive.verdict.holds {
                        prop_assert!(report.verdict.within_tolerance, "{} {:?} {}", inner.name(), mode, p);
                    }
                    if report.verdict.holds && exact.verdict.applicable {
                        prop_assert_eq!(report.verdict.tolerance.clone(), Some(tol()));
                    }
                    prop_assert!(!report.verdict.within_tolerance || report.verdict.holds);
                }
            }
        }
    }
}

// ------------------------------------------------------------ genuine violations

#[test]
fn perturbed_asset_fairness_still_fails_si() {
    // Reference case asset-violates-si: user 2 gets 12 tasks where half of each resource
    // runs 15; a 1e-15 perturbation does not hide that.
    let inst = case_instance("asset-violates-si");
    for mode in [Mode::Scattered, Mode::Down] {
        let approx = Perturbed::new(&AssetFairness, mode);
        let report = check(&approx, &inst, Property::Si, &Scenario::Bounded).unwrap();
        assert_genuine_failure(&report.verdict, "si");
        let Some(Witness::Si(w)) = report.witness() else {
            panic!("expected an SI witness")
        };
        assert_eq!(inst.users()[w.user].name, "2");
        assert_eq!(w.split_utility, r("15"));
        assert!((&w.tasks - &r("12")).abs() < r("1/1000000000000"));
        let json = report.to_json(&inst);
        assert_eq!(json["tolerance"], tol().to_string());
        assert_eq!(json["within_tolerance"], false);
        assert_eq!(json["holds"], false);
    }
    // BF likewise (asset-violates-bf: 9 and 12 units of the common bottleneck).
    let inst = case_instance("asset-violates-bf");
    let approx = Perturbed::new(&AssetFairness, Mode::Scattered);
    let report = check(&approx, &inst, Property::Bf, &Scenario::Bounded).unwrap();
    assert_genuine_failure(&report.verdict, "bf");
    let Some(Witness::MaxMin(w)) = report.witness() else {
        panic!("expected a max-min witness")
    };
    assert!(matches!(
        w.violation,
        MaxMinViolation::Unequal {
            below_cap: 0,
            other: 1,
            ..
        }
    ));
}

#[test]
fn perturbed_drf_still_fails_rm() {
    // Reference case drf-not-rm: on (1, 1) A gets 1/3; on (1, 4) it gets 1/4.
    let inst = case_instance("drf-not-rm");
    let drf = Drf::extended();
    for mode in [Mode::Scattered, Mode::Down] {
        let approx = Perturbed::new(&drf, mode);
        let truth = approx.allocate(&inst).unwrap();
        let grow = vec![r("1"), r("4")];
        let w = rm_scenario(&approx, &inst, &truth, &grow)
            .unwrap()
            .expect("a genuine RM violation");
        assert_eq!(w.user, 0);
        assert!((&w.before - &r("1/3")).abs() < r("1/1000000000000"));
        assert!((&w.after - &r("1/4")).abs() < r("1/1000000000000"));
        let report = check(&approx, &inst, Property::Rm, &Scenario::Capacity(grow)).unwrap();
        assert_genuine_failure(&report.verdict, "rm");
        let bounded = check(&approx, &inst, Property::Rm, &Scenario::Bounded).unwrap();
        assert_genuine_failure(&bounded.verdict, "rm bounded");
    }
}

#[test]
fn violations_resting_on_equality_are_not_certified() {
    // collusion-four-operations: op1 and op2 keep exactly 1/2 and op3 gains 2/3 -> 3/4.
    // gsp-strong needs "no liar loses", an equality no approximate answer can certify; the
    // gain itself is far beyond the margin. The four_operations lie is the lecture's.
    let inst = case_instance("collusion-four-operations");
    let drf = Drf::extended();
    let lie = rs(&["1", "0", "1/2"]);
    let lies = vec![(0, lie.clone()), (1, lie)];
    let exact_truth = drf.allocate(&inst).unwrap();
    assert!(
        gsp_scenario(&drf, &inst, &exact_truth, &lies, GspReading::Strong)
            .unwrap()
            .is_some()
    );
    let approx = Perturbed::new(&drf, Mode::Scattered);
    let report = check(
        &approx,
        &inst,
        Property::GspStrong,
        &Scenario::Lies(lies.clone()),
    )
    .unwrap();
    assert!(report.verdict.holds);
    assert_eq!(report.verdict.tolerance, Some(tol()));
    // gsp-weak (every liar strictly gains) does not hold for the exact answer's liars
    // either: it holds both ways.
    let weak = check(&approx, &inst, Property::GspWeak, &Scenario::Lies(lies)).unwrap();
    assert!(weak.verdict.holds);
}

#[test]
fn violations_beyond_the_margin_are_reported_with_a_certified_gain() {
    // (3 - 1/1000, 2) leaves 1/1000 CPU and 4 GB free: A can grow by 1/1000 task, far
    // beyond the 1e-12 margin; the reported gain is what every admissible truth allows.
    let inst = paper();
    let x = Allocation::approximate(rs(&["2999/1000", "2"]), tol());
    let v = pareto_efficiency(&inst, &x).unwrap();
    assert_genuine_failure(&v, "po");
    let Some(Witness::Po(w)) = &v.witness else {
        panic!("expected a PO witness")
    };
    assert_eq!(w.user, 0);
    assert!(w.gain.is_positive() && w.gain < r("1/1000"));
    assert!(r("1/1000") - &w.gain < r("1/10000000000"));
    let improved = Allocation::new(w.improved.clone());
    assert!(improved.is_feasible(&inst));
    // Infeasibility beyond the margin is reported as such.
    let over = Allocation::approximate(rs(&["3", "2001/1000"]), tol());
    let Some(f) = feasibility(&inst, &over).unwrap() else {
        panic!("expected infeasibility")
    };
    assert_eq!(f.over_capacity, vec![(0, r("9003/1000"))]);
    // Envy beyond the margin: B with 1/2 task envies A's 3 tasks.
    let envied = Allocation::approximate(rs(&["3", "1/2"]), tol());
    let v = envy_freeness(&inst, &envied).unwrap();
    assert_genuine_failure(&v, "ef");
    // A tolerance that bounds nothing certifies nothing.
    let clueless = Allocation::approximate(rs(&["3", "1/2"]), 1);
    let v = envy_freeness(&inst, &clueless).unwrap();
    assert!(v.holds && v.within_tolerance);
}

#[test]
fn exact_allocations_have_no_margin() {
    // One resource of 1, one user: 1 - 1e-30 tasks wastes 1e-30, and that is a PO
    // violation with gain exactly 1e-30.
    let inst = Instance::new(vec![1.into()], vec![User::new("a", [1])]).unwrap();
    let tiny = Rational::from_decimal_str("1e-30").unwrap();
    let x = Allocation::new(vec![Rational::ONE - &tiny]);
    let v = pareto_efficiency(&inst, &x).unwrap();
    let Some(Witness::Po(w)) = &v.witness else {
        panic!("expected a PO witness")
    };
    assert_eq!(w.gain, tiny);
    assert_eq!(v.tolerance, None);
    assert!(!v.within_tolerance);
    assert!(!v.note.contains("tolerance"));
    // SRF too (the resource is not used up), and SI (1 - 1e-30 < the whole resource).
    assert!(!check_allocation(&inst, &x, Property::Srf).unwrap().holds);
    assert!(!sharing_incentive(&inst, &x).unwrap().holds);
    // The same numbers with a tolerance: within it.
    let approx = Allocation::approximate(x.tasks.clone(), tol());
    for p in [Property::Po, Property::Srf, Property::Si] {
        let v = check_allocation(&inst, &approx, p).unwrap();
        assert_holds_within_tolerance(&v, p.name());
    }
    // Exact verdicts' JSON says so.
    let report = check(&Drf::extended(), &paper(), Property::Ef, &Scenario::Bounded).unwrap();
    let json = report.to_json(&paper());
    assert_eq!(json["tolerance"], Value::Null);
    assert_eq!(json["within_tolerance"], false);
    assert_eq!(report.verdict.tolerance, None);
}
