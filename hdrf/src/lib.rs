//! Hierarchical fair allocation on weighted trees, exact (`docs/theory.md` §4).
//!
//! - [`Tree`]: pools and leaves with weights, task caps and exact guaranteed shares
//!   `g_v = g_parent * w_v / Σ_siblings w`; JSON in and out, validation naming the path.
//! - Four static policies, each the fluid allocation of a progressive fill from zero,
//!   computed **exactly** in rationals and event by event (none is a limit of discrete
//!   fills), one file each under [`policies`]: [`collapsed()`] (weighted DRF over the leaves
//!   with weights `g_leaf`, by the solver's progressive filling), [`naive()`] HDRF,
//!   [`min_satisfaction()`] HDRF and [`hdrf()`] (H-DRF of Bhattacharya et al.). The keys
//!   every engine compares are methods of [`Policy`] ([`Policy::fluid_key`], ...);
//!   [`allocate`] dispatches on it. The three tree policies share one event-driven engine, [`fill`] (its plain
//!   twin in the integration tests, `tests/integration/plain_engine.rs`, which shares no code
//!   with it, cross-checks it); the tests' `tests/integration/common/discrete.rs` runs their
//!   task-by-task versions with slices of `1/k` task.
//! - The static allocations are the limits of those task-by-task fills as `k` grows
//!   (`tests/integration/discrete.rs`), with one exception under naive, min-satisfaction HDRF and H-DRF:
//!   tied *degenerate* siblings (pools whose key does not rise while they grow) competing for
//!   a resource that runs out. The fluid fill grows them together; task by task the tie goes
//!   to the first sibling, a slice leaves its key unchanged, so it wins every slice, takes the
//!   whole resource, and the others never get their turn, at every `k`
//!   (`tied_degenerate_siblings_on_a_resource_that_runs_out` in `tests/integration/discrete.rs`: static
//!   `c2 = e2 = 3/10`, task-level `c2 = 2/5`, `e2 = 1/5`; see that fill's docs). Statically, min-satisfaction HDRF coincides with naive HDRF (proof in
//!   [`policies::min_satisfaction`]); the two differ only under task churn.
//! - [`TreeAllocation`]: every node's allocation vector, dominant share, satisfaction
//!   `S_v / g_v` and (leaves) tasks; [`TreeAllocation::to_json`], [`render_tree`] and
//!   [`render_comparison`] (policies side by side).
//! - [`properties`]: share guarantee, Pareto efficiency, feasibility, with witnesses.
//! - [`flat`]: the policies as flat mechanisms (`hdrf:<policy>`) over instances with pools
//!   (`docs/theory.md` §4), so that every flat oracle and the search apply to them.
//! - [`simulate`]: the task-level simulator (exact event times, churn, machines, preemption;
//!   each node's share over time, time below its guarantee, starvation).
//!
//! # Example
//! The lecture's example: A = (1,0) against the pool B = {B1 = (1,0), B2 = (0,1)}.
//! ```
//! use leontief_hdrf::{allocate, properties, Policy, Tree};
//! let tree = Tree::from_json_str(r#"{"resources": ["cpu", "mem"], "capacity": [1, 1],
//!     "tree": {"name": "root", "children": [
//!         {"name": "A", "demand": [1, 0]},
//!         {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
//! for policy in Policy::ALL {
//!     let x = allocate(&tree, policy).unwrap();
//!     assert!(properties::share_guarantee(&tree, &x).is_empty(), "{}", policy.name());
//! }
//! let x = allocate(&tree, Policy::MinSatisfaction).unwrap();
//! let b1 = tree.find("B1").unwrap();
//! assert_eq!(x.tasks(b1).unwrap().to_string(), "1/2");
//! assert_eq!(tree.node(b1).guaranteed_share().to_string(), "1/4");
//! ```
//!
//! # References
//! - A. Bhattacharya, D. Culler, E. Friedman, A. Ghodsi, S. Shenker, I. Stoica.
//!   *Hierarchical Scheduling for Diverse Datacenter Workloads.* SoCC 2013.
//! - The Yandex lecture on resource allocation in large clusters ("Распределение ресурсов в
//!   больших кластерах", 2016, transcript): flattening, naive HDRF's starvation and
//!   min-satisfaction HDRF.
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011.

mod allocation;
pub mod error;
pub mod fill;
pub mod flat;
pub mod order;
pub mod policies;
pub mod properties;
pub mod random_trees;
pub mod simulate;
pub mod tiebreak;

pub use allocation::{render_comparison, render_tree, Computation, NodeAllocation, TreeAllocation};
pub use error::SolverError;
/// The tree is the model's: an instance with pools and its hierarchy (`leontief_solver::hierarchy`).
pub use leontief_solver::hierarchy::{NodeId, NodeSpec, NodeView, Tree};
pub use leontief_solver::{
    Guarantee, GuaranteeRule, LimitBelowGuarantee, Mode, Oversubscribed, Rules,
};
pub use policies::collapsed::collapsed;
pub use policies::hdrf::hdrf;
pub use policies::min_satisfaction::min_satisfaction;
pub use policies::naive::naive;

leontief_solver::name_enum! {
    #[unknown("policy", "policy")]
    /// A static hierarchical policy. Its names (`collapsed`, `naive`, `min-satisfaction`, `hdrf`),
    /// used on the command line and in JSON, are derived from the variants; the mechanisms
    /// `hdrf:<policy>` and the simulator's policies are generated from this list. An unknown
    /// name is `policy: unknown policy "x" (expected collapsed, naive, min-satisfaction or
    /// hdrf)`.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::Policy;
    /// assert_eq!(Policy::MinSatisfaction.name(), "min-satisfaction");
    /// assert_eq!("hdrf".parse::<Policy>().unwrap(), Policy::Hdrf);
    /// assert!("drf".parse::<Policy>().is_err());
    /// ```
    #[derive(strum::EnumCount)]
    pub enum Policy {
        /// Weighted DRF over the leaves with weights `g_leaf` ([`collapsed()`]).
        Collapsed,
        /// Naive HDRF: smallest `dominant share / weight` at every pool ([`naive()`]).
        Naive,
        /// Min-satisfaction HDRF ([`min_satisfaction()`]).
        MinSatisfaction,
        /// H-DRF of Bhattacharya et al. ([`hdrf()`]).
        Hdrf,
    }
}

impl Policy {
    /// Every policy, in the order of the enum.
    pub const ALL: [Policy; <Policy as strum::EnumCount>::COUNT] =
        leontief_solver::registry::variant_array(<Policy as strum::VariantArray>::VARIANTS);
}

/// The static allocation of `policy` on `tree`: the exact fluid limit of a fill from zero.
///
/// # Errors
/// Only [`SolverError::Mechanism`] from an internal safeguard of the fluid engine (a phase
/// budget), not expected on any valid tree.
///
/// # Complexity
/// See each policy: [`collapsed()`], [`naive()`], [`min_satisfaction()`], [`hdrf()`].
///
/// # Example
/// The H-DRF paper's example; `collapsed` differs from the tree policies.
/// ```
/// use leontief_hdrf::{allocate, Policy, Tree};
/// let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
///     {"name": "n1", "demand": [0, 1]},
///     {"name": "n2", "children": [{"name": "n21", "demand": [1, 0]}, {"name": "n22", "demand": [0, 1]}]}]}}"#).unwrap();
/// let n22 = tree.find("n22").unwrap();
/// let share = |p| allocate(&tree, p).unwrap().dominant_share(n22).to_string();
/// assert_eq!(share(Policy::Hdrf), "1/2");
/// assert_eq!(share(Policy::Collapsed), "1/3");
/// ```
pub fn allocate(tree: &Tree, policy: Policy) -> Result<TreeAllocation, SolverError> {
    if tree.has_production_fields() {
        policies::production::allocate(tree, policy)
    } else if policy == Policy::Collapsed {
        Ok(collapsed(tree))
    } else {
        fill::fluid_allocation(tree, policy)
    }
}
