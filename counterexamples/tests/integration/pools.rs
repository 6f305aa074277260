//! Pools in counterexample records: corpus records load into pools with unchanged keys,
//! new records carry pools and replay, generated trees are instances with pools.

use crate::common;

use common::corpus_records;

use crate::common::replay_named;
use leontief_counterexamples::candidate::{evaluate, Candidate};
use leontief_counterexamples::instance_generator::{Chance, GeneratorConfig};
use leontief_counterexamples::mechanisms::by_name;
use leontief_counterexamples::search::{search, SearchConfig};
use leontief_counterexamples::shrink::{shrink, ShrinkConfig};
use leontief_solver::properties::{Property, Scenario};
use leontief_solver::{Instance, Pool, User};

/// The keys stored in the corpus are the keys recomputed from the loaded records: the key
/// sees only the tree.
#[test]
fn corpus_keys_are_unchanged() {
    let records = corpus_records();
    let (mut trees, mut keyed) = (0, 0);
    for (file, line, value) in &records {
        let r = replay_named(value).unwrap_or_else(|e| panic!("{file}:{line}: {e}"));
        // Hand-entered records have no stored key.
        if let Some(stored) = value["key"].as_str() {
            assert_eq!(r.key(), stored, "{file}:{line}");
            keyed += 1;
        }
        if !r.candidate.instance.pools().is_empty() {
            trees += 1;
        }
    }
    assert!(trees >= 10, "hierarchical records in the corpus: {trees}");
    assert!(keyed >= 20, "records with a stored key: {keyed}");
}

/// A corpus record with the pool `p1` holding `u2` and `u3` loads into that pool; written
/// again it is the same instance, and names the users by the same paths (`p1/u2`).
#[test]
fn a_corpus_record_loads_into_pools() {
    let (_, _, value) = corpus_records()
        .into_iter()
        .find(|(f, l, _)| f == "hdrf-collapsed-sg.jsonl" && *l == 1)
        .expect("the first collapsed sg record");
    assert_eq!(value["instance"]["users"][1]["name"], "u2");
    let r = replay_named(&value).unwrap();
    let inst = &r.candidate.instance;
    assert_eq!(inst.pools(), [Pool::new("p1")]);
    let names: Vec<&str> = inst.users().iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["u1", "u2", "u3"]);
    assert_eq!(inst.user_path(1), "p1/u2");
    let json = r.to_json();
    assert_eq!(
        json["instance"]["pools"],
        serde_json::json!([{"name": "p1"}])
    );
    assert_eq!(json["instance"]["users"][1]["pool"], "p1");
    for k in ["instance", "before", "coalition", "witness"] {
        assert_eq!(json[k], value[k], "{k}");
    }
    // The rewritten record replays as well.
    let again = replay_named(&json).unwrap();
    assert_eq!(again.candidate, r.candidate);
    assert_eq!(again.key(), r.key());
}

/// The lecture's flattening failure with the pool P of weight 2: P = {P1 ⟨1,0⟩, P2 ⟨0,1⟩}
/// against Q ⟨1,1⟩ on (1, 1). g_P = 2/3, g_Q = 1/3, g_P1 = g_P2 = 1/3: `collapsed` weighs
/// the three users equally, so DRF gives each 1/2 and P holds 1/2 < 2/3.
fn weighted_flattening() -> Candidate {
    let inst = Instance::builder(vec![1.into(), 1.into()])
        .pools(vec![Pool::new("P").weight(2)])
        .users(vec![
            User::new("P1", [1, 0]).pool(0),
            User::new("P2", [0, 1]).pool(0),
            User::new("Q", [1, 1]),
        ])
        .build()
        .unwrap();
    Candidate::new(inst, Scenario::Bounded)
}

/// Shrinking drops a user and, with it, the pool it leaves empty. With a bystander z alone
/// in a pool R, g_P = 2/4, and `collapsed` weighs all four users 1/4: DRF fills r1 with P1,
/// Q and z at 1/3 each, so P holds 1/3 < 1/2. Without z the weighted flattening's violation
/// remains (1/2 < 2/3); without Q (P alone, g_P = 1, P1 and P2 get a resource each) or a
/// user of P (P1 2/3 against Q 1/3: P holds 2/3 = g_P) there is none.
#[test]
fn shrinking_drops_the_pool_a_user_leaves_empty() {
    let collapsed = by_name("hdrf:collapsed").unwrap();
    let base = weighted_flattening().instance;
    let mut users = base.users().to_vec();
    users.push(User::new("z", [1, 1]).pool(1));
    let mut pools = base.pools().to_vec();
    pools.push(Pool::new("R"));
    let inst = Instance::builder(base.capacity().to_vec())
        .resources(base.resources().to_vec())
        .pools(pools)
        .users(users)
        .build()
        .unwrap();
    let c = Candidate::new(inst, Scenario::Bounded);
    let v = evaluate(collapsed.as_ref(), Property::Sg, &c)
        .unwrap()
        .expect("P below its guarantee");
    let (small, _) = shrink(
        collapsed.as_ref(),
        Property::Sg,
        &c,
        &v,
        &ShrinkConfig::default(),
    );
    let inst = &small.instance;
    assert_eq!(inst.num_users(), 3);
    assert_eq!(inst.pools(), [Pool::new("P").weight(2)]);
    assert!(evaluate(collapsed.as_ref(), Property::Sg, &small)
        .unwrap()
        .is_some());
}

fn trees() -> GeneratorConfig {
    let mut g = GeneratorConfig::new();
    g.users = 2..=4;
    g.zeros = Chance::new(1, 3).unwrap();
    g.pools = Some(1..=2);
    g.weights = true;
    g
}

/// Generated trees are instances with pools: plain names, every pool holding a user.
#[test]
fn generated_trees_have_pools() {
    let g = trees();
    let mut with_pools = 0;
    for index in 0..200 {
        let inst = g.instance(7, index);
        assert!(inst.users().iter().all(|u| !u.name.contains('/')));
        assert!(inst.pools().len() <= 2);
        if !inst.pools().is_empty() {
            with_pools += 1;
        }
    }
    // Each user stays under the root with probability 1/(k+1): most instances have a pool.
    assert!(with_pools > 100, "{with_pools}");
}

/// Records found on trees carry their pools and replay from their JSON.
#[test]
fn search_records_carry_pools() {
    let collapsed = by_name("hdrf:collapsed").unwrap();
    let mut cfg = SearchConfig::new(Property::Sg, 4, trees());
    cfg.run.budget = Some(20_000);
    cfg.max_found = Some(1);
    let mut lines = Vec::new();
    search(
        collapsed.as_ref(),
        &cfg,
        &mut |r| {
            lines.push(r.to_json());
            Ok(())
        },
        &|_| {},
    )
    .unwrap();
    let line = lines.first().expect("collapsed breaks the share guarantee");
    assert!(line["instance"]["pools"]
        .as_array()
        .is_some_and(|p| !p.is_empty()));
    let r = replay_named(line).unwrap();
    assert!(!r.candidate.instance.pools().is_empty());
    assert_eq!(Some(r.key().as_str()), line["key"].as_str());
}
