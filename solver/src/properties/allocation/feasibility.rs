//! Feasibility: capacities, caps, no negative tasks — the prelude of every allocation
//! property (an infeasible answer fails them all with [`Witness::Infeasible`]).

use super::*;

/// The allocation is infeasible: what breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfeasibleWitness {
    /// The allocation's tasks.
    pub tasks: Vec<Rational>,
    /// Users with a negative number of tasks.
    pub negative: Vec<usize>,
    /// Users above their task cap.
    pub over_cap: Vec<usize>,
    /// Resources used beyond capacity, with their total use.
    pub over_capacity: Vec<(usize, Rational)>,
}

/// Feasibility: `None` when `x` respects capacities and caps and has no negative tasks.
/// For an approximate `x` ([`Allocation::tolerance`]) only what is infeasible beyond its
/// error counts: a true answer within the error could be feasible otherwise.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::feasibility;
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert!(feasibility(&paper, &Allocation::new(vec![3.into(), 2.into()])).unwrap().is_none());
/// let w = feasibility(&paper, &Allocation::new(vec![3.into(), 3.into()])).unwrap().unwrap();
/// assert_eq!(w.over_capacity, vec![(0, 12.into())]);
/// ```
pub fn feasibility(
    instance: &Instance,
    x: &Allocation,
) -> Result<Option<InfeasibleWitness>, SolverError> {
    let x = Answer::given(x.clone());
    Ok(feasible_use(instance, &x, &mut Judge::on(&x))?.err())
}

/// The consumption of a feasible allocation (with its error bounds), or why it is
/// infeasible (beyond the error, for an approximate one).
pub(super) fn feasible_use(
    instance: &Instance,
    answer: &Answer,
    judge: &mut Judge,
) -> Result<Result<Vec<Bounded>, InfeasibleWitness>, SolverError> {
    let x = &answer.allocation;
    check_tasks(instance, x, "allocation")?;
    let tasks = Bounded::all_tasks(answer);
    let negative: Vec<usize> = (0..x.tasks.len())
        .filter(|&i| judge.settle(Test::less_than(&tasks[i], &Rational::ZERO)))
        .collect();
    let over_cap: Vec<usize> = instance
        .users()
        .iter()
        .zip(&tasks)
        .enumerate()
        .filter(|(_, (u, t))| {
            u.cap
                .as_ref()
                .is_some_and(|cap| judge.settle(Test::more_than(t, cap)))
        })
        .map(|(i, _)| i)
        .collect();
    let all: Vec<usize> = (0..x.tasks.len()).collect();
    let used = holdings_bounds(instance, answer, &all);
    let over_capacity: Vec<(usize, Rational)> = used
        .iter()
        .zip(instance.capacity())
        .enumerate()
        .filter(|(_, (c, r))| judge.settle(Test::more_than(c, r)))
        .map(|(j, (c, _))| (j, c.value.clone()))
        .collect();
    if negative.is_empty() && over_cap.is_empty() && over_capacity.is_empty() {
        Ok(Ok(used))
    } else {
        Ok(Err(InfeasibleWitness {
            tasks: x.tasks.clone(),
            negative,
            over_cap,
            over_capacity,
        }))
    }
}
