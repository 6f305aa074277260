//! A fast reader for the common flat form (no pools, no per-resource weights, string
//! names): typed deserialization straight into the instance's numbers, without the
//! intermediate JSON tree that [`crate::json::parse_strict`] builds (one map per user and one
//! string per number). A million-user file spends most of its reading time building and
//! dropping that tree.
//!
//! It accepts a subset of what the strict reader accepts and gives the same instance on it;
//! anything else — a duplicate key, an unknown field, a `null` where a number belongs, a
//! malformed number, an invalid instance — makes it return `None`, and the caller reads the
//! text again with the strict reader, which names the field at fault.

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;

use crate::{Instance, Rational, User};

/// How `serde_json` (with `arbitrary_precision`) hands a number to a visitor.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// An exact number read from a JSON number's text or a string, as
/// [`Rational::from_json`] reads it.
struct Num(Rational);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }
            // `serde_json` hands a JSON integer that fits a machine word to these two
            // (`arbitrary_precision` or not); other numbers come through `visit_map`.
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Num, E> {
                Ok(Num(Rational::from(n)))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Num, E> {
                Ok(Num(Rational::from(n)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Num, E> {
                // Plain integers (most demands) without the general parser's passes.
                if (1..=18).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()) {
                    let n = s.bytes().fold(0i64, |n, b| n * 10 + i64::from(b - b'0'));
                    return Ok(Num(Rational::from(n)));
                }
                s.parse().map(Num).map_err(E::custom)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Num, A::Error> {
                match map.next_key::<&str>()? {
                    Some(NUMBER_TOKEN) => {
                        let text: String = map.next_value()?;
                        Rational::from_decimal_str(&text)
                            .map(Num)
                            .map_err(de::Error::custom)
                    }
                    _ => Err(de::Error::custom("not a number")),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A present field must hold a value of its type (`null` is refused, as the strict reader
/// refuses it).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FlatUser {
    #[serde(default, deserialize_with = "present")]
    name: Option<String>,
    demand: Vec<Num>,
    #[serde(default, deserialize_with = "present")]
    weight: Option<Num>,
    /// `null` means no cap, as for the strict reader.
    #[serde(default)]
    tasks: Option<Num>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FlatDoc {
    #[serde(default, deserialize_with = "present")]
    resources: Option<Vec<String>>,
    capacity: Vec<Num>,
    users: Vec<FlatUser>,
    #[serde(default)]
    #[allow(dead_code)]
    about: Option<IgnoredAny>,
    #[serde(default)]
    #[allow(dead_code)]
    note: Option<IgnoredAny>,
}

/// Texts from this size on have their users read in parallel ([`read_split`]).
const SPLIT_BYTES: usize = 1 << 20;

/// The instance of a flat document, or `None` when the text is not in the subset this
/// reader handles (see the [module docs](self)).
pub(super) fn read(text: &str) -> Option<Instance> {
    let (doc, users) = if text.len() >= SPLIT_BYTES {
        read_split(text)?
    } else {
        let mut doc: FlatDoc = serde_json::from_str(text).ok()?;
        let users = to_users(std::mem::take(&mut doc.users), 0);
        (doc, users)
    };
    let capacity: Vec<Rational> = doc.capacity.into_iter().map(|x| x.0).collect();
    let resources = match doc.resources {
        Some(r) => r,
        None => (1..=capacity.len()).map(|j| format!("r{j}")).collect(),
    };
    // The strict reader's constructor for a document without pools, so that both readers
    // give the same instance (and the same validation).
    Instance::with_resources(resources, capacity, users).ok()
}

/// The users read, the first of them at position `first` in the list (for default names).
fn to_users(users: Vec<FlatUser>, first: usize) -> Vec<User> {
    users
        .into_iter()
        .enumerate()
        .map(|(k, u)| to_user(u, first + k))
        .collect()
}

/// The user read at position `i` in the list (`u{i+1}` when it has no name).
fn to_user(u: FlatUser, i: usize) -> User {
    User {
        name: u.name.unwrap_or_else(|| format!("u{}", i + 1)),
        demand: u.demand.into_iter().map(|x| x.0).collect(),
        weight: u.weight.map_or(Rational::ONE, |w| w.0),
        resource_weights: None,
        cap: u.tasks.map(|t| t.0),
        pool: None,
        guarantee: None,
        limit: None,
        usage: None,
    }
}

/// The document read as [`FlatDoc`]'s deserialization reads it, with the users list cut at
/// its top-level commas and the pieces deserialized on all cores, in order.
///
/// A structural scan finds the top-level members and the users' boundaries (skipping
/// strings, with their escapes, and nested brackets); each member's value is then read by
/// serde as before. Anything the scan does not expect — an escaped key, a duplicate or
/// unknown member, text after the object — gives `None` (the caller then reads the text
/// with the strict reader).
///
/// # Complexity
/// One pass over the bytes for the scan, then the deserialization split over
/// `available_parallelism` threads.
fn read_split(text: &str) -> Option<(FlatDoc, Vec<User>)> {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    at = skip_ws(bytes, at + 1);
    let mut members: Vec<(&str, &str)> = Vec::new();
    if bytes.get(at) == Some(&b'}') {
        return None;
    }
    loop {
        let key_end = skip_value(bytes, at)?;
        if bytes[at] != b'"' || text[at..key_end].contains('\\') {
            return None;
        }
        let key = &text[at + 1..key_end - 1];
        at = skip_ws(bytes, key_end);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        at = skip_ws(bytes, at + 1);
        let end = skip_value(bytes, at)?;
        if members.iter().any(|(k, _)| *k == key) {
            return None;
        }
        members.push((key, &text[at..end]));
        at = skip_ws(bytes, end);
        match bytes.get(at) {
            Some(b',') => at = skip_ws(bytes, at + 1),
            Some(b'}') => break,
            _ => return None,
        }
    }
    if skip_ws(bytes, at + 1) != bytes.len() {
        return None;
    }
    let mut doc = FlatDoc {
        resources: None,
        capacity: Vec::new(),
        users: Vec::new(),
        about: None,
        note: None,
    };
    let (mut capacity, mut users) = (false, false);
    let mut list = Vec::new();
    for (key, value) in members {
        match key {
            "resources" => doc.resources = Some(serde_json::from_str(value).ok()?),
            "capacity" => {
                doc.capacity = serde_json::from_str(value).ok()?;
                capacity = true;
            }
            "users" => {
                list = read_users(value)?;
                users = true;
            }
            "about" | "note" => {
                serde_json::from_str::<IgnoredAny>(value).ok()?;
            }
            _ => return None,
        }
    }
    (capacity && users).then_some((doc, list))
}

/// The users list (`[..]`) cut at its top-level commas into one piece per thread, each
/// deserialized as a list of its own and turned into users on its thread.
fn read_users(list: &str) -> Option<Vec<User>> {
    let bytes = list.as_bytes();
    if bytes.first() != Some(&b'[') {
        return None;
    }
    // Where each element starts and ends.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut at = skip_ws(bytes, 1);
    if bytes.get(at) != Some(&b']') {
        loop {
            let end = skip_value(bytes, at)?;
            spans.push((at, end));
            at = skip_ws(bytes, end);
            match bytes.get(at) {
                Some(b',') => at = skip_ws(bytes, at + 1),
                Some(b']') => break,
                _ => return None,
            }
        }
    }
    if at + 1 != bytes.len() {
        return None;
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let per = spans.len().div_ceil(threads).max(1);
    let pieces: Vec<&[(usize, usize)]> = spans.chunks(per).collect();
    // Piece `k` starts at user `k · per`; each user is read from its own span of the text
    // (no copy of the piece, no list of the deserialized users in between).
    let read_piece = |k: usize, piece: &[(usize, usize)]| -> Option<Vec<User>> {
        piece
            .iter()
            .enumerate()
            .map(|(e, &(a, b))| {
                let u: FlatUser = serde_json::from_str(&list[a..b]).ok()?;
                Some(to_user(u, k * per + e))
            })
            .collect()
    };
    let parts: Vec<Option<Vec<User>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = pieces
            .iter()
            .enumerate()
            .skip(1)
            .map(|(k, piece)| scope.spawn(move || read_piece(k, piece)))
            .collect();
        let mut parts = vec![pieces
            .first()
            .map_or(Some(Vec::new()), |p| read_piece(0, p))];
        parts.extend(handles.into_iter().map(|h| h.join().ok().flatten()));
        parts
    });
    // The first piece's list grows to hold the others (a large allocation grows in place,
    // so that only the other pieces are copied).
    let mut parts = parts.into_iter();
    let mut users = parts.next().flatten()?;
    users.reserve(spans.len() - users.len());
    for part in parts {
        users.extend(part?);
    }
    Some(users)
}

/// The first byte from `at` that is not JSON whitespace.
fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The end of the JSON value starting at `at` (exclusive), found structurally: a string up
/// to its closing quote (escapes skipped), an object or list up to its matching bracket, a
/// literal up to the next delimiter. The value's own syntax is checked by serde later.
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    let skip_string = |mut i: usize| -> Option<usize> {
        // `i` is just after the opening quote.
        loop {
            match bytes.get(i)? {
                b'"' => return Some(i + 1),
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
    };
    match bytes.get(at)? {
        b'"' => skip_string(at + 1),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match bytes.get(i)? {
                    b'"' => {
                        i = skip_string(i + 1)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let mut i = at;
            while !matches!(
                bytes.get(i),
                None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            ) {
                i += 1;
            }
            (i > at).then_some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::read;
    use crate::Instance;

    /// The strict reader's instance of `text`.
    fn strict(text: &str) -> Instance {
        let value = crate::json::parse_strict(text).unwrap();
        Instance::from_json(&value).unwrap()
    }

    /// Documents in the subset are read here, not handed on: plain integers (which
    /// `serde_json` gives as machine words), decimals and `"p/q"` strings, a `null` cap.
    #[test]
    fn the_subset_is_read_without_the_strict_reader() {
        let text = r#"{"resources": ["cpu", "mem"], "capacity": [9, "18.5"],
            "users": [{"name": "A", "demand": [1, 4], "weight": 2, "tasks": 3},
                      {"demand": ["1/3", 0.5e1], "tasks": null}], "note": "n"}"#;
        let fast = read(text).expect("inside the fast subset");
        assert_eq!(fast, strict(text));
        // 18.5 = 37/2; the second user is unnamed (u2), demands 1/3 and 0.5e1 = 5.
        assert_eq!(fast.capacity()[1].to_string(), "37/2");
        assert_eq!(fast.users()[1].name, "u2");
        assert_eq!(fast.users()[1].demand[1].to_string(), "5");
    }

    /// A document of a megabyte or more goes through the parallel split, and is read
    /// there too.
    #[test]
    fn a_large_document_is_read_by_the_split() {
        let users: Vec<String> = (0..40_000)
            .map(|i| {
                format!(
                    r#"{{"name": "u{i}", "demand": [{}, 7, 0], "weight": 1}}"#,
                    i % 97 + 1
                )
            })
            .collect();
        let text = format!(
            r#"{{"resources": ["a", "b", "c"], "capacity": [1000000, 1000000, 1000000], "users": [{}]}}"#,
            users.join(",\n ")
        );
        assert!(text.len() >= super::SPLIT_BYTES);
        let fast = read(&text).expect("inside the fast subset");
        assert_eq!(fast.num_users(), 40_000);
        assert_eq!(fast, strict(&text));
    }

    /// An invalid document (no users; a `null` weight) is not read here, so that the
    /// strict reader's message, naming the field, is the one given.
    #[test]
    fn an_invalid_document_is_handed_on() {
        assert!(read(r#"{"capacity": [1], "users": []}"#).is_none());
        assert!(read(r#"{"capacity": [1], "users": [{"demand": [1], "weight": null}]}"#).is_none());
    }
}
