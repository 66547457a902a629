//! Issue 34: reports that read well at benchmark scale. A wide dataset
//! from `fieldscope synth --types N --fields-per-type M` (one schema per
//! type, six models) evaluated with `--schema-by doc_type`: the HTML
//! report's size, its table rows outside the collapsed sections, every
//! type named, the groups collapsed; Markdown's by-type table.

use super::common::run_cli as fieldscope;
use std::path::{Path, PathBuf};

/// Generates `types` × `fields` into a fresh directory; returns it.
fn synth(name: &str, types: usize, fields: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fieldscope-wide-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, _, err) = fieldscope(&[
        "synth",
        "--types",
        &types.to_string(),
        "--fields-per-type",
        &fields.to_string(),
        "--out",
        &dir.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    dir
}

/// `eval` of the generated files in `format`.
fn eval(dir: &Path, format: &str) -> String {
    let mut args: Vec<String> = vec!["eval".into(), "--truth".into()];
    args.push(dir.join("truth.jsonl").display().to_string());
    for k in 1..=6 {
        args.push("--pred".into());
        args.push(dir.join(format!("sys_{k}.jsonl")).display().to_string());
    }
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(dir.join("schemas"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    schemas.sort();
    for s in schemas {
        args.push("--schema".into());
        args.push(s.display().to_string());
    }
    args.extend(["--schema-by", "doc_type", "--format", format].map(String::from));
    let (code, out, err) = fieldscope(&args);
    assert_eq!(code, 0, "{err}");
    out
}

/// `<tr` elements outside every `<details>` element.
fn rows_outside_details(html: &str) -> usize {
    let mut depth = 0usize;
    let mut rows = 0;
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        if rest.starts_with("<details") {
            depth += 1;
        } else if rest.starts_with("</details>") {
            depth -= 1;
        } else if rest.starts_with("<tr") && depth == 0 {
            rows += 1;
        }
        rest = &rest[1..];
    }
    assert_eq!(depth, 0, "every <details> is closed");
    rows
}

#[test]
fn forty_types_of_thirty_fields_read_overview_first() {
    let dir = synth("40x30", 40, 30);
    let html = eval(&dir, "html");
    // Well-formed XML, as every page (`html_report`'s parser).
    let doc = super::html_report::parse(&html);
    // Every group is a <details> holding its matrix and heatmap: the rows
    // an XML parser finds outside every <details> are those counted below.
    let outside_by_parser = doc
        .descendants()
        .filter(|n| n.has_tag_name("tr"))
        .filter(|n| !n.ancestors().any(|a| a.has_tag_name("details")))
        .count();
    let outside = rows_outside_details(&html);
    assert_eq!(outside, outside_by_parser);
    // 6 + 6 + 6 + 6 rows of the model tables, 40 of the by-type table, at
    // most 50 of the matrix, the error types' 6 and the suspects: well
    // under the 1,200.
    assert!(
        outside <= 1_200,
        "{outside} rows outside collapsed sections"
    );
    assert!(
        outside < html.matches("<tr").count() / 4,
        "most rows are collapsed"
    );
    assert!(html.contains("<h3 id=\"by-type\">By document type</h3>"));
    // Every type is named: in the by-type table and as its group.
    for t in [
        "bank_statement",
        "insurance_declaration",
        "donation_receipt",
        "bank_statement_2",
        "lease_agreement_2",
    ] {
        assert!(
            html.contains(&format!(">{t}</a>")),
            "{t} in the by-type table"
        );
        assert!(
            html.contains(&format!("<span class=\"name\">{t}</span>")),
            "{t}'s group"
        );
    }
    assert_eq!(html.matches("<details class=\"group\"").count(), 40);
    assert_eq!(html.matches("<details class=\"model\"").count(), 6);
    // 40 × 30 own fields and doc_type.
    assert!(html.contains(" of the 1201 fields are exact for every model and folded away."));
    // The matrix of six models fits the page: laid out to its width.
    assert!(html.contains("<table class=\"matrix long\">"));
    // The size: today's report of this width (one table per model, the
    // heatmap in 41 parts) was 4,489,570 bytes (7,354 rows).
    assert!(html.len() < 4_489_570, "{} bytes", html.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn docubench_width_is_no_larger_than_before() {
    // 50 types × 15 fields (751 fields with doc_type), 6 models: the
    // report before issue 34 was 2,850,240 bytes with 4,636 rows, all
    // visible (measured on this data with the same seed).
    let dir = synth("50x15", 50, 15);
    let html = eval(&dir, "html");
    assert!(html.len() <= 2_850_240, "{} bytes", html.len());
    assert!(rows_outside_details(&html) <= 1_200);
    let markdown = eval(&dir, "markdown");
    assert!(markdown.contains("\n| Type | Documents | sys\\_1 | sys\\_2 |"));
    // One row per type, each of one document.
    for t in [
        "bank\\_statement",
        "bank\\_statement\\_2",
        "bank\\_statement\\_3",
    ] {
        assert!(markdown.contains(&format!("\n| {t} | 1 | ")), "{t}");
    }
    assert_eq!(markdown.matches(" | 1 | ").count(), 50);
    let _ = std::fs::remove_dir_all(&dir);
}
