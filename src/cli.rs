//! The command-line tool: arguments, files and exit codes only.
//!
//! Owns: parsing `fieldscope eval`, `sweep`, `figures`, `synth`, `gate`
//! (in `cli/gate.rs`; exit 1 when a check fails), `learn` and `merge`
//! (with `clap`; the last two and `--jobs` in `shards`), reading and
//! writing the files, calling [`crate::io`], [`crate::eval`],
//! [`crate::export`] and [`crate::pipeline`] (what `eval`, `sweep`,
//! `figures` and `merge` compute and print, shared with the Python
//! package), and turning errors into a message and exit status 2. Native
//! only (never compiled to wasm).
//!
//! `eval` reads a large JSONL file (or any, with `--stream always`) one
//! record at a time ([`crate::io::JsonlIndex`] over the open file) instead
//! of holding it: the report is the same either way.

use crate::charts::PaperSize;
use crate::error::{Error, ErrorKind};
use crate::eval::literature;
use crate::eval::source::{RecordInfo, RecordSource};
use crate::eval::tree::{Forest, NodeId};
use crate::eval::{Config, ConfigBuilder, DocFile, EvalInput, ModelInput, NamedSchema, Preset};
use crate::export::{Format, HtmlInclude};
use crate::io::{format_of_name, parse_docs, parse_json_value, FileFormat, JsonlIndex};
use crate::pipeline::{
    evaluate_report, figure_files_and_report, render_report_including, render_sweep, FigureOptions,
    ReportOptions,
};
use clap::{Parser, Subcommand};

mod gate;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

mod correct;
mod shards;

/// Exit status for success.
pub const EXIT_OK: i32 = 0;
/// Exit status for bad input or usage.
pub const EXIT_BAD_INPUT: i32 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "fieldscope",
    version,
    about = "Evaluate structured-data extraction: precision, recall, F1, accuracy, CER and line items, as SPEC.md defines them.",
    after_help = "Exit status: 0 on success, 1 when a check of fieldscope gate failed, 2 on bad input or usage (the message says which file, line and column)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compare a ground-truth file with one prediction file per model and print the report.
    #[command(
        after_help = "Example:\n  fieldscope eval --truth truth.jsonl --pred gpt=gpt.jsonl --pred claude=claude.jsonl \\\n      --schema invoice.schema.json --preset invoice-cer --format markdown"
    )]
    Eval(EvalArgs),
    /// Write a synthetic dataset (invoices with nested vendors, 0–30 line items, code lists, NOT_FOUND-heavy fields; the models `good`, `conservative` and `aggressive`; a JSON Schema) to try the tool or measure it.
    #[command(
        after_help = "Writes DIR/truth.jsonl, DIR/good.jsonl, DIR/conservative.jsonl, DIR/aggressive.jsonl and DIR/invoice.schema.json. The same seed gives the same files.\n\nPlanted faults: conservative and aggressive write some records as raw model text (2 % and 15 %), a tenth of which is a refusal or a truncated answer that does not parse, so `eval` warns about them on purpose; good's raw text always parses.\n\nExample:\n  fieldscope synth --documents 10000 --out bench-data\n  fieldscope eval --truth bench-data/truth.jsonl --pred good=bench-data/good.jsonl --schema bench-data/invoice.schema.json"
    )]
    Synth(SynthArgs),
    /// Evaluate again at every value of one threshold (string similarity, CER or item F1) and print F1 and accuracy per model at each: how much a ranking depends on the threshold.
    #[command(
        after_help = "Each point is a full evaluation with that one configuration key changed: similarity sets partial_matching.string.exact_threshold (and string_match.method = similarity), cer sets string_match.cer_threshold (and method = cer), item sets item_f1_threshold.\n\nExample:\n  fieldscope sweep --truth truth.jsonl --pred gpt=gpt.jsonl --param cer --format markdown"
    )]
    Sweep(SweepArgs),
    /// Write every chart of the report, and the threshold-sweep line charts, as SVG and PDF at a paper's sizes, with their captions in captions.md.
    #[command(
        after_help = "Writes DIR/ID.svg and DIR/ID.pdf for each chart (metric_bars, outcome_distribution, field_f1_heatmap, pred_vs_truth, cer_distribution, item_metrics when there are line items, reliability_diagram_N for the N-th model and risk_coverage when models have confidences, sweep_similarity_*, sweep_cer_*, sweep_item_* when there are line items) and DIR/captions.md. Text is 8.5 pt at the chosen width; PDFs embed Liberation Sans (TrueType, subsetted; never Type 3).\n\nExample:\n  fieldscope figures --truth truth.jsonl --pred gpt=gpt.jsonl --pred claude=claude.jsonl --out figures --size column"
    )]
    Figures(FiguresArgs),
    /// Check thresholds and regressions against a baseline for CI: a Markdown summary on standard output, exit 0 (every check passed), 1 (a check failed) or 2 (bad input or usage).
    #[command(
        after_help = "Example:\n  fieldscope gate --truth truth.jsonl --pred main=main.jsonl --pred pr=pr.jsonl \\\n      --baseline main --require 'pr:micro.f1 >= 0.8' --json gate.json --junit gate.xml\n\nNo regression: paired bootstrap over documents (the resamples of eval --bootstrap), one-sided (candidate worse), Holm-adjusted over each candidate's checks; a check fails when the adjusted p <= --alpha and the drop > --min-drop. See docs/gate.md."
    )]
    Gate(gate::GateArgs),
    /// Learn the fields of every document (ids, kinds, warnings, costs) once, for `eval --partial --learned FILE` runs over shards of them.
    #[command(
        after_help = "Example (two shards; docs/partial-results.md):\n  fieldscope learn --truth truth.jsonl --pred gpt=gpt.jsonl --out learned.cbor\n  fieldscope eval --truth part1.jsonl --pred gpt=gpt1.jsonl --learned learned.cbor --partial p1.cbor\n  fieldscope eval --truth part2.jsonl --pred gpt=gpt2.jsonl --learned learned.cbor --partial p2.cbor\n  fieldscope merge p1.cbor p2.cbor --format markdown"
    )]
    Learn(shards::LearnArgs),
    /// Merge partial results (eval --partial) into the report one `eval` over all their documents writes, byte for byte.
    Merge(shards::MergeArgs),
    /// Write the ground truth with corrections applied (SPEC §9.3), in the input's own shape: JSON array, id map, JSONL or CSV, untouched records byte for byte.
    #[command(
        after_help = "Example:\n  fieldscope correct --truth truth.jsonl --corrections corrections.json --out truth.corrected.jsonl\n\nThe corrections file is a JSON list of {\"id\", \"field\", \"from\", \"to\"}; see docs/truth-audit.md. `eval --corrections FILE` evaluates the same corrected truth."
    )]
    Correct(correct::CorrectArgs),
}

#[derive(Debug, clap::Args)]
struct FiguresArgs {
    #[command(flatten)]
    input: InputArgs,

    #[command(flatten)]
    corrections: correct::CorrectionsArg,

    /// The directory to write the figures to (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,

    /// Figure width: column (3.3 in, one column of a two-column paper) or full (7 in).
    #[arg(long, value_name = "SIZE", default_value = "full")]
    size: String,

    /// File formats, comma-separated: pdf, svg.
    #[arg(long, value_name = "LIST", default_value = "pdf,svg")]
    format: String,

    /// The sweeps' threshold values, comma-separated (default 0, 0.05, …, 1).
    #[arg(long, value_name = "V,V,…")]
    values: Option<String>,
}

#[derive(Debug, clap::Args)]
struct SweepArgs {
    #[command(flatten)]
    input: InputArgs,

    #[command(flatten)]
    corrections: correct::CorrectionsArg,

    /// The threshold to move: similarity, cer or item.
    #[arg(long, value_name = "NAME")]
    param: String,

    /// The values, comma-separated (default 0, 0.05, …, 1).
    #[arg(long, value_name = "V,V,…")]
    values: Option<String>,

    /// Output format: json, markdown, latex or csv.
    #[arg(long, value_name = "FORMAT", default_value = "json")]
    format: String,

    /// Write the table to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct SynthArgs {
    /// Number of invoices (truth records); every model predicts each one.
    #[arg(long, value_name = "N", default_value_t = 100)]
    documents: usize,

    /// The seed of every random choice.
    #[arg(long, value_name = "SEED", default_value_t = 42)]
    seed: u64,

    /// The browser app's built-in example's kind of data: four more NOT_FOUND-heavy fields, SKUs mostly absent, and the conservative and aggressive models tuned so that accuracy and F1 rank them differently (M0's accuracy paradox).
    #[arg(long)]
    paradox: bool,

    /// Write each model's confidences beside its fields (SPEC §8): good calibrated, aggressive overconfident, conservative on its top-level fields only (always with --paradox).
    #[arg(long)]
    confidence: bool,

    /// Add the truth key `vendor_country` (the vendor's ISO 3166 code, for slicing: SPEC §9.2) and make the `good` model weak on German invoices (it gets their invoice number, dates, total, tax and payment terms wrong more often); every other value is unchanged. Evaluate with --slice-by vendor_country and the key in the config's ignored_fields.
    #[arg(long)]
    vendor_country: bool,

    /// Several document types instead of invoices (a wide benchmark): N types, one schema each (schemas/TYPE.json, selector `doc_type`: evaluate with --schema-by doc_type), models sys_1 … sys_K; --documents, --paradox, --confidence and --vendor-country do not apply.
    #[arg(long, value_name = "N")]
    types: Option<usize>,

    /// With --types: the fields of each type.
    #[arg(long, value_name = "M", default_value_t = 15)]
    fields_per_type: usize,

    /// With --types: the documents of each type.
    #[arg(long, value_name = "D", default_value_t = 1)]
    documents_per_type: usize,

    /// With --types: the number of models.
    #[arg(long, value_name = "K", default_value_t = 6)]
    systems: usize,

    /// The directory to write the files to (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct InputArgs {
    /// Ground-truth file: .json (array, or object mapping id → record), .jsonl or .csv.
    #[arg(long, value_name = "FILE")]
    truth: PathBuf,

    /// A model's predictions as NAME=FILE (or just FILE: the name is the file stem). Repeat for each model.
    #[arg(long = "pred", value_name = "NAME=FILE", required = true)]
    preds: Vec<String>,

    /// JSON Schema (draft-07) of the records: field types and schema validity. Repeat it for several schemas, each named by its file stem (schemas/inv_0042.json is `inv_0042`), of which each document uses the one it names by --schema-by (SPEC §7.2).
    #[arg(long = "schema", value_name = "FILE")]
    schema: Vec<PathBuf>,

    /// With several --schema files: how a document names its schema, `id` (its id is the schema's file stem) or a top-level truth field whose value, trimmed, is the stem. Beats the config file's `schema_by`. A document naming no given schema is evaluated without one (one warning lists them).
    #[arg(long = "schema-by", value_name = "KEY")]
    schema_by: Option<String>,

    /// Slice the documents by KEY (SPEC §9.2): a top-level truth key, or `_items` (number of truth items), `_fields` (present truth fields), `_schema` (with several schemas). Repeatable, or a comma-separated list; beats the config file's `slice_by`. Adds the report's `slices` key (each model's micro scores per slice, weak slices found by a bootstrap test) and a weak-slices table in markdown, latex, csv and html.
    #[arg(long = "slice-by", value_name = "KEY")]
    slice_by: Vec<String>,

    /// Metrics configuration (metrics_config.json, SPEC §4).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Preset: standard, exact, not-found or invoice-cer. Beats the config file's preset.
    #[arg(long, value_name = "NAME")]
    preset: Option<String>,

    /// A model's cost as NAME=VALUE (overrides the records' `cost` values). Repeatable.
    #[arg(long = "cost", value_name = "NAME=VALUE")]
    costs: Vec<String>,

    /// How a field is compared, as PATH=TYPE (TYPE: number, integer, date, numeric_string, string, boolean; SPEC §7.1), e.g. `answers[].amount=number`. Repeatable; beats the config file's `field_types` for that path.
    #[arg(long = "field-type", value_name = "PATH=TYPE")]
    field_types: Vec<String>,

    /// Threads to compare documents on (default: every available core; 1: one thread). The report is the same for every N.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

#[derive(Debug, clap::Args)]
struct EvalArgs {
    #[command(flatten)]
    input: InputArgs,

    /// Output format: json (the full report), markdown, latex (model tables), csv (per-field table), html (the whole report as one self-contained page, no scripts, prints well).
    #[arg(long, value_name = "FORMAT", default_value = "json")]
    format: String,

    /// Add per-document details (each field's truth, prediction, outcome, similarity, CER) to the JSON report.
    #[arg(long)]
    details: bool,

    /// Also compute the literature's metrics: a comma-separated list of anls_star (ANLS*, Peer et al. 2024), nted (Donut's tree-edit-distance accuracy) and donut_f1 (Donut's field F1), or all. They appear in the JSON report as models[i].literature (per document too with --details) and as an extra table in markdown, latex and html; without this flag the report is exactly SPEC §5.
    #[arg(long, value_name = "LIST")]
    metrics: Option<String>,

    /// Write the report to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Add 95 % bootstrap intervals (N resamples of the documents; 1000 when N is left out) for micro and macro-over-documents precision, recall, F1 and accuracy, and paired bootstrap tests between models (micro F1, macro F1; Holm-adjusted): the report's `bootstrap` key, and a table in markdown/latex.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "1000")]
    bootstrap: Option<usize>,

    /// Seed of the bootstrap's resampling (the same seed gives the same intervals).
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    seed: u64,

    /// Significance level of the paired tests, after the Holm correction.
    #[arg(long, value_name = "ALPHA", default_value_t = 0.05)]
    alpha: f64,

    /// With --format html: embed the input files and settings in the page (compressed, as inert data; at most 50 MB of inputs), so that dropping the report onto the browser app re-opens the evaluation.
    #[arg(long)]
    embed_inputs: bool,

    /// Where the browser app is hosted (an http:// or https:// address; config key `app_url`): the HTML report links to it and says how to re-open the report there.
    #[arg(long = "app-url", value_name = "URL")]
    app_url: Option<String>,

    /// Read .jsonl/.ndjson files one record at a time instead of holding them in memory: auto (files of 256 MiB or more), always or never. The report is the same; streaming keeps memory to the per-document state but reads each file several times.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    stream: String,

    /// Add the flipped documents of two models (exact in BASELINE and not in CANDIDATE, and back; with truth and both predictions): the JSON report's `comparison` key and a section of the HTML page.
    #[arg(long, value_name = "BASELINE,CANDIDATE")]
    compare: Option<String>,

    /// Write this shard's partial result to FILE instead of a report (`fieldscope merge` joins them).
    #[arg(long, value_name = "FILE")]
    partial: Option<PathBuf>,

    /// With --partial: the fields learnt from every document by `fieldscope learn`.
    #[arg(long, value_name = "FILE", requires = "partial")]
    learned: Option<PathBuf>,

    /// Apply corrections to the truth before evaluating (SPEC §9.3): a JSON list of {"id", "field", "from", "to"} (field with 0-based item indices, e.g. items[1].qty; from null for an absent truth). Each applied correction is a warning; a correction whose id, field or from does not fit the truth is an error.
    #[arg(long, value_name = "FILE")]
    corrections: Option<PathBuf>,
}

/// `--stream auto` streams JSONL files of this many bytes or more: below
/// it, holding the file (about 1.8× its size) is cheap and the in-memory
/// passes are faster than reading the file again for each.
pub const STREAM_AUTO_BYTES: u64 = 256 << 20;

/// When `eval` streams a JSONL file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    Auto,
    Always,
    Never,
}

impl Stream {
    fn parse(text: &str) -> Result<Stream, Error> {
        match text.trim() {
            "auto" => Ok(Stream::Auto),
            "always" => Ok(Stream::Always),
            "never" => Ok(Stream::Never),
            other => Err(Error::new(
                ErrorKind::Usage,
                format!("--stream {other:?}: expected auto, always or never"),
            )),
        }
    }
}

/// A file as `eval` reads it: held in memory, or an indexed JSONL file
/// read one record at a time.
#[derive(Debug)]
enum Source {
    Memory(DocFile),
    Stream(JsonlIndex<std::fs::File>),
}

impl Source {
    /// Opens `path`: streamed when `when` says so and it is JSONL by its
    /// name, else read and parsed whole.
    fn open(path: &Path, when: Stream) -> Result<Source, Error> {
        let name = display_name(path);
        let jsonl = format_of_name(&name) == Some(FileFormat::Jsonl);
        let stream = jsonl
            && match when {
                Stream::Never => false,
                Stream::Always => true,
                Stream::Auto => std::fs::metadata(path).is_ok_and(|m| m.len() >= STREAM_AUTO_BYTES),
            };
        if stream {
            let file = std::fs::File::open(path).map_err(|e| {
                Error::new(ErrorKind::Io, format!("cannot read the file: {e}")).in_file(&*name)
            })?;
            Ok(Source::Stream(JsonlIndex::new(&name, file)?))
        } else {
            Ok(Source::Memory(parse_docs(&name, &read_file(path)?)?))
        }
    }
}

impl RecordSource for Source {
    fn name(&self) -> &str {
        match self {
            Source::Memory(f) => f.name(),
            Source::Stream(f) => f.name(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Source::Memory(f) => f.len(),
            Source::Stream(f) => f.len(),
        }
    }

    fn info(&self, i: usize) -> RecordInfo<'_> {
        match self {
            Source::Memory(f) => f.info(i),
            Source::Stream(f) => f.info(i),
        }
    }

    fn fetch(&mut self, i: usize) -> Result<NodeId, Error> {
        match self {
            Source::Memory(f) => f.fetch(i),
            Source::Stream(f) => f.fetch(i),
        }
    }

    fn forest(&self) -> &Forest {
        match self {
            Source::Memory(f) => f.forest(),
            Source::Stream(f) => f.forest(),
        }
    }

    fn forest_mut(&mut self) -> &mut Forest {
        match self {
            Source::Memory(f) => f.forest_mut(),
            Source::Stream(f) => f.forest_mut(),
        }
    }

    fn resident(&self) -> bool {
        match self {
            Source::Memory(f) => f.resident(),
            Source::Stream(f) => f.resident(),
        }
    }

    fn as_doc_file(&self) -> Option<&DocFile> {
        match self {
            Source::Memory(f) => Some(f),
            Source::Stream(_) => None,
        }
    }

    fn digest(&mut self) -> Result<u64, Error> {
        match self {
            Source::Memory(f) => f.digest(),
            Source::Stream(f) => f.digest(),
        }
    }

    fn shrink(&mut self) {
        match self {
            Source::Memory(f) => f.shrink(),
            Source::Stream(f) => f.shrink(),
        }
    }
}

/// Runs the tool with `args` (including the program name), writing the
/// report to `stdout` (or `--out`) and messages to `stderr`. Returns the
/// exit status.
pub fn run(
    args: impl IntoIterator<Item = OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_BAD_INPUT
            } else {
                EXIT_OK
            };
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                write!(stderr, "{text}")
            } else {
                write!(stdout, "{text}")
            };
            return code;
        }
    };
    let jobs = match &cli.command {
        Command::Synth(args) => return synth_command(args, stderr),
        Command::Gate(args) => args.input.jobs,
        Command::Eval(args) => args.input.jobs,
        Command::Sweep(args) => args.input.jobs,
        Command::Figures(args) => args.input.jobs,
        Command::Learn(args) => args.input.jobs,
        Command::Merge(_) => Some(1),
        Command::Correct(args) => {
            return match correct::correct_command(args) {
                Ok(warnings) => {
                    for w in warnings {
                        let _ = writeln!(stderr, "warning: {w}");
                    }
                    EXIT_OK
                }
                Err(e) => {
                    let _ = writeln!(stderr, "error: {e}");
                    EXIT_BAD_INPUT
                }
            }
        }
    };
    let pool = match shards::pool(jobs) {
        Ok(pool) => pool,
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    // The command runs on the pool (its messages kept until it ends).
    let mut messages = Vec::new();
    if let Command::Gate(args) = &cli.command {
        let mut out = Vec::new();
        let code = pool.install(|| gate::gate_command(args, &mut out, &mut messages));
        let _ = stdout.write_all(&out);
        let _ = stderr.write_all(&messages);
        return code;
    }
    let (result, out) = pool.install(|| match cli.command {
        Command::Eval(args) => (eval_command(&args, &mut messages), args.out),
        Command::Sweep(args) => (sweep_command(&args, &mut messages), args.out),
        Command::Figures(args) => (figures_command(&args, &mut messages), None),
        Command::Learn(args) => (shards::learn_command(&args), None),
        Command::Merge(args) => (shards::merge_command(&args, &mut messages), args.out),
        Command::Synth(_) | Command::Gate(_) | Command::Correct(_) => (Ok(String::new()), None),
    });
    let _ = stderr.write_all(&messages);
    match result {
        Ok(text) => match &out {
            Some(path) => match std::fs::write(path, text) {
                Ok(()) => EXIT_OK,
                Err(e) => {
                    let _ = writeln!(stderr, "error: cannot write {}: {e}", path.display());
                    EXIT_BAD_INPUT
                }
            },
            None => match stdout.write_all(text.as_bytes()) {
                Ok(()) => EXIT_OK,
                Err(e) => {
                    let _ = writeln!(stderr, "error: cannot write the report: {e}");
                    EXIT_BAD_INPUT
                }
            },
        },
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            EXIT_BAD_INPUT
        }
    }
}

/// `fieldscope sweep`: the table of one threshold's sweep.
fn sweep_command(args: &SweepArgs, stderr: &mut dyn Write) -> Result<String, Error> {
    use crate::eval::sweep::{sweep, SweepParam};
    let format: Format = args.format.parse()?;
    if format == Format::Html {
        return Err(Error::new(
            ErrorKind::Usage,
            "fieldscope sweep prints json, markdown, latex or csv",
        ));
    }
    let param = SweepParam::parse(&args.param)
        .map_err(|e| Error::new(ErrorKind::Usage, format!("--param: {}", e.message)))?;
    let values = parse_values(args.values.as_deref())?;
    let (config, mut input) = load_inputs(&args.input)?;
    let corrected = args
        .corrections
        .apply(&args.input.truth, &config, &mut input)?;
    for w in corrected {
        let _ = writeln!(stderr, "warning: {w}");
    }
    let report =
        sweep(&input, &config, param, &values).map_err(|e| schema_error(&args.input, e))?;
    Ok(render_sweep(&report, format))
}

/// `--slice-by KEY` (repeatable, each a comma-separated list): the keys,
/// trimmed, in the order given; an empty one is a usage error.
fn slice_keys(flags: &[String]) -> Result<Vec<String>, Error> {
    flags
        .iter()
        .flat_map(|f| f.split(','))
        .map(|k| {
            let k = k.trim();
            if k.is_empty() {
                Err(Error::new(
                    ErrorKind::Usage,
                    "--slice-by: expected a top-level truth key or _items, _fields, _schema (a comma-separated list or the flag repeated)",
                ))
            } else {
                Ok(k.to_string())
            }
        })
        .collect()
}

/// `--values 0,0.1,0.5` (default 0, 0.05, …, 1): every item a
/// non-negative number.
fn parse_values(list: Option<&str>) -> Result<Vec<f64>, Error> {
    let Some(list) = list else {
        return Ok(crate::eval::sweep::default_values());
    };
    list.split(',')
        .map(|v| {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Usage,
                        format!("--values: {:?} is not a non-negative number", v.trim()),
                    )
                })
        })
        .collect()
}

/// `fieldscope figures`: every chart of the report (with the confidence
/// charts when models have confidences) and of the three threshold sweeps
/// as `DIR/ID.svg` and `DIR/ID.pdf`, and `DIR/captions.md`
/// (each figure's files and caption). Prints the files written, one per
/// line.
fn figures_command(args: &FiguresArgs, stderr: &mut dyn Write) -> Result<String, Error> {
    let (mut pdf, mut svg) = (false, false);
    for item in args.format.split(',') {
        match item.trim().to_ascii_lowercase().as_str() {
            "pdf" => pdf = true,
            "svg" => svg = true,
            other => {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!(
                        "--format: unknown figure format {other:?}; expected pdf, svg or pdf,svg"
                    ),
                ))
            }
        }
    }
    let size = match args.size.trim().to_ascii_lowercase().as_str() {
        "column" => PaperSize::SingleColumn,
        "full" => PaperSize::FullWidth,
        other => {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("--size: {other:?}; expected column (3.3 in) or full (7 in)"),
            ))
        }
    };
    let values = parse_values(args.values.as_deref())?;
    let (config, mut input) = load_inputs(&args.input)?;
    let corrected = args
        .corrections
        .apply(&args.input.truth, &config, &mut input)?;
    let options = FigureOptions {
        size,
        pdf,
        svg,
        values,
    };
    let (files, mut report) = figure_files_and_report(input, &config, &options)
        .map_err(|e| schema_error(&args.input, e))?;
    report.warnings.splice(0..0, corrected);
    print_notes(&report, stderr);
    drop(report);

    let dir = &args.out;
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::new(ErrorKind::Io, format!("cannot create the directory: {e}"))
            .in_file(display_name(dir))
    })?;
    let mut written = Vec::new();
    for (name, bytes) in &files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| {
            Error::new(ErrorKind::Io, format!("cannot write the file: {e}"))
                .in_file(display_name(&path))
        })?;
        written.push(display_name(&path));
    }
    let mut out = written.join("\n");
    out.push('\n');
    Ok(out)
}

/// `fieldscope synth`: writes the generated files into `--out`.
fn synth_command(args: &SynthArgs, stderr: &mut dyn Write) -> i32 {
    if let Some(types) = args.types {
        return write_files(&args.out, types_files(args, types), stderr);
    }
    let mut options = if args.paradox {
        crate::synth::SynthOptions::paradox(args.documents, args.seed)
    } else {
        crate::synth::SynthOptions {
            documents: args.documents,
            seed: args.seed,
            confidence: args.confidence,
            ..crate::synth::SynthOptions::default()
        }
    };
    options.vendor_country = args.vendor_country;
    let data = crate::synth::generate(&options);
    let mut files = vec![("truth.jsonl".to_string(), data.truth_jsonl)];
    files.extend(
        data.predictions
            .into_iter()
            .map(|(name, jsonl)| (format!("{name}.jsonl"), jsonl)),
    );
    files.push(("invoice.schema.json".into(), data.schema_json));
    write_files(&args.out, files, stderr)
}

/// `synth --types N`'s files: truth, one file per model, `schemas/*.json`.
fn types_files(args: &SynthArgs, types: usize) -> Vec<(String, String)> {
    let data = crate::synth::types::generate(&crate::synth::types::TypesOptions {
        types,
        fields_per_type: args.fields_per_type,
        documents_per_type: args.documents_per_type,
        models: args.systems,
        seed: args.seed,
    });
    let mut files = vec![("truth.jsonl".to_string(), data.truth_jsonl)];
    files.extend(
        data.predictions
            .into_iter()
            .map(|(name, jsonl)| (format!("{name}.jsonl"), jsonl)),
    );
    files.extend(
        data.schemas
            .into_iter()
            .map(|(name, schema)| (format!("schemas/{name}.json"), schema)),
    );
    files
}

/// Writes `files` (names relative to `out`, directories created).
fn write_files(out: &Path, files: Vec<(String, String)>, stderr: &mut dyn Write) -> i32 {
    let written = files.iter().try_for_each(|(name, text)| {
        let path = out.join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, text)
    });
    match written {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(stderr, "error: cannot write to {}: {e}", out.display());
            EXIT_BAD_INPUT
        }
    }
}

fn read_file(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| {
        Error::new(ErrorKind::Io, format!("cannot read the file: {e}"))
            .in_file(path.display().to_string())
    })
}

fn display_name(path: &Path) -> String {
    path.display().to_string()
}

/// `NAME=FILE`, or `FILE` named by its stem.
fn split_pred(spec: &str) -> Result<(String, PathBuf), Error> {
    if let Some((name, path)) = spec.split_once('=') {
        if !Path::new(spec).exists() {
            let name = name.trim();
            if name.is_empty() {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("--pred {spec:?}: the model name before `=` is empty"),
                ));
            }
            return Ok((name.to_string(), PathBuf::from(path)));
        }
    }
    let path = PathBuf::from(spec);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| spec.to_string());
    Ok((stem, path))
}

/// Reads the files of `input` and builds the configuration (the config
/// file, then `--preset`), for `sweep`: every file in memory.
fn load_inputs(args: &InputArgs) -> Result<(Config, EvalInput<DocFile>), Error> {
    load_inputs_with(args, |path| {
        parse_docs(&display_name(path), &read_file(path)?)
    })
}

/// [`load_inputs`] with `open` reading each records file (on the
/// command's threads, the errors then taken in the order truth, schema,
/// predictions, so that the first error is the same whatever `open` does).
fn load_inputs_with<S: Send>(
    args: &InputArgs,
    open: impl Fn(&Path) -> Result<S, Error> + Sync,
) -> Result<(Config, EvalInput<S>), Error> {
    let mut builder = ConfigBuilder::new();
    if let Some(path) = &args.config {
        let value = parse_json_value(&display_name(path), &read_file(path)?)?;
        builder = builder
            .layer(&value)
            .map_err(|e| e.in_file(display_name(path)))?;
    }
    if !args.field_types.is_empty() {
        builder = builder.layer(&field_types_layer(&args.field_types)?)?;
    }
    if let Some(key) = &args.schema_by {
        if key.trim().is_empty() {
            return Err(Error::new(
                ErrorKind::Usage,
                "--schema-by: expected `id` or the name of a top-level truth field",
            ));
        }
        builder = builder.layer(&serde_json::json!({ "schema_by": key.trim() }))?;
    }
    if !args.slice_by.is_empty() {
        builder = builder.layer(&serde_json::json!({ "slice_by": slice_keys(&args.slice_by)? }))?;
    }
    if let Some(name) = &args.preset {
        builder = builder.preset(
            Preset::parse(name)
                .map_err(|e| Error::new(ErrorKind::Usage, format!("--preset: {}", e.message)))?,
        );
    }
    let config = builder.build()?;
    check_schemas(args, &config)?;

    let specs: Vec<Result<(String, PathBuf), Error>> =
        args.preds.iter().map(|spec| split_pred(spec)).collect();
    let paths: Vec<&Path> = std::iter::once(args.truth.as_path())
        .chain(specs.iter().flatten().map(|(_, path)| path.as_path()))
        .collect();
    let mut opened = shards::open_all(&paths, &open).into_iter();
    let missing = || Error::new(ErrorKind::Io, "a file was not opened");
    let truth = opened.next().ok_or_else(missing)??;
    let mut schemas = Vec::with_capacity(args.schema.len());
    for path in &args.schema {
        let schema = parse_json_value(&display_name(path), &read_file(path)?)?;
        schemas.push(NamedSchema::new(file_stem(path), schema));
    }
    // One schema is the whole dataset's (SPEC §1.2); several, each
    // document's own (SPEC §7.2).
    let schema = match schemas.len() {
        1 => schemas.pop().map(|s| s.schema),
        _ => None,
    };
    let mut models = Vec::with_capacity(args.preds.len());
    for spec in specs {
        let (name, _) = spec?;
        let file = opened.next().ok_or_else(missing)??;
        models.push(ModelInput::new(name, file));
    }
    for spec in &args.costs {
        let Some((name, value)) = spec.split_once('=') else {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("--cost {spec:?}: expected NAME=VALUE"),
            ));
        };
        let value: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Usage,
                    format!("--cost {spec:?}: {value:?} is not a number"),
                )
            })?;
        let names: Vec<String> = models.iter().map(|m| m.name.clone()).collect();
        let Some(model) = models.iter_mut().find(|m| m.name == name.trim()) else {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "--cost {spec:?}: no model is named {:?}; the models are: {}",
                    name.trim(),
                    names.join(", ")
                ),
            ));
        };
        model.cost = Some(value);
    }

    let input = EvalInput {
        truth,
        models,
        schema,
        schemas,
    };
    Ok((config, input))
}

/// A `--schema` file's name as a schema (SPEC §7.2): its file name
/// without the last extension (`x.schema.json` → `x.schema`).
fn file_stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(|| display_name(path), |n| n.to_string_lossy().into_owned());
    crate::eval::schema_stem(&name)
}

/// SPEC §7.2's usage errors, before any file is read: several `--schema`
/// files without `--schema-by` (or the config's `schema_by`), and two
/// files with the same stem.
fn check_schemas(args: &InputArgs, config: &Config) -> Result<(), Error> {
    if args.schema.len() > 1 && config.schema_by.is_none() {
        return Err(Error::new(
            ErrorKind::Usage,
            format!(
                "{} --schema files are given but not how a document picks its own: add --schema-by id (a document's id is its schema's file stem) or --schema-by FIELD (a top-level truth field whose value is the stem), or set schema_by in the config (SPEC §7.2)",
                args.schema.len()
            ),
        ));
    }
    let mut seen: Vec<(String, &Path)> = Vec::new();
    for path in &args.schema {
        let stem = file_stem(path);
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == stem) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "--schema {} and --schema {} have the same file stem {stem:?}: a schema is named by its file stem, so give each a distinct one",
                    display_name(first),
                    display_name(path)
                ),
            ));
        }
        seen.push((stem, path));
    }
    Ok(())
}

/// A schema error naming the `--schema` file it is about: the only one,
/// or among several the one the evaluation names by its stem.
fn schema_error(args: &InputArgs, e: Error) -> Error {
    if e.kind != ErrorKind::Schema {
        return e;
    }
    match args.schema.as_slice() {
        [one] => e.in_file(display_name(one)),
        several => match several
            .iter()
            .find(|p| e.file.as_deref() == Some(file_stem(p).as_str()))
        {
            Some(path) => e.in_file(display_name(path)),
            None => e,
        },
    }
}

/// `--field-type PATH=TYPE …` as a config layer `{"field_types": {…}}`.
fn field_types_layer(specs: &[String]) -> Result<serde_json::Value, Error> {
    let mut types = serde_json::Map::new();
    for spec in specs {
        let usage =
            |why: String| Error::new(ErrorKind::Usage, format!("--field-type {spec:?}: {why}"));
        let Some((path, ty)) = spec.rsplit_once('=') else {
            return Err(usage("expected PATH=TYPE".into()));
        };
        if crate::eval::config::FieldType::parse(ty.trim()).is_none() {
            return Err(usage(format!(
                "{:?} is not a type; the types are: number, integer, date, numeric_string, string, boolean",
                ty.trim()
            )));
        }
        types.insert(path.trim().to_string(), ty.trim().into());
    }
    Ok(serde_json::json!({ "field_types": types }))
}

/// The report's warnings, then its suggestions (SPEC §7.4), on standard error.
pub(crate) fn print_notes(report: &crate::eval::Report, stderr: &mut dyn Write) {
    for w in &report.warnings {
        let _ = writeln!(stderr, "warning: {w}");
    }
    for s in &report.suggestions {
        let _ = writeln!(
            stderr,
            "suggestion: compare `{}` as a {} ({:.1} % of its truth values read as one): {}",
            s.field,
            s.r#type,
            100.0 * s.share,
            serde_json::json!({ "field_types": { &s.field: &s.r#type } })
        );
    }
}

fn eval_command(args: &EvalArgs, stderr: &mut dyn Write) -> Result<String, Error> {
    let format: Format = args.format.parse()?;

    let metrics = match &args.metrics {
        Some(list) => literature::Metrics::parse(list)?,
        None => literature::Metrics::default(),
    };
    let mut stream = Stream::parse(&args.stream)?;
    // The literature metrics read each file whole, as their reference
    // implementations do: with --metrics nothing is streamed.
    if metrics.any() {
        if stream == Stream::Always {
            return Err(Error::new(
                ErrorKind::Usage,
                "--metrics reads every file whole: it cannot be combined with --stream always",
            ));
        }
        stream = Stream::Never;
    }
    if args.embed_inputs && format != Format::Html {
        return Err(Error::new(
            ErrorKind::Usage,
            "--embed-inputs puts the inputs into the HTML report: use it with --format html",
        ));
    }
    if args.embed_inputs {
        check_embedded_size(&args.input)?;
    }
    let corrections = args
        .corrections
        .as_deref()
        .map(correct::read_corrections)
        .transpose()?;
    if corrections.is_some() && args.partial.is_some() {
        return Err(Error::new(
            ErrorKind::Usage,
            "--corrections cannot be combined with --partial: write the corrected truth with `fieldscope correct` and give it as --truth",
        ));
    }
    let (mut config, mut input) = load_inputs_with(&args.input, |path| Source::open(path, stream))?;
    if let Some(url) = &args.app_url {
        config.app_url = Some(
            crate::eval::config::check_app_url(url)
                .map_err(|e| Error::new(ErrorKind::Usage, format!("--app-url: {}", e.message)))?,
        );
    }
    let mut corrected = Vec::new();
    if let Some(corrections) = &corrections {
        let (truth, warnings) = correct::corrected_truth(&args.input.truth, corrections, &config)?;
        input.truth = Source::Memory(truth);
        corrected = warnings;
    }
    if let Some(path) = &args.partial {
        return shards::partial_command(args, path, &config, input);
    }
    let include = HtmlInclude {
        charts: true,
        inputs: (args.embed_inputs)
            .then(|| {
                embedded_bundle(
                    &args.input,
                    &input.models,
                    corrections.as_ref().map(|c| c.1.as_slice()),
                )
            })
            .transpose()?,
        types: match format {
            Format::Html | Format::Markdown => doc_types(&args.input, &config, &input.schemas),
            _ => None,
        },
    };
    shards::check_bootstrap(args.bootstrap, args.alpha)?;
    let compare = match &args.compare {
        Some(pair) => match pair.split_once(',') {
            Some((b, c)) if !b.trim().is_empty() && !c.trim().is_empty() => {
                Some((b.trim().to_string(), c.trim().to_string()))
            }
            _ => {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("--compare {pair:?}: expected BASELINE,CANDIDATE (two model names)"),
                ))
            }
        },
        None => None,
    };
    let options = ReportOptions {
        details: args.details,
        metrics,
        bootstrap: args.bootstrap,
        seed: args.seed,
        alpha: args.alpha,
        compare,
    };
    let mut report =
        evaluate_report(input, &config, &options).map_err(|e| schema_error(&args.input, e))?;
    report.warnings.splice(0..0, corrected);
    print_notes(&report, stderr);
    Ok(render_report_including(&report, format, &include))
}

/// With several schemas (SPEC §7.2), the document types the HTML and
/// Markdown reports group by (`eval::groups::DocTypes`): each schema with
/// the truth documents that pick it (the truth file read once more, as the
/// evaluation reads it). `None` otherwise, and when the truth cannot be
/// read: the evaluation then says why, as it always did.
fn doc_types(
    args: &InputArgs,
    config: &Config,
    schemas: &[NamedSchema],
) -> Option<crate::eval::groups::DocTypes> {
    let by = config.schema_by.as_deref()?;
    if schemas.len() < 2 {
        return None;
    }
    let truth = parse_docs(&display_name(&args.truth), &read_file(&args.truth).ok()?).ok()?;
    let chosen =
        crate::eval::documents_by_schema(truth, config.id_field.as_deref(), schemas, by).ok()?;
    let choices: Vec<Option<usize>> = chosen.into_iter().map(|(_, c)| c).collect();
    Some(crate::eval::groups::DocTypes::of(schemas, &choices))
}

/// `--embed-inputs` refuses inputs over 50 MB together, before reading any.
fn check_embedded_size(args: &InputArgs) -> Result<(), Error> {
    let mut paths = vec![args.truth.clone()];
    for spec in &args.preds {
        paths.push(split_pred(spec)?.1);
    }
    paths.extend(args.schema.iter().chain(&args.config).cloned());
    let total = paths
        .iter()
        .map(|path| std::fs::metadata(path).map_or(0, |m| m.len()))
        .sum();
    crate::export::embed::check_size(total).map_err(|e| {
        Error::new(
            ErrorKind::Usage,
            format!("--embed-inputs: {e}; leave the flag out and share the input files instead"),
        )
    })
}

/// `--embed-inputs`: the bundle the browser app writes for the same files,
/// model names, costs and settings (`Session::to_bundle`; the config file
/// as a file, `--preset` as the settings; each file under its own name,
/// without its folder; the truth as given, with `--corrections` as the
/// bundle's corrections, which the app applies as this report did).
fn embedded_bundle<S>(
    args: &InputArgs,
    models: &[ModelInput<S>],
    corrections: Option<&[crate::eval::corrections::Correction]>,
) -> Result<String, Error> {
    use crate::session::{Role, Session};
    let mut files = vec![(args.truth.clone(), Role::Truth, None, None)];
    for (spec, model) in args.preds.iter().zip(models) {
        let path = split_pred(spec)?.1;
        files.push((
            path,
            Role::Predictions,
            Some(model.name.clone()),
            model.cost,
        ));
    }
    files.extend(
        args.schema
            .iter()
            .map(|p| (p.clone(), Role::Schema, None, None)),
    );
    files.extend(
        args.config
            .iter()
            .map(|p| (p.clone(), Role::Config, None, None)),
    );
    let mut read = Vec::with_capacity(files.len());
    for (path, role, model, cost) in files {
        let name = path
            .file_name()
            .map_or_else(|| display_name(&path), |n| n.to_string_lossy().into_owned());
        read.push((name, read_file(&path)?, role, model, cost));
    }
    let mut settings = serde_json::Map::new();
    if let Some(name) = &args.preset {
        let preset = Preset::parse(name).map_err(|e| Error::new(ErrorKind::Usage, e.message))?;
        settings.insert("preset".into(), preset.name().into());
    }
    if let Some(key) = &args.schema_by {
        settings.insert("schema_by".into(), key.trim().into());
    }
    if !args.slice_by.is_empty() {
        settings.insert("slice_by".into(), slice_keys(&args.slice_by)?.into());
    }
    let mut session = Session::of_files(read, settings);
    if let Some(list) = corrections {
        session
            .set_corrections(&crate::session::corrections_json(list))
            .map_err(|e| Error::new(ErrorKind::Input, e))?;
    }
    Ok(session.to_bundle())
}
