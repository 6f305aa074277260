//! Profiling driver for the CEEI solver alone (Newton, certification attempt, proven gap):
//! `cargo run --release -p leontief-solver --example profile_ceei -- 100000 10 [REPS]`, on
//! `cluster_workload(n, m, 42)` (the instance `generate_instance flat n m 42` writes).
use leontief_solver::ceei::Ceei;

mod common;

fn main() {
    let common::Workload {
        n,
        m,
        reps,
        instance: inst,
    } = common::workload(10);
    let (out, per_run) =
        common::timed(reps, || Ceei::new().solve(&inst).expect("a valid instance"));
    println!(
        "n={n} m={m}: {per_run:?} per run, certified {}, {} iterations, relative gap {:e}",
        out.certified, out.iterations, out.relative_gap
    );
}
