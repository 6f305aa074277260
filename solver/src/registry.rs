//! The flat mechanisms by name — the one table the command line, the search driver and the
//! counterexample corpus read — and the helper that turns an unknown enumeration name into
//! an error listing the known ones.
//!
//! The hierarchical mechanisms (`hdrf:<policy>`) are described by the same [`Descriptor`]
//! and generated from the policy list in `leontief_counterexamples::mechanisms`, which also
//! holds the one `by_name` over both.

use std::str::FromStr;

use strum::VariantNames;

use crate::asset::AssetFairness;
use crate::ceei::Ceei;
use crate::lp::LexMaxMin;
use crate::{DiscreteDrf, Drf, Mechanism, SolverError};

/// How a mechanism's answer is computed (docs/theory.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::Display, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Exactness {
    /// Exact rational arithmetic throughout.
    Exact,
    /// Floating-point candidates, from which the exact answer is recovered and verified: the
    /// answer, when there is one, is exact.
    Certified,
    /// A floating-point answer, certified exactly only when the optimum is rational.
    Numeric,
}

/// Whether a mechanism allocates to a flat list of users or over a weighted tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Users side by side (weights, caps).
    Flat,
    /// A hierarchical policy, named `hdrf:<policy>`, over an instance's pools.
    Hierarchical,
}

/// One mechanism: its name, what it is, how exact it is, and how to build it.
pub struct Descriptor {
    /// The name on the command line, in JSON and in the corpus, e.g. `drf`, `hdrf:naive`.
    pub name: &'static str,
    /// A one-line description.
    pub description: &'static str,
    /// How its answer is computed.
    pub exactness: Exactness,
    /// Flat or hierarchical.
    pub shape: Shape,
    construct: Box<dyn Fn() -> Box<dyn Mechanism> + Send + Sync>,
}

impl Descriptor {
    /// A descriptor; `construct` builds the mechanism (cheaply: it is called per lookup).
    pub fn new(
        name: &'static str,
        description: &'static str,
        exactness: Exactness,
        shape: Shape,
        construct: impl Fn() -> Box<dyn Mechanism> + Send + Sync + 'static,
    ) -> Self {
        Descriptor {
            name,
            description,
            exactness,
            shape,
            construct: Box::new(construct),
        }
    }

    /// The mechanism.
    pub fn build(&self) -> Box<dyn Mechanism> {
        (self.construct)()
    }
}

impl std::fmt::Debug for Descriptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Descriptor")
            .field("name", &self.name)
            .field("exactness", &self.exactness)
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

fn flat(
    name: &'static str,
    description: &'static str,
    exactness: Exactness,
    construct: fn() -> Box<dyn Mechanism>,
) -> Descriptor {
    Descriptor::new(name, description, exactness, Shape::Flat, construct)
}

static FLAT_TABLE: std::sync::LazyLock<Vec<Descriptor>> = std::sync::LazyLock::new(|| {
    use Exactness::*;
    vec![
        flat(
            "drf",
            "extended weighted DRF by exact progressive filling (zero demands, weights, caps)",
            Exact,
            || Box::new(Drf::extended()),
        ),
        flat(
            "drf-common-level",
            "DRF freezing everyone at the first saturation",
            Exact,
            || Box::new(Drf::common_level()),
        ),
        flat(
            "discrete-drf",
            "the DRF paper's Algorithm 1 (whole tasks, stop at the first misfit)",
            Exact,
            || Box::new(DiscreteDrf::paper()),
        ),
        flat(
            "asset",
            "asset fairness: equal aggregate shares (progressive filling)",
            Exact,
            || Box::new(AssetFairness),
        ),
        flat(
            "ceei",
            "CEEI (Eisenberg-Gale), solved numerically and certified exactly when rational",
            Numeric,
            || Box::new(Ceei::new()),
        ),
        flat(
            "drf-lp",
            "DRF as a lexicographic max-min LP sequence (microlp), recovered exactly",
            Certified,
            || Box::new(LexMaxMin::drf()),
        ),
        flat(
            "asset-lp",
            "asset fairness as an LP sequence, recovered exactly",
            Certified,
            || Box::new(LexMaxMin::asset()),
        ),
    ]
});

/// Every flat mechanism, in the order the command line lists them. (The one lookup by name,
/// over these and the hierarchical ones, is `leontief_counterexamples::mechanisms::by_name`.)
///
/// # Example
/// The DRF paper's example through the table: A ⟨1, 4⟩ and B ⟨3, 1⟩ on ⟨9, 18⟩ get 3 and 2
/// tasks.
/// ```
/// use leontief_solver::registry::{flat_mechanisms, Exactness};
/// use leontief_solver::{Instance, User};
/// let drf = &flat_mechanisms()[0];
/// assert_eq!((drf.name, drf.exactness), ("drf", Exactness::Exact));
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert_eq!(drf.build().allocate(&paper).unwrap().tasks, vec![3.into(), 2.into()]);
/// ```
pub fn flat_mechanisms() -> &'static [Descriptor] {
    &FLAT_TABLE
}

/// `a, b or c`: a list of names for an error message.
///
/// # Example
/// ```
/// use leontief_solver::registry::one_of;
/// assert_eq!(one_of(&["a", "b", "c"]), "a, b or c");
/// assert_eq!(one_of(&["a"]), "a");
/// ```
pub fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Parses `text` as a variant of the enumeration `T` by its derived name, or fails on `field`
/// with `unknown WHAT "text" (expected a, b or c)`, the names taken from `T` itself.
///
/// # Example
/// ```
/// use leontief_solver::{properties::Property, registry::parse_name};
/// assert_eq!(parse_name::<Property>("--property", "property", "ef").unwrap(), Property::Ef);
/// let err = parse_name::<Property>("--property", "property", "fair").unwrap_err();
/// assert!(err.to_string().starts_with("--property: unknown property \"fair\" (expected si, ef,"));
/// ```
pub fn parse_name<T: FromStr + VariantNames>(
    field: &str,
    what: &str,
    text: &str,
) -> Result<T, SolverError> {
    text.parse()
        .map_err(|_| unknown_name::<T>(field, what, text))
}

/// The variants of a `strum::VariantArray` enumeration as an array of its `EnumCount` length,
/// in declaration order: the body of the enumerations' `ALL` constants (a `const fn`, as the
/// constants are).
///
/// # Example
/// ```
/// use leontief_solver::{properties::Property, registry::variant_array};
/// const ALL: [Property; 2] = variant_array(&[Property::Si, Property::Ef]);
/// assert_eq!(ALL, [Property::Si, Property::Ef]);
/// ```
///
/// # Panics
/// At compile time in a constant, when `variants` is empty or its length is not `N`.
pub const fn variant_array<T: Copy, const N: usize>(variants: &[T]) -> [T; N] {
    assert!(variants.len() == N, "one entry per variant");
    let mut all = [variants[0]; N];
    let mut i = 1;
    while i < N {
        all[i] = variants[i];
        i += 1;
    }
    all
}

/// The error of [`parse_name`]: `unknown WHAT "text" (expected a, b or c)`.
pub fn unknown_name<T: VariantNames>(field: &str, what: &str, text: &str) -> SolverError {
    SolverError::invalid(
        field,
        format!("unknown {what} {text:?} (expected {})", one_of(T::VARIANTS)),
    )
}
