//! Utilitarian welfare on the Leontief domain, exactly: the optimum, the best allocation
//! with sharing incentive and envy-freeness, and a mechanism's ratios to both (the price of
//! fairness, docs/theory.md §5, questions 5 and 6).
//!
//! An allocation gives user `i` `x_i` tasks; it is feasible when `x_i ≥ 0`,
//! `Σ_i x_i d_ij ≤ R_j` for every resource `j` and `x_i ≤ T_i` for every capped user. Two
//! utilities are measured ([`Utility`]):
//!
//! - [`Utility::Tasks`]: `u_i = x_i`, the tasks a user runs;
//! - [`Utility::DominantShare`]: `u_i = μ_i x_i` with `μ_i = max_j d_ij / R_j`, the dominant
//!   share the user reaches (the normalisation of Parkes, Procaccia and Shah, where every
//!   capacity is scaled to 1).
//!
//! The welfare of `x` is `Σ_i u_i`. All values are exact [`Rational`]s; the programs are
//! solved by the exact simplex kernel [`crate::simplex`] and every optimum carries an exact
//! dual certificate, checked before it is returned.
//!
//! **Utilitarian optimum** ([`utilitarian_optimum`]):
//!
//! ```text
//! OPT = max Σ_i a_i x_i   s.t.  Σ_i d_ij x_i ≤ R_j  (every resource j),
//!                               x_i ≤ T_i           (every capped user i),  x ≥ 0,
//! ```
//!
//! with `a_i = 1` (tasks) or `a_i = μ_i` (dominant shares). Its dual: prices `p_j ≥ 0` and cap
//! prices `q_i ≥ 0` with `Σ_j d_ij p_j + q_i ≥ a_i` for every user; `Σ_j R_j p_j + Σ_i T_i q_i`
//! equal to `OPT` certifies it ([`WelfareCertificate`]).
//!
//! **Best fair welfare** ([`best_fair_welfare`]): the same objective over the allocations
//! with sharing incentive and envy-freeness in the weighted forms of docs/theory.md §3.1–3.2:
//!
//! ```text
//! SI:  x_i ≥ s_i = u_i((w_ij / W_j) R_j)_j = min(T_i, min_{j: d_ij > 0} (w_ij / W_j) R_j / d_ij)
//! EF:  x_i ≥ min(T_i, c_ik x_k)   with  c_ik = min_{j: d_ij > 0} (w_ij / w_kj) d_kj / d_ij
//! ```
//!
//! (EF says `u_i` of `k`'s bundle scaled by `w_ij / w_kj` is at most `min(T_i, x_i) = x_i`.)
//! SI is linear. EF is linear for an uncapped user; for a capped one it is the disjunction
//! `x_i = T_i` or `x_i ≥ c_ik x_k`. It is decided exactly by **enumerating which capped
//! users sit at their caps**: for each subset `S` of the capped users, one LP with
//! `x_i = T_i` for `i ∈ S` (their EF rows dropped: they envy nobody) and the linear EF rows
//! for everyone else. The fair set is the union of these polytopes, so the best fair welfare
//! is the largest of their optima. That is `2^k` LPs for `k` capped users; beyond
//! [`MAX_CAPPED_USERS`] capped users the function returns an error instead.
//!
//! Each LP is stated in the shifted variables `z = x − s ≥ 0`, which turns the SI rows into
//! the bounds of the variables. The weighted equal split `z = 0` is feasible, and it is
//! envy-free when no cap intervenes (`c_ik s_k ≤ s_i`), so those programs start from a
//! feasible basis and skip phase 1 of the simplex method.
//!
//! # Example
//! The DRF paper's example: 9 CPUs, 18 GB, A needs ⟨1, 4⟩, B ⟨3, 1⟩. DRF gives A 3 tasks and
//! B 2.
//!
//! *Tasks.* `max x_A + x_B` s.t. `x_A + 3 x_B ≤ 9` (CPU), `4 x_A + x_B ≤ 18` (memory). The
//! vertices are `(0, 0)`, `(4.5, 0)`, `(0, 3)` and the crossing of both rows,
//! `x_A = 9 − 3 x_B`, `36 − 11 x_B = 18`, `x_B = 18/11`, `x_A = 45/11`: welfare `63/11`, the
//! largest (4.5 and 3 are smaller). Duals: `p_1 + 4 p_2 = 1`, `3 p_1 + p_2 = 1` give
//! `p = (3/11, 2/11)`, and `9·3/11 + 18·2/11 = 63/11`. DRF's welfare is 5, the ratio `63/55`.
//!
//! *Dominant shares.* `μ_A = 4/18 = 2/9` (memory), `μ_B = 3/9 = 1/3` (CPU). Objective
//! `2/9 x_A + 1/3 x_B`: at `(9/2, 0)` it is `1`, at `(0, 3)` it is `1`, at `(45/11, 18/11)`
//! it is `10/11 + 6/11 = 16/11`, the optimum. DRF's welfare is `2/3 + 2/3 = 4/3`, the ratio
//! `(16/11) / (4/3) = 12/11`.
//!
//! *Fair.* SI: `x_A ≥ u_A(4.5, 9) = min(4.5, 9/4) = 9/4`, `x_B ≥ min(1.5, 9) = 3/2`. EF:
//! `c_AB = min(3/1, 1/4) = 1/4`, `c_BA = min(1/3, 4/1) = 1/3`: `x_A ≥ x_B/4`, `x_B ≥ x_A/3`,
//! both implied by the optimum `(45/11, 18/11)` (`45/11 ≥ 9/4`, `18/11 ≥ 3/2`,
//! `18/11 ≥ 15/11`), so the best fair welfare equals the optimum here.
//! ```
//! use leontief_solver::welfare::{best_fair_welfare, utilitarian_optimum, welfare_ratio, Utility};
//! use leontief_solver::{Drf, Instance, Mechanism, Rational, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let q = |s: &str| s.parse::<Rational>().unwrap();
//! let opt = utilitarian_optimum(&paper, Utility::Tasks).unwrap();
//! assert_eq!(opt.value, q("63/11"));
//! assert_eq!(opt.allocation.tasks, vec![q("45/11"), q("18/11")]);
//! assert_eq!(opt.certificate.resource_prices, vec![q("3/11"), q("2/11")]);
//! assert_eq!(utilitarian_optimum(&paper, Utility::DominantShare).unwrap().value, q("16/11"));
//! let drf = Drf::extended().allocate(&paper).unwrap();
//! assert_eq!(welfare_ratio(&paper, &drf, Utility::Tasks).unwrap(), q("63/55"));
//! assert_eq!(welfare_ratio(&paper, &drf, Utility::DominantShare).unwrap(), q("12/11"));
//! assert_eq!(best_fair_welfare(&paper, Utility::Tasks).unwrap().value, q("63/11"));
//! ```
//!
//! # Complexity
//! [`utilitarian_optimum`]: one LP with `n` variables and `m + k` rows (`k` capped users),
//! a few pivots per variable in practice. [`best_fair_welfare`]: `2^k` LPs with `n`
//! variables and up to `m + k + n(n − 1)` rows each (two LPs at one cap). Times of both
//! in BENCHMARKS.md (`benches/welfare.rs`).
//!
//! # References
//! - D. C. Parkes, A. D. Procaccia, N. Shah. *Beyond Dominant Resource Fairness: Extensions,
//!   Limitations, and Indivisibilities.* ACM EC 2012 (utilitarian welfare of SI, EF or SP
//!   mechanisms, in dominant shares).
//! - D. Bertsimas, V. F. Farias, N. Trichakis. *The Price of Fairness.* Operations Research
//!   59(1), 2011.
//! - X. Bei, Z. Li, J. Luo. *Fair and Efficient Multi-Resource Allocation for Cloud
//!   Computing.* WINE 2022 (the fair-ratio: welfare against the best SI and EF allocation).
//! - A. Ghodsi, M. Zaharia, B. Hindman, A. Konwinski, S. Shenker, I. Stoica. *Dominant
//!   Resource Fairness: Fair Allocation of Multiple Resource Types.* NSDI 2011.

use crate::properties::allocation::{envy_ratios, equal_split};
use crate::simplex::{LinearProgram, Relation, SimplexStatus};
use crate::{Allocation, Instance, Rational, SolverError};

/// The largest number of capped users [`best_fair_welfare`] enumerates (`2^10 = 1024` LPs).
pub const MAX_CAPPED_USERS: usize = 10;

crate::name_enum! {
    #[unknown("--utility", "utility")]
    /// How a user's allocation is valued. Names `tasks`, `dominant-share` (derived:
    /// [`Display`](std::fmt::Display), [`FromStr`](std::str::FromStr), `&'static str`); an
    /// unknown name is a [`SolverError`] on the `--utility` field listing both.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::welfare::Utility;
    /// assert_eq!("tasks".parse::<Utility>().unwrap(), Utility::Tasks);
    /// assert_eq!(Utility::DominantShare.to_string(), "dominant-share");
    /// assert_eq!(
    ///     "shares".parse::<Utility>().unwrap_err().to_string(),
    ///     "--utility: unknown utility \"shares\" (expected tasks or dominant-share)"
    /// );
    /// ```
    #[derive(Default)]
    #[non_exhaustive]
    pub enum Utility {
        /// `u_i = x_i`: tasks run.
        Tasks,
        /// `u_i = μ_i x_i`, `μ_i = max_j d_ij / R_j`: the dominant share reached (capacities
        /// scaled to 1), the literature's usual normalisation.
        #[default]
        DominantShare,
    }
}

impl Utility {
    /// The utility of one task of user `i`: `1` or `μ_i`.
    pub fn per_task(self, instance: &Instance, i: usize) -> Rational {
        match self {
            Utility::Tasks => Rational::ONE,
            Utility::DominantShare => instance.task_dominant_share(i),
        }
    }

    fn coefficients(self, instance: &Instance) -> Vec<Rational> {
        (0..instance.num_users())
            .map(|i| self.per_task(instance, i))
            .collect()
    }
}

/// An exact dual solution of the utilitarian program: resource prices `p_j ≥ 0` and cap
/// prices `q_i ≥ 0` with `Σ_j d_ij p_j + q_i ≥ a_i` for every user `i`. Its value
/// `Σ_j R_j p_j + Σ_i T_i q_i` bounds every feasible allocation's welfare from above.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WelfareCertificate {
    /// `p_j`, one per resource.
    pub resource_prices: Vec<Rational>,
    /// `q_i`, one per user (`0` for uncapped users).
    pub cap_prices: Vec<Rational>,
}

impl WelfareCertificate {
    /// The dual value `Σ_j R_j p_j + Σ_i T_i q_i`.
    pub fn value(&self, instance: &Instance) -> Rational {
        let caps = instance.users().iter().zip(&self.cap_prices);
        let capped = caps.filter_map(|(u, q)| Some(u.cap.as_ref()? * q));
        let resources = instance.capacity().iter().zip(&self.resource_prices);
        resources.map(|(r, p)| r * p).chain(capped).sum()
    }

    /// Checks exactly that the prices are dual feasible for `utility` and that their value
    /// equals the welfare of `allocation`, which must be feasible — a proof that
    /// `allocation` is optimal.
    ///
    /// # Errors
    /// The first condition that fails, described.
    pub fn check(
        &self,
        instance: &Instance,
        utility: Utility,
        allocation: &Allocation,
    ) -> Result<(), String> {
        let (n, m) = (instance.num_users(), instance.num_resources());
        if self.resource_prices.len() != m || self.cap_prices.len() != n {
            return Err("certificate has the wrong dimensions".into());
        }
        if !allocation.is_feasible(instance) || allocation.tasks.iter().any(Rational::is_negative) {
            return Err("the allocation is not feasible".into());
        }
        if self
            .resource_prices
            .iter()
            .chain(&self.cap_prices)
            .any(Rational::is_negative)
        {
            return Err("a price is negative".into());
        }
        for (i, u) in instance.users().iter().enumerate() {
            if u.cap.is_none() && !self.cap_prices[i].is_zero() {
                return Err(format!("user {i} has no cap but a cap price"));
            }
            let cover: Rational = u
                .demand
                .iter()
                .zip(&self.resource_prices)
                .map(|(d, p)| d * p)
                .sum::<Rational>()
                + &self.cap_prices[i];
            if cover < utility.per_task(instance, i) {
                return Err(format!(
                    "user {i}: prices {cover} below its utility per task"
                ));
            }
        }
        let w = welfare(instance, allocation, utility).map_err(|e| e.to_string())?;
        let d = self.value(instance);
        if w != d {
            return Err(format!("welfare {w} differs from the dual value {d}"));
        }
        Ok(())
    }
}

/// The utilitarian optimum: its value, an optimal allocation and the dual that proves it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WelfareOptimum {
    /// The largest welfare of a feasible allocation.
    pub value: Rational,
    /// An allocation reaching it (a vertex of the feasible polytope).
    pub allocation: Allocation,
    /// The exact dual, checked by [`WelfareCertificate::check`] before it is returned.
    pub certificate: WelfareCertificate,
}

/// The largest welfare `Σ_i u_i` over feasible allocations (module docs), exactly, with an
/// optimal allocation and its certificate.
///
/// # Errors
/// Only internal faults (a certificate that fails its check, the pivot limit), reported as
/// [`SolverError::Mechanism`]; every valid instance has an optimum (the feasible set is a
/// non-empty polytope: every user demands some resource of finite capacity).
///
/// # Example
/// See the [module docs](self).
pub fn utilitarian_optimum(
    instance: &Instance,
    utility: Utility,
) -> Result<WelfareOptimum, SolverError> {
    let n = instance.num_users();
    let objective = LinearProgram::maximize(utility.coefficients(instance));
    let mut lp = capacity_rows(objective, instance, &vec![Rational::ZERO; n]);
    for (i, u) in instance.users().iter().enumerate() {
        if let Some(t) = &u.cap {
            lp = lp.constraint(unit(n, i), Relation::Le, t.clone());
        }
    }
    let sol = lp.solve()?;
    if sol.status != SimplexStatus::Optimal {
        return Err(internal(format!("the welfare LP is {:?}", sol.status)));
    }
    // The rows: one per resource, then one per capped user.
    let (resource_prices, cap_duals) = sol.duals.split_at(instance.num_resources());
    let mut cap_duals = cap_duals.iter();
    let cap_prices = instance.users().iter().map(|u| match u.cap {
        Some(_) => cap_duals.next().expect("one row per cap").clone(),
        None => Rational::ZERO,
    });
    let certificate = WelfareCertificate {
        resource_prices: resource_prices.to_vec(),
        cap_prices: cap_prices.collect(),
    };
    let allocation = Allocation::new(sol.x);
    certificate
        .check(instance, utility, &allocation)
        .map_err(|e| internal(format!("certificate check failed: {e}")))?;
    Ok(WelfareOptimum {
        value: sol.objective.expect("optimal"),
        allocation,
        certificate,
    })
}

/// The welfare `Σ_i u_i` of an allocation (module docs).
///
/// # Errors
/// An allocation with the wrong number of entries (`allocation.tasks`) or an approximate one
/// (`allocation.tolerance`: its welfare is not known exactly).
///
/// # Example
/// ```
/// use leontief_solver::welfare::{welfare, Utility};
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let drf = Allocation::new(vec![3.into(), 2.into()]);
/// assert_eq!(welfare(&paper, &drf, Utility::Tasks).unwrap(), 5.into());
/// // 3 · 2/9 + 2 · 1/3 = 4/3
/// assert_eq!(welfare(&paper, &drf, Utility::DominantShare).unwrap().to_string(), "4/3");
/// ```
pub fn welfare(
    instance: &Instance,
    allocation: &Allocation,
    utility: Utility,
) -> Result<Rational, SolverError> {
    let n = instance.num_users();
    if allocation.tasks.len() != n {
        return Err(SolverError::invalid(
            "allocation.tasks",
            format!(
                "expected {n} entries, one per user, found {}",
                allocation.tasks.len()
            ),
        ));
    }
    if let Some(t) = &allocation.tolerance {
        return Err(SolverError::invalid(
            "allocation.tolerance",
            format!(
                "the allocation is approximate (relative error {t}); welfare needs exact tasks"
            ),
        ));
    }
    Ok(allocation
        .tasks
        .iter()
        .enumerate()
        .map(|(i, x)| x * &utility.per_task(instance, i))
        .sum())
}

/// `OPT / welfare(allocation)`: how much welfare the allocation gives up against the
/// utilitarian optimum (at least 1 for a feasible allocation).
///
/// # Errors
/// Those of [`welfare`] and [`utilitarian_optimum`], and an allocation of welfare 0
/// (`allocation.tasks`: the ratio is undefined).
///
/// # Example
/// See the [module docs](self).
pub fn welfare_ratio(
    instance: &Instance,
    allocation: &Allocation,
    utility: Utility,
) -> Result<Rational, SolverError> {
    let w = welfare(instance, allocation, utility)?;
    if !w.is_positive() {
        return Err(SolverError::invalid(
            "allocation.tasks",
            format!("the allocation's welfare is {w}; the welfare ratio needs a positive welfare"),
        ));
    }
    Ok(utilitarian_optimum(instance, utility)?.value / w)
}

/// The best welfare over allocations with SI and EF.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FairOptimum {
    /// The largest welfare of a feasible SI and EF allocation.
    pub value: Rational,
    /// An allocation reaching it.
    pub allocation: Allocation,
    /// The capped users held at their caps in the LP that reached it (the enumerated case).
    pub at_cap: Vec<usize>,
    /// That LP's exact dual, one entry per row (checked by [`LinearProgram::certify`]). The
    /// LP is stated in the shifted variables `z = x − s` (module docs): rows are the
    /// resources, then per user its cap row (if capped) and its EF rows `z_i − c_ik z_k ≥
    /// c_ik s_k − s_i` (if not at its cap).
    pub duals: Vec<Rational>,
    /// LPs solved (`2^k` for `k` capped users).
    pub programs: usize,
}

/// The largest welfare over feasible allocations with sharing incentive and envy-freeness
/// (weighted forms; module docs), exactly.
///
/// # Errors
/// More than [`MAX_CAPPED_USERS`] capped users (`users`, naming the bound); no SI and EF
/// allocation (possible only with per-resource weights; a [`SolverError::Mechanism`]);
/// internal faults.
///
/// # Example
/// See the [module docs](self).
pub fn best_fair_welfare(
    instance: &Instance,
    utility: Utility,
) -> Result<FairOptimum, SolverError> {
    let users = instance.users();
    let n = users.len();
    let capped: Vec<usize> = (0..n).filter(|&i| users[i].cap.is_some()).collect();
    if capped.len() > MAX_CAPPED_USERS {
        return Err(SolverError::invalid(
            "users",
            format!(
                "{} users have task caps; the best SI and EF allocation enumerates which capped \
                 users sit at their caps (2^k programs) and supports at most {MAX_CAPPED_USERS}",
                capped.len()
            ),
        ));
    }
    let objective = utility.coefficients(instance);
    let si = sharing_bounds(instance);
    let ef = envy_coefficients(instance);
    let base: Rational = objective.iter().zip(&si).map(|(a, s)| a * s).sum();
    let mut best: Option<FairOptimum> = None;
    let programs = 1usize << capped.len();
    for mask in 0..programs {
        let at_cap: Vec<usize> = capped
            .iter()
            .enumerate()
            .filter(|(b, _)| mask >> b & 1 == 1)
            .map(|(_, &i)| i)
            .collect();
        // In z = x − s the SI rows are the bounds z ≥ 0, and the equal split (z = 0) meets
        // every other row whenever it is EF, so most programs start feasible.
        let mut lp = capacity_rows(LinearProgram::maximize(objective.clone()), instance, &si);
        for i in 0..n {
            let held = at_cap.contains(&i);
            if let Some(t) = &users[i].cap {
                let rel = if held { Relation::Eq } else { Relation::Le };
                lp = lp.constraint(unit(n, i), rel, t - &si[i]);
            }
            if held {
                continue; // at its cap, i envies nobody
            }
            for (k, c) in ef[i].iter().enumerate() {
                if k != i && c.is_positive() {
                    // x_i − c_ik x_k ≥ 0, i.e. z_i − c_ik z_k ≥ c_ik s_k − s_i
                    let mut row = unit(n, i);
                    row[k] = -c;
                    lp = lp.constraint(row, Relation::Ge, &(c * &si[k]) - &si[i]);
                }
            }
        }
        let sol = lp.solve()?;
        if sol.status != SimplexStatus::Optimal {
            continue; // this case's polytope is empty
        }
        lp.certify(&sol.x, &sol.duals)
            .map_err(|e| internal(format!("certificate check failed: {e}")))?;
        let x: Vec<Rational> = sol.x.iter().zip(&si).map(|(z, s)| z + s).collect();
        let value = sol.objective.clone().expect("optimal") + &base;
        if best.as_ref().is_none_or(|b| value > b.value) {
            best = Some(FairOptimum {
                value,
                allocation: Allocation::new(x),
                at_cap,
                duals: sol.duals,
                programs,
            });
        }
    }
    best.ok_or_else(|| SolverError::Mechanism {
        mechanism: "best-fair-welfare".into(),
        reason: "no allocation has both sharing incentive and envy-freeness".into(),
    })
}

/// `s_i`: the tasks of user `i`'s weighted equal split, capped.
fn sharing_bounds(instance: &Instance) -> Vec<Rational> {
    equal_split(instance)
        .iter()
        .enumerate()
        .map(|(i, split)| instance.utility(i, split))
        .collect()
}

/// `c_ik = min_{j: d_ij > 0} (w_ij / w_kj) d_kj / d_ij` (0 when `k` lacks a resource `i` needs).
fn envy_coefficients(instance: &Instance) -> Vec<Vec<Rational>> {
    let users = instance.users();
    users
        .iter()
        .map(|ui| {
            users
                .iter()
                .map(|uk| {
                    envy_ratios(ui, uk)
                        .min()
                        .expect("validated: some demand is positive")
                })
                .collect()
        })
        .collect()
}

/// `lp` with one row per resource, `Σ_i d_ij z_i ≤ R_j − Σ_i d_ij s_i`: capacity in the
/// shifted variables `z = x − s`.
fn capacity_rows(mut lp: LinearProgram, instance: &Instance, s: &[Rational]) -> LinearProgram {
    for (j, r) in instance.capacity().iter().enumerate() {
        let row: Vec<Rational> = instance
            .users()
            .iter()
            .map(|u| u.demand[j].clone())
            .collect();
        let used: Rational = row.iter().zip(s).map(|(d, s)| d * s).sum();
        lp = lp.constraint(row, Relation::Le, r - &used);
    }
    lp
}

/// The row `x_i` (or `z_i`): 1 at `i`, 0 elsewhere.
fn unit(n: usize, i: usize) -> Vec<Rational> {
    let mut row = vec![Rational::ZERO; n];
    row[i] = Rational::ONE;
    row
}

fn internal(reason: String) -> SolverError {
    SolverError::Mechanism {
        mechanism: "welfare".into(),
        reason,
    }
}
