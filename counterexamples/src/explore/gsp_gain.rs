//! `gsp-gain`: the largest gain of a coalition member when no member is worse off,
//! maximized (docs/explore.md §3.2).
//!
//! A coalition `S` of liars reports `d'_S`; the members are the liars and whoever strictly
//! gains (the strong reading of docs/theory.md §3). The profile counts only when no liar's
//! true utility falls; its value is `max_{i in members} u_i(after) / u_i(before)`.
//! `gsp-gain > 1` is a violation of `gsp-strong`; a group strategy-proof mechanism (strong
//! reading) has `gsp-gain = 1`. Users with nothing before are skipped as members.
//!
//! For an approximate answer (uncertified CEEI) "no liar worse off" is decided on the
//! computed numbers; the value's interval is certified, the condition is not (the record
//! says `"exact": false`).
//!
//! On one instance: every single lie of the search (`search::user_lies`), `group_samples`
//! random coalitions of every size, each member with one of its lies, then a local climb
//! (`search::neighbour_profile`: change a report's component, add or drop a liar). On a grid
//! instance of an exhaustive run ([`Ctx::grid_only`](super::Ctx::grid_only)): grid lies and
//! coalitions of them, no climb.
//!
//! # References
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness.* EC 2012.

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

/// See the [module docs](self).
pub struct GspGain;

type Profile = Vec<(usize, Vec<Rational>)>;

/// What the metric measures, in which direction, and how its record is shaped.
const INFO: MetricInfo = MetricInfo {
    one_is_neutral: true,
    ..MetricInfo::ratio(
        MetricName::GspGain,
        "max over coalitions with no member worse off of a member's u_i(after) / u_i(before)",
        Direction::Max,
        Property::GspStrong,
    )
};

impl Metric for GspGain {
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
            return Err(SolverError::invalid(
                "witness",
                "gsp-gain needs a coalition's lies",
            ));
        };
        if lies.is_empty() || lies.iter().any(|(i, _)| *i >= inst.num_users()) {
            return Err(SolverError::invalid(
                "witness.reports",
                "expected liars among the users",
            ));
        }
        let lied = inst.with_reports(lies)?;
        let after = mechanism.allocate(&lied)?;
        let of = Of::new(candidate, truth, Some(&after));
        let mut best: Option<Evaluation> = None;
        for i in 0..inst.num_users() {
            let s = scale(inst, i, utility);
            let report = lies.iter().find(|(k, _)| *k == i).map(|(_, r)| r);
            let Some(b) = spread(truth, i, |t| &utility_at_truth(inst, i, t) * &s) else {
                return Ok(None);
            };
            let a = match report {
                Some(r) => spread(&after, i, |t| &utility_of_report(inst, i, t, r) * &s),
                None => spread(&after, i, |t| &utility_at_truth(inst, i, t) * &s),
            };
            let Some(a) = a else {
                return Ok(None);
            };
            if report.is_some() && a.value < b.value {
                // A liar worse off: not a coalition profile.
                return Ok(None);
            }
            if report.is_none() && a.value <= b.value {
                continue;
            }
            of.keep_ratio(&mut best, self.direction(), i, None, &a, &b);
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
        let mut best: Option<Evaluation> = None;
        let mut top: Option<(Rational, Profile)> = None;
        let consider = |p: Profile,
                        ctx: &mut Ctx,
                        best: &mut Option<Evaluation>,
                        top: &mut Option<(Rational, Profile)>| {
            let c = Candidate::new(instance.clone(), Scenario::Lies(p.clone()));
            if let Some(e) = try_scenario(self, mechanism, c, truth, ctx, best)
                && top.as_ref().is_none_or(|(v, _)| e.value >= *v)
            {
                *top = Some((e.value, p));
            }
        };
        if let Some(Scenario::Lies(hint)) = ctx.hint.clone() {
            let m = instance.num_resources();
            if hint.iter().all(|(i, r)| *i < n && r.len() == m) {
                consider(hint, ctx, &mut best, &mut top);
            }
        }
        let lists: Vec<Lies> = (0..n)
            .map(|i| match ctx.grid_only {
                true => grid_lies(instance, i, ctx.values),
                false => user_lies(instance, i, ctx.values, ctx.grid, &mut ctx.rng),
            })
            .collect();
        for (i, list) in lists.iter().enumerate() {
            for lie in list.iter() {
                if ctx.spent() {
                    return best;
                }
                consider(vec![(i, lie)], ctx, &mut best, &mut top);
            }
        }
        let eligible: Vec<usize> = (0..n).filter(|&i| !lists[i].is_empty()).collect();
        if eligible.len() >= 2 {
            for _ in 0..ctx.group_samples {
                if ctx.spent() {
                    return best;
                }
                let size = ctx.rng.range(2, eligible.len() as u64) as usize;
                let mut pool = eligible.clone();
                let mut members = Vec::with_capacity(size);
                for _ in 0..size {
                    let k = ctx.rng.range(0, pool.len() as u64 - 1) as usize;
                    members.push(pool.swap_remove(k));
                }
                members.sort_unstable();
                let p: Profile = members
                    .iter()
                    .map(|&i| (i, lists[i].get(ctx.rng.range(0, lists[i].len() - 1))))
                    .collect();
                consider(p, ctx, &mut best, &mut top);
            }
        }
        if ctx.grid_only {
            // The knife-edge strata and the climb leave the grid (the coalitions above are of grid lies).
            return best;
        }
        // Knife-edge lies (super::knife): the breakpoints sampling misses, in place of as
        // many climb steps.
        let before = ctx.scenarios;
        knife::lie_strata(self, mechanism, instance, truth, ctx, &mut best);
        let climb = ctx
            .climb_steps
            .saturating_sub((ctx.scenarios - before) as usize);
        let (_, mut current) = top.clone()?;
        for _ in 0..climb {
            if ctx.spent() {
                break;
            }
            let values = ctx.values;
            let Some(next) = neighbour_profile(instance, values, &current, &lists, n, &mut ctx.rng)
            else {
                continue;
            };
            consider(next.clone(), ctx, &mut best, &mut top);
            if top.as_ref().is_some_and(|(_, p)| *p == next) {
                current = next;
            }
        }
        best
    }
}
