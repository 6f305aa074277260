//! Guarantees, limits, idle leaves and empty pools under every static policy
//! (`docs/production.md`).
//!
//! # The rule (additive: guarantees first, then fair sharing of the rest)
//! 1. **Guarantees**, bottom-up. A leaf with a guarantee vector `g` first gets
//!    `min(T, min_{r: d_r > 0} g_r / d_r)` tasks, `T` the most it may hold (its task cap and
//!    its limit, `min_r L_r / d_r`). A pool with a guarantee `G` (written, or its children's
//!    sum) first lets its children take theirs, then shares what remains of `G` inside its
//!    subtree by the policy's own fill: its subtree alone, from zero, with `G` minus what its
//!    leaves took as the room.
//! 2. **Fair sharing of the rest**: the policy's fill on the whole tree from zero, counting
//!    only what it adds (keys measure the increments over the guarantees, the additive rule
//!    of YTsaurus), with the cluster's remaining capacity as room and every leaf's cap
//!    lowered by what it took in step 1.
//! 3. **Limits** cap a subtree's aggregate vector in both steps: a limited pool's remaining
//!    room on a resource, once used up, stops the leaves below it that demand that resource
//!    — the freeze rule of a saturated resource, applied to the pool's subtree. A leaf's
//!    limit lowers its task cap.
//!
//! Under the **clamp** rule ([`GuaranteeRule::Clamp`], YARN's `max(w·R, minResources)`),
//! the fills of both steps start from what the guarantees gave instead of from zero: the
//! keys compare everything a node holds, guarantee included, and every room is absolute (a
//! limit, the cluster, a pool's guarantee while it is shared inside it).
//!
//! Idle leaves and pools with nothing below them take part in neither step: they get
//! nothing ([`Tree::notes`] says so). Running usage is an input to ordering, not to static
//! allocations: it is ignored here. FIFO pools are honoured by the fill itself
//! ([`crate::fill`]): in both steps a fifo pool serves its children in the order listed;
//! step 1 gives its children's guarantees whatever their place.
//!
//! Shares stay shares of the whole cluster (`d_r / R_r`) in every step: a room changes where
//! growth stops, not what the keys compare.
//!
//! # Complexity
//! One fluid fill per pool with a guarantee that its children leave partly unused, plus the
//! final one. Fifo pools and the clamp rule's fills add one wrapper pool per leaf child of a
//! fifo pool, or per leaf that starts with tasks ([`crate::fill`]).
//!
//! # Example
//! YARN's `TestComputeFairShares.testWeightedSharingWithMinShares` (apache/hadoop): min 20,
//! 0, 5, 15, weights 2, 1, 1, 1/2, on 45 — YARN's clamp rule gives 20, 5, 5, 15; the
//! additive rule 20 + 20/9, 10/9, 5 + 10/9, 15 + 5/9.
//! ```
//! use leontief_hdrf::{allocate, GuaranteeRule, Policy, Rules, Tree};
//! let doc = serde_json::json!({"capacity": [45], "tree": {"children": [
//!     {"name": "a", "weight": 2, "guarantee": [20], "demand": [1]},
//!     {"name": "b", "demand": [1]},
//!     {"name": "c", "guarantee": [5], "demand": [1]},
//!     {"name": "d", "weight": "1/2", "guarantee": [15], "demand": [1]}]}});
//! let tasks = |rules| {
//!     let tree = Tree::from_json_with(&doc, rules).unwrap();
//!     let x = allocate(&tree, Policy::Hdrf).unwrap();
//!     tree.leaves().map(|v| x.tasks(v).unwrap().to_string()).collect::<Vec<_>>()
//! };
//! let clamp = Rules { guarantees: GuaranteeRule::Clamp, ..Rules::default() };
//! assert_eq!(tasks(clamp), ["20", "5", "5", "15"]);
//! assert_eq!(tasks(Rules::default()), ["200/9", "10/9", "55/9", "140/9"]);
//! ```
//!
//! # References
//! Apache Hadoop, `ComputeFairShares.java` and `TestComputeFairShares.java`; YTsaurus,
//! `yt/yt/library/vector_hdrf/fair_share_update.cpp` (`docs/production.md`, References).

use leontief_solver::{GuaranteeRule, Rational};

use crate::allocation::{Computation, TreeAllocation};
use crate::error::Result;
use crate::fill::{fluid_with, Setup};
use crate::{NodeId, Policy, Tree};

/// The allocation of `policy` on a tree with production fields (see the [module
/// docs](self)).
pub(crate) fn allocate(tree: &Tree, policy: Policy) -> Result<TreeAllocation> {
    let clamp = tree.instance().rules().guarantees == GuaranteeRule::Clamp;
    let n = tree.len();
    let capacity = tree.capacity();
    // The most tasks each leaf may hold: its cap and its limit.
    let most: Vec<Option<Rational>> = tree.nodes().map(|v| most_tasks(tree, v)).collect();
    let mut base = vec![Rational::ZERO; n];
    let mut phases = 0;
    for v in tree.nodes().rev().filter(|&v| v != NodeId::ROOT) {
        let g = tree.node(v).guarantee();
        if g.iter().all(Rational::is_zero) {
            continue;
        }
        let node = tree.node(v);
        if node.is_leaf() {
            if node.is_idle() {
                continue;
            }
            let d = node.demand().expect("a leaf");
            let mut t = tasks_within(d, g).expect("a leaf that is not idle demands something");
            if let Some(top) = &most[v.index()]
                && *top < t
            {
                t = top.clone();
            }
            base[v.index()] = t;
            continue;
        }
        let used = usage_below(tree, v, &base);
        let residual: Vec<Rational> = g.iter().zip(&used).map(|(g, u)| g - u).collect();
        if residual.iter().all(|r| !r.is_positive()) {
            continue;
        }
        let mut alive = vec![false; n];
        // The subtree of `v` and its ancestors.
        for u in tree.subtree(v).into_iter().chain(tree.ancestors(v)) {
            alive[u.index()] = true;
        }
        let setup = setup(tree, &most, &base, alive, &residual, Some((v, g)), clamp);
        let out = fluid_with(tree, policy, &setup)?;
        phases += out.phases;
        for u in tree.subtree(v) {
            // Pools hold no tasks.
            base[u.index()] += &out.tasks[u.index()];
        }
    }
    let used = usage_below(tree, NodeId::ROOT, &base);
    let residual: Vec<Rational> = capacity.iter().zip(&used).map(|(c, u)| c - u).collect();
    let setup = setup(tree, &most, &base, vec![true; n], &residual, None, clamp);
    let out = fluid_with(tree, policy, &setup)?;
    phases += out.phases;
    for (b, x) in base.iter_mut().zip(&out.tasks) {
        *b += x;
    }
    Ok(TreeAllocation::from_node_tasks(
        tree,
        policy,
        Computation::Fluid { phases },
        base,
    ))
}

/// The most tasks leaf `v` may hold: `min(T, min_{r: d_r > 0} L_r / d_r)`; `None`
/// (unbounded) for a pool or an uncapped, unlimited leaf.
pub(crate) fn most_tasks(tree: &Tree, v: NodeId) -> Option<Rational> {
    let node = tree.node(v);
    let d = node.demand()?;
    let by_limit = node.limit().and_then(|l| tasks_within(d, l));
    match (node.cap().cloned(), by_limit) {
        (Some(a), Some(b)) => Some(if a < b { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// The tasks of demand `d` that `x` holds: `min_{j: d_j > 0} x_j / d_j` (`None` for an idle
/// demand).
pub(crate) fn tasks_within(d: &[Rational], x: &[Rational]) -> Option<Rational> {
    d.iter()
        .zip(x)
        .filter(|(d, _)| !d.is_zero())
        .map(|(d, x)| x / d)
        .min()
}

/// What the leaves below `v` hold with `tasks`, per resource.
fn usage_below(tree: &Tree, v: NodeId, tasks: &[Rational]) -> Vec<Rational> {
    let mut sum = vec![Rational::ZERO; tree.num_resources()];
    for l in tree.subtree(v) {
        let x = &tasks[l.index()];
        let (Some(demand), false) = (tree.node(l).demand(), x.is_zero()) else {
            continue;
        };
        for (s, d) in sum.iter_mut().zip(demand) {
            if !d.is_zero() {
                *s += &(d * x);
            }
        }
    }
    sum
}

/// A fill's setup after `base`, inside `within`'s subtree when given (a pool and its
/// guarantee `G`; the pools above it are bounded by `G` already). Caps are lowered by
/// `base`; a leaf that demands a resource with no room left above it does not take part.
///
/// Under the additive rule the fill counts only what it adds: the root's room is `residual`,
/// a limited pool's what its limit leaves. Under the `clamp` rule it starts from `base`, so
/// that the keys compare everything a node holds, and every room is absolute: the cluster's,
/// each limited pool's limit, and `within`'s guarantee `G` as its room.
fn setup(
    tree: &Tree,
    most: &[Option<Rational>],
    base: &[Rational],
    mut alive: Vec<bool>,
    residual: &[Rational],
    within: Option<(NodeId, &[Rational])>,
    clamp: bool,
) -> Setup {
    let n = tree.len();
    let capacity = tree.capacity();
    let shares = |amounts: &[Rational]| -> Vec<Rational> {
        amounts
            .iter()
            .zip(capacity)
            .map(|(a, r)| {
                if a.is_positive() {
                    a / r
                } else {
                    Rational::ZERO
                }
            })
            .collect()
    };
    let mut room: Vec<Option<Vec<Rational>>> = vec![None; n];
    room[0] = Some(if clamp {
        vec![Rational::ONE; capacity.len()]
    } else {
        shares(residual)
    });
    let limited = match within {
        Some((v, _)) => tree.subtree(v).split_off(1), // below `v`, which comes first
        None => tree.nodes().collect(),
    };
    for u in limited {
        if tree.node(u).is_leaf() {
            continue;
        }
        if let Some(l) = tree.node(u).limit() {
            let left: Vec<Rational> = if clamp {
                l.to_vec()
            } else {
                let used = usage_below(tree, u, base);
                l.iter().zip(&used).map(|(l, u)| l - u).collect()
            };
            room[u.index()] = Some(shares(&left));
        }
    }
    if let (true, Some((v, g))) = (clamp, within) {
        // The guarantee bounds the pool in this fill (a limit is at least the guarantee).
        room[v.index()] = Some(shares(g));
    }
    let caps: Vec<Option<Rational>> = (0..n)
        .map(|i| most[i].as_ref().map(|t| t - &base[i]))
        .collect();
    // Per resource, whether a room is full already: what the fill starts from fills it.
    let full: Vec<Option<Vec<bool>>> = tree
        .nodes()
        .map(|a| {
            room[a.index()].as_ref().map(|r| {
                let held = if clamp {
                    shares(&usage_below(tree, a, base))
                } else {
                    vec![Rational::ZERO; r.len()]
                };
                r.iter().zip(held).map(|(r, h)| h >= *r).collect()
            })
        })
        .collect();
    retire_blocked(tree, &mut alive, |a, j| {
        full[a.index()].as_ref().is_some_and(|f| f[j])
    });
    Setup {
        alive,
        caps,
        room,
        base: clamp.then(|| base.to_vec()),
    }
}

/// Takes out of the fill every leaf that demands a resource `j` whose room is used up at the
/// leaf or at a pool above it (`exhausted(node, j)`): the freeze rule of a saturated
/// resource, applied to each room.
fn retire_blocked(tree: &Tree, alive: &mut [bool], exhausted: impl Fn(NodeId, usize) -> bool) {
    for l in tree.leaves() {
        if !alive[l.index()] {
            continue;
        }
        let d = tree.node(l).demand().expect("a leaf");
        let blocked = tree.ancestors(l).any(|a| {
            d.iter()
                .enumerate()
                .any(|(j, d)| !d.is_zero() && exhausted(a, j))
        });
        alive[l.index()] = !blocked;
    }
}
