//! End-to-end tests of bad input: invalid instances (each fault named by its field path),
//! inline-flag errors, usage errors and help. Every bad input exits with code 2, prints
//! exactly one `error: ...` line on standard error and nothing on standard output.

use crate::common;

use common::exact::*;
use common::run_with;
use serde_json::{json, Value};
use std::process::Output;

/// Asserts each instance of `cases` refused with its message (from a file and from standard
/// input).
fn assert_each_bad(cases: Vec<(Value, &str)>) {
    for (instance, message) in cases {
        assert_bad_value(instance, message);
    }
}

/// Each `(fields, message)`: A's further fields `fields` (JSON text) are refused with the
/// whole `message`.
fn assert_each_bad_for_a(cases: &[(&str, &str)]) {
    for &(fields, message) in cases {
        let fields: Value = serde_json::from_str(fields).expect("JSON test fields");
        assert_bad_value(user_a_with(fields), message);
    }
}

/// The one-user instance A ⟨1, 4⟩ on (9, 18) with A's further fields `extra`.
fn user_a_with(extra: Value) -> Value {
    let mut a = json!({"name": "A", "demand": [1, 4]});
    a.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    with_users(json!([a]))
}

#[test]
fn wrong_vector_lengths() {
    assert_each_bad(vec![
        (
            with_users(
                json!([{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1, 0]}]),
            ),
            "users[1].demand: expected 2 entries, one per resource, found 3",
        ),
        (
            with_users(json!([{"name": "A", "demand": [1]}])),
            "users[0].demand: expected 2 entries, one per resource, found 1",
        ),
        (
            user_a_with(json!({"weights": [1, 2, 3]})),
            "users[0].weights: expected 2 entries, one per resource, found 3",
        ),
        (
            json!({"resources": ["cpu"], "capacity": [9, 18], "users": [{"demand": [1, 4]}]}),
            "resources: expected 2 names, one per capacity entry, found 1",
        ),
        (
            json!({"resources": ["cpu", "mem"], "capacity": [9, 18, 3], "users": [{"demand": [1, 4, 1]}]}),
            "resources: expected 3 names, one per capacity entry, found 2",
        ),
    ]);
}

#[test]
fn bad_capacities() {
    assert_each_bad(vec![
        (
            json!({"capacity": [9, -1], "users": [{"demand": [1, 4]}]}),
            "capacity[1]: must be positive, found -1",
        ),
        (
            json!({"capacity": [9, 0], "users": [{"demand": [1, 4]}]}),
            "capacity[1]: must be positive, found 0",
        ),
        (
            json!({"capacity": ["-1/2", 1], "users": [{"demand": [1, 4]}]}),
            "capacity[0]: must be positive, found -1/2",
        ),
        (
            json!({"capacity": [], "users": [{"demand": []}]}),
            "capacity: expected at least one resource, found none",
        ),
        (
            json!({"capacity": 9, "users": [{"demand": [1]}]}),
            "capacity: expected a list of numbers, found a number",
        ),
    ]);
}

#[test]
fn bad_demands() {
    assert_each_bad(vec![
        (
            with_users(json!([{"name": "A", "demand": [0, 0]}])),
            "users[0].demand: all entries are zero; a user must demand some resource",
        ),
        (
            with_users(json!([{"name": "A", "demand": [1, -1]}])),
            "users[0].demand[1]: must not be negative, found -1",
        ),
        (
            with_users(
                json!([{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": ["-3/2", 1]}]),
            ),
            "users[1].demand[0]: must not be negative, found -3/2",
        ),
        (
            with_users(json!([{"name": "A", "demand": {"cpu": 1}}])),
            "users[0].demand: expected a list of numbers, found an object",
        ),
    ]);
}

#[test]
fn non_positive_weights() {
    assert_each_bad_for_a(&[
        (
            r#"{"weight": 0}"#,
            "users[0].weight: must be positive, found 0",
        ),
        (
            r#"{"weight": -2}"#,
            "users[0].weight: must be positive, found -2",
        ),
        (
            r#"{"weight": "-1/3"}"#,
            "users[0].weight: must be positive, found -1/3",
        ),
        (
            r#"{"weights": [1, 0]}"#,
            "users[0].weights[1]: must be positive, found 0",
        ),
        (
            r#"{"weights": [-1, 2]}"#,
            "users[0].weights[0]: must be positive, found -1",
        ),
        (
            r#"{"weight": 1, "weights": [1, 1]}"#,
            "users[0].weights: give either a scalar weight or per-resource weights, not both",
        ),
    ]);
}

#[test]
fn non_positive_task_caps() {
    assert_each_bad_for_a(&[
        (
            r#"{"tasks": 0}"#,
            "users[0].tasks: must be positive, found 0",
        ),
        (
            r#"{"tasks": -3}"#,
            "users[0].tasks: must be positive, found -3",
        ),
        (
            r#"{"tasks": [1]}"#,
            "users[0].tasks: expected a number, found a list",
        ),
    ]);
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
    assert_each_bad(vec![
        (
            json!({"capacity": [9, "7/0"], "users": [{"demand": [1, 4]}]}),
            "capacity[1]: division by zero in \"7/0\"",
        ),
        (
            with_users(json!([{"name": "A", "demand": ["1/0", 4]}])),
            "users[0].demand[0]: division by zero in \"1/0\"",
        ),
    ]);
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

/// `solve` on `text` twice, each with the name its errors give the input: from a file (its
/// path) and from standard input.
fn solve_from_file_and_stdin(text: &str) -> [(Output, String); 2] {
    let dir = Scratch::new("json");
    let path = dir.write("instance.json", text);
    [
        (run(&["solve", &path]), path),
        (
            run_with(&["solve", "-"], Some(text)),
            "standard input".to_string(),
        ),
    ]
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
        for (out, file) in solve_from_file_and_stdin(text) {
            let err = bad_input(&out);
            // An error about the whole text names the file.
            assert!(
                err.starts_with(&format!("error: {file}: unreadable JSON at line ")),
                "for {text:?}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "one line: {err}");
            // The position is given once, not repeated by the JSON reader's own text.
            assert_eq!(err.matches("line").count(), 1, "position repeated: {err}");
        }
    }
    for (text, message) in [
        (
            "{\"capacity\": [9, 18], \"users\": [{\"name\": \"A\", \"demand\": [1, 4]}",
            "unreadable JSON at line 1, column 63: EOF while parsing a list",
        ),
        (
            "hello",
            "unreadable JSON at line 1, column 1: expected value",
        ),
    ] {
        for (out, file) in solve_from_file_and_stdin(text) {
            assert_bad(&out, &format!("{file}: {message}"));
        }
    }
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
        &solve(&common::words(
            "--capacity 9,18 --user A=1,4 --resources cpu",
        )),
        "--resources: expected 2 names, one per capacity entry, found 1",
    );
    assert_bad(
        &solve(&common::words(
            "--capacity 9,18 --user A=1,4 --resources cpu,cpu",
        )),
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
    let answer = ok_json(&run(&solve_flags(&common::words(
        "--mechanism discrete-drf --misfit skip --machines 2",
    ))));
    assert_eq!(answer["misfit"], json!("skip"));
    assert_eq!(answer["machines"], json!(2));
}

#[test]
fn zero_machines_is_an_error_naming_machines() {
    let out = run(&solve_flags(&common::words(
        "--mechanism discrete-drf --machines 0",
    )));
    assert_bad(&out, "--machines: expected at least one machine, found 0");
}

#[test]
fn clap_usage_errors_exit_2() {
    for (args, start) in [
        ("--bogus", "error: unexpected argument '--bogus' found"),
        (
            "solve --bogus",
            "error: unexpected argument '--bogus' found",
        ),
        (
            "solve --mechanism nope -",
            "error: invalid value 'nope' for '--mechanism <MECHANISM>'",
        ),
        (
            "solve --format xml -",
            "error: invalid value 'xml' for '--format <FORMAT>'",
        ),
        (
            "solve --machines two -",
            "error: invalid value 'two' for '--machines <K>'",
        ),
        ("frobnicate", "error: unrecognized subcommand 'frobnicate'"),
    ] {
        let err = bad_input(&run(&common::words(args)));
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

/// Hostile inputs are refused with an error naming the file and the bound exceeded, with the
/// memory they take bounded: each run gets a 200 MB data limit, under which a reader that
/// expands or recurses without bound dies (exit 134) instead of answering exit 2.
mod hostile {
    use super::common::exact::{assert_bad, Scratch};
    use super::common::run_within_memory;

    const MEMORY: u64 = 200 << 20;

    /// The "billion laughs" shape in a ClusterQueue's labels (CVE-2019-11253 in Kubernetes):
    /// 12 levels of ten aliases each would expand to 10^12 strings from a 1 KB file.
    #[test]
    fn yaml_alias_bomb() {
        let mut yaml = String::from(
            "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: a\n  labels:\n    l0: &l0 \"lol\"\n",
        );
        for i in 1..=12 {
            let refs = vec![format!("*l{}", i - 1); 10].join(", ");
            yaml += &format!("    l{i}: &l{i} [{refs}]\n");
        }
        yaml += "spec:\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{name: f, resources: [{name: cpu, nominalQuota: 1}]}]\n";
        let dir = Scratch::new("hostile");
        let path = dir.write("bomb.yaml", &yaml);
        // By hand: l_i holds 1 + 10 * |l_(i-1)| nodes, so |l0..l5| = 1, 11, .., 111111, and
        // each anchored node counts twice (built, then kept for its aliases): about 250,000
        // nodes by the end of l5. On line 12 (l6) each alias copies l5's 111,111 nodes, so the
        // 7th alias passes 1,000,000; it starts at column 14 + 5 * 6 = 44.
        assert_bad(
            &run_within_memory(&["import", "kueue", &path], MEMORY),
            &format!("{path}: YAML aliases expand past 1000000 nodes, the most a stream may hold; refused (at line 12, column 44)"),
        );
    }

    /// A legitimate anchor, used a few times, still reads (one label set shared by two
    /// queues' metadata).
    #[test]
    fn yaml_small_anchor_still_works() {
        let cq = |name: &str, labels: &str| {
            format!("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: {name}\n  labels: {labels}\nspec:\n  cohortName: c\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{{name: f, resources: [{{name: cpu, nominalQuota: 2}}]}}]\n")
        };
        let yaml = format!(
            "{}---\n{}",
            cq("a", "&team {team: x, tier: gold}"),
            cq("b", "*team")
        );
        let dir = Scratch::new("hostile");
        let path = dir.write("anchor.yaml", &yaml);
        let out = run_within_memory(&["import", "kueue", &path], MEMORY);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Two queues of 2 CPUs each in one cohort: the capacity is their sum.
        let tree: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(tree["capacity"], serde_json::json!([4]));
    }

    /// 100 MB of one array nested 50 million deep: refused at depth 257, before any
    /// recursion over it.
    #[test]
    fn json_nested_100_mb() {
        let n = 50_000_000;
        let text = "[".repeat(n) + &"]".repeat(n);
        let dir = Scratch::new("hostile");
        let path = dir.write("nested.json", &text);
        drop(text);
        assert_bad(
            &run_within_memory(&["solve", &path], MEMORY),
            &format!("{path}: unreadable JSON at line 1, column 257: arrays and objects nested deeper than 256 levels"),
        );
    }

    /// A YARN allocation file of queues nested 10,000 deep: refused at the tree's depth
    /// bound (two elements per tree level, 64 levels). By hand: `<allocations>` and 128
    /// queues are open when the 129th `<queue name="q">` (16 bytes each) starts, at byte
    /// 13 + 128 * 16 = 2061.
    #[test]
    fn xml_nested_10000_deep() {
        let d = 10_000;
        let xml = format!(
            "<allocations>{}{}</allocations>",
            "<queue name=\"q\">".repeat(d),
            "</queue>".repeat(d)
        );
        let dir = Scratch::new("hostile");
        let path = dir.write("deep.xml", &xml);
        assert_bad(
            &run_within_memory(&["import", "yarn", &path, "--capacity", "1,1"], MEMORY),
            &format!("{path}: elements nest deeper than 128 levels near byte 2061"),
        );
    }

    /// A configuration larger than 64 MiB is refused before it is read.
    #[test]
    fn config_too_large() {
        let dir = Scratch::new("hostile");
        let path = dir.write("big.yaml", &"#".repeat((64 << 20) + 1));
        assert_bad(
            &run_within_memory(&["import", "kueue", &path], MEMORY),
            &format!("{path}: larger than 64 MiB, the most this command reads; refused"),
        );
    }
}
