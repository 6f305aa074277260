//! Profiling driver: `cargo run --release -p leontief-solver --example profile_drf -- 100000 8 [REPS]`
//! (with `PROFILE_DRF_JSON=FILE`, the instance is also written there as JSON, for the same
//! measurement from Python: python/benchmarks/bench_solve.py)
use leontief_solver::drf::progressive_filling;
use leontief_solver::generate::cluster_workload;
use leontief_solver::FreezeRule;
fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let (n, m) = (
        args.first().copied().unwrap_or(100_000),
        args.get(1).copied().unwrap_or(8),
    );
    let inst = cluster_workload(n, m, 42);
    if let Some(path) = std::env::var_os("PROFILE_DRF_JSON") {
        std::fs::write(path, inst.to_json().to_string()).expect("writing the instance");
    }
    let reps = args.get(2).copied().unwrap_or(1);
    let t = std::time::Instant::now();
    let mut fill = progressive_filling(&inst, FreezeRule::DemandersOnly);
    for _ in 1..reps {
        fill = progressive_filling(&inst, FreezeRule::DemandersOnly);
    }
    let caps = fill.events.iter().filter(|e| e.frozen.len() == 1).count();
    println!(
        "n={n} m={m}: {:?} per run, {} events ({} single-user), level bits {}",
        t.elapsed() / reps as u32,
        fill.events.len(),
        caps,
        fill.events.last().map(|e| e.level.bits()).unwrap_or(0)
    );
}
