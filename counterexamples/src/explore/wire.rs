//! The serialized form of a round's work ([`WorkItem`]) and of its results ([`Found`]), so
//! that the rounds of [`explore_with`](super::explore_with) can be evaluated in other
//! processes (the Python package's `leontief.ray.explore`) with the same output as one
//! process.
//!
//! Everything travels in full, exactly: numbers as `"p/q"` strings, instances in the
//! instance form ([`Instance::to_json`]), the scenario by kind, the evaluation with both
//! answers. Nothing is re-derived on the receiving side, so the driver merges exactly what
//! the evaluation returned. The `checked` encoders decode what they wrote and refuse a value
//! that does not come back equal (an error, never a silently different run); the decoders
//! are deterministic, so the receiver gets the value the sender checked.
//!
//! # Example
//! ```
//! use leontief_counterexamples::explore::wire::{item_from_json, item_to_json_checked};
//! use leontief_counterexamples::explore::WorkItem;
//! let item = WorkItem::Unit { unit: 7 };
//! let v = item_to_json_checked(&item).unwrap();
//! assert_eq!(v, serde_json::json!({"unit": 7}));
//! assert_eq!(item_from_json(&v).unwrap(), item);
//! ```

use serde_json::{json, Map, Value};

use leontief_solver::properties::Scenario;
use leontief_solver::{read_numbers, Allocation, Instance, Rational, SolverError};

use super::metric::Evaluation;
use super::{Found, WorkItem};
use crate::candidate::Candidate;

fn bad(field: &str, why: impl Into<String>) -> SolverError {
    SolverError::invalid(field, why.into())
}

fn get<'a>(v: &'a Value, field: &str, key: &str) -> Result<&'a Value, SolverError> {
    v.get(key)
        .ok_or_else(|| bad(&format!("{field}.{key}"), "missing"))
}

fn number(x: &Rational) -> Value {
    Value::String(x.to_string())
}

fn numbers(xs: &[Rational]) -> Value {
    Value::Array(xs.iter().map(number).collect())
}

fn read_number(field: &str, v: &Value) -> Result<Rational, SolverError> {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(field, "expected an exact number as a string"))
}

fn read_u64(field: &str, v: &Value) -> Result<u64, SolverError> {
    v.as_u64()
        .ok_or_else(|| bad(field, "expected a non-negative integer"))
}

fn read_index(field: &str, v: &Value) -> Result<usize, SolverError> {
    usize::try_from(read_u64(field, v)?).map_err(|_| bad(field, "index out of range"))
}

fn scenario_to_json(instance: &Instance, s: &Scenario) -> Value {
    match s {
        Scenario::Bounded => json!({"bounded": true}),
        Scenario::Lies(lies) => json!({
            "lies": lies.iter().map(|(i, d)| json!([i, numbers(d)])).collect::<Vec<_>>()
        }),
        Scenario::Remove(i) => json!({ "remove": i }),
        Scenario::Capacity(c) => json!({ "capacity": numbers(c) }),
        // The joiner as the instance form writes the last user of the larger instance (its
        // pool named by path).
        Scenario::Join(u) => {
            let mut users = instance.users().to_vec();
            users.push(u.clone());
            match instance.with_users(users) {
                Ok(larger) => json!({ "join": larger.to_json() }),
                // Not representable: the checked encoder refuses it.
                Err(e) => json!({ "join": Value::Null, "error": e.to_string() }),
            }
        }
        Scenario::Churn(seed) => json!({ "churn": seed }),
    }
}

fn scenario_from_json(field: &str, v: &Value) -> Result<Scenario, SolverError> {
    let o = v
        .as_object()
        .ok_or_else(|| bad(field, "expected an object"))?;
    let (kind, body) = o
        .iter()
        .next()
        .ok_or_else(|| bad(field, "expected one scenario kind"))?;
    let at = format!("{field}.{kind}");
    Ok(match kind.as_str() {
        "bounded" => Scenario::Bounded,
        "lies" => {
            let list = body.as_array().ok_or_else(|| bad(&at, "expected a list"))?;
            let mut lies = Vec::with_capacity(list.len());
            for (k, pair) in list.iter().enumerate() {
                let f = format!("{at}[{k}]");
                let (Some(i), Some(d)) = (pair.get(0), pair.get(1)) else {
                    return Err(bad(&f, "expected [user, demand]"));
                };
                let i = read_index(&f, i)?;
                lies.push((i, read_numbers(&f, d)?));
            }
            Scenario::Lies(lies)
        }
        "remove" => Scenario::Remove(read_index(&at, body)?),
        "capacity" => Scenario::Capacity(read_numbers(&at, body)?),
        "join" => {
            let larger = Instance::from_json(body).map_err(|e| bad(&at, e.to_string()))?;
            Scenario::Join(
                larger
                    .users()
                    .last()
                    .cloned()
                    .ok_or_else(|| bad(&at, "expected the joiner as the last user"))?,
            )
        }
        "churn" => Scenario::Churn(read_u64(&at, body)?),
        other => return Err(bad(field, format!("unknown scenario kind {other:?}"))),
    })
}

fn candidate_to_json(c: &Candidate) -> Value {
    json!({
        "instance": c.instance.to_json(),
        "scenario": scenario_to_json(&c.instance, &c.scenario),
    })
}

fn candidate_from_json(field: &str, v: &Value) -> Result<Candidate, SolverError> {
    let instance = Instance::from_json(get(v, field, "instance")?)
        .map_err(|e| bad(&format!("{field}.instance"), e.to_string()))?;
    let scenario = scenario_from_json(&format!("{field}.scenario"), get(v, field, "scenario")?)?;
    Ok(Candidate::new(instance, scenario))
}

fn allocation_to_json(x: &Allocation) -> Value {
    let mut o = Map::new();
    o.insert("tasks".into(), numbers(&x.tasks));
    if let Some(t) = &x.tolerance {
        o.insert("tolerance".into(), number(t));
    }
    Value::Object(o)
}

fn allocation_from_json(field: &str, v: &Value) -> Result<Allocation, SolverError> {
    let tasks = read_numbers(&format!("{field}.tasks"), get(v, field, "tasks")?)?;
    // Built field by field: `Allocation::approximate` would normalise a zero tolerance.
    let mut x = Allocation::new(tasks);
    if let Some(t) = v.get("tolerance") {
        x.tolerance = Some(read_number(&format!("{field}.tolerance"), t)?);
    }
    Ok(x)
}

fn evaluation_to_json(e: &Evaluation) -> Value {
    let mut o = Map::new();
    o.insert("value".into(), number(&e.value));
    o.insert("lo".into(), number(&e.lo));
    o.insert("hi".into(), number(&e.hi));
    o.insert("exact".into(), json!(e.exact));
    o.insert("candidate".into(), candidate_to_json(&e.candidate));
    o.insert("user".into(), json!(e.user));
    o.insert("other".into(), json!(e.other));
    o.insert("numerator".into(), number(&e.numerator));
    o.insert("denominator".into(), number(&e.denominator));
    o.insert("before".into(), allocation_to_json(&e.before));
    o.insert(
        "after".into(),
        e.after.as_ref().map_or(Value::Null, allocation_to_json),
    );
    Value::Object(o)
}

fn evaluation_from_json(field: &str, v: &Value) -> Result<Evaluation, SolverError> {
    let at = |key: &str| format!("{field}.{key}");
    let num = |key: &str| read_number(&at(key), get(v, field, key)?);
    let other = get(v, field, "other")?;
    let after = get(v, field, "after")?;
    Ok(Evaluation {
        value: num("value")?,
        lo: num("lo")?,
        hi: num("hi")?,
        exact: get(v, field, "exact")?
            .as_bool()
            .ok_or_else(|| bad(&at("exact"), "expected a boolean"))?,
        candidate: candidate_from_json(&at("candidate"), get(v, field, "candidate")?)?,
        user: read_index(&at("user"), get(v, field, "user")?)?,
        other: match other {
            Value::Null => None,
            k => Some(read_index(&at("other"), k)?),
        },
        numerator: num("numerator")?,
        denominator: num("denominator")?,
        before: allocation_from_json(&at("before"), get(v, field, "before")?)?,
        after: match after {
            Value::Null => None,
            x => Some(allocation_from_json(&at("after"), x)?),
        },
    })
}

/// A work item's serialized form: `{"unit": u}` or `{"round", "task", "elite": {"instance",
/// "scenario"}}`.
pub fn item_to_json(item: &WorkItem) -> Value {
    match item {
        WorkItem::Unit { unit } => json!({ "unit": unit }),
        WorkItem::Local { round, task, elite } => json!({
            "round": round,
            "task": task,
            "elite": candidate_to_json(elite),
        }),
    }
}

/// Reads [`item_to_json`]'s form back.
///
/// # Errors
/// A missing or malformed field, named by its path.
pub fn item_from_json(v: &Value) -> Result<WorkItem, SolverError> {
    if let Some(u) = v.get("unit") {
        return Ok(WorkItem::Unit {
            unit: read_u64("item.unit", u)?,
        });
    }
    Ok(WorkItem::Local {
        round: read_u64("item.round", get(v, "item", "round")?)?,
        task: read_u64("item.task", get(v, "item", "task")?)?,
        elite: Box::new(candidate_from_json("item.elite", get(v, "item", "elite")?)?),
    })
}

/// A result's serialized form: `{"scenarios", "errors", "best"}` (`best` the evaluation in
/// full, or `null`).
pub fn found_to_json(found: &Found) -> Value {
    json!({
        "scenarios": found.scenarios,
        "errors": found.errors,
        "best": found.best.as_ref().map_or(Value::Null, evaluation_to_json),
    })
}

/// Reads [`found_to_json`]'s form back.
///
/// # Errors
/// A missing or malformed field, named by its path.
pub fn found_from_json(v: &Value) -> Result<Found, SolverError> {
    let errors = get(v, "found", "errors")?
        .as_array()
        .ok_or_else(|| bad("found.errors", "expected a list"))?
        .iter()
        .map(|e| {
            e.as_str()
                .map(str::to_string)
                .ok_or_else(|| bad("found.errors", "expected strings"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Found {
        scenarios: read_u64("found.scenarios", get(v, "found", "scenarios")?)?,
        errors,
        best: match get(v, "found", "best")? {
            Value::Null => None,
            e => Some(evaluation_from_json("found.best", e)?),
        },
    })
}

/// `encode(x)`, refused unless it decodes back to `x`.
fn checked<T: PartialEq>(
    what: &str,
    x: &T,
    encode: impl Fn(&T) -> Value,
    decode: impl Fn(&Value) -> Result<T, SolverError>,
) -> Result<Value, SolverError> {
    let v = encode(x);
    match decode(&v) {
        Ok(back) if back == *x => Ok(v),
        Ok(_) => Err(bad(what, "does not survive its serialized form")),
        Err(e) => Err(bad(
            what,
            format!("its serialized form does not read back: {e}"),
        )),
    }
}

/// [`item_to_json`], checked: an error unless [`item_from_json`] gives the item back.
///
/// # Errors
/// An item whose serialized form reads back different (or not at all).
pub fn item_to_json_checked(item: &WorkItem) -> Result<Value, SolverError> {
    checked("explore work item", item, item_to_json, item_from_json)
}

/// [`found_to_json`], checked: an error unless [`found_from_json`] gives the result back.
///
/// # Errors
/// A result whose serialized form reads back different (or not at all).
pub fn found_to_json_checked(found: &Found) -> Result<Value, SolverError> {
    checked("explore result", found, found_to_json, found_from_json)
}
