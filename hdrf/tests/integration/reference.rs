//! The worked examples of `reference/trees.json` (the lecture and the H-DRF paper), exact.

use crate::common;

use common::shares;
use leontief_hdrf::{allocate, properties, Policy, Tree};
use serde_json::{json, Value};

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../reference/trees.json"
    ))
    .expect("reference/trees.json");
    let doc: Value = serde_json::from_str(&text).expect("valid JSON");
    doc["cases"].as_array().expect("cases").clone()
}

/// The case's tree on capacities (1, 1), as the file's `about` says.
fn tree_of(id: &str) -> Tree {
    let case = cases()
        .into_iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("case {id}"));
    Tree::from_json(&json!({"capacity": [1, 1], "tree": case["tree"]})).expect("valid tree")
}

#[test]
fn file_values_match_every_stated_figure() {
    let mut checked = 0;
    for case in cases() {
        let tree = tree_of(case["id"].as_str().expect("id"));
        for key in ["static_fill_from_zero", "static"] {
            let Some(table) = case.get(key) else { continue };
            for (policy, values) in table.as_object().expect("object") {
                let policy: Policy = policy.parse().expect("known policy");
                let x = allocate(&tree, policy).expect("allocates");
                for (node, want) in values.as_object().expect("object") {
                    let v = tree.find(node).expect("node");
                    assert_eq!(
                        x.dominant_share(v).to_string(),
                        want.as_str().expect("string"),
                        "{} {key} {} {node}",
                        case["id"],
                        policy.name()
                    );
                    checked += 1;
                }
            }
        }
        for (node, want) in case["guaranteed"].as_object().into_iter().flatten() {
            let v = tree.find(node).expect("node");
            assert_eq!(
                tree.node(v).guaranteed_share().to_string(),
                want.as_str().unwrap()
            );
            checked += 1;
        }
    }
    // 3 naive + 4 guaranteed (lecture) + 3 H-DRF + 3 collapsed (paper).
    assert_eq!(checked, 13);
}

#[test]
fn lecture_example_every_policy() {
    let tree = tree_of("lecture-naive-starvation");
    let names = ["A", "B1", "B2", "B"];
    for (policy, want) in [
        // Naive (the file): A and B split the CPU (B's share is max(B1's CPU, B2's memory), both
        // 1/2 when the CPU saturates at A = B1 = 1/2); then B2 takes the rest of the memory.
        (Policy::Naive, ["1/2", "1/2", "1", "1"]),
        // Min-satisfaction, by hand: g = A 1/2, B 1/2, B1 = B2 = 1/4. B1 and B2 grow with equal
        // σ (B1 CPU = B2 memory = s/4), so σ_B = (s/4)/(1/2) = s/2 is B's key, the minimum of its
        // subtree; A's key is σ_A = 2a. Equal keys: a = s/4 = B1's CPU, so the CPU (a + s/4)
        // saturates at A = B1 = 1/2, B2 = 1/2; B2 alone then fills the memory.
        (Policy::MinSatisfaction, ["1/2", "1/2", "1", "1"]),
        // H-DRF: the same phases (no leaf stops before the CPU saturates).
        (Policy::Hdrf, ["1/2", "1/2", "1", "1"]),
        // Collapsed: weights 1/2, 1/4, 1/4 on the CPU: A 2/3, B1 1/3; B2 all the memory.
        (Policy::Collapsed, ["2/3", "1/3", "1", "1"]),
    ] {
        assert_eq!(shares(&tree, policy, &names), want, "{}", policy.name());
    }
    for policy in Policy::ALL {
        let x = allocate(&tree, policy).unwrap();
        assert!(properties::share_guarantee(&tree, &x).is_empty());
        assert!(properties::pareto_violations(&tree, &x).is_empty());
    }
}

#[test]
fn hdrf_paper_example_every_policy() {
    let tree = tree_of("hdrf-paper-starvation");
    let names = ["n1", "n21", "n22", "n2"];
    for (policy, want) in [
        (Policy::Hdrf, ["1/2", "1", "1/2", "1"]),
        (Policy::Collapsed, ["2/3", "1", "1/3", "1"]),
        // Naive: n1's memory and n2's share (n21's CPU = n22's memory) rise together; memory
        // saturates at n1 = n22 = 1/2, then n21 fills the CPU.
        (Policy::Naive, ["1/2", "1", "1/2", "1"]),
        // Min-satisfaction, by hand: σ_n1 = 2·mem, n21 CPU = n22 memory = s/4 with σ_n2 = s/2 the
        // minimum of n2's subtree; equal keys give n1 = n22, memory saturates at 1/2 each, then
        // n21 fills the CPU: the same as H-DRF.
        (Policy::MinSatisfaction, ["1/2", "1", "1/2", "1"]),
    ] {
        assert_eq!(shares(&tree, policy, &names), want, "{}", policy.name());
    }
}
