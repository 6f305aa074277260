//! CEEI — competitive equilibrium from equal incomes — with Leontief utilities: the
//! Eisenberg–Gale program, solved in floating point and then certified exactly.
//!
//! Every user `i` receives the budget `w_i` (equal incomes when all weights are 1) and buys
//! tasks at prices `p_j >= 0` per unit of resource `j`; a task of user `i` costs
//! `t_i = p · d_i`. An equilibrium is a pair `(x, p)` where every user buys what it can
//! afford, `x_i = min(T_i, w_i / t_i)`, and the market clears: every resource with a
//! positive price is used to capacity, none is over-used. For Leontief (and any
//! homogeneous) utilities the equilibria are exactly the solutions of the Eisenberg–Gale
//! program (SPEC.md §2)
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
//!   conditions *exactly* (checked in [`Rational`] by [`certify`]). The KKT conditions are
//!   sufficient for optimality of a concave program, so the answer is the equilibrium.
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
//!    [`certify`]. Denominators above `10^12` are not tried.
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
//! for the bound with integer data, fixed-point) operations. Measured (`benches/ceei.rs`,
//! 10,000 users × 10 resources, a fifth of them capped): about 11 ms for the Newton
//! solver (4 iterations, relative gap `3e-17`), about 41 ms for [`Ceei::solve`] with the
//! certification attempt and the proven bound; at 1,000 × 10, 1.1 ms against 166 ms for
//! Clarabel ([`solve_clarabel`]).
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

use std::fmt;
use std::time::Duration;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};
use serde_json::{Map, Value};

use crate::{Allocation, ExactSum, Instance, Mechanism, Rational, SolverError};

/// Unit round-off of `f64`.
const UNIT: f64 = f64::EPSILON / 2.0;
/// Relative tolerances tried, loosest first, when reconstructing rationals from floats.
const RECONSTRUCTION_TOLERANCES: [f64; 3] = [1e-6, 1e-9, 1e-12];
/// Largest denominator a reconstructed rational may have.
const MAX_DENOMINATOR: i128 = 1_000_000_000_000;
/// Scaled prices at or below this fraction of their scale `s_j` are taken as zero by
/// reconstruction.
const ZERO_PRICE: f64 = 1e-13;
/// Gap at or below which a run that cannot reach the tolerance counts as `AlmostSolved`.
const ALMOST_GAP: f64 = 1e-8;

/// How a numeric solve ended (a value, not an error, in the style of Clarabel.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
        match self {
            SolveStatus::Solved => "solved",
            SolveStatus::AlmostSolved => "almost_solved",
            SolveStatus::MaxIterations => "max_iterations",
            SolveStatus::NumericalError => "numerical_error",
        }
    }
}

impl fmt::Display for SolveStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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
    /// KKT conditions exactly (see [`certify`]).
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
        let mut o = Map::new();
        o.insert("mechanism".into(), Value::from("ceei"));
        o.insert("certified".into(), Value::Bool(self.certified));
        o.insert("exact".into(), Value::Bool(self.certified));
        o.insert("status".into(), Value::from(self.status.as_str()));
        o.insert("iterations".into(), Value::from(self.iterations));
        o.insert("relative_gap".into(), json_float(self.relative_gap));
        o.insert("objective".into(), json_float(self.objective));
        let values = |exact: &Option<Vec<Rational>>, float: &[f64]| -> Vec<Value> {
            match exact {
                Some(v) if self.certified => {
                    v.iter().map(|x| Value::String(x.to_string())).collect()
                }
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
        o.insert("tasks".into(), Value::Object(tasks));
        o.insert("prices".into(), Value::Object(prices));
        Value::Object(o)
    }
}

fn json_float(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

impl Ceei {
    /// The default solver: relative gap tolerance `1e-13`, at most 200 Newton iterations,
    /// certification on.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the target relative duality gap (in `(0, 1)`; see
    /// [`CeeiOutcome::relative_gap`] for the definition).
    pub fn tolerance(mut self, tolerance: f64) -> Self {
        self.tolerance = tolerance;
        self
    }

    /// Sets the Newton iteration limit (at least 1).
    pub fn max_iterations(mut self, max_iterations: usize) -> Self {
        self.max_iterations = max_iterations;
        self
    }

    /// Turns the exact certification attempt on (default) or off. Off, the answer is
    /// always numeric, with its proven gap bound.
    pub fn certification(mut self, on: bool) -> Self {
        self.certify = on;
        self
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
        let prob = Problem::new(inst)?;
        let sol = prob.newton(self.tolerance, self.max_iterations);
        let prices = prob.original_prices(&sol.point.q);
        let certified = if self.certify {
            try_certify(inst, &prob, &sol.point, &prices)
        } else {
            None
        };
        let outcome = match certified {
            Some((x, p)) => {
                let objective = objective_f64(inst, &x);
                CeeiOutcome {
                    certified: true,
                    tasks_exact: Some(x.clone()),
                    prices_exact: Some(p),
                    tasks: sol.point.x.clone(),
                    prices,
                    feasible_tasks: x,
                    relative_gap: 0.0,
                    objective,
                    iterations: sol.iterations,
                    status: sol.status,
                }
            }
            None => {
                let (feasible, gap) = proven_bound(inst, &prob, &sol.point.q);
                let objective = objective_f64(inst, &feasible);
                CeeiOutcome {
                    certified: false,
                    tasks_exact: None,
                    prices_exact: None,
                    tasks: sol.point.x.clone(),
                    prices,
                    feasible_tasks: feasible,
                    relative_gap: gap,
                    objective,
                    iterations: sol.iterations,
                    status: sol.status,
                }
            }
        };
        Ok(outcome)
    }
}

impl Mechanism for Ceei {
    fn name(&self) -> &str {
        "ceei"
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
    let (n, m) = (inst.num_users(), inst.num_resources());
    if tasks.len() != n {
        return Err(KktViolation::Length {
            what: "tasks",
            expected: n,
            found: tasks.len(),
        });
    }
    if prices.len() != m {
        return Err(KktViolation::Length {
            what: "prices",
            expected: m,
            found: prices.len(),
        });
    }
    if let Some(user) = inst
        .users()
        .iter()
        .position(|u| u.resource_weights.is_some())
    {
        return Err(KktViolation::ResourceWeights { user });
    }
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

/// `Σ_i x_i d_ij` exactly, by pairwise summation: with many distinct denominators (tasks
/// `w_i / t_i`) the operands grow evenly, where a running sum would redo ever larger gcds.
fn exact_usage(inst: &Instance, tasks: &[Rational]) -> Vec<Rational> {
    (0..inst.num_resources())
        .map(|j| {
            let terms: Vec<Rational> = inst
                .users()
                .iter()
                .zip(tasks)
                .filter(|(u, x)| !u.demand[j].is_zero() && !x.is_zero())
                .map(|(u, x)| &u.demand[j] * x)
                .collect();
            pairwise_sum(terms)
        })
        .collect()
}

fn pairwise_sum(mut terms: Vec<Rational>) -> Rational {
    if terms.is_empty() {
        return Rational::ZERO;
    }
    while terms.len() > 1 {
        let mut next = Vec::with_capacity(terms.len().div_ceil(2));
        let mut it = terms.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => a + b,
                None => a,
            });
        }
        terms = next;
    }
    terms.pop().unwrap_or(Rational::ZERO)
}

/// `p · d` exactly.
fn task_cost(demand: &[Rational], prices: &[Rational]) -> Rational {
    let mut s = ExactSum::new();
    for (d, p) in demand.iter().zip(prices) {
        if !d.is_zero() && !p.is_zero() {
            s.add(&(d * p));
        }
    }
    s.value()
}

/// Each user's exact best response to `prices`: `min(T_i, w_i / (p · d_i))`; `None` when an
/// uncapped user's tasks would cost nothing.
fn best_responses(inst: &Instance, prices: &[Rational]) -> Option<Vec<Rational>> {
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
// The scaled floating-point problem and the dual Newton method.

/// The instance in scaled floating point: `d̃_ij = d_ij / R_j`, `w̃_i = w_i / W`.
struct Problem {
    n: usize,
    m: usize,
    /// Compressed rows: user `i`'s positive demands are `col[start[i]..start[i + 1]]`
    /// (increasing) with scaled values `val[..]`.
    start: Vec<usize>,
    col: Vec<usize>,
    val: Vec<f64>,
    /// `w_i / W`.
    w: Vec<f64>,
    /// `T_i`, or `+∞`.
    cap: Vec<f64>,
    /// `w̃_i ln T_i` (0 without a cap).
    w_ln_cap: Vec<f64>,
    /// `W / R_j`: scaled price to price per unit.
    price_unit: Vec<f64>,
    /// `s_j = Σ_{i: d_ij > 0} w̃_i`: the most budget that can be spent on resource `j`, so
    /// `0 <= q_j <= s_j` at equilibrium; the Newton step works with `y_j = q_j / s_j`.
    share: Vec<f64>,
    /// `W`, exactly.
    weight_sum: Rational,
}

/// `a / b` in `f64`, correctly rounded when both are integers below 2^53.
fn ratio_f64(a: &Rational, b: &Rational) -> f64 {
    const LIMIT: i128 = 1 << 53;
    if let (Some((an, 1)), Some((bn, 1))) = (a.as_small(), b.as_small()) {
        if an.abs() < LIMIT && bn.abs() < LIMIT && bn != 0 {
            return an as f64 / bn as f64;
        }
    }
    a.checked_div(b).map_or(f64::NAN, |r| r.to_f64_lossy())
}

fn usable(v: f64) -> bool {
    v.is_finite() && v > 0.0 && v >= f64::MIN_POSITIVE
}

impl Problem {
    fn new(inst: &Instance) -> Result<Self, SolverError> {
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
        start.push(0);
        for (i, u) in inst.users().iter().enumerate() {
            for (j, (d, r)) in u.demand.iter().zip(inst.capacity()).enumerate() {
                if d.is_zero() {
                    continue;
                }
                let v = ratio_f64(d, r);
                if !usable(v) {
                    return Err(SolverError::invalid(
                        format!("users[{i}].demand[{j}]"),
                        format!(
                            "demand / capacity = {d} / {r} is outside the floating-point \
                             range of the CEEI solver"
                        ),
                    ));
                }
                col.push(j);
                val.push(v);
            }
            start.push(col.len());
            let wi = ratio_f64(&u.weight, &weight_sum);
            if !usable(wi) {
                return Err(SolverError::invalid(
                    format!("users[{i}].weight"),
                    "the weight's share of the total is outside the floating-point range of \
                     the CEEI solver",
                ));
            }
            w.push(wi);
            match &u.cap {
                None => {
                    cap.push(f64::INFINITY);
                    w_ln_cap.push(0.0);
                }
                Some(t) => {
                    let tf = t.to_f64_lossy();
                    if !usable(tf) {
                        return Err(SolverError::invalid(
                            format!("users[{i}].tasks"),
                            "the task cap is outside the floating-point range of the CEEI \
                             solver",
                        ));
                    }
                    cap.push(tf);
                    w_ln_cap.push(wi * tf.ln());
                }
            }
        }
        let mut share = vec![0.0; m];
        for i in 0..n {
            for k in start[i]..start[i + 1] {
                share[col[k]] += w[i];
            }
        }
        for s in &mut share {
            if *s <= 0.0 {
                *s = 1.0; // nobody demands the resource: its price simply goes to 0
            }
        }
        let price_unit: Vec<f64> = inst
            .capacity()
            .iter()
            .map(|r| ratio_f64(&weight_sum, r))
            .collect();
        if let Some(j) = price_unit.iter().position(|&v| !usable(v)) {
            return Err(SolverError::invalid(
                format!("capacity[{j}]"),
                "total weight / capacity is outside the floating-point range of the CEEI solver",
            ));
        }
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

    fn original_prices(&self, q: &[f64]) -> Vec<f64> {
        q.iter().zip(&self.price_unit).map(|(q, u)| q * u).collect()
    }

    fn row(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i]..self.start[i + 1]
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
            let range = self.row(i);
            let mut t = 0.0;
            for k in range.clone() {
                t += q[self.col[k]] * self.val[k];
            }
            let (w, cap) = (self.w[i], self.cap[i]);
            let (x, capped, phi) = if cap.is_finite() && w > cap * t {
                (cap, true, self.w_ln_cap[i] - cap * t)
            } else {
                if t.is_nan() || t <= 0.0 {
                    return false;
                }
                let x = w / t;
                (x, false, w * (x.ln() - 1.0))
            };
            g.add(phi);
            g_abs += phi.abs();
            pt.x[i] = x;
            pt.capped[i] = capped;
            for k in range {
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
    fn newton(&self, tol: f64, max_iterations: usize) -> NewtonRun {
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
                let t: f64 = self.row(i).map(|k| q[self.col[k]] * self.val[k]).sum();
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
struct Neumaier {
    sum: f64,
    comp: f64,
}

impl Neumaier {
    #[inline]
    fn add(&mut self, v: f64) {
        let t = self.sum + v;
        if self.sum.abs() >= v.abs() {
            self.comp += (self.sum - t) + v;
        } else {
            self.comp += (v - t) + self.sum;
        }
        self.sum = t;
    }

    #[inline]
    fn value(&self) -> f64 {
        self.sum + self.comp
    }
}

/// The dual evaluated at one point.
struct Point {
    q: Vec<f64>,
    x: Vec<f64>,
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

struct NewtonRun {
    point: Point,
    gap: f64,
    iterations: usize,
    status: SolveStatus,
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
        let c = a.ceil();
        if c <= b {
            // An integer lies in [a, b]: the smallest one ends the expansion.
            let ci = float_to_i128(c)?;
            let h = ci.checked_mul(h1)?.checked_add(h0)?;
            let k = ci.checked_mul(k1)?.checked_add(k0)?;
            return (k <= MAX_DENOMINATOR).then_some((h, k));
        }
        let f = a.floor();
        let fi = float_to_i128(f)?;
        let h = fi.checked_mul(h1)?.checked_add(h0)?;
        let k = fi.checked_mul(k1)?.checked_add(k0)?;
        if k > MAX_DENOMINATOR {
            return None;
        }
        (h0, h1, k0, k1) = (h1, h, k1, k);
        // a, b in (f, f + 1): continue with the reciprocals of the fractional parts.
        let (na, nb) = (1.0 / (b - f), 1.0 / (a - f));
        a = na;
        b = nb;
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

fn try_certify(
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
        if let Some(p_hat) = p_hat {
            if !tried_prices.contains(&p_hat) {
                if let Some(found) = check_prices(inst, prob, &p_hat) {
                    return Some(found);
                }
                tried_prices.push(p_hat);
            }
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
        if let Some(fractions) = fractions {
            if !tried_tasks.contains(&fractions) {
                let xf: Vec<f64> = fractions
                    .iter()
                    .map(|&(a, b)| a as f64 / b as f64)
                    .collect();
                if let Some(saturated) = screen(prob, &xf, &positive) {
                    let x_hat: Option<Vec<Rational>> = fractions
                        .iter()
                        .map(|&(a, b)| Rational::new(a, b))
                        .collect();
                    if let Some(found) = x_hat
                        .and_then(|x| check_tasks(inst, prob, &x, &xf, &saturated, prices, tau))
                    {
                        return Some(found);
                    }
                }
                tried_tasks.push(fractions);
            }
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
    let q: Vec<f64> = p_hat
        .iter()
        .zip(&prob.price_unit)
        .map(|(p, u)| p.to_f64_lossy() / u)
        .collect();
    let mut x = vec![0.0; prob.n];
    for (i, xi) in x.iter_mut().enumerate() {
        let t: f64 = prob.row(i).map(|k| q[prob.col[k]] * prob.val[k]).sum();
        *xi = if prob.cap[i].is_finite() && prob.w[i] > prob.cap[i] * t {
            prob.cap[i]
        } else if t > 0.0 {
            prob.w[i] / t
        } else {
            return None;
        };
    }
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
    let q: Vec<f64> = p_hat
        .iter()
        .zip(&prob.price_unit)
        .map(|(p, u)| p.to_f64_lossy() / u)
        .collect();
    let thr = 8.0 * (prob.m as f64 + 4.0) * UNIT;
    for (i, &x) in xf.iter().enumerate() {
        let t: f64 = prob.row(i).map(|k| q[prob.col[k]] * prob.val[k]).sum();
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

// ---------------------------------------------------------------------------------------
// The proven gap bound.

/// `v` exactly, for a finite `v`.
fn exact_f64(v: f64) -> Rational {
    let bits = v.to_bits();
    let negative = bits >> 63 == 1;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1_u64 << 52) - 1);
    let (mut mant, mut e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1_u64 << 52), exp - 1075)
    };
    if mant == 0 {
        return Rational::ZERO;
    }
    let tz = mant.trailing_zeros() as i32;
    mant >>= tz;
    e += tz;
    let mut num = BigInt::from(mant);
    if negative {
        num = -num;
    }
    if e >= 0 {
        Rational::from(num << e as usize)
    } else {
        Rational::from_big_parts(num, BigInt::from(1) << (-e) as usize)
            .expect("power of two is nonzero")
    }
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
    if let Some((num, den)) = x.as_small() {
        if let Some((fl, exact)) = shifted_floor(num.unsigned_abs(), den.unsigned_abs(), k) {
            return (BigInt::from(fl), exact);
        }
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
fn proven_bound(inst: &Instance, prob: &Problem, q: &[f64]) -> (Vec<Rational>, f64) {
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
    let (user_sigma, penalty) = user_sigmas(inst, &sigmas, &prob.weight_sum);
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
    bound.add(&penalty);
    bound.add(&Rational::new(1, 1_i128 << 60)?);
    let bound = bound.value();
    let feasible = rounded
        .iter()
        .zip(&user_sigma)
        .map(|(&(fl, _, k), &j)| {
            let x = dyadic(&BigInt::from(fl), k);
            match j {
                Some(j) => x * &sigmas[j],
                None => x,
            }
        })
        .collect();
    Some((feasible, f64_at_least(&bound).max(0.0)))
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
    let mut dem: Vec<(usize, Rational)> = Vec::with_capacity(prob.m);
    for u in users {
        dem.clear();
        for (j, (d, r)) in u.demand.iter().zip(cap).enumerate() {
            if !d.is_zero() {
                dem.push((j, d / r));
            }
        }
        let mut t = Rational::ZERO;
        for (j, d) in &dem {
            if !q_hat[*j].is_zero() {
                t += &q_hat[*j] * d;
            }
        }
        let w = &u.weight / w_total;
        let x = match &u.cap {
            Some(cap) if w >= cap * &t => cap.clone(),
            _ => match w.checked_div(&t) {
                Some(x) => x,
                None => return fallback_feasible(inst),
            },
        };
        let mag = x.to_f64_lossy().log2().floor();
        let k = if mag.is_finite() {
            (f64::from(KEEP) - mag).clamp(0.0, 120.0) as u32
        } else {
            120
        };
        let (fl, exact) = grid_floor(&x, k);
        let (xl, xh) = if exact {
            (x.clone(), x.clone())
        } else if fl.bits() > u64::from(KEEP) - 1 {
            // fl >= 2^61: x* / x^lo − 1 < 2^-61 / (1 − 2^-61) <= 2^-60, in the allowance.
            (dyadic(&fl, k), dyadic(&(&fl + BigInt::from(1)), k))
        } else {
            // Too small to round safely: keep it exact.
            (x.clone(), x.clone())
        };
        for (j, d) in &dem {
            lo[*j].add(&(&xl * d));
            hi[*j].add(&(&xh * d));
        }
        x_lo.push(xl);
    }
    // σ_j <= min(1, 1 / u_j^hi), rounded down to a dyadic rational.
    let sigmas = resource_sigmas(hi.iter_mut().map(|h| h.value().recip()));
    let (user_sigma, penalty) = user_sigmas(inst, &sigmas, w_total);
    let mut bound = ExactSum::new();
    for (qj, l) in q_hat.iter().zip(&mut lo) {
        if !qj.is_zero() {
            bound.add(&(qj * &(Rational::ONE - l.value())));
        }
    }
    bound.add(&penalty);
    bound.add(&Rational::new(1, 1_i128 << 60).expect("nonzero"));
    let bound = bound.value();
    let feasible: Vec<Rational> = x_lo
        .iter()
        .zip(&user_sigma)
        .map(|(x, j)| match j {
            Some(j) => x * &sigmas[*j],
            None => x.clone(),
        })
        .collect();
    (feasible, f64_at_least(&bound).max(0.0))
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

/// Each user's scale-down `σ_i = min_{j: d_ij > 0} σ_j`, as the index of the resource
/// attaining it (`None` when it is 1), and `Σ_i w̃_i (1/σ_i − 1)`, which bounds the
/// objective lost, `Σ_i w̃_i log(1/σ_i)`.
fn user_sigmas(
    inst: &Instance,
    sigmas: &[Rational],
    w_total: &Rational,
) -> (Vec<Option<usize>>, Rational) {
    let mut order: Vec<usize> = (0..sigmas.len()).collect();
    order.sort_by(|&a, &b| sigmas[a].cmp(&sigmas[b]));
    let mut rank = vec![0; sigmas.len()];
    for (r, &j) in order.iter().enumerate() {
        rank[j] = r;
    }
    let mut weight_by: Vec<ExactSum> = (0..sigmas.len()).map(|_| ExactSum::new()).collect();
    let chosen = inst
        .users()
        .iter()
        .map(|u| {
            let j = (0..sigmas.len())
                .filter(|&j| !u.demand[j].is_zero())
                .min_by_key(|&j| rank[j])?;
            if sigmas[j] < Rational::ONE {
                weight_by[j].add(&u.weight);
                Some(j)
            } else {
                None
            }
        })
        .collect();
    let mut penalty = ExactSum::new();
    for (j, wsum) in weight_by.iter_mut().enumerate() {
        let wj = wsum.value();
        if !wj.is_zero() {
            let inv = sigmas[j].recip().expect("sigma is positive");
            penalty.add(&(wj / w_total * (inv - Rational::ONE)));
        }
    }
    (chosen, penalty.value())
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

// ---------------------------------------------------------------------------------------
// Clarabel cross-check.

/// The answer of [`solve_clarabel`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
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
/// As [`Ceei::solve_float`]; [`SolverError::Mechanism`] when Clarabel rejects the setup.
///
/// # Example
/// ```
/// use leontief_solver::ceei::{solve_clarabel, SolveStatus};
/// use leontief_solver::{Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let out = solve_clarabel(&paper).unwrap();
/// assert!(matches!(out.status, SolveStatus::Solved | SolveStatus::AlmostSolved));
/// assert!((out.tasks[0] - 45.0 / 11.0).abs() < 1e-7);
/// assert!((out.prices[0] - 0.2).abs() < 1e-7);
/// ```
pub fn solve_clarabel(inst: &Instance) -> Result<ClarabelOutcome, SolverError> {
    use clarabel::algebra::CscMatrix;
    use clarabel::solver::{
        DefaultSettings, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
    };

    let prob = Problem::new(inst)?;
    let (n, m) = (prob.n, prob.m);
    let capped: Vec<usize> = (0..n).filter(|&i| prob.cap[i].is_finite()).collect();
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
        for k in prob.row(i) {
            rowval.push(prob.col[k]);
            nzval.push(prob.val[k]);
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
        c[n + i] = -prob.w[i];
    }
    let mut b = vec![0.0; rows];
    b[..m].fill(1.0);
    for (r, &i) in capped.iter().enumerate() {
        b[m + r] = prob.cap[i];
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
    let tasks = sol.x[..n].to_vec();
    let prices = prob.original_prices(&sol.z[..m]);
    Ok(ClarabelOutcome {
        tasks,
        prices,
        status,
        solve_time: Duration::try_from_secs_f64(sol.solve_time).unwrap_or_default(),
        iterations: sol.iterations as usize,
    })
}
