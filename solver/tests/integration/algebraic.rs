//! The exact real-algebraic kernel: quadratic and cubic irrationals met in CEEI, factoring
//! (products of known irreducibles, cyclotomic and Swinnerton-Dyer polynomials), root
//! isolation, and randomized round trips. Every expected value is derived by hand in the
//! comment above its assertion.

use std::cmp::Ordering;

use leontief_solver::algebraic::{
    factor, isolate_real_roots, AlgebraicError, FieldElement, Limits, NumberField, Poly,
    RealAlgebraic, RootInterval,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;

pub(crate) fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

pub(crate) fn p(c: &[i64]) -> Poly {
    Poly::from_i64s(c)
}

/// 10^−n.
pub(crate) fn ten_to_minus(n: usize) -> BigRational {
    BigRational::new(1.into(), num_traits::pow(BigInt::from(10), n))
}

pub(crate) fn lim() -> Limits {
    Limits::default()
}

/// A bracket `[a, b]` of width ≤ `width` around the root of `A t² + B t + C` in `(lo, hi)`,
/// by bisection in rationals with the quadratic evaluated directly (independent of the
/// kernel's polynomial code).
fn quadratic_bracket(
    [a2, b1, c0]: [i64; 3],
    mut lo: BigRational,
    mut hi: BigRational,
    width: &BigRational,
) -> (BigRational, BigRational) {
    let f = |t: &BigRational| {
        BigRational::from_integer(a2.into()) * t * t
            + BigRational::from_integer(b1.into()) * t
            + BigRational::from_integer(c0.into())
    };
    let s_lo = f(&lo).signum();
    assert!(!s_lo.is_zero() && f(&hi).signum() == -s_lo.clone());
    while &hi - &lo > *width {
        let mid = (&lo + &hi) / q(2, 1);
        if f(&mid).signum() == s_lo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, hi)
}

/// Parses a fixed-point decimal as an exact rational.
fn decimal(s: &str) -> BigRational {
    let neg = s.starts_with('-');
    let s = s.trim_start_matches('-');
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits: BigInt = format!("{int}{frac}").parse().unwrap();
    let v = BigRational::new(digits, num_traits::pow(BigInt::from(10), frac.len()));
    if neg {
        -v
    } else {
        v
    }
}

/// The decimal `s` with `n` digits is the correct rounding of every point of `[a, b]`:
/// `|s − x| ≤ 10^−n / 2` at both ends.
fn assert_rounds(s: &str, n: usize, (a, b): &(BigRational, BigRational)) {
    let d = decimal(s);
    let half_ulp = BigRational::new(
        1.into(),
        BigInt::from(2) * num_traits::pow(BigInt::from(10), n),
    );
    assert!(
        (&d - a).abs() <= half_ulp && (&d - b).abs() <= half_ulp,
        "{s} vs [{a}, {b}]"
    );
    let frac_len = s.split_once('.').map_or(0, |(_, f)| f.len());
    assert_eq!(frac_len, n, "{s}");
}

pub(crate) fn sqrt_field(d: i64, lo: i64, hi: i64) -> NumberField {
    let root = RealAlgebraic::root_in(&p(&[-d, 0, 1]), &q(lo, 1), &q(hi, 1), &lim()).unwrap();
    NumberField::new(root)
}

/// `a + b·√d` as an element of Q(√d).
pub(crate) fn elem(k: &NumberField, a: BigRational, b: BigRational) -> FieldElement {
    k.element(vec![a, b])
}

// ---------------------------------------------------------------------------------------
// The DRF paper's Theorem 5 instance: tasks in Q(√373).

/// u1 = (3125 − 125√373)/63: (63t − 3125)² = 125²·373 = 5 828 125, so
/// 3969t² − 393 750t + 9 765 625 − 5 828 125 = 0; dividing by 63:
/// 63t² − 6250t + 62 500 (gcd(63, 6250) = 1, primitive). Between 11 and 12: the quadratic is
/// 7623 − 68 750 + 62 500 = 1373 > 0 at 11 and 9072 − 75 000 + 62 500 = −3428 < 0 at 12.
/// u2 = (3800 + 100√373)/1071: (1071t − 3800)² = 100²·373, so 1071²t² − 2·1071·3800 t +
/// 14 440 000 − 3 730 000 = 0; dividing by 1071: 1071t² − 7600t + 10 000. At 5: −1225,
/// at 6: 2956.
/// u3 = (25√373 − 325)/51: (51t + 325)² = 25²·373 = 233 125, so 2601t² + 33 150t − 127 500 = 0;
/// dividing by 51: 51t² + 650t − 2500. At 3: −91, at 4: 916.
#[test]
fn theorem_5_tasks_in_q_sqrt_373() {
    let k = sqrt_field(373, 19, 20);
    let u = [
        elem(&k, q(3125, 63), q(-125, 63)),
        elem(&k, q(3800, 1071), q(100, 1071)),
        elem(&k, q(-325, 51), q(25, 51)),
    ];
    let polys = [[63, -6250, 62500], [1071, -7600, 10000], [51, 650, -2500]];
    let brackets = [(11, 12), (5, 6), (3, 4)];
    let forms = [
        "(3125 - 125*sqrt(373))/63",
        "(3800 + 100*sqrt(373))/1071",
        "(-325 + 25*sqrt(373))/51",
    ];
    let mut reals = Vec::new();
    for (i, ui) in u.iter().enumerate() {
        let x = k.to_real(ui, &lim()).unwrap();
        let [a, b, c] = polys[i];
        assert_eq!(x.min_poly(), &p(&[c, b, a]), "u{}", i + 1);
        let (lo, hi) = brackets[i];
        // The isolating interval: the polynomial changes sign over it, and it meets (lo, hi).
        let (ilo, ihi) = x.interval();
        assert!(x.min_poly().sign_at(ilo) * x.min_poly().sign_at(ihi) < 0);
        assert!(ilo < &q(hi, 1) && ihi > &q(lo, 1));
        assert_eq!(x.closed_form().unwrap(), forms[i]);
        let bracket = quadratic_bracket(polys[i], q(lo, 1), q(hi, 1), &ten_to_minus(35));
        for n in [0, 1, 5, 12, 30] {
            assert_rounds(&x.to_decimal(n as u32, &lim()).unwrap(), n, &bracket);
        }
        reals.push(x);
    }
    // u1 ≈ 11.28 > u2 ≈ 5.35 > u3 ≈ 3.09 (the brackets above are disjoint).
    assert_eq!(reals[0].try_cmp(&reals[1], &lim()), Ok(Ordering::Greater));
    assert_eq!(reals[2].try_cmp(&reals[1], &lim()), Ok(Ordering::Less));
    // u2 found afresh as the root of 1071t² − 7600t + 10 000 in (5, 6): equal.
    let u2 = RealAlgebraic::root_in(&p(&[10000, -7600, 1071]), &q(5, 1), &q(6, 1), &lim()).unwrap();
    assert_eq!(reals[1].try_cmp(&u2, &lim()), Ok(Ordering::Equal));
    // Both capacities bind, exactly: 4u1 + u2 + 16u3 = (212 500 + 3800 − 109 200)/1071 +
    // (−8500 + 100 + 8400)/1071·√373 = 100, and u1 + 16u2 + u3 = 100 likewise.
    let lin = |c: [i64; 3]| {
        u.iter().zip(c).fold(k.rational(q(0, 1)), |acc, (x, ci)| {
            k.add(&acc, &k.mul(&k.rational(q(ci, 1)), x))
        })
    };
    assert_eq!(lin([4, 1, 16]), k.rational(q(100, 1)));
    assert_eq!(lin([1, 16, 1]), k.rational(q(100, 1)));
}

/// 51/(38 + √373) = 51(38 − √373)/(38² − 373) = 51(38 − √373)/1071 = (38 − √373)/21.
/// (21t − 38)² = 373 gives 441t² − 1596t + 1071 = 0, over gcd 21: 21t² − 76t + 51. The value
/// lies in (0.88, 0.89): 21·0.7744 − 66.88 + 51 = 0.3424 > 0 at 0.88 and
/// 21·0.7921 − 67.64 + 51 = −0.0059 < 0 at 0.89.
#[test]
fn ratio_51_over_38_plus_sqrt_373() {
    let k = sqrt_field(373, 19, 20);
    let den = elem(&k, q(38, 1), q(1, 1));
    let x = k.div(&k.rational(q(51, 1)), &den).unwrap();
    assert_eq!(x, elem(&k, q(38, 21), q(-1, 21)));
    let r = k.to_real(&x, &lim()).unwrap();
    assert_eq!(r.min_poly(), &p(&[51, -76, 21]));
    assert_eq!(r.closed_form().unwrap(), "(38 - sqrt(373))/21");
    let bracket = quadratic_bracket([21, -76, 51], q(88, 100), q(89, 100), &ten_to_minus(18));
    assert_rounds(&r.to_decimal(15, &lim()).unwrap(), 15, &bracket);
    assert_eq!(
        k.div(&x, &k.rational(q(0, 1))),
        Err(AlgebraicError::DivisionByZero)
    );
}

/// (45 − 5√33)/32: (32t − 45)² = 25·33 = 825, so 1024t² − 2880t + 2025 − 825 = 0, over
/// gcd 16: 64t² − 180t + 75 — not 16t² − 45t + 30, whose roots are (45 ± √105)/32
/// (discriminant 2025 − 1920 = 105). Value in (0.50, 0.51): 16 − 90 + 75 = 1 > 0 at 1/2,
/// 64·0.2601 − 91.8 + 75 = −0.1536 < 0 at 0.51.
#[test]
fn forty_five_minus_five_sqrt_33_over_32() {
    let k = sqrt_field(33, 5, 6);
    let x = k.to_real(&elem(&k, q(45, 32), q(-5, 32)), &lim()).unwrap();
    assert_eq!(x.min_poly(), &p(&[75, -180, 64]));
    assert_ne!(x.min_poly(), &p(&[30, -45, 16]));
    assert_eq!(x.closed_form().unwrap(), "(45 - 5*sqrt(33))/32");
    let bracket = quadratic_bracket([64, -180, 75], q(1, 2), q(51, 100), &ten_to_minus(18));
    assert_rounds(&x.to_decimal(14, &lim()).unwrap(), 14, &bracket);
    // 16t² − 45t + 30 has the roots (45 ± √105)/32, a different pair.
    let other = RealAlgebraic::roots(&p(&[30, -45, 16]), &lim()).unwrap();
    assert_eq!(other[0].closed_form().unwrap(), "(45 - sqrt(105))/32");
    assert_ne!(other[0].try_cmp(&x, &lim()), Ok(Ordering::Equal));
}

// ---------------------------------------------------------------------------------------
// The cubic case: four users ⟨1,3⟩, ⟨2,1⟩, ⟨3,2⟩, ⟨1,5⟩ on capacities (1, 1).

/// With equal unit budgets and both prices positive, Walras gives p2 = 4 − p1, and resource
/// 1 clears when, with p = p1,
///   1/(12 − 2p) + 2/(p + 4) + 3/(p + 8) + 1/(20 − 4p) = 1
/// (denominators p + 3p2, 2p + p2, 3p + 2p2, p + 5p2). The first and last terms add to
/// (16 − 3p)/(4(6 − p)(5 − p)), the middle two to (5p + 28)/((p + 4)(p + 8)). Clearing the
/// denominators:
///   (16 − 3p)(p² + 12p + 32) + 4(5p + 28)(p² − 11p + 30) = 4(p² − 11p + 30)(p² + 12p + 32),
///   −3p³ − 20p² + 96p + 512 + 20p³ − 108p² − 632p + 3360 = 4p⁴ + 4p³ − 280p² + 32p + 3840,
/// so 4p⁴ − 13p³ − 152p² + 568p − 32 = 0 = (p − 4)(4p³ + 3p² − 140p + 8) (synthetic division
/// by p − 4: 4, 3, −140, 8, remainder 0). p = 4 makes p2 = 0. The cubic has no rational
/// root (every ±{1,2,4,8}/{1,2,4} checked by hand), so it is irreducible; it is 8 at 0,
/// −26.75 at 1/4, −248 at 4 and 140 at 6, and −728 at −8 and 360 at −4: three real roots,
/// one in (0, 1/4), the price p1.
/// x1 = 1/(12 − 2p) gives p = (12x − 1)/(2x); substituting and multiplying by 8x³:
/// 4(12x − 1)³ + 6x(12x − 1)² − 560x²(12x − 1) + 64x³ = 1120x³ − 1312x² + 150x − 4, so x1 has
/// minimal polynomial 560x³ − 656x² + 75x − 2.
#[test]
fn cubic_clearing_polynomial_factors_and_tasks_clear() {
    let quartic = p(&[-32, 568, -152, -13, 4]);
    let fac = factor(&quartic, &lim()).unwrap();
    assert_eq!(fac.content, BigInt::one());
    assert_eq!(
        fac.factors,
        vec![(p(&[-4, 1]), 1), (p(&[8, -140, 3, 4]), 1)]
    );
    let roots = isolate_real_roots(&quartic, &lim()).unwrap();
    assert_eq!(roots.len(), 4);
    assert!(roots.contains(&RootInterval::Exact(q(4, 1))));
    let p1 = RealAlgebraic::root_in(&p(&[8, -140, 3, 4]), &q(0, 1), &q(1, 4), &lim()).unwrap();
    assert_eq!(p1.degree(), 3);
    let k = NumberField::new(p1);
    let price1 = k.generator();
    let price2 = k.sub(&k.rational(q(4, 1)), &price1);
    let demands = [[1, 3], [2, 1], [3, 2], [1, 5]];
    let tasks: Vec<FieldElement> = demands
        .iter()
        .map(|d| {
            let spend = k.add(
                &k.mul(&k.rational(q(d[0], 1)), &price1),
                &k.mul(&k.rational(q(d[1], 1)), &price2),
            );
            k.inverse(&spend).unwrap()
        })
        .collect();
    for j in 0..2 {
        let used = tasks
            .iter()
            .zip(&demands)
            .fold(k.rational(q(0, 1)), |acc, (x, d)| {
                k.add(&acc, &k.mul(&k.rational(q(d[j], 1)), x))
            });
        assert_eq!(used, k.rational(q(1, 1)), "resource {j}");
    }
    // Q(p1) has prime degree 3, so an irrational element has degree 3.
    for x in &tasks {
        let r = k.to_real(x, &lim()).unwrap();
        assert_eq!(r.degree(), 3);
        assert!(r.signum() > 0);
        assert_eq!(
            r.closed_form(),
            Err(AlgebraicError::NotQuadratic { degree: 3 })
        );
    }
    let x1 = k.to_real(&tasks[0], &lim()).unwrap();
    assert_eq!(x1.min_poly(), &p(&[-2, 75, -656, 560]));
    // x1 = 1/(12 − 2p1) with 0 < p1 < 1/4: between 1/12 and 2/23.
    assert_eq!(x1.cmp_rational(&q(1, 12)), Ordering::Greater);
    assert_eq!(x1.cmp_rational(&q(2, 23)), Ordering::Less);
}

// ---------------------------------------------------------------------------------------
// Factoring.

#[test]
fn product_of_known_irreducibles() {
    // x² − 2 and x² − 3 have irrational roots; x³ − x − 1 has no rational root (±1 give −1).
    let f = p(&[-2, 0, 1]).mul(&p(&[-3, 0, 1])).mul(&p(&[-1, -1, 0, 1]));
    let fac = factor(&f, &lim()).unwrap();
    assert_eq!(
        fac.factors,
        vec![
            (p(&[-3, 0, 1]), 1),
            (p(&[-2, 0, 1]), 1),
            (p(&[-1, -1, 0, 1]), 1)
        ]
    );
    // Non-monic factors and a content: −6 (2x² − 3)(3x³ + x + 5); the cubic has no root among
    // ±{1, 5}/{1, 3} (values 9, 1, ±…, checked by hand), 2x² − 3 none among ±{1,3}/{1,2}.
    let g = p(&[-3, 0, 2])
        .mul(&p(&[5, 1, 0, 3]))
        .scale(&BigInt::from(-6));
    let fac = factor(&g, &lim()).unwrap();
    assert_eq!(fac.content, BigInt::from(-6));
    assert_eq!(
        fac.factors,
        vec![(p(&[-3, 0, 2]), 1), (p(&[5, 1, 0, 3]), 1)]
    );
    assert_eq!(fac.product(), g);
    // Multiplicities: (x − 1)³ (x² + 1)² x.
    let h = p(&[-1, 1])
        .pow(3)
        .mul(&p(&[1, 0, 1]).pow(2))
        .mul(&p(&[0, 1]));
    let fac = factor(&h, &lim()).unwrap();
    assert_eq!(
        fac.factors,
        vec![(p(&[-1, 1]), 3), (p(&[0, 1]), 1), (p(&[1, 0, 1]), 2)]
    );
}

/// `root_near` on `(x² − 2)(x² − 3)(x − 1/2)`: near 1.41421356237 it is √2 = 1.4142135623730…
/// (3·10⁻¹² away, inside the window of relative width about 2⁻³⁰; x² − 2, and
/// 1.41421 < √2 < 1.41422 since 1.41421² = 1.9999899… and 1.41422² = 2.0000182…); near 0.5
/// the rational root 1/2; near 1.6 nothing (√2 ≈ 1.414 and √3 ≈ 1.732 are far off). The
/// target 1.414213562 = 707106781/500000000 gives the window (L, L + 2)/2³⁰ with
/// L = ⌊1.414213562 · 2³⁰⌋ − 1 = 1518500248; beside √2 (1518500249.99/2³⁰) the rational root
/// 1.414213562 (1518500249.59/2³⁰) lies in it too: two roots, `None`.
#[test]
fn root_near_a_target_or_none() {
    let f = p(&[-2, 0, 1]).mul(&p(&[-3, 0, 1])).mul(&p(&[-1, 2]));
    let near = |f: &Poly, t: BigRational| RealAlgebraic::root_near(f, &t, &lim()).unwrap();
    let sqrt2 = near(&f, q(141_421_356_237, 100_000_000_000)).unwrap();
    assert_eq!(sqrt2.min_poly(), &p(&[-2, 0, 1]));
    assert_eq!(sqrt2.cmp_rational(&q(141421, 100000)), Ordering::Greater);
    assert_eq!(sqrt2.cmp_rational(&q(141422, 100000)), Ordering::Less);
    assert_eq!(near(&f, q(1, 2)).unwrap().as_rational(), Some(&q(1, 2)));
    assert!(near(&f, q(16, 10)).is_none());
    let close = Poly::new(vec![
        BigInt::from(-1_414_213_562),
        BigInt::from(1_000_000_000),
    ]);
    let g = p(&[-2, 0, 1]).mul(&close);
    assert!(near(&g, q(1_414_213_562, 1_000_000_000)).is_none());
    // Alone, x² − 2 has one root in that window: √2.
    let one = near(&p(&[-2, 0, 1]), q(1_414_213_562, 1_000_000_000)).unwrap();
    assert_eq!(one.min_poly(), &p(&[-2, 0, 1]));
}

#[test]
fn cyclotomic_factors_of_x12_minus_1() {
    // x¹² − 1 = Φ1 Φ2 Φ3 Φ4 Φ6 Φ12 (the divisors of 12), degrees φ(d) = 1, 1, 2, 2, 2, 4.
    let mut c = vec![0i64; 13];
    c[0] = -1;
    c[12] = 1;
    let fac = factor(&p(&c), &lim()).unwrap();
    let want = vec![
        (p(&[-1, 1]), 1),          // Φ1
        (p(&[1, 1]), 1),           // Φ2
        (p(&[1, -1, 1]), 1),       // Φ6
        (p(&[1, 0, 1]), 1),        // Φ4
        (p(&[1, 1, 1]), 1),        // Φ3
        (p(&[1, 0, -1, 0, 1]), 1), // Φ12
    ];
    assert_eq!(fac.factors, want);
}

#[test]
fn swinnerton_dyer_polynomials_are_irreducible() {
    // x⁴ − 10x² + 1 has the roots ±√2 ± √3; no pair of them has a rational sum and product
    // (e.g. (√2+√3)+(√2−√3) = 2√2), and ±1 are not roots, so it is irreducible; modulo every
    // prime it splits (2, 3 or 6 is a square mod p), so only recombination can tell.
    let sd4 = p(&[1, 0, -10, 0, 1]);
    let fac = factor(&sd4, &lim()).unwrap();
    assert_eq!(fac.factors, vec![(sd4.clone(), 1)]);
    // The one for √2, √3, √5: ∏(x ± √2 ± √3 ± √5) = x⁸ − 40x⁶ + 352x⁴ − 960x² + 576.
    let sd8 = p(&[576, 0, -960, 0, 352, 0, -40, 0, 1]);
    assert_eq!(
        factor(&sd8, &lim()).unwrap().factors,
        vec![(sd8.clone(), 1)]
    );
    // Times x² − 5: two factors back.
    let prod = sd4.mul(&p(&[-5, 0, 1]));
    assert_eq!(
        factor(&prod, &lim()).unwrap().factors,
        vec![(p(&[-5, 0, 1]), 1), (sd4.clone(), 1)]
    );
    // A budget of one subset is not enough for the quartic's recombination.
    let tight = Limits {
        subset_budget: 1,
        ..Limits::default()
    };
    assert_eq!(
        factor(&sd4, &tight),
        Err(AlgebraicError::SubsetBudget { budget: 1 })
    );
    // sd8 has four pairs of roots: all of them real, ±(√2+√3+√5) the extremes.
    assert_eq!(isolate_real_roots(&sd8, &lim()).unwrap().len(), 8);
}

#[test]
fn limits_are_named_errors() {
    let tiny = Limits {
        max_degree: 3,
        ..Limits::default()
    };
    assert_eq!(
        factor(&p(&[1, 0, 0, 0, 1]), &tiny),
        Err(AlgebraicError::DegreeLimit {
            degree: 4,
            limit: 3
        })
    );
    let narrow = Limits {
        max_coeff_bits: 4,
        ..Limits::default()
    };
    assert_eq!(
        isolate_real_roots(&p(&[100, 1]), &narrow),
        Err(AlgebraicError::CoefficientLimit { bits: 7, limit: 4 })
    );
    assert_eq!(
        factor(&Poly::zero(), &lim()),
        Err(AlgebraicError::ZeroPolynomial)
    );
    let few = Limits {
        max_refine_steps: 3,
        ..Limits::default()
    };
    let sqrt2 = RealAlgebraic::root_in(&p(&[-2, 0, 1]), &q(1, 1), &q(2, 1), &lim()).unwrap();
    assert_eq!(
        sqrt2.to_decimal(40, &few),
        Err(AlgebraicError::RefinementLimit { steps: 3 })
    );
    // (0, 3) holds two roots of x² − 3x + 1 ((3 ± √5)/2 ≈ 0.38, 2.62).
    assert!(matches!(
        RealAlgebraic::root_in(&p(&[1, -3, 1]), &q(0, 1), &q(3, 1), &lim()),
        Err(AlgebraicError::NotIsolating { .. })
    ));
}

// ---------------------------------------------------------------------------------------
// Randomized.

/// Irreducible over Q by the rational root test, for degree ≤ 3.
fn has_no_rational_root(g: &Poly) -> bool {
    let divisors = |n: &BigInt| -> Vec<BigInt> {
        let n = n.abs();
        let mut d = Vec::new();
        let mut k = BigInt::one();
        while k <= n {
            if (&n % &k).is_zero() {
                d.push(k.clone());
            }
            k += 1;
        }
        d
    };
    let (a0, an) = (g.coeff(0), g.leading());
    if a0.is_zero() {
        return false;
    }
    for num in divisors(&a0) {
        for den in divisors(&an) {
            for s in [1, -1] {
                let r = BigRational::new(&num * s, den.clone());
                if g.eval(&r).is_zero() {
                    return false;
                }
            }
        }
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Factoring a product of random polynomials of degree ≤ 3 multiplies back, and every
    /// factor of degree 2 or 3 has no rational root (so is irreducible).
    #[test]
    fn factor_multiplies_back_into_irreducibles(
        parts in prop::collection::vec(
            (prop::collection::vec(-6i64..=6, 1..=3), 1i64..=4), 1..=4)
    ) {
        let mut f = p(&[1]);
        for (low, lead) in &parts {
            let mut c = low.clone();
            c.push(*lead);
            f = f.mul(&p(&c));
        }
        let fac = factor(&f, &lim()).unwrap();
        prop_assert_eq!(fac.product(), f);
        for (g, _) in &fac.factors {
            let d = g.degree().unwrap();
            prop_assert!(d <= 3);
            if d >= 2 {
                prop_assert!(has_no_rational_root(g), "{}", g);
            }
            prop_assert_eq!(g.content(), BigInt::one());
        }
    }

    /// Isolation finds exactly the chosen distinct rational roots (each interval holds one and
    /// the polynomial changes sign across it), none from the factors x² + c with c > 0.
    #[test]
    fn isolation_finds_exactly_the_real_roots(
        roots in prop::collection::btree_set((-40i64..=40, 1i64..=6), 1..=5),
        cs in prop::collection::vec(1i64..=9, 0..=2),
    ) {
        let mut values: Vec<BigRational> = roots.iter().map(|&(n, d)| q(n, d)).collect();
        values.sort();
        values.dedup();
        let mut f = p(&[1]);
        for v in &values {
            f = f.mul(&Poly::new(vec![-v.numer().clone(), v.denom().clone()]));
        }
        for c in &cs {
            f = f.mul(&p(&[*c, 0, 1]));
        }
        let found = isolate_real_roots(&f, &lim()).unwrap();
        prop_assert_eq!(found.len(), values.len());
        for (iv, v) in found.iter().zip(&values) {
            match iv {
                RootInterval::Exact(r) => prop_assert_eq!(r, v),
                RootInterval::Open { lo, hi } => {
                    prop_assert!(lo < v && v < hi);
                    prop_assert!(f.sign_at(lo) * f.sign_at(hi) < 0);
                }
            }
        }
    }

    /// √n for a non-square n: the decimal squared brackets n.
    #[test]
    fn square_root_decimals_are_correctly_rounded(n in 2i64..2000, digits in 0u32..25) {
        let root = (n as u64).isqrt();
        prop_assume!(root * root != n as u64);
        let r = RealAlgebraic::root_in(&p(&[-n, 0, 1]), &q(0, 1), &q(n, 1), &lim()).unwrap();
        let text = r.to_decimal(digits, &lim()).unwrap();
        let d = decimal(&text);
        let half = BigRational::new(1.into(), BigInt::from(2) * num_traits::pow(BigInt::from(10), digits as usize));
        // d − half < √n < d + half, squared (both sides positive once d ≥ 1).
        let nn = q(n, 1);
        let lo = &d - &half;
        let hi = &d + &half;
        prop_assert!(&lo * &lo < nn && nn < &hi * &hi, "{} for √{}", text, n);
    }
}
