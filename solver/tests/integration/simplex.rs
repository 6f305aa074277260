//! The exact simplex kernel: textbook programs with hand-derived optima, cycling-prone
//! degenerate programs, infeasible and unbounded ones, and random programs whose exact
//! optimum is certified by strong duality and agrees with microlp's float optimum.

use good_lp::{variable, Expression, ProblemVariables, ResolutionError, Solution, SolverModel};
use leontief_solver::simplex::{LinearProgram, Relation, SimplexStatus};
use leontief_solver::{Rational, SolverError};
use proptest::prelude::*;

/// One row: coefficients, relation, right-hand side.
type Row = (Vec<Rational>, Relation, Rational);

fn q(s: &str) -> Rational {
    s.parse().unwrap()
}

fn qs(v: &[&str]) -> Vec<Rational> {
    v.iter().map(|s| q(s)).collect()
}

/// Strong-duality certificate, checked here independently of the kernel: `x ≥ 0` satisfies
/// every row, `y` has the sign its row's relation asks for (`≥ 0` on `≤`, `≤ 0` on `≥`, free
/// on `=`), `Aᵀy ≥ c` column by column, and `c·x = b·y`.
fn certified(c: &[Rational], rows: &[Row], x: &[Rational], y: &[Rational]) -> bool {
    let dot =
        |a: &[Rational], b: &[Rational]| -> Rational { a.iter().zip(b).map(|(a, b)| a * b).sum() };
    if x.len() != c.len() || y.len() != rows.len() || x.iter().any(|v| v.is_negative()) {
        return false;
    }
    for ((a, rel, b), yr) in rows.iter().zip(y) {
        let lhs = dot(a, x);
        let ok = match rel {
            Relation::Le => lhs <= *b && !yr.is_negative(),
            Relation::Ge => lhs >= *b && !yr.is_positive(),
            Relation::Eq => lhs == *b,
        };
        if !ok {
            return false;
        }
    }
    for (k, ck) in c.iter().enumerate() {
        let col: Rational = rows.iter().zip(y).map(|((a, _, _), yr)| &a[k] * yr).sum();
        if col < *ck {
            return false;
        }
    }
    let b: Vec<Rational> = rows.iter().map(|(_, _, b)| b.clone()).collect();
    dot(c, x) == dot(&b, y)
}

fn program(c: &[Rational], rows: &[Row]) -> LinearProgram {
    let mut lp = LinearProgram::maximize(c.to_vec());
    for (a, rel, b) in rows {
        lp = lp.constraint(a.clone(), *rel, b.clone());
    }
    lp
}

/// Solves, asserts optimality, the expected optimum and the independent certificate.
fn assert_optimum(c: &[Rational], rows: &[Row], x: &[Rational], value: &str) -> Vec<Rational> {
    let lp = program(c, rows);
    let sol = lp.solve().unwrap();
    assert_eq!(sol.status, SimplexStatus::Optimal);
    assert_eq!(sol.x, x);
    assert_eq!(sol.objective, Some(q(value)));
    assert!(certified(c, rows, &sol.x, &sol.duals), "{sol:?}");
    assert!(lp.certify(&sol.x, &sol.duals).is_ok());
    sol.duals
}

#[test]
fn chvatal_first_example() {
    // Chvátal, Linear Programming (1983), ch. 2: max 5x1 + 4x2 + 3x3 s.t.
    // 2x1 + 3x2 + x3 ≤ 5, 4x1 + x2 + 2x3 ≤ 11, 3x1 + 4x2 + 2x3 ≤ 8. Optimum x = (2, 0, 1),
    // z = 13: row 2 is slack (10 < 11) so y2 = 0; x1, x3 > 0 make their dual rows tight:
    // 2y1 + 3y3 = 5 and y1 + 2y3 = 3, so y = (1, 0, 1) and b·y = 5 + 8 = 13.
    let c = qs(&["5", "4", "3"]);
    let rows = vec![
        (qs(&["2", "3", "1"]), Relation::Le, q("5")),
        (qs(&["4", "1", "2"]), Relation::Le, q("11")),
        (qs(&["3", "4", "2"]), Relation::Le, q("8")),
    ];
    let y = assert_optimum(&c, &rows, &qs(&["2", "0", "1"]), "13");
    assert_eq!(y, qs(&["1", "0", "1"]));
}

#[test]
fn covering_rows_and_negative_duals() {
    // min 2x + 3y s.t. x + y ≥ 4, x + 3y ≥ 6, as max −2x − 3y. Vertices (0, 4): 12,
    // (3, 1): 9, (6, 0): 12, so the optimum is (3, 1) with value −9. Both rows tight:
    // y1 + y2 = −2, y1 + 3y2 = −3 give y = (−3/2, −1/2) (≤ 0 on ≥ rows), b·y = −6 − 3 = −9.
    let c = qs(&["-2", "-3"]);
    let rows = vec![
        (qs(&["1", "1"]), Relation::Ge, q("4")),
        (qs(&["1", "3"]), Relation::Ge, q("6")),
    ];
    let y = assert_optimum(&c, &rows, &qs(&["3", "1"]), "-9");
    assert_eq!(y, qs(&["-3/2", "-1/2"]));
}

#[test]
fn equality_rows() {
    // max x + y s.t. x + 2y = 4, x ≤ 2: y = (4 − x)/2 so x + y = 2 + x/2, largest at x = 2,
    // y = 1, value 3. Duals: column y tight, 2 y1 = 1; column x, y1 + y2 = 1: y = (1/2, 1/2).
    let c = qs(&["1", "1"]);
    let rows = vec![
        (qs(&["1", "2"]), Relation::Eq, q("4")),
        (qs(&["1", "0"]), Relation::Le, q("2")),
    ];
    let y = assert_optimum(&c, &rows, &qs(&["2", "1"]), "3");
    assert_eq!(y, qs(&["1/2", "1/2"]));
}

#[test]
fn negative_right_hand_sides() {
    // max x s.t. −x ≤ −1 (x ≥ 1), x ≤ 3: x = 3. Dual: min −y1 + 3y2 s.t. −y1 + y2 ≥ 1,
    // y ≥ 0, so y2 = 1 + y1 and the value 3 + 2 y1 is least at y = (0, 1).
    let c = qs(&["1"]);
    let rows = vec![
        (qs(&["-1"]), Relation::Le, q("-1")),
        (qs(&["1"]), Relation::Le, q("3")),
    ];
    let y = assert_optimum(&c, &rows, &qs(&["3"]), "3");
    assert_eq!(y, qs(&["0", "1"]));
}

#[test]
fn redundant_equalities_keep_an_artificial_at_zero() {
    // x + y = 2 and 2x + 2y = 4 are the same line; max x is 2 at (2, 0). The second row's
    // artificial cannot leave the basis; it stays at 0 and the answer is unaffected.
    let c = qs(&["1", "0"]);
    let rows = vec![
        (qs(&["1", "1"]), Relation::Eq, q("2")),
        (qs(&["2", "2"]), Relation::Eq, q("4")),
    ];
    assert_optimum(&c, &rows, &qs(&["2", "0"]), "2");
}

#[test]
fn beale_cycling_example() {
    // Beale (1955): max 3/4 x4 − 20 x5 + 1/2 x6 − 6 x7 s.t.
    // 1/4 x4 − 8 x5 − x6 + 9 x7 ≤ 0, 1/2 x4 − 12 x5 − 1/2 x6 + 3 x7 ≤ 0, x6 ≤ 1.
    // Dantzig's largest-coefficient rule cycles here from the slack basis; Bland's rule
    // does not. Optimum: x4 = x6 = 1, value 3/4 + 1/2 = 5/4, certified by y = (0, 3/2, 5/4):
    // column x4: 3/4 ≥ 3/4, x5: −18 ≥ −20, x6: −3/4 + 5/4 = 1/2 ≥ 1/2, x7: 9/2 ≥ −6, and
    // b·y = 5/4.
    let c = qs(&["3/4", "-20", "1/2", "-6"]);
    let rows = vec![
        (qs(&["1/4", "-8", "-1", "9"]), Relation::Le, q("0")),
        (qs(&["1/2", "-12", "-1/2", "3"]), Relation::Le, q("0")),
        (qs(&["0", "0", "1", "0"]), Relation::Le, q("1")),
    ];
    let y = assert_optimum(&c, &rows, &qs(&["1", "0", "1", "0"]), "5/4");
    assert_eq!(y, qs(&["0", "3/2", "5/4"]));
    let sol = program(&c, &rows).solve().unwrap();
    assert!(sol.pivots <= 20, "{} pivots", sol.pivots);
}

#[test]
fn chvatal_cycling_example() {
    // Chvátal (1983), ch. 3, the cycling example: max 10x1 − 57x2 − 9x3 − 24x4 s.t.
    // 1/2 x1 − 11/2 x2 − 5/2 x3 + 9x4 ≤ 0, 1/2 x1 − 3/2 x2 − 1/2 x3 + x4 ≤ 0, x1 ≤ 1.
    // Optimum x = (1, 0, 1, 0), value 10 − 9 = 1, certified by y = (0, 18, 1): column x1:
    // 9 + 1 = 10, x2: −27 ≥ −57, x3: −9 ≥ −9, x4: 18 ≥ −24, b·y = 1.
    let c = qs(&["10", "-57", "-9", "-24"]);
    let rows = vec![
        (qs(&["1/2", "-11/2", "-5/2", "9"]), Relation::Le, q("0")),
        (qs(&["1/2", "-3/2", "-1/2", "1"]), Relation::Le, q("0")),
        (qs(&["1", "0", "0", "0"]), Relation::Le, q("1")),
    ];
    let y = assert_optimum(&c, &rows, &qs(&["1", "0", "1", "0"]), "1");
    assert_eq!(y, qs(&["0", "18", "1"]));
}

#[test]
fn infeasible_programs() {
    // x + y ≤ 1 and x + y ≥ 2 cannot both hold.
    let lp = LinearProgram::maximize(qs(&["1", "1"]))
        .constraint(qs(&["1", "1"]), Relation::Le, q("1"))
        .constraint(qs(&["1", "1"]), Relation::Ge, q("2"));
    let sol = lp.solve().unwrap();
    assert_eq!(sol.status, SimplexStatus::Infeasible);
    assert!(sol.x.is_empty() && sol.duals.is_empty() && sol.objective.is_none());
    // x = −1 has no solution with x ≥ 0.
    let lp = LinearProgram::maximize(qs(&["1"])).constraint(qs(&["1"]), Relation::Eq, q("-1"));
    assert_eq!(lp.solve().unwrap().status, SimplexStatus::Infeasible);
}

#[test]
fn unbounded_programs() {
    // max x s.t. x − y ≤ 1: (1 + t, t) is feasible for every t ≥ 0.
    let lp =
        LinearProgram::maximize(qs(&["1", "0"])).constraint(qs(&["1", "-1"]), Relation::Le, q("1"));
    assert_eq!(lp.solve().unwrap().status, SimplexStatus::Unbounded);
    // No rows at all: max x is unbounded, max −x is 0 at x = 0.
    assert_eq!(
        LinearProgram::maximize(qs(&["1"])).solve().unwrap().status,
        SimplexStatus::Unbounded
    );
    let sol = LinearProgram::maximize(qs(&["-1"])).solve().unwrap();
    assert_eq!((sol.x, sol.objective), (qs(&["0"]), Some(q("0"))));
}

#[test]
fn bad_rows_and_the_pivot_limit_are_errors() {
    let lp = LinearProgram::maximize(qs(&["1", "1"])).constraint(qs(&["1"]), Relation::Le, q("1"));
    let err = lp.solve().unwrap_err();
    assert_eq!(
        err,
        SolverError::invalid(
            "rows[0]",
            "expected 2 coefficients, one per variable, found 1"
        )
    );
    // Chvátal's first example needs pivots; a limit of 0 stops it with an error.
    let lp = LinearProgram::maximize(qs(&["5", "4", "3"]))
        .constraint(qs(&["2", "3", "1"]), Relation::Le, q("5"))
        .constraint(qs(&["4", "1", "2"]), Relation::Le, q("11"));
    let err = lp.solve_with_limit(0).unwrap_err();
    assert!(err.to_string().contains("pivot limit of 0"), "{err}");
}

/// microlp's answer: `Some(value)` when optimal, `None` when infeasible or unbounded.
fn float_optimum(c: &[Rational], rows: &[Row]) -> Result<f64, ResolutionError> {
    let mut vars = ProblemVariables::new();
    let x: Vec<_> = c.iter().map(|_| vars.add(variable().min(0.0))).collect();
    let mut obj = Expression::with_capacity(c.len());
    for (ck, xk) in c.iter().zip(&x) {
        obj.add_mul(ck.to_f64_lossy(), *xk);
    }
    let mut model = vars.maximise(obj.clone()).using(good_lp::microlp);
    for (a, rel, b) in rows {
        let mut e = Expression::with_capacity(a.len());
        for (ak, xk) in a.iter().zip(&x) {
            e.add_mul(ak.to_f64_lossy(), *xk);
        }
        let b = b.to_f64_lossy();
        model.add_constraint(match rel {
            Relation::Le => e.leq(b),
            Relation::Ge => e.geq(b),
            Relation::Eq => e.eq(b),
        });
    }
    model.solve().map(|s| s.eval(&obj))
}

fn small() -> impl Strategy<Value = Rational> {
    (-4i64..=6, 1i64..=3).prop_map(|(p, d)| Rational::new(p.into(), d.into()).unwrap())
}

fn relation() -> impl Strategy<Value = Relation> {
    prop_oneof![6 => Just(Relation::Le), 2 => Just(Relation::Ge), 1 => Just(Relation::Eq)]
}

fn random_program() -> impl Strategy<Value = (Vec<Rational>, Vec<Row>)> {
    (1usize..=4, 1usize..=4).prop_flat_map(|(n, m)| {
        (
            prop::collection::vec(small(), n),
            prop::collection::vec(
                (
                    prop::collection::vec(small(), n),
                    relation(),
                    (-2i64..=10).prop_map(Rational::from),
                ),
                m,
            ),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_programs_are_certified_and_match_microlp((c, rows) in random_program()) {
        let sol = program(&c, &rows).solve().unwrap();
        let float = float_optimum(&c, &rows);
        match sol.status {
            SimplexStatus::Optimal => {
                prop_assert!(certified(&c, &rows, &sol.x, &sol.duals), "{:?}", sol);
                let exact = sol.objective.clone().unwrap().to_f64_lossy();
                let f = float.map_err(|e| TestCaseError::fail(format!("microlp: {e} but exact {exact}")))?;
                prop_assert!((exact - f).abs() <= 1e-9 * exact.abs().max(1.0), "exact {} float {}", exact, f);
            }
            SimplexStatus::Infeasible => {
                prop_assert!(matches!(float, Err(ResolutionError::Infeasible)), "microlp: {:?}", float);
            }
            SimplexStatus::Unbounded => {
                prop_assert!(matches!(float, Err(ResolutionError::Unbounded)), "microlp: {:?}", float);
            }
            other => prop_assert!(false, "unexpected status {:?}", other),
        }
    }

    #[test]
    fn boxed_programs_are_optimal_and_certified((c, mut rows) in random_program()) {
        // Σ x ≤ 10 bounds every objective; only ≤ rows with b ≥ 0 keep x = 0 feasible.
        for row in rows.iter_mut() {
            row.1 = Relation::Le;
            row.2 = row.2.abs();
        }
        rows.push((vec![Rational::ONE; c.len()], Relation::Le, Rational::from(10)));
        let sol = program(&c, &rows).solve().unwrap();
        prop_assert_eq!(sol.status, SimplexStatus::Optimal);
        prop_assert!(certified(&c, &rows, &sol.x, &sol.duals), "{:?}", sol);
        let exact = sol.objective.clone().unwrap().to_f64_lossy();
        let f = float_optimum(&c, &rows).map_err(|e| TestCaseError::fail(format!("microlp: {e}")))?;
        prop_assert!((exact - f).abs() <= 1e-9 * exact.abs().max(1.0), "exact {} float {}", exact, f);
    }
}
