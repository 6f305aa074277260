//! Greatest common divisors of big integers by Lehmer's method, and rationals normalized with
//! them.
//!
//! `num-bigint`'s `gcd` is Stein's binary algorithm: every step shifts and subtracts whole
//! numbers and removes about one bit, so a gcd of `b`-bit numbers costs `O(b²/w)` word
//! operations even when one operand is small — and a rational with a large numerator and a
//! small denominator pays that on every normalization. Lehmer's method (Knuth, *TAOCP* vol. 2,
//! §4.5.2, Algorithm L) runs Euclid's algorithm on the leading 62 bits of both numbers while
//! the single-precision quotients are provably those of the full numbers, then applies the
//! accumulated 2×2 cofactor matrix to the full numbers once: about 30 quotient steps per
//! pass over the words. When the operands differ in size, one exact remainder reduces the
//! larger first.
//!
//! # Complexity
//! `O(b²/w²)` passes of `O(b/w)` word operations for `b`-bit operands, `w = 62`; a big
//! number against a word-size one costs one remainder, `O(b/w)`.

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// The nonnegative gcd of two integers (`gcd(0, 0) = 0`).
///
/// # Example
/// ```
/// use leontief_solver::algebraic::integer::gcd;
/// use num_bigint::BigInt;
/// assert_eq!(gcd(&BigInt::from(-84), &BigInt::from(36)), BigInt::from(12));
/// ```
pub fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    BigInt::from(gcd_unsigned(a.magnitude().clone(), b.magnitude().clone()))
}

/// The nonnegative lcm of two integers (0 when either is 0).
pub fn lcm(a: &BigInt, b: &BigInt) -> BigInt {
    if a.is_zero() || b.is_zero() {
        return BigInt::zero();
    }
    let g = gcd(a, b);
    let l = (a / g) * b;
    if l.sign() == Sign::Minus {
        -l
    } else {
        l
    }
}

/// `num / den` in lowest terms with a positive denominator, normalized by [`gcd`].
///
/// # Panics
/// Never for `den ≠ 0`; a zero denominator is a caller's error (as for
/// [`BigRational::new`]) and panics.
pub fn ratio(num: BigInt, den: BigInt) -> BigRational {
    assert!(!den.is_zero(), "a rational with denominator 0");
    if num.is_zero() {
        return BigRational::zero();
    }
    let g = gcd(&num, &den);
    let (num, den) = (num / &g, den / g);
    if den.sign() == Sign::Minus {
        BigRational::new_raw(-num, -den)
    } else {
        BigRational::new_raw(num, den)
    }
}

fn gcd_unsigned(mut a: BigUint, mut b: BigUint) -> BigUint {
    if a < b {
        std::mem::swap(&mut a, &mut b);
    }
    while !b.is_zero() {
        let bits = a.bits();
        if bits <= 64 {
            // Both fit in a word (b ≤ a).
            let (x, y) = (a.to_u64().unwrap_or(0), b.to_u64().unwrap_or(0));
            return BigUint::from(gcd_word(x, y));
        }
        // The leading 62 bits of a, and b's bits at the same place.
        let shift = bits - 62;
        let mut x = (&a >> shift).to_i128().unwrap_or(0);
        let mut y = (&b >> shift).to_i128().unwrap_or(0);
        // Cofactors: the current pair is (ca a + cb b, cc a + cd b).
        let (mut ca, mut cb, mut cc, mut cd) = (1i128, 0i128, 0i128, 1i128);
        // Algorithm L: the quotient is certain when both bracketing quotients agree.
        while y + cc > 0 && y + cd > 0 {
            let q = (x + ca) / (y + cc);
            if q != (x + cb) / (y + cd) {
                break;
            }
            (ca, cc) = (cc, ca - q * cc);
            (cb, cd) = (cd, cb - q * cd);
            (x, y) = (y, x - q * y);
        }
        if cb == 0 {
            // No certain quotient: one exact Euclid step.
            let r = &a % &b;
            a = std::mem::replace(&mut b, r);
            continue;
        }
        match (combine(&a, &b, ca, cb), combine(&a, &b, cc, cd)) {
            // The certified steps keep a Euclidean pair: next_a > next_b ≥ 0.
            (Some(na), Some(nb)) if na > nb => {
                a = na;
                b = nb;
            }
            // Not reached by Algorithm L's guarantee; an exact step keeps the answer right.
            _ => {
                let r = &a % &b;
                a = std::mem::replace(&mut b, r);
            }
        }
    }
    a
}

/// `x a + y b` for cofactors of opposite signs (or one zero), as the cosequence of
/// Euclid's algorithm has them, by two products with a word; `None` if it were negative.
fn combine(a: &BigUint, b: &BigUint, x: i128, y: i128) -> Option<BigUint> {
    let (xa, yb) = (a * x.unsigned_abs(), b * y.unsigned_abs());
    match (x >= 0, y >= 0) {
        (true, true) => Some(xa + yb),
        (true, false) => (xa >= yb).then(|| xa - yb),
        (false, true) => (yb >= xa).then(|| yb - xa),
        (false, false) => None,
    }
}

fn gcd_word(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_integer::Integer;

    /// A deterministic sequence of big integers of mixed sizes (words of Knuth's MMIX
    /// linear congruential generator, high halves joined).
    fn numbers() -> Vec<BigInt> {
        let mut state = 2026u64;
        let mut half = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state >> 32
        };
        let mut next = || (half() << 32) | half();
        (0..40)
            .map(|k| {
                let words = 1 + (k * 7) % 13;
                let mut n = BigInt::from(0);
                for _ in 0..words {
                    n = (n << 64) + BigInt::from(next());
                }
                if k % 3 == 0 {
                    -n
                } else {
                    n
                }
            })
            .collect()
    }

    /// Against Stein's algorithm (num-integer's, an independent implementation) on pairs with
    /// a planted common factor, of equal and of very different sizes.
    #[test]
    fn lehmer_agrees_with_stein() {
        let xs = numbers();
        for (i, a) in xs.iter().enumerate() {
            for b in xs.iter().skip(i) {
                let common = &xs[(i * 5) % xs.len()];
                let (a, b) = (a * common, b * common);
                assert_eq!(gcd(&a, &b), a.gcd(&b));
                assert_eq!(lcm(&a, &b), a.lcm(&b));
            }
        }
    }

    /// Hand cases: gcd(0, 0) = 0, gcd(0, −5) = 5, lcm(4, −6) = 12; 2^200 and 3 · 2^150
    /// share 2^150; −6/−4 is 3/2.
    #[test]
    fn edge_cases() {
        let n = |v: i64| BigInt::from(v);
        assert_eq!(gcd(&n(0), &n(0)), n(0));
        assert_eq!(gcd(&n(0), &n(-5)), n(5));
        assert_eq!(lcm(&n(4), &n(-6)), n(12));
        assert_eq!(gcd(&(n(1) << 200), &(n(3) << 150)), n(1) << 150);
        assert_eq!(ratio(n(-6), n(-4)), BigRational::new(n(3), n(2)));
        assert_eq!(ratio(n(0), n(-4)), BigRational::zero());
    }
}
