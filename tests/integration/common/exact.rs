//! The strict harness of the command-line tests: success means exit code 0 and nothing on
//! standard error; bad input means exit code 2, nothing on standard output and exactly one
//! `error: ...` line. Also the DRF paper's running example, as a file and as inline flags.

use std::ffi::OsStr;
use std::fs;
use std::path::PathBuf;
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};

use super::run_with;

pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    run_with(args, None)
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// Exit code 0, nothing on stderr; returns stdout.
pub fn ok(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "expected success; stderr: {}",
        stderr(out)
    );
    assert!(out.stderr.is_empty(), "unexpected stderr: {}", stderr(out));
    stdout(out)
}

/// Exit code 0 and stdout parsed as JSON.
pub fn ok_json(out: &Output) -> Value {
    let text = ok(out);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {text}"))
}

/// Exit code 2, stdout empty; returns stderr.
pub fn bad_input(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(
        out.status.code(),
        Some(2),
        "expected exit code 2; stderr: {err}; stdout: {}",
        stdout(out)
    );
    assert!(
        out.stdout.is_empty(),
        "stdout must be empty on bad input, found: {}",
        stdout(out)
    );
    err
}

/// Exit code 2, stdout empty and stderr exactly `error: {message}\n`.
pub fn assert_bad(out: &Output, message: &str) {
    assert_eq!(bad_input(out), format!("error: {message}\n"));
}

/// A fresh directory under the system's temporary directory, removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "leontief-cli-test-{}-{tag}-{n}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create scratch directory");
        Scratch(dir)
    }

    /// Writes `text` to `name` in the directory; returns the path as a string.
    pub fn write(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        fs::write(&path, text).expect("write instance file");
        path.to_str().expect("UTF-8 temp path").to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs `solve` on `instance` both from a file and from standard input, with `extra` flags,
/// and asserts the same bad-input message for both.
pub fn assert_bad_instance(instance: &str, extra: &[&str], message: &str) {
    let dir = Scratch::new("bad");
    let path = dir.write("instance.json", instance);
    let mut args = vec!["solve", path.as_str()];
    args.extend_from_slice(extra);
    assert_bad(&run(&args), message);
    let mut args = vec!["solve", "-"];
    args.extend_from_slice(extra);
    assert_bad(&run_with(&args, Some(instance)), message);
}

/// `assert_bad_instance` for an instance given as a JSON value.
pub fn assert_bad_value(instance: Value, message: &str) {
    assert_bad_instance(&instance.to_string(), &[], message);
}

/// An instance with capacity (9, 18) and the given users.
pub fn with_users(users: Value) -> Value {
    json!({"capacity": [9, 18], "users": users})
}

/// The DRF paper's running example (§4.1): 9 CPUs, 18 GB; A needs <1 CPU, 4 GB>, B <3, 1>.
pub const PAPER: &str = r#"{
  "resources": ["cpu", "mem"],
  "capacity": [9, 18],
  "users": [
    {"name": "A", "demand": [1, 4]},
    {"name": "B", "demand": [3, 1]}
  ]
}"#;

/// The same example as inline flags.
pub const PAPER_FLAGS: &[&str] = &[
    "--capacity",
    "9,18",
    "--user",
    "A=1,4",
    "--user",
    "B=3,1",
    "--resources",
    "cpu,mem",
];

/// `solve` on the paper example as inline flags, then `extra`.
pub fn solve_flags(extra: &[&str]) -> Vec<String> {
    ["solve"]
        .iter()
        .chain(PAPER_FLAGS)
        .chain(extra)
        .map(|s| s.to_string())
        .collect()
}

pub fn users_of(answer: &Value) -> &Vec<Value> {
    answer["users"].as_array().expect("users is a list")
}

pub fn tasks_of(answer: &Value) -> Vec<String> {
    users_of(answer)
        .iter()
        .map(|u| u["tasks"].as_str().expect("tasks is a string").to_string())
        .collect()
}

/// The facts of the DRF paper's §4.1 answer: A runs 3 tasks (<3 CPU, 12 GB>), B runs 2
/// (<6 CPU, 2 GB>), both at dominant share 2/3, and the CPU is saturated.
pub fn assert_paper_answer(answer: &Value, mechanism: &str) {
    assert_eq!(answer["mechanism"], json!(mechanism));
    assert_eq!(answer["exact"], json!(true));
    assert_eq!(answer["resources"], json!(["cpu", "mem"]));
    assert_eq!(answer["capacity"], json!(["9", "18"]));
    let users = users_of(answer);
    assert_eq!(users.len(), 2);
    assert_eq!(users[0]["name"], json!("A"));
    assert_eq!(users[0]["tasks"], json!("3"));
    assert_eq!(users[0]["allocation"], json!(["3", "12"]));
    assert_eq!(users[0]["dominant_share"], json!("2/3"));
    assert_eq!(users[0]["weighted_share"], json!("2/3"));
    assert_eq!(users[1]["name"], json!("B"));
    assert_eq!(users[1]["tasks"], json!("2"));
    assert_eq!(users[1]["allocation"], json!(["6", "2"]));
    assert_eq!(users[1]["dominant_share"], json!("2/3"));
    assert_eq!(answer["consumption"], json!(["9", "14"]));
    assert_eq!(answer["saturated"], json!(["cpu"]));
}
