//! The suspected truth errors (SPEC §9.3) in Markdown and HTML: a caption
//! and one table (id, field, truth, proposed, models, support, mean
//! confidence), in the report's order.
//!
//! Owns: the section's cells ([`rows`], plain text, shared by both
//! formats), its caption and headers, and [`push_markdown`] /
//! [`push_html`] (each through its own format's one escaper,
//! `markdown::escape` and `html::escape`). Nothing is written when the
//! report has no suspect, so a report without one renders as before.
//! Depends on `eval::report` only.

use super::{ExportOptions, Number};
use crate::eval::report::Report;
use serde_json::Value;

/// The section's id and heading, for the HTML contents list.
pub const SECTION: (&str, &str) = ("suspected-truth-errors", "Suspected truth errors");

/// The table's headers.
pub const HEADERS: [&str; 7] = [
    "Document",
    "Field",
    "Truth",
    "Proposed",
    "Models",
    "Support",
    "Mean confidence",
];

/// The most suspects the HTML page lists (the JSON report has them all).
pub const HTML_SUSPECTS: usize = 500;

/// What an absent value or a missing number reads as.
const NONE: &str = "—";

/// A value as a cell: a string as it is, `null` (absent) as "—", any
/// other value as its JSON text.
fn value(v: &Value) -> String {
    match v {
        Value::Null => NONE.to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The caption: what a suspect is, with the threshold's rule.
pub fn caption(report: &Report) -> String {
    let agreement = report.config.audit.agreement;
    format!(
        "Suspected truth errors (SPEC §9.3): {} (document, field) slot(s) where no model is exact or a true negative and at least max(2, ⌈{agreement}·M⌉) of the M = {} models agree on one value; most support first.",
        report.suspected_truth_errors.len(),
        report.models.len()
    )
}

/// One row of plain-text cells per suspect, in the report's order.
pub fn rows(report: &Report, options: &ExportOptions) -> Vec<[String; 7]> {
    report
        .suspected_truth_errors
        .iter()
        .map(|s| {
            [
                s.id.clone(),
                s.field.clone(),
                value(&s.truth),
                value(&s.proposed),
                s.models.join(", "),
                s.support.to_string(),
                s.mean_confidence
                    .map_or_else(|| NONE.to_string(), |x| Number::Ratio(x).format(options)),
            ]
        })
        .collect()
}

/// Appends the Markdown section (nothing without suspects).
pub fn push_markdown(out: &mut String, report: &Report, options: &ExportOptions) {
    use crate::escape::markdown as escape;
    let rows = rows(report, options);
    if rows.is_empty() {
        return;
    }
    out.push('\n');
    out.push_str(&escape(&caption(report)));
    out.push_str("\n\n|");
    for h in HEADERS {
        out.push_str(&format!(" {h} |"));
    }
    out.push_str("\n| :--- | :--- | :--- | :--- | :--- | ---: | ---: |\n");
    for row in rows {
        out.push('|');
        for (k, cell) in row.iter().enumerate() {
            // Numbers are never escaped; every other cell is user data.
            let text = if k >= 5 { cell.clone() } else { escape(cell) };
            let text = if text.is_empty() {
                NONE.to_string()
            } else {
                text
            };
            out.push_str(&format!(" {text} |"));
        }
        out.push('\n');
    }
}

/// Appends the HTML section (nothing without suspects).
pub fn push_html(out: &mut String, report: &Report, options: &ExportOptions) {
    use crate::escape::html as escape;
    let rows = rows(report, options);
    if rows.is_empty() {
        return;
    }
    out.push_str(&format!(
        "<section id=\"{}\">\n<h2>{}</h2>\n",
        SECTION.0, SECTION.1
    ));
    let shown = rows.len().min(HTML_SUSPECTS);
    let more = if shown < rows.len() {
        format!(" The first {shown} are listed; the JSON report has them all.")
    } else {
        String::new()
    };
    let long = if shown > 20 { " class=\"long\"" } else { "" };
    out.push_str(&format!(
        "<div class=\"scroll\">\n<table{long}>\n<caption>{}{more}</caption>\n<thead><tr>",
        escape(&caption(report))
    ));
    for h in HEADERS {
        out.push_str(&format!("<th scope=\"col\">{h}</th>"));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows.iter().take(HTML_SUSPECTS) {
        out.push_str(&format!("<tr><th scope=\"row\">{}</th>", escape(&row[0])));
        for cell in &row[1..] {
            out.push_str(&format!("<td>{}</td>", escape(cell)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n</section>\n");
}
