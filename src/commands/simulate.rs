//! `leontief simulate`: the task-level simulator ([`leontief_hdrf::simulate`]) on a tree with
//! a workload — parse, run, print JSON (or the time series as CSV).

use clap::Args;
use leontief_hdrf::simulate::{simulate, Record, Scenario, SimConfig, SimPolicy, Simulation};
use leontief_solver::{read_number, Rational, SolverError};
use serde_json::Value;

use crate::cli::{read_text, CliError};
use crate::commands::flags::{NameParser, NumberFlags};
use crate::commands::pretty;
use crate::output::{finish_json, round_csv, Numbers};

/// The flags of `leontief simulate`.
#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    /// Workload JSON file, or - for standard input: the tree
    /// ({"resources", "capacity", "tree"}) plus "workload" and "horizon".
    pub file: String,
    /// The scheduling policy: a tree policy or FIFO.
    #[arg(long, default_value = "min-satisfaction", value_parser = NameParser::<SimPolicy>::new("policy"))]
    pub policy: SimPolicy,
    /// K identical machines of capacity R/K each (a task must fit on one); default: one
    /// pooled cluster.
    #[arg(long, value_name = "K")]
    pub machines: Option<u64>,
    /// Preemption: a node below its guarantee (with unmet demand) for this long preempts the
    /// youngest tasks of the most over-satisfied nodes. Default: no preemption.
    #[arg(long, value_name = "T")]
    pub preempt_after: Option<String>,
    /// Seed of the random durations (overrides the file's "seed").
    #[arg(long)]
    pub seed: Option<u64>,
    /// End of simulated time (overrides the file's "horizon").
    #[arg(long, value_name = "T")]
    pub horizon: Option<String>,
    /// Record the time series at 0, DT, 2DT, ... instead of at every event time.
    #[arg(long, value_name = "DT")]
    pub every: Option<String>,
    /// Leave out the time series: the summary only.
    #[arg(long)]
    pub no_series: bool,
    /// Print the time series as CSV (time,path,dominant_share,satisfaction); the per-node
    /// summary goes to standard error.
    #[arg(long)]
    pub csv: bool,
    /// How numbers are printed.
    #[command(flatten)]
    pub numbers: NumberFlags,
}

impl SimulateArgs {
    /// Flags for `file` with every default (`--policy min-satisfaction`, pooled, no
    /// preemption, the file's seed and horizon, every event recorded, JSON).
    ///
    /// # Example
    /// ```
    /// use leontief::hdrf::simulate::SimPolicy;
    /// let args = leontief::commands::simulate::SimulateArgs::new("examples/lecture-churn.json");
    /// assert_eq!(args.policy, SimPolicy::MinSatisfaction);
    /// ```
    pub fn new(file: impl Into<String>) -> Self {
        SimulateArgs {
            file: file.into(),
            policy: SimPolicy::MinSatisfaction,
            machines: None,
            preempt_after: None,
            seed: None,
            horizon: None,
            every: None,
            no_series: false,
            csv: false,
            numbers: NumberFlags::default(),
        }
    }
}

/// Runs `leontief simulate` and returns what goes to standard output, whole: pretty JSON with
/// a newline, or the CSV time series. With `--csv` the summary is printed to standard error
/// (only once the run has succeeded).
///
/// # Errors
/// [`CliError::Input`] naming the field or flag, [`CliError::Usage`] for flags that do not
/// fit together, [`CliError::Read`] for an unreadable file: all exit code 2.
///
/// # Example
/// ```
/// use leontief::commands::simulate::{run, SimulateArgs};
/// use leontief::hdrf::simulate::SimPolicy;
/// let mut args = SimulateArgs::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/lecture-churn.json"));
/// args.policy = SimPolicy::Naive;
/// args.no_series = true;
/// let out: serde_json::Value = serde_json::from_str(&run(&args).unwrap()).unwrap();
/// let b1 = out["nodes"].as_array().unwrap().iter().find(|n| n["name"] == "B1").unwrap();
/// assert_eq!(b1["min_share_steady"], "0");
/// assert_eq!(b1["starved"], true);
/// ```
pub fn run(args: &SimulateArgs) -> Result<String, CliError> {
    let policy = args.policy;
    let numbers = args.numbers.numbers()?;
    if args.machines == Some(0) {
        return Err(CliError::Usage(
            "--machines: expected at least one machine, found 0".into(),
        ));
    }
    if args.no_series && (args.csv || args.every.is_some()) {
        return Err(CliError::Usage(
            "--no-series leaves out the time series; not with --csv or --every".into(),
        ));
    }
    let mut config = SimConfig::new(policy);
    config.machines = args.machines;
    config.seed = args.seed;
    if let Some(t) = &args.preempt_after {
        config.preemption = Some(positive_flag("--preempt-after", t)?);
    }
    if let Some(t) = &args.horizon {
        config.horizon = Some(positive_flag("--horizon", t)?);
    }
    config.record = match (&args.every, args.no_series) {
        (Some(dt), _) => Record::Every(positive_flag("--every", dt)?),
        (None, true) => Record::Off,
        (None, false) => Record::Events,
    };
    let text = read_text(&args.file)?;
    let scenario = Scenario::from_json_str(&text)?;
    let bar = crate::workers::progress(None);
    bar.set_message("simulating");
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let result = simulate(&scenario, &config);
    bar.finish_and_clear();
    let result = result.map_err(|e| match e {
        SolverError::Invalid { field, reason } if field == "horizon" && args.horizon.is_none() => {
            SolverError::invalid(
                field,
                format!("{reason}; give \"horizon\" in the file or --horizon"),
            )
        }
        other => rename(rename(other, "machines", "--machines"), "every", "--every"),
    })?;
    if args.csv {
        eprint!("{}", summary_text(&scenario, &result));
        let csv = result.series_csv(&scenario.tree);
        return Ok(match numbers {
            Numbers::Exact => csv,
            Numbers::Decimals(n) => round_csv(&csv, n),
        });
    }
    Ok(pretty(&finish_json(
        result.to_json(&scenario.tree),
        numbers,
    )))
}

fn positive_flag(flag: &str, text: &str) -> Result<Rational, CliError> {
    let x = read_number(flag, &Value::String(text.trim().to_string()))?;
    if !x.is_positive() {
        return Err(
            SolverError::invalid(flag, format!("expected a positive number, found {x}")).into(),
        );
    }
    Ok(x)
}

/// Names a library field after the flag it came from.
fn rename(err: SolverError, field: &str, flag: &str) -> SolverError {
    match err {
        SolverError::Invalid { field: f, reason } if f == field => {
            SolverError::invalid(flag, reason)
        }
        other => other,
    }
}

/// The per-node summary as text (for standard error beside the CSV).
fn summary_text(scenario: &Scenario, run: &Simulation) -> String {
    let tree = &scenario.tree;
    let mut out = format!(
        "simulate: {} on {}, horizon {}, steady state [{}, {}), tasks started {}, completed {}, preempted {}\n",
        run.policy.name(),
        match run.machines {
            Some(k) => format!("{k} machines"),
            None => "the pooled cluster".into(),
        },
        run.horizon,
        run.warmup,
        run.horizon,
        run.started,
        run.completed,
        run.preempted
    );
    for v in tree.nodes() {
        let s = &run.nodes[v.index()];
        out.push_str(&format!(
            "  {}: guaranteed {}, time-average {}, min (steady) {}, below guarantee {} (longest {}){}\n",
            tree.path(v),
            tree.guaranteed_share(v),
            s.time_average_share,
            s.min_share_steady,
            s.time_below_guarantee,
            s.longest_below_guarantee,
            if s.starved { ", STARVED" } else { "" }
        ));
    }
    out
}
