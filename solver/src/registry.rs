//! The flat mechanisms by name: the names the command line, the search driver and the
//! counterexample corpus use.

use crate::asset::AssetFairness;
use crate::ceei::Ceei;
use crate::lp::LexMaxMin;
use crate::{DiscreteDrf, Drf, Mechanism, SolverError};

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

/// The flat mechanism called `name` (one of [`FLAT`]).
///
/// # Errors
/// [`SolverError::Invalid`] on `--mechanism` for an unknown name, listing the known ones.
///
/// # Example
/// The DRF paper's example by name: A ⟨1, 4⟩ and B ⟨3, 1⟩ on ⟨9, 18⟩ get 3 and 2 tasks.
/// ```
/// use leontief_solver::{registry::by_name, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let drf = by_name("drf").unwrap();
/// assert_eq!(drf.allocate(&paper).unwrap().tasks, vec![3.into(), 2.into()]);
/// assert!(by_name("nope").is_err());
/// ```
pub fn by_name(name: &str) -> Result<Box<dyn Mechanism>, SolverError> {
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
            return Err(SolverError::invalid(
                "--mechanism",
                format!("unknown mechanism {other:?}; known: {}", known.join(", ")),
            ));
        }
    })
}
