//! The Eisenberg–Gale program solved by Clarabel's interior-point method with exponential
//! cones: an independent check of the Newton solver of `leontief_solver::ceei`, built from
//! the instance alone. The integration tests and `benches/ceei.rs` use it.

use std::time::Duration;

use clarabel::algebra::CscMatrix;
use clarabel::solver::{DefaultSettings, DefaultSolver, IPSolver, SolverStatus, SupportedConeT};
use leontief_solver::ceei::SolveStatus;
use leontief_solver::{Instance, Rational, SolverError};

/// The answer of [`solve_clarabel`].
#[derive(Debug, Clone, PartialEq)]
pub struct ClarabelOutcome {
    /// Tasks per user (Clarabel's primal solution).
    pub tasks: Vec<f64>,
    /// Prices per unit of each resource (duals of the capacity rows).
    pub prices: Vec<f64>,
    /// Clarabel's status: `Solved`, `AlmostSolved`, `MaxIterations` (also for its time
    /// limit), anything else `NumericalError`.
    pub status: SolveStatus,
    /// Clarabel's own solve time.
    pub solve_time: Duration,
    /// Interior-point iterations.
    pub iterations: usize,
}

/// Solves the Eisenberg–Gale program with Clarabel's exponential cones, as an independent
/// cross-check of the Newton solver.
///
/// Formulation (scaled as the Newton solver: `d̃_ij = d_ij / R_j`, `w̃_i = w_i / W`):
/// variables `x_i`, `s_i`; minimise `−Σ w̃_i s_i` subject to `Σ_i d̃_ij x_i <= 1`,
/// `x_i <= T_i` and `(s_i, 1, x_i) ∈ K_exp` (i.e. `s_i <= log x_i`). Prices are the
/// capacity rows' duals mapped back to units (`p_j = W z_j / R_j`).
///
/// Tolerances are tightened to `1e-13` (gap and feasibility; KKT ratio `1e-8`): with
/// Clarabel's defaults (`1e-8`) the tasks of `Solved` answers were off by up to `3e-4`
/// relative on small random instances, because an objective-level tolerance only fixes
/// the tasks to about its square root. With the tight settings about half of the small
/// random instances end `AlmostSolved`; the `Solved` ones agreed with the Newton solver to
/// `1.4e-9` where the equilibrium is strictly complementary.
///
/// # Errors
/// Per-resource weights (`users[i].weights`), which CEEI does not take;
/// [`SolverError::Mechanism`] when Clarabel rejects the setup.
pub fn solve_clarabel(inst: &Instance) -> Result<ClarabelOutcome, SolverError> {
    let users = inst.users();
    if let Some(i) = users.iter().position(|u| u.resource_weights.is_some()) {
        return Err(SolverError::invalid(
            format!("users[{i}].weights"),
            "CEEI takes one scalar weight per user",
        ));
    }
    let (n, m) = (inst.num_users(), inst.num_resources());
    let total: Rational = users.iter().map(|u| &u.weight).sum();
    let ratio = |a: &Rational, b: &Rational| (a / b).to_f64_lossy();
    let capped: Vec<usize> = (0..n).filter(|&i| users[i].cap.is_some()).collect();
    let n_lin = m + capped.len();
    let rows = n_lin + 3 * n;
    // Columns x_0..x_{n-1}, then s_0..s_{n-1}.
    let mut colptr = Vec::with_capacity(2 * n + 1);
    let mut rowval = Vec::new();
    let mut nzval = Vec::new();
    let mut cap_row = vec![usize::MAX; n];
    for (r, &i) in capped.iter().enumerate() {
        cap_row[i] = m + r;
    }
    for (i, &row) in cap_row.iter().enumerate() {
        colptr.push(rowval.len());
        for (j, (d, r)) in users[i].demand.iter().zip(inst.capacity()).enumerate() {
            if !d.is_zero() {
                rowval.push(j);
                nzval.push(ratio(d, r));
            }
        }
        if row != usize::MAX {
            rowval.push(row);
            nzval.push(1.0);
        }
        rowval.push(n_lin + 3 * i + 2);
        nzval.push(-1.0);
    }
    for i in 0..n {
        colptr.push(rowval.len());
        rowval.push(n_lin + 3 * i);
        nzval.push(-1.0);
    }
    colptr.push(rowval.len());
    let a = CscMatrix::new(rows, 2 * n, colptr, rowval, nzval);
    let p = CscMatrix::<f64>::zeros((2 * n, 2 * n));
    let mut c = vec![0.0; 2 * n];
    for i in 0..n {
        c[n + i] = -ratio(&users[i].weight, &total);
    }
    let mut b = vec![0.0; rows];
    b[..m].fill(1.0);
    for (r, &i) in capped.iter().enumerate() {
        b[m + r] = users[i].cap.as_ref().map_or(0.0, Rational::to_f64_lossy);
    }
    for i in 0..n {
        b[n_lin + 3 * i + 1] = 1.0;
    }
    let mut cones = vec![SupportedConeT::NonnegativeConeT(n_lin)];
    cones.extend((0..n).map(|_| SupportedConeT::ExponentialConeT()));
    // Clarabel's primal accuracy is about the square root of its gap tolerance where the
    // solution is not strictly complementary, and well below it elsewhere; tolerances far
    // tighter than the defaults (1e-8, which leave tasks off by up to ~1e-4 relative) make
    // the cross-check meaningful at the price of more `AlmostSolved` answers.
    let settings = DefaultSettings {
        verbose: false,
        tol_gap_abs: 1e-13,
        tol_gap_rel: 1e-13,
        tol_feas: 1e-13,
        tol_ktratio: 1e-8,
        ..DefaultSettings::default()
    };
    let mut solver = DefaultSolver::new(&p, &c, &a, &b, &cones, settings).map_err(|e| {
        SolverError::Mechanism {
            mechanism: "ceei-clarabel".into(),
            reason: e.to_string(),
        }
    })?;
    solver.solve();
    let sol = &solver.solution;
    let status = match sol.status {
        SolverStatus::Solved => SolveStatus::Solved,
        SolverStatus::AlmostSolved => SolveStatus::AlmostSolved,
        SolverStatus::MaxIterations | SolverStatus::MaxTime => SolveStatus::MaxIterations,
        _ => SolveStatus::NumericalError,
    };
    let prices = (sol.z[..m].iter().zip(inst.capacity()))
        .map(|(z, r)| z * ratio(&total, r))
        .collect();
    Ok(ClarabelOutcome {
        tasks: sol.x[..n].to_vec(),
        prices,
        status,
        solve_time: Duration::try_from_secs_f64(sol.solve_time).unwrap_or_default(),
        iterations: sol.iterations as usize,
    })
}
