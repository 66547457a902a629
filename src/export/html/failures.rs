//! SPEC §9's "Where it fails" section: the error types per model and per
//! field (`export::errors`), their chart when given, and the slices
//! (`export::slices`).
//!
//! Owns: the section's markup. May depend on `table`, `svg`, `parts` and
//! the sibling exporters named above.

use super::parts::HtmlChart;
use super::svg::push_figure;
use super::table::{open_section, push_table, Column};
use crate::escape::html as escape;
use crate::eval::report::Report;
use crate::export::ExportOptions;

/// SPEC §9.1: "Where it fails" — the error types per model (the columns
/// of `crate::export::errors`, as in Markdown and LaTeX), the stacked bar chart
/// when given, and per model and field when the report has document
/// details.
pub(super) fn push_errors(
    out: &mut String,
    report: &Report,
    options: &ExportOptions,
    chart: Option<&HtmlChart>,
) {
    use crate::export::errors::{caption, field_rows, model_rows, COLUMNS, FIELD_CAPTION};
    open_section(out, "errors", "Where it fails", true);
    out.push_str(
        "<p>Why values are wrong: a value in another format, off by a power of ten, or \
         belonging to another field is a different problem from a wrong value or a missing \
         one.</p>\n",
    );
    let columns = |rows: &[Vec<String>]| -> Vec<Column> {
        COLUMNS
            .iter()
            .enumerate()
            .map(|(j, (header, _, _))| {
                Column::new(escape(header), rows.iter().map(|c| c[j].clone()).collect())
            })
            .collect()
    };
    let rows = model_rows(report, options);
    let names: Vec<String> = rows.iter().map(|(name, _)| escape(name)).collect();
    let cells: Vec<Vec<String>> = rows.into_iter().map(|(_, cells)| cells).collect();
    push_table(
        out,
        "wide",
        &escape(&caption(report)),
        "Model",
        &names,
        columns(&cells),
    );
    if let Some(chart) = chart {
        push_figure(out, "errors-chart", chart);
    }
    if let Some(rows) = field_rows(report, options) {
        for (index, model) in report.models.iter().enumerate() {
            let mine: Vec<_> = rows.iter().filter(|(m, _, _)| *m == model.name).collect();
            if mine.is_empty() {
                continue;
            }
            out.push_str(&format!(
                "<h3 id=\"errors-{}\">{}</h3>\n",
                index + 1,
                escape(&model.name)
            ));
            let names: Vec<String> = mine.iter().map(|(_, field, _)| escape(field)).collect();
            let cells: Vec<Vec<String>> = mine.iter().map(|(_, _, c)| c.clone()).collect();
            push_table(
                out,
                "",
                &escape(FIELD_CAPTION),
                "Field",
                &names,
                columns(&cells),
            );
        }
    }
    // SPEC §9.2: the slices' part, with `slice_by`.
    crate::export::slices::push_html(out, report, options);
    out.push_str("</section>\n");
}
