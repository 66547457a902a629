//! Input adapters: bytes → records (SPEC §1.1).
//!
//! Owns: turning the bytes of a ground-truth or prediction file into a
//! [`RecordFile`], and the bytes of a schema or metrics-config file into one
//! JSON value. **This module does no file-system I/O**: it takes bytes and a
//! file name (used for the format and in errors); the command-line tool and
//! the app read the files. It never panics on any input, and every error
//! names the file and, when known, the line, the column (in characters) and
//! the record.
//!
//! # Text
//!
//! Files must be UTF-8. A UTF-8 byte-order mark at the start is skipped.
//! Anything else is an [`ErrorKind::Encoding`](crate::ErrorKind::Encoding)
//! error giving the byte offset, line and column of the first bad byte; a
//! UTF-16 byte-order mark, or many NUL bytes, is reported as "looks like
//! UTF-16". Every string value and every object key (CSV header names and
//! cells included) is normalised to NFC, so composed and decomposed letters
//! compare equal everywhere after this point.
//!
//! # Formats
//!
//! [`detect_format`] goes by the extension, case-insensitively: `.json`,
//! `.jsonl` / `.ndjson`, `.csv`. Any other name is sniffed from the text:
//! starting with `[` is JSON; starting with `{` is JSONL when the first line
//! is a complete JSON value by itself, unless it is the only line and maps
//! ids to objects (then JSON); a `{` whose first line is not complete is a
//! multi-line JSON document; anything else is CSV.
//!
//! * **JSON**: a top-level array of records, or a top-level object mapping
//!   id → record (every value an object; the key, trimmed, becomes
//!   [`Record::key`](crate::eval::model::Record::key), and repeated keys
//!   are all kept for the evaluation to warn about). Other shapes are
//!   [`ErrorKind::Shape`](crate::ErrorKind::Shape) errors. Records get the
//!   line on which they start. A `.json` file holding several objects on
//!   separate lines is read as JSONL.
//! * **JSONL**: one record (a JSON object) per line; lines holding only
//!   whitespace are skipped. `Record::line` is the line number, `index`
//!   counts records, not lines.
//! * **CSV**: a header row, then one record per row mapping each header name
//!   (trimmed) to its cell. **Cells stay strings**, even those that look
//!   like numbers (`"10.50"` is the string `"10.50"`): the spec's literal
//!   reading, and the evaluation's normalisation compares numbers by value
//!   anyway. An empty cell is the empty string (absent under the default
//!   `absent_values`). Header names are used as keys as written: `a.b` is
//!   one key, not a nested object. Ragged rows, a quoted field that is never
//!   closed, and empty or repeated header names are errors naming the line.
//!
//! # Empty files
//!
//! An empty (or whitespace-only) `.json` file is a syntax error ("empty
//! file"): it is not JSON, and is more likely a failed write than a file
//! with no records. An empty JSONL or CSV file, or a CSV file with only a
//! header row, has zero records: that is a valid file of those formats.
//! [`parse_json_value`] rejects an empty file.
//!
//! # Large JSONL files
//!
//! [`JsonlIndex`] reads a JSONL file through any `Read + Seek` in one
//! checking pass that keeps only each record's offset, length and line,
//! then hands records to the evaluation one at a time
//! ([`crate::eval::RecordSource`]): the same records, lines and errors as
//! [`parse_docs`], in memory proportional to the number of records rather
//! than their size. The command-line tool uses it for large files.
//!
//! # JSON errors
//!
//! serde_json's syntax errors keep their line and get a column counted in
//! characters; truncated input, `NaN` / `Infinity`, numbers beyond `f64`
//! (`1e400`) and nesting deeper than serde_json's limit of 128 get plain
//! messages.

mod correct;
mod csv;
mod json;
mod jsonl_index;
mod text;

use serde_json::Value;

use crate::error::{Error, ErrorKind};
use crate::eval::model::{DocFile, RecordFile};
use crate::eval::pace::{run_now, NoPause, Pace};

pub use correct::{correct_bytes, Corrected};
pub use jsonl_index::JsonlIndex;
pub use text::{decode_text, nfc_value};

/// The format of a records file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    /// A JSON array of records, or an object mapping id → record.
    Json,
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header row.
    Csv,
}

/// Parses a ground-truth or prediction file into records.
///
/// `file_name` chooses the format (see [`detect_format`]) and names the
/// file in errors; `bytes` are the file's contents.
///
/// ```
/// use fieldscope::io::parse_records;
/// let file = parse_records("truth.jsonl", b"{\"id\": \"a\"}\n\n{\"id\": \"b\"}\n").unwrap();
/// assert_eq!(file.records.len(), 2);
/// assert_eq!(file.records[1].line, Some(3));
///
/// let err = parse_records("truth.jsonl", b"{\"id\": \"a\"}\n{\"id\" \"b\"}\n").unwrap_err();
/// assert_eq!(err.to_string(), "truth.jsonl:2:7: expected `:`");
/// ```
pub fn parse_records(file_name: &str, bytes: &[u8]) -> Result<RecordFile, Error> {
    let text = decode_text(file_name, bytes)?;
    match detect_format(file_name, text) {
        FileFormat::Json => json::parse_json_records(file_name, text),
        FileFormat::Jsonl => json::parse_jsonl_records(file_name, text),
        FileFormat::Csv => csv::parse_csv_records(file_name, text),
    }
}

/// [`parse_records`] into one compact forest ([`DocFile`]), what the
/// evaluation reads: the same records, the same errors, about a tenth of
/// the memory of `serde_json` values. JSONL is read straight into the
/// forest; other formats, and a JSONL file with an error (to report it
/// exactly as [`parse_records`] does), go through [`parse_records`].
///
/// ```
/// use fieldscope::io::parse_docs;
/// let file = parse_docs("truth.jsonl", b"{\"id\": \"a\"}\n\n{\"id\": \"b\"}\n").unwrap();
/// assert_eq!(file.records.len(), 2);
/// assert_eq!(file.records[1].line, Some(3));
/// assert_eq!(file.to_records().records[1].fields["id"], "b");
/// ```
pub fn parse_docs(file_name: &str, bytes: &[u8]) -> Result<DocFile, Error> {
    run_now(parse_docs_paced(file_name, bytes, &mut NoPause))
        .flatten()
        .unwrap_or_else(|| Err(Error::new(ErrorKind::Input, "the reading was stopped")))
}

/// [`parse_docs`], a JSONL file read a line at a time: `pace` is asked
/// before each line whether to wait or stop (the browser app lets the page
/// paint and show the progress). `None` when it stopped.
pub async fn parse_docs_paced(
    file_name: &str,
    bytes: &[u8],
    pace: &mut dyn Pace,
) -> Option<Result<DocFile, Error>> {
    let text = match decode_text(file_name, bytes) {
        Ok(text) => text,
        Err(e) => return Some(Err(e)),
    };
    if detect_format(file_name, text) == FileFormat::Jsonl {
        if let Some(file) = json::jsonl_docs_paced(file_name, text, pace).await? {
            return Some(Ok(file));
        }
    }
    Some(docs_of_records(file_name, bytes))
}

/// [`parse_records`] into a forest: what [`parse_docs`] does with
/// anything but a JSONL file of objects (and with a JSONL file's errors).
fn docs_of_records(file_name: &str, bytes: &[u8]) -> Result<DocFile, Error> {
    let records = parse_records(file_name, bytes)?;
    DocFile::from_records(&records)
        .map_err(|e| Error::new(ErrorKind::Input, e.to_string()).in_file(file_name))
}

/// Parses one JSON document (schema, metrics config), NFC-normalised.
pub fn parse_json_value(file_name: &str, bytes: &[u8]) -> Result<Value, Error> {
    let text = decode_text(file_name, bytes)?;
    json::parse_document(file_name, text)
}

/// The format of a records file: by the extension of `file_name`, else
/// sniffed from `text` (see the [module docs](self)).
pub fn detect_format(file_name: &str, text: &str) -> FileFormat {
    if let Some(format) = format_of_name(file_name) {
        return format;
    }
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        FileFormat::Json
    } else if trimmed.starts_with('{') {
        match json::sniff_first_line(trimmed) {
            Some((true, true)) | None => FileFormat::Json,
            Some(_) => FileFormat::Jsonl,
        }
    } else {
        FileFormat::Csv
    }
}

/// The format `file_name`'s extension names (case-insensitively: `.json`,
/// `.jsonl` / `.ndjson`, `.csv`), if any.
pub fn format_of_name(file_name: &str) -> Option<FileFormat> {
    let extension = file_name
        .rsplit(['/', '\\'])
        .next()
        .and_then(|base| base.rsplit_once('.'))
        .map_or("", |(_, ext)| ext);
    [
        ("json", FileFormat::Json),
        ("jsonl", FileFormat::Jsonl),
        ("ndjson", FileFormat::Jsonl),
        ("csv", FileFormat::Csv),
    ]
    .into_iter()
    .find(|(ext, _)| extension.eq_ignore_ascii_case(ext))
    .map(|(_, format)| format)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_decides_case_insensitively() {
        assert_eq!(detect_format("a.JSON", "x"), FileFormat::Json);
        assert_eq!(detect_format("dir.csv/a.Jsonl", "x"), FileFormat::Jsonl);
        assert_eq!(detect_format("a.ndjson", "["), FileFormat::Jsonl);
        assert_eq!(detect_format("C:\\d\\a.CSV", "["), FileFormat::Csv);
    }

    #[test]
    fn unknown_extension_is_sniffed() {
        assert_eq!(detect_format("a.txt", " \n[1]"), FileFormat::Json);
        assert_eq!(
            detect_format("-", "{\"a\":1}\n{\"a\":2}\n"),
            FileFormat::Jsonl
        );
        assert_eq!(detect_format("-", "{\"a\":1}\n"), FileFormat::Jsonl);
        assert_eq!(detect_format("-", "{\"d1\":{\"a\":1}}"), FileFormat::Json);
        assert_eq!(detect_format("-", "{\n  \"d1\": {}\n}\n"), FileFormat::Json);
        assert_eq!(detect_format("data", "id,total\n"), FileFormat::Csv);
        assert_eq!(detect_format("data", ""), FileFormat::Csv);
        assert_eq!(detect_format(".json", "{}"), FileFormat::Json);
    }
}
