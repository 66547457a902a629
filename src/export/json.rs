//! JSON export: the report as pretty-printed JSON, the machine-readable
//! contract of SPEC §5.
//!
//! Owns: nothing but the call to `serde_json`; the shape is the serde form
//! of [`Report`]. Numbers are written unrounded (shortest round-trip form)
//! and "not applicable" as `null`, so [`ExportOptions`] is ignored.
//!
//! Strings keep their exact text (JSON is data: a reader gets back what the
//! files held). serde_json escapes `"`, `\` and C0 controls; on top of that,
//! every other [hidden](super::is_hidden) character — DEL and C1 controls,
//! bidi controls, zero-width spaces, noncharacters — is written as a `\u`
//! escape, so the text of the file cannot be reordered or hide anything
//! when a person opens it, and it parses back to the same strings.
//!
//! Depends on: `crate::eval::report` only.

use super::{is_hidden, ExportOptions};
use crate::eval::report::Report;

/// The report as pretty-printed JSON followed by a newline.
pub fn render(report: &Report, _options: &ExportOptions) -> String {
    // The report holds only strings, numbers, booleans and string-keyed
    // maps, so serialisation cannot fail (serde_json writes a non-finite
    // float as null rather than failing).
    let text = serde_json::to_string_pretty(report).unwrap_or_default();
    let mut text = escape_hidden(&text);
    text.push('\n');
    text
}

/// `json` (serde_json's output) with every hidden character left raw
/// written as `\uXXXX` (two escapes, a surrogate pair, above U+FFFF).
/// Outside strings serde_json writes only ASCII punctuation, letters,
/// digits, spaces and line breaks (and inside strings it escapes C0
/// controls itself), so every other hidden character is inside a string,
/// where a `\u` escape means the same character.
fn escape_hidden(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if is_hidden(c) && !c.is_ascii_whitespace() {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape_hidden;

    #[test]
    fn hidden_characters_become_escapes_that_read_back() {
        let original = "a\u{202E}b\u{200B}c\u{85}d\u{1FFFE}e é\u{7f}\n";
        let json = serde_json::to_string(original).unwrap_or_default();
        let escaped = escape_hidden(&json);
        assert_eq!(
            escaped,
            "\"a\\u202eb\\u200bc\\u0085d\\ud83f\\udffee é\\u007f\\n\""
        );
        let back: String = serde_json::from_str(&escaped).unwrap_or_default();
        assert_eq!(back, original);
    }
}
