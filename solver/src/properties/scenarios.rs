//! The bounded default scenario sets for SP, GSP, PM and RM: deterministic (a fixed order,
//! no randomness) and public, so that a search driver can reuse them.
//!
//! - **Lies** ([`structured_lies`]), for each user, in this order: each positive component
//!   doubled; each component plus the user's largest component; each positive component
//!   zeroed (when another stays positive); each unused resource `j` demanded at 1/2 and 1 ×
//!   the user's dominant share, i.e. `f μ_i R_j`; the (first) dominant component halved and
//!   doubled. Duplicates and the truth itself are dropped, keeping first occurrences. Every
//!   lie is non-negative with a positive entry, so it never makes the instance invalid.
//! - **Group lies** ([`LieProfiles`]): every set of at most `max_liars` users, each telling
//!   one of its structured lies (truthful members are implicit: GSP's coalition is the liars
//!   plus whoever gains), by increasing size, users and lies in lexicographic order, cut at
//!   `max_profiles`. By default ([`Bounds::default`]) up to `n` liars for `n <= 4` and 2
//!   otherwise, at most [`Bounds::DEFAULT_MAX_PROFILES`] profiles.
//! - **Departures** ([`departures`]): every single user leaving.
//! - **Capacity growth** ([`capacity_grid`]): each resource alone scaled by ×3/2, ×2, ×4, then
//!   all resources together by the same factors.
//!
//! # Example
//! ```
//! use leontief_solver::properties::scenarios::{capacity_grid, structured_lies};
//! use leontief_solver::{Instance, Rational, User};
//! let paper = Instance::new(vec![9.into(), 18.into()],
//!     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
//! let lies = structured_lies(&paper, 0);
//! assert_eq!(lies[0], vec![Rational::from(2), 4.into()]); // CPU doubled
//! assert!(lies.iter().all(|l| *l != paper.users()[0].demand));
//! assert_eq!(capacity_grid(&paper).len(), 9);
//! ```

use std::ops::Range;

use crate::{Instance, Rational};

/// The capacity factors of [`capacity_grid`]: ×3/2, ×2, ×4.
pub const CAPACITY_FACTORS: [(i128, i128); 3] = [(3, 2), (2, 1), (4, 1)];

/// Limits of the default group-lie set.
///
/// # Example
/// ```
/// use leontief_solver::properties::Bounds;
/// let b = Bounds::default();
/// assert_eq!((b.liars_for(4), b.liars_for(5)), (4, 2));
/// assert_eq!(Bounds { max_liars: Some(3), ..b }.liars_for(5), 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The most liars in one profile; `None` for the default (`n` when `n <= 4`, else 2).
    pub max_liars: Option<usize>,
    /// The most group-lie profiles tried.
    pub max_profiles: usize,
}

impl Bounds {
    /// The default cap on group-lie profiles.
    pub const DEFAULT_MAX_PROFILES: usize = 20_000;

    /// The most liars per profile on an instance with `n` users.
    pub fn liars_for(&self, n: usize) -> usize {
        match self.max_liars {
            Some(k) => k.min(n),
            None if n <= 4 => n,
            None => 2,
        }
    }
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_liars: None,
            max_profiles: Self::DEFAULT_MAX_PROFILES,
        }
    }
}

/// User `i`'s structured lies (see the [module docs](self)), deduplicated, without the
/// truth, in a fixed order.
///
/// # Panics
/// When `i` is not a user of `instance`.
///
/// # Example
/// The four-operation example's op1 ⟨1, 0, 0⟩ on (1, 1, 1): among its lies is the
/// lecture's ⟨1, 0, 1/2⟩ (network at half its dominant share).
/// ```
/// use leontief_solver::properties::scenarios::structured_lies;
/// use leontief_solver::{Instance, Rational, User};
/// let inst = Instance::new(vec![1.into(); 3], vec![User::new("op1", [1, 0, 0])]).unwrap();
/// let half = Rational::new(1, 2).unwrap();
/// assert!(structured_lies(&inst, 0).contains(&vec![1.into(), 0.into(), half]));
/// ```
pub fn structured_lies(instance: &Instance, i: usize) -> Vec<Vec<Rational>> {
    let d = &instance.users()[i].demand;
    let capacity = instance.capacity();
    let m = d.len();
    let largest = d.iter().max().cloned().unwrap_or(Rational::ZERO);
    let positive = d.iter().filter(|x| x.is_positive()).count();
    let mu = instance.task_dominant_share(i);
    let two = Rational::from(2);
    let half = Rational::new(1, 2).expect("nonzero denominator");
    let dominant = (0..m)
        .find(|&j| &d[j] / &capacity[j] == mu)
        .expect("validated: some demand is positive");

    let mut lies: Vec<Vec<Rational>> = Vec::with_capacity(5 * m + 2);
    let mut push = |j: usize, value: Rational| {
        let mut lie = d.clone();
        lie[j] = value;
        if lie != *d && !lies.contains(&lie) {
            lies.push(lie);
        }
    };
    for (j, dj) in d.iter().enumerate() {
        if dj.is_positive() {
            push(j, dj * &two);
        }
    }
    for (j, dj) in d.iter().enumerate() {
        push(j, dj + &largest);
    }
    if positive > 1 {
        for (j, dj) in d.iter().enumerate() {
            if dj.is_positive() {
                push(j, Rational::ZERO);
            }
        }
    }
    for (j, (dj, r)) in d.iter().zip(capacity).enumerate() {
        if dj.is_zero() {
            let full = &mu * r;
            push(j, &full * &half);
            push(j, full);
        }
    }
    push(dominant, &d[dominant] * &half);
    push(dominant, &d[dominant] * &two);
    lies
}

/// Every single departure: the users' indices in order.
///
/// # Example
/// ```
/// use leontief_solver::properties::scenarios::departures;
/// use leontief_solver::{Instance, User};
/// let inst = Instance::new(vec![1.into()], vec![User::new("a", [1]), User::new("b", [1])]).unwrap();
/// assert_eq!(departures(&inst).collect::<Vec<_>>(), [0, 1]);
/// ```
pub fn departures(instance: &Instance) -> Range<usize> {
    0..instance.num_users()
}

/// The capacity-growth grid: each resource alone ×3/2, ×2, ×4 (resource by resource), then
/// all together by the same factors; duplicates dropped (with one resource the joint
/// scalings repeat the single ones).
///
/// # Example
/// ```
/// use leontief_solver::properties::scenarios::capacity_grid;
/// use leontief_solver::{Instance, Rational, User};
/// let inst = Instance::new(vec![1.into(), 1.into()], vec![User::new("A", [2, 1])]).unwrap();
/// let grid = capacity_grid(&inst);
/// assert_eq!(grid.len(), 9);
/// assert!(grid.contains(&vec![Rational::from(1), 4.into()]));
/// ```
pub fn capacity_grid(instance: &Instance) -> Vec<Vec<Rational>> {
    let base = instance.capacity();
    let factors: Vec<Rational> = CAPACITY_FACTORS
        .iter()
        .map(|&(p, q)| Rational::new(p, q).expect("nonzero denominator"))
        .collect();
    let mut grid: Vec<Vec<Rational>> = Vec::with_capacity(3 * base.len() + 3);
    for j in 0..base.len() {
        for f in &factors {
            let mut c = base.to_vec();
            c[j] = &c[j] * f;
            grid.push(c);
        }
    }
    for f in &factors {
        let c: Vec<Rational> = base.iter().map(|r| r * f).collect();
        if !grid.contains(&c) {
            grid.push(c);
        }
    }
    grid
}

/// How many group-lie profiles exist with at most `max_liars` liars, when user `i` has
/// `counts[i]` lies: the sum over liar sets of the product of their counts (saturating).
///
/// # Example
/// ```
/// use leontief_solver::properties::scenarios::count_lie_profiles;
/// // Two users with 2 and 3 lies: 2 + 3 singles, 6 pairs.
/// assert_eq!(count_lie_profiles(&[2, 3], 2), 11);
/// assert_eq!(count_lie_profiles(&[2, 3], 1), 5);
/// assert_eq!(count_lie_profiles(&[2, 3], usize::MAX), 11);
/// ```
pub fn count_lie_profiles(counts: &[usize], max_liars: usize) -> u128 {
    // No profile has more liars than users; clamping also bounds the table below.
    let max_liars = max_liars.min(counts.len());
    // e[k] = elementary symmetric polynomial of degree k in the counts.
    let mut e = vec![0u128; max_liars + 1];
    e[0] = 1;
    for &c in counts {
        for k in (1..=max_liars).rev() {
            e[k] = e[k].saturating_add(e[k - 1].saturating_mul(c as u128));
        }
    }
    e[1..].iter().fold(0u128, |a, &b| a.saturating_add(b))
}

/// The group-lie profiles, in a fixed order: each item lists `(user, lie index)` for the
/// liars (increasing users), with `lie index < counts[user]`. Sets grow from one liar to
/// `max_liars`; within a size, liar sets and then lie choices go in lexicographic order;
/// at most `max_profiles` items.
///
/// # Example
/// ```
/// use leontief_solver::properties::LieProfiles;
/// let all: Vec<_> = LieProfiles::new(vec![2, 0, 1], 2, 100).collect();
/// assert_eq!(all, vec![
///     vec![(0, 0)], vec![(0, 1)], vec![(2, 0)],
///     vec![(0, 0), (2, 0)], vec![(0, 1), (2, 0)],
/// ]);
/// assert_eq!(LieProfiles::new(vec![2, 0, 1], 2, 4).count(), 4);
/// ```
#[derive(Debug, Clone)]
pub struct LieProfiles {
    counts: Vec<usize>,
    /// Users with at least one lie.
    eligible: Vec<usize>,
    max_liars: usize,
    remaining: usize,
    size: usize,
    /// Positions in `eligible` of the current liar set (empty between sizes).
    subset: Vec<usize>,
    /// The current lie of each liar.
    choice: Vec<usize>,
}

impl LieProfiles {
    /// Profiles over users with `counts[i]` lies each, at most `max_liars` liars and
    /// `max_profiles` profiles.
    pub fn new(counts: Vec<usize>, max_liars: usize, max_profiles: usize) -> Self {
        let eligible = (0..counts.len()).filter(|&i| counts[i] > 0).collect();
        LieProfiles {
            counts,
            eligible,
            max_liars,
            remaining: max_profiles,
            size: 0,
            subset: Vec::new(),
            choice: Vec::new(),
        }
    }

    /// Moves to the next lie choice, else the next liar set of the same size, else empties
    /// `subset` (the next call starts the next size).
    fn advance(&mut self) {
        for t in (0..self.size).rev() {
            self.choice[t] += 1;
            if self.choice[t] < self.counts[self.eligible[self.subset[t]]] {
                return;
            }
            self.choice[t] = 0;
        }
        let (k, n) = (self.size, self.eligible.len());
        for t in (0..k).rev() {
            if self.subset[t] < n - k + t {
                self.subset[t] += 1;
                for s in t + 1..k {
                    self.subset[s] = self.subset[s - 1] + 1;
                }
                return;
            }
        }
        self.subset.clear();
    }
}

impl Iterator for LieProfiles {
    type Item = Vec<(usize, usize)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        if self.subset.is_empty() {
            self.size += 1;
            if self.size > self.max_liars || self.size > self.eligible.len() {
                self.remaining = 0;
                return None;
            }
            self.subset = (0..self.size).collect();
            self.choice = vec![0; self.size];
        }
        let item = self
            .subset
            .iter()
            .zip(&self.choice)
            .map(|(&p, &c)| (self.eligible[p], c))
            .collect();
        self.remaining -= 1;
        self.advance();
        Some(item)
    }
}
