//! The mechanisms the command line knows, by name: the one table of
//! [`leontief_counterexamples::mechanisms`] (flat and hierarchical), re-exported.
//!
//! # Example
//! ```
//! let m = leontief::mechanisms::by_name("drf").unwrap();
//! assert_eq!(m.name(), "drf");
//! let err = leontief::mechanisms::by_name("nope").err().unwrap().to_string();
//! assert!(err.starts_with("--mechanism: unknown mechanism \"nope\"; known: drf, "));
//! ```

pub use leontief_counterexamples::mechanisms::{all, by_name, descriptor, hierarchical_mechanisms};
