//! Static exact allocation of a generated three-level cluster: root → 10 pools → 90 pools
//! (100 pools below the root, depth 3) → 2,000 leaves, m = 4 (`random_trees::cluster_tree`).
//!
//! `cargo bench -p leontief-hdrf --bench static`
//!
//! H-DRF is also measured on smaller trees of the same kind: its exact allocation's own
//! numbers grow far faster with the tree than the other policies' (denominators of 754 bits
//! at 200 leaves, 26,076 at 800 and 51,149 at 2,000, against naive's 4,662 at 2,000; see
//! `leontief_hdrf::fill`, "Number sizes"), so one allocation of the 2,000-leaf tree costs
//! far more than the others and its group runs with flat sampling (run it alone with
//! `-- hdrf_static_2000_leaves_m4_hdrf`, or the rest with
//! `-- 'hdrf_static_2000_leaves_m4/|hdrf_static_hdrf_policy_m4'`). The last group,
//! `hdrf_static_2000_leaves_m4_catalog`, draws the leaves' demands from a catalog of 8 or 32
//! task shapes instead of each its own.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use leontief_hdrf::random_trees::{catalog_tree, cluster_tree};
use leontief_hdrf::{allocate, Policy};
use std::hint::black_box;
use std::time::Duration;

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
    for leaves in [200, 400, 800] {
        let tree = cluster_tree(10, 9, leaves, 4, 42);
        group.bench_with_input(BenchmarkId::from_parameter(leaves), &tree, |b, t| {
            b.iter(|| allocate(black_box(t), Policy::Hdrf).expect("valid tree"))
        });
    }
    group.finish();
}

fn hdrf_full_size(c: &mut Criterion) {
    let tree = cluster_tree(10, 9, 2_000, 4, 42);
    let mut group = c.benchmark_group("hdrf_static_2000_leaves_m4_hdrf");
    // Ten samples of one allocation each (criterion's minimum), not 1 + 2 + … + 10: flat
    // sampling, and a target time short enough that one iteration per sample meets it.
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(1));
    group.bench_with_input(BenchmarkId::from_parameter("hdrf"), &tree, |b, t| {
        b.iter(|| allocate(black_box(t), Policy::Hdrf).expect("valid tree"))
    });
    group.finish();
}

/// The same 2,000-leaf tree with demands from a catalog of 8 or 32 task shapes
/// (`random_trees::catalog_tree`): how H-DRF's cost depends on the number of distinct demands.
fn hdrf_catalog(c: &mut Criterion) {
    let mut group = c.benchmark_group("hdrf_static_2000_leaves_m4_catalog");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    for shapes in [8, 32] {
        let tree = catalog_tree(10, 9, 2_000, 4, shapes, 42);
        for policy in [Policy::Naive, Policy::Hdrf] {
            let id = format!("{}/{shapes}_shapes", policy.name());
            group.bench_with_input(BenchmarkId::from_parameter(id), &tree, |b, t| {
                b.iter(|| allocate(black_box(t), policy).expect("valid tree"))
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    static_policies,
    hdrf_by_size,
    hdrf_full_size,
    hdrf_catalog
);
criterion_main!(benches);
