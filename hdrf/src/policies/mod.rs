//! The tree policies, one file each: [`collapsed`], [`naive`], [`min_satisfaction`] and
//! [`mod@hdrf`]. Each file holds the policy's documentation, its entry point
//! ([`collapsed()`](collapsed::collapsed), [`naive()`](naive::naive), ...) and its
//! [`TreePolicy`] implementation: the formulas of its keys. What is a constant of the
//! policy (its description, normaliser and aggregation) is read from one table, the
//! provided methods of [`TreePolicy`], by [`TreePolicy::policy`].
//!
//! # What varies between policies
//! Every engine — the fluid fill ([`crate::fill`]), the task-by-task fill
//! (`tests/integration/common/discrete.rs`) and the simulator ([`crate::simulate`]) — descends from the root and,
//! at every pool, favours the active child with the smallest *key*. The policies differ in
//! three things, which are the methods of [`TreePolicy`]:
//! - what a node's share is divided by ([`TreePolicy::normaliser`]): its weight `w_v` (naive
//!   HDRF, H-DRF) or its guaranteed share `g_v` (min-satisfaction HDRF, collapsed); a leaf's
//!   key is its dominant share over it;
//! - how a pool's key is made from what is below it ([`TreePolicy::aggregation`] and
//!   [`TreePolicy::pool_key`]): from the dominant share of its whole usage (naive,
//!   min-satisfaction, which also takes the minimum with its children's keys), from H-DRF's
//!   rescaled *effective vector* ([`hdrf::effective_vector`]), or not at all: `collapsed`
//!   flattens the tree, a pool's key being its active children's smallest;
//! - in the exact fluid fill, how that key moves while the pool grows
//!   ([`TreePolicy::fluid_key`]) and where its formula changes its argument
//!   ([`TreePolicy::fluid_breakpoint`]).
//!
//! The independent fluid engine that cross-checks [`crate::fill`] (`tests/integration/plain_engine.rs`)
//! does not use this module: it has its own plain definitions of the keys.
//!
//! # Example
//! ```
//! use leontief_hdrf::policies::{Aggregation, Normaliser};
//! use leontief_hdrf::Policy;
//! let hdrf = Policy::Hdrf.tree_policy();
//! assert_eq!(hdrf.normaliser(), Normaliser::Weight);
//! assert_eq!(hdrf.aggregation(), Aggregation::Effective);
//! assert_eq!(Policy::Collapsed.tree_policy().aggregation(), Aggregation::Flattened);
//! ```

pub(crate) mod affine;
pub mod collapsed;
pub mod hdrf;
pub mod min_satisfaction;
pub mod naive;
pub mod production;

use leontief_solver::Rational;

use crate::NodeView;
use crate::Policy;

/// What a node's share is divided by in its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normaliser {
    /// The node's weight `w_v` among its siblings.
    Weight,
    /// The node's guaranteed share `g_v` of the cluster.
    GuaranteedShare,
}

impl Normaliser {
    /// The normaliser of `node`.
    pub fn of<'a>(self, node: NodeView<'a>) -> &'a Rational {
        match self {
            Normaliser::Weight => node.weight(),
            Normaliser::GuaranteedShare => node.guaranteed_share(),
        }
    }
}

/// How a pool's key is made from what is below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// Pools are transparent: the policy compares leaves across the whole tree, and a pool's
    /// key is its active children's smallest (`collapsed`: weighted DRF over the leaves).
    Flattened,
    /// From the dominant share of everything below the pool, stopped leaves included, and
    /// its active children's smallest key ([`TreePolicy::pool_key`]).
    Usage,
    /// From H-DRF's effective vector ([`hdrf::effective_vector`]): stopped children's usage
    /// as it is, active children's effective vectors rescaled to the smallest key, saturated
    /// resources ignored.
    Effective,
}

/// A pool of the fluid fill at the current instant, as a policy's key reads it: quantities
/// now and their rates per unit of the pool's own clock (see [`crate::fill`]).
#[derive(Debug, Clone, Copy)]
pub struct FluidPool<'a> {
    /// The pool.
    pub node: NodeView<'a>,
    /// Its usage, in shares of capacity.
    pub usage: &'a [Rational],
    /// The rate of `usage`.
    pub rate: &'a [Rational],
    /// `λ_p`, its active children's smallest key.
    pub lam: &'a Rational,
    /// The rate of `λ_p`: 0 while degenerate children grow, 1 otherwise.
    pub dlam: &'a Rational,
    /// H-DRF's effective vector (empty for the other policies).
    pub effective: &'a [Rational],
    /// The rate of `effective`.
    pub effective_rate: &'a [Rational],
    /// The saturated resources.
    pub saturated: &'a [bool],
}

/// A hierarchical policy: how a child is compared at a pool (see the [module docs](self)).
///
/// The engines call it for active nodes only. Implemented by the four policies of
/// [`Policy`]; [`Policy::tree_policy`] returns each one's.
pub trait TreePolicy: Sync {
    /// The policy this is.
    fn policy(&self) -> Policy;

    /// A one-line description (the mechanism `hdrf:<policy>`'s, in `--help` and the
    /// mechanism list).
    fn description(&self) -> &'static str {
        match self.policy() {
            Policy::Collapsed => {
                "weighted DRF over the leaves with weights g_leaf (users in pools, e.g. B/B1)"
            }
            Policy::Naive => "naive HDRF: smallest dominant share / weight at every pool",
            Policy::MinSatisfaction => {
                "min-satisfaction HDRF: smallest satisfaction among each child's active subtree"
            }
            Policy::Hdrf => {
                "H-DRF (Bhattacharya et al., SoCC 2013): rescaled, blocked nodes ignored"
            }
        }
    }

    /// What a node's share is divided by in its key; a leaf's key is its dominant share
    /// over [`Normaliser::of`] it.
    fn normaliser(&self) -> Normaliser {
        match self.policy() {
            Policy::Naive | Policy::Hdrf => Normaliser::Weight,
            Policy::MinSatisfaction | Policy::Collapsed => Normaliser::GuaranteedShare,
        }
    }

    /// How a pool's key is made from what is below it.
    fn aggregation(&self) -> Aggregation {
        match self.policy() {
            Policy::Collapsed => Aggregation::Flattened,
            Policy::Naive | Policy::MinSatisfaction => Aggregation::Usage,
            Policy::Hdrf => Aggregation::Effective,
        }
    }

    /// Whether a pool's key depends on which of its children are active (it does when it
    /// takes their minimum): an engine that blocks a leaf must then recompute its ancestors'.
    fn key_follows_activity(&self) -> bool {
        matches!(self.policy(), Policy::MinSatisfaction | Policy::Collapsed)
    }

    /// The key of an active pool (for [`Aggregation::Usage`] and [`Aggregation::Effective`])
    /// from `own`, its share over its normaliser — the dominant share of its usage, or of its
    /// effective vector — and, when [`TreePolicy::key_follows_activity`], `lam`, its active
    /// children's smallest key (`None` when it has none). By default `own`: the key does
    /// not look at the children's.
    fn pool_key(&self, own: Rational, _lam: Option<&Rational>) -> Rational {
        own
    }

    /// In the fluid fill: the key of an active pool other than the root and its rate per
    /// unit of the pool's own clock.
    fn fluid_key(&self, pool: &FluidPool<'_>) -> (Rational, Rational);

    /// In the fluid fill: the first own-clock step `dt > 0` at which the formula of
    /// [`TreePolicy::fluid_key`] changes its argument (a pool's dominant resource changes,
    /// a minimum changes sides), if any.
    fn fluid_breakpoint(&self, pool: &FluidPool<'_>) -> Option<Rational>;
}
