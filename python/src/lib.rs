//! `fieldscope._native`: the Python package's compiled part (PyO3, abi3).
//!
//! Owns: reading the inputs the Python layer (`fieldscope/__init__.py`)
//! hands over — each file as `(kind, name, payload)`: a `path`, `bytes`,
//! `records` (a list of dicts), `frame` (a DataFrame's rows) or `id_map`
//! (a dict id → record) — into the main crate's records and configuration,
//! then calling the main crate's API: [`fieldscope::pipeline`] for reports,
//! sweeps and figures (the very functions `fieldscope eval`, `sweep` and
//! `figures` call, so every number and every byte of every format is the
//! CLI's), the partial results of `shards` (`learn`, `evaluate_partial`,
//! `merge`) and [`fieldscope::cli::run`] for the `fieldscope` command. It
//! converts; it computes nothing. Files are read, parsed and evaluated with
//! the GIL released; a panic becomes `RuntimeError` ([`errors::guard`]).
//!
//! Depends on: the main crate, pyo3, serde_json. Never on pandas (the
//! Python layer turns a DataFrame into rows).

mod convert;
mod errors;
mod shards;

use convert::Rules;
use errors::{guard, to_py};
use fieldscope::charts::PaperSize;
use fieldscope::eval::literature::Metrics;
use fieldscope::eval::sweep::{sweep as run_sweep, SweepParam, SweepReport};
use fieldscope::eval::{
    schema_stem, Config, ConfigBuilder, DocFile, EvalInput, ModelInput, NamedSchema, Preset,
};
use fieldscope::export::Format;
use fieldscope::pipeline::{
    evaluate_report, figure_files, render_sweep, FigureOptions, ReportOptions,
};
use fieldscope::{Error, ErrorKind};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use serde_json::Value;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Runs `f` with the GIL released; its error becomes a Python exception
/// afterwards, a panic a `RuntimeError`.
fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, Error> + Send) -> PyResult<T> {
    py.detach(|| guard(|| Ok(f())))?.map_err(|e| to_py(py, e))
}

/// The CLI's reading of a file (the same error when it cannot be read).
fn read_file(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| {
        Error::new(ErrorKind::Io, format!("cannot read the file: {e}"))
            .in_file(path.display().to_string())
    })
}

/// One records file as `(kind, name, payload)`, read into a forest.
fn load_file(py: Python<'_>, spec: &Bound<'_, PyAny>) -> PyResult<DocFile> {
    let (kind, name, payload): (String, String, Bound<'_, PyAny>) = spec.extract()?;
    let rules = Rules {
        missing_is_null: kind == "frame",
    };
    let records = match kind.as_str() {
        "path" => {
            let path: PathBuf = payload.extract()?;
            return detached(py, || fieldscope::io::parse_docs(&name, &read_file(&path)?));
        }
        "bytes" => {
            let bytes = payload.cast::<PyBytes>()?.as_bytes().to_vec();
            return detached(py, || fieldscope::io::parse_docs(&name, &bytes));
        }
        "records" | "frame" => convert::records_of_list(&payload, &name, rules),
        "id_map" => convert::records_of_id_map(payload.cast::<PyDict>()?, &name, rules),
        other => {
            return Err(PyValueError::new_err(format!(
                "internal: unknown input kind {other:?}"
            )))
        }
    }
    .map_err(|e| to_py(py, e))?;
    detached(py, || {
        DocFile::from_records(&records)
            .map_err(|e| Error::new(ErrorKind::Input, e.to_string()).in_file(records.name.clone()))
    })
}

/// A JSON document (schema, config) as `("path", name, path)` or
/// `("value", what, object)`; the file's name when it is a file.
fn load_document(py: Python<'_>, spec: &Bound<'_, PyAny>) -> PyResult<(Value, Option<String>)> {
    let (kind, name, payload): (String, String, Bound<'_, PyAny>) = spec.extract()?;
    if kind == "path" {
        let path: PathBuf = payload.extract()?;
        let value = detached(py, || {
            fieldscope::io::parse_json_value(&name, &read_file(&path)?)
        })?;
        Ok((value, Some(name)))
    } else {
        let value = convert::document(&payload, &name).map_err(|e| to_py(py, e))?;
        Ok((value, None))
    }
}

/// Everything one evaluation reads, loaded in the CLI's order (config,
/// preset, truth, schema, predictions, costs), so the first error is the
/// CLI's; and the schema file's name, for its errors.
struct Loaded {
    config: Config,
    input: EvalInput<DocFile>,
    schema_file: SchemaFiles,
}

/// The files the schemas came from (for their errors): the one schema's,
/// or each of several schemas' by name (SPEC §7.2); `None` for a schema
/// given as a value.
#[derive(Default)]
struct SchemaFiles {
    one: Option<String>,
    several: Vec<(String, Option<String>)>,
}

/// A schema error names the schema file, as the CLI's does.
fn schema_error(schema_file: &SchemaFiles, e: Error) -> Error {
    if e.kind != ErrorKind::Schema {
        return e;
    }
    if let Some(name) = &schema_file.one {
        return e.in_file(name.clone());
    }
    let file = schema_file
        .several
        .iter()
        .find(|(stem, _)| e.file.as_deref() == Some(stem.as_str()))
        .and_then(|(_, file)| file.clone());
    match file {
        Some(file) => e.in_file(file),
        None => e,
    }
}

/// `schema`: `None`, one document spec (`(kind, name, payload)`), or a
/// list of `(name or None, spec)` for several schemas (SPEC §7.2; `None`:
/// the file stem of the spec's path).
fn load_schemas(
    py: Python<'_>,
    schema: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Option<Value>, Vec<NamedSchema>, SchemaFiles)> {
    let Some(spec) = schema else {
        return Ok((None, Vec::new(), SchemaFiles::default()));
    };
    if let Ok(list) = spec.cast::<PyList>() {
        let mut schemas = Vec::with_capacity(list.len());
        let mut files = SchemaFiles::default();
        for item in list.iter() {
            let (name, spec): (Option<String>, Bound<'_, PyAny>) = item.extract()?;
            let (value, file) = load_document(py, &spec)?;
            let name = match (name, &file) {
                (Some(name), _) => name,
                (None, Some(file)) => schema_stem(file),
                (None, None) => {
                    return Err(PyValueError::new_err(
                        "schema: a schema given as a value needs a name",
                    ))
                }
            };
            files.several.push((name.clone(), file));
            schemas.push(NamedSchema::new(name, value));
        }
        let mut seen = std::collections::HashSet::new();
        for s in &schemas {
            if !seen.insert(s.name.as_str()) {
                return Err(PyValueError::new_err(format!(
                    "schema: two schemas are named {:?}; a schema is named by its file stem (or its key), so give each a distinct one",
                    s.name
                )));
            }
        }
        if schemas.len() == 1 {
            // One schema is the whole dataset's (SPEC §1.2).
            let one = schemas.pop().map(|s| s.schema);
            let one_file = files.several.pop().and_then(|(_, f)| f);
            return Ok((
                one,
                Vec::new(),
                SchemaFiles {
                    one: one_file,
                    several: Vec::new(),
                },
            ));
        }
        return Ok((None, schemas, files));
    }
    let (value, file) = load_document(py, spec)?;
    Ok((
        Some(value),
        Vec::new(),
        SchemaFiles {
            one: file,
            several: Vec::new(),
        },
    ))
}

/// The inputs every evaluating function takes, as the Python side passes
/// them: one tuple `(truth, models, schema, config, preset, costs)`
/// (`fieldscope._common`).
#[derive(FromPyObject)]
pub(crate) struct Inputs<'py>(
    Bound<'py, PyAny>,
    Vec<(String, Bound<'py, PyAny>)>,
    Option<Bound<'py, PyAny>>,
    Option<Bound<'py, PyAny>>,
    Option<String>,
    Vec<(String, f64)>,
);

/// Reads the [`Inputs`] and builds the config from its layers: the config,
/// `schema_by`, then `layer` (the JSON text of a dict the Python side made:
/// `app_url`, the field types of applied suggestions), checked as a config
/// file's layer is, then the preset.
fn load(
    py: Python<'_>,
    inputs: Inputs<'_>,
    schema_by: Option<&str>,
    layer: Option<&str>,
) -> PyResult<Loaded> {
    let Inputs(truth, models, schema, config, preset, costs) = inputs;
    let (truth, schema, config, preset) =
        (&truth, schema.as_ref(), config.as_ref(), preset.as_deref());
    let mut builder = ConfigBuilder::new();
    if let Some(spec) = config {
        let (value, file) = load_document(py, spec)?;
        builder = builder
            .layer(&value)
            .map_err(|e| match file {
                Some(name) => e.in_file(name),
                None => e,
            })
            .map_err(|e| to_py(py, e))?;
    }
    if let Some(key) = schema_by {
        if key.trim().is_empty() {
            return Err(PyValueError::new_err(
                "schema_by: expected \"id\" or the name of a top-level truth field",
            ));
        }
        builder = builder
            .layer(&serde_json::json!({ "schema_by": key.trim() }))
            .map_err(|e| to_py(py, e))?;
    }
    if let Some(layer) = layer {
        let value: serde_json::Value = serde_json::from_str(layer)
            .map_err(|e| PyValueError::new_err(format!("config layer: {e}")))?;
        builder = builder.layer(&value).map_err(|e| to_py(py, e))?;
    }
    if let Some(name) = preset {
        let preset = Preset::parse(name)
            .map_err(|e| PyValueError::new_err(format!("preset: {}", e.message)))?;
        builder = builder.preset(preset);
    }
    let config = builder.build().map_err(|e| to_py(py, e))?;
    let truth = load_file(py, truth)?;
    let (schema, schemas, schema_file) = load_schemas(py, schema)?;
    if schemas.len() > 1 && config.schema_by.is_none() {
        return Err(PyValueError::new_err(format!(
            "schema: {} schemas are given but not how a document picks its own: pass schema_by=\"id\" (a document's id is its schema's name) or schema_by=FIELD (a top-level truth field whose value is the name), or set schema_by in the config (SPEC §7.2)",
            schemas.len()
        )));
    }
    let mut inputs = Vec::with_capacity(models.len());
    for (name, spec) in &models {
        inputs.push(ModelInput::new(name.clone(), load_file(py, spec)?));
    }
    for (name, cost) in costs {
        let names: Vec<&str> = inputs.iter().map(|m| m.name.as_str()).collect();
        let listed = names.join(", ");
        let Some(model) = inputs.iter_mut().find(|m| m.name == name) else {
            return Err(PyValueError::new_err(format!(
                "costs: no model is named {name:?}; the models are: {listed}"
            )));
        };
        model.cost = Some(cost);
    }
    Ok(Loaded {
        config,
        input: EvalInput {
            truth,
            models: inputs,
            schema,
            schemas,
        },
        schema_file,
    })
}

/// A report, as the main crate computed it.
#[pyclass(frozen, module = "fieldscope._native", name = "NativeReport")]
struct NativeReport {
    report: fieldscope::eval::Report,
    /// With several schemas, the document types the HTML and Markdown
    /// reports group by (as `fieldscope eval` reads them).
    types: Option<fieldscope::eval::groups::DocTypes>,
}

/// With several schemas (SPEC §7.2), each schema's documents and fields
/// (`eval::groups::DocTypes`), as the command line reads them; `None`
/// otherwise or when the truth cannot say (the evaluation then reports why).
fn doc_types(
    input: &EvalInput<DocFile>,
    config: &Config,
) -> Option<fieldscope::eval::groups::DocTypes> {
    let by = config.schema_by.as_deref()?;
    if input.schemas.len() < 2 {
        return None;
    }
    let chosen = fieldscope::eval::documents_by_schema(
        input.truth.clone(),
        config.id_field.as_deref(),
        &input.schemas,
        by,
    )
    .ok()?;
    let choices: Vec<Option<usize>> = chosen.into_iter().map(|(_, c)| c).collect();
    Some(fieldscope::eval::groups::DocTypes::of(
        &input.schemas,
        &choices,
    ))
}

impl NativeReport {
    fn include(&self) -> fieldscope::export::HtmlInclude {
        fieldscope::export::HtmlInclude {
            types: self.types.clone(),
            ..Default::default()
        }
    }
}

#[pymethods]
impl NativeReport {
    /// The report in `format` (json, markdown, latex, csv or html), as
    /// `fieldscope eval --format FORMAT` prints it.
    fn render(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let format: Format = format.parse().map_err(|e| to_py(py, e))?;
        py.detach(|| {
            guard(|| {
                Ok(fieldscope::pipeline::render_report_including(
                    &self.report,
                    format,
                    &self.include(),
                ))
            })
        })
    }

    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.report.warnings.clone()
    }

    /// The report's suggestions (SPEC §7.4) as JSON text: a list of
    /// `{"field", "type", "share", "config"}`.
    #[getter]
    fn suggestions(&self) -> String {
        serde_json::to_string(&self.report.suggestions).unwrap_or_else(|_| "[]".into())
    }

    /// The HTML report as a fragment for a notebook (`_repr_html_`): one
    /// `<div class="fieldscope-report">` whose style applies only inside it.
    fn render_fragment(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| {
            guard(|| {
                Ok(fieldscope::export::page::render_fragment(
                    &self.report,
                    &fieldscope::export::ExportOptions::default(),
                    &self.include(),
                ))
            })
        })
    }

    #[getter]
    fn models(&self) -> Vec<String> {
        self.report.models.iter().map(|m| m.name.clone()).collect()
    }

    #[getter]
    fn documents(&self) -> usize {
        self.report.documents
    }
}

/// A threshold sweep, as the main crate computed it.
#[pyclass(frozen, module = "fieldscope._native", name = "NativeSweep")]
struct NativeSweep {
    report: SweepReport,
}

#[pymethods]
impl NativeSweep {
    /// The table in `format` (json, markdown, latex or csv), as
    /// `fieldscope sweep --format FORMAT` prints it.
    fn render(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let format: Format = format.parse().map_err(|e| to_py(py, e))?;
        if format == Format::Html {
            return Err(PyValueError::new_err(
                "format: a sweep renders as json, markdown, latex or csv",
            ));
        }
        py.detach(|| guard(|| Ok(render_sweep(&self.report, format))))
    }
}

/// Corrections (SPEC §9.3) as `("path", name, path)` or `("value", what,
/// list)`: the corrections file's name (`<corrections>` for a list) and
/// its corrections.
fn load_corrections(
    py: Python<'_>,
    spec: &Bound<'_, PyAny>,
) -> PyResult<(String, Vec<fieldscope::eval::corrections::Correction>)> {
    let (value, file) = load_document(py, spec)?;
    let name = file.unwrap_or_else(|| "<corrections>".to_string());
    let list = fieldscope::eval::corrections::parse_corrections(&name, &value)
        .map_err(|e| to_py(py, e))?;
    Ok((name, list))
}

/// The truth with corrections applied, as `eval --corrections` reads it:
/// a file (or its bytes) corrected in its own shape and parsed again
/// (`io::correct_bytes`), records given as values corrected in place
/// (`eval::corrections::correct_records`); and the warnings, one per
/// correction applied.
fn corrected_truth(
    py: Python<'_>,
    spec: &Bound<'_, PyAny>,
    loaded: DocFile,
    corrections: &(String, Vec<fieldscope::eval::corrections::Correction>),
    config: &Config,
) -> PyResult<(DocFile, Vec<String>)> {
    let (kind, name, payload): (String, String, Bound<'_, PyAny>) = spec.extract()?;
    let bytes = match kind.as_str() {
        "path" => {
            let path: PathBuf = payload.extract()?;
            Some(detached(py, || read_file(&path))?)
        }
        "bytes" => Some(payload.cast::<PyBytes>()?.as_bytes().to_vec()),
        _ => None,
    };
    let (file, list) = (&corrections.0, &corrections.1);
    detached(py, move || match bytes {
        Some(bytes) => {
            let c = fieldscope::io::correct_bytes(&name, &bytes, list, file, config)?;
            Ok((fieldscope::io::parse_docs(&name, &c.bytes)?, c.warnings))
        }
        None => {
            let mut records = loaded.to_records();
            let (_, warnings) =
                fieldscope::eval::corrections::correct_records(&mut records, list, file, config)?;
            let doc = DocFile::from_records(&records).map_err(|e| {
                Error::new(ErrorKind::Input, e.to_string()).in_file(records.name.clone())
            })?;
            Ok((doc, warnings))
        }
    })
}

/// `fieldscope eval`: the report of `truth` against each model.
#[pyfunction]
#[pyo3(signature = (inputs, details, bootstrap, seed, alpha, metrics, schema_by=None, layer=None, corrections=None))]
#[allow(clippy::too_many_arguments)]
fn evaluate(
    py: Python<'_>,
    inputs: Inputs<'_>,
    details: bool,
    bootstrap: Option<usize>,
    seed: u64,
    alpha: f64,
    metrics: Option<&str>,
    schema_by: Option<&str>,
    layer: Option<&str>,
    corrections: Option<&Bound<'_, PyAny>>,
) -> PyResult<NativeReport> {
    guard(|| {
        let corrections = corrections.map(|c| load_corrections(py, c)).transpose()?;
        let metrics = match metrics {
            Some(list) => Metrics::parse(list).map_err(|e| to_py(py, e))?,
            None => Metrics::default(),
        };
        let options = ReportOptions {
            details,
            metrics,
            bootstrap,
            seed,
            alpha,
            compare: None,
        };
        let truth = inputs.0.clone();
        let Loaded {
            config,
            mut input,
            schema_file,
        } = load(py, inputs, schema_by, layer)?;
        let mut applied = Vec::new();
        if let Some(corrections) = &corrections {
            let loaded = std::mem::take(&mut input.truth);
            let (doc, warnings) = corrected_truth(py, &truth, loaded, corrections, &config)?;
            input.truth = doc;
            applied = warnings;
        }
        let types = doc_types(&input, &config);
        let mut report = detached(py, move || {
            evaluate_report(input, &config, &options).map_err(|e| schema_error(&schema_file, e))
        })?;
        report.warnings.splice(0..0, applied);
        Ok(NativeReport { report, types })
    })
}

/// `fieldscope sweep`: one evaluation per value of one threshold.
#[pyfunction]
#[pyo3(signature = (inputs, param, values, schema_by=None))]
fn sweep(
    py: Python<'_>,
    inputs: Inputs<'_>,
    param: &str,
    values: Option<Vec<f64>>,
    schema_by: Option<&str>,
) -> PyResult<NativeSweep> {
    guard(|| {
        let param = SweepParam::parse(param)
            .map_err(|e| PyValueError::new_err(format!("param: {}", e.message)))?;
        let values = values.unwrap_or_else(fieldscope::eval::sweep::default_values);
        let loaded = load(py, inputs, schema_by, None)?;
        let report = detached(py, || {
            run_sweep(&loaded.input, &loaded.config, param, &values)
                .map_err(|e| schema_error(&loaded.schema_file, e))
        })?;
        Ok(NativeSweep { report })
    })
}

/// `fieldscope figures`: writes every figure into `out_dir` (created if
/// missing); returns the files written and the evaluation's warnings.
#[pyfunction]
#[pyo3(signature = (inputs, out_dir, size, pdf, svg, values, schema_by=None))]
#[allow(clippy::too_many_arguments)]
fn figures(
    py: Python<'_>,
    inputs: Inputs<'_>,
    out_dir: PathBuf,
    size: &str,
    pdf: bool,
    svg: bool,
    values: Option<Vec<f64>>,
    schema_by: Option<&str>,
) -> PyResult<(Vec<PathBuf>, Vec<String>)> {
    guard(|| {
        let size = match size {
            "column" => PaperSize::SingleColumn,
            "full" => PaperSize::FullWidth,
            other => {
                return Err(PyValueError::new_err(format!(
                    "size: {other:?}; expected \"column\" (3.3 in) or \"full\" (7 in)"
                )))
            }
        };
        let values = values.unwrap_or_else(fieldscope::eval::sweep::default_values);
        let Loaded {
            config,
            input,
            schema_file,
        } = load(py, inputs, schema_by, None)?;
        let options = FigureOptions {
            size,
            pdf,
            svg,
            values,
        };
        detached(py, move || {
            let (files, warnings) = figure_files(input, &config, &options)
                .map_err(|e| schema_error(&schema_file, e))?;
            std::fs::create_dir_all(&out_dir).map_err(|e| {
                Error::new(ErrorKind::Io, format!("cannot create the directory: {e}"))
                    .in_file(out_dir.display().to_string())
            })?;
            let mut written = Vec::with_capacity(files.len());
            for (name, bytes) in &files {
                let path = out_dir.join(name);
                std::fs::write(&path, bytes).map_err(|e| {
                    Error::new(ErrorKind::Io, format!("cannot write the file: {e}"))
                        .in_file(path.display().to_string())
                })?;
                written.push(path);
            }
            Ok((written, warnings))
        })
    })
}

/// The `fieldscope` command: runs [`fieldscope::cli::run`] with `args`
/// (the program name first) and returns the exit status and what it wrote
/// to standard output and standard error.
#[pyfunction]
fn run_cli(py: Python<'_>, args: Vec<OsString>) -> PyResult<(i32, Py<PyBytes>, Py<PyBytes>)> {
    let (code, out, err) = py.detach(|| {
        guard(|| {
            let mut out = Vec::new();
            let mut err = Vec::new();
            let code = fieldscope::cli::run(args, &mut out, &mut err);
            Ok((code, out, err))
        })
    })?;
    Ok((
        code,
        PyBytes::new(py, &out).unbind(),
        PyBytes::new(py, &err).unbind(),
    ))
}

/// For the test suite: panics inside, to show that a panic becomes a
/// `RuntimeError` (and that the GIL is taken back).
#[pyfunction]
fn _panic_for_tests(py: Python<'_>) -> PyResult<()> {
    py.detach(|| guard(|| -> PyResult<()> { panic!("a test of the panic guard") }))
}

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeReport>()?;
    m.add_class::<NativeSweep>()?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(figures, m)?)?;
    m.add_function(wrap_pyfunction!(shards::learn, m)?)?;
    m.add_function(wrap_pyfunction!(shards::evaluate_partial, m)?)?;
    m.add_function(wrap_pyfunction!(shards::merge, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    // The per-model rates' report keys, as `fieldscope::eval::rates`
    // declares them (the models frame's columns).
    let rates: Vec<&str> = fieldscope::eval::rates::RATES
        .iter()
        .map(|r| r.key)
        .collect();
    m.add("RATE_KEYS", rates)?;
    Ok(())
}
