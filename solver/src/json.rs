//! Reading exact numbers and names from JSON with messages that name the field at fault;
//! shared by every input format of the workspace (flat instances, trees, workloads).

use serde_json::{Map, Value};

use crate::{Instance, InstanceBuilder, Rational, SolverError};

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
    check_length(field, v, m)?;
    let (wrong, rule): (fn(&Rational) -> bool, _) = match sign {
        Sign::NonNegative => (Rational::is_negative, "must not be negative"),
        Sign::Positive => (|x| !x.is_positive(), "must be positive"),
    };
    match v.iter().position(wrong) {
        Some(j) => Err(SolverError::invalid(
            format!("{field}[{j}]"),
            format!("{rule}, found {}", v[j]),
        )),
        None => Ok(()),
    }
}

/// Checks a vector's length: `m`, one per resource, naming `field`.
pub fn check_length(field: &str, v: &[Rational], m: usize) -> Result<(), SolverError> {
    if v.len() != m {
        return Err(SolverError::invalid(
            field,
            format!("expected {m} entries, one per resource, found {}", v.len()),
        ));
    }
    Ok(())
}

/// The object of the fields present (`Some`), in order: how the writers of the JSON forms
/// leave out fields at their defaults.
pub(crate) fn present<'a>(fields: impl IntoIterator<Item = (&'a str, Option<Value>)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .filter_map(|(k, v)| Some((k.to_owned(), v?)))
            .collect(),
    )
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
    let Some(key) = obj.keys().find(|k| !known.contains(&k.as_str())) else {
        return Ok(());
    };
    let field = if prefix.is_empty() {
        key.clone()
    } else {
        format!("{prefix}.{key}")
    };
    Err(SolverError::invalid(
        field,
        format!("unknown field (expected {listing})"),
    ))
}

/// `v` as an object, or an error at `field` saying what it is instead.
pub(crate) fn read_object<'a>(
    field: &str,
    v: &'a Value,
) -> Result<&'a Map<String, Value>, SolverError> {
    v.as_object().ok_or_else(|| expected(field, "an object", v))
}

/// `v` as a list, or an error at `field` saying that `what` was expected instead.
pub(crate) fn read_array<'a>(
    field: &str,
    v: &'a Value,
    what: &str,
) -> Result<&'a [Value], SolverError> {
    v.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| expected(field, what, v))
}

/// The error at `field` of a value that is not `what`: `expected what, found a list`.
pub(crate) fn expected(field: impl Into<String>, what: &str, v: &Value) -> SolverError {
    SolverError::invalid(field, format!("expected {what}, found {}", kind(v)))
}

/// The entry `key` of `obj`, or the error that it is missing at the path `at(key)`.
pub(crate) fn required<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    at: impl Fn(&str) -> String,
) -> Result<&'a Value, SolverError> {
    obj.get(key)
        .ok_or_else(|| SolverError::invalid(at(key), "missing"))
}

/// Reads a string at `field`.
pub(crate) fn read_string(field: &str, v: &Value) -> Result<String, SolverError> {
    v.as_str()
        .map(str::to_owned)
        .ok_or_else(|| expected(field, "a string", v))
}

/// Reads the entry `key` of `obj`, when present, with `read` at the path `at(key)`.
pub(crate) fn read_optional<T>(
    obj: &Map<String, Value>,
    key: &str,
    at: impl Fn(&str) -> String,
    read: impl FnOnce(&str, &Value) -> Result<T, SolverError>,
) -> Result<Option<T>, SolverError> {
    obj.get(key).map(|v| read(&at(key), v)).transpose()
}

/// The builder of a document's instance on its `capacity` (required) and `resources` (the
/// builder's default `r1..rm` when absent), as the flat and the tree form both have them.
pub(crate) fn read_resources(obj: &Map<String, Value>) -> Result<InstanceBuilder, SolverError> {
    let capacity = read_numbers("capacity", required(obj, "capacity", str::to_owned)?)?;
    let builder = Instance::builder(capacity);
    match obj.get("resources") {
        None => Ok(builder),
        Some(v) => Ok(builder.resources(read_names("resources", v)?)),
    }
}

/// Reads one exact number at `field`.
pub fn read_number(field: &str, v: &Value) -> Result<Rational, SolverError> {
    match v {
        Value::Number(_) | Value::String(_) => {
            Rational::from_json(v).map_err(|e| SolverError::number(field, e))
        }
        other => Err(expected(field, "a number", other)),
    }
}

/// Reads a list of exact numbers at `field`.
pub fn read_numbers(field: &str, v: &Value) -> Result<Vec<Rational>, SolverError> {
    // The field path of an entry is written only when the entry is wrong (a million-user
    // file has millions of entries).
    read_list(field, v, "a list of numbers", |j, x| {
        quick_number(x).map_or_else(|| read_number(&format!("{field}[{j}]"), x), Ok)
    })
}

/// A well-formed number, or `None` (then the caller reads it again with its field path for
/// the error).
pub(crate) fn quick_number(x: &Value) -> Option<Rational> {
    Rational::from_json(x).ok()
}

/// Reads a list of strings at `field`.
pub fn read_names(field: &str, v: &Value) -> Result<Vec<String>, SolverError> {
    read_list(field, v, "a list of names", |j, x| {
        read_string(&format!("{field}[{j}]"), x)
    })
}

/// Reads the list at `field` (`what`: `a list of numbers`, ...), entry `j` by `entry(j, x)`.
fn read_list<T>(
    field: &str,
    v: &Value,
    what: &str,
    entry: impl Fn(usize, &Value) -> Result<T, SolverError>,
) -> Result<Vec<T>, SolverError> {
    let list = read_array(field, v, what)?;
    list.iter().enumerate().map(|(j, x)| entry(j, x)).collect()
}

/// The deepest nesting of arrays and objects [`parse_strict`] reads. A tree of
/// [`MAX_DEPTH`](crate::hierarchy::MAX_DEPTH) (64) levels nests about 130 deep (an object and a
/// `children` list per level), well inside; anything deeper is refused with this number
/// rather than overflowing the stack.
pub const MAX_JSON_DEPTH: usize = 256;

/// Parses JSON text strictly: like `serde_json::from_str::<Value>`, but a key repeated in an
/// object is an error naming the object's path (`users[0]: duplicate key "demand"`) instead of
/// silently keeping the last value, and nesting deeper than [`MAX_JSON_DEPTH`] is an error
/// naming that depth instead of the JSON reader's recursion limit. Numbers keep their text
/// (`arbitrary_precision`) and objects their key order (`preserve_order`).
///
/// # Errors
/// [`SolverError::Json`] for unreadable JSON or too deep a nesting (with the position),
/// [`SolverError::Invalid`] for a duplicate key (with the object's path).
///
/// # Example
/// ```
/// use leontief_solver::json::parse_strict;
/// let v = parse_strict(r#"{"capacity": [9, 18.50], "users": []}"#).unwrap();
/// assert_eq!(v["capacity"][1].to_string(), "18.50");
/// let err = parse_strict(r#"{"users": [{"demand": [1], "demand": [2]}]}"#).unwrap_err();
/// assert_eq!(err.to_string(), "users[0]: duplicate key \"demand\"");
/// let deep = "[".repeat(300) + &"]".repeat(300);
/// assert!(parse_strict(&deep).unwrap_err().to_string().contains("nested deeper than 256 levels"));
/// ```
///
/// # Complexity
/// Linear in the text; recursion depth at most [`MAX_JSON_DEPTH`].
pub fn parse_strict(text: &str) -> Result<Value, SolverError> {
    parse_strict_at(text, 0)
}

/// [`parse_strict`] of a value that stands `depth` levels deep in a document (its arrays and
/// objects count from there towards [`MAX_JSON_DEPTH`]).
pub(crate) fn parse_strict_at(text: &str, depth: usize) -> Result<Value, SolverError> {
    use serde::de::DeserializeSeed;
    let fault = std::cell::RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    // Our own depth bound (checked before each nested container) replaces the reader's.
    de.disable_recursion_limit();
    let seed = strict::Seed {
        at: &strict::At::Root,
        depth,
        fault: &fault,
    };
    let result = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    result.map_err(|e| match fault.into_inner() {
        Some(strict::Fault::Duplicate { path, key }) => {
            SolverError::invalid(path, format!("duplicate key {key:?}"))
        }
        Some(strict::Fault::TooDeep) => SolverError::Json {
            line: e.line(),
            column: e.column(),
            message: format!("arrays and objects nested deeper than {MAX_JSON_DEPTH} levels"),
        },
        None => SolverError::json(&e),
    })
}

pub(crate) use strict::NUMBER_TOKEN;

/// The visitor behind [`parse_strict`].
mod strict {
    use std::cell::RefCell;
    use std::fmt;

    use serde::de::{DeserializeSeed, Error, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Number, Value};

    use super::MAX_JSON_DEPTH;

    /// How `serde_json` (with `arbitrary_precision`) hands a number to a visitor: a one-entry
    /// map from this key to the number's text.
    pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

    /// Where a value sits, as a chain up to the root (built only when an error needs it).
    pub(super) enum At<'a> {
        Root,
        Key(&'a At<'a>, &'a str),
        Index(&'a At<'a>, usize),
    }

    impl fmt::Display for At<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                At::Root => f.write_str("(top level)"),
                At::Key(At::Root, k) => f.write_str(k),
                At::Key(parent, k) => write!(f, "{parent}.{k}"),
                At::Index(At::Root, i) => write!(f, "[{i}]"),
                At::Index(parent, i) => write!(f, "{parent}[{i}]"),
            }
        }
    }

    pub(super) enum Fault {
        Duplicate { path: String, key: String },
        TooDeep,
    }

    #[derive(Clone, Copy)]
    pub(super) struct Seed<'a> {
        pub(super) at: &'a At<'a>,
        pub(super) depth: usize,
        pub(super) fault: &'a RefCell<Option<Fault>>,
    }

    impl Seed<'_> {
        fn nested<E: Error>(self) -> Result<usize, E> {
            if self.depth >= MAX_JSON_DEPTH {
                *self.fault.borrow_mut() = Some(Fault::TooDeep);
                return Err(E::custom("nested too deep"));
            }
            Ok(self.depth + 1)
        }
    }

    impl<'de> DeserializeSeed<'de> for Seed<'_> {
        type Value = Value;

        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Seed<'_> {
        type Value = Value;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_bool<E: Error>(self, v: bool) -> Result<Value, E> {
            Ok(Value::Bool(v))
        }

        fn visit_i64<E: Error>(self, v: i64) -> Result<Value, E> {
            Ok(Value::from(v))
        }

        fn visit_u64<E: Error>(self, v: u64) -> Result<Value, E> {
            Ok(Value::from(v))
        }

        fn visit_f64<E: Error>(self, v: f64) -> Result<Value, E> {
            Number::from_f64(v)
                .map(Value::Number)
                .ok_or_else(|| E::custom("not a finite number"))
        }

        fn visit_str<E: Error>(self, v: &str) -> Result<Value, E> {
            Ok(Value::String(v.to_string()))
        }

        fn visit_string<E: Error>(self, v: String) -> Result<Value, E> {
            Ok(Value::String(v))
        }

        fn visit_unit<E: Error>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }

        fn visit_none<E: Error>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            let depth = self.nested()?;
            let mut out = Vec::new();
            loop {
                let at = At::Index(self.at, out.len());
                let seed = Seed {
                    at: &at,
                    depth,
                    fault: self.fault,
                };
                match seq.next_element_seed(seed)? {
                    Some(v) => out.push(v),
                    None => return Ok(Value::Array(out)),
                }
            }
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            let mut out = Map::new();
            let mut first = true;
            while let Some(key) = map.next_key::<String>()? {
                if first && key == NUMBER_TOKEN {
                    let text: String = map.next_value()?;
                    let n: Number = text.parse().map_err(A::Error::custom)?;
                    return Ok(Value::Number(n));
                }
                if first {
                    // A real object: it counts towards the depth.
                    self.nested::<A::Error>()?;
                    first = false;
                }
                if out.contains_key(&key) {
                    *self.fault.borrow_mut() = Some(Fault::Duplicate {
                        path: self.at.to_string(),
                        key: key.clone(),
                    });
                    return Err(A::Error::custom("duplicate key"));
                }
                let at = At::Key(self.at, &key);
                let seed = Seed {
                    at: &at,
                    depth: self.depth + 1,
                    fault: self.fault,
                };
                let value = map.next_value_seed(seed)?;
                out.insert(key, value);
            }
            if first {
                self.nested::<A::Error>()?;
            }
            Ok(Value::Object(out))
        }
    }
}
