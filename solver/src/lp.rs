//! LP formulations (being written).
