//! JSONL read one record at a time: [`JsonlIndex`].
//!
//! Owns: a first pass over a JSONL file that checks it exactly as
//! [`crate::io::parse_docs`] does — the same encoding checks, the same
//! lines, the same syntax and shape errors with the same positions — but
//! keeps, per record, only where it is (byte offset, length, line), plus a
//! digest of the whole file; then [`RecordSource`] over it, reading a
//! record back when the evaluation asks for it into one reused forest and
//! forgetting it at the next. Memory is the offsets (24 bytes a record)
//! and the largest record, whatever the file's size.
//!
//! It reads through any [`Read`] + [`Seek`] (the command-line tool gives
//! it a `File`; tests an in-memory cursor): no file-system access here.
//!
//! Errors are the ones `parse_docs` gives for the whole file: the UTF-16
//! checks on the file's start first; then, as `parse_docs` checks UTF-8
//! before any JSON, the first line that is not UTF-8 wins over an earlier
//! syntax error (the rest of the file is still scanned for one); a read
//! error is an [`ErrorKind::Io`] error. Once indexed, the file must not
//! change: a record that no longer parses to an object is an `Io` error
//! ("the file changed while it was being read").

use std::hash::{BuildHasher, Hasher};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};

use super::json::jsonl_line;
use super::text::{check_start, not_utf8, START_LEN};
use crate::error::{Error, ErrorKind};
use crate::eval::source::{hash_key, RecordInfo, RecordSource};
use crate::eval::tree::{Forest, NodeId, TooLarge};

/// The reader's buffer: big enough that reading records in file order
/// costs a system call per many records.
const BUFFER: usize = 1 << 18;

/// Where one record's line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    /// Byte offset of the line in the file.
    offset: u64,
    /// Length of the line, without its `\n`.
    len: u64,
    /// 1-based line number.
    line: usize,
}

/// A JSONL file, indexed: the records' offsets and a reused forest (see
/// the [module docs](self)).
#[derive(Debug)]
pub struct JsonlIndex<R> {
    name: String,
    reader: BufReader<R>,
    /// The reader's position in the file.
    position: u64,
    spans: Vec<Span>,
    digest: u64,
    forest: Forest,
    buf: Vec<u8>,
}

impl<R: Read + Seek + Send + Sync> JsonlIndex<R> {
    /// Reads `reader` (a JSONL file named `file_name`, used in errors and
    /// warnings) once from its start, checking every record as
    /// [`crate::io::parse_docs`] would, and keeps where each record is.
    pub fn new(file_name: &str, reader: R) -> Result<Self, Error> {
        let io_error = |e: std::io::Error| {
            Error::new(ErrorKind::Io, format!("cannot read the file: {e}")).in_file(file_name)
        };
        let mut reader = BufReader::with_capacity(BUFFER, reader);
        reader.seek(SeekFrom::Start(0)).map_err(io_error)?;
        let mut start = Vec::with_capacity(START_LEN);
        (&mut reader)
            .take(START_LEN as u64)
            .read_to_end(&mut start)
            .map_err(io_error)?;
        let bom_len = check_start(file_name, &start)?;
        reader
            .seek(SeekFrom::Start(bom_len as u64))
            .map_err(io_error)?;

        let mut index = JsonlIndex {
            name: file_name.to_owned(),
            reader,
            position: bom_len as u64,
            spans: Vec::new(),
            digest: 0,
            forest: Forest::default(),
            buf: Vec::new(),
        };
        let mut hasher = rustc_hash::FxBuildHasher.build_hasher();
        // The first JSON error, reported once the rest is known to be UTF-8.
        let mut json_error: Option<Error> = None;
        let mut offset = bom_len as u64;
        let mut line_no = 0usize;
        loop {
            index.buf.clear();
            let read = index
                .reader
                .read_until(b'\n', &mut index.buf)
                .map_err(io_error)?;
            if read == 0 {
                break;
            }
            line_no += 1;
            let line_offset = offset;
            offset += read as u64;
            let text = match std::str::from_utf8(&index.buf) {
                Ok(text) => text,
                Err(e) => {
                    // A multi-byte character never holds a `\n`, so a line
                    // is valid UTF-8 exactly when its bytes in the whole
                    // file are; the sequence is cut off by the end of the
                    // file only on a last line without `\n`.
                    let bad = e.valid_up_to();
                    let valid = std::str::from_utf8(&index.buf[..bad]).unwrap_or_default();
                    return Err(not_utf8(
                        file_name,
                        index.buf[bad],
                        e.error_len().is_none(),
                        line_offset as usize + bad,
                        (line_no, 1 + valid.chars().count()),
                    ));
                }
            };
            if json_error.is_some() {
                continue;
            }
            let line = text.strip_suffix('\n').unwrap_or(text);
            if line.trim().is_empty() {
                continue;
            }
            index.forest.clear_values();
            let root = match index.forest.parse_record(line) {
                Ok(root) if index.forest.get(root).is_object() => root,
                _ => {
                    let records = index.spans.len();
                    json_error = Some(match jsonl_line(file_name, line, line_no, records) {
                        Err(e) => e,
                        // serde_json reads it: only the forest's limits failed.
                        Ok(_) => {
                            Error::new(ErrorKind::Input, TooLarge.to_string()).in_file(file_name)
                        }
                    });
                    continue;
                }
            };
            index.forest.get(root).hash_into(&mut hasher);
            hash_key(&mut hasher, None);
            index.spans.push(Span {
                offset: line_offset,
                len: line.len() as u64,
                line: line_no,
            });
        }
        index.position = offset;
        if let Some(e) = json_error {
            return Err(e);
        }
        index.digest = hasher.finish();
        index.forest.clear_values();
        index.buf = Vec::new();
        index.spans.shrink_to_fit();
        Ok(index)
    }

    fn changed(&self, i: usize, what: &str) -> Error {
        Error::new(
            ErrorKind::Io,
            format!("the file changed while it was being read ({what})"),
        )
        .in_file(self.name.as_str())
        .in_record(self.info(i).describe())
    }
}

impl<R: Read + Seek + Send + Sync> RecordSource for JsonlIndex<R> {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    fn info(&self, i: usize) -> RecordInfo<'_> {
        RecordInfo {
            index: i,
            line: self.spans.get(i).map(|s| s.line),
            key: None,
        }
    }

    fn fetch(&mut self, i: usize) -> Result<NodeId, Error> {
        let span = self.spans[i];
        // In file order the next record is in the buffer, or just past it:
        // read through the buffer. Anywhere else (a prediction file in
        // another order than the truth) seek and read just the record, so
        // that a jump does not cost a whole buffer.
        let near = span.offset >= self.position
            && span.offset - self.position <= (self.reader.buffer().len() + BUFFER / 4) as u64;
        let moved = if span.offset == self.position {
            Ok(())
        } else if near {
            // Within the buffer this moves in it; past it, it seeks.
            self.reader
                .seek_relative((span.offset - self.position) as i64)
        } else {
            self.reader.seek(SeekFrom::Start(span.offset)).map(drop)
        };
        if let Err(e) = moved {
            self.position = u64::MAX;
            return Err(self.changed(i, &e.to_string()));
        }
        self.buf.clear();
        let read = if near {
            (&mut self.reader).take(span.len).read_to_end(&mut self.buf)
        } else {
            // The buffer is empty after the seek: read past it.
            self.reader
                .get_mut()
                .take(span.len)
                .read_to_end(&mut self.buf)
        };
        self.position = span.offset + self.buf.len() as u64;
        if let Err(e) = read {
            self.position = u64::MAX;
            return Err(self.changed(i, &e.to_string()));
        }
        if self.buf.len() as u64 != span.len {
            return Err(self.changed(i, "it is shorter"));
        }
        let Ok(text) = std::str::from_utf8(&self.buf) else {
            return Err(self.changed(i, "a record is no longer UTF-8"));
        };
        self.forest.clear_values();
        match self.forest.parse_record(text) {
            Ok(root) if self.forest.get(root).is_object() => Ok(root),
            _ => Err(self.changed(i, "a record no longer parses to an object")),
        }
    }

    fn forest(&self) -> &Forest {
        &self.forest
    }

    fn forest_mut(&mut self) -> &mut Forest {
        &mut self.forest
    }

    fn resident(&self) -> bool {
        false
    }

    fn digest(&mut self) -> Result<u64, Error> {
        Ok(self.digest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::parse_docs;
    use std::io::Cursor;

    /// Indexes `bytes` and checks every record against `parse_docs`, or
    /// that both give the same error; returns the lines of the records.
    fn check(name: &str, bytes: &[u8]) -> Result<Vec<usize>, Error> {
        let whole = parse_docs(name, bytes);
        let index = JsonlIndex::new(name, Cursor::new(bytes.to_vec()));
        match (whole, index) {
            (Ok(file), Ok(mut index)) => {
                assert_eq!(index.len(), file.records.len(), "{name}");
                // Backwards, to read out of order too.
                for i in (0..index.len()).rev() {
                    let root = index.fetch(i).unwrap();
                    let want = file.forest.get(file.records[i].root);
                    assert!(index.forest().get(root).same(want), "{name} record {i}");
                    assert_eq!(index.info(i).line, file.records[i].line);
                    assert_eq!(index.info(i).index, file.records[i].index);
                }
                let mut file = file;
                assert_eq!(index.digest().unwrap(), file.digest().unwrap(), "{name}");
                Ok(file.records.iter().filter_map(|r| r.line).collect())
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "{name}");
                assert_eq!(a.to_string(), b.to_string(), "{name}");
                Err(a)
            }
            (a, b) => panic!(
                "{name}: parse_docs {:?} but the index {:?}",
                a.err(),
                b.err()
            ),
        }
    }

    #[test]
    fn lines_blank_lines_and_line_ends() {
        let crlf = b"{\"id\": \"a\"}\r\n\r\n{\"id\": \"b\", \"t\": \"x\\r\"}\r\n";
        assert_eq!(check("crlf.jsonl", crlf).unwrap(), [1, 3]);
        let blanks = b"\n  \n{\"id\": 1}\n\t\n\n{\"id\": 2}\n\n";
        assert_eq!(check("blank.jsonl", blanks).unwrap(), [3, 6]);
        let last = b"{\"id\": 1}\n{\"id\": 2, \"x\": [1, {\"y\": null}]}";
        assert_eq!(check("last.jsonl", last).unwrap(), [1, 2]);
        assert_eq!(check("empty.jsonl", b"").unwrap(), Vec::<usize>::new());
        assert_eq!(check("nl.jsonl", b"\n\n").unwrap(), Vec::<usize>::new());
        let nfc = "{\"Mu\u{308}ller\": \"Cafe\u{301}\", \"d\": \"\\u00e9\"}\n".as_bytes();
        assert_eq!(check("nfc.jsonl", nfc).unwrap(), [1]);
    }

    #[test]
    fn byte_order_marks() {
        let bom = b"\xEF\xBB\xBF{\"id\": 1}\n{\"id\": 2}\n";
        assert_eq!(check("bom.jsonl", bom).unwrap(), [1, 2]);
        assert_eq!(
            check("bom_only.jsonl", b"\xEF\xBB\xBF").unwrap(),
            Vec::<usize>::new()
        );
        let e = check("utf16.jsonl", b"\xFF\xFE{\x00\"\x00").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Encoding);
        assert!(e.to_string().contains("little-endian"), "{e}");
        let e = check(
            "nul.jsonl",
            b"{\x00\"\x00i\x00d\x00\"\x00:\x001\x00}\x00\n\x00",
        )
        .unwrap_err();
        assert!(e.to_string().contains("NUL"), "{e}");
    }

    #[test]
    fn a_truncated_last_record_and_syntax_errors() {
        let e = check("cut.jsonl", b"{\"id\": 1}\n{\"id\": 2, \"x\": [1, ").unwrap_err();
        assert_eq!(
            e.to_string(),
            "cut.jsonl:2:19: unexpected end of line while parsing a value (is it truncated?)"
        );
        let e = check("syntax.jsonl", b"{\"id\": 1}\n{\"id\" 2}\n").unwrap_err();
        assert_eq!(e.to_string(), "syntax.jsonl:2:7: expected `:`");
        let e = check("array.jsonl", b"{\"id\": 1}\n\n[1, 2]\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "array.jsonl:3: record 2: expected a record (a JSON object) on each line, found an array"
        );
        let e = check("nan.jsonl", b"{\"x\": NaN}\n").unwrap_err();
        assert_eq!(e.line, Some(1));
        assert_eq!(e.column, Some(7));
    }

    #[test]
    fn invalid_utf8_in_one_line() {
        let bytes = b"{\"id\": 1}\n{\"id\": \"\xE9t\xE9\"}\n{\"id\": 3}\n";
        let e = check("latin1.jsonl", bytes).unwrap_err();
        assert_eq!(
            e.to_string(),
            "latin1.jsonl:2:9: the file is not UTF-8: invalid byte 0xE9 at byte offset 18; save it as UTF-8 (it may be Latin-1 or Windows-1252)"
        );
        // UTF-8 is checked before JSON: a later bad byte beats an earlier
        // syntax error, as when the whole file is decoded first.
        let bytes = b"{\"id\" 1}\n{\"id\": \"\xE9\"}\n";
        let e = check("both.jsonl", bytes).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Encoding);
        assert_eq!((e.line, e.column), (Some(2), Some(9)));
        // Cut off by the end of the file, after a BOM: the offset counts it.
        let bytes = b"\xEF\xBB\xBF{\"id\": 1}\n{\"id\": \"\xC3";
        let e = check("end.jsonl", bytes).unwrap_err();
        assert_eq!(
            e.to_string(),
            "end.jsonl:2:9: the file is not UTF-8: incomplete UTF-8 sequence (byte 0xC3) at the end of the file at byte offset 21; save it as UTF-8 (it may be Latin-1 or Windows-1252)"
        );
    }

    #[test]
    fn a_changed_file_is_an_error_not_a_wrong_record() {
        let mut index =
            JsonlIndex::new("t.jsonl", Cursor::new(b"{\"a\": 1}\n{\"a\": 2}\n".to_vec())).unwrap();
        *index.reader.get_mut() = Cursor::new(b"{\"a\": 1}\n[\"a\", 2]\n".to_vec());
        index.position = u64::MAX;
        let e = index.fetch(1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Io);
        assert!(e.to_string().contains("changed"), "{e}");
    }
}
