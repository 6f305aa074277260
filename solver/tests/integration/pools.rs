//! Pools in the model: both JSON forms give one instance, the tree view's guaranteed shares,
//! field-path errors, and the share guarantee on pools.

use leontief_solver::properties::allocation::{share_guarantee, share_guarantee_violations};
use leontief_solver::properties::Witness;
use leontief_solver::{Allocation, Drf, Instance, Mechanism, Pool, Rational, User};

fn q(s: &str) -> Rational {
    s.parse().unwrap()
}

/// The lecture's tree: A = ⟨1,0⟩ against the pool B = {B1 = ⟨1,0⟩, B2 = ⟨0,1⟩}, capacities
/// (1, 1), as a tree file.
const LECTURE_TREE: &str = r#"{"resources": ["cpu", "mem"], "capacity": [1, 1], "tree": {"name": "root", "children": [
    {"name": "A", "demand": [1, 0]},
    {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#;

/// The same tree in the flat form with pools.
const LECTURE_POOLS: &str = r#"{"resources": ["cpu", "mem"], "capacity": [1, 1],
    "pools": [{"name": "B"}],
    "users": [{"name": "A", "demand": [1, 0]},
              {"name": "B1", "demand": [1, 0], "pool": "B"},
              {"name": "B2", "demand": [0, 1], "pool": "B"}]}"#;

fn lecture() -> Instance {
    Instance::builder(vec![1.into(), 1.into()])
        .resources(vec!["cpu".into(), "mem".into()])
        .pools(vec![Pool::new("B")])
        .users(vec![
            User::new("A", [1, 0]),
            User::new("B1", [1, 0]).pool(0),
            User::new("B2", [0, 1]).pool(0),
        ])
        .build()
        .unwrap()
}

#[test]
fn both_json_forms_give_the_same_instance() {
    let tree = Instance::from_json_str(LECTURE_TREE).unwrap();
    let flat = Instance::from_json_str(LECTURE_POOLS).unwrap();
    assert_eq!(tree, flat);
    assert_eq!(tree, lecture());
    // Written out, the instance is the flat form with pools, and reads back unchanged.
    let json = tree.to_json();
    assert_eq!(json["pools"], serde_json::json!([{"name": "B"}]));
    assert_eq!(json["users"][2]["pool"], "B");
    assert_eq!(Instance::from_json(&json).unwrap(), tree);
}

#[test]
fn an_instance_without_pools_is_the_flat_instance() {
    let paper = Instance::from_json_str(
        r#"{"capacity": [9, 18], "users": [{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]}"#,
    )
    .unwrap();
    assert!(paper.pools().is_empty());
    assert!(paper.to_json().get("pools").is_none());
    assert!(paper.users().iter().all(|u| u.pool.is_none()));
    let h = paper.hierarchy();
    assert!(h.is_flat());
    // One level: g_i = w_i / W = 1/2 each.
    assert_eq!(h.node(h.leaf(0)).guaranteed, q("1/2"));
}

#[test]
fn the_lectures_guaranteed_shares() {
    // g_A = g_B = 1/2 (two children of weight 1 under the root); B1 and B2 split B's half.
    let inst = lecture();
    let h = inst.hierarchy();
    let g = |i: usize| h.node(h.leaf(i)).guaranteed.clone();
    assert_eq!([g(0), g(1), g(2)], [q("1/2"), q("1/4"), q("1/4")]);
    assert_eq!(h.node(h.pool_node(0)).guaranteed, q("1/2"));
    assert_eq!(h.path(h.pool_node(0)), "B");
    assert_eq!(
        (0..3).map(|i| inst.user_path(i)).collect::<Vec<_>>(),
        ["A", "B/B1", "B/B2"]
    );
    assert_eq!(inst.user_at_path("B/B2"), Some(2));
    assert_eq!(inst.user_at_path("B2"), None);
}

#[test]
fn a_weighted_pool() {
    // P (weight 3) = {x} against y (weight 1): g_P = 3/(3+1) = 3/4, and x is P's only child.
    let inst = Instance::from_json_str(
        r#"{"capacity": [1], "pools": [{"name": "P", "weight": 3}],
            "users": [{"name": "x", "demand": [1], "pool": "P"}, {"name": "y", "demand": [1]}]}"#,
    )
    .unwrap();
    let h = inst.hierarchy();
    assert_eq!(h.node(h.leaf(0)).guaranteed, q("3/4"));
    assert_eq!(h.node(h.leaf(1)).guaranteed, q("1/4"));
}

#[test]
fn nested_pools_are_named_by_path() {
    // Two pools named Q, in P and at the root: names are unique among siblings only.
    let inst = Instance::from_json_str(
        r#"{"capacity": [1], "pools": [{"name": "P"}, {"name": "Q", "parent": "P"}, {"name": "Q"}],
            "users": [{"name": "x", "demand": [1], "pool": "P/Q"}, {"name": "y", "demand": [1], "pool": "Q"}]}"#,
    )
    .unwrap();
    assert_eq!(inst.users()[0].pool, Some(1));
    assert_eq!(inst.user_path(0), "P/Q/x");
    assert_eq!(inst.user_path(1), "Q/y");
    // g_P = g_Q = 1/2; P/Q is P's only child, x Q's.
    let h = inst.hierarchy();
    assert_eq!(h.node(h.leaf(0)).guaranteed, q("1/2"));
    assert_eq!(h.node(h.leaf(0)).depth, 3);
}

#[test]
fn errors_name_the_field() {
    let err = |text: &str| Instance::from_json_str(text).unwrap_err().to_string();
    assert_eq!(
        err(
            r#"{"capacity": [1], "pools": [{"name": "P"}], "users": [{"demand": [1], "pool": "Q"}]}"#
        ),
        "users[0].pool: unknown pool \"Q\""
    );
    assert_eq!(
        err(
            r#"{"capacity": [1], "pools": [{"name": "P", "weight": 0}], "users": [{"demand": [1], "pool": "P"}]}"#
        ),
        "pools[0].weight: must be positive, found 0"
    );
    assert_eq!(
        err(
            r#"{"capacity": [1], "pools": [{"name": "P", "weight": "-1/2"}], "users": [{"demand": [1], "pool": "P"}]}"#
        ),
        "pools[0].weight: must be positive, found -1/2"
    );
    assert_eq!(
        err(
            r#"{"capacity": [1], "pools": [{"name": "Q", "parent": "P"}, {"name": "P"}], "users": [{"demand": [1], "pool": "P"}]}"#
        ),
        "pools[0].parent: unknown pool \"P\" (a parent is listed before its children)"
    );
    // An empty pool is part of the model (it gets nothing): E is accepted, after P.
    let empty = Instance::from_json_str(
        r#"{"capacity": [1], "pools": [{"name": "P"}, {"name": "E"}], "users": [{"demand": [1], "pool": "P"}]}"#,
    )
    .unwrap();
    let h = empty.hierarchy();
    assert!(h.node(h.pool_node(1)).children.is_empty());
    assert_eq!(
        err(
            r#"{"capacity": [1], "pools": [{"name": "P"}, {"name": "P"}], "users": [{"demand": [1], "pool": "P"}]}"#
        ),
        "pools[1].name: duplicate pool \"P\""
    );
    assert_eq!(
        err(
            r#"{"capacity": [1], "pools": [{"name": "P/Q"}], "users": [{"demand": [1], "pool": "P/Q"}]}"#
        ),
        "pools[0].name: \"P/Q\" contains '/', which separates the parts of a path"
    );
    assert_eq!(
        err(
            r#"{"capacity": [1], "pools": [{"name": "P", "size": 2}], "users": [{"demand": [1], "pool": "P"}]}"#
        ),
        "pools[0].size: unknown field (expected name, weight, parent)"
    );
    assert_eq!(
        err(
            r#"{"capacity": [1], "pools": [{"name": "P"}], "users": [{"name": "P", "demand": [1]}, {"demand": [1], "pool": "P"}]}"#
        ),
        "users[0].name: \"P\" is also the name of a pool beside it"
    );
    // Built in code: a parent must be listed before its child.
    let e = Instance::builder(vec![1.into()])
        .pools(vec![Pool::new("P").parent(0)])
        .users(vec![User::new("x", [1]).pool(0)])
        .build()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "pools[0].parent: pool 0 is not listed before pool 0 (pools are listed parents first)"
    );
    let e = Instance::builder(vec![1.into()])
        .pools(vec![Pool::new("P")])
        .users(vec![User::new("x", [1]).pool(1)])
        .build()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "users[0].pool: no pool 1: the instance has 1"
    );
    // The tree form keeps its own paths.
    assert_eq!(
        err(r#"{"capacity": [1, 1], "tree": {"children": [{"name": "A", "demand": [1, 0, 2]}]}}"#),
        "tree.children[0].demand: expected 2 entries, one per resource, found 3"
    );
}

#[test]
fn a_departure_drops_the_pool_it_empties() {
    let inst = lecture();
    // B1 leaves: B keeps B2.
    let a = inst.without_user(1).unwrap();
    assert_eq!(a.pools().len(), 1);
    assert_eq!(a.user_path(1), "B/B2");
    // Both leave: B disappears, the instance is flat.
    let b = a.without_user(1).unwrap();
    assert!(b.pools().is_empty());
    assert!(b.hierarchy().is_flat());
    // Reports and grown capacities keep the tree.
    let lied = inst.with_reports(&[(1, vec![1.into(), 1.into()])]).unwrap();
    assert_eq!(lied.pools(), inst.pools());
    assert_eq!(lied.hierarchy(), inst.hierarchy());
    let grown = inst.with_capacity(vec![2.into(), 1.into()]).unwrap();
    assert_eq!(grown.user_path(2), "B/B2");
}

/// The lecture's flattening failure: P = {P1 ⟨1,0⟩, P2 ⟨0,1⟩} against Q ⟨1,1⟩ on capacities
/// (1, 1); g_P = g_Q = 1/2, g_P1 = g_P2 = 1/4.
/// - DRF (equal weights) raises all three dominant shares together until r1 (P1 + Q) and r2
///   (P2 + Q) fill at 2t = 1: every user 1/2, P holds 1/2 of each resource — it holds.
/// - Weighted DRF with the leaves' guarantees as weights (the `collapsed` policy) gives
///   x = k·g: r1 fills at k/4 + k/2 = 1, k = 4/3, so P1 = P2 = 1/3 and Q = 2/3; P holds 1/3
///   of each resource, below 1/2 (Q 2/3 >= 1/2, P1 1/3 >= 1/4, the root a full resource).
#[test]
fn share_guarantee_on_pools() {
    let inst = Instance::builder(vec![1.into(), 1.into()])
        .pools(vec![Pool::new("P")])
        .users(vec![
            User::new("P1", [1, 0]).pool(0),
            User::new("P2", [0, 1]).pool(0),
            User::new("Q", [1, 1]),
        ])
        .build()
        .unwrap();
    let drf = Drf::extended().allocate(&inst).unwrap();
    assert_eq!(drf.tasks, [q("1/2"), q("1/2"), q("1/2")]);
    assert!(share_guarantee(&inst, &drf).unwrap().holds);
    let collapsed = Allocation::new(vec![q("1/3"), q("1/3"), q("2/3")]);
    let v = share_guarantee(&inst, &collapsed).unwrap();
    let Some(Witness::Sg(w)) = v.witness else {
        panic!("expected a share-guarantee witness: {v:?}")
    };
    assert_eq!((w.node.as_str(), w.guaranteed.clone()), ("P", q("1/2")));
    assert_eq!(w.dominant_share, q("1/3"));
    assert_eq!((w.users, w.unmet_user), (vec![0, 1], 0));
    // The witness names users by their paths.
    assert_eq!(
        Witness::Sg(share_guarantee_violations(&inst, &collapsed).unwrap()[0].clone())
            .to_json(&inst)["users"],
        serde_json::json!(["P/P1", "P/P2"])
    );
    // Every violation: only P (the root holds a saturated resource, the users 1/3 >= 1/4
    // and 2/3 >= 1/2).
    let all = share_guarantee_violations(&inst, &collapsed).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].vertex, inst.hierarchy().pool_node(0));
}
