//! Goals whose constant is an irrational algebraic number (`explore --certify` on an exact
//! record): the constant is declared exactly in every script.

use std::cmp::Ordering;

use super::{decide, refuted_replaying, solver, statement};
use crate::common::q;
use leontief_counterexamples::explore::MetricName;
use leontief_counterexamples::prove::{Goal, ProvedMechanism, Verdict};
use leontief_solver::algebraic::{Limits, Poly, RealAlgebraic};

/// The root of `poly` (constant term first) in `(lo, hi)`.
fn root(poly: &[i64], lo: &str, hi: &str) -> RealAlgebraic {
    RealAlgebraic::root_in(
        &Poly::from_i64s(poly),
        &q(lo).to_big(),
        &q(hi).to_big(),
        &Limits::default(),
    )
    .unwrap()
}

#[test]
fn drfs_sp_gain_is_at_most_sqrt2() {
    // DRF is strategy-proof (Ghodsi et al., NSDI 2011, §4.2): no lie raises a user's true
    // utility, so sp-gain <= 1 < √2 on every instance and "sp-gain <= √2" is proved.
    let Some(_) = solver() else { return };
    let sqrt2 = root(&[-2, 0, 1], "1", "2");
    let st = statement(
        ProvedMechanism::Drf,
        Goal::Bound(MetricName::SpGain, q("1")),
        2,
        2,
    )
    .with_exact_bound(sqrt2)
    .unwrap();
    assert!(st.describe().contains("sqrt(2)"), "{}", st.describe());
    assert_eq!(decide(&st), Verdict::Proved);
}

#[test]
fn ceeis_sp_gain_with_two_users_passes_sqrt2_not_the_golden_ratio() {
    // docs/theory.md §6.7–6.8: with equal incomes a single liar gains at most 2 − 1/n, and
    // the family attains it: at n = 2, 3/2 (liar ⟨1, 0⟩ against ⟨1/2, 1⟩ on (1, 1), 1/2 task
    // truthfully, 3/4 reporting ⟨1, 2/3⟩). So "sp-gain <= √2" (√2 < 1.415 < 3/2) is refuted,
    // by an instance that replays as an SP violation of the exact CEEI, its gain above √2, and "sp-gain <= (1 + √5)/2" (> 1.618 >
    // 3/2) is proved.
    let Some(_) = solver() else { return };
    let sqrt2 = root(&[-2, 0, 1], "1", "2");
    let st = statement(
        ProvedMechanism::Ceei,
        Goal::Bound(MetricName::SpGain, q("1")),
        2,
        2,
    )
    .with_exact_bound(sqrt2.clone())
    .unwrap();
    // The goal's rational is the upper end of √2's refined interval: a re-derived refutation
    // passes it, hence √2 itself.
    let Goal::Bound(MetricName::SpGain, end) = &st.goal else {
        panic!("an sp-gain goal")
    };
    assert_eq!(sqrt2.cmp_rational(&end.to_big()), Ordering::Less);
    let record = refuted_replaying(&st, "sp", &leontief_solver::ceei::Ceei::new());
    let gain = q(record["value"].as_str().unwrap());
    assert_eq!(sqrt2.cmp_rational(&gain.to_big()), Ordering::Less);
    assert!(gain > *end && gain <= q("3/2"), "gain {gain}");
    // x² − x − 1 has the roots (1 ± √5)/2; (1, 2) holds the golden ratio.
    let golden = root(&[-1, -1, 1], "1", "2");
    let st = statement(
        ProvedMechanism::Ceei,
        Goal::Bound(MetricName::SpGain, q("1")),
        2,
        2,
    )
    .with_exact_bound(golden)
    .unwrap();
    assert_eq!(decide(&st), Verdict::Proved);
}

#[test]
fn a_property_has_no_constant_to_make_exact() {
    let sqrt2 = root(&[-2, 0, 1], "1", "2");
    let st = statement(
        ProvedMechanism::Drf,
        Goal::Property(leontief_solver::properties::Property::Sp),
        2,
        2,
    );
    assert!(st.with_exact_bound(sqrt2).is_err());
}
