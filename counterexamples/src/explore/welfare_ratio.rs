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
//! An approximate answer (CEEI when its equilibrium is not certified, docs/theory.md §2.5) has
//! no exact welfare: its task counts are within `e_i` of the true ones
//! (`Allocation::error_bound`), so the true welfare lies in
//! `[Σ_i a_i max(x_i − e_i, 0), Σ_i a_i (x_i + e_i)]` and the ratio in the interval of `OPT`
//! over those ends, recorded with `"exact": false` (docs/explore.md §4). An answer whose
//! welfare may be 0 (or whose error is unbounded) gets no value. A record of an irrational
//! answer known exactly ([`At::algebraic`], CEEI) is exact: the welfare `Σ_i a_i x_i` of one
//! equilibrium's task counts over the rational benchmark.
//!
//! **`fair-welfare-ratio`** is the same ratio with `FAIR` in place of `OPT`: the largest
//! welfare of a feasible allocation with sharing incentive and envy-freeness
//! ([`best_fair_welfare`]: exact LPs, one per set of capped users held at their caps;
//! docs/explore.md §3.8; docs/theory.md §5 question 6). A mechanism with SI and EF (DRF,
//! CEEI) has a value of at least 1; an unfair one may fall below 1. Its witness holds the
//! best fair allocation under `allocation_optimum`; an instance with more than
//! [`MAX_CAPPED_USERS`](leontief_solver::welfare::MAX_CAPPED_USERS) capped users is an error
//! (the enumeration is exponential in them).
//!
//! # Example
//! The DRF paper's example (9 CPUs, 18 GB; A ⟨1, 4⟩, B ⟨3, 1⟩): DRF gives A 3 tasks and B
//! 2, welfare `3 · 2/9 + 2 · 1/3 = 4/3` in dominant shares; the optimum `(45/11, 18/11)` has
//! `16/11`, the ratio `12/11`.
//! ```
//! use leontief_counterexamples::candidate::Candidate;
//! use leontief_counterexamples::explore::{At, MetricName, Utility};
//! use leontief_solver::properties::Scenario;
//! use leontief_solver::{Drf, Instance, Mechanism, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let drf = Drf::extended();
//! let truth = drf.allocate(&paper).unwrap();
//! let c = Candidate::new(paper, Scenario::Bounded);
//! let m = MetricName::WelfareRatio.metric();
//! let e = m.at(&At::new(&drf, &c, &truth, Utility::DominantShare)).unwrap().unwrap();
//! assert_eq!(e.value.to_string(), "12/11");
//! ```
//!
//! # Complexity
//! `welfare-ratio`: one LP per instance (`n` variables, `m + k` rows for `k` capped users).
//! `fair-welfare-ratio`: `2^k` LPs, each with `n` variables and up to `m + k + n(n − 1)`
//! rows.
//!
//! # References
//! - D. C. Parkes, A. D. Procaccia, N. Shah. *Beyond Dominant Resource Fairness: Extensions,
//!   Limitations, and Indivisibilities.* ACM EC 2012 (DRF's utilitarian welfare is within a
//!   factor `m` of the optimum, in dominant shares, and that is tight).
//! - D. Bertsimas, V. F. Farias, N. Trichakis. *The Price of Fairness.* Operations Research
//!   59(1), 2011.
//! - X. Bei, Z. Li, J. Luo. *Fair and Efficient Multi-Resource Allocation for Cloud
//!   Computing.* WINE 2022 (the fair-ratio).

use leontief_solver::algebraic::RealAlgebraic;
use leontief_solver::properties::Property;
use leontief_solver::welfare::{best_fair_welfare, utilitarian_optimum, welfare};
use leontief_solver::{Allocation, Instance, Rational, SolverError};

use super::exact;
use super::metric::{At, Direction, Evaluation, Metric, MetricInfo, Spread, Utility};
use super::metric_common::{bounded, Of};

/// See the [module docs](self): `welfare-ratio`, against the utilitarian optimum.
pub struct WelfareRatio;

/// See the [module docs](self): `fair-welfare-ratio`, against the best allocation with
/// sharing incentive and envy-freeness.
pub struct FairWelfareRatio;

/// `W(x) = Σ_i a_i x_i` with the interval of the true answer's welfare (the answer's error
/// bounds; task counts below 0 clamped to 0); `None` when the error is unbounded.
fn welfare_spread(inst: &Instance, x: &Allocation, utility: Utility) -> Option<Spread> {
    let (mut value, mut lo, mut hi) = (Rational::ZERO, Rational::ZERO, Rational::ZERO);
    for (i, t) in x.tasks.iter().enumerate() {
        let a = utility.per_task(inst, i);
        let e = x.error_bound(i)?;
        value += &a * t;
        lo += &a * &(t - &e).max(Rational::ZERO);
        hi += &a * &(t + &e);
    }
    Some(Spread { value, lo, hi })
}

/// `best(instance) / W(truth)` for a welfare benchmark `best` (the optimum, or the best fair
/// allocation) returning its value and an allocation reaching it, with the certified
/// interval of an approximate answer (or, asked for with [`At::algebraic`], the exact value
/// of an irrational answer known exactly); `Ok(None)` for an answer whose welfare may be 0.
fn against(
    metric: &dyn Metric,
    at: &At,
    best: impl FnOnce(&Instance, Utility) -> Result<(Rational, Allocation), SolverError>,
) -> Result<Option<Evaluation>, SolverError> {
    let inst = bounded(metric, at)?;
    let (candidate, truth, utility) = (at.candidate, at.truth, at.utility);
    // An approximate answer's welfare is known to lie in an interval: the ratio is certified
    // by its ends, never taken from the computed numbers alone.
    let w = match truth.tolerance {
        None => Some(Spread::exact(welfare(inst, truth, utility)?)),
        Some(_) => welfare_spread(inst, truth, utility),
    };
    let Some(w) = w.filter(|w| w.lo.is_positive()) else {
        return Ok(None);
    };
    let (opt, x) = best(inst, utility)?;
    let of = Of::new(candidate, truth, Some(&x));
    let benchmark = Spread::exact(opt.clone());
    let mut approximate = None;
    // The value is about the whole allocation (`MetricInfo::per_user` is false): no user (0).
    of.keep_ratio(&mut approximate, Direction::Max, 0, None, &benchmark, &w);
    // The mechanism's welfare is one linear combination of one equilibrium's task counts;
    // the benchmark is rational.
    Ok(exact::or_exact(at, approximate, || {
        let Some(tasks) = exact::tasks(at, inst)? else {
            return Ok(None);
        };
        let terms = (tasks.iter().enumerate()).map(|(i, t)| (utility.per_task(inst, i), t));
        let w = exact::sum(terms)?;
        let opt = RealAlgebraic::from_rational(opt.to_big());
        exact::best(&of, Direction::Max, vec![(0, None, opt, w)], &tasks, None).map(Some)
    }))
}

/// `welfare-ratio`: what it measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo {
    default_utility: Utility::DominantShare,
    per_user: false,
    compared: "allocation_optimum",
    ..MetricInfo::ratio(
        "OPT / W(x): the utilitarian optimum (exact LP) over the mechanism's welfare \
         (default utility dominant-share)",
        Direction::Max,
        Property::Po,
    )
};

/// `fair-welfare-ratio`: as `welfare-ratio`, against the best fair welfare.
pub(super) const FAIR_INFO: MetricInfo = MetricInfo {
    description:
        "FAIR / W(x): the best SI and EF welfare (exact LPs) over the mechanism's welfare \
                  (default utility dominant-share)",
    ..INFO
};

impl Metric for WelfareRatio {
    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        against(self, at, |inst, u| {
            utilitarian_optimum(inst, u).map(|best| (best.value, best.allocation))
        })
    }
}

impl Metric for FairWelfareRatio {
    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        against(self, at, |inst, u| {
            best_fair_welfare(inst, u).map(|best| (best.value, best.allocation))
        })
    }
}
