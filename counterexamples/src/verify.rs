//! Verifying a property on generated instances: the engine of `leontief verify`.
//!
//! Each instance is a pure function of `(seed, index)` and is checked independently, so the
//! work is spread over threads with rayon and the summary — counts, and the first witnesses
//! in index order — is the same whatever the number of threads.

use leontief_solver::properties::{
    check_with, check_with_exact_form, Bounds, CheckReport, Property, Scenario,
};
use leontief_solver::{Allocation, Instance, Mechanism, SolverError};
use rayon::prelude::*;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::instance_generator::GeneratorConfig;

/// What to verify on how many instances.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct VerifyConfig {
    /// Number of instances.
    pub instances: u64,
    /// Seed of the run.
    pub seed: u64,
    /// How instances are drawn.
    pub generator: GeneratorConfig,
    /// How many witnesses to keep (the first ones, by instance index).
    pub max_witnesses: usize,
    /// Bounds of the default scenario sets (SP, GSP, PM, RM).
    pub bounds: Bounds,
    /// Set from another thread to skip the instances not yet checked (e.g. on Ctrl-C in the
    /// Python package); the summary of a cancelled run is incomplete and to be discarded.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl VerifyConfig {
    /// `instances` instances from `seed` with the given generator, keeping 3 witnesses.
    ///
    /// # Example
    /// ```
    /// use leontief_counterexamples::instance_generator::GeneratorConfig;
    /// use leontief_counterexamples::verify::{verify, VerifyConfig};
    /// use leontief_solver::{properties::Property, Drf};
    /// let cfg = VerifyConfig::new(50, 1, GeneratorConfig::new());
    /// let summary = verify(&Drf::extended(), Property::Ef, &cfg, &|| {});
    /// assert_eq!((summary.instances, summary.violations), (50, 0)); // DRF is envy-free
    /// ```
    pub fn new(instances: u64, seed: u64, generator: GeneratorConfig) -> Self {
        VerifyConfig {
            instances,
            seed,
            generator,
            max_witnesses: 3,
            bounds: Bounds::default(),
            cancel: None,
        }
    }
}

/// One violation found; serialized as `{"index", "instance", "check"}`.
#[derive(Debug, Clone, Serialize)]
pub struct Found {
    /// Index of the instance in the run.
    pub index: u64,
    /// The instance.
    #[serde(serialize_with = "instance_form")]
    pub instance: Instance,
    /// The check's report as JSON (verdict, witness).
    #[serde(rename = "check")]
    pub report: Value,
}

/// The result of a verification run; serialized as the summary `leontief verify` prints.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct VerifySummary {
    /// Mechanism name.
    pub mechanism: String,
    /// Property checked.
    #[serde(serialize_with = "property_name")]
    pub property: Property,
    /// Seed of the run.
    pub seed: u64,
    /// Instances checked.
    pub instances: u64,
    /// Scenarios tried over all instances (lies, departures, capacity changes).
    pub scenarios: u64,
    /// Instances on which the property failed.
    pub violations: u64,
    /// Instances where the property did not apply (e.g. BF without a common bottleneck).
    pub not_applicable: u64,
    /// Whether the property held on every instance checked (no violation, no failure).
    pub holds: bool,
    /// Whether some holding verdicts were bounded (a sample of scenarios, not all).
    pub bounded: bool,
    /// The first violations, by index.
    pub witnesses: Vec<Found>,
    /// Instances on which the mechanism or the check failed, with the message (first few).
    #[serde(serialize_with = "indexed_errors")]
    pub errors: Vec<(u64, String)>,
    /// Total number of such failures.
    pub error_count: u64,
}

enum Item {
    Holds { scenarios: usize, bounded: bool },
    NotApplicable,
    Violated { scenarios: usize, found: Box<Found> },
    Error(String),
}

/// Checks `property` of `mechanism` on `cfg.instances` generated instances, in parallel on
/// rayon's current pool. `tick` is called once per instance (for a progress bar).
///
/// # Complexity
/// One allocation per instance plus one per scenario tried.
pub fn verify(
    mechanism: &dyn Mechanism,
    property: Property,
    cfg: &VerifyConfig,
    tick: &(dyn Fn() + Sync),
) -> VerifySummary {
    let items: Vec<Item> = (0..cfg.instances)
        .into_par_iter()
        .map(|index| {
            if crate::search::cancelled(&cfg.cancel) {
                return Item::NotApplicable;
            }
            let item = check_one(mechanism, property, cfg, index);
            tick();
            item
        })
        .collect();
    let mut summary = VerifySummary {
        mechanism: mechanism.name().to_string(),
        property,
        seed: cfg.seed,
        instances: cfg.instances,
        scenarios: 0,
        violations: 0,
        not_applicable: 0,
        holds: false,
        bounded: false,
        witnesses: Vec::new(),
        errors: Vec::new(),
        error_count: 0,
    };
    for (index, item) in items.into_iter().enumerate() {
        match item {
            Item::Holds { scenarios, bounded } => {
                summary.scenarios += scenarios as u64;
                summary.bounded |= bounded;
            }
            Item::NotApplicable => summary.not_applicable += 1,
            Item::Violated { scenarios, found } => {
                summary.scenarios += scenarios as u64;
                summary.violations += 1;
                if summary.witnesses.len() < cfg.max_witnesses {
                    summary.witnesses.push(*found);
                }
            }
            Item::Error(message) => {
                summary.error_count += 1;
                if summary.errors.len() < cfg.max_witnesses {
                    summary.errors.push((index as u64, message));
                }
            }
        }
    }
    summary.holds = summary.violations == 0 && summary.error_count == 0;
    summary
}

/// [`check_with`] or [`check_with_exact_form`].
type Check = fn(
    &dyn Mechanism,
    &Instance,
    &Allocation,
    Property,
    &Scenario,
    &Bounds,
) -> Result<CheckReport, SolverError>;

fn check_one(
    mechanism: &dyn Mechanism,
    property: Property,
    cfg: &VerifyConfig,
    index: u64,
) -> Item {
    let instance = cfg.generator.instance(cfg.seed, index);
    let truth = match mechanism.allocate(&instance) {
        Ok(x) => x,
        Err(e) => return Item::Error(e.to_string()),
    };
    let judge = |check: Check| {
        check(
            mechanism,
            &instance,
            &truth,
            property,
            &Scenario::Bounded,
            &cfg.bounds,
        )
    };
    // The loop judges answers as given; a violation it shows is judged again with the
    // exact form of each approximate answer (CEEI's algebraic equilibrium), so that the
    // witness is exact where the answer is.
    let judged = match judge(check_with) {
        Ok(report) if !report.exact && report.verdict.applicable && !report.verdict.holds => {
            judge(check_with_exact_form)
        }
        other => other,
    };
    match judged {
        Err(e) => Item::Error(e.to_string()),
        Ok(report) if !report.verdict.applicable => Item::NotApplicable,
        Ok(report) if report.verdict.holds => Item::Holds {
            scenarios: report.scenarios,
            bounded: report.bounded,
        },
        Ok(report) => Item::Violated {
            scenarios: report.scenarios,
            found: Box::new(Found {
                index,
                report: report.to_json(&instance),
                instance,
            }),
        },
    }
}

fn property_name<S: Serializer>(p: &Property, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.name())
}

fn instance_form<S: Serializer>(instance: &Instance, s: S) -> Result<S::Ok, S::Error> {
    instance.to_json().serialize(s)
}

/// The failures as `[{"index", "error"}]`.
fn indexed_errors<S: Serializer>(errors: &[(u64, String)], s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct ErrorDoc<'a> {
        index: u64,
        error: &'a str,
    }
    s.collect_seq(errors.iter().map(|(index, error)| ErrorDoc {
        index: *index,
        error,
    }))
}
