//! End-to-end tests of `leontief hdrf`: the lecture's tree and the H-DRF paper's, as the
//! sources give them (reference/trees.json), and a validation error.

use crate::common;

use std::process::Output;

use serde_json::Value;

fn run(args: &[&str], stdin: &str) -> Output {
    common::run_with(args, Some(stdin))
}

/// Dominant share of the node whose path ends with `/name`.
fn share(v: &Value, name: &str) -> String {
    common::node_where(v, "name", name)["dominant_share"]
        .as_str()
        .unwrap()
        .to_string()
}

const HDRF_PAPER: &str = r#"{"resources": ["cpu", "gpu"], "capacity": [1, 1], "tree": {"name": "root", "children": [
    {"name": "n1", "demand": [0, 1]},
    {"name": "n2", "children": [{"name": "n21", "demand": [1, 0]}, {"name": "n22", "demand": [0, 1]}]}]}}"#;

#[test]
fn hdrf_paper_static_values() {
    // Bhattacharya et al. (SoCC 2013) via reference/trees.json: H-DRF n1 1/2, n21 1, n22 1/2;
    // collapsed n1 2/3, n21 1, n22 1/3.
    let out = run(&["hdrf", "--policy", "all", "-"], HDRF_PAPER);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let all: Value = serde_json::from_slice(&out.stdout).unwrap();
    let by_policy = |p: &str| {
        all.as_array()
            .unwrap()
            .iter()
            .find(|a| a["policy"] == p)
            .unwrap()
            .clone()
    };
    let hdrf = by_policy("hdrf");
    assert_eq!(
        [share(&hdrf, "n1"), share(&hdrf, "n21"), share(&hdrf, "n22")],
        ["1/2", "1", "1/2"]
    );
    let collapsed = by_policy("collapsed");
    assert_eq!(
        [
            share(&collapsed, "n1"),
            share(&collapsed, "n21"),
            share(&collapsed, "n22")
        ],
        ["2/3", "1", "1/3"]
    );
}

/// `--policy all --format tree` puts the policies side by side: the paper's values in one row
/// per node (n22: 1/3 under collapsed, 1/2 under the tree policies), then each policy's tree.
#[test]
fn all_policies_side_by_side_on_the_terminal() {
    let out = run(
        &["hdrf", "--policy", "all", "--format", "tree", "-"],
        HDRF_PAPER,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let row = |name: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|l| {
                l.trim_start_matches(['│', '├', '└', '─', ' '])
                    .starts_with(&format!("{name} "))
            })
            .unwrap_or_else(|| panic!("no row {name} in\n{text}"));
        line.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(String::from)
            .collect()
    };
    // One column per policy the flag accepts but `all`, in the flag's order.
    let mut policies = common::listed_names(
        &["hdrf", "--policy", "fair", "-"],
        "error: --policy: unknown policy \"fair\" (expected ",
        ')',
    );
    assert_eq!(policies.pop().as_deref(), Some("all"));
    let header = row("node");
    assert_eq!(header[..2], ["node", "g"]);
    assert_eq!(header[2..], policies[..]);
    // Cells: path, g, then "share (satisfaction)" per policy in the header's order; the
    // paper's policies by name.
    let cell = |node: &str, policy: &str| -> String {
        let at = header.iter().position(|h| h == policy).expect("a column");
        row(node)[at].clone()
    };
    assert_eq!(row("n22")[1], "1/4");
    assert_eq!(row("n1")[1], "1/2");
    assert_eq!(cell("n22", "collapsed"), "1/3 (4/3)");
    assert_eq!(cell("n1", "collapsed"), "2/3 (4/3)");
    for policy in ["naive", "min-satisfaction", "hdrf"] {
        assert_eq!(cell("n22", policy), "1/2 (2)", "{policy}");
        assert_eq!(cell("n1", policy), "1/2 (1)", "{policy}");
    }
    // Each policy's full tree follows the comparison.
    for policy in &policies {
        assert!(text.lines().any(|l| l == policy), "no {policy} section");
    }
}

#[test]
fn lecture_tree_guarantees_and_naive_fill() {
    // The lecture: guaranteed A 1/2, B 1/2, B1 1/4, B2 1/4; naive fill from zero A 1/2, B1 1/2, B2 1.
    let tree = r#"{"resources": ["cpu", "mem"], "capacity": [1, 1], "tree": {"name": "root", "children": [
        {"name": "A", "demand": [1, 0]},
        {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#;
    let out = run(&["hdrf", "--policy", "naive", "-"], tree);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        [share(&v, "A"), share(&v, "B1"), share(&v, "B2")],
        ["1/2", "1/2", "1"]
    );
    let g = |name: &str| common::node_where(&v, "name", name)["guaranteed_share"].clone();
    assert_eq!(
        [g("A"), g("B"), g("B1"), g("B2")],
        ["1/2", "1/2", "1/4", "1/4"]
    );
    let drawn = run(
        &["hdrf", "--policy", "naive", "--format", "tree", "-"],
        tree,
    );
    let text = String::from_utf8_lossy(&drawn.stdout);
    assert!(text.contains("B1") && text.contains("1/4"), "{text}");
}

#[test]
fn bad_trees_are_rejected_with_the_path() {
    let bad = r#"{"capacity": [1, 1], "tree": {"name": "root", "children": [{"name": "A", "demand": [1, 0, 0]}]}}"#;
    let out = run(&["hdrf", "-"], bad);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tree.children[0].demand"), "{err}");
    let out = run(&["hdrf", "--policy", "fair", "-"], HDRF_PAPER);
    assert_eq!(out.status.code(), Some(2));
}

/// The hierarchical policies as mechanisms of `check` and `verify` (tree files are read in
/// their flat form, users named by their paths).
#[test]
fn hierarchical_mechanisms_in_check_and_verify() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/flattening.json");
    let holds = |mechanism: &str| -> Value {
        let out = run(
            &["check", "--mechanism", mechanism, "--property", "sg", file],
            "",
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()[0].clone()
    };
    // The lecture: the pool P promised 1/2 gets 1/3 when flattened.
    let flat = holds("hdrf:collapsed");
    assert_eq!(flat["holds"], false);
    assert_eq!(flat["witness"]["node"], "P");
    assert_eq!(flat["witness"]["dominant_share"], "1/3");
    assert_eq!(holds("hdrf:min-satisfaction")["holds"], true);
    let out = run(
        &[
            "verify",
            "--mechanism",
            "hdrf:hdrf",
            "--property",
            "sg",
            "--pools",
            "1..3",
            "--instances",
            "300",
            "--weights",
            "--zeros",
            "1/3",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["instances"].as_u64(), v["violations"].as_u64()),
        (Some(300), Some(0))
    );
    let bad = run(&["verify", "--property", "sg", "--pools", "0..2"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--pools"));
}
