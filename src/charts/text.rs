//! Text for charts: making untrusted labels safe, estimating how wide a
//! label is, shortening it to fit, and printing numbers.
//!
//! Owns: the one sanitiser and the one width estimate every chart uses.
//! Model and field names come from user files; before they reach the SVG
//! they lose the characters `crate::escape::is_hidden` names (controls,
//! invalid in XML even when escaped; bidi controls, which could make a
//! label read as something else; invisible ones and noncharacters). XML escaping itself is done by plotters' SVG backend
//! (`<`, `>`, `&`, `"` and `'` in text and attributes), and by [`xml_escape`]
//! for the one element written outside plotters (the SVG `<title>`).
//!
//! Widths are estimated here, not measured by plotters: plotters measures
//! text with the DOM in the browser and with a crude estimate natively, so a
//! chart laid out with its measurements would differ between the two (and
//! the DOM path unwraps `window()`). One estimate of our own gives the same
//! SVG everywhere.

/// `s` without characters that must not reach an SVG: the
/// [hidden](crate::escape::is_hidden) ones (controls, bidi controls,
/// invisible characters, tags, noncharacters; tab and line breaks become a
/// space). Runs of whitespace collapse to one space; the result is trimmed.
pub fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        let c = if c.is_whitespace() { ' ' } else { c };
        if c == ' ' {
            space = !out.is_empty();
            continue;
        }
        if crate::escape::is_hidden(c) {
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    out
}

pub use crate::escape::xml as xml_escape;

/// Advance width of `c` in em for a Helvetica/Arial-like sans-serif face,
/// rounded up so that estimates err on the wide side.
fn advance(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | 'I' => 0.28,
        ' ' | 'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | '/' => 0.36,
        'm' | 'w' | 'M' | 'W' | '%' | '@' => 0.86,
        '0'..='9' | '#' | '$' | '+' | '=' | '<' | '>' | '_' | '~' | '^' | '?' => 0.58,
        'a'..='z' => 0.56,
        'A'..='Z' => 0.70,
        '…' => 1.0,
        c if (c as u32) < 0x0300 => 0.62,
        // CJK, symbols and most other scripts: full width, to be safe.
        _ => 1.0,
    }
}

/// Estimated width in pixels of `s` set at `px` pixels.
pub fn width(s: &str, px: f64) -> f64 {
    s.chars().map(advance).sum::<f64>() * px
}

/// `s` when it fits in `max_px` at `px`; else its beginning and end with
/// "…" between them. Cutting in the middle keeps what tells similar names
/// apart: the leaf of a field path (`vendor.…street`), the version suffix of
/// a model name.
pub fn fit(s: &str, max_px: f64, px: f64) -> String {
    if width(s, px) <= max_px {
        return s.to_string();
    }
    let budget = max_px - width("…", px);
    let chars: Vec<char> = s.chars().collect();
    let mut head = 0;
    let mut used = 0.0;
    while head < chars.len() && used + advance(chars[head]) * px <= budget / 2.0 {
        used += advance(chars[head]) * px;
        head += 1;
    }
    let mut tail = chars.len();
    while tail > head && used + advance(chars[tail - 1]) * px <= budget {
        used += advance(chars[tail - 1]) * px;
        tail -= 1;
    }
    let front: String = chars[..head].iter().collect();
    let back: String = chars[tail..].iter().collect();
    format!("{}…{}", front.trim_end(), back.trim_start())
}

/// `v` with `decimals` decimals; "–" for a value that is not finite.
pub fn fixed(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        let s = format!("{v:.decimals$}");
        // "-0.00" reads as a sign error in a paper.
        if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
            s[1..].to_string()
        } else {
            s
        }
    } else {
        "–".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_strips_controls_bidi_and_collapses_space() {
        assert_eq!(sanitize("a\u{202E}b\u{0007}c"), "abc");
        assert_eq!(sanitize("  two\n\tlines  "), "two lines");
        assert_eq!(sanitize("\u{2066}x\u{2069}\u{200B}\u{FEFF}\u{FFFF}"), "x");
        assert_eq!(sanitize("\u{0085}é\u{009B}"), "é");
        assert_eq!(sanitize("<script>&\"'"), "<script>&\"'");
        assert_eq!(sanitize(""), "");
    }

    #[test]
    fn xml_escape_escapes_the_five() {
        assert_eq!(
            xml_escape("<a href='x'>&\"</a>"),
            "&lt;a href=&apos;x&apos;&gt;&amp;&quot;&lt;/a&gt;"
        );
    }

    #[test]
    fn fit_keeps_short_text_and_ellipsises_long_text() {
        assert_eq!(fit("gpt", 100.0, 10.0), "gpt");
        let long = "a-very-long-model-name-that-does-not-fit";
        let cut = fit(long, 80.0, 10.0);
        assert!(
            cut.starts_with("a-very") && cut.ends_with("not-fit"),
            "{cut}"
        );
        assert!(cut.contains('…'), "{cut}");
        assert!(width(&cut, 10.0) <= 80.0);
        assert!(cut.len() > 4);
        // Nothing fits: only the ellipsis is left.
        assert_eq!(fit("abc", 1.0, 10.0), "…");
    }

    #[test]
    fn fixed_prints_decimals_and_no_negative_zero() {
        assert_eq!(fixed(0.8749, 2), "0.87");
        assert_eq!(fixed(0.8751, 2), "0.88");
        assert_eq!(fixed(-0.0001, 2), "0.00");
        assert_eq!(fixed(12.0, 0), "12");
        assert_eq!(fixed(f64::NAN, 2), "–");
    }
}
