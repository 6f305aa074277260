//! The crate's error type.

use crate::rational::ParseRationalError;

/// What can go wrong in `leontief-solver`. Solver *outcomes* (a mechanism that cannot certify,
/// a property that fails) are values, not errors; these are bad inputs and internal faults.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolverError {
    /// The input is not valid JSON.
    #[error("unreadable JSON at line {line}, column {column}: {message}")]
    Json {
        /// 1-based line of the fault.
        line: usize,
        /// 1-based column of the fault.
        column: usize,
        /// What the JSON reader said.
        message: String,
    },
    /// A field of the input is invalid; `field` is its path, e.g. `users[1].demand`.
    #[error("{field}: {reason}")]
    Invalid {
        /// Path of the field, e.g. `users[1].demand[0]`.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A mechanism could not produce an answer on a valid instance.
    #[error("{mechanism}: {reason}")]
    Mechanism {
        /// The mechanism's name.
        mechanism: String,
        /// Why.
        reason: String,
    },
}

impl SolverError {
    /// An [`SolverError::Invalid`] for `field`.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        SolverError::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// An [`SolverError::Invalid`] for a number that could not be read.
    pub fn number(field: impl Into<String>, err: ParseRationalError) -> Self {
        SolverError::invalid(field, err.to_string())
    }

    /// From a `serde_json` syntax error.
    pub fn json(err: &serde_json::Error) -> Self {
        let (line, column) = (err.line(), err.column());
        // serde_json appends the position to its message; ours already states it.
        let message = err.to_string();
        let message = message
            .strip_suffix(&format!(" at line {line} column {column}"))
            .unwrap_or(&message)
            .to_string();
        SolverError::Json {
            line,
            column,
            message,
        }
    }
}
