//! A whole evaluation over arbitrary input: the bytes are cut at 0xFF into
//! a truth file (JSONL), a prediction file (JSONL), a second prediction
//! file, an optional metrics config and an optional schema. Whatever
//! parses is evaluated, with details; the report must serialise, and every
//! ratio but CER must lie in [0, 1].
#![no_main]
use fieldscope::eval::{evaluate_owned, ConfigBuilder, EvalInput, ModelInput};
use fieldscope::io::{parse_docs, parse_json_value};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn check_ratios(v: &Value, key: &str) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, v)| check_ratios(v, k)),
        Value::Array(a) => a.iter().for_each(|v| check_ratios(v, key)),
        Value::Number(n) => {
            let ratio = matches!(
                key,
                "precision" | "recall" | "f1" | "accuracy" | "hallucination_rate" | "abstention_rate"
            );
            if ratio {
                let x = n.as_f64().unwrap();
                assert!((0.0..=1.0).contains(&x), "{key} = {x}");
            }
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let mut parts = data.split(|&b| b == 0xFF);
    let (Some(truth), Some(pred)) = (parts.next(), parts.next()) else {
        return;
    };
    let other = parts.next();
    let config = parts.next();
    let schema = parts.next();
    let Ok(truth) = parse_docs("truth.jsonl", truth) else {
        return;
    };
    let mut models = Vec::new();
    if let Ok(p) = parse_docs("a.jsonl", pred) {
        models.push(ModelInput::new("a", p));
    }
    if let Some(Ok(p)) = other.map(|o| parse_docs("b.jsonl", o)) {
        models.push(ModelInput::new("b", p));
    }
    let mut builder = ConfigBuilder::new();
    if let Some(Ok(c)) = config.map(|c| parse_json_value("config.json", c)) {
        match builder.layer(&c) {
            Ok(b) => builder = b,
            Err(_) => return,
        }
    }
    let Ok(config) = builder.build() else {
        return;
    };
    let schema = schema.and_then(|s| parse_json_value("schema.json", s).ok());
    let input = EvalInput {
        truth,
        models,
        schema,
        schemas: Vec::new(),
    };
    if let Ok(report) = evaluate_owned(input, &config, true) {
        let json = serde_json::to_value(&report).unwrap();
        check_ratios(&json, "");
    }
});
