//! Knife-edge strata: the extremes of a metric sit where the answer's structure changes — a
//! resource saturated at zero price, a lie that makes a second resource saturate exactly —
//! and a random draw lands there with probability 0 (docs/explore.md §5.1).
//!
//! Two strata, searched inside each evaluation of the lie metrics (`sp-gain`, `gsp-gain`):
//!
//! - **The tightened instance.** For an exact truthful answer `x`, the same instance with
//!   every resource `j` whose load `L_j = Σ_i x_i d_ij` is positive and below `R_j` cut to
//!   `R_j := L_j`. CEEI's answer stays the same (a slack resource has price 0, and a
//!   saturated resource may keep price 0), but `j` is now saturated: the knife edge on
//!   which a liar's extra demand for `j` moves the prices. DRF's answer may change (its
//!   dominant shares are measured against the new capacities). Either way the answer on
//!   the tightened instance is recomputed, never assumed.
//! - **Lie lines.** For a base instance (the instance, or the tightened one), every user
//!   `i` with tasks and every resource `k` saturated in the base's answer (in use, for an
//!   approximate answer), the
//!   one-parameter family of reports
//!   `d'_i(t) = d_i + t e_k`, `t ∈ [0, T]` with `T = 2 μ_i R_k` (twice the liar's dominant
//!   share of `k`). The value is piecewise in `t` (each piece one support of the lying
//!   answer); its maximum is at a breakpoint or a stationary point of a piece. Every line
//!   is screened at `t = T/16` and `T/4`; the best [`REFINED_LINES`] lines whose screened
//!   value beats the truth's 1 are then maximized by [`golden_max`]: golden-section steps whose probes are the simplest
//!   rationals near the golden points, then the simplest rational of the last bracket —
//!   which is the breakpoint itself when the breakpoint is a rational of small denominator
//!   (as `n / (2n − 1)` is).
//!
//! Every probe is one scenario of the evaluation's budget ([`Ctx::limit`]), exact and
//! re-derived as any other; the strata draw nothing from the random stream, so an
//! evaluation stays a function of its instance and its stream. They take the place of as
//! many steps of the metric's climb, so an evaluation costs more than without them only
//! when they alone take more scenarios than the climb has steps; the lies tried before
//! them are `search`'s own (the same lists from the same stream).

use leontief_solver::properties::Scenario;
use leontief_solver::{Allocation, Instance, Mechanism, Rational};

use super::metric::{try_scenario, Ctx, Direction, Evaluation, Metric};
use crate::candidate::Candidate;

/// Lines refined by golden-section search per base instance (after screening).
pub const REFINED_LINES: usize = 2;

/// Probes of one golden-section search (the last one at the simplest rational of the
/// final bracket).
pub const GOLDEN_PROBES: usize = 20;

fn q(p: i128, d: i128) -> Rational {
    Rational::new(p, d).expect("nonzero denominator")
}

/// The simplest rational in `[lo, hi]` (the smallest denominator, then the smallest
/// numerator), for `0 <= lo <= hi`: the continued-fraction walk down the Stern–Brocot tree.
///
/// # Example
/// ```
/// use leontief_counterexamples::explore::knife::simplest_between;
/// use leontief_solver::Rational;
/// let q = |p, d| Rational::new(p, d).unwrap();
/// assert_eq!(simplest_between(&q(59, 100), &q(61, 100)), q(3, 5));
/// assert_eq!(simplest_between(&q(1, 3), &q(1, 3)), q(1, 3));
/// assert_eq!(simplest_between(&q(3, 2), &q(5, 2)), q(2, 1));
/// ```
///
/// # Panics
/// When `lo` is negative or `lo > hi`.
pub fn simplest_between(lo: &Rational, hi: &Rational) -> Rational {
    assert!(!lo.is_negative() && lo <= hi, "expected 0 <= lo <= hi");
    let floor = lo.floor();
    if floor == *lo {
        return lo.clone();
    }
    let next = &floor + &Rational::ONE;
    if next <= *hi {
        return next;
    }
    // Both ends lie in (floor, floor + 1): x = floor + 1/y with y in [1/(hi − floor),
    // 1/(lo − floor)], and the simplest x has the simplest y.
    let y_lo = (hi - &floor).recip().expect("hi > floor");
    let y_hi = (lo - &floor).recip().expect("lo > floor");
    &floor
        + &simplest_between(&y_lo, &y_hi)
            .recip()
            .expect("y >= 1 is positive")
}

/// The simplest rational within `w/32` of `x`, kept strictly inside `(a, b)` (`w = b − a`;
/// `x` itself when the window holds nothing simpler inside).
fn snap(x: &Rational, a: &Rational, b: &Rational) -> Rational {
    let w = b - a;
    let r = &w * &q(1, 32);
    let lo = (x - &r).max(a.clone());
    let hi = (x + &r).min(b.clone());
    let s = simplest_between(&lo, &hi);
    if s > *a && s < *b {
        s
    } else {
        x.clone()
    }
}

/// The point at `fraction` of `[a, b]`, snapped ([`snap`]).
fn at(a: &Rational, b: &Rational, fraction: &Rational) -> Rational {
    let x = a + &(&(b - a) * fraction);
    snap(&x, a, b)
}

/// Maximizes `f` over the rationals of `[lo, hi]` with at most `probes` calls:
/// golden-section steps (the bracket keeps its best interior point and probes the mirror
/// image of it, snapped to a simple rational), then one probe at the simplest rational of
/// the last bracket. `f` returns the objective of a probe (`None`: no value, below every
/// value); it keeps the best probe itself. For a unimodal `f` the last bracket holds the
/// maximizer; a maximizer at a kink of small denominator is then probed exactly.
pub fn golden_max(
    lo: &Rational,
    hi: &Rational,
    probes: usize,
    f: &mut dyn FnMut(&Rational) -> Option<Rational>,
) {
    if probes == 0 || lo >= hi {
        return;
    }
    // 0.382 and 0.618 to three places; snapping moves the probes anyway.
    let (near, far) = (q(382, 1000), q(618, 1000));
    let (mut a, mut b) = (lo.clone(), hi.clone());
    let mut left = probes - 1; // the last probe is the final snap
    if left < 2 {
        f(&simplest_between(&a, &b));
        return;
    }
    let mut c = at(&a, &b, &near);
    let mut d = at(&a, &b, &far);
    let (mut fc, mut fd) = (f(&c), f(&d));
    left -= 2;
    while left > 0 && c < d {
        if fc >= fd {
            // The maximum is in [a, d]; c is its upper interior point.
            b = d;
            (d, fd) = (c.clone(), fc.clone());
            let m = snap(&(&(&a + &b) - &d), &a, &b);
            if m < d && well_placed(&d, &a, &b) {
                c = m;
                fc = f(&c);
                left -= 1;
            } else if left >= 2 {
                c = at(&a, &b, &near);
                d = at(&a, &b, &far);
                (fc, fd) = (f(&c), f(&d));
                left -= 2;
            } else {
                break;
            }
        } else {
            a = c;
            (c, fc) = (d.clone(), fd.clone());
            let m = snap(&(&(&a + &b) - &c), &a, &b);
            if m > c && well_placed(&c, &a, &b) {
                d = m;
                fd = f(&d);
                left -= 1;
            } else if left >= 2 {
                c = at(&a, &b, &near);
                d = at(&a, &b, &far);
                (fc, fd) = (f(&c), f(&d));
                left -= 2;
            } else {
                break;
            }
        }
    }
    // The last bracket: [a, d] or [c, b] by the last comparison, i.e. around the better
    // interior point.
    let (s, e) = if fc >= fd { (&a, &d) } else { (&c, &b) };
    f(&simplest_between(s, e));
}

/// Whether `x` lies in the middle of `[a, b]` (between 1/5 and 4/5 of it): a kept point
/// that close to an end would make the mirror step shrink the bracket too little.
fn well_placed(x: &Rational, a: &Rational, b: &Rational) -> bool {
    let w = b - a;
    let t = &(x - a) / &w;
    t >= q(1, 5) && t <= q(4, 5)
}

/// The instance with every resource whose load under the exact answer `x` is positive and
/// below its capacity cut to that load (the tightened instance of the module docs); `None`
/// for an approximate answer or when no resource is slack.
pub fn tightened(instance: &Instance, x: &Allocation) -> Option<Instance> {
    if x.tolerance.is_some() {
        return None;
    }
    let load = x.consumption(instance);
    let mut capacity = instance.capacity().to_vec();
    let mut cut = false;
    for (c, l) in capacity.iter_mut().zip(load) {
        if l.is_positive() && l < *c {
            *c = l;
            cut = true;
        }
    }
    cut.then(|| instance.with_capacity(capacity).ok()).flatten()
}

/// One lie line: user `user` reports `d_user + t e_resource` for `t` in `[0, end]`.
struct LieLine {
    user: usize,
    resource: usize,
    end: Rational,
}

impl LieLine {
    fn report(&self, instance: &Instance, t: &Rational) -> Vec<(usize, Vec<Rational>)> {
        let mut d = instance.users()[self.user].demand.clone();
        d[self.resource] = &d[self.resource] + t;
        vec![(self.user, d)]
    }
}

/// The knife-edge lies of a lie metric (module docs) on `instance` and its tightened
/// instance, each probe kept in `best` when it beats it ([`try_scenario`]). Maximizing
/// metrics only (both lie metrics are).
pub(crate) fn lie_strata(
    metric: &dyn Metric,
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    ctx: &mut Ctx,
    best: &mut Option<Evaluation>,
) {
    debug_assert_eq!(metric.direction(), Direction::Max);
    lie_lines(metric, mechanism, instance, truth, ctx, best);
    let Some(tight) = tightened(instance, truth) else {
        return;
    };
    if ctx.spent() {
        return;
    }
    ctx.scenarios += 1;
    match mechanism.allocate(&tight) {
        Ok(x) => lie_lines(metric, mechanism, &tight, &x, ctx, best),
        Err(e) => ctx.error(e),
    }
}

/// Screens every lie line of `instance` and refines the best ones (module docs).
fn lie_lines(
    metric: &dyn Metric,
    mechanism: &dyn Mechanism,
    instance: &Instance,
    truth: &Allocation,
    ctx: &mut Ctx,
    best: &mut Option<Evaluation>,
) {
    // Saturated resources only: extra demand on a slack one changes nothing until it
    // closes the slack, and the tightened instance starts there. An approximate answer
    // cannot tell saturated from nearly so: every resource in use.
    let saturated = match truth.tolerance {
        None => truth.saturated(instance),
        Some(_) => {
            let load = truth.consumption(instance);
            (0..load.len()).filter(|&j| load[j].is_positive()).collect()
        }
    };
    let lines: Vec<LieLine> = (0..instance.num_users())
        .filter(|&i| truth.tasks[i].is_positive())
        .flat_map(|i| {
            let mu = instance.task_dominant_share(i);
            saturated.iter().map(move |&k| (i, k, mu.clone()))
        })
        .map(|(i, k, mu)| LieLine {
            user: i,
            resource: k,
            end: &(&mu * &instance.capacity()[k]) * &Rational::from(2),
        })
        .collect();
    let probe = |line: &LieLine, t: &Rational, ctx: &mut Ctx, best: &mut Option<Evaluation>| {
        let c = Candidate::new(instance.clone(), Scenario::Lies(line.report(instance, t)));
        try_scenario(metric, mechanism, c, truth, ctx, best).map(|e| e.lo)
    };
    let mut screened: Vec<(Option<Rational>, usize)> = Vec::with_capacity(lines.len());
    for (n, line) in lines.iter().enumerate() {
        let mut top = None;
        for f in [q(1, 16), q(1, 4)] {
            if ctx.spent() {
                return;
            }
            top = top.max(probe(line, &(&line.end * &f), ctx, best));
        }
        screened.push((top, n));
    }
    // The best screened lines first; ties by line order (stable sort). A line no better
    // than the truth's value 1 shows no slope to climb: it is not refined.
    screened.sort_by(|x, y| y.0.cmp(&x.0));
    for (top, n) in screened.iter().take(REFINED_LINES) {
        if top.as_ref().is_none_or(|v| *v <= Rational::ONE) {
            break;
        }
        let line = &lines[*n];
        golden_max(&Rational::ZERO, &line.end, GOLDEN_PROBES, &mut |t| {
            probe(line, t, ctx, best)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplest_between_walks_the_stern_brocot_tree() {
        // By hand: between 0.66 and 0.67 the fractions of denominator <= 2 are 0, 1/2, 1,
        // outside; 2/3 = 0.666... is inside.
        assert_eq!(simplest_between(&q(66, 100), &q(67, 100)), q(2, 3));
        // [4/7 − 1/1000, 4/7 + 1/1000]: no denominator below 7 comes within 1/1000 of 4/7
        // (the nearest, 1/2 and 3/5, are 1/14 and 1/35 away).
        let x = q(4, 7);
        let e = q(1, 1000);
        assert_eq!(simplest_between(&(&x - &e), &(&x + &e)), x);
        assert_eq!(simplest_between(&Rational::ZERO, &q(1, 2)), Rational::ZERO);
        assert_eq!(simplest_between(&q(7, 3), &q(7, 3)), q(7, 3));
    }

    #[test]
    fn golden_max_finds_a_kink_at_a_simple_rational_exactly() {
        // −|t − p| rises up to t = p and falls after it: its maximum is the kink at p.
        for peak in [q(3, 10), q(4, 7)] {
            let mut seen = Vec::new();
            let p = peak.clone();
            golden_max(&Rational::ZERO, &Rational::ONE, GOLDEN_PROBES, &mut |t| {
                seen.push(t.clone());
                Some(-(t - &p).abs())
            });
            assert!(seen.len() <= GOLDEN_PROBES);
            assert!(seen.contains(&peak), "{peak} not probed: {seen:?}");
        }
    }
}
