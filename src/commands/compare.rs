//! `leontief compare`: every flat mechanism on one instance, side by side.

use clap::Args;
use leontief_solver::ceei::Ceei;
use leontief_solver::registry::flat_mechanisms;
use leontief_solver::Allocation;

use crate::cli::CliError;
use crate::commands::flags::InstanceInput;
use crate::commands::pretty;
use crate::commands::solve::Format;
use crate::render::{compare_json, compare_table, Column};

/// The flags of `leontief compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// The instance.
    #[command(flatten)]
    pub input: InstanceInput,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
}

/// Runs `leontief compare`: one column per flat mechanism of the table, in its order.
pub fn run(args: CompareArgs) -> Result<String, CliError> {
    let inst = args.input.load()?;
    let mut columns = Vec::new();
    for d in flat_mechanisms() {
        if d.name == "ceei" {
            // Its exact answer when certified, else its decimals, marked approximate.
            let out = Ceei::new().solve(&inst)?;
            columns.push(match &out.tasks_exact {
                Some(t) if out.certified => {
                    Column::exact(d.name, &inst, &Allocation::new(t.clone()))
                }
                _ => Column::approximate(d.name, &inst, &out.tasks),
            });
            continue;
        }
        let x = d.build().allocate(&inst)?;
        columns.push(Column::exact(d.name, &inst, &x));
    }
    Ok(match args.format {
        Format::Json => pretty(&compare_json(&inst, &columns)),
        Format::Table => compare_table(&inst, &columns),
    })
}
