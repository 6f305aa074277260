//! An exact linear-programming kernel: the dense tableau simplex method in [`Rational`]s.
//!
//! Solves
//!
//! ```text
//! maximise c·x  subject to  a_r·x ≤ b_r   (Relation::Le)
//!                           a_r·x ≥ b_r   (Relation::Ge)
//!                           a_r·x = b_r   (Relation::Eq)   for every row r,
//!                           x ≥ 0
//! ```
//!
//! exactly, and returns the primal optimum `x`, a dual optimum `y` (one entry per row) and
//! the objective. The dual of the program above is `minimise b·y` subject to `Aᵀy ≥ c`,
//! `y_r ≥ 0` on `≤` rows, `y_r ≤ 0` on `≥` rows, `y_r` free on `=` rows; an optimum is
//! **certified** by `x` primal feasible, `y` dual feasible and `c·x = b·y` (strong duality),
//! which [`LinearProgram::certify`] checks exactly.
//!
//! No Rust crate solves LPs in exact arithmetic; the float backends of [`crate::lp`] find
//! candidates only. This kernel is meant for the small programs of [`crate::welfare`]
//! (`n + m` rows), where exact pivoting costs microseconds.
//!
//! # Algorithm
//! Rows with `b_r < 0` are negated (flipping their relation) so that `b ≥ 0`. Each `≤` row
//! gets a slack column, each `≥` row a surplus column and an artificial one, each `=` row an
//! artificial one; the slacks and artificials form the starting basis. **Phase 1** maximises
//! minus the sum of the artificials; a negative optimum means the program is infeasible.
//! Artificials left in the basis at level zero are pivoted out where their row has a
//! non-zero entry in a non-artificial column (a degenerate pivot); otherwise the row is
//! redundant and the artificial stays basic at zero for good (no pivot can change that
//! row). **Phase 2** maximises `c·x`, artificials never entering. Both phases use
//! **Bland's rule**: the entering column is the lowest-indexed one with a negative reduced
//! cost, the leaving row the one with the smallest ratio, ties broken by the lowest index of
//! the basic variable; with it the simplex method cannot cycle. The dual solution is read
//! off the final tableau: the reduced cost of row `r`'s starting basic column is
//! `(c_B B⁻¹)_r`.
//!
//! # Complexity
//! Each pivot costs `O(R · C)` rational operations on an `R × C` tableau (`R` rows,
//! `C ≤ n + 2R` columns); the number of pivots is finite under Bland's rule but can be
//! exponential in the worst case (Klee–Minty). Work is bounded by
//! [`LinearProgram::solve_with_limit`]'s pivot limit ([`DEFAULT_PIVOT_LIMIT`] by default):
//! past it the solver returns an error rather than looping. Numbers stay small on the
//! programs of this crate; [`Rational`] falls back to big integers when they do not.
//!
//! # Example
//! `max 3x + 2y` s.t. `x + y ≤ 4`, `x + 3y ≤ 6`, `x ≤ 3`: the optimum is the vertex
//! `(3, 1)`, value 11, with duals `(2, 0, 1)` (`2·4 + 1·3 = 11`).
//! ```
//! use leontief_solver::simplex::{LinearProgram, Relation, SimplexStatus};
//! use leontief_solver::Rational;
//! let r = |v: i64| Rational::from(v);
//! let lp = LinearProgram::maximize(vec![r(3), r(2)])
//!     .constraint(vec![r(1), r(1)], Relation::Le, r(4))
//!     .constraint(vec![r(1), r(3)], Relation::Le, r(6))
//!     .constraint(vec![r(1), r(0)], Relation::Le, r(3));
//! let sol = lp.solve().unwrap();
//! assert_eq!(sol.status, SimplexStatus::Optimal);
//! assert_eq!(sol.x, vec![r(3), r(1)]);
//! assert_eq!(sol.duals, vec![r(2), r(0), r(1)]);
//! assert_eq!(sol.objective, Some(r(11)));
//! assert!(lp.certify(&sol.x, &sol.duals).is_ok());
//! ```
//!
//! # References
//! - G. B. Dantzig. *Linear Programming and Extensions.* Princeton University Press, 1963
//!   (the simplex method, the two-phase method).
//! - R. G. Bland. *New Finite Pivoting Rules for the Simplex Method.* Mathematics of
//!   Operations Research 2(2):103–107, 1977 (the anti-cycling rule).
//! - E. M. L. Beale. *Cycling in the Dual Simplex Algorithm.* Naval Research Logistics
//!   Quarterly 2(4):269–275, 1955 (the classic cycling example, in the tests).
//! - V. Chvátal. *Linear Programming.* W. H. Freeman, 1983 (tableau form, dual from the
//!   final tableau).

use crate::{Rational, SolverError};

/// The default limit on simplex pivots (both phases together).
pub const DEFAULT_PIVOT_LIMIT: usize = 100_000;

/// The relation of one constraint row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `a·x ≤ b`.
    Le,
    /// `a·x ≥ b`.
    Ge,
    /// `a·x = b`.
    Eq,
}

/// The outcome of a linear program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SimplexStatus {
    /// An optimum was found; `x`, `duals` and `objective` are set.
    Optimal,
    /// No `x ≥ 0` satisfies the constraints.
    Infeasible,
    /// The objective is unbounded above on the feasible set.
    Unbounded,
}

/// A solved linear program.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SimplexSolution {
    /// The outcome.
    pub status: SimplexStatus,
    /// The primal optimum (one entry per variable); empty unless optimal.
    pub x: Vec<Rational>,
    /// A dual optimum (one entry per row, in the sign convention of the module docs); empty
    /// unless optimal.
    pub duals: Vec<Rational>,
    /// `c·x` at the optimum; `None` unless optimal.
    pub objective: Option<Rational>,
    /// Pivots performed, both phases.
    pub pivots: usize,
}

/// A linear program `max c·x` over `x ≥ 0` with `≤`, `≥` and `=` rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinearProgram {
    objective: Vec<Rational>,
    rows: Vec<(Vec<Rational>, Relation, Rational)>,
}

impl LinearProgram {
    /// A program maximising `objective · x` with no rows yet.
    pub fn maximize(objective: Vec<Rational>) -> Self {
        LinearProgram {
            objective,
            rows: Vec::new(),
        }
    }

    /// Adds the row `coefficients · x (relation) rhs` (builder form).
    pub fn constraint(
        mut self,
        coefficients: Vec<Rational>,
        relation: Relation,
        rhs: Rational,
    ) -> Self {
        self.rows.push((coefficients, relation, rhs));
        self
    }

    /// Solves with [`DEFAULT_PIVOT_LIMIT`].
    ///
    /// # Errors
    /// See [`LinearProgram::solve_with_limit`].
    pub fn solve(&self) -> Result<SimplexSolution, SolverError> {
        self.solve_with_limit(DEFAULT_PIVOT_LIMIT)
    }

    /// Solves, performing at most `max_pivots` pivots.
    ///
    /// # Errors
    /// A row whose length differs from the objective's (named `rows[r]`), or the pivot limit
    /// reached (a [`SolverError::Mechanism`] naming the limit).
    pub fn solve_with_limit(&self, max_pivots: usize) -> Result<SimplexSolution, SolverError> {
        let n = self.objective.len();
        for (r, (a, _, _)) in self.rows.iter().enumerate() {
            if a.len() != n {
                return Err(SolverError::invalid(
                    format!("rows[{r}]"),
                    format!(
                        "expected {n} coefficients, one per variable, found {}",
                        a.len()
                    ),
                ));
            }
        }
        Tableau::build(self).run(&self.objective, max_pivots)
    }

    /// Checks exactly that `x` is primal feasible, `duals` dual feasible and that their
    /// objectives are equal — together, a proof that both are optimal.
    ///
    /// # Errors
    /// The first condition that fails, described.
    pub fn certify(&self, x: &[Rational], duals: &[Rational]) -> Result<(), String> {
        let n = self.objective.len();
        if x.len() != n || duals.len() != self.rows.len() {
            return Err(format!(
                "expected {n} primal and {} dual values, found {} and {}",
                self.rows.len(),
                x.len(),
                duals.len()
            ));
        }
        if let Some(k) = x.iter().position(Rational::is_negative) {
            return Err(format!("x[{k}] = {} is negative", x[k]));
        }
        for (r, ((a, rel, b), y)) in self.rows.iter().zip(duals).enumerate() {
            let lhs: Rational = a.iter().zip(x).map(|(a, x)| a * x).sum();
            // The row's primal condition, and the sign its dual must have.
            let (primal_ok, sign_ok) = match rel {
                Relation::Le => (lhs <= *b, !y.is_negative()),
                Relation::Ge => (lhs >= *b, !y.is_positive()),
                Relation::Eq => (lhs == *b, true),
            };
            if !primal_ok {
                return Err(format!("row {r}: a·x = {lhs} violates {rel:?} {b}"));
            }
            if !sign_ok {
                return Err(format!("row {r}: dual {y} has the wrong sign for {rel:?}"));
            }
        }
        for (k, c) in self.objective.iter().enumerate() {
            let col: Rational = self
                .rows
                .iter()
                .zip(duals)
                .map(|((a, _, _), y)| &a[k] * y)
                .sum();
            if col < *c {
                return Err(format!("column {k}: (Aᵀy)_{k} = {col} < c_{k} = {c}"));
            }
        }
        let primal: Rational = self.objective.iter().zip(x).map(|(c, x)| c * x).sum();
        let dual: Rational = self
            .rows
            .iter()
            .zip(duals)
            .map(|((_, _, b), y)| b * y)
            .sum();
        if primal != dual {
            return Err(format!("c·x = {primal} differs from b·y = {dual}"));
        }
        Ok(())
    }
}

/// The dense tableau: `rows[r]` holds the row's coefficients over every column followed by
/// its right-hand side.
struct Tableau {
    rows: Vec<Vec<Rational>>,
    /// The basic column of each row.
    basis: Vec<usize>,
    /// Number of structural columns (`x`).
    n: usize,
    /// First artificial column; columns `artificial..cols` are artificial.
    artificial: usize,
    cols: usize,
    /// Row `r`'s starting basic column (slack or artificial), for the duals.
    start: Vec<usize>,
    /// Whether row `r` was negated to make its right-hand side non-negative.
    negated: Vec<bool>,
    pivots: usize,
}

impl Tableau {
    fn build(lp: &LinearProgram) -> Tableau {
        let n = lp.objective.len();
        let m = lp.rows.len();
        // Normalise to b ≥ 0: a row with b < 0 is negated, flipping its relation.
        let normalised = |rel: Relation, b: &Rational| match (rel, b.is_negative()) {
            (Relation::Le, true) => Relation::Ge,
            (Relation::Ge, true) => Relation::Le,
            (rel, _) => rel,
        };
        let slacks = lp
            .rows
            .iter()
            .filter(|(_, rel, _)| *rel != Relation::Eq)
            .count();
        let artificials = lp
            .rows
            .iter()
            .filter(|(_, rel, b)| normalised(*rel, b) != Relation::Le)
            .count();
        let artificial = n + slacks;
        let cols = artificial + artificials;
        let negated: Vec<bool> = lp.rows.iter().map(|(_, _, b)| b.is_negative()).collect();
        let mut rows = Vec::with_capacity(m);
        let mut basis = Vec::with_capacity(m);
        let (mut s, mut t) = (n, artificial);
        for (a, rel, b) in &lp.rows {
            let mut row: Vec<Rational> = if b.is_negative() {
                a.iter().map(|v| -v).collect()
            } else {
                a.clone()
            };
            row.resize(cols + 1, Rational::ZERO);
            row[cols] = b.abs();
            match normalised(*rel, b) {
                Relation::Le => {
                    row[s] = Rational::ONE;
                    basis.push(s);
                    s += 1;
                }
                Relation::Ge => {
                    row[s] = -Rational::ONE;
                    s += 1;
                    row[t] = Rational::ONE;
                    basis.push(t);
                    t += 1;
                }
                Relation::Eq => {
                    row[t] = Rational::ONE;
                    basis.push(t);
                    t += 1;
                }
            }
            rows.push(row);
        }
        Tableau {
            rows,
            start: basis.clone(),
            basis,
            n,
            artificial,
            cols,
            negated,
            pivots: 0,
        }
    }

    /// The reduced-cost row `z_j − c_j` (and the objective value last) for costs `cost`
    /// (indexed by column) and the current basis.
    fn reduced_costs(&self, cost: &[Rational]) -> Vec<Rational> {
        let mut z: Vec<Rational> = cost.iter().map(|c| -c).chain([Rational::ZERO]).collect();
        for (row, &b) in self.rows.iter().zip(&self.basis) {
            let cb = &cost[b];
            if cb.is_zero() {
                continue;
            }
            for (zj, a) in z.iter_mut().zip(row) {
                if !a.is_zero() {
                    *zj += cb * a;
                }
            }
        }
        z
    }

    fn pivot(&mut self, z: &mut [Rational], r: usize, q: usize) {
        let p = self.rows[r][q].clone();
        if p != Rational::ONE {
            for v in self.rows[r].iter_mut() {
                if !v.is_zero() {
                    *v = &*v / &p;
                }
            }
        }
        let pivot_row = std::mem::take(&mut self.rows[r]);
        let nz: Vec<usize> = (0..pivot_row.len())
            .filter(|&j| !pivot_row[j].is_zero())
            .collect();
        for (k, row) in self.rows.iter_mut().enumerate() {
            if k == r || row[q].is_zero() {
                continue;
            }
            let f = row[q].clone();
            for &j in &nz {
                row[j] -= &f * &pivot_row[j];
            }
        }
        if !z[q].is_zero() {
            let f = z[q].clone();
            for &j in &nz {
                z[j] -= &f * &pivot_row[j];
            }
        }
        self.rows[r] = pivot_row;
        self.basis[r] = q;
        self.pivots += 1;
    }

    /// Runs the simplex method with Bland's rule on columns `0..allowed` until optimal.
    /// Returns `Ok(false)` when unbounded.
    fn optimize(
        &mut self,
        z: &mut [Rational],
        allowed: usize,
        limit: usize,
    ) -> Result<bool, SolverError> {
        loop {
            let Some(q) = (0..allowed).find(|&j| z[j].is_negative()) else {
                return Ok(true);
            };
            let mut best: Option<(usize, Rational)> = None;
            for (r, row) in self.rows.iter().enumerate() {
                if !row[q].is_positive() {
                    continue;
                }
                let ratio = &row[self.cols] / &row[q];
                let better = match &best {
                    None => true,
                    Some((br, bv)) => {
                        ratio < *bv || (ratio == *bv && self.basis[r] < self.basis[*br])
                    }
                };
                if better {
                    best = Some((r, ratio));
                }
            }
            let Some((r, _)) = best else {
                return Ok(false);
            };
            if self.pivots >= limit {
                return Err(SolverError::Mechanism {
                    mechanism: "simplex".into(),
                    reason: format!("pivot limit of {limit} reached before an optimum"),
                });
            }
            self.pivot(z, r, q);
        }
    }

    fn run(mut self, objective: &[Rational], limit: usize) -> Result<SimplexSolution, SolverError> {
        let fail = |status, pivots| SimplexSolution {
            status,
            x: Vec::new(),
            duals: Vec::new(),
            objective: None,
            pivots,
        };
        // Phase 1: maximise −Σ artificials.
        if self.artificial < self.cols {
            let mut cost = vec![Rational::ZERO; self.artificial];
            cost.resize(self.cols, -Rational::ONE);
            let mut z = self.reduced_costs(&cost);
            let bounded = self.optimize(&mut z, self.cols, limit)?;
            debug_assert!(bounded, "phase 1 is bounded by 0");
            if !z[self.cols].is_zero() {
                return Ok(fail(SimplexStatus::Infeasible, self.pivots));
            }
            // Drive zero-level artificials out of the basis where possible.
            for r in 0..self.rows.len() {
                if self.basis[r] < self.artificial {
                    continue;
                }
                if let Some(q) = (0..self.artificial).find(|&j| !self.rows[r][j].is_zero()) {
                    self.pivot(&mut z, r, q);
                }
            }
        }
        // Phase 2.
        let mut cost = objective.to_vec();
        cost.resize(self.cols, Rational::ZERO);
        let mut z = self.reduced_costs(&cost);
        if !self.optimize(&mut z, self.artificial, limit)? {
            return Ok(fail(SimplexStatus::Unbounded, self.pivots));
        }
        let mut x = vec![Rational::ZERO; self.n];
        for (row, &b) in self.rows.iter().zip(&self.basis) {
            if b < self.n {
                x[b] = row[self.cols].clone();
            }
        }
        let duals = self
            .start
            .iter()
            .zip(&self.negated)
            .map(|(&s, &neg)| if neg { -&z[s] } else { z[s].clone() })
            .collect();
        let value = objective.iter().zip(&x).map(|(c, x)| c * x).sum();
        Ok(SimplexSolution {
            status: SimplexStatus::Optimal,
            x,
            duals,
            objective: Some(value),
            pivots: self.pivots,
        })
    }
}
