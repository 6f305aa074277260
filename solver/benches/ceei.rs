//! CEEI benchmarks: the dual Newton solver on 10,000 users × 10 resources (target ≤ 100 ms
//! to a relative duality gap ≤ 1e-12), the full `solve` (Newton, certification attempt and
//! proven gap bound) on the same instance, and Newton vs Clarabel on 1,000 × 10.
//!
//! Workload: [`cluster_workload`] — integer demands in `0..=100` with about 30% zeros (each
//! user some positive demand), integer weights `1..=5` on a fifth of the users, integer
//! task caps `1..=4` on another fifth (many of which bind), capacity `50·n` per resource.
//!
//! `cargo bench -p leontief-solver --bench ceei`

use criterion::{criterion_group, criterion_main, Criterion};
use leontief_solver::ceei::{Ceei, SolveStatus};
use leontief_solver::random_instances::cluster_workload;
use std::hint::black_box;

#[path = "../tests/integration/common/clarabel.rs"]
#[allow(dead_code)]
mod clarabel;
use clarabel::solve_clarabel;

fn newton_10k(c: &mut Criterion) {
    let inst = cluster_workload(10_000, 10, 42);
    let solver = Ceei::new().tolerance(1e-12);
    let s = solver.solve_float(&inst).unwrap();
    assert_eq!(s.status, SolveStatus::Solved);
    assert!(s.relative_gap <= 1e-12);
    let full = solver.solve(&inst).unwrap();
    eprintln!(
        "ceei 10000x10: {} Newton iterations, float gap {:e}, certified {}, proven gap {:e}",
        s.iterations, s.relative_gap, full.certified, full.relative_gap
    );
    let mut group = c.benchmark_group("ceei_n10000_m10");
    group.sample_size(10);
    group.bench_function("newton", |b| {
        b.iter(|| solver.solve_float(black_box(&inst)).unwrap())
    });
    group.bench_function("solve_certify_or_bound", |b| {
        b.iter(|| solver.solve(black_box(&inst)).unwrap())
    });
    group.finish();
}

fn versus_clarabel_1k(c: &mut Criterion) {
    let inst = cluster_workload(1_000, 10, 7);
    let solver = Ceei::new().tolerance(1e-12);
    let newton = solver.solve_float(&inst).unwrap();
    let cl = solve_clarabel(&inst).unwrap();
    let worst = newton
        .tasks
        .iter()
        .zip(&cl.tasks)
        .fold(0.0_f64, |a, (x, y)| {
            a.max((x - y).abs() / x.abs().max(y.abs()))
        });
    eprintln!(
        "ceei 1000x10: Newton {} iterations; Clarabel {:?} in {} iterations, {:?}; \
         max relative task difference {worst:e}",
        newton.iterations, cl.status, cl.iterations, cl.solve_time
    );
    let mut group = c.benchmark_group("ceei_n1000_m10");
    group.sample_size(10);
    group.bench_function("newton", |b| {
        b.iter(|| solver.solve_float(black_box(&inst)).unwrap())
    });
    group.bench_function("clarabel", |b| {
        b.iter(|| solve_clarabel(black_box(&inst)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, newton_10k, versus_clarabel_1k);
criterion_main!(benches);
