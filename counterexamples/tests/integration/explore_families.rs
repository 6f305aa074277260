//! `explore` with parametric families, and the welfare ratios of uncertified CEEI answers:
//! values checked against hand derivations, records re-derived independently.

use crate::common;

use common::q;

use leontief_counterexamples::candidate::Candidate;
use leontief_counterexamples::explore::record::{rederive, to_json, Origin};
use leontief_counterexamples::explore::{At, MetricName, Utility};
use leontief_solver::ceei::Ceei;
use leontief_solver::properties::Scenario;
use leontief_solver::{Instance, Mechanism, Rational, User};

/// Capacities (1, 1); u1 ⟨1, 0⟩, u2 ⟨0, 1⟩, u3 ⟨1, 2⟩: CEEI's answer is irrational.
///
/// Eisenberg–Gale (docs/theory.md §2.5): both resources bind, prices p1, p2 with
/// x1 = 1/p1, x2 = 1/p2, x3 = 1/(p1 + 2 p2), x1 + x3 = 1, x2 + 2 x3 = 1. With y = x3:
/// 1/y = 1/(1 − y) + 2/(1 − 2y), i.e. 6y² − 6y + 1 = 0, y = (3 − √3)/6 (the root below
/// 1/2). So x1 = 1 − y, x2 = 1 − 2y, and in dominant shares (μ = 1, 1, 2) the welfare is
/// x1 + x2 + 2 x3 = 2 − y = (9 + √3)/6, irrational.
fn irrational_ceei() -> Instance {
    Instance::new(
        vec![1.into(), 1.into()],
        vec![
            User::new("u1", [1, 0]),
            User::new("u2", [0, 1]),
            User::new("u3", [1, 2]),
        ],
    )
    .unwrap()
}

/// The sign of `a − b√3` for rationals `a`, `b > 0` (never 0: √3 is irrational):
/// `a − b√3 > 0 ⟺ a > 0 and a² > 3b²`.
fn above_root3(a: &Rational, b: &Rational) -> bool {
    a.is_positive() && a * a > &(b * b) * &Rational::from(3)
}

/// The search's evaluation of `metric` on the irrational instance (an interval), and the
/// record of its exact value (docs/explore.md §4), re-derived from its JSON.
fn irrational_record(
    metric: MetricName,
) -> (
    leontief_counterexamples::explore::Evaluation,
    serde_json::Value,
) {
    let ceei = Ceei::new();
    let c = Candidate::new(irrational_ceei(), Scenario::Bounded);
    let truth = ceei.allocate(&c.instance).unwrap();
    assert!(
        truth.tolerance.is_some(),
        "CEEI certified an irrational answer"
    );
    let e = metric
        .metric()
        .at(&At::new(&ceei, &c, &truth, Utility::DominantShare))
        .unwrap()
        .expect("an interval, not no value");
    let exact = metric
        .metric()
        .at(&At::new(&ceei, &c, &truth, Utility::DominantShare).algebraic())
        .unwrap()
        .expect("an exact value");
    let json = to_json(
        metric,
        ceei.name(),
        Utility::DominantShare,
        &exact,
        1,
        0,
        &Origin::Local { round: 0, task: 0 },
    );
    rederive(&ceei, &json).unwrap();
    (e, json)
}

#[test]
fn welfare_ratio_of_an_irrational_ceei_answer_is_certified_then_exact() {
    // OPT: x1 + x2 + 2 x3 = (x1 + x3) + (x2 + 2 x3) − x3 <= 2 − x3 <= 2, reached at
    // x = (1, 1, 0): OPT = 2. The ratio is 2 / ((9 + √3)/6) = 12/(9 + √3) = 2(9 − √3)/13,
    // about 1.1181, irrational: the search's interval [lo, hi] must contain it, and the
    // record holds it exactly, (18 − 2√3)/13.
    // lo <= 2(9 − √3)/13 ⟺ (18 − 13 lo) − 2√3 > 0; hi >= it ⟺ (18 − 13 hi) − 2√3 < 0.
    let (e, json) = irrational_record(MetricName::WelfareRatio);
    assert!(!e.exact);
    assert_eq!(json["exact"], true);
    assert_eq!(json["value"]["closed_form"], "(18 - 2*sqrt(3))/13");
    assert_eq!(e.numerator, q("2"));
    assert!(e.lo <= e.value && e.value <= e.hi && e.lo < e.hi);
    let c13 = Rational::from(13);
    let c18 = Rational::from(18);
    let two = Rational::from(2);
    assert!(above_root3(&(&c18 - &(&c13 * &e.lo)), &two));
    assert!(!above_root3(&(&c18 - &(&c13 * &e.hi)), &two));
    // The interval is narrow (CEEI's certified tolerance) and lies above 1: welfare lost, certified.
    assert!(&e.hi - &e.lo < q("1/1000000"));
    assert!(e.lo > Rational::ONE);
}

#[test]
fn fair_welfare_ratio_of_an_irrational_ceei_answer_is_certified_then_exact() {
    // FAIR by hand: SI gives x1 >= 1/3, x2 >= 1/3, x3 >= min(1/3, (1/3)/2) = 1/6; EF: u1
    // runs x3 tasks on u3's bundle (x1 >= x3), u2 runs 2 x3 (x2 >= 2 x3); no other bundle
    // serves anyone. The welfare (x1 + x3) + (x2 + 2 x3) − x3 <= 2 − 1/6 = 11/6, reached at
    // x = (5/6, 2/3, 1/6), which is SI and EF: FAIR = 11/6. The ratio is
    // (11/6) / ((9 + √3)/6) = 11/(9 + √3) = 11(9 − √3)/78.
    // lo <= 11(9 − √3)/78 ⟺ (99 − 78 lo) − 11√3 > 0; hi >= it ⟺ (99 − 78 hi) − 11√3 < 0.
    let (e, json) = irrational_record(MetricName::FairWelfareRatio);
    assert!(!e.exact);
    assert_eq!(json["exact"], true);
    assert_eq!(json["value"]["closed_form"], "(99 - 11*sqrt(3))/78");
    assert_eq!(e.numerator, q("11/6"));
    assert!(e.lo <= e.value && e.value <= e.hi && e.lo < e.hi);
    let c78 = Rational::from(78);
    let c99 = Rational::from(99);
    let eleven = Rational::from(11);
    assert!(above_root3(&(&c99 - &(&c78 * &e.lo)), &eleven));
    assert!(!above_root3(&(&c99 - &(&c78 * &e.hi)), &eleven));
    assert!(&e.hi - &e.lo < q("1/1000000"));
}

/// A family builds no value grid: at 31 users and 30 resources (3^30 grid vectors, which
/// no machine holds) the one point `F(1, 30)` is explored at once, and DRF's welfare ratio
/// there is Parkes, Procaccia and Shah's `m (k + 1) / (k + m) = 30 · 2 / 31 = 60/31`
/// (docs/explore.md §7).
#[test]
fn pps_at_thirty_resources_needs_no_grid() {
    use leontief_counterexamples::explore::{ExploreConfig, Family};
    use leontief_counterexamples::space::Strategy;
    let g = crate::common::sized(31..=31, 30..=30);
    let mut cfg = ExploreConfig::new(MetricName::WelfareRatio, 1, g);
    cfg.family = Some(Family::Pps);
    cfg.run.strategy = Strategy::Exhaustive;
    cfg.local = 0;
    let lines = common::explored(&leontief_solver::Drf::extended(), &cfg);
    let best = lines.last().unwrap();
    assert_eq!(best["best"], true);
    assert_eq!(best["value"], "60/31");
    assert_eq!(best["family"]["params"]["k"], 1);
}
