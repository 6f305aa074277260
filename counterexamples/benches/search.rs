//! Search throughput and time to the first counterexample.
//!
//! - `throughput/*`: a fixed budget of 200,000 scenarios, n in 2..=5, m in 2..=3, zeros 1/3;
//!   scenarios per second = 200,000 / time.
//! - `first/*`: from a cold start until the first (shrunk) counterexample: extended DRF
//!   `gsp-strong` for seeds 1–5 (the median is the figure), CEEI `sp`.

use criterion::{criterion_group, criterion_main, Criterion};
use leontief_counterexamples::instance_generator::{Chance, GeneratorConfig};
use leontief_counterexamples::search::{search, SearchConfig};
use leontief_solver::ceei::Ceei;
use leontief_solver::properties::Property;
use leontief_solver::{Drf, Mechanism};

const BUDGET: u64 = 200_000;

fn generator(users: std::ops::RangeInclusive<usize>) -> GeneratorConfig {
    let mut g = GeneratorConfig::new();
    g.users = users;
    g.resources = 2..=3;
    g.zeros = Chance::new(1, 3).expect("valid");
    g
}

fn run(mechanism: &dyn Mechanism, cfg: &SearchConfig) -> u64 {
    let summary = search(mechanism, cfg, &mut |_| Ok(()), &|_| {}).expect("no output to fail");
    summary.scenarios
}

fn throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("throughput");
    group.sample_size(10);
    for property in [Property::Sp, Property::GspStrong, Property::GspWeak] {
        let mut cfg = SearchConfig::new(property, 1, generator(2..=5));
        cfg.run.budget = Some(BUDGET);
        // Count scenarios, not the shrinking of what is found.
        cfg.shrink = None;
        group.bench_function(property.name(), |b| b.iter(|| run(&Drf::extended(), &cfg)));
    }
    group.finish();
}

fn first(c: &mut Criterion) {
    let mut group = c.benchmark_group("first");
    group.sample_size(10);
    for seed in 1..=5 {
        let mut cfg = SearchConfig::new(Property::GspStrong, seed, generator(2..=4));
        cfg.max_found = Some(1);
        group.bench_function(format!("drf-gsp-strong-seed{seed}"), |b| {
            b.iter(|| run(&Drf::extended(), &cfg))
        });
    }
    let mut cfg = SearchConfig::new(Property::Sp, 1, generator(2..=4));
    cfg.max_found = Some(1);
    group.bench_function("ceei-sp", |b| b.iter(|| run(&Ceei::new(), &cfg)));
    group.finish();
}

criterion_group!(benches, throughput, first);
criterion_main!(benches);
