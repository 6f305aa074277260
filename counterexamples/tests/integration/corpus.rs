//! Every record of `corpus/*.jsonl` re-verifies exactly: it violates its property and its
//! recorded utilities (from the sources for hand-entered records) are recomputed exactly.

use crate::common;

use common::corpus_records;

use std::collections::HashSet;

use crate::common::replay_named;
use leontief_solver::properties::{Property, Scenario};

#[test]
fn every_corpus_record_replays() {
    let records = corpus_records();
    assert!(records.len() >= 15, "corpus too small: {}", records.len());
    let mut keys = HashSet::new();
    for (file, line, value) in &records {
        let r = replay_named(value).unwrap_or_else(|e| panic!("{file}:{line}: {e}"));
        // The file is named after the mechanism and property it holds.
        assert_eq!(
            file.trim_end_matches(".jsonl"),
            format!("{}-{}", r.mechanism.replace(':', "-"), r.property.name()),
            "{file}:{line}"
        );
        assert!(
            keys.insert(r.key()),
            "{file}:{line}: duplicate of an earlier record"
        );
    }
}

/// The list: the four-operation collusion, a single-liar gsp-strong case, CEEI SP
/// and PM, asset SI and BF, DRF RM.
#[test]
fn the_corpus_holds_the_known_counterexamples() {
    let records: Vec<_> = corpus_records()
        .iter()
        .map(|(f, l, v)| replay_named(v).unwrap_or_else(|e| panic!("{f}:{l}: {e}")))
        .collect();
    let has = |mech: &str, p: Property| {
        records
            .iter()
            .any(|r| r.mechanism == mech && r.property == p)
    };
    for (mech, p) in [
        ("ceei", Property::Sp),
        ("ceei", Property::Pm),
        ("asset", Property::Si),
        ("asset", Property::Bf),
        ("drf", Property::Rm),
    ] {
        assert!(has(mech, p), "{mech} {p}");
    }
    let lecture = records
        .iter()
        .find(|r| {
            r.source
                .as_deref()
                .is_some_and(|s| s.contains("four-operation"))
        })
        .expect("the lecture's collusion");
    assert_eq!(lecture.property, Property::GspStrong);
    assert_eq!(common::liars(&lecture.candidate).len(), 2);
    let single = records.iter().any(|r| {
        r.mechanism == "drf"
            && r.property == Property::GspStrong
            && matches!(&r.candidate.scenario, Scenario::Lies(l) if l.len() == 1)
    });
    assert!(single, "a single-liar gsp-strong case");
}

#[test]
fn a_tampered_record_is_rejected() {
    let (_, _, value) = corpus_records()
        .into_iter()
        .find(|(f, _, _)| f == "drf-rm.jsonl")
        .unwrap();
    // After: A falls from 1/3 to 1/4 (hand-derived); claiming 1/5 must be caught.
    let mut bad = value.clone();
    bad["after"]["A"] = "1/5".into();
    assert!(replay_named(&bad).is_err());
    // Without the growth it is no violation at all.
    let mut none = value.clone();
    none["capacity"] = serde_json::json!(["1", "1"]);
    assert!(replay_named(&none).is_err());
}
