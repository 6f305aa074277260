//! The one thread-pool and progress setup of the commands that run in parallel (`verify`,
//! `search`).

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::CliError;

/// A rayon pool of `threads` workers (all cores when `None`; `Some(0)` is refused when the
/// flags are read, see [`crate::commands::flags::RunFlags`]).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t);
    }
    builder
        .build()
        .map_err(|e| CliError::Internal(e.to_string()))
}

/// A progress display on standard error, hidden unless standard error is a terminal (so
/// that piped and tested runs print nothing but their answer and summary): a bar over
/// `total` steps, or a spinner when the total is unknown.
pub fn progress(total: Option<u64>) -> ProgressBar {
    if QUIET.with(std::cell::Cell::get) || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match total {
        Some(total) => {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len}  {per_sec}  eta {eta}  {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        }
    }
}

std::thread_local! {
    /// Whether [`progress`] displays are hidden on this thread (see [`quietly`]).
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every progress display hidden on this thread, whatever standard error is
/// (the Python package: a library call draws nothing).
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            QUIET.with(|q| q.set(self.0));
        }
    }
    let _restore = Restore(QUIET.with(|q| q.replace(true)));
    f()
}

std::thread_local! {
    /// The cancel flag of the command running on this thread (see [`with_cancel`]).
    static CANCEL: std::cell::RefCell<Option<Arc<AtomicBool>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `flag` as the cancel flag of the long commands it runs on this thread
/// (`search`, `explore`, `verify`): setting it from another thread stops them between
/// batches. The command line has none (Ctrl-C ends the process); the Python package sets it
/// on a pending `KeyboardInterrupt`.
pub fn with_cancel<T>(flag: Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CANCEL.with(|c| *c.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(CANCEL.with(|c| c.borrow_mut().replace(flag)));
    f()
}

/// The cancel flag [`with_cancel`] set on this thread, if any.
pub fn cancel_flag() -> Option<Arc<AtomicBool>> {
    CANCEL.with(|c| c.borrow().clone())
}
