//! The HTML report's "Flipped documents" section (issue 17): the report's
//! `comparison` key (`eval --compare BASELINE,CANDIDATE`) as a summary, a
//! per-field count table and the regressions and fixes with the truth,
//! both predictions and both outcomes.
//!
//! Owns: that section only; `export::html` calls [`push_html`] and lists
//! [`SECTION`] in its contents. Every user string goes through
//! `escape::html`; nothing runs or loads. Depends on `eval::gate::flips`.

use crate::escape::html as escape;
use crate::eval::gate::flips::{Comparison, Flip};
use crate::eval::report::Report;

/// The section's id and heading, for the contents list.
pub const SECTION: (&str, &str) = ("flipped-documents", "Flipped documents");

/// The most regressions and fixes the page lists each (the JSON report
/// has them all).
pub const HTML_FLIPS: usize = 500;

fn value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "<span class=\"note\">(none)</span>".to_string(),
        v => format!(
            "<code>{}</code>",
            escape(&serde_json::to_string(v).unwrap_or_default())
        ),
    }
}

fn row(f: &Flip) -> String {
    let field = match f.truth_item {
        Some(i) => format!("{} (item {})", escape(&f.field), i + 1),
        None => escape(&f.field),
    };
    let outcome = |o: Option<crate::eval::report::Outcome>| o.map_or("no row", |o| o.name());
    format!(
        "<tr><th scope=\"row\">{}</th><td>{field}</td><td>{}</td><td>{} ({})</td><td>{} ({})</td></tr>\n",
        escape(&f.id),
        value(&f.truth),
        value(&f.baseline_prediction),
        outcome(f.baseline_outcome),
        value(&f.candidate_prediction),
        outcome(f.candidate_outcome),
    )
}

/// Appends the section when the report has a `comparison`; nothing
/// otherwise.
pub fn push_html(out: &mut String, report: &Report) {
    let Some(c) = &report.comparison else {
        return;
    };
    push_comparison(out, c);
}

fn push_comparison(out: &mut String, c: &Comparison) {
    let (b, k) = (escape(&c.baseline), escape(&c.candidate));
    out.push_str(&format!(
        "<section id=\"{}\">\n<h2>{}</h2>\n",
        SECTION.0, SECTION.1
    ));
    out.push_str(&format!(
        "<p>Candidate <bdi>{k}</bdi> against baseline <bdi>{b}</bdi> over {} documents: \
         {} regressions (a (document, field) pair exact in the baseline and not in the candidate) \
         and {} fixes (the other way round).</p>\n",
        c.documents,
        c.regressions.len(),
        c.fixes.len()
    ));
    if c.fields.is_empty() {
        out.push_str("</section>\n");
        return;
    }
    out.push_str(
        "<div class=\"scroll\">\n<table>\n<caption>Flipped pairs per field</caption>\n\
         <thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Regressions</th>\
         <th scope=\"col\">Fixes</th></tr></thead>\n<tbody>\n",
    );
    for f in &c.fields {
        out.push_str(&format!(
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>\n",
            escape(&f.field),
            f.regressions,
            f.fixes
        ));
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
    for (title, list) in [("Regressions", &c.regressions), ("Fixes", &c.fixes)] {
        if list.is_empty() {
            continue;
        }
        let shown = list.len().min(HTML_FLIPS);
        let caption = if shown < list.len() {
            format!("{title}: the first {shown} of {}", list.len())
        } else {
            format!("{title}: all {}", list.len())
        };
        let long = if shown > 20 { " class=\"long\"" } else { "" };
        out.push_str(&format!(
            "<div class=\"scroll\">\n<table{long}>\n<caption>{caption}</caption>\n\
             <thead><tr><th scope=\"col\">Document</th><th scope=\"col\">Field</th>\
             <th scope=\"col\">Truth</th><th scope=\"col\"><bdi>{b}</bdi></th>\
             <th scope=\"col\"><bdi>{k}</bdi></th></tr></thead>\n<tbody>\n"
        ));
        for f in list.iter().take(HTML_FLIPS) {
            out.push_str(&row(f));
        }
        out.push_str("</tbody>\n</table>\n</div>\n");
    }
    out.push_str("</section>\n");
}
