//! The oracle for the `Rational` tests: `num_rational::BigRational`, which never overflows,
//! what must hold between a `Rational` and the oracle value it stands for ([`check`]), and
//! integer strategies that reach every boundary of the fixed-width fast path.

use std::hash::{DefaultHasher, Hash, Hasher};

use leontief_solver::Rational;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

pub fn bi(n: i128) -> BigInt {
    BigInt::from(n)
}

pub fn ratio(n: i128, d: i128) -> BigRational {
    BigRational::new(bi(n), bi(d))
}

pub fn pow10(e: u32) -> BigInt {
    num_traits::pow(BigInt::from(10), e as usize)
}

/// The value of an integer strictly inside the fixed-width range `(i128::MIN, i128::MAX]`.
pub fn fits_small(n: &BigInt) -> Option<i128> {
    n.to_i128().filter(|&v| v != i128::MIN)
}

/// The reduced text of a rational, computed from the oracle alone.
pub fn expected_text(b: &BigRational) -> String {
    if b.denom().is_one() {
        b.numer().to_string()
    } else {
        format!("{}/{}", b.numer(), b.denom())
    }
}

pub fn hash_of<T: Hash>(x: &T) -> u64 {
    let mut h = DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

/// Everything that must hold between a `Rational` and the oracle value it stands for.
pub fn check(r: &Rational, b: &BigRational) -> Result<(), TestCaseError> {
    // The oracle itself is reduced with a positive denominator (BigRational's invariant).
    prop_assert!(b.denom().is_positive());
    prop_assert_eq!(&r.to_big(), b);
    prop_assert_eq!(&r.numer(), b.numer());
    prop_assert_eq!(&r.denom(), b.denom());
    prop_assert_eq!(r.to_string(), expected_text(b));
    prop_assert_eq!(format!("{r:?}"), expected_text(b));
    prop_assert_eq!(r.is_zero(), b.is_zero());
    prop_assert_eq!(r.is_integer(), b.is_integer());
    let sign = if b.is_positive() {
        1
    } else if b.is_negative() {
        -1
    } else {
        0
    };
    prop_assert_eq!(r.signum(), sign);
    prop_assert_eq!(r.is_positive(), sign > 0);
    prop_assert_eq!(r.is_negative(), sign < 0);
    prop_assert_eq!(r.cmp(&Rational::ZERO), b.cmp(&BigRational::zero()));
    // Canonical representation: the fast form exactly when both words fit.
    match (fits_small(b.numer()), fits_small(b.denom())) {
        (Some(n), Some(d)) => {
            prop_assert!(!r.is_big(), "{} fits i128 but is stored big", b);
            prop_assert_eq!(r.as_small(), Some((n, d)));
        }
        _ => {
            prop_assert!(r.is_big(), "{} does not fit i128 but is stored small", b);
            prop_assert_eq!(r.as_small(), None);
        }
    }
    // Eq and Hash agree with a value built through an unrelated route.
    let direct = Rational::from_big_parts(b.numer().clone(), b.denom().clone()).unwrap();
    prop_assert_eq!(r, &direct);
    prop_assert_eq!(hash_of(r), hash_of(&direct));
    Ok(())
}

/// Integers that exercise every boundary: small, next to `i128::MAX`/`i128::MIN`, `i128::MIN`
/// itself, just above the range, powers of two (whose products overflow), full-range random,
/// and products of two full-range values (far beyond `i128`).
pub fn arb_int() -> impl Strategy<Value = BigInt> {
    prop_oneof![
        4 => (-20i128..=20).prop_map(bi),
        2 => (0i128..6).prop_map(|k| bi(i128::MAX - k)),
        2 => (0i128..6).prop_map(|k| bi(i128::MIN + k)),
        1 => (-3i64..=3).prop_map(|k| bi(i128::MAX) + 1 + k),
        1 => (-3i64..=3).prop_map(|k| bi(i128::MIN) - 1 + k),
        2 => (1usize..=127, -2i64..=2, any::<bool>()).prop_map(|(e, k, neg)| {
            let v = (BigInt::one() << e) + k;
            if neg { -v } else { v }
        }),
        // Halves, thirds, quarters of the extremes: their sums and differences with small
        // fractions land on or next to i128::MIN / i128::MAX without overflowing first.
        2 => (2i128..=4, -3i128..=3, any::<bool>())
            .prop_map(|(d, k, low)| bi(if low { i128::MIN } else { i128::MAX } / d + k)),
        3 => any::<i128>().prop_map(bi),
        2 => any::<i64>().prop_map(BigInt::from),
        1 => (any::<i128>(), any::<i128>()).prop_map(|(a, b)| bi(a) * bi(b)),
    ]
}

pub fn arb_nonzero_int() -> impl Strategy<Value = BigInt> {
    arb_int().prop_map(|n| if n.is_zero() { BigInt::one() } else { n })
}
