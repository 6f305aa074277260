//! What the profiling drivers `profile_drf` and `profile_ceei` share: their arguments
//! `N M [REPS]` and the timing of repeated runs. (A directory without `main.rs`, so Cargo
//! does not take it for an example.)

use std::time::{Duration, Instant};

use leontief_solver::random_instances::cluster_workload;
use leontief_solver::Instance;

/// The arguments `N M [REPS]` and the instance they name.
pub struct Workload {
    /// Users (`N`, default 100,000).
    pub n: usize,
    /// Resources (`M`, the driver's default).
    pub m: usize,
    /// Runs (`REPS`, default 1, at least 1).
    pub reps: usize,
    /// `cluster_workload(n, m, 42)`, the instance `generate_instance flat n m 42` writes.
    pub instance: Instance,
}

/// Reads `N M [REPS]` from the command line, `M` defaulting to `default_m`.
///
/// # Panics
/// On an argument that is not a number.
pub fn workload(default_m: usize) -> Workload {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let n = args.first().copied().unwrap_or(100_000);
    let m = args.get(1).copied().unwrap_or(default_m);
    Workload {
        n,
        m,
        reps: args.get(2).copied().unwrap_or(1).max(1),
        instance: cluster_workload(n, m, 42),
    }
}

/// Runs `run` `reps` times (at least once): the last answer and the time per run.
pub fn timed<T>(reps: usize, mut run: impl FnMut() -> T) -> (T, Duration) {
    let reps = reps.max(1);
    let start = Instant::now();
    let mut out = run();
    for _ in 1..reps {
        out = run();
    }
    (out, start.elapsed() / reps as u32)
}
