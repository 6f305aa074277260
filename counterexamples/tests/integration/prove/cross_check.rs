//! cvc5 as a second solver: its runner on known queries, its agreement with z3 on statements
//! that hold, and a disagreeing cross-check turning the verdict to unknown.

use super::{cvc5, q, solver, statement};
use leontief_counterexamples::explore::MetricName;
use leontief_counterexamples::prove::smt::{binary, Answer, Script, Solver};
use leontief_counterexamples::prove::{
    cross_check, prove, Goal, Options, Proof, ProvedMechanism, SolverKind, Statement, Verdict,
};
use leontief_solver::properties::Property;
use std::time::Duration;

#[test]
fn the_cvc5_runner_answers_a_known_sat_and_a_known_unsat_query() {
    let Some(cvc5) = cvc5() else { return };
    assert_eq!(cvc5.kind, SolverKind::Cvc5);
    assert!(!cvc5.reports_models());
    let limit = Duration::from_secs(60);
    // x² = 2 with x > 0: x = √2, an irrational real, so only a solver of real (not rational)
    // arithmetic answers sat.
    let mut sat = Script::new();
    let x = sat.real("x");
    sat.assert(binary("=", &format!("(* {x} {x})"), "2.0"));
    sat.assert(binary(">", &x, "0.0"));
    assert_eq!(cvc5.check(&sat, limit).unwrap(), Answer::Sat(Vec::new()));
    // x·y = 1 and x + y = 1: x and y are the roots of t² − t + 1, whose discriminant
    // 1 − 4 = −3 is negative, so there are no real solutions.
    let mut unsat = Script::new();
    let x = unsat.real("x");
    let y = unsat.real("y");
    unsat.assert(binary("=", &format!("(* {x} {y})"), "1.0"));
    unsat.assert(binary("=", &format!("(+ {x} {y})"), "1.0"));
    assert_eq!(cvc5.check(&unsat, limit).unwrap(), Answer::Unsat);
}

/// Proves `statement` with z3, then cross-checks the proof with `checker`.
fn proved_and_cross_checked(statement: &Statement, checker: &Solver) -> Proof {
    let z3 = solver().expect("checked by the caller");
    let time = Duration::from_secs(300);
    let options = Options {
        time,
        emit_smt: None,
    };
    let proof = prove(statement, &z3, &options).unwrap();
    assert_eq!(proof.verdict, Verdict::Proved);
    cross_check(statement, proof, checker, time).unwrap()
}

#[test]
fn cvc5_agrees_with_z3_on_drf_strategy_proofness_and_the_ceei_gain_bound() {
    // Both statements hold: extended DRF is strategy-proof (Ghodsi et al., NSDI 2011;
    // Parkes, Procaccia and Shah, EC 2012), and a single CEEI liar gains at most
    // 2 − 1/n = 3/2 with n = 2 (docs/theory.md §6.8). So every case is unsat for any correct
    // solver, and cvc5 must agree with z3 on every one.
    let Some(_) = solver() else { return };
    let Some(cvc5) = cvc5() else { return };
    for statement in [
        statement(ProvedMechanism::Drf, Goal::Property(Property::Sp), 2, 2),
        statement(
            ProvedMechanism::Ceei,
            Goal::Bound(MetricName::SpGain, q("3/2")),
            2,
            2,
        ),
    ] {
        let proof = proved_and_cross_checked(&statement, &cvc5);
        assert_eq!(proof.verdict, Verdict::Proved);
        let check = proof.cross_check.as_ref().expect("cross-checked");
        assert_eq!(check.cases.len(), proof.cases.len());
        assert!(check.cases.iter().all(|c| c.status == Answer::Unsat));
        assert!(check.agreed());
        let answer = proof.to_json(&statement);
        assert_eq!(answer["cross_check"]["agreed"], true);
        let rests_on = answer["rests_on"].as_str().unwrap();
        assert!(
            rests_on.contains("z3 ") && rests_on.contains("cvc5 "),
            "{rests_on}"
        );
        for case in answer["cases"].as_array().unwrap() {
            assert_eq!(case["cross_check"]["status"], "unsat");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_cross_check_answering_sat_makes_the_verdict_unknown() {
    // A stand-in second solver that answers sat to everything: it contradicts z3's unsat on
    // every case of a statement that holds, and the verdict must not stay proved.
    use std::os::unix::fs::PermissionsExt;
    let Some(_) = solver() else { return };
    let dir = std::env::temp_dir().join(format!("leontief-cross-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("always-sat");
    std::fs::write(&fake, "#!/bin/sh\ncat > /dev/null\necho sat\n").unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let checker = Solver {
        path: fake,
        name: "cvc5".into(),
        version: "stand-in".into(),
        kind: SolverKind::Cvc5,
    };
    let sp = statement(ProvedMechanism::Drf, Goal::Property(Property::Sp), 2, 2);
    let proof = proved_and_cross_checked(&sp, &checker);
    // (2, 2) splits into two cases (bottlenecks (r1,r1) and (r1,r2)): both contradicted.
    assert_eq!(proof.verdict, Verdict::Unknown(vec![0, 1]));
    let answer = proof.to_json(&sp);
    assert_eq!(answer["verdict"], "unknown");
    assert_eq!(answer["cross_check"]["agreed"], false);
    assert_eq!(
        answer["cross_check"]["disagreed"],
        serde_json::json!([0, 1])
    );
    assert!(answer["cross_check"]["disagreement"]
        .as_str()
        .unwrap()
        .contains("one of the two solvers is wrong"));
    assert!(proof.to_text(&sp).contains("CROSS-CHECK DISAGREES"));
    std::fs::remove_dir_all(&dir).unwrap();
}
