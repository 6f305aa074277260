//! Profiling driver for the CEEI solver alone (Newton, certification attempt, proven gap):
//! `cargo run --release -p leontief-solver --example profile_ceei -- 100000 10 [REPS]`, on
//! `cluster_workload(n, m, 42)` (the instance `generate_instance flat n m 42` writes).
use leontief_solver::ceei::Ceei;
use leontief_solver::generate::cluster_workload;
fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let (n, m) = (
        args.first().copied().unwrap_or(100_000),
        args.get(1).copied().unwrap_or(10),
    );
    let inst = cluster_workload(n, m, 42);
    let reps = args.get(2).copied().unwrap_or(1).max(1);
    let t = std::time::Instant::now();
    let mut out = Ceei::new().solve(&inst).expect("a valid instance");
    for _ in 1..reps {
        out = Ceei::new().solve(&inst).expect("a valid instance");
    }
    println!(
        "n={n} m={m}: {:?} per run, certified {}, {} iterations, relative gap {:e}",
        t.elapsed() / reps as u32,
        out.certified,
        out.iterations,
        out.relative_gap
    );
}
