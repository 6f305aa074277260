//! Correctly rounded decimals of `λ × q` — a large exact value times a small exact factor —
//! from an interval around the large value, without dividing its huge numerator by its huge
//! denominator once per printed number: [`DecimalBounds`].
//!
//! Asset fairness's level-coefficient answer (`docs/theory.md` §2.4) prints every user's
//! tasks, bundle and shares as a level times small factors; so does progressive filling for
//! DRF (a user's tasks are its level over its task share). The large value is converted once
//! to an integer interval with about 34 digits, and every product with a small factor is
//! rounded from machine words.
//!
//! # Why the result is the correctly rounded value
//! Rounding to `N` significant digits with ties to even, `round_N`, is a non-decreasing
//! function of the value. The true value `v` lies in `[lo, hi] · 10^-p` (each end obtained
//! from the level's interval `[L, H] / 2^F ∋ λ` by rounding down, respectively up, so the
//! inclusion holds whatever the error of each step). If `round_N(lo·10^-p)` and
//! `round_N(hi·10^-p)` are the same decimal, then by monotonicity every value between them,
//! `v` included, rounds to it. The test below proves they are the same without computing
//! them separately: with `k` the number of digits dropped, both ends have the same kept digits
//! `⌊lo/10^k⌋ = ⌊hi/10^k⌋ = q` and their dropped parts are both strictly above, or both
//! strictly below, half of `10^k`: then every value in between has kept digits `q` and a
//! dropped part on the same side of one half, so it rounds to `q + 1` (above) or `q` (below)
//! — never to a tie. When the ends straddle a rounding boundary (or the interval is too wide
//! to tell), the caller falls back to the exact value. With the level known to about 34
//! significant digits and `N ≤ 20`, a fall-back needs `v` within about `10^-(34-N)` relative
//! of a boundary.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

/// `10^k` for `k ≤ 38` (the powers of ten below `2^128`).
const POW10: [u128; 39] = {
    let mut t = [1u128; 39];
    let mut k = 1;
    while k < 39 {
        t[k] = t[k - 1] * 10;
        k += 1;
    }
    t
};

/// Digits kept in the integer bounds (`10^34 < 2^113`, leaving room for small factors).
const KEPT_DIGITS: i64 = 34;

/// Bounds of a positive exact value `v ∈ [lo, hi] · 10^-p` on machine words (`0 < lo ≤ hi`,
/// `lo == hi` only when `v` is exactly that), from which products with small factors are
/// correctly rounded. See the [module docs](self).
///
/// # Example
/// ```
/// use leontief_solver::decimal_bounds::DecimalBounds;
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

fn pow10(k: u32) -> BigInt {
    BigInt::from(10u32).pow(k)
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
        let log2 = num_hi.bits() as i64 - b.bits() as i64 - f as i64;
        // 10^p · 2^log2 ≈ 10^KEPT_DIGITS; log10(2) < 0.30103.
        let p = KEPT_DIGITS - (log2 * 30103).div_euclid(100_000) - 1;
        let num_lo = l * a;
        let (nl, nh, den) = if p >= 0 {
            let t = pow10(p as u32);
            (num_lo * &t, num_hi * t, b << f)
        } else {
            (num_lo, num_hi, (b << f) * pow10((-p) as u32))
        };
        let lo = nl.div_floor(&den);
        let hi = Integer::div_ceil(&nh, &den);
        let (lo, hi) = (lo.to_u128()?, hi.to_u128()?);
        (lo > 0).then_some(DecimalBounds { lo, hi, p })
    }

    /// Bounds of a positive fraction `num / den` (not necessarily reduced): one division.
    /// `None` when the value is not positive.
    pub fn of_ratio(num: &BigInt, den: &BigInt) -> Option<DecimalBounds> {
        if num.sign() != den.sign() || num.is_zero() {
            return None;
        }
        let one = BigInt::from(1);
        let (num, den) = (
            num.magnitude().clone().into(),
            den.magnitude().clone().into(),
        );
        DecimalBounds::of_product(&one, &one, 0, &num, &den)
    }

    /// Exact bounds of a rational `a / b` (positive), for multiplying further.
    #[cfg(test)]
    pub(crate) fn exact(a: u128, b: u128) -> Option<DecimalBounds> {
        let one = BigInt::from(1);
        DecimalBounds::of_product(&one, &one, 0, &a.into(), &b.into())
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
        let (lo2, hi2) = if b == 1 {
            (nl, nh)
        } else {
            (nl / b, nh.div_ceil(b))
        };
        if lo2 == 0 {
            return None;
        }
        Some(DecimalBounds {
            lo: lo2,
            hi: hi2,
            p,
        })
    }

    /// The value rounded to `n` significant digits (ties to even) as `(m, e)`, the value being
    /// `m · 10^(e-n+1)` with `10^(n-1) ≤ m < 10^n`; `None` when the bounds do not decide it
    /// (see the [module docs](self)).
    pub fn round(self, n: u32) -> Option<(u128, i64)> {
        let DecimalBounds { lo, hi, p } = self;
        let digits = i64::from(hi.ilog10()) + 1;
        let k = digits - i64::from(n);
        if k < 1 {
            return None;
        }
        let unit = POW10[k as usize];
        // One division per end (a 128-bit division is a library call).
        let q_lo = lo / unit;
        let q_hi = hi / unit;
        let (r_lo, r_hi) = (lo - q_lo * unit, hi - q_hi * unit);
        if q_lo != q_hi {
            return None;
        }
        let half = unit / 2;
        let up = if r_lo > half && r_hi > half {
            true
        } else if r_lo < half && r_hi < half {
            false
        } else if lo == hi && r_lo == half {
            // Exactly a tie: to even.
            q_lo % 2 == 1
        } else {
            return None;
        };
        let mut m = q_lo + u128::from(up);
        let mut e = digits - 1 - p;
        if m == POW10[n as usize] {
            m /= 10;
            e += 1;
        }
        Some((m, e))
    }
}

impl DecimalBounds {
    /// Appends the value correctly rounded to `n` significant digits, in the syntax of
    /// [`Rational::to_decimal`](crate::Rational::to_decimal), when the bounds decide it;
    /// returns `false` (appending nothing) otherwise.
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
/// [`Rational::to_decimal`](crate::Rational::to_decimal): trailing zeros dropped, plain
/// notation when `-7 < e < 21`, scientific otherwise.
pub fn format_rounded(m: u128, e: i64, out: &mut String) {
    crate::rational::format_digits(&m.to_string(), e, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_instances::SplitMix64;
    use crate::Rational;

    fn shown(b: DecimalBounds, n: u32) -> Option<String> {
        let (m, e) = b.round(n)?;
        let mut s = String::new();
        format_rounded(m, e, &mut s);
        Some(s)
    }

    #[test]
    fn exact_values_round_as_the_exact_kernel() {
        // Exact bounds (lo == hi) of a/b: whenever the bounds decide, the text is the exact
        // kernel's; ties (0.125 at 2 digits) and carries (999.9995 at 6 digits) included.
        let mut rng = SplitMix64::new(5);
        let mut decided = 0;
        for _ in 0..20_000 {
            let (ea, eb) = (rng.range(1, 12) as u32, rng.range(1, 12) as u32);
            let a = u128::from(rng.range(1, 10u64.pow(ea)));
            let b = u128::from(rng.range(1, 10u64.pow(eb)));
            let n = rng.range(1, 15) as u32;
            let x = Rational::new(a as i128, b as i128).unwrap();
            if let Some(s) = shown(DecimalBounds::exact(a, b).unwrap(), n) {
                assert_eq!(s, x.to_decimal(n), "{a}/{b} at {n}");
                decided += 1;
            }
        }
        assert!(decided > 19_000);
        for (text, n, want) in [
            ("0.125", 2, "0.12"),
            ("0.375", 2, "0.38"),
            ("999.9995", 6, "1000"),
            ("0.0000995", 2, "0.0001"),
            ("0.0000995", 3, "0.0000995"),
            ("123456789012345678901234", 3, "1.23e23"),
            ("0.00000001234", 2, "1.2e-8"),
        ] {
            let x = Rational::from_decimal_str(text).unwrap();
            let (a, b) = (x.numer().to_u128().unwrap(), x.denom().to_u128().unwrap());
            assert_eq!(shown(DecimalBounds::exact(a, b).unwrap(), n).unwrap(), want);
            assert_eq!(x.to_decimal(n), want);
        }
    }

    #[test]
    fn bounds_contain_the_value_and_straddles_are_refused() {
        // v = λ q with λ = 2/3 known within [λ - 2^-60, λ + 2^-60]: every decided rounding is
        // the exact one; a straddling interval (around 0.125 at 2 digits) is refused.
        let f: u64 = 64;
        let lam = Rational::new(2, 3).unwrap();
        let scaled: BigInt = (lam.numer() << f) / lam.denom();
        let (l, h) = (&scaled - BigInt::from(16), &scaled + BigInt::from(16));
        let mut rng = SplitMix64::new(9);
        for _ in 0..2_000 {
            let a = rng.range(1, 1_000_000);
            let b = rng.range(1, 1_000_000);
            let q = Rational::new(i128::from(a), i128::from(b)).unwrap();
            let v = &lam * &q;
            let bounds = DecimalBounds::of_product(&l, &h, f, &a.into(), &b.into()).unwrap();
            for n in [1, 6, 12] {
                if let Some(s) = shown(bounds, n) {
                    assert_eq!(s, v.to_decimal(n));
                }
            }
            let times = bounds.times(7, 3).unwrap();
            if let Some(s) = shown(times, 12) {
                assert_eq!(s, (&v * &Rational::new(7, 3).unwrap()).to_decimal(12));
            }
        }
        let around = DecimalBounds {
            lo: 124_999,
            hi: 125_001,
            p: 6,
        };
        assert_eq!(around.round(2), None);
    }
}
