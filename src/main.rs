//! The `leontief` command line. See `leontief --help`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use leontief::cli::{load_instance, CliError};
use leontief::properties_cmd::{check_cmd, verify_cmd, ScenarioFlags, VerifyFlags};
use leontief::render::{
    allocation_json, allocation_table, ceei_json, compare_json, compare_table, filling_trace_json,
    Column,
};
use leontief::reproduce;
use leontief::solver::ceei::Ceei;
use leontief::solver::lp::LexMaxMin;
use leontief::solver::{
    Allocation, AssetFairness, DiscreteDrf, Drf, Machines, MisfitRule, TieBreak,
};
use serde_json::{json, Map, Value};

/// Exact multi-resource fair allocation: DRF and its variants, computed in exact rationals.
#[derive(Parser)]
#[command(name = "leontief", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compute an allocation exactly and print it (JSON with exact "p/q" strings, or a table).
    Solve(SolveArgs),
    /// Re-derive the sources' worked examples and show each value beside the source's.
    Reproduce(ReproduceArgs),
    /// Decide properties of a mechanism on one instance, exactly, with a witness when one fails.
    Check(CheckArgs),
    /// Verify a property on generated instances (in parallel; deterministic per seed).
    Verify(VerifyArgs),
    /// Run every flat mechanism on one instance, side by side (the DRF paper's Figure 4).
    Compare(CompareArgs),
    /// Allocate on a weighted tree with a hierarchical policy (static fluid allocation, exact).
    Hdrf(HdrfArgs),
    /// Simulate task churn on a tree with a workload: shares over time, starvation, preemption.
    Simulate(leontief::simulate_cmd::SimulateArgs),
    /// Hunt counterexamples to a property: JSONL out, shrunk, deduplicated, flushed as found.
    Search(SearchArgs),
    /// Merge JSONL counterexample files (e.g. of shards), dropping duplicates.
    Merge(MergeArgs),
}

#[derive(Args)]
struct SearchArgs {
    /// The mechanism: drf, drf-common-level, discrete-drf, asset, ceei, drf-lp, asset-lp, or
    /// hdrf:POLICY (collapsed, naive, min-satisfaction, hdrf) on path-named users or a tree file.
    #[arg(long, default_value = "drf")]
    mechanism: String,
    /// The property: sp, gsp-strong, gsp-weak, pm, rm, si, ef, po, srf, bf, bbf, sg.
    #[arg(long)]
    property: String,
    /// Users per instance, a..b (grid and random instances).
    #[arg(long, default_value = "2..4")]
    users: String,
    /// Resources per instance, a..b.
    #[arg(long, default_value = "2..3")]
    resources: String,
    /// The value grid: grid instances' demand entries (capacities 1) and grid lies.
    #[arg(long, default_value = "0,1/2,1")]
    values: String,
    /// Probability that a random instance's demand entry is zero (exact, e.g. 1/3).
    #[arg(long, default_value = "1/3")]
    zeros: String,
    /// Random instances get random weights.
    #[arg(long)]
    weights: bool,
    /// About a third of random instances' users get a task cap.
    #[arg(long)]
    caps: bool,
    /// Trees: random instances get a..b pools and grid instances the shapes "first users
    /// under the root, the rest in one pool" (user names become paths, e.g. p1/u3).
    #[arg(long)]
    pools: Option<String>,
    /// combined (grid and random interleaved), random, or exhaustive (the grid, then stop).
    #[arg(long, default_value = "combined")]
    strategy: String,
    /// Wall-time limit, e.g. 30s, 5m (default 30s unless --budget or exhaustive).
    #[arg(long)]
    time: Option<String>,
    /// Scenario budget: stop once this many scenarios were tried (deterministic).
    #[arg(long)]
    budget: Option<u64>,
    /// Stop after this many distinct counterexamples.
    #[arg(long)]
    max_found: Option<usize>,
    /// Seed: the same seed and budget give the same output, whatever --threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// This process's shard i/N of the search space (units k with k mod N = i).
    #[arg(long)]
    shard: Option<String>,
    /// The most liars per coalition (default: every user).
    #[arg(long)]
    max_liars: Option<usize>,
    /// Report counterexamples as found, without shrinking them.
    #[arg(long)]
    no_shrink: bool,
    /// Write the JSONL here (created or truncated) instead of standard output.
    #[arg(long)]
    out: Option<String>,
}

#[derive(Args)]
struct MergeArgs {
    /// JSONL files written by `leontief search` (or corpus files).
    #[arg(required = true)]
    files: Vec<String>,
    /// Re-verify every record exactly before merging.
    #[arg(long)]
    verify: bool,
    /// Write here instead of standard output.
    #[arg(long)]
    out: Option<String>,
}

#[derive(Args)]
struct HdrfArgs {
    /// Tree JSON file, or - for standard input:
    /// {"resources": [..], "capacity": [..], "tree": {"name": "root", "children": [..]}}
    file: String,
    /// collapsed, naive, min-satisfaction, hdrf, or all (side by side: with --format tree, a
    /// table of every node's dominant share and satisfaction under each policy, then each
    /// policy's tree; with json, an array of the four allocations).
    #[arg(long, default_value = "min-satisfaction")]
    policy: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    format: TreeFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TreeFormat {
    /// JSON: every node (pools too) with path, guaranteed share, allocation, dominant share,
    /// satisfaction and tasks, as exact strings.
    Json,
    /// The tree drawn on the terminal with those figures.
    Tree,
}

#[derive(Args)]
struct CompareArgs {
    /// Instance JSON file, or - for standard input.
    file: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
}

#[derive(Args)]
struct CheckArgs {
    /// Instance JSON file, or - for standard input.
    file: String,
    /// The mechanism: drf, drf-common-level, discrete-drf, asset, ceei, drf-lp, asset-lp, or
    /// hdrf:POLICY (collapsed, naive, min-satisfaction, hdrf) on path-named users or a tree file.
    #[arg(long, default_value = "drf")]
    mechanism: String,
    /// Properties, comma-separated: si, ef, po, srf, bf, bbf, sp, gsp-strong, gsp-weak, pm, rm, sg.
    #[arg(long)]
    property: String,
    /// SP/GSP scenario: NAME reports this demand (repeatable; the coalition is the liars
    /// plus whoever gains). Without it SP/GSP try a bounded set of structured lies.
    #[arg(long = "lie", value_name = "NAME=V1,V2,..")]
    lies: Vec<String>,
    /// PM scenario: this user leaves. Without it every single user leaves in turn.
    #[arg(long, value_name = "NAME")]
    remove: Option<String>,
    /// RM scenario: the new capacities (each at least the old). Without it a small grid.
    #[arg(long, value_name = "V1,V2,..")]
    capacity: Option<String>,
}

#[derive(Args)]
struct VerifyArgs {
    /// The mechanism: drf, drf-common-level, discrete-drf, asset, ceei, drf-lp, asset-lp, or
    /// hdrf:POLICY (collapsed, naive, min-satisfaction, hdrf) on path-named users or a tree file.
    #[arg(long, default_value = "drf")]
    mechanism: String,
    /// The property: si, ef, po, srf, bf, bbf, sp, gsp-strong, gsp-weak, pm, rm, sg.
    #[arg(long)]
    property: String,
    /// Number of generated instances.
    #[arg(long, default_value_t = 1000)]
    instances: u64,
    /// Seed: the same seed gives the same instances and the same summary.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Users per instance, a..b.
    #[arg(long, default_value = "2..5")]
    users: String,
    /// Resources per instance, a..b.
    #[arg(long, default_value = "2..3")]
    resources: String,
    /// Probability that a demand entry is zero (exact, e.g. 0.3 or 1/3).
    #[arg(long, default_value = "0")]
    zeros: String,
    /// Draw random weights.
    #[arg(long)]
    weights: bool,
    /// Give about a third of the users a task cap.
    #[arg(long)]
    caps: bool,
    /// Generate trees with a..b pools (user names become paths, e.g. p1/u3), for
    /// --mechanism hdrf:POLICY and --property sg.
    #[arg(long)]
    pools: Option<String>,
    /// Witnesses to report.
    #[arg(long, default_value_t = 3)]
    witnesses: usize,
    /// Worker threads (default: all cores). The summary does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MechanismName {
    /// Extended weighted DRF by progressive filling (zero demands, weights, caps).
    Drf,
    /// DRF that freezes every user at the first saturation.
    DrfCommonLevel,
    /// The DRF paper's Algorithm 1: whole tasks, one at a time.
    DiscreteDrf,
    /// Asset fairness: equal aggregate shares (progressive filling).
    Asset,
    /// CEEI (Eisenberg-Gale): numeric, certified exactly when the equilibrium is rational.
    Ceei,
    /// DRF as a lexicographic max-min LP sequence (microlp), recovered exactly.
    DrfLp,
    /// Asset fairness as an LP sequence, recovered exactly.
    AssetLp,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// JSON, every number an exact string.
    Json,
    /// A table for the terminal.
    Table,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Misfit {
    /// Stop at the first task that does not fit (the paper's pseudo-code).
    Stop,
    /// Skip that user and continue (Mesos, YARN).
    Skip,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Tie {
    /// Lower user index first.
    Order,
    /// Higher user index first (the paper's Table 1).
    Reverse,
}

#[derive(Args)]
struct SolveArgs {
    /// Instance JSON file, or - for standard input:
    /// {"resources": ["cpu","mem"], "capacity": [9, 18], "users": [{"name": "A", "demand": [1, 4], "weight": 1, "tasks": 10}]}
    file: Option<String>,
    /// The allocation rule.
    #[arg(long, value_enum, default_value = "drf")]
    mechanism: MechanismName,
    /// Include the steps: progressive-filling events, or every pick of discrete DRF.
    #[arg(long)]
    trace: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    format: Format,
    /// Inline instance: capacities, e.g. 9,18.
    #[arg(long, value_name = "R1,R2,..")]
    capacity: Option<String>,
    /// Inline instance: a user, e.g. A=1,4 or B=3,1:weight=2:tasks=5 (repeatable).
    #[arg(long = "user", value_name = "NAME=D1,D2,..")]
    users: Vec<String>,
    /// Inline instance: resource names, e.g. cpu,mem.
    #[arg(long, value_name = "NAME,..")]
    resources: Option<String>,
    /// discrete-drf: what to do when the picked task does not fit.
    #[arg(long, value_enum)]
    misfit: Option<Misfit>,
    /// discrete-drf: split the capacity into K identical machines filled one at a time.
    #[arg(long, value_name = "K")]
    machines: Option<u64>,
    /// discrete-drf: who goes first among equal shares.
    #[arg(long, value_enum)]
    tie_break: Option<Tie>,
}

#[derive(Args)]
struct ReproduceArgs {
    /// Examples to run (all when none is named); see --list.
    names: Vec<String>,
    /// Run every example.
    #[arg(long)]
    all: bool,
    /// List the examples and exit.
    #[arg(long)]
    list: bool,
    /// Output format: text with check marks, or json.
    #[arg(long, value_enum, default_value = "text")]
    format: ReproduceFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ReproduceFormat {
    /// Text with check marks.
    Text,
    /// JSON.
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve(args),
        Command::Reproduce(args) => reproduce_cmd(args),
        Command::Check(args) => check(args),
        Command::Verify(args) => verify(args),
        Command::Compare(args) => compare(args),
        Command::Hdrf(args) => hdrf_cmd(args),
        Command::Simulate(args) => leontief::simulate_cmd::run(&args).map_err(fail),
        Command::Search(args) => search(args),
        Command::Merge(args) => merge(args),
    };
    // Output is produced whole and written once, so a failure never leaves half an answer.
    let (text, code) = match result {
        Ok(text) => (Some(text), 0),
        Err((partial, err)) => {
            eprintln!("error: {err}");
            (partial, err.exit_code())
        }
    };
    if let Some(text) = text {
        let mut out = std::io::stdout().lock();
        if out
            .write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            return ExitCode::from(1);
        }
    }
    ExitCode::from(code as u8)
}

type Outcome = Result<String, (Option<String>, CliError)>;

fn fail(err: impl Into<CliError>) -> (Option<String>, CliError) {
    (None, err.into())
}

fn solve(args: SolveArgs) -> Outcome {
    let discrete_flags =
        args.misfit.is_some() || args.machines.is_some() || args.tie_break.is_some();
    if discrete_flags && args.mechanism != MechanismName::DiscreteDrf {
        return Err(fail(CliError::Usage(
            "--misfit, --machines and --tie-break apply to --mechanism discrete-drf only".into(),
        )));
    }
    if args.machines == Some(0) {
        return Err(fail(CliError::Usage(
            "--machines: expected at least one machine, found 0".into(),
        )));
    }
    let inst = load_instance(
        args.file.as_deref(),
        args.capacity.as_deref(),
        &args.users,
        args.resources.as_deref(),
    )
    .map_err(fail)?;
    let (name, allocation, extra) = match args.mechanism {
        MechanismName::Drf | MechanismName::DrfCommonLevel | MechanismName::Asset => {
            let (name, fill) = match args.mechanism {
                MechanismName::Drf => ("drf", Drf::extended().fill(&inst)),
                MechanismName::DrfCommonLevel => {
                    ("drf-common-level", Drf::common_level().fill(&inst))
                }
                _ => ("asset", AssetFairness.fill(&inst)),
            };
            let mut extra = Map::new();
            if args.trace {
                extra.insert("trace".into(), filling_trace_json(&inst, &fill));
            }
            (name.to_string(), Allocation::new(fill.tasks), extra)
        }
        MechanismName::Ceei => {
            let out = Ceei::new().solve(&inst).map_err(fail)?;
            if args.format == Format::Json || !out.certified {
                let mut v = ceei_json(&inst, &out);
                if args.format == Format::Table {
                    eprintln!("ceei: not certified; printing JSON with decimal values");
                }
                if let Some(o) = v.as_object_mut() {
                    o.remove("objective");
                }
                return Ok(pretty(&v));
            }
            let tasks = out.tasks_exact.clone().unwrap_or_default();
            ("ceei".to_string(), Allocation::new(tasks), Map::new())
        }
        MechanismName::DrfLp | MechanismName::AssetLp => {
            let lp = if args.mechanism == MechanismName::DrfLp {
                LexMaxMin::drf()
            } else {
                LexMaxMin::asset()
            };
            let out = lp.solve(&inst).map_err(fail)?;
            let mut extra = Map::new();
            extra.insert("lp_stages".into(), json!(out.stages.len()));
            extra.insert("max_float_error".into(), json!(out.max_float_error));
            let name = leontief::solver::Mechanism::name(&lp).to_string();
            (name, out.allocation(), extra)
        }
        MechanismName::DiscreteDrf => {
            let mut mech = DiscreteDrf::paper();
            if args.misfit == Some(Misfit::Skip) {
                mech = mech.with_misfit(MisfitRule::Skip);
            }
            if args.tie_break == Some(Tie::Reverse) {
                mech = mech.with_tie_break(TieBreak::ReverseUserOrder);
            }
            if let Some(k) = args.machines {
                mech = mech.with_machines(Machines::Split(k));
            }
            let out = mech.run(&inst, args.trace).map_err(fail)?;
            let mut extra = Map::new();
            extra.insert(
                "misfit".into(),
                json!(if mech.misfit == MisfitRule::Skip {
                    "skip"
                } else {
                    "stop"
                }),
            );
            extra.insert(
                "tie_break".into(),
                json!(if mech.tie_break == TieBreak::ReverseUserOrder {
                    "reverse-user-order"
                } else {
                    "user-order"
                }),
            );
            extra.insert(
                "machines".into(),
                match mech.machines {
                    Machines::Split(k) => json!(k),
                    _ => json!("pooled"),
                },
            );
            extra.insert("machines_used".into(), json!(out.machines_used));
            if args.trace {
                extra.insert("trace".into(), out.trace_json(&inst));
            }
            let tasks = out.tasks.iter().map(|&t| t.into()).collect();
            ("discrete-drf".to_string(), Allocation::new(tasks), extra)
        }
    };
    Ok(match args.format {
        Format::Json => pretty(&allocation_json(&name, true, &inst, &allocation, extra)),
        Format::Table => allocation_table(&format!("{name} (exact)"), &inst, &allocation),
    })
}

fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, (Option<String>, CliError)> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            return Err(fail(CliError::Usage(
                "--threads: expected at least 1".into(),
            )));
        }
        builder = builder.num_threads(t);
    }
    builder
        .build()
        .map_err(|e| fail(CliError::Internal(e.to_string())))
}

fn search(args: SearchArgs) -> Outcome {
    use leontief::search_cmd::{
        check_mechanism, search_config, summary_text, write_line, SearchFlags,
    };
    let flags = SearchFlags {
        mechanism: args.mechanism,
        property: args.property,
        users: args.users,
        resources: args.resources,
        values: args.values,
        zeros: args.zeros,
        weights: args.weights,
        caps: args.caps,
        pools: args.pools,
        strategy: args.strategy,
        time: args.time,
        budget: args.budget,
        max_found: args.max_found,
        seed: args.seed,
        shard: args.shard,
        max_liars: args.max_liars,
        no_shrink: args.no_shrink,
    };
    // Validate everything before creating the output file or starting threads.
    check_mechanism(&flags.mechanism).map_err(fail)?;
    let cfg = search_config(&flags).map_err(fail)?;
    let mech = leontief::mechanisms::by_name(&flags.mechanism).map_err(fail)?;
    let pool = thread_pool(args.threads)?;
    let mut sink: Box<dyn Write + Send> = match &args.out {
        Some(path) => Box::new(std::fs::File::create(path).map_err(|e| {
            fail(CliError::Read {
                path: path.clone(),
                message: e.to_string(),
            })
        })?),
        None => Box::new(std::io::stdout()),
    };
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let progress = |s: &leontief::counterexamples::search::SearchSummary| {
        let secs = s.elapsed.as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "{} units, {} scenarios ({:.0}/s), {} found",
            s.units,
            s.scenarios,
            s.scenarios as f64 / secs,
            s.found
        ));
        bar.tick();
    };
    let result = pool.install(|| {
        leontief::counterexamples::search::search(
            mech.as_ref(),
            &cfg,
            &mut |r| write_line(sink.as_mut(), &r.to_json()),
            &progress,
        )
    });
    bar.finish_and_clear();
    let summary = result.map_err(|e| fail(CliError::Internal(format!("writing output: {e}"))))?;
    eprint!("{}", summary_text(&flags.mechanism, &cfg, &summary));
    // The records were written as found; nothing more goes to standard output.
    Ok(String::new())
}

fn merge(args: MergeArgs) -> Outcome {
    let (text, read, dropped) =
        leontief::search_cmd::merge(&args.files, args.verify).map_err(fail)?;
    eprintln!(
        "merge: {read} record(s) read, {dropped} duplicate(s) dropped, {} kept",
        read - dropped
    );
    match args.out {
        Some(path) => {
            std::fs::write(&path, text).map_err(|e| {
                fail(CliError::Read {
                    path,
                    message: e.to_string(),
                })
            })?;
            Ok(String::new())
        }
        None => Ok(text),
    }
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string());
    s.push('\n');
    s
}

fn reproduce_cmd(args: ReproduceArgs) -> Outcome {
    if args.list {
        return Ok(reproduce::names().join("\n") + "\n");
    }
    if args.all && !args.names.is_empty() {
        return Err(fail(CliError::Usage(
            "give example names or --all, not both".into(),
        )));
    }
    let reports = reproduce::run(&args.names).map_err(fail)?;
    let text = match args.format {
        ReproduceFormat::Text => reproduce::render_text(&reports),
        ReproduceFormat::Json => pretty(&reproduce::render_json(&reports)),
    };
    let (_, failed) = reproduce::tally(&reports);
    if failed > 0 {
        // The report is the point: print it whole, then fail.
        return Err((
            Some(text),
            CliError::Mismatch(format!("{failed} values differ from their sources")),
        ));
    }
    Ok(text)
}

fn check(args: CheckArgs) -> Outcome {
    let inst = load_instance(Some(&args.file), None, &[], None).map_err(fail)?;
    let flags = ScenarioFlags {
        lies: args.lies,
        remove: args.remove,
        capacity: args.capacity,
    };
    let out = check_cmd(&args.mechanism, &args.property, &inst, &flags).map_err(fail)?;
    Ok(pretty(&out))
}

fn verify(args: VerifyArgs) -> Outcome {
    let flags = VerifyFlags {
        mechanism: args.mechanism,
        property: args.property,
        instances: args.instances,
        seed: args.seed,
        users: args.users,
        resources: args.resources,
        zeros: args.zeros,
        weights: args.weights,
        caps: args.caps,
        pools: args.pools,
        witnesses: args.witnesses,
    };
    // Validate everything before starting threads or a progress bar.
    leontief::mechanisms::by_name(&flags.mechanism).map_err(fail)?;
    leontief::properties_cmd::verify_config(&flags).map_err(fail)?;
    let pool = {
        let mut builder = rayon::ThreadPoolBuilder::new();
        if let Some(t) = args.threads {
            if t == 0 {
                return Err(fail(CliError::Usage(
                    "--threads: expected at least 1".into(),
                )));
            }
            builder = builder.num_threads(t);
        }
        builder
            .build()
            .map_err(|e| fail(CliError::Internal(e.to_string())))?
    };
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(flags.instances);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} instances  {per_sec}  eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let tick = || bar.inc(1);
    let result = pool.install(|| verify_cmd(&flags, &tick));
    bar.finish_and_clear();
    let (summary, cfg) = result.map_err(fail)?;
    eprintln!(
        "verify: {} of {} on {} instances, {} scenarios: {} violations{}",
        summary.property,
        summary.mechanism,
        summary.instances,
        summary.scenarios,
        summary.violations,
        if summary.error_count > 0 {
            format!(", {} errors", summary.error_count)
        } else {
            String::new()
        }
    );
    Ok(pretty(&summary.to_json(&cfg)))
}

fn compare(args: CompareArgs) -> Outcome {
    let inst = load_instance(Some(&args.file), None, &[], None).map_err(fail)?;
    let mut columns = Vec::new();
    for (name, _) in leontief::mechanisms::FLAT {
        if *name == "ceei" {
            let out = Ceei::new().solve(&inst).map_err(fail)?;
            columns.push(match &out.tasks_exact {
                Some(t) if out.certified => Column::exact(name, &inst, &Allocation::new(t.clone())),
                _ => Column::approximate(name, &inst, &out.tasks),
            });
            continue;
        }
        let mech = leontief::mechanisms::by_name(name).map_err(fail)?;
        let x = mech.allocate(&inst).map_err(fail)?;
        columns.push(Column::exact(name, &inst, &x));
    }
    Ok(match args.format {
        Format::Json => pretty(&compare_json(&inst, &columns)),
        Format::Table => compare_table(&inst, &columns),
    })
}

fn hdrf_cmd(args: HdrfArgs) -> Outcome {
    use leontief::hdrf::{allocate, render_comparison, render_tree, Policy, Tree};
    let policies: Vec<Policy> = if args.policy == "all" {
        Policy::ALL.to_vec()
    } else {
        vec![args.policy.parse::<Policy>().map_err(fail)?]
    };
    let text = leontief::cli::read_text(&args.file).map_err(fail)?;
    let tree = Tree::from_json_str(&text).map_err(fail)?;
    let allocs = policies
        .iter()
        .map(|&policy| allocate(&tree, policy).map_err(fail))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(match args.format {
        TreeFormat::Json if allocs.len() == 1 => pretty(&allocs[0].to_json(&tree)),
        TreeFormat::Json => pretty(&Value::Array(
            allocs.iter().map(|a| a.to_json(&tree)).collect(),
        )),
        TreeFormat::Tree => {
            let mut drawn = String::new();
            if allocs.len() > 1 {
                // Side by side first (dominant share and satisfaction), then each in full.
                drawn.push_str("dominant share (satisfaction) by policy\n");
                drawn.push_str(&render_comparison(&tree, &allocs));
                drawn.push('\n');
            }
            for alloc in &allocs {
                drawn.push_str(&format!("{}\n", alloc.policy.name()));
                drawn.push_str(&render_tree(&tree, alloc));
                drawn.push('\n');
            }
            drawn
        }
    })
}
