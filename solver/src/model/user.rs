//! [`User`]: one user's demand per task, its weight, task cap and production fields.

use super::Guarantee;
use crate::setters::rationals;
use crate::Rational;

/// One user (tenant, framework, queue): a Leontief demand per task and how much it counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Unique name.
    pub name: String,
    /// Demand of one task, one entry per resource.
    pub demand: Vec<Rational>,
    /// Weight `w_i > 0`.
    pub weight: Rational,
    /// Per-resource weights `w_ij > 0` (DRF paper §4.3); replaces `weight` when present.
    pub resource_weights: Option<Vec<Rational>>,
    /// Task cap `T_i > 0` (the most tasks the user can run); `None` for unbounded demand.
    pub cap: Option<Rational>,
    /// The pool it belongs to (index into [`Instance::pools`](crate::Instance::pools)); `None`: directly under the
    /// root.
    pub pool: Option<usize>,
    /// Its guarantee, as written (see [`Guarantee`]; resolved on the tree view).
    pub guarantee: Option<Guarantee>,
    /// A cap on what it holds, one entry per resource.
    pub limit: Option<Vec<Rational>>,
    /// What it holds now, one entry per resource (`None`: nothing).
    pub usage: Option<Vec<Rational>>,
}

impl User {
    /// A user of weight 1 with no cap.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Rational, User};
    /// let a = User::new("A", [1, 4]).weight(2).cap(10);
    /// assert_eq!(a.weight, Rational::from(2));
    /// ```
    pub fn new<T: Into<Rational>>(
        name: impl Into<String>,
        demand: impl IntoIterator<Item = T>,
    ) -> Self {
        User {
            name: name.into(),
            demand: rationals(demand),
            weight: Rational::ONE,
            resource_weights: None,
            cap: None,
            pool: None,
            guarantee: None,
            limit: None,
            usage: None,
        }
    }

    crate::setters! {
        /// Sets the guarantee (an absolute vector or a fraction of the parent's).
        guarantee(g: Guarantee) => guarantee = Some(g);
        /// Sets the limit vector.
        limit(l: impl IntoIterator<Item = impl Into<Rational>>) => limit = Some(rationals(l));
        /// Sets the running usage vector.
        usage(u: impl IntoIterator<Item = impl Into<Rational>>) => usage = Some(rationals(u));
        /// Puts the user into pool `p` (an index into the instance's pools).
        pool(p: usize) => pool = Some(p);
        /// Sets the weight.
        weight(weight: impl Into<Rational>) => weight = weight.into();
        /// Sets the task cap.
        cap(cap: impl Into<Rational>) => cap = Some(cap.into());
        /// Sets per-resource weights.
        resource_weights(w: impl IntoIterator<Item = impl Into<Rational>>) =>
            resource_weights = Some(rationals(w));
    }

    /// Whether it is idle: its demand is all zeros (it wants nothing and gets nothing).
    pub fn is_idle(&self) -> bool {
        self.demand.iter().all(Rational::is_zero)
    }

    /// The weight on resource `j`: `w_ij`, or `w_i` when no vector is given.
    pub fn weight_on(&self, j: usize) -> &Rational {
        match &self.resource_weights {
            Some(w) => &w[j],
            None => &self.weight,
        }
    }
}
