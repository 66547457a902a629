//! SPEC §7.2 (several schemas) end to end through the command-line tool:
//! the usage errors (exit 2, what they say), the one warning, the report
//! the same for every `--jobs` and held or streamed, `gate`, `sweep`,
//! `--embed-inputs`, `learn` refused, a broken schema named by its file.
//! The numbers themselves are checked by the table-driven cases
//! (`tests/data/cases/several_schemas_*.json`).
//!
//! The data: two invoices (`doc_type` "inv": `total`, `vendor`) and two
//! receipts (`doc_type` " rec ", trimmed: `amount`, `store`), one
//! document of type "memo" with no schema; `good` gets everything right,
//! `meh` leaves the receipts' `store` empty.

use super::common::run_cli as fieldscope;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("fieldscope-several-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("schemas")).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn write_jsonl(path: &Path, rows: &[Value]) {
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// Writes the data; returns the common arguments (truth, two models, both
/// schemas, `--schema-by doc_type`).
fn data(dir: &Path) -> Vec<String> {
    let truth = vec![
        json!({"id": "i1", "doc_type": "inv", "total": 10, "vendor": "ACME"}),
        json!({"id": "r1", "doc_type": " rec ", "amount": 5, "store": "Shop"}),
        json!({"id": "i2", "doc_type": "inv", "total": 20, "vendor": "Beta"}),
        json!({"id": "r2", "doc_type": "rec", "amount": 7, "store": "Mart"}),
        json!({"id": "m1", "doc_type": "memo", "note": "hello"}),
    ];
    // (A cost, not evaluated, so that good is not the truth file itself.)
    let good: Vec<Value> = truth
        .iter()
        .map(|t| {
            let mut p = t.clone();
            p["cost"] = json!(0.01);
            p
        })
        .collect();
    let meh: Vec<Value> = truth
        .iter()
        .map(|t| {
            let mut p = t.clone();
            if p.get("store").is_some() {
                p["store"] = json!("NOT_FOUND");
            }
            p
        })
        .collect();
    write_jsonl(&dir.join("truth.jsonl"), &truth);
    write_jsonl(&dir.join("good.jsonl"), &good);
    write_jsonl(&dir.join("meh.jsonl"), &meh);
    let inv = json!({"type": "object", "properties": {"doc_type": {"type": "string"}, "total": {"type": "number"}, "vendor": {"type": "string"}}});
    let rec = json!({"type": "object", "properties": {"doc_type": {"type": "string"}, "amount": {"type": "number"}, "store": {"type": "string"}}});
    std::fs::write(dir.join("schemas/inv.json"), inv.to_string()).unwrap();
    std::fs::write(dir.join("schemas/rec.json"), rec.to_string()).unwrap();
    [
        "--truth",
        &s(&dir.join("truth.jsonl")),
        "--pred",
        &s(&dir.join("good.jsonl")),
        "--pred",
        &s(&dir.join("meh.jsonl")),
        "--schema",
        &s(&dir.join("schemas/inv.json")),
        "--schema",
        &s(&dir.join("schemas/rec.json")),
        "--schema-by",
        "doc_type",
    ]
    .map(String::from)
    .to_vec()
}

fn with(args: &[String], extra: &[&str]) -> Vec<String> {
    args.iter()
        .cloned()
        .chain(extra.iter().map(|e| e.to_string()))
        .collect()
}

#[test]
fn several_schemas_without_schema_by_is_a_usage_error() {
    let dir = dir("no-by");
    let args = data(&dir);
    let mut without = vec!["eval".to_string()];
    without.extend(args[..args.len() - 2].iter().cloned());
    let (code, out, err) = fieldscope(&without);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("2 --schema files are given but not how a document picks its own")
            && err.contains("--schema-by id"),
        "{err}"
    );
    // The config's schema_by serves as well as the flag.
    std::fs::write(dir.join("config.json"), r#"{"schema_by": "doc_type"}"#).unwrap();
    let config = s(&dir.join("config.json"));
    let (code, _, err) = fieldscope(&with(&without, &["--config", &config]));
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_schemas_with_one_file_stem_are_a_usage_error() {
    let dir = dir("stems");
    let mut args = vec!["eval".to_string()];
    args.extend(data(&dir));
    std::fs::create_dir_all(dir.join("other")).unwrap();
    std::fs::copy(dir.join("schemas/inv.json"), dir.join("other/inv.json")).unwrap();
    args.extend(["--schema".into(), s(&dir.join("other/inv.json"))]);
    let (code, out, err) = fieldscope(&args);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("have the same file stem \"inv\"") && err.contains("other"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn learn_and_partial_results_refuse_several_schemas() {
    let dir = dir("learn");
    let args = data(&dir);
    let out = s(&dir.join("learned.cbor"));
    let mut learn = vec!["learn".to_string()];
    learn.extend(args.iter().cloned());
    learn.extend(["--out".into(), out.clone()]);
    let (code, _, err) = fieldscope(&learn);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("several schemas cannot be learnt or evaluated in shards"),
        "{err}"
    );
    assert!(!Path::new(&out).exists());
    let partial = s(&dir.join("p.cbor"));
    let mut eval = vec!["eval".to_string()];
    eval.extend(args.iter().cloned());
    let (code, _, err) = fieldscope(&with(&eval, &["--partial", &partial]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a learnt-fields file holds one dataset-wide field set"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_report_and_its_warning_are_the_same_on_every_path() {
    let dir = dir("paths");
    let mut args = vec!["eval".to_string()];
    args.extend(data(&dir));
    let (code, first, err) = fieldscope(&with(&args, &["--jobs", "1", "--details"]));
    assert_eq!(code, 0, "{err}");
    // One warning: one document (m1, "memo") names no given schema.
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning")).collect();
    assert_eq!(
        warnings,
        ["warning: schema_by \"doc_type\": 1 document names no given schema and is evaluated without a schema (kinds and types as without one, schema_valid as when no schema is given); its id: \"m1\""]
    );
    let report: Value = serde_json::from_str(&first).unwrap();
    let meh = &report["models"][1];
    // Own field sets: invoices doc_type, total, vendor; receipts doc_type,
    // amount, store; the memo doc_type, note: 4·3 + 2 = 14 outcomes, no
    // true negative. meh misses the receipts' two stores.
    assert_eq!(
        meh["counts"],
        json!({"exact": 12, "partial": 0, "incorrect": 0, "missed": 2, "spurious": 0, "true_negative": 0})
    );
    assert_eq!(meh["micro"]["accuracy"], json!(12.0 / 14.0));
    // Macro over documents: the receipts score recall 2/3, the rest 1.
    let recall = (1.0 + 2.0 / 3.0 + 1.0 + 2.0 / 3.0 + 1.0) / 5.0;
    assert!((meh["macro_documents"]["recall"].as_f64().unwrap() - recall).abs() < 1e-12);
    let fields: Vec<&str> = meh["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        ["amount", "doc_type", "note", "store", "total", "vendor"]
    );
    let details = meh["document_details"].as_array().unwrap();
    let compared: Vec<usize> = details
        .iter()
        .map(|d| d["fields"].as_array().unwrap().len())
        .collect();
    assert_eq!(compared, [3, 3, 3, 3, 2]);
    for extra in [
        &["--jobs", "2", "--details"][..],
        &["--jobs", "3", "--details"],
        &["--jobs", "8", "--details"],
        &["--jobs", "3", "--details", "--stream", "always"],
        &["--jobs", "1", "--details", "--stream", "always"],
    ] {
        let (code, again, _) = fieldscope(&with(&args, extra));
        assert_eq!(code, 0);
        assert!(again == first, "{extra:?} differs");
    }
    // --bootstrap and --compare run on the own outcomes; the same on
    // every thread count.
    let more = ["--bootstrap", "40", "--compare", "good,meh"];
    let (code, one, err) = fieldscope(&with(&args, &[&more[..], &["--jobs", "1"]].concat()));
    assert_eq!(code, 0, "{err}");
    let (_, three, _) = fieldscope(&with(&args, &[&more[..], &["--jobs", "3"]].concat()));
    assert!(one == three);
    let report: Value = serde_json::from_str(&one).unwrap();
    // The two receipts' stores: exact in good, missed in meh.
    let regressions = report["comparison"]["regressions"].as_array().unwrap();
    let flipped: Vec<(&str, &str)> = regressions
        .iter()
        .map(|f| (f["id"].as_str().unwrap(), f["field"].as_str().unwrap()))
        .collect();
    assert_eq!(flipped, [("r1", "store"), ("r2", "store")]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gate_and_sweep_use_each_documents_own_fields() {
    let dir = dir("gate");
    let args = data(&dir);
    // meh's accuracy is 12/14 = 0.857 on own field sets; one dataset-wide
    // field set would add 10 true negatives (22/24 = 0.917).
    let gate = |requires: &[&str]| {
        let mut gate = vec!["gate".to_string()];
        gate.extend(args.iter().cloned());
        for r in requires {
            gate.extend(["--require".to_string(), r.to_string()]);
        }
        fieldscope(&gate)
    };
    let (code, out, err) = gate(&["meh:micro.accuracy < 0.86", "meh:micro.accuracy > 0.85"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = gate(&["meh:micro.accuracy > 0.9"]);
    assert_eq!(code, 1, "{out}{err}");
    // A sweep's point at the configured threshold is the evaluation.
    let mut sweep = vec!["sweep".to_string()];
    sweep.extend(args.iter().cloned());
    sweep.extend(["--param", "similarity", "--values", "0.85"].map(String::from));
    let (code, out, err) = fieldscope(&sweep);
    assert_eq!(code, 0, "{err}");
    let mut eval = vec!["eval".to_string()];
    eval.extend(args.iter().cloned());
    let (_, report, _) = fieldscope(&eval);
    let report: Value = serde_json::from_str(&report).unwrap();
    let sweep: Value = serde_json::from_str(&out).unwrap();
    let point = &sweep["models"][1]["points"][0];
    assert_eq!(
        point["micro_accuracy"],
        report["models"][1]["micro"]["accuracy"]
    );
    assert_eq!(point["micro_f1"], report["models"][1]["micro"]["f1"]);
    assert_eq!(point["micro_accuracy"], json!(12.0 / 14.0));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn embedded_inputs_carry_every_schema_and_the_selector() {
    let dir = dir("embed");
    let mut args = vec!["eval".to_string()];
    args.extend(data(&dir));
    let (code, html, err) = fieldscope(&with(&args, &["--format", "html", "--embed-inputs"]));
    assert_eq!(code, 0, "{err}");
    let bundle = fieldscope::export::embed::extract(html.as_bytes())
        .expect("the page embeds its inputs")
        .expect("the bundle reads");
    let bundle: Value = serde_json::from_slice(&bundle).unwrap();
    assert_eq!(bundle["settings"]["schema_by"], "doc_type");
    let schemas: Vec<&str> = bundle["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["role"] == "schema")
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(schemas, ["inv.json", "rec.json"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_broken_schema_among_several_is_named_by_its_file() {
    let dir = dir("broken");
    let mut args = vec!["eval".to_string()];
    args.extend(data(&dir));
    std::fs::write(dir.join("schemas/rec.json"), r#"{"type": 12}"#).unwrap();
    let (code, _, err) = fieldscope(&args);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("rec.json") && err.contains("not a valid JSON Schema"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
