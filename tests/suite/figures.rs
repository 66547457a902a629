//! `fieldscope figures` (issue #5, part 6): every chart as SVG and PDF at
//! paper size; the PDFs embed a TrueType font and no Type 3 font.
//!
//! The viewer-side check (`pdffonts`, `pdftoppm`) is a script in the
//! README ("Figures for papers"); these tests read the PDF bytes.

use super::sweep::{near_miss_files, temp_dir};
use std::ffi::OsString;
use std::path::Path;

fn cli(args: &[&str]) -> (i32, String, String) {
    let argv: Vec<OsString> = std::iter::once("fieldscope")
        .chain(args.iter().copied())
        .map(OsString::from)
        .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = fieldscope::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/example")
        .join(name)
        .display()
        .to_string()
}

/// The numbers of the first `/MediaBox [...]`.
fn media_box(pdf: &[u8]) -> Vec<f64> {
    let text = String::from_utf8_lossy(pdf);
    let start = text.find("/MediaBox [").expect("a MediaBox") + "/MediaBox [".len();
    let end = start + text[start..].find(']').expect("the MediaBox ends");
    text[start..end]
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect()
}

/// The example has line items, so all six report charts and the two
/// charts of each of the three sweeps are written, as SVG and PDF.
const EXPECTED: [&str; 12] = [
    "metric_bars",
    "outcome_distribution",
    "field_f1_heatmap",
    "pred_vs_truth",
    "cer_distribution",
    "item_metrics",
    "sweep_similarity_micro_f1",
    "sweep_similarity_micro_accuracy",
    "sweep_cer_micro_f1",
    "sweep_cer_micro_accuracy",
    "sweep_item_item_f1",
    "sweep_item_item_count_accuracy",
];

#[test]
fn figures_writes_every_chart_as_svg_and_pdf_with_embedded_truetype_fonts() {
    let dir = temp_dir("figures");
    let out = dir.join("figs");
    let (truth, careful, eager, schema) = (
        example("truth.jsonl"),
        example("careful.jsonl"),
        format!("eager={}", example("eager.json")),
        example("schema.json"),
    );
    let (code, stdout, err) = cli(&[
        "figures",
        "--truth",
        &truth,
        "--pred",
        &careful,
        "--pred",
        &eager,
        "--schema",
        &schema,
        "--out",
        out.to_str().unwrap(),
        "--size",
        "column",
        "--values",
        "0,0.5,0.85,1",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = EXPECTED
        .iter()
        .flat_map(|id| [format!("{id}.pdf"), format!("{id}.svg")])
        .chain(["captions.md".to_string()])
        .collect();
    expected.sort();
    assert_eq!(names, expected);
    assert_eq!(stdout.lines().count(), expected.len(), "{stdout}");

    for id in EXPECTED {
        let pdf = std::fs::read(out.join(format!("{id}.pdf"))).unwrap();
        assert!(pdf.starts_with(b"%PDF-"), "{id}");
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("/CIDFontType2"), "{id}: a TrueType CID font");
        assert!(
            text.contains("/FontFile2"),
            "{id}: the font program embedded"
        );
        assert!(text.contains("+LiberationSans"), "{id}: the subsetted font");
        assert!(!text.contains("/Type3"), "{id}: no Type 3 font");
        // 317 px at 96 px per inch = 3.3 in = 237.75 pt wide.
        let mb = media_box(&pdf);
        assert_eq!(mb[2], 237.75, "{id}");

        let svg = std::fs::read_to_string(out.join(format!("{id}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(doc.root_element().attribute("width"), Some("317"), "{id}");
        // The PDF page is as tall as the SVG: height px × 0.75 pt.
        let h: f64 = doc
            .root_element()
            .attribute("height")
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(mb[3], h * 0.75, "{id}");
    }
    let captions = std::fs::read_to_string(out.join("captions.md")).unwrap();
    assert!(captions.contains("- `sweep_cer_micro_f1`: Micro F1 (counts pooled"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn figures_writes_only_the_formats_asked_for_and_refuses_unknown_ones() {
    let dir = temp_dir("figures-svg");
    let (truth, pred) = near_miss_files(&dir);
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let (code, _, err) = cli(&[
        "figures", "--truth", &truth, "--pred", &pred, "--out", out, "--format", "svg", "--values",
        "0.5",
    ]);
    assert_eq!(code, 0, "{err}");
    let names: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n.ends_with(".svg") || n == "captions.md"),
        "{names:?}"
    );
    // No line items: no item chart and no item-threshold charts.
    assert!(names.contains(&"sweep_cer_micro_f1.svg".to_string()));
    assert!(!names.iter().any(|n| n.contains("item")), "{names:?}");

    let (code, _, err) = cli(&[
        "figures", "--truth", &truth, "--pred", &pred, "--out", out, "--format", "png",
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --format \"png\": unknown figure format \"png\"; expected pdf, svg or both (pdf,svg)\n"
    );
    let (code, _, err) = cli(&[
        "figures", "--truth", &truth, "--pred", &pred, "--out", out, "--size", "a4",
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --size \"a4\": expected column (3.3 in) or full (7 in)\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
