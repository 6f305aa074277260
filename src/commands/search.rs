//! `leontief search`: hunt counterexamples to properties; JSONL records out, flushed as
//! found; a summary per property on standard error, stating the domain searched.

use std::io::Write;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use clap::Args;
use leontief_counterexamples::search::{search, SearchConfig, SearchSummary};
use leontief_counterexamples::shrink::ShrinkConfig;
use leontief_counterexamples::space::Strategy;
use leontief_solver::properties::Property;
use leontief_solver::registry::Descriptor;
use serde_json::Value;

use crate::cli::CliError;
use crate::commands::flags::{
    Domain, GeneratorFlags, LimitFlags, MechanismParser, NameParser, NumberFlags, RunControl,
    RunFlags,
};
use crate::commands::{create, usage};
use crate::output::finish_json;
use crate::workers::{progress, thread_pool};

/// The flags of `leontief search`.
#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// The mechanism.
    #[arg(long, default_value = "drf", value_parser = MechanismParser)]
    pub mechanism: &'static Descriptor,
    /// Properties, comma-separated (searched one after the other, each with the whole
    /// --time and --budget; every record names its property).
    #[arg(long, required = true, value_delimiter = ',', value_parser = NameParser::<Property>::new("property").with_help(Property::description))]
    pub property: Vec<Property>,
    /// Which instances: grid and random interleaved, random only, or the grid then stop.
    #[arg(long, default_value = "combined", value_parser = NameParser::<Strategy>::new("strategy"))]
    pub strategy: Strategy,
    /// Stop after this many distinct counterexamples (per property).
    #[arg(long)]
    pub max_found: Option<usize>,
    /// gsp-strong, gsp-weak: the most liars per coalition (default: every user).
    #[arg(long)]
    pub max_liars: Option<usize>,
    /// Report counterexamples as found, without shrinking them.
    #[arg(long)]
    pub no_shrink: bool,
    /// How instances are drawn.
    #[command(flatten)]
    pub generator: GeneratorFlags,
    /// Time, budget and shard.
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Threads and output.
    #[command(flatten)]
    pub run: RunFlags,
    /// How numbers are printed.
    #[command(flatten)]
    pub numbers: NumberFlags,
}

/// `search`'s configuration, validated: one search per property.
struct Config {
    mechanism: &'static Descriptor,
    searches: Vec<SearchConfig>,
    domain: Domain,
    control: RunControl,
}

fn config(args: &SearchArgs) -> Result<Config, CliError> {
    let domain = args.generator.domain(true)?;
    let control = args.run.control(Some(&args.limits))?;
    if args.max_found == Some(0) {
        return Err(usage("--max-found: expected at least 1, found 0"));
    }
    if args.max_liars == Some(0) {
        return Err(usage("--max-liars: expected at least 1"));
    }
    let coalitions = [Property::GspStrong, Property::GspWeak];
    if args.max_liars.is_some() && !args.property.iter().any(|p| coalitions.contains(p)) {
        return Err(usage(
            "--max-liars applies to --property gsp-strong or gsp-weak",
        ));
    }
    let searches = args
        .property
        .iter()
        .map(|&property| {
            let mut cfg =
                SearchConfig::new(property, args.generator.seed, domain.generator.clone());
            cfg.values = domain.values.clone().unwrap_or_default();
            cfg.strategy = args.strategy;
            cfg.shard = control.shard;
            cfg.budget = control.budget;
            cfg.time = control.time;
            if cfg.budget.is_none() && cfg.time.is_none() && cfg.strategy != Strategy::Exhaustive {
                cfg.time = Some(Duration::from_secs(30));
            }
            cfg.max_found = args.max_found;
            cfg.max_liars = args.max_liars;
            cfg.shrink = (!args.no_shrink).then(ShrinkConfig::default);
            cfg
        })
        .collect();
    Ok(Config {
        mechanism: args.mechanism,
        searches,
        domain,
        control,
    })
}

/// Runs `leontief search`. The records go to `--out` or standard output as they are found
/// (nothing is returned for standard output at the end).
pub fn run(args: SearchArgs) -> Result<String, CliError> {
    let sink: Mutex<Option<Box<dyn Write + Send>>> = Mutex::new(None);
    // The output file is created once everything is validated, before the work.
    let ready = || {
        *sink.lock().unwrap_or_else(PoisonError::into_inner) =
            Some(match args.run.out.as_deref() {
                Some(path) => Box::new(create(path)?),
                None => Box::new(std::io::stdout()),
            });
        Ok(())
    };
    let summaries = run_with(
        &args,
        &mut |record| match sink.lock().unwrap_or_else(PoisonError::into_inner).as_mut() {
            Some(w) => write_line(w.as_mut(), record),
            None => Ok(()),
        },
        &ready,
    )?;
    for text in summaries {
        eprint!("{text}");
    }
    Ok(String::new())
}

/// The work of `leontief search` with the records handed to `on_record` as found (with the
/// numbers as `--decimals` asks) instead of written; `ready` runs once the flags are
/// validated, before the work. Returns each property's summary as the CLI prints it on
/// standard error. Stops early (by `cancelled`) when [`crate::workers::with_cancel`]'s flag
/// is set.
pub fn run_with(
    args: &SearchArgs,
    on_record: &mut (dyn FnMut(&Value) -> std::io::Result<()> + Send),
    ready: &dyn Fn() -> Result<(), CliError>,
) -> Result<Vec<String>, CliError> {
    let numbers = args.numbers.numbers()?;
    let mut cfg = config(args)?;
    let cancel = crate::workers::cancel_flag();
    for s in &mut cfg.searches {
        s.cancel.clone_from(&cancel);
    }
    let mech = cfg.mechanism.build();
    let pool = thread_pool(cfg.control.threads)?;
    ready()?;
    let mut summaries = Vec::new();
    for search_cfg in &cfg.searches {
        let bar = progress(None);
        let tick = |s: &SearchSummary| {
            let secs = s.elapsed.as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{}: {} units, {} scenarios ({:.0}/s), {} found",
                search_cfg.property,
                s.units,
                s.scenarios,
                s.scenarios as f64 / secs,
                s.found
            ));
            bar.tick();
        };
        let result = pool.install(|| {
            search(
                mech.as_ref(),
                search_cfg,
                &mut |r| on_record(&finish_json(r.to_json(), numbers)),
                &tick,
            )
        });
        bar.finish_and_clear();
        let summary = result.map_err(|e| CliError::Internal(format!("writing output: {e}")))?;
        summaries.push(summary_text(
            cfg.mechanism.name,
            search_cfg,
            &cfg.domain,
            &summary,
        ));
        if summary.stop == Some(leontief_counterexamples::search::Stop::Cancelled) {
            break;
        }
    }
    Ok(summaries)
}

/// Writes one JSONL line and flushes it, so an interrupted run loses nothing.
fn write_line(w: &mut dyn Write, value: &Value) -> std::io::Result<()> {
    writeln!(w, "{value}")?;
    w.flush()
}

/// The human summary printed on standard error.
fn summary_text(mechanism: &str, cfg: &SearchConfig, domain: &Domain, s: &SearchSummary) -> String {
    let secs = s.elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        s.scenarios as f64 / secs
    } else {
        0.0
    };
    let mut out = format!(
        "search {mechanism} {}: {} units, {} scenarios in {:.2} s ({:.0} scenarios/s); \
         {} counterexample(s), {} duplicate(s) dropped; stopped by {}",
        cfg.property.name(),
        s.units,
        s.scenarios,
        secs,
        rate,
        s.found,
        s.duplicates,
        s.stop.map_or("-", |x| x.name()),
    );
    if let Some(t) = s.first_found {
        out += &format!("; first after {:.2} s", t.as_secs_f64());
    }
    if cfg.shard.count > 1 {
        out += &format!(
            "; shard {}/{} (next unit {})",
            cfg.shard.index, cfg.shard.count, s.next_unit
        );
    }
    out += &format!(
        "\n  domain: {}, strategy {}",
        domain.summary(),
        cfg.strategy
    );
    if s.errors > 0 {
        out += &format!("\n{} mechanism error(s), e.g.:", s.errors);
        for e in &s.error_messages {
            out += &format!("\n  {e}");
        }
    }
    out.push('\n');
    out
}
