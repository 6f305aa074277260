//! The command line's integration tests, one binary: each module runs `leontief` end to end
//! for one command or theme; `common` holds the shared helpers.
//!
//! One binary links once; `cargo test --test integration MODULE::` runs one module.

mod common;

mod errors_cli;
mod explore_cli;
mod explore_families_cli;
mod flags_cli;
mod fuzzing;
mod hdrf_cli;
mod import_cli;
mod order_cli;
mod output_cli;
mod properties_cli;
mod prove_cli;
mod reference_production;
mod reproduce_cli;
mod rules_cli;
mod search_cli;
mod simulate_cli;
mod simulate_production;
mod solve_cli;
mod walkthrough_cli;
