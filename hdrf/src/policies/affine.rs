//! Piecewise-linear helpers the policies' fluid keys are made of: the value and right
//! derivative of a maximum or a minimum of affine functions, and where its argument changes.

use leontief_solver::Rational;

/// The maximum of `values` and, among the entries attaining it, the largest `slopes` entry:
/// the value and right derivative of `max_j (values_j + t slopes_j)` at `t = 0`, over the
/// entries `j` with `keep(j)`.
pub(crate) fn max_with_slope<'a>(
    values: &'a [Rational],
    slopes: &'a [Rational],
    keep: impl Fn(usize) -> bool,
) -> (&'a Rational, &'a Rational) {
    let mut best: Option<(&Rational, &Rational)> = None;
    for (j, (v, s)) in values.iter().zip(slopes).enumerate() {
        if !keep(j) {
            continue;
        }
        best = match best {
            None => Some((v, s)),
            Some((bv, bs)) if v > bv || (v == bv && s > bs) => Some((v, s)),
            other => other,
        };
    }
    best.expect("some resource is kept")
}

/// The first `t > 0` at which another entry overtakes the maximum of `values + t·slopes`
/// (entries with `keep(j)`), if any.
pub(crate) fn max_breakpoint(
    values: &[Rational],
    slopes: &[Rational],
    keep: impl Fn(usize) -> bool + Copy,
) -> Option<Rational> {
    let (s, ds) = max_with_slope(values, slopes, keep);
    let mut best = None;
    for (j, (v, dv)) in values.iter().zip(slopes).enumerate() {
        if keep(j) && dv > ds {
            keep_min(&mut best, (s - v) / (dv - ds));
        }
    }
    best
}

/// `min` of two linear functions at `t = 0`: value and right derivative.
pub(crate) fn min_linear(a: (Rational, Rational), b: (Rational, Rational)) -> (Rational, Rational) {
    if a.0 < b.0 {
        a
    } else if b.0 < a.0 {
        b
    } else {
        let slope = a.1.min(b.1);
        (a.0, slope)
    }
}

/// The first `t > 0` at which the selection of [`min_linear`] between `a.0 + t·a.1` and
/// `b.0 + t·b.1` changes (the smaller one rising faster catches the other up), if any.
pub(crate) fn min_breakpoint(
    a: (&Rational, &Rational),
    b: (&Rational, &Rational),
) -> Option<Rational> {
    if a.0 < b.0 && a.1 > b.1 {
        Some((b.0 - a.0) / (a.1 - b.1))
    } else if b.0 < a.0 && b.1 > a.1 {
        Some((a.0 - b.0) / (b.1 - a.1))
    } else {
        None
    }
}

/// `best = min(best, t)`.
pub(crate) fn keep_min(best: &mut Option<Rational>, t: Rational) {
    if best.as_ref().is_none_or(|b| t < *b) {
        *best = Some(t);
    }
}

/// `acc += factor · v` (or `acc += v` without a factor), skipping zero entries.
pub(crate) fn add_scaled(acc: &mut [Rational], v: &[Rational], factor: Option<&Rational>) {
    for (a, x) in acc.iter_mut().zip(v) {
        if !x.is_zero() {
            match factor {
                Some(f) => *a += x * f,
                None => *a += x,
            }
        }
    }
}
