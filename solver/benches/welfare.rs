//! Exact welfare at the sizes `explore` evaluates thousands of times: the utilitarian
//! optimum, the best SI and EF allocation and the welfare ratio at n = 6, m = 3.
//!
//! `cargo bench -p leontief-solver --bench welfare`

use criterion::{criterion_group, criterion_main, Criterion};
use leontief_solver::random_instances::cluster_workload;
use leontief_solver::welfare::{best_fair_welfare, utilitarian_optimum, welfare_ratio, Utility};
use leontief_solver::{Drf, Mechanism};
use std::hint::black_box;

fn small(c: &mut Criterion) {
    // Seed 42 gives a mix of weights and caps (see `cluster_workload`).
    let inst = cluster_workload(6, 3, 42);
    let caps = inst.users().iter().filter(|u| u.cap.is_some()).count();
    let drf = Drf::extended().allocate(&inst).unwrap();
    c.bench_function("welfare_optimum_n6_m3", |b| {
        b.iter(|| utilitarian_optimum(black_box(&inst), Utility::DominantShare))
    });
    c.bench_function("welfare_ratio_drf_n6_m3", |b| {
        b.iter(|| welfare_ratio(black_box(&inst), black_box(&drf), Utility::DominantShare))
    });
    c.bench_function(&format!("best_fair_welfare_n6_m3_{caps}caps"), |b| {
        b.iter(|| best_fair_welfare(black_box(&inst), Utility::DominantShare))
    });
}

criterion_group!(benches, small);
criterion_main!(benches);
