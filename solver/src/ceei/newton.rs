//! The CEEI dual in scaled floating point and its projected Newton minimisation (module
//! docs of [`super`], step 1).
//!
//! [`Problem`] is the instance converted once to `f64` (demands relative to capacity,
//! weights relative to their total); certification, the proven bound and the Clarabel
//! cross-check read the same scaled data, so they all share this conversion.

use crate::{ExactSum, Instance, Rational, SolverError};

use super::{SolveStatus, UNIT};

/// Gap at or below which a run that cannot reach the tolerance counts as `AlmostSolved`.
const ALMOST_GAP: f64 = 1e-8;

/// The instance in scaled floating point: `d̃_ij = d_ij / R_j`, `w̃_i = w_i / W`.
pub(super) struct Problem {
    pub(super) n: usize,
    pub(super) m: usize,
    /// Compressed rows: user `i`'s positive demands are `col[start[i]..start[i + 1]]`
    /// (increasing) with scaled values `val[..]`.
    start: Vec<usize>,
    pub(super) col: Vec<usize>,
    pub(super) val: Vec<f64>,
    /// `w_i / W`.
    pub(super) w: Vec<f64>,
    /// `T_i`, or `+∞`.
    pub(super) cap: Vec<f64>,
    /// `w̃_i ln T_i` (0 without a cap).
    w_ln_cap: Vec<f64>,
    /// `W / R_j`: scaled price to price per unit.
    pub(super) price_unit: Vec<f64>,
    /// `s_j = Σ_{i: d_ij > 0} w̃_i`: the most budget that can be spent on resource `j`, so
    /// `0 <= q_j <= s_j` at equilibrium; the Newton step works with `y_j = q_j / s_j`.
    pub(super) share: Vec<f64>,
    /// `W`, exactly.
    pub(super) weight_sum: Rational,
}

/// `a / b` in `f64`, correctly rounded when both are integers below 2^53.
fn ratio_f64(a: &Rational, b: &Rational) -> f64 {
    const LIMIT: i128 = 1 << 53;
    if let (Some((an, 1)), Some((bn, 1))) = (a.as_small(), b.as_small())
        && an.abs() < LIMIT
        && bn.abs() < LIMIT
        && bn != 0
    {
        return an as f64 / bn as f64;
    }
    a.checked_div(b).map_or(f64::NAN, |r| r.to_f64_lossy())
}

/// `v` when it is a positive normal `f64`; else the error `err` gives (a field, and what
/// is out of range).
fn in_range(v: f64, err: impl FnOnce() -> (String, String)) -> Result<f64, SolverError> {
    if v.is_finite() && v > 0.0 && v >= f64::MIN_POSITIVE {
        return Ok(v);
    }
    let (field, what) = err();
    Err(SolverError::invalid(
        field,
        format!("{what} is outside the floating-point range of the CEEI solver"),
    ))
}

impl Problem {
    pub(super) fn new(inst: &Instance) -> Result<Self, SolverError> {
        let (n, m) = (inst.num_users(), inst.num_resources());
        let mut wsum = ExactSum::new();
        for (i, u) in inst.users().iter().enumerate() {
            if u.resource_weights.is_some() {
                return Err(SolverError::invalid(
                    format!("users[{i}].weights"),
                    "CEEI takes one scalar weight per user (its budget in the Eisenberg–Gale \
                     program); per-resource weights are not supported",
                ));
            }
            wsum.add(&u.weight);
        }
        let weight_sum = wsum.value();
        let mut start = Vec::with_capacity(n + 1);
        let mut col = Vec::new();
        let mut val = Vec::new();
        let mut w = Vec::with_capacity(n);
        let mut cap = Vec::with_capacity(n);
        let mut w_ln_cap = Vec::with_capacity(n);
        // s_j, summed user by user.
        let mut share = vec![0.0; m];
        start.push(0);
        for (i, u) in inst.users().iter().enumerate() {
            for (j, (d, r)) in u.demand.iter().zip(inst.capacity()).enumerate() {
                if !d.is_zero() {
                    col.push(j);
                    val.push(in_range(ratio_f64(d, r), || {
                        let what = format!("demand / capacity = {d} / {r}");
                        (format!("users[{i}].demand[{j}]"), what)
                    })?);
                }
            }
            let wi = in_range(ratio_f64(&u.weight, &weight_sum), || {
                let what = "the weight's share of the total".to_string();
                (format!("users[{i}].weight"), what)
            })?;
            for &j in &col[start[i]..] {
                share[j] += wi;
            }
            start.push(col.len());
            w.push(wi);
            let tf = match &u.cap {
                None => f64::INFINITY,
                Some(t) => in_range(t.to_f64_lossy(), || {
                    (format!("users[{i}].tasks"), "the task cap".to_string())
                })?,
            };
            cap.push(tf);
            w_ln_cap.push(if tf.is_finite() { wi * tf.ln() } else { 0.0 });
        }
        for s in &mut share {
            if *s <= 0.0 {
                *s = 1.0; // nobody demands the resource: its price simply goes to 0
            }
        }
        let price_unit = inst
            .capacity()
            .iter()
            .enumerate()
            .map(|(j, r)| {
                in_range(ratio_f64(&weight_sum, r), || {
                    let what = "total weight / capacity".to_string();
                    (format!("capacity[{j}]"), what)
                })
            })
            .collect::<Result<Vec<f64>, _>>()?;
        Ok(Problem {
            n,
            m,
            start,
            col,
            val,
            w,
            cap,
            w_ln_cap,
            price_unit,
            share,
            weight_sum,
        })
    }

    pub(super) fn original_prices(&self, q: &[f64]) -> Vec<f64> {
        q.iter().zip(&self.price_unit).map(|(q, u)| q * u).collect()
    }

    pub(super) fn row(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i]..self.start[i + 1]
    }

    /// Scaled prices `q_j = p_j R_j / W` of prices `p` per unit, in `f64`.
    pub(super) fn scaled_prices(&self, p: &[Rational]) -> Vec<f64> {
        p.iter()
            .zip(&self.price_unit)
            .map(|(p, u)| p.to_f64_lossy() / u)
            .collect()
    }

    /// User `i`'s task cost `t_i = q · d̃_i`.
    pub(super) fn cost(&self, i: usize, q: &[f64]) -> f64 {
        self.row(i).map(|k| q[self.col[k]] * self.val[k]).sum()
    }

    /// User `i`'s demand `x_i(t) = min(T_i, w̃_i / t)` at task cost `t`, and whether it is
    /// capped; `None` when an uncapped user's tasks would cost nothing (or `t` is NaN).
    pub(super) fn demand(&self, i: usize, t: f64) -> Option<(f64, bool)> {
        let (w, cap) = (self.w[i], self.cap[i]);
        if cap.is_finite() && w > cap * t {
            Some((cap, true))
        } else {
            (t > 0.0).then(|| (w / t, false))
        }
    }

    /// Evaluates the dual at `q` into `pt`. `false` when `g(q) = +∞` (an uncapped user
    /// with `t_i = 0`) or the arithmetic broke down.
    fn evaluate(&self, q: &[f64], pt: &mut Point) -> bool {
        pt.q.clear();
        pt.q.extend_from_slice(q);
        let mut g = Neumaier::default();
        let mut g_abs = 0.0;
        for &qj in q {
            g.add(qj);
            g_abs += qj.abs();
        }
        pt.resid.clear();
        pt.resid.resize(self.m, Neumaier::default());
        for r in &mut pt.resid {
            r.add(-1.0);
        }
        for i in 0..self.n {
            let t = self.cost(i, q);
            let Some((x, capped)) = self.demand(i, t) else {
                return false;
            };
            let phi = if capped {
                self.w_ln_cap[i] - x * t
            } else {
                self.w[i] * (x.ln() - 1.0)
            };
            g.add(phi);
            g_abs += phi.abs();
            pt.x[i] = x;
            pt.capped[i] = capped;
            for k in self.row(i) {
                pt.resid[self.col[k]].add(x * self.val[k]);
            }
        }
        pt.g = g.value();
        pt.g_abs = g_abs;
        pt.g.is_finite() && pt.resid.iter().all(|r| r.value().is_finite())
    }

    /// The Hessian `Σ_{i uncapped} (x_i² / w̃_i) d̃_i d̃_iᵀ` (row-major `m × m`).
    fn hessian(&self, pt: &Point, h: &mut [f64]) {
        let m = self.m;
        h.fill(0.0);
        for i in 0..self.n {
            if pt.capped[i] {
                continue;
            }
            let c = pt.x[i] * pt.x[i] / self.w[i];
            let range = self.row(i);
            for a in range.clone() {
                let (ja, ca) = (self.col[a], c * self.val[a]);
                for b in a..range.end {
                    h[ja * m + self.col[b]] += ca * self.val[b];
                }
            }
        }
        for a in 0..m {
            for b in 0..a {
                h[a * m + b] = h[b * m + a];
            }
        }
    }

    /// The normalised duality gap of the feasible point `σ x(q)`:
    /// `Σ_j q_j (1 − u_j) − log σ`, `σ = min(1, min_j 1 / u_j)`.
    fn gap(&self, pt: &Point) -> f64 {
        let mut s = Neumaier::default();
        let mut log_inv_sigma = 0.0_f64;
        for (qj, r) in pt.q.iter().zip(&pt.resid) {
            let over = r.value(); // u_j − 1
            s.add(-qj * over);
            log_inv_sigma = log_inv_sigma.max(over.ln_1p());
        }
        s.add(log_inv_sigma.max(0.0));
        s.value()
    }

    /// Minimises the dual from `q = 1/m` (module docs, step 1).
    pub(super) fn newton(&self, tol: f64, max_iterations: usize) -> NewtonRun {
        let m = self.m;
        let mut cur = Point::new(self.n, m);
        let mut trial = Point::new(self.n, m);
        let start = vec![1.0 / m as f64; m];
        if !self.evaluate(&start, &mut cur) {
            // Unreachable for validated instances (every t_i > 0 at the start), but a
            // broken start is reported, not panicked on.
            return NewtonRun {
                gap: f64::INFINITY,
                point: cur,
                iterations: 0,
                status: SolveStatus::NumericalError,
            };
        }
        let mut h = vec![0.0; m * m];
        let mut dir = vec![0.0; m];
        let mut q_try = vec![0.0; m];
        let mut last_step = f64::INFINITY;
        let mut polish = 0;
        let mut iterations = 0;
        let status = loop {
            let gap = self.gap(&cur);
            if gap <= tol {
                if last_step <= 1e-9 || polish >= 2 {
                    break SolveStatus::Solved;
                }
                polish += 1;
            }
            if iterations >= max_iterations {
                break if gap <= ALMOST_GAP {
                    SolveStatus::AlmostSolved
                } else {
                    SolveStatus::MaxIterations
                };
            }
            let grad: Vec<f64> = cur.resid.iter().map(|r| -r.value()).collect();
            self.hessian(&cur, &mut h);
            self.direction(&cur, &grad, &h, &mut dir);
            let mut accepted = self.line_search(&cur, &grad, &dir, &mut q_try, &mut trial);
            if !accepted {
                // The projected Newton direction can fail to descend near the bounds (or be
                // spoilt by rounding); the projected, diagonally scaled gradient cannot.
                self.scaled_gradient(&cur, &grad, &h, &mut dir);
                accepted = self.line_search(&cur, &grad, &dir, &mut q_try, &mut trial);
            }
            if !accepted {
                break if gap <= tol {
                    SolveStatus::Solved
                } else if gap <= ALMOST_GAP {
                    SolveStatus::AlmostSolved
                } else {
                    SolveStatus::NumericalError
                };
            }
            // Largest price change relative to its scale s_j.
            last_step = (0..m).fold(0.0_f64, |a, j| {
                a.max((trial.q[j] - cur.q[j]).abs() / self.share[j])
            });
            std::mem::swap(&mut cur, &mut trial);
            iterations += 1;
        };
        NewtonRun {
            gap: self.gap(&cur),
            point: cur,
            iterations,
            status,
        }
    }
}

impl Problem {
    /// Armijo backtracking along the projection arc `q(α) = max(0, q + α d)`, starting
    /// from the largest `α <= 1` allowed by a trust bound: scaled prices satisfy
    /// `q_j <= s_j` at equilibrium, so no price needs to rise beyond `max(s_j, 2 q_j)`
    /// (longer steps come from nearly flat directions). Rounding noise in `g` is tolerated,
    /// so that steps at the noise floor are accepted. On success `trial` holds the new point.
    fn line_search(
        &self,
        cur: &Point,
        grad: &[f64],
        dir: &[f64],
        q_try: &mut [f64],
        trial: &mut Point,
    ) -> bool {
        let m = self.m;
        let mut alpha = 1.0_f64;
        for ((&d, &q), &s) in dir.iter().zip(&cur.q).zip(&self.share) {
            if d > 0.0 {
                let y = q / s;
                alpha = alpha.min((1.0 - y).max(y) * s / d);
            }
        }
        let noise = 16.0 * UNIT * (cur.g_abs + 1.0);
        for _ in 0..64 {
            for j in 0..m {
                q_try[j] = (cur.q[j] + alpha * dir[j]).max(0.0);
            }
            let pred: f64 = (0..m).map(|j| grad[j] * (cur.q[j] - q_try[j])).sum();
            if pred > 0.0 && self.evaluate(q_try, trial) && trial.g <= cur.g - 1e-4 * pred + noise {
                return true;
            }
            alpha *= 0.5;
        }
        false
    }

    /// The diagonally scaled gradient direction, in the variables `y_j = q_j / s_j`:
    /// `d_y = −∇_y g / max(∂²_y g, 1)` (the natural scales of `y` and of `g` are 1).
    fn scaled_gradient(&self, pt: &Point, grad: &[f64], h: &[f64], dir: &mut [f64]) {
        let m = self.m;
        for j in 0..m {
            let s = self.share[j];
            let diag = h[j * m + j] * s * s;
            dir[j] = -grad[j] * s / diag.max(1.0) * s;
            if pt.q[j] <= 0.0 && dir[j] < 0.0 {
                dir[j] = 0.0;
            }
        }
    }
}

impl Problem {
    /// The projected Newton direction at `pt` (gradient `grad`, Hessian `h`), computed in
    /// the variables `y_j = q_j / s_j` (see [`Problem::share`]), which lie in `[0, 1]` at
    /// equilibrium whatever the weights: with weights from `1e-6` to `1e6` prices differ by
    /// twelve orders of magnitude, and absolute thresholds on `q` would misjudge them.
    /// - Bertsekas' ε-active set: prices with `y_j <= ε` and a positive gradient, where
    ///   `ε = min(1e-3, ‖y − P(y − ∇_y g)‖_∞)`, move along the diagonally scaled gradient
    ///   (to zero once the projection cuts them) — unless a price alone keeps an uncapped
    ///   user's task cost positive;
    /// - *flat* free prices (no uncapped user demands the resource, so its Hessian row and
    ///   column are zero) move to zero when the resource is under-used, and otherwise up
    ///   to the first price at which one of its capped demanders stops being capped;
    /// - the other free prices take the Newton step of their block, with
    ///   Levenberg–Marquardt regularisation relative to the diagonal (`1e-10`, raised when
    ///   Cholesky fails or the step fails an angle test with the gradient), which keeps
    ///   degenerate (non-unique) prices finite.
    ///
    /// Returns the direction in `q`.
    fn direction(&self, pt: &Point, grad: &[f64], h: &[f64], dir: &mut [f64]) {
        let m = self.m;
        let q = &pt.q;
        let s = &self.share;
        let y: Vec<f64> = (0..m).map(|j| q[j] / s[j]).collect();
        let gy: Vec<f64> = (0..m).map(|j| grad[j] * s[j]).collect();
        let hy = |a: usize, b: usize| h[a * m + b] * s[a] * s[b];
        let pg = (0..m).fold(0.0_f64, |a, j| a.max(y[j].min(gy[j]).max(-gy[j]).abs()));
        let eps = pg.min(1e-3);
        dir.fill(0.0);
        let mut active: Vec<bool> = (0..m).map(|j| y[j] <= eps && gy[j] > 0.0).collect();
        // A price that alone keeps an uncapped user's task cost positive cannot be driven
        // to zero (g would be +∞ there): it stays free, whatever its size.
        for i in 0..self.n {
            if pt.capped[i] {
                continue;
            }
            let keeps = self
                .row(i)
                .any(|k| !active[self.col[k]] && q[self.col[k]] > 0.0);
            if !keeps {
                for k in self.row(i) {
                    if q[self.col[k]] > 0.0 {
                        active[self.col[k]] = false;
                    }
                }
            }
        }
        let mut newton: Vec<usize> = Vec::with_capacity(m);
        let mut flat_rising: Vec<usize> = Vec::new();
        for j in 0..m {
            let diag = hy(j, j);
            let flat = diag <= f64::MIN_POSITIVE;
            if active[j] {
                dir[j] = if flat { -q[j] } else { -gy[j] / diag * s[j] };
            } else if !flat {
                newton.push(j);
            } else if gy[j] > 0.0 {
                dir[j] = -q[j];
            } else if gy[j] < 0.0 {
                flat_rising.push(j);
            }
        }
        if !flat_rising.is_empty() {
            // Distance to the first kink: user i (capped, demanding j) uncaps once
            // t_i >= w̃_i / T_i.
            let mut reach = vec![f64::INFINITY; m];
            for i in 0..self.n {
                if !pt.capped[i] {
                    continue;
                }
                let t = self.cost(i, q);
                let short = (self.w[i] / self.cap[i] - t).max(0.0);
                for k in self.row(i) {
                    let j = self.col[k];
                    reach[j] = reach[j].min(short / self.val[k]);
                }
            }
            for &j in &flat_rising {
                // A hair beyond the kink, so that the user counts as uncapped there.
                let r = reach[j] * (1.0 + 1e-9);
                dir[j] = if r.is_finite() && r > 0.0 { r } else { -gy[j] };
            }
        }
        let k = newton.len();
        if k == 0 {
            return;
        }
        let mut a = vec![0.0; k * k];
        let mut b = vec![0.0; k];
        let mut mu = 1e-10;
        // Jacobi scaling: with D = diag(H_y), solve (D^-1/2 H_y D^-1/2 + μ I) z = −D^-1/2 g_y,
        // i.e. (H_y + μ D) d_y = −g_y with d_y = D^-1/2 z.
        let sc: Vec<f64> = newton.iter().map(|&j| 1.0 / hy(j, j).sqrt()).collect();
        for _ in 0..8 {
            for (r, &jr) in newton.iter().enumerate() {
                for (c, &jc) in newton.iter().enumerate() {
                    a[r * k + c] = if r == c {
                        1.0 + mu
                    } else {
                        hy(jr, jc) * sc[r] * sc[c]
                    };
                }
                b[r] = -gy[jr] * sc[r];
            }
            // Accept only a clear descent direction (angle test): in an ill-conditioned
            // block the computed step can be useless, and a larger μ turns it towards the
            // scaled gradient.
            let rhs = b.clone();
            if cholesky_solve(&mut a, k, &mut b) {
                let dot: f64 = rhs.iter().zip(&b).map(|(r, z)| r * z).sum();
                let norms = rhs.iter().map(|r| r * r).sum::<f64>().sqrt()
                    * b.iter().map(|z| z * z).sum::<f64>().sqrt();
                if dot >= 1e-8 * norms {
                    for (r, &j) in newton.iter().enumerate() {
                        dir[j] = b[r] * sc[r] * s[j];
                    }
                    return;
                }
            }
            mu = (mu * 1e3).min(1e6);
        }
        // Cholesky kept failing (non-finite data): fall back to the scaled gradient.
        for (r, &j) in newton.iter().enumerate() {
            dir[j] = -gy[j] * sc[r] * sc[r] * s[j];
        }
    }
}

/// Solves `a x = b` in place for a symmetric positive definite `k × k` row-major `a`
/// (lower triangle used). `false` when a pivot is not positive.
fn cholesky_solve(a: &mut [f64], k: usize, b: &mut [f64]) -> bool {
    for j in 0..k {
        let mut d = a[j * k + j];
        for l in 0..j {
            d -= a[j * k + l] * a[j * k + l];
        }
        if !(d > 0.0 && d.is_finite()) {
            return false;
        }
        let d = d.sqrt();
        a[j * k + j] = d;
        for i in j + 1..k {
            let mut s = a[i * k + j];
            for l in 0..j {
                s -= a[i * k + l] * a[j * k + l];
            }
            a[i * k + j] = s / d;
        }
    }
    for i in 0..k {
        let mut s = b[i];
        for l in 0..i {
            s -= a[i * k + l] * b[l];
        }
        b[i] = s / a[i * k + i];
    }
    for i in (0..k).rev() {
        let mut s = b[i];
        for l in i + 1..k {
            s -= a[l * k + i] * b[l];
        }
        b[i] = s / a[i * k + i];
    }
    b.iter().all(|v| v.is_finite())
}

/// Compensated (Neumaier) summation: the error does not grow with the number of terms.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Neumaier {
    sum: f64,
    comp: f64,
}

impl Neumaier {
    #[inline]
    pub(super) fn add(&mut self, v: f64) {
        let t = self.sum + v;
        if self.sum.abs() >= v.abs() {
            self.comp += (self.sum - t) + v;
        } else {
            self.comp += (v - t) + self.sum;
        }
        self.sum = t;
    }

    #[inline]
    pub(super) fn value(&self) -> f64 {
        self.sum + self.comp
    }
}

/// The dual evaluated at one point.
pub(super) struct Point {
    pub(super) q: Vec<f64>,
    pub(super) x: Vec<f64>,
    capped: Vec<bool>,
    /// `u_j − 1`: the used fraction of resource `j` minus one (`= −∂g/∂q_j`).
    resid: Vec<Neumaier>,
    g: f64,
    /// `Σ |terms of g|`, for the rounding noise of `g`.
    g_abs: f64,
}

impl Point {
    fn new(n: usize, m: usize) -> Self {
        Point {
            q: Vec::with_capacity(m),
            x: vec![0.0; n],
            capped: vec![false; n],
            resid: Vec::with_capacity(m),
            g: 0.0,
            g_abs: 0.0,
        }
    }
}

pub(super) struct NewtonRun {
    pub(super) point: Point,
    pub(super) gap: f64,
    pub(super) iterations: usize,
    pub(super) status: SolveStatus,
}
