//! Static exact allocation of a generated three-level cluster: root → 10 pools → 90 pools
//! (100 pools below the root, depth 3) → 2,000 leaves, m = 4 (`generate::cluster_tree`).
//!
//! `cargo bench -p leontief-hdrf --bench static`
//!
//! H-DRF is measured on smaller trees of the same kind: its exact allocation's numbers grow
//! far faster with the tree (about 1,500 bits at 200 leaves, 16,000 at 600 and 90,000 at 800),
//! and the 2,000-leaf tree does not finish in minutes (see `leontief_hdrf::fill`, "Number
//! sizes").

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use leontief_hdrf::generate::cluster_tree;
use leontief_hdrf::{allocate, Policy};
use std::hint::black_box;

fn static_policies(c: &mut Criterion) {
    let tree = cluster_tree(10, 9, 2_000, 4, 42);
    let mut group = c.benchmark_group("hdrf_static_2000_leaves_m4");
    group.sample_size(10);
    for policy in [Policy::Collapsed, Policy::Naive, Policy::MinSatisfaction] {
        group.bench_with_input(BenchmarkId::from_parameter(policy.name()), &tree, |b, t| {
            b.iter(|| allocate(black_box(t), policy).expect("valid tree"))
        });
    }
    group.finish();
}

fn hdrf_by_size(c: &mut Criterion) {
    let mut group = c.benchmark_group("hdrf_static_hdrf_policy_m4");
    group.sample_size(10);
    for leaves in [200, 400] {
        let tree = cluster_tree(10, 9, leaves, 4, 42);
        group.bench_with_input(BenchmarkId::from_parameter(leaves), &tree, |b, t| {
            b.iter(|| allocate(black_box(t), Policy::Hdrf).expect("valid tree"))
        });
    }
    group.finish();
}

criterion_group!(benches, static_policies, hdrf_by_size);
criterion_main!(benches);
