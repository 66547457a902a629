//! Unit tests of `export::html`: the escaper and the SVG check.

use super::svg::event_attribute;
use super::*;

#[test]
fn escape_handles_the_five_specials() {
    assert_eq!(
        escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
        "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
    );
    assert_eq!(escape("Señor 模型 — ok"), "Señor 模型 — ok");
    assert_eq!(escape("&amp;"), "&amp;amp;");
}

#[test]
fn escape_spaces_whitespace_controls_and_shows_hidden_ones() {
    assert_eq!(escape("a\nb\tc\r\n"), "a b c  ");
    assert_eq!(escape("\u{202E}evil"), "[U+202E]evil");
    assert_eq!(
        escape("\u{200E}\u{200F}\u{202A}\u{2066}\u{2069}\u{061C}"),
        "[U+200E][U+200F][U+202A][U+2066][U+2069][U+061C]"
    );
    assert_eq!(
        escape("x\u{0}\u{1b}[0m\u{7f}"),
        "x[U+0000][U+001B][0m[U+007F]"
    );
    assert_eq!(
        escape("\u{FFFF}\u{FDD0}\u{1FFFE}"),
        "[U+FFFF][U+FDD0][U+1FFFE]"
    );
    // Joiners used by emoji and scripts are kept.
    assert_eq!(escape("👩\u{200D}🔬"), "👩\u{200D}🔬");
}

const OK: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50"><defs><clipPath id="c"><rect x="0" y="0" width="10" height="10"/></clipPath></defs><rect fill="url(#c)" x="1" y="2" width="3" height="4"/><text x="5" y="5" font-family="sans-serif">a &lt; b, based on data</text><polyline points="0,0 1,1" stroke="#000"/></svg>"##;

#[test]
fn a_chart_svg_passes() {
    assert_eq!(check_svg(OK), Ok(OK));
    let with_prolog = format!("<?xml version=\"1.0\"?>\n<!-- chart -->\n<!DOCTYPE svg>\n{OK}\n");
    assert_eq!(check_svg(&with_prolog), Ok(OK));
    let image = r#"<svg><image href="data:image/png;base64,AAAA" x="0"/></svg>"#;
    assert_eq!(check_svg(image), Ok(image));
}

#[test]
fn scripts_and_handlers_are_refused_in_any_case() {
    for bad in [
        "<svg><script>alert(1)</script></svg>",
        "<svg><SCRIPT>alert(1)</SCRIPT></svg>",
        "<svg><a href=\"JavaScript:alert(1)\"><text>x</text></a></svg>",
        "<svg><foreignObject><p>x</p></foreignObject></svg>",
        "<svg onload=\"alert(1)\"></svg>",
        "<svg/onload=alert(1)>",
        "<svg><rect ONMOUSEOVER = 'x'/></svg>",
        "<svg><rect x=\"1\"onclick=\"x\"/></svg>",
    ] {
        assert!(check_svg(bad).is_err(), "{bad}");
    }
}

#[test]
fn external_references_are_refused() {
    for bad in [
        "<svg><image href=\"https://example.org/x.png\"/></svg>",
        "<svg><use xlink:href=\"other.svg#a\"/></svg>",
        "<svg><rect style=\"fill: url( 'http://e/x' )\"/></svg>",
        "<svg><style>@import 'x.css';</style></svg>",
        "<svg><image href=\"data:image/svg+xml;base64,AAAA\"/></svg>",
        "<svg><use href=\"data:image/png;base64,AAAA\"/></svg>",
    ] {
        assert!(check_svg(bad).is_err(), "{bad}");
    }
}

#[test]
fn broken_structure_is_refused() {
    for (bad, reason) in [
        ("<svg><g></svg>", "unbalanced `</svg>`"),
        ("<svg></svg></figure><p>x</p>", "markup after"),
        ("<svg></svg>trailing", "text after"),
        ("text<svg></svg>", "text outside"),
        ("<g></g>", "starts with `<g>`"),
        ("<svg><iframe></iframe></svg>", "`<iframe>` element"),
        ("<svg><a href=\"#x\"></a></svg>", "`<a>` element"),
        ("<svg><![CDATA[x]]></svg>", "CDATA"),
        ("<svg><rect x=1/></svg>", "unquoted"),
        ("<svg><rect x=\"<\"/></svg>", "`<` in the attribute"),
        ("<svg><!-- a -- b --></svg>", "`--`"),
        (
            "<!DOCTYPE svg [<!ENTITY x \"y\">]><svg></svg>",
            "declarations",
        ),
        ("<svg>", "unclosed"),
        ("", "no `<svg>`"),
    ] {
        let err = check_svg(bad).unwrap_err();
        assert!(err.contains(reason), "{bad}: {err}");
    }
}

#[test]
fn event_attribute_needs_a_boundary_letters_and_equals() {
    assert_eq!(event_attribute(" onload=x"), Some("onload"));
    assert_eq!(event_attribute("/onerror =x"), Some("onerror"));
    assert_eq!(event_attribute("\"onclick=x"), Some("onclick"));
    assert_eq!(event_attribute("based on data"), None);
    assert_eq!(event_attribute("button=x"), None);
    assert_eq!(event_attribute(" on=x"), None);
}
