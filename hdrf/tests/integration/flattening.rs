//! The lecture's flattening failure (lines 184–186): a pool promised 1/2 whose two leaves
//! have different dominant resources gets less than 1/2 of every resource under `collapsed`.

use leontief_hdrf::{allocate, properties, Policy, Tree};

/// The smallest such tree: P = {P1 = (1,0), P2 = (0,1)} and Q = {Q1 = (1,1)}, all weights 1,
/// capacities (1,1). Flattened, the weights are P1 1/4, P2 1/4, Q1 1/2; at level λ the CPU
/// holds λ/4 + λ/2 and the memory the same, both saturating at λ = 4/3: P1 = P2 = 1/3,
/// Q1 = 2/3. So P holds (1/3, 1/3), dominant share 1/3 < g_P = 1/2.
fn tree() -> Tree {
    Tree::from_json_str(
        r#"{"resources": ["cpu", "mem"], "capacity": [1, 1], "tree": {"name": "root", "children": [
            {"name": "P", "children": [{"name": "P1", "demand": [1, 0]}, {"name": "P2", "demand": [0, 1]}]},
            {"name": "Q", "children": [{"name": "Q1", "demand": [1, 1]}]}]}}"#,
    )
    .expect("valid")
}

#[test]
fn collapsed_leaves_the_pool_at_one_third() {
    let tree = tree();
    let x = allocate(&tree, Policy::Collapsed).unwrap();
    let p = tree.find("P").unwrap();
    assert_eq!(x.node(p).allocation, vec!["1/3".parse().unwrap(); 2]);
    assert_eq!(x.dominant_share(p).to_string(), "1/3");
    assert_eq!(
        x.tasks(tree.find("Q1").unwrap()).unwrap().to_string(),
        "2/3"
    );
    let bad = properties::share_guarantee(&tree, &x);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!(bad[0].node, p);
    assert_eq!(bad[0].guaranteed_share.to_string(), "1/2");
    assert_eq!(bad[0].dominant_share.to_string(), "1/3");
    assert_eq!(tree.path(bad[0].unmet_leaf), "root/P/P1");
    // Every leaf still meets its own guarantee (1/4 for P1 and P2): only the pool fails.
    assert!(bad.iter().all(|v| !tree.node(v.node).is_leaf()));
}

#[test]
fn tree_policies_keep_the_guarantee() {
    // Min-satisfaction, by hand: P1 and P2 grow together at σ = s/(1/4) (s their dominant
    // share), so σ_P = s/(1/2) is P's key; Q's key is σ_Q = σ_Q1 = 2q. Equal keys: s = q;
    // CPU = s + q = 1 at s = q = 1/2, memory too. P holds (1/2, 1/2): exactly g_P.
    // H-DRF: N_P = max((1,0) + (0,1)) = 1, so P's key is its leaves' level: the same fill.
    // Naive: P's share is max(P1 CPU, P2 memory) = s: the same fill again.
    let tree = tree();
    let p = tree.find("P").unwrap();
    for policy in [Policy::MinSatisfaction, Policy::Hdrf, Policy::Naive] {
        let x = allocate(&tree, policy).unwrap();
        assert_eq!(x.dominant_share(p).to_string(), "1/2", "{policy}");
        for leaf in ["P1", "P2", "Q1"] {
            assert_eq!(
                x.tasks(tree.find(leaf).unwrap()).unwrap().to_string(),
                "1/2",
                "{policy} {leaf}"
            );
        }
        assert!(
            properties::share_guarantee(&tree, &x).is_empty(),
            "{policy}"
        );
        assert!(
            properties::pareto_violations(&tree, &x).is_empty(),
            "{policy}"
        );
    }
}
