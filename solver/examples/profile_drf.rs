//! Profiling driver: `cargo run --release -p leontief-solver --example profile_drf -- 100000 8 [REPS]`
//! (with `PROFILE_DRF_JSON=FILE`, the instance is also written there as JSON, for the same
//! measurement from Python: python/benchmarks/bench_solve.py)
use leontief_solver::drf::progressive_filling;
use leontief_solver::FreezeRule;

mod common;

fn main() {
    let common::Workload {
        n,
        m,
        reps,
        instance: inst,
    } = common::workload(8);
    if let Some(path) = std::env::var_os("PROFILE_DRF_JSON") {
        std::fs::write(path, inst.to_json().to_string()).expect("writing the instance");
    }
    let (fill, per_run) = common::timed(reps, || {
        progressive_filling(&inst, FreezeRule::DemandersOnly)
    });
    let caps = fill.events.iter().filter(|e| e.frozen.len() == 1).count();
    println!(
        "n={n} m={m}: {per_run:?} per run, {} events ({} single-user), level bits {}",
        fill.events.len(),
        caps,
        fill.events.last().map(|e| e.level.bits()).unwrap_or(0)
    );
}
