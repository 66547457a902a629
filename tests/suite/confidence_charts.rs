//! The confidence charts (issue 29): a reliability diagram per model and
//! the risk–coverage curves of all models — their data and geometry on a
//! report whose bins and curve are set by hand, odd data that must not
//! break them, the HTML report's "Confidence" section (its numbers, its
//! absence without confidences, hostile names kept inert) and the files
//! `fieldscope figures` writes.

use super::common::{run, run_cli};
use fieldscope::charts::confidence::{self, steps};
use fieldscope::charts::lines::look;
use fieldscope::charts::style::Metrics;
use fieldscope::charts::{self, ChartOptions, PaperSize};
use fieldscope::eval::confidence::{CurvePoint, ReliabilityBin};
use fieldscope::eval::report::Report;
use fieldscope::eval::Config;
use fieldscope::export::{self, ExportOptions, Format};
use serde_json::Value;
use std::path::PathBuf;

// The dataset of `confidence.rs`: ten pairs (confidence, correct) —
// (0.99, 1) ×2, (0.95, 1), (0.9, 1), (0.8, 0), (0.6, 1) ×3, (0.4, 1),
// (0.3, 0); ECE 0.307, AURC 0.0886.
use super::confidence::{predictions, truth};

/// Model 1 (`plain`) has no confidences, model 2 (`name`) has them.
fn report(name: &str) -> Report {
    run(
        truth(),
        vec![("plain", truth()), (name, predictions())],
        None,
        &Config::default(),
    )
}

fn bin(low: f64, high: f64, count: u64, accuracy: Option<f64>) -> ReliabilityBin {
    ReliabilityBin {
        low,
        high,
        count,
        accuracy,
        mean_confidence: accuracy,
    }
}

fn point(coverage: f64, risk: f64) -> CurvePoint {
    CurvePoint {
        threshold: 1.0 - coverage,
        accepted: (coverage * 100.0) as u64,
        coverage,
        risk,
    }
}

/// `report` with model 2's bins, ECE and curve replaced.
fn hand_made(bins: Vec<ReliabilityBin>, ece: f64, curve: Vec<CurvePoint>) -> Report {
    let mut r = report("m");
    let c = r.models[1].confidence.as_mut().unwrap();
    c.bins = bins;
    c.ece = ece;
    c.views.as_mut().unwrap().curve = curve;
    r
}

#[track_caller]
fn near(a: (f64, f64), b: (f64, f64)) {
    assert!(
        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9,
        "{a:?} is not {b:?}"
    );
}

fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .collect()
}

/// (x, y, width, height) of every `<rect>` of an SVG.
fn rects(svg: &str) -> Vec<(f64, f64, f64, f64)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("rect"))
        .map(|n| {
            let get = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (get("x"), get("y"), get("width"), get("height"))
        })
        .collect()
}

#[test]
fn reliability_bars_are_the_bin_accuracies_with_their_counts_above() {
    let r = hand_made(
        vec![
            bin(0.0, 0.25, 0, None),
            bin(0.25, 0.5, 3, Some(1.0 / 3.0)),
            bin(0.5, 0.75, 5, Some(0.0)),
            bin(0.75, 1.0, 12, Some(0.75)),
        ],
        0.1234,
        vec![point(1.0, 0.2)],
    );
    // Model 1 has no confidences: no diagram.
    assert!(confidence::reliability(&r, 0).is_none());
    let data = confidence::reliability(&r, 1).unwrap();
    assert_eq!(data.model, 1);
    assert_eq!(data.label, "m");
    let accuracies: Vec<Option<f64>> = data.bins.iter().map(|b| b.accuracy).collect();
    assert_eq!(accuracies, [None, Some(1.0 / 3.0), Some(0.0), Some(0.75)]);
    assert_eq!(data.words.title, "Reliability of m (ECE = 0.123)");
    assert!(
        data.words.caption.contains("in 4 equal-width bins"),
        "{}",
        data.words.caption
    );

    let m = Metrics::new(&ChartOptions::default());
    let l = confidence::reliability_layout(&data, &m);
    let f = &l.frame;
    let full = f.y1 - f.y0;
    // One bar per non-empty bin, as high as its accuracy, spanning its bin
    // (less a pixel each side), its count above it.
    assert_eq!(l.bars.len(), 3);
    for (b, (low, high, accuracy, count)) in l.bars.iter().zip([
        (0.25, 0.5, 1.0 / 3.0, "3"),
        (0.5, 0.75, 0.0, "5"),
        (0.75, 1.0, 0.75, "12"),
    ]) {
        assert!((b.y1 - b.y0 - accuracy * full).abs() < 1e-9, "{b:?}");
        assert_eq!(b.y1, f.y1);
        assert!((b.x0 - (f.x0 + low * (f.x1 - f.x0) + 1.0)).abs() < 1e-9);
        assert!((b.x1 - (f.x0 + high * (f.x1 - f.x0) - 1.0)).abs() < 1e-9);
        assert_eq!(b.count, count);
        assert!((b.count_x - (f.px(low) + f.px(high)) / 2.0).abs() < 1e-9);
        assert!(b.count_y < b.y0 && b.count_y > f.y0 - l.count_px * 1.5);
    }
    assert!(!l.counts_rotated);
    let ((a, b), (c, d)) = l.diagonal;
    near((a, b), (f.x0, f.y1));
    near((c, d), (f.x1, f.y0));
    assert!(f.y0 > l.count_px, "room for a count above a full bar");

    // The SVG draws those bars and prints the counts.
    let chart = charts::reliability_diagram(&r, 1, &ChartOptions::default()).unwrap();
    assert_eq!(chart.id, "reliability_diagram");
    assert_eq!(chart.width_px, 672);
    assert!(chart
        .svg
        .contains("<title>Reliability of m (ECE = 0.123)</title>"));
    let t = texts(&chart.svg);
    for wanted in ["3", "5", "12", "Confidence", "Accuracy (share right)"] {
        assert!(t.iter().any(|x| x == wanted), "{wanted:?} not in {t:?}");
    }
    let heights: Vec<f64> = rects(&chart.svg).iter().map(|r| r.3).collect();
    for b in l.bars.iter().filter(|b| b.y1 - b.y0 >= 1.0) {
        let h = b.y1.round() - b.y0.round();
        assert!(heights.contains(&h), "no bar {h} px high in {heights:?}");
    }
}

#[test]
fn the_risk_coverage_curve_is_the_reports_steps_in_order() {
    let r = report("m");
    let data = confidence::risk_coverage(&r).unwrap();
    // Only model 2 has confidences; model 1 is named in the caption.
    assert_eq!(data.curves.len(), 1);
    let c = &data.curves[0];
    assert_eq!(c.model, 1);
    assert_eq!(c.label, "m (AURC 0.089)");
    assert!(
        data.words.caption.contains("so not shown: plain."),
        "{}",
        data.words.caption
    );
    // One point per distinct confidence from 0.99 down (SPEC §8.3).
    let expected = [
        (0.2, 0.0),
        (0.3, 0.0),
        (0.4, 0.0),
        (0.5, 0.2),
        (0.8, 0.125),
        (0.9, 1.0 / 9.0),
        (1.0, 0.2),
    ];
    assert_eq!(c.points.len(), expected.len());
    for (p, e) in c.points.iter().zip(expected) {
        assert!(
            (p.0 - e.0).abs() < 1e-12 && (p.1 - e.1).abs() < 1e-12,
            "{p:?} {e:?}"
        );
    }
    // Risk at most 0.2: the axis ends at 0.2, not 1.
    assert_eq!(data.y.max, 0.2);
    assert_eq!(data.x.max, 1.0);

    let m = Metrics::new(&ChartOptions::default());
    let l = confidence::risk_coverage_layout(&data, &m);
    let f = &l.frame;
    let path = &l.curves[0].points;
    let want: Vec<(f64, f64)> = steps(&c.points)
        .iter()
        .map(|&(x, y)| (f.px(x), f.py(y)))
        .collect();
    assert_eq!(path, &want);
    // Starts at coverage 0, ends at coverage 1 and risk 0.2 (the top).
    near(path[0], (f.x0, f.y1));
    near(*path.last().unwrap(), (f.x1, f.y0));
    assert!(
        path.windows(2).all(|w| w[1].0 >= w[0].0),
        "coverage never falls"
    );
    // The model's look is its position in the report's (as in the sweeps).
    assert_eq!(l.curves[0].color, look(1).0);
    assert_eq!(l.legend[0].color, look(1).0);
    assert_eq!(l.legend[0].label, "m (AURC 0.089)");
    // The area under the steps is the report's AURC.
    let area: f64 = steps(&c.points)
        .windows(2)
        .map(|w| (w[1].0 - w[0].0) * w[0].1)
        .sum();
    assert!((area - r.models[1].confidence.as_ref().unwrap().aurc).abs() < 1e-12);

    let chart = charts::risk_coverage(&r, &ChartOptions::default()).unwrap();
    assert_eq!(chart.id, "risk_coverage");
    let t = texts(&chart.svg);
    for wanted in [
        "m (AURC 0.089)",
        "Coverage (share accepted)",
        "Risk (share wrong)",
        "0.20",
    ] {
        assert!(t.iter().any(|x| x == wanted), "{wanted:?} not in {t:?}");
    }
    // No confidences anywhere: no chart.
    let none = run(truth(), vec![("plain", truth())], None, &Config::default());
    assert!(charts::risk_coverage(&none, &ChartOptions::default()).is_none());
    assert!(charts::reliability_diagrams(&none, &ChartOptions::default()).is_empty());
}

#[test]
fn odd_data_draws_without_panics_or_nan() {
    let nan = f64::NAN;
    let cases: Vec<(&str, Vec<ReliabilityBin>, Vec<CurvePoint>)> = vec![
        (
            "one bin",
            vec![bin(0.0, 1.0, 7, Some(1.0))],
            vec![point(1.0, 0.0)],
        ),
        ("no bins, no curve", vec![], vec![]),
        (
            "all correct",
            (0..10)
                .map(|k| bin(f64::from(k) / 10.0, f64::from(k + 1) / 10.0, 1, Some(1.0)))
                .collect(),
            vec![point(0.5, 0.0), point(1.0, 0.0)],
        ),
        (
            "not finite",
            vec![
                bin(nan, 0.5, 3, Some(0.5)),
                bin(0.5, 1.0, 2, Some(nan)),
                bin(0.0, f64::INFINITY, 1, Some(1.0)),
            ],
            vec![point(nan, 0.1), point(1.0, nan), point(0.5, 0.25)],
        ),
        (
            "100 bins of big counts",
            (0..100)
                .map(|k| {
                    bin(
                        f64::from(k) / 100.0,
                        f64::from(k + 1) / 100.0,
                        123_456,
                        Some(0.5),
                    )
                })
                .collect(),
            (1..=200)
                .map(|k| point(f64::from(k) / 200.0, 0.9))
                .collect(),
        ),
    ];
    for (name, bins, curve) in cases {
        let r = hand_made(bins, nan, curve);
        for size in [PaperSize::FullWidth, PaperSize::SingleColumn] {
            let o = ChartOptions {
                size,
                ..ChartOptions::default()
            };
            let charts = [
                charts::reliability_diagram(&r, 1, &o).unwrap(),
                charts::risk_coverage(&r, &o).unwrap(),
            ];
            for chart in charts {
                texts(&chart.svg);
                assert!(!chart.svg.contains("NaN"), "{name}: {}", chart.svg);
                assert!(!chart.svg.contains("could not be drawn"), "{name}");
            }
        }
        let data = confidence::reliability(&r, 1).unwrap();
        assert!(data
            .bins
            .iter()
            .all(|b| b.low.is_finite() && b.high.is_finite()));
        let l = confidence::reliability_layout(&data, &Metrics::new(&ChartOptions::default()));
        assert!(l.bars.iter().all(|b| b.y0.is_finite() && b.x0.is_finite()));
        if name == "no bins, no curve" {
            assert_eq!(l.notes[0].text, "No values with a confidence");
            let rc = confidence::risk_coverage(&r).unwrap();
            let rl = confidence::risk_coverage_layout(&rc, &Metrics::new(&ChartOptions::default()));
            assert_eq!(rl.notes[0].text, "No curves");
        }
        if name == "100 bins of big counts" {
            // Too narrow for "123456" across: the counts read upwards.
            assert!(l.counts_rotated);
            assert_eq!(l.bars.len(), 100);
        }
        if name == "all correct" {
            let rc = confidence::risk_coverage(&r).unwrap();
            assert_eq!((rc.y.min, rc.y.max), (0.0, 1.0));
        }
    }
}

fn html(report: &Report) -> String {
    export::render(report, Format::Html, &ExportOptions::default())
}

fn section(page: &str) -> &str {
    let start = page
        .find("<section id=\"confidence\" class=\"major\">")
        .expect("a Confidence section");
    let end = start + page[start..].find("</section>").unwrap();
    &page[start..end]
}

#[test]
fn the_html_report_shows_the_confidence_section_with_its_numbers() {
    let page = html(&report("m"));
    roxmltree::Document::parse_with_options(
        &page,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .expect("well-formed");
    assert!(page.contains("<li><a href=\"#confidence\">Confidence</a></li>"));
    let s = section(&page);
    // The model table: Covered 10/12, accuracy 0.8, ECE 0.307, Brier,
    // AUROC 0.75, AURC, coverage at 95 % 0.4, straight-through 1 of 3.
    assert!(s.contains(
        "<tr><th scope=\"row\">m</th><td>0.8333</td><td>0.8000</td><td>0.3070</td>\
         <td>0.1583</td><td>0.7500</td><td>0.0886</td><td>0.4000</td><td>0.3333</td></tr>"
    ));
    assert!(s.contains("<tr><th scope=\"row\">plain</th><td>—</td>"));
    assert!(s.contains("<th scope=\"col\">Coverage at 95 %</th>"));
    // m's field table (date: 3 pairs, 2 right; no recommended threshold
    // under 20 pairs).
    assert!(s.contains("<h3 id=\"confidence-2\">m</h3>"));
    assert!(s.contains(
        "<tr><th scope=\"row\">date</th><td>3</td><td>0.6667</td><td>0.4700</td>\
         <td>0.5000</td><td>—</td><td>0.0000</td></tr>"
    ));
    assert!(s.contains("<th scope=\"row\">items[].amount</th><td>2</td>"));
    assert!(
        !s.contains("id=\"confidence-1\""),
        "plain has no confidences"
    );
    // The charts: the curve, and m's diagram before its field table.
    assert!(s.contains("<figure id=\"confidence-risk-coverage\">\n<svg"));
    let diagram = s
        .find("<figure id=\"confidence-reliability-2\">\n<svg")
        .unwrap();
    assert!(diagram < s.find("<th scope=\"row\">date</th>").unwrap());
    assert!(s.contains("<strong>Reliability of m (ECE = 0.307).</strong>"));
    assert!(s.contains("<strong>Risk–coverage curves.</strong>"));
    assert!(!s.contains("class=\"refused\""));
    // Without charts the tables stay.
    let bare = export::render_html(
        &report("m"),
        &ExportOptions::default(),
        &export::HtmlInclude {
            charts: false,
            inputs: None,
            types: None,
        },
    );
    assert!(section(&bare).contains("<td>0.3070</td>"));
    assert!(!bare.contains("<figure"));
}

#[test]
fn no_confidence_no_section() {
    let r = run(truth(), vec![("plain", truth())], None, &Config::default());
    let page = html(&r);
    assert!(!page.contains("id=\"confidence"));
    assert!(!page.contains("#confidence"));
    assert!(!page.contains("Reliability"));
}

#[test]
fn hostile_model_names_stay_text_in_the_section() {
    let name = "<script>alert(1)</script>\u{202E}\"&' <img src=x onerror=alert(1)>";
    let page = html(&report(name));
    let doc = roxmltree::Document::parse_with_options(
        &page,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .expect("well-formed");
    assert!(!doc
        .descendants()
        .any(|n| n.has_tag_name("script") || n.has_tag_name("img")));
    let s = section(&page);
    assert!(s.contains(
        "<h3 id=\"confidence-2\">&lt;script&gt;alert(1)&lt;/script&gt;[U+202E]&quot;&amp;&#39; \
         &lt;img src=x onerror=alert(1)&gt;</h3>"
    ));
    assert!(!s.contains('\u{202E}'));
    // The charts carry the name (sanitised, escaped by the SVG writer); the
    // page's check refuses an SVG with ` onerror=` in it, so they are left
    // out with a note rather than inlined.
    assert_eq!(s.matches("class=\"refused\"").count(), 2);
    let chart = charts::reliability_diagram(&report(name), 1, &ChartOptions::default()).unwrap();
    assert!(chart
        .title
        .starts_with("Reliability of <script>alert(1)</script>\"&' <img"));
    assert!(!chart.svg.contains('\u{202E}'));
    assert!(chart.svg.contains("&lt;script&gt;"));
    let doc = roxmltree::Document::parse(&chart.svg).unwrap();
    assert!(!doc.descendants().any(|n| n.has_tag_name("script")));
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fieldscope-confidence-charts-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn jsonl(dir: &std::path::Path, name: &str, records: &[Value]) -> String {
    let path = dir.join(name);
    let text: Vec<String> = records.iter().map(Value::to_string).collect();
    std::fs::write(&path, text.join("\n")).unwrap();
    path.display().to_string()
}

#[test]
fn figures_writes_the_confidence_charts() {
    let dir = temp_dir("figures");
    let t = jsonl(&dir, "truth.jsonl", &truth());
    let p = jsonl(&dir, "m.jsonl", &predictions());
    let out = dir.join("figs");
    let (code, stdout, err) = run_cli(&[
        "figures",
        "--truth",
        &t,
        "--pred",
        &format!("plain={t}"),
        "--pred",
        &format!("m={p}"),
        "--out",
        &out.display().to_string(),
        "--format",
        "svg,pdf",
    ]);
    assert_eq!(code, 0, "{err}");
    for file in [
        "reliability_diagram_2.svg",
        "reliability_diagram_2.pdf",
        "risk_coverage.svg",
        "risk_coverage.pdf",
    ] {
        assert!(stdout.contains(file), "{file} not listed: {stdout}");
        let bytes = std::fs::read(out.join(file)).unwrap();
        assert!(bytes.len() > 500, "{file}");
    }
    assert!(
        !out.join("reliability_diagram_1.svg").exists(),
        "plain has none"
    );
    let svg = std::fs::read_to_string(out.join("reliability_diagram_2.svg")).unwrap();
    assert!(svg.contains("<title>Reliability of m (ECE = 0.307)</title>"));
    assert!(std::fs::read(out.join("risk_coverage.pdf"))
        .unwrap()
        .starts_with(b"%PDF-"));
    let captions = std::fs::read_to_string(out.join("captions.md")).unwrap();
    assert!(captions.contains(
        "## Reliability of m (ECE = 0.307)\n\nFiles: `reliability_diagram_2.svg`, `reliability_diagram_2.pdf`\n\n"
    ));
    assert!(captions
        .contains("## Risk–coverage curves\n\nFiles: `risk_coverage.svg`, `risk_coverage.pdf`"));
    // The confidence charts come after the report's and before the sweeps'.
    let order: Vec<&str> = stdout.lines().collect();
    let at = |f: &str| order.iter().position(|l| l.ends_with(f)).unwrap();
    assert!(at("cer_distribution.svg") < at("reliability_diagram_2.svg"));
    assert!(at("risk_coverage.svg") < at("sweep_similarity_micro_f1.svg"));

    // Without confidences, neither is written.
    let plain = dir.join("plain");
    let (code, stdout, err) = run_cli(&[
        "figures",
        "--truth",
        &t,
        "--pred",
        &format!("plain={t}"),
        "--out",
        &plain.display().to_string(),
        "--format",
        "svg",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!stdout.contains("reliability") && !stdout.contains("risk_coverage"));
    let _ = std::fs::remove_dir_all(&dir);
}
