//! `leontief reproduce`: re-derive the sources' worked examples and set each computed value
//! beside the source's.
//!
//! The sources' values live in `reference/flat.json` (copied from the sources: the DRF
//! paper, its Table 1 transcribed, the lecture on hierarchical DRF and collusion). Nothing
//! here is the code's own output.

use leontief_solver::{Instance, Rational};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cli::CliError;

mod explore;
mod flat;
mod production;
mod prove;
mod search;
mod trees;

use explore::*;
use flat::*;
use production::*;
use prove::*;
use search::*;
use trees::*;

/// The worked flat examples with their sources' answers.
pub const FLAT_REFERENCE: &str = include_str!("../../reference/flat.json");

/// One comparison: what was computed and what the source says.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// What is compared, e.g. `A tasks`.
    pub what: String,
    /// The value computed now.
    pub computed: String,
    /// The source's value.
    pub source: String,
    /// Whether they are equal (exactly, as rationals, where both are numbers).
    pub ok: bool,
}

impl Check {
    fn exact(what: impl Into<String>, computed: &Rational, source: &str) -> Check {
        let ok = source.parse::<Rational>().is_ok_and(|s| &s == computed);
        Check {
            what: what.into(),
            computed: computed.to_string(),
            source: source.to_string(),
            ok,
        }
    }

    fn text(what: impl Into<String>, computed: String, source: &str) -> Check {
        Check {
            ok: computed == source,
            what: what.into(),
            computed,
            source: source.to_string(),
        }
    }
}

/// A reproduced example.
#[derive(Debug, Clone, Serialize)]
pub struct Reproduction {
    /// Short name, as given to `leontief reproduce NAME`.
    pub name: &'static str,
    /// What it is.
    pub title: &'static str,
    /// Where the source's numbers come from.
    pub source: &'static str,
    /// The comparisons.
    pub checks: Vec<Check>,
    /// Why the example was not run (it needs a solver and `--all` found none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

type Builder = fn() -> Result<Vec<Check>, CliError>;

/// Every example's name, title and source, in the order they run.
const EXAMPLES: &str = include_str!("examples.json");

/// An example as `examples.json` describes it.
#[derive(Deserialize)]
struct Example {
    name: &'static str,
    title: &'static str,
    source: &'static str,
}

fn examples() -> Vec<Example> {
    serde_json::from_str(EXAMPLES).expect("src/reproduce/examples.json reads")
}

/// The code that re-derives the example `name`.
fn builder(name: &str) -> Option<Builder> {
    Some(match name {
        "drf-paper" => drf_paper,
        "drf-paper-table1" => drf_paper_table1,
        "weighted-cap-zero" => weighted_cap_zero,
        "four-operations" => four_operations,
        "asset-paper" => asset_paper,
        "ceei-paper" => ceei_paper,
        "property-table" => property_table,
        "hdrf-static" => hdrf_static,
        "hdrf-dynamic" => hdrf_dynamic,
        "production" => production,
        "collusion" => collusion,
        "drf-not-rm" => drf_not_rm,
        "explore-drf-sp" => explore_drf_sp,
        "explore-drf-rm" => explore_drf_rm,
        "explore-ceei-sp" => explore_ceei_sp,
        "explore-ceei-pm" => explore_ceei_pm,
        "explore-asset-si" => explore_asset_si,
        "explore-drf-welfare" => explore_drf_welfare,
        "explore-drf-pof" => explore_drf_pof,
        "explore-ceei-pof" => explore_ceei_pof,
        "explore-drf-discrete" => explore_drf_discrete,
        "prove-ceei-gain" => prove_ceei_gain,
        "prove-sp" => prove_sp,
        _ => return None,
    })
}

/// The names accepted by `leontief reproduce NAME`.
pub fn names() -> Vec<&'static str> {
    examples().iter().map(|e| e.name).collect()
}

/// Runs the named examples (all when `names` is empty), in the listed order.
pub fn run(selected: &[String]) -> Result<Vec<Reproduction>, CliError> {
    let examples = examples();
    for name in selected {
        if !examples.iter().any(|e| e.name == name) {
            return Err(CliError::Usage(format!(
                "unknown example {name:?}; known: {}",
                names().join(", ")
            )));
        }
    }
    examples
        .into_iter()
        .filter(|e| selected.is_empty() || selected.iter().any(|s| s == e.name))
        .map(
            |Example {
                 name,
                 title,
                 source,
             }| {
                let build = builder(name)
                    .ok_or_else(|| CliError::Internal(format!("example {name} has no builder")))?;
                let skipped = match NEEDS_SOLVER.contains(&name).then(prove::solver) {
                    // Named, it is an error; under --all the others still run.
                    Some(Err(why)) if !selected.is_empty() => return Err(why),
                    Some(Err(why)) => Some(why.to_string()),
                    _ => None,
                };
                Ok(Reproduction {
                    name,
                    title,
                    source,
                    checks: if skipped.is_none() {
                        build()?
                    } else {
                        Vec::new()
                    },
                    skipped,
                })
            },
        )
        .collect()
}

/// The report as text with check marks, and a closing `N passed, M failed` line.
pub fn render_text(reports: &[Reproduction]) -> String {
    let mut out = String::new();
    for r in reports {
        out.push_str(&format!(
            "{} — {}\n  source: {}\n",
            r.name, r.title, r.source
        ));
        let widest = |cell: fn(&Check) -> &str| {
            let widths = r.checks.iter().map(|c| cell(c).chars().count());
            widths.max().unwrap_or(0)
        };
        let (width, cwidth) = (widest(|c| &c.what), widest(|c| &c.computed));
        if let Some(why) = &r.skipped {
            out.push_str(&format!("  skipped: {why}\n"));
        }
        for c in &r.checks {
            let mark = if c.ok { "✓" } else { "✗" };
            out.push_str(&format!(
                "  {mark} {:<width$}  {:<cwidth$}  source: {}\n",
                c.what, c.computed, c.source
            ));
        }
        out.push('\n');
    }
    let (passed, failed) = tally(reports);
    out.push_str(&format!("reproduce: {passed} passed, {failed} failed\n"));
    out
}

/// The report as JSON: every example, then the checks passed and failed.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    /// The examples, in the order run.
    pub examples: &'a [Reproduction],
    /// Checks passed.
    pub passed: usize,
    /// Checks failed.
    pub failed: usize,
}

/// The report as JSON.
pub fn render_json(reports: &[Reproduction]) -> Report<'_> {
    let (passed, failed) = tally(reports);
    Report {
        examples: reports,
        passed,
        failed,
    }
}

/// Checks passed and failed.
pub fn tally(reports: &[Reproduction]) -> (usize, usize) {
    let all = reports.iter().flat_map(|r| &r.checks);
    let passed = all.clone().filter(|c| c.ok).count();
    (passed, all.count() - passed)
}

/// The cases of a reference file (`{"cases": [..]}`).
fn reference_cases(text: &str) -> Result<Vec<Value>, CliError> {
    let all: Value = serde_json::from_str(text).map_err(|e| CliError::Internal(e.to_string()))?;
    Ok(all["cases"].as_array().cloned().unwrap_or_default())
}

/// The flat reference case `id` and its instance.
fn reference_case(id: &str) -> Result<(Value, Instance), CliError> {
    let cases = reference_cases(FLAT_REFERENCE)?;
    let case = cases.into_iter().find(|c| c["id"] == id);
    let case = case.ok_or_else(|| CliError::Internal(format!("reference case {id} is missing")))?;
    let inst = Instance::from_json(&case["instance"])?;
    Ok((case, inst))
}

/// A reference case's lies (`{"A": [..], ..}`): each liar's index and reported demand.
fn reference_lies(inst: &Instance, lies: &Value) -> Result<Vec<(usize, Vec<Rational>)>, CliError> {
    let lies = lies
        .as_object()
        .ok_or_else(|| CliError::Internal("reference lies are not an object".into()))?;
    lies.iter()
        .map(|(name, demand)| {
            let i = user_named(inst, name)?;
            let field = format!("lies.{name}");
            Ok((i, leontief_solver::read_numbers(&field, demand)?))
        })
        .collect()
}

/// The index of the user a reference case names.
fn user_named(inst: &Instance, name: &str) -> Result<usize, CliError> {
    inst.user_index(name)
        .ok_or_else(|| CliError::Internal(format!("reference names unknown user {name}")))
}

fn str_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Compares a mechanism's tasks with a case's `field` (`{"A": "3", ..}`).
fn tasks_checks(
    inst: &Instance,
    tasks: &[Rational],
    expected: &Value,
    label: &str,
) -> Result<Vec<Check>, CliError> {
    let expected = expected
        .as_object()
        .ok_or_else(|| CliError::Internal("reference tasks are not an object".into()))?;
    expected
        .iter()
        .map(|(name, want)| {
            let i = user_named(inst, name)?;
            Ok(Check::exact(
                format!("{name} {label}"),
                &tasks[i],
                &str_of(want),
            ))
        })
        .collect()
}
