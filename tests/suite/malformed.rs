//! Malformed and hostile inputs (`tests/data/malformed/cases.json`): each
//! through the command-line tool (exit status 2 and the exact message, or
//! exit status 0 and the exact warnings) and through the app's session (the
//! file marked failed with the same message, every other file still
//! loaded and evaluated). Plus inputs generated here rather than committed:
//! 10,000-level nesting and a megabyte-long string.

use super::common::run_cli as fieldscope;
use fieldscope::session::{Role, Session};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/malformed")
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/example")
        .join(name)
}

/// The CLI's arguments with the case file (named `name`, at `path`) in its
/// role; the other inputs are the example's truth and careful model.
fn cli_args(role: &str, path: &Path) -> Vec<String> {
    let p = path.display().to_string();
    let truth = example("truth.jsonl").display().to_string();
    let careful = example("careful.jsonl").display().to_string();
    let mut args = vec!["eval".to_string(), "--truth".into()];
    match role {
        "truth" => args.extend([p, "--pred".into(), careful]),
        "predictions" => args.extend([truth, "--pred".into(), p]),
        "config" => args.extend([truth, "--pred".into(), careful, "--config".into(), p]),
        "schema" => args.extend([truth, "--pred".into(), careful, "--schema".into(), p]),
        other => panic!("unknown role {other}"),
    }
    args
}

/// A CLI message with the case file's path shown as its bare name and the
/// example's truth as `../example/truth.jsonl` (as in the manifest).
fn bare(text: &str, shown: &str, name: &str) -> String {
    text.replace(shown, name).replace(
        &example("truth.jsonl").display().to_string(),
        "../example/truth.jsonl",
    )
}

fn role_of(name: &str) -> Role {
    Role::parse(name).unwrap_or_else(|| panic!("unknown role {name}"))
}

/// Checks one case: `error` (exact message, the file name as the user gave
/// it) or `warnings` (exact, those naming the file).
fn check_case(name: &str, bytes: &[u8], role: &str, error: Option<&str>, warnings: &[String]) {
    // The CLI, with the file written under its own name.
    let tmp = std::env::temp_dir().join(format!("fieldscope-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let path = tmp.join(name);
    std::fs::write(&path, bytes).unwrap();
    let shown = path.display().to_string();
    let (code, out, err) = fieldscope(&cli_args(role, &path));
    match error {
        Some(message) => {
            assert_eq!(code, 2, "{name}: exit status");
            assert_eq!(
                bare(&err, &shown, name),
                format!("error: {message}\n"),
                "{name}: CLI message"
            );
            assert!(out.is_empty(), "{name}: nothing on stdout");
        }
        None => {
            assert_eq!(code, 0, "{name}: exit status ({err})");
            let report: Value = serde_json::from_str(&out).unwrap();
            let got: Vec<String> = report["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .filter(|w| w.contains(shown.as_str()))
                .map(|w| bare(w, &shown, name))
                .collect();
            assert_eq!(got, warnings, "{name}: warnings");
        }
    }
    std::fs::remove_file(&path).ok();

    // The app's session: the example's truth, two models and the case file
    // in its role (as the user would set it in the file list).
    let mut session = Session::default();
    session.add_file(
        "truth.jsonl",
        std::fs::read(example("truth.jsonl")).unwrap(),
    );
    session.add_file(
        "careful.jsonl",
        std::fs::read(example("careful.jsonl")).unwrap(),
    );
    session.add_file("eager.json", std::fs::read(example("eager.json")).unwrap());
    let id = session.add_file(name, bytes.to_vec());
    let role = role_of(role);
    if session.files.iter().find(|f| f.id == id).unwrap().role != role {
        session.set_role(id, role);
    }
    // A name like `truth_again.jsonl` is taken for the truth on arrival; the
    // user then gives the truth role back to the real truth file.
    if session.truth().is_none() {
        let truth = session
            .files
            .iter()
            .find(|f| f.name == "truth.jsonl")
            .unwrap()
            .id;
        session.set_role(truth, Role::Truth);
    }
    // What the page's schema worker does: validate, and give a schema
    // that is not JSON Schema its error.
    session.compute_validity_now();
    let file = session.files.iter().find(|f| f.id == id).unwrap();
    assert_eq!(file.role, role, "{name}: role in the app");
    match error {
        Some(message) => {
            assert_eq!(
                file.error().map(|e| e.to_string()).as_deref(),
                Some(message),
                "{name}: the app's message"
            );
        }
        None => assert!(file.error().is_none(), "{name}: no error in the app"),
    }
    // Every other file stays loaded and without error.
    let others: Vec<_> = session.files.iter().filter(|f| f.id != id).collect();
    assert_eq!(others.len(), 3, "{name}: the other files are kept");
    for f in &others {
        if f.name == "truth.jsonl" {
            // When the case file takes the truth role, the old truth becomes
            // predictions (the app keeps one truth).
            let expected = if role == Role::Truth {
                Role::Predictions
            } else {
                Role::Truth
            };
            assert_eq!(f.role, expected, "{name}: role of truth.jsonl");
        }
        assert!(f.error().is_none(), "{name}: {} has no error", f.name);
    }
    let report = session.evaluate();
    match (role, error) {
        (Role::Truth, Some(_)) => assert_eq!(
            report.unwrap_err(),
            format!("The ground-truth file {name} has an error (see the file list).")
        ),
        _ => {
            let report = report.unwrap_or_else(|e| panic!("{name}: no report: {e}"));
            let names: Vec<&str> = report.models.iter().map(|m| m.name.as_str()).collect();
            assert!(
                names.contains(&"careful") && names.contains(&"eager"),
                "{name}: {names:?}"
            );
        }
    }
}

#[test]
fn every_case_of_the_corpus() {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir().join("cases.json")).unwrap()).unwrap();
    let cases = manifest["cases"].as_array().unwrap();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    for case in cases {
        let name = case["file"].as_str().unwrap();
        let bytes = std::fs::read(dir().join(name)).unwrap();
        let warnings: Vec<String> = case["warnings"]
            .as_array()
            .map(|w| w.iter().map(|w| w.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        check_case(
            name,
            &bytes,
            case["role"].as_str().unwrap(),
            case["error"].as_str(),
            &warnings,
        );
    }
}

#[test]
fn every_file_of_the_folder_is_a_case() {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir().join("cases.json")).unwrap()).unwrap();
    let mut listed: Vec<&str> = manifest["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["file"].as_str().unwrap())
        .collect();
    listed.sort();
    listed.dedup();
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "cases.json")
        .collect();
    files.sort();
    assert_eq!(listed, files);
}

#[test]
fn ten_thousand_levels_of_nesting_are_refused_with_a_position() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let jsonl = format!("{{\"id\": \"inv-001\", \"total\": {deep}}}\n");
    // The record is level 1, so the 127th `[` (column 27 + 127) is level 128,
    // one more than serde_json's limit of 127 levels below the top.
    check_case(
        "deep.jsonl",
        jsonl.as_bytes(),
        "predictions",
        Some("deep.jsonl:1:154: nesting too deep: arrays and objects may be nested at most 127 levels deep"),
        &[],
    );
    // The array is level 1 and the record level 2; the 126th `{"a": ` (at
    // column 24 + 125 × 6 + 1) is level 128.
    let objects = format!("{}1{}", "{\"a\": ".repeat(10_000), "}".repeat(10_000));
    let json = format!("[{{\"id\": \"inv-001\", \"x\": {objects}}}]");
    check_case(
        "deep.json",
        json.as_bytes(),
        "truth",
        Some("deep.json:1:775: nesting too deep: arrays and objects may be nested at most 127 levels deep"),
        &[],
    );
}

#[test]
fn a_megabyte_long_string_is_read_and_compared() {
    // A one-million-character vendor name, two edits away from the truth's.
    let truth_name = "ab".repeat(500_000);
    let pred_name = "ba".repeat(500_000);
    let truth = format!("{{\"id\": \"a\", \"name\": \"{truth_name}\"}}\n");
    let pred = format!("{{\"id\": \"a\", \"name\": \"{pred_name}\"}}\n");
    let tmp = std::env::temp_dir().join(format!("fieldscope-megabyte-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(tmp.join("t.jsonl"), truth).unwrap();
    std::fs::write(tmp.join("p.jsonl"), pred).unwrap();
    let (code, out, err) = fieldscope(&[
        "eval".into(),
        "--truth".into(),
        tmp.join("t.jsonl").display().to_string(),
        "--pred".into(),
        tmp.join("p.jsonl").display().to_string(),
        "--config".into(),
        {
            std::fs::write(tmp.join("c.json"), r#"{"preset": "invoice-cer"}"#).unwrap();
            tmp.join("c.json").display().to_string()
        },
    ]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let field = &report["models"][0]["fields"][0];
    assert_eq!(field["field"], "name");
    // CER = 2 edits / 1,000,000 characters ≤ 0.15: exact under invoice-cer.
    assert_eq!(field["cer"], 2.0 / 1_000_000.0);
    assert_eq!(field["counts"]["exact"], 1);
    std::fs::remove_dir_all(&tmp).ok();
}
