//! `leontief solve`: one mechanism on one instance, exactly, as JSON or a table.

use std::borrow::Cow;

use clap::{Args, ValueEnum};
use leontief_solver::registry::{Descriptor, Engine};
use leontief_solver::{
    Allocation, AssetFairness, DiscreteTieBreak, Instance, Machines, MisfitRule, Rational,
};
use serde_json::{Map, Value};

use leontief_counterexamples::mechanisms;

use crate::cli::CliError;
use crate::commands::flags::{rule, InstanceInput, MechanismParser, NumberFlags, RulesFlags};
use crate::commands::{json_only, spinner, usage, Printed};
use crate::output::allocation::{write_csv, write_json, write_summary, Answer};
use crate::output::{Numbers, Sink};
use crate::render::{allocation_table, filling_trace_json};

/// The flags of `leontief solve`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// The instance.
    #[command(flatten)]
    pub input: InstanceInput,
    /// The allocation rule.
    #[arg(long, default_value = "drf", value_parser = MechanismParser)]
    pub mechanism: &'static Descriptor,
    /// How a tree's guarantees and limits are read and used (hdrf:* mechanisms).
    #[command(flatten)]
    pub rules: RulesFlags,
    /// Include the steps: progressive-filling events (drf, drf-common-level, asset), or
    /// every pick of discrete-drf; JSON only.
    #[arg(long)]
    pub trace: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// How numbers are printed.
    #[command(flatten)]
    pub numbers: NumberFlags,
    /// Print aggregate figures only (JSON): consumption, utilization, saturated resources,
    /// total tasks, the smallest and largest tasks and shares (with a user attaining each)
    /// and the number of distinct weighted-share levels.
    #[arg(long)]
    pub summary: bool,
    /// discrete-drf: what to do when the picked task does not fit.
    #[arg(long, value_parser = rule::<MisfitRule>())]
    pub misfit: Option<MisfitRule>,
    /// discrete-drf: split the capacity into K identical machines filled one at a time.
    #[arg(long, value_name = "K")]
    pub machines: Option<u64>,
    /// discrete-drf: who goes first among equal shares.
    #[arg(long, value_enum)]
    pub tie_break: Option<Tie>,
    /// asset: how the exact answer is written — every user's tasks as one fraction
    /// (`expanded`, the default), or the saturation levels once and one small coefficient per
    /// user (`level-coefficient`: `tasks = level × coefficient`; output proportional to the
    /// answer's size, docs/theory.md §2.4). JSON only.
    #[arg(long, value_enum)]
    pub form: Option<AnswerForm>,
}

/// How `solve --mechanism asset` writes its exact answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AnswerForm {
    /// Every user's tasks as one exact fraction.
    Expanded,
    /// The saturation levels once, then per user `level` and `coefficient` (or `tasks` for a
    /// user stopped by its cap).
    LevelCoefficient,
}

/// Output format of `solve` and `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Format {
    /// JSON, every number an exact string (a JSON number with --decimals).
    Json,
    /// A table for the terminal.
    Table,
    /// CSV with a header row, one row per user (solve) or per mechanism and user (compare),
    /// for spreadsheets and pandas.
    Csv,
}

/// discrete-drf's tie-break among equal shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Tie {
    /// Lower user index first.
    Order,
    /// Higher user index first (the paper's Table 1).
    Reverse,
}

/// `solve`'s flags, validated.
struct Config<'a> {
    args: &'a SolveArgs,
    /// The mechanism's engine, with the options given on the command line.
    plan: Engine,
    numbers: Numbers,
}

fn config(args: &SolveArgs) -> Result<Config<'_>, CliError> {
    let name = args.mechanism.name;
    let discrete_flags =
        args.misfit.is_some() || args.machines.is_some() || args.tie_break.is_some();
    if discrete_flags && !matches!(args.mechanism.engine, Engine::Discrete(_)) {
        return Err(usage(
            "--misfit, --machines and --tie-break apply to --mechanism discrete-drf only",
        ));
    }
    if args.machines == Some(0) {
        return Err(usage("--machines: expected at least one machine, found 0"));
    }
    let mut plan = args.mechanism.engine.clone();
    if let Engine::Discrete(mech) = &mut plan {
        if let Some(rule) = args.misfit {
            *mech = mech.clone().with_misfit(rule);
        }
        if args.tie_break == Some(Tie::Reverse) {
            *mech = mech
                .clone()
                .with_tie_break(DiscreteTieBreak::ReverseUserOrder);
        }
        if let Some(k) = args.machines {
            *mech = mech.clone().with_machines(Machines::Split(k));
        }
    }
    let numbers = args.numbers.numbers()?;
    if args.form.is_some() && !matches!(args.mechanism.engine, Engine::Asset) {
        return Err(usage(format!(
            "--form: the level-coefficient form is asset's; not with --mechanism {name}"
        )));
    }
    if args.form == Some(AnswerForm::LevelCoefficient)
        && (args.format != Format::Json || args.summary || args.trace || numbers != Numbers::Exact)
    {
        return Err(usage(
            "--form level-coefficient: the exact compact form is JSON only, without --summary, --trace or --decimals",
        ));
    }
    json_only(args.summary, "--summary", "summary", args.format)?;
    if args.trace {
        if args.summary {
            return Err(usage(
                "--trace: the summary prints aggregate figures only; not with --summary",
            ));
        }
        json_only(true, "--trace", "trace", args.format)?;
        if !plan.has_trace() {
            // The mechanisms with steps, from the table.
            let traced: Vec<&str> = mechanisms::all()
                .iter()
                .filter(|d| d.engine.has_trace())
                .map(|d| d.name)
                .collect();
            let (last, init) = traced.split_last().unwrap_or((&"", &[]));
            return Err(usage(format!(
                "--trace: {name} has no trace ({} and {last} have)",
                init.join(", ")
            )));
        }
    }
    Ok(Config {
        args,
        plan,
        numbers,
    })
}

/// Runs `leontief solve`: the answer is computed whole, then streamed (JSON, CSV) or
/// returned as text (the table, whose column widths need every cell first).
pub fn run(args: SolveArgs) -> Result<Printed, CliError> {
    let cfg = config(&args)?;
    args.rules.for_mechanism(args.mechanism)?;
    let inst = args.input.load_with(&args.rules)?;
    let progress = spinner(format!("solving ({} users)", inst.num_users()));
    let result = solved(&cfg, inst).map(|solved| print(&cfg, solved));
    progress.finish_and_clear();
    result
}

/// `solve`'s answer before it is printed: the allocation with what the JSON writes beside it,
/// or (CEEI's own JSON, asset's compact forms) the printed answer itself.
#[non_exhaustive]
pub enum Solved {
    /// The allocation, printed by `write_json`, `write_csv`, `write_summary` or as a table.
    Answer(Box<Solution>),
    /// An answer with its own layout, already printed.
    Printed(Printed),
}

/// An allocation as `solve` answers it, with what the JSON writes beside it (owned).
pub type Solution = Answer<'static>;

/// The work of `leontief solve` without the printing when the answer is an allocation in
/// JSON with exact numbers (the Python package turns it into objects directly); every other
/// output is returned printed. Flags, instance and errors as [`run`].
pub fn run_solved(args: SolveArgs) -> Result<Solved, CliError> {
    let cfg = config(&args)?;
    let inst = args.input.load()?;
    let solved = solved(&cfg, inst)?;
    Ok(match solved {
        Solved::Answer(_)
            if cfg.args.format == Format::Json
                && !cfg.args.summary
                && cfg.numbers == Numbers::Exact =>
        {
            solved
        }
        other => Solved::Printed(print(&cfg, other)),
    })
}

fn solved(cfg: &Config<'_>, inst: leontief_solver::Instance) -> Result<Solved, CliError> {
    let compact =
        cfg.args.form == Some(AnswerForm::LevelCoefficient) || cfg.numbers != Numbers::Exact;
    if matches!(cfg.plan, Engine::Asset)
        && compact
        && cfg.args.format == Format::Json
        && !cfg.args.summary
        && !cfg.args.trace
    {
        // Asset fairness from its level-coefficient form: written as such (exact), or each
        // user's tasks rounded from it without expanding the fractions.
        let fill = leontief_solver::asset::fill_compact(&inst);
        let (name, decimals) = (cfg.args.mechanism.name, cfg.numbers.digits());
        return Ok(Solved::Printed(Printed::Stream(Box::new(
            move |mut out| fill.write_json(&inst, name, decimals, &mut out),
        ))));
    }
    let mut extra = Map::new();
    // The total use of each resource, when the mechanism summed it exactly on the way.
    let mut known = None;
    let mut weighted_shares = None;
    let allocation = match &cfg.plan {
        Engine::Filling(drf) => {
            let mut fill = drf.fill(&inst);
            // DRF's levels are the weighted shares (asset fairness's are not).
            if cfg.args.summary {
                weighted_shares = Some(std::mem::take(&mut fill.levels));
            }
            filled(&inst, fill, cfg.args.trace, &mut extra, &mut known)
        }
        Engine::Asset => filled(
            &inst,
            AssetFairness.fill(&inst),
            cfg.args.trace,
            &mut extra,
            &mut known,
        ),
        Engine::Ceei(ceei) => {
            use crate::output::ceei::{exact_limits, CeeiAnswer, ExactForm};
            let limits = exact_limits();
            let solved = ceei.solve_exact_figures(&inst, &limits)?;
            let answer = CeeiAnswer::new(solved, cfg.numbers, &limits, cfg.args.summary);
            let json = cfg.args.format == Format::Json && !cfg.args.summary;
            if let (Some(tasks), false) = (answer.rational_tasks(), json) {
                // A certified rational answer as any exact allocation (table, CSV, summary).
                Allocation::new(tasks.to_vec())
            } else {
                let (numbers, format, summary) = (cfg.numbers, cfg.args.format, cfg.args.summary);
                if let ExactForm::Algebraic(figures) = &answer.exact {
                    if format == Format::Table {
                        let table = crate::output::ceei::algebraic_table(&inst, numbers, figures);
                        return Ok(Solved::Printed(table.into()));
                    }
                } else if !json {
                    eprintln!("ceei: not certified; printing JSON with decimal values");
                }
                return Ok(Solved::Printed(Printed::Stream(Box::new(move |out_| {
                    let mut sink = Sink::new(out_);
                    match (&answer.exact, format, summary) {
                        (ExactForm::Algebraic(figures), Format::Csv, _) => {
                            crate::output::ceei::write_algebraic_csv(&mut sink, &inst, figures)
                        }
                        (ExactForm::Algebraic(figures), _, true) => {
                            crate::output::ceei::write_algebraic_summary(
                                &mut sink, numbers, &inst, figures,
                            )
                        }
                        _ => crate::output::ceei::write_json(&mut sink, numbers, &inst, &answer),
                    }
                    sink.finish()
                }))));
            }
        }
        Engine::Lp(lp) => {
            let out = lp.solve(&inst)?;
            extra.insert("lp_stages".into(), Value::from(out.stages.len()));
            extra.insert("max_float_error".into(), Value::from(out.max_float_error));
            out.allocation()
        }
        Engine::Discrete(mech) => {
            let out = mech.run(&inst, cfg.args.trace)?;
            let tie_break = match mech.tie_break {
                DiscreteTieBreak::ReverseUserOrder => "reverse-user-order",
                _ => "user-order",
            };
            extra.insert("misfit".into(), Value::from(mech.misfit.name()));
            extra.insert("tie_break".into(), Value::from(tie_break));
            extra.insert(
                "machines".into(),
                match mech.machines {
                    Machines::Split(k) => Value::from(k),
                    _ => Value::from("pooled"),
                },
            );
            extra.insert("machines_used".into(), Value::from(out.machines_used));
            if cfg.args.trace {
                extra.insert("trace".into(), out.trace_json(&inst));
            }
            Allocation::new(out.tasks.iter().map(|&t| t.into()).collect())
        }
        Engine::Plain(construct) => construct().allocate(&inst)?,
    };
    Ok(Solved::Answer(Box::new(Solution {
        mechanism: cfg.args.mechanism.name,
        exact: !matches!(cfg.plan, Engine::Plain(_)) || allocation.tolerance.is_none(),
        instance: Cow::Owned(inst),
        allocation: Cow::Owned(allocation),
        extra,
        consumption: known,
        weighted_shares,
    })))
}

fn print(cfg: &Config<'_>, solved: Solved) -> Printed {
    let mut s = match solved {
        Solved::Printed(printed) => return printed,
        Solved::Answer(solution) => solution,
    };
    let numbers = cfg.numbers;
    if cfg.args.format == Format::Table {
        let name = s.mechanism;
        let title = match numbers {
            Numbers::Exact => format!("{name} (exact)"),
            Numbers::Decimals(n) => format!("{name} (exact, rounded to {n} significant digits)"),
        };
        return allocation_table(&title, &s.instance, &s.allocation, numbers).into();
    }
    let (format, summary) = (cfg.args.format, cfg.args.summary);
    Printed::Stream(Box::new(move |out| {
        let mut sink = Sink::new(out);
        match (format, summary) {
            (Format::Csv, _) => write_csv(&mut sink, numbers, &s.instance, &s.allocation),
            (_, true) => write_summary(&mut sink, numbers, &mut s),
            _ => write_json(&mut sink, numbers, &mut s),
        }
        sink.finish()
    }))
}

fn filled(
    inst: &Instance,
    fill: leontief_solver::drf::Filling,
    trace: bool,
    extra: &mut Map<String, serde_json::Value>,
    consumption: &mut Option<Vec<Rational>>,
) -> Allocation {
    if trace {
        extra.insert("trace".into(), filling_trace_json(inst, &fill));
    }
    let mut fill = fill;
    *consumption = Some(std::mem::take(&mut fill.consumption));
    let tasks = std::mem::take(&mut fill.tasks);
    // The rest (an exact level per user) is freed on another thread: at 100,000 users that
    // is some 300,000 allocations, freed one by one while the answer could be printing. (If
    // no thread can be started, the closure and the filling with it are dropped here.)
    if tasks.len() >= FREE_ELSEWHERE {
        let _ = std::thread::Builder::new().spawn(move || drop(fill));
    }
    Allocation::new(tasks)
}

/// From how many users [`filled`] frees the filling's other fields on another thread.
const FREE_ELSEWHERE: usize = 10_000;
