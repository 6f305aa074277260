//! What the tree tests share: exact literals, the dominant shares of named nodes, and
//! random small trees for the property tests.

#![allow(dead_code)] // each test file uses part of it

pub mod discrete;

use leontief_hdrf::{allocate, NodeSpec, Policy, Tree};
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Instance, Rational};
use proptest::prelude::*;

/// An exact literal: `"7/3"`, `"2.5"`.
pub fn q(s: &str) -> Rational {
    s.parse().expect("test literal")
}

/// The dominant shares under `policy` of the named nodes, as exact strings (on capacities 1,
/// the dominant-resource amounts).
pub fn shares(tree: &Tree, policy: Policy, names: &[&str]) -> Vec<String> {
    let x = allocate(tree, policy).expect("allocates");
    names
        .iter()
        .map(|n| x.dominant_share(tree.find(n).expect("node")).to_string())
        .collect()
}

/// Random trees of depth at most 3, at most 6 leaves and 1 to 3 resources.
pub fn small_tree() -> impl Strategy<Value = Tree> {
    (any::<u64>(), 1usize..=3).prop_map(|(seed, m)| {
        random_tree(
            seed,
            Shape {
                depth: 3,
                leaves: 6,
                m,
            },
        )
    })
}

/// Shape limits of a random tree.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Deepest leaf depth (the root is 0).
    pub depth: usize,
    /// Most leaves.
    pub leaves: usize,
    /// Resources.
    pub m: usize,
}

/// Node `v`'s dominant share in every recorded (settled) state of `run`.
pub fn shares_over_time(
    run: &leontief_hdrf::simulate::Simulation,
    v: usize,
) -> impl Iterator<Item = Rational> + '_ {
    run.series.iter().map(move |x| x.shares[v].clone())
}

/// The random tree of `seed` with depth 3, at most 5 leaves and `1 + seed % 3` resources.
pub fn small_random_tree(seed: u64) -> Tree {
    let m = 1 + (seed % 3) as usize;
    random_tree(
        seed,
        Shape {
            depth: 3,
            leaves: 5,
            m,
        },
    )
}

/// A random tree from `seed`: pools have 1–3 children (the root 2–3), demands in `0..=3`
/// with about a third zeros, weights in `1..=3`, a quarter of the leaves capped at
/// `1/2..=2`, capacities in `1..=4`.
pub fn random_tree(seed: u64, shape: Shape) -> Tree {
    let mut rng = SplitMix64::new(seed);
    let mut budget = shape.leaves;
    let mut next = 0;
    let children = pool_children(&mut rng, 0, shape, &mut budget, &mut next);
    let capacity = (0..shape.m)
        .map(|_| Rational::from(rng.range(1, 4)))
        .collect();
    Tree::new(capacity, NodeSpec::pool("root", children)).expect("random trees are valid")
}

fn pool_children(
    rng: &mut SplitMix64,
    depth: usize,
    shape: Shape,
    budget: &mut usize,
    next: &mut usize,
) -> Vec<NodeSpec> {
    let want = if depth == 0 {
        rng.range(2, 3)
    } else {
        rng.range(1, 3)
    };
    let mut out = Vec::new();
    for _ in 0..want {
        if *budget == 0 {
            break;
        }
        *next += 1;
        let name = format!("n{next}");
        let mut node = if depth + 1 < shape.depth && *budget >= 2 && rng.chance(2, 5) {
            NodeSpec::pool(name, pool_children(rng, depth + 1, shape, budget, next))
        } else {
            *budget -= 1;
            let mut demand: Vec<u64> = (0..shape.m)
                .map(|_| if rng.chance(1, 3) { 0 } else { rng.range(1, 3) })
                .collect();
            if demand.iter().all(|&d| d == 0) {
                demand[rng.range(0, shape.m as u64 - 1) as usize] = rng.range(1, 3);
            }
            let mut leaf = NodeSpec::leaf(name, demand);
            if rng.chance(1, 4) {
                leaf = leaf.cap(Rational::new(i128::from(rng.range(1, 4)), 2).expect("nonzero"));
            }
            leaf
        };
        node = node.weight(rng.range(1, 3));
        out.push(node);
    }
    out
}

/// The same tree with every pool's children permuted (from `seed`).
pub fn permuted(tree: &Tree, seed: u64) -> Tree {
    let mut rng = SplitMix64::new(seed);
    let root = spec_of(tree, tree.root(), &mut rng);
    Tree::build(
        Instance::builder(tree.capacity().to_vec())
            .resources(tree.resources().to_vec())
            .tree(root),
    )
    .expect("a permutation of a valid tree is valid")
}

fn spec_of(tree: &Tree, v: leontief_hdrf::NodeId, rng: &mut SplitMix64) -> NodeSpec {
    let node = tree.node(v);
    let mut spec = match node.demand() {
        Some(d) => {
            let mut leaf = NodeSpec::leaf(node.name(), d.iter().cloned());
            leaf.cap = node.cap().cloned();
            leaf
        }
        None => {
            let mut kids: Vec<NodeSpec> = node.children().map(|c| spec_of(tree, c, rng)).collect();
            // Fisher–Yates.
            for i in (1..kids.len()).rev() {
                let j = rng.range(0, i as u64) as usize;
                kids.swap(i, j);
            }
            NodeSpec::pool(node.name(), kids)
        }
    };
    spec.weight = node.weight().clone();
    spec
}
