//! The shared machinery of the hierarchical policies: an exact, event-driven fluid fill.
//!
//! The engine knows no policy by name: each one's key, its rate and its breakpoints come from
//! its [`TreePolicy`] (one file each in [`crate::policies`]); the engine only keeps H-DRF's
//! effective vectors and its stopped children's usage when the policy aggregates that way
//! ([`Aggregation::Effective`]).
//!
//! # The fluid model
//! Every leaf `l` holds `x_l >= 0` tasks, all starting at 0, and only grows. A leaf is
//! **active** while it is below its cap and every resource it demands has room; a pool is
//! active while some leaf below it is. Each policy gives every node `v` a **key** `K_v` (what
//! its parent compares) and lets the leaves grow by *water-filling at every pool*: at a pool
//! `p`, with `λ_p = min K_c` over its active children, exactly the active children with
//! `K_c = λ_p` grow, and they grow so that their keys stay equal; a child above `λ_p` waits
//! until the others catch up. Descending from the root this gives one direction of growth
//! for the whole tree, along which everything is linear until the next *event*: a resource
//! saturates, a leaf reaches its cap, a waiting child is caught up, or a max/min inside some
//! key changes its argument (e.g. a pool's dominant resource changes).
//!
//! **Degenerate children.** A child whose key cannot rise however it grows (a pool whose
//! dominant resource none of its growing leaves uses) keeps its key at `λ_p` while it grows;
//! the task-by-task rule hands it every task until its key starts rising. So in the fluid
//! limit, when some tied children of `p` are degenerate, only those grow (its siblings are
//! stalled at the same key) — and when several are, they grow together, each so that the
//! dominant share of its *additional* allocation rises in proportion to its weight (DRF on
//! the increments). This last convention is a tie-break of ours: the task-by-task rule with
//! ties broken by sibling order fills them one after another, and when the resource they
//! compete for runs out before the first one's key rises, the others get nothing: there the
//! task-by-task fills do not converge to this fill (see [`crate::discrete`]). It is stated in physical
//! terms on purpose: a convention in each policy's own key units would make naive and
//! min-satisfaction HDRF, whose keys differ by a factor per pool, break the same tie
//! differently.
//!
//! # Exact computation
//! All active leaf children of a pool `p` always share one key value `ℓ_p` (they start equal,
//! grow together and never jump), so they are one *group*; a leaf's tasks are
//! `x_l = ℓ_p / c_l` for a per-leaf constant `c_l`, materialised when it stops. The structure
//! of a pool — its growth set, its usage rate `u_p` per unit of inner rate, its key's slope
//! `κ_p` — follows from its children's (bottom-up); the rate of a driven pool follows from its
//! parent's, `r_child = r_p / κ_child` (top-down), and the root's parameter `T` is the time.
//!
//! The engine is *kinetic*, with one clock per pool. A pool keeps its quantities (usage,
//! `ℓ`, `λ`, key, H-DRF's effective vector) as affine functions of its own clock `τ_p`, whose
//! rate per unit of the parent's clock is `1/κ_p` while it grows (`w_p / max_j u_pj` under a
//! degenerate parent, 0 while it waits); the root's clock is the time. Each pool also keeps the clock
//! value of its own next event and of the earliest event in its subtree, so the next event
//! of the whole tree is the root's, found again by descending along the pools that hold it.
//! An event marks its pool and the pool's ancestors dirty; only those are recomputed, the
//! usage rates by differences of their children's contributions. A change of a pool's rate
//! re-anchors that pool's clock only: its subtree, expressed in its clock, is untouched.
//! Work per event: `O(d·(c + m))` rational operations for depth `d` and `c` children per pool
//! (plus `O(m)` per pool with a stopping leaf; a saturation touches every demander's pool).
//!
//! # Number sizes
//! The quantities are exact, and their size is the real cost. The allocation's own reduced
//! numbers set the floor. On the benchmark's 2,000-leaf tree the naive allocation has
//! 4,662-bit denominators: a pool's rate is a ratio of sums over its children, the root sums
//! ten of them, and the first saturation solves one equation over all of them. Event values
//! then stay near that size, because naive's rates depend only on which leaves grow. H-DRF's
//! grow at every saturation and the catch-ups that follow it: a waiting child's vector is
//! rescaled by `λ_p / K_c`, with `K_c` the value its key took at an earlier event, so event
//! values enter the rates of the next phase and, through them, the next event values; the
//! sizes compound. On the generated trees of the benchmark the H-DRF allocation's own
//! denominators have up to 754, 2,974, 26,076 and 51,149 bits at 200, 400, 800 and 2,000
//! leaves (naive: 708, 1,404, 2,594 and 4,662); [`crate::reference`] computes the same
//! allocations (checked up to 800 leaves), so the growth is the allocation's, not an
//! artefact of this engine's accumulation. It does not come from weights or caps: with every
//! weight 1 and no caps the 2,000-leaf tree's H-DRF denominators reach 95,649 bits. The
//! arithmetic on such numbers is mostly gcds, which `Rational`'s big-by-big operations
//! compute by Lehmer's algorithm (quadratic; a profile of the 2,000-leaf tree spends about 80%
//! of the time in them, and GMP's reduced additions and products are only about 1.3× faster
//! at these sizes — see `BENCHMARKS.md`). Fewer distinct demands keep them smaller: with the
//! leaves' demands drawn from a catalog of 8 or 32 task shapes ([`crate::generate::catalog_tree`]) the
//! 2,000-leaf H-DRF denominators stay within 26,545 or 17,992 bits.
//!
//! # Fifo pools and fills from a base
//! The production setups ([`crate::policies::production`]) add two things, both by *wrapper*
//! pools: a leaf child of a fifo pool, or a leaf that starts holding tasks (the clamp rule's
//! fill from its guarantees), sits alone in a pool of its own that stands for it (same
//! weight and normaliser, so the same key). A fifo pool lets only its first active child
//! grow; a wrapper that starts above its siblings' level waits, as any pool child does.
//! Trees without fifo pools filled from zero have no wrappers: their fills are unchanged.
//!
//! [`crate::reference`] is the plain engine that recomputes everything every phase; the
//! test `tests/integration/engines.rs` checks that both agree exactly.

use leontief_solver::{ExactSum, Mode, Rational};

use crate::allocation::{Computation, TreeAllocation};
use crate::error::{Result, SolverError};
use crate::policies::affine::{add_scaled, keep_min};
use crate::policies::hdrf::FluidEffective;
use crate::policies::{Aggregation, FluidPool, TreePolicy};
use crate::tree::{Node, NodeId, Tree};

/// The result of a fluid fill.
pub(crate) struct FluidOutcome {
    /// Tasks per node index (0 for pools).
    pub tasks: Vec<Rational>,
    /// Usage in shares of capacity per node index (pools only; empty for leaves).
    pub usage: Vec<Vec<Rational>>,
    /// Number of distinct event times.
    pub phases: usize,
}

/// The static allocation of `policy` by the fluid fill.
pub(crate) fn fluid_allocation(tree: &Tree, policy: &dyn TreePolicy) -> Result<TreeAllocation> {
    let out = fluid(tree, policy)?;
    Ok(TreeAllocation::from_fluid(
        tree,
        policy.policy(),
        Computation::Fluid { phases: out.phases },
        out.tasks,
        out.usage,
    ))
}

/// How fast a growing child's clock runs per unit of its parent's: `1/κ` so that its key
/// keeps up with the parent's level; under degenerate growth (keys stuck, `κ = 0`), the
/// convention of the module docs: `w / max_j u_j`, at which the dominant share of the child's
/// *additional* allocation rises in proportion to its weight — a physical rate, the same
/// whatever the policy's key units.
fn growth_rate(u: &[Rational], kappa: &Rational, weight: &Rational, degenerate: bool) -> Rational {
    if degenerate {
        let top = u.iter().max().expect("m >= 1");
        weight / top
    } else {
        kappa
            .recip()
            .expect("a growing non-degenerate child has a positive slope")
    }
}

fn scaled(v: &[Rational], factor: &Rational) -> Vec<Rational> {
    v.iter()
        .map(|x| {
            if x.is_zero() {
                Rational::ZERO
            } else {
                x * factor
            }
        })
        .collect()
}

/// One pool. Its quantities are affine functions of its own *clock* `τ` (values at `t0`,
/// rates per unit of `τ`: the rates "per unit of inner rate" of the module docs), and its
/// clock is an affine function of its parent's: `τ = a + (τ_parent − b)·ρ`, with `ρ = 0` when
/// it is not driven. The root's clock is the time `T`. A change of a pool's rate re-anchors
/// only its own relation; its subtree, expressed in its clock, is untouched.
#[derive(Clone, Default)]
struct Pool {
    t0: Rational,
    usage: Vec<Rational>,
    ell: Rational,
    lam: Rational,
    key: Rational,
    /// H-DRF's effective vector.
    v: Vec<Rational>,
    /// Rates per unit of own clock.
    u: Vec<Rational>,
    group_grows: bool,
    degenerate: bool,
    kappa: Rational,
    dv: Vec<Rational>,
    /// Growing pool children.
    growth: Vec<usize>,
    /// The leaf group's part of `u` (`Σ a_l / c_l` when the group grows).
    group_part: Vec<Rational>,
    /// This pool's current contribution to its parent's `u`, and whether it is nonzero.
    contrib: Vec<Rational>,
    contributes: bool,
    /// Relation to the parent's clock.
    a: Rational,
    b: Rational,
    rho: Rational,
    /// Own clock value of the pool's own next event, of the earliest event in its subtree,
    /// and the latter on the parent's clock.
    own_next: Option<Rational>,
    sub_next: Option<Rational>,
    sub_next_parent: Option<Rational>,
}

impl Pool {
    /// Moves the reference point of the affine quantities to own clock `t`.
    fn rebase(&mut self, t: &Rational) {
        self.rebase_with(t, true);
    }

    /// As [`Pool::rebase`]; without `derived`, the key and H-DRF's effective vector are left
    /// stale, for a caller that recomputes them at once ([`Kinetic::restructure`]): moving
    /// them only to overwrite them is `m + 1` big multiply-adds wasted.
    fn rebase_with(&mut self, t: &Rational, derived: bool) {
        if self.t0 == *t {
            return;
        }
        let dt = t - &self.t0;
        add_scaled(&mut self.usage, &self.u, Some(&dt));
        if self.group_grows {
            self.ell += &dt;
        }
        if !self.degenerate {
            self.lam += &dt;
        }
        if derived {
            add_scaled(&mut self.v, &self.dv, Some(&dt));
            if !self.kappa.is_zero() {
                self.key += &dt * &self.kappa;
            }
        }
        self.t0 = t.clone();
    }

    /// `e` (own clock) on the parent's clock, when driven.
    fn to_parent(&self, e: &Rational) -> Option<Rational> {
        (!self.rho.is_zero()).then(|| &self.b + &((e - &self.a) / &self.rho))
    }
}

struct Kinetic<'a> {
    tree: &'a Tree,
    /// Per engine index: the tree node it stands for. Indices past the tree's are *wrapper*
    /// pools, one per leaf that must be alone in its group (a child of a fifo pool, or a
    /// leaf that starts from a base): the wrapper stands for its leaf.
    node_of: Vec<usize>,
    /// Per engine index: a fifo pool (serves its active children one at a time, in order).
    fifo: Vec<bool>,
    /// Per engine index: the tasks a leaf holds at the start (zero unless the setup has a
    /// base); the outcome reports what it adds.
    base_tasks: Vec<Rational>,
    policy: &'a dyn TreePolicy,
    /// H-DRF's aggregation: effective vectors and stopped children's usage are kept.
    effective: bool,
    m: usize,
    /// Per leaf: nonzero `a_lj / c_l` (usage in shares per unit of key), sparse.
    per_key: Vec<Vec<(usize, Rational)>>,
    /// Per leaf: nonzero `a_lj = d_lj / R_j`, sparse.
    share: Vec<Vec<(usize, Rational)>>,
    /// Per leaf: `c_l` (key = `x_l c_l`).
    scale: Vec<Rational>,
    /// Pools, children before parents.
    post: Vec<usize>,
    parent: Vec<Option<usize>>,
    pool_children: Vec<Vec<usize>>,
    demanders: Vec<Vec<usize>>,
    /// Per pool: `(cap key, leaf)` of its capped leaf children, sorted, and a cursor.
    caps: Vec<Vec<(Rational, usize)>>,
    cap_cursor: Vec<usize>,

    active: Vec<bool>,
    active_children: Vec<usize>,
    active_leaves: Vec<usize>,
    x: Vec<Rational>,
    /// Per pool: `Σ a_l / c_l` over the active leaf children; changed since last used.
    group: Vec<Vec<ExactSum>>,
    group_changed: Vec<bool>,
    /// Per pool (H-DRF): the usage of its stopped children (at their caps or blocked).
    settled: Vec<Vec<ExactSum>>,
    saturated: Vec<bool>,
    /// Per pool: its room per resource (shares), if limited, and which are used up.
    room: Vec<Option<Vec<Rational>>>,
    used_up: Vec<Vec<bool>>,

    pools: Vec<Pool>,
    dirty: Vec<bool>,
    /// Clock values at the current time, valid when `clock_epoch[p] == epoch`.
    now: Rational,
    clock: Vec<Rational>,
    clock_epoch: Vec<u64>,
    /// The epoch in which each pool was last restructured.
    restructured: Vec<u64>,
    epoch: u64,
}

/// What a fill starts from besides the tree (`docs/production.md`): which nodes take part,
/// each leaf's task cap, and each pool's room (in shares of capacity) — the root's is what
/// the cluster has left, another pool's what its limit leaves.
///
/// Idle leaves (all-zero demand) and pools with no leaf taking part below them never take
/// part, whatever `alive` says.
pub(crate) struct Setup {
    /// Per node: whether it may take part.
    pub alive: Vec<bool>,
    /// Per leaf: its task cap in this fill (`None`: unbounded).
    pub caps: Vec<Option<Rational>>,
    /// Per pool: its room per resource, in shares of capacity (`None`: no limit; the root
    /// always has one, 1 by default): the most its usage may reach, what it holds at the
    /// start included.
    pub room: Vec<Option<Vec<Rational>>>,
    /// Per leaf: the tasks it holds at the start (`None`: everyone starts from zero). The
    /// keys, usages and rooms count them; the outcome reports only what the fill adds.
    pub base: Option<Vec<Rational>>,
}

impl Setup {
    /// The plain fill: every node, the tree's caps, the whole cluster.
    pub fn plain(tree: &Tree) -> Setup {
        let n = tree.len();
        let mut room = vec![None; n];
        room[0] = Some(vec![Rational::ONE; tree.num_resources()]);
        Setup {
            alive: vec![true; n],
            caps: tree.nodes().map(|v| tree.node(v).cap().cloned()).collect(),
            room,
            base: None,
        }
    }
}

/// Runs the fluid fill of `policy` on `tree` (see the [module docs](self)).
pub(crate) fn fluid(tree: &Tree, policy: &dyn TreePolicy) -> Result<FluidOutcome> {
    fluid_with(tree, policy, &Setup::plain(tree))
}

/// Runs the fluid fill of `policy` on `tree` from `setup`: the nodes that do not take part
/// hold nothing (beyond their base), a cap stops its leaf, and a pool's room on a resource,
/// once used up, stops the leaves below it that demand that resource (the freeze rule of a
/// saturated resource, applied to the pool's subtree).
///
/// A **fifo** pool ([`leontief_solver::Mode::Fifo`]) lets only its first active child (in
/// the order listed) grow; when that child stops, the next one starts. Its key is formed
/// from its aggregate as a fair pool's, with its serving child's key as its children's
/// minimum `λ_p`; under H-DRF its effective vector is its children's vectors unscaled
/// (there are no fair levels among its children to rescale to). Each of its leaf children is
/// wrapped in a pool of its own, so that it can wait while a sibling is served; a leaf that
/// starts from a base is wrapped too, so that it waits until the others catch up with it.
pub(crate) fn fluid_with(
    tree: &Tree,
    policy: &dyn TreePolicy,
    setup: &Setup,
) -> Result<FluidOutcome> {
    let mut k = Kinetic::new(tree, policy, setup);
    let limit = 10_000 + 100 * tree.len() * (k.m + 1);
    let mut phases = 0;
    k.mark_all_dirty();
    k.recompute();
    while k.active[0] {
        if phases >= limit {
            return Err(SolverError::Mechanism {
                mechanism: policy.policy().to_string(),
                reason: format!("the fluid fill did not finish within {limit} phases"),
            });
        }
        phases += 1;
        let now = k.pools[0]
            .sub_next
            .clone()
            .ok_or_else(|| SolverError::Mechanism {
                mechanism: policy.policy().to_string(),
                reason: "the fluid fill found no event ahead while leaves were active".into(),
            })?;
        k.epoch += 1;
        k.now = now;
        let due = k.due();
        for p in due {
            k.fire(p);
        }
        k.recompute();
    }
    let n = tree.len();
    let mut tasks = k.x;
    tasks.truncate(n);
    let usage = k
        .pools
        .iter()
        .take(n)
        .enumerate()
        .map(|(i, p)| {
            if tree.node(tree.node_id(i).expect("in range")).is_leaf() {
                Vec::new()
            } else {
                p.usage.clone()
            }
        })
        .collect();
    Ok(FluidOutcome {
        tasks,
        usage,
        phases,
    })
}

/// A leaf's shares `d_j / R_j` of the resources it demands, and its key per task `c`: the
/// dominant share of one task over the policy's normaliser.
fn leaf_key(
    demand: &[Rational],
    capacity: &[Rational],
    node: &Node,
    policy: &dyn TreePolicy,
) -> (Vec<(usize, Rational)>, Rational) {
    let shares: Vec<(usize, Rational)> = demand
        .iter()
        .zip(capacity)
        .enumerate()
        .filter(|(_, (d, _))| !d.is_zero())
        .map(|(j, (d, r))| (j, d / r))
        .collect();
    let mu = shares
        .iter()
        .map(|(_, a)| a.clone())
        .max()
        .expect("validated: a positive demand");
    let c = &mu / policy.normaliser().of(node);
    (shares, c)
}

impl<'a> Kinetic<'a> {
    fn new(tree: &'a Tree, policy: &'a dyn TreePolicy, setup: &Setup) -> Self {
        let effective = policy.aggregation() == Aggregation::Effective;
        let n = tree.len();
        let m = tree.num_resources();
        let capacity = tree.capacity();
        // Who takes part: a leaf that demands something, is allowed and has room under its
        // cap; a pool with such a leaf below it (children after parents in reverse order).
        let mut alive = vec![false; n];
        for v in tree.nodes().rev() {
            let i = v.index();
            let node = tree.node(v);
            alive[i] = setup.alive[i]
                && if node.is_leaf() {
                    !node.is_idle() && setup.caps[i].as_ref().is_none_or(Rational::is_positive)
                } else {
                    node.children().iter().any(|c| alive[c.index()])
                };
        }
        let held = |i: usize| -> Option<&Rational> {
            setup
                .base
                .as_ref()
                .map(|b| &b[i])
                .filter(|b| b.is_positive())
        };
        // Wrappers: one pool per taking-part leaf that must be alone in its group.
        let mut fifo: Vec<bool> = (0..n)
            .map(|i| {
                let v = tree.node_id(i).expect("in range");
                !tree.node(v).is_leaf() && tree.mode(v) == Mode::Fifo
            })
            .collect();
        let mut node_of: Vec<usize> = (0..n).collect();
        let mut wrapper: Vec<Option<usize>> = vec![None; n];
        for v in tree.leaves() {
            let i = v.index();
            let under_fifo = tree.parent(v).is_some_and(|p| fifo[p.index()]);
            if alive[i] && (under_fifo || held(i).is_some()) {
                wrapper[i] = Some(node_of.len());
                node_of.push(i);
            }
        }
        let total = node_of.len();
        fifo.resize(total, false);
        let mut alive_all = alive.clone();
        alive_all.resize(total, true);
        let mut per_key = vec![Vec::new(); total];
        let mut share = vec![Vec::new(); total];
        let mut scale = vec![Rational::ZERO; total];
        let mut base_tasks = vec![Rational::ZERO; total];
        let mut parent = vec![None; total];
        let mut pool_children = vec![Vec::new(); total];
        let mut demanders = vec![Vec::new(); m];
        let mut caps: Vec<Vec<(Rational, usize)>> = vec![Vec::new(); total];
        let mut active_children = vec![0; total];
        let mut active_leaves = vec![0; total];
        let mut group = vec![Vec::new(); total];
        let mut settled = vec![Vec::new(); total];
        let mut pools = vec![Pool::default(); total];
        let zeros = vec![Rational::ZERO; m];
        let init_pool = |pool: &mut Pool| {
            pool.usage = zeros.clone();
            pool.u = zeros.clone();
            pool.group_part = zeros.clone();
            pool.contrib = zeros.clone();
            if effective {
                pool.v = zeros.clone();
                pool.dv = zeros.clone();
            }
        };
        for v in tree.nodes() {
            let i = v.index();
            let node = tree.node(v);
            parent[i] = node.parent().map(NodeId::index);
            if let Some(w) = wrapper[i] {
                parent[w] = parent[i];
                parent[i] = Some(w);
            }
            if node.is_leaf() && !alive[i] {
                continue;
            }
            if let Some(demand) = node.demand() {
                let p = parent[i].expect("the root is a pool");
                let (shares, c) = leaf_key(demand, capacity, node, policy);
                let inv_c = c.recip().expect("positive");
                per_key[i] = shares.iter().map(|(j, a)| (*j, a * &inv_c)).collect();
                for (j, _) in &shares {
                    demanders[*j].push(i);
                }
                let offset = held(i).map(|b| b * &c);
                if let Some(t) = &setup.caps[i] {
                    let key = t * &c;
                    caps[p].push((offset.as_ref().map_or(key.clone(), |o| o + &key), i));
                }
                if let Some(w) = wrapper[i] {
                    group[w] = vec![ExactSum::new(); m];
                    settled[w] = vec![ExactSum::new(); m];
                    init_pool(&mut pools[w]);
                    active_children[w] = 1;
                    if let Some(o) = offset {
                        pools[w].ell = o;
                    }
                }
                if let Some(b) = held(i) {
                    base_tasks[i] = b.clone();
                }
                share[i] = shares;
                scale[i] = c;
                active_leaves[p] += 1;
            } else {
                group[i] = vec![ExactSum::new(); m];
                settled[i] = vec![ExactSum::new(); m];
                init_pool(&mut pools[i]);
                for &c in node.children() {
                    if !tree.node(c).is_leaf() {
                        pool_children[i].push(c.index());
                    } else if let Some(w) = wrapper[c.index()] {
                        pool_children[i].push(w);
                    }
                }
                active_children[i] = node.children().iter().filter(|c| alive[c.index()]).count();
            }
        }
        for v in tree.leaves().filter(|v| alive[v.index()]) {
            let i = v.index();
            let p = parent[i].expect("the root is a pool");
            for (j, a) in &per_key[i] {
                group[p][*j].add(a);
            }
        }
        if let Some(base) = &setup.base {
            // What the leaves hold at the start: in their pools' usage (wrappers included),
            // and, for H-DRF, in the stopped children's usage of the first living pool.
            for v in tree.leaves() {
                let i = v.index();
                let b = &base[i];
                let Some(d) = tree.node(v).demand().filter(|_| b.is_positive()) else {
                    continue;
                };
                let held: Vec<Rational> = d
                    .iter()
                    .zip(capacity)
                    .map(|(d, r)| {
                        if d.is_zero() {
                            Rational::ZERO
                        } else {
                            d * b / r
                        }
                    })
                    .collect();
                let mut at = parent[i];
                let mut settled_at = (!alive[i]).then_some(());
                while let Some(q) = at {
                    add_scaled(&mut pools[q].usage, &held, None);
                    if effective && settled_at.is_some() && alive_all[q] {
                        for (s, h) in settled[q].iter_mut().zip(&held) {
                            s.add(h);
                        }
                        settled_at = None;
                    }
                    at = parent[q];
                }
            }
        }
        for list in &mut caps {
            list.sort();
        }
        let post: Vec<usize> = (n..total)
            .chain(tree.pools().map(NodeId::index).rev())
            .collect();
        let mut room = setup.room.clone();
        room.resize(total, None);
        let mut used_up = vec![vec![false; m]; total];
        let mut saturated = vec![false; m];
        if setup.base.is_some() {
            // A room the start already fills is used up from the start.
            for (q, r) in room.iter().enumerate() {
                let Some(r) = r else { continue };
                for (j, rj) in r.iter().enumerate() {
                    if pools[q].usage[j] >= *rj {
                        used_up[q][j] = true;
                        if q == 0 {
                            saturated[j] = true;
                        }
                    }
                }
            }
        }
        Kinetic {
            tree,
            node_of,
            fifo,
            base_tasks,
            policy,
            effective,
            m,
            per_key,
            share,
            scale,
            post,
            parent,
            pool_children,
            demanders,
            caps,
            cap_cursor: vec![0; total],
            active: alive_all,
            active_children,
            active_leaves,
            x: vec![Rational::ZERO; total],
            group,
            group_changed: vec![true; total],
            settled,
            saturated,
            room,
            used_up,
            pools,
            dirty: vec![false; total],
            now: Rational::ZERO,
            clock: vec![Rational::ZERO; total],
            clock_epoch: vec![0; total],
            restructured: vec![0; total],
            epoch: 1,
        }
    }

    fn node(&self, p: usize) -> &Node {
        self.tree
            .node(self.tree.node_id(self.node_of[p]).expect("in range"))
    }

    /// Pool `p`'s clock at the current time.
    fn clock_of(&mut self, p: usize) -> Rational {
        if self.clock_epoch[p] == self.epoch {
            return self.clock[p].clone();
        }
        let value = match self.parent[p] {
            None => self.now.clone(),
            Some(q) => {
                let pool = &self.pools[p];
                if pool.rho.is_zero() {
                    pool.a.clone()
                } else {
                    let (a, b, rho) = (pool.a.clone(), pool.b.clone(), pool.rho.clone());
                    let cq = self.clock_of(q);
                    a + (cq - b) * rho
                }
            }
        };
        self.clock[p] = value.clone();
        self.clock_epoch[p] = self.epoch;
        value
    }

    fn set_clock(&mut self, p: usize, value: Rational) {
        self.clock[p] = value;
        self.clock_epoch[p] = self.epoch;
    }

    fn mark_all_dirty(&mut self) {
        for k in 0..self.post.len() {
            let p = self.post[k];
            self.dirty[p] = true;
        }
    }

    fn mark_dirty_path(&mut self, p: usize) {
        let mut at = Some(p);
        while let Some(q) = at {
            if self.dirty[q] {
                break; // its ancestors are marked already
            }
            self.dirty[q] = true;
            at = self.parent[q];
        }
    }

    /// The pools whose own next event is now, found by descending from the root along the
    /// children whose subtree holds the earliest event.
    fn due(&mut self) -> Vec<usize> {
        let now = self.now.clone();
        self.set_clock(0, now);
        let mut due = Vec::new();
        let mut stack = vec![0];
        while let Some(p) = stack.pop() {
            let at = self.clock[p].clone();
            if self.pools[p].own_next.as_ref() == Some(&at) {
                due.push(p);
            }
            for k in 0..self.pool_children[p].len() {
                let c = self.pool_children[p][k];
                if self.active[c] && self.pools[c].sub_next_parent.as_ref() == Some(&at) {
                    let own = self.pools[c].sub_next.clone().expect("has an event");
                    self.set_clock(c, own);
                    stack.push(c);
                }
            }
        }
        due
    }

    /// Applies pool `p`'s events now: saturations (the root), caps in its group; marks it.
    fn fire(&mut self, p: usize) {
        if !self.active[p] {
            return;
        }
        let cp = self.clock_of(p);
        self.pools[p].rebase(&cp);
        self.mark_dirty_path(p);
        if let Some(room) = self.room[p].clone() {
            for (j, room_j) in room.iter().enumerate() {
                if self.used_up[p][j] || self.pools[p].usage[j] < *room_j {
                    continue;
                }
                self.used_up[p][j] = true;
                if p == 0 {
                    self.saturated[j] = true;
                }
                for k in 0..self.demanders[j].len() {
                    let l = self.demanders[j][k];
                    if self.active[l] && self.is_below(l, p) {
                        self.block(l);
                    }
                }
                if p == 0 && self.effective {
                    // Every effective share ignores the saturated resource from now on.
                    self.mark_all_dirty();
                }
            }
        }
        if !self.active[p] || !self.pools[p].group_grows {
            return;
        }
        loop {
            let at = self.cap_cursor[p];
            match self.caps[p].get(at) {
                Some((key, l)) if !self.active[*l] || *key <= self.pools[p].ell => {
                    let l = *l;
                    self.cap_cursor[p] += 1;
                    if self.active[l] {
                        self.block(l);
                    }
                }
                _ => break,
            }
        }
    }

    /// Whether node `l` is in the subtree of pool `p`.
    fn is_below(&self, l: usize, p: usize) -> bool {
        let mut at = Some(l);
        while let Some(q) = at {
            if q == p {
                return true;
            }
            at = self.parent[q];
        }
        false
    }

    /// Stops leaf `l` now: fixes its tasks, removes it from its pool's group, and propagates
    /// inactivity (and satisfaction) upwards.
    fn block(&mut self, l: usize) {
        let p = self.parent[l].expect("a leaf has a parent");
        let cp = self.clock_of(p);
        self.pools[p].rebase(&cp);
        self.active[l] = false;
        let x = &self.pools[p].ell / &self.scale[l];
        for (j, a) in &self.per_key[l] {
            self.group[p][*j].sub(a);
        }
        self.group_changed[p] = true;
        if self.effective {
            // H-DRF counts every stopped child (at its cap or blocked) with its usage.
            for (j, a) in &self.share[l] {
                self.settled[p][*j].add(&(a * &x));
            }
        }
        self.x[l] = &x - &self.base_tasks[l];
        self.active_leaves[p] -= 1;
        self.mark_dirty_path(p);
        let mut q = p;
        loop {
            self.active_children[q] -= 1;
            if self.active_children[q] > 0 {
                break;
            }
            self.active[q] = false;
            let cq = self.clock_of(q);
            self.pools[q].rebase(&cq);
            let pool = &mut self.pools[q];
            pool.own_next = None;
            pool.sub_next = None;
            pool.sub_next_parent = None;
            let Some(pp) = self.parent[q] else { break };
            if self.effective {
                for j in 0..self.m {
                    self.settled[pp][j].add(&self.pools[q].usage[j]);
                }
            }
            q = pp;
        }
    }

    /// Recomputes every dirty active pool now, children first, and clears the marks.
    fn recompute(&mut self) {
        for k in 0..self.post.len() {
            let p = self.post[k];
            if self.dirty[p] {
                self.dirty[p] = false;
                if self.active[p] {
                    self.restructure(p);
                }
            }
        }
    }

    /// Pool `p` now: rebased; its growth set, rates, key, children's relations and next
    /// events recomputed. Its dirty children are done already.
    fn restructure(&mut self, p: usize) {
        self.restructured[p] = self.epoch;
        let cp = self.clock_of(p);
        // The key and the effective vector are recomputed below (the root's are unused).
        self.pools[p].rebase_with(&cp, false);
        let has_group = self.active_leaves[p] > 0;
        let prev_growth = self.pools[p].growth.clone();
        let prev_degenerate = self.pools[p].degenerate;
        // Children's keys now: a restructured child's is fresh; a child growing in a
        // non-degenerate phase has kept its key equal to λ_p; every other child's is constant.
        let mut child_keys: Vec<(usize, Rational)> = Vec::new();
        for k in 0..self.pool_children[p].len() {
            let c = self.pool_children[p][k];
            if !self.active[c] {
                continue;
            }
            let key = if !self.pools[c].rho.is_zero()
                && !prev_degenerate
                && prev_growth.contains(&c)
                && self.restructured[c] != self.epoch
            {
                self.pools[p].lam.clone()
            } else {
                let cc = self.clock_of(c);
                let child = &self.pools[c];
                &child.key + &(&cc - &child.t0) * &child.kappa
            };
            child_keys.push((c, key));
        }
        let ell = self.pools[p].ell.clone();
        let fifo = self.fifo[p];
        let (lam, group_in, mut growth) = if fifo {
            // Its leaves are wrapped: only pool children, served one at a time, in order.
            let (c, key) = child_keys
                .first()
                .expect("an active pool has an active child");
            (key.clone(), false, vec![*c])
        } else {
            let mut lam: Option<&Rational> = has_group.then_some(&ell);
            for (_, key) in &child_keys {
                if lam.is_none_or(|l| key < l) {
                    lam = Some(key);
                }
            }
            let lam = lam.expect("an active pool has an active child").clone();
            let group_in = has_group && ell == lam;
            let growth: Vec<usize> = child_keys
                .iter()
                .filter(|(_, key)| *key == lam)
                .map(|(c, _)| *c)
                .collect();
            (lam, group_in, growth)
        };
        let degenerate = growth.iter().any(|&c| self.pools[c].kappa.is_zero());
        if degenerate {
            // Degenerate children absorb the growth while their siblings stall.
            growth.retain(|&c| self.pools[c].kappa.is_zero());
        }
        let group_grows = group_in && !degenerate;

        // Usage rate u_p by differences: the group's part and every child whose
        // contribution changed.
        let mut u = std::mem::take(&mut self.pools[p].u);
        let group_rate: Option<Vec<Rational>> =
            has_group.then(|| self.group[p].iter_mut().map(ExactSum::value).collect());
        let new_group_part = match (&group_rate, group_grows) {
            (Some(a), true) => a.clone(),
            _ => vec![Rational::ZERO; self.m],
        };
        if new_group_part != self.pools[p].group_part {
            for ((uj, new), old) in u
                .iter_mut()
                .zip(&new_group_part)
                .zip(&self.pools[p].group_part)
            {
                if new != old {
                    *uj += &(new - old);
                }
            }
            self.pools[p].group_part = new_group_part;
        }
        self.group_changed[p] = false;
        for k in 0..self.pool_children[p].len() {
            let c = self.pool_children[p][k];
            let grows = self.active[c] && growth.contains(&c);
            let was = self.pools[c].contributes;
            let same_role = grows == prev_growth.contains(&c) && degenerate == prev_degenerate;
            if !grows && !was {
                continue;
            }
            if grows && was && same_role && self.restructured[c] != self.epoch {
                continue; // unchanged: not restructured now, same role
            }
            let new: Vec<Rational> = if grows {
                let rate = self.child_rate(c, degenerate);
                scaled(&self.pools[c].u, &rate)
            } else {
                vec![Rational::ZERO; self.m]
            };
            for ((uj, nj), oj) in u.iter_mut().zip(&new).zip(&self.pools[c].contrib) {
                if nj != oj {
                    *uj += &(nj - oj);
                }
            }
            let child = &mut self.pools[c];
            child.contrib = new;
            child.contributes = grows;
        }

        let inner = if degenerate {
            Rational::ZERO
        } else {
            Rational::ONE
        };
        let (v, dv) = if self.effective && p != 0 {
            self.effective_vector(
                p,
                &lam,
                &child_keys,
                group_rate.as_deref(),
                &growth,
                degenerate,
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let (key, kappa) = if p == 0 {
            (Rational::ZERO, Rational::ZERO) // the root's key is compared by nobody
        } else {
            self.policy.fluid_key(&FluidPool {
                node: self.node(p),
                usage: &self.pools[p].usage,
                rate: &u,
                lam: &lam,
                dlam: &inner,
                effective: &v,
                effective_rate: &dv,
                saturated: &self.saturated,
            })
        };
        {
            let pool = &mut self.pools[p];
            pool.lam = lam;
            pool.key = key;
            pool.kappa = kappa;
            pool.u = u;
            pool.growth = growth;
            pool.degenerate = degenerate;
            pool.group_grows = group_grows;
            if self.effective && p != 0 {
                pool.v = v;
                pool.dv = dv;
            }
        }

        // Children's relations to this pool's clock; their earliest events on it.
        for k in 0..self.pool_children[p].len() {
            let c = self.pool_children[p][k];
            if !self.active[c] {
                continue;
            }
            let pool = &self.pools[p];
            let rho = if pool.growth.contains(&c) {
                self.child_rate(c, pool.degenerate)
            } else {
                Rational::ZERO
            };
            let restructured = self.restructured[c] == self.epoch;
            if rho != self.pools[c].rho {
                let cc = self.clock_of(c);
                if rho.is_zero() {
                    // A stopped child's quantities are read as constants from now on.
                    self.pools[c].rebase(&cc);
                }
                let child = &mut self.pools[c];
                child.a = cc;
                child.b = cp.clone();
                child.rho = rho;
            } else if !restructured {
                continue;
            }
            let child = &self.pools[c];
            let converted = child.sub_next.as_ref().and_then(|e| child.to_parent(e));
            self.pools[c].sub_next_parent = converted;
        }
        let own = self.own_next_event(p);
        let mut sub = own.clone();
        for &c in &self.pool_children[p] {
            if self.active[c] {
                if let Some(e) = &self.pools[c].sub_next_parent {
                    keep_min(&mut sub, e.clone());
                }
            }
        }
        let pool = &mut self.pools[p];
        pool.own_next = own;
        pool.sub_next = sub;
    }

    /// The clock rate of growing child `c` per unit of its parent's clock: `1/κ_c`, or under
    /// degenerate growth `w_c / max_j u_cj` (see [`growth_rate`]).
    fn child_rate(&self, c: usize, degenerate: bool) -> Rational {
        let child = &self.pools[c];
        growth_rate(&child.u, &child.kappa, self.node(c).weight(), degenerate)
    }

    /// H-DRF's effective vector of pool `p` now and its rate per unit of own clock (see
    /// [`FluidEffective`]): its stopped children's usage, its leaf group, its active pool
    /// children's vectors, brought to the current time.
    fn effective_vector(
        &mut self,
        p: usize,
        lam: &Rational,
        child_keys: &[(usize, Rational)],
        group_rate: Option<&[Rational]>,
        growth: &[usize],
        degenerate: bool,
    ) -> (Vec<Rational>, Vec<Rational>) {
        let settled = self.settled[p].iter_mut().map(ExactSum::value).collect();
        let mut sum = FluidEffective::new(settled, lam, degenerate);
        if let Some(a) = group_rate {
            sum.add_leaf_group(a);
        }
        for (c, key) in child_keys {
            let cc = self.clock_of(*c);
            let child = &self.pools[*c];
            let mut vc = child.v.clone();
            if cc != child.t0 {
                add_scaled(&mut vc, &child.dv, Some(&(&cc - &child.t0)));
            }
            let rate = (key == lam && growth.contains(c)).then(|| self.child_rate(*c, degenerate));
            // A fifo pool's children are not levelled: their vectors count as they are.
            let key = if self.fifo[p] { lam } else { key };
            sum.add_child(&vc, &self.pools[*c].dv, key, rate.as_ref());
        }
        sum.finish()
    }

    /// Own clock value of pool `p`'s own next event (its quantities are at `t0`, now).
    fn own_next_event(&mut self, p: usize) -> Option<Rational> {
        let pool = &self.pools[p];
        let mut best: Option<Rational> = None;
        let dlam = if pool.degenerate {
            Rational::ZERO
        } else {
            Rational::ONE
        };
        if p != 0 {
            // The policy's key changes its formula (the root's key is used by nobody).
            let view = FluidPool {
                node: self.node(p),
                usage: &pool.usage,
                rate: &pool.u,
                lam: &pool.lam,
                dlam: &dlam,
                effective: &pool.v,
                effective_rate: &pool.dv,
                saturated: &self.saturated,
            };
            if let Some(dt) = self.policy.fluid_breakpoint(&view) {
                keep_min(&mut best, dt);
            }
        }
        if !pool.degenerate && !self.fifo[p] {
            // A waiting child (or the leaf group) is caught up; waiting keys are constant.
            for &c in &self.pool_children[p] {
                if self.active[c] && !pool.growth.contains(&c) {
                    let key = &self.pools[c].key;
                    if *key > pool.lam {
                        keep_min(&mut best, key - &pool.lam);
                    }
                }
            }
            if self.active_leaves[p] > 0 && pool.ell > pool.lam {
                keep_min(&mut best, &pool.ell - &pool.lam);
            }
        }
        if pool.group_grows {
            let list = &self.caps[p];
            let mut at = self.cap_cursor[p];
            while at < list.len() && !self.active[list[at].1] {
                at += 1;
            }
            self.cap_cursor[p] = at;
            if let Some((key, _)) = list.get(at) {
                keep_min(&mut best, key - &pool.ell);
            }
        }
        if let Some(room) = &self.room[p] {
            // A resource of the cluster saturates, or a pool's limit binds.
            for (j, room_j) in room.iter().enumerate() {
                if !self.used_up[p][j] && pool.u[j].is_positive() {
                    keep_min(&mut best, (room_j - &pool.usage[j]) / &pool.u[j]);
                }
            }
        }
        best.map(|dt| &pool.t0 + &dt)
    }
}
