//! `leontief simulate`: the task-level simulator ([`leontief_hdrf::simulate`]) on a tree with
//! a workload — parse, run (one policy or all side by side), print JSON, a table, or the time
//! series as CSV, and optionally draw the shares over time as SVG.

use clap::{Args, ValueEnum};
use leontief_hdrf::simulate::{
    require_positive, simulate, Record, Scenario, SimConfig, SimPolicy, Simulation, SimulationDoc,
    DEFAULT_MAX_EVENTS, SCENARIO_FIELDS,
};
use leontief_hdrf::tiebreak::TieBreaks;
use leontief_solver::{Rational, SolverError};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::cli::{in_file, read_text, rename, CliError};
use crate::commands::flags::{NumberFlags, OneOrAll, OneOrAllParser};
use crate::commands::{pretty, to_value, usage};
use crate::output::{finish_csv, finish_json, Numbers};
use leontief_counterexamples::doc::ByName;

/// The flags of `leontief simulate`.
#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    /// Workload JSON file, or - for standard input: the tree
    /// ({"resources", "capacity", "tree"}) plus "workload" and "horizon".
    pub file: String,
    /// A workload JSON file ({"workload": {..}, "horizon", "seed", "warmup",
    /// "starvation_tolerance"}) to run on FILE's tree, e.g. one written by leontief import;
    /// FILE must then have none of these keys.
    #[arg(long, value_name = "FILE")]
    pub workload: Option<String>,
    /// The scheduling policy: a tree policy, FIFO, or all (every policy on the same workload,
    /// side by side: JSON with one section per policy under "runs", or one table).
    #[arg(long, default_value = "min-satisfaction", value_parser = OneOrAllParser(&SimPolicy::ALL))]
    pub policy: OneOrAll<SimPolicy>,
    /// How ties between siblings with equal keys are broken, a chain of first (input order),
    /// count (fewest tasks started, Mesos), lru (least recently served), name (YARN);
    /// e.g. count,name. Input order decides what the chain leaves tied.
    #[arg(long, default_value = "count", value_name = "RULE,..")]
    pub tie: String,
    /// The most events (task completions, arrivals, preemption checks) a run may handle
    /// before the horizon; a workload that needs more is an error.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_EVENTS)]
    pub max_events: u64,
    /// Output format (json: the runs with their time series; table: the summary of every node
    /// under each policy, side by side).
    #[arg(long, value_enum, default_value = "json")]
    pub format: SimFormat,
    /// Also draw every node's dominant share over time (a step plot per policy) into this SVG
    /// file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
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
/// use clap::Parser;
/// use leontief::commands::simulate::run;
/// use leontief::commands::{Cli, Command};
/// use leontief::hdrf::simulate::SimPolicy;
/// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/lecture-churn.json");
/// // `simulate FILE` with these flags, every other flag at its default.
/// let line = |flags: &[&str]| {
///     match Cli::parse_from(["leontief", "simulate", file].iter().chain(flags)).command {
///         Command::Simulate(args) => args,
///         _ => unreachable!(),
///     }
/// };
/// assert_eq!(line(&[]).policy.0, [SimPolicy::Tree(leontief_hdrf::Policy::MinSatisfaction)]);
/// let args = line(&["--policy", "naive", "--no-series"]);
/// let out: serde_json::Value = serde_json::from_str(&run(&args).unwrap()).unwrap();
/// let b1 = out["nodes"].as_array().unwrap().iter().find(|n| n["name"] == "B1").unwrap();
/// assert_eq!(b1["min_share_steady"], "0");
/// assert_eq!(b1["starved"], true);
/// ```
pub fn run(args: &SimulateArgs) -> Result<String, CliError> {
    let policies = &args.policy.0;
    let numbers = args.numbers.numbers()?;
    if args.machines == Some(0) {
        return Err(usage("--machines: expected at least one machine, found 0"));
    }
    if args.max_events == 0 {
        return Err(usage("--max-events: expected at least one event, found 0"));
    }
    if args.no_series && (args.csv || args.every.is_some() || args.svg.is_some()) {
        return Err(usage(
            "--no-series leaves out the time series; not with --csv, --every or --svg",
        ));
    }
    if args.csv && policies.len() > 1 {
        return Err(usage(
            "--csv prints the time series of one policy; not with --policy all",
        ));
    }
    if args.csv && args.format != SimFormat::Json {
        return Err(usage(
            "--csv prints the time series; not with --format table",
        ));
    }
    if args.format == SimFormat::Table && args.every.is_some() && args.svg.is_none() {
        return Err(usage(
            "--every sets the step of the time series; --format table shows none (draw it with --svg)",
        ));
    }
    if args.format == SimFormat::Table && numbers != Numbers::Exact {
        return Err(usage(
            "--decimals: the table is printed with exact values; use --format json or --csv",
        ));
    }
    let tie: TieBreaks = args.tie.parse().map_err(|e| rename(e, "tie", "--tie"))?;
    let mut config = SimConfig::new(policies[0])
        .tie(tie)
        .max_events(args.max_events);
    config.machines = args.machines;
    config.seed = args.seed;
    if let Some(t) = &args.preempt_after {
        config.preemption = Some(positive_flag("--preempt-after", t)?);
    }
    if let Some(t) = &args.horizon {
        config.horizon = Some(positive_flag("--horizon", t)?);
    }
    config.record = match (&args.every, args.no_series, args.format) {
        (Some(dt), _, _) => Record::Every(positive_flag("--every", dt)?),
        (None, true, _) => Record::Off,
        // A table shows the summary only; the series is kept when it is drawn.
        (None, false, SimFormat::Table) if args.svg.is_none() => Record::Off,
        (None, false, _) => Record::Events,
    };
    let text = read_text(&args.file)?;
    let scenario = match &args.workload {
        None => in_file(&args.file, Scenario::from_json_str(&text))?,
        Some(path) => Scenario::from_json(&with_workload(&text, path)?)?,
    };
    let bar = crate::commands::spinner("simulating".into());
    let mut runs = Vec::with_capacity(policies.len());
    for &policy in policies {
        config.policy = policy;
        let result = simulate(&scenario, &config);
        let result = result.map_err(|e| match e {
            SolverError::Invalid { field, reason }
                if field == "horizon" && args.horizon.is_none() =>
            {
                SolverError::invalid(
                    field,
                    format!("{reason}; give \"horizon\" in the file or --horizon"),
                )
            }
            SolverError::Invalid { field, reason } if field == "max_events" => {
                SolverError::invalid("--max-events", format!("{policy}: {reason}"))
            }
            other => rename(rename(other, "machines", "--machines"), "every", "--every"),
        })?;
        runs.push(result);
    }
    bar.finish_and_clear();
    if let Some(path) = &args.svg {
        crate::plot::write_svg(path, crate::plot::shares_over_time(&scenario.tree, &runs)?)?;
    }
    if args.csv {
        eprint!("{}", summary_text(&scenario, &runs[0]));
        let csv = runs[0].series_csv(&scenario.tree);
        return Ok(finish_csv(csv, numbers));
    }
    Ok(match args.format {
        SimFormat::Table => leontief_hdrf::simulate::render_comparison(&scenario.tree, &runs),
        SimFormat::Json if runs.len() == 1 => pretty(&finish_json(
            to_value(&runs[0].document(&scenario.tree)),
            numbers,
        )),
        SimFormat::Json => {
            let names: Vec<&str> = runs.iter().map(|r| r.policy.name()).collect();
            let docs: Vec<SimulationDoc> =
                runs.iter().map(|r| r.document(&scenario.tree)).collect();
            let all = AllRuns {
                policy: "all",
                runs: ByName::zip(&names, &docs),
            };
            pretty(&finish_json(to_value(&all), numbers))
        }
    })
}

/// Output format of `simulate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimFormat {
    /// Every run as JSON (exact strings), with its time series.
    Json,
    /// Every node's summary under each policy, side by side.
    Table,
}

fn positive_flag(flag: &str, text: &str) -> Result<Rational, CliError> {
    let x = crate::cli::number_flag(flag, text)?;
    require_positive(flag, "number", &x)?;
    Ok(x)
}

/// The per-node summary as text (for standard error beside the CSV).
fn summary_text(scenario: &Scenario, run: &Simulation) -> String {
    let tree = &scenario.tree;
    let mut out = format!(
        "simulate: {} (ties: {}) on {}, horizon {}, steady state [{}, {}), tasks started {}, completed {}, preempted {}\n",
        run.policy.name(),
        run.tie,
        match run.machines {
            Some(k) => format!("{k} machines"),
            None => "the pooled cluster".into(),
        },
        run.horizon,
        run.warmup,
        run.horizon,
        run.tasks.started,
        run.tasks.completed,
        run.tasks.preempted
    );
    for v in tree.nodes() {
        let s = &run.nodes[v.index()];
        out.push_str(&format!(
            "  {}: guaranteed {}, time-average {}, min (steady) {}, below guarantee {} (longest {}, by a task or more {}){}\n",
            tree.path(v),
            tree.node(v).guaranteed_share(),
            s.time_average_share,
            s.min_share_steady,
            s.time_below_guarantee,
            s.longest_below_guarantee,
            s.longest_below_by_a_task,
            if s.starved { ", STARVED" } else { "" }
        ));
    }
    out
}

/// The tree JSON `text` with the keys of the workload file at `path` added.
///
/// # Errors
/// [`CliError::Input`] on a file that is not a JSON object, a key of the workload file that is
/// not a workload key, or a workload key the tree file has already.
fn with_workload(text: &str, path: &str) -> Result<Value, CliError> {
    let parse = |text: &str, what: &str| -> Result<Map<String, Value>, CliError> {
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => Ok(m),
            Ok(_) => Err(SolverError::invalid(what, "expected a JSON object").into()),
            Err(e) => Err(SolverError::invalid(what, format!("not JSON: {e}")).into()),
        }
    };
    let mut tree = parse(text, "file")?;
    let workload = parse(&read_text(path)?, "--workload")?;
    for (key, value) in workload {
        if !SCENARIO_FIELDS.contains(&key.as_str()) {
            return Err(SolverError::invalid(
                format!("--workload.{key}"),
                format!(
                    "not a workload key (expected {})",
                    SCENARIO_FIELDS.join(", ")
                ),
            )
            .into());
        }
        if tree.contains_key(&key) {
            return Err(SolverError::invalid(
                format!("--workload.{key}"),
                "the tree file has it already; give it in one place",
            )
            .into());
        }
        tree.insert(key, value);
    }
    Ok(Value::Object(tree))
}

/// `simulate --policy all --format json`: each policy's run, keyed by its name.
#[derive(Serialize)]
struct AllRuns<'a> {
    policy: &'static str,
    runs: ByName<&'a SimulationDoc<'a>, &'a &'a str>,
}
