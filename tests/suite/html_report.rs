//! The HTML report: golden files of the example data and of a report with
//! hostile names, the page parsed as XML (it is written XHTML-compatible),
//! nothing in it that runs or loads, SVG charts refused when they could,
//! the accuracy-paradox section exactly when accuracy and F1 disagree, and
//! `--format html` on the command line.
//!
//! `UPDATE_GOLDEN=1 cargo test html_report` rewrites the golden files.

use super::common::example;
use super::common::{records, run};
use super::exporters::{check_golden, counts, empty, field, model};
use fieldscope::eval::report::{Report, SetReport};
use fieldscope::eval::{evaluate, Config, EvalInput, ModelInput};
use fieldscope::export::html::Parts;
use fieldscope::export::{self, ExportOptions, Format, HtmlChart};
use fieldscope::io::parse_records;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::ffi::OsString;

fn read(name: &str) -> fieldscope::eval::RecordFile {
    let path = example(name);
    parse_records(&path, &std::fs::read(&path).unwrap()).unwrap()
}

/// The example of `tests/data/example/` evaluated in-process, as the CLI
/// does with `--pred careful.jsonl --pred eager=eager.json --schema …`.
fn example_report() -> Report {
    let schema: Value =
        serde_json::from_slice(&std::fs::read(example("schema.json")).unwrap()).unwrap();
    let input = EvalInput {
        truth: read("truth.jsonl"),
        models: vec![
            ModelInput::new("careful", read("careful.jsonl")),
            ModelInput::new("eager", read("eager.json")),
        ],
        schema: Some(schema),
        schemas: Vec::new(),
    };
    evaluate(&input, &Config::default(), false).unwrap()
}

const SCRIPT: &str = "<script>alert(1)</script>";
const IMG: &str = "\"><img src=x onerror=alert(1)>";
const BIDI: &str = "\u{202E}evil";
const FORMULA: &str = "=cmd|' /C calc'!A0";

/// A hand-made report whose every piece of text is hostile: model names,
/// field names, a set path and its k, warnings and configuration strings.
fn hostile_report() -> Report {
    let names = [SCRIPT, IMG, BIDI, FORMULA];
    let models = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let c = counts(5 + i as u64, 1, 1, 2, i as u64, 3);
            let mut m = model(
                name,
                Some(0.01 * (i + 1) as f64),
                c,
                (0.8, 0.7 + 0.05 * i as f64, 0.75),
                None,
                names
                    .iter()
                    .map(|field_name| field(field_name, c, Some(0.125), Some(0.25)))
                    .collect(),
            );
            m.sets = BTreeMap::from([(
                format!("{SCRIPT}.codes"),
                SetReport {
                    precision: 0.5,
                    recall: 1.0,
                    f1: 2.0 / 3.0,
                    accuracy: 0.75,
                    legacy_accuracy: 0.5,
                    hit_at_k: BTreeMap::from([("1".to_string(), 1.0), (IMG.to_string(), 0.5)]),
                    documents: 2,
                },
            )]);
            m
        })
        .collect();
    Report {
        fieldscope_report: 1,
        suspected_truth_errors: Vec::new(),
        suggestions: Vec::new(),
        // The configuration's free-text keys carry the payloads (preset
        // and string method are typed: they cannot).
        config: Config::from_json(&json!({
            "id_field": SCRIPT,
            "absent_values": ["</td></tr></table><script>", BIDI],
            "ignored_fields": [IMG],
            "field_weights": {FORMULA: 2},
        }))
        .unwrap(),
        warnings: names.iter().map(|n| format!("warning about {n}")).collect(),
        documents: 4,
        models,
        bootstrap: None,
        comparison: None,
        slices: None,
    }
}

/// A chart SVG as a plotting library writes it.
const GOOD_SVG: &str = r##"<svg width="320" height="120" viewBox="0 0 320 120" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="320" height="120" fill="#FFFFFF" opacity="1" stroke="none"/>
<rect x="40" y="20" width="100" height="80" fill="#1D4F91" stroke="none"/>
<rect x="180" y="50" width="100" height="50" fill="#C98F00" stroke="none"/>
<text x="90" y="115" font-family="sans-serif" font-size="11" text-anchor="middle">careful</text>
<text x="230" y="115" font-family="sans-serif" font-size="11" text-anchor="middle">eager</text>
</svg>
"##;

/// The page's parts: these charts, nothing else.
fn charts_only(charts: &[HtmlChart]) -> Parts<'_> {
    Parts {
        charts,
        ..Parts::default()
    }
}

fn html(report: &Report) -> String {
    export::render(report, Format::Html, &ExportOptions::default())
}

/// Parses the page as XML (the `<!DOCTYPE html>` allowed), failing with
/// the parser's message and position.
#[track_caller]
pub(super) fn parse(text: &str) -> roxmltree::Document<'_> {
    try_parse(text).unwrap_or_else(|e| panic!("the page is not well-formed: {e}"))
}

fn try_parse(text: &str) -> Result<roxmltree::Document<'_>, roxmltree::Error> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, options)
}

/// Asserts the page runs and loads nothing: no script or embedding element,
/// no event attribute, no link or source leaving the page, no `@import`
/// and no `url(` but to a fragment.
#[track_caller]
fn assert_inert(text: &str) {
    let lower = text.to_ascii_lowercase();
    assert!(!lower.contains("<script"), "a <script in the page");
    assert!(!lower.contains("javascript:"));
    assert!(!lower.contains("@import"));
    assert!(lower.matches("url(").count() == lower.matches("url(#").count());
    let doc = parse(text);
    for node in doc.descendants().filter(|n| n.is_element()) {
        let name = node.tag_name().name().to_ascii_lowercase();
        assert!(
            ![
                "script",
                "img",
                "iframe",
                "object",
                "embed",
                "link",
                "foreignobject"
            ]
            .contains(&name.as_str()),
            "a <{name}> element in the page"
        );
        for attribute in node.attributes() {
            let attr = attribute.name().to_ascii_lowercase();
            assert!(!attr.starts_with("on"), "an event attribute {attr}");
            assert!(attr != "src", "a src attribute on <{name}>");
            if attr == "href" {
                assert!(attribute.value().starts_with('#'), "{}", attribute.value());
            }
        }
    }
}

/// The texts of the row headers of the table in section `id`.
fn row_headers(doc: &roxmltree::Document, id: &str) -> Vec<String> {
    let section = doc
        .descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no section #{id}"));
    section
        .descendants()
        .filter(|n| n.has_tag_name("th") && n.attribute("scope") == Some("row"))
        .map(text_of)
        .collect()
}

/// The text of every `tag` element inside the element of id `id`.
fn texts_of(doc: &roxmltree::Document, id: &str, tag: &str) -> Vec<String> {
    doc.descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no element #{id}"))
        .descendants()
        .filter(|n| n.has_tag_name(tag))
        .map(text_of)
        .collect()
}

/// All the text inside `node`.
fn text_of(node: roxmltree::Node) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

#[test]
fn example_golden() {
    let text = html(&example_report());
    assert!(text.starts_with("<!DOCTYPE html>\n"));
    assert!(text.ends_with("</html>\n"));
    check_golden("example.html", &text);
}

#[test]
fn example_is_well_formed_inert_and_in_the_promised_order() {
    let text = html(&example_report());
    assert_inert(&text);
    let doc = parse(&text);
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("h1"))
        .map(text_of);
    assert_eq!(title.as_deref(), Some("fieldscope report"));
    let sections: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("section"))
        .filter_map(|n| n.attribute("id"))
        .collect();
    assert_eq!(
        sections,
        [
            "comparison",
            "micro",
            "macro-fields",
            "document-scores",
            "fields",
            "sets",
            "items",
            "errors",
            "charts",
            "definitions",
            "configuration"
        ]
    );
    // The comparison table: its header, and the best of each column in bold.
    let headers: Vec<String> = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("comparison"))
        .unwrap()
        .descendants()
        .filter(|n| n.has_tag_name("th") && n.attribute("scope") == Some("col"))
        .map(text_of)
        .collect();
    assert_eq!(
        headers,
        [
            "Model",
            "Mtotal",
            "|Pred|",
            "|Truth|",
            "Precision",
            "Recall",
            "F1",
            "Cost"
        ]
    );
    assert!(
        text.contains("<td><strong>0.9072</strong></td>"),
        "careful's macro F1"
    );
    assert!(
        text.contains("<td><strong>27.5</strong></td>"),
        "eager's M_total"
    );
    assert!(text.contains("<td>—</td>"), "eager has no cost");
    assert_eq!(row_headers(&doc, "comparison"), ["careful", "eager"]);
    // No date: rendering twice gives the same bytes.
    assert_eq!(text, html(&example_report()));
    // Careful ranks first by accuracy and by F1: no paradox section.
    assert!(!text.contains("accuracy-paradox"));
}

#[test]
fn hostile_names_golden() {
    check_golden("hostile.html", &html(&hostile_report()));
}

#[test]
fn hostile_names_are_shown_literally_and_never_run() {
    let report = hostile_report();
    let chart = HtmlChart {
        title: SCRIPT.to_string(),
        caption: IMG.to_string(),
        svg: GOOD_SVG.to_string(),
    };
    let text = export::html::render(&report, &ExportOptions::default(), &charts_only(&[chart]));
    assert_inert(&text);
    assert!(!text.contains("<img"));
    // Every `onerror=` is inside escaped text: right after the escaped
    // `<img src=x `.
    assert_eq!(
        text.matches("onerror=").count(),
        text.matches("&lt;img src=x onerror=").count()
    );
    assert!(text.matches("onerror=").count() > 0);
    // The bidi override is made visible, never left in.
    assert!(!text.contains('\u{202E}'));
    assert!(text.contains("[U+202E]evil"));
    // Read back, every name is its literal text.
    let doc = parse(&text);
    let shown = |name: &str| name.replace('\u{202E}', "[U+202E]");
    let expected: Vec<String> = [SCRIPT, IMG, BIDI, FORMULA].map(shown).to_vec();
    assert_eq!(row_headers(&doc, "comparison"), expected);
    assert_eq!(row_headers(&doc, "micro"), expected);
    // The field matrix's rows (the fields not exact for every model),
    // then each model's table (16 rows).
    let fields = row_headers(&doc, "fields");
    let matrix = fields.len() - 16;
    assert_eq!(fields.len(), 20);
    assert_eq!(fields[matrix..matrix + 4], expected[..]);
    let warnings = texts_of(&doc, "warnings", "li");
    assert_eq!(
        warnings,
        expected
            .iter()
            .map(|n| format!("warning about {n}"))
            .collect::<Vec<_>>()
    );
    let config = row_headers(&doc, "configuration");
    assert!(
        config.contains(&format!("field_weights.{FORMULA}")),
        "{config:?}"
    );
    let values = texts_of(&doc, "configuration", "td");
    assert!(values.contains(&format!("{:?}", SCRIPT)), "{values:?}");
    // The chart is inlined, its title and caption escaped.
    assert!(text.contains("<figure id=\"chart-1\">\n<svg width=\"320\""));
    assert!(text.contains("<strong>&lt;script&gt;alert(1)&lt;/script&gt;.</strong>"));
}

#[test]
fn svg_that_could_run_or_load_is_refused() {
    let report = example_report();
    let bad = [
        GOOD_SVG.replace("<text", "<script>alert(1)</script><text"),
        GOOD_SVG.replace("<text", "<SCRIPT >alert(1)</SCRIPT><text"),
        GOOD_SVG.replace("<rect", "<rect onclick=\"alert(1)\""),
        GOOD_SVG.replace("<svg", "<svg onload='alert(1)'"),
        GOOD_SVG
            .replace("<text", "<a href=\"javascript:alert(1)\"><text")
            .replace("</text>", "</text></a>"),
        GOOD_SVG.replace("<text", "<foreignObject><p>x</p></foreignObject><text"),
        GOOD_SVG.replace("<text", "<image href=\"https://example.org/x.png\"/><text"),
        GOOD_SVG.replace("</svg>", "</svg></figure><p>escaped</p>"),
    ];
    for svg in &bad {
        let charts = [
            HtmlChart {
                title: "Good".into(),
                caption: "Kept.".into(),
                svg: GOOD_SVG.to_string(),
            },
            HtmlChart {
                title: "Bad".into(),
                caption: "Refused.".into(),
                svg: svg.clone(),
            },
        ];
        let text = export::html::render(&report, &ExportOptions::default(), &charts_only(&charts));
        assert_inert(&text);
        assert_eq!(text.matches("<svg").count(), 1, "{svg}");
        assert_eq!(text.matches("class=\"refused\"").count(), 1, "{svg}");
        assert!(text.contains("This chart was left out: its SVG "));
        assert!(text.contains("<figcaption><strong>Bad.</strong> Refused.</figcaption>"));
        assert!(!text.contains("<p>escaped</p>"));
        let doc = parse(&text);
        let figures = doc
            .descendants()
            .filter(|n| n.has_tag_name("figure"))
            .count();
        assert_eq!(figures, 2);
    }
}

#[test]
fn charts_section_appears_only_with_charts() {
    let report = example_report();
    let none = export::html::render(&report, &ExportOptions::default(), &Parts::default());
    assert!(!none.contains("id=\"charts\""));
    let chart = HtmlChart {
        title: "Precision and recall".into(),
        caption: "Macro over documents.".into(),
        svg: format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{GOOD_SVG}"),
    };
    let text = export::html::render(&report, &ExportOptions::default(), &charts_only(&[chart]));
    assert!(text.contains("<li><a href=\"#charts\">Charts</a></li>"));
    assert!(!text.contains("<?xml"), "the XML declaration is dropped");
    let doc = parse(&text);
    let svg = doc
        .descendants()
        .find(|n| n.has_tag_name("svg"))
        .expect("the chart is inlined");
    assert_eq!(
        svg.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert_eq!(svg.parent_element().unwrap().tag_name().name(), "figure");
    // Charts come after line items and before the definitions.
    let (items, charts, definitions) = (
        text.find("id=\"items\"").unwrap(),
        text.find("id=\"charts\"").unwrap(),
        text.find("id=\"definitions\"").unwrap(),
    );
    assert!(items < charts && charts < definitions);
}

/// Four invoices with one present field `x` and four absent ones. The
/// conservative model finds `x` once and answers NOT_FOUND everywhere else:
/// TP 1, MIS 3, TN 16 → accuracy 17/20 = 0.85, F1 = 2·1·0.25/1.25 = 0.4.
/// The eager model finds `x` every time and, when `hallucinate`, also fills
/// `y1`: TP 4, SPU 4, TN 12 → accuracy 16/20 = 0.8, F1 = 2·0.5·1/1.5 =
/// 0.6667 (the paradox); otherwise TP 4, TN 16 → accuracy 1, F1 1.
fn paradox_report(hallucinate: bool) -> Report {
    let truth: Vec<Value> = (1..=4)
        .map(|i| json!({"id": i, "x": format!("v{i}"), "y1": "NOT_FOUND", "y2": "NOT_FOUND", "y3": "NOT_FOUND", "y4": "NOT_FOUND"}))
        .collect();
    let conservative: Vec<Value> = (1..=4)
        .map(|i| {
            let x = if i == 1 { "v1".to_string() } else { "NOT_FOUND".to_string() };
            json!({"id": i, "x": x, "y1": "NOT_FOUND", "y2": "NOT_FOUND", "y3": "NOT_FOUND", "y4": "NOT_FOUND"})
        })
        .collect();
    let eager: Vec<Value> = (1..=4)
        .map(|i| {
            let y1 = if hallucinate { format!("guess {i}") } else { "NOT_FOUND".to_string() };
            json!({"id": i, "x": format!("v{i}"), "y1": y1, "y2": "NOT_FOUND", "y3": "NOT_FOUND", "y4": "NOT_FOUND"})
        })
        .collect();
    run(
        truth,
        vec![("conservative", conservative), ("eager", eager)],
        None,
        &Config::default(),
    )
}

#[test]
fn paradox_section_appears_when_accuracy_and_f1_disagree() {
    let report = paradox_report(true);
    let (c, e) = (&report.models[0], &report.models[1]);
    assert_eq!((c.micro.accuracy, e.micro.accuracy), (0.85, 0.8));
    assert!(c.micro.f1 < e.micro.f1);
    let text = html(&report);
    assert_inert(&text);
    assert_eq!(text.matches("<section id=\"accuracy-paradox\">").count(), 1);
    assert!(text.contains("<li><a href=\"#accuracy-paradox\">"));
    assert!(text.contains(
        "<strong><bdi>conservative</bdi></strong> has the higher accuracy (0.8500 against \
         0.8000) but the lower F1 (0.4000 against 0.6667) than <strong><bdi>eager</bdi></strong>"
    ));
    assert!(text.contains("Accuracy counts true negatives"));
    // Each model's true negatives among its outcomes, and hallucination rate.
    let doc = parse(&text);
    let section = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("accuracy-paradox"))
        .unwrap();
    let rows: Vec<Vec<String>> = section
        .descendants()
        .filter(|n| n.has_tag_name("tr"))
        .skip(1)
        .map(|tr| {
            tr.children()
                .filter(|n| n.is_element())
                .map(text_of)
                .collect()
        })
        .collect();
    assert_eq!(
        rows,
        [
            [
                "conservative",
                "0.8500",
                "0.4000",
                "16 of 20",
                "0.8000",
                "0.0000"
            ],
            ["eager", "0.8000", "0.6667", "12 of 20", "0.6000", "0.2500"],
        ]
    );
    // The paradox section sits between the micro table and macro over fields.
    let (micro, paradox, fields) = (
        text.find("id=\"micro\"").unwrap(),
        text.find("id=\"accuracy-paradox\"").unwrap(),
        text.find("id=\"macro-fields\"").unwrap(),
    );
    assert!(micro < paradox && paradox < fields);
}

#[test]
fn no_paradox_section_when_accuracy_and_f1_agree() {
    let report = paradox_report(false);
    let (c, e) = (&report.models[0], &report.models[1]);
    assert!(c.micro.accuracy < e.micro.accuracy && c.micro.f1 < e.micro.f1);
    let text = html(&report);
    assert!(!text.contains("accuracy-paradox"));
    assert!(!text.contains("Accuracy counts true negatives"));
    // One model alone has nothing to disagree with.
    let mut one = paradox_report(true);
    one.models.truncate(1);
    assert!(!html(&one).contains("accuracy-paradox"));
}

#[test]
fn cli_format_html_prints_the_report() {
    let args: Vec<OsString> = [
        "fieldscope".to_string(),
        "eval".into(),
        "--truth".into(),
        example("truth.jsonl"),
        "--pred".into(),
        example("careful.jsonl"),
        "--pred".into(),
        format!("eager={}", example("eager.json")),
        "--schema".into(),
        example("schema.json"),
        "--format".into(),
        "HTML".into(),
    ]
    .into_iter()
    .map(OsString::from)
    .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = fieldscope::cli::run(args, &mut out, &mut err);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    let out = String::from_utf8(out).unwrap();
    check_golden("example.html", &out);
    assert_eq!("html".parse::<Format>().unwrap().extension(), "html");
}

#[test]
fn empty_report_still_renders_a_well_formed_page() {
    let report = empty();
    let text = html(&report);
    assert_inert(&text);
    assert!(text.contains("<p>No models.</p>"));
    // A typed configuration is never empty: the defaults are listed.
    assert!(text.contains("<tr><th scope=\"row\"><code>preset</code></th><td><code>&quot;standard&quot;</code></td></tr>"));
}

proptest::proptest! {
    #[test]
    fn any_name_reads_back_as_its_visible_text(
        name in proptest::prelude::any::<String>(),
        field_name in "[<>&\"' a-z\u{202e}\u{2066}\u{0}\n\t=/-]{0,16}",
    ) {
        let c = counts(1, 0, 1, 0, 0, 1);
        let report = Report {
            fieldscope_report: 1,
            suspected_truth_errors: Vec::new(),
            suggestions: Vec::new(),
            config: Config {
                id_field: Some(name.clone()),
                ..Config::default()
            },
            warnings: vec![name.clone()],
            documents: 1,
            models: vec![model(&name, None, c, (0.5, 0.5, 0.5), None, vec![field(&field_name, c, None, None)])],
            bootstrap: None,
            comparison: None,
            slices: None,
        };
        let text = html(&report);
        let doc = try_parse(&text);
        proptest::prop_assert!(doc.is_ok(), "{:?}", doc.err());
        let doc = doc.unwrap();
        proptest::prop_assert_eq!(row_headers(&doc, "comparison"), vec![visible(&name)]);
        // The field's matrix row (1 exact, 1 incorrect: not folded) and its
        // row in the model's table.
        proptest::prop_assert_eq!(row_headers(&doc, "fields"), vec![visible(&field_name); 2]);
        proptest::prop_assert!(!text.to_ascii_lowercase().contains("<script"));
    }
}

/// What the escaper shows for `text`, as an XML parser reads it back:
/// whitespace controls as spaces, hidden characters as `[U+XXXX]`.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| {
            let code = c as u32;
            let hidden = c.is_control()
                || matches!(
                    code,
                    0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069 | 0xFDD0..=0xFDEF
                )
                || code & 0xFFFE == 0xFFFE;
            if c.is_control() && c.is_whitespace() {
                " ".to_string()
            } else if hidden {
                format!("[U+{code:04X}]")
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[test]
fn a_page_of_one_evaluated_record_file_parses() {
    // `records` builds files without parsing; a name with every special.
    let truth = records("t.json", vec![json!({"id": "a", "<&>": "x"})]);
    let preds = records("p.json", vec![json!({"id": "a", "<&>": "x"})]);
    let input = EvalInput {
        truth,
        models: vec![ModelInput::new("a&b <c>", preds)],
        schema: None,
        schemas: Vec::new(),
    };
    let report = evaluate(&input, &Config::default(), false).unwrap();
    let text = html(&report);
    assert_inert(&text);
    let doc = parse(&text);
    assert_eq!(row_headers(&doc, "fields"), ["<&>"]);
}
