//! Discrete DRF: the DRF paper's Algorithm 1, one indivisible task at a time.
//!
//! Repeatedly pick the user with the lowest weighted dominant share among the users with
//! tasks left, and launch one of its tasks if it fits (`docs/theory.md` §2.3). The variants
//! are the choices the paper leaves open:
//!
//! - [`MisfitRule`]: what happens when the picked user's task does not fit — the paper's
//!   pseudo-code stops ("the cluster is full"); Mesos and YARN skip that user and go on.
//! - [`DiscreteTieBreak`]: who goes first among equal shares (the paper's Table 1 picks B first).
//! - [`Machines`]: one pooled cluster, or `K` identical machines filled one at a time as in
//!   the proof of the paper's Theorem 7.
//!
//! # Example
//! ```
//! use leontief_solver::{DiscreteDrf, Instance, Machines, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let out = DiscreteDrf::paper().run(&paper, false).unwrap();
//! assert_eq!(out.tasks, vec![3, 2]);
//! // Three machines of (3 CPU, 6 GB): an A task leaves (2, 2), too little for B, and a B task
//! // leaves (0, 5), too little for A, so the machines hold A | B | A.
//! let split = DiscreteDrf::paper().with_machines(Machines::Split(3));
//! assert_eq!(split.run(&paper, false).unwrap().tasks, vec![2, 1]);
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde_json::{json, Map, Value};

use crate::{Allocation, Instance, Mechanism, Rational, SolverError};

crate::name_enum! {
    /// What discrete DRF does when the picked user's next task does not fit. Named `stop` or
    /// `skip`, as the CLI spells it; each variant's first paragraph is its help in the CLI's
    /// `--help`.
    #[derive(Default, ::strum::EnumMessage)]
    #[non_exhaustive]
    pub enum MisfitRule {
        /// Stop at the first task that does not fit (the paper's pseudo-code).
        ///
        /// The paper's pseudo-code: "the cluster is full" — stop at the first pick that does
        /// not fit (on [`Machines::Split`], move to the next machine).
        #[default]
        Stop,
        /// Skip that user and continue (Mesos, YARN).
        ///
        /// What Mesos and YARN do: drop that user for the current machine and continue with
        /// the others; the machine is closed once no remaining user's task fits it.
        Skip,
    }
}

/// Who is picked first among users with equal weighted dominant shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum DiscreteTieBreak {
    /// The lower user index first.
    #[default]
    UserOrder,
    /// The higher user index first (the paper's Table 1 starts with B, the second user).
    ReverseUserOrder,
}

/// How the instance's capacity is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Machines {
    /// One cluster holding the instance's whole capacity.
    #[default]
    Pooled,
    /// `K` identical machines, each of capacity `R / K` (`R` the instance's capacity), filled
    /// one at a time as in the proof of the DRF paper's Theorem 7. Dominant shares are still
    /// measured against the total `R`. `Split(0)` is an error.
    Split(u64),
}

/// Discrete DRF (the DRF paper's Algorithm 1) with its variants. See the [module docs](self).
///
/// Users are picked by their weighted dominant share `tasks_i * max_j d_ij / (R_j w_ij)`
/// (with a scalar weight: dominant share over `w_i`), compared exactly; a user with cap `T_i`
/// runs at most `floor(T_i)` tasks. On [`Machines::Split`] a user whose task exceeds one
/// machine never runs; with [`MisfitRule::Stop`] picking it ends the run.
///
/// # Complexity
/// `O((L + F) (log n + m) + M)` for `L` tasks launched, `F` picks that did not fit and `M`
/// machines visited; no per-machine work depends on `n`. Under [`MisfitRule::Skip`] add, per
/// launch, at most one `O(P m)` test against the Pareto-minimal frontier of the remaining
/// users' demand vectors (size `P`, usually tiny), and `O(n P m)` to rebuild it each time a
/// user on it reaches its cap. With `record_trace`, every pick also costs `O(n m)`. The number of tasks is not bounded by
/// the instance size: capacity `10^9` and demand `1` launch `10^9` tasks.
///
/// # Example
/// The DRF paper's running example (its §4.1 and Table 1): 9 CPUs and 18 GB, user A needs
/// ⟨1 CPU, 4 GB⟩ per task, user B ⟨3 CPU, 1 GB⟩.
/// ```
/// use leontief_solver::{DiscreteDrf, Instance, Mechanism, MisfitRule, DiscreteTieBreak, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let drf = DiscreteDrf::paper().with_tie_break(DiscreteTieBreak::ReverseUserOrder);
/// let out = drf.run(&paper, true).unwrap();
/// assert_eq!(out.tasks, vec![3, 2]);
/// let picks: Vec<usize> = out.trace.unwrap().iter().map(|s| s.user).collect();
/// assert_eq!(picks, vec![1, 0, 0, 1, 0, 1]); // B A A B A, then B does not fit
/// assert_eq!(DiscreteDrf::paper().with_misfit(MisfitRule::Skip).allocate(&paper).unwrap().tasks,
///     vec![3.into(), 2.into()]);
/// ```
///
/// # References
/// - A. Ghodsi, M. Zaharia, B. Hindman, A. Konwinski, S. Shenker, I. Stoica. *Dominant
///   Resource Fairness: Fair Allocation of Multiple Resource Types.* NSDI 2011: Algorithm 1,
///   Table 1, §4.3 (weights), Theorem 7 (machines filled one at a time).
/// - Apache Mesos' DRF sorter and YARN's DominantResourceCalculator offer a node's free
///   resources user by user in share order and pass over a user whose request does not fit
///   ([`MisfitRule::Skip`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct DiscreteDrf {
    /// What to do when the picked user's task does not fit.
    pub misfit: MisfitRule,
    /// Who goes first among equal shares.
    pub tie_break: DiscreteTieBreak,
    /// One pooled cluster or `K` machines.
    pub machines: Machines,
}

/// The result of a discrete DRF run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DiscreteOutcome {
    /// Tasks launched per user, in the instance's user order.
    pub tasks: Vec<u64>,
    /// Every pick in order, when a trace was asked for.
    pub trace: Option<Vec<TraceStep>>,
    /// How many machines received at least one task (at most 1 on [`Machines::Pooled`]).
    pub machines_used: u64,
}

/// One pick of discrete DRF, with the state right after it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TraceStep {
    /// The picked user's index.
    pub user: usize,
    /// Whether its task was launched (`false`: it did not fit).
    pub launched: bool,
    /// The machine the pick was made on (0-based; always 0 on [`Machines::Pooled`]).
    pub machine: u64,
    /// Per user, per resource: `tasks_i d_ij / R_j` after the step.
    pub resource_shares: Vec<Vec<Rational>>,
    /// Per user: the (unweighted) dominant share `max_j tasks_i d_ij / R_j` after the step, as
    /// in the paper's Table 1. The pick order uses the weighted share.
    pub dominant_shares: Vec<Rational>,
    /// Per resource: the fraction of the total capacity allocated after the step.
    pub allocated: Vec<Rational>,
}

impl DiscreteDrf {
    /// The paper's pseudo-code: [`MisfitRule::Stop`], [`DiscreteTieBreak::UserOrder`],
    /// [`Machines::Pooled`].
    pub fn paper() -> Self {
        DiscreteDrf {
            misfit: MisfitRule::Stop,
            tie_break: DiscreteTieBreak::UserOrder,
            machines: Machines::Pooled,
        }
    }

    crate::setters! {
        /// The same with another misfit rule.
        with_misfit(misfit: MisfitRule) => misfit = misfit;
        /// The same with another tie-break.
        with_tie_break(tie_break: DiscreteTieBreak) => tie_break = tie_break;
        /// The same with another machine layout.
        with_machines(machines: Machines) => machines = machines;
    }

    /// Runs discrete DRF on a validated instance; with `record_trace`, records every pick.
    ///
    /// Under [`MisfitRule::Stop`] the run ends at a pick that does not fit on the last
    /// machine, or on an empty machine (every later machine is identical and empty, so the
    /// same pick would fail on each; the trace records it once). Under [`MisfitRule::Skip`] a
    /// machine is closed after a failed pick once no remaining user's task fits what is left
    /// of it, without picking the others (their picks are not in the trace).
    ///
    /// # Errors
    /// [`SolverError::Invalid`] on field `machines` for [`Machines::Split`]`(0)`;
    /// [`SolverError::Mechanism`] if a task count would exceed `u64::MAX`.
    ///
    /// # Complexity
    /// See [`DiscreteDrf`].
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{DiscreteDrf, Instance, Machines, MisfitRule, User};
    /// let inst = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// let out = DiscreteDrf::paper().with_misfit(MisfitRule::Skip).run(&inst, false).unwrap();
    /// assert_eq!((out.tasks, out.machines_used), (vec![3, 2], 1));
    /// let err = DiscreteDrf::paper().with_machines(Machines::Split(0)).run(&inst, false);
    /// assert!(err.unwrap_err().to_string().starts_with("machines:"));
    /// ```
    pub fn run(&self, inst: &Instance, record_trace: bool) -> Result<DiscreteOutcome, SolverError> {
        let machines = match self.machines {
            Machines::Pooled => 1,
            Machines::Split(0) => {
                return Err(SolverError::invalid(
                    "machines",
                    "expected at least one machine, found 0",
                ))
            }
            Machines::Split(k) => k,
        };
        Run::new(self, inst, machines, record_trace).go()
    }
}

impl Default for DiscreteDrf {
    fn default() -> Self {
        Self::paper()
    }
}

impl Mechanism for DiscreteDrf {
    fn name(&self) -> &str {
        "discrete-drf"
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn allocate(&self, instance: &Instance) -> Result<Allocation, SolverError> {
        let out = self.run(instance, false)?;
        Ok(Allocation::new(
            out.tasks.into_iter().map(Rational::from).collect(),
        ))
    }
}

impl DiscreteOutcome {
    /// The trace as JSON: a list with one object per pick, numbers as exact strings and users
    /// by name, e.g.
    /// `{"step":1,"user":"B","launched":true,"machine":0,"shares":{"A":["0","0"],"B":["1/3","1/18"]},"dominant_shares":{"A":"0","B":"1/3"},"allocated":["1/3","1/18"]}`.
    /// An empty list when no trace was recorded. `instance` must be the instance that was run.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{DiscreteDrf, Instance, DiscreteTieBreak, User};
    /// let paper = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// let drf = DiscreteDrf::paper().with_tie_break(DiscreteTieBreak::ReverseUserOrder);
    /// let json = drf.run(&paper, true).unwrap().trace_json(&paper);
    /// assert_eq!(json[0].to_string(), r#"{"step":1,"user":"B","launched":true,"machine":0,"shares":{"A":["0","0"],"B":["1/3","1/18"]},"dominant_shares":{"A":"0","B":"1/3"},"allocated":["1/3","1/18"]}"#);
    /// ```
    pub fn trace_json(&self, instance: &Instance) -> Value {
        let users = instance.users();
        let name = |i: usize| {
            users
                .get(i)
                .map_or_else(|| format!("#{i}"), |u| u.name.clone())
        };
        // One entry per user, by name, in user order.
        let by_name = |values: Vec<Value>| -> Map<String, Value> {
            values
                .into_iter()
                .enumerate()
                .map(|(i, v)| (name(i), v))
                .collect()
        };
        let steps = self.trace.as_deref().unwrap_or_default();
        let list = steps
            .iter()
            .enumerate()
            .map(|(s, step)| {
                let shares = step.resource_shares.iter().map(|row| json!(row));
                let dominant = step.dominant_shares.iter().map(|d| json!(d));
                json!({
                    "step": s + 1,
                    "user": name(step.user),
                    "launched": step.launched,
                    "machine": step.machine,
                    "shares": by_name(shares.collect()),
                    "dominant_shares": by_name(dominant.collect()),
                    "allocated": step.allocated,
                })
            })
            .collect();
        Value::Array(list)
    }
}

/// A heap entry, ordered by key, then rank (distinct per user, so `user` never decides);
/// the heap holds it [`Reverse`]d, so that `BinaryHeap` (a max-heap) pops the lowest key,
/// then the lowest rank.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    key: Rational,
    rank: usize,
    user: usize,
}

/// The state of one run.
struct Run<'a> {
    inst: &'a Instance,
    misfit: MisfitRule,
    machines: u64,
    /// Capacity of one machine, `R / K`.
    machine_cap: Vec<Rational>,
    /// Weighted dominant share of one task, per user (the key's step).
    step: Vec<Rational>,
    /// `floor(T_i)`, or `u64::MAX` for no cap (no run can launch more).
    caps: Vec<u64>,
    /// Whether the user's task fits an empty machine.
    fits_empty: Vec<bool>,
    tasks: Vec<u64>,
    heap: BinaryHeap<Reverse<Entry>>,
    /// Users skipped on the current machine, back in the heap on the next one.
    aside: Vec<Entry>,
    /// Users on the Pareto-minimal frontier of the demand vectors of users that can still
    /// launch (one per distinct vector); only kept under `Skip`.
    frontier: Vec<usize>,
    on_frontier: Vec<bool>,
    trace: Option<Vec<TraceStep>>,
}

impl<'a> Run<'a> {
    fn new(cfg: &DiscreteDrf, inst: &'a Instance, machines: u64, record_trace: bool) -> Self {
        let n = inst.num_users();
        let k = Rational::from(machines);
        // k >= 1, so the division is defined.
        let machine_cap: Vec<Rational> = inst.capacity().iter().map(|r| r / &k).collect();
        let step = (0..n).map(|i| inst.task_weighted_share(i)).collect();
        // A cap too large for u64 is no cap: u64::MAX tasks cannot be launched anyway.
        let caps: Vec<u64> = inst
            .users()
            .iter()
            .map(|u| {
                u.cap
                    .as_ref()
                    .map_or(u64::MAX, |t| t.floor_u64().unwrap_or(u64::MAX))
            })
            .collect();
        let fits_empty = inst
            .users()
            .iter()
            .map(|u| fits(&u.demand, &machine_cap))
            .collect();
        let heap = (0..n)
            .filter(|&i| caps[i] > 0)
            .map(|i| {
                Reverse(Entry {
                    key: Rational::ZERO,
                    rank: match cfg.tie_break {
                        DiscreteTieBreak::UserOrder => i,
                        DiscreteTieBreak::ReverseUserOrder => n - 1 - i,
                    },
                    user: i,
                })
            })
            .collect();
        let mut run = Run {
            inst,
            misfit: cfg.misfit,
            machines,
            machine_cap,
            step,
            caps,
            fits_empty,
            tasks: vec![0; n],
            heap,
            aside: Vec::new(),
            frontier: Vec::new(),
            on_frontier: vec![false; n],
            trace: record_trace.then(Vec::new),
        };
        if run.misfit == MisfitRule::Skip {
            run.rebuild_frontier();
        }
        run
    }

    fn go(mut self) -> Result<DiscreteOutcome, SolverError> {
        let mut machine: u64 = 0;
        let mut machines_used: u64 = 0;
        let mut rem = self.machine_cap.clone();
        let mut launched_here = false;
        // Whether the frontier test has been done since `rem` last changed.
        let mut rem_checked = false;
        loop {
            let Some(Reverse(top)) = self.heap.pop() else {
                // Nobody left to pick on this machine: the rest were skipped, capped or dropped.
                if self.aside.is_empty() || machine + 1 >= self.machines {
                    break;
                }
                machine += 1;
                rem.clone_from(&self.machine_cap);
                launched_here = false;
                rem_checked = false;
                self.heap.extend(self.aside.drain(..).map(Reverse));
                continue;
            };
            let i = top.user;
            let demand = &self.inst.users()[i].demand;
            if fits(demand, &rem) {
                for (r, d) in rem.iter_mut().zip(demand) {
                    if !d.is_zero() {
                        *r -= d;
                    }
                }
                let t = self.tasks[i]
                    .checked_add(1)
                    .ok_or_else(|| SolverError::Mechanism {
                        mechanism: "discrete-drf".into(),
                        reason: format!("user {i} would run more than u64::MAX tasks"),
                    })?;
                self.tasks[i] = t;
                if !launched_here {
                    launched_here = true;
                    machines_used += 1;
                }
                rem_checked = false;
                self.record(i, true, machine);
                if t < self.caps[i] {
                    let key = &self.step[i] * &Rational::from(t);
                    self.heap.push(Reverse(Entry { key, ..top }));
                } else if self.on_frontier[i] {
                    self.rebuild_frontier();
                }
                continue;
            }
            self.record(i, false, machine);
            match self.misfit {
                MisfitRule::Stop => {
                    // On an empty machine the same pick fails on every later (identical) one.
                    if !self.fits_empty[i] || machine + 1 >= self.machines {
                        break;
                    }
                    self.heap.push(Reverse(top));
                    machine += 1;
                    rem.clone_from(&self.machine_cap);
                    launched_here = false;
                }
                MisfitRule::Skip => {
                    // A task larger than a machine never runs: drop the user for good.
                    if self.fits_empty[i] {
                        self.aside.push(top);
                    }
                    if rem_checked {
                        continue;
                    }
                    rem_checked = true;
                    if self
                        .frontier
                        .iter()
                        .any(|&f| fits(&self.inst.users()[f].demand, &rem))
                    {
                        continue;
                    }
                    // Nothing that can still launch fits what is left: close the machine.
                    if machine + 1 >= self.machines {
                        break;
                    }
                    self.heap.extend(self.aside.drain(..).map(Reverse));
                    if self.heap.is_empty() {
                        break;
                    }
                    machine += 1;
                    rem.clone_from(&self.machine_cap);
                    launched_here = false;
                    rem_checked = false;
                }
            }
        }
        Ok(DiscreteOutcome {
            tasks: self.tasks,
            trace: self.trace,
            machines_used,
        })
    }

    /// Recomputes the Pareto-minimal demand vectors of the users that can still launch.
    fn rebuild_frontier(&mut self) {
        for &f in &self.frontier {
            self.on_frontier[f] = false;
        }
        self.frontier.clear();
        let users = self.inst.users();
        for i in 0..users.len() {
            if self.tasks[i] >= self.caps[i] || !self.fits_empty[i] {
                continue;
            }
            let d = &users[i].demand;
            // Equal vectors keep the first user: one representative is enough for the test.
            if self.frontier.iter().any(|&f| fits(&users[f].demand, d)) {
                continue;
            }
            self.frontier.retain(|&f| !fits(d, &users[f].demand));
            self.frontier.push(i);
        }
        for &f in &self.frontier {
            self.on_frontier[f] = true;
        }
    }

    fn record(&mut self, user: usize, launched: bool, machine: u64) {
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        let cap = self.inst.capacity();
        let resource_shares: Vec<Vec<Rational>> = self
            .inst
            .users()
            .iter()
            .zip(&self.tasks)
            .map(|(u, &t)| {
                let t = Rational::from(t);
                u.demand
                    .iter()
                    .zip(cap)
                    .map(|(d, r)| &(&t * d) / r)
                    .collect()
            })
            .collect();
        let dominant_shares = resource_shares
            .iter()
            .map(|row| row.iter().cloned().max().unwrap_or_default())
            .collect();
        let allocated = (0..cap.len())
            .map(|j| resource_shares.iter().map(|row| &row[j]).sum())
            .collect();
        trace.push(TraceStep {
            user,
            launched,
            machine,
            resource_shares,
            dominant_shares,
            allocated,
        });
    }
}

/// Whether `demand <= available` componentwise (also: whether one demand vector is at most
/// another).
fn fits(demand: &[Rational], available: &[Rational]) -> bool {
    demand.iter().zip(available).all(|(d, a)| d <= a)
}
