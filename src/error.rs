//! The crate's one error type.
//!
//! Owns: [`Error`] and [`ErrorKind`]. Every error says *where*: the file, and
//! when known the 1-based line and column, the record (its id or its
//! position) and the configuration key. Depends on nothing else in the crate.
//!
//! Broken input is reported, never hidden: adapters and the evaluation return
//! `Result<_, Error>` and never panic on user data.

use std::fmt;

/// What went wrong, in broad strokes (the message says the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The bytes are not UTF-8 text.
    Encoding,
    /// JSON, JSONL or CSV syntax error.
    Syntax,
    /// Well-formed text of the wrong shape (e.g. a record that is not an object).
    Shape,
    /// A bad metrics configuration (unknown key, wrong type, value out of range).
    Config,
    /// The JSON Schema itself is not a valid draft-07 schema.
    Schema,
    /// Inconsistent inputs (e.g. no ground-truth records at all).
    Input,
    /// Bad command-line usage.
    Usage,
    /// A file could not be read or written (CLI only).
    Io,
}

/// An error with its position. Displayed as `file:line:column: message`
/// (parts that are unknown are left out).
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub kind: ErrorKind,
    /// The file name as the user gave it.
    pub file: Option<String>,
    /// 1-based line.
    pub line: Option<usize>,
    /// 1-based column, counted in characters.
    pub column: Option<usize>,
    /// The record, e.g. `record 3` or `record "doc_7"`.
    pub record: Option<String>,
    /// What was expected and what was found.
    pub message: String,
}

impl Error {
    /// A new error of `kind` saying `message`, with no position yet.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            file: None,
            line: None,
            column: None,
            record: None,
            message: message.into(),
        }
    }

    /// Names the file the error is in.
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Sets the 1-based line and column.
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Sets the 1-based line only.
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    /// Names the record.
    pub fn in_record(mut self, record: impl Into<String>) -> Self {
        self.record = Some(record.into());
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}")?;
            if let Some(line) = self.line {
                write!(f, ":{line}")?;
                if let Some(column) = self.column {
                    write!(f, ":{column}")?;
                }
            }
            write!(f, ": ")?;
        } else if let Some(line) = self.line {
            write!(f, "line {line}")?;
            if let Some(column) = self.column {
                write!(f, ", column {column}")?;
            }
            write!(f, ": ")?;
        }
        if let Some(record) = &self.record {
            write!(f, "{record}: ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_line_column_and_record() {
        let e = Error::new(ErrorKind::Syntax, "expected `,` or `}`")
            .in_file("preds.jsonl")
            .at(3, 17)
            .in_record("record 3");
        assert_eq!(
            e.to_string(),
            "preds.jsonl:3:17: record 3: expected `,` or `}`"
        );
        let e = Error::new(ErrorKind::Config, "unknown key `x`");
        assert_eq!(e.to_string(), "unknown key `x`");
    }
}
