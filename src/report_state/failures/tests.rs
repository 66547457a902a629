//! The "Where it fails" view's pure part, by hand: segments and their
//! shares, the weak slice's sentence, the picker's keys, the swapped
//! note, and the documents a segment or a slice keeps (on reports the
//! session computes from small files).

use super::*;
use crate::eval::report::{Outcome, Scores};
use crate::session::Session;
use serde_json::{json, Value};

fn row(key: &str, value: Value, documents: usize, f1: f64, delta: Option<f64>) -> SliceRow {
    SliceRow {
        key: key.to_string(),
        value,
        documents,
        micro: Scores {
            precision: f1,
            recall: f1,
            f1,
            accuracy: f1,
        },
        delta,
        p_value: delta.map(|_| 0.001),
        p_holm: delta.map(|_| 0.002),
        weak: delta.is_some(),
    }
}

/// A session's report (with details) of `truth` and one model `m`.
fn report_of(truth: &str, pred: &str, settings: Value) -> Report {
    let mut s = Session::default();
    s.add_file("truth.jsonl", truth.as_bytes().to_vec());
    s.add_file("m.jsonl", pred.as_bytes().to_vec());
    let Value::Object(map) = settings else {
        panic!("settings are an object")
    };
    s.settings = map;
    s.evaluate_with(true).expect("the files evaluate")
}

#[test]
fn segments_are_the_non_empty_types_with_their_shares() {
    // 2 format + 1 swapped + 1 wrong + 4 missed = 8 errors:
    // shares 2/8 = 0.25, 1/8 = 0.125, 1/8 = 0.125, 4/8 = 0.5.
    let errors = ErrorCounts {
        format: 2,
        scale: 0,
        swapped: 1,
        near_miss: 0,
        wrong: 1,
        missed: 4,
        spurious: 0,
    };
    let got: Vec<(ErrorType, u64, f64)> = segments(&errors)
        .into_iter()
        .map(|s| (s.error, s.count, s.share))
        .collect();
    assert_eq!(
        got,
        vec![
            (ErrorType::Format, 2, 0.25),
            (ErrorType::Swapped, 1, 0.125),
            (ErrorType::Wrong, 1, 0.125),
            (ErrorType::Missed, 4, 0.5),
        ]
    );
}

#[test]
fn a_bar_without_errors_has_no_segment() {
    assert!(segments(&ErrorCounts::default()).is_empty());
}

#[test]
fn a_weak_slice_is_explained_in_one_sentence() {
    // The issue's example: F1 0.62 in the slice, δ = 0.29, so the rest's
    // F1 is 0.62 + 0.29 = 0.91; p (Holm) = 0.002.
    let r = row("language", json!("de"), 38, 0.62, Some(0.29));
    assert_eq!(
        explain("good", &r).as_deref(),
        Some("on `language = de` (38 documents) good's F1 is 0.62 against 0.91 elsewhere; p = 0.002 after Holm")
    );
}

#[test]
fn untested_slices_have_no_sentence_and_small_p_reads_as_a_bound() {
    assert_eq!(explain("good", &row("k", json!(1), 3, 0.5, None)), None);
    // 1 / 1001, the least p of 1,000 resamples, still reads as 0.001.
    assert_eq!(p_text(1.0 / 1001.0), "p = 0.001");
    assert_eq!(p_text(0.0004), "p < 0.001");
    assert_eq!(p_text(0.0005), "p = 0.001");
    assert_eq!(p_text(0.049_95), "p = 0.050");
}

#[test]
fn slice_conditions_read_as_the_exports_read_values() {
    // A Unicode string bare, a quartile bin as [low, high], null as null,
    // one document in the singular.
    let r = row("Länder", json!("Ünïcødé"), 1, 0.0, Some(1.0));
    assert_eq!(
        explain("модель", &r).as_deref(),
        Some("on `Länder = Ünïcødé` (1 document) модель's F1 is 0.00 against 1.00 elsewhere; p = 0.002 after Holm")
    );
    assert_eq!(
        slice_condition(&row("_items", json!([1.0, 4.0]), 4, 1.0, None)),
        "_items = [1.0, 4.0]"
    );
    assert_eq!(
        slice_condition(&row("k", Value::Null, 4, 1.0, None)),
        "k = null"
    );
}

#[test]
fn the_weak_slices_keep_the_reports_order_first() {
    // The view lists the rows as the report orders them (SPEC §9.2: weak
    // ones first, δ descending); `order_rows` is that order.
    let mut rows = vec![
        row("a", json!("x"), 10, 0.9, None),
        row("b", json!("y"), 10, 0.5, Some(0.2)),
        row("c", json!("z"), 10, 0.4, Some(0.4)),
    ];
    rows[0].weak = false;
    crate::eval::slices::order_rows(&mut rows);
    let keys: Vec<&str> = rows.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["c", "b", "a"]);
    let sentences: Vec<String> = rows.iter().filter_map(|r| explain("m", r)).collect();
    assert_eq!(sentences.len(), 2);
    assert!(sentences[0].starts_with("on `c = z` (10 documents) m's F1 is 0.40 against 0.80"));
}

#[test]
fn the_picker_toggles_keys_in_their_order() {
    let by = vec!["a".to_string(), "b".to_string()];
    assert_eq!(toggle_key(&by, "c", true), ["a", "b", "c"]);
    assert_eq!(toggle_key(&by, "a", false), ["b"]);
    assert_eq!(toggle_key(&by, "a", true), ["b", "a"]);
    assert!(toggle_key(&[], "a", false).is_empty());
}

#[test]
fn the_picker_offers_top_level_keys_ignored_keys_and_built_ins() {
    let truth = r#"{"id":"1","vendor":{"name":"A"},"items":[{"qty":1}],"total":3,"land":"DE"}"#;
    let pred = r#"{"id":"1","vendor":{"name":"A"},"items":[{"qty":1}],"total":3}"#;
    let r = report_of(
        truth,
        pred,
        json!({"ignored_fields": ["land", "vendor.name"], "slice_by": ["land", "größe"]}),
    );
    // `vendor.name` ignored leaves no `vendor` field; `land` is an ignored
    // top-level key; `größe` comes from slice_by alone (no document has it).
    assert_eq!(
        slice_keys(&r).offered,
        ["items", "land", "total", "_items", "_fields", "größe"]
    );
    assert_eq!(slice_keys(&r).left_out, 0);
    assert_eq!(slice_by(&r), ["land", "größe"]);
}

#[test]
fn a_wide_report_offers_the_keys_with_the_most_truth_values() {
    // 60 keys k00…k59: k00…k09 in all three documents, the rest in one
    // each (k10…k29 in the first, k30…k49 in the second, k50…k59 in the
    // third). The ten in every document come first, then forty of the
    // fifty with one value each, by name (k10…k49); k50…k59 are left out,
    // but k55, in the link's slice_by, stays offered.
    let record = |d: usize, keys: std::ops::Range<usize>| {
        let mut o = serde_json::Map::new();
        o.insert("id".into(), json!(format!("d{d}")));
        for k in (0..10).chain(keys) {
            o.insert(format!("k{k:02}"), json!(format!("v{k}")));
        }
        Value::Object(o).to_string()
    };
    let truth = [record(1, 10..30), record(2, 30..50), record(3, 50..60)].join("\n");
    let r = report_of(&truth, &truth, json!({"slice_by": ["k55"]}));
    let keys = slice_keys(&r);
    let want: Vec<String> = (0..50)
        .map(|k| format!("k{k:02}"))
        .chain(["_items", "_fields", "k55"].map(String::from))
        .collect();
    assert_eq!(keys.offered, want);
    assert_eq!(keys.left_out, 10);
    assert_eq!(MAX_SLICE_KEYS, 50);
}

#[test]
fn a_swapped_value_names_the_field_it_belongs_to() {
    // invoice_date holds due_date's truth: swapped (SPEC §9.1; the
    // similarity of "2024-12-31" to "2025-01-15" is 0.5, a partial match).
    let truth = r#"{"id":"1","invoice_date":"2025-01-15","due_date":"2024-12-31"}"#;
    let pred = r#"{"id":"1","invoice_date":"2024-12-31","due_date":"2024-12-31"}"#;
    let r = report_of(truth, pred, json!({}));
    let docs = r.models[0].document_details.as_ref().expect("details");
    let notes: Vec<String> = docs[0].fields.iter().filter_map(swapped_note).collect();
    assert_eq!(notes, ["value of `due_date` put in `invoice_date`"]);
    let fields: Vec<(&str, &str)> = docs[0].fields.iter().filter_map(swapped_fields).collect();
    assert_eq!(fields, [("due_date", "invoice_date")]);
}

#[test]
fn a_segment_keeps_the_documents_with_that_error_in_that_field() {
    // Document 1: a missed `b`; document 2: a wrong `a` ("x" for "q");
    // document 3: exact everywhere.
    let truth = "{\"id\":\"1\",\"a\":\"p\",\"b\":\"q\"}\n{\"id\":\"2\",\"a\":\"q\",\"b\":\"r\"}\n{\"id\":\"3\",\"a\":\"s\",\"b\":\"t\"}";
    let pred = "{\"id\":\"1\",\"a\":\"p\"}\n{\"id\":\"2\",\"a\":\"xyzw\",\"b\":\"r\"}\n{\"id\":\"3\",\"a\":\"s\",\"b\":\"t\"}";
    let r = report_of(truth, pred, json!({}));
    let docs = r.models[0].document_details.as_ref().expect("details");
    let kept = |b: &Browse, field: &str| -> Vec<String> {
        docs.iter()
            .enumerate()
            .filter(|(i, d)| b.narrowing.keeps(*i, d, field))
            .map(|(_, d)| d.id.clone())
            .collect()
    };
    let missed = Browse::segment(0, None, ErrorType::Missed);
    assert_eq!(missed.field, "");
    assert_eq!(kept(&missed, ""), ["1"]);
    let wrong_a = Browse::segment(0, Some("a"), ErrorType::Wrong);
    assert_eq!(wrong_a.field, "a");
    assert_eq!(kept(&wrong_a, "a"), ["2"]);
    // The same error in another field keeps nothing.
    assert!(kept(&wrong_a, "b").is_empty());
    assert_eq!(wrong_a.narrowing.label(), "wrong errors");
    // The counts agree: one missed, one wrong.
    assert_eq!(r.models[0].errors.missed, 1);
    assert_eq!(r.models[0].errors.wrong, 1);
    assert_eq!(
        docs[0]
            .fields
            .iter()
            .filter(|f| f.outcome == Outcome::Missed)
            .count(),
        1
    );
}

#[test]
fn a_set_fields_segments_keep_the_documents_with_missed_or_spurious_elements() {
    // `codes` is a set (a list of scalars). Document 1: "b" missed;
    // document 2: "d" spurious; document 3: exact; document 4: "f", "g"
    // missed and "x" spurious.
    let truth = "{\"id\":\"1\",\"codes\":[\"a\",\"b\"]}\n{\"id\":\"2\",\"codes\":[\"c\"]}\n{\"id\":\"3\",\"codes\":[\"e\"]}\n{\"id\":\"4\",\"codes\":[\"f\",\"g\"]}";
    let pred = "{\"id\":\"1\",\"codes\":[\"a\"]}\n{\"id\":\"2\",\"codes\":[\"c\",\"d\"]}\n{\"id\":\"3\",\"codes\":[\"e\"]}\n{\"id\":\"4\",\"codes\":[\"x\"]}";
    let r = report_of(truth, pred, json!({}));
    // The bar counts elements: 1 + 2 missed, 1 + 1 spurious.
    let errors = &r.models[0].errors;
    assert_eq!((errors.missed, errors.spurious), (3, 2));
    let docs = r.models[0].document_details.as_ref().expect("details");
    let kept = |b: &Browse| -> Vec<String> {
        docs.iter()
            .enumerate()
            .filter(|(i, d)| b.narrowing.keeps(*i, d, &b.field))
            .map(|(_, d)| d.id.clone())
            .collect()
    };
    let missed = Browse::segment(0, Some("codes"), ErrorType::Missed);
    assert_eq!(kept(&missed), ["1", "4"]);
    let spurious = Browse::segment(0, Some("codes"), ErrorType::Spurious);
    assert_eq!(kept(&spurious), ["2", "4"]);
    // The model's bar (any field) finds the same documents.
    assert_eq!(
        kept(&Browse::segment(0, None, ErrorType::Missed)),
        ["1", "4"]
    );
    // A set's value has no error type of its own, so no other segment
    // keeps it.
    assert!(kept(&Browse::segment(0, None, ErrorType::Wrong)).is_empty());
    assert_eq!(docs[3].fields[0].error_type, None);
    assert_eq!(docs[3].fields[0].set_errors, Some([2, 1]));
}

#[test]
fn a_slice_keeps_its_documents_null_included() {
    // lang: de, en, de, (none) → slices null [3], "de" [0, 2], "en" [1].
    let truth = "{\"id\":\"1\",\"a\":\"p\",\"lang\":\"de\"}\n{\"id\":\"2\",\"a\":\"q\",\"lang\":\"en\"}\n{\"id\":\"3\",\"a\":\"r\",\"lang\":\"de\"}\n{\"id\":\"4\",\"a\":\"s\"}";
    let pred = "{\"id\":\"1\",\"a\":\"p\"}\n{\"id\":\"2\",\"a\":\"q\"}\n{\"id\":\"3\",\"a\":\"x\"}\n{\"id\":\"4\",\"a\":\"s\"}";
    let r = report_of(
        truth,
        pred,
        json!({"slice_by": ["lang"], "ignored_fields": ["lang"]}),
    );
    let slices = &r.slices.as_ref().expect("slices").models[0].slices;
    let docs = r.models[0].document_details.as_ref().expect("details");
    let of = |value: Value| -> (String, Vec<String>) {
        let row = slices.iter().find(|s| s.value == value).expect("a slice");
        let b = Browse::slice(&r, 0, row).expect("its documents");
        let ids = docs
            .iter()
            .enumerate()
            .filter(|(i, d)| b.narrowing.keeps(*i, d, ""))
            .map(|(_, d)| d.id.clone())
            .collect();
        (b.narrowing.label(), ids)
    };
    assert_eq!(
        of(json!("de")),
        (
            "slice lang = de".to_string(),
            vec!["1".to_string(), "3".to_string()]
        )
    );
    assert_eq!(of(json!("en")).1, ["2"]);
    assert_eq!(of(Value::Null).1, ["4"]);
    // The slice's documents are its `documents` count.
    assert_eq!(
        slices
            .iter()
            .find(|s| s.value == json!("de"))
            .map(|s| s.documents),
        Some(2)
    );
    // The slice texts are no key of the JSON report.
    let json = serde_json::to_string(&r).expect("serialises");
    assert!(!json.contains("\"slice\":"));
}

#[test]
fn without_details_or_slices_a_slice_browses_nowhere() {
    let r = report_of(
        "{\"id\":\"1\",\"a\":\"p\"}",
        "{\"id\":\"1\",\"a\":\"p\"}",
        json!({}),
    );
    let mut bare = r.clone();
    bare.models[0].document_details = None;
    let any = row("lang", json!("de"), 1, 1.0, None);
    assert_eq!(Browse::slice(&bare, 0, &any), None);
    assert_eq!(Browse::slice(&r, 0, &any), None);
    // Empty truth and prediction: nothing to show.
    let empty = report_of("", "", json!({}));
    assert!(segments(&empty.models.first().map(|m| m.errors).unwrap_or_default()).is_empty());
}
