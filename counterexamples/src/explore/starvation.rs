//! `starvation`: the longest time a node of the tree spends starved while work comes and
//! goes, as a fraction of the simulated time, maximized (docs/explore.md §3.11).
//!
//! The task-level simulator (`leontief_hdrf::simulate`) runs the mechanism's tree policy on
//! the instance's tree (a flat instance is a tree of one level) under a **churn workload**:
//! leaves submit batches of tasks at rational times, run out of work (they depart) and come
//! back, tasks take exact rational durations. A node `v` is **starved** while its dominant
//! share is below its guaranteed share, `S_v < g_v`, and it has unmet demand (some leaf below
//! has pending work and is below its cap) — the simulator's definition of time below the
//! guarantee (`NodeSummary::longest_below_guarantee`, no second one). Over the nodes below
//! the root (the root's guarantee is the whole cluster: below it with pending work the
//! cluster is fragmented, not unfair — left out as in `sg-deficit`):
//!
//! `starvation = max_v L_v / H`
//!
//! where `L_v` is `v`'s longest continuous starved spell and `H` the horizon: the value is a
//! **fraction of the simulated time**, in `[0, 1]` (0: no node is ever starved; 1: one is
//! starved from time 0 to the end). The numerator is `L_v`, the denominator `H`; the witness
//! names the node (first in pre-order among the longest) and its spell `[start, end)`, the
//! first in time among the longest.
//!
//! # The workload
//! Drawn from a seed (the candidate's `Scenario::Churn`), exactly, on the simulated time
//! `[0, 16)`: per leaf, in tree order, a fixed task duration `k/2` (`k` uniform in `1..=6`)
//! and 1 to 3 batches, each at a time `t/2` (`t` uniform in `0..=16`) with 1 to
//! `min(8, 2 ⌈1/μ⌉)` tasks (`μ` the task's dominant share: up to twice what fills the
//! cluster). A leaf whose task does not fit the capacity submits nothing. A unit tries four
//! seeds (and the local search's seed first), each one simulation.
//!
//! # Bounded work
//! A workload is finite: every leaf's batches are listed (no unbounded backlog), at most
//! [`MAX_TASKS`] tasks in all; without preemption every event is an arrival or a completion,
//! so a run handles at most `2 × MAX_TASKS` events. A recorded workload beyond that is
//! refused with an error naming `witness.workload`.
//!
//! It applies to the tree policies the simulator runs, `hdrf:naive`,
//! `hdrf:min-satisfaction`, `hdrf:collapsed` and `hdrf:hdrf`; `--utility` does not apply.
//!
//! Re-derivation reads the recorded workload back with the simulator's own reader, runs it
//! again with the full event trace, and recomputes every node's longest spell from the trace
//! alone ([`spells`]: the settled states, one per event time); the spells must agree with
//! the simulator's own accounting, and the worst with the recorded node, interval and value.
//!
//! # Example
//! See `tests/integration/explore_starvation.rs`: on A ⟨1/2, 0⟩ beside B = {B1 ⟨1/2, 0⟩, B2 ⟨0, 1⟩},
//! naive HDRF keeps B1 starved on `[1, 4)` while A drains its batch.
//!
//! # Complexity
//! Per scenario, one simulation: `O(E · depth · (children + m))` for `E <= 2 × MAX_TASKS`
//! events (the simulator's complexity), plus `O(E · N)` to read the trace of `N` nodes.
//!
//! # References
//! - A. A. Bhattacharya, D. Culler, E. Friedman, A. Ghodsi, S. Shenker, I. Stoica.
//!   *Hierarchical Scheduling for Diverse Datacenter Workloads.* ACM SoCC 2013 (naive H-DRF
//!   starves a node under churn).
//! - docs/theory.md §4.5 (naive HDRF's starvation), §4.6 (min-satisfaction HDRF), §4.9 (the
//!   simulator).

use serde::Serialize;
use serde_json::Value;

use leontief_hdrf::simulate::{
    simulate, Arrival, Duration as TaskDuration, LeafWorkload, Record, Scenario as Sim, SimConfig,
    SimPolicy, Simulation, Supply,
};
use leontief_hdrf::{Policy, Tree};
use leontief_solver::properties::Property;
use leontief_solver::properties::Scenario;
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::registry::Descriptor;
use leontief_solver::{Instance, Mechanism, Rational, SolverError};

use super::metric::{At, Ctx, Direction, Evaluation, Metric, MetricInfo, Subject};
use super::metric_common::Of;
use crate::candidate::Candidate;
use crate::doc::{self, ByName};

/// The simulated time of a generated workload, `[0, HORIZON)`.
pub const HORIZON: i128 = 16;

/// The most tasks a workload may hold (generated or recorded).
pub const MAX_TASKS: u64 = 2_000;

/// Workloads (seeds) a unit tries.
const SEEDS: usize = 4;

/// See the [module docs](self).
pub struct Starvation;

/// A node's starved spell `[start, end)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spell {
    /// The node's pre-order index.
    pub node: usize,
    /// When it began.
    pub start: Rational,
    /// When it ended (the horizon when it lasts to the end).
    pub end: Rational,
}

impl Spell {
    /// `end − start`.
    pub fn length(&self) -> Rational {
        &self.end - &self.start
    }
}

/// The simulator's policy of the mechanism `hdrf:<policy>`.
///
/// # Errors
/// A mechanism the simulator does not run (the reason, naming `--mechanism`).
pub fn policy_of(mechanism: &str) -> Result<SimPolicy, String> {
    mechanism
        .strip_prefix("hdrf:")
        .and_then(|p| p.parse::<Policy>().ok())
        .map(SimPolicy::Tree)
        .ok_or_else(|| {
            let tree: Vec<String> = Policy::ALL.iter().map(|p| format!("hdrf:{p}")).collect();
            let tree: Vec<&str> = tree.iter().map(String::as_str).collect();
            format!(
                "starvation simulates a tree policy over time: it applies to --mechanism {}, not {mechanism}",
                leontief_solver::registry::one_of(&tree)
            )
        })
}

fn half(k: u64) -> Rational {
    Rational::new(k as i128, 2).expect("nonzero")
}

/// The churn workload drawn from `seed` on `tree` (see the [module docs](self)), with
/// the horizon [`HORIZON`].
pub fn churn(tree: &Tree, seed: u64) -> Sim {
    let mut rng = SplitMix64::new(seed ^ 0x57A2_0E5E_ED00_0001);
    rng.next_u64();
    let mut sim = Sim::new(tree.clone());
    sim.horizon = Some(Rational::from(HORIZON));
    for v in tree.leaves() {
        let d = tree.node(v).demand().unwrap_or_default();
        let fits = d.iter().zip(tree.capacity()).all(|(dj, rj)| dj <= rj);
        let duration = TaskDuration::Fixed(half(rng.range(1, 6)));
        let batches = rng.range(1, 3);
        let fill = tree
            .task_dominant_share(v)
            .filter(Rational::is_positive)
            .map_or(1, |mu| {
                (&Rational::ONE / &mu)
                    .ceil()
                    .floor_u64()
                    .unwrap_or(u64::MAX)
            });
        let most = fill.saturating_mul(2).clamp(1, 8);
        let mut arrivals: Vec<Arrival> = (0..batches)
            .map(|_| Arrival {
                time: half(rng.range(0, HORIZON as u64)),
                count: rng.range(1, most),
            })
            .collect();
        arrivals.sort_by(|a, b| a.time.cmp(&b.time));
        if !fits {
            arrivals.clear();
        }
        let w = LeafWorkload {
            duration,
            supply: Supply::Arrivals(arrivals),
        };
        let name = tree.node(v).name();
        sim.set_workload(name, w).expect("a leaf of the tree");
    }
    sim
}

/// The workload's JSON form, as the simulator reads it: `{leaf: {"duration": d,
/// "arrivals": [{"time": t, "count": c}, ...]}}` (every leaf, in tree order).
pub fn workload_json(sim: &Sim) -> Value {
    let tree = &sim.tree;
    let leaves: ByName<&LeafWorkload> = tree
        .leaves()
        .map(|v| (tree.node(v).name().to_string(), sim.workload(v)))
        .collect();
    doc::value(&leaves)
}

/// Refuses an unbounded workload: a leaf with a backlog, or more than [`MAX_TASKS`] tasks.
fn bounded(sim: &Sim) -> Result<(), SolverError> {
    let tree = &sim.tree;
    let mut tasks: u64 = 0;
    for v in tree.leaves() {
        let name = tree.node(v).name();
        match &sim.workload(v).supply {
            Supply::Unlimited { .. } => {
                return Err(SolverError::invalid(
                    format!("witness.workload.{name}"),
                    "an unbounded backlog (or a leaf left out); starvation simulates finite workloads: list every leaf's arrivals",
                ))
            }
            Supply::Arrivals(list) => {
                tasks = list.iter().fold(tasks, |t, a| t.saturating_add(a.count));
            }
        }
    }
    if tasks > MAX_TASKS {
        return Err(SolverError::invalid(
            "witness.workload",
            format!("{tasks} tasks; at most {MAX_TASKS} (the simulation's work is bounded)"),
        ));
    }
    Ok(())
}

/// Runs `sim` under `policy` on the pooled cluster, no preemption, every settled state
/// kept (the trace), after checking that the work is bounded.
///
/// # Errors
/// An unbounded workload (see the [module docs](self)), or the simulator's error.
pub fn run(sim: &Sim, policy: SimPolicy) -> Result<Simulation, SolverError> {
    bounded(sim)?;
    let run = simulate(sim, &SimConfig::new(policy).record(Record::Events))?;
    if run.events > 2 * MAX_TASKS {
        return Err(SolverError::invalid(
            "witness.workload",
            format!("{} events; at most {}", run.events, 2 * MAX_TASKS),
        ));
    }
    Ok(run)
}

/// Every node's longest starved spell (`None`: never starved), recomputed from the trace
/// alone: between two settled states the state holds; a node is starved in a state when
/// it has unmet demand and its share is below `g_v`; a spell open at the end closes at the
/// horizon. Among equally long spells, the first.
pub fn spells(tree: &Tree, run: &Simulation) -> Vec<Option<Spell>> {
    (0..tree.len())
        .map(|v| {
            let g = tree
                .node(tree.node_id(v).expect("a node"))
                .guaranteed_share();
            let mut since: Option<&Rational> = None;
            let mut best: Option<Spell> = None;
            let close = |start: &Rational, end: &Rational, best: &mut Option<Spell>| {
                let s = Spell {
                    node: v,
                    start: start.clone(),
                    end: end.clone(),
                };
                if best.as_ref().is_none_or(|b| s.length() > b.length()) {
                    *best = Some(s);
                }
            };
            for sample in &run.series {
                let starved = sample.unmet_demand[v] && sample.shares[v] < *g;
                match (starved, since) {
                    (true, None) => since = Some(&sample.time),
                    (false, Some(s0)) => {
                        close(s0, &sample.time, &mut best);
                        since = None;
                    }
                    _ => {}
                }
            }
            if let Some(s0) = since {
                close(s0, &run.horizon, &mut best);
            }
            best.filter(|s| s.length().is_positive())
        })
        .collect()
}

/// The worst node below the root by the simulator's accounting (longest spell, first in
/// pre-order among equals), with its spell read from the trace; `None` when no node below
/// the root is ever starved.
///
/// # Errors
/// When the trace and the simulator's accounting disagree on that node's spell.
pub fn worst(tree: &Tree, run: &Simulation) -> Result<Option<Spell>, SolverError> {
    let mut at: Option<usize> = None;
    for v in 1..tree.len() {
        let l = &run.nodes[v].longest_below_guarantee;
        if l.is_positive() && at.is_none_or(|a| *l > run.nodes[a].longest_below_guarantee) {
            at = Some(v);
        }
    }
    let Some(v) = at else {
        return Ok(None);
    };
    let spell = spells(tree, run)[v].clone();
    match spell {
        Some(s) if s.length() == run.nodes[v].longest_below_guarantee => Ok(Some(s)),
        _ => Err(SolverError::invalid(
            "witness.interval",
            format!(
                "the simulator's longest spell of node {v} ({}) is not the trace's",
                run.nodes[v].longest_below_guarantee
            ),
        )),
    }
}

/// The tree of an instance, the churn workload of `seed` on it, and the run.
fn simulate_churn(
    instance: &Instance,
    seed: u64,
    policy: SimPolicy,
) -> Result<(Tree, Sim, Simulation), SolverError> {
    let tree = Tree::from_instance(instance)?;
    let sim = churn(&tree, seed);
    let run = run(&sim, policy)?;
    Ok((tree, sim, run))
}

fn seed_of(candidate: &Candidate) -> Result<u64, SolverError> {
    match candidate.scenario {
        Scenario::Churn(seed) => Ok(seed),
        _ => Err(SolverError::invalid(
            "witness.churn_seed",
            "starvation needs a churn workload",
        )),
    }
}

/// The witness fields of a `starvation` evaluation (see [`witness`]), each present once
/// the step before it succeeded.
#[derive(Serialize, Default)]
struct WitnessFields {
    #[serde(skip_serializing_if = "Option::is_none")]
    churn_seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    horizon: Option<Rational>,
    #[serde(skip_serializing_if = "Option::is_none")]
    workload: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    node: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    interval: Option<[Rational; 2]>,
}

/// The witness fields of a `starvation` evaluation under `mechanism`: `churn_seed`,
/// `horizon`, `workload` (the simulator's JSON form), and when the value is positive the
/// `node` (its path) and its spell `interval` `[start, end)`. The run is repeated (it is
/// deterministic), since the evaluation does not hold the trace.
fn witness(mechanism: &str, e: &Evaluation) -> WitnessFields {
    let mut o = WitnessFields::default();
    let Ok(seed) = seed_of(&e.candidate) else {
        return o;
    };
    o.churn_seed = Some(seed);
    let Ok(policy) = policy_of(mechanism) else {
        return o;
    };
    let Ok((tree, sim, run)) = simulate_churn(&e.candidate.instance, seed, policy) else {
        return o;
    };
    o.workload = Some(workload_json(&sim));
    if let Ok(Some(s)) = worst(&tree, &run) {
        o.node = Some(tree.instance().hierarchy().path(s.node));
        o.interval = Some([s.start.clone(), s.end.clone()]);
    }
    o.horizon = Some(run.horizon);
    o
}

/// What the metric measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo {
    uses_utility: false,
    ratio_of: "times",
    per_user: false,
    ..MetricInfo::ratio(
        "max over generated churn workloads and nodes v below the root of L_v / H, the longest time v spends below its guaranteed share with unmet demand as a fraction of the simulated time H (0 when no node starves; hdrf:* policies, simulated)",
        Direction::Max,
        Property::Sg,
    )
};

impl Metric for Starvation {
    fn applies_to(&self, mechanism: &Descriptor) -> Result<(), String> {
        policy_of(mechanism.name).map(|_| ())
    }

    fn detail(&self, mechanism: &str, e: &Evaluation) -> Option<Value> {
        Some(doc::value(&witness(mechanism, e)))
    }

    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let (mechanism, candidate, truth) = (at.mechanism, at.candidate, at.truth);
        let seed = seed_of(candidate)?;
        let policy =
            policy_of(mechanism.name()).map_err(|r| SolverError::invalid("mechanism", r))?;
        let (tree, _, run) = simulate_churn(&candidate.instance, seed, policy)?;
        let length = worst(&tree, &run)?.map_or(Rational::ZERO, |s| s.length());
        let of = Of::new(candidate, truth, None);
        Ok(Some(of.exact_ratio(0, None, length, run.horizon.clone())))
    }

    fn evaluate(&self, on: &Subject, ctx: &mut Ctx) -> Option<Evaluation> {
        let mut best = None;
        let mut seeds = Vec::with_capacity(SEEDS + 1);
        if let Some(Scenario::Churn(s)) = ctx.hint {
            seeds.push(s);
        }
        for _ in 0..SEEDS {
            seeds.push(ctx.rng.next_u64());
        }
        for s in seeds {
            on.try_scenario(self, Scenario::Churn(s), ctx, &mut best);
        }
        best
    }
}

/// Re-derives a record's value from its recorded workload alone (independently of the
/// seed's generator): the instance's tree with `witness.workload` and `witness.horizon`
/// read by the simulator's reader, run again with the trace, every node's longest spell
/// recomputed from the trace ([`spells`]) and compared with the simulator's accounting, and
/// the worst node below the root compared with the recorded value, node and interval.
///
/// # Errors
/// A malformed or unbounded witness, or any disagreement (named).
pub(crate) fn confirm(
    mechanism: &dyn Mechanism,
    record: &Value,
    instance: &Instance,
) -> Result<(), SolverError> {
    let policy = policy_of(mechanism.name()).map_err(|r| SolverError::invalid("mechanism", r))?;
    let w = &record["witness"];
    let tree = Tree::from_instance(instance)?;
    let mut doc = serde_json::Map::new();
    for key in ["workload", "horizon"] {
        let v = w
            .get(key)
            .ok_or_else(|| SolverError::invalid(format!("witness.{key}"), "missing"))?;
        doc.insert(key.into(), v.clone());
    }
    let sim = Sim::from_json_on(tree, &Value::Object(doc))
        .map_err(|e| SolverError::invalid("witness", format!("the recorded workload: {e}")))?;
    let run = run(&sim, policy)?;
    let all = spells(&sim.tree, &run);
    for (v, s) in all.iter().enumerate() {
        let from_trace = s.as_ref().map_or(Rational::ZERO, Spell::length);
        if from_trace != run.nodes[v].longest_below_guarantee {
            return Err(SolverError::invalid(
                "witness.workload",
                format!(
                    "node {}: the trace gives a longest spell of {from_trace}, the simulator {}",
                    sim.tree.path(sim.tree.node_id(v).expect("a node")),
                    run.nodes[v].longest_below_guarantee
                ),
            ));
        }
    }
    // The first of the longest spells below the root.
    let worst =
        (all.iter().skip(1).flatten()).reduce(|b, s| if s.length() > b.length() { s } else { b });
    let length = worst.map_or(Rational::ZERO, Spell::length);
    let value = &length / &run.horizon;
    let recorded = |key: &str| record.get(key).and_then(Value::as_str).unwrap_or_default();
    if value.to_string() != recorded("value")
        || length.to_string() != w["numerator"].as_str().unwrap_or_default()
        || run.horizon.to_string() != w["denominator"].as_str().unwrap_or_default()
    {
        return Err(SolverError::invalid(
            "value",
            format!(
                "the recorded workload gives a longest spell of {length} in {}: {value}",
                run.horizon
            ),
        ));
    }
    if let Some(s) = worst {
        let node = sim.tree.instance().hierarchy().path(s.node);
        let interval = doc::value(&[&s.start, &s.end]);
        if w["node"].as_str() != Some(node.as_str()) || w["interval"] != interval {
            return Err(SolverError::invalid(
                "witness.interval",
                format!("the trace gives node {node:?} starved on {interval}"),
            ));
        }
    }
    Ok(())
}
