//! The error-type tables of the text exports (SPEC §9.1): one row per
//! model (`Model | Format | Scale | Swapped | Near miss | Wrong | Missed |
//! Spurious`) and, when the report has document details (`--details`),
//! one per model and field.
//!
//! Owns: the columns, declared once ([`COLUMNS`]: Markdown/HTML and LaTeX
//! headers, the [`ErrorType`] each counts), the rows as formatted counts,
//! and the captions' words. Markdown, LaTeX and HTML lay them out and
//! escape them in their own language; CSV adds [`CSV_HEADER`]'s columns.
//! Depends on `eval::report` only.

use super::{ExportOptions, Number};
use crate::eval::report::{ErrorCounts, ErrorType, Report};

/// One column: Markdown (and HTML) header, LaTeX header, its error type.
pub type Column = (&'static str, &'static str, ErrorType);

/// The columns after the model's name (and the field's), in the report's
/// key order.
pub const COLUMNS: [Column; 7] = [
    ("Format", "Format", ErrorType::Format),
    ("Scale", "Scale", ErrorType::Scale),
    ("Swapped", "Swapped", ErrorType::Swapped),
    ("Near miss", "Near miss", ErrorType::NearMiss),
    ("Wrong", "Wrong", ErrorType::Wrong),
    ("Missed", "Missed", ErrorType::Missed),
    ("Spurious", "Spurious", ErrorType::Spurious),
];

/// The CSV columns added to each per-field row: the five error types that
/// split `partial` + `incorrect` (`missed` and `spurious` are the row's
/// columns of those names already).
pub const CSV_HEADER: [(&str, ErrorType); 5] = [
    ("error_format", ErrorType::Format),
    ("error_scale", ErrorType::Scale),
    ("error_swapped", ErrorType::Swapped),
    ("error_near_miss", ErrorType::NearMiss),
    ("error_wrong", ErrorType::Wrong),
];

/// One cell per [`COLUMNS`] entry.
pub fn cells(errors: &ErrorCounts, options: &ExportOptions) -> Vec<String> {
    COLUMNS
        .iter()
        .map(|&(_, _, e)| Number::Count(errors.get(e)).format(options))
        .collect()
}

/// The model table's rows: (model name, its cells).
pub fn model_rows(report: &Report, options: &ExportOptions) -> Vec<(String, Vec<String>)> {
    report
        .models
        .iter()
        .map(|m| (m.name.clone(), cells(&m.errors, options)))
        .collect()
}

/// The field table's rows — (model, field, its cells) for every row of
/// each model's per-field table — only when the report has document
/// details (`--details`); `None` otherwise.
pub fn field_rows(
    report: &Report,
    options: &ExportOptions,
) -> Option<Vec<(String, String, Vec<String>)>> {
    if report.models.iter().all(|m| m.document_details.is_none()) {
        return None;
    }
    Some(
        report
            .models
            .iter()
            .flat_map(|m| {
                m.fields
                    .iter()
                    .map(|f| (m.name.clone(), f.field.clone(), cells(&f.errors, options)))
            })
            .collect(),
    )
}

/// What the model table shows, in words (plain text; each exporter
/// escapes it).
pub fn caption(report: &Report) -> String {
    format!(
        "Where it fails (SPEC §9.1): every value that is not exact, by error type, the first that holds. \
         Format = the same value in another number or date convention, or the same letters and digits; \
         Scale = off by a power of ten, from 10 to 1,000,000 either way; \
         Swapped = the true value of another field of the document (or of the item); \
         Near miss = string similarity at least {}; Wrong = otherwise; \
         Missed = no value where the truth has one; Spurious = a value where the truth has none.",
        report.config.errors.near_miss
    )
}

/// The field table's caption (plain text).
pub const FIELD_CAPTION: &str = "Error types per field (SPEC §9.1), counted as in the table above.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_follow_the_report_keys() {
        let names: Vec<&str> = COLUMNS.iter().map(|c| c.2.name()).collect();
        assert_eq!(names, ErrorType::ALL.map(ErrorType::name));
        let e = ErrorCounts {
            format: 1,
            scale: 2,
            swapped: 3,
            near_miss: 4,
            wrong: 5,
            missed: 6,
            spurious: 7,
        };
        assert_eq!(
            cells(&e, &ExportOptions::default()),
            ["1", "2", "3", "4", "5", "6", "7"]
        );
    }
}
