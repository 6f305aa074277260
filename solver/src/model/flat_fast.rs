//! A fast reader for the common flat form (no pools, no tree): the instance's numbers read
//! without the intermediate JSON tree that [`crate::json::parse_strict`] builds for the whole
//! document (one map per user and one string per number). A million-user file spends most
//! of its reading time building and dropping that tree.
//!
//! A structural scan cuts the document into its top-level members and the users list into
//! its users. The members but the users are read by the strict reader itself, on their own
//! text. Users of the plain shape (an unescaped name, integer demands, weight and cap) are
//! read by hand, straight into the users' numbers (`read_plain_user`), and the others by
//! serde ([`FlatUser`]). It accepts a subset of what the strict reader accepts and gives
//! the same instance on it; anything else — an escaped or repeated key, an unknown field,
//! pools or a tree, a `null` where a number belongs, a malformed number, an invalid
//! instance — makes it return `None`, and the caller reads the text again with the strict
//! reader, which names the field at fault.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Map;

use crate::json::{parse_strict_at, read_resources, NUMBER_TOKEN};
use crate::{Instance, Rational, User};

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

/// The user read at position `i` in the list (`u{i+1}` when it has no name).
fn to_user(u: FlatUser, i: usize) -> User {
    let name = u.name.unwrap_or_else(|| format!("u{}", i + 1));
    User {
        weight: u.weight.map_or(Rational::ONE, |w| w.0),
        cap: u.tasks.map(|t| t.0),
        ..User::new(name, u.demand.into_iter().map(|x| x.0))
    }
}

/// Texts from this size on have their users read in parallel ([`read_users`]).
const SPLIT_BYTES: usize = 1 << 20;

/// The instance of a flat document, or `None` when the text is not in the subset this
/// reader handles (see the [module docs](self)).
///
/// # Complexity
/// One pass over the bytes for the scan, then the users read over
/// `available_parallelism` threads (one for a text under [`SPLIT_BYTES`]).
pub(super) fn read(text: &str) -> Option<Instance> {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    at = skip_ws(bytes, at + 1);
    // The members but the users, read by the strict reader (at their depth in the document).
    let mut top = Map::new();
    let mut users = None;
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
        let value = &text[at..end];
        match key {
            "users" if users.is_none() => users = Some(value),
            "resources" | "capacity" | "about" | "note" if !top.contains_key(key) => {
                top.insert(key.to_owned(), parse_strict_at(value, 1).ok()?);
            }
            _ => return None,
        }
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
    let builder = read_resources(&top).ok()?;
    let users = read_users(users?, builder.capacity.len(), text.len() >= SPLIT_BYTES)?;
    builder.users(users).build().ok()
}

/// The users list (`[..]`) cut at its top-level commas into one piece per thread (one piece
/// unless `parallel`), each piece's users read on its thread into its own part of the
/// result (in order, so the result does not depend on the thread count). `per_user` is the
/// expected length of a demand vector (a capacity hint).
fn read_users(list: &str, per_user: usize, parallel: bool) -> Option<Vec<User>> {
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
    let threads = if parallel {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
    } else {
        1
    };
    let per = spans.len().div_ceil(threads).max(1);
    // The result is allocated once and each thread fills its own slice of it: no list per
    // piece, no copy of the pieces into one list afterwards.
    // Users with no fields read yet, each overwritten below.
    let mut users = vec![User::new(String::new(), Vec::<Rational>::new()); spans.len()];
    // Piece `k` starts at user `k · per`; each user is read from its own span of the text.
    let read_piece = |k: usize, piece: &[(usize, usize)], out: &mut [User]| -> bool {
        for (e, (&(a, b), slot)) in piece.iter().zip(out.iter_mut()).enumerate() {
            let index = k * per + e;
            let text = &list[a..b];
            match read_plain_user(text, index, per_user) {
                Some(u) => *slot = u,
                None => match serde_json::from_str::<FlatUser>(text) {
                    Ok(u) => *slot = to_user(u, index),
                    Err(_) => return false,
                },
            }
        }
        true
    };
    let read_all = std::thread::scope(|scope| {
        let mut pieces = spans.chunks(per).zip(users.chunks_mut(per)).enumerate();
        let first = pieces.next();
        let handles: Vec<_> = pieces
            .map(|(k, (piece, out))| scope.spawn(move || read_piece(k, piece, out)))
            .collect();
        let mut read_all = first.is_none_or(|(k, (piece, out))| read_piece(k, piece, out));
        for handle in handles {
            read_all &= handle.join().unwrap_or(false);
        }
        read_all
    });
    read_all.then_some(users)
}

/// The user object `text` (at position `index` in the list) read by hand when it has the
/// plain shape almost every large file has: the members `name` (a string without escapes),
/// `demand` (a list of integers), `weight` (an integer) and `tasks` (an integer or `null`),
/// each at most once, with integers of at most 18 digits written plainly (no sign, no
/// leading zero, no fraction or exponent). It gives the user [`FlatUser`]'s deserialization
/// gives; on anything else it gives `None`, and the caller reads `text` with serde (which
/// accepts or refuses it as before).
fn read_plain_user(text: &str, index: usize, per_user: usize) -> Option<User> {
    let mut c = Cursor {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    c.expect(b'{')?;
    let (mut name, mut demand, mut weight, mut cap) = (None, None, None, None);
    let mut tasks_seen = false;
    loop {
        let key = c.plain_string()?;
        c.expect(b':')?;
        match key {
            "name" if name.is_none() => name = Some(c.plain_string()?.to_owned()),
            "demand" if demand.is_none() => {
                c.expect(b'[')?;
                let mut entries = Vec::with_capacity(per_user);
                if c.peek()? == b']' {
                    c.at += 1;
                } else {
                    loop {
                        entries.push(c.integer()?);
                        match c.next_byte()? {
                            b',' => {}
                            b']' => break,
                            _ => return None,
                        }
                    }
                }
                demand = Some(entries);
            }
            "weight" if weight.is_none() => weight = Some(c.integer()?),
            "tasks" if !tasks_seen => {
                tasks_seen = true;
                cap = if c.null() { None } else { Some(c.integer()?) };
            }
            _ => return None,
        }
        match c.next_byte()? {
            b',' => {}
            b'}' => break,
            _ => return None,
        }
    }
    c.skip_ws();
    if c.at != c.bytes.len() {
        return None;
    }
    let name = name.unwrap_or_else(|| format!("u{}", index + 1));
    Some(User {
        weight: weight.unwrap_or(Rational::ONE),
        cap,
        ..User::new(name, demand?)
    })
}

/// A position in a JSON text, for [`read_plain_user`].
struct Cursor<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn skip_ws(&mut self) {
        self.at = skip_ws(self.bytes, self.at);
    }

    /// The next byte that is not whitespace (not consumed).
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.bytes.get(self.at).copied()
    }

    /// The next byte that is not whitespace (consumed).
    fn next_byte(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.next_byte()? == byte).then_some(())
    }

    /// A `null` literal, consumed if present.
    fn null(&mut self) -> bool {
        self.skip_ws();
        let found = self.bytes[self.at..].starts_with(b"null")
            && !self
                .bytes
                .get(self.at + 4)
                .is_some_and(|b| b.is_ascii_alphanumeric());
        if found {
            self.at += 4;
        }
        found
    }

    /// A string without escapes or control characters (which JSON refuses unescaped).
    fn plain_string(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        loop {
            match *self.bytes.get(self.at)? {
                b'"' => break,
                b'\\' | 0..=0x1f => return None,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        // Both ends are at an ASCII quote, so on character boundaries.
        self.text.get(start..self.at - 1)
    }

    /// A plain non-negative integer of 1 to 18 digits, no leading zero.
    fn integer(&mut self) -> Option<Rational> {
        self.skip_ws();
        let start = self.at;
        let mut n: i64 = 0;
        while let Some(&d @ b'0'..=b'9') = self.bytes.get(self.at) {
            if self.at - start == 18 {
                return None;
            }
            n = n * 10 + i64::from(d - b'0');
            self.at += 1;
        }
        let digits = self.at - start;
        let leading_zero = digits > 1 && self.bytes[start] == b'0';
        let continues = matches!(self.bytes.get(self.at), Some(b'.' | b'e' | b'E'));
        (digits > 0 && !leading_zero && !continues).then(|| Rational::from(n))
    }
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
/// literal up to the next delimiter. The value's own syntax is checked when it is read.
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

    /// The plain shape is read by hand, member by member, with the defaults of the serde
    /// path: `{"name": "a", "demand": [3, 0, 12], "weight": 2, "tasks": 5}` is user a,
    /// demanding 3, 0 and 12, of weight 2 and cap 5; without name, weight and cap it is
    /// `u{index + 1}` of weight 1 and no cap, and a `null` cap is no cap.
    #[test]
    fn the_plain_shape_is_read_by_hand() {
        let u = super::read_plain_user(
            r#"{"name": "a", "demand": [3, 0, 12], "weight": 2, "tasks": 5}"#,
            0,
            3,
        )
        .expect("plain");
        assert_eq!(u.name, "a");
        assert_eq!(u.demand, vec![3.into(), 0.into(), 12.into()]);
        assert_eq!(u.weight, 2.into());
        assert_eq!(u.cap, Some(5.into()));
        let u = super::read_plain_user("{ \"demand\" :[ 7 ]\n, \"tasks\": null }", 41, 1)
            .expect("plain");
        assert_eq!(
            (u.name.as_str(), u.weight.clone(), u.cap),
            ("u42", 1.into(), None)
        );
        // 18 digits is the most an i64 always holds: 999999999999999999 < 2^63.
        let u = super::read_plain_user(r#"{"demand": [999999999999999999]}"#, 0, 1).unwrap();
        assert_eq!(u.demand[0].to_string(), "999999999999999999");
    }

    /// Anything beyond the plain shape is left to serde, which reads it (decimals, escapes,
    /// long integers, strings for numbers) or refuses it (duplicates, unknown members,
    /// leading zeros, a `null` weight, a trailing comma).
    #[test]
    fn anything_else_is_left_to_serde() {
        for text in [
            r#"{"demand": [1.5]}"#,
            r#"{"demand": [1e2]}"#,
            r#"{"demand": [-1]}"#,
            r#"{"demand": ["3"]}"#,
            r#"{"demand": [1234567890123456789]}"#,
            r#"{"name": "a\"b", "demand": [1]}"#,
            r#"{"demand": [01]}"#,
            r#"{"demand": [1], "demand": [1]}"#,
            r#"{"demand": [1], "pool": 0}"#,
            r#"{"demand": [1], "weight": null}"#,
            r#"{"demand": [1],}"#,
            r#"{"demand": [1, ]}"#,
            r#"{"demand": [1]} x"#,
            r#"{"name": "a"}"#,
        ] {
            assert!(super::read_plain_user(text, 0, 1).is_none(), "{text}");
        }
    }

    /// A large document whose users mix the plain shape with shapes only serde reads gives
    /// the strict reader's instance; a repeated name makes it invalid, and it is handed on.
    #[test]
    fn a_large_mixed_document_is_the_strict_readers() {
        let users: Vec<String> = (0..30_000)
            .map(|i| match i % 4 {
                0 => format!(r#"{{"name": "n{i}", "demand": [{}, 7]}}"#, i % 89 + 1),
                1 => format!(r#"{{"name": "n{i}", "demand": [0.5, "1/3"], "tasks": 2.5}}"#),
                2 => format!(r#"{{"name": "w\u00e9{i}", "demand": [3, 0], "weight": 4}}"#),
                _ => r#"{"demand": [1, 1], "tasks": null, "weight": 3}"#.to_string(),
            })
            .collect();
        let text = format!(
            r#"{{"capacity": [1000000, 1000000], "users": [{}]}}"#,
            users.join(",\n ")
        );
        assert!(text.len() >= super::SPLIT_BYTES);
        let fast = read(&text).expect("inside the fast subset");
        assert_eq!(fast, strict(&text));
        // Unnamed users are named by their position (the 4th is u4); escapes are decoded.
        assert_eq!(fast.users()[3].name, "u4");
        assert_eq!(fast.users()[2].name, "w\u{e9}2");
        let repeated = text.replace(r#""name": "n4""#, r#""name": "n0""#);
        assert!(read(&repeated).is_none());
        let err = Instance::from_json_str(&repeated).unwrap_err().to_string();
        assert!(
            err.contains("users[4].name") && err.contains(r#"duplicate user name "n0""#),
            "{err}"
        );
    }

    /// An invalid document (no users; a `null` weight) is not read here, so that the
    /// strict reader's message, naming the field, is the one given.
    #[test]
    fn an_invalid_document_is_handed_on() {
        assert!(read(r#"{"capacity": [1], "users": []}"#).is_none());
        assert!(read(r#"{"capacity": [1], "users": [{"demand": [1], "weight": null}]}"#).is_none());
    }
}
