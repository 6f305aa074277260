//! `fair-welfare-ratio`: how much welfare the mechanism gives up against the best
//! allocation with sharing incentive and envy-freeness, maximized (docs/explore.md §3.8;
//! docs/theory.md §5 question 6).
//!
//! `fair-welfare-ratio = FAIR / W(x)` with `W(x) = Σ_i a_i x_i` the mechanism's welfare and
//! `FAIR` the largest welfare of a feasible SI and EF allocation ([`best_fair_welfare`]:
//! exact LPs, one per set of capped users held at their caps); `a_i` as for
//! [`welfare-ratio`](super::welfare_ratio), dominant shares by default. A mechanism with SI
//! and EF (DRF, CEEI) has a value of at least 1; an unfair one may fall below 1. No
//! scenario.
//!
//! The numerator is `FAIR`, the denominator `W(x)`; the witness holds the best fair
//! allocation (`allocation_optimum`) beside the mechanism's (`allocation_before`), and no
//! user. Approximate answers get a certified interval and answers that may have welfare 0
//! no value, as for `welfare-ratio`;
//! an instance with more than [`MAX_CAPPED_USERS`](leontief_solver::welfare::MAX_CAPPED_USERS)
//! capped users is an error (the enumeration is exponential in them).
//!
//! # Complexity
//! `2^k` LPs for `k` capped users, each with `n` variables and up to `m + k + n(n − 1)`
//! rows.
//!
//! # References
//! - X. Bei, Z. Li, J. Luo. *Fair and Efficient Multi-Resource Allocation for Cloud
//!   Computing.* WINE 2022 (the fair-ratio).
//! - D. C. Parkes, A. D. Procaccia, N. Shah. *Beyond Dominant Resource Fairness: Extensions,
//!   Limitations, and Indivisibilities.* ACM EC 2012.

use leontief_solver::properties::Property;
use leontief_solver::welfare::best_fair_welfare;
use leontief_solver::{Allocation, Instance, Mechanism, SolverError};

use super::metric::{Ctx, Direction, Evaluation, Metric, Utility};
use super::welfare_ratio::{against, evaluate_bounded};
use crate::candidate::Candidate;

/// See the [module docs](self).
pub struct FairWelfareRatio;

impl Metric for FairWelfareRatio {
    fn name(&self) -> &'static str {
        "fair-welfare-ratio"
    }

    fn description(&self) -> &'static str {
        "FAIR / W(x): the best SI and EF welfare (exact LPs) over the mechanism's welfare \
         (default utility dominant-share)"
    }

    fn direction(&self) -> Direction {
        Direction::Max
    }

    /// Pareto efficiency: a whole-allocation measure, shrunk with the reductions of the
    /// allocation properties (see `welfare-ratio`).
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
            let fair = best_fair_welfare(inst, u)?;
            Ok((fair.value, fair.allocation))
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
