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
//! assert_eq!(v.to_string(), r#"{"unit":7}"#);
//! assert_eq!(item_from_json(&v).unwrap(), item);
//! ```

use serde::Serialize;
use serde_json::Value;

use leontief_solver::properties::Scenario;
use leontief_solver::{read_numbers, Allocation, Instance, Rational, SolverError};

use super::metric::Evaluation;
use super::{Found, WorkItem};
use crate::candidate::Candidate;
use crate::doc;

fn bad(field: &str, why: impl Into<String>) -> SolverError {
    SolverError::invalid(field, why.into())
}

fn get<'a>(v: &'a Value, field: &str, key: &str) -> Result<&'a Value, SolverError> {
    v.get(key)
        .ok_or_else(|| bad(&format!("{field}.{key}"), "missing"))
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

/// A scenario by kind: `{"bounded": true}`, `{"lies": [[user, demand], ...]}`,
/// `{"remove": user}`, `{"capacity": [...]}`, `{"join": instance}`, `{"churn": seed}`.
#[derive(Serialize)]
#[serde(untagged)]
enum ScenarioDoc<'a> {
    Bounded {
        bounded: bool,
    },
    Lies {
        lies: Vec<(usize, &'a [Rational])>,
    },
    Remove {
        remove: usize,
    },
    Capacity {
        capacity: &'a [Rational],
    },
    /// The larger instance, or `null` and why it is not representable.
    Join {
        join: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    Churn {
        churn: u64,
    },
}

fn scenario_doc<'a>(instance: &Instance, s: &'a Scenario) -> ScenarioDoc<'a> {
    match s {
        Scenario::Bounded => ScenarioDoc::Bounded { bounded: true },
        Scenario::Lies(lies) => ScenarioDoc::Lies {
            lies: lies.iter().map(|(i, d)| (*i, d.as_slice())).collect(),
        },
        Scenario::Remove(i) => ScenarioDoc::Remove { remove: *i },
        Scenario::Capacity(c) => ScenarioDoc::Capacity { capacity: c },
        // The joiner as the instance form writes the last user of the larger instance (its
        // pool named by path).
        Scenario::Join(u) => {
            match super::pm_loss::joined(instance, u) {
                Ok(larger) => ScenarioDoc::Join {
                    join: Some(larger.to_json()),
                    error: None,
                },
                // Not representable: the checked encoder refuses it.
                Err(e) => ScenarioDoc::Join {
                    join: None,
                    error: Some(e.to_string()),
                },
            }
        }
        Scenario::Churn(seed) => ScenarioDoc::Churn { churn: *seed },
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

/// A candidate: the instance form and the scenario.
#[derive(Serialize)]
struct CandidateDoc<'a> {
    instance: Value,
    scenario: ScenarioDoc<'a>,
}

fn candidate_doc(c: &Candidate) -> CandidateDoc<'_> {
    CandidateDoc {
        instance: c.instance.to_json(),
        scenario: scenario_doc(&c.instance, &c.scenario),
    }
}

fn candidate_from_json(field: &str, v: &Value) -> Result<Candidate, SolverError> {
    let instance = Instance::from_json(get(v, field, "instance")?)
        .map_err(|e| bad(&format!("{field}.instance"), e.to_string()))?;
    let scenario = scenario_from_json(&format!("{field}.scenario"), get(v, field, "scenario")?)?;
    Ok(Candidate::new(instance, scenario))
}

/// An answer: the tasks, and the tolerance when approximate.
#[derive(Serialize)]
struct AllocationDoc<'a> {
    tasks: &'a [Rational],
    #[serde(skip_serializing_if = "Option::is_none")]
    tolerance: Option<&'a Rational>,
}

fn allocation_doc(x: &Allocation) -> AllocationDoc<'_> {
    AllocationDoc {
        tasks: &x.tasks,
        tolerance: x.tolerance.as_ref(),
    }
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

/// An evaluation in full: the value and its interval, the candidate, the users, the ratio
/// and both answers.
#[derive(Serialize)]
struct EvaluationDoc<'a> {
    value: &'a Rational,
    lo: &'a Rational,
    hi: &'a Rational,
    exact: bool,
    candidate: CandidateDoc<'a>,
    user: usize,
    other: Option<usize>,
    numerator: &'a Rational,
    denominator: &'a Rational,
    before: AllocationDoc<'a>,
    after: Option<AllocationDoc<'a>>,
}

fn evaluation_doc(e: &Evaluation) -> EvaluationDoc<'_> {
    EvaluationDoc {
        value: &e.value,
        lo: &e.lo,
        hi: &e.hi,
        exact: e.exact,
        candidate: candidate_doc(&e.candidate),
        user: e.user,
        other: e.other,
        numerator: &e.numerator,
        denominator: &e.denominator,
        before: allocation_doc(&e.before),
        after: e.after.as_ref().map(allocation_doc),
    }
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
        // A worker's evaluation is the search's: exact forms are asked for only when the
        // coordinator keeps a record (`At::algebraic`), so none crosses the wire.
        algebraic: None,
        inexact_reason: None,
    })
}

/// A work item's serialized form: `{"unit": u}` or `{"round", "task", "elite": {"instance",
/// "scenario"}}`.
pub fn item_to_json(item: &WorkItem) -> Value {
    doc::value(&match item {
        WorkItem::Unit { unit } => ItemDoc::Unit { unit: *unit },
        WorkItem::Local { round, task, elite } => ItemDoc::Local {
            round: *round,
            task: *task,
            elite: candidate_doc(elite),
        },
    })
}

/// A work item: a seed unit, or a local-search task from an elite candidate.
#[derive(Serialize)]
#[serde(untagged)]
enum ItemDoc<'a> {
    Unit {
        unit: u64,
    },
    Local {
        round: u64,
        task: u64,
        elite: CandidateDoc<'a>,
    },
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
    doc::value(&FoundDoc {
        scenarios: found.scenarios,
        errors: &found.errors,
        best: found.best.as_ref().map(evaluation_doc),
    })
}

/// A round's result.
#[derive(Serialize)]
struct FoundDoc<'a> {
    scenarios: u64,
    errors: &'a [String],
    best: Option<EvaluationDoc<'a>>,
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
