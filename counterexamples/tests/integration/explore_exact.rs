//! Exact CEEI metric values: an irrational equilibrium's ratio as a real algebraic number
//! (`At::algebraic`), records that write it and re-derive it, and exact comparison of
//! records.

use crate::common;

use common::{corpus_records, instance, q};

use crate::common::replay_named;
use leontief_counterexamples::candidate::Candidate;
use leontief_counterexamples::explore::exact::read_exact;
use leontief_counterexamples::explore::record::{rederive, to_json, Origin};
use leontief_counterexamples::explore::{At, Direction, Evaluation, MetricName, Utility};
use leontief_counterexamples::record::canonical_key;
use leontief_solver::algebraic::Poly;
use leontief_solver::ceei::Ceei;
use leontief_solver::properties::{Property, Scenario};
use leontief_solver::{Instance, Mechanism, Rational, User};

/// The population I: capacities (1, 1), u1 ⟨1, 1⟩, u2 = u3 ⟨1, 2/3⟩, u4 ⟨0, 1⟩.
fn population() -> Instance {
    instance(
        "1 1",
        &[
            ("u1", "1 1"),
            ("u2", "1 2/3"),
            ("u3", "1 2/3"),
            ("u4", "0 1"),
        ],
    )
}

/// `64 t² − 180 t + 75` at a rational `t`, in rationals (no algebraic kernel).
fn clearing_value(t: &Rational) -> Rational {
    &(&(&q("64") * &(t * t)) - &(&q("180") * t)) + &q("75")
}

/// CEEI's pm-loss evaluation when `new` ⟨1, 0⟩ joins I (the value is derived in
/// [`ceei_pm_loss_of_the_sqrt33_join_is_exact`]): with its exact form when `exact`, as the
/// search's interval otherwise.
fn sqrt33_join(exact: bool) -> Evaluation {
    let ceei = Ceei::new();
    let c = Candidate::new(
        population(),
        Scenario::Join(User::new("new", [q("1"), q("0")])),
    );
    let truth = ceei.allocate(&c.instance).unwrap();
    let at = At::new(&ceei, &c, &truth, Utility::Tasks);
    let at = if exact { at.algebraic() } else { at };
    MetricName::PmLoss.metric().at(&at).unwrap().unwrap()
}

/// The record a run writes for `e`.
fn record_of(e: &Evaluation) -> serde_json::Value {
    to_json(
        MetricName::PmLoss,
        "ceei",
        Utility::Tasks,
        e,
        1,
        1,
        &Origin::Local { round: 0, task: 0 },
    )
}

/// CEEI's pm-loss when `new` ⟨1, 0⟩ joins I is exactly (45 − 5√33)/32, user u4's ratio.
///
/// I (budgets 1, prices p1, p2; a user of demand d buys 1/(d·p) tasks): the budgets sum to
/// 4 = p1 + p2 when both resources clear. p1 = 0, p2 = 4 clears both: u1 buys 1/4, u2 and
/// u3 buy 1/((2/3)·4) = 3/8 each, u4 buys 1/4; r1 holds 1/4 + 3/8 + 3/8 = 1, r2 holds
/// 1/4 + (2/3)(3/8)·2 + 1/4 = 1. So u4 runs 1/4 tasks in I.
///
/// I + new: 5 = p1 + p2; u1 buys 1/5, u2 = u3 buy 1/(p1 + (2/3) p2), u4 buys 1/p2, new buys
/// 1/p1. With q = p2, p1 = 5 − q, r1 clears when 1/5 + 2/(5 − q/3) + 1/(5 − q) = 1, whose
/// numerator is −(4q² − 45q + 75): q = (45 ± 5√33)/8, and only (45 − 5√33)/8 ≈ 2.0346 lies in
/// (0, 5). u4 runs 1/q = (9 + √33)/30 ≈ 0.4915 tasks (it gains when new joins).
///
/// pm-loss = (1/4) / (1/q) = q/4 = (45 − 5√33)/32 ≈ 0.508662, a root of 64t² − 180t + 75
/// (t = q/4 in 4q² − 45q + 75); the other root (45 + 5√33)/32 ≈ 2.30 is far off.
#[test]
fn ceei_pm_loss_of_the_sqrt33_join_is_exact() {
    let e = sqrt33_join(true);
    assert!(e.exact);
    assert_eq!(e.user, 3);
    let a = e.algebraic.as_deref().expect("an algebraic value");
    let value = leontief_counterexamples::explore::exact::real(&a.value);
    assert_eq!(value.min_poly(), &Poly::from_i64s(&[75, -180, 64]));
    assert_eq!(value.closed_form().unwrap(), "(45 - 5*sqrt(33))/32");
    // Independently: the clearing polynomial changes sign over the isolating interval
    // (positive at 1/2: 16 − 90 + 75 = 1; negative at 51/100), and the interval lies in
    // (1/2, 51/100), which holds only the smaller root.
    assert!(clearing_value(&e.lo).is_positive());
    assert!(clearing_value(&e.hi).is_negative());
    assert!(q("1/2") <= e.lo && e.hi <= q("51/100"));
    assert!(&e.hi - &e.lo <= Rational::new(1, 1i128 << 100).unwrap());
    // u4's utilities: 1/4 in I, (9 + √33)/30 in I + new: (30t − 9)² = 33, 75t² − 45t + 4.
    assert_eq!(a.numerator.as_rational(), Some(&q("1/4")));
    let den = leontief_counterexamples::explore::exact::real(&a.denominator);
    assert_eq!(den.min_poly(), &Poly::from_i64s(&[4, -45, 75]));
    // The search's interval (without the exact form) brackets the same number.
    let approx = sqrt33_join(false);
    assert!(!approx.exact);
    assert!(approx.lo <= e.lo && e.hi <= approx.hi);

    // The record writes the exact number, says "exact": true with no interval, and
    // re-derives from scratch.
    let record = record_of(&e);
    assert_eq!(record["exact"], true, "{record}");
    assert!(record.get("interval").is_none(), "{record}");
    assert_eq!(record["value"]["closed_form"], "(45 - 5*sqrt(33))/32");
    assert_eq!(record["decimal"], "0.508662086478");
    assert_eq!(record["witness"]["allocation_before"]["u4"], "1/4");
    assert_eq!(
        record["witness"]["allocation_after"]["u4"]["closed_form"],
        "(9 + sqrt(33))/30"
    );
    let read = read_exact("value", &record["value"]).unwrap().unwrap();
    assert_eq!(
        read.try_cmp(&value, &Default::default()),
        Ok(std::cmp::Ordering::Equal)
    );
    let again = rederive(&Ceei::new(), &record).unwrap();
    assert_eq!(again.algebraic, e.algebraic);
    // Equal exact values are a tie, not an improvement; the search's wider interval never
    // beats the exact value.
    assert!(!again.beats(&e, Direction::Min) && !e.beats(&again, Direction::Min));
    assert!(!approx.beats(&e, Direction::Min));
}

/// A tampered exact value is caught on re-derivation: the other root of the same polynomial.
#[test]
fn a_record_with_the_conjugate_root_is_rejected() {
    let e = sqrt33_join(true);
    let mut record = record_of(&e);
    // (45 + 5√33)/32 ≈ 2.3038 lies in (2, 3) and 64t² − 180t + 75 changes sign there
    // (at 2: 256 − 360 + 75 = −29; at 3: 576 − 540 + 75 = 111).
    record["value"]["algebraic"]["interval"] = serde_json::json!(["2", "3"]);
    assert!(rederive(&Ceei::new(), &record).is_err());
}

/// The corpus holds the join as the departure of `new` from I + new, with the exact loss in
/// its witness; it replays (CEEI violates PM there), and its exact numbers are the ones
/// derived in [`ceei_pm_loss_of_the_sqrt33_join_is_exact`].
#[test]
fn the_corpus_holds_the_sqrt33_record() {
    let (file, line, value) = corpus_records()
        .into_iter()
        .find(|(f, _, v)| {
            f == "ceei-pm.jsonl" && v["witness"]["pm_loss"]["closed_form"].is_string()
        })
        .expect("the exact record");
    let r = replay_named(&value).unwrap_or_else(|e| panic!("{file}:{line}: {e}"));
    assert_eq!(r.property, Property::Pm);
    assert_eq!(
        value["key"],
        canonical_key("ceei", Property::Pm, &r.candidate),
        "{file}:{line}"
    );
    let loss = read_exact("witness.pm_loss", &value["witness"]["pm_loss"])
        .unwrap()
        .unwrap();
    assert_eq!(loss.min_poly(), &Poly::from_i64s(&[75, -180, 64]));
    let (lo, hi) = loss.interval();
    let (lo, hi) = (
        Rational::from_big(lo.clone()),
        Rational::from_big(hi.clone()),
    );
    assert!(clearing_value(&lo).is_positive() && clearing_value(&hi).is_negative());
    // The same number as the metric's exact value on the join.
    let e = sqrt33_join(true);
    assert_eq!(
        e.exact_value().unwrap().try_cmp(&loss, &Default::default()),
        Ok(std::cmp::Ordering::Equal)
    );
}
