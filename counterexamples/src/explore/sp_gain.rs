//! `sp-gain`: a single liar's true utility under its lie over its utility at the truth,
//! maximized (docs/explore.md §3.1).
//!
//! `sp-gain = max_{i, d'_i} u_i(x'_i d'_i) / u_i(x_i d_i)` where `x'` is the answer on the
//! profile in which `i` reports `d'_i` and utilities are measured with the true demand and
//! cap (`properties::utility_of_report`). Users with nothing at the truth are skipped (the
//! ratio is undefined). A strategy-proof mechanism has `sp-gain <= 1`, and the truth gives
//! 1, so its record is exactly 1.
//!
//! On one instance the lies tried are the search's: every user's structured and grid lies
//! (`search::user_lies`), then a local climb over the best lie (`search::neighbour_profile`
//! with one liar), kept when the gain does not fall. On a grid instance of an exhaustive run
//! ([`Ctx::grid_only`](super::Ctx::grid_only)): the grid lies alone, no climb.
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011 (DRF is strategy-proof; CEEI
//!   is not, §5).
//! - N. Chen, X. Deng, J. Zhang. *How Profitable Are Strategic Behaviors in a Market?* ESA
//!   2011 (the incentive ratio of the Fisher market, hence of CEEI, is at most 2).

use leontief_solver::properties::{utility_at_truth, utility_of_report, Property, Scenario};
use leontief_solver::{Allocation, Instance, Mechanism, Rational, SolverError};

use super::knife;
use super::metric::{
    scale, spread, try_scenario, Ctx, Direction, Evaluation, Metric, MetricInfo, Utility,
};
use super::metric_common::Of;
use super::MetricName;
use crate::candidate::Candidate;
use crate::search::{grid_lies, neighbour_profile, user_lies, Lies};

/// A lie profile and its value.
type Scored = Option<(Rational, Vec<(usize, Vec<Rational>)>)>;

/// See the [module docs](self).
pub struct SpGain;

/// What the metric measures, in which direction, and how its record is shaped.
const INFO: MetricInfo = MetricInfo {
    one_is_neutral: true,
    ..MetricInfo::ratio(
        MetricName::SpGain,
        "max over one liar i and its report d' of u_i(x'_i d') / u_i(x_i d_i) (at most 1 when strategy-proof)",
        Direction::Max,
        Property::Sp,
    )
};

impl Metric for SpGain {
    fn info(&self) -> &'static MetricInfo {
        &INFO
    }

    fn at(
        &self,
        mechanism: &dyn Mechanism,
        candidate: &Candidate,
        truth: &Allocation,
        utility: Utility,
    ) -> Result<Option<Evaluation>, SolverError> {
        let inst = &candidate.instance;
        let Scenario::Lies(lies) = &candidate.scenario else {
            return Err(SolverError::invalid("witness", "sp-gain needs one lie"));
        };
        let [(i, report)] = lies.as_slice() else {
            return Err(SolverError::invalid(
                "witness",
                "sp-gain needs exactly one liar",
            ));
        };
        let i = *i;
        if i >= inst.num_users() {
            return Err(SolverError::invalid("witness.user", "no such user"));
        }
        let lied = inst.with_reports(lies)?;
        let after = mechanism.allocate(&lied)?;
        let s = scale(inst, i, utility);
        let Some(b) = spread(truth, i, |t| &utility_at_truth(inst, i, t) * &s) else {
            return Ok(None);
        };
        let Some(a) = spread(&after, i, |t| &utility_of_report(inst, i, t, report) * &s) else {
            return Ok(None);
        };
        let of = Of::new(candidate, truth, Some(&after));
        let mut best = None;
        of.keep_ratio(&mut best, self.direction(), i, None, &a, &b);
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
        let mut profile: Scored = None;
        let consider = |p: Vec<(usize, Vec<Rational>)>,
                        ctx: &mut Ctx,
                        best: &mut Option<Evaluation>,
                        profile: &mut Scored| {
            let c = Candidate::new(instance.clone(), Scenario::Lies(p.clone()));
            if let Some(e) = try_scenario(self, mechanism, c, truth, ctx, best)
                && profile.as_ref().is_none_or(|(v, _)| e.value >= *v)
            {
                *profile = Some((e.value, p));
            }
        };
        if let Some(Scenario::Lies(hint)) = ctx.hint.clone()
            && hint.len() == 1
            && hint[0].0 < n
            && hint[0].1.len() == instance.num_resources()
        {
            consider(hint, ctx, &mut best, &mut profile);
        }
        let lists: Vec<Lies> = (0..n)
            .map(|i| match ctx.grid_only {
                true => grid_lies(instance, i, ctx.values),
                false => user_lies(instance, i, ctx.values, ctx.grid, &mut ctx.rng),
            })
            .collect();
        for (i, list) in lists.iter().enumerate() {
            if !truth.tasks[i].is_positive() {
                continue;
            }
            for lie in list.iter() {
                if ctx.spent() {
                    return best;
                }
                consider(vec![(i, lie)], ctx, &mut best, &mut profile);
            }
        }
        if ctx.grid_only {
            // The knife-edge strata and the climb leave the grid.
            return best;
        }
        // Knife-edge lies (super::knife): the breakpoints sampling misses, in place of as
        // many climb steps.
        let before = ctx.scenarios;
        knife::lie_strata(self, mechanism, instance, truth, ctx, &mut best);
        let climb = ctx
            .climb_steps
            .saturating_sub((ctx.scenarios - before) as usize);
        let (_, mut current) = profile.clone()?;
        for _ in 0..climb {
            if ctx.spent() {
                break;
            }
            let values = ctx.values;
            let Some(next) = neighbour_profile(instance, values, &current, &lists, 1, &mut ctx.rng)
            else {
                continue;
            };
            consider(next.clone(), ctx, &mut best, &mut profile);
            if profile.as_ref().is_some_and(|(_, p)| *p == next) {
                current = next;
            }
        }
        best
    }
}
