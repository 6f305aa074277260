//! The event-driven engine ([`leontief_hdrf::fill`]) and the plain one
//! ([`crate::plain_engine`]) compute the same fluid allocations, exactly.

use crate::common;
use crate::plain_engine;

use common::{random_tree, Shape};
use leontief_hdrf::random_trees::{catalog_tree, cluster_tree};
use leontief_hdrf::{allocate, Policy, Tree};
use proptest::prelude::*;

fn same(tree: &Tree, policy: Policy) -> Result<(), TestCaseError> {
    let fast = allocate(tree, policy).unwrap();
    let plain = plain_engine::allocate(tree, policy).unwrap();
    for v in tree.nodes() {
        prop_assert_eq!(
            fast.node(v),
            plain.node(v),
            "{} at {} on {}",
            policy,
            tree.path(v),
            tree.instance().to_json()
        );
    }
    Ok(())
}

/// The lecture's example, every policy (`collapsed` included, by the plain progressive fill).
#[test]
fn engines_agree_on_the_lecture_example() {
    let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
        {"name": "A", "demand": [1, 0]},
        {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
    for policy in Policy::ALL {
        assert_eq!(
            plain_engine::allocate(&tree, policy)
                .unwrap()
                .node(tree.root()),
            allocate(&tree, policy).unwrap().node(tree.root())
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn engines_agree_on_random_trees(seed in any::<u64>(), m in 1usize..=4, depth in 2usize..=4, leaves in 2usize..=20) {
        let tree = random_tree(seed, Shape { depth, leaves, m });
        for policy in [Policy::Naive, Policy::MinSatisfaction, Policy::Hdrf] {
            same(&tree, policy)?;
        }
    }
}

#[test]
fn engines_agree_on_a_generated_cluster() {
    for tree in [cluster_tree(3, 3, 60, 3, 7), cluster_tree(4, 4, 160, 4, 11)] {
        for policy in [Policy::Naive, Policy::MinSatisfaction, Policy::Hdrf] {
            same(&tree, policy).unwrap();
        }
    }
}

/// The benchmark's kind of tree at 400 leaves: H-DRF's allocation there has 2,974-bit
/// denominators (naive's 1,404), so both engines run on the big-number paths throughout.
#[test]
fn engines_agree_on_a_benchmark_tree() {
    let tree = cluster_tree(10, 9, 400, 4, 42);
    for policy in [Policy::Naive, Policy::MinSatisfaction, Policy::Hdrf] {
        same(&tree, policy).unwrap();
    }
}

/// The benchmark's other kind of tree, demands from a catalog of task shapes: many leaves
/// share a demand, so ties between leaves are the rule rather than the exception.
#[test]
fn engines_agree_on_a_catalog_tree() {
    let tree = catalog_tree(10, 9, 400, 4, 8, 42);
    for policy in [Policy::Naive, Policy::MinSatisfaction, Policy::Hdrf] {
        same(&tree, policy).unwrap();
    }
}
