//! Writes the benchmark workloads as instance files for end-to-end CLI measurements
//! (`BENCHMARKS.md`, "End to end").
//!
//! ```text
//! cargo run --release -p leontief-hdrf --example generate_instance -- KIND N M SEED > FILE
//! ```
//!
//! - `flat`: `leontief_solver::random_instances::cluster_workload(N, M, SEED)` — integer demands in
//!   `0..=100` with about 30% zeros, weights on a fifth of the users, task caps on another
//!   fifth, capacity `50·N` per resource (the flat DRF bench's workload);
//! - `flat-decimal`: the same instance with every demand divided by 100 (two-decimal demands
//!   such as `0.37`) and the capacities divided by 100 too, so that the answer's task counts
//!   are those of `flat` while every number read is a decimal;
//! - `flat-capacities`: the same users with capacities drawn uniformly in `25·N..=75·N`
//!   (one draw per resource from `SplitMix64::new(SEED ^ 0xca9a)`): distinct capacities make
//!   the users' aggregate shares (asset fairness) distinct fractions with large
//!   denominators, the case where asset fairness's exact answer is large;
//! - `machines`: the discrete DRF bench's cluster (`solver/benches/discrete.rs`): N users
//!   with tasks of 1–8 CPUs and 1–32 GB, capacity `(64·M, 256·M)` for M identical machines of
//!   (64, 256) (M is the third argument; the seed is the bench's own, SEED is ignored), for
//!   `solve --mechanism discrete-drf --misfit skip --machines M`;
//! - `tree`: `leontief_hdrf::random_trees::cluster_tree(10, 9, N, M, SEED)` — N leaves in 100
//!   pools, depth 3 (the hierarchical bench's workload).
//!
//! The output is the instance's JSON form (`Instance::to_json`; a tree's, with pools), every
//! number an exact string, read back by `leontief solve FILE`.

use std::io::Write;

use leontief_hdrf::random_trees::cluster_tree;
use leontief_solver::random_instances::{cluster_workload, SplitMix64};
use leontief_solver::{Instance, Rational, User};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: generate_instance flat|flat-decimal|flat-capacities|machines|tree N M SEED";
    let kind = args.get(1).expect(usage).as_str();
    let n: usize = args.get(2).expect(usage).parse().expect("N");
    let m: usize = args.get(3).expect(usage).parse().expect("M");
    let seed: u64 = args.get(4).expect(usage).parse().expect("SEED");
    let json = match kind {
        "flat" => cluster_workload(n, m, seed).to_json(),
        "flat-decimal" => hundredths(&cluster_workload(n, m, seed)).to_json(),
        "flat-capacities" => varied_capacities(&cluster_workload(n, m, seed), seed).to_json(),
        "machines" => machines(n, m as u64).to_json(),
        "tree" => cluster_tree(10, 9, n, m, seed).instance().to_json(),
        other => panic!("unknown kind {other}; {usage}"),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut out, &json).expect("write the instance");
    writeln!(out).expect("write the instance");
}

/// The instance with every demand and capacity divided by 100: the same task counts, decimal
/// inputs.
fn hundredths(inst: &Instance) -> Instance {
    let hundred = Rational::from(100);
    let users = inst
        .users()
        .iter()
        .map(|u| {
            let mut v = User::new(
                u.name.clone(),
                u.demand.iter().map(|d| d / &hundred).collect::<Vec<_>>(),
            )
            .weight(u.weight.clone());
            if let Some(t) = &u.cap {
                v = v.cap(t.clone());
            }
            v
        })
        .collect();
    let capacity = inst.capacity().iter().map(|r| r / &hundred).collect();
    Instance::new(capacity, users).expect("a scaled valid instance is valid")
}

/// The instance with capacities drawn uniformly in `25·n..=75·n`.
fn varied_capacities(inst: &Instance, seed: u64) -> Instance {
    let n = inst.num_users() as u64;
    let mut rng = SplitMix64::new(seed ^ 0xca9a);
    let capacity = (0..inst.num_resources())
        .map(|_| Rational::from(rng.range(25 * n, 75 * n)))
        .collect();
    Instance::new(capacity, inst.users().to_vec()).expect("positive capacities keep it valid")
}

/// The discrete bench's cluster: `n` users, `(1..=8, 1..=32)` per task, `k` machines.
fn machines(n: usize, k: u64) -> Instance {
    let mut rng = SplitMix64::new(0x1EE7_DF7F);
    let users = (0..n)
        .map(|i| User::new(format!("u{i}"), [rng.range(1, 8), rng.range(1, 32)]))
        .collect();
    let capacity = vec![Rational::from(64 * k), Rational::from(256 * k)];
    Instance::builder(capacity)
        .resources(vec!["cpu".into(), "mem".into()])
        .users(users)
        .build()
        .expect("positive demands and capacities")
}
