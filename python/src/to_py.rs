//! JSON to Python values for the commands' outputs: exact strings (`"p/q"`) become
//! `fractions.Fraction`s, text fields stay strings.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use serde_json::Value;

use crate::to_json::{exact_types, to_json};
use crate::TEXT_KEYS;

/// How Fractions are made: `Fraction._from_coprime_ints` (Python 3.12+), or a bare
/// `Fraction` whose two slots are set (the CLI's strings are already in lowest terms, so
/// the constructor's gcd would be wasted work on large answers).
pub(crate) struct FractionMaker {
    pub(crate) fraction: Py<PyAny>,
    coprime: Option<Py<PyAny>>,
    pub(crate) object_new: Py<PyAny>,
}

pub(crate) fn maker(py: Python<'_>) -> PyResult<&'static FractionMaker> {
    static MAKER: PyOnceLock<FractionMaker> = PyOnceLock::new();
    MAKER.get_or_try_init(py, || {
        let fraction = exact_types(py)?.0.clone_ref(py);
        let coprime = fraction
            .bind(py)
            .getattr("_from_coprime_ints")
            .ok()
            .map(Bound::unbind);
        let object_new = py
            .import("builtins")?
            .getattr("object")?
            .getattr("__new__")?
            .unbind();
        Ok(FractionMaker {
            fraction,
            coprime,
            object_new,
        })
    })
}

/// Parses an exact string `-?digits(/digits)?` in lowest terms (as the CLI prints them).
fn split_rational(s: &str) -> Option<(&str, &str)> {
    let (num, den) = match s.split_once('/') {
        Some((n, d)) => (n, d),
        None => (s, "1"),
    };
    let digits = num.strip_prefix('-').unwrap_or(num);
    let ok = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    (ok(digits) && ok(den) && den != "0" && !den.starts_with('0')).then_some((num, den))
}

fn py_int<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    match text.parse::<i64>() {
        Ok(v) => Ok(v.into_pyobject(py)?.into_any()),
        Err(_) => py.get_type::<PyInt>().call1((text,)),
    }
}

fn fraction<'py>(py: Python<'py>, num: &str, den: &str) -> PyResult<Bound<'py, PyAny>> {
    let m = maker(py)?;
    let (n, d) = (py_int(py, num)?, py_int(py, den)?);
    if let Some(coprime) = &m.coprime {
        return coprime.bind(py).call1((n, d));
    }
    let f = m.object_new.bind(py).call1((m.fraction.bind(py),))?;
    f.setattr(pyo3::intern!(py, "_numerator"), n)?;
    f.setattr(pyo3::intern!(py, "_denominator"), d)?;
    Ok(f)
}

/// A JSON value as Python objects: objects as dicts, exact strings as Fractions (except
/// under the text keys), integers as ints, decimal numbers (`--decimals`) as floats.
pub(crate) fn to_py<'py>(py: Python<'py>, v: &Value, text: bool) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            let s = n.to_string();
            if s.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
                py_int(py, &s)?
            } else {
                PyFloat::new(py, s.parse::<f64>().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => match (text, split_rational(s)) {
            (false, Some((n, d))) => fraction(py, n, d)?,
            _ => PyString::new(py, s).into_any(),
        },
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item, text)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                let text = TEXT_KEYS.contains(&k.as_str());
                dict.set_item(k, to_py(py, item, text)?)?;
            }
            dict.into_any()
        }
    })
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
                Err(_) => to_json(&v, "", false)?.to_string(),
            };
            out.push((name, text));
        }
    }
    Ok(out)
}
