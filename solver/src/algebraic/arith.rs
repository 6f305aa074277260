//! Arithmetic of two real algebraic numbers from different fields: `α + β`, `α − β`, `α β`,
//! `α / β` for [`RealAlgebraic`] `α`, `β` with minimal polynomials `p` (degree `m`) and `q`
//! (degree `n`).
//!
//! Inside one number field Q(α) the arithmetic of [`NumberField`](super::NumberField) is
//! cheaper; here the operands need not share a field (two task counts of two CEEI
//! equilibria, for instance). The result's minimal polynomial divides a resultant:
//!
//! - **Sum.** `γ = α + β` is a root of `Res_y(q(y), p(x − y))`: at `x = γ` the two
//!   polynomials in `y` share the root `y = β`. Its degree in `x` is `m n`.
//! - **Product.** `γ = α β` (`β ≠ 0`) is a root of `Res_y(q(y), y^m p(x / y))`: at `x = γ`
//!   both vanish at `y = β`.
//! - **Difference and quotient** through the negation `−β` and the reciprocal `1/β`, which are
//!   Möbius images of `β` ([`RealAlgebraic::mobius`]: the polynomial `q(−x)`, resp. the
//!   reversed `x^n q(1/x)`, no factoring).
//!
//! The resultant is factored (bounded by [`Limits::subset_budget`]) and its real roots are
//! isolated; the result is the one root whose isolating interval meets the interval enclosure
//! of `α ∘ β` over the operands' intervals. Operands and the competing roots are refined in
//! turn (each interval halved) until exactly one root meets the enclosure, which happens
//! because the enclosure shrinks to `γ` and the other roots differ from it. A rational
//! operand short-cuts to a Möbius image of the other one (no resultant).
//!
//! # Complexity
//! `m n + 1` univariate resultants of degrees `n` and `m` ([`resultant_in_y`]), one factoring
//! and one isolation at degree `m n`, and a refinement loop bounded by
//! [`Limits::max_refine_steps`]. Refused up front when `m n` exceeds
//! [`Limits::max_degree`] ([`AlgebraicError::DegreeLimit`]).
//!
//! # References
//! - H. Cohen, *A Course in Computational Algebraic Number Theory*, §3.3 (resultants) and
//!   §4.1 (the minimal polynomial of a sum and a product).
//! - B. Mishra, *Algorithmic Algebra*, Springer 1993, §8.5 (arithmetic of real algebraic
//!   numbers by resultants and isolating intervals).
//!
//! # Example
//! `√2 + √3` has the minimal polynomial `x⁴ − 10x² + 1`.
//! ```
//! use leontief_solver::algebraic::{arith, Limits, Poly, RealAlgebraic};
//! let lim = Limits::default();
//! let sqrt = |d: i64| RealAlgebraic::roots(&Poly::from_i64s(&[-d, 0, 1]), &lim).unwrap()[1].clone();
//! let s = arith::add(&sqrt(2), &sqrt(3), &lim).unwrap();
//! assert_eq!(s.min_poly(), &Poly::from_i64s(&[1, 0, -10, 0, 1]));
//! assert_eq!(s.to_decimal(6, &lim).unwrap(), "3.146264");
//! ```

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::bivariate::resultant_in_y;
use super::number::RealAlgebraic;
use super::poly::Poly;
use super::{AlgebraicError, Limits};

/// Which operation: the resultant and the interval enclosure differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Add,
    Mul,
}

fn rational(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

/// `−a`.
///
/// # Errors
/// [`AlgebraicError::RefinementLimit`] (not met: the map has no pole).
pub fn neg(a: &RealAlgebraic, limits: &Limits) -> Result<RealAlgebraic, AlgebraicError> {
    a.mobius(
        [&rational(-1), &rational(0), &rational(0), &rational(1)],
        limits,
    )
}

/// `1 / a`.
///
/// # Errors
/// [`AlgebraicError::DivisionByZero`] when `a = 0`; [`AlgebraicError::RefinementLimit`].
pub fn recip(a: &RealAlgebraic, limits: &Limits) -> Result<RealAlgebraic, AlgebraicError> {
    a.mobius(
        [&rational(0), &rational(1), &rational(1), &rational(0)],
        limits,
    )
}

/// `r · a` for a rational `r` (0 when `r = 0`).
///
/// # Errors
/// [`AlgebraicError::RefinementLimit`] (not met: the map has no pole).
pub fn scale(
    a: &RealAlgebraic,
    r: &BigRational,
    limits: &Limits,
) -> Result<RealAlgebraic, AlgebraicError> {
    if r.is_zero() {
        return Ok(RealAlgebraic::from_rational(BigRational::zero()));
    }
    a.mobius([r, &rational(0), &rational(0), &rational(1)], limits)
}

/// `a + b`.
///
/// # Errors
/// [`AlgebraicError::DegreeLimit`] when `deg a · deg b` exceeds `limits.max_degree`, and the
/// errors of factoring, isolation and refinement under `limits`.
pub fn add(
    a: &RealAlgebraic,
    b: &RealAlgebraic,
    limits: &Limits,
) -> Result<RealAlgebraic, AlgebraicError> {
    let one = rational(1);
    if let Some(r) = a.as_rational() {
        return b.mobius([&one, r, &rational(0), &one], limits);
    }
    if let Some(r) = b.as_rational() {
        return a.mobius([&one, r, &rational(0), &one], limits);
    }
    combine(a, b, Op::Add, limits)
}

/// `a − b`.
///
/// # Errors
/// As [`add`].
pub fn sub(
    a: &RealAlgebraic,
    b: &RealAlgebraic,
    limits: &Limits,
) -> Result<RealAlgebraic, AlgebraicError> {
    add(a, &neg(b, limits)?, limits)
}

/// `a · b`.
///
/// # Errors
/// As [`add`].
pub fn mul(
    a: &RealAlgebraic,
    b: &RealAlgebraic,
    limits: &Limits,
) -> Result<RealAlgebraic, AlgebraicError> {
    if let Some(r) = a.as_rational() {
        return scale(b, r, limits);
    }
    if let Some(r) = b.as_rational() {
        return scale(a, r, limits);
    }
    combine(a, b, Op::Mul, limits)
}

/// `a / b`.
///
/// # Errors
/// [`AlgebraicError::DivisionByZero`] when `b = 0`; otherwise as [`add`].
pub fn div(
    a: &RealAlgebraic,
    b: &RealAlgebraic,
    limits: &Limits,
) -> Result<RealAlgebraic, AlgebraicError> {
    if let Some(r) = b.as_rational() {
        if r.is_zero() {
            return Err(AlgebraicError::DivisionByZero);
        }
        // a / r = (1 · a + 0) / (0 · a + r).
        return a.mobius([&rational(1), &rational(0), &rational(0), r], limits);
    }
    if let Some(r) = a.as_rational() {
        if r.is_zero() {
            return Ok(RealAlgebraic::from_rational(BigRational::zero()));
        }
        // r / b = (0 · b + r) / (1 · b + 0).
        return b.mobius([&rational(0), r, &rational(1), &rational(0)], limits);
    }
    mul(a, &recip(b, limits)?, limits)
}

/// `p(x − y)` (for the sum) or `y^m p(x / y)` (for the product) as a polynomial in `y` whose
/// coefficients are polynomials in `x`, `y^0` first.
fn shifted(p: &Poly, op: Op) -> Vec<Poly> {
    let m = p.degree().unwrap_or(0);
    let mut out = vec![Poly::zero(); m + 1];
    match op {
        Op::Add => {
            // (x − y)^i = Σ_k C(i, k) x^(i − k) (−y)^k.
            for (i, c) in p.coeffs().iter().enumerate() {
                let mut binom = BigInt::one();
                for (k, slot) in out.iter_mut().enumerate().take(i + 1) {
                    let sign = if k % 2 == 0 { 1 } else { -1 };
                    let mut coeffs = vec![BigInt::zero(); i - k + 1];
                    coeffs[i - k] = c * &binom * BigInt::from(sign);
                    *slot = slot.add(&Poly::new(coeffs));
                    // C(i, k + 1) = C(i, k) (i − k) / (k + 1), exact.
                    binom = binom * BigInt::from(i - k) / BigInt::from(k + 1);
                }
            }
        }
        Op::Mul => {
            // Σ_i p_i x^i y^(m − i): the coefficient of y^k is p_(m−k) x^(m−k).
            for (i, c) in p.coeffs().iter().enumerate() {
                let mut coeffs = vec![BigInt::zero(); i + 1];
                coeffs[i] = c.clone();
                out[m - i] = Poly::new(coeffs);
            }
        }
    }
    out
}

/// An enclosure of `a ∘ b` over the closed intervals of the operands.
fn enclosure(a: &RealAlgebraic, b: &RealAlgebraic, op: Op) -> (BigRational, BigRational) {
    let (alo, ahi) = a.interval();
    let (blo, bhi) = b.interval();
    match op {
        Op::Add => (alo + blo, ahi + bhi),
        Op::Mul => {
            let ps = [alo * blo, alo * bhi, ahi * blo, ahi * bhi];
            let lo = ps.iter().min().cloned().unwrap_or_default();
            let hi = ps.iter().max().cloned().unwrap_or_default();
            (lo, hi)
        }
    }
}

/// Narrows `x`'s interval to half its width (nothing for a rational).
fn halve(x: &mut RealAlgebraic, limits: &Limits) -> Result<(), AlgebraicError> {
    let (lo, hi) = x.interval();
    let half = (hi - lo) / rational(2);
    x.refine(&half, limits)
}

/// `a ∘ b` of two irrational numbers, by the resultant (see the [module docs](self)).
fn combine(
    a: &RealAlgebraic,
    b: &RealAlgebraic,
    op: Op,
    limits: &Limits,
) -> Result<RealAlgebraic, AlgebraicError> {
    let degree = a.degree() * b.degree();
    if degree > limits.max_degree {
        return Err(AlgebraicError::DegreeLimit {
            degree,
            limit: limits.max_degree,
        });
    }
    let q: Vec<Poly> = b
        .min_poly()
        .coeffs()
        .iter()
        .map(|c| Poly::constant(c.clone()))
        .collect();
    let resultant = resultant_in_y(&q, &shifted(a.min_poly(), op), limits)?;
    let mut candidates = RealAlgebraic::roots(&resultant, limits)?;
    let (mut a, mut b) = (a.clone(), b.clone());
    for _ in 0..limits.max_refine_steps {
        let (lo, hi) = enclosure(&a, &b, op);
        let meets: Vec<usize> = (0..candidates.len())
            .filter(|&i| {
                let (clo, chi) = candidates[i].interval();
                clo <= &hi && &lo <= chi
            })
            .collect();
        if let [only] = meets[..] {
            return Ok(candidates.swap_remove(only));
        }
        // No candidate cannot happen (γ is a root of the resultant); several shrink apart.
        halve(&mut a, limits)?;
        halve(&mut b, limits)?;
        for &i in &meets {
            halve(&mut candidates[i], limits)?;
        }
    }
    Err(AlgebraicError::RefinementLimit {
        steps: limits.max_refine_steps,
    })
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use super::*;

    fn lim() -> Limits {
        Limits::default()
    }

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// The positive root of `x² − d`.
    fn sqrt(d: i64) -> RealAlgebraic {
        RealAlgebraic::roots(&Poly::from_i64s(&[-d, 0, 1]), &lim()).unwrap()[1].clone()
    }

    /// √2 · √3 = √6: the minimal polynomial x² − 6 (the resultant is (x² − 6)², squarefree
    /// part x² − 6, whose positive root is the product of the two positive factors).
    #[test]
    fn sqrt2_times_sqrt3_is_sqrt6() {
        let p = mul(&sqrt(2), &sqrt(3), &lim()).unwrap();
        assert_eq!(p.min_poly(), &Poly::from_i64s(&[-6, 0, 1]));
        assert_eq!(p.try_cmp(&sqrt(6), &lim()), Ok(Ordering::Equal));
        // The negative root −√6 is the product with −√3.
        let n = mul(&sqrt(2), &neg(&sqrt(3), &lim()).unwrap(), &lim()).unwrap();
        assert_eq!(n.cmp_rational(&q(-2, 1)), Ordering::Less);
        assert_eq!(n.cmp_rational(&q(-3, 1)), Ordering::Greater);
    }

    /// √2 + √3: (x − √2)² = 3 gives x² − 2√2 x − 1 = 0, so (x² − 1)² = 8x², i.e.
    /// x⁴ − 10x² + 1, irreducible (its roots ±√2 ± √3 are of degree 4). 3.14626 < √2 + √3 <
    /// 3.14627 (1.41421356 + 1.73205081 = 3.14626437).
    #[test]
    fn sqrt2_plus_sqrt3() {
        let s = add(&sqrt(2), &sqrt(3), &lim()).unwrap();
        assert_eq!(s.min_poly(), &Poly::from_i64s(&[1, 0, -10, 0, 1]));
        assert_eq!(s.cmp_rational(&q(314626, 100000)), Ordering::Greater);
        assert_eq!(s.cmp_rational(&q(314627, 100000)), Ordering::Less);
        // √3 − √2 ≈ 0.31784 is a root of the same polynomial (the conjugate).
        let d = sub(&sqrt(3), &sqrt(2), &lim()).unwrap();
        assert_eq!(d.min_poly(), &Poly::from_i64s(&[1, 0, -10, 0, 1]));
        assert_eq!(d.cmp_rational(&q(31783, 100000)), Ordering::Greater);
        assert_eq!(d.cmp_rational(&q(31785, 100000)), Ordering::Less);
    }

    /// φ = (1 + √5)/2 over √5 is (1 + √5)/(2√5) = (√5 + 5)/10 = 1/2 + √5/10: with
    /// t = 1/2 + √5/10, (10t − 5)² = 5, so 100t² − 100t + 20 = 0, i.e. 5t² − 5t + 1 — a field
    /// element of Q(√5) reached from two numbers whose minimal polynomials differ
    /// (x² − x − 1 and x² − 5). Value ≈ 0.7236.
    #[test]
    fn golden_ratio_over_sqrt5() {
        let phi = RealAlgebraic::roots(&Poly::from_i64s(&[-1, -1, 1]), &lim()).unwrap()[1].clone();
        let t = div(&phi, &sqrt(5), &lim()).unwrap();
        assert_eq!(t.min_poly(), &Poly::from_i64s(&[1, -5, 5]));
        assert_eq!(t.cmp_rational(&q(7236, 10000)), Ordering::Greater);
        assert_eq!(t.cmp_rational(&q(7237, 10000)), Ordering::Less);
    }

    /// Same field, exact cancellations: √2 − √2 = 0, √2 / √2 = 1, √2 · √2 = 2 (the
    /// resultant has a rational root, which the enclosure picks).
    #[test]
    fn cancellations_are_rational() {
        let r = sqrt(2);
        assert_eq!(sub(&r, &r, &lim()).unwrap().as_rational(), Some(&q(0, 1)));
        assert_eq!(div(&r, &r, &lim()).unwrap().as_rational(), Some(&q(1, 1)));
        assert_eq!(mul(&r, &r, &lim()).unwrap().as_rational(), Some(&q(2, 1)));
    }

    /// Rational operands short-cut to Möbius images: 3/√2 = 3√2/2, a root of 2x² − 9
    /// ((2x)² = 18); √2 − 1/2 a root of (x + 1/2)² = 2, i.e. 4x² + 4x − 7; 0/√2 = 0; √2/0 is
    /// refused.
    #[test]
    fn rational_operands() {
        let three = RealAlgebraic::from_rational(q(3, 1));
        let d = div(&three, &sqrt(2), &lim()).unwrap();
        assert_eq!(d.min_poly(), &Poly::from_i64s(&[-9, 0, 2]));
        let half = RealAlgebraic::from_rational(q(1, 2));
        let s = sub(&sqrt(2), &half, &lim()).unwrap();
        assert_eq!(s.min_poly(), &Poly::from_i64s(&[-7, 4, 4]));
        assert_eq!(s.cmp_rational(&q(0, 1)), Ordering::Greater);
        let zero = RealAlgebraic::from_rational(q(0, 1));
        assert_eq!(
            div(&zero, &sqrt(2), &lim()).unwrap().as_rational(),
            Some(&q(0, 1))
        );
        assert_eq!(
            div(&sqrt(2), &zero, &lim()),
            Err(AlgebraicError::DivisionByZero)
        );
    }

    /// Degrees 3 and 3 make a resultant of degree 9: refused under a degree limit of 8, never
    /// computed.
    #[test]
    fn degree_limit_is_an_error() {
        let cbrt2 =
            RealAlgebraic::roots(&Poly::from_i64s(&[-2, 0, 0, 1]), &lim()).unwrap()[0].clone();
        let cbrt3 =
            RealAlgebraic::roots(&Poly::from_i64s(&[-3, 0, 0, 1]), &lim()).unwrap()[0].clone();
        let tight = Limits {
            max_degree: 8,
            ..Limits::default()
        };
        assert_eq!(
            mul(&cbrt2, &cbrt3, &tight),
            Err(AlgebraicError::DegreeLimit {
                degree: 9,
                limit: 8
            })
        );
        // ∛2 · ∛3 = ∛6 under the default limits: x³ − 6.
        let p = mul(&cbrt2, &cbrt3, &lim()).unwrap();
        assert_eq!(p.min_poly(), &Poly::from_i64s(&[-6, 0, 0, 1]));
    }
}
