//! End-to-end tests of `leontief solve`: the binary is run as a child process.
//!
//! Every bad input must exit with code 2, print exactly one `error: ...` line on standard
//! error and nothing at all on standard output (no partial answer). Good inputs are checked
//! against the sources' numbers (the DRF paper's running example and Table 1, the lecture's
//! four-operation example), not merely for running.

use crate::common;

use common::exact::*;
use common::{cli, run_with, words};
use leontief_solver::Rational;
use serde_json::json;
use serde_json::Value;

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
    let answer = ok_json(&run(&words(
        "solve --capacity 9,18 --user A=1,4 --user B=3,1",
    )));
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
    let answer = ok_json(&run(&words(
        "solve --capacity 0.9,1.8 --user A=0.1,0.4 --user B=0.3,0.1",
    )));
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
    let answer = ok_json(&run(&words(
        "solve --capacity 9,18 --user A=1,4 --user B=3,1:weight=2",
    )));
    assert_eq!(tasks_of(&answer), ["9/5", "12/5"]);
    assert_eq!(users_of(&answer)[1]["dominant_share"], json!("4/5"));
    assert_eq!(users_of(&answer)[1]["weighted_share"], json!("2/5"));
    // A capped at one task: B takes the remaining 8 CPUs, 8/3 tasks.
    let answer = ok_json(&run(&words(
        "solve --capacity 9,18 --user A=1,4:tasks=1 --user B=3,1",
    )));
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
    let answer = ok_json(&run(&solve_flags(&words(
        "--mechanism discrete-drf --trace --tie-break reverse",
    ))));
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

    let discrete = ok(&run(&solve_flags(&words(
        "--format table --mechanism discrete-drf",
    ))));
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

/// The DRF paper's Theorem 5 instance: capacity (100, 100), demands ⟨4, 1⟩, ⟨1, 16⟩,
/// ⟨16, 1⟩. Its CEEI is irrational, in Q(√373).
const THEOREM_5: &str =
    "solve --mechanism ceei --capacity 100,100 --user 1=4,1 --user 2=1,16 --user 3=16,1";

fn theorem_5(extra: &[&str]) -> std::process::Output {
    let mut args = words(THEOREM_5);
    args.extend_from_slice(extra);
    run(&args)
}

/// `⌊√(373 · 10^(2k))⌋`: `√373` lies in `[s/10^k, (s + 1)/10^k)` (s² ≤ 373·10^(2k) < (s+1)²,
/// both checked in integers).
fn sqrt_373_scaled(k: u32) -> i128 {
    let n = 373 * 10i128.pow(2 * k);
    let mut s = (n as f64).sqrt() as i128;
    while s * s > n {
        s -= 1;
    }
    while (s + 1) * (s + 1) <= n {
        s += 1;
    }
    s
}

/// `(a + b√373)/c` bracketed from √373's bracket at `10^-k` (`b` of either sign).
fn bracket(a: i128, b: i128, c: i128, k: u32) -> (Rational, Rational) {
    let s = sqrt_373_scaled(k);
    let scale = 10i128.pow(k);
    let at = |root: i128| Rational::new(a * scale + b * root, c * scale).unwrap();
    let (x, y) = (at(s), at(s + 1));
    if x <= y {
        (x, y)
    } else {
        (y, x)
    }
}

/// The tasks, by hand (Walras: p2 = (3 − 100 p1)/100 with budgets 1; clearing resource 1
/// gives a quadratic in p1 whose root in (0, 3/100) puts the tasks in Q(√373)):
/// u1 = (3125 − 125√373)/63, u2 = (3800 + 100√373)/1071, u3 = (25√373 − 325)/51, and
/// 4u1 + u2 + 16u3 = 100 = u1 + 16u2 + u3 (both resources used up). Minimal polynomials:
/// 63u − 3125 = −125√373 gives 3969u² − 393750u + 9765625 − 5828125 = 0, over 63:
/// 63u² − 6250u + 62500; 1071u − 3800 = 100√373 gives 1147041u² − 8139600u + 10710000 = 0,
/// over 1071: 1071u² − 7600u + 10000; 51u + 325 = 25√373 gives 2601u² + 33150u − 127500 = 0,
/// over 51: 51u² + 650u − 2500. Lowest degree first in the JSON.
#[test]
fn ceei_theorem_5_is_exact_in_q_sqrt_373() {
    let answer = ok_json(&theorem_5(&[]));
    assert_eq!(answer["exact"], true);
    assert_eq!(answer["certified"], true);
    assert!(answer.get("feasible_tasks").is_none());
    let expected = [
        ("(3125 - 125*sqrt(373))/63", ["62500", "-6250", "63"]),
        ("(3800 + 100*sqrt(373))/1071", ["10000", "-7600", "1071"]),
        ("(-325 + 25*sqrt(373))/51", ["-2500", "650", "51"]),
    ];
    for (user, (closed, poly)) in users_of(&answer).iter().zip(expected) {
        let tasks = &user["tasks"];
        assert_eq!(tasks["closed_form"], closed, "{user}");
        assert_eq!(tasks["algebraic"]["polynomial"], json!(poly), "{user}");
        // The interval isolates the root: the polynomial changes sign across it.
        let ends: Vec<Rational> = tasks["algebraic"]["interval"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap().parse().unwrap())
            .collect();
        let coeff: Vec<Rational> = poly.iter().map(|c| c.parse().unwrap()).collect();
        let at = |t: &Rational| &(&coeff[0] + &(&coeff[1] * t)) + &(&(&coeff[2] * t) * t);
        assert!(at(&ends[0]).signum() * at(&ends[1]).signum() < 0, "{user}");
    }
    // Both resources used up, exactly.
    assert_eq!(answer["consumption"], json!(["100", "100"]));
    assert_eq!(answer["saturated"], json!(["r1", "r2"]));
    // The 20-place decimal of u1 within √373's bracket at 10^-16 (width 125/63 · 10^-16),
    // widened by the rounding's half unit.
    let (lo, hi) = bracket(3125, -125, 63, 16);
    let half = Rational::new(1, 2 * 10i128.pow(20)).unwrap();
    let decimal: Rational = users_of(&answer)[0]["tasks"]["decimal"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(&lo - &half <= decimal && decimal <= &hi + &half);
}

/// `--decimals 6`: each task correctly rounded to 6 significant digits. √373 is bracketed
/// at 10^-12 in integers; both ends of each task's bracket round to the same 6 digits, which
/// must be the printed ones.
#[test]
fn ceei_theorem_5_rounds_from_the_exact_value() {
    let answer = ok_json(&theorem_5(&["--decimals", "6"]));
    assert_eq!(answer["exact"], true);
    assert_eq!(answer["precision"], json!({"decimals": 6}));
    let forms = [(3125, -125, 63), (3800, 100, 1071), (-325, 25, 51)];
    for (user, (a, b, c)) in users_of(&answer).iter().zip(forms) {
        let (lo, hi) = bracket(a, b, c, 12);
        let (lo, hi) = (lo.to_decimal(6), hi.to_decimal(6));
        assert_eq!(lo, hi, "the bracket is narrow enough to settle 6 digits");
        assert_eq!(user["tasks"].to_string(), lo, "{user}");
    }
}

/// Table and CSV show an irrational figure as its decimal; the summary's total is
/// u1 + u2 + u3 = (3125·17 − 2125√373 + 3800 + 100√373 − 325·21 + 525√373)/1071
/// = (50100 − 1500√373)/1071 = (16700 − 500√373)/357, the smallest tasks user 3's and the
/// largest user 1's (≈ 3.09 < 5.35 < 11.28).
#[test]
fn ceei_theorem_5_as_table_csv_and_summary() {
    let json = ok_json(&theorem_5(&[]));
    let u1 = json["users"][0]["tasks"]["decimal"].as_str().unwrap();
    let table = ok(&theorem_5(&["--format", "table"]));
    assert!(
        table.lines().any(|l| l.starts_with("1 ") && l.contains(u1)),
        "{table}"
    );
    assert!(table.contains("saturated: r1, r2"), "{table}");
    let csv = ok(&theorem_5(&["--format", "csv"]));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("user,tasks,r1,r2,dominant_share,weighted_share")
    );
    assert_eq!(lines.next().unwrap().split(',').nth(1), Some(u1));
    let summary = ok_json(&theorem_5(&["--summary"]));
    assert_eq!(summary["exact"], true);
    assert_eq!(
        summary["tasks"]["total"]["closed_form"],
        "(16700 - 500*sqrt(373))/357"
    );
    assert_eq!(summary["tasks"]["min"]["user"], "3");
    assert_eq!(summary["tasks"]["max"]["user"], "1");
    assert_eq!(summary["utilization"], json!(["1", "1"]));
}

/// Above the total's degree limit the summary stays exact: every other figure keeps its
/// algebraic form, and the total is its decimal with the reason. 30 users ⟨i, 1 + i² mod 29⟩
/// on (100, 100) give a field of degree 28. The total is Σ x_i and each printed task is
/// within 10^−20/2 of its value, so the printed total (itself correctly rounded) is within
/// 31/2 units of the 20th place of the printed tasks' sum.
#[test]
fn ceei_summary_past_the_total_limit_keeps_the_other_figures_exact() {
    let mut line = String::from("solve --mechanism ceei --capacity 100,100");
    for i in 1..=30 {
        line.push_str(&format!(" --user u{i}={i},{}", 1 + i * i % 29));
    }
    let summary = ok_json(&run(&cli(&line, &["--summary"])));
    assert_eq!(summary["exact"], true);
    let total = &summary["tasks"]["total"];
    assert_eq!(
        total["inexact_reason"],
        "the total's minimal polynomial is computed up to field degree 24; this field has degree 28"
    );
    assert!(
        summary["tasks"]["min"]["value"]["algebraic"].is_object(),
        "{summary}"
    );
    let units = |d: &Value| -> i128 { d.as_str().unwrap().replace('.', "").parse().unwrap() };
    let full = ok_json(&run(&words(&line)));
    let sum: i128 = users_of(&full)
        .iter()
        .map(|u| units(&u["tasks"]["decimal"]))
        .sum();
    assert!((sum - units(&total["decimal"])).abs() <= 15, "{total}");
}

/// Three resources: d_a = (1, 0, 0), d_b = (0, 1, 0), d_c = (1, 2, 1) on (1, 1, 10). Only c
/// uses r3, at most 1 < 10 of it, so r3's price is 0 and the rest is a two-resource market.
/// With prices p1 + p2 = 3 (Walras, three unit budgets), a buys 1/p1, b buys 1/p2 and c buys
/// 1/(p1 + 2 p2); clearing r1 and r2 gives x_c = (3 − √3)/6: 6x_c − 3 = −√3, squared
/// 36x_c² − 36x_c + 6 = 0, so the minimal polynomial is 6t² − 6t + 1.
#[test]
fn ceei_three_resources_with_a_zero_price_is_exact() {
    let answer = ok_json(&run(&words(
        "solve --mechanism ceei --capacity 1,1,10 --user a=1,0,0 --user b=0,1,0 --user c=1,2,1",
    )));
    assert_eq!(answer["exact"], true);
    let c = &answer["users"][2]["tasks"];
    assert_eq!(c["algebraic"]["polynomial"], json!(["1", "-6", "6"]));
    // x_c ≈ 0.2113248654 (√3 ∈ (1.7320508, 1.7320509)).
    assert!(
        c["decimal"].as_str().unwrap().starts_with("0.2113248654"),
        "{c}"
    );
    assert_eq!(answer["prices"]["r3"], "0");
}

/// Theorem 5's users five times each on five times the capacity: the Eisenberg–Gale optimum
/// is unique and the replicated equilibrium (same prices, each copy buying what its original
/// buys) satisfies its conditions, so every copy of user 1 gets Theorem 5's
/// u1 = (3125 − 125√373)/63 (minimal polynomial 63t² − 6250t + 62500).
#[test]
fn ceei_replicated_theorem_5_is_exact() {
    let args = replicated_theorem_5(5);
    let answer = ok_json(&run(&args.iter().map(String::as_str).collect::<Vec<_>>()));
    assert_eq!(answer["exact"], true);
    for k in 0..5 {
        let a = &answer["users"][3 * k]["tasks"];
        assert_eq!(
            a["algebraic"]["polynomial"],
            json!(["62500", "-6250", "63"])
        );
        assert_eq!(a["closed_form"], "(3125 - 125*sqrt(373))/63");
    }
}

/// 34 copies of Theorem 5's users (102 users) exceed the bounded algebraic step, which says
/// so instead of working on; the decimals are still Theorem 5's.
#[test]
fn ceei_too_many_users_for_the_algebraic_step_is_a_stated_reason() {
    let args = replicated_theorem_5(34);
    let answer = ok_json(&run(&args.iter().map(String::as_str).collect::<Vec<_>>()));
    assert_eq!(answer["exact"], false);
    assert_eq!(
        answer["exact_reason"],
        "users: exact algebraic CEEI is tried for at most 100 users (the degree of the clearing polynomial), the instance has 102"
    );
    // Each copy of user 1 gets u1 ≈ 11.28 tasks, as in Theorem 5.
    let a0: f64 = answer["users"][0]["tasks"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((a0 - 11.283_317_627).abs() < 1e-6, "{a0}");
}

/// `solve --mechanism ceei` on `copies` copies of Theorem 5's three users, on `copies` times
/// its capacity (100, 100).
fn replicated_theorem_5(copies: usize) -> Vec<String> {
    let capacity = format!("{0},{0}", 100 * copies);
    let mut args: Vec<String> = ["solve", "--mechanism", "ceei", "--capacity", &capacity]
        .map(String::from)
        .to_vec();
    for k in 0..copies {
        for (name, demand) in [("a", "4,1"), ("b", "1,16"), ("c", "16,1")] {
            args.extend(["--user".into(), format!("{name}{k}={demand}")]);
        }
    }
    args
}
