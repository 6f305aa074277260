//! An instance read straight from Python objects (no JSON text in between), for the common
//! flat form: the subset the solver's fast flat reader takes (`resources`, `capacity`,
//! `users` with `name`, `demand`, `weight`, `tasks`; the free-text `about` and `note`), with
//! every number an `int`, an integral `float`, a `str` or a `fractions.Fraction`.
//!
//! It gives the instance the CLI's reader gives on the same document written as JSON (each
//! number is read from the text the JSON form would hold, or from the same integers);
//! anything else — a field outside the subset, another type, a value the solver refuses —
//! makes it return `None`, and the caller takes the JSON route, whose reader names the field
//! at fault with the CLI's own message.

use leontief::solver::{Instance, Rational, User};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::exact_types;

/// The flat instance `obj` holds, or `None` when it is not in the subset (see the module
/// docs).
///
/// # Complexity
/// Linear in the number of entries (plus the digits of large integers).
pub(crate) fn read(obj: &Bound<'_, PyAny>) -> Option<Instance> {
    let doc = obj.cast_exact::<PyDict>().ok()?;
    let (mut resources, mut capacity, mut users) = (None, None, None);
    for (k, v) in doc.iter() {
        match &*k.cast_exact::<PyString>().ok()?.to_cow().ok()? {
            "resources" => resources = Some(items(&v)?.map(|r| text(&r)).collect::<Option<_>>()?),
            "capacity" => capacity = Some(numbers(&v)?),
            "users" => users = Some(v),
            // Free text, never read (other values take the JSON route, which checks them).
            "about" | "note" if v.is_exact_instance_of::<PyString>() => {}
            _ => return None,
        }
    }
    let capacity: Vec<Rational> = capacity?;
    let resources =
        resources.unwrap_or_else(|| (1..=capacity.len()).map(|j| format!("r{j}")).collect());
    let users = items(&users?)?
        .enumerate()
        .map(|(i, u)| user(i, &u))
        .collect::<Option<Vec<_>>>()?;
    Instance::with_pools(resources, capacity, Vec::new(), users).ok()
}

fn user(i: usize, obj: &Bound<'_, PyAny>) -> Option<User> {
    let fields = obj.cast_exact::<PyDict>().ok()?;
    let (mut name, mut demand, mut weight, mut cap) = (None, None, None, None);
    for (k, v) in fields.iter() {
        match &*k.cast_exact::<PyString>().ok()?.to_cow().ok()? {
            "name" => name = Some(text(&v)?),
            "demand" => demand = Some(numbers(&v)?),
            "weight" => weight = Some(number(&v)?),
            // `None` (JSON null) means no cap, as for the CLI's reader.
            "tasks" if v.is_none() => {}
            "tasks" => cap = Some(number(&v)?),
            _ => return None,
        }
    }
    Some(User {
        name: name.unwrap_or_else(|| format!("u{}", i + 1)),
        demand: demand?,
        weight: weight.unwrap_or(Rational::ONE),
        resource_weights: None,
        cap,
        pool: None,
        guarantee: None,
        limit: None,
        usage: None,
    })
}

/// The items of a `list` or `tuple` (the JSON arrays of the JSON route).
fn items<'py>(
    obj: &Bound<'py, PyAny>,
) -> Option<impl Iterator<Item = Bound<'py, PyAny>> + use<'py>> {
    let list: Vec<Bound<'py, PyAny>> = if let Ok(l) = obj.cast_exact::<PyList>() {
        l.iter().collect()
    } else {
        obj.cast_exact::<PyTuple>().ok()?.iter().collect()
    };
    Some(list.into_iter())
}

fn text(obj: &Bound<'_, PyAny>) -> Option<String> {
    Some(
        obj.cast_exact::<PyString>()
            .ok()?
            .to_cow()
            .ok()?
            .into_owned(),
    )
}

fn numbers(obj: &Bound<'_, PyAny>) -> Option<Vec<Rational>> {
    items(obj)?.map(|x| number(&x)).collect()
}

/// One exact number, read as the JSON route reads it: an `int` as the integer, an integral
/// `float` as its integer, a `str` as the CLI parses a string, a `Fraction` as `"p/q"`.
fn number(obj: &Bound<'_, PyAny>) -> Option<Rational> {
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    if obj.is_exact_instance_of::<PyInt>() {
        return int(obj);
    }
    if let Ok(s) = obj.cast_exact::<PyString>() {
        return s.to_cow().ok()?.parse().ok();
    }
    if let Ok(f) = obj.cast_exact::<PyFloat>() {
        // Integral and well inside i64: exactly that integer (the JSON route writes
        // `int(x)`); other floats take the JSON route, which refuses them.
        let x = f.value();
        return (x.is_finite() && x.fract() == 0.0 && x.abs() < 9.0e15)
            .then(|| Rational::from(x as i64));
    }
    let py = obj.py();
    if obj.get_type().is(exact_types(py).ok()?.0.bind(py)) {
        let (n, d) = (
            obj.getattr("numerator").ok()?,
            obj.getattr("denominator").ok()?,
        );
        if let (Ok(n), Ok(d)) = (n.extract::<i64>(), d.extract::<i64>()) {
            return Rational::new(n.into(), d.into());
        }
        return format!("{}/{}", n.str().ok()?, d.str().ok()?).parse().ok();
    }
    None
}

/// A Python `int` as a rational: machine words directly, larger ones from their digits (as
/// the JSON route reads the number's text).
fn int(obj: &Bound<'_, PyAny>) -> Option<Rational> {
    if let Ok(v) = obj.extract::<i64>() {
        return Some(Rational::from(v));
    }
    Rational::from_decimal_str(&obj.str().ok()?.to_cow().ok()?).ok()
}
