//! # fieldscope
//!
//! How well does a model extract structured data? fieldscope compares a
//! ground-truth file with one prediction file per model and reports
//! precision, recall, F1 and accuracy (micro and macro), match categories,
//! CER, line-item matching and the document-level scores, exactly as
//! `SPEC.md` defines them.
//!
//! ## A tour
//!
//! * [`io`] turns bytes into records: JSON arrays, JSON id maps, JSONL and
//!   CSV; UTF-8 is checked, a BOM skipped, text NFC-normalised. Errors name
//!   file, line and column.
//! * [`eval`] is the pure core: no I/O, no web, no plotting. Give it the
//!   records, an optional JSON Schema and a [`eval::Config`]; it returns an
//!   [`eval::Report`] whose JSON form is the contract of SPEC §5.
//! * [`export`] renders a report as JSON, Markdown, LaTeX, CSV or one
//!   self-contained HTML page (no script, nothing loaded from elsewhere).
//! * [`charts`] renders a report as standalone SVG figures for papers
//!   (scores, outcomes, per-field F1, value counts, CER, line items), each
//!   with a caption naming the metric and the average.
//! * [`synth`] generates realistic synthetic data — invoices, the
//!   predictions of three contrasting model profiles, a schema — from a seed,
//!   for benchmarks, tests and demos. Pure: it returns strings.
//! * [`pipeline`] is one evaluation as `fieldscope eval` runs it (the
//!   literature metrics, the bootstrap, the rendering), and the files of
//!   `fieldscope figures`: shared by the command-line tool and the Python
//!   package (`python/`), so both print the same bytes.
//! * The `fieldscope` binary is the command-line tool: `fieldscope eval
//!   --truth T --pred NAME=P …`.
//!
//! ```
//! use fieldscope::{eval, io};
//! let truth = io::parse_records("truth.jsonl", br#"{"id":"a","total":10}"#).unwrap();
//! let pred = io::parse_records("m.jsonl", br#"{"id":"a","total":"10.00"}"#).unwrap();
//! let input = eval::EvalInput {
//!     truth,
//!     models: vec![eval::ModelInput::new("m", pred)],
//!     schema: None,
//!     schemas: Vec::new(),
//! };
//! let report = eval::evaluate(&input, &eval::Config::default(), false).unwrap();
//! assert_eq!(report.models[0].micro.f1, 1.0);
//! ```

#[cfg(all(target_arch = "wasm32", feature = "page"))]
pub mod app;
pub mod charts;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod diff;
pub mod error;
pub mod escape;
pub mod eval;
pub mod export;
pub mod io;
pub mod matrix_view;
#[cfg(not(target_arch = "wasm32"))]
pub mod pipeline;
pub mod protocol;
pub mod report_state;
pub mod service;
pub mod session;
pub mod synth;
#[cfg(target_arch = "wasm32")]
pub mod worker;

pub use error::{Error, ErrorKind};
