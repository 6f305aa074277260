//! Common-level DRF (everyone frozen at the first saturation), encoded directly
//! (docs/theory.md §6.4): in normal form every user's dominant share `x_i` is `λ w_i` for one
//! level `λ >= 0`, every load is at most 1, and some load is 1.

use super::smt::{binary, mul, or, Script};
use super::statement::Profile;

/// Asserts that `tasks` is common-level DRF's answer on `profile`, the characterization on
/// `shares` (each user's dominant share as a term in its tasks: `tasks` itself in normal form,
/// on other rows the tasks times the largest entry); the level is the variable `<at>_level`.
pub fn encode(
    script: &mut Script,
    profile: &Profile,
    tasks: &[String],
    shares: &[String],
    at: &str,
) {
    let level = script.real(&format!("{at}_level"));
    script.assert(binary(">=", &level, "0.0"));
    for (i, x) in shares.iter().enumerate() {
        let share = match &profile.weights {
            Some(w) => mul(&level, &w[i]),
            None => level.clone(),
        };
        script.assert(binary("=", x, &share));
    }
    let loads = profile.loads(tasks);
    script.assert_each("<=", &loads, "1.0");
    script.assert(or(loads.iter().map(|l| binary("=", l, "1.0"))));
}
