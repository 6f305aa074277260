//! Real algebraic numbers ([`RealAlgebraic`]) and arithmetic in one number field Q(α)
//! ([`NumberField`], [`FieldElement`]).
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
//! - **Q(α)**: an element is a polynomial `r` of degree `< n = deg m` with rational
//!   coefficients, `r(α)`; sums, products and inverses are taken modulo `m` (the inverse by
//!   the extended Euclidean algorithm, `m` being irreducible). The characteristic
//!   polynomial of multiplication by `r(α)`, `Res_y(m(y), x − r(y))` up to a constant, is a
//!   power of the element's minimal polynomial, which is therefore its squarefree part (no
//!   factoring); it is computed at `n + 1` integer points `x` by the subresultant algorithm
//!   and interpolated in integers. Among the roots of the minimal polynomial the element is
//!   the one whose isolating interval alone meets an interval enclosure of `r` over α's
//!   interval (refined until one remains).
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
//! `√2 · √2 = 2` and `1/(1 + √2) = √2 − 1` in Q(√2).
//! ```
//! use leontief_solver::algebraic::{Limits, NumberField, Poly, RealAlgebraic};
//! let lim = Limits::default();
//! let sqrt2 = RealAlgebraic::roots(&Poly::from_i64s(&[-2, 0, 1]), &lim).unwrap()[1].clone();
//! let k = NumberField::new(sqrt2);
//! let a = k.generator();
//! let two = k.to_real(&k.mul(&a, &a), &lim).unwrap();
//! assert_eq!(two.to_decimal(3, &lim).unwrap(), "2.000");
//! let one = num_rational::BigRational::from_integer(1.into());
//! let inv = k.inverse(&k.add(&k.rational(one), &a)).unwrap();
//! let r = k.to_real(&inv, &lim).unwrap();
//! assert_eq!(r.min_poly(), &Poly::from_i64s(&[-1, 2, 1])); // (x + 1)² = 2
//! assert_eq!(r.to_decimal(6, &lim).unwrap(), "0.414214");
//! ```

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::factor::factor;
use super::isolate::{isolate_real_roots, refine_root, RootInterval};
use super::poly::Poly;
use super::squarefree::squarefree_part;
use super::{AlgebraicError, Limits};

/// A real algebraic number: minimal polynomial and isolating interval.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RealAlgebraic {
    poly: Poly,
    lo: BigRational,
    hi: BigRational,
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
    fn halve(&mut self, limits: &Limits) -> Result<(), AlgebraicError> {
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
fn format_fixed(m: &BigInt, digits: u32) -> String {
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

/// The number field Q(α) of a real algebraic α.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberField {
    generator: RealAlgebraic,
    /// The minimal polynomial of α over Q, as rationals, constant term first.
    modulus: Vec<BigRational>,
}

/// An element `r(α)` of a [`NumberField`]: the coefficients of `r` (constant term first,
/// degree below the field's), exact rationals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldElement {
    coeffs: Vec<BigRational>,
}

impl FieldElement {
    /// The coefficients of `r` in the basis `1, α, …, α^(n−1)` (trailing zeros dropped).
    pub fn coeffs(&self) -> &[BigRational] {
        &self.coeffs
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty()
    }
}

impl NumberField {
    /// Q(α) for a real algebraic α.
    pub fn new(generator: RealAlgebraic) -> NumberField {
        let modulus = generator
            .poly
            .coeffs()
            .iter()
            .map(|c| BigRational::from_integer(c.clone()))
            .collect();
        NumberField { generator, modulus }
    }

    /// The degree `[Q(α) : Q]`.
    pub fn degree(&self) -> usize {
        self.generator.degree()
    }

    /// α, the real algebraic number generating the field.
    pub fn generating_number(&self) -> &RealAlgebraic {
        &self.generator
    }

    /// α as an element.
    pub fn generator(&self) -> FieldElement {
        self.reduce(vec![BigRational::zero(), BigRational::one()])
    }

    /// A rational as an element.
    pub fn rational(&self, r: BigRational) -> FieldElement {
        self.reduce(vec![r])
    }

    /// The element `r(α)` for a polynomial `r` with rational coefficients (reduced mod m).
    pub fn element(&self, coeffs: Vec<BigRational>) -> FieldElement {
        self.reduce(coeffs)
    }

    fn reduce(&self, coeffs: Vec<BigRational>) -> FieldElement {
        FieldElement {
            coeffs: q_rem(&q_trim(coeffs), &self.modulus),
        }
    }

    /// `a + b`.
    pub fn add(&self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        FieldElement {
            coeffs: q_add(&a.coeffs, &b.coeffs, false),
        }
    }

    /// `Σ c_k x_k`. Each term is taken over Z (integer coordinates over one positive
    /// denominator) and the terms are added in pairs (a balanced tree) over the lcm of the
    /// two denominators, so a sum of many elements costs one lcm per addition instead of a
    /// gcd per coordinate, and the rationals are normalized once, at the end.
    pub fn linear_combination(&self, terms: &[(BigRational, &FieldElement)]) -> FieldElement {
        let mut parts: Vec<(Vec<BigInt>, BigInt)> = terms
            .iter()
            .filter(|(c, x)| !c.is_zero() && !x.is_zero())
            .map(|(c, x)| {
                let den = x.coeffs.iter().fold(BigInt::one(), |acc, v| {
                    crate::algebraic::integer::lcm(&acc, v.denom())
                });
                let nums = x
                    .coeffs
                    .iter()
                    .map(|v| v.numer() * (&den / v.denom()) * c.numer())
                    .collect();
                (nums, den * c.denom())
            })
            .collect();
        while parts.len() > 1 {
            let mut next = Vec::with_capacity(parts.len().div_ceil(2));
            let mut it = parts.into_iter();
            while let Some((a, da)) = it.next() {
                next.push(match it.next() {
                    Some((b, db)) => {
                        let l = crate::algebraic::integer::lcm(&da, &db);
                        let (fa, fb) = (&l / &da, &l / &db);
                        let len = a.len().max(b.len());
                        let nums = (0..len)
                            .map(|i| {
                                let x = a.get(i).map_or_else(BigInt::zero, |v| v * &fa);
                                let y = b.get(i).map_or_else(BigInt::zero, |v| v * &fb);
                                x + y
                            })
                            .collect();
                        (nums, l)
                    }
                    None => (a, da),
                });
            }
            parts = next;
        }
        let coeffs = match parts.pop() {
            Some((nums, den)) => q_trim(
                nums.into_iter()
                    .map(|v| BigRational::new(v, den.clone()))
                    .collect(),
            ),
            None => Vec::new(),
        };
        FieldElement { coeffs }
    }

    /// `a − b`.
    pub fn sub(&self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        FieldElement {
            coeffs: q_add(&a.coeffs, &b.coeffs, true),
        }
    }

    /// `a · b`.
    pub fn mul(&self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        // A rational factor scales the coordinates: no product of polynomials, no reduction.
        match (a.coeffs.as_slice(), b.coeffs.as_slice()) {
            ([], _) | (_, []) => FieldElement { coeffs: Vec::new() },
            ([c], other) | (other, [c]) => FieldElement {
                coeffs: other.iter().map(|x| scaled(x, c)).collect(),
            },
            ([c0, c1], other) | (other, [c0, c1]) if other.len() < self.modulus.len() => {
                self.mul_linear(c0, c1, other)
            }
            _ => self.reduce(q_mul(&a.coeffs, &b.coeffs)),
        }
    }

    /// `(c0 + c1 α) · x(α)` for `x` of degree below the field's `n`, over Z: with
    /// `x = X / D` (`X` integral), `c0 = p0/q0`, `c1 = p1/q1` and the minimal polynomial
    /// `m = Σ m_k t^k`, `α · x` shifts the coordinates and `α^n = −Σ_{k<n} (m_k / m_n) α^k`
    /// folds the top one back, so coordinate `k` is
    /// `(p0 q1 m_n X_k + p1 q0 m_n X_(k−1) − p1 q0 m_k X_(n−1)) / (D q0 q1 m_n)`: a few
    /// integer products and one gcd per coordinate.
    fn mul_linear(&self, c0: &BigRational, c1: &BigRational, x: &[BigRational]) -> FieldElement {
        let (nums, common) = self.mul_linear_over_z(c0, c1, x);
        let coeffs = nums
            .into_iter()
            .map(|v| crate::algebraic::integer::ratio(v, common.clone()))
            .collect();
        FieldElement {
            coeffs: q_trim(coeffs),
        }
    }

    /// Whether `a · b = c`. When `a` or `b` is linear the product's coordinates are formed
    /// over Z ([`NumberField::mul`]'s linear case) and compared with `c`'s by
    /// cross-multiplication, so no rational is normalized; otherwise `a · b` is formed.
    pub fn product_is(&self, a: &FieldElement, b: &FieldElement, c: &FieldElement) -> bool {
        let n = self.modulus.len() - 1;
        match (a.coeffs.as_slice(), b.coeffs.as_slice()) {
            ([c0, c1], other) | (other, [c0, c1]) if n >= 2 && other.len() <= n => {
                let (nums, common) = self.mul_linear_over_z(c0, c1, other);
                nums.iter().enumerate().all(|(k, v)| match c.coeffs.get(k) {
                    Some(w) => v * w.denom() == w.numer() * &common,
                    None => v.is_zero(),
                }) && c.coeffs.len() <= n
            }
            _ => self.mul(a, b) == *c,
        }
    }

    /// The numerators (coordinates `0..n`) and common denominator of
    /// [`NumberField::mul_linear`]'s product.
    fn mul_linear_over_z(
        &self,
        c0: &BigRational,
        c1: &BigRational,
        x: &[BigRational],
    ) -> (Vec<BigInt>, BigInt) {
        let m = self.generator.poly.coeffs();
        let n = m.len() - 1;
        let den = x.iter().fold(BigInt::one(), |acc, v| {
            crate::algebraic::integer::lcm(&acc, v.denom())
        });
        let ints: Vec<BigInt> = (0..n)
            .map(|k| {
                x.get(k)
                    .map_or_else(BigInt::zero, |v| v.numer() * (&den / v.denom()))
            })
            .collect();
        let (p0, q0, p1, q1) = (c0.numer(), c0.denom(), c1.numer(), c1.denom());
        let lead = &m[n];
        let own = p0 * q1 * lead;
        let shifted = p1 * q0 * lead;
        let folded = p1 * q0 * &ints[n - 1];
        let common = &den * q0 * q1 * lead;
        let nums = (0..n)
            .map(|k| {
                let mut v = &own * &ints[k] - &folded * &m[k];
                if k > 0 {
                    v += &shifted * &ints[k - 1];
                }
                v
            })
            .collect();
        (nums, common)
    }

    /// `1 / a`.
    ///
    /// # Errors
    /// [`AlgebraicError::DivisionByZero`] when `a` is zero.
    pub fn inverse(&self, a: &FieldElement) -> Result<FieldElement, AlgebraicError> {
        if a.is_zero() {
            return Err(AlgebraicError::DivisionByZero);
        }
        if let Some(inv) = self.inverse_by_subresultants(a) {
            return Ok(inv);
        }
        self.inverse_over_q(a)
    }

    /// The inverse by the extended subresultant sequence over Z: with `a = A/D`
    /// (`A` integral), the remainders of `m` and `A` and their cofactors of `A` are divided
    /// by the same factors `g h^δ` as in the subresultant gcd (Cohen, Algorithm 3.3.1),
    /// which keeps the integers small where Euclid over Q swells; the last remainder is a
    /// nonzero constant `c` with `s A ≡ c (mod m)`, so `1/a = D s / c`. That congruence is
    /// checked in Z\[x\] (`m` divides `s A − c` exactly), so `None` (then Euclid over Q is
    /// used) if any step were not exact.
    fn inverse_by_subresultants(&self, a: &FieldElement) -> Option<FieldElement> {
        let den = a.coeffs.iter().fold(BigInt::one(), |acc, c| {
            crate::algebraic::integer::lcm(&acc, c.denom())
        });
        let big_a = Poly::new(
            a.coeffs
                .iter()
                .map(|c| c.numer() * (&den / c.denom()))
                .collect(),
        );
        let r1_original = big_a.clone();
        let (mut r0, mut r1) = (self.generator.poly.clone(), big_a);
        let (mut s0, mut s1) = (Poly::zero(), Poly::constant(BigInt::one()));
        let mut g = BigInt::one();
        let mut h = BigInt::one();
        while r1.degree()? > 0 {
            let delta = r0.degree()? - r1.degree()?;
            let (q, r) = r0.pseudo_div(&r1)?;
            if r.is_zero() {
                return None;
            }
            let lead_pow = num_traits::pow(r1.leading(), delta + 1);
            let s = s0.scale(&lead_pow).sub(&q.mul(&s1));
            let beta = &g * num_traits::pow(h.clone(), delta);
            let divide = |p: &Poly| Poly::new(p.coeffs().iter().map(|c| c / &beta).collect());
            r0 = std::mem::replace(&mut r1, divide(&r));
            s0 = std::mem::replace(&mut s1, divide(&s));
            g = r0.leading();
            h = match delta {
                0 => h,
                1 => g.clone(),
                _ => num_traits::pow(g.clone(), delta) / num_traits::pow(h, delta - 1),
            };
        }
        let c = r1.leading();
        if c.is_zero() {
            return None;
        }
        // The check s A ≡ c (mod m) in Z[x]: m divides s A − c exactly.
        self.generator.poly.degree().and_then(|_| {
            s1.mul(&r1_original)
                .sub(&Poly::constant(c.clone()))
                .div_exact(&self.generator.poly)
        })?;
        let inv = self.reduce(
            s1.coeffs()
                .iter()
                .map(|x| BigRational::new(x * &den, c.clone()))
                .collect(),
        );
        Some(inv)
    }

    /// The inverse by the extended Euclidean algorithm over Q.
    fn inverse_over_q(&self, a: &FieldElement) -> Result<FieldElement, AlgebraicError> {
        // Extended Euclid on (m, a): s·a ≡ g (mod m) with g a nonzero constant, m irreducible.
        let (mut r0, mut r1) = (self.modulus.clone(), a.coeffs.clone());
        let (mut s0, mut s1): (Vec<BigRational>, Vec<BigRational>) =
            (Vec::new(), vec![BigRational::one()]);
        while r1.len() > 1 {
            let (q, r) = q_divrem(&r0, &r1);
            let s2 = q_add(&s0, &q_mul(&q, &s1), true);
            r0 = std::mem::replace(&mut r1, r);
            s0 = std::mem::replace(&mut s1, s2);
        }
        let Some(g) = r1.first().cloned() else {
            // a shares a factor with m: impossible for irreducible m and nonzero a.
            return Err(AlgebraicError::DivisionByZero);
        };
        Ok(self.reduce(s1.iter().map(|c| c / &g).collect()))
    }

    /// `a / b`.
    ///
    /// # Errors
    /// [`AlgebraicError::DivisionByZero`] when `b` is zero.
    pub fn div(&self, a: &FieldElement, b: &FieldElement) -> Result<FieldElement, AlgebraicError> {
        Ok(self.mul(a, &self.inverse(b)?))
    }

    /// The characteristic polynomial of multiplication by `a`, primitive:
    /// `Res_y(m(y), D x − R(y))` with `a = R/D`, `R` integral, by evaluation at
    /// `x = 0, …, n` and interpolation.
    pub fn characteristic_poly(&self, a: &FieldElement) -> Poly {
        let n = self.degree();
        let den = a.coeffs.iter().fold(BigInt::one(), |acc, c| {
            crate::algebraic::integer::lcm(&acc, c.denom())
        });
        let big_r: Vec<BigInt> = a
            .coeffs
            .iter()
            .map(|c| c.numer() * (&den / c.denom()))
            .collect();
        let values: Vec<BigInt> = (0..=n)
            .map(|x0| {
                let mut h: Vec<BigInt> = big_r.iter().map(|c| -c).collect();
                if h.is_empty() {
                    h.push(BigInt::zero());
                }
                h[0] += &den * BigInt::from(x0);
                self.generator.poly.resultant(&Poly::new(h))
            })
            .collect();
        interpolate_integer_points(&values).primitive_part()
    }

    /// The element as a real algebraic number: its minimal polynomial and an isolating
    /// interval.
    ///
    /// The characteristic polynomial of `β = r(α)` is `minpoly(β)^[Q(α) : Q(β)]` (its roots
    /// are the conjugates of β, each repeated the same number of times), so the minimal
    /// polynomial is its primitive squarefree part: no factoring. A rational β (only a
    /// constant coordinate) needs no polynomial at all.
    ///
    /// # Errors
    /// The degree and coefficient limits on the characteristic polynomial, and the errors of
    /// root isolation and refinement under `limits`.
    pub fn to_real(
        &self,
        a: &FieldElement,
        limits: &Limits,
    ) -> Result<RealAlgebraic, AlgebraicError> {
        if a.coeffs.len() <= 1 {
            return Ok(RealAlgebraic::from_rational(
                a.coeffs.first().cloned().unwrap_or_else(BigRational::zero),
            ));
        }
        // χ has the field's degree: refused before its n + 1 resultants are computed.
        if self.degree() > limits.max_degree {
            return Err(AlgebraicError::DegreeLimit {
                degree: self.degree(),
                limit: limits.max_degree,
            });
        }
        let chi = self.characteristic_poly(a);
        limits.check(&chi)?;
        let min = squarefree_part(&chi);
        if min.degree() == Some(1) {
            // Not reached: an element with a nonconstant coordinate is irrational.
            return Ok(RealAlgebraic::from_rational(BigRational::new(
                -min.coeff(0),
                min.coeff(1),
            )));
        }
        let mut candidates: Vec<RealAlgebraic> = isolate_real_roots(&min, limits)?
            .into_iter()
            .filter_map(|r| match r {
                RootInterval::Open { lo, hi } => Some(RealAlgebraic {
                    poly: min.clone(),
                    lo,
                    hi,
                }),
                // An irreducible polynomial of degree ≥ 2 has no rational root.
                RootInterval::Exact(_) => None,
            })
            .collect();
        let mut alpha = self.generator.clone();
        for _ in 0..limits.max_refine_steps {
            let (elo, ehi) = interval_eval(&a.coeffs, &alpha.lo, &alpha.hi);
            let meets: Vec<usize> = (0..candidates.len())
                .filter(|&i| candidates[i].lo <= ehi && elo <= candidates[i].hi)
                .collect();
            if meets.len() == 1 {
                return Ok(candidates.swap_remove(meets[0]));
            }
            alpha.halve(limits)?;
            for &i in &meets {
                candidates[i].halve(limits)?;
            }
        }
        Err(AlgebraicError::RefinementLimit {
            steps: limits.max_refine_steps,
        })
    }
}

/// An enclosure of `{r(x) : x ∈ [lo, hi]}` by interval Horner evaluation.
fn interval_eval(
    r: &[BigRational],
    lo: &BigRational,
    hi: &BigRational,
) -> (BigRational, BigRational) {
    let mut a = BigRational::zero();
    let mut b = BigRational::zero();
    for c in r.iter().rev() {
        let ps = [&a * lo, &a * hi, &b * lo, &b * hi];
        let mn = ps.iter().min().cloned().unwrap_or_default();
        let mx = ps.iter().max().cloned().unwrap_or_default();
        a = mn + c;
        b = mx + c;
    }
    (a, b)
}

/// `n! · p` for the polynomial `p` of degree ≤ `n` with `p(k) = values[k]`, `k = 0, …, n`,
/// in integers: Newton's forward form `p(x) = Σ_j Δ^j p(0) · x(x − 1)⋯(x − j + 1) / j!`,
/// each term multiplied by `n!` (so `n!/j!` is an integer). The forward differences of
/// integers are integers, so no fraction is ever formed.
fn interpolate_integer_points(values: &[BigInt]) -> Poly {
    let Some(n) = values.len().checked_sub(1) else {
        return Poly::zero();
    };
    // diffs[j] = Δ^j p(0).
    let mut row = values.to_vec();
    let mut diffs = Vec::with_capacity(n + 1);
    for j in 0..=n {
        diffs.push(row[0].clone());
        for i in 0..n - j {
            row[i] = &row[i + 1] - &row[i];
        }
        row.truncate(n - j);
    }
    // n!/j! for j = n down to 0.
    let mut ratio = vec![BigInt::one(); n + 1];
    for j in (0..n).rev() {
        ratio[j] = &ratio[j + 1] * BigInt::from(j + 1);
    }
    let mut falling = Poly::constant(BigInt::one());
    let mut acc = Poly::zero();
    for (j, d) in diffs.iter().enumerate() {
        if j > 0 {
            falling = falling.mul(&Poly::new(vec![-BigInt::from(j - 1), BigInt::one()]));
        }
        if !d.is_zero() {
            acc = acc.add(&falling.scale(&(d * &ratio[j])));
        }
    }
    acc
}

/// `x · c`, normalized by [`crate::algebraic::integer::ratio`] (one Lehmer gcd rather than
/// the three binary gcds of a rational product).
fn scaled(x: &BigRational, c: &BigRational) -> BigRational {
    crate::algebraic::integer::ratio(x.numer() * c.numer(), x.denom() * c.denom())
}

fn q_trim(mut a: Vec<BigRational>) -> Vec<BigRational> {
    while a.last().is_some_and(Zero::is_zero) {
        a.pop();
    }
    a
}

fn q_add(a: &[BigRational], b: &[BigRational], subtract: bool) -> Vec<BigRational> {
    let n = a.len().max(b.len());
    q_trim(
        (0..n)
            .map(|i| {
                let x = a.get(i).cloned().unwrap_or_default();
                let y = b.get(i).cloned().unwrap_or_default();
                if subtract {
                    x - y
                } else {
                    x + y
                }
            })
            .collect(),
    )
}

fn q_mul(a: &[BigRational], b: &[BigRational]) -> Vec<BigRational> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![BigRational::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    q_trim(out)
}

/// Quotient and remainder over Q; `b` nonzero.
fn q_divrem(a: &[BigRational], b: &[BigRational]) -> (Vec<BigRational>, Vec<BigRational>) {
    let Some(lc) = b.last() else {
        return (Vec::new(), a.to_vec());
    };
    if a.len() < b.len() {
        return (Vec::new(), a.to_vec());
    }
    let db = b.len() - 1;
    let mut r = a.to_vec();
    let mut q = vec![BigRational::zero(); a.len() - db];
    for k in (0..q.len()).rev() {
        let c = &r[k + db] / lc;
        for (j, bj) in b.iter().enumerate() {
            r[k + j] -= &c * bj;
        }
        q[k] = c;
    }
    r.truncate(db);
    (q_trim(q), q_trim(r))
}

fn q_rem(a: &[BigRational], m: &[BigRational]) -> Vec<BigRational> {
    q_divrem(a, m).1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_by_a_linear_element_over_z() {
        // α = 2^(1/3), m = x³ − 2: (1 + α)(2 − α + α²/2) = 2 − α + α²/2 + 2α − α² + α³/2
        // = 3 + α − α²/2 (α³ = 2), the same as the product by the general path.
        let lim = Limits::default();
        let alpha =
            RealAlgebraic::roots(&Poly::from_i64s(&[-2, 0, 0, 1]), &lim).unwrap()[0].clone();
        let k = NumberField::new(alpha);
        let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        let linear = k.element(vec![r(1, 1), r(1, 1)]);
        let other = k.element(vec![r(2, 1), r(-1, 1), r(1, 2)]);
        let want = k.element(vec![r(3, 1), r(1, 1), r(-1, 2)]);
        assert_eq!(k.mul(&linear, &other), want);
        assert_eq!(k.reduce(q_mul(&linear.coeffs, &other.coeffs)), want);
        assert!(k.product_is(&other, &linear, &want));
        assert!(!k.product_is(&other, &linear, &k.element(vec![r(3, 1), r(1, 1)])));
        // 1/(1 + α) (1 + α) = 1: the rational 1 compared by cross-multiplication.
        let inv = k.inverse(&linear).unwrap();
        assert!(k.product_is(&linear, &inv, &k.rational(r(1, 1))));
    }

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
    #[test]
    fn minimal_polynomial_is_the_squarefree_part_of_the_characteristic_polynomial() {
        let lim = Limits::default();
        let roots = RealAlgebraic::roots(&Poly::from_i64s(&[-2, 0, 0, 0, 1]), &lim).unwrap();
        let alpha = roots[1].clone();
        assert_eq!(alpha.cmp_rational(&BigRational::one()), Ordering::Greater);
        let k = NumberField::new(alpha);
        let a = k.generator();
        let beta = k.mul(&a, &a);
        assert_eq!(
            k.characteristic_poly(&beta),
            Poly::from_i64s(&[4, 0, -4, 0, 1])
        );
        let b = k.to_real(&beta, &lim).unwrap();
        assert_eq!(b.min_poly(), &Poly::from_i64s(&[-2, 0, 1]));
        let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        assert_eq!(b.cmp_rational(&r(141, 100)), Ordering::Greater);
        assert_eq!(b.cmp_rational(&r(142, 100)), Ordering::Less);
        let four = k.mul(&beta, &beta);
        let two = k.to_real(&four, &lim).unwrap();
        assert_eq!(two.as_rational(), Some(&r(2, 1)));
    }

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
