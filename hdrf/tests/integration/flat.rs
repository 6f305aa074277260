//! The hierarchical policies as mechanisms over instances with pools (`flat`): a tree's
//! instance round-trips, allocates exactly as the tree does, reduces to weighted DRF on one
//! level, and the `sg` property agrees with the tree's share guarantee.

use crate::common;

use common::{q, random_tree, small_tree as small, Shape};
use leontief_hdrf::flat::Hierarchical;
use leontief_hdrf::{allocate, properties, Policy, Tree};
use leontief_solver::properties::allocation::share_guarantee;
use leontief_solver::properties::manipulation::sp_scenario;
use leontief_solver::{Drf, Instance, Mechanism, Pool, Rational, User};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_flat_form_round_trips(tree in small()) {
        let back = Tree::from_instance(tree.instance()).unwrap();
        prop_assert_eq!(back.instance().to_json(), tree.instance().to_json());
    }

    /// Tree -> Instance -> Tree is the identity, and the tree file and its instance's flat
    /// JSON (pools) read into the same instance.
    #[test]
    fn tree_to_instance_and_back_is_the_identity(tree in small()) {
        let inst = tree.instance().clone();
        prop_assert_eq!(&Tree::from_instance(&inst).unwrap(), &tree);
                prop_assert_eq!(&Instance::from_json(&inst.to_json()).unwrap(), &inst);
        // One user per leaf, in the tree's order, named by its path below the root.
        let paths: Vec<String> = (0..inst.num_users()).map(|i| inst.user_path(i)).collect();
        let leaves: Vec<String> = tree
            .leaves()
            .map(|v| tree.path(v).trim_start_matches("root/").to_string())
            .collect();
        prop_assert_eq!(paths, leaves);
    }

    /// Also with the users listed in another order than the tree's (the pools unchanged):
    /// each user gets its leaf's tasks.
    #[test]
    fn flat_mechanisms_allocate_as_the_tree_does(tree in small(), seed in any::<u64>()) {
        let flat = tree.instance().clone();
        let mut order: Vec<usize> = (0..flat.num_users()).collect();
        let mut rng = leontief_solver::random_instances::SplitMix64::new(seed);
        for k in (1..order.len()).rev() {
            order.swap(k, rng.range(0, k as u64) as usize);
        }
        let shuffled = flat
            .with_users(order.iter().map(|&i| flat.users()[i].clone()).collect())
            .unwrap();
        for p in Policy::ALL {
            let x = Hierarchical::new(p).allocate(&flat).unwrap();
            let t = allocate(&tree, p).unwrap();
            let expected: Vec<Rational> = tree.leaves().map(|v| t.tasks(v).unwrap().clone()).collect();
            prop_assert_eq!(&x.tasks, &expected, "{}", p);
            let y = Hierarchical::new(p).allocate(&shuffled).unwrap();
            let back: Vec<Rational> = order.iter().map(|&i| expected[i].clone()).collect();
            prop_assert_eq!(&y.tasks, &back, "{} shuffled", p);
        }
    }

    /// The share guarantee as a property of the mechanism (first violation below the root)
    /// and on the tree allocation (every violation, the root included) fail together: no
    /// policy leaves the root alone below its guarantee (they saturate a resource).
    #[test]
    fn share_guarantee_oracles_agree(tree in small()) {
        let flat = tree.instance().clone();
        for p in Policy::ALL {
            let t = allocate(&tree, p).unwrap();
            let x = Hierarchical::new(p).allocate(&flat).unwrap();
            let on_names = share_guarantee(&flat, &x).unwrap();
            let on_tree = properties::share_guarantee(&tree, &t);
            prop_assert_eq!(on_names.holds, on_tree.is_empty(), "{}", p);
        }
    }

    /// One level: every policy is weighted DRF (with caps and zero demands).
    #[test]
    fn one_level_is_weighted_drf(seed in any::<u64>()) {
        let tree = random_tree(seed, Shape { depth: 1, leaves: 5, m: 3 });
        let flat = tree.instance().clone();
        prop_assert!(flat.pools().is_empty());
        let drf = Drf::extended().allocate(&flat).unwrap();
        for p in Policy::ALL {
            prop_assert_eq!(&Hierarchical::new(p).allocate(&flat).unwrap().tasks, &drf.tasks, "{}", p);
        }
    }
}

/// Found by `leontief search --mechanism hdrf:naive --property sp --pools 1..2` and derived
/// by hand: root {u1 ⟨0,0,1⟩, u2 ⟨1,0,1/2⟩, p1 {u3 ⟨1,0,0⟩, u4 ⟨1/2,0,1⟩}}, capacities 1.
/// Truthfully u3 = u4 = y inside p1 (p1's share 3y/2 on r1), u1 = u2 = 3y/2 at the root; r3
/// saturates at 13y/4 = 1: y = 4/13, u1 = u2 = 6/13; then only u3 can grow, on the 1/13 of
/// r1 left: u3 = 5/13. If u3 reports ⟨1,2,0⟩ its share is 2·x3 on r2, so u4 = 2·x3 = 2z and
/// p1's share is 2z; r3 saturates at 5s/2 = 1 with s = 2z: s = 2/5, z = 1/5; u3 then grows on
/// r1 and r2 to 2/5 tasks — it really runs 2/5 > 5/13. The tree policies are not
/// strategy-proof, collapsed (DRF with fixed weights) is.
#[test]
fn hierarchical_policies_are_not_strategy_proof() {
    let inst = Instance::builder(vec![1.into(); 3])
        .resources(vec!["r1".into(), "r2".into(), "r3".into()])
        .pools(vec![Pool::new("p1")])
        .users(vec![
            User::new("u1", [0, 0, 1]),
            User::new("u2", [q("1"), q("0"), q("1/2")]),
            User::new("u3", [1, 0, 0]).pool(0),
            User::new("u4", [q("1/2"), q("0"), q("1")]).pool(0),
        ])
        .build()
        .unwrap();
    let lie = vec![q("1"), q("2"), q("0")];
    for p in [Policy::Naive, Policy::MinSatisfaction, Policy::Hdrf] {
        let m = Hierarchical::new(p);
        let truth = m.allocate(&inst).unwrap();
        assert_eq!(
            truth.tasks,
            [q("6/13"), q("6/13"), q("5/13"), q("4/13")],
            "{p}"
        );
        let w = sp_scenario(&m, &inst, &truth, 2, &lie)
            .unwrap()
            .expect("a profitable lie");
        assert_eq!(
            (w.before.clone(), w.after.clone()),
            (q("5/13"), q("2/5")),
            "{p}"
        );
    }
    let collapsed = Hierarchical::new(Policy::Collapsed);
    let truth = collapsed.allocate(&inst).unwrap();
    assert!(sp_scenario(&collapsed, &inst, &truth, 2, &lie)
        .unwrap()
        .is_none());
}

#[test]
fn bad_trees_are_errors_not_panics() {
    // A user in Q named like the pool P: names need only be unique among siblings, in
    // pools as in trees (nodes are addressed by path), so this is a valid tree. P = {x} and
    // Q = {P} have weight 1 each and one leaf demanding (1) of a capacity 1: 1/2 each.
    let inst = Instance::builder(vec![1.into()])
        .pools(vec![Pool::new("P"), Pool::new("Q")])
        .users(vec![
            User::new("x", [1]).pool(0),
            User::new("P", [1]).pool(1),
        ])
        .build()
        .unwrap();
    let x = Hierarchical::new(Policy::Naive).allocate(&inst).unwrap();
    assert_eq!(x.tasks, vec![q("1/2"), q("1/2")]);
    let weighted = Instance::new(
        vec![1.into(), 1.into()],
        vec![User::new("a", [1, 1]).resource_weights([1, 2])],
    )
    .unwrap();
    assert!(Tree::from_instance(&weighted)
        .unwrap_err()
        .to_string()
        .contains("users[0].weights"));
}
