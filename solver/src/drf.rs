//! Dominant Resource Fairness by exact progressive filling: extended weighted DRF and
//! common-level DRF.
//!
//! A level `λ` rises from 0; every unfrozen user `i` holds `x_i = λ / s_i` tasks, where
//! `s_i = max_j d_ij / (R_j w_ij)` is the weighted dominant share of one task (with a scalar
//! weight, `μ_i / w_i`). So every unfrozen user's weighted dominant share equals `λ`.
//! - When a resource saturates, [`FreezeRule::DemandersOnly`] freezes exactly the users with
//!   positive demand for it (Parkes, Procaccia and Shah's extension to zero demands; the
//!   result is unique and Pareto efficient); [`FreezeRule::Everyone`] freezes everyone
//!   (*common-level DRF*, one fit factor shared by all).
//! - When a user reaches its task cap `T_i`, it freezes.
//!
//! With strictly positive demands and no caps both rules give the DRF paper's allocation:
//! everyone is frozen at the first saturation with equal weighted dominant shares.
//!
//! # Algorithm
//! Event-driven and exact. Resource `j`'s use at level `λ` is `A_j + λ B_j`, where `A_j` is
//! the frozen users' use and `B_j = Σ_unfrozen d_ij / s_i`; it saturates at
//! `(R_j − A_j) / B_j`. Freezing a user only lowers `B_j`, so a saturation level computed
//! earlier is a *lower bound* of the current one: levels are refreshed lazily, only for the
//! resource whose stale bound is the smallest, and cap events below every bound are applied
//! without recomputing anything. `A_j` and `B_j` are [`ExactSum`]s, so adding a term costs
//! one integer addition and big-integer work happens only when a level is refreshed.
//!
//! # Complexity
//! `O(n·m + n log n)` rational operations for `n` users and `m` resources: every user is
//! frozen once and touches its `m` resources; caps are sorted once; each event scans the
//! `m` saturation bounds. Times in `BENCHMARKS.md`.
//!
//! # Example
//! The DRF paper's running example (9 CPUs, 18 GB; A needs ⟨1, 4⟩, B ⟨3, 1⟩):
//! ```
//! use leontief_solver::{drf::progressive_filling, FreezeRule, Instance, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let fill = progressive_filling(&paper, FreezeRule::DemandersOnly);
//! assert_eq!(fill.tasks, vec![3.into(), 2.into()]);
//! assert_eq!(fill.levels[0].to_string(), "2/3"); // both hold 2/3 of their dominant resource
//! assert_eq!(fill.saturated, vec![0]);           // CPU
//! ```
//!
//! # References
//! - A. Ghodsi et al. *Dominant Resource Fairness: Fair Allocation of Multiple Resource
//!   Types.* NSDI 2011 (§4, progressive filling; §4.3, weighted DRF).
//! - D. Parkes, A. Procaccia, N. Shah. *Beyond Dominant Resource Fairness: Extensions,
//!   Limitations, and Indivisibilities.* EC 2012 (zero demands; the freeze rule).

use crate::{Allocation, ExactSum, Instance, Mechanism, Rational, SolverError};

/// Whom a saturated resource freezes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FreezeRule {
    /// Only the users with positive demand for the saturated resource (extended DRF).
    DemandersOnly,
    /// Every unfrozen user at the first saturation (common-level DRF). Caps still freeze
    /// users one by one before that.
    Everyone,
}

/// Why a user stopped growing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrozenBy {
    /// The user reached its task cap.
    Cap,
    /// A resource saturated (its index). Under [`FreezeRule::Everyone`] this can be a
    /// resource the user does not demand.
    Resource(usize),
}

/// One step of progressive filling.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FillEvent {
    /// The level `λ` (weighted dominant share of the growing users) at the event.
    pub level: Rational,
    /// What happened.
    pub cause: FrozenBy,
    /// The users frozen by it, in index order.
    pub frozen: Vec<usize>,
}

/// The outcome of progressive filling.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Filling {
    /// Tasks per user `x_i`.
    pub tasks: Vec<Rational>,
    /// Each user's weighted dominant share at the end (the level at which it froze).
    pub levels: Vec<Rational>,
    /// Why each user froze.
    pub frozen_by: Vec<FrozenBy>,
    /// The events in order of level.
    pub events: Vec<FillEvent>,
    /// Total use of each resource.
    pub consumption: Vec<Rational>,
    /// Resources used to capacity, in index order.
    pub saturated: Vec<usize>,
}

/// DRF as a [`Mechanism`]: extended weighted DRF or common-level DRF.
///
/// # Example
/// ```
/// use leontief_solver::{Drf, Instance, Mechanism, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert_eq!(Drf::extended().allocate(&paper).unwrap().tasks, vec![3.into(), 2.into()]);
/// assert_eq!(Drf::common_level().allocate(&paper).unwrap().tasks, vec![3.into(), 2.into()]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drf {
    rule: FreezeRule,
}

impl Drf {
    /// Extended weighted DRF (`drf`): a saturation freezes only its demanders.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Drf, Mechanism};
    /// assert_eq!(Drf::extended().name(), "drf");
    /// ```
    pub fn extended() -> Self {
        Drf {
            rule: FreezeRule::DemandersOnly,
        }
    }

    /// Common-level DRF (`drf-common-level`): the first saturation freezes everyone.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Drf, Instance, Mechanism, User};
    /// // B does not need CPU, yet common-level DRF stops it when CPU runs out.
    /// let inst = Instance::new(vec![1.into(), 1.into()],
    ///     vec![User::new("A", [1, 0]), User::new("B", [0, 1]), User::new("C", [1, 0])]).unwrap();
    /// let x = Drf::common_level().allocate(&inst).unwrap();
    /// assert_eq!(x.tasks[1].to_string(), "1/2");
    /// assert_eq!(Drf::extended().allocate(&inst).unwrap().tasks[1].to_string(), "1");
    /// ```
    pub fn common_level() -> Self {
        Drf {
            rule: FreezeRule::Everyone,
        }
    }

    /// The freeze rule.
    pub fn rule(&self) -> FreezeRule {
        self.rule
    }

    /// The full progressive-filling outcome (levels, events, saturated resources).
    pub fn fill(&self, instance: &Instance) -> Filling {
        progressive_filling(instance, self.rule)
    }
}

impl Mechanism for Drf {
    fn name(&self) -> &str {
        match self.rule {
            FreezeRule::DemandersOnly => "drf",
            FreezeRule::Everyone => "drf-common-level",
        }
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn allocate(&self, instance: &Instance) -> Result<Allocation, SolverError> {
        Ok(Allocation::new(self.fill(instance).tasks))
    }
}

/// Per-resource state of the filling.
struct ResourceState {
    /// Use by frozen users.
    frozen_use: ExactSum,
    /// Growth rate of use per unit of level, over unfrozen users.
    growth: ExactSum,
    /// Unfrozen users with positive demand.
    growing_users: usize,
    /// A lower bound of the saturation level (exact when `fresh`).
    bound: Option<Rational>,
    fresh: bool,
}

impl ResourceState {
    fn refresh(&mut self, capacity: &Rational) -> &Rational {
        if !self.fresh || self.bound.is_none() {
            let room = capacity - &self.frozen_use.value();
            let rate = self.growth.value();
            // growing_users > 0 and every term d_ij / s_i > 0, so the rate is positive.
            self.bound = Some(room / rate);
            self.fresh = true;
        }
        self.bound.as_ref().expect("just set")
    }
}

/// Exact progressive filling (see the [module docs](self)).
///
/// # Complexity
/// `O(n·m + n log n)` rational operations.
///
/// # Example
/// Zero demands, a weight and a cap (hand-derived: b's cap binds at level 1/5, resource 3
/// saturates at level 9/14):
/// ```
/// use leontief_solver::{drf::progressive_filling, FreezeRule, Instance, User};
/// let inst = Instance::new(vec![10.into(), 10.into(), 6.into()], vec![
///     User::new("a", [1, 0, 1]),
///     User::new("b", [2, 1, 0]).weight(2).cap(2),
///     User::new("c", [0, 3, 1]),
/// ]).unwrap();
/// let fill = progressive_filling(&inst, FreezeRule::DemandersOnly);
/// let shown: Vec<String> = fill.tasks.iter().map(|x| x.to_string()).collect();
/// assert_eq!(shown, ["27/7", "2", "15/7"]);
/// ```
pub fn progressive_filling(instance: &Instance, rule: FreezeRule) -> Filling {
    // Per-task weighted dominant share s_i: the level rises by s_i per task of user i.
    let task_share = in_chunks(instance.num_users(), |users| {
        users
            .map(|i| instance.task_weighted_share(i))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    progressive_filling_by(instance, task_share, rule)
}

/// Progressive filling on any per-task share: every unfrozen user `i` holds
/// `x_i = λ / task_share[i]` tasks as the level `λ` rises; saturations and caps freeze users
/// as in [`progressive_filling`]. DRF uses the weighted dominant share of a task; asset
/// fairness uses its weighted aggregate share. `task_share` must be positive, one per user.
///
/// # Complexity
/// `O(n·m + n log n)` rational operations.
///
/// # Example
/// Asset fairness on the DRF paper's example: shares per task 1/9 + 4/18 = 1/3 for A and
/// 3/9 + 1/18 = 7/18 for B; CPU binds at level 21/25 — A 63/25, B 54/25 tasks (the paper, §2.2).
/// ```
/// use leontief_solver::{drf::progressive_filling_by, FreezeRule, Instance, Rational, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let shares = vec![Rational::new(1, 3).unwrap(), Rational::new(7, 18).unwrap()];
/// let fill = progressive_filling_by(&paper, shares, FreezeRule::DemandersOnly);
/// assert_eq!(fill.tasks, vec![Rational::new(63, 25).unwrap(), Rational::new(54, 25).unwrap()]);
/// ```
pub fn progressive_filling_by(
    instance: &Instance,
    task_share: Vec<Rational>,
    rule: FreezeRule,
) -> Filling {
    let n = instance.num_users();
    let m = instance.num_resources();
    let users = instance.users();
    let capacity = instance.capacity();
    assert_eq!(task_share.len(), n, "one task share per user");
    assert!(
        task_share.iter().all(Rational::is_positive),
        "task shares must be positive"
    );

    let mut resources: Vec<ResourceState> = (0..m)
        .map(|_| ResourceState {
            frozen_use: ExactSum::new(),
            growth: ExactSum::new(),
            growing_users: 0,
            bound: None,
            fresh: false,
        })
        .collect();
    // Each user's growth rate on each resource it demands, d_ij / s_i, in compressed rows:
    // computed once, used when the filling starts and when the user freezes. Computed in
    // consecutive ranges of users on all cores; the sums are exact, so the ranges change
    // nothing in the result.
    let pieces = in_chunks(n, |range| {
        // Counted first: the entries are most of the filling's memory, grown once.
        let nonzero = range
            .clone()
            .map(|i| users[i].demand.iter().filter(|d| !d.is_zero()).count())
            .sum();
        let mut part = RatesPart {
            first: range.start,
            start: Vec::with_capacity(range.len() + 1),
            entries: Vec::with_capacity(nonzero),
        };
        let mut growth = vec![ExactSum::new(); m];
        let mut demanders: Vec<Vec<usize>> = vec![Vec::new(); m];
        for i in range {
            part.start.push(part.entries.len());
            let per_level = task_share[i].recip().expect("validated: positive share");
            for (j, d) in users[i].demand.iter().enumerate() {
                if !d.is_zero() {
                    let rate = d * &per_level;
                    growth[j].add(&rate);
                    demanders[j].push(i);
                    part.entries.push((j, rate));
                }
            }
        }
        part.start.push(part.entries.len());
        let growth: Vec<Rational> = growth.iter_mut().map(ExactSum::value).collect();
        (part, growth, demanders)
    });
    let mut rates = Rates { parts: Vec::new() };
    let mut demanders: Vec<Vec<usize>> = vec![Vec::new(); m];
    for (part, growth, piece_demanders) in pieces {
        for (j, (rate, users_j)) in growth.iter().zip(piece_demanders).enumerate() {
            resources[j].growth.add(rate);
            resources[j].growing_users += users_j.len();
            demanders[j].extend(users_j);
        }
        rates.parts.push(part);
    }

    // Cap events in order of level T_i * s_i (ties by index).
    let cap_level: Vec<Option<Rational>> = users
        .iter()
        .zip(&task_share)
        .map(|(u, s)| u.cap.as_ref().map(|t| t * s))
        .collect();
    let mut caps: Vec<usize> = (0..n).filter(|&i| cap_level[i].is_some()).collect();
    // Ties are broken by index, so the order is total and an unstable sort gives it.
    caps.sort_unstable_by(|&a, &b| cap_level[a].cmp(&cap_level[b]).then(a.cmp(&b)));
    let mut next_cap = caps.into_iter().peekable();

    let mut tasks: Vec<Option<Rational>> = vec![None; n];
    let mut levels = vec![Rational::ZERO; n];
    let mut frozen_by = vec![FrozenBy::Cap; n];
    let mut events = Vec::new();
    let mut unfrozen = n;

    while unfrozen > 0 {
        while next_cap.peek().is_some_and(|&i| tasks[i].is_some()) {
            next_cap.next();
        }
        let cap = next_cap
            .peek()
            .map(|&i| (i, cap_level[i].as_ref().expect("capped")));
        if let Some((j, level)) = next_saturation(&mut resources, capacity, cap.map(|c| c.1)) {
            let victims: Vec<usize> = match rule {
                FreezeRule::DemandersOnly => demanders[j]
                    .iter()
                    .copied()
                    .filter(|&i| tasks[i].is_none())
                    .collect(),
                FreezeRule::Everyone => (0..n).filter(|&i| tasks[i].is_none()).collect(),
            };
            freeze_group(
                &victims,
                &level,
                &rates,
                &task_share,
                &mut resources,
                &mut tasks,
            );
            for &i in &victims {
                levels[i] = level.clone();
                frozen_by[i] = FrozenBy::Resource(j);
            }
            unfrozen -= victims.len();
            events.push(FillEvent {
                level,
                cause: FrozenBy::Resource(j),
                frozen: victims,
            });
        } else {
            let (i, level) = cap.expect("no saturation left means a cap is pending");
            let level = level.clone();
            let x = users[i].cap.clone().expect("capped");
            for (j, rate) in rates.of(i) {
                let r = &mut resources[*j];
                r.frozen_use.add(&(&users[i].demand[*j] * &x));
                r.growth.sub(rate);
                r.growing_users -= 1;
                r.fresh = false;
            }
            tasks[i] = Some(x);
            levels[i] = level.clone();
            frozen_by[i] = FrozenBy::Cap;
            unfrozen -= 1;
            next_cap.next();
            events.push(FillEvent {
                level,
                cause: FrozenBy::Cap,
                frozen: vec![i],
            });
        }
    }

    let consumption: Vec<Rational> = resources.iter_mut().map(|r| r.frozen_use.value()).collect();
    let saturated = (0..m).filter(|&j| consumption[j] == capacity[j]).collect();
    Filling {
        tasks: tasks
            .into_iter()
            .map(|x| x.expect("every user froze"))
            .collect(),
        levels,
        frozen_by,
        events,
        consumption,
        saturated,
    }
}

/// The resource that saturates first among those still growing and its exact level, if
/// that level is at most `limit` (the next cap event). Stale bounds are refreshed only while
/// they are the smallest and not above `limit`: a stale bound above the next cap proves the
/// cap comes first without computing anything.
fn next_saturation(
    resources: &mut [ResourceState],
    capacity: &[Rational],
    limit: Option<&Rational>,
) -> Option<(usize, Rational)> {
    loop {
        let mut best: Option<usize> = None;
        for j in 0..resources.len() {
            if resources[j].growing_users == 0 {
                continue;
            }
            if resources[j].bound.is_none() {
                resources[j].refresh(&capacity[j]);
            }
            let better = match best {
                None => true,
                Some(b) => resources[j].bound < resources[b].bound,
            };
            if better {
                best = Some(j);
            }
        }
        let j = best?;
        let bound = resources[j].bound.as_ref().expect("set above");
        if limit.is_some_and(|cap| bound > cap) {
            return None;
        }
        if resources[j].fresh {
            return Some((j, bound.clone()));
        }
        // A stale bound is only a lower bound: make it exact and look again.
        resources[j].refresh(&capacity[j]);
    }
}

/// Freezes `group` at `level`: `x_i = level / s_i`. The group's use of each resource is
/// summed first and multiplied by the level once, and taken off the growth rate as one
/// term, which keeps big-integer work per event, not per user. The users' divisions are
/// split over all cores in consecutive ranges (the result does not depend on the ranges).
fn freeze_group(
    group: &[usize],
    level: &Rational,
    rates: &Rates,
    task_share: &[Rational],
    resources: &mut [ResourceState],
    tasks: &mut [Option<Rational>],
) {
    let m = resources.len();
    let pieces = in_chunks(group.len(), |range| {
        let mut rate_sum = vec![ExactSum::new(); m];
        let mut count = vec![0usize; m];
        let x: Vec<Rational> = group[range]
            .iter()
            .map(|&i| {
                for (j, rate) in rates.of(i) {
                    rate_sum[*j].add(rate);
                    count[*j] += 1;
                }
                level / &task_share[i]
            })
            .collect();
        let rate_sum: Vec<Rational> = rate_sum.iter_mut().map(ExactSum::value).collect();
        (x, rate_sum, count)
    });
    let mut group_rate = vec![ExactSum::new(); m];
    let mut group_count = vec![0usize; m];
    let mut members = group.iter();
    for (x, rate_sum, count) in pieces {
        for (x, &i) in x.into_iter().zip(members.by_ref()) {
            tasks[i] = Some(x);
        }
        for j in (0..m).filter(|&j| count[j] > 0) {
            group_rate[j].add(&rate_sum[j]);
            group_count[j] += count[j];
        }
    }
    for j in (0..m).filter(|&j| group_count[j] > 0) {
        let rate = group_rate[j].value();
        let r = &mut resources[j];
        r.growth.sub(&rate);
        r.growing_users -= group_count[j];
        r.fresh = false;
        r.frozen_use.add(&(level * &rate));
    }
}

/// Growth rates `d_ij / s_i` of every user on the resources it demands, in compressed rows
/// held by consecutive ranges of users.
struct Rates {
    parts: Vec<RatesPart>,
}

/// The rates of the users from `first` on: user `first + k`'s are
/// `entries[start[k]..start[k + 1]]`.
struct RatesPart {
    first: usize,
    start: Vec<usize>,
    entries: Vec<(usize, Rational)>,
}

impl Rates {
    fn of(&self, i: usize) -> &[(usize, Rational)] {
        let part = &self.parts[self.parts.partition_point(|p| p.first <= i) - 1];
        let k = i - part.first;
        &part.entries[part.start[k]..part.start[k + 1]]
    }
}

/// From how many items [`in_chunks`] splits the work over threads (below that, starting
/// threads costs more than it saves).
const PARALLEL_FROM: usize = 20_000;

/// `work` on consecutive ranges covering `0..n`, one per thread (up to
/// `available_parallelism`, at most 8; a single range below [`PARALLEL_FROM`]), the results
/// in the order of the ranges. The callers' results do not depend on the ranges, so the
/// output does not depend on the thread count.
fn in_chunks<T: Send>(n: usize, work: impl Fn(std::ops::Range<usize>) -> T + Sync) -> Vec<T> {
    let threads = if n < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |t| t.get().min(8))
    };
    let per = n.div_ceil(threads).max(1);
    let ranges: Vec<std::ops::Range<usize>> =
        (0..n).step_by(per).map(|a| a..(a + per).min(n)).collect();
    if ranges.len() <= 1 {
        return vec![work(0..n)];
    }
    std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = ranges[1..]
            .iter()
            .cloned()
            .map(|range| scope.spawn(move || work(range)))
            .collect();
        let mut out = vec![work(ranges[0].clone())];
        out.extend(
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))),
        );
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::User;

    /// Groups of more than [`PARALLEL_FROM`] users (rates, shares and freezes split over
    /// threads) freeze as derived by hand. 50,000 users on CPU 30,000 and memory 50,000:
    /// even users demand ⟨1, 0⟩ (share per task 1/30,000), every fifth of them capped at
    /// 1/2 task (the users `i ≡ 0 mod 10`: 5,000 of the 25,000 even users); odd users
    /// ⟨0, 2⟩ (share per task 2/50,000 = 1/25,000).
    /// - The caps bind first, at level (1/2)/30,000 = 1/60,000.
    /// - Memory: 25,000 users × 2x = 50,000 gives x = 1 at level 1/25,000.
    /// - CPU: 5,000 capped users hold 2,500; the other 20,000 share 27,500, x = 11/8, at
    ///   level (11/8)/30,000 = 11/240,000 > 1/25,000, so memory saturates first.
    #[test]
    fn large_groups_freeze_as_derived() {
        let users: Vec<User> = (0..50_000)
            .map(|i| match (i % 2, i % 10) {
                (0, 0) => User::new(format!("a{i}"), [1, 0]).cap(Rational::new(1, 2).unwrap()),
                (0, _) => User::new(format!("a{i}"), [1, 0]),
                _ => User::new(format!("b{i}"), [0, 2]),
            })
            .collect();
        let inst = Instance::new(vec![30_000.into(), 50_000.into()], users).unwrap();
        assert!(inst.num_users() >= 2 * PARALLEL_FROM);
        let fill = progressive_filling(&inst, FreezeRule::DemandersOnly);
        let half = Rational::new(1, 2).unwrap();
        let cpu_share = Rational::new(11, 8).unwrap();
        for (i, x) in fill.tasks.iter().enumerate() {
            let expected = match (i % 2, i % 10) {
                (0, 0) => &half,
                (0, _) => &cpu_share,
                _ => &Rational::ONE,
            };
            assert_eq!(x, expected, "user {i}");
        }
        assert_eq!(fill.levels[0], Rational::new(1, 60_000).unwrap());
        assert_eq!(fill.levels[1], Rational::new(1, 25_000).unwrap());
        assert_eq!(fill.levels[2], Rational::new(11, 240_000).unwrap());
        assert_eq!(fill.consumption, vec![30_000.into(), 50_000.into()]);
        assert_eq!(fill.saturated, vec![0, 1]);
        // 5,000 cap events, then memory (25,000 users), then CPU (20,000 users).
        assert_eq!(fill.events.len(), 5_002);
        assert_eq!(fill.events[5_000].frozen.len(), 25_000);
        assert_eq!(fill.events[5_001].frozen.len(), 20_000);
    }
}
