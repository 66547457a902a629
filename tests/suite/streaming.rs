//! Streamed JSONL (issue 4, "Big input"): `fieldscope eval --stream
//! always` reads each JSONL file one record at a time
//! (`fieldscope::io::JsonlIndex`), `--stream never` holds it in memory
//! (`parse_docs`). Every report, warning and error must be byte for byte
//! the same: on the example, on every table-driven case, on `synth`
//! output (shuffled too), with details and the bootstrap, and on every
//! malformed JSONL file of the corpus.

use super::common::run_cli as fieldscope;
use fieldscope::eval::evaluate::evaluate_sources;
use fieldscope::eval::{evaluate_owned, Config, EvalInput, ModelInput, Preset};
use fieldscope::io::{parse_docs, JsonlIndex};
use fieldscope::synth::{generate, SynthOptions};
use proptest::prelude::*;
use serde_json::Value;
use std::io::Cursor;
use std::path::{Path, PathBuf};

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fieldscope-streaming-{test}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `fieldscope eval ARGS` held in memory and streamed, asserts that
/// status, report and messages are identical, and returns them.
#[track_caller]
fn same_both_ways(args: &[String]) -> (i32, String, String) {
    let with = |when: &str| {
        let mut all = vec!["eval".to_string()];
        all.extend(args.iter().cloned());
        all.extend(["--stream".to_string(), when.to_string()]);
        fieldscope(&all)
    };
    let held = with("never");
    let streamed = with("always");
    assert_eq!(held.0, streamed.0, "exit status of {args:?}: {}", held.2);
    assert_eq!(held.2, streamed.2, "stderr of {args:?}");
    assert!(held.1 == streamed.1, "stdout of {args:?} differs");
    held
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// Writes records as JSONL.
fn write_jsonl(path: &Path, records: &[Value]) {
    let mut text = String::new();
    for r in records {
        text.push_str(&r.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn the_example_in_every_format() {
    let base = [
        "--truth".to_string(),
        s(&data("example/truth.jsonl")),
        "--pred".into(),
        s(&data("example/careful.jsonl")),
        "--pred".into(),
        s(&data("example/eager.json")),
        "--schema".into(),
        s(&data("example/schema.json")),
        "--config".into(),
        s(&data("example/metrics_config.json")),
    ];
    for extra in [
        vec!["--details"],
        vec!["--format", "markdown"],
        vec!["--format", "csv"],
        vec!["--format", "latex"],
        vec!["--format", "html"],
        vec!["--bootstrap", "200", "--details"],
        vec!["--preset", "invoice-cer", "--details"],
    ] {
        let mut args = base.to_vec();
        args.extend(extra.iter().map(|a| a.to_string()));
        let (code, out, _) = same_both_ways(&args);
        assert_eq!(code, 0);
        assert!(!out.is_empty());
    }
    // The truth given again as a prediction file: the same warning.
    let args = [
        "--truth".to_string(),
        s(&data("example/truth.jsonl")),
        "--pred".into(),
        format!("again={}", s(&data("example/truth.jsonl"))),
    ];
    let (code, out, err) = same_both_ways(&args);
    assert_eq!(code, 0);
    assert!(err.contains("was the truth file given as a prediction file by mistake?"));
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["models"][0]["micro"]["f1"], 1.0);
}

#[test]
fn every_table_driven_case() {
    let dir = scratch("cases");
    let mut cases = 0;
    for entry in std::fs::read_dir(data("cases")).unwrap() {
        let path = entry.unwrap().path();
        let case: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let truth = dir.join("truth.jsonl");
        write_jsonl(&truth, case["truth"].as_array().unwrap());
        let mut args = vec!["--truth".to_string(), s(&truth), "--details".into()];
        for (name, preds) in case["predictions"].as_object().unwrap() {
            let file = dir.join(format!("{name}.jsonl"));
            write_jsonl(&file, preds.as_array().unwrap());
            args.extend(["--pred".into(), s(&file)]);
        }
        for key in ["config", "schema"] {
            if let Some(value) = case.get(key) {
                let file = dir.join(format!("{key}.json"));
                std::fs::write(&file, value.to_string()).unwrap();
                args.extend([format!("--{key}"), s(&file)]);
            }
        }
        // Several schemas (SPEC §7.2): one file per schema, named by it.
        for (name, schema) in case
            .get("schemas")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let file = dir.join(format!("{name}.json"));
            std::fs::write(&file, schema.to_string()).unwrap();
            args.extend(["--schema".into(), s(&file)]);
        }
        let (code, out, _) = same_both_ways(&args);
        assert_eq!(code, 0, "{}", path.display());
        // The streamed report holds the hand-computed values too.
        let report: Value = serde_json::from_str(&out).unwrap();
        for (pointer, want) in case["expect"].as_object().unwrap() {
            let got = report.pointer(pointer).unwrap_or(&Value::Null);
            if let (Some(g), Some(w)) = (got.as_f64(), want.as_f64()) {
                assert!((g - w).abs() < 1e-12, "{}: {pointer}", path.display());
            } else if !want.is_object() {
                assert_eq!(got, want, "{}: {pointer}", path.display());
            }
        }
        cases += 1;
    }
    assert!(cases >= 12, "{cases} cases");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn synthetic_invoices_in_order_shuffled_and_with_every_option() {
    let dir = scratch("synth");
    let data = generate(&SynthOptions {
        documents: 300,
        seed: 7,
        ..SynthOptions::default()
    });
    std::fs::write(dir.join("truth.jsonl"), &data.truth_jsonl).unwrap();
    std::fs::write(dir.join("invoice.schema.json"), &data.schema_json).unwrap();
    let mut preds = Vec::new();
    for (name, jsonl) in &data.predictions {
        let path = dir.join(format!("{name}.jsonl"));
        std::fs::write(&path, jsonl).unwrap();
        preds.push((name.clone(), path));
    }
    // One model's records in reverse order, with blank and CRLF lines: the
    // streamed reader then seeks backwards for every document.
    let (first, path) = &preds[0];
    let lines: Vec<&str> = data.predictions[0].1.lines().rev().collect();
    let shuffled = dir.join("reversed.jsonl");
    std::fs::write(&shuffled, format!("\n{}\r\n", lines.join("\r\n\n"))).unwrap();
    let mut args = vec![
        "--truth".to_string(),
        s(&dir.join("truth.jsonl")),
        "--schema".into(),
        s(&dir.join("invoice.schema.json")),
    ];
    for (name, path) in &preds {
        args.extend(["--pred".into(), format!("{name}={}", s(path))]);
    }
    args.extend([
        "--pred".into(),
        format!("{first}-reversed={}", s(&shuffled)),
    ]);
    for extra in [
        vec!["--details"],
        vec!["--format", "markdown", "--bootstrap", "100"],
        vec!["--preset", "not-found", "--format", "csv"],
    ] {
        let mut all = args.clone();
        all.extend(extra.iter().map(|a| a.to_string()));
        let (code, out, _) = same_both_ways(&all);
        assert_eq!(code, 0);
        if extra[0] == "--details" {
            let report: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(report["documents"], 300);
            // Reversing the file changes no score.
            let m = report["models"].as_array().unwrap();
            assert_eq!(m[0]["micro"], m[3]["micro"]);
            assert_eq!(m[0]["counts"], m[3]["counts"]);
        }
    }
    // A streamed truth against a held prediction file, and the reverse.
    let mixed = [
        "--truth".to_string(),
        s(&dir.join("truth.jsonl")),
        "--pred".into(),
        s(path),
        "--details".into(),
    ];
    same_both_ways(&mixed);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_core_gives_the_same_report_from_an_index_and_from_memory() {
    let data = generate(&SynthOptions {
        documents: 120,
        seed: 3,
        ..SynthOptions::default()
    });
    let schema: Value = serde_json::from_str(&data.schema_json).unwrap();
    let config = Config::preset(Preset::InvoiceCer);
    let held = EvalInput {
        truth: parse_docs("truth.jsonl", data.truth_jsonl.as_bytes()).unwrap(),
        models: data
            .predictions
            .iter()
            .map(|(n, j)| {
                ModelInput::new(n, parse_docs(&format!("{n}.jsonl"), j.as_bytes()).unwrap())
            })
            .collect(),
        schema: Some(schema.clone()),
        schemas: Vec::new(),
    };
    let index = |name: &str, text: &str| {
        JsonlIndex::new(name, Cursor::new(text.as_bytes().to_vec())).unwrap()
    };
    let streamed = EvalInput {
        truth: index("truth.jsonl", &data.truth_jsonl),
        models: data
            .predictions
            .iter()
            .map(|(n, j)| ModelInput::new(n, index(&format!("{n}.jsonl"), j)))
            .collect(),
        schema: Some(schema),
        schemas: Vec::new(),
    };
    let a = evaluate_owned(held, &config, true).unwrap();
    let b = evaluate_sources(streamed, &config, true).unwrap();
    assert_eq!(a, b);
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert_eq!(a.documents, 120);
}

#[test]
fn every_malformed_jsonl_file_gives_the_same_error_or_warnings() {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(data("malformed/cases.json")).unwrap()).unwrap();
    let mut checked = 0;
    for case in manifest["cases"].as_array().unwrap() {
        let name = case["file"].as_str().unwrap();
        let role = case["role"].as_str().unwrap();
        if !name.ends_with(".jsonl") || !matches!(role, "truth" | "predictions") {
            continue;
        }
        let path = s(&data("malformed").join(name));
        let truth = s(&data("example/truth.jsonl"));
        let careful = s(&data("example/careful.jsonl"));
        let args: Vec<String> = match role {
            "truth" => vec!["--truth".into(), path, "--pred".into(), careful],
            _ => vec!["--truth".into(), truth, "--pred".into(), path],
        };
        let (code, _, err) = same_both_ways(&args);
        match case["error"].as_str() {
            Some(message) => {
                assert_eq!(code, 2, "{name}");
                assert!(err.ends_with(&format!("{message}\n")), "{name}: {err}");
                assert!(err.contains(&format!("{name}:")), "{name}: names the file");
            }
            None => assert_eq!(code, 0, "{name}: {err}"),
        }
        checked += 1;
    }
    assert!(checked >= 15, "{checked} JSONL cases");
}

/// Pieces of JSONL lines, good and bad, for the property below.
const PIECES: [&[u8]; 16] = [
    b"{\"id\": \"a\", \"x\": 1}\n",
    b"{\"id\": \"b\", \"x\": [1, {\"y\": \"\\u00e9\"}]}\n",
    b"{\"id\": \"c\", \"t\": \"caf\xC3\xA9\"}\r\n",
    b"\n",
    b"  \t\r\n",
    b"{\"id\": \"d\", \"x\": ",
    b"[1, 2]\n",
    b"{\"id\" 1}\n",
    b"\xE9\n",
    b"\xC3",
    b"{\"x\": NaN}\n",
    b"{\"x\": 1e400}\n",
    b"\"text\"\n",
    b"{\"id\": \"a\", \"x\": 2}\n",
    b"\x00",
    b"{\"e\\u0301\": \"Mu\xCC\x88ller\"}\n",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Any file built from those pieces (with or without a BOM): the index
    /// and `parse_docs` agree on the error, or on every record.
    #[test]
    fn the_index_reads_what_parse_docs_reads(
        bom in any::<bool>(),
        pieces in proptest::collection::vec(0..PIECES.len(), 0..12),
    ) {
        let mut bytes = Vec::new();
        if bom {
            bytes.extend_from_slice(b"\xEF\xBB\xBF");
        }
        for p in pieces {
            bytes.extend_from_slice(PIECES[p]);
        }
        let whole = parse_docs("p.jsonl", &bytes);
        let index = JsonlIndex::new("p.jsonl", Cursor::new(bytes.clone()));
        match (whole, index) {
            (Ok(file), Ok(mut index)) => {
                use fieldscope::eval::RecordSource;
                prop_assert_eq!(index.len(), file.records.len());
                for i in 0..index.len() {
                    let root = index.fetch(i).unwrap();
                    let want = file.forest.get(file.records[i].root);
                    prop_assert!(index.forest().get(root).same(want));
                    prop_assert_eq!(index.info(i).line, file.records[i].line);
                }
            }
            (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            (a, b) => prop_assert!(false, "parse_docs {:?}, index {:?}", a.err(), b.err()),
        }
    }
}
