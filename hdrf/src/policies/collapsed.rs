//! `collapsed`: flatten the tree and run weighted DRF over the leaves with weights `g_leaf`.
//!
//! This is what the Yandex lecture on resource allocation in large clusters (2016) calls the
//! first naive proposal: compute every leaf's guaranteed share of the whole cluster and forget
//! the pools. Each leaf gets at least its `g_leaf` of its dominant resource, but a pool whose
//! leaves have different dominant resources can end below `g_pool` of every resource
//! (`docs/theory.md` §4; the test `flattening` builds the smallest such tree).
//!
//! # Fluid definition
//! Extended weighted DRF by progressive filling (Parkes, Procaccia and Shah's freeze rule:
//! a saturated resource freezes exactly its demanders; a cap freezes its leaf): every unfrozen
//! leaf holds `x_l = λ g_l / mu_l` as `λ` rises. Exact and unique; no tie-breaking.

use leontief_solver::drf::progressive_filling_by;
use leontief_solver::{FreezeRule, Rational};

use crate::allocation::{Computation, TreeAllocation};
use crate::Policy;
use crate::Tree;

/// The `collapsed` allocation: weighted DRF over the leaves with weights `g_leaf`, computed by
/// [`progressive_filling_by`] with per-task share `mu_l / g_l`.
///
/// # Complexity
/// That of progressive filling: `O(n·m + n log n)` rational operations for `n` leaves.
///
/// # Example
/// The H-DRF paper's example (Bhattacharya et al., SoCC 2013): `n1 = (0, 1)` against the pool
/// `n2 = {n21 = (1, 0), n22 = (0, 1)}`. Flattened, `n1` weighs 1/2 and `n22` 1/4 on memory,
/// so memory splits 2/3 : 1/3, and `n21` takes all the CPU.
/// ```
/// use leontief_hdrf::{collapsed, Tree};
/// let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
///     {"name": "n1", "demand": [0, 1]},
///     {"name": "n2", "children": [{"name": "n21", "demand": [1, 0]}, {"name": "n22", "demand": [0, 1]}]}]}}"#).unwrap();
/// let x = collapsed(&tree);
/// let share = |name| x.dominant_share(tree.find(name).unwrap()).to_string();
/// assert_eq!([share("n1"), share("n21"), share("n22")], ["2/3", "1", "1/3"]);
/// ```
///
/// # References
/// - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011 (§4.3, weighted DRF).
/// - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness.* EC 2012.
/// - A. Bhattacharya et al. *Hierarchical Scheduling for Diverse Datacenter Workloads.*
///   SoCC 2013 (§3, why collapsing the hierarchy fails).
pub fn collapsed(tree: &Tree) -> TreeAllocation {
    let flat = tree.leaf_instance();
    let leaves: Vec<_> = tree.leaves().collect();
    let task_share: Vec<Rational> = leaves
        .iter()
        .map(|&v| tree.task_dominant_share(v).expect("a leaf") / tree.node(v).guaranteed_share())
        .collect();
    let fill = progressive_filling_by(&flat, task_share, FreezeRule::DemandersOnly);
    let mut tasks = vec![Rational::ZERO; tree.len()];
    for (v, x) in leaves.into_iter().zip(fill.tasks) {
        tasks[v.index()] = x;
    }
    TreeAllocation::from_node_tasks(
        tree,
        Policy::Collapsed,
        Computation::Fluid {
            phases: fill.events.len(),
        },
        tasks,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fill::fluid_allocation;
    use crate::random_trees::{catalog_tree, cluster_tree};

    /// The keys of `collapsed` are those of weighted DRF: run through the tree engine, with
    /// every pool transparent, they give the progressive filling's allocation.
    #[test]
    fn tree_engine_with_transparent_pools_is_weighted_drf() {
        for tree in [
            cluster_tree(3, 3, 60, 3, 7),
            catalog_tree(4, 3, 80, 3, 4, 5),
        ] {
            let by_tree = fluid_allocation(&tree, Policy::Collapsed).unwrap();
            let by_drf = collapsed(&tree);
            for v in tree.nodes() {
                assert_eq!(by_tree.node(v), by_drf.node(v), "{}", tree.path(v));
            }
        }
    }
}
