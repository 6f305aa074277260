//! The solver crate's integration tests, one binary: each module tests one part of the public
//! API; `common` holds the shared helpers and oracles.
//!
//! One binary links once; `cargo test --test integration MODULE::` runs one module.

mod common;

mod algebraic;
mod algebraic_ceei;
mod asset;
mod asset_compact;
mod ceei;
mod discrete;
mod drf;
mod json_fast;
mod lp;
mod pools;
mod production;
mod properties;
mod properties_exact;
mod properties_oracle;
mod rational;
mod rational_big;
mod rational_parse;
mod simplex;
mod tolerance;
mod welfare;
