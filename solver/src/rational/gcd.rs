//! Greatest common divisors for [`Rational`](super::Rational)'s reductions: binary gcds on
//! machine words for the fixed-width fast path, and for big integers a Lehmer gcd, which
//! removes about 60 bits per pass where num-bigint's binary gcd removes one.

use std::cmp::Ordering;

use num_bigint::{BigInt, BigUint};
use num_traits::ToPrimitive;

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
    // One wide and one word-sized (a task count times a demand entry): one remainder first,
    // gcd(a, b) = gcd(a mod b, b). A binary gcd of unbalanced operands removes about a bit
    // per step, a hundred wide steps where the remainder is one division.
    let (wide, word) = if a > b { (a, b) } else { (b, a) };
    if word != 0 && word >> 64 == 0 {
        return u128::from(gcd_u64((wide % word) as u64, word as u64));
    }
    gcd_u128_wide(a, b)
}

#[inline]
pub(super) fn gcd_i128(a: i128, b: i128) -> i128 {
    // Inputs are never i128::MIN (invariant), so unsigned_abs fits and the gcd fits i128.
    gcd_u128(a.unsigned_abs(), b.unsigned_abs()) as i128
}

/// `gcd(big, small)` for `small > 0`, through one remainder by a machine word: no
/// big-integer gcd (num-bigint's is a binary gcd, quadratic in the size of `big`).
#[inline]
pub(super) fn gcd_big_small(big: &BigInt, small: i128) -> i128 {
    if let Ok(d) = u64::try_from(small.unsigned_abs()) {
        // A remainder limb by limb on machine words: num-bigint's `&BigUint % u128` copies
        // the number and runs its general long division.
        let rem = big
            .magnitude()
            .iter_u64_digits()
            .rev()
            .fold(0u128, |r, limb| {
                ((r << 64) | u128::from(limb)) % u128::from(d)
            });
        return gcd_u128(rem, u128::from(d)) as i128;
    }
    let rem = big.magnitude() % small.unsigned_abs();
    gcd_u128(
        rem.to_u128().expect("a remainder is below the divisor"),
        small.unsigned_abs(),
    ) as i128
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
pub(super) fn gcd_big(a: &BigInt, b: &BigInt) -> BigInt {
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
    if let Some(both) = second_matrix(u, v, first)
        && apply_cofactors(u, v, both)
    {
        return true;
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

#[cfg(test)]
mod tests {
    use super::*;
    use num_integer::Integer;
    use num_traits::One;
    use proptest::prelude::*;

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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The gcd of a big number and a machine word, by limbs (words below 2^64) or by
        /// num-bigint's division (above), agrees with num-bigint's gcd.
        #[test]
        fn gcd_big_small_matches_num_bigint(
            x in prop::collection::vec(any::<u64>(), 1..8),
            small in prop_oneof![1i128..1000, 1i128..=i128::from(u64::MAX), 1i128..i128::MAX],
            common in 1u64..1000,
            negate in any::<bool>(),
        ) {
            let a = from_limbs(&x) * BigInt::from(common);
            let a = if negate { -a } else { a };
            let small = small.saturating_mul(i128::from(common)).max(1);
            let expected = a.gcd(&BigInt::from(small));
            prop_assert_eq!(BigInt::from(gcd_big_small(&a, small)), expected.clone());
            prop_assert_eq!(BigInt::from(gcd_big_small(&a, -small)), expected);
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
}
