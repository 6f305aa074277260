//! The JSON values of the property reports: exact numbers as `"p/q"` strings, figures by user
//! or by resource name, and a figure's exact algebraic form where the answer has one.

use serde_json::{json, Map, Value};

use super::{ExactFigures, GspWitness, MaxMinViolation, MaxMinWitness, Witness};
use crate::ceei::ExactNumber;
use crate::{Instance, Rational};

/// User `i` as witnesses name it: by its path from the root (`P/x`; its name when it has
/// no pool), unique even where names repeat in different pools.
pub(super) fn user_name(instance: &Instance, i: usize) -> String {
    if i < instance.num_users() {
        instance.user_path(i)
    } else {
        format!("#{i}")
    }
}

fn resource_name(instance: &Instance, j: usize) -> String {
    instance
        .resources()
        .get(j)
        .cloned()
        .unwrap_or_else(|| format!("#{j}"))
}

/// `{resource name: value}`.
fn by_resource(instance: &Instance, v: &[Rational]) -> Value {
    Value::Object(
        v.iter()
            .enumerate()
            .map(|(j, x)| (resource_name(instance, j), json!(x)))
            .collect(),
    )
}

/// `{user name: value}`.
fn by_user(instance: &Instance, v: &[Rational]) -> Value {
    by_user_figure(instance, None, "", v)
}

/// The exact figure in its serde form (`"p/q"` or the algebraic document) when there is
/// one, else `x`.
fn exact_or(exact: Option<&ExactNumber>, x: &Rational) -> Value {
    exact
        .and_then(|e| serde_json::to_value(e).ok())
        .unwrap_or_else(|| json!(x))
}

/// The figure under `key`: its exact value from `figures` when there is one, else `x`.
fn figure(figures: Option<&ExactFigures>, key: &str, x: &Rational) -> Value {
    exact_or(figures.and_then(|f| f.one(key)), x)
}

/// User `i`'s entry of the per-user figure under `key`: exact from `figures` when there is
/// one, else `x`.
fn user_figure(figures: Option<&ExactFigures>, key: &str, i: usize, x: &Rational) -> Value {
    exact_or(figures.and_then(|f| f.user(key, i)), x)
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
fn user_names(instance: &Instance, users: &[usize]) -> Value {
    users.iter().map(|&i| user_name(instance, i)).collect()
}

impl Witness {
    /// The JSON form: `{"kind": ..., ...}` with user and resource names and exact numbers.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::properties::{allocation::sharing_incentive, Witness};
    /// use leontief_solver::{AssetFairness, Instance, Mechanism, User};
    /// let inst = Instance::new(vec![30.into(), 30.into()],
    ///     vec![User::new("1", [1, 3]), User::new("2", [1, 1])]).unwrap();
    /// let x = AssetFairness.allocate(&inst).unwrap();
    /// let v = sharing_incentive(&inst, &x).unwrap();
    /// let json = v.witness.unwrap().to_json(&inst);
    /// assert_eq!(json["kind"], "si");
    /// assert_eq!(json["user"], "2");
    /// assert_eq!(json["tasks"], "12");
    /// assert_eq!(json["equal_split_utility"], "15");
    /// ```
    pub fn to_json(&self, instance: &Instance) -> Value {
        let mut o = Map::new();
        o.insert("kind".into(), Value::String(self.kind().into()));
        let body = match self {
            // `{"tasks", "negative_tasks", "over_cap", "over_capacity": {resource: use}}`.
            Witness::Infeasible(w) => {
                let over_capacity: Map<String, Value> = w
                    .over_capacity
                    .iter()
                    .map(|(j, used)| (resource_name(instance, *j), json!(used)))
                    .collect();
                json!({
                    "tasks": by_user(instance, &w.tasks),
                    "negative_tasks": user_names(instance, &w.negative),
                    "over_cap": user_names(instance, &w.over_cap),
                    "over_capacity": over_capacity,
                })
            }
            // `{"user", "tasks", "equal_split": {resource: amount}, "equal_split_utility"}`.
            Witness::Si(w) => json!({
                "user": user_name(instance, w.user),
                "tasks": figure(w.exact.as_ref(), "tasks", &w.tasks),
                "equal_split": by_resource(instance, &w.split),
                "equal_split_utility": w.split_utility,
            }),
            // `{"envious", "envied", "tasks", "envied_tasks", "scaled_bundle",
            // "utility_of_scaled_bundle"}`.
            Witness::Ef(w) => {
                let f = w.exact.as_ref();
                json!({
                    "envious": user_name(instance, w.envious),
                    "envied": user_name(instance, w.envied),
                    "tasks": figure(f, "tasks", &w.tasks),
                    "envied_tasks": figure(f, "envied_tasks", &w.envied_tasks),
                    "scaled_bundle": by_resource(instance, &w.scaled_bundle),
                    "utility_of_scaled_bundle": figure(f, "utility_of_scaled_bundle", &w.scaled_utility),
                })
            }
            // `{"user", "gain", "improved_tasks": {user: tasks}}`.
            Witness::Po(w) => json!({
                "user": user_name(instance, w.user),
                "gain": w.gain,
                "improved_tasks": by_user(instance, &w.improved),
            }),
            Witness::MaxMin(w) => max_min_json(w, instance),
            // `{"user", "tasks", "saturated_shares": [{"resource", "share", "entitlement"}]}`.
            Witness::Bbf(w) => {
                let shares: Vec<Value> = w
                    .shares
                    .iter()
                    .map(|s| {
                        json!({
                            "resource": resource_name(instance, s.resource),
                            "share": s.share,
                            "entitlement": s.entitlement,
                        })
                    })
                    .collect();
                json!({
                    "user": user_name(instance, w.user),
                    "tasks": w.tasks,
                    "saturated_shares": shares,
                })
            }
            // `{"user", "report": {resource: amount}, "tasks_under_lie": {user: tasks},
            // "before", "after"}`.
            Witness::Sp(w) => {
                let f = w.exact.as_ref();
                json!({
                    "user": user_name(instance, w.user),
                    "report": by_resource(instance, &w.report),
                    "tasks_under_lie": by_user_figure(instance, f, "tasks_under_lie", &w.tasks_under_lie),
                    "before": figure(f, "before", &w.before),
                    "after": figure(f, "after", &w.after),
                })
            }
            Witness::Gsp(w) => gsp_json(w, instance),
            // `{"leaving", "user", "before", "after", "tasks_after": {user: tasks}}`.
            Witness::Pm(w) => {
                let f = w.exact.as_ref();
                let tasks_after: Map<String, Value> = w
                    .tasks_after
                    .iter()
                    .enumerate()
                    .filter_map(|(i, t)| {
                        let value = user_figure(f, "tasks_after", i, t.as_ref()?);
                        Some((user_name(instance, i), value))
                    })
                    .collect();
                json!({
                    "leaving": user_name(instance, w.leaving),
                    "user": user_name(instance, w.user),
                    "before": figure(f, "before", &w.before),
                    "after": figure(f, "after", &w.after),
                    "tasks_after": tasks_after,
                })
            }
            // `{"capacity": {resource: amount}, "user", "before", "after", "tasks_after"}`.
            Witness::Rm(w) => {
                let f = w.exact.as_ref();
                json!({
                    "capacity": by_resource(instance, &w.capacity),
                    "user": user_name(instance, w.user),
                    "before": figure(f, "before", &w.before),
                    "after": figure(f, "after", &w.after),
                    "tasks_after": by_user_figure(instance, f, "tasks_after", &w.tasks_after),
                })
            }
            // `{"node", "users", "guaranteed_share", "dominant_share", "unmet_user"}`, and
            // `"guarantee": {resource: amount}` when an explicit guarantee is at fault.
            Witness::Sg(w) => {
                let mut o = json!({
                    "node": w.node,
                    "users": user_names(instance, &w.users),
                    "guaranteed_share": w.guaranteed,
                    "dominant_share": w.dominant_share,
                    "unmet_user": user_name(instance, w.unmet_user),
                });
                if let Some(g) = &w.explicit {
                    o["guarantee"] = by_resource(instance, g);
                }
                o
            }
        };
        if let Value::Object(fields) = body {
            o.extend(fields);
        }
        Value::Object(o)
    }
}

/// `{"resource", "violation": "unequal" | "unsaturated", ...}`.
fn max_min_json(w: &MaxMinWitness, instance: &Instance) -> Value {
    let resource = resource_name(instance, w.resource);
    match &w.violation {
        MaxMinViolation::Unequal {
            below_cap,
            below_cap_amount,
            other,
            other_amount,
        } => json!({
            "resource": resource,
            "violation": "unequal",
            "below_cap": user_name(instance, *below_cap),
            "below_cap_weighted_amount": below_cap_amount,
            "other": user_name(instance, *other),
            "other_weighted_amount": other_amount,
        }),
        MaxMinViolation::Unsaturated {
            user,
            used,
            capacity,
        } => json!({
            "resource": resource,
            "violation": "unsaturated",
            "user_below_cap": user_name(instance, *user),
            "used": used,
            "capacity": capacity,
        }),
    }
}

/// `{"reading", "reports", "tasks_under_lie", "coalition": [{"user", "lied", "before", "after"}],
/// "utilities_before", "utilities_after"}` (the last two for every user).
fn gsp_json(w: &GspWitness, instance: &Instance) -> Value {
    let f = w.exact.as_ref();
    let reports: Map<String, Value> = w
        .reports
        .iter()
        .map(|(i, r)| (user_name(instance, *i), by_resource(instance, r)))
        .collect();
    let coalition: Vec<Value> = w
        .coalition
        .iter()
        .map(|&i| {
            json!({
                "user": user_name(instance, i),
                "lied": w.reports.iter().any(|(k, _)| *k == i),
                "before": user_figure(f, "utilities_before", i, &w.before[i]),
                "after": user_figure(f, "utilities_after", i, &w.after[i]),
            })
        })
        .collect();
    json!({
        "reading": w.reading.name(),
        "reports": reports,
        "tasks_under_lie": by_user_figure(instance, f, "tasks_under_lie", &w.tasks_under_lie),
        "coalition": coalition,
        "utilities_before": by_user_figure(instance, f, "utilities_before", &w.before),
        "utilities_after": by_user_figure(instance, f, "utilities_after", &w.after),
    })
}
