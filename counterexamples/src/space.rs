//! The search space: a sequence of *units*, each an instance the driver examines, numbered
//! from 0 so that shards, budgets and threads all cut the same sequence.
//!
//! - [`GridSpace`]: every small instance on a value grid, exhaustively — capacities 1,
//!   demand vectors from `grid^m` minus the zero vector, users as a multiset (instances that
//!   differ only by the order of users are enumerated once), `n` and `m` ascending.
//! - random units: instance `k` of [`GeneratorConfig::instance`] with the run's seed.
//! - [`Strategy::Combined`] interleaves them: grid unit `k` at `2k`, random unit `k` at
//!   `2k + 1`, and random units only once the grid is exhausted.

use std::ops::RangeInclusive;

use leontief_solver::{Instance, Pool, Rational, User};

use crate::instance_generator::GeneratorConfig;

leontief_solver::name_enum! {
    #[unknown("--strategy", "strategy")]
    /// Which instances the search examines. Names (`combined`, `random`, `exhaustive`) derived
    /// from the variants; `"x".parse::<Strategy>()` fails on `--strategy` listing them.
    ///
    /// # Example
    /// ```
    /// use leontief_counterexamples::space::Strategy;
    /// assert_eq!(Strategy::Exhaustive.name(), "exhaustive");
    /// assert_eq!("random".parse::<Strategy>().unwrap(), Strategy::Random);
    /// assert_eq!("clever".parse::<Strategy>().unwrap_err().to_string(),
    ///     "--strategy: unknown strategy \"clever\" (expected combined, random or exhaustive)");
    /// ```
    pub enum Strategy {
        /// Grid and random units interleaved (the default).
        Combined,
        /// Random instances only.
        Random,
        /// The value grid only; the search ends when it is exhausted.
        Exhaustive,
    }
}

/// Where a unit's instance comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Grid instance number `k`.
    Grid(u64),
    /// Random instance number `k`.
    Random(u64),
}

impl Origin {
    /// `exhaustive` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            Origin::Grid(_) => "exhaustive",
            Origin::Random(_) => "random",
        }
    }
}

/// One `(n, m)` block of the grid: multisets of `n` vectors out of the nonzero vectors of
/// `values^m` (never listed: vector `k` is unranked when an instance needs it).
#[derive(Debug, Clone)]
struct Block {
    n: usize,
    m: usize,
    /// The number of nonzero grid vectors in `m` dimensions.
    vectors: u64,
    /// Tree shapes per multiset: 1 (one level), or `n - 1` with pools (see [`GridSpace::new`]).
    shapes: u64,
    count: u64,
}

/// Every instance with `n` users and `m` resources (in the given ranges), capacities 1 and
/// demand entries from a value grid, in a fixed order, addressable by index.
///
/// Nothing is listed up front: a block holds its counts, and instance `k` is unranked from
/// `k` alone, so the memory does not depend on the number of resources (the vectors of
/// `values^m` number `|values|^m`).
///
/// # Example
/// Grid {0, 1}, 2 users, 2 resources: the nonzero vectors (0,1), (1,0), (1,1) give
/// 3 + 2 + 1 = 6 multisets of two.
/// ```
/// use leontief_counterexamples::space::GridSpace;
/// let grid = GridSpace::new(&[0.into(), 1.into()], 2..=2, 2..=2, false);
/// assert_eq!(grid.len(), 6);
/// assert_eq!(grid.instance(0).users()[0].demand, vec![0.into(), 1.into()]);
/// ```
///
/// The default is the grid with no instance (the grid of a space that never reads it).
#[derive(Debug, Clone, Default)]
pub struct GridSpace {
    values: Vec<Rational>,
    blocks: Vec<Block>,
    total: u64,
}

impl GridSpace {
    /// The grid over `values` (duplicates and negatives dropped) for the given ranges. With
    /// `pools`, each multiset comes in `n - 1` tree shapes: the first `s` users (s = 1..n-1)
    /// under the root, the others in one pool `p` (the user `u3` in it has the path `p/u3`):
    /// the lecture's shape (A
    /// against B = {B1, B2}) and the H-DRF paper's among them.
    pub fn new(
        values: &[Rational],
        users: RangeInclusive<usize>,
        resources: RangeInclusive<usize>,
        pools: bool,
    ) -> Self {
        let values = grid_values(values);
        let mut blocks = Vec::new();
        for n in users.clone() {
            for m in resources.clone() {
                let vectors = GridVectors::new(&values, m, VectorOrder::Lexicographic).len();
                if vectors == 0 || n == 0 {
                    continue;
                }
                let shapes = if pools && n >= 2 { n as u64 - 1 } else { 1 };
                let count = multichoose(vectors, n as u64).saturating_mul(shapes);
                blocks.push(Block {
                    n,
                    m,
                    vectors,
                    shapes,
                    count,
                });
            }
        }
        let total = blocks.iter().fold(0u64, |a, b| a.saturating_add(b.count));
        GridSpace {
            values,
            blocks,
            total,
        }
    }

    /// The number of instances (saturating at `u64::MAX`).
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether the grid has no instance.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Instance number `index` (`< len()`): users `u1..`, resources `r1..`, capacities 1.
    ///
    /// # Panics
    /// When `index >= len()`.
    pub fn instance(&self, mut index: u64) -> Instance {
        for b in &self.blocks {
            if index < b.count {
                let picks = unrank_multiset(b.vectors, b.n, index / b.shapes);
                let vectors = GridVectors::new(&self.values, b.m, VectorOrder::Lexicographic);
                // Users 0..=split under the root, the rest in the pool `p` (with shapes).
                let split = (b.shapes > 1).then_some(index % b.shapes);
                let m = b.m;
                let users = picks
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| {
                        let user = User::new(format!("u{}", i + 1), vectors.get(p));
                        match split {
                            Some(s) if i as u64 > s => user.pool(0),
                            _ => user,
                        }
                    })
                    .collect();
                let pools = if split.is_some() {
                    vec![Pool::new("p")]
                } else {
                    Vec::new()
                };
                return Instance::builder(vec![Rational::ONE; m])
                    .pools(pools)
                    .users(users)
                    .build()
                    .expect("grid vectors are nonzero and nonnegative");
            }
            index -= b.count;
        }
        panic!("grid index out of range");
    }
}

/// The grid's values as every enumeration reads them: negatives dropped, ascending, without
/// duplicates.
pub fn grid_values(values: &[Rational]) -> Vec<Rational> {
    let mut values: Vec<Rational> = values
        .iter()
        .filter(|v| !v.is_negative())
        .cloned()
        .collect();
    values.sort();
    values.dedup();
    values
}

/// Which coordinate of a grid vector varies slowest as its index grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorOrder {
    /// The first coordinate slowest: lexicographic order (the grid's instances).
    Lexicographic,
    /// The first coordinate fastest (a unit's grid lies).
    FirstFastest,
}

/// The nonzero vectors of `values^m` (`values` as [`grid_values`] gives them), by index in
/// a fixed order, unranked on demand: no vector is built before it is asked for, so a
/// grid of `|values|^m` vectors costs nothing to hold.
///
/// # Example
/// ```
/// use leontief_counterexamples::space::{GridVectors, VectorOrder};
/// let values = [0.into(), 1.into()];
/// let lex = GridVectors::new(&values, 2, VectorOrder::Lexicographic);
/// assert_eq!(lex.len(), 3); // (0,1), (1,0), (1,1)
/// assert_eq!(lex.get(0), vec![0.into(), 1.into()]);
/// let fast = GridVectors::new(&values, 2, VectorOrder::FirstFastest);
/// assert_eq!(fast.get(0), vec![1.into(), 0.into()]);
/// assert_eq!(fast.index_of(&[1.into(), 0.into()]), Some(0));
/// assert_eq!(fast.iter().count(), 3);
/// ```
#[derive(Debug, Clone)]
pub struct GridVectors<'a> {
    values: &'a [Rational],
    m: usize,
    order: VectorOrder,
    /// Whether the zero vector is index 0 of `values^m` (and skipped).
    zero_first: bool,
    len: u64,
}

impl<'a> GridVectors<'a> {
    /// The nonzero vectors of `values^m` in `order`.
    pub fn new(values: &'a [Rational], m: usize, order: VectorOrder) -> Self {
        let all = u32::try_from(m)
            .ok()
            .and_then(|m| (values.len() as u64).checked_pow(m))
            .unwrap_or(u64::MAX);
        let zero_first = values.first().is_some_and(Rational::is_zero);
        let len = if m == 0 || values.is_empty() {
            0
        } else if zero_first {
            all - 1
        } else {
            all
        };
        GridVectors {
            values,
            m,
            order,
            zero_first,
            len,
        }
    }

    /// How many (saturating at `u64::MAX`).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Vector number `index` (`< len()`).
    pub fn get(&self, index: u64) -> Vec<Rational> {
        let k = self.values.len() as u64;
        let mut rest = index + u64::from(self.zero_first);
        let mut out = vec![Rational::ZERO; self.m];
        let mut put = |j: usize| {
            out[j] = self.values[(rest % k) as usize].clone();
            rest /= k;
        };
        match self.order {
            VectorOrder::Lexicographic => (0..self.m).rev().for_each(&mut put),
            VectorOrder::FirstFastest => (0..self.m).for_each(&mut put),
        }
        out
    }

    /// The index of `vector` among these; `None` when an entry is off the grid, it is the
    /// zero vector, or its index passes `u64::MAX`.
    pub fn index_of(&self, vector: &[Rational]) -> Option<u64> {
        if vector.len() != self.m {
            return None;
        }
        let k = self.values.len() as u64;
        let mut rank: u64 = 0;
        let mut fold = |x: &Rational| -> Option<()> {
            let digit = self.values.iter().position(|v| v == x)? as u64;
            rank = rank.checked_mul(k)?.checked_add(digit)?;
            Some(())
        };
        match self.order {
            VectorOrder::Lexicographic => vector.iter().try_for_each(&mut fold)?,
            VectorOrder::FirstFastest => vector.iter().rev().try_for_each(&mut fold)?,
        }
        match (self.zero_first, rank) {
            (true, 0) => None,
            (true, r) => Some(r - 1),
            (false, r) => Some(r),
        }
    }

    /// Every vector, in order, one at a time.
    pub fn iter(&self) -> impl Iterator<Item = Vec<Rational>> + '_ {
        (0..self.len).map(|i| self.get(i))
    }
}

/// `C(a, b)`, saturating at `u64::MAX`.
fn binomial(a: u64, b: u64) -> u64 {
    if b > a {
        return 0;
    }
    let b = b.min(a - b);
    let mut c: u128 = 1;
    for i in 1..=b as u128 {
        // Exact at every step: c * (a - b + i) is divisible by i.
        c = c * (a as u128 - b as u128 + i) / i;
        if c > u64::MAX as u128 {
            return u64::MAX;
        }
    }
    c as u64
}

/// Multisets of size `r` from `k` items: `C(k + r - 1, r)` (1 for `r = 0`).
fn multichoose(k: u64, r: u64) -> u64 {
    if r == 0 {
        return 1;
    }
    if k == 0 {
        return 0;
    }
    binomial(k + r - 1, r)
}

/// The `index`-th non-decreasing sequence of length `r` over `0..k` in lexicographic order.
fn unrank_multiset(k: u64, r: usize, mut index: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(r);
    let mut lo = 0;
    for t in 0..r {
        let rest = (r - t - 1) as u64;
        let mut v = lo;
        loop {
            let c = multichoose(k - v, rest);
            if index < c {
                break;
            }
            index -= c;
            v += 1;
        }
        out.push(v);
        lo = v;
    }
    out
}

/// The whole space of a search: the grid, the random generator and how they interleave.
#[derive(Debug, Clone)]
pub struct Space {
    grid: GridSpace,
    generator: GeneratorConfig,
    strategy: Strategy,
    seed: u64,
}

impl Space {
    /// A space.
    ///
    /// # Example
    /// ```
    /// use leontief_counterexamples::instance_generator::GeneratorConfig;
    /// use leontief_counterexamples::space::{Origin, Space, Strategy};
    /// let space = Space::new(&[0.into(), 1.into()], GeneratorConfig::new(), Strategy::Combined, 7);
    /// assert_eq!(space.origin(0), Some(Origin::Grid(0)));
    /// assert_eq!(space.origin(1), Some(Origin::Random(0)));
    /// ```
    pub fn new(
        values: &[Rational],
        generator: GeneratorConfig,
        strategy: Strategy,
        seed: u64,
    ) -> Self {
        // A random-only run never reads the grid: it is not even counted.
        let grid = match strategy {
            Strategy::Random => GridSpace::default(),
            _ => GridSpace::new(
                values,
                generator.users.clone(),
                generator.resources.clone(),
                generator.pools.is_some(),
            ),
        };
        Space {
            grid,
            generator,
            strategy,
            seed,
        }
    }

    /// Where unit `unit` comes from; `None` past the end of an exhaustive space.
    pub fn origin(&self, unit: u64) -> Option<Origin> {
        let g = self.grid.len();
        match self.strategy {
            Strategy::Exhaustive => (unit < g).then_some(Origin::Grid(unit)),
            Strategy::Random => Some(Origin::Random(unit)),
            Strategy::Combined => Some(if unit / 2 < g {
                if unit.is_multiple_of(2) {
                    Origin::Grid(unit / 2)
                } else {
                    Origin::Random(unit / 2)
                }
            } else {
                Origin::Random(unit - g)
            }),
        }
    }

    /// The instance of an origin.
    pub fn instance(&self, origin: Origin) -> Instance {
        match origin {
            Origin::Grid(k) => self.grid.instance(k),
            Origin::Random(k) => self.generator.instance(self.seed, k),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unranking_enumerates_every_multiset_once_in_order() {
        let (k, r) = (5u64, 3usize);
        let all: Vec<Vec<u64>> = (0..multichoose(k, r as u64))
            .map(|i| unrank_multiset(k, r, i))
            .collect();
        // By hand: C(5 + 3 - 1, 3) = 35 non-decreasing triples over 0..5.
        assert_eq!(all.len(), 35);
        let mut expected = Vec::new();
        for a in 0..k {
            for b in a..k {
                for c in b..k {
                    expected.push(vec![a, b, c]);
                }
            }
        }
        assert_eq!(all, expected);
    }

    #[test]
    fn grid_counts() {
        // {0, 1/2, 1}: 26 nonzero vectors in 3 dimensions; 4 users: C(29, 4) = 23,751.
        let values = [0.into(), Rational::new(1, 2).unwrap(), 1.into()];
        assert_eq!(GridSpace::new(&values, 4..=4, 3..=3, false).len(), 23_751);
        // Both blocks of 2..=3 users on 1 resource (2 vectors): 3 + 4.
        assert_eq!(GridSpace::new(&values, 2..=3, 1..=1, false).len(), 7);
    }

    #[test]
    fn combined_interleaves_then_continues_randomly() {
        let space = Space::new(&[1.into()], GeneratorConfig::new(), Strategy::Combined, 1);
        // One vector (1, ..) per m: grid of users 2..=5 × resources 2..=3 has 8 instances.
        assert_eq!(space.grid.len(), 8);
        assert_eq!(space.origin(15), Some(Origin::Random(7)));
        assert_eq!(space.origin(16), Some(Origin::Random(8)));
        let ex = Space::new(&[1.into()], GeneratorConfig::new(), Strategy::Exhaustive, 1);
        assert_eq!(ex.origin(8), None);
    }
}
