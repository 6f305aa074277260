//! Correctly rounded decimals: an exact [`Rational`] rounded to `N` significant digits,
//! ties to even, computed from the exact fraction (never through `f64`).
//!
//! # Output syntax
//! The text is a JSON number literal, so that serde, pandas, Python's `float()` and a
//! spreadsheet read it as a number:
//! - **zero** prints as `0`; a negative value starts with `-`; there is never a `+`;
//! - **trailing zeros are dropped** (and the point with them): `1/2` at 12 digits prints `0.5`,
//!   and `999.9995` at 6 digits rounds to `1000.00` and prints `1000`. The digits shown are
//!   therefore *at most* `N`; the precision is stated once next to the numbers (the CLI's
//!   `"precision": {"decimals": N}`), not by padding each one;
//! - **plain notation** when the decimal exponent `e` (`10^e ≤ |x| < 10^(e+1)` after rounding)
//!   satisfies `-7 < e < 21` (`0.0000995`, `123456.789`), **scientific** otherwise
//!   (`1.23e-7`, `6.02e23`: the mantissa in `[1, 10)`, the exponent without `+` or leading
//!   zeros). These are the bounds of JavaScript's `Number.prototype.toString`
//!   (ECMA-262, `Number::toString`), which readers of JSON numbers are used to.
//!
//! # Rounding
//! Round half to even on the `N`-th significant digit (IEEE 754's default,
//! `roundTiesToEven`): `0.125` at 2 digits is `0.12`, `0.375` is `0.38`. The result `d`
//! satisfies `|d − x| ≤ ½ · 10^(E−N+1)` with `E = ⌊log10 |x|⌋`, with equality only when the
//! last kept digit is even; a carry may add a digit (`9.995` at 3 digits is `10`).
//!
//! # Complexity
//! One integer division of `|p| · 10^s` by `q · 10^t` (with `s`, `t` chosen so that the
//! quotient has `N` to `N + 3` digits), on machine words when they fit (`u128`, the usual
//! case for small numerators and denominators) and otherwise one big-integer division,
//! `O(size(p) · size(q))` at worst, plus `O(N)` to print the digits. There is no
//! digit-by-digit loop over the value's length.
//!
//! [`DecimalBounds`] rounds big fractions and their products with small factors from a
//! machine-word interval, deciding with this kernel's rule and deferring to it when the
//! interval straddles a rounding boundary.
//!
//! # Example
//! ```
//! use leontief_solver::Rational;
//! let third: Rational = "1/3".parse().unwrap();
//! assert_eq!(third.to_decimal(12), "0.333333333333");
//! assert_eq!(Rational::from_decimal_str("0.125").unwrap().to_decimal(2), "0.12");
//! assert_eq!(Rational::from_decimal_str("999.9995").unwrap().to_decimal(6), "1000");
//! assert_eq!(Rational::from_decimal_str("-1.5e-9").unwrap().to_decimal(3), "-1.5e-9");
//! ```

use std::borrow::Cow;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Pow, ToPrimitive, Zero};

use super::{Rational, Repr};

/// The largest number of significant digits the machine-word path handles: the quotient,
/// with up to three guard digits, must stay below `10^38 < 2^128`.
const SMALL_MAX_DIGITS: u32 = 35;

impl Rational {
    /// The value correctly rounded to `digits` significant digits (ties to even), as a JSON
    /// number literal: plain or scientific notation, trailing zeros dropped (`1/2` is `0.5`,
    /// `10^-8` is `1e-8`).
    ///
    /// # Panics
    /// When `digits == 0` (the command line refuses it before calling).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// let x: Rational = "2/3".parse().unwrap();
    /// assert_eq!(x.to_decimal(1), "0.7");
    /// assert_eq!(x.to_decimal(5), "0.66667");
    /// assert_eq!(Rational::ZERO.to_decimal(5), "0");
    /// ```
    pub fn to_decimal(&self, digits: u32) -> String {
        let mut out = String::new();
        self.write_decimal(digits, &mut out);
        out
    }

    /// Appends [`to_decimal`](Self::to_decimal)'s text to `out` (no intermediate string).
    ///
    /// # Panics
    /// When `digits == 0`.
    pub fn write_decimal(&self, digits: u32, out: &mut String) {
        assert_digits(digits);
        match &self.0 {
            Repr::Small { num, den } => {
                if *num == 0 {
                    out.push('0');
                    return;
                }
                // `num` is never i128::MIN, so the magnitude fits.
                let p = num.unsigned_abs();
                let q = *den as u128;
                if *num < 0 {
                    out.push('-');
                }
                let (m, e) = match round_small(p, q, digits) {
                    Some((m, e)) => (Kept::Small(m), e),
                    None => round_big(&BigUint::from(p), &BigUint::from(q), digits),
                };
                write_kept(&m, e, out);
            }
            Repr::Big(b) => write_ratio_decimal(b.numer(), b.denom(), digits, out),
        }
    }
}

/// Appends `num / den` correctly rounded to `digits` significant digits (ties to even), in
/// the syntax of [`Rational::to_decimal`]. The fraction need not be reduced, which saves a
/// gcd when the value is a product printed only as a decimal.
///
/// # Panics
/// When `den` is zero or `digits == 0`.
///
/// # Example
/// ```
/// use leontief_solver::rational::write_ratio_decimal;
/// let mut s = String::new();
/// write_ratio_decimal(&(-6).into(), &4.into(), 3, &mut s);
/// assert_eq!(s, "-1.5");
/// ```
pub fn write_ratio_decimal(num: &BigInt, den: &BigInt, digits: u32, out: &mut String) {
    assert_digits(digits);
    assert!(
        !den.is_zero(),
        "a decimal of a fraction with denominator zero"
    );
    if num.is_zero() {
        out.push('0');
        return;
    }
    if (num.sign() == Sign::Minus) != (den.sign() == Sign::Minus) {
        out.push('-');
    }
    let (m, e) = round_magnitudes(num.magnitude(), den.magnitude(), digits);
    write_kept(&m, e, out);
}

/// `p / q` (both positive) rounded: on machine words when both fit, else with one big
/// division.
fn round_magnitudes(p: &BigUint, q: &BigUint, digits: u32) -> (Kept, i64) {
    let small = p.to_u128().zip(q.to_u128());
    match small.and_then(|(p, q)| round_small(p, q, digits)) {
        Some((m, e)) => (Kept::Small(m), e),
        None => round_big(p, q, digits),
    }
}

/// `|p|` and `q` of `x = p/q`, borrowed when big.
fn magnitudes(x: &Rational) -> (Cow<'_, BigUint>, Cow<'_, BigUint>) {
    match &x.0 {
        Repr::Small { num, den } => (
            Cow::Owned(BigUint::from(num.unsigned_abs())),
            Cow::Owned(BigUint::from(den.unsigned_abs())),
        ),
        Repr::Big(b) => (
            Cow::Borrowed(b.numer().magnitude()),
            Cow::Borrowed(b.denom().magnitude()),
        ),
    }
}

/// Writes the kept digits with their exponent (see [`format_digits`]).
fn write_kept(m: &Kept, e: i64, out: &mut String) {
    let mut digits = String::new();
    m.write(&mut digits);
    format_digits(&digits, e, out);
}

impl Rational {
    /// The reduced numerator and denominator, borrowed, when the value is held in big
    /// integers (`None` for the fixed-width form, see [`Rational::as_small`]): printers write
    /// the parts without copying them.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// let x = Rational::from(i128::MAX) * Rational::new(1, 3).unwrap() * Rational::from(2);
    /// let (n, d) = x.big_parts().unwrap();
    /// assert_eq!((n.to_string(), d.to_string()), (x.numer().to_string(), "3".to_string()));
    /// assert!(Rational::ONE.big_parts().is_none());
    /// ```
    pub fn big_parts(&self) -> Option<(&BigInt, &BigInt)> {
        match &self.0 {
            Repr::Big(b) => Some((b.numer(), b.denom())),
            Repr::Small { .. } => None,
        }
    }

    /// Appends the product `self · other` correctly rounded to `digits` significant digits,
    /// as [`to_decimal`](Self::to_decimal) would print it, without reducing the product (one
    /// multiplication of each part and one division; no gcd).
    ///
    /// # Panics
    /// When `digits == 0`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// let (a, b): (Rational, Rational) = ("2/3".parse().unwrap(), "-3/8".parse().unwrap());
    /// let mut s = String::new();
    /// a.write_product_decimal(&b, 3, &mut s);
    /// assert_eq!(s, "-0.25");
    /// ```
    pub fn write_product_decimal(&self, other: &Rational, digits: u32, out: &mut String) {
        assert_digits(digits);
        if let (Repr::Small { .. }, Repr::Small { .. }) = (&self.0, &other.0) {
            // Small products are usually small again: the reduced product is cheap.
            return (self * other).write_decimal(digits, out);
        }
        if self.is_zero() || other.is_zero() {
            out.push('0');
            return;
        }
        if self.is_negative() != other.is_negative() {
            out.push('-');
        }
        let ((p1, q1), (p2, q2)) = (magnitudes(self), magnitudes(other));
        let p = p1.as_ref() * p2.as_ref();
        let q = q1.as_ref() * q2.as_ref();
        let (m, e) = round_magnitudes(&p, &q, digits);
        write_kept(&m, e, out);
    }
}

/// Panics when `digits == 0`: a decimal needs at least one significant digit.
#[inline]
fn assert_digits(digits: u32) {
    assert!(
        digits >= 1,
        "a decimal needs at least one significant digit"
    );
}

/// `10^k` on machine words, when it fits.
fn pow10_u128(k: u32) -> Option<u128> {
    10u128.checked_pow(k)
}

/// Whether rounding the kept quotient up is right: `frac` compared with one half is given as
/// `Ordering`, `odd` is the parity of the kept quotient (ties go to even).
fn round_up(frac_vs_half: std::cmp::Ordering, odd: bool) -> bool {
    match frac_vs_half {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => odd,
    }
}

/// `p / q` (both positive) rounded to `n` significant digits on machine words: `(m, e)` with
/// `10^(n-1) ≤ m < 10^n` and the value `m · 10^(e-n+1)`; `None` when a product overflows.
fn round_small(p: u128, q: u128, n: u32) -> Option<(u128, i64)> {
    if n > SMALL_MAX_DIGITS {
        return None;
    }
    // With `a` and `b` the digit counts of p and q, p/q lies in (10^(a-b-1), 10^(a-b+1)),
    // so its exponent is a-b-1 or a-b: start from the lower one.
    let a = i64::from(p.ilog10()) + 1;
    let b = i64::from(q.ilog10()) + 1;
    let e_lo = a - b - 1;
    let s = i64::from(n) - 1 - e_lo;
    let (num, den) = if s >= 0 {
        (p.checked_mul(pow10_u128(u32::try_from(s).ok()?)?)?, q)
    } else {
        (p, q.checked_mul(pow10_u128(u32::try_from(-s).ok()?)?)?)
    };
    let (mut m, r) = (num / den, num % den);
    let top = pow10_u128(n)?;
    let mut e = e_lo;
    let up = if m >= top {
        // One digit too many: drop it; the dropped part is (last·den + r) / (10·den).
        let last = m % 10;
        m /= 10;
        e += 1;
        round_up(last.cmp(&5).then(r.cmp(&0)), m % 2 == 1)
    } else {
        // r/den against 1/2, written without overflow as r against den - r.
        round_up(r.cmp(&(den - r)), m % 2 == 1)
    };
    if up {
        m += 1;
        if m == top {
            m = top / 10;
            e += 1;
        }
    }
    Some((m, e))
}

/// `10^k` as a big integer (from machine words when it fits).
fn pow10_big(k: u64) -> BigUint {
    match u32::try_from(k).ok().and_then(pow10_u128) {
        Some(p) => BigUint::from(p),
        None => Pow::pow(&BigUint::from(10u32), k),
    }
}

/// The digits of a rounded quotient: machine words in the usual case.
enum Kept {
    Small(u128),
    Big(BigUint),
}

impl Kept {
    fn write(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = match self {
            Kept::Small(m) => write!(out, "{m}"),
            Kept::Big(m) => write!(out, "{m}"),
        };
    }
}

/// `p / q` (both positive) rounded to `n` significant digits with big integers: one big
/// division, then the guard digits dropped with a small big-integer division.
fn round_big(p: &BigUint, q: &BigUint, n: u32) -> (Kept, i64) {
    // p ≥ 2^(bp-1) and q < 2^bq, so log10(p/q) > (bp-1-bq)·log10(2): a lower bound on the
    // exponent, made safe against the rounding of log10(2) by one more step down.
    let k = i64::try_from(p.bits()).unwrap_or(i64::MAX)
        - 1
        - i64::try_from(q.bits()).unwrap_or(i64::MAX);
    // 78913 / 2^18 = 0.3010292..., just below log10(2) = 0.3010299...
    let mut e_lo = (k * 78913).div_euclid(1 << 18) - 1;
    loop {
        let s = i64::from(n) - 1 - e_lo;
        let scaled_den;
        let (m, r, den) = if s >= 0 {
            let (m, r) = (p * pow10_big(s.unsigned_abs())).div_rem(q);
            (m, r, q)
        } else {
            scaled_den = q * pow10_big(s.unsigned_abs());
            let (m, r) = p.div_rem(&scaled_den);
            (m, r, &scaled_den)
        };
        // The fraction dropped by the division, r/den, against one half.
        let r_vs_half = || (&r << 1u32).cmp(den);
        let low = pow10_big(u64::from(n - 1));
        if m < low {
            // The bound was not a lower bound after all (only for astronomically long
            // numbers, where the error of 78913/2^18 adds up): step down and divide again.
            e_lo -= 1;
            continue;
        }
        let top = &low * 10u32;
        let mut g = 0u32;
        let mut bound = top.clone();
        while m >= bound {
            bound *= 10u32;
            g += 1;
        }
        let mut e = e_lo + i64::from(g);
        let (mut kept, up) = if g == 0 {
            let odd = m.is_odd();
            (m, round_up(r_vs_half(), odd))
        } else {
            let (kept, dropped) = m.div_rem(&pow10_big(u64::from(g)));
            let half = BigUint::from(5u32) * pow10_big(u64::from(g - 1));
            let odd = kept.is_odd();
            let cmp = dropped.cmp(&half).then(r.cmp(&BigUint::zero()));
            (kept, round_up(cmp, odd))
        };
        if up {
            kept += BigUint::one();
            if kept == top {
                kept = low;
                e += 1;
            }
        }
        return (Kept::Big(kept), e);
    }
}

/// Digits kept by [`DecimalBounds`] (`10^34 < 2^113`, leaving room for small factors).
const KEPT_DIGITS: i64 = 34;

/// Bounds of a positive exact value `v ∈ [lo, hi] · 10^-p` on machine words (`0 < lo ≤ hi`,
/// `lo == hi` only when `v` is exactly that), from which `v` and its products with small
/// factors are correctly rounded without a big-integer division per number.
///
/// Progressive filling gives users task counts that are big fractions; asset fairness's
/// level-coefficient answer (`docs/theory.md` §2.4) holds them as a level known within an
/// interval times a small coefficient. Each is converted once to an integer interval with
/// about 34 digits, and every product with a small factor (a demand, a share per task) is
/// rounded from machine words.
///
/// # Why the result is the correctly rounded value
/// Rounding to `N` significant digits with ties to even is a non-decreasing function of the
/// value. Each end of `[lo, hi] · 10^-p` is obtained by rounding down, respectively up, so
/// the interval holds `v` whatever the error of each step. [`DecimalBounds::round`] accepts
/// only when both ends have the same kept digits `q = ⌊lo/10^k⌋ = ⌊hi/10^k⌋` (`k` digits
/// dropped) and dropped parts both strictly above, or both strictly below, half of `10^k`:
/// then every value in between, `v` included, rounds to `q + 1`, respectively `q`, and never
/// to a tie. Otherwise (a rounding boundary in the interval, or an interval too wide) it
/// returns `None` and the caller rounds the exact value with [`Rational::write_decimal`].
///
/// # Example
/// ```
/// use leontief_solver::rational::DecimalBounds;
/// let third = DecimalBounds::of_ratio(&1.into(), &3.into()).unwrap();
/// let mut s = String::new();
/// assert!(third.times(2, 1).unwrap().write_rounded(12, &mut s)); // 2/3
/// assert_eq!(s, "0.666666666667");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecimalBounds {
    lo: u128,
    hi: u128,
    p: i64,
}

/// The decimal scale `p` that gives a value `v` with `log2 v ≈ log2` about
/// [`KEPT_DIGITS`] digits (`10^p · 2^log2 ≈ 10^34`; `log10 2 < 0.30103`).
fn kept_scale(log2: i64) -> i64 {
    KEPT_DIGITS - (log2 * 30103).div_euclid(100_000) - 1
}

impl DecimalBounds {
    /// Bounds of `(L / 2^f) · (a / b)` and `(H / 2^f) · (a / b)` (all positive) with about
    /// 34 digits: `lo = ⌊L a 10^p / (b 2^f)⌋`, `hi = ⌈H a 10^p / (b 2^f)⌉`.
    /// `None` when an end is zero.
    pub fn of_product(
        l: &BigInt,
        h: &BigInt,
        f: u64,
        a: &BigInt,
        b: &BigInt,
    ) -> Option<DecimalBounds> {
        let num_hi = h * a;
        if l.is_zero() || num_hi.is_zero() {
            return None;
        }
        // log2 of the value is within one of bits(H a) - bits(b) - f.
        let p = kept_scale(num_hi.bits() as i64 - b.bits() as i64 - f as i64);
        let num_lo = l * a;
        let (nl, nh, den) = if p >= 0 {
            let t = BigInt::from(pow10_big(p.unsigned_abs()));
            (num_lo * &t, num_hi * t, b << f)
        } else {
            let t = BigInt::from(pow10_big(p.unsigned_abs()));
            (num_lo, num_hi, (b << f) * t)
        };
        let lo = nl.div_floor(&den).to_u128()?;
        let hi = Integer::div_ceil(&nh, &den).to_u128()?;
        (lo > 0).then_some(DecimalBounds { lo, hi, p })
    }

    /// Bounds of a positive fraction `num / den` (not necessarily reduced), the tightest
    /// with about 34 digits: one division, `lo = ⌊num 10^p / den⌋` and `hi` one more when
    /// it leaves a remainder. `None` when the value is not positive.
    pub fn of_ratio(num: &BigInt, den: &BigInt) -> Option<DecimalBounds> {
        if num.sign() != den.sign() || num.is_zero() {
            return None;
        }
        let (n, d) = (num.magnitude(), den.magnitude());
        let p = kept_scale(n.bits() as i64 - d.bits() as i64);
        let scale = pow10_big(p.unsigned_abs());
        let (q, r) = if p >= 0 {
            (n * scale).div_rem(d)
        } else {
            n.div_rem(&(d * scale))
        };
        let lo = q.to_u128()?;
        let hi = lo.checked_add(u128::from(!r.is_zero()))?;
        (lo > 0).then_some(DecimalBounds { lo, hi, p })
    }

    /// Bounds of the value times `a / b` (`a, b > 0`): floor and ceiling again, after dropping
    /// low digits when the product would overflow.
    pub fn times(self, a: u128, b: u128) -> Option<DecimalBounds> {
        let DecimalBounds {
            mut lo,
            mut hi,
            mut p,
        } = self;
        while hi.checked_mul(a).is_none() {
            // Drop a digit: ⌊lo/10⌋ and ⌈hi/10⌉ still bound the value (and stay equal only
            // when the value is exactly representable).
            lo /= 10;
            hi = hi.div_ceil(10);
            p -= 1;
            if lo == 0 {
                return None;
            }
        }
        let nl = lo * a;
        let nh = hi.checked_mul(a)?;
        // An integer factor (a demand, usually) needs no division.
        let (lo, hi) = if b == 1 {
            (nl, nh)
        } else {
            (nl / b, nh.div_ceil(b))
        };
        (lo > 0).then_some(DecimalBounds { lo, hi, p })
    }

    /// The value rounded to `n` significant digits (ties to even) as `(m, e)`, the value being
    /// `m · 10^(e-n+1)` with `10^(n-1) ≤ m < 10^n`; `None` when the bounds do not decide it
    /// (see the [type docs](DecimalBounds)).
    pub fn round(self, n: u32) -> Option<(u128, i64)> {
        let DecimalBounds { lo, hi, p } = self;
        let digits = i64::from(hi.ilog10()) + 1;
        let k = digits - i64::from(n);
        if k < 1 {
            return None;
        }
        let unit = pow10_u128(k as u32)?;
        // One division per end (a 128-bit division is a library call).
        let (q_lo, q_hi) = (lo / unit, hi / unit);
        if q_lo != q_hi {
            return None;
        }
        let half = unit / 2;
        let (r_lo, r_hi) = (lo - q_lo * unit, hi - q_hi * unit);
        let (vs_lo, vs_hi) = (r_lo.cmp(&half), r_hi.cmp(&half));
        // Both ends on one side of a half, or exactly a tie (to even).
        let up = if vs_lo == vs_hi && (vs_lo != std::cmp::Ordering::Equal || lo == hi) {
            round_up(vs_lo, q_lo % 2 == 1)
        } else {
            return None;
        };
        let mut m = q_lo + u128::from(up);
        let mut e = digits - 1 - p;
        if Some(m) == pow10_u128(n) {
            m /= 10;
            e += 1;
        }
        Some((m, e))
    }

    /// Appends the value times `a / b` (`a, b > 0`) correctly rounded to `n` significant
    /// digits when the bounds decide it; returns `false` (appending nothing) otherwise.
    pub fn write_times(self, a: u128, b: u128, n: u32, out: &mut String) -> bool {
        let scaled = if (a, b) == (1, 1) {
            Some(self)
        } else {
            self.times(a, b)
        };
        scaled.is_some_and(|x| x.write_rounded(n, out))
    }

    /// Appends the value correctly rounded to `n` significant digits, in the syntax of
    /// [`Rational::to_decimal`], when the bounds decide it; returns `false` (appending
    /// nothing) otherwise.
    pub fn write_rounded(self, n: u32, out: &mut String) -> bool {
        match self.round(n) {
            Some((m, e)) => {
                format_rounded(m, e, out);
                true
            }
            None => false,
        }
    }
}

/// Appends `m · 10^(e-n+1)` (with `m` of `n` digits) in the syntax of
/// [`Rational::to_decimal`]: what [`DecimalBounds::round`] gives, printed.
fn format_rounded(m: u128, e: i64, out: &mut String) {
    // The digits on the stack, by 64-bit divisions while they fit (the usual case).
    let mut buf = [0u8; 40];
    let mut start = buf.len();
    let mut rest = m;
    while rest > u128::from(u64::MAX) {
        start -= 1;
        buf[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    let mut small = rest as u64;
    loop {
        start -= 1;
        buf[start] = b'0' + (small % 10) as u8;
        small /= 10;
        if small == 0 {
            break;
        }
    }
    format_digits(std::str::from_utf8(&buf[start..]).unwrap_or("0"), e, out);
}

/// Appends the plain decimal literal `text` (`[-]digits[.digits]`, no exponent: how Rust
/// prints an `f64`) correctly rounded to `digits` significant digits, in the syntax of
/// [`Rational::to_decimal`] and equal to `text.parse::<Rational>()?.to_decimal(digits)`,
/// by rounding its digit string (no big integers). Returns `false`, writing nothing, when
/// `text` is not such a literal.
///
/// # Complexity
/// `O(len(text))`.
///
/// # Panics
/// When `digits == 0`.
///
/// # Example
/// ```
/// use leontief_solver::rational::write_literal_decimal;
/// let mut s = String::new();
/// assert!(write_literal_decimal("-0.000099950", 3, &mut s));
/// assert_eq!(s, "-0.0001"); // 9.995e-5: the tie goes to the even 10.0e-5
/// assert!(!write_literal_decimal("1e5", 3, &mut s));
/// ```
pub fn write_literal_decimal(text: &str, digits: u32, out: &mut String) -> bool {
    assert_digits(digits);
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || (body.contains('.') && frac.is_empty())
    {
        return false;
    }
    let all: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
    let Some(first) = all.iter().position(|&b| b != b'0') else {
        out.push('0');
        return true;
    };
    // The first significant digit stands for 10^e.
    let mut e = int.len() as i64 - 1 - first as i64;
    let sig = &all[first..];
    let n = digits as usize;
    let mut kept: Vec<u8> = sig[..sig.len().min(n)].to_vec();
    if sig.len() > n {
        let rest = &sig[n..];
        let half = match rest[0].cmp(&b'5') {
            std::cmp::Ordering::Equal if rest[1..].iter().any(|&b| b != b'0') => {
                std::cmp::Ordering::Greater
            }
            other => other,
        };
        let odd = (kept[n - 1] - b'0') % 2 == 1;
        if round_up(half, odd) {
            // Add one at the last kept digit; a carry out of the first makes 10^(e+1).
            let mut k = n;
            loop {
                if k == 0 {
                    kept.insert(0, b'1');
                    kept.pop();
                    e += 1;
                    break;
                }
                k -= 1;
                if kept[k] == b'9' {
                    kept[k] = b'0';
                } else {
                    kept[k] += 1;
                    break;
                }
            }
        }
    }
    if negative {
        out.push('-');
    }
    // ASCII digits only.
    let kept = String::from_utf8(kept).expect("ASCII digits");
    format_digits(&kept, e, out);
    true
}

/// Writes `m · 10^(e-n+1)` where `m` has exactly `n` digits (`digits`), dropping trailing
/// zeros; plain notation for `-7 < e < 21`, scientific otherwise.
pub(crate) fn format_digits(digits: &str, e: i64, out: &mut String) {
    let d = digits.trim_end_matches('0');
    let d = if d.is_empty() { "0" } else { d };
    let len = d.len() as i64;
    if -7 < e && e < 21 {
        if e >= 0 {
            let int_len = e + 1;
            if len <= int_len {
                out.push_str(d);
                out.extend(std::iter::repeat_n('0', (int_len - len) as usize));
            } else {
                let (int, frac) = d.split_at(int_len as usize);
                out.push_str(int);
                out.push('.');
                out.push_str(frac);
            }
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-e - 1) as usize));
            out.push_str(d);
        }
    } else {
        out.push_str(&d[..1]);
        if len > 1 {
            out.push('.');
            out.push_str(&d[1..]);
        }
        out.push('e');
        out.push_str(&e.to_string());
    }
}

#[cfg(test)]
mod tests;
