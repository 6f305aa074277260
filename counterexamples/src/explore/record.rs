//! The records `explore` writes (one JSONL line per improvement) and their independent
//! re-derivation.
//!
//! A record: `{"metric", "mechanism", "direction", "utility", "value": "p/q", "decimal",
//! "exact", ["interval": ["lo", "hi"]], ["inexact_reason"], "instance", "witness",
//! "scenarios", "seed", "origin", "best"}`. An irrational CEEI value known exactly
//! ([`super::exact`]) is written, with the witness's numerator, denominator and task counts, as
//! `{"algebraic": {"polynomial", "interval"}, "decimal", "closed_form"}` and says
//! `"exact": true`; `inexact_reason` says why such a value stayed an interval. The witness holds everything needed to re-derive the value: the user
//! whose ratio it is, the ratio's numerator and denominator, the scenario (`reports` of the
//! liars, the user who `departed` or `joined` with its demand, the `capacity_after`, the
//! `envied` user) and the mechanism's two answers (`allocation_before`, `allocation_after`,
//! by user name; with their tolerance when approximate).
//!
//! [`rederive`] reads a record back, recomputes both answers from scratch with the
//! mechanism, recomputes the value, and requires every number to agree exactly; it then
//! confirms the direction of the value with the solver's own property oracle (a gain above
//! 1 must be an SP/GSP violation, a loss below 1 a PM/RM violation, envy above 1 an EF
//! violation, a gap below 1 an SI violation, a deficit below 1 a share-guarantee violation at
//! the recorded node), for exact answers; `discrete-gap` is confirmed against fluid DRF
//! recomputed, the welfare ratios against their LPs, `starvation` by running its recorded
//! workload again and reading every node's spells from the simulator's trace.

use serde::Serialize;
use serde_json::Value;

use leontief_solver::algebraic::{Limits, RealAlgebraic};
use leontief_solver::ceei::ExactNumber;
use leontief_solver::properties::allocation::{envy_freeness, sharing_incentive};
use leontief_solver::properties::{Property, Scenario};
use leontief_solver::welfare::{utilitarian_optimum, welfare};
use leontief_solver::{read_numbers, Allocation, Instance, Mechanism, Rational, SolverError, User};

use super::metric::{At, Evaluation, Metric, Utility};
use super::MetricName;
use crate::candidate::{evaluate, evaluate_with, Candidate};
use crate::doc::{self, field, text, ByName};

/// `x` rounded to `places` decimal places, half to even, computed exactly (no floating
/// point), trailing zeros dropped.
///
/// # Example
/// ```
/// use leontief_counterexamples::explore::record::decimal;
/// use leontief_solver::Rational;
/// assert_eq!(decimal(&Rational::new(31, 24).unwrap(), 6), "1.291667");
/// assert_eq!(decimal(&Rational::new(3, 4).unwrap(), 6), "0.75");
/// assert_eq!(decimal(&Rational::new(-1, 8).unwrap(), 2), "-0.12"); // tie to even
/// assert_eq!(decimal(&Rational::ONE, 12), "1");
/// ```
pub fn decimal(x: &Rational, places: u32) -> String {
    let fixed = RealAlgebraic::from_rational(x.to_big()).to_decimal(places, &Limits::default());
    trimmed(fixed.expect("a rational is rounded without refinement"))
}

/// A fixed-point decimal with its trailing fractional zeros (and a bare point) dropped.
fn trimmed(fixed: String) -> String {
    if !fixed.contains('.') {
        return fixed;
    }
    fixed
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

/// Task counts by user name: user `users[k]`'s is the `k`-th of `exact` when the counts are
/// known exactly, else of `tasks`.
fn by_user<'a>(
    inst: &Instance,
    users: &[usize],
    exact: Option<&'a [ExactNumber]>,
    tasks: &'a [Rational],
) -> ByName<Number<'a>> {
    let numbers: Vec<Number> = match exact {
        Some(x) => x.iter().map(Number::Exact).collect(),
        None => tasks.iter().map(Number::Rational).collect(),
    };
    (users.iter().zip(numbers))
        .map(|(&i, t)| (inst.user_path(i), t))
        .collect()
}

/// A number of a record: a rational `"p/q"`, or an exact number (an irrational one as
/// `{"algebraic": {"polynomial", "interval"}, "decimal", "closed_form"}`).
#[derive(Serialize, Clone, Copy)]
#[serde(untagged)]
enum Number<'a> {
    Rational(&'a Rational),
    Exact(&'a ExactNumber),
}

/// Where a record was found: a seed unit of the space, or a local-search task; written as
/// the record's `"origin": kind, "unit"` or `"origin": "local", "round", "task"` (this type
/// serializes the numbers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Origin {
    /// Unit `unit` of the space (`exhaustive` or `random`).
    Unit {
        /// `exhaustive` or `random`.
        #[serde(skip)]
        kind: &'static str,
        /// The unit number.
        unit: u64,
    },
    /// Task `task` of local-search round `round`.
    Local {
        /// The round.
        round: u64,
        /// The task within it.
        task: u64,
    },
}

/// A record as written: the fields in the order of the JSONL line.
#[derive(Serialize)]
struct RecordDoc<'a> {
    metric: &'static str,
    mechanism: &'a str,
    direction: String,
    utility: &'static str,
    value: Number<'a>,
    decimal: String,
    exact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    interval: Option<[&'a Rational; 2]>,
    /// Why the value is an interval although its exact form was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    inexact_reason: Option<&'a str>,
    instance: Value,
    witness: WitnessDoc<'a>,
    /// The search's bookkeeping; none in `prove`'s counterexamples.
    #[serde(flatten)]
    search: Option<SearchFields<'a>>,
    /// `prove` for `prove`'s counterexamples.
    #[serde(skip_serializing_if = "Option::is_none")]
    strategy: Option<&'static str>,
}

/// Where and after how many scenarios the search found a record: a unit's kind and number,
/// or `"local"` and the task's round and number ([`Origin`]).
#[derive(Serialize)]
struct SearchFields<'a> {
    scenarios: u64,
    seed: u64,
    origin: &'static str,
    #[serde(flatten)]
    at: &'a Origin,
    best: bool,
}

/// The user who left and its demand (`pm-loss`).
#[derive(Serialize)]
struct DepartedDoc<'a> {
    user: String,
    demand: &'a [Rational],
}

/// A record's witness: the ratio, the scenario, the metric's own fields, both answers.
#[derive(Serialize)]
struct WitnessDoc<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Option<String>,
    numerator: Number<'a>,
    denominator: Number<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reports: Option<ByName<&'a [Rational]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    departed: Option<DepartedDoc<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    joined: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    capacity_after: Option<&'a [Rational]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    envied: Option<String>,
    /// The metric's own fields ([`Metric::detail`]; starvation's run: its seed, horizon,
    /// workload and worst spell).
    #[serde(flatten)]
    detail: Option<Value>,
    allocation_before: ByName<Number<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tolerance_before: Option<&'a Rational>,
    /// The second answer, under the metric's key ([`Metric::compared`]).
    #[serde(flatten)]
    compared: Option<ByName<ByName<Number<'a>>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tolerance_after: Option<&'a Rational>,
}

/// The JSON record of an evaluation.
pub fn to_json(
    metric: MetricName,
    mechanism: &str,
    utility: Utility,
    e: &Evaluation,
    scenarios: u64,
    seed: u64,
    at: &Origin,
) -> Value {
    let mut record = document(metric, mechanism, utility, e);
    let origin = match *at {
        Origin::Unit { kind, .. } => kind,
        Origin::Local { .. } => "local",
    };
    record.search = Some(SearchFields {
        scenarios,
        seed,
        origin,
        at,
        best: false,
    });
    doc::value(&record)
}

/// The record of an evaluation as `prove` states a counterexample: no search bookkeeping,
/// `"strategy": "prove"`.
pub(crate) fn to_prove_json(
    metric: MetricName,
    mechanism: &str,
    utility: Utility,
    e: &Evaluation,
) -> Value {
    let mut record = document(metric, mechanism, utility, e);
    record.strategy = Some("prove");
    doc::value(&record)
}

fn document<'a>(
    metric: MetricName,
    mechanism: &'a str,
    utility: Utility,
    e: &'a Evaluation,
) -> RecordDoc<'a> {
    let m = metric.metric();
    let inst = &e.candidate.instance;
    let n = inst.num_users();
    let all: Vec<usize> = (0..n).collect();
    let mut after_users = all.clone();
    // The instance the scenario's answer is about, when it has other users (a join).
    let mut after_inst = None;
    let algebraic = e.algebraic.as_deref();
    let exact_before = algebraic.map(|a| a.before.as_slice());
    let mut w = WitnessDoc {
        user: metric.info().per_user.then(|| inst.user_path(e.user)),
        numerator: algebraic.map_or(Number::Rational(&e.numerator), |a| {
            Number::Exact(&a.numerator)
        }),
        denominator: algebraic.map_or(Number::Rational(&e.denominator), |a| {
            Number::Exact(&a.denominator)
        }),
        reports: None,
        departed: None,
        joined: None,
        capacity_after: None,
        envied: None,
        // The node and spell of starvation need the policy, which the evaluation does not name.
        detail: m.detail(mechanism, e),
        allocation_before: by_user(inst, &all, exact_before, &e.before.tasks),
        tolerance_before: e.before.tolerance.as_ref().filter(|_| algebraic.is_none()),
        compared: None,
        tolerance_after: None,
    };
    match &e.candidate.scenario {
        Scenario::Lies(lies) => {
            w.reports = Some(
                lies.iter()
                    .map(|(i, report)| (inst.user_path(*i), report.as_slice()))
                    .collect(),
            );
        }
        Scenario::Remove(l) => {
            w.departed = Some(DepartedDoc {
                user: inst.user_path(*l),
                demand: &inst.users()[*l].demand,
            });
            after_users.retain(|k| k != l);
        }
        Scenario::Join(k) => {
            // The joiner as the instance form writes a user (name, demand, pool path, ...).
            if let Ok(larger) = super::pm_loss::joined(inst, k) {
                w.joined = Some(larger.to_json()["users"][n].clone());
                after_users.push(n);
                after_inst = Some(larger);
            }
        }
        Scenario::Capacity(c) => w.capacity_after = Some(c),
        Scenario::Churn(_) | Scenario::Bounded => {}
    }
    if let Some(k) = e.other
        && m.property() == Property::Ef
    {
        w.envied = Some(inst.user_path(k));
    }
    if let Some(after) = &e.after {
        let after_inst = after_inst.as_ref().unwrap_or(inst);
        let exact = algebraic.and_then(|a| a.after.as_deref());
        let answer = by_user(after_inst, &after_users, exact, &after.tasks);
        w.compared = Some(ByName(vec![(metric.info().compared.to_string(), answer)]));
        w.tolerance_after = after.tolerance.as_ref().filter(|_| algebraic.is_none());
    }
    RecordDoc {
        metric: metric.name(),
        mechanism,
        direction: m.direction().to_string(),
        utility: utility.name(),
        value: algebraic.map_or(Number::Rational(&e.value), |a| Number::Exact(&a.value)),
        decimal: algebraic
            .and_then(|a| exact_decimal(&a.value, 12))
            .unwrap_or_else(|| decimal(&e.value, 12)),
        exact: e.exact,
        interval: (!e.exact).then_some([&e.lo, &e.hi]),
        inexact_reason: e.inexact_reason.as_deref(),
        instance: inst.to_json(),
        witness: w,
        search: None,
        strategy: None,
    }
}

/// An exact number correctly rounded to `places` decimal places, trailing zeros dropped, as
/// [`decimal`]; `None` when the refinement limit is met.
fn exact_decimal(x: &ExactNumber, places: u32) -> Option<String> {
    let fixed = super::exact::real(x).to_decimal(places, &Limits::default());
    fixed.ok().map(trimmed)
}

/// The metric, the utility and the candidate (instance and scenario) of a record.
///
/// # Errors
/// A field that is missing or malformed, named by its path.
pub fn read(record: &Value) -> Result<(MetricName, Utility, Candidate), SolverError> {
    let metric: MetricName = text(record, "metric")?
        .parse()
        .map_err(|_| SolverError::invalid("metric", "unknown metric"))?;
    let utility: Utility = text(record, "utility")?.parse()?;
    let instance = Instance::from_json(field(record, "instance")?)?;
    let w = field(record, "witness")?;
    let scenario = match metric.metric().property() {
        Property::Sp | Property::GspStrong => {
            let reports = field(w, "reports")?;
            doc::read_lies(
                &instance,
                reports,
                "witness.reports",
                "expected an object",
                read_numbers,
            )?
        }
        Property::Pm => match (w.get("departed"), w.get("joined")) {
            (Some(d), None) => {
                let at = "witness.departed.user";
                let path = (d.get("user").and_then(Value::as_str))
                    .ok_or_else(|| SolverError::invalid(at, "expected a user path"))?;
                Scenario::Remove(doc::user_at(&instance, at, path)?)
            }
            (None, Some(j)) => Scenario::Join(read_joiner(record, j)?),
            _ => {
                return Err(SolverError::invalid(
                    "witness",
                    "expected one of departed and joined",
                ))
            }
        },
        Property::Rm => Scenario::Capacity(read_numbers(
            "witness.capacity_after",
            field(w, "capacity_after")?,
        )?),
        _ if metric == MetricName::Starvation => Scenario::Churn(
            field(w, "churn_seed")?
                .as_u64()
                .ok_or_else(|| SolverError::invalid("witness.churn_seed", "expected a seed"))?,
        ),
        _ => Scenario::Bounded,
    };
    Ok((metric, utility, Candidate::new(instance, scenario)))
}

/// The joiner of a `pm-loss` record: the record's instance with the `joined` user appended,
/// read by the instance reader (so its pool is named by path), and that last user.
fn read_joiner(record: &Value, j: &Value) -> Result<User, SolverError> {
    let mut doc = field(record, "instance")?.clone();
    let users = doc
        .get_mut("users")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| SolverError::invalid("instance.users", "expected a list"))?;
    users.push(j.clone());
    super::pm_loss::last_user(&doc, "witness.joined")
}

/// Re-derives a record from scratch: both answers recomputed by `mechanism`, the value
/// recomputed, every number compared exactly with the record's, and (for exact answers)
/// the value's side of 1 confirmed by the property oracle. Returns the evaluation.
///
/// # Errors
/// A malformed record, a mechanism failure, or any disagreement (named).
pub fn rederive(mechanism: &dyn Mechanism, record: &Value) -> Result<Evaluation, SolverError> {
    let (metric, utility, candidate) = read(record)?;
    let m = metric.metric();
    let truth = mechanism.allocate(&candidate.instance)?;
    let at = At::new(mechanism, &candidate, &truth, utility).algebraic();
    let e = m
        .at(&at)?
        .ok_or_else(|| SolverError::invalid("witness", "the scenario has no value"))?;
    let again = doc::value(&document(metric, mechanism.name(), utility, &e));
    for key in ["value", "exact", "interval", "inexact_reason"] {
        if record.get(key) != again.get(key) {
            return Err(SolverError::invalid(
                key,
                format!(
                    "recorded {:?}, re-derived {:?}",
                    record.get(key),
                    again.get(key)
                ),
            ));
        }
    }
    if record["witness"] != again["witness"] {
        return Err(SolverError::invalid(
            "witness",
            format!(
                "recorded {}, re-derived {}",
                record["witness"], again["witness"]
            ),
        ));
    }
    // A family member keeps its family's structure and parameters.
    if let Some(f) = record.get("family") {
        super::family::verify(f, &candidate.instance)?;
    }
    let inst = &candidate.instance;
    match metric {
        // The welfare ratios' benchmark is exact even when the mechanism's answer is not.
        MetricName::WelfareRatio => {
            let x = confirm_welfare(inst, utility, &e)?;
            confirm_optimum(inst, utility, &x, &e)?
        }
        MetricName::FairWelfareRatio => confirm_fair(inst, &confirm_welfare(inst, utility, &e)?)?,
        // An algebraic value rests on the exact KKT check of both equilibria and on exact
        // arithmetic; the property oracles judge the rational answers, approximate here.
        _ if !e.exact || e.algebraic.is_some() => {}
        MetricName::DiscreteGap => confirm_gap(&candidate, &truth, &e)?,
        MetricName::SgDeficit => super::sg_deficit::confirm(record, inst, &truth, &e)?,
        MetricName::Starvation => super::starvation::confirm(mechanism, record, inst)?,
        _ => confirm(mechanism, m, &candidate, &truth, &e)?,
    }
    Ok(e)
}

/// The recorded benchmark allocation is feasible and its welfare is the recorded
/// numerator. The witness was found equal to the re-derived one, so the allocation recorded
/// under `witness.allocation_optimum` is the evaluation's compared allocation.
fn confirm_welfare(
    inst: &Instance,
    utility: Utility,
    e: &Evaluation,
) -> Result<Allocation, SolverError> {
    let x = (e.after.as_ref())
        .map(|a| Allocation::new(a.tasks.clone()))
        .ok_or_else(|| SolverError::invalid("witness.allocation_optimum", "missing"))?;
    if !x.is_feasible(inst) || x.tasks.iter().any(Rational::is_negative) {
        return Err(SolverError::invalid(
            "witness.allocation_optimum",
            "the recorded allocation is not feasible",
        ));
    }
    let w = welfare(inst, &x, utility)?;
    if w != e.numerator {
        return Err(SolverError::invalid(
            "witness.numerator",
            format!(
                "the recorded allocation's welfare is {w}, the numerator {}",
                e.numerator
            ),
        ));
    }
    Ok(x)
}

/// `welfare-ratio`, independently of the metric, given the recorded optimum `x` (feasible,
/// its welfare the numerator: [`confirm_welfare`]): the dual certificate of a fresh LP solve
/// proves it optimal (its value equals the recorded allocation's welfare), and the value is
/// at least 1 (the mechanism's answer is feasible, so it cannot beat the optimum).
fn confirm_optimum(
    inst: &Instance,
    utility: Utility,
    x: &Allocation,
    e: &Evaluation,
) -> Result<(), SolverError> {
    utilitarian_optimum(inst, utility)?
        .certificate
        .check(inst, utility, x)
        .map_err(|r| SolverError::invalid("witness.allocation_optimum", r))?;
    if e.hi < Rational::ONE {
        return Err(SolverError::invalid(
            "value",
            format!("welfare-ratio = {} is below 1", e.hi),
        ));
    }
    Ok(())
}

/// `fair-welfare-ratio`, independently of the metric, given the recorded best fair
/// allocation `x` (feasible, its welfare the numerator: [`confirm_welfare`]): it has the
/// sharing incentive and envy-freeness by the solver's property oracles.
fn confirm_fair(inst: &Instance, x: &Allocation) -> Result<(), SolverError> {
    if !sharing_incentive(inst, x)?.holds || !envy_freeness(inst, x)?.holds {
        return Err(SolverError::invalid(
            "witness.allocation_optimum",
            "the recorded allocation lacks the sharing incentive or envy-freeness",
        ));
    }
    Ok(())
}

/// `discrete-gap`, independently of the metric: fluid DRF recomputed, every user's drift
/// `δ_i = (x_i − f_i) μ_i` lies within the recorded spread (`δ_user − δ_below` is the
/// numerator, so every pair's difference is at most it), and the denominator is the largest
/// task's dominant share.
fn confirm_gap(c: &Candidate, truth: &Allocation, e: &Evaluation) -> Result<(), SolverError> {
    let inst = &c.instance;
    let fluid = leontief_solver::Drf::extended().allocate(inst)?;
    let d: Vec<Rational> = (0..inst.num_users())
        .map(|i| &(&truth.tasks[i] - &fluid.tasks[i]) * &inst.task_dominant_share(i))
        .collect();
    let below = e.other.unwrap_or(0);
    let spread_ok = d
        .iter()
        .all(|x| *x <= d[e.user] && *x >= d[below] && &d[e.user] - &d[below] == e.numerator);
    let max_task = (0..inst.num_users())
        .map(|i| inst.task_dominant_share(i))
        .max()
        .unwrap_or(Rational::ZERO);
    if !spread_ok || max_task != e.denominator || e.value.is_negative() {
        return Err(SolverError::invalid(
            "witness",
            "the drifts from fluid DRF do not give the recorded gap",
        ));
    }
    Ok(())
}

/// The property oracle's verdict agrees with the value's side of 1.
fn confirm(
    mechanism: &dyn Mechanism,
    metric: &dyn Metric,
    c: &Candidate,
    truth: &Allocation,
    e: &Evaluation,
) -> Result<(), SolverError> {
    let one = Rational::ONE;
    let violated = match &c.scenario {
        // A join of k into I is the departure of k from I + k: the oracle decides that one.
        Scenario::Join(k) => {
            let larger = super::pm_loss::joined(&c.instance, k)?;
            let departure = Scenario::Remove(c.instance.num_users());
            evaluate(mechanism, Property::Pm, &Candidate::new(larger, departure))?
        }
        _ => evaluate_with(mechanism, metric.property(), c, truth)?,
    }
    .is_some();
    let claims = match metric.direction() {
        super::Direction::Max => e.value > one,
        super::Direction::Min => e.value < one,
    };
    // Users with nothing at the truth have no ratio, so the oracle may see a violation the
    // value does not (GSP, EF); a claimed violation must always be confirmed.
    let exact_match = matches!(
        metric.property(),
        Property::Sp | Property::Pm | Property::Rm | Property::Si
    );
    if (claims && !violated) || (violated && !claims && exact_match) {
        return Err(SolverError::invalid(
            "value",
            format!(
                "{} = {} but the {} oracle says the property {}",
                metric.name(),
                e.value,
                metric.property(),
                if violated { "fails" } else { "holds" }
            ),
        ));
    }
    Ok(())
}
