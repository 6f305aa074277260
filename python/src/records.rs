//! [`Records`]: the iterator over the JSONL records of a running `search` or `explore`,
//! fed by the command's worker thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use leontief::cli::CliError;
use leontief::workers::{quietly, with_cancel};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use serde_json::Value;

use crate::to_python::to_python;
use crate::{locked, py_error, SIGNAL_POLL};

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
    rx: Mutex<Receiver<Message>>,
    cancel: Arc<AtomicBool>,
    handle: Mutex<Option<JoinHandle<()>>>,
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
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let flag = cancel.clone();
        let handle = std::thread::spawn(move || {
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
            let result = with_cancel(flag, || quietly(|| work(&mut on_record, &ready)));
            let _ = tx.send(Message::Done(result));
        });
        let records = Records {
            rx: Mutex::new(rx),
            cancel,
            handle: Mutex::new(Some(handle)),
            summaries: Mutex::new(None),
            failure,
        };
        // The flags are validated before the work starts: their errors raise here.
        match records.wait(py)? {
            Some(Message::Ready) => Ok(records),
            Some(Message::Done(Err(e))) => {
                records.join(py);
                Err(py_error(e))
            }
            _ => Err(PyRuntimeError::new_err("internal error: no start")),
        }
    }

    /// The next message, honouring signals while waiting; `None` once the worker is gone.
    fn wait(&self, py: Python<'_>) -> PyResult<Option<Message>> {
        // Never block on the lock while holding the GIL: the holder waits without the GIL and
        // needs it back to finish.
        let mut rx = match self.rx.try_lock() {
            Ok(rx) => rx,
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => {
                return Err(PyRuntimeError::new_err(
                    "the records are being read by another thread",
                ))
            }
        };
        recv_or_signal(py, &mut rx, || self.close(py))
    }

    fn join(&self, py: Python<'_>) {
        let handle = locked(&self.handle).take();
        if let Some(h) = handle {
            py.detach(|| h.join()).ok();
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
            match self.wait(py)? {
                Some(Message::Record(v)) => return Ok(Some(to_python(py, None, &v)?)),
                Some(Message::Ready) => continue,
                Some(Message::Done(result)) => {
                    self.join(py);
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
        self.cancel.store(true, Ordering::Relaxed);
        self.join(py);
    }

    /// The summaries the CLI prints on standard error (one per property), once exhausted.
    #[getter]
    fn summaries(&self) -> Option<Vec<String>> {
        locked(&self.summaries).clone()
    }
}

impl Drop for Records {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The next value on `rx`, waited for without the GIL, checking for signals every
/// [`SIGNAL_POLL`]; `None` once the sender is gone. On a pending signal `stop` runs (it sets
/// the work's cancel flag and joins its thread: the commands stop between batches) and the
/// signal's exception (KeyboardInterrupt) is returned.
pub(crate) fn recv_or_signal<T: Send>(
    py: Python<'_>,
    rx: &mut Receiver<T>,
    stop: impl FnOnce(),
) -> PyResult<Option<T>> {
    loop {
        let r = &mut *rx;
        match py.detach(move || r.recv_timeout(SIGNAL_POLL)) {
            Ok(value) => return Ok(Some(value)),
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    stop();
                    return Err(e);
                }
            }
        }
    }
}
