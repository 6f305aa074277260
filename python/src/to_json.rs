//! Python values to JSON text, as the CLI reads them: exact numbers (`int`, `Fraction`,
//! `Decimal`) keep their exact value, and a value that cannot be converted is refused,
//! naming its field path. The text is written straight from the Python objects (no JSON value
//! in between, the field path made only for an error): it is what every input held in memory
//! costs before the CLI's reader reads it.

use std::fmt::Write;

use leontief::output::write_json_str;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::to_python::exact_types;
use crate::InvalidInput;

/// Where a value sits in the document, for error messages (rendered only when one is made).
#[derive(Clone, Copy)]
enum Path<'a> {
    Root(&'a str),
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Root("") => f.write_str("input"),
            Path::Root(name) => f.write_str(name),
            Path::Key(Path::Root(""), key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(Path::Root(""), i) => write!(f, "[{i}]"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// A Python value as the JSON text the CLI reads: `int` as a JSON integer, `Fraction` as
/// `"p/q"`, `Decimal` as its digits, `str` as given; a non-integral `float` is refused (it is
/// not the number it prints as) unless `floats` (records the CLI printed hold inexact figures),
/// naming the field (`root` names the whole value; empty: `input`).
pub(crate) fn to_json(obj: &Bound<'_, PyAny>, root: &str, floats: bool) -> PyResult<String> {
    let mut out = String::new();
    write_value(obj, &Path::Root(root), floats, &mut out)?;
    Ok(out)
}

fn write_value(
    obj: &Bound<'_, PyAny>,
    path: &Path<'_>,
    floats: bool,
    out: &mut String,
) -> PyResult<()> {
    // The common exact types first (a bool is an int: told apart first), then the other
    // spellings.
    if let Ok(b) = obj.cast::<PyBool>() {
        out.push_str(if b.is_true() { "true" } else { "false" });
        return Ok(());
    }
    if obj.is_instance_of::<PyInt>() {
        return write_int(obj, out);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        write_json_str(&s.to_cow()?, out);
        return Ok(());
    }
    // An algebraic number as the command line writes it.
    if obj.is_instance(crate::to_python::algebraic_class(obj.py())?)? {
        return write_value(&obj.call_method0("_document")?, path, floats, out);
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        out.push('{');
        for (i, (k, v)) in d.iter().enumerate() {
            let key = k.cast::<PyString>().map_err(|_| {
                InvalidInput::new_err(format!(
                    "{path}: expected string keys, found {}",
                    k.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            let key = key.to_cow()?;
            if i > 0 {
                out.push(',');
            }
            write_json_str(&key, out);
            out.push(':');
            write_value(&v, &Path::Key(path, &key), floats, out)?;
        }
        out.push('}');
        return Ok(());
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        out.push('[');
        for (i, v) in obj.try_iter()?.enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_value(&v?, &Path::Index(path, i), floats, out)?;
        }
        out.push(']');
        return Ok(());
    }
    if obj.is_none() {
        out.push_str("null");
        return Ok(());
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let x = f.value();
        if x.is_finite() && x.fract() == 0.0 {
            return write_int(&obj.call_method0("__int__")?, out);
        }
        if floats && x.is_finite() {
            // An inexact figure the CLI itself printed (a record's tolerance or gap).
            out.push_str(&obj.repr()?.to_cow()?);
            return Ok(());
        }
        return Err(InvalidInput::new_err(format!(
            "{path}: expected an exact number (int, str such as \"7/3\" or \"0.37\", Fraction or Decimal), found the float {} (a float is not exact)",
            obj.repr()?
        )));
    }
    let py = obj.py();
    let (fraction, decimal) = exact_types(py)?;
    if obj.is_instance(fraction)? {
        let (n, d) = (obj.getattr("numerator")?, obj.getattr("denominator")?);
        let d_text = d.str()?;
        let d_text = d_text.to_cow()?;
        out.push('"');
        out.push_str(&n.str()?.to_cow()?);
        if d_text != "1" {
            out.push('/');
            out.push_str(&d_text);
        }
        out.push('"');
        return Ok(());
    }
    if obj.is_instance(decimal)? {
        if !obj.call_method0("is_finite")?.is_truthy()? {
            return Err(InvalidInput::new_err(format!(
                "{path}: expected a finite number, found {}",
                obj.repr()?
            )));
        }
        // Plain digits (no exponent), as the CLI reads them.
        let text = obj.call_method1("__format__", ("f",))?.str()?;
        write_json_str(&text.to_cow()?, out);
        return Ok(());
    }
    if let Ok(fspath) = obj.call_method0("__fspath__") {
        write_json_str(&fspath.str()?.to_cow()?, out);
        return Ok(());
    }
    Err(InvalidInput::new_err(format!(
        "{path}: expected a number, string, list or dict, found {}",
        obj.get_type().name()?
    )))
}

/// An `int` (of any size) as its digits.
fn write_int(obj: &Bound<'_, PyAny>, out: &mut String) -> PyResult<()> {
    match obj.extract::<i64>() {
        // Writing to a String cannot fail.
        Ok(v) => drop(write!(out, "{v}")),
        Err(_) => out.push_str(&obj.str()?.to_cow()?),
    }
    Ok(())
}

/// Reads the inputs: each a text (given as `str`) or a Python value written as JSON.
pub(crate) fn inputs(obj: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let each = obj.into_iter().flat_map(|d| d.iter());
    each.map(|(k, v)| match v.cast::<PyString>() {
        Ok(s) => Ok((k.extract()?, s.to_string())),
        Err(_) => Ok((k.extract()?, to_json(&v, "", false)?)),
    })
    .collect()
}
