//! End-to-end tests of `leontief order`: documented cases of the schedulers' own test suites
//! replayed through the tree JSON, and the error messages, verbatim.

use crate::common;

use std::process::Output;

use serde_json::Value;

fn run(args: &[&str], stdin: &str) -> Output {
    common::run_with(args, Some(stdin))
}

fn offer(v: &Value) -> Vec<String> {
    v["offer"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

fn node<'a>(v: &'a Value, path: &str) -> &'a Value {
    common::node_where(v, "path", path)
}

/// apache/mesos, src/tests/sorter_tests.cpp, DRFSorterTest.AllocationCountTieBreak: five
/// clients each holding (3, 3) of (100, 100); c was allocated three times, d twice, the others
/// once -> [a, b, e, d, c] (equal shares, then the allocation count, then the name).
const FIVE_EQUAL: &str = r#"{"resources": ["cpus", "mem"], "capacity": [100, 100], "tree": {"children": [
    {"name": "a", "demand": [1, 1], "usage": [3, 3]},
    {"name": "b", "demand": [1, 1], "usage": [3, 3]},
    {"name": "c", "demand": [1, 1], "usage": [3, 3]},
    {"name": "d", "demand": [1, 1], "usage": [3, 3]},
    {"name": "e", "demand": [1, 1], "usage": [3, 3]}]}}"#;

#[test]
fn mesos_allocation_count_tie_break() {
    let out = run(&["order", "--served", "a,b,c,c,c,d,d,e", "-"], FIVE_EQUAL);
    let v = common::ok_json(&out);
    assert_eq!(v["rule"], "naive");
    assert_eq!(v["ties"], "count,name");
    assert_eq!(
        offer(&v),
        ["root/a", "root/b", "root/e", "root/d", "root/c"]
    );
    // Every share is 3/100; c's count is its three offers.
    assert_eq!(node(&v, "root/c")["dominant_share"], "3/100");
    assert_eq!(node(&v, "root/c")["count"], 3);
    assert_eq!(node(&v, "root/c")["rank"], 5);
    // Without a history the count is the whole tasks held (3 each): every key and count
    // ties, and the name decides.
    let v = common::ok_json(&run(&["order", "-"], FIVE_EQUAL));
    assert_eq!(
        offer(&v),
        ["root/a", "root/b", "root/c", "root/d", "root/e"]
    );
}

/// apache/mesos, src/tests/sorter_tests.cpp, DRFSorterTest.HierarchicalAllocation: a
/// (6, 6), b/c (4, 4), b/d (3, 3) of (100, 100): subtree b = 7/100 > a = 6/100, and inside
/// b, d = 3/100 < c = 4/100 -> [a, b/d, b/c].
#[test]
fn mesos_hierarchical_allocation() {
    let tree = r#"{"capacity": [100, 100], "tree": {"children": [
        {"name": "a", "demand": [1, 1], "usage": [6, 6]},
        {"name": "b", "children": [
            {"name": "c", "demand": [1, 1], "usage": [4, 4]},
            {"name": "d", "demand": [1, 1], "usage": [3, 3]}]}]}}"#;
    let v = common::ok_json(&run(&["order", "-"], tree));
    assert_eq!(offer(&v), ["root/a", "root/b/d", "root/b/c"]);
    assert_eq!(node(&v, "root/b")["dominant_share"], "7/100");
    assert_eq!(node(&v, "root/b")["usage"], serde_json::json!(["7", "7"]));
    assert_eq!(node(&v, "root/b")["sibling_rank"], 2);
    assert_eq!(node(&v, "root/b")["rank"], Value::Null);
}

/// apache/hadoop, .../fair/policies/TestDominantResourceFairnessPolicy.java,
/// testBothAreNeedy: cluster <8000, 100>; s1 <2000, 5> with min <3000, 6> (dominant memory,
/// 2000 < 3000: needy; "dominant min share is 2/3"), s2 <4000, 3> with min <5000, 4>
/// (4000 < 5000: needy; 4/5) -> s1 first. s2 is listed first and named after s1: the key
/// decides, not the order.
#[test]
fn yarn_both_needy() {
    let tree = r#"{"resources": ["mem", "vcores"], "capacity": [8000, 100], "tree": {"children": [
        {"name": "s2", "demand": [1, 1], "usage": [4000, 3], "guarantee": [5000, 4]},
        {"name": "s1", "demand": [1, 1], "usage": [2000, 5], "guarantee": [3000, 6]}]}}"#;
    let v = common::ok_json(&run(
        &["order", "--rule", "yarn", "--tie", "first", "-"],
        tree,
    ));
    assert_eq!(offer(&v), ["root/s1", "root/s2"]);
    let s1 = node(&v, "root/s1");
    assert_eq!(s1["needy"], true);
    // Needy (0), then U/g over s1's resources by descending usage share: memory 2000/3000,
    // vcores 5/6.
    assert_eq!(s1["key"], serde_json::json!(["0", "2/3", "5/6"]));
    assert_eq!(s1["deficit"], serde_json::json!(["1000", "1"]));
    assert_eq!(
        node(&v, "root/s2")["deficit"],
        serde_json::json!(["1000", "1"])
    );
}

/// kubernetes-sigs/kueue, pkg/cache/scheduler/fair_sharing_test.go,
/// TestDominantResourceShare, "usage with workload above nominal": cq (nominal cpu 2, gpu 5)
/// uses cpu 1, gpu 2 and requests cpu 4, gpu 4; lendable 10 each -> "(1+4-2)*1000/10" = 300,
/// i.e. 3/10 exactly. lending-cq (nominal 8, 5) stays within its nominal quota: 0, first.
#[test]
fn kueue_share_with_the_next_workload() {
    let tree = r#"{"resources": ["cpu", "gpu"], "capacity": [10, 10], "tree": {"name": "cohort", "children": [
        {"name": "cq", "demand": [4, 4], "usage": [1, 2], "guarantee": [2, 5]},
        {"name": "lending-cq", "demand": [1, 1], "guarantee": [8, 5]}]}}"#;
    let v = common::ok_json(&run(&["order", "--rule", "kueue", "-"], tree));
    assert_eq!(node(&v, "cohort/cq")["key"], serde_json::json!(["3/10"]));
    assert_eq!(
        node(&v, "cohort/lending-cq")["key"],
        serde_json::json!(["0"])
    );
    assert_eq!(offer(&v), ["cohort/lending-cq", "cohort/cq"]);
}

/// By hand: capacity (1, 1); a demands (1/4, 0), b (0, 1/4). H-DRF's static allocation gives a
/// all the cpu and b all the memory: fair shares (1, 0) and (0, 1). a holds (1/2, 0):
/// satisfaction 1/2; b holds (0, 1/4): 1/4 -> b first.
#[test]
fn ytsaurus_satisfaction_over_the_hdrf_fair_share() {
    let tree = r#"{"capacity": [1, 1], "tree": {"children": [
        {"name": "a", "demand": ["1/4", 0], "usage": ["1/2", 0]},
        {"name": "b", "demand": [0, "1/4"], "usage": [0, "1/4"]}]}}"#;
    let v = common::ok_json(&run(&["order", "--rule", "ytsaurus", "-"], tree));
    assert_eq!(v["fair_share"], "hdrf");
    assert_eq!(
        node(&v, "root/a")["fair_share"],
        serde_json::json!(["1", "0"])
    );
    assert_eq!(node(&v, "root/a")["key"], serde_json::json!(["1/2"]));
    assert_eq!(node(&v, "root/b")["key"], serde_json::json!(["1/4"]));
    assert_eq!(offer(&v), ["root/b", "root/a"]);
}

/// By hand: capacity (10, 10). a holds (2, 2): 1/5; b holds its one task; i is idle; e is
/// an empty pool; p holds (1, 0) + (3, 1) = (4, 1): 2/5, its guarantee (4, 2) leaves a
/// deficit (0, 1); c2's next task (3, 1) would take p to 7 cpu, above its limit 5, while
/// c's (1, 1) takes it to exactly 5. Offers: a (1/5) before p (2/5), then p's only active
/// leaf c.
const REASONS: &str = r#"{"resources": ["cpu", "mem"], "capacity": [10, 10], "tree": {"children": [
    {"name": "a", "demand": [1, 1], "usage": [2, 2]},
    {"name": "b", "demand": [1, 1], "usage": [1, 1], "tasks": 1},
    {"name": "i", "demand": [0, 0]},
    {"name": "e", "children": []},
    {"name": "p", "guarantee": [4, 2], "limit": [5, 6], "children": [
        {"name": "c", "demand": [1, 1], "usage": [1, 0]},
        {"name": "c2", "demand": [3, 1], "usage": [3, 1]}]}]}}"#;

#[test]
fn inactive_leaves_say_why() {
    let v = common::ok_json(&run(&["order", "-"], REASONS));
    assert_eq!(offer(&v), ["root/a", "root/p/c"]);
    let paths = common::strings_at(&v, "nodes", "path");
    // Pre-order: a parent before its children, a whole subtree before the next sibling.
    let at = |p: &str| paths.iter().position(|&q| q == p).unwrap();
    assert_eq!(paths.len(), 8);
    assert_eq!(at("root"), 0);
    assert_eq!(
        (at("root/p/c"), at("root/p/c2")),
        (at("root/p") + 1, at("root/p") + 2)
    );
    assert_eq!(node(&v, "root/p")["deficit"], serde_json::json!(["0", "1"]));
    assert_eq!(node(&v, "root/p")["dominant_share"], "2/5");
    assert_eq!(node(&v, "root/b")["inactive"], "holds 1 of its 1 tasks");
    assert_eq!(node(&v, "root/i")["inactive"], "idle (all-zero demand)");
    assert_eq!(node(&v, "root/e")["inactive"], "empty pool");
    assert_eq!(
        node(&v, "root/p/c2")["inactive"],
        "its next task would exceed the limit of root/p on cpu (4 held, limit 5)"
    );
    let out = run(&["order", "--format", "table", "-"], REASONS);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("offer order: root/a, root/p/c\n"), "{text}");
    assert!(text.contains("  e "), "{text}");
}

#[test]
fn errors_are_named() {
    let no_usage = r#"{"capacity": [1], "tree": {"children": [{"name": "a", "demand": [1]}]}}"#;
    common::assert_bad(
        &run(&["order", "-"], no_usage),
        "error: usage: no leaf of the tree has a \"usage\"; order ranks the nodes by what their leaves hold now (give \"usage\": [..] on the leaves that hold something)",
    );
    // The rules and tie-breaks an unknown one's error lists: clap's possible values for
    // --rule, each tie-break documented under --tie, and the systems of docs/production.md
    // among them.
    let rules = common::listed_names_in(
        &run(&["order", "--rule", "drf", "-"], FIVE_EQUAL),
        "error: --rule: unknown rule \"drf\" (expected ",
        ')',
    );
    let help = String::from_utf8(run(&["order", "--help"], "").stdout).unwrap();
    let rule_help = &help[help.find("--rule <RULE>").expect("--rule in --help")..];
    let possible = rule_help
        .split("[possible values: ")
        .nth(1)
        .and_then(|l| l.split(']').next())
        .expect("possible values");
    assert_eq!(rules.join(", "), possible);
    common::assert_lists(&rules, &["naive", "yarn", "kueue", "ytsaurus"]);
    let ties = common::listed_names_in(
        &run(&["order", "--tie", "oldest", "-"], FIVE_EQUAL),
        "tie: unknown tie-break \"oldest\" (expected ",
        ')',
    );
    common::assert_documented(&ties, common::help_paragraph(&help, "--tie <"));
    common::assert_lists(&ties, &["first", "count", "lru", "name"]);
    common::assert_bad(
        &run(&["order", "--fair-share", "hdrf", "-"], FIVE_EQUAL),
        "error: --fair-share applies only to --rule ytsaurus, not --rule naive",
    );
    common::assert_bad(
        &run(&["order", "--tie", "lru", "-"], FIVE_EQUAL),
        "error: --tie lru needs --served (the history of offers, oldest first)",
    );
    common::assert_bad(
        &run(&["order", "--served", "a,zz", "-"], FIVE_EQUAL),
        "error: --served[1]: \"zz\" is not a leaf of the tree",
    );
}
