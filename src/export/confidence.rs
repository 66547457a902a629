//! The confidence tables of the text exports (SPEC §8.5, issue 29): one
//! row per model (`Model | Covered | Accuracy | ECE | Brier | AUROC | AURC
//! | Coverage at 95 % | Straight-through`) and one per model and field
//! with its recommended threshold.
//!
//! Owns: the columns, declared once ([`COLUMNS`]: headers for Markdown and
//! LaTeX, the number each reads from a model's `confidence` block), the
//! cells formatted by [`Number`], and the caption's words. Markdown and
//! LaTeX lay them out and escape them in their own language. Depends on
//! `eval::report` only.

use super::{ExportOptions, Number};
use crate::eval::report::{ConfidenceReport, Report};

/// One column of the model table: Markdown header, LaTeX header, its
/// number (`None`: not defined for this model, shown as —).
pub type Column = (
    &'static str,
    &'static str,
    fn(&ConfidenceReport) -> Option<f64>,
);

/// The target accuracy of the "Coverage at 95 %" column.
const TARGET: f64 = 0.95;

/// The model table's columns (after the model's name).
pub const COLUMNS: [Column; 8] = [
    ("Covered", "Covered", |c| Some(c.with_confidence)),
    ("Accuracy", "Accuracy", |c| Some(c.accuracy)),
    ("ECE", "ECE", |c| Some(c.ece)),
    ("Brier", "Brier", |c| Some(c.brier)),
    ("AUROC", "AUROC", |c| c.auroc),
    ("AURC", "AURC", |c| Some(c.aurc)),
    ("Coverage at 95 %", "Coverage at 95\\,\\%", |c| {
        c.coverage_at_accuracy
            .iter()
            .find(|t| t.target == TARGET)
            .map(|t| t.coverage)
    }),
    ("Straight-through", "Straight-through", |c| {
        Some(c.straight_through.rate)
    }),
];

/// The model table's rows — (model name, one cell per [`COLUMNS`] entry,
/// `None` where not defined: the exporter's dash) — when some model has a
/// confidence; a model without has none throughout.
pub type Row = (String, Vec<Option<String>>);

pub fn model_rows(report: &Report, options: &ExportOptions) -> Option<Vec<Row>> {
    if report.models.iter().all(|m| m.confidence.is_none()) {
        return None;
    }
    Some(
        report
            .models
            .iter()
            .map(|m| {
                let cells = COLUMNS
                    .iter()
                    .map(|(_, _, get)| cell(m.confidence.as_ref().and_then(get), options))
                    .collect();
                (m.name.clone(), cells)
            })
            .collect(),
    )
}

/// The field table's headers (Markdown, LaTeX), after model and field.
pub const FIELD_HEADERS: [(&str, &str); 6] = [
    ("Pairs", "Pairs"),
    ("Accuracy", "Accuracy"),
    ("ECE", "ECE"),
    ("AUROC", "AUROC"),
    ("Recommended threshold", "Threshold"),
    ("Coverage", "Coverage"),
];

/// The field table's rows: (model, field, one cell per [`FIELD_HEADERS`]).
pub fn field_rows(
    report: &Report,
    options: &ExportOptions,
) -> Vec<(String, String, Vec<Option<String>>)> {
    let mut rows = Vec::new();
    for m in &report.models {
        let Some(c) = &m.confidence else { continue };
        for (field, f) in &c.fields {
            rows.push((
                m.name.clone(),
                field.clone(),
                vec![
                    Some(Number::Count(f.pairs).format(options)),
                    cell(Some(f.accuracy), options),
                    cell(Some(f.ece), options),
                    cell(f.auroc, options),
                    cell(f.recommended_threshold, options),
                    cell(Some(f.coverage), options),
                ],
            ));
        }
    }
    rows
}

fn cell(x: Option<f64>, options: &ExportOptions) -> Option<String> {
    x.map(|x| Number::Ratio(x).format(options))
}

/// What the model table shows, in words (plain text; each exporter
/// escapes it).
pub fn caption(report: &Report) -> String {
    let threshold = report
        .models
        .iter()
        .find_map(|m| m.confidence.as_ref())
        .map_or(0.95, |c| c.straight_through.threshold);
    format!(
        "Confidence (SPEC §8): Covered = share of compared values that carry a confidence; \
         Accuracy = share of those that are right (exact or true negative); \
         ECE = expected calibration error over equal-width bins; Brier = mean squared error of the confidence; \
         AUROC = probability that a right value is more confident than a wrong one; \
         AURC = area under the risk–coverage curve (lower is better); \
         Coverage at 95 % = largest share accepted at a confidence threshold whose accuracy is at least 0.95; \
         Straight-through = share of documents whose every value is confident enough (threshold {threshold}) to skip review."
    )
}

/// The field table's caption (plain text).
pub const FIELD_CAPTION: &str = "Per-field confidence: the recommended threshold is the lowest confidence at which the accepted values' accuracy (Wilson lower bound, z = 1.96) reaches confidence.review_target; none under confidence.min_pairs pairs. Use them as confidence.field_thresholds.";
