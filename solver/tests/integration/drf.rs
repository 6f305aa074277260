//! Extended and common-level DRF: the sources' numbers, hand-derived cases, invariances and a
//! cross-check against an independent naive progressive filling in `BigRational`.

use leontief_solver::drf::{progressive_filling, FrozenBy};
use leontief_solver::{Allocation, Drf, FreezeRule, Instance, Mechanism, Rational, User};
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

use crate::common;
use common::{paper_weighting_memory, r, reference_case};

/// Runs extended DRF on a reference case and compares with the source's tasks.
fn assert_reference(id: &str) {
    let case = reference_case(id);
    let inst = Instance::from_json(&case["instance"]).unwrap();
    let x = Drf::extended().allocate(&inst).unwrap();
    for (name, want) in case["tasks"].as_object().unwrap() {
        let i = inst.user_index(name).unwrap();
        assert_eq!(x.tasks[i], r(want.as_str().unwrap()), "{id}: user {name}");
    }
}

#[test]
fn drf_paper_running_example() {
    // Ghodsi et al. §4.1: A gets 3 tasks <3 CPU, 12 GB>, B gets 2 <6 CPU, 2 GB>; both 2/3.
    assert_reference("drf-paper-running");
    let inst = common::paper();
    let fill = progressive_filling(&inst, FreezeRule::DemandersOnly);
    assert_eq!(fill.levels, vec![r("2/3"), r("2/3")]);
    assert_eq!(fill.consumption, vec![r("9"), r("14")]);
    assert_eq!(fill.saturated, vec![0]);
}

#[test]
fn weighted_cap_zero_reference() {
    // Hand-derived in reference/flat.json: b's cap binds at level 1/5, resource 3 at 9/14.
    assert_reference("weighted-cap-zero");
    let inst = Instance::from_json(&reference_case("weighted-cap-zero")["instance"]).unwrap();
    let fill = progressive_filling(&inst, FreezeRule::DemandersOnly);
    assert_eq!(
        fill.frozen_by,
        vec![FrozenBy::Resource(2), FrozenBy::Cap, FrozenBy::Resource(2)]
    );
    assert_eq!(fill.events[0].level, r("1/5"));
    assert_eq!(fill.events[1].level, r("9/14"));
}

#[test]
fn four_operations_truthful_allocation() {
    // The lecture's collusion example, truthful profile: CPU saturates at 1/2 (op1, op2),
    // memory at 2/3 (op3, op4).
    assert_reference("collusion-four-operations");
}

#[test]
fn four_operations_under_the_lie() {
    // op1 and op2 claim 1/2 network each: op3 rises to 3/4, op4 falls to 1/2 (the lecture).
    let case = reference_case("collusion-four-operations");
    let inst = Instance::from_json(&case["instance"]).unwrap();
    let lie = inst.with_demand(0, vec![r("1"), r("0"), r("1/2")]).unwrap();
    let lie = lie.with_demand(1, vec![r("1"), r("0"), r("1/2")]).unwrap();
    let x = Drf::extended().allocate(&lie).unwrap();
    // Tasks under the lie equal true utilities for op3 and op4 (truthful reports).
    assert_eq!(x.tasks[2], r("3/4"));
    assert_eq!(x.tasks[3], r("1/2"));
    // op1, op2 need only CPU truly: their utility is the tasks they got, 1/2 as before.
    assert_eq!(x.tasks[0], r("1/2"));
    assert_eq!(x.tasks[1], r("1/2"));
}

#[test]
fn resource_monotonicity_failure_of_the_paper() {
    // DRF paper §5: capacities (1,1) → (1,4) and A loses: 1/3 → 1/4 tasks.
    assert_reference("drf-not-rm");
    let case = reference_case("drf-not-rm");
    let inst = Instance::from_json(&case["instance"]).unwrap();
    let bigger = Instance::new(vec![r("1"), r("4")], inst.users().to_vec()).unwrap();
    let x = Drf::extended().allocate(&bigger).unwrap();
    assert_eq!(x.tasks, vec![r("1/4"), r("1/2")]);
}

#[test]
fn common_level_freezes_everyone_at_the_first_saturation() {
    // Four operations: CPU saturates first at level 1/2; common-level stops op3 and op4 too.
    let inst =
        Instance::from_json(&reference_case("collusion-four-operations")["instance"]).unwrap();
    let x = Drf::common_level().allocate(&inst).unwrap();
    assert_eq!(x.tasks, vec![r("1/2"); 4]);
}

#[test]
fn per_resource_weights_follow_the_papers_definition() {
    // DRF paper §4.3: s_i = max_j u_ij / w_ij. A weighs memory 2, so its share of memory
    // counts half.
    let inst = paper_weighting_memory();
    // A's level per task: max(1/9, 4/36) = 1/9; B's: 1/3. Equal levels: x/9 = y/3 → x = 3y.
    // CPU: 3y + 3y = 9 → y = 3/2, x = 9/2; memory 18 + 3/2 > 18, so memory binds first:
    // 4x + y = 13y = 18 → y = 18/13, x = 54/13 (CPU 54/13 + 54/13 = 108/13 < 9).
    let x = Drf::extended().allocate(&inst).unwrap();
    assert_eq!(x.tasks, vec![r("54/13"), r("18/13")]);
}

/// A naive progressive filling written independently: at each step recompute, for every
/// resource from scratch, the level at which it saturates, in `BigRational`.
fn naive_filling(inst: &Instance, rule: FreezeRule) -> Vec<BigRational> {
    let n = inst.num_users();
    let m = inst.num_resources();
    let big = |x: &Rational| x.to_big();
    let share: Vec<BigRational> = (0..n).map(|i| big(&inst.task_weighted_share(i))).collect();
    let mut x: Vec<Option<BigRational>> = vec![None; n];
    let demand = |i: usize, j: usize| big(&inst.users()[i].demand[j]);
    loop {
        let growing: Vec<usize> = (0..n).filter(|&i| x[i].is_none()).collect();
        if growing.is_empty() {
            break;
        }
        let mut best: Option<BigRational> = None;
        let mut hit: Vec<usize> = Vec::new();
        for j in 0..m {
            let used: BigRational = (0..n)
                .filter_map(|i| x[i].as_ref().map(|xi| xi * demand(i, j)))
                .sum();
            let rate: BigRational = growing.iter().map(|&i| demand(i, j) / &share[i]).sum();
            if rate.is_zero() {
                continue;
            }
            let level = (big(&inst.capacity()[j]) - used) / rate;
            if best.as_ref().is_none_or(|b| &level < b) {
                best = Some(level);
            }
        }
        for &i in &growing {
            if let Some(t) = &inst.users()[i].cap {
                let level = big(t) * &share[i];
                if best.as_ref().is_none_or(|b| &level < b) {
                    best = Some(level);
                }
            }
        }
        let level = best.expect("someone grows");
        // Freeze: capped users at the level, and demanders of resources saturated at it.
        for j in 0..m {
            let used: BigRational = (0..n)
                .map(|i| match &x[i] {
                    Some(xi) => xi * demand(i, j),
                    None => &level / &share[i] * demand(i, j),
                })
                .sum();
            if used == big(&inst.capacity()[j]) && growing.iter().any(|&i| !demand(i, j).is_zero())
            {
                for &i in &growing {
                    if rule == FreezeRule::Everyone || !demand(i, j).is_zero() {
                        hit.push(i);
                    }
                }
            }
        }
        for &i in &growing {
            if let Some(t) = &inst.users()[i].cap
                && big(t) * &share[i] == level
            {
                hit.push(i);
            }
        }
        for i in hit {
            if x[i].is_none() {
                x[i] = Some(&level / &share[i]);
            }
        }
    }
    x.into_iter().map(Option::unwrap).collect()
}

/// Random instances: n ≤ 6 users, m ≤ 4 resources, small rational data, zeros, weights, caps.
fn instances(positive: bool, with_caps: bool) -> impl Strategy<Value = Instance> {
    (1usize..=6, 1usize..=4).prop_flat_map(move |(n, m)| {
        let low = if positive { 1 } else { 0 };
        let demand = prop::collection::vec((low..=6i64, 1..=3i64), m)
            .prop_filter("some positive demand", |d| d.iter().any(|(p, _)| *p > 0));
        let user = (
            demand,
            1..=4i64,
            prop::option::weighted(0.3, (1..=12i64, 1..=3i64))
                .prop_map(move |t| t.filter(|_| with_caps)),
        );
        (
            prop::collection::vec((1..=30i64, 1..=2i64), m),
            prop::collection::vec(user, n),
        )
            .prop_map(|(cap, users)| {
                let users = users
                    .into_iter()
                    .enumerate()
                    .map(|(i, (d, w, t))| {
                        let mut u = User::new(
                            format!("u{i}"),
                            d.into_iter()
                                .map(|(p, q)| Rational::new(p.into(), q.into()).unwrap()),
                        )
                        .weight(w);
                        if let Some((p, q)) = t {
                            u = u.cap(Rational::new(p.into(), q.into()).unwrap());
                        }
                        u
                    })
                    .collect();
                Instance::new(
                    cap.into_iter()
                        .map(|(p, q)| Rational::new(p.into(), q.into()).unwrap())
                        .collect(),
                    users,
                )
                .unwrap()
            })
    })
}

fn rebuild(inst: &Instance, f: impl Fn(&Instance) -> (Vec<Rational>, Vec<User>)) -> Instance {
    let (cap, users) = f(inst);
    Instance::new(cap, users).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn agrees_with_naive_filling(inst in instances(false, true)) {
        for rule in [FreezeRule::DemandersOnly, FreezeRule::Everyone] {
            let fast = progressive_filling(&inst, rule);
            let naive = naive_filling(&inst, rule);
            let fast: Vec<BigRational> = fast.tasks.iter().map(Rational::to_big).collect();
            prop_assert_eq!(fast, naive);
        }
    }

    #[test]
    fn permuting_users_permutes_the_answer(inst in instances(false, true), seed in any::<u64>()) {
        let n = inst.num_users();
        let mut perm: Vec<usize> = (0..n).collect();
        // A seeded Fisher-Yates: proptest shrinks the seed, not the permutation.
        let mut s = seed;
        for k in (1..n).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            perm.swap(k, (s >> 33) as usize % (k + 1));
        }
        let permuted = rebuild(&inst, |i| (i.capacity().to_vec(), perm.iter().map(|&p| i.users()[p].clone()).collect()));
        let a = Drf::extended().allocate(&inst).unwrap();
        let b = Drf::extended().allocate(&permuted).unwrap();
        for (k, &p) in perm.iter().enumerate() {
            prop_assert_eq!(&b.tasks[k], &a.tasks[p]);
        }
    }

    #[test]
    fn permuting_resources_changes_nothing(inst in instances(false, true)) {
        let m = inst.num_resources();
        let rev = |v: &[Rational]| v.iter().rev().cloned().collect::<Vec<_>>();
        let flipped = rebuild(&inst, |i| {
            (rev(i.capacity()), i.users().iter().map(|u| { let mut u = u.clone(); u.demand = rev(&u.demand); u }).collect())
        });
        let a = progressive_filling(&inst, FreezeRule::DemandersOnly);
        let b = progressive_filling(&flipped, FreezeRule::DemandersOnly);
        prop_assert_eq!(&a.tasks, &b.tasks);
        let sat_a: Vec<usize> = a.saturated.iter().map(|j| m - 1 - j).rev().collect();
        prop_assert_eq!(sat_a, b.saturated);
    }

    #[test]
    fn scaling_a_resource_leaves_tasks_unchanged(inst in instances(false, true), j in 0usize..4, c in (1i64..=7, 1i64..=5)) {
        let j = j % inst.num_resources();
        let c = Rational::new(c.0.into(), c.1.into()).unwrap();
        let scaled = rebuild(&inst, |i| {
            let mut cap = i.capacity().to_vec();
            cap[j] *= &c;
            (cap, i.users().iter().map(|u| { let mut u = u.clone(); u.demand[j] *= &c; u }).collect())
        });
        prop_assert_eq!(Drf::extended().allocate(&inst).unwrap(), Drf::extended().allocate(&scaled).unwrap());
    }

    #[test]
    fn scaling_all_weights_changes_nothing(inst in instances(false, true), c in (1i64..=7, 1i64..=5)) {
        let c = Rational::new(c.0.into(), c.1.into()).unwrap();
        let scaled = rebuild(&inst, |i| {
            (i.capacity().to_vec(), i.users().iter().map(|u| { let w = &u.weight * &c; u.clone().weight(w) }).collect())
        });
        for mech in [Drf::extended(), Drf::common_level()] {
            prop_assert_eq!(mech.allocate(&inst).unwrap(), mech.allocate(&scaled).unwrap());
        }
    }

    #[test]
    fn feasible_and_every_user_blocked(inst in instances(false, true)) {
        let x = Drf::extended().allocate(&inst).unwrap();
        prop_assert!(x.is_feasible(&inst));
        let used = x.consumption(&inst);
        let level = |i: usize| x.weighted_share(&inst, i);
        for (i, u) in inst.users().iter().enumerate() {
            if u.cap.as_ref() == Some(&x.tasks[i]) {
                continue;
            }
            // Blocked by a saturated resource it demands, on which it has the top level
            // (max-min: nobody sharing that bottleneck is above it).
            let blocked = (0..inst.num_resources()).any(|j| {
                !u.demand[j].is_zero()
                    && used[j] == inst.capacity()[j]
                    && (0..inst.num_users()).all(|k| inst.users()[k].demand[j].is_zero() || level(k) <= level(i))
            });
            prop_assert!(blocked, "user {} is neither capped nor blocked", i);
        }
    }

    #[test]
    fn positive_demands_equalise_weighted_shares(inst in instances(true, false)) {
        for mech in [Drf::extended(), Drf::common_level()] {
            let x = mech.allocate(&inst).unwrap();
            let first = x.weighted_share(&inst, 0);
            for i in 1..inst.num_users() {
                prop_assert_eq!(x.weighted_share(&inst, i), first.clone());
            }
            prop_assert!(!x.saturated(&inst).is_empty());
        }
    }

    #[test]
    fn common_level_is_dominated_by_extended(inst in instances(false, true)) {
        // Extended DRF only continues where common-level stops: nobody gets less.
        let ext = Drf::extended().allocate(&inst).unwrap();
        let com = Drf::common_level().allocate(&inst).unwrap();
        prop_assert!(com.is_feasible(&inst));
        for i in 0..inst.num_users() {
            prop_assert!(com.tasks[i] <= ext.tasks[i]);
        }
    }
}

#[test]
fn the_naive_reference_reproduces_the_paper_too() {
    // Guards the cross-check itself: the independent filling must get the paper's 3 and 2.
    let inst = common::paper();
    let x = naive_filling(&inst, FreezeRule::DemandersOnly);
    assert_eq!(
        x,
        vec![
            BigRational::from_integer(3.into()),
            BigRational::from_integer(2.into())
        ]
    );
    assert!(BigRational::one() > BigRational::zero());
}

#[test]
fn large_denominators_stay_exact() {
    // 200 users with demands whose dominant shares have pairwise coprime-ish denominators:
    // the common level has a denominator far beyond i128 and must still be exact: every
    // user's weighted share equals it and the bottleneck is used to capacity exactly.
    let users: Vec<User> = (1..=200)
        .map(|k| User::new(format!("u{k}"), [k, 201 - k]))
        .collect();
    let inst = Instance::new(vec![1000.into(), 1000.into()], users).unwrap();
    let fill = progressive_filling(&inst, FreezeRule::DemandersOnly);
    assert!(
        fill.levels[0].is_big(),
        "the test should exercise big integers"
    );
    assert!(fill.levels.iter().all(|l| *l == fill.levels[0]));
    let x = Allocation::new(fill.tasks.clone());
    assert!(x.is_feasible(&inst));
    assert!(!x.saturated(&inst).is_empty());
}
