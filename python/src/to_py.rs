//! JSON to Python values for the outputs that reach Python as JSON text or values (every
//! command's but `solve`'s exact answer, which is typed: see `py_serializer`): a JSON value
//! does not say which of its strings are exact numbers, so a string of the CLI's exact form
//! (`"p/q"`) becomes a `fractions.Fraction` unless it sits under a key that holds text
//! ([`TEXT_KEYS`]: names, paths, labels).

use leontief::solver::Rational;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::Value;

use crate::py_serializer::{algebraic_class, to_python, Fractions};
use crate::to_json::to_json;

/// JSON keys whose string values are text (names, paths, labels), never exact numbers.
const TEXT_KEYS: &[&str] = &[
    "name",
    "names",
    "mechanism",
    "mechanisms",
    "property",
    "note",
    "resources",
    "resource",
    "saturated",
    "path",
    "paths",
    "parent",
    "children",
    "key",
    "metric",
    "utility",
    "direction",
    "strategy",
    "origin",
    "kind",
    "policy",
    "stop",
    "family",
    "user",
    "users",
    "coalition",
    "liars",
    "gainers",
    "leaf",
    "leaves",
    "pool",
    "pools",
    "source",
    "example",
    "label",
    "description",
    "reason",
    "misfit",
    "tie_break",
    "order",
    "event",
    "removed",
    "remove",
    "computed",
    "what",
    "title",
    "computation",
    "precision",
];

/// Whether `s` is an exact number as the CLI prints one: `-?digits(/digits)?`.
fn is_exact(s: &str) -> bool {
    let (num, den) = s.split_once('/').unwrap_or((s, "1"));
    let digits = num.strip_prefix('-').unwrap_or(num);
    let ok = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    ok(digits) && ok(den) && !den.starts_with('0')
}

/// A JSON value as Python objects: objects as dicts, exact strings as Fractions (except
/// under the text keys), integers as ints, decimal numbers (`--decimals`) as floats.
pub(crate) fn to_py<'py>(py: Python<'py>, v: &Value, text: bool) -> PyResult<Bound<'py, PyAny>> {
    convert(&mut Fractions::new(py)?, v, text)
}

fn convert<'py>(make: &mut Fractions<'py>, v: &Value, text: bool) -> PyResult<Bound<'py, PyAny>> {
    let py = make.py();
    Ok(match v {
        Value::String(s) if !text && is_exact(s) => match s.parse::<Rational>() {
            Ok(x) => make.fraction(&x)?,
            Err(_) => PyString::new(py, s).into_any(),
        },
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(convert(make, item, text)?)?;
            }
            list.into_any()
        }
        // An algebraic number's document (`{"algebraic": {"polynomial", "interval"},
        // "decimal", "closed_form"}`, as the typed writer's `leontief::Algebraic` newtype
        // holds it): the `leontief.Algebraic` it stands for.
        Value::Object(map) if is_algebraic(map) => {
            let doc = PyDict::new(py);
            for (k, item) in map {
                doc.set_item(k, convert(make, item, false)?)?;
            }
            algebraic_class(py)?.call_method1("_from_document", (doc,))?
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                let text = TEXT_KEYS.contains(&k.as_str());
                dict.set_item(k, convert(make, item, text)?)?;
            }
            dict.into_any()
        }
        // Null, booleans, numbers and text: as their JSON reads.
        other => to_python(py, other)?,
    })
}

/// Whether `map` has the shape of an algebraic number's document (see [`convert`]).
fn is_algebraic(map: &serde_json::Map<String, Value>) -> bool {
    let root = map.get("algebraic").and_then(Value::as_object);
    root.is_some_and(|r| r.len() == 2 && r.contains_key("polynomial") && r.contains_key("interval"))
        && map.get("decimal").is_some_and(Value::is_string)
        && map
            .keys()
            .all(|k| matches!(k.as_str(), "algebraic" | "decimal" | "closed_form"))
}

/// The value of the field `key` of a document (see [`to_py`]).
pub(crate) fn field_to_py<'py>(
    py: Python<'py>,
    key: &str,
    v: &Value,
) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, v, TEXT_KEYS.contains(&key))
}

pub(crate) fn parse_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: output is not JSON: {e}")))?;
    to_py(py, &v, false)
}

/// Reads the inputs: each a text (given as `str`) or a Python value written as JSON.
pub(crate) fn inputs(obj: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    if let Some(d) = obj {
        for (k, v) in d.iter() {
            let name: String = k.extract()?;
            let text = match v.cast::<PyString>() {
                Ok(s) => s.to_string(),
                Err(_) => to_json(&v, "", false)?,
            };
            out.push((name, text));
        }
    }
    Ok(out)
}
