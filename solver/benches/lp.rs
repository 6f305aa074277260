//! DRF as a lexicographic max-min LP sequence (exact recovery) against exact progressive
//! filling, on the same instances.
//!
//! Instances: `cluster_workload(1000, 10, 42)` (a fifth of the users capped at 1..=4 tasks,
//! a fifth weighted 1..=5), and the same users with their caps removed. Target: the default
//! sequence (microlp, surplus form, batched caps) in ≤ 2 s at 1,000 × 10. The literal
//! variants (explicit level rows, caps in the LP) are measured too.
//!
//! `cargo bench -p leontief-solver --bench lp` (add `--features highs` for HiGHS).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use leontief_solver::drf::progressive_filling;
use leontief_solver::lp::{CapHandling, LexMaxMin, LpForm};
use leontief_solver::random_instances::cluster_workload;
use leontief_solver::{FreezeRule, Instance};

fn without_caps(inst: &Instance) -> Instance {
    let users = inst
        .users()
        .iter()
        .cloned()
        .map(|mut u| {
            u.cap = None;
            u
        })
        .collect();
    Instance::new(inst.capacity().to_vec(), users).expect("same users, no caps")
}

/// The configurations measured, by name.
fn configurations(capped: bool) -> Vec<(&'static str, LexMaxMin)> {
    let base = LexMaxMin::drf();
    let mut all = vec![
        ("microlp_surplus_batched", base),
        ("microlp_explicit_batched", base.with_form(LpForm::Explicit)),
    ];
    if capped {
        // Without caps the cap handling makes no difference.
        all.push((
            "microlp_surplus_caps_in_lp",
            base.with_caps(CapHandling::InLp),
        ));
        all.push((
            "microlp_explicit_caps_in_lp",
            base.with_form(LpForm::Explicit)
                .with_caps(CapHandling::InLp),
        ));
    }
    #[cfg(feature = "highs")]
    {
        use leontief_solver::lp::LpBackend;
        let highs = base.with_backend(LpBackend::Highs);
        all.push(("highs_surplus_batched", highs));
        all.push(("highs_explicit_batched", highs.with_form(LpForm::Explicit)));
    }
    all
}

fn lp_vs_filling(c: &mut Criterion) {
    let capped = cluster_workload(1000, 10, 42);
    let uncapped = without_caps(&capped);
    for (label, inst) in [("caps", &capped), ("nocaps", &uncapped)] {
        let want = progressive_filling(inst, FreezeRule::DemandersOnly).tasks;
        let configs = configurations(label == "caps");
        // The shape of each sequence, printed once, so that timings can be read per LP.
        for (name, lp) in &configs {
            let out = lp.solve(inst).expect("solves");
            assert_eq!(
                out.tasks, want,
                "the LP sequence must equal progressive filling"
            );
            eprintln!(
                "lp_drf_n1000_m10_{label}/{name}: {} LPs, {} fallbacks, max float error {:.1e}",
                out.stages.len(),
                out.fallbacks(),
                out.max_float_error
            );
        }

        let mut group = c.benchmark_group(format!("lp_drf_n1000_m10_{label}"));
        group.sample_size(10);
        group.bench_function("progressive_filling", |b| {
            b.iter(|| progressive_filling(black_box(inst), FreezeRule::DemandersOnly))
        });
        for (name, lp) in &configs {
            group.bench_function(*name, |b| {
                b.iter(|| lp.solve(black_box(inst)).expect("solves"))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, lp_vs_filling);
criterion_main!(benches);
