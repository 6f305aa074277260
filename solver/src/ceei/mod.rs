//! CEEI — competitive equilibrium from equal incomes — with Leontief utilities: the
//! Eisenberg–Gale program, solved in floating point and then certified exactly.
//!
//! Every user `i` receives the budget `w_i` (equal incomes when all weights are 1) and buys
//! tasks at prices `p_j >= 0` per unit of resource `j`; a task of user `i` costs
//! `t_i = p · d_i`. An equilibrium is a pair `(x, p)` where every user buys what it can
//! afford, `x_i = min(T_i, w_i / t_i)`, and the market clears: every resource with a
//! positive price is used to capacity, none is over-used. For Leontief (and any
//! homogeneous) utilities the equilibria are exactly the solutions of the Eisenberg–Gale
//! program (`docs/theory.md` §2)
//!
//! ```text
//! max  Σ_i w_i log x_i   s.t.   Σ_i x_i d_ij <= R_j  (prices p_j = duals),   0 <= x_i <= T_i.
//! ```
//!
//! The tasks `x` are unique (the objective is strictly concave in each `x_i`); the prices
//! need not be (then [`Ceei::solve`] reports one equilibrium price vector). Equilibria can
//! be irrational: with `d1 = (1, 0)`, `d2 = (0, 1)`, `d3 = (1, 2)`, `R = (1, 1)`,
//! `x3 = (3 − √3)/6`. So CEEI is solved in floating point and the answer says which of two
//! things it is:
//! - **certified** (`exact`): rational tasks and prices that satisfy the program's KKT
//!   conditions *exactly* (checked in [`Rational`] by [`certify`](fn@certify)). The KKT
//!   conditions are sufficient for optimality of a concave program, so the answer is the
//!   equilibrium.
//! - **numeric**: floating-point tasks and prices, an exactly feasible rational allocation
//!   ([`CeeiOutcome::feasible_tasks`]) and a *proven* upper bound on its relative duality
//!   gap ([`CeeiOutcome::relative_gap`]).
//!
//! # Algorithm
//! 1. **Dual Newton over the `m` prices.** Weights are normalised (`w̃_i = w_i / W`,
//!    `W = Σ w_i`) and every resource measured in units of its capacity
//!    (`d̃_ij = d_ij / R_j`), so the scaled prices `q_j = p_j R_j / W` are the budget shares
//!    spent on each resource (`Σ_j q_j <= 1` at equilibrium). The dual is
//!
//!    ```text
//!    g(q) = Σ_j q_j + Σ_i h_i(t_i),   t_i = q · d̃_i,
//!    h_i(t) = max_{0 <= x <= T_i} (w̃_i log x − x t) = w̃_i log x_i(t) − x_i(t) t,
//!    x_i(t) = min(T_i, w̃_i / t),
//!    ```
//!
//!    a convex `C¹` function with `∂g/∂q_j = 1 − Σ_i x_i d̃_ij` (the unused fraction of
//!    resource `j`) and, away from the cap kinks, Hessian `Σ_{i uncapped} (x_i² / w̃_i) d̃_i d̃_iᵀ`
//!    (capped users contribute nothing: their demand does not respond to prices). `h_i` is
//!    `+∞` when an uncapped user has `t_i = 0`: a resource whose only demanders are uncapped
//!    can never reach price 0, and the iteration keeps every uncapped user's `t_i > 0`
//!    (the start `q = 1/m` does, and the line search rejects points where `g = +∞`). A
//!    resource demanded only by capped users can have price 0, and its Hessian row is zero.
//!    `g` is minimised over `q >= 0` by Bertsekas' projected Newton method, in the
//!    variables `y_j = q_j / s_j` with `s_j = Σ_{i: d_ij > 0} w̃_i` (the most budget that can
//!    go to resource `j`, so `y_j ∈ [0, 1]` at equilibrium; with weights spanning many
//!    orders of magnitude the prices do too, and every threshold below is relative to
//!    them): prices with `y_j <= ε` and a positive gradient form the ε-active set and move
//!    along the scaled gradient (to zero, through the projection) — except a price that
//!    alone keeps an uncapped user's task cost positive; resources demanded only by capped
//!    users (zero Hessian row) move to zero when under-used, else up to the first price at
//!    which a capped demander uncaps; on the other prices a Levenberg–Marquardt-regularised
//!    Newton system (`m × m`, dense Cholesky with Jacobi scaling, regularisation `1e-10`
//!    relative to the diagonal, raised until the step passes an angle test — this keeps
//!    degenerate, non-unique prices finite) is solved. An Armijo backtracking search along
//!    the projection arc (with a trust bound `q_j <= max(s_j, 2 q_j)`) globalises it; when
//!    it fails, the projected scaled gradient, which always descends, is used instead.
//!    The stopping test is the duality gap of the feasible point `σ x(q)`,
//!    `σ = min(1, min_j 1/u_j)`, which after normalisation is
//!    `Σ_j q_j (1 − u_j) − log σ` (`u_j` = used fraction of resource `j`; sums are
//!    compensated). The iteration stops when that gap is at most the tolerance
//!    (default `1e-13`) *and* the last step was tiny (or after two polishing steps), so the
//!    prices are accurate to about machine precision, not only to `√gap`.
//! 2. **Certification.** Candidates: the simplest rationals (fewest-digit denominators,
//!    found by continued fractions) within relative tolerances `1e-6`, `1e-9`, `1e-12` of
//!    (a) the prices — tasks then follow exactly from `x_i = min(T_i, w_i / (p · d_i))` —
//!    and (b) the tasks — prices then solve the stationarity equations of the uncapped users
//!    on the saturated resources exactly (needed when prices are not unique). A candidate
//!    is first screened in floating point (market clearing, and for (b) stationarity, to
//!    within a bound on the rounding error of the evaluation, so that an exact candidate is
//!    never screened out; the screen matters for large instances, whose exact check has to
//!    add thousands of fractions with distinct denominators) and then checked exactly by
//!    [`certify`](fn@certify). Denominators above `10^12` are not tried.
//! 3. **Proven bound when not certified.** The float prices `q̂ >= 0` are taken exactly
//!    (rounded to 62 significant bits in the fixed-point evaluation). Their exact best
//!    responses `x*_i = min(T_i, w̃_i / t̂_i)` are rounded down and up to 62 significant
//!    bits, `x^lo <= x* <= x^hi` (so the long sums have few distinct denominators), giving
//!    exact bounds `u^lo <= u* <= u^hi` on the scaled resource use. With dyadic
//!    `σ_j <= min(1, 1/u_j^hi)` and `σ_i = min_{j: d_ij > 0} σ_j`, the allocation
//!    `x̃_i = σ_i x_i^lo` is exactly feasible (each user shrinks only as much as its most
//!    over-used resource requires), and weak duality with
//!    `h_i(t̂_i) = w̃_i log x*_i − x*_i t̂_i` gives, exactly,
//!
//!    ```text
//!    (f = Σ_i w_i log x_i, g the dual in units, p̂_j = W q̂_j / R_j)
//!    (OPT − f(x̃)) / W <= (g(p̂) − f(x*)) / W + (f(x*) − f(x̃)) / W
//!                      = Σ_j q̂_j (1 − u*_j) + Σ_i w̃_i [log(1/σ_i) + log(x*_i / x_i^lo)]
//!                     <= Σ_j q̂_j (1 − u_j^lo) + Σ_i w̃_i (1/σ_i − 1) + 2^-60
//!    ```
//!
//!    using `log y <= y − 1` (`x*_i / x_i^lo − 1 <= 2^-60` for 62-bit roundings; values too
//!    small to round that way are kept exact). The right-hand side is a rational computed
//!    exactly and rounded *up* to `f64`: no floating-point error analysis is involved.
//!    With integer data it is evaluated in fixed point (sums in `i128`), else in
//!    [`Rational`]s.
//!
//! # Complexity
//! With `nnz` positive demand entries and `s` the most per user: one Newton iteration is
//! `O(Σ_i s_i² + m³)` for the Hessian and its Cholesky factor plus `O(nnz)` and `n`
//! logarithms per line-search trial; 4–8 iterations on the benchmark workloads. The
//! certification screens cost `O(nnz)` floating-point operations per candidate; the exact
//! KKT check of a candidate that passes and the proven bound cost `O(nnz)` rational (or,
//! for the bound with integer data, fixed-point) operations. On the benchmark's 10,000
//! users × 10 resources (`benches/ceei.rs`, a fifth of them capped) the Newton solver takes
//! 4 iterations to a relative gap of `3e-17`; its times, with and without the certification
//! and the proven bound, and against Clarabel (the integration tests' independent
//! cross-check), are in BENCHMARKS.md.
//!
//! Robustness, measured on random instances with up to 9 users and 8 resources, half of
//! them capped: with weights spanning a factor `1e6`, 5,000 of 5,000 solved (at most 85
//! iterations); spanning `1e12`, 0.2% hit the iteration limit; spanning `1e18` (beyond what
//! `f64` budgets can represent next to each other), 2.5%. Such a run reports
//! [`SolveStatus::AlmostSolved`] or [`SolveStatus::MaxIterations`] with its proven gap,
//! never a wrong certificate.
//!
//! # Example
//! The DRF paper's running example (§5.2): 9 CPUs, 18 GB; A needs ⟨1, 4⟩, B ⟨3, 1⟩. CEEI
//! maximises `x · y`: A gets 45/11 tasks and B 18/11, at prices 1/5 per CPU and 1/90 per GB.
//! ```
//! use leontief_solver::ceei::{Ceei, SolveStatus};
//! use leontief_solver::{Instance, Rational, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let out = Ceei::new().solve(&paper).unwrap();
//! assert!(out.certified);
//! assert_eq!(out.status, SolveStatus::Solved);
//! let r = |s: &str| s.parse::<Rational>().unwrap();
//! assert_eq!(out.tasks_exact, Some(vec![r("45/11"), r("18/11")]));
//! assert_eq!(out.prices_exact, Some(vec![r("1/5"), r("1/90")]));
//! assert_eq!(out.to_json(&paper)["tasks"]["A"], "45/11");
//! ```
//!
//! # References
//! - E. Eisenberg, D. Gale. *Consensus of Subjective Probabilities: The Pari-Mutuel
//!   Method.* Annals of Mathematical Statistics 30(1), 1959 (the convex program).
//! - A. Ghodsi et al. *Dominant Resource Fairness: Fair Allocation of Multiple Resource
//!   Types.* NSDI 2011, §5.2 (CEEI as the Nash bargaining solution) and §6.1.2
//!   (Theorems 4 and 5: not strategy-proof, not population monotonic).
//! - N. Devanur, C. Papadimitriou, A. Saberi, V. Vazirani. *Market Equilibrium via a
//!   Primal–Dual Algorithm for a Convex Program.* JACM 55(5), 2008; and B. Codenotti,
//!   K. Varadarajan. *Efficient Computation of Equilibrium Prices for Markets with
//!   Leontief Utilities.* ICALP 2004 (Fisher markets with Leontief utilities as
//!   Eisenberg–Gale programs; irrational equilibria).
//! - D. Bertsekas. *Projected Newton Methods for Optimization Problems with Simple
//!   Constraints.* SIAM J. Control and Optimization 20(2), 1982.
//!
//! # Layout
//! - this file: the public API ([`Ceei`], [`CeeiOutcome`], [`FloatSolution`],
//!   [`SolveStatus`]) and the mechanism, which chains the steps below;
//! - `newton.rs`: the scaled floating-point problem and the dual Newton method (step 1);
//! - `certify.rs`: the exact KKT check ([`certify`](fn@certify)) and the rational
//!   reconstruction that feeds it (step 2);
//! - `bound.rs`: the proven duality-gap bound of an uncertified answer (step 3);
//! - `algebraic/`: the exact equilibrium, as real algebraic numbers, of any instance whose
//!   equilibrium has at most three positive prices, checked against the KKT conditions in
//!   a number field ([`algebraic::solve_exact`], [`algebraic::check_kkt`]);
//! - `exact.rs`: [`Ceei::solve_exact_numbers`], which follows an uncertified solve with the
//!   algebraic equilibrium and writes every figure as an [`ExactNumber`] (rational or
//!   irrational algebraic, with its serde form).

pub mod algebraic;
mod bound;
mod certify;
pub mod exact;
mod newton;

use serde_json::{json, Map, Value};

use crate::algebraic::{Limits, RealAlgebraic};
use crate::{Allocation, Instance, Mechanism, Rational, SolverError};
use algebraic::AlgebraicCeeiError;

use bound::proven_bound;
use certify::try_certify;
pub use certify::{certify, KktViolation};
pub use exact::{ExactCeeiError, ExactCeeiOutcome, ExactEquilibrium, ExactNumber};
use newton::Problem;

/// Unit round-off of `f64`.
const UNIT: f64 = f64::EPSILON / 2.0;

/// How a numeric solve ended (a value, not an error, in the style of Clarabel.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr, strum::Display)]
#[strum(serialize_all = "snake_case")]
#[non_exhaustive]
pub enum SolveStatus {
    /// Converged to the requested tolerance.
    Solved,
    /// Stopped short of the tolerance (no further progress, or the iteration limit) but
    /// with a small gap (reduced accuracy): for the Newton solver a gap at most `1e-8`;
    /// for Clarabel its own `AlmostSolved`.
    AlmostSolved,
    /// The iteration limit (for Clarabel also its time limit) was reached with a gap
    /// above `1e-8`.
    MaxIterations,
    /// No further progress was possible (line search failure, or for Clarabel any
    /// numerical, infeasibility or progress failure: the program is always feasible and
    /// bounded, so such statuses can only be numerical).
    NumericalError,
}

impl SolveStatus {
    /// The status as a `snake_case` string: `solved`, `almost_solved`, `max_iterations`,
    /// `numerical_error`.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }
}

/// The CEEI mechanism and its solver options. See the [module docs](self).
///
/// # Example
/// ```
/// use leontief_solver::ceei::Ceei;
/// use leontief_solver::{Instance, Mechanism, User};
/// let inst = Instance::new(vec![1.into()],
///     vec![User::new("a", [1]), User::new("b", [1]).weight(3)]).unwrap();
/// let x = Ceei::new().tolerance(1e-12).allocate(&inst).unwrap();
/// assert_eq!(x.tasks, vec!["1/4".parse().unwrap(), "3/4".parse().unwrap()]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ceei {
    tolerance: f64,
    max_iterations: usize,
    certify: bool,
}

impl Default for Ceei {
    fn default() -> Self {
        Ceei {
            tolerance: 1e-13,
            max_iterations: 200,
            certify: true,
        }
    }
}

/// The floating-point solution of the dual Newton method alone ([`Ceei::solve_float`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FloatSolution {
    /// Tasks `x_i = min(T_i, w_i / (p · d_i))` at the final prices (market clearing holds
    /// to rounding).
    pub tasks: Vec<f64>,
    /// Prices `p_j` per unit of resource `j`.
    pub prices: Vec<f64>,
    /// The relative duality gap as evaluated in floating point (an estimate, not a proof;
    /// see [`CeeiOutcome::relative_gap`] for the definition).
    pub relative_gap: f64,
    /// Newton iterations.
    pub iterations: usize,
    /// How the iteration ended.
    pub status: SolveStatus,
}

/// The answer of [`Ceei::solve`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CeeiOutcome {
    /// Whether the answer was certified: exact rational tasks and prices satisfying the
    /// KKT conditions exactly (see [`certify`](fn@certify)).
    pub certified: bool,
    /// The exact equilibrium tasks, when certified.
    pub tasks_exact: Option<Vec<Rational>>,
    /// Exact equilibrium prices per unit of each resource, when certified (one
    /// equilibrium price vector when prices are not unique).
    pub prices_exact: Option<Vec<Rational>>,
    /// Tasks from the Newton solver, `x_i = min(T_i, w_i / (p · d_i))` at [`Self::prices`].
    pub tasks: Vec<f64>,
    /// Prices from the Newton solver, per unit of each resource.
    pub prices: Vec<f64>,
    /// An exactly feasible allocation: the certified tasks, or else the best responses to
    /// the float prices scaled down until they fit (the point the gap bound is about).
    pub feasible_tasks: Vec<Rational>,
    /// A proven upper bound on `(OPT − Σ_i w_i log x̃_i) / W` for `x̃` = [`Self::feasible_tasks`]
    /// and `W = Σ w_i`: the weighted geometric mean of the optimal tasks exceeds that of
    /// `x̃` by a factor at most `exp(relative_gap)`. Invariant under scaling capacities,
    /// demands or weights. `0` when certified; `+∞` when nothing could be proven.
    pub relative_gap: f64,
    /// The primal objective `Σ_i w_i log x_i` of [`Self::feasible_tasks`], in `f64`.
    pub objective: f64,
    /// Newton iterations.
    pub iterations: usize,
    /// How the Newton iteration ended.
    pub status: SolveStatus,
}

impl CeeiOutcome {
    /// The JSON form:
    /// `{"mechanism": "ceei", "certified", "exact", "status", "iterations", "relative_gap",
    /// "objective", "tasks": {user: value}, "prices": {resource: value}}`.
    ///
    /// Tasks are keyed by user name and prices by resource name, as in the project's
    /// reference files. Values are exact `"p/q"` strings when certified, else the shortest
    /// decimal strings that read back to the `f64` (e.g. `"4.090909090909091"`). `exact`
    /// equals `certified`. `relative_gap` is a number (`null` when no bound was proven),
    /// `status` one of [`SolveStatus::as_str`].
    ///
    /// # Example
    /// ```
    /// use leontief_solver::ceei::Ceei;
    /// use leontief_solver::{Instance, User};
    /// let inst = Instance::new(vec![1.into(), 1.into()], vec![User::new("a", [1, 0]),
    ///     User::new("b", [0, 1]), User::new("c", [1, 2])]).unwrap();
    /// let json = Ceei::new().solve(&inst).unwrap().to_json(&inst);
    /// assert_eq!(json["exact"], false); // x_c = (3 − √3)/6 is irrational
    /// assert!(json["tasks"]["c"].as_str().unwrap().starts_with("0.211324865"));
    /// ```
    pub fn to_json(&self, inst: &Instance) -> Value {
        let values = |exact: &Option<Vec<Rational>>, float: &[f64]| -> Vec<Value> {
            match exact {
                Some(v) if self.certified => v.iter().map(|x| json!(x)).collect(),
                _ => float.iter().map(|x| Value::String(x.to_string())).collect(),
            }
        };
        let tasks: Map<String, Value> = inst
            .users()
            .iter()
            .map(|u| u.name.clone())
            .zip(values(&self.tasks_exact, &self.tasks))
            .collect();
        let prices: Map<String, Value> = inst
            .resources()
            .iter()
            .cloned()
            .zip(values(&self.prices_exact, &self.prices))
            .collect();
        json!({
            "mechanism": "ceei",
            "certified": self.certified,
            "exact": self.certified,
            "status": self.status.as_str(),
            "iterations": self.iterations,
            "relative_gap": self.relative_gap,
            "objective": self.objective,
            "tasks": tasks,
            "prices": prices,
        })
    }
}

impl Ceei {
    /// The default solver: relative gap tolerance `1e-13`, at most 200 Newton iterations,
    /// certification on.
    pub fn new() -> Self {
        Self::default()
    }

    crate::setters! {
        /// Sets the target relative duality gap (in `(0, 1)`; see
        /// [`CeeiOutcome::relative_gap`] for the definition).
        tolerance(tolerance: f64) => tolerance = tolerance;
        /// Sets the Newton iteration limit (at least 1).
        max_iterations(max_iterations: usize) => max_iterations = max_iterations;
        /// Turns the exact certification attempt on (default) or off. Off, the answer is
        /// always numeric, with its proven gap bound.
        certification(on: bool) => certify = on;
    }

    fn check_options(&self) -> Result<(), SolverError> {
        if !(self.tolerance > 0.0 && self.tolerance < 1.0) {
            return Err(SolverError::invalid(
                "tolerance",
                format!("must be in (0, 1), found {}", self.tolerance),
            ));
        }
        if self.max_iterations == 0 {
            return Err(SolverError::invalid("max_iterations", "must be at least 1"));
        }
        Ok(())
    }

    /// The dual Newton method alone, in floating point (no certification, no bound).
    ///
    /// # Errors
    /// [`SolverError::Invalid`] for per-resource weights (`users[i].weights`), for numbers
    /// outside the range of `f64` (a demand-to-capacity ratio, weight share or cap), and
    /// for invalid options.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::ceei::{Ceei, SolveStatus};
    /// use leontief_solver::{Instance, User};
    /// let inst = Instance::new(vec![100.into(), 100.into()],
    ///     vec![User::new("1", [16, 1]), User::new("2", [1, 2])]).unwrap();
    /// let s = Ceei::new().solve_float(&inst).unwrap();
    /// assert_eq!(s.status, SolveStatus::Solved);
    /// assert!((s.tasks[0] - 100.0 / 31.0).abs() < 1e-12);
    /// ```
    pub fn solve_float(&self, inst: &Instance) -> Result<FloatSolution, SolverError> {
        self.check_options()?;
        let prob = Problem::new(inst)?;
        let sol = prob.newton(self.tolerance, self.max_iterations);
        Ok(FloatSolution {
            tasks: sol.point.x.clone(),
            prices: prob.original_prices(&sol.point.q),
            relative_gap: sol.gap,
            iterations: sol.iterations,
            status: sol.status,
        })
    }

    /// Solves, then certifies the answer exactly or proves a bound on its gap. See the
    /// [module docs](self).
    ///
    /// # Errors
    /// As [`Ceei::solve_float`]. Convergence trouble is not an error: it shows in
    /// [`CeeiOutcome::status`] and [`CeeiOutcome::relative_gap`].
    pub fn solve(&self, inst: &Instance) -> Result<CeeiOutcome, SolverError> {
        self.check_options()?;
        if inst.num_users() == 0 {
            // A tree whose leaves are all idle: nobody buys, every price is 0, exactly.
            let m = inst.num_resources();
            return Ok(CeeiOutcome {
                certified: true,
                tasks_exact: Some(Vec::new()),
                prices_exact: Some(vec![Rational::ZERO; m]),
                tasks: Vec::new(),
                prices: vec![0.0; m],
                feasible_tasks: Vec::new(),
                relative_gap: 0.0,
                objective: 0.0,
                iterations: 0,
                status: SolveStatus::Solved,
            });
        }
        let prob = Problem::new(inst)?;
        let sol = prob.newton(self.tolerance, self.max_iterations);
        let prices = prob.original_prices(&sol.point.q);
        let certified = if self.certify {
            try_certify(inst, &prob, &sol.point, &prices)
        } else {
            None
        };
        let (tasks_exact, prices_exact, feasible_tasks, relative_gap) = match certified {
            Some((x, p)) => (Some(x.clone()), Some(p), x, 0.0),
            None => {
                let (feasible, gap) = proven_bound(inst, &prob, &sol.point.q);
                (None, None, feasible, gap)
            }
        };
        Ok(CeeiOutcome {
            certified: tasks_exact.is_some(),
            tasks_exact,
            prices_exact,
            tasks: sol.point.x.clone(),
            prices,
            objective: objective_f64(inst, &feasible_tasks),
            feasible_tasks,
            relative_gap,
            iterations: sol.iterations,
            status: sol.status,
        })
    }
}

impl Mechanism for Ceei {
    fn name(&self) -> &str {
        "ceei"
    }

    /// [`algebraic::solve_exact`]'s task counts, with the kernel's default limits.
    fn algebraic_tasks(
        &self,
        instance: &Instance,
    ) -> Option<Result<Vec<RealAlgebraic>, AlgebraicCeeiError>> {
        Some(algebraic::solve_exact(instance, &Limits::default()).map(|eq| eq.task_values))
    }

    /// `false`: CEEI is solved numerically; answers are exact only when certified.
    fn is_exact(&self) -> bool {
        false
    }

    /// The certified equilibrium tasks when certification succeeds; otherwise an
    /// *approximate* but exactly feasible allocation (the best responses to the float
    /// prices scaled down to fit, [`CeeiOutcome::feasible_tasks`]), whose distance from the
    /// optimum is bounded by [`CeeiOutcome::relative_gap`] — call [`Ceei::solve`] to see it.
    ///
    /// Uncertified answers carry a tolerance (see [`Allocation::approximate`]) derived from
    /// the proven gap: `Σ w_i log` is strongly concave, so for the optimum `x*` and any
    /// feasible `x̃`, `OPT − f(x̃) ≥ ½ Σ_i w_i (x̃_i − x*_i)² / max(x̃_i, x*_i)²`; with
    /// `OPT − f(x̃) ≤ W·gap` this gives `|x̃_i − x*_i| / max(x̃_i, x*_i) ≤ s = sqrt(2 W gap / w_i)`,
    /// hence `|x̃_i − x*_i| ≤ s/(1 − s) · x*_i`. The bound is rounded up generously.
    fn allocate(&self, instance: &Instance) -> Result<Allocation, SolverError> {
        let out = self.solve(instance)?;
        if out.certified {
            return Ok(Allocation::new(out.feasible_tasks));
        }
        Ok(Allocation::approximate(
            out.feasible_tasks,
            gap_to_tolerance(instance, out.relative_gap),
        ))
    }
}

/// A rational upper bound of the relative task error implied by a proven relative gap
/// (see [`Ceei::allocate`]); 1 (which bounds nothing) when the gap proves too little.
fn gap_to_tolerance(inst: &Instance, relative_gap: f64) -> Rational {
    let total: f64 = inst.users().iter().map(|u| u.weight.to_f64_lossy()).sum();
    let lightest = inst
        .users()
        .iter()
        .map(|u| u.weight.to_f64_lossy())
        .fold(f64::INFINITY, f64::min);
    let s = (2.0 * total * relative_gap.max(0.0) / lightest).sqrt();
    if !s.is_finite() || s >= 0.5 {
        return Rational::ONE;
    }
    // Twice the bound plus 2^-50 absorbs every rounding of the f64 evaluation above; the
    // conversion rounds up to a multiple of 2^-60.
    let t = 2.0 * s / (1.0 - s) + 2f64.powi(-50);
    let scaled = (t * 2f64.powi(60)).ceil();
    Rational::new(scaled as i128, 1i128 << 60).unwrap_or(Rational::ONE)
}

fn objective_f64(inst: &Instance, x: &[Rational]) -> f64 {
    inst.users()
        .iter()
        .zip(x)
        .map(|(u, x)| u.weight.to_f64_lossy() * x.to_f64_lossy().ln())
        .sum()
}
