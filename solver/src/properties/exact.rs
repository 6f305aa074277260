//! A mechanism's answer as the oracles judge it ([`Answer`]): the rational allocation, and —
//! when that allocation is approximate and the mechanism knows its exact algebraic form
//! ([`Mechanism::algebraic_tasks`], CEEI) — the true task counts as real algebraic numbers.
//!
//! With that form every comparison an oracle makes is decided exactly, equality included
//! (the private `tolerance` module's [`Bounded`](super::tolerance::Bounded) carries the exact
//! value beside the computed one): a task count is compared by the algebraic kernel
//! ([`RealAlgebraic::try_cmp`], [`RealAlgebraic::cmp_rational`]); a utility, a share or an
//! envied bundle's utility is `min(T, c · x)`, a Möbius image of the count; a resource's
//! consumption `Σ_k x_k d_kj` is a sum of algebraic numbers, formed exactly here
//! ([`exact_sum`]) by resultants.
//!
//! The form is refused when the mechanism says why (a stated limit of the exact solve) or
//! when it does not lie within the error the rational answer admits (then one of the two is
//! wrong, and the margins of the rational answer are the safer reading); the verdict falls
//! back to the tolerance judgement and its note gives the reason.

use std::cmp::Ordering;

use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::algebraic::arith::add;
use crate::algebraic::{AlgebraicError, Limits, RealAlgebraic};
use crate::ceei::ExactNumber;
use crate::{Allocation, Instance, Mechanism, Rational, SolverError};

/// The limits of every exact comparison and sum of the oracles: the kernel's defaults.
pub(crate) fn limits() -> Limits {
    Limits::default()
}

/// What is known of an answer beyond its rational task counts.
#[derive(Debug, Clone)]
pub(crate) enum Form {
    /// Nothing more: the counts are exact (no tolerance) or judged with their tolerance.
    Given,
    /// The true task counts, one per user.
    Algebraic(Vec<RealAlgebraic>),
    /// The answer is approximate and its exact form was refused, for this reason.
    Refused(String),
}

/// A mechanism's answer with what is known of its exact form (see the [module docs](self)).
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    /// The rational answer (approximate when it carries a tolerance).
    pub(crate) allocation: Allocation,
    /// Its exact form, when known.
    pub(crate) form: Form,
    /// Whether the exact form was sought (so that the answers under the scenarios judged
    /// with this one seek theirs too).
    pub(crate) sought: bool,
}

impl Answer {
    /// An answer judged as given (no exact form sought).
    pub(crate) fn given(allocation: Allocation) -> Answer {
        Answer {
            allocation,
            form: Form::Given,
            sought: false,
        }
    }

    /// The mechanism's answer on `instance`, with its exact form when it is approximate.
    pub(crate) fn compute(
        mechanism: &dyn Mechanism,
        instance: &Instance,
    ) -> Result<Answer, SolverError> {
        let allocation = mechanism.allocate(instance)?;
        Ok(Answer::of(mechanism, instance, allocation))
    }

    /// `allocation`, the mechanism's answer on `instance`, with its exact form when it is
    /// approximate and the mechanism gives one that lies within its error.
    pub(crate) fn of(
        mechanism: &dyn Mechanism,
        instance: &Instance,
        allocation: Allocation,
    ) -> Answer {
        if allocation.tolerance.as_ref().is_none_or(Rational::is_zero) {
            return Answer {
                sought: true,
                ..Answer::given(allocation)
            };
        }
        let form = match mechanism.algebraic_tasks(instance) {
            None => Form::Given,
            Some(Err(e)) => Form::Refused(e.to_string()),
            Some(Ok(tasks)) => match consistent(&allocation, &tasks) {
                Ok(()) => Form::Algebraic(tasks),
                Err(reason) => Form::Refused(reason),
            },
        };
        Answer {
            allocation,
            form,
            sought: true,
        }
    }

    /// The exact task counts, when known.
    pub(crate) fn algebraic(&self) -> Option<&[RealAlgebraic]> {
        match &self.form {
            Form::Algebraic(tasks) => Some(tasks),
            _ => None,
        }
    }

    /// Whether every task count is known exactly (no tolerance, or the algebraic form).
    pub(crate) fn is_exact(&self) -> bool {
        self.algebraic().is_some()
            || self
                .allocation
                .tolerance
                .as_ref()
                .is_none_or(Rational::is_zero)
    }

    /// User `i`'s task count as an exact number, when known.
    pub(crate) fn exact_task(&self, i: usize) -> Option<ExactNumber> {
        match &self.form {
            Form::Algebraic(tasks) => exact_number(&tasks[i]),
            _ if self.is_exact() => Some(ExactNumber::Rational(self.allocation.tasks[i].clone())),
            _ => None,
        }
    }

    /// Every task count as an exact number, when the answer has its algebraic form.
    pub(crate) fn exact_tasks(&self) -> Option<Vec<Option<ExactNumber>>> {
        self.algebraic()?;
        Some(
            (0..self.allocation.tasks.len())
                .map(|i| self.exact_task(i))
                .collect(),
        )
    }
}

/// The exact values of a witness's figures, by their JSON keys, when some answer the
/// witness rests on was decided on its exact algebraic form (only the figures that came out
/// irrational or from such an answer; the others are exact as the witness holds them). The
/// witness's JSON writes these in place of the computed rationals, in the serde form of
/// [`ExactNumber`] (`"p/q"`, or the algebraic document with its decimal and closed form).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExactFigures {
    figures: Vec<(&'static str, ExactFigure)>,
}

// `ExactNumber`'s equality is structural (a minimal polynomial with an isolating interval,
// or a rational), hence reflexive.
impl Eq for ExactFigures {}

/// One figure of [`ExactFigures`].
#[derive(Debug, Clone, PartialEq)]
pub enum ExactFigure {
    /// A single number (`"before"`, `"after"`, ...).
    One(ExactNumber),
    /// One number per user, `None` where the user has none (`"tasks_after"` of a leaver).
    PerUser(Vec<Option<ExactNumber>>),
}

impl ExactFigures {
    /// The single figure under `key`.
    pub fn one(&self, key: &str) -> Option<&ExactNumber> {
        self.figures.iter().find_map(|(k, f)| match f {
            ExactFigure::One(x) if *k == key => Some(x),
            _ => None,
        })
    }

    /// User `i`'s entry of the per-user figure under `key`.
    pub fn user(&self, key: &str, i: usize) -> Option<&ExactNumber> {
        self.figures.iter().find_map(|(k, f)| match f {
            ExactFigure::PerUser(xs) if *k == key => xs.get(i).and_then(Option::as_ref),
            _ => None,
        })
    }

    /// Adds a single figure, when known.
    pub(crate) fn with(mut self, key: &'static str, x: Option<ExactNumber>) -> Self {
        if let Some(x) = x {
            self.figures.push((key, ExactFigure::One(x)));
        }
        self
    }

    /// Adds a per-user figure, when known.
    pub(crate) fn with_users(
        mut self,
        key: &'static str,
        xs: Option<Vec<Option<ExactNumber>>>,
    ) -> Self {
        if let Some(xs) = xs {
            self.figures.push((key, ExactFigure::PerUser(xs)));
        }
        self
    }

    /// `None` when no figure was added.
    pub(crate) fn into_option(self) -> Option<Self> {
        (!self.figures.is_empty()).then_some(self)
    }
}

/// A real algebraic number as a printable exact number (`None` when its decimal cannot be
/// settled within the kernel's limits; the computed figure is printed then).
pub(crate) fn exact_number(x: &RealAlgebraic) -> Option<ExactNumber> {
    ExactNumber::from_real(x.clone(), &limits()).ok()
}

/// Checks that the exact task counts lie within the error the rational answer admits.
fn consistent(x: &Allocation, tasks: &[RealAlgebraic]) -> Result<(), String> {
    if tasks.len() != x.tasks.len() {
        return Err(format!(
            "the exact form has {} task counts for {} users",
            tasks.len(),
            x.tasks.len()
        ));
    }
    for (i, (t, exact)) in x.tasks.iter().zip(tasks).enumerate() {
        let Some(e) = x.error_bound(i) else {
            // No bound on the error: nothing to check against.
            continue;
        };
        let (lo, hi) = ((t - &e).to_big(), (t + &e).to_big());
        if exact.cmp_rational(&lo) == Ordering::Less || exact.cmp_rational(&hi) == Ordering::Greater
        {
            return Err(format!(
                "user {i}'s exact task count lies outside the error bound of the numeric answer"
            ));
        }
    }
    Ok(())
}

/// `Σ_k c_k x_k` exactly (see the [module docs](self)): rational terms summed as rationals,
/// each irrational `x_k` scaled by a Möbius map, and two irrational numbers added by
/// [`add`] (a resultant, docs/algebraic.md §11).
///
/// # Errors
/// The kernel's limits (degree, factoring, refinement).
pub(crate) fn exact_sum(
    terms: &[(Rational, &RealAlgebraic)],
    limits: &Limits,
) -> Result<RealAlgebraic, AlgebraicError> {
    let mut rational = BigRational::zero();
    let mut sum: Option<RealAlgebraic> = None;
    for (c, x) in terms {
        if c.is_zero() {
            continue;
        }
        let c = c.to_big();
        if let Some(r) = x.as_rational() {
            rational += &c * r;
            continue;
        }
        let (zero, one) = (BigRational::zero(), BigRational::one());
        let scaled = x.mobius([&c, &zero, &zero, &one], limits)?;
        sum = Some(match sum {
            None => scaled,
            Some(s) => add(&s, &scaled, limits)?,
        });
    }
    match sum {
        None => Ok(RealAlgebraic::from_rational(rational)),
        Some(s) => {
            let (zero, one) = (BigRational::zero(), BigRational::one());
            s.mobius([&one, &rational, &zero, &one], limits)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebraic::Poly;

    fn root(coeffs: &[i64], which: usize) -> RealAlgebraic {
        RealAlgebraic::roots(&Poly::from_i64s(coeffs), &limits()).unwrap()[which].clone()
    }

    // √2 + (1 − √2) = 1 (rational, degree 1); √2 + √3 has minimal polynomial
    // x⁴ − 10x² + 1 ((x² − 5)² = 24) and lies between 3.14 and 3.15; 2·√2 − √8 = 0.
    #[test]
    fn sums_are_exact() {
        let sqrt2 = root(&[-2, 0, 1], 1);
        let one_minus_sqrt2 = root(&[-1, -2, 1], 0); // (x − 1)² = 2, the smaller root
        let one = exact_sum(
            &[(1.into(), &sqrt2), (1.into(), &one_minus_sqrt2)],
            &limits(),
        )
        .unwrap();
        assert_eq!(one.as_rational(), Some(&BigRational::one()));
        let sqrt3 = root(&[-3, 0, 1], 1);
        let s = exact_sum(&[(1.into(), &sqrt2), (1.into(), &sqrt3)], &limits()).unwrap();
        assert_eq!(s.min_poly(), &Poly::from_i64s(&[1, 0, -10, 0, 1]));
        let r = |t: &str| t.parse::<Rational>().unwrap().to_big();
        assert_eq!(s.cmp_rational(&r("314/100")), Ordering::Greater);
        assert_eq!(s.cmp_rational(&r("315/100")), Ordering::Less);
        let sqrt8 = root(&[-8, 0, 1], 1);
        let zero = exact_sum(&[(2.into(), &sqrt2), ((-1).into(), &sqrt8)], &limits()).unwrap();
        assert_eq!(zero.as_rational(), Some(&BigRational::zero()));
        // A rational term is added exactly: √2 + 1/2.
        let half = RealAlgebraic::from_rational(r("1/2"));
        let t = exact_sum(&[(1.into(), &sqrt2), (1.into(), &half)], &limits()).unwrap();
        assert_eq!(t.cmp_rational(&r("1914/1000")), Ordering::Greater);
        assert_eq!(t.cmp_rational(&r("1915/1000")), Ordering::Less);
    }
}
