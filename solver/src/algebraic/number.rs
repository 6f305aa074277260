//! Real algebraic numbers ([`RealAlgebraic`]); arithmetic in one number field Q(α) is in
//! [`super::field`].
//!
//! A [`RealAlgebraic`] is its minimal polynomial `m` (irreducible over Q, primitive in
//! Z\[x\], positive leading coefficient) and an open interval `(lo, hi)` with rational ends
//! holding exactly one root of `m`, the number; `m(lo)` and `m(hi)` have opposite signs. A
//! rational `a/b` has `m = b x − a` and `lo = hi = a/b`.
//!
//! - **Comparison with a rational `r`** needs no refinement: outside `(lo, hi)` the answer is
//!   plain, inside it the sign of `m(r)` against the sign of `m(lo)` says on which side of
//!   `r` the root lies (`m(r) ≠ 0`, `m` having no rational root when its degree is ≥ 2).
//! - **Comparison of two numbers**: equal minimal polynomials and a sign change of `m` over
//!   the intersection of the intervals mean the same root; otherwise the numbers differ and
//!   bisecting both intervals separates them.
//! - **Decimals**: `N` digits after the point, correctly rounded (ties, possible only for
//!   rationals, to even); an irrational number's interval is refined until both ends round
//!   to the same `N`-digit decimal, which happens because the value is never a tie point.
//!
//! # Complexity
//! A comparison with a rational: one exact evaluation. Refinement, decimals and element
//! conversion: as [`refine_root`](super::isolate::refine_root), each bounded by
//! [`Limits::max_refine_steps`]; the conversion adds `n + 1` resultants and a squarefree
//! part (certified modulo a prime in `O(n²)` word operations when it is the polynomial
//! itself). A multiple `c x` of a number costs `O(n)` products
//! ([`RealAlgebraic::mobius`] with `b = c = 0`), and its decimal shares the refinement of
//! `x` ([`RealAlgebraic::decimal_of_multiple`]).
//!
//! # References
//! - H. Cohen, *A Course in Computational Algebraic Number Theory*, §4.1 (number fields,
//!   characteristic polynomials by resultants).
//! - J. von zur Gathen, J. Gerhard, *Modern Computer Algebra*, §6.8 (resultants and
//!   elimination).
//!
//! # Example
//! `√2` is the positive root of x² − 2, between 1.41 and 1.42.
//! ```
//! use leontief_solver::algebraic::{Limits, Poly, RealAlgebraic};
//! let lim = Limits::default();
//! let sqrt2 = RealAlgebraic::roots(&Poly::from_i64s(&[-2, 0, 1]), &lim).unwrap()[1].clone();
//! assert_eq!(sqrt2.to_decimal(2, &lim).unwrap(), "1.41");
//! ```

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::factor::factor;
use super::isolate::{isolate_real_roots, refine_root, RootInterval};
use super::poly::Poly;
use super::{AlgebraicError, Limits};

/// A real algebraic number: minimal polynomial and isolating interval.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RealAlgebraic {
    pub(super) poly: Poly,
    pub(super) lo: BigRational,
    pub(super) hi: BigRational,
}

impl RealAlgebraic {
    /// The rational `r` (degree 1).
    pub fn from_rational(r: BigRational) -> RealAlgebraic {
        let poly = Poly::new(vec![-r.numer().clone(), r.denom().clone()]);
        RealAlgebraic {
            poly,
            lo: r.clone(),
            hi: r,
        }
    }

    /// The real roots of a nonzero polynomial, distinct, in increasing order.
    ///
    /// # Errors
    /// [`AlgebraicError::ZeroPolynomial`] and the errors of [`factor`] and
    /// [`isolate_real_roots`] under `limits`.
    pub fn roots(f: &Poly, limits: &Limits) -> Result<Vec<RealAlgebraic>, AlgebraicError> {
        let fac = factor(f, limits)?;
        let mut out: Vec<RealAlgebraic> = Vec::new();
        for (g, _) in &fac.factors {
            if g.degree() == Some(1) {
                out.push(RealAlgebraic::from_rational(BigRational::new(
                    -g.coeff(0),
                    g.coeff(1),
                )));
                continue;
            }
            for r in isolate_real_roots(g, limits)? {
                if let RootInterval::Open { lo, hi } = r {
                    out.push(RealAlgebraic {
                        poly: g.clone(),
                        lo,
                        hi,
                    });
                }
            }
        }
        // Insertion sort: the comparison is fallible (bounded refinement).
        let mut sorted: Vec<RealAlgebraic> = Vec::with_capacity(out.len());
        for x in out {
            let mut at = sorted.len();
            while at > 0 && x.try_cmp(&sorted[at - 1], limits)? == Ordering::Less {
                at -= 1;
            }
            sorted.insert(at, x);
        }
        Ok(sorted)
    }

    /// The root of `f` in a window of relative width about `2^−30` around `target`, when
    /// Descartes' rule certifies it is the only root of `f` there: the window is
    /// `(L/2^k, (L + 2)/2^k)` with `L = ⌊target · 2^k⌋ − 1`, and an irreducible factor `g` of
    /// degree `d` has exactly one root in it when `(1 + t)^d h(1/(1 + t))` has one sign
    /// variation, `h(s) = g((L + 2s)/2^k)` scaled to integers. `None` when no root or more
    /// than one is certified (then [`RealAlgebraic::roots`] is the way). This finds the root a
    /// numeric answer points to without isolating the others.
    ///
    /// # Errors
    /// The errors of [`factor`] under `limits`.
    pub fn root_near(
        f: &Poly,
        target: &BigRational,
        limits: &Limits,
    ) -> Result<Option<RealAlgebraic>, AlgebraicError> {
        if !target.is_positive() || f.degree().unwrap_or(0) == 0 {
            return Ok(None);
        }
        let k = 31 + target.denom().bits() as i64 - target.numer().bits() as i64;
        let unit = if k >= 0 {
            BigRational::from_integer(BigInt::one() << k as u64)
        } else {
            BigRational::new(BigInt::one(), BigInt::one() << (-k) as u64)
        };
        let left: BigInt = (target * &unit).floor().to_integer() - 1;
        let lo = BigRational::from_integer(left.clone()) / &unit;
        let hi = BigRational::from_integer(&left + 2) / &unit;
        let mut found = None;
        for (g, _) in &factor(f, limits)?.factors {
            let root = if g.degree() == Some(1) {
                let r = BigRational::new(-g.coeff(0), g.coeff(1));
                if r <= lo || r >= hi {
                    continue;
                }
                RealAlgebraic::from_rational(r)
            } else {
                let h = g
                    .scale_roots_pow2(k)
                    .taylor_shift(&left)
                    .scale_roots_pow2(-1);
                match h.reverse().shift_one().sign_variations() {
                    0 => continue,
                    1 => RealAlgebraic {
                        poly: g.clone(),
                        lo: lo.clone(),
                        hi: hi.clone(),
                    },
                    _ => return Ok(None),
                }
            };
            if found.replace(root).is_some() {
                return Ok(None);
            }
        }
        Ok(found)
    }

    /// The unique root of `f` in the open interval `(lo, hi)`.
    ///
    /// # Errors
    /// [`AlgebraicError::NotIsolating`] when `(lo, hi)` holds no root or several, and the
    /// errors of [`RealAlgebraic::roots`].
    pub fn root_in(
        f: &Poly,
        lo: &BigRational,
        hi: &BigRational,
        limits: &Limits,
    ) -> Result<RealAlgebraic, AlgebraicError> {
        let inside: Vec<RealAlgebraic> = RealAlgebraic::roots(f, limits)?
            .into_iter()
            .filter(|r| {
                r.cmp_rational(lo) == Ordering::Greater && r.cmp_rational(hi) == Ordering::Less
            })
            .collect();
        match <[RealAlgebraic; 1]>::try_from(inside) {
            Ok([r]) => Ok(r),
            Err(_) => Err(AlgebraicError::NotIsolating {
                poly: f.to_string(),
                lo: lo.to_string(),
                hi: hi.to_string(),
            }),
        }
    }

    /// The image `β = (a α + b) / (c α + d)` of `α = self` under a Möbius map with
    /// `a d − b c ≠ 0`, without factoring: `α = (d β − b) / (a − c β)`, so
    /// `(a − c t)^n m((d t − b)/(a − c t))` vanishes at `β`. That polynomial has degree `n`
    /// and is irreducible (Q(β) = Q(α)), so its primitive part is β's minimal polynomial. The
    /// map is monotone on any interval without its pole `−d/c`, so once α's interval excludes
    /// the pole its image isolates β (the map is a bijection between the roots of the two
    /// polynomials).
    ///
    /// # Errors
    /// [`AlgebraicError::DivisionByZero`] when `a d = b c` or when `c α + d = 0`;
    /// [`AlgebraicError::RefinementLimit`].
    pub fn mobius(
        &self,
        [a, b, c, d]: [&BigRational; 4],
        limits: &Limits,
    ) -> Result<RealAlgebraic, AlgebraicError> {
        if a * d == b * c {
            return Err(AlgebraicError::DivisionByZero);
        }
        let image = |x: &BigRational| -> Option<BigRational> {
            let den = c * x + d;
            (!den.is_zero()).then(|| (a * x + b) / den)
        };
        if let Some(x) = self.as_rational() {
            return image(x)
                .map(RealAlgebraic::from_rational)
                .ok_or(AlgebraicError::DivisionByZero);
        }
        let mut alpha = self.clone();
        if !c.is_zero() {
            let pole = -(d / c);
            let mut rounds = 0u64;
            while alpha.lo <= pole && pole <= alpha.hi {
                rounds += 1;
                if rounds > limits.max_refine_steps {
                    return Err(AlgebraicError::RefinementLimit {
                        steps: limits.max_refine_steps,
                    });
                }
                alpha.halve(limits)?;
            }
        }
        // Σ m_i (d t − b)^i (a − c t)^(n−i) by Horner's rule in the homogeneous form,
        // over Z after scaling a, b, c, d by their common denominator (which leaves the
        // map unchanged): acc ← acc · (d t − b) + m_i (a − c t)^(n−i).
        let n = alpha.degree();
        let den = [a, b, c, d].iter().fold(BigInt::one(), |acc, v| {
            crate::algebraic::integer::lcm(&acc, v.denom())
        });
        let int = |v: &BigRational| v.numer() * (&den / v.denom());
        if b.is_zero() && c.is_zero() {
            // β = (a/d) α: a^n m(d t / a) = Σ m_i d^i a^(n−i) t^i, in O(n) products.
            let (a, d) = (int(a), int(d));
            let m = alpha.poly.coeffs();
            let mut coeffs = vec![BigInt::zero(); n + 1];
            let mut a_pow = BigInt::one();
            for i in (0..=n).rev() {
                coeffs[i] = &m[i] * &a_pow;
                a_pow *= &a;
            }
            let mut d_pow = BigInt::one();
            for c in coeffs.iter_mut().skip(1) {
                d_pow *= &d;
                *c *= &d_pow;
            }
            let poly = Poly::new(coeffs).primitive_part();
            let (Some(lo), Some(hi)) = (image(&alpha.lo), image(&alpha.hi)) else {
                return Err(AlgebraicError::DivisionByZero);
            };
            let (lo, hi) = if lo < hi { (lo, hi) } else { (hi, lo) };
            return Ok(RealAlgebraic { poly, lo, hi });
        }
        let num = Poly::new(vec![-int(b), int(d)]);
        let below = Poly::new(vec![int(a), -int(c)]);
        let mut below_pows = vec![Poly::constant(BigInt::one())];
        for k in 0..n {
            below_pows.push(below_pows[k].mul(&below));
        }
        let m = alpha.poly.coeffs();
        let mut acc = Poly::constant(m[n].clone());
        for i in (0..n).rev() {
            acc = acc.mul(&num).add(&below_pows[n - i].scale(&m[i]));
        }
        let poly = acc.primitive_part();
        let (Some(lo), Some(hi)) = (image(&alpha.lo), image(&alpha.hi)) else {
            return Err(AlgebraicError::DivisionByZero);
        };
        let (lo, hi) = if lo < hi { (lo, hi) } else { (hi, lo) };
        Ok(RealAlgebraic { poly, lo, hi })
    }

    /// The minimal polynomial (primitive, positive leading coefficient).
    pub fn min_poly(&self) -> &Poly {
        &self.poly
    }

    /// The degree of the minimal polynomial.
    pub fn degree(&self) -> usize {
        self.poly.degree().unwrap_or(1)
    }

    /// The isolating interval `(lo, hi)`; `lo = hi` = the number when it is rational.
    pub fn interval(&self) -> (&BigRational, &BigRational) {
        (&self.lo, &self.hi)
    }

    /// The number as a rational when its degree is 1.
    pub fn as_rational(&self) -> Option<&BigRational> {
        (self.degree() == 1).then_some(&self.lo)
    }

    /// The number against a rational, exactly and without refinement.
    pub fn cmp_rational(&self, r: &BigRational) -> Ordering {
        if let Some(x) = self.as_rational() {
            return x.cmp(r);
        }
        if r <= &self.lo {
            return Ordering::Greater;
        }
        if r >= &self.hi {
            return Ordering::Less;
        }
        // m(r) ≠ 0: an irreducible m of degree ≥ 2 has no rational root.
        if self.poly.sign_at(r) == self.poly.sign_at(&self.lo) {
            Ordering::Greater
        } else {
            Ordering::Less
        }
    }

    /// The sign: −1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self.cmp_rational(&BigRational::zero()) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    }

    /// Narrows the interval to width at most `max_width`.
    ///
    /// # Errors
    /// [`AlgebraicError::RefinementLimit`].
    pub fn refine(
        &mut self,
        max_width: &BigRational,
        limits: &Limits,
    ) -> Result<(), AlgebraicError> {
        if self.as_rational().is_some() || &self.hi - &self.lo <= *max_width {
            return Ok(());
        }
        match refine_root(&self.poly, &self.lo, &self.hi, max_width, limits)? {
            // Not reached for an irreducible polynomial of degree ≥ 2; kept exact anyway.
            RootInterval::Exact(r) => *self = RealAlgebraic::from_rational(r),
            RootInterval::Open { lo, hi } => {
                self.lo = lo;
                self.hi = hi;
            }
        }
        Ok(())
    }

    /// Halves the interval's width (one refinement).
    pub(super) fn halve(&mut self, limits: &Limits) -> Result<(), AlgebraicError> {
        let w = (&self.hi - &self.lo) / BigRational::from_integer(2.into());
        self.refine(&w, limits)
    }

    /// The order of two real algebraic numbers.
    ///
    /// # Errors
    /// [`AlgebraicError::RefinementLimit`] when separating them needs more than
    /// `limits.max_refine_steps` halvings.
    pub fn try_cmp(
        &self,
        other: &RealAlgebraic,
        limits: &Limits,
    ) -> Result<Ordering, AlgebraicError> {
        if let Some(r) = other.as_rational() {
            return Ok(self.cmp_rational(r));
        }
        if let Some(r) = self.as_rational() {
            return Ok(other.cmp_rational(r).reverse());
        }
        if self.poly == other.poly {
            let lo = (&self.lo).max(&other.lo);
            let hi = (&self.hi).min(&other.hi);
            if lo < hi && self.poly.sign_at(lo) != self.poly.sign_at(hi) {
                // At most one root of m in the intersection (each interval holds one), and a
                // sign change shows it is there: both intervals hold the same root.
                return Ok(Ordering::Equal);
            }
        }
        let (mut a, mut b) = (self.clone(), other.clone());
        for _ in 0..limits.max_refine_steps {
            if a.hi <= b.lo {
                return Ok(Ordering::Less);
            }
            if b.hi <= a.lo {
                return Ok(Ordering::Greater);
            }
            a.halve(limits)?;
            b.halve(limits)?;
        }
        Err(AlgebraicError::RefinementLimit {
            steps: limits.max_refine_steps,
        })
    }

    /// The number with `digits` digits after the decimal point, correctly rounded (ties to
    /// even, which only a rational can meet); e.g. `"-0.333"` for −1/3 and 3 digits.
    ///
    /// # Errors
    /// [`AlgebraicError::RefinementLimit`].
    pub fn to_decimal(&self, digits: u32, limits: &Limits) -> Result<String, AlgebraicError> {
        self.clone()
            .decimal_of_multiple(&BigRational::one(), digits, limits)
    }

    /// The number `c · self` with `digits` digits after the decimal point, correctly
    /// rounded as [`RealAlgebraic::to_decimal`], narrowing `self`'s own interval (kept) until
    /// both ends of `c` times it round alike. Several multiples of one number thus share one
    /// refinement, each continuing from the narrowest interval reached so far, and no
    /// polynomial of the multiple is needed.
    ///
    /// # Errors
    /// [`AlgebraicError::RefinementLimit`].
    pub fn decimal_of_multiple(
        &mut self,
        c: &BigRational,
        digits: u32,
        limits: &Limits,
    ) -> Result<String, AlgebraicError> {
        let scale = BigRational::from_integer(num_traits::pow(BigInt::from(10), digits as usize));
        if let Some(r) = self.as_rational() {
            return Ok(format_fixed(&round_half_even(&(r * c * &scale)), digits));
        }
        if c.is_zero() {
            return Ok(format_fixed(&BigInt::zero(), digits));
        }
        let factor = c * &scale;
        // ⌊x f + 1/2⌋ = ⌊(2 u g + v h) / (2 v h)⌋ for x = u/v, f = g/h: integer products and
        // one floor division, no rational normalized (the ends' numerators grow with the
        // refinement).
        let (g, h) = (factor.numer(), factor.denom());
        let round = |x: &BigRational| {
            let den = x.denom() * h;
            (BigInt::from(2) * x.numer() * g + &den).div_floor(&(den * BigInt::from(2)))
        };
        let mut width = &self.hi - &self.lo;
        for _ in 0..limits.max_refine_steps {
            let (a, b) = (round(&self.lo), round(&self.hi));
            if a == b {
                return Ok(format_fixed(&a, digits));
            }
            width /= BigRational::from_integer(1024.into());
            self.refine(&width, limits)?;
        }
        Err(AlgebraicError::RefinementLimit {
            steps: limits.max_refine_steps,
        })
    }
}

/// `round(x)`, ties to even.
fn round_half_even(x: &BigRational) -> BigInt {
    let fl = x.floor();
    let frac = x - &fl;
    let half = BigRational::new(1.into(), 2.into());
    let f = fl.to_integer();
    match frac.cmp(&half) {
        Ordering::Less => f,
        Ordering::Greater => f + 1,
        Ordering::Equal => {
            if f.is_even() {
                f
            } else {
                f + 1
            }
        }
    }
}

/// `m / 10^digits` in fixed point.
pub(crate) fn format_fixed(m: &BigInt, digits: u32) -> String {
    let neg = m.is_negative();
    let s = m.abs().to_string();
    let d = digits as usize;
    let s = if s.len() <= d {
        format!("{}{}", "0".repeat(d + 1 - s.len()), s)
    } else {
        s
    };
    let (int, frac) = s.split_at(s.len() - d);
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(int);
    if d > 0 {
        out.push('.');
        out.push_str(frac);
    }
    out
}

pub use super::field::{FieldElement, NumberField};

#[cfg(test)]
mod tests {
    use super::*;

    /// 1/(1 + √2) = √2 − 1, root of (t + 1)² = 2, i.e. t² + 2t − 1; and (2√2 + 1)/1 is the
    /// root of (t − 1)² = 8, i.e. t² − 2t − 7, in (3, 4) (2√2 ≈ 2.83).
    #[test]
    fn mobius_images_of_sqrt_2() {
        let lim = Limits::default();
        let sqrt2 = RealAlgebraic::roots(&Poly::from_i64s(&[-2, 0, 1]), &lim).unwrap()[1].clone();
        let q = |n: i64| BigRational::from_integer(n.into());
        let inv = sqrt2.mobius([&q(0), &q(1), &q(1), &q(1)], &lim).unwrap();
        assert_eq!(inv.min_poly(), &Poly::from_i64s(&[-1, 2, 1]));
        assert_eq!(inv.to_decimal(6, &lim).unwrap(), "0.414214");
        let affine = sqrt2.mobius([&q(2), &q(1), &q(0), &q(1)], &lim).unwrap();
        assert_eq!(affine.min_poly(), &Poly::from_i64s(&[-7, -2, 1]));
        assert_eq!(affine.cmp_rational(&q(3)), Ordering::Greater);
        assert_eq!(affine.cmp_rational(&q(4)), Ordering::Less);
        assert_eq!(
            sqrt2.mobius([&q(1), &q(1), &q(1), &q(1)], &lim),
            Err(AlgebraicError::DivisionByZero)
        );
    }

    /// α = 2^(1/4), the root of x⁴ − 2 in (1, 2) (1⁴ = 1 < 2 < 16 = 2⁴). Its conjugates
    /// are ±2^(1/4) and ±i·2^(1/4), so β = α² takes the values √2, √2, −√2, −√2 over them:
    /// the characteristic polynomial of multiplication by α² is (x² − 2)² = x⁴ − 4x² + 4,
    /// a square, and β's minimal polynomial is its squarefree part x² − 2 (degree 2 in a
    /// field of degree 4), with β = √2 ∈ (1.41, 1.42) (1.41² = 1.9881, 1.42² = 2.0164).
    /// α⁴ = 2 reduces to the constant 2: rational, no polynomial.
    /// √2 = 1.41421356237…, so 3√2 = 4.24264068711… ("4.242641" at 6 places) and
    /// −√2/2 = −0.70710678118… ("-0.707107"); both from one number whose interval is
    /// narrowed in place, each equal to the decimal of the multiple's own polynomial.
    #[test]
    fn decimals_of_multiples_share_one_refinement() {
        let lim = Limits::default();
        let sqrt2 = RealAlgebraic::roots(&Poly::from_i64s(&[-2, 0, 1]), &lim).unwrap()[1].clone();
        let mut shared = sqrt2.clone();
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        assert_eq!(
            shared.decimal_of_multiple(&q(3, 1), 6, &lim).unwrap(),
            "4.242641"
        );
        let width = {
            let (lo, hi) = shared.interval();
            hi - lo
        };
        assert_eq!(
            shared.decimal_of_multiple(&q(-1, 2), 6, &lim).unwrap(),
            "-0.707107"
        );
        let (lo, hi) = shared.interval();
        assert!(hi - lo <= width);
        let zero = BigRational::zero();
        let one = BigRational::one();
        let three = sqrt2.mobius([&q(3, 1), &zero, &zero, &one], &lim).unwrap();
        assert_eq!(three.min_poly(), &Poly::from_i64s(&[-18, 0, 1]));
        assert_eq!(three.to_decimal(6, &lim).unwrap(), "4.242641");
    }

    #[test]
    fn fixed_point_rounding_of_rationals() {
        let lim = Limits::default();
        let q = |n: i64, d: i64| RealAlgebraic::from_rational(BigRational::new(n.into(), d.into()));
        assert_eq!(q(-1, 3).to_decimal(3, &lim).unwrap(), "-0.333");
        // 1/8 = 0.125: a tie at 2 digits, to even 0.12; 3/8 = 0.375 → 0.38.
        assert_eq!(q(1, 8).to_decimal(2, &lim).unwrap(), "0.12");
        assert_eq!(q(3, 8).to_decimal(2, &lim).unwrap(), "0.38");
        assert_eq!(q(7, 1).to_decimal(0, &lim).unwrap(), "7");
    }
}
