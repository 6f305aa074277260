//! Documented cases from the schedulers' own test suites, each cited; where the source
//! computes in floating point or rounds, the comment gives its value and ours (exact).
use super::*;
use crate::{Guarantee, NodeSpec};

fn r(n: i128) -> Rational {
    Rational::from(n)
}

fn q(num: i128, den: i128) -> Rational {
    Rational::new(num, den).unwrap()
}

fn v(xs: &[i128]) -> Vec<Rational> {
    xs.iter().map(|&x| r(x)).collect()
}

/// An absolute guarantee.
fn gv(xs: &[i128]) -> Guarantee {
    Guarantee::Vector(v(xs))
}

/// A leaf of weight `w` holding `usage`, its per-task demand (1, 1, ..).
fn leaf(name: &str, w: Rational, usage: Vec<Rational>) -> NodeSpec {
    NodeSpec::leaf(name, vec![r(1); usage.len()])
        .weight(w)
        .usage(usage)
}

/// A tree with resources named `r1..rm`, its root `root` over `children`.
fn build(capacity: &[i128], children: Vec<NodeSpec>) -> Tree {
    Tree::new(v(capacity), NodeSpec::pool("root", children)).unwrap()
}

/// A flat tree: the root over `leaves` (name, weight, usage), every per-task demand
/// (1, 1, ..).
fn flat(capacity: &[i128], leaves: &[(&str, Rational, Vec<Rational>)]) -> Tree {
    let children = leaves.iter().map(|(n, w, u)| leaf(n, w.clone(), u.clone()));
    build(capacity, children.collect())
}

fn names(out: &OrderOutcome) -> Vec<String> {
    out.offer_paths()
        .iter()
        .map(|p| p.trim_start_matches("root/").to_string())
        .collect()
}

fn run(tree: &Tree, config: &OrderConfig) -> Vec<String> {
    names(&order(tree, config).unwrap())
}

// apache/mesos, src/tests/sorter_tests.cpp, DRFSorterTest.DRF (read at commit
// 5ce5d20360b82da6bc0dda5fed82748b0812aa67). Shares are max(cpus, mem) fractions of the
// total; the source's comments give them, we re-derive each below.
#[test]
fn mesos_drf_sorter_orders_by_dominant_share() {
    let naive = OrderConfig::new(Rule::Naive);
    let one = Rational::ONE;
    // a = 5/100, b = 6/100 -> [a, b].
    let t = flat(
        &[100, 100],
        &[
            ("a", one.clone(), v(&[5, 5])),
            ("b", one.clone(), v(&[6, 6])),
        ],
    );
    assert_eq!(run(&t, &naive), ["a", "b"]);
    // c = 1/100, d = max(3, 1)/100 = 3/100 -> [c, d, a, b].
    let t = flat(
        &[100, 100],
        &[
            ("a", one.clone(), v(&[5, 5])),
            ("b", one.clone(), v(&[6, 6])),
            ("c", one.clone(), v(&[1, 1])),
            ("d", one.clone(), v(&[3, 1])),
        ],
    );
    assert_eq!(run(&t, &naive), ["c", "d", "a", "b"]);
    // Total (50, 200), b (2, 2), c (1, 16), d (3, 1), e (1, 5), f (5, 1):
    // b = 2/50 = .04, c = 16/200 = .08, d = 3/50 = .06, e = 5/200 = .025, f = 5/50 = .1.
    let leaves = [
        ("b", one.clone(), v(&[2, 2])),
        ("c", one.clone(), v(&[1, 16])),
        ("d", one.clone(), v(&[3, 1])),
        ("e", one.clone(), v(&[1, 5])),
        ("f", one.clone(), v(&[5, 1])),
    ];
    let t = flat(&[50, 200], &leaves);
    let out = order(&t, &naive).unwrap();
    assert_eq!(names(&out), ["e", "b", "d", "c", "f"]);
    assert_eq!(out.nodes[2].dominant_share, q(2, 25)); // c: 16/200
    assert_eq!(out.nodes[4].dominant_share, q(1, 40)); // e: 5/200

    // "deactivate d": d holds its whole task count, so it is not offered.
    let mut children: Vec<NodeSpec> = leaves
        .iter()
        .map(|(n, w, u)| leaf(n, w.clone(), u.clone()))
        .collect();
    children[2] = NodeSpec::leaf("d", v(&[3, 1])).usage(v(&[3, 1])).cap(1);
    let t = build(&[50, 200], children);
    let out = order(&t, &naive).unwrap();
    assert_eq!(names(&out), ["e", "b", "c", "f"]);
    assert_eq!(
        out.nodes[3].inactive.as_deref(),
        Some("holds 1 of its 1 tasks")
    );
}

// apache/mesos, src/tests/sorter_tests.cpp, DRFSorterTest.WDRF: the share is divided by
// the weight.
#[test]
fn mesos_weighted_drf_sorter() {
    let naive = OrderConfig::new(Rule::Naive);
    // a = 5/100, b = (6/100)/2 = 3/100, c = 4/100, d = (20/100)/10 = 2/100
    // -> [d, b, c, a].
    let t = flat(
        &[100, 100],
        &[
            ("a", r(1), v(&[5, 5])),
            ("b", r(2), v(&[6, 6])),
            ("c", r(1), v(&[4, 4])),
            ("d", r(10), v(&[10, 20])),
        ],
    );
    let out = order(&t, &naive).unwrap();
    assert_eq!(names(&out), ["d", "b", "c", "a"]);
    assert_eq!(out.nodes[4].weighted_share, q(1, 50));
    // b removed, d holds (20, 45): 45/100/10 = .045; e of weight 1/10 holds (1, 1):
    // .01/.1 = .1 -> [c, d, a, e].
    let t = flat(
        &[100, 100],
        &[
            ("a", r(1), v(&[5, 5])),
            ("c", r(1), v(&[4, 4])),
            ("d", r(10), v(&[20, 45])),
            ("e", q(1, 10), v(&[1, 1])),
        ],
    );
    let out = order(&t, &naive).unwrap();
    assert_eq!(names(&out), ["c", "d", "a", "e"]);
    assert_eq!(out.nodes[3].weighted_share, q(9, 200));
    assert_eq!(out.nodes[4].weighted_share, q(1, 10));
}

// apache/mesos, src/tests/sorter_tests.cpp, DRFSorterTest.AllocationCountTieBreak:
// every client holds (3, 3) of (100, 100); c was allocated three times, d twice, the
// others once. Equal shares are ordered by allocation count, then by name.
#[test]
fn mesos_allocation_count_tie_break() {
    let leaves: Vec<_> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|&n| (n, r(1), v(&[3, 3])))
        .collect();
    let t = flat(&[100, 100], &leaves);
    let (a, b, c, d, e) = (1, 2, 3, 4, 5);
    let history = vec![a, b, c, c, c, d, d, e];
    let config = OrderConfig::new(Rule::Naive).served(history.clone());
    let out = order(&t, &config).unwrap();
    assert_eq!(names(&out), ["a", "b", "e", "d", "c"]);
    assert_eq!(out.nodes[c].count, 3);
    // c releases its (3, 3): share 0 comes before any count -> [c, a, b, e, d].
    let mut released = leaves.clone();
    released[c - 1].2 = v(&[0, 0]);
    let t2 = flat(&[100, 100], &released);
    assert_eq!(run(&t2, &config), ["c", "a", "b", "e", "d"]);
    // After c's further allocations (count 5) and a's second (count 2), all holding
    // (3, 3) again: [b, e, a, d, c].
    let mut later = history;
    later.extend([c, c, a]);
    let config = OrderConfig::new(Rule::Naive).served(later);
    assert_eq!(run(&t, &config), ["b", "e", "a", "d", "c"]);
    // Without the count, the tree order decides among the equal shares.
    let first = OrderConfig::new(Rule::Naive).ties(TieBreaks::first());
    assert_eq!(run(&t, &first), ["a", "b", "c", "d", "e"]);
}

// apache/mesos, src/tests/sorter_tests.cpp, DRFSorterTest.HierarchicalAllocation:
// a pool's share is its subtree's; the whole subtree is emitted before its next sibling.
#[test]
fn mesos_hierarchical_allocation() {
    let tree = |a: i128, c: i128, d: i128, f: Option<Rational>| {
        let mut b = vec![leaf("c", r(1), v(&[c, c])), leaf("d", r(1), v(&[d, d]))];
        if let Some(f) = f {
            // b/e/f: pool e (index 5) under b, leaf f (index 6) under e.
            b.push(NodeSpec::pool("e", [leaf("f", r(1), vec![f.clone(), f])]));
        }
        let a = leaf("a", r(1), v(&[a, a]));
        build(&[100, 100], vec![a, NodeSpec::pool("b", b)])
    };
    let naive = OrderConfig::new(Rule::Naive);
    // All zero: ties by count (all 0), then name -> [a, b/c, b/d].
    assert_eq!(run(&tree(0, 0, 0, None), &naive), ["a", "b/c", "b/d"]);
    // a = .06 > b = 0 -> [b/c, b/d, a].
    assert_eq!(run(&tree(6, 0, 0, None), &naive), ["b/c", "b/d", "a"]);
    // b = (4 + 3)/100 = .07 > a = .06; inside b, d = .03 < c = .04 -> [a, b/d, b/c].
    let out = order(&tree(6, 4, 3, None), &naive).unwrap();
    assert_eq!(names(&out), ["a", "b/d", "b/c"]);
    assert_eq!(out.nodes[2].dominant_share, q(7, 100));
    // a = .08 > b = .07 -> [b/d, b/c, a].
    assert_eq!(run(&tree(8, 4, 3, None), &naive), ["b/d", "b/c", "a"]);
    // b/e/f holds (3.5, 3.5): b = .105 > a = .08; inside b: d .03, e .035, c .04
    // -> [a, b/d, b/e/f, b/c].
    assert_eq!(
        run(&tree(8, 4, 3, Some(q(7, 2))), &naive),
        ["a", "b/d", "b/e/f", "b/c"]
    );
}

// apache/mesos, src/tests/sorter_tests.cpp, DRFSorterTest.ChangeWeightOnSubtree:
// weights on pools (a = 2, b = 3).
#[test]
fn mesos_weights_on_subtrees_with_an_exact_tie() {
    let tree = |z: i128| {
        let a = NodeSpec::pool("a", [leaf("x", r(1), v(&[10, 10]))]).weight(2);
        let mut b = vec![leaf("y", r(1), v(&[10, 10]))];
        if z > 0 {
            b.push(leaf("z", r(1), v(&[z, z])));
        }
        build(&[100, 100], vec![a, NodeSpec::pool("b", b).weight(3)])
    };
    // a = .1/2 = .05, b = .1/3 -> [b/y, a/x], as the source.
    let history = vec![2, 4];
    let config = OrderConfig::new(Rule::Naive).served(history.clone());
    assert_eq!(run(&tree(0), &config), ["b/y", "a/x"]);
    // b/z takes (5, 5): b = .15/3 = 1/20 = a = .1/2 exactly. Mesos computes in doubles,
    // where .15/3 = 0.049999999999999996 < .05, and lists [b/z, b/y, a/x]. In exact
    // arithmetic the shares tie and the allocation count decides: a was served once,
    // b twice, so a goes first.
    let mut history = history;
    history.push(5);
    let config = OrderConfig::new(Rule::Naive).served(history);
    let out = order(&tree(5), &config).unwrap();
    assert_eq!(out.nodes[1].weighted_share, out.nodes[3].weighted_share);
    assert_eq!(out.nodes[3].weighted_share, q(1, 20));
    assert_eq!(names(&out), ["a/x", "b/z", "b/y"]);
}

// apache/hadoop, .../scheduler/fair/policies/TestDominantResourceFairnessPolicy.java
// ("compare(s1, s2) < 0 means that s1 should get a container before s2"; usage
// <mem, vcores>, weight 1, min share 0 unless stated; read at commit
// 09b476e6dabe8039a41dde7930c8a9c0d14bb750). s2 is listed first, so that the tree order
// would favour it, and each case asserts that the keys differ: the key decides.
fn yarn_first(cluster: [i128; 2], s1: YarnSide, s2: YarnSide) -> String {
    let mut children = Vec::new();
    for (name, (u, w, g)) in [("s2", s2), ("s1", s1)] {
        // Tasks of (1, 0): some cases use every vcore, and a task must fit to be offered.
        let mut leaf = NodeSpec::leaf(name, v(&[1, 0])).usage(v(&u)).weight(w);
        if let Some(g) = g {
            leaf = leaf.guarantee(gv(&g));
        }
        children.push(leaf);
    }
    let t = build(&cluster, children);
    let out = order(&t, &OrderConfig::new(Rule::Yarn)).unwrap();
    assert_ne!(out.nodes[1].key, out.nodes[2].key, "decided by the key");
    names(&out)[0].clone()
}

/// A schedulable of YARN's comparator tests: usage, weight, minimum share.
type YarnSide = ([i128; 2], i128, Option<[i128; 2]>);

#[test]
fn yarn_drf_comparator_cases() {
    let cases: [([i128; 2], YarnSide, YarnSide, &str); 10] = [
        // testSameDominantResource: cluster <8000, 4>; both dominant 1/4 on vcores, then mem
        // 1000/8000 < 2000/8000 -> s1.
        ([8000, 4], ([1000, 1], 1, None), ([2000, 1], 1, None), "s1"),
        // testDifferentDominantResource: cluster <8000, 8>; 4000/8000 = 1/2 < 5/8 -> s1.
        ([8000, 8], ([4000, 3], 1, None), ([2000, 5], 1, None), "s1"),
        // testOneIsNeedy: s1 <2000, 5> with min <0, 6>: dominant vcores, 5 < 6, needy; it
        // goes first although its share 5/8 exceeds s2's 1/2.
        (
            [8000, 8],
            ([2000, 5], 1, Some([0, 6])),
            ([4000, 3], 1, None),
            "s1",
        ),
        // testBothAreNeedy: cluster <8000, 100>; s1 <2000, 5> min <3000, 6> (dominant mem,
        // ratio 2/3), s2 <4000, 3> min <5000, 4> (dominant mem, ratio 4/5) -> s1.
        (
            [8000, 100],
            ([2000, 5], 1, Some([3000, 6])),
            ([4000, 3], 1, Some([5000, 4])),
            "s1",
        ),
        // testEvenWeightsSameDominantResource / ...DifferentDominantResource, cluster
        // <8000, 8>, s1 of weight 2: (3/8)/2 = 3/16 < 2/8; (3/8)/2 < 2/8; (3/8)/2 < 2/8;
        // (3/8)/2 < 2/8 -> s1 each time.
        ([8000, 8], ([3000, 1], 2, None), ([2000, 1], 1, None), "s1"),
        ([8000, 8], ([1000, 3], 2, None), ([1000, 2], 1, None), "s1"),
        ([8000, 8], ([1000, 3], 2, None), ([2000, 1], 1, None), "s1"),
        ([8000, 8], ([3000, 1], 2, None), ([1000, 2], 1, None), "s1"),
        // testCompareSchedulablesWithClusterResourceChanges: s1 <2000, 1>, s2 <1000, 2>;
        // cluster <4000, 5>: 1/2 > 2/5 -> s2; cluster <8000, 6>: 1/4 < 1/3 -> s1.
        ([4000, 5], ([2000, 1], 1, None), ([1000, 2], 1, None), "s2"),
        ([8000, 6], ([2000, 1], 1, None), ([1000, 2], 1, None), "s1"),
    ];
    for (cluster, s1, s2, want) in cases {
        assert_eq!(
            yarn_first(cluster, s1, s2),
            want,
            "{cluster:?} {s1:?} {s2:?}"
        );
    }
}

// apache/hadoop, .../scheduler/fair/TestFairScheduler.java, testBasicDRFWithQueues: one
// node <8192 MB, 7 vcores>, drf everywhere; queue1 holds app1 (2 x <3072, 1>) and app2
// (2 x <2048, 2>), queue2 holds app3 (2 x <1024, 2>); containers go app1, app3, app3,
// app2. Replayed by asking the order, giving the first leaf one task, and asking again.
// The apps start in the order app1, app2, app3, as their names sort, so the name
// tie-break stands for YARN's start time here.
// By hand: (1) all zero, names decide: queue1, app1. (2) queue1 (3/8, 1/7) against
// queue2 0: app3. (3) queue2 holds <1024, 2>: (2/7, 1/8) < (3/8, 1/7): app3 again.
// (4) queue2 (4/7, 1/4) > queue1 (3/8, 1/7); inside queue1 app2 (0) < app1 (3/8): app2.
#[test]
fn yarn_basic_drf_with_queues_sequence() {
    let apps = [
        ("app1", [3072, 1]),
        ("app2", [2048, 2]),
        ("app3", [1024, 2]),
    ];
    let mut usage = vec![v(&[0, 0]); 3];
    let yarn = OrderConfig::new(Rule::Yarn);
    let mut served = Vec::new();
    for _ in 0..4 {
        let app = |k: usize| {
            let (name, demand) = apps[k];
            NodeSpec::leaf(name, v(&demand))
                .usage(usage[k].clone())
                .cap(2)
        };
        let queue1 = NodeSpec::pool("queue1", [app(0), app(1)]);
        let t = build(&[8192, 7], vec![queue1, NodeSpec::pool("queue2", [app(2)])]);
        let out = order(&t, &yarn).unwrap();
        let name = t.node(t.node_id(out.offer[0]).unwrap()).name().to_string();
        let k = apps.iter().position(|&(n, _)| n == name).unwrap();
        usage[k] = usage[k]
            .iter()
            .zip(v(&apps[k].1))
            .map(|(u, d)| u + &d)
            .collect();
        served.push(name);
    }
    assert_eq!(served, ["app1", "app3", "app3", "app2"]);
}

// kubernetes-sigs/kueue, pkg/cache/scheduler/fair_sharing_test.go,
// TestDominantResourceShare (values there are DRS x 1000, rounded up). cq (nominal
// cpu 2, gpu 5) and lending-cq (cpu 8, gpu 5) in one cohort: lendable = (10, 10).
fn kueue_cohort(usage: &[i128], demand: Option<&[i128]>, w: Rational) -> Tree {
    let cq = match demand {
        // A queue with a pending workload: its request is the next task.
        Some(d) => NodeSpec::leaf("cq", v(d)),
        // Nothing pending: a count of half a task keeps it out of the tournament, and its
        // key is its DRS now (Kueue's status value).
        None => NodeSpec::leaf("cq", v(&[1, 1])).cap(q(1, 2)),
    };
    let lending = NodeSpec::leaf("lending-cq", v(&[1, 1])).usage(v(&[0, 0]));
    let cohort = NodeSpec::pool(
        "cohort",
        [
            cq.usage(v(usage)).guarantee(gv(&[2, 5])).weight(w),
            lending.guarantee(gv(&[8, 5])),
        ],
    );
    Tree::new(v(&[10, 10]), cohort).unwrap()
}

#[test]
fn kueue_dominant_resource_share() {
    let kueue = OrderConfig::new(Rule::Kueue);
    let key = |t: &Tree| order(t, &kueue).unwrap().nodes[1].key[0].clone();
    let fin = Extended::Finite;
    // "usage above nominal": (7 - 5) * 1000 / 10 = 200 on gpu -> 1/5.
    assert_eq!(key(&kueue_cohort(&[3, 7], None, r(1))), fin(q(1, 5)));
    // "one resource above nominal": (3 - 2) * 1000 / 10 = 100 on cpu -> 1/10.
    assert_eq!(key(&kueue_cohort(&[3, 3], None, r(1))), fin(q(1, 10)));
    // "usage below nominal": 0.
    assert_eq!(key(&kueue_cohort(&[1, 2], None, r(1))), fin(r(0)));
    // "usage with workload above nominal": (1 + 4 - 2) * 1000 / 10 = 300 -> 3/10.
    assert_eq!(
        key(&kueue_cohort(&[1, 2], Some(&[4, 4]), r(1))),
        fin(q(3, 10))
    );
}

// Same file, the weight cases: gpu usage 7 over nominal 5, lendable 10.
#[test]
fn kueue_weighted_share() {
    let kueue = OrderConfig::new(Rule::Kueue);
    let key = |w: Rational| {
        let t = kueue_cohort(&[0, 7], None, w);
        order(&t, &kueue).unwrap().nodes[1].key[0].clone()
    };
    // weight 2: ((7 - 5) * 1000 / 10) / 2 = 100 -> 1/10; weight 0.5: 400 -> 2/5;
    // weight 0 and borrowing (no tree has one: on the figures): math.MaxInt -> +inf.
    assert_eq!(key(r(2)), Extended::Finite(q(1, 10)));
    assert_eq!(key(q(1, 2)), Extended::Finite(q(2, 5)));
    let (u, g, potential) = (v(&[0, 7]), v(&[2, 5]), v(&[10, 10]));
    let zero = kueue_share(&u, &v(&[0, 0]), &g, &potential, &r(0));
    assert_eq!(zero, Extended::Infinite);
}

// Same file, the hierarchical case: cq (gpu nominal 5) in child-cohort (weight 2) under
// root (nominal gpu 45; potential 50); cq uses 10: cq (10 - 5) / 50 * 1000 = 100,
// child-cohort (5 / 50) * 1000 / 2 = 50.
#[test]
fn kueue_hierarchical_share() {
    let cq = NodeSpec::leaf("cq", v(&[1])).usage(v(&[10])).cap(q(1, 2));
    let child = NodeSpec::pool("child-cohort", [cq.guarantee(gv(&[5]))]);
    let t = build(&[50], vec![child.weight(2).guarantee(gv(&[5]))]);
    let out = order(&t, &OrderConfig::new(Rule::Kueue)).unwrap();
    assert_eq!(out.nodes[2].key, [Extended::Finite(q(1, 10))]);
    assert_eq!(out.nodes[1].key, [Extended::Finite(q(1, 20))]);
}

// By hand: satisfaction under the ytsaurus rule. x holds (1, 2) of fair share (2, 2):
// max(1/2, 2/2) = 1; y holds (1, 0) of (4, 1): 1/4; z's fair share is 0: +inf.
#[test]
fn ytsaurus_satisfaction_by_hand() {
    let t = build(
        &[10, 10],
        vec![
            NodeSpec::leaf("x", v(&[1, 1])).usage(v(&[1, 2])),
            NodeSpec::leaf("y", v(&[1, 0])).usage(v(&[1, 0])),
            NodeSpec::leaf("z", v(&[1, 0])).usage(v(&[0, 0])),
        ],
    );
    let shares = [[6, 3], [2, 2], [4, 1], [0, 0]].map(|f| v(&f));
    let config = OrderConfig::new(Rule::Ytsaurus).fair_share(shares.to_vec());
    let out = order(&t, &config).unwrap();
    assert_eq!(names(&out), ["y", "x", "z"]);
    assert_eq!(out.nodes[1].key, [Extended::Finite(r(1))]);
    assert_eq!(out.nodes[3].key, [Extended::Infinite]);
    // Over the fair share on one resource: (3, 0) of (2, 4) -> 3/2.
    assert_eq!(
        satisfaction(&v(&[3, 0]), &v(&[2, 4])),
        Extended::Finite(q(3, 2))
    );
}

// By hand: the deficit (g - U)+ and YARN's needy flag of a pool, and the inactive leaves.
#[test]
fn deficit_needy_and_inactive_leaves() {
    let tree = |limit: [i128; 2]| {
        let a = NodeSpec::leaf("a", v(&[2, 1])).usage(v(&[2, 1]));
        let b = NodeSpec::leaf("b", v(&[0, 0])).usage(v(&[1, 3]));
        let p = NodeSpec::pool("p", [a, b])
            .guarantee(gv(&[4, 2]))
            .limit(limit);
        build(
            &[10, 10],
            vec![p, NodeSpec::leaf("c", v(&[6, 1])).usage(v(&[0, 0]))],
        )
    };
    let out = order(&tree([5, 5]), &OrderConfig::new(Rule::Naive)).unwrap();
    let p = &out.nodes[1];
    // U_p = (3, 4): deficit (4 - 3, 0) = (1, 0); dominant resource r2 (4/10 > 3/10),
    // 4 >= 2: not needy.
    assert_eq!(p.usage, v(&[3, 4]));
    assert_eq!(p.deficit, v(&[1, 0]));
    assert!(!p.needy);
    // a's next task (2, 1) would take p to (5, 5): within its limit; b is idle; c's
    // task needs 6 cpu, 10 - 3 = 7 free: fits.
    assert_eq!(
        out.nodes[3].inactive.as_deref(),
        Some("idle (all-zero demand)")
    );
    assert_eq!(names(&out), ["c", "p/a"]);
    // With p's limit at (4, 5), a's next task would exceed it.
    let out = order(&tree([4, 5]), &OrderConfig::new(Rule::Naive)).unwrap();
    assert_eq!(
        out.nodes[2].inactive.as_deref(),
        Some("its next task would exceed the limit of root/p on r1 (3 held, limit 4)")
    );
    assert_eq!(
        out.nodes[1].inactive.as_deref(),
        Some("no leaf below can start a task")
    );
    assert_eq!(names(&out), ["c"]);
}

#[test]
fn errors_name_the_field() {
    // Leaves holding more than the capacity: the tree itself is refused.
    let leaves = [leaf("a", r(1), v(&[6])), leaf("b", r(1), v(&[5]))];
    let err = Tree::new(v(&[10]), NodeSpec::pool("root", leaves)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tree: the leaves' usage of r1 adds up to 11, above the capacity 10"
    );
    let t = flat(&[10], &[("a", r(1), v(&[1])), ("b", r(1), v(&[2]))]);
    let err = order(
        &t,
        &OrderConfig::new(Rule::Naive).ties("lru".parse().unwrap()),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "tie: lru needs the history of offers (served)"
    );
    let err = order(&t, &OrderConfig::new(Rule::Naive).served(vec![0])).unwrap_err();
    assert_eq!(err.to_string(), "served[0]: not a leaf of the tree");
    let err = order(&t, &OrderConfig::new(Rule::Ytsaurus)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "root/b.fair_share: the ytsaurus rule needs every node's fair share"
    );
    // Fair shares are one per node (root, a, b): a shorter list is refused, not read past.
    let short = OrderConfig::new(Rule::Ytsaurus).fair_share(vec![v(&[1])]);
    assert_eq!(
        order(&t, &short).unwrap_err().to_string(),
        "fair_share: expected 3 entries, one per node, found 1"
    );
    assert_eq!(
        "drf".parse::<Rule>().unwrap_err().to_string(),
        "rule: unknown rule \"drf\" (expected naive, yarn, kueue or ytsaurus)"
    );
}

// A fifo pool offers to its children in the order listed, whatever their shares: x
// holds more than y but comes first; the root still orders its children by the rule.
#[test]
fn fifo_pool_keeps_the_listed_order() {
    let p = NodeSpec::pool("p", [leaf("x", r(1), v(&[3])), leaf("y", r(1), v(&[1]))]);
    let t = build(&[10], vec![p.mode(Mode::Fifo), leaf("z", r(1), v(&[2]))]);
    // p = 4/10 > z = 2/10 -> z first, then p's children as listed.
    assert_eq!(run(&t, &OrderConfig::new(Rule::Naive)), ["z", "p/x", "p/y"]);
}

// Least recently served: the leaf whose last offer is oldest goes first.
#[test]
fn lru_tie_break() {
    let t = flat(&[10], &[("a", r(1), v(&[1])), ("b", r(1), v(&[1]))]);
    let config = OrderConfig::new(Rule::Naive).ties("lru".parse().unwrap());
    // History [a, b]: a was last served at offer 1, b at offer 2 -> a first; and the
    // other way round.
    assert_eq!(run(&t, &config.clone().served(vec![1, 2])), ["a", "b"]);
    assert_eq!(run(&t, &config.served(vec![2, 1])), ["b", "a"]);
}
