//! What the counterexample tests share: exact literals, the records of an `explore` run,
//! the records of the corpus and their replay (`replay_named`), and a candidate's liars.

use leontief_counterexamples::candidate::Candidate;
use leontief_counterexamples::corpus::parse_jsonl;
use leontief_counterexamples::explore::{explore, ExploreConfig, MetricName};
use leontief_counterexamples::instance_generator::GeneratorConfig;
use leontief_counterexamples::mechanisms::by_name;
use leontief_counterexamples::record::{replay, Record, RecordError};
use leontief_solver::properties::Scenario;
use leontief_solver::{Instance, Mechanism, Rational, User};
use serde_json::Value;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// An exact literal: `"7/3"`, `"2.5"`.
pub fn q(s: &str) -> Rational {
    s.parse().expect("test literal")
}

/// An instance from exact literals: the capacities `capacity` and the users `(name, demand)`,
/// each vector's entries separated by spaces (`"1 1/2"`).
pub fn instance(capacity: &str, users: &[(&str, &str)]) -> Instance {
    let exact = |v: &str| -> Vec<Rational> { v.split_whitespace().map(q).collect() };
    let users = users
        .iter()
        .map(|(name, demand)| User::new(*name, exact(demand)))
        .collect();
    Instance::new(exact(capacity), users).expect("test instance")
}

/// The default instances with `users` users and `resources` resources.
pub fn sized(users: RangeInclusive<usize>, resources: RangeInclusive<usize>) -> GeneratorConfig {
    let mut g = GeneratorConfig::new();
    g.users = users;
    g.resources = resources;
    g
}

/// `explore`'s configuration for `metric` at `seed` over the default instances, stopping
/// after `budget` scenarios.
pub fn budgeted(metric: MetricName, seed: u64, budget: u64) -> ExploreConfig {
    let mut cfg = ExploreConfig::new(metric, seed, GeneratorConfig::new());
    cfg.run.budget = Some(budget);
    cfg
}

/// The records `explore` prints for `cfg`, in order.
pub fn explored(mechanism: &dyn Mechanism, cfg: &ExploreConfig) -> Vec<Value> {
    let mut lines = Vec::new();
    explore(
        mechanism,
        cfg,
        &mut |r| {
            lines.push(r.clone());
            Ok(())
        },
        &|_| {},
    )
    .unwrap();
    lines
}

/// Every record of `corpus/*.jsonl`, with its file's name and line, the files in name order.
pub fn corpus_records() -> Vec<(String, usize, Value)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir())
        .expect("corpus directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for (line, value) in parse_jsonl(&name, &text).unwrap() {
            out.push((name.clone(), line, value));
        }
    }
    out
}

/// `work`'s result, run on a pool of `threads` threads (determinism tests compare 1 and 2).
pub fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(work)
}

/// The corpus directory of the crate.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Replays one record with the mechanism it names.
pub fn replay_named(value: &Value) -> Result<Record, RecordError> {
    let name = value
        .get("mechanism")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mechanism = by_name(name)?;
    replay(mechanism.as_ref(), value)
}

/// The liars of a candidate's scenario (none unless it is a lie).
pub fn liars(candidate: &Candidate) -> Vec<usize> {
    match &candidate.scenario {
        Scenario::Lies(lies) => lies.iter().map(|(i, _)| *i).collect(),
        _ => Vec::new(),
    }
}
