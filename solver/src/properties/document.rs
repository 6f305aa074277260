//! The JSON values of the property reports: exact numbers as `"p/q"` strings, figures by user
//! or by resource name, and a figure's exact algebraic form where the answer has one.

use serde_json::Value;

use super::ExactFigures;
use crate::ceei::ExactNumber;
use crate::{Instance, Rational};

fn exact(x: &Rational) -> Value {
    Value::String(x.to_string())
}

/// User `i` as witnesses name it: by its path from the root (`P/x`; its name when it has
/// no pool), unique even where names repeat in different pools.
pub(super) fn user_name(instance: &Instance, i: usize) -> String {
    if i < instance.num_users() {
        instance.user_path(i)
    } else {
        format!("#{i}")
    }
}

pub(super) fn resource_name(instance: &Instance, j: usize) -> String {
    instance
        .resources()
        .get(j)
        .cloned()
        .unwrap_or_else(|| format!("#{j}"))
}

/// `{resource name: value}`.
pub(super) fn by_resource(instance: &Instance, v: &[Rational]) -> Value {
    Value::Object(
        v.iter()
            .enumerate()
            .map(|(j, x)| (resource_name(instance, j), exact(x)))
            .collect(),
    )
}

/// `{user name: value}`.
pub(super) fn by_user(instance: &Instance, v: &[Rational]) -> Value {
    by_user_figure(instance, None, "", v)
}

/// An exact figure in its serde form (`"p/q"` or the algebraic document).
fn exact_figure(x: &ExactNumber) -> Option<Value> {
    serde_json::to_value(x).ok()
}

/// The figure under `key`: its exact value from `figures` when there is one, else `x`.
pub(super) fn figure(figures: Option<&ExactFigures>, key: &str, x: &Rational) -> Value {
    figures
        .and_then(|f| f.one(key))
        .and_then(exact_figure)
        .unwrap_or_else(|| exact(x))
}

/// User `i`'s entry of the per-user figure under `key`: exact from `figures` when there is
/// one, else `x`.
pub(super) fn user_figure(
    figures: Option<&ExactFigures>,
    key: &str,
    i: usize,
    x: &Rational,
) -> Value {
    figures
        .and_then(|f| f.user(key, i))
        .and_then(exact_figure)
        .unwrap_or_else(|| exact(x))
}

/// `{user name: value}`, each value exact from `figures[key]` when there is one.
pub(super) fn by_user_figure(
    instance: &Instance,
    figures: Option<&ExactFigures>,
    key: &str,
    v: &[Rational],
) -> Value {
    Value::Object(
        v.iter()
            .enumerate()
            .map(|(i, x)| (user_name(instance, i), user_figure(figures, key, i, x)))
            .collect(),
    )
}

/// `[user name]`.
pub(super) fn user_names(instance: &Instance, users: &[usize]) -> Value {
    users.iter().map(|&i| user_name(instance, i)).collect()
}
