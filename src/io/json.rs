//! JSON and JSONL records files, and single JSON documents.
//!
//! Owns: the two JSON record shapes (a top-level array of records; a
//! top-level object mapping id → record), JSONL (one record per line), and
//! the translation of serde_json's errors into [`Error`]s with a 1-based
//! line and a column counted in characters.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::error::Category;
use serde_json::{Map, Value};

use super::text::{char_column, json_may_need_nfc, line_text, nfc_map, nfc_str, nfc_value};
use crate::error::{Error, ErrorKind};
use crate::eval::config::type_name;
use crate::eval::model::{DocFile, DocRecord, Record, RecordFile};
use crate::eval::pace::{should_stop, Pace};

/// What was expected of a JSON records file, for shape errors.
const EXPECTED_RECORDS: &str = "expected an array of records or an object mapping id → record";

/// Parses a `.json` records file: an array of records or an object mapping
/// id → record. A file that turns out to hold several objects on separate
/// lines is read as JSONL instead.
pub(crate) fn parse_json_records(file_name: &str, text: &str) -> Result<RecordFile, Error> {
    if text.trim().is_empty() {
        return Err(
            Error::new(ErrorKind::Syntax, format!("empty file: {EXPECTED_RECORDS}"))
                .in_file(file_name),
        );
    }
    let top: TopLevel = match serde_json::from_str(text) {
        Ok(top) => top,
        Err(e)
            if e.classify() == Category::Syntax
                && is_trailing_characters(&e)
                && text.trim_start().starts_with('{') =>
        {
            // `{…}\n{…}`: JSONL in a `.json` file.
            return parse_jsonl_records(file_name, text);
        }
        Err(e) => return Err(json_error(file_name, text, 1, &e, Unit::File)),
    };
    let records = match top {
        TopLevel::Array(items) => array_records(file_name, text, items)?,
        TopLevel::Object(entries) => id_map_records(file_name, text, entries)?,
        TopLevel::Other(found) => {
            return Err(Error::new(
                ErrorKind::Shape,
                format!("{EXPECTED_RECORDS}, found {found}"),
            )
            .in_file(file_name));
        }
    };
    Ok(RecordFile {
        name: file_name.to_owned(),
        records,
    })
}

/// The records of a top-level array; every element must be an object.
fn array_records(file_name: &str, text: &str, items: Vec<Value>) -> Result<Vec<Record>, Error> {
    let starts = element_starts(text, items.len());
    let mut records = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        let line = starts.as_ref().and_then(|s| s.get(index)).map(|s| s.line);
        match item {
            Value::Object(mut fields) => {
                nfc_record(&mut fields, element_text(text, starts.as_deref(), index));
                records.push(Record {
                    index,
                    line,
                    key: None,
                    fields,
                });
            }
            other => {
                let e = Error::new(
                    ErrorKind::Shape,
                    format!(
                        "expected a record (a JSON object), found {}",
                        type_name(&other)
                    ),
                )
                .in_file(file_name)
                .in_record(format!("record {}", index + 1));
                return Err(with_line(e, line));
            }
        }
    }
    Ok(records)
}

/// The records of a top-level object mapping id → record. Duplicate ids are
/// all kept (in file order), for the evaluation to warn about.
fn id_map_records(
    file_name: &str,
    text: &str,
    entries: Vec<(String, Value)>,
) -> Result<Vec<Record>, Error> {
    let starts = element_starts(text, entries.len());
    let line_of = |i: usize| starts.as_ref().and_then(|s| s.get(i)).map(|s| s.line);
    let bad = entries
        .iter()
        .enumerate()
        .find(|(_, (_, value))| !value.is_object());
    if let Some((i, (key, value))) = bad {
        let found = type_name(value);
        let e = if entries.iter().any(|(_, v)| v.is_object()) {
            Error::new(
                ErrorKind::Shape,
                format!("expected a record (a JSON object) for this id, found {found}"),
            )
            .in_record(format!("record {:?}", nfc_str(key.trim())))
        } else {
            Error::new(
                ErrorKind::Shape,
                format!(
                    "{EXPECTED_RECORDS}, found an object whose values are not records \
                     ({:?} is {found}); to give a single record, wrap it in [ ] \
                     or save it as .jsonl",
                    nfc_str(key)
                ),
            )
        };
        return Err(with_line(e.in_file(file_name), line_of(i)));
    }
    let mut records = Vec::with_capacity(entries.len());
    for (index, (key, value)) in entries.into_iter().enumerate() {
        if let Value::Object(mut fields) = value {
            nfc_record(&mut fields, element_text(text, starts.as_deref(), index));
            records.push(Record {
                index,
                line: line_of(index),
                key: Some(nfc_str(key.trim())),
                fields,
            });
        }
    }
    Ok(records)
}

/// Parses a JSONL file: one record per line, blank lines skipped.
pub(crate) fn parse_jsonl_records(file_name: &str, text: &str) -> Result<RecordFile, Error> {
    let mut records = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let mut fields = jsonl_line(file_name, line, line_no, records.len())?;
        nfc_record(&mut fields, Some(line));
        records.push(Record {
            index: records.len(),
            line: Some(line_no),
            key: None,
            fields,
        });
    }
    Ok(RecordFile {
        name: file_name.to_owned(),
        records,
    })
}

/// One non-blank JSONL line (1-based `line_no`, without its `\n`; the
/// `records`-th record, 0-based) as an object (not yet NFC), or the error
/// that names it: a syntax error with its column, or a value that is not
/// an object.
pub(crate) fn jsonl_line(
    file_name: &str,
    line: &str,
    line_no: usize,
    records: usize,
) -> Result<Map<String, Value>, Error> {
    let value: Value = serde_json::from_str(line)
        .map_err(|e| json_error(file_name, line, line_no, &e, Unit::Line))?;
    match value {
        Value::Object(fields) => Ok(fields),
        other => Err(Error::new(
            ErrorKind::Shape,
            format!(
                "expected a record (a JSON object) on each line, found {}",
                type_name(&other)
            ),
        )
        .in_file(file_name)
        .at_line(line_no)
        .in_record(format!("record {}", records + 1))),
    }
}

/// A JSONL file read straight into a forest, or `None` when any line is
/// not a JSON object (or the file is too large for a forest): the caller
/// then reads it with [`parse_jsonl_records`] for the exact error. The
/// records are the same as [`parse_jsonl_records`]'s: same lines, same
/// values (parsed by `serde_json`), NFC strings and keys.
///
/// Read a line at a time, asking `pace` before each line whether to wait
/// or stop (the units: bytes of `text` read); the outer `None` when it
/// stopped.
pub(crate) async fn jsonl_docs_paced(
    file_name: &str,
    text: &str,
    pace: &mut dyn Pace,
) -> Option<Option<DocFile>> {
    let mut file = DocFile::new(file_name);
    file.forest.reserve_for(text.len());
    let read = jsonl_lines_into(&mut file, text, pace).await?;
    file.forest.shrink();
    Some(read.map(|_| file))
}

/// The lines of `text` added to `file` (the first is line 1): the number
/// of line breaks in `text`, or `Some(None)` when a line is not a JSON
/// object; `None` when `pace` stopped.
async fn jsonl_lines_into(
    file: &mut DocFile,
    text: &str,
    pace: &mut dyn Pace,
) -> Option<Option<usize>> {
    let mut offset = 0;
    let mut breaks = 0;
    for (i, line) in text.split('\n').enumerate() {
        breaks = i;
        if should_stop(pace, offset, text.len()).await {
            return None;
        }
        offset += line.len() + 1;
        if line.trim().is_empty() {
            continue;
        }
        let Ok(root) = file.forest.parse_record(line) else {
            return Some(None);
        };
        if !file.forest.get(root).is_object() {
            return Some(None);
        }
        file.records.push(DocRecord {
            index: file.records.len(),
            line: Some(i + 1),
            key: None,
            root,
        });
    }
    Some(Some(breaks))
}

/// [`jsonl_docs_paced`] of a large file on two threads of the current
/// pool (native only): its two halves, cut at a line break, read side by
/// side into two forests, the second then appended to the first
/// ([`crate::eval::tree::Forest::append`]). The same records, nodes, text
/// and key ids as reading it in one go; `None` when a line is not a JSON
/// object (the caller then reads the file in one go for the exact error).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn jsonl_docs_in_halves(file_name: &str, text: &str) -> Option<DocFile> {
    use crate::eval::pace::{run_now, NoPause};
    let cut = text.len() / 2;
    let cut = cut + text.as_bytes()[cut..].iter().position(|&b| b == b'\n')? + 1;
    let (first, second) = text.split_at(cut);
    let read = |half: &str, reserve: usize| {
        let mut file = DocFile::new(file_name);
        file.forest.reserve_for(reserve);
        let breaks = run_now(jsonl_lines_into(&mut file, half, &mut NoPause)).flatten()??;
        Some((file, breaks))
    };
    // The first half's forest has room for the whole file's values, so
    // that appending the second copies nothing twice.
    let (whole, rest) = rayon::join(|| read(first, text.len()), || read(second, second.len()));
    let ((mut whole, lines_before), (rest, _)) = (whole?, rest?);
    // The second half's lines come after the first's line breaks.
    let offset = whole.forest.append(&rest.forest).ok()?;
    let before = whole.records.len();
    whole
        .records
        .extend(rest.records.into_iter().map(|r| DocRecord {
            index: before + r.index,
            line: r.line.map(|l| l + lines_before),
            root: r.root + offset,
            ..r
        }));
    whole.forest.shrink();
    Some(whole)
}

/// Parses one JSON document and NFC-normalises it.
pub(crate) fn parse_document(file_name: &str, text: &str) -> Result<Value, Error> {
    if text.trim().is_empty() {
        return Err(
            Error::new(ErrorKind::Syntax, "empty file: expected a JSON document")
                .in_file(file_name),
        );
    }
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| json_error(file_name, text, 1, &e, Unit::File))?;
    nfc_value(&mut value);
    Ok(value)
}

/// Whether the first line of `text` is a complete JSON value on its own.
/// Returns `None` when it is not, else whether it is the only non-blank
/// line and the value is an object mapping id → record (every value an
/// object) or empty.
pub(crate) fn sniff_first_line(text: &str) -> Option<(bool, bool)> {
    let text = text.trim_start();
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let value: Value = serde_json::from_str(first).ok()?;
    let only_line = rest.trim().is_empty();
    let id_map = match &value {
        Value::Object(map) => map.values().all(Value::is_object),
        _ => false,
    };
    Some((only_line, id_map))
}

/// Whether serde_json stopped at text after a complete value.
fn is_trailing_characters(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("trailing characters")
}

/// Adds the line when it is known.
fn with_line(e: Error, line: Option<usize>) -> Error {
    match line {
        Some(line) => e.at_line(line),
        None => e,
    }
}

/// What a piece of parsed JSON text is, for error messages.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unit {
    /// A whole file.
    File,
    /// One line of a JSONL file.
    Line,
}

/// Turns serde_json's error for `text` into ours. `first_line` is the file
/// line on which `text` starts.
fn json_error(
    file_name: &str,
    text: &str,
    first_line: usize,
    e: &serde_json::Error,
    unit: Unit,
) -> Error {
    let line = line_text(text, e.line());
    let (message, literal_start) = json_message(line, e, unit);
    let error = Error::new(ErrorKind::Syntax, message).in_file(file_name);
    if e.line() == 0 {
        return error;
    }
    // serde_json's column is the 1-based byte column of the byte it stopped
    // at; errors about a literal point at the literal's start instead.
    let byte_column = literal_start.map_or(e.column(), |start| start + 1);
    error.at(first_line + e.line() - 1, char_column(line, byte_column))
}

/// A message a person understands for serde_json's error (`line` is the
/// line it stopped on): serde_json's own text without its position, or a
/// plainer one for the common cases. For errors about one literal (`NaN`,
/// `1e400`), also the byte offset in `line` where the literal starts.
fn json_message(line: &str, e: &serde_json::Error, unit: Unit) -> (String, Option<usize>) {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    let unit_name = match unit {
        Unit::File => "file",
        Unit::Line => "line",
    };
    if e.classify() == Category::Eof {
        let what = message
            .strip_prefix("EOF while parsing ")
            .unwrap_or("a value");
        return (
            format!("unexpected end of {unit_name} while parsing {what} (is it truncated?)"),
            None,
        );
    }
    let (literal_start, literal) = literal_at(line, e.column());
    let text = match message {
        "number out of range" => {
            return (
                "number out of range: JSON numbers must lie within ±1.8e308 \
                 (write larger numbers as strings)"
                    .to_owned(),
                Some(literal_start),
            );
        }
        "expected value" | "invalid number" | "expected ident" if is_non_finite(literal) => {
            return (
                "NaN and Infinity are not valid JSON numbers; write null or a string".to_owned(),
                Some(literal_start),
            );
        }
        "recursion limit exceeded" => {
            "nesting too deep: arrays and objects may be nested at most 127 levels deep"
        }
        "expected ident" => {
            "expected a JSON value: true, false, null, a number, a \"string\", an [array] or an {object}"
        }
        "key must be a string" => "key must be a string in double quotes",
        "unexpected end of hex escape" | "lone leading surrogate in hex escape" => {
            "invalid \\u escape: a UTF-16 surrogate (\\uD800–\\uDBFF) must be followed by its pair (\\uDC00–\\uDFFF)"
        }
        "trailing characters" => match unit {
            Unit::File => "unexpected text after the end of the JSON document",
            Unit::Line => "unexpected text after the record (each line holds one JSON object)",
        },
        other => other,
    };
    (text.to_owned(), None)
}

/// The literal (a number or bare word, with its sign) around serde_json's
/// 1-based byte `column` in `line`: its start offset and its text.
fn literal_at(line: &str, column: usize) -> (usize, &str) {
    let bytes = line.as_bytes();
    let is_literal = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.');
    let mut start = column.saturating_sub(1).min(bytes.len());
    while start > 0 && bytes.get(start - 1).is_some_and(is_literal) {
        start -= 1;
    }
    let len = bytes
        .get(start..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| is_literal(b))
        .count();
    // ASCII bytes only, so both ends are character boundaries.
    (start, line.get(start..start + len).unwrap_or(""))
}

/// Whether `literal` is `NaN`, `Infinity` or `inf`, in any case and sign.
fn is_non_finite(literal: &str) -> bool {
    let word = literal.trim_start_matches(['+', '-']).to_ascii_lowercase();
    matches!(word.as_str(), "nan" | "inf" | "infinity")
}

/// Where one top-level element of a JSON text starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Start {
    /// 1-based line.
    line: usize,
    /// Byte offset.
    offset: usize,
}

/// The starts of the top-level elements of `text` (valid JSON), when their
/// number is `count`.
fn element_starts(text: &str, count: usize) -> Option<Vec<Start>> {
    let starts = top_level_starts(text);
    (starts.len() == count).then_some(starts)
}

/// Where each element of the top-level array, or each value of the
/// top-level object, of `text` starts. `text` must be valid JSON (the result
/// is only a hint otherwise). One pass over the bytes: UTF-8 continuation
/// bytes never look like JSON punctuation, and JSON strings hold no raw
/// newlines.
fn top_level_starts(text: &str) -> Vec<Start> {
    let bytes = text.as_bytes();
    let mut starts = Vec::new();
    let mut line = 1;
    let mut depth = 0usize;
    let mut top_is_array = false;
    let mut expect_value = false;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        match b {
            b'\n' => {
                line += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => continue,
            _ => {}
        }
        if depth == 1 && expect_value && b != b']' && b != b'}' {
            starts.push(Start {
                line,
                offset: i - 1,
            });
        }
        expect_value = false;
        match b {
            b'"' => i = string_end(bytes, i),
            b'[' | b'{' => {
                if depth == 0 {
                    top_is_array = b == b'[';
                    expect_value = top_is_array;
                }
                depth += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => expect_value = top_is_array,
            b':' if depth == 1 => expect_value = true,
            _ => {}
        }
    }
    starts
}

/// The offset just past the closing quote of the JSON string whose
/// contents start at offset `i`.
fn string_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&b) = bytes.get(i) {
        i += 1;
        match b {
            b'"' => return i,
            b'\\' => i += 1,
            _ => {}
        }
    }
    i
}

/// The source text of top-level element `i` (up to the next element's
/// start), when the starts are known.
fn element_text<'a>(text: &'a str, starts: Option<&[Start]>, i: usize) -> Option<&'a str> {
    let starts = starts?;
    let start = starts.get(i)?.offset;
    let end = starts.get(i + 1).map_or(text.len(), |s| s.offset);
    text.get(start..end)
}

/// NFC-normalises a record unless its JSON source shows that it is
/// certainly NFC already (the common case, and much cheaper than a walk).
fn nfc_record(fields: &mut Map<String, Value>, source: Option<&str>) {
    if source.is_none_or(json_may_need_nfc) {
        nfc_map(fields);
    }
}

/// The top level of a records file, read without building a map for it (so
/// duplicate ids in an id map are kept, and the top level costs nothing).
enum TopLevel {
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
    /// Any other value, described ("a string").
    Other(&'static str),
}

impl<'de> Deserialize<'de> for TopLevel {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TopLevelVisitor)
    }
}

struct TopLevelVisitor;

impl<'de> Visitor<'de> for TopLevelVisitor {
    type Value = TopLevel;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EXPECTED_RECORDS)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TopLevel, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(TopLevel::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopLevel, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry::<String, Value>()? {
            entries.push(entry);
        }
        Ok(TopLevel::Object(entries))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<TopLevel, E> {
        Ok(TopLevel::Other("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<TopLevel, E> {
        Ok(TopLevel::Other("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<TopLevel, E> {
        Ok(TopLevel::Other("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<TopLevel, E> {
        Ok(TopLevel::Other("a number"))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<TopLevel, E> {
        Ok(TopLevel::Other("a string"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<TopLevel, E> {
        Ok(TopLevel::Other("null"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<usize> {
        top_level_starts(text).iter().map(|s| s.line).collect()
    }

    /// Keys first met in the second half (one of them not in NFC form, so
    /// that its NFC form is interned beside it), blank lines, escapes,
    /// every kind of value: read in halves, the file gives the same nodes,
    /// text, key ids and records as read in one go.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_file_read_in_halves_is_the_file_read_in_one_go() {
        use crate::eval::pace::{run_now, NoPause};
        let text = concat!(
            "{\"id\":\"a\",\"x\":1,\"s\":\"caf\\u00e9\"}\n",
            "\n",
            "{\"id\":\"b\",\"n\":{\"k\":[1,-2,\"s\",[]]},\"x\":0.5}\n",
            "{\"id\":\"c\",\"x\":false,\"n\":{}}\n",
            "\n",
            "{\"id\":\"d\",\"new\":null,\"e\\u0301\":\"x\",\"x\":true,\"n\":{\"k\":[{\"deep\":\"\"}]}}\n",
            "{\"id\":\"e\",\"later\":[1.25,\"\u{1F600}\"],\"x\":3}",
        );
        let whole = run_now(jsonl_docs_paced("f.jsonl", text, &mut NoPause))
            .flatten()
            .flatten()
            .unwrap();
        let halves = jsonl_docs_in_halves("f.jsonl", text).unwrap();
        // The cut falls before the line of `new`: keys met only after it.
        assert!(text[..text.len() / 2].find("new").is_none());
        assert!(halves.forest.same_content(&whole.forest));
        assert_eq!(halves.records, whole.records);
        assert_eq!(
            halves.records.iter().map(|r| r.line).collect::<Vec<_>>(),
            [Some(1), Some(3), Some(4), Some(6), Some(7)]
        );
        // A line that is not an object, in either half: no file (the
        // caller reads it in one go for the exact error).
        assert!(jsonl_docs_in_halves("f.jsonl", &text.replace("{\"id\":\"a\",", "[{")).is_none());
        assert!(jsonl_docs_in_halves("f.jsonl", &format!("{text}\n[1]")).is_none());
        // A file without a line break after its middle is not cut.
        assert!(jsonl_docs_in_halves("f.jsonl", "{\"id\":\"a\"}").is_none());
    }

    #[test]
    fn top_level_starts_of_an_array() {
        let text = "[\n {\"a\": \"[,{\\\"\"},\n\n {\"b\": [1,\n 2]}, 3\n]";
        assert_eq!(lines(text), [2, 4, 5]);
        let offsets: Vec<usize> = top_level_starts(text).iter().map(|s| s.offset).collect();
        assert_eq!(offsets, [3, 21, 37]);
        assert_eq!(
            element_text(text, Some(&top_level_starts(text)), 2),
            Some("3\n]")
        );
        assert_eq!(element_text(text, None, 0), None);
        assert_eq!(lines("[]"), Vec::<usize>::new());
        assert_eq!(lines("[ ]"), Vec::<usize>::new());
    }

    #[test]
    fn top_level_starts_of_an_object() {
        let text = "{\"x:,\": {\"k\": 1},\n\"y\":\n  {}, \"z\": null}";
        assert_eq!(lines(text), [1, 3, 3]);
        assert_eq!(lines("{}"), Vec::<usize>::new());
        // An unterminated string (invalid JSON) just ends the scan.
        assert_eq!(lines("[1, \"abc"), [1, 1]);
    }

    #[test]
    fn literal_at_finds_the_whole_literal() {
        assert_eq!(literal_at("[1, -1.5e400]", 12), (4, "-1.5e400"));
        assert_eq!(literal_at("{\"a\":nan}", 7), (5, "nan"));
        assert_eq!(literal_at("x", 9), (0, "x"));
        assert_eq!(literal_at("", 0), (0, ""));
        assert!(is_non_finite("-Infinity"));
        assert!(is_non_finite("NaN"));
        assert!(!is_non_finite("nanny"));
    }

    #[test]
    fn sniffing_the_first_line() {
        assert_eq!(
            sniff_first_line("{\"a\": 1}\n{\"a\": 2}"),
            Some((false, false))
        );
        assert_eq!(sniff_first_line("{\"a\": 1}\n\n"), Some((true, false)));
        assert_eq!(sniff_first_line("{\"d1\": {\"a\": 1}}"), Some((true, true)));
        assert_eq!(sniff_first_line("{\n\"d1\": {}}"), None);
    }
}
