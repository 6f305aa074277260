//! Properties of one allocation: SI, EF, PO, SRF, BF, BBF (`docs/theory.md` §3), decided exactly.
//!
//! Every oracle first checks feasibility (capacities, caps, no negative tasks): the
//! definitions presuppose a feasible answer, so an infeasible one fails with
//! [`Witness::Infeasible`]. Weighted forms; per-resource weights enter resource by resource
//! as described in the [parent module](super).
//!
//! # Example
//! Asset fairness fails the sharing incentive on the DRF paper's Theorem 1 instance: user 2
//! gets 12 tasks where half of each resource would run 15.
//! ```
//! use leontief_solver::properties::{allocation::sharing_incentive, Witness};
//! use leontief_solver::{AssetFairness, Instance, Mechanism, Rational, User};
//! let inst = Instance::new(vec![30.into(), 30.into()],
//!     vec![User::new("1", [1, 3]), User::new("2", [1, 1])]).unwrap();
//! let x = AssetFairness.allocate(&inst).unwrap();
//! let v = sharing_incentive(&inst, &x).unwrap();
//! let Some(Witness::Si(w)) = v.witness else { panic!("expected an SI witness") };
//! assert_eq!((w.user, w.tasks, w.split_utility), (1, 12.into(), 15.into()));
//! ```
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011 (SI, EF, PO, SRF, BF).
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness.* EC 2012 (PO with
//!   zero demands: every user below its cap must demand a saturated resource).
//! - D. Dolev et al. *No Justified Complaints: On Fair Sharing of Multiple Resources.*
//!   ITCS 2012 (BBF).

use serde_json::Value;

use super::tolerance::{consumption_bounds, Bounded, Judge, Test};
use super::{
    by_resource, by_user, check_tasks, exact, object, resource_name, user_name, utility_at_truth,
    Property, Verdict, Witness,
};
use crate::{Allocation, ExactSum, Instance, Rational, SolverError, User};

/// The allocation is infeasible: what breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfeasibleWitness {
    /// The allocation's tasks.
    pub tasks: Vec<Rational>,
    /// Users with a negative number of tasks.
    pub negative: Vec<usize>,
    /// Users above their task cap.
    pub over_cap: Vec<usize>,
    /// Resources used beyond capacity, with their total use.
    pub over_capacity: Vec<(usize, Rational)>,
}

impl InfeasibleWitness {
    /// `{"tasks", "negative_tasks", "over_cap", "over_capacity": {resource: use}}`.
    pub fn to_json(&self, instance: &Instance) -> Value {
        let names = |v: &[usize]| -> Value {
            v.iter()
                .map(|&i| Value::String(user_name(instance, i)))
                .collect()
        };
        object(vec![
            ("tasks", by_user(instance, &self.tasks)),
            ("negative_tasks", names(&self.negative)),
            ("over_cap", names(&self.over_cap)),
            (
                "over_capacity",
                Value::Object(
                    self.over_capacity
                        .iter()
                        .map(|(j, used)| (resource_name(instance, *j), exact(used)))
                        .collect(),
                ),
            ),
        ])
    }
}

/// A user below its weighted equal split (SI).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiWitness {
    /// The user.
    pub user: usize,
    /// Its tasks `x_i`.
    pub tasks: Rational,
    /// The bundle of its weighted equal split, `(w_ij / W_j) R_j` per resource.
    pub split: Vec<Rational>,
    /// What that bundle gives it, `u_i(split) > min(T_i, x_i)`.
    pub split_utility: Rational,
}

impl SiWitness {
    /// `{"user", "tasks", "equal_split": {resource: amount}, "equal_split_utility"}`.
    pub fn to_json(&self, instance: &Instance) -> Value {
        object(vec![
            ("user", Value::String(user_name(instance, self.user))),
            ("tasks", exact(&self.tasks)),
            ("equal_split", by_resource(instance, &self.split)),
            ("equal_split_utility", exact(&self.split_utility)),
        ])
    }
}

/// A user that prefers another's bundle scaled to its own weight (EF).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EfWitness {
    /// The envious user `i`.
    pub envious: usize,
    /// The envied user `k`.
    pub envied: usize,
    /// `x_i`.
    pub tasks: Rational,
    /// `x_k`.
    pub envied_tasks: Rational,
    /// `(w_ij / w_kj) x_k d_kj` per resource (`(w_i / w_k) x_k d_k` with scalar weights).
    pub scaled_bundle: Vec<Rational>,
    /// `u_i(scaled_bundle) > min(T_i, x_i)`.
    pub scaled_utility: Rational,
}

impl EfWitness {
    /// `{"envious", "envied", "tasks", "envied_tasks", "scaled_bundle", "utility_of_scaled_bundle"}`.
    pub fn to_json(&self, instance: &Instance) -> Value {
        object(vec![
            ("envious", Value::String(user_name(instance, self.envious))),
            ("envied", Value::String(user_name(instance, self.envied))),
            ("tasks", exact(&self.tasks)),
            ("envied_tasks", exact(&self.envied_tasks)),
            ("scaled_bundle", by_resource(instance, &self.scaled_bundle)),
            ("utility_of_scaled_bundle", exact(&self.scaled_utility)),
        ])
    }
}

/// A Pareto improvement (PO): `improved` is feasible, equal to the allocation except that
/// `user` runs `gain > 0` more tasks (still within its cap). For an approximate allocation
/// `gain` is the growth guaranteed under every true allocation its error admits (so
/// `improved` is feasible both for the computed and for the true tasks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoWitness {
    /// The user that strictly gains.
    pub user: usize,
    /// How many more tasks it runs.
    pub gain: Rational,
    /// The improving allocation's tasks.
    pub improved: Vec<Rational>,
}

impl PoWitness {
    /// `{"user", "gain", "improved_tasks": {user: tasks}}`.
    pub fn to_json(&self, instance: &Instance) -> Value {
        object(vec![
            ("user", Value::String(user_name(instance, self.user))),
            ("gain", exact(&self.gain)),
            ("improved_tasks", by_user(instance, &self.improved)),
        ])
    }
}

/// How an allocation of one resource fails to be weighted max-min (with caps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaxMinViolation {
    /// `below_cap` is below its cap yet has a smaller weighted amount `x_i d_ij / w_ij` than
    /// `other`.
    Unequal {
        /// The user below its cap with the smaller amount.
        below_cap: usize,
        /// Its weighted amount.
        below_cap_amount: Rational,
        /// The user with the larger amount.
        other: usize,
        /// Its weighted amount.
        other_amount: Rational,
    },
    /// The resource is not used up although `user` is below its cap.
    Unsaturated {
        /// A user below its cap.
        user: usize,
        /// Total use of the resource.
        used: Rational,
        /// Its capacity.
        capacity: Rational,
    },
}

/// The allocation of `resource` is not weighted max-min (SRF, BF).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaxMinWitness {
    /// The resource (the only one for SRF, the common bottleneck for BF).
    pub resource: usize,
    /// What is wrong.
    pub violation: MaxMinViolation,
}

impl MaxMinWitness {
    /// `{"resource", "violation": "unequal" | "unsaturated", ...}`.
    pub fn to_json(&self, instance: &Instance) -> Value {
        let resource = (
            "resource",
            Value::String(resource_name(instance, self.resource)),
        );
        match &self.violation {
            MaxMinViolation::Unequal {
                below_cap,
                below_cap_amount,
                other,
                other_amount,
            } => object(vec![
                resource,
                ("violation", Value::String("unequal".into())),
                ("below_cap", Value::String(user_name(instance, *below_cap))),
                ("below_cap_weighted_amount", exact(below_cap_amount)),
                ("other", Value::String(user_name(instance, *other))),
                ("other_weighted_amount", exact(other_amount)),
            ]),
            MaxMinViolation::Unsaturated {
                user,
                used,
                capacity,
            } => object(vec![
                resource,
                ("violation", Value::String("unsaturated".into())),
                ("user_below_cap", Value::String(user_name(instance, *user))),
                ("used", exact(used)),
                ("capacity", exact(capacity)),
            ]),
        }
    }
}

/// A user's share of one saturated resource it needs, against its entitlement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaturatedShare {
    /// The resource.
    pub resource: usize,
    /// `x_i d_ij / R_j`.
    pub share: Rational,
    /// `w_ij / W_j` (`w_i / W` with scalar weights).
    pub entitlement: Rational,
}

/// A user below its cap that gets less than its entitlement of every saturated resource it
/// needs (BBF). `shares` is empty when no resource it needs is saturated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BbfWitness {
    /// The user.
    pub user: usize,
    /// Its tasks.
    pub tasks: Rational,
    /// Its share of each saturated resource it needs, each below the entitlement (for an
    /// approximate allocation: of each resource it needs that is not unsaturated beyond the
    /// error, each below the entitlement beyond the error).
    pub shares: Vec<SaturatedShare>,
}

impl BbfWitness {
    /// `{"user", "tasks", "saturated_shares": [{"resource", "share", "entitlement"}]}`.
    pub fn to_json(&self, instance: &Instance) -> Value {
        object(vec![
            ("user", Value::String(user_name(instance, self.user))),
            ("tasks", exact(&self.tasks)),
            (
                "saturated_shares",
                self.shares
                    .iter()
                    .map(|s| {
                        object(vec![
                            (
                                "resource",
                                Value::String(resource_name(instance, s.resource)),
                            ),
                            ("share", exact(&s.share)),
                            ("entitlement", exact(&s.entitlement)),
                        ])
                    })
                    .collect(),
            ),
        ])
    }
}

/// Decides an allocation property ([`Property::is_allocation_property`]) on `x`.
///
/// # Errors
/// When `x` does not have one entry per user, or `property` is a scenario property.
///
/// # Example
/// ```
/// use leontief_solver::properties::{allocation::check_allocation, Property};
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let drf = Allocation::new(vec![3.into(), 2.into()]);
/// for p in [Property::Si, Property::Ef, Property::Po] {
///     assert!(check_allocation(&paper, &drf, p).unwrap().holds, "{p}");
/// }
/// // A holds 1/3 of the saturated CPU, below its half, and memory is not saturated.
/// assert!(!check_allocation(&paper, &drf, Property::Bbf).unwrap().holds);
/// ```
pub fn check_allocation(
    instance: &Instance,
    x: &Allocation,
    property: Property,
) -> Result<Verdict, SolverError> {
    match property {
        Property::Si => sharing_incentive(instance, x),
        Property::Ef => envy_freeness(instance, x),
        Property::Po => pareto_efficiency(instance, x),
        Property::Srf => single_resource_fairness(instance, x),
        Property::Bf => bottleneck_fairness(instance, x),
        Property::Bbf => bottleneck_based_fairness(instance, x),
        Property::Sg => share_guarantee(instance, x),
        other => Err(SolverError::invalid(
            "property",
            format!("{other} is not decided on one allocation; it needs scenarios"),
        )),
    }
}

/// Feasibility: `None` when `x` respects capacities and caps and has no negative tasks.
/// For an approximate `x` ([`Allocation::tolerance`]) only what is infeasible beyond its
/// error counts: a true answer within the error could be feasible otherwise.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::feasibility;
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert!(feasibility(&paper, &Allocation::new(vec![3.into(), 2.into()])).unwrap().is_none());
/// let w = feasibility(&paper, &Allocation::new(vec![3.into(), 3.into()])).unwrap().unwrap();
/// assert_eq!(w.over_capacity, vec![(0, 12.into())]);
/// ```
pub fn feasibility(
    instance: &Instance,
    x: &Allocation,
) -> Result<Option<InfeasibleWitness>, SolverError> {
    Ok(feasible_use(instance, x, &mut Judge::on(x))?.err())
}

/// The consumption of a feasible allocation (with its error bounds), or why it is
/// infeasible (beyond the error, for an approximate one).
fn feasible_use(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
) -> Result<Result<Vec<Bounded>, InfeasibleWitness>, SolverError> {
    check_tasks(instance, x, "allocation")?;
    let tasks: Vec<Bounded> = (0..x.tasks.len()).map(|i| Bounded::tasks(x, i)).collect();
    let negative: Vec<usize> = (0..x.tasks.len())
        .filter(|&i| judge.settle(Test::less_than(&tasks[i], &Rational::ZERO)))
        .collect();
    let over_cap: Vec<usize> = instance
        .users()
        .iter()
        .zip(&tasks)
        .enumerate()
        .filter(|(_, (u, t))| {
            u.cap
                .as_ref()
                .is_some_and(|cap| judge.settle(Test::more_than(t, cap)))
        })
        .map(|(i, _)| i)
        .collect();
    let used = consumption_bounds(instance, x, x.consumption(instance));
    let over_capacity: Vec<(usize, Rational)> = used
        .iter()
        .zip(instance.capacity())
        .enumerate()
        .filter(|(_, (c, r))| judge.settle(Test::more_than(c, r)))
        .map(|(j, (c, _))| (j, c.value.clone()))
        .collect();
    if negative.is_empty() && over_cap.is_empty() && over_capacity.is_empty() {
        Ok(Ok(used))
    } else {
        Ok(Err(InfeasibleWitness {
            tasks: x.tasks.clone(),
            negative,
            over_cap,
            over_capacity,
        }))
    }
}

/// Feasibility as a verdict prelude: the consumption, or the failing verdict.
fn feasible_or_verdict(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
) -> Result<Result<Vec<Bounded>, Verdict>, SolverError> {
    Ok(feasible_use(instance, x, judge)?.map_err(|w| {
        Verdict::fails(
            Witness::Infeasible(w),
            "the allocation is infeasible, so the property is not met",
        )
    }))
}

/// `W_j = Σ_k w_kj` per resource (`W = Σ_k w_k` on every resource with scalar weights).
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::weight_totals;
/// use leontief_solver::{Instance, User};
/// let inst = Instance::new(vec![1.into(), 1.into()],
///     vec![User::new("a", [1, 1]).weight(2), User::new("b", [1, 1]).resource_weights([1, 3])]).unwrap();
/// assert_eq!(weight_totals(&inst), vec![3.into(), 5.into()]);
/// ```
pub fn weight_totals(instance: &Instance) -> Vec<Rational> {
    (0..instance.num_resources())
        .map(|j| {
            let mut s = ExactSum::new();
            for u in instance.users() {
                s.add(u.weight_on(j));
            }
            s.value()
        })
        .collect()
}

/// Every user's weighted equal split: user `i` gets `(w_ij / W_j) R_j` of resource `j`
/// (`(w_i / W) R` with scalar weights) — the bundles SI compares with.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::equal_split;
/// use leontief_solver::{Instance, User};
/// let inst = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1]).weight(2)]).unwrap();
/// assert_eq!(equal_split(&inst)[1], vec![6.into(), 12.into()]);
/// ```
pub fn equal_split(instance: &Instance) -> Vec<Vec<Rational>> {
    let totals = weight_totals(instance);
    instance
        .users()
        .iter()
        .map(|u| split_of(instance, &totals, u))
        .collect()
}

fn split_of(instance: &Instance, totals: &[Rational], u: &User) -> Vec<Rational> {
    instance
        .capacity()
        .iter()
        .zip(totals)
        .enumerate()
        .map(|(j, (r, total))| r * &(u.weight_on(j) / total))
        .collect()
}

/// Whether user `i` with `x` tasks is below its cap (always, without one).
fn below_cap(u: &User, x: &Bounded) -> Test {
    match &u.cap {
        Some(t) => Test::less_than(x, t),
        None => Test::TRUE,
    }
}

/// Runs an allocation oracle with a [`Judge`] on `x` and finishes its verdict.
fn judged(
    x: &Allocation,
    oracle: impl FnOnce(&mut Judge) -> Result<Verdict, SolverError>,
) -> Result<Verdict, SolverError> {
    let mut judge = Judge::on(x);
    let verdict = oracle(&mut judge)?;
    Ok(judge.finish(verdict))
}

/// SI: `min(T_i, x_i) >= u_i(split_i)` for every user, with the weighted equal split of
/// [`equal_split`]. Witness: the first user (in order) below its split.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::sharing_incentive;
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// // A's half is (4.5, 9): 9/4 tasks; B's is 3/2 tasks.
/// assert!(sharing_incentive(&paper, &Allocation::new(vec![3.into(), 2.into()])).unwrap().holds);
/// assert!(!sharing_incentive(&paper, &Allocation::new(vec![2.into(), 2.into()])).unwrap().holds);
/// ```
pub fn sharing_incentive(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    judged(x, |judge| sharing_incentive_judged(instance, x, judge))
}

fn sharing_incentive_judged(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
) -> Result<Verdict, SolverError> {
    if let Err(v) = feasible_or_verdict(instance, x, judge)? {
        return Ok(v);
    }
    let totals = weight_totals(instance);
    for (i, u) in instance.users().iter().enumerate() {
        // u_i(split) = min(T_i, min_{j: d_ij > 0} (w_ij / W_j) R_j / d_ij).
        let runnable = u
            .demand
            .iter()
            .enumerate()
            .filter(|(_, d)| !d.is_zero())
            .map(|(j, d)| &(&instance.capacity()[j] * &(u.weight_on(j) / &totals[j])) / d)
            .min()
            .expect("validated: some demand is positive");
        let split_utility = match &u.cap {
            Some(t) if *t < runnable => t.clone(),
            _ => runnable,
        };
        let have = Bounded::tasks(x, i).map(|y| utility_at_truth(instance, i, y));
        if judge.settle(Test::less_than(&have, &split_utility)) {
            let witness = SiWitness {
                user: i,
                tasks: x.tasks[i].clone(),
                split: split_of(instance, &totals, u),
                split_utility,
            };
            return Ok(Verdict::fails(
                Witness::Si(witness),
                format!(
                    "user {} is below its weighted equal split ({})",
                    u.name,
                    split_reading(instance)
                ),
            ));
        }
    }
    Ok(Verdict::holds(format!(
        "every user at or above its weighted equal split ({})",
        split_reading(instance)
    )))
}

fn split_reading(instance: &Instance) -> &'static str {
    if instance
        .users()
        .iter()
        .any(|u| u.resource_weights.is_some())
    {
        "per-resource weights: user i's split of resource j is w_ij / sum_k w_kj"
    } else {
        "user i's split is w_i / W of every resource"
    }
}

/// EF: `u_i(B_ik) <= min(T_i, x_i)` for all `i != k`, where `B_ik` is `k`'s bundle scaled by
/// `w_ij / w_kj` on each resource `j` (`(w_i / w_k) x_k d_k` with scalar weights). Witness:
/// the first envious pair in order.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::{allocation::envy_freeness, Witness};
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert!(envy_freeness(&paper, &Allocation::new(vec![3.into(), 2.into()])).unwrap().holds);
/// // With 1/2 task, B prefers A's bundle (3, 12), which runs 1 task of B's.
/// let v = envy_freeness(&paper, &Allocation::new(vec![3.into(), "1/2".parse().unwrap()])).unwrap();
/// let Some(Witness::Ef(w)) = v.witness else { panic!() };
/// assert_eq!((w.envious, w.envied), (1, 0));
/// ```
pub fn envy_freeness(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    judged(x, |judge| envy_freeness_judged(instance, x, judge))
}

fn envy_freeness_judged(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
) -> Result<Verdict, SolverError> {
    if let Err(v) = feasible_or_verdict(instance, x, judge)? {
        return Ok(v);
    }
    let users = instance.users();
    for (i, ui) in users.iter().enumerate() {
        let have = Bounded::tasks(x, i).map(|y| utility_at_truth(instance, i, y));
        for (k, uk) in users.iter().enumerate() {
            if k == i || !x.tasks[k].is_positive() {
                continue;
            }
            // u_i of k's bundle with y tasks, scaled (non-decreasing in y); a resource i
            // needs and k lacks makes it 0.
            let scaled_of = |y: &Rational| -> Rational {
                let mut best: Option<Rational> = None;
                for (j, d) in ui.demand.iter().enumerate() {
                    if d.is_zero() {
                        continue;
                    }
                    if uk.demand[j].is_zero() {
                        best = Some(Rational::ZERO);
                        break;
                    }
                    let v = &(&(ui.weight_on(j) / uk.weight_on(j)) * &(y * &uk.demand[j])) / d;
                    if best.as_ref().is_none_or(|b| v < *b) {
                        best = Some(v);
                    }
                }
                let runnable = best.expect("validated: some demand is positive");
                match &ui.cap {
                    Some(t) if *t < runnable => t.clone(),
                    _ => runnable,
                }
            };
            let scaled = Bounded::tasks(x, k).map(scaled_of);
            if judge.settle(Test::less(&have, &scaled)) {
                let scaled = scaled.value;
                let scaled_bundle = (0..instance.num_resources())
                    .map(|j| &(ui.weight_on(j) / uk.weight_on(j)) * &(&x.tasks[k] * &uk.demand[j]))
                    .collect();
                let witness = EfWitness {
                    envious: i,
                    envied: k,
                    tasks: x.tasks[i].clone(),
                    envied_tasks: x.tasks[k].clone(),
                    scaled_bundle,
                    scaled_utility: scaled,
                };
                return Ok(Verdict::fails(
                    Witness::Ef(witness),
                    format!(
                        "user {} prefers user {}'s bundle scaled to its weight",
                        ui.name, uk.name
                    ),
                ));
            }
        }
    }
    Ok(Verdict::holds(
        "nobody prefers another's bundle scaled by the weight ratio",
    ))
}

/// PO, by the characterization for non-wasteful Leontief allocations: it holds exactly
/// when every user below its cap demands a saturated resource. Witness: the first user that
/// does not, raised as far as capacity and its cap allow (a feasible allocation where it
/// strictly gains and nobody else changes).
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::{allocation::pareto_efficiency, Witness};
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert!(pareto_efficiency(&paper, &Allocation::new(vec![3.into(), 2.into()])).unwrap().holds);
/// // (2, 2) leaves 1 CPU and 8 GB: A can run 1 more task.
/// let v = pareto_efficiency(&paper, &Allocation::new(vec![2.into(), 2.into()])).unwrap();
/// let Some(Witness::Po(w)) = v.witness else { panic!() };
/// assert_eq!((w.user, w.gain), (0, 1.into()));
/// ```
pub fn pareto_efficiency(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    judged(x, |judge| pareto_efficiency_judged(instance, x, judge))
}

fn pareto_efficiency_judged(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
) -> Result<Verdict, SolverError> {
    let used = match feasible_or_verdict(instance, x, judge)? {
        Ok(used) => used,
        Err(v) => return Ok(v),
    };
    let capacity = instance.capacity();
    for (i, u) in instance.users().iter().enumerate() {
        let tasks = Bounded::tasks(x, i);
        // Below its cap, and every resource it needs has room.
        let mut free = below_cap(u, &tasks);
        for (d, (c, r)) in u.demand.iter().zip(used.iter().zip(capacity)) {
            if !free.exact {
                break;
            }
            if !d.is_zero() {
                free = free.and(Test::less_than(c, r));
            }
        }
        if !judge.settle(free) {
            continue;
        }
        // Grow until one resource fills or the cap binds, under every admissible truth:
        // the gain guaranteed by the upper bounds (the computed values when exact).
        let Some(gain) = certified_gain(u, &tasks, &used, capacity) else {
            continue;
        };
        let mut improved = x.tasks.clone();
        improved[i] += &gain;
        return Ok(Verdict::fails(
            Witness::Po(PoWitness {
                user: i,
                gain,
                improved,
            }),
            format!(
                "user {} is below its cap and needs no saturated resource",
                u.name
            ),
        ));
    }
    Ok(Verdict::holds(
        "every user below its cap demands a saturated resource",
    ))
}

/// `min(T_i − hi(x_i), min_{j: d_ij > 0} (R_j − hi(used_j)) / d_ij)`: how many more tasks
/// user `i` can run whatever the true allocation within the error (`None` when a bound is
/// infinite, which a certain test excludes).
fn certified_gain(
    u: &User,
    tasks: &Bounded,
    used: &[Bounded],
    capacity: &[Rational],
) -> Option<Rational> {
    let mut room: Option<Rational> = None;
    for (d, (c, r)) in u.demand.iter().zip(used.iter().zip(capacity)) {
        if d.is_zero() {
            continue;
        }
        let here = &(r - c.hi()?) / d;
        if room.as_ref().is_none_or(|m| here < *m) {
            room = Some(here);
        }
    }
    let room = room?;
    Some(match &u.cap {
        Some(t) => room.min(t - tasks.hi()?),
        None => room,
    })
}

/// SRF: with one resource the answer is weighted max-min with caps — every user below its
/// cap has the largest weighted amount `x_i d_i / w_i`, and the resource is used up unless
/// every user is at its cap. Not applicable with several resources.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::single_resource_fairness;
/// use leontief_solver::{Allocation, Instance, User};
/// let one = Instance::new(vec![12.into()],
///     vec![User::new("a", [1]), User::new("b", [2]).weight(2)]).unwrap();
/// assert!(single_resource_fairness(&one, &Allocation::new(vec![4.into(), 4.into()])).unwrap().holds);
/// assert!(!single_resource_fairness(&one, &Allocation::new(vec![6.into(), 3.into()])).unwrap().holds);
/// ```
pub fn single_resource_fairness(
    instance: &Instance,
    x: &Allocation,
) -> Result<Verdict, SolverError> {
    check_tasks(instance, x, "allocation")?;
    if instance.num_resources() != 1 {
        return Ok(Verdict::not_applicable(format!(
            "srf applies to one resource; this instance has {}",
            instance.num_resources()
        )));
    }
    judged(x, |judge| {
        let used = match feasible_or_verdict(instance, x, judge)? {
            Ok(used) => used,
            Err(v) => return Ok(v),
        };
        Ok(single_resource_verdict(max_min_on(
            instance, x, &used, 0, judge,
        )))
    })
}

fn single_resource_verdict(found: Option<MaxMinWitness>) -> Verdict {
    match found {
        Some(w) => Verdict::fails(
            Witness::MaxMin(w),
            "the resource is not shared weighted max-min",
        ),
        None => Verdict::holds("the resource is shared weighted max-min (with caps)"),
    }
}

/// The common bottleneck: a resource `j*` with `d_ij*/R_j* >= d_ij/R_j` for every user `i`
/// and resource `j` (the first such), if any.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::bottleneck;
/// use leontief_solver::{Instance, User};
/// let thm2 = Instance::new(vec![21.into(), 21.into()],
///     vec![User::new("1", [3, 2]), User::new("2", [4, 1])]).unwrap();
/// assert_eq!(bottleneck(&thm2), Some(0));
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert_eq!(bottleneck(&paper), None);
/// ```
pub fn bottleneck(instance: &Instance) -> Option<usize> {
    let mu: Vec<Rational> = (0..instance.num_users())
        .map(|i| instance.task_dominant_share(i))
        .collect();
    (0..instance.num_resources()).find(|&j| {
        instance
            .users()
            .iter()
            .zip(&mu)
            .all(|(u, mu)| &u.demand[j] / &instance.capacity()[j] == *mu)
    })
}

/// BF: when some resource is every user's (percent-wise) most demanded — [`bottleneck`] —
/// the answer is weighted max-min with caps on it, compared by `x_i d_ij* / w_ij*`; not
/// applicable otherwise.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// The DRF paper's Theorem 2: asset fairness gives (21, 21), ⟨3, 2⟩, ⟨4, 1⟩ 3 tasks each,
/// so user 1 holds 9 units of the bottleneck and user 2 holds 12.
/// ```
/// use leontief_solver::properties::{allocation::bottleneck_fairness, MaxMinViolation, Witness};
/// use leontief_solver::{AssetFairness, Instance, Mechanism, User};
/// let thm2 = Instance::new(vec![21.into(), 21.into()],
///     vec![User::new("1", [3, 2]), User::new("2", [4, 1])]).unwrap();
/// let v = bottleneck_fairness(&thm2, &AssetFairness.allocate(&thm2).unwrap()).unwrap();
/// let Some(Witness::MaxMin(w)) = v.witness else { panic!() };
/// assert!(matches!(w.violation, MaxMinViolation::Unequal { below_cap: 0, other: 1, .. }));
/// ```
pub fn bottleneck_fairness(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    check_tasks(instance, x, "allocation")?;
    let Some(j) = bottleneck(instance) else {
        return Ok(Verdict::not_applicable(
            "no resource is every user's most demanded (percent-wise)",
        ));
    };
    judged(x, |judge| {
        let used = match feasible_or_verdict(instance, x, judge)? {
            Ok(used) => used,
            Err(v) => return Ok(v),
        };
        let name = &instance.resources()[j];
        Ok(match max_min_on(instance, x, &used, j, judge) {
            Some(w) => Verdict::fails(
                Witness::MaxMin(w),
                format!("the common bottleneck {name} is not shared weighted max-min"),
            ),
            None => Verdict::holds(format!(
                "the common bottleneck {name} is shared weighted max-min (with caps)"
            )),
        })
    })
}

/// Weighted max-min with caps on resource `j` of a feasible allocation, where every user
/// demands `j`: the resource is used up unless all users are capped, and no user below its
/// cap has a smaller weighted amount than anyone. With an approximate allocation the
/// witness pairs the user below its cap with the smallest upper bound on its amount and
/// the user with the largest lower bound (the computed extremes when exact).
fn max_min_on(
    instance: &Instance,
    x: &Allocation,
    used: &[Bounded],
    j: usize,
    judge: &mut Judge,
) -> Option<MaxMinWitness> {
    let users = instance.users();
    let n = users.len();
    let tasks: Vec<Bounded> = (0..n).map(|i| Bounded::tasks(x, i)).collect();
    let amounts: Vec<Bounded> = (0..n)
        .map(|i| tasks[i].map(|y| &(y * &users[i].demand[j]) / users[i].weight_on(j)))
        .collect();
    let below: Vec<Test> = (0..n).map(|i| below_cap(&users[i], &tasks[i])).collect();
    // Nobody below its cap, even on the computed numbers: max-min holds.
    below.iter().position(|t| t.exact)?;
    let first_certain = below.iter().position(|t| t.certain);
    let unsaturated =
        Test::any(below.iter().copied()).and(Test::less_than(&used[j], &instance.capacity()[j]));
    if let (true, Some(user)) = (judge.settle(unsaturated), first_certain) {
        return Some(MaxMinWitness {
            resource: j,
            violation: MaxMinViolation::Unsaturated {
                user,
                used: used[j].value.clone(),
                capacity: instance.capacity()[j].clone(),
            },
        });
    }
    // On the computed numbers: the smallest amount below the cap against the largest.
    let smallest = (0..n)
        .filter(|&i| below[i].exact)
        .map(|i| &amounts[i].value)
        .reduce(|a, b| if b < a { b } else { a });
    let largest = amounts
        .iter()
        .map(|a| &a.value)
        .reduce(|a, b| if b > a { b } else { a });
    let exact = matches!((smallest, largest), (Some(lo), Some(hi)) if lo < hi);
    // For certain: the smallest upper bound below the cap against the largest lower bound.
    let lo = (0..n)
        .filter(|&i| below[i].certain)
        .filter_map(|i| amounts[i].hi().map(|h| (i, h)))
        .reduce(|a, b| if b.1 < a.1 { b } else { a });
    let hi = (0..n)
        .filter_map(|i| amounts[i].lo().map(|l| (i, l)))
        .reduce(|a, b| if b.1 > a.1 { b } else { a });
    let (certain, pair) = match (lo, hi) {
        (Some((lo, lo_bound)), Some((hi, hi_bound))) => (lo_bound < hi_bound, Some((lo, hi))),
        _ => (false, None),
    };
    let unequal = Test::decided(exact, certain);
    match (judge.settle(unequal), pair) {
        (true, Some((lo, hi))) => Some(MaxMinWitness {
            resource: j,
            violation: MaxMinViolation::Unequal {
                below_cap: lo,
                below_cap_amount: amounts[lo].value.clone(),
                other: hi,
                other_amount: amounts[hi].value.clone(),
            },
        }),
        _ => None,
    }
}

/// BBF (Dolev et al.): every user reaches its cap or gets at least its entitlement
/// `w_ij / W_j` (`w_i / W`) of some saturated resource it needs. Witness: the first user
/// that does neither, with its shares of the saturated resources it needs.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::allocation::bottleneck_based_fairness;
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// // DRF saturates CPU; A holds 3/9 < 1/2 of it, B 6/9.
/// let v = bottleneck_based_fairness(&paper, &Allocation::new(vec![3.into(), 2.into()])).unwrap();
/// assert!(!v.holds);
/// ```
pub fn bottleneck_based_fairness(
    instance: &Instance,
    x: &Allocation,
) -> Result<Verdict, SolverError> {
    judged(x, |judge| {
        bottleneck_based_fairness_judged(instance, x, judge)
    })
}

fn bottleneck_based_fairness_judged(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
) -> Result<Verdict, SolverError> {
    let used = match feasible_or_verdict(instance, x, judge)? {
        Ok(used) => used,
        Err(v) => return Ok(v),
    };
    let totals = weight_totals(instance);
    let capacity = instance.capacity();
    for (i, u) in instance.users().iter().enumerate() {
        let tasks = Bounded::tasks(x, i);
        // Below its cap, and every resource it needs is unsaturated or below entitlement.
        let mut unfair = below_cap(u, &tasks);
        let mut shares = Vec::new();
        for (j, d) in u.demand.iter().enumerate() {
            if !unfair.exact {
                break;
            }
            if d.is_zero() {
                continue;
            }
            let unsaturated = Test::less_than(&used[j], &capacity[j]);
            if unsaturated.certain {
                continue;
            }
            let share = tasks.map(|y| &(y * d) / &capacity[j]);
            let entitlement = u.weight_on(j) / &totals[j];
            unfair = unfair.and(unsaturated.or(Test::less_than(&share, &entitlement)));
            shares.push(SaturatedShare {
                resource: j,
                share: share.value,
                entitlement,
            });
        }
        if !judge.settle(unfair) {
            continue;
        }
        let note = if shares.is_empty() {
            format!(
                "user {} is below its cap and needs no saturated resource",
                u.name
            )
        } else {
            format!(
                "user {} is below its cap and below its entitlement of every saturated \
                 resource it needs",
                u.name
            )
        };
        return Ok(Verdict::fails(
            Witness::Bbf(BbfWitness {
                user: i,
                tasks: x.tasks[i].clone(),
                shares,
            }),
            note,
        ));
    }
    Ok(Verdict::holds(
        "every user reaches its cap or its entitlement of a saturated resource it needs",
    ))
}

/// A node with unmet demand below its guaranteed share (share guarantee).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgWitness {
    /// The node's path (`P/Q`, or `P/x` for a user's leaf; see
    /// [`Hierarchy::path`](crate::hierarchy::Hierarchy::path)).
    pub node: String,
    /// The node's index in the instance's [`Hierarchy`](crate::hierarchy::Hierarchy).
    pub vertex: usize,
    /// The users below it.
    pub users: Vec<usize>,
    /// Its guaranteed share `g_v`.
    pub guaranteed: Rational,
    /// Its dominant share `S_v < g_v`: the largest share of a resource its users hold
    /// together.
    pub dominant_share: Rational,
    /// A user below it under its cap (the unmet demand): the first by index.
    pub unmet_user: usize,
}

impl SgWitness {
    /// `{"node", "users", "guaranteed_share", "dominant_share", "unmet_user"}`.
    pub fn to_json(&self, instance: &Instance) -> Value {
        object(vec![
            ("node", Value::String(self.node.clone())),
            (
                "users",
                self.users
                    .iter()
                    .map(|&i| Value::String(user_name(instance, i)))
                    .collect(),
            ),
            ("guaranteed_share", exact(&self.guaranteed)),
            ("dominant_share", exact(&self.dominant_share)),
            (
                "unmet_user",
                Value::String(user_name(instance, self.unmet_user)),
            ),
        ])
    }
}

/// Share guarantee (`docs/theory.md` §4) on the instance's tree of pools
/// ([`Instance::hierarchy`]): every node below the root — pool or user — with unmet demand
/// (some user below it uncapped or under its cap) holds at least its guaranteed share `g_v`
/// of its dominant resource, `S_v = max_j Σ_{i below v} x_i d_ij / R_j`. Without pools the
/// tree has one level and `g_i = w_i / Σ_k w_k`. Witness: the first such node in the tree's
/// order. (The root, whose "guarantee" is the whole cluster, is not checked: that is
/// efficiency, which `po` decides; [`share_guarantee_violations`] lists it too.)
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// The lecture's flattening failure: P = {P1 ⟨1,0⟩, P2 ⟨0,1⟩} against Q ⟨1,1⟩; weighted DRF
/// over the leaves gives P1, P2 and Q 1/3 each, so P holds 1/3 of each resource, below its
/// guarantee 1/2.
/// ```
/// use leontief_solver::properties::{allocation::share_guarantee, Witness};
/// use leontief_solver::{Allocation, Instance, Pool, Rational, User};
/// let inst = Instance::with_pools(vec!["r1".into(), "r2".into()], vec![1.into(), 1.into()],
///     vec![Pool::new("P")],
///     vec![User::new("P1", [1, 0]).pool(0), User::new("P2", [0, 1]).pool(0), User::new("Q", [1, 1])]).unwrap();
/// let third = Rational::new(1, 3).unwrap();
/// let v = share_guarantee(&inst, &Allocation::new(vec![third.clone(), third.clone(), third])).unwrap();
/// let Some(Witness::Sg(w)) = v.witness else { panic!("expected a share-guarantee witness") };
/// assert_eq!((w.node.as_str(), w.dominant_share.to_string()), ("P", "1/3".into()));
/// let half = Rational::new(1, 2).unwrap();
/// assert!(share_guarantee(&inst, &Allocation::new(vec![half.clone(), half.clone(), half])).unwrap().holds);
/// ```
pub fn share_guarantee(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    judged(x, |judge| share_guarantee_judged(instance, x, judge))
}

/// Every node with unmet demand holding less than its guaranteed share, in the tree's
/// pre-order, the root included: the share-guarantee oracle of both the flat property
/// ([`share_guarantee`], which reports the first below the root) and the tree
/// allocations of the hierarchical policies. Decided on the computed task counts (the
/// allocation's tolerance, if any, is not applied) and without a feasibility check.
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Complexity
/// `O(N · n · m)` for `N` nodes, `n` users and `m` resources.
///
/// # Example
/// The allocation that leaves the whole cluster idle fails everywhere: root, P, P1, P2, Q.
/// ```
/// use leontief_solver::properties::allocation::share_guarantee_violations;
/// use leontief_solver::{Allocation, Instance, Pool, User};
/// let inst = Instance::with_pools(vec!["r1".into(), "r2".into()], vec![1.into(), 1.into()],
///     vec![Pool::new("P")],
///     vec![User::new("P1", [1, 0]).pool(0), User::new("P2", [0, 1]).pool(0), User::new("Q", [1, 1])]).unwrap();
/// let bad = share_guarantee_violations(&inst, &Allocation::new(vec![0.into(); 3])).unwrap();
/// let nodes: Vec<&str> = bad.iter().map(|w| w.node.as_str()).collect();
/// assert_eq!(nodes, ["", "P", "P/P1", "P/P2", "Q"]);
/// ```
pub fn share_guarantee_violations(
    instance: &Instance,
    x: &Allocation,
) -> Result<Vec<SgWitness>, SolverError> {
    check_tasks(instance, x, "allocation")?;
    let exact = Allocation::new(x.tasks.clone());
    let mut judge = Judge::on(&exact);
    Ok(sg_scan(instance, &exact, &mut judge, 0, false))
}

/// The share-guarantee scan over the nodes `from..` of the instance's tree (pre-order):
/// every node with unmet demand whose dominant share is certainly below its guarantee
/// (`judge` settles the comparisons of approximate answers); only the first when `first`.
fn sg_scan(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
    from: usize,
    first: bool,
) -> Vec<SgWitness> {
    let h = instance.hierarchy();
    let tasks: Vec<Bounded> = (0..x.tasks.len()).map(|i| Bounded::tasks(x, i)).collect();
    let m = instance.num_resources();
    let mut out = Vec::new();
    for v in from..h.len() {
        let users = h.users_below(v);
        // Unmet demand: uncapped, or under the cap (beyond the error, to be certain); the
        // first such user by index.
        let unmet = users.iter().copied().find_map(|i| {
            let test = match &instance.users()[i].cap {
                None => Test::TRUE,
                Some(t) => Test::less_than(&tasks[i], t),
            };
            test.exact.then_some((i, test))
        });
        let Some((unmet_user, unmet_test)) = unmet else {
            continue;
        };
        // S_v computed, and its upper bound over the admissible true answers.
        let mut share = Rational::ZERO;
        let mut share_hi: Option<Rational> = Some(Rational::ZERO);
        for j in 0..m {
            let mut used = ExactSum::new();
            let mut used_hi = Some(ExactSum::new());
            for &i in &users {
                let d = &instance.users()[i].demand[j];
                if d.is_zero() {
                    continue;
                }
                used.add(&(&x.tasks[i] * d));
                used_hi = match (used_hi, tasks[i].hi()) {
                    (Some(mut s), Some(hi)) => {
                        s.add(&(hi * d));
                        Some(s)
                    }
                    _ => None,
                };
            }
            let r = &instance.capacity()[j];
            let s = &used.value() / r;
            if s > share {
                share = s;
            }
            share_hi = match (share_hi, used_hi) {
                (Some(best), Some(mut u)) => Some(best.max(&u.value() / r)),
                _ => None,
            };
        }
        let g = &h.node(v).guaranteed;
        let below = Test::decided(share < *g, share_hi.as_ref().is_some_and(|s| s < g));
        if judge.settle(unmet_test.and(below)) {
            out.push(SgWitness {
                node: h.path(v),
                vertex: v,
                users,
                guaranteed: g.clone(),
                dominant_share: share,
                unmet_user,
            });
            if first {
                break;
            }
        }
    }
    out
}

fn share_guarantee_judged(
    instance: &Instance,
    x: &Allocation,
    judge: &mut Judge,
) -> Result<Verdict, SolverError> {
    if let Err(v) = feasible_or_verdict(instance, x, judge)? {
        return Ok(v);
    }
    // From node 1: the root is not checked (see `share_guarantee`).
    if let Some(witness) = sg_scan(instance, x, judge, 1, true).pop() {
        let note = format!(
            "{} holds a dominant share of {}, below its guaranteed {}",
            witness.node, witness.dominant_share, witness.guaranteed
        );
        return Ok(Verdict::fails(Witness::Sg(witness), note));
    }
    Ok(Verdict::holds(if instance.hierarchy().is_flat() {
        "every user with unmet demand holds at least w_i / W of its dominant resource"
    } else {
        "every node with unmet demand holds at least its guaranteed share of its dominant resource"
    }))
}
