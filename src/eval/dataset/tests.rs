//! Unit tests of `dataset` (moved out of dataset.rs to keep it readable).

use super::*;
use crate::eval::model::DocFile;
use serde_json::json;

fn file(name: &str, values: Vec<Value>) -> DocFile {
    DocFile::of_values(name, values)
}

/// The evaluated fields of a model's prediction for truth document `d`.
fn pred(preds: &mut Predictions<DocFile>, truth: &Truth<DocFile>, d: usize) -> Option<Value> {
    preds.fields_value(d, &truth.scheme).unwrap()
}

#[test]
fn id_field_is_the_first_candidate_every_record_carries() {
    let t = file(
        "t.json",
        vec![
            json!({"filename": "a.png", "doc_id": 1}),
            json!({"filename": "b.png", "doc_id": 2}),
        ],
    );
    let mut w = vec![];
    let mut truth = read_truth(t.clone(), None, &mut w).unwrap();
    assert_eq!(truth.scheme.field.as_deref(), Some("filename"));
    assert_eq!(truth.documents[1].id, "b.png");
    assert!(truth.fields_value(0).unwrap().get("filename").is_none());
    assert!(w.is_empty());
    let truth = read_truth(t.clone(), Some("doc_id"), &mut w).unwrap();
    assert_eq!(truth.documents[0].id, "1");
}

#[test]
fn position_ids_are_warned() {
    let t = file("t.json", vec![json!({"a": 1}), json!({"a": 2})]);
    let mut w = vec![];
    let truth = read_truth(t.clone(), None, &mut w).unwrap();
    assert!(truth.scheme.by_position());
    assert_eq!(truth.documents[1].id, "#2");
    assert_eq!(w.len(), 1);
    assert!(w[0].contains("matched by their position"));
}

#[test]
fn duplicates_keep_the_first_and_warn() {
    let t = file(
        "t.json",
        vec![json!({"id": "a", "x": 1}), json!({"id": " a ", "x": 2})],
    );
    let mut w = vec![];
    let mut truth = read_truth(t.clone(), None, &mut w).unwrap();
    assert_eq!(truth.documents.len(), 1);
    assert_eq!(truth.fields_value(0).unwrap()["x"], 1);
    assert!(w[0].contains("1 duplicate id(s)"), "{w:?}");
}

#[test]
fn predictions_match_by_id_and_fall_back_to_stripped_extensions() {
    let t = file(
        "t.json",
        vec![
            json!({"id": "doc_001.jpg", "x": 1}),
            json!({"id": "doc_002.jpg", "x": 2}),
        ],
    );
    let p = file(
        "p.json",
        vec![
            json!({"id": "doc_002", "x": 2}),
            json!({"id": "doc_009", "x": 9}),
        ],
    );
    let mut w = vec![];
    let truth = read_truth(t.clone(), None, &mut w).unwrap();
    let preds = read_predictions("m", p, &truth, &mut w).unwrap();
    assert!(preds.by_truth[0].is_none());
    assert_eq!(preds.by_truth[1].as_ref().unwrap().id, "doc_002");
    assert!(w
        .iter()
        .any(|m| m.contains("trailing file extension removed")));
    assert!(w.iter().any(
        |m| m.contains("1 prediction record(s) have no ground-truth record")
            && m.contains("doc_009")
    ));
    assert!(w.iter().any(
        |m| m.contains("1 ground-truth document(s) have no prediction record")
            && m.contains("doc_001.jpg")
    ));
}

#[test]
fn a_fallback_id_key_is_not_a_field() {
    let t = file("t.json", vec![json!({"filename": "a.png", "x": 1})]);
    let p = file(
        "p.json",
        vec![
            json!({"id": "a.png", "x": 1}),
            json!({"doc_id": "b", "output": "{\"x\": 2}"}),
        ],
    );
    let mut w = vec![];
    let truth = read_truth(t, None, &mut w).unwrap();
    let mut preds = read_predictions("m", p, &truth, &mut w).unwrap();
    assert_eq!(pred(&mut preds, &truth, 0), Some(json!({"x": 1})));
    assert!(
        w.iter()
            .any(|m| m.contains("2 record(s) have no `filename` field")),
        "{w:?}"
    );
}

#[test]
fn strip_extension_rules() {
    assert_eq!(strip_extension("doc_001.jpg"), "doc_001");
    assert_eq!(strip_extension("a.b.PDF"), "a.b");
    assert_eq!(strip_extension(".env"), ".env");
    assert_eq!(strip_extension("v1.2"), "v1.2");
    assert_eq!(strip_extension("doc"), "doc");
}

#[test]
fn raw_output_records_are_parsed() {
    let t = file(
        "t.json",
        vec![
            json!({"id": "a", "total": 5}),
            json!({"id": "b", "total": 6}),
        ],
    );
    let p = file(
        "p.jsonl",
        vec![
            json!({"id": "a", "output": "```json\n{\"total\": 5}\n```", "cost": 0.5}),
            json!({"id": "b", "response": "sorry, I can't", "cost": 0.25}),
        ],
    );
    let mut w = vec![];
    let truth = read_truth(t.clone(), None, &mut w).unwrap();
    let mut preds = read_predictions("m", p, &truth, &mut w).unwrap();
    assert_eq!(pred(&mut preds, &truth, 0).unwrap()["total"], 5);
    assert_eq!(
        preds.by_truth[1].as_ref().unwrap().payload,
        Payload::Invalid
    );
    assert!(pred(&mut preds, &truth, 1).is_none());
    assert_eq!(preds.cost, Some(0.75));
    assert!(w.iter().any(|m| m.contains("did not parse")));
}

#[test]
fn raw_output_key_that_the_truth_has_is_a_field() {
    let t = file("t.json", vec![json!({"id": "a", "text": "hello"})]);
    let p = file("p.json", vec![json!({"id": "a", "text": "{\"x\": 1}"})]);
    let mut w = vec![];
    let truth = read_truth(t.clone(), None, &mut w).unwrap();
    let mut preds = read_predictions("m", p, &truth, &mut w).unwrap();
    assert_eq!(pred(&mut preds, &truth, 0).unwrap()["text"], "{\"x\": 1}");
}

#[test]
fn openai_batch_lines() {
    let t = file("t.json", vec![json!({"id": "a", "total": 5})]);
    let p = file(
        "batch.jsonl",
        vec![json!({
            "id": "batch_req_1", "custom_id": "a",
            "response": {"status_code": 200, "body": {"choices": [{"message": {"content": "{\"total\": 5}"}}]}},
            "error": null
        })],
    );
    let mut w = vec![];
    let truth = read_truth(t.clone(), None, &mut w).unwrap();
    let mut preds = read_predictions("m", p, &truth, &mut w).unwrap();
    let doc = preds.by_truth[0].as_ref().unwrap();
    assert_eq!(doc.id, "a");
    assert_eq!(pred(&mut preds, &truth, 0).unwrap()["total"], 5);
    // The id field and the metadata keys are not among the fields.
    assert_eq!(pred(&mut preds, &truth, 0).unwrap(), json!({"total": 5}));
}

#[test]
fn model_output_parsed_into_a_forest_is_the_same() {
    for text in [
        "{\"a\":1}",
        "```\n{\"a\":1}\n```",
        "```json\n{\"a\": [1, {\"b\": \"x\"}]}\n``` trailing",
        "Here: {\"a\": {\"b\": 2}} done {\"c\":3}",
        "[1,2]",
        "[{\"a\": 1}]",
        "```json\n[{\"a\": 2}]\n```",
        "{unbalanced",
        "",
        "null",
        "{\"e\\u0301\": \"cafe\\u0301\", \"é\": 2, \"a\": 1, \"a\": 3}",
        "text {\"a\": \"}\"} more",
        "{\"a\": 1e400}",
    ] {
        let mut forest = Forest::default();
        let via_forest =
            parse_model_output_into(&mut forest, text).map(|root| forest.get(root).to_value());
        let via_value = parse_model_output(text).map(Value::Object);
        assert_eq!(via_forest, via_value, "{text:?}");
    }
}

#[test]
fn model_output_parsing() {
    assert_eq!(parse_model_output("{\"a\":1}").unwrap()["a"], 1);
    assert_eq!(parse_model_output("```\n{\"a\":1}\n```").unwrap()["a"], 1);
    assert_eq!(
        parse_model_output("Here: {\"a\": {\"b\": 2}} done {\"c\":3}").unwrap()["a"]["b"],
        2
    );
    assert!(parse_model_output("[1,2]").is_none());
    assert_eq!(parse_model_output("[{\"a\": 1}]").unwrap()["a"], 1);
    assert!(parse_model_output("{unbalanced").is_none());
    assert!(parse_model_output("").is_none());
    let m = parse_model_output("{\"e\\u0301\": \"cafe\\u0301\"}").unwrap();
    assert_eq!(m["é"], "café");
}
