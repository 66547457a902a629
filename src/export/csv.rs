//! CSV export: the per-field table, one row per model × field.
//!
//! Owns: the CSV layout — the header `model,field,exact,partial,incorrect,
//! missed,spurious,true_negative,precision,recall,f1,accuracy,cer,mean_cer`
//! then the error types of SPEC §9.1 (`error_format`, `error_scale`,
//! `error_swapped`, `error_near_miss`, `error_wrong`: `export::errors`), and,
//! when some model has confidences, [`CONFIDENCE_HEADER`]'s columns,
//! numbers at full precision (the shortest text that reads back as the same
//! `f64`), `null` as an empty cell — and [`neutralise`], the one escaper,
//! which defuses spreadsheet formulas in untrusted text. Quoting is the
//! `csv` crate's. [`ExportOptions`] is ignored: CSV is for further
//! computation, so nothing is rounded.
//!
//! With SPEC §9.2's slices, a second table ([`SLICES_HEADER`]) follows
//! after one empty line.
//!
//! Depends on: `crate::eval::report` only.

use super::ExportOptions;
use crate::eval::report::{FieldReport, Report};
use std::borrow::Cow;

/// The header row.
pub const HEADER: [&str; 14] = [
    "model",
    "field",
    "exact",
    "partial",
    "incorrect",
    "missed",
    "spurious",
    "true_negative",
    "precision",
    "recall",
    "f1",
    "accuracy",
    "cer",
    "mean_cer",
];

/// The per-field table of every model as CSV (LF line ends, quotes only
/// where needed).
pub fn render(report: &Report, _options: &ExportOptions) -> String {
    let mut text = to_text(|w| write(w, report));
    if let Some(slices) = &report.slices {
        // SPEC §9.2: a second table after one empty line.
        text.push('\n');
        text.push_str(&to_text(|w| write_slices(w, slices)));
    }
    text
}

/// One CSV table written into a string.
fn to_text(table: impl FnOnce(&mut ::csv::Writer<Vec<u8>>) -> ::csv::Result<()>) -> String {
    let mut writer = ::csv::Writer::from_writer(Vec::new());
    table(&mut writer).expect("writing CSV to memory cannot fail");
    let bytes = writer
        .into_inner()
        .expect("flushing CSV to memory cannot fail");
    String::from_utf8(bytes).expect("CSV built from strings is UTF-8")
}

/// The header of the slices table (SPEC §9.2), which follows the per-field
/// table after one empty line when the report has slices: every slice of
/// every model (the weak ones first, as in the report), `weak` as
/// `true`/`false`, `null` as an empty cell.
pub const SLICES_HEADER: [&str; 12] = [
    "model",
    "key",
    "value",
    "documents",
    "precision",
    "recall",
    "f1",
    "accuracy",
    "delta",
    "p_value",
    "p_holm",
    "weak",
];

fn write_slices(
    writer: &mut ::csv::Writer<Vec<u8>>,
    slices: &crate::eval::report::SlicesReport,
) -> ::csv::Result<()> {
    writer.write_record(SLICES_HEADER)?;
    for model in &slices.models {
        let name = neutralise(&model.name);
        for r in &model.slices {
            let value = super::slices::value_text(&r.value);
            let cells: [Cow<'_, str>; 12] = [
                name.clone(),
                neutralise(&r.key),
                // A number is written as it is (never a formula).
                if r.value.is_number() {
                    Cow::Owned(value)
                } else {
                    Cow::Owned(neutralise(&value).into_owned())
                },
                number(r.documents),
                number(r.micro.precision),
                number(r.micro.recall),
                number(r.micro.f1),
                number(r.micro.accuracy),
                optional(r.delta),
                optional(r.p_value),
                optional(r.p_holm),
                number(r.weak),
            ];
            writer.write_record(cells.iter().map(|cell| cell.as_bytes()))?;
        }
    }
    Ok(())
}

/// The columns added when some model has confidences (SPEC §8.4: the
/// field's pairs and scores, and its recommended threshold with its
/// coverage); empty cells for a field without pairs.
pub const CONFIDENCE_HEADER: [&str; 7] = [
    "confidence_pairs",
    "confidence_accuracy",
    "mean_confidence",
    "confidence_ece",
    "confidence_auroc",
    "recommended_threshold",
    "threshold_coverage",
];

fn write(writer: &mut ::csv::Writer<Vec<u8>>, report: &Report) -> ::csv::Result<()> {
    let confidence = report.models.iter().any(|m| m.confidence.is_some());
    let mut header: Vec<&str> = HEADER.to_vec();
    header.extend(super::errors::CSV_HEADER.map(|(name, _)| name));
    if confidence {
        header.extend(CONFIDENCE_HEADER);
    }
    writer.write_record(header)?;
    for model in &report.models {
        let name = neutralise(&model.name);
        for field in &model.fields {
            let mut cells: Vec<Cow<'_, str>> = row(&name, field).into();
            cells.extend(
                super::errors::CSV_HEADER
                    .iter()
                    .map(|&(_, e)| number(field.errors.get(e))),
            );
            if confidence {
                let f = model
                    .confidence
                    .as_ref()
                    .and_then(|c| c.fields.get(&field.field));
                cells.extend(match f {
                    Some(f) => [
                        number(f.pairs),
                        number(f.accuracy),
                        number(f.mean_confidence),
                        number(f.ece),
                        optional(f.auroc),
                        optional(f.recommended_threshold),
                        number(f.coverage),
                    ],
                    None => std::array::from_fn(|_| Cow::Borrowed("")),
                });
            }
            writer.write_record(cells.iter().map(|cell| cell.as_bytes()))?;
        }
    }
    Ok(())
}

/// One row: the two text cells neutralised, the numbers written as they
/// are (a number we write is never mistaken for a formula, even when it is
/// negative).
fn row<'a>(model: &'a str, field: &'a FieldReport) -> [Cow<'a, str>; 14] {
    let counts = &field.counts;
    [
        Cow::Borrowed(model),
        neutralise(&field.field),
        number(counts.exact),
        number(counts.partial),
        number(counts.incorrect),
        number(counts.missed),
        number(counts.spurious),
        number(counts.true_negative),
        number(field.precision),
        number(field.recall),
        number(field.f1),
        number(field.accuracy),
        optional(field.cer),
        optional(field.mean_cer),
    ]
}

/// The number formatter: Rust's `{}`, which for `f64` is the shortest text
/// that reads back as the same value (`1`, `0.6666666666666666`, `-0.25`)
/// and for counts the integer.
fn number(x: impl std::fmt::Display) -> Cow<'static, str> {
    Cow::Owned(format!("{x}"))
}

/// A `null` is an empty cell.
fn optional(x: Option<f64>) -> Cow<'static, str> {
    x.map_or(Cow::Borrowed(""), number)
}

/// Defuses formula injection in untrusted text: a cell that starts with
/// `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a
/// spreadsheet shows it as text instead of evaluating it. Everything else
/// is returned as is (quoting is the CSV writer's job).
pub fn neutralise(text: &str) -> Cow<'_, str> {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => Cow::Owned(format!("'{text}")),
        _ => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_starters_get_a_quote() {
        assert_eq!(neutralise("=cmd()"), "'=cmd()");
        assert_eq!(neutralise("+1"), "'+1");
        assert_eq!(neutralise("-1+2"), "'-1+2");
        assert_eq!(neutralise("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(neutralise("\tx"), "'\tx");
        assert_eq!(neutralise("\rx"), "'\rx");
    }

    #[test]
    fn other_text_is_unchanged() {
        assert_eq!(neutralise("total"), "total");
        assert_eq!(neutralise("a=b"), "a=b");
        assert_eq!(neutralise(""), "");
        assert_eq!(neutralise(" =x"), " =x");
        assert!(matches!(neutralise("items[].price"), Cow::Borrowed(_)));
    }

    #[test]
    fn numbers_are_full_precision_and_never_neutralised() {
        assert_eq!(number(1.0), "1");
        assert_eq!(number(2.0 / 3.0), "0.6666666666666666");
        assert_eq!(number(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(number(-0.25), "-0.25");
        assert_eq!(number(12u64), "12");
        assert_eq!(optional(None), "");
        assert_eq!(optional(Some(0.5)), "0.5");
    }

    #[test]
    fn a_negative_number_cell_stays_a_number() {
        let field = FieldReport {
            field: "-delta".to_string(),
            counts: Default::default(),
            errors: Default::default(),
            precision: -0.5,
            recall: 0.0,
            f1: 0.0,
            accuracy: 0.0,
            cer: Some(-1.0),
            mean_cer: None,
        };
        let cells = row("m", &field);
        assert_eq!(cells[1], "'-delta");
        assert_eq!(cells[8], "-0.5");
        assert_eq!(cells[12], "-1");
        assert_eq!(cells[13], "");
    }
}
