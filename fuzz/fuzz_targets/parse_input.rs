//! Arbitrary bytes as a records file (JSON, JSONL, CSV, by the name's
//! extension and by content): both readers (`parse_records`, `parse_docs`)
//! must return a value or an error, never panic, and agree on which.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let name = ["t.json", "t.jsonl", "t.csv", "t.txt"][usize::from(selector % 4)];
    let records = fieldscope::io::parse_records(name, bytes);
    let docs = fieldscope::io::parse_docs(name, bytes);
    match (&records, &docs) {
        (Ok(r), Ok(d)) => assert_eq!(r.records.len(), d.records.len()),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("the readers disagree: {records:?} / {docs:?}"),
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        let _ = fieldscope::io::detect_format(name, text);
    }
    let _ = fieldscope::io::parse_json_value(name, bytes);
});
