//! The output formats a report is written in ([`Format`]): their names
//! (`--format NAME`), file extensions and parsing.
//!
//! Owns: the format list. Plain data, re-exported by `export`; depends
//! only on `crate::error`.

use crate::error::{Error, ErrorKind};
use std::fmt;
use std::str::FromStr;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// The report as pretty-printed JSON (SPEC §5).
    Json,
    /// GitHub-flavoured Markdown tables.
    Markdown,
    /// LaTeX `tabular`s with booktabs rules.
    Latex,
    /// The per-field table as CSV.
    Csv,
    /// The whole report as one self-contained HTML page.
    Html,
}

impl Format {
    /// Every format, in the order they are listed to users.
    pub const ALL: [Format; 5] = [
        Format::Json,
        Format::Markdown,
        Format::Latex,
        Format::Csv,
        Format::Html,
    ];

    /// The name accepted by [`Format::from_str`] (`--format NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Latex => "latex",
            Format::Csv => "csv",
            Format::Html => "html",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Markdown => "md",
            Format::Latex => "tex",
            Format::Csv => "csv",
            Format::Html => "html",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;

    /// Parses a format name (`json`, `markdown`, `latex`, `csv`, `html`), ignoring
    /// ASCII case and surrounding whitespace. An unknown name is an
    /// [`ErrorKind::Usage`] error that lists the accepted names.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        Format::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                Error::new(
                    ErrorKind::Usage,
                    format!(
                        "unknown format `{wanted}`; expected one of: {}",
                        names.join(", ")
                    ),
                )
            })
    }
}
