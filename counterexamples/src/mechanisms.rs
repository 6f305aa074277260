//! Every mechanism by name: the flat ones of `leontief_solver::registry` and the
//! hierarchical policies as `hdrf:<policy>` (`leontief_hdrf::flat`), over instances whose
//! user names are paths.

use leontief_hdrf::flat::Hierarchical;
use leontief_hdrf::Policy;
use leontief_solver::{registry, Mechanism, SolverError};

/// The hierarchical mechanisms: name and description.
pub const HIERARCHICAL: &[(&str, &str)] = &[
    (
        "hdrf:collapsed",
        "weighted DRF over the leaves with weights g_leaf (user names are tree paths, e.g. B/B1)",
    ),
    (
        "hdrf:naive",
        "naive HDRF: smallest dominant share / weight at every pool",
    ),
    (
        "hdrf:min-satisfaction",
        "min-satisfaction HDRF: smallest satisfaction among each child's active subtree",
    ),
    (
        "hdrf:hdrf",
        "H-DRF (Bhattacharya et al., SoCC 2013): rescaled, blocked nodes ignored",
    ),
];

/// The mechanism called `name`: a flat one, or `hdrf:<policy>`.
///
/// # Errors
/// [`SolverError::Invalid`] on `--mechanism` for an unknown name, listing the known ones.
///
/// # Example
/// ```
/// use leontief_counterexamples::mechanisms::by_name;
/// assert_eq!(by_name("hdrf:min-satisfaction").unwrap().name(), "hdrf:min-satisfaction");
/// assert_eq!(by_name("drf").unwrap().name(), "drf");
/// assert!(by_name("hdrf:fair").err().unwrap().to_string().contains("hdrf:naive"));
/// ```
pub fn by_name(name: &str) -> Result<Box<dyn Mechanism>, SolverError> {
    if let Some(policy) = name.strip_prefix("hdrf:") {
        if let Ok(p) = policy.parse::<Policy>() {
            return Ok(Box::new(Hierarchical::new(p)));
        }
    }
    registry::by_name(name).map_err(|_| {
        let known: Vec<&str> = registry::FLAT
            .iter()
            .chain(HIERARCHICAL)
            .map(|m| m.0)
            .collect();
        SolverError::invalid(
            "--mechanism",
            format!("unknown mechanism {name:?}; known: {}", known.join(", ")),
        )
    })
}
