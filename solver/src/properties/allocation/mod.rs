//! Properties of one allocation: SI, EF, PO, SRF, BF, BBF (`docs/theory.md` §3) and SG
//! (§4), decided exactly, one file per property.
//!
//! Every oracle first checks feasibility (capacities, caps, no negative tasks): the
//! definitions presuppose a feasible answer, so an infeasible one fails with
//! [`Witness::Infeasible`]. Weighted forms; per-resource weights enter resource by resource
//! as described in the [parent module](super).
//!
//! # Example
//! Asset fairness fails the sharing incentive on the DRF paper's Theorem 1 instance: user 2
//! gets 12 tasks where half of each resource would run 15.
//! ```
//! use leontief_solver::properties::{allocation::sharing_incentive, Witness};
//! use leontief_solver::{AssetFairness, Instance, Mechanism, Rational, User};
//! let inst = Instance::new(vec![30.into(), 30.into()],
//!     vec![User::new("1", [1, 3]), User::new("2", [1, 1])]).unwrap();
//! let x = AssetFairness.allocate(&inst).unwrap();
//! let v = sharing_incentive(&inst, &x).unwrap();
//! let Some(Witness::Si(w)) = v.witness else { panic!("expected an SI witness") };
//! assert_eq!((w.user, w.tasks, w.split_utility), (1, 12.into(), 15.into()));
//! ```
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011 (SI, EF, PO, SRF, BF).
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness.* EC 2012 (PO with
//!   zero demands: every user below its cap must demand a saturated resource).
//! - D. Dolev et al. *No Justified Complaints: On Fair Sharing of Multiple Resources.*
//!   ITCS 2012 (BBF).

use super::exact::Answer;
use super::tolerance::{holdings_bounds, Bounded, Gauge, Judge, Test};
use super::{check_tasks, truth_gauge, user_name, ExactFigures, Property, Verdict, Witness};
use crate::exact_sum::balanced_sum;
use crate::{Allocation, ExactSum, Instance, Rational, SolverError, User};

// One file per property. Each starts with `use super::*`: the imports above and the shared
// helpers below (`judged`, `below_cap`) are its prelude; the helpers one property lends to
// another (feasibility, the equal split) are `pub(super)` and come back through the globs.
mod bbf;
mod ef;
mod feasibility;
mod max_min;
mod po;
mod sg;
mod si;

pub use bbf::*;
pub use ef::*;
pub use feasibility::*;
pub use max_min::*;
pub use po::*;
pub use sg::*;
pub use si::*;

/// Decides an allocation property ([`Property::is_allocation_property`]) on `x`.
///
/// # Errors
/// When `x` does not have one entry per user, or `property` is a scenario property.
///
/// # Example
/// ```
/// use leontief_solver::properties::{allocation::check_allocation, Property};
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let drf = Allocation::new(vec![3.into(), 2.into()]);
/// for p in [Property::Si, Property::Ef, Property::Po] {
///     assert!(check_allocation(&paper, &drf, p).unwrap().holds, "{p}");
/// }
/// // A holds 1/3 of the saturated CPU, below its half, and memory is not saturated.
/// assert!(!check_allocation(&paper, &drf, Property::Bbf).unwrap().holds);
/// ```
pub fn check_allocation(
    instance: &Instance,
    x: &Allocation,
    property: Property,
) -> Result<Verdict, SolverError> {
    check_answer(instance, &Answer::given(x.clone()), property)
}

/// [`check_allocation`] on an answer with its exact form (when it has one).
pub(crate) fn check_answer(
    instance: &Instance,
    x: &Answer,
    property: Property,
) -> Result<Verdict, SolverError> {
    match property {
        Property::Si => judged(instance, x, sharing_incentive_on),
        Property::Ef => judged(instance, x, envy_freeness_on),
        Property::Po => judged(instance, x, pareto_efficiency_on),
        Property::Srf | Property::Bf => max_min_fairness(instance, x, property),
        Property::Bbf => judged(instance, x, bottleneck_based_fairness_on),
        // Share guarantees concern trees, which no rule with an algebraic form takes.
        Property::Sg => judged(
            instance,
            &Answer::given(x.allocation.clone()),
            share_guarantee_on,
        ),
        other => Err(SolverError::invalid(
            "property",
            format!("{other} is not decided on one allocation; it needs scenarios"),
        )),
    }
}

/// Whether user `i` with `x` tasks is below its cap (always, without one).
fn below_cap(u: &User, x: &Bounded) -> Test {
    match &u.cap {
        Some(t) => Test::less_than(x, t),
        None => Test::TRUE,
    }
}

/// Runs an allocation oracle with a [`Judge`] on `x` and finishes its verdict. The oracle
/// sees the consumption of a feasible answer; an infeasible one fails first, since the
/// definitions presuppose a feasible answer.
fn judged(
    instance: &Instance,
    x: &Answer,
    oracle: impl FnOnce(&Instance, &Answer, &[Bounded], &mut Judge) -> Verdict,
) -> Result<Verdict, SolverError> {
    let mut judge = Judge::on(x);
    let verdict = match feasible_use(instance, x, &mut judge)? {
        Ok(used) => oracle(instance, x, &used, &mut judge),
        Err(w) => Verdict::fails(
            Witness::Infeasible(w),
            "the allocation is infeasible, so the property is not met",
        ),
    };
    Ok(judge.finish(verdict))
}
