//! SPEC §6: the worked examples, with their exact numbers.

use super::common::{close, run};
use fieldscope::eval::{Config, Preset};
use serde_json::{json, Map, Value};

/// Example 1: 17 fields, 8 present in truth. The model gets 3 right, 2
/// wrong, leaves 3 empty, and answers NOT_FOUND on all 9 absent ones.
fn example_1() -> (Vec<Value>, Vec<Value>) {
    let mut truth = Map::new();
    let mut pred = Map::new();
    truth.insert("id".into(), json!("doc"));
    pred.insert("id".into(), json!("doc"));
    for i in 1..=17 {
        let key = format!("f{i:02}");
        let t = if i <= 8 {
            json!(format!("value number {i}"))
        } else {
            json!("NOT_FOUND")
        };
        let p = match i {
            1..=3 => t.clone(),
            4 | 5 => json!(format!("zzz {i}")),
            _ => json!("NOT_FOUND"),
        };
        truth.insert(key.clone(), t);
        pred.insert(key, p);
    }
    (vec![Value::Object(truth)], vec![Value::Object(pred)])
}

#[test]
fn example_1_not_found_preset() {
    let (t, p) = example_1();
    let r = run(
        t,
        vec![("conservative", p)],
        None,
        &Config::preset(Preset::NotFound),
    );
    let m = &r.models[0];
    assert_eq!(m.counts.exact, 3);
    assert_eq!(m.counts.incorrect, 2);
    assert_eq!(m.counts.missed, 3);
    assert_eq!(m.counts.true_negative, 9);
    close(m.micro.accuracy, 12.0 / 17.0);
    assert_eq!(format!("{:.4}", m.micro.accuracy), "0.7059");
    close(m.micro.precision, 0.6);
    close(m.micro.recall, 0.5);
    assert_eq!(format!("{:.4}", m.micro.f1), "0.5455");
}

#[test]
fn example_1_exact_preset() {
    let (t, p) = example_1();
    let r = run(
        t,
        vec![("conservative", p)],
        None,
        &Config::preset(Preset::Exact),
    );
    close(r.models[0].micro.recall, 0.375);
    close(r.models[0].micro.precision, 0.6);
}

fn codes(truth: Value, pred: Value) -> (f64, f64, f64, f64, f64) {
    let r = run(
        vec![json!({"id": "r1", "codes": truth})],
        vec![("m", vec![json!({"id": "r1", "codes": pred})])],
        None,
        &Config::default(),
    );
    let s = &r.models[0].sets["codes"];
    assert_eq!(s.documents, 1);
    (s.precision, s.recall, s.accuracy, s.legacy_accuracy, s.f1)
}

#[test]
fn example_2_multi_label_codes() {
    let (p, r, acc, legacy, f1) = codes(
        json!(["12345"]),
        json!(["12345", "67890", "11111", "22222", "33333"]),
    );
    close(p, 0.2);
    close(r, 1.0);
    close(acc, 0.6);
    close(legacy, 0.2);
    assert_eq!(format!("{f1:.4}"), "0.3333");
    let (_, _, acc, legacy, _) = codes(json!(["12345"]), json!(["12345", "67890", "11111"]));
    assert_eq!(format!("{acc:.4}"), "0.6667");
    assert_eq!(format!("{legacy:.4}"), "0.3333");
    let (_, _, acc, legacy, _) = codes(json!(["1", "2"]), json!(["1", "3"]));
    close(acc, 0.5);
    close(legacy, 0.5);
}

#[test]
fn example_3_micro_versus_macro() {
    let truth = vec![
        json!({"id": "A", "entities": []}),
        json!({"id": "B", "entities": []}),
        json!({"id": "C", "entities": ["y"]}),
    ];
    let silent = vec![
        json!({"id": "A", "entities": []}),
        json!({"id": "B", "entities": []}),
        json!({"id": "C", "entities": ["y"]}),
    ];
    let hallucinating = vec![
        json!({"id": "A", "entities": []}),
        json!({"id": "B", "entities": ["x"]}),
        json!({"id": "C", "entities": ["y"]}),
    ];
    let r = run(
        truth,
        vec![("silent", silent), ("hallucinating", hallucinating)],
        None,
        &Config::default(),
    );
    let s = &r.models[0];
    close(s.macro_documents.precision, 1.0);
    close(s.macro_documents.recall, 1.0);
    close(s.macro_documents.f1, 1.0);
    close(s.micro.precision, 1.0);
    close(s.micro.recall, 1.0);
    let h = &r.models[1];
    close(h.macro_documents.precision, 2.0 / 3.0);
    close(h.macro_documents.recall, 2.0 / 3.0);
    assert_eq!(format!("{:.4}", h.macro_documents.precision), "0.6667");
    close(h.micro.precision, 0.5);
    close(h.micro.recall, 1.0);
}

#[test]
fn example_4_cer() {
    let truth = vec![
        json!({"id": "1", "number": "Invoice 1234"}),
        json!({"id": "2", "number": "Invoice 1234"}),
    ];
    let pred = vec![
        json!({"id": "1", "number": "Invoice 1243"}),
        json!({"id": "2", "number": "invoice 124"}),
    ];
    let r = run(
        truth,
        vec![("m", pred)],
        None,
        &Config::preset(Preset::InvoiceCer),
    );
    let f = &r.models[0].fields[0];
    assert_eq!(f.field, "number");
    assert_eq!(f.counts.incorrect, 1);
    assert_eq!(f.counts.exact, 1);
    close(f.cer.unwrap(), 3.0 / 24.0);
    close(f.mean_cer.unwrap(), (2.0 / 12.0 + 1.0 / 12.0) / 2.0);
    close(r.models[0].cer.unwrap(), 3.0 / 24.0);
}

/// SPEC §1.1/§1.2: the key a prediction's fallback id came from is not a
/// field of *that* record only. Record `a` has no `id` and is matched by
/// its `doc_id`, which is then not evaluated; record `b` has an `id`, so
/// its `doc_id` is an ordinary field compared with the truth's. Either
/// order of the records gives the same counts.
#[test]
fn a_fallback_id_key_is_skipped_in_its_own_record_only() {
    let truth = vec![
        json!({"id": "a", "doc_id": "A-1", "x": "1"}),
        json!({"id": "b", "doc_id": "B-2", "x": "2"}),
    ];
    let fallback = json!({"doc_id": "a", "x": "1"});
    let with_id = json!({"id": "b", "doc_id": "B-2", "x": "2"});
    for preds in [
        vec![fallback.clone(), with_id.clone()],
        vec![with_id.clone(), fallback.clone()],
    ] {
        let r = run(truth.clone(), vec![("m", preds)], None, &Config::default());
        let doc_id = r.models[0]
            .fields
            .iter()
            .find(|f| f.field == "doc_id")
            .expect("doc_id is a field");
        // a: the truth's "A-1" missed (the prediction's doc_id is its id);
        // b: "B-2" = "B-2".
        assert_eq!(doc_id.counts.exact, 1);
        assert_eq!(doc_id.counts.missed, 1);
        assert_eq!(doc_id.counts.spurious, 0);
        assert_eq!(r.models[0].counts.exact, 3);
        assert_eq!(r.models[0].counts.missed, 1);
    }
}
