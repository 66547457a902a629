//! SPEC §9.1 end to end: the CLI on the hand-computed case
//! `tests/data/cases/error_types.json` (whose `description` explains every
//! count): `--details` error types and the field a swapped value belongs
//! to, the text exports' tables, `gate` on `errors.<type>`, and the same
//! bytes for every `--jobs` and for merged partial results.

use super::common::run_cli as fieldscope;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The case's truth and predictions written as JSONL files in a fresh
/// directory, with its config: (directory, `eval` arguments).
fn case_files(test: &str) -> (PathBuf, Vec<String>) {
    let case: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases/error_types.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let dir = std::env::temp_dir().join(format!("fieldscope-errors-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, rows: &Value| {
        let text: String = rows
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.to_string() + "\n")
            .collect();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let config = dir.join("config.json");
    std::fs::write(&config, case["config"].to_string()).unwrap();
    let mut args = vec![
        "--truth".to_string(),
        write("truth.jsonl", &case["truth"]),
        "--config".into(),
        config.display().to_string(),
    ];
    for (name, rows) in case["predictions"].as_object().unwrap() {
        args.push("--pred".into());
        args.push(format!("{name}={}", write(&format!("{name}.jsonl"), rows)));
    }
    (dir, args)
}

fn eval(args: &[String], extra: &[&str]) -> String {
    let mut all = vec!["eval".to_string()];
    all.extend(args.iter().cloned());
    all.extend(extra.iter().map(|s| s.to_string()));
    let (code, out, err) = fieldscope(&all);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn details_name_each_error_type_and_where_a_swapped_value_belongs() {
    let (dir, args) = case_files("details");
    let r: Value = serde_json::from_str(&eval(&args, &["--details"])).unwrap();
    let d1 = &r["models"][0]["document_details"][0];
    assert_eq!(d1["id"], "d1");
    // (field, truth item, error_type, belongs_to) of every compared value.
    let got: Vec<(String, Value, Value, Value)> = d1["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["field"].as_str().unwrap().to_string(),
                f.get("truth_item").cloned().unwrap_or(Value::Null),
                f["error_type"].clone(),
                f.get("belongs_to").cloned().unwrap_or(Value::Null),
            )
        })
        .collect();
    let row = |field: &str, item: Value, e: Value, to: Value| (field.to_string(), item, e, to);
    let n = Value::Null;
    let expected = vec![
        row("due_date", n.clone(), n.clone(), n.clone()),
        row("invoice_date", n.clone(), json!("format"), n.clone()),
        row("net", n.clone(), json!("swapped"), json!("total")),
        row("total", n.clone(), json!("format"), n.clone()),
        row("vendor", n.clone(), json!("format"), n.clone()),
        // Items in matched order, then each item's fields by path.
        row("items[].price", json!(0), n.clone(), n.clone()),
        row("items[].qty", json!(0), json!("scale"), n.clone()),
        row("items[].sku", json!(0), n.clone(), n.clone()),
        row(
            "items[].price",
            json!(1),
            json!("swapped"),
            json!("items[].qty"),
        ),
        row(
            "items[].qty",
            json!(1),
            json!("swapped"),
            json!("items[].price"),
        ),
        row("items[].sku", json!(1), n.clone(), n.clone()),
        row("items[].price", json!(2), n.clone(), n.clone()),
        // 5 is item 1's qty, not a field of its own item 2: wrong.
        row("items[].qty", json!(2), json!("wrong"), n.clone()),
        row("items[].sku", json!(2), n.clone(), n.clone()),
    ];
    let mut sorted_got = got.clone();
    let key = |r: &(String, Value, Value, Value)| (r.1.as_u64(), r.0.clone());
    sorted_got.sort_by_key(key);
    let mut sorted_expected = expected.clone();
    sorted_expected.sort_by_key(key);
    // `po` is a true negative in d1 (no error type).
    sorted_expected.insert(
        sorted_expected
            .iter()
            .position(|r| r.0.as_str() > "po" && r.1.is_null())
            .unwrap(),
        row("po", n.clone(), n.clone(), n.clone()),
    );
    assert_eq!(sorted_got, sorted_expected);
    // d2: missed and spurious keep their names; the swapped date belongs
    // to invoice_date; the key is absent for every other type.
    let d2 = &r["models"][0]["document_details"][1]["fields"];
    let by_field = |name: &str| {
        d2.as_array()
            .unwrap()
            .iter()
            .find(|f| f["field"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(by_field("net")["error_type"], "missed");
    assert_eq!(by_field("po")["error_type"], "spurious");
    assert_eq!(by_field("due_date")["belongs_to"], "invoice_date");
    assert_eq!(by_field("invoice_date")["error_type"], "near_miss");
    assert!(by_field("invoice_date").get("belongs_to").is_none());
    // The model's counts are the details' error types counted.
    let mut counted = json!({"format": 0, "scale": 0, "swapped": 0, "near_miss": 0, "wrong": 0, "missed": 0, "spurious": 0});
    for doc in r["models"][0]["document_details"].as_array().unwrap() {
        for f in doc["fields"].as_array().unwrap() {
            if let Some(e) = f["error_type"].as_str() {
                counted[e] = json!(counted[e].as_u64().unwrap() + 1);
            }
        }
    }
    assert_eq!(counted, r["models"][0]["errors"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn text_exports_show_the_error_tables() {
    let (dir, args) = case_files("exports");
    let md = eval(&args, &["--format", "markdown"]);
    assert!(
        md.contains(
            "| Model | Format | Scale | Swapped | Near miss | Wrong | Missed | Spurious |\n\
             | :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n\
             | m | 3 | 2 | 4 | 1 | 2 | 3 | 1 |\n\
             | n | 1 | 0 | 0 | 0 | 1 | 0 | 0 |\n"
        ),
        "{md}"
    );
    // The per-field table only with --details.
    assert!(!md.contains("| Model | Field | Format |"));
    let md = eval(&args, &["--format", "markdown", "--details"]);
    assert!(
        md.contains("| m | items\\[\\].qty | 0 | 1 | 1 | 0 | 1 | 0 | 0 |"),
        "{md}"
    );
    let tex = eval(&args, &["--format", "latex"]);
    assert!(tex.contains("\\label{tab:fieldscope-errors}"), "{tex}");
    assert!(
        tex.contains("    m & 3 & 2 & 4 & 1 & 2 & 3 & 1 \\\\\n"),
        "{tex}"
    );
    let csv = eval(&args, &["--format", "csv"]);
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(
        ",cer,mean_cer,error_format,error_scale,error_swapped,error_near_miss,error_wrong"
    ));
    // m's total: format 1, scale 1 (and its missed value in `missed`).
    let total = csv.lines().find(|l| l.starts_with("m,total,")).unwrap();
    assert!(total.ends_with(",1,1,0,0,0"), "{total}");
    let html = eval(&args, &["--format", "html", "--details"]);
    assert!(html.contains("<section id=\"errors\" class=\"major\">\n<h2>Where it fails</h2>"));
    assert!(html.contains("<figure id=\"errors-chart\">"));
    assert!(html.contains("<h3 id=\"errors-2\">n</h3>"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn gate_checks_error_counts() {
    let (dir, args) = case_files("gate");
    let out = dir.join("gate.json");
    let mut gate = vec!["gate".to_string()];
    gate.extend(args.iter().cloned());
    gate.extend(
        [
            "--baseline",
            "n",
            "--require",
            "errors.scale == 0",
            "--require",
            "fields[total].errors.format <= 1",
            "--json",
            &out.display().to_string(),
        ]
        .map(String::from),
    );
    let (code, _, err) = fieldscope(&gate);
    assert_eq!(code, 1, "{err}");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let checks: Vec<(String, f64, bool)> = r["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "require")
        .map(|c| {
            (
                c["expression"].as_str().unwrap().to_string(),
                c["value"].as_f64().unwrap(),
                c["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    // m has 2 scale errors; 1 format error in total.
    assert_eq!(
        checks,
        [
            ("errors.scale == 0".to_string(), 2.0, false),
            ("fields[total].errors.format <= 1".to_string(), 1.0, true),
        ]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_jobs_count_and_merged_partials_give_the_same_bytes() {
    let (dir, args) = case_files("jobs");
    let single = eval(&args, &["--details"]);
    for jobs in ["2", "3"] {
        assert_eq!(
            eval(&args, &["--details", "--jobs", jobs]),
            single,
            "--jobs {jobs}"
        );
    }
    // Two shards: d1 + d3, then d2 + d4 (the truth in that order).
    let case_dir = |name: &str| dir.join(name).display().to_string();
    let read = |name: &str| -> Vec<String> {
        std::fs::read_to_string(dir.join(name))
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    };
    let shard = |lines: &[String], pick: &[usize]| -> String {
        pick.iter()
            .filter_map(|&i| lines.get(i))
            .map(|l| l.clone() + "\n")
            .collect()
    };
    let (truth, m, n) = (read("truth.jsonl"), read("m.jsonl"), read("n.jsonl"));
    let config = case_dir("config.json");
    // m has no record for d4; its records are d1, d2, d3.
    let shards = [
        (
            shard(&truth, &[0, 2]),
            shard(&m, &[0, 2]),
            shard(&n, &[0, 2]),
        ),
        (shard(&truth, &[1, 3]), shard(&m, &[1]), shard(&n, &[1, 3])),
    ];
    let mut whole = (String::new(), String::new(), String::new());
    for (t, a, b) in &shards {
        whole.0.push_str(t);
        whole.1.push_str(a);
        whole.2.push_str(b);
    }
    let inputs = |t: &str, a: &str, b: &str, k: &str| -> Vec<String> {
        for (name, text) in [("t", t), ("m", a), ("n", b)] {
            std::fs::write(dir.join(format!("{name}{k}.jsonl")), text).unwrap();
        }
        vec![
            "--truth".into(),
            case_dir(&format!("t{k}.jsonl")),
            "--config".into(),
            config.clone(),
            "--pred".into(),
            format!("m={}", case_dir(&format!("m{k}.jsonl"))),
            "--pred".into(),
            format!("n={}", case_dir(&format!("n{k}.jsonl"))),
        ]
    };
    let all = inputs(&whole.0, &whole.1, &whole.2, "all");
    let learned = case_dir("learned.cbor");
    let mut learn = vec!["learn".to_string()];
    learn.extend(all.iter().cloned());
    learn.extend(["--out".to_string(), learned.clone()]);
    let (code, _, err) = fieldscope(&learn);
    assert_eq!(code, 0, "{err}");
    let mut merge = vec!["merge".to_string()];
    for (k, (t, a, b)) in shards.iter().enumerate() {
        let partial = case_dir(&format!("p{k}.cbor"));
        let mut e = vec!["eval".to_string()];
        e.extend(inputs(t, a, b, &k.to_string()));
        e.extend(["--learned", &learned, "--partial", &partial, "--details"].map(String::from));
        let (code, _, err) = fieldscope(&e);
        assert_eq!(code, 0, "{err}");
        merge.push(partial);
    }
    merge.push("--details".into());
    let (code, merged, err) = fieldscope(&merge);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, eval(&all, &["--details"]));
    let r: Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(
        r["models"][0]["errors"],
        json!({"format": 3, "scale": 2, "swapped": 4, "near_miss": 1, "wrong": 2, "missed": 3, "spurious": 1})
    );
    let _ = std::fs::remove_dir_all(dir);
}
