//! `pm-loss` on arrivals: a hand-derived join, the identity "join of k into I = departure of
//! k from I + k, same ratio" on random instances, and records of both kinds re-derived.

use crate::common;

use common::{explored, q};

use leontief_counterexamples::candidate::Candidate;
use leontief_counterexamples::explore::pm_loss::joined;
use leontief_counterexamples::explore::record::{read, rederive, to_json, Origin};
use leontief_counterexamples::explore::{At, MetricName, Utility};
use leontief_counterexamples::instance_generator::GeneratorConfig;
use leontief_counterexamples::mechanisms::by_name;
use leontief_solver::properties::Scenario;
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Drf, Instance, Mechanism, Rational, User};
use serde_json::Value;

fn pm(
    mechanism: &dyn Mechanism,
    instance: Instance,
    scenario: Scenario,
) -> Option<leontief_counterexamples::explore::Evaluation> {
    let c = Candidate::new(instance, scenario);
    let truth = mechanism.allocate(&c.instance).unwrap();
    MetricName::PmLoss
        .metric()
        .at(&At::new(mechanism, &c, &truth, Utility::Tasks))
        .unwrap()
}

fn record(mechanism: &dyn Mechanism, e: &leontief_counterexamples::explore::Evaluation) -> Value {
    to_json(
        MetricName::PmLoss,
        mechanism.name(),
        Utility::Tasks,
        e,
        0,
        0,
        &Origin::Local { round: 0, task: 0 },
    )
}

#[test]
fn drf_join_of_a_memory_user_lets_the_cpu_user_gain() {
    // docs/theory.md §3.6 read from the arrival side. I = {u1 <1, 0>, u3 <1/2, 1>} on
    // (1, 1): DRF raises both dominant shares to λ (u3's is its memory); the CPU holds
    // λ + λ/2 <= 1, so λ = 2/3 and both run 2/3 task. u2 <0, 1> joins: now memory holds
    // λ + λ <= 1 first, at λ = 1/2, freezing u2 and u3 at 1/2; u1 continues alone on the CPU
    // to 1 − 1/4 = 3/4. u1 gains when u2 joins: u_1(I) / u_1(I + u2) = (2/3) / (3/4) = 8/9;
    // u3's ratio is (2/3) / (1/2) = 4/3. pm-loss = 8/9 for u1, numerator 2/3, denominator
    // 3/4.
    let inst = Instance::new(
        vec![1.into(), 1.into()],
        vec![User::new("u1", [1, 0]), User::new("u3", [q("1/2"), q("1")])],
    )
    .unwrap();
    let joiner = User::new("u2", [0, 1]);
    let drf = Drf::extended();
    let e = pm(&drf, inst.clone(), Scenario::Join(joiner.clone())).unwrap();
    assert_eq!(
        (
            e.value.clone(),
            e.user,
            e.numerator.clone(),
            e.denominator.clone()
        ),
        (q("8/9"), 0, q("2/3"), q("3/4"))
    );
    // The record names the joiner with its demand, lists the larger population's answer,
    // and re-derives (the oracle confirms the loss on the equivalent departure).
    let r = record(&drf, &e);
    let w = &r["witness"];
    assert_eq!(w["joined"]["name"], "u2");
    assert_eq!(w["joined"]["demand"], serde_json::json!(["0", "1"]));
    assert!(w.get("departed").is_none());
    assert_eq!(w["allocation_after"]["u1"], "3/4");
    assert_eq!(w["allocation_after"]["u2"], "1/2");
    assert_eq!(rederive(&drf, &r).unwrap().value, q("8/9"));
    let (_, _, c) = read(&r).unwrap();
    assert_eq!(c.scenario, Scenario::Join(joiner));
    // The same ratio as the departure of u2 from I + u2 (the DRF paper's corpus case
    // drf-pm: u1 3/4 -> 2/3), whose record says "departed".
    let larger = Instance::new(
        vec![1.into(), 1.into()],
        vec![
            User::new("u1", [1, 0]),
            User::new("u3", [q("1/2"), q("1")]),
            User::new("u2", [0, 1]),
        ],
    )
    .unwrap();
    let d = pm(&drf, larger, Scenario::Remove(2)).unwrap();
    assert_eq!((d.value.clone(), d.user), (q("8/9"), 0));
    let r = record(&drf, &d);
    assert_eq!(r["witness"]["departed"]["user"], "u2");
    assert!(r["witness"].get("joined").is_none());
    rederive(&drf, &r).unwrap();
}

#[test]
fn a_join_is_the_departure_from_the_larger_population() {
    // For random instances I (flat and with pools) and random joiners k, appended last:
    // at(I, Join(k)) and at(I + k, Remove(last)) compare the same two answers, so value,
    // interval, user, numerator and denominator agree exactly.
    let mut checked = 0;
    for (name, pools) in [
        ("drf", None),
        ("asset", None),
        ("hdrf:naive", Some(1..=2)),
        ("hdrf:min-satisfaction", Some(1..=2)),
    ] {
        let m = by_name(name).unwrap();
        let mut g = GeneratorConfig::new();
        g.users = 1..=4;
        g.pools = pools;
        let mut rng = SplitMix64::new(11);
        for index in 0..40 {
            let inst = g.instance(3, index);
            let n = inst.num_users();
            let template = inst.users()[rng.range(0, n as u64 - 1) as usize].clone();
            let mut k = template;
            k.name = "new".into();
            for d in k.demand.iter_mut() {
                *d = Rational::from(rng.range(0, 4) as i128);
            }
            if k.demand.iter().all(Rational::is_zero) {
                k.demand[0] = Rational::ONE;
            }
            k.cap = None;
            let larger = joined(&inst, &k).unwrap();
            assert_eq!(larger.without_user(n).unwrap(), inst);
            let a = pm(m.as_ref(), inst.clone(), Scenario::Join(k.clone()));
            let b = pm(m.as_ref(), larger, Scenario::Remove(n));
            match (a, b) {
                (Some(a), Some(b)) => {
                    assert_eq!(
                        (&a.value, &a.lo, &a.hi, a.user, &a.numerator, &a.denominator),
                        (&b.value, &b.lo, &b.hi, b.user, &b.numerator, &b.denominator),
                        "{name} on {inst:?} with {k:?}"
                    );
                    // Its record (the joiner written as the instance form writes a user,
                    // its pool by path) reads back to the same join and re-derives.
                    let r = record(m.as_ref(), &a);
                    assert_eq!(read(&r).unwrap().2.scenario, Scenario::Join(k.clone()));
                    rederive(m.as_ref(), &r).unwrap();
                    checked += 1;
                }
                (None, None) => {}
                (a, b) => panic!("{name}: join {a:?} but departure {b:?}"),
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn explore_tries_arrivals_and_its_records_re_derive() {
    // DRF with zero demands is not population monotonic (docs/theory.md §3.6): the search
    // finds a loss below 1. Every record re-derives from its JSON alone (explore checks it
    // before printing; checked again here), and the witness says which way the population
    // changed.
    let cfg = common::budgeted(MetricName::PmLoss, 1, 3_000);
    let drf = Drf::extended();
    let lines = explored(&drf, &cfg);
    let best = lines.last().unwrap();
    assert!(q(best["value"].as_str().unwrap()) < Rational::ONE, "{best}");
    for r in &lines {
        let w = &r["witness"];
        assert!(
            w.get("departed").is_some() != w.get("joined").is_some(),
            "{w}"
        );
        rederive(&drf, r).unwrap();
    }
    // A tampered joiner no longer re-derives, and the error names the witness.
    if let Some(r) = lines.iter().find(|r| r["witness"].get("joined").is_some()) {
        let mut bad = r.clone();
        bad["witness"]["joined"]["demand"] = serde_json::json!(["1"]);
        let err = rederive(&drf, &bad).unwrap_err().to_string();
        assert!(err.starts_with("witness"), "{err}");
    }
}
