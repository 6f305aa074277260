//! The tree policies, one file each: [`collapsed`], [`naive`], [`min_satisfaction`] and
//! [`mod@hdrf`]. Each file holds the policy's documentation, with the definition of its
//! keys, and its entry point ([`collapsed()`](collapsed::collapsed),
//! [`naive()`](naive::naive), ...). The methods of [`Policy`] defined here hold what is a
//! constant of the policy (its description, normaliser and aggregation) and compute its
//! keys in the fluid fill once for all policies, from those constants and the vector the
//! fill passes in [`FluidPool::vector`] (a pool's usage, or H-DRF's effective vector).
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

use self::affine::{keep_min, max_breakpoint, max_with_slope, min_breakpoint, min_linear};
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
    /// The vector whose largest entry is the pool's own share, in shares of capacity: its
    /// usage, or under H-DRF ([`Aggregation::Effective`]) its effective vector.
    pub vector: &'a [Rational],
    /// The rate of `vector`.
    pub rate: &'a [Rational],
    /// `λ_p`, its active children's smallest key.
    pub lam: &'a Rational,
    /// The rate of `λ_p`: 0 while degenerate children grow, 1 otherwise.
    pub dlam: &'a Rational,
    /// The saturated resources (H-DRF's share ignores them).
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

    /// In the fluid fill: the pool's own share over its normaliser and its rate — the
    /// largest entry of [`FluidPool::vector`] (over the unsaturated resources under H-DRF),
    /// piecewise linear, its slope that of the entry attaining it: naive HDRF's `S_p / w_p`,
    /// min-satisfaction's `σ_p = S_p / g_p`, H-DRF's `E_p / w_p`.
    fn fluid_share(self, pool: &FluidPool<'_>) -> (Rational, Rational) {
        let per = self.normaliser().of(pool.node);
        let (share, rate) = max_with_slope(pool.vector, pool.rate, self.fluid_counted(pool));
        (share / per, rate / per)
    }

    /// Which entries of [`FluidPool::vector`] count in the pool's own share: all but the
    /// saturated resources under H-DRF, all under the other policies.
    fn fluid_counted<'p>(self, pool: &FluidPool<'p>) -> impl Fn(usize) -> bool + Copy + 'p {
        let (effective, saturated) = (self.aggregation() == Aggregation::Effective, pool.saturated);
        move |j| !(effective && saturated[j])
    }

    /// In the fluid fill: the key of an active pool other than the root and its rate per
    /// unit of the pool's own clock: its own share (the largest counted entry of
    /// [`FluidPool::vector`] over its normaliser) for naive HDRF and H-DRF, `min(σ_p, λ_p)`
    /// for min-satisfaction (while `σ_p` is the smaller term the key rises at its rate),
    /// `λ_p` for `collapsed`.
    pub fn fluid_key(self, pool: &FluidPool<'_>) -> (Rational, Rational) {
        match self {
            Policy::Collapsed => (pool.lam.clone(), pool.dlam.clone()),
            Policy::MinSatisfaction => min_linear(
                self.fluid_share(pool),
                (pool.lam.clone(), pool.dlam.clone()),
            ),
            Policy::Naive | Policy::Hdrf => self.fluid_share(pool),
        }
    }

    /// In the fluid fill: the first own-clock step `dt > 0` at which the formula of
    /// [`Policy::fluid_key`] changes its argument, if any: the entry attaining the pool's own
    /// share changes (its dominant resource, or H-DRF's effective vector's), or, for
    /// min-satisfaction, its own satisfaction and its children's minimum cross (never for
    /// `collapsed`).
    pub fn fluid_breakpoint(self, pool: &FluidPool<'_>) -> Option<Rational> {
        if self == Policy::Collapsed {
            return None;
        }
        let mut best = max_breakpoint(pool.vector, pool.rate, self.fluid_counted(pool));
        if self == Policy::MinSatisfaction {
            let (sigma, dsigma) = self.fluid_share(pool);
            if let Some(dt) = min_breakpoint((&sigma, &dsigma), (pool.lam, pool.dlam)) {
                keep_min(&mut best, dt);
            }
        }
        best
    }
}
