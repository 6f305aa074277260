//! [`User`]: one user's demand per task, its weight, task cap and production fields.

use super::Guarantee;
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
            demand: demand.into_iter().map(Into::into).collect(),
            weight: Rational::ONE,
            resource_weights: None,
            cap: None,
            pool: None,
            guarantee: None,
            limit: None,
            usage: None,
        }
    }

    /// Sets the guarantee (an absolute vector or a fraction of the parent's).
    pub fn guarantee(mut self, g: Guarantee) -> Self {
        self.guarantee = Some(g);
        self
    }

    /// Sets the limit vector.
    pub fn limit<T: Into<Rational>>(mut self, l: impl IntoIterator<Item = T>) -> Self {
        self.limit = Some(l.into_iter().map(Into::into).collect());
        self
    }

    /// Sets the running usage vector.
    pub fn usage<T: Into<Rational>>(mut self, u: impl IntoIterator<Item = T>) -> Self {
        self.usage = Some(u.into_iter().map(Into::into).collect());
        self
    }

    /// Whether it is idle: its demand is all zeros (it wants nothing and gets nothing).
    pub fn is_idle(&self) -> bool {
        self.demand.iter().all(Rational::is_zero)
    }

    /// Puts the user into pool `p` (an index into the instance's pools).
    pub fn pool(mut self, p: usize) -> Self {
        self.pool = Some(p);
        self
    }

    /// Sets the weight.
    pub fn weight(mut self, weight: impl Into<Rational>) -> Self {
        self.weight = weight.into();
        self
    }

    /// Sets the task cap.
    pub fn cap(mut self, cap: impl Into<Rational>) -> Self {
        self.cap = Some(cap.into());
        self
    }

    /// Sets per-resource weights.
    pub fn resource_weights<T: Into<Rational>>(mut self, w: impl IntoIterator<Item = T>) -> Self {
        self.resource_weights = Some(w.into_iter().map(Into::into).collect());
        self
    }

    /// The weight on resource `j`: `w_ij`, or `w_i` when no vector is given.
    pub fn weight_on(&self, j: usize) -> &Rational {
        match &self.resource_weights {
            Some(w) => &w[j],
            None => &self.weight,
        }
    }
}
