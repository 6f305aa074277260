//! `envy`: the largest envy ratio, maximized (docs/explore.md §3.5).
//!
//! `envy = max_{i != k} u_i((w_i / w_k) x_k d_k) / u_i(x_i d_i)` — user `i`'s utility for
//! `k`'s bundle scaled to `i`'s weight (resource by resource with per-resource weights, as
//! `properties::allocation::envy_freeness` reads it) over its own. Users with nothing are
//! skipped as the envious side. An envy-free answer has `envy <= 1`; the measure is for the
//! mechanisms not proved envy-free (common-level DRF, discrete DRF with whole tasks, the
//! hierarchical policies): DRF, CEEI and asset fairness are envy-free (docs/theory.md
//! §3.11), so the metric does not apply to them. No scenario: the instance itself is
//! evaluated.

use leontief_solver::properties::{utility_at_truth, Property};
use leontief_solver::{Rational, SolverError};

use super::metric::{
    scale, spread, Applies, At, Ctx, Direction, Evaluation, Metric, MetricInfo, Subject,
};
use super::metric_common::{evaluate_bounded, no_scenario, Of};
use super::MetricName;

/// See the [module docs](self).
pub struct Envy;

/// What the metric measures, in which direction, and how its record is shaped.
const INFO: MetricInfo = MetricInfo {
    applies: Applies::UnlessProved(
        "is envy-free (docs/theory.md §3.11): envy is at most 1 on every instance",
    ),
    ..MetricInfo::ratio(
        MetricName::Envy,
        "max over users i != k of u_i((w_i/w_k) x_k d_k) / x_i (1 or less when envy-free)",
        Direction::Max,
        Property::Ef,
    )
};

impl Metric for Envy {
    fn info(&self) -> &'static MetricInfo {
        &INFO
    }

    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let (candidate, truth, utility) = (at.candidate, at.truth, at.utility);
        no_scenario(self.name(), candidate)?;
        let inst = &candidate.instance;
        let of = Of::new(candidate, truth, None);
        let users = inst.users();
        let mut best: Option<Evaluation> = None;
        for (i, ui) in users.iter().enumerate() {
            let s = scale(inst, i, utility);
            let Some(own) = spread(truth, i, |t| &utility_at_truth(inst, i, t) * &s) else {
                continue;
            };
            for (k, uk) in users.iter().enumerate() {
                if k == i || !truth.tasks[k].is_positive() {
                    continue;
                }
                // i's utility for k's bundle of y tasks, scaled: non-decreasing in y.
                let scaled = |y: &Rational| -> Rational {
                    let mut least: Option<Rational> = None;
                    for (j, d) in ui.demand.iter().enumerate() {
                        if d.is_zero() {
                            continue;
                        }
                        let v = &(&(ui.weight_on(j) / uk.weight_on(j)) * &(y * &uk.demand[j])) / d;
                        if least.as_ref().is_none_or(|b| v < *b) {
                            least = Some(v);
                        }
                    }
                    let runnable = least.unwrap_or(Rational::ZERO);
                    let u = match &ui.cap {
                        Some(t) if *t < runnable => t.clone(),
                        _ => runnable,
                    };
                    &u * &s
                };
                if let Some(theirs) = spread(truth, k, scaled) {
                    of.keep_ratio(&mut best, self.direction(), i, Some(k), &theirs, &own);
                }
            }
        }
        Ok(best)
    }

    fn evaluate(&self, on: &Subject, ctx: &mut Ctx) -> Option<Evaluation> {
        evaluate_bounded(self, on, ctx)
    }
}
