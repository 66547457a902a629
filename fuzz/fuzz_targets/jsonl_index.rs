//! Any bytes as a JSONL file read the two ways the CLI reads it: whole
//! (`parse_docs`) and streamed (`JsonlIndex`, one record fetched back at a
//! time). Neither panics; both fail with the same message or both give
//! the same records, record by record, on the same lines.
#![no_main]
use fieldscope::eval::RecordSource;
use fieldscope::io::{parse_docs, JsonlIndex};
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fuzz_target!(|data: &[u8]| {
    let whole = parse_docs("f.jsonl", data);
    let index = JsonlIndex::new("f.jsonl", Cursor::new(data.to_vec()));
    match (whole, index) {
        (Ok(file), Ok(mut index)) => {
            assert_eq!(index.len(), file.records.len());
            for i in 0..index.len() {
                let root = index.fetch(i).expect("an indexed record reads back");
                let want = file.forest.get(file.records[i].root);
                assert!(index.forest().get(root).same(want), "record {i} differs");
                assert_eq!(index.info(i).line, file.records[i].line);
            }
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("parse_docs {:?}, index {:?}", a.err(), b.err()),
    }
});
