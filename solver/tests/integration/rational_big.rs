//! Big-by-big `Rational` arithmetic against the oracle (`num_rational::BigRational`): numbers
//! of thousands of bits with large common factors, where the reductions use the big gcd.

use leontief_solver::Rational;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

use crate::common;
use common::oracle::check;

/// A product of `k` random 64-bit words, times `2^shift`, signed: thousands of bits when `k`
/// is large, with many small prime factors and, through `common`, large shared ones.
fn word_product(words: &[u64], shift: usize, negative: bool) -> BigInt {
    let mut n = words
        .iter()
        .fold(BigInt::one(), |acc, &w| acc * BigInt::from(w | 1));
    n <<= shift;
    if negative {
        -n
    } else {
        n
    }
}

#[derive(Debug, Clone)]
struct Huge {
    num: BigInt,
    den: BigInt,
}

impl Huge {
    fn oracle(&self) -> BigRational {
        BigRational::new(self.num.clone(), self.den.clone())
    }
    fn build(&self) -> Rational {
        Rational::from_big_parts(self.num.clone(), self.den.clone()).unwrap()
    }
}

/// Two values whose numerators and denominators share the factors in `common` (so that every
/// gcd of the big operations is large), of up to 60 words (40 own, 20 shared): balanced and
/// very unbalanced pairs, equal denominators, and values that cancel.
fn arb_huge_pair() -> impl Strategy<Value = (Huge, Huge, u8)> {
    let words = |max: usize| prop::collection::vec(any::<u64>(), 2..max);
    (
        (words(40), words(40), words(40), words(40)),
        (words(20), words(20)),
        (0usize..70, 0usize..70, any::<bool>(), any::<bool>()),
        any::<u8>(),
    )
        .prop_map(|((a, b, c, d), (g, h), (s1, s2, n1, n2), mode)| {
            let common_num = word_product(&g, 0, false);
            let common_den = word_product(&h, 0, false);
            let x = Huge {
                num: word_product(&a, s1, n1) * &common_num,
                den: word_product(&b, 0, false) * &common_den,
            };
            let y = match mode % 4 {
                // Same denominator (reduced forms may still differ).
                0 => Huge {
                    num: word_product(&c, s2, n2) * &common_num,
                    den: x.den.clone(),
                },
                // The negation of x plus a tiny difference: the sum nearly cancels.
                1 => Huge {
                    num: -(&x.num * BigInt::from(1u64 << 20) + BigInt::from(mode)),
                    den: &x.den * BigInt::from(1u64 << 20),
                },
                // Very unbalanced: one word over a multiple of x's common factors.
                2 => Huge {
                    num: BigInt::from(d[0] | 1) * &common_den,
                    den: BigInt::from(c[0] | 1) * &common_num,
                },
                _ => Huge {
                    num: word_product(&c, s2, n2) * &common_den,
                    den: word_product(&d, 0, false) * &common_num,
                },
            };
            (x, y, mode)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// `+ - * /` of two big values (the gcd-based big-by-big paths) equal `BigRational`'s,
    /// reduced, and `x + y - y` and `x * y / y` come back to `x` exactly.
    #[test]
    fn big_by_big_arithmetic_matches_bigrational((x, y, _mode) in arb_huge_pair()) {
        let (rx, ry) = (x.build(), y.build());
        let (bx, by) = (x.oracle(), y.oracle());
        check(&rx, &bx)?;
        check(&ry, &by)?;
        check(&(&rx + &ry), &(&bx + &by))?;
        check(&(&ry + &rx), &(&bx + &by))?;
        check(&(&rx - &ry), &(&bx - &by))?;
        check(&(&rx * &ry), &(&bx * &by))?;
        check(&(&rx / &ry), &(&bx / &by))?;
        check(&(&ry / &rx), &(&by / &bx))?;
        check(&(&(&rx + &ry) - &ry), &bx)?;
        check(&(&(&rx * &ry) / &ry), &bx)?;
        check(&(&rx - &rx), &BigRational::zero())?;
        check(&(&rx / &rx), &BigRational::one())?;
    }
}

#[test]
fn big_by_big_gcds_of_known_size() {
    // Denominators 3^400·2^300 and 3^500·5^7 over numerators 7^300 + 6 and 11^250 + 6, both
    // prime to 2, 3 and 5 (7^300 ≡ 11^250 ≡ 1 mod 2, 3 and 5). The sum is
    // (n_a·3^100·5^7 + n_b·2^300) / (3^500·2^300·5^7), whose numerator is odd, ≡ 1 mod 3 and
    // ≡ 2 mod 5: nothing cancels. Nothing cancels in the product either.
    let three = BigInt::from(3);
    let p = num_traits::pow(three.clone(), 400) << 300usize;
    let q = num_traits::pow(three.clone(), 500) * BigInt::from(78_125);
    let a = BigRational::new(num_traits::pow(BigInt::from(7), 300) + 6, p.clone());
    let b = BigRational::new(num_traits::pow(BigInt::from(11), 250) + 6, q.clone());
    let (ra, rb) = (Rational::from_big(a.clone()), Rational::from_big(b.clone()));
    let sum = &ra + &rb;
    assert_eq!(sum.to_big(), &a + &b);
    assert_eq!(
        sum.denom(),
        (num_traits::pow(three, 500) * BigInt::from(78_125)) << 300usize
    );
    let product = &ra * &rb;
    assert_eq!(product.to_big(), &a * &b);
    assert_eq!(product.denom(), p * q);
    // Consecutive Fibonacci numbers: every Euclidean quotient is 1 (the slowest case of the
    // gcd). F(n)/F(n+1) + F(n+1)/F(n+2) and their product, against the oracle.
    let mut fib = vec![BigInt::zero(), BigInt::one()];
    for k in 2..2_000 {
        let next = &fib[k - 1] + &fib[k - 2];
        fib.push(next);
    }
    let f = |k: usize| BigRational::new(fib[k].clone(), fib[k + 1].clone());
    let (fa, fb) = (f(1_990), f(1_991));
    let (rfa, rfb) = (
        Rational::from_big(fa.clone()),
        Rational::from_big(fb.clone()),
    );
    assert_eq!((&rfa + &rfb).to_big(), &fa + &fb);
    assert_eq!((&rfa * &rfb).to_big(), &fa * &fb);
    assert_eq!(
        (&rfa * &rfb).to_big(),
        BigRational::new(fib[1_990].clone(), fib[1_992].clone())
    );
    // A quotient of two big values that is small again is stored small.
    let twice = &ra + &ra;
    let back = &twice / &ra;
    assert_eq!(back, Rational::from(2));
    assert!(!back.is_big());
}
