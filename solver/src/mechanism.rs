//! The [`Mechanism`] trait: one interface for every allocation rule, so that any rule —
//! including one a user writes — can be solved, checked and searched the same way.

use crate::algebraic::RealAlgebraic;
use crate::ceei::algebraic::AlgebraicCeeiError;
use crate::{Allocation, Instance, SolverError};

/// An allocation rule on flat instances.
///
/// # Example
/// A rule written outside the crate, usable wherever a mechanism is expected:
/// ```
/// use leontief_solver::{Allocation, Instance, Mechanism, Rational, SolverError, User};
///
/// /// Gives every user the largest equal number of tasks.
/// struct EqualTasks;
/// impl Mechanism for EqualTasks {
///     fn name(&self) -> &str { "equal-tasks" }
///     fn is_exact(&self) -> bool { true }
///     fn allocate(&self, inst: &Instance) -> Result<Allocation, SolverError> {
///         let t = (0..inst.num_resources())
///             .filter_map(|j| {
///                 let total: Rational = inst.users().iter().map(|u| u.demand[j].clone()).sum();
///                 inst.capacity()[j].checked_div(&total)
///             })
///             .min()
///             .expect("some resource is demanded");
///         Ok(Allocation::new(vec![t; inst.num_users()]))
///     }
/// }
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert_eq!(EqualTasks.allocate(&paper).unwrap().tasks, vec![Rational::new(9, 4).unwrap(); 2]);
/// ```
pub trait Mechanism: Send + Sync {
    /// The name used on the command line and in reports, e.g. `drf`.
    fn name(&self) -> &str;

    /// Whether answers are exact rationals (`false` for float solvers, whose answers carry
    /// their own accuracy report; an answer known only approximately should say so with
    /// [`Allocation::approximate`], so that the property oracles judge it with a margin).
    fn is_exact(&self) -> bool;

    /// The allocation on a validated instance.
    fn allocate(&self, instance: &Instance) -> Result<Allocation, SolverError>;

    /// The exact task counts as real algebraic numbers, for a rule whose rational answer
    /// ([`Mechanism::allocate`]) may be approximate while its true answer is algebraic
    /// (CEEI); `None` for a rule without such a form (an exact rule needs none).
    ///
    /// # Errors
    /// Inside the `Some`: why the exact form could not be found (a stated limit).
    fn algebraic_tasks(
        &self,
        _instance: &Instance,
    ) -> Option<Result<Vec<RealAlgebraic>, AlgebraicCeeiError>> {
        None
    }
}
