//! `leontief simulate` with production semantics: tie-breaks between identical users, the event
//! budget, starvation that allows for task size, every policy side by side, and SVG charts
//! (`leontief hdrf --svg` too). Every expected value is derived by hand in the comments.

use crate::common;

use std::process::Output;

use common::{assert_bad, ok_json, run_with, scratch_path};
use leontief::hdrf::simulate::SimPolicy;
use serde_json::Value;

fn run(args: &[&str], stdin: &str) -> Output {
    run_with(args, Some(stdin))
}

fn node<'a>(v: &'a Value, name: &str) -> &'a Value {
    common::node_where(v, "name", name)
}

/// Two identical users on one slot: tasks of the whole capacity, duration 1, always work,
/// horizon 10, guarantees 1/2 each.
const ONE_SLOT: &str = r#"{"capacity": [1], "horizon": 10, "tree": {"children": [
    {"name": "x", "demand": [1]}, {"name": "y", "demand": [1]}]}}"#;

/// The issue's case. Both hold 0 whenever the slot frees (every integer time), an exact tie.
/// - `first`: x wins every tie, so x runs [0, 10) and y never runs: y's time-average 0,
///   below its guarantee for all of [0, 10).
/// - `count` (the default, Mesos' rule): at t = 0 the counts tie (0, 0) and input order picks
///   x; at t = 1 x has 1 start, y 0, so y; at t = 2 (1, 1) again x: x runs [0,1), [2,3), ...,
///   y [1,2), [3,4), ...: each holds 1 half the time (time-average 1/2) and is below its
///   guarantee in spells of 1.
/// - `lru`: the same alternation (the one served last loses the tie).
///
/// y's guarantee 1/2 is less than one task (1): no instant can meet it, so neither run is
/// flagged starved by the task-size-aware rule (`longest_below_by_a_task` 0); the time-average
/// share and the raw `longest_below_guarantee` (10 against 1) are what show the difference.
#[test]
fn identical_users_alternate_under_the_default_tie_break() {
    let first = ok_json(&run(
        &["simulate", "--tie", "first", "--no-series", "-"],
        ONE_SLOT,
    ));
    assert_eq!(first["tie"], "first");
    assert_eq!(node(&first, "x")["time_average_share"], "1");
    assert_eq!(node(&first, "y")["time_average_share"], "0");
    assert_eq!(node(&first, "y")["longest_below_guarantee"], "10");
    assert_eq!(node(&first, "y")["longest_below_by_a_task"], "0");
    assert_eq!(node(&first, "y")["starved"], false);

    let count = ok_json(&run(&["simulate", "--no-series", "-"], ONE_SLOT));
    assert_eq!(count["tie"], "count");
    for leaf in ["x", "y"] {
        assert_eq!(node(&count, leaf)["time_average_share"], "1/2");
        assert_eq!(node(&count, leaf)["longest_below_guarantee"], "1");
        assert_eq!(node(&count, leaf)["time_below_guarantee"], "5");
    }
    let lru = ok_json(&run(
        &["simulate", "--tie", "lru", "--no-series", "-"],
        ONE_SLOT,
    ));
    assert_eq!(node(&lru, "y")["time_average_share"], "1/2");
}

/// `name` picks the smaller name whatever the order: with b listed before a, `name` serves a
/// at every tie (a holds 1 throughout), and `count,name` serves a first (counts tie at 0,
/// names decide) and then alternates.
#[test]
fn name_and_chains() {
    let input = r#"{"capacity": [1], "horizon": 4, "tree": {"children": [
        {"name": "b", "demand": [1]}, {"name": "a", "demand": [1]}]}}"#;
    let name = ok_json(&run(
        &["simulate", "--tie", "name", "--no-series", "-"],
        input,
    ));
    assert_eq!(node(&name, "a")["time_average_share"], "1");
    assert_eq!(node(&name, "b")["time_average_share"], "0");
    let chain = ok_json(&run(&["simulate", "--tie", "count,name", "-"], input));
    assert_eq!(chain["tie"], "count,name");
    // Series at t = 0, nodes in pre-order root, b, a: a holds the slot.
    assert_eq!(chain["series"][0]["time"], "0");
    assert_eq!(chain["series"][0]["dominant_share"][2], "1");
    assert_eq!(chain["series"][1]["time"], "1");
    assert_eq!(chain["series"][1]["dominant_share"][1], "1");
    assert_eq!(node(&chain, "a")["time_average_share"], "1/2");
}

/// Starvation allows for task size. Two identical users, tasks of 1/3, duration 1, always
/// work, horizon 10, guarantees 1/2. Three tasks fit; with `first` every round goes x, y, x
/// (ties to x), so y holds 1/3 on [0, 10): below its guarantee the whole time (the raw
/// `longest_below_guarantee` 10), but by 1/2 - 1/3 = 1/6, less than one task (1/3): it could
/// not start a task and stay within its guarantee, so it is not starved. With `count`, the
/// rounds alternate x, y, x and y, x, y (the counts after t = 0 are x 2, y 1): each holds 2/3
/// and 1/3 in turn, time-average 1/2.
#[test]
fn less_than_one_task_below_the_guarantee_is_not_starved() {
    let input = r#"{"capacity": [1], "horizon": 10, "tree": {"children": [
        {"name": "x", "demand": ["1/3"]}, {"name": "y", "demand": ["1/3"]}]}}"#;
    let first = ok_json(&run(
        &["simulate", "--tie", "first", "--no-series", "-"],
        input,
    ));
    let y = node(&first, "y");
    assert_eq!(y["time_average_share"], "1/3");
    assert_eq!(y["longest_below_guarantee"], "10");
    assert_eq!(y["longest_below_by_a_task"], "0");
    assert_eq!(y["starved"], false);
    let count = ok_json(&run(&["simulate", "--no-series", "-"], input));
    assert_eq!(node(&count, "x")["time_average_share"], "1/2");
    assert_eq!(node(&count, "y")["time_average_share"], "1/2");
    assert_eq!(node(&count, "y")["longest_below_guarantee"], "1");
}

/// A user held a whole task below its guarantee is starved, and the default tie-break
/// prevents it. z holds 3/4 for the whole run; x and y (tasks of 1/4, duration 1, work from
/// t = 1) contend for the one free slot; guarantees 1/3 each; horizon 11, tolerance 11/10.
/// - `first`: x runs every task on [1, 11); y holds 0 there, 1/3 >= 1/4 below its guarantee:
///   a spell of 10 by a task or more, starved.
/// - `count`: x at 1, 3, 5, 7, 9 and y at 2, 4, 6, 8, 10: y's spells below are [1, 2), [3, 4),
///   ..., [9, 10), each 1 <= 11/10, not starved; time-average 5 · 1/4 / 11 = 5/44 each.
#[test]
fn the_default_does_not_starve_one_of_two_identical_users() {
    let input = r#"{"capacity": [1], "horizon": 11, "tree": {"children": [
        {"name": "x", "demand": ["1/4"]}, {"name": "y", "demand": ["1/4"]}, {"name": "z", "demand": ["3/4"]}]},
        "workload": {"z": {"count": 1, "duration": 100}, "x": {"start": 1}, "y": {"start": 1}}}"#;
    for policy in ["naive", "min-satisfaction", "collapsed", "hdrf"] {
        let first = ok_json(&run(
            &[
                "simulate",
                "--policy",
                policy,
                "--tie",
                "first",
                "--no-series",
                "-",
            ],
            input,
        ));
        let y = node(&first, "y");
        assert_eq!(y["time_average_share"], "0", "{policy}");
        assert_eq!(y["longest_below_by_a_task"], "10", "{policy}");
        assert_eq!(y["starved"], true, "{policy}");
        let count = ok_json(&run(
            &["simulate", "--policy", policy, "--no-series", "-"],
            input,
        ));
        for leaf in ["x", "y"] {
            let n = node(&count, leaf);
            assert_eq!(n["time_average_share"], "5/44", "{policy} {leaf}");
            assert_eq!(n["starved"], false, "{policy} {leaf}");
        }
        assert_eq!(
            node(&count, "y")["longest_below_by_a_task"],
            "1",
            "{policy}"
        );
    }
}

/// A task duration of 1e-30 on a horizon of 1 would need 10^30 completions: the run stops at
/// the event budget (default 2,000,000) with an error naming the flag, instead of running
/// without end.
#[test]
fn a_workload_beyond_the_event_budget_is_an_error() {
    let input = r#"{"capacity": [1], "horizon": 1, "tree": {"children": [{"name": "x", "demand": [1]}]},
        "workload": {"x": {"duration": 1e-30}}}"#;
    let out = run(&["simulate", "--no-series", "-"], input);
    assert_bad(
        &out,
        "--max-events: min-satisfaction: the run needs more than 2000000 events",
    );
    let out = run(&["simulate", "--max-events", "1000", "-"], input);
    assert_bad(&out, "more than 1000 events before the horizon 1");
    assert_bad(
        &run(&["simulate", "--max-events", "0", "-"], input),
        "--max-events: expected at least one event, found 0",
    );
    // The same workload with tasks of 1/10: 10 completions, well within a budget of 100.
    let fine = input.replace("1e-30", "0.1");
    let ok = ok_json(&run(&["simulate", "--max-events", "100", "-"], &fine));
    assert_eq!(ok["tasks"]["completed"], 9); // the tenth ends at the horizon, not before
}

/// `--policy all`: one JSON with a section per policy, each the same as that policy's own run;
/// the table puts them side by side.
#[test]
fn every_policy_side_by_side() {
    let all = ok_json(&run(&["simulate", "--policy", "all", "-"], ONE_SLOT));
    assert_eq!(all["policy"], "all");
    let runs = all["runs"].as_object().unwrap();
    let names: Vec<&str> = runs.keys().map(String::as_str).collect();
    // Every policy the flag accepts but `all` itself, in the flag's order.
    let mut accepted = common::listed_names(
        &["simulate", "--policy", "fair", "-"],
        "error: --policy: unknown policy \"fair\" (expected ",
        ')',
    );
    assert_eq!(accepted.pop().as_deref(), Some("all"));
    assert_eq!(names, accepted);
    for name in ["naive", "min-satisfaction", "collapsed", "hdrf", "fifo"] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
    for &name in &names {
        let alone = ok_json(&run(&["simulate", "--policy", name, "-"], ONE_SLOT));
        assert_eq!(runs[name], alone, "{name}");
    }
    let out = run(
        &["simulate", "--policy", "all", "--format", "table", "-"],
        ONE_SLOT,
    );
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    // The cells of a line with where each starts: cells are apart by two spaces or more.
    let cells = |line: &str| -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let mut start = 0;
        for piece in line.split("  ") {
            if !piece.trim().is_empty() {
                let lead = piece.len() - piece.trim_start().len();
                out.push((start + lead, piece.trim().to_string()));
            }
            start += piece.len() + 2;
        }
        out
    };
    let header = cells(lines[0]);
    let header_names: Vec<&str> = header.iter().map(|(_, c)| c.as_str()).collect();
    assert_eq!(header_names[..2], ["node", "g"]);
    assert_eq!(header_names[2..], names[..]);
    // Every policy alternates x and y here (FIFO too: x's backlog and y's count as submitted
    // at 0; the count tie-break alternates them), time-average 1/2 each; each cell under its
    // column's name.
    let x = cells(lines[2]);
    assert_eq!(x.len(), header.len(), "{}", lines[2]);
    assert_eq!((x[0].1.as_str(), x[1].1.as_str()), ("root/x", "1/2"));
    for ((at, cell), (column, name)) in x.iter().zip(&header).skip(2) {
        assert_eq!(cell, "1/2 / 0", "{name}: {}", lines[2]);
        assert_eq!(at, column, "{name} out of its column:\n{table}");
    }
    assert_bad(
        &run(&["simulate", "--policy", "all", "--csv", "-"], ONE_SLOT),
        "--csv prints the time series of one policy; not with --policy all",
    );
    assert_bad(
        &run(
            &["simulate", "--format", "table", "--every", "1", "-"],
            ONE_SLOT,
        ),
        "--every sets the step of the time series; --format table shows none",
    );
}

/// The SVG files are written and are well-formed SVG naming every series: the simulator's
/// panels (one per policy, a line per node labelled by path) and `hdrf`'s stacked bars.
#[test]
fn svg_charts_name_their_series() {
    let path = scratch_path("simulate-production", "shares.svg");
    let path_text = path.to_str().unwrap();
    let out = run(
        &common::cli(
            "simulate --policy all --svg",
            &[path_text, "--no-series", "-"],
        ),
        ONE_SLOT,
    );
    assert_bad(
        &out,
        "--no-series leaves out the time series; not with --csv, --every or --svg",
    );
    let out = run(
        &["simulate", "--policy", "all", "--svg", path_text, "-"],
        ONE_SLOT,
    );
    assert!(out.status.success(), "{out:?}");
    let svg = std::fs::read_to_string(&path).unwrap();
    let texts = svg_texts(&svg);
    for policy in ["naive", "min-satisfaction", "collapsed", "hdrf", "fifo"] {
        let caption = format!("{policy} (ties: count): dominant share over time");
        assert!(texts.contains(&caption), "{caption}: {texts:?}");
    }
    // A legend entry per node (the root is not drawn) in each of the five panels.
    assert_eq!(texts.iter().filter(|t| *t == "root/x").count(), 5);
    assert_eq!(texts.iter().filter(|t| *t == "root/y").count(), 5);
    assert!(!texts.iter().any(|t| t == "root"));

    let bars = scratch_path("simulate-production", "bars.svg");
    let tree = r#"{"resources": ["cpu", "mem"], "capacity": [1, 1], "tree": {"children": [
        {"name": "n1", "demand": [0, 1]},
        {"name": "n2", "children": [{"name": "n21", "demand": [1, 0]}, {"name": "n22", "demand": [0, 1]}]}]}}"#;
    let out = run(
        &common::cli("hdrf --policy all --svg", &[bars.to_str().unwrap(), "-"]),
        tree,
    );
    assert!(out.status.success(), "{out:?}");
    let texts = svg_texts(&std::fs::read_to_string(&bars).unwrap());
    for leaf in ["root/n1", "root/n2/n21", "root/n2/n22"] {
        assert!(texts.iter().any(|t| t == leaf), "{leaf}: {texts:?}");
    }
    for bar in [
        "hdrf: cpu",
        "naive: mem",
        "collapsed: cpu",
        "min-satisfaction: mem",
    ] {
        assert!(texts.iter().any(|t| t == bar), "{bar}: {texts:?}");
    }
    let unwritable = run(
        &["simulate", "--svg", "/nonexistent-dir/x.svg", "-"],
        ONE_SLOT,
    );
    assert_bad(&unwritable, "--svg: /nonexistent-dir/x.svg:");
}

/// Parses `svg` as XML (failing on malformed output), checks the root is an `<svg>` element
/// and returns the text of every `<text>` element, trimmed.
fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

#[test]
fn bad_tie_breaks_name_the_flag() {
    // The tie-breaks listed are documented under --tie; Mesos' count, YARN's name, and input
    // order are among them.
    let ties = common::listed_names_in(
        &run(&["simulate", "--tie", "oldest", "-"], ONE_SLOT),
        "error: --tie: unknown tie-break \"oldest\" (expected ",
        ')',
    );
    let help = String::from_utf8(run(&["simulate", "--help"], "").stdout).unwrap();
    common::assert_documented(&ties, common::help_paragraph(&help, "--tie <"));
    common::assert_lists(&ties, &["first", "count", "lru", "name"]);
    assert_bad(
        &run(&["simulate", "--tie", "first,count", "-"], ONE_SLOT),
        "--tie: first decides every tie, so count after it could never apply",
    );
}

/// Idle leaves (all-zero demand) and empty pools take part in a simulation and get nothing:
/// with the one-slot pair beside an idle leaf `z` and an empty pool `e`, x and y still
/// alternate under the default `count` (time-average 1/2 each, as in the one-slot case: the
/// idle leaf never submits a task, so it never takes a tie), and z holds 0 throughout. A
/// workload that gives the idle leaf work is refused, as is what the simulator does not
/// honour (preemption beside a guarantee), rather than ignored.
#[test]
fn idle_leaves_and_empty_pools_get_nothing_and_unhonoured_fields_are_refused() {
    let tree = r#"{"capacity": [1], "horizon": 10, "tree": {"children": [
        {"name": "x", "demand": [1]}, {"name": "y", "demand": [1]},
        {"name": "z", "demand": [0]}, {"name": "e", "children": []}]}}"#;
    let v = ok_json(&run(&["simulate", "--no-series", "-"], tree));
    assert_eq!(node(&v, "x")["time_average_share"], "1/2");
    assert_eq!(node(&v, "y")["time_average_share"], "1/2");
    assert_eq!(node(&v, "z")["time_average_share"], "0");
    let busy_idle = r#"{"capacity": [1], "horizon": 10, "tree": {"children": [
        {"name": "x", "demand": [1]}, {"name": "z", "demand": [0]}]},
        "workload": {"z": {"duration": 1, "count": 3}}}"#;
    assert_bad(
        &run(&["simulate", "-"], busy_idle),
        "workload.z: \"z\" is idle (all-zero demand): it runs no tasks; give it a demand or no work",
    );
    let guaranteed = r#"{"capacity": [1], "horizon": 10, "tree": {"children": [
        {"name": "x", "demand": [1], "guarantee": "1/2"}, {"name": "y", "demand": [1]}]}}"#;
    assert_bad(
        &run(&["simulate", "--preempt-after", "1", "-"], guaranteed),
        "preemption: not with explicit guarantees or limits in the tree yet",
    );
}

/// Explicit guarantees through the command line: four slots (tasks of 1/4 taking 1), x
/// guaranteed 3/4, y nothing, both always with work. Every round x is served while one more
/// task keeps it within 3/4 (three tasks), then y gets the last slot: 3 and 1 under every
/// policy, x never below its guarantee by a task.
#[test]
fn explicit_guarantees_are_served_first_under_every_policy() {
    let tree = r#"{"capacity": [1], "horizon": 4, "tree": {"children": [
        {"name": "x", "demand": ["1/4"], "guarantee": ["3/4"]},
        {"name": "y", "demand": ["1/4"]}]}}"#;
    let v = ok_json(&run(
        &["simulate", "--policy", "all", "--no-series", "-"],
        tree,
    ));
    let runs = v["runs"].as_object().unwrap();
    // One run per simulated policy, each under a name the simulator resolves; the static
    // policies and FIFO among them.
    let names: Vec<String> = runs.keys().cloned().collect();
    for name in &names {
        assert!(SimPolicy::NAMES.contains(&name.as_str()), "{name}");
    }
    common::assert_lists(&names, &["naive", "hdrf", "fifo"]);
    for r in runs.values() {
        assert_eq!(node(r, "x")["final_tasks"], 3, "{}", r["policy"]);
        assert_eq!(node(r, "y")["final_tasks"], 1, "{}", r["policy"]);
        assert_eq!(node(r, "x")["starved"], false, "{}", r["policy"]);
    }
}

/// `--workload FILE` adds a workload to a tree file; a key that is not a workload key, or one
/// the tree file has already, is an error naming it.
#[test]
fn workload_file_is_merged_and_checked() {
    let tree_path = scratch_path("simulate-production", "wl-tree.json");
    std::fs::write(
        &tree_path,
        r#"{"capacity": [1], "tree": {"children": [{"name": "x", "demand": ["1/2"]}]}}"#,
    )
    .unwrap();
    let tree = tree_path.to_str().unwrap();
    let wl = scratch_path("simulate-production", "wl.json");
    std::fs::write(
        &wl,
        r#"{"horizon": 4, "workload": {"x": {"count": 1, "duration": 2}}}"#,
    )
    .unwrap();
    // One task of 1/2 for [0, 2) of the horizon 4: time-average 1/4.
    let v = ok_json(&run(
        &common::cli(
            "simulate --policy fifo --no-series --workload",
            &[wl.to_str().unwrap(), tree],
        ),
        "",
    ));
    assert_eq!(node(&v, "x")["time_average_share"], "1/4");
    std::fs::write(&wl, r#"{"horizon": 4, "bogus": 1}"#).unwrap();
    assert_bad(
        &run(&["simulate", "--workload", wl.to_str().unwrap(), tree], ""),
        "--workload.bogus: not a workload key (expected workload, horizon, seed, warmup, starvation_tolerance)",
    );
    let with_horizon = scratch_path("simulate-production", "wl-tree-h.json");
    std::fs::write(
        &with_horizon,
        r#"{"capacity": [1], "horizon": 3, "tree": {"children": [{"name": "x", "demand": ["1/2"]}]}}"#,
    )
    .unwrap();
    std::fs::write(&wl, r#"{"horizon": 4}"#).unwrap();
    assert_bad(
        &run(
            &[
                "simulate",
                "--workload",
                wl.to_str().unwrap(),
                with_horizon.to_str().unwrap(),
            ],
            "",
        ),
        "--workload.horizon: the tree file has it already; give it in one place",
    );
}
