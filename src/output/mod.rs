//! Output written straight into a buffer: pretty JSON, CSV and numbers, each number converted
//! once, with no JSON tree in between.
//!
//! [`Numbers`] says how an exact number is printed: as the exact string `"p/q"` (the
//! default) or correctly rounded to `N` significant digits as a JSON number literal
//! ([`leontief_solver::Rational::to_decimal`], ties to even). Rows written by hand keep the
//! layout of `serde_json::to_string_pretty` (two-space indentation, `"key": value`, `[]` and
//! `{}` when empty), whose output gives the members around them ([`push_members`]), so that
//! streaming changes nothing a reader sees. [`Sink`] buffers the text between the rows,
//! which are handed on batch by batch.
//!
//! # Complexity
//! Linear in the output's size, plus one conversion per number (see `to_decimal` for the
//! decimal one); memory is one block of the buffer (64 KiB) beyond the answer itself.

pub mod allocation;
pub mod ceei;
pub mod digits;

use std::io;

use leontief_solver::Rational;
use serde::Serialize;
use serde_json::Value;

/// How numbers are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Numbers {
    /// Exact strings, `"p/q"` or `"p"`.
    #[default]
    Exact,
    /// Correctly rounded to this many significant digits (at least 1), ties to even, as a
    /// JSON number literal.
    Decimals(u32),
}

impl Numbers {
    /// The significant digits, or `None` when exact.
    pub fn digits(self) -> Option<u32> {
        match self {
            Numbers::Exact => None,
            Numbers::Decimals(n) => Some(n),
        }
    }

    /// The precision note a JSON answer carries: `{"decimals": N}`, or `None` when exact.
    pub fn precision(self) -> Option<Value> {
        self.digits().map(|n| serde_json::json!({ "decimals": n }))
    }

    /// `x` as a bare cell: `p/q`, or the rounded decimal; with `quoted`, an exact `"p/q"` is
    /// quoted (a JSON string; the decimal is a JSON number literal either way).
    pub fn write(self, x: &Rational, quoted: bool, out: &mut String) {
        match self {
            Numbers::Exact => in_quotes(quoted, out, |out| write_exact(x, out)),
            Numbers::Decimals(n) => x.write_decimal(n, out),
        }
    }

    /// `x` as a JSON value: the exact string `"p/q"`, or the rounded decimal as a number.
    pub fn value(self, x: &Rational) -> Value {
        match self {
            Numbers::Exact => Value::String(x.to_string()),
            Numbers::Decimals(n) => decimal_value(x.to_decimal(n)),
        }
    }

    /// Rounds the exact numbers of a JSON value in place under decimals ([`round_value`]);
    /// exact, leaves it as it is.
    pub fn round(self, v: &mut Value) {
        if let Numbers::Decimals(n) = self {
            round_value(v, n);
        }
    }

    /// A list of exact numbers as JSON values ([`Numbers::value`]).
    pub fn values(self, xs: &[Rational]) -> Vec<Value> {
        xs.iter().map(|x| self.value(x)).collect()
    }

    /// `x` as a string for a table cell.
    pub fn text(self, x: &Rational) -> String {
        let mut s = String::new();
        self.write(x, false, &mut s);
        s
    }
}

/// A correctly rounded decimal as a JSON number (its text kept as written).
pub fn decimal_value(text: String) -> Value {
    text.parse::<serde_json::Number>()
        .map_or(Value::String(text), Value::Number)
}

/// Writes `write`'s text, between quotes when `quoted` (an exact number as a JSON string).
#[inline]
pub(super) fn in_quotes(quoted: bool, out: &mut String, write: impl FnOnce(&mut String)) {
    if quoted {
        out.push('"');
    }
    write(out);
    if quoted {
        out.push('"');
    }
}

/// Appends `p/q` (or `p`), as `Rational`'s `Display` prints it, without a temporary string.
pub fn write_exact(x: &Rational, out: &mut String) {
    match (x.as_small(), x.big_parts()) {
        (Some((n, d)), _) => {
            let mut digits = itoa::Buffer::new();
            out.push_str(digits.format(n));
            if d != 1 {
                out.push('/');
                out.push_str(digits.format(d));
            }
        }
        (None, Some((n, d))) => {
            write_bigint(n, out);
            if !x.is_integer() {
                out.push('/');
                write_bigint(d, out);
            }
        }
        (None, None) => out.push_str(&x.to_string()),
    }
}

pub use digits::write_bigint;

/// A number's text rounded to `digits` significant digits when it holds a number (an exact
/// `p/q` or a decimal literal), unchanged otherwise (a name, an empty cell).
pub fn round_text(text: &str, digits: u32) -> String {
    if looks_numeric(text)
        && let Ok(x) = text.parse::<Rational>()
    {
        return x.to_decimal(digits);
    }
    text.to_string()
}

/// CSV text with every numeric cell rounded to `digits` significant digits ([`round_text`]);
/// the header row and quoted cells (names) are kept as they are. Records end at line breaks
/// outside quotes (a name may hold one).
pub fn round_csv(text: &str, digits: u32) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let records = text.split_terminator(|c| {
        quoted ^= c == '"';
        c == '\n' && !quoted
    });
    for (k, line) in records.enumerate() {
        match k {
            0 => out.push_str(line),
            _ => round_row(line, digits, &mut out),
        }
        out.push('\n');
    }
    out
}

/// One CSV row with its numeric cells rounded ([`round_csv`]): cells split at the commas
/// outside quotes (a doubled quote inside a quoted cell closes and reopens it), quoted cells
/// kept as they are.
fn round_row(line: &str, digits: u32, out: &mut String) {
    let mut quoted = false;
    let cells = line.split(|c| {
        quoted ^= c == '"';
        c == ',' && !quoted
    });
    for (k, cell) in cells.enumerate() {
        if k > 0 {
            out.push(',');
        }
        if cell.starts_with('"') {
            out.push_str(cell);
        } else {
            out.push_str(&round_text(cell, digits));
        }
    }
}

/// Text buffered on its way to a writer, handed on batch by batch of rows
/// ([`Sink::write_through`]) and at the end; the first write error is kept and returned by
/// [`Sink::finish`] (later writes are dropped).
pub struct Sink<'w> {
    /// The pending text; writers append to it directly.
    pub buf: String,
    out: &'w mut dyn io::Write,
    error: Option<io::Error>,
}

/// The room a [`Sink`]'s buffer starts with.
const BLOCK: usize = 1 << 16;

impl<'w> Sink<'w> {
    /// A sink writing to `out`.
    pub fn new(out: &'w mut dyn io::Write) -> Self {
        Sink {
            buf: String::with_capacity(BLOCK),
            out,
            error: None,
        }
    }

    fn flush(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(self.buf.as_bytes())
        {
            self.error = Some(e);
        }
        self.buf.clear();
    }

    /// Hands the pending text and then `text` on, without copying `text` into the buffer
    /// (large blocks formatted elsewhere).
    pub fn write_through(&mut self, text: &str) {
        if !self.buf.is_empty() {
            self.flush();
        }
        if self.error.is_none()
            && let Err(e) = self.out.write_all(text.as_bytes())
        {
            self.error = Some(e);
        }
    }

    /// Hands the rest on and flushes the writer.
    pub fn finish(mut self) -> io::Result<()> {
        self.flush();
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

/// Writes the output of `write` into a string (the writers' tests).
#[cfg(test)]
pub fn to_string(write: impl FnOnce(&mut Sink<'_>)) -> String {
    let mut bytes: Vec<u8> = Vec::new();
    {
        let mut sink = Sink::new(&mut bytes);
        write(&mut sink);
        // Writing to a Vec cannot fail.
        let _ = sink.finish();
    }
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
}

/// Writes the members of `doc` (a document type or a map: a JSON object) in serde_json's
/// pretty layout as members of an open top-level object, `\n  "key": value` each, after a
/// comma when they follow others (`after`): the members of an answer around the rows
/// written by hand. A long text (a trace) is handed on as it is, not copied into the buffer.
pub fn push_members<T: Serialize + ?Sized>(sink: &mut Sink<'_>, doc: &T, after: bool) {
    // A document of strings, numbers and maps with string keys always serializes.
    let text = serde_json::to_string_pretty(doc).unwrap_or_default();
    let inner = text
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or_default();
    let inner = inner.strip_suffix('\n').unwrap_or(inner);
    if after && !inner.is_empty() {
        sink.buf.push(',');
    }
    if inner.len() < BLOCK {
        sink.buf.push_str(inner);
    } else {
        sink.write_through(inner);
    }
}

/// Appends `s` as a JSON string, escaped by serde_json (`\"`, `\\`, `\n`, `\t`, `\r`, `\b`,
/// `\f`, other control characters as `\u00xx`) when it needs escapes.
pub fn write_json_str(s: &str, out: &mut String) {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        // A string always serializes.
        out.push_str(&serde_json::to_string(s).unwrap_or_default());
    } else {
        out.push('"');
        out.push_str(s);
        out.push('"');
    }
}

/// Appends `s` as a CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma,
/// a quote or a line break.
pub fn write_csv_field(s: &str, out: &mut String) {
    if s.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&s.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(s);
    }
}

/// Whether a JSON string holds an exact number as the commands print them: an integer or a
/// fraction `p/q` (optionally negative), or a decimal literal such as `0.25` or `1e-9` (the
/// floats of approximate answers).
fn looks_numeric(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    let Some(first) = body.bytes().next() else {
        return false;
    };
    first.is_ascii_digit()
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'/' | b'.' | b'e' | b'E' | b'-' | b'+'))
}

/// Keys whose string values are names in every document the commands print, never numbers
/// (users, resources, nodes, policies, mechanisms, properties...), even when a name looks
/// like one (a user called `7`): the rounding leaves them ([`is_name_key`]) and the Python
/// package reads them as text, not as exact numbers.
pub const NAMES: &[&str] = &[
    "name",
    "names",
    "user",
    "users",
    "resource",
    "resources",
    "saturated",
    "path",
    "pool",
    "parent",
    "policy",
    "mechanism",
    "mechanisms",
    "property",
    "metric",
    "kind",
    "key",
    "leaf",
    "family",
    "event",
    "tie_break",
    "misfit",
];

/// Keys whose string values the rounding also leaves as they are, besides [`NAMES`]
/// (identifiers, versions, causes, the spellings of a generated space...).
const NAME_KEYS: &[&str] = &[
    "frozen", "node", "cause", "cap", "status", "id", "liar", "lie", "domain", "seed", "version",
    "command", "demands", "zeros", "machines", "shard", "form",
];

/// Whether `key` holds names, which the rounding leaves ([`NAMES`], [`NAME_KEYS`]).
fn is_name_key(key: &str) -> bool {
    NAMES.contains(&key) || NAME_KEYS.contains(&key)
}

/// Whether a string under `key` (an object member's key) is rounded by [`round_value`]:
/// not a name nor an input.
fn rounds_under(key: &str) -> bool {
    !is_name_key(key) && !INPUT_KEYS.contains(&key)
}

/// Keys whose subtrees are inputs that reproduce a record (an instance, the reports of a
/// witness's liars): they stay exact under `--decimals`, so that a record can still be
/// replayed.
const INPUT_KEYS: &[&str] = &["instance", "reports"];

/// Rounds every exact number of a JSON answer to `digits` significant digits in place: each
/// string holding an integer, a fraction `p/q` or a decimal literal becomes a JSON number
/// (correctly rounded from its exact value), except under keys that hold names
/// ([`is_name_key`]) and inputs ([`INPUT_KEYS`]). JSON numbers that are integers (counts,
/// seeds) are left as they are; other JSON numbers are rounded from their decimal text.
///
/// This serves the commands whose answers are built as JSON values by the library crates
/// (`check`, `verify`, `search`, `explore`, `simulate`, `hdrf`, `compare`); `solve` writes its
/// numbers rounded directly.
pub fn round_value(v: &mut Value, digits: u32) {
    round_in(v, digits, false);
}

fn round_in(v: &mut Value, digits: u32, names: bool) {
    match v {
        Value::String(s) if !names && looks_numeric(s) => {
            if let Ok(x) = s.parse::<Rational>() {
                let text = x.to_decimal(digits);
                if let Ok(n) = text.parse::<serde_json::Number>() {
                    *v = Value::Number(n);
                }
            }
        }
        Value::Number(n) => {
            // Floats (approximate figures such as an LP's error bound) are rounded from
            // their decimal text; integers are counts and stay.
            let text = n.to_string();
            if text.contains(['.', 'e', 'E'])
                && let Ok(x) = Rational::from_decimal_str(&text)
                && let Ok(m) = x.to_decimal(digits).parse::<serde_json::Number>()
            {
                *n = m;
            }
        }
        Value::Array(items) => {
            for item in items {
                let names = names && !item.is_object();
                round_in(item, digits, names);
            }
        }
        Value::Object(members) => {
            // A name key covers its string and its list of strings, not the objects below
            // it (`"users": [{"name": .., "tasks": ..}]` holds numbers).
            for (k, item) in members.iter_mut() {
                if !INPUT_KEYS.contains(&k.as_str()) {
                    round_in(item, digits, is_name_key(k));
                }
            }
        }
        _ => {}
    }
}

/// A JSON answer printed as `numbers` says: unchanged when exact; otherwise rounded
/// ([`round_value`]) and marked `"precision": {"decimals": N}` (after `"exact"` when the
/// object has it, else first; in each object of a top-level list).
pub fn finish_json(mut v: Value, numbers: Numbers) -> Value {
    let (Numbers::Decimals(n), Some(precision)) = (numbers, numbers.precision()) else {
        return v;
    };
    round_value(&mut v, n);
    let mark = |v: &mut Value| {
        if let Value::Object(members) = v {
            let at = members
                .keys()
                .position(|k| k == "exact")
                .map_or(0, |k| k + 1);
            members.shift_insert(at, "precision".into(), precision.clone());
        }
    };
    match &mut v {
        Value::Array(items) => items.iter_mut().for_each(mark),
        other => mark(other),
    }
    v
}

/// A CSV answer printed as `numbers` says: unchanged when exact, else rounded ([`round_csv`]).
pub fn finish_csv(text: String, numbers: Numbers) -> String {
    match numbers {
        Numbers::Exact => text,
        Numbers::Decimals(n) => round_csv(&text, n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn csv_cells_round_and_quoted_names_stay() {
        // 1/3 at 2 digits is 0.33; 0.125 is a tie, to the even 0.12; "7" quoted is a name.
        let csv = "time,path,share\n1/3,\"a,\"\"7\"\"\",0.125\n2,\"7\",x\n";
        assert_eq!(
            round_csv(csv, 2),
            "time,path,share\n0.33,\"a,\"\"7\"\"\",0.12\n2,\"7\",x\n"
        );
    }

    #[test]
    fn names_stay_and_numbers_round() {
        // 2/3 at 3 digits is 0.667; 1/8 = 0.125 at 2 digits is a tie, to the even 0.12.
        let mut v = json!({"users": ["7"], "tasks": {"7": "2/3"}, "x": ["1/8", "name"], "k": 3});
        round_value(&mut v, 2);
        assert_eq!(
            v,
            json!({"users": ["7"], "tasks": {"7": 0.67}, "x": [0.12, "name"], "k": 3})
        );
    }
}
