//! The "By document type" table of `--format markdown` with several
//! schemas (issue 34): one row per document type (schema), its documents
//! and each model's micro F1 and accuracy, the row's best F1 in bold. The
//! figures and their reading are `eval::groups::type_table`'s; the HTML
//! report shows the same table (`super::html`'s `wide`).
//!
//! Depends on `eval::groups` and `crate::escape` (Markdown); the caller
//! gives the ratio format (`Number::Ratio(x).format(options)`).

use crate::escape::markdown as escape;
use crate::eval::groups::{type_table, DocTypes};
use crate::eval::report::Report;

/// The table with its caption, ending in a newline, each ratio printed by
/// `ratio`; `None` without types.
pub fn markdown(
    report: &Report,
    types: Option<&DocTypes>,
    ratio: &dyn Fn(f64) -> String,
) -> Option<String> {
    let rows = type_table(report, types);
    if rows.is_empty() {
        return None;
    }
    let mut out = String::from(
        "By document type (one row per schema): each model's micro F1 / accuracy over the \
         type; bold: the row's best F1; —: no outcome.\n\n| Type | Documents |",
    );
    for m in &report.models {
        out.push_str(&format!(" {} |", escape(&m.name)));
    }
    out.push_str("\n| :--- | ---: |");
    out.push_str(&" ---: |".repeat(report.models.len()));
    out.push('\n');
    for r in &rows {
        out.push_str(&format!("| {} | {} |", escape(&r.name), r.documents));
        for (m, s) in r.scores.iter().enumerate() {
            let cell = match s {
                None => "—".to_string(),
                Some(s) => {
                    let f1 = ratio(s.f1);
                    let f1 = if r.best.contains(&m) {
                        format!("**{f1}**")
                    } else {
                        f1
                    };
                    format!("{f1} / {}", ratio(s.accuracy))
                }
            };
            out.push_str(&format!(" {cell} |"));
        }
        out.push('\n');
    }
    Some(out)
}
