//! CEEI's answer in exact numbers: rational when certified, else real algebraic when the
//! equilibrium can be found exactly in a number field.
//!
//! [`Ceei::solve_exact_numbers`] runs the numeric solve and its rational certification
//! ([`Ceei::solve`]); when that certifies nothing (the equilibrium is irrational), it asks
//! [`algebraic`](super::algebraic) for the equilibrium as elements of a number field `Q(α)`
//! and converts every printed figure — tasks, bundles, shares, consumption, prices — into an
//! [`ExactNumber`]. Products and sums are taken in `Q(α)` first (a product of an element of
//! `Q(α)` and a rational stays in `Q(α)`), then converted to a real algebraic number once.
//!
//! An [`ExactNumber`] serializes as the bare `"p/q"` string of a [`Rational`] or, when
//! irrational, as `{"algebraic": {"polynomial": [..], "interval": [lo, hi]}, "decimal": .., "closed_form": ..}`:
//! the minimal polynomial over Q with integer coefficients as decimal strings, lowest degree
//! first (primitive, positive leading coefficient); an isolating interval with rational ends
//! `"p/q"`; the value correctly rounded to [`DECIMAL_PLACES`] digits after the point; and,
//! for degree 2 only, the closed form `(a + b*sqrt(d))/c`.
//!
//! # Complexity
//! Bounded by the [`Limits`] given and by [`MAX_ALGEBRAIC_USERS`]: forming the clearing
//! polynomial costs `O(n²)` operations and its degree is at most `n`, so instances with
//! more users are not tried (the reason says so). A rational multiple of a task count is
//! the image of it under `t ↦ c t` (`O(n)` products for its polynomial, `c` times its
//! interval), and its decimal comes from one refinement of the task count shared by all of
//! the user's figures. A sum (consumption, utilization, the total) that is rational is seen
//! in the field's coordinates; an irrational one costs the characteristic polynomial of the
//! field's degree (`n + 1` resultants) and its squarefree part. With two positive prices
//! both resources are saturated, so consumption and utilization are rational and only the
//! total of the tasks needs that polynomial: [`Ceei::solve_exact_figures`] leaves it out
//! (for callers that do not print it) and [`ExactEquilibrium::with_total_tasks`] adds it.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use rayon::prelude::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::algebraic::{solve_exact, AlgebraicCeeiError, AlgebraicEquilibrium};
use super::{Ceei, CeeiOutcome};
use crate::algebraic::{AlgebraicError, FieldElement, Limits, NumberField, RealAlgebraic};
use crate::{Instance, Rational, SolverError};

/// The digits after the decimal point of an algebraic number's `decimal`: enough to tell
/// apart any two figures a reader compares by eye, short enough to read.
pub const DECIMAL_PLACES: u32 = 20;

/// The most users for which the exact algebraic equilibrium is tried: the clearing
/// polynomial has degree up to the number of users, and factoring it grows quickly with that
/// degree (figures in BENCHMARKS.md), so larger instances keep the numeric answer with this
/// limit as the stated reason.
pub const MAX_ALGEBRAIC_USERS: usize = 100;

/// The most users for which the algebraic step is tried when the numeric equilibrium has three
/// or more positive prices: elimination by resultant raises the degree to about `n²/3`, and
/// number-field products at that degree grow quickly.
pub const MAX_ALGEBRAIC_USERS_THREE_PRICES: usize = 6;

/// An exact number of a CEEI answer: rational, or irrational algebraic.
#[derive(Debug, Clone, PartialEq)]
pub enum ExactNumber {
    /// A rational, printed `"p/q"`.
    Rational(Rational),
    /// An irrational real algebraic number (degree at least 2).
    Algebraic(AlgebraicNumber),
}

/// An irrational real algebraic number with its decimal and closed form computed once (so
/// that printing it cannot fail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlgebraicNumber {
    value: RealAlgebraic,
    decimal: String,
    closed_form: Option<String>,
}

impl AlgebraicNumber {
    /// The number, its decimal to [`DECIMAL_PLACES`] places and (degree 2) its closed form.
    ///
    /// # Errors
    /// The refinement limit of the decimal, or a closed form whose discriminant is too large
    /// to reduce.
    fn new(value: RealAlgebraic, limits: &Limits) -> Result<AlgebraicNumber, AlgebraicError> {
        let decimal = value.to_decimal(DECIMAL_PLACES, limits)?;
        AlgebraicNumber::with_decimal(value, decimal)
    }

    /// The number with its decimal already found (by a refinement shared with other
    /// figures); the closed form for degree 2.
    ///
    /// # Errors
    /// A closed form whose discriminant is too large to reduce.
    fn with_decimal(
        value: RealAlgebraic,
        decimal: String,
    ) -> Result<AlgebraicNumber, AlgebraicError> {
        let closed_form = if value.degree() == 2 {
            Some(value.closed_form()?)
        } else {
            None
        };
        Ok(AlgebraicNumber {
            value,
            decimal,
            closed_form,
        })
    }

    /// The real algebraic number.
    pub fn value(&self) -> &RealAlgebraic {
        &self.value
    }

    /// The value correctly rounded to [`DECIMAL_PLACES`] digits after the point.
    pub fn decimal(&self) -> &str {
        &self.decimal
    }

    /// `(a + b*sqrt(d))/c` for degree 2, else `None`.
    pub fn closed_form(&self) -> Option<&str> {
        self.closed_form.as_deref()
    }
}

impl ExactNumber {
    /// A real algebraic number as an exact number: rational when its degree is 1.
    ///
    /// # Errors
    /// As [`AlgebraicNumber`]'s decimal and closed form under `limits`.
    pub fn from_real(value: RealAlgebraic, limits: &Limits) -> Result<Self, AlgebraicError> {
        match value.as_rational() {
            Some(r) => Ok(ExactNumber::Rational(Rational::from_big(r.clone()))),
            None => Ok(ExactNumber::Algebraic(AlgebraicNumber::new(value, limits)?)),
        }
    }

    /// The rational, when the number is one.
    pub fn as_rational(&self) -> Option<&Rational> {
        match self {
            ExactNumber::Rational(r) => Some(r),
            ExactNumber::Algebraic(_) => None,
        }
    }

    /// The number correctly rounded to `digits` significant digits (at least 1), in the
    /// syntax of [`Rational::to_decimal`] (a JSON number literal). An irrational number is
    /// never a tie, so its rounding needs only an interval narrow enough that both ends
    /// round alike.
    ///
    /// # Errors
    /// [`AlgebraicError::RefinementLimit`] when `limits.max_refine_steps` narrowings do not
    /// settle the digits.
    pub fn to_significant(&self, digits: u32, limits: &Limits) -> Result<String, AlgebraicError> {
        let digits = digits.max(1);
        let x = match self {
            ExactNumber::Rational(r) => return Ok(r.to_decimal(digits)),
            ExactNumber::Algebraic(a) => &a.value,
        };
        let mut x = x.clone();
        for _ in 0..limits.max_refine_steps {
            let (lo, hi) = x.interval();
            if let Some(text) = settled_significant(lo, hi, digits) {
                return Ok(text);
            }
            let width = (hi - lo) / BigRational::from_integer(1024.into());
            x.refine(&width, limits)?;
        }
        Err(AlgebraicError::RefinementLimit {
            steps: limits.max_refine_steps,
        })
    }
}

/// The common rounding of every number in `[lo, hi]` to `digits` significant digits, when
/// both ends lie on one side of 0, in one decade, and round alike (for an irrational number
/// inside, which is never a tie, that settles its rounding).
fn settled_significant(lo: &BigRational, hi: &BigRational, digits: u32) -> Option<String> {
    if lo.signum() != hi.signum() || lo.is_zero() {
        return None;
    }
    let (small, large) = if lo.is_positive() {
        (lo.clone(), hi.clone())
    } else {
        (-hi.clone(), -lo.clone())
    };
    let e = floor_log10(&small);
    if e != floor_log10(&large) {
        return None;
    }
    let unit = pow10(&BigInt::from(10), e - (i64::from(digits) - 1));
    let a = round_half_up(&(&small / &unit));
    if a != round_half_up(&(&large / &unit)) {
        return None;
    }
    let magnitude = BigRational::from_integer(a) * unit;
    let signed = if lo.is_positive() {
        magnitude
    } else {
        -magnitude
    };
    Some(Rational::from_big(signed).to_decimal(digits))
}

/// `⌊log10 x⌋` of a positive rational.
fn floor_log10(x: &BigRational) -> i64 {
    let digits = |n: &BigInt| n.abs().to_string().len() as i64;
    // 10^(d_n − 1) / 10^(d_d) < x < 10^(d_n) / 10^(d_d − 1): e is within one of d_n − d_d.
    let mut e = digits(x.numer()) - digits(x.denom());
    let ten = BigInt::from(10);
    while pow10(&ten, e) > *x {
        e -= 1;
    }
    while pow10(&ten, e + 1) <= *x {
        e += 1;
    }
    e
}

/// `10^e` as a rational (`e` of either sign).
fn pow10(ten: &BigInt, e: i64) -> BigRational {
    let p = num_traits::pow(ten.clone(), e.unsigned_abs() as usize);
    if e >= 0 {
        BigRational::from_integer(p)
    } else {
        BigRational::new(BigInt::one(), p)
    }
}

/// `⌊x + 1/2⌋` of a nonnegative rational.
fn round_half_up(x: &BigRational) -> BigInt {
    (x + BigRational::new(1.into(), 2.into()))
        .floor()
        .to_integer()
}

impl Serialize for ExactNumber {
    /// A rational as its `"p/q"` string; an irrational number as `{"algebraic": {"polynomial", "interval"}, "decimal",
    /// "closed_form"}` (see the [module docs](self)).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ExactNumber::Rational(r) => r.serialize(serializer),
            ExactNumber::Algebraic(a) => a.serialize(serializer),
        }
    }
}

impl Serialize for AlgebraicNumber {
    /// `{"algebraic": {"polynomial", "interval"}, "decimal", "closed_form"}` (the last for
    /// degree 2 only).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let polynomial: Vec<String> = self
            .value
            .min_poly()
            .coeffs()
            .iter()
            .map(BigInt::to_string)
            .collect();
        let (lo, hi) = self.value.interval();
        let interval = [
            Rational::from_big(lo.clone()).to_string(),
            Rational::from_big(hi.clone()).to_string(),
        ];
        let mut inner = serde_json::Map::new();
        inner.insert("polynomial".into(), polynomial.into());
        inner.insert("interval".into(), interval.to_vec().into());
        let mut map =
            serializer.serialize_map(Some(if self.closed_form.is_some() { 3 } else { 2 }))?;
        map.serialize_entry("algebraic", &inner)?;
        map.serialize_entry("decimal", &self.decimal)?;
        if let Some(c) = &self.closed_form {
            map.serialize_entry("closed_form", c)?;
        }
        map.end()
    }
}

/// The exact equilibrium of an instance whose CEEI is irrational, every figure of the answer
/// as an [`ExactNumber`].
///
/// `Total` is the type of [`Self::total_tasks`]: an [`ExactNumber`], or `()` for the answer
/// of [`Ceei::solve_exact_figures`], which leaves the total out (its minimal polynomial is the
/// one figure that is not a rational multiple of a Möbius image of the generator, and the
/// costliest; [`ExactEquilibrium::with_total_tasks`] adds it).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ExactEquilibrium<Total = ExactNumber> {
    /// Tasks per user.
    pub tasks: Vec<ExactNumber>,
    /// Each user's bundle, `x_i d_ij` per resource.
    pub allocation: Vec<Vec<ExactNumber>>,
    /// Dominant shares, `x_i max_j d_ij / R_j`.
    pub dominant_shares: Vec<ExactNumber>,
    /// Weighted dominant shares (the dominant share over the weight).
    pub weighted_shares: Vec<ExactNumber>,
    /// Total use of each resource.
    pub consumption: Vec<ExactNumber>,
    /// The share of each resource in use (consumption over capacity).
    pub utilization: Vec<ExactNumber>,
    /// Whether each resource is used to capacity (exactly).
    pub saturated: Vec<bool>,
    /// Prices per unit of each resource.
    pub prices: Vec<ExactNumber>,
    /// The sum of the tasks.
    pub total_tasks: Total,
    /// The users of the smallest and largest tasks, dominant share and weighted share (the
    /// first such user), in that order.
    pub extremes: Extremes,
    /// The number of distinct weighted shares.
    pub weighted_levels: usize,
    /// The prices and tasks as elements of their number field, for further exact
    /// arithmetic (a ratio of two answers' tasks, say).
    pub field: AlgebraicEquilibrium,
}

/// The users attaining the smallest and largest tasks and shares (the first in user order
/// on ties); `None` without users.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Extremes {
    /// `(min, max)` user of the tasks.
    pub tasks: Option<(usize, usize)>,
    /// `(min, max)` user of the dominant shares.
    pub dominant_share: Option<(usize, usize)>,
    /// `(min, max)` user of the weighted shares.
    pub weighted_share: Option<(usize, usize)>,
}

/// Why an irrational CEEI answer has no exact form here.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ExactCeeiError {
    /// More users than [`MAX_ALGEBRAIC_USERS`].
    #[error("users: exact algebraic CEEI is tried for at most {limit} users (the degree of the clearing polynomial), the instance has {users}")]
    TooManyUsers {
        /// The instance's users.
        users: usize,
        /// The limit.
        limit: usize,
    },
    /// The algebraic solve gave no answer.
    #[error(transparent)]
    Equilibrium(#[from] AlgebraicCeeiError),
    /// Converting a figure of the answer hit a limit of the algebraic kernel.
    #[error(transparent)]
    Number(#[from] AlgebraicError),
}

/// [`Ceei::solve`] with the exact algebraic equilibrium when certification finds no rational
/// one.
///
/// `Total` as in [`ExactEquilibrium`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ExactCeeiOutcome<Total = ExactNumber> {
    /// The numeric solve and its rational certification.
    pub outcome: CeeiOutcome,
    /// `None` when certified (the answer is rational: see [`CeeiOutcome::tasks_exact`]);
    /// else the algebraic equilibrium or why there is none.
    pub algebraic: Option<Result<ExactEquilibrium<Total>, ExactCeeiError>>,
}

impl Ceei {
    /// Solves and certifies ([`Ceei::solve`]); when no rational equilibrium is certified,
    /// finds the exact algebraic one, bounded by `limits` and [`MAX_ALGEBRAIC_USERS`] (see
    /// the [module docs](self)).
    ///
    /// # Errors
    /// As [`Ceei::solve`]; the algebraic step's failures are reported in
    /// [`ExactCeeiOutcome::algebraic`], not as errors.
    ///
    /// # Example
    /// The DRF paper's Theorem 5 instance, whose equilibrium lies in Q(√373).
    /// ```
    /// use leontief_solver::algebraic::Limits;
    /// use leontief_solver::ceei::Ceei;
    /// use leontief_solver::{Instance, User};
    /// let inst = Instance::new(vec![100.into(), 100.into()], vec![
    ///     User::new("1", [4, 1]), User::new("2", [1, 16]), User::new("3", [16, 1])]).unwrap();
    /// let out = Ceei::new().solve_exact_numbers(&inst, &Limits::default()).unwrap();
    /// assert!(!out.outcome.certified);
    /// let eq = out.algebraic.unwrap().unwrap();
    /// let serde_json::Value::Object(x) = serde_json::to_value(&eq.tasks[0]).unwrap() else {
    ///     panic!("an algebraic number is an object")
    /// };
    /// assert_eq!(x["closed_form"], "(3125 - 125*sqrt(373))/63");
    /// ```
    pub fn solve_exact_numbers(
        &self,
        inst: &Instance,
        limits: &Limits,
    ) -> Result<ExactCeeiOutcome, SolverError> {
        let solved = self.solve_exact_figures(inst, limits)?;
        let algebraic = solved.algebraic.map(|eq| Ok(eq?.with_total_tasks(limits)?));
        Ok(ExactCeeiOutcome {
            outcome: solved.outcome,
            algebraic,
        })
    }

    /// [`Ceei::solve_exact_numbers`] without the total of the tasks: every per-user figure,
    /// the consumption, utilization and prices, as exact numbers; the total is left to
    /// [`ExactEquilibrium::with_total_tasks`] for the callers that print it.
    ///
    /// # Errors
    /// As [`Ceei::solve`]; the algebraic step's failures are reported in
    /// [`ExactCeeiOutcome::algebraic`], not as errors.
    pub fn solve_exact_figures(
        &self,
        inst: &Instance,
        limits: &Limits,
    ) -> Result<ExactCeeiOutcome<()>, SolverError> {
        let outcome = self.solve(inst)?;
        let algebraic = (!outcome.certified).then(|| {
            // The budget is chosen by the numeric support (a price counts when its share of the
            // budgets is above 1e-9, as the support reading does); it only bounds the work.
            let budgets: f64 = inst.users().iter().map(|u| u.weight.to_f64_lossy()).sum();
            let priced = outcome
                .prices
                .iter()
                .zip(inst.capacity())
                .filter(|(p, c)| **p * c.to_f64_lossy() / budgets > 1e-9)
                .count();
            let limit = if priced >= 3 {
                MAX_ALGEBRAIC_USERS_THREE_PRICES
            } else {
                MAX_ALGEBRAIC_USERS
            };
            if inst.num_users() > limit {
                return Err(ExactCeeiError::TooManyUsers {
                    users: inst.num_users(),
                    limit,
                });
            }
            let eq = solve_exact(inst, limits)?;
            Ok(exact_equilibrium(inst, eq, limits)?)
        });
        Ok(ExactCeeiOutcome { outcome, algebraic })
    }
}

impl ExactEquilibrium<()> {
    /// The answer with the sum of the tasks as an exact number: rational when the field's
    /// coordinates say so, else the minimal polynomial of the sum (the squarefree part of its
    /// characteristic polynomial in the field, [`NumberField::to_real`]).
    ///
    /// # Errors
    /// A limit of the algebraic kernel on that polynomial or its root.
    pub fn with_total_tasks(self, limits: &Limits) -> Result<ExactEquilibrium, AlgebraicError> {
        let total_tasks = self.total_tasks(limits)?;
        Ok(ExactEquilibrium {
            tasks: self.tasks,
            allocation: self.allocation,
            dominant_shares: self.dominant_shares,
            weighted_shares: self.weighted_shares,
            consumption: self.consumption,
            utilization: self.utilization,
            saturated: self.saturated,
            prices: self.prices,
            total_tasks,
            extremes: self.extremes,
            weighted_levels: self.weighted_levels,
            field: self.field,
        })
    }
}

impl<Total> ExactEquilibrium<Total> {
    /// The sum of the tasks as an exact number: rational when the field's coordinates say
    /// so (at any degree), else the minimal polynomial of the sum (the squarefree part of its
    /// characteristic polynomial in the field, [`NumberField::to_real`]).
    ///
    /// # Errors
    /// A limit of the algebraic kernel on that polynomial or its root;
    /// [`AlgebraicError::DegreeLimit`] for an irrational sum in a field beyond
    /// `limits.max_degree`.
    pub fn total_tasks(&self, limits: &Limits) -> Result<ExactNumber, AlgebraicError> {
        let ones: Vec<(BigRational, &FieldElement)> = self
            .field
            .tasks
            .iter()
            .map(|x| (BigRational::one(), x))
            .collect();
        convert(
            &self.field.field,
            &self.field.field.linear_combination(&ones),
            limits,
        )
    }

    /// The total of the tasks rounded from the tasks' exact values, without its minimal
    /// polynomial: the sum of their isolating intervals, narrowed until both ends round
    /// alike — to [`DECIMAL_PLACES`] places, or to `significant` digits. For an irrational
    /// total (one [`ExactEquilibrium::total_tasks`] does not give as a rational), which is
    /// never a tie.
    ///
    /// # Errors
    /// [`AlgebraicError::RefinementLimit`] when `limits.max_refine_steps` narrowings do not
    /// settle the digits.
    pub fn total_tasks_decimal(
        &self,
        significant: Option<u32>,
        limits: &Limits,
    ) -> Result<String, AlgebraicError> {
        let mut terms = self.field.task_values.clone();
        let scale = pow10(&BigInt::from(10), i64::from(DECIMAL_PLACES));
        for _ in 0..limits.max_refine_steps {
            let lo: BigRational = terms.iter().map(|t| t.interval().0).sum();
            let hi: BigRational = terms.iter().map(|t| t.interval().1).sum();
            let settled = match significant {
                Some(digits) => settled_significant(&lo, &hi, digits.max(1)),
                None => {
                    let a = round_half_up(&(&lo * &scale));
                    (a == round_half_up(&(&hi * &scale)))
                        .then(|| crate::algebraic::number::format_fixed(&a, DECIMAL_PLACES))
                }
            };
            if let Some(text) = settled {
                return Ok(text);
            }
            for t in &mut terms {
                let (a, b) = t.interval();
                let width = (b - a) / BigRational::from_integer(1024.into());
                t.refine(&width, limits)?;
            }
        }
        Err(AlgebraicError::RefinementLimit {
            steps: limits.max_refine_steps,
        })
    }
}

/// Every figure of the answer from the equilibrium's field elements, but the total.
fn exact_equilibrium(
    inst: &Instance,
    eq: AlgebraicEquilibrium,
    limits: &Limits,
) -> Result<ExactEquilibrium<()>, AlgebraicError> {
    let k = &eq.field;
    let scaled = |x: &FieldElement, c: &Rational| k.mul(&k.rational(c.to_big()), x);
    // A rational multiple `c x_i` of a task count is the Möbius image of x_i (an O(n)
    // rescaling of its polynomial, the image of its interval); its decimal comes from one
    // refinement of x_i shared by all of the user's figures (`refined`).
    let times = |x: &RealAlgebraic,
                 refined: &mut RealAlgebraic,
                 c: &BigRational|
     -> Result<ExactNumber, AlgebraicError> {
        if let Some(r) = x.as_rational() {
            return Ok(ExactNumber::Rational(Rational::from_big(r * c)));
        }
        if c.is_zero() {
            return Ok(ExactNumber::Rational(Rational::from_big(c.clone())));
        }
        let decimal = refined.decimal_of_multiple(c, DECIMAL_PLACES, limits)?;
        let value = if c.is_one() {
            x.clone()
        } else {
            let (zero, one) = (BigRational::zero(), BigRational::one());
            x.mobius([c, &zero, &zero, &one], limits)?
        };
        Ok(ExactNumber::Algebraic(AlgebraicNumber::with_decimal(
            value, decimal,
        )?))
    };
    let m = inst.num_resources();
    // Each user's figures in parallel (one refinement of x_i shared by them), in order.
    let per_user = inst
        .users()
        .par_iter()
        .enumerate()
        .map(|(i, user)| {
            let value = &eq.task_values[i];
            let mut refined = value.clone();
            let task = times(value, &mut refined, &BigRational::one())?;
            let bundle = user
                .demand
                .iter()
                .map(|d| times(value, &mut refined, &d.to_big()))
                .collect::<Result<Vec<_>, _>>()?;
            let dominant = times(value, &mut refined, &inst.task_dominant_share(i).to_big())?;
            let share = inst.task_weighted_share(i);
            let weighted = times(value, &mut refined, &share.to_big())?;
            Ok((task, bundle, dominant, weighted))
        })
        .collect::<Result<Vec<_>, AlgebraicError>>()?;
    let mut tasks = Vec::with_capacity(per_user.len());
    let mut allocation = Vec::with_capacity(per_user.len());
    let mut dominant = Vec::with_capacity(per_user.len());
    let mut weighted = Vec::with_capacity(per_user.len());
    for (task, bundle, d, w) in per_user {
        tasks.push(task);
        allocation.push(bundle);
        dominant.push(d);
        weighted.push(w);
    }
    let uses: Vec<Vec<(BigRational, &FieldElement)>> = (0..m)
        .map(|j| {
            inst.users()
                .iter()
                .zip(&eq.tasks)
                .map(|(user, x)| (user.demand[j].to_big(), x))
                .collect()
        })
        .collect();
    let used: Vec<FieldElement> = uses.iter().map(|u| k.linear_combination(u)).collect();
    let saturated = used
        .iter()
        .zip(inst.capacity())
        .map(|(u, r)| *u == k.rational(r.to_big()))
        .collect();
    let consumption = used
        .iter()
        .map(|u| convert(k, u, limits))
        .collect::<Result<Vec<_>, _>>()?;
    let utilization = used
        .iter()
        .zip(inst.capacity())
        .map(|(u, r)| convert(k, &scaled(u, &r.recip().unwrap_or_default()), limits))
        .collect::<Result<Vec<_>, _>>()?;
    let prices = eq
        .price_values
        .iter()
        .map(|p| ExactNumber::from_real(p.clone(), limits))
        .collect::<Result<Vec<_>, _>>()?;
    let extremes = Extremes {
        tasks: extremes(&tasks, limits)?,
        dominant_share: extremes(&dominant, limits)?,
        weighted_share: extremes(&weighted, limits)?,
    };
    // Distinct weighted shares, compared as numbers (their elements of Q(α) would be
    // products to form first): most differ in their minimal polynomials at once.
    let mut levels: Vec<&ExactNumber> = Vec::new();
    for w in &weighted {
        let mut known = false;
        for level in &levels {
            if same_number(w, level, limits)? {
                known = true;
                break;
            }
        }
        if !known {
            levels.push(w);
        }
    }
    let weighted_levels = levels.len();
    Ok(ExactEquilibrium {
        tasks,
        allocation,
        dominant_shares: dominant,
        weighted_shares: weighted,
        consumption,
        utilization,
        saturated,
        prices,
        total_tasks: (),
        extremes,
        weighted_levels,
        field: eq,
    })
}

/// Whether two exact numbers are equal: rationals by value; irrational numbers when they
/// share the minimal polynomial and its root ([`RealAlgebraic::try_cmp`] decides the root
/// by a sign change on the intervals' overlap); a rational is never irrational.
fn same_number(a: &ExactNumber, b: &ExactNumber, limits: &Limits) -> Result<bool, AlgebraicError> {
    Ok(match (a, b) {
        (ExactNumber::Rational(x), ExactNumber::Rational(y)) => x == y,
        (ExactNumber::Algebraic(x), ExactNumber::Algebraic(y)) => {
            x.value.min_poly() == y.value.min_poly()
                && x.value.try_cmp(&y.value, limits)? == Ordering::Equal
        }
        _ => false,
    })
}

/// A field element as an exact number.
fn convert(
    k: &NumberField,
    x: &FieldElement,
    limits: &Limits,
) -> Result<ExactNumber, AlgebraicError> {
    ExactNumber::from_real(k.to_real(x, limits)?, limits)
}

/// The first users of the smallest and the largest value.
fn extremes(
    values: &[ExactNumber],
    limits: &Limits,
) -> Result<Option<(usize, usize)>, AlgebraicError> {
    let real = |x: &ExactNumber| match x {
        ExactNumber::Rational(r) => RealAlgebraic::from_rational(r.to_big()),
        ExactNumber::Algebraic(a) => a.value.clone(),
    };
    let reals: Vec<RealAlgebraic> = values.iter().map(real).collect();
    if reals.is_empty() {
        return Ok(None);
    }
    let (mut lo, mut hi) = (0, 0);
    for i in 1..reals.len() {
        if reals[i].try_cmp(&reals[lo], limits)? == Ordering::Less {
            lo = i;
        }
        if reals[i].try_cmp(&reals[hi], limits)? == Ordering::Greater {
            hi = i;
        }
    }
    Ok(Some((lo, hi)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::User;

    fn theorem5() -> Instance {
        Instance::new(
            vec![100.into(), 100.into()],
            vec![
                User::new("1", [4, 1]),
                User::new("2", [1, 16]),
                User::new("3", [16, 1]),
            ],
        )
        .unwrap()
    }

    fn q(s: &str) -> BigRational {
        s.parse::<Rational>().unwrap().to_big()
    }

    /// u1 = (3125 − 125√373)/63 ≈ 11.283317627: √373 ∈ (19.3132, 19.3133) since
    /// 19.3132² = 373.0 − 0.0004... : 193132² = 37299969424 < 37300000000 < 37300355689 =
    /// 193133², so u1 ∈ ((3125 − 125·19.3133)/63, (3125 − 125·19.3132)/63)
    /// = (11.28307…, 11.28327…), and 6 significant digits can only be 11.2831, 11.2832 or
    /// 11.2833; the serde form gives the polynomial, the interval and the closed form.
    #[test]
    fn theorem_5_tasks_round_and_serialize() {
        let out = Ceei::new()
            .solve_exact_numbers(&theorem5(), &Limits::default())
            .unwrap();
        let eq = out.algebraic.unwrap().unwrap();
        let u1 = &eq.tasks[0];
        let lo = (q("3125") - q("125") * q("193133/10000")) / q("63");
        let hi = (q("3125") - q("125") * q("193132/10000")) / q("63");
        let six = Rational::from_decimal_str(&u1.to_significant(6, &Limits::default()).unwrap())
            .unwrap()
            .to_big();
        assert!(lo - q("1/20000") <= six && six <= hi + q("1/20000"));
        let v = serde_json::to_value(u1).unwrap();
        assert_eq!(
            v["algebraic"]["polynomial"],
            serde_json::json!(["62500", "-6250", "63"])
        );
        assert_eq!(v["closed_form"], "(3125 - 125*sqrt(373))/63");
        // All of resource 1 and 2 is used, exactly: 4u1 + u2 + 16u3 = 100.
        assert_eq!(eq.saturated, vec![true, true]);
        assert_eq!(
            eq.consumption,
            vec![
                ExactNumber::Rational(100.into()),
                ExactNumber::Rational(100.into())
            ]
        );
    }

    /// A rational number rounds as [`Rational::to_decimal`]; 1234.5 at 2 digits is 1200, and
    /// −√2 ≈ −1.41421356 at 3 digits is −1.41 (the sign kept, both ends of the interval
    /// rounded alike).
    #[test]
    fn significant_digits_of_either_kind() {
        let limits = Limits::default();
        let r = ExactNumber::Rational("2469/2".parse().unwrap());
        assert_eq!(r.to_significant(2, &limits).unwrap(), "1200");
        let roots =
            RealAlgebraic::roots(&crate::algebraic::Poly::from_i64s(&[-2, 0, 1]), &limits).unwrap();
        let minus_sqrt2 = ExactNumber::from_real(roots[0].clone(), &limits).unwrap();
        assert_eq!(minus_sqrt2.to_significant(3, &limits).unwrap(), "-1.41");
        // 1000·√2 = 1414.21…: at 2 digits 1400, a negative place.
        let k = NumberField::new(roots[1].clone());
        let big = k.mul(&k.rational(q("1000")), &k.generator());
        let big = convert(&k, &big, &limits).unwrap();
        assert_eq!(big.to_significant(2, &limits).unwrap(), "1400");
        assert_eq!(big.to_significant(7, &limits).unwrap(), "1414.214");
    }
}
