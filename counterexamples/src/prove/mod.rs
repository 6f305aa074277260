//! Bounded statements decided by an SMT solver: "for every instance with `n` users and `m`
//! resources, mechanism M has property P" (or "its manipulation gain is at most `c`"),
//! answered `proved`, `refuted` (with a counterexample re-derived by the exact mechanisms) or
//! `unknown` (docs/theory.md §6).
//!
//! A mechanism's answer is not simulated: it is encoded by a characterization proved in
//! docs/theory.md §6 — one file per encoding: [`drf`] (extended and weighted DRF, with caps:
//! every user has a bottleneck), [`asset`] (the same filling on aggregate shares),
//! [`common_level`] (DRF freezing everyone at the first saturation), [`ceei`] (the
//! Eisenberg–Gale KKT conditions). The statement is negated — "some instance and some lie
//! make a member better off" — and handed to the solver as real arithmetic (QF_NRA), split
//! into cases by combinatorial type (each user's bottleneck, each profile's price support),
//! one representative per orbit of the statement's symmetries. `unsat` in every case proves
//! the statement on the bounded domain; `sat` gives a model, rounded to simple rationals and
//! re-derived by the exact mechanisms and the property checker ([`witness`]) before it is
//! printed; a case the solver could not decide in its time leaves the verdict `unknown`.
//!
//! - [`smt`]: the SMT-LIB writer, the solver process and its models.
//! - [`statement`]: the statement, its domain and the case split.

pub mod asset;
pub mod ceei;
pub mod common_level;
pub mod drf;
pub mod goals;
pub mod smt;
pub mod statement;
pub mod witness;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use leontief_solver::SolverError;
use rayon::prelude::*;
use serde_json::{json, Map, Value};

pub use smt::{Answer, Script, Solver};
pub use statement::{Case, Goal, ProvedMechanism, Statement};

/// What can go wrong deciding a statement.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProveError {
    /// No solver could be run (the message says how to install one).
    #[error("no SMT solver: {0}; {hint}", hint = smt::INSTALL_HINT)]
    NoSolver(String),
    /// The solver failed or answered something unreadable.
    #[error("solver: {0}")]
    Solver(String),
    /// A statement outside what the encodings cover, or a bad value (the field is named).
    #[error(transparent)]
    Input(#[from] SolverError),
    /// The solver's model did not re-derive as a counterexample with the exact mechanisms:
    /// an encoding or the solver is wrong, so there is no verdict.
    #[error("case {case}: the solver's model does not re-derive as a counterexample: {reason}")]
    Witness {
        /// The case whose model failed.
        case: usize,
        /// Why.
        reason: String,
    },
    /// Writing the SMT-LIB files failed.
    #[error("{path}: {message}")]
    Write {
        /// The file.
        path: String,
        /// The operating system's message.
        message: String,
    },
}

/// How one case ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The solver answered `unsat`: no counterexample of this type.
    Unsat,
    /// The solver answered `sat`, and its model re-derived as this counterexample record.
    Sat(Box<Value>),
    /// The solver gave no answer in time, or `unknown`.
    Unknown(String),
}

impl Status {
    /// `unsat`, `sat` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Status::Unsat => "unsat",
            Status::Sat(_) => "sat",
            Status::Unknown(_) => "unknown",
        }
    }
}

/// One case's outcome.
#[derive(Debug, Clone)]
pub struct CaseOutcome {
    /// The case's number (its place in the split).
    pub index: usize,
    /// What the case is (its combinatorial type).
    pub label: String,
    /// How it ended.
    pub status: Status,
    /// Wall-clock seconds the solver took (a measurement, not part of the answer's logic).
    pub seconds: f64,
}

/// The verdict on the whole statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every case `unsat`.
    Proved,
    /// Some case `sat`: the counterexample of the first such case (by case number).
    Refuted(Box<Value>),
    /// No case `sat`, some undecided: their numbers.
    Unknown(Vec<usize>),
}

impl Verdict {
    /// `proved`, `refuted` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Proved => "proved",
            Verdict::Refuted(_) => "refuted",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// The answer: the verdict and every case, in case order.
#[derive(Debug, Clone)]
pub struct Proof {
    /// The verdict.
    pub verdict: Verdict,
    /// Every case, in case order (whatever order they finished in).
    pub cases: Vec<CaseOutcome>,
    /// The solver that decided them.
    pub solver: Solver,
}

/// How the cases are run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The time limit of one case.
    pub time: Duration,
    /// Write every case's SMT-LIB 2 text to this directory (`case-000.smt2`, ...).
    pub emit_smt: Option<PathBuf>,
}

/// Decides `statement` with `solver`, its cases in parallel on the current rayon pool.
///
/// # Errors
/// A solver failure, a model that does not re-derive ([`ProveError::Witness`]), or an
/// unwritable `emit_smt` directory.
pub fn prove(
    statement: &Statement,
    solver: &Solver,
    options: &Options,
) -> Result<Proof, ProveError> {
    let cases = statement.cases()?;
    if let Some(dir) = &options.emit_smt {
        emit(dir, &cases)?;
    }
    // The first refuting case settles the verdict: a case after it is not started, and the
    // answer lists the cases up to it, so that it is the same whichever case finished first.
    let first_sat = std::sync::atomic::AtomicUsize::new(usize::MAX);
    let decided: Vec<Option<CaseOutcome>> = cases
        .par_iter()
        .map(|case| {
            if case.index > first_sat.load(std::sync::atomic::Ordering::SeqCst) {
                return Ok(None);
            }
            let moot = || case.index > first_sat.load(std::sync::atomic::Ordering::SeqCst);
            let outcome = decide(statement, solver, case, options.time, &moot)?;
            if matches!(outcome.status, Status::Sat(_)) {
                first_sat.fetch_min(case.index, std::sync::atomic::Ordering::SeqCst);
            }
            Ok(Some(outcome))
        })
        .collect::<Result<_, ProveError>>()?;
    let last = first_sat.into_inner();
    let outcomes: Vec<CaseOutcome> = decided
        .into_iter()
        .flatten()
        .filter(|o| o.index <= last)
        .collect();
    let verdict = if let Some(found) = outcomes.iter().find_map(|o| match &o.status {
        Status::Sat(record) => Some(record.clone()),
        _ => None,
    }) {
        Verdict::Refuted(found)
    } else {
        let open: Vec<usize> = outcomes
            .iter()
            .filter(|o| matches!(o.status, Status::Unknown(_)))
            .map(|o| o.index)
            .collect();
        if open.is_empty() {
            Verdict::Proved
        } else {
            Verdict::Unknown(open)
        }
    };
    Ok(Proof {
        verdict,
        cases: outcomes,
        solver: solver.clone(),
    })
}

fn decide(
    statement: &Statement,
    solver: &Solver,
    case: &Case,
    time: Duration,
    moot: &dyn Fn() -> bool,
) -> Result<CaseOutcome, ProveError> {
    let start = Instant::now();
    let answer = solver.check_until(&case.script, time, moot)?;
    let seconds = start.elapsed().as_secs_f64();
    let status = match answer {
        Answer::Unsat => Status::Unsat,
        Answer::Unknown(reason) => Status::Unknown(reason),
        Answer::Sat(model) => {
            let sized = statement.with_coalition(case.coalition);
            let record =
                witness::counterexample(&sized, &model).map_err(|reason| ProveError::Witness {
                    case: case.index,
                    reason,
                })?;
            Status::Sat(Box::new(record))
        }
    };
    Ok(CaseOutcome {
        index: case.index,
        label: case.label.clone(),
        status,
        seconds,
    })
}

fn emit(dir: &std::path::Path, cases: &[Case]) -> Result<(), ProveError> {
    let fail = |path: &std::path::Path, e: std::io::Error| ProveError::Write {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    for case in cases {
        let path = dir.join(format!("case-{:03}.smt2", case.index));
        std::fs::write(&path, case.script.query()).map_err(|e| fail(&path, e))?;
    }
    Ok(())
}

impl Proof {
    /// The JSON answer: the statement and its domain, the verdict, every case (status,
    /// seconds, solver), the open cases or the counterexample.
    pub fn to_json(&self, statement: &Statement) -> Value {
        let mut o = Map::new();
        for (k, v) in statement.to_json() {
            o.insert(k, v);
        }
        o.insert("verdict".into(), json!(self.verdict.name()));
        let rests_on = match &self.verdict {
            Verdict::Proved => format!(
                "{}; the normal form (docs/theory.md §6.1), {} and the case split's coverage \
                 (§6.6); {} {} answering unsat in every case",
                statement.mechanism.characterization(),
                statement.goal.conditions(),
                self.solver.name,
                self.solver.version
            ),
            Verdict::Refuted(_) => format!(
                "the counterexample, re-derived by the exact mechanism and {} (nothing from \
                 the solver)",
                statement.goal.checker()
            ),
            Verdict::Unknown(_) => "nothing: some cases are open".to_string(),
        };
        o.insert("rests_on".into(), json!(rests_on));
        let solver = format!("{} {}", self.solver.name, self.solver.version);
        o.insert(
            "cases".into(),
            self.cases
                .iter()
                .map(|c| {
                    let mut case = json!({
                        "case": c.index,
                        "type": c.label,
                        "status": c.status.name(),
                        "seconds": (c.seconds * 1000.0).round() / 1000.0,
                        "solver": solver,
                    });
                    if let Status::Unknown(reason) = &c.status {
                        case["reason"] = json!(reason);
                    }
                    case
                })
                .collect(),
        );
        match &self.verdict {
            Verdict::Proved => {}
            Verdict::Refuted(record) => {
                o.insert("counterexample".into(), (**record).clone());
            }
            Verdict::Unknown(open) => {
                o.insert("open".into(), json!(open));
            }
        }
        Value::Object(o)
    }

    /// A short text answer: the statement, the verdict, one line per case.
    pub fn to_text(&self, statement: &Statement) -> String {
        let mut out = format!(
            "{}\nverdict: {}\n",
            statement.describe(),
            self.verdict.name()
        );
        for c in &self.cases {
            out += &format!(
                "  case {:>3} {:<8} {:>9.3} s  {} {}  {}\n",
                c.index,
                c.status.name(),
                c.seconds,
                self.solver.name,
                self.solver.version,
                c.label
            );
        }
        match &self.verdict {
            Verdict::Proved => {}
            Verdict::Refuted(record) => out += &format!("counterexample: {record}\n"),
            Verdict::Unknown(open) => {
                out += &format!(
                    "open cases: {}\n",
                    open.iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
        out
    }
}
