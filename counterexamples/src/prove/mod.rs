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
//! `proved` can be cross-checked ([`cross_check`]): cvc5 re-decides every case, and the
//! verdict rests on both solvers when both answer `unsat` everywhere.
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
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::{Duration, Instant};

use leontief_solver::SolverError;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;

use crate::doc;

pub use smt::{Answer, Script, Solver, SolverKind};
pub use statement::{Case, Goal, ProvedMechanism, Statement};

/// What can go wrong deciding a statement.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProveError {
    /// No solver could be run (the message says how to install one).
    #[error("no SMT solver: {0}; {hint}", hint = smt::INSTALL_HINT)]
    NoSolver(String),
    /// No cvc5 to cross-check with (the message says how to install it).
    #[error("no cvc5 for --cross-check: {0}; {hint}", hint = smt::CVC5_INSTALL_HINT)]
    NoCrossChecker(String),
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

/// How one case ended: `unsat` (no counterexample of this type), `sat` with the model
/// re-derived as this counterexample record, or `unknown` (no answer in time, or `unknown`).
pub type Status = Answer<Box<Value>>;

/// One case's outcome. `S` is what a `sat` answer carries: the re-derived counterexample
/// record ([`Status`]) for the solver that decides, the (empty) model for the second solver
/// of a cross-check ([`CheckedCase`]).
#[derive(Debug, Clone)]
pub struct CaseOutcome<S = Box<Value>> {
    /// The case's number (its place in the split).
    pub index: usize,
    /// What the case is (its combinatorial type).
    pub label: String,
    /// How it ended.
    pub status: Answer<S>,
    /// Wall-clock seconds the solver took (a measurement, not part of the answer's logic).
    pub seconds: f64,
}

/// The verdict on the whole statement.
#[derive(Debug, Clone, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
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
        self.into()
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
    /// A second solver's answers on the same cases, when asked for ([`cross_check`]).
    pub cross_check: Option<CrossCheck>,
}

/// A second solver (cvc5) re-deciding every case of a proof: the verdict `proved` then rests
/// on two independent implementations of real arithmetic instead of one.
#[derive(Debug, Clone)]
pub struct CrossCheck {
    /// The second solver.
    pub solver: Solver,
    /// Its answer on every case, in case order; empty when there was nothing to check.
    pub cases: Vec<CheckedCase>,
    /// Why nothing was checked (the verdict was not `proved`), if so.
    pub skipped: Option<String>,
}

/// The second solver's answer on one case: `Unsat`, `Unknown` (with the reason), or `Sat`
/// (no values: the second solver gives no model).
pub type CheckedCase = CaseOutcome<Vec<(String, leontief_solver::Rational)>>;

impl CrossCheck {
    /// The cases it answered `sat`: each contradicts the first solver's `unsat`.
    pub fn disagreed(&self) -> Vec<usize> {
        self.select(|a| matches!(a, Answer::Sat(_)))
    }

    /// The cases it did not decide in time (or answered `unknown`).
    pub fn open(&self) -> Vec<usize> {
        self.select(|a| matches!(a, Answer::Unknown(_)))
    }

    /// Whether it answered `unsat` on every case (and checked something).
    pub fn agreed(&self) -> bool {
        self.skipped.is_none() && self.cases.iter().all(|c| c.status == Answer::Unsat)
    }

    fn select(&self, pick: impl Fn(&Answer) -> bool) -> Vec<usize> {
        self.cases
            .iter()
            .filter(|c| pick(&c.status))
            .map(|c| c.index)
            .collect()
    }

    fn document(&self, disagreement: Option<String>) -> CrossCheckDoc<'_> {
        let skipped = self.skipped.as_deref();
        let answered = skipped.is_none();
        CrossCheckDoc {
            solver: self.solver.to_string(),
            skipped,
            agreed: answered.then(|| self.agreed()),
            open: answered.then(|| self.open()),
            disagreed: answered.then(|| self.disagreed()),
            disagreement,
        }
    }
}

fn list(cases: &[usize]) -> String {
    cases
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
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
    if !solver.reports_models() {
        return Err(ProveError::Solver(format!(
            "{} gives no models, so it cannot refute: it cross-checks a proof (see \
             `cross_check`), z3 decides",
            solver.name
        )));
    }
    let cases = statement.cases()?;
    if let Some(dir) = &options.emit_smt {
        emit(dir, &cases)?;
    }
    // The first refuting case settles the verdict: a case after it is not started, and the
    // answer lists the cases up to it, so that it is the same whichever case finished first.
    let first_sat = AtomicUsize::new(usize::MAX);
    let decided: Vec<Option<CaseOutcome>> = cases
        .par_iter()
        .map(|case| {
            let moot = || case.index > first_sat.load(SeqCst);
            if moot() {
                return Ok(None);
            }
            let outcome = decide(statement, solver, case, options.time, &moot)?;
            if matches!(outcome.status, Status::Sat(_)) {
                first_sat.fetch_min(case.index, SeqCst);
            }
            Ok(Some(outcome))
        })
        .collect::<Result<_, ProveError>>()?;
    let last = first_sat.into_inner();
    let outcomes: Vec<CaseOutcome> = (decided.into_iter().flatten())
        .filter(|o| o.index <= last)
        .collect();
    let open: Vec<usize> = (outcomes.iter())
        .filter(|o| matches!(o.status, Status::Unknown(_)))
        .map(|o| o.index)
        .collect();
    let refuting = outcomes.iter().find_map(|o| match &o.status {
        Status::Sat(record) => Some(record.clone()),
        _ => None,
    });
    let verdict = match refuting {
        Some(found) => Verdict::Refuted(found),
        None if open.is_empty() => Verdict::Proved,
        None => Verdict::Unknown(open),
    };
    Ok(Proof {
        verdict,
        cases: outcomes,
        solver: solver.clone(),
        cross_check: None,
    })
}

/// Re-decides every case of a `proved` verdict with `checker` (cvc5), in parallel on the
/// current rayon pool, each within `time`. A case `checker` answers `sat` contradicts the
/// first solver's `unsat`: one of them is wrong, and the verdict becomes `unknown` with those
/// cases open. A case it does not decide leaves the verdict `proved` (resting on the first
/// solver alone) and is listed as open in the cross-check. A verdict other than `proved` is
/// left as it is and the cross-check marked skipped.
///
/// # Errors
/// The checker fails or answers something unreadable.
pub fn cross_check(
    statement: &Statement,
    mut proof: Proof,
    checker: &Solver,
    time: Duration,
) -> Result<Proof, ProveError> {
    if proof.verdict != Verdict::Proved {
        proof.cross_check = Some(CrossCheck {
            solver: checker.clone(),
            cases: Vec::new(),
            skipped: Some(format!(
                "the verdict is {}: only a proved verdict is cross-checked",
                proof.verdict.name()
            )),
        });
        return Ok(proof);
    }
    let cases = statement.cases()?;
    let checked: Vec<CheckedCase> = cases
        .par_iter()
        .map(|case| {
            let start = Instant::now();
            let status = checker.check(&case.script, time)?;
            Ok(CheckedCase {
                index: case.index,
                label: case.label.clone(),
                status,
                seconds: start.elapsed().as_secs_f64(),
            })
        })
        .collect::<Result<_, ProveError>>()?;
    let check = CrossCheck {
        solver: checker.clone(),
        cases: checked,
        skipped: None,
    };
    let disagreed = check.disagreed();
    if !disagreed.is_empty() {
        proof.verdict = Verdict::Unknown(disagreed);
    }
    proof.cross_check = Some(check);
    Ok(proof)
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
        std::fs::write(&path, case.script.query(smt::DECIDE)).map_err(|e| fail(&path, e))?;
    }
    Ok(())
}

/// Seconds rounded to the millisecond, as the answer reports them.
fn milliseconds(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// `prove`'s JSON answer: the statement's fields, then the verdict and what it rests on.
#[derive(Serialize)]
struct ProofDoc<'a> {
    #[serde(flatten)]
    statement: statement::StatementDoc<'a>,
    verdict: &'static str,
    rests_on: String,
    cases: Vec<CaseDoc<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counterexample: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    open: Option<&'a [usize]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cross_check: Option<CrossCheckDoc<'a>>,
}

/// One case: its type, the solver's status and time, the second solver's when asked.
#[derive(Serialize)]
struct CaseDoc<'a> {
    case: usize,
    #[serde(rename = "type")]
    kind: &'a str,
    status: &'static str,
    seconds: f64,
    solver: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cross_check: Option<SecondDoc<'a>>,
}

/// The second solver's answer on one case.
#[derive(Serialize)]
struct SecondDoc<'a> {
    status: &'static str,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

/// The cross-check's summary: why it was skipped, or which cases agreed, stayed open or
/// disagreed; and the disagreement in words.
#[derive(Serialize)]
struct CrossCheckDoc<'a> {
    solver: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agreed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    open: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    disagreed: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    disagreement: Option<String>,
}

impl Proof {
    /// The JSON answer: the statement and its domain, the verdict, every case (status,
    /// seconds, solver), the open cases or the counterexample.
    pub fn to_json(&self, statement: &Statement) -> Value {
        let solver = self.solver.to_string();
        let rests_on = match &self.verdict {
            Verdict::Proved => format!(
                "{}; the normal form (docs/theory.md §6.1), {} and the case split's coverage \
                 (§6.6); {}",
                statement.mechanism.characterization(),
                statement.goal.conditions(),
                self.solvers_answering()
            ),
            Verdict::Unknown(_) if self.disagreement().is_some() => {
                format!("nothing: {}", self.disagreement().unwrap_or_default())
            }
            Verdict::Refuted(_) => format!(
                "the counterexample, re-derived by the exact mechanism and {} (nothing from \
                 the solver)",
                statement.goal.checker()
            ),
            Verdict::Unknown(_) => "nothing: some cases are open".to_string(),
        };
        let cases = self
            .cases
            .iter()
            .map(|c| CaseDoc {
                case: c.index,
                kind: &c.label,
                status: c.status.name(),
                seconds: milliseconds(c.seconds),
                solver: &solver,
                reason: c.status.reason(),
                cross_check: self.checked(c.index).map(|(_, k)| SecondDoc {
                    status: k.status.name(),
                    seconds: milliseconds(k.seconds),
                    reason: k.status.reason(),
                }),
            })
            .collect();
        doc::value(&ProofDoc {
            statement: statement.document(),
            verdict: self.verdict.name(),
            rests_on,
            cases,
            counterexample: match &self.verdict {
                Verdict::Refuted(record) => Some(&**record),
                _ => None,
            },
            open: match &self.verdict {
                Verdict::Unknown(open) => Some(open),
                _ => None,
            },
            cross_check: self
                .cross_check
                .as_ref()
                .map(|check| check.document(self.disagreement())),
        })
    }

    /// The second solver and its answer on case `index`, when it checked the cases (all of
    /// them, in case order).
    fn checked(&self, index: usize) -> Option<(&Solver, &CheckedCase)> {
        let check = self.cross_check.as_ref()?;
        Some((&check.solver, check.cases.get(index)?))
    }

    /// Who answered `unsat` in every case of a `proved` verdict: the solver, and the
    /// cross-checking one when it agreed on every case.
    fn solvers_answering(&self) -> String {
        let first = &self.solver;
        match &self.cross_check {
            Some(check) if check.agreed() => format!(
                "{first} and {} each answering unsat in every case",
                check.solver
            ),
            Some(check) if check.skipped.is_none() => format!(
                "{first} answering unsat in every case ({} left case(s) {} undecided)",
                check.solver,
                list(&check.open())
            ),
            _ => format!("{first} answering unsat in every case"),
        }
    }

    /// The cross-check's contradiction of the verdict, if any, as a sentence.
    pub fn disagreement(&self) -> Option<String> {
        let check = self.cross_check.as_ref()?;
        let disagreed = check.disagreed();
        (!disagreed.is_empty()).then(|| {
            format!(
                "{} answered sat on case(s) {} that {} answered unsat: one of the two \
                 solvers is wrong",
                check.solver,
                list(&disagreed),
                self.solver
            )
        })
    }

    /// A short text answer: the statement, the verdict, one line per case.
    pub fn to_text(&self, statement: &Statement) -> String {
        let mut out = format!(
            "{}\nverdict: {}\n",
            statement.describe(),
            self.verdict.name()
        );
        for c in &self.cases {
            let second = match self.checked(c.index) {
                Some((solver, k)) => {
                    format!("  {solver} {:<8} {:>9.3} s", k.status.name(), k.seconds)
                }
                None => String::new(),
            };
            out += &format!(
                "  case {:>3} {:<8} {:>9.3} s  {}{}  {}\n",
                c.index,
                c.status.name(),
                c.seconds,
                self.solver,
                second,
                c.label
            );
        }
        match &self.verdict {
            Verdict::Proved => {}
            Verdict::Refuted(record) => out += &format!("counterexample: {record}\n"),
            Verdict::Unknown(open) => {
                out += &format!("open cases: {}\n", list(open));
            }
        }
        if let Some(check) = &self.cross_check {
            let name = &check.solver;
            out += &match (self.disagreement(), &check.skipped) {
                (Some(text), _) => format!("CROSS-CHECK DISAGREES: {text}\n"),
                (None, Some(why)) => format!("cross-check ({name}) skipped: {why}\n"),
                (None, None) if check.agreed() => {
                    format!("cross-check: {name} agreed on every case\n")
                }
                (None, None) => format!(
                    "cross-check: {name} left case(s) {} undecided\n",
                    list(&check.open())
                ),
            };
        }
        out
    }
}
