//! The search driver: finds what the sources say exists, finds nothing where a theorem
//! says there is nothing, shrinks soundly, shards without overlap, and is deterministic.

use crate::common;
use std::collections::BTreeSet;

use leontief_counterexamples::candidate::evaluate;
use leontief_counterexamples::instance_generator::{Chance, GeneratorConfig};
use leontief_counterexamples::record::Record;
use leontief_counterexamples::search::{
    replay, search, search_logged, user_lies, ReplayError, SearchConfig, SearchSummary, Shard,
    ShardLog, Stop,
};
use leontief_counterexamples::space::{GridSpace, GridVectors, Strategy, VectorOrder};
use leontief_solver::asset::AssetFairness;
use leontief_solver::ceei::Ceei;
use leontief_solver::properties::scenarios::structured_lies;
use leontief_solver::properties::Property;
use leontief_solver::{DiscreteDrf, Drf, Mechanism, Rational};
use proptest::prelude::*;

fn with_zeros() -> GeneratorConfig {
    let mut g = GeneratorConfig::new();
    g.users = 2..=4;
    g.zeros = Chance::new(1, 3).unwrap();
    g
}

fn run(mechanism: &dyn Mechanism, cfg: &SearchConfig) -> (Vec<Record>, SearchSummary) {
    let mut found = Vec::new();
    let summary = search(
        mechanism,
        cfg,
        &mut |r| {
            found.push(r.clone());
            Ok(())
        },
        &|_| {},
    )
    .unwrap();
    (found, summary)
}

/// The lecture: extended DRF is not group strategy-proof in the strong reading. From every
/// one of five seeds a bounded search finds a violation, and it re-verifies.
#[test]
fn finds_a_strong_group_manipulation_of_drf_from_five_seeds() {
    for seed in 1..=5 {
        let mut cfg = SearchConfig::new(Property::GspStrong, seed, with_zeros());
        cfg.run.budget = Some(1_000_000);
        cfg.max_found = Some(1);
        let (found, summary) = run(&Drf::extended(), &cfg);
        assert_eq!(summary.stop, Some(Stop::Found), "seed {seed}");
        let r = &found[0];
        assert!(
            evaluate(&Drf::extended(), Property::GspStrong, &r.candidate)
                .unwrap()
                .is_some()
        );
        // Weakly: no liar loses; someone strictly gains.
        let v = &r.violation;
        let after = v.after.as_ref().unwrap();
        for i in common::liars(&r.candidate) {
            assert!(after[i].as_ref().unwrap() >= &v.before[i], "seed {seed}");
        }
        assert!((0..v.before.len()).any(|i| after[i].as_ref().unwrap() > &v.before[i]));
    }
}

/// Parkes, Procaccia and Shah (EC 2012): extended DRF is group strategy-proof — no
/// coalition in which every member strictly gains.
#[test]
fn finds_no_weak_group_manipulation_of_drf() {
    let mut cfg = SearchConfig::new(Property::GspWeak, 1, with_zeros());
    cfg.run.budget = Some(150_000);
    let (found, summary) = run(&Drf::extended(), &cfg);
    assert!(found.is_empty(), "{:?}", found[0].to_json());
    assert!(summary.scenarios >= 150_000);
    // And DRF is strategy-proof (Ghodsi et al., Theorem 2 / extended).
    let mut cfg = SearchConfig::new(Property::Sp, 1, with_zeros());
    cfg.run.budget = Some(100_000);
    assert!(run(&Drf::extended(), &cfg).0.is_empty());
}

/// Ghodsi et al., section 5: CEEI is not strategy-proof.
#[test]
fn finds_a_ceei_lie_within_a_small_budget() {
    let mut cfg = SearchConfig::new(Property::Sp, 1, with_zeros());
    cfg.run.budget = Some(5_000);
    cfg.max_found = Some(1);
    let (found, _) = run(&Ceei::new(), &cfg);
    let r = &found[0];
    let v = &r.violation;
    let liar = common::liars(&r.candidate)[0];
    assert!(v.after.as_ref().unwrap()[liar].as_ref().unwrap() > &v.before[liar]);
}

/// Asset fairness violates SI (section 5); the search finds it at once and shrinks it to
/// two users (one user always gets at least its equal split).
#[test]
fn asset_fairness_si_shrinks_to_two_users() {
    let mut cfg = SearchConfig::new(Property::Si, 2, with_zeros());
    cfg.run.budget = Some(2_000);
    cfg.max_found = Some(1);
    let (found, _) = run(&AssetFairness, &cfg);
    assert_eq!(found[0].candidate.instance.num_users(), 2);
}

#[test]
fn the_same_output_whatever_the_thread_count() {
    let mut cfg = SearchConfig::new(Property::Pm, 3, with_zeros());
    cfg.run.budget = Some(3_000);
    let lines = |threads: usize| -> Vec<String> {
        let (found, summary) = common::on_threads(threads, || run(&Drf::extended(), &cfg));
        let mut l: Vec<String> = found.iter().map(|r| r.to_json().to_string()).collect();
        l.push(format!("{} {}", summary.units, summary.scenarios));
        l
    };
    let one = lines(1);
    assert!(
        one.len() > 2,
        "expected some PM counterexamples with zero demands"
    );
    assert_eq!(one, lines(2));
}

/// Shards of an exhaustive grid examine disjoint sets of units whose union is the whole
/// grid, and together find exactly what the unsharded run finds.
#[test]
fn shards_cover_the_unsharded_enumeration() {
    let g = crate::common::sized(2..=3, 1..=2);
    let mut cfg = SearchConfig::new(Property::Pm, 9, g);
    cfg.run.strategy = Strategy::Exhaustive;
    cfg.run.batch = 7;
    let (whole, summary) = run(&Drf::extended(), &cfg);
    assert_eq!(summary.stop, Some(Stop::Exhausted));
    // {0, 1/2, 1}: 8 vectors on 2 resources, 2 on 1: C(3,2)+C(4,3)+C(9,2)+C(10,3) = 3+4+36+120.
    assert_eq!(summary.units, 163);
    let keys = |rs: &[Record]| rs.iter().map(Record::key).collect::<BTreeSet<_>>();
    let mut units = 0;
    let mut sharded = BTreeSet::new();
    for index in 0..3 {
        let mut c = cfg.clone();
        c.run.shard = Shard { index, count: 3 };
        let (found, s) = run(&Drf::extended(), &c);
        units += s.units;
        for r in &found {
            assert_eq!(r.unit.unwrap() % 3, index);
        }
        sharded.extend(keys(&found));
    }
    assert_eq!(units, summary.units);
    assert_eq!(sharded, keys(&whole));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// Shrinking never returns something that is not a violation, and never grows.
    #[test]
    fn shrunk_counterexamples_are_violations(seed in 0u64..1_000, which in 0usize..5) {
        let (mechanism, property): (Box<dyn Mechanism>, Property) = match which {
            0 => (Box::new(Drf::extended()), Property::GspStrong),
            1 => (Box::new(Drf::extended()), Property::Pm),
            2 => (Box::new(Drf::extended()), Property::Rm),
            3 => (Box::new(AssetFairness), Property::Bf),
            _ => (Box::new(DiscreteDrf::paper()), Property::Sp),
        };
        let mut cfg = SearchConfig::new(property, seed, with_zeros());
        cfg.run.budget = Some(20_000);
        cfg.max_found = Some(2);
        let (found, _) = run(mechanism.as_ref(), &cfg);
        for r in found {
            prop_assert!(evaluate(mechanism.as_ref(), property, &r.candidate).unwrap().is_some());
            if let Some((orig, _)) = &r.original {
                prop_assert!(evaluate(mechanism.as_ref(), property, orig).unwrap().is_some());
                prop_assert!(r.candidate.instance.num_users() <= orig.instance.num_users());
                prop_assert!(r.candidate.instance.num_resources() <= orig.instance.num_resources());
            }
        }
    }
}

/// On generated trees: collapsed breaks the share guarantee (the lecture's flattening
/// failure), min-satisfaction HDRF and H-DRF keep it (docs/theory.md §4; the lecture's claim).
#[test]
fn share_guarantee_on_generated_trees() {
    use leontief_counterexamples::mechanisms::by_name;
    let mut g = with_zeros();
    g.pools = Some(1..=2);
    g.weights = true;
    for (name, expect_found) in [
        ("hdrf:collapsed", true),
        ("hdrf:min-satisfaction", false),
        ("hdrf:hdrf", false),
    ] {
        let m = by_name(name).unwrap();
        let mut cfg = SearchConfig::new(Property::Sg, 4, g.clone());
        cfg.run.budget = Some(if expect_found { 20_000 } else { 4_000 });
        cfg.max_found = Some(1);
        let (found, _) = run(m.as_ref(), &cfg);
        assert_eq!(!found.is_empty(), expect_found, "{name}");
        if let Some(r) = found.first() {
            // Below its guarantee, re-verified exactly by the search.
            let leontief_solver::properties::Witness::Sg(w) = &r.violation.witness else {
                panic!("expected a share-guarantee witness")
            };
            assert!(w.dominant_share < w.guaranteed);
        }
    }
}

/// Runs shard `index/count` of `cfg` and logs every unit it examines.
fn logged(
    mechanism: &dyn Mechanism,
    cfg: &SearchConfig,
    index: u64,
    count: u64,
) -> ShardLog<Record> {
    let mut cfg = cfg.clone();
    cfg.run.shard = Shard { index, count };
    let mut units = Vec::new();
    let summary = search_logged(
        mechanism,
        &cfg,
        &mut |_| Ok(()),
        &mut |u| {
            units.push(u.clone());
            Ok(())
        },
        &|_| {},
    )
    .unwrap();
    assert_eq!(summary.units, units.len() as u64);
    ShardLog {
        shard: cfg.run.shard,
        units,
        stop: summary.stop.unwrap(),
    }
}

/// The counters that do not depend on the clock.
fn counters(s: &SearchSummary) -> (u64, u64, u64, u64, u64, Option<Stop>, u64) {
    (
        s.units,
        s.scenarios,
        s.found,
        s.duplicates,
        s.errors,
        s.stop,
        s.next_unit,
    )
}

/// The replay's theorem (see `replay`): every unit one process examines is in its shard's
/// log, so replaying the shards' logs in unit order gives one process's records and
/// counters, with a binding budget and with a binding count, for any number of shards.
#[test]
fn replayed_shards_equal_one_process() {
    let mech = Drf::extended();
    for (property, budget, max_found) in [
        (Property::Pm, Some(3_000), None),
        (Property::Rm, Some(2_000), None),
        (Property::Rm, Some(1_000_000), Some(3)),
    ] {
        let mut cfg = SearchConfig::new(property, 5, with_zeros());
        cfg.run.budget = budget;
        cfg.max_found = max_found;
        cfg.run.batch = 16;
        let (single, summary) = run(&mech, &cfg);
        let expected_stop = if max_found.is_some() {
            Stop::Found
        } else {
            Stop::Budget
        };
        assert_eq!(summary.stop, Some(expected_stop), "{property}");
        assert!(!single.is_empty(), "{property}");
        for count in [1, 2, 3, 5] {
            let logs: Vec<_> = (0..count).map(|i| logged(&mech, &cfg, i, count)).collect();
            // The shards examine more than one process: the budget or count binds per shard.
            let examined: u64 = logs.iter().map(|l| l.units.len() as u64).sum();
            assert!(examined >= summary.units, "{property}, {count} shards");
            let (records, replayed) = replay(logs, cfg.run.budget, cfg.max_found).unwrap();
            assert_eq!(records, single, "{property}, {count} shards");
            assert_eq!(
                counters(&replayed),
                counters(&summary),
                "{property}, {count} shards"
            );
        }
    }
}

/// Logs of another run's limits, or not one sharded run, are refused.
#[test]
fn replay_refuses_logs_not_of_one_sharded_run() {
    let mech = Drf::extended();
    let mut cfg = SearchConfig::new(Property::Rm, 5, with_zeros());
    cfg.run.budget = Some(500);
    cfg.run.batch = 16;
    let logs: Vec<_> = (0..2).map(|i| logged(&mech, &cfg, i, 2)).collect();
    // With a larger budget one process goes on past where the shards stopped.
    let err = replay(logs.clone(), Some(5_000), None).unwrap_err();
    assert!(
        matches!(err, ReplayError::Short { stop: "budget", .. }),
        "{err}"
    );
    let err = replay(vec![logs[0].clone(), logs[0].clone()], Some(500), None).unwrap_err();
    assert!(matches!(err, ReplayError::Shards { count: 2, .. }), "{err}");
    assert_eq!(
        replay(Vec::<ShardLog<Record>>::new(), None, None).unwrap_err(),
        ReplayError::Empty
    );
}

/// A budget binds inside one unit, to the scenario: on 2 users and `m` resources the first
/// unit is a grid instance, and each of its users has at least `3^m − 2` lies (every
/// nonzero vector of {0, 1/2, 1}^m but the truth: 6,559 at `m = 8`), far more than 10; so
/// the unit stops at its 10th scenario and the run with it, whatever `m`.
#[test]
fn a_budget_of_ten_stops_after_ten_scenarios_at_any_size() {
    for m in [8, 14, 30] {
        let g = crate::common::sized(2..=2, m..=m);
        let mut cfg = SearchConfig::new(Property::Sp, 1, g);
        cfg.run.budget = Some(10);
        let (found, summary) = run(&Drf::extended(), &cfg);
        assert!(found.is_empty(), "DRF is strategy-proof");
        assert_eq!(
            (summary.units, summary.scenarios, summary.stop),
            (1, 10, Some(Stop::Budget)),
            "m = {m}"
        );
    }
}

/// The eager enumeration the grid's lazy one replaces, written out: every vector of
/// `values^m` with the first entry varying fastest (a unit's grid lies).
fn every_vector_first_fastest(values: &[Rational], m: usize) -> Vec<Vec<Rational>> {
    let mut out: Vec<Vec<Rational>> = vec![Vec::new()];
    for _ in 0..m {
        out = values
            .iter()
            .flat_map(|v| {
                out.iter().map(move |p| {
                    let mut q = p.clone();
                    q.push(v.clone());
                    q
                })
            })
            .collect();
    }
    out
}

/// A grid instance's lies, unranked one at a time, are the list the search always tried:
/// the structured lies, then every nonzero grid vector that is neither the truth nor
/// already listed, in the same order; and lie `k` read alone is the `k`-th of that list.
#[test]
fn lazy_grid_lies_are_the_listed_ones_in_order() {
    let values: Vec<Rational> = ["0", "1/2", "1"]
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    let mut rng = leontief_solver::random_instances::SplitMix64::new(1);
    for m in 1..=4 {
        let grid = GridSpace::new(&values, 2..=2, m..=m, false);
        for index in [0, grid.len() / 2, grid.len() - 1] {
            let instance = grid.instance(index);
            for i in 0..2 {
                let truth = &instance.users()[i].demand;
                let mut expected = structured_lies(&instance, i);
                for v in every_vector_first_fastest(&values, m) {
                    if v != *truth && v.iter().any(Rational::is_positive) && !expected.contains(&v)
                    {
                        expected.push(v);
                    }
                }
                let lies = user_lies(&instance, i, &values, true, &mut rng);
                assert_eq!(lies.len(), expected.len() as u64, "m = {m}");
                assert_eq!(lies.iter().collect::<Vec<_>>(), expected, "m = {m}");
                for (k, lie) in expected.iter().enumerate() {
                    assert_eq!(lies.get(k as u64), *lie);
                }
            }
        }
    }
}

/// The grid's instances are unranked from their index alone: the vectors of a block are
/// the lexicographic list of `values^m` less the zero vector, as the eager list was.
#[test]
fn lazy_grid_vectors_are_the_lexicographic_list() {
    let values: Vec<Rational> = ["0", "1/2", "1"]
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    for m in 1..=4 {
        // Lexicographic: the last entry fastest (the first-fastest list with entries reversed,
        // re-sorted).
        let mut expected: Vec<Vec<Rational>> = every_vector_first_fastest(&values, m)
            .into_iter()
            .filter(|v| v.iter().any(Rational::is_positive))
            .collect();
        expected.sort();
        let lazy = GridVectors::new(&values, m, VectorOrder::Lexicographic);
        assert_eq!(lazy.iter().collect::<Vec<_>>(), expected, "m = {m}");
        for (k, v) in expected.iter().enumerate() {
            assert_eq!(lazy.index_of(v), Some(k as u64));
        }
        // One user per instance: the grid lists exactly these vectors, in this order.
        let grid = GridSpace::new(&values, 1..=1, m..=m, false);
        assert_eq!(grid.len(), expected.len() as u64);
        for (k, v) in expected.iter().enumerate() {
            assert_eq!(grid.instance(k as u64).users()[0].demand, *v);
        }
    }
    // Nothing is built up front: 3^40 vectors are counted, not listed.
    let huge = GridSpace::new(&values, 2..=2, 40..=40, false);
    assert!(huge.len() > 1 << 60);
    assert_eq!(huge.instance(0).num_resources(), 40);
}
