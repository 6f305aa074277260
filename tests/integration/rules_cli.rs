//! End-to-end tests of the tree rules on the command line (`docs/production.md`):
//! `--guarantees additive|clamp`, `--oversubscribed`, `--limit-below-guarantee` on `hdrf`,
//! `solve`, `check` and `order`, fifo pools, and the notes on nodes that get nothing.

use crate::common;

use std::process::Output;

use serde_json::Value;

fn run(args: &[&str], stdin: &str) -> Output {
    common::run_with(args, Some(stdin))
}

/// Tasks of each leaf in an `hdrf` answer, by path.
fn tasks(v: &Value, paths: &[&str]) -> Vec<String> {
    paths
        .iter()
        .map(|p| {
            v["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|n| n["path"] == *p)
                .unwrap_or_else(|| panic!("no node {p}"))["tasks"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// YARN's `TestComputeFairShares.testWeightedSharingWithMinShares` (apache/hadoop): min
/// 20, 0, 5, 15, weights 2, 1, 1, 1/2 on 45: YARN documents 20, 5, 5, 15 (its clamp rule).
/// The additive rule gives the guarantees, then 5 by weight: 200/9, 10/9, 55/9, 140/9.
const YARN_MIN_SHARES: &str = r#"{"resources": ["memory"], "capacity": [45], "tree": {"children": [
    {"name": "a", "weight": 2, "guarantee": [20], "demand": [1]},
    {"name": "b", "demand": [1]},
    {"name": "c", "guarantee": [5], "demand": [1]},
    {"name": "d", "weight": "1/2", "guarantee": [15], "demand": [1]}]}}"#;

const ABCD: [&str; 4] = ["root/a", "root/b", "root/c", "root/d"];

#[test]
fn guarantees_clamp_and_additive_in_hdrf() {
    let clamp = common::ok_json(&run(
        &["hdrf", "--policy", "hdrf", "--guarantees", "clamp", "-"],
        YARN_MIN_SHARES,
    ));
    assert_eq!(tasks(&clamp, &ABCD), ["20", "5", "5", "15"]);
    for extra in [&["--guarantees", "additive"][..], &[]] {
        let mut args = vec!["hdrf", "--policy", "hdrf"];
        args.extend_from_slice(extra);
        args.push("-");
        let additive = common::ok_json(&run(&args, YARN_MIN_SHARES));
        assert_eq!(tasks(&additive, &ABCD), ["200/9", "10/9", "55/9", "140/9"]);
    }
}

#[test]
fn guarantees_clamp_in_solve_with_a_hierarchical_mechanism() {
    let out = common::ok_json(&run(
        &[
            "solve",
            "--mechanism",
            "hdrf:naive",
            "--guarantees",
            "clamp",
            "-",
        ],
        YARN_MIN_SHARES,
    ));
    let text = out.to_string();
    for (user, t) in [("a", "20"), ("b", "5"), ("c", "5"), ("d", "15")] {
        assert!(
            text.contains(&format!("\"{user}\"")) && text.contains(&format!("\"{t}\"")),
            "{text}"
        );
    }
}

/// YTsaurus' `TestStrongGuaranteeAdjustmentToTotalResources` (ytsaurus/ytsaurus): 30 + 90 on
/// 100 are refused by default and scaled to 25 + 75 with `--oversubscribed scale`.
const OVER: &str = r#"{"capacity": [100], "tree": {"children": [
    {"name": "A", "guarantee": [30], "children": [{"name": "op", "demand": [1]}]},
    {"name": "B", "guarantee": [90], "children": [{"name": "op", "demand": [1]}]}]}}"#;

#[test]
fn oversubscribed_guarantees_by_flag() {
    common::assert_bad(
        &run(&["hdrf", "-"], OVER),
        "error: tree.children: the children's guarantees add up to 120 of r1, above the capacity, 100\n",
    );
    let v = common::ok_json(&run(&["hdrf", "--oversubscribed", "scale", "-"], OVER));
    assert_eq!(tasks(&v, &["root/A/op", "root/B/op"]), ["25", "75"]);
    let out = run(
        &[
            "check",
            "--mechanism",
            "hdrf:hdrf",
            "--property",
            "po",
            "--oversubscribed",
            "scale",
            "-",
        ],
        OVER,
    );
    assert_eq!(common::ok_json(&out)[0]["holds"], true);
}

/// YTsaurus' `TestLimitsLowerThanStrongGuarantee`: a limit (50) below the guarantee (100).
const LIMIT_BELOW: &str = r#"{"capacity": [100], "tree": {"children": [
    {"name": "parent", "guarantee": [100], "limit": [50], "children": [
        {"name": "op", "demand": [1]}]}]}}"#;

#[test]
fn limit_below_guarantee_by_flag() {
    common::assert_bad(
        &run(&["hdrf", "-"], LIMIT_BELOW),
        "error: tree.children[0].limit[0]: 50 of r1 is below the guarantee, 100\n",
    );
    // YTsaurus lowers the guarantee: the op holds 50; YARN raises the limit: 100.
    for (rule, op) in [("lower-guarantee", "50"), ("raise-limit", "100")] {
        let v = common::ok_json(&run(
            &["hdrf", "--limit-below-guarantee", rule, "-"],
            LIMIT_BELOW,
        ));
        assert_eq!(tasks(&v, &["root/parent/op"]), [op], "{rule}");
    }
}

#[test]
fn rules_flags_that_do_not_apply_are_errors() {
    common::assert_bad(
        &run(&["solve", "--mechanism", "drf", "--guarantees", "clamp", "-"], YARN_MIN_SHARES),
        "error: --guarantees applies to the hierarchical mechanisms (hdrf:*); not to --mechanism drf\n",
    );
    common::assert_bad(
        &run(
            &["check", "--property", "po", "--oversubscribed", "scale", "-"],
            YARN_MIN_SHARES,
        ),
        "error: --oversubscribed applies to the hierarchical mechanisms (hdrf:*); not to --mechanism drf\n",
    );
    common::assert_bad(
        &run(
            &[
                "solve", "--mechanism", "hdrf:naive", "--capacity", "1", "--user", "a=1",
                "--limit-below-guarantee", "raise-limit",
            ],
            "",
        ),
        "error: --limit-below-guarantee applies to a tree (a FILE); inline --capacity/--user make none\n",
    );
    common::assert_bad(
        &run(&["order", "--guarantees", "clamp", "-"], YARN_MIN_SHARES),
        "error: --guarantees applies only to --rule ytsaurus (its static fair share), not --rule naive\n",
    );
    let out = run(&["hdrf", "--guarantees", "max", "-"], YARN_MIN_SHARES);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// YARN's `TestFairScheduler.testFifoWithinQueue`: a FIFO queue on 3072 MB, app1 and app2
/// asking for two 1024 MB containers each: app1 gets both, app2 the one left.
#[test]
fn fifo_pools_in_hdrf() {
    let tree = r#"{"resources": ["memory-mb"], "capacity": [3072], "tree": {"children": [
        {"name": "queue1", "mode": "fifo", "children": [
            {"name": "app1", "demand": [1024], "tasks": 2},
            {"name": "app2", "demand": [1024], "tasks": 2}]}]}}"#;
    let all = common::ok_json(&run(&["hdrf", "--policy", "all", "-"], tree));
    for answer in all.as_array().unwrap() {
        assert_eq!(
            tasks(answer, &["root/queue1/app1", "root/queue1/app2"]),
            ["2", "1"],
            "{}",
            answer["policy"]
        );
    }
}

#[test]
fn notes_in_json_and_as_a_footnote_of_the_table() {
    let tree = r#"{"capacity": [1], "tree": {"children": [
        {"name": "a", "demand": [1]}, {"name": "b", "demand": [0]}, {"name": "c", "children": []}]}}"#;
    let v = common::ok_json(&run(&["hdrf", "-"], tree));
    let notes = serde_json::json!([
        "root/c: empty pool; it gets nothing",
        "root/b: idle leaf (all-zero demand); it gets nothing"
    ]);
    assert_eq!(v["notes"], notes);
    let out = run(&["hdrf", "--format", "tree", "-"], tree);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with(
            "notes:\n  root/c: empty pool; it gets nothing\n  root/b: idle leaf (all-zero demand); it gets nothing\n"
        ),
        "{text}"
    );
}

/// A tree with no leaf, and one whose leaves are all idle, are valid: every command copes,
/// everyone gets nothing, and `hdrf` says why.
#[test]
fn empty_and_all_idle_trees_get_nothing() {
    let empty = r#"{"capacity": [1], "tree": {"children": []}}"#;
    let idle = r#"{"capacity": [1], "tree": {"children": [{"name": "b", "demand": [0], "usage": ["1/2"]}]}}"#;
    for (tree, note) in [
        (empty, "root: empty pool; it gets nothing"),
        (idle, "root/b: idle leaf (all-zero demand); it gets nothing"),
    ] {
        let v = common::ok_json(&run(&["hdrf", "--policy", "all", "-"], tree));
        for answer in v.as_array().unwrap() {
            assert_eq!(answer["notes"], serde_json::json!([note]));
            for node in answer["nodes"].as_array().unwrap() {
                assert_eq!(node["allocation"], serde_json::json!(["0"]));
            }
        }
        let checked = common::ok_json(&run(
            &[
                "check",
                "--mechanism",
                "hdrf:hdrf",
                "--property",
                "po,sg",
                "-",
            ],
            tree,
        ));
        assert!(checked
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["holds"] == true));
        // Every flat mechanism answers with no users and nothing consumed; CEEI's market
        // has no buyer, so every price is 0, certified.
        for mechanism in ["drf", "asset", "discrete-drf", "ceei"] {
            let v = common::ok_json(&run(&["solve", "--mechanism", mechanism, "-"], tree));
            assert_eq!(v["users"], serde_json::json!([]), "{mechanism}");
            assert_eq!(v["consumption"], serde_json::json!(["0"]), "{mechanism}");
        }
        let v = common::ok_json(&run(&["solve", "--mechanism", "ceei", "-"], tree));
        assert_eq!(
            (v["certified"].clone(), v["prices"]["r1"].clone()),
            (serde_json::json!(true), serde_json::json!("0"))
        );
        // The simulator takes no usage: the idle leaf without it.
        let bare = tree.replace(r#", "usage": ["1/2"]"#, "");
        let sim = common::ok_json(&run(&["simulate", "--horizon", "10", "-"], &bare));
        assert_eq!(sim["tasks"]["started"], 0);
    }
    // `order` ranks what leaves hold: an idle leaf's usage counts, and nobody is offered.
    let order = common::ok_json(&run(&["order", "-"], idle));
    assert_eq!(order["offer"], serde_json::json!([]));
    assert_eq!(order["nodes"][0]["usage"], serde_json::json!(["1/2"]));
}
