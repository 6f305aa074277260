//! `leontief explore`: maximize (or minimize) a metric over generated instances — the
//! search's instance space and flags, an optimizer instead of a yes/no hunt. JSONL records
//! out, one per improvement, flushed as found, the last marked `"best": true`; a summary on
//! standard error (docs/explore.md).

use std::io::Write;
use std::time::Duration;

use clap::Args;
use leontief_counterexamples::explore::{
    explore, ExploreConfig, ExploreSummary, MetricName, Utility,
};
use leontief_counterexamples::space::Strategy;
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

/// `--help`'s text under `--metric`: every metric's definition, from the metric list.
fn metric_help(m: MetricName) -> &'static str {
    m.description()
}

/// The flags of `leontief explore`.
#[derive(Debug, Clone, Args)]
pub struct ExploreArgs {
    /// The mechanism.
    #[arg(long, default_value = "drf", value_parser = MechanismParser)]
    pub mechanism: &'static Descriptor,
    /// The metric to optimize (direction and definition in docs/explore.md).
    #[arg(long, required = true, value_parser = NameParser::<MetricName>::new("metric").with_help(metric_help))]
    pub metric: MetricName,
    /// How utilities are measured before the ratio: tasks, or dominant share with
    /// capacities scaled to 1 (default: tasks, except dominant-share for welfare-ratio and
    /// fair-welfare-ratio; the per-user ratios differ only for rm-loss, whose capacities
    /// change; discrete-gap and sg-deficit are ratios of dominant shares either way).
    #[arg(long, value_parser = NameParser::<Utility>::new("utility"))]
    pub utility: Option<Utility>,
    /// Which seed instances: grid and random interleaved, random only, or the grid then stop.
    #[arg(long, default_value = "combined", value_parser = NameParser::<Strategy>::new("strategy"))]
    pub strategy: Strategy,
    /// Local-search tasks per round (restarts from the best instances; 0: sampling only).
    #[arg(long, default_value_t = 32)]
    pub local: usize,
    /// Report improvements as found, without shrinking them.
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

/// `explore`'s configuration, validated.
struct Config {
    mechanism: &'static Descriptor,
    explore: ExploreConfig,
    domain: Domain,
    control: RunControl,
}

fn config(args: &ExploreArgs) -> Result<Config, CliError> {
    let metric = args.metric.metric();
    metric.applies_to(args.mechanism).map_err(|reason| {
        usage(format!(
            "--metric: {} does not apply to {}: {reason}",
            metric.name(),
            args.mechanism.name
        ))
    })?;
    if args.utility.is_some() && !metric.uses_utility() {
        return Err(usage(format!(
            "--utility: {} is a ratio of dominant shares; --utility does not apply",
            metric.name()
        )));
    }
    let domain = args.generator.domain(true)?;
    let control = args.run.control(Some(&args.limits))?;
    let mut cfg = ExploreConfig::new(args.metric, args.generator.seed, domain.generator.clone());
    cfg.utility = args.utility.unwrap_or(metric.default_utility());
    cfg.values = domain.values.clone().unwrap_or_default();
    cfg.strategy = args.strategy;
    cfg.shard = control.shard;
    cfg.budget = control.budget;
    cfg.time = control.time;
    if cfg.budget.is_none() && cfg.time.is_none() && cfg.strategy != Strategy::Exhaustive {
        cfg.time = Some(Duration::from_secs(30));
    }
    cfg.local = args.local;
    if args.no_shrink {
        cfg.shrink = None;
    }
    Ok(Config {
        mechanism: args.mechanism,
        explore: cfg,
        domain,
        control,
    })
}

/// Runs `leontief explore`. The records go to `--out` or standard output as they are found.
pub fn run(args: ExploreArgs) -> Result<String, CliError> {
    let numbers = args.numbers.numbers()?;
    let cfg = config(&args)?;
    let mech = cfg.mechanism.build();
    let pool = thread_pool(cfg.control.threads)?;
    let mut sink: Box<dyn Write + Send> = match cfg.control.out.as_deref() {
        Some(path) => Box::new(create(path)?),
        None => Box::new(std::io::stdout()),
    };
    let bar = progress(None);
    let metric = cfg.explore.metric;
    let tick = |s: &ExploreSummary| {
        let secs = s.elapsed.as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "{metric}: {} evaluations, {} scenarios ({:.0}/s), best {}",
            s.evaluations,
            s.scenarios,
            s.scenarios as f64 / secs,
            s.best.as_ref().map_or("-".to_string(), ToString::to_string),
        ));
        bar.tick();
    };
    let result = pool.install(|| {
        explore(
            mech.as_ref(),
            &cfg.explore,
            &mut |r| write_line(sink.as_mut(), &finish_json(r.clone(), numbers)),
            &tick,
        )
    });
    bar.finish_and_clear();
    let summary = result.map_err(|e| CliError::Internal(format!("writing output: {e}")))?;
    eprint!("{}", summary_text(&cfg, &summary));
    Ok(String::new())
}

fn write_line(w: &mut dyn Write, value: &Value) -> std::io::Result<()> {
    writeln!(w, "{value}")?;
    w.flush()
}

fn summary_text(cfg: &Config, s: &ExploreSummary) -> String {
    let e = &cfg.explore;
    let secs = s.elapsed.as_secs_f64();
    let rate = |k: u64| if secs > 0.0 { k as f64 / secs } else { 0.0 };
    let best = s.best.as_ref().map_or("none".to_string(), |b| {
        leontief_counterexamples::explore::record::decimal(b, 6)
    });
    let mut out = format!(
        "explore {} {} ({}, utility {}): {} evaluations ({:.0}/s), {} scenarios ({:.0}/s) in {:.2} s; \
         {} improvement(s), best {best}; stopped by {}",
        cfg.mechanism.name,
        e.metric,
        e.metric.metric().direction(),
        e.utility,
        s.evaluations,
        rate(s.evaluations),
        s.scenarios,
        rate(s.scenarios),
        secs,
        s.improvements,
        s.stop.map_or("-", |x| x.name()),
    );
    if let Some(t) = s.first_violation {
        out += &format!("; past 1 after {:.2} s", t.as_secs_f64());
    }
    if e.shard.count > 1 {
        out += &format!("; shard {}/{}", e.shard.index, e.shard.count);
    }
    out += &format!(
        "\n  domain: {}, strategy {}",
        cfg.domain.summary(),
        e.strategy
    );
    if s.errors > 0 {
        out += &format!("\n{} error(s), e.g.:", s.errors);
        for m in &s.error_messages {
            out += &format!("\n  {m}");
        }
    }
    out.push('\n');
    out
}
