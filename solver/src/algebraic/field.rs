//! Arithmetic in one number field Q(α) of a real algebraic α ([`NumberField`],
//! [`FieldElement`]).
//!
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
//! Sums `O(n)`, products and reductions `O(n²)` rational operations; an inverse is one
//! extended Euclidean run over Z; the conversion of an element adds `n + 1` resultants and
//! a squarefree part (certified modulo a prime in `O(n²)` word operations when it is the
//! polynomial itself).
//!
//! # References
//! - H. Cohen, *A Course in Computational Algebraic Number Theory*, §4.1 (number fields,
//!   characteristic polynomials by resultants).
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

use num_bigint::BigInt;
use num_rational::BigRational;
use std::sync::OnceLock;

use num_traits::{One, Signed, Zero};

use super::isolate::{isolate_real_roots, RootInterval};
use super::number::RealAlgebraic;
use super::poly::Poly;
use super::squarefree::squarefree_part;
use super::{AlgebraicError, Limits};

/// The number field Q(α) of a real algebraic α.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberField {
    generator: RealAlgebraic,
    /// The minimal polynomial of α over Q, as rationals, constant term first.
    modulus: Vec<BigRational>,
}

/// An element `r(α)` of a [`NumberField`]: the coefficients of `r` (constant term first,
/// degree below the field's), exact rationals.
///
/// Stored as integer numerators over one positive denominator in lowest terms (FLINT's
/// `nf_elem` does the same): a sum of many elements, a sign, a product by a linear element
/// and a characteristic polynomial all work over Z, and the rationals of
/// [`FieldElement::coeffs`] (one gcd per coordinate) are formed only when asked for.
#[derive(Debug, Clone)]
pub struct FieldElement {
    /// `r`'s coefficients times `den`, trailing zeros dropped.
    num: Vec<BigInt>,
    /// Positive, coprime to the content of `num` (1 for zero).
    den: BigInt,
    coeffs: OnceLock<Vec<BigRational>>,
}

impl PartialEq for FieldElement {
    fn eq(&self, other: &FieldElement) -> bool {
        // The representation is canonical.
        self.num == other.num && self.den == other.den
    }
}

impl Eq for FieldElement {}

impl FieldElement {
    /// The element with the given rational coefficients.
    fn from_rationals(coeffs: Vec<BigRational>) -> FieldElement {
        let coeffs = q_trim(coeffs);
        // Lowest terms already: a prime's full power in the lcm comes from a coefficient
        // whose numerator it does not divide.
        let den = coeffs.iter().fold(BigInt::one(), |acc, v| {
            crate::algebraic::integer::lcm(&acc, v.denom())
        });
        let num = coeffs
            .iter()
            .map(|v| v.numer() * (&den / v.denom()))
            .collect();
        FieldElement {
            num,
            den,
            coeffs: OnceLock::from(coeffs),
        }
    }

    /// The element `Σ num_k α^k / den` (`den ≠ 0`), brought to lowest terms by one running
    /// gcd, smallest numerator first.
    pub(crate) fn from_integral(mut num: Vec<BigInt>, mut den: BigInt) -> FieldElement {
        while num.last().is_some_and(Zero::is_zero) {
            num.pop();
        }
        if num.is_empty() {
            return FieldElement::from_rationals(Vec::new());
        }
        let mut g = den.clone();
        let mut order: Vec<&BigInt> = num.iter().filter(|v| !v.is_zero()).collect();
        order.sort_by_key(|v| v.bits());
        for v in order {
            if g.is_one() {
                break;
            }
            g = crate::algebraic::integer::gcd(&g, v);
        }
        if den.is_negative() {
            g = -g;
        }
        if !g.is_one() {
            for v in &mut num {
                *v /= &g;
            }
            den /= &g;
        }
        FieldElement {
            num,
            den,
            coeffs: OnceLock::new(),
        }
    }

    /// The coefficients of `r` in the basis `1, α, …, α^(n−1)` (trailing zeros dropped).
    pub fn coeffs(&self) -> &[BigRational] {
        self.coeffs.get_or_init(|| {
            self.num
                .iter()
                .map(|v| crate::algebraic::integer::ratio(v.clone(), self.den.clone()))
                .collect()
        })
    }

    /// `r` over Z: the numerators of the coefficients over their common denominator
    /// (positive, in lowest terms).
    pub fn integral(&self) -> (&[BigInt], &BigInt) {
        (&self.num, &self.den)
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.num.is_empty()
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
        FieldElement::from_rationals(q_rem(&q_trim(coeffs), &self.modulus))
    }

    /// `a + b`.
    pub fn add(&self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        sum_over_z(a, b, false)
    }

    /// `Σ c_k x_k`. The terms are added over Z in pairs (a balanced tree) over the lcm of
    /// the two denominators, so a sum of many elements costs one lcm per addition instead
    /// of a gcd per coordinate.
    pub fn linear_combination(&self, terms: &[(BigRational, &FieldElement)]) -> FieldElement {
        let mut parts: Vec<(Vec<BigInt>, BigInt)> = terms
            .iter()
            .filter(|(c, x)| !c.is_zero() && !x.is_zero())
            .map(|(c, x)| {
                let nums = x.num.iter().map(|v| v * c.numer()).collect();
                (nums, &x.den * c.denom())
            })
            .collect();
        while parts.len() > 1 {
            let mut next = Vec::with_capacity(parts.len().div_ceil(2));
            let mut it = parts.into_iter();
            while let Some((a, da)) = it.next() {
                next.push(match it.next() {
                    Some((b, db)) => add_integral((&a, &da), (&b, &db), false),
                    None => (a, da),
                });
            }
            parts = next;
        }
        match parts.pop() {
            Some((nums, den)) => FieldElement::from_integral(nums, den),
            None => FieldElement::from_rationals(Vec::new()),
        }
    }

    /// `a − b`.
    pub fn sub(&self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        sum_over_z(a, b, true)
    }

    /// `a · b`.
    pub fn mul(&self, a: &FieldElement, b: &FieldElement) -> FieldElement {
        // A rational factor scales the coordinates: no product of polynomials, no reduction.
        let n = self.modulus.len();
        match (a.num.len(), b.num.len()) {
            (0, _) | (_, 0) => FieldElement::from_rationals(Vec::new()),
            (1, _) => scaled(b, &a.coeffs()[0]),
            (_, 1) => scaled(a, &b.coeffs()[0]),
            (2, len) | (len, 2) if len < n => {
                let (linear, other) = if a.num.len() == 2 { (a, b) } else { (b, a) };
                let (nums, common) = self.mul_linear_over_z(linear, other);
                FieldElement::from_integral(nums, common)
            }
            _ => self.reduce(q_mul(a.coeffs(), b.coeffs())),
        }
    }

    /// Whether `a · b = c`. When `a` or `b` is linear the product's coordinates are formed
    /// over Z ([`NumberField::mul`]'s linear case) and compared with `c`'s by
    /// cross-multiplication, so no rational is normalized; otherwise `a · b` is formed.
    pub fn product_is(&self, a: &FieldElement, b: &FieldElement, c: &FieldElement) -> bool {
        let n = self.modulus.len() - 1;
        let (linear, other) = match (a.num.len(), b.num.len()) {
            (2, len) if n >= 2 && len <= n => (a, b),
            (len, 2) if n >= 2 && len <= n => (b, a),
            _ => return self.mul(a, b) == *c,
        };
        let (nums, common) = self.mul_linear_over_z(linear, other);
        c.num.len() <= n
            && nums.iter().enumerate().all(|(k, v)| match c.num.get(k) {
                Some(w) => v * &c.den == w * &common,
                None => v.is_zero(),
            })
    }

    /// `(c0 + c1 α) · x(α)` for `x` of degree below the field's `n`, over Z: with
    /// `x = X / D` (`X` integral), `c0 = p0/q0`, `c1 = p1/q1` and the minimal polynomial
    /// `m = Σ m_k t^k`, `α · x` shifts the coordinates and `α^n = −Σ_{k<n} (m_k / m_n) α^k`
    /// folds the top one back, so coordinate `k` is
    /// `(p0 q1 m_n X_k + p1 q0 m_n X_(k−1) − p1 q0 m_k X_(n−1)) / (D q0 q1 m_n)`: a few
    /// integer products per coordinate, over one common denominator.
    fn mul_linear_over_z(&self, linear: &FieldElement, x: &FieldElement) -> (Vec<BigInt>, BigInt) {
        let m = self.generator.poly.coeffs();
        let n = m.len() - 1;
        let den = &x.den;
        let ints: Vec<BigInt> = (0..n)
            .map(|k| x.num.get(k).cloned().unwrap_or_default())
            .collect();
        let (c0, c1) = (&linear.coeffs()[0], &linear.coeffs()[1]);
        let (p0, q0, p1, q1) = (c0.numer(), c0.denom(), c1.numer(), c1.denom());
        let lead = &m[n];
        let own = p0 * q1 * lead;
        let shifted = p1 * q0 * lead;
        let folded = p1 * q0 * &ints[n - 1];
        let common = den * q0 * q1 * lead;
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
        let den = &a.den;
        let big_a = Poly::new(a.num.clone());
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
                .map(|x| BigRational::new(x * den, c.clone()))
                .collect(),
        );
        Some(inv)
    }

    /// The inverse by the extended Euclidean algorithm over Q.
    fn inverse_over_q(&self, a: &FieldElement) -> Result<FieldElement, AlgebraicError> {
        // Extended Euclid on (m, a): s·a ≡ g (mod m) with g a nonzero constant, m irreducible.
        let (mut r0, mut r1) = (self.modulus.clone(), a.coeffs().to_vec());
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
        let (big_r, den) = a.integral();
        let values: Vec<BigInt> = (0..=n)
            .map(|x0| {
                let mut h: Vec<BigInt> = big_r.iter().map(|c| -c).collect();
                if h.is_empty() {
                    h.push(BigInt::zero());
                }
                h[0] += den * BigInt::from(x0);
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
        if a.num.len() <= 1 {
            return Ok(RealAlgebraic::from_rational(
                a.coeffs()
                    .first()
                    .cloned()
                    .unwrap_or_else(BigRational::zero),
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
            let (elo, ehi) = interval_eval(a.coeffs(), &alpha.lo, &alpha.hi);
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

/// `a ± b` over Z.
fn sum_over_z(a: &FieldElement, b: &FieldElement, subtract: bool) -> FieldElement {
    let (num, den) = add_integral((&a.num, &a.den), (&b.num, &b.den), subtract);
    FieldElement::from_integral(num, den)
}

/// `A/da ± B/db` for integer coordinates, over `lcm(da, db)` (not reduced).
fn add_integral(
    (a, da): (&[BigInt], &BigInt),
    (b, db): (&[BigInt], &BigInt),
    subtract: bool,
) -> (Vec<BigInt>, BigInt) {
    let l = crate::algebraic::integer::lcm(da, db);
    let (fa, fb) = (&l / da, &l / db);
    let num = (0..a.len().max(b.len()))
        .map(|i| {
            let x = a.get(i).map_or_else(BigInt::zero, |v| v * &fa);
            let y = b.get(i).map_or_else(BigInt::zero, |v| v * &fb);
            if subtract {
                x - y
            } else {
                x + y
            }
        })
        .collect();
    (num, l)
}

/// `c · x` over Z: the numerators times `c`'s, over the denominators' product.
fn scaled(x: &FieldElement, c: &BigRational) -> FieldElement {
    let num = x.num.iter().map(|v| v * c.numer()).collect();
    FieldElement::from_integral(num, &x.den * c.denom())
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

pub(super) fn q_mul(a: &[BigRational], b: &[BigRational]) -> Vec<BigRational> {
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
    use std::cmp::Ordering;

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
        assert_eq!(k.reduce(q_mul(linear.coeffs(), other.coeffs())), want);
        assert!(k.product_is(&other, &linear, &want));
        assert!(!k.product_is(&other, &linear, &k.element(vec![r(3, 1), r(1, 1)])));
        // 1/(1 + α) (1 + α) = 1: the rational 1 compared by cross-multiplication.
        let inv = k.inverse(&linear).unwrap();
        assert!(k.product_is(&linear, &inv, &k.rational(r(1, 1))));
    }

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
}
