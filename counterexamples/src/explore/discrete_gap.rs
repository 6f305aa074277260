//! `discrete-gap`: how far discrete DRF (the DRF paper's Algorithm 1, whole tasks) lands
//! from fluid DRF on the same instance, in the units of the DRF paper's Theorem 7,
//! maximized (docs/explore.md §3.9).
//!
//! Theorem 7 (Ghodsi et al., NSDI 2011) bounds a *pairwise* quantity: "the difference
//! between the allocations of any two users is bounded by one max-task compared to the
//! continuous allocation", where the allocations are the users' dominant shares and a
//! max-task is the largest task. With `s_i = x_i μ_i` user `i`'s dominant share
//! (`μ_i = max_j d_ij / R_j`, one task's dominant share), `δ_i = s_i^discrete − s_i^fluid`
//! its drift from the fluid allocation and `μ_max = max_i μ_i`:
//!
//! `discrete-gap = max_{i, k} (δ_i − δ_k) / μ_max = (max_i δ_i − min_k δ_k) / μ_max`.
//!
//! The theorem's claim is `discrete-gap ≤ 1`. The witness names the user of the largest
//! drift (`user`) and of the smallest (`below`); the numerator is `δ_user − δ_below`, the
//! denominator `μ_max`; the discrete answer is `allocation_before`, the fluid one
//! (`Drf::extended()`) `allocation_fluid`. The value is a ratio of dominant shares, so it
//! does not depend on `--utility`. An instance whose tasks are all empty has no value.
//!
//! The metric applies to `discrete-drf` only.
//!
//! # Example
//! One resource of 3 units, A and B each need 2 per task. Fluid DRF gives each `3/4` of a
//! task (share `1/2`); Algorithm 1 gives A one task (share `2/3`), then B's task does not
//! fit and the run stops: `δ_A = 1/6`, `δ_B = −1/2`, `μ_max = 2/3`, the gap `1`: the
//! theorem's bound, reached.
//! ```
//! use leontief_counterexamples::candidate::Candidate;
//! use leontief_counterexamples::explore::{At, MetricName, Utility};
//! use leontief_solver::properties::Scenario;
//! use leontief_solver::{DiscreteDrf, Instance, Mechanism, User};
//! let inst = Instance::new(vec![3.into()], vec![User::new("A", [2]), User::new("B", [2])]).unwrap();
//! let dd = DiscreteDrf::paper();
//! let truth = dd.allocate(&inst).unwrap();
//! let c = Candidate::new(inst, Scenario::Bounded);
//! let e = MetricName::DiscreteGap.metric().at(&At::new(&dd, &c, &truth, Utility::Tasks)).unwrap().unwrap();
//! assert_eq!(e.value.to_string(), "1");
//! ```
//!
//! # Complexity
//! One fluid DRF allocation per instance, then `O(n m)`.
//!
//! # References
//! - A. Ghodsi, M. Zaharia, B. Hindman, A. Konwinski, S. Shenker, I. Stoica. *Dominant
//!   Resource Fairness: Fair Allocation of Multiple Resource Types.* NSDI 2011, Theorem 7
//!   and Algorithm 1.

use leontief_solver::properties::Property;
use leontief_solver::{Allocation, Drf, Instance, Mechanism, Rational, SolverError};

use super::metric::{Applies, At, Direction, Evaluation, Metric, MetricInfo};
use super::metric_common::{bounded, Of};

/// See the [module docs](self).
pub struct DiscreteGap;

/// The drifts `δ_i = (x_i^discrete − x_i^fluid) μ_i` of every user.
fn drifts(inst: &Instance, discrete: &Allocation, fluid: &Allocation) -> Vec<Rational> {
    (0..inst.num_users())
        .map(|i| &(&discrete.tasks[i] - &fluid.tasks[i]) * &inst.task_dominant_share(i))
        .collect()
}

/// The users of the largest and of the smallest drift (the first of each by index).
fn extremes(d: &[Rational]) -> (usize, usize) {
    let first = |better: fn(&Rational, &Rational) -> bool| {
        (0..d.len()).fold(0, |top, i| if better(&d[i], &d[top]) { i } else { top })
    };
    (first(|x, top| x > top), first(|x, top| x < top))
}

/// What the metric measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo {
    applies: Applies::Only {
        accepts: |name| name == "discrete-drf",
        reason: "discrete-gap compares discrete DRF with fluid DRF: it applies to \
                 discrete-drf only",
    },
    uses_utility: false,
    ratio_of: "dominant shares",
    compared: "allocation_fluid",
    ..MetricInfo::ratio(
        "max over users i, k of (δ_i − δ_k) / μ_max, δ the dominant share of discrete DRF \
         minus fluid DRF's, μ_max the largest task's (at most 1 by the DRF paper's Theorem 7 \
         with one resource or positive demands; unbounded once demands may be zero)",
        Direction::Max,
        Property::Po,
    )
};

impl Metric for DiscreteGap {
    fn detail(&self, _: &str, e: &Evaluation) -> Option<serde_json::Value> {
        let below = e.candidate.instance.user_path(e.other?);
        Some(serde_json::json!({ "below": below }))
    }

    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let inst = bounded(self, at)?;
        let (candidate, truth) = (at.candidate, at.truth);
        let fluid = Drf::extended().allocate(inst)?;
        if truth.tolerance.is_some() || fluid.tolerance.is_some() {
            return Ok(None);
        }
        let shares = (0..inst.num_users()).map(|i| inst.task_dominant_share(i));
        let Some(max_task) = shares.max().filter(Rational::is_positive) else {
            return Ok(None);
        };
        let d = drifts(inst, truth, &fluid);
        let (hi, lo) = extremes(&d);
        let of = Of::new(candidate, truth, Some(&fluid));
        let gap = &d[hi] - &d[lo];
        Ok(Some(of.exact_ratio(hi, Some(lo), gap, max_task)))
    }
}
