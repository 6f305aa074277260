//! End-to-end tests of `leontief import`: the YARN and Kueue documentation's sample
//! configurations (examples/), imported and compared with the tree JSON derived by hand from
//! the sources' field definitions, and the errors that name the element path.

use crate::common;

use std::process::Output;

use serde_json::{json, Value};

use common::run;

fn run_stdin(args: &[&str], stdin: &str) -> Output {
    common::run_with(args, Some(stdin))
}

fn tree(out: &Output) -> Value {
    common::ok_json(out)["tree"].clone()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const GI: i64 = 1 << 30;

/// The Fair Scheduler documentation's sample file. By hand, from the documentation's element
/// definitions: `minResources` is the guarantee ("10000 mb,0vcores" = [10000, 0]),
/// `maxResources` the limit, `queueMaxResourcesDefault` ("40000 mb,0vcores") the limit of every
/// queue below root without its own `maxResources`; `weight` 2.0 and 3.0 are 2 and 3;
/// `secondary_group_queue` is `type="parent"` without children: an empty pool; the two leaves
/// are idle. Root keeps no limit (the default is not applied to it).
#[test]
fn yarn_documentation_sample() {
    let out = run(&common::words(
        "import yarn examples/yarn-fair-scheduler.xml --capacity 100000,10",
    ));
    let v = common::ok_json(&out);
    assert_eq!(v["resources"], json!(["memory-mb", "vcores"]));
    assert_eq!(v["capacity"], json!([100000, 10]));
    assert_eq!(
        v["tree"],
        json!({"name": "root", "children": [
            {"name": "sample_queue", "weight": 2, "guarantee": [10000, 0], "limit": [90000, 0], "children": [
                {"name": "sample_sub_queue", "guarantee": [5000, 0], "limit": [40000, 0], "demand": [0, 0]},
                {"name": "sample_reservable_queue", "limit": [40000, 0], "demand": [0, 0]}]},
            {"name": "secondary_group_queue", "weight": 3, "limit": [40000, 0], "children": []}]})
    );
    // Nothing dropped silently: every element without a tree equivalent is listed.
    let err = stderr(&out);
    for dropped in [
        "allocations: queueMaxAMShareDefault, user, userMaxAppsDefault, queuePlacementPolicy",
        "root.sample_queue: maxRunningApps, maxAMShare",
        "root.sample_queue.sample_sub_queue: aclSubmitApps",
        "root.sample_queue.sample_reservable_queue: reservation",
        "root.secondary_group_queue: maxChildResources",
        "YARN's fair policy compares memory alone",
    ] {
        assert!(err.contains(dropped), "{dropped:?} not in {err}");
        assert!(v["note"].as_str().unwrap().contains(dropped));
    }
    // --strict turns them into an error.
    let strict = run(&common::words(
        "import yarn examples/yarn-fair-scheduler.xml --capacity 100000,10 --strict",
    ));
    common::assert_bad(
        &strict,
        "--strict: the configuration has what a tree cannot express",
    );
}

/// TestFairSchedulerFairShare's tree: root -> parentA (weight 8, four leaves), parentB
/// (weight 1, two leaves), default. The drf default leaves no warning.
#[test]
fn yarn_test_tree() {
    let out = run(&common::words(
        "import yarn examples/yarn-parents.xml --capacity 16384,10",
    ));
    assert_eq!(stderr(&out), "");
    let idle = json!([0, 0]);
    let leaf = |n: &str| json!({"name": n, "demand": idle});
    assert_eq!(
        tree(&out),
        json!({"name": "root", "children": [
            {"name": "parentA", "weight": 8, "children": [leaf("childA1"), leaf("childA2"), leaf("childA3"), leaf("childA4")]},
            {"name": "parentB", "children": [leaf("childB1"), leaf("childB2")]},
            leaf("default")]})
    );
}

/// Both resource forms and percentages of the cluster (truncated as YARN truncates:
/// 33% of 10 vcores is 3.3, kept as 3; 50% of 4096 MB is 2048), unspecified resources 0 in a
/// minimum and unlimited in a maximum, and a maximum below the minimum raised to it.
#[test]
fn yarn_resource_forms() {
    let xml = r#"<allocations>
      <queue name="a"><minResources>memory-mb=1024</minResources><maxResources>vcores=33%, memory-mb=50%</maxResources></queue>
      <queue name="b"><minResources>512mb,2vcores</minResources><maxResources>25%</maxResources></queue>
      <queue name="c"><minResources>2048 mb, 1 vcores</minResources><maxResources>1024 mb, 8 vcores</maxResources></queue>
      <queue name="d"><maxResources>vcores=4</maxResources></queue>
      <queue name="e"><maxResources>50% cpu, 25%memory</maxResources></queue>
    </allocations>"#;
    let out = run_stdin(
        &common::cli("import yarn - --capacity", &["memory-mb=4096, vcores=10"]),
        xml,
    );
    assert_eq!(
        tree(&out)["children"],
        json!([
            // 50% of 4096 = 2048; 33% of 10 = 3.3 -> 3.
            {"name": "a", "guarantee": [1024, 0], "limit": [2048, 3], "demand": [0, 0]},
            // 25% of each: 1024 and 2.5 -> 2.
            {"name": "b", "guarantee": [512, 2], "limit": [1024, 2], "demand": [0, 0]},
            // max(1024, 2048) = 2048, max(8, 1) = 8.
            {"name": "c", "guarantee": [2048, 1], "limit": [2048, 8], "demand": [0, 0]},
            // memory unspecified in a maximum: unlimited (the capacity, 4096).
            {"name": "d", "limit": [4096, 4], "demand": [0, 0]},
            // The old percentage form: 25% of 4096 = 1024, 50% of 10 = 5.
            {"name": "e", "limit": [1024, 5], "demand": [0, 0]}])
    );
    assert!(stderr(&out)
        .contains("root.c: maxResources [1024, 8] below minResources [2048, 1] raised to it"));
}

/// Demands: a leaf's own, and a FIFO leaf's applications as jobs (it becomes a fifo pool).
#[test]
fn yarn_demands_and_fifo_jobs() {
    let xml = r#"<allocations><defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
      <queue name="batch"><schedulingPolicy>fifo</schedulingPolicy></queue>
      <queue name="web"/><queue name="idle"/></allocations>"#;
    let dir = std::env::temp_dir().join(format!("leontief-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let demands = dir.join("demands.json");
    std::fs::write(
        &demands,
        r#"{"root.batch": {"jobs": [{"name": "app1", "demand": [1024, 1], "tasks": 2},
                                    {"name": "app2", "demand": [1024, 1], "tasks": 2}]},
            "web": {"demand": [2048, 1], "usage": [2048, 1]}}"#,
    )
    .unwrap();
    let out = run_stdin(
        &common::cli(
            "import yarn - --capacity 3072,4 --demands",
            &[demands.to_str().unwrap()],
        ),
        xml,
    );
    assert_eq!(
        tree(&out)["children"],
        json!([
            {"name": "batch", "mode": "fifo", "children": [
                {"name": "app1", "demand": [1024, 1], "tasks": 2},
                {"name": "app2", "demand": [1024, 1], "tasks": 2}]},
            {"name": "web", "demand": [2048, 1], "usage": [2048, 1]},
            {"name": "idle", "demand": [0, 0]}])
    );
    let bad = std::fs::write(&demands, r#"{"root.nope": {"demand": [1, 1]}}"#);
    assert!(bad.is_ok());
    let out = run_stdin(
        &common::cli(
            "import yarn - --capacity 3072,4 --demands",
            &[demands.to_str().unwrap()],
        ),
        xml,
    );
    common::assert_bad(
        &out,
        "demands.root.nope: no such leaf (leaves: root.batch, root.web, root.idle)",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn yarn_errors_name_the_element() {
    let cases: &[(&str, &str)] = &[
        (
            r#"<allocations><queue name="a"><wieght>2</wieght></queue></allocations>"#,
            "allocations/queue[a]/wieght: unknown element",
        ),
        (
            r#"<allocations><queue name="a"><minResources>50%</minResources></queue></allocations>"#,
            "allocations/queue[a]/minResources: a percentage minResources has no absolute value",
        ),
        (
            r#"<allocations><queue name="a"><minResources>1024 mb</minResources></queue></allocations>"#,
            "allocations/queue[a]/minResources: expected \"X mb, Y vcores\"",
        ),
        (
            r#"<allocations><queue name="a"><minResources>-1 mb, 1 vcores</minResources></queue></allocations>"#,
            "must not be negative",
        ),
        (
            r#"<allocations><queue name="p"><minResources>1024 mb, 1 vcores</minResources>
                <queue name="x"><minResources>1024 mb, 1 vcores</minResources></queue>
                <queue name="y"><minResources>1 mb, 0 vcores</minResources></queue></queue></allocations>"#,
            "allocations/queue[p]: the children's minResources sum to [1025, 1], above this queue's minResources [1024, 1]",
        ),
        (
            r#"<allocations><queue name="p"><schedulingPolicy>fifo</schedulingPolicy><queue name="x"/></queue></allocations>"#,
            "allocations/queue[p]/schedulingPolicy: YARN allows fifo on leaf queues only",
        ),
        (
            r#"<allocations><queue name="a.b"/></allocations>"#,
            "allocations/queue[a.b]@name: a queue name must be non-empty, without '.'",
        ),
        (r#"<allocations><queue name="a"></allocations>"#, "standard input: malformed XML"),
        (r#"<queues/>"#, "expected the document element <allocations>"),
        // Found by fuzzing: below a queue without minResources, the children's guarantees
        // must still fit the capacity (4 vcores here; 3 + 2 = 5).
        (
            r#"<allocations><queue name="p"><queue name="x"><minResources>1 mb, 3 vcores</minResources></queue>
                <queue name="y"><minResources>1 mb, 2 vcores</minResources></queue></queue></allocations>"#,
            "allocations/queue[p]: the children's minResources sum to [2, 5], above the capacity [4096, 4]",
        ),
        // Found by fuzzing: a queue without minResources guarantees what its children do,
        // so q's child p counts 3 vcores against q's 2.
        (
            r#"<allocations><queue name="q"><minResources>1 mb, 2 vcores</minResources>
                <queue name="p"><queue name="x"><minResources>1 mb, 3 vcores</minResources></queue></queue></queue></allocations>"#,
            "allocations/queue[q]: the children's minResources sum to [1, 3], above this queue's minResources [1, 2]",
        ),
        // Found by fuzzing: YARN allows a weight of 0 (no fair share), a tree does not.
        (
            r#"<allocations><queue name="a"><weight>0.0</weight></queue></allocations>"#,
            "allocations/queue[a]/weight: 0 has no tree equivalent: the tree form needs a positive weight",
        ),
    ];
    for (xml, message) in cases {
        let out = run_stdin(&["import", "yarn", "-", "--capacity", "4096,4"], xml);
        common::assert_bad(&out, message);
    }
    // Found by fuzzing: an explicit root without queues below it is still a parent (YARN's
    // root always is), so the tree is a root pool with no children, as without any queue.
    for xml in [
        r#"<allocations><queue name="root"/></allocations>"#,
        "<allocations/>",
    ] {
        let v = common::ok_json(&run_stdin(
            &["import", "yarn", "-", "--capacity", "4096,4"],
            xml,
        ));
        assert_eq!(v["tree"], json!({"name": "root", "children": []}), "{xml}");
    }
    // Found by fuzzing: a multi-byte character just before the number used to be split (a
    // panic). The old form takes the number written just before the unit, as YARN's pattern
    // does: 2 mb.
    let v = common::ok_json(&run_stdin(
        &["import", "yarn", "-", "--capacity", "4096,4"],
        r#"<allocations><queue name="a"><minResources>1Ⱦ2 mb, 1 vcores</minResources></queue></allocations>"#,
    ));
    assert_eq!(v["tree"]["children"][0]["guarantee"], json!([2, 1]));
    let out = run_stdin(&["import", "yarn", "-"], "<allocations/>");
    common::assert_bad(&out, "leontief import yarn needs --capacity");
    let out = run_stdin(
        &["import", "yarn", "-", "--capacity", "4096"],
        "<allocations/>",
    );
    common::assert_bad(
        &out,
        "--capacity: expected 2 entries, one per resource (memory-mb, vcores), found 1",
    );
}

/// The Kueue documentation's borrowing example: by hand, the capacity is the sum of the
/// nominal quotas (9 + 12 CPUs, 36Gi + 48Gi), each queue's guarantee its nominalQuota, and
/// neither has a limit below the capacity ("team-a-cq can admit Workloads with resources
/// adding up to 12+9=21 CPUs and 48+36=84Gi of memory"). The implicit cohort is the root.
#[test]
fn kueue_documentation_borrowing() {
    let out = run(&["import", "kueue", "examples/kueue-borrowing.yaml"]);
    let v = common::ok_json(&out);
    assert_eq!(v["resources"], json!(["cpu", "memory"]));
    assert_eq!(v["capacity"], json!([21, 84 * GI]));
    assert_eq!(
        v["tree"],
        json!({"name": "team-ab", "children": [
            {"name": "team-a-cq", "guarantee": [9, 36 * GI], "demand": [0, 0]},
            {"name": "team-b-cq", "guarantee": [12, 48 * GI], "demand": [0, 0]}]})
    );
    assert!(stderr(&out).contains("document 1 (ClusterQueue team-a-cq).spec.namespaceSelector"));
}

/// With team-a-cq's borrowingLimit 1 its limit is 9 + 1 = 10 CPUs (documented); team-b-cq's
/// lendingLimit 1 keeps 11 of its 12 CPUs out of team-a's reach, which also gives 9 + 1 = 10;
/// team-b-cq can reach 11 + (9 + 1) = 21, the capacity: no limit. Memory is unlimited (84Gi).
#[test]
fn kueue_documentation_limits() {
    let out = run(&["import", "kueue", "examples/kueue-limits.yaml"]);
    assert_eq!(
        tree(&out),
        json!({"name": "team-ab", "children": [
            {"name": "team-a-cq", "guarantee": [9, 36 * GI], "limit": [10, 84 * GI], "demand": [0, 0]},
            {"name": "team-b-cq", "guarantee": [12, 48 * GI], "demand": [0, 0]}]})
    );
    assert!(stderr(&out).contains("Ignored objects (no quota): ResourceFlavor default-flavor."));
    // Without the lendingLimit, the borrowingLimit alone gives the same 10.
    let text = std::fs::read_to_string("examples/kueue-limits.yaml").unwrap();
    let out = run_stdin(
        &["import", "kueue", "-"],
        &text.replace("        lendingLimit: 1\n", ""),
    );
    assert_eq!(tree(&out)["children"][0]["limit"], json!([10, 84 * GI]));
    // Without the borrowingLimit, the lendingLimit alone: 0 own + (9 + 12 - 11) = 10.
    let out = run_stdin(
        &["import", "kueue", "-"],
        &text.replace("        borrowingLimit: 1\n", ""),
    );
    assert_eq!(tree(&out)["children"][0]["limit"], json!([10, 84 * GI]));
}

/// Hierarchical cohorts as in Kueue's fair-sharing tests (a ClusterQueue with gpu nominal 5
/// in child-cohort, weight 2, under root with gpu nominal 45): the capacity is 50; the child
/// cohort's guarantee is its children's 5; with the child cohort's borrowingLimit 10 it and
/// its queue can reach 5 + 10 = 15.
#[test]
fn kueue_hierarchical_cohorts() {
    let yaml = "\
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: root}
spec:
  resourceGroups:
  - coveredResources: [gpu]
    flavors: [{name: default, resources: [{name: gpu, nominalQuota: 45}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: child-cohort}
spec:
  parentName: root
  fairSharing: {weight: 2}
  resourceGroups:
  - coveredResources: [gpu]
    flavors: [{name: default, resources: [{name: gpu, nominalQuota: 0, borrowingLimit: 10}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  cohortName: child-cohort
  queueingStrategy: StrictFIFO
  resourceGroups:
  - coveredResources: [gpu]
    flavors: [{name: default, resources: [{name: gpu, nominalQuota: 5}]}]
";
    let out = run_stdin(&["import", "kueue", "-"], yaml);
    let v = common::ok_json(&out);
    assert_eq!(v["capacity"], json!([50]));
    assert_eq!(
        v["tree"],
        json!({"name": "root", "children": [
            {"name": "child-cohort", "weight": 2, "guarantee": [5], "limit": [15], "children": [
                {"name": "cq", "guarantee": [5], "limit": [15], "demand": [0]}]}]})
    );
    assert_eq!(stderr(&out), "");
}

/// Two flavors make two resources each; a queue cannot use a flavor it does not list (limit
/// 0 there); quantities are exact (500m = 1/2).
#[test]
fn kueue_flavors_and_quantities() {
    let yaml = "\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: a}
spec:
  cohortName: c
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - {name: on-demand, resources: [{name: cpu, nominalQuota: 500m}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: b}
spec:
  cohortName: c
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - {name: on-demand, resources: [{name: cpu, nominalQuota: '1.5'}]}
    - {name: spot, resources: [{name: cpu, nominalQuota: 8}]}
";
    let v = common::ok_json(&run_stdin(&["import", "kueue", "-"], yaml));
    assert_eq!(v["resources"], json!(["on-demand/cpu", "spot/cpu"]));
    assert_eq!(v["capacity"], json!([2, 8]));
    assert_eq!(
        v["tree"]["children"],
        json!([
            {"name": "a", "guarantee": ["1/2", 0], "limit": [2, 0], "demand": [0, 0]},
            {"name": "b", "guarantee": ["3/2", 8], "demand": [0, 0]}])
    );
}

#[test]
fn kueue_errors_name_the_field() {
    let head = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: a}\n";
    let cases: &[(String, &str)] = &[
        (
            format!("{head}spec:\n  cohortNmae: x\n"),
            "document 1 (ClusterQueue a).spec.cohortNmae: unknown field",
        ),
        (
            format!("{head}spec:\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{{name: f, resources: [{{name: cpu, nominalQuota: 2Xi}}]}}]\n"),
            "document 1 (ClusterQueue a).spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: unknown quantity suffix",
        ),
        (
            format!("{head}spec:\n  resourceGroups:\n  - coveredResources: [cpu, memory]\n    flavors: [{{name: f, resources: [{{name: cpu, nominalQuota: 2}}]}}]\n"),
            "no quota for the covered resource \"memory\"",
        ),
        (
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n".to_string(),
            "document 1.apiVersion: \"v1\" is not a Kueue API",
        ),
        ("a: [1, 2\n".to_string(), "standard input: malformed YAML at line"),
        // Found by fuzzing: a weight of 0, and a resource whose quotas are all 0 (the
        // capacity is their sum), have no tree equivalent.
        (
            format!("{head}spec:\n  fairSharing: {{weight: 0}}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{{name: f, resources: [{{name: cpu, nominalQuota: 2}}]}}]\n"),
            "document 1 (ClusterQueue a).spec.fairSharing.weight: 0 has no tree equivalent: the tree form needs a positive weight",
        ),
        (
            format!("{head}spec:\n  cohortName: team/a\n"),
            "document 1 (ClusterQueue a).spec.cohortName: \"team/a\" is not a Kubernetes object name: it contains '/'",
        ),
        (
            format!("{head}spec:\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{{name: f, resources: [{{name: cpu, nominalQuota: 0}}]}}]\n"),
            "standard input: every nominalQuota of \"cpu\" is 0: the capacity (their sum) must be positive",
        ),
    ];
    for (yaml, message) in cases {
        common::assert_bad(&run_stdin(&["import", "kueue", "-"], yaml), message);
    }
    let out = run(&common::words(
        "import kueue examples/kueue-borrowing.yaml --capacity 1,1",
    ));
    common::assert_bad(&out, "--capacity does not apply to kueue");
}

/// Separate cohort trees and a ClusterQueue without a cohort go under a pool named root, each
/// limited to its own quota (nothing is lent between them); a queue's jobs make it a fifo
/// pool (Kueue orders a queue's workloads FIFO); --demand backlogs every other leaf.
#[test]
fn kueue_separate_roots_jobs_and_default_demand() {
    let cq = |name: &str, cohort: &str, cpu: u32| {
        let cohort = if cohort.is_empty() {
            String::new()
        } else {
            format!("  cohortName: {cohort}\n")
        };
        format!(
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {{name: {name}}}\nspec:\n{cohort}  resourceGroups:\n  - coveredResources: [cpu]\n    flavors: [{{name: f, resources: [{{name: cpu, nominalQuota: {cpu}}}]}}]\n"
        )
    };
    let yaml = [cq("x", "c", 2), cq("y", "c", 2), cq("solo", "", 4)].join("---\n");
    let dir = std::env::temp_dir().join(format!("leontief-import-k-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let demands = dir.join("demands.json");
    std::fs::write(
        &demands,
        r#"{"x": {"jobs": [{"name": "w1", "demand": [1], "tasks": 1}, {"name": "w2", "demand": [1], "tasks": 3}]}}"#,
    )
    .unwrap();
    let out = run_stdin(
        &common::cli(
            "import kueue - --demands",
            &[demands.to_str().unwrap(), "--demand", "1/2"],
        ),
        &yaml,
    );
    let v = common::ok_json(&out);
    assert_eq!(v["capacity"], json!([8]));
    // The implicit cohort c comes after the objects that name it.
    assert_eq!(
        v["tree"],
        json!({"name": "root", "children": [
            {"name": "solo", "guarantee": [4], "limit": [4], "demand": ["1/2"]},
            {"name": "c", "guarantee": [4], "limit": [4], "children": [
                {"name": "x", "guarantee": [2], "limit": [4], "mode": "fifo", "children": [
                    {"name": "w1", "demand": [1], "tasks": 1},
                    {"name": "w2", "demand": [1], "tasks": 3}]},
                {"name": "y", "guarantee": [2], "limit": [4], "demand": ["1/2"]}]}]})
    );
    assert!(stderr(&out).contains("placed under a pool named root"));
    let out = run_stdin(&["import", "kueue", "-", "--demand", "1,1"], &yaml);
    common::assert_bad(
        &out,
        "--demand: expected 1 entries, one per resource, found 2",
    );
    std::fs::write(&demands, r#"{"x": {"demand": [1], "jobs": []}}"#).unwrap();
    let out = run_stdin(
        &common::cli("import kueue - --demands", &[demands.to_str().unwrap()]),
        &yaml,
    );
    common::assert_bad(
        &out,
        "demands.x: give either \"jobs\" or the queue's own demand",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The documented outcome of TestFairSchedulerFairShare's DRF test, replayed through the
/// import: with every leaf backlogged (tasks the size of the cluster), the steady fair shares
/// are 1/5 for each of parentA's leaves (weight 8 of 10, split four ways), 1/20 for parentB's
/// (1 of 10, split two ways) and 1/10 for root.default; YARN reports 0.2 and 0.05 of memory.
#[test]
fn yarn_import_replays_the_steady_fair_shares() {
    let out = run(&common::words(
        "import yarn examples/yarn-parents.xml --capacity 16384,10 --demand 16384,10",
    ));
    let tree_json = String::from_utf8(out.stdout).unwrap();
    let v = common::ok_json(&run_stdin(&["hdrf", "-", "--policy", "hdrf"], &tree_json));
    let share = |name: &str| {
        common::node_where(&v, "name", name)["dominant_share"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for (leaf, want) in [
        ("childA1", "1/5"),
        ("childA4", "1/5"),
        ("childB1", "1/20"),
        ("childB2", "1/20"),
        ("default", "1/10"),
    ] {
        assert_eq!(share(leaf), want, "{leaf}");
    }
}

/// Work is bounded: nesting deeper than a tree may be is refused, not recursed into.
#[test]
fn deep_nesting_is_refused() {
    let deep = format!(
        "<allocations>{}{}</allocations>",
        "<queue name=\"q\">".repeat(5000),
        "</queue>".repeat(5000)
    );
    common::assert_bad(
        &run_stdin(&["import", "yarn", "-", "--capacity", "1,1"], &deep),
        "elements nest deeper than 128 levels",
    );
    let chain: Vec<String> = (0..100)
        .map(|i| format!("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {{name: c{i}}}\nspec: {{parentName: c{}}}\n", i + 1))
        .collect();
    common::assert_bad(
        &run_stdin(&["import", "kueue", "-"], &chain.join("---\n")),
        "the cohorts nest deeper than 64 levels",
    );
    let cycle = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: a}\nspec: {parentName: b}\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: b}\nspec: {parentName: a}\n";
    common::assert_bad(
        &run_stdin(&["import", "kueue", "-"], cycle),
        "the cohorts form a cycle: a -> b",
    );
}
