//! Hierarchical fair allocation on weighted trees.
//!
//! This crate will hold weighted trees with guaranteed shares, the hierarchical policies
//! (naive HDRF, min-satisfaction HDRF, collapsed DRF and H-DRF of Bhattacharya et al.,
//! SoCC 2013), the task-level simulator and the hierarchical properties. See `SPEC.md` §4
//! of the project and issue 6; nothing is implemented yet.
