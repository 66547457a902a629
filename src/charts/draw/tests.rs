//! Unit tests of `draw`: the error SVG and the title.

use super::*;

#[test]
fn error_svg_is_escaped_and_standalone() {
    let s = error_svg(100, 50, "bad <thing> & \u{202E}more");
    assert!(s.contains("bad &lt;thing&gt; &amp; more"));
    assert!(s.starts_with("<svg width=\"100\" height=\"50\""));
}

#[test]
fn a_failing_drawing_becomes_an_error_svg() {
    let s = svg(80, 40, "t", |_| Err(DrawingAreaErrorKind::LayoutError));
    assert!(s.contains("Chart could not be drawn: Bad layout"), "{s}");
}

#[test]
fn the_title_goes_right_after_the_svg_tag() {
    let s = svg(80, 40, "a <b>", |_| Ok(()));
    assert!(s.starts_with("<svg "));
    assert!(s.contains(">\n<title>a &lt;b&gt;</title>"), "{s}");
}
