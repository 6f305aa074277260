//! Counterexample search for fair-allocation mechanisms.
//!
//! - [`generate`]: deterministic random instances (`--users a..b`, `--resources a..b`,
//!   `--zeros p`, weights, caps), each a pure function of `(seed, index)` so that results do
//!   not depend on the number of threads.
//! - [`verify`]: run a property oracle of `leontief_solver::properties` over generated
//!   instances in parallel and summarise (instances, scenarios, violations, witnesses).
//!
//! The search driver with shrinking and the corpus of known counterexamples come next.

pub mod generate;
pub mod verify;
