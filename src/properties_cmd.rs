//! `leontief check` and `leontief verify`: the property oracles on one instance, and on
//! generated instances.

use leontief_counterexamples::generate::{parse_range, Chance, GeneratorConfig};
use leontief_counterexamples::verify::{verify, VerifyConfig, VerifySummary};
use leontief_solver::properties::{check, Property, Scenario};
use leontief_solver::{read_number, read_numbers, Instance, Rational, SolverError};
use serde_json::Value;

use crate::cli::CliError;
use crate::mechanisms::by_name;

/// Scenario flags of `check`, as given on the command line.
#[derive(Debug, Default, Clone)]
pub struct ScenarioFlags {
    /// `--lie NAME=v1,v2,..` (repeatable).
    pub lies: Vec<String>,
    /// `--remove NAME`.
    pub remove: Option<String>,
    /// `--capacity v1,v2,..`.
    pub capacity: Option<String>,
}

/// Parses `si,ef,po` into properties.
pub fn parse_properties(text: &str) -> Result<Vec<Property>, CliError> {
    let list: Result<Vec<Property>, SolverError> = text
        .split(',')
        .map(|p| p.trim().parse::<Property>())
        .collect();
    let list = list.map_err(|e| match e {
        SolverError::Invalid { reason, .. } => SolverError::invalid("--property", reason),
        other => other,
    })?;
    if list.is_empty() {
        return Err(CliError::Usage(
            "--property: expected at least one property".into(),
        ));
    }
    Ok(list)
}

fn csv_numbers(field: &str, text: &str) -> Result<Vec<Rational>, SolverError> {
    let values: Vec<Value> = text
        .split(',')
        .map(|x| Value::String(x.trim().to_string()))
        .collect();
    read_numbers(field, &Value::Array(values))
}

fn user(inst: &Instance, field: &str, name: &str) -> Result<usize, SolverError> {
    inst.user_at_path(name.trim())
        .ok_or_else(|| SolverError::invalid(field, format!("no user named {name:?}")))
}

/// The scenario each property gets: lies go to SP/GSP, a departure to PM, capacities to RM;
/// every other property runs as usual (allocation properties, or the bounded default set).
fn scenario_for(
    property: Property,
    inst: &Instance,
    flags: &ScenarioFlags,
) -> Result<Scenario, CliError> {
    Ok(match property {
        Property::Sp | Property::GspStrong | Property::GspWeak if !flags.lies.is_empty() => {
            let mut lies = Vec::new();
            for (k, spec) in flags.lies.iter().enumerate() {
                let field = format!("--lie[{k}]");
                let (name, values) = spec.split_once('=').ok_or_else(|| {
                    SolverError::invalid(&field, format!("expected NAME=v1,v2,.., found {spec:?}"))
                })?;
                let i = user(inst, &field, name)?;
                let report = csv_numbers(&field, values)?;
                if report.len() != inst.num_resources() {
                    return Err(SolverError::invalid(
                        field,
                        format!(
                            "expected {} entries, one per resource, found {}",
                            inst.num_resources(),
                            report.len()
                        ),
                    )
                    .into());
                }
                lies.push((i, report));
            }
            Scenario::Lies(lies)
        }
        Property::Pm if flags.remove.is_some() => Scenario::Remove(user(
            inst,
            "--remove",
            flags.remove.as_deref().unwrap_or_default(),
        )?),
        Property::Rm if flags.capacity.is_some() => {
            let capacity =
                csv_numbers("--capacity", flags.capacity.as_deref().unwrap_or_default())?;
            Scenario::Capacity(capacity)
        }
        _ => Scenario::Bounded,
    })
}

/// `leontief check`: one JSON object per property, in a list.
pub fn check_cmd(
    mechanism: &str,
    properties: &str,
    inst: &Instance,
    flags: &ScenarioFlags,
) -> Result<Value, CliError> {
    let mech = by_name(mechanism)?;
    let properties = parse_properties(properties)?;
    if flags.lies.len() > 1 && properties.contains(&Property::Sp) {
        return Err(CliError::Usage(
            "sp takes one --lie; use gsp-strong or gsp-weak for coalitions".into(),
        ));
    }
    let mut out = Vec::new();
    for p in properties {
        let scenario = scenario_for(p, inst, flags)?;
        let report = check(mech.as_ref(), inst, p, &scenario)?;
        out.push(report.to_json(inst));
    }
    Ok(Value::Array(out))
}

/// Options of `leontief verify`, as given on the command line.
#[derive(Debug, Clone)]
pub struct VerifyFlags {
    /// Mechanism name.
    pub mechanism: String,
    /// Property name.
    pub property: String,
    /// Number of instances.
    pub instances: u64,
    /// Seed.
    pub seed: u64,
    /// `a..b` users.
    pub users: String,
    /// `a..b` resources.
    pub resources: String,
    /// Probability of a zero demand entry, e.g. `0.3`.
    pub zeros: String,
    /// Random weights.
    pub weights: bool,
    /// Random caps.
    pub caps: bool,
    /// `a..b` pools: generated instances are trees (user names are paths).
    pub pools: Option<String>,
    /// Witnesses to keep.
    pub witnesses: usize,
}

/// The instance generator of `verify` and `search` from their flags, validated.
pub fn generator_config(
    users: &str,
    resources: &str,
    zeros: &str,
    weights: bool,
    caps: bool,
    pools: Option<&str>,
) -> Result<GeneratorConfig, CliError> {
    let zeros = read_number("--zeros", &Value::String(zeros.to_string()))?;
    let zeros = Chance::from_rational(&zeros).ok_or_else(|| {
        SolverError::invalid(
            "--zeros",
            format!("expected a probability in [0, 1], found {zeros}"),
        )
    })?;
    let mut generator = GeneratorConfig::new();
    generator.users = parse_range("--users", users)?;
    generator.resources = parse_range("--resources", resources)?;
    generator.zeros = zeros;
    generator.weights = weights;
    generator.caps = caps;
    generator.pools = pools.map(|p| parse_range("--pools", p)).transpose()?;
    generator.validate()?;
    Ok(generator)
}

/// Builds the generator and verification configuration from the flags.
pub fn verify_config(flags: &VerifyFlags) -> Result<(Property, VerifyConfig), CliError> {
    let property = parse_properties(&flags.property)?;
    let [property] = property[..] else {
        return Err(CliError::Usage("verify takes one --property".into()));
    };
    let generator = generator_config(
        &flags.users,
        &flags.resources,
        &flags.zeros,
        flags.weights,
        flags.caps,
        flags.pools.as_deref(),
    )?;
    let mut cfg = VerifyConfig::new(flags.instances, flags.seed, generator);
    cfg.max_witnesses = flags.witnesses;
    Ok((property, cfg))
}

/// `leontief verify`: the summary (and the configuration it ran with).
pub fn verify_cmd(
    flags: &VerifyFlags,
    tick: &(dyn Fn() + Sync),
) -> Result<(VerifySummary, VerifyConfig), CliError> {
    let mech = by_name(&flags.mechanism)?;
    let (property, cfg) = verify_config(flags)?;
    Ok((verify(mech.as_ref(), property, &cfg, tick), cfg))
}
