//! The local search's moves on an instance: exact rational perturbations of one demand
//! entry or one capacity, so that the optimizer climbs from the best instances found.
//!
//! A move picks, from the random stream:
//! - a demand entry `d_ij`: set to 0 (when another entry of the user stays positive),
//!   doubled, halved, raised by a quarter of the user's largest entry, or set to a grid
//!   value × the user's largest entry;
//! - a capacity `R_j`: ×3/2, ×2/3, ×2 or ×1/2.
//!
//! The users, resources and pools stay the same (so the elite's scenario still fits);
//! a move that gives an invalid instance is dropped.

use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Instance, Rational};

use super::Family;

/// The rational `p / d` of nonzero `d`.
pub(super) fn q(p: i128, d: i128) -> Rational {
    Rational::new(p, d).expect("nonzero denominator")
}

/// A capacity move: `R_j` ×3/2, ×2/3, ×2 or ×1/2 for a random `j`.
fn capacity_move(capacity: &mut [Rational], rng: &mut SplitMix64) {
    let j = rng.range(0, capacity.len() as u64 - 1) as usize;
    let f = match rng.range(0, 3) {
        0 => q(3, 2),
        1 => q(2, 3),
        2 => q(2, 1),
        _ => q(1, 2),
    };
    capacity[j] = &capacity[j] * &f;
}

/// The new value of entry `j` of the demand vector `d`: 0 (when another entry stays
/// positive), doubled, halved, a grid value × the largest entry, or raised by a quarter of
/// the largest entry (shared with the families' moves, which apply it to a whole kind).
pub(crate) fn entry_move(
    d: &[Rational],
    j: usize,
    values: &[Rational],
    rng: &mut SplitMix64,
) -> Rational {
    let largest = d.iter().max().cloned().unwrap_or(Rational::ONE);
    let positive = d.iter().filter(|x| x.is_positive()).count();
    match rng.range(0, 4) {
        0 if positive > 1 || d[j].is_zero() => Rational::ZERO,
        1 => &d[j] * &q(2, 1),
        2 => &d[j] * &q(1, 2),
        3 if !values.is_empty() => {
            &values[rng.range(0, values.len() as u64 - 1) as usize] * &largest
        }
        _ => &d[j] + &(&largest * &q(1, 4)),
    }
}

/// One random move, structure-keeping with a `family` (its kinds' demand moves): a capacity
/// move one time in four (`capacity_move`), else a demand move; `None` when it changes
/// nothing or gives an invalid instance. The pools stay: a move changes numbers, never the
/// tree.
pub fn perturb(
    instance: &Instance,
    values: &[Rational],
    rng: &mut SplitMix64,
    family: Option<Family>,
) -> Option<Instance> {
    let next = if rng.chance(1, 4) {
        let mut capacity = instance.capacity().to_vec();
        capacity_move(&mut capacity, rng);
        instance.with_capacity(capacity).ok()?
    } else {
        let mut users = instance.users().to_vec();
        match family {
            Some(f) => f.move_demand(&mut users, values, rng)?,
            None => {
                let (n, m) = (instance.num_users(), instance.num_resources());
                let i = rng.range(0, n as u64 - 1) as usize;
                let j = rng.range(0, m as u64 - 1) as usize;
                users[i].demand[j] = entry_move(&users[i].demand, j, values, rng);
            }
        }
        instance.with_users(users).ok()?
    };
    (next != *instance).then_some(next)
}

/// `steps` moves in a row (the restart's distance from the elite; a `family`'s
/// structure-keeping moves with one), skipping failed ones.
pub fn walk(
    instance: &Instance,
    values: &[Rational],
    rng: &mut SplitMix64,
    steps: usize,
    family: Option<Family>,
) -> Instance {
    let mut current = instance.clone();
    for _ in 0..steps {
        if let Some(next) = perturb(&current, values, rng, family) {
            current = next;
        }
    }
    current
}
