//! Naive HDRF: descend from the root, at every pool to the child with the smallest
//! `dominant share / weight`.
//!
//! The second proposal of the Yandex lecture on resource allocation in large clusters (2016)
//! and the H-DRF paper's strawman. A pool's dominant share is that of the **sum** of all its
//! leaves' bundles (blocked leaves included), a maximum over resources, so it is piecewise
//! linear and its dominant resource can change during the fill.
//! A one-shot fill from zero looks fair; under task churn it starves (the lecture's
//! A = (1,0) vs B = {B1 = (1,0), B2 = (0,1)}: once B2 holds all memory, B's dominant share
//! is 1 and every CPU that B1 frees goes to A) — that is the simulator's business, not this
//! module's.
//!
//! # Fluid definition (exact)
//! Key `K_v = S_v / w_v`, with `S_v` the dominant share of everything below `v`. At every
//! pool, the active children with the smallest key grow and keep equal keys (water-filling);
//! a leaf stops when a resource it demands saturates or it reaches its cap; a pool stops when
//! all its leaves have. Starting from zero, the growing children of a pool always have equal
//! keys, so the per-phase rates are those of one linear system per pool, solved bottom-up:
//! a pool whose dominant resource is `j*` raises its key at the rate its growing leaves
//! consume `j*`, divided by `w_v` (shares are relative to `R_j`).
//!
//! Tie-break that the definition needs: a pool that grows *without* raising its key (its
//! dominant resource is used only by stopped leaves — it happens with weights and caps) is
//! *degenerate*; the task-by-task rule hands it every task until its key starts rising, so
//! in the fluid limit it grows while its tied siblings wait. When several tied siblings are
//! degenerate they grow together, each so that the dominant share of its additional
//! allocation rises in proportion to its weight (our convention; see [`crate::fill`]).

use crate::allocation::TreeAllocation;
use crate::error::Result;
use crate::Policy;
use crate::Tree;

/// The naive HDRF allocation: the exact fluid limit of a fill from zero (see the
/// [module docs](self)).
///
/// # Complexity
/// Event-driven: `O(P·(m + c))` rational operations per phase for `P` pools with `c`
/// children each, plus `O(m)` per stopping leaf. Phases: one per saturation, per cap, per
/// caught-up child and per change of a pool's dominant resource — typically `O(n + P·m)`.
///
/// # Example
/// The lecture's example (A = (1,0), B = {B1 = (1,0), B2 = (0,1)}, capacities (1,1)): the
/// fill gives A and B 1/2 of the CPU each (B also 1/2 of the memory through B2); the CPU
/// saturates, and B2 takes the rest of the memory.
/// ```
/// use leontief_hdrf::{naive, Tree};
/// let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
///     {"name": "A", "demand": [1, 0]},
///     {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
/// let x = naive(&tree).unwrap();
/// let tasks = |name| x.tasks(tree.find(name).unwrap()).unwrap().to_string();
/// assert_eq!([tasks("A"), tasks("B1"), tasks("B2")], ["1/2", "1/2", "1"]);
/// ```
///
/// # References
/// - A. Bhattacharya, D. Culler, E. Friedman, A. Ghodsi, S. Shenker, I. Stoica.
///   *Hierarchical Scheduling for Diverse Datacenter Workloads.* SoCC 2013 (naive H-DRF and
///   its starvation).
/// - The Yandex lecture on resource allocation in large clusters ("Распределение ресурсов в
///   больших кластерах", 2016, transcript): naive HDRF and its starvation.
pub fn naive(tree: &Tree) -> Result<TreeAllocation> {
    crate::allocate(tree, Policy::Naive)
}
