//! Errors: this crate reuses [`SolverError`] from `leontief-solver`.
//!
//! Why not a crate-specific enum: a hierarchical input fails in the same ways a flat one does
//! (unreadable JSON, an invalid field named by its path), and the command line maps one error
//! type to one set of exit codes. The variants used here:
//! - [`SolverError::Json`]: the text is not JSON;
//! - [`SolverError::Invalid`]: a field is invalid; `field` is its path in the input, e.g.
//!   `tree.children[1].children[0].demand`;
//! - [`SolverError::Mechanism`]: a policy could not finish on a valid tree (an internal
//!   safeguard; not expected to happen).

pub use leontief_solver::SolverError;

/// `Result` with [`SolverError`].
pub type Result<T> = std::result::Result<T, SolverError>;

use serde_json::{Map, Value};

pub(crate) use leontief_solver::json::kind;

/// Rejects a key of `obj` not in `known`, naming it as `prefix.key` (the shared reader,
/// listing the known fields).
pub(crate) fn reject_unknown(obj: &Map<String, Value>, prefix: &str, known: &[&str]) -> Result<()> {
    leontief_solver::json::reject_unknown(obj, prefix, known, &known.join(", "))
}
