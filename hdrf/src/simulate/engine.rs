//! The event loop of the simulator: exact times, a heap of events keyed by `(time, seq)`,
//! per-node aggregates kept incrementally along the path of the leaf that changed.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

use leontief_solver::generate::SplitMix64;
use leontief_solver::Rational;

use super::workload::{Duration, Scenario, Supply};
use super::{NodeSummary, Record, Sample, SimPolicy};
use crate::policies::hdrf::{effective_vector, Child};
use crate::policies::{Aggregation, TreePolicy};
use crate::Policy;

const NONE: usize = usize::MAX;

/// Uniform durations with at most this many grid steps are drawn from a precomputed table.
const GRID_TABLE: u64 = 4096;

/// What happens at an event.
enum Kind {
    /// A task finishes (stale when the slot's generation moved on: the task was preempted).
    Complete { task: u32, gen: u32 },
    /// A batch of `count` tasks is submitted.
    Arrive { leaf: u32, count: u64 },
    /// An unlimited backlog appears.
    Backlog { leaf: u32 },
    /// Preemption: has `node` been below its guarantee since `since`?
    Check { node: u32, since: Rational },
}

struct Event {
    time: Rational,
    seq: u64,
    kind: Kind,
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq && self.time == other.time
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    /// Reversed: the heap's maximum is the earliest `(time, seq)`.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .cmp(&self.time)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// A running task (or a free slot of the slab).
struct Task {
    leaf: u32,
    machine: u32,
    gen: u32,
    alive: bool,
    /// Index in its leaf's list of running tasks.
    pos: u32,
    start: Rational,
    submit: Rational,
}

/// A leaf's pending tasks: an unlimited backlog, or runs of `(submission time, count)` in
/// submission order.
#[derive(Default)]
struct Pending {
    unlimited: Option<Rational>,
    queue: VecDeque<(Rational, u64)>,
}

impl Pending {
    fn has(&self) -> bool {
        self.unlimited.is_some() || !self.queue.is_empty()
    }

    fn head(&self) -> Option<&Rational> {
        self.unlimited.as_ref().or(self.queue.front().map(|f| &f.0))
    }

    fn pop(&mut self) -> Rational {
        if let Some(t) = &self.unlimited {
            return t.clone();
        }
        let front = self.queue.front_mut().expect("a pending task");
        let t = front.0.clone();
        front.1 -= 1;
        if front.1 == 0 {
            self.queue.pop_front();
        }
        t
    }

    /// A preempted task goes back to the front (it was submitted before every pending one).
    fn push_front(&mut self, t: Rational) {
        if self.unlimited.is_some() {
            return;
        }
        match self.queue.front_mut() {
            Some(front) if front.0 == t => front.1 += 1,
            _ => self.queue.push_front((t, 1)),
        }
    }

    fn push_back(&mut self, t: Rational, count: u64) {
        match self.queue.back_mut() {
            Some(back) if back.0 == t => back.1 = back.1.saturating_add(count),
            _ => self.queue.push_back((t, count)),
        }
    }
}

/// Per-node accounting over settled states (the state after all events at a time).
#[derive(Clone)]
struct Stat {
    share: Rational,
    below: bool,
    since: Rational,
    integral: Rational,
    min_window: Option<Rational>,
    below_total: Rational,
    below_since: Option<Rational>,
    longest: Rational,
}

/// The counters and results of a run.
pub(super) struct Outcome {
    pub started: u64,
    pub completed: u64,
    pub preempted: u64,
    pub events: u64,
    pub nodes: Vec<NodeSummary>,
    pub series: Vec<Sample>,
}

pub(super) struct Params {
    pub policy: SimPolicy,
    pub machines: usize,
    pub preemption: Option<Rational>,
    pub record: Record,
    pub horizon: Rational,
    pub warmup: Rational,
    pub tolerance: Rational,
    pub seed: u64,
}

pub(super) struct Engine {
    p: Params,
    m: usize,
    n: usize,
    // Static.
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    is_leaf: Vec<bool>,
    /// Pre-order subtree sizes: the subtree of `v` is `v..v + size[v]`.
    size: Vec<usize>,
    leaves: Vec<usize>,
    /// The tree policy's keys (`None`: FIFO).
    rule: Option<&'static dyn TreePolicy>,
    /// Per node: 1 / the policy's normaliser (`w_v` or `g_v`).
    inv_norm: Vec<Rational>,
    inv_g: Vec<Rational>,
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
    heap: BinaryHeap<Event>,
    seq: u64,
    tasks: Vec<Task>,
    free_slots: Vec<u32>,
    // Accounting.
    stat: Vec<Stat>,
    dirty: Vec<usize>,
    is_dirty: Vec<bool>,
    series: Vec<Sample>,
    next_sample: Rational,
    sampled_zero: bool,
    checks: Vec<(usize, Rational)>,
    started: u64,
    completed: u64,
    preempted: u64,
    events: u64,
    // H-DRF scratch.
    eff: Vec<Rational>,
}

impl Engine {
    pub(super) fn new(scenario: &Scenario, p: Params) -> Self {
        let tree = &scenario.tree;
        let n = tree.len();
        let m = tree.num_resources();
        let mut parent = vec![NONE; n];
        let mut children = vec![Vec::new(); n];
        let mut is_leaf = vec![false; n];
        let rule = p.policy.static_policy().map(Policy::tree_policy);
        let mut inv_norm = Vec::with_capacity(n);
        let mut inv_g = Vec::with_capacity(n);
        let mut g = Vec::with_capacity(n);
        let mut a = vec![Rational::ZERO; n * m];
        let mut demanded = vec![Vec::new(); n];
        let mut cap = vec![u64::MAX; n];
        let mut durations = vec![None; n];
        let mut rng = Vec::with_capacity(n);
        let mut master = SplitMix64::new(p.seed);
        let mut heap = BinaryHeap::new();
        let mut seq = 0u64;
        for v in tree.nodes() {
            let i = v.index();
            let node = tree.node(v);
            parent[i] = node.parent().map_or(NONE, |q| q.index());
            children[i] = node.children().iter().map(|c| c.index()).collect();
            let norm = rule.map_or(node.weight(), |r| r.normaliser().of(node));
            inv_norm.push(
                norm.recip()
                    .expect("weights and guaranteed shares are positive"),
            );
            inv_g.push(
                node.guaranteed_share()
                    .recip()
                    .expect("guaranteed shares are positive"),
            );
            g.push(node.guaranteed_share().clone());
            // One stream per node in pre-order, whatever the policy does with it.
            rng.push(SplitMix64::new(master.next_u64()));
            if let Some(d) = node.demand() {
                is_leaf[i] = true;
                for (j, (dj, rj)) in d.iter().zip(tree.capacity()).enumerate() {
                    if !dj.is_zero() {
                        a[i * m + j] = dj / rj;
                        demanded[i].push(j);
                    }
                }
                if let Some(t) = node.cap() {
                    cap[i] = t.floor_u64().unwrap_or(u64::MAX);
                }
                let w = scenario.workload(v);
                durations[i] = Some(w.duration.clone());
                let mut push = |time: Rational, kind: Kind| {
                    heap.push(Event { time, seq, kind });
                    seq += 1;
                };
                match &w.supply {
                    Supply::Unlimited { start } => {
                        push(start.clone(), Kind::Backlog { leaf: i as u32 })
                    }
                    Supply::Arrivals(list) => {
                        for arrival in list.iter().filter(|x| x.count > 0) {
                            push(
                                arrival.time.clone(),
                                Kind::Arrive {
                                    leaf: i as u32,
                                    count: arrival.count,
                                },
                            );
                        }
                    }
                }
            }
        }
        let mut size = vec![1usize; n];
        for v in (0..n).rev() {
            if parent[v] != NONE {
                size[parent[v]] += size[v];
            }
        }
        let leaves = (0..n).filter(|&v| is_leaf[v]).collect();
        let grids = durations
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
            .collect();
        let k = p.machines;
        let per_machine = Rational::new(1, k as i128).expect("machines >= 1");
        let stat = Stat {
            share: Rational::ZERO,
            below: false,
            since: Rational::ZERO,
            integral: Rational::ZERO,
            min_window: None,
            below_total: Rational::ZERO,
            below_since: None,
            longest: Rational::ZERO,
        };
        Engine {
            m,
            n,
            parent,
            children,
            is_leaf,
            size,
            leaves,
            rule,
            inv_norm,
            inv_g,
            g,
            a,
            demanded,
            cap,
            durations,
            grids,
            rng,
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
            heap,
            seq,
            tasks: Vec::new(),
            free_slots: Vec::new(),
            stat: vec![stat; n],
            dirty: Vec::new(),
            is_dirty: vec![false; n],
            series: Vec::new(),
            next_sample: Rational::ZERO,
            sampled_zero: false,
            checks: Vec::new(),
            started: 0,
            completed: 0,
            preempted: 0,
            events: 0,
            eff: vec![Rational::ZERO; n * m],
            p,
        }
    }

    fn push(&mut self, time: Rational, kind: Kind) {
        self.heap.push(Event {
            time,
            seq: self.seq,
            kind,
        });
        self.seq += 1;
    }

    /// Runs to the horizon.
    pub(super) fn run(mut self) -> Outcome {
        let horizon = self.p.horizon.clone();
        loop {
            let t = match self.heap.peek() {
                Some(e) if e.time < horizon => e.time.clone(),
                _ => break,
            };
            while self.heap.peek().is_some_and(|e| e.time == t) {
                let e = self.heap.pop().expect("peeked");
                self.events += 1;
                match e.kind {
                    Kind::Complete { task, gen } => {
                        let slot = &self.tasks[task as usize];
                        if slot.alive && slot.gen == gen {
                            self.release(task as usize, false);
                            self.completed += 1;
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
        self.finish()
    }

    // ----- incremental aggregates -----

    fn blocked_count(&self, v: usize) -> u32 {
        if self.blocked_stamp[v] == self.round {
            self.blocked[v]
        } else {
            0
        }
    }

    /// Some leaf below `v` has pending work, is below its cap and was not found blocked in
    /// this scheduling round.
    fn active(&self, v: usize) -> bool {
        self.ready[v] > self.blocked_count(v)
    }

    fn mark_dirty(&mut self, v: usize) {
        if !self.is_dirty[v] {
            self.is_dirty[v] = true;
            self.dirty.push(v);
        }
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
            self.mark_dirty(v);
            self.recompute_key(v);
            v = self.parent[v];
        }
    }

    /// Marks `leaf` blocked for this round (its task fits nowhere) and updates its path.
    /// Returns where the next descent may start: the lowest ancestor whose activity and key
    /// did not change (every choice above it is unchanged), or `NONE` when the root is no
    /// longer active.
    fn block(&mut self, leaf: usize) -> usize {
        let follow = self.keys_follow_activity();
        let mut restart = NONE;
        let mut v = leaf;
        while v != NONE {
            let was_active = self.active(v);
            if self.blocked_stamp[v] != self.round {
                self.blocked_stamp[v] = self.round;
                self.blocked[v] = 0;
            }
            self.blocked[v] += 1;
            if restart == NONE {
                let changed = follow && self.recompute_key(v);
                if self.active(v) == was_active && !changed {
                    restart = v;
                }
            }
            v = self.parent[v];
        }
        self.blocked_list.push(leaf);
        if !self.active(0) {
            NONE
        } else if restart == NONE {
            0
        } else {
            restart
        }
    }

    fn refresh_path(&mut self, leaf: usize) {
        let mut v = leaf;
        while v != NONE {
            self.recompute_key(v);
            v = self.parent[v];
        }
    }

    /// The policy's key of `v` from its own aggregates and its children's keys (H-DRF's keys
    /// are computed per decision instead, see [`Engine::schedule_hdrf`]). Whether it changed.
    fn recompute_key(&mut self, v: usize) -> bool {
        let leaf = self.is_leaf[v];
        let Some(rule) = self.rule else {
            // FIFO: a leaf's oldest pending submission; a pool is transparent.
            let k = if leaf {
                self.pending[v].head().cloned()
            } else {
                self.min_active_child(v)
            };
            let Some(k) = k else { return false };
            return self.set_key(v, k);
        };
        let k = match rule.aggregation() {
            Aggregation::Effective => return false,
            _ if leaf => &self.dom[v] * &self.inv_norm[v],
            Aggregation::Flattened => match self.min_active_child(v) {
                Some(c) => c,
                None => return false,
            },
            Aggregation::Usage => {
                let own = &self.dom[v] * &self.inv_norm[v];
                let lam = if rule.key_follows_activity() {
                    self.min_active_child(v)
                } else {
                    None
                };
                rule.pool_key(own, lam.as_ref())
            }
        };
        self.set_key(v, k)
    }

    fn set_key(&mut self, v: usize, k: Rational) -> bool {
        if self.key[v] == k {
            return false;
        }
        self.key[v] = k;
        true
    }

    /// Whether a pool's key depends on which of its children are active (FIFO's does).
    fn keys_follow_activity(&self) -> bool {
        self.rule.is_none_or(|r| r.key_follows_activity())
    }

    fn min_active_child(&self, v: usize) -> Option<Rational> {
        self.children[v]
            .iter()
            .filter(|&&c| self.active(c))
            .map(|&c| &self.key[c])
            .min()
            .cloned()
    }

    // ----- starting and stopping tasks -----

    /// The first machine (lowest index) with room for a task of `leaf`.
    fn fit(&self, leaf: usize) -> Option<usize> {
        let m = self.m;
        (0..self.p.machines).find(|&k| {
            self.demanded[leaf]
                .iter()
                .all(|&j| self.a[leaf * m + j] <= self.free[k * m + j])
        })
    }

    fn start(&mut self, leaf: usize, machine: usize, now: &Rational) {
        let m = self.m;
        let submit = self.pending[leaf].pop();
        self.running[leaf] += 1;
        for &j in &self.demanded[leaf] {
            self.free[machine * m + j] -= &self.a[leaf * m + j];
        }
        self.update(leaf, 1);
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
        let pos = self.leaf_tasks[leaf].len() as u32;
        let id = match self.free_slots.pop() {
            Some(id) => {
                let slot = &mut self.tasks[id as usize];
                slot.leaf = leaf as u32;
                slot.machine = machine as u32;
                slot.alive = true;
                slot.pos = pos;
                slot.start = now.clone();
                slot.submit = submit;
                id
            }
            None => {
                self.tasks.push(Task {
                    leaf: leaf as u32,
                    machine: machine as u32,
                    gen: 0,
                    alive: true,
                    pos,
                    start: now.clone(),
                    submit,
                });
                (self.tasks.len() - 1) as u32
            }
        };
        self.leaf_tasks[leaf].push(id);
        let gen = self.tasks[id as usize].gen;
        self.push(now + duration, Kind::Complete { task: id, gen });
        self.started += 1;
    }

    /// Frees task `id` (finished, or preempted: back to its leaf's pending work).
    fn release(&mut self, id: usize, preempted: bool) {
        let m = self.m;
        let (leaf, machine, pos) = {
            let t = &mut self.tasks[id];
            t.alive = false;
            t.gen = t.gen.wrapping_add(1);
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

    // ----- scheduling -----

    /// One scheduling round at time `now`: start tasks by the policy until nothing fits.
    fn schedule(&mut self, now: &Rational) {
        self.round += 1;
        // Leaves blocked in the last round may fit again: their pools' keys change.
        let blocked = std::mem::take(&mut self.blocked_list);
        if self.keys_follow_activity() {
            for &leaf in &blocked {
                self.refresh_path(leaf);
            }
        }
        self.blocked_list = blocked;
        self.blocked_list.clear();
        if self
            .rule
            .is_some_and(|r| r.aggregation() == Aggregation::Effective)
        {
            return self.schedule_hdrf(now);
        }
        // A leaf reached by the descent whose task fits nowhere is blocked for the round
        // (resources only shrink within a round) and the descent starts again, from the
        // lowest ancestor whose choices may have changed. For these keys that is the same
        // choice as checking every leaf before each decision.
        let mut from = if self.active(0) { 0 } else { NONE };
        while from != NONE {
            let mut v = from;
            while !self.is_leaf[v] {
                let mut best = NONE;
                for &c in &self.children[v] {
                    if self.active(c) && (best == NONE || self.key[c] < self.key[best]) {
                        best = c;
                    }
                }
                v = best;
            }
            from = match self.fit(v) {
                Some(machine) => {
                    self.start(v, machine, now);
                    if self.active(0) {
                        0
                    } else {
                        NONE
                    }
                }
                None => self.block(v),
            };
        }
    }

    /// H-DRF: every decision recomputes blocking (eagerly, as [`crate::discrete`] does) and
    /// the effective vectors bottom-up: `O(N·m + L·K·m)` per task started.
    fn schedule_hdrf(&mut self, now: &Rational) {
        let (n, m) = (self.n, self.m);
        let rule = self.rule.expect("H-DRF is a tree policy");
        // 0 satisfied (no pending work or at its cap), 1 blocked, 2 active.
        let mut status = vec![0u8; n];
        let mut place = vec![NONE; n];
        let mut saturated = vec![false; m];
        loop {
            saturated.iter_mut().for_each(|s| *s = false);
            for i in 0..self.leaves.len() {
                let l = self.leaves[i];
                status[l] = if !self.leaf_ready[l] {
                    0
                } else if let Some(k) = self.fit(l) {
                    place[l] = k;
                    2
                } else {
                    for &j in &self.demanded[l] {
                        let x = &self.a[l * m + j];
                        if (0..self.p.machines).all(|k| *x > self.free[k * m + j]) {
                            saturated[j] = true;
                        }
                    }
                    1
                };
            }
            for v in (0..n).rev() {
                if self.is_leaf[v] {
                    if status[v] == 2 {
                        for j in 0..m {
                            self.eff[v * m + j] = self.usage[v * m + j].clone();
                        }
                        self.key[v] = &self.dom[v] * &self.inv_norm[v];
                    }
                    continue;
                }
                let kids = &self.children[v];
                status[v] = if kids.iter().any(|&c| status[c] == 2) {
                    2
                } else if kids.iter().all(|&c| status[c] == 0) {
                    0
                } else {
                    1
                };
                if status[v] != 2 {
                    continue;
                }
                let (key, eff, usage, status) = (&self.key, &self.eff, &self.usage, &status);
                let children = kids.iter().map(move |&c| {
                    if status[c] == 2 {
                        Child::Active {
                            key: &key[c],
                            vector: &eff[c * m..(c + 1) * m],
                        }
                    } else {
                        // At its cap, without work or blocked: counted as it is.
                        Child::Stopped(&usage[c * m..(c + 1) * m])
                    }
                });
                let (out, e) = effective_vector(children, &saturated);
                self.key[v] = rule.pool_key(e * &self.inv_norm[v], None);
                for (j, o) in out.into_iter().enumerate() {
                    self.eff[v * m + j] = o;
                }
            }
            if status[0] != 2 {
                return;
            }
            let mut v = 0;
            while !self.is_leaf[v] {
                let mut best = NONE;
                for &c in &self.children[v] {
                    if status[c] == 2 && (best == NONE || self.key[c] < self.key[best]) {
                        best = c;
                    }
                }
                v = best;
            }
            self.start(v, place[v], now);
        }
    }

    // ----- preemption -----

    fn below_now(&self, v: usize) -> bool {
        self.ready[v] > 0 && self.dom[v] < self.g[v]
    }

    /// Serves the due checks: a node below its guarantee, with unmet demand, since at least
    /// the timeout preempts tasks for its neediest leaf until it reaches its guarantee or no
    /// victim is left (see the [parent module](super)).
    fn preempt(&mut self, now: &Rational) {
        let mut checks = std::mem::take(&mut self.checks);
        checks.sort_by_key(|c| c.0);
        let Some(timeout) = self.p.preemption.clone() else {
            return;
        };
        let mut any = false;
        for (v, since) in checks {
            if self.stat[v].below_since.as_ref() != Some(&since) {
                continue; // that spell ended; a later one has its own check
            }
            while self.below_now(v) {
                let Some(leaf) = self.neediest_leaf(v) else {
                    break;
                };
                let Some((machine, victims)) = self.plan(leaf, v) else {
                    let again = now + &timeout;
                    if again < self.p.horizon {
                        self.push(
                            again,
                            Kind::Check {
                                node: v as u32,
                                since: since.clone(),
                            },
                        );
                    }
                    break;
                };
                for id in victims {
                    self.release(id as usize, true);
                    self.preempted += 1;
                }
                self.start(leaf, machine, now);
                any = true;
            }
        }
        if any {
            self.schedule(now);
        }
    }

    /// The leaf below `v` with work to start and the smallest satisfaction (first in tree
    /// order on ties).
    fn neediest_leaf(&self, v: usize) -> Option<usize> {
        let mut best: Option<(Rational, usize)> = None;
        for l in v..v + self.size[v] {
            if !self.is_leaf[l] || !self.leaf_ready[l] {
                continue;
            }
            let s = &self.dom[l] * &self.inv_g[l];
            if best.as_ref().is_none_or(|(b, _)| s < *b) {
                best = Some((s, l));
            }
        }
        best.map(|(_, l)| l)
    }

    fn in_subtree(&self, u: usize, v: usize) -> bool {
        v <= u && u < v + self.size[v]
    }

    /// The machine and the victims (fewest victims; lowest machine on ties) that make room
    /// for one task of `leaf`, serving the starving node `v`.
    fn plan(&self, leaf: usize, v: usize) -> Option<(usize, Vec<u32>)> {
        let mut best: Option<(usize, Vec<u32>)> = None;
        for k in 0..self.p.machines {
            if let Some(victims) = self.plan_on(leaf, v, k) {
                if best.as_ref().is_none_or(|b| victims.len() < b.1.len()) {
                    let done = victims.is_empty();
                    best = Some((k, victims));
                    if done {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Greedy victims on machine `k`: repeatedly the youngest task (latest start) of the
    /// leaf outside `v`'s subtree that holds a resource still lacking and whose every node
    /// below the common ancestor with `v` stays at or above its guarantee without the task;
    /// among those, the one whose least satisfied such node is the most satisfied (first in
    /// tree order on ties). `None` when the task cannot be made to fit.
    fn plan_on(&self, leaf: usize, v: usize, k: usize) -> Option<Vec<u32>> {
        let m = self.m;
        let mut free: Vec<Rational> = self.free[k * m..(k + 1) * m].to_vec();
        let mut usage: Option<Vec<Rational>> = None;
        let mut taken: Vec<u32> = Vec::new();
        loop {
            let lacking: Vec<usize> = self.demanded[leaf]
                .iter()
                .copied()
                .filter(|&j| self.a[leaf * m + j] > free[j])
                .collect();
            if lacking.is_empty() {
                return Some(taken);
            }
            let use_ = usage.get_or_insert_with(|| self.usage.clone());
            let mut best: Option<(Rational, usize, u32)> = None;
            for &u in &self.leaves {
                if self.in_subtree(u, v) || !self.demanded[u].iter().any(|j| lacking.contains(j)) {
                    continue;
                }
                let youngest = self.leaf_tasks[u]
                    .iter()
                    .copied()
                    .filter(|&id| self.tasks[id as usize].machine as usize == k)
                    .filter(|id| !taken.contains(id))
                    .max_by(|&x, &y| {
                        let (tx, ty) = (&self.tasks[x as usize], &self.tasks[y as usize]);
                        tx.start.cmp(&ty.start).then(x.cmp(&y))
                    });
                let Some(id) = youngest else { continue };
                let mut rho: Option<Rational> = None;
                let mut ok = true;
                let mut x = u;
                while x != NONE && !self.in_subtree(v, x) {
                    let after = (0..m)
                        .map(|j| {
                            let cur = &use_[x * m + j];
                            let a = &self.a[u * m + j];
                            if a.is_zero() {
                                cur.clone()
                            } else {
                                cur - a
                            }
                        })
                        .max()
                        .expect("m >= 1");
                    if after < self.g[x] {
                        ok = false;
                        break;
                    }
                    let before = use_[x * m..(x + 1) * m].iter().max().expect("m >= 1");
                    let sigma = before * &self.inv_g[x];
                    rho = Some(match rho {
                        Some(r) => r.min(sigma),
                        None => sigma,
                    });
                    x = self.parent[x];
                }
                let (true, Some(rho)) = (ok, rho) else {
                    continue;
                };
                if best.as_ref().is_none_or(|(b, _, _)| rho > *b) {
                    best = Some((rho, u, id));
                }
            }
            let (_, u, id) = best?;
            taken.push(id);
            for &j in &self.demanded[u] {
                free[j] += &self.a[u * m + j];
            }
            let mut x = u;
            while x != NONE {
                for &j in &self.demanded[u] {
                    use_[x * m + j] -= &self.a[u * m + j];
                }
                x = self.parent[x];
            }
        }
    }

    // ----- accounting -----

    fn close(&mut self, v: usize, end: &Rational) {
        let warmup = &self.p.warmup;
        let st = &mut self.stat[v];
        let dt = end - &st.since;
        if dt.is_positive() {
            st.integral += &st.share * &dt;
            if st.below {
                st.below_total += &dt;
            }
            if end > warmup {
                let better = st.min_window.as_ref().is_none_or(|x| st.share < *x);
                if better {
                    st.min_window = Some(st.share.clone());
                }
            }
        }
        st.since = end.clone();
    }

    fn sample(&mut self, time: Rational) {
        let shares = self.stat.iter().map(|s| s.share.clone()).collect();
        self.series.push(Sample { time, shares });
    }

    /// Records the state after every event at `t`.
    fn settle(&mut self, t: &Rational) {
        match &self.p.record {
            Record::Every(dt) => {
                let dt = dt.clone();
                while self.next_sample < *t {
                    let at = self.next_sample.clone();
                    self.sample(at);
                    self.next_sample += &dt;
                }
            }
            Record::Events if !self.sampled_zero && t.is_positive() => self.sample(Rational::ZERO),
            _ => {}
        }
        self.sampled_zero = true;
        let dirty = std::mem::take(&mut self.dirty);
        let mut due: Vec<(usize, Rational)> = Vec::new();
        for &v in &dirty {
            self.is_dirty[v] = false;
            let below = self.below_now(v);
            if self.stat[v].share == self.dom[v] && self.stat[v].below == below {
                continue; // the piece goes on
            }
            self.close(v, t);
            let st = &mut self.stat[v];
            st.share = self.dom[v].clone();
            if below && !st.below {
                st.below_since = Some(t.clone());
                due.push((v, t.clone()));
            } else if !below && st.below {
                if let Some(s0) = st.below_since.take() {
                    let spell = t - &s0;
                    if spell > st.longest {
                        st.longest = spell;
                    }
                }
            }
            st.below = below;
        }
        if let Some(timeout) = self.p.preemption.clone() {
            for (v, since) in due {
                let at = &since + &timeout;
                if at < self.p.horizon {
                    self.push(
                        at,
                        Kind::Check {
                            node: v as u32,
                            since,
                        },
                    );
                }
            }
        }
        self.dirty = dirty;
        self.dirty.clear();
        match &self.p.record {
            Record::Events => self.sample(t.clone()),
            Record::Every(dt) if self.next_sample == *t => {
                let dt = dt.clone();
                self.sample(t.clone());
                self.next_sample += &dt;
            }
            _ => {}
        }
    }

    fn finish(mut self) -> Outcome {
        let h = self.p.horizon.clone();
        match &self.p.record {
            Record::Every(dt) => {
                let dt = dt.clone();
                while self.next_sample < h {
                    let at = self.next_sample.clone();
                    self.sample(at);
                    self.next_sample += &dt;
                }
            }
            Record::Events if !self.sampled_zero => self.sample(Rational::ZERO),
            _ => {}
        }
        for v in 0..self.n {
            self.close(v, &h);
            let st = &mut self.stat[v];
            if let Some(s0) = st.below_since.take() {
                let spell = &h - &s0;
                if spell > st.longest {
                    st.longest = spell;
                }
            }
        }
        let nodes = (0..self.n)
            .map(|v| {
                let st = &self.stat[v];
                NodeSummary {
                    final_share: st.share.clone(),
                    final_tasks: self.is_leaf[v].then_some(self.running[v]),
                    time_average_share: &st.integral / &h,
                    min_share_steady: st.min_window.clone().unwrap_or(Rational::ZERO),
                    time_below_guarantee: st.below_total.clone(),
                    longest_below_guarantee: st.longest.clone(),
                    starved: st.longest > self.p.tolerance,
                }
            })
            .collect();
        Outcome {
            started: self.started,
            completed: self.completed,
            preempted: self.preempted,
            events: self.events,
            nodes,
            series: self.series,
        }
    }
}
