//! Untrusted text stays text: keys, values, ids, file and model names that
//! carry HTML/SVG/script payloads, LaTeX control sequences, CSV formulas,
//! control characters and bidirectional overrides go through a whole
//! evaluation and come out inert in every export and every chart.

use fieldscope::charts::{self, ChartOptions};
use fieldscope::eval::{evaluate_owned, ConfigBuilder, EvalInput, ModelInput, Report};
use fieldscope::export::{render, ExportOptions, Format};
use fieldscope::io::parse_docs;
use serde_json::{json, Value};

const SCRIPT: &str = "<script>alert(1)</script>";
const IMG: &str = "\"><img src=x onerror=alert(1)>";
const SVG: &str = "<svg onload=alert(1)>";
const JS_URL: &str = "javascript:alert(1)";
const LATEX: &str = "\\input{/etc/passwd}\\def\\x{1}$%&#_^~{}\\";
const FORMULAS: [&str; 6] = [
    "=HYPERLINK(\"http://x\")",
    "+1+1",
    "-2+3",
    "@SUM(A1)",
    "\tcmd",
    "\rcmd",
];
const BIDI: &str = "abc\u{202E}def\u{2066}g\u{2069}\u{200B}h\u{0007}";

/// A report whose field names, values, ids and model names are payloads.
fn hostile_report() -> Report {
    let mut truth = Vec::new();
    let mut pred = Vec::new();
    let payloads: Vec<String> = [SCRIPT, IMG, SVG, JS_URL, LATEX, BIDI]
        .iter()
        .map(|s| s.to_string())
        .chain(FORMULAS.iter().map(|s| s.to_string()))
        .collect();
    for (i, p) in payloads.iter().enumerate() {
        let id = format!("{p}#{i}");
        truth.push(json!({"id": id, p.as_str(): p, "name": p, "items": [{"desc": p, "qty": 1}]}));
        pred.push(json!({"id": id, p.as_str(): format!("{p}!"), "name": "other", "items": [{"desc": p, "qty": 2}, {"desc": SCRIPT}]}));
    }
    let jsonl = |v: &[Value]| v.iter().map(|r| format!("{r}\n")).collect::<String>();
    let truth = parse_docs(&format!("{SCRIPT}.jsonl"), jsonl(&truth).as_bytes()).unwrap();
    let models = [SCRIPT, IMG, LATEX, "=cmd|' /C calc'!A0", BIDI]
        .iter()
        .map(|name| {
            ModelInput::new(
                *name,
                parse_docs("p.jsonl", jsonl(&pred).as_bytes()).unwrap(),
            )
        })
        .collect();
    let config = ConfigBuilder::new().build().unwrap();
    let input = EvalInput {
        truth,
        models,
        schema: None,
        schemas: Vec::new(),
    };
    evaluate_owned(input, &config, true).unwrap()
}

fn has_bidi_or_hidden(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(c, '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
            || (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
    })
}

/// Every tag of an HTML page (text between `<` and `>`; escaped payloads
/// have no `<`) is one the report writes: no script, image, iframe or
/// object, no event handler, no `javascript:` URL.
fn assert_tags_are_ours(html: &str) {
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        let end = rest[start..]
            .find('>')
            .map_or(rest.len(), |e| start + e + 1);
        let tag = rest[start..end].to_lowercase();
        let name: String = tag[1..]
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        assert!(
            !matches!(
                name.as_str(),
                "script" | "img" | "iframe" | "object" | "embed" | "foreignobject"
            ),
            "<{name}> in {tag}"
        );
        for word in tag.split(char::is_whitespace) {
            assert!(
                !(word.starts_with("on") && word.contains('=')),
                "event handler in {tag}"
            );
        }
        assert!(!tag.contains("javascript:"), "javascript: URL in {tag}");
        rest = &rest[end..];
    }
}

#[test]
fn html_report_keeps_payloads_as_text() {
    let report = hostile_report();
    let html = render(&report, Format::Html, &ExportOptions::default());
    assert_tags_are_ours(&html);
    // The payloads are there as text, escaped.
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(
        html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")
            || html.contains("&#34;&gt;&lt;img src=x onerror=alert(1)&gt;")
    );
    assert!(
        !has_bidi_or_hidden(&html),
        "hidden characters are made visible"
    );
    assert!(html.contains("[U+202E]"));
    // Charts inlined in the HTML report are checked too (every chart of
    // the report, as every entry point draws them).
    let with_charts = fieldscope::export::render_html(
        &report,
        &ExportOptions::default(),
        &fieldscope::export::HtmlInclude::default(),
    );
    assert_tags_are_ours(&with_charts);
}

#[test]
fn charts_keep_payloads_as_text() {
    let report = hostile_report();
    for chart in charts::all(&report, &ChartOptions::default()) {
        let doc = roxmltree::Document::parse(&chart.svg)
            .unwrap_or_else(|e| panic!("{}: the SVG parses: {e}", chart.id));
        for node in doc.descendants().filter(|n| n.is_element()) {
            let tag = node.tag_name().name().to_lowercase();
            assert!(
                !matches!(tag.as_str(), "script" | "foreignobject" | "img" | "iframe"),
                "{}: <{tag}>",
                chart.id
            );
            for a in node.attributes() {
                assert!(
                    !a.name().to_lowercase().starts_with("on"),
                    "{}: attribute {}",
                    chart.id,
                    a.name()
                );
                assert!(
                    !a.value().to_lowercase().contains("javascript:"),
                    "{}: {}",
                    chart.id,
                    a.value()
                );
            }
            if let Some(text) = node.text() {
                assert!(
                    !has_bidi_or_hidden(text),
                    "{}: hidden characters in {text:?}",
                    chart.id
                );
            }
        }
    }
}

#[test]
fn latex_escapes_every_special_character() {
    let report = hostile_report();
    let tex = render(&report, Format::Latex, &ExportOptions::default());
    assert!(!tex.contains("\\input{"), "no live \\input");
    assert!(!tex.contains("\\def\\x"), "no live \\def");
    // Braces balance (escaped braces `\{ \}` do not count).
    let mut depth = 0i64;
    let mut escaped = false;
    for c in tex.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                assert!(depth >= 0, "a `}}` without its `{{`");
            }
            _ => {}
        }
    }
    assert_eq!(depth, 0, "braces balance");
    // The model name with the LaTeX payload is in the table, escaped.
    assert!(
        tex.contains("\\textbackslash{}input\\{/etc/passwd\\}"),
        "{tex}"
    );
    assert!(!has_bidi_or_hidden(&tex));
}

#[test]
fn markdown_escapes_pipes_and_html() {
    let report = hostile_report();
    let md = render(&report, Format::Markdown, &ExportOptions::default());
    // Every `<` that could open a tag is backslash-escaped (inert in
    // CommonMark and GFM, readable in a terminal).
    assert!(md.contains("\\<script>"), "HTML is escaped");
    assert!(md.contains("\\<img"), "HTML is escaped");
    for (i, _) in md.match_indices('<') {
        let next = md[i + 1..].chars().next();
        if next.is_some_and(|c| c.is_ascii_alphabetic() || "/!?".contains(c)) {
            assert!(md[..i].ends_with('\\'), "bare tag at {i}: {}", &md[i..]);
        }
    }
    // Every table row has as many cells as its header.
    for table in md.split("\n\n").filter(|b| b.starts_with('|')) {
        let count = |line: &str| line.replace("\\|", "").matches('|').count();
        let mut lines = table.lines();
        let header = count(lines.next().unwrap());
        for line in lines {
            assert_eq!(count(line), header, "{line}");
        }
    }
    assert!(!has_bidi_or_hidden(&md));
}

#[test]
fn csv_neutralises_formulas() {
    let report = hostile_report();
    let text = render(&report, Format::Csv, &ExportOptions::default());
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let mut models = Vec::new();
    let mut fields = Vec::new();
    for record in reader.records() {
        let record = record.unwrap();
        for cell in record.iter() {
            let numeric = cell.parse::<f64>().is_ok();
            if !numeric {
                assert!(
                    !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "a text cell starting a formula: {cell:?}"
                );
            }
        }
        models.push(record[0].to_string());
        fields.push(record[1].to_string());
    }
    // The names are kept, with a leading apostrophe where they would start
    // a formula.
    assert!(
        models.contains(&"'=cmd|' /C calc'!A0".to_string()),
        "{models:?}"
    );
    assert!(
        fields.contains(&"'=HYPERLINK(\"http://x\")".to_string()),
        "{fields:?}"
    );
    assert!(fields.contains(&"'@SUM(A1)".to_string()));
    assert!(fields.contains(&"'-2+3".to_string()));
}

#[test]
fn json_carries_the_exact_text() {
    let report = hostile_report();
    let json: Value =
        serde_json::from_str(&render(&report, Format::Json, &ExportOptions::default())).unwrap();
    let names: Vec<&str> = json["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, [SCRIPT, IMG, LATEX, "=cmd|' /C calc'!A0", BIDI]);
    let fields: Vec<&str> = json["models"][0]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&SCRIPT));
    assert!(fields.contains(&BIDI));
}

/// Issue 32: a report read back from JSON was never checked, so its
/// `app_url` and suggestions may be payloads: the page and the notebook
/// fragment show them as text (no `javascript:` link), Markdown escapes
/// them.
#[test]
fn app_url_and_suggestions_from_a_hostile_report_stay_text() {
    let mut report = hostile_report();
    report.config.app_url = Some(JS_URL.into());
    report.suggestions = vec![fieldscope::eval::report::Suggestion {
        field: SCRIPT.into(),
        r#type: "number".into(),
        share: 1.0,
        config: json!({"field_types": {SCRIPT: "number"}}),
    }];
    let options = ExportOptions::default();
    let include = fieldscope::export::HtmlInclude::default();
    let page = fieldscope::export::render_html(&report, &options, &include);
    let fragment = fieldscope::export::page::render_fragment(&report, &options, &include);
    for html in [&page, &fragment] {
        assert_tags_are_ours(html);
        assert!(html.contains("<dt>App</dt><dd id=\"app\">javascript:alert(1): "));
        assert!(html.contains("<li>Treat <code>&lt;script&gt;alert(1)&lt;/script&gt;</code>"));
    }
    let md = render(&report, Format::Markdown, &options);
    assert!(md.contains("- Treat \\<script>alert(1)\\</script> as a number: "));
}
