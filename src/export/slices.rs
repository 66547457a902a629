//! The weak-slices tables of the text exports and the HTML page (SPEC
//! §9.2): per model, its weak slices (`Key | Value | Documents | F1 | Δ F1
//! | p | p (Holm)`); the JSON report holds every slice.
//!
//! Owns: the columns, declared once ([`COLUMNS`]: Markdown, LaTeX and CSV
//! headers and the cell each reads from a [`SliceRow`]), how a slice's
//! value reads ([`value_text`]), the caption's and the empty table's
//! words. Markdown, LaTeX, CSV and HTML lay them out and escape them with
//! their own escaper. Depends on `eval::report` only.

use super::{ExportOptions, Number};
use crate::eval::report::{ModelSlices, Report, SliceRow, SlicesReport};
use serde_json::Value;

/// One column: Markdown (and HTML) header, LaTeX header, CSV header, its
/// cell (`None`: not defined, the exporter's dash).
pub type Column = (
    &'static str,
    &'static str,
    &'static str,
    fn(&SliceRow, &ExportOptions) -> Option<String>,
);

/// The columns of a slices table.
pub const COLUMNS: [Column; 7] = [
    ("Key", "Key", "key", |r, _| Some(r.key.clone())),
    ("Value", "Value", "value", |r, _| Some(value_text(&r.value))),
    ("Documents", "Documents", "documents", |r, _| {
        Some(Number::Count(r.documents as u64).format(&ExportOptions::default()))
    }),
    ("F1 (micro)", "F1 (micro)", "f1", |r, o| {
        Some(Number::Ratio(r.micro.f1).format(o))
    }),
    ("Δ F1", "$\\Delta$ F1", "delta", |r, o| {
        r.delta.map(|x| Number::Ratio(x).format(o))
    }),
    ("p", "$p$", "p_value", |r, o| {
        r.p_value.map(|x| Number::Ratio(x).format(o))
    }),
    ("p (Holm)", "$p$ (Holm)", "p_holm", |r, o| {
        r.p_holm.map(|x| Number::Ratio(x).format(o))
    }),
];

/// A slice's value as text (plain; each exporter escapes it): `null` for
/// the documents without the key, a string as it is, a quartile bin as
/// `[low, high]`, any other value as its JSON text.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(a) if a.len() == 2 && a.iter().all(Value::is_number) => {
            format!("[{}, {}]", a[0], a[1])
        }
        other => other.to_string(),
    }
}

/// A model's weak slices, each as its cells (plain text, `None` for a
/// dash), in the report's order (δ descending).
pub fn weak_rows(model: &ModelSlices, options: &ExportOptions) -> Vec<Vec<Option<String>>> {
    model
        .slices
        .iter()
        .filter(|r| r.weak)
        .map(|r| row(r, options))
        .collect()
}

/// One slice's cells.
pub fn row(r: &SliceRow, options: &ExportOptions) -> Vec<Option<String>> {
    COLUMNS
        .iter()
        .map(|(_, _, _, cell)| cell(r, options))
        .collect()
}

/// How many of a model's slices were tested.
pub fn tested(model: &ModelSlices) -> usize {
    model.slices.iter().filter(|r| r.p_value.is_some()).count()
}

/// The sentence shown instead of an empty table (plain text).
pub fn none_weak(model: &ModelSlices) -> String {
    format!(
        "{}: no weak slice ({} of {} slices tested).",
        model.name,
        tested(model),
        model.slices.len()
    )
}

/// The section's caption in an exporter's markup: its text through
/// `escape`, the report key it names (`slices`) through `code` (each
/// format's code span; the HTML page once showed it with literal
/// backticks).
pub fn caption(
    report: &Report,
    slices: &SlicesReport,
    escape: impl Fn(&str) -> String,
    code: impl Fn(&str) -> String,
) -> String {
    let (min, resamples, alpha) = settings(report);
    let text = format!(
        "Weak slices (SPEC §9.2), by {}: a slice is tested when at least {min} documents lie inside it and at least {min} outside; \
         Δ F1 = micro F1 of the other documents − micro F1 of the slice; p = share of {resamples} bootstrap resamples \
         (documents drawn inside and outside the slice separately) whose Δ is at most 0, Holm-adjusted over the model's tested slices; \
         weak when p (Holm) ≤ {alpha}. Every slice, tested or not, is in the JSON report's",
        slices.by.join(", ")
    );
    // The space outside the escaped text: an escaper may trim its ends.
    format!("{} {}{}", escape(&text), code("slices"), escape("."))
}

/// `slices.min_documents`, `slices.resamples`, `slices.alpha` as the
/// report's JSON writes them.
fn settings(report: &Report) -> (String, String, String) {
    let s = &report.config.slices;
    (
        s.min_documents.to_string(),
        s.resamples.to_string(),
        super::json_number(s.alpha),
    )
}

/// The HTML page's "Slices" part of the "Where it fails" section
/// (`html::failures::push_errors` opens it): the
/// caption, then per model a table of every slice (weak ones first,
/// marked), with δ and the p-values; nothing without slices. Every user
/// string goes through `html::escape`.
pub fn push_html(out: &mut String, report: &Report, options: &ExportOptions) {
    use crate::escape::html as escape;
    let Some(slices) = &report.slices else {
        return;
    };
    out.push_str("<h3 id=\"slices\">Slices</h3>\n");
    let about = caption(report, slices, escape, |c| {
        format!("<code>{}</code>", escape(c))
    });
    out.push_str(&format!("<p>{about}</p>\n"));
    for model in &slices.models {
        let weak = model.slices.iter().filter(|r| r.weak).count();
        let name = escape(&model.name);
        if model.slices.is_empty() {
            out.push_str(&format!("<p><bdi>{name}</bdi>: no slices.</p>\n"));
            continue;
        }
        let long = if model.slices.len() > 20 {
            " class=\"long\""
        } else {
            ""
        };
        out.push_str(&format!(
            "<div class=\"scroll\">\n<table{long}>\n<caption>Slices of <bdi>{name}</bdi>: \
             {weak} weak of {} tested, {} in all</caption>\n<thead><tr>",
            tested(model),
            model.slices.len()
        ));
        for (header, _, _, _) in &COLUMNS {
            out.push_str(&format!("<th scope=\"col\">{}</th>", escape(header)));
        }
        out.push_str("<th scope=\"col\">Weak</th></tr></thead>\n<tbody>\n");
        for r in &model.slices {
            let cells = row(r, options);
            out.push_str("<tr>");
            for (i, c) in cells.iter().enumerate() {
                let text = c.as_deref().map_or_else(|| "—".to_string(), escape);
                if i == 0 {
                    out.push_str(&format!("<th scope=\"row\">{text}</th>"));
                } else {
                    out.push_str(&format!("<td>{text}</td>"));
                }
            }
            out.push_str(if r.weak {
                "<td><strong>weak</strong></td>"
            } else {
                "<td></td>"
            });
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n</div>\n");
    }
}
