//! DRF (placeholder while it is written).
use crate::{Allocation, Instance, Mechanism, SolverError};
/// Placeholder.
pub enum FreezeRule { DemandersOnly, Everyone }
/// Placeholder.
pub struct Drf { freeze: FreezeRule }
impl Drf {
    /// Extended DRF.
    pub fn extended() -> Self { Drf { freeze: FreezeRule::DemandersOnly } }
}
impl Mechanism for Drf {
    fn name(&self) -> &str { match self.freeze { FreezeRule::DemandersOnly => "drf", FreezeRule::Everyone => "drf-common-level" } }
    fn is_exact(&self) -> bool { true }
    fn allocate(&self, _i: &Instance) -> Result<Allocation, SolverError> { Err(SolverError::invalid("x", "placeholder")) }
}
