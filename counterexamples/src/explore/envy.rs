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
//!
//! An irrational answer known exactly ([`At::algebraic`], CEEI) gives an exact value: both
//! utilities of a pair are images `min(T_i, c · x)` of task counts of one equilibrium, and
//! the largest ratio is chosen by exact comparison (docs/explore.md §4).

use leontief_solver::properties::{utility_at_truth, Gauge, Property};
use leontief_solver::{Instance, SolverError};

use super::exact;
use super::metric::{spread, Applies, At, Direction, Evaluation, Metric, MetricInfo};
use super::metric_common::{bounded, Of};

/// See the [module docs](self).
pub struct Envy;

/// User `i`'s utility for `y` tasks of user `k`'s bundle scaled to `i`'s weight,
/// `min(T_i, y · min_{j: d_ij > 0} (w_ij / w_kj) d_kj / d_ij)`: non-decreasing in `y`.
fn bundle_gauge(inst: &Instance, i: usize, k: usize) -> Gauge {
    let (ui, uk) = (&inst.users()[i], &inst.users()[k]);
    let ratios = (ui.demand.iter().enumerate())
        .filter(|(_, d)| !d.is_zero())
        .map(|(j, d)| &(&(ui.weight_on(j) / uk.weight_on(j)) * &uk.demand[j]) / d);
    Gauge::min_of(ratios, ui.cap.as_ref())
}

/// What the metric measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo {
    applies: Applies::UnlessProved(
        "is envy-free (docs/theory.md §3.11): envy is at most 1 on every instance",
    ),
    ..MetricInfo::ratio(
        "max over users i != k of u_i((w_i/w_k) x_k d_k) / x_i (1 or less when envy-free)",
        Direction::Max,
        Property::Ef,
    )
};

impl Metric for Envy {
    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let (truth, utility) = (at.truth, at.utility);
        let inst = bounded(self, at)?;
        let of = Of::new(at.candidate, truth, None);
        let n = inst.num_users();
        let mut best: Option<Evaluation> = None;
        for i in 0..n {
            let s = utility.per_task(inst, i);
            let Some(own) = spread(truth, i, |t| &utility_at_truth(inst, i, t) * &s) else {
                continue;
            };
            for k in (0..n).filter(|&k| k != i && truth.tasks[k].is_positive()) {
                let g = bundle_gauge(inst, i, k);
                if let Some(theirs) = spread(truth, k, |y| &g.apply(y) * &s) {
                    of.keep_ratio(&mut best, self.direction(), i, Some(k), &theirs, &own);
                }
            }
        }
        // Both utilities of a pair are images of one equilibrium's task counts.
        Ok(exact::or_exact(at, best, || {
            let Some(tasks) = exact::tasks(at, inst)? else {
                return Ok(None);
            };
            let mut ratios = Vec::new();
            for i in 0..n {
                let s = utility.per_task(inst, i);
                let own = exact::utility_at_truth(inst, i, &tasks[i], &s)?;
                for k in (0..n).filter(|&k| k != i && tasks[k].signum() > 0) {
                    let theirs = exact::gauged(&bundle_gauge(inst, i, k), &tasks[k], &s)?;
                    ratios.push((i, Some(k), theirs, own.clone()));
                }
            }
            exact::best(&of, self.direction(), ratios, &tasks, None).map(Some)
        }))
    }
}
