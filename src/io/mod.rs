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
mod records;
mod text;

pub use correct::{correct_bytes, Corrected};
pub use jsonl_index::JsonlIndex;
pub use records::{
    detect_format, format_of_name, parse_docs, parse_docs_paced, parse_json_value, parse_records,
    FileFormat,
};
pub use text::{decode_text, nfc_value};

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
