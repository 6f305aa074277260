//! The event loop of the simulator: exact times, a heap of events keyed by `(time, seq)`,
//! per-node aggregates kept incrementally along the path of the leaf that changed.
//!
//! The engine's parts: [`queue`] (events, tasks, pending work), [`scheduling`] (the policy's
//! keys and the scheduling rounds), [`preemption`] and [`accounting`] (per-node statistics,
//! the time series); this file holds the state, the event loop, and starting and stopping
//! tasks.

mod accounting;
mod preemption;
mod queue;
mod scheduling;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use leontief_solver::random_instances::SplitMix64;
use leontief_solver::Rational;

use super::workload::{Duration, Scenario, Supply};
use super::{Record, SimConfig, Simulation};
use crate::error::{Result, SolverError};
use crate::tiebreak::Candidate;
use crate::Policy;
use accounting::Stat;
use queue::{Event, Kind, Pending, Task};

const NONE: usize = usize::MAX;

/// Uniform durations with at most this many grid steps are drawn from a precomputed table.
const GRID_TABLE: u64 = 4096;

pub(super) struct Engine {
    /// The number of machines (1: pooled).
    machines: usize,
    record: Record,
    max_events: u64,
    /// The result being built: the run's parameters, its counters and its time series
    /// (`nodes` are filled in at the horizon).
    out: Simulation,
    m: usize,
    // Static.
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    is_leaf: Vec<bool>,
    /// Pre-order subtree sizes: the subtree of `v` is `v..v + size[v]`.
    size: Vec<usize>,
    leaves: Vec<usize>,
    /// The tree policy's keys (`None`: FIFO).
    rule: Option<Policy>,
    /// Per node: 1 / the policy's normaliser (`w_v` or `g_v`).
    inv_norm: Vec<Rational>,
    g: Vec<Rational>,
    /// Per leaf: the task's shares `d_j / R_j` (`n·m`, zero for pools).
    a: Vec<Rational>,
    /// Per leaf: the resources it demands.
    demanded: Vec<Vec<usize>>,
    cap: Vec<u64>,
    durations: Vec<Option<Duration>>,
    /// Per leaf with uniform durations on a small grid: the grid's values, drawn by index.
    grids: Vec<Vec<Rational>>,
    rng: Vec<SplitMix64>,
    // Dynamic.
    usage: Vec<Rational>,
    dom: Vec<Rational>,
    key: Vec<Rational>,
    /// Leaves below with pending work and below their cap.
    ready: Vec<u32>,
    leaf_ready: Vec<bool>,
    blocked: Vec<u32>,
    blocked_stamp: Vec<u64>,
    round: u64,
    blocked_list: Vec<usize>,
    running: Vec<u64>,
    leaf_tasks: Vec<Vec<u32>>,
    pending: Vec<Pending>,
    free: Vec<Rational>,
    heap: BinaryHeap<Reverse<Event>>,
    seq: u64,
    tasks: Vec<Task>,
    free_slots: Vec<u32>,
    // Accounting.
    stat: Vec<Stat>,
    dirty: Vec<usize>,
    is_dirty: Vec<bool>,
    next_sample: Rational,
    sampled_zero: bool,
    checks: Vec<(usize, Rational)>,
    // H-DRF scratch.
    eff: Vec<Rational>,
    // Tie-breaks.
    /// Position among the siblings, in input order.
    position: Vec<usize>,
    names: Vec<String>,
    /// Tasks started in the subtree (never reset: Mesos' `allocation.count`).
    count: Vec<u64>,
    /// The number of the last task started in the subtree (0: never).
    last_served: Vec<u64>,
    /// Per node: the smallest dominant share of one task of a leaf below with work (`None`:
    /// no such leaf), for the task-size-aware starvation test.
    task_min: Vec<Option<Rational>>,
    // The production fields (`docs/production.md`), as shares of the capacity.
    /// Per node: its resolved explicit guarantee (`None` for the root, and for every node
    /// when no node below the root has one; with one, every node but the root is served
    /// first while below its guarantee, and judged against it).
    xg: Vec<Option<Vec<Rational>>>,
    /// Whether some node has a limit.
    has_lim: bool,
    /// Per node: its limit.
    lim: Vec<Option<Vec<Rational>>>,
    /// Per node: a `fifo` pool (children served in the order listed).
    fifo_pool: Vec<bool>,
    /// Per leaf: the tasks it holds at time 0 (its `usage`, in whole tasks).
    initial: Vec<u64>,
}

/// `v` and its ancestors, up to the root, by the `parent` links (`NONE` above the root).
fn ancestors(parent: &[usize], v: usize) -> impl Iterator<Item = usize> + '_ {
    std::iter::successors(Some(v), |&x| Some(parent[x]).filter(|&p| p != NONE))
}

/// Pre-order subtree sizes; brings each node's `task_min` to the smallest below it.
fn subtree_sizes(parent: &[usize], task_min: &mut [Option<Rational>]) -> Vec<usize> {
    let n = parent.len();
    let mut size = vec![1usize; n];
    for v in (0..n).rev() {
        if parent[v] != NONE {
            size[parent[v]] += size[v];
            if let Some(t) = task_min[v].clone() {
                let q = &mut task_min[parent[v]];
                if q.as_ref().is_none_or(|x| t < *x) {
                    *q = Some(t);
                }
            }
        }
    }
    size
}

/// Per leaf with uniform durations on a grid of at most [`GRID_TABLE`] steps, the grid's
/// values; empty otherwise.
fn duration_grids(durations: &[Option<Duration>]) -> Vec<Vec<Rational>> {
    durations
        .iter()
        .map(|d| match d {
            Some(Duration::Uniform { low, high, steps }) if *steps <= GRID_TABLE => {
                let width = high - low;
                let steps_r = Rational::from(*steps);
                (0..=*steps)
                    .map(|k| low + &width * Rational::from(k) / &steps_r)
                    .collect()
            }
            _ => Vec::new(),
        })
        .collect()
}

impl Engine {
    pub(super) fn new(
        scenario: &Scenario,
        config: &SimConfig,
        machines: usize,
        out: Simulation,
        initial: Vec<u64>,
    ) -> Self {
        let tree = &scenario.tree;
        let n = tree.len();
        let m = tree.num_resources();
        let rule = out.policy.static_policy();
        let mut master = SplitMix64::new(out.seed);
        let k = machines;
        let per_machine = Rational::new(1, k as i128).expect("machines >= 1");
        let has_xg = tree
            .nodes()
            .any(|v| v != tree.root() && tree.node(v).has_guarantee());
        let over = |x: &[Rational]| -> Vec<Rational> {
            x.iter().zip(tree.capacity()).map(|(a, r)| a / r).collect()
        };
        let lim: Vec<Option<Vec<Rational>>> = tree
            .nodes()
            .map(|v| tree.node(v).limit().map(over))
            .collect();
        let mut engine = Engine {
            m,
            parent: vec![NONE; n],
            children: vec![Vec::new(); n],
            is_leaf: vec![false; n],
            size: Vec::new(),
            leaves: Vec::new(),
            rule,
            inv_norm: Vec::with_capacity(n),
            g: Vec::with_capacity(n),
            a: vec![Rational::ZERO; n * m],
            demanded: vec![Vec::new(); n],
            cap: vec![u64::MAX; n],
            durations: vec![None; n],
            grids: Vec::new(),
            rng: Vec::with_capacity(n),
            usage: vec![Rational::ZERO; n * m],
            dom: vec![Rational::ZERO; n],
            key: vec![Rational::ZERO; n],
            ready: vec![0; n],
            leaf_ready: vec![false; n],
            blocked: vec![0; n],
            blocked_stamp: vec![0; n],
            round: 0,
            blocked_list: Vec::new(),
            running: vec![0; n],
            leaf_tasks: vec![Vec::new(); n],
            pending: (0..n).map(|_| Pending::default()).collect(),
            free: vec![per_machine; k * m],
            heap: BinaryHeap::new(),
            seq: 0,
            tasks: Vec::new(),
            free_slots: Vec::new(),
            stat: vec![Stat::default(); n],
            dirty: Vec::new(),
            is_dirty: vec![false; n],
            next_sample: Rational::ZERO,
            sampled_zero: false,
            checks: Vec::new(),
            eff: vec![Rational::ZERO; n * m],
            position: vec![0; n],
            names: Vec::with_capacity(n),
            count: vec![0; n],
            last_served: vec![0; n],
            task_min: vec![None; n],
            xg: tree
                .nodes()
                .map(|v| (has_xg && v != tree.root()).then(|| over(tree.node(v).guarantee())))
                .collect(),
            has_lim: lim.iter().any(Option::is_some),
            lim,
            fifo_pool: tree
                .nodes()
                .map(|v| tree.node(v).mode() == crate::Mode::Fifo)
                .collect(),
            initial,
            machines,
            record: config.record.clone(),
            max_events: config.max_events,
            out,
        };
        let e = &mut engine;
        for v in tree.nodes() {
            let i = v.index();
            let node = tree.node(v);
            e.parent[i] = node.parent().map_or(NONE, |q| q.index());
            e.children[i] = node.children().map(|c| c.index()).collect();
            for (pos, c) in node.children().enumerate() {
                e.position[c.index()] = pos;
            }
            e.names.push(node.name().to_string());
            let norm = rule.map_or(node.weight(), |r| r.normaliser().of(node));
            e.inv_norm.push(
                norm.recip()
                    .expect("weights and guaranteed shares are positive"),
            );
            e.g.push(node.guaranteed_share().clone());
            // One stream per node in pre-order, whatever the policy does with it.
            e.rng.push(SplitMix64::new(master.next_u64()));
            if let Some(d) = node.demand() {
                e.is_leaf[i] = true;
                for (j, (dj, rj)) in d.iter().zip(tree.capacity()).enumerate() {
                    if !dj.is_zero() {
                        e.a[i * m + j] = dj / rj;
                        e.demanded[i].push(j);
                    }
                }
                if let Some(t) = node.cap() {
                    e.cap[i] = t.floor_u64().unwrap_or(u64::MAX);
                }
                let w = scenario.workload(v);
                if w.has_work() {
                    e.task_min[i] = e.a[i * m..(i + 1) * m].iter().max().cloned();
                }
                e.durations[i] = Some(w.duration.clone());
            }
        }
        e.size = subtree_sizes(&e.parent, &mut e.task_min);
        e.leaves = (0..n).filter(|&v| e.is_leaf[v]).collect();
        e.grids = duration_grids(&e.durations);
        // Every leaf's supply: its backlog's start, or each non-empty arrival; in pre-order,
        // so that the events' sequence numbers follow the tree.
        for v in tree.nodes().filter(|&v| tree.node(v).demand().is_some()) {
            let leaf = v.index() as u32;
            match &scenario.workload(v).supply {
                Supply::Unlimited { start } => engine.push(start.clone(), Kind::Backlog { leaf }),
                Supply::Arrivals(list) => {
                    for arrival in list.iter().filter(|x| x.count > 0) {
                        let count = arrival.count;
                        engine.push(arrival.time.clone(), Kind::Arrive { leaf, count });
                    }
                }
            }
        }
        engine
    }

    /// Starts the tasks the leaves hold at time 0 (their `usage`), each on the first machine
    /// with room, with durations drawn as for any task.
    ///
    /// # Errors
    /// [`SolverError::Invalid`] on `machines` when a leaf's usage does not fit on the
    /// machines task by task.
    fn place_initial(&mut self) -> Result<()> {
        let zero = Rational::ZERO;
        let mut any = false;
        for i in 0..self.leaves.len() {
            let l = self.leaves[i];
            for _ in 0..self.initial[l] {
                let Some(k) = self.fit_machine(l) else {
                    return Err(SolverError::invalid(
                        "machines",
                        format!(
                            "the usage of {} does not fit on the {} machines task by task",
                            self.names[l], self.machines
                        ),
                    ));
                };
                self.start(l, k, &zero, Some(zero.clone()));
                any = true;
            }
        }
        // Account for the initial state from 0 when no event comes at 0 to settle it.
        if any && self.heap.peek().is_none_or(|e| e.0.time.is_positive()) {
            self.settle(&zero);
        }
        Ok(())
    }

    fn push(&mut self, time: Rational, kind: Kind) {
        self.heap.push(Reverse(Event {
            time,
            seq: self.seq,
            kind,
        }));
        self.seq += 1;
    }

    /// Runs to the horizon.
    ///
    /// # Errors
    /// [`SolverError::Invalid`] on `max_events` when the run would handle more events than
    /// the budget before the horizon.
    pub(super) fn run(mut self) -> Result<Simulation> {
        let horizon = self.out.horizon.clone();
        self.place_initial()?;
        loop {
            let t = match self.heap.peek() {
                Some(Reverse(e)) if e.time < horizon => e.time.clone(),
                _ => break,
            };
            while self.heap.peek().is_some_and(|e| e.0.time == t) {
                if self.out.events >= self.max_events {
                    return Err(SolverError::invalid(
                        "max_events",
                        format!(
                            "the run needs more than {} events before the horizon {} (it had reached time {t}); raise the budget, shorten the horizon or lengthen the tasks",
                            self.max_events, self.out.horizon
                        ),
                    ));
                }
                let Reverse(e) = self.heap.pop().expect("peeked");
                self.out.events += 1;
                match e.kind {
                    Kind::Complete { task, r#gen } => {
                        let slot = &self.tasks[task as usize];
                        if slot.alive && slot.r#gen == r#gen {
                            self.release(task as usize, false);
                            self.out.tasks.completed += 1;
                        }
                    }
                    Kind::Arrive { leaf, count } => {
                        self.pending[leaf as usize].push_back(t.clone(), count);
                        self.update(leaf as usize, 0);
                    }
                    Kind::Backlog { leaf } => {
                        self.pending[leaf as usize].unlimited = Some(t.clone());
                        self.update(leaf as usize, 0);
                    }
                    Kind::Check { node, since } => self.checks.push((node as usize, since)),
                }
            }
            self.schedule(&t);
            if !self.checks.is_empty() {
                self.preempt(&t);
            }
            self.settle(&t);
        }
        Ok(self.finish())
    }

    /// Whether child `c` goes before `best` (siblings, both active): a smaller key, or an
    /// equal key and the tie-break chain prefers it.
    fn before(&self, c: usize, best: usize) -> bool {
        self.key[c]
            .cmp(&self.key[best])
            .then_with(|| {
                self.out
                    .tie
                    .compare(&self.candidate(c), &self.candidate(best))
            })
            .is_lt()
    }

    /// The child of pool `v` a descent goes to, among the children `is_active` accepts: with
    /// explicit guarantees, a child at least one task below its guarantee (some active leaf
    /// below it could start a task and stay within it) goes first — Mesos' and Kueue's rule,
    /// resources go to nodes under their guarantee before fair sharing; then, in a `fifo`
    /// pool, the first in the order listed, else the smallest key and the tie-breaks.
    /// `NONE` when no child is active.
    fn pick(&self, v: usize, is_active: &dyn Fn(usize) -> bool) -> usize {
        let mut best = NONE;
        let mut best_under = false;
        for &c in &self.children[v] {
            if !is_active(c) {
                continue;
            }
            let under = self.within_guarantee(c, is_active);
            let better = best == NONE
                || (under && !best_under)
                || (under == best_under && !self.fifo_pool[v] && self.before(c, best));
            if better {
                best = c;
                best_under = under;
            }
        }
        best
    }

    /// Some leaf below `v` that `is_leaf_ok` accepts could start a task and keep `v` within
    /// its explicit guarantee: `U_v + d_l <= G_v` on every resource the leaf demands (shares
    /// of the capacity).
    fn within_guarantee(&self, v: usize, is_leaf_ok: &dyn Fn(usize) -> bool) -> bool {
        let Some(g) = &self.xg[v] else {
            return false;
        };
        let m = self.m;
        (v..v + self.size[v]).any(|l| {
            self.is_leaf[l]
                && is_leaf_ok(l)
                && self.demanded[l]
                    .iter()
                    .all(|&j| &self.usage[v * m + j] + &self.a[l * m + j] <= g[j])
        })
    }

    /// A task of `leaf` keeps every node from `leaf` up to `top` (inclusive; `NONE`: the
    /// root) within its limit.
    fn within_limits(&self, leaf: usize, top: usize) -> bool {
        if !self.has_lim {
            return true;
        }
        let m = self.m;
        for v in ancestors(&self.parent, leaf) {
            if let Some(l) = &self.lim[v] {
                let over = self.demanded[leaf]
                    .iter()
                    .any(|&j| &self.usage[v * m + j] + &self.a[leaf * m + j] > l[j]);
                if over {
                    return false;
                }
            }
            if v == top {
                break;
            }
        }
        true
    }

    fn candidate(&self, v: usize) -> Candidate<'_> {
        Candidate {
            position: self.position[v],
            count: self.count[v],
            last_served: self.last_served[v],
            name: &self.names[v],
        }
    }

    /// Some leaf below `v` has pending work, is below its cap and was not found blocked in
    /// this scheduling round.
    fn active(&self, v: usize) -> bool {
        // `blocked` counts the leaves found blocked in this round only.
        let blocked = (self.blocked_stamp[v] == self.round).then_some(self.blocked[v]);
        self.ready[v] > blocked.unwrap_or(0)
    }

    /// After leaf `leaf` started (`delta = 1`), released (`-1`) a task or its pending work
    /// changed (`0`): update usage, dominant shares, readiness and keys on its path.
    fn update(&mut self, leaf: usize, delta: i8) {
        let m = self.m;
        let now_ready = self.pending[leaf].has() && self.running[leaf] < self.cap[leaf];
        let ready_delta: i64 = i64::from(now_ready) - i64::from(self.leaf_ready[leaf]);
        self.leaf_ready[leaf] = now_ready;
        let mut v = leaf;
        while v != NONE {
            if delta != 0 {
                for &j in &self.demanded[leaf] {
                    let x = &self.a[leaf * m + j];
                    let u = &mut self.usage[v * m + j];
                    if delta > 0 {
                        *u += x;
                    } else {
                        *u -= x;
                    }
                }
                self.dom[v] = self.usage[v * m..(v + 1) * m]
                    .iter()
                    .max()
                    .expect("m >= 1")
                    .clone();
            }
            if ready_delta > 0 {
                self.ready[v] += 1;
            } else if ready_delta < 0 {
                self.ready[v] -= 1;
            }
            if !self.is_dirty[v] {
                self.is_dirty[v] = true;
                self.dirty.push(v);
            }
            self.recompute_key(v);
            v = self.parent[v];
        }
    }

    /// The first machine (lowest index) with room for a task of `leaf`, when the task keeps
    /// every node above it within its limit (a task is never started over a limit).
    fn fit(&self, leaf: usize) -> Option<usize> {
        if !self.within_limits(leaf, NONE) {
            return None;
        }
        self.fit_machine(leaf)
    }

    /// The first machine (lowest index) with room for a task of `leaf`.
    fn fit_machine(&self, leaf: usize) -> Option<usize> {
        let m = self.m;
        (0..self.machines).find(|&k| {
            self.demanded[leaf]
                .iter()
                .all(|&j| self.a[leaf * m + j] <= self.free[k * m + j])
        })
    }

    /// Starts a task of `leaf` on `machine`: one of its pending tasks, or (`submit` given) a
    /// task it already held at time 0.
    fn start(&mut self, leaf: usize, machine: usize, now: &Rational, submit: Option<Rational>) {
        let m = self.m;
        let submit = match submit {
            Some(t) => t,
            None => self.pending[leaf].pop(),
        };
        self.running[leaf] += 1;
        for &j in &self.demanded[leaf] {
            self.free[machine * m + j] -= &self.a[leaf * m + j];
        }
        self.update(leaf, 1);
        // Tie-break state: every ancestor was served too (Mesos counts each ancestor).
        let stamp = self.out.tasks.started + 1;
        for v in ancestors(&self.parent, leaf) {
            self.count[v] += 1;
            self.last_served[v] = stamp;
        }
        // The same draw as `Duration::draw` (one `range(0, steps)`), from a table.
        let grid = &self.grids[leaf];
        let duration = if grid.is_empty() {
            self.durations[leaf]
                .as_ref()
                .expect("a leaf")
                .draw(&mut self.rng[leaf])
        } else {
            grid[self.rng[leaf].range(0, (grid.len() - 1) as u64) as usize].clone()
        };
        let mut task = Task {
            leaf: leaf as u32,
            machine: machine as u32,
            r#gen: 0,
            alive: true,
            pos: self.leaf_tasks[leaf].len() as u32,
            start: now.clone(),
            submit,
        };
        // A reused slot keeps its generation: its old completion event stays stale.
        let id = match self.free_slots.pop() {
            Some(id) => {
                task.r#gen = self.tasks[id as usize].r#gen;
                self.tasks[id as usize] = task;
                id
            }
            None => {
                self.tasks.push(task);
                (self.tasks.len() - 1) as u32
            }
        };
        self.leaf_tasks[leaf].push(id);
        let r#gen = self.tasks[id as usize].r#gen;
        self.push(now + duration, Kind::Complete { task: id, r#gen });
        self.out.tasks.started += 1;
    }

    /// Frees task `id` (finished, or preempted: back to its leaf's pending work).
    fn release(&mut self, id: usize, preempted: bool) {
        let m = self.m;
        let (leaf, machine, pos) = {
            let t = &mut self.tasks[id];
            t.alive = false;
            t.r#gen = t.r#gen.wrapping_add(1);
            (t.leaf as usize, t.machine as usize, t.pos as usize)
        };
        let list = &mut self.leaf_tasks[leaf];
        list.swap_remove(pos);
        if let Some(&moved) = list.get(pos) {
            self.tasks[moved as usize].pos = pos as u32;
        }
        self.free_slots.push(id as u32);
        for &j in &self.demanded[leaf] {
            self.free[machine * m + j] += &self.a[leaf * m + j];
        }
        self.running[leaf] -= 1;
        if preempted {
            let submit = self.tasks[id].submit.clone();
            self.pending[leaf].push_front(submit);
        }
        self.update(leaf, -1);
    }
}
