//! The exact Eisenberg–Gale KKT check in a number field Q(α) ([`check_kkt`]).
//!
//! Equalities are exact: an element of Q(α) is a polynomial in α of degree below
//! `[Q(α) : Q]`, reduced modulo the minimal polynomial, so two elements are equal exactly
//! when their coefficients are. Signs come from α's isolating interval: a nonzero element
//! `r(α)` (with `deg r ≥ 1`, so α is irrational) is not zero, and an interval enclosure of
//! `r` over α's interval (Horner's scheme in interval arithmetic) excludes 0 once the
//! interval is narrow enough; the interval is narrowed by the kernel's refinement.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::AlgebraicEquilibrium;
use crate::algebraic::{FieldElement, Limits, NumberField, RealAlgebraic};
use crate::ceei::KktViolation;
use crate::Instance;

/// Rounds of refinement (each narrows α's interval by a factor of at least 2^32) before a
/// sign is declared undecided.
const SIGN_ROUNDS: u32 = 64;

/// Checks exactly that an algebraic equilibrium satisfies the KKT conditions of the
/// Eisenberg–Gale program `max Σ_i w_i log x_i` s.t. `Σ_i x_i d_i ≤ c`, `0 ≤ x_i ≤ T_i`:
/// - dual feasibility: every price `p_j ≥ 0`;
/// - primal feasibility: `0 ≤ x_i ≤ T_i` and `Σ_i x_i d_ij ≤ c_j`;
/// - complementary slackness: `p_j > 0` ⇒ `Σ_i x_i d_ij = c_j`;
/// - stationarity: a user below its cap has `x_i (p · d_i) = w_i`, i.e.
///   `w_i / x_i = p · d_i`; a user at its cap has `w_i ≥ T_i (p · d_i)`, i.e. the cap's
///   multiplier `μ_i = w_i / T_i − p · d_i` is nonnegative.
///
/// An uncapped user facing `p · d_i = 0` fails stationarity (`x_i · 0 = 0 ≠ w_i`), and such
/// a user cannot occur at an optimum: the program has one (every user demands some
/// resource, so the feasible set is compact, and small positive tasks give a finite
/// objective), Slater's condition holds (small positive tasks are strictly feasible), so
/// KKT multipliers exist there, and stationarity in `x_i` below the cap reads
/// `w_i / x_i = p · d_i`, whose left side is positive. A capped user may face
/// `p · d_i = 0`; its multiplier is then `w_i / T_i > 0`.
///
/// The conditions are sufficient for the concave program, so `Ok(())` proves the tasks
/// optimal and the prices an equilibrium price vector. The first failure is returned, in
/// the order of [`KktViolation`]'s variants.
///
/// # Errors
/// The [`KktViolation`] met first; [`KktViolation::SignUndecided`] if a sign could not be
/// settled within the refinement limit (not met in practice: a nonzero element is
/// separated from 0 after finitely many refinements).
///
/// # Example
/// ```
/// use leontief_solver::algebraic::Limits;
/// use leontief_solver::ceei::algebraic::{check_kkt, solve_exact};
/// use leontief_solver::{Instance, User};
/// let inst = Instance::new(vec![1.into(), 1.into()], vec![User::new("a", [1, 0]),
///     User::new("b", [0, 1]), User::new("c", [1, 2])]).unwrap();
/// let eq = solve_exact(&inst, &Limits::default()).unwrap();
/// assert_eq!(check_kkt(&inst, &eq), Ok(()));
/// assert_eq!(eq.task_values[2].closed_form().unwrap(), "(3 - sqrt(3))/6");
/// ```
pub fn check_kkt(inst: &Instance, eq: &AlgebraicEquilibrium) -> Result<(), KktViolation> {
    check(inst, &eq.field, &eq.prices, &eq.tasks)
}

/// [`check_kkt`] on the field elements alone.
pub(super) fn check(
    inst: &Instance,
    field: &NumberField,
    prices: &[FieldElement],
    tasks: &[FieldElement],
) -> Result<(), KktViolation> {
    crate::ceei::certify::check_shape(inst, tasks.len(), prices.len())?;
    let m = inst.num_resources();
    let mut signs = Signs::new(field);
    let mut price_sign = Vec::with_capacity(m);
    for (resource, p) in prices.iter().enumerate() {
        let s = signs.sign(p, "prices", resource)?;
        if s < 0 {
            return Err(KktViolation::NegativePrice { resource });
        }
        price_sign.push(s);
    }
    for (user, x) in tasks.iter().enumerate() {
        if signs.sign(x, "tasks", user)? < 0 {
            return Err(KktViolation::NegativeTasks { user });
        }
    }
    let rat = |r: &crate::Rational| field.rational(r.to_big());
    for (user, (u, x)) in inst.users().iter().zip(tasks).enumerate() {
        if let Some(t) = &u.cap
            && signs.sign(&field.sub(&rat(t), x), "tasks", user)? < 0
        {
            return Err(KktViolation::AboveCap { user });
        }
    }
    let mut slack = Vec::with_capacity(m);
    for (resource, c) in inst.capacity().iter().enumerate() {
        let terms: Vec<(BigRational, &FieldElement)> = inst
            .users()
            .iter()
            .zip(tasks)
            .map(|(u, x)| (u.demand[resource].to_big(), x))
            .collect();
        let used = field.linear_combination(&terms);
        let left = field.sub(&rat(c), &used);
        if signs.sign(&left, "resources", resource)? < 0 {
            return Err(KktViolation::OverCapacity { resource });
        }
        slack.push(left);
    }
    for (resource, left) in slack.iter().enumerate() {
        if price_sign[resource] > 0 && !left.is_zero() {
            return Err(KktViolation::Slack { resource });
        }
    }
    for (user, (u, x)) in inst.users().iter().zip(tasks).enumerate() {
        let cost = u
            .demand
            .iter()
            .zip(prices)
            .filter(|(d, _)| !d.is_zero())
            .fold(field.rational(BigRational::zero()), |acc, (d, p)| {
                field.add(&acc, &field.mul(&rat(d), p))
            });
        let w = rat(&u.weight);
        match &u.cap {
            Some(t) if *x == rat(t) => {
                let multiplier = field.sub(&w, &field.mul(&rat(t), &cost));
                if signs.sign(&multiplier, "tasks", user)? < 0 {
                    return Err(KktViolation::CapStationarity { user });
                }
            }
            _ => {
                if !field.product_is(x, &cost, &w) {
                    return Err(KktViolation::Stationarity { user });
                }
            }
        }
    }
    Ok(())
}

/// Signs of elements of one field, refining the generator's interval as needed (kept
/// between calls, so later signs start from the narrowest interval met so far).
struct Signs {
    alpha: RealAlgebraic,
    limits: Limits,
}

impl Signs {
    fn new(field: &NumberField) -> Signs {
        Signs {
            alpha: field.generating_number().clone(),
            limits: Limits::default(),
        }
    }

    fn sign(
        &mut self,
        a: &FieldElement,
        quantity: &'static str,
        index: usize,
    ) -> Result<i32, KktViolation> {
        let (num, _) = a.integral();
        if num.len() <= 1 {
            return Ok(num.first().map_or(0, |c| match c.sign() {
                num_bigint::Sign::Plus => 1,
                num_bigint::Sign::Minus => -1,
                num_bigint::Sign::NoSign => 0,
            }));
        }
        for _ in 0..SIGN_ROUNDS {
            let (lo, hi) = self.alpha.interval();
            let (elo, ehi) = interval_horner(num, lo, hi);
            if elo.is_positive() {
                return Ok(1);
            }
            if ehi.is_negative() {
                return Ok(-1);
            }
            let width = (hi - lo) / BigRational::from_integer((1u64 << 32).into());
            if self.alpha.refine(&width, &self.limits).is_err() {
                break;
            }
        }
        Err(KktViolation::SignUndecided { quantity, index })
    }
}

/// An enclosure of `{q^n R(x) : x ∈ [lo, hi]}` for an element `R / D` (`R` integral,
/// `D > 0`), where `q` is the common denominator of `lo` and `hi`: Horner's scheme in
/// interval arithmetic on integers, `[l, h] ← [l, h] · [q lo, q hi] + R_k q^(n−k)`, which
/// has the sign of the element over the interval and needs no rational normalisation.
fn interval_horner(
    ints: &[BigInt],
    lo: &BigRational,
    hi: &BigRational,
) -> (BigRational, BigRational) {
    let q = crate::algebraic::integer::lcm(lo.denom(), hi.denom());
    let a = lo.numer() * (&q / lo.denom());
    let b = hi.numer() * (&q / hi.denom());
    let n = ints.len() - 1;
    let mut q_pow = BigInt::one();
    let mut l = ints[n].clone();
    let mut h = ints[n].clone();
    for k in (0..n).rev() {
        q_pow *= &q;
        let ps = [&l * &a, &l * &b, &h * &a, &h * &b];
        let add = &ints[k] * &q_pow;
        l = ps.iter().min().cloned().unwrap_or_default() + &add;
        h = ps.iter().max().cloned().unwrap_or_default() + &add;
    }
    (BigRational::from_integer(l), BigRational::from_integer(h))
}
