//! Asset fairness with caps, encoded by the bottleneck characterization on aggregate shares
//! (docs/theory.md §6.2): the same as [`super::drf`] with user `i`'s share
//! `x_i Σ_r d_ir` (capacities 1) in place of its dominant share `x_i`.

use super::smt::{mul, sum, Script};
use super::statement::{Profile, Shape};

/// Asserts that `tasks` is asset fairness's answer on `profile`, of type `shape`.
pub fn encode(script: &mut Script, profile: &Profile, tasks: &[String], shape: &Shape) {
    let shares: Vec<String> = tasks
        .iter()
        .zip(&profile.demands)
        .map(|(x, d)| mul(x, &sum(d)))
        .collect();
    super::drf::encode(script, profile, tasks, &shares, shape);
}
