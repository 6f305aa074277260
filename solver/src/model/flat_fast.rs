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
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Num, E> {
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

/// The instance of a flat document, or `None` when the text is not in the subset this
/// reader handles (see the [module docs](self)).
pub(super) fn read(text: &str) -> Option<Instance> {
    let doc: FlatDoc = serde_json::from_str(text).ok()?;
    let capacity: Vec<Rational> = doc.capacity.into_iter().map(|x| x.0).collect();
    let resources = match doc.resources {
        Some(r) => r,
        None => (1..=capacity.len()).map(|j| format!("r{j}")).collect(),
    };
    let users = doc
        .users
        .into_iter()
        .enumerate()
        .map(|(i, u)| User {
            name: u.name.unwrap_or_else(|| format!("u{}", i + 1)),
            demand: u.demand.into_iter().map(|x| x.0).collect(),
            weight: u.weight.map_or(Rational::ONE, |w| w.0),
            resource_weights: None,
            cap: u.tasks.map(|t| t.0),
            pool: None,
            guarantee: None,
            limit: None,
            usage: None,
        })
        .collect();
    Instance::with_pools(resources, capacity, Vec::new(), users).ok()
}
