//! End-to-end tests of `leontief search` and `leontief merge`: JSONL out, flags checked
//! before anything runs, and N shard processes whose merged output equals one process's.

use crate::common;

use std::process::{Command, Output, Stdio};

use serde_json::Value;

use common::{jsonl as lines, run};

fn leontief(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_leontief"));
    c.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

fn tmp(name: &str) -> std::path::PathBuf {
    common::scratch_path("search-cli", name)
}

/// `search` with the flags of `line` and `--out` the scratch file `name`: the run, which must
/// succeed, the file's path and the records written there.
fn searched(name: &str, line: &str) -> (Output, std::path::PathBuf, Vec<Value>) {
    let out = tmp(name);
    let o = run(&common::cli(line, &["--out", out.to_str().unwrap()]));
    assert!(
        o.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let recs = lines(&std::fs::read(&out).unwrap());
    (o, out, recs)
}

#[test]
fn search_writes_jsonl_records_and_a_summary() {
    let (o, out, recs) = searched(
        "gsp.jsonl",
        "search --property gsp-strong --budget 400000 --max-found 1",
    );
    assert!(o.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("1 counterexample(s)"), "{stderr}");
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    for k in [
        "mechanism",
        "property",
        "instance",
        "lies",
        "remove",
        "capacity",
        "before",
        "after",
        "coalition",
        "seed",
        "original",
    ] {
        assert!(r.get(k).is_some(), "missing {k}");
    }
    assert_eq!(r["property"], "gsp-strong");
    // Exact strings, and the record replays.
    assert!(r["before"]
        .as_object()
        .unwrap()
        .values()
        .all(Value::is_string));
    let o = run(&["merge", "--verify", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn bad_flags_are_named_and_nothing_runs() {
    let out = tmp("never.jsonl");
    for (args, needle) in [
        (vec!["--property", "sp", "--shard", "3/2"], "--shard"),
        (vec!["--property", "sp", "--values", "0,-1"], "--values[1]"),
        (vec!["--property", "sp", "--time", "soon"], "--time"),
        (vec!["--property", "nope"], "--property"),
        (
            vec!["--property", "sp", "--mechanism", "nope"],
            "--mechanism",
        ),
        (vec!["--property", "sp", "--users", "3..2"], "--users"),
        (vec!["--property", "sp", "--zeros", "2"], "--zeros"),
        (
            vec!["--property", "sp", "--strategy", "clever"],
            "--strategy",
        ),
    ] {
        let mut full = vec!["search", "--out", out.to_str().unwrap()];
        full.extend(args);
        let o = run(&full);
        assert_eq!(o.status.code(), Some(2), "{full:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{full:?}: {err}");
        assert!(!out.exists(), "{full:?} created the output file");
    }
}

#[test]
fn merge_drops_duplicates_and_rejects_non_records() {
    let (_, a, recs) = searched("a.jsonl", "search --property rm --budget 3000 --no-shrink");
    let n = recs.len();
    assert!(n >= 2, "DRF violates RM often");
    // The same file twice: every record once.
    let o = run(&["merge", a.to_str().unwrap(), a.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(lines(&o.stdout).len(), n);
    let bad = tmp("bad.jsonl");
    std::fs::write(&bad, "{\"mechanism\": \"drf\"}\n").unwrap();
    let o = run(&["merge", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.jsonl:1"));
    assert!(o.stdout.is_empty());
}

/// The scale-out recipe (docs/scale-out.md), locally: N processes, one shard each, run at the same
/// time; their merged output is the single process's output.
#[test]
fn three_shard_processes_merge_to_the_unsharded_run() {
    let common = [
        "search",
        "--mechanism",
        "drf",
        "--property",
        "pm",
        "--strategy",
        "exhaustive",
        "--users",
        "2..3",
        "--resources",
        "1..2",
        "--seed",
        "5",
    ];
    let whole = tmp("whole.jsonl");
    let mut args = common.to_vec();
    args.extend(["--out", whole.to_str().unwrap()]);
    assert!(run(&args).status.success());
    let parts: Vec<_> = (0..3).map(|i| tmp(&format!("part{i}.jsonl"))).collect();
    let shards: Vec<String> = (0..3).map(|i| format!("{i}/3")).collect();
    let children: Vec<_> = (0..3)
        .map(|i| {
            let mut args = common.to_vec();
            args.extend(["--shard", &shards[i], "--out", parts[i].to_str().unwrap()]);
            leontief(&args).spawn().unwrap()
        })
        .collect();
    for c in children {
        assert!(c.wait_with_output().unwrap().status.success());
    }
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(|p| p.to_str().unwrap()));
    let merged = run(&merge);
    let single = run(&["merge", whole.to_str().unwrap()]);
    assert!(merged.status.success() && single.status.success());
    let keys = |o: &Output| {
        let mut k: Vec<String> = lines(&o.stdout)
            .iter()
            .map(|r| r["key"].as_str().unwrap().to_string())
            .collect();
        k.sort();
        k
    };
    assert!(!keys(&single).is_empty());
    assert_eq!(keys(&merged), keys(&single));
}

/// The guide's search commands (docs/guide.md), as written there.
#[test]
fn the_readme_search_commands_run() {
    let (_, _, recs) = searched(
        "ceei-sp.jsonl",
        "search --mechanism ceei --property sp --max-found 1 --time 10s",
    );
    let r = &recs[0];
    assert_eq!(
        (r["mechanism"].as_str(), r["property"].as_str()),
        (Some("ceei"), Some("sp"))
    );
    let o = run(&common::words(
        "search --mechanism drf --property pm --strategy exhaustive --users 2..4 --resources 1..3",
    ));
    assert!(o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    // 12 + 486 + 27,378 grid instances (hand-counted multisets of nonzero vectors).
    assert!(
        stderr.contains("27876 units") && stderr.contains("stopped by exhausted"),
        "{stderr}"
    );
    // Extended DRF with zero demands is not population monotonic (see the corpus).
    assert!(!lines(&o.stdout).is_empty());
}

/// `--unit-log`: a line per examined unit, in unit order, then the stop; its new
/// counterexamples (by key, first seen) are the plain run's records, and its units and
/// scenarios add up to the summary's.
#[test]
fn unit_log_lists_every_unit_and_the_plain_run_s_records() {
    let common = [
        "search",
        "--property",
        "rm",
        "--budget",
        "3000",
        "--seed",
        "3",
        "--users",
        "2..4",
        "--resources",
        "2..3",
    ];
    let plain = run(&common);
    assert!(plain.status.success());
    let records = lines(&plain.stdout);
    let logged = run(&[&common[..], &["--unit-log"]].concat());
    assert!(logged.status.success());
    let log = lines(&logged.stdout);
    let (stop, units) = log.split_last().unwrap();
    assert_eq!(stop["log"], "stop");
    assert_eq!(stop["stop"], "budget");
    assert_eq!(stop["shard"], serde_json::json!([0, 1]));
    let mut seen = std::collections::HashSet::new();
    let mut new = Vec::new();
    for (k, u) in units.iter().enumerate() {
        assert_eq!(
            (u["log"].as_str(), u["unit"].as_u64()),
            (Some("unit"), Some(k as u64))
        );
        if let Some(key) = u["key"].as_str()
            && seen.insert(key.to_string())
        {
            new.push(u["record"].clone());
        }
    }
    assert!(!new.is_empty());
    assert_eq!(new, records);
    let scenarios: u64 = units.iter().map(|u| u["scenarios"].as_u64().unwrap()).sum();
    let stderr = String::from_utf8_lossy(&plain.stderr);
    let summary = format!("{} units, {scenarios} scenarios", units.len());
    assert!(stderr.contains(&summary), "{summary} in {stderr}");
    // Its summary on standard error is the plain run's.
    assert!(String::from_utf8_lossy(&logged.stderr).contains(&summary));
}
