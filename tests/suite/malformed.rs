//! The malformed-input corpus (`tests/data/malformed/cases.json`, issue #4):
//! every broken, hostile or merely unusual input file, run through the
//! command-line binary and through the browser app's state
//! ([`fieldscope::session::Session`]), with the exact message each must
//! give.
//!
//! Each case names one subject file (committed, or generated here when it
//! would be megabytes: 10,000-level nesting, a megabyte-long string), its
//! role, and what must happen:
//!
//! * `error`: the CLI exits with status 2 and prints exactly `stderr`; in
//!   the app the file is marked failed with the same message (without the
//!   `error: ` prefix) and every other file is still evaluated;
//! * `warning`: the CLI exits with 0, and the JSON report's `warnings` are
//!   exactly `warnings` (leaving out the `model "…"` notes about re-spread
//!   weights, which every case here triggers because no truth value is a
//!   JSON number); the app's report has the same warnings;
//! * `ok`: exit 0, no such warning, the file read with `records` records.
//!
//! The other inputs are `base_truth.jsonl` (documents "a", "b") and
//! `base_model.jsonl` (right on "a", a wrong total on "b"). The positions
//! in the messages were counted by hand; each case's `description` says how.

use fieldscope::session::{Role, Session};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/malformed")
}

/// One row of `cases.json`.
struct Case {
    /// The subject file's name (as the user would give it).
    name: String,
    bytes: Vec<u8>,
    role: Role,
    expect: Expect,
    description: String,
}

enum Expect {
    Error(String),
    Warnings(Vec<String>, usize),
    Ok(usize),
}

/// The big inputs, generated rather than committed.
fn generate(name: &str) -> Vec<u8> {
    let big = "x".repeat(1 << 20);
    let text = match name {
        "deep_array.json" => format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)),
        "deep_record.jsonl" => format!(
            "{{\"id\": \"a\", \"x\": {}{}}}\n",
            "[".repeat(10_000),
            "]".repeat(10_000)
        ),
        "deep_schema.json" => format!("{}{{}}{}", "{\"items\":".repeat(10_000), "}".repeat(10_000)),
        "megabyte_string.jsonl" | "megabyte_truth.jsonl" => format!(
            "{{\"id\": \"a\", \"total\": \"10.00\", \"vendor\": \"{big}ACME\"}}\n\
             {{\"id\": \"b\", \"total\": \"20.00\", \"vendor\": \"Globex\"}}\n"
        ),
        other => panic!("cases.json names an unknown generator {other:?}"),
    };
    text.into_bytes()
}

fn load_cases() -> Vec<Case> {
    let path = corpus_dir().join("cases.json");
    let text = std::fs::read_to_string(&path).expect("cases.json is readable");
    let rows: Vec<Value> = serde_json::from_str(&text).expect("cases.json is JSON");
    rows.iter()
        .map(|row| {
            let field = |k: &str| row.get(k).and_then(Value::as_str);
            let (name, bytes) = match (field("file"), field("generate")) {
                (Some(file), None) => (
                    file.to_string(),
                    std::fs::read(corpus_dir().join(file))
                        .unwrap_or_else(|e| panic!("{file}: {e}")),
                ),
                (None, Some(generator)) => (generator.to_string(), generate(generator)),
                _ => panic!("a case needs `file` or `generate`: {row}"),
            };
            let role = Role::parse(field("role").unwrap_or_default())
                .unwrap_or_else(|| panic!("{name}: unknown role"));
            let records = || {
                row.get("records")
                    .and_then(Value::as_u64)
                    .unwrap_or_else(|| panic!("{name}: `records` missing")) as usize
            };
            let expect = match field("expect") {
                Some("error") => Expect::Error(
                    field("stderr")
                        .unwrap_or_else(|| panic!("{name}: `stderr` missing"))
                        .to_string(),
                ),
                Some("warning") => Expect::Warnings(
                    row.get("warnings")
                        .and_then(Value::as_array)
                        .unwrap_or_else(|| panic!("{name}: `warnings` missing"))
                        .iter()
                        .map(|w| w.as_str().unwrap_or_default().to_string())
                        .collect(),
                    records(),
                ),
                Some("ok") => Expect::Ok(records()),
                other => panic!("{name}: unknown expectation {other:?}"),
            };
            Case {
                name,
                bytes,
                role,
                expect,
                description: field("description").unwrap_or_default().to_string(),
            }
        })
        .collect()
}

/// The arguments that give the subject file its role.
fn cli_args(case: &Case) -> Vec<&str> {
    let name = case.name.as_str();
    match case.role {
        Role::Truth => vec!["eval", "--truth", name, "--pred", "base_model.jsonl"],
        Role::Predictions => vec![
            "eval",
            "--truth",
            "base_truth.jsonl",
            "--pred",
            "base_model.jsonl",
            "--pred",
            name,
        ],
        Role::Schema => vec![
            "eval",
            "--truth",
            "base_truth.jsonl",
            "--pred",
            "base_model.jsonl",
            "--schema",
            name,
        ],
        Role::Config => vec![
            "eval",
            "--truth",
            "base_truth.jsonl",
            "--pred",
            "base_model.jsonl",
            "--config",
            name,
        ],
    }
}

/// The warnings a case is about: all but the `model "…"` notes.
fn case_warnings(warnings: &[String]) -> Vec<String> {
    warnings
        .iter()
        .filter(|w| !w.starts_with("model \""))
        .cloned()
        .collect()
}

/// Runs the real binary in a directory holding the two base files and the
/// subject, so every file is named as the user typed it.
fn run_cli(case: &Case, dir: &Path) -> (i32, String, String) {
    std::fs::create_dir_all(dir).expect("temp dir");
    for base in ["base_truth.jsonl", "base_model.jsonl"] {
        std::fs::copy(corpus_dir().join(base), dir.join(base)).expect("copy base file");
    }
    std::fs::write(dir.join(&case.name), &case.bytes).expect("write subject");
    let output = Command::new(env!("CARGO_BIN_EXE_fieldscope"))
        .args(cli_args(case))
        .current_dir(dir)
        .output()
        .expect("the fieldscope binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

fn check_cli(case: &Case, dir: &Path) -> Result<(), String> {
    let started = Instant::now();
    let (code, stdout, stderr) = run_cli(case, dir);
    let elapsed = started.elapsed();
    // Debug build, shared machine: generous, but a quadratic blow-up on the
    // megabyte string or the deep nesting would take minutes.
    if elapsed > Duration::from_secs(20) {
        return Err(format!("took {elapsed:?}"));
    }
    match &case.expect {
        Expect::Error(expected) => {
            if code != 2 || stderr.trim_end() != expected {
                return Err(format!(
                    "expected status 2 and\n  {expected}\ngot status {code} and\n  {}",
                    stderr.trim_end()
                ));
            }
        }
        Expect::Warnings(..) | Expect::Ok(_) => {
            if code != 0 {
                return Err(format!("expected status 0, got {code}: {stderr}"));
            }
            let report: Value = serde_json::from_str(&stdout).map_err(|e| e.to_string())?;
            let warnings: Vec<String> = report["warnings"]
                .as_array()
                .ok_or("no warnings array")?
                .iter()
                .filter_map(|w| w.as_str().map(str::to_string))
                .collect();
            let warnings = case_warnings(&warnings);
            let empty = Vec::new();
            let expected = match &case.expect {
                Expect::Warnings(w, _) => w,
                _ => &empty,
            };
            if &warnings != expected {
                return Err(format!(
                    "expected warnings {expected:#?}\ngot {warnings:#?}"
                ));
            }
            for w in expected {
                if !stderr.contains(&format!("warning: {w}\n")) {
                    return Err(format!("stderr lacks the warning {w:?}: {stderr}"));
                }
            }
            let names: Vec<&str> = report["models"]
                .as_array()
                .ok_or("no models")?
                .iter()
                .filter_map(|m| m["name"].as_str())
                .collect();
            let want: &[&str] = if case.role == Role::Predictions {
                &["base_model", stem(&case.name)]
            } else {
                &["base_model"]
            };
            if names != want {
                return Err(format!("expected models {want:?}, got {names:?}"));
            }
        }
    }
    Ok(())
}

fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(s, _)| s)
}

/// A session with the base files and the subject in its role (the subject
/// last, its role set explicitly, as a user would in the file list).
fn session_with(case: &Case, role: Role) -> (Session, u32) {
    let mut s = Session::default();
    let subject;
    if role == Role::Truth {
        subject = s.add_file(&case.name, case.bytes.clone());
        s.set_role(subject, Role::Truth);
        let m = s.add_file("base_model.jsonl", base("base_model.jsonl"));
        s.set_role(m, Role::Predictions);
    } else {
        let t = s.add_file("base_truth.jsonl", base("base_truth.jsonl"));
        s.set_role(t, Role::Truth);
        let m = s.add_file("base_model.jsonl", base("base_model.jsonl"));
        s.set_role(m, Role::Predictions);
        subject = s.add_file(&case.name, case.bytes.clone());
        s.set_role(subject, role);
        // A subject named like a truth file took the truth role on
        // arrival; give it back to the base truth.
        s.set_role(t, Role::Truth);
    }
    (s, subject)
}

fn base(name: &str) -> Vec<u8> {
    std::fs::read(corpus_dir().join(name)).expect("base file")
}

fn model_names(s: &Session) -> Result<Vec<String>, String> {
    Ok(s.evaluate()?.models.into_iter().map(|m| m.name).collect())
}

fn check_session(case: &Case) -> Result<(), String> {
    let (s, id) = session_with(case, case.role);
    let file = s.files.iter().find(|f| f.id == id).ok_or("file lost")?;
    if file.role != case.role {
        return Err(format!("role {:?}, expected {:?}", file.role, case.role));
    }
    match &case.expect {
        Expect::Error(expected) => {
            let expected = expected.strip_prefix("error: ").unwrap_or(expected);
            let got = file.error().map(ToString::to_string);
            if got.as_deref() != Some(expected) {
                return Err(format!(
                    "app: expected the file to fail with\n  {expected}\ngot {got:?}"
                ));
            }
            if case.role == Role::Truth {
                // No truth, no report: the app says which file to fix.
                let want = format!(
                    "The ground-truth file {} has an error (see the file list).",
                    case.name
                );
                if s.evaluate().err() != Some(want.clone()) {
                    return Err(format!("app: expected {want:?}, got {:?}", s.evaluate()));
                }
                // The same bytes as a prediction file: same message, and
                // the rest is still evaluated.
                let (s, id) = session_with(case, Role::Predictions);
                let got = s
                    .files
                    .iter()
                    .find(|f| f.id == id)
                    .and_then(|f| f.error().map(ToString::to_string));
                if got.as_deref() != Some(expected) {
                    return Err(format!("app, as predictions: got {got:?}"));
                }
                if model_names(&s)? != ["base_model"] {
                    return Err("app, as predictions: the other model is not evaluated".into());
                }
            } else if model_names(&s)? != ["base_model"] {
                return Err(format!(
                    "app: expected a report with base_model alone, got {:?}",
                    s.evaluate().map(|r| r.models.len())
                ));
            }
        }
        Expect::Warnings(_, records) | Expect::Ok(records) => {
            if let Some(e) = file.error() {
                return Err(format!("app: unexpected error {e}"));
            }
            if file.records() != Some(*records) {
                return Err(format!(
                    "app: expected {records} records, got {:?}",
                    file.records()
                ));
            }
            let report = s.evaluate()?;
            let warnings = case_warnings(&report.warnings);
            let expected = match &case.expect {
                Expect::Warnings(w, _) => w.clone(),
                _ => Vec::new(),
            };
            if warnings != expected {
                return Err(format!(
                    "app: expected warnings {expected:#?}\ngot {warnings:#?}"
                ));
            }
            let want = if case.role == Role::Predictions { 2 } else { 1 };
            if report.models.len() != want {
                return Err(format!("app: {} models in the report", report.models.len()));
            }
        }
    }
    Ok(())
}

#[test]
fn the_corpus_is_big_enough_and_its_files_are_all_listed() {
    let cases = load_cases();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let errors = cases
        .iter()
        .filter(|c| matches!(c.expect, Expect::Error(_)))
        .count();
    assert!(errors >= 40, "{errors} error cases");
    let mut listed: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    listed.extend(["base_truth.jsonl", "base_model.jsonl", "cases.json"]);
    for entry in std::fs::read_dir(corpus_dir()).expect("corpus dir") {
        let name = entry.expect("dir entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            listed.contains(&name.as_ref()),
            "{name} is not in cases.json"
        );
    }
}

#[test]
fn every_malformed_input_gives_its_exact_message_in_the_cli_and_the_app() {
    let cases = load_cases();
    let root = std::env::temp_dir().join(format!("fieldscope-malformed-{}", std::process::id()));
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let dir = root.join(format!("{i:02}"));
        if let Err(e) = check_cli(case, &dir) {
            failures.push(format!("{} (CLI; {}):\n{e}", case.name, case.description));
        }
        if let Err(e) = check_session(case) {
            failures.push(format!("{} (app; {}):\n{e}", case.name, case.description));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The one case whose meaning is a decision: a prediction file that is the
/// ground truth again is evaluated (a user may compare the truth with
/// itself on purpose) but warned about, and its scores are perfect.
#[test]
fn the_truth_file_again_is_warned_about_and_scores_perfectly() {
    let mut s = Session::default();
    s.add_file("truth.jsonl", base("base_truth.jsonl"));
    s.add_file("copy.jsonl", base("base_truth.jsonl"));
    s.add_file("model.jsonl", base("base_model.jsonl"));
    let report = s.evaluate().expect("a report");
    let flagged: Vec<&String> = report
        .warnings
        .iter()
        .filter(|w| w.contains("ground-truth file again"))
        .collect();
    assert_eq!(flagged.len(), 1, "{:?}", report.warnings);
    assert!(
        flagged[0].starts_with("copy.jsonl (copy): "),
        "{}",
        flagged[0]
    );
    let copy = &report.models[0];
    assert_eq!((copy.name.as_str(), copy.micro.f1), ("copy", 1.0));
    // Two documents × two evaluated fields (total, vendor; the id is not
    // evaluated); base_model gets "b"'s total wrong: 3 of 4 exact.
    assert_eq!(report.models[1].counts.exact, 3);
    assert_eq!(report.models[0].counts.exact, 4);
}
