//! The hierarchical crate's integration tests, one binary: each module tests one part of the
//! public API; `common` holds the shared helpers.
//!
//! One binary links once; `cargo test --test integration MODULE::` runs one module.

mod common;

mod discrete;
mod engines;
mod flat;
mod flattening;
mod hdrf_paper;
mod output;
mod plain_engine;
mod production;
mod properties;
mod reference;
mod simulate;
mod simulate_production;
mod validation;
