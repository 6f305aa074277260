//! End-to-end tests of bad input: invalid instances (each fault named by its field path),
//! inline-flag errors, usage errors and help. Every bad input exits with code 2, prints
//! exactly one `error: ...` line on standard error and nothing on standard output.

mod common;

use common::exact::*;
use common::run_with;
use serde_json::{json, Value};

#[test]
fn wrong_vector_lengths() {
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1, 0]}])),
        "users[1].demand: expected 2 entries, one per resource, found 3",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1]}])),
        "users[0].demand: expected 2 entries, one per resource, found 1",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "weights": [1, 2, 3]}])),
        "users[0].weights: expected 2 entries, one per resource, found 3",
    );
    assert_bad_value(
        json!({"resources": ["cpu"], "capacity": [9, 18], "users": [{"demand": [1, 4]}]}),
        "resources: expected 2 names, one per capacity entry, found 1",
    );
    assert_bad_value(
        json!({"resources": ["cpu", "mem"], "capacity": [9, 18, 3], "users": [{"demand": [1, 4, 1]}]}),
        "resources: expected 3 names, one per capacity entry, found 2",
    );
}

#[test]
fn bad_capacities() {
    assert_bad_value(
        json!({"capacity": [9, -1], "users": [{"demand": [1, 4]}]}),
        "capacity[1]: must be positive, found -1",
    );
    assert_bad_value(
        json!({"capacity": [9, 0], "users": [{"demand": [1, 4]}]}),
        "capacity[1]: must be positive, found 0",
    );
    assert_bad_value(
        json!({"capacity": ["-1/2", 1], "users": [{"demand": [1, 4]}]}),
        "capacity[0]: must be positive, found -1/2",
    );
    assert_bad_value(
        json!({"capacity": [], "users": [{"demand": []}]}),
        "capacity: expected at least one resource, found none",
    );
    assert_bad_value(
        json!({"capacity": 9, "users": [{"demand": [1]}]}),
        "capacity: expected a list of numbers, found a number",
    );
}

#[test]
fn bad_demands() {
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [0, 0]}])),
        "users[0].demand: all entries are zero; a user must demand some resource",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, -1]}])),
        "users[0].demand[1]: must not be negative, found -1",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": ["-3/2", 1]}])),
        "users[1].demand[0]: must not be negative, found -3/2",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": {"cpu": 1}}])),
        "users[0].demand: expected a list of numbers, found an object",
    );
}

#[test]
fn non_positive_weights() {
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "weight": 0}])),
        "users[0].weight: must be positive, found 0",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "weight": -2}])),
        "users[0].weight: must be positive, found -2",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "weight": "-1/3"}])),
        "users[0].weight: must be positive, found -1/3",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "weights": [1, 0]}])),
        "users[0].weights[1]: must be positive, found 0",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "weights": [-1, 2]}])),
        "users[0].weights[0]: must be positive, found -1",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "weight": 1, "weights": [1, 1]}])),
        "users[0].weights: give either a scalar weight or per-resource weights, not both",
    );
}

#[test]
fn non_positive_task_caps() {
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "tasks": 0}])),
        "users[0].tasks: must be positive, found 0",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "tasks": -3}])),
        "users[0].tasks: must be positive, found -3",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "tasks": [1]}])),
        "users[0].tasks: expected a number, found a list",
    );
}

#[test]
fn malformed_numbers() {
    let malformed = |text: &str| {
        format!(
            "users[0].demand[1]: malformed number {text:?}: expected an integer, a decimal such \
             as 2.5 or 1e-4, or a fraction such as 7/3"
        )
    };
    for text in ["abc", "1.2.3", "1/2/3", "0x10", "1e", "--1"] {
        assert_bad_value(
            with_users(json!([{"name": "A", "demand": [1, text]}])),
            &malformed(text),
        );
    }
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, ""]}])),
        "users[0].demand[1]: empty number",
    );
    for (value, kind) in [
        (json!(true), "a boolean"),
        (Value::Null, "null"),
        (json!([4]), "a list"),
        (json!({"n": 4}), "an object"),
    ] {
        assert_bad_value(
            with_users(json!([{"name": "A", "demand": [1, value]}])),
            &format!("users[0].demand[1]: expected a number, found {kind}"),
        );
    }
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "weight": true}])),
        "users[0].weight: expected a number, found a boolean",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4], "weight": null}])),
        "users[0].weight: expected a number, found null",
    );
    assert_bad_value(
        json!({"capacity": [9, null], "users": [{"demand": [1, 4]}]}),
        "capacity[1]: expected a number, found null",
    );
    // A JSON number too large to expand exactly is refused, not computed on.
    assert_bad_instance(
        r#"{"capacity": [1e99999999, 18], "users": [{"demand": [1, 4]}]}"#,
        &[],
        "capacity[0]: exponent out of range in \"1e+99999999\" (at most 4096 in magnitude)",
    );
}

#[test]
fn division_by_zero() {
    assert_bad_value(
        json!({"capacity": [9, "7/0"], "users": [{"demand": [1, 4]}]}),
        "capacity[1]: division by zero in \"7/0\"",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": ["1/0", 4]}])),
        "users[0].demand[0]: division by zero in \"1/0\"",
    );
}

#[test]
fn duplicate_and_bad_names() {
    assert_bad_value(
        with_users(json!([{"name": "A", "demand": [1, 4]}, {"name": "A", "demand": [3, 1]}])),
        "users[1].name: duplicate user name \"A\"",
    );
    assert_bad_value(
        json!({"resources": ["cpu", "cpu"], "capacity": [9, 18], "users": [{"demand": [1, 4]}]}),
        "resources[1]: duplicate resource name \"cpu\"",
    );
    assert_bad_value(
        json!({"resources": ["cpu", ""], "capacity": [9, 18], "users": [{"demand": [1, 4]}]}),
        "resources[1]: empty name",
    );
    assert_bad_value(
        json!({"resources": ["cpu", 2], "capacity": [9, 18], "users": [{"demand": [1, 4]}]}),
        "resources[1]: expected a string, found a number",
    );
    assert_bad_value(
        with_users(json!([{"name": "", "demand": [1, 4]}])),
        "users[0].name: empty name",
    );
    assert_bad_value(
        with_users(json!([{"name": true, "demand": [1, 4]}])),
        "users[0].name: expected a string, found a boolean",
    );
    // A user without a name is u<index+1>; naming another user so is a duplicate.
    assert_bad_value(
        with_users(json!([{"demand": [1, 4]}, {"name": "u1", "demand": [3, 1]}])),
        "users[1].name: duplicate user name \"u1\"",
    );
}

#[test]
fn missing_and_unknown_fields() {
    assert_bad_value(
        json!({"capacity": [9, 18], "users": []}),
        "users: expected at least one user, found none",
    );
    assert_bad_value(json!({"users": [{"demand": [1, 4]}]}), "capacity: missing");
    assert_bad_value(json!({"capacity": [9, 18]}), "users: missing");
    assert_bad_value(
        with_users(json!([{"name": "A"}])),
        "users[0].demand: missing",
    );
    assert_bad_value(
        with_users(json!([{"name": "A", "demands": [1, 4]}])),
        "users[0].demands: unknown field (expected name, demand, weight, weights, tasks)",
    );
    assert_bad_value(
        json!({"capacity": [9, 18], "demands": [], "users": [{"demand": [1, 4]}]}),
        "demands: unknown field (expected resources, capacity, users (and the free-text about, note))",
    );
    assert_bad_value(
        json!({"capacity": [9, 18], "users": {"A": {"demand": [1, 4]}}}),
        "users: expected a list, found an object",
    );
    assert_bad_value(
        json!({"capacity": [9, 18], "users": [5]}),
        "users[0]: expected an object, found a number",
    );
    assert_bad_value(
        json!([1, 2]),
        "(top level): expected an object, found a list",
    );
}

#[test]
fn unreadable_json() {
    for text in [
        // Truncated.
        "{\"capacity\": [9, 18], \"users\": [{\"name\": \"A\", \"demand\": [1, 4]}",
        "{\"capacity\": [9, 18],\n",
        // Not JSON at all.
        "hello world",
        "capacity = [9, 18]\n",
        // Empty.
        "",
        // Trailing garbage.
        "{\"capacity\": [9], \"users\": [{\"demand\": [1]}]} x",
    ] {
        let dir = Scratch::new("json");
        let path = dir.write("broken.json", text);
        for out in [
            run(&["solve", &path]),
            run_with(&["solve", "-"], Some(text)),
        ] {
            let err = bad_input(&out);
            assert!(
                err.starts_with("error: unreadable JSON at line "),
                "for {text:?}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "one line: {err}");
            // The position is given once, not repeated by the JSON reader's own text.
            assert_eq!(err.matches("line").count(), 1, "position repeated: {err}");
        }
    }
    assert_bad_instance(
        "{\"capacity\": [9, 18], \"users\": [{\"name\": \"A\", \"demand\": [1, 4]}",
        &[],
        "unreadable JSON at line 1, column 63: EOF while parsing a list",
    );
    assert_bad_instance(
        "hello",
        &[],
        "unreadable JSON at line 1, column 1: expected value",
    );
}

#[test]
fn missing_file_and_directory() {
    let dir = Scratch::new("missing");
    let path = dir.0.join("no-such-instance.json");
    let path = path.to_str().expect("UTF-8 temp path");
    let err = bad_input(&run(&["solve", path]));
    assert!(
        err.starts_with(&format!("error: {path}: ")),
        "names the path: {err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // A directory is not an instance file either.
    let dirname = dir.0.to_str().expect("UTF-8 temp path");
    let err = bad_input(&run(&["solve", dirname]));
    assert!(err.starts_with(&format!("error: {dirname}: ")), "{err}");
}

#[test]
fn errors_name_the_first_fault_and_flags_are_checked_first() {
    // Flags that do not fit are reported before the file is even read.
    let dir = Scratch::new("order");
    let missing = dir.0.join("absent.json");
    let missing = missing.to_str().expect("UTF-8 temp path");
    assert_bad(
        &run(&["solve", missing, "--misfit", "skip"]),
        "--misfit, --machines and --tie-break apply to --mechanism discrete-drf only",
    );
    // A valid file with an invalid mechanism flag still produces no output.
    let path = dir.write("paper.json", PAPER);
    assert_bad(
        &run(&[
            "solve",
            &path,
            "--mechanism",
            "discrete-drf",
            "--machines",
            "0",
        ]),
        "--machines: expected at least one machine, found 0",
    );
}

#[test]
fn inline_user_syntax_errors() {
    let with = |users: &[&'static str]| {
        let mut args = vec!["solve", "--capacity", "9,18"];
        for u in users {
            args.push("--user");
            args.push(u);
        }
        run(&args)
    };
    assert_bad(
        &with(&["A"]),
        "--user[0]: expected NAME=d1,d2,..[:weight=W][:tasks=T], found \"A\"",
    );
    assert_bad(
        &with(&["A=1,4", "B"]),
        "--user[1]: expected NAME=d1,d2,..[:weight=W][:tasks=T], found \"B\"",
    );
    assert_bad(
        &with(&["A=1,x"]),
        "--user[0].demand[1]: malformed number \"x\": expected an integer, a decimal such as \
         2.5 or 1e-4, or a fraction such as 7/3",
    );
    assert_bad(
        &with(&["A=1,4:color=red"]),
        "--user[0]: unknown option \"color=red\" (expected weight=W or tasks=T)",
    );
    assert_bad(
        &with(&["A=1,4:weight"]),
        "--user[0]: unknown option \"weight\" (expected weight=W or tasks=T)",
    );
    assert_bad(
        &with(&["A=1,4:weight=abc"]),
        "--user[0].weight: malformed number \"abc\": expected an integer, a decimal such as \
         2.5 or 1e-4, or a fraction such as 7/3",
    );
    assert_bad(
        &with(&["A=7/0,1"]),
        "--user[0].demand[0]: division by zero in \"7/0\"",
    );
    assert_bad(&with(&["A="]), "--user[0].demand[0]: empty number");
}

#[test]
fn inline_validation_errors_name_the_flags() {
    let solve = |args: &[&str]| {
        let mut all = vec!["solve"];
        all.extend_from_slice(args);
        run(&all)
    };
    assert_bad(
        &solve(&["--capacity", "9,18", "--user", "A=1,4,0"]),
        "--user[0].demand: expected 2 entries, one per resource, found 3",
    );
    assert_bad(
        &solve(&["--capacity", "9,0", "--user", "A=1,4"]),
        "--capacity[1]: must be positive, found 0",
    );
    assert_bad(
        &solve(&["--capacity", "9,-18", "--user", "A=1,4"]),
        "--capacity[1]: must be positive, found -18",
    );
    assert_bad(
        &solve(&["--capacity", "", "--user", "A=1"]),
        "--capacity[0]: empty number",
    );
    assert_bad(
        &solve(&["--capacity", "9,18", "--user", "A=0,0"]),
        "--user[0].demand: all entries are zero; a user must demand some resource",
    );
    assert_bad(
        &solve(&["--capacity", "9,18", "--user", "A=1,-1"]),
        "--user[0].demand[1]: must not be negative, found -1",
    );
    assert_bad(
        &solve(&["--capacity", "9,18", "--user", "A=1,4:weight=0"]),
        "--user[0].weight: must be positive, found 0",
    );
    assert_bad(
        &solve(&["--capacity", "9,18", "--user", "A=1,4:weight=-1"]),
        "--user[0].weight: must be positive, found -1",
    );
    assert_bad(
        &solve(&["--capacity", "9,18", "--user", "A=1,4:tasks=0"]),
        "--user[0].tasks: must be positive, found 0",
    );
    assert_bad(
        &solve(&["--capacity", "9,18", "--user", "A=1,4", "--user", "A=3,1"]),
        "--user[1].name: duplicate user name \"A\"",
    );
    assert_bad(
        &solve(&["--capacity", "9,18", "--user", "=1,4"]),
        "--user[0].name: empty name",
    );
    assert_bad(
        &solve(&[
            "--capacity",
            "9,18",
            "--user",
            "A=1,4",
            "--resources",
            "cpu",
        ]),
        "--resources: expected 2 names, one per capacity entry, found 1",
    );
    assert_bad(
        &solve(&[
            "--capacity",
            "9,18",
            "--user",
            "A=1,4",
            "--resources",
            "cpu,cpu",
        ]),
        "--resources[1]: duplicate resource name \"cpu\"",
    );
    assert_bad(
        &solve(&["--capacity", "9,18"]),
        "--user: expected at least one user, found none",
    );
}

#[test]
fn inline_flag_combinations() {
    assert_bad(
        &run(&["solve", "--user", "A=1,4"]),
        "--user needs --capacity",
    );
    assert_bad(
        &run(&["solve"]),
        "no instance: give a FILE (or - for standard input), or --capacity and --user",
    );
    let dir = Scratch::new("both");
    let path = dir.write("paper.json", PAPER);
    let both = "give either an instance FILE or inline --capacity/--user flags, not both";
    assert_bad(&run(&["solve", &path, "--capacity", "9,18"]), both);
    assert_bad(&run(&["solve", &path, "--user", "A=1,4"]), both);
    assert_bad(&run(&["solve", &path, "--resources", "cpu,mem"]), both);
    assert_bad(
        &run_with(&["solve", "-", "--capacity", "9,18"], Some(PAPER)),
        both,
    );
}

#[test]
fn discrete_only_flags_need_discrete_drf() {
    let message = "--misfit, --machines and --tie-break apply to --mechanism discrete-drf only";
    for extra in [
        &["--mechanism", "drf", "--misfit", "skip"][..],
        &["--misfit", "stop"][..],
        &["--machines", "2"][..],
        &["--mechanism", "drf-common-level", "--tie-break", "reverse"][..],
    ] {
        assert_bad(&run(&solve_flags(extra)), message);
    }
    // They are accepted with discrete-drf.
    let answer = ok_json(&run(&solve_flags(&[
        "--mechanism",
        "discrete-drf",
        "--misfit",
        "skip",
        "--machines",
        "2",
    ])));
    assert_eq!(answer["misfit"], json!("skip"));
    assert_eq!(answer["machines"], json!(2));
}

#[test]
fn zero_machines_is_an_error_naming_machines() {
    let out = run(&solve_flags(&[
        "--mechanism",
        "discrete-drf",
        "--machines",
        "0",
    ]));
    assert_bad(&out, "--machines: expected at least one machine, found 0");
}

#[test]
fn clap_usage_errors_exit_2() {
    for (args, start) in [
        (
            &["--bogus"][..],
            "error: unexpected argument '--bogus' found",
        ),
        (
            &["solve", "--bogus"][..],
            "error: unexpected argument '--bogus' found",
        ),
        (
            &["solve", "--mechanism", "nope", "-"][..],
            "error: invalid value 'nope' for '--mechanism <MECHANISM>'",
        ),
        (
            &["solve", "--format", "xml", "-"][..],
            "error: invalid value 'xml' for '--format <FORMAT>'",
        ),
        (
            &["solve", "--machines", "two", "-"][..],
            "error: invalid value 'two' for '--machines <K>'",
        ),
        (
            &["frobnicate"][..],
            "error: unrecognized subcommand 'frobnicate'",
        ),
    ] {
        let err = bad_input(&run(args));
        assert!(err.starts_with(start), "{args:?}: {err}");
    }
    // No subcommand at all: clap prints the usage on stderr and exits 2.
    let err = bad_input(&run::<&str>(&[]));
    assert!(err.contains("Usage: leontief <COMMAND>"), "{err}");
}

#[test]
fn help_exits_0() {
    let text = ok(&run(&["--help"]));
    assert!(text.contains("Usage: leontief <COMMAND>"), "{text}");
    assert!(
        text.contains("solve") && text.contains("reproduce"),
        "{text}"
    );
    let text = ok(&run(&["solve", "--help"]));
    assert!(text.contains("Usage: leontief solve"), "{text}");
    for flag in [
        "--mechanism",
        "--capacity",
        "--user",
        "--misfit",
        "--machines",
        "--tie-break",
    ] {
        assert!(text.contains(flag), "solve --help lacks {flag}: {text}");
    }
    let text = ok(&run(&["reproduce", "--help"]));
    assert!(text.contains("Usage: leontief reproduce"), "{text}");
    assert!(text.contains("--list") && text.contains("--all"), "{text}");
    let text = ok(&run(&["help", "solve"]));
    assert!(text.contains("Usage: leontief solve"), "{text}");
    let text = ok(&run(&["--version"]));
    assert!(text.starts_with("leontief "), "{text}");
}
