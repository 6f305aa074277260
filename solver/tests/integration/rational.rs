//! Integration tests for [`Rational`] and [`ExactSum`] against an independent oracle:
//! `num_rational::BigRational`, which never overflows.
//!
//! Every check asserts a fact about the exact value (equality with the oracle, the reduced
//! `p/q` text computed from the oracle, the canonical representation rule), never the
//! code's own earlier output. Parsing is tested in `rational_parse.rs`, numbers of thousands
//! of bits in `rational_big.rs`; the oracle helpers are in `common/oracle.rs`.

use std::cmp::Ordering;

use leontief_solver::{ExactSum, Rational};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::common;
use common::oracle::{
    arb_int, arb_nonzero_int, bi, check, expected_text, fits_small, hash_of, ratio,
};

// ---------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------

/// A value together with the unreduced parts and a construction route, so that the same
/// value reaches the code through every public constructor.
#[derive(Debug, Clone)]
struct Operand {
    num: BigInt,
    den: BigInt,
    route: u8,
}

impl Operand {
    fn oracle(&self) -> BigRational {
        BigRational::new(self.num.clone(), self.den.clone())
    }

    fn build(&self) -> Rational {
        let small = (self.num.to_i128(), self.den.to_i128());
        match (self.route % 6, small) {
            (0, (Some(n), Some(d))) => Rational::new(n, d).unwrap(),
            (1, _) => format!("{}/{}", self.num, self.den).parse().unwrap(),
            (2, _) => Rational::from_big(self.oracle()),
            (3, _) => Rational::from(self.oracle()),
            // Through an overflowing detour and back.
            (4, _) => {
                let detour = Rational::from(i128::MAX);
                let v = Rational::from_big_parts(self.num.clone(), self.den.clone()).unwrap();
                (v + &detour) - &detour
            }
            (5, (Some(n), Some(1))) => Rational::from(n),
            _ => Rational::from_big_parts(self.num.clone(), self.den.clone()).unwrap(),
        }
    }
}

fn arb_operand() -> impl Strategy<Value = Operand> {
    let den = prop_oneof![
        3 => (1i128..=12).prop_map(bi),
        1 => (-12i128..=-1).prop_map(bi),
        4 => arb_nonzero_int(),
    ];
    (arb_int(), den, any::<u8>()).prop_map(|(num, den, route)| Operand { num, den, route })
}

#[derive(Debug, Clone)]
enum Op {
    Add(Operand),
    Sub(Operand),
    Mul(Operand),
    Div(Operand),
    AddAssign(Operand),
    SubAssign(Operand),
    MulAssign(Operand),
    DivAssign(Operand),
    Neg,
    Recip,
    Floor,
    Ceil,
    Abs,
    Cmp(Operand),
    Min(Operand),
    Max(Operand),
    /// `x * y / y`: climbs out of `i128` and must come back down.
    MulDiv(Operand),
    /// `x + y - y`.
    AddSub(Operand),
    Set(Operand),
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => arb_operand().prop_map(Op::Add),
        3 => arb_operand().prop_map(Op::Sub),
        3 => arb_operand().prop_map(Op::Mul),
        3 => arb_operand().prop_map(Op::Div),
        1 => arb_operand().prop_map(Op::AddAssign),
        1 => arb_operand().prop_map(Op::SubAssign),
        1 => arb_operand().prop_map(Op::MulAssign),
        1 => arb_operand().prop_map(Op::DivAssign),
        1 => Just(Op::Neg),
        2 => Just(Op::Recip),
        2 => Just(Op::Floor),
        1 => Just(Op::Ceil),
        1 => Just(Op::Abs),
        2 => arb_operand().prop_map(Op::Cmp),
        1 => arb_operand().prop_map(Op::Min),
        1 => arb_operand().prop_map(Op::Max),
        3 => arb_operand().prop_map(Op::MulDiv),
        2 => arb_operand().prop_map(Op::AddSub),
        1 => arb_operand().prop_map(Op::Set),
    ]
}

fn apply(op: &Op, r: &mut Rational, b: &mut BigRational) -> Result<(), TestCaseError> {
    match op {
        Op::Add(y) => {
            *r = &*r + &y.build();
            *b = &*b + y.oracle();
        }
        Op::Sub(y) => {
            *r = r.clone() - y.build();
            *b = &*b - y.oracle();
        }
        Op::Mul(y) => {
            *r = &*r * y.build();
            *b = &*b * y.oracle();
        }
        Op::Div(y) => {
            let (ry, by) = (y.build(), y.oracle());
            if by.is_zero() {
                prop_assert!(r.checked_div(&ry).is_none());
            } else {
                *r = r.clone() / &ry;
                *b = &*b / by;
            }
        }
        Op::AddAssign(y) => {
            *r += y.build();
            *b += y.oracle();
        }
        Op::SubAssign(y) => {
            *r -= &y.build();
            *b -= y.oracle();
        }
        Op::MulAssign(y) => {
            *r *= &y.build();
            *b *= y.oracle();
        }
        Op::DivAssign(y) => {
            let by = y.oracle();
            if !by.is_zero() {
                *r /= y.build();
                *b /= by;
            }
        }
        Op::Neg => {
            *r = -&*r;
            *b = -b.clone();
            let back = -r.clone();
            prop_assert_eq!(back.to_big(), -b.clone());
        }
        Op::Recip => match r.recip() {
            None => prop_assert!(b.is_zero()),
            Some(inv) => {
                prop_assert!(!b.is_zero());
                *r = inv;
                *b = b.recip();
            }
        },
        Op::Floor => {
            let bf = b.floor();
            prop_assert_eq!(r.floor().to_big(), bf.clone());
            let expected_u64 = if bf.is_negative() {
                None
            } else {
                bf.to_integer().to_u64()
            };
            prop_assert_eq!(r.floor_u64(), expected_u64);
            *r = r.floor();
            *b = bf;
        }
        Op::Ceil => {
            *r = r.ceil();
            *b = b.ceil();
        }
        Op::Abs => {
            *r = r.abs();
            *b = b.abs();
        }
        Op::Cmp(y) => {
            let (ry, by) = (y.build(), y.oracle());
            check(&ry, &by)?;
            let expected = Ord::cmp(&*b, &by);
            let x: &Rational = r;
            prop_assert_eq!(x.cmp(&ry), expected);
            prop_assert_eq!(ry.cmp(x), expected.reverse());
            prop_assert_eq!(x.partial_cmp(&ry), Some(expected));
            prop_assert_eq!(*x == ry, expected == Ordering::Equal);
            prop_assert_eq!(*x < ry, expected == Ordering::Less);
        }
        Op::Min(y) => {
            *r = r.clone().min(y.build());
            *b = b.clone().min(y.oracle());
        }
        Op::Max(y) => {
            *r = r.clone().max(y.build());
            *b = b.clone().max(y.oracle());
        }
        Op::MulDiv(y) => {
            let (ry, by) = (y.build(), y.oracle());
            let up = &*r * &ry;
            let bup = &*b * &by;
            check(&up, &bup)?;
            if !by.is_zero() {
                let down = &up / &ry;
                check(&down, b)?;
                *r = down;
            }
        }
        Op::AddSub(y) => {
            let (ry, by) = (y.build(), y.oracle());
            let up = &*r + &ry;
            check(&up, &(&*b + &by))?;
            let down = up - ry;
            check(&down, b)?;
            *r = down;
        }
        Op::Set(y) => {
            *r = y.build();
            *b = y.oracle();
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// 1. Random operation sequences against BigRational
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    #[test]
    fn operation_sequences_match_bigrational(
        start in arb_operand(),
        ops in prop::collection::vec(arb_op(), 1..48),
    ) {
        let mut r = start.build();
        let mut b = start.oracle();
        check(&r, &b)?;
        for op in &ops {
            let (prev_r, prev_b) = (r.clone(), b.clone());
            apply(op, &mut r, &mut b)?;
            check(&r, &b)?;
            prop_assert_eq!(prev_r.cmp(&r), prev_b.cmp(&b));
            prop_assert_eq!(r.cmp(&prev_r), b.cmp(&prev_b));
        }
    }

    /// Climb far out of `i128` by multiplying, then come all the way back by dividing in a
    /// shuffled order; every intermediate value is checked, and the end is the start again
    /// (so back in the fast form when the start fits).
    #[test]
    fn long_climb_and_descent(
        start in arb_operand(),
        factors in prop::collection::vec(arb_operand(), 1..16),
        order in any::<u64>(),
    ) {
        let mut r = start.build();
        let mut b = start.oracle();
        let factors: Vec<Operand> =
            factors.into_iter().filter(|f| !f.num.is_zero()).collect();
        for f in &factors {
            r *= f.build();
            b *= f.oracle();
            check(&r, &b)?;
        }
        let mut idx: Vec<usize> = (0..factors.len()).collect();
        // A deterministic shuffle driven by the drawn seed.
        let mut s = order | 1;
        for i in (1..idx.len()).rev() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            idx.swap(i, (s % (i as u64 + 1)) as usize);
        }
        for &i in &idx {
            r /= factors[i].build();
            b /= factors[i].oracle();
            check(&r, &b)?;
        }
        prop_assert_eq!(&b, &start.oracle());
        prop_assert_eq!(r, start.build());
    }

    /// `Sum` and `Product` over iterators agree with the oracle.
    #[test]
    fn iterator_sum_and_product(xs in prop::collection::vec(arb_operand(), 0..12)) {
        let rs: Vec<Rational> = xs.iter().map(Operand::build).collect();
        let bs: Vec<BigRational> = xs.iter().map(Operand::oracle).collect();
        let bsum = bs.iter().fold(BigRational::zero(), |a, x| a + x);
        let bprod = bs.iter().fold(BigRational::one(), |a, x| a * x);
        check(&rs.iter().sum::<Rational>(), &bsum)?;
        check(&rs.clone().into_iter().sum::<Rational>(), &bsum)?;
        check(&rs.into_iter().product::<Rational>(), &bprod)?;
    }
}

// ---------------------------------------------------------------------------------------
// 2. Hash / Eq consistency across construction routes
// ---------------------------------------------------------------------------------------

fn assert_all_equal(values: &[Rational]) {
    let h0 = hash_of(&values[0]);
    for v in values {
        assert_eq!(v, &values[0]);
        assert_eq!(v.cmp(&values[0]), Ordering::Equal);
        assert_eq!(hash_of(v), h0, "hash differs for equal values {v}");
        assert_eq!(v.is_big(), values[0].is_big());
    }
}

#[test]
fn equal_values_from_different_routes_are_eq_and_hash_equal() {
    let max = Rational::from(i128::MAX);
    // 3/2 built directly, unreduced, from text, from big parts, from a demoted big value.
    let three_halves = [
        Rational::new(3, 2).unwrap(),
        Rational::new(-6, -4).unwrap(),
        "3/2".parse().unwrap(),
        "1.5".parse().unwrap(),
        "15e-1".parse().unwrap(),
        Rational::from_big(BigRational::new(
            bi(3) * bi(i128::MAX),
            bi(2) * bi(i128::MAX),
        )),
        Rational::from_big_parts(bi(9), bi(6)).unwrap(),
        (Rational::new(3, 2).unwrap() + &max) - &max,
        (Rational::new(3, 2).unwrap() * &max) / &max,
        Rational::new(1, i128::MAX).unwrap() * Rational::new(3 * (i128::MAX / 6), 1).unwrap()
            / Rational::new(i128::MAX / 6, i128::MAX).unwrap()
            / Rational::new(2, 1).unwrap(),
        serde_json::from_str::<Rational>("1.5").unwrap(),
        serde_json::from_str::<Rational>("\"6/4\"").unwrap(),
    ];
    assert_all_equal(&three_halves);
    assert!(!three_halves[0].is_big());

    // i128::MAX itself: direct and from a value that went through big integers.
    let maxes = [
        max.clone(),
        Rational::new(i128::MAX, 1).unwrap(),
        (&max + &max) - &max,
        (&max * &max) / &max,
        Rational::from(i128::MIN)
            + Rational::from(i128::MAX)
            + Rational::from(i128::MAX)
            + Rational::ONE,
        -(Rational::from(i128::MIN) + Rational::ONE),
        i128::MAX.to_string().parse().unwrap(),
    ];
    assert_all_equal(&maxes);
    assert!(!maxes[0].is_big());

    // A value that never fits: i128::MIN and 2^127, from several routes.
    let mins = [
        Rational::from(i128::MIN),
        Rational::new(i128::MIN, 1).unwrap(),
        Rational::new(i128::MIN, -1).unwrap() * Rational::from(-1),
        -Rational::from_big_parts(BigInt::one() << 127u32, BigInt::one()).unwrap(),
        -(&max + Rational::ONE),
        Rational::from(-i128::MAX) - Rational::ONE,
        i128::MIN.to_string().parse().unwrap(),
    ];
    assert_all_equal(&mins);
    assert!(mins[0].is_big());

    // 1/i128::MIN = -1/2^127: big denominator.
    let inv_min = [
        Rational::new(1, i128::MIN).unwrap(),
        Rational::new(-1, i128::MIN).unwrap() * Rational::from(-1),
        Rational::from(i128::MIN).recip().unwrap(),
        Rational::new(-1, i128::MAX).unwrap() * Rational::new(i128::MAX, i128::MAX).unwrap()
            / (Rational::from(i128::MAX) + Rational::ONE)
            * Rational::from(i128::MAX),
    ];
    assert_all_equal(&inv_min);
    assert!(inv_min[0].is_big());
    assert_eq!(
        inv_min[0].to_string(),
        format!("-1/{}", BigInt::one() << 127u32)
    );

    // Zero from many routes.
    let zeros = [
        Rational::ZERO,
        Rational::default(),
        Rational::new(0, -5).unwrap(),
        Rational::new(0, i128::MIN).unwrap(),
        &max - &max,
        Rational::from(i128::MIN) - Rational::from(i128::MIN),
        Rational::from_big_parts(BigInt::zero(), BigInt::from(7)).unwrap(),
        "-0.000e5".parse().unwrap(),
        "0/3".parse().unwrap(),
    ];
    assert_all_equal(&zeros);
    assert!(zeros.iter().all(Rational::is_zero));
}

proptest! {
    #[test]
    fn routes_agree_on_eq_and_hash(x in arb_operand(), k in 1i64..1000) {
        let b = x.oracle();
        let routes: Vec<Rational> = (0u8..6)
            .map(|route| Operand { route, ..x.clone() }.build())
            .chain([
                Rational::from_big_parts(&x.num * k, &x.den * k).unwrap(),
                Rational::from_big_parts(-&x.num, -&x.den).unwrap(),
                expected_text(&b).parse().unwrap(),
                serde_json::from_str(&format!("\"{}/{}\"", x.num, x.den)).unwrap(),
            ])
            .collect();
        for r in &routes {
            check(r, &b)?;
            prop_assert_eq!(r, &routes[0]);
            prop_assert_eq!(hash_of(r), hash_of(&routes[0]));
        }
    }
}

// ---------------------------------------------------------------------------------------
// 3. ExactSum
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum SumOp {
    Add(Operand),
    Sub(Operand),
    Value,
    CloneAndCompare,
}

/// Terms that stress the buckets: many equal denominators with numerators near `i128::MAX`
/// (so a bucket overflows and spills), small fractions, and values beyond `i128`.
fn arb_term() -> impl Strategy<Value = Operand> {
    prop_oneof![
        4 => arb_operand(),
        3 => ((0i128..4), prop_oneof![Just(1i128), Just(2), Just(3), Just(7)], any::<bool>(), any::<u8>())
            .prop_map(|(k, d, neg, route)| {
                let n = if neg { -(i128::MAX - k) } else { i128::MAX - k };
                Operand { num: bi(n), den: bi(d), route }
            }),
        3 => ((-50i128..=50), (1i128..=100), any::<u8>())
            .prop_map(|(n, d, route)| Operand { num: bi(n), den: bi(d), route }),
    ]
}

fn arb_sum_op() -> impl Strategy<Value = SumOp> {
    prop_oneof![
        6 => arb_term().prop_map(SumOp::Add),
        4 => arb_term().prop_map(SumOp::Sub),
        1 => Just(SumOp::Value),
        1 => Just(SumOp::CloneAndCompare),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    #[test]
    fn exact_sum_matches_bigrational(ops in prop::collection::vec(arb_sum_op(), 0..120)) {
        let mut s = ExactSum::new();
        let mut b = BigRational::zero();
        for op in &ops {
            match op {
                SumOp::Add(x) => {
                    s.add(&x.build());
                    b += x.oracle();
                }
                SumOp::Sub(x) => {
                    s.sub(&x.build());
                    b -= x.oracle();
                }
                SumOp::Value => {
                    check(&s.value(), &b)?;
                    // Asking twice changes nothing.
                    check(&s.value(), &b)?;
                }
                SumOp::CloneAndCompare => {
                    let mut copy = s.clone();
                    check(&copy.value(), &b)?;
                }
            }
        }
        check(&s.value(), &b)?;
        // Adding the negation brings it back to exactly zero.
        let total = s.value();
        s.sub(&total);
        check(&s.value(), &BigRational::zero())?;
    }

    /// The same terms in any order give the same (canonical) result.
    #[test]
    fn exact_sum_is_order_independent(terms in prop::collection::vec(arb_term(), 0..40)) {
        let mut forward = ExactSum::new();
        let mut backward = ExactSum::new();
        for t in &terms {
            forward.add(&t.build());
        }
        for t in terms.iter().rev() {
            backward.add(&t.build());
        }
        let expected = terms.iter().fold(BigRational::zero(), |a, t| a + t.oracle());
        let (f, bw) = (forward.value(), backward.value());
        check(&f, &expected)?;
        check(&bw, &expected)?;
        prop_assert_eq!(hash_of(&f), hash_of(&bw));
    }
}

#[test]
fn exact_sum_bucket_spills_and_cancels() {
    let mut s = ExactSum::new();
    let mut b = BigRational::zero();
    let near = Rational::new(i128::MAX, 7).unwrap();
    for i in 0..50 {
        if i % 3 == 2 {
            s.sub(&near);
            b -= ratio(i128::MAX, 7);
        } else {
            s.add(&near);
            b += ratio(i128::MAX, 7);
        }
        if i % 10 == 0 {
            assert_eq!(s.value().to_big(), b);
        }
    }
    assert_eq!(s.value().to_big(), b);
    // A bucket landing exactly on i128::MIN stays exact.
    let mut m = ExactSum::new();
    m.add(&Rational::new(-i128::MAX, 7).unwrap());
    m.add(&Rational::new(-1, 7).unwrap());
    let v = m.value();
    assert_eq!(v.to_big(), ratio(i128::MIN, 7));
    assert!(v.is_big());
    m.add(&Rational::new(1, 7).unwrap());
    assert_eq!(m.value(), Rational::new(-i128::MAX, 7).unwrap());
    assert!(!m.value().is_big());
    // Harmonic numbers: the common denominator is far beyond i128, the result exact.
    let mut h = ExactSum::new();
    let mut hb = BigRational::zero();
    for d in 1..=150 {
        h.add(&Rational::new(1, d).unwrap());
        hb += ratio(1, d);
    }
    let v = h.value();
    assert!(v.is_big());
    assert_eq!(v.to_big(), hb);
    for d in 1..=150 {
        h.sub(&Rational::new(1, d).unwrap());
    }
    assert_eq!(h.value(), Rational::ZERO);
    assert!(!h.value().is_big());
}

// ---------------------------------------------------------------------------------------
// 4. Overflow never wraps
// ---------------------------------------------------------------------------------------

#[test]
fn overflow_never_wraps() {
    let max = Rational::from(i128::MAX);
    let one = Rational::ONE;
    let two_127 = BigInt::one() << 127u32;

    // i128::MAX + 1 = 2^127.
    let r = &max + &one;
    assert!(r.is_big());
    assert_eq!(r.to_big(), BigRational::from_integer(two_127.clone()));
    assert_eq!(r.to_string(), "170141183460469231731687303715884105728");
    assert!(r > max);
    assert_eq!(&r - &one, max);
    assert!(!(&r - &one).is_big());

    // (i128::MAX / 2 + 1) * 2 = 2^127.
    let half = Rational::from(i128::MAX / 2 + 1);
    assert!(!half.is_big());
    let r = &half * Rational::from(2);
    assert_eq!(r.to_big(), BigRational::from_integer(two_127.clone()));
    assert!(r.is_positive());
    assert_eq!(&half + &half, r);

    // -(i128::MAX/2 + 1) * 2 = i128::MIN: fits two's complement but not the fast form.
    let r = -&half * Rational::from(2);
    assert_eq!(r.to_big(), BigRational::from_integer(bi(i128::MIN)));
    assert!(r.is_big());
    assert!(r.is_negative());

    // 1/i128::MAX * 1/i128::MAX = 1/i128::MAX^2.
    let tiny = Rational::new(1, i128::MAX).unwrap();
    let r = &tiny * &tiny;
    assert_eq!(
        r.to_big(),
        BigRational::new(BigInt::one(), bi(i128::MAX) * bi(i128::MAX))
    );
    assert!(r.is_positive());
    assert!(r < tiny);
    assert_eq!(&r * &max, tiny);
    assert!(!(&r * &max).is_big());
    // 1/i128::MAX + 1/(i128::MAX - 1): denominators multiply beyond i128.
    let r = &tiny + Rational::new(1, i128::MAX - 1).unwrap();
    assert_eq!(r.to_big(), ratio(1, i128::MAX) + ratio(1, i128::MAX - 1));

    // Negation of -i128::MAX - 1 = i128::MIN is 2^127.
    let min = Rational::from(-i128::MAX) - Rational::ONE;
    assert_eq!(min.to_big(), BigRational::from_integer(bi(i128::MIN)));
    let r = -&min;
    assert_eq!(r.to_big(), BigRational::from_integer(two_127.clone()));
    assert!(r.is_positive());
    assert_eq!(-r, min);
    assert_eq!(
        min.abs().to_big(),
        BigRational::from_integer(two_127.clone())
    );
    assert_eq!(Rational::from(i128::MIN), min);
    assert_eq!(min.floor(), min);
    assert_eq!(min.ceil(), min);
    assert_eq!(
        min.recip().unwrap().to_big(),
        BigRational::new(BigInt::one(), bi(i128::MIN))
    );

    // i128::MIN + i128::MIN, i128::MIN * -1, i128::MIN / -1, MIN - MAX.
    assert_eq!(
        (&min + &min).to_big(),
        BigRational::from_integer(bi(i128::MIN) * 2)
    );
    assert_eq!(
        (&min * Rational::from(-1)).to_big(),
        BigRational::from_integer(two_127.clone())
    );
    assert_eq!(
        (&min / Rational::from(-1)).to_big(),
        BigRational::from_integer(two_127.clone())
    );
    assert_eq!(
        (&min - &max).to_big(),
        BigRational::from_integer(bi(i128::MIN) - bi(i128::MAX))
    );
    // -i128::MAX - 1 as a difference that lands exactly on i128::MIN inside the fast path.
    let r = Rational::from(-i128::MAX) + Rational::from(-1);
    assert_eq!(r.to_big(), BigRational::from_integer(bi(i128::MIN)));
    // The same with a common denominator: (-MAX/3) - (1/3) = MIN/3.
    let r = Rational::new(-i128::MAX, 3).unwrap() - Rational::new(1, 3).unwrap();
    assert_eq!(r.to_big(), ratio(i128::MIN, 3));
    assert!(r.is_big());
    // Different denominators whose cross-multiplied sum is exactly i128::MIN with no
    // overflow on the way: a + (-2/3) with 3a = -(2^127 - 2), so 3a - 2 = -2^127.
    let a = -((i128::MAX - 1) / 3);
    assert_eq!(bi(a) * 3 - 2, bi(i128::MIN));
    let r = Rational::from(a) + Rational::new(-2, 3).unwrap();
    assert_eq!(r.to_big(), ratio(i128::MIN, 3));
    assert!(r.is_big());
    assert_eq!(r.to_string(), format!("{}/3", i128::MIN));
    let r = Rational::new(-2, 3).unwrap() - Rational::from(-a);
    assert_eq!(r.to_big(), ratio(i128::MIN, 3));
    assert!(r.is_big());
    assert_eq!(
        -&r,
        Rational::from_big_parts(BigInt::one() << 127u32, bi(3)).unwrap()
    );
    // Products landing exactly on i128::MIN: -2^63 * 2^64.
    let r = Rational::from(-(1i128 << 63)) * Rational::from(1i128 << 64);
    assert_eq!(r.to_big(), BigRational::from_integer(bi(i128::MIN)));
    assert!(r.is_big());
    // A denominator landing on 2^127: (1/2^63) * (1/2^64) = 1/2^127.
    let r = Rational::new(1, 1i128 << 63).unwrap() * Rational::new(-1, 1i128 << 64).unwrap();
    assert_eq!(
        r.to_big(),
        BigRational::new(BigInt::from(-1), two_127.clone())
    );
    // Sum with denominators whose product is 2^127.
    let r = Rational::new(1, 1i128 << 126).unwrap() + Rational::new(1, 2).unwrap();
    assert_eq!(r.to_big(), ratio(1, 1i128 << 126) + ratio(1, 2));

    // Comparisons whose cross products overflow.
    let a = Rational::new(i128::MAX, i128::MAX - 1).unwrap();
    let b = Rational::new(i128::MAX - 1, i128::MAX - 2).unwrap();
    assert_eq!(
        a.cmp(&b),
        ratio(i128::MAX, i128::MAX - 1).cmp(&ratio(i128::MAX - 1, i128::MAX - 2))
    );
    assert!(a < b);
    assert!(Rational::new(-i128::MAX, 3).unwrap() < Rational::new(-i128::MAX + 1, 3).unwrap());

    // floor / ceil near the edges.
    let r = Rational::new(-i128::MAX, 2).unwrap();
    assert_eq!(r.floor().to_big(), ratio(-i128::MAX, 2).floor());
    assert_eq!(r.ceil().to_big(), ratio(-i128::MAX, 2).ceil());
    let r = Rational::new(i128::MAX, i128::MAX - 1).unwrap();
    assert_eq!(r.floor(), Rational::ONE);
    assert_eq!(r.ceil(), Rational::from(2));

    // A long climb: (i128::MAX)^8 / (i128::MAX)^8 stays exact the whole way.
    let mut x = Rational::ONE;
    let mut bx = BigRational::one();
    for _ in 0..8 {
        x *= &max;
        bx *= ratio(i128::MAX, 1);
        assert_eq!(x.to_big(), bx);
    }
    for _ in 0..8 {
        x /= &max;
        bx /= ratio(i128::MAX, 1);
        assert_eq!(x.to_big(), bx);
    }
    assert_eq!(x, Rational::ONE);
    assert!(!x.is_big());
}

#[test]
#[should_panic(expected = "division by zero")]
fn division_by_zero_panics_rather_than_wrapping() {
    let _ = Rational::ONE / Rational::ZERO;
}

#[test]
fn from_big_accepts_unreduced_input() {
    // `BigRational::new_raw` can hand over an unreduced fraction or a negative denominator;
    // the result must still be the canonical value.
    let cases = [
        (bi(6), bi(4)),
        (bi(3), bi(-2)),
        (bi(0), bi(5)),
        (bi(-4), bi(-8)),
        (bi(i128::MAX) * 2, bi(2)),
        (bi(i128::MIN), bi(-1)),
        (bi(i128::MAX) * bi(i128::MAX), bi(i128::MAX) * bi(3)),
    ];
    for (n, d) in cases {
        let oracle = BigRational::new(n.clone(), d.clone());
        let raw = BigRational::new_raw(n, d);
        let r = Rational::from_big(raw.clone());
        assert_eq!(r.to_string(), expected_text(&oracle), "from_big({raw:?})");
        assert_eq!(r, Rational::from_big(oracle.clone()));
        assert_eq!(hash_of(&r), hash_of(&Rational::from_big(oracle.clone())));
        assert_eq!(r.is_big(), fits_small(oracle.numer()).is_none());
        assert_eq!(Rational::from(raw).to_string(), expected_text(&oracle));
    }
}
