//! The one thread-pool and progress setup of the commands that run in parallel (`verify`,
//! `search`).

use std::cell::RefCell;
use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::thread::LocalKey;

use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::CliError;

/// A rayon pool of `threads` workers (all cores when `None`; `Some(0)` is refused when the
/// flags are read, see [`crate::commands::flags::RunFlags`]).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    // 0: rayon's own choice, all cores (or RAYON_NUM_THREADS), as without the call.
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Internal(e.to_string()))
}

/// A progress display on standard error, hidden unless standard error is a terminal (so
/// that piped and tested runs print nothing but their answer and summary): a bar over
/// `total` steps, or a spinner when the total is unknown.
pub fn progress(total: Option<u64>) -> ProgressBar {
    if QUIET.with_borrow(|q| *q) || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template, default) = match total {
        Some(total) => (
            ProgressBar::new(total),
            "{bar:40} {pos}/{len}  {per_sec}  eta {eta}  {msg}",
            ProgressStyle::default_bar(),
        ),
        None => (
            ProgressBar::new_spinner(),
            "{spinner} {elapsed} {msg}",
            ProgressStyle::default_spinner(),
        ),
    };
    bar.set_style(ProgressStyle::with_template(template).unwrap_or(default));
    bar
}

std::thread_local! {
    /// Whether [`progress`] displays are hidden on this thread (see [`quietly`]).
    static QUIET: RefCell<bool> = const { RefCell::new(false) };
}

/// Runs `f` with every progress display hidden on this thread, whatever standard error is
/// (the Python package: a library call draws nothing).
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    with_local(&QUIET, true, f)
}

std::thread_local! {
    /// The cancel flag of the command running on this thread (see [`with_cancel`]).
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` with `flag` as the cancel flag of the long commands it runs on this thread
/// (`search`, `explore`, `verify`): setting it from another thread stops them between
/// batches. The command line has none (Ctrl-C ends the process); the Python package sets it
/// on a pending `KeyboardInterrupt`.
pub fn with_cancel<T>(flag: Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    with_local(&CANCEL, Some(flag), f)
}

/// Runs `f` with this thread's `key` set to `value`, the previous value restored after it
/// (also when `f` panics): the scoped settings of [`quietly`], [`with_cancel`] and
/// [`crate::cli::with_inputs`].
pub(crate) fn with_local<V: 'static, T>(
    key: &'static LocalKey<RefCell<V>>,
    value: V,
    f: impl FnOnce() -> T,
) -> T {
    struct Restore<V: 'static>(&'static LocalKey<RefCell<V>>, Option<V>);
    impl<V> Drop for Restore<V> {
        fn drop(&mut self) {
            if let Some(old) = self.1.take() {
                self.0.with(|c| *c.borrow_mut() = old);
            }
        }
    }
    let _restore = Restore(key, Some(key.with(|c| c.replace(value))));
    f()
}

/// The cancel flag [`with_cancel`] set on this thread, if any.
pub fn cancel_flag() -> Option<Arc<AtomicBool>> {
    CANCEL.with(|c| c.borrow().clone())
}
