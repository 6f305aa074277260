//! Extended weighted DRF with caps, encoded by its bottleneck characterization
//! (docs/theory.md §6.2) rather than by progressive filling.
//!
//! In normal form (capacities 1, largest demand entry 1) user `i`'s dominant share is its
//! number of tasks `x_i`. The tasks `x` are the DRF answer exactly when
//! - `x_i >= 0`, `x_i <= T_i`, and every load `Σ_i x_i d_ir <= 1`;
//! - every user `i` is at its cap `x_i = T_i`, or has a **bottleneck**: a resource `r` with
//!   `d_ir > 0`, load 1, and `x_k / w_k <= x_i / w_i` for every user `k` with `d_kr > 0`.
//!
//! [`encode`] states this for any share (DRF's `x_i`, asset fairness's `x_i Σ_r d_ir`).

use super::smt::{and, binary, mul, or, Script};
use super::statement::{Profile, Shape};

/// Asserts that `tasks` is extended DRF's answer on `profile`, of type `shape` (each user's
/// bottleneck, `m` for its cap; [`Shape::Any`]: some type), by the bottleneck
/// characterization of progressive filling on `shares` (each user's share as a term in its
/// tasks, `tasks` itself in normal form): feasibility, caps, and a bottleneck or a binding
/// cap for every user.
pub fn encode(
    script: &mut Script,
    profile: &Profile,
    tasks: &[String],
    shares: &[String],
    shape: &Shape,
) {
    let (n, m) = (profile.users(), profile.resources());
    let loads = profile.loads(tasks);
    script.assert_each(">=", tasks, "0.0");
    script.assert_each("<=", &loads, "1.0");
    if let Some(caps) = &profile.caps {
        for (x, t) in tasks.iter().zip(caps) {
            script.assert(binary("<=", x, t));
        }
    }
    // share_k / w_k <= share_i / w_i, multiplied out (weights are positive).
    let no_higher = |k: usize, i: usize| match &profile.weights {
        Some(w) => binary("<=", &mul(&shares[k], &w[i]), &mul(&shares[i], &w[k])),
        None => binary("<=", &shares[k], &shares[i]),
    };
    let bottleneck = |i: usize, r: usize| -> String {
        if r == m {
            // A cap type exists only when the domain has caps.
            return profile
                .caps
                .as_ref()
                .map_or_else(|| "false".into(), |caps| binary("=", &tasks[i], &caps[i]));
        }
        let mut terms = vec![
            binary(">", &profile.demands[i][r], "0.0"),
            binary("=", &loads[r], "1.0"),
        ];
        for k in (0..n).filter(|&k| k != i) {
            let needs = binary(">", &profile.demands[k][r], "0.0");
            terms.push(binary("=>", &needs, &no_higher(k, i)));
        }
        and(&terms)
    };
    let options = if profile.caps.is_some() { m + 1 } else { m };
    for i in 0..n {
        match shape {
            Shape::Bottlenecks(b) => script.assert(bottleneck(i, b[i])),
            _ => script.assert(or((0..options).map(|r| bottleneck(i, r)))),
        }
    }
}
