//! The fluid allocations are the limits of the exact discrete fills with tasks cut into
//! `1/K` slices: the error (in dominant share, over leaves) is `O(1/K)` — except when tied
//! degenerate siblings compete for a resource that runs out
//! (`tied_degenerate_siblings_on_a_resource_that_runs_out`).

use crate::common;

use common::discrete::discrete;
use common::small_random_tree;
use leontief_hdrf::{allocate, Policy, Tree, TreeAllocation};
use leontief_solver::Rational;

/// `max_l |x_l - y_l| mu_l`: the largest difference of a leaf's dominant share.
fn distance(tree: &Tree, x: &TreeAllocation, y: &TreeAllocation) -> Rational {
    tree.leaves()
        .map(|l| {
            (x.tasks(l).unwrap() - y.tasks(l).unwrap()).abs() * tree.task_dominant_share(l).unwrap()
        })
        .max()
        .unwrap()
}

fn tree(text: &str) -> Tree {
    Tree::from_json_str(text).unwrap()
}

/// The lecture's example with whole tasks of size 1/4: the same answer as the fluid fill.
#[test]
fn lecture_example_in_quarter_tasks() {
    let tree = tree(
        r#"{"capacity": [1, 1], "tree": {"children": [
    {"name": "A", "demand": [1, 0]},
    {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#,
    );
    let x = discrete(&tree, Policy::Naive, 4).unwrap();
    let tasks = |name| x.tasks(tree.find(name).unwrap()).unwrap().to_string();
    assert_eq!([tasks("A"), tasks("B1"), tasks("B2")], ["1/2", "1/2", "1"]);
}

/// On the worked examples (unit demands and capacities) every discrete fill is within one
/// slice of the fluid answer: the discrete rule's ties, broken by sibling order, can leave
/// one leaf a slice ahead of its tied sibling.
#[test]
fn worked_examples_within_one_slice() {
    let examples = [
        // The lecture's example.
        r#"{"capacity": [1, 1], "tree": {"children": [{"name": "A", "demand": [1, 0]},
            {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#,
        // The H-DRF paper's example.
        r#"{"capacity": [1, 1], "tree": {"children": [{"name": "n1", "demand": [0, 1]},
            {"name": "n2", "children": [{"name": "n21", "demand": [1, 0]}, {"name": "n22", "demand": [0, 1]}]}]}}"#,
        // The flattening failure.
        r#"{"capacity": [1, 1], "tree": {"children": [
            {"name": "P", "children": [{"name": "P1", "demand": [1, 0]}, {"name": "P2", "demand": [0, 1]}]},
            {"name": "Q", "children": [{"name": "Q1", "demand": [1, 1]}]}]}}"#,
        // A degenerate phase (see `degenerate_pool_absorbs_growth`).
        r#"{"capacity": [1, 1], "tree": {"children": [{"name": "A", "demand": [0, 1]},
            {"name": "B", "children": [{"name": "B1", "weight": 3, "demand": [1, 0], "tasks": "3/10"},
                                       {"name": "B2", "demand": [0, 1]}]}]}}"#,
    ];
    for text in examples {
        let t = tree(text);
        for policy in Policy::ALL {
            let fluid = allocate(&t, policy).unwrap();
            for k in [60, 120, 300] {
                let d = discrete(&t, policy, k).unwrap();
                let slices = distance(&t, &fluid, &d) * Rational::from(k);
                assert!(
                    slices <= Rational::ONE,
                    "{policy} K={k}: {slices} slices, {text}"
                );
            }
        }
    }
}

/// Naive HDRF with a degenerate phase, by hand. A = (0,1) against B = {B1 = (1,0) with weight
/// 3 and cap 3/10, B2 = (0,1)}. B's share is max(3ℓ, ℓ) = 3ℓ (B1's CPU) against A's memory:
/// equal at θ, B1 reaches its cap at θ = 3/10 (A = 3/10, B2 = 1/10). Now B's share stays at
/// 3/10 while B2 grows: B is degenerate and takes everything (A waits at 3/10) until B2's
/// memory reaches 3/10; then A and B2 share the rest of the memory: 1/2 each.
/// Min-satisfaction and H-DRF give the same (B's σ, resp. its effective share with B1
/// satisfied and counted as it is, is flat in the same phase).
#[test]
fn degenerate_pool_absorbs_growth() {
    let t = tree(
        r#"{"capacity": [1, 1], "tree": {"children": [{"name": "A", "demand": [0, 1]},
            {"name": "B", "children": [{"name": "B1", "weight": 3, "demand": [1, 0], "tasks": "3/10"},
                                       {"name": "B2", "demand": [0, 1]}]}]}}"#,
    );
    for policy in [Policy::Naive, Policy::MinSatisfaction, Policy::Hdrf] {
        let x = allocate(&t, policy).unwrap();
        let tasks: Vec<String> = ["A", "B1", "B2"]
            .iter()
            .map(|n| x.tasks(t.find(n).unwrap()).unwrap().to_string())
            .collect();
        assert_eq!(tasks, ["1/2", "3/10", "1/2"], "{policy}");
    }
}

/// On random trees (depth <= 3, <= 5 leaves, m <= 3, zeros, weights, caps) the discrete fill
/// is within `C/K` of the fluid one, with `C` bounded independently of `K`: the fluid
/// allocation is the limit. Measured worst `K·error` over these seeds: below 10 for every
/// policy and every `K` (400 seeds of depth 4 with 7 leaves gave the same).
#[test]
fn random_trees_converge_at_rate_one_over_k() {
    let bound = Rational::from(12);
    for policy in Policy::ALL {
        let mut worst = [Rational::ZERO, Rational::ZERO, Rational::ZERO];
        for seed in 0..100u64 {
            let t = small_random_tree(seed);
            let fluid = allocate(&t, policy).unwrap();
            for (w, k) in worst.iter_mut().zip([16u64, 64, 256]) {
                let d = discrete(&t, policy, k).unwrap();
                let scaled = distance(&t, &fluid, &d) * Rational::from(k);
                assert!(
                    scaled <= bound,
                    "{policy} seed {seed} K={k}: K·error {scaled}"
                );
                if scaled > *w {
                    *w = scaled;
                }
            }
        }
        println!("{policy}: worst K·error at K = 16, 64, 256: {worst:?}");
    }
}

/// The exception to the limit: tied degenerate siblings competing for a resource that runs
/// out. Capacity (1,1); root {c {c1 = (1,0) weight 2 cap 2/5, c2 = (0,1)},
/// e {e1 = (1,0) weight 2 cap 2/5, e2 = (0,1)}, d = (0,1)}, every other weight 1.
///
/// Fluid (naive HDRF; min-satisfaction and H-DRF give the same, below). Inside `c` the leaf
/// keys are `c1/2` and `c2`, water-filled: `c1 = 2ℓ`, `c2 = ℓ`, so `c`'s key is
/// `max(c1, c2) = 2ℓ`; the same in `e`. At the root `c`, `e` and `d` grow at one level `θ`:
/// `c1 = e1 = d = θ`, `c2 = e2 = θ/2`; CPU `2θ`, memory `2θ`. At `θ = 2/5` the caps stop
/// `c1` and `e1` (CPU 4/5, memory 4/5: `c2 = e2 = 1/5`, `d = 2/5`). Now `c`'s key is
/// `max(2/5, c2) = 2/5` while `c2 <= 2/5`: `c` grows without raising its key, it is
/// degenerate, and so is `e`; both are tied with `d` at 2/5, so `c` and `e` grow and `d`
/// waits. Two tied degenerate siblings grow together, the dominant share of their additions
/// in proportion to their weights (equal): the last 1/5 of memory goes half to `c2`, half to
/// `e2`, and memory saturates with `c2 = e2 = 3/10 <= 2/5` (no key has risen). Static:
/// `c1 = e1 = 2/5`, `c2 = e2 = 3/10`, `d = 2/5`.
///
/// Task by task (slices `1/K`, `K` a multiple of 5; ties to the first child in input order).
/// While `c1` grows, `c2` gets a slice only when `c2 < c1/2`, so when `e1`'s last slice
/// makes it `2/5` (it needs `(2/5 - 1/K)/2 <= e2`), `e2` is exactly `1/5`; from then on `e`'s
/// key is `2/5`, and likewise `c`'s. `d` takes slices while its key is below 2/5, up to
/// exactly `2/5`. Then `c`, `e` and `d` are tied at 2/5 and the tie goes to `c`, the first;
/// a slice of `c2` leaves `c`'s key at 2/5, so `c` is still tied and first, and it wins
/// every slice until its key rises (`c2 > 2/5`) or memory runs out — memory runs out first:
/// `c2 = 1 - e2 - d = 2/5`. Discrete: `c2 = 2/5`, `e2 = 1/5`, `d = 2/5` at every such `K`;
/// `e` never gets its turn, so the difference does not shrink with `K`.
///
/// Min-satisfaction has the same fluid fill (the identity of `naive` and
/// `min_satisfaction` statically) and the same keys up to a factor per pool; for H-DRF, `c1`
/// stopped at its cap counts with its usage `(2/5, 0)`, so `c`'s effective share is
/// `max(2/5, c2)` as well (the CPU does not saturate). `collapsed` has no pools to be
/// degenerate: with weights `g` = 2/9, 1/9, 2/9, 1/9, 1/3 every leaf holds `λ g`, and at
/// `λ = 9/5` the caps and memory run out together; its fluid and discrete fills agree
/// (`c2 = e2 = 1/5`, `d = 3/5`).
#[test]
fn tied_degenerate_siblings_on_a_resource_that_runs_out() {
    let t = tree(
        r#"{"capacity": [1, 1], "tree": {"name": "root", "children": [
            {"name": "c", "children": [{"name": "c1", "weight": 2, "demand": [1, 0], "tasks": "2/5"},
                                       {"name": "c2", "demand": [0, 1]}]},
            {"name": "e", "children": [{"name": "e1", "weight": 2, "demand": [1, 0], "tasks": "2/5"},
                                       {"name": "e2", "demand": [0, 1]}]},
            {"name": "d", "demand": [0, 1]}]}}"#,
    );
    let tasks = |x: &TreeAllocation| -> Vec<String> {
        ["c1", "c2", "e1", "e2", "d"]
            .iter()
            .map(|n| x.tasks(t.find(n).unwrap()).unwrap().to_string())
            .collect()
    };
    for policy in [Policy::Naive, Policy::MinSatisfaction, Policy::Hdrf] {
        let fluid = allocate(&t, policy).unwrap();
        assert_eq!(
            tasks(&fluid),
            ["2/5", "3/10", "2/5", "3/10", "2/5"],
            "{policy}"
        );
        for k in [10, 100, 1000] {
            let d = discrete(&t, policy, k).unwrap();
            assert_eq!(
                tasks(&d),
                ["2/5", "2/5", "2/5", "1/5", "2/5"],
                "{policy} K={k}"
            );
        }
    }
    let fluid = allocate(&t, Policy::Collapsed).unwrap();
    let d = discrete(&t, Policy::Collapsed, 100).unwrap();
    assert_eq!(tasks(&fluid), ["2/5", "1/5", "2/5", "1/5", "3/5"]);
    assert_eq!(tasks(&d), tasks(&fluid));
}
