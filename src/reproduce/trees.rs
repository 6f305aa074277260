//! The hierarchical examples: static allocations of the lecture's and the H-DRF paper's
//! trees (`reference/trees.json`) and their behaviour under churn.

use leontief_solver::Rational;
use serde_json::Value;

use super::*;
use crate::cli::CliError;

/// The hierarchical examples with the sources' answers.
pub const TREES_REFERENCE: &str = include_str!("../../reference/trees.json");

/// The lecture's flattening failure: the pool P's children have different dominant resources.
const FLATTENING: &str = r#"{"resources": ["cpu", "mem"], "capacity": [1, 1], "tree": {"name": "root", "children": [
    {"name": "P", "children": [{"name": "P1", "demand": [1, 0]}, {"name": "P2", "demand": [0, 1]}]},
    {"name": "Q", "children": [{"name": "Q1", "demand": [1, 1]}]}]}}"#;

/// The node a reference case names.
fn node_named(tree: &leontief_hdrf::Tree, name: &str) -> Result<leontief_hdrf::NodeId, CliError> {
    tree.find(name)
        .ok_or_else(|| CliError::Internal(format!("node {name}")))
}

pub(super) fn hdrf_static() -> Result<Vec<Check>, CliError> {
    use leontief_hdrf::{allocate, properties::share_guarantee, Policy, Tree};
    let mut checks = Vec::new();
    for case in &reference_cases(TREES_REFERENCE)? {
        let id = case["id"].as_str().unwrap_or("?");
        // The case's tree on the unit capacity (the shares do not depend on the resources'
        // names).
        let tree = Tree::from_json(&serde_json::json!({"capacity": [1, 1], "tree": case["tree"]}))?;
        for key in ["static_fill_from_zero", "static"] {
            for (policy, values) in case[key].as_object().into_iter().flatten() {
                let policy: Policy = policy.parse()?;
                let alloc = allocate(&tree, policy)?;
                for (name, want) in values.as_object().into_iter().flatten() {
                    let node = node_named(&tree, name)?;
                    checks.push(Check::exact(
                        format!("{id}: {name} dominant share, {}", policy.name()),
                        alloc.dominant_share(node),
                        &str_of(want),
                    ));
                }
            }
        }
        for (name, want) in case["guaranteed"].as_object().into_iter().flatten() {
            let node = node_named(&tree, name)?;
            checks.push(Check::exact(
                format!("{id}: {name} guaranteed share"),
                tree.node(node).guaranteed_share(),
                &str_of(want),
            ));
        }
    }
    // The lecture's flattening failure: a pool promised 1/2 whose children have different
    // dominant resources gets 1/3 when the tree is flattened; the tree policies keep 1/2.
    let tree = Tree::from_json_str(FLATTENING)?;
    let p = node_named(&tree, "P")?;
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
    use leontief_hdrf::simulate::{simulate, Record, Scenario, SimConfig, SimPolicy};
    let cases = reference_cases(TREES_REFERENCE)?;
    let mut checks = Vec::new();
    for (id, workload) in [
        ("lecture-naive-starvation", LECTURE_CHURN),
        ("hdrf-paper-starvation", HDRF_PAPER_CHURN),
    ] {
        // What the case's source says about a node under a policy (`churn`): its least share
        // in the steady state, exactly or at least a bound; whether it starves; and why (for
        // the check's label, e.g. "A takes all the CPU").
        let churn = &cases.iter().find(|c| c["id"] == id).unwrap_or(&Value::Null)["churn"];
        let claims = churn["claims"]
            .as_array()
            .ok_or_else(|| CliError::Internal(format!("reference case {id} has no churn")))?;
        let source = str_of(&churn["source"]);
        let scenario = Scenario::from_json_str(workload)?;
        for claim in claims {
            let name = str_of(&claim["node"]);
            let policy = SimPolicy::Tree(str_of(&claim["policy"]).parse()?);
            let node = node_named(&scenario.tree, &name)?.index();
            let run = simulate(&scenario, &SimConfig::new(policy).record(Record::Off))?;
            let summary = &run.nodes[node];
            let because = claim.get("why").map(|b| format!(" ({})", str_of(b)));
            let what = format!(
                "{source}: {name} min share over [50, 100), {policy}{}",
                because.unwrap_or_default()
            );
            checks.push(match claim.get("min_share_at_least").map(str_of) {
                None => Check::exact(
                    what,
                    &summary.min_share_steady,
                    &str_of(&claim["min_share"]),
                ),
                Some(bound) => Check {
                    ok: bound
                        .parse::<Rational>()
                        .is_ok_and(|b| summary.min_share_steady >= b),
                    what,
                    computed: summary.min_share_steady.to_string(),
                    source: format!("≥ {bound}"),
                },
            });
            if let Some(starved) = claim.get("starved") {
                checks.push(Check::text(
                    format!("{source}: {name} starved, {policy}"),
                    summary.starved.to_string(),
                    &starved.to_string(),
                ));
            }
        }
    }
    Ok(checks)
}
