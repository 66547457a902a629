//! The arguments of `eval`, `sweep`, `figures` and `synth`, and the input
//! flags every evaluating command shares ([`InputArgs`]), as `clap`
//! parses them.
//!
//! Owns: the flags, their help text and defaults. Never reads a file or
//! checks a value beyond what `clap` does. Depends on `correct` (the
//! `--corrections` flag) only.

use super::correct;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub(super) struct FiguresArgs {
    #[command(flatten)]
    pub(super) input: InputArgs,

    #[command(flatten)]
    pub(super) corrections: correct::CorrectionsArg,

    /// The directory to write the figures to (created if missing).
    #[arg(long, value_name = "DIR")]
    pub(super) out: PathBuf,

    /// Figure width: column (3.3 in, one column of a two-column paper) or full (7 in).
    #[arg(long, value_name = "SIZE", default_value = "full")]
    pub(super) size: String,

    /// File formats, comma-separated: pdf, svg.
    #[arg(long, value_name = "LIST", default_value = "pdf,svg")]
    pub(super) format: String,

    /// The sweeps' threshold values, comma-separated (default 0, 0.05, …, 1).
    #[arg(long, value_name = "V,V,…")]
    pub(super) values: Option<String>,
}

#[derive(Debug, clap::Args)]
pub(super) struct SweepArgs {
    #[command(flatten)]
    pub(super) input: InputArgs,

    #[command(flatten)]
    pub(super) corrections: correct::CorrectionsArg,

    /// The threshold to move: similarity, cer or item.
    #[arg(long, value_name = "NAME")]
    pub(super) param: String,

    /// The values, comma-separated (default 0, 0.05, …, 1).
    #[arg(long, value_name = "V,V,…")]
    pub(super) values: Option<String>,

    /// Output format: json, markdown, latex or csv.
    #[arg(long, value_name = "FORMAT", default_value = "json")]
    pub(super) format: String,

    /// Write the table to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(super) out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub(super) struct SynthArgs {
    /// Number of invoices (truth records); every model predicts each one.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub(super) documents: usize,

    /// The seed of every random choice.
    #[arg(long, value_name = "SEED", default_value_t = 42)]
    pub(super) seed: u64,

    /// The browser app's built-in example's kind of data: four more NOT_FOUND-heavy fields, SKUs mostly absent, and the conservative and aggressive models tuned so that accuracy and F1 rank them differently (M0's accuracy paradox).
    #[arg(long)]
    pub(super) paradox: bool,

    /// Write each model's confidences beside its fields (SPEC §8): good calibrated, aggressive overconfident, conservative on its top-level fields only (always with --paradox).
    #[arg(long)]
    pub(super) confidence: bool,

    /// Add the truth key `vendor_country` (the vendor's ISO 3166 code, for slicing: SPEC §9.2) and make the `good` model weak on German invoices (it gets their invoice number, dates, total, tax and payment terms wrong more often); every other value is unchanged. Evaluate with --slice-by vendor_country and the key in the config's ignored_fields.
    #[arg(long)]
    pub(super) vendor_country: bool,

    /// Several document types instead of invoices (a wide benchmark): N types, one schema each (schemas/TYPE.json, selector `doc_type`: evaluate with --schema-by doc_type), models sys_1 … sys_K; --documents, --paradox, --confidence and --vendor-country do not apply.
    #[arg(long, value_name = "N")]
    pub(super) types: Option<usize>,

    /// With --types: the fields of each type.
    #[arg(long, value_name = "M", default_value_t = 15)]
    pub(super) fields_per_type: usize,

    /// With --types: the documents of each type.
    #[arg(long, value_name = "D", default_value_t = 1)]
    pub(super) documents_per_type: usize,

    /// With --types: the number of models.
    #[arg(long, value_name = "K", default_value_t = 6)]
    pub(super) systems: usize,

    /// The directory to write the files to (created if missing).
    #[arg(long, value_name = "DIR")]
    pub(super) out: PathBuf,
}

#[derive(Debug, clap::Args)]
pub(super) struct InputArgs {
    /// Ground-truth file: .json (array, or object mapping id → record), .jsonl or .csv.
    #[arg(long, value_name = "FILE")]
    pub(super) truth: PathBuf,

    /// A model's predictions as NAME=FILE (or just FILE: the name is the file stem). Repeat for each model.
    #[arg(long = "pred", value_name = "NAME=FILE", required = true)]
    pub(super) preds: Vec<String>,

    /// JSON Schema (draft-07) of the records: field types and schema validity. Repeat it for several schemas, each named by its file stem (schemas/inv_0042.json is `inv_0042`), of which each document uses the one it names by --schema-by (SPEC §7.2).
    #[arg(long = "schema", value_name = "FILE")]
    pub(super) schema: Vec<PathBuf>,

    /// With several --schema files: how a document names its schema, `id` (its id is the schema's file stem) or a top-level truth field whose value, trimmed, is the stem. Beats the config file's `schema_by`. A document naming no given schema is evaluated without one (one warning lists them).
    #[arg(long = "schema-by", value_name = "KEY")]
    pub(super) schema_by: Option<String>,

    /// Slice the documents by KEY (SPEC §9.2): a top-level truth key, or `_items` (number of truth items), `_fields` (present truth fields), `_schema` (with several schemas). Repeatable, or a comma-separated list; beats the config file's `slice_by`. Adds the report's `slices` key (each model's micro scores per slice, weak slices found by a bootstrap test) and a weak-slices table in markdown, latex, csv and html.
    #[arg(long = "slice-by", value_name = "KEY")]
    pub(super) slice_by: Vec<String>,

    /// Metrics configuration (metrics_config.json, SPEC §4).
    #[arg(long, value_name = "FILE")]
    pub(super) config: Option<PathBuf>,

    /// Preset: standard, exact, not-found or invoice-cer. Beats the config file's preset.
    #[arg(long, value_name = "NAME")]
    pub(super) preset: Option<String>,

    /// A model's cost as NAME=VALUE (overrides the records' `cost` values). Repeatable.
    #[arg(long = "cost", value_name = "NAME=VALUE")]
    pub(super) costs: Vec<String>,

    /// How a field is compared, as PATH=TYPE (TYPE: number, integer, date, numeric_string, string, boolean; SPEC §7.1), e.g. `answers[].amount=number`. Repeatable; beats the config file's `field_types` for that path.
    #[arg(long = "field-type", value_name = "PATH=TYPE")]
    pub(super) field_types: Vec<String>,

    /// Threads to compare documents on (default: every available core; 1: one thread). The report is the same for every N.
    #[arg(long, value_name = "N")]
    pub(super) jobs: Option<usize>,
}

#[derive(Debug, clap::Args)]
pub(super) struct EvalArgs {
    #[command(flatten)]
    pub(super) input: InputArgs,

    /// Output format: json (the full report), markdown, latex (model tables), csv (per-field table), html (the whole report as one self-contained page, no scripts, prints well).
    #[arg(long, value_name = "FORMAT", default_value = "json")]
    pub(super) format: String,

    /// Add per-document details (each field's truth, prediction, outcome, similarity, CER) to the JSON report.
    #[arg(long)]
    pub(super) details: bool,

    /// Also compute the literature's metrics: a comma-separated list of anls_star (ANLS*, Peer et al. 2024), nted (Donut's tree-edit-distance accuracy) and donut_f1 (Donut's field F1), or all. They appear in the JSON report as models[i].literature (per document too with --details) and as an extra table in markdown, latex and html; without this flag the report is exactly SPEC §5.
    #[arg(long, value_name = "LIST")]
    pub(super) metrics: Option<String>,

    /// Write the report to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(super) out: Option<PathBuf>,

    /// Add 95 % bootstrap intervals (N resamples of the documents; 1000 when N is left out) for micro and macro-over-documents precision, recall, F1 and accuracy, and paired bootstrap tests between models (micro F1, macro F1; Holm-adjusted): the report's `bootstrap` key, and a table in markdown/latex.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "1000")]
    pub(super) bootstrap: Option<usize>,

    /// Seed of the bootstrap's resampling (the same seed gives the same intervals).
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    pub(super) seed: u64,

    /// Significance level of the paired tests, after the Holm correction.
    #[arg(long, value_name = "ALPHA", default_value_t = 0.05)]
    pub(super) alpha: f64,

    /// With --format html: embed the input files and settings in the page (compressed, as inert data; at most 50 MB of inputs), so that dropping the report onto the browser app re-opens the evaluation.
    #[arg(long)]
    pub(super) embed_inputs: bool,

    /// Where the browser app is hosted (an http:// or https:// address; config key `app_url`): the HTML report links to it and says how to re-open the report there.
    #[arg(long = "app-url", value_name = "URL")]
    pub(super) app_url: Option<String>,

    /// Read .jsonl/.ndjson files one record at a time instead of holding them in memory: auto (files of 256 MiB or more), always or never. The report is the same; streaming keeps memory to the per-document state but reads each file several times.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub(super) stream: String,

    /// Add the flipped documents of two models (exact in BASELINE and not in CANDIDATE, and back; with truth and both predictions): the JSON report's `comparison` key and a section of the HTML page.
    #[arg(long, value_name = "BASELINE,CANDIDATE")]
    pub(super) compare: Option<String>,

    /// Write this shard's partial result to FILE instead of a report (`fieldscope merge` joins them).
    #[arg(long, value_name = "FILE")]
    pub(super) partial: Option<PathBuf>,

    /// With --partial: the fields learnt from every document by `fieldscope learn`.
    #[arg(long, value_name = "FILE", requires = "partial")]
    pub(super) learned: Option<PathBuf>,

    /// Apply corrections to the truth before evaluating (SPEC §9.3): a JSON list of {"id", "field", "from", "to"} (field with 0-based item indices, e.g. items[1].qty; from null for an absent truth). Each applied correction is a warning; a correction whose id, field or from does not fit the truth is an error.
    #[arg(long, value_name = "FILE")]
    pub(super) corrections: Option<PathBuf>,
}
