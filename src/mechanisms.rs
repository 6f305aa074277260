//! The mechanisms the command line knows, by name (the solver's registry).

pub use leontief_counterexamples::mechanisms::HIERARCHICAL;
pub use leontief_solver::registry::FLAT;
use leontief_solver::Mechanism;

use crate::cli::CliError;

/// The mechanism called `name` (flat, or `hdrf:<policy>`).
///
/// # Example
/// ```
/// let m = leontief::mechanisms::by_name("drf").unwrap();
/// assert_eq!(m.name(), "drf");
/// assert!(leontief::mechanisms::by_name("nope").is_err());
/// ```
pub fn by_name(name: &str) -> Result<Box<dyn Mechanism>, CliError> {
    leontief_counterexamples::mechanisms::by_name(name).map_err(|e| CliError::Usage(e.to_string()))
}
