//! The commands' worker threads: [`Worker`], a command run on its own thread that Ctrl-C
//! stops, and [`Records`], the iterator over the JSONL records of a running `search` or
//! `explore` that a worker feeds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, TryLockError};
use std::thread::JoinHandle;

use leontief::cli::CliError;
use leontief::workers::{quietly, with_cancel};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use serde_json::Value;

use crate::to_python::to_python;
use crate::{locked, py_error, SIGNAL_POLL};

/// A command's work on its own thread, under its own cancel flag
/// ([`leontief::workers::with_cancel`]) and with the progress display quiet, and the channel
/// of the messages it sends back. Dropping it sets the flag.
pub(crate) struct Worker<M> {
    rx: Mutex<Receiver<M>>,
    cancel: Arc<AtomicBool>,
    handle: Mutex<Option<JoinHandle<()>>>,
}

impl<M: Send + 'static> Worker<M> {
    /// Starts `work` on its thread, with the sender of its messages.
    pub(crate) fn spawn(work: impl FnOnce(Sender<M>) + Send + 'static) -> Worker<M> {
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let flag = cancel.clone();
        let handle = std::thread::spawn(move || with_cancel(flag, || quietly(|| work(tx))));
        Worker {
            rx: Mutex::new(rx),
            cancel,
            handle: Mutex::new(Some(handle)),
        }
    }

    /// The next message, waited for without the GIL, checking for signals every
    /// [`SIGNAL_POLL`]; `None` once the work is gone. On a pending signal the work is stopped
    /// ([`Worker::close`]: the commands stop between batches) and the signal's exception
    /// (KeyboardInterrupt) returned.
    pub(crate) fn wait(&self, py: Python<'_>) -> PyResult<Option<M>> {
        // Never block on the lock while holding the GIL: the holder waits without the GIL and
        // needs it back to finish.
        let mut rx = match self.rx.try_lock() {
            Ok(rx) => rx,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(PyRuntimeError::new_err(
                    "the records are being read by another thread",
                ))
            }
        };
        loop {
            let r = &mut *rx;
            match py.detach(move || r.recv_timeout(SIGNAL_POLL)) {
                Ok(message) => return Ok(Some(message)),
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.close(py);
                        return Err(e);
                    }
                }
            }
        }
    }

    /// Stops the work (between batches) and waits for its thread.
    pub(crate) fn close(&self, py: Python<'_>) {
        self.cancel.store(true, Ordering::Relaxed);
        let handle = locked(&self.handle).take();
        if let Some(h) = handle {
            py.detach(|| h.join()).ok();
        }
    }
}

impl<M> Drop for Worker<M> {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

enum Message {
    Ready,
    Record(Value),
    Done(Result<Vec<String>, CliError>),
}

/// The records of a running `search` or `explore`, in the order the command writes them;
/// the command runs on a worker thread and stops when the iterator is closed, dropped or
/// interrupted (Ctrl-C while waiting raises `KeyboardInterrupt` and stops it).
#[pyclass(module = "leontief._leontief")]
pub(crate) struct Records {
    worker: Worker<Message>,
    summaries: Mutex<Option<Vec<String>>>,
    /// A Python exception the work ran into (in a callable it was given), raised in place of
    /// the work's own error.
    failure: Arc<Mutex<Option<PyErr>>>,
}

/// Where a command's records go: `on_record` for each record, `ready` once its flags are
/// validated.
pub(crate) type OnRecord<'a> = &'a mut (dyn FnMut(&Value) -> std::io::Result<()> + Send);
pub(crate) type Ready<'a> = &'a dyn Fn() -> Result<(), CliError>;

impl Records {
    /// Starts `work` on its thread, its records and readiness sent to the iterator, with
    /// `failure` (a Python exception the work ran into, in a callable it was given) raised in
    /// place of the work's error when set.
    pub(crate) fn start(
        py: Python<'_>,
        failure: Arc<Mutex<Option<PyErr>>>,
        work: impl FnOnce(OnRecord<'_>, Ready<'_>) -> Result<Vec<String>, CliError> + Send + 'static,
    ) -> PyResult<Records> {
        let worker = Worker::spawn(move |tx| {
            let records = tx.clone();
            let mut on_record = move |v: &Value| {
                records
                    .send(Message::Record(v.clone()))
                    .map_err(|_| std::io::Error::other("the iterator was dropped"))
            };
            let ready = || {
                let _ = tx.send(Message::Ready);
                Ok(())
            };
            let result = work(&mut on_record, &ready);
            let _ = tx.send(Message::Done(result));
        });
        // The flags are validated before the work starts: their errors raise here.
        match worker.wait(py)? {
            Some(Message::Ready) => Ok(Records {
                worker,
                summaries: Mutex::new(None),
                failure,
            }),
            Some(Message::Done(Err(e))) => {
                worker.close(py);
                Err(py_error(e))
            }
            _ => Err(PyRuntimeError::new_err("internal error: no start")),
        }
    }
}

#[pymethods]
impl Records {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        loop {
            match self.worker.wait(py)? {
                Some(Message::Record(v)) => return Ok(Some(to_python(py, &v)?)),
                Some(Message::Ready) => continue,
                Some(Message::Done(result)) => {
                    self.worker.close(py);
                    if let Some(e) = locked(&self.failure).take() {
                        return Err(e);
                    }
                    *locked(&self.summaries) = Some(result.map_err(py_error)?);
                    return Ok(None);
                }
                None => return Ok(None),
            }
        }
    }

    /// Stops the command (between batches) and waits for its thread.
    fn close(&self, py: Python<'_>) {
        self.worker.close(py);
    }

    /// The summaries the CLI prints on standard error (one per property), once exhausted.
    #[getter]
    fn summaries(&self) -> Option<Vec<String>> {
        locked(&self.summaries).clone()
    }
}

/// Calls Python from a command's thread: an exception is kept in `failure` (the first one, to
/// be raised in place of the command's own error) and its text returned.
pub(crate) fn call_python<T>(
    failure: &Mutex<Option<PyErr>>,
    call: impl FnOnce(Python<'_>) -> PyResult<T>,
) -> Result<T, String> {
    Python::attach(|py| {
        call(py).map_err(|e| {
            let text = e.to_string();
            locked(failure).get_or_insert(e);
            text
        })
    })
}
