//! Parsing `Rational`s against the oracle (`num_rational::BigRational`): decimal literals,
//! fractions and JSON numbers built with their exact value computed without the parser under
//! test, and every malformed form rejected with the right error.

use leontief_solver::{ParseRationalError, Rational};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

use crate::common;
use common::oracle::{arb_int, arb_nonzero_int, bi, check, expected_text, pow10, ratio};

/// A decimal literal and its exact value, computed without the parser under test.
#[derive(Debug, Clone)]
struct Decimal {
    text: String,
    value: BigRational,
}

/// An exponent: the letter (`e` or `E`), its sign, its value and its leading zeros.
type Exponent = (char, &'static str, u32, usize);

fn build_decimal(sign: &str, int: &str, frac: Option<&str>, exp: Option<Exponent>) -> Decimal {
    let mut text = format!("{sign}{int}");
    let mut digits = int.to_string();
    let mut scale: i64 = 0;
    if let Some(f) = frac {
        text.push('.');
        text.push_str(f);
        digits.push_str(f);
        scale = f.len() as i64;
    }
    let mut e: i64 = 0;
    if let Some((letter, esign, val, zeros)) = exp {
        text.push_str(&format!("{letter}{esign}{}{val}", "0".repeat(zeros)));
        e = if esign == "-" {
            -i64::from(val)
        } else {
            i64::from(val)
        };
    }
    let mantissa: BigInt = digits.parse().unwrap();
    let mantissa = if sign == "-" { -mantissa } else { mantissa };
    let shift = e - scale;
    let value = if shift >= 0 {
        BigRational::from_integer(mantissa * pow10(shift as u32))
    } else {
        BigRational::new(mantissa, pow10((-shift) as u32))
    };
    Decimal { text, value }
}

/// Decimal literals as the parser documents them (optional `+`/`-`, digits with leading zeros,
/// optional fraction, optional exponent with `e`/`E`, sign and leading zeros).
fn arb_decimal() -> impl Strategy<Value = Decimal> {
    (
        prop_oneof![Just(""), Just("-"), Just("+")],
        "[0-9]{1,30}",
        proptest::option::of("[0-9]{1,30}"),
        arb_exponent(60, 2),
    )
        .prop_map(|(sign, int, frac, exp)| build_decimal(sign, &int, frac.as_deref(), exp))
}

/// An optional exponent: `e` or `E`, a sign, a value up to `max` and up to `zeros` leading
/// zeros.
fn arb_exponent(max: u32, zeros: usize) -> impl Strategy<Value = Option<Exponent>> {
    proptest::option::of((
        prop_oneof![Just('e'), Just('E')],
        prop_oneof![Just(""), Just("+"), Just("-")],
        0u32..=max,
        0usize..=zeros,
    ))
}

/// Decimal literals that are valid JSON numbers (no `+`, no superfluous leading zeros).
fn arb_json_number() -> impl Strategy<Value = Decimal> {
    (
        prop_oneof![Just(""), Just("-")],
        prop_oneof![Just("0".to_string()), "[1-9][0-9]{0,40}"],
        proptest::option::of("[0-9]{1,40}"),
        arb_exponent(80, 3),
    )
        .prop_map(|(sign, int, frac, exp)| build_decimal(sign, &int, frac.as_deref(), exp))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parses_integer_fractions_exactly(p in any::<i128>(), q in any::<i128>()) {
        let text = format!("{p}/{q}");
        let parsed = text.parse::<Rational>();
        if q == 0 {
            prop_assert_eq!(parsed, Err(ParseRationalError::DivisionByZero(text)));
        } else {
            let r = parsed.unwrap();
            check(&r, &ratio(p, q))?;
            let spaced: Rational = format!("  {p} / {q} ").parse().unwrap();
            prop_assert_eq!(&spaced, &r);
            // Display is itself valid input for the parser.
            prop_assert_eq!(r.to_string().parse::<Rational>().unwrap(), r);
        }
    }

    #[test]
    fn parses_big_integer_fractions_exactly(p in arb_int(), q in arb_nonzero_int()) {
        let r: Rational = format!("{p}/{q}").parse().unwrap();
        check(&r, &BigRational::new(p.clone(), q.clone()))?;
        if q.is_one() {
            check(&p.to_string().parse().unwrap(), &BigRational::from_integer(p))?;
        }
    }

    #[test]
    fn parses_decimals_exactly(d in arb_decimal()) {
        let r = Rational::from_decimal_str(&d.text).unwrap();
        check(&r, &d.value)?;
        let via_from_str: Rational = d.text.parse().unwrap();
        prop_assert_eq!(&via_from_str, &r);
        let quoted: Rational = serde_json::from_str(&format!("\"{}\"", d.text)).unwrap();
        prop_assert_eq!(quoted, r);
    }

    #[test]
    fn parses_fractions_of_decimals_exactly(a in arb_decimal(), b in arb_decimal()) {
        let text = format!("{}/{}", a.text, b.text);
        let parsed = text.parse::<Rational>();
        if b.value.is_zero() {
            prop_assert_eq!(parsed, Err(ParseRationalError::DivisionByZero(text)));
        } else {
            check(&parsed.unwrap(), &(&a.value / &b.value))?;
        }
    }

    #[test]
    fn json_numbers_are_read_exactly(d in arb_json_number()) {
        let value: serde_json::Value = serde_json::from_str(&d.text).unwrap();
        prop_assert!(value.is_number());
        check(&Rational::from_json(&value).unwrap(), &d.value)?;
        let direct: Rational = serde_json::from_str(&d.text).unwrap();
        check(&direct, &d.value)?;
        let in_array: Vec<Rational> =
            serde_json::from_str(&format!("[{}, \"{}\"]", d.text, d.text)).unwrap();
        prop_assert_eq!(in_array.len(), 2);
        check(&in_array[0], &d.value)?;
        check(&in_array[1], &d.value)?;
        // Serialization is the exact reduced text, and it round-trips.
        let json = serde_json::to_string(&direct).unwrap();
        prop_assert_eq!(&json, &format!("\"{}\"", expected_text(&d.value)));
        prop_assert_eq!(serde_json::from_str::<Rational>(&json).unwrap(), direct);
    }
}

fn json(text: &str) -> Rational {
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    Rational::from_json(&value).unwrap()
}

#[test]
fn json_path_is_exact() {
    assert_eq!(json("0.1").to_big(), ratio(1, 10));
    assert_eq!(json("1e-4").to_big(), ratio(1, 10_000));
    assert_eq!(json("1E-4").to_big(), ratio(1, 10_000));
    assert_eq!(json("-2.50").to_big(), ratio(-5, 2));
    assert_eq!(json("0.3").to_big() - json("0.1").to_big(), ratio(1, 5));
    let big = json("123456789012345678901234567890.5");
    let expected = BigRational::new(
        "1234567890123456789012345678905".parse::<BigInt>().unwrap(),
        BigInt::from(10),
    );
    assert_eq!(big.to_big(), expected);
    assert_eq!(big.to_string(), "246913578024691357802469135781/2");
    assert!(
        !big.is_big(),
        "246913578024691357802469135781 < 2^127 fits i128"
    );
    // 2^127 and beyond are read exactly, not through f64.
    assert_eq!(
        json("170141183460469231731687303715884105728").to_big(),
        BigRational::from_integer(BigInt::one() << 127u32)
    );
    assert_eq!(json("1e40").to_big(), BigRational::from_integer(pow10(40)));
    assert_eq!(json("9007199254740993").to_string(), "9007199254740993");
    // A JSON string goes through the full parser.
    assert_eq!(json("\"7/3\"").to_big(), ratio(7, 3));

    // Through Deserialize directly.
    let r: Rational = serde_json::from_str("\"7/3\"").unwrap();
    assert_eq!(r.to_big(), ratio(7, 3));
    let r: Rational = serde_json::from_str("0.1").unwrap();
    assert_eq!(r.to_big(), ratio(1, 10));
    let v: Vec<Rational> = serde_json::from_str("[0.1, \"7/3\", 1e-4, -3]").unwrap();
    let expected = [ratio(1, 10), ratio(7, 3), ratio(1, 10_000), ratio(-3, 1)];
    assert_eq!(v.iter().map(Rational::to_big).collect::<Vec<_>>(), expected);
    // From an already-parsed Value (serde_json::from_value).
    let value: serde_json::Value = serde_json::from_str("{\"x\": 0.1}").unwrap();
    let r: Rational = serde_json::from_value(value["x"].clone()).unwrap();
    assert_eq!(r.to_big(), ratio(1, 10));

    // Serialization is the exact string.
    assert_eq!(
        serde_json::to_string(&Rational::new(7, 3).unwrap()).unwrap(),
        "\"7/3\""
    );
    assert_eq!(
        serde_json::to_string(&Rational::new(-14, -6).unwrap()).unwrap(),
        "\"7/3\""
    );
    assert_eq!(serde_json::to_string(&Rational::from(5)).unwrap(), "\"5\"");
    assert_eq!(
        serde_json::to_value(Rational::new(7, 3).unwrap()).unwrap(),
        serde_json::Value::String("7/3".into())
    );
    let huge = Rational::from(i128::MAX) * Rational::from(4);
    assert_eq!(
        serde_json::to_string(&huge).unwrap(),
        format!("\"{}\"", bi(i128::MAX) * 4)
    );

    // Non-numbers are rejected.
    for bad in ["true", "null", "[1]", "{\"a\": 1}"] {
        let value: serde_json::Value = serde_json::from_str(bad).unwrap();
        assert!(
            matches!(
                Rational::from_json(&value),
                Err(ParseRationalError::Malformed(_))
            ),
            "{bad} was accepted"
        );
        assert!(serde_json::from_str::<Rational>(bad).is_err());
    }
    let empty: serde_json::Value = serde_json::from_str("\"\"").unwrap();
    assert_eq!(Rational::from_json(&empty), Err(ParseRationalError::Empty));
}

#[test]
fn json_exponents_with_leading_zeros_are_valid_numbers() {
    // JSON's grammar allows any number of digits in the exponent, leading zeros included;
    // serde_json accepts these texts, so they must be read by value, not by length.
    assert_eq!(json("1e0000001").to_big(), ratio(10, 1));
    assert_eq!(json("25E-0000000002").to_big(), ratio(1, 4));
    assert_eq!(
        Rational::from_decimal_str("3e+00000000000")
            .unwrap()
            .to_big(),
        ratio(3, 1)
    );
}

#[test]
fn malformed_inputs_are_errors_with_the_right_variant() {
    use ParseRationalError::*;
    let cases: &[(&str, ParseRationalError)] = &[
        ("", Empty),
        ("   ", Empty),
        ("1/0", DivisionByZero("1/0".into())),
        ("-5/0.000", DivisionByZero("-5/0.000".into())),
        ("0/0", DivisionByZero("0/0".into())),
        ("abc", Malformed("abc".into())),
        ("1e", Malformed("1e".into())),
        ("1e+", Malformed("1e+".into())),
        ("e5", Malformed("e5".into())),
        ("--2", Malformed("--2".into())),
        ("+-2", Malformed("+-2".into())),
        ("1/2/3", Malformed("1/2/3".into())),
        ("1/", Malformed("1/".into())),
        ("/2", Malformed("/2".into())),
        ("NaN", Malformed("NaN".into())),
        ("inf", Malformed("inf".into())),
        ("-inf", Malformed("-inf".into())),
        ("infinity", Malformed("infinity".into())),
        ("1.2.3", Malformed("1.2.3".into())),
        ("1e2e3", Malformed("1e2e3".into())),
        ("1e2.5", Malformed("1e2.5".into())),
        ("0x10", Malformed("0x10".into())),
        ("1 2", Malformed("1 2".into())),
        (".", Malformed(".".into())),
        ("-", Malformed("-".into())),
        ("١٢", Malformed("١٢".into())),
        ("1e99999999", ExponentOutOfRange("1e99999999".into())),
        ("1e-5000", ExponentOutOfRange("1e-5000".into())),
    ];
    for (text, expected) in cases {
        assert_eq!(
            &text.parse::<Rational>(),
            &Err(expected.clone()),
            "parsing {text:?}"
        );
        // The error message names the text (except for the empty text).
        if !text.trim().is_empty() {
            let message = text.parse::<Rational>().unwrap_err().to_string();
            assert!(message.contains(&format!("{text:?}")), "{message}");
        }
    }
    // The decimal reader rejects fractions outright.
    assert_eq!(
        Rational::from_decimal_str("1/2"),
        Err(Malformed("1/2".into()))
    );
    assert_eq!(Rational::from_decimal_str(""), Err(Empty));
    // Deserializing a malformed string fails.
    for bad in ["\"\"", "\"1/0\"", "\"abc\"", "\"NaN\"", "\"1/2/3\""] {
        assert!(
            serde_json::from_str::<Rational>(bad).is_err(),
            "{bad} was accepted"
        );
    }
    // Large but legal exponents are exact.
    assert_eq!(
        "1e4096".parse::<Rational>().unwrap().to_big(),
        BigRational::from_integer(pow10(4096))
    );
    assert_eq!(
        "1e-4096".parse::<Rational>().unwrap().to_big(),
        BigRational::new(BigInt::one(), pow10(4096))
    );
}
