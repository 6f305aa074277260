//! End-to-end tests of `leontief prove`: flags that do not fit are refused before any work, a
//! missing solver is a clear error (exit 2) saying how to install one, and, with z3 on PATH
//! (scripts/test.sh puts the project venv's there), a statement known to hold is proved with
//! every case's solver named and `--emit-smt` writing every case.

use crate::common;

use common::{fails_with, ok_json, run, scratch_path};
use leontief_solver::Rational;
use serde_json::Value;

/// `prove` at 2 users and 2 resources with the mechanism `mechanism` and the flags `rest`.
fn prove_2x2<'a>(mechanism: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut all = common::cli("prove --users 2 --resources 2 --mechanism", &[mechanism]);
    all.extend_from_slice(rest);
    all
}

/// A number of an answer, written as an exact string.
fn rational(v: &Value) -> Rational {
    v.as_str().unwrap().parse().unwrap()
}

#[test]
fn flags_that_do_not_fit_are_refused() {
    // (mechanism, flags, the error's words): each a flag that does not fit the others.
    let refused: &[(&str, &str, &str)] = &[
        ("discrete-drf", "--property sp", "--mechanism: \"discrete-drf\" has no encoding for prove; encoded: drf, drf-common-level, asset, ceei, hdrf:collapsed"),
        ("drf", "--property sp --coalition 2", "--coalition: applies to --property gsp-strong or gsp-weak"),
        ("ceei", "--property sp --caps", "--caps: the ceei encoding has no caps"),
        ("ceei", "--metric sp-gain", "--metric needs --bound"),
        ("ceei", "--property sp --bound 3/2", "give either --property or --metric with --bound, not both"),
        ("ceei", "--metric sp-gain --bound x", "--bound"),
        ("drf", "--metric rm-loss --bound 0", "--bound"),
        ("drf", "--property po", "--property: po has no encoding for prove"),
        ("drf", "--property si --coalition 1", "--coalition: applies to --property gsp-strong or gsp-weak"),
        ("ceei", "--property ef --caps", "--caps: the ceei encoding has no caps"),
        ("hdrf:collapsed", "--property pm", "error: --property: pm of hdrf:collapsed has no encoding for prove: a departing leaf changes its siblings' guaranteed shares (docs/theory.md §6.10)"),
        ("drf", "--metric welfare-ratio --bound 1/2", "--bound: expected at least 1 (the answer itself is feasible), found 1/2"),
        ("drf", "--property sp --time soon", "--time"),
        ("drf", "--property sp --cvc5 python3", "--cvc5: applies to --cross-check cvc5"),
        ("drf", "--property sp --cross-check z3", "--cross-check"),
        // A coalition of 3 among 2 users.
        ("drf", "--property gsp-strong --coalition 3", "--coalition: expected 1..2"),
    ];
    for (mechanism, flags, message) in refused {
        fails_with(&prove_2x2(mechanism, &common::words(flags)), message);
    }
    // Envy is explore's metric, not prove's: the metrics prove lists are explore's, documented
    // in prove's --help, and include the gain, welfare and monotonicity metrics.
    let prove_metrics = common::listed_names(
        &prove_2x2("ceei", &["--metric", "envy", "--bound", "3/2"]),
        "error: --metric: unknown metric \"envy\" for prove (expected ",
        ')',
    );
    let explore_metrics = common::listed_names(
        &["explore", "--metric", "gain"],
        "error: --metric: unknown metric \"gain\" (expected ",
        ')',
    );
    let help = String::from_utf8_lossy(&run(&["prove", "--help"]).stdout).to_string();
    let metric_help = common::help_paragraph(&help, "--metric <METRIC>");
    for m in &prove_metrics {
        assert!(explore_metrics.contains(m), "{m}: {explore_metrics:?}");
        assert!(metric_help.contains(m.as_str()), "{m}: {metric_help}");
    }
    assert!(!prove_metrics.iter().any(|m| m == "envy"));
    common::assert_lists(
        &prove_metrics,
        &["sp-gain", "gsp-gain", "welfare-ratio", "pm-loss", "rm-loss"],
    );
}

#[test]
fn a_missing_solver_says_how_to_install_one() {
    fails_with(
        &prove_2x2("drf", &["--property", "sp", "--solver", "/nonexistent/z3"]),
        "pip install z3-solver",
    );
}

#[test]
fn a_missing_cvc5_says_how_to_install_it() {
    let flags = [
        "--property",
        "sp",
        "--cross-check",
        "cvc5",
        "--cvc5",
        "/nonexistent/python3",
    ];
    fails_with(&prove_2x2("drf", &flags), "pip install cvc5");
}

/// Whether `program args` runs and succeeds; under CI=true it must (scripts/test.sh puts the
/// venv's solvers on PATH).
fn succeeds(program: &str, args: &[&str]) -> bool {
    let found = std::process::Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success());
    if !found && std::env::var("CI").as_deref() == Ok("true") {
        panic!("`{program} {}` is required under CI=true", args.join(" "));
    }
    found
}

/// Whether z3 runs from PATH.
fn have_z3() -> bool {
    succeeds("z3", &["--version"])
}

/// Whether `python3` on PATH has the cvc5 module.
fn have_cvc5() -> bool {
    succeeds("python3", &["-c", "import cvc5"])
}

#[test]
fn cross_checking_drf_strategy_proofness_with_cvc5_agrees_on_every_case() {
    // Extended DRF is strategy-proof (Ghodsi et al., NSDI 2011; Parkes, Procaccia and Shah,
    // EC 2012): each of the two cases is unsat for any correct solver, so cvc5 agrees.
    if !have_z3() || !have_cvc5() {
        return;
    }
    let answer = ok_json(&run(&prove_2x2(
        "drf",
        &["--property", "sp", "--cross-check", "cvc5"],
    )));
    assert_eq!(answer["verdict"], "proved");
    assert_eq!(answer["cross_check"]["agreed"], true);
    assert_eq!(answer["cross_check"]["open"], serde_json::json!([]));
    assert!(answer["cross_check"]["solver"]
        .as_str()
        .unwrap()
        .starts_with("cvc5 "));
    let cases = answer["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    for case in cases {
        assert_eq!(case["cross_check"]["status"], "unsat");
    }
    assert!(answer["rests_on"].as_str().unwrap().contains("cvc5 "));
}

#[test]
fn drf_strategy_proofness_at_two_by_two_is_proved_case_by_case() {
    // Ghodsi et al. (NSDI 2011) and Parkes, Procaccia and Shah (EC 2012): extended DRF is
    // strategy-proof, so every case is unsat. The split keeps the truthful bottleneck
    // assignments (r1, r1) and (r1, r2) (the others are these with the resources swapped).
    if !have_z3() {
        return;
    }
    let dir = scratch_path("prove", "smt");
    let dir = dir.to_str().unwrap();
    let answer = ok_json(&run(&prove_2x2(
        "drf",
        &["--property", "sp", "--emit-smt", dir],
    )));
    assert_eq!(answer["verdict"], "proved");
    let cases = answer["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    for case in cases {
        assert_eq!(case["status"], "unsat");
        assert!(case["solver"].as_str().unwrap().starts_with("z3 "));
    }
    assert_eq!(answer["domain"]["users"], 2);
    for k in 0..2 {
        let text =
            std::fs::read_to_string(format!("{dir}/case-{k:03}.smt2")).expect("the case's file");
        assert!(text.contains("(check-sat-using"));
    }
}

#[test]
fn asset_fairness_below_the_split_is_found_and_drfs_welfare_bound_proved() {
    // The DRF paper (§4): asset fairness lacks the sharing incentive; the counterexample's
    // witness must show the user's tasks below what its equal split runs. DRF's welfare
    // ratio at (2, 2) is at most (n + 1)^2/(4n) = 9/8 (docs/theory.md §6.9), and the users
    // are interchangeable in that statement: no roles.
    if !have_z3() {
        return;
    }
    let answer = ok_json(&run(&prove_2x2("asset", &["--property", "si"])));
    assert_eq!(answer["verdict"], "refuted");
    let record = &answer["counterexample"];
    assert_eq!(record["property"], "si");
    assert!(
        rational(&record["witness"]["tasks"]) < rational(&record["witness"]["equal_split_utility"])
    );
    assert!(answer["domain"]["roles"]
        .as_str()
        .unwrap()
        .starts_with("u1 is below"));
    let answer = ok_json(&run(&prove_2x2(
        "drf",
        &["--metric", "welfare-ratio", "--bound", "9/8"],
    )));
    assert_eq!(answer["verdict"], "proved", "{answer}");
    assert_eq!(answer["metric"], "welfare-ratio");
    assert!(answer["rests_on"].as_str().unwrap().contains("§6.9"));
}

#[test]
fn drfs_loss_as_capacities_grow_is_found_with_the_grown_capacities() {
    // The DRF paper (§5, Table 2): DRF is not resource monotonic. The counterexample names
    // the grown capacities (each at least 1, one above) and a user with fewer tasks after.
    if !have_z3() {
        return;
    }
    let answer = ok_json(&run(&prove_2x2("drf", &["--property", "rm"])));
    assert_eq!(answer["verdict"], "refuted", "{answer}");
    let record = &answer["counterexample"];
    assert_eq!(record["property"], "rm");
    let grown: Vec<_> = record["capacity"]
        .as_array()
        .unwrap()
        .iter()
        .map(rational)
        .collect();
    assert!(grown.iter().all(|c| *c >= Rational::ONE));
    assert!(grown.iter().any(|c| *c > Rational::ONE));
    assert!(rational(&record["witness"]["after"]) < rational(&record["witness"]["before"]));
    assert!(answer["domain"]["roles"]
        .as_str()
        .unwrap()
        .starts_with("u1 loses"));
}
