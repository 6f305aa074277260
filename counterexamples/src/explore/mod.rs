//! `explore`: the search driver turned optimizer — maximize (or minimize) a quantitative
//! metric over generated instances, exactly (docs/explore.md).
//!
//! - [`metric`]: the [`Metric`] trait, [`Evaluation`], the normalisations ([`Utility`]).
//! - one module per metric: [`sp_gain`], [`gsp_gain`], [`pm_loss`], [`rm_loss`], [`envy`],
//!   [`si_gap`], [`welfare_ratio`] (with `fair-welfare-ratio`), [`discrete_gap`],
//!   [`sg_deficit`], [`starvation`]; [`MetricName`] lists them once (names derived with
//!   strum).
//! - [`local`]: the exact perturbations of the local search.
//! - [`knife`]: the knife-edge strata (tightened instances, ties of dominant shares, binding
//!   caps; lie lines and stratum lines searched exactly).
//! - `metric_common`: what the metric modules share (the one scenario of the metrics that
//!   take none, the evaluation of a measured ratio).
//! - [`family`]: parametric families (`--family`), their seeds and structure-keeping moves.
//! - [`record`]: the JSONL records and their independent re-derivation.
//! - [`wire`]: the serialized form of a round's work items and results (evaluation
//!   elsewhere, e.g. on Ray workers).
//!
//! # The optimizer
//! Rounds, until the budget, the time or (for the exhaustive strategy) the space runs out:
//! 1. **Seeds** — `batch` units of the search's space ([`crate::space`]: grid and random
//!    instances, the shard's units only), evaluated in parallel; each unit's best scenario
//!    enters a pool of `elites` (the best distinct evaluations so far).
//!    For the lie metrics, whose value 1 is the truth's ([`MetricInfo::one_is_neutral`]),
//!    only evaluations above 1 are elites: until a violation is found every round's
//!    budget goes to seed units, as in `search`.
//! 2. **Local search** — `local` tasks, task `t` restarting from elite `t mod |elites|`:
//!    a walk of 1 to 3 exact moves on the instance ([`local::walk`]) and the metric's full
//!    evaluation on the result, starting from the elite's scenario (the lie or growth is
//!    climbed again from there).
//!
//! With [`Strategy::Exhaustive`] the seeds are the grid's instances, each measured on its
//! grid scenarios alone ([`Ctx::grid_only`]: grid lies, grid joiners, the capacity grid) and
//! not shrunk; local tasks run only when `local > 0`, and their records say `"off_grid"`.
//!
//! With a [`Family`] (`--family`), the seed units are the family's members
//! ([`family::FamilySpace`]) and the walks keep its structure ([`local::walk`]); a finite
//! family's local search goes on after its last point until the budget or the time.
//!
//! Results are merged in a fixed order (units ascending, then tasks), so that with
//! `--budget` the output does not depend on the number of threads. Each strict improvement
//! of the record is shrunk (the reductions of [`crate::shrink`], kept while the value is at
//! least as good), re-derived from scratch ([`record::rederive`]) and handed out; the best
//! record is handed out once more at the end, marked `"best": true`.
//!
//! A round's evaluations are [`WorkItem`]s (a seed unit; a local task with its round, task
//! number and elite), each a function of the item and the configuration alone. [`explore`]
//! evaluates them here in parallel ([`Evaluator`]); [`explore_with`] hands them to any
//! [`RoundEvaluator`] (e.g. workers in other processes, through [`wire`]) and keeps the
//! driver — merging, elites, shrinking, re-derivation, budget, time, cancel — in one place,
//! so the output is the same whoever evaluates.
//!
//! # Example
//! DRF is strategy-proof: the best single-liar gain found is exactly 1 (the truth).
//! ```
//! use leontief_counterexamples::explore::{explore, ExploreConfig, MetricName};
//! use leontief_counterexamples::instance_generator::GeneratorConfig;
//! use leontief_solver::Drf;
//! let mut cfg = ExploreConfig::new(MetricName::SpGain, 1, GeneratorConfig::new());
//! cfg.run.budget = Some(2_000);
//! let mut lines = Vec::new();
//! explore(&Drf::extended(), &cfg, &mut |r| { lines.push(r.clone()); Ok(()) }, &|_| {}).unwrap();
//! let best = lines.last().unwrap();
//! assert_eq!((best["value"].as_str(), best["best"].as_bool()), (Some("1"), Some(true)));
//! ```
//!
//! # References
//! See each metric's module.

pub mod discrete_gap;
pub mod envy;
pub mod exact;
pub mod family;
pub mod gsp_gain;
pub mod knife;
pub mod local;
pub mod metric;
mod metric_common;
pub mod pm_loss;
pub mod record;
pub mod rm_loss;
pub mod sg_deficit;
pub mod si_gap;
pub mod sp_gain;
pub mod starvation;
pub mod welfare_ratio;
pub mod wire;

use std::cmp::Ordering;
use std::time::{Duration, Instant};

use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Instance, Mechanism, Rational};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use family::{Family, FamilySpace};
pub use metric::{At, Ctx, Described, Direction, Evaluation, Metric, MetricInfo, Subject, Utility};

use crate::candidate::Candidate;
use crate::instance_generator::GeneratorConfig;
use crate::search::{cancelled, unit_rng, Run, Stop};
use crate::shrink::shrink_while;
use crate::space::{Origin, Space, Strategy};
use record::Origin as RecordOrigin;

/// Declares [`MetricName`], [`MetricName::metric`] and [`MetricName::info`] from one list: a
/// metric is registered by one line, `Variant => type, info`, its module's [`Metric`] (a
/// unit struct) and [`MetricInfo`] (the command-line name is the variant's, in kebab case);
/// the type's [`Described`] is that variant and that info.
macro_rules! metrics {
    ($($(#[$doc:meta])* $variant:ident => $metric:path, $info:path;)*) => {
        leontief_solver::name_enum! {
            #[unknown("--metric", "metric")]
            /// Every metric, by its command-line name (derived from the variant: `sp-gain`, ...).
            pub enum MetricName {
                $($(#[$doc])* $variant,)*
            }
        }

        impl MetricName {
            /// The metric.
            pub fn metric(self) -> &'static dyn Metric {
                match self {
                    $(MetricName::$variant => &$metric,)*
                }
            }

            /// Its description (what it measures, in which direction, how its record is
            /// shaped), from the metric's own module.
            pub fn info(self) -> &'static MetricInfo {
                self.metric().info()
            }
        }

        $(impl Described for $metric {
            fn id(&self) -> MetricName {
                MetricName::$variant
            }

            fn info(&self) -> &'static MetricInfo {
                &$info
            }
        })*
    };
}

metrics! {
    /// See [`sp_gain`].
    SpGain => sp_gain::SpGain, sp_gain::INFO;
    /// See [`gsp_gain`].
    GspGain => gsp_gain::GspGain, gsp_gain::INFO;
    /// See [`pm_loss`].
    PmLoss => pm_loss::PmLoss, pm_loss::INFO;
    /// See [`rm_loss`].
    RmLoss => rm_loss::RmLoss, rm_loss::INFO;
    /// See [`envy`].
    Envy => envy::Envy, envy::INFO;
    /// See [`si_gap`].
    SiGap => si_gap::SiGap, si_gap::INFO;
    /// See [`welfare_ratio`].
    WelfareRatio => welfare_ratio::WelfareRatio, welfare_ratio::INFO;
    /// See [`welfare_ratio`].
    FairWelfareRatio => welfare_ratio::FairWelfareRatio, welfare_ratio::FAIR_INFO;
    /// See [`discrete_gap`].
    DiscreteGap => discrete_gap::DiscreteGap, discrete_gap::INFO;
    /// See [`sg_deficit`].
    SgDeficit => sg_deficit::SgDeficit, sg_deficit::INFO;
    /// See [`starvation`].
    Starvation => starvation::Starvation, starvation::INFO;
}

impl MetricName {
    /// Its one-line definition.
    pub fn description(self) -> &'static str {
        self.info().description
    }
}

/// What to explore and when to stop.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ExploreConfig {
    /// The metric.
    pub metric: MetricName,
    /// The normalisation (default: the metric's).
    pub utility: Utility,
    /// The seed units (the search's space; the family's points with `family`) and the
    /// limits: no work item tries more than the budget (its truthful answer included), so a
    /// run stops after fewer than twice the budget. Its `batch` is the seed units per round.
    pub run: Run,
    /// Local-search tasks per round (0: sampling only). With the exhaustive strategy they
    /// leave the grid (the command line's default there is 0).
    pub local: usize,
    /// Size of the elite pool the local search restarts from.
    pub elites: usize,
    /// Climb steps over the lie per evaluation (sp-gain, gsp-gain).
    pub climb_steps: usize,
    /// Random coalitions per evaluation (gsp-gain).
    pub group_samples: usize,
    /// Which knife-edge strata each evaluation searches (docs/explore.md §5.1).
    pub knife: knife::Knife,
    /// Shrink improvements, with at most this many re-evaluations (`None`: do not).
    pub shrink: Option<usize>,
    /// Seeds from a parametric family instead of the search's space, and local moves that
    /// keep its structure (`None`: the search's space). Records are then not shrunk (the
    /// family's parameters are their simple form) and carry `"family"`.
    pub family: Option<Family>,
}

impl ExploreConfig {
    /// Defaults: the metric's utility, grid {0, 1/2, 1}, combined strategy, rounds of 32
    /// seed units and 32 local tasks, 4 elites, 32 climb steps, 16 coalitions, every
    /// knife-edge stratum, shrinking
    /// with 300 re-evaluations, no stopping rule (set one).
    pub fn new(metric: MetricName, seed: u64, generator: GeneratorConfig) -> Self {
        ExploreConfig {
            metric,
            utility: metric.info().default_utility,
            run: Run::new(seed, generator, 32),
            local: 32,
            elites: 4,
            climb_steps: 32,
            group_samples: 16,
            knife: knife::Knife::All,
            shrink: Some(300),
            family: None,
        }
    }
}

/// Counters of a run, also passed to the progress callback after every batch.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ExploreSummary {
    /// Seed units examined.
    pub units: u64,
    /// Metric evaluations (seed units and local tasks).
    pub evaluations: u64,
    /// Scenarios tried (one mechanism call on a changed instance each).
    pub scenarios: u64,
    /// Improvements of the record handed out.
    pub improvements: u64,
    /// Mechanism failures.
    pub errors: u64,
    /// The first few failure messages.
    pub error_messages: Vec<String>,
    /// Wall time so far.
    pub elapsed: Duration,
    /// Why it stopped (`None` while running).
    pub stop: Option<Stop>,
    /// The best value so far (the record's).
    pub best: Option<Rational>,
    /// Wall time when the record first certified a violation of the metric's property
    /// (its objective past 1: a gain above 1, a loss below 1).
    pub first_violation: Option<Duration>,
}

/// What one work item produced: what the driver merges.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Found {
    /// Scenarios tried (the truthful answer counts as one).
    pub scenarios: u64,
    /// Mechanism failures (the first few).
    pub errors: Vec<String>,
    /// The best evaluation, if any scenario had a value.
    pub best: Option<Evaluation>,
}

impl Found {
    /// A result (for an evaluator that builds it from another form, e.g. [`wire`]).
    pub fn new(scenarios: u64, errors: Vec<String>, best: Option<Evaluation>) -> Self {
        Found {
            scenarios,
            errors,
            best,
        }
    }
}

/// One piece of a round's work, described completely (the run's configuration aside): what
/// a [`RoundEvaluator`] evaluates, possibly in another process ([`wire`] is its serialized
/// form).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum WorkItem {
    /// Seed unit `unit` of the space (or of the family).
    Unit {
        /// The unit number.
        unit: u64,
    },
    /// Local task `task` of round `round`: a walk from the elite's instance and the
    /// metric's evaluation starting from its scenario.
    Local {
        /// The round.
        round: u64,
        /// The task within the round.
        task: u64,
        /// The elite it restarts from (its instance and scenario).
        elite: Box<Candidate>,
    },
}

/// Evaluates a round's work items; the driver ([`explore_with`]) merges the results in
/// the items' order, so an evaluator may split, reorder or ship the items elsewhere as long
/// as it returns, for each item, what [`Evaluator::evaluate`] returns.
pub trait RoundEvaluator {
    /// One [`Found`] per item, in the items' order.
    ///
    /// # Errors
    /// A failure to evaluate (e.g. a lost remote worker); the run stops with it.
    fn evaluate_round(&mut self, items: &[WorkItem]) -> std::io::Result<Vec<Found>>;
}

/// The evaluation of work items in this process: the seed space and the metric, built from
/// the run's configuration. As a [`RoundEvaluator`], a parallel map over the items (rayon).
pub struct Evaluator<'a> {
    mechanism: &'a dyn Mechanism,
    cfg: &'a ExploreConfig,
    seeds: Seeds,
}

/// Where seed units come from: the search's space, or a family's points (only the one the
/// run reads is built).
enum Seeds {
    Space(Space),
    Family(FamilySpace),
}

impl<'a> Evaluator<'a> {
    /// The evaluator of a run.
    pub fn new(mechanism: &'a dyn Mechanism, cfg: &'a ExploreConfig) -> Self {
        let seeds = match cfg.family {
            Some(f) => Seeds::Family(f.space(&cfg.run.generator, cfg.run.seed)),
            None => Seeds::Space(cfg.run.space()),
        };
        Evaluator {
            mechanism,
            cfg,
            seeds,
        }
    }

    /// Seed unit `u`'s kind, or `None` past the end of the space.
    fn seed_kind(&self, u: u64) -> Option<&'static str> {
        match &self.seeds {
            Seeds::Family(fs) => fs.instance(u).map(|_| "family"),
            Seeds::Space(space) => space.origin(u).map(|o| o.name()),
        }
    }

    /// What one item produces: a function of the item and the run's configuration alone.
    pub fn evaluate(&self, item: &WorkItem) -> Found {
        let cfg = self.cfg;
        match item {
            WorkItem::Unit { unit } => {
                let unit = *unit;
                let seed = match &self.seeds {
                    Seeds::Family(fs) => fs.instance(unit).map(|inst| (inst, false)),
                    Seeds::Space(space) => (space.origin(unit))
                        .map(|o| (space.instance(o), matches!(o, Origin::Grid(_)))),
                };
                // A unit the driver never lists (past the end of the space), asked for
                // anyway: an error.
                let Some((inst, grid)) = seed else {
                    let past = format!("unit {unit}: past the end of the space");
                    return Found::new(0, vec![past], None);
                };
                let rng = unit_rng(cfg.run.seed, unit);
                self.evaluate_one(&inst, grid, rng, None, false)
            }
            WorkItem::Local { round, task, elite } => {
                let mut rng = local_rng(cfg, *round, *task);
                let steps = rng.range(1, 3) as usize;
                let from = &elite.instance;
                let inst = local::walk(from, &cfg.run.values, &mut rng, steps, cfg.family);
                let hint = Some(elite.scenario.clone());
                // A round's first `elites` tasks (one restart from each elite when the pool
                // is full) also search the knife-edge instances of the metrics other than
                // the lie metrics (super::knife).
                let strata = *task < cfg.elites as u64;
                self.evaluate_one(&inst, false, rng, hint, strata)
            }
        }
    }

    /// The metric's evaluation of one instance (the truthful answer counts as a scenario).
    fn evaluate_one(
        &self,
        instance: &Instance,
        grid: bool,
        rng: SplitMix64,
        hint: Option<leontief_solver::properties::Scenario>,
        strata: bool,
    ) -> Found {
        let truth = match self.mechanism.allocate(instance) {
            Ok(x) => x,
            Err(e) => return Found::new(1, vec![e.to_string()], None),
        };
        let mut ctx = Ctx {
            cfg: self.cfg,
            grid,
            rng,
            hint,
            instance_strata: strata,
            scenarios: 0,
            errors: Vec::new(),
        };
        let on = Subject {
            mechanism: self.mechanism,
            instance,
            truth: &truth,
        };
        let best = self.cfg.metric.metric().evaluate(&on, &mut ctx);
        Found::new(ctx.scenarios + 1, ctx.errors, best)
    }
}

impl RoundEvaluator for Evaluator<'_> {
    fn evaluate_round(&mut self, items: &[WorkItem]) -> std::io::Result<Vec<Found>> {
        let this = &*self;
        Ok(items.par_iter().map(|item| this.evaluate(item)).collect())
    }
}

/// The random stream of local task `task` of round `round` (shard-specific).
fn local_rng(cfg: &ExploreConfig, round: u64, task: u64) -> SplitMix64 {
    let mut rng = SplitMix64::new(
        cfg.run.seed
            ^ 0x10CA_15EA_2C40_0000
            ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ task.wrapping_mul(0xD1B5_4A32_D192_ED03)
            ^ cfg.run.shard.index.wrapping_mul(0xA076_1D64_78BD_642F),
    );
    rng.next_u64();
    rng
}

/// The run's state between merges.
struct State<'a> {
    mechanism: &'a dyn Mechanism,
    cfg: &'a ExploreConfig,
    summary: ExploreSummary,
    record: Option<(Evaluation, Value)>,
    elites: Vec<Evaluation>,
    start: Instant,
}

impl State<'_> {
    /// Merges one result (in the fixed order); hands out an improvement. Stops the run once
    /// the budget is spent.
    fn merge(
        &mut self,
        found: Found,
        origin: RecordOrigin,
        on_record: &mut dyn FnMut(&Value) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        self.summary.evaluations += 1;
        self.summary.scenarios += found.scenarios;
        if (self.cfg.run.budget).is_some_and(|b| self.summary.scenarios >= b) {
            self.summary.stop = Some(Stop::Budget);
        }
        for e in found.errors {
            self.error(e);
        }
        let Some(e) = found.best else {
            return Ok(());
        };
        let d = self.cfg.metric.info().direction;
        self.add_elite(&e);
        if self
            .record
            .as_ref()
            .is_some_and(|(r, _)| !reaches(&e, r, d, false))
        {
            return Ok(());
        }
        // A record is kept exactly: an irrational answer's value as an algebraic number.
        let e = self.exactly(e);
        if self.record.as_ref().is_some_and(|(r, _)| !e.beats(r, d)) {
            return Ok(());
        }
        let grid_run = self.cfg.run.strategy == Strategy::Exhaustive && self.cfg.family.is_none();
        let local = matches!(origin, RecordOrigin::Local { .. });
        let e = self.shrunk(e, grid_run && !local);
        let mut json = record::to_json(
            self.cfg.metric,
            self.mechanism.name(),
            self.cfg.utility,
            &e,
            self.summary.scenarios,
            self.cfg.run.seed,
            &origin,
        );
        if grid_run && local {
            // Asked for with --local: the local search's instances are off the grid.
            json["off_grid"] = Value::Bool(true);
        }
        if let Some(f) = self.cfg.family {
            let family = f.to_json(&e.candidate.instance);
            let Ok(v) = family.map_err(|err| self.error(err.to_string())) else {
                return Ok(());
            };
            json["family"] = v;
        }
        // Re-derived from scratch before it is printed; a disagreement is an error, not a
        // record.
        if let Err(err) = record::rederive(self.mechanism, &json) {
            self.error(format!("record not re-derived: {err}"));
            return Ok(());
        }
        self.summary.improvements += 1;
        self.summary.best = Some(e.value.clone());
        let past_one = match d {
            Direction::Max => e.lo > Rational::ONE,
            Direction::Min => e.hi < Rational::ONE,
        };
        if past_one && self.summary.first_violation.is_none() {
            self.summary.first_violation = Some(self.start.elapsed());
        }
        on_record(&json)?;
        self.record = Some((e, json));
        Ok(())
    }

    /// Counts an error, its message kept among the first five.
    fn error(&mut self, message: String) {
        self.summary.errors += 1;
        crate::search::keep_errors(&mut self.summary.error_messages, [message]);
    }

    fn add_elite(&mut self, e: &Evaluation) {
        let d = self.cfg.metric.info().direction;
        if self.cfg.metric.info().one_is_neutral && e.lo <= Rational::ONE {
            // Nothing found there: restarting from it is sampling again, at a higher price.
            return;
        }
        if self.elites.iter().any(|x| x.candidate == e.candidate) {
            return;
        }
        let at = self
            .elites
            .iter()
            .position(|x| e.beats(x, d))
            .unwrap_or(self.elites.len());
        if at < self.cfg.elites {
            self.elites.insert(at, e.clone());
            self.elites.truncate(self.cfg.elites);
        }
    }

    /// `e` again with its value exact when the answers are irrational but known exactly
    /// ([`At::algebraic`]); `e` itself otherwise, or when the scenario fails.
    fn exactly(&self, e: Evaluation) -> Evaluation {
        if e.exact {
            return e;
        }
        let m = self.cfg.metric.metric();
        let at = At::new(self.mechanism, &e.candidate, &e.before, self.cfg.utility).algebraic();
        match m.at(&at) {
            Ok(Some(x)) => x,
            _ => e,
        }
    }

    /// The evaluation shrunk while its objective stays at least as good; as it is when it is
    /// an exhaustive run's grid record (`grid`).
    fn shrunk(&self, e: Evaluation, grid: bool) -> Evaluation {
        // A family's member is already in its simple form; shrinking would leave the family.
        // An exhaustive run's grid record stays the grid's instance: shrinking it could leave
        // the grid (simpler numbers) and even raise the value past the grid's.
        let as_it_is = grid || self.cfg.family.is_some();
        let Some(limit) = self.cfg.shrink.filter(|_| !as_it_is) else {
            return e;
        };
        let m = self.cfg.metric.metric();
        let d = m.direction();
        let mut last = e.clone();
        let mut keep = |c: &crate::candidate::Candidate| -> bool {
            let Ok(truth) = self.mechanism.allocate(&c.instance) else {
                return false;
            };
            let Ok(Some(x)) = m.at(&At::new(self.mechanism, c, &truth, self.cfg.utility)) else {
                return false;
            };
            // A candidate whose interval reaches the record's value is made exact (it may
            // tie, and a kept one is printed and re-derived exactly, as every record); one
            // that cannot reach it is refused as it is.
            let x = if !x.exact && reaches(&x, &e, d, true) {
                self.exactly(x)
            } else {
                x
            };
            if e.beats(&x, d) {
                return false;
            }
            last = x;
            true
        };
        let small = shrink_while(&e.candidate, &mut keep, limit);
        if small == e.candidate {
            e
        } else {
            last
        }
    }
}

/// Whether `x`'s interval reaches past `r`'s value for `direction` (or, with `ties`, to it):
/// `x` may beat `r` (a candidate for the exact comparison), or beats it outright.
fn reaches(x: &Evaluation, r: &Evaluation, direction: Direction, ties: bool) -> bool {
    let order = match direction {
        Direction::Max => x.hi.cmp(&r.lo),
        Direction::Min => r.hi.cmp(&x.lo),
    };
    order == Ordering::Greater || (ties && order == Ordering::Equal)
}

/// Runs the optimizer. `on_record` receives each improvement (re-derived, as a JSON
/// record) and, at the end, the best one again marked `"best": true`; `progress` the
/// counters after every batch.
///
/// # Errors
/// Only what `on_record` returns (e.g. a failed write).
///
/// # Complexity
/// Per evaluation, one allocation per scenario the metric tries (see each metric); per
/// improvement, at most `shrink` re-evaluations and one re-derivation.
pub fn explore(
    mechanism: &dyn Mechanism,
    cfg: &ExploreConfig,
    on_record: &mut dyn FnMut(&Value) -> std::io::Result<()>,
    progress: &(dyn Fn(&ExploreSummary) + Sync),
) -> std::io::Result<ExploreSummary> {
    explore_with(
        mechanism,
        cfg,
        &mut Evaluator::new(mechanism, cfg),
        on_record,
        progress,
    )
}

/// [`explore`] with the rounds' work items evaluated by `evaluator` (e.g. on other
/// machines): the same records and counters as [`explore`] whenever `evaluator` returns
/// what [`Evaluator`] does. The driver (merging, elites, shrinking, re-derivation, budget,
/// time, cancel) runs here.
///
/// # Errors
/// What `on_record` or `evaluator` returns, or an evaluator that returns a different number
/// of results than items.
///
/// # Complexity
/// As [`explore`], plus two calls of `evaluator` per round (the seeds, then the local
/// tasks, which start from the elites the seeds leave).
pub fn explore_with(
    mechanism: &dyn Mechanism,
    cfg: &ExploreConfig,
    evaluator: &mut dyn RoundEvaluator,
    on_record: &mut dyn FnMut(&Value) -> std::io::Result<()>,
    progress: &(dyn Fn(&ExploreSummary) + Sync),
) -> std::io::Result<ExploreSummary> {
    let seeds = Evaluator::new(mechanism, cfg);
    let mut st = State {
        mechanism,
        cfg,
        summary: ExploreSummary::default(),
        record: None,
        elites: Vec::new(),
        start: Instant::now(),
    };
    let mut run = |items: &[WorkItem]| -> std::io::Result<Vec<Found>> {
        let results = evaluator.evaluate_round(items)?;
        if results.len() != items.len() {
            return Err(std::io::Error::other(format!(
                "explore: the evaluator returned {} results for {} work items",
                results.len(),
                items.len()
            )));
        }
        Ok(results)
    };
    let run_cfg = &cfg.run;
    let batch = run_cfg.batch.max(1) as u64;
    let mut next_unit = run_cfg.shard.index;
    let mut round = 0u64;
    while st.summary.stop.is_none() {
        // 1. Seeds. Every item counts at least one scenario, so no more items than the
        // budget has left can count: the rest would be thrown away (the output is the same).
        let seed_batch = run_cfg.batch_after(batch, st.summary.scenarios);
        let units: Vec<(u64, &'static str)> = (0..seed_batch)
            .map(|t| next_unit + t * run_cfg.shard.count)
            .map_while(|u| seeds.seed_kind(u).map(|k| (u, k)))
            .collect();
        let exhausted = units.is_empty();
        let items: Vec<WorkItem> = units
            .iter()
            .map(|&(unit, _)| WorkItem::Unit { unit })
            .collect();
        let results = if items.is_empty() {
            Vec::new()
        } else {
            run(&items)?
        };
        for (&(unit, kind), found) in units.iter().zip(results) {
            st.summary.units += 1;
            next_unit = unit + run_cfg.shard.count;
            st.merge(found, RecordOrigin::Unit { unit, kind }, on_record)?;
            if st.summary.stop.is_some() {
                break;
            }
        }
        // 2. Local search from the elites.
        if st.summary.stop.is_none() && cfg.local > 0 && !st.elites.is_empty() {
            let tasks = run_cfg.batch_after(cfg.local as u64, st.summary.scenarios);
            let items: Vec<WorkItem> = (0..tasks)
                .map(|task| WorkItem::Local {
                    round,
                    task,
                    elite: Box::new(st.elites[task as usize % st.elites.len()].candidate.clone()),
                })
                .collect();
            let results = run(&items)?;
            for (task, found) in (0..tasks).zip(results) {
                st.merge(found, RecordOrigin::Local { round, task }, on_record)?;
                if st.summary.stop.is_some() {
                    break;
                }
            }
        }
        round += 1;
        st.summary.elapsed = st.start.elapsed();
        if st.summary.stop.is_none() {
            // A finite family's seeds run out early: its local search goes on (until the
            // budget or the time) unless the strategy asks for the seeds alone.
            let climbing = cfg.family.is_some()
                && run_cfg.strategy != Strategy::Exhaustive
                && cfg.local > 0
                && !st.elites.is_empty()
                && (run_cfg.budget.is_some() || run_cfg.time.is_some());
            if (exhausted || seeds.seed_kind(next_unit).is_none()) && !climbing {
                st.summary.stop = Some(Stop::Exhausted);
            } else if run_cfg.time.is_some_and(|t| st.summary.elapsed >= t) {
                st.summary.stop = Some(Stop::Time);
            } else if cancelled(&run_cfg.cancel) {
                st.summary.stop = Some(Stop::Cancelled);
            }
        }
        progress(&st.summary);
    }
    st.summary.elapsed = st.start.elapsed();
    if let Some((_, mut json)) = st.record.take() {
        json["scenarios"] = Value::from(st.summary.scenarios);
        json["best"] = Value::Bool(true);
        on_record(&json)?;
    }
    Ok(st.summary)
}
