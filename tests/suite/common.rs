//! Helpers shared by the integration tests.

use fieldscope::eval::{evaluate, Config, EvalInput, ModelInput, Record, RecordFile, Report};
use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::path::Path;

/// The path of a file of the example in `tests/data/example/`.
pub fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/example")
        .join(name)
        .display()
        .to_string()
}

/// Runs the command-line tool in-process with `args` (after the program
/// name): (exit status, stdout, stderr).
pub fn run_cli<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    let argv: Vec<OsString> = std::iter::once(OsString::from("fieldscope"))
        .chain(args.iter().map(|a| a.as_ref().to_os_string()))
        .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = fieldscope::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).expect("stdout is UTF-8"),
        String::from_utf8(err).expect("stderr is UTF-8"),
    )
}

/// A record file from JSON objects (no parsing involved).
pub fn records(name: &str, values: Vec<Value>) -> RecordFile {
    RecordFile {
        name: name.to_string(),
        records: values
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Object(map) => Record::new(i, map),
                other => panic!("test record {i} is not an object: {other}"),
            })
            .collect(),
    }
}

/// Evaluates truth against named models under `config`.
pub fn run(
    truth: Vec<Value>,
    models: Vec<(&str, Vec<Value>)>,
    schema: Option<Value>,
    config: &Config,
) -> Report {
    let input = EvalInput {
        truth: records("truth.json", truth),
        models: models
            .into_iter()
            .map(|(name, preds)| ModelInput::new(name, records(&format!("{name}.json"), preds)))
            .collect(),
        schema,
        schemas: Vec::new(),
    };
    evaluate(&input, config, false).expect("evaluation succeeds")
}

/// Asserts two floats agree to 1e-12.
#[track_caller]
pub fn close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() < 1e-12,
        "expected {expected}, got {actual}"
    );
}

/// Whether golden files are rewritten instead of compared
/// (`UPDATE_GOLDEN=1 cargo test …`).
pub fn update_golden() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| !v.is_empty() && v != "0")
}
