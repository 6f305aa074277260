//! CEEI (being written).
