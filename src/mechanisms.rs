//! The mechanisms the command line knows, by name: one table
//! ([`leontief_counterexamples::mechanisms`]), flat and hierarchical.

pub use leontief_counterexamples::mechanisms::{all, descriptor};
use leontief_solver::Mechanism;

use crate::cli::CliError;

/// The mechanism called `name` (flat, or `hdrf:<policy>`).
///
/// # Example
/// ```
/// let m = leontief::mechanisms::by_name("drf").unwrap();
/// assert_eq!(m.name(), "drf");
/// let err = leontief::mechanisms::by_name("nope").err().unwrap().to_string();
/// assert!(err.starts_with("--mechanism: unknown mechanism \"nope\"; known: drf, "));
/// ```
pub fn by_name(name: &str) -> Result<Box<dyn Mechanism>, CliError> {
    leontief_counterexamples::mechanisms::by_name(name).map_err(|e| CliError::Usage(e.to_string()))
}
