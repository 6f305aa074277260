//! The encodings of `prove` against the exact mechanisms, and its verdicts on statements whose
//! answers are known. These tests need z3 (`pip install z3-solver`; scripts/test.sh puts the
//! project venv's `z3` on PATH); without it they are skipped, except under `CI=true`, where a
//! missing solver fails them.
//!
//! By subject: `encodings` (each encoding accepts exactly the mechanism's answer),
//! `negations` (each goal's negated query holds exactly where the checker finds a
//! violation), `verdicts` (known theorems proved, known counterexamples found and replayed)
//! and `cross_check` (cvc5 as a second solver).

mod cross_check;
mod encodings;
mod exact_bound;
mod negations;
mod verdicts;

use crate::common::q;
use leontief_counterexamples::explore::record::rederive;
use leontief_counterexamples::prove::smt::Solver;
use leontief_counterexamples::prove::{prove, Goal, Options, ProvedMechanism, Statement, Verdict};
use leontief_counterexamples::record::replay;
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Instance, Mechanism, Rational, User};
use serde_json::Value;
use std::time::Duration;

/// `found`'s solver, or `None` (test skipped) when there is none outside CI, where a missing
/// solver fails the test.
fn required(name: &str, found: Result<Solver, impl std::fmt::Display>) -> Option<Solver> {
    match found {
        Ok(s) => Some(s),
        Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("{name} is required under CI=true: {e}")
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

/// z3, or `None` (test skipped) when there is none outside CI.
fn solver() -> Option<Solver> {
    required("z3", Solver::find(None))
}

/// cvc5 (through the Python interpreter on PATH or $LEONTIEF_CVC5), or `None` (test skipped)
/// when there is none outside CI.
fn cvc5() -> Option<Solver> {
    required("cvc5", Solver::find_cvc5(None))
}

/// `count` random instances ([`random_instance`]) drawn from `seed`: weights on every
/// other one and, when `caps`, caps on every third.
fn random_instances(seed: u64, count: usize, caps: bool) -> Vec<Instance> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|k| random_instance(&mut rng, k % 2 == 1, caps && k % 3 == 2, false))
        .collect()
}

/// A random instance in normal form: capacities 1, demands with entries in {0, 1/4, .., 1}
/// (some zero), each row scaled so that its largest entry is 1; weights in 1..3 and caps
/// (for about one user in three) when asked.
fn random_instance(rng: &mut SplitMix64, weights: bool, caps: bool, positive: bool) -> Instance {
    let n = rng.range(2, 4) as usize;
    let m = rng.range(1, 3) as usize;
    let users = (0..n)
        .map(|i| {
            let mut raw: Vec<u64> = (0..m)
                .map(|_| rng.range(if positive { 1 } else { 0 }, 4))
                .collect();
            if raw.iter().all(|&v| v == 0) {
                raw[rng.range(0, m as u64 - 1) as usize] = 1;
            }
            let top = *raw.iter().max().unwrap();
            let demand: Vec<Rational> = raw
                .iter()
                .map(|&v| Rational::new(v as i128, top as i128).unwrap())
                .collect();
            let mut user = User::new(format!("u{}", i + 1), demand);
            if weights {
                user = user.weight(Rational::integer(rng.range(1, 3) as i128));
            }
            if caps && rng.chance(1, 3) {
                user = user.cap(Rational::new(rng.range(1, 4) as i128, 8).unwrap());
            }
            user
        })
        .collect();
    Instance::new(vec![Rational::ONE; m], users).unwrap()
}

/// What a statement ranges over besides its size: the flags of [`Statement::new`] (all off
/// and no coalition by default).
#[derive(Clone, Copy, Default)]
struct Domain {
    positive: bool,
    weights: bool,
    caps: bool,
    coalition: Option<usize>,
}

/// The statement of `goal` about `mechanism` at `n` users and `m` resources over `domain`.
fn statement_over(
    mechanism: ProvedMechanism,
    goal: Goal,
    (n, m): (usize, usize),
    domain: Domain,
) -> Statement {
    let Domain {
        positive,
        weights,
        caps,
        coalition,
    } = domain;
    Statement::new(mechanism, goal, n, m, positive, weights, caps, coalition).unwrap()
}

/// The statement of `goal` about `mechanism` at `n` users and `m` resources, demands free
/// (zeros allowed), no weights, caps or coalition.
fn statement(mechanism: ProvedMechanism, goal: Goal, n: usize, m: usize) -> Statement {
    statement_over(mechanism, goal, (n, m), Domain::default())
}

/// z3's verdict on `statement` (the caller has checked that z3 is there).
fn decide(statement: &Statement) -> Verdict {
    let solver = solver().expect("checked by the caller");
    let options = Options {
        time: Duration::from_secs(300),
        emit_smt: None,
    };
    prove(statement, &solver, &options).unwrap().verdict
}

/// The counterexample z3 finds to `statement`; any other verdict fails the test.
fn refuted(statement: &Statement) -> Value {
    match decide(statement) {
        Verdict::Refuted(record) => *record,
        other => panic!(
            "{}: expected a counterexample, got {other:?}",
            statement.describe()
        ),
    }
}

/// The counterexample to `statement`, which must be a violation of `property` (the record's
/// name for it) and replay as one with the exact `mechanism`.
fn refuted_replaying(statement: &Statement, property: &str, mechanism: &dyn Mechanism) -> Value {
    let record = refuted(statement);
    assert_eq!(record["property"], property, "{}", statement.describe());
    replay(mechanism, &record).unwrap();
    record
}

/// The value of the counterexample to `statement`, which must be of `metric` and re-derive
/// to the same value with explore's metric on the exact `mechanism`.
fn refuted_value(statement: &Statement, metric: &str, mechanism: &dyn Mechanism) -> Rational {
    let record = refuted(statement);
    assert_eq!(record["metric"], metric, "{}", statement.describe());
    let value = record["value"].as_str().unwrap();
    let again = rederive(mechanism, &record).unwrap();
    assert_eq!(again.value.to_string(), value);
    q(value)
}
