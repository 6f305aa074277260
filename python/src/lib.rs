//! `leontief._leontief`: the extension module under the `leontief` Python package.
//!
//! Every function runs one of the command line's commands in-process, through the same code
//! (`leontief::commands`): the flags are parsed by the CLI's own parser from the argument
//! list the Python layer builds from keyword arguments, inputs held in memory are read by
//! name through [`leontief::cli::with_inputs`], and the JSON the command prints comes back
//! as Python objects with every exact number (a `"p/q"` string) a `fractions.Fraction`.
//! Long calls run without the GIL on a worker thread; a pending Ctrl-C sets the command's
//! cancel flag ([`leontief::workers::with_cancel`]) and raises `KeyboardInterrupt`.
//!
//! # Example
//! From Python (the DRF paper's example):
//! ```text
//! >>> import leontief
//! >>> a = leontief.solve({"capacity": [9, 18], "users": [{"name": "A", "demand": [1, 4]},
//! ...                     {"name": "B", "demand": [3, 1]}]})
//! >>> a.users["A"].tasks, a.users["B"].tasks
//! (Fraction(3, 1), Fraction(2, 1))
//! ```
//!
//! # References
//! - PyO3 user guide: <https://pyo3.rs/>
//! - Ghodsi et al., "Dominant Resource Fairness", NSDI 2011:
//!   <https://www.usenix.org/legacy/event/nsdi11/tech/full_papers/Ghodsi.pdf>

mod answer;
mod records;
mod to_json;
mod to_python;

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use leontief::cli::{with_inputs, CliError};
use leontief::commands::{Cli, Command};
use leontief::workers::quietly;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCFunction, PyDict, PyString};
use serde_json::Value;

use records::{call_python, Records, Worker};
use to_json::{inputs, to_json};
use to_python::{loads, to_python};

pyo3::create_exception!(
    _leontief,
    InvalidInput,
    PyValueError,
    "Bad input: the command line's message (exit code 2), naming the field path."
);

pyo3::create_exception!(
    _leontief,
    Mismatch,
    PyRuntimeError,
    "A reproduction that did not match its source (the command line's exit code 1)."
);

/// How often a waiting call looks for a pending signal (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Maps a command's error to the Python exception: bad input (exit code 2) is
/// `InvalidInput` with the CLI's message, everything else a `RuntimeError`.
fn py_error(err: CliError) -> PyErr {
    match err {
        err if err.exit_code() == 2 => InvalidInput::new_err(err.to_string()),
        CliError::Mismatch(m) => Mismatch::new_err(m),
        other => PyRuntimeError::new_err(other.to_string()),
    }
}

/// A mutex's value, also after a thread panicked holding it (each value here is written whole).
pub(crate) fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// [`parse`] for one command: its arguments, or a `TypeError` saying what was expected.
macro_rules! parse_as {
    ($argv:expr, $command:ident, $expected:literal) => {
        match parse($argv)? {
            Command::$command(args) => args,
            _ => return Err(PyTypeError::new_err(concat!("expected ", $expected))),
        }
    };
}

/// The CLI's parser on `argv` (without the program name); its errors are `InvalidInput`
/// with clap's message, less the `error: ` prefix and the `--help` hint.
fn parse(argv: Vec<String>) -> PyResult<Command> {
    // The parser is built once: building clap's command tree costs more than a small solve.
    static PARSER: Mutex<Option<clap::Command>> = Mutex::new(None);
    let args = std::iter::once("leontief".to_string()).chain(argv);
    let mut parser = locked(&PARSER);
    let parser = parser.get_or_insert_with(<Cli as clap::CommandFactory>::command);
    parser
        .try_get_matches_from_mut(args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m))
        .map(|cli| cli.command)
        .map_err(|e| {
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            let text = text
                .split("\n\nFor more information")
                .next()
                .unwrap_or(text)
                .trim_end();
            InvalidInput::new_err(text.to_string())
        })
}

// ---------------------------------------------------------------------------------------
// Running commands
// ---------------------------------------------------------------------------------------

/// Runs `work` on a [`Worker`] thread, its cancel flag set and the thread joined on a pending
/// signal (Ctrl-C: the commands stop between batches), whose exception (KeyboardInterrupt)
/// is then raised.
fn cancellable<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let worker = Worker::spawn(move |tx| drop(tx.send(work())));
    let value = worker.wait(py)?;
    worker.close(py);
    value.ok_or_else(|| PyRuntimeError::new_err("internal error: the worker failed"))
}

/// Runs `work` as a command runs: `inputs` readable under their names, the progress display
/// quiet; with `background` on a worker thread with Ctrl-C honoured ([`cancellable`], whose
/// [`Worker`] quiets the display), otherwise on this thread without the GIL (in `pool` when
/// given: the inputs and the quiet display are set where the work runs).
fn run_command<T: Send + 'static>(
    py: Python<'_>,
    background: bool,
    pool: Option<&rayon::ThreadPool>,
    inputs: Vec<(String, String)>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let work = move || with_inputs(inputs, work);
    match pool {
        _ if background => cancellable(py, work),
        Some(pool) => Ok(py.detach(|| pool.install(|| quietly(work)))),
        None => Ok(py.detach(|| quietly(work))),
    }
}

/// Runs a command (`argv` as the CLI takes it, without the program name) with `inputs`
/// (name -> text or JSON-able value) readable under their names, and returns what it prints
/// as Python objects. `json=False` returns the text. `background=True` runs it on a worker
/// thread with Ctrl-C honoured (for long commands); otherwise without the GIL in place.
/// `reproduce` mismatches return the report with the error message as a second element.
/// With `notes=True`, `verify`, `import` and `merge` return `(printed, notes)`, the lines
/// they would write on standard error kept instead: verify's tallies, import's warnings,
/// merge's tally (its JSONL comes back as text with `json=False`; `--out` is not written).
#[pyfunction]
#[pyo3(signature = (argv, inputs=None, json=true, background=false, notes=false))]
fn run<'py>(
    py: Python<'py>,
    argv: Vec<String>,
    inputs: Option<&Bound<'py, PyDict>>,
    json: bool,
    background: bool,
    notes: bool,
) -> PyResult<Bound<'py, PyAny>> {
    use leontief::commands::{import, merge, verify};
    let command = parse(argv)?;
    let texts = self::inputs(inputs)?;
    // What it printed on standard output, the notes it kept, and its error.
    let (text, kept, error) = run_command(py, background, None, texts, move || {
        let noted = match command {
            Command::Verify(args) if notes => verify::run_with(&args),
            Command::Import(args) if notes => import::run_with(&args),
            Command::Merge(args) if notes => merge::run_with(&args),
            command => {
                let outcome = command.run();
                return (outcome.stdout.into_text(), Vec::new(), outcome.error);
            }
        };
        match noted {
            Ok((text, kept)) => (text, kept, None),
            Err(e) => (String::new(), Vec::new(), Some(e)),
        }
    })?;
    let printed = |text: &str| match json {
        true => loads(py, text),
        false => Ok(PyString::new(py, text).into_any()),
    };
    match error {
        Some(CliError::Mismatch(m)) if !text.is_empty() => {
            Ok((printed(&text)?, m).into_pyobject(py)?.into_any())
        }
        Some(e) => Err(py_error(e)),
        None if notes => Ok((printed(&text)?, kept).into_pyobject(py)?.into_any()),
        None => printed(&text),
    }
}

/// `leontief solve` in-process. An exact allocation in JSON (the default output) comes back
/// as an [`answer::Answer`] holding the exact numbers, turned into Python objects when read
/// (the fields and order of `write_json`: mechanism, exact, resources, capacity, users with
/// name, tasks, allocation, dominant and weighted share, consumption, saturated, then the
/// mechanism's extra fields); any other answer as the CLI's JSON as Python objects.
///
/// An instance given as Python objects is written as JSON text with its exact numbers as
/// such (a Fraction as `"p/q"`, an int as the integer) and read by the CLI's reader, whose
/// errors name the field.
/// `threads` runs it in a pool of that many workers (large answers are summed and written in
/// parallel; the answer is the same at any count).
#[pyfunction]
#[pyo3(signature = (argv, inputs=None, threads=None))]
fn solve<'py>(
    py: Python<'py>,
    argv: Vec<String>,
    inputs: Option<&Bound<'py, PyDict>>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    use leontief::commands::solve::{run_solved, Solved};
    let args = parse_as!(argv, Solve, "solve's flags");
    let texts = self::inputs(inputs)?;
    let pool = match threads {
        Some(0) => return Err(InvalidInput::new_err("--threads: expected at least 1")),
        Some(n) => Some(Arc::new(
            leontief::workers::thread_pool(Some(n)).map_err(py_error)?,
        )),
        None => None,
    };
    // The printed form (a stream, not Send) is written out before the GIL is taken back.
    let solved = run_command(py, false, pool.as_deref(), texts, move || {
        run_solved(args).map(|solved| match solved {
            Solved::Answer(solution) => Ok(solution),
            Solved::Printed(printed) => Err(printed.into_text()),
            _ => Err(String::new()),
        })
    })?
    .map_err(py_error)?;
    match solved {
        Ok(solution) => Ok(Bound::new(py, answer::Answer::new(*solution, pool))?.into_any()),
        Err(text) => loads(py, &text),
    }
}

/// `json.dumps` for exact values: the JSON text the CLI reads (Fractions as `"p/q"`);
/// non-integral floats are refused unless `floats` (records the CLI printed may hold inexact
/// figures).
#[pyfunction]
#[pyo3(signature = (obj, floats=false))]
fn dumps(obj: &Bound<'_, PyAny>, floats: bool) -> PyResult<String> {
    to_json(obj, "", floats)
}

/// `leontief search` or `leontief explore` in-process: an iterator of its JSONL records.
#[pyfunction(name = "records")]
fn run_records(py: Python<'_>, argv: Vec<String>) -> PyResult<Records> {
    use leontief::commands::{explore, search};
    match parse(argv)? {
        Command::Search(args) => Records::start(py, Arc::default(), move |on_record, ready| {
            search::run_with(&args, on_record, ready)
        }),
        Command::Explore(args) => Records::start(py, Arc::default(), move |on_record, ready| {
            explore::run_with(&args, None, on_record, ready).map(|s| vec![s])
        }),
        _ => Err(PyTypeError::new_err("expected search's or explore's flags")),
    }
}

/// `leontief explore` in-process with each round's work items evaluated by `evaluate`: a
/// callable taking the items (a list of JSON texts) and `stopped`, a callable that turns true
/// once the run is being stopped (Ctrl-C, the iterator closed), and returning one result per
/// item (JSON texts, in order), e.g. [`explore_evaluate`] run as Ray tasks. The same records as
/// [`run_records`] when it returns what `explore_evaluate` does with the same flags. `evaluate`
/// is called from the run's thread (holding the GIL while it runs); an exception it raises
/// stops the run and is raised by the iterator.
#[pyfunction]
fn explore_distributed(
    py: Python<'_>,
    argv: Vec<String>,
    evaluate: Py<PyAny>,
) -> PyResult<Records> {
    let args = parse_as!(argv, Explore, "explore's flags");
    let failure: Arc<Mutex<Option<PyErr>>> = Arc::default();
    let slot = failure.clone();
    Records::start(py, failure, move |on_record, ready| {
        // Set when the run is being stopped (Ctrl-C, close, drop): the callable can stop
        // waiting for its wave instead of holding the run until the wave ends.
        let cancel = leontief::workers::cancel_flag();
        let mut transport = move |items: Vec<String>| {
            call_python(&slot, |py| {
                let cancel = cancel.clone();
                let stopped = PyCFunction::new_closure(py, Some(c"stopped"), None, move |_, _| {
                    cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
                })?;
                evaluate
                    .call1(py, (items, stopped))?
                    .extract::<Vec<String>>(py)
            })
        };
        leontief::commands::explore::run_with(&args, Some(&mut transport), on_record, ready)
            .map(|s| vec![s])
    })
}

/// Evaluates `explore` work items (JSON texts, as `explore_distributed`'s callable receives
/// them) for the run `argv` describes (the driver's flags): one result per item, as JSON
/// texts, in order. What a Ray task of `leontief.ray.explore` runs. The work runs without the
/// GIL on a worker thread and stops at its next item on Ctrl-C (raising `KeyboardInterrupt`;
/// Ray cancels a running task so) or once `stopped()` returns true (asked before each item,
/// not again after; raising `RuntimeError` naming how many items were evaluated).
#[pyfunction]
#[pyo3(signature = (argv, items, stopped=None))]
fn explore_evaluate(
    py: Python<'_>,
    argv: Vec<String>,
    items: Vec<String>,
    stopped: Option<Py<PyAny>>,
) -> PyResult<Vec<String>> {
    let args = parse_as!(argv, Explore, "explore's flags");
    let failure: Arc<Mutex<Option<PyErr>>> = Arc::default();
    let slot = failure.clone();
    let outcome = cancellable(py, move || {
        let cancel = leontief::workers::cancel_flag().unwrap_or_default();
        // An exception raised by `stopped` stops the evaluation and is raised in its place.
        let asked =
            |f: &Py<PyAny>| call_python(&slot, |py| f.call0(py)?.is_truthy(py)).unwrap_or(true);
        let stop = || cancel.load(Ordering::Relaxed) || stopped.as_ref().is_some_and(asked);
        leontief::commands::explore::evaluate_items_until(&args, &items, &stop)
    })?;
    if let Some(e) = locked(&failure).take() {
        return Err(e);
    }
    match outcome.map_err(py_error)? {
        Ok(results) => Ok(results),
        Err(stopped) => Err(PyRuntimeError::new_err(stopped.to_string())),
    }
}

/// The defaults of a command's flags, as the CLI's parser holds them: a dict from each flag's
/// long name (with `_` for `-`) to its default text (several values comma-joined), or `None`
/// for a flag without a default. The Python functions' defaults are tested against it.
#[pyfunction]
fn flag_defaults<'py>(py: Python<'py>, command: &str) -> PyResult<Bound<'py, PyDict>> {
    let mut cli = <Cli as clap::CommandFactory>::command();
    // Built, so that switches show their implicit default ("false").
    cli.build();
    let sub = cli
        .get_subcommands()
        .find(|c| c.get_name() == command)
        .ok_or_else(|| InvalidInput::new_err(format!("no command named {command:?}")))?;
    let out = PyDict::new(py);
    for arg in sub.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        let defaults = arg.get_default_values().iter();
        let defaults: Vec<_> = defaults.map(|v| v.to_string_lossy()).collect();
        let value = (!defaults.is_empty()).then(|| defaults.join(","));
        out.set_item(long.replace('-', "_"), value)?;
    }
    Ok(out)
}

/// The one-process `search` rebuilt from its shards' `--unit-log` records (see
/// `leontief::commands::search::replay_unit_logs`): `{"records": [...], "summaries": [...]}`.
#[pyfunction]
#[pyo3(signature = (logs, budget=None, max_found=None))]
fn replay_search<'py>(
    py: Python<'py>,
    logs: &Bound<'py, PyAny>,
    budget: Option<u64>,
    max_found: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let text = to_json(logs, "logs", true)?;
    let Ok(Value::Array(lines)) = serde_json::from_str(&text) else {
        return Err(PyTypeError::new_err(
            "logs: expected a list of unit-log records",
        ));
    };
    let out = py
        .detach(|| leontief::commands::search::replay_unit_logs(&lines, budget, max_found))
        .map_err(py_error)?;
    to_python(py, &out)
}

/// The extension module.
#[pymodule]
fn _leontief(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InvalidInput", m.py().get_type::<InvalidInput>())?;
    m.add("Mismatch", m.py().get_type::<Mismatch>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(run_records, m)?)?;
    m.add_function(wrap_pyfunction!(explore_distributed, m)?)?;
    m.add_function(wrap_pyfunction!(explore_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(replay_search, m)?)?;
    m.add_function(wrap_pyfunction!(flag_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(dumps, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_class::<Records>()?;
    m.add_class::<answer::Answer>()?;
    Ok(())
}
