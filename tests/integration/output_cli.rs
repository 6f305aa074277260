//! End-to-end tests of the output options: `--decimals N` (correctly rounded, ties to even),
//! `--summary`, `--format csv`, and their misuse. Every rounded value is derived by hand from
//! the exact answer in the comment beside it.

use crate::common;

use common::exact::*;
use serde_json::Value;

/// `solve` with inline flags and `extra`; the JSON answer.
fn solve(flags: &[&str], extra: &[&str]) -> Value {
    let mut args = vec!["solve"];
    args.extend_from_slice(flags);
    args.extend_from_slice(extra);
    ok_json(&run(&args))
}

/// A JSON value's text (a number literal as printed, a string with its quotes).
fn text(v: &Value) -> String {
    v.to_string()
}

#[test]
fn ties_round_to_even() {
    // Two users needing 8 units of one resource of capacity 2: DRF gives each dominant share
    // 1/2, so 8x/2 = 1/2 and x = 1/8 = 0.125 tasks; at 2 digits 0.125 is a tie between 0.12
    // and 0.13, and goes to the even 0.12. Each allocation is 8 · 1/8 = 1.
    let v = solve(
        &["--capacity", "2", "--user", "A=8", "--user", "B=8"],
        &["--decimals", "2"],
    );
    assert_eq!(text(&v["precision"]), r#"{"decimals":2}"#);
    assert_eq!(text(&v["users"][0]["tasks"]), "0.12");
    assert_eq!(text(&v["users"][0]["allocation"][0]), "1");
    assert_eq!(text(&v["users"][0]["dominant_share"]), "0.5");
    // Capacity 3, one user needing 8: x = 3/8 = 0.375, a tie between 0.37 and 0.38: 0.38.
    let v = solve(&["--capacity", "3", "--user", "A=8"], &["--decimals", "2"]);
    assert_eq!(text(&v["users"][0]["tasks"]), "0.38");
}

#[test]
fn carries_add_a_digit_and_small_values_stay_plain() {
    // One user needing 1 unit of capacity 999.9995: x = 999.9995 (seven significant digits).
    let flags = ["--capacity", "999.9995", "--user", "A=1"];
    let v = solve(&flags, &["--decimals", "7"]);
    assert_eq!(text(&v["users"][0]["tasks"]), "999.9995");
    // At 6 digits 999.999|5 is a tie; 999.999 ends in an odd digit, so up to 1000.00,
    // printed without trailing zeros: 1000.
    let v = solve(&flags, &["--decimals", "6"]);
    assert_eq!(text(&v["users"][0]["tasks"]), "1000");
    // Capacity 0.0000995: x = 9.95e-5. At 3 digits exact, printed plainly (exponent -5);
    // at 2 digits 9.9|5 is a tie, 9.9 is odd: up to 10e-5 = 0.0001.
    let flags = ["--capacity", "0.0000995", "--user", "A=1"];
    let v = solve(&flags, &["--decimals", "3"]);
    assert_eq!(text(&v["users"][0]["tasks"]), "0.0000995");
    let v = solve(&flags, &["--decimals", "2"]);
    assert_eq!(text(&v["users"][0]["tasks"]), "0.0001");
    // Capacity 1e-9: x = 1e-9 (exponent -9, below -6): scientific notation.
    let v = solve(
        &["--capacity", "1e-9", "--user", "A=1"],
        &["--decimals", "5"],
    );
    assert_eq!(text(&v["users"][0]["tasks"]), "1e-9");
}

#[test]
fn thirds_at_twelve_digits() {
    // Capacity 1, demand 3: x = 1/3 = 0.333333333333|33..; capacity 2: x = 2/3 =
    // 0.666666666666|66.. rounds up to ...667. The dominant share is 1 in both cases.
    let v = solve(&["--capacity", "1", "--user", "A=3"], &["--decimals", "12"]);
    assert_eq!(text(&v["users"][0]["tasks"]), "0.333333333333");
    assert_eq!(text(&v["users"][0]["dominant_share"]), "1");
    let v = solve(&["--capacity", "2", "--user", "A=3"], &["--decimals", "12"]);
    assert_eq!(text(&v["users"][0]["tasks"]), "0.666666666667");
}

#[test]
fn exact_strings_stay_the_default() {
    // The DRF paper's example: A 3 tasks, B 2, dominant shares 2/3 (§4.1 of the paper).
    let v = solve(PAPER_FLAGS, &[]);
    assert!(v.get("precision").is_none());
    assert_eq!(v["users"][0]["dominant_share"], "2/3");
    // At 4 digits 2/3 = 0.6666|66.. rounds up to 0.6667; consumption mem 3·4 + 2·1 = 14.
    let v = solve(PAPER_FLAGS, &["--decimals", "4"]);
    assert_eq!(text(&v["users"][0]["dominant_share"]), "0.6667");
    assert_eq!(text(&v["consumption"][1]), "14");
}

#[test]
fn csv_has_one_row_per_user() {
    // The paper's example: A gets 3 tasks = <3, 12>, B 2 tasks = <6, 2>, both at 2/3.
    let out = ok(&run(
        &[&["solve"], PAPER_FLAGS, &["--format", "csv"]].concat()
    ));
    assert_eq!(
        out,
        "user,tasks,cpu,mem,dominant_share,weighted_share\n\
         A,3,3,12,2/3,2/3\n\
         B,2,6,2,2/3,2/3\n"
    );
    // Rounded to 3 digits: 2/3 = 0.666|6.. → 0.667.
    let out = ok(&run(&[
        &["solve"],
        PAPER_FLAGS,
        &["--format", "csv", "--decimals", "3"],
    ]
    .concat()));
    assert_eq!(
        out,
        "user,tasks,cpu,mem,dominant_share,weighted_share\n\
         A,3,3,12,0.667,0.667\n\
         B,2,6,2,0.667,0.667\n"
    );
}

#[test]
fn summary_gives_aggregates() {
    // Paper example under DRF: consumption cpu 3·1 + 2·3 = 9 (saturated), mem 3·4 + 2·1 = 14
    // of 18 (utilization 7/9); 5 tasks in all, B the fewest (2), A the most (3); both
    // dominant shares 2/3, so the first user, A, is named for both extremes, and there is
    // one level.
    let v = solve(PAPER_FLAGS, &["--summary"]);
    assert_eq!(v["users"], 2);
    assert_eq!(v["consumption"], serde_json::json!(["9", "14"]));
    assert_eq!(v["utilization"], serde_json::json!(["1", "7/9"]));
    assert_eq!(v["saturated"], serde_json::json!(["cpu"]));
    assert_eq!(v["tasks"]["total"], "5");
    assert_eq!(
        v["tasks"]["min"],
        serde_json::json!({"user": "B", "value": "2"})
    );
    assert_eq!(
        v["tasks"]["max"],
        serde_json::json!({"user": "A", "value": "3"})
    );
    assert_eq!(v["dominant_share"]["max"]["user"], "A");
    assert_eq!(v["weighted_share"]["levels"], 1);
    assert!(v.get("users").is_some_and(Value::is_number));
    // 7/9 = 0.777|7.. at 3 digits: 0.778.
    let v = solve(PAPER_FLAGS, &["--summary", "--decimals", "3"]);
    assert_eq!(text(&v["utilization"][1]), "0.778");
}

#[test]
fn compare_and_hdrf_print_rounded_figures() {
    // compare: asset fairness on the paper's example gives A 63/25 = 2.52 tasks and dominant
    // share 63/25 · 4/18 = 14/25 = 0.56; DRF's 2/3 at 2 digits is 0.67.
    let out = ok(&run(&[
        &["compare"],
        PAPER_FLAGS,
        &["--format", "csv", "--decimals", "2"],
    ]
    .concat()));
    assert!(out.starts_with("mechanism,exact,user,tasks,dominant_share\ndrf,true,A,3,0.67\n"));
    assert!(out.contains("\nasset,true,A,2.5,0.56\n"), "{out}");
    // hdrf on the lecture's tree (root: A; B with B1, B2; A needs <1, 0>, B1 <1, 0>,
    // B2 <0, 1>, capacities 1): collapsed weighted DRF gives A and B1 2/3 and 1/3 of the CPU
    // (each leaf's weight g_leaf: A 1/2, B1 1/4): 2/3 at 3 digits is 0.667.
    let out = ok(&run(&[
        "hdrf",
        "examples/lecture-tree.json",
        "--policy",
        "collapsed",
        "--format",
        "csv",
        "--decimals",
        "3",
    ]));
    assert!(
        out.contains("\ncollapsed,root/A,leaf,1,0.5,0.667,0,0.667,1.33,0.667\n"),
        "{out}"
    );
}

#[test]
fn misuse_is_refused() {
    let solve_with = |extra: &[&str]| run(&[&["solve"], PAPER_FLAGS, extra].concat());
    assert_bad(
        &solve_with(&["--decimals", "0"]),
        "--decimals: expected at least 1 significant digit, found 0",
    );
    assert_bad(
        &solve_with(&["--decimals", "1001"]),
        "--decimals: expected at most 1000 significant digits, found 1001",
    );
    assert_bad(
        &solve_with(&["--summary", "--format", "csv"]),
        "--summary: the summary is printed in JSON; not with --format csv",
    );
    assert_bad(
        &solve_with(&["--trace", "--format", "csv"]),
        "--trace: the trace is printed in JSON; not with --format csv",
    );
    assert_bad(
        &solve_with(&["--trace", "--summary"]),
        "--trace: the summary prints aggregate figures only; not with --summary",
    );
    assert_bad(
        &run(&[
            "hdrf",
            "examples/lecture-tree.json",
            "--format",
            "tree",
            "--decimals",
            "3",
        ]),
        "--decimals: the tree is drawn with exact values; use --format json or csv",
    );
    assert_bad(
        &run(&[
            "hdrf",
            "examples/lecture-tree.json",
            "--format",
            "csv",
            "--summary",
        ]),
        "--summary: the summary is printed in JSON; not with --format csv",
    );
    // Commands that print no numbers have no --decimals, and check has no table.
    for args in [
        &["merge", "--decimals", "3", "x.jsonl"][..],
        &["reproduce", "--decimals", "3"][..],
    ] {
        let err = bad_input(&run(args));
        assert!(
            err.starts_with("error: unexpected argument '--decimals' found"),
            "{err}"
        );
    }
    let err = bad_input(&run(&[
        "check",
        "examples/drf-paper.json",
        "--property",
        "ef",
        "--format",
        "csv",
    ]));
    assert!(
        err.starts_with("error: unexpected argument '--format' found"),
        "{err}"
    );
}

#[test]
fn check_and_verify_state_their_precision() {
    // check ef on the paper's example: DRF's tasks 3 and 2 print as the numbers 3 and 2.
    let v = ok_json(&run(&[
        "check",
        "examples/drf-paper.json",
        "--property",
        "ef",
        "--decimals",
        "3",
    ]));
    assert_eq!(text(&v[0]["precision"]), r#"{"decimals":3}"#);
    assert_eq!(text(&v[0]["tasks"]["A"]), "3");
}

#[test]
fn explore_records_keep_their_instance_exact() {
    // Rounded records state their precision; the instance (the input that replays the
    // record) keeps its exact strings, and merge refuses the rounded value.
    let dir = Scratch::new("explore-decimals");
    let out = dir.0.join("ex.jsonl");
    let out = out.to_str().expect("UTF-8 path");
    let run_out = run(&[
        "explore",
        "--metric",
        "sp-gain",
        "--mechanism",
        "ceei",
        "--budget",
        "300",
        "--decimals",
        "4",
        "--out",
        out,
    ]);
    assert_eq!(run_out.status.code(), Some(0), "{}", stderr(&run_out));
    let records = std::fs::read_to_string(out).expect("records written");
    let first: Value = serde_json::from_str(records.lines().next().expect("a record")).unwrap();
    assert_eq!(text(&first["precision"]), r#"{"decimals":4}"#);
    assert!(first["value"].is_number());
    assert!(first["instance"]["capacity"][0].is_string());
    let err = bad_input(&run(&["merge", "--best", out]));
    assert!(
        err.ends_with(":1: value: expected an exact \"p/q\" or an algebraic number\n"),
        "{err}"
    );
}

#[test]
fn asset_answers_expanded_by_default_and_in_level_coefficient_form_on_request() {
    // The DRF paper's example (9 CPUs, 18 GB; A ⟨1, 4⟩, B ⟨3, 1⟩). Asset fairness equalizes
    // aggregate shares s: a task of A takes 1/9 + 4/18 = 1/3 of the aggregate, one of B
    // 3/9 + 1/18 = 7/18, so A runs 3s and B 18s/7 tasks; the CPU saturates first,
    // 3s + 3 · 18s/7 = 9, at s = 21/25: A 63/25 = 2.52, B 54/25 = 2.16 (the paper's §2).
    let expanded = solve(&["--mechanism", "asset"], PAPER_FLAGS);
    assert!(expanded.get("form").is_none());
    assert_eq!(expanded["users"][0]["tasks"], "63/25");
    assert_eq!(expanded["users"][1]["tasks"], "54/25");
    let compact = solve(
        &["--mechanism", "asset", "--form", "level-coefficient"],
        PAPER_FLAGS,
    );
    assert_eq!(compact["form"], "level-coefficient");
    assert_eq!(compact["levels"][0], "21/25");
    // tasks = level × coefficient: 3 · 21/25 = 63/25 and 18/7 · 21/25 = 54/25.
    assert_eq!(
        (
            &compact["users"][0]["coefficient"],
            &compact["users"][1]["coefficient"]
        ),
        (&Value::from("3"), &Value::from("18/7"))
    );
    // --decimals rounds each user's tasks from the compact form: 2.52 and 2.16 exactly.
    let rounded = solve(&["--mechanism", "asset", "--decimals", "3"], PAPER_FLAGS);
    assert_eq!(text(&rounded["users"][0]["tasks"]), "2.52");
    assert_eq!(text(&rounded["users"][1]["tasks"]), "2.16");
    let solve_with = |extra: &[&str]| run(&[&["solve"], PAPER_FLAGS, extra].concat());
    assert_bad(
        &solve_with(&["--form", "level-coefficient"]),
        "--form: the level-coefficient form is asset's; not with --mechanism drf",
    );
    assert_bad(
        &solve_with(&[
            "--mechanism",
            "asset",
            "--form",
            "level-coefficient",
            "--decimals",
            "3",
        ]),
        "--form level-coefficient: the exact compact form is JSON only, without --summary, --trace or --decimals",
    );
}

#[test]
fn summary_of_weights_caps_and_zero_demands() {
    // Capacities cpu 12, mem 12; A needs <1, 0> with weight 2, B <0, 1> capped at 3 tasks,
    // C <1, 1>. Weighted shares per task: A 1/12 / 2 = 1/24, B 1/12, C 1/12, so at level L
    // A runs 24L tasks, B min(12L, 3), C 12L. B reaches its cap at L = 1/4; the cpu
    // (24L + 12L = 12) saturates at L = 1/3, freezing A at 8 and C at 4 (mem 3 + 4 = 7 of
    // 12, utilization 7/12). Tasks: 15 in all, B the fewest (3), A the most (8). Dominant
    // shares A 8/12 = 2/3, B 3/12 = 1/4, C 4/12 = 1/3; weighted shares A 2/3 / 2 = 1/3,
    // B 1/4, C 1/3: two levels, and the largest is tied between A and C, so the first, A,
    // is named.
    let dir = Scratch::new("summary");
    let path = dir.write(
        "weighted.json",
        r#"{"resources": ["cpu", "mem"], "capacity": [12, 12], "users": [
            {"name": "A", "demand": [1, 0], "weight": 2},
            {"name": "B", "demand": [0, 1], "tasks": 3},
            {"name": "C", "demand": [1, 1]}]}"#,
    );
    let v = ok_json(&run(&["solve", &path, "--summary"]));
    let at = |user: &str, value: &str| serde_json::json!({"user": user, "value": value});
    assert_eq!(v["consumption"], serde_json::json!(["12", "7"]));
    assert_eq!(v["utilization"], serde_json::json!(["1", "7/12"]));
    assert_eq!(v["tasks"]["total"], "15");
    assert_eq!(v["tasks"]["min"], at("B", "3"));
    assert_eq!(v["tasks"]["max"], at("A", "8"));
    assert_eq!(v["dominant_share"]["min"], at("B", "1/4"));
    assert_eq!(v["dominant_share"]["max"], at("A", "2/3"));
    assert_eq!(v["weighted_share"]["min"], at("B", "1/4"));
    assert_eq!(v["weighted_share"]["max"], at("A", "1/3"));
    assert_eq!(v["weighted_share"]["levels"], 2);
}

/// A deterministic instance of `n` users over 4 resources: demands 0..=9 (zeros common, at
/// least one positive entry), and every fifth user with a weight 1..=4 and a cap 1..=6.
fn weighted_capped_instance(n: usize) -> String {
    let mut state: u64 = 7;
    let mut next = |k: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % k
    };
    let users: Vec<Value> = (0..n)
        .map(|i| {
            let mut demand: Vec<u64> = (0..4).map(|_| next(10)).collect();
            if demand.iter().all(|&d| d == 0) {
                demand[i % 4] = 1 + next(9);
            }
            let mut user = serde_json::json!({"name": format!("u{i}"), "demand": demand});
            if i % 5 == 0 {
                user["weight"] = (1 + next(4)).into();
                user["tasks"] = (1 + next(6)).into();
            }
            user
        })
        .collect();
    serde_json::json!({"resources": ["a", "b", "c", "d"], "capacity": [400, 400, 400, 400],
        "users": users})
    .to_string()
}

#[test]
fn summary_agrees_with_the_full_answer() {
    // The summary's figures recomputed from the full answer's rows: the total of the tasks,
    // the first user with the least and with the greatest of each figure, and the number of
    // distinct weighted shares.
    use leontief_solver::Rational;
    let dir = Scratch::new("summary");
    for (n, mechanism) in [(150, "drf"), (150, "asset"), (7, "drf")] {
        let path = dir.write("instance.json", &weighted_capped_instance(n));
        let full = ok_json(&run(&["solve", &path, "--mechanism", mechanism]));
        let summary = ok_json(&run(&[
            "solve",
            &path,
            "--mechanism",
            mechanism,
            "--summary",
        ]));
        let rows = users_of(&full);
        let column = |key: &str| -> Vec<Rational> {
            rows.iter()
                .map(|u| {
                    u[key]
                        .as_str()
                        .expect("exact number")
                        .parse()
                        .expect("a fraction")
                })
                .collect()
        };
        let extremes = |values: &[Rational]| {
            let (mut lo, mut hi) = (0, 0);
            for (i, v) in values.iter().enumerate() {
                if *v < values[lo] {
                    lo = i;
                }
                if *v > values[hi] {
                    hi = i;
                }
            }
            let at = |i: usize| serde_json::json!({"user": rows[i]["name"], "value": values[i].to_string()});
            (at(lo), at(hi))
        };
        let tasks = column("tasks");
        let total = tasks.iter().fold(Rational::ZERO, |s, t| &s + t);
        assert_eq!(summary["tasks"]["total"], total.to_string());
        for (figure, values) in [
            ("tasks", tasks),
            ("dominant_share", column("dominant_share")),
            ("weighted_share", column("weighted_share")),
        ] {
            let (lo, hi) = extremes(&values);
            assert_eq!(summary[figure]["min"], lo, "{mechanism} {n} {figure}");
            assert_eq!(summary[figure]["max"], hi, "{mechanism} {n} {figure}");
        }
        let weighted: std::collections::BTreeSet<Rational> =
            column("weighted_share").into_iter().collect();
        assert_eq!(summary["weighted_share"]["levels"], weighted.len());
        // The instance has what the summary must handle: caps, weights and zero demands, and
        // (for DRF on 150 users) more than one level.
        assert!(full.to_string().contains("\"0\""));
        if n == 150 && mechanism == "drf" {
            assert!(weighted.len() > 1, "{weighted:?}");
        }
    }
}
