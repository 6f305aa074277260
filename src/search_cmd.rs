//! `leontief search` and `leontief merge`: flags to configuration, JSONL out, summary.

use std::collections::HashSet;
use std::io::Write;
use std::time::Duration;

use leontief_counterexamples::corpus::parse_jsonl;
use leontief_counterexamples::record::{canonical_key, read_candidate, replay};
use leontief_counterexamples::search::{SearchConfig, SearchSummary, Shard};
use leontief_counterexamples::shrink::ShrinkConfig;
use leontief_counterexamples::space::Strategy;
use leontief_solver::properties::Property;
use leontief_solver::{read_number, Rational, SolverError};
use serde_json::Value;

use crate::cli::{read_text, CliError};
use crate::mechanisms::by_name;

/// Options of `leontief search`, as given on the command line.
#[derive(Debug, Clone)]
pub struct SearchFlags {
    /// Mechanism name.
    pub mechanism: String,
    /// Property name.
    pub property: String,
    /// `a..b` users.
    pub users: String,
    /// `a..b` resources.
    pub resources: String,
    /// The value grid, e.g. `0,1/2,1`.
    pub values: String,
    /// Probability of a zero demand entry in random instances.
    pub zeros: String,
    /// Random weights.
    pub weights: bool,
    /// Random caps.
    pub caps: bool,
    /// `a..b` pools: generated instances are trees (user names are paths).
    pub pools: Option<String>,
    /// `combined`, `random` or `exhaustive`.
    pub strategy: String,
    /// Wall-time limit, e.g. `30s`.
    pub time: Option<String>,
    /// Scenario budget.
    pub budget: Option<u64>,
    /// Stop after this many distinct counterexamples.
    pub max_found: Option<usize>,
    /// Seed.
    pub seed: u64,
    /// `i/N`.
    pub shard: Option<String>,
    /// The most liars per coalition.
    pub max_liars: Option<usize>,
    /// Do not shrink.
    pub no_shrink: bool,
}

/// Reads a duration: `500ms`, `30s`, `2m`, `1h`, or plain seconds.
///
/// # Example
/// ```
/// use leontief::search_cmd::parse_duration;
/// assert_eq!(parse_duration("30s").unwrap().as_secs(), 30);
/// assert_eq!(parse_duration("2m").unwrap().as_secs(), 120);
/// assert_eq!(parse_duration("250ms").unwrap().as_millis(), 250);
/// assert!(parse_duration("soon").is_err());
/// ```
pub fn parse_duration(text: &str) -> Result<Duration, SolverError> {
    let t = text.trim();
    let bad = || {
        SolverError::invalid(
            "--time",
            format!("expected a duration like 500ms, 30s, 2m or 1h, found {text:?}"),
        )
    };
    let (number, unit_ms) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1u64)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60_000)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3_600_000)
    } else {
        (t, 1000)
    };
    let n: u64 = number.trim().parse().map_err(|_| bad())?;
    let ms = n.checked_mul(unit_ms).ok_or_else(bad)?;
    if ms == 0 {
        return Err(bad());
    }
    Ok(Duration::from_millis(ms))
}

fn parse_values(text: &str) -> Result<Vec<Rational>, SolverError> {
    let mut values = Vec::new();
    for (k, part) in text.split(',').enumerate() {
        let v = read_number(
            &format!("--values[{k}]"),
            &Value::String(part.trim().into()),
        )?;
        if v.is_negative() {
            return Err(SolverError::invalid(
                format!("--values[{k}]"),
                format!("expected a nonnegative number, found {v}"),
            ));
        }
        values.push(v);
    }
    if !values.iter().any(Rational::is_positive) {
        return Err(SolverError::invalid(
            "--values",
            "expected at least one positive value",
        ));
    }
    Ok(values)
}

/// The search's configuration from the flags (everything validated before anything runs).
pub fn search_config(flags: &SearchFlags) -> Result<SearchConfig, CliError> {
    let property: Property = flags
        .property
        .parse()
        .map_err(|e| CliError::Usage(format!("--property: {e}")))?;
    let generator = crate::properties_cmd::generator_config(
        &flags.users,
        &flags.resources,
        &flags.zeros,
        flags.weights,
        flags.caps,
        flags.pools.as_deref(),
    )?;
    let mut cfg = SearchConfig::new(property, flags.seed, generator);
    cfg.values = parse_values(&flags.values)?;
    cfg.strategy = match flags.strategy.as_str() {
        "combined" => Strategy::Combined,
        "random" => Strategy::Random,
        "exhaustive" => Strategy::Exhaustive,
        other => {
            return Err(CliError::Usage(format!(
                "--strategy: expected combined, random or exhaustive, found {other:?}"
            )))
        }
    };
    if let Some(s) = &flags.shard {
        cfg.shard = Shard::parse(s)?;
    }
    cfg.budget = flags.budget;
    cfg.time = flags.time.as_deref().map(parse_duration).transpose()?;
    if cfg.budget.is_none() && cfg.time.is_none() && cfg.strategy != Strategy::Exhaustive {
        cfg.time = Some(Duration::from_secs(30));
    }
    cfg.max_found = flags.max_found;
    if flags.max_liars == Some(0) {
        return Err(CliError::Usage("--max-liars: expected at least 1".into()));
    }
    cfg.max_liars = flags.max_liars;
    cfg.shrink = (!flags.no_shrink).then(ShrinkConfig::default);
    Ok(cfg)
}

/// The human summary printed on standard error.
pub fn summary_text(mechanism: &str, cfg: &SearchConfig, s: &SearchSummary) -> String {
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
    if s.errors > 0 {
        out += &format!("\n{} mechanism error(s), e.g.:", s.errors);
        for e in &s.error_messages {
            out += &format!("\n  {e}");
        }
    }
    out.push('\n');
    out
}

/// `leontief merge`: the records of several JSONL files, each checked to be a record,
/// duplicates (by the recomputed canonical key) dropped — the first kept, in the order
/// (mechanism, property, seed, unit, file order) — and, with `verify`, each re-verified.
/// Every record leaves with its recomputed key.
/// Returns the JSONL text and how many lines were read and dropped.
pub fn merge(files: &[String], verify: bool) -> Result<(String, usize, usize), CliError> {
    let mut records: Vec<(String, String, u64, u64, usize, Value)> = Vec::new();
    let mut order = 0;
    for path in files {
        let text = read_text(path)?;
        for (line, value) in parse_jsonl(path, &text).map_err(CliError::Usage)? {
            let at = |e: String| CliError::Usage(format!("{path}:{line}: {e}"));
            let (mechanism, property, _) = read_candidate(&value).map_err(|e| at(e.to_string()))?;
            if verify {
                let m = by_name(&mechanism)?;
                replay(m.as_ref(), &value).map_err(|e| at(e.to_string()))?;
            }
            let num = |k: &str| value.get(k).and_then(Value::as_u64).unwrap_or(u64::MAX);
            records.push((
                mechanism,
                property.name().to_string(),
                num("seed"),
                num("unit"),
                order,
                value,
            ));
            order += 1;
        }
    }
    records.sort_by(|a, b| (&a.0, &a.1, a.2, a.3, a.4).cmp(&(&b.0, &b.1, b.2, b.3, b.4)));
    let read = records.len();
    let mut seen = HashSet::new();
    let mut out = String::new();
    for (mechanism, _, _, _, _, mut value) in records {
        let (_, property, candidate) =
            read_candidate(&value).map_err(|e| CliError::Internal(e.to_string()))?;
        let key = canonical_key(&mechanism, property, &candidate);
        if seen.insert(key.clone()) {
            // The key as this version computes it (a record's stored key may be older).
            if let Some(record) = value.as_object_mut() {
                record.insert("key".into(), Value::String(key));
            }
            out += &value.to_string();
            out.push('\n');
        }
    }
    let kept = seen.len();
    Ok((out, read, read - kept))
}

/// Writes one JSONL line and flushes it, so an interrupted run loses nothing.
pub fn write_line(w: &mut dyn Write, value: &Value) -> std::io::Result<()> {
    writeln!(w, "{value}")?;
    w.flush()
}

/// Validates the mechanism name early.
pub fn check_mechanism(name: &str) -> Result<(), CliError> {
    by_name(name).map(|_| ())
}
