//! Golden (snapshot) tests of the exporters: hand-built reports rendered in
//! every format and compared with the files in `tests/golden/`.
//!
//! `UPDATE_GOLDEN=1 cargo test exporters` rewrites the golden files instead
//! of comparing; read the diff before committing it.

use fieldscope::eval::config::{Config, MacroF1, Preset};
use fieldscope::eval::rates::RATES;
use fieldscope::eval::report::{
    Counts, ErrorCounts, FieldAverage, FieldReport, ItemsReport, ModelReport, PartialScores, Rates,
    Report, Scores,
};
use fieldscope::export::{self, ExportOptions, Format};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Compares `actual` with `tests/golden/NAME`, or writes it there when
/// `UPDATE_GOLDEN` is set.
pub fn check_golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if super::common::update_golden() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; run with UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from the rendered output, first at line {}:\n  golden: {:?}\n  actual: {:?}\n\
             (run with UPDATE_GOLDEN=1 to accept the new output)",
            path.display(),
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line),
        );
    }
}

pub fn counts(
    exact: u64,
    partial: u64,
    incorrect: u64,
    missed: u64,
    spurious: u64,
    tn: u64,
) -> Counts {
    Counts {
        exact,
        partial,
        incorrect,
        missed,
        spurious,
        true_negative: tn,
    }
}

/// Strict micro scores from counts (SPEC §3.1, with `zero_division` = 0),
/// so the fixtures are consistent with their counts. `fp_only`: the M0
/// convention `incorrect_counts_as: ["fp"]`, else `["fp","fn"]`.
fn micro(c: Counts, fp_only: bool) -> Scores {
    let tp = c.exact as f64;
    let fp = (c.incorrect + c.partial + c.spurious) as f64;
    let fn_ = if fp_only {
        c.missed
    } else {
        c.missed + c.incorrect + c.partial
    } as f64;
    let n = (c.exact + c.partial + c.incorrect + c.missed + c.spurious + c.true_negative) as f64;
    let p = ratio(tp, tp + fp);
    let r = ratio(tp, tp + fn_);
    Scores {
        precision: p,
        recall: r,
        f1: harmonic(p, r),
        accuracy: ratio(tp + c.true_negative as f64, n),
    }
}

/// `a / b`, and `zero_division` = 0 when `b` is 0.
fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        0.0
    } else {
        a / b
    }
}

fn harmonic(p: f64, r: f64) -> f64 {
    if p + r == 0.0 {
        0.0
    } else {
        2.0 * p * r / (p + r)
    }
}

/// Error types (SPEC §9.1) consistent with counts `c`: partial values are
/// near misses, incorrect ones half scale (rounded down), half wrong.
pub fn errors_of(c: Counts) -> ErrorCounts {
    ErrorCounts {
        format: 0,
        scale: c.incorrect / 2,
        swapped: 0,
        near_miss: c.partial,
        wrong: c.incorrect - c.incorrect / 2,
        missed: c.missed,
        spurious: c.spurious,
    }
}

pub fn field(name: &str, c: Counts, cer: Option<f64>, mean_cer: Option<f64>) -> FieldReport {
    let s = micro(c, false);
    FieldReport {
        field: name.to_string(),
        counts: c,
        errors: errors_of(c),
        precision: s.precision,
        recall: s.recall,
        f1: s.f1,
        accuracy: s.accuracy,
        cer,
        mean_cer,
    }
}

/// A model whose totals (|Truth|, |Pred|, M_total, micro) follow from
/// `c` under the `["fp","fn"]` convention; the macro-over-documents scores
/// are given (F1 is filled in as the harmonic mean of P and R when
/// `macro_f1` is `None`).
pub fn model(
    name: &str,
    cost: Option<f64>,
    c: Counts,
    macro_pra: (f64, f64, f64),
    macro_f1: Option<f64>,
    fields: Vec<FieldReport>,
) -> ModelReport {
    let (p, r, accuracy) = macro_pra;
    ModelReport {
        name: name.to_string(),
        cost,
        counts: c,
        errors: errors_of(c),
        truth_count: c.exact + c.partial + c.incorrect + c.missed,
        pred_count: c.exact + c.partial + c.incorrect + c.spurious,
        m_total: c.exact as f64 + 0.5 * c.partial as f64,
        micro: micro(c, false),
        macro_documents: Scores {
            precision: p,
            recall: r,
            f1: macro_f1.unwrap_or_else(|| harmonic(p, r)),
            accuracy,
        },
        macro_fields: FieldAverage::default(),
        weighted_fields: None,
        partial: PartialScores::default(),
        rates: Rates::from_pairs(RATES.map(|r| (r.key.to_string(), 0.0))),
        numeric_precision: None,
        field_f1_partial: 0.0,
        schema_validity_rate: 1.0,
        exact_match_rate: 0.0,
        document_extraction_score: 0.0,
        cer: None,
        fields,
        sets: BTreeMap::new(),
        items: None,
        confidence: None,
        document_details: None,
        literature: None,
        document_tallies: None,
        exact_if_valid: None,
    }
}

/// Three models on 12 documents (40 present truth values: 12 `invoice_id`,
/// 12 `total`, 16 `items[].price`; each model's field rows add up to its
/// counts): a tie on M_total (32.5) and on macro precision (0.8125), a
/// missing cost, and names full of Markdown, HTML, LaTeX and spreadsheet
/// metacharacters.
fn three_models() -> Report {
    let hostile_md = "extractor_v2 | *beta* & <script>alert('x')</script>";
    let hostile_tex = "=cmd() \\input{x} {50% of $5} #1 ^~ [draft]";
    Report {
        fieldscope_report: 1,
        suspected_truth_errors: Vec::new(),
        suggestions: Vec::new(),
        config: Config::default(),
        warnings: vec![
            "3 prediction ids matched only after removing a file extension (`doc_001.jpg` = `doc_001`)"
                .to_string(),
            "duplicate id \"#7\" in preds_*v2*.jsonl:\nthe first record wins".to_string(),
            "- a warning that <b>looks</b> like a list & a 50% \\cite{x}".to_string(),
        ],
        documents: 12,
        models: vec![
            model(
                hostile_md,
                Some(0.0123),
                counts(30, 5, 2, 3, 2, 8),
                (0.8125, 0.7708333333333334, 0.78),
                None,
                vec![
                    field("invoice_id", counts(10, 2, 0, 0, 0, 0), Some(0.05), Some(0.0625)),
                    field("total", counts(8, 0, 2, 2, 0, 0), Some(0.2), Some(0.1875)),
                    field("items[].price", counts(12, 3, 0, 1, 0, 8), Some(1.0 / 3.0), None),
                    field("-notes", counts(0, 0, 0, 0, 2, 0), None, None),
                ],
            ),
            model(
                hostile_tex,
                Some(1.5),
                counts(31, 3, 4, 2, 4, 6),
                (0.8125, 0.8, 0.76),
                None,
                vec![
                    field("invoice_id", counts(11, 1, 0, 0, 0, 0), Some(0.0), Some(0.0)),
                    field("total", counts(7, 0, 4, 1, 1, 0), Some(0.25), Some(0.2)),
                    field("items[].price", counts(13, 2, 0, 1, 3, 6), Some(0.125), Some(0.1)),
                ],
            ),
            model(
                "baseline",
                None,
                counts(20, 0, 2, 18, 0, 10),
                (0.9375, 0.5, 0.65),
                None,
                vec![
                    field("invoice_id", counts(12, 0, 0, 0, 0, 0), Some(0.0), Some(0.0)),
                    field("total", counts(2, 0, 2, 8, 0, 0), Some(0.75), Some(0.75)),
                    field("items[].price", counts(6, 0, 0, 10, 0, 10), Some(0.625), None),
                ],
            ),
        ],
        bootstrap: None,
        comparison: None,
        slices: None,
    }
}

/// SPEC §6 example 1 (M0, conservative model: 17 fields, 8 present; 3
/// right, 2 wrong, 3 left empty, NOT_FOUND on the 9 absent ones) on one
/// document under preset `not-found` (`incorrect_counts_as: ["fp"]`), with
/// `macro_f1: "mean"`, a tiny cost and no warnings. Expected: accuracy
/// 12/17 = 0.7059, precision 3/5 = 0.6, recall 3/6 = 0.5, F1 = 0.5455.
fn single_model() -> Report {
    let c = counts(3, 0, 2, 3, 0, 9);
    let mut m = model(
        "Señor_GPT ~ v1 -- 1. [test]",
        Some(0.00004),
        c,
        (0.6, 0.5, 12.0 / 17.0),
        Some(6.0 / 11.0),
        vec![field(
            "@vendor",
            counts(1, 0, 0, 0, 0, 0),
            Some(0.0),
            Some(0.0),
        )],
    );
    m.micro = micro(c, true);
    m.items = Some(ItemsReport {
        precision: 1.0,
        recall: 0.5,
        f1: 2.0 / 3.0,
        item_count_accuracy: 0.0,
        item_count_match_rate: 1.0,
        recognised: 1,
        truth_items: 2,
        pred_items: 1,
    });
    Report {
        fieldscope_report: 1,
        suspected_truth_errors: Vec::new(),
        suggestions: Vec::new(),
        config: Config {
            macro_f1: MacroF1::Mean,
            ..Config::preset(Preset::NotFound)
        },
        warnings: vec![],
        documents: 1,
        models: vec![m],
        bootstrap: None,
        comparison: None,
        slices: None,
    }
}

/// A report of no documents and no models, with the default config.
pub fn empty() -> Report {
    Report {
        fieldscope_report: 1,
        suspected_truth_errors: Vec::new(),
        suggestions: Vec::new(),
        config: Config::default(),
        warnings: vec![],
        documents: 0,
        models: vec![],
        bootstrap: None,
        comparison: None,
        slices: None,
    }
}

fn check_all_formats(name: &str, report: &Report, options: &ExportOptions) {
    for format in Format::ALL {
        let text = export::render(report, format, options);
        assert!(text.ends_with('\n'), "{format} output ends with a newline");
        check_golden(&format!("{name}.{}", format.extension()), &text);
    }
}

#[test]
fn three_models_golden() {
    check_all_formats("three_models", &three_models(), &ExportOptions::default());
}

#[test]
fn single_model_golden_with_three_decimals() {
    check_all_formats(
        "single_model",
        &single_model(),
        &ExportOptions { decimals: 3 },
    );
}

#[test]
fn empty_report_golden() {
    check_all_formats("empty", &empty(), &ExportOptions::default());
}

#[test]
fn dispatch_matches_each_module() {
    let report = three_models();
    let options = ExportOptions::default();
    assert_eq!(
        export::render(&report, Format::Json, &options),
        export::json::render(&report, &options)
    );
    assert_eq!(
        export::render(&report, Format::Markdown, &options),
        export::markdown::render(&report, &options)
    );
    assert_eq!(
        export::render(&report, Format::Latex, &options),
        export::latex::render(&report, &options)
    );
    assert_eq!(
        export::render(&report, Format::Csv, &options),
        export::csv::render(&report, &options)
    );
    assert_eq!(
        export::render(&report, Format::Html, &options),
        export::render_html(&report, &options, &export::HtmlInclude::default())
    );
}

#[test]
fn json_round_trips_unrounded() {
    let report = three_models();
    let text = export::json::render(&report, &ExportOptions { decimals: 1 });
    let back: Report = serde_json::from_str(&text).unwrap();
    assert_eq!(back, report);
    assert!(text.contains("0.7708333333333334"));
}

#[test]
fn markdown_header_is_exact() {
    let text = export::markdown::render(&three_models(), &ExportOptions::default());
    assert!(text.lines().any(
        |l| l == r"| Model | M_total | \|Pred\| | \|Truth\| | Precision | Recall | F1 | Cost |"
    ));
    assert!(text
        .lines()
        .any(|l| l == "| Model | Precision | Recall | F1 | Accuracy |"));
}

#[test]
fn markdown_rows_have_as_many_cells_as_the_header() {
    // Every unescaped `|` is a cell border: a name with `|` must not add one.
    let text = export::markdown::render(&three_models(), &ExportOptions::default());
    let widths: Vec<usize> = text
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(cell_borders)
        .collect();
    // The comparison table, the micro table, the error types (SPEC §9.1).
    assert_eq!(widths, [9, 9, 9, 9, 9, 6, 6, 6, 6, 6, 9, 9, 9, 9, 9]);
}

#[test]
fn csv_reads_back_with_the_same_numbers_and_neutralised_text() {
    let report = three_models();
    let text = export::csv::render(&report, &ExportOptions::default());
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut header = export::csv::HEADER.to_vec();
    header.extend(export::errors::CSV_HEADER.map(|(name, _)| name));
    assert_eq!(reader.headers().unwrap().iter().collect::<Vec<_>>(), header);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let fields: usize = report.models.iter().map(|m| m.fields.len()).sum();
    assert_eq!(rows.len(), fields);
    let mut row = rows.iter();
    for model in &report.models {
        for field in &model.fields {
            let cells = row.next().unwrap();
            assert_eq!(&cells[0], export::csv::neutralise(&model.name));
            assert_eq!(&cells[1], export::csv::neutralise(&field.field));
            assert_eq!(cells[8].parse::<f64>().unwrap(), field.precision);
            assert_eq!(cells[10].parse::<f64>().unwrap(), field.f1);
            assert_eq!(cells[12].parse::<f64>().ok(), field.cer);
            assert_eq!(cells[13].parse::<f64>().ok(), field.mean_cer);
            // SPEC §9.1: format, scale, swapped, near miss, wrong.
            let errors: Vec<u64> = (14..19).map(|i| cells[i].parse().unwrap()).collect();
            let e = field.errors;
            assert_eq!(errors, [e.format, e.scale, e.swapped, e.near_miss, e.wrong]);
        }
    }
}

/// A one-model, one-field report with the given names.
fn named(model_name: &str, field_name: &str) -> Report {
    let c = counts(1, 0, 1, 0, 0, 1);
    Report {
        models: vec![model(
            model_name,
            Some(0.5),
            c,
            (0.5, 0.5, 0.5),
            None,
            vec![field(field_name, c, Some(0.5), None)],
        )],
        ..empty()
    }
}

/// Unescaped `|` in a Markdown table line: the cell borders.
fn cell_borders(line: &str) -> usize {
    let bytes = line.as_bytes();
    (0..bytes.len())
        .filter(|&i| {
            let backslashes = bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count();
            bytes[i] == b'|' && backslashes % 2 == 0
        })
        .count()
}

proptest::proptest! {
    #[test]
    fn csv_text_cells_read_back_neutralised(
        model_name in proptest::prelude::any::<String>(),
        field_name in "[=+@\\-\t\r\n\",; a-z]{0,12}",
    ) {
        let text = export::csv::render(&named(&model_name, &field_name), &ExportOptions::default());
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        proptest::prop_assert_eq!(rows.len(), 1);
        let (model_cell, field_cell) = (export::csv::neutralise(&model_name), export::csv::neutralise(&field_name));
        proptest::prop_assert_eq!(&rows[0][0], model_cell.as_ref());
        proptest::prop_assert_eq!(&rows[0][1], field_cell.as_ref());
        proptest::prop_assert_eq!(&rows[0][8], "0.5");
    }

    #[test]
    fn markdown_rows_keep_their_cells_whatever_the_name(
        model_name in "[|\\\\`*_<>&\n\r a-z-]{0,16}",
    ) {
        let text = export::markdown::render(&named(&model_name, "f"), &ExportOptions::default());
        let widths: Vec<usize> = text.lines().filter(|l| l.starts_with('|')).map(cell_borders).collect();
        proptest::prop_assert_eq!(widths, vec![9, 9, 9, 6, 6, 6, 9, 9, 9]);
    }
}

#[test]
fn latex_bolds_every_tied_best_and_ranks_no_missing_cost() {
    let tex = export::latex::render(&three_models(), &ExportOptions::default());
    assert_eq!(tex.matches(r"\textbf{32.5}").count(), 2, "M_total tie");
    assert_eq!(tex.matches(r"\textbf{0.0123}").count(), 1, "lowest cost");
    assert!(
        !tex.contains(r"\textbf{39}") && !tex.contains(r"\textbf{40}"),
        "counts unranked"
    );
    assert!(
        tex.contains(r"& --- \\"),
        "missing cost is a dash, not bold"
    );
}

#[test]
fn latex_bolds_nothing_for_one_model() {
    let tex = export::latex::render(&single_model(), &ExportOptions::default());
    assert!(!tex.contains(r"\textbf"));
    assert!(!tex.contains("Bold:"));
}
