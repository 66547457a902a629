//! `fieldscope figures`: every chart of the report and of the three
//! threshold sweeps as SVG and PDF files at a paper's width, with
//! `captions.md`.
//!
//! Owns: the figures' flags and writing their files. Depends on `args`,
//! `files`, `inputs`, `sweep` (`--values`) and `crate::pipeline`.

use super::args::FiguresArgs;
use super::files::{display_name, print_notes};
use super::inputs::{load_inputs, schema_error};
use super::sweep::parse_values;
use crate::charts::PaperSize;
use crate::error::{Error, ErrorKind};
use crate::pipeline::{figure_files_and_report, FigureOptions};
use std::io::Write;

/// `fieldscope figures`: every chart of the report (with the confidence
/// charts when models have confidences) and of the three threshold sweeps
/// as `DIR/ID.svg` and `DIR/ID.pdf`, and `DIR/captions.md`
/// (each figure's files and caption). Prints the files written, one per
/// line.
pub(super) fn figures_command(args: &FiguresArgs, stderr: &mut dyn Write) -> Result<String, Error> {
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
