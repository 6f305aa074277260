//! Every validation error names the offending field by its path in the input.

use leontief_hdrf::{NodeSpec, Policy, SolverError, Tree};
use serde_json::json;

/// The error message for a tree whose second root child is `b` (the first is a valid leaf).
fn error_with(b: serde_json::Value) -> String {
    let doc = json!({"capacity": [1, 1], "tree": {"children": [
        {"name": "A", "demand": [1, 0]},
        {"name": "B", "children": [b]}]}});
    Tree::from_json(&doc).unwrap_err().to_string()
}

fn error_of(text: &str) -> String {
    Tree::from_json_str(text).unwrap_err().to_string()
}

#[test]
fn demand_length_mismatch() {
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, 0, 2]})),
        "tree.children[1].children[0].demand: expected 2 entries, one per resource, found 3"
    );
}

#[test]
fn both_demand_and_children() {
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, 0], "children": [{"name": "C", "demand": [1, 1]}]})),
        "tree.children[1].children[0]: a node has either demand (a leaf) or children (a pool), not both"
    );
}

#[test]
fn neither_demand_nor_children() {
    assert_eq!(
        error_with(json!({"name": "B1", "weight": 2})),
        "tree.children[1].children[0]: a node needs either demand (a leaf) or children (a pool)"
    );
}

#[test]
fn duplicate_names_among_siblings() {
    // Names need only be unique among siblings: B/A beside the root's A is a valid tree,
    // addressed by path.
    let doc = json!({"capacity": [1, 1], "tree": {"children": [
        {"name": "A", "demand": [1, 0]},
        {"name": "B", "children": [{"name": "A", "demand": [0, 1]}]}]}});
    let tree = Tree::from_json(&doc).unwrap();
    assert_eq!(tree.path(tree.find_path("root/B/A").unwrap()), "root/B/A");
    let doc = json!({"capacity": [1, 1], "tree": {"children": [
        {"name": "A", "demand": [1, 0]},
        {"name": "B", "children": [{"name": "B1", "demand": [0, 1]}, {"name": "B1", "demand": [1, 1]}]}]}});
    assert_eq!(
        Tree::from_json(&doc).unwrap_err().to_string(),
        "tree.children[1].children[1].name: duplicate name \"B1\" among siblings (first used at tree.children[1].children[0])"
    );
}

#[test]
fn empty_pool() {
    // An empty pool is part of the tree; it holds nothing.
    let doc = json!({"capacity": [1, 1], "tree": {"children": [
        {"name": "A", "demand": [1, 0]},
        {"name": "B", "children": [{"name": "B1", "children": []}]}]}});
    let tree = Tree::from_json(&doc).unwrap();
    let b1 = tree.find_path("root/B/B1").unwrap();
    assert!(tree.node(b1).children().len() == 0 && !tree.node(b1).is_leaf());
}

#[test]
fn bad_numbers() {
    let msg = error_with(json!({"name": "B1", "demand": [1, "abc"]}));
    assert!(
        msg.starts_with("tree.children[1].children[0].demand[1]: malformed number \"abc\""),
        "{msg}"
    );
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, true]})),
        "tree.children[1].children[0].demand[1]: expected a number, found a boolean"
    );
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, "1/0"]})),
        "tree.children[1].children[0].demand[1]: division by zero in \"1/0\""
    );
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, 0], "weight": [2]})),
        "tree.children[1].children[0].weight: expected a number, found a list"
    );
    assert_eq!(
        error_with(json!({"name": "B1", "demand": "1, 0"})),
        "tree.children[1].children[0].demand: expected a list of numbers, found a string"
    );
}

#[test]
fn non_positive_weight() {
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, 0], "weight": 0})),
        "tree.children[1].children[0].weight: must be positive, found 0"
    );
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, 0], "weight": "-1/2"})),
        "tree.children[1].children[0].weight: must be positive, found -1/2"
    );
}

#[test]
fn non_positive_cap() {
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, 0], "tasks": 0})),
        "tree.children[1].children[0].tasks: must be positive, found 0"
    );
    assert_eq!(
        error_with(json!({"name": "B1", "children": [{"name": "C", "demand": [1, 0]}], "tasks": 3})),
        "tree.children[1].children[0].tasks: only a leaf has a task cap; a pool's demand is its leaves'"
    );
}

#[test]
fn all_zero_demand() {
    // An idle leaf (all-zero demand) is part of the tree; it wants and gets nothing.
    let doc = json!({"capacity": [1, 1], "tree": {"children": [
        {"name": "A", "demand": [1, 0]},
        {"name": "B", "children": [{"name": "B1", "demand": [0, "0/5"]}]}]}});
    let tree = Tree::from_json(&doc).unwrap();
    let b1 = tree.find_path("root/B/B1").unwrap();
    assert!(tree.node(b1).is_idle());
    assert_eq!(tree.hierarchy().node(b1.index()).user, None);
    // A tree whose every leaf is idle, or that has no leaf, is valid: everyone gets
    // nothing, and the notes say so.
    let idle = Tree::from_json(
        &json!({"capacity": [1], "tree": {"children": [{"name": "A", "demand": [0]}]}}),
    )
    .unwrap();
    let empty = Tree::from_json(&json!({"capacity": [1], "tree": {"children": []}})).unwrap();
    for (tree, note) in [
        (
            &idle,
            "root/A: idle leaf (all-zero demand); it gets nothing",
        ),
        (&empty, "root: empty pool; it gets nothing"),
    ] {
        assert_eq!(tree.notes(), [note]);
        for policy in leontief_hdrf::Policy::ALL {
            let x = leontief_hdrf::allocate(tree, policy).unwrap();
            for v in tree.nodes() {
                assert_eq!(x.node(v).allocation, [0.into()], "{}", policy.name());
            }
        }
    }
}

#[test]
fn negative_entries() {
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, -0.5]})),
        "tree.children[1].children[0].demand[1]: must not be negative, found -1/2"
    );
}

#[test]
fn non_positive_capacity() {
    assert_eq!(
        error_of(
            r#"{"capacity": [1, 0], "tree": {"children": [{"name": "A", "demand": [1, 0]}]}}"#
        ),
        "capacity[1]: must be positive, found 0"
    );
    assert_eq!(
        error_of(r#"{"capacity": [], "tree": {"children": [{"name": "A", "demand": []}]}}"#),
        "capacity: expected at least one resource, found none"
    );
}

#[test]
fn resources_length_mismatch() {
    assert_eq!(
        error_of(
            r#"{"resources": ["cpu"], "capacity": [1, 1], "tree": {"children": [{"name": "A", "demand": [1, 0]}]}}"#
        ),
        "resources: expected 2 names, one per capacity entry, found 1"
    );
}

#[test]
fn unknown_fields() {
    assert_eq!(
        error_with(json!({"name": "B1", "demand": [1, 0], "cap": 2})),
        "tree.children[1].children[0].cap: unknown field (expected name, weight, demand, tasks, children)"
    );
    assert_eq!(
        error_of(
            r#"{"capacity": [1], "users": [], "tree": {"children": [{"name": "A", "demand": [1]}]}}"#
        ),
        "users: unknown field (expected resources, capacity, tree, about, note)"
    );
}

#[test]
fn structural_errors() {
    assert_eq!(error_of(r#"{"capacity": [1]}"#), "tree: missing");
    assert_eq!(
        error_of(r#"{"tree": {"children": [{"name": "A", "demand": [1]}]}}"#),
        "capacity: missing"
    );
    assert_eq!(
        error_of(r#"{"capacity": [1], "tree": {"name": "A", "demand": [1]}}"#),
        "tree: the root must be a pool (a node with children)"
    );
    assert_eq!(
        error_with(json!({"demand": [1, 0]})),
        "tree.children[1].children[0].name: missing"
    );
    assert_eq!(
        error_with(json!({"name": "B/1", "demand": [1, 0]})),
        "tree.children[1].children[0].name: \"B/1\" contains '/', which separates the parts of a path"
    );
    assert_eq!(
        error_with(json!([1, 0])),
        "tree.children[1].children[0]: expected an object, found a list"
    );
    assert_eq!(
        error_with(json!({"name": "B1", "children": {"name": "C"}})),
        "tree.children[1].children[0].children: expected a list of nodes, found an object"
    );
    assert!(matches!(
        Tree::from_json_str("{\"capacity\": [1,"),
        Err(SolverError::Json { .. })
    ));
    assert_eq!(
        error_of("[1]"),
        "(top level): expected an object, found a list"
    );
}

#[test]
fn too_deep_is_an_error_not_a_crash() {
    let mut node = NodeSpec::leaf("leaf", [1]);
    for d in 0..100 {
        node = NodeSpec::pool(format!("p{d}"), [node]);
    }
    let msg = Tree::new(vec![1.into()], node).unwrap_err().to_string();
    assert!(msg.ends_with("the tree is deeper than 64 levels"), "{msg}");
    assert!(msg.starts_with("tree.children[0].children[0]"), "{msg}");
}

#[test]
fn builder_errors_use_the_same_paths() {
    let err = Tree::new(
        vec![1.into(), 1.into()],
        NodeSpec::pool(
            "root",
            [NodeSpec::pool(
                "B",
                [NodeSpec::leaf("B1", [1, 0]).weight(-1)],
            )],
        ),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "tree.children[0].children[0].weight: must be positive, found -1"
    );
}

#[test]
fn policy_names() {
    for p in Policy::ALL {
        assert_eq!(p.name().parse::<Policy>().unwrap(), p);
        assert_eq!(p.to_string(), p.name());
    }
    assert_eq!(
        "drf".parse::<Policy>().unwrap_err().to_string(),
        "policy: unknown policy \"drf\" (expected collapsed, naive, min-satisfaction or hdrf)"
    );
}

/// An instance with pools viewed as a tree: what a tree does not allow is named by the
/// instance's field.
#[test]
fn instances_that_are_not_trees() {
    use leontief_solver::{Instance, Pool, User};
    let with = |pools: Vec<Pool>, users: Vec<User>| {
        let m = users[0].demand.len();
        let inst = Instance::builder(vec![1.into(); m])
            .resources((1..=m).map(|j| format!("r{j}")).collect())
            .pools(pools)
            .users(users)
            .build()
            .unwrap();
        Tree::from_instance(&inst).unwrap_err().to_string()
    };
    // A pool named like a user elsewhere in the tree, a user named like the root: names
    // need only be unique among siblings, so both are trees.
    let tree = |pools: Vec<Pool>, users: Vec<User>| {
        let inst = Instance::builder(vec![1.into()])
            .pools(pools)
            .users(users)
            .build()
            .unwrap();
        Tree::from_instance(&inst).unwrap()
    };
    let t = tree(
        vec![Pool::new("P"), Pool::new("x")],
        vec![User::new("x", [1]).pool(0), User::new("y", [1]).pool(1)],
    );
    assert!(t.find_path("root/P/x").is_some() && t.find_path("root/x/y").is_some());
    let t = tree(vec![], vec![User::new("root", [1])]);
    assert!(t.find_path("root/root").is_some());
    // One weight per node.
    assert_eq!(
        with(
            vec![],
            vec![User::new("a", [1, 1]).resource_weights([1, 2])]
        ),
        "users[0].weights: hierarchical policies take one weight per node, not per resource"
    );
    // A chain of 70 pools.
    let pools = (0..70)
        .map(|d| {
            let p = Pool::new(format!("p{d}"));
            if d == 0 {
                p
            } else {
                p.parent(d - 1)
            }
        })
        .collect();
    let msg = with(pools, vec![User::new("leaf", [1]).pool(69)]);
    assert_eq!(msg, "pools[64].name: the tree is deeper than 64 levels");
}
