//! End-to-end tests of `leontief simulate`: the churn examples (examples/*-churn.json) with
//! the facts of reference/trees.json ("dynamic"), CSV, preemption, and bad input.

use crate::common;

use std::process::Output;

use common::{assert_bad, ok_json, words};

use leontief::solver::Rational;
use serde_json::Value;

fn run(args: &[&str], stdin: &str) -> Output {
    common::run_with(args, Some(stdin))
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn node<'a>(v: &'a Value, name: &str) -> &'a Value {
    common::node_where(v, "name", name)
}

fn rat(v: &Value) -> Rational {
    v.as_str().unwrap().parse().unwrap()
}

/// The lecture: naive HDRF drains B1 to 0 (A holds all the CPU); min-satisfaction keeps B1
/// at or above its guarantee 1/4 (hand bound 7/20, see hdrf/tests/integration/simulate.rs).
#[test]
fn lecture_churn_naive_starves_min_satisfaction_does_not() {
    let file = example("lecture-churn.json");
    let naive = ok_json(&run(&["simulate", "--policy", "naive", &file], ""));
    assert_eq!(naive["policy"], "naive");
    assert_eq!(node(&naive, "B1")["guaranteed_share"], "1/4");
    assert_eq!(node(&naive, "B1")["min_share_steady"], "0");
    assert_eq!(node(&naive, "B1")["starved"], true);
    assert_eq!(node(&naive, "A")["min_share_steady"], "1");
    let series = naive["series"].as_array().unwrap();
    assert_eq!(series[0]["time"], "0");
    let nodes = naive["nodes"].as_array().unwrap();
    assert_eq!(
        series[0]["dominant_share"].as_array().unwrap().len(),
        nodes.len()
    );

    let fair = ok_json(&run(
        &["simulate", "--policy", "min-satisfaction", &file],
        "",
    ));
    let b1 = node(&fair, "B1");
    assert!(rat(&b1["min_share_steady"]) >= "1/4".parse().unwrap());
    assert_eq!(b1["starved"], false);
    assert_eq!(b1["time_below_guarantee"], "0");
    // The default policy is min-satisfaction.
    assert_eq!(ok_json(&run(&["simulate", &file], "")), fair);
}

/// The H-DRF paper: naive starves n22 (the GPU drifts to n1); H-DRF keeps n22 at 1/2 or more.
#[test]
fn hdrf_paper_churn() {
    let file = example("hdrf-paper-churn.json");
    let naive = ok_json(&run(
        &["simulate", "--policy", "naive", "--no-series", &file],
        "",
    ));
    assert_eq!(node(&naive, "n22")["starved"], true);
    assert_eq!(node(&naive, "n1")["min_share_steady"], "1");
    assert_eq!(naive["series"].as_array().unwrap().len(), 0);
    let hdrf = ok_json(&run(
        &["simulate", "--policy", "hdrf", "--no-series", &file],
        "",
    ));
    assert!(rat(&node(&hdrf, "n22")["min_share_steady"]) >= "1/2".parse().unwrap());
    assert_eq!(node(&hdrf, "n22")["starved"], false);
}

/// Preemption after 2 on the lecture's tree with fixed durations (A 3/2, B1 1, B2 1000):
/// B1's spells below 1/4 are [3k + 1, 3k + 3), 33 of them, 5 tasks preempted for each.
#[test]
fn preemption_from_standard_input() {
    let input = r#"{"resources": ["cpu", "mem"], "capacity": [1, 1],
      "tree": {"name": "root", "children": [{"name": "A", "demand": ["1/20", 0]},
        {"name": "B", "children": [{"name": "B1", "demand": ["1/20", 0]}, {"name": "B2", "demand": [0, "1/20"]}]}]},
      "workload": {"A": {"duration": 1.5}, "B1": {"duration": 1}, "B2": {"duration": 1000}}}"#;
    let out = ok_json(&run(
        &words("simulate --policy naive --preempt-after 2 --horizon 100 --every 25 -"),
        input,
    ));
    assert_eq!(out["preemption"]["timeout"], "2");
    assert_eq!(out["tasks"]["preempted"], 165);
    let b1 = node(&out, "B1");
    assert_eq!(b1["time_below_guarantee"], "66");
    assert_eq!(b1["longest_below_guarantee"], "2");
    assert_eq!(b1["starved"], false); // tolerance: horizon / 10 = 10
    assert_eq!(out["starvation_tolerance"], "10");
    assert_eq!(
        common::strings_at(&out, "series", "time"),
        ["0", "25", "50", "75"]
    );
}

#[test]
fn csv_series_and_summary_on_stderr() {
    let file = example("lecture-churn.json");
    let out = run(
        &[
            "simulate", "--policy", "naive", "--csv", "--every", "50", &file,
        ],
        "",
    );
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout.clone()).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "time,path,dominant_share,satisfaction");
    // Two samples (0 and 50) of five nodes; at 50 B1 has drained and B2 holds the memory.
    assert_eq!(lines.len(), 1 + 2 * 5);
    assert!(lines.contains(&"50,root/B/B1,0,0"), "{csv}");
    assert!(lines.contains(&"50,root/B/B2,1,4"), "{csv}");
    common::assert_stderr_contains(&out, &["root/B/B1: guaranteed 1/4", "STARVED"]);
}

#[test]
fn same_seed_same_output() {
    let file = example("lecture-churn.json");
    let a = run(&["simulate", "--policy", "hdrf", &file], "");
    let b = run(&["simulate", "--policy", "hdrf", &file], "");
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let c = run(&["simulate", "--policy", "hdrf", "--seed", "7", &file], "");
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn bad_input_is_rejected_with_the_field() {
    let tree = |workload: &str| {
        format!(
            r#"{{"capacity": [1, 1], "horizon": 10, "tree": {{"children": [{{"name": "A", "demand": [1, 0]}},
            {{"name": "B", "children": [{{"name": "B1", "demand": [1, 0]}}]}}]}}, "workload": {workload}}}"#
        )
    };
    // (arguments, the workload, what standard error says)
    for (args, workload, message) in [
        (
            "simulate -",
            r#"{"B1": {"duration": 0}}"#,
            "error: workload.B1.duration: expected a positive number, found 0",
        ),
        (
            "simulate -",
            r#"{"Z": {"duration": 1}}"#,
            "workload.Z: no leaf named \"Z\" in the tree",
        ),
        (
            "simulate --policy fair -",
            "{}",
            "--policy: unknown policy \"fair\"",
        ),
        (
            "simulate --machines 0 -",
            "{}",
            "--machines: expected at least one machine, found 0",
        ),
        (
            "simulate --machines 2 -",
            "{}",
            "--machines: a task of A needs 1 of r1, more than one of 2 machines holds (1/2)",
        ),
        (
            "simulate --preempt-after 0 -",
            "{}",
            "--preempt-after: expected a positive number, found 0",
        ),
        (
            "simulate --no-series --csv -",
            "{}",
            "--no-series leaves out the time series",
        ),
    ] {
        assert_bad(&run(&words(args), &tree(workload)), message);
    }
    assert_bad(
        &run(
            &["simulate", "-"],
            r#"{"capacity": [1], "tree": {"children": [{"name": "A", "demand": [1]}]}}"#,
        ),
        "horizon: missing (the end of simulated time); give \"horizon\" in the file or --horizon",
    );
    assert_bad(
        &run(&["simulate", "/no/such/file.json"], ""),
        "/no/such/file.json",
    );
}
