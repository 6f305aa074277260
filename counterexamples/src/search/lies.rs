//! The scenarios a unit draws from: a user's lies (structured, then the value grid's,
//! unranked one at a time), the capacity growths for RM, and the local search's move on a
//! lie profile.

use leontief_solver::properties::scenarios::{capacity_grid, structured_lies};
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Instance, Rational};

use crate::space::{grid_values, GridVectors, VectorOrder};

/// The capacity growths a unit tries for RM: the capacity grid
/// (`properties::scenarios::capacity_grid`: each resource and all of them ×3/2, ×2, ×4)
/// and three random growths (each capacity × a multiple of 1/4 in `1..4`, from `rng`).
pub fn capacity_growths(instance: &Instance, rng: &mut SplitMix64) -> Vec<Vec<Rational>> {
    let mut grid = capacity_grid(instance);
    for _ in 0..3 {
        let c: Vec<Rational> = instance
            .capacity()
            .iter()
            .map(|r| {
                let f = Rational::new(rng.range(4, 16) as i128, 4).expect("nonzero");
                r * &f
            })
            .collect();
        grid.push(c);
    }
    grid
}

/// A user's lies as a unit tries them, in order: the listed ones (structured or random),
/// then the nonzero vectors of the value grid that are neither the truth nor listed. The
/// grid's `|values|^m` vectors are never built together: lie `k` is unranked when it is
/// asked for, so a user's lies cost `O(listed)` memory at any number of resources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lies {
    listed: Vec<Vec<Rational>>,
    /// The grid's values, ascending (empty: no grid lies).
    values: Vec<Rational>,
    m: usize,
    /// The indices of the grid vectors left out (the truth, the listed lies), ascending.
    skipped: Vec<u64>,
    /// The grid lies: the grid's nonzero vectors less `skipped`.
    grid_len: u64,
}

impl Lies {
    /// `listed`, then every nonzero vector of `values^m` (capacities 1: a grid instance's
    /// lies) that is not `truth` and not listed; `grid` false: `listed` alone.
    fn new(
        listed: Vec<Vec<Rational>>,
        truth: &[Rational],
        values: &[Rational],
        grid: bool,
    ) -> Lies {
        let values = if grid {
            grid_values(values)
        } else {
            Vec::new()
        };
        let m = truth.len();
        let vectors = GridVectors::new(&values, m, VectorOrder::FirstFastest);
        let mut skipped: Vec<u64> = std::iter::once(truth)
            .chain(listed.iter().map(Vec::as_slice))
            .filter_map(|v| vectors.index_of(v))
            .collect();
        skipped.sort_unstable();
        skipped.dedup();
        let grid_len = vectors.len().saturating_sub(skipped.len() as u64);
        Lies {
            listed,
            values,
            m,
            skipped,
            grid_len,
        }
    }

    /// How many (saturating at `u64::MAX`).
    pub fn len(&self) -> u64 {
        (self.listed.len() as u64).saturating_add(self.grid_len)
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Lie number `k` (`< len()`).
    pub fn get(&self, k: u64) -> Vec<Rational> {
        if let Some(lie) = usize::try_from(k).ok().and_then(|k| self.listed.get(k)) {
            return lie.clone();
        }
        // The k'-th grid vector not skipped: step over each skipped index at or below it.
        let mut index = k - self.listed.len() as u64;
        for &s in &self.skipped {
            if s <= index {
                index += 1;
            }
        }
        GridVectors::new(&self.values, self.m, VectorOrder::FirstFastest).get(index)
    }

    /// Every lie, in order, one at a time.
    pub fn iter(&self) -> impl Iterator<Item = Vec<Rational>> + '_ {
        (0..self.len()).map(|k| self.get(k))
    }
}

/// User `i`'s lies as a unit tries them: its structured lies
/// (`properties::scenarios::structured_lies`), then grid lies — on a grid instance
/// (`grid`) every nonzero vector of `values` (in the order that varies the first entry
/// fastest), otherwise four random vectors that keep each entry or replace it by a grid
/// value × the dominant share × the capacity (from `rng`). The truth, duplicates and
/// all-zero vectors are left out.
pub fn user_lies(
    instance: &Instance,
    i: usize,
    values: &[Rational],
    grid: bool,
    rng: &mut SplitMix64,
) -> Lies {
    let d = &instance.users()[i].demand;
    let mut lies = structured_lies(instance, i);
    let mut push = |lie: Vec<Rational>| {
        if lie != *d && lie.iter().any(Rational::is_positive) && !lies.contains(&lie) {
            lies.push(lie);
        }
    };
    let m = d.len();
    if !grid && !values.is_empty() {
        let mu = instance.task_dominant_share(i);
        let cap = instance.capacity();
        for _ in 0..4 {
            let lie = (0..m)
                .map(|j| {
                    if rng.chance(1, 2) {
                        d[j].clone()
                    } else {
                        let g = &values[rng.range(0, values.len() as u64 - 1) as usize];
                        &(g * &mu) * &cap[j]
                    }
                })
                .collect();
            push(lie);
        }
    }
    Lies::new(lies, d, values, grid)
}

/// User `i`'s grid lies alone: every nonzero vector of `values` but the truth, in
/// [`user_lies`]'s order (a grid instance's lies when only the grid is asked for).
pub fn grid_lies(instance: &Instance, i: usize, values: &[Rational]) -> Lies {
    Lies::new(Vec::new(), &instance.users()[i].demand, values, true)
}

/// A random coalition of 2 to `most` of the `eligible` users (`most` at most their number),
/// in user order, each with one of its lies drawn from `lists`.
pub(crate) fn random_coalition(
    eligible: &[usize],
    most: usize,
    lists: &[Lies],
    rng: &mut SplitMix64,
) -> Vec<(usize, Vec<Rational>)> {
    let size = rng.range(2, most as u64) as usize;
    let mut pool = eligible.to_vec();
    let mut members = Vec::with_capacity(size);
    for _ in 0..size {
        let k = rng.range(0, pool.len() as u64 - 1) as usize;
        members.push(pool.swap_remove(k));
    }
    members.sort_unstable();
    members
        .iter()
        .map(|&i| (i, lists[i].get(rng.range(0, lists[i].len() - 1))))
        .collect()
}

/// One demand entry `x` moved at random: set to 0, doubled, halved, raised by half of `unit`
/// (a dominant share's worth of the resource) or set to a grid value × `unit`; `None` for
/// the last move without a grid.
pub(crate) fn moved_entry(
    x: &Rational,
    unit: &Rational,
    values: &[Rational],
    rng: &mut SplitMix64,
) -> Option<Rational> {
    let half = Rational::new(1, 2).expect("nonzero");
    Some(match rng.range(0, 4) {
        0 => Rational::ZERO,
        1 => x * &Rational::from(2),
        2 => x * &half,
        3 => x + &(unit * &half),
        _ if values.is_empty() => return None,
        _ => &values[rng.range(0, values.len() as u64 - 1) as usize] * unit,
    })
}

/// A random neighbour of a lie profile (the local search's move): one component of one
/// report set to 0, doubled, halved, raised by half a dominant share or set to a grid value
/// × the dominant share (from `values`), or a liar added (with one of its `lists` lies, up
/// to `max_liars`) or dropped. `None` when the move gives no new valid profile.
pub fn neighbour_profile(
    instance: &Instance,
    values: &[Rational],
    current: &[(usize, Vec<Rational>)],
    lists: &[Lies],
    max_liars: usize,
    rng: &mut SplitMix64,
) -> Option<Vec<(usize, Vec<Rational>)>> {
    let n = instance.num_users();
    let mut p = current.to_vec();
    let action = rng.range(0, 7);
    if action == 0 && p.len() < max_liars {
        let outside: Vec<usize> = (0..n)
            .filter(|i| !p.iter().any(|(k, _)| k == i) && !lists[*i].is_empty())
            .collect();
        if outside.is_empty() {
            return None;
        }
        let i = outside[rng.range(0, outside.len() as u64 - 1) as usize];
        let lie = lists[i].get(rng.range(0, lists[i].len() - 1));
        p.push((i, lie));
        p.sort_by_key(|(i, _)| *i);
        return Some(p);
    }
    if action == 1 && p.len() > 1 {
        p.remove(rng.range(0, p.len() as u64 - 1) as usize);
        return Some(p);
    }
    let t = rng.range(0, p.len() as u64 - 1) as usize;
    let i = p[t].0;
    let m = instance.num_resources();
    let j = rng.range(0, m as u64 - 1) as usize;
    let r = &p[t].1[j];
    let mu_r = &instance.task_dominant_share(i) * &instance.capacity()[j];
    p[t].1[j] = moved_entry(r, &mu_r, values, rng)?;
    if p[t].1.iter().all(Rational::is_zero) || p[t].1 == instance.users()[i].demand {
        return None;
    }
    Some(p)
}
