//! From the solver's model to a counterexample the exact mechanisms confirm.
//!
//! The model's values are exact decimals or decimal approximations of algebraic numbers.
//! They are replaced by the simplest rationals within a tolerance (the Stern–Brocot
//! search: the rational of least denominator in an interval), the tolerance shrinking
//! from 1/10 until the rounded instance and reports re-derive — the mechanism run exactly on
//! both profiles and the property decided by the same checker as `search` — as a violation
//! (and, for `sp-gain`, a gain above the bound). Only a re-derived record is ever printed; a
//! model that re-derives at no tolerance is an error, not a verdict.

use std::collections::HashMap;

use leontief_solver::properties::Scenario;
use leontief_solver::{Instance, Rational, User};
use serde_json::Value;

use super::statement::Statement;
use crate::candidate::{evaluate, Candidate};
use crate::explore::{At, MetricName, Utility};
use crate::mechanisms::by_name;
use crate::record::Record;

/// The simplest rational in the closed interval `[lo, hi]` (`lo <= hi`): the one of least
/// denominator, and of least numerator magnitude among those (the Stern–Brocot tree's
/// highest node in the interval).
///
/// # Example
/// ```
/// use leontief_counterexamples::prove::witness::simplest_between;
/// use leontief_solver::Rational;
/// let q = |s: &str| s.parse::<Rational>().unwrap();
/// assert_eq!(simplest_between(&q("0.33"), &q("0.34")), q("1/3"));
/// assert_eq!(simplest_between(&q("-0.5"), &q("0.1")), q("0"));
/// assert_eq!(simplest_between(&q("1.41"), &q("1.42")), q("17/12"));
/// ```
pub fn simplest_between(lo: &Rational, hi: &Rational) -> Rational {
    if !lo.is_positive() && !hi.is_negative() {
        return Rational::ZERO;
    }
    if hi.is_negative() {
        return -simplest_between(&-hi, &-lo);
    }
    // 0 < lo <= hi.
    let floor = lo.floor();
    if floor == *lo {
        return floor;
    }
    let next = &floor + &Rational::ONE;
    if next <= *hi {
        return next;
    }
    // floor < lo <= hi < floor + 1: the fractional parts' reciprocals, reversed.
    let (a, b) = (lo - &floor, hi - &floor);
    let inner = simplest_between(
        &b.recip().unwrap_or(Rational::ONE),
        &a.recip().unwrap_or(Rational::ONE),
    );
    &floor + &inner.recip().unwrap_or(Rational::ZERO)
}

/// The tolerances tried, widest first: 10^-1 .. 10^-30, then the model's values as given.
fn tolerances() -> impl Iterator<Item = Option<Rational>> {
    (1..=30)
        .map(|k| format!("1e-{k}").parse::<Rational>().ok())
        .chain(std::iter::once(None))
}

/// The counterexample record the model gives, re-derived exactly, or why there is none.
///
/// # Errors
/// A message when no rounding of the model re-derives as a counterexample.
pub fn counterexample(
    statement: &Statement,
    model: &[(String, Rational)],
) -> Result<Value, String> {
    let values: HashMap<&str, &Rational> = model.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mut last = String::from("no rounding tried");
    let mut tried: Vec<HashMap<String, Rational>> = Vec::new();
    for tolerance in tolerances() {
        let rounded: HashMap<String, Rational> = values
            .iter()
            .map(|(k, v)| {
                let r = match &tolerance {
                    Some(t) => simplest_between(&(*v - t), &(*v + t)),
                    None => (*v).clone(),
                };
                (k.to_string(), r)
            })
            .collect();
        if tried.contains(&rounded) {
            continue;
        }
        match rederive(statement, &rounded) {
            Ok(record) => return Ok(record),
            Err(reason) => last = reason,
        }
        tried.push(rounded);
    }
    Err(last)
}

/// The model's value of the variable `name`.
pub(super) fn model_value(
    values: &HashMap<String, Rational>,
    name: String,
) -> Result<Rational, String> {
    values
        .get(&name)
        .cloned()
        .ok_or_else(|| format!("the model has no value for {name}"))
}

/// The model's values of `{prefix}_{i+1}_1` .. `{prefix}_{i+1}_m`: user `i`'s demand row.
pub(super) fn model_row(
    get: &dyn Fn(String) -> Result<Rational, String>,
    prefix: &str,
    i: usize,
    m: usize,
) -> Result<Vec<Rational>, String> {
    (0..m)
        .map(|r| get(format!("{prefix}_{}_{}", i + 1, r + 1)))
        .collect()
}

/// The instance of a model: capacities 1, user `i`'s demand `demand(i)`, and its weight
/// `w_i` and cap `t_i` when the domain has them.
pub(super) fn model_instance(
    statement: &Statement,
    demand: impl Fn(usize) -> Result<Vec<Rational>, String>,
    get: &dyn Fn(String) -> Result<Rational, String>,
) -> Result<Instance, String> {
    let mut users = Vec::with_capacity(statement.users);
    for i in 0..statement.users {
        let mut user = User::new(format!("u{}", i + 1), demand(i)?);
        if statement.weights {
            user = user.weight(get(format!("w_{}", i + 1))?);
        }
        if statement.caps {
            user = user.cap(get(format!("t_{}", i + 1))?);
        }
        users.push(user);
    }
    Instance::new(vec![Rational::ONE; statement.resources], users)
        .map_err(|e| format!("instance: {e}"))
}

/// The record of the counterexample with these values, re-derived by the exact mechanism.
fn rederive(statement: &Statement, values: &HashMap<String, Rational>) -> Result<Value, String> {
    if !statement.goal.is_about_lies() {
        return super::goals::rederive(statement, values);
    }
    let m = statement.resources;
    let get = |name: String| model_value(values, name);
    // Scaled so that the largest entry is 1: an encoding in bundle form reports a demand at
    // the scale of its bundle, and no mechanism here depends on the scale.
    let row = |prefix: &str, i: usize| -> Result<Vec<Rational>, String> {
        let row = model_row(&get, prefix, i, m)?;
        let top = row.iter().max().cloned().unwrap_or(Rational::ZERO);
        Ok(match top.recip() {
            Some(scale) if top.is_positive() => row.iter().map(|v| v * &scale).collect(),
            _ => row,
        })
    };
    let instance = model_instance(statement, |i| row("d", i), &get)?;
    let mut lies = Vec::new();
    for i in 0..statement.coalition {
        let mut report = row("e", i)?;
        if statement.caps {
            // The normal form's report with the reported cap `tl`, scaled back so that the
            // liar's own cap `t` counts its tasks: a report `α e` has cap `t` exactly when
            // `e` has cap `α t`, so `α = tl / t`.
            let scale = get(format!("tl_{}", i + 1))?
                .checked_div(&get(format!("t_{}", i + 1))?)
                .ok_or_else(|| "a cap of 0".to_string())?;
            report = report.iter().map(|v| v * &scale).collect();
        }
        if report != instance.users()[i].demand {
            lies.push((i, report));
        }
    }
    if lies.is_empty() {
        return Err("nobody lies".into());
    }
    if statement.positive {
        let zero = instance
            .users()
            .iter()
            .map(|u| &u.demand)
            .chain(lies.iter().map(|(_, r)| r))
            .any(|d| d.iter().any(|x| !x.is_positive()));
        if zero {
            return Err("a demand or report is not positive".into());
        }
    }
    let mechanism = by_name(statement.mechanism.name()).map_err(|e| e.to_string())?;
    let candidate = Candidate::new(instance, Scenario::Lies(lies));
    let property = statement.property();
    let violation = evaluate(mechanism.as_ref(), property, &candidate)
        .map_err(|e| format!("re-derivation: {e}"))?
        .ok_or_else(|| format!("{} does not violate {property} here", mechanism.name()))?;
    // A bound on a gain: the gain by explore's metric, in tasks.
    let gain = match statement.goal.bounded() {
        Some((metric, bound)) => {
            let truth = mechanism
                .allocate(&candidate.instance)
                .map_err(|e| e.to_string())?;
            let at = At::new(mechanism.as_ref(), &candidate, &truth, Utility::Tasks);
            let e = (metric.metric().at(&at))
                .map_err(|e| format!("re-derivation: {e}"))?
                .ok_or(format!("no {metric} here"))?;
            // A single liar's gain is taken from exact answers alone; a coalition's, from an
            // approximate answer too, by the least it can be.
            if metric == MetricName::SpGain && !e.exact {
                return Err("the mechanism's answer is not exact here".into());
            }
            if e.lo <= *bound {
                return Err(format!("gain {} is not above {bound}", e.lo));
            }
            Some((metric, e.value))
        }
        None => None,
    };
    let mut record = Record::new(mechanism.name(), property, candidate, violation);
    record.strategy = Some("prove".into());
    Ok(match gain {
        Some((metric, gain)) => record.to_json_with_gain(metric.name(), &gain),
        None => record.to_json(),
    })
}
