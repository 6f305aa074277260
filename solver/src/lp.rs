//! DRF and asset fairness as **lexicographic max-min LP sequences**, solved in floating point
//! and recovered exactly: the answer is exact [`Rational`] tasks, equal to progressive
//! filling ([`crate::drf::progressive_filling_by`]). The module exists as an independent
//! cross-check of progressive filling and as a base for variants without a closed-form
//! filling (`docs/theory.md` §2.6).
//!
//! Every user `i` has a per-task share `s_i > 0`: the weighted dominant share
//! `max_j d_ij / (R_j w_ij)` for DRF ([`LpObjective::DominantShare`]) or the weighted
//! aggregate share `Σ_j d_ij / R_j / w_i` for asset fairness ([`LpObjective::AggregateShare`]).
//! A user holding `x_i` tasks is at level `x_i s_i`.
//!
//! # Algorithm
//! Stage `k` solves, in floating point,
//!
//! ```text
//! maximise t  subject to  Σ_i d_ij x_i ≤ R_j        for every resource j
//!                         x_i s_i ≥ t               for every unfrozen user i
//!                         x_i = (exact value)       for every frozen user i
//!                         x_i ≤ T_i                 (see CapHandling)
//! ```
//!
//! stated in the level variables `y_i = x_i s_i` with the frozen users substituted into the
//! right-hand sides (computed exactly) and each capacity row divided by its remaining room,
//! so that every LP has `O(1)` numbers whatever the instance's units. By default
//! ([`LpForm::Surplus`]) each level row is written with a surplus variable
//! `z_i = y_i − t ≥ 0`, which turns the `n` level rows into bounds; [`LpForm::Explicit`]
//! keeps them as rows. The users that cannot grow beyond the optimum `t*` are those
//! demanding a resource that is tight in *every* optimum — exactly the resources saturated
//! when every unfrozen user sits at `x_i = t*/s_i` — and those at their cap. They are
//! frozen and the next stage starts.
//!
//! **Floats are candidates only.** From the float solution, the resources whose rows are
//! within a relative [`LexMaxMin::candidate_tolerance`] of tight (and, with caps in the LP,
//! the users within it of their caps) are *candidates*. The stage level is then computed
//! exactly from those equations: for a resource `j`, `t_j = (R_j − A_j) / Σ_{unfrozen i
//! demanding j} d_ij / s_i`, with `A_j` the frozen users' exact use; for a cap,
//! `T_i s_i`. The exact level is the minimum over the candidates, and it is **verified**:
//! every other resource must have `t_j > t` (the point `x_i = t/s_i` is feasible and the
//! candidate set holds every tight row) and every other cap must lie above `t`. Exact levels
//! computed at earlier stages are lower bounds of the current ones (freezing a user only
//! slows the growth of use), so most of the check costs one comparison. When the check
//! fails — a float candidate set that is missing a binding row, or empty — the stage
//! **falls back** to computing every resource's level exactly and says so
//! ([`Recovery::Fallback`]). The stage's exact optimum is therefore always the true
//! minimum, and the frozen users are those of progressive filling at that level.
//!
//! Caps ([`CapHandling`]): with [`CapHandling::InLp`] (the literal sequence) caps are bounds
//! of the LP, and every distinct cap level costs a stage. With [`CapHandling::Batched`]
//! (the default) the stage LP omits the unfrozen users' caps; its optimum `t` is then the
//! level of the next saturation *if no cap binds*. Freezing a user at its cap only lowers
//! the use of resources, so the true next saturation is at a level `≥ t`: every cap whose
//! exact level is `≤ t` binds no later than that saturation. All of them are frozen in one batch, exactly, and the
//! LP is solved again; a stage with no cap below `t` is a saturation. Both give the same
//! exact answer.
//!
//! # Complexity
//! At most one LP per freeze event: with batched caps, one per saturation plus one per batch
//! of caps (8 LPs on [`crate::random_instances::cluster_workload`]`(1000, 10, 42)`); with caps in
//! the LP, one per distinct cap level as well (23 LPs there). Stage `k` has
//! `u_k + 1` variables and `m_k` rows ([`LpForm::Surplus`]; `m_k + u_k` with
//! [`LpForm::Explicit`]) for `u_k` unfrozen users and `m_k` resources still demanded. Exact
//! work is `O(n·m)` rational operations over the whole sequence plus `O(m)` level
//! comparisons per stage. Measured at 1,000 × 10 with microlp (`benches/lp.rs`): 1.1–1.4×
//! the time of progressive filling in the surplus form with batched caps, 30–80× in the
//! explicit form.
//!
//! # Example
//! The DRF paper's running example (9 CPUs, 18 GB; A needs ⟨1, 4⟩, B ⟨3, 1⟩): DRF gives
//! A 3 tasks and B 2; asset fairness gives A 63/25 and B 54/25 (the paper, §2.2).
//! ```
//! use leontief_solver::lp::{LexMaxMin, LpStatus};
//! use leontief_solver::{Instance, Mechanism, Rational, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let drf = LexMaxMin::drf().solve(&paper).unwrap();
//! assert_eq!(drf.tasks, vec![3.into(), 2.into()]);
//! assert_eq!(drf.stages.len(), 1);
//! assert_eq!(drf.stages[0].status, LpStatus::Optimal);
//! assert_eq!(drf.stages[0].level.to_string(), "2/3"); // CPU saturates
//! assert!(drf.max_float_error < 1e-9);
//! let asset = LexMaxMin::asset().allocate(&paper).unwrap();
//! assert_eq!(asset.tasks, vec![Rational::new(63, 25).unwrap(), Rational::new(54, 25).unwrap()]);
//! ```
//!
//! # References
//! - A. Ghodsi, M. Zaharia, B. Hindman, A. Konwinski, S. Shenker, I. Stoica. *Dominant
//!   Resource Fairness: Fair Allocation of Multiple Resource Types.* NSDI 2011 (§2.2 asset
//!   fairness, §4 progressive filling).
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness: Extensions,
//!   Limitations, and Indivisibilities.* EC 2012 (zero demands; the freeze rule).
//! - D. Nace, M. Pióro. *Max-min fairness and its applications to routing and load-balancing
//!   in communication networks: a tutorial.* IEEE Communications Surveys & Tutorials 10(4),
//!   2008 (the sequential LP for lexicographic max-min and its blocking test).

use std::panic::{catch_unwind, AssertUnwindSafe};

use good_lp::{variable, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus};
use good_lp::{SolverModel, Variable};

use crate::asset::asset_task_share;
use crate::{Allocation, ExactSum, Instance, Mechanism, Rational, SolverError};

/// The default [`LexMaxMin::candidate_tolerance`]: a row within this relative distance of
/// tight is a candidate. Well above the backends' own tolerances (HiGHS: `1e-7`), so that
/// tight rows are not missed; a loose value only costs exact work, never exactness.
pub const DEFAULT_CANDIDATE_TOLERANCE: f64 = 1e-6;

/// Which share the LP sequence equalises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LpObjective {
    /// DRF: the weighted dominant share `max_j d_ij / (R_j w_ij)` per task.
    DominantShare,
    /// Asset fairness: the weighted aggregate share per task, `Σ_j d_ij / R_j / w_i`
    /// (with per-resource weights, `Σ_j d_ij / (R_j w_ij)`), as
    /// [`asset_task_share`].
    AggregateShare,
}

impl LpObjective {
    /// User `i`'s share of one task under this objective (positive on a valid instance).
    ///
    /// # Example
    /// ```
    /// use leontief_solver::lp::LpObjective;
    /// use leontief_solver::{Instance, User};
    /// let paper = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// assert_eq!(LpObjective::DominantShare.task_share(&paper, 0).to_string(), "2/9");
    /// assert_eq!(LpObjective::AggregateShare.task_share(&paper, 1).to_string(), "7/18");
    /// ```
    pub fn task_share(self, instance: &Instance, i: usize) -> Rational {
        match self {
            LpObjective::DominantShare => instance.task_weighted_share(i),
            LpObjective::AggregateShare => asset_task_share(instance, i),
        }
    }
}

crate::name_enum! {
    /// The floating-point LP solver behind the stages (through `good_lp`), by its name, e.g.
    /// `microlp` (derived with strum; the `highs` variant exists only with the feature).
    #[derive(Default)]
    #[non_exhaustive]
    pub enum LpBackend {
        /// `microlp`: pure Rust, always available.
        #[default]
        Microlp,
        /// HiGHS (the crate's `highs` feature; needs cmake and libclang to build).
        #[cfg(feature = "highs")]
        Highs,
    }
}

/// How task caps enter the LP sequence (see the [module docs](self)). Both give the same
/// exact answer; they differ in the number of LPs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum CapHandling {
    /// The stage LP omits unfrozen users' caps; every cap at or below the stage's exact
    /// level is frozen in one batch and the LP is solved again.
    #[default]
    Batched,
    /// Caps are bounds `x_i ≤ T_i` of every stage LP (the literal lexicographic max-min
    /// sequence): one stage per distinct cap level.
    InLp,
}

/// How the level rows `x_i s_i ≥ t` are written in each stage LP. Both are the same LP
/// (an affine change of variables); they differ in size and in the solver's work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum LpForm {
    /// Each unfrozen user's level is `y_i = t + z_i` with a surplus variable `z_i ≥ 0`, so
    /// the level rows become bounds and the LP has one row per resource still demanded
    /// (plus one per cap with [`CapHandling::InLp`]). Measured 30–60× faster than
    /// [`LpForm::Explicit`] with microlp at 1,000 × 10.
    #[default]
    Surplus,
    /// The level variables `y_i = x_i s_i` with one explicit row `y_i ≥ t` per unfrozen
    /// user: `m_k + u_k` rows, as the formulation is usually written.
    Explicit,
}

/// What the float solver reported for a stage. A value, not an error: a completed
/// [`LpOutcome`] holds only [`LpStatus::Optimal`] stages, and [`LexMaxMin::solve`] turns any
/// other status into [`SolverError::Mechanism`] carrying this text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, strum::Display)]
#[strum(serialize_all = "lowercase")]
#[non_exhaustive]
pub enum LpStatus {
    /// Solved to optimality.
    Optimal,
    /// The backend declared the LP infeasible (never the case for a valid instance).
    Infeasible,
    /// The backend declared the LP unbounded (never the case for a valid instance).
    Unbounded,
    /// Anything else: an internal error, a time limit, a non-finite value.
    #[strum(to_string = "failed: {0}")]
    Failed(String),
}

/// How a stage's exact level was recovered from the float solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Recovery {
    /// The float candidates held every binding row: the exact minimum over them passed the
    /// exact check against all other rows.
    Candidates,
    /// The float candidates were empty or missed a binding row; every resource's level was
    /// computed exactly instead.
    Fallback,
}

/// One LP of the sequence and what it froze.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LpStage {
    /// The stage LP's exact optimum `t*` (the common level of the users still growing).
    pub level: Rational,
    /// The backend's optimum, as reported.
    pub float_level: f64,
    /// `|float_level − level| / level`.
    pub float_error: f64,
    /// The backend's status.
    pub status: LpStatus,
    /// How the exact level was recovered.
    pub recovery: Recovery,
    /// Resources tight in every optimum (saturated at `level`), in index order; empty when
    /// the stage only froze caps.
    pub tight: Vec<usize>,
    /// Users frozen at `level` because they demand a tight resource, in index order.
    pub frozen: Vec<usize>,
    /// Users frozen at their caps by this stage, in order of cap level (with
    /// [`CapHandling::Batched`], at levels `≤ level`).
    pub capped: Vec<usize>,
    /// Variables of the stage LP (unfrozen users and the level).
    pub variables: usize,
    /// Rows of the stage LP (see [`LpForm`]).
    pub rows: usize,
}

/// The outcome of a lexicographic max-min LP sequence.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LpOutcome {
    /// Exact tasks per user `x_i` (equal to progressive filling).
    pub tasks: Vec<Rational>,
    /// Each user's exact level `x_i s_i` when it froze.
    pub levels: Vec<Rational>,
    /// The LPs in order.
    pub stages: Vec<LpStage>,
    /// The largest [`LpStage::float_error`] over the stages (`0` with no stage).
    pub max_float_error: f64,
}

impl LpOutcome {
    /// The allocation `x`.
    pub fn allocation(&self) -> Allocation {
        Allocation::new(self.tasks.clone())
    }

    /// How many stages needed the exact fallback.
    pub fn fallbacks(&self) -> usize {
        self.stages
            .iter()
            .filter(|s| s.recovery == Recovery::Fallback)
            .count()
    }
}

/// DRF or asset fairness as a lexicographic max-min LP sequence with exact recovery (see
/// the [module docs](self)).
///
/// # Example
/// Zero demands, a weight and a cap (the reference case `weighted-cap-zero`):
/// ```
/// use leontief_solver::lp::{CapHandling, LexMaxMin};
/// use leontief_solver::{Instance, Mechanism, User};
/// let inst = Instance::new(vec![10.into(), 10.into(), 6.into()], vec![
///     User::new("a", [1, 0, 1]),
///     User::new("b", [2, 1, 0]).weight(2).cap(2),
///     User::new("c", [0, 3, 1]),
/// ]).unwrap();
/// for lp in [LexMaxMin::drf(), LexMaxMin::drf().with_caps(CapHandling::InLp)] {
///     let shown: Vec<String> = lp.allocate(&inst).unwrap().tasks.iter().map(|x| x.to_string()).collect();
///     assert_eq!(shown, ["27/7", "2", "15/7"]);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct LexMaxMin {
    /// DRF or asset fairness.
    pub objective: LpObjective,
    /// The float LP solver.
    pub backend: LpBackend,
    /// How caps enter the sequence.
    pub caps: CapHandling,
    /// How the level rows are written.
    pub form: LpForm,
    /// Relative distance from tight below which a float row is a candidate (finite, `≥ 0`).
    pub candidate_tolerance: f64,
}

impl Default for LexMaxMin {
    fn default() -> Self {
        LexMaxMin::drf()
    }
}

impl LexMaxMin {
    /// DRF (`drf-lp`) with microlp, batched caps, the surplus form and the default tolerance.
    pub fn drf() -> Self {
        LexMaxMin {
            objective: LpObjective::DominantShare,
            backend: LpBackend::Microlp,
            caps: CapHandling::Batched,
            form: LpForm::Surplus,
            candidate_tolerance: DEFAULT_CANDIDATE_TOLERANCE,
        }
    }

    /// Asset fairness (`asset-lp`) with microlp, batched caps, the surplus form and the
    /// default tolerance.
    pub fn asset() -> Self {
        LexMaxMin {
            objective: LpObjective::AggregateShare,
            ..LexMaxMin::drf()
        }
    }

    crate::setters! {
        /// The same with another backend.
        with_backend(backend: LpBackend) => backend = backend;
        /// The same with another cap handling.
        with_caps(caps: CapHandling) => caps = caps;
        /// The same with another LP form.
        with_form(form: LpForm) => form = form;
        /// The same with another candidate tolerance. `0` keeps only rows the float solution
        /// calls exactly tight, which makes the exact fallback frequent (useful to test it).
        ///
        /// # Example
        /// ```
        /// use leontief_solver::lp::LexMaxMin;
        /// use leontief_solver::{Instance, Rational, User};
        /// let third: Rational = "1/3".parse().unwrap();
        /// let seventh: Rational = "1/7".parse().unwrap();
        /// let inst = Instance::new(vec![third], vec![User::new("A", [seventh])]).unwrap();
        /// let out = LexMaxMin::drf().with_tolerance(0.0).solve(&inst).unwrap();
        /// assert_eq!(out.tasks[0].to_string(), "7/3");
        /// ```
        with_tolerance(candidate_tolerance: f64) => candidate_tolerance = candidate_tolerance;
    }

    /// Solves the LP sequence and recovers the exact allocation.
    ///
    /// # Errors
    /// [`SolverError::Invalid`] for a negative or non-finite candidate tolerance;
    /// [`SolverError::Mechanism`] when the backend does not report an optimum (with its
    /// status).
    pub fn solve(&self, instance: &Instance) -> Result<LpOutcome, SolverError> {
        let tol = self.candidate_tolerance;
        if !tol.is_finite() || tol < 0.0 {
            return Err(SolverError::invalid(
                "candidate_tolerance",
                format!("must be finite and non-negative, found {tol}"),
            ));
        }
        let share: Vec<Rational> = (0..instance.num_users())
            .map(|i| self.objective.task_share(instance, i))
            .collect();
        let mut state = State::new(instance, share);
        let mut stages = Vec::new();
        let mut max_float_error = 0.0_f64;
        while state.unfrozen > 0 {
            let lp = state.float_lp(self.caps, self.form);
            let sol = match run_backend(self.backend, &lp) {
                Ok(sol) => sol,
                Err(status) => {
                    return Err(SolverError::Mechanism {
                        mechanism: self.name().to_string(),
                        reason: format!(
                            "{} at stage {}: {status}",
                            self.backend.name(),
                            stages.len() + 1
                        ),
                    })
                }
            };
            let stage = state.recover(&lp, &sol, self.caps, tol);
            max_float_error = max_float_error.max(stage.float_error);
            stages.push(stage);
        }
        let (tasks, levels) = state.finish();
        Ok(LpOutcome {
            tasks,
            levels,
            stages,
            max_float_error,
        })
    }
}

impl Mechanism for LexMaxMin {
    fn name(&self) -> &str {
        match self.objective {
            LpObjective::DominantShare => "drf-lp",
            LpObjective::AggregateShare => "asset-lp",
        }
    }

    /// `true`: the floats only propose active sets; the output is recovered exactly.
    fn is_exact(&self) -> bool {
        true
    }

    fn allocate(&self, instance: &Instance) -> Result<Allocation, SolverError> {
        Ok(self.solve(instance)?.allocation())
    }
}

/// One stage LP in floating point, in the level variables `y_k = x_k s_k` of the unfrozen
/// users `users[k]` and the level `t`: `maximise t` s.t. `Σ_k coef·y_k ≤ 1` per row,
/// `y_k ≥ t`, `y_k ≤ cap[k]`, written as [`LpForm`] says.
struct FloatLp {
    form: LpForm,
    users: Vec<usize>,
    /// Resource index and its terms `(k, coefficient)`.
    rows: Vec<(usize, Vec<(usize, f64)>)>,
    /// Cap level bound of `y_k` (only with caps in the LP).
    cap: Vec<Option<f64>>,
}

impl FloatLp {
    fn num_rows(&self) -> usize {
        match self.form {
            LpForm::Surplus => self.rows.len() + self.cap.iter().flatten().count(),
            LpForm::Explicit => self.rows.len() + self.users.len(),
        }
    }
}

struct FloatSolution {
    level: f64,
    y: Vec<f64>,
}

fn run_backend(backend: LpBackend, lp: &FloatLp) -> Result<FloatSolution, LpStatus> {
    // A backend panic on a valid instance is a solver fault: report it as a status.
    let outcome = catch_unwind(AssertUnwindSafe(|| match backend {
        LpBackend::Microlp => solve_with(good_lp::microlp, lp),
        #[cfg(feature = "highs")]
        LpBackend::Highs => solve_with(good_lp::highs, lp),
    }));
    let sol = match outcome {
        Ok(result) => result?,
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            return Err(LpStatus::Failed(format!("the backend panicked: {why}")));
        }
    };
    if !sol.level.is_finite() || sol.y.iter().any(|v| !v.is_finite()) {
        return Err(LpStatus::Failed("non-finite value in the solution".into()));
    }
    Ok(sol)
}

fn solve_with<S>(solver: S, lp: &FloatLp) -> Result<FloatSolution, LpStatus>
where
    S: good_lp::Solver,
    S::Model: SolverModel<Error = ResolutionError>,
{
    let mut vars = ProblemVariables::new();
    let t = vars.add(variable().min(0.0));
    // Surplus: z_k = y_k − t ≥ 0; explicit: y_k itself (with its cap as a bound).
    let v: Vec<Variable> = lp
        .cap
        .iter()
        .map(|c| match (lp.form, c) {
            (LpForm::Explicit, Some(c)) => vars.add(variable().min(0.0).max(*c)),
            _ => vars.add(variable().min(0.0)),
        })
        .collect();
    let mut model = vars.maximise(t).using(solver);
    for (_, terms) in &lp.rows {
        let mut e = Expression::with_capacity(terms.len() + 1);
        let mut t_coef = 0.0;
        for &(k, a) in terms {
            e.add_mul(a, v[k]);
            t_coef += a;
        }
        if lp.form == LpForm::Surplus {
            e.add_mul(t_coef, t);
        }
        model.add_constraint(e.leq(1.0));
    }
    for (k, &vk) in v.iter().enumerate() {
        match (lp.form, lp.cap[k]) {
            (LpForm::Explicit, _) => model.add_constraint((t - vk).leq(0.0)),
            (LpForm::Surplus, Some(c)) => model.add_constraint((t + vk).leq(c)),
            (LpForm::Surplus, None) => continue,
        };
    }
    match model.solve() {
        Ok(sol) => match sol.status() {
            SolutionStatus::Optimal => {
                let level = sol.value(t);
                let y = v
                    .iter()
                    .map(|&vk| match lp.form {
                        LpForm::Surplus => level + sol.value(vk),
                        LpForm::Explicit => sol.value(vk),
                    })
                    .collect();
                Ok(FloatSolution { level, y })
            }
            other => Err(LpStatus::Failed(format!("stopped early ({other:?})"))),
        },
        Err(ResolutionError::Infeasible) => Err(LpStatus::Infeasible),
        Err(ResolutionError::Unbounded) => Err(LpStatus::Unbounded),
        Err(e) => Err(LpStatus::Failed(e.to_string())),
    }
}

/// The exact side: frozen users' use and the growth of use per unit of level, per resource.
struct State<'a> {
    instance: &'a Instance,
    share: Vec<Rational>,
    /// Per user: `(j, d_ij / s_i)` for the resources it demands, exact and as `f64`.
    rates: Vec<Vec<(usize, Rational, f64)>>,
    demanders: Vec<Vec<usize>>,
    frozen_use: Vec<ExactSum>,
    growth: Vec<ExactSum>,
    /// Unfrozen demanders per resource: a resource with none is not in the LP.
    growing: Vec<usize>,
    /// A lower bound of the resource's saturation level; exact when `fresh`.
    bound: Vec<Option<Rational>>,
    fresh: Vec<bool>,
    cap_level: Vec<Option<Rational>>,
    /// Capped users by (cap level, index); `cap_cursor` skips those already handled.
    caps_sorted: Vec<usize>,
    cap_cursor: usize,
    tasks: Vec<Option<Rational>>,
    levels: Vec<Rational>,
    unfrozen: usize,
}

impl<'a> State<'a> {
    fn new(instance: &'a Instance, share: Vec<Rational>) -> Self {
        let n = instance.num_users();
        let m = instance.num_resources();
        let mut growth = vec![ExactSum::new(); m];
        let mut growing = vec![0; m];
        let mut demanders = vec![Vec::new(); m];
        let mut rates = Vec::with_capacity(n);
        for (i, u) in instance.users().iter().enumerate() {
            let per_level = share[i].recip().expect("task shares are positive");
            let mut row = Vec::new();
            for (j, d) in u.demand.iter().enumerate() {
                if !d.is_zero() {
                    let rate = d * &per_level;
                    growth[j].add(&rate);
                    growing[j] += 1;
                    demanders[j].push(i);
                    let f = rate.to_f64_lossy();
                    row.push((j, rate, f));
                }
            }
            rates.push(row);
        }
        let cap_level: Vec<Option<Rational>> = instance
            .users()
            .iter()
            .zip(&share)
            .map(|(u, s)| u.cap.as_ref().map(|t| t * s))
            .collect();
        let mut caps_sorted: Vec<usize> = (0..n).filter(|&i| cap_level[i].is_some()).collect();
        caps_sorted.sort_by(|&a, &b| cap_level[a].cmp(&cap_level[b]).then(a.cmp(&b)));
        State {
            instance,
            share,
            rates,
            demanders,
            frozen_use: vec![ExactSum::new(); m],
            growth,
            growing,
            bound: vec![None; m],
            fresh: vec![false; m],
            cap_level,
            caps_sorted,
            cap_cursor: 0,
            tasks: vec![None; n],
            levels: vec![Rational::ZERO; n],
            unfrozen: n,
        }
    }

    fn room(&mut self, j: usize) -> Rational {
        &self.instance.capacity()[j] - &self.frozen_use[j].value()
    }

    /// Resource `j`'s exact saturation level in the current state (`growing[j] > 0`).
    fn level(&mut self, j: usize) -> Rational {
        if !self.fresh[j] || self.bound[j].is_none() {
            let room = self.room(j);
            // Every unfrozen demander adds d_ij / s_i > 0, so the growth is positive.
            let level = room / self.growth[j].value();
            self.bound[j] = Some(level);
            self.fresh[j] = true;
        }
        self.bound[j].clone().expect("just set")
    }

    /// Whether resource `j`'s saturation level certainly exceeds `t` without computing it.
    fn known_above(&self, j: usize, t: &Rational) -> bool {
        self.bound[j].as_ref().is_some_and(|b| b > t)
    }

    /// The next capped user not yet frozen, with its cap level.
    fn next_cap(&mut self) -> Option<(usize, Rational)> {
        while let Some(&i) = self.caps_sorted.get(self.cap_cursor) {
            if self.tasks[i].is_none() {
                return self.cap_level[i].clone().map(|c| (i, c));
            }
            self.cap_cursor += 1;
        }
        None
    }

    /// The stage LP for the current state.
    fn float_lp(&mut self, caps: CapHandling, form: LpForm) -> FloatLp {
        let n = self.instance.num_users();
        let m = self.instance.num_resources();
        let users: Vec<usize> = (0..n).filter(|&i| self.tasks[i].is_none()).collect();
        let mut rows: Vec<(usize, Vec<(usize, f64)>)> = Vec::new();
        let mut row_of = vec![None; m];
        for (j, slot) in row_of.iter_mut().enumerate() {
            if self.growing[j] > 0 {
                // Rows are scaled by the exact remaining room, so every right-hand side is 1.
                let inv_room = self
                    .room(j)
                    .recip()
                    .map_or(f64::INFINITY, |r| r.to_f64_lossy());
                *slot = Some((rows.len(), inv_room));
                rows.push((j, Vec::with_capacity(self.growing[j])));
            }
        }
        for (k, &i) in users.iter().enumerate() {
            for (j, _, f) in &self.rates[i] {
                if let Some((r, inv_room)) = row_of[*j] {
                    rows[r].1.push((k, f * inv_room));
                }
            }
        }
        let cap = users
            .iter()
            .map(|&i| match caps {
                CapHandling::InLp => self.cap_level[i].as_ref().map(Rational::to_f64_lossy),
                CapHandling::Batched => None,
            })
            .collect();
        FloatLp {
            form,
            users,
            rows,
            cap,
        }
    }

    /// Recovers the stage's exact level from the float solution, verifies it, freezes the
    /// users that cannot grow and reports the stage.
    fn recover(
        &mut self,
        lp: &FloatLp,
        sol: &FloatSolution,
        caps: CapHandling,
        tol: f64,
    ) -> LpStage {
        let m = self.instance.num_resources();
        // Float candidates: rows within `tol` of tight, users within `tol` of their caps.
        let mut candidate = vec![false; m];
        for (j, terms) in &lp.rows {
            let activity: f64 = terms.iter().map(|&(k, a)| a * sol.y[k]).sum();
            candidate[*j] = activity >= 1.0 - tol;
        }
        let cap_candidates: Vec<usize> = lp
            .cap
            .iter()
            .zip(&sol.y)
            .zip(&lp.users)
            .filter(|((c, y), _)| c.is_some_and(|c| **y >= c * (1.0 - tol)))
            .map(|(_, &i)| i)
            .collect();

        // Exact minimum over the candidates.
        let mut levels: Vec<Rational> = (0..m)
            .filter(|&j| candidate[j])
            .map(|j| self.level(j))
            .collect();
        levels.extend(
            cap_candidates
                .iter()
                .filter_map(|&i| self.cap_level[i].clone()),
        );
        let mut level = levels.into_iter().min();

        // Exact check of every other row; a miss sends the stage to the fallback.
        let mut fallback = level.is_none();
        if let Some(t) = level.clone() {
            let others: Vec<usize> = (0..m)
                .filter(|&j| self.growing[j] > 0 && !candidate[j] && !self.known_above(j, &t))
                .collect();
            for j in others {
                fallback |= self.level(j) <= t;
            }
            if caps == CapHandling::InLp {
                for &i in &self.caps_sorted[self.cap_cursor..] {
                    if self.tasks[i].is_some() {
                        continue;
                    }
                    match &self.cap_level[i] {
                        Some(c) if *c <= t => {
                            fallback |= *c < t || !cap_candidates.contains(&i);
                        }
                        _ => break,
                    }
                }
            }
        }
        if fallback {
            let cap = match caps {
                CapHandling::InLp => self.next_cap().map(|(_, c)| c),
                CapHandling::Batched => None,
            };
            level = (0..m)
                .filter(|&j| self.growing[j] > 0)
                .collect::<Vec<_>>()
                .into_iter()
                .map(|j| self.level(j))
                .chain(cap)
                .min();
        }
        let t = level.expect("an unfrozen user demands some resource");

        // Every resource with a bound at or below `t` is fresh here: tight means level == t.
        let tight: Vec<usize> = (0..m)
            .filter(|&j| self.growing[j] > 0 && self.fresh[j] && self.bound[j].as_ref() == Some(&t))
            .collect();
        let caps_below = match caps {
            CapHandling::Batched => self.next_cap().is_some_and(|(_, c)| c < t),
            CapHandling::InLp => false,
        };
        let mut stage_tight = Vec::new();
        let mut frozen = Vec::new();
        if !caps_below {
            // A saturation: freeze the demanders of the tight resources at `t`.
            let mut hit = vec![false; self.instance.num_users()];
            for &j in &tight {
                for &i in &self.demanders[j] {
                    if self.tasks[i].is_none() {
                        hit[i] = true;
                    }
                }
            }
            frozen = (0..hit.len()).filter(|&i| hit[i]).collect();
            self.freeze_at_level(&frozen, &t);
            stage_tight = tight;
        }
        // Caps at or below `t`: all of them bind no later than the next saturation.
        let mut capped = Vec::new();
        while let Some((i, c)) = self.next_cap() {
            if c > t {
                break;
            }
            self.freeze_at_level(&[i], &c);
            capped.push(i);
        }

        let exact_f = t.to_f64_lossy();
        let float_error = if exact_f > 0.0 {
            (sol.level - exact_f).abs() / exact_f
        } else {
            // A level below the f64 range: report the absolute error.
            (sol.level - exact_f).abs()
        };
        LpStage {
            level: t,
            float_level: sol.level,
            float_error,
            status: LpStatus::Optimal,
            recovery: if fallback {
                Recovery::Fallback
            } else {
                Recovery::Candidates
            },
            tight: stage_tight,
            frozen,
            capped,
            variables: lp.users.len() + 1,
            rows: lp.num_rows(),
        }
    }

    /// Freezes `group` at level `t`: `x_i = t / s_i`. The group's growth is summed per
    /// resource and multiplied by `t` once. A capped user frozen at its cap level
    /// `c = T_i s_i` gets exactly `x_i = T_i`.
    fn freeze_at_level(&mut self, group: &[usize], t: &Rational) {
        let m = self.instance.num_resources();
        let mut group_rate: Vec<Option<ExactSum>> = vec![None; m];
        for &i in group {
            self.tasks[i] = Some(t / &self.share[i]);
            self.levels[i] = t.clone();
            for (j, rate, _) in &self.rates[i] {
                group_rate[*j].get_or_insert_with(ExactSum::new).add(rate);
                self.growth[*j].sub(rate);
                self.growing[*j] -= 1;
                self.fresh[*j] = false;
            }
        }
        for (j, rate) in group_rate.into_iter().enumerate() {
            if let Some(mut rate) = rate {
                self.frozen_use[j].add(&(t * &rate.value()));
            }
        }
        self.unfrozen -= group.len();
    }

    fn finish(self) -> (Vec<Rational>, Vec<Rational>) {
        let tasks = self
            .tasks
            .into_iter()
            .map(|x| x.expect("the sequence ends when every user is frozen"))
            .collect();
        (tasks, self.levels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drf::progressive_filling;
    use crate::{FreezeRule, User};

    #[test]
    fn the_backends_are_named_as_their_crates() {
        // good_lp's features: microlp (the default) and highs.
        assert_eq!(LpBackend::default().name(), "microlp");
        #[cfg(feature = "highs")]
        assert_eq!(LpBackend::Highs.name(), "highs");
    }

    fn paper() -> Instance {
        Instance::new(
            vec![9.into(), 18.into()],
            vec![User::new("A", [1, 4]), User::new("B", [3, 1])],
        )
        .unwrap()
    }

    /// Runs one stage on a forged float solution, then the rest of the sequence for real.
    fn forged_first_stage(inst: &Instance, y: Vec<f64>) -> (LpStage, Vec<Rational>) {
        let share = (0..inst.num_users())
            .map(|i| inst.task_weighted_share(i))
            .collect();
        let mut state = State::new(inst, share);
        let lp = state.float_lp(CapHandling::Batched, LpForm::Surplus);
        let forged = FloatSolution { level: 0.5, y };
        let first = state.recover(&lp, &forged, CapHandling::Batched, 1e-6);
        while state.unfrozen > 0 {
            let lp = state.float_lp(CapHandling::Batched, LpForm::Surplus);
            let sol = run_backend(LpBackend::Microlp, &lp).unwrap();
            state.recover(&lp, &sol, CapHandling::Batched, 1e-6);
        }
        (first, state.finish().0)
    }

    #[test]
    fn a_wrong_candidate_row_falls_back_to_the_binding_one() {
        // Rows scaled by room: CPU = (1/2) y_A + y_B, memory = y_A + (1/6) y_B. The forged
        // point makes memory look tight (level 6/7) and CPU slack, but CPU binds at 2/3.
        let inst = paper();
        let (stage, tasks) = forged_first_stage(&inst, vec![1.0, 0.0]);
        assert_eq!(stage.recovery, Recovery::Fallback);
        assert_eq!(stage.level.to_string(), "2/3");
        assert_eq!(stage.tight, vec![0]);
        assert_eq!(
            tasks,
            progressive_filling(&inst, FreezeRule::DemandersOnly).tasks
        );
    }

    #[test]
    fn no_candidate_falls_back() {
        let inst = paper();
        let (stage, tasks) = forged_first_stage(&inst, vec![0.0, 0.0]);
        assert_eq!(stage.recovery, Recovery::Fallback);
        assert_eq!(stage.level.to_string(), "2/3");
        assert_eq!(tasks, vec![3.into(), 2.into()]);
    }

    #[test]
    fn extra_candidates_are_harmless() {
        // Both rows look tight: the exact minimum picks CPU, memory is not tight.
        let inst = paper();
        let (stage, tasks) = forged_first_stage(&inst, vec![1.0, 1.0]);
        assert_eq!(stage.recovery, Recovery::Candidates);
        assert_eq!(stage.tight, vec![0]);
        assert_eq!(tasks, vec![3.into(), 2.into()]);
    }
}
