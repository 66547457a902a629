//! Table-driven cases: every file in `tests/data/cases/` holds a truth, the
//! predictions of one or more models, an optional config and schema, and
//! the report values they must produce (JSON pointers into the report),
//! computed by hand and explained in the file's `description`.

use super::common::records;
use fieldscope::eval::{
    complete_provisional, evaluate, evaluate_owned_known, schema_validity_by, Config,
    ConfigBuilder, EvalInput, ModelInput, NamedSchema, SchemaValidity,
};
use serde_json::Value;
use std::path::Path;

/// Deep equality with floats compared to 1e-12 and exact key sets.
fn same(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Number(a), Value::Number(e)) => {
            let (a, e) = (
                a.as_f64().unwrap_or(f64::NAN),
                e.as_f64().unwrap_or(f64::NAN),
            );
            (a - e).abs() <= 1e-12 * e.abs().max(1.0)
        }
        (Value::Array(a), Value::Array(e)) => {
            a.len() == e.len() && a.iter().zip(e).all(|(x, y)| same(x, y))
        }
        (Value::Object(a), Value::Object(e)) => {
            a.len() == e.len() && e.iter().all(|(k, v)| a.get(k).is_some_and(|x| same(x, v)))
        }
        _ => actual == expected,
    }
}

/// A case's `schemas`: several schemas by name (SPEC §7.2), in name order.
pub fn named_schemas(case: &Value) -> Vec<NamedSchema> {
    case.get("schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, schema)| NamedSchema::new(name.clone(), schema.clone()))
        .collect()
}

fn run_case(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("case file is readable");
    let case: Value = serde_json::from_str(&text).expect("case file is JSON");
    let mut builder = ConfigBuilder::new();
    if let Some(c) = case.get("config") {
        builder = builder.layer(c).expect("case config is valid");
    }
    let config = builder.build().expect("config builds");
    let truth = records(
        "truth.json",
        case["truth"].as_array().cloned().unwrap_or_default(),
    );
    let models = case["predictions"]
        .as_object()
        .expect("predictions is an object")
        .iter()
        .map(|(name, preds)| {
            ModelInput::new(
                name.clone(),
                records(
                    &format!("{name}.json"),
                    preds.as_array().cloned().unwrap_or_default(),
                ),
            )
        })
        .collect();
    let input = EvalInput {
        truth,
        models,
        schema: case.get("schema").cloned(),
        schemas: named_schemas(&case),
    };
    let report = evaluate(&input, &config, false).expect("evaluation succeeds");
    let mut failures = app_paths_agree(path, &input, &config);
    let report = serde_json::to_value(&report).expect("report serialises");
    for (pointer, expected) in case["expect"].as_object().expect("expect is an object") {
        let actual = report.pointer(pointer).unwrap_or(&Value::Null);
        if !same(actual, expected) {
            failures.push(format!(
                "{}: {pointer}: expected {expected}, got {actual}",
                path.display()
            ));
        }
    }
    for needle in case
        .get("warnings_contain")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let needle = needle.as_str().unwrap_or_default();
        let warnings = report["warnings"].as_array().cloned().unwrap_or_default();
        if !warnings
            .iter()
            .any(|w| w.as_str().is_some_and(|w| w.contains(needle)))
        {
            failures.push(format!(
                "{}: no warning contains {needle:?}; warnings: {warnings:?}",
                path.display()
            ));
        }
    }
    failures
}

/// The browser app's ways to the same report: the schema validity
/// computed apart (its schema worker) and evaluated with, and a provisional
/// report (validity unchecked) finished with it. Both must equal the
/// evaluation, hidden per-document tallies included.
fn app_paths_agree(path: &Path, input: &EvalInput, config: &Config) -> Vec<String> {
    let fresh = evaluate(input, config, true).expect("evaluation succeeds");
    let validity = schema_validity_by(
        input.clone(),
        config.id_field.as_deref(),
        config.schema_by.as_deref(),
    )
    .expect("validity computes");
    let known = evaluate_owned_known(input.clone(), config, true, &validity)
        .expect("evaluation with the validity succeeds");
    let mut provisional =
        evaluate_owned_known(input.clone(), config, true, &SchemaValidity::Pending)
            .expect("provisional evaluation succeeds");
    complete_provisional(&mut provisional, &validity, config).expect("completion succeeds");
    let mut failures = Vec::new();
    if known != fresh {
        failures.push(format!(
            "{}: the report with the validity computed apart differs",
            path.display()
        ));
    }
    if provisional != fresh {
        failures.push(format!(
            "{}: the finished provisional report differs",
            path.display()
        ));
    }
    failures
}

#[test]
fn every_case_file_holds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("cases directory exists")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 10,
        "expected the case files, found {}",
        paths.len()
    );
    let failures: Vec<String> = paths.iter().flat_map(|p| run_case(p)).collect();
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
