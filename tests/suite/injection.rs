//! Untrusted text stays text (issue #4): values, keys, ids, file names and
//! model names carrying HTML/SVG/script payloads, LaTeX control sequences,
//! spreadsheet formulas, control characters and bidirectional overrides go
//! through a real evaluation and then through every exporter and every
//! chart. Each output is checked with a parser of its own format, never by
//! comparing with our escapers' output:
//!
//! * JSON reads back to exactly the original strings, and its text holds
//!   no raw bidi, zero-width or C1 control character (they are `\u`
//!   escapes);
//! * HTML and SVG parse as XML with no element or attribute from a payload
//!   (no `script`, `img`, `iframe`, `foreignObject`, no `on*` attribute, no
//!   `javascript:`), and the payloads are there as text;
//! * LaTeX runs no command that is not ours, has no bare special character
//!   and has balanced braces;
//! * Markdown tables keep their column count (`|` escaped) and hold no raw
//!   HTML tag;
//! * CSV cells never start with `=`, `+`, `-`, `@`, a tab or a carriage
//!   return (OWASP: such a cell gets a leading `'`);
//! * nowhere does a control, bidi or hiding character survive raw.

use fieldscope::charts::{self, ChartOptions};
use fieldscope::eval::{evaluate, Config, EvalInput, ModelInput, Record, RecordFile, Report};
use fieldscope::export::{self, render_html, ExportOptions, Format, HtmlChart};
use serde_json::{json, Map, Value};

const SCRIPT: &str = "<script>window.__pwned=1</script>";
const IMG: &str = "\"><img src=x onerror=alert(1)>";
const SVG: &str = "<svg onload=alert(1)>";
const JS_URL: &str = "javascript:alert(1)";
const LATEX_INPUT: &str = "\\input{/etc/passwd}";
const LATEX_DEF: &str = "\\def\\x{\\immediate\\write18{rm -rf /}}\\x";
const LATEX_SPECIALS: &str = "$ % & # _ ^ ~ { } \\ 100%";
const FORMULA_EQ: &str = "=HYPERLINK(\"http://evil.example\",\"x\")";
const FORMULA_PLUS: &str = "+1+cmd|' /C calc'!A0";
const FORMULA_MINUS: &str = "-2+3";
const FORMULA_AT: &str = "@SUM(A1:A9)";
const FORMULA_TAB: &str = "\t=1+1";
const FORMULA_CR: &str = "\r=1+1";
const BIDI_RLO: &str = "invoice\u{202E}fdp.exe";
const BIDI_ISOLATES: &str = "\u{2066}a\u{2067}b\u{2068}c\u{2069}";
const ZERO_WIDTH: &str = "to\u{200B}tal\u{2060}\u{FEFF}";
const CONTROLS: &str = "bell\u{7}esc\u{1B}[31mred\u{85}next";
const PIPES: &str = "a|b||c";

const PAYLOADS: [&str; 19] = [
    SCRIPT,
    IMG,
    SVG,
    JS_URL,
    LATEX_INPUT,
    LATEX_DEF,
    LATEX_SPECIALS,
    FORMULA_EQ,
    FORMULA_PLUS,
    FORMULA_MINUS,
    FORMULA_AT,
    FORMULA_TAB,
    FORMULA_CR,
    BIDI_RLO,
    BIDI_ISOLATES,
    ZERO_WIDTH,
    CONTROLS,
    PIPES,
    "plain",
];

/// The models: each named (and its file named) after a payload.
const MODEL_NAMES: [&str; 7] = [
    SCRIPT, IMG, LATEX_DEF, FORMULA_EQ, BIDI_RLO, CONTROLS, PIPES,
];

/// Characters that must never reach an output raw: C0/C1 controls but the
/// line breaks and tabs a format may use itself, bidi controls and marks,
/// and the zero-width characters that hide text.
fn is_forbidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

#[track_caller]
fn assert_no_hidden(format: &str, text: &str) {
    if let Some(c) = text.chars().find(|&c| is_forbidden(c)) {
        panic!("{format}: the output holds U+{:04X} raw", c as u32);
    }
}

fn record_file(name: &str, values: Vec<Value>) -> RecordFile {
    RecordFile {
        name: name.to_string(),
        records: values
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Object(map) => Record::new(i, map),
                other => panic!("not an object: {other}"),
            })
            .collect(),
    }
}

/// One truth record per payload: the payload is its id, and every record
/// has every payload as a key, each holding a payload as its value.
fn truth_records() -> Vec<Value> {
    PAYLOADS
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let mut o = Map::new();
            o.insert("id".into(), json!(id));
            for (j, key) in PAYLOADS.iter().enumerate() {
                o.insert(key.to_string(), json!(PAYLOADS[(i + j) % PAYLOADS.len()]));
            }
            Value::Object(o)
        })
        .collect()
}

/// The report: every model gets some values right, some wrong (another
/// payload), one duplicate id and one unknown id (both payloads), so the
/// warnings carry file names and ids.
fn hostile_report() -> Report {
    let truth = truth_records();
    let models = MODEL_NAMES
        .iter()
        .enumerate()
        .map(|(m, name)| {
            let mut preds: Vec<Value> = truth
                .iter()
                .enumerate()
                .map(|(d, record)| {
                    let mut r = record.clone();
                    if (d + m) % 3 == 0 {
                        if let Some(o) = r.as_object_mut() {
                            for (k, v) in o.iter_mut().filter(|(k, _)| *k != "id") {
                                *v = json!(format!("{k}{SCRIPT}"));
                            }
                        }
                    }
                    r
                })
                .collect();
            preds.push(json!({"id": PAYLOADS[m], SCRIPT: IMG}));
            preds.push(json!({"id": format!("{SVG}{JS_URL}{m}"), SCRIPT: IMG}));
            ModelInput::new(*name, record_file(&format!("{name}.jsonl"), preds))
        })
        .collect();
    let input = EvalInput {
        truth: record_file(&format!("{SCRIPT}{BIDI_RLO}.jsonl"), truth),
        models,
        schema: None,
    };
    evaluate(&input, &Config::default(), true).expect("the hostile inputs evaluate")
}

fn render(report: &Report, format: Format) -> String {
    export::render(report, format, &ExportOptions::default())
}

fn xml(text: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, options)
        .unwrap_or_else(|e| panic!("not well-formed XML: {e}"))
}

/// No element or attribute that runs or loads anything.
#[track_caller]
fn assert_inert_markup(what: &str, doc: &roxmltree::Document) {
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
                "foreignobject",
                "animate",
                "set",
                "base",
                "form",
            ]
            .contains(&name.as_str()),
            "{what}: a <{name}> element"
        );
        assert!(
            name != "meta"
                || !node
                    .attribute("http-equiv")
                    .is_some_and(|v| v.eq_ignore_ascii_case("refresh")),
            "{what}: a meta refresh"
        );
        for attribute in node.attributes() {
            let attr = attribute.name().to_ascii_lowercase();
            assert!(!attr.starts_with("on"), "{what}: an event attribute {attr}");
            let value = attribute.value().to_ascii_lowercase();
            assert!(
                !value.contains("javascript:"),
                "{what}: javascript: in {attr}"
            );
            if attr == "href" || attr == "src" || attr.ends_with(":href") {
                assert!(
                    value.starts_with('#') || value.starts_with("data:image/"),
                    "{what}: {attr}={value}"
                );
            }
        }
    }
}

/// All text of the document, concatenated.
fn all_text(doc: &roxmltree::Document) -> String {
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn json_reads_back_to_the_original_strings_with_hidden_characters_escaped() {
    let report = hostile_report();
    let text = render(&report, Format::Json);
    assert_no_hidden("json", &text);
    let back: Value = serde_json::from_str(&text).expect("JSON parses");
    let names: Vec<&str> = back["models"]
        .as_array()
        .expect("models")
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    assert_eq!(names, MODEL_NAMES);
    // Every payload survives exactly as a field name, an id and a value.
    let fields: Vec<&str> = back["models"][0]["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .filter_map(|f| f["field"].as_str())
        .collect();
    let details = back["models"][0]["document_details"]
        .as_array()
        .expect("details");
    let ids: Vec<&str> = details.iter().filter_map(|d| d["id"].as_str()).collect();
    let details_text = details
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("");
    for p in PAYLOADS {
        assert!(fields.contains(&p), "field {p:?} lost");
        // Ids are compared as trimmed strings (SPEC §1.1).
        assert!(ids.contains(&p.trim()), "id {p:?} lost");
        assert!(
            details_text.contains(&serde_json::to_string(p).expect("string")),
            "value {p:?} lost"
        );
    }
    assert_eq!(back, serde_json::to_value(&report).expect("report as JSON"));
}

#[test]
fn html_report_holds_the_payloads_as_text_only() {
    let report = hostile_report();
    let charts: Vec<HtmlChart> = charts::all(&report, &ChartOptions::default())
        .into_iter()
        .map(|c| HtmlChart {
            title: c.title,
            caption: c.caption,
            svg: c.svg,
        })
        .collect();
    assert!(charts.len() >= 5);
    for page in [
        render(&report, Format::Html),
        render_html(&report, &ExportOptions::default(), &charts),
    ] {
        assert_no_hidden("html", &page);
        let lower = page.to_ascii_lowercase();
        assert!(!lower.contains("<script"), "a <script tag");
        assert!(!lower.contains("<img"), "an <img tag");
        let doc = xml(&page);
        assert_inert_markup("html", &doc);
        let text = all_text(&doc);
        for p in [SCRIPT, IMG, SVG, JS_URL, LATEX_INPUT, FORMULA_EQ, PIPES] {
            assert!(text.contains(p), "the page does not show {p:?} as text");
        }
        // A bidi override is shown as its code point, not obeyed.
        assert!(text.contains("invoice[U+202E]fdp.exe"), "bidi not shown");
    }
}

#[test]
fn every_chart_is_inert_svg_showing_the_names_as_text() {
    let report = hostile_report();
    let all = charts::all(&report, &ChartOptions::default());
    assert_eq!(all.len(), 5, "every chart (no line items here)");
    for chart in all {
        assert_no_hidden(chart.id, &chart.svg);
        let doc = xml(&chart.svg);
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert_inert_markup(chart.id, &doc);
        let text = all_text(&doc);
        // Labels may be shortened to fit; the script tag's start survives
        // as text in every chart that names models.
        assert!(
            text.contains("<script"),
            "{}: no model name as text",
            chart.id
        );
        assert!(
            !chart.svg.contains("<script"),
            "{}: a raw <script",
            chart.id
        );
    }
}

/// Scans LaTeX like TeX's tokenizer: every control word must be one of
/// ours, no special character may stand bare, braces must balance.
fn check_latex(text: &str) -> Result<(), String> {
    const OURS: [&str; 16] = [
        "begin",
        "end",
        "centering",
        "caption",
        "label",
        "toprule",
        "midrule",
        "bottomrule",
        "textbf",
        "textbackslash",
        "textasciicircum",
        "textasciitilde",
        "textless",
        "textgreater",
        "textbar",
        "small",
    ];
    // The formulas of our own captions, the only math allowed.
    const OUR_MATH: [&str; 5] = [
        "$F_1$",
        "$M_{\\mathrm{total}}$",
        "$\\times$",
        "$|\\mathrm{Pred}|$",
        "$|\\mathrm{Truth}|$",
    ];
    let mut text = text.to_string();
    for math in OUR_MATH {
        text = text.replace(math, "");
    }
    let mut depth = 0i64;
    for (n, line) in text.lines().enumerate() {
        let n = n + 1;
        // A `%` comment: its text is never typeset; it must stay on its line.
        if line.starts_with('%') {
            continue;
        }
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(l) if l.is_ascii_alphabetic() => {
                        let mut word = String::from(l);
                        while let Some(&l) = chars.peek().filter(|l| l.is_ascii_alphabetic()) {
                            word.push(l);
                            chars.next();
                        }
                        if !OURS.contains(&word.as_str()) {
                            return Err(format!("line {n}: \\{word} is not ours: {line}"));
                        }
                    }
                    Some('{' | '}' | '$' | '&' | '#' | '_' | '%' | '\\' | ' ' | ',') => {}
                    other => return Err(format!("line {n}: \\{other:?}: {line}")),
                },
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(format!("line {n}: unbalanced }}: {line}"));
                    }
                }
                '$' | '%' | '#' | '^' | '~' | '_' => {
                    return Err(format!("line {n}: bare {c}: {line}"));
                }
                _ => {}
            }
        }
    }
    if depth != 0 {
        return Err(format!("unbalanced braces: depth {depth} at the end"));
    }
    Ok(())
}

#[test]
fn latex_runs_only_our_commands_and_balances_its_braces() {
    let report = hostile_report();
    let text = render(&report, Format::Latex);
    assert_no_hidden("latex", &text);
    check_latex(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // Every table row has as many cells as its header: `&` inside names is
    // escaped, so the unescaped ones are the column separators.
    for line in text.lines().filter(|l| l.ends_with("\\\\")) {
        let bare_amps = line.matches('&').count() - line.matches("\\&").count();
        assert!(
            bare_amps == 7 || bare_amps == 4,
            "{bare_amps} cells: {line}"
        );
    }
    // The checker itself catches what it must.
    assert!(check_latex("\\input{/etc/passwd}").is_err());
    assert!(check_latex("100%").is_err());
    assert!(check_latex("\\textbf{x").is_err());
    assert!(check_latex("a_b").is_err());
}

/// The cells of a Markdown table row: split at `|` not preceded by `\`.
fn markdown_cells(row: &str) -> usize {
    let mut cells: usize = 0;
    let mut escaped = false;
    for c in row.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => cells += 1,
            _ => escaped = false,
        }
    }
    cells.saturating_sub(1)
}

#[test]
fn markdown_keeps_its_columns_and_holds_no_html() {
    let report = hostile_report();
    let text = render(&report, Format::Markdown);
    assert_no_hidden("markdown", &text);
    for tag in ["<script", "<img", "<svg", "</"] {
        assert!(!text.contains(tag), "a raw {tag} in Markdown");
    }
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(rows.len(), 2 * (2 + MODEL_NAMES.len()));
    for row in rows {
        let cells = markdown_cells(row);
        assert!(cells == 8 || cells == 5, "{cells} cells: {row}");
    }
    // Each warning is one list item on one line.
    let items = text.lines().filter(|l| l.starts_with("- ")).count();
    assert_eq!(items, report.warnings.len());
}

#[test]
fn csv_cells_never_start_a_formula() {
    let report = hostile_report();
    let text = render(&report, Format::Csv);
    assert_no_hidden("csv", &text);
    let mut reader = ::csv::Reader::from_reader(text.as_bytes());
    let mut rows = 0;
    let mut quoted = 0;
    for row in reader.records() {
        let row = row.expect("the CSV parses");
        rows += 1;
        for (i, cell) in row.iter().enumerate() {
            if i >= 2 {
                // Numbers: parse as numbers (negative ones are numbers, not
                // formulas) or are empty.
                assert!(cell.is_empty() || cell.parse::<f64>().is_ok(), "{cell:?}");
                continue;
            }
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "a formula cell {cell:?}"
            );
            if cell.starts_with('\'') {
                quoted += 1;
            }
        }
    }
    // One row per model and field: the id is not a field.
    assert_eq!(rows, MODEL_NAMES.len() * PAYLOADS.len());
    // The neutralised ones: the FORMULA_EQ model's name on each of its
    // rows, and the fields =, +, -, @ on every model's rows (the tab and CR
    // ones become a leading space first, which starts no formula).
    assert_eq!(
        quoted,
        PAYLOADS.len() + 4 * MODEL_NAMES.len(),
        "cells starting with '"
    );
}
