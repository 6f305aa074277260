//! The property oracles on CEEI's exact algebraic equilibria: the DRF paper's Theorem 5
//! instance (capacities (100, 100); users 1 ⟨4, 1⟩, 2 ⟨1, 16⟩, 3 ⟨16, 1⟩, equal budgets),
//! whose CEEI is irrational, decided exactly — PM fails, EF holds, a lie is profitable —
//! and an exact equality (two identical users' envy). Every irrational figure is checked by
//! an independent exact computation in Q(√D): the prices it implies clear both markets.

use leontief_solver::algebraic::{Limits, NumberField, Poly, RealAlgebraic};
use leontief_solver::ceei::{Ceei, ExactNumber};
use leontief_solver::properties::{check, CheckReport, Property, Scenario, Witness};
use leontief_solver::{Instance, User};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;
use serde_json::Value;

use crate::common::{instance, r};

fn theorem5() -> Instance {
    instance(
        &[100, 100],
        vec![
            User::new("1", [4, 1]),
            User::new("2", [1, 16]),
            User::new("3", [16, 1]),
        ],
    )
}

fn q(n: i64) -> BigRational {
    BigRational::from_integer(n.into())
}

/// `(a + b√d)/c` as written by the kernel's closed form.
fn closed_form(a: i64, b: i64, d: i64, c: i64) -> String {
    let sign = if b < 0 { "-" } else { "+" };
    format!("({a} {sign} {}*sqrt({d}))/{c}", b.abs())
}

/// Checks, by exact arithmetic in Q(√d) and independently of the CEEI solver, that user `k`
/// running `x_k = (a + b√d)/c` tasks is CEEI on `inst` (two resources, budgets 1, `n` users)
/// with both prices positive. With both resources saturated every budget is spent on them,
/// so `p1 R1 + p2 R2 = n`; `k`'s budget gives `p1 d_k1 + p2 d_k2 = 1/x_k`. These two linear
/// equations fix the prices (Cramer); each user `i` then buys `x_i = 1/(p · d_i)`, its best
/// bundle for budget 1; if both prices are positive and both markets clear
/// (`Σ_i x_i d_ij = R_j`), this is the Eisenberg–Gale optimum, i.e. the CEEI.
fn assert_ceei_user(inst: &Instance, k: usize, [a, b, d, c]: [i64; 4]) {
    let lim = Limits::default();
    let sqrt = RealAlgebraic::roots(&Poly::from_i64s(&[-d, 0, 1]), &lim).unwrap()[1].clone();
    let field = NumberField::new(sqrt);
    let big = |x: &leontief_solver::Rational| x.to_big();
    let x_k = field.element(vec![q(a) / q(c), q(b) / q(c)]);
    let n = field.rational(q(inst.num_users() as i64));
    let cap: Vec<_> = inst.capacity().iter().map(big).collect();
    let dk: Vec<_> = inst.users()[k].demand.iter().map(big).collect();
    let det = &dk[0] * &cap[1] - &dk[1] * &cap[0];
    let inv_x = field.inverse(&x_k).unwrap();
    // p1 = (R2/x_k − d_k2 n)/det, p2 = (d_k1 n − R1/x_k)/det.
    let p1 = field.sub(
        &field.mul(&inv_x, &field.rational(cap[1].clone() / &det)),
        &field.mul(&n, &field.rational(dk[1].clone() / &det)),
    );
    let p2 = field.sub(
        &field.mul(&n, &field.rational(dk[0].clone() / &det)),
        &field.mul(&inv_x, &field.rational(cap[0].clone() / &det)),
    );
    for p in [&p1, &p2] {
        assert_eq!(
            field.to_real(p, &lim).unwrap().signum(),
            1,
            "a price is not positive"
        );
    }
    let mut used = [field.rational(q(0)), field.rational(q(0))];
    for u in inst.users() {
        let cost = field.add(
            &field.mul(&p1, &field.rational(big(&u.demand[0]))),
            &field.mul(&p2, &field.rational(big(&u.demand[1]))),
        );
        let x_i = field.inverse(&cost).unwrap();
        for (j, used_j) in used.iter_mut().enumerate() {
            *used_j = field.add(used_j, &field.mul(&x_i, &field.rational(big(&u.demand[j]))));
        }
    }
    for (j, used_j) in used.iter().enumerate() {
        assert!(
            field.sub(used_j, &field.rational(cap[j].clone())).is_zero(),
            "resource {j} does not clear"
        );
    }
}

/// The algebraic number of an exact figure (panics on a rational one).
fn algebraic(x: &ExactNumber) -> (&RealAlgebraic, Option<&str>) {
    match x {
        ExactNumber::Algebraic(a) => (a.value(), a.closed_form()),
        ExactNumber::Rational(r) => panic!("expected an irrational figure, found {r}"),
    }
}

/// The exact CEEI's check of `property` on `inst`, asserted to hold and to be decided
/// exactly.
fn ceei_holds_exactly(inst: &Instance, property: Property) -> CheckReport {
    let report = check(&Ceei::new(), inst, property, &Scenario::Bounded).unwrap();
    assert!(report.verdict.holds, "{:?}", report.verdict);
    assert_exactly_decided(&report);
    report
}

fn assert_exactly_decided(report: &CheckReport) {
    assert!(report.exact, "{:?}", report.verdict);
    assert_eq!(report.verdict.tolerance, None);
    assert!(!report.verdict.within_tolerance);
    assert!(
        !report.verdict.note.contains("tolerance"),
        "{}",
        report.verdict.note
    );
}

// u2 = (3800 + 100√373)/1071 ≈ 5.3514 with all three users: √373 is irrational (373 is
// prime), and its minimal polynomial follows from (1071 x − 3800)² = 100² · 373:
// 1071² x² − 2·1071·3800 x + 3800² − 3 730 000 = 0, divided by 1071:
// 1071 x² − 7600 x + 10000. assert_ceei_user checks that it is CEEI.
//
// Without user 3: x1 = 500/21, x2 = 100/21 with prices p = (11/1500, 19/1500). KKT by hand:
// user 1 spends 500/21 · (4·11 + 19)/1500 = 500/21 · 63/1500 = 1, user 2 spends
// 100/21 · (11 + 16·19)/1500 = 100/21 · 315/1500 = 1 (whole budgets, on their best bundles),
// resource 1 holds 4·500/21 + 100/21 = 100 and resource 2 500/21 + 16·100/21 = 100 (both
// clear, both prices positive): the Eisenberg–Gale optimum. User 2 falls from u2 to 100/21:
// u2 > 100/21 ⇔ 3800 + 100√373 > 5100 ⇔ √373 > 13 ⇔ 373 > 169. PM fails, exactly.
#[test]
fn theorem5_population_monotonicity_fails_exactly() {
    let inst = theorem5();
    assert_ceei_user(&inst, 1, [3800, 100, 373, 1071]);
    let report = check(&Ceei::new(), &inst, Property::Pm, &Scenario::Remove(2)).unwrap();
    assert_exactly_decided(&report);
    let Some(Witness::Pm(w)) = report.witness() else {
        panic!("expected a PM witness: {:?}", report.verdict)
    };
    assert_eq!((w.leaving, w.user), (2, 1));
    assert_eq!(w.after, r("100/21"));
    assert_eq!(
        w.tasks_after,
        vec![Some(r("500/21")), Some(r("100/21")), None]
    );
    let figures = w.exact.as_ref().expect("exact figures");
    let (before, form) = algebraic(figures.one("before").unwrap());
    assert_eq!(before.min_poly(), &Poly::from_i64s(&[10000, -7600, 1071]));
    assert_eq!(form, Some(closed_form(3800, 100, 373, 1071).as_str()));
    // The JSON: the algebraic "before" (decimal and closed form), "after" exact "100/21".
    let json = report.to_json(&inst);
    assert_eq!(json["exact"], true);
    assert_eq!(json["tolerance"], Value::Null);
    let before = &json["witness"]["before"];
    assert_eq!(before["closed_form"], closed_form(3800, 100, 373, 1071));
    assert!(
        before["decimal"].as_str().unwrap().starts_with("5.3513"),
        "{before}"
    );
    assert_eq!(
        before["algebraic"]["polynomial"],
        serde_json::json!(["10000", "-7600", "1071"])
    );
    assert_eq!(json["witness"]["after"], "100/21");
    assert_eq!(json["witness"]["tasks_after"]["1"], "500/21");
    assert_eq!(
        json["tasks"]["2"]["closed_form"],
        closed_form(3800, 100, 373, 1071)
    );
}

// CEEI is envy-free: every user spends the same budget 1, so any other user's bundle costs
// 1 and is no better than the best bundle for 1, its own. One pair by hand: user 1 ⟨4, 1⟩
// given user 2's bundle x2 ⟨1, 16⟩ runs min(x2/4, 16 x2) = x2/4 ≈ 1.34 tasks, below its own
// x1 ≈ 11.28 (x1 = (3125 − 125√373)/63, checked to be CEEI below).
#[test]
fn theorem5_envy_freeness_holds_exactly() {
    let inst = theorem5();
    assert_ceei_user(&inst, 0, [3125, -125, 373, 63]);
    let report = ceei_holds_exactly(&inst, Property::Ef);
    let json = report.to_json(&inst);
    assert_eq!(
        json["tasks"]["1"]["closed_form"],
        closed_form(3125, -125, 373, 63)
    );
}

// The lie the oracle finds: user 2 ⟨1, 16⟩ reports ⟨2, 16⟩. Its true utility of x'2 tasks of
// the report is min(2 x'2 / 1, 16 x'2 / 16) = x'2. On the reported instance
// (⟨4, 1⟩, ⟨2, 16⟩, ⟨16, 1⟩) x'2 = (14100 + 50√20469)/3937, checked to be CEEI there by
// assert_ceei_user. Exactly: x'2 > 5.39 ⇔ 50√20469 > 5.39 · 3937 − 14100 = 7120.43 ⇔
// 20469 > 142.4086² = 20280.2...; and u2 < 5.36 ⇔ 100√373 < 5.36 · 1071 − 3800 = 1940.56 ⇔
// 373 < 19.4056² = 376.57...: the lie gains.
#[test]
fn theorem5_a_profitable_lie_is_decided_exactly() {
    let inst = theorem5();
    let report = check(&Ceei::new(), &inst, Property::Sp, &Scenario::Bounded).unwrap();
    assert_exactly_decided(&report);
    let Some(Witness::Sp(w)) = report.witness() else {
        panic!("expected an SP witness: {:?}", report.verdict)
    };
    assert_eq!(w.user, 1);
    assert_eq!(w.report, vec![r("2"), r("16")]);
    let lied = inst.with_demand(1, w.report.clone()).unwrap();
    assert_ceei_user(&lied, 1, [14100, 50, 20469, 3937]);
    assert_ceei_user(&inst, 1, [3800, 100, 373, 1071]);
    let figures = w.exact.as_ref().expect("exact figures");
    let (after, form) = algebraic(figures.one("after").unwrap());
    assert_eq!(form, Some(closed_form(14100, 50, 20469, 3937).as_str()));
    let (before, _) = algebraic(figures.one("before").unwrap());
    // The bounds derived above, checked on the exact numbers.
    let bound = |s: &str| r(s).to_big();
    assert_eq!(
        after.cmp_rational(&bound("539/100")),
        std::cmp::Ordering::Greater
    );
    assert_eq!(
        before.cmp_rational(&bound("536/100")),
        std::cmp::Ordering::Less
    );
    // Its tasks under the lie are its utility (x'2 above).
    assert_eq!(figures.user("tasks_under_lie", 1), figures.one("after"));
    let json = report.to_json(&inst);
    assert_eq!(
        json["witness"]["after"]["closed_form"],
        closed_form(14100, 50, 20469, 3937)
    );
}

// Two identical users (2 and 4, both ⟨1, 16⟩) have the same budget and demand, hence the same
// CEEI tasks x2 = x4 (utilities are unique at the Eisenberg–Gale optimum, and swapping the
// two users maps it to itself). User 2 given user 4's bundle runs exactly x4 = x2 tasks: the
// envy comparison x2 < x4 is an equality, which must be decided as one (no envy), not as a
// difference within a margin. x2 = (1425 + 25√393)/714, checked to be CEEI.
#[test]
fn identical_users_envy_is_an_exact_equality() {
    let inst = instance(
        &[100, 100],
        vec![
            User::new("1", [4, 1]),
            User::new("2", [1, 16]),
            User::new("3", [16, 1]),
            User::new("4", [1, 16]),
        ],
    );
    assert_ceei_user(&inst, 1, [1425, 25, 393, 714]);
    assert_ceei_user(&inst, 3, [1425, 25, 393, 714]);
    let report = ceei_holds_exactly(&inst, Property::Ef);
    let json = report.to_json(&inst);
    assert_eq!(json["tasks"]["2"], json["tasks"]["4"]);
    assert_eq!(
        json["tasks"]["2"]["closed_form"],
        closed_form(1425, 25, 393, 714)
    );
}

// PO by the characterization for Leontief allocations: every user (none has a cap) must
// demand a saturated resource. At the CEEI both prices are positive and both markets clear
// exactly (assert_ceei_user), so both resources are saturated: Σ_k x_k d_kj = 100 is an
// equality of irrational task counts, decided exactly (an exact sum), not within a margin.
#[test]
fn theorem5_pareto_efficiency_holds_exactly() {
    let inst = theorem5();
    assert_ceei_user(&inst, 2, [-325, 25, 373, 51]);
    let report = ceei_holds_exactly(&inst, Property::Po);
    // The serde form writes the minimal polynomial's coefficients as decimal strings, lowest
    // degree first: 1071 x² − 7600 x + 10000 for user 2 (derived above).
    let json = report.to_json(&inst);
    let coeffs: Vec<BigInt> = json["tasks"]["2"]["algebraic"]["polynomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(coeffs, [10000, -7600, 1071].map(BigInt::from));
}

// A stated limit of the exact form: more than three positive prices. On four resources of 100,
// users a–d each need one resource alone (⟨1,0,0,0⟩, ..., ⟨0,0,0,1⟩) and e needs ⟨1, 2, 3, 4⟩.
// Every price is positive: with p_j = 0 the user needing only j could afford unboundedly many
// tasks and resource j could not clear. The answer is irrational: user j (a–d) buys
// 1/p_j = 100 − j x_e, and e's budget 1 = Σ_j j p_j x_e gives x_e Σ_j j/(100 − j x_e) = 1,
// i.e. P(x) = 3x⁴ − 500x³ + 26250x² − 500000x + 2500000 = 0 (times 40); P(7.6) > 0 >
// P(7.65) holds a root in (7.6, 7.65), where no rational p/q with q | 3 lies (22.8 < 3x <
// 22.95), and by the rational root test that is the only kind P can have. So the verdict
// falls back to the tolerance, and its note says why.
#[test]
fn a_refused_exact_form_falls_back_to_the_tolerance_and_says_why() {
    let p = |x: &str| {
        let x = r(x).to_big();
        let (x2, x3) = (&x * &x, &x * &x * &x);
        q(3) * &x3 * &x - q(500) * x3 + q(26250) * x2 - q(500000) * x + q(2500000)
    };
    assert!(p("7.6").is_positive() && p("7.65").is_negative());
    let inst = instance(
        &[100, 100, 100, 100],
        vec![
            User::new("a", [1, 0, 0, 0]),
            User::new("b", [0, 1, 0, 0]),
            User::new("c", [0, 0, 1, 0]),
            User::new("d", [0, 0, 0, 1]),
            User::new("e", [1, 2, 3, 4]),
        ],
    );
    let report = check(&Ceei::new(), &inst, Property::Ef, &Scenario::Bounded).unwrap();
    assert!(!report.exact);
    assert!(report.verdict.tolerance.is_some());
    assert_eq!(report.exact_tasks, None);
    assert!(
        report
            .verdict
            .note
            .contains("no exact form: the equilibrium has 4 positive prices"),
        "{}",
        report.verdict.note
    );
    // The computed answer is within its tolerance of the root: x_e is near 7.64.
    assert!(report.allocation.tasks[4] > r("7.6") && report.allocation.tasks[4] < r("7.65"));
}
