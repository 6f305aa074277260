//! `leontief merge`: JSONL counterexample files joined, duplicates dropped; with `--best`,
//! the outputs of `leontief explore` (e.g. of shards) reduced to their best record.

use std::cmp::Ordering;
use std::collections::HashSet;

use clap::Args;
use leontief_counterexamples::corpus::parse_jsonl;
use leontief_counterexamples::explore::exact::read_exact;
use leontief_counterexamples::explore::record::{read as read_explore, rederive};
use leontief_counterexamples::explore::Direction;
use leontief_counterexamples::record::{canonical_key, read_candidate, replay};
use leontief_solver::algebraic::{Limits, RealAlgebraic};
use serde_json::Value;

use crate::cli::{read_text, CliError};
use leontief_counterexamples::mechanisms::by_name;

/// The flags of `leontief merge`.
#[derive(Debug, Clone, Args)]
pub struct MergeArgs {
    /// JSONL files written by `leontief search` (or corpus files).
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Re-verify every record exactly before merging (explore records: re-derived from
    /// scratch).
    #[arg(long)]
    pub verify: bool,
    /// The files are `leontief explore` outputs: keep only the best record of each
    /// (mechanism, metric, utility), marked "best": true (ties: the lowest unit, then the
    /// first file).
    #[arg(long)]
    pub best: bool,
    /// Write here instead of standard output.
    #[arg(long)]
    pub out: Option<String>,
}

/// Runs `leontief merge`: the merged JSONL (on standard output, or written to `--out`), a
/// tally on standard error.
pub fn run(args: MergeArgs) -> Result<String, CliError> {
    let text = crate::commands::noted(run_with(&args), "")?;
    match args.out {
        Some(path) => {
            std::fs::write(&path, text).map_err(|e| CliError::read(&path, e))?;
            Ok(String::new())
        }
        None => Ok(text),
    }
}

/// The work of `leontief merge`: the merged JSONL ([`merge`], or [`merge_best`] with
/// `--best`) and the tally it prints on standard error, returned instead of written (the
/// Python package's `merge`); `--out` is left to the caller.
pub fn run_with(args: &MergeArgs) -> Result<(String, Vec<String>), CliError> {
    let (text, read, dropped) = if args.best {
        merge_best(&args.files, args.verify)?
    } else {
        merge(&args.files, args.verify)?
    };
    let kept = read - dropped;
    let tally =
        format!("merge: {read} record(s) read, {dropped} duplicate(s) dropped, {kept} kept");
    Ok((text, vec![tally]))
}

/// The records of several JSONL files, each checked to be a record, duplicates (by the
/// recomputed canonical key) dropped — the first kept, in the order (mechanism, property,
/// seed, unit, file order) — and, with `verify`, each re-verified. Every record leaves with
/// its recomputed key. Returns the JSONL text and how many lines were read and dropped.
pub fn merge(files: &[String], verify: bool) -> Result<(String, usize, usize), CliError> {
    let mut records = Vec::new();
    each_line(files, |value, at| {
        let (mechanism, property, candidate) =
            read_candidate(&value).map_err(|e| at(e.to_string()))?;
        if verify {
            let m = by_name(&mechanism)?;
            replay(m.as_ref(), &value).map_err(|e| at(e.to_string()))?;
        }
        let num = |k: &str| value.get(k).and_then(Value::as_u64).unwrap_or(u64::MAX);
        let order = (property.name(), num("seed"), num("unit"), records.len());
        records.push((mechanism, order, property, candidate, value));
        Ok(())
    })?;
    records.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    let read = records.len();
    let mut seen = HashSet::new();
    let mut out = String::new();
    for (mechanism, _, property, candidate, value) in records {
        let key = canonical_key(&mechanism, property, &candidate);
        if seen.insert(key.clone()) {
            // The key as this version computes it (a record's stored key may be older).
            push_line(&mut out, value, "key", Value::String(key));
        }
    }
    let kept = seen.len();
    Ok((out, read, read - kept))
}

/// Hands `each` every line of the JSONL `files` in order, with the error maker that names
/// the file and line.
fn each_line(
    files: &[String],
    mut each: impl FnMut(Value, &dyn Fn(String) -> CliError) -> Result<(), CliError>,
) -> Result<(), CliError> {
    for path in files {
        let text = read_text(path)?;
        for (line, value) in parse_jsonl(path, &text).map_err(CliError::Usage)? {
            each(value, &|e| CliError::Usage(format!("{path}:{line}: {e}")))?;
        }
    }
    Ok(())
}

/// The certified value an explore record is ranked by: the worst end of its interval for
/// the claim (`lo` when maximizing, `hi` when minimizing), the value itself when exact
/// (rational or algebraic).
fn objective(
    value: &Value,
    at: &dyn Fn(String) -> CliError,
) -> Result<(Direction, RealAlgebraic), CliError> {
    let direction: Direction = value["direction"]
        .as_str()
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| at("direction: expected max or min".into()))?;
    let end = match (value["interval"].as_array(), direction) {
        (Some(i), Direction::Max) if i.len() == 2 => &i[0],
        (Some(i), Direction::Min) if i.len() == 2 => &i[1],
        _ => &value["value"],
    };
    let number = read_exact("value", end)
        .map_err(|e| at(e.to_string()))?
        .ok_or_else(|| at("value: expected an exact \"p/q\" or an algebraic number".into()))?;
    Ok((direction, number))
}

/// The best record of each (mechanism, metric, utility) among explore outputs; with
/// `verify`, each record re-derived first. Returns the JSONL text, how many lines were read
/// and how many dropped.
pub fn merge_best(files: &[String], verify: bool) -> Result<(String, usize, usize), CliError> {
    type Key = (String, String, String);
    let mut best: Vec<(Key, RealAlgebraic, u64, Value)> = Vec::new();
    let mut read = 0;
    each_line(files, |value, at| {
        read += 1;
        read_explore(&value).map_err(|e| at(e.to_string()))?;
        let mechanism = value["mechanism"]
            .as_str()
            .ok_or_else(|| at("mechanism: expected a name".into()))?
            .to_string();
        if verify {
            let m = by_name(&mechanism)?;
            rederive(m.as_ref(), &value).map_err(|e| at(e.to_string()))?;
        }
        let (direction, number) = objective(&value, at)?;
        let key = (
            mechanism,
            value["metric"].as_str().unwrap_or_default().to_string(),
            value["utility"].as_str().unwrap_or_default().to_string(),
        );
        let unit = value["unit"].as_u64().unwrap_or(u64::MAX);
        let better = |old: &RealAlgebraic, old_unit: u64| -> Result<bool, CliError> {
            let order = number
                .try_cmp(old, &Limits::default())
                .map_err(|e| at(format!("value: {e}")))?;
            Ok(match (order, direction) {
                (Ordering::Equal, _) => unit < old_unit,
                (o, Direction::Max) => o == Ordering::Greater,
                (o, Direction::Min) => o == Ordering::Less,
            })
        };
        match best.iter_mut().find(|(k, ..)| *k == key) {
            Some(slot) => {
                if better(&slot.1, slot.2)? {
                    *slot = (key, number, unit, value);
                }
            }
            None => best.push((key, number, unit, value)),
        }
        Ok(())
    })?;
    best.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::new();
    for (_, _, _, value) in best.iter().cloned() {
        push_line(&mut out, value, "best", Value::Bool(true));
    }
    Ok((out, read, read - best.len()))
}

/// Appends `record`, with `key` set to `value`, as one JSONL line.
fn push_line(out: &mut String, mut record: Value, key: &str, value: Value) {
    if let Some(o) = record.as_object_mut() {
        o.insert(key.into(), value);
    }
    out.push_str(&record.to_string());
    out.push('\n');
}
