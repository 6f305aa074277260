//! `leontief-solver`: exact multi-resource fair allocation on flat instances.
//!
//! - [`Rational`]: exact numbers (fixed-width fast path, big-integer fallback, never wraps);
//!   [`ExactSum`] for long sums.
//! - [`Instance`], [`User`], [`Allocation`]: the model (`docs/theory.md` §1), its pools
//!   ([`hierarchy`], §4) and its validation.
//! - Mechanisms, one module each, all behind the [`Mechanism`] trait and listed once in
//!   [`registry`]: [`drf`] (extended weighted DRF and common-level DRF by exact progressive
//!   filling), [`discrete`] (the DRF paper's Algorithm 1, task by task), [`asset`],
//!   [`ceei`] (certified) and [`lp`] (the LP formulations).
//! - [`properties`]: every property decided exactly, with witnesses (`docs/theory.md` §3).
//! - [`welfare`]: utilitarian and fair (SI + EF) welfare optima, exact and certified by
//!   [`simplex`], an LP kernel in rationals.
//!
//! # Example
//! The DRF paper's running example: 9 CPUs and 18 GB, user A needs ⟨1 CPU, 4 GB⟩ per task,
//! user B ⟨3 CPU, 1 GB⟩; DRF gives A 3 tasks and B 2.
//! ```
//! use leontief_solver::{Drf, Instance, Mechanism, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let x = Drf::extended().allocate(&paper).unwrap();
//! assert_eq!(x.tasks, vec![3.into(), 2.into()]);
//! ```
//!
//! # References
//! - A. Ghodsi, M. Zaharia, B. Hindman, A. Konwinski, S. Shenker, I. Stoica. *Dominant
//!   Resource Fairness: Fair Allocation of Multiple Resource Types.* NSDI 2011.
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness: Extensions,
//!   Limitations, and Indivisibilities.* EC 2012 (zero demands, weights, GSP).

pub mod algebraic;
pub mod asset;
pub mod ceei;
pub mod discrete;
pub mod drf;
mod error;
pub mod exact_sum;
pub mod hierarchy;
pub mod json;
pub mod lp;
mod mechanism;
mod model;
mod name_enum;
pub mod properties;
pub mod random_instances;
pub mod rational;
pub mod registry;
mod setters;
pub mod simplex;
pub mod welfare;

pub use asset::AssetFairness;
pub use discrete::{
    DiscreteDrf, DiscreteOutcome, DiscreteTieBreak, Machines, MisfitRule, TraceStep,
};
pub use drf::{Drf, FreezeRule};
pub use error::SolverError;
pub use exact_sum::ExactSum;
pub use mechanism::Mechanism;
pub use model::{
    read_number, read_numbers, saturated_resources, Allocation, Guarantee, GuaranteeRule, Instance,
    InstanceBuilder, LimitBelowGuarantee, Mode, Oversubscribed, Pool, Rules, User,
};
pub use rational::{ParseRationalError, Rational};
