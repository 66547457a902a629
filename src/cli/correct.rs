//! `fieldscope correct` and `eval --corrections` (SPEC §9.3): a truth file
//! with a list of corrections applied.
//!
//! Owns: the `correct` subcommand's arguments, reading a corrections file,
//! the corrected truth as `eval` evaluates it, and `--corrections FILE` of
//! `gate`, `sweep` and `figures` ([`CorrectionsArg`]: the same meaning as
//! on `eval`). Applying and writing
//! are `eval::corrections`'s and `io::correct`'s: `eval --corrections`
//! evaluates exactly the bytes `correct` writes.

use super::files::{config_file, display_name, read_file};
use crate::error::{Error, ErrorKind};
use crate::eval::config::Config;
use crate::eval::corrections::{parse_corrections, Correction};
use crate::eval::{DocFile, EvalInput};
use crate::io::{correct_bytes, parse_docs, parse_json_value};
use std::path::{Path, PathBuf};

/// `fieldscope correct`'s arguments.
#[derive(Debug, clap::Args)]
pub struct CorrectArgs {
    /// Ground-truth file: .json (array, or object mapping id → record), .jsonl or .csv.
    #[arg(long, value_name = "FILE")]
    pub truth: PathBuf,

    /// Corrections: a JSON list of {"id", "field", "from", "to"} (field with 0-based item indices, e.g. items[1].qty; from null for an absent truth).
    #[arg(long, value_name = "FILE")]
    pub corrections: PathBuf,

    /// The corrected truth file to write, in the input's shape (untouched records byte for byte).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,

    /// Metrics configuration (for `id_field` and `absent_values`, as `eval` reads them).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `--corrections FILE` of `gate`, `sweep` and `figures`.
#[derive(Debug, clap::Args)]
pub struct CorrectionsArg {
    /// Apply corrections to the truth before evaluating, as `eval --corrections` does (SPEC §9.3): a JSON list of {"id", "field", "from", "to"}. Each applied correction is a warning on standard error; a correction that does not fit the truth is an error.
    #[arg(long, value_name = "FILE")]
    pub corrections: Option<PathBuf>,
}

impl CorrectionsArg {
    /// With `--corrections`: `input`'s truth (read from `truth`) replaced
    /// by the corrected truth `eval --corrections` evaluates, and one
    /// warning per correction applied (for the command to put first among
    /// its warnings, as `eval` does). Without it nothing changes.
    pub fn apply(
        &self,
        truth: &Path,
        config: &Config,
        input: &mut EvalInput<DocFile>,
    ) -> Result<Vec<String>, Error> {
        let Some(path) = &self.corrections else {
            return Ok(Vec::new());
        };
        let corrections = read_corrections(path)?;
        let (corrected, warnings) = corrected_truth(truth, &corrections, config)?;
        input.truth = corrected;
        Ok(warnings)
    }
}

/// A corrections file's name and its corrections.
pub fn read_corrections(path: &Path) -> Result<(String, Vec<Correction>), Error> {
    let name = display_name(path);
    let value = parse_json_value(&name, &read_file(path)?)?;
    let list = parse_corrections(&name, &value)?;
    Ok((name, list))
}

/// The truth file at `truth` with `corrections` applied: its bytes (in
/// its own shape) and the warnings listing each correction applied.
pub fn corrected_bytes(
    truth: &Path,
    corrections: &(String, Vec<Correction>),
    config: &Config,
) -> Result<(Vec<u8>, Vec<String>), Error> {
    let name = display_name(truth);
    let corrected = correct_bytes(
        &name,
        &read_file(truth)?,
        &corrections.1,
        &corrections.0,
        config,
    )?;
    Ok((corrected.bytes, corrected.warnings))
}

/// The corrected truth as `eval --corrections` evaluates it: the bytes
/// `correct` would write, parsed as the truth file.
pub fn corrected_truth(
    truth: &Path,
    corrections: &(String, Vec<Correction>),
    config: &Config,
) -> Result<(DocFile, Vec<String>), Error> {
    let (bytes, warnings) = corrected_bytes(truth, corrections, config)?;
    Ok((parse_docs(&display_name(truth), &bytes)?, warnings))
}

/// `fieldscope correct`: writes the corrected truth; the warnings (one
/// per correction applied) are returned for standard error.
pub fn correct_command(args: &CorrectArgs) -> Result<Vec<String>, Error> {
    let config = config_file(args.config.as_deref())?.build()?;
    let corrections = read_corrections(&args.corrections)?;
    let (bytes, warnings) = corrected_bytes(&args.truth, &corrections, &config)?;
    std::fs::write(&args.out, bytes).map_err(|e| {
        Error::new(ErrorKind::Io, format!("cannot write the file: {e}"))
            .in_file(display_name(&args.out))
    })?;
    Ok(warnings)
}
