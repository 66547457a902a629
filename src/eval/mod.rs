//! The evaluation core: every rule and score of SPEC.md.
//!
//! Invariant: this module does no I/O and knows no web, UI or plotting
//! types (no `std::fs`, `std::net`, `web_sys`, `leptos`, `plotters`); a test
//! in `tests/suite/architecture.rs` enforces it. Everything else in the crate
//! calls it; it calls nothing outside `crate::error`.
//!
//! Map:
//! * [`config`] — SPEC §4: defaults, presets, layers, validation.
//! * [`dataset`] — SPEC §1.1, §1.3: ids, matching, raw model output, cost.
//! * [`paths`] — SPEC §1.2: flattening, kinds, what a schema says.
//! * [`normalize`] — SPEC §1.4, §2.1: absent values, strings, numbers, dates.
//! * [`distance`] — SPEC §2.2: Levenshtein, similarity, CER counts.
//! * [`compare`] — SPEC §2.3: the outcome of one pair.
//! * [`error_types`] — SPEC §9.1: why an outcome is not exact.
//! * [`counts`] — SPEC §3.1–§3.2: counts and every ratio from them.
//! * [`sets`] — SPEC §3.3 (M1); [`items`] — SPEC §3.4 (M3).
//! * [`evaluate`] — the whole pass; [`report`] — SPEC §5's structs.
//! * [`validate`] — SPEC §3.5's schema validity, on forest values.
//! * [`literature`] — beside the spec: ANLS\*, Donut's nTED and field F1,
//!   as their reference implementations compute them.
//! * [`model`], [`tree`] — the records: `serde_json` objects, or one
//!   compact forest per file.
//! * [`groups`] — beside the spec: the field matrix, groups of fields and
//!   the by-type table of wide reports (presentation, from the report).
//! * [`gate`] — beside the spec: `fieldscope gate`'s thresholds, one-sided
//!   no-regression tests and flipped documents.
//! * [`confidence_input`] — SPEC §8.1: confidences checked, and read
//!   beside the fields; [`confidence`] — SPEC §8.3–§8.4: the scores over
//!   (confidence, correct) pairs.
//! * [`audit`] — SPEC §9.3: suspected truth errors, where the models
//!   agree with each other and not with the truth.
//! * [`slices`] — SPEC §9.2: slices of the documents, each model's scores
//!   per slice, weak-slice discovery.
//! * [`pace`] — where a long evaluation lets its caller wait or stop it.
//! * [`source`] — how the evaluation reads a file's records: resident in a
//!   forest, or one at a time from wherever an implementation keeps them.

pub mod assign;
pub mod audit;
pub mod bootstrap;
pub mod compare;
pub mod confidence;
pub mod confidence_input;
pub mod config;
pub mod corrections;
pub mod counts;
pub mod dataset;
pub mod distance;
pub mod error_types;
pub mod evaluate;
pub mod gate;
pub mod groups;
pub mod intervals;
pub mod items;
pub mod literature;
pub mod model;
pub mod nfc;
pub mod normalize;
pub mod pace;
pub mod paths;
pub mod rates;
pub mod report;
pub mod sets;
pub mod slices;
pub mod source;
pub mod suggest;
pub mod sweep;
pub mod thousandths;
pub mod tree;
pub mod validate;

pub use compare::ValueType;
pub use config::{
    Config, ConfigBuilder, DateOrder, IncorrectCountsAs, MacroF1, MatchMethod, Preset,
};
pub use evaluate::{
    compile_schema, complete_provisional, documents_by_schema, evaluate, evaluate_owned,
    evaluate_owned_known, evaluate_owned_known_paced, schema_stem, schema_validity,
    schema_validity_by, EvalInput, ModelInput, NamedSchema, SchemaValidity,
};
pub use model::{DocFile, DocRecord, Record, RecordFile};
pub use report::{Counts, ErrorCounts, ErrorType, ModelReport, Outcome, Report, Scores};
pub use source::{RecordInfo, RecordSource};
