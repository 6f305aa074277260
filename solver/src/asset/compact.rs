//! Asset fairness in the *level-coefficient* form: the exact answer without writing every
//! user's fraction out (`docs/theory.md` §2.4).
//!
//! Progressive filling on aggregate shares gives every user frozen by a saturation
//! `x_i = λ_k · c_i`, where `λ_k` is the level of the `k`-th saturation event and
//! `c_i = 1 / a_i` is the inverse of the user's aggregate share per task
//! ([`asset_task_share`](super::asset_task_share)), a small fraction of the instance's own
//! numbers; a user frozen by its cap holds exactly `T_i` tasks. There are at most `m`
//! saturation events, so the answer is at most `m` levels and `n` small coefficients. The
//! levels are the large part: `λ_k` is a ratio of sums of `d_ij c_i` over many users, whose
//! denominator grows with the number of distinct aggregate shares (thousands of digits at a
//! thousand users with distinct capacities).
//!
//! # Algorithm
//! The events are those of [`progressive_filling_by`](crate::drf::progressive_filling_by),
//! decided in the same order with the same ties (a saturation at the level of a cap comes
//! first; among resources saturating at the same level, the lowest index), but without
//! computing the levels exactly:
//! - every quantity the decisions need — the growth rates `B_j = Σ d_ij c_i` over the growing
//!   users, the frozen use, the saturation levels — is kept as an *interval* of fixed-point
//!   numbers `[lo, hi] / 2^F` with `F` bits after the point ([`Interval`]). A rate `d_ij c_i`
//!   enters `B_j` as the integer `t_ij = ⌊d_ij ⌊c_i 2^F⌋⌋` with an integer error bound
//!   `e_ij > d_ij c_i 2^F − t_ij ≥ 0`; sums and removals of these integers are exact, so
//!   `B_j` stays within `[Σ t, Σ t + Σ e]` however many users come and go;
//! - a decision (which resource saturates first, and whether before the next cap) is taken
//!   from the intervals when they are disjoint, and from exact rationals otherwise (the exact
//!   saturation level from exact balanced sums, [`balanced_sum`]). A decision taken from
//!   disjoint intervals is the exact decision, because each interval contains its exact value.
//!
//! The exact levels are computed only when asked ([`CompactFilling::exact_level`]), by
//! balanced sums of the groups' rates: `λ_k = (R_j − A_j − Σ_{k'<k} λ_{k'} G_{k'j}) / G_{kj}`
//! for the event's resource `j`, with `A_j` the capped users' exact use at the event and
//! `G_{kj} = Σ_{i frozen at k} d_ij c_i`.
//!
//! # Complexity
//! `O(n·m)` fixed-point operations on `F`-bit numbers for the decisions, plus `O(n log n)`
//! for sorting the caps; exact work only where two intervals overlap (ties and near ties).
//! The exact levels cost balanced sums of `n·m` terms.

use std::cell::OnceCell;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use crate::drf::{FillEvent, Filling, FrozenBy};
use crate::exact_sum::balanced_sum;
use crate::{ExactSum, Instance, Rational};

/// Bits after the point beyond the size of the instance's numbers (see [`precision`]).
const GUARD_BITS: u64 = 192;

/// A closed interval `[lo, hi] / 2^F` of fixed-point numbers (`F` known from the context)
/// that contains an exact value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Interval {
    /// Lower end, scaled by `2^F`.
    pub lo: BigInt,
    /// Upper end, scaled by `2^F`.
    pub hi: BigInt,
}

impl Interval {
    /// The tightest interval around the exact `x`: `[⌊x 2^F⌋, ⌈x 2^F⌉]`.
    fn of(x: &Rational, f: u64) -> Self {
        let num = x.numer() << f;
        let den = x.denom();
        let (q, r) = num.div_mod_floor(&den);
        let hi = if r.is_zero() { q.clone() } else { &q + 1 };
        Interval { lo: q, hi }
    }

    /// Whether every value of the interval is at most `x`.
    fn at_most(&self, x: &Rational, f: u64) -> bool {
        &self.hi * x.denom() <= x.numer() << f
    }

    /// Whether every value of the interval is above `x` (strictly).
    fn above(&self, x: &Rational, f: u64) -> bool {
        &self.lo * x.denom() > x.numer() << f
    }

    /// The ends as exact rationals, `lo / 2^F` and `hi / 2^F`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::asset::Interval;
    /// let i = Interval { lo: 5.into(), hi: 7.into() };
    /// assert_eq!(i.bounds(2), ("5/4".parse().unwrap(), "7/4".parse().unwrap()));
    /// ```
    pub fn bounds(&self, f: u64) -> (Rational, Rational) {
        let scale = BigInt::one() << f;
        (
            Rational::from_big_parts(self.lo.clone(), scale.clone()).expect("positive"),
            Rational::from_big_parts(self.hi.clone(), scale).expect("positive"),
        )
    }
}

/// `⌈a / 2^f⌉` for `a ≥ 0`.
fn shr_ceil(a: BigInt, f: u64) -> BigInt {
    let one = BigInt::one() << f;
    (a + &one - 1) >> f
}

/// How user `i`'s tasks are given.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompactTasks {
    /// Exactly this many tasks (a user frozen by its cap: its cap `T_i`).
    Exact(Rational),
    /// `levels[level] × coefficient` tasks: a user frozen by the `level`-th saturation event,
    /// with `coefficient = 1 / a_i`.
    Level {
        /// Index of the saturation event (into [`CompactFilling::saturations`]).
        level: usize,
        /// The user's coefficient `c_i = 1 / a_i`.
        coefficient: Rational,
    },
}

/// One saturation event of the compact filling.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Saturation {
    /// The resource that saturated.
    pub resource: usize,
    /// An interval around the event's level `λ_k` (scale `2^F`, [`CompactFilling::precision`]).
    pub bounds: Interval,
    /// The capped users' exact use of `resource` at the event.
    capped_use: Rational,
    /// Index of the event in [`CompactFilling::events`].
    pub event: usize,
    exact: OnceCell<Rational>,
}

/// The level at which an event happened.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventLevel {
    /// A cap event at this exact (small) level `T_i a_i`.
    Cap(Rational),
    /// The `k`-th saturation event's level `λ_k`.
    Saturation(usize),
}

/// One event of the compact filling, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompactEvent {
    /// Its level.
    pub level: EventLevel,
    /// What happened.
    pub cause: FrozenBy,
    /// The users frozen by it, in index order.
    pub frozen: Vec<usize>,
}

/// Asset fairness's exact answer in the level-coefficient form (`docs/theory.md` §2.4).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CompactFilling {
    /// Each user's tasks.
    pub tasks: Vec<CompactTasks>,
    /// Why each user froze.
    pub frozen_by: Vec<FrozenBy>,
    /// The events in order of level.
    pub events: Vec<CompactEvent>,
    /// The saturation events, in order (the levels `λ_k`).
    pub saturations: Vec<Saturation>,
    /// Resources used to capacity, in index order.
    pub saturated: Vec<usize>,
    /// Bits after the point of the fixed-point intervals (`F`).
    pub precision: u64,
    coefficients: Vec<Rational>,
    cap_level: Vec<Option<Rational>>,
    /// Capped users' exact use of each resource at the end.
    capped_use: Vec<Rational>,
    /// Interval around the use by users frozen at saturations, per resource.
    saturated_use: Vec<Interval>,
    group_exact: Vec<Vec<OnceCell<Rational>>>,
    /// Users of each saturation group.
    groups: Vec<Vec<usize>>,
}

/// `F` for an instance: [`GUARD_BITS`] plus the size of the largest aggregate share per
/// task, so that every coefficient `c_i = 1/a_i` keeps at least `GUARD_BITS` bits.
fn precision(shares: &[Rational]) -> u64 {
    let widest = shares
        .iter()
        .map(|a| a.numer().bits().saturating_sub(a.denom().bits()))
        .max()
        .unwrap_or(0);
    GUARD_BITS + widest
}

/// The fixed-point rate of user `i` on a resource: `t = ⌊d ĉ⌋` with `ĉ = ⌊c 2^F⌋`, and an
/// integer `e` with `t ≤ d c 2^F < t + e`.
///
/// Why: `ĉ ≤ c 2^F < ĉ + 1`, so `d ĉ ≤ d c 2^F < d ĉ + d`. For an integer `d`, `t = d ĉ`
/// and `e = d` (with `e ≥ 1` since `d > 0`). Otherwise `t ≤ d ĉ < t + 1`, so
/// `d c 2^F < t + 1 + d ≤ t + ⌊d⌋ + 2`.
fn fixed_rate(d: &Rational, c_hat: &BigInt) -> (BigInt, BigInt) {
    match d.as_small() {
        Some((k, 1)) => (c_hat * k, BigInt::from(k)),
        _ => {
            let t = (d.numer() * c_hat).div_floor(&d.denom());
            let e = d.floor().numer() + 2;
            (t, e)
        }
    }
}

/// The run of the filling: the state the decisions need.
struct Run<'a> {
    inst: &'a Instance,
    f: u64,
    c_hat: Vec<BigInt>,
    /// Σ t and Σ e over the growing users, per resource.
    rate_sum: Vec<BigInt>,
    rate_err: Vec<BigInt>,
    growing: Vec<usize>,
    demanders: Vec<Vec<usize>>,
    capped_use: Vec<ExactSum>,
    frozen: Vec<bool>,
    /// The answer's saturations so far, with their groups and the use they hold.
    fill: CompactFilling,
}

impl Run<'_> {
    /// Exact use of `j` by the users frozen at saturations so far.
    fn saturated_use_exact(&self, j: usize) -> Rational {
        let k = self.fill.saturations.len();
        self.fill.saturated_use_exact(self.inst, j, k)
    }

    /// The exact level at which `j` saturates if nothing else happens first.
    fn saturation_exact(&mut self, j: usize) -> Rational {
        let growing: Vec<usize> = self.demanders[j]
            .iter()
            .copied()
            .filter(|&i| !self.frozen[i])
            .collect();
        let rate = exact_rates(self.inst, &self.fill.coefficients, &growing, j);
        let room =
            &self.inst.capacity()[j] - &self.capped_use[j].value() - self.saturated_use_exact(j);
        room / rate
    }

    /// An interval around the level at which `j` saturates, or `None` when the rate's
    /// interval reaches zero (then only the exact level decides).
    fn saturation_bounds(&mut self, j: usize) -> Option<Interval> {
        let f = self.f;
        let b_lo = &self.rate_sum[j];
        if !b_lo.is_positive() {
            return None;
        }
        let b_hi = b_lo + &self.rate_err[j];
        let free = Interval::of(&(&self.inst.capacity()[j] - &self.capped_use[j].value()), f);
        let room_lo = free.lo - &self.fill.saturated_use[j].hi;
        let room_hi = free.hi - &self.fill.saturated_use[j].lo;
        if !room_hi.is_positive() {
            return None;
        }
        // λ > 0 in truth, so a negative lower end is replaced by 0.
        let lo = if room_lo.is_positive() {
            (room_lo << f).div_floor(&b_hi)
        } else {
            BigInt::zero()
        };
        let hi = (room_hi << f).div_ceil(b_lo);
        Some(Interval { lo, hi })
    }

    /// Stops user `i`'s growth on every resource it demands.
    fn stop(&mut self, i: usize) -> Vec<(usize, BigInt, BigInt)> {
        self.frozen[i] = true;
        let mut out = Vec::new();
        for (j, d) in self.inst.users()[i].demand.iter().enumerate() {
            if !d.is_zero() {
                let (t, e) = fixed_rate(d, &self.c_hat[i]);
                self.rate_sum[j] -= &t;
                self.rate_err[j] -= &e;
                self.growing[j] -= 1;
                out.push((j, t, e));
            }
        }
        out
    }
}

/// `Σ_{i ∈ users} d_ij c_i`, exactly.
fn exact_rates(inst: &Instance, coefficients: &[Rational], users: &[usize], j: usize) -> Rational {
    balanced_sum(users.iter().filter_map(|&i| {
        let d = &inst.users()[i].demand[j];
        (!d.is_zero()).then(|| d * &coefficients[i])
    }))
}

/// Every user's aggregate share per task, [`asset_task_share`](super::asset_task_share),
/// over one common denominator: with `D` the lcm of the denominators of the `1/R_j` and
/// `K_j = D/R_j` (integers), a user with integer demands and a scalar weight `w` has
/// `a_i = Σ_j d_ij K_j / (D w)`, integer products and sums and one reduction, instead of `m`
/// additions of fractions whose common denominator (the lcm of distinct capacities) outgrows
/// machine words. Users with fractional demands or per-resource weights take the sum as
/// written.
fn task_shares(instance: &Instance) -> Vec<Rational> {
    let inverse: Vec<Rational> = instance
        .capacity()
        .iter()
        .map(|r| r.recip().expect("validated: positive capacity"))
        .collect();
    let d = inverse
        .iter()
        .fold(BigInt::one(), |acc, x| acc.lcm(&x.denom()));
    let k: Vec<BigInt> = inverse
        .iter()
        .map(|x| x.numer() * (&d / x.denom()))
        .collect();
    (0..instance.num_users())
        .map(|i| {
            let u = &instance.users()[i];
            let integer = u.resource_weights.is_none()
                && u.demand
                    .iter()
                    .all(|x| matches!(x.as_small(), Some((_, 1))));
            if !integer {
                return super::asset_task_share(instance, i);
            }
            let mut num = BigInt::zero();
            for (x, kj) in u.demand.iter().zip(&k) {
                if let Some((e, 1)) = x.as_small()
                    && e != 0
                {
                    num += kj * e;
                }
            }
            let w = &u.weight;
            // Dividing the two integers reduces with the Lehmer gcd of `Rational`.
            Rational::from(num * w.denom()) / Rational::from(&d * w.numer())
        })
        .collect()
}

/// Asset fairness's progressive filling in the level-coefficient form (`docs/theory.md`
/// §2.4).
///
/// # Example
/// The DRF paper's example: asset fairness freezes both users when CPU saturates at level
/// 21/25; A's coefficient is 1/(1/9 + 4/18) = 3 and B's 1/(3/9 + 1/18) = 18/7, so A holds
/// 21/25 × 3 = 63/25 tasks and B 21/25 × 18/7 = 54/25 (paper, §2.2).
/// ```
/// use leontief_solver::asset::{fill_compact, CompactTasks};
/// use leontief_solver::{Instance, Rational, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// let fill = fill_compact(&paper);
/// assert_eq!(fill.exact_level(&paper, 0), Rational::new(21, 25).unwrap());
/// assert_eq!(fill.tasks[1], CompactTasks::Level { level: 0, coefficient: Rational::new(18, 7).unwrap() });
/// assert_eq!(fill.expand(&paper).tasks[1], Rational::new(54, 25).unwrap());
/// ```
pub fn fill_compact(instance: &Instance) -> CompactFilling {
    let n = instance.num_users();
    let m = instance.num_resources();
    let users = instance.users();
    let shares = task_shares(instance);
    let f = precision(&shares);
    let coefficients: Vec<Rational> = shares
        .iter()
        .map(|a| a.recip().expect("validated: positive aggregate share"))
        .collect();
    let c_hat: Vec<BigInt> = coefficients.iter().map(|c| Interval::of(c, f).lo).collect();
    let mut run = Run {
        inst: instance,
        f,
        c_hat,
        rate_sum: vec![BigInt::zero(); m],
        rate_err: vec![BigInt::zero(); m],
        growing: vec![0; m],
        demanders: vec![Vec::new(); m],
        capped_use: vec![ExactSum::new(); m],
        frozen: vec![false; n],
        fill: CompactFilling {
            tasks: Vec::new(),
            frozen_by: vec![FrozenBy::Cap; n],
            events: Vec::new(),
            saturations: Vec::new(),
            saturated: Vec::new(),
            precision: f,
            coefficients,
            cap_level: Vec::new(),
            capped_use: Vec::new(),
            saturated_use: vec![Interval::default(); m],
            group_exact: Vec::new(),
            groups: Vec::new(),
        },
    };
    for (i, u) in users.iter().enumerate() {
        for (j, d) in u.demand.iter().enumerate() {
            if !d.is_zero() {
                let (t, e) = fixed_rate(d, &run.c_hat[i]);
                run.rate_sum[j] += t;
                run.rate_err[j] += e;
                run.growing[j] += 1;
                run.demanders[j].push(i);
            }
        }
    }

    // Cap events in order of level T_i a_i (ties by index), as in progressive filling.
    let cap_level: Vec<Option<Rational>> = users
        .iter()
        .zip(&shares)
        .map(|(u, a)| u.cap.as_ref().map(|t| t * a))
        .collect();
    // Sorted by the levels' fixed-point lower ends (integers, cheap to compare), then exactly
    // where those are equal: the same order as sorting the exact levels.
    let mut caps: Vec<(BigInt, usize)> = (0..n)
        .filter_map(|i| cap_level[i].as_ref().map(|l| (Interval::of(l, f).lo, i)))
        .collect();
    caps.sort_by(|(ka, a), (kb, b)| {
        ka.cmp(kb)
            .then_with(|| cap_level[*a].cmp(&cap_level[*b]))
            .then(a.cmp(b))
    });
    let mut next_cap = caps.into_iter().map(|(_, i)| i).peekable();

    let mut tasks: Vec<Option<CompactTasks>> = vec![None; n];
    let mut bounds: Vec<Option<Option<Interval>>> = vec![None; m];
    let mut unfrozen = n;

    while unfrozen > 0 {
        while next_cap.peek().is_some_and(|&i| run.frozen[i]) {
            next_cap.next();
        }
        let cap = next_cap.peek().copied();
        let kappa = cap.map(|i| cap_level[i].clone().expect("capped"));
        let live: Vec<usize> = (0..m).filter(|&j| run.growing[j] > 0).collect();
        for &j in &live {
            if bounds[j].is_none() {
                bounds[j] = Some(run.saturation_bounds(j));
            }
        }
        let known = |j: usize| bounds[j].as_ref().and_then(Option::as_ref);
        // A cap below every saturation level comes first, whatever resource saturates next.
        let cap_first = kappa.as_ref().is_some_and(|k| {
            live.iter()
                .all(|&j| known(j).is_some_and(|b| b.above(k, f)))
        });
        let saturation = if cap_first {
            None
        } else {
            // Resources that may saturate first: those whose interval reaches the smallest
            // upper end (and those without an interval).
            let min_hi = live
                .iter()
                .filter_map(|&j| known(j).map(|b| b.hi.clone()))
                .min();
            let candidates: Vec<usize> = live
                .iter()
                .copied()
                .filter(|&j| match (known(j), &min_hi) {
                    (Some(b), Some(h)) => &b.lo <= h,
                    _ => true,
                })
                .collect();
            let (j, exact) = match candidates[..] {
                [j] if known(j).is_some() => (j, None),
                _ => {
                    // Overlapping intervals (or none): the exact levels decide (the first,
                    // the lowest index, on ties).
                    let (j, x) = (candidates.iter())
                        .map(|&j| (j, run.saturation_exact(j)))
                        .min_by(|a, b| a.1.cmp(&b.1))
                        .expect("a growing resource exists while users are unfrozen");
                    (j, Some(x))
                }
            };
            match (&kappa, exact) {
                (None, exact) => Some((j, exact)),
                (Some(k), Some(x)) => (x <= *k).then_some((j, Some(x))),
                (Some(k), None) => {
                    let b = known(j).expect("checked");
                    if b.at_most(k, f) {
                        Some((j, None))
                    } else if b.above(k, f) {
                        None
                    } else {
                        let x = run.saturation_exact(j);
                        (x <= *k).then_some((j, Some(x)))
                    }
                }
            }
        };

        if let Some((j, exact)) = saturation {
            let k = run.fill.saturations.len();
            let level_bounds = match &exact {
                Some(x) => Interval::of(x, f),
                None => known(j).expect("decided from the interval").clone(),
            };
            let victims: Vec<usize> = run.demanders[j]
                .iter()
                .copied()
                .filter(|&i| !run.frozen[i])
                .collect();
            let mut g_sum = vec![BigInt::zero(); m];
            let mut g_err = vec![BigInt::zero(); m];
            for &i in &victims {
                for (j2, t, e) in run.stop(i) {
                    g_sum[j2] += t;
                    g_err[j2] += e;
                    bounds[j2] = None;
                }
                tasks[i] = Some(CompactTasks::Level {
                    level: k,
                    coefficient: run.fill.coefficients[i].clone(),
                });
                run.fill.frozen_by[i] = FrozenBy::Resource(j);
            }
            // The group's use, from the intervals of its rate sums G_kj.
            for ((u, lo), err) in run.fill.saturated_use.iter_mut().zip(&g_sum).zip(&g_err) {
                let hi = lo + err;
                if hi.is_positive() {
                    u.lo += (&level_bounds.lo * lo) >> f;
                    u.hi += shr_ceil(&level_bounds.hi * &hi, f);
                }
            }
            run.fill.saturations.push(Saturation {
                resource: j,
                bounds: level_bounds,
                capped_use: run.capped_use[j].value(),
                event: run.fill.events.len(),
                exact: exact.map_or_else(OnceCell::new, OnceCell::from),
            });
            run.fill.groups.push(victims.clone());
            run.fill
                .group_exact
                .push((0..m).map(|_| OnceCell::new()).collect());
            unfrozen -= victims.len();
            run.fill.events.push(CompactEvent {
                level: EventLevel::Saturation(k),
                cause: FrozenBy::Resource(j),
                frozen: victims,
            });
        } else {
            let i = cap.expect("no saturation first means a cap is pending");
            let t = users[i].cap.clone().expect("capped");
            for (j, _, _) in run.stop(i) {
                run.capped_use[j].add(&(&users[i].demand[j] * &t));
                bounds[j] = None;
            }
            tasks[i] = Some(CompactTasks::Exact(t));
            run.fill.frozen_by[i] = FrozenBy::Cap;
            unfrozen -= 1;
            next_cap.next();
            run.fill.events.push(CompactEvent {
                level: EventLevel::Cap(kappa.expect("capped")),
                cause: FrozenBy::Cap,
                frozen: vec![i],
            });
        }
    }

    let capped_use: Vec<Rational> = run.capped_use.iter_mut().map(ExactSum::value).collect();
    // Saturated resources: every event's resource, and any other whose use reaches its
    // capacity (decided from the use's interval when it stays below, exactly otherwise).
    let saturated = (0..m)
        .filter(|&j| {
            let (cap, used) = (&instance.capacity()[j], &capped_use[j]);
            run.fill.saturations.iter().any(|s| s.resource == j) || {
                // use < R  ⇐  saturated use's upper end < R − capped use's lower end
                let free = Interval::of(&(cap - used), f);
                run.fill.saturated_use[j].hi >= free.lo
                    && used + &run.saturated_use_exact(j) == *cap
            }
        })
        .collect();
    CompactFilling {
        tasks: tasks
            .into_iter()
            .map(|x| x.expect("every user froze"))
            .collect(),
        saturated,
        cap_level,
        capped_use,
        ..run.fill
    }
}

impl CompactFilling {
    /// `G_kj`, the rate sum of saturation group `k` on resource `j` (computed once, then
    /// cached).
    fn group_rate(&self, instance: &Instance, k: usize, j: usize) -> &Rational {
        self.group_exact[k][j]
            .get_or_init(|| exact_rates(instance, &self.coefficients, &self.groups[k], j))
    }

    /// Exact use of `j` by the users frozen at the first `k` saturations.
    fn saturated_use_exact(&self, instance: &Instance, j: usize, k: usize) -> Rational {
        balanced_sum(
            (0..k).map(|k2| self.exact_level(instance, k2) * self.group_rate(instance, k2, j)),
        )
    }

    /// The `k`-th saturation level `λ_k`, exactly (computed once, then cached). `instance`
    /// must be the instance the filling was computed from.
    pub fn exact_level(&self, instance: &Instance, k: usize) -> Rational {
        let s = &self.saturations[k];
        s.exact
            .get_or_init(|| {
                let j = s.resource;
                let used = self.saturated_use_exact(instance, j, k);
                (&instance.capacity()[j] - &s.capped_use - used) / self.group_rate(instance, k, j)
            })
            .clone()
    }

    /// The level at which user `i` froze, exactly: its cap level `T_i a_i` or its
    /// saturation's `λ_k`.
    pub fn user_level(&self, instance: &Instance, i: usize) -> Rational {
        match &self.tasks[i] {
            CompactTasks::Exact(_) => self.cap_level[i].clone().expect("frozen by its cap"),
            CompactTasks::Level { level, .. } => self.exact_level(instance, *level),
        }
    }

    /// User `i`'s tasks, exactly.
    pub fn exact_tasks(&self, instance: &Instance, i: usize) -> Rational {
        match &self.tasks[i] {
            CompactTasks::Exact(t) => t.clone(),
            CompactTasks::Level { level, coefficient } => {
                self.exact_level(instance, *level) * coefficient
            }
        }
    }

    /// Total use of resource `j`, exactly.
    pub fn consumption_of(&self, instance: &Instance, j: usize) -> Rational {
        let sat = self.saturated_use_exact(instance, j, self.saturations.len());
        &self.capped_use[j] + &sat
    }

    /// Intervals around each resource's total use (scale `2^F`).
    pub fn consumption_bounds(&self) -> Vec<(Rational, Rational)> {
        let f = self.precision;
        (self.capped_use.iter().zip(&self.saturated_use))
            .map(|(capped, used)| {
                let (l, h) = used.bounds(f);
                (capped + &l, capped + &h)
            })
            .collect()
    }

    /// The full exact outcome, as [`progressive_filling_by`](crate::drf::progressive_filling_by)
    /// gives it: every task count, level and event level written out.
    pub fn expand(&self, instance: &Instance) -> Filling {
        let n = self.tasks.len();
        let events = self
            .events
            .iter()
            .map(|e| FillEvent {
                level: match &e.level {
                    EventLevel::Cap(l) => l.clone(),
                    EventLevel::Saturation(k) => self.exact_level(instance, *k),
                },
                cause: e.cause,
                frozen: e.frozen.clone(),
            })
            .collect();
        Filling {
            tasks: (0..n).map(|i| self.exact_tasks(instance, i)).collect(),
            levels: (0..n).map(|i| self.user_level(instance, i)).collect(),
            frozen_by: self.frozen_by.clone(),
            events,
            consumption: (0..instance.num_resources())
                .map(|j| self.consumption_of(instance, j))
                .collect(),
            saturated: self.saturated.clone(),
        }
    }
}
