//! The harness the end-to-end tests share: run the `leontief` binary as a child process.

// Each test file uses the part of the harness it needs.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub mod exact;

/// Runs the binary with `args`, feeding `stdin` (or nothing: standard input is closed).
pub fn run_with<S: AsRef<OsStr>>(args: &[S], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_leontief"));
    cmd.args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("the leontief binary starts");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        // The tool may exit (a usage error) before reading: a broken pipe is not a failure.
        let _ = pipe.write_all(text.as_bytes());
    }
    child
        .wait_with_output()
        .expect("the leontief binary finishes")
}

/// Runs the binary with `args` under a data-segment limit of `bytes` (heap and private
/// mappings, through util-linux's `prlimit`): a run that needs more dies instead of
/// succeeding, so a test can assert that the work stayed bounded.
pub fn run_within_memory(args: &[&str], bytes: u64) -> Output {
    Command::new("prlimit")
        .arg(format!("--data={bytes}"))
        .arg(env!("CARGO_BIN_EXE_leontief"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("prlimit (util-linux) runs the binary")
}

/// Runs the binary with `args`, standard input closed.
pub fn run(args: &[&str]) -> Output {
    run_with(args, None)
}

/// Runs `args` and asserts exit code 2, nothing on standard output and `message` on standard
/// error (the failure names the arguments).
pub fn fails_with(args: &[&str], message: &str) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    assert!(o.stdout.is_empty(), "{args:?}: partial output");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains(message), "{args:?}: {stderr}");
}

/// Runs `args`, expects it refused (exit code 2, nothing on standard output) with `prefix` on
/// standard error followed by a list of names ("a, b or c", up to `end`); returns the names in
/// order. Tests read a registry's names from its own message rather than copying them, so that a
/// new name breaks no test, then check each name (documented, accepted).
pub fn listed_names(args: &[&str], prefix: &str, end: char) -> Vec<String> {
    listed_names_in(&run(args), prefix, end)
}

/// [`listed_names`] of a run already made (e.g. with an input on standard input).
pub fn listed_names_in(o: &Output, prefix: &str, end: char) -> Vec<String> {
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(o.stdout.is_empty(), "partial output: {o:?}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    let at = stderr
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix:?} in {stderr}"));
    let rest = &stderr[at + prefix.len()..];
    let list = &rest[..rest
        .find(end)
        .unwrap_or_else(|| panic!("no {end:?} in {rest}"))];
    let names: Vec<String> = list
        .replace(" or ", ", ")
        .split(", ")
        .map(str::to_string)
        .collect();
    assert!(
        names.iter().all(|n| !n.is_empty() && !n.contains(' ')),
        "{list}"
    );
    let mut distinct = names.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), names.len(), "a name listed twice: {list}");
    names
}

/// Runs `explore` with `args` writing its records to `out`, checks that the last record is
/// the best and that `merge --best --verify` re-derives every record; returns the records.
pub fn explored_and_verified(out: &std::path::Path, args: &[&str]) -> Vec<Value> {
    let out = out.to_str().unwrap();
    let mut all = args.to_vec();
    all.extend(["--out", out]);
    let o = run(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = jsonl(&std::fs::read(out).unwrap());
    assert_eq!(recs.last().unwrap()["best"], true);
    let merged = run(&["merge", "--best", "--verify", out]);
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    recs
}

/// Exit code 0; standard output parsed as JSON.
pub fn ok_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "expected success; stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// Exit code 2, nothing on standard output, `message` on standard error.
pub fn assert_bad(out: &Output, message: &str) {
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "partial output: {out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(message), "{err}");
}

/// The JSON values of a JSONL output, one per non-empty line.
pub fn jsonl(text: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(text)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

/// A path for `name` in a scratch directory of this test process, `tag` naming the test file.
pub fn scratch_path(tag: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("leontief-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A command line written as one string: the words of `line` (split at whitespace), then
/// `rest` (arguments that are not literals, such as paths, or that hold spaces).
pub fn cli<'a>(line: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend_from_slice(rest);
    args
}

/// The words of `line`, split at whitespace: a command line of literals written as one string.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The node of the answer `v` whose `field` is `value`.
pub fn node_where<'a>(v: &'a Value, field: &str, value: &str) -> &'a Value {
    element_where(v, "nodes", field, value)
}

/// The element of the array `v[key]` whose `field` is `value`.
pub fn element_where<'a>(v: &'a Value, key: &str, field: &str, value: &str) -> &'a Value {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is not an array"))
        .iter()
        .find(|e| e[field] == value)
        .unwrap_or_else(|| panic!("no element of {key} with {field} {value}"))
}

/// Asserts that the standard error of `out` contains each of `parts`.
pub fn assert_stderr_contains(out: &Output, parts: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    for part in parts {
        assert!(err.contains(part), "{part}: {err}");
    }
}

/// The string `field` of each element of the array `v[key]`, in order.
pub fn strings_at<'a>(v: &'a Value, key: &str, field: &str) -> Vec<&'a str> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is not an array"))
        .iter()
        .map(|e| {
            e[field]
                .as_str()
                .unwrap_or_else(|| panic!("{key}[].{field}"))
        })
        .collect()
}

/// The paragraph of `help` that documents `flag` (`"--tie <"`): from the flag to the next
/// blank line.
pub fn help_paragraph<'a>(help: &'a str, flag: &str) -> &'a str {
    let from = &help[help
        .find(flag)
        .unwrap_or_else(|| panic!("{flag} in --help"))..];
    &from[..from.find("\n\n").expect("a blank line after the paragraph")]
}

/// Asserts that the listed `names` include each of `required`.
pub fn assert_lists(names: &[String], required: &[&str]) {
    for name in required {
        assert!(names.iter().any(|n| n == name), "{name}: {names:?}");
    }
}

/// Asserts that the help text `paragraph` names each of `names`.
pub fn assert_documented(names: &[String], paragraph: &str) {
    for name in names {
        assert!(paragraph.contains(name.as_str()), "{name}: {paragraph}");
    }
}
