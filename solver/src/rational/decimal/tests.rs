//! Tests of the decimal kernel: literal rounding against exact values, the bounds of
//! products and ratios, and correct rounding at ties.

use super::*;
use crate::random_instances::SplitMix64;
use proptest::prelude::*;

fn dec(text: &str, n: u32) -> String {
    text.parse::<Rational>().unwrap().to_decimal(n)
}

proptest! {
    /// Rounding a literal's digits is rounding its exact value.
    #[test]
    fn literals_round_as_their_values(
        neg in any::<bool>(),
        int in "[0-9]{1,4}",
        frac in proptest::option::of("[0-9]{1,25}"),
        n in 1u32..20,
    ) {
        let text = format!("{}{int}{}", if neg { "-" } else { "" },
            frac.map(|f| format!(".{f}")).unwrap_or_default());
        let mut s = String::new();
        prop_assert!(write_literal_decimal(&text, n, &mut s));
        prop_assert_eq!(s, dec(&text, n));
    }

    /// The same on the texts `f64`'s `Display` writes.
    #[test]
    fn float_texts_round_as_their_values(x in any::<f64>(), n in 1u32..20) {
        prop_assume!(x.is_finite());
        let text = x.to_string();
        let mut s = String::new();
        prop_assert!(write_literal_decimal(&text, n, &mut s));
        prop_assert_eq!(s, dec(&text, n));
    }
}

#[test]
fn literal_ties_and_carries() {
    // 0.125 is halfway: the even 2 stays; 9.995 at 3 digits carries to 10.
    for (text, n, want) in [
        ("0.125", 2, "0.12"),
        ("0.375", 2, "0.38"),
        ("9.995", 3, "10"),
        ("999.9995", 6, "1000"),
        ("0.0000995", 2, "0.0001"),
        ("-0", 3, "0"),
        ("0.1250000001", 2, "0.13"),
    ] {
        let mut s = String::new();
        assert!(write_literal_decimal(text, n, &mut s));
        assert_eq!(s, want, "{text} at {n}");
    }
    for bad in ["", "-", ".5", "5.", "1e5", "inf", "NaN", "1/2", "--1"] {
        assert!(!write_literal_decimal(bad, 3, &mut String::new()), "{bad}");
    }
}

#[test]
fn ties_go_to_even() {
    // 0.125 is exactly halfway between 0.12 and 0.13: the even 2 is kept.
    assert_eq!(dec("0.125", 2), "0.12");
    // 0.375 between 0.37 and 0.38: the even 8.
    assert_eq!(dec("0.375", 2), "0.38");
    // 2.5 at one digit: 2; 3.5: 4; -2.5: -2.
    assert_eq!(dec("2.5", 1), "2");
    assert_eq!(dec("3.5", 1), "4");
    assert_eq!(dec("-2.5", 1), "-2");
    // 1/8 = 0.125 again, from a fraction.
    assert_eq!(dec("1/8", 2), "0.12");
    // Just above a tie rounds up: 0.1250001 → 0.13.
    assert_eq!(dec("0.1250001", 2), "0.13");
}

#[test]
fn small_values_near_a_carry() {
    // 0.0000995 = 9.95e-5 has three significant digits: exact at 3 and more. At 2 digits
    // 9.9|5 is a tie between 9.9 (odd) and 10.0 (even): 1.0e-4, printed 0.0001. At 1 digit
    // 9|.95 drops 0.95 > 1/2: up to 10, again 1e-4.
    assert_eq!(dec("0.0000995", 3), "0.0000995");
    assert_eq!(dec("0.0000995", 12), "0.0000995");
    assert_eq!(dec("0.0000995", 2), "0.0001");
    assert_eq!(dec("0.0000995", 1), "0.0001");
}

#[test]
fn carry_into_a_new_digit() {
    // 999.9995 has seven significant digits: exact at 7 and more.
    assert_eq!(dec("999.9995", 7), "999.9995");
    assert_eq!(dec("999.9995", 12), "999.9995");
    // At 6 digits 999.999|5 is a tie between 999.999 (odd) and 1000.00 (even): the carry
    // adds a digit, and 1000.00 is printed without its trailing zeros, 1000.
    assert_eq!(dec("999.9995", 6), "1000");
    // At 5 digits 999.99|95 drops 0.0095 > 0.005: up to 1000.0, printed 1000.
    assert_eq!(dec("999.9995", 5), "1000");
    assert_eq!(dec("999.9995", 3), "1000");
    // 9.995 at 3 digits: 9.99|5, a tie, 9.99 odd: up to 10.0, printed 10.
    assert_eq!(dec("9.995", 3), "10");
    // 9.985 at 3 digits: a tie, 9.98 even: stays.
    assert_eq!(dec("9.985", 3), "9.98");
}

#[test]
fn thirds_and_signs() {
    assert_eq!(dec("1/3", 1), "0.3");
    assert_eq!(dec("1/3", 12), "0.333333333333");
    assert_eq!(dec("2/3", 12), "0.666666666667");
    assert_eq!(dec("-2/3", 3), "-0.667");
    assert_eq!(dec("0", 3), "0");
    assert_eq!(dec("7", 3), "7");
    assert_eq!(dec("1234567", 3), "1230000");
    assert_eq!(dec("100", 1), "100");
}

#[test]
fn notation_switches_at_the_documented_exponents() {
    // e = -7 and below: scientific; e = -6: plain.
    assert_eq!(dec("1e-7", 3), "1e-7");
    assert_eq!(dec("0.00000123", 3), "0.00000123");
    assert_eq!(dec("1.23e-7", 3), "1.23e-7");
    // e = 20: plain; e = 21: scientific.
    assert_eq!(dec("1.5e20", 3), "150000000000000000000");
    assert_eq!(dec("1.5e21", 3), "1.5e21");
    assert_eq!(dec("-6.02214076e23", 4), "-6.022e23");
}

#[test]
fn huge_and_tiny_values_take_the_big_path() {
    // 10^100 / 3 = 3.333...e99.
    let x = Rational::from_big_parts(BigInt::from(10).pow(100u32), 3.into()).unwrap();
    assert_eq!(x.to_decimal(5), "3.3333e99");
    // 2 / (3 · 10^100) = 6.666...e-101 → 6.667e-101 at 4 digits.
    let y =
        Rational::from_big_parts(2.into(), BigInt::from(3) * BigInt::from(10).pow(100u32)).unwrap();
    assert_eq!(y.to_decimal(4), "6.667e-101");
    // (10^60 + 1) / 10^60 at 12 digits is 1 (the 1e-60 is far below the last digit).
    let z = Rational::from_big_parts(BigInt::from(10).pow(60u32) + 1, BigInt::from(10).pow(60u32))
        .unwrap();
    assert_eq!(z.to_decimal(12), "1");
    // 40 digits of 1/7 (past the machine-word path): 0.1428571428571428571428571428571428571429.
    assert_eq!(dec("1/7", 40), "0.1428571428571428571428571428571428571429");
    // i128::MAX (a small value, its 39 digits) at 3 digits: 1.70141...e38 → 1.7e38.
    assert_eq!(Rational::from(i128::MAX).to_decimal(3), "1.7e38");
}

#[test]
fn products_round_like_the_reduced_product() {
    let values = [
        "0",
        "1/3",
        "-2/7",
        "999.9995",
        "1e-9",
        "123456789012345678901234567890/7",
    ];
    let big = Rational::from_big_parts(BigInt::from(10).pow(45u32) + 7, BigInt::from(3).pow(90u32))
        .unwrap();
    let mut all: Vec<Rational> = values.iter().map(|v| v.parse().unwrap()).collect();
    all.push(big.clone());
    all.push(-big);
    for a in &all {
        for b in &all {
            for n in [1, 2, 7, 12, 36, 50] {
                let mut s = String::new();
                a.write_product_decimal(b, n, &mut s);
                assert_eq!(s, (a * b).to_decimal(n), "{a} · {b} at {n}");
            }
        }
    }
}

#[test]
fn unreduced_ratios_round_like_reduced_ones() {
    let mut s = String::new();
    write_ratio_decimal(&BigInt::from(250), &BigInt::from(-2000), 2, &mut s);
    assert_eq!(s, "-0.12");
}

/// 10^k as a rational, for any integer k.
fn pow10(k: i64) -> Rational {
    let p = Rational::from(BigInt::from(10).pow(k.unsigned_abs() as u32));
    if k >= 0 {
        p
    } else {
        p.recip().unwrap()
    }
}

/// ⌊log10 |x|⌋ for x ≠ 0, by comparison with powers of ten (exact).
fn exponent(x: &Rational) -> i64 {
    let a = x.abs();
    let mut e = 0i64;
    while pow10(e) > a {
        e -= 1;
    }
    while pow10(e + 1) <= a {
        e += 1;
    }
    e
}

fn check_correctly_rounded(x: &Rational, n: u32) {
    let text = x.to_decimal(n);
    let d = Rational::from_decimal_str(&text).unwrap();
    if x.is_zero() {
        assert_eq!(text, "0");
        return;
    }
    let ulp = pow10(exponent(x) - i64::from(n) + 1);
    let err = (d.clone() - x.clone()).abs();
    let half = ulp.clone() / Rational::from(2);
    assert!(
        err <= half,
        "{x} at {n}: {text} is off by {err} > ulp/2 = {half}"
    );
    let k = d.clone() / ulp;
    assert!(
        k.is_integer(),
        "{x} at {n}: {text} is not a multiple of the ulp"
    );
    if err == half {
        let even = (k.numer() % 2u32).is_zero();
        assert!(even, "{x} at {n}: tie {text} not to even");
    }
    // No trailing zero after a point, no leading zeros, no '+'.
    let mantissa = text.split('e').next().unwrap();
    assert!(
        !mantissa.contains('.') || !mantissa.ends_with('0'),
        "{text}"
    );
    assert!(!text.contains('+'), "{text}");
}

proptest! {
    #[test]
    fn correctly_rounded_small(p in -1_000_000i64..1_000_000, q in 1i64..1_000_000, n in 1u32..20) {
        check_correctly_rounded(&Rational::new(p.into(), q.into()).unwrap(), n);
    }

    #[test]
    fn correctly_rounded_ties(m in 0i64..100_000, k in 0u32..8, n in 1u32..6) {
        // (2m+1)/2 · 10^-k: many exact ties at small n.
        let x = Rational::new(i128::from(2 * m + 1), 2 * 10i128.pow(k)).unwrap();
        check_correctly_rounded(&x, n);
    }

    #[test]
    fn correctly_rounded_big(p in proptest::collection::vec(1u32.., 1..6),
                             q in proptest::collection::vec(1u32.., 1..6),
                             neg in any::<bool>(), n in 1u32..45) {
        let p = BigInt::from(BigUint::new(p));
        let q = BigInt::from(BigUint::new(q));
        let p = if neg { -p } else { p };
        check_correctly_rounded(&Rational::from_big_parts(p, q).unwrap(), n);
    }
}

// DecimalBounds: every decided rounding is the exact kernel's.

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
        if let Some(s) = shown(DecimalBounds::of_ratio(&a.into(), &b.into()).unwrap(), n) {
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
        assert_eq!(
            shown(DecimalBounds::of_ratio(&a.into(), &b.into()).unwrap(), n).unwrap(),
            want
        );
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
