//! Python values to JSON, as the CLI reads them: exact numbers (`int`, `Fraction`,
//! `Decimal`) keep their exact value, and a value that cannot be converted is refused,
//! naming its field path.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

use crate::InvalidInput;

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A Python value as the JSON the CLI reads: `int` as a JSON integer, `Fraction` as `"p/q"`,
/// `Decimal` as its digits, `str` as given; a non-integral `float` is refused (it is not
/// the number it prints as), naming the field.
pub(crate) fn to_json(obj: &Bound<'_, PyAny>, path: &str, floats: bool) -> PyResult<Value> {
    let py = obj.py();
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        let text = obj.str()?.to_string();
        return number(&text, path);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_string()));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let x = f.value();
        if x.is_finite() && x.fract() == 0.0 {
            let int = obj.call_method0("__int__")?;
            return number(&int.str()?.to_string(), path);
        }
        if floats && x.is_finite() {
            // An inexact figure the CLI itself printed (a record's tolerance or gap).
            return number(&obj.repr()?.to_string(), path);
        }
        return Err(InvalidInput::new_err(format!(
            "{}: expected an exact number (int, str such as \"7/3\" or \"0.37\", Fraction or Decimal), found the float {} (a float is not exact)",
            display_path(path),
            obj.repr()?
        )));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, v) in d.iter() {
            let key = k.cast::<PyString>().map_err(|_| {
                InvalidInput::new_err(format!(
                    "{}: expected string keys, found {}",
                    display_path(path),
                    k.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            let key = key.to_string();
            let value = to_json(&v, &child(path, &key), floats)?;
            map.insert(key, value);
        }
        return Ok(Value::Object(map));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for (i, v) in obj.try_iter()?.enumerate() {
            items.push(to_json(&v?, &format!("{path}[{i}]"), floats)?);
        }
        return Ok(Value::Array(items));
    }
    let types = exact_types(py)?;
    if obj.is_instance(types.0.bind(py))? {
        let (n, d) = (obj.getattr("numerator")?, obj.getattr("denominator")?);
        let d_text = d.str()?.to_string();
        let text = if d_text == "1" {
            n.str()?.to_string()
        } else {
            format!("{}/{}", n.str()?, d_text)
        };
        return Ok(Value::String(text));
    }
    if obj.is_instance(types.1.bind(py))? {
        if !obj.call_method0("is_finite")?.is_truthy()? {
            return Err(InvalidInput::new_err(format!(
                "{}: expected a finite number, found {}",
                display_path(path),
                obj.repr()?
            )));
        }
        // Plain digits (no exponent), as the CLI reads them.
        let text = obj.call_method1("__format__", ("f",))?.str()?.to_string();
        return Ok(Value::String(text));
    }
    if let Ok(fspath) = obj.call_method0("__fspath__") {
        return Ok(Value::String(fspath.str()?.to_string()));
    }
    Err(InvalidInput::new_err(format!(
        "{}: expected a number, string, list or dict, found {}",
        display_path(path),
        obj.get_type().name()?
    )))
}

fn display_path(path: &str) -> &str {
    if path.is_empty() {
        "input"
    } else {
        path
    }
}

fn number(text: &str, path: &str) -> PyResult<Value> {
    text.parse::<Number>()
        .map(Value::Number)
        .map_err(|e| InvalidInput::new_err(format!("{}: {e}", display_path(path))))
}

/// `fractions.Fraction` and `decimal.Decimal`.
pub(crate) fn exact_types(py: Python<'_>) -> PyResult<&'static (Py<PyAny>, Py<PyAny>)> {
    static TYPES: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();
    TYPES.get_or_try_init(py, || {
        Ok((
            py.import("fractions")?.getattr("Fraction")?.unbind(),
            py.import("decimal")?.getattr("Decimal")?.unbind(),
        ))
    })
}
