//! The bootstrap tables of the Markdown and LaTeX exports and the app's
//! uncertainty panel: per model the "estimate [low, high]" cells of the
//! headline scores (and of the confidence scores), the marks of the
//! paired tests, and the tables' captions.
//!
//! Owns: the tables' rows, columns and plain-text captions. Depends on the
//! report (`crate::eval::bootstrap`'s intervals) and on `numbers`.

use super::numbers::{ExportOptions, Number};
use crate::eval::report::Report;

/// The bootstrap table of the Markdown and LaTeX exports (and the app's
/// uncertainty panel), when the report has one: per model (names
/// unescaped), the cells "estimate [low, high]" of the headline scores of
/// [`BOOTSTRAP_COLUMNS`] (item F1 only when some model has item lists; a
/// model without them has no cell there), and per cell whether the model is
/// significantly below the best model of that column (the Holm-adjusted
/// paired test between the two, [`BootstrapReport::below_best`]).
///
/// [`BootstrapReport::below_best`]: crate::eval::bootstrap::BootstrapReport::below_best
pub struct BootstrapTable {
    pub resamples: usize,
    pub seed: u64,
    pub level: f64,
    pub alpha: f64,
    pub documents: usize,
    /// The columns shown: (metric, Markdown header, LaTeX header).
    pub columns: Vec<(&'static str, &'static str, &'static str)>,
    /// (model, one cell per column (`None`: the model has no such score),
    /// per column: significantly below the best).
    pub rows: Vec<(String, Vec<Option<String>>, Vec<bool>)>,
}

/// The columns of the bootstrap table: (metric as in the report's
/// `bootstrap`, Markdown header, LaTeX header). Every one is a tested score
/// (`eval::bootstrap::TESTED`).
pub const BOOTSTRAP_COLUMNS: [(&str, &str, &str); 6] = [
    ("micro.f1", "Micro F1", "Micro $F_1$"),
    (
        "macro_documents.f1",
        "Macro F1 (documents)",
        "Macro $F_1$ (documents)",
    ),
    (
        "macro_fields.f1",
        "Macro F1 (fields)",
        "Macro $F_1$ (fields)",
    ),
    ("micro.accuracy", "Micro accuracy", "Micro accuracy"),
    (
        "document_extraction_score",
        "Extraction score",
        "Extraction score",
    ),
    ("items.f1", "Item F1", "Item $F_1$"),
];

pub fn bootstrap_table(report: &Report, options: &ExportOptions) -> Option<BootstrapTable> {
    let b = report.bootstrap.as_ref()?;
    let any_items = b.models.iter().any(|m| m.items.is_some());
    let columns: Vec<_> = BOOTSTRAP_COLUMNS
        .into_iter()
        .filter(|(metric, _, _)| any_items || !metric.starts_with("items."))
        .collect();
    Some(interval_table(b, b.models.iter(), columns, options))
}

/// The columns of the confidence bootstrap table (SPEC §8.5: ece, brier,
/// auroc, aurc), as [`BOOTSTRAP_COLUMNS`]; only `confidence.aurc` is
/// tested between models (a smaller value is better).
pub const BOOTSTRAP_CONFIDENCE_COLUMNS: [(&str, &str, &str); 4] = [
    ("confidence.ece", "ECE", "ECE"),
    ("confidence.brier", "Brier", "Brier"),
    ("confidence.auroc", "AUROC", "AUROC"),
    ("confidence.aurc", "AURC", "AURC"),
];

/// The confidence scores' bootstrap table of the Markdown and LaTeX
/// exports, when the report has a bootstrap and some model has confidence
/// pairs: one row per such model, cells and marks as [`bootstrap_table`]'s
/// (the mark on AURC meaning significantly above the lowest).
pub fn bootstrap_confidence_table(
    report: &Report,
    options: &ExportOptions,
) -> Option<BootstrapTable> {
    let b = report.bootstrap.as_ref()?;
    let models: Vec<_> = b.models.iter().filter(|m| m.confidence.is_some()).collect();
    if models.is_empty() {
        return None;
    }
    let columns = BOOTSTRAP_CONFIDENCE_COLUMNS.to_vec();
    Some(interval_table(b, models.into_iter(), columns, options))
}

/// The rows of `models` under `columns`: "estimate [low, high]" (`None`
/// where the model has no such interval) and the marks of
/// [`BootstrapReport::below_best`].
///
/// [`BootstrapReport::below_best`]: crate::eval::bootstrap::BootstrapReport::below_best
fn interval_table<'b>(
    b: &'b crate::eval::bootstrap::BootstrapReport,
    models: impl Iterator<Item = &'b crate::eval::bootstrap::ModelIntervals>,
    columns: Vec<(&'static str, &'static str, &'static str)>,
    options: &ExportOptions,
) -> BootstrapTable {
    let cell = |i: &crate::eval::bootstrap::Interval| {
        let f = |x: f64| Number::Ratio(x).format(options);
        format!("{} [{}, {}]", f(i.estimate), f(i.low), f(i.high))
    };
    let rows = models
        .map(|m| {
            (
                m.name.clone(),
                columns
                    .iter()
                    .map(|(metric, _, _)| m.get(metric).map(cell))
                    .collect(),
                columns
                    .iter()
                    .map(|(metric, _, _)| b.below_best(metric, &m.name))
                    .collect(),
            )
        })
        .collect();
    BootstrapTable {
        resamples: b.resamples,
        seed: b.seed,
        level: b.level,
        alpha: b.alpha,
        documents: b.documents,
        columns,
        rows,
    }
}

/// The caption of the bootstrap table (plain text; the LaTeX exporter
/// writes its own with the same words).
pub fn bootstrap_caption(t: &BootstrapTable) -> String {
    format!(
        "{:.0} % bootstrap intervals, [low, high] after each estimate ({} resamples of the {} documents, seed {}; percentile method). † = significantly below the best model's score in that column (paired bootstrap test, two-sided, Holm-adjusted over the model pairs, α = {}).",
        t.level * 100.0,
        t.resamples,
        t.documents,
        t.seed,
        t.alpha
    )
}

/// The caption of the confidence bootstrap table (plain text; the LaTeX
/// exporter writes its own with the same words).
pub fn bootstrap_confidence_caption(t: &BootstrapTable) -> String {
    format!(
        "{:.0} % bootstrap intervals of the confidence scores (SPEC §8.3), [low, high] after each estimate ({} resamples of the {} documents, seed {}; percentile method; a resample whose drawn values leave a score undefined — no confidence, or AUROC with every value right or every one wrong — is left out of that score's interval). ECE, Brier and AURC: lower is better. † = AURC significantly above the lowest model's (paired bootstrap test, two-sided, Holm-adjusted over the model pairs, α = {}).",
        t.level * 100.0,
        t.resamples,
        t.documents,
        t.seed,
        t.alpha
    )
}
