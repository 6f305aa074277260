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

use leontief_solver::properties::{utility_at_truth, utility_of_report, Property};
use leontief_solver::SolverError;

use super::exact;
use super::metric::{spread, At, Ctx, Direction, Evaluation, Metric, MetricInfo, Subject};
use super::metric_common::{lies_of, needs, LieSearch, Of};

/// See the [module docs](self).
pub struct SpGain;

/// What the metric measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo {
    one_is_neutral: true,
    ..MetricInfo::ratio(
        "max over one liar i and its report d' of u_i(x'_i d') / u_i(x_i d_i) (at most 1 when strategy-proof)",
        Direction::Max,
        Property::Sp,
    )
};

impl Metric for SpGain {
    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let (mechanism, candidate, truth, utility) =
            (at.mechanism, at.candidate, at.truth, at.utility);
        let inst = &candidate.instance;
        let lies = lies_of(self, at, "one lie")?;
        let [(i, report)] = lies else {
            return Err(needs(self, "exactly one liar"));
        };
        let i = *i;
        if i >= inst.num_users() {
            return Err(SolverError::invalid("witness.user", "no such user"));
        }
        let lied = inst.with_reports(lies)?;
        let after = mechanism.allocate(&lied)?;
        let s = utility.per_task(inst, i);
        let b = spread(truth, i, |t| &utility_at_truth(inst, i, t) * &s);
        let a = spread(&after, i, |t| &utility_of_report(inst, i, t, report) * &s);
        let (Some(a), Some(b)) = (a, b) else {
            return Ok(None);
        };
        let of = Of::new(candidate, truth, Some(&after));
        let mut best = None;
        of.keep_ratio(&mut best, self.direction(), i, None, &a, &b);
        Ok(exact::or_exact(at, best, || {
            let Some((before, lied_tasks)) = exact::both(at, &lied)? else {
                return Ok(None);
            };
            let a = exact::utility_of_report(inst, i, &lied_tasks[i], report, &s)?;
            let b = exact::utility_at_truth(inst, i, &before[i], &s)?;
            let ratios = vec![(i, None, a, b)];
            exact::best(&of, self.direction(), ratios, &before, Some(&lied_tasks)).map(Some)
        }))
    }

    fn evaluate(&self, on: &Subject, ctx: &mut Ctx) -> Option<Evaluation> {
        let mut search = LieSearch::new(self, on, 1, ctx);
        // A user with nothing at the truth has no gain to measure.
        if !search.singles(ctx, |i| on.truth.tasks[i].is_positive()) {
            return search.best;
        }
        search.finish(ctx)
    }
}
