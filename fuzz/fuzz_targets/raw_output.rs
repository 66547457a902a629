//! Arbitrary text as a model's raw output (SPEC §1.3), both ways the
//! crate reads it: `eval::dataset::parse_model_output` (serde_json values)
//! and the forest parser, reached as the evaluation reaches it — a
//! prediction record `{"id": "d", "output": TEXT}` read by
//! `dataset::read_predictions`. The two must find the same object (less
//! the id and metadata keys, which the evaluation leaves out).
#![no_main]

use fieldscope::eval::dataset::{parse_model_output, read_predictions, read_truth};
use fieldscope::eval::model::{DocFile, Record, RecordFile};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};

fn file(name: &str, record: Value) -> DocFile {
    let Value::Object(fields) = record else {
        unreachable!()
    };
    DocFile::from_records(&RecordFile {
        name: name.into(),
        records: vec![Record::new(0, fields)],
    })
    .unwrap()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let direct: Option<Map<String, Value>> = parse_model_output(&text);

    let mut warnings = Vec::new();
    let truth = read_truth(
        file("t.jsonl", json!({"id": "d", "total": 1})),
        None,
        &mut warnings,
    );
    let preds = read_predictions(
        "m",
        file("p.jsonl", json!({"id": "d", "output": text})),
        &truth,
        &mut warnings,
    );
    let via_forest = preds.fields_value(0, &truth.scheme);
    // `fields_value` leaves out the id field and the metadata keys.
    let direct = direct.map(|mut m| {
        m.retain(|k, _| truth.scheme.is_evaluated(k));
        Value::Object(m)
    });
    assert_eq!(via_forest, direct, "raw output {text:?}");
});
