//! End-to-end tests of `leontief reproduce`: every example passes, by name or all, as text
//! or JSON.

use crate::common;

use common::exact::*;
use serde_json::json;

fn example_names() -> Vec<String> {
    ok(&run(&["reproduce", "--list"]))
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn reproduce_list() {
    let names = example_names();
    for name in [
        "drf-paper",
        "drf-paper-table1",
        "weighted-cap-zero",
        "four-operations",
        "drf-not-rm",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} not in {names:?}");
    }
}

#[test]
fn reproduce_all_passes() {
    // No names means all of them, as --all does (both run every example; the names are
    // checked below).
    let text = ok(&run(&["reproduce"]));
    let last = text.lines().last().expect("some output");
    let counts = last
        .strip_prefix("reproduce: ")
        .and_then(|s| s.strip_suffix(" failed"))
        .unwrap_or_else(|| panic!("last line is not a tally: {last}"));
    let (passed, failed) = counts.split_once(" passed, ").expect("N passed, M failed");
    let passed: usize = passed.parse().expect("a count");
    assert!(passed >= 29, "only {passed} checks: {last}");
    assert_eq!(failed, "0", "{text}");
    // A failed check starts its line with ✗ (a ✗ further on is a computed verdict, e.g. of
    // the property table, that agrees with the source's ✗).
    assert!(
        !text.lines().any(|l| l.trim_start().starts_with('✗')),
        "a failed check: {text}"
    );
    // Every listed example is in the report; no names means all of them.
    for name in example_names() {
        assert!(text.contains(&format!("{name} — ")), "{name} missing");
    }
    // The examples of `prove` are skipped only without z3, which CI has.
    if std::env::var("CI").as_deref() == Ok("true") {
        assert!(!text.contains("  skipped: "), "{text}");
    }
}

#[test]
fn reproduce_json() {
    // Every example but those of `prove` (which reproduce_all_passes runs), named.
    let named: Vec<String> = example_names()
        .into_iter()
        .filter(|n| !n.starts_with("prove-"))
        .collect();
    let mut args = vec!["reproduce", "--format", "json"];
    args.extend(named.iter().map(String::as_str));
    let report = ok_json(&run(&args));
    assert_eq!(report["failed"], json!(0));
    let passed = report["passed"].as_u64().expect("passed is a number");
    assert!(passed >= 29, "{passed}");
    let examples = report["examples"].as_array().expect("examples is a list");
    assert_eq!(examples.len(), named.len());
    let checks: usize = examples
        .iter()
        .map(|e| e["checks"].as_array().expect("checks").len())
        .sum();
    assert_eq!(checks as u64, passed);
    assert!(examples
        .iter()
        .flat_map(|e| e["checks"].as_array().expect("checks"))
        .all(|c| c["ok"] == json!(true) && c["computed"].is_string() && c["source"].is_string()));

    // One example by name: its checks only.
    let one = ok_json(&run(&["reproduce", "drf-paper", "--format", "json"]));
    let examples = one["examples"].as_array().expect("examples is a list");
    assert_eq!(examples.len(), 1);
    assert_eq!(examples[0]["name"], json!("drf-paper"));
    let a_tasks = examples[0]["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["what"] == json!("A tasks"))
        .expect("an A tasks check");
    assert_eq!(a_tasks["computed"], json!("3"));
    assert_eq!(a_tasks["source"], json!("3"));
}

#[test]
fn reproduce_unknown_example() {
    let known = example_names().join(", ");
    assert_bad(
        &run(&["reproduce", "nope"]),
        &format!("unknown example \"nope\"; known: {known}"),
    );
    // Nothing runs when one of several names is unknown.
    assert_bad(
        &run(&["reproduce", "drf-paper", "nope"]),
        &format!("unknown example \"nope\"; known: {known}"),
    );
    assert_bad(
        &run(&["reproduce", "--all", "drf-paper"]),
        "give example names or --all, not both",
    );
}

#[test]
fn an_example_of_prove_without_a_solver_says_how_to_install_one() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_leontief"))
        .args(["reproduce", "prove-sp"])
        .env("LEONTIEF_Z3", "/nonexistent/z3")
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    common::assert_stderr_contains(&out, &["/nonexistent/z3", "pip install z3-solver"]);
}

/// The DRF paper's Theorem 5: user 2 falls from u2 = (3800 + 100√373)/1071 to 100/21 when
/// user 3 leaves, so the ratio is 51/(38 + √373) = 51(38 − √373)/(38² − 373) = (38 − √373)/21
/// ≈ 0.88984724 (1071 = 21 · 51): shown exactly, checked against the paper's printed value,
/// in both entries that reproduce it.
#[test]
fn reproduce_shows_the_theorem_5_ratio_exactly() {
    for name in ["explore-ceei-pm", "ceei-paper"] {
        let text = ok(&run(&["reproduce", name]));
        let row = text
            .lines()
            .find(|l| l.contains("(38 - sqrt(373))/21"))
            .unwrap_or_else(|| panic!("{name}: no exact ratio in {text}"));
        assert!(row.trim_start().starts_with('✓'), "{row}");
        assert!(row.contains("= 0.889847242"), "{row}");
        // The certified interval row stays.
        if name == "explore-ceei-pm" {
            assert!(text.contains("pm-loss of user 3 leaving (certified interval)"));
        }
    }
}
