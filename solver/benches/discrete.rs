//! Discrete DRF benchmarks: the DRF paper's example, and skip-and-continue on a large
//! split cluster (50,000 machines of 64 CPU / 256 GB, 1,000 users; target ≤ 3 s).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use leontief_solver::{DiscreteDrf, Instance, Machines, MisfitRule, Rational, User};

/// SplitMix64: a tiny deterministic generator, so the bench needs no extra dependency.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi` (the modulo bias is irrelevant here).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

const MACHINES: u64 = 50_000;
const USERS: usize = 1_000;

fn large_cluster() -> Instance {
    let mut rng = SplitMix64(0x1EE7_DF7F);
    let users = (0..USERS)
        .map(|i| User::new(format!("u{i}"), [rng.range(1, 8), rng.range(1, 32)]))
        .collect();
    let capacity: Vec<Rational> = vec![(64 * MACHINES).into(), (256 * MACHINES).into()];
    Instance::builder(capacity)
        .resources(vec!["cpu".into(), "mem".into()])
        .users(users)
        .build()
        .expect("the generated instance is valid")
}

fn paper_example() -> Instance {
    Instance::new(
        vec![9.into(), 18.into()],
        vec![User::new("A", [1, 4]), User::new("B", [3, 1])],
    )
    .expect("the paper's example is valid")
}

fn bench_paper(c: &mut Criterion) {
    let inst = paper_example();
    let drf = DiscreteDrf::paper();
    c.bench_function("discrete/paper-example", |b| {
        b.iter(|| drf.run(black_box(&inst), false).expect("runs"))
    });
    c.bench_function("discrete/paper-example-traced", |b| {
        b.iter(|| drf.run(black_box(&inst), true).expect("runs"))
    });
}

fn bench_split(c: &mut Criterion) {
    let inst = large_cluster();
    let drf = DiscreteDrf::paper()
        .with_misfit(MisfitRule::Skip)
        .with_machines(Machines::Split(MACHINES));
    let out = drf.run(&inst, false).expect("runs");
    let launched: u64 = out.tasks.iter().sum();
    eprintln!(
        "split-50k: {launched} tasks launched on {} machines",
        out.machines_used
    );
    let mut group = c.benchmark_group("discrete/skip-split-50k-machines-1k-users");
    group.sample_size(10);
    group.bench_function("run", |b| {
        b.iter(|| drf.run(black_box(&inst), false).expect("runs"))
    });
    group.finish();
}

criterion_group!(benches, bench_paper, bench_split);
criterion_main!(benches);
