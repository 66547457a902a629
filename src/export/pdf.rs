//! PDF figures: one chart's SVG converted to a one-page PDF whose fonts
//! are embedded TrueType (CID) fonts, never Type 3 — what venues and
//! Overleaf accept.
//!
//! Owns: the conversion ([`svg_to_pdf`]) and the font it embeds. The SVG
//! is parsed by `usvg` and written by `svg2pdf` (typst's converter); no PDF
//! is written by hand. Text stays text (selectable, subsetted), in
//! **Liberation Sans** 2.1.5 (SIL Open Font License 1.1;
//! `assets/fonts/OFL.txt`), compiled into the binary: the charts ask for
//! `Helvetica, Arial, sans-serif` (`charts/draw.rs`), no system font is
//! looked up, and every family and generic name resolves to Liberation
//! Sans, which has Arial's (and so Helvetica's) metrics — the widths the
//! charts' layout estimates. Characters the font lacks (CJK, say) are drawn
//! as its missing-glyph box.
//!
//! Size: the SVG user unit is the CSS pixel, 96 per inch, so a 672 px
//! chart becomes a 7 in (504 pt) page and 8.5 pt text stays 8.5 pt.
//!
//! Natively, `fieldscope figures` calls it; in the browser only the export
//! worker (`src/bin/export_worker.rs`, a separate wasm module loaded when an
//! export is asked for) does, so the app's own wasm carries neither the
//! converter nor the font. It takes and returns plain data for that reason.
//!
//! Depends on: `svg2pdf` (with its `usvg`), [`crate::error`]. No I/O.

use crate::error::{Error, ErrorKind};
use std::sync::{Arc, OnceLock};
use svg2pdf::usvg::{self, fontdb};

/// Liberation Sans Regular 2.1.5 (SIL OFL 1.1).
const REGULAR: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Regular.ttf");
/// Liberation Sans Italic 2.1.5 (SIL OFL 1.1), for the charts' notes.
const ITALIC: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Italic.ttf");

/// The family every font request resolves to.
pub const FONT_FAMILY: &str = "Liberation Sans";

/// SVG user units (CSS pixels) per inch.
const DPI: f32 = 96.0;

/// The font database, built once: the two embedded faces, every generic
/// family mapped to them.
fn fonts() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(REGULAR.to_vec());
        db.load_font_data(ITALIC.to_vec());
        db.set_sans_serif_family(FONT_FAMILY);
        db.set_serif_family(FONT_FAMILY);
        db.set_monospace_family(FONT_FAMILY);
        db.set_cursive_family(FONT_FAMILY);
        db.set_fantasy_family(FONT_FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// Converts a standalone SVG document (as `crate::charts` renders them) to
/// a one-page PDF of the same size (96 SVG units per inch), text embedded
/// as subsetted Liberation Sans.
///
/// Errors ([`ErrorKind::Input`]): the SVG does not parse, or the converter
/// fails; the message says which. The caller adds the file name. Never
/// panics on any input string.
///
/// ```
/// let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="48" viewBox="0 0 96 48">
///   <text x="4" y="24" font-family="Helvetica, Arial, sans-serif" font-size="12">F1</text></svg>"#;
/// let pdf = fieldscope::export::pdf::svg_to_pdf(svg).unwrap();
/// assert!(pdf.starts_with(b"%PDF-"));
/// ```
pub fn svg_to_pdf(svg: &str) -> Result<Vec<u8>, Error> {
    let mut options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        ..usvg::Options::default()
    };
    options.fontdb = fonts();
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| {
        Error::new(
            ErrorKind::Input,
            format!("the SVG could not be read for the PDF: {e}"),
        )
    })?;
    svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions { dpi: DPI },
    )
    .map_err(|e| {
        Error::new(
            ErrorKind::Input,
            format!("the SVG could not be converted to PDF: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="672" height="96" viewBox="0 0 672 96">
<rect x="0" y="0" width="672" height="96" fill="#FFFFFF"/>
<text x="10" y="40" font-family="Helvetica, Arial, sans-serif" font-size="11.33">Micro F1 ≥ 0.85 – “ok” …</text>
<text x="10" y="70" font-family="Helvetica, Arial, sans-serif" font-size="11.33" font-style="italic">no line items</text>
</svg>"##;

    /// The text between `/MediaBox [` and `]`.
    fn media_box(pdf: &[u8]) -> Vec<f64> {
        let text = String::from_utf8_lossy(pdf);
        let start = text.find("/MediaBox [").expect("a MediaBox") + "/MediaBox [".len();
        let end = start + text[start..].find(']').expect("the MediaBox ends");
        text[start..end]
            .split_whitespace()
            .map(|n| n.parse().expect("a number"))
            .collect()
    }

    #[test]
    fn a_chart_becomes_a_pdf_of_the_same_size_in_points() {
        let pdf = svg_to_pdf(SVG).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        // 672 px at 96 per inch = 7 in = 504 pt; 96 px = 72 pt.
        assert_eq!(media_box(&pdf), vec![0.0, 0.0, 504.0, 72.0]);
    }

    #[test]
    fn fonts_are_embedded_truetype_never_type3() {
        let pdf = svg_to_pdf(SVG).unwrap();
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("/CIDFontType2"), "a TrueType CID font");
        assert!(text.contains("/FontFile2"), "its program embedded");
        assert!(text.contains("LiberationSans"), "the embedded family");
        assert!(text.contains("LiberationSans-Italic"), "the italic face");
        assert!(!text.contains("/Type3"));
    }

    #[test]
    fn broken_svg_is_an_error_not_a_panic() {
        for bad in ["", "<svg", "not xml at all", "<html></html>"] {
            let e = svg_to_pdf(bad).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Input);
            assert!(e.message.starts_with("the SVG could not be"), "{e}");
        }
    }
}
