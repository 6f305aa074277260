//! Asset fairness: the DRF paper's numbers and its two counterexamples, plus invariances.

use leontief_solver::asset::{asset_task_share, AssetFairness};
use leontief_solver::{Instance, Mechanism, User};
use proptest::prelude::*;

use crate::common;
use common::r;

fn inst(capacity: [i64; 2], users: &[(&str, [i64; 2])]) -> Instance {
    Instance::new(
        capacity.iter().map(|&c| c.into()).collect(),
        users.iter().map(|(n, d)| User::new(*n, *d)).collect(),
    )
    .unwrap()
}

#[test]
fn paper_running_example() {
    // DRF paper §2.2: A gets 2.52 tasks (63/25), B 2.16 (54/25); CPU is exhausted.
    let paper = inst([9, 18], &[("A", [1, 4]), ("B", [3, 1])]);
    let x = AssetFairness.allocate(&paper).unwrap();
    assert_eq!(x.tasks, vec![r("63/25"), r("54/25")]);
    assert_eq!(x.saturated(&paper), vec![0]);
}

#[test]
fn violates_sharing_incentive() {
    // Theorem 1: (30, 30), user 1 ⟨1, 3⟩ and user 2 ⟨1, 1⟩: asset fairness gives 6 and 12
    // tasks; "the second user would be better off to statically partition the cluster and
    // own half of the nodes" (15 tasks).
    let case = inst([30, 30], &[("1", [1, 3]), ("2", [1, 1])]);
    let x = AssetFairness.allocate(&case).unwrap();
    assert_eq!(x.tasks, vec![r("6"), r("12")]);
    // User 2's equal split is (15, 15): 15 tasks > 12, so user 2 loses sharing incentive.
    let equal_split = [r("15"), r("15")];
    assert!(case.utility(1, &equal_split) > x.tasks[1]);
}

#[test]
fn violates_bottleneck_fairness() {
    // Theorem 2: (21, 21), ⟨3, 2⟩ and ⟨4, 1⟩: resource 1 is everyone's bottleneck, so max-min
    // on it would give both 21/2 units of resource 1; asset fairness gives 3 tasks each, i.e.
    // 9 and 12 units.
    let case = inst([21, 21], &[("1", [3, 2]), ("2", [4, 1])]);
    let x = AssetFairness.allocate(&case).unwrap();
    assert_eq!(x.tasks, vec![r("3"), r("3")]);
    assert_ne!(x.bundle(&case, 0)[0], x.bundle(&case, 1)[0]);
}

#[test]
fn weights_divide_the_aggregate_share() {
    // Single resource of 12, weights 1 and 2, demand 1 each: max-min weighted → 4 and 8.
    let case = Instance::new(
        vec![12.into()],
        vec![User::new("a", [1]), User::new("b", [1]).weight(2)],
    )
    .unwrap();
    assert_eq!(
        AssetFairness.allocate(&case).unwrap().tasks,
        vec![r("4"), r("8")]
    );
}

proptest! {
    #[test]
    fn positive_demands_equalise_aggregate_shares(
        cap in prop::collection::vec(1i64..=20, 1..=3),
        demands in prop::collection::vec(prop::collection::vec(1i64..=6, 3), 1..=5),
    ) {
        let m = cap.len();
        let users: Vec<User> = demands.iter().enumerate()
            .map(|(i, d)| User::new(format!("u{i}"), d[..m].iter().copied())).collect();
        let case = Instance::new(cap.into_iter().map(Into::into).collect(), users).unwrap();
        let x = AssetFairness.allocate(&case).unwrap();
        prop_assert!(x.is_feasible(&case));
        let level = |i: usize| &x.tasks[i] * &asset_task_share(&case, i);
        for i in 1..case.num_users() {
            prop_assert_eq!(level(i), level(0));
        }
        prop_assert!(!x.saturated(&case).is_empty());
    }
}
