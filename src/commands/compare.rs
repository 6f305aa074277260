//! `leontief compare`: every flat mechanism on one instance, side by side.

use clap::Args;
use leontief_solver::ceei::Ceei;
use leontief_solver::registry::flat_mechanisms;
use leontief_solver::{Allocation, Rational};
use serde::Serialize;
use serde_json::Value;

use crate::cli::CliError;
use crate::commands::flags::{InstanceInput, NumberFlags};
use crate::commands::solve::Format;
use crate::commands::{csv_line, json_only, pretty, to_value, MinMax};
use crate::output::{finish_json, round_text, Numbers};
use crate::render::{compare_json, compare_table, Column};
use leontief_counterexamples::doc::ByName;

/// The flags of `leontief compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// The instance.
    #[command(flatten)]
    pub input: InstanceInput,
    /// Output format (csv: one row per mechanism and user).
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// How numbers are printed.
    #[command(flatten)]
    pub numbers: NumberFlags,
    /// Print aggregate figures only (JSON): per mechanism, total tasks, utilization, the
    /// saturated resources and the smallest and largest dominant shares.
    #[arg(long)]
    pub summary: bool,
}

/// Runs `leontief compare`: one column per flat mechanism of the table, in its order.
pub fn run(args: CompareArgs) -> Result<String, CliError> {
    let numbers = args.numbers.numbers()?;
    json_only(args.summary, "--summary", "summary", args.format)?;
    let inst = args.input.load()?;
    let mut columns = Vec::new();
    for d in flat_mechanisms() {
        let exact = |tasks: Vec<Rational>| Column::exact(d.name, &inst, &Allocation::new(tasks));
        columns.push(match d.name {
            // A tree whose leaves are all idle: nobody to price for, nothing to allocate.
            "ceei" if inst.num_users() == 0 => exact(Vec::new()),
            "ceei" => {
                // Its exact answer when certified, else its decimals, marked approximate.
                let out = Ceei::new().solve(&inst)?;
                match out.tasks_exact {
                    Some(t) if out.certified => exact(t),
                    _ => Column::approximate(d.name, &inst, &out.tasks),
                }
            }
            _ => Column::exact(d.name, &inst, &d.build().allocate(&inst)?),
        });
    }
    if args.summary {
        return Ok(pretty(&finish_json(summary(&inst, &columns), numbers)));
    }
    if let Numbers::Decimals(n) = numbers
        && args.format != Format::Json
    {
        for c in &mut columns {
            for cell in c
                .tasks
                .iter_mut()
                .chain(&mut c.dominant_shares)
                .chain(&mut c.utilization)
            {
                *cell = round_text(cell, n);
            }
        }
    }
    Ok(match args.format {
        Format::Json => pretty(&finish_json(compare_json(&inst, &columns), numbers)),
        Format::Table => compare_table(&inst, &columns),
        Format::Csv => csv(&inst, &columns),
    })
}

/// `mechanism,exact,user,tasks,dominant_share`: one row per mechanism and user.
fn csv(inst: &leontief_solver::Instance, columns: &[Column]) -> String {
    let mut out = String::from("mechanism,exact,user,tasks,dominant_share\n");
    for c in columns {
        let exact = if c.exact { "true" } else { "false" };
        for i in 0..inst.num_users() {
            let user = inst.user_path(i);
            let fields = [&c.name, exact, &user, &c.tasks[i], &c.dominant_shares[i]];
            csv_line(&mut out, fields);
        }
    }
    out
}

/// Per mechanism: `{"mechanism", "exact", "tasks_total", "utilization", "saturated",
/// "dominant_share": {"min", "max"}}` (exact strings; decimals of an uncertified CEEI).
fn summary(inst: &leontief_solver::Instance, columns: &[Column]) -> Value {
    let read = |s: &String| s.parse::<Rational>().unwrap_or(Rational::ZERO);
    let mechanisms: Vec<MechanismSummary> = columns
        .iter()
        .map(|c| {
            let total: Rational = c.tasks.iter().map(read).sum();
            let shares: Vec<Rational> = c.dominant_shares.iter().map(read).collect();
            let (min, max) = (shares.iter().min(), shares.iter().max());
            let saturated: Vec<&String> = inst
                .resources()
                .iter()
                .zip(&c.utilization)
                .filter(|(_, u)| read(u) >= Rational::ONE)
                .map(|(r, _)| r)
                .collect();
            // Exact strings, or the decimals of an uncertified CEEI answer.
            let figure = |x: &Rational| {
                if c.exact {
                    x.to_string()
                } else {
                    format!("{:.9}", x.to_f64_lossy())
                }
            };
            MechanismSummary {
                mechanism: &c.name,
                exact: c.exact,
                tasks_total: figure(&total),
                utilization: ByName::zip(inst.resources(), &c.utilization),
                saturated,
                dominant_share: MinMax {
                    min: min.map(figure),
                    max: max.map(figure),
                },
            }
        })
        .collect();
    to_value(&CompareSummary {
        resources: inst.resources(),
        users: inst.num_users(),
        mechanisms,
    })
}

/// `compare --summary`.
#[derive(Serialize)]
struct CompareSummary<'a> {
    resources: &'a [String],
    users: usize,
    mechanisms: Vec<MechanismSummary<'a>>,
}

/// One mechanism's aggregate figures.
#[derive(Serialize)]
struct MechanismSummary<'a> {
    mechanism: &'a str,
    exact: bool,
    tasks_total: String,
    utilization: ByName<&'a String, &'a String>,
    saturated: Vec<&'a String>,
    dominant_share: MinMax<String>,
}
