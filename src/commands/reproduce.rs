//! `leontief reproduce`: the sources' worked examples, each value beside the source's
//! (the examples live in [`crate::reproduce`]).

use clap::{Args, ValueEnum};

use crate::cli::CliError;
use crate::commands::{pretty, usage, Outcome};
use crate::reproduce;

/// The flags of `leontief reproduce`.
#[derive(Debug, Clone, Args)]
pub struct ReproduceArgs {
    /// Examples to run (all when none is named); see --list.
    pub names: Vec<String>,
    /// Run every example.
    #[arg(long)]
    pub all: bool,
    /// List the examples and exit.
    #[arg(long)]
    pub list: bool,
    /// Output format: text with check marks, or json.
    #[arg(long, value_enum)]
    pub format: Option<ReproduceFormat>,
}

/// Output format of `reproduce`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReproduceFormat {
    /// Text with check marks (the default).
    Text,
    /// JSON.
    Json,
}

/// Runs `leontief reproduce`: a report that does not match its sources is printed whole,
/// then the command fails (exit code 1).
pub fn run(args: ReproduceArgs) -> Outcome {
    match report(args) {
        // A failed comparison still prints its report.
        Ok((text, error)) => Outcome {
            error,
            ..Ok::<String, CliError>(text).into()
        },
        Err(error) => Err::<String, CliError>(error).into(),
    }
}

fn report(args: ReproduceArgs) -> Result<(String, Option<CliError>), CliError> {
    if args.list {
        if args.all || !args.names.is_empty() || args.format.is_some() {
            return Err(usage(
                "--list prints the example names; not with names, --all or --format",
            ));
        }
        return Ok((reproduce::names().join("\n") + "\n", None));
    }
    if args.all && !args.names.is_empty() {
        return Err(usage("give example names or --all, not both"));
    }
    let reports = reproduce::run(&args.names)?;
    let text = match args.format.unwrap_or(ReproduceFormat::Text) {
        ReproduceFormat::Text => reproduce::render_text(&reports),
        ReproduceFormat::Json => pretty(&reproduce::render_json(&reports)),
    };
    let (_, failed) = reproduce::tally(&reports);
    // The report is the point: print it whole, then fail.
    let error = (failed > 0)
        .then(|| CliError::Mismatch(format!("{failed} values differ from their sources")));
    Ok((text, error))
}
