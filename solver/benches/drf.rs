//! Exact progressive filling: growth with n at m = 8, and the small n = 100 × m = 5 case.
//!
//! `cargo bench -p leontief-solver --bench drf`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use leontief_solver::drf::progressive_filling;
use leontief_solver::random_instances::cluster_workload;
use leontief_solver::FreezeRule;
use std::hint::black_box;

fn growth(c: &mut Criterion) {
    let mut group = c.benchmark_group("drf_extended_m8");
    group.sample_size(10);
    for n in [1_000, 10_000, 100_000] {
        let inst = cluster_workload(n, 8, 42);
        group.bench_with_input(BenchmarkId::from_parameter(n), &inst, |b, inst| {
            b.iter(|| progressive_filling(black_box(inst), FreezeRule::DemandersOnly))
        });
    }
    group.finish();
}

fn small(c: &mut Criterion) {
    let inst = cluster_workload(100, 5, 42);
    c.bench_function("drf_extended_n100_m5", |b| {
        b.iter(|| progressive_filling(black_box(&inst), FreezeRule::DemandersOnly))
    });
    c.bench_function("drf_common_level_n100_m5", |b| {
        b.iter(|| progressive_filling(black_box(&inst), FreezeRule::Everyone))
    });
}

criterion_group!(benches, growth, small);
criterion_main!(benches);
