//! `fieldscope gate`: arguments, files and exit codes of the CI gate
//! (issue 17). The checks are `crate::eval::gate`'s, the outputs
//! `crate::export::gate`'s.
//!
//! Exit status: 0 every check passed, 1 a check failed, 2 bad input or
//! usage (as `eval`). The Markdown summary goes to standard output,
//! `--json` and `--junit` files are written whatever the verdict.

use super::args::InputArgs;
use super::files::{display_name, EXIT_BAD_INPUT, EXIT_OK};
use super::inputs::{load_inputs, schema_error};
use crate::error::{Error, ErrorKind};
use crate::eval::evaluate_owned;
use crate::eval::gate::metric::{MetricPath, Requirement};
use crate::eval::gate::{run_gate, GateOptions, GateSpec};
use crate::export::{gate, ExportOptions};
use std::io::Write;
use std::path::PathBuf;

/// Exit status when a check failed.
pub const EXIT_FAILED: i32 = 1;

#[derive(Debug, clap::Args)]
pub struct GateArgs {
    #[command(flatten)]
    pub(super) input: InputArgs,

    #[command(flatten)]
    pub(super) corrections: super::correct::CorrectionsArg,

    /// A threshold: [MODEL:]METRIC OP NUMBER, OP one of >=, >, <=, <, ==; METRIC a path into the JSON report's model object (micro.f1, macro_documents.recall, hallucination_rate, cer, items.f1, fields[total].f1, errors.scale, …). Without MODEL: every model but the baseline. Repeatable.
    #[arg(long = "require", value_name = "EXPR")]
    requires: Vec<String>,

    /// The baseline model: every other model is a candidate checked for regressions against it.
    #[arg(long, value_name = "NAME")]
    baseline: Option<String>,

    /// The metrics checked for regressions, comma-separated (default micro.f1,macro_documents.f1,fields[*].f1: the F1 of every field).
    #[arg(long = "no-regression", value_name = "METRIC,…")]
    no_regression: Option<String>,

    /// Resamples of the paired bootstrap.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    resamples: usize,

    /// Seed of the resampling (the same seed gives the same verdict; the resamples of `eval --bootstrap` with that seed).
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    seed: u64,

    /// A regression fails when its Holm-adjusted one-sided p-value is at most ALPHA …
    #[arg(long, value_name = "ALPHA", default_value_t = 0.05)]
    alpha: f64,

    /// … and the drop is larger than DROP (in the metric's units, e.g. 0.01 for one point of F1).
    #[arg(long = "min-drop", value_name = "DROP", default_value_t = 0.0)]
    min_drop: f64,

    /// Also write every check and flipped document as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,

    /// Also write JUnit XML (one testsuite per model, one testcase per check) to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
}

/// `--no-regression`'s list: split at commas outside brackets, so a field
/// name may hold a comma (`fields[a,b].f1`).
fn split_metrics(list: &str) -> Vec<&str> {
    let (mut parts, mut start, mut depth) = (Vec::new(), 0, 0i32);
    for (i, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    parts
}

fn usage(message: String) -> Error {
    Error::new(ErrorKind::Usage, message)
}

/// Runs the gate; returns the exit status.
pub fn gate_command(args: &GateArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    match gate_outputs(args, stderr) {
        Ok((summary, passed)) => match stdout.write_all(summary.as_bytes()) {
            Ok(()) if passed => EXIT_OK,
            Ok(()) => EXIT_FAILED,
            Err(e) => {
                let _ = writeln!(stderr, "error: cannot write the summary: {e}");
                EXIT_BAD_INPUT
            }
        },
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            EXIT_BAD_INPUT
        }
    }
}

fn gate_outputs(args: &GateArgs, stderr: &mut dyn Write) -> Result<(String, bool), Error> {
    if args.resamples == 0 {
        return Err(usage(
            "--resamples must be at least 1 (2000 is the default)".into(),
        ));
    }
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        return Err(usage(format!(
            "--alpha {}: expected a number between 0 and 1",
            args.alpha
        )));
    }
    if !(args.min_drop.is_finite() && args.min_drop >= 0.0) {
        return Err(usage(format!(
            "--min-drop {}: expected a number of 0 or more",
            args.min_drop
        )));
    }
    let requirements = args
        .requires
        .iter()
        .map(|r| Requirement::parse(r))
        .collect::<Result<Vec<_>, _>>()?;
    let no_regression = match &args.no_regression {
        Some(list) => Some(
            split_metrics(list)
                .into_iter()
                .map(|m| {
                    MetricPath::parse(m)
                        .map_err(|e| usage(format!("--no-regression: {}", e.message)))
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
        None => None,
    };
    let spec = GateSpec {
        requirements,
        baseline: args.baseline.clone(),
        no_regression,
    };
    let options = GateOptions {
        resamples: args.resamples,
        seed: args.seed,
        alpha: args.alpha,
        min_drop: args.min_drop,
        ..GateOptions::default()
    };
    let (config, mut input) = load_inputs(&args.input)?;
    let corrected = args
        .corrections
        .apply(&args.input.truth, &config, &mut input)?;
    // The checks read each document's tallies and details.
    let mut report =
        evaluate_owned(input, &config, true).map_err(|e| schema_error(&args.input, e))?;
    // As `eval --corrections`: the corrections applied, first.
    report.warnings.splice(0..0, corrected);
    let result = run_gate(&report, &config, &spec, &options)?;
    for w in &result.warnings {
        let _ = writeln!(stderr, "warning: {w}");
    }
    let export = ExportOptions::default();
    let write = |path: &PathBuf, text: String| {
        std::fs::write(path, text).map_err(|e| {
            Error::new(ErrorKind::Io, format!("cannot write the file: {e}"))
                .in_file(display_name(path))
        })
    };
    if let Some(path) = &args.json {
        write(path, gate::json(&result))?;
    }
    if let Some(path) = &args.junit {
        write(path, gate::junit(&result, &export))?;
    }
    Ok((gate::markdown(&result, &export), result.passed))
}

#[cfg(test)]
mod tests {
    #[test]
    fn metric_lists_split_outside_brackets() {
        assert_eq!(
            super::split_metrics("micro.f1,fields[a,b].f1, fields[*].f1"),
            ["micro.f1", "fields[a,b].f1", " fields[*].f1"]
        );
        assert_eq!(super::split_metrics("micro.f1"), ["micro.f1"]);
    }
}
