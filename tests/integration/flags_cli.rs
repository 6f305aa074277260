//! End-to-end tests of flag handling: flags that do not apply to the rest of the command line
//! are errors naming the flag (exit code 2, nothing on standard output, no output file), the
//! mechanism and enumeration values come from their tables, several properties per run, the
//! domain every verdict of `verify` and `search` states, and strict JSON input (duplicate
//! keys, nesting depth).

use crate::common;

use common::exact::*;
use common::ok_json as ok_json_loose;
use common::run_with;
use serde_json::{json, Value};

/// `check` on the DRF paper's example from standard input, with `extra` flags.
fn check(extra: &[&str]) -> std::process::Output {
    let mut args = vec!["check"];
    args.extend_from_slice(extra);
    args.push("-");
    run_with(&args, Some(PAPER))
}

#[test]
fn solve_trace_needs_json_and_a_mechanism_with_steps() {
    assert_bad(
        &run(&solve_flags(&["--trace", "--format", "table"])),
        "--trace: the trace is printed in JSON; not with --format table",
    );
    for mechanism in ["ceei", "drf-lp", "asset-lp", "hdrf:naive"] {
        assert_bad(
            &run(&solve_flags(&["--trace", "--mechanism", mechanism])),
            &format!(
                "--trace: {mechanism} has no trace (drf, drf-common-level, discrete-drf \
                 and asset have)"
            ),
        );
    }
    // The mechanisms with steps accept it.
    for mechanism in ["drf", "drf-common-level", "asset", "discrete-drf"] {
        let answer = ok_json(&run(&solve_flags(&["--trace", "--mechanism", mechanism])));
        assert!(answer["trace"].is_array(), "{mechanism}: {answer}");
    }
}

#[test]
fn check_scenario_flags_need_their_property() {
    assert_bad(
        &check(&["--property", "si,ef", "--lie", "A=1,1"]),
        "--lie applies to --property sp, gsp-strong or gsp-weak",
    );
    assert_bad(
        &check(&["--property", "sp", "--remove", "A"]),
        "--remove applies to --property pm",
    );
    assert_bad(
        &check(&["--property", "pm", "--capacity", "9,20"]),
        "--capacity applies to --property rm",
    );
    // With their property among several, they apply to it.
    let v: Value = ok_json(&check(&["--property", "si,pm", "--remove", "B"]));
    assert_eq!(v[0]["property"], "si");
    assert_eq!(v[1]["property"], "pm");
}

#[test]
fn verify_refuses_zero_instances_and_search_only_flags() {
    let verify = |extra: &[&str]| {
        let mut args = vec!["verify", "--property", "si", "--instances", "5"];
        args.extend_from_slice(extra);
        run(&args)
    };
    assert_bad(
        &run(&["verify", "--property", "si", "--instances", "0"]),
        "--instances: expected at least 1 instance, found 0",
    );
    assert_bad(
        &verify(&["--values", "0,1"]),
        "--values: the value grid is search's; verify draws random instances only",
    );
    // search's limits are not verify's flags.
    for flag in ["--time", "--budget", "--shard"] {
        let err = bad_input(&verify(&[flag, "1"]));
        assert!(
            err.starts_with(&format!("error: unexpected argument '{flag}' found")),
            "{err}"
        );
    }
    assert_bad(
        &verify(&["--threads", "0"]),
        "--threads: expected at least 1",
    );
}

#[test]
fn search_refuses_empty_budgets_and_stray_flags_without_creating_its_output() {
    let dir = Scratch::new("search-flags");
    let out = dir.0.join("found.jsonl");
    let out = out.to_str().expect("UTF-8 temp path");
    for (extra, message) in [
        (
            "--property sp --budget 0",
            "--budget: expected at least 1 scenario, found 0",
        ),
        (
            "--property sp --max-found 0",
            "--max-found: expected at least 1, found 0",
        ),
        (
            "--property sp,pm --max-liars 2",
            "--max-liars applies to --property gsp-strong or gsp-weak",
        ),
        (
            "--property gsp-weak --max-liars 0",
            "--max-liars: expected at least 1",
        ),
    ] {
        let mut args = vec!["search", "--out", out];
        args.extend(common::words(extra));
        assert_bad(&run(&args), message);
        assert!(!dir.0.join("found.jsonl").exists(), "{extra:?}");
    }
}

#[test]
fn reproduce_list_takes_no_other_flag() {
    let message = "--list prints the example names; not with names, --all or --format";
    assert_bad(&run(&["reproduce", "--list", "--all"]), message);
    assert_bad(&run(&["reproduce", "--list", "drf-paper"]), message);
    assert_bad(&run(&["reproduce", "--list", "--format", "json"]), message);
}

#[test]
fn names_and_help_come_from_the_tables() {
    // Every mechanism of the table is accepted and listed, with its exactness.
    let help = ok(&run(&["solve", "--help"]));
    let help_line = |help: &str, name: &str| -> Option<String> {
        help.lines()
            .find(|l| l.trim_start().starts_with(&format!("- {name}:")))
            .map(str::to_string)
    };
    for (name, exactness) in [
        ("drf", "exact"),
        ("ceei", "numeric"),
        ("drf-lp", "certified"),
        ("hdrf:min-satisfaction", "exact"),
    ] {
        let line =
            help_line(&help, name).unwrap_or_else(|| panic!("{name} not in solve --help: {help}"));
        assert!(line.ends_with(&format!("[{exactness}]")), "{line}");
    }
    // The errors list the names of the tables: each listed name is documented, and the names
    // of the sources (the DRF paper's mechanisms, the H-DRF paper's policies, the properties
    // of Parkes, Procaccia and Shah) are among them.
    let mechanisms = common::listed_names(
        &["check", "--mechanism", "fair", "--property", "si", "-"],
        "error: invalid value 'fair' for '--mechanism <MECHANISM>': unknown mechanism \"fair\"; \
         known: ",
        '\n',
    );
    for name in &mechanisms {
        let line =
            help_line(&help, name).unwrap_or_else(|| panic!("{name} not in solve --help: {help}"));
        assert!(
            ["[exact]", "[numeric]", "[certified]"]
                .iter()
                .any(|e| line.ends_with(e)),
            "{line}"
        );
    }
    for name in [
        "drf",
        "discrete-drf",
        "asset",
        "ceei",
        "hdrf:naive",
        "hdrf:hdrf",
    ] {
        assert!(
            mechanisms.iter().any(|m| m == name),
            "{name}: {mechanisms:?}"
        );
    }

    let properties = common::listed_names(
        &["verify", "--property", "si,fair"],
        "error: --property: unknown property \"fair\" (expected ",
        ')',
    );
    let verify_help = ok(&run(&["verify", "--help"]));
    for name in &properties {
        assert!(
            help_line(&verify_help, name).is_some(),
            "{name}: {verify_help}"
        );
    }
    for name in ["si", "ef", "po", "sp", "pm", "rm", "sg"] {
        assert!(
            properties.iter().any(|p| p == name),
            "{name}: {properties:?}"
        );
    }

    // Strategies and the policies of `hdrf`: clap's list of possible values in --help is the
    // error's list.
    let possible_values = |command: &str, flag: &str| -> Vec<String> {
        let help = ok(&run(&[command, "--help"]));
        let after = &help[help.find(&format!("{flag} <")).expect("the flag in --help")..];
        let list = after
            .split("[possible values: ")
            .nth(1)
            .and_then(|l| l.split(']').next())
            .unwrap_or_else(|| panic!("no possible values for {flag}: {after}"));
        list.split(", ").map(str::to_string).collect()
    };
    let strategies = common::listed_names(
        &["search", "--property", "sp", "--strategy", "clever"],
        "error: --strategy: unknown strategy \"clever\" (expected ",
        ')',
    );
    assert_eq!(strategies, possible_values("search", "--strategy"));
    for name in ["random", "exhaustive"] {
        assert!(
            strategies.iter().any(|s| s == name),
            "{name}: {strategies:?}"
        );
    }
    let static_policies = common::listed_names(
        &["hdrf", "--policy", "fair", "-"],
        "error: --policy: unknown policy \"fair\" (expected ",
        ')',
    );
    assert_eq!(static_policies, possible_values("hdrf", "--policy"));
    let simulated_policies = common::listed_names(
        &["simulate", "--policy", "fair", "-"],
        "error: --policy: unknown policy \"fair\" (expected ",
        ')',
    );
    for name in ["naive", "min-satisfaction", "hdrf", "all"] {
        assert!(
            static_policies.iter().any(|p| p == name),
            "{name}: {static_policies:?}"
        );
        assert!(
            simulated_policies.iter().any(|p| p == name),
            "{name}: {simulated_policies:?}"
        );
    }
    // FIFO is a scheduler's queue, not a static allocation.
    assert!(
        simulated_policies.iter().any(|p| p == "fifo"),
        "{simulated_policies:?}"
    );
    assert!(
        !static_policies.iter().any(|p| p == "fifo"),
        "{static_policies:?}"
    );
}

#[test]
fn solve_runs_hierarchical_mechanisms_of_the_table() {
    // P (weight 1) holds P1 <1, 0>; Q (weight 1) holds Q1 <0, 1>: disjoint resources, so
    // every policy gives each leaf its whole resource, 1 task each.
    let tree = r#"{"capacity": [1, 1], "tree": {"children": [
        {"name": "P", "children": [{"name": "P1", "demand": [1, 0]}]},
        {"name": "Q", "children": [{"name": "Q1", "demand": [0, 1]}]}]}}"#;
    let answer: Value = serde_json::from_slice(
        &run_with(&["solve", "--mechanism", "hdrf:naive", "-"], Some(tree)).stdout,
    )
    .expect("JSON");
    assert_eq!(answer["mechanism"], "hdrf:naive");
    let tasks: Vec<&str> = answer["users"]
        .as_array()
        .expect("users")
        .iter()
        .map(|u| u["tasks"].as_str().expect("tasks"))
        .collect();
    assert_eq!(tasks, ["1", "1"]);
}

#[test]
fn verify_and_search_share_the_generator_defaults_and_state_the_domain() {
    let v = ok_json_loose(&run(&["verify", "--property", "ef", "--instances", "20"]));
    // The defaults of the one generator flag group (search's: zero entries allowed).
    assert_eq!(
        v["domain"],
        json!({"users": "2..4", "resources": "2..3", "demands": "integers 1..6",
               "zeros": "1/3", "weights": false, "caps": false, "pools": null})
    );
    let err =
        String::from_utf8_lossy(&run(&["search", "--property", "ef", "--budget", "50"]).stderr)
            .to_string();
    assert!(
        err.contains(
            "domain: users 2..4, resources 2..3, demands integers 1..6, zeros 1/3, \
             weights no, caps no, pools none, values 0,1/2,1, strategy combined"
        ),
        "{err}"
    );
    // Flags change the stated domain.
    let v = ok_json_loose(&run(&[
        "verify",
        "--property",
        "ef",
        "--instances",
        "5",
        "--users",
        "3..3",
        "--zeros",
        "0",
        "--weights",
        "--pools",
        "1..2",
    ]));
    assert_eq!(v["domain"]["users"], "3..3");
    assert_eq!(v["domain"]["zeros"], "0");
    assert_eq!(v["domain"]["weights"], true);
    assert_eq!(v["domain"]["pools"], "1..2");
}

#[test]
fn several_properties_per_run() {
    // verify: one summary per property, in the order given, on the same instances.
    let v = ok_json_loose(&run(&[
        "verify",
        "--property",
        "si,ef,po",
        "--instances",
        "20",
    ]));
    let names: Vec<&str> = v
        .as_array()
        .expect("a list of summaries")
        .iter()
        .map(|s| s["property"].as_str().expect("property"))
        .collect();
    assert_eq!(names, ["si", "ef", "po"]);
    // DRF is SI, EF and PO (the DRF paper; docs/theory.md §3).
    assert!(v.as_array().unwrap().iter().all(|s| s["violations"] == 0));
    // search: each record names its property; a summary per property.
    let out = run(&[
        "search",
        "--mechanism",
        "asset",
        "--property",
        "si,rm",
        "--budget",
        "2000",
        "--max-found",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let properties: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let r: Value = serde_json::from_str(l).expect("a JSON record");
            r["property"].as_str().expect("property").to_string()
        })
        .collect();
    // Asset fairness fails SI (the DRF paper, Theorem 1) and RM (its property table: no
    // mechanism of the three is resource monotonic).
    assert_eq!(properties, ["si", "rm"]);
    common::assert_stderr_contains(&out, &["search asset si:", "search asset rm:"]);
}

#[test]
fn duplicate_keys_are_rejected_with_their_path() {
    let solve = |text: &str| run_with(&["solve", "-"], Some(text));
    assert_bad(
        &solve(r#"{"capacity": [1], "users": [{"name": "A", "demand": [1], "demand": [2]}]}"#),
        "users[0]: duplicate key \"demand\"",
    );
    assert_bad(
        &solve(r#"{"capacity": [1], "capacity": [2], "users": []}"#),
        "(top level): duplicate key \"capacity\"",
    );
    assert_bad(
        &run_with(
            &["hdrf", "-"],
            Some(r#"{"capacity": [1], "tree": {"children": [], "children": []}}"#),
        ),
        "tree: duplicate key \"children\"",
    );
}

/// A chain tree `n{depth} -> ... -> n0`, the leaf demanding <1>.
fn chain(depth: usize) -> String {
    let mut node = json!({"name": "n0", "demand": [1]});
    for d in 1..=depth {
        node = json!({"name": format!("n{d}"), "children": [node]});
    }
    json!({"capacity": [1], "tree": node}).to_string()
}

#[test]
fn too_deep_input_gets_our_error_naming_the_depth() {
    // 70 tree levels nest about 140 deep in JSON: read, then refused by the tree's limit.
    let err = bad_input(&run_with(&["hdrf", "-"], Some(&chain(70))));
    assert!(
        err.ends_with(": the tree is deeper than 64 levels\n"),
        "{err}"
    );
    // 200 levels nest about 400 deep: refused by the reader's limit, with the position.
    let err = bad_input(&run_with(&["hdrf", "-"], Some(&chain(200))));
    assert!(
        err.starts_with("error: standard input: unreadable JSON at line 1, column ")
            && err.ends_with(": arrays and objects nested deeper than 256 levels\n"),
        "{err}"
    );
    // A tree of 60 levels is fine.
    let ok = run_with(&["hdrf", "-"], Some(&chain(60)));
    assert_eq!(ok.status.code(), Some(0), "{ok:?}");
}

#[test]
fn verify_writes_its_summary_to_out() {
    let dir = Scratch::new("verify-out");
    let path = dir.0.join("summary.json");
    let path = path.to_str().expect("UTF-8 temp path");
    let args = ["verify", "--property", "ef", "--instances", "10"];
    let direct = run(&args);
    let mut with_out = args.to_vec();
    with_out.extend(["--out", path]);
    let out = run(&with_out);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    // The same summary as on standard output; DRF is envy-free (the DRF paper; docs/theory.md §3).
    let written = std::fs::read(path).expect("the summary file");
    assert_eq!(written, direct.stdout);
    let v: Value = serde_json::from_slice(&written).expect("JSON");
    assert_eq!(v["violations"], 0);
}
