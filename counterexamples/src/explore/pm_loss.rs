//! `pm-loss`: when one user leaves, the smallest ratio after / before over the users who
//! stay, minimized (docs/explore.md §3.3).
//!
//! `pm-loss = min_{l} min_{i != l} u_i(x'_i d_i) / u_i(x_i d_i)` where `x'` is the answer
//! without user `l`. Users with nothing before are skipped. A population-monotonic
//! mechanism has `pm-loss >= 1`. On one instance every departure is tried.
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011 (DRF is population
//!   monotonic; CEEI is not, §5).

use leontief_solver::properties::{utility_at_truth, Property, Scenario};
use leontief_solver::{Allocation, Instance, Mechanism, SolverError};

use super::metric::{
    ratio, scale, spread, try_scenario, Ctx, Direction, Evaluation, Metric, Utility,
};
use crate::candidate::Candidate;

/// See the [module docs](self).
pub struct PmLoss;

impl Metric for PmLoss {
    fn name(&self) -> &'static str {
        "pm-loss"
    }

    fn description(&self) -> &'static str {
        "min over a leaving user l and a staying user i of u_i(after) / u_i(before) (at least 1 when population monotonic)"
    }

    fn direction(&self) -> Direction {
        Direction::Min
    }

    fn property(&self) -> Property {
        Property::Pm
    }

    fn at(
        &self,
        mechanism: &dyn Mechanism,
        candidate: &Candidate,
        truth: &Allocation,
        utility: Utility,
    ) -> Result<Option<Evaluation>, SolverError> {
        let inst = &candidate.instance;
        let Scenario::Remove(l) = candidate.scenario else {
            return Err(SolverError::invalid(
                "witness",
                "pm-loss needs a leaving user",
            ));
        };
        let n = inst.num_users();
        if l >= n || n < 2 {
            return Err(SolverError::invalid(
                "witness.leaving",
                "no such user, or the only one",
            ));
        }
        let users: Vec<_> = (0..n)
            .filter(|&k| k != l)
            .map(|k| inst.users()[k].clone())
            .collect();
        let smaller =
            Instance::with_resources(inst.resources().to_vec(), inst.capacity().to_vec(), users)?;
        let after = mechanism.allocate(&smaller)?;
        let mut best: Option<Evaluation> = None;
        for i in (0..n).filter(|&i| i != l) {
            let k = if i > l { i - 1 } else { i };
            let s = scale(inst, i, utility);
            let Some(b) = spread(truth, i, |t| &utility_at_truth(inst, i, t) * &s) else {
                continue;
            };
            let Some(a) = spread(&after, k, |t| &utility_at_truth(inst, i, t) * &s) else {
                continue;
            };
            let Some((value, lo, hi)) = ratio(&a, &b) else {
                continue;
            };
            if best.as_ref().is_some_and(|e| hi >= e.hi) {
                continue;
            }
            best = Some(Evaluation {
                value,
                lo,
                hi,
                exact: truth.tolerance.is_none() && after.tolerance.is_none(),
                candidate: candidate.clone(),
                user: i,
                other: Some(l),
                numerator: a.value,
                denominator: b.value,
                before: truth.clone(),
                after: Some(after.clone()),
            });
        }
        Ok(best)
    }

    fn evaluate(
        &self,
        mechanism: &dyn Mechanism,
        instance: &Instance,
        truth: &Allocation,
        ctx: &mut Ctx,
    ) -> Option<Evaluation> {
        let n = instance.num_users();
        let mut best = None;
        if n < 2 {
            return None;
        }
        for l in 0..n {
            let c = Candidate::new(instance.clone(), Scenario::Remove(l));
            try_scenario(self, mechanism, c, truth, ctx, &mut best);
        }
        best
    }
}
