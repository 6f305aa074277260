//! End-to-end tests of `leontief check`, `leontief verify` and `leontief compare`: the
//! sources' violations found through the command line, and determinism across threads.

use crate::common;

use common::run_with as run;

use serde_json::Value;

fn json_ok(args: &[&str], stdin: Option<&str>) -> Value {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// `check` with the flags of `line` on `instance` (standard input); the first property's answer
/// must be a violation. Every answer, in the order of `--property`.
fn violated_first(line: &str, instance: &str) -> Value {
    let v = json_ok(&common::words(&format!("check {line} -")), Some(instance));
    assert_eq!(v[0]["holds"], false, "{line}");
    v
}

/// The lecture's four-operation example (reference/flat.json, collusion-four-operations).
const FOUR: &str = r#"{"resources": ["cpu", "mem", "net"], "capacity": [1, 1, 1], "users": [
    {"name": "op1", "demand": [1, 0, 0]}, {"name": "op2", "demand": [1, 0, 0]},
    {"name": "op3", "demand": [0, 1, 0]}, {"name": "op4", "demand": [0, "1/2", 1]}]}"#;

#[test]
fn the_lectures_collusion_is_gsp_strong_not_gsp_weak() {
    let v = json_ok(
        &common::words(
            "check --mechanism drf --property gsp-strong,gsp-weak --lie op1=1,0,1/2 \
             --lie op2=1,0,1/2 -",
        ),
        Some(FOUR),
    );
    let strong = &v[0];
    assert_eq!(strong["property"], "gsp-strong");
    assert_eq!(strong["holds"], false);
    let w = &strong["witness"];
    assert_eq!(w["tasks_under_lie"]["op3"], "3/4");
    assert_eq!(w["tasks_under_lie"]["op4"], "1/2");
    assert_eq!(
        common::strings_at(w, "coalition", "user"),
        ["op1", "op2", "op3"]
    );
    assert_eq!(v[1]["property"], "gsp-weak");
    assert_eq!(v[1]["holds"], true);
}

#[test]
fn bounded_search_finds_the_collusion_by_itself() {
    let v = violated_first("--property gsp-strong", FOUR);
    assert_eq!(v[0]["bounded"], true);
}

#[test]
fn drf_resource_monotonicity_failure() {
    // DRF paper §5: (1,1) -> (1,4), A falls from 1/3 to 1/4.
    let inst = r#"{"capacity": [1, 1], "users": [{"name": "A", "demand": [2, 1]}, {"name": "B", "demand": [1, 2]}]}"#;
    let w = &violated_first("--property rm --capacity 1,4", inst)[0]["witness"];
    assert_eq!(w["user"], "A");
    assert_eq!(w["before"], "1/3");
    assert_eq!(w["after"], "1/4");
}

#[test]
fn ceei_manipulation_of_the_paper() {
    // Theorem 4: user 1 reports <16, 8> and gets 25/6 > 100/31.
    let inst = r#"{"capacity": [100, 100], "users": [{"name": "1", "demand": [16, 1]}, {"name": "2", "demand": [1, 2]}]}"#;
    let w = &violated_first("--mechanism ceei --property sp --lie 1=16,8", inst)[0]["witness"];
    assert_eq!(w["before"], "100/31");
    assert_eq!(w["after"], "25/6");
}

/// The DRF paper's Theorem 5 instance, whose CEEI is irrational.
const THEOREM5: &str = r#"{"capacity": [100, 100], "users": [{"name": "1", "demand": [4, 1]},
    {"name": "2", "demand": [1, 16]}, {"name": "3", "demand": [16, 1]}]}"#;

#[test]
fn ceei_population_monotonicity_is_decided_on_the_exact_equilibrium() {
    // Theorem 5: user 2 has u2 = (3800 + 100√373)/1071 ≈ 5.3514 tasks with all three users
    // ((1071 u2 − 3800)² = 100²·373, i.e. 1071 u2² − 7600 u2 + 10000 = 0); without user 3 the
    // prices (11/1500, 19/1500) give user 1 1500/63 = 500/21 and user 2 1500/315 = 100/21
    // tasks, which spend both budgets and fill both resources (4·500/21 + 100/21 = 100,
    // 500/21 + 16·100/21 = 100): the CEEI. u2 > 100/21 since 3800 + 100√373 > 5100 ⇔
    // 373 > 13². Decided exactly: "exact" with no tolerance, the figures exact numbers.
    let v = violated_first("--mechanism ceei --property pm --remove 3", THEOREM5);
    let pm = &v[0];
    assert_eq!(pm["exact"], true);
    assert_eq!(pm["tolerance"], Value::Null);
    assert_eq!(pm["within_tolerance"], false);
    assert!(
        !pm["note"].as_str().unwrap().contains("tolerance"),
        "{}",
        pm["note"]
    );
    let w = &pm["witness"];
    assert_eq!((&w["leaving"], &w["user"]), (&"3".into(), &"2".into()));
    assert_eq!(w["before"]["closed_form"], "(3800 + 100*sqrt(373))/1071");
    assert_eq!(
        w["before"]["algebraic"]["polynomial"],
        serde_json::json!(["10000", "-7600", "1071"])
    );
    assert_eq!(w["after"], "100/21");
    assert_eq!(w["tasks_after"]["1"], "500/21");
    // Under --decimals each algebraic figure is its value rounded: u2 = 5.35137... (√373 =
    // 19.31320...: (3800 + 1931.320)/1071 = 5.351373...).
    let d = json_ok(
        &common::words("check --mechanism ceei --property pm --remove 3 --decimals 6 -"),
        Some(THEOREM5),
    );
    assert_eq!(d[0]["witness"]["before"], serde_json::json!(5.35137));
    assert_eq!(d[0]["witness"]["after"], serde_json::json!(4.7619));
}

#[test]
fn asset_fairness_fails_sharing_incentive() {
    // Theorem 1: (30, 30), <1,3> and <1,1>: user 2 gets 12 tasks, less than the 15 of half.
    let inst = r#"{"capacity": [30, 30], "users": [{"name": "1", "demand": [1, 3]}, {"name": "2", "demand": [1, 1]}]}"#;
    let v = violated_first("--mechanism asset --property si,ef,po", inst);
    assert_eq!(v[0]["witness"]["user"], "2");
    assert_eq!(v[1]["holds"], true);
    assert_eq!(v[2]["holds"], true);
}

#[test]
fn verify_summarises_theorems_and_violations() {
    let drf = json_ok(
        &common::words("verify --property sp --instances 200 --zeros 0.3 --weights --caps"),
        None,
    );
    assert_eq!(drf["violations"], 0);
    assert_eq!(drf["instances"], 200);
    assert!(drf["scenarios"].as_u64().unwrap() > 1000);
    let asset = json_ok(
        &common::words("verify --mechanism asset --property si --instances 200"),
        None,
    );
    assert!(asset["violations"].as_u64().unwrap() > 0);
    assert_eq!(asset["witnesses"][0]["check"]["holds"], false);
    let rm = json_ok(&["verify", "--property", "rm", "--instances", "200"], None);
    assert!(rm["violations"].as_u64().unwrap() > 0);
}

#[test]
fn verify_is_the_same_whatever_the_thread_count() {
    let args = |t: &'static str| {
        vec![
            "verify",
            "--mechanism",
            "asset",
            "--property",
            "pm",
            "--instances",
            "300",
            "--seed",
            "9",
            "--zeros",
            "1/4",
            "--threads",
            t,
        ]
    };
    let one = run(&args("1"), None);
    let two = run(&args("2"), None);
    assert!(one.status.success() && two.status.success());
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn verify_and_check_reject_bad_flags() {
    for (args, message) in [
        (vec!["verify", "--property", "nope"], "--property"),
        (
            vec!["verify", "--property", "sp", "--users", "5..2"],
            "--users",
        ),
        (
            vec!["verify", "--property", "sp", "--zeros", "3/2"],
            "--zeros",
        ),
        (
            vec!["verify", "--property", "sp", "--mechanism", "magic"],
            "--mechanism",
        ),
    ] {
        let out = run(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{args:?}"
        );
    }
    let out = run(
        &["check", "--property", "sp", "--lie", "op9=1,0,0", "-"],
        Some(FOUR),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no user named"));
}

#[test]
fn compare_sets_the_mechanisms_side_by_side() {
    // The DRF paper's Figure 4 numbers: DRF 3 and 2, asset 63/25 and 54/25, CEEI 45/11, 18/11.
    let inst = r#"{"capacity": [9, 18], "users": [{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]}"#;
    let v = json_ok(&["compare", "--format", "json", "-"], Some(inst));
    let find = |name: &str| common::element_where(&v, "mechanisms", "mechanism", name).clone();
    assert_eq!(find("drf")["tasks"]["A"], "3");
    assert_eq!(find("asset")["tasks"]["B"], "54/25");
    assert_eq!(find("ceei")["tasks"]["A"], "45/11");
    assert_eq!(find("drf-lp")["tasks"]["B"], "2");
    assert_eq!(find("asset-lp")["tasks"]["A"], "63/25");
}

#[test]
fn the_readme_examples_run_and_say_what_the_readme_says() {
    // Runs `line` on the example file `file`, expecting JSON on success.
    let example = |line: &str, file: &str| {
        let path = format!("{}/examples/{file}", env!("CARGO_MANIFEST_DIR"));
        json_ok(&common::cli(line, &[&path]), None)
    };
    let paper = example("solve", "drf-paper.json");
    assert_eq!(paper["users"][0]["tasks"], "3");
    assert_eq!(paper["users"][1]["tasks"], "2");
    let four = example(
        "check --property gsp-strong,gsp-weak --lie op1=1,0,1/2 --lie op2=1,0,1/2",
        "four-operations.json",
    );
    assert_eq!(
        (four[0]["holds"].clone(), four[1]["holds"].clone()),
        (Value::Bool(false), Value::Bool(true))
    );
    let rm = example("check --property rm --capacity 1,4", "drf-not-rm.json");
    assert_eq!(rm[0]["witness"]["after"], "1/4");
    let tree = example("hdrf --policy naive", "lecture-tree.json");
    assert_eq!(tree["policy"], "naive");
    let skip = example(
        "solve --mechanism discrete-drf --misfit skip --machines 4",
        "drf-paper.json",
    );
    // Machines of (9/4, 9/2): B's <3, 1> never fits; one A task per machine.
    assert_eq!(
        (
            skip["users"][0]["tasks"].clone(),
            skip["users"][1]["tasks"].clone()
        ),
        (Value::from("4"), Value::from("0"))
    );
}
