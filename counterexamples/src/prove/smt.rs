//! SMT-LIB 2 text, the solver as a separate process, and its models read back exactly.
//!
//! Terms are plain SMT-LIB strings built by the helpers below; a [`Script`] collects the
//! declarations and assertions of one case. The solver (z3) runs as a child process on the
//! script's text with a hard time limit, so no solver library is linked into the toolkit; its
//! answer is `sat` (with the values of the variables asked for, as exact decimals or decimal
//! approximations of algebraic numbers), `unsat`, or neither. cvc5, which re-decides the cases
//! of a proof, runs the same way through its Python bindings ([`CVC5_RUNNER`]).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use leontief_solver::Rational;

use super::ProveError;

/// A real constant as an SMT-LIB term: `3`, `(/ 1 2)`, `(- (/ 1 2))`.
pub fn constant(x: &Rational) -> String {
    let text = x.abs().to_string();
    let magnitude = match text.split_once('/') {
        Some((num, den)) => format!("(/ {num}.0 {den}.0)"),
        None => format!("{text}.0"),
    };
    if x.is_negative() {
        format!("(- {magnitude})")
    } else {
        magnitude
    }
}

/// `(op a b ..)`, or the neutral element / the single term when there are fewer than two.
fn fold<T: AsRef<str>>(op: &str, neutral: &str, terms: impl IntoIterator<Item = T>) -> String {
    let terms: Vec<T> = terms.into_iter().collect();
    match terms.as_slice() {
        [] => neutral.to_string(),
        [t] => t.as_ref().to_string(),
        _ => {
            let terms: Vec<&str> = terms.iter().map(AsRef::as_ref).collect();
            format!("({op} {})", terms.join(" "))
        }
    }
}

/// The sum of `terms` (`0.0` when empty).
pub fn sum<T: AsRef<str>>(terms: impl IntoIterator<Item = T>) -> String {
    fold("+", "0.0", terms)
}

/// The conjunction of `terms` (`true` when empty).
pub fn and<T: AsRef<str>>(terms: impl IntoIterator<Item = T>) -> String {
    fold("and", "true", terms)
}

/// The disjunction of `terms` (`false` when empty).
pub fn or<T: AsRef<str>>(terms: impl IntoIterator<Item = T>) -> String {
    fold("or", "false", terms)
}

/// `a * b`.
pub fn mul(a: &str, b: &str) -> String {
    format!("(* {a} {b})")
}

/// The polynomial `Σ coeffs[i] x^i` (constant term first) at the term `x`.
pub fn polynomial(coeffs: &[Rational], x: &str) -> String {
    // Horner's rule: a_0 + x (a_1 + x (a_2 + ...)).
    let mut term = constant(coeffs.last().unwrap_or(&Rational::ZERO));
    for c in coeffs.iter().rev().skip(1) {
        term = format!("(+ {} (* {x} {term}))", constant(c));
    }
    term
}

/// `(op a b)` for a binary relation or operator.
pub fn binary(op: &str, a: &str, b: &str) -> String {
    format!("({op} {a} {b})")
}

/// How every case is decided: z3's QF_NRA strategy (nlsat after preprocessing) for 2 seconds,
/// then three strategies racing in one process (`par-or`) — its SMT core (nonlinear
/// arithmetic inside the CDCL search), the same after equations are solved away, and the
/// QF_NRA strategy again. Each decides cases on which the others stall (docs/theory.md §6.6).
pub const DECIDE: &str =
    "(or-else (try-for qfnra 2000) (par-or smt (then simplify solve-eqs smt) qfnra))";

/// How the model of a satisfiable case is found again: one strategy alone, so that the model,
/// hence the counterexample, does not depend on which racer won.
pub const MODEL: &str = "qfnra";

/// The declarations and assertions of one query, with the variables whose values a `sat`
/// answer reports.
#[derive(Debug, Clone, Default)]
pub struct Script {
    declarations: Vec<String>,
    assertions: Vec<String>,
    comments: Vec<String>,
    /// The values read back from a model, in order: a name and the term whose value it is
    /// (a declared variable, or a term over them when the encoding substituted it away).
    pub reported: Vec<(String, String)>,
}

impl Script {
    /// An empty script.
    pub fn new() -> Self {
        Script::default()
    }

    /// Declares a real variable `name` and returns it as a term.
    pub fn real(&mut self, name: &str) -> String {
        self.declarations
            .push(format!("(declare-fun {name} () Real)"));
        name.to_string()
    }

    /// Declares the real variables `{prefix}_{i + 1}` for `i` in `users`.
    pub fn reals(&mut self, prefix: &str, users: std::ops::Range<usize>) -> Vec<String> {
        users
            .map(|i| self.real(&format!("{prefix}_{}", i + 1)))
            .collect()
    }

    /// Declares a real variable whose value a model reports.
    pub fn reported_real(&mut self, name: &str) -> String {
        self.report(name, name);
        self.real(name)
    }

    /// Declares a positive real variable whose value a model reports.
    pub fn positive_real(&mut self, name: &str) -> String {
        let v = self.reported_real(name);
        self.assert(binary(">", &v, "0.0"));
        v
    }

    /// Declares the positive real variables `{prefix}_1` .. `{prefix}_n`, which a model
    /// reports.
    pub fn positive_reals(&mut self, prefix: &str, n: usize) -> Vec<String> {
        (0..n)
            .map(|i| self.positive_real(&format!("{prefix}_{}", i + 1)))
            .collect()
    }

    /// Asks a model for the value of `term` under `name` (a term, not a variable: an
    /// equation defining a variable would slow the solver down).
    pub fn report(&mut self, name: &str, term: &str) {
        self.reported.push((name.to_string(), term.to_string()));
    }

    /// Asserts `term`.
    pub fn assert(&mut self, term: impl Into<String>) {
        self.assertions.push(format!("(assert {})", term.into()));
    }

    /// Asserts `(op t bound)` for every term `t` of `terms`, in order.
    pub fn assert_each<T: AsRef<str>>(
        &mut self,
        op: &str,
        terms: impl IntoIterator<Item = T>,
        bound: &str,
    ) {
        for t in terms {
            self.assert(binary(op, t.as_ref(), bound));
        }
    }

    /// A comment line at the top of the file (what the case is).
    pub fn comment(&mut self, text: impl Into<String>) {
        self.comments.push(text.into());
    }

    /// The SMT-LIB 2 text: logic, declarations, assertions, `check-sat-using tactic` (every
    /// case is decided by [`DECIDE`]); on `sat` the reported values print as decimals
    /// (algebraic values approximated, marked `?`).
    pub fn text(&self, tactic: &str) -> String {
        let mut out = String::new();
        for line in self.comments.iter().flat_map(|c| c.lines()) {
            out += &format!("; {line}\n");
        }
        out += "(set-option :produce-models true)\n";
        out += "(set-option :pp.decimal true)\n";
        out += "(set-option :pp.decimal_precision 40)\n";
        out += "(set-logic QF_NRA)\n";
        for line in self.declarations.iter().chain(&self.assertions) {
            out += line;
            out.push('\n');
        }
        out += &format!("(check-sat-using {tactic})\n");
        out
    }

    /// [`Script::text`] followed by the request for the reported values.
    pub fn query(&self, tactic: &str) -> String {
        let mut out = self.text(tactic);
        if !self.reported.is_empty() {
            let terms: Vec<&str> = self.reported.iter().map(|(_, t)| t.as_str()).collect();
            out += &format!("(get-value ({}))\n", terms.join(" "));
        }
        out
    }
}

/// Which solver a [`Solver`] runs, and so how it is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolverKind {
    /// The z3 executable on the query as written ([`DECIDE`], then [`MODEL`] for the model).
    Z3,
    /// cvc5 through its Python bindings: a Python interpreter runs [`CVC5_RUNNER`] on the
    /// query made standard SMT-LIB (no model is asked for: cvc5 cross-checks, it does not
    /// refute).
    Cvc5,
}

/// The solver: where its executable is, and its name and version as it reports them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solver {
    /// The executable: z3, or the Python interpreter that has the cvc5 module.
    pub path: PathBuf,
    /// `z3` or `cvc5`.
    pub name: String,
    /// As the solver reports it, e.g. `4.13.0`.
    pub version: String,
    /// How it is run.
    pub kind: SolverKind,
}

/// `name version`, as answers name the solver.
impl std::fmt::Display for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.name, self.version)
    }
}

/// How the solver is found when no path is given: this environment variable, then `z3` on
/// `PATH`.
pub const SOLVER_ENV: &str = "LEONTIEF_Z3";

/// What to do when no solver can be found.
pub const INSTALL_HINT: &str = "install one with `pip install z3-solver` (it ships a `z3` \
     executable; scripts/python-env.sh installs it into target/python-venv/bin), then give \
     --solver PATH, set LEONTIEF_Z3, or put `z3` on PATH";

/// How cvc5 is found when no interpreter is given: this environment variable (a Python
/// interpreter that has the cvc5 module), then `python3` on `PATH`.
pub const CVC5_ENV: &str = "LEONTIEF_CVC5";

/// What to do when cvc5 cannot be found.
pub const CVC5_INSTALL_HINT: &str = "install it with `pip install cvc5` (its Python bindings; \
     scripts/python-env.sh installs them into target/python-venv), then give --cvc5 PYTHON, \
     set LEONTIEF_CVC5, or put that venv's `python3` on PATH";

/// The cvc5 runner: reads SMT-LIB 2 on standard input, answers like the z3 executable. The
/// cvc5 wheel ships no executable, so this text is run with `python -c`, the time limit in
/// milliseconds its one argument.
pub const CVC5_RUNNER: &str = include_str!("cvc5_smt2.py");

/// Runs `given`, else the non-empty value of the environment variable `env`, else `default`,
/// with `args`: the executable run and its output, or `fail` with why it did not run.
fn probe(
    given: Option<&Path>,
    (env, default): (&str, &str),
    args: &[&str],
    fail: fn(String) -> ProveError,
) -> Result<(PathBuf, Output), ProveError> {
    let candidate = match given {
        Some(p) => p.to_path_buf(),
        None => match std::env::var_os(env) {
            Some(p) if !p.is_empty() => PathBuf::from(p),
            _ => PathBuf::from(default),
        },
    };
    let output = Command::new(&candidate)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| fail(format!("{}: {e}", candidate.display())))?;
    Ok((candidate, output))
}

impl Solver {
    /// The solver at `path`, else at `$LEONTIEF_Z3`, else `z3` on `PATH`, with its version.
    ///
    /// # Errors
    /// [`ProveError::NoSolver`] when none runs, saying how to install one.
    pub fn find(path: Option<&Path>) -> Result<Solver, ProveError> {
        let (candidate, output) = probe(
            path,
            (SOLVER_ENV, "z3"),
            &["--version"],
            ProveError::NoSolver,
        )?;
        let text = String::from_utf8_lossy(&output.stdout);
        // `Z3 version 4.13.0 - 64 bit`
        let version = text
            .split_whitespace()
            .skip_while(|w| *w != "version")
            .nth(1)
            .filter(|_| output.status.success() && text.starts_with("Z3"))
            .ok_or_else(|| {
                ProveError::NoSolver(format!(
                    "{}: not a z3 executable (`--version` printed {:?})",
                    candidate.display(),
                    text.trim()
                ))
            })?;
        Ok(Solver {
            path: candidate,
            name: "z3".into(),
            version: version.to_string(),
            kind: SolverKind::Z3,
        })
    }

    /// cvc5 through the Python interpreter at `python`, else at `$LEONTIEF_CVC5`, else
    /// `python3` on `PATH`, with cvc5's version.
    ///
    /// # Errors
    /// [`ProveError::NoCrossChecker`] when the interpreter does not run or has no cvc5
    /// module, saying how to install it.
    pub fn find_cvc5(python: Option<&Path>) -> Result<Solver, ProveError> {
        let (candidate, output) = probe(
            python,
            (CVC5_ENV, "python3"),
            &["-c", "import cvc5; print(cvc5.__version__)"],
            ProveError::NoCrossChecker,
        )?;
        let text = String::from_utf8_lossy(&output.stdout);
        let version = text.trim();
        let plausible = !version.is_empty()
            && version
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '+');
        if !output.status.success() || !plausible {
            let why = String::from_utf8_lossy(&output.stderr);
            return Err(ProveError::NoCrossChecker(format!(
                "{}: no cvc5 module ({})",
                candidate.display(),
                why.lines()
                    .last()
                    .unwrap_or("")
                    .trim()
                    .chars()
                    .take(200)
                    .collect::<String>()
            )));
        }
        Ok(Solver {
            path: candidate,
            name: "cvc5".into(),
            version: version.to_string(),
            kind: SolverKind::Cvc5,
        })
    }

    /// Whether a `sat` answer comes with a model ([`SolverKind::Z3`]); cvc5's do not.
    pub fn reports_models(&self) -> bool {
        self.kind == SolverKind::Z3
    }

    /// Decides `script` ([`DECIDE`]) with at most `limit` of time; on `sat`, the model is
    /// found again by [`MODEL`] alone when that succeeds within `limit`. cvc5 decides the
    /// script once and answers `sat` with no values.
    ///
    /// # Errors
    /// [`ProveError::Solver`] when the process cannot be run or answers something that is
    /// neither `sat`, `unsat`, `unknown` nor a timeout.
    pub fn check(&self, script: &Script, limit: Duration) -> Result<Answer, ProveError> {
        self.check_until(script, limit, &|| false)
    }

    /// [`Solver::check`], stopping the solver early (answer `unknown`, reason `stopped`) once
    /// `stop` says so: a case made moot by an earlier refuting one does not run to its limit.
    ///
    /// # Errors
    /// As [`Solver::check`].
    pub fn check_until(
        &self,
        script: &Script,
        limit: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<Answer, ProveError> {
        let answer = self.run(script, DECIDE, limit, stop)?;
        if !self.reports_models() || !matches!(answer, Answer::Sat(_)) {
            return Ok(answer);
        }
        match self.run(script, MODEL, limit, stop)? {
            Answer::Sat(model) => Ok(Answer::Sat(model)),
            _ => Ok(answer),
        }
    }

    /// Runs `script` with `tactic` and at most `limit` of time, or until `stop`.
    fn run(
        &self,
        script: &Script,
        tactic: &str,
        limit: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<Answer, ProveError> {
        let mut command = Command::new(&self.path);
        // z3 enforces -T itself; the grace period covers a solver that does not. cvc5's
        // coverings do not look at its time limit while they compute (measured: a 5 s limit ran
        // past 60 s), so its limit is enforced here, a second allowed for the interpreter's start.
        let (query, reported, grace) = match self.kind {
            SolverKind::Z3 => {
                // Whole seconds, rounded up: z3's -T takes no fraction.
                let seconds = limit.as_secs_f64().ceil().max(1.0) as u64;
                command.arg("-in").arg("-smt2").arg(format!("-T:{seconds}"));
                let query = script.query(tactic);
                (query, &script.reported[..], Duration::from_secs(5))
            }
            SolverKind::Cvc5 => {
                let millis = limit.as_millis().max(1);
                command.arg("-c").arg(CVC5_RUNNER).arg(millis.to_string());
                // No `get-value`: cvc5 prints algebraic values in a form of its own, and the
                // cross-check needs the status alone.
                (script.text(tactic), &[][..], Duration::from_secs(1))
            }
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // Never read: a full pipe would block the solver.
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ProveError::Solver(format!("{}: {e}", self.path.display())))?;
        if let Some(mut stdin) = child.stdin.take() {
            // A solver that stops early closes its input; its answer says why.
            let _ = stdin.write_all(query.as_bytes());
        }
        let mut stdout = child.stdout.take();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(out) = stdout.as_mut() {
                let _ = out.read_to_string(&mut text);
            }
            text
        });
        let deadline = Instant::now() + limit + grace;
        let mut killed = None;
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() >= deadline || stop() => {
                    let _ = child.kill();
                    let _ = child.wait();
                    killed = Some(if stop() { "stopped" } else { "timeout" });
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(ProveError::Solver(e.to_string())),
            }
        }
        let text = reader
            .join()
            .map_err(|_| ProveError::Solver("reading the solver's answer failed".into()))?;
        if let Some(reason) = killed {
            return Ok(Answer::Unknown(reason.into()));
        }
        parse_answer(&text, reported)
    }
}

/// The solver's answer to one query (named `sat`, `unsat`, `unknown`); a case's
/// [`Status`](super::Status) is the same with the re-derived counterexample in place of the
/// model.
#[derive(Debug, Clone, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Answer<S = Vec<(String, Rational)>> {
    /// Satisfiable, with the reported variables' values (exact, or decimal approximations of
    /// algebraic numbers).
    Sat(S),
    /// Unsatisfiable.
    Unsat,
    /// Neither, with the reason (`timeout`, `unknown`).
    Unknown(String),
}

impl<S> Answer<S> {
    /// `sat`, `unsat` or `unknown`.
    pub fn name(&self) -> &'static str {
        self.into()
    }

    /// Why it is `unknown`, if it is.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Answer::Unknown(reason) => Some(reason),
            _ => None,
        }
    }
}

/// Reads z3's output: the first line is the status; after `sat`, the values of the reported
/// terms, in the order asked, named as the script names them.
fn parse_answer(text: &str, reported: &[(String, String)]) -> Result<Answer, ProveError> {
    let mut lines = text.lines();
    let status = lines.next().unwrap_or("").trim();
    match status {
        "unsat" => Ok(Answer::Unsat),
        "unknown" | "timeout" => Ok(Answer::Unknown(status.into())),
        "sat" => {
            if reported.is_empty() {
                return Ok(Answer::Sat(Vec::new()));
            }
            let values = parse_values(&lines.collect::<Vec<_>>().join("\n"))?;
            if values.len() != reported.len() {
                return Err(ProveError::Solver(format!(
                    "the model has {} values for {} terms",
                    values.len(),
                    reported.len()
                )));
            }
            Ok(Answer::Sat(
                reported
                    .iter()
                    .zip(values)
                    .map(|((name, _), value)| (name.clone(), value))
                    .collect(),
            ))
        }
        "" => Err(ProveError::Solver("the solver printed nothing".into())),
        _ => Err(ProveError::Solver(format!(
            "unexpected answer: {}",
            text.lines().take(3).collect::<Vec<_>>().join(" ")
        ))),
    }
}

/// An s-expression.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

/// The next s-expression of `tokens`, or `None` at a closing parenthesis.
fn parse_sexp<'a>(tokens: &mut impl Iterator<Item = &'a str>) -> Result<Option<Sexp>, ProveError> {
    match tokens.next() {
        None => Err(malformed()),
        Some(")") => Ok(None),
        Some("(") => {
            let mut items = Vec::new();
            while let Some(item) = parse_sexp(tokens)? {
                items.push(item);
            }
            Ok(Some(Sexp::List(items)))
        }
        Some(atom) => Ok(Some(Sexp::Atom(atom.to_string()))),
    }
}

fn malformed() -> ProveError {
    ProveError::Solver("malformed model".into())
}

/// `((x 0.5) ((- 1.0 y) (- 1.0)) (z 1.4142135623?))` → the values in order, exactly as
/// printed (a trailing `?` marks a truncated decimal of an algebraic number; its digits are
/// taken as they are).
fn parse_values(text: &str) -> Result<Vec<Rational>, ProveError> {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let Some(Sexp::List(pairs)) = parse_sexp(&mut spaced.split_whitespace())? else {
        return Err(malformed());
    };
    pairs
        .into_iter()
        .map(|pair| match pair {
            Sexp::List(items) if items.len() == 2 => value(&items[1]),
            _ => Err(malformed()),
        })
        .collect()
}

fn value(e: &Sexp) -> Result<Rational, ProveError> {
    let bad = |what: String| ProveError::Solver(format!("cannot read the model value {what}"));
    match e {
        Sexp::Atom(a) => {
            (a.trim_end_matches('?').parse::<Rational>()).map_err(|_| bad(format!("{a:?}")))
        }
        Sexp::List(items) => match items.as_slice() {
            [Sexp::Atom(op), x] if op == "-" => Ok(-value(x)?),
            [Sexp::Atom(op), x, y] if op == "/" => value(x)?
                .checked_div(&value(y)?)
                .ok_or_else(|| bad("(division by zero)".into())),
            _ => Err(bad(format!("{e:?}"))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    #[test]
    fn constants_are_written_as_smt_lib_reals() {
        assert_eq!(constant(&q("3")), "3.0");
        assert_eq!(constant(&q("-1/2")), "(- (/ 1.0 2.0))");
    }

    #[test]
    fn models_are_read_exactly() {
        // z3's get-value answer with pp.decimal: exact decimals, negations and a truncated
        // algebraic value marked `?`.
        let answer = "sat\n((a 0.5)\n (b (- 1.25))\n (c 1.4142?)\n ((- 1.0 a) (/ 1.0 3.0)))\n";
        let names: Vec<(String, String)> = [("a", "a"), ("b", "b"), ("c", "c"), ("d", "(- 1.0 a)")]
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .to_vec();
        let Answer::Sat(values) = parse_answer(answer, &names).unwrap() else {
            panic!("expected sat");
        };
        let got: Vec<(String, Rational)> = values;
        let expected: Vec<(String, Rational)> = ["a", "b", "c", "d"]
            .into_iter()
            .map(String::from)
            .zip([q("1/2"), q("-5/4"), q("14142/10000"), q("1/3")])
            .collect();
        assert_eq!(got, expected);
        assert_eq!(parse_answer("unsat\n", &[]).unwrap(), Answer::Unsat);
        assert!(matches!(
            parse_answer("timeout\n", &[]).unwrap(),
            Answer::Unknown(_)
        ));
        assert!(parse_answer("sat\n((a 0.5))", &names).is_err());
    }
}
