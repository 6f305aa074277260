//! Reading instances from files, standard input and inline flags; the CLI's error type.

use std::io::Read;

use leontief_solver::{read_number, Instance, Rational, SolverError, User};

/// Everything the command line can fail with, and its exit code.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CliError {
    /// Bad input: an invalid instance or flag value (exit code 2).
    #[error("{0}")]
    Input(#[from] SolverError),
    /// A file that cannot be read (exit code 2).
    #[error("{path}: {message}")]
    Read {
        /// The path as given.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// Flags that do not fit together (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// A reproduction that did not match its source (exit code 1).
    #[error("{0}")]
    Mismatch(String),
    /// A fault of the tool itself (exit code 1).
    #[error("internal error: {0}")]
    Internal(String),
}

impl CliError {
    /// A file `path` that cannot be read or written, with the system's `message`.
    pub fn read(path: &str, message: impl std::fmt::Display) -> CliError {
        CliError::Read {
            path: path.to_string(),
            message: message.to_string(),
        }
    }

    /// The process exit code: 2 for bad input, 1 for everything else.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) | CliError::Read { .. } | CliError::Usage(_) => 2,
            CliError::Mismatch(_) | CliError::Internal(_) => 1,
        }
    }
}

std::thread_local! {
    /// Texts given in memory (by [`with_inputs`]) under the names the commands read them by.
    static INPUTS: std::cell::RefCell<Vec<(String, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with `inputs` (name, text) readable by [`read_text`] under their names on this
/// thread, so that a command's `run` reads an instance, tree or JSONL text held in memory
/// (the Python package) through the same code path as a file.
pub fn with_inputs<T>(inputs: Vec<(String, String)>, f: impl FnOnce() -> T) -> T {
    crate::workers::with_local(&INPUTS, inputs, f)
}

/// The largest input file read, in bytes: instances, trees, JSONL records and demands files.
/// A flat instance of a million users with eight resources takes about 60 MB.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// The largest scheduler configuration `leontief import` reads, in bytes (YARN allocation
/// files and Kueue streams are kilobytes to a few megabytes).
pub const MAX_CONFIG_BYTES: u64 = 64 << 20;

/// Reads `path` (`-` for standard input) as text (or the text [`with_inputs`] holds under
/// that name), refusing more than [`MAX_INPUT_BYTES`].
pub fn read_text(path: &str) -> Result<String, CliError> {
    read_text_within(path, MAX_INPUT_BYTES)
}

/// [`read_text`] refusing a text of more than `limit` bytes, before reading it when the
/// file's size is known, and after `limit + 1` bytes from standard input.
pub fn read_text_within(path: &str, limit: u64) -> Result<String, CliError> {
    let too_large = || {
        let limit = bytes(limit);
        CliError::read(
            path,
            format!("larger than {limit}, the most this command reads; refused"),
        )
    };
    let held = INPUTS.with(|i| {
        i.borrow()
            .iter()
            .find(|(name, _)| name == path)
            .map(|(_, text)| text.clone())
    });
    let read_error = |e: std::io::Error| CliError::read(path, e);
    let mut text = String::new();
    if let Some(held) = held {
        text = held;
    } else if path == "-" {
        std::io::stdin()
            .take(limit + 1)
            .read_to_string(&mut text)
            .map_err(read_error)?;
    } else {
        let file = std::fs::File::open(path).map_err(read_error)?;
        if file.metadata().map_err(read_error)?.len() > limit {
            return Err(too_large());
        }
        file.take(limit + 1)
            .read_to_string(&mut text)
            .map_err(read_error)?;
    }
    if text.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(text)
}

/// Names the file in an error about its whole text (unreadable JSON, nesting too deep):
/// `nested.json: unreadable JSON at line 1, column 257: …`. Errors about one field keep
/// their field path alone.
pub fn in_file<T>(path: &str, result: Result<T, SolverError>) -> Result<T, CliError> {
    result.map_err(|e| match e {
        SolverError::Json { .. } => CliError::read(shown_path(path), e),
        e => CliError::Input(e),
    })
}

/// A path as messages name it: `-` is standard input.
pub fn shown_path(path: &str) -> &str {
    if path == "-" {
        "standard input"
    } else {
        path
    }
}

/// A byte count in the largest binary unit that divides it (`64 MiB`).
fn bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// Comma-separated numbers, entry `j` named `field[j]` when it is wrong.
pub(crate) fn csv_numbers(field: &str, text: &str) -> Result<Vec<Rational>, SolverError> {
    let numbers = text.split(',').enumerate();
    numbers
        .map(|(j, x)| number_flag(&format!("{field}[{j}]"), x))
        .collect()
}

/// Builds an instance from `--capacity 9,18 --user A=1,4 --user B=3,1:weight=2:tasks=5`.
pub(crate) fn inline_instance(
    capacity: &str,
    users: &[String],
    resources: Option<&str>,
) -> Result<Instance, CliError> {
    let capacity = csv_numbers("--capacity", capacity)?;
    let mut list = Vec::with_capacity(users.len());
    for (i, spec) in users.iter().enumerate() {
        let field = format!("--user[{i}]");
        let (name, rest) = spec.split_once('=').ok_or_else(|| {
            SolverError::invalid(
                &field,
                format!("expected NAME=d1,d2,..[:weight=W][:tasks=T], found {spec:?}"),
            )
        })?;
        let mut parts = rest.split(':');
        let demand = csv_numbers(&format!("{field}.demand"), parts.next().unwrap_or(""))?;
        let mut user = User::new(name.trim(), demand);
        for option in parts {
            match option.split_once('=') {
                Some(("weight", w)) => {
                    user = user.weight(number_flag(&format!("{field}.weight"), w)?)
                }
                Some(("tasks", t)) => user = user.cap(number_flag(&format!("{field}.tasks"), t)?),
                _ => {
                    return Err(SolverError::invalid(
                        &field,
                        format!("unknown option {option:?} (expected weight=W or tasks=T)"),
                    )
                    .into())
                }
            }
        }
        list.push(user);
    }
    let instance = match resources {
        Some(names) => Instance::builder(capacity)
            .resources(names.split(',').map(|s| s.trim().to_string()).collect())
            .users(list)
            .build(),
        None => Instance::new(capacity, list),
    };
    Ok(instance.map_err(flag_field)?)
}

/// Names a validation error's field after the flag it came from: `users[0].weight` becomes
/// `--user[0].weight`, `capacity[1]` becomes `--capacity[1]`.
fn flag_field(err: SolverError) -> SolverError {
    match err {
        SolverError::Invalid { field, reason } => {
            let flag = [
                ("users", "--user"),
                ("capacity", "--capacity"),
                ("resources", "--resources"),
            ]
            .into_iter()
            .find_map(|(json, flag)| field.strip_prefix(json).map(|rest| format!("{flag}{rest}")));
            SolverError::invalid(flag.unwrap_or(field), reason)
        }
        other => other,
    }
}

/// Names a library error's field `field` after `name`, the flag (or file) it came from.
pub(crate) fn rename(err: SolverError, field: &str, name: &str) -> SolverError {
    match err {
        SolverError::Invalid { field: f, reason } if f == field => {
            SolverError::invalid(name, reason)
        }
        other => other,
    }
}

/// A number given as a flag's text (trimmed), read as the files' numbers are.
pub(crate) fn number_flag(field: &str, text: &str) -> Result<Rational, SolverError> {
    read_number(field, &serde_json::Value::String(text.trim().to_string()))
}
