//! `fieldscope gate` and `eval --compare` end to end on constructed data
//! (issue 17): the verdicts and their numbers by hand, exit codes, the
//! Markdown, JSON and JUnit outputs (validated by `xmllint --schema`
//! against `tests/data/junit.xsd`), the flipped documents.
//!
//! The data: 300 documents of four fields — `name` (a string), `total` (a
//! number), `date` and `code` (strings). The baseline `base` is right
//! everywhere except `name` in the 12 documents `i % 25 == 0`.
//! Candidates: `degraded` (base with `total` off by one in the 90
//! documents `i % 10 < 3`: 30 %), `copy` (base itself), `noisy` (base
//! with `name` also wrong in documents 1 and 2 and `code` in document 3),
//! `better` (every `name` right).

use super::common::run_cli as fieldscope;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const DOCS: usize = 300;

fn truth(i: usize) -> Value {
    json!({
        "id": format!("d{i:03}"),
        "name": format!("Vendor number {i}"),
        "total": 100 + i,
        "date": format!("2024-03-{:02}", 1 + i % 28),
        "code": format!("C-{}", i % 7),
    })
}

fn base(i: usize) -> Value {
    let mut v = truth(i);
    if i.is_multiple_of(25) {
        v["name"] = json!("qqqq");
    }
    v
}

fn model(name: &str, i: usize) -> Value {
    let mut v = base(i);
    match name {
        "base" | "copy" => {}
        "degraded" => {
            if i % 10 < 3 {
                v["total"] = json!(101 + i);
            }
        }
        "noisy" => {
            if i == 1 || i == 2 {
                v["name"] = json!("qqqq");
            }
            if i == 3 {
                v["code"] = json!("Z-9");
            }
        }
        "better" => v = truth(i),
        other => panic!("no model {other}"),
    }
    v
}

fn jsonl(rows: impl Iterator<Item = Value>) -> String {
    rows.map(|v| v.to_string() + "\n").collect()
}

/// The directory holding truth.jsonl and one file per model (written once).
fn data_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fieldscope-gate-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("truth.jsonl"), jsonl((0..DOCS).map(truth))).unwrap();
        for m in ["base", "copy", "degraded", "noisy", "better"] {
            let text = jsonl((0..DOCS).map(|i| model(m, i)));
            std::fs::write(dir.join(format!("{m}.jsonl")), text).unwrap();
        }
        dir
    })
}

fn out_file(name: &str) -> PathBuf {
    data_dir().join(name)
}

/// `fieldscope gate` with the truth, these models and more arguments.
fn gate(models: &[&str], extra: &[&str]) -> (i32, String, String) {
    let dir = data_dir();
    let mut args = vec![
        "gate".to_string(),
        "--truth".into(),
        dir.join("truth.jsonl").display().to_string(),
    ];
    for m in models {
        args.push("--pred".into());
        args.push(format!("{m}={}", dir.join(format!("{m}.jsonl")).display()));
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    fieldscope(&args)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn checks(report: &Value) -> &Vec<Value> {
    report["checks"].as_array().unwrap()
}

fn failed_metrics(report: &Value, model: &str) -> Vec<String> {
    checks(report)
        .iter()
        .filter(|c| c["model"] == model && c["passed"] == false)
        .map(|c| c["metric"].as_str().unwrap().to_string())
        .collect()
}

fn check<'r>(report: &'r Value, model: &str, metric: &str) -> &'r Value {
    checks(report)
        .iter()
        .find(|c| c["model"] == model && c["metric"] == metric)
        .unwrap_or_else(|| panic!("no check {model} {metric}"))
}

#[track_caller]
fn close(actual: &Value, expected: f64) {
    let a = actual
        .as_f64()
        .unwrap_or_else(|| panic!("{actual} is not a number"));
    assert!((a - expected).abs() < 1e-12, "expected {expected}, got {a}");
}

#[test]
fn a_candidate_degraded_on_one_field_fails_exactly_on_that_field() {
    let json = out_file("degraded-fields.json");
    let (code, out, _) = gate(
        &["base", "degraded"],
        &[
            "--baseline",
            "base",
            "--no-regression",
            "fields[*].f1",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{out}");
    let r = read_json(&json);
    assert_eq!(r["passed"], false);
    assert_eq!(failed_metrics(&r, "degraded"), ["fields[total].f1"]);
    let metrics: Vec<&str> = checks(&r)
        .iter()
        .map(|c| c["metric"].as_str().unwrap())
        .collect();
    assert_eq!(
        metrics,
        [
            "fields[code].f1",
            "fields[date].f1",
            "fields[name].f1",
            "fields[total].f1"
        ]
    );
    // total: 210 exact, 90 incorrect (a false positive and a false
    // negative each): P = R = F1 = 210/300 = 0.7 against 1.
    let t = check(&r, "degraded", "fields[total].f1");
    close(&t["value"], 0.7);
    close(&t["baseline_value"], 1.0);
    close(&t["difference"], -0.3);
    close(&t["drop"], 0.3);
    // d_b = 1 − (share of right totals drawn); d_b − 0.3 ≥ 0.3 would need
    // at most 40 % right: no resample of 300 documents comes near, so p =
    // 1/2001, and Holm over the 4 checks multiplies it by 4.
    close(&t["p_value"], 1.0 / 2001.0);
    close(&t["p_holm"], 4.0 / 2001.0);
    let i = &t["interval"];
    assert!(i["low"].as_f64().unwrap() < -0.3 && i["high"].as_f64().unwrap() > -0.3);
    assert!(i["high"].as_f64().unwrap() < -0.2, "{i}");
    // The other fields are the baseline's, document for document.
    for f in ["code", "date", "name"] {
        let c = check(&r, "degraded", &format!("fields[{f}].f1"));
        assert_eq!(
            (c["p_value"].as_f64(), c["difference"].as_f64()),
            (Some(1.0), Some(0.0))
        );
    }
    // The summary: failure first, with its numbers.
    assert!(
        out.starts_with("## ❌ fieldscope gate failed: 1 of 4 checks failed\n"),
        "{out}"
    );
    let first_row = out.lines().find(|l| l.starts_with("| ❌")).unwrap();
    let (low, high) = (i["low"].as_f64().unwrap(), i["high"].as_f64().unwrap());
    assert_eq!(
        first_row,
        format!(
            "| ❌ fail | degraded | no regression of fields\\[total\\].f1 | 0.7000 | −0.3000 vs base 1.0000 | [{}, {}] | 0.0020 |",
            signed(low),
            signed(high)
        )
    );

    // With the default metrics (micro F1, macro-document F1, every
    // field's F1) the pooled scores drop too, and no other field fails.
    let (code, _, _) = gate(
        &["base", "degraded"],
        &["--baseline", "base", "--json", json.to_str().unwrap()],
    );
    assert_eq!(code, 1);
    let r = read_json(&json);
    assert_eq!(
        failed_metrics(&r, "degraded"),
        ["micro.f1", "macro_documents.f1", "fields[total].f1"]
    );
    // Micro: 1,200 values; base misses 12 names (F1 = 1188/1200 = 0.99),
    // degraded 90 totals more (1098/1200 = 0.915).
    close(&check(&r, "degraded", "micro.f1")["value"], 0.915);
    close(&check(&r, "degraded", "micro.f1")["baseline_value"], 0.99);
    assert_eq!(checks(&r).len(), 6);
}

/// `x` as the summary prints a signed number.
fn signed(x: f64) -> String {
    let t = format!("{x:.4}");
    match t.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None if x > 0.0 => format!("+{t}"),
        None => t,
    }
}

#[test]
fn an_identical_copy_and_a_slightly_noisier_candidate_pass() {
    let json = out_file("copy-noisy.json");
    let (code, out, err) = gate(
        &["base", "copy", "noisy"],
        &["--baseline", "base", "--json", json.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("## ✅ fieldscope gate passed: 12 of 12 checks\n"),
        "{out}"
    );
    let r = read_json(&json);
    assert_eq!(r["passed"], true);
    for c in checks(&r).iter().filter(|c| c["model"] == "copy") {
        assert_eq!(c["p_value"], 1.0, "{c}");
        assert_eq!(c["difference"], 0.0, "{c}");
        assert_eq!(c["passed"], true);
    }
    // noisy: two names and one code more wrong out of 300 — worse, but
    // not significantly.
    let name = check(&r, "noisy", "fields[name].f1");
    close(&name["value"], 286.0 / 300.0);
    close(&name["drop"], 2.0 / 300.0);
    let p = name["p_value"].as_f64().unwrap();
    assert!(p > 0.05 && p < 1.0, "{name}");
    assert!(name["p_holm"].as_f64().unwrap() > 0.05);
    // Holm by hand over noisy's six checks: sorted ascending, the i-th
    // (from 0) times 6 − i, running maximum, at most 1.
    let family: Vec<&Value> = checks(&r)
        .iter()
        .filter(|c| c["model"] == "noisy")
        .collect();
    assert_eq!(family.len(), 6);
    let mut order: Vec<(f64, usize)> = family
        .iter()
        .enumerate()
        .map(|(k, c)| (c["p_value"].as_f64().unwrap(), k))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut running: f64 = 0.0;
    for (rank, (p, k)) in order.into_iter().enumerate() {
        running = running.max(((6 - rank) as f64 * p).min(1.0));
        close(&family[k]["p_holm"], running);
    }
    // No flip but the three noisy pairs.
    let cmp = r["comparisons"].as_array().unwrap();
    assert_eq!(cmp.len(), 2);
    assert_eq!(cmp[0]["candidate"], "copy");
    assert_eq!(cmp[0]["regressions"].as_array().unwrap().len(), 0);
    let ids: Vec<&str> = cmp[1]["regressions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["d001", "d002", "d003"]);
}

#[test]
fn a_better_candidate_passes() {
    let json = out_file("better.json");
    let (code, out, _) = gate(
        &["base", "better"],
        &["--baseline", "base", "--json", json.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}");
    let r = read_json(&json);
    let name = check(&r, "better", "fields[name].f1");
    // base: 288 of 300 names (P = R = 0.96); better: all.
    close(&name["difference"], 0.04);
    close(&name["drop"], -0.04);
    assert_eq!(name["p_value"], 1.0);
    assert!(checks(&r).iter().all(|c| c["passed"] == true));
    // Its flips are fixes: the 12 names.
    let c = &r["comparisons"][0];
    assert_eq!(c["regressions"].as_array().unwrap().len(), 0);
    assert_eq!(c["fixes"].as_array().unwrap().len(), 12);
    assert_eq!(
        c["fields"],
        json!([{"field": "name", "regressions": 0, "fixes": 12}])
    );
}

#[test]
fn an_unmet_requirement_fails_with_its_numbers() {
    let (json, junit) = (out_file("require.json"), out_file("require.xml"));
    let (code, out, _) = gate(
        &["base", "degraded"],
        &[
            "--require",
            "degraded:fields[total].f1 >= 0.99",
            "--require",
            "micro.f1 > 0.5",
            "--require",
            "base:hallucination_rate <= 0",
            "--json",
            json.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{out}");
    let r = read_json(&json);
    // Without a baseline `micro.f1 > 0.5` applies to both models.
    let summary: Vec<(String, String, bool)> = checks(&r)
        .iter()
        .map(|c| {
            (
                c["model"].as_str().unwrap().into(),
                c["expression"].as_str().unwrap().into(),
                c["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    let row = |m: &str, e: &str, p: bool| (m.to_string(), e.to_string(), p);
    assert_eq!(
        summary,
        [
            row("base", "micro.f1 > 0.5", true),
            row("base", "base:hallucination_rate <= 0", true),
            row("degraded", "degraded:fields[total].f1 >= 0.99", false),
            row("degraded", "micro.f1 > 0.5", true),
        ]
    );
    let t = check(&r, "degraded", "fields[total].f1");
    close(&t["value"], 0.7);
    assert_eq!(
        (t["op"].as_str(), t["threshold"].as_f64()),
        (Some(">="), Some(0.99))
    );
    // The interval of the value itself (the share of right totals drawn).
    assert!(t["interval"]["low"].as_f64().unwrap() < 0.7);
    // No hallucination: no absent truth value at all, 0/0 = 0.
    close(&check(&r, "base", "hallucination_rate")["value"], 0.0);
    assert!(
        out.contains("| ❌ fail | degraded | fields\\[total\\].f1 | 0.7000 | ≥ 0.99 | ["),
        "{out}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(
            "<failure message=\"value 0.7000 does not meet threshold &gt;= 0.99, 95 % interval ["
        ),
        "{xml}"
    );
}

#[test]
fn the_same_seed_gives_the_same_verdict_and_outputs() {
    let run = |seed: &str, tag: &str| {
        let (json, junit) = (
            out_file(&format!("seed-{tag}.json")),
            out_file(&format!("seed-{tag}.xml")),
        );
        let (code, out, _) = gate(
            &["base", "degraded", "noisy"],
            &[
                "--baseline",
                "base",
                "--resamples",
                "300",
                "--seed",
                seed,
                "--json",
                json.to_str().unwrap(),
                "--junit",
                junit.to_str().unwrap(),
            ],
        );
        (
            code,
            out,
            std::fs::read_to_string(json).unwrap(),
            std::fs::read_to_string(junit).unwrap(),
        )
    };
    let a = run("7", "a");
    assert_eq!(a.0, 1);
    assert_eq!(a, run("7", "b"));
    let other = run("8", "c");
    assert_eq!(other.0, a.0, "the verdict does not hang on the seed here");
    assert_ne!(other.2, a.2, "another seed draws other resamples");
}

#[test]
fn the_gate_resamples_as_eval_bootstrap_does() {
    let json = out_file("resampling.json");
    let (code, _, _) = gate(
        &["base", "degraded"],
        &[
            "--require",
            "micro.f1 >= 0",
            "--require",
            "macro_fields.f1 >= 0",
            "--resamples",
            "250",
            "--seed",
            "11",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0);
    let r = read_json(&json);
    let dir = data_dir();
    let (code, report, _) = fieldscope(&[
        "eval".to_string(),
        "--truth".into(),
        dir.join("truth.jsonl").display().to_string(),
        "--pred".into(),
        format!("base={}", dir.join("base.jsonl").display()),
        "--pred".into(),
        format!("degraded={}", dir.join("degraded.jsonl").display()),
        "--bootstrap".into(),
        "250".into(),
        "--seed".into(),
        "11".into(),
    ]);
    assert_eq!(code, 0);
    let report: Value = serde_json::from_str(&report).unwrap();
    for (m, model) in ["base", "degraded"].iter().enumerate() {
        for (metric, key) in [("micro.f1", "micro"), ("macro_fields.f1", "macro_fields")] {
            let gate = &check(&r, model, metric)["interval"];
            let boot = &report["bootstrap"]["models"][m][key]["f1"];
            assert_eq!(gate["low"], boot["low"], "{model} {metric}");
            assert_eq!(gate["high"], boot["high"], "{model} {metric}");
        }
    }
}

/// `xmllint --noout --schema tests/data/junit.xsd FILE`; a missing xmllint
/// fails the test (`.ci/setup` installs libxml2-utils).
fn xmllint(file: &Path) -> (bool, String) {
    let xsd = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/junit.xsd");
    let out = std::process::Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(&xsd)
        .arg(file)
        .output()
        .expect("xmllint runs (libxml2-utils; bash .ci/setup installs it)");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn junit_output_validates_against_the_schema() {
    // A hostile model name: markup, quotes, a bidi override, a control
    // character.
    let hostile = "<b>&\"'x\u{202E}\u{7}";
    let dir = data_dir();
    let junit = out_file("hostile.xml");
    let args = vec![
        "gate".to_string(),
        "--truth".into(),
        dir.join("truth.jsonl").display().to_string(),
        "--pred".into(),
        format!("base={}", dir.join("base.jsonl").display()),
        "--pred".into(),
        format!("{hostile}={}", dir.join("degraded.jsonl").display()),
        "--baseline".into(),
        "base".into(),
        "--require".into(),
        "base:micro.f1 >= 0.9".into(),
        "--junit".into(),
        junit.display().to_string(),
    ];
    let (code, out, err) = fieldscope(&args);
    assert_eq!(code, 1, "{out}{err}");
    let (valid, message) = xmllint(&junit);
    assert!(valid, "{message}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(
        (root.attribute("tests"), root.attribute("failures")),
        (Some("7"), Some("3"))
    );
    let suites: Vec<roxmltree::Node> = root.children().filter(|n| n.is_element()).collect();
    let names: Vec<&str> = suites
        .iter()
        .map(|s| s.attribute("name").unwrap())
        .collect();
    let shown = "<b>&\"'x[U+202E][U+0007]";
    assert_eq!(
        names,
        [
            "fieldscope gate: base".to_string(),
            format!("fieldscope gate: {shown}")
        ]
    );
    assert_eq!(suites[0].attribute("tests"), Some("1"));
    let cases: Vec<roxmltree::Node> = suites[1].children().filter(|n| n.is_element()).collect();
    assert_eq!(cases.len(), 6);
    let failing: Vec<&str> = cases
        .iter()
        .filter(|c| c.children().any(|f| f.has_tag_name("failure")))
        .map(|c| c.attribute("name").unwrap())
        .collect();
    assert_eq!(
        failing,
        [
            format!("{shown}: no regression of micro.f1 against base"),
            format!("{shown}: no regression of macro_documents.f1 against base"),
            format!("{shown}: no regression of fields[total].f1 against base"),
        ]
    );
    let failure = cases[5]
        .children()
        .find(|f| f.has_tag_name("failure"))
        .unwrap();
    assert_eq!(failure.attribute("type"), Some("regression"));
    assert!(failure.attribute("message").unwrap().starts_with(&format!(
        "base 1.0000 → {shown} 0.7000 (difference −0.3000, 95 % interval ["
    )));
    assert!(!xml.contains('\u{202E}') && !xml.contains('\u{7}'));

    // And the schema is a real check: it refuses a testcase without a name.
    let bad = out_file("bad.xml");
    std::fs::write(&bad, "<testsuites><testsuite name=\"x\" tests=\"1\"><testcase classname=\"c\"/></testsuite></testsuites>").unwrap();
    let (valid, message) = xmllint(&bad);
    assert!(
        !valid && message.contains("'name' is required"),
        "{message}"
    );
}

#[test]
fn bad_usage_exits_2_naming_what_is_wrong() {
    for (extra, expected) in [
        (
            vec!["--require", "micro.f2 >= 0.5"],
            "`micro` has no key `f2`",
        ),
        (
            vec!["--require", "fields[totl].f1 >= 0.5"],
            "has no field `totl`; the fields are: code, date, name, total",
        ),
        (
            vec!["--require", "nope:micro.f1 >= 0.5"],
            "no model is named \"nope\"",
        ),
        (
            vec!["--require", "micro.f1 = 0.5"],
            "--require `micro.f1 = 0.5`: no comparison",
        ),
        (
            vec!["--require", "micro.f1 >= high"],
            "\"high\" is not a number",
        ),
        (vec!["--no-regression", "micro.f1"], "give --baseline NAME"),
        (
            vec!["--baseline", "base", "--no-regression", "cer"],
            "--no-regression `cer`",
        ),
        (
            vec!["--baseline", "base", "--no-regression", "fields[x].f1"],
            "no field is named `x`",
        ),
        (
            vec!["--baseline", "main"],
            "--baseline: no model is named \"main\"",
        ),
        (vec![], "nothing to check"),
        (vec!["--baseline", "base", "--alpha", "0"], "--alpha 0"),
        (
            vec!["--baseline", "base", "--resamples", "0"],
            "--resamples",
        ),
        (vec!["--baseline", "base", "--min-drop=-1"], "--min-drop -1"),
    ] {
        let (code, out, err) = gate(&["base", "degraded"], &extra);
        assert_eq!(code, 2, "{extra:?}: {out}{err}");
        assert!(out.is_empty());
        assert!(err.contains(expected), "{extra:?}: {err}");
    }
    let (code, _, err) = gate(&["base"], &["--baseline", "base"]);
    assert_eq!(code, 2);
    assert!(err.contains("at least one other model"), "{err}");
}

#[test]
fn eval_compare_adds_the_flipped_documents() {
    let dir = data_dir();
    let eval = |extra: &[&str]| {
        let mut args = vec![
            "eval".to_string(),
            "--truth".into(),
            dir.join("truth.jsonl").display().to_string(),
            "--pred".into(),
            format!("base={}", dir.join("base.jsonl").display()),
            "--pred".into(),
            format!("degraded={}", dir.join("degraded.jsonl").display()),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        fieldscope(&args)
    };
    let (code, plain, _) = eval(&[]);
    assert_eq!(code, 0);
    assert!(!plain.contains("\"comparison\""));
    let (code, text, _) = eval(&["--compare", "base,degraded"]);
    assert_eq!(code, 0);
    let r: Value = serde_json::from_str(&text).unwrap();
    // The details read for the comparison are not added to the report.
    assert!(r["models"][0].get("document_details").is_none());
    let c = &r["comparison"];
    assert_eq!(
        (c["baseline"].as_str(), c["candidate"].as_str()),
        (Some("base"), Some("degraded"))
    );
    assert_eq!(c["documents"], 300);
    assert_eq!(
        c["fields"],
        json!([{"field": "total", "regressions": 90, "fixes": 0}])
    );
    let regressions = c["regressions"].as_array().unwrap();
    assert_eq!(regressions.len(), 90);
    assert_eq!(
        regressions[0],
        json!({
            "id": "d000", "field": "total", "truth": 100,
            "baseline_prediction": 100, "candidate_prediction": 101,
            "baseline_outcome": "exact", "candidate_outcome": "incorrect"
        })
    );
    let ids: Vec<&str> = regressions
        .iter()
        .take(4)
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["d000", "d001", "d002", "d010"]);
    assert_eq!(c["fixes"], json!([]));
    // The other way round, the same pairs are fixes.
    let (_, text, _) = eval(&["--compare", "degraded,base"]);
    let r: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(r["comparison"]["fixes"].as_array().unwrap().len(), 90);

    // The HTML page: a section with every flip, well-formed; none without.
    let (code, html, _) = eval(&["--compare", "base,degraded", "--format", "html"]);
    assert_eq!(code, 0);
    let doc = roxmltree::Document::parse_with_options(
        &html,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .unwrap();
    let section = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("flipped-documents"))
        .expect("the flipped-documents section");
    let rows = section
        .descendants()
        .filter(|n| n.has_tag_name("tr"))
        .count();
    // Per-field table: header + 1; regressions: header + 90.
    assert_eq!(rows, 2 + 91);
    assert!(html.contains("<a href=\"#flipped-documents\">Flipped documents</a>"));
    let (_, html, _) = eval(&["--format", "html"]);
    assert!(!html.contains("flipped-documents"));

    for bad in ["base", "base,nope", ",degraded"] {
        let (code, _, err) = eval(&["--compare", bad]);
        assert_eq!(code, 2, "{bad}");
        assert!(
            err.contains("--compare") || err.contains("\"nope\" is not one of the models"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn the_binary_exits_0_when_every_check_passes_and_1_when_one_fails() {
    let dir = data_dir();
    let status = |candidate: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fieldscope"))
            .arg("gate")
            .arg("--truth")
            .arg(dir.join("truth.jsonl"))
            .arg("--pred")
            .arg(format!("base={}", dir.join("base.jsonl").display()))
            .arg("--pred")
            .arg(format!(
                "cand={}",
                dir.join(format!("{candidate}.jsonl")).display()
            ))
            .args(["--baseline", "base", "--resamples", "200"])
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(status("copy"), Some(0));
    assert_eq!(status("degraded"), Some(1));
}
