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

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn p(c: &[i64]) -> Poly {
    Poly::from_i64s(c)
}

/// 10^−n.
fn ten_to_minus(n: usize) -> BigRational {
    BigRational::new(1.into(), num_traits::pow(BigInt::from(10), n))
}

fn lim() -> Limits {
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

fn sqrt_field(d: i64, lo: i64, hi: i64) -> NumberField {
    let root = RealAlgebraic::root_in(&p(&[-d, 0, 1]), &q(lo, 1), &q(hi, 1), &lim()).unwrap();
    NumberField::new(root)
}

/// `a + b·√d` as an element of Q(√d).
fn elem(k: &NumberField, a: BigRational, b: BigRational) -> FieldElement {
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

// ---------------------------------------------------------------------------------------
// Exact CEEI for two resources (leontief_solver::ceei::algebraic).

mod ceei_exact {
    use super::*;
    use leontief_solver::ceei::algebraic::{
        check_kkt, solve_exact, solve_two_resources, AlgebraicCeeiError,
    };
    use leontief_solver::ceei::{Ceei, KktViolation};
    use leontief_solver::{Instance, Rational, User};

    fn as_f64(x: &RealAlgebraic) -> f64 {
        x.to_decimal(17, &lim()).unwrap().parse().unwrap()
    }

    /// Theorem 5 (capacities (100, 100), demands ⟨4,1⟩, ⟨1,16⟩, ⟨16,1⟩): the tasks are the
    /// u1, u2, u3 of `theorem_5_tasks_in_q_sqrt_373` above, with the minimal polynomials and
    /// closed forms derived there; Walras with three unit budgets: 100 p1 + 100 p2 = 3.
    #[test]
    fn theorem_5_exact_equilibrium() {
        let inst = Instance::new(
            vec![100.into(), 100.into()],
            vec![
                User::new("1", [4, 1]),
                User::new("2", [1, 16]),
                User::new("3", [16, 1]),
            ],
        )
        .unwrap();
        let eq = solve_two_resources(&inst, &lim()).unwrap();
        let k = &eq.field;
        assert_eq!(k.degree(), 2);
        let spend = k.add(
            &k.mul(&k.rational(q(100, 1)), &eq.prices[0]),
            &k.mul(&k.rational(q(100, 1)), &eq.prices[1]),
        );
        assert_eq!(spend, k.rational(q(3, 1)));
        let polys = [[63, -6250, 62500], [1071, -7600, 10000], [51, 650, -2500]];
        let forms = [
            "(3125 - 125*sqrt(373))/63",
            "(3800 + 100*sqrt(373))/1071",
            "(-325 + 25*sqrt(373))/51",
        ];
        let sqrt373 = sqrt_field(373, 19, 20);
        let u = [
            elem(&sqrt373, q(3125, 63), q(-125, 63)),
            elem(&sqrt373, q(3800, 1071), q(100, 1071)),
            elem(&sqrt373, q(-325, 51), q(25, 51)),
        ];
        let float = Ceei::new().solve_float(&inst).unwrap();
        for (i, x) in eq.task_values.iter().enumerate() {
            let [a, b, c] = polys[i];
            assert_eq!(x.min_poly(), &p(&[c, b, a]));
            assert_eq!(x.closed_form().unwrap(), forms[i]);
            let from_closed_form = sqrt373.to_real(&u[i], &lim()).unwrap();
            assert_eq!(x.try_cmp(&from_closed_form, &lim()), Ok(Ordering::Equal));
            assert!((as_f64(x) - float.tasks[i]).abs() <= 1e-9 * float.tasks[i]);
        }
        for (j, price) in eq.price_values.iter().enumerate() {
            assert!(price.signum() > 0);
            assert!((as_f64(price) - float.prices[j]).abs() <= 1e-9 * float.prices[j]);
        }
    }

    /// Users ⟨1,3⟩, ⟨2,1⟩, ⟨3,2⟩, ⟨1,5⟩ on capacities (1, 1).
    pub(super) fn cubic_instance() -> Instance {
        Instance::new(
            vec![1.into(), 1.into()],
            vec![
                User::new("1", [1, 3]),
                User::new("2", [2, 1]),
                User::new("3", [3, 2]),
                User::new("4", [1, 5]),
            ],
        )
        .unwrap()
    }

    /// The cubic case of `cubic_clearing_polynomial_factors_and_tasks_clear`: the clearing
    /// polynomial is 4p⁴ − 13p³ − 152p² + 568p − 32, p1 the root of 4p³ + 3p² − 140p + 8 in
    /// (0, 1/4), and x1 has the minimal polynomial 560x³ − 656x² + 75x − 2.
    #[test]
    fn cubic_exact_equilibrium() {
        let inst = cubic_instance();
        let eq = solve_two_resources(&inst, &lim()).unwrap();
        assert_eq!(eq.clearing_poly, p(&[-32, 568, -152, -13, 4]));
        assert_eq!(eq.price_values[0].min_poly(), &p(&[8, -140, 3, 4]));
        assert_eq!(eq.price_values[0].cmp_rational(&q(1, 4)), Ordering::Less);
        assert_eq!(eq.task_values[0].min_poly(), &p(&[-2, 75, -656, 560]));
        let float = Ceei::new().solve_float(&inst).unwrap();
        for (i, x) in eq.task_values.iter().enumerate() {
            assert_eq!(x.degree(), 3);
            assert!((as_f64(x) - float.tasks[i]).abs() <= 1e-9 * float.tasks[i]);
        }
    }

    /// `solve_two_resources` needs two resources; per-resource weights are refused by name.
    /// A cap is covered since the general method: users ⟨1,2⟩ and ⟨2,1⟩ on (1, 1) with
    /// the second capped at 1/10. Uncapped, symmetry gives x = 1/3 each, so the cap binds;
    /// the first user then has the residual (1 − 2/10, 1 − 1/10) = (4/5, 9/10), and buying
    /// x with ⟨1,2⟩ it is short of resource 2 first: x = 9/20 (using 9/20 ≤ 4/5 of resource
    /// 1, so p1 = 0 and p2 = 1/(2x) = 10/9). The capped user's multiplier is
    /// 1/(1/10) − p2 = 10 − 10/9 > 0.
    #[test]
    fn unsupported_instances_are_named_errors() {
        let three = Instance::new(
            vec![1.into(), 1.into(), 1.into()],
            vec![User::new("a", [1, 2, 3])],
        )
        .unwrap();
        assert!(matches!(
            solve_two_resources(&three, &lim()),
            Err(AlgebraicCeeiError::Resources(3))
        ));
        let mut weighted = User::new("b", [2, 1]);
        weighted.resource_weights = Some(vec![1.into(), 2.into()]);
        let per_resource = Instance::new(
            vec![1.into(), 1.into()],
            vec![User::new("a", [1, 2]), weighted],
        )
        .unwrap();
        assert!(matches!(
            solve_exact(&per_resource, &lim()),
            Err(AlgebraicCeeiError::Unsupported {
                user: 1,
                field: "resource_weights"
            })
        ));
        let capped = Instance::new(
            vec![1.into(), 1.into()],
            vec![
                User::new("a", [1, 2]),
                User::new("b", [2, 1]).cap(Rational::new(1, 10).unwrap()),
            ],
        )
        .unwrap();
        let eq = solve_two_resources(&capped, &lim()).unwrap();
        assert_eq!(eq.capped, vec![1]);
        assert_eq!(eq.support, vec![1]);
        assert_eq!(eq.task_values[0].as_rational(), Some(&q(9, 20)));
        assert_eq!(eq.price_values[1].as_rational(), Some(&q(10, 9)));
        assert_eq!(check_kkt(&capped, &eq), Ok(()));
    }

    fn rational_values(values: &[RealAlgebraic]) -> Vec<BigRational> {
        values
            .iter()
            .map(|v| v.as_rational().expect("a rational value").clone())
            .collect()
    }

    /// A resource nobody is short of: capacities (10, 100), users ⟨1,1⟩ and ⟨2,1⟩. With
    /// only resource 1 priced, p1 = W/c1 = 2/10 = 1/5, x_a = 1/p1 = 5, x_b = 1/(2 p1) = 5/2;
    /// resource 1 is used 5 + 5 = 10 (full) and resource 2 only 5 + 5/2 = 15/2 ≤ 100, so
    /// the price 0 on it satisfies complementary slackness: the equilibrium is rational.
    #[test]
    fn zero_price_on_an_abundant_resource() {
        let inst = Instance::new(
            vec![10.into(), 100.into()],
            vec![User::new("a", [1, 1]), User::new("b", [2, 1])],
        )
        .unwrap();
        let eq = solve_exact(&inst, &lim()).unwrap();
        assert_eq!(eq.field.degree(), 1);
        assert_eq!(eq.support, vec![0]);
        assert_eq!(rational_values(&eq.task_values), vec![q(5, 1), q(5, 2)]);
        assert_eq!(rational_values(&eq.price_values), vec![q(1, 5), q(0, 1)]);
        assert_eq!(check_kkt(&inst, &eq), Ok(()));
        // Raising the price of the abundant resource breaks complementary slackness.
        let mut wrong = eq.clone();
        wrong.prices[1] = eq.field.rational(q(1, 100));
        assert_eq!(
            check_kkt(&inst, &wrong),
            Err(KktViolation::Slack { resource: 1 })
        );
    }

    /// A capped user beside irrational tasks: users a ⟨1,0⟩, b ⟨0,1⟩, c ⟨1,2⟩ and d ⟨1,1⟩
    /// capped at 1/10, capacities (1, 1). Without d, the module docs' instance: with
    /// t = x_c, p1 = 1/(1 − t), p2 = 1/(1 − 2t) and t(p1 + 2 p2) = 1 give
    /// t = (3 − √3)/6, p1 = 3 − √3, p2 = √3 (p1 + p2 = 3). With d at its cap the others
    /// face (9/10, 9/10): the same market scaled by 9/10, so tasks scale by 9/10 and prices
    /// by 10/9: x_c = (9 − 3√3)/20, x_a = (9 + 3√3)/20, p1 = 10(3 − √3)/9,
    /// p2 = 10√3/9. d's multiplier is 1/(1/10) − (p1 + p2) = 10 − 10/3 > 0, so the cap
    /// binds. x_c: (20t − 9)² = 27, i.e. 400t² − 360t + 54 = 0, halved: 200t² − 180t + 27.
    #[test]
    fn capped_user_beside_irrational_tasks() {
        let inst = Instance::new(
            vec![1.into(), 1.into()],
            vec![
                User::new("a", [1, 0]),
                User::new("b", [0, 1]),
                User::new("c", [1, 2]),
                User::new("d", [1, 1]).cap(Rational::new(1, 10).unwrap()),
            ],
        )
        .unwrap();
        let eq = solve_exact(&inst, &lim()).unwrap();
        assert_eq!(eq.capped, vec![3]);
        assert_eq!(eq.support, vec![0, 1]);
        assert_eq!(eq.field.degree(), 2);
        assert_eq!(eq.task_values[2].min_poly(), &p(&[27, -180, 200]));
        let k3 = sqrt_field(3, 1, 2);
        let expected = [
            (2, elem(&k3, q(9, 20), q(-3, 20))),
            (0, elem(&k3, q(9, 20), q(3, 20))),
        ];
        for (i, e) in expected {
            let v = k3.to_real(&e, &lim()).unwrap();
            assert_eq!(eq.task_values[i].try_cmp(&v, &lim()), Ok(Ordering::Equal));
        }
        let p1 = k3.to_real(&elem(&k3, q(30, 9), q(-10, 9)), &lim()).unwrap();
        let p2 = k3.to_real(&elem(&k3, q(0, 1), q(10, 9)), &lim()).unwrap();
        assert_eq!(eq.price_values[0].try_cmp(&p1, &lim()), Ok(Ordering::Equal));
        assert_eq!(eq.price_values[1].try_cmp(&p2, &lim()), Ok(Ordering::Equal));
        assert_eq!(eq.task_values[3].as_rational(), Some(&q(1, 10)));
        assert_eq!(check_kkt(&inst, &eq), Ok(()));
        // Without the cap the same answer is no equilibrium: d would spend only
        // x_d (p1 + p2) = (1/10)(10/3) = 1/3 of its budget 1 (stationarity), every other
        // condition still holding.
        let uncapped = Instance::new(
            vec![1.into(), 1.into()],
            vec![
                User::new("a", [1, 0]),
                User::new("b", [0, 1]),
                User::new("c", [1, 2]),
                User::new("d", [1, 1]),
            ],
        )
        .unwrap();
        assert_eq!(
            check_kkt(&uncapped, &eq),
            Err(KktViolation::Stationarity { user: 3 })
        );
    }

    /// Weights as budgets. (i) The DRF paper's example (capacities (9, 18), ⟨1,4⟩ of
    /// weight 2, ⟨3,1⟩): both resources full gives x_a + 3 x_b = 9, 4 x_a + x_b = 18, so
    /// x_b = 18/11, x_a = 45/11 as unweighted, but the prices solve
    /// p1 + 4 p2 = 2/x_a = 22/45 and 3 p1 + p2 = 1/x_b = 11/18: p2 = 7/90, p1 = 8/45
    /// (Walras: 9·8/45 + 18·7/90 = 3 = W). (ii) a ⟨1,0⟩ of weight 2, b ⟨0,1⟩, c ⟨1,2⟩ on
    /// (1, 1): with t = x_c, p1 = 2/(1 − t), p2 = 1/(1 − 2t) and t (p1 + 2 p2) = 1 give
    /// 2t(1 − 2t) + 2t(1 − t) = (1 − t)(1 − 2t), i.e. 8t² − 7t + 1 = 0, t = (7 ± √17)/16;
    /// p2 > 0 needs t < 1/2: t = (7 − √17)/16.
    #[test]
    fn weights_are_budgets() {
        let paper = Instance::new(
            vec![9.into(), 18.into()],
            vec![User::new("A", [1, 4]).weight(2), User::new("B", [3, 1])],
        )
        .unwrap();
        let eq = solve_exact(&paper, &lim()).unwrap();
        assert_eq!(rational_values(&eq.task_values), vec![q(45, 11), q(18, 11)]);
        assert_eq!(rational_values(&eq.price_values), vec![q(8, 45), q(7, 90)]);
        assert_eq!(check_kkt(&paper, &eq), Ok(()));
        let inst = Instance::new(
            vec![1.into(), 1.into()],
            vec![
                User::new("a", [1, 0]).weight(2),
                User::new("b", [0, 1]),
                User::new("c", [1, 2]),
            ],
        )
        .unwrap();
        let eq = solve_exact(&inst, &lim()).unwrap();
        assert_eq!(eq.task_values[2].min_poly(), &p(&[1, -7, 8]));
        assert_eq!(
            eq.task_values[2].closed_form().unwrap(),
            "(7 - sqrt(17))/16"
        );
        assert_eq!(check_kkt(&inst, &eq), Ok(()));
    }

    /// Three positive prices: a ⟨1,0,0⟩, b ⟨0,1,0⟩, c ⟨0,0,1⟩, d ⟨1,2,3⟩ on (1, 1, 1).
    /// With t = x_d, clearing resource j gives x_j + j t = 1, so p_j = 1/(1 − j t), and d's
    /// budget t (p1 + 2 p2 + 3 p3) = 1 reads
    ///   t/(1 − t) + 2t/(1 − 2t) + 3t/(1 − 3t) = 1.
    /// Over the common denominator: t(1 − 5t + 6t²) + 2t(1 − 4t + 3t²) + 3t(1 − 3t + 2t²)
    /// = 6t − 22t² + 18t³ against (1 − t)(1 − 5t + 6t²) = 1 − 6t + 11t² − 6t³, so
    /// 24t³ − 33t² + 12t − 1 = 0. Its rational root candidates ±1/k (k | 24) all miss
    /// (e.g. 1/8 gives 1/32, 1/12 gives −31/144), so the cubic is irreducible; the root with
    /// all prices positive (t < 1/3) lies in (1/12, 1/8). The check below is independent
    /// of the cubic: the clearing equation itself, evaluated in rationals at the ends of the
    /// exact answer's isolating interval, changes sign.
    #[test]
    fn three_positive_prices_cubic() {
        let inst = Instance::new(
            vec![1.into(), 1.into(), 1.into()],
            vec![
                User::new("a", [1, 0, 0]),
                User::new("b", [0, 1, 0]),
                User::new("c", [0, 0, 1]),
                User::new("d", [1, 2, 3]),
            ],
        )
        .unwrap();
        let eq = solve_exact(&inst, &lim()).unwrap();
        assert_eq!(eq.support, vec![0, 1, 2]);
        assert_eq!(eq.field.degree(), 3);
        let t = &eq.task_values[3];
        assert_eq!(t.min_poly(), &p(&[-1, 12, -33, 24]));
        assert_eq!(t.cmp_rational(&q(1, 12)), Ordering::Greater);
        assert_eq!(t.cmp_rational(&q(1, 8)), Ordering::Less);
        let budget = |t: &BigRational| -> BigRational {
            (1..=3)
                .map(|j| {
                    let j = BigRational::from_integer(j.into());
                    &j * t / (BigRational::one() - &j * t)
                })
                .sum::<BigRational>()
                - BigRational::one()
        };
        let mut t = t.clone();
        t.refine(&ten_to_minus(12), &lim()).unwrap();
        let (lo, hi) = t.interval();
        assert!(budget(lo).is_negative() && budget(hi).is_positive());
        // p_j = 1/(1 − j t): the prices are the Möbius images of t.
        for (j, price) in eq.price_values.iter().enumerate() {
            let j = BigRational::from_integer((j as i64 + 1).into());
            let expected = t
                .mobius(
                    [
                        &BigRational::zero(),
                        &BigRational::one(),
                        &-j,
                        &BigRational::one(),
                    ],
                    &lim(),
                )
                .unwrap();
            assert_eq!(price.try_cmp(&expected, &lim()), Ok(Ordering::Equal));
        }
        assert_eq!(check_kkt(&inst, &eq), Ok(()));
    }

    /// Four resources each demanded by one user alone: every price must be positive (a
    /// user whose only resource is free would have no optimum), which is beyond the
    /// elimination's three.
    #[test]
    fn four_positive_prices_are_a_named_fallback() {
        let inst = Instance::new(
            vec![1.into(), 1.into(), 1.into(), 1.into()],
            vec![
                User::new("a", [1, 0, 0, 0]),
                User::new("b", [0, 1, 0, 0]),
                User::new("c", [0, 0, 1, 0]),
                User::new("d", [0, 0, 0, 1]),
            ],
        )
        .unwrap();
        assert_eq!(
            solve_exact(&inst, &lim()).unwrap_err(),
            AlgebraicCeeiError::SupportTooLarge { positive: 4 }
        );
    }

    /// SplitMix64 (Steele, Lea, Flood 2014): a fixed seed gives a fixed sequence.
    pub(super) struct SplitMix(pub(super) u64);

    impl SplitMix {
        pub(super) fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % n
        }
    }

    /// 1,000 random instances: 2–6 users, 2–3 resources, demands 0..9 (never all zero),
    /// capacities 1..20, a third of the users weighted 1..5, a quarter capped at 1..5.
    /// Every one is solved exactly, passes the exact KKT check, and its tasks agree with
    /// the floating-point solver's to within 1e-6 relative (the solver's tolerance is a
    /// relative duality gap of 1e-13; the tasks, unique, are far more accurate than that).
    /// No instance falls back: an equilibrium with at most 3 resources has at most 3
    /// positive prices, and the supports tried cover the ambiguous readings.
    #[test]
    fn random_instances_are_solved_exactly() {
        let mut rng = SplitMix(2026);
        let mut by_degree = [0usize; 3];
        for case in 0..1000 {
            let n = 2 + rng.below(5) as usize;
            let m = 2 + rng.below(2) as usize;
            let capacity: Vec<Rational> =
                (0..m).map(|_| (1 + rng.below(20) as i64).into()).collect();
            let users: Vec<User> = (0..n)
                .map(|i| {
                    let mut d: Vec<i64> = (0..m).map(|_| rng.below(10) as i64).collect();
                    if d.iter().all(|&x| x == 0) {
                        d[rng.below(m as u64) as usize] = 1 + rng.below(9) as i64;
                    }
                    let mut u = User::new(format!("u{i}"), d);
                    if rng.below(3) == 0 {
                        u = u.weight(1 + rng.below(5) as i64);
                    }
                    if rng.below(4) == 0 {
                        u = u.cap(1 + rng.below(5) as i64);
                    }
                    u
                })
                .collect();
            let inst = Instance::new(capacity, users).unwrap();
            let eq = solve_exact(&inst, &lim())
                .unwrap_or_else(|e| panic!("case {case}: {e}: {}", inst.to_json()));
            assert_eq!(check_kkt(&inst, &eq), Ok(()), "case {case}");
            let float = Ceei::new().solve_float(&inst).unwrap();
            for (i, x) in eq.task_values.iter().enumerate() {
                let v = as_f64(x);
                assert!(
                    (v - float.tasks[i]).abs() <= 1e-6 * v.abs().max(1e-9),
                    "case {case}: task {i}: {v} against {}",
                    float.tasks[i]
                );
            }
            by_degree[eq.field.degree().min(3) - 1] += 1;
        }
        // Both rational and irrational equilibria occur (a loop that met only one kind
        // would test less than it claims).
        assert!(by_degree[0] > 0 && by_degree[1] + by_degree[2] > 0);
    }
}

/// Sixty users on two resources of capacity 1000: twelve demand directions `(a, b)`, five
/// users in each with demands `m (a, b)`, `m = 1..5`, and weights `1 + (k + m) mod 3`.
/// Proportional users buy as one, so the clearing polynomial has degree at most 12 (one
/// linear factor per group, module docs of the exact CEEI). Independently of it, resource 1
/// clears at `p1` when `f(p1) = Σ_i w_i d_i1 / (p1 d_i1 + p2 d_i2) − 1000 = 0` with Walras'
/// `p2 = (W − 1000 p1)/1000` (`W` the sum of the weights): every cost is positive for
/// `0 < p1 < W/1000`, so `f` is continuous there, and opposite signs of `f` at the ends of
/// `p1`'s isolating interval, evaluated in rationals, show a clearing price inside it.
#[test]
fn sixty_users_on_two_resources_clear_at_the_isolated_price() {
    use leontief_solver::ceei::algebraic::{check_kkt, solve_exact};
    use leontief_solver::ceei::Ceei;
    use leontief_solver::{Instance, User};
    let directions = [
        (1, 2),
        (2, 1),
        (3, 1),
        (1, 3),
        (4, 3),
        (3, 4),
        (5, 2),
        (2, 5),
        (7, 1),
        (1, 7),
        (5, 4),
        (4, 5),
    ];
    let mut users = Vec::new();
    let mut demand = Vec::new();
    for (k, (a, b)) in directions.iter().enumerate() {
        for m in 1..=5i64 {
            let w = 1 + (k as i64 + m) % 3;
            users.push(User::new(format!("u{k}_{m}"), [m * a, m * b]).weight(w));
            demand.push((q(m * a, 1), q(m * b, 1), q(w, 1)));
        }
    }
    assert_eq!(users.len(), 60);
    let inst = Instance::new(vec![1000.into(), 1000.into()], users).unwrap();
    let eq = solve_exact(&inst, &Limits::default()).unwrap();
    assert_eq!(check_kkt(&inst, &eq), Ok(()));
    assert_eq!(eq.support, vec![0, 1]);
    assert!(eq.field.degree() <= 12);
    let total: BigRational = demand.iter().map(|(_, _, w)| w.clone()).sum();
    let cap = q(1000, 1);
    let clearing = |p1: &BigRational| -> BigRational {
        let p2 = (&total - &cap * p1) / &cap;
        demand
            .iter()
            .map(|(d1, d2, w)| w * d1 / (p1 * d1 + &p2 * d2))
            .sum::<BigRational>()
            - &cap
    };
    let price = &eq.price_values[0];
    let (lo, hi) = price.interval();
    if price.degree() >= 2 {
        assert!(lo.is_positive() && hi < &(&total / &cap));
        assert_ne!(clearing(lo).signum(), clearing(hi).signum());
    } else {
        assert!(clearing(lo).is_zero());
    }
    // The printed figures: every bundle's decimal, found from its user's shared refinement,
    // is the decimal of the bundle's own polynomial and interval.
    let out = Ceei::new()
        .solve_exact_numbers(&inst, &Limits::default())
        .unwrap();
    match out.algebraic {
        Some(Ok(exact)) => {
            for bundle in &exact.allocation {
                for b in bundle {
                    if let leontief_solver::ceei::ExactNumber::Algebraic(a) = b {
                        assert_eq!(a.decimal(), a.value().to_decimal(20, &lim()).unwrap());
                    }
                }
            }
        }
        // Certified rational: then the price is rational too.
        None => assert_eq!(price.degree(), 1),
        Some(Err(e)) => panic!("no exact answer: {e}"),
    }
}

/// A hundred users on two resources of capacity 1000, demands `(a, b)` with `a, b` in
/// 1..=30 from a fixed SplitMix64 sequence, weights 1 (the shape of the command-line
/// benchmark's instances). The answer is checked independently of the clearing polynomial
/// the solver builds:
/// - resource 1 clears at `p1` when `f(p1) = Σ_i d_i1 / (p1 d_i1 + p2 d_i2) − 1000 = 0`
///   with Walras' `p2 = (100 − 1000 p1)/1000`; every cost is positive for
///   `0 < p1 < 1/10`, so `f` is continuous there, and opposite signs of `f` at the ends of
///   `p1`'s isolating interval (in rationals) show a clearing price inside it;
/// - each user's task `x_i = 1 / (p1 d_i1 + p2 d_i2)` is monotone in `p1` (the cost is
///   `p1 (d_i1 − d_i2) + d_i2/10`), so the task lies between its values at the ends of
///   `p1`'s interval, and the task's own isolating interval must meet that range;
/// - each user's printed polynomial, evaluated in rationals at the ends of the task's
///   isolating interval, changes sign (a root inside).
#[test]
fn a_hundred_users_on_two_resources_answered_exactly() {
    use leontief_solver::ceei::algebraic::check_kkt;
    use leontief_solver::ceei::{Ceei, ExactNumber};
    use leontief_solver::{Instance, User};
    let mut rng = ceei_exact::SplitMix(0x2545_f491_4f6c_dd1d);
    let mut next = || 1 + rng.below(30) as i64;
    let demands: Vec<(i64, i64)> = (0..100).map(|_| (next(), next())).collect();
    let users = demands
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| User::new(format!("u{i}"), [a, b]))
        .collect();
    let inst = Instance::new(vec![1000.into(), 1000.into()], users).unwrap();
    let limits = Limits {
        max_degree: 100,
        ..Limits::default()
    };
    let out = Ceei::new().solve_exact_figures(&inst, &limits).unwrap();
    let eq = match out.algebraic {
        Some(Ok(eq)) => eq,
        Some(Err(e)) => panic!("no exact answer: {e}"),
        None => panic!("a rational answer was certified"),
    };
    assert_eq!(check_kkt(&inst, &eq.field), Ok(()));
    assert_eq!(eq.field.support, vec![0, 1]);
    // Irrational: a field of degree at least 2 (more than a handful of distinct
    // directions give a clearing polynomial of high degree).
    assert!(eq.field.field.degree() >= 2);
    let cap = q(1000, 1);
    let budget = q(100, 1);
    let cost = |p1: &BigRational, (a, b): (i64, i64)| {
        let p2 = (&budget - &cap * p1) / &cap;
        p1 * q(a, 1) + p2 * q(b, 1)
    };
    let clearing = |p1: &BigRational| -> BigRational {
        demands
            .iter()
            .map(|&(a, b)| q(a, 1) / cost(p1, (a, b)))
            .sum::<BigRational>()
            - &cap
    };
    let price = &eq.field.price_values[0];
    let (lo, hi) = price.interval();
    assert!(lo.is_positive() && hi < &(&budget / &cap));
    assert_ne!(clearing(lo).signum(), clearing(hi).signum());
    let eval = |poly: &Poly, x: &BigRational| -> BigRational {
        poly.coeffs()
            .iter()
            .rev()
            .fold(BigRational::zero(), |acc, c| {
                acc * x + BigRational::from(c.clone())
            })
    };
    for (i, task) in eq.tasks.iter().enumerate() {
        let (at_lo, at_hi) = (
            BigRational::one() / cost(lo, demands[i]),
            BigRational::one() / cost(hi, demands[i]),
        );
        let (low, high) = if at_lo < at_hi {
            (at_lo, at_hi)
        } else {
            (at_hi, at_lo)
        };
        match task {
            ExactNumber::Algebraic(t) => {
                let (tlo, thi) = t.value().interval();
                let poly = t.value().min_poly();
                assert_ne!(
                    eval(poly, tlo).signum(),
                    eval(poly, thi).signum(),
                    "user {i}"
                );
                assert!(tlo <= &high && &low <= thi, "user {i}");
            }
            // Demands (a, a) cost a (p1 + p2) = a · 100/1000 by Walras: a rational task,
            // 10/a, the same at both ends.
            ExactNumber::Rational(r) => {
                assert_eq!(demands[i].0, demands[i].1, "user {i}");
                assert_eq!(r.to_big(), low, "user {i}");
                assert_eq!(low, high, "user {i}");
            }
        }
    }
}

/// The stated reason just past the degree limit. Users ⟨1,3⟩, ⟨2,1⟩, ⟨3,2⟩, ⟨1,5⟩ on
/// capacities (1, 1) clear where `N = (p − 4)(4p³ + 3p² − 140p + 8) = 0` (docs/algebraic.md
/// §10); `p = 4 = W/c1` is the end of the price range (there `p2 = 0`), so the tasks lie in
/// the field of a root of the cubic, which has no rational root (±1, ±2, ±4, ±8, ±1/2, ±1/4
/// give nonzero values), so degree 3. A limit of 3 answers exactly; a limit of 2 answers the
/// named degree limit.
#[test]
fn the_degree_limit_is_a_stated_reason_just_past_it() {
    use leontief_solver::ceei::Ceei;
    let inst = ceei_exact::cubic_instance();
    let at = |max_degree| Limits {
        max_degree,
        ..Limits::default()
    };
    let exact = Ceei::new().solve_exact_figures(&inst, &at(3)).unwrap();
    assert!(matches!(exact.algebraic, Some(Ok(ref eq)) if eq.field.field.degree() == 3));
    let past = Ceei::new().solve_exact_figures(&inst, &at(2)).unwrap();
    match past.algebraic {
        Some(Err(e)) => assert_eq!(e.to_string(), "degree 3 exceeds the limit max_degree = 2"),
        _ => panic!("degree 3 answered under a limit of 2"),
    }
}
