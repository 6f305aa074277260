//! Guarantees, limits, idle leaves and empty pools under the static policies
//! (`docs/production.md`): hand-derived cases (derivations in the comments) and documented
//! cases of YTsaurus' fair-share tests that our additive rule expresses.

use crate::common;

use common::q;
use leontief_hdrf::{
    allocate, properties, GuaranteeRule, LimitBelowGuarantee, Oversubscribed, Policy, Rules, Tree,
    TreeAllocation,
};
use leontief_solver::Rational;
use serde_json::json;

fn tree(doc: serde_json::Value) -> Tree {
    Tree::from_json(&doc).unwrap()
}

/// Leaf tasks by path, under `policy`.
fn tasks(t: &Tree, x: &TreeAllocation, paths: &[&str]) -> Vec<Rational> {
    paths
        .iter()
        .map(|p| x.tasks(t.find_path(p).unwrap()).unwrap().clone())
        .collect()
}

/// The hierarchical policies: all but collapsed, which flattens the tree to weighted leaves.
const HIERARCHICAL: &[Policy] = &[Policy::Naive, Policy::Hdrf, Policy::MinSatisfaction];

/// Every policy gives the leaves at `paths` the tasks `expected`.
fn all_policies(t: &Tree, paths: &[&str], expected: &[&str]) {
    policies_give(t, &Policy::ALL, paths, expected);
}

/// Each of `policies` gives the leaves at `paths` the tasks `expected`.
fn policies_give(t: &Tree, policies: &[Policy], paths: &[&str], expected: &[&str]) {
    let expected: Vec<Rational> = expected.iter().map(|s| q(s)).collect();
    for &policy in policies {
        let x = allocate(t, policy).unwrap();
        assert_eq!(tasks(t, &x, paths), expected, "{}", policy.name());
    }
}

#[test]
fn idle_leaves_and_empty_pools_get_nothing_and_say_so() {
    // a is the only leaf that demands something: it takes the whole capacity, 1 task.
    let t = tree(json!({"capacity": [1], "tree": {"children": [
        {"name": "a", "demand": [1]}, {"name": "b", "demand": [0]},
        {"name": "c", "children": []}, {"name": "d", "children": [{"name": "e", "demand": [0]}]}]}}));
    all_policies(&t, &["root/a", "root/b", "root/d/e"], &["1", "0", "0"]);
    let x = allocate(&t, Policy::Hdrf).unwrap();
    let c = t.find_path("root/c").unwrap();
    assert_eq!(x.node(c).allocation, vec![q("0")]);
    let notes = x.to_json(&t)["notes"].clone();
    // Nodes that hold no active leaf come after their siblings that do, pools (in the
    // order listed) before idle leaves: c, d (and its e), then b.
    assert_eq!(
        notes,
        json!([
            "root/c: empty pool; it gets nothing",
            "root/d/e: idle leaf (all-zero demand); it gets nothing",
            "root/b: idle leaf (all-zero demand); it gets nothing"
        ])
    );
    // a holds the whole capacity, so nothing is left for anyone (Pareto efficient), and no
    // node has a guarantee to fall short of; idle leaves take part in neither scan.
    assert!(properties::pareto_violations(&t, &x).is_empty());
    assert!(properties::share_guarantee(&t, &x).is_empty());
}

#[test]
fn a_leaf_guarantee_comes_first_then_the_rest_is_shared() {
    // Capacity 10 of one resource; a (guarantee 6) and b, both demand 1 per task, weight 1.
    // a first gets 6 tasks; the 4 left are shared equally (every policy is weighted DRF on
    // one resource among two leaves of equal weight): a 6 + 2 = 8, b 2.
    let t = tree(json!({"capacity": [10], "tree": {"children": [
        {"name": "a", "demand": [1], "guarantee": [6]}, {"name": "b", "demand": [1]}]}}));
    all_policies(&t, &["root/a", "root/b"], &["8", "2"]);
}

#[test]
fn a_leaf_guarantee_turns_into_tasks_by_its_scarcest_resource() {
    // a demands (2, 1) per task and is guaranteed (6, 6): min(6/2, 6/1) = 3 tasks first,
    // holding (6, 3). Left: (10 - 6, 10 - 3) = (4, 7). b demands (0, 1).
    // Fair part on the increments (weights 1): a's key is its increment's dominant share,
    // 2y/10 for y more tasks; b's is z/10. Equal keys: z = 2y. Resource 1 runs out at
    // 2y = 4, y = 2 (z = 4, resource 2 then holds 3 + 2 + 4 = 9 <= 10); a stops, b goes on
    // alone until resource 2 is full: 3 + 2 + z = 10, z = 5. a: 3 + 2 = 5 tasks, b: 5.
    // Collapsed flattens to the same two leaves of weight 1/2 each: the same fill.
    let t = tree(json!({"capacity": [10, 10], "tree": {"children": [
        {"name": "a", "demand": [2, 1], "guarantee": [6, 6]}, {"name": "b", "demand": [0, 1]}]}}));
    all_policies(&t, &["root/a", "root/b"], &["5", "5"]);
}

#[test]
fn a_pool_guarantee_is_shared_inside_the_pool_first() {
    // Capacity 12; P = {a, b} guaranteed 8, c alone; every demand 1 per task, weights 1.
    // Guarantees: P's 8 is shared inside P, a 4, b 4. The rest, 4, is shared on the
    // increments: naive, min-satisfaction and H-DRF give P and c equal keys, so P's two
    // leaves grow 1 each and c 2; collapsed gives a, b weight 1/4 and c 1/2, keys a/3, b/3,
    // c/6: a = b = 1, c = 2 as well. a 5, b 5, c 2.
    let t = tree(json!({"capacity": [12], "tree": {"children": [
        {"name": "P", "guarantee": [8], "children": [{"name": "a", "demand": [1]}, {"name": "b", "demand": [1]}]},
        {"name": "c", "demand": [1]}]}}));
    all_policies(&t, &["root/P/a", "root/P/b", "root/c"], &["5", "5", "2"]);
}

#[test]
fn a_guarantee_as_a_fraction_of_the_parent() {
    // P's guarantee is 1/2 of the capacity (6 of 12), a's 1/3 of P's (2): a first gets 2,
    // then P's remaining 4 is shared inside P equally by increments: a 2 + 2 = 4, b 2.
    // The rest of the cluster, 6, is
    // shared between P and c: naive-like policies split it 3 : 3, so a and b get 3/2 each
    // and c 3; collapsed (a, b weight 1/4, c 1/2) gives increments a = b = s, c = 2s,
    // 4s = 6: s = 3/2, c = 3. a 11/2, b 7/2, c 3.
    let t = tree(json!({"capacity": [12], "tree": {"children": [
        {"name": "P", "guarantee": "1/2", "children": [
            {"name": "a", "demand": [1], "guarantee": "1/3"}, {"name": "b", "demand": [1]}]},
        {"name": "c", "demand": [1]}]}}));
    let p = t.find_path("root/P").unwrap();
    assert_eq!(t.node(p).guarantee(), [q("6")]);
    assert_eq!(
        t.node(t.find_path("root/P/a").unwrap()).guarantee(),
        [q("2")]
    );
    all_policies(
        &t,
        &["root/P/a", "root/P/b", "root/c"],
        &["11/2", "7/2", "3"],
    );
}

#[test]
fn a_leaf_limit_caps_its_tasks() {
    // Capacity 10; a limited to 3 of it, b not: a stops at 3, b takes the other 7.
    let t = tree(json!({"capacity": [10], "tree": {"children": [
        {"name": "a", "demand": [1], "limit": [3]}, {"name": "b", "demand": [1]}]}}));
    all_policies(&t, &["root/a", "root/b"], &["3", "7"]);
}

#[test]
fn a_pool_limit_freezes_the_pool() {
    // Capacity 12; P = {a, b} limited to 4, c alone; demands 1 per task. Unlimited, P and c
    // would get 6 each. P and c rise together (a = b = c/2 under every policy) until P holds
    // 4: a = b = 2, c = 4; P is then frozen and c takes the rest, 8.
    let t = tree(json!({"capacity": [12], "tree": {"children": [
        {"name": "P", "limit": [4], "children": [{"name": "a", "demand": [1]}, {"name": "b", "demand": [1]}]},
        {"name": "c", "demand": [1]}]}}));
    all_policies(&t, &["root/P/a", "root/P/b", "root/c"], &["2", "2", "8"]);
    for policy in Policy::ALL {
        let x = allocate(&t, policy).unwrap();
        assert_eq!(x.node(t.find_path("root/P").unwrap()).allocation, [q("4")]);
    }
}

#[test]
fn a_pool_limit_on_one_resource_stops_only_its_demanders() {
    // Capacity (12, 12); P = {a = (1, 0), b = (0, 1)} limited to (4, 12); c = (1, 1).
    // Naive, min-satisfaction, H-DRF: a, b and c grow at the same pace s (P's key is
    // max(a, b)/12, c's c/12) until P holds 4 of resource 1 at s = 4; a stops (it demands
    // the limited resource), b does not. b and c go on together (P's key is now b/12):
    // resource 2 holds b + c = 2t and fills at t = 6 (resource 1: 4 + 6 <= 12).
    // a 4, b 6, c 6.
    let t = tree(json!({"capacity": [12, 12], "tree": {"children": [
        {"name": "P", "limit": [4, 12], "children": [
            {"name": "a", "demand": [1, 0]}, {"name": "b", "demand": [0, 1]}]},
        {"name": "c", "demand": [1, 1]}]}}));
    for policy in [Policy::Naive, Policy::MinSatisfaction, Policy::Hdrf] {
        let x = allocate(&t, policy).unwrap();
        assert_eq!(
            tasks(&t, &x, &["root/P/a", "root/P/b", "root/c"]),
            [q("4"), q("6"), q("6")],
            "{}",
            policy.name()
        );
    }
    // Collapsed: weights a, b 1/4, c 1/2; keys a/3, b/3, c/6, so a = b = s, c = 2s. At s = 4
    // P holds 4 of resource 1 (a stops) and resource 1 is full (4 + 8 = 12: c stops); b's
    // resource 2 holds 4 + 8 = 12 as well. a 4, b 4, c 8.
    let x = allocate(&t, Policy::Collapsed).unwrap();
    assert_eq!(
        tasks(&t, &x, &["root/P/a", "root/P/b", "root/c"]),
        [q("4"), q("4"), q("8")]
    );
}

/// YTsaurus (`ytsaurus/ytsaurus`), `yt/yt/library/vector_hdrf/unittests/fair_share_update_ut.cpp`
/// at `50db1eed2e5feea9a00065f65843e35215a6c0df`,
/// `TestAllKindsOfPoolsShareWeightProportionalComponent`:
/// pools strong (guarantee 10 % of the cluster, weight 1), burst (integral guarantee 10 %,
/// weight 1), relaxed (integral guarantee 10 %, weight 2), noGuarantee (weight 3), all
/// demanding everything. Documented fair shares in units of 10 %: strong 1 + 1, burst
/// 1 + 1, relaxed 1 + 2, noGuarantee 3: guarantees first, the remaining 7 units split
/// 1 : 1 : 2 : 3 by weight. Our model has one kind of guarantee, so the integral guarantees
/// are written as guarantees; one resource of 100 stands for YTsaurus' unit vector.
#[test]
fn ytsaurus_guarantees_first_then_weights_share_the_rest() {
    let t = tree(json!({"capacity": [100], "tree": {"children": [
        {"name": "strong", "guarantee": [10], "children": [{"name": "op", "demand": [1]}]},
        {"name": "burst", "guarantee": [10], "children": [{"name": "op", "demand": [1]}]},
        {"name": "relaxed", "weight": 2, "guarantee": [10], "children": [{"name": "op", "demand": [1]}]},
        {"name": "noGuarantee", "weight": 3, "children": [{"name": "op", "demand": [1]}]}]}}));
    all_policies(
        &t,
        &[
            "root/strong/op",
            "root/burst/op",
            "root/relaxed/op",
            "root/noGuarantee/op",
        ],
        &["20", "20", "30", "30"],
    );
}

/// YTsaurus, same file, `TestStrongGuaranteeAdjustmentToTotalResources`: A guaranteed 30
/// CPU, B 90, on 100: the guarantees are scaled by one factor to 25 and 75. Under the
/// default rule the tree is refused.
#[test]
fn ytsaurus_oversubscribed_guarantees_are_scaled_on_request() {
    let doc = json!({"capacity": [100], "tree": {"children": [
        {"name": "A", "guarantee": [30], "children": [{"name": "op", "demand": [1]}]},
        {"name": "B", "guarantee": [90], "children": [{"name": "op", "demand": [1]}]}]}});
    assert_eq!(
        Tree::from_json(&doc).unwrap_err().to_string(),
        "tree.children: the children's guarantees add up to 120 of r1, above the capacity, 100"
    );
    let rules = Rules {
        oversubscribed: Oversubscribed::Scale,
        ..Rules::default()
    };
    let t = Tree::from_json_with(&doc, rules).unwrap();
    assert_eq!(
        t.node(t.find_path("root/A").unwrap()).guarantee(),
        [q("25")]
    );
    assert_eq!(
        t.node(t.find_path("root/B").unwrap()).guarantee(),
        [q("75")]
    );
    // Guarantees fill the cluster: A's op 25, B's 75 under every policy.
    all_policies(&t, &["root/A/op", "root/B/op"], &["25", "75"]);
}

/// YTsaurus, same file, `TestLimitsLowerThanStrongGuarantee`: a parent guaranteed 100 CPU
/// with a limit of 50, its child guaranteed 100, an operation demanding everything: parent
/// and child guarantee and total 50. With the rules `lower-guarantee` (the parent's
/// guarantee drops to its limit) and `scale` (the child's then to its parent's).
#[test]
fn ytsaurus_a_limit_below_the_guarantee_lowers_it_on_request() {
    let doc = json!({"capacity": [100], "tree": {"children": [
        {"name": "parent", "guarantee": [100], "limit": [50], "children": [
            {"name": "child", "guarantee": [100], "children": [{"name": "op", "demand": [1]}]}]}]}});
    assert_eq!(
        Tree::from_json(&doc).unwrap_err().to_string(),
        "tree.children[0].limit[0]: 50 of r1 is below the guarantee, 100"
    );
    let rules = Rules {
        oversubscribed: Oversubscribed::Scale,
        limit_below_guarantee: LimitBelowGuarantee::LowerGuarantee,
        ..Rules::default()
    };
    let t = Tree::from_json_with(&doc, rules).unwrap();
    assert_eq!(
        t.node(t.find_path("root/parent").unwrap()).guarantee(),
        [q("50")]
    );
    assert_eq!(
        t.node(t.find_path("root/parent/child").unwrap())
            .guarantee(),
        [q("50")]
    );
    all_policies(&t, &["root/parent/child/op"], &["50"]);
    // YARN raises the limit instead (`maxResources` below `minResources`): the op then gets
    // the whole cluster.
    let raise = Rules {
        limit_below_guarantee: LimitBelowGuarantee::RaiseLimit,
        ..Rules::default()
    };
    let t = Tree::from_json_with(&doc, raise).unwrap();
    assert_eq!(
        t.node(t.find_path("root/parent").unwrap()).limit().unwrap(),
        [q("100")]
    );
    all_policies(&t, &["root/parent/child/op"], &["100"]);
}

/// YARN (`apache/hadoop`), `hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/
/// hadoop-yarn-server-resourcemanager/src/test/java/org/apache/hadoop/yarn/server/
/// resourcemanager/scheduler/fair/TestComputeFairShares.java`,
/// `testWeightedSharingWithMinShares`: min 20, 0, 5, 15, weights 2, 1, 1, 1/2, total 45.
/// YARN documents 20, 5, 5, 15 under its clamp rule `max(w·R, min)`. Our additive rule gives
/// the guarantees first (40) and splits the remaining 5 by weight 2 : 1 : 1 : 1/2:
/// 20 + 20/9, 10/9, 5 + 10/9, 15 + 5/9 = 200/9, 10/9, 55/9, 140/9 (hand-derived; the
/// difference is named in docs/production.md).
#[test]
fn yarn_min_shares_under_the_additive_rule() {
    let t = tree(json!({"capacity": [45], "tree": {"children": [
        {"name": "a", "weight": 2, "demand": [1], "guarantee": [20]},
        {"name": "b", "weight": 1, "demand": [1], "guarantee": [0]},
        {"name": "c", "weight": 1, "demand": [1], "guarantee": [5]},
        {"name": "d", "weight": "1/2", "demand": [1], "guarantee": [15]}]}}));
    all_policies(
        &t,
        &["root/a", "root/b", "root/c", "root/d"],
        &["200/9", "10/9", "55/9", "140/9"],
    );
}

#[test]
fn absent_fields_change_nothing() {
    // The lecture's tree with and without a zero usage: the same allocation.
    let plain = tree(json!({"capacity": [1, 1], "tree": {"children": [
        {"name": "A", "demand": [1, 0]},
        {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}));
    let with_usage = tree(json!({"capacity": [1, 1], "tree": {"children": [
        {"name": "A", "demand": [1, 0], "usage": [0, 0]},
        {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}));
    for policy in Policy::ALL {
        let a = allocate(&plain, policy).unwrap();
        let b = allocate(&with_usage, policy).unwrap();
        for v in plain.nodes() {
            assert_eq!(
                a.node(v).allocation,
                b.node(v).allocation,
                "{}",
                policy.name()
            );
        }
    }
}

/// Tasks of the leaves at `paths` under `policy`.
fn qs(values: &[&str]) -> Vec<Rational> {
    values.iter().map(|s| q(s)).collect()
}

/// `doc` under the clamp rule.
fn clamped(doc: &serde_json::Value) -> Tree {
    let rules = Rules {
        guarantees: GuaranteeRule::Clamp,
        ..Rules::default()
    };
    Tree::from_json_with(doc, rules).unwrap()
}

/// YARN (`apache/hadoop`), `TestFairScheduler.testFifoWithinQueue`: a FIFO leaf queue on one
/// node of 3072 MB; app1 (submitted first) and app2 each ask for two 1024 MB containers.
/// The source's containers go to app1, app1, app2: app1 holds 2048, app2 1024.
#[test]
fn yarn_fifo_within_a_queue() {
    let t = tree(json!({"capacity": [3072], "tree": {"children": [
        {"name": "queue1", "mode": "fifo", "children": [
            {"name": "app1", "demand": [1024], "tasks": 2},
            {"name": "app2", "demand": [1024], "tasks": 2}]}]}}));
    all_policies(&t, &["root/queue1/app1", "root/queue1/app2"], &["2", "1"]);
}

/// YTsaurus (`ytsaurus/ytsaurus`), `yt/yt/library/vector_hdrf/unittests/
/// fair_share_update_ut.cpp`, `TestSimple`: pools A (fair), B (empty), C (fifo), D (empty);
/// every operation demands (10, 10, 100) of (100, 100, 1000), so every demand fits and each
/// operation's fair share is its demand, in the FIFO pool too; the empty pools get nothing.
#[test]
fn ytsaurus_fifo_pool_with_demands_that_fit() {
    let t = tree(json!({"capacity": [100, 100, 1000], "tree": {"children": [
        {"name": "A", "children": [
            {"name": "opA1", "demand": [10, 10, 100], "tasks": 1},
            {"name": "opA2", "demand": [10, 10, 100], "tasks": 1}]},
        {"name": "B", "children": []},
        {"name": "C", "mode": "fifo", "children": [
            {"name": "opC1", "weight": 10, "demand": [10, 10, 100], "tasks": 1},
            {"name": "opC2", "demand": [10, 10, 100], "tasks": 1}]},
        {"name": "D", "children": []}]}}));
    all_policies(
        &t,
        &["root/A/opA1", "root/A/opA2", "root/C/opC1", "root/C/opC2"],
        &["1", "1", "1", "1"],
    );
    for policy in Policy::ALL {
        let x = allocate(&t, policy).unwrap();
        for p in ["root/B", "root/D"] {
            assert_eq!(
                x.node(t.find_path(p).unwrap()).allocation,
                qs(&["0", "0", "0"])
            );
        }
    }
}

/// A fifo pool P (a: 2 tasks at most, then b) beside a leaf Q, one resource of 12, unit
/// tasks, equal weights. By hand:
/// - naive and H-DRF: P's key is its aggregate's dominant share, so P and Q grow alike;
///   inside P, a takes everything until its cap (P = Q = 2), then b: P = Q = 6, so a 2,
///   b 4, Q 6 (H-DRF's effective vector of a fifo pool is its children's vectors unscaled,
///   here its usage).
/// - min-satisfaction (g: P, Q 1/2; a, b 1/4): P's key is min(2·u_P, the serving child's
///   4·u_serving). While a serves, 2·u_P is the smaller: like naive up to P = Q = 2. When b
///   starts its key 4·u_b is 0: P grows alone to u_b = 1 (P 3, key 4 = Q's), then P at rate
///   1 against Q at rate 2 (keys 4 + 4s) to u_b = 2 (P 4, Q 4), then 2·u_P rules and both
///   grow alike: P 6, Q 6 — a 2, b 4, Q 6 again.
/// - collapsed (leaves weighted by g: a, b 1/4, Q 1/2; keys x_a/3, x_b/3, x_Q/6): a serves
///   with Q = 2·x_a until a's cap (a 2, Q 4); b alone to x_b/3 = 4/6 (b 2); then Q = 2·x_b
///   on the last 4 units: b 2 + 4/3 = 10/3, Q 4 + 8/3 = 20/3.
#[test]
fn a_fifo_pool_serves_its_children_in_order() {
    let t = tree(json!({"capacity": [12], "tree": {"children": [
        {"name": "P", "mode": "fifo", "children": [
            {"name": "a", "demand": [1], "tasks": 2}, {"name": "b", "demand": [1]}]},
        {"name": "Q", "demand": [1]}]}}));
    let paths = ["root/P/a", "root/P/b", "root/Q"];
    policies_give(&t, HIERARCHICAL, &paths, &["2", "4", "6"]);
    policies_give(&t, &[Policy::Collapsed], &paths, &["2", "10/3", "20/3"]);
    // The listed order decides: b first (unbounded) takes all P gets; a gets nothing.
    let swapped = tree(json!({"capacity": [12], "tree": {"children": [
        {"name": "P", "mode": "fifo", "children": [
            {"name": "b", "demand": [1]}, {"name": "a", "demand": [1], "tasks": 2}]},
        {"name": "Q", "demand": [1]}]}}));
    policies_give(&swapped, HIERARCHICAL, &paths, &["0", "6", "6"]);
}

/// A fifo child stopped by a saturated resource passes the turn: a needs cpu and mem, b
/// only cpu. Capacity (4, 2); P alone. a grows until mem saturates at 2 tasks (cpu 2 used);
/// then b takes the 2 cpu left.
#[test]
fn a_blocked_fifo_child_passes_the_turn() {
    let t = tree(json!({"capacity": [4, 2], "tree": {"children": [
        {"name": "P", "mode": "fifo", "children": [
            {"name": "a", "demand": [1, 1]}, {"name": "b", "demand": [1, 0]}]}]}}));
    all_policies(&t, &["root/P/a", "root/P/b"], &["2", "2"]);
}

/// Guarantees inside a fifo pool come first, whatever the order; the order rules the rest.
/// Capacity 10, unit tasks: P (fifo: a, then b guaranteed 3) beside a leaf Q.
/// - additive: b takes its 3 first; the remaining 7 is shared on increments, P and Q alike
///   (naive, H-DRF; min-satisfaction: P's key 2·u_P is below a's 4·u_a while a serves):
///   3.5 each, all of P's to a. a 7/2, b 3, Q 7/2. Collapsed: keys 4·x_a/10 and 2·x_Q/10,
///   Q = 2·a on 7: a 7/3, Q 14/3.
/// - clamp: b takes 3; then totals are compared. Naive, H-DRF: Q catches up to P's 3 (7 − 3
///   = 4 left), then P (a) and Q alike, 2 each: a 2, b 3, Q 5. Min-satisfaction: P's key is
///   min(2·(3 + u_a), 4·u_a) = 4·u_a (a, serving, holds less than 3 throughout), against
///   Q's 2·u_Q: Q = 2·a on the last 7, a 7/3, Q 14/3 — the serving child's satisfaction
///   rules P's key, the guarantee b holds does not.
#[test]
fn guarantees_inside_a_fifo_pool_come_first() {
    let doc = json!({"capacity": [10], "tree": {"children": [
        {"name": "P", "mode": "fifo", "children": [
            {"name": "a", "demand": [1]}, {"name": "b", "demand": [1], "guarantee": [3]}]},
        {"name": "Q", "demand": [1]}]}});
    let paths = ["root/P/a", "root/P/b", "root/Q"];
    let t = tree(doc.clone());
    policies_give(&t, HIERARCHICAL, &paths, &["7/2", "3", "7/2"]);
    policies_give(&t, &[Policy::Collapsed], &paths, &["7/3", "3", "14/3"]);
    let t = clamped(&doc);
    policies_give(&t, &[Policy::Naive, Policy::Hdrf], &paths, &["2", "3", "5"]);
    policies_give(
        &t,
        &[Policy::MinSatisfaction],
        &paths,
        &["7/3", "3", "14/3"],
    );
}

/// YARN, `TestComputeFairShares` (`apache/hadoop`, `hadoop-yarn-project/hadoop-yarn/
/// hadoop-yarn-server/hadoop-yarn-server-resourcemanager/src/test/java/org/apache/hadoop/
/// yarn/server/resourcemanager/scheduler/fair/TestComputeFairShares.java`), under the clamp
/// rule, every case as the source states it (flat, one resource: every policy agrees):
/// `testWeightedSharingWithMinShares` 20, 5, 5, 15 (`testCPU` the same on vcores);
/// `testMinShares` 20, 18, 0, 2; `testWeightedSharingWithMaxShares` (limits only) 10, 11,
/// 16, 8. By hand for the first: the guarantees 20, 0, 5, 15 first (40 of 45); then totals
/// over weights 2, 1, 1, 1/2 are 10, 0, 5, 30: b alone rises to c's level 5 with the last
/// 5 units.
#[test]
fn yarn_compute_fair_shares_under_the_clamp_rule() {
    let abcd = ["root/a", "root/b", "root/c", "root/d"];
    let t = clamped(&json!({"capacity": [45], "tree": {"children": [
            {"name": "a", "weight": 2, "demand": [1], "guarantee": [20]},
            {"name": "b", "demand": [1]},
            {"name": "c", "demand": [1], "guarantee": [5]},
            {"name": "d", "weight": "1/2", "demand": [1], "guarantee": [15]}]}}));
    all_policies(&t, &abcd, &["20", "5", "5", "15"]);
    let t = clamped(&json!({"capacity": [40], "tree": {"children": [
            {"name": "a", "demand": [1], "guarantee": [20]},
            {"name": "b", "demand": [1], "guarantee": [18]},
            {"name": "c", "demand": [1]},
            {"name": "d", "demand": [1], "guarantee": [2]}]}}));
    all_policies(&t, &abcd, &["20", "18", "0", "2"]);
    let t = clamped(&json!({"capacity": [45], "tree": {"children": [
            {"name": "a", "weight": 2, "limit": [10], "demand": [1]},
            {"name": "b", "limit": [11], "demand": [1]},
            {"name": "c", "limit": [30], "demand": [1]},
            {"name": "d", "weight": "1/2", "limit": [20], "demand": [1]}]}}));
    all_policies(&t, &abcd, &["10", "11", "16", "8"]);
}

/// YARN, `TestFairScheduler.testFairShareWithNoneZeroWeightNoneZeroMinRes`: weights 1/2 and
/// 1/2, minResources 1024 MB and 1 vcore each on (8192, 8): the guarantee is below the
/// weighted share and changes nothing: 4096 MB each (4 tasks of (1024, 1)).
#[test]
fn yarn_min_resources_below_the_weighted_share() {
    let t = clamped(&json!({"capacity": [8192, 8], "tree": {"children": [
            {"name": "queueA", "weight": "1/2", "guarantee": [1024, 1], "demand": [1024, 1]},
            {"name": "queueB", "weight": "1/2", "guarantee": [1024, 1], "demand": [1024, 1]}]}}));
    all_policies(&t, &["root/queueA", "root/queueB"], &["4", "4"]);
}

/// YTsaurus' fair-share documentation (`yt/documentation/en/_includes/user-guide/
/// data-processing/scheduler/fair-share.md`, the min share ratio example; the legacy rule
/// `clamp(w·x, min, max)`): A guaranteed 0.6, B 0.2 of 1: A 0.6, B 0.4; with weights 3 : 1,
/// A 0.75, B 0.25; with a third pool C (weights 1, 1, 1), A 0.6, B 0.2, C 0.2.
#[test]
fn ytsaurus_legacy_min_share_ratios_under_the_clamp_rule() {
    let run = |children: serde_json::Value, paths: &[&str], expected: &[&str]| {
        let doc = json!({"capacity": [1], "tree": {"children": children}});
        let t = clamped(&doc);
        all_policies(&t, paths, expected);
    };
    let a = json!({"name": "A", "guarantee": "3/5", "demand": ["1/1000"]});
    let b = json!({"name": "B", "guarantee": "1/5", "demand": ["1/1000"]});
    run(json!([a, b]), &["root/A", "root/B"], &["600", "400"]);
    let mut a3 = a.clone();
    a3["weight"] = json!(3);
    run(json!([a3, b]), &["root/A", "root/B"], &["750", "250"]);
    let c = json!({"name": "C", "demand": ["1/1000"]});
    run(
        json!([a, b, c]),
        &["root/A", "root/B", "root/C"],
        &["600", "200", "200"],
    );
}

/// A pool's guarantee under both rules. Capacity 12, unit tasks: P guaranteed 6 (a, b) beside
/// a leaf Q. Both: P's 6 first, a 3 and b 3. Additive: the other 6 on increments, P and Q
/// alike: a 9/2, b 9/2, Q 3. Clamp: on totals Q catches up with P's 6 and the cluster is
/// full: a 3, b 3, Q 6. Every policy (collapsed weighs a, b by 1/4 and Q by 1/2, which gives
/// the same levels).
#[test]
fn a_pool_guarantee_under_both_rules() {
    let doc = json!({"capacity": [12], "tree": {"children": [
        {"name": "P", "guarantee": [6], "children": [
            {"name": "a", "demand": [1]}, {"name": "b", "demand": [1]}]},
        {"name": "Q", "demand": [1]}]}});
    let paths = ["root/P/a", "root/P/b", "root/Q"];
    all_policies(&tree(doc.clone()), &paths, &["9/2", "9/2", "3"]);
    all_policies(&clamped(&doc), &paths, &["3", "3", "6"]);
}

/// A pool limit under both rules. Capacity 10, unit tasks: P limited to 4 (a guaranteed 2,
/// b) beside a leaf Q. Both: a 2 first. Additive (increments; P's room 2): P and Q alike, a
/// and b alike inside P: a 3, b 1, then P is full and Q takes the rest: Q 6. Clamp
/// (totals): Q rises to P's 2; then P and Q alike, inside P b rises to a's 2 as P reaches
/// its limit 4; Q takes the rest: a 2, b 2, Q 6. (Naive and H-DRF; the weights' guaranteed
/// shares of min-satisfaction and collapsed are equal here too.)
#[test]
fn a_pool_limit_under_both_rules() {
    let doc = json!({"capacity": [10], "tree": {"children": [
        {"name": "P", "limit": [4], "children": [
            {"name": "a", "demand": [1], "guarantee": [2]}, {"name": "b", "demand": [1]}]},
        {"name": "Q", "demand": [1]}]}});
    let paths = ["root/P/a", "root/P/b", "root/Q"];
    all_policies(&tree(doc.clone()), &paths, &["3", "1", "6"]);
    all_policies(&clamped(&doc), &paths, &["2", "2", "6"]);
}

#[test]
fn validation_names_the_field() {
    let err = |doc: serde_json::Value| Tree::from_json(&doc).unwrap_err().to_string();
    assert_eq!(
        err(json!({"capacity": [1, 1], "tree": {"children": [
            {"name": "a", "demand": [1, 0], "guarantee": [1]}]}})),
        "tree.children[0].guarantee: expected 2 entries, one per resource, found 1"
    );
    assert_eq!(
        err(json!({"capacity": [1], "tree": {"children": [
            {"name": "a", "demand": [1], "limit": [-1]}]}})),
        "tree.children[0].limit[0]: must not be negative, found -1"
    );
    assert_eq!(
        err(json!({"capacity": [1], "tree": {"children": [
            {"name": "a", "demand": [1], "usage": [2]}]}})),
        "tree.children[0].usage[0]: 2 is above the capacity 1"
    );
    assert_eq!(
        err(json!({"capacity": [1], "tree": {"children": [
            {"name": "a", "demand": [1], "usage": ["2/3"]}, {"name": "b", "demand": [1], "usage": ["2/3"]}]}})),
        "tree: the leaves' usage of r1 adds up to 4/3, above the capacity 1"
    );
    assert_eq!(
        err(json!({"capacity": [4], "tree": {"children": [
            {"name": "P", "guarantee": [2], "children": [
                {"name": "a", "demand": [1], "guarantee": [1]}, {"name": "b", "demand": [1], "guarantee": [3]}]}]}})),
        "tree.children[0].children: the children's guarantees add up to 4 of r1, above the guarantee of \"P\", 2"
    );
    assert_eq!(
        err(json!({"capacity": [4], "tree": {"children": [
            {"name": "P", "children": [{"name": "a", "demand": [1], "guarantee": "1/2"}]}]}})),
        "tree.children[0].children[0].guarantee: a fraction of the parent's guarantee, but \"P\" has none"
    );
    assert_eq!(
        err(json!({"capacity": [4], "tree": {"children": [
            {"name": "a", "demand": [1], "guarantee": "3/2"}]}})),
        "tree.children[0].guarantee: a fraction of the parent's guarantee must be in [0, 1], found 3/2"
    );
    assert_eq!(
        err(json!({"capacity": [4], "tree": {"children": [
            {"name": "a", "demand": [1], "mode": "fifo"}]}})),
        "tree.children[0].mode: only a pool has a mode; a leaf runs its own tasks"
    );
    assert_eq!(
        err(json!({"capacity": [4], "tree": {"children": [
            {"name": "P", "mode": "lifo", "children": []}]}})),
        "tree.children[0].mode: expected \"fair\" or \"fifo\", found \"lifo\""
    );
    // The flat form names the same fields by their place in its lists.
    let flat = leontief_solver::Instance::from_json_str(
        r#"{"capacity": [4], "pools": [{"name": "P", "limit": [1], "guarantee": [2]}],
            "users": [{"name": "a", "demand": [1], "pool": "P"}]}"#,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(flat, "pools[0].limit[0]: 1 of r1 is below the guarantee, 2");
}

/// The oracles agree with the rule: on every tree above, every policy's allocation meets
/// the explicit guarantees (and the weights' share guarantee where it held before: not
/// asserted here) and never exceeds a limit; an allocation that gives a guaranteed leaf
/// less fails, one that overfills a limited pool is caught.
#[test]
fn oracles_explicit_guarantees_and_limits() {
    use leontief_hdrf::flat::Hierarchical;
    use leontief_solver::properties::allocation::{
        explicit_guarantee_violations, limit_violations,
    };
    use leontief_solver::{Allocation, Mechanism};
    let docs = [
        json!({"capacity": [10, 10], "tree": {"children": [
            {"name": "a", "demand": [2, 1], "guarantee": [6, 6]}, {"name": "b", "demand": [0, 1]}]}}),
        json!({"capacity": [12], "tree": {"children": [
            {"name": "P", "guarantee": [8], "children": [{"name": "a", "demand": [1]}, {"name": "b", "demand": [1]}]},
            {"name": "c", "demand": [1]}]}}),
        json!({"capacity": [12, 12], "tree": {"children": [
            {"name": "P", "limit": [4, 12], "guarantee": [2, 2], "children": [
                {"name": "a", "demand": [1, 0]}, {"name": "b", "demand": [0, 1], "limit": [5, 5]}]},
            {"name": "c", "demand": [1, 1], "guarantee": [3, 3]}]}}),
    ];
    for doc in &docs {
        let t = tree(doc.clone());
        let inst = t.instance();
        for policy in Policy::ALL {
            let x = Hierarchical::new(policy).allocate(inst).unwrap();
            assert!(
                explicit_guarantee_violations(inst, &x).unwrap().is_empty(),
                "{} on {doc}",
                policy.name()
            );
            assert!(
                limit_violations(inst, &x).unwrap().is_empty(),
                "{} on {doc}",
                policy.name()
            );
        }
    }
    // Second tree: P guaranteed 8 of 12; a = b = 3, c = 6 leaves P at 6 < 8 while a and b
    // could grow: P fails.
    let t = tree(docs[1].clone());
    let bad = Allocation::new(vec![q("3"), q("3"), q("6")]);
    let w = explicit_guarantee_violations(t.instance(), &bad).unwrap();
    assert_eq!(w[0].node, "P");
    assert_eq!(w[0].explicit, Some(vec![q("8")]));
    // Third tree: P limited to 4 of resource 1; a = 5 exceeds it.
    let t = tree(docs[2].clone());
    let over = Allocation::new(vec![q("5"), q("1"), q("1")]);
    let w = limit_violations(t.instance(), &over).unwrap();
    assert_eq!((w[0].node.as_str(), w[0].resource), ("P", 0));
    assert_eq!((w[0].holds.clone(), w[0].limit.clone()), (q("5"), q("4")));
}

/// YTsaurus, `fair_share_update_ut.cpp`, `TestPromisedGuaranteeFairShare` (ytsaurus/ytsaurus):
/// A guaranteed 0.3 (its child A1 0.1; A2 and A3 none; A3's operation demands 0.02), B
/// guaranteed 0.3; every other operation demands the whole cluster (one task). YTsaurus
/// documents A1 0.29, A2 0.19, A3 0.02, B 0.5 (additive). Under the clamp rule, by hand:
/// A1's op takes 0.1; A shares its remaining 0.2 on totals: A3 0.02 (its demand), A2 rises
/// to A1's 0.1, then both to 0.14; A and B hold 0.3 each and split the last 0.4: A's 0.2
/// goes to A1 and A2 alike: 0.24 each, B 0.5 (naive, min-satisfaction, H-DRF).
#[test]
fn ytsaurus_promised_guarantee_under_both_rules() {
    let doc = json!({"capacity": [100, 100, 1000], "tree": {"children": [
        {"name": "A", "guarantee": [30, 30, 300], "children": [
            {"name": "A1", "guarantee": [10, 10, 100], "children": [
                {"name": "opA1", "demand": [100, 100, 1000], "tasks": 1}]},
            {"name": "A2", "children": [{"name": "opA2", "demand": [100, 100, 1000], "tasks": 1}]},
            {"name": "A3", "children": [{"name": "opA3", "demand": [2, 2, 20], "tasks": 1}]}]},
        {"name": "B", "guarantee": [30, 30, 300], "children": [
            {"name": "opB", "demand": [100, 100, 1000], "tasks": 1}]}]}});
    let ops = [
        "root/A/A1/opA1",
        "root/A/A2/opA2",
        "root/A/A3/opA3",
        "root/B/opB",
    ];
    let additive = tree(doc.clone());
    let clamped = clamped(&doc);
    policies_give(
        &additive,
        HIERARCHICAL,
        &ops,
        &["29/100", "19/100", "1", "1/2"],
    );
    policies_give(&clamped, HIERARCHICAL, &ops, &["6/25", "6/25", "1", "1/2"]);
}
