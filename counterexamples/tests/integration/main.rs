//! The counterexample crate's integration tests, one binary: each module tests one part of the
//! public API; `common` holds the shared helpers.
//!
//! One binary links once; `cargo test --test integration MODULE::` runs one module.

mod common;

mod corpus;
mod explore;
mod explore_exact;
mod explore_exact_metrics;
mod explore_families;
mod explore_pm;
mod explore_starvation;
mod explore_wire;
mod key;
mod pools;
mod prove;
mod search;
