//! The shared machinery of the hierarchical policies: an exact, event-driven fluid fill.
//!
//! The engine knows no policy by name: each one's key, its rate and its breakpoints come from
//! its [`Policy`] (one file each in [`crate::policies`]); the engine only keeps H-DRF's
//! effective vectors and its stopped children's usage when the policy aggregates that way
//! ([`Aggregation::Effective`](crate::policies::Aggregation::Effective)).
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
//! task-by-task fills do not converge to this fill (see the tests' `tests/integration/common/discrete.rs`). It is stated in physical
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
//! leaves (naive: 708, 1,404, 2,594 and 4,662); the plain engine of the tests computes the same
//! allocations (checked up to 800 leaves), so the growth is the allocation's, not an
//! artefact of this engine's accumulation. It does not come from weights or caps: with every
//! weight 1 and no caps the 2,000-leaf tree's H-DRF denominators reach 95,649 bits. The
//! arithmetic on such numbers is mostly gcds, which `Rational`'s big-by-big operations
//! compute by Lehmer's algorithm (quadratic; a profile of the 2,000-leaf tree spends about 80%
//! of the time in them, and GMP's reduced additions and products are only about 1.3× faster
//! at these sizes — see `BENCHMARKS.md`). Fewer distinct demands keep them smaller: with the
//! leaves' demands drawn from a catalog of 8 or 32 task shapes ([`crate::random_trees::catalog_tree`]) the
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
//! `tests/integration/plain_engine.rs` is the plain engine that recomputes everything every
//! phase; the tests of `tests/integration/engines.rs` check that both agree exactly.

use leontief_solver::{ExactSum, Rational};

use crate::allocation::{Computation, TreeAllocation};
use crate::error::{Result, SolverError};
use crate::policies::affine::add_scaled;
use crate::{NodeView, Policy, Tree};

mod events;
mod init;
mod structure;

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
pub(crate) fn fluid_allocation(tree: &Tree, policy: Policy) -> Result<TreeAllocation> {
    // The plain fill: every node, the tree's caps, the whole cluster.
    let n = tree.len();
    let mut room = vec![None; n];
    room[0] = Some(vec![Rational::ONE; tree.num_resources()]);
    let plain = Setup {
        alive: vec![true; n],
        caps: tree.nodes().map(|v| tree.node(v).cap().cloned()).collect(),
        room,
        base: None,
    };
    let out = fluid_with(tree, policy, &plain)?;
    Ok(TreeAllocation::from_fluid(
        tree,
        policy,
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

/// `u += new - old`, entry by entry, skipping the unchanged entries.
fn add_difference(u: &mut [Rational], new: &[Rational], old: &[Rational]) {
    for ((uj, new), old) in u.iter_mut().zip(new).zip(old) {
        if new != old {
            *uj += &(new - old);
        }
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
    policy: Policy,
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
pub(crate) fn fluid_with(tree: &Tree, policy: Policy, setup: &Setup) -> Result<FluidOutcome> {
    let mut k = Kinetic::new(tree, policy, setup);
    let limit = 10_000 + 100 * tree.len() * (k.m + 1);
    let mut phases = 0;
    k.mark_all_dirty();
    k.recompute();
    while k.active[0] {
        if phases >= limit {
            return Err(SolverError::Mechanism {
                mechanism: policy.to_string(),
                reason: format!("the fluid fill did not finish within {limit} phases"),
            });
        }
        phases += 1;
        let now = k.pools[0]
            .sub_next
            .clone()
            .ok_or_else(|| SolverError::Mechanism {
                mechanism: policy.to_string(),
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
    node: NodeView<'_>,
    policy: Policy,
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
