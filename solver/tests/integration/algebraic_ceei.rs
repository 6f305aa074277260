//! Exact CEEI for two resources (`leontief_solver::ceei::algebraic`): the Theorem 5
//! equilibrium, the clearing polynomial, the exact KKT check, and instances of 60 and 100
//! users answered exactly, each checked by an independent evaluation in rationals.

use std::cmp::Ordering;

use leontief_solver::algebraic::{Limits, Poly, RealAlgebraic};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::algebraic::{elem, lim, p, q, sqrt_field, ten_to_minus};

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
