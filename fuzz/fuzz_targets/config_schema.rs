//! Arbitrary bytes as a metrics config and as a JSON Schema, loaded the
//! way the CLI and the app load them: `io::parse_json_value`, then
//! `ConfigBuilder::layer` + `build` for a config, `eval::compile_schema`
//! for a schema. A config that builds must survive its JSON form; a schema
//! that compiles is then used in a small evaluation (schema validity on
//! forests, schema hints for comparison types).
#![no_main]

use fieldscope::eval::{compile_schema, evaluate, Config, ConfigBuilder, EvalInput, ModelInput};
use fieldscope::io::{parse_json_value, parse_records};
use libfuzzer_sys::fuzz_target;

const TRUTH: &[u8] = br#"{"id": "a", "total": 10.5, "date": "2024-01-31", "name": "Ann", "items": [{"sku": "x", "qty": 2}], "tags": ["p", "q"]}
{"id": "b", "total": null, "name": "Bo", "nested": {"k": [1, 2, {"z": true}]}}
"#;
const PRED: &[u8] = br#"{"id": "a", "total": "10.50", "date": "31/01/2024", "name": "ann", "items": [{"sku": "x", "qty": "2"}, {"sku": "y"}], "tags": ["q"]}
{"id": "b", "output": "```json\n{\"total\": 0, \"name\": \"Bob\", \"nested\": {\"k\": [1]}}\n```"}
"#;

fuzz_target!(|data: &[u8]| {
    if let Ok(value) = parse_json_value("config.json", data) {
        if let Ok(config) = ConfigBuilder::new().layer(&value).and_then(|b| b.build()) {
            let again = Config::from_json(&config.to_json()).expect("a built config reloads");
            assert_eq!(again.to_json(), config.to_json());
        }
    }
    if let Ok(schema) = parse_json_value("schema.json", data) {
        if compile_schema(&schema).is_ok() {
            let input = EvalInput {
                truth: parse_records("truth.jsonl", TRUTH).unwrap(),
                models: vec![ModelInput::new(
                    "m",
                    parse_records("pred.jsonl", PRED).unwrap(),
                )],
                schema: Some(schema),
            };
            let report = evaluate(&input, &Config::default(), true)
                .expect("a schema that compiles evaluates");
            let rate = report.models[0].schema_validity_rate;
            assert!((0.0..=1.0).contains(&rate), "schema validity {rate}");
        }
    }
});
