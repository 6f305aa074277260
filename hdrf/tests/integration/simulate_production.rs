//! The simulator with production fields, against hand derivations: nodes below their explicit
//! guarantee are served first, limits are never exceeded, starvation is judged against the
//! explicit guarantee, leaves' `usage` is what they run at time 0, and `fifo` pools serve their
//! children in the order listed.

use crate::common;

use common::q as r;
use leontief_hdrf::simulate::{simulate, Scenario, SimConfig, SimPolicy, Simulation};
use leontief_solver::Rational;

fn idx(s: &Scenario, path: &str) -> usize {
    s.tree.find_path(path).unwrap().index()
}

/// The final tasks of the nodes at `paths` under the naive policy.
fn naive_final_tasks(s: &Scenario, paths: &[&str]) -> Vec<Option<u64>> {
    let out = run(s, SimPolicy::Tree(leontief_hdrf::Policy::Naive));
    paths
        .iter()
        .map(|p| out.nodes[idx(s, p)].final_tasks)
        .collect()
}

fn run(s: &Scenario, policy: SimPolicy) -> Simulation {
    simulate(s, &SimConfig::new(policy)).unwrap()
}

/// The largest share a node ever held (over every settled state).
fn max_over_series(run: &Simulation, v: usize) -> Rational {
    common::shares_over_time(run, v).max().unwrap()
}

/// One resource, four slots (tasks of 1/4), x and y always have work, every task takes 1.
/// x is guaranteed 3/4, y nothing. At every round (t = 0, 1, 2, ...) all four slots are free:
/// x is served while one more task keeps it within 3/4 (0, 1/4, 1/2 + 1/4 <= 3/4: three
/// tasks), then 1 > 3/4 and fair sharing hands the last slot to y. So x holds 3/4 and y 1/4 at
/// every instant, under every policy (the rule applies at every pool, before the policy's
/// key); without the guarantee the same tree splits 1/2, 1/2.
#[test]
fn nodes_below_their_guarantee_are_served_first() {
    let text = r#"{"capacity": [1], "horizon": 4, "tree": {"children": [
        {"name": "x", "demand": ["1/4"], "guarantee": ["3/4"]},
        {"name": "y", "demand": ["1/4"]}]}}"#;
    let s = Scenario::from_json_str(text).unwrap();
    let (x, y) = (idx(&s, "root/x"), idx(&s, "root/y"));
    for policy in SimPolicy::ALL {
        let out = run(&s, policy);
        assert_eq!(out.nodes[x].final_tasks, Some(3), "{policy}");
        assert_eq!(out.nodes[y].final_tasks, Some(1), "{policy}");
        assert_eq!(out.nodes[x].time_average_share, r("3/4"), "{policy}");
        assert!(!out.nodes[x].starved, "{policy}");
        assert_eq!(out.nodes[x].longest_below_by_a_task, r("0"), "{policy}");
    }
    let plain = Scenario::from_json_str(&text.replace(r#", "guarantee": ["3/4"]"#, "")).unwrap();
    assert_eq!(
        naive_final_tasks(&plain, &["root/x", "root/y"]),
        [Some(2), Some(2)]
    );
}

/// A limit is never exceeded. Pool P (limit 1/2) holds p1 and p2, tasks of 1/4, always with
/// work, alone in a cluster of 1: P takes two tasks (1/2) and the third would make 3/4 > 1/2,
/// so half the cluster stays free. A leaf's own limit: x (limit 1/4) beside y (tasks of 1/4,
/// one task only): x runs one task, y one, and half stays free while y runs, all of it after.
#[test]
fn limits_are_never_exceeded() {
    let s = Scenario::from_json_str(
        r#"{"capacity": [1], "horizon": 4, "tree": {"children": [
        {"name": "P", "limit": ["1/2"], "children": [
            {"name": "p1", "demand": ["1/4"]}, {"name": "p2", "demand": ["1/4"]}]}]}}"#,
    )
    .unwrap();
    let p = idx(&s, "root/P");
    for policy in SimPolicy::ALL {
        let out = run(&s, policy);
        assert_eq!(out.nodes[p].final_share, r("1/2"), "{policy}");
        assert_eq!(max_over_series(&out, p), r("1/2"), "{policy}");
        assert_eq!(out.nodes[0].time_average_share, r("1/2"), "{policy}");
    }
    let s = Scenario::from_json_str(
        r#"{"capacity": [1], "horizon": 4, "tree": {"children": [
        {"name": "x", "demand": ["1/4"], "limit": ["1/4"]}, {"name": "y", "demand": ["1/4"]}]},
        "workload": {"y": {"count": 1, "duration": 2}}}"#,
    )
    .unwrap();
    let x = idx(&s, "root/x");
    let out = run(&s, SimPolicy::Tree(leontief_hdrf::Policy::Naive));
    assert_eq!(max_over_series(&out, x), r("1/4"));
    // Root: 1/2 on [0, 2) (x and y), 1/4 on [2, 4): (1/2·2 + 1/4·2) / 4 = 3/8.
    assert_eq!(out.nodes[0].time_average_share, r("3/8"));
}

/// Starvation against the explicit guarantee, with `usage` as the state at time 0. y holds the
/// whole cluster (usage 1 = four tasks of 1/4) and its tasks take 100; x, guaranteed 1/2, has
/// work from t = 1. Nothing frees before the horizon 10: x is at least one task below its
/// guarantee (0 + 1/4 <= 1/2) with unmet demand on [1, 10): 9 > the tolerance 1, starved. y
/// has no guarantee and is never below it. With tasks of y taking 1 instead, they end at 1,
/// x is served first up to 1/2 and is never starved.
#[test]
fn usage_runs_from_time_zero_and_starvation_is_against_the_guarantee() {
    let text = r#"{"capacity": [1], "horizon": 10, "starvation_tolerance": 1,
        "tree": {"children": [
        {"name": "x", "demand": ["1/4"], "guarantee": ["1/2"]},
        {"name": "y", "demand": ["1/4"], "usage": [1]}]},
        "workload": {"x": {"start": 1}, "y": {"count": 0, "duration": 100}}}"#;
    let s = Scenario::from_json_str(text).unwrap();
    let (x, y) = (idx(&s, "root/x"), idx(&s, "root/y"));
    for policy in SimPolicy::ALL {
        let out = run(&s, policy);
        assert_eq!(out.nodes[y].final_tasks, Some(4), "{policy}");
        assert_eq!(out.nodes[y].time_average_share, r("1"), "{policy}");
        assert_eq!(out.nodes[x].final_tasks, Some(0), "{policy}");
        assert_eq!(out.nodes[x].longest_below_by_a_task, r("9"), "{policy}");
        assert!(out.nodes[x].starved, "{policy}");
        assert!(!out.nodes[y].starved, "{policy}");
        assert_eq!(out.nodes[y].time_below_guarantee, r("0"), "{policy}");
    }
    let short =
        Scenario::from_json_str(&text.replace(r#""duration": 100"#, r#""duration": 1"#)).unwrap();
    let out = run(&short, SimPolicy::Tree(leontief_hdrf::Policy::Naive));
    // At t = 1 y's four tasks end and y has no more work: x takes the whole cluster.
    assert_eq!(out.nodes[x].final_tasks, Some(4));
    assert!(!out.nodes[x].starved);
    assert_eq!(out.nodes[x].longest_below_by_a_task, r("0"));
    assert_eq!(out.nodes[y].final_tasks, Some(0));
}

/// A `fifo` pool serves its children in the order listed. P (fifo: a, b) beside q, tasks of
/// 1/4 taking 1, all always with work. Naive HDRF, ties by count: P and q tie at 0 (first: P,
/// and P gives a), then q (0 < 1/4), then P and q tie at 1/4 with one task each (P, a), then q.
/// So a runs two tasks, b none, q two; with P fair, a and b one each.
#[test]
fn fifo_pools_serve_children_in_order() {
    let text = r#"{"capacity": [1], "horizon": 3, "tree": {"children": [
        {"name": "P", "mode": "fifo", "children": [
            {"name": "a", "demand": ["1/4"]}, {"name": "b", "demand": ["1/4"]}]},
        {"name": "q", "demand": ["1/4"]}]}}"#;
    let s = Scenario::from_json_str(text).unwrap();
    assert_eq!(
        naive_final_tasks(&s, &["root/P/a", "root/P/b", "root/q"]),
        [Some(2), Some(0), Some(2)]
    );
    let fair = Scenario::from_json_str(&text.replace(r#""mode": "fifo", "#, "")).unwrap();
    assert_eq!(
        naive_final_tasks(&fair, &["root/P/a", "root/P/b"]),
        [Some(1), Some(1)]
    );
}

/// What the simulator does not take is refused, naming the field: preemption with explicit
/// guarantees or limits, and a usage that is not a whole number of tasks.
#[test]
fn unsupported_production_inputs_are_refused() {
    // x's further fields, whether to preempt, the start of the message.
    let cases = [
        (r#""guarantee": ["1/2"]"#, true, "preemption: not with explicit guarantees or limits"),
        (r#""usage": ["1/3"]"#, false, "root/x.usage: the simulator starts what a leaf holds as running tasks: expected a whole number of its tasks ([1/4]), found [1/3]"),
    ];
    for (x_fields, preempt, message) in cases {
        let s = Scenario::from_json_str(&format!(
            r#"{{"capacity": [1], "horizon": 4, "tree": {{"children": [
            {{"name": "x", "demand": ["1/4"], {x_fields}}}, {{"name": "y", "demand": ["1/4"]}}]}}}}"#
        ))
        .unwrap();
        let mut config = SimConfig::new(SimPolicy::Tree(leontief_hdrf::Policy::Naive));
        if preempt {
            config = config.preemption(1);
        }
        let err = simulate(&s, &config).unwrap_err();
        assert!(err.to_string().starts_with(message), "{err}");
    }
}
