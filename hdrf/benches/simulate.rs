//! The task-level simulator: completions per second with exact event times.
//!
//! `cargo bench -p leontief-hdrf --bench simulate`
//!
//! - `simulate_lecture_1M`: the lecture's tree (A, B = {B1, B2}) with tasks of 1/100 of a
//!   resource, every leaf always busy, durations drawn on a 1/4 grid from [1, 2], horizon
//!   chosen so that about 1,000,000 tasks complete (the count is printed once).
//! - `simulate_cluster_200`: `random_trees::cluster_tree(10, 9, 200, 4, 42)` (depth 3, 200 leaves,
//!   m = 4), every leaf always busy, durations on a 1/4 grid from [1, 4].

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use leontief_hdrf::random_trees::cluster_tree;
use leontief_hdrf::simulate::{
    simulate, Duration, LeafWorkload, Record, Scenario, SimConfig, SimPolicy,
};
use leontief_hdrf::{Policy, Tree};
use leontief_solver::Rational;
use std::hint::black_box;

const LECTURE: &str = r#"{"resources": ["cpu", "mem"], "capacity": [100, 100],
  "tree": {"name": "root", "children": [{"name": "A", "demand": [1, 0]},
    {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#;

fn busy(tree: Tree, low: i128, high: i128) -> Scenario {
    let mut s = Scenario::new(tree.clone());
    for leaf in tree.leaves() {
        let w = LeafWorkload::unlimited(Duration::Uniform {
            low: Rational::from(low),
            high: Rational::from(high),
            steps: 4 * (high - low) as u64,
        });
        s.set_workload(tree.node(leaf).name(), w).expect("a leaf");
    }
    s
}

/// The policies on `s` up to `horizon` as the group `name`; each run's completions are
/// printed once.
fn bench_policies(
    c: &mut Criterion,
    name: &str,
    s: &Scenario,
    policies: [Policy; 3],
    horizon: i128,
) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for policy in policies.map(SimPolicy::Tree) {
        let cfg = SimConfig::new(policy).record(Record::Off).horizon(horizon);
        let run = simulate(s, &cfg).expect("valid");
        eprintln!("{policy}: {} completions", run.tasks.completed);
        group.bench_with_input(BenchmarkId::from_parameter(policy.name()), s, |b, s| {
            b.iter(|| simulate(black_box(s), &cfg).expect("valid").tasks.completed)
        });
    }
    group.finish();
}

fn lecture(c: &mut Criterion) {
    let s = busy(Tree::from_json_str(LECTURE).expect("valid"), 1, 2);
    // 200 slots turn over every 1.5 on average: about 133 completions per time unit.
    let policies = [Policy::Naive, Policy::MinSatisfaction, Policy::Hdrf];
    bench_policies(c, "simulate_lecture_1M", &s, policies, 7_500);
}

fn cluster(c: &mut Criterion) {
    let s = busy(cluster_tree(10, 9, 200, 4, 42), 1, 4);
    let policies = [Policy::Naive, Policy::MinSatisfaction, Policy::Collapsed];
    bench_policies(c, "simulate_cluster_200", &s, policies, 500);
}

criterion_group!(benches, lecture, cluster);
criterion_main!(benches);
