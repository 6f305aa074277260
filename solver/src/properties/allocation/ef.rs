//! Envy-freeness (EF): no user prefers another's bundle scaled to its own weight
//! (`docs/theory.md` §3).

use super::*;

/// A user that prefers another's bundle scaled to its own weight (EF).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EfWitness {
    /// The envious user `i`.
    pub envious: usize,
    /// The envied user `k`.
    pub envied: usize,
    /// `x_i`.
    pub tasks: Rational,
    /// `x_k`.
    pub envied_tasks: Rational,
    /// `(w_ij / w_kj) x_k d_kj` per resource (`(w_i / w_k) x_k d_k` with scalar weights).
    pub scaled_bundle: Vec<Rational>,
    /// `u_i(scaled_bundle) > min(T_i, x_i)`.
    pub scaled_utility: Rational,
    /// The exact `tasks`, `envied_tasks` and `utility_of_scaled_bundle` (by those keys)
    /// when the answer was decided on its exact algebraic form.
    pub exact: Option<ExactFigures>,
}

/// EF: `u_i(B_ik) <= min(T_i, x_i)` for all `i != k`, where `B_ik` is `k`'s bundle scaled by
/// `w_ij / w_kj` on each resource `j` (`(w_i / w_k) x_k d_k` with scalar weights). Witness:
/// the first envious pair in order.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::{allocation::envy_freeness, Witness};
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert!(envy_freeness(&paper, &Allocation::new(vec![3.into(), 2.into()])).unwrap().holds);
/// // With 1/2 task, B prefers A's bundle (3, 12), which runs 1 task of B's.
/// let v = envy_freeness(&paper, &Allocation::new(vec![3.into(), "1/2".parse().unwrap()])).unwrap();
/// let Some(Witness::Ef(w)) = v.witness else { panic!() };
/// assert_eq!((w.envious, w.envied), (1, 0));
/// ```
pub fn envy_freeness(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    check_allocation(instance, x, Property::Ef)
}

/// `(w_ij / w_kj) d_kj / d_ij` over the resources `j` user `i` needs: `i`'s tasks per task
/// of `k`'s bundle scaled to `i`'s weight, resource by resource (0 where `k` lacks one `i`
/// needs); their minimum is the envy coefficient `c_ik`.
pub(crate) fn envy_ratios<'a>(ui: &'a User, uk: &'a User) -> impl Iterator<Item = Rational> + 'a {
    ui.demand
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.is_zero())
        .map(|(j, d)| &(&(ui.weight_on(j) / uk.weight_on(j)) * &uk.demand[j]) / d)
}

pub(super) fn envy_freeness_on(
    instance: &Instance,
    x: &Answer,
    _: &[Bounded],
    judge: &mut Judge,
) -> Verdict {
    let users = instance.users();
    let tasks = &x.allocation.tasks;
    // Whether user k holds anything (exactly, when the answer has its algebraic form).
    let holds_some = |k: usize| match x.algebraic() {
        Some(exact) => exact[k].signum() > 0,
        None => tasks[k].is_positive(),
    };
    for (i, ui) in users.iter().enumerate() {
        let have = Bounded::tasks(x, i).map(&truth_gauge(instance, i));
        for (k, uk) in users.iter().enumerate() {
            if k == i || !holds_some(k) {
                continue;
            }
            // u_i of k's bundle with y tasks, scaled: min(T_i, min_j (w_ij / w_kj) y d_kj / d_ij).
            let scaled_of = Gauge::min_of(envy_ratios(ui, uk), ui.cap.as_ref());
            let scaled = Bounded::tasks(x, k).map(&scaled_of);
            if judge.settle(Test::less(&have, &scaled)) {
                let scaled_bundle = (0..instance.num_resources())
                    .map(|j| &(ui.weight_on(j) / uk.weight_on(j)) * &(&tasks[k] * &uk.demand[j]))
                    .collect();
                let algebraic = x.algebraic().is_some();
                let witness = EfWitness {
                    envious: i,
                    envied: k,
                    tasks: tasks[i].clone(),
                    envied_tasks: tasks[k].clone(),
                    scaled_bundle,
                    exact: ExactFigures::default()
                        .with("tasks", x.exact_task(i).filter(|_| algebraic))
                        .with("envied_tasks", x.exact_task(k).filter(|_| algebraic))
                        .with("utility_of_scaled_bundle", scaled.exact_figure())
                        .into_option(),
                    scaled_utility: scaled.value,
                };
                return Verdict::fails(
                    Witness::Ef(witness),
                    format!(
                        "user {} prefers user {}'s bundle scaled to its weight",
                        user_name(instance, i),
                        user_name(instance, k)
                    ),
                );
            }
        }
    }
    Verdict::holds("nobody prefers another's bundle scaled by the weight ratio")
}
