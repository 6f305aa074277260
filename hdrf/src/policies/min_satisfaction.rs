//! Min-satisfaction HDRF: at every pool, grow the child whose subtree holds the smallest
//! satisfaction among its **active** nodes — the child itself and all its descendants.
//!
//! Satisfaction is `σ_v = S_v / g_v` (dominant share over guaranteed share). The Yandex
//! lecture on resource allocation in large clusters (2016) presents it as the fix of naive
//! HDRF's starvation and claims it gives every node at least its guaranteed share. Including the pools' own satisfaction is the
//! point: taking the minimum over the leaves only makes every pool compare its leaves'
//! `x mu / g`, which is exactly `collapsed` (`docs/theory.md` §4).
//!
//! # Fluid definition (exact)
//! Key `K_v = min { σ_u : u in the subtree of v, u active }` (active: some leaf below `u`
//! can still grow), i.e. `K_leaf = σ_leaf` and `K_pool = min(σ_pool, min over active
//! children K_c)`. At every pool the active children with the smallest key grow and keep
//! equal keys (water-filling); a child above the minimum waits until the others catch up —
//! keys never drop, but a key jumps *up* when the node holding the minimum stops being
//! active. Inside a growing pool, growth goes to its own minimal children whatever the pool's
//! own `σ`: when `σ_v` is the smaller term of `K_v`, `K_v` rises at the rate the children's
//! growth raises `σ_v`.
//!
//! # Statically it is naive HDRF
//! The static fill from zero of min-satisfaction HDRF is exactly that of [`crate::naive()`].
//! Proof: inside a pool `c` the active children are water-filled at a common level
//! `S_child / w_child = λ` (blocked ones below it), so
//! `S_c = max_j Σ_child U_child,j <= Σ_child S_child <= λ Σ_child w_child`, that is
//! `σ_c <= σ_child` for every active child; by induction `σ_c` is the minimum of `c`'s active
//! subtree, so the key is `σ_c = S_c / g_c = (W_p / g_p) · S_c / w_c` — naive's key times a
//! factor common to all siblings. The two policies differ only under churn, which is what
//! the lecture's example is about (`tests/integration/properties.rs` checks the identity on random trees).
//!
//! Ties are equalised (all tied children grow). A child whose key cannot rise (its `σ` is
//! the binding term and its growth does not use its dominant resource) is *degenerate* and
//! grows while its tied siblings wait, as the task-by-task rule would do; several degenerate
//! tied siblings grow together, each so that the dominant share of its additional allocation
//! rises in proportion to its weight (our convention, the same as naive HDRF's; see
//! [`crate::fill`]).

use crate::allocation::TreeAllocation;
use crate::error::Result;
use crate::Policy;
use crate::Tree;

/// The min-satisfaction HDRF allocation: the exact fluid limit of a fill from zero (see the
/// [module docs](self)).
///
/// # Complexity
/// As [`crate::naive()`]: `O(P·(m + c))` rational operations per phase, plus `O(m)` per
/// stopping leaf.
///
/// # Example
/// The flattening failure: pool P = {P1 = (1,0), P2 = (0,1)} against Q = {Q1 = (1,1)},
/// capacities (1,1). `collapsed` leaves P with 1/3 of each resource, below its guarantee
/// 1/2; min-satisfaction gives P 1/2 of both.
/// ```
/// use leontief_hdrf::{collapsed, min_satisfaction, Tree};
/// let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
///     {"name": "P", "children": [{"name": "P1", "demand": [1, 0]}, {"name": "P2", "demand": [0, 1]}]},
///     {"name": "Q", "children": [{"name": "Q1", "demand": [1, 1]}]}]}}"#).unwrap();
/// let p = tree.find("P").unwrap();
/// assert_eq!(collapsed(&tree).dominant_share(p).to_string(), "1/3");
/// assert_eq!(min_satisfaction(&tree).unwrap().dominant_share(p).to_string(), "1/2");
/// ```
///
/// # References
/// - The Yandex lecture on resource allocation in large clusters ("Распределение ресурсов в
///   больших кластерах", 2016, transcript): flattening, naive HDRF's starvation,
///   min-satisfaction HDRF.
pub fn min_satisfaction(tree: &Tree) -> Result<TreeAllocation> {
    crate::allocate(tree, Policy::MinSatisfaction)
}
