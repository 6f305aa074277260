//! The task-level simulator against hand-derived facts: the lecture's and the H-DRF paper's
//! starvation under churn, preemption, machines, FIFO, and the convergence of the first fill
//! to the static fluid allocations.

use crate::common;

use common::discrete::discrete;
use common::{q as r, small_random_tree};
use leontief_hdrf::simulate::{simulate, Record, Scenario, SimConfig, SimPolicy, Simulation};
use leontief_hdrf::tiebreak::TieBreaks;
use leontief_hdrf::{allocate, NodeSpec, Policy, Tree};
use leontief_solver::{Drf, Instance, Mechanism, Rational};

fn example(name: &str) -> Scenario {
    let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    Scenario::from_json_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn idx(s: &Scenario, name: &str) -> usize {
    s.tree.find(name).unwrap().index()
}

/// The minimum of a node's share over every recorded (settled) state.
fn min_over_series(run: &Simulation, v: usize) -> Rational {
    common::shares_over_time(run, v).min().unwrap()
}

/// `policy` on `s` with the durations of `seed`.
fn seeded(s: &Scenario, policy: Policy, seed: u64) -> Simulation {
    simulate(s, &SimConfig::new(SimPolicy::Tree(policy)).seed(seed)).unwrap()
}

/// The lecture's tree with tasks of 1/20 and fixed durations: A 3/2, B1 1, B2 1000 (B2 holds
/// all the memory for the whole horizon 100).
const LECTURE_FIXED: &str = r#"{"resources": ["cpu", "mem"], "capacity": [1, 1],
  "tree": {"name": "root", "children": [{"name": "A", "demand": ["1/20", 0]},
    {"name": "B", "children": [{"name": "B1", "demand": ["1/20", 0]}, {"name": "B2", "demand": [0, "1/20"]}]}]},
  "horizon": 100, "starvation_tolerance": 10,
  "workload": {"A": {"duration": 1.5}, "B1": {"duration": 1}, "B2": {"duration": 1000}}}"#;

/// Hand trace (shares in 20ths; keys naive: A's CPU vs B's max(CPU of B1, memory of B2),
/// ties to A, then B1): the fill from zero alternates A, B2, B1 from (n, n, n-1) and stops the
/// CPU at A 10, B1 10; B2 then takes all 20 memory slots. From then on B's key is 1 and A's is
/// below 1 whenever CPU is free, so every freed CPU slot goes to A: at t = 1 B1's ten tasks
/// finish and A takes the CPU; B1 = 0 on [1, 100) with work pending. So B1's time-average
/// share is (1/2 · 1) / 100 = 1/200, its time below 1/4 is 99, A holds 1 from t = 1.
#[test]
fn lecture_naive_drains_b1_exactly() {
    let s = Scenario::from_json_str(LECTURE_FIXED).unwrap();
    // The trace breaks ties by input order.
    let config = SimConfig::new(SimPolicy::Tree(Policy::Naive)).tie(TieBreaks::first());
    let run = simulate(&s, &config).unwrap();
    let (a, b1, b2) = (idx(&s, "A"), idx(&s, "B1"), idx(&s, "B2"));
    assert_eq!(run.series[0].time, Rational::ZERO);
    assert_eq!(run.series[0].shares[a], r("1/2"));
    assert_eq!(run.series[0].shares[b1], r("1/2"));
    assert_eq!(run.series[0].shares[b2], Rational::ONE);
    let n = &run.nodes[b1];
    assert_eq!(n.time_average_share, r("1/200"));
    assert_eq!(n.min_share_steady, Rational::ZERO);
    assert_eq!(n.time_below_guarantee, Rational::from(99));
    assert_eq!(n.longest_below_guarantee, Rational::from(99));
    assert!(n.starved);
    assert_eq!(run.nodes[a].min_share_steady, Rational::ONE);
    assert_eq!(run.nodes[a].final_tasks, Some(20));
    assert_eq!(run.nodes[b2].min_share_steady, Rational::ONE);
}

/// Min-satisfaction on the same workload. σ_A = 2a, key(B) = σ_B1 = 4b while B1 is active
/// (B2 never fits: the memory is full), ties to A. At t = 1 B1 frees 10 slots with a = 10:
/// B1 takes 5 (σ 1, tie), then A, B1, A, A, B1 → a = 13, b = 7. In general the last slot A
/// takes in a round satisfies 2(a - 1/20) <= 4b with a + b = 1, so b >= 19/60, i.e. b >= 7/20
/// on the 1/20 grid, at every settled time; and b = 7/20 is reached at t = 1.
#[test]
fn lecture_min_satisfaction_keeps_b1_at_seven_twentieths() {
    let s = Scenario::from_json_str(LECTURE_FIXED).unwrap();
    // The trace breaks ties by input order.
    let config = SimConfig::new(SimPolicy::Tree(Policy::MinSatisfaction)).tie(TieBreaks::first());
    let run = simulate(&s, &config).unwrap();
    let (a, b1) = (idx(&s, "A"), idx(&s, "B1"));
    let at_one = run.series.iter().find(|x| x.time == Rational::ONE).unwrap();
    assert_eq!(at_one.shares[a], r("13/20"));
    assert_eq!(at_one.shares[b1], r("7/20"));
    assert_eq!(min_over_series(&run, b1), r("7/20"));
    let n = &run.nodes[b1];
    assert!(n.min_share_steady >= r("7/20"));
    assert_eq!(n.time_below_guarantee, Rational::ZERO);
    assert!(!n.starved);
}

/// The naive run with this seed, checked: in the steady state `starved` holds nothing and is
/// starved, while `hog` holds its whole dominant share (1).
fn naive_starves(s: &Scenario, starved: usize, hog: usize, seed: u64) -> Simulation {
    let run = seeded(s, Policy::Naive, seed);
    let node = &run.nodes[starved];
    assert_eq!(node.min_share_steady, Rational::ZERO, "seed {seed}");
    assert!(node.starved, "seed {seed}");
    assert_eq!(
        run.nodes[hog].min_share_steady,
        Rational::ONE,
        "seed {seed}"
    );
    run
}

/// The example file has seeded random durations; the facts above hold for every draw: naive
/// drains B1 once its first tasks end (by t = 3/2), min-satisfaction keeps B1 >= 7/20 >= 1/4.
#[test]
fn lecture_churn_example_for_several_seeds() {
    let s = example("lecture-churn.json");
    let (a, b1) = (idx(&s, "A"), idx(&s, "B1"));
    for seed in 1..=5 {
        let naive = naive_starves(&s, b1, a, seed);
        assert!(naive.nodes[b1].time_below_guarantee >= r("197/2"));
        assert!(
            naive.tasks.completed > 1000,
            "churn happens: {}",
            naive.tasks.completed
        );

        let fair = seeded(&s, Policy::MinSatisfaction, seed);
        assert!(min_over_series(&fair, b1) >= r("7/20"), "seed {seed}");
        assert!(fair.nodes[b1].min_share_steady >= r("1/4"));
        assert_eq!(fair.nodes[b1].time_below_guarantee, Rational::ZERO);
        assert!(!fair.nodes[b1].starved);
    }
}

/// The H-DRF paper's tree (n21 holds all the CPU, so n2's naive key is 1): naive gives every
/// GPU slot n22 frees to n1, which ends with all the GPU. H-DRF compares n1's GPU with n22's
/// (n21 is blocked and the CPU saturated, so both drop out of n2's share): its fill from zero
/// goes n1, n21, n22 from (n, n, n) and stops the GPU at 10/10; after a round, the last slot n1
/// took satisfies a - 1/20 <= b with a + b = 1, so b >= 19/40, i.e. n22 >= 1/2. Under
/// min-satisfaction the lecture's bound holds: n22 >= 7/20.
#[test]
fn hdrf_paper_churn_example() {
    let s = example("hdrf-paper-churn.json");
    let (n1, n22) = (idx(&s, "n1"), idx(&s, "n22"));
    for seed in 1..=3 {
        // The GPU drifts to n1.
        naive_starves(&s, n22, n1, seed);

        let hdrf = seeded(&s, Policy::Hdrf, seed);
        assert_eq!(hdrf.series[0].shares[n22], r("1/2"));
        assert!(min_over_series(&hdrf, n22) >= r("1/2"), "seed {seed}");
        assert!(!hdrf.nodes[n22].starved);

        let fair = seeded(&s, Policy::MinSatisfaction, seed);
        assert!(min_over_series(&fair, n22) >= r("7/20"));
        assert!(!fair.nodes[n22].starved);
    }
}

/// Preemption after τ = 2 under naive HDRF, fixed durations. B1 falls to 0 at t = 1; at t = 3
/// it has been below 1/4 for 2 and preempts A's youngest tasks (A stays above 1/2) until B1
/// runs 5 tasks (5/20 = 1/4). Those end at 4, the CPU goes back to A, and at 6 B1 preempts
/// again: spells [3k + 1, 3k + 3) for k = 0..=32, 33 × 2 = 66 time units below the
/// guarantee, 33 × 5 = 165 tasks preempted, no spell longer than 2.
#[test]
fn preemption_bounds_naive_starvation_by_the_timeout() {
    let s = Scenario::from_json_str(LECTURE_FIXED).unwrap();
    let run = simulate(
        &s,
        &SimConfig::new(SimPolicy::Tree(Policy::Naive))
            .preemption(2)
            .record(Record::Off),
    )
    .unwrap();
    let n = &run.nodes[idx(&s, "B1")];
    assert_eq!(run.tasks.preempted, 165);
    assert_eq!(n.time_below_guarantee, Rational::from(66));
    assert_eq!(n.longest_below_guarantee, Rational::from(2));
    assert!(!n.starved);
    assert!(run.series.is_empty());
    // On 2 machines of 10 CPU slots each, a CPU task fits on some machine exactly when the
    // pooled CPU has a free slot, and one killed A task makes room for one B1 task: the same
    // trace.
    let split = simulate(
        &s,
        &SimConfig::new(SimPolicy::Tree(Policy::Naive))
            .preemption(2)
            .machines(2)
            .record(Record::Off),
    )
    .unwrap();
    assert_eq!(split.tasks.preempted, 165);
    assert_eq!(split.nodes, run.nodes);
}

/// FIFO serves the oldest submission, not the least served leaf. One resource, tasks of the
/// whole capacity, duration 3: x submits at 0 and 2, y at 1. FIFO: x runs [0, 3), y (submitted
/// at 1) [3, 6), x's second [6, 9). Naive picks x again at t = 3 (both at share 0, x first):
/// x [3, 6), y [6, 9). y is below its guarantee 1/2 with work pending on [1, 3) under FIFO and
/// on [1, 6) under naive; once its only task runs or is done, it has no unmet demand.
#[test]
fn fifo_serves_the_oldest_submission() {
    let s = Scenario::from_json_str(
        r#"{"capacity": [1], "horizon": 9, "tree": {"children": [
            {"name": "x", "demand": [1]}, {"name": "y", "demand": [1]}]},
            "workload": {"x": {"duration": 3, "arrivals": [0, 2]}, "y": {"duration": 3, "arrivals": [1]}}}"#,
    )
    .unwrap();
    let (x, y) = (idx(&s, "x"), idx(&s, "y"));
    let at_three = |run: &Simulation| {
        let smp = run
            .series
            .iter()
            .find(|p| p.time == Rational::from(3))
            .unwrap();
        (smp.shares[x].clone(), smp.shares[y].clone())
    };
    let fifo = simulate(&s, &SimConfig::new(SimPolicy::Fifo)).unwrap();
    assert_eq!(at_three(&fifo), (Rational::ZERO, Rational::ONE));
    assert_eq!(fifo.nodes[y].time_average_share, r("1/3"));
    assert_eq!(fifo.nodes[x].time_average_share, r("2/3"));
    assert_eq!(fifo.nodes[y].time_below_guarantee, Rational::from(2));
    let first = SimConfig::new(SimPolicy::Tree(Policy::Naive)).tie(TieBreaks::first());
    let naive = simulate(&s, &first).unwrap();
    assert_eq!(at_three(&naive), (Rational::ONE, Rational::ZERO));
    assert_eq!(naive.nodes[y].time_below_guarantee, Rational::from(5));
    assert_eq!(naive.tasks.completed, 2);
    // The default tie-break, count: at t = 3 x has started one task and y none, so y runs
    // [3, 6) and x's second [6, 9), as under FIFO; y is below on [1, 3) only.
    let count = simulate(&s, &SimConfig::new(SimPolicy::Tree(Policy::Naive))).unwrap();
    assert_eq!(at_three(&count), (Rational::ZERO, Rational::ONE));
    assert_eq!(count.nodes[y].time_below_guarantee, Rational::from(2));
}

/// Machines: a task must fit on one. Tasks of 1/3 on 2 machines of 1/2: one per machine (two
/// would need 2/3), so 2 tasks (share 2/3) against 3 on the pooled cluster.
#[test]
fn machines_fragment() {
    let s = Scenario::from_json_str(
        r#"{"capacity": [1], "horizon": 5, "tree": {"children": [{"name": "x", "demand": ["1/3"]}]}}"#,
    )
    .unwrap();
    let x = idx(&s, "x");
    let pooled = simulate(&s, &SimConfig::new(SimPolicy::Tree(Policy::Naive))).unwrap();
    assert_eq!(pooled.nodes[x].final_tasks, Some(3));
    let split = simulate(
        &s,
        &SimConfig::new(SimPolicy::Tree(Policy::Naive)).machines(2),
    )
    .unwrap();
    assert_eq!(split.nodes[x].final_tasks, Some(2));
    assert_eq!(split.nodes[x].final_share, r("2/3"));
    // Default workload: duration 1, always busy: 5 time units × 3 tasks, the last ending at 5.
    assert_eq!(pooled.tasks.completed, 12);
    let err = simulate(
        &s,
        &SimConfig::new(SimPolicy::Tree(Policy::Naive)).machines(4),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "machines: a task of x needs 1/3 of r1, more than one of 4 machines holds (1/4); it could never run"
    );
}

/// The same scenario and seed give the same run; another seed other durations.
#[test]
fn deterministic_per_seed() {
    let s = example("lecture-churn.json");
    let cfg = SimConfig::new(SimPolicy::Tree(Policy::MinSatisfaction));
    let one = simulate(&s, &cfg).unwrap();
    assert_eq!(one, simulate(&s, &cfg).unwrap());
    let other = simulate(&s, &cfg.clone().seed(2)).unwrap();
    assert_ne!(one.series, other.series);
}

/// `tree` with every demand divided by `k` and every cap multiplied by `k`.
fn scaled(tree: &Tree, k: u64) -> Tree {
    let kk = Rational::from(k);
    fn spec(tree: &Tree, v: leontief_hdrf::NodeId, kk: &Rational) -> NodeSpec {
        let node = tree.node(v);
        let mut s = match node.demand() {
            Some(d) => {
                let mut leaf = NodeSpec::leaf(node.name(), d.iter().map(|x| x / kk));
                leaf.cap = node.cap().map(|t| t * kk);
                leaf
            }
            None => NodeSpec::pool(node.name(), node.children().map(|c| spec(tree, c, kk))),
        };
        s.weight = node.weight().clone();
        s
    }
    Tree::build(
        Instance::builder(tree.capacity().to_vec())
            .resources(tree.resources().to_vec())
            .tree(spec(tree, tree.root(), &kk)),
    )
    .unwrap()
}

/// Tasks per leaf of the original tree (`running / k`) after the first instant of a run in
/// which every leaf always has work and no task ends before the horizon.
fn first_fill(tree: &Tree, policy: SimPolicy, k: u64) -> Vec<Rational> {
    let t = scaled(tree, k);
    let mut s = Scenario::new(t.clone());
    for leaf in t.leaves() {
        s.set_workload(
            t.node(leaf).name(),
            leontief_hdrf::simulate::LeafWorkload::unlimited(
                leontief_hdrf::simulate::Duration::Fixed(10.into()),
            ),
        )
        .unwrap();
    }
    // The discrete fill breaks ties by input order.
    let config = SimConfig::new(policy)
        .horizon(1)
        .record(Record::Off)
        .tie(TieBreaks::first());
    let run = simulate(&s, &config).unwrap();
    t.nodes()
        .map(|v| match run.nodes[v.index()].final_tasks {
            Some(n) => Rational::from(n) / Rational::from(k),
            None => Rational::ZERO,
        })
        .collect()
}

/// On random trees (zeros, weights, caps) the simulator's first fill with tasks of `d / K` is
/// exactly the discrete fill of [`discrete`] with slices `1/K` (the same picks, the same
/// tie rule, `first`, and fit rule), hence within `C / K` of the static fluid allocation (`C = 12`, the
/// bound `tests/integration/discrete.rs` measures).
#[test]
fn first_fill_converges_to_the_fluid_allocation() {
    let bound = Rational::from(12);
    for seed in 0..40u64 {
        let tree = small_random_tree(seed);
        for policy in Policy::ALL {
            let fluid = allocate(&tree, policy).unwrap();
            for k in [8u64, 32, 128] {
                let sim = first_fill(&tree, policy.into(), k);
                let d = discrete(&tree, policy, k).unwrap();
                for l in tree.leaves() {
                    assert_eq!(
                        &sim[l.index()],
                        d.tasks(l).unwrap(),
                        "{policy} seed {seed} K={k} leaf {}",
                        tree.node(l).name()
                    );
                    let err = (&sim[l.index()] - fluid.tasks(l).unwrap()).abs()
                        * tree.task_dominant_share(l).unwrap()
                        * Rational::from(k);
                    assert!(err <= bound, "{policy} seed {seed} K={k}: K·error {err}");
                }
            }
        }
    }
}

/// On a single-level tree every policy is weighted DRF: the four picks coincide (keys
/// proportional to `s / w`), and the fill is within `1/K` tasks·mu of the DRF allocation.
#[test]
fn single_level_every_policy_is_weighted_drf() {
    let tree = Tree::from_json_str(
        r#"{"capacity": [9, 18], "tree": {"children": [
            {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1], "weight": 2},
            {"name": "C", "demand": [1, 0], "tasks": 1}]}}"#,
    )
    .unwrap();
    let drf = Drf::extended().allocate(&tree.leaf_instance()).unwrap();
    for k in [10u64, 40, 160] {
        let runs: Vec<Vec<Rational>> = Policy::ALL
            .iter()
            .map(|&p| first_fill(&tree, p.into(), k))
            .collect();
        assert!(runs.iter().all(|x| *x == runs[0]), "K={k}");
        for (i, l) in tree.leaves().enumerate() {
            let err = (&runs[0][l.index()] - &drf.tasks[i]).abs()
                * tree.task_dominant_share(l).unwrap()
                * Rational::from(k);
            assert!(
                err <= Rational::from(3),
                "K={k} {}: {err}",
                tree.node(l).name()
            );
        }
    }
}

#[test]
fn bad_workloads_name_the_field() {
    // `workload` is the workload, then whatever follows it in the scenario.
    let base = |workload: &str| {
        format!(
            r#"{{"capacity": [1, 1], "tree": {{"children": [{{"name": "A", "demand": [1, 0]}},
            {{"name": "B", "children": [{{"name": "B1", "demand": [1, 0]}}]}}]}},
            "horizon": 10, "workload": {workload}}}"#
        )
    };
    let err = |workload: &str| {
        Scenario::from_json_str(&base(workload))
            .unwrap_err()
            .to_string()
    };
    // (the workload and what follows it in the scenario, the whole message).
    let cases = [
        (r#"{"B1": {"duration": -1}}"#, "workload.B1.duration: expected a positive number, found -1"),
        (r#"{"B1": {"duration": "x"}}"#, "workload.B1.duration: malformed number \"x\": expected an integer, a decimal such as 2.5 or 1e-4, or a fraction such as 7/3"),
        (r#"{"C": {}}"#, "workload.C: no leaf named \"C\" in the tree"),
        (r#"{"B": {}}"#, "workload.B: \"B\" is a pool; a workload belongs to a leaf"),
        (r#"{"A": {"count": 1.5}}"#, "workload.A.count: expected a non-negative integer, found 3/2"),
        (r#"{"A": {"count": 2, "arrivals": [1]}}"#, "workload.A.arrivals: give either count (with an optional start) or arrivals, not both"),
        (r#"{"A": {"arrivals": [1, {"time": -2}]}}"#, "workload.A.arrivals[1].time: expected a non-negative number, found -2"),
        (r#"{"A": {"duration": {"uniform": [2, 1]}}}"#, "workload.A.duration.uniform: low 2 exceeds high 1"),
        (r#"{"A": {"duration": {"uniform": [1, 2], "steps": 0}}}"#, "workload.A.duration.steps: expected a positive integer, found 0"),
        (r#"{}, "warmup": 10"#, "warmup: must be below the horizon 10, found 10"),
        ("[]", "workload: expected an object of leaf names to workloads, found a list"),
    ];
    for (workload, message) in cases {
        assert_eq!(err(workload), message, "{workload}");
    }
    assert!(err(r#"{"A": {"speed": 1}}"#).starts_with("workload.A.speed: unknown field"));
    assert!(err(r#"{}, "horizn": 3"#).starts_with("horizn: unknown field"));
    // Tree errors keep their paths.
    let bad_tree = r#"{"capacity": [1], "horizon": 1, "tree": {"children": [{"name": "A", "demand": [1, 0]}]}}"#;
    assert_eq!(
        Scenario::from_json_str(bad_tree).unwrap_err().to_string(),
        "tree.children[0].demand: expected 1 entries, one per resource, found 2"
    );
    // The horizon is required somewhere.
    let s = Scenario::from_json_str(
        r#"{"capacity": [1], "tree": {"children": [{"name": "A", "demand": [1]}]}}"#,
    )
    .unwrap();
    assert_eq!(
        simulate(&s, &SimConfig::new(SimPolicy::Tree(Policy::Naive)))
            .unwrap_err()
            .to_string(),
        "horizon: missing (the end of simulated time)"
    );
    assert!(simulate(
        &s,
        &SimConfig::new(SimPolicy::Tree(Policy::Naive)).horizon(2)
    )
    .is_ok());
    assert_eq!(
        simulate(
            &s,
            &SimConfig::new(SimPolicy::Tree(Policy::Naive))
                .horizon(2)
                .preemption(0)
        )
        .unwrap_err()
        .to_string(),
        "preemption: expected a positive timeout, found 0"
    );
}
