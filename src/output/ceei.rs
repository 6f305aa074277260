//! `solve --mechanism ceei`'s answer, the one CEEI writer (JSON, and the table and CSV of an
//! algebraic answer), numbers exact or rounded as [`Numbers`] says.
//!
//! Three answers, by what the exact step found ([`CeeiAnswer`]):
//! - **rational** (certified): an exact allocation, written by
//!   [`super::allocation::write_json`] with the prices beside it;
//! - **algebraic**: every figure an exact number ([`ExactNumber`]: `"p/q"` or the algebraic
//!   object of its serde form), `"exact": true`, `"certified": true`, `"relative_gap": 0.0`;
//!   the numeric solve's floats and its `feasible_tasks` no longer apply and are left out;
//!   under `--decimals N` each figure is correctly rounded from the exact value; the table
//!   and CSV show an irrational figure as its decimal;
//! - **numeric**: the Newton solver's floats as decimal strings (rounded from their decimal
//!   text under `--decimals`), the exactly feasible tasks, and `"exact_reason"`, why no
//!   exact form was found; user rows formatted in parallel chunks.
//!
//! # Complexity
//! `O(n·m)` numbers for `n` users and `m` resources, each formatted once; an algebraic
//! answer's figures are rounded before anything is written ([`CeeiAnswer::new`]), so a limit
//! of the algebraic kernel becomes the stated reason, never a partial output.

use std::borrow::Cow;

use leontief_solver::algebraic::{AlgebraicError, Limits};
use leontief_solver::ceei::exact::{Extremes, MAX_ALGEBRAIC_USERS};
use leontief_solver::ceei::{CeeiOutcome, ExactCeeiOutcome, ExactEquilibrium, ExactNumber};
use leontief_solver::rational::write_literal_decimal;
use leontief_solver::{Allocation, Instance, Rational};
use rayon::prelude::*;
use serde_json::{Map, Value};

use super::allocation::{
    close_answer, close_rows, csv_header, open_answer, open_user, write_bundle,
    write_json as write_allocation, write_rows, Answer, Figure, Head, SummaryDoc, SummaryUsers,
    Tail,
};
use super::{
    decimal_value, push_members, rounds_under, write_csv_field, write_json_str, Numbers, Sink,
};
use leontief_counterexamples::doc::ByName;
use serde::Serialize;

/// The budget of the exact algebraic step: the algebraic kernel's default limits with the
/// degree raised to [`MAX_ALGEBRAIC_USERS`] (a two-resource clearing polynomial has degree
/// at most the number of users).
pub fn exact_limits() -> Limits {
    // Two-resource answers of 100 users with distinct demands take well under a second
    // (BENCHMARKS.md); beyond the limit the answer is a stated reason, not a wait.
    Limits {
        max_degree: MAX_ALGEBRAIC_USERS,
        ..Limits::default()
    }
}

/// The largest field degree for which the summary's total of the tasks is computed exactly:
/// the total is the one figure that is not a multiple of a Möbius image of the field's
/// generator, and its minimal polynomial comes from a characteristic polynomial (`n + 1`
/// resultants over Z) whose cost grows steeply with the degree (BENCHMARKS.md); beyond it
/// the summary prints the total's decimal (rounded from the exact tasks) and the reason.
pub const TOTAL_MAX_DEGREE: usize = 24;

/// A CEEI answer ready to print: the numeric solve and what the exact step made of it.
pub struct CeeiAnswer {
    /// The numeric solve and its rational certification.
    pub outcome: CeeiOutcome,
    /// The exact form.
    pub exact: ExactForm,
}

/// What the exact step found.
pub enum ExactForm {
    /// A certified rational equilibrium (in the outcome).
    Rational,
    /// An irrational equilibrium, every figure ready to print.
    Algebraic(Box<Figures>),
    /// No exact form, and why.
    Numeric(String),
}

/// One figure of an algebraic answer as printed: the exact number's serde form, or the
/// rounded literal.
fn figure(x: &ExactNumber, numbers: Numbers, limits: &Limits) -> Result<Value, AlgebraicError> {
    Ok(match numbers {
        Numbers::Exact => crate::commands::to_value(x),
        Numbers::Decimals(n) => decimal_value(x.to_significant(n, limits)?),
    })
}

/// A figure's table or CSV cell: `p/q`, an irrational figure's decimal, or the rounded
/// literal.
fn cell(figure: &Value) -> String {
    match figure {
        Value::String(s) => s.clone(),
        Value::Object(members) => members
            .get("decimal")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .into(),
        other => other.to_string(),
    }
}

/// Every figure of an algebraic answer, printed as [`Numbers`] says.
pub struct Figures {
    tasks: Vec<Value>,
    allocation: Vec<Vec<Value>>,
    dominant_shares: Vec<Value>,
    weighted_shares: Vec<Value>,
    consumption: Vec<Value>,
    utilization: Vec<Value>,
    saturated: Vec<bool>,
    prices: Vec<Value>,
    /// The total, when the summary prints it.
    total_tasks: Option<Value>,
    extremes: Extremes,
    levels: usize,
}

impl Figures {
    /// User `i`'s cells in a table or CSV row: its tasks, its bundle and its dominant share.
    fn cells(&self, i: usize) -> impl Iterator<Item = String> + '_ {
        let row = std::iter::once(&self.tasks[i]).chain(&self.allocation[i]);
        row.chain([&self.dominant_shares[i]]).map(cell)
    }

    fn of<Total>(
        eq: &ExactEquilibrium<Total>,
        total_tasks: Option<&ExactNumber>,
        numbers: Numbers,
        limits: &Limits,
    ) -> Result<Figures, AlgebraicError> {
        // Writing a figure's polynomial in decimal is most of an answer's cost at 100
        // users: the figures are formed in parallel, in order.
        let all = |xs: &[ExactNumber]| -> Result<Vec<Value>, AlgebraicError> {
            xs.par_iter().map(|x| figure(x, numbers, limits)).collect()
        };
        Ok(Figures {
            tasks: all(&eq.tasks)?,
            allocation: eq
                .allocation
                .par_iter()
                .map(|b| all(b))
                .collect::<Result<_, _>>()?,
            dominant_shares: all(&eq.dominant_shares)?,
            weighted_shares: all(&eq.weighted_shares)?,
            consumption: all(&eq.consumption)?,
            utilization: all(&eq.utilization)?,
            saturated: eq.saturated.clone(),
            prices: all(&eq.prices)?,
            total_tasks: total_tasks
                .map(|t| figure(t, numbers, limits))
                .transpose()?,
            extremes: eq.extremes,
            levels: eq.weighted_levels,
        })
    }
}

impl CeeiAnswer {
    /// The answer of [`leontief_solver::ceei::Ceei::solve_exact_figures`], its algebraic
    /// figures rounded as `numbers` says (a limit hit there becomes the stated reason); the
    /// total of the tasks is computed only `with_total` (the summary prints it, the other
    /// layouts do not, and its minimal polynomial is the costliest figure).
    pub fn new(
        solved: ExactCeeiOutcome<()>,
        numbers: Numbers,
        limits: &Limits,
        with_total: bool,
    ) -> CeeiAnswer {
        let printed = |eq: ExactEquilibrium<()>| -> Result<Figures, AlgebraicError> {
            if !with_total {
                return Figures::of(&eq, None, numbers, limits);
            }
            let total_limits = Limits {
                max_degree: limits.max_degree.min(TOTAL_MAX_DEGREE),
                ..*limits
            };
            let (degree, limit) = match eq.total_tasks(&total_limits) {
                Ok(total) => return Figures::of(&eq, Some(&total), numbers, limits),
                Err(AlgebraicError::DegreeLimit { degree, limit }) => (degree, limit),
                Err(e) => return Err(e),
            };
            // Every other figure stays exact; the total is rounded from the exact tasks.
            let decimal = eq.total_tasks_decimal(numbers.digits(), limits)?;
            let mut figures = Figures::of(&eq, None, numbers, limits)?;
            // A figure given by its decimal alone, with the reason its exact form is not
            // printed.
            let reason = format!(
                "the total's minimal polynomial is computed up to field degree {limit}; this \
                 field has degree {degree}"
            );
            figures.total_tasks = Some(match numbers {
                Numbers::Exact => serde_json::json!({"decimal": decimal, "inexact_reason": reason}),
                Numbers::Decimals(_) => decimal_value(decimal),
            });
            Ok(figures)
        };
        let exact = match solved.algebraic {
            None => ExactForm::Rational,
            Some(Ok(eq)) => match printed(eq) {
                Ok(figures) => ExactForm::Algebraic(Box::new(figures)),
                Err(e) => ExactForm::Numeric(format!("printing the exact answer: {e}")),
            },
            Some(Err(e)) => ExactForm::Numeric(e.to_string()),
        };
        CeeiAnswer {
            outcome: solved.outcome,
            exact,
        }
    }

    /// The certified rational tasks, when the answer is rational.
    pub fn rational_tasks(&self) -> Option<&[Rational]> {
        match (&self.exact, &self.outcome.tasks_exact) {
            (ExactForm::Rational, Some(t)) if self.outcome.certified => Some(t),
            _ => None,
        }
    }
}

/// Writes the CEEI answer as JSON (see the [module docs](self)).
pub fn write_json(sink: &mut Sink<'_>, numbers: Numbers, inst: &Instance, answer: &CeeiAnswer) {
    let out = &answer.outcome;
    let reason = match &answer.exact {
        ExactForm::Algebraic(figures) => {
            return write_algebraic_json(sink, numbers, inst, out, figures)
        }
        ExactForm::Numeric(reason) => Some(reason),
        ExactForm::Rational => None,
    };
    let mut extra = report(out, out.certified, Value::from(out.relative_gap));
    let prices: Vec<String> = match &out.prices_exact {
        Some(p) if out.certified => p.iter().map(ToString::to_string).collect(),
        _ => out.prices.iter().map(ToString::to_string).collect(),
    };
    let mut prices = crate::commands::to_value(&ByName::zip(inst.resources(), &prices));
    if let (Some(tasks), true) = (&out.tasks_exact, out.certified) {
        extra.insert("prices".into(), prices);
        let mut answer = Answer {
            mechanism: "ceei",
            exact: true,
            instance: Cow::Borrowed(inst),
            allocation: Cow::Owned(Allocation::new(tasks.clone())),
            consumption: None,
            extra,
            weighted_shares: None,
        };
        write_allocation(sink, numbers, &mut answer);
        return;
    }
    open_answer(sink, &Head::new(numbers, "ceei", false, inst));
    write_rows(sink, inst.num_users(), numbers, &|i, _, buf| {
        open_user(inst, i, buf);
        let x = out.tasks[i];
        buf.push_str(",\n      \"tasks\": ");
        write_float(x, numbers, buf);
        write_bundle(inst, i, buf, |d, buf| {
            write_float(x * d.to_f64_lossy(), numbers, buf)
        });
        buf.push_str(",\n      \"dominant_share\": ");
        write_float(x * inst.task_dominant_share(i).to_f64_lossy(), numbers, buf);
        buf.push_str("\n    }");
    });
    close_rows(sink, inst.num_users(), ']');
    extra.values_mut().for_each(|v| numbers.round(v));
    if let Some(reason) = reason {
        // After `certified`, and after the rounding: a reason is text, never a number.
        extra.shift_insert(1, "exact_reason".into(), Value::String(reason.clone()));
    }
    push_members(sink, &extra, true);
    // Keyed by path; a path that is also a name key stays exact, as the tree's rounding
    // leaves it.
    sink.buf.push_str(",\n  \"feasible_tasks\": {");
    write_rows(sink, inst.num_users(), numbers, &|i, _, buf| {
        buf.push_str(if i == 0 { "\n    " } else { ",\n    " });
        let path = inst.user_path(i);
        write_json_str(&path, buf);
        buf.push_str(": ");
        let x = &out.feasible_tasks[i];
        match numbers {
            Numbers::Decimals(_) if rounds_under(&path) => numbers.write(x, true, buf),
            _ => Numbers::Exact.write(x, true, buf),
        }
    });
    close_rows(sink, inst.num_users(), '}');
    numbers.round(&mut prices);
    close_answer(sink, &Map::from_iter([("prices".to_string(), prices)]));
}

/// A float of the Newton solution as the tree holds it (its shortest decimal string) and
/// prints it: quoted when exact; under decimals rounded from that decimal text, as
/// [`super::round_value`] rounds a string. A float's text is a plain literal (which
/// [`write_literal_decimal`] rounds on its digits) or `NaN` or `inf`, which stay text.
fn write_float(x: f64, numbers: Numbers, out: &mut String) {
    let text = x.to_string();
    if let Numbers::Decimals(n) = numbers
        && write_literal_decimal(&text, n, out)
    {
        return;
    }
    write_json_str(&text, out);
}

/// The solver's report, the members every CEEI answer writes after its users (after its
/// consumption and saturated resources where it has them), in the report's order
/// (`objective` is not printed).
fn report(out: &CeeiOutcome, certified: bool, relative_gap: Value) -> Map<String, Value> {
    Map::from_iter([
        ("certified".to_string(), Value::Bool(certified)),
        ("status".to_string(), Value::from(out.status.as_str())),
        ("iterations".to_string(), Value::from(out.iterations)),
        ("relative_gap".to_string(), relative_gap),
    ])
}

/// The JSON of an algebraic answer: the layout of a certified one (its head, users and
/// [`Tail`]), every figure exact.
#[derive(Serialize)]
struct AlgebraicDoc<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    users: Vec<AlgebraicUser<'a>>,
    #[serde(flatten)]
    tail: Tail<'a>,
}

/// One user of an [`AlgebraicDoc`].
#[derive(Serialize)]
struct AlgebraicUser<'a> {
    name: String,
    tasks: &'a Value,
    allocation: &'a [Value],
    dominant_share: &'a Value,
    weighted_share: &'a Value,
}

fn write_algebraic_json(
    sink: &mut Sink<'_>,
    numbers: Numbers,
    inst: &Instance,
    out: &CeeiOutcome,
    figures: &Figures,
) {
    let users = (0..inst.num_users())
        .map(|i| AlgebraicUser {
            name: inst.user_path(i),
            tasks: &figures.tasks[i],
            allocation: &figures.allocation[i],
            dominant_share: &figures.dominant_shares[i],
            weighted_share: &figures.weighted_shares[i],
        })
        .collect();
    // An exact equilibrium has no gap; printed as a certified answer prints it.
    let gap = match numbers {
        Numbers::Exact => Value::from(0.0),
        Numbers::Decimals(_) => Value::from(0),
    };
    let mut extra = report(out, true, gap);
    let prices = ByName::zip(inst.resources(), &figures.prices);
    extra.insert("prices".into(), crate::commands::to_value(&prices));
    let doc = AlgebraicDoc {
        head: Head::new(numbers, "ceei", true, inst),
        users,
        tail: Tail {
            consumption: figures.consumption.clone(),
            saturated: saturated_names(inst, &figures.saturated),
            extra: &extra,
        },
    };
    sink.buf.push_str(&crate::commands::pretty(&doc));
}

fn saturated_names<'a>(inst: &'a Instance, saturated: &[bool]) -> Vec<&'a str> {
    inst.resources()
        .iter()
        .zip(saturated)
        .filter(|(_, s)| **s)
        .map(|(r, _)| r.as_str())
        .collect()
}

/// The summary of an algebraic answer, in the layout of
/// [`super::allocation::write_summary`].
pub fn write_algebraic_summary(
    sink: &mut Sink<'_>,
    numbers: Numbers,
    inst: &Instance,
    figures: &Figures,
) {
    let e = &figures.extremes;
    let figure = |at, xs: &[Value]| Figure::extremes(inst, at, |i| xs[i].clone());
    SummaryDoc {
        head: Head {
            users: Some(inst.num_users()),
            ..Head::new(numbers, "ceei", true, inst)
        },
        consumption: figures.consumption.clone(),
        utilization: figures.utilization.clone(),
        saturated: saturated_names(inst, &figures.saturated),
        figures: (inst.num_users() > 0).then(|| SummaryUsers {
            tasks: Figure {
                total: figures.total_tasks.clone(),
                ..figure(e.tasks, &figures.tasks)
            },
            dominant_share: figure(e.dominant_share, &figures.dominant_shares),
            weighted_share: Figure {
                levels: Some(figures.levels),
                ..figure(e.weighted_share, &figures.weighted_shares)
            },
        }),
        extra: Map::new(),
    }
    .write(sink);
}

/// The CSV of an algebraic answer: `user,tasks,<resource>..,dominant_share,weighted_share`,
/// each cell `p/q`, an irrational figure's decimal, or the rounded literal.
pub fn write_algebraic_csv(sink: &mut Sink<'_>, inst: &Instance, figures: &Figures) {
    let buf = &mut sink.buf;
    csv_header(inst, buf);
    for i in 0..inst.num_users() {
        write_csv_field(&inst.user_path(i), buf);
        for c in figures.cells(i).chain([cell(&figures.weighted_shares[i])]) {
            buf.push(',');
            buf.push_str(&c);
        }
        buf.push('\n');
    }
}

/// The table of an algebraic answer, in the layout of [`crate::render::allocation_table`]:
/// one row per user, the use of each resource, the saturated resources and the prices.
pub fn algebraic_table(inst: &Instance, numbers: Numbers, figures: &Figures) -> String {
    let title = match numbers {
        Numbers::Exact => format!(
            "ceei (exact; irrational numbers as decimals to {} places, exact forms in JSON)",
            leontief_solver::ceei::exact::DECIMAL_PLACES
        ),
        Numbers::Decimals(n) => format!("ceei (exact, rounded to {n} significant digits)"),
    };
    let rows = (0..inst.num_users())
        .map(|i| figures.cells(i).collect())
        .collect();
    let used = figures.consumption.iter().map(cell).collect();
    let saturated = saturated_names(inst, &figures.saturated);
    let mut out = crate::render::user_table(&title, inst, rows, used, &saturated, numbers);
    let prices = inst.resources().iter().zip(&figures.prices);
    let prices = crate::render::joined(prices.map(|(r, p)| format!("{r} = {}", cell(p))));
    out.push_str(&format!("prices: {prices}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::to_string;
    use leontief_solver::ceei::Ceei;
    use leontief_solver::User;

    fn answer(inst: &Instance, numbers: Numbers) -> CeeiAnswer {
        let solved = Ceei::new()
            .solve_exact_figures(inst, &exact_limits())
            .unwrap();
        CeeiAnswer::new(solved, numbers, &exact_limits(), true)
    }

    fn json(inst: &Instance, numbers: Numbers) -> Value {
        let a = answer(inst, numbers);
        serde_json::from_str(&to_string(|sink| write_json(sink, numbers, inst, &a))).unwrap()
    }

    /// d_a = (1, 0), d_b = (0, 1), d_c = (1, 2) on R = (1, 1): x_c = (3 − √3)/6 (module docs
    /// of the solver's CEEI). From 6x − 3 = −√3: 36x² − 36x + 9 = 3, so 6x² − 6x + 1 = 0,
    /// lowest degree first [1, −6, 6]; x_c ≈ 0.2113248654, so at 4 significant digits
    /// 0.2113.
    #[test]
    fn an_irrational_answer_is_written_exactly() {
        let inst = Instance::new(
            vec![1.into(), 1.into()],
            vec![
                User::new("a", [1, 0]),
                User::new("b", [0, 1]),
                User::new("c", [1, 2]),
            ],
        )
        .unwrap();
        let v = json(&inst, Numbers::Exact);
        assert_eq!(v["exact"], true);
        assert_eq!(v["certified"], true);
        let c = &v["users"][2]["tasks"];
        assert_eq!(
            c["algebraic"]["polynomial"],
            serde_json::json!(["1", "-6", "6"])
        );
        assert_eq!(c["closed_form"], "(3 - sqrt(3))/6");
        assert!(v.get("feasible_tasks").is_none());
        let v = json(&inst, Numbers::Decimals(4));
        assert_eq!(v["users"][2]["tasks"].to_string(), "0.2113");
    }

    /// 34 copies of Theorem 5's users on 34 times its capacity: the replicated equilibrium is
    /// Theorem 5's, irrational, and 102 users exceed the algebraic step's bound, which the
    /// answer names.
    #[test]
    fn a_numeric_answer_states_its_reason() {
        let users = (0..34)
            .flat_map(|k| {
                [
                    User::new(format!("a{k}"), [4, 1]),
                    User::new(format!("b{k}"), [1, 16]),
                    User::new(format!("c{k}"), [16, 1]),
                ]
            })
            .collect();
        let inst = Instance::new(vec![3400.into(), 3400.into()], users).unwrap();
        let v = json(&inst, Numbers::Exact);
        assert_eq!(v["exact"], false);
        assert_eq!(
            v["exact_reason"],
            "users: exact algebraic CEEI is tried for at most 100 users (the degree of the clearing polynomial), the instance has 102"
        );
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        let at = keys.iter().position(|k| *k == "certified").unwrap();
        assert_eq!(keys[at + 1], "exact_reason");
    }
}
