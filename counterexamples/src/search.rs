//! The search driver: examine units of the [`Space`] in parallel, in a fixed order, until a
//! budget, a time limit or a number of counterexamples is reached; shrink what is found,
//! drop duplicates and hand each new counterexample out as soon as its batch is done.
//!
//! # What one unit does
//! A unit is one instance (see [`mod@crate::space`]). On it the driver tries, depending on
//! the property:
//! - **SP, GSP** — every user's structured lies (claim an unused resource at ½ and 1 × the
//!   dominant share, inflate a component, drop a component, halve or double the dominant
//!   one: `properties::scenarios::structured_lies`) and grid lies (on grid instances every
//!   nonzero vector of the value grid; on random ones a few random vectors whose entries
//!   are grid values × the user's dominant share × capacity); for GSP also
//!   `group_samples` random coalitions of every size from 2 to `n` (or `max_liars`), each
//!   member with one of its lies; then, if nothing was found, a **local search** of
//!   `climb_steps` steps that starts from the best profile seen and climbs the coalition's
//!   gain — moves change one component of one report (to 0, ×2, ×½, plus half a dominant
//!   share, or a grid value), add a liar or drop one, and are kept when the score does not
//!   fall. Score: SP the liar's gain; `gsp-strong` (the worst liar's gain capped at 0, then
//!   the best gain of anyone); `gsp-weak` the worst liar's gain.
//! - **PM** — every single departure. **RM** — the capacity grid (each resource and all of
//!   them ×3/2, ×2, ×4) and three random growths.
//! - **SI, EF, PO, SRF, BF, BBF** — the instance itself.
//!
//! A unit stops at its first violation, or once it has tried the whole budget's scenarios
//! (grid lies are unranked one at a time, [`Lies`], so a unit on many resources costs only
//! what it tries). Every scenario's verdict that looks like a
//! violation is confirmed by the exact oracles of `leontief_solver::properties` (for an
//! approximate mechanism, with the margin its error allows) before it counts.
//!
//! # Determinism
//! Unit `k` uses only `(seed, k)`, units are examined in batches whose results are merged in
//! unit order, and a budget stops at the same unit whatever the thread count; so with
//! `--budget` the output is the same for any number of threads. A unit's limit is the budget
//! itself, not what is left of it, so its result does not depend on the units before it
//! (nor on the batch or the shard it is in). With `--time` the output is a prefix of that
//! sequence.
//!
//! # Shards
//! Shard `i/N` takes the units `k ≡ i (mod N)`: N processes cover the space without overlap
//! and `leontief merge` joins their outputs (dropping duplicates again). Each shard applies
//! the budget and `max_found` to its own units; [`search_logged`]'s per-unit logs of the N
//! shards, [`replay`]ed, give exactly the one-process run with the same limits.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use leontief_solver::properties::Property;
use leontief_solver::{Mechanism, Rational};
use rayon::prelude::*;

use crate::instance_generator::GeneratorConfig;
use crate::record::Record;
use crate::shrink::ShrinkConfig;
use crate::space::{Origin, Space, Strategy};

mod lies;
mod unit;

pub use lies::{capacity_growths, grid_lies, neighbour_profile, user_lies, Lies};
pub(crate) use lies::{moved_entry, random_coalition};
use unit::run_unit;
pub use unit::unit_rng;

/// Shard `index` of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// From 0.
    pub index: u64,
    /// At least 1.
    pub count: u64,
}

impl Shard {
    /// The whole space.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `i/N` (`0 <= i < N`).
    ///
    /// # Example
    /// ```
    /// use leontief_counterexamples::search::Shard;
    /// assert_eq!(Shard::parse("1/4").unwrap(), Shard { index: 1, count: 4 });
    /// assert!(Shard::parse("4/4").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Shard, leontief_solver::SolverError> {
        let bad = || {
            leontief_solver::SolverError::invalid(
                "--shard",
                format!("expected i/N with 0 <= i < N, found {text:?}"),
            )
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// How many error messages a summary keeps: the first ones (the rest are only counted).
pub(crate) const KEPT_ERRORS: usize = 5;

/// Appends to `kept` as many of `more` as fit under [`KEPT_ERRORS`].
pub(crate) fn keep_errors(kept: &mut Vec<String>, more: impl IntoIterator<Item = String>) {
    let room = KEPT_ERRORS.saturating_sub(kept.len());
    kept.extend(more.into_iter().take(room));
}

/// A run over the search's [`Space`]: which units it examines and when it stops; shared by
/// [`SearchConfig`] and the `explore` configuration.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Run {
    /// The run's seed.
    pub seed: u64,
    /// Random instances (and the user/resource ranges of the grid).
    pub generator: GeneratorConfig,
    /// The value grid: grid instances' demand entries and grid lies.
    pub values: Vec<Rational>,
    /// Which units.
    pub strategy: Strategy,
    /// This process's shard.
    pub shard: Shard,
    /// Stop once this many scenarios have been tried (deterministic); no unit (or work item)
    /// tries more, so a run stops after fewer than twice the budget whatever the instance's
    /// size.
    pub budget: Option<u64>,
    /// Stop after this much wall time (checked between batches).
    pub time: Option<Duration>,
    /// Units per parallel batch.
    pub batch: usize,
    /// Set from another thread to stop between batches (e.g. on Ctrl-C in the Python
    /// package); the run then stops by [`Stop::Cancelled`].
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Run {
    /// Grid {0, 1/2, 1}, combined strategy, whole space, batches of `batch` units, no
    /// stopping rule (set one).
    pub fn new(seed: u64, generator: GeneratorConfig, batch: usize) -> Self {
        Run {
            seed,
            generator,
            values: vec![
                Rational::ZERO,
                Rational::new(1, 2).expect("nonzero"),
                Rational::ONE,
            ],
            strategy: Strategy::Combined,
            shard: Shard::ALL,
            budget: None,
            time: None,
            batch,
            cancel: None,
        }
    }

    /// The space of the run's units.
    pub fn space(&self) -> Space {
        Space::new(
            &self.values,
            self.generator.clone(),
            self.strategy,
            self.seed,
        )
    }

    /// How many units (or tasks) of at least one scenario each can still count under the
    /// budget after `spent` scenarios: `batch`, or fewer when the budget is nearly spent
    /// (at least 1).
    pub(crate) fn batch_after(&self, batch: u64, spent: u64) -> u64 {
        self.budget
            .map_or(batch, |b| batch.min(b.saturating_sub(spent).max(1)))
    }
}

/// What to search and when to stop.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SearchConfig {
    /// The property to violate.
    pub property: Property,
    /// The units and the limits.
    pub run: Run,
    /// Stop after this many distinct counterexamples.
    pub max_found: Option<usize>,
    /// Random coalitions per unit (GSP).
    pub group_samples: usize,
    /// Local-search steps per unit (SP, GSP).
    pub climb_steps: usize,
    /// The most liars in a coalition (`None`: every user).
    pub max_liars: Option<usize>,
    /// Shrink what is found.
    pub shrink: Option<ShrinkConfig>,
}

impl SearchConfig {
    /// Defaults: grid {0, 1/2, 1}, combined strategy, whole space, 48 coalitions and 32
    /// local-search steps per unit, shrinking on, batches of 256 units, no stopping rule
    /// (set one).
    ///
    /// # Example
    /// Extended DRF is not group strategy-proof in the strong reading once demands have
    /// zeros: a short search finds a coalition; the shrunk counterexample re-verifies.
    /// ```
    /// use leontief_counterexamples::instance_generator::{Chance, GeneratorConfig};
    /// use leontief_counterexamples::search::{search, SearchConfig};
    /// use leontief_solver::{properties::Property, Drf};
    /// let mut generator = GeneratorConfig::new();
    /// generator.zeros = Chance::new(1, 3).unwrap(); // unused resources to claim
    /// let mut cfg = SearchConfig::new(Property::GspStrong, 1, generator);
    /// cfg.max_found = Some(1);
    /// cfg.run.budget = Some(200_000);
    /// let mut found = Vec::new();
    /// let summary = search(&Drf::extended(), &cfg, &mut |r| { found.push(r.clone()); Ok(()) }, &|_| {}).unwrap();
    /// assert_eq!(summary.found, 1);
    /// use leontief_counterexamples::candidate::evaluate;
    /// assert!(evaluate(&Drf::extended(), Property::GspStrong, &found[0].candidate).unwrap().is_some());
    /// ```
    pub fn new(property: Property, seed: u64, generator: GeneratorConfig) -> Self {
        SearchConfig {
            property,
            run: Run::new(seed, generator, 256),
            max_found: None,
            group_samples: 48,
            climb_steps: 32,
            max_liars: None,
            shrink: Some(ShrinkConfig::default()),
        }
    }
}

leontief_solver::name_enum! {
    /// Why a search stopped: `budget`, `time`, `found`, `exhausted`, `cancelled`.
    pub enum Stop {
        /// The scenario budget was spent.
        Budget,
        /// The time limit passed.
        Time,
        /// Enough counterexamples were found.
        Found,
        /// Every unit of a finite space (or shard) was examined.
        Exhausted,
        /// The caller's cancel flag was set.
        Cancelled,
    }
}

/// Counters of a search, also passed to the progress callback after every batch. Serialized
/// without the wall times, `stop` by its name (`-` while running).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
#[non_exhaustive]
pub struct SearchSummary {
    /// Units examined.
    pub units: u64,
    /// Scenarios tried (one mechanism call on a changed instance each, or one allocation
    /// check for the allocation properties).
    pub scenarios: u64,
    /// Distinct counterexamples handed out.
    pub found: u64,
    /// Counterexamples dropped as duplicates of earlier ones.
    pub duplicates: u64,
    /// Mechanism failures (the scenario or unit is skipped).
    pub errors: u64,
    /// The first few failure messages.
    pub error_messages: Vec<String>,
    /// Wall time so far.
    #[serde(skip)]
    pub elapsed: Duration,
    /// Wall time when the first counterexample was handed out.
    #[serde(skip)]
    pub first_found: Option<Duration>,
    /// Why it stopped (`None` while running).
    #[serde(serialize_with = "stop_name")]
    pub stop: Option<Stop>,
    /// The next unit this shard would examine.
    pub next_unit: u64,
}

fn stop_name<S: serde::Serializer>(stop: &Option<Stop>, out: S) -> Result<S::Ok, S::Error> {
    out.serialize_str(stop.map_or("-", Stop::name))
}

/// Runs the search. `on_found` receives each new distinct counterexample (in unit order,
/// after its batch); `progress` the counters after each batch.
///
/// # Errors
/// Only what `on_found` returns (e.g. a failed write).
///
/// # Complexity
/// Per unit: one allocation per scenario (about `n × (lies per user)` plus
/// `group_samples + climb_steps` for GSP), plus shrinking for a violation (at most
/// `ShrinkConfig::max_evaluations` re-verifications of two allocations each).
pub fn search(
    mechanism: &dyn Mechanism,
    cfg: &SearchConfig,
    on_found: &mut dyn FnMut(&Record) -> std::io::Result<()>,
    progress: &(dyn Fn(&SearchSummary) + Sync),
) -> std::io::Result<SearchSummary> {
    search_logged(mechanism, cfg, on_found, &mut |_| Ok(()), progress)
}

/// One unit's outcome as its run saw it: what [`replay`] needs to redo the one-process
/// loop over the units of several shards. `T` is the record (or its JSON form).
#[derive(Debug, Clone, PartialEq)]
pub struct UnitLog<T> {
    /// The unit.
    pub unit: u64,
    /// Scenarios it tried.
    pub scenarios: u64,
    /// Its mechanism failures.
    pub errors: Vec<String>,
    /// Its counterexample: the canonical key ([`Record::key`]) and the record.
    pub found: Option<(String, T)>,
}

/// One shard's run: every unit it examined, in its order, and why it stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardLog<T> {
    /// Which shard.
    pub shard: Shard,
    /// Its units `shard.index`, `shard.index + shard.count`, ... in order.
    pub units: Vec<UnitLog<T>>,
    /// Why it stopped.
    pub stop: Stop,
}

/// [`search`], also handing every examined unit's outcome to `on_unit` (in unit order,
/// after its batch, before the unit's record goes to `on_found`).
///
/// # Errors
/// What `on_found` or `on_unit` returns.
pub fn search_logged(
    mechanism: &dyn Mechanism,
    cfg: &SearchConfig,
    on_found: &mut dyn FnMut(&Record) -> std::io::Result<()>,
    on_unit: &mut dyn FnMut(&UnitLog<Record>) -> std::io::Result<()>,
    progress: &(dyn Fn(&SearchSummary) + Sync),
) -> std::io::Result<SearchSummary> {
    let start = Instant::now();
    let run = &cfg.run;
    let space = run.space();
    let mut tally = Tally::new(run.shard, run.budget, cfg.max_found);
    let batch = run.batch.max(1) as u64;
    while tally.summary.stop.is_none() {
        // A unit's result depends on the unit and the budget alone, so a batch cut short by
        // the budget left changes nothing but the work thrown away.
        let batch = run.batch_after(batch, tally.summary.scenarios);
        let units: Vec<(u64, Origin)> = (0..batch)
            .map(|t| tally.summary.next_unit + t * run.shard.count)
            .map_while(|u| space.origin(u).map(|o| (u, o)))
            .collect();
        if units.is_empty() {
            tally.summary.stop = Some(Stop::Exhausted);
            break;
        }
        let results: Vec<UnitLog<Record>> = units
            .par_iter()
            .map(|&(unit, origin)| run_unit(mechanism, cfg, &space, unit, origin))
            .collect();
        for log in results {
            on_unit(&log)?;
            if let Some(record) = tally.add(log) {
                on_found(&record)?;
                tally
                    .summary
                    .first_found
                    .get_or_insert_with(|| start.elapsed());
            }
            if tally.summary.stop.is_some() {
                break;
            }
        }
        let summary = &mut tally.summary;
        summary.elapsed = start.elapsed();
        if summary.stop.is_none() && run.time.is_some_and(|t| summary.elapsed >= t) {
            summary.stop = Some(Stop::Time);
        }
        if summary.stop.is_none() && space.origin(summary.next_unit).is_none() {
            summary.stop = Some(Stop::Exhausted);
        }
        if summary.stop.is_none() && cancelled(&run.cancel) {
            summary.stop = Some(Stop::Cancelled);
        }
        progress(summary);
    }
    tally.summary.elapsed = start.elapsed();
    Ok(tally.summary)
}

/// The one-process loop's counters and stopping rule, applied one unit at a time: shared by
/// [`search_logged`] and [`replay`], so a replay stops where a run does.
struct Tally {
    summary: SearchSummary,
    seen: HashSet<String>,
    step: u64,
    budget: Option<u64>,
    max_found: Option<usize>,
}

impl Tally {
    fn new(shard: Shard, budget: Option<u64>, max_found: Option<usize>) -> Tally {
        Tally {
            summary: SearchSummary {
                next_unit: shard.index,
                ..SearchSummary::default()
            },
            seen: HashSet::new(),
            step: shard.count,
            budget,
            max_found,
        }
    }

    /// Counts one unit; its counterexample when it is new (by its canonical key). Sets
    /// `stop` once enough are found or the budget is spent.
    fn add<T>(&mut self, u: UnitLog<T>) -> Option<T> {
        let s = &mut self.summary;
        s.units += 1;
        s.scenarios += u.scenarios;
        s.errors += u.errors.len() as u64;
        keep_errors(&mut s.error_messages, u.errors);
        s.next_unit = u.unit + self.step;
        let new = u.found.and_then(|(key, record)| {
            if self.seen.insert(key) {
                s.found += 1;
                Some(record)
            } else {
                s.duplicates += 1;
                None
            }
        });
        if self.max_found.is_some_and(|k| s.found >= k as u64) {
            s.stop = Some(Stop::Found);
        } else if self.budget.is_some_and(|b| s.scenarios >= b) {
            s.stop = Some(Stop::Budget);
        }
        new
    }
}

/// Why shard logs cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// No shard was given.
    #[error("no shard logs")]
    Empty,
    /// The shards are not `0/N, 1/N, ..., N-1/N`, each once.
    #[error("expected the shards 0/{count} to {last}/{count}, each once, found {found}", last = .count - 1)]
    Shards {
        /// The first shard's count.
        count: u64,
        /// The shards given, as `i/N, ...`.
        found: String,
    },
    /// A shard's units are not its own in order.
    #[error("shard {index}/{count}: entry {position} is unit {unit}, expected unit {expected}")]
    Order {
        /// The shard.
        index: u64,
        /// The shard count.
        count: u64,
        /// The entry.
        position: usize,
        /// Its unit.
        unit: u64,
        /// The unit expected there.
        expected: u64,
    },
    /// A shard stopped by its budget or count before a unit one process examines: the logs
    /// are not of the `budget` and `max_found` given.
    #[error("shard {index}/{count} stopped by {stop} before unit {unit}, which one process with these limits examines")]
    Short {
        /// The shard.
        index: u64,
        /// The shard count.
        count: u64,
        /// Its stop.
        stop: &'static str,
        /// The unit missing.
        unit: u64,
    },
}

/// The one-process run rebuilt from its shards' logs: the records one process with the
/// same seed, `budget` and `max_found` hands out, in its order, and its summary (less the
/// wall times, which are zero).
///
/// Why it is exact: a shard applies the one-process rule to its own units. Before unit `u`
/// it has tried at most the scenarios of all units before `u` and found at most as many
/// distinct counterexamples (a subset of the units, a subset of the keys), so if one process
/// has not stopped before `u`, neither has `u`'s shard: every unit one process examines is
/// in its shard's log, and replaying the loop over the units in order stops where one process
/// stops. A shard stopped by time or cancellation ends the replay there, with that reason
/// (a prefix of the one-process run, as `time` gives); a shard that ran out of units ends it
/// as `exhausted`.
///
/// # Errors
/// [`ReplayError`] when the logs are not of one sharded run with these limits.
///
/// # Complexity
/// Linear in the units logged (one hash insert per counterexample).
///
/// # Example
/// ```
/// use leontief_counterexamples::search::{replay, ShardLog, Shard, Stop, UnitLog};
/// let unit = |unit, scenarios, key: Option<&str>| UnitLog {
///     unit, scenarios, errors: vec![], found: key.map(|k| (k.to_string(), unit)),
/// };
/// // Budget 10: one process stops after unit 2 (4 + 3 + 5 >= 10); shard 0/2 ran on to unit 4.
/// let shards = vec![
///     ShardLog { shard: Shard { index: 0, count: 2 }, stop: Stop::Budget,
///                units: vec![unit(0, 4, Some("a")), unit(2, 5, Some("a")), unit(4, 9, Some("b"))] },
///     ShardLog { shard: Shard { index: 1, count: 2 }, stop: Stop::Budget,
///                units: vec![unit(1, 3, None), unit(3, 9, Some("c"))] },
/// ];
/// let (records, summary) = replay(shards, Some(10), None).unwrap();
/// assert_eq!(records, vec![0]); // unit 2's "a" is a duplicate
/// assert_eq!((summary.units, summary.scenarios, summary.duplicates), (3, 12, 1));
/// assert_eq!(summary.stop, Some(Stop::Budget));
/// ```
pub fn replay<T>(
    shards: Vec<ShardLog<T>>,
    budget: Option<u64>,
    max_found: Option<usize>,
) -> Result<(Vec<T>, SearchSummary), ReplayError> {
    let count = shards.first().ok_or(ReplayError::Empty)?.shard.count;
    let mut logs: Vec<Option<ShardLog<T>>> = (0..count).map(|_| None).collect();
    let listed = shards
        .iter()
        .map(|s| format!("{}/{}", s.shard.index, s.shard.count))
        .collect::<Vec<_>>()
        .join(", ");
    for log in shards {
        let Shard { index, count: c } = log.shard;
        if c != count || index >= count || logs[index as usize].is_some() {
            return Err(ReplayError::Shards {
                count,
                found: listed,
            });
        }
        for (position, u) in log.units.iter().enumerate() {
            let expected = index + position as u64 * count;
            if u.unit != expected {
                return Err(ReplayError::Order {
                    index,
                    count,
                    position,
                    unit: u.unit,
                    expected,
                });
            }
        }
        logs[index as usize] = Some(log);
    }
    let mut logs: Vec<(Shard, Stop, std::vec::IntoIter<UnitLog<T>>)> = logs
        .into_iter()
        .map(|l| {
            let l = l.ok_or_else(|| ReplayError::Shards {
                count,
                found: listed.clone(),
            })?;
            Ok((l.shard, l.stop, l.units.into_iter()))
        })
        .collect::<Result<_, ReplayError>>()?;
    let mut tally = Tally::new(Shard::ALL, budget, max_found);
    let mut records = Vec::new();
    while tally.summary.stop.is_none() {
        let unit = tally.summary.next_unit;
        let (shard, stop, units) = &mut logs[(unit % count) as usize];
        let Some(u) = units.next() else {
            match stop {
                Stop::Exhausted | Stop::Time | Stop::Cancelled => tally.summary.stop = Some(*stop),
                Stop::Budget | Stop::Found => {
                    return Err(ReplayError::Short {
                        index: shard.index,
                        count,
                        stop: stop.name(),
                        unit,
                    })
                }
            }
            break;
        };
        records.extend(tally.add(u));
    }
    Ok((records, tally.summary))
}

/// Whether the caller's cancel flag is set.
pub(crate) fn cancelled(flag: &Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) -> bool {
    flag.as_ref()
        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
}
