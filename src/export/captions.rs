//! The columns and caption words every format shows alike: the
//! weighted-fields columns and sentence, the literature columns and
//! sentence, the clause on where an incorrect value goes, and "N
//! documents".
//!
//! Owns: plain text (each format escapes it). Depends on the report and
//! its typed configuration, and on `numbers` for configured numbers.

use super::numbers::json_number;
use crate::eval::config::IncorrectCountsAs;
use crate::eval::report::{LiteratureReport, Report, Scores};

/// A column of the weighted-fields table: its header, its key in the JSON
/// report (under `weighted_fields`) and the score.
pub type WeightedColumn = (&'static str, &'static str, fn(&Scores) -> f64);

/// The columns of the weighted-fields table, in every format and the app.
pub const WEIGHTED_COLUMNS: [WeightedColumn; 4] = [
    ("Precision", "weighted_fields.precision", |s| s.precision),
    ("Recall", "weighted_fields.recall", |s| s.recall),
    ("F1", "weighted_fields.f1", |s| s.f1),
    ("Accuracy", "weighted_fields.accuracy", |s| s.accuracy),
];

/// What the weighted-fields table shows (the config key `field_weights`,
/// beyond SPEC §4), with the weights as the configuration gives them: one
/// plain sentence that each format escapes. `None` when no model has
/// `weighted_fields`, so reports without the key export as before.
pub fn weighted_sentence(report: &Report) -> Option<String> {
    if report.models.iter().all(|m| m.weighted_fields.is_none()) {
        return None;
    }
    let weights = report
        .config
        .field_weights
        .iter()
        .map(|(field, weight)| format!("{field} {}", json_number(*weight)))
        .collect::<Vec<_>>()
        .join(", ");
    Some(format!(
        "Macro average over fields, each field's score weighted by its field_weights \
         entry w (a field not listed weighs 1): the sum of w times the score divided by the \
         sum of w, over the fields of the macro average over fields (strict matching). \
         Weights: {weights}."
    ))
}

/// A column of the literature table: its header and how to read it from a
/// model's [`LiteratureReport`] (`None` when not asked for,
/// `Some(None)` when undefined).
pub(crate) type LiteratureColumn = (&'static str, fn(&LiteratureReport) -> Option<Option<f64>>);

/// The literature metrics any model of the report carries, in a fixed
/// order (ANLS\*, nTED, Donut F1); `None` when no model has any, so the
/// default report's exports are unchanged.
pub(crate) fn literature_columns(report: &Report) -> Option<Vec<LiteratureColumn>> {
    let all: [LiteratureColumn; 3] = [
        ("ANLS*", |l| l.anls_star),
        ("nTED", |l| l.nted),
        ("Donut F1", |l| l.donut_f1),
    ];
    let columns: Vec<LiteratureColumn> = all
        .into_iter()
        .filter(|(_, get)| {
            report
                .models
                .iter()
                .any(|m| m.literature.as_ref().and_then(get).is_some())
        })
        .collect();
    (!columns.is_empty()).then_some(columns)
}

/// One plain sentence defining the literature columns shown (shared by the
/// Markdown and LaTeX captions; the LaTeX exporter escapes it).
pub(crate) fn literature_sentence(columns: &[LiteratureColumn]) -> String {
    let parts: Vec<&str> = columns
        .iter()
        .map(|(name, _)| match *name {
            "ANLS*" => "ANLS* is the mean over documents of the ANLS* score of the whole record (Peer et al., 2024; threshold 0.5)",
            "nTED" => "nTED is the mean over documents of max(0, 1 - TED(pred, truth) / TED(empty, truth)) on Donut's normalised trees (Kim et al., 2022)",
            _ => "Donut F1 is Donut's field F1 over flattened (path, value) pairs, micro over documents",
        })
        .collect();
    format!("{}.", parts.join("; "))
}

/// The caption clause on where an incorrect value goes, empty under the
/// default `incorrect_counts_as: ["fp", "fn"]`. Under `["fp"]` (M0) a wrong
/// value is a false positive only and recall's denominator leaves it out
/// (SPEC §3.1). Plain text: safe in Markdown, LaTeX and HTML alike.
pub(crate) fn convention_clause(report: &Report) -> &'static str {
    if report.config.incorrect_counts_as == IncorrectCountsAs::FpOnly {
        "; an incorrect value counts as a false positive only, so recall leaves it out"
    } else {
        ""
    }
}

/// `"1 document"`, `"3 documents"`.
pub(crate) fn documents_phrase(report: &Report) -> String {
    match report.documents {
        1 => "1 document".to_string(),
        n => format!("{n} documents"),
    }
}
