//! `leontief search`: hunt counterexamples to properties; JSONL records out, flushed as
//! found; a summary per property on standard error, stating the domain searched.

use clap::Args;
use leontief_counterexamples::search::{
    replay, search_logged, SearchConfig, SearchSummary, Shard, ShardLog, Stop, UnitLog,
};
use leontief_counterexamples::shrink::ShrinkConfig;
use leontief_counterexamples::space::Strategy;
use leontief_solver::properties::Property;
use leontief_solver::registry::Descriptor;
use serde::Serialize;
use serde_json::Value;

use crate::cli::CliError;
use crate::commands::flags::{Domain, MechanismParser, NameParser, SpaceFlags};
use crate::commands::{to_value, usage, with_jsonl_out};
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
    /// Write a line per examined unit (its scenarios, errors and counterexample) and one
    /// per property saying why it stopped, instead of the records: the shards' logs that
    /// `leontief.ray.search` replays into exactly one process's run.
    #[arg(long)]
    pub unit_log: bool,
    /// How instances are drawn, where the run stops, threads, output and numbers.
    #[command(flatten)]
    pub space: SpaceFlags,
}

/// `search`'s configuration, validated: one search per property.
struct Config {
    searches: Vec<SearchConfig>,
    domain: Domain,
}

fn config(args: &SearchArgs) -> Result<Config, CliError> {
    let domain = args.space.generator.domain(true)?;
    let searches = args
        .property
        .iter()
        .map(|&property| {
            let mut cfg = SearchConfig::new(
                property,
                args.space.generator.seed,
                domain.generator.clone(),
            );
            args.space.limit(&mut cfg.run, &domain, args.strategy)?;
            cfg.max_found = args.max_found;
            cfg.max_liars = args.max_liars;
            cfg.shrink = (!args.no_shrink).then(ShrinkConfig::default);
            Ok(cfg)
        })
        .collect::<Result<_, CliError>>()?;
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
    Ok(Config { searches, domain })
}

/// Runs `leontief search`. The records go to `--out` or standard output as they are found
/// (nothing is returned for standard output at the end).
pub fn run(args: SearchArgs) -> Result<String, CliError> {
    with_jsonl_out(args.space.run.out.as_deref(), |on_record, ready| {
        run_with(&args, on_record, ready)
    })
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
    let numbers = args.space.numbers.numbers()?;
    let cfg = config(args)?;
    let mech = args.mechanism.build();
    let pool = thread_pool(args.space.run.threads)?;
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
        let property = search_cfg.property.name();
        let result = pool.install(|| {
            // Both callbacks may write to the one sink (never both for one run).
            let on_record = std::cell::RefCell::new(&mut *on_record);
            search_logged(
                mech.as_ref(),
                search_cfg,
                &mut |r| {
                    if args.unit_log {
                        return Ok(());
                    }
                    (on_record.borrow_mut())(&finish_json(r.to_json(), numbers))
                },
                &mut |u| {
                    if !args.unit_log {
                        return Ok(());
                    }
                    (on_record.borrow_mut())(&unit_line(property, u, numbers))
                },
                &tick,
            )
        });
        bar.finish_and_clear();
        let summary = result.map_err(|e| CliError::Internal(format!("writing output: {e}")))?;
        if args.unit_log {
            let stop = summary.stop.map_or("-", |s| s.name());
            let shard = [search_cfg.run.shard.index, search_cfg.run.shard.count];
            let line = to_value(&StopLine {
                log: "stop",
                property,
                shard,
                stop,
            });
            on_record(&line).map_err(|e| CliError::Internal(format!("writing output: {e}")))?;
        }
        summaries.push(summary_text(
            args.mechanism.name,
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

/// A `--unit-log` line: one examined unit.
fn unit_line(
    property: &str,
    u: &UnitLog<leontief_counterexamples::record::Record>,
    numbers: crate::output::Numbers,
) -> Value {
    let (key, record) = match &u.found {
        Some((key, record)) => (
            Some(key.as_str()),
            Some(finish_json(record.to_json(), numbers)),
        ),
        None => (None, None),
    };
    to_value(&UnitLine {
        log: "unit",
        property,
        unit: u.unit,
        scenarios: u.scenarios,
        errors: &u.errors,
        key,
        record,
    })
}

/// A `--unit-log` line closing a property's shard: why the search stopped.
#[derive(Serialize)]
struct StopLine<'a> {
    log: &'static str,
    property: &'a str,
    shard: [u64; 2],
    stop: &'a str,
}

/// A `--unit-log` line of one examined unit, with the record it found (and the record's key).
#[derive(Serialize)]
struct UnitLine<'a> {
    log: &'static str,
    property: &'a str,
    unit: u64,
    scenarios: u64,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    errors: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<Value>,
}

/// One property's summary of replayed unit logs.
#[derive(Serialize)]
struct ReplaySummary<'a> {
    property: &'a str,
    #[serde(flatten)]
    summary: &'a SearchSummary,
}

/// Replayed unit logs: the records found and each property's summary.
#[derive(Serialize)]
struct Replayed<'a> {
    records: Vec<Value>,
    summaries: Vec<ReplaySummary<'a>>,
}

/// The run of one process rebuilt from the `--unit-log` lines of all its shards (each
/// shard's lines in the order it wrote them, the shards in any order), for the same seed,
/// `budget` and `max_found`: `{"records": [...], "summaries": [...]}`, the records as the
/// one process writes them (properties in the order searched, then by unit) and per property
/// its counters (`units`, `scenarios`, `found`, `duplicates`, `errors`, `error_messages`,
/// `stop`, `next_unit`; no wall times). See
/// [`leontief_counterexamples::search::replay`] for why this is exact.
///
/// # Errors
/// [`CliError::Usage`] when the lines are not `--unit-log` lines of one sharded run with
/// these limits.
///
/// # Complexity
/// Linear in the lines.
pub fn replay_unit_logs(
    lines: &[Value],
    budget: Option<u64>,
    max_found: Option<usize>,
) -> Result<Value, CliError> {
    let bad = |i: usize, what: &str| usage(format!("unit logs[{i}]: {what}"));
    let mut properties: Vec<(String, Vec<ShardLog<Value>>)> = Vec::new();
    let mut units: Vec<UnitLog<Value>> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let property = line["property"]
            .as_str()
            .ok_or_else(|| bad(i, "expected a \"property\""))?;
        match line["log"].as_str() {
            Some("unit") => {
                let number = |k: &str| {
                    line[k]
                        .as_u64()
                        .ok_or_else(|| bad(i, &format!("expected an integer \"{k}\"")))
                };
                let errors = match &line["errors"] {
                    Value::Null => Vec::new(),
                    Value::Array(a) => a
                        .iter()
                        .map(|e| e.as_str().unwrap_or_default().to_string())
                        .collect(),
                    _ => return Err(bad(i, "expected a list of \"errors\"")),
                };
                let found = match (&line["key"], &line["record"]) {
                    (Value::String(k), record @ Value::Object(_)) => {
                        Some((k.clone(), record.clone()))
                    }
                    (Value::Null, Value::Null) => None,
                    _ => return Err(bad(i, "expected a \"key\" and a \"record\", or neither")),
                };
                units.push(UnitLog {
                    unit: number("unit")?,
                    scenarios: number("scenarios")?,
                    errors,
                    found,
                });
            }
            Some("stop") => {
                let shard = match line["shard"].as_array().map(Vec::as_slice) {
                    Some([a, b]) => a.as_u64().zip(b.as_u64()),
                    _ => None,
                }
                .filter(|(index, count)| index < count)
                .map(|(index, count)| Shard { index, count })
                .ok_or_else(|| bad(i, "expected a \"shard\" [i, N] with 0 <= i < N"))?;
                let stop = (line["stop"].as_str())
                    .and_then(|s| s.parse::<Stop>().ok())
                    .ok_or_else(|| bad(i, "expected a \"stop\" reason"))?;
                let log = ShardLog {
                    shard,
                    units: std::mem::take(&mut units),
                    stop,
                };
                match properties.iter_mut().find(|(p, _)| p == property) {
                    Some((_, logs)) => logs.push(log),
                    None => properties.push((property.to_string(), vec![log])),
                }
            }
            _ => return Err(bad(i, "expected \"log\": \"unit\" or \"stop\"")),
        }
    }
    if !units.is_empty() {
        return Err(usage(
            "unit logs: the last shard's units have no \"stop\" line",
        ));
    }
    let mut records = Vec::new();
    let mut summaries = Vec::new();
    for (property, logs) in properties {
        let (found, s) = replay(logs, budget, max_found)
            .map_err(|e| usage(format!("unit logs of {property}: {e}")))?;
        records.extend(found);
        summaries.push((property, s));
    }
    let summaries = summaries
        .iter()
        .map(|(property, summary)| ReplaySummary { property, summary })
        .collect();
    Ok(to_value(&Replayed { records, summaries }))
}

/// The human summary printed on standard error.
fn summary_text(mechanism: &str, cfg: &SearchConfig, domain: &Domain, s: &SearchSummary) -> String {
    let secs = s.elapsed.as_secs_f64();
    let rate = |k: u64| if secs > 0.0 { k as f64 / secs } else { 0.0 };
    let mut out = format!(
        "search {mechanism} {}: {} units, {} scenarios in {:.2} s ({:.0} scenarios/s); \
         {} counterexample(s), {} duplicate(s) dropped; stopped by {}",
        cfg.property.name(),
        s.units,
        s.scenarios,
        secs,
        rate(s.scenarios),
        s.found,
        s.duplicates,
        s.stop.map_or("-", |x| x.name()),
    );
    if let Some(t) = s.first_found {
        out += &format!("; first after {:.2} s", t.as_secs_f64());
    }
    let run = &cfg.run;
    if run.shard.count > 1 {
        out += &format!(
            "; shard {}/{} (next unit {})",
            run.shard.index, run.shard.count, s.next_unit
        );
    }
    let domain = format!("{}, strategy {}", domain.summary(), run.strategy);
    out + &summary_tail(&domain, "mechanism error(s)", s.errors, &s.error_messages)
}

/// The last lines of a run's summary: the `domain` line; how many `errors` (`what`), with
/// the first messages, when there are any; then the closing newline.
pub(crate) fn summary_tail(domain: &str, what: &str, errors: u64, messages: &[String]) -> String {
    let mut out = format!("\n  domain: {domain}");
    if errors > 0 {
        out += &format!("\n{errors} {what}, e.g.:");
        for m in messages {
            out += &format!("\n  {m}");
        }
    }
    out + "\n"
}
