//! Unit tests of `export`: number printing, the best of a column, format
//! names and the text export the app sends to its worker.

use super::*;
use crate::error::ErrorKind;

/// What the export worker renders from the page's JSON request (the
/// report without its document details) is what the CLI renders from
/// the report itself, in every format, the literature metrics included.
#[test]
fn a_text_export_sent_as_json_renders_as_the_report_itself() {
    let mut session = crate::session::Session::example();
    session.compute_validity_now();
    let mut report = session.evaluate().unwrap();
    let (input, config) = session.inputs().unwrap();
    let models = input.models.into_iter().map(|m| (m.name, m.file)).collect();
    let (literature, _) = crate::eval::literature::evaluate(
        input.truth,
        models,
        config.id_field.as_deref(),
        crate::eval::literature::Metrics::ALL,
        false,
    )
    .unwrap();
    for (m, l) in report.models.iter_mut().zip(literature) {
        m.literature = Some(l);
    }
    let include = HtmlInclude {
        charts: true,
        inputs: Some(session.to_bundle()),
        types: None,
    };
    let options = ExportOptions::default();
    assert!(report.models.iter().all(|m| m.document_details.is_some()));
    // What the CLI writes without --details.
    let mut plain = report.clone();
    for m in &mut plain.models {
        m.document_details = None;
    }
    for format in Format::ALL {
        let direct = match format {
            Format::Html => render_html(&plain, &options, &include),
            _ => render(&plain, format, &options),
        };
        let request = TextExport::new(format, &report, include.clone());
        assert!(request
            .report
            .models
            .iter()
            .all(|m| m.document_details.is_none()));
        let json = serde_json::to_string(&request).unwrap();
        if format != Format::Json {
            assert_eq!(TextExport::render_json(&json).unwrap(), direct, "{format}");
        }
    }
    assert!(TextExport::render_json("{}")
        .unwrap_err()
        .starts_with("the export request is not readable: "));
    let unknown = TextExport {
        format: "docx".into(),
        report,
        include: HtmlInclude::default(),
    };
    assert_eq!(
        TextExport::render_json(&serde_json::to_string(&unknown).unwrap()).unwrap_err(),
        "unknown format `docx`; expected one of: json, markdown, latex, csv, html"
    );
}

fn f(number: Number) -> String {
    number.format(&ExportOptions::default())
}

#[test]
fn ratio_has_fixed_decimals() {
    assert_eq!(f(Number::Ratio(0.666666)), "0.6667");
    assert_eq!(f(Number::Ratio(2.0 / 3.0)), "0.6667");
    assert_eq!(f(Number::Ratio(1.0)), "1.0000");
    assert_eq!(f(Number::Ratio(0.0)), "0.0000");
    assert_eq!(f(Number::Ratio(6.0 / 11.0)), "0.5455");
    let two = ExportOptions { decimals: 2 };
    assert_eq!(Number::Ratio(0.125).format(&two), "0.12"); // ties to even on the exact value
    assert_eq!(
        Number::Ratio(0.5).format(&ExportOptions { decimals: 0 }),
        "0"
    );
}

#[test]
fn ratio_never_prints_negative_zero() {
    assert_eq!(f(Number::Ratio(-0.0)), "0.0000");
    assert_eq!(f(Number::Ratio(-0.00001)), "0.0000");
    assert_eq!(f(Number::Ratio(-0.5)), "-0.5000");
}

#[test]
fn credit_is_trimmed_but_keeps_one_decimal() {
    assert_eq!(f(Number::Credit(12.5)), "12.5");
    assert_eq!(f(Number::Credit(12.0)), "12.0");
    assert_eq!(f(Number::Credit(0.0)), "0.0");
    assert_eq!(f(Number::Credit(1234.25)), "1234.25");
    assert_eq!(
        Number::Credit(12.5).format(&ExportOptions { decimals: 0 }),
        "12.5"
    );
}

#[test]
fn count_is_an_integer() {
    assert_eq!(f(Number::Count(0)), "0");
    assert_eq!(f(Number::Count(12345)), "12345");
}

#[test]
fn cost_has_at_most_four_decimals_trimmed() {
    assert_eq!(f(Number::Cost(0.0123)), "0.0123");
    assert_eq!(f(Number::Cost(1.5)), "1.5");
    assert_eq!(f(Number::Cost(2.0)), "2.0");
    assert_eq!(f(Number::Cost(0.0)), "0.0");
    assert_eq!(f(Number::Cost(0.123456)), "0.1235");
    // Decimals of the ratios do not change the cost.
    assert_eq!(
        Number::Cost(0.0123).format(&ExportOptions { decimals: 2 }),
        "0.0123"
    );
}

#[test]
fn tiny_cost_gets_two_significant_digits() {
    assert_eq!(f(Number::Cost(0.00004)), "0.00004");
    assert_eq!(f(Number::Cost(0.000041234)), "0.000041");
    assert_eq!(f(Number::Cost(0.0000001)), "0.0000001");
    // 0.00005 rounds to 0.0001 at four decimals: no fallback needed.
    assert_eq!(f(Number::Cost(0.00006)), "0.0001");
}

#[test]
fn non_finite_numbers_print_as_rust_does() {
    assert_eq!(f(Number::Ratio(f64::NAN)), "NaN");
    assert_eq!(f(Number::Credit(f64::INFINITY)), "inf");
    assert_eq!(f(Number::Cost(f64::NEG_INFINITY)), "-inf");
}

#[test]
fn best_of_marks_highest_and_all_ties() {
    let values = [Some(0.5), Some(0.8), Some(0.8), Some(0.1)];
    assert_eq!(best_of(&values, Best::Highest), [false, true, true, false]);
    assert_eq!(best_of(&values, Best::Lowest), [false, false, false, true]);
}

#[test]
fn best_of_all_equal_marks_all() {
    assert_eq!(
        best_of(&[Some(1.0), Some(1.0)], Best::Highest),
        [true, true]
    );
}

#[test]
fn best_of_skips_missing_and_needs_two_values() {
    assert_eq!(best_of(&[Some(0.3)], Best::Highest), [false]);
    assert_eq!(best_of(&[], Best::Highest), Vec::<bool>::new());
    assert_eq!(
        best_of(&[None, Some(2.0), None], Best::Lowest),
        [false, false, false]
    );
    assert_eq!(
        best_of(&[None, Some(2.0), Some(1.5)], Best::Lowest),
        [false, false, true]
    );
    assert_eq!(
        best_of(&[Some(f64::NAN), Some(0.2), Some(0.1)], Best::Highest),
        [false, true, false]
    );
}

#[test]
fn best_of_printed_values_ties_what_reads_the_same() {
    let options = ExportOptions::default();
    let printed: Vec<Option<f64>> = [0.66671, 0.66669, 0.5]
        .iter()
        .map(|&x| Number::Ratio(x).format(&options).parse().ok())
        .collect();
    assert_eq!(best_of(&printed, Best::Highest), [true, true, false]);
}

#[test]
fn format_names_round_trip() {
    for format in Format::ALL {
        assert_eq!(format.name().parse::<Format>().unwrap(), format);
        assert_eq!(format.to_string(), format.name());
    }
    assert_eq!(" LaTeX ".parse::<Format>().unwrap(), Format::Latex);
}

#[test]
fn unknown_format_lists_accepted_names() {
    let err = "html5".parse::<Format>().unwrap_err();
    assert_eq!(err.kind, ErrorKind::Usage);
    assert_eq!(
        err.to_string(),
        "unknown format `html5`; expected one of: json, markdown, latex, csv, html"
    );
}
