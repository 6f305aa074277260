//! The subcommands: one module each, owning its flags (a clap `Args` struct) and its `run`.
//!
//! Every `run` reads and validates all of its flags into a typed configuration first, then
//! works; it returns what goes to standard output, whole, so that a failure never leaves half
//! an answer (the summaries of `verify` and `search` go to standard error).

pub mod check;
pub mod compare;
pub mod explore;
pub mod flags;
pub mod hdrf;
pub mod import;
pub mod merge;
pub mod order;
pub mod prove;
pub mod reproduce;
pub mod search;
pub mod simulate;
pub mod solve;
pub mod verify;

use clap::{Parser, Subcommand};
use serde_json::Value;

use crate::cli::CliError;

/// Exact multi-resource fair allocation: DRF and its variants, computed in exact rationals.
#[derive(Parser)]
#[command(name = "leontief", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Compute an allocation exactly and print it (JSON with exact "p/q" strings, or a table).
    Solve(solve::SolveArgs),
    /// Re-derive the sources' worked examples and show each value beside the source's.
    Reproduce(reproduce::ReproduceArgs),
    /// Decide properties of a mechanism on one instance, exactly, with a witness when one fails.
    Check(check::CheckArgs),
    /// Verify properties on generated instances (in parallel; deterministic per seed).
    Verify(verify::VerifyArgs),
    /// Run every flat mechanism on one instance, side by side (the DRF paper's Figure 4).
    Compare(compare::CompareArgs),
    /// Allocate on a weighted tree with a hierarchical policy (static fluid allocation, exact).
    Hdrf(hdrf::HdrfArgs),
    /// Who is offered the next task: given what each leaf holds now, every node's exact
    /// share and guarantee deficit and the offer order under a scheduler's rule.
    Order(order::OrderArgs),
    /// Simulate task churn on a tree with a workload: shares over time, starvation, preemption.
    Simulate(simulate::SimulateArgs),
    /// Hunt counterexamples to properties: JSONL out, shrunk, deduplicated, flushed as found.
    Search(search::SearchArgs),
    /// Merge JSONL counterexample files (e.g. of shards), dropping duplicates; --best keeps
    /// the best record of explore outputs.
    Merge(merge::MergeArgs),
    /// Optimize a metric (a manipulation gain, a monotonicity loss, envy, the sharing-incentive
    /// gap) over generated instances: JSONL records of each improvement, exact, re-derived.
    Explore(explore::ExploreArgs),
    /// Decide a bounded statement (a property, or a bound on the manipulation gain, for every
    /// instance of a size) with an SMT solver: proved, refuted with a re-derived
    /// counterexample, or unknown.
    Prove(prove::ProveArgs),
    /// Import a production scheduler's configuration (a YARN allocation file, Kueue
    /// ClusterQueues and Cohorts) as a tree JSON file.
    Import(import::ImportArgs),
}

/// An answer written straight to standard output once the work is done (large answers:
/// nothing is built in memory first). It may only fail on writing.
pub type Stream = Box<dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>>;

/// What a command prints on standard output: text produced whole, or a [`Stream`] whose
/// work is already done.
pub enum Printed {
    /// The whole text.
    Text(String),
    /// A writer of the answer.
    Stream(Stream),
}

impl From<String> for Printed {
    fn from(text: String) -> Self {
        Printed::Text(text)
    }
}

impl Printed {
    /// The text, streamed into a string if need be.
    pub fn into_text(self) -> String {
        match self {
            Printed::Text(text) => text,
            Printed::Stream(mut write) => {
                let mut bytes = Vec::new();
                // Writing to a Vec cannot fail.
                let _ = write(&mut bytes);
                String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
            }
        }
    }
}

/// How a command ended: what it prints on standard output, and its error if it failed.
/// (A failed `reproduce` still prints its report.)
pub struct Outcome {
    /// Standard output, written once, whole (a stream's work is done, so only writing can
    /// fail).
    pub stdout: Printed,
    /// The failure, printed on standard error; it sets the exit code.
    pub error: Option<CliError>,
}

impl<T: Into<Printed>> From<Result<T, CliError>> for Outcome {
    fn from(result: Result<T, CliError>) -> Self {
        match result {
            Ok(printed) => Outcome {
                stdout: printed.into(),
                error: None,
            },
            Err(error) => Outcome {
                stdout: String::new().into(),
                error: Some(error),
            },
        }
    }
}

impl Command {
    /// Runs the subcommand.
    pub fn run(self) -> Outcome {
        match self {
            Command::Solve(args) => solve::run(args).into(),
            Command::Reproduce(args) => reproduce::run(args),
            Command::Check(args) => check::run(args).into(),
            Command::Verify(args) => noted(verify::run_with(&args), "").into(),
            Command::Compare(args) => compare::run(args).into(),
            Command::Hdrf(args) => hdrf::run(args).into(),
            Command::Order(args) => order::run(args).into(),
            Command::Simulate(args) => simulate::run(&args).into(),
            Command::Search(args) => search::run(args).into(),
            Command::Merge(args) => merge::run(args).into(),
            Command::Explore(args) => explore::run(args).into(),
            Command::Prove(args) => prove::run(args).into(),
            // The tree on standard output, each warning on standard error.
            Command::Import(args) => noted(import::run_with(&args), "warning: ").into(),
        }
    }
}

/// What a command prints on standard output, once its notes (`verify`'s tallies, `import`'s
/// warnings, `merge`'s tally) are written on standard error, each line after `prefix`.
pub(crate) fn noted(
    result: Result<(String, Vec<String>), CliError>,
    prefix: &str,
) -> Result<String, CliError> {
    let (text, notes) = result?;
    for note in notes {
        eprintln!("{prefix}{note}");
    }
    Ok(text)
}

/// Pretty JSON with a final newline: a document type, or a [`Value`].
pub fn pretty<T: serde::Serialize + ?Sized>(v: &T) -> String {
    // A document of strings, numbers and maps with string keys always serializes.
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// Pretty JSON of one answer, or of the list of several, with numbers printed as `numbers`
/// says ([`finish_json`](crate::output::finish_json)).
pub fn one_or_list(mut answers: Vec<Value>, numbers: crate::output::Numbers) -> String {
    let answer = match answers.len() {
        1 => answers.swap_remove(0),
        _ => Value::Array(answers),
    };
    pretty(&crate::output::finish_json(answer, numbers))
}

/// A document type as a [`Value`], for the writers that take one (`--decimals` rounds its
/// exact strings).
pub fn to_value<T: serde::Serialize + ?Sized>(doc: &T) -> Value {
    // A document of strings, numbers and maps with string keys always serializes.
    serde_json::to_value(doc).unwrap_or(Value::Null)
}

/// The smallest and largest of some figures (`--summary`s), each with what attains it.
#[derive(serde::Serialize)]
pub(crate) struct MinMax<T> {
    pub(crate) min: Option<T>,
    pub(crate) max: Option<T>,
}

/// A usage error: `flag` does not apply (exit code 2).
pub(crate) fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

/// A spinner on standard error while the work runs ([`crate::workers::progress`]).
pub(crate) fn spinner(message: String) -> indicatif::ProgressBar {
    let bar = crate::workers::progress(None);
    bar.set_message(message);
    // A hidden display needs no ticker thread (starting one costs more than a small solve).
    if !bar.is_hidden() {
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
    }
    bar
}

/// A usage error when `given` (`flag`, which prints `the {what}`) is asked for in a `format`
/// other than JSON.
pub(crate) fn json_only(
    given: bool,
    flag: &str,
    what: &str,
    format: impl Into<&'static str>,
) -> Result<(), CliError> {
    let format: &str = format.into();
    if given && format != "json" {
        return Err(usage(format!(
            "{flag}: the {what} is printed in JSON; not with --format {format}"
        )));
    }
    Ok(())
}

/// Runs `work` with its JSONL records written as found, one line each, flushed, to `out` (the
/// file is created when `work` calls `ready`: once every flag is validated, before the work) or
/// standard output; flushed per line so that an interrupted run loses nothing. The summaries
/// `work` returns go to standard error; nothing is left for standard output at the end. The
/// shared driver of `search` and `explore`.
pub(crate) fn with_jsonl_out(
    out: Option<&str>,
    work: impl FnOnce(
        &mut (dyn FnMut(&serde_json::Value) -> std::io::Result<()> + Send),
        &dyn Fn() -> Result<(), CliError>,
    ) -> Result<Vec<String>, CliError>,
) -> Result<String, CliError> {
    use std::io::Write;
    use std::sync::{Mutex, PoisonError};
    let sink: Mutex<Option<Box<dyn Write + Send>>> = Mutex::new(None);
    let ready = || {
        *sink.lock().unwrap_or_else(PoisonError::into_inner) = Some(match out {
            Some(path) => Box::new(create(path)?),
            None => Box::new(std::io::stdout()),
        });
        Ok(())
    };
    let summaries = work(
        &mut |record| match sink.lock().unwrap_or_else(PoisonError::into_inner).as_mut() {
            Some(w) => {
                writeln!(w, "{record}")?;
                w.flush()
            }
            None => Ok(()),
        },
        &ready,
    )?;
    for text in summaries {
        eprint!("{text}");
    }
    Ok(String::new())
}

/// One CSV line: the fields comma-separated, each quoted where it must be
/// ([`write_csv_field`](crate::output::write_csv_field)).
pub(crate) fn csv_line<S: AsRef<str>>(out: &mut String, fields: impl IntoIterator<Item = S>) {
    for (k, field) in fields.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        crate::output::write_csv_field(field.as_ref(), out);
    }
    out.push('\n');
}

/// Creates (or truncates) an output file (once the flags are validated, before the work).
pub(crate) fn create(path: &str) -> Result<std::fs::File, CliError> {
    std::fs::File::create(path).map_err(|e| CliError::read(path, e))
}
