//! `leontief`: exact multi-resource and hierarchical fair allocation.
//!
//! This package is the command-line tool and a thin facade over the workspace's crates:
//! - [`solver`] (`leontief-solver`): exact numbers, the flat model, the mechanisms;
//! - [`hdrf`] (`leontief-hdrf`): weighted trees and hierarchical policies;
//! - [`counterexamples`] (`leontief-counterexamples`): generators and the search driver.
//!
//! The command line lives in [`commands`]: one module per subcommand, each owning its flags
//! and its `run`, the shared flag groups in [`commands::flags`]; `src/main.rs` only
//! dispatches. [`workers`] sets up the thread pool and the progress display, [`cli`] reads
//! instances and holds the error type, [`render`] the JSON and tables, [`output`] the
//! streaming JSON and CSV writers and the rounded decimals, [`reproduce`] the
//! sources' worked examples.
//!
//! # Example
//! The DRF paper's running example through the facade:
//! ```
//! use leontief::solver::{Drf, Instance, Mechanism, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! assert_eq!(Drf::extended().allocate(&paper).unwrap().tasks, vec![3.into(), 2.into()]);
//! ```

pub use leontief_counterexamples as counterexamples;
pub use leontief_hdrf as hdrf;
pub use leontief_solver as solver;

pub mod cli;
pub mod commands;
pub mod import;
pub mod output;
pub mod plot;
pub mod render;
pub mod reproduce;
pub mod workers;

/// The command-line guide's Rust example, compiled and run as a doc test (kept in sync by
/// `cargo test`).
#[doc = include_str!("../docs/guide.md")]
#[cfg(doctest)]
pub struct GuideDoctests;
