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

use leontief_solver::properties::{Property, Scenario};
use leontief_solver::{Instance, Rational, User};
use serde_json::Value;

use super::statement::Statement;
use crate::candidate::{evaluate, Candidate};
use crate::explore::record::to_prove_json as metric_json;
use crate::explore::{At, Direction, MetricName, Utility};
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
    let mut last = String::from("no rounding tried");
    let mut tried: Vec<HashMap<String, Rational>> = Vec::new();
    for tolerance in tolerances() {
        let round = |v: &Rational| match &tolerance {
            Some(t) => simplest_between(&(v - t), &(v + t)),
            None => v.clone(),
        };
        let rounded: HashMap<String, Rational> =
            model.iter().map(|(k, v)| (k.clone(), round(v))).collect();
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

/// The record of the counterexample with these values, re-derived by the exact mechanism
/// and the property checker (or explore's metric), or why there is none.
fn rederive(statement: &Statement, values: &HashMap<String, Rational>) -> Result<Value, String> {
    let (m, lies) = (statement.resources, statement.goal.is_about_lies());
    let get = |name: String| -> Result<Rational, String> {
        (values.get(&name).cloned()).ok_or_else(|| format!("the model has no value for {name}"))
    };
    // User `i`'s row `{prefix}_{i+1}_1` .. `{prefix}_{i+1}_m`. About lies, scaled so that the
    // largest entry is 1: an encoding in bundle form reports a demand at the scale of its
    // bundle, and no mechanism here depends on the scale.
    let row = |prefix: &str, i: usize| -> Result<Vec<Rational>, String> {
        let row: Vec<Rational> = (0..m)
            .map(|r| get(format!("{prefix}_{}_{}", i + 1, r + 1)))
            .collect::<Result<_, _>>()?;
        if !lies {
            if statement.positive && row.iter().any(|d| !d.is_positive()) {
                return Err("a demand is not positive".into());
            }
            return Ok(row);
        }
        let top = row.iter().max().cloned().unwrap_or(Rational::ZERO);
        Ok(match top.recip() {
            Some(scale) if top.is_positive() => row.iter().map(|v| v * &scale).collect(),
            _ => row,
        })
    };
    // Capacities 1, user `i`'s demand `d_i`, and its weight `w_i` and cap `t_i` when the
    // domain has them.
    let mut users = Vec::with_capacity(statement.users);
    for i in 0..statement.users {
        let mut user = User::new(format!("u{}", i + 1), row("d", i)?);
        if statement.weights {
            user = user.weight(get(format!("w_{}", i + 1))?);
        }
        if statement.caps {
            user = user.cap(get(format!("t_{}", i + 1))?);
        }
        users.push(user);
    }
    let instance = Instance::new(vec![Rational::ONE; statement.resources], users)
        .map_err(|e| format!("instance: {e}"))?;
    let property = statement.goal.property();
    let scenario = match property {
        _ if lies => reports(statement, &instance, &row, &get)?,
        Property::Pm => Scenario::Remove(0),
        // Capacity r grows from 1 to 1 / k_r.
        Property::Rm => (0..m)
            .map(|r| {
                get(format!("k_{}", r + 1))?
                    .recip()
                    .filter(|c| c.is_positive())
                    .ok_or_else(|| format!("k_{} is not positive", r + 1))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Scenario::Capacity)?,
        _ => Scenario::Bounded,
    };
    let mechanism = by_name(statement.mechanism.name()).map_err(|e| e.to_string())?;
    let candidate = Candidate::new(instance, scenario);
    // The record of the violation, as `prove` found it.
    let record = |candidate, violation| {
        let mut record = Record::new(mechanism.name(), property, candidate, violation);
        record.strategy = Some("prove".into());
        record
    };
    // A bound not about lies is re-derived by explore's metric alone.
    let violation = match statement.goal.bounded() {
        Some(_) if !lies => None,
        _ => Some(
            evaluate(mechanism.as_ref(), property, &candidate)
                .map_err(|e| format!("re-derivation: {e}"))?
                .ok_or_else(|| format!("{} does not violate {property} here", mechanism.name()))?,
        ),
    };
    let Some((metric, bound)) = statement.goal.bounded() else {
        let violation = violation.expect("evaluated for a property");
        return Ok(record(candidate, violation).to_json());
    };
    // A gain in tasks; welfare-ratio in dominant shares; pm-loss by either (a per-user
    // ratio); rm-loss in tasks, as the negation: with dominant shares the after-utility is
    // a share of the grown capacities.
    let utility = match metric {
        MetricName::WelfareRatio => Utility::DominantShare,
        _ => Utility::Tasks,
    };
    let truth = mechanism
        .allocate(&candidate.instance)
        .map_err(|e| e.to_string())?;
    let at = At::new(mechanism.as_ref(), &candidate, &truth, utility);
    let e = (metric.metric().at(&at))
        .map_err(|e| format!("re-derivation: {e}"))?
        .ok_or_else(|| format!("no {metric} here"))?;
    let Some(violation) = violation else {
        // An approximate answer's value counts by the end worst for the claim.
        let beyond = match metric.metric().direction() {
            Direction::Max => e.lo > *bound,
            Direction::Min => e.hi < *bound,
        };
        if !beyond {
            return Err(format!("{metric} {} does not pass {bound}", e.value));
        }
        // A search's bookkeeping has no meaning here.
        return Ok(metric_json(metric, mechanism.name(), utility, &e));
    };
    // A single liar's gain is taken from exact answers alone; a coalition's, from an
    // approximate answer too, by the least it can be.
    if metric == MetricName::SpGain && !e.exact {
        return Err("the mechanism's answer is not exact here".into());
    }
    if e.lo <= *bound {
        return Err(format!("gain {} is not above {bound}", e.lo));
    }
    Ok(record(candidate, violation).to_json_with_gain(metric.name(), &e.value))
}

/// Reads user `i`'s row of the model under a prefix (`d`, `e`).
type ReadRow<'a> = dyn Fn(&str, usize) -> Result<Vec<Rational>, String> + 'a;

/// The coalition's reports in the model, those that differ from the truth.
fn reports(
    statement: &Statement,
    instance: &Instance,
    row: &ReadRow<'_>,
    get: &dyn Fn(String) -> Result<Rational, String>,
) -> Result<Scenario, String> {
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
    Ok(Scenario::Lies(lies))
}
