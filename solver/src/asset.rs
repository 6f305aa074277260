//! Asset fairness (being written).
