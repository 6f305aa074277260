//! `rm-loss`: when capacities grow, the smallest ratio after / before over the users,
//! minimized (docs/explore.md §3.4).
//!
//! `rm-loss = min_{R' >= R} min_i u_i(x'_i d_i) / u_i(x_i d_i)` where `x'` is the answer on
//! capacities `R'`. Users with nothing before are skipped. A resource-monotonic mechanism
//! has `rm-loss >= 1`. With `--utility dominant-share` the after-utility is the dominant
//! share of the **grown** capacities, so the two normalisations differ here (by
//! `μ'_i / μ_i`, docs/explore.md §2).
//!
//! On one instance the growths tried are the search's (`search::capacity_growths`: the
//! capacity grid and three random growths), then a local perturbation of the best one:
//! one resource's growth raised or lowered by a quarter of its capacity, or set to ×1. On a
//! grid instance of an exhaustive run ([`Ctx::grid_only`](super::Ctx::grid_only)): the
//! capacity grid alone.
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011, §5 (DRF is not resource
//!   monotonic: capacities (1, 1) → (1, 4) with ⟨2, 1⟩ and ⟨1, 2⟩).

use leontief_solver::properties::scenarios::capacity_grid;
use leontief_solver::properties::{utility_at_truth, Property, Scenario};
use leontief_solver::{Rational, SolverError};

use super::metric::{spread, At, Ctx, Direction, Evaluation, Metric, MetricInfo, Subject};
use super::metric_common::{needs, Of};
use super::{exact, knife};
use crate::search::capacity_growths;

/// See the [module docs](self).
pub struct RmLoss;

/// What the metric measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo::ratio(
    "min over grown capacities R' >= R and users i of u_i(after) / u_i(before) (at least 1 when resource monotonic)",
    Direction::Min,
    Property::Rm,
);

impl Metric for RmLoss {
    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let Scenario::Capacity(grown) = &at.candidate.scenario else {
            return Err(needs(self, "grown capacities"));
        };
        let (mechanism, candidate, truth, utility) =
            (at.mechanism, at.candidate, at.truth, at.utility);
        let inst = &candidate.instance;
        if grown.len() != inst.num_resources()
            || grown.iter().zip(inst.capacity()).any(|(g, r)| g < r)
        {
            return Err(SolverError::invalid(
                "witness.capacity_after",
                "expected one capacity per resource, each at least the old one",
            ));
        }
        let bigger = inst.with_capacity(grown.clone())?;
        let after = mechanism.allocate(&bigger)?;
        let of = Of::new(candidate, truth, Some(&after));
        let mut best: Option<Evaluation> = None;
        for i in 0..inst.num_users() {
            let s = utility.per_task(inst, i);
            let s_after = utility.per_task(&bigger, i);
            let b = spread(truth, i, |t| &utility_at_truth(inst, i, t) * &s);
            let a = spread(&after, i, |t| &utility_at_truth(inst, i, t) * &s_after);
            let (Some(a), Some(b)) = (a, b) else {
                continue;
            };
            of.keep_ratio(&mut best, self.direction(), i, None, &a, &b);
        }
        Ok(exact::or_exact(at, best, || {
            let Some((before, grown)) = exact::both(at, &bigger)? else {
                return Ok(None);
            };
            let rows = (0..inst.num_users()).map(|i| {
                let (s, s_after) = (utility.per_task(inst, i), utility.per_task(&bigger, i));
                (i, None, [(&grown[i], s_after), (&before[i], s)])
            });
            let ratios = exact::truth_ratios(inst, rows)?;
            exact::best(&of, self.direction(), ratios, &before, Some(&grown)).map(Some)
        }))
    }

    fn evaluate(&self, on: &Subject, ctx: &mut Ctx) -> Option<Evaluation> {
        let instance = on.instance;
        let mut best: Option<Evaluation> = None;
        let mut growths = Vec::new();
        if let Some(Scenario::Capacity(g)) = &ctx.hint
            && g.len() == instance.num_resources()
            && g.iter().zip(instance.capacity()).all(|(g, r)| g >= r)
        {
            growths.push(g.clone());
        }
        // On a grid-only run, the capacity grid alone: no random growth, no perturbation.
        let grid_only = ctx.grid_only();
        match grid_only {
            true => growths = capacity_grid(instance),
            false => growths.extend(capacity_growths(instance, &mut ctx.rng)),
        }
        for g in growths {
            on.try_scenario(self, Scenario::Capacity(g), ctx, &mut best);
        }
        if grid_only {
            return best;
        }
        // Local perturbation of the best growth, in exact quarter steps of the capacity.
        let m = instance.num_resources();
        for _ in 0..(2 * m).min(8) {
            if ctx.spent() {
                break;
            }
            let Some(Scenario::Capacity(g)) = best.as_ref().map(|e| e.candidate.scenario.clone())
            else {
                break;
            };
            let j = ctx.rng.range(0, m as u64 - 1) as usize;
            let r = &instance.capacity()[j];
            let quarter = r * &Rational::new(1, 4).expect("nonzero");
            let mut next = g.clone();
            next[j] = match ctx.rng.range(0, 2) {
                0 => &g[j] + &quarter,
                1 => (&g[j] - &quarter).max(r.clone()),
                _ => r.clone(),
            };
            if next == g {
                continue;
            }
            on.try_scenario(self, Scenario::Capacity(next), ctx, &mut best);
        }
        // Knife-edge instances (super::knife), with the best growth above.
        knife::instance_strata(self, on, ctx, &mut best);
        best
    }
}
