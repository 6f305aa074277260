//! Discrete DRF: the DRF paper's Table 1 from the source, hand-derived cases for every
//! option, and the paper's Theorem 7 and related bounds as properties.

use leontief_solver::{
    DiscreteDrf, DiscreteOutcome, DiscreteTieBreak, Drf, Instance, Machines, Mechanism, MisfitRule,
    Rational, SolverError, User,
};
use proptest::prelude::*;

use crate::common;
use common::{instance, paper, r, rs};

fn run(drf: &DiscreteDrf, inst: &Instance) -> DiscreteOutcome {
    drf.run(inst, true).expect("valid instance")
}

/// The picked users and whether each launched.
fn picks(out: &DiscreteOutcome, inst: &Instance) -> Vec<(String, bool)> {
    out.trace
        .as_ref()
        .expect("trace recorded")
        .iter()
        .map(|s| (inst.users()[s.user].name.clone(), s.launched))
        .collect()
}

/// Picks written as user names, a failed pick (nothing launched) marked `!`: `"A B A!"`.
fn sequence(picks: &str) -> Vec<(String, bool)> {
    picks
        .split_whitespace()
        .map(|p| match p.strip_suffix('!') {
            Some(user) => (user.to_string(), false),
            None => (p.to_string(), true),
        })
        .collect()
}

/// `drf` on `k` equal machines.
fn on_machines(drf: DiscreteDrf, k: u64, inst: &Instance) -> DiscreteOutcome {
    run(&drf.with_machines(Machines::Split(k)), inst)
}

/// Capacity (8, 8); A = ⟨3, 1⟩, B = ⟨1, 1⟩.
fn wide_and_unit() -> Instance {
    instance(
        &[8, 8],
        vec![User::new("A", [3, 1]), User::new("B", [1, 1])],
    )
}

fn stop() -> DiscreteDrf {
    DiscreteDrf::paper()
}

fn skip() -> DiscreteDrf {
    DiscreteDrf::paper().with_misfit(MisfitRule::Skip)
}

// ---------------------------------------------------------------- the paper's Table 1

/// One row of Table 1: picked user, A's shares, A's dominant share, B's shares, B's dominant
/// share, fraction of CPU and RAM allocated.
type Row = (
    &'static str,
    [&'static str; 2],
    &'static str,
    [&'static str; 2],
    &'static str,
    [&'static str; 2],
);

#[test]
fn table_1_of_the_drf_paper_exactly() {
    let inst = paper();
    // The paper picks B first at the 0/0 tie, i.e. the higher index first.
    let drf = stop().with_tie_break(DiscreteTieBreak::ReverseUserOrder);
    let out = run(&drf, &inst);
    let trace = out.trace.as_ref().expect("trace recorded");
    // (user, A shares, A dominant, B shares, B dominant, CPU total, RAM total), from Table 1.
    #[rustfmt::skip]
    let rows: [Row; 5] = [
        ("B", ["0", "0"],     "0",   ["3/9", "1/18"], "1/3", ["3/9", "1/18"]),
        ("A", ["1/9", "4/18"],  "2/9", ["3/9", "1/18"], "1/3", ["4/9", "5/18"]),
        ("A", ["2/9", "8/18"],  "4/9", ["3/9", "1/18"], "1/3", ["5/9", "9/18"]),
        ("B", ["2/9", "8/18"],  "4/9", ["6/9", "2/18"], "2/3", ["8/9", "10/18"]),
        ("A", ["3/9", "12/18"], "2/3", ["6/9", "2/18"], "2/3", ["1", "14/18"]),
    ];
    assert_eq!(
        trace.len(),
        6,
        "five launches, then a pick that does not fit"
    );
    for (step, (user, a, a_dom, b, b_dom, total)) in trace.iter().zip(rows) {
        assert_eq!(inst.users()[step.user].name, user);
        assert!(step.launched);
        assert_eq!(step.machine, 0);
        assert_eq!(step.resource_shares, vec![rs(&a), rs(&b)]);
        assert_eq!(step.dominant_shares, rs(&[a_dom, b_dom]));
        assert_eq!(step.allocated, rs(&total));
    }
    // Both at 2/3: B goes first again and needs 3 CPUs, none are left.
    let last = &trace[5];
    assert_eq!(
        (inst.users()[last.user].name.as_str(), last.launched),
        ("B", false)
    );
    assert_eq!(last.dominant_shares, rs(&["2/3", "2/3"]));
    assert_eq!(out.tasks, vec![3, 2]);
    assert_eq!(out.machines_used, 1);
}

#[test]
fn paper_example_gives_3_and_2_in_every_variant() {
    let inst = paper();
    for base in [stop(), skip()] {
        for tie in [
            DiscreteTieBreak::UserOrder,
            DiscreteTieBreak::ReverseUserOrder,
        ] {
            let drf = base.clone().with_tie_break(tie);
            assert_eq!(run(&drf, &inst).tasks, vec![3, 2], "{drf:?}");
            assert_eq!(drf.run(&inst, false).expect("runs").tasks, vec![3, 2]);
            assert_eq!(drf.allocate(&inst).expect("runs").tasks, rs(&["3", "2"]));
        }
    }
    // UserOrder: A B A B A, then A (tie at 2/3, lower index) does not fit.
    let seq = picks(&run(&stop(), &inst), &inst);
    let want = sequence("A B A B A A!");
    assert_eq!(seq, want);
    // Skip: A is passed over; neither ⟨1, 4⟩ nor ⟨3, 1⟩ fits the (0, 4) left, so the cluster
    // is closed without picking B.
    let seq = picks(&run(&skip(), &inst), &inst);
    assert_eq!(&seq[5..], sequence("A!"));
}

#[test]
fn trace_json_uses_names_and_exact_strings() {
    let inst = paper();
    let out = run(
        &stop().with_tie_break(DiscreteTieBreak::ReverseUserOrder),
        &inst,
    );
    let json = out.trace_json(&inst);
    let steps = json.as_array().expect("a list");
    assert_eq!(steps.len(), 6);
    assert_eq!(
        steps[0].to_string(),
        r#"{"step":1,"user":"B","launched":true,"machine":0,"shares":{"A":["0","0"],"B":["1/3","1/18"]},"dominant_shares":{"A":"0","B":"1/3"},"allocated":["1/3","1/18"]}"#
    );
    assert_eq!(steps[4]["allocated"].to_string(), r#"["1","7/9"]"#);
    assert_eq!(steps[5]["user"], "B");
    assert_eq!(steps[5]["launched"], false);
    let untraced = stop().run(&inst, false).expect("runs");
    assert_eq!(untraced.trace, None);
    assert_eq!(untraced.trace_json(&inst), serde_json::json!([]));
}

#[test]
fn mechanism_interface() {
    let drf = stop();
    assert_eq!(drf.name(), "discrete-drf");
    assert!(drf.is_exact());
    assert_eq!(DiscreteDrf::default(), drf);
    assert_eq!(
        (drf.misfit, drf.tie_break, drf.machines),
        (
            MisfitRule::Stop,
            DiscreteTieBreak::UserOrder,
            Machines::Pooled
        )
    );
    let s = skip();
    assert_eq!(
        (s.misfit, s.tie_break, s.machines),
        (
            MisfitRule::Skip,
            DiscreteTieBreak::UserOrder,
            Machines::Pooled
        )
    );
}

// ---------------------------------------------------------------- hand-derived cases

#[test]
fn caps_allow_floor_of_a_fractional_cap() {
    // One resource of 10; A capped at 5/2 (so 2 tasks). A, B alternate until A has 2; B
    // takes the remaining 6.
    let inst = instance(
        &[10],
        vec![User::new("A", [1]).cap(r("5/2")), User::new("B", [1])],
    );
    for drf in [stop(), skip()] {
        assert_eq!(run(&drf, &inst).tasks, vec![2, 8]);
    }
    // A cap of 1/2 allows no task at all: A is never picked.
    let inst = instance(
        &[10],
        vec![User::new("A", [1]).cap(r("1/2")), User::new("B", [1])],
    );
    let out = run(&stop(), &inst);
    assert_eq!(out.tasks, vec![0, 10]);
    assert!(out.trace.expect("trace").iter().all(|s| s.user == 1));
    // Everyone capped below the capacity: the run ends when the heap is empty, no failed pick.
    let inst = instance(
        &[10],
        vec![
            User::new("A", [1]).cap(3),
            User::new("B", [2]).cap(r("7/3")),
        ],
    );
    for drf in [stop(), skip()] {
        let out = run(&drf, &inst);
        assert_eq!(out.tasks, vec![3, 2]);
        assert!(out.trace.expect("trace").iter().all(|s| s.launched));
    }
}

#[test]
fn weight_two_gets_twice_the_dominant_share() {
    // One resource of 12, A = ⟨1⟩ with weight 2, B = ⟨1⟩. Keys: A t/24, B t/12; ties go to A.
    // Picks: A B A A B A A B A A B A — A 8 tasks (share 2/3), B 4 (share 1/3).
    let inst = instance(
        &[12],
        vec![User::new("A", [1]).weight(2), User::new("B", [1])],
    );
    let out = run(&stop(), &inst);
    assert_eq!(out.tasks, vec![8, 4]);
    let names: String = picks(&out, &inst)
        .iter()
        .filter(|p| p.1)
        .map(|p| p.0.as_str())
        .collect();
    assert_eq!(names, "ABAABAABAABA");
    // (A's demand, A's per-resource weights, the tasks) beside B = ⟨1, 1⟩ on (12, 12).
    for (demand, weights, tasks) in [
        // Per-resource weights all equal to 2 are the scalar weight 2.
        ([1, 1], [2, 2], [8, 4]),
        // Per-resource weights (1, 4) on A = ⟨2, 1⟩: its weighted step is max(2/12, 1/48) =
        // 1/6, B's ⟨1, 1⟩ step 1/12, capacity (12, 12): A B B A B B A B B A B B ... until CPU
        // is out: A 3 tasks (6 CPU) and B 6 (6 CPU), weighted shares 1/2 and 1/2.
        ([2, 1], [1, 4], [3, 6]),
    ] {
        let a = User::new("A", demand).resource_weights(weights);
        let per = instance(&[12, 12], vec![a, User::new("B", [1, 1])]);
        assert_eq!(run(&stop(), &per).tasks, tasks);
    }
}

#[test]
fn zero_demands() {
    // Capacity (2, 5); A = ⟨1, 0⟩, B = ⟨1, 1⟩, C = ⟨0, 1⟩; steps 1/2, 1/2, 1/5.
    // A (rem 1,5) B (0,4) C C C (0,1); then A at 1/2 < C's 3/5 does not fit (no CPU).
    // Stop: A 1, B 1, C 3. Skip: A and B are passed over, C takes the last GB: C 4.
    let inst = instance(
        &[2, 5],
        vec![
            User::new("A", [1, 0]),
            User::new("B", [1, 1]),
            User::new("C", [0, 1]),
        ],
    );
    assert_eq!(run(&stop(), &inst).tasks, vec![1, 1, 3]);
    let out = run(&skip(), &inst);
    assert_eq!(out.tasks, vec![1, 1, 4]);
    let seq: Vec<(String, bool)> = picks(&out, &inst);
    let want = sequence("A B C C C A! B! C C!");
    assert_eq!(seq, want);
}

#[test]
fn skip_continues_where_stop_stops() {
    // Capacity (10, 10); A = ⟨4, 1⟩ (step 2/5), B = ⟨1, 1⟩ (step 1/10).
    // A1 leaves (6, 9); B1..B4 leave (2, 5) with B at 2/5 = A's share; the tie goes to A,
    // which needs 4 CPUs of the 2 left.
    // Stop: "the cluster is full" — A 1, B 4.
    // Skip: A is passed over; B5, B6 use the last 2 CPUs — A 1, B 6.
    let inst = instance(
        &[10, 10],
        vec![User::new("A", [4, 1]), User::new("B", [1, 1])],
    );
    let out = run(&stop(), &inst);
    assert_eq!(out.tasks, vec![1, 4]);
    assert_eq!(picks(&out, &inst).last(), Some(&("A".to_string(), false)));
    let out = run(&skip(), &inst);
    assert_eq!(out.tasks, vec![1, 6]);
    assert_eq!(
        picks(&out, &inst).len(),
        1 + 6 + 2,
        "7 launches, A and B each fail once"
    );
}

#[test]
fn split_machines_paper_example() {
    let inst = paper();
    // Split(3): machines of (3, 6). UserOrder: A1 leaves (2, 2), B does not fit → machine 1;
    // B1 leaves (0, 5), A does not fit → machine 2; A2 leaves (2, 2), B does not fit, done.
    // Skip gives the same: on each machine nothing else fits after the one task.
    for drf in [stop(), skip()] {
        let out = on_machines(drf, 3, &inst);
        assert_eq!(out.tasks, vec![2, 1]);
        assert_eq!(out.machines_used, 3);
        let launched: Vec<u64> = out
            .trace
            .expect("trace")
            .iter()
            .filter(|s| s.launched)
            .map(|s| s.machine)
            .collect();
        assert_eq!(launched, vec![0, 1, 2]);
    }
    // Split(2): machines of (9/2, 9). Each machine: A (7/2, 5), B (1/2, 4), A does not fit.
    for drf in [stop(), skip()] {
        let out = on_machines(drf, 2, &inst);
        assert_eq!(out.tasks, vec![2, 2]);
        assert_eq!(out.machines_used, 2);
    }
    // Split(1) is the pooled cluster.
    let out = on_machines(stop(), 1, &inst);
    assert_eq!(out, run(&stop(), &inst));
}

#[test]
fn split_machines_skip_differs_from_stop() {
    // Two machines of (4, 4), so R = (8, 8); A = ⟨3, 1⟩ (step 3/8), B = ⟨1, 1⟩ (step 1/8).
    // Stop: machine 0: A1 (1, 3), B1 (0, 2), B does not fit → machine 1: B2 (3, 3),
    //   B3 (2, 2), tie at 3/8 goes to A, needs 3 CPUs → last machine, done. A 1, B 3.
    // Skip: machine 0 as above (B fails; B's ⟨1, 1⟩ is the only Pareto-minimal demand and
    //   does not fit (0, 2): machine closed). Machine 1: B2, B3, A passed over, B4 (1, 1),
    //   B5 (0, 0), B fails, done. A 1, B 5.
    let inst = wide_and_unit();
    let out = on_machines(stop(), 2, &inst);
    assert_eq!(out.tasks, vec![1, 3]);
    let out = on_machines(skip(), 2, &inst);
    assert_eq!(out.tasks, vec![1, 5]);
    assert_eq!(out.machines_used, 2);
}

#[test]
fn split_machines_smaller_than_a_task() {
    // Four machines of (2, 2); A = ⟨3, 1⟩ fits none, B = ⟨1, 1⟩.
    // Stop: A is picked first (tie at 0, lower index) and does not fit an empty machine; every
    //   machine is identical and empty, so the run ends at once: nothing launched.
    // Skip: A is dropped for good; B fills each machine with 2 tasks: B 8.
    let inst = wide_and_unit();
    let out = on_machines(stop(), 4, &inst);
    assert_eq!(out.tasks, vec![0, 0]);
    assert_eq!(out.machines_used, 0);
    assert_eq!(picks(&out, &inst), sequence("A!"));
    let out = on_machines(skip(), 4, &inst);
    assert_eq!(out.tasks, vec![0, 8]);
    assert_eq!(out.machines_used, 4);
    let a_picks = picks(&out, &inst).iter().filter(|p| p.0 == "A").count();
    assert_eq!(a_picks, 1, "A is picked once, then dropped");
    // With B first (ReverseUserOrder), Stop launches B once on machine 0; then A, still at 0,
    // is the lowest and fits no machine: B 1.
    let drf = stop()
        .with_machines(Machines::Split(4))
        .with_tie_break(DiscreteTieBreak::ReverseUserOrder);
    let out = run(&drf, &inst);
    assert_eq!(out.tasks, vec![0, 1]);
    assert_eq!(
        picks(&out, &inst),
        vec![("B".to_string(), true), ("A".to_string(), false)]
    );
}

#[test]
fn split_zero_is_an_error_naming_machines() {
    for base in [stop(), skip()] {
        let err = base
            .with_machines(Machines::Split(0))
            .run(&paper(), false)
            .unwrap_err();
        match &err {
            SolverError::Invalid { field, .. } => assert_eq!(field, "machines"),
            other => panic!("expected an Invalid error, got {other:?}"),
        }
        assert!(err.to_string().starts_with("machines: "), "{err}");
    }
    assert!(stop()
        .with_machines(Machines::Split(0))
        .allocate(&paper())
        .is_err());
}

// ---------------------------------------------------------------- properties

/// Small instances with strictly positive integer demands.
#[derive(Debug, Clone)]
struct Case {
    demands: Vec<Vec<i64>>,
    weights: Vec<i64>,
    /// Caps in halves: `Some(c)` is the cap `c / 2`.
    caps: Vec<Option<i64>>,
    /// Capacity of one machine.
    machine: Vec<i64>,
    machines: u64,
}

impl Case {
    fn instance(&self, with_caps: bool) -> Instance {
        let users = self
            .demands
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let mut u = User::new(format!("u{i}"), d.iter().copied()).weight(self.weights[i]);
                if let (true, Some(c)) = (with_caps, self.caps[i]) {
                    u = u.cap(Rational::new(c.into(), 2).expect("nonzero"));
                }
                u
            })
            .collect();
        let k = i64::try_from(self.machines).expect("small");
        instance(
            &self.machine.iter().map(|c| c * k).collect::<Vec<_>>(),
            users,
        )
    }
}

/// `fit_max_task`: every machine holds at least one max-task (Theorem 7's assumption).
fn case(fit_max_task: bool) -> impl Strategy<Value = Case> {
    (1usize..=3, 1usize..=6).prop_flat_map(move |(m, n)| {
        (
            prop::collection::vec(prop::collection::vec(1i64..=5, m), n),
            prop::collection::vec(1i64..=3, n),
            prop::collection::vec(prop::option::of(1i64..=16), n),
            prop::collection::vec(0i64..=12, m),
            1u64..=4,
        )
            .prop_map(move |(demands, weights, caps, extra, machines)| {
                let machine = (0..extra.len())
                    .map(|j| {
                        let max_task = demands.iter().map(|d| d[j]).max().unwrap_or(1);
                        if fit_max_task {
                            max_task + extra[j]
                        } else {
                            1 + extra[j]
                        }
                    })
                    .collect();
                Case {
                    demands,
                    weights,
                    caps,
                    machine,
                    machines,
                }
            })
    })
}

fn all_variants(machines: u64) -> Vec<DiscreteDrf> {
    let mut out = Vec::new();
    for base in [stop(), skip()] {
        for tie in [
            DiscreteTieBreak::UserOrder,
            DiscreteTieBreak::ReverseUserOrder,
        ] {
            for layout in [Machines::Pooled, Machines::Split(machines)] {
                out.push(base.clone().with_tie_break(tie).with_machines(layout));
            }
        }
    }
    out
}

fn weighted_shares(inst: &Instance, tasks: &[u64]) -> Vec<Rational> {
    (0..inst.num_users())
        .map(|i| Rational::from(tasks[i]) * inst.task_weighted_share(i))
        .collect()
}

/// The common weighted share of continuous DRF (strictly positive demands, no caps).
fn continuous_level(inst: &Instance) -> Rational {
    let x = Drf::extended().allocate(inst).expect("continuous DRF runs");
    let levels: Vec<Rational> = (0..inst.num_users())
        .map(|i| x.weighted_share(inst, i))
        .collect();
    assert!(
        levels.iter().all(|l| l == &levels[0]),
        "continuous DRF equalises: {levels:?}"
    );
    levels[0].clone()
}

fn machines_of(drf: &DiscreteDrf) -> u64 {
    match drf.machines {
        Machines::Split(k) => k,
        _ => 1,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// (a) Feasibility: every machine's load is within R/K, caps hold, the trace agrees with
    /// the tasks, and tracing does not change the answer.
    #[test]
    fn feasible_on_every_machine(c in case(false), with_caps in any::<bool>()) {
        let inst = c.instance(with_caps);
        for drf in all_variants(c.machines) {
            let out = drf.run(&inst, true).expect("runs");
            prop_assert_eq!(&drf.run(&inst, false).expect("runs").tasks, &out.tasks);
            let k = machines_of(&drf);
            let per_machine: Vec<Rational> =
                inst.capacity().iter().map(|r| r / &Rational::from(k)).collect();
            let mut load = vec![vec![Rational::ZERO; inst.num_resources()]; usize::try_from(k).expect("small")];
            let mut counted = vec![0u64; inst.num_users()];
            let mut last_machine = 0;
            for step in out.trace.as_ref().expect("trace") {
                prop_assert!(step.machine >= last_machine && step.machine < k);
                last_machine = step.machine;
                if step.launched {
                    counted[step.user] += 1;
                    let at = usize::try_from(step.machine).expect("small");
                    for (l, d) in load[at].iter_mut().zip(&inst.users()[step.user].demand) {
                        *l += d;
                    }
                }
            }
            prop_assert_eq!(&counted, &out.tasks);
            for l in &load {
                for (x, cap) in l.iter().zip(&per_machine) {
                    prop_assert!(x <= cap, "{:?}: load {:?} over {:?}", drf, l, per_machine);
                }
            }
            let used = load.iter().filter(|l| l.iter().any(|x| !x.is_zero())).count();
            prop_assert_eq!(out.machines_used, u64::try_from(used).expect("small"));
            for (t, u) in out.tasks.iter().zip(inst.users()) {
                if let Some(cap) = &u.cap {
                    prop_assert!(&Rational::from(*t) <= cap);
                }
            }
            let alloc = drf.allocate(&inst).expect("runs");
            prop_assert!(alloc.is_feasible(&inst));
        }
    }

    /// (b) Theorem 7, for Stop on the pooled cluster and on K machines that each hold a
    /// max-task: for uncapped users i, k, share(i) − share(k) ≤ i's own task share, which
    /// implies the theorem's bound of one max-task share. Why: when i got its last task it had
    /// the lowest key among the users still in the heap, and under Stop an uncapped user
    /// never leaves it, so share(i) − step(i) ≤ share(k) at that moment ≤ share(k) at the end.
    #[test]
    fn theorem_7_pairwise_bound_under_stop(c in case(true), with_caps in any::<bool>()) {
        let inst = c.instance(with_caps);
        let steps: Vec<Rational> = (0..inst.num_users()).map(|i| inst.task_weighted_share(i)).collect();
        let max_step = steps.iter().cloned().max().expect("a user");
        for tie in [DiscreteTieBreak::UserOrder, DiscreteTieBreak::ReverseUserOrder] {
            for layout in [Machines::Pooled, Machines::Split(c.machines)] {
                let drf = stop().with_tie_break(tie).with_machines(layout);
                let s = weighted_shares(&inst, &drf.run(&inst, false).expect("runs").tasks);
                for i in 0..inst.num_users() {
                    for k in 0..inst.num_users() {
                        if inst.users()[i].cap.is_some() || inst.users()[k].cap.is_some() {
                            continue;
                        }
                        let gap = &s[i] - &s[k];
                        prop_assert!(gap <= steps[i], "{:?}: users {} {} shares {:?}", drf, i, k, s);
                        prop_assert!(gap <= max_step);
                    }
                }
            }
        }
    }

    /// (c) and (d) against continuous DRF (no caps, so it gives every user the same weighted
    /// share λ): under Stop each user's weighted share is at most λ + its own task share —
    /// when it got its last task every user had at least its key, and if that key exceeded λ
    /// every user would hold more than its continuous allocation of the resource continuous
    /// DRF saturates. (d) For every variant, some user is at or below λ: otherwise all would
    /// be strictly above their continuous allocation and that resource would overflow.
    #[test]
    fn within_one_task_of_continuous_drf(c in case(false)) {
        let inst = c.instance(false);
        let level = continuous_level(&inst);
        for drf in all_variants(c.machines) {
            let out = drf.run(&inst, false).expect("runs");
            let s = weighted_shares(&inst, &out.tasks);
            let min = s.iter().cloned().min().expect("a user");
            prop_assert!(min <= level, "{:?}: min {} above level {}", drf, min, level);
            if drf.misfit == MisfitRule::Stop {
                for (i, si) in s.iter().enumerate() {
                    prop_assert!(si <= &(&level + &inst.task_weighted_share(i)),
                        "{:?}: user {} share {} level {}", drf, i, si, level);
                }
            }
        }
    }

    /// (e) On the pooled cluster Skip and Stop agree until Stop's first failed pick, after
    /// which Skip only adds tasks: Stop's trace is a prefix of Skip's, and Skip gives every
    /// user at least as many tasks (so at least as many in total). Skip's answer is maximal:
    /// no user below its cap could launch one more task.
    #[test]
    fn skip_extends_stop_on_a_pooled_cluster(c in case(false), with_caps in any::<bool>()) {
        let inst = c.instance(with_caps);
        for tie in [DiscreteTieBreak::UserOrder, DiscreteTieBreak::ReverseUserOrder] {
            let a = stop().with_tie_break(tie).run(&inst, true).expect("runs");
            let b = skip().with_tie_break(tie).run(&inst, true).expect("runs");
            let (ta, tb) = (a.trace.expect("trace"), b.trace.expect("trace"));
            prop_assert!(ta.len() <= tb.len());
            prop_assert_eq!(&ta[..], &tb[..ta.len()]);
            prop_assert!(a.tasks.iter().zip(&b.tasks).all(|(x, y)| x <= y));
            prop_assert!(a.tasks.iter().sum::<u64>() <= b.tasks.iter().sum::<u64>());
            let used: Vec<Rational> = (0..inst.num_resources())
                .map(|j| inst.users().iter().zip(&b.tasks).map(|(u, t)| &u.demand[j] * &Rational::from(*t)).sum())
                .collect();
            for (i, u) in inst.users().iter().enumerate() {
                let capped = u.cap.as_ref().is_some_and(|t| Rational::from(b.tasks[i] + 1) > *t);
                let fits = u.demand.iter().zip(&used).zip(inst.capacity()).all(|((d, x), r)| &(x + d) <= r);
                prop_assert!(capped || !fits, "user {} could still launch", i);
            }
        }
    }

    /// (f) Relabelling: reversing the users and the tie-break together reverses the answer
    /// exactly, ties included — the pick order depends only on (key, tie rank), and the
    /// reversal maps each user's rank under UserOrder to its rank under ReverseUserOrder. (An
    /// arbitrary permutation under a fixed tie-break is not a symmetry: every run starts
    /// with all keys tied at 0, and which user goes first can change the answer.)
    #[test]
    fn reversing_users_and_tie_break_reverses_the_answer(c in case(false), with_caps in any::<bool>()) {
        let inst = c.instance(with_caps);
        let mut users = inst.users().to_vec();
        users.reverse();
        let rev = Instance::new(inst.capacity().to_vec(), users).expect("valid");
        for drf in all_variants(c.machines) {
            let flipped = drf.clone().with_tie_break(match drf.tie_break {
                DiscreteTieBreak::UserOrder => DiscreteTieBreak::ReverseUserOrder,
                _ => DiscreteTieBreak::UserOrder,
            });
            let a = drf.run(&inst, false).expect("runs");
            let mut b = flipped.run(&rev, false).expect("runs");
            b.tasks.reverse();
            prop_assert_eq!(a.tasks, b.tasks);
            prop_assert_eq!(a.machines_used, b.machines_used);
        }
    }
}

// ---------------------------------------------------------------- what Skip gives up

#[test]
fn skip_can_break_theorem_7s_bound() {
    // One resource of 6 (a machine holds the max-task 4); A = ⟨3⟩ (step 1/2), B = ⟨4⟩ (2/3).
    // Stop: A1 leaves 3, B does not fit: A 1, B 0; gap 1/2 ≤ 2/3 (the bound holds).
    // Skip: B is passed over and A takes the rest: A 2, B 0; gap 1 > 2/3 = one max-task.
    let inst = instance(&[6], vec![User::new("A", [3]), User::new("B", [4])]);
    assert_eq!(run(&stop(), &inst).tasks, vec![1, 0]);
    assert_eq!(run(&skip(), &inst).tasks, vec![2, 0]);
}

#[test]
fn skip_can_exceed_continuous_drf_by_more_than_one_task() {
    // One resource of 64; A = ⟨5⟩, B = ⟨1⟩. Continuous DRF: both at 1/2 (A 32/5, B 32).
    // A and B alternate five B tasks per A task; after A6 and B30 (both at 30/64) 4 units are
    // left and A, first at the tie, needs 5.
    // Stop: A 6, B 30 — B's share 15/32 is within 1/2 + 1/64.
    // Skip: A is passed over and B takes the last 4: B 34, share 17/32 > 1/2 + 1/64, beyond
    // the bound (c) proves for Stop.
    let inst = instance(&[64], vec![User::new("A", [5]), User::new("B", [1])]);
    let x = Drf::extended().allocate(&inst).expect("runs");
    assert_eq!(x.tasks, rs(&["32/5", "32"]));
    assert_eq!(run(&skip(), &inst).tasks, vec![6, 34]);
    assert_eq!(run(&stop(), &inst).tasks, vec![6, 30]);
}
