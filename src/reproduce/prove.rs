//! Bounded statements decided by `leontief prove`, each beside the theorem or paper that
//! settles it. They need z3; without it `reproduce --all` skips them and says why.

use std::time::Duration;

use leontief_counterexamples::explore::MetricName;
use leontief_counterexamples::prove::{
    self, Goal, Options, ProvedMechanism, Solver, Statement, Verdict,
};
use leontief_solver::properties::Property;
use leontief_solver::Rational;

use super::Check;
use crate::cli::CliError;
use crate::commands::prove::error;

/// The examples that need a solver.
pub(super) const NEEDS_SOLVER: &[&str] = &["prove-ceei-gain", "prove-sp"];

/// The solver, or why there is none.
pub(super) fn solver() -> Result<Solver, CliError> {
    Solver::find(None).map_err(error)
}

fn q(text: &str) -> Result<Rational, CliError> {
    text.parse()
        .map_err(|_| CliError::Internal(format!("{text} is not a number")))
}

/// Decides the statement of `goal` about `mechanism` at `(n, m)` (no weights, caps or
/// coalition); the check's text names it and its number of cases.
fn decide(
    mechanism: ProvedMechanism,
    goal: Goal,
    (n, m): (usize, usize),
    positive: bool,
) -> Result<(String, Verdict), CliError> {
    let statement = Statement::new(mechanism, goal, n, m, positive, false, false, None)?;
    let solver = solver()?;
    let options = Options {
        time: Duration::from_secs(300),
        emit_smt: None,
    };
    let proof = prove::prove(&statement, &solver, &options).map_err(error)?;
    let what = format!(
        "{} ({} cases, {})",
        statement.describe(),
        proof.cases.len(),
        proof.solver
    );
    Ok((what, proof.verdict))
}

pub(super) fn prove_ceei_gain() -> Result<Vec<Check>, CliError> {
    // docs/theory.md §6.8: with equal incomes one liar gains at most 2 − 1/n under CEEI, and
    // the family of §6.7 gains exactly that. So the bound 2 − 1/n is proved at every size
    // the solver reaches, and any smaller bound is refuted by an instance gaining more.
    let mut checks = Vec::new();
    for (size, bound) in [((2, 2), "3/2"), ((2, 3), "3/2"), ((3, 2), "5/3")] {
        let gain = Goal::Bound(MetricName::SpGain, q(bound)?);
        let (what, verdict) = decide(ProvedMechanism::Ceei, gain, size, false)?;
        checks.push(Check::text(what, verdict.name().to_string(), "proved"));
    }
    for (size, bound) in [((2, 2), "7/5"), ((3, 2), "8/5")] {
        let bound = q(bound)?;
        let gain = Goal::Bound(MetricName::SpGain, bound.clone());
        let (what, verdict) = decide(ProvedMechanism::Ceei, gain, size, false)?;
        let computed = match &verdict {
            Verdict::Refuted(record) => record["value"]
                .as_str()
                .map_or_else(|| "no gain".to_string(), str::to_string),
            other => other.name().to_string(),
        };
        checks.push(Check::new(
            format!("{what}: the counterexample's gain"),
            computed.parse::<Rational>().is_ok_and(|g| g > bound),
            computed,
            format!("above {bound} (refuted)"),
        ));
    }
    Ok(checks)
}

pub(super) fn prove_sp() -> Result<Vec<Check>, CliError> {
    // Extended DRF is strategy-proof (Ghodsi et al., NSDI 2011, section 4; with zero demands,
    // Parkes, Procaccia and Shah, EC 2012); asset fairness is strategy-proof and CEEI is not
    // (the DRF paper's Table 2).
    use ProvedMechanism::{Asset, Ceei, Drf};
    let mut checks = Vec::new();
    for (mechanism, size, positive, expected) in [
        (Drf, (2, 2), false, "proved"),
        (Drf, (2, 3), false, "proved"),
        (Drf, (3, 2), false, "proved"),
        (Asset, (2, 2), true, "proved"),
        (Ceei, (2, 2), true, "refuted"),
    ] {
        let sp = Goal::Property(Property::Sp);
        let (what, verdict) = decide(mechanism, sp, size, positive)?;
        checks.push(Check::text(what, verdict.name().to_string(), expected));
    }
    Ok(checks)
}
