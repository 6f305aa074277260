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
//! Measured on progressive-filling workloads: checked `i128` with a big fallback costs 1–5%
//! over unchecked `i128`, and is 4–5× faster than always using `BigRational`.
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
//!
//! # Layout
//! - this file: the [`Rational`] type, its invariants and its arithmetic (the fixed-width
//!   fast path and the cross-cancelling big-integer operations);
//! - `gcd.rs`: greatest common divisors, on machine words (binary) and on big integers
//!   (Lehmer), kept apart because the big one is a small algorithm of its own;
//! - `parse.rs`: reading (decimal literals, fractions, JSON) and writing (`p/q`) the
//!   numbers, with [`ParseRationalError`];
//! - `decimal.rs`: writing a value correctly rounded to `N` significant digits
//!   ([`Rational::to_decimal`], ties to even, never through `f64`).

mod decimal;
mod gcd;
mod parse;

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::iter::{Product, Sum};
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use std::sync::Arc;

use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

pub use decimal::{write_literal_decimal, write_ratio_decimal, DecimalBounds};
use gcd::{gcd_big, gcd_big_small, gcd_i128};
pub use parse::{ParseRationalError, MAX_DECIMAL_EXPONENT};

/// An exact rational number. See the [module docs](self).
#[derive(Clone)]
pub struct Rational(Repr);

#[derive(Clone)]
enum Repr {
    /// Reduced, `den > 0`, and neither word is `i128::MIN` (so negation never overflows).
    Small { num: i128, den: i128 },
    /// Reduced, and only used when the value does not fit `Small`. Shared, not boxed:
    /// a clone (one level copied to every user frozen at it) costs a count, not the digits.
    Big(Arc<BigRational>),
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
        if let (Some(n), Some(d)) = (value.numer().to_i128(), value.denom().to_i128())
            && n != i128::MIN
            && d != i128::MIN
        {
            return Rational(Repr::Small { num: n, den: d });
        }
        Rational(Repr::Big(Arc::new(value)))
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
        self.combine(other, small_add, add_big_small, add_big_big, |x, y| x + y)
    }

    #[inline]
    fn mul_ref(&self, other: &Rational) -> Rational {
        self.combine(other, small_mul, mul_big_small, mul_big_big, |x, y| x * y)
    }

    /// `self ∘ other` for a commutative operation, by its kernels: on two small fractions
    /// (`None` on overflow), on a big and a small one (in either order), on two big ones,
    /// and on two small ones whose result overflows. Generic, so that each operation gets
    /// its own copy with direct calls.
    #[inline(always)]
    fn combine(
        &self,
        other: &Rational,
        small: impl Fn(i128, i128, i128, i128) -> Option<Rational>,
        big_small: impl Fn(&BigRational, i128, i128) -> Rational,
        big_big: impl Fn(&BigRational, &BigRational) -> Rational,
        overflow: fn(BigRational, BigRational) -> BigRational,
    ) -> Rational {
        if let (Repr::Small { num: a, den: b }, Repr::Small { num: c, den: d }) =
            (&self.0, &other.0)
            && let Some(r) = small(*a, *b, *c, *d)
        {
            return r;
        }
        match (&self.0, &other.0) {
            (Repr::Big(x), Repr::Small { num, den }) | (Repr::Small { num, den }, Repr::Big(x)) => {
                big_small(x, *num, *den)
            }
            (Repr::Big(x), Repr::Big(y)) => big_big(x, y),
            _ => Self::big_op(self, other, overflow),
        }
    }

    /// `self / other`, or `None` when `other` is zero.
    pub fn checked_div(&self, other: &Rational) -> Option<Rational> {
        Some(self.mul_ref(&other.recip()?))
    }
}

/// `(p/q) * (a/b)` with `p/q` reduced and big, `a/b` reduced and small: cross-cancel with
/// two small gcds, so the product is reduced without any big gcd.
#[cold]
fn mul_big_small(x: &BigRational, a: i128, b: i128) -> Rational {
    if a == 0 {
        return Rational::ZERO;
    }
    let (p, q) = (x.numer(), x.denom());
    // gcd(·, ±1) = 1 without a remainder (integer factors are the common case).
    let g1 = if b == 1 { 1 } else { gcd_big_small(p, b) }; // divides p and b
    let g2 = if a.unsigned_abs() == 1 {
        1
    } else {
        gcd_big_small(q, a)
    }; // divides q and a
    let num = div_mul_small(p, g1, a / g2);
    let den = div_mul_small(q, g2, b / g1);
    Rational::from_reduced_big(BigRational::new_raw(num, den))
}

/// `x / g · k` for `g > 0` dividing `x`: skips the ones, and uses num-bigint's one-word
/// division and multiplication (by value) when `g` and `|k|` fit 32 bits.
// By value on purpose: num-bigint's `/=` by a word divides a copy.
#[allow(clippy::assign_op_pattern)]
fn div_mul_small(x: &BigInt, g: i128, k: i128) -> BigInt {
    match (u32::try_from(g), u32::try_from(k.unsigned_abs())) {
        (Ok(g), Ok(k_abs)) => {
            let mut y = x.clone();
            if g != 1 {
                y = y / g;
            }
            if k_abs != 1 {
                y = y * k_abs;
            }
            if k < 0 {
                -y
            } else {
                y
            }
        }
        _ => (x / BigInt::from(g)) * BigInt::from(k),
    }
}

/// `p/q + a/b` with `p/q` big and `a/b` small, both reduced: Knuth's addition (TAOCP 4.5.1),
/// whose gcds are with `gcd(q, b) <= b`, so all of them are small.
#[cold]
fn add_big_small(x: &BigRational, a: i128, b: i128) -> Rational {
    let (p, q) = (x.numer(), x.denom());
    let d1 = if b == 1 { 1 } else { gcd_big_small(q, b) };
    let q_d1 = div_mul_small(q, d1, 1);
    // t = p (b/d1) + a (q/d1); the sum is t / (q/d1 * b), reduced by gcd(t, d1).
    let t = div_mul_small(p, 1, b / d1) + div_mul_small(&q_d1, 1, a);
    let d2 = if d1 == 1 { 1 } else { gcd_big_small(&t, d1) };
    let num = if d2 == 1 { t } else { div_mul_small(&t, d2, 1) };
    let den = div_mul_small(&q_d1, 1, b / d2);
    Rational::from_reduced_big(BigRational::new_raw(num, den))
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
from_int!(i8, i16, i32, i64, i128, u8, u16, u32, u64, usize);

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

/// Sums of values and of references alike.
impl<T: Borrow<Rational>> Sum<T> for Rational {
    fn sum<I: Iterator<Item = T>>(iter: I) -> Rational {
        iter.fold(Rational::ZERO, |acc, x| acc + x.borrow())
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

impl Rational {
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
