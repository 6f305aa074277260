//! Building blocks of the crate's typed JSON documents: a map keyed by names in a given
//! order (users by path, leaves by name), and the `skip_serializing_if` predicates the
//! documents share.

use leontief_solver::properties::Scenario;
use leontief_solver::{Instance, Rational, SolverError};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

/// A JSON object whose keys are names known only at run time (users by path, leaves by
/// name, resources), written in the order given. The keys are distinct where it is used:
/// paths and names are refused twice on input.
///
/// # Example
/// ```
/// use leontief_counterexamples::doc::ByName;
/// let m = ByName(vec![("b".to_string(), 1), ("a".to_string(), 2)]);
/// assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"b":1,"a":2}"#);
/// let names = ["cpu", "mem"];
/// let zipped = ByName::zip(&names, &[3, 4]);
/// assert_eq!(serde_json::to_string(&zipped).unwrap(), r#"{"cpu":3,"mem":4}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ByName<V, K = String>(pub Vec<(K, V)>);

impl<'a, K, V> ByName<&'a V, &'a K> {
    /// `keys[i]: values[i]`, borrowed, as far as both go.
    pub fn zip(keys: &'a [K], values: &'a [V]) -> Self {
        ByName(keys.iter().zip(values).collect())
    }
}

impl<V: Serialize, K: Serialize> Serialize for ByName<V, K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<V, K> FromIterator<(K, V)> for ByName<V, K> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        ByName(iter.into_iter().collect())
    }
}

/// The JSON value of a document built of serde types.
///
/// # Panics
/// Never for the crate's documents: their keys are strings and their numbers finite or
/// written as text, which is all `serde_json::to_value` can refuse.
pub(crate) fn value<T: Serialize>(document: &T) -> Value {
    serde_json::to_value(document).expect("a document of string keys and exact numbers")
}

/// The field `key` of a record, or the error naming it missing.
pub(crate) fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, SolverError> {
    v.get(key)
        .ok_or_else(|| SolverError::invalid(key, "missing"))
}

/// The string field `key` of a record, or the error naming it.
pub(crate) fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, SolverError> {
    field(v, key)?
        .as_str()
        .ok_or_else(|| SolverError::invalid(key, "expected a string"))
}

/// The index of the user at path `name` in `instance`, or the error at `at` naming it.
pub(crate) fn user_at(instance: &Instance, at: &str, name: &str) -> Result<usize, SolverError> {
    instance
        .user_at_path(name)
        .ok_or_else(|| SolverError::invalid(at, format!("no user {name:?}")))
}

/// The lies of the object `{user path: report}` at `at` (`not_object`: the error of another
/// value), each report read by `report(its path, its value)`, the liars in index order.
pub(crate) fn read_lies(
    instance: &Instance,
    value: &Value,
    at: &str,
    not_object: &str,
    report: impl Fn(&str, &Value) -> Result<Vec<Rational>, SolverError>,
) -> Result<Scenario, SolverError> {
    let object = value
        .as_object()
        .ok_or_else(|| SolverError::invalid(at, not_object))?;
    let mut lies = Vec::new();
    for (name, r) in object {
        lies.push((
            user_at(instance, at, name)?,
            report(&format!("{at}.{name}"), r)?,
        ));
    }
    lies.sort_by_key(|(i, _)| *i);
    Ok(Scenario::Lies(lies))
}
