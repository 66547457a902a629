//! SPEC §8's "Confidence" section, when some model has confidences: the
//! tables of `export::confidence` and the charts of [`ConfidenceCharts`]
//! when given.
//!
//! Owns: the section's markup. May depend on `table`, `svg`, `parts` and
//! `export::confidence`.

use super::parts::ConfidenceCharts;
use super::svg::push_figure;
use super::table::{open_section, push_table, Column, NONE};
use crate::escape::html as escape;
use crate::eval::report::Report;
use crate::export::ExportOptions;

pub(super) fn has_confidence(report: &Report) -> bool {
    report.models.iter().any(|m| m.confidence.is_some())
}

/// SPEC §8, only when some model has confidences: the model table and,
/// per model with confidences, its per-field table (both from
/// `crate::export::confidence`, the Markdown and LaTeX tables' columns), the
/// risk–coverage chart and each model's reliability diagram (before its
/// field table) when given.
pub(super) fn push_confidence(
    out: &mut String,
    report: &Report,
    options: &ExportOptions,
    charts: Option<&ConfidenceCharts>,
) {
    let Some(rows) = crate::export::confidence::model_rows(report, options) else {
        return;
    };
    open_section(out, "confidence", "Confidence", true);
    out.push_str(
        "<p>Whether a model knows when it is right: a value accepted at a confidence should \
         be right about that often (calibration: ECE, Brier, the reliability diagrams), right \
         values should be more confident than wrong ones (AUROC), and accepting only confident \
         values should leave few errors (AURC, the risk–coverage curves).</p>\n",
    );
    let columns = crate::export::confidence::COLUMNS
        .iter()
        .enumerate()
        .map(|(j, (header, _, _))| {
            let cells = rows
                .iter()
                .map(|(_, cells)| cells[j].clone().unwrap_or_else(|| NONE.to_string()))
                .collect();
            Column::new(escape(header), cells)
        })
        .collect();
    let names: Vec<String> = rows.iter().map(|(name, _)| escape(name)).collect();
    let caption = escape(&crate::export::confidence::caption(report));
    push_table(out, "wide", &caption, "Model", &names, columns);
    if let Some(chart) = charts.and_then(|c| c.risk_coverage.as_ref()) {
        push_figure(out, "confidence-risk-coverage", chart);
    }
    let mut fields = crate::export::confidence::field_rows(report, options).into_iter();
    for (index, model) in report.models.iter().enumerate() {
        let Some(confidence) = &model.confidence else {
            continue;
        };
        out.push_str(&format!(
            "<h3 id=\"confidence-{}\">{}</h3>\n",
            index + 1,
            escape(&model.name)
        ));
        let rows: Vec<_> = fields.by_ref().take(confidence.fields.len()).collect();
        let columns = crate::export::confidence::FIELD_HEADERS
            .iter()
            .enumerate()
            .map(|(j, (header, _))| {
                let cells = rows
                    .iter()
                    .map(|(_, _, cells)| cells[j].clone().unwrap_or_else(|| NONE.to_string()))
                    .collect();
                Column::new(escape(header), cells)
            })
            .collect();
        let names: Vec<String> = rows.iter().map(|(_, field, _)| escape(field)).collect();
        let diagram = charts
            .into_iter()
            .flat_map(|c| &c.reliability)
            .find(|(i, _)| *i == index);
        if let Some((_, chart)) = diagram {
            push_figure(out, &format!("confidence-reliability-{}", index + 1), chart);
        }
        let caption = escape(crate::export::confidence::FIELD_CAPTION);
        push_table(out, "", &caption, "Field", &names, columns);
    }
    out.push_str("</section>\n");
}
