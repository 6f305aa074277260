//! The hierarchical examples: static allocations of the lecture's and the H-DRF paper's
//! trees (`reference/trees.json`) and their behaviour under churn.

use leontief_solver::Rational;
use serde_json::{json, Value};

use super::*;
use crate::cli::CliError;

/// The hierarchical examples with the sources' answers.
pub const TREES_REFERENCE: &str = include_str!("../../reference/trees.json");

pub(super) fn hdrf_static() -> Result<Vec<Check>, CliError> {
    use leontief_hdrf::{allocate, properties::share_guarantee, Policy, Tree};
    let all: Value =
        serde_json::from_str(TREES_REFERENCE).map_err(|e| CliError::Internal(e.to_string()))?;
    let cases = all["cases"].as_array().cloned().unwrap_or_default();
    let mut checks = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        let resources = if id == "hdrf-paper-starvation" {
            ["cpu", "gpu"]
        } else {
            ["cpu", "mem"]
        };
        let tree = Tree::from_json(
            &json!({"resources": resources, "capacity": [1, 1], "tree": case["tree"]}),
        )?;
        let mut expected: Vec<(Policy, &Value)> = Vec::new();
        for key in ["static_fill_from_zero", "static"] {
            if let Some(map) = case[key].as_object() {
                for (policy, values) in map {
                    expected.push((policy.parse()?, values));
                }
            }
        }
        for (policy, values) in expected {
            let alloc = allocate(&tree, policy)?;
            for (name, want) in values.as_object().into_iter().flatten() {
                let node = tree
                    .find(name)
                    .ok_or_else(|| CliError::Internal(format!("node {name}")))?;
                checks.push(Check::exact(
                    format!("{id}: {name} dominant share, {}", policy.name()),
                    alloc.dominant_share(node),
                    &str_of(want),
                ));
            }
        }
        for (name, want) in case["guaranteed"].as_object().into_iter().flatten() {
            let node = tree
                .find(name)
                .ok_or_else(|| CliError::Internal(format!("node {name}")))?;
            checks.push(Check::exact(
                format!("{id}: {name} guaranteed share"),
                tree.guaranteed_share(node),
                &str_of(want),
            ));
        }
    }
    // The lecture's flattening failure: a pool promised 1/2 whose children have different
    // dominant resources gets 1/3 when the tree is flattened; the tree policies keep 1/2.
    let tree = Tree::from_json(
        &json!({"resources": ["cpu", "mem"], "capacity": [1, 1], "tree": {"name": "root", "children": [
        {"name": "P", "children": [{"name": "P1", "demand": [1, 0]}, {"name": "P2", "demand": [0, 1]}]},
        {"name": "Q", "children": [{"name": "Q1", "demand": [1, 1]}]}]}}),
    )?;
    let p = tree
        .find("P")
        .ok_or_else(|| CliError::Internal("P".into()))?;
    for (policy, want, holds) in [
        (Policy::Collapsed, "1/3", false),
        (Policy::MinSatisfaction, "1/2", true),
        (Policy::Hdrf, "1/2", true),
    ] {
        let alloc = allocate(&tree, policy)?;
        checks.push(Check::exact(
            format!("flattening: P dominant share, {}", policy.name()),
            alloc.dominant_share(p),
            want,
        ));
        checks.push(Check::text(
            format!("flattening: share guarantee holds, {}", policy.name()),
            share_guarantee(&tree, &alloc).is_empty().to_string(),
            &holds.to_string(),
        ));
    }
    Ok(checks)
}

/// The churn workloads of `reproduce hdrf-dynamic` (the trees of `reference/trees.json`).
pub const LECTURE_CHURN: &str = include_str!("../../examples/lecture-churn.json");
/// The H-DRF paper's tree under churn.
pub const HDRF_PAPER_CHURN: &str = include_str!("../../examples/hdrf-paper-churn.json");

pub(super) fn hdrf_dynamic() -> Result<Vec<Check>, CliError> {
    use leontief_hdrf::simulate::{simulate, Record, Scenario, SimConfig, SimPolicy, Simulation};
    let at_least = |what: String, computed: &Rational, bound: &str| Check {
        ok: bound.parse::<Rational>().is_ok_and(|b| *computed >= b),
        what,
        computed: computed.to_string(),
        source: format!("≥ {bound}"),
    };
    let run = |s: &Scenario, policy: SimPolicy| -> Result<Simulation, CliError> {
        Ok(simulate(s, &SimConfig::new(policy).record(Record::Off))?)
    };
    let node = |s: &Scenario, name: &str| -> Result<usize, CliError> {
        s.tree
            .find(name)
            .map(|v| v.index())
            .ok_or_else(|| CliError::Internal(format!("node {name}")))
    };
    let mut checks = Vec::new();

    // The lecture: "every CPU that B1 frees goes to A ... B1 drains to 0"; min-satisfaction
    // "gives every node at least its guaranteed share" (B1: 1/4).
    let lecture = Scenario::from_json_str(LECTURE_CHURN)?;
    let (a, b1) = (node(&lecture, "A")?, node(&lecture, "B1")?);
    let naive = run(&lecture, SimPolicy::Naive)?;
    checks.push(Check::exact(
        "lecture: B1 min share over [50, 100), naive",
        &naive.nodes[b1].min_share_steady,
        "0",
    ));
    checks.push(Check::exact(
        "lecture: A min share over [50, 100), naive (A takes all the CPU)",
        &naive.nodes[a].min_share_steady,
        "1",
    ));
    checks.push(Check::text(
        "lecture: B1 starved, naive",
        naive.nodes[b1].starved.to_string(),
        "true",
    ));
    let fair = run(&lecture, SimPolicy::MinSatisfaction)?;
    checks.push(at_least(
        "lecture: B1 min share over [50, 100), min-satisfaction".into(),
        &fair.nodes[b1].min_share_steady,
        "1/4",
    ));
    checks.push(Check::text(
        "lecture: B1 starved, min-satisfaction",
        fair.nodes[b1].starved.to_string(),
        "false",
    ));

    // The H-DRF paper: naive starves n22 under churn (the GPU drifts to n1); H-DRF does not.
    let paper = Scenario::from_json_str(HDRF_PAPER_CHURN)?;
    let (n1, n22) = (node(&paper, "n1")?, node(&paper, "n22")?);
    let naive = run(&paper, SimPolicy::Naive)?;
    checks.push(Check::exact(
        "H-DRF paper: n22 min share over [50, 100), naive",
        &naive.nodes[n22].min_share_steady,
        "0",
    ));
    checks.push(Check::exact(
        "H-DRF paper: n1 min share over [50, 100), naive (the GPU drifts to n1)",
        &naive.nodes[n1].min_share_steady,
        "1",
    ));
    checks.push(Check::text(
        "H-DRF paper: n22 starved, naive",
        naive.nodes[n22].starved.to_string(),
        "true",
    ));
    for policy in [SimPolicy::Hdrf, SimPolicy::MinSatisfaction] {
        let x = run(&paper, policy)?;
        checks.push(at_least(
            format!("H-DRF paper: n22 min share over [50, 100), {policy}"),
            &x.nodes[n22].min_share_steady,
            "1/4",
        ));
        checks.push(Check::text(
            format!("H-DRF paper: n22 starved, {policy}"),
            x.nodes[n22].starved.to_string(),
            "false",
        ));
    }
    Ok(checks)
}
