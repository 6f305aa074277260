//! `welfare-ratio`: how much utilitarian welfare the mechanism gives up against the
//! optimum, maximized (docs/explore.md §3.7; the price of fairness of one instance,
//! docs/theory.md §5 question 5).
//!
//! `welfare-ratio = OPT / W(x)` with `W(x) = Σ_i a_i x_i` the mechanism's welfare and `OPT`
//! the largest welfare of a feasible allocation ([`utilitarian_optimum`], an exact LP with a
//! checked dual certificate); `a_i = 1` (tasks) or `a_i = μ_i = max_j d_ij / R_j` (dominant
//! shares, the default: the normalisation of Parkes, Procaccia and Shah). The value is at
//! least 1. No scenario: the instance itself is measured.
//!
//! The numerator is `OPT`, the denominator `W(x)`; the witness holds the optimal allocation
//! (`allocation_optimum`) beside the mechanism's (`allocation_before`). The value is about
//! the whole allocation, so the record names no user.
//!
//! An approximate answer (CEEI when its equilibrium is not certified) has no exact welfare:
//! such an instance gets no value, and so does an answer of welfare 0.
//!
//! # Example
//! The DRF paper's example (9 CPUs, 18 GB; A ⟨1, 4⟩, B ⟨3, 1⟩): DRF gives A 3 tasks and B
//! 2, welfare `3 · 2/9 + 2 · 1/3 = 4/3` in dominant shares; the optimum `(45/11, 18/11)` has
//! `16/11`, the ratio `12/11`.
//! ```
//! use leontief_counterexamples::candidate::Candidate;
//! use leontief_counterexamples::explore::{MetricName, Utility};
//! use leontief_solver::properties::Scenario;
//! use leontief_solver::{Drf, Instance, Mechanism, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let drf = Drf::extended();
//! let truth = drf.allocate(&paper).unwrap();
//! let c = Candidate::new(paper, Scenario::Bounded);
//! let m = MetricName::WelfareRatio.metric();
//! let e = m.at(&drf, &c, &truth, Utility::DominantShare).unwrap().unwrap();
//! assert_eq!(e.value.to_string(), "12/11");
//! ```
//!
//! # Complexity
//! One LP per instance (`n` variables, `m + k` rows for `k` capped users).
//!
//! # References
//! - D. C. Parkes, A. D. Procaccia, N. Shah. *Beyond Dominant Resource Fairness: Extensions,
//!   Limitations, and Indivisibilities.* ACM EC 2012 (DRF's utilitarian welfare is within a
//!   factor `m` of the optimum, in dominant shares, and that is tight).
//! - D. Bertsimas, V. F. Farias, N. Trichakis. *The Price of Fairness.* Operations Research
//!   59(1), 2011.

use leontief_solver::properties::{Property, Scenario};
use leontief_solver::welfare::{utilitarian_optimum, welfare};
use leontief_solver::{Allocation, Instance, Mechanism, Rational, SolverError};

use super::metric::{try_scenario, Ctx, Direction, Evaluation, Metric, Utility};
use crate::candidate::Candidate;

/// See the [module docs](self).
pub struct WelfareRatio;

/// `best(instance) / W(truth)` for a welfare benchmark `best` (the optimum, or the best fair
/// allocation) returning its value and an allocation reaching it; `Ok(None)` for an
/// approximate answer or one of welfare 0.
pub(crate) fn against(
    name: &str,
    candidate: &Candidate,
    truth: &Allocation,
    utility: Utility,
    best: impl FnOnce(&Instance, Utility) -> Result<(Rational, Allocation), SolverError>,
) -> Result<Option<Evaluation>, SolverError> {
    if candidate.scenario != Scenario::Bounded {
        return Err(SolverError::invalid(
            "witness",
            format!("{name} takes no scenario"),
        ));
    }
    // An approximate answer's welfare is not known exactly: no value rather than a guess.
    if truth.tolerance.is_some() {
        return Ok(None);
    }
    let inst = &candidate.instance;
    let w = welfare(inst, truth, utility)?;
    if !w.is_positive() {
        return Ok(None);
    }
    let (opt, x) = best(inst, utility)?;
    let value = &opt / &w;
    Ok(Some(Evaluation {
        lo: value.clone(),
        hi: value.clone(),
        value,
        exact: true,
        candidate: candidate.clone(),
        // The value is about the whole allocation (`Metric::per_user` is false): no user.
        user: 0,
        other: None,
        numerator: opt,
        denominator: w,
        before: truth.clone(),
        after: Some(x),
    }))
}

/// The metric's only scenario: the instance itself.
pub(crate) fn evaluate_bounded(
    metric: &dyn Metric,
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    ctx: &mut Ctx,
) -> Option<Evaluation> {
    let mut best = None;
    let c = Candidate::new(instance.clone(), Scenario::Bounded);
    try_scenario(metric, mechanism, c, truth, ctx, &mut best);
    best
}

impl Metric for WelfareRatio {
    fn name(&self) -> &'static str {
        "welfare-ratio"
    }

    fn description(&self) -> &'static str {
        "OPT / W(x): the utilitarian optimum (exact LP) over the mechanism's welfare \
         (default utility dominant-share)"
    }

    fn direction(&self) -> Direction {
        Direction::Max
    }

    /// Pareto efficiency: the value measures a whole allocation, like PO, so the shrinker
    /// uses the reductions of the allocation properties (fewer users and resources, simpler
    /// numbers; no scenario to carry along).
    fn property(&self) -> Property {
        Property::Po
    }

    fn default_utility(&self) -> Utility {
        Utility::DominantShare
    }

    fn per_user(&self) -> bool {
        false
    }

    fn compared(&self) -> &'static str {
        "allocation_optimum"
    }

    fn at(
        &self,
        _mechanism: &dyn Mechanism,
        candidate: &Candidate,
        truth: &Allocation,
        utility: Utility,
    ) -> Result<Option<Evaluation>, SolverError> {
        against(self.name(), candidate, truth, utility, |inst, u| {
            let opt = utilitarian_optimum(inst, u)?;
            Ok((opt.value, opt.allocation))
        })
    }

    fn evaluate(
        &self,
        mechanism: &dyn Mechanism,
        instance: &Instance,
        truth: &Allocation,
        ctx: &mut Ctx,
    ) -> Option<Evaluation> {
        evaluate_bounded(self, mechanism, instance, truth, ctx)
    }
}
