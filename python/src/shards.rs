//! `fieldscope.learn`, `fieldscope.evaluate_partial` and
//! `fieldscope.merge`: an evaluation split over shards of the documents
//! (on Dask, Spark, Ray or plain processes) and merged into the report one
//! evaluation of all of them gives (docs/partial-results.md).
//!
//! Owns: converting these three calls' arguments and calling the main
//! crate's API: [`fieldscope::eval::evaluate::learn`],
//! [`fieldscope::eval::evaluate::evaluate_partial`] (the bytes
//! `fieldscope learn --out` and `fieldscope eval --partial` write) and
//! [`fieldscope::pipeline::merge_report`] (what `fieldscope merge` prints).
//! Computes nothing; runs with the GIL released.
//!
//! Depends on: the crate root's loading ([`crate::load`]), the main crate,
//! pyo3.

use crate::errors::guard;
use crate::{detached, load, schema_error, Inputs, Loaded, NativeReport};
use fieldscope::eval::evaluate::{
    evaluate_partial as partial, learn as learn_fields, read_learned,
};
use fieldscope::pipeline::{merge_report, ReportOptions};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// `fieldscope learn`: what the passes before the comparison learn of
/// every document, as the learned-fields file's bytes.
#[pyfunction]
#[pyo3(signature = (inputs, schema_by=None))]
pub fn learn(py: Python<'_>, inputs: Inputs<'_>, schema_by: Option<&str>) -> PyResult<Py<PyBytes>> {
    guard(|| {
        let Loaded {
            config,
            input,
            schema_file,
        } = load(py, inputs, schema_by, None)?;
        let bytes = detached(py, move || {
            learn_fields(input, &config)
                .map(|learned| learned.to_bytes())
                .map_err(|e| schema_error(&schema_file, e))
        })?;
        Ok(PyBytes::new(py, &bytes).unbind())
    })
}

/// `fieldscope eval --partial`: this shard's partial result, as the
/// file's bytes; `learned` is `(name, bytes)` of a learned-fields file.
#[pyfunction]
#[pyo3(signature = (inputs, learned, details, schema_by=None))]
pub fn evaluate_partial(
    py: Python<'_>,
    inputs: Inputs<'_>,
    learned: Option<(String, Bound<'_, PyBytes>)>,
    details: bool,
    schema_by: Option<&str>,
) -> PyResult<Py<PyBytes>> {
    guard(|| {
        let learned = learned.map(|(name, bytes)| (name, bytes.as_bytes().to_vec()));
        let Loaded {
            config,
            input,
            schema_file,
        } = load(py, inputs, schema_by, None)?;
        let bytes = detached(py, move || {
            let learned = match &learned {
                Some((name, bytes)) => Some(read_learned(name, bytes)?),
                None => None,
            };
            partial(input, &config, learned.as_ref(), details)
                .map_err(|e| schema_error(&schema_file, e))
        })?;
        Ok(PyBytes::new(py, &bytes).unbind())
    })
}

/// `fieldscope merge`: the report of every partial's documents;
/// `partials` are `(name, bytes)` in the order their documents follow
/// each other.
#[pyfunction]
#[pyo3(signature = (partials, details, bootstrap, seed, alpha))]
pub fn merge(
    py: Python<'_>,
    partials: Vec<(String, Bound<'_, PyBytes>)>,
    details: bool,
    bootstrap: Option<usize>,
    seed: u64,
    alpha: f64,
) -> PyResult<NativeReport> {
    guard(|| {
        let partials: Vec<(String, Vec<u8>)> = partials
            .into_iter()
            .map(|(name, bytes)| (name, bytes.as_bytes().to_vec()))
            .collect();
        let options = ReportOptions {
            details,
            bootstrap,
            seed,
            alpha,
            ..ReportOptions::default()
        };
        let report = detached(py, move || {
            let refs: Vec<(&str, &[u8])> = partials
                .iter()
                .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
                .collect();
            merge_report(&refs, &options)
        })?;
        Ok(NativeReport {
            report,
            types: None,
        })
    })
}
