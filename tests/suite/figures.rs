//! Threshold-sweep charts and `fieldscope figures` (issue 5, parts 3 and
//! 6): the line chart parses as XML, puts the sweep's exact numbers where
//! they belong and keeps hostile model names inert; `figures` writes every
//! chart as SVG and as a PDF whose fonts are all embedded TrueType (read
//! from the PDF's own cross-reference table and font dictionaries), never
//! Type 3, at the paper size asked for.
//!
//! `.ci/check-pdf-fonts DIR` repeats the font check with poppler's
//! `pdffonts` and renders the pages to PNG, to look at; it is not part of
//! the test command.

use super::common::{example, run_cli as cli};
use fieldscope::charts::lines::{self, SweepMetric};
use fieldscope::charts::style::Metrics;
use fieldscope::charts::{self, ChartOptions, PaperSize};
use fieldscope::eval::sweep::{sweep, SweepParam, SweepReport};
use fieldscope::eval::{Config, DocFile, EvalInput, ModelInput};
use fieldscope::io::parse_docs;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("fieldscope-figures-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Two documents with one string each: "kitten" → "sitten" (Levenshtein
/// 1 of 6: similarity 5/6 ≈ 0.833, CER 1/6) and "abcd" → "abcf"
/// (similarity 0.75, CER 0.25).
fn near_misses(model: &str) -> EvalInput<DocFile> {
    let truth = parse_docs(
        "t.jsonl",
        b"{\"id\": \"1\", \"a\": \"kitten\"}\n{\"id\": \"2\", \"a\": \"abcd\"}\n",
    )
    .unwrap();
    let pred = parse_docs(
        "p.jsonl",
        b"{\"id\": \"1\", \"a\": \"sitten\"}\n{\"id\": \"2\", \"a\": \"abcf\"}\n",
    )
    .unwrap();
    EvalInput {
        truth,
        models: vec![ModelInput::new(model, pred)],
        schema: None,
        schemas: Vec::new(),
    }
}

/// A similarity sweep at 0.7, 0.8, 0.9: at 0.7 both strings are exact (F1
/// 1); at 0.8 only "kitten" (0.833) is, "abcd" (0.75) is partial, which
/// strict scores count as an FP and an FN: TP 1, FP 1, FN 1, F1 0.5; at
/// 0.9 neither (F1 0). Accuracy = TP / N with N = 2 pairs: 1, 0.5, 0.
fn similarity_sweep(model: &str) -> SweepReport {
    sweep(
        &near_misses(model),
        &Config::default(),
        SweepParam::Similarity,
        &[0.7, 0.8, 0.9],
    )
    .unwrap()
}

fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

#[test]
fn the_sweep_chart_draws_the_sweeps_exact_numbers() {
    let s = similarity_sweep("m");
    let f1: Vec<f64> = s.models[0].points.iter().map(|p| p.micro_f1).collect();
    assert_eq!(f1, [1.0, 0.5, 0.0]);
    let acc: Vec<f64> = s.models[0]
        .points
        .iter()
        .map(|p| p.micro_accuracy)
        .collect();
    assert_eq!(acc, [1.0, 0.5, 0.0]);
    assert_eq!(s.configured, 0.85);

    // The data the chart draws: (threshold, F1) exactly.
    let data = lines::sweep_lines(&s, SweepMetric::MicroF1);
    assert_eq!(data.series[0].points, [(0.7, 1.0), (0.8, 0.5), (0.9, 0.0)]);
    assert_eq!(data.marker_at, Some(0.85));

    for (size, width) in [(PaperSize::FullWidth, 672), (PaperSize::SingleColumn, 317)] {
        let o = ChartOptions {
            size,
            ..ChartOptions::default()
        };
        let chart = charts::sweep(&s, SweepMetric::MicroF1, &o);
        assert_eq!(chart.id, "sweep_similarity_micro_f1");
        assert_eq!(chart.width_px, width);
        let doc = roxmltree::Document::parse(&chart.svg).expect("well-formed SVG");
        assert_eq!(
            doc.root_element().attribute("width"),
            Some(width.to_string().as_str())
        );
        let t = texts(&doc);
        for wanted in [
            "Micro F1",
            "Similarity threshold t",
            "configured t = 0.85",
            "0.0",
            "0.8",
            "1.0",
            "m",
        ] {
            assert!(t.iter().any(|x| x == wanted), "{wanted:?} not in {t:?}");
        }
        // The first model's markers are circles at the pixel positions of
        // (0.7, 1), (0.8, 0.5), (0.9, 0) in the plot box (the legend's
        // circle comes after them).
        let l = lines::layout(&data, &Metrics::new(&o));
        let px = |x: f64| (l.x0 + x * (l.x1 - l.x0)).round();
        let py = |y: f64| (l.y1 - y * (l.y1 - l.y0)).round();
        let circles: Vec<(f64, f64)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("circle"))
            .map(|n| {
                let get = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
                (get("cx"), get("cy"))
            })
            .collect();
        for (x, y) in [(0.7, 1.0), (0.8, 0.5), (0.9, 0.0)] {
            assert!(
                circles.contains(&(px(x), py(y))),
                "no marker at ({x}, {y}) = ({}, {}) in {circles:?}",
                px(x),
                py(y)
            );
        }
    }
    let chart = charts::sweep(&s, SweepMetric::MicroF1, &ChartOptions::default());
    assert_eq!(
        chart.caption,
        "Micro F1 (counts pooled over all documents and fields; strict: a partial match counts as wrong) \
         of each model on 2 documents as partial_matching.string.exact_threshold = t varies \
         (a string is exact when its similarity is at least t; string_match.method = similarity; \
         every other key as configured). Dashed vertical line: the configured t = 0.85."
    );
    // Two charts per threshold; the item threshold gives none without items.
    let ids: Vec<&str> = charts::sweep_charts(&s, &ChartOptions::default())
        .iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(
        ids,
        [
            "sweep_similarity_micro_f1",
            "sweep_similarity_micro_accuracy"
        ]
    );
    let item = sweep(
        &near_misses("m"),
        &Config::default(),
        SweepParam::Item,
        &[0.5],
    )
    .unwrap();
    assert!(charts::sweep_charts(&item, &ChartOptions::default()).is_empty());
}

#[test]
fn hostile_model_names_stay_text_in_the_sweep_chart() {
    let name = "<script>alert(1)</script>\u{202E}evil & \"q\" <b>x</b>";
    let s = similarity_sweep(name);
    let chart = charts::sweep(&s, SweepMetric::MicroAccuracy, &ChartOptions::default());
    let doc = roxmltree::Document::parse(&chart.svg).expect("well-formed SVG");
    assert!(!doc
        .descendants()
        .any(|n| n.has_tag_name("script") || n.has_tag_name("b")));
    assert!(!chart.svg.contains('\u{202E}'), "bidi override removed");
    let t = texts(&doc);
    assert!(
        t.iter()
            .any(|x| x.starts_with("<script>alert(1)</script>evil & \"q\"")),
        "the name is shown as text: {t:?}"
    );
}

/// Every font of a PDF, found through its structure: the cross-reference
/// table gives each object's offset; each `/Type /Font` object gives its
/// `/Subtype`; a font with a `/FontDescriptor` is embedded when that
/// descriptor has a `/FontFile`, `/FontFile2` or `/FontFile3`. Returns
/// (subtype, base font, embedded); a Type 0 font is embedded when its
/// descendant is.
fn pdf_fonts(pdf: &[u8]) -> Vec<(String, String, bool)> {
    let text = String::from_utf8_lossy(pdf);
    let start: usize = text
        .rsplit_once("startxref")
        .expect("startxref")
        .1
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(pdf[start..].starts_with(b"xref"), "a classic xref table");
    let mut lines = std::str::from_utf8(&pdf[start..start + 64])
        .unwrap_or_else(|e| std::str::from_utf8(&pdf[start..start + e.valid_up_to()]).unwrap())
        .lines()
        .skip(1);
    let header: Vec<usize> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let (first, count) = (header[0], header[1]);
    let table = start + pdf[start..].windows(2).position(|w| w == b"\n0").unwrap() + 1;
    let table = table + pdf[table..].iter().position(|&b| b == b'\n').unwrap() + 1;
    // Each entry is 20 bytes: offset, generation, n/f, end of line.
    let mut objects = BTreeMap::new();
    for i in 0..count {
        let entry = std::str::from_utf8(&pdf[table + 20 * i..table + 20 * i + 18]).unwrap();
        let parts: Vec<&str> = entry.split_whitespace().collect();
        if parts[2] != "n" {
            continue;
        }
        let offset: usize = parts[0].parse().unwrap();
        let body = &pdf[offset..];
        let end = [&b"stream"[..], b"endobj"]
            .iter()
            .filter_map(|k| body.windows(k.len()).position(|w| w == *k))
            .min()
            .unwrap();
        let dict = String::from_utf8_lossy(&body[..end]).into_owned();
        assert!(
            dict.starts_with(&format!("{} 0 obj", first + i)),
            "object {} at its offset: {dict:.40}",
            first + i
        );
        objects.insert(first + i, dict);
    }
    let value = |dict: &str, key: &str| -> Option<String> {
        let at = dict.find(&format!("{key} "))? + key.len() + 1;
        Some(dict[at..].lines().next()?.trim().to_string())
    };
    let reference = |v: &str| -> usize { v.split_whitespace().next().unwrap().parse().unwrap() };
    let embedded = |dict: &str| -> bool {
        value(dict, "/FontDescriptor").is_some_and(|d| {
            let descriptor = &objects[&reference(&d)];
            ["/FontFile ", "/FontFile2 ", "/FontFile3 "]
                .iter()
                .any(|k| descriptor.contains(k))
        })
    };
    objects
        .values()
        .filter(|d| value(d, "/Type").as_deref() == Some("/Font"))
        .map(|d| {
            let subtype = value(d, "/Subtype").unwrap_or_default();
            let base = value(d, "/BaseFont").unwrap_or_default();
            let emb = if subtype == "/Type0" {
                let kids = value(d, "/DescendantFonts").unwrap();
                embedded(&objects[&reference(kids.trim_start_matches('['))])
            } else {
                embedded(d)
            };
            (subtype, base, emb)
        })
        .collect()
}

/// The numbers of the page's `/MediaBox [...]`, in points.
fn media_box(pdf: &[u8]) -> Vec<f64> {
    let text = String::from_utf8_lossy(pdf);
    let start = text.find("/MediaBox [").expect("a MediaBox") + "/MediaBox [".len();
    let end = start + text[start..].find(']').expect("the MediaBox ends");
    text[start..end]
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect()
}

/// The example has line items, so all six report charts and two charts of
/// each of the three sweeps are written.
const EXPECTED: [&str; 13] = [
    "metric_bars",
    "outcome_distribution",
    "error_types",
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
    let dir = temp_dir("all");
    for (size, width_px, width_pt) in [("column", "317", 237.75), ("full", "672", 504.0)] {
        let out = dir.join(size);
        let (code, stdout, err) = cli(&[
            "figures",
            "--truth",
            &example("truth.jsonl"),
            "--pred",
            &example("careful.jsonl"),
            "--pred",
            &format!("eager={}", example("eager.json")),
            "--schema",
            &example("schema.json"),
            "--out",
            out.to_str().unwrap(),
            "--size",
            size,
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
            let fonts = pdf_fonts(&pdf);
            assert!(!fonts.is_empty(), "{id}: text is text, in a font");
            for (subtype, base, embedded) in &fonts {
                assert!(embedded, "{id}: {base} is not embedded");
                assert!(
                    ["/Type0", "/CIDFontType2"].contains(&subtype.as_str()),
                    "{id}: {base} is {subtype}, not TrueType (never /Type3)"
                );
                assert!(base.contains("+LiberationSans"), "{id}: {base}");
            }
            // 96 px per inch: the page is the SVG's size at 0.75 pt per px.
            let svg = std::fs::read_to_string(out.join(format!("{id}.svg"))).unwrap();
            let doc = roxmltree::Document::parse(&svg).unwrap();
            assert_eq!(
                doc.root_element().attribute("width"),
                Some(width_px),
                "{id}"
            );
            let h: f64 = doc
                .root_element()
                .attribute("height")
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(media_box(&pdf), [0.0, 0.0, width_pt, h * 0.75], "{id}");
        }
        let captions = std::fs::read_to_string(out.join("captions.md")).unwrap();
        assert!(captions.contains(
            "Files: `sweep_cer_micro_f1.svg`, `sweep_cer_micro_f1.pdf`\n\nMicro F1 (counts pooled"
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn figures_writes_only_the_formats_asked_for_and_refuses_unknown_ones() {
    let dir = temp_dir("svg");
    let truth = dir.join("t.jsonl");
    let pred = dir.join("p.jsonl");
    std::fs::write(&truth, "{\"id\": \"1\", \"a\": \"kitten\"}\n").unwrap();
    std::fs::write(&pred, "{\"id\": \"1\", \"a\": \"sitten\"}\n").unwrap();
    let (truth, pred) = (truth.to_str().unwrap(), pred.to_str().unwrap());
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let (code, _, err) = cli(&[
        "figures", "--truth", truth, "--pred", pred, "--out", out, "--format", "svg", "--values",
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

    for (flag, value, message) in [
        (
            "--format",
            "png",
            "error: --format: unknown figure format \"png\"; expected pdf, svg or pdf,svg\n",
        ),
        (
            "--size",
            "a4",
            "error: --size: \"a4\"; expected column (3.3 in) or full (7 in)\n",
        ),
        (
            "--values",
            "0.5,-1",
            "error: --values: \"-1\" is not a non-negative number\n",
        ),
    ] {
        let (code, _, err) = cli(&[
            "figures", "--truth", truth, "--pred", pred, "--out", out, flag, value,
        ]);
        assert_eq!(code, 2);
        assert_eq!(err, message);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sweep_run_a_value_at_a_time_equals_the_whole_sweep_and_the_cli() {
    use fieldscope::eval::sweep::SweepRun;
    let input = near_misses("m");
    let config = Config::default();
    let values = vec![0.1, 0.2, 0.3];
    let whole = sweep(&input, &config, SweepParam::Cer, &values).unwrap();
    let validity = fieldscope::eval::schema_validity(input.clone(), None).unwrap();
    let input = input.to_shared();
    let mut run = SweepRun::new(&input, &config, SweepParam::Cer, values, validity);
    assert_eq!((run.done(), run.total()), (0, 3));
    assert!(!run.step(&input).unwrap());
    assert_eq!(run.done(), 1);
    while !run.step(&input).unwrap() {}
    assert_eq!(run.finish(), whole);
    // CER 1/6 ≈ 0.167 and 0.25: none, one, both within the threshold.
    let f1: Vec<f64> = whole.models[0].points.iter().map(|p| p.micro_f1).collect();
    assert_eq!(f1, [0.0, 0.5, 1.0]);
    // No line items: the item keys are absent from the JSON.
    let json: Value = serde_json::to_value(&whole).unwrap();
    assert!(json["models"][0]["points"][0].get("item_f1").is_none());
}
