//! Counterexample search for fair-allocation mechanisms.
//!
//! This crate will hold instance generators, manipulations (lies, departures, capacity
//! changes), the search driver with shrinking and the corpus of known counterexamples
//! (issue 5); nothing is implemented yet.
