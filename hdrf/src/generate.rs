//! Deterministic tree generators for benchmarks and tests.

use leontief_solver::generate::SplitMix64;
use leontief_solver::Rational;

use crate::tree::{NodeSpec, Tree};

/// A three-level cluster: the root, `top` pools, each with `sub` pools, and `leaves` leaves
/// spread evenly over the `top·sub` lower pools (depth 3). `m` resources of capacity
/// `50·leaves` each; leaf demands are integers in `0..=100` with about 30% zeros (at least one
/// positive entry); a third of the nodes get an integer weight in `2..=5`; a fifth of the
/// leaves get an integer task cap in `1..=4`, so that caps and saturations interleave (the
/// flat benchmark's workload, `leontief_solver::generate::cluster_workload`, in a tree).
///
/// # Example
/// ```
/// use leontief_hdrf::generate::cluster_tree;
/// let tree = cluster_tree(10, 9, 2000, 4, 42);
/// assert_eq!((tree.num_leaves(), tree.len() - tree.num_leaves()), (2000, 101));
/// ```
pub fn cluster_tree(top: usize, sub: usize, leaves: usize, m: usize, seed: u64) -> Tree {
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
                let demand = leontief_solver::generate::cluster_demand(&mut rng, m);
                let mut leaf = NodeSpec::leaf(format!("u{next_leaf}"), demand);
                next_leaf += 1;
                if rng.chance(1, 3) {
                    leaf = leaf.weight(rng.range(2, 5));
                }
                if rng.chance(1, 5) {
                    leaf = leaf.cap(rng.range(1, 4));
                }
                kids.push(leaf);
            }
            let mut pool = NodeSpec::pool(format!("p{i}_{k}"), kids);
            if rng.chance(1, 3) {
                pool = pool.weight(rng.range(2, 5));
            }
            subs.push(pool);
        }
        let mut pool = NodeSpec::pool(format!("p{i}"), subs);
        if rng.chance(1, 3) {
            pool = pool.weight(rng.range(2, 5));
        }
        tops.push(pool);
    }
    let capacity = vec![Rational::from(50 * leaves as u64); m];
    Tree::new(capacity, NodeSpec::pool("root", tops)).expect("generated trees are valid")
}
