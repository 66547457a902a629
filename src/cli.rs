//! The command-line tool: arguments, files and exit codes only.
//!
//! Owns: parsing `fieldscope eval …`, `fieldscope sweep …` and
//! `fieldscope figures …` (with `clap`), reading and writing the files,
//! calling [`crate::io`], [`crate::eval`], [`crate::export`] and
//! [`crate::charts`], and turning errors into a message and exit status 2. Native only (never
//! compiled to wasm).

use crate::charts::{self, ChartOptions, PaperSize};
use crate::error::{Error, ErrorKind};
use crate::eval::sweep::{default_grid, sweep, SweepParam};
use crate::eval::{evaluate_owned, Config, ConfigBuilder, DocFile, EvalInput, ModelInput, Preset};
use crate::export::{render, ExportOptions, Format};
use crate::io::{parse_docs, parse_json_value};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

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
    /// F1 and accuracy per model as one matching threshold varies (each value a full re-evaluation).
    #[command(
        after_help = "Thresholds (SPEC §2.3, §3.4):\n  similarity  partial_matching.string.exact_threshold, with string_match.method = similarity\n  cer         string_match.cer_threshold, with string_match.method = cer\n  item        item_f1_threshold (field scores do not depend on it; item F1 does)\nEvery other key keeps its configured value.\n\nExample:\n  fieldscope sweep --truth truth.jsonl --pred a=a.jsonl --pred b=b.jsonl --param cer --format markdown"
    )]
    Sweep(SweepArgs),
    /// Write every chart (and the threshold-sweep charts) as SVG and PDF at paper size.
    #[command(
        after_help = "PDFs embed Liberation Sans (TrueType, subsetted; never Type 3).\n\nExample:\n  fieldscope figures --truth truth.jsonl --pred a=a.jsonl --pred b=b.jsonl --out figures --size column"
    )]
    Figures(FiguresArgs),
}

/// The inputs every command reads.
#[derive(Debug, clap::Args)]
struct InputArgs {
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
}

#[derive(Debug, clap::Args)]
struct SweepArgs {
    #[command(flatten)]
    input: InputArgs,

    /// The threshold to vary: similarity, cer or item.
    #[arg(long, value_name = "NAME")]
    param: String,

    /// Comma-separated threshold values (default 0,0.05,…,1: 21 values). Evaluated in ascending order, each once.
    #[arg(long, value_name = "LIST")]
    values: Option<String>,

    /// Output format: json, markdown, csv or latex.
    #[arg(long, value_name = "FORMAT", default_value = "json")]
    format: String,

    /// Write the table to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct FiguresArgs {
    #[command(flatten)]
    input: InputArgs,

    /// Directory to write the figures to (created if missing).
    #[arg(long, value_name = "DIR", default_value = "figures")]
    out: PathBuf,

    /// Figure width: column (3.3 in) or full (7 in).
    #[arg(long, value_name = "SIZE", default_value = "full")]
    size: String,

    /// Comma-separated file formats: pdf, svg.
    #[arg(long, value_name = "LIST", default_value = "pdf,svg")]
    format: String,

    /// Threshold values of the sweep charts (default 0,0.05,…,1).
    #[arg(long, value_name = "LIST")]
    values: Option<String>,
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
    let args = match cli.command {
        Command::Eval(args) => args,
        Command::Sweep(args) => {
            return finish(
                sweep_command(&args, stderr),
                args.out.as_deref(),
                stdout,
                stderr,
            )
        }
        Command::Figures(args) => {
            return finish(figures_command(&args, stderr), None, stdout, stderr)
        }
    };
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
    let report = evaluate_owned(input, &config, args.details).map_err(|e| match &args.schema {
        Some(path) if e.kind == ErrorKind::Schema => e.in_file(display_name(path)),
        _ => e,
    })?;
    for w in &report.warnings {
        let _ = writeln!(stderr, "warning: {w}");
    }
    Ok(render(&report, format, &ExportOptions::default()))
}

/// Writes a command's output to `out` (or standard output) and turns an
/// error into a message and exit status 2.
fn finish(
    result: Result<String, Error>,
    out: Option<&Path>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let text = match result {
        Ok(text) => text,
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let written = match out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| format!("error: cannot write {}: {e}", path.display())),
        None => stdout
            .write_all(text.as_bytes())
            .map_err(|e| format!("error: cannot write the output: {e}")),
    };
    match written {
        Ok(()) => EXIT_OK,
        Err(message) => {
            let _ = writeln!(stderr, "{message}");
            EXIT_BAD_INPUT
        }
    }
}

/// Reads the configuration and every input file once.
fn load(args: &InputArgs) -> Result<(EvalInput<DocFile>, Config), Error> {
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
    Ok((
        EvalInput {
            truth,
            models,
            schema,
        },
        config,
    ))
}

/// A schema error names the schema file.
fn schema_error(args: &InputArgs) -> impl Fn(Error) -> Error + '_ {
    move |e| match &args.schema {
        Some(path) if e.kind == ErrorKind::Schema => e.in_file(display_name(path)),
        _ => e,
    }
}

/// `--values 0,0.1,0.5`: every item a number; the error names the item.
fn parse_values(list: Option<&str>) -> Result<Vec<f64>, Error> {
    let Some(list) = list else {
        return Ok(default_grid());
    };
    list.split(',')
        .map(|item| {
            item.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Usage,
                        format!("--values {list:?}: {:?} is not a number", item.trim()),
                    )
                })
        })
        .collect()
}

fn sweep_command(args: &SweepArgs, stderr: &mut dyn Write) -> Result<String, Error> {
    let format: Format = args.format.parse()?;
    if format == Format::Html {
        return Err(Error::new(
            ErrorKind::Usage,
            "--format html: a sweep is written as json, markdown, csv or latex",
        ));
    }
    let param = SweepParam::parse(&args.param)
        .map_err(|e| Error::new(ErrorKind::Usage, format!("--param: {}", e.message)))?;
    let values = parse_values(args.values.as_deref())?;
    let (input, config) = load(&args.input)?;
    let result = sweep(input, &config, param, &values)
        .map_err(schema_error(&args.input))
        .map_err(|e| match e.kind {
            ErrorKind::Usage => Error::new(ErrorKind::Usage, format!("--values: {}", e.message)),
            _ => e,
        })?;
    for w in &result.warnings {
        let _ = writeln!(stderr, "warning: {w}");
    }
    crate::export::sweep::render(&result, format, &ExportOptions::default())
}

/// What `figures` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FigureFormats {
    pdf: bool,
    svg: bool,
}

fn parse_figure_formats(list: &str) -> Result<FigureFormats, Error> {
    let mut f = FigureFormats {
        pdf: false,
        svg: false,
    };
    for item in list.split(',') {
        match item.trim().to_ascii_lowercase().as_str() {
            "pdf" => f.pdf = true,
            "svg" => f.svg = true,
            other => {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("--format {list:?}: unknown figure format {other:?}; expected pdf, svg or both (pdf,svg)"),
                ))
            }
        }
    }
    Ok(f)
}

fn parse_size(size: &str) -> Result<PaperSize, Error> {
    match size.trim().to_ascii_lowercase().as_str() {
        "column" => Ok(PaperSize::SingleColumn),
        "full" => Ok(PaperSize::FullWidth),
        other => Err(Error::new(
            ErrorKind::Usage,
            format!("--size {other:?}: expected column (3.3 in) or full (7 in)"),
        )),
    }
}

/// Writes every chart of the report and of the three threshold sweeps as
/// `DIR/ID.svg` and `DIR/ID.pdf`, and `DIR/captions.md` (each figure's
/// file and caption). Returns the list of files written, one per line.
fn figures_command(args: &FiguresArgs, stderr: &mut dyn Write) -> Result<String, Error> {
    let formats = parse_figure_formats(&args.format)?;
    let size = parse_size(&args.size)?;
    let values = parse_values(args.values.as_deref())?;
    let (input, config) = load(&args.input)?;
    let options = ChartOptions {
        size,
        ..ChartOptions::default()
    };

    let report =
        evaluate_owned(input.clone(), &config, false).map_err(schema_error(&args.input))?;
    for w in &report.warnings {
        let _ = writeln!(stderr, "warning: {w}");
    }
    let mut figures = charts::all(&report, &options);
    for param in SweepParam::ALL {
        let s = sweep(input.clone(), &config, param, &values)
            .map_err(schema_error(&args.input))
            .map_err(|e| match e.kind {
                ErrorKind::Usage => {
                    Error::new(ErrorKind::Usage, format!("--values: {}", e.message))
                }
                _ => e,
            })?;
        figures.extend(charts::sweep_charts(&s, &options));
    }
    drop(input);

    let dir = &args.out;
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::new(ErrorKind::Io, format!("cannot create the directory: {e}"))
            .in_file(dir.display().to_string())
    })?;
    let write = |name: String, bytes: &[u8]| -> Result<String, Error> {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| {
            Error::new(ErrorKind::Io, format!("cannot write the file: {e}"))
                .in_file(path.display().to_string())
        })?;
        Ok(path.display().to_string())
    };
    let mut written = Vec::new();
    let mut captions = String::from("# Figures\n\n");
    for figure in &figures {
        captions.push_str(&format!(
            "- `{}`: {}\n",
            figure.id,
            crate::export::markdown::escape(&figure.caption)
        ));
        if formats.svg {
            written.push(write(format!("{}.svg", figure.id), figure.svg.as_bytes())?);
        }
        if formats.pdf {
            let pdf = crate::export::pdf::svg_to_pdf(&figure.svg)
                .map_err(|e| e.in_file(format!("{}.pdf", figure.id)))?;
            written.push(write(format!("{}.pdf", figure.id), &pdf)?);
        }
    }
    written.push(write("captions.md".to_string(), captions.as_bytes())?);
    let mut out = written.join("\n");
    out.push('\n');
    Ok(out)
}
