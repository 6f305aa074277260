//! Counterexample search for fair-allocation mechanisms.
//!
//! - [`generate`]: deterministic random instances (`--users a..b`, `--resources a..b`,
//!   `--zeros p`, weights, caps), each a pure function of `(seed, index)` so that results do
//!   not depend on the number of threads.
//! - [`verify`]: run a property oracle of `leontief_solver::properties` over generated
//!   instances in parallel and summarise (instances, scenarios, violations, witnesses).
//! - [`space`]: the units a search examines — every small instance on a value grid, random
//!   instances, or both interleaved — numbered so that shards and budgets cut them the same.
//! - [`search`]: the driver — structured and grid lies, random coalitions of every size, a
//!   local search over the reports, departures and capacity growths — in parallel,
//!   deterministic, sharded.
//! - [`candidate`]: a counterexample (instance + scenario) and its exact re-verification.
//! - [`shrink`]: greedy reduction (fewer users, resources, liars; simpler numbers), every
//!   step re-verified.
//! - [`record`]: the JSONL records, their replay, and the canonical key (up to permutations
//!   and scaling) that drops duplicates.
//! - [`corpus`]: the known counterexamples shipped in `corpus/*.jsonl`.
//! - [`doc`]: building blocks of the typed JSON documents (maps keyed by run-time names).
//! - [`mechanisms`]: every mechanism by name, the hierarchical policies as `hdrf:<policy>`.
//! - [`explore`]: the optimizer — a metric (a manipulation gain, a monotonicity loss, envy,
//!   the sharing-incentive gap) maximized or minimized over the same space, records exact and
//!   re-derived (docs/explore.md).
//!
//! # Example
//! Search for a strong group manipulation of extended DRF, as in the lecture.
//! ```
//! use leontief_counterexamples::instance_generator::{Chance, GeneratorConfig};
//! use leontief_counterexamples::search::{search, SearchConfig};
//! use leontief_solver::{properties::Property, Drf};
//! let mut generator = GeneratorConfig::new();
//! generator.zeros = Chance::new(1, 3).unwrap();
//! let mut cfg = SearchConfig::new(Property::GspStrong, 3, generator);
//! cfg.max_found = Some(1);
//! cfg.run.budget = Some(500_000);
//! let mut lines = Vec::new();
//! search(&Drf::extended(), &cfg, &mut |r| { lines.push(r.to_json()); Ok(()) }, &|_| {}).unwrap();
//! assert_eq!(lines[0]["property"], "gsp-strong");
//! ```
//!
//! # References
//! - The lecture behind the four-operation collusion against DRF (cited in
//!   `docs/theory.md` §3).
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness.* EC 2012.

pub mod candidate;
pub mod corpus;
pub mod doc;
pub mod explore;
pub mod instance_generator;
pub mod mechanisms;
pub mod prove;
pub mod record;
pub mod search;
pub mod shrink;
pub mod space;
pub mod verify;
