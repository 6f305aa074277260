//! The search from a cold start set beside the lecture's four-operation collusion.

use leontief_solver::{Drf, Rational};

use super::*;
use crate::cli::CliError;

/// The search budget of `reproduce collusion` (scenarios), the same for both readings.
const COLLUSION_BUDGET: u64 = 400_000;

use leontief_counterexamples::candidate::{evaluate, Candidate};
use leontief_counterexamples::instance_generator::{Chance, GeneratorConfig};
use leontief_counterexamples::record::Record;
use leontief_counterexamples::search::{search, SearchConfig};
use leontief_solver::properties::{Property, Scenario};

pub(super) fn collusion() -> Result<Vec<Check>, CliError> {
    let drf = Drf::extended();
    let mut checks = lecture_checks(&drf)?;
    let (found, scenarios) = cold_search(&drf, Property::GspStrong)?;
    match found.first() {
        Some(r) => checks.extend(witness_checks(&drf, r, scenarios)?),
        None => {
            checks.push(Check::text(
                format!("search gsp-strong (seed 1, budget {COLLUSION_BUDGET})"),
                "none found".into(),
                "a violation",
            ));
            return Ok(checks);
        }
    }
    let (weak, weak_scenarios) = cold_search(&drf, Property::GspWeak)?;
    checks.push(Check::text(
        format!("search gsp-weak (seed 1, {weak_scenarios} scenarios)"),
        if weak.is_empty() {
            "none found".into()
        } else {
            format!("{} found", weak.len())
        },
        "none found",
    ));
    Ok(checks)
}

/// The lecture's own example, as a candidate: strong yes, weak no.
fn lecture_checks(drf: &Drf) -> Result<Vec<Check>, CliError> {
    let (case, inst) = reference_case("collusion-four-operations")?;
    let lies = reference_lies(&inst, &case["manipulation"]["lies"])?;
    let lecture = Candidate::new(inst, Scenario::Lies(lies));
    let mut checks = Vec::new();
    for (p, expected) in [
        (Property::GspStrong, "violated"),
        (Property::GspWeak, "holds"),
    ] {
        let v = evaluate(drf, p, &lecture)?;
        checks.push(Check::text(
            format!("lecture's four operations: {p}"),
            if v.is_some() { "violated" } else { "holds" }.into(),
            expected,
        ));
    }
    Ok(checks)
}

/// A cold start: random and grid instances with zero demands, nothing about the example; the
/// first violation found (at most one) and the scenarios tried.
fn cold_search(drf: &Drf, property: Property) -> Result<(Vec<Record>, u64), CliError> {
    let mut generator = GeneratorConfig::new();
    generator.users = 2..=4;
    generator.zeros = Chance::new(1, 3).expect("valid");
    let mut cfg = SearchConfig::new(property, 1, generator);
    cfg.run.budget = Some(COLLUSION_BUDGET);
    cfg.max_found = Some(1);
    let mut found = Vec::new();
    let summary = search(
        drf,
        &cfg,
        &mut |r| {
            found.push(r.clone());
            Ok(())
        },
        &|_| {},
    )
    .map_err(|e| CliError::Internal(e.to_string()))?;
    Ok((found, summary.scenarios))
}

/// The checks of the strong-collusion witness the cold search found: re-verified, the kind of
/// lie, the truthful members who gain, and its size.
fn witness_checks(drf: &Drf, r: &Record, scenarios: u64) -> Result<Vec<Check>, CliError> {
    let mut checks = Vec::new();
    let c = &r.candidate;
    let inst = &c.instance;
    let v = evaluate(drf, Property::GspStrong, c)?;
    checks.push(Check::text(
        format!(
            "search gsp-strong (seed 1): found after {scenarios} scenarios, shrunk, re-verified"
        ),
        if v.is_some() {
            "a violation"
        } else {
            "not a violation"
        }
        .into(),
        "a violation",
    ));
    let Scenario::Lies(lies) = &c.scenario else {
        return Err(CliError::Internal("a gsp witness without lies".into()));
    };
    let describe = lies
        .iter()
        .map(|(i, rep)| {
            let u = &inst.users()[*i];
            format!("{} {} reports {}", u.name, vector(&u.demand), vector(rep))
        })
        .collect::<Vec<_>>()
        .join("; ");
    let claims_unused = lies.iter().all(|(i, rep)| {
        let d = &inst.users()[*i].demand;
        d.iter()
            .zip(rep)
            .any(|(t, r)| t.is_zero() && r.is_positive())
    });
    checks.push(Check::text(
        format!("found: {describe}"),
        if claims_unused {
            "liars claim a resource they do not use"
        } else {
            "other lies"
        }
        .into(),
        "liars claim a resource they do not use",
    ));
    let gainers: Vec<String> = r
        .violation
        .coalition
        .iter()
        .filter(|i| !lies.iter().any(|(k, _)| k == *i))
        .map(|&i| {
            let after = r
                .violation
                .after
                .as_ref()
                .and_then(|a| a[i].clone())
                .unwrap_or(Rational::ZERO);
            format!(
                "{} {} -> {}",
                inst.users()[i].name,
                r.violation.before[i],
                after
            )
        })
        .collect();
    checks.push(Check::text(
        format!(
            "truthful coalition members who gain: {}",
            gainers.join(", ")
        ),
        if gainers.is_empty() { "none" } else { "some" }.into(),
        "some",
    ));
    checks.push(Check::text(
        "size of the shrunk counterexample",
        format!(
            "{} users, {} resources",
            inst.num_users(),
            inst.num_resources()
        ),
        "4 users, 3 resources",
    ));
    Ok(checks)
}

/// A vector as the sources write a demand: `<1, 4>`.
pub(super) fn vector(v: &[Rational]) -> String {
    format!("<{}>", crate::render::joined(v))
}
