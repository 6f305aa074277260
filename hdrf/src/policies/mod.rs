//! The tree policies, one file each: [`collapsed`], [`naive`], [`min_satisfaction`] and
//! [`mod@hdrf`]. Each file holds the policy's documentation, its entry point
//! ([`collapsed()`](collapsed::collapsed), [`naive()`](naive::naive), ...) and the
//! formulas of its keys. The methods of [`Policy`] defined here dispatch to them, and hold
//! what is a constant of the policy (its description, normaliser and aggregation).
//!
//! # What varies between policies
//! Every engine — the fluid fill ([`crate::fill`]), the task-by-task fill
//! (`tests/integration/common/discrete.rs`) and the simulator ([`crate::simulate`]) — descends from the root and,
//! at every pool, favours the active child with the smallest *key*. The policies differ in
//! three things, which are these methods of [`Policy`]:
//! - what a node's share is divided by ([`Policy::normaliser`]): its weight `w_v` (naive
//!   HDRF, H-DRF) or its guaranteed share `g_v` (min-satisfaction HDRF, collapsed); a leaf's
//!   key is its dominant share over it;
//! - how a pool's key is made from what is below it ([`Policy::aggregation`] and
//!   [`Policy::pool_key`]): from the dominant share of its whole usage (naive,
//!   min-satisfaction, which also takes the minimum with its children's keys), from H-DRF's
//!   rescaled *effective vector* ([`hdrf::effective_vector`]), or not at all: `collapsed`
//!   flattens the tree, a pool's key being its active children's smallest;
//! - in the exact fluid fill, how that key moves while the pool grows
//!   ([`Policy::fluid_key`]) and where its formula changes its argument
//!   ([`Policy::fluid_breakpoint`]).
//!
//! The independent fluid engine that cross-checks [`crate::fill`] (`tests/integration/plain_engine.rs`)
//! does not use this module: it has its own plain definitions of the keys.
//!
//! # Example
//! ```
//! use leontief_hdrf::policies::{Aggregation, Normaliser};
//! use leontief_hdrf::Policy;
//! assert_eq!(Policy::Hdrf.normaliser(), Normaliser::Weight);
//! assert_eq!(Policy::Hdrf.aggregation(), Aggregation::Effective);
//! assert_eq!(Policy::Collapsed.aggregation(), Aggregation::Flattened);
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
    /// its active children's smallest key ([`Policy::pool_key`]).
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

/// How a child is compared at a pool under each policy (see the [module docs](self)); the
/// engines call these for active nodes only.
impl Policy {
    /// A one-line description (the mechanism `hdrf:<policy>`'s, in `--help` and the
    /// mechanism list).
    pub fn description(self) -> &'static str {
        match self {
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
    pub fn normaliser(self) -> Normaliser {
        match self {
            Policy::Naive | Policy::Hdrf => Normaliser::Weight,
            Policy::MinSatisfaction | Policy::Collapsed => Normaliser::GuaranteedShare,
        }
    }

    /// How a pool's key is made from what is below it.
    pub fn aggregation(self) -> Aggregation {
        match self {
            Policy::Collapsed => Aggregation::Flattened,
            Policy::Naive | Policy::MinSatisfaction => Aggregation::Usage,
            Policy::Hdrf => Aggregation::Effective,
        }
    }

    /// Whether a pool's key depends on which of its children are active (it does when it
    /// takes their minimum): an engine that blocks a leaf must then recompute its ancestors'.
    pub fn key_follows_activity(self) -> bool {
        matches!(self, Policy::MinSatisfaction | Policy::Collapsed)
    }

    /// The key of an active pool (for [`Aggregation::Usage`] and [`Aggregation::Effective`])
    /// from `own`, its share over its normaliser — the dominant share of its usage, or of its
    /// effective vector — and, when [`Policy::key_follows_activity`], `lam`, its active
    /// children's smallest key (`None` when it has none): `collapsed` takes `lam`,
    /// min-satisfaction the smaller of the two, the others `own` (the key does not look at
    /// the children's).
    pub fn pool_key(self, own: Rational, lam: Option<&Rational>) -> Rational {
        match (self, lam) {
            (Policy::Collapsed, Some(lam)) => lam.clone(),
            (Policy::MinSatisfaction, Some(lam)) if lam < &own => lam.clone(),
            _ => own,
        }
    }

    /// In the fluid fill: the key of an active pool other than the root and its rate per
    /// unit of the pool's own clock (`collapsed`: `λ_p` and its rate).
    pub fn fluid_key(self, pool: &FluidPool<'_>) -> (Rational, Rational) {
        match self {
            Policy::Collapsed => (pool.lam.clone(), pool.dlam.clone()),
            Policy::Naive => naive::fluid_key(pool),
            Policy::MinSatisfaction => min_satisfaction::fluid_key(pool),
            Policy::Hdrf => hdrf::fluid_key(pool),
        }
    }

    /// In the fluid fill: the first own-clock step `dt > 0` at which the formula of
    /// [`Policy::fluid_key`] changes its argument (a pool's dominant resource changes,
    /// a minimum changes sides), if any (never for `collapsed`).
    pub fn fluid_breakpoint(self, pool: &FluidPool<'_>) -> Option<Rational> {
        match self {
            Policy::Collapsed => None,
            Policy::Naive => naive::fluid_breakpoint(pool),
            Policy::MinSatisfaction => min_satisfaction::fluid_breakpoint(pool),
            Policy::Hdrf => hdrf::fluid_breakpoint(pool),
        }
    }
}
