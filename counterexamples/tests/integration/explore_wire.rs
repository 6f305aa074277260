//! `explore_with`: a run whose rounds travel through the serialized form (every work item
//! and every result encoded, sent as text, decoded) and are evaluated in another chunking
//! and order equals the one-process run — the same records, in the same order, and the
//! same counters — for every kind of scenario (lies, departures and joins, grown
//! capacities, none, churn), approximate answers, a family, and trees; with local search on
//! and the budget binding.

use std::cell::Cell;

use leontief_counterexamples::explore::wire::{
    found_from_json, found_to_json_checked, item_from_json, item_to_json_checked,
};
use leontief_counterexamples::explore::{
    explore, explore_with, At, Evaluator, ExploreConfig, ExploreSummary, Family, Found, MetricName,
    RoundEvaluator, Utility, WorkItem,
};
use leontief_counterexamples::instance_generator::GeneratorConfig;
use leontief_counterexamples::mechanisms::by_name;
use leontief_counterexamples::search::Stop;
use leontief_solver::Mechanism;
use serde_json::Value;

/// Ships each item as text to an [`Evaluator`] and its result back as text, in chunks of 5
/// evaluated last chunk first (as remote workers might finish), then puts them in order.
struct Shipped<'a> {
    local: Evaluator<'a>,
    local_items: Cell<u64>,
}

fn through_text(v: &Value) -> Value {
    serde_json::from_str(&v.to_string()).unwrap()
}

impl RoundEvaluator for Shipped<'_> {
    fn evaluate_round(&mut self, items: &[WorkItem]) -> std::io::Result<Vec<Found>> {
        let sent: Vec<Value> = items
            .iter()
            .map(|i| through_text(&item_to_json_checked(i).unwrap()))
            .collect();
        let chunks: Vec<(usize, &[Value])> = sent
            .chunks(5)
            .enumerate()
            .map(|(k, c)| (k * 5, c))
            .collect();
        let mut back: Vec<Option<Found>> = vec![None; items.len()];
        for (start, chunk) in chunks.into_iter().rev() {
            for (k, v) in chunk.iter().enumerate() {
                let item = item_from_json(v).unwrap();
                if matches!(item, WorkItem::Local { .. }) {
                    self.local_items.set(self.local_items.get() + 1);
                }
                let found = self.local.evaluate(&item);
                let text = through_text(&found_to_json_checked(&found).unwrap());
                back[start + k] = Some(found_from_json(&text).unwrap());
            }
        }
        Ok(back.into_iter().map(Option::unwrap).collect())
    }
}

fn lines(
    mechanism: &dyn Mechanism,
    cfg: &ExploreConfig,
    evaluator: Option<&mut dyn RoundEvaluator>,
) -> (Vec<Value>, ExploreSummary) {
    let mut out = Vec::new();
    let mut on_record = |r: &Value| {
        out.push(r.clone());
        Ok(())
    };
    let summary = match evaluator {
        None => explore(mechanism, cfg, &mut on_record, &|_| {}),
        Some(e) => explore_with(mechanism, cfg, e, &mut on_record, &|_| {}),
    }
    .unwrap();
    (out, summary)
}

/// The counters (wall times aside).
fn counters(s: &ExploreSummary) -> impl PartialEq + std::fmt::Debug + use<> {
    (
        s.units,
        s.evaluations,
        s.scenarios,
        s.improvements,
        s.errors,
        s.error_messages.clone(),
        s.stop,
        s.best.clone(),
        s.first_violation.is_some(),
    )
}

fn same_through_the_wire(mechanism: &str, cfg: ExploreConfig) {
    let m = by_name(mechanism).unwrap();
    let (one, one_summary) = lines(m.as_ref(), &cfg, None);
    let mut shipped = Shipped {
        local: Evaluator::new(m.as_ref(), &cfg),
        local_items: Cell::new(0),
    };
    let (two, two_summary) = lines(m.as_ref(), &cfg, Some(&mut shipped));
    let what = format!("{mechanism} {}", cfg.metric);
    assert_eq!(one, two, "{what}");
    assert_eq!(counters(&one_summary), counters(&two_summary), "{what}");
    // The budget binds and the local search ran, so both phases went through the wire.
    assert_eq!(one_summary.stop, Some(Stop::Budget), "{what}");
    assert!(shipped.local_items.get() > 0, "{what}");
    assert!(
        !one.is_empty() && one.last().unwrap()["best"] == true,
        "{what}"
    );
}

fn cfg(metric: MetricName, seed: u64, g: GeneratorConfig, budget: u64) -> ExploreConfig {
    let mut c = ExploreConfig::new(metric, seed, g);
    c.run.batch = 8;
    c.local = 12;
    c.run.budget = Some(budget);
    c
}

fn small() -> GeneratorConfig {
    crate::common::sized(2..=3, 2..=3)
}

fn with_pools() -> GeneratorConfig {
    let mut g = small();
    g.users = 2..=4;
    g.pools = Some(1..=2);
    g
}

#[test]
fn lies_through_the_wire() {
    // Manipulable mechanisms: a lie metric's local search restarts only from values above
    // the truth's 1 (docs/explore.md §5), which a strategy-proof one never gives.
    same_through_the_wire("ceei", cfg(MetricName::SpGain, 1, small(), 1_500));
    same_through_the_wire("ceei", cfg(MetricName::GspGain, 2, small(), 1_500));
}

#[test]
fn departures_joins_and_growths_through_the_wire() {
    same_through_the_wire("drf", cfg(MetricName::RmLoss, 3, small(), 1_500));
    same_through_the_wire("drf", cfg(MetricName::PmLoss, 4, small(), 1_500));
    // Joins into a tree: the joiner's pool travels by path.
    same_through_the_wire("drf", cfg(MetricName::PmLoss, 5, with_pools(), 1_500));
}

#[test]
fn whole_allocation_metrics_through_the_wire() {
    same_through_the_wire("drf-common-level", cfg(MetricName::Envy, 6, small(), 600));
    same_through_the_wire("asset", cfg(MetricName::SiGap, 7, small(), 600));
    same_through_the_wire("drf", cfg(MetricName::WelfareRatio, 8, small(), 300));
    same_through_the_wire(
        "discrete-drf",
        cfg(MetricName::DiscreteGap, 9, small(), 300),
    );
}

#[test]
fn approximate_answers_through_the_wire() {
    // CEEI's answers carry a tolerance, its records an interval.
    same_through_the_wire("ceei", cfg(MetricName::RmLoss, 10, small(), 300));
}

#[test]
fn a_family_through_the_wire() {
    let mut c = cfg(MetricName::SpGain, 11, small(), 1_500);
    c.family = Some(Family::TwoKinds);
    // CEEI: its gains above 1 give the local search elites to restart from.
    same_through_the_wire("ceei", c);
}

#[test]
fn trees_through_the_wire() {
    same_through_the_wire(
        "hdrf:naive",
        cfg(MetricName::SgDeficit, 12, with_pools(), 600),
    );
    same_through_the_wire(
        "hdrf:naive",
        cfg(MetricName::Starvation, 13, with_pools(), 150),
    );
}

#[test]
fn an_evaluator_returning_too_few_results_is_an_error() {
    struct Short;
    impl RoundEvaluator for Short {
        fn evaluate_round(&mut self, items: &[WorkItem]) -> std::io::Result<Vec<Found>> {
            Ok(vec![Found::new(1, Vec::new(), None); items.len() - 1])
        }
    }
    let m = by_name("drf").unwrap();
    let c = cfg(MetricName::RmLoss, 1, small(), 100);
    let err = explore_with(m.as_ref(), &c, &mut Short, &mut |_| Ok(()), &|_| {}).unwrap_err();
    assert!(
        err.to_string()
            .contains("returned 7 results for 8 work items"),
        "{err}"
    );
}

#[test]
fn a_result_that_does_not_read_back_equal_is_refused() {
    use leontief_counterexamples::candidate::Candidate;
    use leontief_solver::properties::Scenario;
    use leontief_solver::{Drf, Instance, User};
    // The DRF paper's resource-monotonicity example, capacities (1, 1) grown to (2, 1).
    let inst = Instance::new(
        vec![1.into(), 1.into()],
        vec![User::new("A", [2, 1]), User::new("B", [1, 2])],
    )
    .unwrap();
    let c = Candidate::new(inst, Scenario::Capacity(vec![2.into(), 1.into()]));
    let truth = Drf::extended().allocate(&c.instance).unwrap();
    let mut e = MetricName::RmLoss
        .metric()
        .at(&At::new(&Drf::extended(), &c, &truth, Utility::Tasks))
        .unwrap()
        .unwrap();
    let found = Found::new(3, vec!["a failure".into()], Some(e.clone()));
    let v = found_to_json_checked(&found).unwrap();
    assert_eq!(found_from_json(&v).unwrap(), found);
    // A joiner with three demand entries on two resources has no instance form: refused
    // by the encoder, not sent as something else.
    e.candidate.scenario = Scenario::Join(User::new("C", [1, 1, 1]));
    let err = found_to_json_checked(&Found::new(1, Vec::new(), Some(e))).unwrap_err();
    assert!(err.to_string().contains("explore result"), "{err}");
    // A result missing a field names it.
    let err = found_from_json(&serde_json::json!({"errors": [], "best": null})).unwrap_err();
    assert!(err.to_string().contains("found.scenarios"), "{err}");
}
