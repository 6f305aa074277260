//! Deterministic tree generators for benchmarks and tests.

use leontief_solver::random_instances::SplitMix64;
use leontief_solver::Rational;

use crate::{NodeSpec, Tree};

/// A three-level cluster: the root, `top` pools, each with `sub` pools, and `leaves` leaves
/// spread evenly over the `top·sub` lower pools (depth 3). `m` resources of capacity
/// `50·leaves` each; leaf demands are integers in `0..=100` with about 30% zeros (at least one
/// positive entry); a third of the nodes get an integer weight in `2..=5`; a fifth of the
/// leaves get an integer task cap in `1..=4`, so that caps and saturations interleave (the
/// flat benchmark's workload, `leontief_solver::random_instances::cluster_workload`, in a tree).
///
/// # Example
/// ```
/// use leontief_hdrf::random_trees::cluster_tree;
/// let tree = cluster_tree(10, 9, 2000, 4, 42);
/// let leaves = tree.leaves().count();
/// assert_eq!((leaves, tree.len() - leaves), (2000, 101));
/// ```
pub fn cluster_tree(top: usize, sub: usize, leaves: usize, m: usize, seed: u64) -> Tree {
    generated_tree(top, sub, leaves, m, seed, |rng| {
        leontief_solver::random_instances::cluster_demand(rng, m)
    })
}

/// As [`cluster_tree`] — the same shape, weights, caps and capacities — but the leaves'
/// demands are drawn from a catalog of `shapes` task shapes (each drawn as a leaf demand of
/// [`cluster_tree`] is), as in clusters whose tasks come in a few container sizes. H-DRF's
/// exact numbers grow with the number of distinct demands (see [`crate::fill`], "Number
/// sizes"): the benchmark measures how (`BENCHMARKS.md`).
///
/// # Example
/// ```
/// use leontief_hdrf::random_trees::catalog_tree;
/// let tree = catalog_tree(10, 9, 2000, 4, 8, 42);
/// let mut shapes: Vec<_> = tree.leaves().map(|l| tree.node(l).demand().unwrap().to_vec()).collect();
/// shapes.sort();
/// shapes.dedup();
/// assert!(shapes.len() <= 8);
/// ```
///
/// # Panics
/// If `shapes` is 0.
pub fn catalog_tree(
    top: usize,
    sub: usize,
    leaves: usize,
    m: usize,
    shapes: usize,
    seed: u64,
) -> Tree {
    assert!(shapes > 0, "a catalog needs at least one task shape");
    let mut catalog_rng = SplitMix64::new(seed ^ 0x5eed_ca7a_1095);
    let catalog: Vec<Vec<u64>> = (0..shapes)
        .map(|_| leontief_solver::random_instances::cluster_demand(&mut catalog_rng, m))
        .collect();
    generated_tree(top, sub, leaves, m, seed, |rng| {
        // Draw (and drop) the demand cluster_tree would give, so that the tree's own random
        // stream — weights and caps — is cluster_tree's; the pick comes from the catalog's.
        let _ = leontief_solver::random_instances::cluster_demand(rng, m);
        catalog[catalog_rng.range(0, shapes as u64 - 1) as usize].clone()
    })
}

/// The generator behind [`cluster_tree`] and [`catalog_tree`], leaf demands from `demand`.
fn generated_tree(
    top: usize,
    sub: usize,
    leaves: usize,
    m: usize,
    seed: u64,
    mut demand: impl FnMut(&mut SplitMix64) -> Vec<u64>,
) -> Tree {
    let mut rng = SplitMix64::new(seed);
    let lower = (top * sub).max(1);
    let mut next_leaf = 0;
    let mut tops = Vec::with_capacity(top);
    for i in 0..top {
        let mut subs = Vec::with_capacity(sub);
        for k in 0..sub {
            let index = i * sub + k;
            let count = leaves / lower + usize::from(index < leaves % lower);
            let mut kids = Vec::with_capacity(count);
            for _ in 0..count {
                let demand = demand(&mut rng);
                let mut leaf = weighted(&mut rng, NodeSpec::leaf(format!("u{next_leaf}"), demand));
                next_leaf += 1;
                if rng.chance(1, 5) {
                    leaf = leaf.cap(rng.range(1, 4));
                }
                kids.push(leaf);
            }
            subs.push(weighted(
                &mut rng,
                NodeSpec::pool(format!("p{i}_{k}"), kids),
            ));
        }
        tops.push(weighted(&mut rng, NodeSpec::pool(format!("p{i}"), subs)));
    }
    let capacity = vec![Rational::from(50 * leaves as u64); m];
    Tree::new(capacity, NodeSpec::pool("root", tops)).expect("generated trees are valid")
}

/// `spec`, given an integer weight in `2..=5` one time in three.
fn weighted(rng: &mut SplitMix64, spec: NodeSpec) -> NodeSpec {
    if rng.chance(1, 3) {
        spec.weight(rng.range(2, 5))
    } else {
        spec
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The catalog changes the demands only: paths, weights, caps and capacities are those of
    /// `cluster_tree` with the same seed, and the demands take exactly `shapes` values.
    #[test]
    fn catalog_tree_keeps_the_cluster_tree_but_its_demands() {
        let plain = cluster_tree(4, 3, 120, 3, 9);
        let catalog = catalog_tree(4, 3, 120, 3, 5, 9);
        assert_eq!(plain.capacity(), catalog.capacity());
        assert_eq!(plain.len(), catalog.len());
        for (u, v) in plain.nodes().zip(catalog.nodes()) {
            assert_eq!(plain.path(u), catalog.path(v));
            let (a, b) = (plain.node(u), catalog.node(v));
            assert_eq!((a.weight(), a.cap()), (b.weight(), b.cap()));
        }
        let distinct = |tree: &Tree| {
            let mut shapes: Vec<_> = tree
                .leaves()
                .map(|l| tree.node(l).demand().unwrap().to_vec())
                .collect();
            shapes.sort();
            shapes.dedup();
            shapes.len()
        };
        assert_eq!(distinct(&catalog), 5);
        assert!(
            distinct(&plain) > 5,
            "cluster_tree's leaves have their own demands"
        );
    }
}
