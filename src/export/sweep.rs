//! A threshold sweep ([`SweepReport`]) → JSON, Markdown, LaTeX or CSV: one
//! row per threshold value, for each model its micro F1, micro accuracy
//! and macro-over-documents F1. Names are escaped with each format's own
//! escaper; CSV cells are neutralised like the per-field table's.

use super::format::Format;
use super::numbers::{ExportOptions, Number};
use super::{csv::neutralise, latex, markdown};
use crate::eval::sweep::SweepReport;

/// The sweep in `format` (HTML is not offered: use the JSON or a chart).
pub fn render(report: &SweepReport, format: Format, options: &ExportOptions) -> String {
    let ratio = |x: f64| Number::Ratio(x).format(options);
    let rows = report.models.first().map_or(0, |m| m.points.len());
    let caption = format!(
        "Threshold sweep of {} on {} documents (the configuration's own value: {}): for each model, micro F1, micro accuracy and F1 macro-averaged over documents, each point a full evaluation with that threshold.",
        report.key,
        report.documents,
        ratio(report.configured)
    );
    match format {
        Format::Json | Format::Html => {
            let mut text = serde_json::to_string_pretty(report).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Markdown => {
            let mut out = format!(
                "{}\n\n| {} |",
                markdown::escape(&caption),
                markdown::escape(&report.key)
            );
            for m in &report.models {
                let name = markdown::escape(&m.name);
                out.push_str(&format!(
                    " {name} F1 (micro) | {name} accuracy (micro) | {name} F1 (macro documents) |"
                ));
            }
            out.push_str("\n| ---: |");
            out.push_str(&" ---: | ---: | ---: |".repeat(report.models.len()));
            out.push('\n');
            for i in 0..rows {
                out.push_str(&format!("| {} |", ratio(report.models[0].points[i].value)));
                for m in &report.models {
                    let p = &m.points[i];
                    out.push_str(&format!(
                        " {} | {} | {} |",
                        ratio(p.micro_f1),
                        ratio(p.micro_accuracy),
                        ratio(p.macro_documents_f1)
                    ));
                }
                out.push('\n');
            }
            out
        }
        Format::Latex => {
            let mut out =
                String::from("% fieldscope threshold sweep. Needs \\usepackage{booktabs}.\n");
            out.push_str("\\begin{table}[htbp]\n  \\centering\n");
            out.push_str(&format!("  \\caption{{{}}}\n", latex::escape(&caption)));
            out.push_str("  \\label{tab:fieldscope-sweep}\n");
            out.push_str(&format!(
                "  \\begin{{tabular}}{{r{}}}\n    \\toprule\n",
                "rrr".repeat(report.models.len())
            ));
            out.push_str("    Threshold");
            for m in &report.models {
                let name = latex::escape(&m.name);
                out.push_str(&format!(
                    " & {name} $F_1$ & {name} acc. & {name} macro $F_1$"
                ));
            }
            out.push_str(" \\\\\n    \\midrule\n");
            for i in 0..rows {
                out.push_str(&format!("    {}", ratio(report.models[0].points[i].value)));
                for m in &report.models {
                    let p = &m.points[i];
                    out.push_str(&format!(
                        " & {} & {} & {}",
                        ratio(p.micro_f1),
                        ratio(p.micro_accuracy),
                        ratio(p.macro_documents_f1)
                    ));
                }
                out.push_str(" \\\\\n");
            }
            out.push_str("    \\bottomrule\n  \\end{tabular}\n\\end{table}\n");
            out
        }
        Format::Csv => {
            let mut w = ::csv::Writer::from_writer(Vec::new());
            let _ = w.write_record([
                "model",
                "threshold",
                "micro_f1",
                "micro_accuracy",
                "macro_documents_f1",
            ]);
            for m in &report.models {
                for p in &m.points {
                    let _ = w.write_record([
                        neutralise(&m.name).into_owned(),
                        p.value.to_string(),
                        p.micro_f1.to_string(),
                        p.micro_accuracy.to_string(),
                        p.macro_documents_f1.to_string(),
                    ]);
                }
            }
            String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
        }
    }
}
