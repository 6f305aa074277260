//! End-to-end tests of `leontief solve`: the binary is run as a child process.
//!
//! Every bad input must exit with code 2, print exactly one `error: ...` line on standard
//! error and nothing at all on standard output (no partial answer). Good inputs are checked
//! against the sources' numbers (the DRF paper's running example and Table 1, the lecture's
//! four-operation example), not merely for running.

use crate::common;

use common::exact::*;
use common::run_with;
use serde_json::json;

#[test]
fn solve_paper_example_from_file_or_stdin() {
    let dir = Scratch::new("paper");
    let path = dir.write("paper.json", PAPER);
    // (arguments, standard input): the same instance, read from a file or from `-`.
    for (args, stdin) in [
        (["solve", path.as_str()], None),
        (["solve", "-"], Some(PAPER)),
    ] {
        let answer = ok_json(&run_with(&args, stdin));
        assert_paper_answer(&answer, "drf");
    }
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
