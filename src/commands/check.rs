//! `leontief check`: properties of a mechanism on one instance, decided exactly.

use clap::Args;

use leontief_counterexamples::explore::exact::read_exact;
use leontief_solver::algebraic::Limits;
use leontief_solver::ceei::ExactNumber;
use leontief_solver::properties::{check, Property, Scenario};
use leontief_solver::registry::Descriptor;
use leontief_solver::{Instance, SolverError};
use serde_json::Value;

use crate::cli::{csv_numbers, CliError};
use crate::commands::flags::{InstanceInput, MechanismParser, NameParser, NumberFlags, RulesFlags};
use crate::commands::{pretty, usage};
use crate::output::{decimal_value, finish_json, Numbers};

/// The flags of `leontief check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Instance JSON file, or - for standard input (a flat instance or a tree file).
    pub file: String,
    /// The mechanism.
    #[arg(long, default_value = "drf", value_parser = MechanismParser)]
    pub mechanism: &'static Descriptor,
    /// How a tree's guarantees and limits are read and used (hdrf:* mechanisms).
    #[command(flatten)]
    pub rules: RulesFlags,
    /// Properties, comma-separated (each decided and reported in turn).
    #[arg(long, required = true, value_delimiter = ',', value_parser = NameParser::<Property>::new("property").with_help(Property::description))]
    pub property: Vec<Property>,
    /// sp, gsp-strong, gsp-weak: NAME reports this demand (repeatable; the coalition is the
    /// liars plus whoever gains). Without it SP/GSP try a bounded set of structured lies.
    #[arg(long = "lie", value_name = "NAME=V1,V2,..")]
    pub lies: Vec<String>,
    /// pm: this user leaves. Without it every single user leaves in turn.
    #[arg(long, value_name = "NAME")]
    pub remove: Option<String>,
    /// rm: the new capacities (each at least the old). Without it a small grid.
    #[arg(long, value_name = "V1,V2,..")]
    pub capacity: Option<String>,
    /// How numbers are printed.
    #[command(flatten)]
    pub numbers: NumberFlags,
}

fn user(inst: &Instance, field: &str, name: &str) -> Result<usize, SolverError> {
    inst.user_at_path(name.trim())
        .ok_or_else(|| SolverError::invalid(field, format!("no user named {name:?}")))
}

/// Checks that each scenario flag has a property it applies to.
fn check_flags(args: &CheckArgs) -> Result<(), CliError> {
    let has = |ps: &[Property]| args.property.iter().any(|p| ps.contains(p));
    let manipulation = [Property::Sp, Property::GspStrong, Property::GspWeak];
    if !args.lies.is_empty() && !has(&manipulation) {
        return Err(usage(
            "--lie applies to --property sp, gsp-strong or gsp-weak",
        ));
    }
    if args.remove.is_some() && !has(&[Property::Pm]) {
        return Err(usage("--remove applies to --property pm"));
    }
    if args.capacity.is_some() && !has(&[Property::Rm]) {
        return Err(usage("--capacity applies to --property rm"));
    }
    if args.lies.len() > 1 && args.property.contains(&Property::Sp) {
        return Err(usage(
            "sp takes one --lie; use gsp-strong or gsp-weak for coalitions",
        ));
    }
    Ok(())
}

/// The scenario each property gets: lies go to SP/GSP, a departure to PM, capacities to RM;
/// every other property runs as usual (allocation properties, or the bounded default set).
fn scenario_for(
    property: Property,
    inst: &Instance,
    args: &CheckArgs,
) -> Result<Scenario, CliError> {
    Ok(match property {
        Property::Sp | Property::GspStrong | Property::GspWeak if !args.lies.is_empty() => {
            let mut lies = Vec::new();
            for (k, spec) in args.lies.iter().enumerate() {
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
        Property::Pm if args.remove.is_some() => Scenario::Remove(user(
            inst,
            "--remove",
            args.remove.as_deref().unwrap_or_default(),
        )?),
        Property::Rm if args.capacity.is_some() => {
            let capacity = csv_numbers("--capacity", args.capacity.as_deref().unwrap_or_default())?;
            Scenario::Capacity(capacity)
        }
        _ => Scenario::Bounded,
    })
}

/// Runs `leontief check`: one JSON object per property, in a list, in the order given.
pub fn run(args: CheckArgs) -> Result<String, CliError> {
    check_flags(&args)?;
    args.rules.for_mechanism(args.mechanism)?;
    let numbers = args.numbers.numbers()?;
    let inst = InstanceInput {
        file: Some(args.file.clone()),
        ..InstanceInput::default()
    }
    .load_with(&args.rules)?;
    // Every scenario is read before any property is decided.
    let scenarios = args
        .property
        .iter()
        .map(|&p| scenario_for(p, &inst, &args))
        .collect::<Result<Vec<_>, _>>()?;
    let mech = args.mechanism.build();
    let bar = crate::workers::progress(Some(scenarios.len() as u64));
    // The first failure stops the checks.
    let reports = args.property.iter().zip(&scenarios).map(|(&p, scenario)| {
        bar.set_message(p.name());
        let report = check(mech.as_ref(), &inst, p, scenario);
        bar.inc(1);
        report.map(|r| r.to_json(&inst))
    });
    let out = reports.collect::<Result<Vec<_>, _>>();
    bar.finish_and_clear();
    let mut out = Value::Array(out?);
    if let Numbers::Decimals(digits) = numbers {
        round_algebraic(&mut out, digits)?;
    }
    Ok(pretty(&finish_json(out, numbers)))
}

/// Under `--decimals N`, each exact algebraic figure — the serde form of an irrational
/// [`ExactNumber`], `{"algebraic": {"polynomial", "interval"}, "decimal", "closed_form"}` —
/// becomes its value correctly rounded to `N` significant digits (its polynomial and interval
/// are not figures to round one by one).
fn round_algebraic(v: &mut Value, digits: u32) -> Result<(), CliError> {
    if v.get("algebraic").is_some() {
        let internal = |e: String| CliError::Internal(format!("an algebraic figure: {e}"));
        let limits = Limits::default();
        let value = read_exact("algebraic", v)
            .map_err(|e| internal(e.to_string()))?
            .ok_or_else(|| internal("not a number".into()))?;
        let number = ExactNumber::from_real(value, &limits).map_err(|e| internal(e.to_string()))?;
        let text = number
            .to_significant(digits, &limits)
            .map_err(|e| CliError::Internal(format!("rounding an algebraic figure: {e}")))?;
        *v = decimal_value(text);
        return Ok(());
    }
    match v {
        Value::Object(members) => members
            .values_mut()
            .try_for_each(|item| round_algebraic(item, digits)),
        Value::Array(items) => items
            .iter_mut()
            .try_for_each(|item| round_algebraic(item, digits)),
        _ => Ok(()),
    }
}
