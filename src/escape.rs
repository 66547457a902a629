//! Untrusted text made safe to show: the one rule for characters that hide
//! or reorder text ([`is_hidden`]) and the one escaper for markup
//! ([`html`] for HTML, [`xml`] for SVG and JUnit XML) and [`markdown`].
//!
//! Owns: what counts as hidden ([`show_hidden`] shows it), markup
//! escaping and Markdown escaping ([`markdown`]). Every output that writes
//! user text into HTML, XML or Markdown (the reports, the comparison, gate,
//! audit and suggestions sections, the charts) calls these; LaTeX and CSV
//! keep their escapers beside their writers (`export::latex::escape`,
//! `export::csv`), showing hidden characters by this rule. Depends on std
//! only; never on the report or the exports.

use std::borrow::Cow;

/// Characters that would hide or reorder text when shown:
///
/// * control characters (C0, C1, DEL);
/// * the bidirectional controls: U+061C, U+200E, U+200F, U+202A–U+202E,
///   U+2066–U+2069;
/// * invisible characters that carry no text: U+200B (zero-width space),
///   U+2060 (word joiner), the invisible operators U+2061–U+2064 and the
///   unassigned U+2065 of that block, U+FEFF (byte-order mark);
/// * the tag characters U+E0000–U+E007F (invisible ASCII, a known way to
///   smuggle instructions past a reader);
/// * the noncharacters U+FDD0–U+FDEF and U+xFFFE, U+xFFFF.
///
/// The joiners U+200C and U+200D are not hidden: Persian, Indic scripts and
/// emoji sequences need them.
pub fn is_hidden(c: char) -> bool {
    let code = c as u32;
    c.is_control()
        || matches!(
            code,
            0x061C
                | 0x200B
                | 0x200E
                | 0x200F
                | 0x202A..=0x202E
                | 0x2060..=0x2069
                | 0xFEFF
                | 0xE0000..=0xE007F
                | 0xFDD0..=0xFDEF
        )
        || code & 0xFFFE == 0xFFFE
}

/// Untrusted text as the content of an HTML element or a quoted attribute
/// value, shown literally: `&` `<` `>` `"` `'` become `&amp;` `&lt;` `&gt;`
/// `&quot;` `&#39;`; whitespace control characters (newline, tab, …) become
/// spaces; every other [hidden](is_hidden) character becomes a visible
/// `[U+202E]`, so a reader sees it was there (and the page stays
/// well-formed XML, which forbids most of them).
pub fn html(text: &str) -> String {
    markup(text, "&#39;")
}

/// Untrusted text as XML character data or a quoted attribute value: as
/// [`html`], with `'` as `&apos;`.
pub fn xml(text: &str) -> String {
    markup(text, "&apos;")
}

fn markup(text: &str, apostrophe: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str(apostrophe),
            c if c.is_control() && c.is_whitespace() => out.push(' '),
            c if is_hidden(c) => out.push_str(&format!("[U+{:04X}]", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Untrusted text with every whitespace control character (newline, tab,
/// …) as a space and every other [hidden](is_hidden) character as a
/// visible `[U+202E]`, so that a reader of an export sees it was there;
/// the exporters escape the result for their format.
pub fn show_hidden(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if c.is_control() && c.is_whitespace() => out.push(' '),
            c if is_hidden(c) => out.push_str(&format!("[U+{:04X}]", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Makes untrusted text safe to put in a table cell or a list item, on one
/// line, shown literally — and readable as it is in a terminal, where
/// Markdown is often read unrendered (issue 32: no `&lt;good&gt;` for a
/// model named `<good>`):
///
/// * the inline metacharacters `\` `` ` `` `*` `_` `[` `]` `|` `~` `$` get a
///   backslash (`|` as `\|` keeps the table's columns; `$` stops GitHub's
///   math);
/// * a `<` that could open raw HTML or an autolink (followed by an ASCII
///   letter, `/`, `!` or `?`) gets a backslash: `\<script>` is text in
///   CommonMark and GFM (a backslash-escaped `<` never starts a tag, spec
///   §2.4, example 308), and reads as `<script>`; any other `<` (`a < b`,
///   `<3`) and every `>` stay as they are (a leading `>` aside, below);
/// * an `&` that would form an entity or a character reference (`&amp;`,
///   `&#38;`, `&#x26;`: `&`, a name or `#` number, `;`) becomes `&amp;`;
///   any other `&` (`AT&T`, `a & b`) stays;
/// * whitespace control characters (newlines, tabs) become spaces, and the
///   text is trimmed; other characters that would hide or reorder text
///   (control characters, bidirectional controls, zero-width space) become
///   a visible `[U+202E]` ([`show_hidden`]);
/// * a leading `#`, `+`, `-`, `=` or `>`, and the `.` or `)` of a leading
///   ordered-list marker (digits, then `.` or `)`, then a space or the end:
///   `1. x`, `2)`), get a backslash so the text cannot open a heading, a
///   list or a block quote.
pub fn markdown(text: &str) -> String {
    let one_line = show_hidden(text);
    let text = one_line.trim();

    // Byte position of the `.`/`)` of a leading ordered-list marker.
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let bytes = text.as_bytes();
    let list_marker_end = (digits > 0
        && matches!(bytes.get(digits), Some(b'.' | b')'))
        && matches!(bytes.get(digits + 1), None | Some(b' ')))
    .then_some(digits);

    let mut out = String::with_capacity(text.len() + 8);
    for (i, c) in text.char_indices() {
        let after = &text[i + c.len_utf8()..];
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '<' if opens_html(after) => out.push_str("\\<"),
            '&' if forms_reference(after) => out.push_str("&amp;"),
            '#' | '+' | '-' | '=' | '>' if i == 0 => {
                out.push('\\');
                out.push(c);
            }
            '.' | ')' if Some(i) == list_marker_end => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Whether a `<` followed by `after` could open raw HTML (a tag, a closing
/// tag, a comment, a declaration, a processing instruction) or an autolink
/// (a scheme starts with a letter): the next character is an ASCII
/// letter, `/`, `!` or `?`.
pub(crate) fn opens_html(after: &str) -> bool {
    after
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'))
}

/// Whether an `&` followed by `after` forms an entity or a numeric
/// character reference as CommonMark reads them: a name (a letter, then up
/// to 31 letters or digits), `#` and 1–7 digits, or `#x` and 1–6 hex
/// digits, then `;`.
pub(crate) fn forms_reference(after: &str) -> bool {
    let b = after.as_bytes();
    let run = |from: usize, max: usize, ok: fn(&u8) -> bool| {
        let n = b[from.min(b.len())..]
            .iter()
            .take(max + 1)
            .take_while(|c| ok(c))
            .count();
        (n >= 1 && n <= max && b.get(from + n) == Some(&b';')).then_some(n)
    };
    match b.first() {
        Some(b'#') if matches!(b.get(1), Some(b'x' | b'X')) => {
            run(2, 6, u8::is_ascii_hexdigit).is_some()
        }
        Some(b'#') => run(1, 7, u8::is_ascii_digit).is_some(),
        Some(c) if c.is_ascii_alphabetic() => run(0, 32, u8::is_ascii_alphanumeric).is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The ranges that matter, each with whether its characters are hidden.
    const RANGES: [(u32, u32, bool); 9] = [
        (0x202A, 0x202E, true),   // bidi embeddings and overrides
        (0x2066, 0x2069, true),   // bidi isolates
        (0x200E, 0x200F, true),   // bidi marks
        (0x200C, 0x200D, false),  // joiners: scripts need them
        (0x2061, 0x2065, true),   // invisible operators
        (0xE0000, 0xE007F, true), // tags
        (0xFDD0, 0xFDEF, true),   // noncharacters
        (0x0000, 0x001F, true),   // C0 controls
        (0x0080, 0x009F, true),   // C1 controls
    ];

    #[test]
    fn the_ranges_that_matter() {
        for (low, high, hidden) in RANGES {
            for code in low..=high {
                let c = char::from_u32(code).unwrap();
                assert_eq!(is_hidden(c), hidden, "U+{code:04X}");
            }
        }
        for c in ['a', 'é', 'ß', '中', 'ب', '👍', ' ', '\u{00A0}', '\u{0301}'] {
            assert!(!is_hidden(c), "{c:?}");
        }
        for c in [
            '\u{061C}',
            '\u{200B}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{FFFE}',
            '\u{10FFFF}',
        ] {
            assert!(is_hidden(c), "{c:?}");
        }
    }

    #[test]
    fn markup_escapes_the_five_specials_and_shows_hidden_ones() {
        assert_eq!(
            html("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(xml("'"), "&apos;");
        assert_eq!(html("a\nb\tc"), "a b c");
        assert_eq!(html("evil\u{202E}txt.exe"), "evil[U+202E]txt.exe");
        assert_eq!(html("x\u{E0041}"), "x[U+E0041]");
        assert_eq!(html("می\u{200C}خواهم"), "می\u{200C}خواهم");
    }

    proptest! {
        /// Any text: the escaped form has no markup special left raw and
        /// no hidden character at all; a text without either is unchanged.
        #[test]
        fn escaped_text_is_inert(chars in proptest::collection::vec(
            prop_oneof![
                any::<char>(),
                (0x2000u32..0x2070).prop_map(|c| char::from_u32(c).unwrap()),
                (0xE0000u32..0xE0080).prop_map(|c| char::from_u32(c).unwrap()),
                Just('<'), Just('&'), Just('"'), Just('\''),
            ],
            0..40,
        )) {
            let text: String = chars.into_iter().collect();
            for escaped in [html(&text), xml(&text)] {
                prop_assert!(!escaped.chars().any(is_hidden));
                prop_assert!(!escaped.contains(['<', '>', '"', '\'']));
                for (at, _) in escaped.match_indices('&') {
                    let rest = &escaped[at..];
                    prop_assert!(["&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&apos;"]
                        .iter()
                        .any(|e| rest.starts_with(e)));
                }
            }
            if !text.chars().any(|c| is_hidden(c) || "<>&\"'".contains(c)) {
                prop_assert_eq!(html(&text), text);
            }
        }
    }
}
