//! Utilitarian welfare and the price of fairness: hand-derived optima, the capped
//! envy-freeness disjunction, bad inputs, published bounds reproduced exactly on their
//! extremal Leontief families, and random instances against the bounds and a float LP.

use good_lp::{variable, Expression, ProblemVariables, Solution, SolverModel};
use leontief_solver::ceei::Ceei;
use leontief_solver::properties::allocation::{envy_freeness, sharing_incentive};
use leontief_solver::welfare::{
    best_fair_welfare, utilitarian_optimum, welfare, welfare_ratio, Utility, MAX_CAPPED_USERS,
};
use leontief_solver::{Allocation, Drf, Instance, Mechanism, Rational, SolverError, User};
use proptest::prelude::*;

use crate::common::paper;

fn q(s: &str) -> Rational {
    s.parse().unwrap()
}

/// `best_fair_welfare / welfare(allocation)`: the welfare the allocation gives up against the
/// best SI and EF allocation (Bei, Li and Luo's fair-ratio on one instance).
fn fair_welfare_ratio(
    instance: &Instance,
    allocation: &Allocation,
    utility: Utility,
) -> Result<Rational, SolverError> {
    let w = welfare(instance, allocation, utility)?;
    Ok(best_fair_welfare(instance, utility)?.value / w)
}

#[test]
fn drf_paper_example_both_utilities() {
    // Tasks: max x_A + x_B s.t. x_A + 3x_B ≤ 9, 4x_A + x_B ≤ 18. The vertices (9/2, 0) and
    // (0, 3) give 9/2 and 3; the crossing x_B = 18/11, x_A = 45/11 gives 63/11, the optimum,
    // priced by p = (3/11, 2/11) (p_1 + 4p_2 = 1, 3p_1 + p_2 = 1; 27/11 + 36/11 = 63/11).
    let inst = paper();
    let opt = utilitarian_optimum(&inst, Utility::Tasks).unwrap();
    assert_eq!(opt.value, q("63/11"));
    assert_eq!(opt.allocation.tasks, vec![q("45/11"), q("18/11")]);
    assert_eq!(opt.certificate.resource_prices, vec![q("3/11"), q("2/11")]);
    assert_eq!(opt.certificate.cap_prices, vec![q("0"), q("0")]);
    // Dominant shares: μ_A = 4/18 = 2/9, μ_B = 3/9 = 1/3. At (9/2, 0): 1; at (0, 3): 1; at
    // (45/11, 18/11): 10/11 + 6/11 = 16/11, the optimum. Prices: p_1 + 4p_2 = 2/9,
    // 3p_1 + p_2 = 1/3 give p = (10/99, 1/33); 90/99 + 18/33 = 16/11.
    let opt = utilitarian_optimum(&inst, Utility::DominantShare).unwrap();
    assert_eq!(opt.value, q("16/11"));
    assert_eq!(opt.certificate.resource_prices, vec![q("10/99"), q("1/33")]);
    // DRF: A 3 tasks, B 2 — welfare 5 in tasks, 3·2/9 + 2·1/3 = 4/3 in dominant shares.
    let drf = Drf::extended().allocate(&inst).unwrap();
    assert_eq!(welfare(&inst, &drf, Utility::Tasks).unwrap(), q("5"));
    assert_eq!(
        welfare(&inst, &drf, Utility::DominantShare).unwrap(),
        q("4/3")
    );
    assert_eq!(
        welfare_ratio(&inst, &drf, Utility::Tasks).unwrap(),
        q("63/55")
    );
    assert_eq!(
        welfare_ratio(&inst, &drf, Utility::DominantShare).unwrap(),
        q("12/11")
    );
    // SI asks x_A ≥ 9/4 and x_B ≥ 3/2, EF x_A ≥ x_B/4 and x_B ≥ x_A/3; the optimum
    // (45/11, 18/11) meets all four, so the best fair welfare is the optimum.
    let fair = best_fair_welfare(&inst, Utility::Tasks).unwrap();
    assert_eq!(fair.value, q("63/11"));
    assert_eq!((fair.programs, fair.at_cap.len()), (1, 0));
    assert_eq!(
        fair_welfare_ratio(&inst, &drf, Utility::Tasks).unwrap(),
        q("63/55")
    );
}

#[test]
fn capped_envy_is_a_disjunction() {
    // One resource of 1 unit; A needs 1 per task with cap 1/4, B needs 1 per task. EF for A
    // is x_A ≥ min(1/4, x_B). Read linearly (x_A ≥ x_B) it would cap the welfare at 1/2;
    // with A at its cap it holds for any x_B, and SI (x_B ≥ 1/2) and EF for B (x_B ≥ x_A)
    // allow B the remaining 3/4: the best fair welfare is 1, in the case "A at its cap".
    let inst = Instance::new(
        vec![1.into()],
        vec![User::new("A", [1]).cap(q("1/4")), User::new("B", [1])],
    )
    .unwrap();
    let fair = best_fair_welfare(&inst, Utility::Tasks).unwrap();
    assert_eq!(fair.value, q("1"));
    assert_eq!(fair.allocation.tasks, vec![q("1/4"), q("3/4")]);
    assert_eq!(fair.at_cap, vec![0]);
    assert_eq!(fair.programs, 2);
    // The cap's price in the utilitarian dual: any split of the unit is optimal; p = 1
    // prices it (cover 1 ≥ 1 for both users) and the cap needs no price.
    let opt = utilitarian_optimum(&inst, Utility::Tasks).unwrap();
    assert_eq!(opt.value, q("1"));
    assert_eq!(opt.certificate.value(&inst), q("1"));
}

#[test]
fn bad_allocations_and_too_many_caps_are_errors() {
    let inst = paper();
    let zero = Allocation::new(vec![0.into(), 0.into()]);
    let err = welfare_ratio(&inst, &zero, Utility::Tasks).unwrap_err();
    assert!(
        matches!(&err, SolverError::Invalid { field, .. } if field == "allocation.tasks"),
        "{err}"
    );
    let short = Allocation::new(vec![1.into()]);
    assert_eq!(
        welfare(&inst, &short, Utility::Tasks)
            .unwrap_err()
            .to_string(),
        "allocation.tasks: expected 2 entries, one per user, found 1"
    );
    let rough = Allocation::approximate(vec![3.into(), 2.into()], q("1/1000"));
    let err = fair_welfare_ratio(&inst, &rough, Utility::Tasks).unwrap_err();
    assert!(
        err.to_string().starts_with("allocation.tolerance:"),
        "{err}"
    );
    let users = (0..=MAX_CAPPED_USERS)
        .map(|i| User::new(format!("u{i}"), [1]).cap(1))
        .collect();
    let many = Instance::new(vec![100.into()], users).unwrap();
    let err = best_fair_welfare(&many, Utility::Tasks).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("users: 11 users have task caps"),
        "{err}"
    );
    assert!(err.to_string().contains("at most 10"), "{err}");
}

/// The family `F(k, m)`: capacities 1 on `m` resources, `k` "hogs" demanding `⟨1, …, 1⟩`
/// and `m` specialists, specialist `j` demanding only resource `j`. Every task's dominant
/// share is 1, so tasks and dominant shares coincide.
fn hogs_and_specialists(k: usize, m: usize) -> Instance {
    let mut users: Vec<User> = (0..k)
        .map(|h| User::new(format!("h{h}"), vec![1; m]))
        .collect();
    for j in 0..m {
        let mut d = vec![0; m];
        d[j] = 1;
        users.push(User::new(format!("s{j}"), d));
    }
    Instance::new(vec![Rational::ONE; m], users).unwrap()
}

fn ratio(a: usize, b: usize) -> Rational {
    Rational::new(a as i128, b as i128).unwrap()
}

#[test]
fn drf_reaches_the_parkes_procaccia_shah_bound_m_in_the_limit() {
    // Parkes, Procaccia and Shah (EC 2012): no mechanism with SI (or EF, or SP) guarantees
    // more than 1/m of the optimal utilitarian welfare in dominant shares, and DRF
    // guarantees 1/m. On F(k, m): DRF raises all k + m users to the same share t; each
    // resource carries the k hogs and one specialist, k t + t = 1, t = 1/(k + 1), welfare
    // (k + m)/(k + 1). The optimum gives each specialist its whole resource: m (certified by
    // p_j = 1: a hog's cover is m ≥ 1, a specialist's 1 ≥ 1, value m). Ratio
    // m (k + 1)/(k + m) = m − m(m − 1)/(k + m): below m, tending to m as k grows.
    for m in 1..=4 {
        for k in [1, 2, 3, 10, 50] {
            let inst = hogs_and_specialists(k, m);
            let drf = Drf::extended().allocate(&inst).unwrap();
            let want = ratio(m * (k + 1), k + m);
            for utility in [Utility::DominantShare, Utility::Tasks] {
                assert_eq!(
                    welfare_ratio(&inst, &drf, utility).unwrap(),
                    want,
                    "k={k} m={m}"
                );
            }
            let opt = utilitarian_optimum(&inst, Utility::DominantShare).unwrap();
            assert_eq!(opt.value, Rational::from(m as i64));
            assert_eq!(&Rational::from(m as i64) - &want, ratio(m * (m - 1), k + m));
        }
    }
    // k = 50, m = 4: 4·51/54 = 34/9.
    let inst = hogs_and_specialists(50, 4);
    let drf = Drf::extended().allocate(&inst).unwrap();
    assert_eq!(
        welfare_ratio(&inst, &drf, Utility::DominantShare).unwrap(),
        q("34/9")
    );
}

#[test]
fn drf_attains_the_bertsimas_farias_trichakis_max_min_bound_for_odd_n() {
    // Bertsimas, Farias and Trichakis (Oper. Res. 2011): with n players whose largest
    // achievable utilities are equal, the max-min fair allocation keeps at least
    // 4n/(n + 1)² of the utilitarian optimum, and this is tight. DRF is max-min fair in
    // dominant shares, and alone every user reaches share 1. On F(k, m) with n = k + m the
    // ratio m (k + 1)/(k + m) = m (n − m + 1)/n is largest at m = (n + 1)/2, where it equals
    // ((n + 1)/2)²/n = (n + 1)²/(4n): for odd n the Leontief family attains the bound.
    // n = 3: 16/12 = 4/3; n = 5: 36/20 = 9/5; n = 7: 64/28 = 16/7; n = 9: 100/36 = 25/9.
    for (n, want) in [(3usize, "4/3"), (5, "9/5"), (7, "16/7"), (9, "25/9")] {
        let m = n.div_ceil(2); // (n + 1)/2 for odd n
        let inst = hogs_and_specialists(n - m, m);
        let drf = Drf::extended().allocate(&inst).unwrap();
        let got = welfare_ratio(&inst, &drf, Utility::DominantShare).unwrap();
        assert_eq!(got, q(want), "n={n}");
        assert_eq!(got, ratio((n + 1) * (n + 1), 4 * n));
        // No other split of n users into hogs and specialists does better.
        for m2 in 1..n {
            let other = hogs_and_specialists(n - m2, m2);
            let x = Drf::extended().allocate(&other).unwrap();
            assert!(welfare_ratio(&other, &x, Utility::DominantShare).unwrap() <= got);
        }
    }
}

#[test]
fn ceei_attains_the_bertsimas_farias_trichakis_proportional_bound_for_square_n() {
    // Bertsimas, Farias and Trichakis (Oper. Res. 2011): the proportionally fair allocation
    // keeps at least (2√n − 1)/n of the optimum (equal largest utilities), tight when √n is
    // an integer. CEEI with equal incomes on Leontief users is the proportionally fair
    // (Eisenberg–Gale) allocation. On F(k, m): by symmetry every hog gets t and every
    // specialist 1 − k t; maximising k log t + m log(1 − k t) gives k/t = m k/(1 − k t),
    // t = 1/(k + m), specialists m/(k + m), welfare (k + m²)/(k + m), ratio
    // m (k + m)/(k + m²) = m n/(n − m + m²), largest at m = √n: n/(2√n − 1).
    // n = 4 (k = 2, m = 2): 8/6 = 4/3; n = 9 (k = 6, m = 3): 27/15 = 9/5.
    for (k, m, want) in [(2, 2, "4/3"), (6, 3, "9/5")] {
        let inst = hogs_and_specialists(k, m);
        let x = Ceei::new().allocate(&inst).unwrap();
        assert_eq!(x.tolerance, None, "CEEI is rational here and certified");
        assert_eq!(x.tasks[0], ratio(1, k + m));
        assert_eq!(x.tasks[k], ratio(m, k + m));
        assert_eq!(
            welfare_ratio(&inst, &x, Utility::DominantShare).unwrap(),
            q(want)
        );
    }
}

#[test]
fn fair_ratio_of_drf_on_the_family() {
    // Against the best SI and EF allocation (Bei, Li and Luo's benchmark) the family costs
    // DRF much less. SI: every user ≥ 1/n of its resources, x ≥ 1/(k + m). EF: a specialist
    // envies a hog's bundle scaled to its own demand, x_s ≥ x_h; a hog never envies a
    // specialist (who lacks the other resources). Best: hogs at 1/(k + m), specialists
    // 1 − k/(k + m) = m/(k + m): welfare (k + m²)/(k + m) — the proportionally fair point.
    // DRF's welfare is (k + m)/(k + 1), so the fair ratio is (k + m²)(k + 1)/(k + m)², largest
    // over k at k = m: (m + 1)²/(4m). m = 3: k = 1: 20/16 = 5/4; k = 3: 48/36 = 4/3;
    // k = 4: 65/49.
    for (k, m, want) in [(1, 3, "5/4"), (3, 3, "4/3"), (4, 3, "65/49"), (2, 2, "9/8")] {
        let inst = hogs_and_specialists(k, m);
        let drf = Drf::extended().allocate(&inst).unwrap();
        let fair = best_fair_welfare(&inst, Utility::DominantShare).unwrap();
        assert_eq!(fair.value, ratio(k + m * m, k + m));
        assert_eq!(
            fair_welfare_ratio(&inst, &drf, Utility::DominantShare).unwrap(),
            q(want)
        );
    }
}

/// The float optimum of the welfare LP by microlp, for comparison.
fn float_optimum(inst: &Instance, utility: Utility) -> f64 {
    let mut vars = ProblemVariables::new();
    let x: Vec<_> = inst
        .users()
        .iter()
        .map(|u| match &u.cap {
            Some(t) => vars.add(variable().min(0.0).max(t.to_f64_lossy())),
            None => vars.add(variable().min(0.0)),
        })
        .collect();
    let mut obj = Expression::with_capacity(x.len());
    for (i, xi) in x.iter().enumerate() {
        obj.add_mul(utility.per_task(inst, i).to_f64_lossy(), *xi);
    }
    let mut model = vars.maximise(obj.clone()).using(good_lp::microlp);
    for (j, r) in inst.capacity().iter().enumerate() {
        let mut e = Expression::with_capacity(x.len());
        for (u, xi) in inst.users().iter().zip(&x) {
            e.add_mul(u.demand[j].to_f64_lossy(), *xi);
        }
        model.add_constraint(e.leq(r.to_f64_lossy()));
    }
    model.solve().unwrap().eval(&obj)
}

fn random_instance(caps: bool) -> impl Strategy<Value = Instance> {
    (1usize..=5, 1usize..=3).prop_flat_map(move |(n, m)| {
        (
            prop::collection::vec(1i64..=12, m),
            prop::collection::vec(
                (
                    prop::collection::vec(0i64..=5, m),
                    0usize..m,
                    prop::option::of(1i64..=6),
                    1i64..=3,
                ),
                n,
            ),
        )
            .prop_map(move |(capacity, users)| {
                let users = users
                    .into_iter()
                    .enumerate()
                    .map(|(i, (mut d, nz, cap, w))| {
                        d[nz] = d[nz].max(1);
                        // Weights and caps only in the capped family (`caps`); the
                        // bounds of the other test are for unit weights.
                        let u = User::new(format!("u{i}"), d).weight(if caps { w } else { 1 });
                        match cap {
                            Some(t) if caps => u.cap(Rational::new(t.into(), 2).unwrap()),
                            _ => u,
                        }
                    })
                    .collect();
                Instance::new(capacity.into_iter().map(Rational::from).collect(), users).unwrap()
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn optimum_is_certified_and_bounds_every_fair_allocation(inst in random_instance(true)) {
        let drf = Drf::extended().allocate(&inst).unwrap();
        for utility in [Utility::Tasks, Utility::DominantShare] {
            let opt = utilitarian_optimum(&inst, utility).unwrap();
            opt.certificate.check(&inst, utility, &opt.allocation).unwrap();
            let f = float_optimum(&inst, utility);
            let exact = opt.value.to_f64_lossy();
            prop_assert!((exact - f).abs() <= 1e-9 * exact.abs().max(1.0), "exact {} float {}", exact, f);
            // DRF is SI and EF, so its welfare ≤ best fair ≤ optimum.
            let fair = best_fair_welfare(&inst, utility).unwrap();
            let w = welfare(&inst, &drf, utility).unwrap();
            prop_assert!(w <= fair.value && fair.value <= opt.value);
            prop_assert!(fair.allocation.is_feasible(&inst));
            // The project's own SI and EF oracles agree that the best fair allocation is fair.
            prop_assert!(sharing_incentive(&inst, &fair.allocation).unwrap().holds);
            prop_assert!(envy_freeness(&inst, &fair.allocation).unwrap().holds);
        }
    }

    #[test]
    fn drf_stays_within_m_and_the_max_min_bound(inst in random_instance(false)) {
        // Uncapped, unit weights: DRF's ratio in dominant shares is at most m (SI: every
        // share ≥ 1/n, welfare ≥ 1; the optimum is at most Σ_j Σ_i x_i d_ij / R_j ≤ m) and at
        // most (n + 1)²/(4n) (Bertsimas, Farias and Trichakis, max-min fairness).
        let (n, m) = (inst.num_users(), inst.num_resources());
        let drf = Drf::extended().allocate(&inst).unwrap();
        let got = welfare_ratio(&inst, &drf, Utility::DominantShare).unwrap();
        prop_assert!(got >= Rational::ONE);
        prop_assert!(got <= Rational::from(m as i64), "{} > m = {}", got, m);
        prop_assert!(got <= ratio((n + 1) * (n + 1), 4 * n), "{} above the max-min bound", got);
    }
}
