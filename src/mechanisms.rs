//! The mechanisms the command line knows, by name.

use leontief_solver::asset::AssetFairness;
use leontief_solver::ceei::Ceei;
use leontief_solver::lp::LexMaxMin;
use leontief_solver::{DiscreteDrf, Drf, Mechanism};

use crate::cli::CliError;

/// Every flat mechanism: name and a one-line description.
pub const FLAT: &[(&str, &str)] = &[
    ("drf", "extended weighted DRF by exact progressive filling"),
    (
        "drf-common-level",
        "DRF freezing everyone at the first saturation",
    ),
    (
        "discrete-drf",
        "the DRF paper's Algorithm 1 (whole tasks, stop at the first misfit)",
    ),
    ("asset", "asset fairness: equal aggregate shares"),
    (
        "ceei",
        "CEEI (Eisenberg-Gale), solved numerically and certified exactly when rational",
    ),
    (
        "drf-lp",
        "DRF as a lexicographic max-min LP sequence (microlp), recovered exactly",
    ),
    (
        "asset-lp",
        "asset fairness as an LP sequence, recovered exactly",
    ),
];

/// The mechanism called `name`.
///
/// # Example
/// ```
/// let m = leontief::mechanisms::by_name("drf").unwrap();
/// assert_eq!(m.name(), "drf");
/// assert!(leontief::mechanisms::by_name("nope").is_err());
/// ```
pub fn by_name(name: &str) -> Result<Box<dyn Mechanism>, CliError> {
    Ok(match name {
        "drf" => Box::new(Drf::extended()),
        "drf-common-level" => Box::new(Drf::common_level()),
        "discrete-drf" => Box::new(DiscreteDrf::paper()),
        "asset" => Box::new(AssetFairness),
        "ceei" => Box::new(Ceei::new()),
        "drf-lp" => Box::new(LexMaxMin::drf()),
        "asset-lp" => Box::new(LexMaxMin::asset()),
        other => {
            let known: Vec<&str> = FLAT.iter().map(|m| m.0).collect();
            return Err(CliError::Usage(format!(
                "--mechanism: unknown mechanism {other:?}; known: {}",
                known.join(", ")
            )));
        }
    })
}
