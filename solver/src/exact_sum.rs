//! [`ExactSum`]: an exact accumulator for long sums of rationals.
//!
//! Progressive filling sums one term per (user, resource). Summing fractions whose
//! denominators range over `1..=100` makes the running sum's denominator the lcm of them all
//! (about 2^144), so a plain running [`Rational`] sum spends most of its time in big-integer
//! gcds. `ExactSum` instead keeps one fixed-width numerator per distinct denominator
//! (an integer addition per term) and folds the buckets over a common denominator only when
//! the value is asked for. The result is exact and independent of the order of the terms.
//!
//! Terms too large for the buckets, and the buckets themselves when there are many, are summed
//! by a *balanced* reduction ([`balanced_sum`]): pairs of terms, then pairs of pair sums, and
//! so on, as in a product tree. Adding `N` fractions one at a time to a running sum makes the
//! running sum's size grow with every term, so the work is quadratic in the total size; the
//! balanced reduction adds operands of similar size at every level, `log N` levels of total
//! size at most the final one's. Big terms are folded as they arrive, like a binary counter
//! (two partial sums of the same rank merge into one of the next rank), so at most `log N`
//! partial sums are alive at once.
//!
//! # Complexity
//! `add` is `O(1)` expected for small terms and amortised one balanced merge for big terms;
//! `value` is `O(k)` big-integer operations for `k` distinct denominators added since the
//! previous `value`, arranged as a balanced tree when `k` is large.
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

use foldhash::fast::FixedState;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::Rational;

/// An exact sum of many rationals. See the [module docs](self).
#[derive(Clone, Default)]
pub struct ExactSum {
    settled: Rational,
    /// Numerators by denominator, hashed by foldhash (keys are not adversarial: they come
    /// from the instance's own numbers, and a collision only costs time).
    buckets: HashMap<i128, i128, FixedState>,
    /// Partial sums of big terms, each with its rank (it sums about `2^rank` terms); ranks
    /// strictly decrease from bottom to top, so merging is balanced.
    pending: Vec<(u32, Rational)>,
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
            None => self.push_big(x.clone()),
        }
    }

    /// Subtracts `x`.
    #[inline]
    pub fn sub(&mut self, x: &Rational) {
        match x.as_small() {
            // Small numerators are never i128::MIN, so negation is safe.
            Some((num, den)) => self.add_parts(-num, den),
            None => self.push_big(-x),
        }
    }

    /// Adds a big term as a binary counter adds one: merge while the top two partial sums
    /// have the same rank.
    fn push_big(&mut self, x: Rational) {
        let mut rank = 0;
        let mut acc = x;
        while self.pending.last().is_some_and(|(r, _)| *r == rank) {
            let (_, top) = self.pending.pop().expect("checked");
            acc = top + acc;
            rank += 1;
        }
        self.pending.push((rank, acc));
    }

    #[inline]
    fn add_parts(&mut self, num: i128, den: i128) {
        let slot = self.buckets.entry(den).or_insert(0);
        match slot.checked_add(num) {
            Some(s) if s != i128::MIN => *slot = s,
            _ => {
                let old = std::mem::replace(slot, num);
                self.push_big(Rational::new(old, den).expect("bucket denominators are positive"));
            }
        }
    }

    /// The exact value of the sum so far.
    pub fn value(&mut self) -> Rational {
        if !self.pending.is_empty() {
            // Smallest partial sums first: the top of the stack has the lowest rank.
            let mut acc = Rational::ZERO;
            while let Some((_, x)) = self.pending.pop() {
                acc = x + acc;
            }
            self.settled += acc;
        }
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

/// Buckets beyond which the big fold is split in halves (a balanced reduction).
const FOLD_LEAF: usize = 32;

/// The fold in big integers: over one common denominator for a few buckets, by halves
/// otherwise, so that many distinct denominators cost a balanced reduction, not a running
/// lcm that grows with every bucket.
fn fold_big(buckets: &[(i128, i128)]) -> Rational {
    if buckets.len() > FOLD_LEAF {
        let (a, b) = buckets.split_at(buckets.len() / 2);
        return fold_over_common_denominator(a) + fold_over_common_denominator(b);
    }
    fold_big_flat(buckets)
}

/// The fold over one common denominator (the lcm of the buckets').
fn fold_big_flat(buckets: &[(i128, i128)]) -> Rational {
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

/// The exact sum of `terms` by a balanced reduction: small terms are bucketed by denominator
/// as in [`ExactSum`], big ones summed pairwise, pairs of pairs, and so on (see the
/// [module docs](self)).
///
/// # Complexity
/// `log N` levels of additions whose operands' total size is at most the result's size per
/// level (when the terms' denominators are distinct), instead of the `N` additions of a
/// growing running sum.
///
/// # Example
/// ```
/// use leontief_solver::{exact_sum::balanced_sum, Rational};
/// let h10 = balanced_sum((1..=10).map(|d| Rational::new(1, d).unwrap()));
/// assert_eq!(h10, Rational::new(7381, 2520).unwrap()); // the 10th harmonic number
/// ```
pub fn balanced_sum(terms: impl IntoIterator<Item = Rational>) -> Rational {
    let mut s = ExactSum::new();
    for t in terms {
        match t.as_small() {
            Some((num, den)) => s.add_parts(num, den),
            None => s.push_big(t),
        }
    }
    s.value()
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
        assert_eq!(fold_big(&small), fold_big_flat(&small));
        assert_eq!(fold_small(&big), None);
        let mut s = ExactSum::new();
        for &(d, n) in &big {
            s.add(&Rational::new(n, d).unwrap());
        }
        assert_eq!(s.value(), fold_big(&big));
    }

    #[test]
    fn balanced_sums_agree_with_running_sums() {
        // Many distinct big denominators (primes near 2^100 times small factors), mixed signs,
        // against a plain running sum: the value is exact whatever the order.
        let base = Rational::from(1i128 << 100);
        let terms: Vec<Rational> = (1..=300i128)
            .map(|k| {
                let t = Rational::new(if k % 3 == 0 { -k } else { k }, 2 * k + 1).unwrap();
                &t / &(&base + &Rational::from(k))
            })
            .collect();
        let running = terms.iter().fold(Rational::ZERO, |acc, t| acc + t);
        assert!(running.is_big());
        assert_eq!(balanced_sum(terms.clone()), running);
        let mut s = ExactSum::new();
        for (k, t) in terms.iter().enumerate() {
            s.add(t);
            if k % 97 == 0 {
                s.sub(t);
                s.add(t);
            }
        }
        assert_eq!(s.value(), running);
        // Many small buckets, beyond the flat fold's leaf size.
        let many: Vec<(i128, i128)> = (1..=200).map(|d| (d * 7 + 1, d)).collect();
        assert_eq!(fold_big(&many), fold_big_flat(&many));
    }
}
