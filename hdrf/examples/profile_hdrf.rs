//! Times one static allocation of the benchmark's generated cluster tree, for profiling.
//!
//! `cargo run --release -p leontief-hdrf --example profile_hdrf -- POLICY LEAVES [REPEATS]`
//! (e.g. `hdrf 2000 3`); prints the time of each run and the largest denominator, in bits,
//! of the leaves' task counts.

use leontief_hdrf::random_trees::cluster_tree;
use leontief_hdrf::{allocate, Policy};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let policy = match args.get(1).map(String::as_str).unwrap_or("hdrf") {
        "collapsed" => Policy::Collapsed,
        "naive" => Policy::Naive,
        "min-satisfaction" => Policy::MinSatisfaction,
        "hdrf" => Policy::Hdrf,
        other => panic!("unknown policy {other}"),
    };
    let leaves: usize = args.get(2).map_or(2_000, |s| s.parse().expect("LEAVES"));
    let repeats: usize = args.get(3).map_or(1, |s| s.parse().expect("REPEATS"));
    let tree = cluster_tree(10, 9, leaves, 4, 42);
    for _ in 0..repeats {
        let start = Instant::now();
        let x = allocate(&tree, policy).expect("valid tree");
        let elapsed = start.elapsed();
        let bits = tree
            .leaves()
            .map(|l| x.tasks(l).map_or(0, |t| t.denom().bits()))
            .max()
            .unwrap_or(0);
        println!(
            "{} {leaves}: {elapsed:?}, largest denominator {bits} bits",
            policy.name()
        );
    }
}
