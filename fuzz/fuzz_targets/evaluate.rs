//! A whole evaluation over arbitrary small documents, as the CLI runs it:
//! each file through `io::parse_docs`, an optional metrics config through
//! `ConfigBuilder`, an optional schema, then `eval::evaluate_owned`, then
//! every export format and every chart.
//!
//! Input layout: the first byte chooses the file names (hence formats) and
//! options; the rest is split at 0xFF bytes (never part of UTF-8, so each
//! part may still hold any other invalid byte) into truth, prediction 1,
//! prediction 2, config, schema.
//!
//! Invariants checked on every report: every ratio lies in [0, 1] (CER
//! and costs excepted), no number is NaN or infinite, and the JSON export
//! reads back as the same report (a NaN would be written as `null`).
#![no_main]

use fieldscope::charts::{self, ChartOptions};
use fieldscope::eval::report::{Report, Scores};
use fieldscope::eval::{evaluate_owned, ConfigBuilder, EvalInput, ModelInput};
use fieldscope::export::{render, ExportOptions, Format};
use fieldscope::io::{parse_docs, parse_json_value};
use libfuzzer_sys::fuzz_target;

const EXTENSIONS: [&str; 4] = ["jsonl", "json", "csv", "txt"];

fn unit(what: &str, v: f64) {
    assert!(
        (0.0..=1.0).contains(&v),
        "{what} = {v}, expected within [0, 1]"
    );
}

fn finite(what: &str, v: f64) {
    assert!(
        v.is_finite() && v >= 0.0,
        "{what} = {v}, expected finite and >= 0"
    );
}

fn scores(what: &str, s: &Scores) {
    unit(&format!("{what}.precision"), s.precision);
    unit(&format!("{what}.recall"), s.recall);
    unit(&format!("{what}.f1"), s.f1);
    unit(&format!("{what}.accuracy"), s.accuracy);
}

fn check(report: &Report) {
    for m in &report.models {
        scores("micro", &m.micro);
        scores("macro_documents", &m.macro_documents);
        let f = &m.macro_fields;
        for (k, v) in [
            ("p", f.precision),
            ("r", f.recall),
            ("f1", f.f1),
            ("a", f.accuracy),
        ] {
            unit(&format!("macro_fields.{k}"), v);
        }
        for (k, v) in [
            ("partial.precision", m.partial.precision),
            ("partial.recall", m.partial.recall),
            ("partial.f1", m.partial.f1),
            ("hallucination_rate", m.hallucination_rate),
            ("abstention_rate", m.abstention_rate),
            ("field_f1_partial", m.field_f1_partial),
            ("schema_validity_rate", m.schema_validity_rate),
            ("exact_match_rate", m.exact_match_rate),
            ("document_extraction_score", m.document_extraction_score),
        ] {
            unit(k, v);
        }
        if let Some(v) = m.numeric_precision {
            unit("numeric_precision", v);
        }
        finite("m_total", m.m_total);
        if let Some(v) = m.cer {
            finite("cer", v);
        }
        if let Some(v) = m.cost {
            assert!(v.is_finite(), "cost {v}");
        }
        for fr in &m.fields {
            let w = &fr.field;
            for (k, v) in [
                ("p", fr.precision),
                ("r", fr.recall),
                ("f1", fr.f1),
                ("a", fr.accuracy),
            ] {
                unit(&format!("field {w:?}.{k}"), v);
            }
            for v in [fr.cer, fr.mean_cer].into_iter().flatten() {
                finite(&format!("field {w:?} cer"), v);
            }
        }
        for (name, s) in &m.sets {
            for v in [s.precision, s.recall, s.f1, s.accuracy, s.legacy_accuracy] {
                unit(&format!("set {name:?}"), v);
            }
            for (k, v) in &s.hit_at_k {
                unit(&format!("set {name:?} hit@{k}"), *v);
            }
        }
        if let Some(i) = &m.items {
            for v in [
                i.precision,
                i.recall,
                i.f1,
                i.item_count_accuracy,
                i.item_count_match_rate,
            ] {
                unit("items", v);
            }
        }
        for d in m.document_details.iter().flatten() {
            for v in [d.precision, d.recall, d.f1, d.accuracy] {
                unit(&format!("document {:?}", d.id), v);
            }
            for fd in &d.fields {
                if let Some(v) = fd.similarity {
                    unit("similarity", v);
                }
                if let Some(v) = fd.cer {
                    finite("detail cer", v);
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut parts = rest.split(|&b| b == 0xFF);
    let truth_bytes = parts.next().unwrap_or_default();
    let pred_bytes = parts.next().unwrap_or_default();
    let pred2_bytes = parts.next();
    let config_bytes = parts.next();
    let schema_bytes = parts.next();
    let truth_name = format!("truth.{}", EXTENSIONS[usize::from(flags & 3)]);
    let pred_name = format!("pred.{}", EXTENSIONS[usize::from((flags >> 2) & 3)]);
    let details = flags & 0x10 != 0;

    let mut builder = ConfigBuilder::new();
    if let Some(bytes) = config_bytes.filter(|_| flags & 0x40 != 0) {
        let Ok(value) = parse_json_value("config.json", bytes) else {
            return;
        };
        let Ok(b) = builder.layer(&value) else {
            return;
        };
        builder = b;
    }
    let Ok(config) = builder.build() else {
        return;
    };
    let schema = match schema_bytes.filter(|_| flags & 0x80 != 0) {
        Some(bytes) => match parse_json_value("schema.json", bytes) {
            Ok(v) => Some(v),
            Err(_) => return,
        },
        None => None,
    };
    let Ok(truth) = parse_docs(&truth_name, truth_bytes) else {
        return;
    };
    let mut models = Vec::new();
    let Ok(file) = parse_docs(&pred_name, pred_bytes) else {
        return;
    };
    models.push(ModelInput::new("m1", file));
    if let Some(bytes) = pred2_bytes.filter(|_| flags & 0x20 != 0) {
        let Ok(file) = parse_docs("pred2.jsonl", bytes) else {
            return;
        };
        models.push(ModelInput::new("m2", file));
    }
    let input = EvalInput {
        truth,
        models,
        schema,
    };
    let Ok(report) = evaluate_owned(input, &config, details) else {
        return;
    };
    check(&report);
    let options = ExportOptions::default();
    for format in Format::ALL {
        let text = render(&report, format, &options);
        if format == Format::Json {
            let back: Report = serde_json::from_str(&text).expect("the JSON export reads back");
            assert_eq!(back, report, "JSON export round trip");
        }
    }
    for chart in charts::all(&report, &ChartOptions::default()) {
        assert!(chart.svg.starts_with("<svg"), "chart {}", chart.id);
    }
});
