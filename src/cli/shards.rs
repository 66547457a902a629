//! `--jobs N`, `fieldscope learn`, `eval --partial` and `fieldscope merge`:
//! the thread pool the commands run on and the partial-result files.
//!
//! Owns: building the rayon pool of `--jobs` threads (default: every
//! available core) that the evaluation's comparison pass uses, reading and
//! writing learned-fields and partial-result files, and the `learn` and
//! `merge` subcommands' arguments. The formats and every check are
//! `crate::eval::evaluate::partial`'s; nothing here computes a number.

use super::args::{EvalArgs, InputArgs};
use super::files::{display_name, print_notes, read_file};
use super::inputs::load_inputs;
use crate::error::{Error, ErrorKind};
use crate::eval::evaluate::{evaluate_partial, learn, read_learned};
use crate::eval::{Config, EvalInput, RecordSource};
use crate::export::Format;
use crate::pipeline::{merge_report, render_report, ReportOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `fieldscope learn`'s arguments.
#[derive(Debug, clap::Args)]
pub struct LearnArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// The learned-fields file to write (give it to every `eval --partial` run as --learned).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `fieldscope merge`'s arguments.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Partial results (from `eval --partial`), in the order their documents follow each other.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Output format: json, markdown, latex, csv or html (as `eval`).
    #[arg(long, value_name = "FORMAT", default_value = "json")]
    pub format: String,

    /// Add per-document details (the partial results must have been made with --details).
    #[arg(long)]
    pub details: bool,

    /// Add 95 % bootstrap intervals and paired tests (N resamples; 1000 when N is left out), as `eval --bootstrap`.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "1000")]
    pub bootstrap: Option<usize>,

    /// Seed of the bootstrap's resampling.
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    pub seed: u64,

    /// Significance level of the paired tests, after the Holm correction.
    #[arg(long, value_name = "ALPHA", default_value_t = 0.05)]
    pub alpha: f64,

    /// Write the report to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The pool of `jobs` threads (`None`: one per available core) that a
/// command runs on.
pub fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    if jobs == Some(0) {
        return Err(Error::new(
            ErrorKind::Usage,
            "--jobs 0: give at least 1 (1 evaluates on one thread)",
        ));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| {
            Error::new(
                ErrorKind::Usage,
                format!("--jobs: cannot start the threads: {e}"),
            )
        })
}

/// `--bootstrap`, `--seed`, `--alpha` checked as `eval` checks them.
pub fn check_bootstrap(resamples: Option<usize>, alpha: f64) -> Result<(), Error> {
    if resamples == Some(0) {
        return Err(Error::new(
            ErrorKind::Usage,
            "--bootstrap needs at least 1 resample (1000 is the usual number)",
        ));
    }
    if resamples.is_some() && !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::new(
            ErrorKind::Usage,
            format!("--alpha {alpha}: expected a number between 0 and 1"),
        ));
    }
    Ok(())
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    std::fs::write(path, bytes).map_err(|e| {
        Error::new(ErrorKind::Io, format!("cannot write the file: {e}")).in_file(display_name(path))
    })
}

/// `fieldscope learn`: the passes before the comparison over every
/// document, written to `--out`.
pub fn learn_command(args: &LearnArgs) -> Result<String, Error> {
    let (config, input) = load_inputs(&args.input)?;
    let learned = learn(input, &config).map_err(|e| schema_error(&args.input, e))?;
    write_bytes(&args.out, &learned.to_bytes())?;
    Ok(String::new())
}

fn schema_error(input: &InputArgs, e: Error) -> Error {
    super::inputs::schema_error(input, e)
}

/// `eval --partial FILE`: the shard's partial result instead of a report.
pub fn partial_command<S: RecordSource>(
    args: &EvalArgs,
    path: &Path,
    config: &Config,
    input: EvalInput<S>,
) -> Result<String, Error> {
    let refuse = |flag: &str| {
        Err(Error::new(
            ErrorKind::Usage,
            format!("--partial writes a partial result, not a report: {flag} belongs to `fieldscope merge`"),
        ))
    };
    if args.bootstrap.is_some() {
        return refuse("--bootstrap");
    }
    if args.out.is_some() {
        return refuse("--out");
    }
    if args.metrics.is_some() {
        return Err(Error::new(
            ErrorKind::Usage,
            "--metrics cannot be combined with --partial (the literature metrics are not merged)",
        ));
    }
    if args.compare.is_some() {
        return Err(Error::new(
            ErrorKind::Usage,
            "--compare cannot be combined with --partial (the flipped documents are not merged)",
        ));
    }
    if args.embed_inputs {
        return Err(Error::new(
            ErrorKind::Usage,
            "--embed-inputs cannot be combined with --partial (a partial result is not an HTML report)",
        ));
    }
    let learned = match &args.learned {
        Some(file) => Some(read_learned(&display_name(file), &read_file(file)?)?),
        None => None,
    };
    let bytes = evaluate_partial(input, config, learned.as_ref(), args.details)
        .map_err(|e| schema_error(&args.input, e))?;
    write_bytes(path, &bytes)?;
    Ok(String::new())
}

/// `fieldscope merge`: the report of every partial result's documents.
pub fn merge_command(args: &MergeArgs, stderr: &mut dyn Write) -> Result<String, Error> {
    let format: Format = args.format.parse()?;
    check_bootstrap(args.bootstrap, args.alpha)?;
    let files = args
        .files
        .iter()
        .map(|path| Ok((display_name(path), read_file(path)?)))
        .collect::<Result<Vec<_>, Error>>()?;
    let partials: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
        .collect();
    let options = ReportOptions {
        details: args.details,
        bootstrap: args.bootstrap,
        seed: args.seed,
        alpha: args.alpha,
        ..ReportOptions::default()
    };
    let report = merge_report(&partials, &options)?;
    print_notes(&report, stderr);
    Ok(render_report(&report, format))
}
