//! Arbitrary bytes through the input adapters, as the CLI and the app call
//! them: `io::parse_records`, `io::parse_docs` and `io::parse_json_value`
//! under every file name that picks a format (`.json`, `.jsonl`, `.csv`)
//! and one that makes `io::detect_format` sniff. Nothing may panic; an
//! error must name the file; `parse_docs` and `parse_records` must agree.
#![no_main]

use fieldscope::io::{decode_text, detect_format, parse_docs, parse_json_value, parse_records};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for name in ["in.json", "in.jsonl", "in.csv", "in.txt"] {
        if let Ok(text) = decode_text(name, data) {
            let _ = detect_format(name, text);
        }
        let records = parse_records(name, data);
        let docs = parse_docs(name, data);
        match (&records, &docs) {
            (Ok(r), Ok(d)) => {
                // The forest holds the same records as the serde_json values.
                assert_eq!(d.to_records().records, r.records, "{name}");
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string(), "{name}");
                assert!(a.to_string().starts_with(name), "{name}: {a}");
            }
            _ => panic!(
                "{name}: parse_records {:?} but parse_docs {:?}",
                records.as_ref().map(|r| r.records.len()),
                docs.as_ref().map(|d| d.records.len())
            ),
        }
    }
    if let Err(e) = parse_json_value("value.json", data) {
        assert!(e.to_string().starts_with("value.json"), "{e}");
    }
});
