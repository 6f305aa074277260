//! Certification of a CEEI answer (module docs of [`super`], step 2): the exact KKT check
//! of the Eisenberg–Gale program ([`certify`]) and the rational reconstruction that
//! proposes candidates for it.
//!
//! Kept apart from the floating-point solver because everything here decides exactness:
//! candidates come from floats, but only the exact check in [`Rational`] can accept one.

use crate::exact_sum::balanced_sum;
use crate::{Instance, Rational};

use super::newton::{Neumaier, Point, Problem};
use super::UNIT;

/// Relative tolerances tried, loosest first, when reconstructing rationals from floats.
const RECONSTRUCTION_TOLERANCES: [f64; 3] = [1e-6, 1e-9, 1e-12];
/// Largest denominator a reconstructed rational may have.
const MAX_DENOMINATOR: i128 = 1_000_000_000_000;
/// Scaled prices at or below this fraction of their scale `s_j` are taken as zero by
/// reconstruction.
const ZERO_PRICE: f64 = 1e-13;

// ---------------------------------------------------------------------------------------
// Exact KKT check.

/// Which KKT condition of the Eisenberg–Gale program an answer violates ([`certify`]).
/// Indices are 0-based positions in the instance.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum KktViolation {
    /// A vector has the wrong length.
    #[error("{what}: expected {expected} entries, found {found}")]
    Length {
        /// `"tasks"` or `"prices"`.
        what: &'static str,
        /// The number of users or resources.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// The user has per-resource weights, which the Eisenberg–Gale program does not take.
    #[error("users[{user}].weights: CEEI takes one scalar weight per user")]
    ResourceWeights {
        /// The user.
        user: usize,
    },
    /// A price is negative (dual feasibility).
    #[error("prices[{resource}]: negative price")]
    NegativePrice {
        /// The resource.
        resource: usize,
    },
    /// A user gets negative tasks (primal feasibility).
    #[error("tasks[{user}]: negative tasks")]
    NegativeTasks {
        /// The user.
        user: usize,
    },
    /// A user gets more tasks than its cap (primal feasibility).
    #[error("tasks[{user}]: above the user's task cap")]
    AboveCap {
        /// The user.
        user: usize,
    },
    /// A resource is used beyond its capacity (primal feasibility).
    #[error("resource {resource}: used beyond its capacity")]
    OverCapacity {
        /// The resource.
        resource: usize,
    },
    /// A resource with a positive price is not used to capacity (complementary slackness).
    #[error("resource {resource}: positive price but not used to capacity")]
    Slack {
        /// The resource.
        resource: usize,
    },
    /// A user below its cap does not get exactly what its budget buys,
    /// `x_i ≠ w_i / (p · d_i)` (stationarity).
    #[error("tasks[{user}]: not w_i / (p · d_i) although below the cap")]
    Stationarity {
        /// The user.
        user: usize,
    },
    /// A user at its cap could not afford it: `w_i / (p · d_i) < T_i` (stationarity).
    #[error("tasks[{user}]: at the cap but the budget buys less, w_i / (p · d_i) < T_i")]
    CapStationarity {
        /// The user.
        user: usize,
    },
    /// The sign of an algebraic quantity could not be decided within the refinement limit
    /// (only from [`check_kkt`](super::algebraic::check_kkt); rational checks decide every
    /// sign).
    #[error("{quantity}[{index}]: sign not decided within the refinement limit")]
    SignUndecided {
        /// `"prices"`, `"tasks"` or `"resources"` (the unused capacity).
        quantity: &'static str,
        /// The index.
        index: usize,
    },
}

/// Checks exactly that `(tasks, prices)` satisfies the KKT conditions of the Eisenberg–Gale
/// program, i.e. that it is a CEEI (with weights as budgets):
/// - primal feasibility: `0 <= x_i <= T_i`, `Σ_i x_i d_ij <= R_j`;
/// - dual feasibility: `p_j >= 0`;
/// - complementary slackness: `p_j > 0` ⇒ `Σ_i x_i d_ij = R_j`;
/// - stationarity: a user below its cap has `x_i (p · d_i) = w_i`; a user at its cap has
///   `w_i >= T_i (p · d_i)`.
///
/// The program is concave, so these conditions are sufficient: `Ok(())` proves `tasks`
/// optimal (the tasks are unique). Conditions are checked in the order listed on
/// [`KktViolation`]'s variants; the first failure is returned.
///
/// # Example
/// ```
/// use leontief_solver::ceei::{certify, KktViolation};
/// use leontief_solver::{Instance, Rational, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let r = |s: &str| s.parse::<Rational>().unwrap();
/// let p = [r("1/5"), r("1/90")];
/// assert_eq!(certify(&paper, &[r("45/11"), r("18/11")], &p), Ok(()));
/// assert_eq!(certify(&paper, &[r("4"), r("18/11")], &p),
///            Err(KktViolation::Slack { resource: 0 }));
/// ```
pub fn certify(
    inst: &Instance,
    tasks: &[Rational],
    prices: &[Rational],
) -> Result<(), KktViolation> {
    check_shape(inst, tasks.len(), prices.len())?;
    if let Some(resource) = prices.iter().position(Rational::is_negative) {
        return Err(KktViolation::NegativePrice { resource });
    }
    if let Some(user) = tasks.iter().position(Rational::is_negative) {
        return Err(KktViolation::NegativeTasks { user });
    }
    for (user, (u, x)) in inst.users().iter().zip(tasks).enumerate() {
        if u.cap.as_ref().is_some_and(|t| x > t) {
            return Err(KktViolation::AboveCap { user });
        }
    }
    let used = exact_usage(inst, tasks);
    for (resource, (c, r)) in used.iter().zip(inst.capacity()).enumerate() {
        if c > r {
            return Err(KktViolation::OverCapacity { resource });
        }
    }
    for (resource, (c, r)) in used.iter().zip(inst.capacity()).enumerate() {
        if prices[resource].is_positive() && c < r {
            return Err(KktViolation::Slack { resource });
        }
    }
    for (user, (u, x)) in inst.users().iter().zip(tasks).enumerate() {
        let cost = task_cost(&u.demand, prices);
        match &u.cap {
            Some(t) if x == t => {
                if u.weight < t * &cost {
                    return Err(KktViolation::CapStationarity { user });
                }
            }
            _ => {
                if x * &cost != u.weight {
                    return Err(KktViolation::Stationarity { user });
                }
            }
        }
    }
    Ok(())
}

/// `Σ_i x_i d_ij` exactly, by a balanced summation ([`balanced_sum`]): with many distinct
/// denominators (tasks `w_i / t_i`) the operands grow evenly, where a running sum would redo
/// ever larger gcds.
fn exact_usage(inst: &Instance, tasks: &[Rational]) -> Vec<Rational> {
    (0..inst.num_resources())
        .map(|j| {
            balanced_sum(
                inst.users()
                    .iter()
                    .zip(tasks)
                    .filter(|(u, x)| !u.demand[j].is_zero() && !x.is_zero())
                    .map(|(u, x)| &u.demand[j] * x),
            )
        })
        .collect()
}

/// `p · d` exactly.
fn task_cost(demand: &[Rational], prices: &[Rational]) -> Rational {
    balanced_sum(
        demand
            .iter()
            .zip(prices)
            .filter(|(d, p)| !d.is_zero() && !p.is_zero())
            .map(|(d, p)| d * p),
    )
}

/// Each user's exact best response to `prices`: `min(T_i, w_i / (p · d_i))`; `None` when an
/// uncapped user's tasks would cost nothing.
pub(super) fn best_responses(inst: &Instance, prices: &[Rational]) -> Option<Vec<Rational>> {
    inst.users()
        .iter()
        .map(|u| {
            let cost = task_cost(&u.demand, prices);
            match &u.cap {
                Some(t) if u.weight >= t * &cost => Some(t.clone()),
                _ => u.weight.checked_div(&cost),
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Certification: rational reconstruction, floating-point screens, exact checks.

/// The simplest fraction `(num, den)` (smallest denominator) in `[lo, hi]`, `0 <= lo`, by
/// continued fractions in floating point. Only a *candidate*: exactness is decided later.
fn simplest_between(lo: f64, hi: f64) -> Option<(i128, i128)> {
    if !(lo.is_finite() && hi.is_finite()) || lo > hi || hi < 0.0 {
        return None;
    }
    if lo <= 0.0 {
        return Some((0, 1));
    }
    // Convergents h/k of the partial quotients so far (h_{-2}/k_{-2} = 0/1, h_{-1}/k_{-1} = 1/0).
    let (mut h0, mut h1, mut k0, mut k1) = (0_i128, 1_i128, 1_i128, 0_i128);
    let (mut a, mut b) = (lo, hi);
    for _ in 0..80 {
        // When an integer lies in [a, b], the smallest one ends the expansion; else the
        // partial quotient is the integer part.
        let ends = a.ceil() <= b;
        let f = if ends { a.ceil() } else { a.floor() };
        let fi = float_to_i128(f)?;
        let h = fi.checked_mul(h1)?.checked_add(h0)?;
        let k = fi.checked_mul(k1)?.checked_add(k0)?;
        if k > MAX_DENOMINATOR {
            return None;
        }
        if ends {
            return Some((h, k));
        }
        (h0, h1, k0, k1) = (h1, h, k1, k);
        // a, b in (f, f + 1): continue with the reciprocals of the fractional parts.
        (a, b) = (1.0 / (b - f), 1.0 / (a - f));
    }
    None
}

fn float_to_i128(v: f64) -> Option<i128> {
    (v.is_finite() && v.abs() < 1e30).then_some(v as i128)
}

fn candidate(v: f64, tau: f64) -> Option<Rational> {
    let (num, den) = simplest_between(v - tau * v.abs(), v + tau * v.abs())?;
    Rational::new(num, den)
}

/// Market clearing in floating point for candidate tasks `x`: no resource over-used and
/// every resource in `priced` used to capacity, up to a bound on the rounding error of the
/// evaluation (compensated sums, terms with a few roundings each), so that an exactly
/// clearing candidate always passes. Returns the resources found saturated.
fn screen(prob: &Problem, x: &[f64], priced: &[bool]) -> Option<Vec<bool>> {
    let mut sums = vec![Neumaier::default(); prob.m];
    let mut abs = vec![0.0; prob.m];
    for s in &mut sums {
        s.add(-1.0);
    }
    for (i, &xi) in x.iter().enumerate() {
        for k in prob.row(i) {
            let v = xi * prob.val[k];
            sums[prob.col[k]].add(v);
            abs[prob.col[k]] += v;
        }
    }
    let factor = 8.0 * (prob.m as f64 + 4.0) * UNIT;
    let mut saturated = vec![false; prob.m];
    for j in 0..prob.m {
        let over = sums[j].value();
        let thr = factor * (abs[j] + 1.0);
        if over > thr || (priced[j] && over < -thr) {
            return None;
        }
        saturated[j] = over >= -thr;
    }
    Some(saturated)
}

pub(super) fn try_certify(
    inst: &Instance,
    prob: &Problem,
    pt: &Point,
    prices: &[f64],
) -> Option<(Vec<Rational>, Vec<Rational>)> {
    let m = prob.m;
    let positive: Vec<bool> =
        pt.q.iter()
            .zip(&prob.share)
            .map(|(&q, &s)| q > ZERO_PRICE * s)
            .collect();
    let mut tried_prices: Vec<Vec<Rational>> = Vec::new();
    let mut tried_tasks: Vec<Vec<(i128, i128)>> = Vec::new();
    for tau in RECONSTRUCTION_TOLERANCES {
        // (a) Prices first; the tasks follow from them.
        let p_hat: Option<Vec<Rational>> = (0..m)
            .map(|j| {
                if positive[j] {
                    candidate(prices[j], tau)
                } else {
                    Some(Rational::ZERO)
                }
            })
            .collect();
        if let Some(p_hat) = p_hat
            && !tried_prices.contains(&p_hat)
        {
            if let Some(found) = check_prices(inst, prob, &p_hat) {
                return Some(found);
            }
            tried_prices.push(p_hat);
        }
        // (b) Tasks; the prices solve the stationarity equations. Candidates are screened
        // as fractions before any rational is built.
        let fractions: Option<Vec<(i128, i128)>> = inst
            .users()
            .iter()
            .zip(&pt.x)
            .map(
                |(u, &x)| match u.cap.as_ref().and_then(Rational::as_small) {
                    Some((tn, td)) if (x - tn as f64 / td as f64).abs() <= tau * x.abs() => {
                        Some((tn, td))
                    }
                    _ => simplest_between(x - tau * x.abs(), x + tau * x.abs()),
                },
            )
            .collect();
        if let Some(fractions) = fractions
            && !tried_tasks.contains(&fractions)
        {
            let xf: Vec<f64> = fractions
                .iter()
                .map(|&(a, b)| a as f64 / b as f64)
                .collect();
            if let Some(saturated) = screen(prob, &xf, &positive) {
                let x_hat: Option<Vec<Rational>> = fractions
                    .iter()
                    .map(|&(a, b)| Rational::new(a, b))
                    .collect();
                if let Some(found) =
                    x_hat.and_then(|x| check_tasks(inst, prob, &x, &xf, &saturated, prices, tau))
                {
                    return Some(found);
                }
            }
            tried_tasks.push(fractions);
        }
    }
    None
}

/// Candidate prices: screen the induced tasks, then check exactly.
fn check_prices(
    inst: &Instance,
    prob: &Problem,
    p_hat: &[Rational],
) -> Option<(Vec<Rational>, Vec<Rational>)> {
    let q = prob.scaled_prices(p_hat);
    let x: Vec<f64> = (0..prob.n)
        .map(|i| Some(prob.demand(i, prob.cost(i, &q))?.0))
        .collect::<Option<_>>()?;
    let priced: Vec<bool> = p_hat.iter().map(Rational::is_positive).collect();
    screen(prob, &x, &priced)?;
    let x_hat = best_responses(inst, p_hat)?;
    certify(inst, &x_hat, p_hat).ok()?;
    Some((x_hat, p_hat.to_vec()))
}

/// Candidate tasks (already screened; `saturated` from the screen): solve the stationarity
/// equations exactly for prices on the saturated, priced resources, then check exactly.
fn check_tasks(
    inst: &Instance,
    prob: &Problem,
    x_hat: &[Rational],
    xf: &[f64],
    saturated: &[bool],
    prices: &[f64],
    tau: f64,
) -> Option<(Vec<Rational>, Vec<Rational>)> {
    let priced: Vec<bool> = prices
        .iter()
        .zip(prob.price_unit.iter().zip(&prob.share))
        .map(|(p, (u, s))| p / u > ZERO_PRICE * s)
        .collect();
    let support: Vec<usize> = (0..prob.m).filter(|&j| saturated[j] && priced[j]).collect();
    let k = support.len();
    let users = inst.users();
    let below_cap = |i: usize| users[i].cap.as_ref().is_none_or(|t| x_hat[i] < *t);
    // Pick (in floating point) a maximal set of independent stationarity rows.
    let mut basis: Vec<Vec<f64>> = Vec::new();
    let mut rows: Vec<usize> = Vec::new();
    for i in (0..prob.n).filter(|&i| below_cap(i)) {
        if rows.len() == k {
            break;
        }
        let mut v = vec![0.0; k];
        for kk in prob.row(i) {
            if let Some(c) = support.iter().position(|&j| j == prob.col[kk]) {
                v[c] = prob.val[kk];
            }
        }
        let norm0 = v.iter().map(|a| a * a).sum::<f64>().sqrt();
        for b in &basis {
            let dot: f64 = v.iter().zip(b).map(|(a, b)| a * b).sum();
            for (a, b) in v.iter_mut().zip(b) {
                *a -= dot * b;
            }
        }
        let norm = v.iter().map(|a| a * a).sum::<f64>().sqrt();
        if norm > 1e-9 * norm0 && norm > 0.0 {
            basis.push(v.iter().map(|a| a / norm).collect());
            rows.push(i);
        }
    }
    // Free prices (when the rows do not determine them all) take reconstructed values.
    let fallback: Vec<Rational> = support
        .iter()
        .map(|&j| candidate(prices[j], tau).unwrap_or(Rational::ZERO))
        .collect();
    // Exact reduced row echelon form of [d_ij (j in support) | w_i / x_i] over `rows`.
    let mut a: Vec<Vec<Rational>> = rows
        .iter()
        .map(|&i| {
            let u = &users[i];
            let mut row: Vec<Rational> = support.iter().map(|&j| u.demand[j].clone()).collect();
            row.push(u.weight.checked_div(&x_hat[i])?);
            Some(row)
        })
        .collect::<Option<_>>()?;
    let mut pivots: Vec<(usize, usize)> = Vec::new(); // (row, column)
    for r in 0..a.len() {
        let Some(c) = (0..k).find(|&c| !a[r][c].is_zero()) else {
            if a[r][k].is_zero() {
                continue;
            }
            return None; // inconsistent
        };
        let inv = a[r][c].recip()?;
        for v in a[r].iter_mut() {
            *v = &*v * &inv;
        }
        let pivot_row = a[r].clone();
        for (r2, row) in a.iter_mut().enumerate() {
            if r2 != r && !row[c].is_zero() {
                let f = row[c].clone();
                for (v, pv) in row.iter_mut().zip(&pivot_row) {
                    *v -= &f * pv;
                }
            }
        }
        pivots.push((r, c));
    }
    let mut sol = fallback;
    for &(r, c) in &pivots {
        let mut v = a[r][k].clone();
        for cc in (0..k).filter(|&cc| cc != c && !pivots.iter().any(|&(_, pc)| pc == cc)) {
            v -= &a[r][cc] * &sol[cc];
        }
        sol[c] = v;
    }
    let mut p_hat = vec![Rational::ZERO; prob.m];
    for (c, &j) in support.iter().enumerate() {
        p_hat[j] = sol[c].clone();
    }
    // Stationarity in floating point first (the exact check of a large instance is costly):
    // x_i (p · d_i) = w_i for users below the cap, w_i >= T_i (p · d_i) at the cap, up to
    // the rounding error of the evaluation (an exact candidate always passes).
    let q = prob.scaled_prices(&p_hat);
    let thr = 8.0 * (prob.m as f64 + 4.0) * UNIT;
    for (i, &x) in xf.iter().enumerate() {
        let t = prob.cost(i, &q);
        let ok = if below_cap(i) {
            (x * t - prob.w[i]).abs() <= thr * prob.w[i]
        } else {
            prob.w[i] >= prob.cap[i] * t * (1.0 - thr)
        };
        if !ok {
            return None;
        }
    }
    certify(inst, x_hat, &p_hat).ok()?;
    Some((x_hat.to_vec(), p_hat))
}

/// What the KKT checks need before any condition: one task count per user, one price per
/// resource, and no per-resource weights (the conditions are those of equal-weight budgets).
pub(crate) fn check_shape(
    inst: &Instance,
    tasks: usize,
    prices: usize,
) -> Result<(), KktViolation> {
    let (n, m) = (inst.num_users(), inst.num_resources());
    for (what, expected, found) in [("tasks", n, tasks), ("prices", m, prices)] {
        if found != expected {
            return Err(KktViolation::Length {
                what,
                expected,
                found,
            });
        }
    }
    if let Some(user) = inst
        .users()
        .iter()
        .position(|u| u.resource_weights.is_some())
    {
        return Err(KktViolation::ResourceWeights { user });
    }
    Ok(())
}
