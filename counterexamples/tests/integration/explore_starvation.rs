//! `starvation`: a hand-derived starved spell, the value 0 where no node can starve, records
//! re-derived from their recorded workload, and the errors of bad input.

use crate::common;

use common::{explored as explore_lines, q};

use leontief_counterexamples::explore::record::rederive;
use leontief_counterexamples::explore::starvation::{run, spells, worst, Spell};
use leontief_counterexamples::explore::{ExploreConfig, MetricName};
use leontief_counterexamples::instance_generator::GeneratorConfig;
use leontief_counterexamples::mechanisms::{by_name, descriptor};
use leontief_counterexamples::space::Strategy;
use leontief_hdrf::simulate::{Scenario as Sim, SimPolicy};
use leontief_solver::Rational;
use serde_json::Value;

/// The lecture's tree (docs/theory.md §4.5) with tasks of half a CPU, capacities (1, 1):
/// A ⟨1/2, 0⟩ beside B = {B1 ⟨1/2, 0⟩, B2 ⟨0, 1⟩}; guarantees A 1/2, B 1/2, B1 and B2 1/4.
/// B2 holds all the memory with one long task; A and B1 bring batches of unit tasks.
fn lecture() -> Sim {
    Sim::from_json_str(
        r#"{"resources": ["cpu", "mem"], "capacity": [1, 1], "horizon": 10,
        "tree": {"children": [{"name": "A", "demand": ["1/2", 0]},
          {"name": "B", "children": [{"name": "B1", "demand": ["1/2", 0]}, {"name": "B2", "demand": [0, 1]}]}]},
        "workload": {"A": {"duration": 1, "arrivals": [{"time": 0, "count": 8}]},
                     "B1": {"duration": 1, "arrivals": [{"time": 0, "count": 4}]},
                     "B2": {"duration": 10, "arrivals": [0]}}}"#,
    )
    .unwrap()
}

#[test]
fn naive_hdrf_starves_b1_while_a_drains_its_batch() {
    // Naive HDRF picks, at every pool, the active child of least dominant share / weight,
    // ties to the first child.
    // t = 0: A and B tie at 0 -> A starts a task (A = 1/2); then B (0 < 1/2), inside B the
    //   tie B1/B2 goes to B1 (CPU now full); A and B1 no longer fit, B2 does: B = 1. Settled:
    //   A 1/2 = g_A, B1 1/2 >= 1/4: nobody is starved.
    // t = 1: A's and B1's tasks end. A (0) beats B (1, held by B2's memory) twice: A starts
    //   two tasks and fills the CPU (A has 8 - 1 - 2 = 5 left). B1 has work and 0 < 1/4:
    //   starved from 1.
    // t = 2, 3: the same (A: 3 left, then 1 left).
    // t = 4: A starts its last task (A = 1/2), then has no work; B1 fits and starts: B1 =
    //   1/2, no longer starved. Its spell is [1, 4), 3 of the horizon 10.
    // t = 5 on: B1 runs its last two tasks at once; B stays at 1 (B2), A without work.
    let sim = lecture();
    let r = run(&sim, SimPolicy::Tree(leontief_hdrf::Policy::Naive)).unwrap();
    let b1 = sim.tree.find("B1").unwrap().index();
    let s = worst(&sim.tree, &r).unwrap().unwrap();
    assert_eq!(
        s,
        Spell {
            node: b1,
            start: q("1"),
            end: q("4")
        }
    );
    // The simulator's own accounting says the same of B1, and no other node is starved.
    assert_eq!(r.nodes[b1].longest_below_guarantee, q("3"));
    let all = spells(&sim.tree, &r);
    for (v, sp) in all.iter().enumerate() {
        assert_eq!(sp.is_some(), v == b1, "node {v}: {sp:?}");
    }
}

#[test]
fn min_satisfaction_does_not_starve_b1() {
    // Min-satisfaction HDRF compares the least satisfaction among each child's active
    // nodes: at t = 1, A (0 / (1/2) = 0) ties with B, whose active B1 has satisfaction 0;
    // A takes the first task (A: 1), then B1 (0 < 1) takes the second. At every later
    // completion the same: A and B1 each get one of the two CPU halves while they have
    // work, so B1 holds 1/2 >= 1/4 whenever it waits, and A holds 1/2 = g_A.
    let sim = lecture();
    let r = run(
        &sim,
        SimPolicy::Tree(leontief_hdrf::Policy::MinSatisfaction),
    )
    .unwrap();
    assert_eq!(worst(&sim.tree, &r).unwrap(), None);
    assert!(spells(&sim.tree, &r).iter().skip(1).all(Option::is_none));
}

#[test]
fn no_node_starves_a_lone_user_whose_tasks_divide_the_cluster() {
    // One user under the root: its guarantee is the whole cluster, g = 1. On the grid
    // (capacities 1, entries in {0, 1/2, 1}) its task's dominant share is 1/2 or 1, which
    // divides 1: whenever it has pending work the settled state runs 1 / μ tasks (2 or 1)
    // and its share is exactly 1 = g, so it is never below its guarantee with unmet demand.
    // Every workload on every such instance gives 0; so does the whole exhaustive run.
    let m = by_name("hdrf:naive").unwrap();
    let g = crate::common::sized(1..=1, 1..=2);
    let mut cfg = ExploreConfig::new(MetricName::Starvation, 3, g);
    cfg.run.strategy = Strategy::Exhaustive;
    cfg.local = 0;
    let lines = explore_lines(m.as_ref(), &cfg);
    let best = lines.last().unwrap();
    assert_eq!(best["best"], true);
    assert_eq!(best["value"], "0");
    assert!(best["witness"].get("node").is_none());
    rederive(m.as_ref(), best).unwrap();
}

#[test]
fn naive_hdrf_starves_on_generated_trees_and_the_records_re_derive() {
    let m = by_name("hdrf:naive").unwrap();
    let mut g = GeneratorConfig::new();
    g.users = 2..=4;
    g.pools = Some(1..=2);
    let mut cfg = ExploreConfig::new(MetricName::Starvation, 1, g);
    cfg.run.budget = Some(400);
    let lines = explore_lines(m.as_ref(), &cfg);
    let best = lines.last().unwrap();
    assert_eq!(best["direction"], "max");
    let w = &best["witness"];
    for k in ["churn_seed", "horizon", "workload", "node", "interval"] {
        assert!(w.get(k).is_some(), "witness lacks {k}: {w}");
    }
    // The value is the interval's length over the horizon, and re-derivation (from the
    // recorded workload, through the trace) agrees.
    let iv = &w["interval"];
    let length = &q(iv[1].as_str().unwrap()) - &q(iv[0].as_str().unwrap());
    let value = &length / &q(w["horizon"].as_str().unwrap());
    assert_eq!(best["value"].as_str().unwrap(), value.to_string());
    assert!(value.is_positive() && value <= Rational::ONE);
    for r in &lines {
        rederive(m.as_ref(), r).unwrap();
    }
    // A tampered interval or an unbounded workload is refused, naming the field.
    let mut bad = best.clone();
    bad["witness"]["interval"][0] = Value::String("0".into());
    let err = rederive(m.as_ref(), &bad).unwrap_err().to_string();
    assert!(err.starts_with("witness"), "{err}");
    let mut bad = best.clone();
    let leaf = w["workload"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    bad["witness"]["workload"][&leaf] = serde_json::json!({"count": null});
    let err = leontief_counterexamples::explore::record::read(&bad)
        .and_then(|_| rederive(m.as_ref(), &bad))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("witness"), "{err}");
}

#[test]
fn starvation_applies_to_the_simulated_tree_policies_only() {
    let s = MetricName::Starvation.metric();
    for name in [
        "hdrf:naive",
        "hdrf:min-satisfaction",
        "hdrf:collapsed",
        "hdrf:hdrf",
    ] {
        assert!(s.applies_to(descriptor(name).unwrap()).is_ok(), "{name}");
    }
    let err = s.applies_to(descriptor("drf").unwrap()).unwrap_err();
    assert!(err.contains("--mechanism") && err.contains("drf"), "{err}");
    assert!(!s.info().uses_utility);
}

#[test]
fn a_recorded_workload_beyond_the_bound_is_refused() {
    let mut doc: Value = serde_json::from_str(
        r#"{"capacity": [1], "horizon": 10, "tree": {"children": [{"name": "x", "demand": [1]}]},
        "workload": {"x": {"duration": 1, "arrivals": [{"time": 0, "count": 100000}]}}}"#,
    )
    .unwrap();
    let sim = Sim::from_json(&doc).unwrap();
    let err = run(&sim, SimPolicy::Tree(leontief_hdrf::Policy::Naive))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("witness.workload: 100000 tasks"), "{err}");
    doc["workload"]["x"] = serde_json::json!({"duration": 1});
    let sim = Sim::from_json(&doc).unwrap();
    let err = run(&sim, SimPolicy::Tree(leontief_hdrf::Policy::Naive))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("witness.workload.x:"), "{err}");
}

#[test]
fn same_records_at_any_thread_count() {
    let m = by_name("hdrf:hdrf").unwrap();
    let mut g = GeneratorConfig::new();
    g.pools = Some(1..=2);
    let mut cfg = ExploreConfig::new(MetricName::Starvation, 5, g);
    cfg.run.budget = Some(200);
    let lines = |threads: usize| common::on_threads(threads, || explore_lines(m.as_ref(), &cfg));
    let one = lines(1);
    assert!(!one.is_empty());
    assert_eq!(one, lines(2));
}
