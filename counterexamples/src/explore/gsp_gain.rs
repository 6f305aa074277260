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
//! computed numbers while searching; the value's interval is certified, the condition is
//! not. A record's value is exact (docs/explore.md §4): both equilibria are solved exactly,
//! the members are decided again by exact comparison (a liar worse off leaves no value) and
//! each member's ratio crosses the two answers' number fields.
//!
//! On one instance: every single lie of the search (`search::user_lies`), `group_samples`
//! random coalitions of every size, each member with one of its lies, then a local climb
//! (`search::neighbour_profile`: change a report's component, add or drop a liar). On a grid
//! instance of an exhaustive run ([`Ctx::grid_only`](super::Ctx::grid_only)): grid lies and
//! coalitions of them, no climb.
//!
//! # References
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness.* EC 2012.

use std::cmp::Ordering;

use leontief_solver::properties::{report_gauge, truth_gauge, utility_at_truth, Gauge, Property};
use leontief_solver::{Rational, SolverError};

use super::exact;
use super::metric::{spread, At, Ctx, Direction, Evaluation, Metric, MetricInfo, Subject};
use super::metric_common::{lies_of, LieSearch, Of};
use crate::search::random_coalition;

/// See the [module docs](self).
pub struct GspGain;

/// Whether a user whose utility after the lies compares with its utility before as `order`
/// is a member whose ratio counts: a liar always, but `None` when it is worse off (not a
/// coalition profile); another user when it strictly gains.
fn member(liar: bool, order: Ordering) -> Option<bool> {
    match order {
        Ordering::Less if liar => None,
        _ => Some(liar || order == Ordering::Greater),
    }
}

/// What the metric measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo {
    one_is_neutral: true,
    ..MetricInfo::ratio(
        "max over coalitions with no member worse off of a member's u_i(after) / u_i(before)",
        Direction::Max,
        Property::GspStrong,
    )
};

impl Metric for GspGain {
    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let (mechanism, truth, utility) = (at.mechanism, at.truth, at.utility);
        let lies = lies_of(self, at, "a coalition's lies")?;
        let (candidate, inst) = (at.candidate, &at.candidate.instance);
        if lies.is_empty() || lies.iter().any(|(i, _)| *i >= inst.num_users()) {
            return Err(SolverError::invalid(
                "witness.reports",
                "expected liars among the users",
            ));
        }
        let lied = inst.with_reports(lies)?;
        let after = mechanism.allocate(&lied)?;
        let of = Of::new(candidate, truth, Some(&after));
        // Each user's utility after the lies (a liar's by its report) and its scale.
        let users: Vec<(bool, Gauge, Rational)> = (0..inst.num_users())
            .map(|i| match lies.iter().find(|(k, _)| *k == i) {
                Some((_, r)) => (true, report_gauge(inst, i, r), utility.per_task(inst, i)),
                None => (false, truth_gauge(inst, i), utility.per_task(inst, i)),
            })
            .collect();
        let mut best: Option<Evaluation> = None;
        for (i, (liar, g, s)) in users.iter().enumerate() {
            let b = spread(truth, i, |t| &utility_at_truth(inst, i, t) * s);
            let (Some(b), Some(a)) = (b, spread(&after, i, |t| &g.apply(t) * s)) else {
                return Ok(None);
            };
            match member(*liar, a.value.cmp(&b.value)) {
                None => return Ok(None),
                Some(true) => of.keep_ratio(&mut best, self.direction(), i, None, &a, &b),
                Some(false) => {}
            }
        }
        Ok(exact::or_exact(at, best, || {
            // The same members as above, decided exactly.
            let Some((before, lied_tasks)) = exact::both(at, &lied)? else {
                return Ok(None);
            };
            let mut ratios = Vec::new();
            for (i, (liar, g, s)) in users.iter().enumerate() {
                let b = exact::utility_at_truth(inst, i, &before[i], s)?;
                let a = exact::gauged(g, &lied_tasks[i], s)?;
                match member(*liar, exact::cmp(&a, &b)?) {
                    None => return Ok(Some(None)),
                    Some(true) => ratios.push((i, None, a, b)),
                    Some(false) => {}
                }
            }
            exact::best(&of, self.direction(), ratios, &before, Some(&lied_tasks)).map(Some)
        }))
    }

    fn evaluate(&self, on: &Subject, ctx: &mut Ctx) -> Option<Evaluation> {
        let n = on.instance.num_users();
        let mut search = LieSearch::new(self, on, n, ctx);
        if !search.singles(ctx, |_| true) {
            return search.best;
        }
        let lists = &search.lists;
        let eligible: Vec<usize> = (0..n).filter(|&i| !lists[i].is_empty()).collect();
        if eligible.len() >= 2 {
            for _ in 0..ctx.cfg.group_samples {
                if ctx.spent() {
                    return search.best;
                }
                let p = random_coalition(&eligible, eligible.len(), &search.lists, &mut ctx.rng);
                search.consider(p, ctx);
            }
        }
        // On a grid-only run, the coalitions above are of grid lies.
        search.finish(ctx)
    }
}
