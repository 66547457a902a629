//! A records file's format and its records: [`FileFormat`] by name or
//! by sniffing the text ([`detect_format`]), and the bytes of a file read
//! as records ([`parse_records`]), compact documents ([`parse_docs`], paced
//! for the page) or one JSON value ([`parse_json_value`]). The parent's doc
//! gives the rules. Depends on the sibling readers (`json`, `jsonl`, `csv`,
//! `text`), on `eval::model` and, natively, on rayon (a large JSONL file
//! read in two halves); no file-system I/O.

use super::text::decode_text;
use super::{csv, json};
use crate::error::{Error, ErrorKind};
use crate::eval::model::{DocFile, RecordFile};
use crate::eval::pace::{run_now, NoPause, Pace};
use serde_json::Value;

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

/// From this size on, on a pool of several threads (native only), a
/// JSONL file is read in two halves side by side
/// ([`json::jsonl_docs_in_halves`]): several files are read at once too,
/// and halves keep both threads busy when the files differ in size (a
/// ground truth without confidences, predictions with).
#[cfg(not(target_arch = "wasm32"))]
const HALVES_FROM_BYTES: usize = 1 << 20;

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
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(file) = docs_in_halves(file_name, bytes) {
        return Ok(file);
    }
    run_now(parse_docs_paced(file_name, bytes, &mut NoPause))
        .flatten()
        .unwrap_or_else(|| Err(Error::new(ErrorKind::Input, "the reading was stopped")))
}

/// A large JSONL file read in halves on a pool of several threads
/// ([`HALVES_FROM_BYTES`]); `None` for anything else, and for a file with
/// an error (which [`parse_docs_paced`] then reports).
#[cfg(not(target_arch = "wasm32"))]
fn docs_in_halves(file_name: &str, bytes: &[u8]) -> Option<DocFile> {
    if bytes.len() < HALVES_FROM_BYTES || rayon::current_num_threads() < 2 {
        return None;
    }
    let text = decode_text(file_name, bytes).ok()?;
    if detect_format(file_name, text) != FileFormat::Jsonl {
        return None;
    }
    json::jsonl_docs_in_halves(file_name, text)
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
