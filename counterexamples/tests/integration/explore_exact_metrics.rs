//! Exact CEEI values of `envy`, the welfare ratios and `gsp-gain` (docs/explore.md §4): an
//! irrational equilibrium's value as a real algebraic number, each derived by hand below,
//! and the run's cache of exact answers.

use crate::common;

use common::{instance, q};

use leontief_counterexamples::candidate::Candidate;
use leontief_counterexamples::explore::exact::real;
use leontief_counterexamples::explore::record::{rederive, to_json, Origin};
use leontief_counterexamples::explore::{At, Evaluation, MetricName, Utility};
use leontief_solver::algebraic::Poly;
use leontief_solver::ceei::Ceei;
use leontief_solver::properties::Scenario;
use leontief_solver::{Instance, Mechanism, Rational};

/// The DRF paper's Theorem 5 instance: capacities (100, 100), u1 ⟨4, 1⟩, u2 ⟨1, 16⟩,
/// u3 ⟨16, 1⟩. Its CEEI tasks (docs/algebraic.md §10) are
/// x1 = (3125 − 125√373)/63 ≈ 11.2833, x2 = (3800 + 100√373)/1071 ≈ 5.3514 and
/// x3 = (25√373 − 325)/51 ≈ 3.0947 (both resources clear: 4x1 + x2 + 16x3 = 100 and
/// x1 + 16x2 + x3 = 100).
fn theorem5() -> Instance {
    instance("100 100", &[("u1", "4 1"), ("u2", "1 16"), ("u3", "16 1")])
}

/// Capacities (1, 1), u1 ⟨1, 0⟩, u2 ⟨0, 1⟩, u3 ⟨1, 2⟩ (docs/explore.md §3.8): with
/// budgets 1, x1 = 1 − y, x2 = 1 − 2y and x3 = y where y/(1 − y) + 2y/(1 − 2y) = 1, i.e.
/// 6y² − 6y + 1 = 0, y = (3 − √3)/6 ≈ 0.2113.
fn sqrt3() -> Instance {
    instance("1 1", &[("u1", "1 0"), ("u2", "0 1"), ("u3", "1 2")])
}

/// `Σ c_k t^k` (coefficients lowest first) at a rational `t`, in rationals.
fn poly_at(coefficients: &[i64], t: &Rational) -> Rational {
    coefficients
        .iter()
        .rev()
        .fold(Rational::ZERO, |acc, c| &(&acc * t) + &Rational::from(*c))
}

/// The exact evaluation of `metric` on `instance` (no scenario) with `utility`, and the
/// search's interval evaluation of the same.
fn bounded(metric: MetricName, inst: Instance, utility: Utility) -> (Evaluation, Evaluation) {
    let ceei = Ceei::new();
    let c = Candidate::new(inst, Scenario::Bounded);
    let truth = ceei.allocate(&c.instance).unwrap();
    let m = metric.metric();
    let exact = m
        .at(&At::new(&ceei, &c, &truth, utility).algebraic())
        .unwrap()
        .unwrap();
    let approx = m.at(&At::new(&ceei, &c, &truth, utility)).unwrap().unwrap();
    (exact, approx)
}

/// The value's minimal polynomial is `poly` (lowest coefficient first), which changes sign
/// across the evaluation's interval evaluated in rationals; the search's interval brackets
/// the exact one; the record says `"exact": true` with no interval and re-derives.
fn check_exact(
    metric: MetricName,
    utility: Utility,
    e: &Evaluation,
    approx: &Evaluation,
    poly: &[i64],
) {
    assert!(e.exact, "{e:?}");
    let a = e.algebraic.as_deref().expect("an algebraic value");
    assert_eq!(real(&a.value).min_poly(), &Poly::from_i64s(poly));
    let (lo, hi) = (poly_at(poly, &e.lo), poly_at(poly, &e.hi));
    assert!(lo.signum() * hi.signum() < 0, "{lo} {hi}");
    assert!(&e.hi - &e.lo <= Rational::new(1, 1i128 << 100).unwrap());
    assert!(!approx.exact);
    assert!(approx.lo <= e.lo && e.hi <= approx.hi);
    let record = to_json(
        metric,
        "ceei",
        utility,
        e,
        1,
        1,
        &Origin::Local { round: 0, task: 0 },
    );
    assert_eq!(record["exact"], true, "{record}");
    assert!(record.get("interval").is_none(), "{record}");
    let again = rederive(&Ceei::new(), &record).unwrap();
    assert_eq!(again.algebraic, e.algebraic);
}

/// CEEI is envy-free, so its envy is at most 1; on Theorem 5 the largest ratio is u3's for
/// u1's bundle. With weights 1, u_i(x_k d_k) = x_k · min_{j: d_ij > 0} d_kj / d_ij:
/// u1 of u2's x2/4 ≈ 0.119 x1, u1 of u3's x3 ≈ 0.274 x1, u2 of u1's x1/16 ≈ 0.132 x2,
/// u2 of u3's x3/16 ≈ 0.036 x2, u3 of u2's x2/16 ≈ 0.108 x3 and u3 of u1's
/// x1 · min(4/16, 1/1) = x1/4 ≈ 0.9115 x3. Its value:
/// x1/(4 x3) = 51(3125 − 125√373) / (252(25√373 − 325)) = 85(25 − √373)/(84(√373 − 13)),
/// and (25 − √373)/(√373 − 13) = (25 − √373)(√373 + 13)/(373 − 169) = (12√373 − 48)/204
/// = (√373 − 4)/17, so envy = 5(√373 − 4)/84 ≈ 0.911501. From 84x + 20 = 5√373:
/// 7056x² + 3360x − 8925 = 0, over 21: 336x² + 160x − 425.
#[test]
fn ceei_envy_of_theorem5_is_exact() {
    let (e, approx) = bounded(MetricName::Envy, theorem5(), Utility::Tasks);
    check_exact(
        MetricName::Envy,
        Utility::Tasks,
        &e,
        &approx,
        &[-425, 160, 336],
    );
    assert_eq!((e.user, e.other), (2, Some(0)));
    let a = e.algebraic.as_deref().unwrap();
    // The denominator is x3: 51x + 325 = 25√373, (51x + 325)² = 233125, over 51:
    // 51x² + 650x − 2500.
    assert_eq!(
        real(&a.denominator).min_poly(),
        &Poly::from_i64s(&[-2500, 650, 51])
    );
    assert!(q("9115/10000") < e.lo && e.hi < q("9116/10000"));
}

/// `welfare-ratio` in tasks on Theorem 5. W = x1 + x2 + x3 over 1071 = 63 · 17 = 51 · 21:
/// (53125 − 2125√373 + 3800 + 100√373 − 6825 + 525√373)/1071 = (50100 − 1500√373)/1071
/// ≈ 19.7294. OPT = max y1 + y2 + y3 under 4y1 + y2 + 16y3 ≤ 100, y1 + 16y2 + y3 ≤ 100:
/// the vertex y3 = 0, y1 = 500/21, y2 = 100/21 gives 200/7, with the dual prices (5/21,
/// 1/21) covering u3 (16 · 5/21 + 1/21 ≥ 1). Ratio = (200/7) · 1071/(50100 − 1500√373)
/// = 102/(167 − 5√373) = 102(167 + 5√373)/(167² − 25 · 373 = 18564) = (167 + 5√373)/182
/// ≈ 1.448160. From (182x − 167)² = 9325: 33124x² − 60788x + 18564, over 364:
/// 91x² − 167x + 51.
#[test]
fn ceei_welfare_ratio_of_theorem5_in_tasks_is_exact() {
    let (e, approx) = bounded(MetricName::WelfareRatio, theorem5(), Utility::Tasks);
    check_exact(
        MetricName::WelfareRatio,
        Utility::Tasks,
        &e,
        &approx,
        &[51, -167, 91],
    );
    let a = e.algebraic.as_deref().unwrap();
    assert_eq!(a.numerator.as_rational(), Some(&q("200/7")));
    assert!(q("144816/100000") < e.lo && e.hi < q("144817/100000"));
}

/// The welfare ratios in dominant shares (the default) on the √3 instance (docs/explore.md
/// §3.8). μ = (1, 1, 2), so W = (1 − y) + (1 − 2y) + 2y = 2 − y = (9 + √3)/6.
/// OPT = 2 (u1 and u2 run one task each; y3 = 1/2 with y1 = 1/2 gives only 3/2), so
/// welfare-ratio = 12/(9 + √3) = 2(9 − √3)/13 ≈ 1.118146: (13x − 18)² = 12,
/// 169x² − 468x + 312, over 13: 13x² − 36x + 24. FAIR: with y3 = t the best is y1 = 1 − t,
/// y2 = 1 − 2t, welfare 2 − t; u3's sharing incentive (its equal split (1/3, 1/3) runs
/// min(1/3, 1/6) tasks) needs t ≥ 1/6, and envy-freeness (u1: y1 ≥ t, u2: y2 ≥ 2t) holds
/// there: FAIR = 11/6, fair-welfare-ratio = 11/(9 + √3) = 11(9 − √3)/78 ≈ 1.024967:
/// (78x − 99)² = 363, 6084x² − 15444x + 9438, over 78: 78x² − 198x + 121.
#[test]
fn ceei_welfare_ratios_of_the_sqrt3_instance_are_exact() {
    let ds = Utility::DominantShare;
    let (e, approx) = bounded(MetricName::WelfareRatio, sqrt3(), ds);
    check_exact(MetricName::WelfareRatio, ds, &e, &approx, &[24, -36, 13]);
    let a = e.algebraic.as_deref().unwrap();
    assert_eq!(a.numerator.as_rational(), Some(&q("2")));
    // W = (9 + √3)/6: 6x − 9 = √3, 36x² − 108x + 78, over 6: 6x² − 18x + 13.
    assert_eq!(
        real(&a.denominator).min_poly(),
        &Poly::from_i64s(&[13, -18, 6])
    );

    let (f, approx) = bounded(MetricName::FairWelfareRatio, sqrt3(), ds);
    check_exact(
        MetricName::FairWelfareRatio,
        ds,
        &f,
        &approx,
        &[121, -198, 78],
    );
    assert_eq!(
        f.algebraic.as_deref().unwrap().numerator.as_rational(),
        Some(&q("11/6"))
    );
    assert!(q("1024967/1000000") < f.lo && f.hi < q("1024968/1000000"));
}

/// A coalition whose only liar reports its true demand leaves the answer as it was: the
/// liar's ratio is x1/x1 = 1 exactly (two exact solves of one instance, divided across
/// their fields), the other users do not gain and are not members. The numerator is
/// x1 = (3125 − 125√373)/63: (63x − 3125)² = 15625 · 373, 3969x² − 393750x + 3937500, over
/// 63: 63x² − 6250x + 62500.
#[test]
fn ceei_gsp_gain_of_a_truthful_coalition_is_exactly_one() {
    let ceei = Ceei::new();
    let inst = theorem5();
    let report = inst.users()[0].demand.clone();
    let c = Candidate::new(inst, Scenario::Lies(vec![(0, report)]));
    let truth = ceei.allocate(&c.instance).unwrap();
    let m = MetricName::GspGain.metric();
    let approx = m
        .at(&At::new(&ceei, &c, &truth, Utility::Tasks))
        .unwrap()
        .unwrap();
    assert!(!approx.exact && approx.lo < Rational::ONE && Rational::ONE < approx.hi);
    let at = At::new(&ceei, &c, &truth, Utility::Tasks).algebraic();
    let e = m.at(&at).unwrap().unwrap();
    assert!(e.exact);
    assert_eq!(e.user, 0);
    let a = e.algebraic.as_deref().unwrap();
    assert_eq!(a.value.as_rational(), Some(&Rational::ONE));
    assert_eq!(
        real(&a.numerator).min_poly(),
        &Poly::from_i64s(&[62500, -6250, 63])
    );
    assert_eq!(m.at(&at).unwrap().unwrap(), e);
    let x1 = real(&a.numerator);
    assert!(x1.cmp_rational(&q("1128/100").to_big()).is_gt());
    assert!(x1.cmp_rational(&q("1129/100").to_big()).is_lt());
}
