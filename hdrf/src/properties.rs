//! Hierarchical properties of an allocation, decided exactly, each failure with a witness.
//!
//! - **Share guarantee** (`docs/theory.md` §4): every node with unmet demand (some leaf below
//!   it is under its cap, or uncapped) holds at least `g_v` of its dominant resource:
//!   `S_v >= g_v`. A node whose leaves all reached their caps holds all it demands. Decided
//!   by the solver's oracle on the tree's instance
//!   (`leontief_solver::properties::allocation::share_guarantee_violations`), the one the
//!   `sg` property of the hierarchical mechanisms uses.
//! - **Pareto efficiency**: for non-wasteful Leontief allocations, every leaf below its cap
//!   demands a saturated resource.
//! - **Feasibility**: tasks non-negative and within caps, use within capacities.
//!
//! # Example
//! ```
//! use leontief_hdrf::{allocate, properties, Policy, Tree};
//! let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
//!     {"name": "P", "children": [{"name": "P1", "demand": [1, 0]}, {"name": "P2", "demand": [0, 1]}]},
//!     {"name": "Q", "children": [{"name": "Q1", "demand": [1, 1]}]}]}}"#).unwrap();
//! let flat = allocate(&tree, Policy::Collapsed).unwrap();
//! let bad = properties::share_guarantee(&tree, &flat);
//! assert_eq!(bad.len(), 1);
//! assert_eq!(tree.path(bad[0].node), "root/P");
//! assert_eq!(bad[0].dominant_share.to_string(), "1/3");
//! assert!(properties::share_guarantee(&tree, &allocate(&tree, Policy::Hdrf).unwrap()).is_empty());
//! ```

use leontief_solver::properties::allocation::share_guarantee_violations;
use leontief_solver::{Allocation, Rational};

use crate::allocation::TreeAllocation;
use crate::policies::production::tasks_within;
use crate::{NodeId, Tree};

/// A node with unmet demand below its guaranteed share.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShareViolation {
    /// The node.
    pub node: NodeId,
    /// Its guaranteed share `g_v`.
    pub guaranteed_share: Rational,
    /// Its dominant share `S_v < g_v`.
    pub dominant_share: Rational,
    /// A leaf below it (or itself) under its cap: the unmet demand.
    pub unmet_leaf: NodeId,
}

/// A leaf that could run more tasks without taking anything from anyone.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParetoViolation {
    /// The leaf: below its cap, and no resource it demands is saturated.
    pub leaf: NodeId,
    /// How many more tasks it could run with the idle resources (and its cap).
    pub room: Rational,
}

/// Nodes with unmet demand holding less than their guaranteed share, in pre-order (the
/// root included).
///
/// # Complexity
/// `O(N·n·m)` for `N` nodes, `n` leaves and `m` resources.
pub fn share_guarantee(tree: &Tree, alloc: &TreeAllocation) -> Vec<ShareViolation> {
    // The tree's instance lists the leaves' users in pre-order.
    // Idle leaves are not the instance's users.
    let tasks = (tree.leaves())
        .filter(|&l| !tree.node(l).is_idle())
        .map(|l| alloc.tasks(l).cloned().unwrap_or(Rational::ZERO))
        .collect();
    let instance = tree.instance();
    let h = instance.hierarchy();
    share_guarantee_violations(instance, &Allocation::new(tasks))
        .expect("one task count per leaf")
        .into_iter()
        .map(|w| ShareViolation {
            node: tree.node_id(w.vertex).expect("the same tree"),
            guaranteed_share: w.guaranteed,
            dominant_share: w.dominant_share,
            unmet_leaf: tree.node_id(h.leaf(w.unmet_user)).expect("the same tree"),
        })
        .collect()
}

/// Leaves below their caps that demand no saturated resource and no resource a limit on
/// them or above them has used up (empty: Pareto efficient; `docs/production.md`).
///
/// # Complexity
/// `O(n·m)` for `n` leaves, plus `O(n·d·m)` for depth `d` when the tree has limits.
pub fn pareto_violations(tree: &Tree, alloc: &TreeAllocation) -> Vec<ParetoViolation> {
    let used = tree.capacity().iter().zip(alloc.consumption());
    let free: Vec<Rational> = used.map(|(r, u)| r - u).collect();
    tree.leaves()
        .filter_map(|l| {
            let demand = tree.node(l).demand().expect("a leaf");
            // An idle leaf can use nothing: never a violation.
            let mut room = tasks_within(demand, &free)?;
            if let (Some(t), Some(x)) = (tree.node(l).cap(), alloc.tasks(l)) {
                room = room.min(t - x);
            }
            // A limit binds like a capacity on the leaves below it.
            for a in tree.ancestors(l) {
                if let Some(limit) = tree.node(a).limit() {
                    let held = &alloc.node(a).allocation;
                    for ((d, h), lim) in demand.iter().zip(held).zip(limit) {
                        if d.is_positive() {
                            room = room.min((lim - h) / d);
                        }
                    }
                }
            }
            room.is_positive()
                .then_some(ParetoViolation { leaf: l, room })
        })
        .collect()
}

/// Whether every leaf's tasks are non-negative and within its cap and every resource's use
/// within its capacity.
pub fn is_feasible(tree: &Tree, alloc: &TreeAllocation) -> bool {
    let tasks_ok = tree.leaves().all(|l| match alloc.tasks(l) {
        Some(x) => !x.is_negative() && tree.node(l).cap().is_none_or(|t| x <= t),
        None => false,
    });
    tasks_ok
        && alloc
            .consumption()
            .iter()
            .zip(tree.capacity())
            .all(|(u, r)| u <= r)
}
