//! reference/production.json: reference cases from production schedulers' tests and
//! documentation. Every case is checked for shape (a source to cite, features, a tree config,
//! the source's expected values) and computed by `leontief reproduce production`, which sets
//! each documented value beside ours; the cases that cannot be computed yet are named here
//! with the refusal or the other rule they meet. A few are also replayed through
//! `leontief hdrf` directly.

use crate::common;

use leontief::solver::Rational;
use serde_json::Value;

fn cases() -> Vec<Value> {
    let text =
        std::fs::read_to_string("reference/production.json").expect("reference/production.json");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    doc["cases"].as_array().expect("cases").clone()
}

fn case(id: &str) -> Value {
    cases()
        .into_iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

const FEATURES: &[&str] = &[
    "guarantee",
    "limit",
    "fifo",
    "usage-order",
    "tie-break",
    "weight",
    "hierarchy",
    "idle",
];

#[test]
fn every_case_is_complete() {
    let all = cases();
    assert!(all.len() >= 20, "{} cases", all.len());
    let mut ids = Vec::new();
    for c in &all {
        let id = c["id"].as_str().expect("id");
        assert!(!ids.contains(&id), "{id} twice");
        ids.push(id);
        let src = &c["source"];
        assert!(
            src["url"].is_string() || (src["repository"].is_string() && src["path"].is_string()),
            "{id}: a source to cite"
        );
        assert!(src["test"].is_string(), "{id}: the test or section");
        let features = c["feature"].as_array().expect("feature");
        assert!(!features.is_empty(), "{id}");
        for f in features {
            assert!(FEATURES.contains(&f.as_str().unwrap()), "{id}: feature {f}");
        }
        assert!(
            ["fair-share", "order", "limit"].contains(&c["question"].as_str().unwrap()),
            "{id}"
        );
        if let Some(s) = c.get("semantics") {
            assert!(
                ["clamp", "additive", "usage-first"].contains(&s.as_str().unwrap()),
                "{id}"
            );
        }
        let cfg = &c["config"];
        let n = cfg["resources"].as_array().expect("resources").len();
        assert_eq!(
            cfg["capacity"].as_array().expect("capacity").len(),
            n,
            "{id}"
        );
        assert!(cfg["tree"]["children"].is_array(), "{id}");
        assert!(c["expected"].is_object(), "{id}");
    }
    // The minimum coverage: guarantees, limits and FIFO among the cases.
    for f in ["guarantee", "limit", "fifo", "usage-order", "tie-break"] {
        assert!(
            all.iter()
                .any(|c| c["feature"].as_array().unwrap().iter().any(|x| x == f)),
            "no case with {f}"
        );
    }
}

/// `leontief hdrf --policy hdrf` on a case's config: each node's allocation by name.
fn allocate(c: &Value) -> Vec<(String, Vec<Rational>)> {
    let config = serde_json::to_string(&c["config"]).unwrap();
    let out = common::run_with(&["hdrf", "-", "--policy", "hdrf"], Some(&config));
    names_and_allocations(&common::ok_json(&out))
}

fn names_and_allocations(v: &Value) -> Vec<(String, Vec<Rational>)> {
    v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let alloc = n["allocation"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().parse().unwrap())
                .collect();
            (n["name"].as_str().unwrap().to_string(), alloc)
        })
        .collect()
}

fn of(nodes: &[(String, Vec<Rational>)], name: &str) -> Vec<Rational> {
    nodes
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no node {name}"))
        .1
        .clone()
}

/// A case's capacity, resource by resource.
fn capacity(c: &Value) -> Vec<Rational> {
    c["config"]["capacity"]
        .as_array()
        .unwrap()
        .iter()
        .map(r)
        .collect()
}

fn r(v: &Value) -> Rational {
    match v {
        Value::String(s) => s.parse().unwrap(),
        other => other.to_string().parse().unwrap(),
    }
}

/// One-resource YARN cases: each leaf's allocation is the source's fair share, exactly as the
/// test states it (weighted water-filling of backlogged leaves: 40/4 = 10; 45 split
/// 2 : 1 : 1 : 1/2 = 20, 10, 10, 5; 240 split 1/2, 1/4, 1/4 = 120, 60, 60; 8192 split
/// 1/4 : 3/4 = 2048, 6144).
#[test]
fn yarn_weighted_fair_shares() {
    for id in [
        "yarn-equal-sharing",
        "yarn-weighted-sharing",
        "yarn-hierarchical-fair-share",
        "yarn-fair-share-with-max-resources",
    ] {
        let c = case(id);
        let nodes = allocate(&c);
        for (leaf, want) in c["expected"].as_object().unwrap() {
            assert_eq!(of(&nodes, leaf)[0], r(want), "{id}: {leaf}");
        }
    }
}

/// YARN reports 3414 MB (truncating its bisection's upper bound); the exact share is 10240/3.
#[test]
fn yarn_simple_fair_share_exactly() {
    let c = case("yarn-simple-fair-share");
    let nodes = allocate(&c);
    for (leaf, want) in c["exact"].as_object().unwrap() {
        assert_eq!(of(&nodes, leaf)[0], r(want), "{leaf}");
    }
    // The source's 3414 is the exact share rounded up.
    assert_eq!(r(&c["exact"]["queue1"]).ceil(), r(&c["expected"]["queue1"]));
}

/// Steady fair shares of TestFairSchedulerFairShare's tree (weights 8 : 1 : 1): 1/5 of memory
/// and vcores for parentA's leaves, 1/20 for parentB's (YARN reports 0.1 of vcores for these,
/// an integer artifact).
#[test]
fn yarn_drf_steady_fair_share() {
    let c = case("yarn-drf-steady-fair-share");
    let nodes = allocate(&c);
    let cap = capacity(&c);
    for (leaf, shares) in c["exact"]["steady_share"].as_object().unwrap() {
        let alloc = of(&nodes, leaf);
        assert_eq!(
            alloc[0].clone() / cap[0].clone(),
            r(&shares["memory"]),
            "{leaf}"
        );
        assert_eq!(
            alloc[1].clone() / cap[1].clone(),
            r(&shares["vcores"]),
            "{leaf}"
        );
    }
    // The documented memory shares are these exactly.
    assert_eq!(
        r(&c["exact"]["steady_share"]["childA1"]["memory"]),
        r(&c["expected"]["steady_share"]["childA1"]["memory"])
    );
    assert_eq!(
        r(&c["exact"]["steady_share"]["childB1"]["memory"]),
        r(&c["expected"]["steady_share"]["childB1"]["memory"])
    );
}

/// YTsaurus' vector HDRF on two demand-capped cases; the source's share vectors over
/// (user_slots, cpu, gpu, memory, network) are compared on the three resources with capacity.
#[test]
fn ytsaurus_hierarchical_drf() {
    for id in [
        "ytsaurus-two-complementary-operations",
        "ytsaurus-complex-case",
    ] {
        let c = case(id);
        let nodes = allocate(&c);
        let cap = capacity(&c);
        for (name, want) in c["expected"].as_object().unwrap() {
            let want: Vec<Rational> = want.as_array().unwrap().iter().map(r).collect();
            // (user_slots, cpu, memory) = entries 0, 1, 3 of the source's vector.
            let want = [want[0].clone(), want[1].clone(), want[3].clone()];
            let got: Vec<Rational> = of(&nodes, name)
                .into_iter()
                .zip(&cap)
                .map(|(a, c)| a / c.clone())
                .collect();
            assert_eq!(got, want, "{id}: {name}");
            let exact: Vec<Rational> = c["exact"][name].as_array().unwrap().iter().map(r).collect();
            assert_eq!(got, exact, "{id}: {name}");
        }
    }
}

/// The cases `reproduce production` does not compute, and the refusal each meets: a zero
/// weight (the tree model needs positive weights).
const NOT_COMPUTED: &[(&str, &str)] = &[(
    "yarn-zero-weight-min-resources",
    "weight: must be positive, found 0",
)];

/// Every documented number of a case, as exact rationals (nested objects and lists
/// flattened), for checking that a reported source value is one of the case's own.
fn documented_numbers(v: &Value, out: &mut Vec<Rational>) {
    match v {
        Value::Number(_) => out.push(r(v)),
        Value::String(s) => {
            if let Ok(x) = s.parse() {
                out.push(x);
            }
        }
        Value::Array(xs) => xs.iter().for_each(|x| documented_numbers(x, out)),
        Value::Object(m) => m.values().for_each(|x| documented_numbers(x, out)),
        _ => {}
    }
}

/// `leontief reproduce production`: every one of the cases has checks, every check passes,
/// and the cases not computed are exactly `NOT_COMPUTED`, each meeting the named refusal.
/// Each computed check's source value is one of the case's documented numbers (or names, for
/// orders), so the comparison is with the file, not with the code.
#[test]
fn reproduce_production_covers_every_case() {
    let out = common::run_with(
        &["reproduce", "production", "--format", "json"],
        None::<&str>,
    );
    let report = common::ok_json(&out);
    assert_eq!(report["failed"], 0, "{report}");
    let checks = report["examples"][0]["checks"].as_array().unwrap().clone();
    let all = cases();
    assert_eq!(all.len(), 39);
    let mut computed = 0;
    for c in &all {
        let id = c["id"].as_str().unwrap();
        let mine: Vec<&Value> = checks
            .iter()
            .filter(|k| {
                k["what"]
                    .as_str()
                    .unwrap()
                    .strip_prefix(id)
                    .is_some_and(|rest| rest.starts_with(':'))
            })
            .collect();
        assert!(!mine.is_empty(), "{id}: no check");
        for k in &mine {
            assert_eq!(k["ok"], true, "{id}: {k}");
        }
        match NOT_COMPUTED.iter().find(|n| n.0 == id) {
            Some((_, refusal)) => {
                assert_eq!(mine.len(), 1, "{id}");
                let got = mine[0]["computed"].as_str().unwrap();
                assert!(got.contains(refusal), "{id}: {got}");
            }
            None => {
                computed += 1;
                let mut doc = Vec::new();
                documented_numbers(&c["expected"], &mut doc);
                documented_numbers(&c["exact"], &mut doc);
                let text = c["expected"].to_string();
                for k in &mine {
                    let source = k["source"].as_str().unwrap();
                    // "x (exact y)": the exact value is the one compared.
                    let compared = source
                        .split_once("(exact ")
                        .map_or(source, |(_, e)| e.trim_end_matches(')'));
                    match compared.parse::<Rational>() {
                        Ok(x) => assert!(doc.contains(&x), "{id}: {source} not documented"),
                        // Vectors, orders and names: each part documented.
                        Err(_) => {
                            for part in compared
                                .trim_matches(|ch| ch == '(' || ch == ')')
                                .split(", ")
                            {
                                let part = part.split(" (").next().unwrap();
                                let ok = part.parse::<Rational>().is_ok_and(|x| doc.contains(&x))
                                    || text.contains(&format!("\"{part}\""))
                                    || c["exact"].to_string().contains(&format!("\"{part}\""));
                                assert!(ok, "{id}: {part} of {source} not documented");
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(computed, 39 - NOT_COMPUTED.len());
    assert!(computed >= 30, "{computed} computed");
}

/// The refusals of the cases not computed, through `leontief hdrf` itself.
#[test]
fn cases_not_computed_meet_their_refusal() {
    for &(id, want) in NOT_COMPUTED {
        let c = case(id);
        let config = serde_json::to_string(&c["config"]).unwrap();
        let out = common::run_with(&["hdrf", "-", "--policy", "hdrf"], Some(&config));
        common::assert_bad(&out, want);
    }
}

/// `leontief hdrf` with `--guarantees`: YARN's clamp rule reproduces the documented
/// `max(w·R, min)` with R = 5 (20, 5, 5, 15); the additive rule gives, by hand, the
/// guarantees plus the rest 45 − 40 = 5 split 2 : 1 : 1 : 1/2 (20/9, 10/9, 10/9, 5/9):
/// 200/9, 10/9, 55/9, 140/9 — the two rules differ on this case.
#[test]
fn clamp_and_additive_rules_on_yarn_min_shares() {
    for id in ["yarn-weighted-sharing-with-min-shares", "yarn-cpu"] {
        let c = case(id);
        let config = serde_json::to_string(&c["config"]).unwrap();
        let out = common::run_with(
            &["hdrf", "-", "--policy", "hdrf", "--guarantees", "clamp"],
            Some(&config),
        );
        let nodes = names_and_allocations(&common::ok_json(&out));
        for (leaf, want) in c["expected"].as_object().unwrap() {
            assert_eq!(of(&nodes, leaf)[0], r(want), "{id}: {leaf}");
        }
        let nodes = allocate(&c);
        for (leaf, want) in [("a", "200/9"), ("b", "10/9"), ("c", "55/9"), ("d", "140/9")] {
            assert_eq!(of(&nodes, leaf)[0], want.parse().unwrap(), "{id}: {leaf}");
        }
    }
}

/// YARN's FIFO leaf queue through `leontief hdrf`: app1 takes its two containers (2048 MB)
/// before app2 gets one (the remaining 1024 MB of 3072).
#[test]
fn yarn_fifo_within_queue() {
    let c = case("yarn-fifo-within-queue");
    let nodes = allocate(&c);
    for (app, want) in c["exact"]["allocation"].as_object().unwrap() {
        assert_eq!(of(&nodes, app)[0], r(&want[0]), "{app}");
    }
}
