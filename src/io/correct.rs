//! A truth file corrected in its own shape (SPEC §9.3, `fieldscope
//! correct`, and what `eval --corrections` evaluates).
//!
//! Owns: [`correct_bytes`], the bytes of a ground-truth file with a list
//! of corrections applied: a JSON array, a JSON object mapping id →
//! record, JSONL or CSV, as the input was. Every byte outside a corrected
//! record stays as it was (a byte-order mark, white space, line ends,
//! untouched records and lines); a corrected record is written in its
//! place, keys in their order: one line in JSONL (compact), in JSON
//! compact when it was on one line and indented like it otherwise, in CSV
//! one row quoted by the `csv` crate's writer in the header's order.
//!
//! Like the rest of `io`: no file-system access (bytes in, bytes out).
//! The records' ids are the evaluation's (`eval::dataset::read_truth`),
//! and the corrections are applied by `eval::corrections`.

use crate::error::{Error, ErrorKind};
use crate::eval::config::Config;
use crate::eval::corrections::{correct_records, Correction};
use serde_json::{Map, Value};

use super::records::{detect_format, parse_records, FileFormat};
use super::text::decode_text;

/// A corrected truth file: its bytes and one warning per correction
/// applied.
#[derive(Debug, Clone)]
pub struct Corrected {
    pub bytes: Vec<u8>,
    pub warnings: Vec<String>,
}

/// Applies `corrections` (from the file `corrections_name`) to the truth
/// file `truth_name` (`bytes`), ids and absent values as `config` says,
/// and writes the result in the input's shape (see the module docs). An
/// error names the correction refused and the corrections file, or the
/// truth file when it does not parse.
pub fn correct_bytes(
    truth_name: &str,
    bytes: &[u8],
    corrections: &[Correction],
    corrections_name: &str,
    config: &Config,
) -> Result<Corrected, Error> {
    let text = decode_text(truth_name, bytes)?;
    let format = detect_format(truth_name, text);
    let mut file = parse_records(truth_name, bytes)?;
    let (touched, warnings) = correct_records(&mut file, corrections, corrections_name, config)?;
    let bom = bytes.len() - text.len();
    let mut out = bytes[..bom].to_vec();
    let spans = match format {
        FileFormat::Json | FileFormat::Jsonl => object_spans(text, format, &file.records),
        FileFormat::Csv => csv_spans(text),
    };
    if spans.len() != file.records.len() {
        return Err(Error::new(
            ErrorKind::Input,
            format!(
                "could not find each of the {} records in the file to rewrite it",
                file.records.len()
            ),
        )
        .in_file(truth_name));
    }
    let header = match format {
        FileFormat::Csv => Some(csv_header(text)),
        _ => None,
    };
    let mut at = 0;
    for &i in &touched {
        let (start, end) = spans[i];
        out.extend_from_slice(&text.as_bytes()[at..start]);
        let old = &text[start..end];
        let fields = &file.records[i].fields;
        let new = match (&header, format) {
            (Some(header), _) => csv_row(header, fields, old)
                .map_err(|m| Error::new(ErrorKind::Input, m).in_file(corrections_name))?,
            (None, FileFormat::Jsonl) => Value::Object(fields.clone()).to_string(),
            (None, _) => json_record(fields, old, text, start),
        };
        out.extend_from_slice(new.as_bytes());
        at = end;
    }
    out.extend_from_slice(&text.as_bytes()[at..]);
    Ok(Corrected {
        bytes: out,
        warnings,
    })
}

/// The byte spans of the records of a JSON or JSONL text (already checked
/// by the parser): the objects at depth 1 of a JSON array or id map, or
/// at depth 0 of JSONL (and of a `.json` file read as JSONL).
fn object_spans(
    text: &str,
    format: FileFormat,
    records: &[crate::eval::model::Record],
) -> Vec<(usize, usize)> {
    let first = text.trim_start().as_bytes().first().copied();
    let nested = format == FileFormat::Json
        && (first == Some(b'[') || records.first().is_some_and(|r| r.key.is_some()));
    let level = usize::from(nested);
    let mut spans = Vec::new();
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                if b == b'{' && depth == level {
                    start = i;
                }
                depth += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if b == b'}' && depth == level {
                    spans.push((start, i + 1));
                }
            }
            _ => {}
        }
    }
    spans
}

/// A corrected JSON record in place of `old` (which starts at `start` of
/// `text`): compact when `old` is one line, else indented by two spaces
/// more than the line it starts on, as `serde_json` writes it.
fn json_record(fields: &Map<String, Value>, old: &str, text: &str, start: usize) -> String {
    let value = Value::Object(fields.clone());
    if !old.contains('\n') {
        return value.to_string();
    }
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    let indent: String = text[line_start..start]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    let pretty = serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string());
    pretty.replace('\n', &format!("\n{indent}"))
}

/// The header names of a CSV text (trimmed, as the reader keys records).
fn csv_header(text: &str) -> Vec<String> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut row = ::csv::StringRecord::new();
    match reader.read_record(&mut row) {
        Ok(true) => row
            .iter()
            .map(|c| crate::eval::nfc::nfc_str(c.trim()))
            .collect(),
        _ => Vec::new(),
    }
}

/// The byte spans of a CSV text's data rows, each up to (not including)
/// its line end.
fn csv_spans(text: &str) -> Vec<(usize, usize)> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut row = ::csv::StringRecord::new();
    let mut starts = Vec::new();
    while let Ok(true) = reader.read_record(&mut row) {
        starts.push(row.position().map_or(0, |p| p.byte() as usize));
    }
    let mut spans = Vec::new();
    for (k, &start) in starts.iter().enumerate().skip(1) {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let Some(row_text) = text.get(start..end) else {
            continue;
        };
        // After a `\r\n` the reader may place a row at its `\n`.
        let content = row_text.trim_start_matches(['\r', '\n']);
        let start = end - content.len();
        let content = content.trim_end_matches(['\r', '\n']);
        spans.push((start, start + content.len()));
    }
    spans
}

/// A corrected CSV row in the header's order, quoted by the `csv` crate's
/// writer (a string as it is, `null` empty, anything else its JSON text);
/// a field that is not a column is refused.
fn csv_row(header: &[String], fields: &Map<String, Value>, _old: &str) -> Result<String, String> {
    if let Some(k) = fields.keys().find(|k| !header.contains(k)) {
        return Err(format!(
            "`{k}` is not a column of the CSV truth file; a correction cannot add one"
        ));
    }
    let mut writer = ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let cells: Vec<String> = header
        .iter()
        .map(|h| match fields.get(h) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        })
        .collect();
    writer.write_record(&cells).map_err(|e| e.to_string())?;
    let bytes = writer.into_inner().map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|e| e.to_string())?;
    Ok(text.trim_end_matches('\n').to_string())
}
