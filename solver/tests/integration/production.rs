//! The production fields of the model (`docs/production.md`): both JSON forms, exact
//! resolution, and what stays as it was.

use leontief_solver::{Guarantee, Instance, Mode, Pool, Rational, User};

fn q(s: &str) -> Rational {
    s.parse().unwrap()
}

const TREE: &str = r#"{"resources": ["cpu", "mem"], "capacity": [8, 16], "tree": {"children": [
    {"name": "prod", "guarantee": "1/2", "limit": [6, 16], "mode": "fifo", "children": [
        {"name": "web", "demand": [1, 2], "guarantee": [2, 4], "usage": [1, 2]},
        {"name": "batch", "demand": [1, 1], "limit": [3, 3]}]},
    {"name": "dev", "children": [{"name": "web", "demand": [1, 0], "guarantee": [1, 0]}]},
    {"name": "spare", "children": []},
    {"name": "idle", "demand": [0, 0]}]}}"#;

#[test]
fn both_forms_read_the_same_instance_and_round_trip() {
    let tree = Instance::from_json_str(TREE).unwrap();
    // The flat form written out reads back to the same instance.
    let flat = Instance::from_json(&tree.to_json()).unwrap();
    assert_eq!(flat, tree);
    assert_eq!(tree.pools()[0].mode, Mode::Fifo);
    assert_eq!(
        tree.pools()[0].guarantee,
        Some(Guarantee::Fraction(q("1/2")))
    );
    assert_eq!(tree.idle_users().len(), 1);
    let h = tree.hierarchy();
    let idle_leaf = (0..h.len()).find(|&v| h.node(v).idle == Some(0)).unwrap();
    assert_eq!(h.path(idle_leaf), "idle");
    // Two users named web, in different pools: keyed by path; batch keeps its name.
    assert_eq!(
        [tree.user_key(0), tree.user_key(1), tree.user_key(2)],
        ["prod/web", "batch", "dev/web"]
    );
}

#[test]
fn guarantees_resolve_exactly() {
    let inst = Instance::from_json_str(TREE).unwrap();
    let h = inst.hierarchy();
    let prod = h.node(h.pool_node(0));
    // 1/2 of the capacity (8, 16).
    assert_eq!(prod.guarantee, [q("4"), q("8")]);
    assert_eq!(prod.limit.as_deref(), Some(&[q("6"), q("16")][..]));
    // A pool's usage is its leaves' sum: web's (1, 2).
    assert_eq!(prod.usage, [q("1"), q("2")]);
    // dev has no guarantee of its own: its children's sum, (1, 0).
    let dev = h.node(h.pool_node(1));
    assert_eq!(
        (dev.guarantee.clone(), dev.guarantee_written),
        (vec![q("1"), q("0")], false)
    );
    // The root's guarantee is the capacity; its usage the leaves'.
    assert_eq!(h.node(0).guarantee, [q("8"), q("16")]);
    assert_eq!(h.node(0).usage, [q("1"), q("2")]);
}

#[test]
fn absent_fields_are_todays_instances() {
    // Built in code without the new fields, an instance equals its JSON reading, and a flat
    // document without pools keeps its strict rules (unique names, no idle user).
    let inst = Instance::builder(vec![1.into()])
        .pools(vec![Pool::new("P")])
        .users(vec![User::new("x", [1]).pool(0), User::new("y", [1])])
        .build()
        .unwrap();
    assert_eq!(Instance::from_json(&inst.to_json()).unwrap(), inst);
    assert!(!inst.has_production_fields());
    let err = Instance::from_json_str(
        r#"{"capacity": [1], "users": [{"name": "a", "demand": [1]}, {"name": "a", "demand": [1]}]}"#,
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "users[1].name: duplicate user name \"a\"");
    // The production fields are read only from documents with pools or the tree form.
    let err = Instance::from_json_str(
        r#"{"capacity": [1], "users": [{"name": "a", "demand": [1], "limit": [1]}]}"#,
    )
    .unwrap_err();
    assert!(
        err.to_string().starts_with("users[0].limit: unknown field"),
        "{err}"
    );
}

#[test]
fn changing_the_capacity_resolves_again() {
    // prod's guarantee is half the capacity: on (10, 20) it is (5, 10).
    let inst = Instance::from_json_str(TREE).unwrap();
    let big = inst.with_capacity(vec![q("10"), q("20")]).unwrap();
    let h = big.hierarchy();
    assert_eq!(h.node(h.pool_node(0)).guarantee, [q("5"), q("10")]);
    // On (16, 32) it would be (8, 16), above prod's cpu limit 6.
    assert_eq!(
        inst.with_capacity(vec![q("16"), q("32")])
            .unwrap_err()
            .to_string(),
        "pools[0].limit[0]: 6 of cpu is below the guarantee, 8"
    );
}
