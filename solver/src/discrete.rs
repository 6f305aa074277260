//! Discrete DRF (placeholder while it is written).
/// Placeholder.
pub struct DiscreteDrf;
/// Placeholder.
pub enum Machines {}
/// Placeholder.
pub enum MisfitRule {}
/// Placeholder.
pub enum TieBreak {}
