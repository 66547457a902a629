//! Arbitrary text as a model's raw output (code fences, first balanced
//! object): parsing never panics, and what it returns is an object.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(map) = fieldscope::eval::dataset::parse_model_output(&text) {
        // Serialising it back is always possible.
        serde_json::to_string(&map).unwrap();
    }
});
