//! `leontief import`: a production scheduler's configuration as a tree JSON file.
//!
//! `leontief import yarn FILE --capacity 16384,10` reads a YARN Fair Scheduler allocation
//! file; `leontief import kueue FILE` reads Kueue `ClusterQueue` and `Cohort` objects. The
//! tree goes to standard output; what the tree cannot express goes to standard error as
//! warnings (and to the tree's `note`), or, with `--strict`, fails the import. See
//! [`crate::import`] for the mapping.

use clap::{Args, ValueEnum};
use leontief_solver::json::{check_vector, Sign};

use crate::cli::{
    csv_numbers, read_text, read_text_within, rename, shown_path, CliError, MAX_CONFIG_BYTES,
};
use crate::commands::{pretty, usage};
use crate::import::{kueue, yarn, Demands};

/// The configuration formats `leontief import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A YARN Fair Scheduler allocation file (fair-scheduler.xml).
    Yarn,
    /// Kueue ClusterQueue and Cohort objects (a multi-document YAML stream).
    Kueue,
}

/// The flags of `leontief import`.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// The configuration's format.
    #[arg(value_enum)]
    pub format: Format,
    /// The configuration file, or - for standard input.
    pub file: String,
    /// The cluster's capacity (yarn only, required: an allocation file does not state it):
    /// numbers in resource order (memory-mb, vcores, then other resource types in the order
    /// the file names them), or YARN's syntax ("memory-mb=16384, vcores=10"). Kueue's capacity
    /// is the sum of the nominal quotas.
    #[arg(long)]
    pub capacity: Option<String>,
    /// Demands of the leaves: a JSON object keyed by queue name (yarn: root.a.b; kueue: the
    /// ClusterQueue's name), each {"demand": [..], "tasks": n, "usage": [..]} or
    /// {"jobs": [{"name", "demand", "tasks", "usage", "weight"}, ..]} (the queue becomes a pool
    /// of its jobs). Leaves it does not name get --demand, or are idle (all-zero demand).
    #[arg(long, value_name = "FILE")]
    pub demands: Option<String>,
    /// The per-task demand of every leaf the demands file does not name (comma-separated, one
    /// number per resource); without it they are idle.
    #[arg(long, value_name = "VECTOR")]
    pub demand: Option<String>,
    /// Fail instead of warning when the configuration has elements the tree cannot express.
    #[arg(long)]
    pub strict: bool,
}

/// The work of `leontief import`: the tree JSON text it prints and the warnings it writes on
/// standard error (what the tree cannot express, also joined in the tree's `note`), returned
/// instead of written (the Python package's `import_yarn` and `import_kueue`).
///
/// # Errors
/// Unreadable files, malformed configurations (errors name the element path), flags that do
/// not apply, and, with `--strict`, anything dropped.
pub fn run_with(args: &ImportArgs) -> Result<(String, Vec<String>), CliError> {
    let default = match &args.demand {
        None => None,
        Some(text) => {
            let d = csv_numbers("--demand", text)?;
            // Signs only: the length is checked against the resources when applied.
            check_vector("--demand", &d, d.len(), Sign::NonNegative)?;
            Some(d)
        }
    };
    let demands = match &args.demands {
        None => Demands {
            default,
            ..Demands::default()
        },
        Some(path) => Demands::from_json_str(&read_text(path)?, default)?,
    };
    let text = read_text_within(&args.file, MAX_CONFIG_BYTES)?;
    // An error about the whole document (malformed, too large, too deep) names the file read
    // instead of the format: `bomb.yaml: YAML aliases expand past …`.
    let name_file = |e, document| rename(e, document, shown_path(&args.file));
    let mut imported = match args.format {
        Format::Yarn => {
            let capacity = args.capacity.as_deref().ok_or_else(|| {
                usage("leontief import yarn needs --capacity (an allocation file does not state the cluster's size), e.g. --capacity 16384,10 for memory-mb and vcores")
            })?;
            yarn::import(&text, capacity).map_err(|e| name_file(e, yarn::DOCUMENT))?
        }
        Format::Kueue => {
            if args.capacity.is_some() {
                return Err(usage(
                    "--capacity does not apply to kueue: the capacity is the sum of the nominal quotas",
                ));
            }
            kueue::import(&text).map_err(|e| name_file(e, kueue::DOCUMENT))?
        }
    };
    imported.apply(&demands)?;
    if args.strict && !imported.warnings.is_empty() {
        return Err(usage(format!(
            "--strict: the configuration has what a tree cannot express: {}",
            imported.warnings.join(" ")
        )));
    }
    Ok((pretty(&imported), imported.warnings))
}
