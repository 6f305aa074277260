//! Sharing incentive (SI): every user does at least as well as with its weighted equal split
//! of every resource (`docs/theory.md` §3).

use super::*;

/// A user below its weighted equal split (SI).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiWitness {
    /// The user.
    pub user: usize,
    /// Its tasks `x_i`.
    pub tasks: Rational,
    /// The bundle of its weighted equal split, `(w_ij / W_j) R_j` per resource.
    pub split: Vec<Rational>,
    /// What that bundle gives it, `u_i(split) > min(T_i, x_i)`.
    pub split_utility: Rational,
    /// The exact `tasks` when the answer was decided on its exact algebraic form.
    pub exact: Option<ExactFigures>,
}

/// `W_j = Σ_k w_kj` per resource (`W = Σ_k w_k` on every resource with scalar weights).
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::weight_totals;
/// use leontief_solver::{Instance, User};
/// let inst = Instance::new(vec![1.into(), 1.into()],
///     vec![User::new("a", [1, 1]).weight(2), User::new("b", [1, 1]).resource_weights([1, 3])]).unwrap();
/// assert_eq!(weight_totals(&inst), vec![3.into(), 5.into()]);
/// ```
pub fn weight_totals(instance: &Instance) -> Vec<Rational> {
    (0..instance.num_resources())
        .map(|j| balanced_sum(instance.users().iter().map(|u| u.weight_on(j).clone())))
        .collect()
}

/// Every user's weighted equal split: user `i` gets `(w_ij / W_j) R_j` of resource `j`
/// (`(w_i / W) R` with scalar weights) — the bundles SI compares with.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::equal_split;
/// use leontief_solver::{Instance, User};
/// let inst = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1]).weight(2)]).unwrap();
/// assert_eq!(equal_split(&inst)[1], vec![6.into(), 12.into()]);
/// ```
pub fn equal_split(instance: &Instance) -> Vec<Vec<Rational>> {
    let totals = weight_totals(instance);
    instance
        .users()
        .iter()
        .map(|u| split_of(instance, &totals, u))
        .collect()
}

pub(super) fn split_of(instance: &Instance, totals: &[Rational], u: &User) -> Vec<Rational> {
    instance
        .capacity()
        .iter()
        .zip(totals)
        .enumerate()
        .map(|(j, (r, total))| r * &(u.weight_on(j) / total))
        .collect()
}

/// SI: `min(T_i, x_i) >= u_i(split_i)` for every user, with the weighted equal split of
/// [`equal_split`]. Witness: the first user (in order) below its split.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::sharing_incentive;
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// // A's half is (4.5, 9): 9/4 tasks; B's is 3/2 tasks.
/// assert!(sharing_incentive(&paper, &Allocation::new(vec![3.into(), 2.into()])).unwrap().holds);
/// assert!(!sharing_incentive(&paper, &Allocation::new(vec![2.into(), 2.into()])).unwrap().holds);
/// ```
pub fn sharing_incentive(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    check_allocation(instance, x, Property::Si)
}

pub(super) fn sharing_incentive_on(
    instance: &Instance,
    x: &Answer,
    _: &[Bounded],
    judge: &mut Judge,
) -> Verdict {
    let totals = weight_totals(instance);
    for (i, u) in instance.users().iter().enumerate() {
        // u_i(split) = min(T_i, min_{j: d_ij > 0} (w_ij / W_j) R_j / d_ij).
        let split = split_of(instance, &totals, u);
        let split_utility = instance.utility(i, &split);
        let have = Bounded::tasks(x, i).map(&truth_gauge(instance, i));
        if judge.settle(Test::less_than(&have, &split_utility)) {
            let witness = SiWitness {
                user: i,
                tasks: x.allocation.tasks[i].clone(),
                split,
                split_utility,
                exact: ExactFigures::default()
                    .with("tasks", x.exact_task(i).filter(|_| x.algebraic().is_some()))
                    .into_option(),
            };
            return Verdict::fails(
                Witness::Si(witness),
                format!(
                    "user {} is below its weighted equal split ({})",
                    user_name(instance, i),
                    split_reading(instance)
                ),
            );
        }
    }
    Verdict::holds(format!(
        "every user at or above its weighted equal split ({})",
        split_reading(instance)
    ))
}

pub(super) fn split_reading(instance: &Instance) -> &'static str {
    if instance
        .users()
        .iter()
        .any(|u| u.resource_weights.is_some())
    {
        "per-resource weights: user i's split of resource j is w_ij / sum_k w_kj"
    } else {
        "user i's split is w_i / W of every resource"
    }
}
