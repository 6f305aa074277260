//! Monotonicity: population monotonicity (PM: nobody loses when a user leaves) and resource
//! monotonicity (RM: nobody loses when capacities grow), `docs/theory.md` §3, decided exactly on a
//! given scenario or on the default sets of [`scenarios`](super::scenarios).
//!
//! Utilities are the users' true ones, `min(T_i, x_i)`, before and after. Every single
//! departure is tried by default, which is the whole of PM as `docs/theory.md` §3.6 defines
//! it (one user leaves), so a holding PM verdict is not bounded; RM tries the capacity grid and is.
//!
//! # Example
//! Reference case `drf-not-rm`: on (1, 1), A ⟨2, 1⟩ and B ⟨1, 2⟩ get 1/3 each; with four
//! times the second resource, A gets 1/4.
//! ```
//! use leontief_solver::properties::monotonicity::rm_scenario;
//! use leontief_solver::{Drf, Instance, Mechanism, User};
//! let inst = Instance::new(vec![1.into(), 1.into()],
//!     vec![User::new("A", [2, 1]), User::new("B", [1, 2])]).unwrap();
//! let truth = Drf::extended().allocate(&inst).unwrap();
//! let w = rm_scenario(&Drf::extended(), &inst, &truth, &[1.into(), 4.into()]).unwrap().unwrap();
//! assert_eq!((w.user, w.before.to_string(), w.after.to_string()), (0, "1/3".into(), "1/4".into()));
//! ```
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011 (population and resource
//!   monotonicity; no mechanism with SI and PO is resource monotonic).

use super::exact::Answer;
use super::scenarios::{capacity_grid, departures};
use super::tolerance::{Bounded, Judge, Test};
use super::{
    check_user, first_violation, on_given, truth_gauge, user_name, ExactFigures, Outcome, Verdict,
    Witness,
};
use crate::ceei::ExactNumber;
use crate::{Allocation, Instance, Mechanism, Rational, SolverError};

/// A user that loses when another leaves (PM).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PmWitness {
    /// The user that leaves.
    pub leaving: usize,
    /// The first remaining user (in order) whose utility falls.
    pub user: usize,
    /// Its utility before.
    pub before: Rational,
    /// Its utility after, `< before`.
    pub after: Rational,
    /// The answer without the leaving user, by original index (`None` for the leaver).
    pub tasks_after: Vec<Option<Rational>>,
    /// The exact values of `before`, `after` and `tasks_after` (by those keys; by original
    /// index) when an answer was decided on its exact algebraic form.
    pub exact: Option<ExactFigures>,
}

/// A user that loses when capacities grow (RM).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RmWitness {
    /// The new capacities (each at least the old one).
    pub capacity: Vec<Rational>,
    /// The first user (in order) whose utility falls.
    pub user: usize,
    /// Its utility before.
    pub before: Rational,
    /// Its utility after, `< before`.
    pub after: Rational,
    /// The answer with the new capacities.
    pub tasks_after: Vec<Rational>,
    /// The exact values of `before`, `after` and `tasks_after` (by those keys) when an
    /// answer was decided on its exact algebraic form.
    pub exact: Option<ExactFigures>,
}

/// Decides one departure (PM): `Some` witness when a remaining user loses.
///
/// # Errors
/// When `leaving` is not a user, it is the only one, `truth` does not fit, or the mechanism
/// fails.
///
/// # Example
/// ```
/// use leontief_solver::properties::monotonicity::pm_scenario;
/// use leontief_solver::{Drf, Instance, Mechanism, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let truth = Drf::extended().allocate(&paper).unwrap();
/// assert!(pm_scenario(&Drf::extended(), &paper, &truth, 1).unwrap().is_none());
/// ```
pub fn pm_scenario(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    leaving: usize,
) -> Result<Option<PmWitness>, SolverError> {
    on_given(instance, truth, |truth, judge| {
        pm_judged(mechanism, instance, truth, leaving, judge)
    })
}

/// [`pm_scenario`], recording the allocations and excused comparisons in `judge`.
pub(crate) fn pm_judged(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Answer,
    leaving: usize,
    judge: &mut Judge,
) -> Result<Option<PmWitness>, SolverError> {
    check_user(instance, leaving, "scenario.remove")?;
    let n = instance.num_users();
    if n < 2 {
        return Err(SolverError::invalid(
            "scenario.remove",
            "cannot remove the only user",
        ));
    }
    // A pool left without users disappears with its last user.
    let smaller = instance.without_user(leaving)?;
    let x = judge.answer(mechanism, &smaller, "allocation after the departure")?;
    // Remaining users keep their order: original index i > leaving is i - 1 after.
    let index_after = |i: usize| (i != leaving).then(|| if i < leaving { i } else { i - 1 });
    let loser = (0..n).find_map(|i| loses(instance, i, truth, &x, index_after(i)?, judge));
    Ok(loser.map(|(user, before, after)| {
        let exact_after: Option<Vec<Option<ExactNumber>>> = x.algebraic().map(|_| {
            let exact = |i| x.exact_task(index_after(i)?);
            (0..n).map(exact).collect()
        });
        PmWitness {
            leaving,
            user,
            exact: loss_figures(&before, &after)
                .with_users("tasks_after", exact_after)
                .into_option(),
            before: before.value,
            after: after.value,
            tasks_after: (0..n)
                .map(|i| Some(x.allocation.tasks[index_after(i)?].clone()))
                .collect(),
        }
    }))
}

/// PM over every single departure ([`departures`]); stops at the first violation. Not
/// applicable with one user.
pub(crate) fn pm_bounded(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Answer,
) -> Result<Outcome, SolverError> {
    if instance.num_users() < 2 {
        let verdict = Verdict::not_applicable("pm needs at least two users");
        return Ok(Judge::on(truth).outcome(verdict, 0, false));
    }
    first_violation(
        Judge::on(truth),
        false,
        departures(instance),
        |leaving, _, judge| {
            let found = pm_judged(mechanism, instance, truth, leaving, judge)?;
            Ok(found.map(|w| {
                let note = format!(
                    "user {} loses when user {} leaves",
                    user_name(instance, w.user),
                    user_name(instance, leaving)
                );
                Verdict::fails(Witness::Pm(w), note)
            }))
        },
        |tried| format!("exhaustive: nobody loses in any of the {tried} single departures"),
    )
}

/// Decides one capacity change (RM): `Some` witness when some user loses.
///
/// # Errors
/// `SolverError::Invalid` on `capacity` when the new capacities do not have one entry per
/// resource or any is below the old one; also when `truth` does not fit or the mechanism
/// fails.
///
/// # Example
/// See the [module docs](self); shrinking is rejected:
/// ```
/// use leontief_solver::properties::monotonicity::rm_scenario;
/// use leontief_solver::{Drf, Instance, Mechanism, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let truth = Drf::extended().allocate(&paper).unwrap();
/// assert!(rm_scenario(&Drf::extended(), &paper, &truth, &[8.into(), 18.into()]).is_err());
/// ```
pub fn rm_scenario(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    capacity: &[Rational],
) -> Result<Option<RmWitness>, SolverError> {
    on_given(instance, truth, |truth, judge| {
        rm_judged(mechanism, instance, truth, capacity, judge)
    })
}

/// [`rm_scenario`], recording the allocations and excused comparisons in `judge`.
pub(crate) fn rm_judged(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Answer,
    capacity: &[Rational],
    judge: &mut Judge,
) -> Result<Option<RmWitness>, SolverError> {
    let m = instance.num_resources();
    crate::json::check_length("capacity", capacity, m)?;
    if let Some(j) = (0..m).find(|&j| capacity[j] < instance.capacity()[j]) {
        return Err(SolverError::invalid(
            "capacity",
            format!(
                "resource monotonicity grows capacities: {} would shrink from {} to {}",
                instance.resources()[j],
                instance.capacity()[j],
                capacity[j]
            ),
        ));
    }
    let grown = instance.with_capacity(capacity.to_vec())?;
    rm_on(mechanism, instance, &grown, truth, judge)
}

/// Whether user `i` (index `i` in `truth`, `after_at` in `after`) loses beyond the margin the
/// answers' errors allow (exactly, on exact answers): the user, its utilities before and
/// after (computed) when it does.
fn loses(
    instance: &Instance,
    i: usize,
    truth: &Answer,
    after: &Answer,
    after_at: usize,
    judge: &mut Judge,
) -> Option<(usize, Bounded, Bounded)> {
    let gauge = truth_gauge(instance, i);
    let before = Bounded::tasks(truth, i).map(&gauge);
    let after = Bounded::tasks(after, after_at).map(&gauge);
    judge
        .settle(Test::less(&after, &before))
        .then_some((i, before, after))
}

/// The exact `before` and `after` of a loss, where they came from an exact algebraic form.
fn loss_figures(before: &Bounded, after: &Bounded) -> ExactFigures {
    ExactFigures::default()
        .with("before", before.exact_figure())
        .with("after", after.exact_figure())
}

fn rm_on(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    grown: &Instance,
    truth: &Answer,
    judge: &mut Judge,
) -> Result<Option<RmWitness>, SolverError> {
    let x = judge.answer(mechanism, grown, "allocation with the new capacities")?;
    let loser = (0..instance.num_users()).find_map(|i| loses(instance, i, truth, &x, i, judge));
    Ok(loser.map(|(user, before, after)| RmWitness {
        capacity: grown.capacity().to_vec(),
        user,
        exact: loss_figures(&before, &after)
            .with_users("tasks_after", x.exact_tasks())
            .into_option(),
        before: before.value,
        after: after.value,
        tasks_after: x.allocation.tasks,
    }))
}

/// RM over the [`capacity_grid`]; stops at the first violation.
pub(crate) fn rm_bounded(
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Answer,
) -> Result<Outcome, SolverError> {
    let grid = capacity_grid(instance)
        .into_iter()
        .filter_map(|capacity| instance.with_capacity(capacity).ok());
    first_violation(
        Judge::on(truth),
        true,
        grid,
        |grown, tried, judge| {
            let found = rm_on(mechanism, instance, &grown, truth, judge)?;
            Ok(found.map(|w| {
                let note = format!(
                    "user {} loses as capacities grow (bounded: found at grid point {tried})",
                    user_name(instance, w.user)
                );
                Verdict::fails(Witness::Rm(w), note)
            }))
        },
        |tried| {
            format!(
                "bounded: nobody loses on {tried} capacity increases (each resource alone and \
                 all together, x3/2, x2, x4)"
            )
        },
    )
}
