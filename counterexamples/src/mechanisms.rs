//! Every mechanism by name: the flat ones of `leontief_solver::registry` and the
//! hierarchical policies as `hdrf:<policy>` (`leontief_hdrf::flat`), over instances with
//! pools — one table, from which the command line takes its accepted values,
//! its help and its error messages.

use std::sync::LazyLock;

use leontief_hdrf::flat::Hierarchical;
use leontief_hdrf::Policy;
use leontief_solver::registry::{self, Descriptor, Engine, Exactness, Shape};
use leontief_solver::{Mechanism, SolverError};

/// The hierarchical descriptor of `policy`, named `hdrf:<policy>`.
fn hierarchical(policy: Policy) -> Descriptor {
    // Built once for the process (see ALL): the few names are leaked once, not per lookup.
    let name: &'static str = Box::leak(format!("hdrf:{policy}").into_boxed_str());
    Descriptor {
        name,
        description: policy.description(),
        exactness: Exactness::Exact,
        shape: Shape::Hierarchical,
        proved: &[],
        engine: Engine::plain(move || Box::new(Hierarchical::new(policy))),
    }
}

static HIERARCHICAL: LazyLock<Vec<Descriptor>> =
    LazyLock::new(|| Policy::ALL.into_iter().map(hierarchical).collect());

static ALL: LazyLock<Vec<&'static Descriptor>> = LazyLock::new(|| {
    registry::flat_mechanisms()
        .iter()
        .chain(HIERARCHICAL.iter())
        .collect()
});

/// Every mechanism: the flat ones, then the hierarchical ones.
///
/// # Example
/// ```
/// use leontief_counterexamples::mechanisms::all;
/// let names: Vec<&str> = all().iter().map(|d| d.name).collect();
/// assert_eq!(names[0], "drf");
/// assert!(names.contains(&"hdrf:min-satisfaction"));
/// ```
pub fn all() -> &'static [&'static Descriptor] {
    &ALL
}

/// The descriptor called `name`: a flat one, or `hdrf:<policy>`.
///
/// # Errors
/// [`SolverError::Invalid`] on `--mechanism` for an unknown name, listing the known ones:
/// `unknown mechanism "x"; known: drf, ..., hdrf:hdrf`.
pub fn descriptor(name: &str) -> Result<&'static Descriptor, SolverError> {
    all()
        .iter()
        .copied()
        .find(|d| d.name == name)
        .ok_or_else(|| {
            let known: Vec<&str> = all().iter().map(|d| d.name).collect();
            SolverError::invalid(
                "--mechanism",
                format!("unknown mechanism {name:?}; known: {}", known.join(", ")),
            )
        })
}

/// The mechanism called `name`: a flat one, or `hdrf:<policy>`.
///
/// # Errors
/// As [`descriptor`].
///
/// # Example
/// ```
/// use leontief_counterexamples::mechanisms::by_name;
/// assert_eq!(by_name("hdrf:min-satisfaction").unwrap().name(), "hdrf:min-satisfaction");
/// assert_eq!(by_name("drf").unwrap().name(), "drf");
/// assert!(by_name("hdrf:fair").err().unwrap().to_string().contains("hdrf:naive"));
/// ```
pub fn by_name(name: &str) -> Result<Box<dyn Mechanism>, SolverError> {
    descriptor(name).map(Descriptor::build)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_descriptor_builds_the_mechanism_of_its_name() {
        for d in all() {
            assert_eq!(d.build().name(), d.name);
        }
        assert_eq!(
            all().len(),
            registry::flat_mechanisms().len() + Policy::ALL.len()
        );
    }
}
