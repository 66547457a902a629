//! Files and messages: reading a file (its errors naming it), the
//! `--config` file as a configuration layer, writing a command's files,
//! the report's warnings and suggestions on standard error, and the exit
//! statuses.
//!
//! Owns: those helpers only. Depends on `crate::error`, `crate::io`'s JSON
//! reader, the configuration builder and the report.

use crate::error::{Error, ErrorKind};
use crate::eval::ConfigBuilder;
use crate::io::parse_json_value;
use std::io::Write;
use std::path::Path;

/// Exit status for success.
pub const EXIT_OK: i32 = 0;

/// Exit status for bad input or usage.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Writes `files` (names relative to `out`, directories created).
pub(super) fn write_files(out: &Path, files: Vec<(String, String)>, stderr: &mut dyn Write) -> i32 {
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

pub(super) fn read_file(path: &Path) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    read_file_into(path, &mut bytes)?;
    Ok(bytes)
}

/// The bytes of the file at `path` into `buf`, emptied first: memory it
/// already holds is used again (pages already touched cost no page fault).
pub(super) fn read_file_into(path: &Path, buf: &mut Vec<u8>) -> Result<(), Error> {
    use std::io::Read;
    let fail = |e: std::io::Error| {
        Error::new(ErrorKind::Io, format!("cannot read the file: {e}"))
            .in_file(path.display().to_string())
    };
    let mut file = std::fs::File::open(path).map_err(fail)?;
    buf.clear();
    // Room for the whole file at once, as `std::fs::read` makes it.
    if let Ok(len) = file.metadata().map(|m| usize::try_from(m.len())) {
        buf.try_reserve_exact(len.unwrap_or(0))
            .map_err(|e| fail(std::io::Error::other(e)))?;
    }
    file.read_to_end(buf).map_err(fail)?;
    Ok(())
}

pub(super) fn display_name(path: &Path) -> String {
    path.display().to_string()
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

/// A configuration builder with the `--config` file's layer (SPEC §4), if
/// one is given; its errors name the file.
pub(super) fn config_file(path: Option<&Path>) -> Result<ConfigBuilder, Error> {
    let builder = ConfigBuilder::new();
    let Some(path) = path else {
        return Ok(builder);
    };
    let value = parse_json_value(&display_name(path), &read_file(path)?)?;
    builder
        .layer(&value)
        .map_err(|e| e.in_file(display_name(path)))
}
