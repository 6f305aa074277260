//! Output forms (JSON, the tree drawing), round trips, and the property checks' witnesses.

use crate::common;

use common::{random_tree, Shape};
use leontief_hdrf::{allocate, properties, render_tree, Policy, Tree, TreeAllocation};
use leontief_solver::{Instance, Rational};
use proptest::prelude::*;

fn lecture() -> Tree {
    Tree::from_json_str(
        r#"{"resources": ["cpu", "mem"], "capacity": [1, 1], "tree": {"name": "root", "children": [
            {"name": "A", "demand": [1, 0]},
            {"name": "B", "weight": 2, "children": [{"name": "B1", "demand": [1, 0], "tasks": "1/5"}, {"name": "B2", "demand": [0, 1]}]}]}}"#,
    )
    .unwrap()
}

#[test]
fn allocation_json_lists_every_node_exactly() {
    let tree = lecture();
    let x = allocate(&tree, Policy::Hdrf).unwrap();
    let json = x.to_json(&tree);
    assert_eq!(json["policy"], "hdrf");
    assert_eq!(json["computation"], "fluid-exact");
    assert_eq!(json["resources"], serde_json::json!(["cpu", "mem"]));
    let nodes = json["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), tree.len());
    let paths: Vec<&str> = nodes.iter().map(|n| n["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        ["root", "root/A", "root/B", "root/B/B1", "root/B/B2"]
    );
    // B (weight 2) is promised 2/3; B1 stops at its cap 1/5, so A gets the rest of the CPU.
    let b = &nodes[2];
    assert_eq!(b["kind"], "pool");
    assert_eq!(b["guaranteed_share"], "2/3");
    assert!(b["tasks"].is_null());
    assert_eq!(nodes[3]["tasks"], "1/5");
    assert_eq!(nodes[1]["allocation"], serde_json::json!(["4/5", "0"]));
    for n in nodes {
        for field in [
            "dominant_share",
            "satisfaction",
            "guaranteed_share",
            "weight",
        ] {
            let text = n[field].as_str().unwrap();
            assert!(text.parse::<Rational>().is_ok(), "{field}: {text}");
        }
    }
}

#[test]
fn drawing_has_one_line_per_node_and_a_header() {
    let tree = lecture();
    let text = render_tree(&tree, &allocate(&tree, Policy::Naive).unwrap());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), tree.len() + 1);
    assert!(lines[0].starts_with("node"));
    assert!(lines[0].contains("allocation (cpu, mem)"));
    assert!(lines[4].starts_with("    ├── B1"));
    assert!(lines[5].starts_with("    └── B2"));
    assert!(lines[4].trim_end().ends_with("1/5"));
}

#[test]
fn hand_made_allocations_get_witnesses() {
    let tree = lecture();
    let leaves: Vec<_> = tree.leaves().collect();
    assert_eq!(
        TreeAllocation::from_tasks(&tree, Policy::Naive, vec![Rational::ONE])
            .unwrap_err()
            .to_string(),
        "tasks: expected 3 entries, one per leaf, found 1"
    );
    // A 1/2, B1 1/10, B2 1/2: B holds (1/10, 1/2), share 1/2 < 2/3; B1 (below its cap 1/5)
    // holds 1/10 < 1/3; the root 1/2 < 1.
    let naive = |tasks: [&str; 3]| {
        let tasks = tasks.iter().map(|t| t.parse().unwrap()).collect();
        TreeAllocation::from_tasks(&tree, Policy::Naive, tasks).unwrap()
    };
    let x = naive(["1/2", "1/10", "1/2"]);
    assert!(properties::is_feasible(&tree, &x));
    let bad = properties::share_guarantee(&tree, &x);
    let names: Vec<&str> = bad.iter().map(|v| tree.node(v.node).name()).collect();
    assert_eq!(names, ["root", "B", "B1"]);
    assert_eq!(bad[1].dominant_share.to_string(), "1/2");
    let waste = properties::pareto_violations(&tree, &x);
    let wasted: Vec<(&str, String)> = waste
        .iter()
        .map(|w| (tree.node(w.leaf).name(), w.room.to_string()))
        .collect();
    // CPU has 2/5 idle: A could run 2/5 more, B1 1/10 more (its cap); memory 1/2 for B2.
    assert_eq!(
        wasted,
        [
            ("A", "2/5".to_string()),
            ("B1", "1/10".to_string()),
            ("B2", "1/2".to_string())
        ]
    );
    // Over capacity (A 1, B1 1/5, B2 1) and over a cap (B1 1/2) are infeasible.
    for tasks in [["1", "1/5", "1"], ["0", "1/2", "0"]] {
        assert!(!properties::is_feasible(&tree, &naive(tasks)), "{tasks:?}");
    }
    assert_eq!(leaves.len(), 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A tree written as its instance reads back to the same tree, and every policy's JSON
    /// lists every node.
    #[test]
    fn json_round_trips(seed in any::<u64>(), m in 1usize..=3) {
        let tree = random_tree(seed, Shape { depth: 3, leaves: 6, m });
        let text = tree.instance().to_json().to_string();
        let back = Instance::from_json_str(&text).unwrap();
        prop_assert_eq!(Tree::from_instance(&back).unwrap(), tree.clone());
        for policy in Policy::ALL {
            let json = allocate(&tree, policy).unwrap().to_json(&tree);
            prop_assert_eq!(json["nodes"].as_array().unwrap().len(), tree.len());
        }
    }
}
