//! reference/production.json: reference cases from production schedulers' tests and
//! documentation. Every case is checked for shape (a source to cite, features, a tree config,
//! the source's expected values); the cases the current policies can already express
//! (weights and hierarchies, backlogged or demand-capped leaves, no guarantees, limits, FIFO
//! pools or usage) are computed with `leontief hdrf` and compared with the source's numbers.

mod common;

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
    let v = common::ok_json(&out);
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
    let cap: Vec<Rational> = c["config"]["capacity"]
        .as_array()
        .unwrap()
        .iter()
        .map(r)
        .collect();
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
        let cap: Vec<Rational> = c["config"]["capacity"]
            .as_array()
            .unwrap()
            .iter()
            .map(r)
            .collect();
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
