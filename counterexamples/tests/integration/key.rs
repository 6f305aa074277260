//! The canonical key: equal exactly for the same counterexample up to renaming, reordering
//! and units — for hierarchical instances, up to renaming pools and reordering siblings,
//! but not up to changing the tree's shape or a pool's weight.

use leontief_counterexamples::candidate::Candidate;
use leontief_counterexamples::record::canonical_key;
use leontief_solver::properties::{Property, Scenario};
use leontief_solver::{Instance, Pool, User};

/// Users `path=d1,d2` (separated by spaces) on capacities (1, 1), scenario: the first user
/// leaves. The pools are the ones the paths name (`P/Q/x`: `x` in the pool `Q` inside the
/// pool `P`), each of weight 1 unless `weights` gives it another.
fn key_weighted(users: &str, weights: &[(&str, i64)]) -> String {
    let mut pools = Vec::new();
    let mut paths = Vec::new();
    let users = users
        .split_whitespace()
        .map(|user| {
            let (path, demand) = user.split_once('=').expect("path=d1,d2");
            let demand: Vec<i64> = demand.split(',').map(|d| d.parse().unwrap()).collect();
            match path.rsplit_once('/') {
                Some((dir, name)) => {
                    User::new(name, demand).pool(pool(&mut pools, &mut paths, dir, weights))
                }
                None => User::new(path, demand),
            }
        })
        .collect();
    let inst = Instance::builder(vec![1.into(), 1.into()])
        .pools(pools)
        .users(users)
        .build()
        .expect("valid instance");
    canonical_key(
        "hdrf:naive",
        Property::Pm,
        &Candidate::new(inst, Scenario::Remove(0)),
    )
}

/// The index of the pool at `path`, added (with its parents) when new.
fn pool(
    pools: &mut Vec<Pool>,
    paths: &mut Vec<String>,
    path: &str,
    weights: &[(&str, i64)],
) -> usize {
    if let Some(p) = paths.iter().position(|p| p == path) {
        return p;
    }
    let (parent, name) = match path.rsplit_once('/') {
        Some((up, name)) => (Some(pool(pools, paths, up, weights)), name),
        None => (None, path),
    };
    let weight = weights
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(1, |(_, w)| *w);
    let mut added = Pool::new(name).weight(weight);
    added.parent = parent;
    pools.push(added);
    paths.push(path.to_string());
    pools.len() - 1
}

fn key(users: &str) -> String {
    key_weighted(users, &[])
}

#[test]
fn pools_renamed_and_siblings_reordered_have_one_key() {
    let a = key("u=1,0 P/x=1,0 P/y=0,1 Q/z=1,1");
    // Pools renamed (P → left, Q → right), users renamed, the pools' order swapped.
    let b = key("w=1,0 right/c=1,1 left/b=0,1 left/a=1,0");
    assert_eq!(a, b);
}

#[test]
fn the_trees_shape_and_pool_weights_matter() {
    let base = key("u=1,0 P/x=1,0 P/y=0,1");
    // x and y at the root: another tree (the flat instance).
    let flat = key("u=1,0 x=1,0 y=0,1");
    // y moved to a pool of its own.
    let split = key("u=1,0 P/x=1,0 Q/y=0,1");
    // P of weight 2.
    let heavy = key_weighted("u=1,0 P/x=1,0 P/y=0,1", &[("P", 2)]);
    let same_heavy = key_weighted("u=1,0 Z/y=0,1 Z/x=1,0", &[("Z", 2)]);
    for other in [&flat, &split, &heavy] {
        assert_ne!(&base, other);
    }
    assert_eq!(heavy, same_heavy);
}

#[test]
fn nested_pools_are_compared_as_trees() {
    let a = key("u=1,0 P/Q/x=1,0 P/y=0,1");
    assert_eq!(a, key("v=1,0 S/t=0,1 S/R/s=1,0"));
    // The same users, but x one level up and y one level down.
    assert_ne!(a, key("u=1,0 P/x=1,0 P/Q/y=0,1"));
}
