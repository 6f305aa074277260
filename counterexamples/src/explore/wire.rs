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
//! The types derive their form: a [`WorkItem`] is `{"unit": u}` or `{"round", "task",
//! "elite": {"instance", "scenario"}}`; a [`Found`] is `{"scenarios", "errors", "best"}`
//! (`best` the [`Evaluation`](super::Evaluation) in full, or `null`), an evaluation its
//! fields in order with the answers as `{"tasks", ["tolerance"]}`.
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

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use leontief_solver::properties::Scenario;
use leontief_solver::{Instance, Rational, SolverError};

use super::{Found, WorkItem};
use crate::candidate::Candidate;
use crate::doc;

/// A scenario by kind: `{"bounded": true}`, `{"lies": [[user, demand], ...]}`,
/// `{"remove": user}`, `{"capacity": [...]}`, `{"join": instance}`, `{"churn": seed}`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ScenarioDoc {
    Bounded(bool),
    Lies(Vec<(usize, Vec<Rational>)>),
    Remove(usize),
    Capacity(Vec<Rational>),
    /// The larger instance, whose last user is the joiner (its pool named by path); `null`
    /// when it is not representable, which the checked encoder refuses.
    Join(Value),
    Churn(u64),
}

/// A candidate: the instance form and the scenario (the serialized form of [`Candidate`]).
#[derive(Serialize, Deserialize)]
pub(crate) struct CandidateDoc {
    instance: Value,
    scenario: ScenarioDoc,
}

impl From<Candidate> for CandidateDoc {
    fn from(c: Candidate) -> Self {
        let scenario = match c.scenario {
            Scenario::Bounded => ScenarioDoc::Bounded(true),
            Scenario::Lies(lies) => ScenarioDoc::Lies(lies),
            Scenario::Remove(i) => ScenarioDoc::Remove(i),
            Scenario::Capacity(c) => ScenarioDoc::Capacity(c),
            Scenario::Join(u) => ScenarioDoc::Join(
                super::pm_loss::joined(&c.instance, &u).map_or(Value::Null, |l| l.to_json()),
            ),
            Scenario::Churn(seed) => ScenarioDoc::Churn(seed),
        };
        CandidateDoc {
            instance: c.instance.to_json(),
            scenario,
        }
    }
}

impl TryFrom<CandidateDoc> for Candidate {
    type Error = SolverError;

    fn try_from(doc: CandidateDoc) -> Result<Self, SolverError> {
        let instance = Instance::from_json(&doc.instance)
            .map_err(|e| SolverError::invalid("candidate.instance", e.to_string()))?;
        let scenario = match doc.scenario {
            ScenarioDoc::Bounded(_) => Scenario::Bounded,
            ScenarioDoc::Lies(lies) => Scenario::Lies(lies),
            ScenarioDoc::Remove(i) => Scenario::Remove(i),
            ScenarioDoc::Capacity(c) => Scenario::Capacity(c),
            ScenarioDoc::Join(larger) => Scenario::Join(super::pm_loss::last_user(
                &larger,
                "candidate.scenario.join",
            )?),
            ScenarioDoc::Churn(seed) => Scenario::Churn(seed),
        };
        Ok(Candidate::new(instance, scenario))
    }
}

/// `v` read as a `T`; a missing field is named by its path below `what`.
fn decode<T: DeserializeOwned>(what: &str, v: &Value) -> Result<T, SolverError> {
    T::deserialize(v).map_err(|e| {
        let e = e.to_string();
        match e
            .strip_prefix("missing field `")
            .and_then(|k| k.strip_suffix('`'))
        {
            Some(key) => SolverError::invalid(format!("{what}.{key}"), "missing"),
            None => SolverError::invalid(what, e),
        }
    })
}

/// Reads a work item's serialized form ([`item_to_json_checked`]'s).
///
/// # Errors
/// A missing or malformed field.
pub fn item_from_json(v: &Value) -> Result<WorkItem, SolverError> {
    decode("item", v)
}

/// Reads a result's serialized form ([`found_to_json_checked`]'s).
///
/// # Errors
/// A missing or malformed field (a missing one named by its path).
pub fn found_from_json(v: &Value) -> Result<Found, SolverError> {
    decode("found", v)
}

/// `x`'s serialized form, refused unless `decode` reads it back to `x`.
fn checked<T: PartialEq + Serialize>(
    what: &str,
    x: &T,
    decode: impl Fn(&Value) -> Result<T, SolverError>,
) -> Result<Value, SolverError> {
    let v = doc::value(x);
    match decode(&v) {
        Ok(back) if back == *x => Ok(v),
        Ok(_) => Err(SolverError::invalid(
            what,
            "does not survive its serialized form",
        )),
        Err(e) => Err(SolverError::invalid(
            what,
            format!("its serialized form does not read back: {e}"),
        )),
    }
}

/// A work item's serialized form, `{"unit": u}` or `{"round", "task", "elite": {"instance",
/// "scenario"}}`, checked: an error unless [`item_from_json`] gives the item back.
///
/// # Errors
/// An item whose serialized form reads back different (or not at all).
pub fn item_to_json_checked(item: &WorkItem) -> Result<Value, SolverError> {
    checked("explore work item", item, item_from_json)
}

/// A result's serialized form, `{"scenarios", "errors", "best"}` (`best` the evaluation in
/// full, or `null`), checked: an error unless [`found_from_json`] gives the result back.
///
/// # Errors
/// A result whose serialized form reads back different (or not at all).
pub fn found_to_json_checked(found: &Found) -> Result<Value, SolverError> {
    checked("explore result", found, found_from_json)
}
