//! The command-line tool: arguments, files and exit codes only.
//!
//! Owns: parsing `fieldscope eval …` (with `clap`), reading the files,
//! calling [`crate::io`], [`crate::eval`] and [`crate::export`], and
//! turning errors into a message and exit status 2. Native only (never
//! compiled to wasm).

use crate::error::{Error, ErrorKind};
use crate::eval::stats::{StatsJob, StatsSettings, DEFAULT_RESAMPLES};
use crate::eval::{
    evaluate_owned, evaluate_owned_with_samples, ConfigBuilder, EvalInput, ModelInput, Preset,
};
use crate::export::{render, ExportOptions, Format};
use crate::io::{parse_docs, parse_json_value};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

// `--bootstrap` without a value means the core's default number of resamples.
const _: () = assert!(DEFAULT_RESAMPLES == 1000);

/// Exit status for success.
pub const EXIT_OK: i32 = 0;
/// Exit status for bad input or usage.
pub const EXIT_BAD_INPUT: i32 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "fieldscope",
    version,
    about = "Evaluate structured-data extraction: precision, recall, F1, accuracy, CER and line items, as SPEC.md defines them.",
    after_help = "Exit status: 0 on success, 2 on bad input or usage (the message says which file, line and column)."
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
}

#[derive(Debug, clap::Args)]
struct EvalArgs {
    /// Ground-truth file: .json (array, or object mapping id → record), .jsonl or .csv.
    #[arg(long, value_name = "FILE")]
    truth: PathBuf,

    /// A model's predictions as NAME=FILE (or just FILE: the name is the file stem). Repeat for each model.
    #[arg(long = "pred", value_name = "NAME=FILE", required = true)]
    preds: Vec<String>,

    /// JSON Schema (draft-07) of the records: field types and schema validity.
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,

    /// Metrics configuration (metrics_config.json, SPEC §4).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Preset: standard, exact, not-found or invoice-cer. Beats the config file's preset.
    #[arg(long, value_name = "NAME")]
    preset: Option<String>,

    /// A model's cost as NAME=VALUE (overrides the records' `cost` values). Repeatable.
    #[arg(long = "cost", value_name = "NAME=VALUE")]
    costs: Vec<String>,

    /// Output format: json (the full report), markdown, latex (model tables), csv (per-field table), html (the whole report as one self-contained page, no scripts, prints well).
    #[arg(long, value_name = "FORMAT", default_value = "json")]
    format: String,

    /// Add per-document details (each field's truth, prediction, outcome, similarity, CER) to the JSON report.
    #[arg(long)]
    details: bool,

    /// Add percentile bootstrap intervals (N resamples of the documents; 1000 when N is left out) of the headline scores, and paired approximate-randomisation tests between the models with Holm's correction. Off by default.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "1000")]
    bootstrap: Option<usize>,

    /// Seed of the bootstrap and of the paired tests (default 0). Needs --bootstrap.
    #[arg(long, value_name = "S", requires = "bootstrap")]
    seed: Option<u64>,

    /// Significance level of the paired tests (default 0.05); the intervals have confidence 1 − A. Needs --bootstrap.
    #[arg(long, value_name = "A", requires = "bootstrap")]
    alpha: Option<f64>,

    /// Write the report to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
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
    let Command::Eval(args) = cli.command;
    match eval_command(&args, stderr) {
        Ok(text) => match &args.out {
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

fn eval_command(args: &EvalArgs, stderr: &mut dyn Write) -> Result<String, Error> {
    let format: Format = args.format.parse()?;

    let mut builder = ConfigBuilder::new();
    if let Some(path) = &args.config {
        let value = parse_json_value(&display_name(path), &read_file(path)?)?;
        builder = builder
            .layer(&value)
            .map_err(|e| e.in_file(display_name(path)))?;
    }
    if let Some(name) = &args.preset {
        builder = builder.preset(
            Preset::parse(name)
                .map_err(|e| Error::new(ErrorKind::Usage, format!("--preset: {}", e.message)))?,
        );
    }
    let config = builder.build()?;

    let truth = parse_docs(&display_name(&args.truth), &read_file(&args.truth)?)?;
    let schema = match &args.schema {
        Some(path) => Some(parse_json_value(&display_name(path), &read_file(path)?)?),
        None => None,
    };
    let mut models = Vec::with_capacity(args.preds.len());
    for spec in &args.preds {
        let (name, path) = split_pred(spec)?;
        let file = parse_docs(&display_name(&path), &read_file(&path)?)?;
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
    };
    let in_schema = |e: Error| match &args.schema {
        Some(path) if e.kind == ErrorKind::Schema => e.in_file(display_name(path)),
        _ => e,
    };
    let report = match args.bootstrap {
        None => evaluate_owned(input, &config, args.details).map_err(in_schema)?,
        Some(resamples) => {
            let defaults = StatsSettings::default();
            let settings = StatsSettings {
                resamples,
                seed: args.seed.unwrap_or(defaults.seed),
                alpha: args.alpha.unwrap_or(defaults.alpha),
            };
            if settings.resamples == 0 {
                return Err(Error::new(
                    ErrorKind::Usage,
                    "--bootstrap: the number of resamples must be at least 1, found 0",
                ));
            }
            if !(settings.alpha > 0.0 && settings.alpha < 1.0) {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!(
                        "--alpha: expected a number strictly between 0 and 1, found {}",
                        settings.alpha
                    ),
                ));
            }
            let (mut report, samples) =
                evaluate_owned_with_samples(input, &config, args.details).map_err(in_schema)?;
            StatsJob::new(samples, config.clone(), settings)?
                .finish()
                .apply(&mut report);
            report
        }
    };
    for w in &report.warnings {
        let _ = writeln!(stderr, "warning: {w}");
    }
    Ok(render(&report, format, &ExportOptions::default()))
}
