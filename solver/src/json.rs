//! Reading exact numbers and names from JSON with messages that name the field at fault;
//! shared by every input format of the workspace (flat instances, trees, workloads).

use serde_json::{Map, Value};

use crate::{Rational, SolverError};

/// The sign a vector's entries must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    /// Zero or more.
    NonNegative,
    /// Strictly positive.
    Positive,
}

/// Checks a vector's length (`m`, one per resource) and the sign of its entries, naming
/// `field` and the entry at fault.
pub fn check_vector(field: &str, v: &[Rational], m: usize, sign: Sign) -> Result<(), SolverError> {
    if v.len() != m {
        return Err(SolverError::invalid(
            field,
            format!("expected {m} entries, one per resource, found {}", v.len()),
        ));
    }
    for (j, x) in v.iter().enumerate() {
        match sign {
            Sign::NonNegative if x.is_negative() => {
                return Err(SolverError::invalid(
                    format!("{field}[{j}]"),
                    format!("must not be negative, found {x}"),
                ))
            }
            Sign::Positive if !x.is_positive() => {
                return Err(SolverError::invalid(
                    format!("{field}[{j}]"),
                    format!("must be positive, found {x}"),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// How a JSON value is described in messages: `a number`, `a list`, ...
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Rejects a key of `obj` not in `known`, naming it as `prefix.key`; `listing` is what the
/// message says was expected.
pub fn reject_unknown(
    obj: &Map<String, Value>,
    prefix: &str,
    known: &[&str],
    listing: &str,
) -> Result<(), SolverError> {
    for key in obj.keys() {
        if !known.contains(&key.as_str()) {
            let field = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            return Err(SolverError::invalid(
                field,
                format!("unknown field (expected {listing})"),
            ));
        }
    }
    Ok(())
}

/// Reads one exact number at `field`.
pub fn read_number(field: &str, v: &Value) -> Result<Rational, SolverError> {
    match v {
        Value::Number(_) | Value::String(_) => {
            Rational::from_json(v).map_err(|e| SolverError::number(field, e))
        }
        other => Err(SolverError::invalid(
            field,
            format!("expected a number, found {}", kind(other)),
        )),
    }
}

/// Reads a list of exact numbers at `field`.
pub fn read_numbers(field: &str, v: &Value) -> Result<Vec<Rational>, SolverError> {
    let list = v.as_array().ok_or_else(|| {
        SolverError::invalid(
            field,
            format!("expected a list of numbers, found {}", kind(v)),
        )
    })?;
    list.iter()
        .enumerate()
        .map(|(j, x)| read_number(&format!("{field}[{j}]"), x))
        .collect()
}

/// Reads a list of strings at `field`.
pub fn read_names(field: &str, v: &Value) -> Result<Vec<String>, SolverError> {
    let list = v.as_array().ok_or_else(|| {
        SolverError::invalid(
            field,
            format!("expected a list of names, found {}", kind(v)),
        )
    })?;
    list.iter()
        .enumerate()
        .map(|(j, x)| {
            x.as_str().map(str::to_string).ok_or_else(|| {
                SolverError::invalid(
                    format!("{field}[{j}]"),
                    format!("expected a string, found {}", kind(x)),
                )
            })
        })
        .collect()
}

/// A list of exact strings `"p/q"`.
pub fn exact_list(v: &[Rational]) -> Value {
    Value::Array(v.iter().map(|x| Value::String(x.to_string())).collect())
}
