//! The flat mechanisms by name — the one table the command line, the search driver and the
//! counterexample corpus read — and the helper that turns an unknown enumeration name into
//! an error listing the known ones.
//!
//! The hierarchical mechanisms (`hdrf:<policy>`) are described by the same [`Descriptor`]
//! and generated from the policy list in `leontief_counterexamples::mechanisms`, which also
//! holds the one `by_name` over both.

use strum::VariantNames;

use std::sync::Arc;

use crate::asset::AssetFairness;
use crate::ceei::Ceei;
use crate::lp::LexMaxMin;
use crate::properties::Property;
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

/// How a mechanism is run, and what `solve` prints beside its allocation: the one place
/// that says which mechanism has a trace, options or an answer form of its own.
#[derive(Clone)]
pub enum Engine {
    /// Progressive filling (DRF under either freeze rule): its events are the trace.
    Filling(Drf),
    /// Asset fairness by progressive filling: its events are the trace, and its answer has
    /// a compact level-coefficient form.
    Asset,
    /// CEEI: numeric, certified when rational, with a JSON of its own.
    Ceei(Ceei),
    /// An LP sequence recovered exactly: its stage count and float error are reported.
    Lp(LexMaxMin),
    /// Whole tasks: the options `--misfit`, `--machines`, `--tie-break`; its picks are the
    /// trace.
    Discrete(DiscreteDrf),
    /// Any other mechanism: its allocation only.
    Plain(Arc<dyn Fn() -> Box<dyn Mechanism> + Send + Sync>),
}

impl Engine {
    /// A mechanism with no trace and no options of its own.
    pub fn plain(construct: impl Fn() -> Box<dyn Mechanism> + Send + Sync + 'static) -> Self {
        Engine::Plain(Arc::new(construct))
    }

    /// The mechanism.
    pub fn build(&self) -> Box<dyn Mechanism> {
        match self {
            Engine::Filling(drf) => Box::new(*drf),
            Engine::Asset => Box::new(AssetFairness),
            Engine::Ceei(ceei) => Box::new(*ceei),
            Engine::Lp(lp) => Box::new(*lp),
            Engine::Discrete(discrete) => Box::new(discrete.clone()),
            Engine::Plain(construct) => construct(),
        }
    }

    /// Whether `solve --trace` has steps to show.
    pub fn has_trace(&self) -> bool {
        matches!(
            self,
            Engine::Filling(_) | Engine::Asset | Engine::Discrete(_)
        )
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Engine::Filling(drf) => f.debug_tuple("Filling").field(drf).finish(),
            Engine::Asset => f.write_str("Asset"),
            Engine::Ceei(ceei) => f.debug_tuple("Ceei").field(ceei).finish(),
            Engine::Lp(lp) => f.debug_tuple("Lp").field(lp).finish(),
            Engine::Discrete(d) => f.debug_tuple("Discrete").field(d).finish(),
            Engine::Plain(_) => f.write_str("Plain"),
        }
    }
}

/// One mechanism: everything the rest of the code asks about it — its name, what it is,
/// how exact it is, the properties it is proved to have, and how it is run.
#[derive(Debug)]
pub struct Descriptor {
    /// The name on the command line, in JSON and in the corpus, e.g. `drf`, `hdrf:naive`.
    pub name: &'static str,
    /// A one-line description.
    pub description: &'static str,
    /// How its answer is computed.
    pub exactness: Exactness,
    /// Flat or hierarchical.
    pub shape: Shape,
    /// The properties it is proved to have (docs/theory.md §3.11, the DRF paper's Table 2),
    /// so that a metric measuring their violation does not run on it. Only the facts the
    /// metrics ask about (envy-freeness, sharing incentive) are listed.
    pub proved: &'static [Property],
    /// How it is run, and what `solve` prints beside its answer.
    pub engine: Engine,
}

impl Descriptor {
    /// The mechanism.
    pub fn build(&self) -> Box<dyn Mechanism> {
        self.engine.build()
    }

    /// Whether it is proved to have `property`.
    pub fn is_proved(&self, property: Property) -> bool {
        self.proved.contains(&property)
    }
}

/// The flat mechanisms, one row each (a new one is one more row).
static FLAT_TABLE: std::sync::LazyLock<Vec<Descriptor>> = std::sync::LazyLock::new(|| {
    use Exactness::*;
    use Property::{Ef, Si};
    fn flat(
        name: &'static str,
        description: &'static str,
        exactness: Exactness,
        proved: &'static [Property],
        engine: Engine,
    ) -> Descriptor {
        Descriptor {
            name,
            description,
            exactness,
            shape: Shape::Flat,
            proved,
            engine,
        }
    }
    vec![
        flat(
            "drf",
            "extended weighted DRF by exact progressive filling (zero demands, weights, caps)",
            Exact,
            &[Ef, Si],
            Engine::Filling(Drf::extended()),
        ),
        flat(
            "drf-common-level",
            "DRF freezing everyone at the first saturation",
            Exact,
            &[],
            Engine::Filling(Drf::common_level()),
        ),
        flat(
            "discrete-drf",
            "the DRF paper's Algorithm 1 (whole tasks, stop at the first misfit)",
            Exact,
            &[],
            Engine::Discrete(DiscreteDrf::paper()),
        ),
        flat(
            "asset",
            "asset fairness: equal aggregate shares (progressive filling)",
            Exact,
            &[Ef],
            Engine::Asset,
        ),
        flat(
            "ceei",
            "CEEI (Eisenberg-Gale), solved numerically and certified exactly when rational",
            Numeric,
            &[Ef, Si],
            Engine::Ceei(Ceei::new()),
        ),
        flat(
            "drf-lp",
            "DRF as a lexicographic max-min LP sequence (microlp), recovered exactly",
            Certified,
            &[Ef, Si],
            Engine::Lp(LexMaxMin::drf()),
        ),
        flat(
            "asset-lp",
            "asset fairness as an LP sequence, recovered exactly",
            Certified,
            &[Ef],
            Engine::Lp(LexMaxMin::asset()),
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

/// The error of a name that parses as no variant of the enumeration `T`, on `field`:
/// `unknown WHAT "text" (expected a, b or c)`, the names taken from `T` itself.
///
/// # Example
/// ```
/// use leontief_solver::{properties::Property, registry::unknown_name};
/// let err = unknown_name::<Property>("--property", "property", "fair");
/// assert!(err.to_string().starts_with("--property: unknown property \"fair\" (expected si, ef,"));
/// ```
pub fn unknown_name<T: VariantNames>(field: &str, what: &str, text: &str) -> SolverError {
    SolverError::invalid(
        field,
        format!("unknown {what} {text:?} (expected {})", one_of(T::VARIANTS)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::properties::{check, Scenario, Witness};
    use crate::{Instance, Rational, User};

    /// The DRF paper's example: ⟨9, 18⟩, A ⟨1, 4⟩, B ⟨3, 1⟩.
    fn paper() -> Instance {
        Instance::new(
            vec![9.into(), 18.into()],
            vec![User::new("A", [1, 4]), User::new("B", [3, 1])],
        )
        .unwrap()
    }

    /// ⟨1, 1⟩, A ⟨1, 1⟩, B ⟨2, 1⟩ / 2 = ⟨1, 1/2⟩. Asset fairness equalizes aggregate shares:
    /// a task of A uses 1 + 1 = 2, one of B 1 + 1/2 = 3/2, so 2a = 3b/2, b = 4a/3; the CPU
    /// binds first (a + 4a/3 = 1, a = 3/7; memory a + 2a/3 = 5/7 ≤ 1). A's equal split
    /// ⟨1/2, 1/2⟩ gives it 1/2 > 3/7 tasks: asset fairness fails the sharing incentive. DRF
    /// equalizes dominant shares, a = b, CPU 2a = 1: A gets 1/2, its split exactly.
    fn asset_below_the_split() -> Instance {
        Instance::new(
            vec![1.into(), 1.into()],
            vec![
                User::new("A", [1, 1]),
                User::new("B", [Rational::ONE, Rational::new(1, 2).unwrap()]),
            ],
        )
        .unwrap()
    }

    /// Three users, one resource each dominant: ⟨10, 10⟩, A ⟨1, 2⟩, B ⟨2, 1⟩, C ⟨1, 1⟩.
    fn three_users() -> Instance {
        Instance::new(
            vec![10.into(), 10.into()],
            vec![
                User::new("A", [1, 2]),
                User::new("B", [2, 1]),
                User::new("C", [1, 1]),
            ],
        )
        .unwrap()
    }

    /// A registered mechanism's proved properties (DRF and CEEI envy-free with the sharing
    /// incentive, asset fairness envy-free: the DRF paper's Table 2) hold by the property
    /// checkers on every instance above.
    #[test]
    fn the_proved_properties_hold_by_the_checkers() {
        let mut checked = 0;
        for d in flat_mechanisms() {
            let mechanism = d.build();
            for instance in [paper(), asset_below_the_split(), three_users()] {
                for &property in d.proved {
                    let report = check(&*mechanism, &instance, property, &Scenario::Bounded)
                        .unwrap_or_else(|e| panic!("{} {property}: {e}", d.name));
                    assert!(report.verdict.holds, "{} {property}", d.name);
                    checked += 1;
                }
            }
        }
        // At least drf, ceei and drf-lp's two properties and asset and asset-lp's one, on
        // three instances (a new row adds its own).
        assert!(checked >= (3 * 2 + 2) * 3, "{checked}");
    }

    /// What is not listed is not a theorem: asset fairness (both forms) lacks the sharing
    /// incentive, and the checker finds A at 3/7 tasks below its split (derivation at
    /// [`asset_below_the_split`]).
    #[test]
    fn asset_fairness_is_not_listed_with_the_sharing_incentive_and_the_checker_agrees() {
        for name in ["asset", "asset-lp"] {
            let d = flat_mechanisms().iter().find(|d| d.name == name).unwrap();
            assert!(d.is_proved(Property::Ef) && !d.is_proved(Property::Si));
            let report = check(
                &*d.build(),
                &asset_below_the_split(),
                Property::Si,
                &Scenario::Bounded,
            )
            .unwrap();
            let Some(Witness::Si(w)) = report.witness() else {
                panic!("{name}: expected an SI witness")
            };
            assert_eq!(
                (w.user, w.tasks.to_string()),
                (0, "3/7".to_string()),
                "{name}"
            );
        }
    }

    #[test]
    fn every_row_builds_the_mechanism_of_its_name() {
        for d in flat_mechanisms() {
            let mechanism = d.build();
            assert_eq!(mechanism.name(), d.name);
            assert_eq!(mechanism.is_exact(), d.exactness != Exactness::Numeric);
        }
    }
}
