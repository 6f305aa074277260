//! Deterministic instance generators.
//!
//! Instance `k` of a run with seed `s` is drawn from its own SplitMix64 stream seeded by
//! `(s, k)`, so it is the same whatever the number of threads or the order of work.

use std::ops::RangeInclusive;

use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Instance, Pool, Rational, SolverError, User};

/// A probability `num / den`, exact (no floating point in generation either).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chance {
    num: u64,
    den: u64,
}

impl Chance {
    /// `num / den`; `None` unless `0 <= num <= den` and `den > 0`.
    ///
    /// # Example
    /// ```
    /// use leontief_counterexamples::instance_generator::Chance;
    /// assert!(Chance::new(3, 10).is_some());
    /// assert!(Chance::new(11, 10).is_none());
    /// ```
    pub fn new(num: u64, den: u64) -> Option<Self> {
        (den > 0 && num <= den).then_some(Chance { num, den })
    }

    /// From a rational in `[0, 1]` with numerator and denominator below 2^32
    /// (e.g. `0.3` read exactly as 3/10).
    ///
    /// # Example
    /// ```
    /// use leontief_counterexamples::instance_generator::Chance;
    /// let p = Chance::from_rational(&"0.3".parse().unwrap()).unwrap();
    /// assert_eq!(p, Chance::new(3, 10).unwrap());
    /// ```
    pub fn from_rational(p: &Rational) -> Option<Self> {
        let (num, den) = p.as_small()?;
        let limit = 1i128 << 32;
        if num < 0 || num > den || den >= limit {
            return None;
        }
        Chance::new(num as u64, den as u64)
    }

    pub(crate) fn draw(self, rng: &mut SplitMix64) -> bool {
        self.num > 0 && rng.next_u64() % self.den < self.num
    }
}

/// What instances to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GeneratorConfig {
    /// Number of users, drawn uniformly from this range.
    pub users: RangeInclusive<usize>,
    /// Number of resources, drawn uniformly from this range.
    pub resources: RangeInclusive<usize>,
    /// Probability that a demand entry is zero (each user keeps one positive entry).
    pub zeros: Chance,
    /// Largest demand entry: entries are integers in `1..=max_demand` (before zeros).
    pub max_demand: u64,
    /// Draw integer weights in `1..=4` (otherwise every weight is 1).
    pub weights: bool,
    /// Give about a third of the users a task cap, a multiple of 1/2 in `1/2..=4`.
    pub caps: bool,
    /// Trees: the number of pools, drawn from this range; each user goes into one of them
    /// or stays under the root (uniformly); pools that receive no user are dropped (with
    /// `weights`, pools get a weight in `1..=3`). `None`: no pools, one level.
    pub pools: Option<RangeInclusive<usize>>,
}

impl Default for GeneratorConfig {
    fn default() -> Self {
        GeneratorConfig {
            users: 2..=5,
            resources: 2..=3,
            zeros: Chance { num: 0, den: 1 },
            max_demand: 6,
            weights: false,
            caps: false,
            pools: None,
        }
    }
}

impl GeneratorConfig {
    /// The defaults: 2–5 users, 2–3 resources, demands in `1..=6`, no zeros, weights or caps.
    ///
    /// # Example
    /// ```
    /// use leontief_counterexamples::instance_generator::GeneratorConfig;
    /// let inst = GeneratorConfig::new().instance(7, 0);
    /// assert!((2..=5).contains(&inst.num_users()));
    /// assert_eq!(inst, GeneratorConfig::new().instance(7, 0)); // deterministic
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks the ranges (non-empty, at least one user and one resource, demands ≥ 1).
    pub fn validate(&self) -> Result<(), SolverError> {
        let ranges = [
            ("--users", Some(&self.users)),
            ("--resources", Some(&self.resources)),
            ("--pools", self.pools.as_ref()),
        ];
        for (flag, range) in ranges {
            if range.is_some_and(|r| r.is_empty() || *r.start() == 0) {
                let why = "expected a range a..b with 1 <= a <= b";
                return Err(SolverError::invalid(flag, why));
            }
        }
        if self.max_demand == 0 {
            return Err(SolverError::invalid("max_demand", "must be at least 1"));
        }
        Ok(())
    }

    /// `m` random capacities, each in `1..=4 max_demand`.
    pub(crate) fn capacity(&self, m: usize, rng: &mut SplitMix64) -> Vec<Rational> {
        (0..m)
            .map(|_| Rational::from(rng.range(1, 4 * self.max_demand)))
            .collect()
    }

    /// A random demand vector on `m` resources: each entry 0 with the chance `zeros`, else
    /// in `1..=max_demand`; never all zero (one entry redrawn positive).
    pub(crate) fn demand(&self, m: usize, rng: &mut SplitMix64) -> Vec<Rational> {
        let mut demand: Vec<u64> = (0..m)
            .map(|_| {
                if self.zeros.draw(rng) {
                    0
                } else {
                    rng.range(1, self.max_demand)
                }
            })
            .collect();
        if demand.iter().all(|&d| d == 0) {
            let j = rng.range(0, m as u64 - 1) as usize;
            demand[j] = rng.range(1, self.max_demand);
        }
        demand.into_iter().map(Rational::from).collect()
    }

    /// Instance number `index` of the run seeded by `seed`.
    pub fn instance(&self, seed: u64, index: u64) -> Instance {
        // Mix seed and index so that neighbouring indices give unrelated streams.
        let mut rng = SplitMix64::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next_u64();
        let n = pick(&mut rng, &self.users);
        let m = pick(&mut rng, &self.resources);
        let capacity = self.capacity(m, &mut rng);
        let users = (0..n)
            .map(|i| {
                let mut u = User::new(format!("u{}", i + 1), self.demand(m, &mut rng));
                if self.weights {
                    u = u.weight(rng.range(1, 4));
                }
                if self.caps && rng.chance(1, 3) {
                    u = u.cap(Rational::new(rng.range(1, 8).into(), 2).expect("nonzero"));
                }
                u
            })
            .collect::<Vec<User>>();
        let (pools, users) = match &self.pools {
            Some(range) => {
                let k = pick(&mut rng, range);
                into_pools(&mut rng, users, k, self.weights)
            }
            None => (Vec::new(), users),
        };
        Instance::builder(capacity)
            .pools(pools)
            .users(users)
            .build()
            .expect("generated instances are valid")
    }
}

/// Puts each user into one of `k` pools `p1..pk` or under the root (uniformly); the pools
/// no user went into are dropped.
fn into_pools(
    rng: &mut SplitMix64,
    users: Vec<User>,
    k: usize,
    weights: bool,
) -> (Vec<Pool>, Vec<User>) {
    let pools: Vec<Pool> = (1..=k)
        .map(|p| {
            let w = if weights { rng.range(1, 3) } else { 1 };
            Pool::new(format!("p{p}")).weight(w)
        })
        .collect();
    let users = users
        .into_iter()
        .map(|mut u| {
            let j = rng.range(0, k as u64) as usize;
            if j < k {
                u.pool = Some(j);
            }
            u
        })
        .collect();
    Pool::prune(&pools, users)
}

fn pick(rng: &mut SplitMix64, range: &RangeInclusive<usize>) -> usize {
    rng.range(*range.start() as u64, *range.end() as u64) as usize
}

/// Parses `a..b` (or a single number `a`) into an inclusive range.
///
/// # Example
/// ```
/// use leontief_counterexamples::instance_generator::parse_range;
/// assert_eq!(parse_range("--users", "2..5").unwrap(), 2..=5);
/// assert_eq!(parse_range("--users", "3").unwrap(), 3..=3);
/// assert!(parse_range("--users", "5..2").is_err());
/// ```
pub fn parse_range(field: &str, text: &str) -> Result<RangeInclusive<usize>, SolverError> {
    let bad = || {
        SolverError::invalid(
            field,
            format!("expected a range a..b with 1 <= a <= b, found {text:?}"),
        )
    };
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (a.trim(), b.trim().trim_start_matches('=')),
        None => (text.trim(), text.trim()),
    };
    let a: usize = a.parse().map_err(|_| bad())?;
    let b: usize = b.parse().map_err(|_| bad())?;
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok(a..=b)
}
