//! Writes a benchmark instance as JSON on standard output, for end-to-end runs of the CLI:
//!
//! `cargo run --release -p leontief-solver --example workload_json -- N M SEED [cents] > big.json`
//!
//! Without `cents`: [`cluster_workload`]`(N, M, SEED)` (integer demands 0..=100, about 30%
//! zeros, weights on a fifth of the users, task caps on another fifth, capacity 50·N).
//! With `cents`: the same instance with every positive demand entry `d` replaced by
//! `d − k/100` for a random `k` in 1..=99 (two-decimal demands such as 36.63), which makes
//! the exact answer's numbers much longer.
use leontief_solver::generate::{cluster_workload, SplitMix64};
use leontief_solver::{Instance, Rational, User};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |k: usize, default: u64| -> u64 {
        args.get(k)
            .map(|a| a.parse().expect("N M SEED are numbers"))
            .unwrap_or(default)
    };
    let (n, m, seed) = (num(0, 100_000) as usize, num(1, 8) as usize, num(2, 42));
    let mut inst = cluster_workload(n, m, seed);
    if args.get(3).map(String::as_str) == Some("cents") {
        let mut rng = SplitMix64::new(seed ^ 0x00c0_ffee);
        let users: Vec<User> = inst
            .users()
            .iter()
            .map(|u| {
                let mut u = u.clone();
                for d in &mut u.demand {
                    if d.is_positive() {
                        let k = Rational::new(i128::from(rng.range(1, 99)), 100).unwrap();
                        *d = d.clone() - k;
                    }
                }
                u
            })
            .collect();
        inst = Instance::new(inst.capacity().to_vec(), users).expect("valid instance");
    }
    println!("{}", inst.to_json());
}
