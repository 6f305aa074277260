//! Asset fairness: equalise the users' *aggregate* shares, `x_i Σ_j d_ij / R_j`, by exact
//! progressive filling.
//!
//! The DRF paper's foil (§2.2): it treats all resources as one currency, so a user whose
//! demand is spread thinly over many resources is charged for all of them. It violates the
//! sharing incentive and bottleneck fairness (the paper's Theorems 1 and 2), which is why it
//! is here: to be compared and checked against DRF.
//!
//! With weights the share is divided by `w_i`; with per-resource weights the aggregate share
//! of a task is `Σ_j d_ij / (R_j w_ij)` (each resource counted in the user's own weight, as
//! the DRF paper's §4.3 does for the dominant share). Zero demands, caps and the freeze rule
//! are those of [`crate::drf`]: a saturated resource freezes only its demanders.
//!
//! # Exact answers at scale
//! Every user frozen by a saturation holds `λ_k / a_i` tasks, `a_i` its aggregate share per
//! task and `λ_k` the level of one of at most `m` saturation events; the levels' denominators
//! grow with the number of distinct aggregate shares, so writing every user's fraction out is
//! what makes the exact answer large. [`fill_compact`] keeps the answer in that
//! *level-coefficient* form ([`CompactFilling`]: the levels and one small coefficient
//! `1 / a_i` per user) and decides the events from fixed-point intervals, exactly where they
//! overlap (see [`fill_compact`] and `docs/theory.md` §2.4).
//!
//! # Complexity
//! `O(n·m + n log n)` fixed-point operations for the events ([`fill_compact`]); writing the
//! answer out exactly ([`CompactFilling::expand`]) costs balanced sums of the `n·m` rates and
//! one product per user with the (large) levels.
//!
//! # Example
//! The DRF paper's running example (9 CPU, 18 GB; A ⟨1, 4⟩, B ⟨3, 1⟩): asset fairness gives
//! A 63/25 tasks and B 54/25 (paper §2.2); both aggregate shares are 21/25.
//! ```
//! use leontief_solver::{asset::AssetFairness, Instance, Mechanism, Rational, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let x = AssetFairness.allocate(&paper).unwrap();
//! assert_eq!(x.tasks, vec![Rational::new(63, 25).unwrap(), Rational::new(54, 25).unwrap()]);
//! ```
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011, §2.2 (asset fairness) and
//!   §5 (its failures of sharing incentive and bottleneck fairness).

mod compact;
mod json;

pub use compact::{
    fill_compact, CompactEvent, CompactFilling, CompactTasks, EventLevel, Interval, Saturation,
};

use crate::drf::{progressive_filling_by, Filling};
use crate::{Allocation, FreezeRule, Instance, Mechanism, Rational, SolverError};

/// Instances with at most this many users are filled by the plain exact progressive filling,
/// which is faster than the interval machinery when the numbers stay small.
const PLAIN_FILLING_USERS: usize = 32;

/// The weighted aggregate share of one task of user `i`:
/// `Σ_j d_ij / (R_j w_ij)` (with a scalar weight, `Σ_j (d_ij / R_j) / w_i`).
///
/// # Example
/// ```
/// use leontief_solver::{asset::asset_task_share, Instance, Rational, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1]).weight(2)]).unwrap();
/// assert_eq!(asset_task_share(&paper, 0), Rational::new(1, 3).unwrap()); // 1/9 + 4/18
/// assert_eq!(asset_task_share(&paper, 1), Rational::new(7, 36).unwrap()); // (3/9 + 1/18) / 2
/// ```
pub fn asset_task_share(instance: &Instance, i: usize) -> Rational {
    let u = &instance.users()[i];
    u.demand
        .iter()
        .zip(instance.capacity())
        .enumerate()
        .filter(|(_, (d, _))| !d.is_zero())
        .map(|(j, (d, r))| d / &(r * u.weight_on(j)))
        .sum()
}

/// Asset fairness as a [`Mechanism`] (`asset`). See the [module docs](self).
///
/// # Example
/// The paper's sharing-incentive counterexample (Theorem 1): on (30, 30), user 1 ⟨1, 3⟩ gets
/// 6 tasks, less than the 10 it would get from half of each resource.
/// ```
/// use leontief_solver::{asset::AssetFairness, Instance, Mechanism, User};
/// let inst = Instance::new(vec![30.into(), 30.into()],
///     vec![User::new("1", [1, 3]), User::new("2", [1, 1])]).unwrap();
/// assert_eq!(AssetFairness.allocate(&inst).unwrap().tasks, vec![6.into(), 12.into()]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AssetFairness;

impl AssetFairness {
    /// The full progressive-filling outcome on aggregate shares (levels, events).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{asset::AssetFairness, Instance, User};
    /// let paper = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// assert_eq!(AssetFairness.fill(&paper).levels[0].to_string(), "21/25");
    /// ```
    pub fn fill(&self, instance: &Instance) -> Filling {
        if instance.num_users() <= PLAIN_FILLING_USERS {
            self.fill_plain(instance)
        } else {
            fill_compact(instance).expand(instance)
        }
    }

    /// The same outcome by exact progressive filling on rationals
    /// ([`progressive_filling_by`] with the aggregate shares): the reference the compact
    /// filling is tested against.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{asset::AssetFairness, Instance, User};
    /// let paper = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// assert_eq!(AssetFairness.fill_plain(&paper), AssetFairness.fill(&paper));
    /// ```
    pub fn fill_plain(&self, instance: &Instance) -> Filling {
        let shares = (0..instance.num_users())
            .map(|i| asset_task_share(instance, i))
            .collect();
        progressive_filling_by(instance, shares, FreezeRule::DemandersOnly)
    }
}

impl Mechanism for AssetFairness {
    fn name(&self) -> &str {
        "asset"
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn allocate(&self, instance: &Instance) -> Result<Allocation, SolverError> {
        Ok(Allocation::new(self.fill(instance).tasks))
    }
}
