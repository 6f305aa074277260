//! `leontief prove`: decide a bounded statement — a mechanism's property, or a bound on its
//! manipulation gain, on every instance with `n` users and `m` resources — with an SMT
//! solver (z3, run as a separate process) over encodings proved in docs/theory.md §6.
//! The answer is `proved`, `refuted` (with a counterexample re-derived exactly, in the
//! record format of `search`) or `unknown` (the open cases listed). `--cross-check cvc5` has
//! cvc5 re-decide every case of a `proved` verdict.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use leontief_counterexamples::prove::{self, Goal, Options, ProveError, Solver, Statement};
use leontief_solver::properties::Property;
use leontief_solver::read_number;

use crate::cli::CliError;
use crate::commands::flags::{parse_duration, NameParser};
use crate::commands::{pretty, usage};
use crate::workers::thread_pool;

/// The flags of `leontief prove`.
#[derive(Debug, Clone, Args)]
pub struct ProveArgs {
    /// The mechanism: drf, drf-common-level, asset, ceei, or hdrf:collapsed on every tree of
    /// --users leaves (the ones with an encoding; docs/theory.md §6.10).
    #[arg(long)]
    pub mechanism: String,
    /// The property claimed: sp, gsp-strong, gsp-weak, si, ef, pm or rm.
    #[arg(long, value_parser = NameParser::<Property>::new("property").with_help(Property::description))]
    pub property: Option<Property>,
    /// A metric bounded instead of a property (with --bound): sp-gain, gsp-gain or
    /// welfare-ratio (at most the bound), pm-loss or rm-loss (at least the bound).
    #[arg(long)]
    pub metric: Option<String>,
    /// The bound claimed for --metric, a number such as 3/2 (at least 1 for sp-gain,
    /// gsp-gain and welfare-ratio, positive for pm-loss and rm-loss).
    #[arg(long)]
    pub bound: Option<String>,
    /// The number of users n.
    #[arg(long)]
    pub users: usize,
    /// The number of resources m.
    #[arg(long)]
    pub resources: usize,
    /// Demands (true and reported) strictly positive; by default they may be zero.
    #[arg(long)]
    pub positive: bool,
    /// Users have any positive weights (by default all weigh 1).
    #[arg(long)]
    pub weights: bool,
    /// Users have any positive task caps (drf and asset; by default none).
    #[arg(long)]
    pub caps: bool,
    /// gsp-strong, gsp-weak, gsp-gain: the coalition's size k, users u1..uk (default: every
    /// user).
    #[arg(long)]
    pub coalition: Option<usize>,
    /// The time limit of each case, e.g. 60s, 10m.
    #[arg(long, default_value = "60s")]
    pub time: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: ProveFormat,
    /// Write every case as an SMT-LIB 2 file into this directory (created if need be).
    #[arg(long, value_name = "DIR")]
    pub emit_smt: Option<PathBuf>,
    /// The z3 executable (default: $LEONTIEF_Z3, else `z3` on PATH).
    #[arg(long, value_name = "PATH")]
    pub solver: Option<PathBuf>,
    /// After a proved verdict, re-decide every case with this second solver: cvc5 (its
    /// Python bindings, `pip install cvc5`). A case it answers sat makes the verdict unknown.
    #[arg(long, value_enum, value_name = "SOLVER")]
    pub cross_check: Option<CrossChecker>,
    /// With --cross-check cvc5: the Python interpreter that has the cvc5 module (default:
    /// $LEONTIEF_CVC5, else `python3` on PATH).
    #[arg(long, value_name = "PYTHON")]
    pub cvc5: Option<PathBuf>,
    /// Worker threads deciding cases (default: all cores). The answer does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The second solver of `--cross-check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CrossChecker {
    /// cvc5 through its Python bindings (cylindrical algebraic coverings, complete for QF_NRA).
    Cvc5,
}

/// Output format of `prove`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProveFormat {
    /// JSON: the statement, its domain, the verdict, every case, the counterexample.
    Json,
    /// A few lines for the terminal.
    Text,
}

fn statement(args: &ProveArgs) -> Result<Statement, CliError> {
    let mechanism: prove::ProvedMechanism = args.mechanism.parse()?;
    let goal = match (&args.property, &args.metric, &args.bound) {
        (Some(p), None, None) => Goal::Property(*p),
        (None, Some(metric), Some(bound)) => {
            let bound = read_number("--bound", &serde_json::Value::String(bound.clone()))?;
            let encoded = (metric.parse().ok()).and_then(|m| Goal::bounding(m, bound));
            encoded.ok_or_else(|| {
                usage(format!(
                    "--metric: unknown metric {metric:?} for prove (expected sp-gain, \
                     gsp-gain, welfare-ratio, pm-loss or rm-loss)"
                ))
            })?
        }
        (None, Some(_), None) => return Err(usage("--metric needs --bound")),
        (None, None, Some(_)) => return Err(usage("--bound applies to --metric")),
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err(usage(
                "give either --property or --metric with --bound, not both",
            ))
        }
        (None, None, None) => return Err(usage("give --property, or --metric with --bound")),
    };
    Ok(Statement::new(
        mechanism,
        goal,
        args.users,
        args.resources,
        args.positive,
        args.weights,
        args.caps,
        args.coalition,
    )?)
}

/// Runs `leontief prove`.
pub fn run(args: ProveArgs) -> Result<String, CliError> {
    let statement = statement(&args)?;
    let time = parse_duration(&args.time)?;
    if args.threads == Some(0) {
        return Err(usage("--threads: expected at least 1"));
    }
    if args.cvc5.is_some() && args.cross_check != Some(CrossChecker::Cvc5) {
        return Err(usage("--cvc5: applies to --cross-check cvc5"));
    }
    // Found before any work, so that a missing cvc5 is an error, not a late surprise.
    let checker = match args.cross_check {
        Some(CrossChecker::Cvc5) => Some(Solver::find_cvc5(args.cvc5.as_deref()).map_err(error)?),
        None => None,
    };
    let solver = Solver::find(args.solver.as_deref()).map_err(error)?;
    let options = Options {
        time,
        emit_smt: args.emit_smt.clone(),
    };
    let proof = thread_pool(args.threads)?
        .install(|| {
            let proof = prove::prove(&statement, &solver, &options)?;
            match &checker {
                Some(checker) => prove::cross_check(&statement, proof, checker, time),
                None => Ok(proof),
            }
        })
        .map_err(error)?;
    Ok(match args.format {
        ProveFormat::Json => pretty(&proof.to_json(&statement)),
        ProveFormat::Text => proof.to_text(&statement),
    })
}

/// A missing solver, a bad statement or an unwritable directory are the user's to fix
/// (exit 2); a solver fault or a model that does not re-derive are the tool's (exit 1).
pub(crate) fn error(e: ProveError) -> CliError {
    match e {
        ProveError::Input(e) => CliError::Input(e),
        ProveError::NoSolver(_) | ProveError::NoCrossChecker(_) => CliError::Usage(e.to_string()),
        ProveError::Write { path, message } => CliError::Read { path, message },
        other => CliError::Internal(other.to_string()),
    }
}
