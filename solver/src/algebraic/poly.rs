//! Dense univariate polynomials over Z ([`Poly`]), and over Q through primitive parts.
//!
//! Coefficients are [`BigInt`]s stored from the constant term up; the zero polynomial has no
//! coefficients and a nonzero one never ends in a zero. A polynomial over Q is represented by
//! its primitive part in Z\[x\] times a rational scalar wherever the scalar does not matter
//! (roots, gcds, factors).
//!
//! # Complexity
//! With `n` the degree and `L` the coefficient length in bits: addition `O(n L)`, schoolbook
//! multiplication and pseudo-division `O(n² L²)` word operations before the growth of the
//! intermediate coefficients; the subresultant gcd and resultant take `O(n)` pseudo-divisions
//! whose coefficients stay polynomial in `n L` (the subresultant theorem), so the whole chain
//! is polynomial, unlike the naive Euclidean remainder sequence over Z.
//!
//! # References
//! - H. Cohen, *A Course in Computational Algebraic Number Theory*, Springer 1993:
//!   Algorithms 3.1.2 (pseudo-division), 3.3.1 (sub-resultant gcd), 3.3.7 (resultant).
//! - J. von zur Gathen, J. Gerhard, *Modern Computer Algebra*, 3rd ed., Cambridge 2013,
//!   chapters 3, 6 (Euclid, resultants, subresultants).
//!
//! # Example
//! ```
//! use leontief_solver::algebraic::Poly;
//! let a = Poly::from_i64s(&[-2, 0, 1]); // x² − 2
//! let b = Poly::from_i64s(&[-1, 1]); // x − 1
//! assert_eq!(a.mul(&b).degree(), Some(3));
//! // Res(x² − 2, x − 1) = (−1)^2 · (1² − 2) = −1 (a(1) up to sign).
//! assert_eq!(a.resultant(&b), (-1).into());
//! ```

use std::fmt;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// A dense polynomial with integer coefficients, constant term first.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Poly {
    coeffs: Vec<BigInt>,
}

impl fmt::Debug for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Poly({self})")
    }
}

impl fmt::Display for Poly {
    /// Highest power first, e.g. `63*t^2 - 6250*t + 62500` is written `63x^2 - 6250x + 62500`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return write!(f, "0");
        }
        let mut first = true;
        for (i, c) in self.coeffs.iter().enumerate().rev() {
            if c.is_zero() {
                continue;
            }
            let neg = c.is_negative();
            let mag = c.abs();
            if first {
                if neg {
                    write!(f, "-")?;
                }
            } else {
                write!(f, " {} ", if neg { '-' } else { '+' })?;
            }
            first = false;
            let show_mag = i == 0 || !mag.is_one();
            if show_mag {
                write!(f, "{mag}")?;
            }
            match i {
                0 => {}
                1 => write!(f, "x")?,
                _ => write!(f, "x^{i}")?,
            }
        }
        Ok(())
    }
}

impl Poly {
    /// The polynomial with these coefficients (constant term first); trailing zeros are dropped.
    pub fn new(mut coeffs: Vec<BigInt>) -> Poly {
        while coeffs.last().is_some_and(Zero::is_zero) {
            coeffs.pop();
        }
        Poly { coeffs }
    }

    /// From machine integers, constant term first.
    pub fn from_i64s(coeffs: &[i64]) -> Poly {
        Poly::new(coeffs.iter().map(|&c| BigInt::from(c)).collect())
    }

    /// The zero polynomial.
    pub fn zero() -> Poly {
        Poly { coeffs: Vec::new() }
    }

    /// The constant `c`.
    pub fn constant(c: BigInt) -> Poly {
        Poly::new(vec![c])
    }

    /// `x`.
    pub fn x() -> Poly {
        Poly::from_i64s(&[0, 1])
    }

    /// The primitive integer polynomial with the roots of a polynomial with rational
    /// coefficients (constant term first): the coefficients times their common denominator,
    /// divided by their content.
    pub fn primitive_from_rationals(coeffs: &[BigRational]) -> Poly {
        let den = coeffs
            .iter()
            .fold(BigInt::one(), |acc, c| super::integer::lcm(&acc, c.denom()));
        let ints = coeffs
            .iter()
            .map(|c| c.numer() * (&den / c.denom()))
            .collect();
        Poly::new(ints).primitive_part()
    }

    /// The coefficients, constant term first (empty for zero).
    pub fn coeffs(&self) -> &[BigInt] {
        &self.coeffs
    }

    /// The coefficient of `x^i` (zero past the degree).
    pub fn coeff(&self, i: usize) -> BigInt {
        self.coeffs.get(i).cloned().unwrap_or_default()
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty()
    }

    /// The degree; `None` for the zero polynomial.
    pub fn degree(&self) -> Option<usize> {
        self.coeffs.len().checked_sub(1)
    }

    /// The degree, zero for the zero polynomial (for loops that treat both alike).
    fn deg0(&self) -> usize {
        self.coeffs.len().saturating_sub(1)
    }

    /// The leading coefficient (zero for the zero polynomial).
    pub fn leading(&self) -> BigInt {
        self.coeffs.last().cloned().unwrap_or_default()
    }

    /// The largest coefficient length in bits.
    pub fn max_coeff_bits(&self) -> u64 {
        self.coeffs.iter().map(BigInt::bits).max().unwrap_or(0)
    }

    /// `self + other`.
    pub fn add(&self, other: &Poly) -> Poly {
        let n = self.coeffs.len().max(other.coeffs.len());
        Poly::new((0..n).map(|i| self.coeff(i) + other.coeff(i)).collect())
    }

    /// `self − other`.
    pub fn sub(&self, other: &Poly) -> Poly {
        let n = self.coeffs.len().max(other.coeffs.len());
        Poly::new((0..n).map(|i| self.coeff(i) - other.coeff(i)).collect())
    }

    /// `−self`.
    pub fn neg(&self) -> Poly {
        Poly::new(self.coeffs.iter().map(|c| -c).collect())
    }

    /// `c · self`.
    pub fn scale(&self, c: &BigInt) -> Poly {
        Poly::new(self.coeffs.iter().map(|a| a * c).collect())
    }

    /// `self · other` (schoolbook).
    pub fn mul(&self, other: &Poly) -> Poly {
        if self.is_zero() || other.is_zero() {
            return Poly::zero();
        }
        let mut out = vec![BigInt::zero(); self.coeffs.len() + other.coeffs.len() - 1];
        for (i, a) in self.coeffs.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in other.coeffs.iter().enumerate() {
                out[i + j] += a * b;
            }
        }
        Poly::new(out)
    }

    /// `self^e`.
    pub fn pow(&self, e: u32) -> Poly {
        let mut out = Poly::constant(BigInt::one());
        for _ in 0..e {
            out = out.mul(self);
        }
        out
    }

    /// The pseudo-quotient and pseudo-remainder: `lc(d)^(deg self − deg d + 1) · self = q·d + r`
    /// with `deg r < deg d`. `None` when `d` is zero.
    pub fn pseudo_div(&self, d: &Poly) -> Option<(Poly, Poly)> {
        let dd = d.degree()?;
        let Some(na) = self.degree() else {
            return Some((Poly::zero(), Poly::zero()));
        };
        if na < dd {
            return Some((Poly::zero(), self.clone()));
        }
        let lc = d.leading();
        let mut r = self.coeffs.clone();
        let mut q = vec![BigInt::zero(); na - dd + 1];
        // Cohen 3.1.2: each step multiplies what is there by lc(d) and cancels the top term.
        for k in (0..=na - dd).rev() {
            let top = r[k + dd].clone();
            for c in q.iter_mut() {
                *c *= &lc;
            }
            q[k] = top.clone();
            for c in r.iter_mut() {
                *c *= &lc;
            }
            for (j, dc) in d.coeffs.iter().enumerate() {
                r[k + j] -= &top * dc;
            }
        }
        r.truncate(dd);
        Some((Poly::new(q), Poly::new(r)))
    }

    /// The pseudo-remainder (see [`pseudo_div`](Self::pseudo_div)); zero when `d` is zero.
    pub fn pseudo_rem(&self, d: &Poly) -> Poly {
        self.pseudo_div(d).map(|(_, r)| r).unwrap_or_default()
    }

    /// The quotient `self / d` when `d` divides `self` in Z\[x\]; `None` otherwise (or when
    /// `d` is zero).
    pub fn div_exact(&self, d: &Poly) -> Option<Poly> {
        let dd = d.degree()?;
        let Some(na) = self.degree() else {
            return Some(Poly::zero());
        };
        if na < dd {
            return None;
        }
        let lc = d.leading();
        let mut r = self.coeffs.clone();
        let mut q = vec![BigInt::zero(); na - dd + 1];
        for k in (0..=na - dd).rev() {
            let (quot, rem) = r[k + dd].div_rem(&lc);
            if !rem.is_zero() {
                return None;
            }
            for (j, dc) in d.coeffs.iter().enumerate() {
                r[k + j] -= &quot * dc;
            }
            q[k] = quot;
        }
        if r.iter().any(|c| !c.is_zero()) {
            return None;
        }
        Some(Poly::new(q))
    }

    /// `self / c` for an integer `c` dividing every coefficient.
    fn div_scalar(&self, c: &BigInt) -> Poly {
        Poly::new(self.coeffs.iter().map(|a| a / c).collect())
    }

    /// The content: the gcd of the coefficients, nonnegative (zero for zero).
    pub fn content(&self) -> BigInt {
        // Smallest first: the running gcd is then at most that size, and each further step
        // is one remainder of a big number by a small one.
        let mut order: Vec<&BigInt> = self.coeffs.iter().filter(|c| !c.is_zero()).collect();
        order.sort_by_key(|c| c.bits());
        let mut g = BigInt::zero();
        for c in order {
            g = super::integer::gcd(&g, c);
            if g.is_one() {
                break;
            }
        }
        g
    }

    /// The primitive part with a positive leading coefficient (zero stays zero).
    pub fn primitive_part(&self) -> Poly {
        if self.is_zero() {
            return Poly::zero();
        }
        let mut c = self.content();
        if self.leading().is_negative() {
            c = -c;
        }
        self.div_scalar(&c)
    }

    /// The derivative.
    pub fn derivative(&self) -> Poly {
        Poly::new(
            self.coeffs
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, c)| c * BigInt::from(i))
                .collect(),
        )
    }

    /// The gcd in Z\[x\] by the subresultant remainder sequence, with a positive leading
    /// coefficient (Cohen, Algorithm 3.3.1). `gcd(0, 0) = 0`.
    pub fn gcd(&self, other: &Poly) -> Poly {
        let (mut a, mut b) = if self.deg0() >= other.deg0() && !self.is_zero() {
            (self.clone(), other.clone())
        } else {
            (other.clone(), self.clone())
        };
        if b.is_zero() {
            return a.primitive_part().scale(&a.content());
        }
        let d = a.content().gcd(&b.content());
        a = a.primitive_part();
        b = b.primitive_part();
        let mut g = BigInt::one();
        let mut h = BigInt::one();
        loop {
            let delta = a.deg0() - b.deg0();
            let r = a.pseudo_rem(&b);
            if r.is_zero() {
                break;
            }
            if r.degree() == Some(0) {
                b = Poly::constant(BigInt::one());
                break;
            }
            a = b;
            b = r.div_scalar(&(&g * pow_int(&h, delta)));
            g = a.leading();
            h = next_h(&h, &g, delta);
        }
        b.primitive_part().scale(&d)
    }

    /// The resultant `Res(self, other)` by the subresultant algorithm (Cohen, Algorithm
    /// 3.3.7); zero when either is zero.
    pub fn resultant(&self, other: &Poly) -> BigInt {
        if self.is_zero() || other.is_zero() {
            return BigInt::zero();
        }
        let (mut a, mut b) = (self.clone(), other.clone());
        let mut s = 1i32;
        if a.deg0() < b.deg0() {
            std::mem::swap(&mut a, &mut b);
            if a.deg0() % 2 == 1 && b.deg0() % 2 == 1 {
                s = -1;
            }
        }
        if b.deg0() == 0 {
            let r = pow_int(&b.leading(), a.deg0());
            return if s < 0 { -r } else { r };
        }
        let (ca, cb) = (a.content(), b.content());
        let t = pow_int(&ca, b.deg0()) * pow_int(&cb, a.deg0());
        a = a.div_scalar(&ca);
        b = b.div_scalar(&cb);
        let mut g = BigInt::one();
        let mut h = BigInt::one();
        loop {
            let delta = a.deg0() - b.deg0();
            if a.deg0() % 2 == 1 && b.deg0() % 2 == 1 {
                s = -s;
            }
            let r = a.pseudo_rem(&b);
            if r.is_zero() {
                return BigInt::zero();
            }
            a = b;
            b = r.div_scalar(&(&g * pow_int(&h, delta)));
            g = a.leading();
            h = next_h(&h, &g, delta);
            if b.deg0() == 0 {
                break;
            }
        }
        let da = a.deg0();
        // h^(1 − deg a) · lc(b)^deg a, an exact division when deg a ≥ 1.
        let num = pow_int(&b.leading(), da);
        let hh = if da == 0 {
            &num * &h
        } else {
            num / pow_int(&h, da - 1)
        };
        let r = t * hh;
        if s < 0 {
            -r
        } else {
            r
        }
    }

    /// `self(other(x))` by Horner's rule.
    pub fn compose(&self, other: &Poly) -> Poly {
        let mut out = Poly::zero();
        for c in self.coeffs.iter().rev() {
            out = out.mul(other).add(&Poly::constant(c.clone()));
        }
        out
    }

    /// The Taylor shift `self(x + a)` (Horner's scheme on the coefficients, `O(n²)`).
    pub fn taylor_shift(&self, a: &BigInt) -> Poly {
        let mut c = self.coeffs.clone();
        let n = c.len();
        for i in 0..n {
            for j in (i..n.saturating_sub(1)).rev() {
                let t = &c[j + 1] * a;
                c[j] += t;
            }
        }
        Poly::new(c)
    }

    /// `self(x + 1)`.
    pub fn shift_one(&self) -> Poly {
        self.taylor_shift(&BigInt::one())
    }

    /// `x^n · self(1/x)` with `n` the degree: the coefficients reversed.
    pub fn reverse(&self) -> Poly {
        let mut c = self.coeffs.clone();
        c.reverse();
        Poly::new(c)
    }

    /// `2^(k·n) · self(x / 2^k)` for `k ≥ 0`, or `self(2^(−k) x)` for `k < 0`: an integer
    /// polynomial whose roots are the roots of `self` scaled by `2^k`.
    pub fn scale_roots_pow2(&self, k: i64) -> Poly {
        let n = self.deg0();
        Poly::new(
            self.coeffs
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if k >= 0 {
                        c << (k as u64 * (n - i) as u64)
                    } else {
                        c << ((-k) as u64 * i as u64)
                    }
                })
                .collect(),
        )
    }

    /// `self(−x)`.
    pub fn reflect(&self) -> Poly {
        Poly::new(
            self.coeffs
                .iter()
                .enumerate()
                .map(|(i, c)| if i % 2 == 1 { -c } else { c.clone() })
                .collect(),
        )
    }

    /// The exact value at a rational point.
    pub fn eval(&self, x: &BigRational) -> BigRational {
        let den = x.denom();
        let n = self.deg0();
        super::integer::ratio(self.eval_homogeneous(x.numer(), den), pow_int(den, n))
    }

    /// The sign (−1, 0 or 1) of the value at a rational point.
    pub fn sign_at(&self, x: &BigRational) -> i32 {
        // The denominator of a BigRational is positive, so d^n > 0 keeps the sign.
        sign_of(&self.eval_homogeneous(x.numer(), x.denom()))
    }

    /// `Σ a_i num^i den^(n − i)` = `den^n · self(num/den)`.
    pub(crate) fn eval_homogeneous(&self, num: &BigInt, den: &BigInt) -> BigInt {
        let mut acc = BigInt::zero();
        let mut den_pow = BigInt::one();
        // Horner from the top: after the step for a_i, acc = Σ_{j≥i} a_j num^(j−i) den^(n−j).
        for c in self.coeffs.iter().rev() {
            acc = acc * num + c * &den_pow;
            den_pow *= den;
        }
        acc
    }

    /// Sign variations of the coefficient sequence (zeros skipped): Descartes' rule bounds
    /// the positive roots, counted with multiplicity, by this number and agrees with it in
    /// parity.
    pub fn sign_variations(&self) -> usize {
        let mut last = 0;
        let mut count = 0;
        for c in &self.coeffs {
            let s = sign_of(c);
            if s != 0 {
                if last != 0 && s != last {
                    count += 1;
                }
                last = s;
            }
        }
        count
    }
}

/// `b^e` for an integer base.
pub(crate) fn pow_int(b: &BigInt, e: usize) -> BigInt {
    num_traits::pow(b.clone(), e)
}

/// The sign of an integer as −1, 0 or 1.
pub(crate) fn sign_of(x: &BigInt) -> i32 {
    if x.is_positive() {
        1
    } else if x.is_negative() {
        -1
    } else {
        0
    }
}

/// The subresultant update `h ← h^(1 − δ) g^δ` (an exact division for δ ≥ 1).
fn next_h(h: &BigInt, g: &BigInt, delta: usize) -> BigInt {
    match delta {
        0 => h.clone(),
        1 => g.clone(),
        _ => pow_int(g, delta) / pow_int(h, delta - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(c: &[i64]) -> Poly {
        Poly::from_i64s(c)
    }

    #[test]
    fn gcd_of_products_is_the_common_factor() {
        // (x − 1)(x + 2) and (x − 1)(x − 3) share exactly x − 1.
        let a = p(&[-1, 1]).mul(&p(&[2, 1]));
        let b = p(&[-1, 1]).mul(&p(&[-3, 1]));
        assert_eq!(a.gcd(&b), p(&[-1, 1]));
        // Coprime: x² + 1 and x² − 2.
        assert_eq!(p(&[1, 0, 1]).gcd(&p(&[-2, 0, 1])), p(&[1]));
    }

    #[test]
    fn resultant_matches_the_product_of_values_at_roots() {
        // Res(x² − 2, x² − 3): roots ±√2 of the monic first, so the product of
        // (2 − 3)(2 − 3) = 1 over both roots; Res(x − a, g) = g(a).
        assert_eq!(p(&[-2, 0, 1]).resultant(&p(&[-3, 0, 1])), 1.into());
        assert_eq!(p(&[-3, 1]).resultant(&p(&[1, 1, 1])), 13.into());
        // Sylvester determinant of 2x + 1 and 3x + 5: 2·5 − 1·3 = 7.
        assert_eq!(p(&[1, 2]).resultant(&p(&[5, 3])), 7.into());
        // Common root → zero.
        assert_eq!(p(&[-1, 0, 1]).resultant(&p(&[-1, 1])), 0.into());
    }

    #[test]
    fn evaluation_and_shift_agree() {
        let f = p(&[5, -3, 0, 2]);
        let half = BigRational::new(1.into(), 2.into());
        // 5 − 3/2 + 2/8 = 15/4.
        assert_eq!(f.eval(&half), BigRational::new(15.into(), 4.into()));
        let g = f.taylor_shift(&BigInt::from(3));
        assert_eq!(
            g.eval(&BigRational::from_integer(1.into())),
            f.eval(&BigRational::from_integer(4.into()))
        );
        // (x − 1)(x − 2)(x + 3) = x³ − 7x + 6: two variations, two positive roots.
        assert_eq!(p(&[6, -7, 0, 1]).sign_variations(), 2);
    }
}
