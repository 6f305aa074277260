//! `pm-loss`: when one user leaves or joins, the smallest ratio, over the users present in
//! both populations, of a user's utility in the smaller population to its utility in the
//! larger one, minimized (docs/explore.md §3.3).
//!
//! Population monotonicity (docs/theory.md §3.6): when a user leaves, no remaining user is
//! worse off — read from the other side, when a user joins, no existing user is better off.
//! Both compare a population `I` with `I + k` (one user more), over the users `i ∈ I`:
//!
//! `pm-loss = min_{(I, k)} min_{i ∈ I} u_i(I) / u_i(I + k)`
//!
//! where `u_i(P)` is `i`'s true utility in the mechanism's answer for population `P`. For a
//! departure (`Scenario::Remove(k)`) the candidate's instance is `I + k` and the smaller
//! population is the one *after*: the ratio is after / before. For an arrival
//! (`Scenario::Join(k)`) the instance is `I` and the smaller population is the one *before*:
//! the ratio is before / after. A join of `k` into `I` is the departure of `k` from `I + k`,
//! with the same ratio. A population-monotonic mechanism has `pm-loss >= 1`; below 1 a user
//! loses when `k` leaves (or gains when `k` joins). Users with nothing in `I + k` have no
//! ratio and are skipped. The numerator is `u_i(I)`, the denominator `u_i(I + k)`.
//!
//! On one instance the metric tries every departure, then arrivals: a copy of each user
//! (same demand, weight, cap and pool) and four random demand vectors (each entry a grid
//! value × the dominant share × the capacity of a random user, who lends its pool), then a
//! climb of `climb_steps / 4` moves over the best joiner's demand (one entry set to 0,
//! doubled, halved, raised by half its dominant share or set to a grid value × it), kept
//! when the value does not rise. The local search's hint (the elite's scenario) is tried
//! first. On a grid instance of an exhaustive run
//! ([`Ctx::grid_only`](super::Ctx::grid_only)): every departure, a copy of each user, and a
//! joiner demanding each nonzero grid vector; no random joiner, no climb. The joiner is
//! appended after the existing users, named `new` (or `new2`, ... when
//! that name is taken).
//!
//! # Example
//! DRF on (1, 1) with A ⟨1, 0⟩ and B ⟨0, 1⟩: each runs 1 task. When C ⟨1/2, 1⟩ joins, DRF
//! equalises dominant shares `x_A = x_C` (C's dominant resource is r2): r1 holds
//! `x_A + x_C / 2 <= 1`, r2 `x_B + x_C <= 1`. Progressive filling stops r2 at level 1/2
//! (`x_B = x_C = 1/2`), and A continues alone on r1 to `1 − 1/4 = 3/4`. A loses (1 → 3/4),
//! B loses (1 → 1/2): `pm-loss = min(1 / (3/4), 1 / (1/2)) = 4/3`, DRF is population
//! monotonic here.
//! ```
//! use leontief_counterexamples::candidate::Candidate;
//! use leontief_counterexamples::explore::{At, MetricName, Utility};
//! use leontief_solver::properties::Scenario;
//! use leontief_solver::{Drf, Instance, Mechanism, User};
//! let inst = Instance::new(vec![1.into(), 1.into()],
//!     vec![User::new("A", [1, 0]), User::new("B", [0, 1])]).unwrap();
//! let q = |s: &str| s.parse::<leontief_solver::Rational>().unwrap();
//! let c = Candidate::new(inst, Scenario::Join(User::new("C", [q("1/2"), q("1")])));
//! let truth = Drf::extended().allocate(&c.instance).unwrap();
//! let e = MetricName::PmLoss.metric().at(&At::new(&Drf::extended(), &c, &truth, Utility::Tasks)).unwrap().unwrap();
//! assert_eq!((e.value.to_string(), e.user), ("4/3".to_string(), 0));
//! ```
//!
//! # Complexity
//! One allocation per scenario: `n` departures, `n + 4` arrivals and `climb_steps / 4`
//! climb steps per instance.
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness.* NSDI 2011 (DRF is population
//!   monotonic; CEEI is not, §5).

use leontief_solver::properties::{utility_at_truth, Property, Scenario};
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Allocation, Instance, Rational, SolverError, User};

use super::metric::{spread, At, Ctx, Direction, Evaluation, Metric, MetricInfo, Subject};
use super::metric_common::{needs, Of};
use super::{exact, knife};
use crate::search::moved_entry;
use crate::space::{grid_values, GridVectors, VectorOrder};

/// See the [module docs](self).
pub struct PmLoss;

/// `instance` with `user` appended after the others (the population `I + k` of a join).
///
/// # Errors
/// A joiner that does not fit the instance (its demand's length, its pool, a taken name).
pub fn joined(instance: &Instance, user: &User) -> Result<Instance, SolverError> {
    let mut users = instance.users().to_vec();
    users.push(user.clone());
    instance
        .with_users(users)
        .map_err(|e| SolverError::invalid("witness.joined", e.to_string()))
}

/// The joiner of the larger population's instance form `larger` (a join's `I + k`): its
/// last user, read by the instance reader (so its pool is named by path); errors at `at`.
pub(crate) fn last_user(larger: &serde_json::Value, at: &str) -> Result<User, SolverError> {
    let larger =
        Instance::from_json(larger).map_err(|e| SolverError::invalid(at, e.to_string()))?;
    let joiner = larger.users().last().cloned();
    joiner.ok_or_else(|| SolverError::invalid(at, "expected the joiner as the last user"))
}

/// A name no user or pool of `instance` has: `new`, else `new2`, `new3`, ...
fn fresh_name(instance: &Instance) -> String {
    let taken = |s: &str| {
        instance.users().iter().any(|u| u.name == s) || instance.pools().iter().any(|p| p.name == s)
    };
    (1..)
        .map(|k| match k {
            1 => "new".to_string(),
            _ => format!("new{k}"),
        })
        .find(|name| !taken(name))
        .expect("an unbounded list of names")
}

/// User `template` with another name and `demand` (no cap, which is in tasks of the old
/// demand).
fn joiner(instance: &Instance, template: usize, demand: Vec<Rational>) -> User {
    let mut u = instance.users()[template].clone();
    u.name = fresh_name(instance);
    if u.demand != demand {
        u.demand = demand;
        u.cap = None;
    }
    u
}

/// A copy of each user of `instance`, as a joiner.
fn copies(instance: &Instance) -> impl Iterator<Item = User> + '_ {
    (0..instance.num_users()).map(|i| joiner(instance, i, instance.users()[i].demand.clone()))
}

/// The joiners a unit tries: a copy of each user, then four random demands (see the
/// [module docs](self)).
fn joiners(instance: &Instance, values: &[Rational], rng: &mut SplitMix64) -> Vec<User> {
    let n = instance.num_users();
    let m = instance.num_resources();
    let mut out: Vec<User> = copies(instance).collect();
    if values.is_empty() {
        return out;
    }
    for _ in 0..4 {
        let i = rng.range(0, n as u64 - 1) as usize;
        let mu = instance.task_dominant_share(i);
        let d: Vec<Rational> = (0..m)
            .map(|j| {
                let g = &values[rng.range(0, values.len() as u64 - 1) as usize];
                &(g * &mu) * &instance.capacity()[j]
            })
            .collect();
        if d.iter().any(Rational::is_positive) {
            out.push(joiner(instance, i, d));
        }
    }
    out
}

/// The joiners of a grid instance when only the grid is asked for: a copy of each user,
/// then a user under the root (as `u1`: weight 1, no cap on the grid) demanding each nonzero
/// vector of the value grid in turn, unranked one at a time (`|values|^m` of them); a vector
/// that a copy of a user under the root already tried is left out.
fn grid_joiners<'a>(
    instance: &'a Instance,
    values: &'a [Rational],
) -> impl Iterator<Item = User> + 'a {
    let n = instance.num_users();
    let root = instance.users().first().map(|u| u.pool);
    let tried = move |v: &Vec<Rational>| {
        instance
            .users()
            .iter()
            .any(|u| Some(u.pool) == root && u.demand == *v)
    };
    let grid = grid_values(values);
    let m = instance.num_resources();
    let count = if n == 0 {
        0
    } else {
        GridVectors::new(&grid, m, VectorOrder::Lexicographic).len()
    };
    copies(instance).chain(
        (0..count)
            .map(move |k| GridVectors::new(&grid, m, VectorOrder::Lexicographic).get(k))
            .filter(move |v| !tried(v))
            .map(move |v| joiner(instance, 0, v)),
    )
}

/// One climb move on the joiner's demand; `None` when it changes nothing or leaves no
/// positive entry.
fn neighbour(
    instance: &Instance,
    user: &User,
    values: &[Rational],
    rng: &mut SplitMix64,
) -> Option<User> {
    let m = instance.num_resources();
    let cap = instance.capacity();
    let j = rng.range(0, m as u64 - 1) as usize;
    let mu = (0..m)
        .filter(|&k| cap[k].is_positive())
        .map(|k| &user.demand[k] / &cap[k])
        .max()?;
    let value = moved_entry(&user.demand[j], &(&mu * &cap[j]), values, rng)?;
    let mut next = user.clone();
    next.demand[j] = value;
    next.cap = None;
    (next.demand.iter().any(Rational::is_positive) && next != *user).then_some(next)
}

/// The answers `(small, large)` of the populations `I` and `I + k` from the candidate's
/// answer and the other one: the smaller population is the one after a departure, before a
/// join.
fn by_size<T>(joins: bool, mine: T, theirs: T) -> (T, T) {
    if joins {
        (mine, theirs)
    } else {
        (theirs, mine)
    }
}

/// What the metric measures, in which direction, and how its record is shaped.
pub(super) const INFO: MetricInfo = MetricInfo::ratio(
    "min over a population I, one more user k (leaving I + k or joining I) and a user i of I of u_i(I) / u_i(I + k) (at least 1 when population monotonic)",
    Direction::Min,
    Property::Pm,
);

impl Metric for PmLoss {
    fn at(&self, at: &At) -> Result<Option<Evaluation>, SolverError> {
        let (mechanism, candidate, truth, utility) =
            (at.mechanism, at.candidate, at.truth, at.utility);
        let inst = &candidate.instance;
        let n = inst.num_users();
        // The other population's instance and answer, each user of I by its index in the
        // candidate's instance, in the smaller answer and in the larger one (a departure
        // shifts the users after the leaver down by one), and the user who left (none for a
        // join), whom each ratio is about.
        let (other_inst, other, users, departed): (Instance, Allocation, Vec<_>, _) =
            match &candidate.scenario {
                Scenario::Remove(l) => {
                    let l = *l;
                    if l >= n || n < 2 {
                        return Err(SolverError::invalid(
                            "witness.departed",
                            "no such user, or the only one",
                        ));
                    }
                    // A pool left without users disappears with its last user, as in the oracle.
                    let smaller = inst.without_user(l)?;
                    let after = mechanism.allocate(&smaller)?;
                    let users = (0..n)
                        .filter(|&i| i != l)
                        .map(|i| (i, if i > l { i - 1 } else { i }, i))
                        .collect();
                    (smaller, after, users, Some(l))
                }
                Scenario::Join(k) => {
                    if k.demand.len() != inst.num_resources() {
                        return Err(SolverError::invalid(
                            "witness.joined.demand",
                            "expected one entry per resource",
                        ));
                    }
                    let larger = joined(inst, k)?;
                    let after = mechanism.allocate(&larger)?;
                    (larger, after, (0..n).map(|i| (i, i, i)).collect(), None)
                }
                _ => return Err(needs(self, "a user who departs or joins")),
            };
        let joins = departed.is_none();
        let (small, large) = by_size(joins, truth, &other);
        let of = Of::new(candidate, truth, Some(&other));
        let mut best: Option<Evaluation> = None;
        for &(i, ks, kl) in &users {
            let s = utility.per_task(inst, i);
            let u = |t: &Rational| &utility_at_truth(inst, i, t) * &s;
            let (Some(a), Some(b)) = (spread(small, ks, u), spread(large, kl, u)) else {
                continue;
            };
            of.keep_ratio(&mut best, self.direction(), i, departed, &a, &b);
        }
        Ok(exact::or_exact(at, best, || {
            let Some((mine, theirs)) = exact::both(at, &other_inst)? else {
                return Ok(None);
            };
            let (small, large) = by_size(joins, &mine, &theirs);
            let rows = users.iter().map(|&(i, ks, kl)| {
                let s = utility.per_task(inst, i);
                (i, departed, [(&small[ks], s.clone()), (&large[kl], s)])
            });
            let ratios = exact::truth_ratios(inst, rows)?;
            exact::best(&of, self.direction(), ratios, &mine, Some(&theirs)).map(Some)
        }))
    }

    fn evaluate(&self, on: &Subject, ctx: &mut Ctx) -> Option<Evaluation> {
        let instance = on.instance;
        let n = instance.num_users();
        let m = instance.num_resources();
        let mut best = None;
        if n == 0 {
            return None;
        }
        // Tries a joiner; it becomes the climb's start (`current`) when its value is at most
        // the start's.
        let mut current: Option<(Rational, User)> = None;
        let join = |u: User, ctx: &mut Ctx, best: &mut _, current: &mut Option<(Rational, _)>| {
            if let Some(e) = on.try_scenario(self, Scenario::Join(u.clone()), ctx, best)
                && current.as_ref().is_none_or(|(c, _)| e.value <= *c)
            {
                *current = Some((e.value, u));
            }
        };
        // The elite's joiner first, when it fits this instance.
        if let Some(Scenario::Join(u)) = ctx.hint.clone()
            && u.demand.len() == m
        {
            join(u, ctx, &mut best, &mut current);
        }
        if n >= 2 {
            for l in 0..n {
                on.try_scenario(self, Scenario::Remove(l), ctx, &mut best);
            }
        }
        let values = &ctx.cfg.run.values;
        if ctx.grid_only() {
            for u in grid_joiners(instance, values) {
                if ctx.spent() {
                    break;
                }
                join(u, ctx, &mut best, &mut current);
            }
            return best;
        }
        for u in joiners(instance, values, &mut ctx.rng) {
            join(u, ctx, &mut best, &mut current);
        }
        for _ in 0..ctx.cfg.climb_steps / 4 {
            if ctx.spent() {
                break;
            }
            let Some((_, u)) = &current else {
                break;
            };
            let Some(next) = neighbour(instance, u, values, &mut ctx.rng) else {
                continue;
            };
            join(next, ctx, &mut best, &mut current);
        }
        // Knife-edge instances (super::knife), with the best scenario above.
        knife::instance_strata(self, on, ctx, &mut best);
        best
    }
}
