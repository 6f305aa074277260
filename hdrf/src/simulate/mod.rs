//! The task-level simulator: discrete events in exact time, tasks started by a hierarchical
//! policy whenever resources free up, optional preemption, and each node's dominant share and
//! satisfaction over time (`docs/theory.md` §4, starvation over time in the task-level model).
//!
//! The static policies ([`crate::allocate`]) fill an empty cluster once; here leaves submit
//! tasks, tasks finish and free their resources, and the policy hands the freed resources out
//! again. That is where naive HDRF starves (the lecture's A = (1,0) vs B = {B1 = (1,0),
//! B2 = (0,1)}: once B2 holds all the memory, B's dominant share is 1 and every CPU that B1
//! frees goes to A) and min-satisfaction HDRF does not.
//!
//! # Input
//! The tree JSON that `leontief hdrf` reads, plus:
//! ```json
//! {"resources": ["cpu", "mem"], "capacity": [1, 1], "tree": {...},
//!  "horizon": 100,
//!  "workload": {
//!     "A":  {"duration": {"uniform": [1, 2], "steps": 4}, "count": null},
//!     "B1": {"duration": 1, "count": 40, "start": 5},
//!     "B2": {"duration": 3, "arrivals": [0, 2.5, {"time": 10, "count": 6}]}},
//!  "seed": 1, "warmup": 50, "starvation_tolerance": 10}
//! ```
//! - `horizon` (required here or in [`SimConfig::horizon`]): events at times `t < horizon`
//!   are simulated; the statistics cover `[0, horizon)`.
//! - `workload.LEAF` (leaves only; an unknown name or a pool is rejected):
//!   - `duration`: a positive number, or `{"uniform": [low, high], "steps": n}`: drawn from
//!     the grid `low + (high - low) k / n`, `k` uniform in `0..=n` (`n` defaults to
//!     [`DEFAULT_STEPS`]), exact. Default 1.
//!   - `count`: `null` (default) = always has work, an unbounded backlog whose tasks all
//!     count as submitted at `start`; an integer `n >= 0` = `n` tasks submitted at `start`.
//!   - `start`: when the backlog or the batch is submitted (default 0).
//!   - `arrivals` (instead of `count` and `start`): a list of submission times (one task
//!     each) or `{"time": t, "count": n}` batches.
//! - A leaf **not in the workload** always has work from time 0, tasks of duration 1
//!   ([`LeafWorkload::default`]): a bare tree file simulates the saturated cluster the static
//!   policies assume. Give `{"count": 0}` for an idle leaf.
//! - `seed` (default 1): random durations. Every leaf has its own stream (seeded in tree
//!   order from `seed` by [`SplitMix64`](leontief_solver::random_instances::SplitMix64)) and the
//!   `i`-th task a leaf starts takes the `i`-th draw, so the draws do not depend on the policy.
//! - `warmup` (default `horizon / 2`): the steady-state window is `[warmup, horizon)`.
//! - `starvation_tolerance` (default `horizon / 10`), see the summary below.
//!
//! Every error names the field, e.g. `workload.B1.duration: expected a positive number,
//! found 0`.
//!
//! # Tasks, machines, caps
//! A task of leaf `l` takes exactly `l`'s demand vector `d_l` for its duration. The cluster is
//! one pool of capacity `R` or, with [`SimConfig::machines`] `K`, `K` machines of `R / K`
//! each; a task must fit on one machine and goes to the first (lowest-numbered) one with room
//! for it; a leaf whose task fits on no machine even when empty is rejected. A leaf's task cap
//! `T` (`"tasks"` in the tree) bounds its **running** tasks by `floor(T)`. Shares are measured
//! against the whole `R`: a node's dominant share is `max_j U_j / R_j` of the sum `U` of its
//! leaves' running tasks, its satisfaction that over its guaranteed share `g_v`.
//!
//! # Scheduling rule
//! At each event time, completions and arrivals are applied first; then, repeatedly, the
//! policy picks a leaf that has pending work, is below its cap and whose task **fits** (on
//! some machine), and starts one task, until nothing fits. The pick descends from the root,
//! at every pool to the *active* child (some leaf below it could start a task now) with the
//! smallest key:
//! - `naive`: the child's dominant share / weight;
//! - `min-satisfaction`: the smallest satisfaction among the active nodes of the child's
//!   subtree (the child itself and its descendants);
//! - `collapsed`: the active leaf with the smallest dominant share / `g_leaf`;
//! - `hdrf`: H-DRF's key as in [`crate::policies::hdrf`] (active children's effective vectors
//!   rescaled to the smallest sibling key, stopped children's usage added as it is,
//!   saturated resources ignored). In the simulator a leaf without pending work or at its
//!   cap is *satisfied*, one with work whose task fits nowhere is *blocked* (both count with
//!   their actual usage), and a
//!   resource is *saturated* when such a blocked leaf demands it and no machine has room for
//!   its share of it;
//! - `fifo`: the active leaf whose oldest pending task was submitted first.
//!
//! **Ties** between active siblings with equal keys are broken by [`SimConfig::tie`], a chain
//! of [`crate::tiebreak`] rules applied at every pool, then input order: by default `count`,
//! the fewest tasks started in the subtree (Mesos' rule), so that two identical users alternate
//! instead of the first taking every offer (`docs/theory.md` §4.9). With
//! [`TieBreaks::first`] ties go to the first child in input order (for `collapsed` and `fifo`:
//! the first leaf in pre-order), as in the tests' task-by-task fill,
//! `tests/integration/common/discrete.rs`. "Fits" is the same rule too: a leaf is
//! skipped once its task does not fit, and the others continue (skip-and-continue). When every
//! leaf always has work and tasks outlive the horizon, the first instant of a run with ties
//! `first` and tasks of `d / K` (caps `T·K`) is exactly that task-by-task fill with slices `1/K`
//! (`tests/integration/simulate.rs` checks it on random trees), so the simulated allocation approaches the
//! static fluid one ([`crate::allocate`]) as `O(1/K)` wherever the discrete fill does. It does
//! not when tied *degenerate* siblings (pools whose key does not rise while they grow) compete
//! for a resource that runs out: with `first` the tie goes to the first of them at every task,
//! its key stays tied, and it takes the whole resource, where the fluid fill grows them
//! together — a difference that persists at every `K` (see the crate docs); the other
//! tie-breaks spread such ties by their own rule (`count`: the sibling with fewer starts).
//!
//! # Guarantees, limits, usage, FIFO pools
//! The tree's production fields (`docs/production.md` §5), as shares of the capacity:
//! - when some node below the root has an explicit `guarantee`, a child at least one task
//!   below its resolved guarantee `G_v` (some active leaf `l` below it has
//!   `U_v + d_l <= G_v` on the resources `l` demands) is picked before its siblings, at every
//!   pool and under every policy; the policy's key and the tie-breaks order the rest;
//! - a task is started only if every node from its leaf to the root stays within its
//!   `limit`; a leaf that would exceed one is skipped for the round;
//! - a leaf's `usage`, a whole number of its tasks, runs from time 0 (durations drawn from its
//!   workload), on top of its pending work;
//! - a `fifo` pool gives the task to its first child, in the order listed, that could start
//!   one (after the guarantee rule);
//! - with explicit guarantees, every node below the root is judged against `G_v` (see
//!   "Output"), not against the weights' guaranteed share.
//!
//! Preemption is refused beside explicit guarantees or limits.
//!
//! # Preemption
//! Off by default. With a timeout `τ` ([`SimConfig::preemption`]): a node that has been below
//! its guaranteed share, with unmet demand, for `τ` (it became so at a settled time `t0` and
//! still is at `t0 + τ`) preempts. Its neediest leaf (smallest satisfaction among its leaves
//! with work to start; first in tree order on ties) is served: tasks are killed until one task
//! of that leaf fits on some machine (the machine needing the fewest kills), and that task
//! starts at once, bypassing the policy; this repeats until the node reaches its guarantee or
//! no victim is left (then it checks again `τ` later). A victim is the **youngest** task
//! (latest start) of the **most over-satisfied** leaf: among leaves outside the starving
//! node's subtree that hold a resource the task still lacks and whose nodes, from the leaf up
//! to (not including) the common ancestor with the starving node, all stay at or above their
//! guarantees without that task, the one whose least satisfied such node is the most
//! satisfied. A killed task loses its work and goes back to the front of its leaf's queue.
//! This is the lecture's practice (wait a while, then evict from those with the largest
//! share, youngest tasks first), made precise.
//!
//! # Output
//! State is recorded after all events at a time have been handled (the *settled* state; the
//! intermediate states within one instant last no time). Per node ([`NodeSummary`]):
//! - `time_average_share`: `∫ S_v(t) dt / horizon` over `[0, horizon)`;
//! - `min_share_steady`: the minimum of `S_v` over the steady-state window `[warmup, horizon)`;
//! - `time_below_guarantee`: the time `S_v < g_v` while the node has **unmet demand** (some
//!   leaf below has pending work and is below its cap) — a node without work is not counted;
//!   with explicit guarantees, the time some leaf below with work (within the limits up to
//!   the node) finds the node below `G_v` on every resource it demands;
//! - `longest_below_guarantee`: the longest such spell;
//! - `longest_below_by_a_task`: the longest spell at least one task below the guarantee with
//!   unmet demand, `g_v - S_v >= t_v`, `t_v` the smallest dominant share of one task of a leaf
//!   below `v` with work; `starved` when it exceeds the starvation tolerance. A node less than
//!   one task below its guarantee could start no task and stay within it: tasks are
//!   indivisible, so that gap is not starvation (`docs/theory.md` §4.9). With explicit
//!   guarantees: a leaf below with work, within the limits up to the node, could start a task
//!   and keep the node within `G_v` (`U_v + d_l <= G_v`).
//!
//! # Bounded work
//! A run handles at most [`SimConfig::max_events`] events ([`DEFAULT_MAX_EVENTS`] by default)
//! before the horizon; a workload that needs more (a task duration of `1e-30` on a horizon of
//! 1) is an error on the field `max_events`, not an endless run.
//!
//! The time series ([`Record`]) gives every node's dominant share (satisfaction is the share
//! over `g_v`) and whether it has unmet demand at every event time, at a fixed step, or not
//! at all.
//!
//! # Complexity
//! A heap of events keyed by `(time, sequence)`; per-node usage, dominant shares, readiness
//! counts and keys are updated along the path of the leaf that changed, and a pick descends
//! the tree: `O(depth · (children + m))` rational operations per task started or finished,
//! plus `O(depth · children)` per leaf found not to fit. H-DRF recomputes its effective
//! vectors for every pick, `O(N · m)`. Exact rationals throughout; with small-denominator
//! durations and demands they stay machine-sized (see `benches/simulate.rs`).
//!
//! # Example
//! The lecture's churn: B2 holds all the memory with long tasks, B1's tasks take 1, A's 3/2.
//! Under naive HDRF B1 drains to 0; under min-satisfaction it keeps more than 1/4.
//! ```
//! use leontief_hdrf::simulate::{simulate, Scenario, SimConfig, SimPolicy};
//! let s = Scenario::from_json_str(r#"{"resources": ["cpu", "mem"], "capacity": [1, 1],
//!   "tree": {"name": "root", "children": [{"name": "A", "demand": [0.05, 0]},
//!     {"name": "B", "children": [{"name": "B1", "demand": [0.05, 0]}, {"name": "B2", "demand": [0, 0.05]}]}]},
//!   "horizon": 100,
//!   "workload": {"A": {"duration": 1.5}, "B1": {"duration": 1}, "B2": {"duration": 1000}}}"#).unwrap();
//! let b1 = s.tree.find("B1").unwrap().index();
//! let naive = simulate(&s, &SimConfig::new(SimPolicy::Tree(leontief_hdrf::Policy::Naive))).unwrap();
//! assert_eq!(naive.nodes[b1].min_share_steady.to_string(), "0");
//! assert!(naive.nodes[b1].starved);
//! let fair = simulate(&s, &SimConfig::new(SimPolicy::Tree(leontief_hdrf::Policy::MinSatisfaction))).unwrap();
//! assert!(fair.nodes[b1].min_share_steady >= "1/4".parse().unwrap());
//! assert!(!fair.nodes[b1].starved);
//! ```
//!
//! # References
//! - The Yandex lecture on resource allocation in large clusters (2016): starvation of naive
//!   HDRF, min-satisfaction HDRF, preemption.
//! - A. Bhattacharya et al. *Hierarchical Scheduling for Diverse Datacenter Workloads.*
//!   SoCC 2013 (naive H-DRF's starvation under churn).

mod engine;
mod render;
mod workload;

use leontief_solver::Rational;
use serde::Serialize;

pub use render::render_comparison;
pub use workload::{
    require_positive, Arrival, Duration, LeafWorkload, Scenario, Supply, DEFAULT_STEPS,
    SCENARIO_FIELDS,
};

use crate::error::{Result, SolverError};
use crate::policies::production::tasks_within;
use crate::tiebreak::TieBreaks;
use crate::Policy;
use crate::Tree;

/// The most samples [`Record::Every`] may ask for.
pub const MAX_SAMPLES: u64 = 10_000_000;

/// The default event budget ([`SimConfig::max_events`]): twice the million completions of
/// the largest benchmark (`benches/simulate.rs`), so that the benchmark fits and a runaway
/// workload stops.
pub const DEFAULT_MAX_EVENTS: u64 = 2_000_000;

/// A scheduling policy of the simulator: a tree policy of [`Policy`], under its name and in
/// its order, then FIFO. Nothing here lists the tree policies again: a new [`Policy`] is
/// simulated as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimPolicy {
    /// A tree policy, task by task.
    Tree(Policy),
    /// First in, first out: the oldest pending submission.
    Fifo,
}

/// How many policies the simulator has: the tree policies and FIFO.
const SIM_POLICIES: usize = Policy::ALL.len() + 1;

impl SimPolicy {
    /// Every policy: the tree policies in [`Policy::ALL`]'s order, then FIFO.
    pub const ALL: [SimPolicy; SIM_POLICIES] = {
        let mut all = [SimPolicy::Fifo; SIM_POLICIES];
        let mut i = 0;
        while i < Policy::ALL.len() {
            all[i] = SimPolicy::Tree(Policy::ALL[i]);
            i += 1;
        }
        all
    };

    /// The names of [`SimPolicy::ALL`], in its order.
    pub const NAMES: [&'static str; SIM_POLICIES] = {
        let tree = <Policy as strum::VariantNames>::VARIANTS;
        let mut names = ["fifo"; SIM_POLICIES];
        let mut i = 0;
        while i < tree.len() {
            names[i] = tree[i];
            i += 1;
        }
        names
    };

    /// The name on the command line and in JSON: a tree policy's is its [`Policy`]'s.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{simulate::SimPolicy, Policy};
    /// assert_eq!(SimPolicy::Tree(Policy::MinSatisfaction).name(), "min-satisfaction");
    /// assert_eq!("fifo".parse::<SimPolicy>().unwrap(), SimPolicy::Fifo);
    /// assert_eq!("hdrf".parse::<SimPolicy>().unwrap(), SimPolicy::Tree(Policy::Hdrf));
    /// let err = "drf".parse::<SimPolicy>().unwrap_err().to_string();
    /// assert_eq!(err, "policy: unknown policy \"drf\" (expected collapsed, naive, min-satisfaction, hdrf or fifo)");
    /// ```
    pub fn name(self) -> &'static str {
        self.static_policy().map_or("fifo", Policy::name)
    }

    /// The tree policy (`None` for FIFO).
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{simulate::SimPolicy, Policy};
    /// assert_eq!(SimPolicy::Tree(Policy::Hdrf).static_policy(), Some(Policy::Hdrf));
    /// assert_eq!(SimPolicy::Fifo.static_policy(), None);
    /// ```
    pub fn static_policy(self) -> Option<Policy> {
        match self {
            SimPolicy::Tree(policy) => Some(policy),
            SimPolicy::Fifo => None,
        }
    }
}

impl From<Policy> for SimPolicy {
    fn from(policy: Policy) -> Self {
        SimPolicy::Tree(policy)
    }
}

impl strum::VariantNames for SimPolicy {
    const VARIANTS: &'static [&'static str] = &SimPolicy::NAMES;
}

impl std::fmt::Display for SimPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Written as its [name](SimPolicy::name).
impl Serialize for SimPolicy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl std::str::FromStr for SimPolicy {
    type Err = SolverError;

    /// A tree policy's name or `fifo`; otherwise `policy: unknown policy "x" (expected
    /// collapsed, naive, min-satisfaction, hdrf or fifo)`.
    fn from_str(text: &str) -> std::result::Result<Self, SolverError> {
        match text {
            "fifo" => Ok(SimPolicy::Fifo),
            _ => text.parse::<Policy>().map(SimPolicy::Tree).map_err(|_| {
                leontief_solver::registry::unknown_name::<SimPolicy>("policy", "policy", text)
            }),
        }
    }
}

/// Which states the time series keeps.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Record {
    /// The settled state at every event time (and at 0).
    #[default]
    Events,
    /// The state at `0, dt, 2dt, ...` below the horizon (`dt > 0`).
    Every(Rational),
    /// No time series (the summary only).
    Off,
}

/// How to run a [`Scenario`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimConfig {
    /// The scheduling policy.
    pub policy: SimPolicy,
    /// `None`: one pooled cluster; `Some(K)`: `K >= 1` machines of capacity `R / K`.
    pub machines: Option<u64>,
    /// Preemption timeout `τ > 0` (`None`: no preemption).
    pub preemption: Option<Rational>,
    /// The time series to keep.
    pub record: Record,
    /// Overrides the scenario's horizon.
    pub horizon: Option<Rational>,
    /// Overrides the scenario's seed.
    pub seed: Option<u64>,
    /// How ties between siblings with equal keys are broken (default `count`).
    pub tie: TieBreaks,
    /// The most events the run may handle before the horizon (default
    /// [`DEFAULT_MAX_EVENTS`]); a run that needs more is an error, not an endless loop.
    pub max_events: u64,
}

impl SimConfig {
    /// `policy` on the pooled cluster, no preemption, every event recorded.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::{Record, SimConfig, SimPolicy};
    /// let c = SimConfig::new(SimPolicy::Tree(leontief_hdrf::Policy::Hdrf)).machines(4).preemption(5).record(Record::Off);
    /// assert_eq!(c.machines, Some(4));
    /// ```
    pub fn new(policy: SimPolicy) -> Self {
        SimConfig {
            policy,
            machines: None,
            preemption: None,
            record: Record::Events,
            horizon: None,
            seed: None,
            tie: TieBreaks::default(),
            max_events: DEFAULT_MAX_EVENTS,
        }
    }

    leontief_solver::setters! {
        /// Sets `K` machines.
        machines(k: u64) => machines = Some(k);
        /// Sets the preemption timeout.
        preemption(timeout: impl Into<Rational>) => preemption = Some(timeout.into());
        /// Sets what the time series keeps.
        record(record: Record) => record = record;
        /// Sets the horizon (overriding the scenario's).
        horizon(horizon: impl Into<Rational>) => horizon = Some(horizon.into());
        /// Sets the seed (overriding the scenario's).
        seed(seed: u64) => seed = Some(seed);
        /// Sets the tie-break chain.
        tie(tie: TieBreaks) => tie = tie;
        /// Sets the event budget.
        max_events(budget: u64) => max_events = budget;
    }
}

/// A node's figures over a run (see the [module docs](self), "Output"), in the order of its
/// JSON form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct NodeSummary {
    /// `∫ S_v dt / horizon`.
    pub time_average_share: Rational,
    /// Minimum dominant share over `[warmup, horizon)`.
    pub min_share_steady: Rational,
    /// Total time below the guaranteed share with unmet demand.
    pub time_below_guarantee: Rational,
    /// Longest such spell.
    pub longest_below_guarantee: Rational,
    /// Longest spell at least one task below the guarantee (`g_v - S_v >= t_v`, `t_v` the
    /// smallest dominant share of a task below `v`) with unmet demand.
    pub longest_below_by_a_task: Rational,
    /// `longest_below_by_a_task > starvation tolerance`: a node less than one task below its
    /// guarantee is not starved.
    pub starved: bool,
    /// Dominant share at the horizon (the last settled state).
    pub final_share: Rational,
    /// Running tasks at the horizon (leaves only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_tasks: Option<u64>,
}

/// One point of the time series: every node's dominant share, in node (pre-)order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// The time.
    pub time: Rational,
    /// Dominant shares, indexed by [`crate::NodeId::index`].
    pub shares: Vec<Rational>,
    /// Whether the node has unmet demand (some leaf below has pending work and is below its
    /// cap), indexed like `shares`: with the shares, what decides time below the guarantee,
    /// so a spell can be recomputed from the series alone. Not in the JSON form.
    pub unmet_demand: Vec<bool>,
}

/// The result of [`simulate`]. Its JSON form is that of [`Simulation::document`] without
/// `nodes` and `series`, which need the tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Simulation {
    /// The policy.
    pub policy: SimPolicy,
    /// `None` pooled, `Some(K)` machines (written `K` or `"pooled"`).
    #[serde(serialize_with = "serialize_machines")]
    pub machines: Option<u64>,
    /// The preemption timeout, if any (written `{"timeout": τ}` or `null`).
    #[serde(serialize_with = "serialize_preemption")]
    pub preemption: Option<Rational>,
    /// End of simulated time.
    pub horizon: Rational,
    /// Start of the steady-state window.
    pub warmup: Rational,
    /// The starvation tolerance.
    pub starvation_tolerance: Rational,
    /// The seed of the durations.
    pub seed: u64,
    /// The tie-break chain (written as `tie` and `tie_break`, see [`TieBreaks`]).
    #[serde(flatten)]
    pub tie: TieBreaks,
    /// Tasks started, completed and preempted.
    pub tasks: TaskCounts,
    /// Events handled (completions, arrivals, preemption checks; stale ones included).
    pub events: u64,
    /// Per node, indexed by [`crate::NodeId::index`].
    #[serde(skip)]
    pub nodes: Vec<NodeSummary>,
    /// The time series.
    #[serde(skip)]
    pub series: Vec<Sample>,
}

/// The tasks of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TaskCounts {
    /// Tasks started (restarts after preemption included).
    pub started: u64,
    /// Tasks that ran to completion before the horizon.
    pub completed: u64,
    /// Tasks killed by preemption.
    pub preempted: u64,
}

fn serialize_machines<S: serde::Serializer>(
    machines: &Option<u64>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match machines {
        Some(k) => s.serialize_u64(*k),
        None => s.serialize_str("pooled"),
    }
}

fn serialize_preemption<S: serde::Serializer>(
    timeout: &Option<Rational>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Preemption<'a> {
        timeout: &'a Rational,
    }
    timeout
        .as_ref()
        .map(|timeout| Preemption { timeout })
        .serialize(s)
}

/// Runs `scenario` under `config` (see the [module docs](self)).
///
/// # Errors
/// [`SolverError::Invalid`] naming the field: `horizon` missing or not positive, `warmup` not
/// below the horizon, `machines` zero or a leaf with work whose task fits on no machine,
/// `preemption` or `every` not positive, `max_events` when the run needs more events than the
/// budget.
///
/// # Example
/// One resource, two leaves of weights 1 and 3 that always have work: the pooled cluster is
/// split 1/4, 3/4 (weighted DRF), whatever the durations.
/// ```
/// use leontief_hdrf::simulate::{simulate, Scenario, SimConfig, SimPolicy};
/// let s = Scenario::from_json_str(r#"{"capacity": [1], "horizon": 20, "tree": {"children": [
///     {"name": "x", "demand": [0.125]}, {"name": "y", "weight": 3, "demand": [0.125]}]},
///     "workload": {"x": {"duration": 1}, "y": {"duration": {"uniform": [1, 3]}}}}"#).unwrap();
/// let run = simulate(&s, &SimConfig::new(SimPolicy::Tree(leontief_hdrf::Policy::Naive))).unwrap();
/// let y = s.tree.find("y").unwrap().index();
/// assert_eq!(run.nodes[y].final_tasks, Some(6));
/// assert_eq!(run.nodes[y].time_average_share.to_string(), "3/4");
/// ```
pub fn simulate(scenario: &Scenario, config: &SimConfig) -> Result<Simulation> {
    let tree = &scenario.tree;
    let explicit = tree.nodes().any(|v| {
        v != tree.root() && (tree.node(v).has_guarantee() || tree.node(v).limit().is_some())
    });
    if explicit && config.preemption.is_some() {
        // Refused rather than ignored: preemption's victims are chosen against the weights'
        // guaranteed shares, and its restarts bypass the limits.
        return Err(SolverError::invalid(
            "preemption",
            "not with explicit guarantees or limits in the tree yet (the simulator serves \
             nodes below their guarantee first and never exceeds a limit, without preemption)",
        ));
    }
    let horizon = config
        .horizon
        .clone()
        .or_else(|| scenario.horizon.clone())
        .ok_or_else(|| SolverError::invalid("horizon", "missing (the end of simulated time)"))?;
    workload::require_positive("horizon", "number", &horizon)?;
    let warmup = scenario
        .warmup
        .clone()
        .unwrap_or_else(|| &horizon / Rational::from(2));
    if warmup >= horizon {
        return Err(SolverError::invalid(
            "warmup",
            format!("must be below the horizon {horizon}, found {warmup}"),
        ));
    }
    let tolerance = scenario
        .starvation_tolerance
        .clone()
        .unwrap_or_else(|| &horizon / Rational::from(10));
    let k = match config.machines {
        None => 1,
        Some(0) => {
            return Err(SolverError::invalid(
                "machines",
                "expected at least one machine, found 0",
            ))
        }
        Some(k) => usize::try_from(k)
            .ok()
            .filter(|&k| k <= 1 << 20)
            .ok_or_else(|| {
                SolverError::invalid("machines", format!("at most {} machines", 1 << 20))
            })?,
    };
    if let Some(t) = &config.preemption {
        workload::require_positive("preemption", "timeout", t)?;
    }
    if let Record::Every(dt) = &config.record {
        workload::require_positive("every", "time step", dt)?;
        let samples = (&horizon / dt).ceil();
        if samples > Rational::from(MAX_SAMPLES) {
            return Err(SolverError::invalid(
                "every",
                format!(
                    "{samples} samples of the horizon {horizon}; at most {MAX_SAMPLES} (take a larger step)"
                ),
            ));
        }
    }
    check_fits(scenario, k)?;
    let initial = initial_tasks(tree)?;
    let seed = config.seed.unwrap_or(scenario.seed);
    let out = Simulation {
        policy: config.policy,
        machines: config.machines,
        preemption: config.preemption.clone(),
        horizon,
        warmup,
        starvation_tolerance: tolerance,
        seed,
        tie: config.tie.clone(),
        tasks: TaskCounts::default(),
        events: 0,
        nodes: Vec::new(),
        series: Vec::new(),
    };
    let run = engine::Engine::new(scenario, config, k, out, initial).run()?;
    debug_assert_eq!(run.nodes.len(), tree.len());
    Ok(run)
}

/// The whole tasks each leaf holds at time 0: its `usage` must be a whole number of its
/// tasks, within its task cap.
fn initial_tasks(tree: &Tree) -> Result<Vec<u64>> {
    let mut initial = vec![0u64; tree.len()];
    for leaf in tree.leaves() {
        let node = tree.node(leaf);
        let u = node.usage();
        if u.iter().all(Rational::is_zero) {
            continue;
        }
        let field = format!("{}.usage", tree.path(leaf));
        let d = node.demand().expect("a leaf");
        // k = u_j / d_j on the demanded resources; every resource must agree, and a resource
        // the leaf does not demand must be unused.
        let k = tasks_within(d, u).ok_or_else(|| {
            SolverError::invalid(&field, "an idle leaf (all-zero demand) cannot hold tasks")
        })?;
        let whole = k.is_integer() && d.iter().zip(u).all(|(dj, uj)| &(dj * &k) == uj);
        if !whole {
            return Err(SolverError::invalid(
                &field,
                format!(
                    "the simulator starts what a leaf holds as running tasks: expected a whole \
                     number of its tasks ({}), found {}",
                    vec_text(d),
                    vec_text(u)
                ),
            ));
        }
        let k = k.floor_u64().unwrap_or(u64::MAX);
        if let Some(t) = node.cap()
            && Rational::from(k) > *t
        {
            return Err(SolverError::invalid(
                &field,
                format!("{k} tasks, more than its task count {t}"),
            ));
        }
        if let Some(l) = node.limit()
            && u.iter().zip(l).any(|(a, b)| a > b)
        {
            return Err(SolverError::invalid(&field, "above the leaf's limit"));
        }
        initial[leaf.index()] = k;
    }
    for v in tree.pools() {
        if let Some(l) = tree.node(v).limit()
            && tree.node(v).usage().iter().zip(l).any(|(a, b)| a > b)
        {
            return Err(SolverError::invalid(
                format!("{}.usage", tree.path(v)),
                "the usage of the leaves below is above the pool's limit",
            ));
        }
    }
    Ok(initial)
}

fn vec_text(x: &[Rational]) -> String {
    let parts: Vec<String> = x.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// Every leaf with work must fit on one (empty) machine.
fn check_fits(scenario: &Scenario, k: usize) -> Result<()> {
    let tree = &scenario.tree;
    let per = Rational::new(1, k as i128).expect("k >= 1");
    for leaf in tree.leaves() {
        if !scenario.workload(leaf).has_work() {
            continue;
        }
        let node = tree.node(leaf);
        let d = node.demand().expect("a leaf");
        for (j, (dj, rj)) in d.iter().zip(tree.capacity()).enumerate() {
            let machine = rj * &per;
            if *dj > machine {
                let (field, room) = if k == 1 {
                    (
                        format!("workload.{}", node.name()),
                        "the capacity".to_string(),
                    )
                } else {
                    ("machines".to_string(), format!("one of {k} machines"))
                };
                return Err(SolverError::invalid(
                    field,
                    format!(
                        "a task of {} needs {dj} of {}, more than {room} holds ({machine}); it could never run",
                        node.name(),
                        tree.resources()[j]
                    ),
                ));
            }
        }
    }
    Ok(())
}

impl Simulation {
    /// The JSON form: the run's parameters, task counters, every node's summary (`nodes`, in
    /// pre-order, with path and guaranteed share) and the time series (`series`: per sample,
    /// `time` and the lists `dominant_share` and `satisfaction`, aligned with `nodes`). Every
    /// number is an exact string.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::{simulate, Scenario, SimConfig, SimPolicy};
    /// let s = Scenario::from_json_str(r#"{"capacity": [1], "horizon": 4, "tree": {"children": [
    ///     {"name": "x", "demand": [0.5]}]}, "workload": {"x": {"count": 1, "duration": 2}}}"#).unwrap();
    /// let run = simulate(&s, &SimConfig::new(SimPolicy::Fifo)).unwrap();
    /// let v = serde_json::to_value(run.document(&s.tree)).unwrap();
    /// assert_eq!(v["nodes"][1]["path"], "root/x");
    /// assert_eq!(v["nodes"][1]["time_average_share"], "1/4");
    /// assert_eq!(v["series"][1]["time"], "2");
    /// assert_eq!(v["series"][0]["satisfaction"][1], "1/2");
    /// ```
    pub fn document<'a>(&'a self, tree: &'a Tree) -> SimulationDoc<'a> {
        let g = guaranteed_shares(tree);
        SimulationDoc {
            run: self,
            nodes: tree
                .nodes()
                .map(|v| NodeFields {
                    path: tree.path(v),
                    name: tree.node(v).name(),
                    guaranteed_share: tree.node(v).guaranteed_share(),
                    summary: &self.nodes[v.index()],
                })
                .collect(),
            series: self
                .series
                .iter()
                .map(|s| SampleFields {
                    time: &s.time,
                    dominant_share: &s.shares,
                    satisfaction: s.shares.iter().zip(&g).map(|(x, g)| x / *g).collect(),
                })
                .collect(),
        }
    }

    /// The time series as CSV, one row per sample and node:
    /// `time,path,dominant_share,satisfaction`, exact fractions.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::simulate::{simulate, Scenario, SimConfig, SimPolicy};
    /// let s = Scenario::from_json_str(r#"{"capacity": [1], "horizon": 4, "tree": {"children": [
    ///     {"name": "x", "demand": [0.5]}]}, "workload": {"x": {"count": 1, "duration": 2}}}"#).unwrap();
    /// let csv = simulate(&s, &SimConfig::new(SimPolicy::Fifo)).unwrap().series_csv(&s.tree);
    /// assert_eq!(csv.lines().nth(2), Some("0,root/x,1/2,1/2"));
    /// ```
    pub fn series_csv(&self, tree: &Tree) -> String {
        let paths: Vec<String> = tree.nodes().map(|v| csv_field(&tree.path(v))).collect();
        let g = guaranteed_shares(tree);
        let mut out = String::from("time,path,dominant_share,satisfaction\n");
        for s in &self.series {
            for (i, x) in s.shares.iter().enumerate() {
                out.push_str(&format!("{},{},{},{}\n", s.time, paths[i], x, x / g[i]));
            }
        }
        out
    }
}

/// Every node's guaranteed share, in node (pre-)order.
fn guaranteed_shares(tree: &Tree) -> Vec<&Rational> {
    tree.nodes()
        .map(|v| tree.node(v).guaranteed_share())
        .collect()
}

/// The JSON form of a [`Simulation`] on its tree (see [`Simulation::document`]): every number
/// an exact string, the fields in output order.
#[derive(Debug, Clone, Serialize)]
pub struct SimulationDoc<'a> {
    #[serde(flatten)]
    run: &'a Simulation,
    nodes: Vec<NodeFields<'a>>,
    series: Vec<SampleFields<'a>>,
}

/// One node's figures: where it is, then its summary.
#[derive(Debug, Clone, Serialize)]
struct NodeFields<'a> {
    path: String,
    name: &'a str,
    guaranteed_share: &'a Rational,
    #[serde(flatten)]
    summary: &'a NodeSummary,
}

/// One sample: the time, and every node's dominant share and satisfaction.
#[derive(Debug, Clone, Serialize)]
struct SampleFields<'a> {
    time: &'a Rational,
    dominant_share: &'a [Rational],
    satisfaction: Vec<Rational>,
}

/// Quotes a CSV field when it needs it.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
