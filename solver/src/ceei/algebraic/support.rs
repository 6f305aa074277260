//! Candidate supports read off the floating-point equilibrium: which prices are positive
//! and which caps bind, in the order they are tried.
//!
//! The floating-point prices and tasks are accurate to about machine precision relative to
//! their scale, so a price share `p_j c_j / W` above [`POSITIVE_SHARE`] is taken as positive
//! and a task within a relative [`CAP_BINDS`] of its cap as capped. Items close to the
//! boundary are *ambiguous*: a positive share below [`NEAR_ZERO_SHARE`], a zero price on a
//! resource used to within [`NEAR_FULL`] of capacity, a cap whose multiplier
//! `w_i / (T_i p · d_i) − 1` is within [`NEAR_INDIFFERENT`] of 0. The candidates are the
//! numeric reading, then every flip of a subset of the ambiguous items (fewest flips first),
//! then — for equilibrium prices that are not unique, where the numeric solver may return a
//! point inside a face of the price polytope whose vertices have fewer positive prices or
//! fewer binding caps — the numeric reading with one or more positive prices set to zero,
//! and with one binding cap released. Every candidate is accepted only by the exact KKT
//! check, so this order affects speed, never correctness.

use crate::ceei::FloatSolution;
use crate::Instance;

/// Price shares above this are positive.
const POSITIVE_SHARE: f64 = 1e-9;
/// Positive price shares below this are ambiguous.
const NEAR_ZERO_SHARE: f64 = 1e-5;
/// A zero-priced resource used to within this fraction of capacity is ambiguous.
const NEAR_FULL: f64 = 1e-7;
/// Tasks within this relative distance of the cap bind.
const CAP_BINDS: f64 = 1e-9;
/// Caps with `|w_i / (T_i p · d_i) − 1|` below this are ambiguous.
const NEAR_INDIFFERENT: f64 = 1e-6;
/// At most this many ambiguous items are flipped (2^this subsets).
const MAX_AMBIGUOUS: usize = 8;
/// At most this many candidates in all.
const MAX_CANDIDATES: usize = 512;

/// A candidate: the resources with positive prices and the users held at their caps, both
/// increasing.
pub(super) type Support = (Vec<usize>, Vec<usize>);

enum Item {
    Price(usize),
    Cap(usize),
}

/// The candidates, the numeric reading first.
pub(super) fn candidates(inst: &Instance, float: &FloatSolution) -> Vec<Support> {
    let (n, m) = (inst.num_users(), inst.num_resources());
    let total: f64 = inst.users().iter().map(|u| u.weight.to_f64_lossy()).sum();
    let capacity: Vec<f64> = inst.capacity().iter().map(|c| c.to_f64_lossy()).collect();
    let share: Vec<f64> = (0..m)
        .map(|j| float.prices[j] * capacity[j] / total)
        .collect();
    let used: Vec<f64> = (0..m)
        .map(|j| {
            inst.users()
                .iter()
                .zip(&float.tasks)
                .map(|(u, x)| x * u.demand[j].to_f64_lossy())
                .sum()
        })
        .collect();
    let positive: Vec<bool> = share.iter().map(|&s| s > POSITIVE_SHARE).collect();
    let mut capped = vec![false; n];
    let mut ambiguous = Vec::new();
    for j in 0..m {
        let near_zero = positive[j] && share[j] < NEAR_ZERO_SHARE;
        let near_full = !positive[j] && used[j] >= capacity[j] * (1.0 - NEAR_FULL);
        if near_zero || near_full {
            ambiguous.push(Item::Price(j));
        }
    }
    for (i, u) in inst.users().iter().enumerate() {
        let Some(t) = &u.cap else { continue };
        let t = t.to_f64_lossy();
        capped[i] = float.tasks[i] >= t * (1.0 - CAP_BINDS);
        let cost: f64 = u
            .demand
            .iter()
            .zip(&float.prices)
            .map(|(d, p)| d.to_f64_lossy() * p)
            .sum();
        let ratio = u.weight.to_f64_lossy() / (t * cost);
        if cost > 0.0 && (ratio - 1.0).abs() < NEAR_INDIFFERENT {
            ambiguous.push(Item::Cap(i));
        }
    }
    ambiguous.truncate(MAX_AMBIGUOUS);
    let mut out: Vec<Support> = Vec::new();
    let mut push = |positive: &[bool], capped: &[bool]| {
        let s = (
            (0..m).filter(|&j| positive[j]).collect(),
            (0..n).filter(|&i| capped[i]).collect(),
        );
        if out.len() < MAX_CANDIDATES && !out.contains(&s) {
            out.push(s);
        }
    };
    // Subsets of the ambiguous items by increasing size (the empty one is the reading).
    let k = ambiguous.len();
    let mut masks: Vec<u32> = (0..1u32 << k).collect();
    masks.sort_by_key(|mask| (mask.count_ones(), *mask));
    for mask in masks {
        let (mut p, mut c) = (positive.clone(), capped.clone());
        for (b, item) in ambiguous.iter().enumerate() {
            if mask >> b & 1 == 1 {
                match *item {
                    Item::Price(j) => p[j] = !p[j],
                    Item::Cap(i) => c[i] = !c[i],
                }
            }
        }
        push(&p, &c);
    }
    // Faces of non-unique prices: drop positive prices (fewest first), release one cap.
    let priced: Vec<usize> = (0..m).filter(|&j| positive[j]).collect();
    if priced.len() <= MAX_AMBIGUOUS {
        let mut drops: Vec<u32> = (1..1u32 << priced.len()).collect();
        drops.sort_by_key(|mask| (mask.count_ones(), *mask));
        for mask in drops {
            let mut p = positive.clone();
            for (b, &j) in priced.iter().enumerate() {
                if mask >> b & 1 == 1 {
                    p[j] = false;
                }
            }
            push(&p, &capped);
        }
    }
    for i in 0..n {
        if capped[i] {
            capped[i] = false;
            push(&positive, &capped);
            capped[i] = true;
        }
    }
    out
}
