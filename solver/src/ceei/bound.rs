//! The proven bound on the relative duality gap of an uncertified CEEI answer (module docs
//! of [`super`], step 3).
//!
//! The float prices are taken exactly and every step is exact arithmetic (fixed-point
//! `i128` for integer data, else [`Rational`]), so the bound is a theorem about the
//! returned allocation, not a floating-point estimate.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use crate::{Allocation, ExactSum, Instance, Rational};

use super::certify::best_responses;
use super::newton::Problem;

/// `v` exactly, for a finite `v`.
fn exact_f64(v: f64) -> Rational {
    BigRational::from_float(v).map_or(Rational::ZERO, Rational::from_big)
}

/// `floor(num · 2^k / den)` and whether the division is exact, in `u128` (long division in
/// chunks); `None` when it does not fit.
fn shifted_floor(num: u128, den: u128, k: u32) -> Option<(u128, bool)> {
    let room = den.leading_zeros();
    if den == 0 || room == 0 {
        return None;
    }
    let (mut q, mut r) = (num / den, num % den);
    let mut left = k;
    while left > 0 {
        // r < den < 2^(128 − room), so r · 2^s fits for s <= room.
        let s = left.min(room);
        if q.leading_zeros() < s {
            return None;
        }
        q <<= s;
        r <<= s;
        q += r / den;
        r %= den;
        left -= s;
    }
    Some((q, r == 0))
}

/// `floor(x · 2^k)` for `x >= 0`, and whether it is exact.
fn grid_floor(x: &Rational, k: u32) -> (BigInt, bool) {
    if let Some((num, den)) = x.as_small()
        && let Some((fl, exact)) = shifted_floor(num.unsigned_abs(), den.unsigned_abs(), k)
    {
        return (BigInt::from(fl), exact);
    }
    let (fl, rem) = (x.numer() << k as usize).div_rem(&x.denom());
    (fl, rem.is_zero())
}

/// `n / 2^k` as a rational.
fn dyadic(n: &BigInt, k: u32) -> Rational {
    match n.to_i128() {
        Some(v) if k <= 126 => Rational::new(v, 1_i128 << k).expect("nonzero"),
        _ => Rational::from_big_parts(n.clone(), BigInt::from(1) << k as usize).expect("nonzero"),
    }
}

/// The smallest `f64` that is `>= r`.
fn f64_at_least(r: &Rational) -> f64 {
    let mut f = r.to_f64_lossy();
    if !f.is_finite() {
        return if r.is_negative() { f } else { f64::INFINITY };
    }
    for _ in 0..8 {
        if exact_f64(f) >= *r {
            return f;
        }
        f = f.next_up();
    }
    f64::INFINITY
}

/// Significant bits kept when rounding best responses for the bound.
const KEEP: u32 = 62;

/// The proven bound (module docs, step 3): a fixed-point integer evaluation when the data
/// are integers of moderate size (the common case, about 10× faster), else exact rationals
/// throughout. Both evaluate the same inequality exactly.
pub(super) fn proven_bound(inst: &Instance, prob: &Problem, q: &[f64]) -> (Vec<Rational>, f64) {
    proven_bound_integer(inst, prob, q).unwrap_or_else(|| proven_bound_rational(inst, prob, q))
}

/// `i128` parts of an integer below `2^limit` in magnitude.
fn small_int(r: &Rational, limit: u32) -> Option<i128> {
    match r.as_small() {
        Some((n, 1)) if n.unsigned_abs() < 1_u128 << limit => Some(n),
        _ => None,
    }
}

fn bit_len(v: u128) -> i64 {
    i64::from(128 - v.leading_zeros())
}

/// [`proven_bound_rational`]'s inequality with prices rounded to `c_j / 2^K` in original
/// units and every sum a fixed-point `i128`: `None` (use the rational path) when some
/// datum is not an integer below `2^40` (caps may be any small rationals) or an
/// intermediate would not fit.
///
/// Rounding the prices coarsely is harmless: the bound holds for any prices `>= 0`, and
/// the gap grows only quadratically with their error.
fn proven_bound_integer(
    inst: &Instance,
    prob: &Problem,
    q: &[f64],
) -> Option<(Vec<Rational>, f64)> {
    const LIMIT: u32 = 40;
    let users = inst.users();
    let caps: Vec<i128> = inst
        .capacity()
        .iter()
        .map(|r| small_int(r, LIMIT))
        .collect::<Option<_>>()?;
    // Each positive price rounded to 62 significant bits, c_j / 2^k_j (prices of different
    // resources can differ by many orders of magnitude); costs use the common 2^K.
    let prices = prob.original_prices(q);
    let mut c = vec![0_i128; prob.m];
    let mut kj = vec![0_u32; prob.m];
    for (j, &p) in prices.iter().enumerate() {
        if p > 0.0 && p.is_finite() {
            let k = i64::from(KEEP) - (p.log2().ceil() as i64);
            if !(0..=1000).contains(&k) {
                return None;
            }
            kj[j] = k as u32;
            c[j] = ((p * 2f64.powi(k as i32)).round() as i128).max(1);
        }
    }
    let kk = (0..prob.m).filter(|&j| c[j] != 0).map(|j| kj[j]).max()?;
    if kk > 86 {
        return None;
    }
    let c_common: Vec<i128> = (0..prob.m)
        .map(|j| {
            let shift = kk - kj[j];
            (c[j].leading_zeros() > shift + 1).then(|| c[j] << shift)
        })
        .collect::<Option<_>>()?;
    // Per user: x* = num / den exactly, then fl = floor(x* 2^k).
    let mut rounded: Vec<(u128, bool, u32)> = Vec::with_capacity(users.len());
    for u in users {
        let w = small_int(&u.weight, LIMIT)?;
        let mut cost: i128 = 0; // t_i 2^K
        for (d, cj) in u.demand.iter().zip(&c_common) {
            if *cj != 0 && !d.is_zero() {
                cost = cost.checked_add(small_int(d, LIMIT)?.checked_mul(*cj)?)?;
            }
        }
        let budget = w.checked_mul(1_i128 << kk)?; // w_i 2^K
        let (num, den) = match &u.cap {
            Some(t) => {
                let (tn, td) = t.as_small()?;
                // Capped when T_i <= w_i / t_i.
                if tn.checked_mul(cost)? <= budget.checked_mul(td)? {
                    (tn, td)
                } else {
                    (budget, cost)
                }
            }
            None => (budget, cost),
        };
        if den <= 0 {
            return None;
        }
        let (num, den) = (num as u128, den as u128);
        // x* 2^k in [2^61, 2^63) with k = 62 − (bits(num) − bits(den)).
        let k = i64::from(KEEP) - (bit_len(num) - bit_len(den));
        if k > 120 {
            return None;
        }
        let k = k.max(0) as u32;
        let (fl, exact) = shifted_floor(num, den, k)?;
        if fl < 1_u128 << (KEEP - 1) && !exact {
            return None;
        }
        rounded.push((fl, exact, k));
    }
    // Scaled use with the common exponent E: U_j = Σ_i fl_i 2^(E − k_i) d_ij.
    let e = rounded.iter().map(|r| r.2).max().unwrap_or(0);
    let mut lo = vec![0_i128; prob.m];
    let mut hi = vec![0_i128; prob.m];
    for (u, &(fl, exact, k)) in users.iter().zip(&rounded) {
        let shift = e - k;
        let fl = i128::try_from(fl).ok()?;
        let base = fl.checked_mul(1_i128.checked_shl(shift)?)?;
        let up = if exact {
            base
        } else {
            fl.checked_add(1)?.checked_mul(1_i128 << shift)?
        };
        for (j, d) in u.demand.iter().enumerate() {
            if !d.is_zero() {
                let d = small_int(d, LIMIT)?;
                lo[j] = lo[j].checked_add(base.checked_mul(d)?)?;
                hi[j] = hi[j].checked_add(up.checked_mul(d)?)?;
            }
        }
    }
    // σ_j <= min(1, R_j 2^E / U_j^hi), rounded down: O(m) rational work.
    let two_e = Rational::from_big_parts(BigInt::from(1) << e as usize, BigInt::from(1))?;
    let sigmas = resource_sigmas(
        hi.iter()
            .enumerate()
            .map(|(j, &h)| (h > 0).then(|| Rational::from(caps[j]) * &two_e / Rational::from(h))),
    );
    // Σ_j q̂_j (1 − u_j^lo), q̂_j = c_j R_j / (2^k_j W), u_j^lo = U_j^lo / (2^E R_j):
    // = Σ_j c_j (2^E R_j − U_j^lo) / (2^(k_j+E) W).
    let mut bound = ExactSum::new();
    for j in 0..prob.m {
        if c[j] != 0 {
            let denom =
                Rational::from_big_parts(BigInt::from(1) << (kj[j] + e) as usize, BigInt::from(1))?
                    * &prob.weight_sum;
            let slack = Rational::from(caps[j]) * &two_e - Rational::from(lo[j]);
            bound.add(&(Rational::from(c[j]) * slack / &denom));
        }
    }
    let x_lo = rounded
        .iter()
        .map(|&(fl, _, k)| dyadic(&BigInt::from(fl), k))
        .collect();
    Some(scale_down(inst, &sigmas, &prob.weight_sum, x_lo, bound))
}

/// The bound in exact rationals throughout, for any data.
///
/// With `q̂` the float scaled prices (exact dyadic rationals), `x*_i = min(T_i, w̃_i / t̂_i)`
/// exactly, `x_i^lo <= x*_i <= x_i^hi` its roundings to 62 significant bits (exact when
/// `x*_i` is too small to round safely), `u^lo`, `u^hi` the corresponding scaled resource
/// use, `σ_j <= min(1, 1/u_j^hi)` dyadic and `σ_i = min_{j: d_ij > 0} σ_j`, the allocation
/// `x̃_i = σ_i x_i^lo` is exactly feasible and
/// `(OPT − f(x̃)) / W <= Σ_j q̂_j (1 − u_j^lo) + Σ_i w̃_i (1/σ_i − 1) + Σ_i w̃_i (x*_i / x_i^lo − 1)`,
/// where the last sum is at most `2^-60` (each rounded `x_i^lo >= 2^61` grid units).
fn proven_bound_rational(inst: &Instance, prob: &Problem, q: &[f64]) -> (Vec<Rational>, f64) {
    let users = inst.users();
    let cap = inst.capacity();
    // The float scaled prices themselves, exactly (dyadic rationals).
    let q_hat: Vec<Rational> = q
        .iter()
        .map(|&v| {
            if v.is_finite() && v > 0.0 {
                exact_f64(v)
            } else {
                Rational::ZERO
            }
        })
        .collect();
    let w_total = &prob.weight_sum;
    let mut lo: Vec<ExactSum> = (0..prob.m).map(|_| ExactSum::new()).collect();
    let mut hi: Vec<ExactSum> = (0..prob.m).map(|_| ExactSum::new()).collect();
    let mut x_lo = Vec::with_capacity(users.len());
    // x*_i = min(T_i, w̃_i / t̂_i) = min(T_i, w_i / (p̂ · d_i)) with p̂_j = W q̂_j / R_j.
    let p_hat: Vec<Rational> = q_hat
        .iter()
        .zip(cap)
        .map(|(q, r)| q * w_total / r)
        .collect();
    let Some(x_star) = best_responses(inst, &p_hat) else {
        return fallback_feasible(inst);
    };
    for (u, x) in users.iter().zip(x_star) {
        let mag = x.to_f64_lossy().log2().floor();
        let k = if mag.is_finite() {
            (f64::from(KEEP) - mag).clamp(0.0, 120.0) as u32
        } else {
            120
        };
        let (fl, exact) = grid_floor(&x, k);
        let (xl, xh) = if !exact && fl.bits() > u64::from(KEEP) - 1 {
            // fl >= 2^61: x* / x^lo − 1 < 2^-61 / (1 − 2^-61) <= 2^-60, in the allowance.
            (dyadic(&fl, k), dyadic(&(&fl + BigInt::from(1)), k))
        } else {
            // Exact on the grid, or too small to round safely: kept exact.
            (x.clone(), x.clone())
        };
        for (j, (d, r)) in u.demand.iter().zip(cap).enumerate() {
            if !d.is_zero() {
                let d = d / r;
                lo[j].add(&(&xl * &d));
                hi[j].add(&(&xh * &d));
            }
        }
        x_lo.push(xl);
    }
    // σ_j <= min(1, 1 / u_j^hi), rounded down to a dyadic rational.
    let sigmas = resource_sigmas(hi.iter_mut().map(|h| h.value().recip()));
    let mut bound = ExactSum::new();
    for (qj, l) in q_hat.iter().zip(&mut lo) {
        if !qj.is_zero() {
            bound.add(&(qj * &(Rational::ONE - l.value())));
        }
    }
    scale_down(inst, &sigmas, w_total, x_lo, bound)
}

/// Per resource, a dyadic `σ_j <= min(1, room_j)` (`room_j = 1 / u_j^hi`, `None` when
/// unused), so that scaling every user of resource `j` by at most `σ_j` makes it fit.
fn resource_sigmas(room: impl Iterator<Item = Option<Rational>>) -> Vec<Rational> {
    room.map(|r| match r {
        Some(r) if r < Rational::ONE => {
            let (fl, _) = grid_floor(&r, KEEP);
            if fl.is_zero() {
                r
            } else {
                dyadic(&fl, KEEP)
            }
        }
        _ => Rational::ONE,
    })
    .collect()
}

/// The feasible allocation and the bound: each user's `x_i^lo` scaled down by
/// `σ_i = min_{j: d_ij > 0} σ_j`, and `bound` (the price term) plus `Σ_i w̃_i (1/σ_i − 1)`,
/// which bounds the objective lost, `Σ_i w̃_i log(1/σ_i)`, plus the rounding allowance
/// `2^-60`, rounded up to `f64`.
fn scale_down(
    inst: &Instance,
    sigmas: &[Rational],
    w_total: &Rational,
    x_lo: Vec<Rational>,
    mut bound: ExactSum,
) -> (Vec<Rational>, f64) {
    let mut order: Vec<usize> = (0..sigmas.len()).collect();
    order.sort_by(|&a, &b| sigmas[a].cmp(&sigmas[b]));
    let mut rank = vec![0; sigmas.len()];
    for (r, &j) in order.iter().enumerate() {
        rank[j] = r;
    }
    let mut weight_by: Vec<ExactSum> = (0..sigmas.len()).map(|_| ExactSum::new()).collect();
    let feasible = inst
        .users()
        .iter()
        .zip(x_lo)
        .map(|(u, x)| {
            let j = (0..sigmas.len())
                .filter(|&j| !u.demand[j].is_zero())
                .min_by_key(|&j| rank[j]);
            match j {
                Some(j) if sigmas[j] < Rational::ONE => {
                    weight_by[j].add(&u.weight);
                    x * &sigmas[j]
                }
                _ => x,
            }
        })
        .collect();
    for (j, wsum) in weight_by.iter_mut().enumerate() {
        let wj = wsum.value();
        if !wj.is_zero() {
            let inv = sigmas[j].recip().expect("sigma is positive");
            bound.add(&(wj / w_total * (inv - Rational::ONE)));
        }
    }
    bound.add(&Rational::new(1, 1_i128 << 60).expect("nonzero"));
    (feasible, f64_at_least(&bound.value()).max(0.0))
}

/// A feasible allocation without a bound (`+∞`), for iterates where some uncapped user's
/// tasks would cost nothing (never the case for the iterates the solver produces).
fn fallback_feasible(inst: &Instance) -> (Vec<Rational>, f64) {
    let mut x: Vec<Rational> = inst
        .users()
        .iter()
        .map(|u| u.cap.clone().unwrap_or(Rational::ONE))
        .collect();
    let used = Allocation::new(x.clone()).consumption(inst);
    let mut sigma = Rational::ONE;
    for (c, r) in used.iter().zip(inst.capacity()) {
        if let Some(s) = r.checked_div(c) {
            sigma = sigma.min(s);
        }
    }
    for v in &mut x {
        *v = &*v * &sigma;
    }
    (x, f64::INFINITY)
}
