//! Allocations: task counts per user, exact or approximate, and what they consume.

use std::collections::HashMap;

use num_bigint::BigInt;

use crate::{ExactSum, Instance, Rational};

/// An allocation: `tasks[i] = x_i`, user `i` receives the bundle `x_i d_i`.
///
/// # Exact and approximate allocations
/// An allocation is *exact* (`tolerance == None`, [`Allocation::new`]) when `tasks` is the
/// mechanism's answer itself. It is *approximate* (`tolerance == Some(t)`,
/// [`Allocation::approximate`]) when `tasks` only approximates the true answer `x*` — e.g.
/// a float solver's answer rounded to rationals — with, for every user `i`,
///
/// `|x_i − x*_i| <= t · max(1, |x*_i|)`
///
/// (relative error `t` for task counts of magnitude at least 1, absolute error `t` below).
/// `t` is read as `|t|`; `t = 0` is an exact answer, and `t >= 1` bounds nothing at all. [`Allocation::error_bound`] turns this into a bound in terms of the
/// computed `x_i`. The property oracles ([`properties`](crate::properties)) count a
/// comparison as a violation only when it holds with a margin larger than this error can
/// explain.
///
/// Equality is structural: the same task counts with different tolerances (or one exact,
/// one approximate) are different allocations, since they claim different things about the
/// true answer. [`Allocation::approximate`] stores a zero tolerance as `None`, so an
/// approximation with `t = 0` equals the exact allocation.
///
/// # Serialized form
/// `{"tasks": [...], "tolerance": t}`, numbers as `"p/q"` strings, `tolerance` only when
/// approximate. Read back as written: a zero tolerance stays (where
/// [`Allocation::approximate`] would drop it), so the value survives its form unchanged.
///
/// ```
/// use leontief_solver::{Allocation, Rational};
/// let x = Allocation::approximate(vec![Rational::new(3, 2).unwrap()], Rational::new(1, 100).unwrap());
/// let v = serde_json::to_value(&x).unwrap();
/// assert_eq!(v.to_string(), r#"{"tasks":["3/2"],"tolerance":"1/100"}"#);
/// assert_eq!(serde_json::from_value::<Allocation>(v).unwrap(), x);
/// let exact = Allocation::new(vec![3.into()]);
/// assert_eq!(serde_json::to_string(&exact).unwrap(), r#"{"tasks":["3"]}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Allocation {
    /// Tasks per user, in the instance's user order.
    pub tasks: Vec<Rational>,
    /// `None` when `tasks` is exact; `Some(t)` when each task count is known only to within
    /// relative error `t`: `|x_i − x*_i| <= t · max(1, |x*_i|)` for the true answer `x*`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<Rational>,
}

impl Allocation {
    /// An allocation of `tasks[i]` tasks to user `i`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Allocation, Instance, User};
    /// let inst = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// let x = Allocation::new(vec![3.into(), 2.into()]);
    /// assert_eq!(x.consumption(&inst), vec![9.into(), 14.into()]);
    /// assert_eq!(x.saturated(&inst), vec![0]);
    /// assert_eq!(x.dominant_share(&inst, 0).to_string(), "2/3");
    /// ```
    pub fn new(tasks: Vec<Rational>) -> Self {
        Allocation {
            tasks,
            tolerance: None,
        }
    }

    /// An approximate allocation: `tasks[i]` is within relative error `tolerance` of the true
    /// answer `x*_i`, `|x_i − x*_i| <= t · max(1, |x*_i|)` with `t = |tolerance|` (see the
    /// [type docs](Allocation)). A zero tolerance gives an exact allocation.
    ///
    /// # Example
    /// A float solver's answer close to the DRF paper's (3, 2), known to within `1e-12`:
    /// ```
    /// use leontief_solver::{Allocation, Rational};
    /// let t = Rational::from_decimal_str("1e-12").unwrap();
    /// let x = Allocation::approximate(
    ///     vec!["2.999999999999".parse().unwrap(), 2.into()], t.clone());
    /// assert_eq!(x.tolerance, Some(t.clone()));
    /// // In terms of the computed count 2: |2 - x*| <= t/(1 - t) * 2.
    /// assert_eq!(x.error_bound(1), Some(Rational::new(2, 999_999_999_999).unwrap()));
    /// assert_eq!(Allocation::approximate(vec![3.into()], 0), Allocation::new(vec![3.into()]));
    /// ```
    pub fn approximate(tasks: Vec<Rational>, tolerance: impl Into<Rational>) -> Self {
        let t = tolerance.into().abs();
        Allocation {
            tasks,
            tolerance: (!t.is_zero()).then_some(t),
        }
    }

    /// A bound on how far user `i`'s computed task count can be from the true one, in terms
    /// of the computed count: `|x_i − x*_i| <= e_i`. `Some(0)` for an exact allocation,
    /// `None` when the tolerance bounds nothing (`|t| >= 1`), otherwise
    /// `e_i = t / (1 − t) · max(1, |x_i|)` with `t = |tolerance|`.
    ///
    /// Why: if `|x*_i| <= 1` the error is at most `t`; otherwise
    /// `|x_i − x*_i| <= t |x*_i| <= t (|x_i| + |x_i − x*_i|)`, so
    /// `|x_i − x*_i| <= t |x_i| / (1 − t)`; both are at most `e_i`.
    ///
    /// # Panics
    /// When `i` is not a user index of the allocation.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Allocation, Rational};
    /// let x = Allocation::approximate(vec!["1/2".parse().unwrap(), 10.into()], Rational::new(1, 3).unwrap());
    /// assert_eq!(x.error_bound(0), Some(Rational::new(1, 2).unwrap())); // (1/3)/(2/3) * 1
    /// assert_eq!(x.error_bound(1), Some(5.into()));
    /// assert_eq!(Allocation::new(vec![1.into()]).error_bound(0), Some(0.into()));
    /// assert_eq!(Allocation::approximate(vec![1.into()], 1).error_bound(0), None);
    /// ```
    pub fn error_bound(&self, i: usize) -> Option<Rational> {
        let x = &self.tasks[i];
        let t = match &self.tolerance {
            None => return Some(Rational::ZERO),
            Some(t) => t.abs(),
        };
        if t.is_zero() {
            return Some(Rational::ZERO);
        }
        if t >= Rational::ONE {
            return None;
        }
        let scale = &t / &(Rational::ONE - &t);
        Some(scale * x.abs().max(Rational::ONE))
    }

    /// User `i`'s bundle `x_i d_i`.
    pub fn bundle(&self, instance: &Instance, i: usize) -> Vec<Rational> {
        instance.users[i]
            .demand
            .iter()
            .map(|d| d * &self.tasks[i])
            .collect()
    }

    /// Total use of each resource, `sum_i x_i d_ij` ([`consumption_of`](Self::consumption_of)
    /// for each).
    pub fn consumption(&self, instance: &Instance) -> Vec<Rational> {
        (0..instance.num_resources())
            .map(|j| self.consumption_of(instance, j))
            .collect()
    }

    /// Total use of resource `j`, `sum_i x_i d_ij`, exactly.
    ///
    /// Terms whose product fits machine words go to an [`ExactSum`]; big terms are grouped by
    /// their unreduced denominator (`x_i`'s times `d_ij`'s), whose numerators add as
    /// integers, and only the groups are added as fractions. Progressive filling gives many
    /// users the same denominator (97 distinct ones among 100,000 users in the 100,000 × 8
    /// benchmark), so this replaces one big gcd per term by one per group.
    pub fn consumption_of(&self, instance: &Instance, j: usize) -> Rational {
        self.consumption_among(instance, 0..self.tasks.len(), j)
    }

    /// What the users `among` consume of resource `j`, `sum_{i ∈ among} x_i d_ij`, exactly
    /// (summed as [`consumption_of`](Self::consumption_of) sums).
    pub(crate) fn consumption_among(
        &self,
        instance: &Instance,
        among: impl IntoIterator<Item = usize>,
        j: usize,
    ) -> Rational {
        let mut small = ExactSum::new();
        let mut groups: HashMap<BigInt, BigInt> = HashMap::new();
        for i in among {
            let (u, t) = (&instance.users[i], &self.tasks[i]);
            let d = &u.demand[j];
            if d.is_zero() || t.is_zero() {
                continue;
            }
            if !t.is_big() && !d.is_big() {
                let p = d * t;
                if !p.is_big() {
                    small.add(&p);
                    continue;
                }
            }
            *groups.entry(t.denom() * d.denom()).or_default() += t.numer() * d.numer();
        }
        let mut groups: Vec<(BigInt, BigInt)> = groups.into_iter().collect();
        // A fixed order keeps the work reproducible (the exact result does not depend on it).
        groups.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut total = small.value();
        for (den, num) in groups {
            total += Rational::from_big_parts(num, den).expect("denominators are positive");
        }
        total
    }

    /// Indices of the resources used to capacity.
    pub fn saturated(&self, instance: &Instance) -> Vec<usize> {
        saturated_resources(&self.consumption(instance), instance.capacity())
    }

    /// Whether the allocation respects capacities and caps and gives no negative tasks.
    pub fn is_feasible(&self, instance: &Instance) -> bool {
        self.tasks.len() == instance.num_users()
            && self.tasks.iter().all(|x| !x.is_negative())
            && self
                .tasks
                .iter()
                .zip(instance.users())
                .all(|(x, u)| u.cap.as_ref().is_none_or(|t| x <= t))
            && self
                .consumption(instance)
                .iter()
                .zip(instance.capacity())
                .all(|(c, r)| c <= r)
    }

    /// User `i`'s dominant share `x_i * mu_i`.
    pub fn dominant_share(&self, instance: &Instance, i: usize) -> Rational {
        &self.tasks[i] * &instance.task_dominant_share(i)
    }

    /// User `i`'s weighted dominant share: `x_i max_j d_ij / (R_j w_ij)` (with a scalar
    /// weight, the dominant share over `w_i`).
    pub fn weighted_share(&self, instance: &Instance, i: usize) -> Rational {
        &self.tasks[i] * &instance.task_weighted_share(i)
    }
}

/// Indices of the resources whose `consumption` reaches their `capacity`.
///
/// # Example
/// ```
/// use leontief_solver::{saturated_resources, Rational};
/// let used: [Rational; 2] = [9.into(), 12.into()];
/// let capacity: [Rational; 2] = [9.into(), 18.into()];
/// assert_eq!(saturated_resources(&used, &capacity), [0]);
/// ```
pub fn saturated_resources(consumption: &[Rational], capacity: &[Rational]) -> Vec<usize> {
    consumption
        .iter()
        .zip(capacity)
        .enumerate()
        .filter(|(_, (c, r))| c >= r)
        .map(|(j, _)| j)
        .collect()
}
