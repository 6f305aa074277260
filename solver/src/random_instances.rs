//! Deterministic instance generators for benchmarks and tests.
//!
//! A small SplitMix64 generator is used so that the same seed gives the same instance on
//! every platform and crate version (no dependency on a PRNG crate's stream stability).

use crate::{Instance, Rational, User};

/// SplitMix64: a tiny, well-mixed, reproducible PRNG.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::random_instances::SplitMix64;
    /// let mut a = SplitMix64::new(7);
    /// let mut b = SplitMix64::new(7);
    /// assert_eq!(a.next_u64(), b.next_u64());
    /// ```
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi` (slightly biased for huge ranges; fine for instance data).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// `true` with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }
}

/// One demand vector of the cluster workloads: `m` integers in `1..=100`, each zero with
/// probability 3/10, and at least one positive.
///
/// # Example
/// ```
/// use leontief_solver::random_instances::{cluster_demand, SplitMix64};
/// let d = cluster_demand(&mut SplitMix64::new(3), 4);
/// assert!(d.len() == 4 && d.iter().any(|&x| x > 0) && d.iter().all(|&x| x <= 100));
/// ```
pub fn cluster_demand(rng: &mut SplitMix64, m: usize) -> Vec<u64> {
    let mut demand: Vec<u64> = (0..m)
        .map(|_| {
            if rng.chance(3, 10) {
                0
            } else {
                rng.range(1, 100)
            }
        })
        .collect();
    if demand.iter().all(|&d| d == 0) {
        demand[rng.range(0, m as u64 - 1) as usize] = rng.range(1, 100);
    }
    demand
}

/// The benchmark workload of issue 2: `n` users × `m` resources, integer demands in
/// `0..=100` with about 30% zeros (at least one positive entry), integer weights in `1..=5`
/// on a fifth of the users and integer task caps in `1..=4` on another fifth; capacity
/// `50·n` per resource, so that caps and saturations interleave.
///
/// # Example
/// ```
/// use leontief_solver::random_instances::cluster_workload;
/// let inst = cluster_workload(1000, 8, 1);
/// assert_eq!((inst.num_users(), inst.num_resources()), (1000, 8));
/// ```
pub fn cluster_workload(n: usize, m: usize, seed: u64) -> Instance {
    let mut rng = SplitMix64::new(seed);
    let users = (0..n)
        .map(|i| {
            let demand = cluster_demand(&mut rng, m);
            let mut u = User::new(format!("u{i}"), demand);
            match rng.range(0, 4) {
                0 => u = u.weight(rng.range(1, 5)),
                1 => u = u.cap(rng.range(1, 4)),
                _ => {}
            }
            u
        })
        .collect();
    let capacity = vec![Rational::from(50 * n as u64); m];
    Instance::new(capacity, users).expect("generated instances are valid")
}
