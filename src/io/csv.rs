//! CSV records files.
//!
//! Owns: reading a CSV file with a header row into records whose values are
//! the cells as strings, and the CSV errors (ragged rows, a quoted field
//! that is never closed, header names that are empty or repeated).

use serde_json::{Map, Value};

use super::text::{nfc_str, position_of_offset, LineCounter};
use crate::error::{Error, ErrorKind};
use crate::eval::model::{Record, RecordFile};

/// Parses a CSV file with a header row. Each later row becomes a record
/// mapping header name → cell, the cell always a JSON string. Header names
/// are trimmed; cells are kept as written. A file with no text (or only
/// whitespace) has zero records; so does one with only a header row.
pub(crate) fn parse_csv_records(file_name: &str, text: &str) -> Result<RecordFile, Error> {
    let mut records = Vec::new();
    if !text.trim().is_empty() {
        read_rows(file_name, text, &mut records)?;
    }
    Ok(RecordFile {
        name: file_name.to_owned(),
        records,
    })
}

fn read_rows(file_name: &str, text: &str, records: &mut Vec<Record>) -> Result<(), Error> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(false)
        .from_reader(text.as_bytes());
    let mut row = ::csv::StringRecord::new();
    let mut header: Option<Vec<String>> = None;
    let mut last_start = None;
    let mut lines = LineCounter::new(text);
    loop {
        match reader.read_record(&mut row) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_error(file_name, text, &e)),
        }
        let start = row.position().map_or(0, |p| offset(p.byte()));
        last_start = Some(start);
        let line = lines.line_at(skip_line_ends(text.as_bytes(), start));
        match &header {
            None => header = Some(header_names(file_name, line, &row)?),
            Some(names) => {
                let mut fields = Map::with_capacity(names.len());
                for (name, cell) in names.iter().zip(row.iter()) {
                    fields.insert(name.clone(), Value::String(nfc_str(cell)));
                }
                records.push(Record {
                    index: records.len(),
                    line: Some(line),
                    key: None,
                    fields,
                });
            }
        }
    }
    // An unclosed quote swallows the rest of the file into the last row,
    // which may still have the right number of fields: look for one.
    if let Some(start) = last_start {
        if let Some(e) = unclosed_quote(file_name, text, start) {
            return Err(e);
        }
    }
    Ok(())
}

/// The header names of `row` (on `line`), trimmed and NFC-normalised; each
/// must be non-empty and unique.
fn header_names(
    file_name: &str,
    line: usize,
    row: &::csv::StringRecord,
) -> Result<Vec<String>, Error> {
    let mut names: Vec<String> = Vec::with_capacity(row.len());
    for (i, cell) in row.iter().enumerate() {
        let name = nfc_str(cell.trim());
        let problem = if name.is_empty() {
            Some(format!(
                "column {} of the header row has no name; every column needs one",
                i + 1
            ))
        } else {
            names.iter().position(|n| *n == name).map(|first| {
                format!(
                    "column {} of the header row repeats the name {name:?} (column {}); \
                     column names must be unique",
                    i + 1,
                    first + 1
                )
            })
        };
        if let Some(message) = problem {
            return Err(Error::new(ErrorKind::Shape, message)
                .in_file(file_name)
                .at_line(line));
        }
        names.push(name);
    }
    Ok(names)
}

/// Turns a csv crate error into ours.
fn csv_error(file_name: &str, text: &str, e: &::csv::Error) -> Error {
    match e.kind() {
        ::csv::ErrorKind::UnequalLengths {
            pos,
            expected_len,
            len,
        } => {
            let start = pos.as_ref().map_or(0, |p| offset(p.byte()));
            if let Some(quote_error) = unclosed_quote(file_name, text, start) {
                return quote_error;
            }
            let hint = if len > expected_len {
                " (quote values that contain commas)"
            } else {
                ""
            };
            Error::new(
                ErrorKind::Syntax,
                format!(
                    "this row has {len} {} but the header row has {expected_len}{hint}",
                    plural(*len, "field", "fields")
                ),
            )
            .in_file(file_name)
            .at_line(start_line(text, start))
        }
        _ => {
            let error = Error::new(ErrorKind::Syntax, e.to_string()).in_file(file_name);
            match e.position() {
                Some(p) => error.at_line(start_line(text, offset(p.byte()))),
                None => error,
            }
        }
    }
}

/// An error when the row starting at byte `start` of `text` has a quoted
/// field whose closing quote never comes. Follows the csv crate's grammar:
/// a `"` opens a quoted field only as the first character of a field, and
/// `""` inside one is an escaped quote.
fn unclosed_quote(file_name: &str, text: &str, start: usize) -> Option<Error> {
    let bytes = text.as_bytes();
    let mut i = skip_line_ends(bytes, start);
    let mut at_field_start = true;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' if at_field_start => {
                let open = i;
                i += 1;
                loop {
                    let close = bytes.get(i..)?.iter().position(|&c| c == b'"');
                    let Some(close) = close.map(|c| i + c) else {
                        let (line, column) = position_of_offset(text, open);
                        return Some(
                            Error::new(
                                ErrorKind::Syntax,
                                "this quoted field is never closed (no closing `\"` \
                                 before the end of the file)",
                            )
                            .in_file(file_name)
                            .at(line, column),
                        );
                    };
                    if bytes.get(close + 1) == Some(&b'"') {
                        i = close + 2;
                    } else {
                        i = close + 1;
                        break;
                    }
                }
                at_field_start = false;
                continue;
            }
            b',' => at_field_start = true,
            b'\n' | b'\r' => return None,
            _ => at_field_start = false,
        }
        i += 1;
    }
    None
}

/// The 1-based line of the row that starts at byte `start`: the csv crate's
/// position may lie before blank lines it skips.
fn start_line(text: &str, start: usize) -> usize {
    position_of_offset(text, skip_line_ends(text.as_bytes(), start)).0
}

/// The first offset at or after `i` that is not `\r` or `\n`.
fn skip_line_ends(bytes: &[u8], mut i: usize) -> usize {
    while matches!(bytes.get(i), Some(b'\r' | b'\n')) {
        i += 1;
    }
    i
}

/// A csv byte position as an offset (saturating on 32-bit targets).
fn offset(byte: u64) -> usize {
    usize::try_from(byte).unwrap_or(usize::MAX)
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unclosed_quote_finds_the_opening_quote() {
        let text = "a,b\n1,\"x\n2,3\n";
        let e = unclosed_quote("f.csv", text, 4).map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some(
                "f.csv:2:3: this quoted field is never closed (no closing `\"` \
                 before the end of the file)"
            )
        );
    }

    #[test]
    fn closed_and_literal_quotes_are_fine() {
        assert!(unclosed_quote("f", "\"a \"\"q\"\" b\",2\n", 0).is_none());
        // A quote inside an unquoted field is a literal character.
        assert!(unclosed_quote("f", "27\" monitor,2\n", 0).is_none());
        // Text after a closing quote is appended, as the csv crate does.
        assert!(unclosed_quote("f", "\"a\"b,\"c\"", 0).is_none());
        assert!(unclosed_quote("f", "x,\"", 0).is_some());
    }

    #[test]
    fn start_line_skips_blank_lines() {
        assert_eq!(start_line("a\n\n\r\nb", 2), 4);
        assert_eq!(start_line("a\nb", 0), 1);
    }
}
