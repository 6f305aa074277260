//! Exact values of the ratio metrics (per user, and the welfare ratios) when the mechanism's
//! answers are irrational but known exactly (CEEI through [`Mechanism::algebraic_tasks`],
//! docs/explore.md §4).
//!
//! A CEEI answer is certified rational only when the equilibrium is rational; otherwise the
//! numeric answer carries a tolerance and the value is an interval. The exact equilibrium is
//! algebraic ([`leontief_solver::ceei::algebraic::solve_exact`], which checks the KKT
//! conditions exactly in a number field), so every utility is exact too: a user's utility is
//! the property oracles' [`Gauge`] `min(T, c · t)` of its task count `t` (a real algebraic
//! number; `c` the fraction of a true task a reported task holds, or of another's bundle for
//! envy), times the normalisation's rational factor; the cap is decided exactly. A ratio of two
//! utilities of two answers is a quotient of numbers from two fields, taken by [`arith::div`];
//! a welfare is a sum of one answer's counts ([`sum`]). The user whose ratio is
//! the value is chosen by exact comparison ([`RealAlgebraic::try_cmp`]), the first on a tie.
//!
//! The exact path is taken only when asked for ([`At::algebraic`]): when a record is kept,
//! shrunk and re-derived, not for every scenario of the search. A refusal (a limit of the exact
//! solve or of the arithmetic) leaves the interval, with the reason in
//! [`Evaluation::inexact_reason`].

use std::cmp::Ordering;

use leontief_solver::algebraic::{arith, AlgebraicError, Limits, RealAlgebraic};
use leontief_solver::ceei::ExactNumber;
use leontief_solver::properties::{report_gauge, truth_gauge, Gauge};
use leontief_solver::{Instance, Rational};

use super::metric::{At, Direction, Evaluation, Spread};
use super::metric_common::Of;

/// The exact value of an evaluation and the two answers it compares, as exact numbers
/// (rational, or irrational algebraic with decimal and closed form for printing).
#[derive(Debug, Clone, PartialEq)]
pub struct AlgebraicValue {
    /// The value.
    pub value: ExactNumber,
    /// The ratio's numerator (a utility).
    pub numerator: ExactNumber,
    /// The ratio's denominator (a utility).
    pub denominator: ExactNumber,
    /// The task counts of the answer on the true instance, user by user.
    pub before: Vec<ExactNumber>,
    /// The task counts of the answer in the scenario.
    pub after: Option<Vec<ExactNumber>>,
}

// ExactNumber's equality is structural on a rational or an algebraic number, both `Eq`.
impl Eq for AlgebraicValue {}

impl AlgebraicValue {
    /// The value as a real algebraic number.
    pub fn real(&self) -> RealAlgebraic {
        real(&self.value)
    }
}

/// An exact number as a real algebraic number.
pub fn real(x: &ExactNumber) -> RealAlgebraic {
    match x {
        ExactNumber::Rational(r) => RealAlgebraic::from_rational(r.to_big()),
        ExactNumber::Algebraic(a) => a.value().clone(),
    }
}

/// The width below which the value's isolating interval is refined before it becomes the
/// evaluation's `(lo, hi)`: 2^-100, far below any difference the search acts on.
fn value_width() -> Rational {
    Rational::new(1, 1i128 << 100).expect("nonzero")
}

/// Why an exact value could not be had.
fn reason(e: AlgebraicError) -> String {
    format!("exact arithmetic: {e}")
}

/// One answer's exact task counts, user by user.
type Tasks = Vec<RealAlgebraic>;

/// One instance's exact task counts: `Ok(None)` for a mechanism without an algebraic form,
/// `Err(reason)` when it refuses this instance.
type Solved = Result<Option<Tasks>, String>;

/// The mechanism's exact task counts on `instance` ([`Solved`]).
pub(crate) fn tasks(at: &At, instance: &Instance) -> Solved {
    match at.mechanism.algebraic_tasks(instance) {
        None => Ok(None),
        Some(Ok(t)) => Ok(Some(t)),
        Some(Err(e)) => Err(format!("exact equilibrium: {e}")),
    }
}

/// The exact task counts on the true instance and on `other` (the scenario's): `Ok(None)`
/// for a mechanism without an algebraic form.
pub(crate) fn both(at: &At, other: &Instance) -> Result<Option<(Tasks, Tasks)>, String> {
    let (Some(mine), Some(theirs)) = (tasks(at, &at.candidate.instance)?, tasks(at, other)?) else {
        return Ok(None);
    };
    Ok(Some((mine, theirs)))
}

/// `g(t) · scale`: a quantity of one exact task count (a [`Gauge`], `min(cap, c · t)`, the
/// one the property oracles use) in the normalisation whose per-task factor is `scale`.
pub(crate) fn gauged(
    g: &Gauge,
    t: &RealAlgebraic,
    scale: &Rational,
) -> Result<RealAlgebraic, String> {
    let limit = || "exact arithmetic: a limit of the algebraic kernel".to_string();
    let v = g.apply_exact(t).ok_or_else(limit)?;
    Gauge::scale(scale.clone())
        .apply_exact(&v)
        .ok_or_else(limit)
}

/// `min(t, T_i) · scale`: user `i`'s true utility of `t` tasks of its true demand (its cap
/// `T_i` bounds it), in the normalisation whose per-task factor is `scale`.
pub(crate) fn utility_at_truth(
    instance: &Instance,
    i: usize,
    t: &RealAlgebraic,
    scale: &Rational,
) -> Result<RealAlgebraic, String> {
    gauged(&truth_gauge(instance, i), t, scale)
}

/// `min(T_i, t · min_{j: d_ij > 0} d'_j / d_ij) · scale`: user `i`'s true utility of `t`
/// tasks of the report `d'` (0 when the report omits a resource it needs), as
/// [`leontief_solver::properties::utility_of_report`] exactly.
pub(crate) fn utility_of_report(
    instance: &Instance,
    i: usize,
    t: &RealAlgebraic,
    report: &[Rational],
    scale: &Rational,
) -> Result<RealAlgebraic, String> {
    gauged(&report_gauge(instance, i, report), t, scale)
}

/// `a` against `b`, exactly.
///
/// # Errors
/// The reason when the comparison exceeds the kernel's limits.
pub(crate) fn cmp(a: &RealAlgebraic, b: &RealAlgebraic) -> Result<Ordering, String> {
    a.try_cmp(b, &Limits::default()).map_err(reason)
}

/// `Σ_k c_k t_k` of exact task counts `t_k` with rational factors `c_k`: one number field's
/// elements when the counts come from one equilibrium, summed by the kernel's arithmetic.
///
/// # Errors
/// The reason when a sum exceeds the kernel's limits.
pub(crate) fn sum<'t>(
    terms: impl IntoIterator<Item = (Rational, &'t RealAlgebraic)>,
) -> Result<RealAlgebraic, String> {
    let lim = Limits::default();
    let mut total = RealAlgebraic::from_rational(Rational::ZERO.to_big());
    for (c, t) in terms {
        let term = arith::scale(t, &c.to_big(), &lim).map_err(reason)?;
        total = arith::add(&total, &term, &lim).map_err(reason)?;
    }
    Ok(total)
}

/// User `i`'s exact ratio of its true utilities of two answers' task counts, one row
/// `(i, other, [(a, scale_a), (b, scale_b)])` a ratio: `a` tasks in the normalisation
/// `scale_a` over `b` tasks in `scale_b` ([`utility_at_truth`]).
///
/// # Errors
/// The reason when a utility exceeds the kernel's limits.
pub(crate) fn truth_ratios<'t>(
    instance: &Instance,
    rows: impl IntoIterator<Item = (usize, Option<usize>, [(&'t RealAlgebraic, Rational); 2])>,
) -> Result<Vec<ExactRatio>, String> {
    let u = |i, (t, s): (&RealAlgebraic, Rational)| utility_at_truth(instance, i, t, &s);
    (rows.into_iter())
        .map(|(i, other, [a, b])| Ok((i, other, u(i, a)?, u(i, b)?)))
        .collect()
}

/// One user's exact ratio: the user, the other user it is about, numerator and denominator.
pub(crate) type ExactRatio = (usize, Option<usize>, RealAlgebraic, RealAlgebraic);

/// The best exact ratio among `ratios` for `direction` (the first on a tie; a zero
/// denominator has no ratio) as an exact evaluation of `of`, whose answers' exact task counts
/// are `before` and `after`; `Ok(None)` when no ratio has a value.
///
/// # Errors
/// The reason when a quotient, a comparison or a printed form exceeds the kernel's limits.
pub(crate) fn best(
    of: &Of,
    direction: Direction,
    ratios: Vec<ExactRatio>,
    before: &[RealAlgebraic],
    after: Option<&[RealAlgebraic]>,
) -> Result<Option<Evaluation>, String> {
    let lim = Limits::default();
    let mut top: Option<(RealAlgebraic, ExactRatio)> = None;
    for r in ratios {
        if r.3.signum() == 0 {
            continue;
        }
        let value = arith::div(&r.2, &r.3, &lim).map_err(reason)?;
        let better = match &top {
            None => true,
            Some((v, _)) => {
                let order = value.try_cmp(v, &lim).map_err(reason)?;
                match direction {
                    Direction::Max => order == Ordering::Greater,
                    Direction::Min => order == Ordering::Less,
                }
            }
        };
        if better {
            top = Some((value, r));
        }
    }
    let Some((mut value, (user, other, numerator, denominator))) = top else {
        return Ok(None);
    };
    value
        .refine(&value_width().to_big(), &lim)
        .map_err(reason)?;
    let exact = |x: RealAlgebraic| ExactNumber::from_real(x, &lim).map_err(reason);
    let all = |xs: &[RealAlgebraic]| -> Result<Vec<ExactNumber>, String> {
        xs.iter().map(|x| exact(x.clone())).collect()
    };
    let spread = bounds(&value);
    let algebraic = AlgebraicValue {
        value: exact(value)?,
        numerator: exact(numerator)?,
        denominator: exact(denominator)?,
        before: all(before)?,
        after: after.map(all).transpose()?,
    };
    // The rational fields keep the search's types: the midpoint and the numerator and
    // denominator's own midpoints are what the search compares on; the record prints the
    // exact numbers.
    let (n, d) = (
        midpoint(&algebraic.numerator),
        midpoint(&algebraic.denominator),
    );
    let mut e = of.evaluation(user, other, n, d, spread, true);
    e.algebraic = Some(Box::new(algebraic));
    Ok(Some(e))
}

/// A rational inside an exact number's isolating interval (the number when rational).
fn midpoint(x: &ExactNumber) -> Rational {
    bounds(&real(x)).value
}

/// The midpoint (as the value) and the ends of a real algebraic number's isolating interval.
fn bounds(r: &RealAlgebraic) -> Spread {
    let (lo, hi) = r.interval();
    let (lo, hi) = (
        Rational::from_big(lo.clone()),
        Rational::from_big(hi.clone()),
    );
    Spread {
        value: &(&lo + &hi) * &Rational::new(1, 2).expect("nonzero"),
        lo,
        hi,
    }
}

/// The evaluation of a per-user ratio metric at `at`: the search's `approximate` one, or,
/// when the exact value is asked for and the answers are not exact, the exact one computed
/// by `exact` (which returns the exact task counts it used: `Ok(None)` when the mechanism has
/// no algebraic form). A refusal keeps the interval with its reason.
pub(crate) fn or_exact(
    at: &At,
    approximate: Option<Evaluation>,
    exact: impl FnOnce() -> Result<Option<Option<Evaluation>>, String>,
) -> Option<Evaluation> {
    let approx = approximate?;
    if !at.algebraic || approx.exact {
        return Some(approx);
    }
    match exact() {
        Ok(Some(found)) => found,
        Ok(None) => Some(approx),
        Err(reason) => Some(Evaluation {
            inexact_reason: Some(reason),
            ..approx
        }),
    }
}

/// The exact number a record writes (`"p/q"`, or `{"algebraic": {"polynomial",
/// "interval"}, ..}`) read back as a real algebraic number; `Ok(None)` for a value of another
/// form. The interval must isolate a root of the polynomial, which must be irreducible.
///
/// # Errors
/// A malformed number, named by `field`.
pub fn read_exact(
    field: &str,
    v: &serde_json::Value,
) -> Result<Option<RealAlgebraic>, leontief_solver::SolverError> {
    use leontief_solver::algebraic::Poly;
    use leontief_solver::SolverError;
    let bad = |why: String| SolverError::invalid(field, why);
    if let Some(text) = v.as_str() {
        let r: Rational = text.parse().map_err(|_| bad("expected p/q".into()))?;
        return Ok(Some(RealAlgebraic::from_rational(r.to_big())));
    }
    let Some(a) = v.get("algebraic") else {
        return Ok(None);
    };
    let number = |x: &serde_json::Value| -> Result<Rational, SolverError> {
        x.as_str()
            .and_then(|t| t.parse::<Rational>().ok())
            .ok_or_else(|| bad(format!("expected a number as text, found {x}")))
    };
    let coeffs = a
        .get("polynomial")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| bad("expected algebraic.polynomial".into()))?
        .iter()
        .map(|c| {
            let r = number(c)?;
            r.is_integer()
                .then(|| r.to_big().numer().clone())
                .ok_or_else(|| bad(format!("a coefficient {r} is not an integer")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let ends = a
        .get("interval")
        .and_then(serde_json::Value::as_array)
        .filter(|i| i.len() == 2)
        .ok_or_else(|| bad("expected algebraic.interval [lo, hi]".into()))?;
    let (lo, hi) = (number(&ends[0])?, number(&ends[1])?);
    let x = RealAlgebraic::root_in(
        &Poly::new(coeffs),
        &lo.to_big(),
        &hi.to_big(),
        &Limits::default(),
    )
    .map_err(|e| bad(e.to_string()))?;
    if x.degree() + 1 != a["polynomial"].as_array().map_or(0, Vec::len) {
        return Err(bad("the polynomial is not irreducible".into()));
    }
    Ok(Some(x))
}
