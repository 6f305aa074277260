//! `si-gap`: how far below its weighted equal split a user ends, minimized
//! (docs/explore.md §3.6).
//!
//! `si-gap = min_i u_i(x_i d_i) / u_i((w_i / W) R)` — the user's utility over what its
//! weighted equal split (resource by resource with per-resource weights,
//! `properties::allocation::equal_split`) would let it run. An answer with the sharing
//! incentive has `si-gap >= 1`; the measure is for the mechanisms that lack it (asset
//! fairness, common-level DRF, discrete DRF, the hierarchical policies): DRF and CEEI have
//! it (docs/theory.md §3.11), so the metric does not apply to them. No scenario.

use leontief_solver::properties::allocation::equal_split;
use leontief_solver::properties::{utility_at_truth, Property};
use leontief_solver::SolverError;

use super::metric::{spread, Applies, At, Direction, Evaluation, Metric, MetricInfo, Spread};
use super::metric_common::{bounded, Of};

/// See the [module docs](self).
pub struct SiGap;

/// What the metric measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo {
    applies: Applies::UnlessProved(
        "has the sharing incentive (docs/theory.md §3.11): si-gap is at least 1 on every \
         instance",
    ),
    ..MetricInfo::ratio(
        "min over users i of x_i / u_i((w_i/W) R) (1 or more with the sharing incentive)",
        Direction::Min,
        Property::Si,
    )
};

impl Metric for SiGap {
    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let inst = bounded(self, at)?;
        let splits = equal_split(inst);
        let (truth, utility) = (at.truth, at.utility);
        let of = Of::new(at.candidate, truth, None);
        let mut best: Option<Evaluation> = None;
        for (i, split) in splits.iter().enumerate() {
            let s = utility.per_task(inst, i);
            let Some(have) = spread(truth, i, |t| &utility_at_truth(inst, i, t) * &s) else {
                continue;
            };
            // Its utility from its split's bundle (its true demand and cap).
            let due = Spread::exact(&inst.utility(i, split) * &s);
            of.keep_ratio(&mut best, self.direction(), i, None, &have, &due);
        }
        Ok(best)
    }
}
