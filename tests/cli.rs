//! End-to-end tests of the `leontief` command line: the binary is run as a child process.
//!
//! Every bad input must exit with code 2, print exactly one `error: ...` line on standard
//! error and nothing at all on standard output (no partial answer). Good inputs are checked
//! against the sources' numbers (the DRF paper's running example and Table 1, the lecture's
//! four-operation example), not merely for running.

mod common;

use std::ffi::OsStr;
use std::fs;
use std::path::PathBuf;
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};

use common::run_with;

// ---------------------------------------------------------------- harness

fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    run_with(args, None)
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// Exit code 0, nothing on stderr; returns stdout.
fn ok(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "expected success; stderr: {}",
        stderr(out)
    );
    assert!(out.stderr.is_empty(), "unexpected stderr: {}", stderr(out));
    stdout(out)
}

/// Exit code 0 and stdout parsed as JSON.
fn ok_json(out: &Output) -> Value {
    let text = ok(out);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {text}"))
}

/// Exit code 2, stdout empty; returns stderr.
fn bad_input(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(
        out.status.code(),
        Some(2),
        "expected exit code 2; stderr: {err}; stdout: {}",
        stdout(out)
    );
    assert!(
        out.stdout.is_empty(),
        "stdout must be empty on bad input, found: {}",
        stdout(out)
    );
    err
}

/// Exit code 2, stdout empty and stderr exactly `error: {message}\n`.
fn assert_bad(out: &Output, message: &str) {
    assert_eq!(bad_input(out), format!("error: {message}\n"));
}

/// A fresh directory under the system's temporary directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "leontief-cli-test-{}-{tag}-{n}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create scratch directory");
        Scratch(dir)
    }

    /// Writes `text` to `name` in the directory; returns the path as a string.
    fn write(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        fs::write(&path, text).expect("write instance file");
        path.to_str().expect("UTF-8 temp path").to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs `solve` on `instance` both from a file and from standard input, with `extra` flags,
/// and asserts the same bad-input message for both.
fn assert_bad_instance(instance: &str, extra: &[&str], message: &str) {
    let dir = Scratch::new("bad");
    let path = dir.write("instance.json", instance);
    let mut args = vec!["solve", path.as_str()];
    args.extend_from_slice(extra);
    assert_bad(&run(&args), message);
    let mut args = vec!["solve", "-"];
    args.extend_from_slice(extra);
    assert_bad(&run_with(&args, Some(instance)), message);
}

/// `assert_bad_instance` for an instance given as a JSON value.
fn assert_bad_value(instance: Value, message: &str) {
    assert_bad_instance(&instance.to_string(), &[], message);
}

/// An instance with capacity (9, 18) and the given users.
fn with_users(users: Value) -> Value {
    json!({"capacity": [9, 18], "users": users})
}

/// The DRF paper's running example (§4.1): 9 CPUs, 18 GB; A needs <1 CPU, 4 GB>, B <3, 1>.
const PAPER: &str = r#"{
  "resources": ["cpu", "mem"],
  "capacity": [9, 18],
  "users": [
    {"name": "A", "demand": [1, 4]},
    {"name": "B", "demand": [3, 1]}
  ]
}"#;

/// The same example as inline flags.
const PAPER_FLAGS: &[&str] = &[
    "--capacity",
    "9,18",
    "--user",
    "A=1,4",
    "--user",
    "B=3,1",
    "--resources",
    "cpu,mem",
];

/// `solve` on the paper example as inline flags, then `extra`.
fn solve_flags(extra: &[&str]) -> Vec<String> {
    ["solve"]
        .iter()
        .chain(PAPER_FLAGS)
        .chain(extra)
        .map(|s| s.to_string())
        .collect()
}

fn users_of(answer: &Value) -> &Vec<Value> {
    answer["users"].as_array().expect("users is a list")
}

fn tasks_of(answer: &Value) -> Vec<String> {
    users_of(answer)
        .iter()
        .map(|u| u["tasks"].as_str().expect("tasks is a string").to_string())
        .collect()
}

/// The facts of the DRF paper's §4.1 answer: A runs 3 tasks (<3 CPU, 12 GB>), B runs 2
/// (<6 CPU, 2 GB>), both at dominant share 2/3, and the CPU is saturated.
fn assert_paper_answer(answer: &Value, mechanism: &str) {
    assert_eq!(answer["mechanism"], json!(mechanism));
    assert_eq!(answer["exact"], json!(true));
    assert_eq!(answer["resources"], json!(["cpu", "mem"]));
    assert_eq!(answer["capacity"], json!(["9", "18"]));
    let users = users_of(answer);
    assert_eq!(users.len(), 2);
    assert_eq!(users[0]["name"], json!("A"));
    assert_eq!(users[0]["tasks"], json!("3"));
    assert_eq!(users[0]["allocation"], json!(["3", "12"]));
    assert_eq!(users[0]["dominant_share"], json!("2/3"));
    assert_eq!(users[0]["weighted_share"], json!("2/3"));
    assert_eq!(users[1]["name"], json!("B"));
    assert_eq!(users[1]["tasks"], json!("2"));
    assert_eq!(users[1]["allocation"], json!(["6", "2"]));
    assert_eq!(users[1]["dominant_share"], json!("2/3"));
    assert_eq!(answer["consumption"], json!(["9", "14"]));
    assert_eq!(answer["saturated"], json!(["cpu"]));
}

// ---------------------------------------------------------------- solve: correct answers

#[test]
fn solve_paper_example_from_file() {
    let dir = Scratch::new("paper");
    let path = dir.write("paper.json", PAPER);
    let answer = ok_json(&run(&["solve", &path]));
    assert_paper_answer(&answer, "drf");
}

#[test]
fn solve_paper_example_from_stdin() {
    let answer = ok_json(&run_with(&["solve", "-"], Some(PAPER)));
    assert_paper_answer(&answer, "drf");
}

#[test]
fn solve_paper_example_from_inline_flags() {
    let answer = ok_json(&run(&solve_flags(&[])));
    assert_paper_answer(&answer, "drf");
    // Without --resources the resources are called r1, r2.
    let answer = ok_json(&run(&[
        "solve",
        "--capacity",
        "9,18",
        "--user",
        "A=1,4",
        "--user",
        "B=3,1",
    ]));
    assert_eq!(answer["resources"], json!(["r1", "r2"]));
    assert_eq!(answer["saturated"], json!(["r1"]));
    assert_eq!(tasks_of(&answer), ["3", "2"]);
}

#[test]
fn solve_discrete_drf_on_paper_example_matches_progressive_filling() {
    // Algorithm 1 launches whole tasks; on this example it ends where DRF does (§4.1).
    let answer = ok_json(&run(&solve_flags(&["--mechanism", "discrete-drf"])));
    assert_paper_answer(&answer, "discrete-drf");
    assert_eq!(answer["misfit"], json!("stop"));
    assert_eq!(answer["tie_break"], json!("user-order"));
    assert_eq!(answer["machines"], json!("pooled"));
    assert_eq!(answer["machines_used"], json!(1));
    assert!(answer.get("trace").is_none(), "no trace unless asked");
}

#[test]
fn solve_reads_decimals_exactly() {
    // 0.1 is exactly 1/10: the same instance scaled by 1/10 has the same tasks.
    let decimal = json!({
        "resources": ["cpu", "mem"],
        "capacity": [0.9, 1.8],
        "users": [{"name": "A", "demand": [0.1, 0.4]}, {"name": "B", "demand": [0.3, 0.1]}]
    });
    let answer = ok_json(&run_with(&["solve", "-"], Some(&decimal.to_string())));
    assert_eq!(tasks_of(&answer), ["3", "2"]);
    assert_eq!(users_of(&answer)[0]["allocation"], json!(["3/10", "6/5"]));
    assert_eq!(users_of(&answer)[1]["allocation"], json!(["3/5", "1/5"]));
    assert_eq!(users_of(&answer)[0]["dominant_share"], json!("2/3"));
    assert_eq!(answer["capacity"], json!(["9/10", "9/5"]));
    assert_eq!(answer["saturated"], json!(["cpu"]));

    // The same through inline flags.
    let answer = ok_json(&run(&[
        "solve",
        "--capacity",
        "0.9,1.8",
        "--user",
        "A=0.1,0.4",
        "--user",
        "B=0.3,0.1",
    ]));
    assert_eq!(tasks_of(&answer), ["3", "2"]);
}

#[test]
fn solve_reads_exponents_and_fractions_exactly() {
    // Scaled by 1e-4: written as JSON numbers with exponents, as strings and as fractions.
    let text = r#"{"capacity": [9e-4, "1.8e-3"],
        "users": [{"name": "A", "demand": [1e-4, "4E-4"]},
                  {"name": "B", "demand": ["3/10000", "0.0001"], "tasks": "1e1"}]}"#;
    let answer = ok_json(&run_with(&["solve", "-"], Some(text)));
    assert_eq!(answer["capacity"], json!(["9/10000", "9/5000"]));
    assert_eq!(tasks_of(&answer), ["3", "2"]);
    assert_eq!(
        users_of(&answer)[0]["allocation"],
        json!(["3/10000", "3/2500"])
    );
    assert_eq!(
        users_of(&answer)[1]["allocation"],
        json!(["3/5000", "1/5000"])
    );

    // A cap written "1e-4" is the exact cap 1/10000.
    let capped = with_users(json!([{"name": "A", "demand": [1, 4], "tasks": "1e-4"}]));
    let answer = ok_json(&run_with(&["solve", "-"], Some(&capped.to_string())));
    assert_eq!(tasks_of(&answer), ["1/10000"]);
    assert_eq!(answer["saturated"], json!([]));
}

#[test]
fn solve_inline_weight_and_tasks_options() {
    // Weighted DRF, w_B = 2: A's share 2x/9 equals B's x/6 at t; CPU binds at t = 2/5.
    let answer = ok_json(&run(&[
        "solve",
        "--capacity",
        "9,18",
        "--user",
        "A=1,4",
        "--user",
        "B=3,1:weight=2",
    ]));
    assert_eq!(tasks_of(&answer), ["9/5", "12/5"]);
    assert_eq!(users_of(&answer)[1]["dominant_share"], json!("4/5"));
    assert_eq!(users_of(&answer)[1]["weighted_share"], json!("2/5"));
    // A capped at one task: B takes the remaining 8 CPUs, 8/3 tasks.
    let answer = ok_json(&run(&[
        "solve",
        "--capacity",
        "9,18",
        "--user",
        "A=1,4:tasks=1",
        "--user",
        "B=3,1",
    ]));
    assert_eq!(tasks_of(&answer), ["1", "8/3"]);
}

#[test]
fn solve_drf_trace_shows_the_saturation_event() {
    let answer = ok_json(&run(&solve_flags(&["--trace"])));
    assert_eq!(
        answer["trace"],
        json!([{"level": "2/3", "cause": {"saturated": "cpu"}, "frozen": ["A", "B"]}])
    );
}

#[test]
fn discrete_drf_trace_reproduces_table_1() {
    // The DRF paper's Table 1 picks B first on the 0/0 tie (reverse user order); rows:
    // B, A, A, B, A, with B at 1/3 after the first pick.
    let answer = ok_json(&run(&solve_flags(&[
        "--mechanism",
        "discrete-drf",
        "--trace",
        "--tie-break",
        "reverse",
    ])));
    assert_eq!(answer["tie_break"], json!("reverse-user-order"));
    let trace = answer["trace"].as_array().expect("trace is a list");
    let first = &trace[0];
    assert_eq!(first["step"], json!(1));
    assert_eq!(first["user"], json!("B"));
    assert_eq!(first["launched"], json!(true));
    assert_eq!(first["dominant_shares"], json!({"A": "0", "B": "1/3"}));
    assert_eq!(
        first["shares"],
        json!({"A": ["0", "0"], "B": ["1/3", "1/18"]})
    );
    assert_eq!(first["allocated"], json!(["1/3", "1/18"]));
    let launched: Vec<&str> = trace
        .iter()
        .filter(|s| s["launched"] == json!(true))
        .map(|s| s["user"].as_str().expect("user name"))
        .collect();
    assert_eq!(launched, ["B", "A", "A", "B", "A"]);
    let last = trace
        .iter()
        .rfind(|s| s["launched"] == json!(true))
        .expect("a launched step");
    assert_eq!(last["dominant_shares"], json!({"A": "2/3", "B": "2/3"}));
    assert_eq!(last["allocated"], json!(["1", "7/9"]));
    assert_eq!(tasks_of(&answer), ["3", "2"]);
}

#[test]
fn common_level_freezes_everyone_at_the_first_saturation() {
    // The lecture's four operations on (cpu, mem, net) = (1, 1, 1).
    let args = |mechanism: &'static str| {
        vec![
            "solve",
            "--capacity",
            "1,1,1",
            "--resources",
            "cpu,mem,net",
            "--user",
            "op1=1,0,0",
            "--user",
            "op2=1,0,0",
            "--user",
            "op3=0,1,0",
            "--user",
            "op4=0,1/2,1",
            "--mechanism",
            mechanism,
        ]
    };
    let common = ok_json(&run(&args("drf-common-level")));
    assert_eq!(common["mechanism"], json!("drf-common-level"));
    assert_eq!(tasks_of(&common), ["1/2", "1/2", "1/2", "1/2"]);
    assert_eq!(common["saturated"], json!(["cpu"]));
    let drf = ok_json(&run(&args("drf")));
    assert_eq!(drf["mechanism"], json!("drf"));
    assert_eq!(tasks_of(&drf), ["1/2", "1/2", "2/3", "2/3"]);
    assert_eq!(drf["saturated"], json!(["cpu", "mem"]));
}

#[test]
fn solve_table_format() {
    let text = ok(&run(&solve_flags(&["--format", "table"])));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "drf (exact)");
    let header: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(header, ["user", "tasks", "cpu", "mem", "dominant", "share"]);
    let row = |name: &str| -> Vec<String> {
        lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row for {name} in:\n{text}"))
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(row("A"), ["A", "3", "3", "12", "2/3"]);
    assert_eq!(row("B"), ["B", "2", "6", "2", "2/3"]);
    assert_eq!(row("used"), ["used", "9", "of", "9", "14", "of", "18"]);
    assert_eq!(lines.last(), Some(&"saturated: cpu"));
    assert!(text.ends_with('\n'));

    let discrete = ok(&run(&solve_flags(&[
        "--format",
        "table",
        "--mechanism",
        "discrete-drf",
    ])));
    assert!(discrete.starts_with("discrete-drf (exact)\n"), "{discrete}");
    assert!(discrete.ends_with("saturated: cpu\n"), "{discrete}");
}

#[test]
fn solve_is_deterministic() {
    for extra in [
        &["--trace"][..],
        &["--mechanism", "discrete-drf", "--trace"][..],
        &["--format", "table"][..],
    ] {
        let first = run(&solve_flags(extra));
        let second = run(&solve_flags(extra));
        ok(&first);
        assert_eq!(first.stdout, second.stdout, "flags {extra:?}");
        assert_eq!(first.status.code(), second.status.code());
    }
    let a = run_with(&["solve", "-"], Some(PAPER));
    let b = run_with(&["solve", "-"], Some(PAPER));
    ok(&a);
    assert_eq!(a.stdout, b.stdout);
}

// ---------------------------------------------------------------- solve: invalid instances

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

// ---------------------------------------------------------------- solve: inline flags

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

// ---------------------------------------------------------------- usage errors and help

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

// ---------------------------------------------------------------- reproduce

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
    let text = ok(&run(&["reproduce", "--all"]));
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
    assert_eq!(ok(&run(&["reproduce"])), text);
}

#[test]
fn reproduce_json() {
    let report = ok_json(&run(&["reproduce", "--format", "json"]));
    assert_eq!(report["failed"], json!(0));
    let passed = report["passed"].as_u64().expect("passed is a number");
    assert!(passed >= 29, "{passed}");
    let examples = report["examples"].as_array().expect("examples is a list");
    assert_eq!(examples.len(), example_names().len());
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
