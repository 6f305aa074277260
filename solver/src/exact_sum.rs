//! [`ExactSum`]: an exact accumulator for long sums of rationals.
//!
//! Progressive filling sums one term per (user, resource). Summing fractions whose
//! denominators range over `1..=100` makes the running sum's denominator the lcm of them all
//! (about 2^144), so a plain running [`Rational`] sum spends most of its time in big-integer
//! gcds. `ExactSum` instead keeps one fixed-width numerator per distinct denominator
//! (an integer addition per term) and folds the buckets over a common denominator only when
//! the value is asked for. The result is exact and independent of the order of the terms.
//!
//! # Complexity
//! `add` is `O(1)` expected; `value` is `O(k)` big-integer operations for `k` distinct
//! denominators added since the previous `value`.
//!
//! # Example
//! ```
//! use leontief_solver::{ExactSum, Rational};
//! let mut s = ExactSum::new();
//! for d in 1..=100 {
//!     s.add(&Rational::new(1, d).unwrap());
//! }
//! s.sub(&Rational::new(1, 100).unwrap());
//! let h99: Rational = (1..=99).map(|d| Rational::new(1, d).unwrap()).sum();
//! assert_eq!(s.value(), h99);
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::Rational;

/// A fast hasher for `i128` denominators (keys are not adversarial: they come from the
/// instance's own numbers, and a collision only costs time).
#[derive(Default)]
struct DenominatorHasher(u64);

impl Hasher for DenominatorHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_i128(&mut self, n: i128) {
        let folded = (n as u64) ^ ((n >> 64) as u64);
        self.0 = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// An exact sum of many rationals. See the [module docs](self).
#[derive(Clone, Default)]
pub struct ExactSum {
    settled: Rational,
    buckets: HashMap<i128, i128, BuildHasherDefault<DenominatorHasher>>,
}

impl ExactSum {
    /// An empty sum (zero).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{ExactSum, Rational};
    /// assert_eq!(ExactSum::new().value(), Rational::ZERO);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `x`.
    #[inline]
    pub fn add(&mut self, x: &Rational) {
        match x.as_small() {
            Some((num, den)) => self.add_parts(num, den),
            None => self.settled += x,
        }
    }

    /// Subtracts `x`.
    #[inline]
    pub fn sub(&mut self, x: &Rational) {
        match x.as_small() {
            // Small numerators are never i128::MIN, so negation is safe.
            Some((num, den)) => self.add_parts(-num, den),
            None => self.settled -= x,
        }
    }

    #[inline]
    fn add_parts(&mut self, num: i128, den: i128) {
        let slot = self.buckets.entry(den).or_insert(0);
        match slot.checked_add(num) {
            Some(s) if s != i128::MIN => *slot = s,
            _ => {
                let old = std::mem::replace(slot, num);
                self.settled += Rational::new(old, den).expect("bucket denominators are positive");
            }
        }
    }

    /// The exact value of the sum so far.
    pub fn value(&mut self) -> Rational {
        if !self.buckets.is_empty() {
            let mut buckets: Vec<(i128, i128)> =
                self.buckets.drain().filter(|&(_, n)| n != 0).collect();
            // A fixed order keeps the work (not the result, which is exact) reproducible.
            buckets.sort_unstable();
            self.settled += fold_over_common_denominator(&buckets);
        }
        self.settled.clone()
    }
}

/// `sum n_k / d_k` over `(d_k, n_k)` with one reduction at the end.
fn fold_over_common_denominator(buckets: &[(i128, i128)]) -> Rational {
    match buckets {
        [] => Rational::ZERO,
        [(d, n)] => Rational::new(*n, *d).expect("positive denominator"),
        _ => fold_small(buckets).unwrap_or_else(|| fold_big(buckets)),
    }
}

/// The fold in `i128` with checked operations; `None` on overflow (then [`fold_big`]).
fn fold_small(buckets: &[(i128, i128)]) -> Option<Rational> {
    let mut lcm: i128 = 1;
    for &(d, _) in buckets {
        lcm = (lcm / gcd(lcm, d)).checked_mul(d)?;
    }
    let mut num: i128 = 0;
    for &(d, n) in buckets {
        num = num.checked_add(n.checked_mul(lcm / d)?)?;
    }
    Rational::new(num, lcm)
}

/// Euclid's gcd of positive `i128`s.
fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The fold in big integers.
fn fold_big(buckets: &[(i128, i128)]) -> Rational {
    let mut lcm = BigInt::one();
    for (d, _) in buckets {
        lcm = lcm.lcm(&BigInt::from(*d));
    }
    let mut num = BigInt::zero();
    for (d, n) in buckets {
        num += BigInt::from(*n) * (&lcm / BigInt::from(*d));
    }
    Rational::from_big_parts(num, lcm).expect("positive denominator")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflowing_bucket_spills_exactly() {
        let mut s = ExactSum::new();
        let big = Rational::new(i128::MAX, 3).unwrap();
        for _ in 0..5 {
            s.add(&big);
        }
        assert_eq!(s.value(), &big * &Rational::from(5));
        s.sub(&big);
        s.sub(&big);
        assert_eq!(s.value(), &big * &Rational::from(3));
    }

    #[test]
    fn mixes_big_and_small_terms() {
        let mut s = ExactSum::new();
        let huge = Rational::from(i128::MAX) * Rational::from(4);
        s.add(&huge);
        s.add(&Rational::new(1, 7).unwrap());
        s.add(&Rational::new(-1, 7).unwrap());
        assert_eq!(s.value(), huge);
    }

    #[test]
    fn small_and_big_folds_agree() {
        // Denominators whose lcm fits i128, and ones whose lcm does not (primes near 2^40).
        let small: Vec<(i128, i128)> = (1..=30).map(|d| (d, 31 - d)).collect();
        let p = [
            1_099_511_627_791i128,
            1_099_511_627_803,
            1_099_511_627_857,
            1_099_511_627_861,
        ];
        let big: Vec<(i128, i128)> = p.iter().map(|&d| (d, 1)).collect();
        assert_eq!(fold_small(&small), Some(fold_big(&small)));
        assert_eq!(fold_small(&big), None);
        let mut s = ExactSum::new();
        for &(d, n) in &big {
            s.add(&Rational::new(n, d).unwrap());
        }
        assert_eq!(s.value(), fold_big(&big));
    }
}
