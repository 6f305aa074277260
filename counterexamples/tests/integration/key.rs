//! The canonical key: equal exactly for the same counterexample up to renaming, reordering
//! and units — for hierarchical instances, up to renaming pools and reordering siblings,
//! but not up to changing the tree's shape or a pool's weight.

use leontief_counterexamples::candidate::Candidate;
use leontief_counterexamples::legacy;
use leontief_counterexamples::record::canonical_key;
use leontief_solver::properties::{Property, Scenario};
use leontief_solver::{Instance, User};

/// Users `(path, demand)` on capacities (1, 1), scenario: the first user leaves. The pools
/// are written in the users' paths (`P@2/x`: `x` in the pool `P` of weight 2), read as old
/// records are.
fn key(users: &[(&str, [i64; 2])]) -> String {
    let named = Instance::new(
        vec![1.into(), 1.into()],
        users.iter().map(|(n, d)| User::new(*n, *d)).collect(),
    )
    .expect("valid instance");
    let inst = legacy::with_pools(&named)
        .expect("paths describe a tree")
        .unwrap_or(named);
    canonical_key(
        "hdrf:naive",
        Property::Pm,
        &Candidate::new(inst, Scenario::Remove(0)),
    )
}

#[test]
fn pools_renamed_and_siblings_reordered_have_one_key() {
    let a = key(&[
        ("u", [1, 0]),
        ("P/x", [1, 0]),
        ("P/y", [0, 1]),
        ("Q/z", [1, 1]),
    ]);
    // Pools renamed (P → left, Q → right), users renamed, the pools' order swapped.
    let b = key(&[
        ("w", [1, 0]),
        ("right/c", [1, 1]),
        ("left/b", [0, 1]),
        ("left/a", [1, 0]),
    ]);
    assert_eq!(a, b);
}

#[test]
fn the_trees_shape_and_pool_weights_matter() {
    let base = key(&[("u", [1, 0]), ("P/x", [1, 0]), ("P/y", [0, 1])]);
    // x and y at the root: another tree (the flat instance).
    let flat = key(&[("u", [1, 0]), ("x", [1, 0]), ("y", [0, 1])]);
    // y moved to a pool of its own.
    let split = key(&[("u", [1, 0]), ("P/x", [1, 0]), ("Q/y", [0, 1])]);
    // P of weight 2 (written on one path only: it holds for the pool).
    let heavy = key(&[("u", [1, 0]), ("P@2/x", [1, 0]), ("P/y", [0, 1])]);
    let same_heavy = key(&[("u", [1, 0]), ("Z/y", [0, 1]), ("Z@2/x", [1, 0])]);
    for other in [&flat, &split, &heavy] {
        assert_ne!(&base, other);
    }
    assert_eq!(heavy, same_heavy);
}

#[test]
fn nested_pools_are_compared_as_trees() {
    let a = key(&[("u", [1, 0]), ("P/Q/x", [1, 0]), ("P/y", [0, 1])]);
    let b = key(&[("v", [1, 0]), ("S/t", [0, 1]), ("S/R/s", [1, 0])]);
    // The same users, but x one level up and y one level down.
    let c = key(&[("u", [1, 0]), ("P/x", [1, 0]), ("P/Q/y", [0, 1])]);
    assert_eq!(a, b);
    assert_ne!(a, c);
}
