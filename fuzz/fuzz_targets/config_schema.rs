//! Arbitrary bytes as a metrics config and as a JSON Schema, loaded the way
//! the CLI and the app load them: an error or a value, never a panic.
#![no_main]
use fieldscope::eval::{compile_schema, ConfigBuilder};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = fieldscope::io::parse_json_value("fuzz.json", data) else {
        return;
    };
    if let Ok(builder) = ConfigBuilder::new().layer(&value) {
        if let Ok(config) = builder.build() {
            let _ = config.to_json();
        }
    }
    let _ = compile_schema(&value);
});
