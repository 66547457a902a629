//! Text-level helpers: UTF-8 checking, NFC normalisation and positions.
//!
//! Owns: [`decode_text`] (bytes → `&str`, BOM skipped, encoding errors with
//! their position), the NFC helpers used by every format, and the
//! conversion of byte offsets to 1-based (line, column-in-characters) pairs.

use crate::error::{Error, ErrorKind};
#[cfg(test)]
use crate::eval::nfc::nfc_string;
pub use crate::eval::nfc::nfc_value;
pub(crate) use crate::eval::nfc::{has_char_from_u0300, nfc_map, nfc_str};

/// The UTF-8 byte-order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// How many leading bytes the UTF-16 heuristic looks at.
const NUL_SNIFF_LEN: usize = 4096;

/// Checks that `bytes` are UTF-8 and returns the text, without a leading
/// UTF-8 byte-order mark.
///
/// Errors ([`ErrorKind::Encoding`]) say that the file is not UTF-8 and where
/// the first bad byte is: its byte offset in the file (counting a BOM) in the
/// message, and its line and column in the error's position. A UTF-16
/// byte-order mark, or NUL bytes making up an eighth or more of the start of
/// the file, are reported as "looks like UTF-16" (such text may even be valid
/// UTF-8, but it is never a valid JSON or CSV file).
pub fn decode_text<'a>(file_name: &str, bytes: &'a [u8]) -> Result<&'a str, Error> {
    let bom_len = check_start(file_name, bytes)?;
    let body = bytes.get(bom_len..).unwrap_or_default();
    match std::str::from_utf8(body) {
        Ok(text) => Ok(text),
        Err(e) => {
            let bad = e.valid_up_to();
            let (line, column) = position_in_bytes(body, bad);
            let byte = body.get(bad).copied().unwrap_or(0);
            Err(not_utf8(
                file_name,
                byte,
                e.error_len().is_none(),
                bad + bom_len,
                (line, column),
            ))
        }
    }
}

/// How many bytes of a file's start [`check_start`] needs to see to give
/// the answer it gives on the whole file: a byte-order mark and the part
/// the UTF-16 heuristic looks at.
pub(crate) const START_LEN: usize = UTF8_BOM.len() + NUL_SNIFF_LEN;

/// The checks of [`decode_text`] that look at the start of the file only
/// (the UTF-16 byte-order marks and the NUL heuristic), on `start`: the
/// file's first [`START_LEN`] bytes (or all of it). Returns the length of
/// a UTF-8 byte-order mark to skip (0 or 3).
pub(crate) fn check_start(file_name: &str, start: &[u8]) -> Result<usize, Error> {
    let encoding_error = |message: String, line: usize, column: usize| {
        Error::new(ErrorKind::Encoding, message)
            .in_file(file_name)
            .at(line, column)
    };
    if start.starts_with(b"\xFF\xFE") || start.starts_with(b"\xFE\xFF") {
        let endian = if start.starts_with(b"\xFF\xFE") {
            "little"
        } else {
            "big"
        };
        return Err(encoding_error(
            format!(
                "the file is not UTF-8: it looks like UTF-16 ({endian}-endian \
                 byte-order mark at byte offset 0); save it as UTF-8"
            ),
            1,
            1,
        ));
    }
    let (bom_len, body) = match start.strip_prefix(UTF8_BOM) {
        Some(rest) => (UTF8_BOM.len(), rest),
        None => (0, start),
    };
    if let Some(nul) = utf16_nul(body) {
        let (line, column) = position_in_bytes(body, nul);
        return Err(encoding_error(
            format!(
                "the file is not UTF-8: it looks like UTF-16 (it contains NUL \
                 bytes, the first at byte offset {}); save it as UTF-8",
                nul + bom_len
            ),
            line,
            column,
        ));
    }
    Ok(bom_len)
}

/// The error for the first byte that is not UTF-8: `byte` at byte
/// `offset` of the file (counting a byte-order mark), at 1-based `(line,
/// column)`; `at_end` when it starts a sequence cut off by the end of the
/// file.
pub(crate) fn not_utf8(
    file_name: &str,
    byte: u8,
    at_end: bool,
    offset: usize,
    (line, column): (usize, usize),
) -> Error {
    let what = if at_end {
        format!("incomplete UTF-8 sequence (byte 0x{byte:02X}) at the end of the file")
    } else {
        format!("invalid byte 0x{byte:02X}")
    };
    Error::new(
        ErrorKind::Encoding,
        format!(
            "the file is not UTF-8: {what} at byte offset {offset}; \
             save it as UTF-8 (it may be Latin-1 or Windows-1252)"
        ),
    )
    .in_file(file_name)
    .at(line, column)
}

/// The offset of the first NUL byte when NUL bytes look like UTF-16 code
/// units of ASCII text: at least one byte in eight of the first few KiB.
fn utf16_nul(bytes: &[u8]) -> Option<usize> {
    let head = bytes.get(..NUL_SNIFF_LEN).unwrap_or(bytes);
    let first = head.iter().position(|&b| b == 0)?;
    let nuls = head.iter().filter(|&&b| b == 0).count();
    (nuls * 8 >= head.len()).then_some(first)
}

/// The 1-based line and column (in characters) of byte `offset` in `bytes`.
fn position_in_bytes(bytes: &[u8], offset: usize) -> (usize, usize) {
    // Lossy: only the NUL heuristic can meet broken bytes before `offset`,
    // and each of those then counts as one character.
    let prefix = String::from_utf8_lossy(bytes.get(..offset).unwrap_or(bytes));
    position_of_offset(&prefix, prefix.len())
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
/// An offset inside a character names that character; one past the end
/// names the position after the last character.
pub(crate) fn position_of_offset(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let prefix = text.get(..offset).unwrap_or(text);
    let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
    let line = 1 + prefix.bytes().filter(|&b| b == b'\n').count();
    let column = 1 + prefix.get(line_start..).map_or(0, |s| s.chars().count());
    (line, column)
}

/// Finds the lines of increasing byte offsets in one pass over the text.
pub(crate) struct LineCounter<'a> {
    text: &'a str,
    offset: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        LineCounter {
            text,
            offset: 0,
            line: 1,
        }
    }

    /// The 1-based line of byte `offset`. Cheap when offsets increase;
    /// starts over from the top when one goes back.
    pub(crate) fn line_at(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        if offset < self.offset {
            self.offset = 0;
            self.line = 1;
        }
        let between = self
            .text
            .as_bytes()
            .get(self.offset..offset)
            .unwrap_or_default();
        self.line += between.iter().filter(|&&b| b == b'\n').count();
        self.offset = offset;
        self.line
    }
}

/// Converts serde_json's column (1-based, counted in *bytes* of `line_text`)
/// to a 1-based column counted in characters.
pub(crate) fn char_column(line_text: &str, byte_column: usize) -> usize {
    let end = ceil_char_boundary(line_text, byte_column.min(line_text.len()));
    line_text.get(..end).map_or(0, |s| s.chars().count()).max(1)
}

/// The text of 1-based line `line` of `text` (without its `\n`).
pub(crate) fn line_text(text: &str, line: usize) -> &str {
    text.split('\n').nth(line.saturating_sub(1)).unwrap_or("")
}

/// The smallest char boundary of `s` at or after `i` (`i <= s.len()`).
fn ceil_char_boundary(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Whether the JSON source text `json` may hold text that is not NFC once
/// parsed: it has a character at or above U+0300, or a `\u` escape.
pub(crate) fn json_may_need_nfc(json: &str) -> bool {
    has_char_from_u0300(json) || json.contains("\\u")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn position_counts_characters_not_bytes() {
        let text = "ab\nçé€x\n";
        assert_eq!(position_of_offset(text, 0), (1, 1));
        assert_eq!(position_of_offset(text, 3), (2, 1));
        // "x" is at byte 3 + 2 + 2 + 3 = 10, the 4th character of line 2.
        assert_eq!(position_of_offset(text, 10), (2, 4));
        // Inside "€" (bytes 7..10): names "€".
        assert_eq!(position_of_offset(text, 8), (2, 3));
        assert_eq!(position_of_offset(text, text.len()), (3, 1));
        assert_eq!(position_of_offset(text, 999), (3, 1));
    }

    #[test]
    fn line_counter_counts_forward_and_back() {
        let mut lines = LineCounter::new("a\nb\n\nc");
        assert_eq!(lines.line_at(0), 1);
        assert_eq!(lines.line_at(2), 2);
        assert_eq!(lines.line_at(5), 4);
        assert_eq!(lines.line_at(99), 4);
        assert_eq!(lines.line_at(1), 1);
        assert_eq!(lines.line_at(3), 2);
    }

    #[test]
    fn char_column_converts_byte_columns() {
        // serde_json reports the byte column of the last byte it read.
        assert_eq!(char_column("{\"é\": x}", 8), 7);
        assert_eq!(char_column("abc", 0), 1);
        assert_eq!(char_column("abc", 99), 3);
        // A column inside a multi-byte character names that character.
        assert_eq!(char_column("ü!", 1), 1);
    }

    #[test]
    fn line_text_picks_the_line() {
        assert_eq!(line_text("a\nbb\nccc", 2), "bb");
        assert_eq!(line_text("a\nbb\nccc", 9), "");
        assert_eq!(line_text("a", 0), "a");
    }

    #[test]
    fn nfc_value_normalises_keys_and_nested_strings() {
        let mut v = json!({"cafe\u{301}": ["e\u{301}", {"n\u{303}": "a\u{30a}"}], "n": 1});
        nfc_value(&mut v);
        assert_eq!(v, json!({"café": ["é", {"ñ": "å"}], "n": 1}));
        let keys: Vec<&String> = v
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["café", "n"]);
    }

    #[test]
    fn nfc_keeps_already_normalised_strings() {
        assert_eq!(nfc_string("plain".to_owned()), "plain");
        assert_eq!(nfc_str("𝄞 ok"), "𝄞 ok");
        assert_eq!(nfc_str("A\u{30a}"), "Å");
    }

    #[test]
    fn characters_below_u0300_are_nfc() {
        use unicode_normalization::{is_nfc_quick, IsNormalized};
        for c in (0..0x300).filter_map(char::from_u32) {
            let s = c.to_string();
            assert!(!has_char_from_u0300(&s), "{c:?}");
            assert_eq!(is_nfc_quick(s.chars()), IsNormalized::Yes, "{c:?}");
        }
        assert!(has_char_from_u0300("a\u{300}"));
        assert!(has_char_from_u0300(&format!("{}—", "x".repeat(600))));
        assert!(has_char_from_u0300("𝄞"));
    }

    #[test]
    fn json_nfc_check_looks_for_escapes() {
        assert!(!json_may_need_nfc(r#"{"café": "Müller, Straße"}"#));
        assert!(json_may_need_nfc(r#"{"cafe\u0301": 1}"#));
        assert!(json_may_need_nfc("{\"e\u{301}\": 1}"));
    }

    #[test]
    fn utf16_heuristic_needs_many_nuls() {
        assert_eq!(utf16_nul(b"a\0b\0c\0"), Some(1));
        assert_eq!(utf16_nul(b"abcdefghijklmnop\0"), None);
        assert_eq!(utf16_nul(b""), None);
    }
}
