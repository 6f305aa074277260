//! Exact rational numbers: fixed-width fast path, big-integer fallback, never wraps.
//!
//! [`Rational`] keeps a reduced fraction `p/q` (`q > 0`) in two `i128` words while the value
//! fits and moves to [`BigRational`] the moment an operation would overflow. Every
//! fixed-width operation is *checked*; an overflow is never an error and never a wrong
//! answer, only a slower representation. After every big operation the result is demoted
//! back to the fixed-width form when it fits, so the representation is canonical: equal
//! values have equal representations, and `Eq`/`Hash` are structural.
//!
//! Big-by-big sums and products are reduced with a Lehmer gcd of this module rather than
//! num-bigint's binary one, which shifts the whole number once per bit.
//!
//! Measured on this project's machine (see `../shared/notes` of the project): checked `i128`
//! with a big fallback costs 1–5% over unchecked `i128` on progressive-filling workloads,
//! and is 4–5× faster than always using `BigRational`.
//!
//! # Example
//! ```
//! use leontief_solver::Rational;
//! let a: Rational = "7/3".parse().unwrap();
//! let b = Rational::from_decimal_str("0.1").unwrap();
//! assert_eq!((a + b).to_string(), "73/30");
//! // Overflow moves to big integers instead of wrapping.
//! let huge = Rational::from(i128::MAX);
//! assert_eq!((huge.clone() + huge).to_string(), "340282366920938463463374607431768211454");
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::iter::{Product, Sum};
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

/// The largest decimal exponent accepted when parsing (`1e4096`); larger ones would make a
/// denial-of-service out of one short number.
pub const MAX_DECIMAL_EXPONENT: i64 = 4096;

/// An exact rational number. See the [module docs](self).
#[derive(Clone)]
pub struct Rational(Repr);

#[derive(Clone)]
enum Repr {
    /// Reduced, `den > 0`, and neither word is `i128::MIN` (so negation never overflows).
    Small { num: i128, den: i128 },
    /// Reduced, and only used when the value does not fit `Small`.
    Big(Box<BigRational>),
}

/// Why a text could not be read as a rational number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseRationalError {
    /// The text is empty.
    #[error("empty number")]
    Empty,
    /// The text is not an integer, a decimal literal or a fraction `p/q`.
    #[error("malformed number {0:?}: expected an integer, a decimal such as 2.5 or 1e-4, or a fraction such as 7/3")]
    Malformed(String),
    /// A fraction with denominator zero.
    #[error("division by zero in {0:?}")]
    DivisionByZero(String),
    /// A decimal exponent beyond [`MAX_DECIMAL_EXPONENT`].
    #[error("exponent out of range in {0:?} (at most {MAX_DECIMAL_EXPONENT} in magnitude)")]
    ExponentOutOfRange(String),
}

/// Binary GCD (no divisions), one body for both word sizes.
macro_rules! binary_gcd {
    ($name:ident, $t:ty) => {
        #[inline]
        fn $name(mut a: $t, mut b: $t) -> $t {
            if a == 0 {
                return b;
            }
            if b == 0 {
                return a;
            }
            let shift = (a | b).trailing_zeros();
            a >>= a.trailing_zeros();
            loop {
                b >>= b.trailing_zeros();
                if a > b {
                    std::mem::swap(&mut a, &mut b);
                }
                b -= a;
                if b == 0 {
                    return a << shift;
                }
            }
        }
    };
}

binary_gcd!(gcd_u64, u64);
binary_gcd!(gcd_u128_wide, u128);

#[inline]
fn gcd_u128(a: u128, b: u128) -> u128 {
    // Most values fit a machine word; 64-bit shifts and subtractions are twice as fast.
    if (a | b) >> 64 == 0 {
        return u128::from(gcd_u64(a as u64, b as u64));
    }
    gcd_u128_wide(a, b)
}

/// `a / g` for an exact divisor `g > 0`, with a 64-bit division when both fit (a 128-bit
/// division is a slow library call).
#[inline]
fn div_exact(a: i128, g: i128) -> i128 {
    if g == 1 {
        return a;
    }
    match (i64::try_from(a), i64::try_from(g)) {
        (Ok(a), Ok(g)) => i128::from(a / g),
        _ => a / g,
    }
}

#[inline]
fn gcd_i128(a: i128, b: i128) -> i128 {
    // Inputs are never i128::MIN (invariant), so unsigned_abs fits and the gcd fits i128.
    gcd_u128(a.unsigned_abs(), b.unsigned_abs()) as i128
}

impl Rational {
    /// Zero.
    pub const ZERO: Rational = Rational(Repr::Small { num: 0, den: 1 });
    /// One.
    pub const ONE: Rational = Rational(Repr::Small { num: 1, den: 1 });

    /// `num / den`, reduced. Returns `None` when `den == 0`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// assert_eq!(Rational::new(18, 2).unwrap(), Rational::from(9));
    /// assert!(Rational::new(1, 0).is_none());
    /// ```
    pub fn new(num: i128, den: i128) -> Option<Rational> {
        if den == 0 {
            return None;
        }
        if num == i128::MIN || den == i128::MIN {
            return Some(Self::from_big(BigRational::new(num.into(), den.into())));
        }
        Some(Self::small_reduced(num, den))
    }

    /// Builds from a numerator and denominator already free of `i128::MIN`, `den != 0`.
    #[inline]
    fn small_reduced(num: i128, den: i128) -> Rational {
        let g = gcd_i128(num, den);
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = -n;
            d = -d;
        }
        Rational(Repr::Small { num: n, den: d })
    }

    /// An integer.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// assert_eq!(Rational::integer(3).to_string(), "3");
    /// ```
    pub fn integer(n: i128) -> Rational {
        if n == i128::MIN {
            return Self::from_reduced_big(BigRational::from_integer(n.into()));
        }
        Rational(Repr::Small { num: n, den: 1 })
    }

    /// From a [`BigRational`] (demoted to the fast form when it fits).
    ///
    /// The input may be unreduced (`BigRational::new_raw`); it is reduced here.
    ///
    /// # Panics
    /// When the denominator is zero (only possible through `BigRational::new_raw`).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// use num_rational::BigRational;
    /// let r = Rational::from_big(BigRational::new(6.into(), 4.into()));
    /// assert_eq!(r.to_string(), "3/2");
    /// ```
    pub fn from_big(value: BigRational) -> Rational {
        // `BigRational::new_raw` can make unreduced values or negative denominators.
        let (num, den) = value.into_raw();
        Self::from_reduced_big(BigRational::new(num, den))
    }

    /// From a [`BigRational`] already reduced with a positive denominator: the results of
    /// `BigRational::new` and of its arithmetic.
    fn from_reduced_big(value: BigRational) -> Rational {
        if let (Some(n), Some(d)) = (value.numer().to_i128(), value.denom().to_i128()) {
            if n != i128::MIN && d != i128::MIN {
                return Rational(Repr::Small { num: n, den: d });
            }
        }
        Rational(Repr::Big(Box::new(value)))
    }

    /// `num / den` from big integers. Returns `None` when `den == 0`.
    pub fn from_big_parts(num: BigInt, den: BigInt) -> Option<Rational> {
        if den.is_zero() {
            return None;
        }
        Some(Self::from_reduced_big(BigRational::new(num, den)))
    }

    /// The value as a [`BigRational`].
    pub fn to_big(&self) -> BigRational {
        match &self.0 {
            Repr::Small { num, den } => BigRational::new_raw((*num).into(), (*den).into()),
            Repr::Big(b) => (**b).clone(),
        }
    }

    /// Numerator of the reduced fraction (carries the sign).
    pub fn numer(&self) -> BigInt {
        match &self.0 {
            Repr::Small { num, .. } => (*num).into(),
            Repr::Big(b) => b.numer().clone(),
        }
    }

    /// Denominator of the reduced fraction (positive).
    pub fn denom(&self) -> BigInt {
        match &self.0 {
            Repr::Small { den, .. } => (*den).into(),
            Repr::Big(b) => b.denom().clone(),
        }
    }

    /// The fixed-width parts `(num, den)` when the value is held in the fast form.
    pub fn as_small(&self) -> Option<(i128, i128)> {
        match self.0 {
            Repr::Small { num, den } => Some((num, den)),
            Repr::Big(_) => None,
        }
    }

    /// Whether the value needed big integers.
    pub fn is_big(&self) -> bool {
        matches!(self.0, Repr::Big(_))
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small { num: 0, .. })
    }

    /// Whether this is strictly positive.
    pub fn is_positive(&self) -> bool {
        self.signum() > 0
    }

    /// Whether this is strictly negative.
    pub fn is_negative(&self) -> bool {
        self.signum() < 0
    }

    /// `-1`, `0` or `1`.
    pub fn signum(&self) -> i32 {
        match &self.0 {
            Repr::Small { num, .. } => num.signum() as i32,
            Repr::Big(b) => match b.numer().sign() {
                Sign::Minus => -1,
                Sign::NoSign => 0,
                Sign::Plus => 1,
            },
        }
    }

    /// Whether the value is an integer.
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            Repr::Small { den, .. } => *den == 1,
            Repr::Big(b) => b.is_integer(),
        }
    }

    /// The absolute value.
    pub fn abs(&self) -> Rational {
        if self.is_negative() {
            -self
        } else {
            self.clone()
        }
    }

    /// `1 / self`, or `None` for zero.
    pub fn recip(&self) -> Option<Rational> {
        match &self.0 {
            Repr::Small { num: 0, .. } => None,
            Repr::Small { num, den } => {
                let (n, d) = if *num < 0 {
                    (-*den, -*num)
                } else {
                    (*den, *num)
                };
                Some(Rational(Repr::Small { num: n, den: d }))
            }
            Repr::Big(b) => Some(Self::from_reduced_big(b.recip())),
        }
    }

    /// The largest integer `<= self`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// assert_eq!(Rational::new(-7, 2).unwrap().floor(), Rational::from(-4));
    /// ```
    pub fn floor(&self) -> Rational {
        match &self.0 {
            Repr::Small { num, den } => Rational::integer(num.div_euclid(*den)),
            Repr::Big(b) => Self::from_reduced_big(b.floor()),
        }
    }

    /// The smallest integer `>= self`.
    pub fn ceil(&self) -> Rational {
        -(-self).floor()
    }

    /// The floor as a `u64`, when it is non-negative and fits (for task counts).
    pub fn floor_u64(&self) -> Option<u64> {
        match &self.floor().0 {
            Repr::Small { num, .. } => u64::try_from(*num).ok(),
            Repr::Big(_) => None,
        }
    }

    /// The nearest `f64`, for display and for seeding inexact solvers only. Never use it on
    /// an exact path.
    pub fn to_f64_lossy(&self) -> f64 {
        match &self.0 {
            Repr::Small { num, den } => {
                // Exact for |num|, den < 2^53; otherwise the big path rounds well enough.
                if num.unsigned_abs() < (1 << 53) && *den < (1 << 53) {
                    *num as f64 / *den as f64
                } else {
                    self.to_big().to_f64().unwrap_or(f64::NAN)
                }
            }
            Repr::Big(b) => b.to_f64().unwrap_or(f64::NAN),
        }
    }

    /// The minimum of two values (the first on ties).
    pub fn min(self, other: Rational) -> Rational {
        if other < self {
            other
        } else {
            self
        }
    }

    /// The maximum of two values (the first on ties).
    pub fn max(self, other: Rational) -> Rational {
        if other > self {
            other
        } else {
            self
        }
    }

    /// Reads a decimal literal exactly: `"12"`, `"-2.5"`, `"1e-4"`, `"6.02E23"`.
    ///
    /// This is how JSON numbers are read: `0.1` is exactly `1/10`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// assert_eq!(Rational::from_decimal_str("1e-4").unwrap().to_string(), "1/10000");
    /// assert_eq!(Rational::from_decimal_str("-2.50").unwrap().to_string(), "-5/2");
    /// ```
    pub fn from_decimal_str(text: &str) -> Result<Rational, ParseRationalError> {
        let malformed = || ParseRationalError::Malformed(text.to_string());
        let s = text.trim();
        if s.is_empty() {
            return Err(ParseRationalError::Empty);
        }
        let (negative, body) = match s.as_bytes()[0] {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(at) => (&body[..at], Some(&body[at + 1..])),
            None => (body, None),
        };
        let (int_part, frac_part) = match mantissa.find('.') {
            Some(at) => (&mantissa[..at], &mantissa[at + 1..]),
            None => (mantissa, ""),
        };
        let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if (int_part.is_empty() && frac_part.is_empty())
            || !all_digits(int_part)
            || !all_digits(frac_part)
        {
            return Err(malformed());
        }
        let mut exp: i64 = match exponent {
            None => 0,
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty() || !all_digits(digits) {
                    return Err(malformed());
                }
                // JSON allows leading zeros in the exponent (`1e0000001`): count the rest.
                if digits.trim_start_matches('0').len() > 6 {
                    return Err(ParseRationalError::ExponentOutOfRange(text.to_string()));
                }
                e.parse::<i64>().map_err(|_| malformed())?
            }
        };
        exp -= frac_part.len() as i64;
        let digits = format!("{int_part}{frac_part}");
        let digits = digits.trim_start_matches('0');
        if digits.is_empty() {
            return Ok(Rational::ZERO);
        }
        if exp.abs() > MAX_DECIMAL_EXPONENT + digits.len() as i64 {
            return Err(ParseRationalError::ExponentOutOfRange(text.to_string()));
        }
        let mut num: BigInt = digits.parse().map_err(|_| malformed())?;
        if negative {
            num = -num;
        }
        let ten = BigInt::from(10);
        let scale = num_traits::pow(ten, exp.unsigned_abs() as usize);
        let value = if exp >= 0 {
            BigRational::from_integer(num * scale)
        } else {
            BigRational::new(num, scale)
        };
        Ok(Rational::from_reduced_big(value))
    }

    #[cold]
    fn big_op(
        a: &Rational,
        b: &Rational,
        op: fn(BigRational, BigRational) -> BigRational,
    ) -> Rational {
        Rational::from_reduced_big(op(a.to_big(), b.to_big()))
    }

    #[inline]
    fn add_ref(&self, other: &Rational) -> Rational {
        if let (Repr::Small { num: a, den: b }, Repr::Small { num: c, den: d }) =
            (&self.0, &other.0)
        {
            if let Some(r) = small_add(*a, *b, *c, *d) {
                return r;
            }
        }
        match (&self.0, &other.0) {
            (Repr::Big(x), Repr::Small { num, den }) | (Repr::Small { num, den }, Repr::Big(x)) => {
                add_big_small(x, *num, *den)
            }
            (Repr::Big(x), Repr::Big(y)) => add_big_big(x, y),
            _ => Self::big_op(self, other, |x, y| x + y),
        }
    }

    #[inline]
    fn mul_ref(&self, other: &Rational) -> Rational {
        if let (Repr::Small { num: a, den: b }, Repr::Small { num: c, den: d }) =
            (&self.0, &other.0)
        {
            if let Some(r) = small_mul(*a, *b, *c, *d) {
                return r;
            }
        }
        match (&self.0, &other.0) {
            (Repr::Big(x), Repr::Small { num, den }) | (Repr::Small { num, den }, Repr::Big(x)) => {
                mul_big_small(x, *num, *den)
            }
            (Repr::Big(x), Repr::Big(y)) => mul_big_big(x, y),
            _ => Self::big_op(self, other, |x, y| x * y),
        }
    }

    /// `self / other`, or `None` when `other` is zero.
    pub fn checked_div(&self, other: &Rational) -> Option<Rational> {
        Some(self.mul_ref(&other.recip()?))
    }
}

/// `gcd(big, small)` for `small > 0`, through one remainder by a machine word: no
/// big-integer gcd (num-bigint's is a binary gcd, quadratic in the size of `big`).
fn gcd_big_small(big: &BigInt, small: i128) -> i128 {
    let rem = big.magnitude() % small.unsigned_abs();
    gcd_u128(
        rem.to_u128().expect("a remainder is below the divisor"),
        small.unsigned_abs(),
    ) as i128
}

/// `(p/q) * (a/b)` with `p/q` reduced and big, `a/b` reduced and small: cross-cancel with
/// two small gcds, so the product is reduced without any big gcd.
#[cold]
fn mul_big_small(x: &BigRational, a: i128, b: i128) -> Rational {
    if a == 0 {
        return Rational::ZERO;
    }
    let (p, q) = (x.numer(), x.denom());
    let g1 = gcd_big_small(p, b); // divides p and b
    let g2 = gcd_big_small(q, a); // divides q and a
    let num = (p / BigInt::from(g1)) * BigInt::from(a / g2);
    let den = (q / BigInt::from(g2)) * BigInt::from(b / g1);
    Rational::from_reduced_big(BigRational::new_raw(num, den))
}

/// `p/q + a/b` with `p/q` big and `a/b` small, both reduced: Knuth's addition (TAOCP 4.5.1),
/// whose gcds are with `gcd(q, b) <= b`, so all of them are small.
#[cold]
fn add_big_small(x: &BigRational, a: i128, b: i128) -> Rational {
    let (p, q) = (x.numer(), x.denom());
    let d1 = gcd_big_small(q, b);
    let q_d1 = q / BigInt::from(d1);
    let b_d1 = BigInt::from(b / d1);
    // t = p (b/d1) + a (q/d1); the sum is t / (q/d1 * b), reduced by gcd(t, d1).
    let t = p * &b_d1 + BigInt::from(a) * &q_d1;
    let d2 = if d1 == 1 { 1 } else { gcd_big_small(&t, d1) };
    let num = t / BigInt::from(d2);
    let den = q_d1 * BigInt::from(b / d2);
    Rational::from_reduced_big(BigRational::new_raw(num, den))
}

/// `gcd(|a|, |b|)` of big integers, for the big-by-big operations below.
///
/// num-bigint's own gcd (used by `BigRational`'s arithmetic) is Stein's binary algorithm: one
/// shift and subtraction of the whole number per bit, and as slow for `gcd(huge, small)` as
/// for two huge numbers. Here: a remainder step while the sizes differ by 32 bits or more (one
/// division removes them), and Lehmer's steps while they are close (Knuth, TAOCP 4.5.2,
/// Algorithm L, on the leading 62 bits, twice per step — see [`lehmer_step`]): each step runs,
/// on machine words, the Euclidean quotients that the leading bits determine, then applies
/// them to the full numbers in one pass over their 64-bit limbs per result, removing about
/// 60 bits per pass instead of one.
///
/// # Complexity
/// `O(n²/w²)` limb operations for `n`-bit inputs (`w = 64`): `O(n/60)` passes of `O(n/w)`.
fn gcd_big(a: &BigInt, b: &BigInt) -> BigInt {
    let mut u = a.magnitude().to_u64_digits();
    let mut v = b.magnitude().to_u64_digits();
    if cmp_limbs(&u, &v) == Ordering::Less {
        std::mem::swap(&mut u, &mut v);
    }
    // Invariant: u >= v, both without high zero limbs, and gcd(u, v) is the answer.
    loop {
        if v.is_empty() {
            return BigInt::from(limbs_to_biguint(&u));
        }
        let bits = bit_len(&u);
        if bits <= 128 {
            return BigInt::from(gcd_u128(limbs_to_u128(&u), limbs_to_u128(&v)));
        }
        if bits - bit_len(&v) >= 32 || !lehmer_step(&mut u, &mut v, bits) {
            // A remainder step (num-bigint's division, not its gcd).
            let r = limbs_to_biguint(&u) % limbs_to_biguint(&v);
            u = std::mem::replace(&mut v, r.to_u64_digits());
        }
    }
}

/// A cofactor matrix `(a, b, c, d)`: `(u, v) -> (a u + b v, c u + d v)`.
type Cofactors = (i64, i64, i64, i64);

/// One step of Algorithm L on `u >= v` (`bits` the length of `u`, above 128): replaces them
/// by a smaller pair with the same gcd, larger first — normally two later remainders of
/// their Euclidean sequence. `false` (nothing changed) when the leading bits determine no
/// quotient, so that the caller divides.
///
/// A step takes about 60 bits, not 30: the quotients that the leading 62 bits determine are
/// applied to the leading three limbs only, a second matrix is drawn from the result's
/// leading bits, and the product of both is applied to the full numbers in one pass per
/// result. The leading limbs stand for the full numbers only approximately, so the second
/// matrix may take a quotient the full numbers do not. That cannot make the gcd wrong: every
/// matrix here is a product of `((0, 1), (1, −q))`, of determinant ±1, so the new pair has
/// the same gcd. A product that would leave a negative number or make no progress is
/// dropped for the first matrix alone, whose quotients are Knuth's. (GMP's `hgcd2` takes
/// two limbs per step in the same spirit; measured against GMP 6.3 through `rug`, a
/// reduced addition of 51,000-bit fractions went from 1.9× to 1.3× GMP's time.)
fn lehmer_step(u: &mut Vec<u64>, v: &mut Vec<u64>, bits: u64) -> bool {
    let shift = bits - 62;
    // The leading 62 bits of both (same shift).
    let Some(first) = lehmer_matrix(bits_at(u, shift) as i64, bits_at(v, shift) as i64) else {
        return false;
    };
    if let Some(both) = second_matrix(u, v, first) {
        if apply_cofactors(u, v, both) {
            return true;
        }
    }
    apply_cofactors(u, v, first)
}

/// Algorithm L's quotient loop on the leading bits `uh >= vh` of two numbers: the product of
/// the quotient steps that both bounds agree on, or `None` when they agree on none.
fn lehmer_matrix(mut uh: i64, mut vh: i64) -> Option<Cofactors> {
    // (u, v) -> (A u + B v, C u + D v); the quotient is taken only when both bounds agree.
    let (mut ca, mut cb, mut cc, mut cd) = (1i64, 0i64, 0i64, 1i64);
    loop {
        let (d1, d2) = (vh + cc, vh + cd);
        let (n1, n2) = (uh + ca, uh + cb);
        if d1 <= 0 || d2 <= 0 || n1 < 0 || n2 < 0 {
            break;
        }
        let q = n1 / d1;
        if q != n2 / d2 {
            break;
        }
        // Knuth's bounds keep the cofactors below 2^62; checked, so that no sum can overflow.
        let step = |x: i64, y: i64| {
            q.checked_mul(y)
                .and_then(|qy| x.checked_sub(qy))
                .filter(|r| r.unsigned_abs() < 1 << 62)
        };
        let (Some(nc), Some(nd)) = (step(ca, cc), step(cb, cd)) else {
            break;
        };
        (ca, cc) = (cc, nc);
        (cb, cd) = (cd, nd);
        // q is at most the smaller bound, itself at most uh / vh: q·vh <= uh.
        (uh, vh) = (vh, uh - q * vh);
    }
    let matrix = (ca, cb, cc, cd);
    // No quotient taken leaves the identity; a taken one gives each row opposite signs.
    opposite_rows(matrix).then_some(matrix)
}

/// Whether each row of the matrix has one negative and one positive entry.
fn opposite_rows((a, b, c, d): Cofactors) -> bool {
    b != 0 && (a < 0) != (b < 0) && (c < 0) != (d < 0)
}

/// The first matrix's quotients applied to the leading three limbs of `u` and `v`, and the
/// product of a second matrix, drawn from the result's leading 62 bits, with the first; `None`
/// when the leading limbs leave too few bits to trust or the product outgrows the cofactors
/// [`combine`] takes.
fn second_matrix(u: &[u64], v: &[u64], first: Cofactors) -> Option<Cofactors> {
    let (a1, b1, c1, d1) = first;
    // v has at most 31 bits fewer than u (the caller divides otherwise), so both slices have
    // two or three limbs. The dropped low limbs move the results by less than 2^63 units of
    // the kept ones (cofactors below 2^62).
    let at = u.len() - 3;
    let (top_u, top_v) = (&u[at..], &v[at.min(v.len())..]);
    let (nu, nv) = combine(top_u, top_v, first)?;
    let bits = bit_len(&nu);
    // 62 bits taken above an error below 2^63, with 7 bits to spare.
    if bits < 62 + 63 + 7 || cmp_limbs(&nu, &nv) == Ordering::Less || bits - bit_len(&nv) >= 32 {
        return None;
    }
    let shift = bits - 62;
    let (a2, b2, c2, d2) = lehmer_matrix(bits_at(&nu, shift) as i64, bits_at(&nv, shift) as i64)?;
    let dot = |x: i64, y: i64, z: i64, w: i64| {
        x.checked_mul(y)?
            .checked_add(z.checked_mul(w)?)
            .filter(|r| *r != i64::MIN)
    };
    let product = (
        dot(a2, a1, b2, c1)?,
        dot(a2, b1, b2, d1)?,
        dot(c2, a1, d2, c1)?,
        dot(c2, b1, d2, d1)?,
    );
    opposite_rows(product).then_some(product)
}

/// Replaces `(u, v)` by the cofactors' combinations, larger first, when both are
/// nonnegative and the larger is below the old `u` (progress); `false`, and nothing
/// changed, otherwise.
fn apply_cofactors(u: &mut Vec<u64>, v: &mut Vec<u64>, cofactors: Cofactors) -> bool {
    let Some((nu, nv)) = combine(u, v, cofactors) else {
        // A negative result: only from a second matrix drawn from inexact leading bits (the
        // step then applies the first alone); never from Knuth's quotients.
        return false;
    };
    let (nu, nv) = if cmp_limbs(&nu, &nv) == Ordering::Less {
        (nv, nu)
    } else {
        (nu, nv)
    };
    if cmp_limbs(&nu, u) != Ordering::Less {
        return false;
    }
    *u = nu;
    *v = nv;
    true
}

/// `(a u + b v, c u + d v)` for rows of opposite signs, entries below 2^63 in magnitude;
/// `None` when either is negative. (One pass per row: a single pass computing both rows
/// measured 11–16% slower at 51,000 bits.)
fn combine(u: &[u64], v: &[u64], (a, b, c, d): Cofactors) -> Option<(Vec<u64>, Vec<u64>)> {
    Some((combine_row(u, v, a, b)?, combine_row(u, v, c, d)?))
}

/// `x u + y v` for cofactors of opposite signs, below 2^63 in magnitude, in one pass over
/// the limbs with a signed carry; `None` when it is negative.
fn combine_row(u: &[u64], v: &[u64], x: i64, y: i64) -> Option<Vec<u64>> {
    let (mx, my) = (x.unsigned_abs(), y.unsigned_abs());
    let negate = x < 0;
    let mut out = Vec::with_capacity(u.len());
    let mut carry = 0i128;
    let mut limb = |a: u64, b: u64| {
        // A word times a cofactor below 2^63 is below 2^127: the products, their difference
        // and the carry (below 2^63) are exact in i128, so wrapping operations are exact.
        let px = (u128::from(a) * u128::from(mx)) as i128;
        let py = (u128::from(b) * u128::from(my)) as i128;
        let d = if negate {
            py.wrapping_sub(px)
        } else {
            px.wrapping_sub(py)
        };
        let s = carry.wrapping_add(d);
        out.push(s as u64); // the low limb (two's complement)
        carry = s >> 64;
    };
    let (low, high) = u.split_at(v.len());
    for (&a, &b) in low.iter().zip(v) {
        limb(a, b);
    }
    for &a in high {
        limb(a, 0);
    }
    if carry != 0 {
        return None;
    }
    trim_limbs(&mut out);
    Some(out)
}

fn trim_limbs(x: &mut Vec<u64>) {
    while x.last() == Some(&0) {
        x.pop();
    }
}

fn bit_len(x: &[u64]) -> u64 {
    x.last().map_or(0, |&top| {
        64 * (x.len() as u64 - 1) + u64::from(64 - top.leading_zeros())
    })
}

fn cmp_limbs(x: &[u64], y: &[u64]) -> Ordering {
    x.len()
        .cmp(&y.len())
        .then_with(|| x.iter().rev().cmp(y.iter().rev()))
}

/// Bits `shift .. shift + 128` of `x`.
fn bits_at(x: &[u64], shift: u64) -> u128 {
    let (word, bit) = ((shift / 64) as usize, shift % 64);
    let limb = |i: usize| u128::from(x.get(i).copied().unwrap_or(0));
    let low = limb(word) | (limb(word + 1) << 64);
    if bit == 0 {
        low
    } else {
        (low >> bit) | (limb(word + 2) << (128 - bit))
    }
}

fn limbs_to_u128(x: &[u64]) -> u128 {
    bits_at(x, 0)
}

fn limbs_to_biguint(x: &[u64]) -> BigUint {
    BigUint::new(
        x.iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect(),
    )
}

/// `a / g` for an exact divisor `g`, skipping the division by one.
fn div_exact_big(a: &BigInt, g: &BigInt) -> BigInt {
    if g.is_one() {
        a.clone()
    } else {
        a / g
    }
}

/// `p/q + r/s`, both big and reduced: Knuth's addition (TAOCP 4.5.1) with [`gcd_big`]: the
/// only gcds are `d1 = gcd(q, s)` and `gcd(t, d1)`, never one of the full-size sum with its
/// denominator (which `BigRational`'s addition computes, with a binary gcd).
#[cold]
fn add_big_big(x: &BigRational, y: &BigRational) -> Rational {
    let (p, q) = (x.numer(), x.denom());
    let (r, s) = (y.numer(), y.denom());
    let d1 = if q == s { q.clone() } else { gcd_big(q, s) };
    let (num, den) = if d1.is_one() {
        (p * s + r * q, q * s)
    } else {
        let q1 = div_exact_big(q, &d1);
        let t = p * div_exact_big(s, &d1) + r * &q1;
        if t.is_zero() {
            return Rational::ZERO;
        }
        let d2 = gcd_big(&t, &d1);
        (div_exact_big(&t, &d2), q1 * div_exact_big(s, &d2))
    };
    Rational::from_reduced_big(BigRational::new_raw(num, den))
}

/// `(p/q)(r/s)`, both big and reduced: cross-cancel with `gcd(p, s)` and `gcd(r, q)`
/// ([`gcd_big`]), so the product is reduced.
#[cold]
fn mul_big_big(x: &BigRational, y: &BigRational) -> Rational {
    let (p, q) = (x.numer(), x.denom());
    let (r, s) = (y.numer(), y.denom());
    let g1 = gcd_big(p, s);
    let g2 = gcd_big(r, q);
    let num = div_exact_big(p, &g1) * div_exact_big(r, &g2);
    let den = div_exact_big(q, &g2) * div_exact_big(s, &g1);
    Rational::from_reduced_big(BigRational::new_raw(num, den))
}

#[inline]
fn small_add(a: i128, b: i128, c: i128, d: i128) -> Option<Rational> {
    // Knuth, TAOCP 4.5.1: with d1 = gcd(b, d), t = a (d/d1) + c (b/d1) and d2 = gcd(t, d1),
    // the sum is (t/d2) / ((b/d1)(d/d2)), already reduced; the only gcds involve d1 <= b.
    let d1 = if b == d { b } else { gcd_i128(b, d) };
    let t = a
        .checked_mul(div_exact(d, d1))?
        .checked_add(c.checked_mul(div_exact(b, d1))?)?;
    if t == 0 {
        return Some(Rational::ZERO);
    }
    let d2 = if d1 == 1 { 1 } else { gcd_i128(t, d1) };
    let num = div_exact(t, d2);
    let den = div_exact(b, d1).checked_mul(div_exact(d, d2))?;
    if num == i128::MIN || den == i128::MIN {
        return None;
    }
    Some(Rational(Repr::Small { num, den }))
}

#[inline]
fn small_mul(a: i128, b: i128, c: i128, d: i128) -> Option<Rational> {
    if a == 0 || c == 0 {
        return Some(Rational::ZERO);
    }
    let g1 = gcd_i128(a, d);
    let g2 = gcd_i128(c, b);
    let n = div_exact(a, g1).checked_mul(div_exact(c, g2))?;
    let den = div_exact(b, g2).checked_mul(div_exact(d, g1))?;
    if n == i128::MIN || den == i128::MIN {
        return None;
    }
    // Already reduced: cross gcds removed, inputs were reduced.
    Some(Rational(Repr::Small { num: n, den }))
}

impl Default for Rational {
    fn default() -> Self {
        Rational::ZERO
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Rational {
            fn from(n: $t) -> Self { Rational::integer(n as i128) }
        }
    )*};
}
from_int!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

impl From<i128> for Rational {
    fn from(n: i128) -> Self {
        Rational::integer(n)
    }
}

impl From<BigInt> for Rational {
    fn from(n: BigInt) -> Self {
        Rational::from_reduced_big(BigRational::from_integer(n))
    }
}

impl From<BigRational> for Rational {
    fn from(r: BigRational) -> Self {
        Rational::from_big(r)
    }
}

impl PartialEq for Rational {
    fn eq(&self, other: &Self) -> bool {
        // Canonical representation: structural equality is value equality.
        match (&self.0, &other.0) {
            (Repr::Small { num: a, den: b }, Repr::Small { num: c, den: d }) => a == c && b == d,
            (Repr::Big(x), Repr::Big(y)) => x == y,
            _ => false,
        }
    }
}
impl Eq for Rational {}

impl Hash for Rational {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match &self.0 {
            Repr::Small { num, den } => {
                0u8.hash(state);
                num.hash(state);
                den.hash(state);
            }
            Repr::Big(b) => {
                1u8.hash(state);
                b.hash(state);
            }
        }
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Self) -> Ordering {
        if let (Repr::Small { num: a, den: b }, Repr::Small { num: c, den: d }) =
            (&self.0, &other.0)
        {
            if b == d {
                return a.cmp(c);
            }
            if let (Some(l), Some(r)) = (a.checked_mul(*d), c.checked_mul(*b)) {
                return l.cmp(&r);
            }
        }
        self.to_big().cmp(&other.to_big())
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Neg for &Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        match &self.0 {
            Repr::Small { num, den } => Rational(Repr::Small {
                num: -*num,
                den: *den,
            }),
            Repr::Big(b) => Rational::from_reduced_big(-(**b).clone()),
        }
    }
}
impl Neg for Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        -&self
    }
}

macro_rules! binop {
    ($Tr:ident, $m:ident, $TrA:ident, $ma:ident, $body:expr) => {
        impl $Tr<&Rational> for &Rational {
            type Output = Rational;
            #[inline]
            fn $m(self, rhs: &Rational) -> Rational {
                let f: fn(&Rational, &Rational) -> Rational = $body;
                f(self, rhs)
            }
        }
        impl $Tr<Rational> for Rational {
            type Output = Rational;
            #[inline]
            fn $m(self, rhs: Rational) -> Rational {
                (&self).$m(&rhs)
            }
        }
        impl $Tr<&Rational> for Rational {
            type Output = Rational;
            #[inline]
            fn $m(self, rhs: &Rational) -> Rational {
                (&self).$m(rhs)
            }
        }
        impl $Tr<Rational> for &Rational {
            type Output = Rational;
            #[inline]
            fn $m(self, rhs: Rational) -> Rational {
                self.$m(&rhs)
            }
        }
        impl $TrA<&Rational> for Rational {
            #[inline]
            fn $ma(&mut self, rhs: &Rational) {
                *self = (&*self).$m(rhs);
            }
        }
        impl $TrA<Rational> for Rational {
            #[inline]
            fn $ma(&mut self, rhs: Rational) {
                *self = (&*self).$m(&rhs);
            }
        }
    };
}

binop!(Add, add, AddAssign, add_assign, |a, b| a.add_ref(b));
binop!(Sub, sub, SubAssign, sub_assign, |a, b| a.add_ref(&-b));
binop!(Mul, mul, MulAssign, mul_assign, |a, b| a.mul_ref(b));
// Division by zero panics, as for the integer types; use `checked_div` where it can happen.
binop!(Div, div, DivAssign, div_assign, |a, b| a
    .checked_div(b)
    .expect("Rational division by zero"));

impl Sum for Rational {
    fn sum<I: Iterator<Item = Rational>>(iter: I) -> Rational {
        iter.fold(Rational::ZERO, |acc, x| acc + x)
    }
}
impl<'a> Sum<&'a Rational> for Rational {
    fn sum<I: Iterator<Item = &'a Rational>>(iter: I) -> Rational {
        iter.fold(Rational::ZERO, |acc, x| acc + x)
    }
}
impl Product for Rational {
    fn product<I: Iterator<Item = Rational>>(iter: I) -> Rational {
        iter.fold(Rational::ONE, |acc, x| acc * x)
    }
}

impl Zero for Rational {
    fn zero() -> Self {
        Rational::ZERO
    }
    fn is_zero(&self) -> bool {
        Rational::is_zero(self)
    }
}
impl One for Rational {
    fn one() -> Self {
        Rational::ONE
    }
}

impl fmt::Display for Rational {
    /// Reduced `p/q`, or `p` for integers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small { num, den: 1 } => write!(f, "{num}"),
            Repr::Small { num, den } => write!(f, "{num}/{den}"),
            Repr::Big(b) if b.is_integer() => write!(f, "{}", b.numer()),
            Repr::Big(b) => write!(f, "{}/{}", b.numer(), b.denom()),
        }
    }
}

impl fmt::Debug for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Rational {
    type Err = ParseRationalError;

    /// Reads `"7"`, `"2.5"`, `"1e-4"`, `"7/3"`, `"-7/3"`, `"0.5/3"` (each side of `/` a
    /// decimal literal).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let s = text.trim();
        if s.is_empty() {
            return Err(ParseRationalError::Empty);
        }
        match s.split_once('/') {
            None => Rational::from_decimal_str(s),
            Some((p, q)) => {
                let malformed = |_| ParseRationalError::Malformed(text.to_string());
                let p = Rational::from_decimal_str(p).map_err(malformed)?;
                let q = Rational::from_decimal_str(q).map_err(malformed)?;
                p.checked_div(&q)
                    .ok_or_else(|| ParseRationalError::DivisionByZero(text.to_string()))
            }
        }
    }
}

impl serde::Serialize for Rational {
    /// As the exact string `"p/q"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Rational {
    /// From a string (`"7/3"`) or a JSON number read exactly from its text.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Rational::from_json(&value).map_err(serde::de::Error::custom)
    }
}

impl Rational {
    /// Reads a JSON value exactly: a number literal from its text, or a string.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// let v: serde_json::Value = serde_json::from_str("0.1").unwrap();
    /// assert_eq!(Rational::from_json(&v).unwrap(), "1/10".parse().unwrap());
    /// ```
    pub fn from_json(value: &serde_json::Value) -> Result<Rational, ParseRationalError> {
        match value {
            // With serde_json's `arbitrary_precision`, to_string() is the literal's own text.
            serde_json::Value::Number(n) => Rational::from_decimal_str(&n.to_string()),
            serde_json::Value::String(s) => s.parse(),
            other => Err(ParseRationalError::Malformed(other.to_string())),
        }
    }

    /// `self` as a big integer when it is an integer.
    pub fn to_bigint(&self) -> Option<BigInt> {
        self.is_integer().then(|| self.numer())
    }

    /// Total bits of numerator and denominator: a measure of how large the value has grown.
    pub fn bits(&self) -> u64 {
        match &self.0 {
            Repr::Small { num, den } => {
                (128 - num.unsigned_abs().leading_zeros() as u64)
                    + (128 - den.unsigned_abs().leading_zeros() as u64)
            }
            Repr::Big(b) => b.numer().bits() + b.denom().bits(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_integer::Integer;
    use proptest::prelude::*;

    fn r(s: &str) -> Rational {
        s.parse().unwrap()
    }

    /// A big integer from limbs (the strategies below draw limbs).
    fn from_limbs(limbs: &[u64]) -> BigInt {
        BigInt::from(limbs_to_biguint(limbs))
    }

    /// Consecutive Fibonacci numbers: every Euclidean quotient is 1, Lehmer's worst case.
    #[test]
    fn gcd_big_of_consecutive_fibonacci_numbers_is_one() {
        let (mut a, mut b) = (BigInt::one(), BigInt::one());
        for k in 2..6000 {
            (a, b) = (b.clone(), a + b);
            if k % 97 == 0 {
                assert!(gcd_big(&a, &b).is_one(), "F_{k}, F_{}", k + 1);
                // A multiple of F_k has gcd F_k with it.
                assert_eq!(gcd_big(&(&b * &a), &a), a.clone());
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Lehmer's gcd agrees with num-bigint's (binary) gcd on numbers of 2 to 160 limbs
        /// with a common factor, of equal or different lengths, and with signs.
        #[test]
        fn gcd_big_matches_num_bigint(
            x in prop::collection::vec(any::<u64>(), 1..80),
            y in prop::collection::vec(any::<u64>(), 1..80),
            g in prop::collection::vec(any::<u64>(), 1..80),
            small_quotients in any::<bool>(),
            negate in any::<bool>(),
        ) {
            let g = from_limbs(&g);
            let a = from_limbs(&x) * &g;
            // Close values give long runs of small quotients; unrelated ones, the usual mix.
            let b = if small_quotients { &a + from_limbs(&y) } else { from_limbs(&y) * &g };
            let a = if negate { -a } else { a };
            let expected = a.gcd(&b);
            prop_assert_eq!(gcd_big(&a, &b), expected.clone());
            prop_assert_eq!(gcd_big(&b, &a), expected);
        }
    }

    /// A cofactor matrix whose quotient is too large (as a second matrix drawn from leading
    /// bits that are off could be) leaves a negative number: it is refused and the pair is
    /// left as it was, so that the step falls back to the first matrix.
    #[test]
    fn cofactors_that_overshoot_are_refused() {
        // u = v + r1, v = r1 + r2: both quotients are 1.
        let mut u = vec![27, 0, 0, 1 << 2]; // 2^194 + 27
        let mut v = vec![16, 0, 0, 1 << 1]; // 2^193 + 16
        let (u0, v0) = (u.clone(), v.clone());
        // Quotients 1 and 2: the second remainder, v - 2 r1, is negative.
        assert!(!apply_cofactors(&mut u, &mut v, (1, -1, -2, 3)));
        assert_eq!((&u, &v), (&u0, &v0));
        // The true quotients: (r1, r2) = (2^193 + 11, 5).
        assert!(apply_cofactors(&mut u, &mut v, (1, -1, -1, 2)));
        assert_eq!((u, v), (vec![11, 0, 0, 1 << 1], vec![5]));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The same with limbs of all ones, all zeros or one bit: the dropped low limbs of a
        /// double Lehmer step then carry into the leading ones as much as they can, which is
        /// where the second matrix's leading bits can be off (the gcd must not be).
        #[test]
        fn gcd_big_matches_num_bigint_on_extreme_limbs(
            x in prop::collection::vec(prop_oneof![Just(u64::MAX), Just(0u64), Just(1u64), Just(1u64 << 63), any::<u64>()], 3..60),
            y in prop::collection::vec(prop_oneof![Just(u64::MAX), Just(0u64), Just(1u64), Just(1u64 << 63), any::<u64>()], 1..60),
            g in prop::collection::vec(prop_oneof![Just(u64::MAX), Just(1u64), any::<u64>()], 1..20),
            offset in prop::collection::vec(prop_oneof![Just(u64::MAX), Just(0u64), any::<u64>()], 1..4),
        ) {
            let g = from_limbs(&g);
            let a = from_limbs(&x) * &g;
            let b = &a + from_limbs(&y) * &g;
            // Nearly equal numbers: many quotients of 1 drawn from the leading bits.
            let c = &a + from_limbs(&offset);
            for (p, q) in [(&a, &b), (&a, &c), (&b, &c)] {
                let expected = p.gcd(q);
                prop_assert_eq!(gcd_big(p, q), expected.clone());
                prop_assert_eq!(gcd_big(q, p), expected);
            }
        }
    }

    #[test]
    fn parses_every_documented_form() {
        assert_eq!(r("7"), Rational::from(7));
        assert_eq!(r("2.5"), Rational::new(5, 2).unwrap());
        assert_eq!(r("7/3").to_string(), "7/3");
        assert_eq!(r("-7/3").to_string(), "-7/3");
        assert_eq!(r("1e-4").to_string(), "1/10000");
        assert_eq!(r("0.1").to_string(), "1/10");
        assert_eq!(r("18/2").to_string(), "9");
        assert_eq!(r("1.5E2").to_string(), "150");
        assert_eq!(r("0.000").to_string(), "0");
    }

    #[test]
    fn rejects_malformed_text() {
        for bad in [
            "", "abc", "1/", "/2", "1.2.3", "--1", "1e", "e5", ".", "1/2/3", "0x10",
        ] {
            assert!(bad.parse::<Rational>().is_err(), "{bad:?} was accepted");
        }
        assert_eq!(
            "7/0".parse::<Rational>(),
            Err(ParseRationalError::DivisionByZero("7/0".into()))
        );
        assert!(matches!(
            "1e99999999".parse::<Rational>(),
            Err(ParseRationalError::ExponentOutOfRange(_))
        ));
    }

    #[test]
    fn overflow_falls_back_and_demotes() {
        let big = Rational::from(i128::MAX);
        let sum = &big + &big;
        assert!(sum.is_big());
        let back = &sum - &big;
        assert!(!back.is_big());
        assert_eq!(back, big);
        let tiny = Rational::new(1, i128::MAX).unwrap();
        let sq = &tiny * &tiny;
        assert!(sq.is_big());
        assert_eq!(&sq * &big * &big, Rational::ONE);
    }

    #[test]
    fn min_is_never_stored_small() {
        let m = Rational::from(i128::MIN);
        assert!(m.is_big());
        assert_eq!((-&m).to_string(), "170141183460469231731687303715884105728");
        let neg_max = -Rational::from(i128::MAX);
        assert_eq!(&neg_max - &Rational::ONE, m);
    }
}
