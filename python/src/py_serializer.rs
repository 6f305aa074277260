//! A serde [`Serializer`](serde::Serializer) into Python objects: a typed document (a
//! `#[derive(Serialize)]` type) becomes dicts (in field order), lists, strs, ints, floats,
//! bools and `None`, with its exact numbers told apart by type, never by key name: the newtype
//! [`RATIONAL_TYPE_NAME`] becomes a `fractions.Fraction`, the newtype [`ALGEBRAIC_TYPE_NAME`]
//! a `leontief.Algebraic`. A `serde_json::Value` passes through as its JSON reads (its strings
//! stay strings).
//!
//! The documents that reach Python as JSON values (every command's but `solve`'s exact
//! answer: the library builds them as `serde_json::Value`s with exact numbers as `"p/q"`
//! strings) go through the same writer as a [`Printed`] value, which tells their exact strings
//! from text by the key they sit under ([`TEXT_KEYS`]): the value no longer holds the type.
//!
//! Written here rather than taken from the `pythonize` crate: `pythonize` makes a newtype
//! struct transparent (its `serialize_newtype_struct` ignores the name), so it cannot tell a
//! rational's `"p/q"` from a name without a fork of its serializer.
//!
//! # References
//! - serde's data model: <https://serde.rs/data-model.html>

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use leontief::solver::algebraic::ALGEBRAIC_TYPE_NAME;
use leontief::solver::{Rational, RATIONAL_TYPE_NAME};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyList, PyString};
use serde::ser::{self, Serialize};
use serde_json::Value;

use crate::{big_int, exact_types};

/// The struct name `serde_json` gives a number under its `arbitrary_precision` feature (the
/// workspace's): its one field is the number's JSON text.
const JSON_NUMBER: &str = "$serde_json::private::Number";

/// `value` as Python objects (see the [module docs](self)).
pub(crate) fn to_python<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    PyWriter::new(py)?.write(value)
}

/// Writes typed values as Python objects, each distinct exact number made once.
pub(crate) struct PyWriter<'py> {
    py: Python<'py>,
    pub(crate) fractions: Fractions<'py>,
    /// The field names written so far, each made once (a list of rows repeats them).
    keys: HashMap<&'static str, Bound<'py, PyString>>,
}

impl<'py> PyWriter<'py> {
    pub(crate) fn new(py: Python<'py>) -> PyResult<Self> {
        Ok(PyWriter {
            py,
            fractions: Fractions::new(py)?,
            keys: HashMap::new(),
        })
    }

    /// `value` as Python objects.
    pub(crate) fn write<T: Serialize + ?Sized>(
        &mut self,
        value: &T,
    ) -> PyResult<Bound<'py, PyAny>> {
        value.serialize(&mut *self).map_err(|Error(e)| e)
    }

    /// The text a newtype wraps (a rational's `"p/q"`, a JSON number's digits).
    fn text(value: &(impl Serialize + ?Sized)) -> Result<String, Error> {
        match value.serialize(serde_json::value::Serializer) {
            Ok(serde_json::Value::String(text)) => Ok(text),
            _ => Err(ser::Error::custom("expected a text")),
        }
    }
}

/// A Python exception raised while writing (or a serializer's own message, as `ValueError`).
#[derive(Debug)]
pub(crate) struct Error(PyErr);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(PyValueError::new_err(msg.to_string()))
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Self {
        Error(e)
    }
}

type Out<'py> = Result<Bound<'py, PyAny>, Error>;

/// The `leontief.Algebraic` class.
pub(crate) fn algebraic_class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    CLASS
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(
                py.import("leontief._algebraic")?
                    .getattr("Algebraic")?
                    .unbind(),
            )
        })
        .map(|c| c.bind(py))
}

/// The serializer's integer methods: each integer a Python `int`.
macro_rules! integers {
    ($($method:ident: $int:ty),*) => {$(
        fn $method(self, v: $int) -> Out<'py> {
            Ok(v.into_pyobject(self.py).map_err(PyErr::from)?.into_any())
        }
    )*};
}

impl<'a, 'py> ser::Serializer for &'a mut PyWriter<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    type SerializeSeq = Seq<'a, 'py>;
    type SerializeTuple = Seq<'a, 'py>;
    type SerializeTupleStruct = Seq<'a, 'py>;
    type SerializeTupleVariant = Variant<Seq<'a, 'py>>;
    type SerializeMap = Map<'a, 'py>;
    type SerializeStruct = Map<'a, 'py>;
    type SerializeStructVariant = Variant<Map<'a, 'py>>;

    fn serialize_bool(self, v: bool) -> Out<'py> {
        Ok(PyBool::new(self.py, v).to_owned().into_any())
    }
    integers!(
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_i128: i128,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_u128: u128
    );
    fn serialize_f32(self, v: f32) -> Out<'py> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Out<'py> {
        Ok(PyFloat::new(self.py, v).into_any())
    }
    fn serialize_char(self, v: char) -> Out<'py> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Out<'py> {
        Ok(PyString::new(self.py, v).into_any())
    }
    fn serialize_bytes(self, v: &[u8]) -> Out<'py> {
        Ok(PyBytes::new(self.py, v).into_any())
    }
    fn serialize_none(self) -> Out<'py> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
    ) -> Out<'py> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Out<'py> {
        match name {
            RATIONAL_TYPE_NAME => {
                let text = PyWriter::text(value)?;
                Ok(self.fractions.of_text(&text)?)
            }
            ALGEBRAIC_TYPE_NAME => {
                let doc = value.serialize(&mut *self)?;
                Ok(algebraic_class(self.py)?.call_method1("_from_document", (doc,))?)
            }
            _ => value.serialize(self),
        }
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Out<'py> {
        let dict = PyDict::new(self.py);
        dict.set_item(variant, value.serialize(&mut *self)?)?;
        Ok(dict.into_any())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Seq<'a, 'py>, Error> {
        Ok(Seq {
            list: PyList::empty(self.py),
            writer: self,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'a, 'py>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Seq<'a, 'py>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Ok(Variant {
            variant,
            inner: self.serialize_seq(Some(len))?,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Map<'a, 'py>, Error> {
        Ok(Map {
            dict: PyDict::new(self.py),
            key: None,
            number: None,
            writer: self,
        })
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Map<'a, 'py>, Error> {
        let mut map = self.serialize_map(Some(len))?;
        if name == JSON_NUMBER {
            map.number = Some(String::new());
        }
        Ok(map)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Ok(Variant {
            variant,
            inner: self.serialize_map(Some(len))?,
        })
    }
}

/// A sequence being written: a list.
pub(crate) struct Seq<'a, 'py> {
    writer: &'a mut PyWriter<'py>,
    list: Bound<'py, PyList>,
}

impl<'py> Seq<'_, 'py> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        Ok(self.list.append(value.serialize(&mut *self.writer)?)?)
    }
}

/// `serde`'s three list-shaped writers differ only in the name of the element method.
macro_rules! list_writer {
    ($($trait:ident :: $method:ident),*) => {$(
        impl<'py> ser::$trait for Seq<'_, 'py> {
            type Ok = Bound<'py, PyAny>;
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.push(value)
            }
            fn end(self) -> Out<'py> {
                Ok(self.list.into_any())
            }
        }
    )*};
}
list_writer!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

/// A map or struct being written: a dict (insertion order is the document's order).
pub(crate) struct Map<'a, 'py> {
    writer: &'a mut PyWriter<'py>,
    dict: Bound<'py, PyDict>,
    key: Option<Bound<'py, PyAny>>,
    /// The text of a `serde_json` number under `arbitrary_precision` (see [`JSON_NUMBER`]).
    number: Option<String>,
}

impl<'py> Map<'_, 'py> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        if self.number.is_some() {
            self.number = Some(PyWriter::text(value)?);
            return Ok(());
        }
        let py = self.writer.py;
        let key = self
            .writer
            .keys
            .entry(key)
            .or_insert_with(|| PyString::new(py, key))
            .clone();
        Ok(self
            .dict
            .set_item(key, value.serialize(&mut *self.writer)?)?)
    }

    fn finish(self) -> Out<'py> {
        let Some(text) = self.number else {
            return Ok(self.dict.into_any());
        };
        // An integer as a Python int (of any size), anything else as a float.
        let py = self.writer.py;
        let int = py.get_type::<pyo3::types::PyInt>();
        if text.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
            return Ok(int.call1((text,))?);
        }
        let x: f64 = text
            .parse()
            .map_err(|_| <Error as ser::Error>::custom(format!("not a number: {text}")))?;
        Ok(PyFloat::new(py, x).into_any())
    }
}

impl<'py> ser::SerializeMap for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(key.serialize(&mut *self.writer)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| <Error as ser::Error>::custom("a map value without its key"))?;
        Ok(self
            .dict
            .set_item(key, value.serialize(&mut *self.writer)?)?)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeStruct for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

/// An enum variant with contents: `{variant: contents}`, as `serde_json` writes it.
pub(crate) struct Variant<T> {
    variant: &'static str,
    inner: T,
}

impl<'py> ser::SerializeTupleVariant for Variant<Seq<'_, 'py>> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.inner.push(value)
    }
    fn end(self) -> Out<'py> {
        let dict = PyDict::new(self.inner.writer.py);
        dict.set_item(self.variant, self.inner.list)?;
        Ok(dict.into_any())
    }
}

impl<'py> ser::SerializeStructVariant for Variant<Map<'_, 'py>> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.inner.field(key, value)
    }
    fn end(self) -> Out<'py> {
        let dict = PyDict::new(self.inner.writer.py);
        let (variant, inner) = (self.variant, self.inner.finish()?);
        dict.set_item(variant, inner)?;
        Ok(dict.into_any())
    }
}

/// `fractions.Fraction` and `object.__new__`, looked up once per process.
struct FractionMaker {
    fraction: Py<PyAny>,
    object_new: Py<PyAny>,
}

fn maker(py: Python<'_>) -> PyResult<&'static FractionMaker> {
    static MAKER: PyOnceLock<FractionMaker> = PyOnceLock::new();
    MAKER.get_or_try_init(py, || {
        Ok(FractionMaker {
            fraction: exact_types(py)?.0.clone_ref(py),
            object_new: py
                .import("builtins")?
                .getattr("object")?
                .getattr("__new__")?
                .unbind(),
        })
    })
}

/// Makes the Fractions of one answer, each distinct value once (Fractions are immutable):
/// an answer's numbers repeat values (zero entries, equal shares) and share few denominators
/// (users frozen at the same level), and a Python int of a hundred bits costs more to make
/// than to look up.
pub(crate) struct Fractions<'py> {
    py: Python<'py>,
    fraction: Bound<'py, PyAny>,
    object_new: Bound<'py, PyAny>,
    /// Whether a bare `Fraction` with its slots set is the Fraction (checked once per
    /// process: the slots are CPython's private layout); if not, the public constructor.
    slots: bool,
    ints: HashMap<Int, Bound<'py, PyAny>, BuildHasherDefault<WordHasher>>,
    values: HashMap<(Int, Int), Bound<'py, PyAny>, BuildHasherDefault<WordHasher>>,
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
        let m = maker(py)?;
        let mut make = Fractions {
            py,
            fraction: m.fraction.bind(py).clone(),
            object_new: m.object_new.bind(py).clone(),
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
            Int::Big(v) => big_int(self.py, v)?,
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
        if let Some(v) = self.values.get(&key) {
            return Ok(v.clone());
        }
        let (n, d) = (self.int(&key.0)?, self.int(&key.1)?);
        let f = self.make(n, d)?;
        self.values.insert(key, f.clone());
        Ok(f)
    }

    /// The Fraction of a rational's text `p/q` (or `p`), as `Rational` writes it: in lowest
    /// terms with a positive denominator, so it is read without a gcd.
    pub(crate) fn of_text(&mut self, text: &str) -> PyResult<Bound<'py, PyAny>> {
        if let Some(v) = self.texts.get(text) {
            return Ok(v.clone());
        }
        let not_rational =
            || PyValueError::new_err(format!("{RATIONAL_TYPE_NAME}: not a rational: {text:?}"));
        let (n, d) = text.split_once('/').unwrap_or((text, "1"));
        if d.starts_with(['-', '+', '0']) {
            return Err(not_rational());
        }
        let int = |t: &str| match t.parse::<i64>() {
            Ok(v) => Ok(Int::Small(v.into())),
            Err(_) => t.parse().map(Int::Big).map_err(|_| not_rational()),
        };
        let (n, d) = (int(n)?, int(d)?);
        let (n, d) = (self.int(&n)?, self.int(&d)?);
        let f = self.make(n, d)?;
        self.texts.insert(text.to_owned(), f.clone());
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

/// A multiply-rotate hash over words (the keys are integers made by this process, not
/// chosen by an adversary): SipHash was a tenth of the time spent making an answer's
/// Fractions.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
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
            && made
                .get_type()
                .is(make.fraction.cast::<pyo3::types::PyType>()?);
        Ok(same)
    })
    .copied()
}

// ---------------------------------------------------------------------------------------
// The CLI's printed JSON
// ---------------------------------------------------------------------------------------

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

/// Whether an exact text (see [`is_exact`]) of machine-word terms is in lowest terms, as
/// `Rational` writes it (larger terms: not known here).
fn in_lowest_terms(s: &str) -> bool {
    let (num, den) = s.split_once('/').unwrap_or((s, "1"));
    let (Ok(a), Ok(mut b)) = (num.parse::<i64>(), den.parse::<u64>()) else {
        return false;
    };
    let mut a = a.unsigned_abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a == 1
}

/// A JSON value the CLI printed, as a typed value for [`PyWriter`]: a string of the exact form
/// (`"p/q"`) is a rational unless it sits under a text key (`text`), an algebraic number's
/// document (`{"algebraic": {"polynomial", "interval"}, "decimal", "closed_form"}`) the
/// algebraic newtype; integers, decimal numbers (`--decimals`), booleans and null as they read.
#[derive(Clone, Copy)]
pub(crate) struct Printed<'a> {
    value: &'a Value,
    text: bool,
}

impl<'a> Printed<'a> {
    /// A whole document.
    pub(crate) fn document(value: &'a Value) -> Self {
        Printed { value, text: false }
    }

    /// The value of a document's field `key`.
    pub(crate) fn field(key: &str, value: &'a Value) -> Self {
        let text = TEXT_KEYS.contains(&key);
        Printed { value, text }
    }
}

impl Serialize for Printed<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = self.text;
        match self.value {
            // In lowest terms (as the CLI prints a rational) the text is the rational's own;
            // any other spelling (`"6/4"` given to `loads`) is read as the rational it stands for.
            Value::String(t) if !text && is_exact(t) && in_lowest_terms(t) => {
                s.serialize_newtype_struct(RATIONAL_TYPE_NAME, t.as_str())
            }
            Value::String(t) if !text && is_exact(t) => match t.parse::<Rational>() {
                Ok(x) => x.serialize(s),
                Err(_) => s.serialize_str(t),
            },
            Value::Array(items) => s.collect_seq(items.iter().map(|value| Printed { value, text })),
            Value::Object(map) if is_algebraic(map) => {
                s.serialize_newtype_struct(ALGEBRAIC_TYPE_NAME, &Members(map))
            }
            Value::Object(map) => Members(map).serialize(s),
            other => other.serialize(s),
        }
    }
}

/// An object's members, each a [`Printed`] value, text under a text key.
struct Members<'a>(&'a serde_json::Map<String, Value>);

impl Serialize for Members<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, Printed::field(k, v))))
    }
}

/// Whether `map` has the shape of an algebraic number's document (see [`Printed`]).
fn is_algebraic(map: &serde_json::Map<String, Value>) -> bool {
    let root = map.get("algebraic").and_then(Value::as_object);
    root.is_some_and(|r| r.len() == 2 && r.contains_key("polynomial") && r.contains_key("interval"))
        && map.get("decimal").is_some_and(Value::is_string)
        && map
            .keys()
            .all(|k| matches!(k.as_str(), "algebraic" | "decimal" | "closed_form"))
}

/// The CLI's JSON text as Python objects (see [`Printed`]).
pub(crate) fn parse_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        pyo3::exceptions::PyRuntimeError::new_err(format!(
            "internal error: output is not JSON: {e}"
        ))
    })?;
    to_python(py, &Printed::document(&v))
}
