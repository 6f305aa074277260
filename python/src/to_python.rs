//! The CLI's JSON as Python objects: dicts (in the document's order), lists, strs, ints,
//! floats, bools and `None`, with every exact number a `fractions.Fraction` and every
//! algebraic number a `leontief.Algebraic`.
//!
//! The documents reach Python as JSON values (every command's but `solve`'s exact answer: the
//! library builds them as `serde_json::Value`s with exact numbers as `"p/q"` strings), whose
//! exact strings are told from text by the key they sit under ([`is_text_key`]): the value no
//! longer holds the type. `solve`'s exact answer ([`crate::answer`]) makes its Fractions from
//! the `Rational`s themselves ([`Fractions::fraction`]).

use std::collections::HashMap;

use foldhash::fast::FixedState;
use leontief::output::NAMES;
use leontief::solver::Rational;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyType};
use serde_json::Value;

/// The `leontief.Algebraic` class.
pub(crate) fn algebraic_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    CLASS.import(py, "leontief._algebraic", "Algebraic")
}

/// `fractions.Fraction` and `decimal.Decimal`.
pub(crate) fn exact_types(py: Python<'_>) -> PyResult<(&Bound<'_, PyType>, &Bound<'_, PyType>)> {
    static FRACTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    static DECIMAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let fraction = FRACTION.import(py, "fractions", "Fraction")?;
    Ok((fraction, DECIMAL.import(py, "decimal", "Decimal")?))
}

/// `object.__new__` (looked up once per process: a `Fractions` is made per record).
fn object_new(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static OBJECT_NEW: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    OBJECT_NEW
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(
                py.get_type::<PyAny>()
                    .getattr(pyo3::intern!(py, "__new__"))?
                    .unbind(),
            )
        })
        .map(|f| f.bind(py))
}

/// Makes the Fractions of one answer, each distinct value once (Fractions are immutable):
/// an answer's numbers repeat values (zero entries, equal shares) and share few denominators
/// (users frozen at the same level), and a Python int of a hundred bits costs more to make
/// than to look up.
pub(crate) struct Fractions<'py> {
    py: Python<'py>,
    fraction: Bound<'py, PyType>,
    object_new: Bound<'py, PyAny>,
    /// Whether a bare `Fraction` with its slots set is the Fraction (checked once per
    /// process: the slots are CPython's private layout); if not, the public constructor.
    slots: bool,
    /// Hashed by foldhash (the keys are integers made by this process, not chosen by an
    /// adversary): SipHash was a tenth of the time spent making an answer's Fractions.
    ints: HashMap<Int, Bound<'py, PyAny>, FixedState>,
    values: HashMap<(Int, Int), Bound<'py, PyAny>, FixedState>,
    /// The Fractions made from a rational's text, by text.
    texts: HashMap<String, Bound<'py, PyAny>>,
}

/// An integer, as a cache key.
#[derive(PartialEq, Eq, Hash, Clone)]
enum Int {
    Small(i128),
    Big(num_bigint::BigInt),
}

impl<'py> Fractions<'py> {
    pub(crate) fn new(py: Python<'py>) -> PyResult<Self> {
        let mut make = Fractions {
            py,
            fraction: exact_types(py)?.0.clone(),
            object_new: object_new(py)?.clone(),
            slots: true,
            ints: HashMap::default(),
            values: HashMap::default(),
            texts: HashMap::new(),
        };
        make.slots = slots_work(&mut make)?;
        Ok(make)
    }

    /// Room for `n` distinct values (and as many integers) without growing the caches.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.values.reserve(n);
        self.ints.reserve(n);
    }

    /// A Python int: machine words directly, larger ones made once per value.
    fn int(&mut self, x: &Int) -> PyResult<Bound<'py, PyAny>> {
        if let Int::Small(v) = x
            && let Ok(v) = i64::try_from(*v)
        {
            return Ok(v.into_pyobject(self.py)?.into_any());
        }
        if let Some(v) = self.ints.get(x) {
            return Ok(v.clone());
        }
        let v = match x {
            Int::Small(v) => v.into_pyobject(self.py)?.into_any(),
            Int::Big(v) => v.into_pyobject(self.py)?.into_any(),
        };
        self.ints.insert(x.clone(), v.clone());
        Ok(v)
    }

    /// The Fraction of `x` (in lowest terms, as `Rational` keeps it: the constructor's gcd
    /// is skipped by setting the two slots of a bare `Fraction`).
    pub(crate) fn fraction(&mut self, x: &Rational) -> PyResult<Bound<'py, PyAny>> {
        // Keyed by the integers (a `Rational`'s own hash expands a continued fraction).
        let key = match x.as_small() {
            Some((n, d)) => (Int::Small(n), Int::Small(d)),
            None => (Int::Big(x.numer()), Int::Big(x.denom())),
        };
        self.of_terms(key)
    }

    /// The Fraction of the terms `key` (in lowest terms), made once per value.
    fn of_terms(&mut self, key: (Int, Int)) -> PyResult<Bound<'py, PyAny>> {
        if let Some(v) = self.values.get(&key) {
            return Ok(v.clone());
        }
        let (n, d) = (self.int(&key.0)?, self.int(&key.1)?);
        let f = self.make(n, d)?;
        self.values.insert(key, f.clone());
        Ok(f)
    }

    fn make(&self, n: Bound<'py, PyAny>, d: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        if !self.slots {
            return self.fraction.call1((n, d));
        }
        let f = self.object_new.call1((&self.fraction,))?;
        f.setattr(pyo3::intern!(py, "_numerator"), n)?;
        f.setattr(pyo3::intern!(py, "_denominator"), d)?;
        Ok(f)
    }
}

/// Whether Fractions made by setting the slots equal the constructor's (value, hash, text,
/// arithmetic), decided once per process.
fn slots_work(make: &mut Fractions<'_>) -> PyResult<bool> {
    static WORK: PyOnceLock<bool> = PyOnceLock::new();
    let py = make.py;
    WORK.get_or_try_init(py, || {
        let x = Rational::new(-3, 4).expect("a nonzero denominator");
        let made = match make.fraction(&x) {
            Ok(f) => f,
            Err(_) => return Ok(false),
        };
        make.values.clear();
        let public = make.fraction.call1((-3, 4))?;
        let same = made.eq(&public)?
            && made.hash()? == public.hash()?
            && made.str()?.to_cow()? == public.str()?.to_cow()?
            && made.add(&public)?.eq(make.fraction.call1((-3, 2))?)?
            && made.get_type().is(&make.fraction);
        Ok(same)
    })
    .copied()
}

impl<'py> Fractions<'py> {
    /// A JSON value the CLI printed as Python objects: a string of the exact form (`"p/q"`)
    /// is a Fraction unless it sits under a text key (`text`), an algebraic number's document
    /// (`{"algebraic": {"polynomial", "interval"}, "decimal", "closed_form"}`) a
    /// `leontief.Algebraic`; integers (of any size) as ints, decimal numbers (`--decimals`)
    /// as floats, booleans and null as they read.
    pub(crate) fn value(&mut self, value: &Value, text: bool) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match value {
            Value::Null => py.None().into_bound(py),
            Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
            // The number's JSON text (the workspace's `arbitrary_precision`).
            Value::Number(n) => match n.as_str() {
                t if t.bytes().all(|b| b.is_ascii_digit() || b == b'-') => {
                    py.get_type::<PyInt>().call1((t,))?
                }
                t => {
                    let x: f64 = t
                        .parse()
                        .map_err(|_| PyValueError::new_err(format!("not a number: {t}")))?;
                    PyFloat::new(py, x).into_any()
                }
            },
            // In lowest terms (as the CLI prints a rational) the text is the rational's own;
            // any other spelling (`"6/4"` given to `loads`) is read as the rational it stands for.
            // A text seen before is its cached Fraction, without parsing it again; a text of
            // machine-word terms in lowest terms ([`lowest_terms`]) is made without a gcd.
            Value::String(t) if !text && is_exact(t) => match self.texts.get(t.as_str()) {
                Some(f) => f.clone(),
                None => match lowest_terms(t) {
                    Some((n, d)) => {
                        // Made directly: the text cache is the one a text can hit again.
                        let n = self.int(&Int::Small(n.into()))?;
                        let d = self.int(&Int::Small(d.into()))?;
                        let f = self.make(n, d)?;
                        self.texts.insert(t.clone(), f.clone());
                        f
                    }
                    None => match t.parse::<Rational>() {
                        Ok(x) => self.fraction(&x)?,
                        Err(_) => PyString::new(py, t).into_any(),
                    },
                },
            },
            Value::String(t) => PyString::new(py, t).into_any(),
            Value::Array(items) => {
                let list = PyList::empty(py);
                for item in items {
                    list.append(self.value(item, text)?)?;
                }
                list.into_any()
            }
            Value::Object(map) => {
                let dict = PyDict::new(py);
                for (k, v) in map {
                    dict.set_item(k, self.value(v, is_text_key(k))?)?;
                }
                if is_algebraic(map) {
                    algebraic_class(py)?.call_method1("_from_document", (dict,))?
                } else {
                    dict.into_any()
                }
            }
        })
    }
}

/// A JSON document the CLI printed as Python objects (see [`Fractions::value`]).
pub(crate) fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Fractions::new(py)?.value(value, false)
}

/// Parses JSON text, exact strings as Fractions (the inverse of `dumps` on the CLI's
/// output): the CLI's JSON text as Python objects (see [`Fractions::value`]).
#[pyfunction]
pub(crate) fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: output is not JSON: {e}")))?;
    to_python(py, &v)
}

/// JSON keys whose string values are text (notes, paths, labels...), never exact numbers,
/// besides the names of [`NAMES`] ([`is_text_key`]).
const TEXT_KEYS: &[&str] = &[
    "note",
    "paths",
    "children",
    "utility",
    "direction",
    "strategy",
    "origin",
    "stop",
    "coalition",
    "liars",
    "gainers",
    "leaves",
    "pools",
    "source",
    "example",
    "label",
    "description",
    "reason",
    "order",
    "removed",
    "remove",
    "computed",
    "what",
    "title",
    "computation",
    "precision",
];

/// Whether the string values under `key` are text: names ([`NAMES`]) or [`TEXT_KEYS`].
pub(crate) fn is_text_key(key: &str) -> bool {
    NAMES.contains(&key) || TEXT_KEYS.contains(&key)
}

/// Whether `s` is an exact number as the CLI prints one: `-?digits(/digits)?`.
fn is_exact(s: &str) -> bool {
    let (num, den) = s.split_once('/').unwrap_or((s, "1"));
    let digits = num.strip_prefix('-').unwrap_or(num);
    let ok = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    ok(digits) && ok(den) && !den.starts_with('0')
}

/// The terms of an exact text (see [`is_exact`]) of machine-word terms in lowest terms, as
/// `Rational` writes it (`None` otherwise, or for larger terms: not known here).
fn lowest_terms(s: &str) -> Option<(i64, u64)> {
    let (num, den) = s.split_once('/').unwrap_or((s, "1"));
    let (Ok(n), Ok(d)) = (num.parse::<i64>(), den.parse::<u64>()) else {
        return None;
    };
    (num_integer::gcd(n.unsigned_abs(), d) == 1).then_some((n, d))
}

/// Whether `map` has the shape of an algebraic number's document (see [`Fractions::value`]).
fn is_algebraic(map: &serde_json::Map<String, Value>) -> bool {
    let root = map.get("algebraic").and_then(Value::as_object);
    root.is_some_and(|r| r.len() == 2 && r.contains_key("polynomial") && r.contains_key("interval"))
        && map.get("decimal").is_some_and(Value::is_string)
        && map
            .keys()
            .all(|k| matches!(k.as_str(), "algebraic" | "decimal" | "closed_form"))
}
