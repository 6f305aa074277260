//! CEEI, encoded by the Eisenberg–Gale KKT conditions (docs/theory.md §6.3): tasks `x` are
//! the equilibrium exactly when some prices `p >= 0` make
//! - every user spend its budget: `x_i (d_i · p) = w_i` (equal incomes: `w_i = 1`);
//! - every load at most 1;
//! - every priced resource full: `p_r = 0` or load 1.
//!
//! A case fixes the support of `p` ([`Shape::Support`]): positive prices on it, with full
//! loads, zero elsewhere.

use super::smt::{binary, mul, or, sum, Script};
use super::statement::{Profile, Shape};

/// Asserts that `tasks` is the CEEI answer on `profile`; prices are `<at>_p_r`.
pub fn encode(script: &mut Script, profile: &Profile, tasks: &[String], shape: &Shape, at: &str) {
    let (n, m) = (profile.users(), profile.resources());
    let prices: Vec<String> = (0..m)
        .map(|r| script.real(&format!("{at}_p_{}", r + 1)))
        .collect();
    let loads: Vec<String> = (0..m).map(|r| profile.load(tasks, r)).collect();
    for i in 0..n {
        let cost = sum(&(0..m)
            .map(|r| mul(&profile.demands[i][r], &prices[r]))
            .collect::<Vec<_>>());
        let budget = profile
            .weights
            .as_ref()
            .map_or_else(|| "1.0".to_string(), |w| w[i].clone());
        script.assert(binary(">", &tasks[i], "0.0"));
        script.assert(binary("=", &mul(&tasks[i], &cost), &budget));
    }
    for r in 0..m {
        script.assert(binary("<=", &loads[r], "1.0"));
        match shape {
            Shape::Support(support) if support[r] => {
                script.assert(binary(">", &prices[r], "0.0"));
                script.assert(binary("=", &loads[r], "1.0"));
            }
            Shape::Support(_) => script.assert(binary("=", &prices[r], "0.0")),
            _ => {
                script.assert(binary(">=", &prices[r], "0.0"));
                script.assert(or(&[
                    binary("=", &prices[r], "0.0"),
                    binary("=", &loads[r], "1.0"),
                ]));
            }
        }
    }
}
