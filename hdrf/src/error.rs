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

/// What kind of JSON value `v` is, for error messages.
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Rejects a key of `obj` not in `known`, naming it as `prefix.key`.
pub(crate) fn reject_unknown(obj: &Map<String, Value>, prefix: &str, known: &[&str]) -> Result<()> {
    for key in obj.keys() {
        if !known.contains(&key.as_str()) {
            let field = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            return Err(SolverError::invalid(
                field,
                format!("unknown field (expected {})", known.join(", ")),
            ));
        }
    }
    Ok(())
}
