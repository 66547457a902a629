//! The main crate's errors and panics as Python exceptions.
//!
//! Owns: [`to_py`] ([`Error`] → `fieldscope.InputError`, `ValueError` or
//! `OSError`) and [`guard`] (a Rust panic → `RuntimeError`, never an abort
//! and never PyO3's `PanicException`, which is not an `Exception`).
//!
//! Which class: an error about input data — its encoding, syntax or shape,
//! inconsistent inputs, an invalid JSON Schema, or any error that names a
//! file (a config file's bad key included) — is `fieldscope.InputError`
//! (a `ValueError` carrying `.path`, `.line`, `.column`, `.record`; its
//! message is the CLI's, after `error: `). A bad configuration key or
//! value given as a dict, or a bad argument, is a plain `ValueError` whose
//! message names the key. A file that cannot be read is an `OSError`.

use fieldscope::{Error, ErrorKind};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// `error` as the Python exception its kind calls for.
pub fn to_py(py: Python<'_>, error: Error) -> PyErr {
    let message = error.to_string();
    let input = error.file.is_some()
        || matches!(
            error.kind,
            ErrorKind::Encoding
                | ErrorKind::Syntax
                | ErrorKind::Shape
                | ErrorKind::Input
                | ErrorKind::Schema
        );
    match error.kind {
        ErrorKind::Io => PyOSError::new_err(message),
        _ if input => match input_error(py, &error, &message) {
            Ok(e) => e,
            Err(e) => e,
        },
        _ => PyValueError::new_err(message),
    }
}

/// `fieldscope.InputError(message, path=…, line=…, column=…, record=…)`.
fn input_error(py: Python<'_>, error: &Error, message: &str) -> PyResult<PyErr> {
    let class = py.import("fieldscope._errors")?.getattr("InputError")?;
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("path", error.file.as_deref())?;
    kwargs.set_item("line", error.line)?;
    kwargs.set_item("column", error.column)?;
    kwargs.set_item("record", error.record.as_deref())?;
    let instance = class.call((message,), Some(&kwargs))?;
    Ok(PyErr::from_value(instance))
}

/// Runs `f`, turning a panic into `RuntimeError` (with the panic's
/// message). Use it inside `Python::detach` too, so that no panic crosses
/// the boundary.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            Err(PyRuntimeError::new_err(format!(
                "fieldscope failed inside (a Rust panic: {what}); please report it with the input that caused it"
            )))
        }
    }
}
