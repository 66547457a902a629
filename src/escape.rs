//! Untrusted text made safe to show: the one rule for characters that hide
//! or reorder text ([`is_hidden`]) and the one escaper for markup
//! ([`html`] for HTML, [`xml`] for SVG and JUnit XML).
//!
//! Owns: what counts as hidden, and markup escaping. Every output that
//! writes user text into HTML or XML (the HTML report, the comparison and
//! gate outputs, the charts) calls these; Markdown, LaTeX and CSV keep
//! their own escapers beside their writers (`export::markdown::escape`,
//! `export::latex::escape`, `export::csv`), each showing hidden characters
//! by this rule. Depends on std only; never on the report or the exports.

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
