//! SPEC §9.2 end to end through the command-line tool: each slice's
//! micro scores by hand (a top-level key used only for slicing and put in
//! `ignored_fields`, the `null` slice, `_items`, `_fields`), `_schema`
//! with several schemas, the report unchanged without `slice_by`, a
//! planted weak slice found, and hostile slice values escaped in every
//! export.

use super::common::{close, run_cli as fieldscope};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fieldscope-slices-{name}-{}", std::process::id()));
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

/// Four documents; model `m`: a all exact (x, y, two items), b x wrong and
/// y a true negative, c x exact and y spurious, d both missed.
fn four(dir: &Path) -> Vec<String> {
    let truth = vec![
        json!({"id": "a", "region": "N", "x": "1", "y": "2", "items": [{"q": 1}, {"q": 2}]}),
        json!({"id": "b", "region": "N", "x": "1", "y": "NOT_FOUND"}),
        json!({"id": "c", "region": "S", "x": "1"}),
        json!({"id": "d", "x": "1", "y": "3"}),
    ];
    let pred = vec![
        json!({"id": "a", "x": "1", "y": "2", "items": [{"q": 1}, {"q": 2}]}),
        json!({"id": "b", "x": "9"}),
        json!({"id": "c", "x": "1", "y": "5"}),
        json!({"id": "d"}),
    ];
    write_jsonl(&dir.join("truth.jsonl"), &truth);
    write_jsonl(&dir.join("m.jsonl"), &pred);
    std::fs::write(
        dir.join("config.json"),
        json!({"preset": "exact", "id_field": "id", "ignored_fields": ["region"]}).to_string(),
    )
    .unwrap();
    [
        "--truth",
        "truth.jsonl",
        "--pred",
        "m.jsonl",
        "--config",
        "config.json",
    ]
    .iter()
    .map(|a| match *a {
        "truth.jsonl" | "m.jsonl" | "config.json" => s(&dir.join(a)),
        a => a.to_string(),
    })
    .collect()
}

fn eval(args: &[String], extra: &[&str]) -> (i32, String, String) {
    let mut all = vec!["eval".to_string()];
    all.extend(args.iter().cloned());
    all.extend(extra.iter().map(|a| a.to_string()));
    fieldscope(&all)
}

#[test]
fn each_slices_micro_scores_by_hand() {
    let dir = dir("hand");
    let args = four(&dir);
    let (code, out, err) = eval(
        &args,
        &["--slice-by", "region,_items", "--slice-by", "_fields"],
    );
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        report["slices"]["by"],
        json!(["region", "_items", "_fields"])
    );
    assert_eq!(
        report["config"]["slice_by"],
        json!(["region", "_items", "_fields"])
    );
    let rows = report["slices"]["models"][0]["slices"].as_array().unwrap();
    // Counts per document: a exact 4; b incorrect 1, TN 1; c exact 1,
    // spurious 1; d missed 2. ["fp","fn"]: TP = COR, FP = INC + PAR + SPU,
    // FN = MIS + INC + PAR; accuracy = (TP + TN)/(|Truth| + SPU + TN).
    let third = 1.0 / 3.0;
    let want: Vec<(&str, Value, u64, [f64; 4])> = vec![
        // _fields (present truth fields; `region` is ignored): a 4, b 1, c 1, d 2.
        // {b, c}: TP 1, FP 2, FN 1: P 1/3, R 1/2, F1 = 2·(1/6)/(5/6) = 0.4; acc (1+1)/4.
        ("_fields", json!(1), 2, [third, 0.5, 0.4, 0.5]),
        // {d}: P = 0/0 = zero_division 0, R 0/2, F1 0, acc 0/2.
        ("_fields", json!(2), 1, [0.0, 0.0, 0.0, 0.0]),
        ("_fields", json!(4), 1, [1.0, 1.0, 1.0, 1.0]),
        // _items 0 = {b, c, d}: TP 1, FP 2, FN 3: P 1/3, R 1/4,
        // F1 = 2·(1/12)/(7/12) = 2/7; acc (1+1)/(4+1+1) = 1/3.
        ("_items", json!(0), 3, [third, 0.25, 2.0 / 7.0, third]),
        ("_items", json!(2), 1, [1.0, 1.0, 1.0, 1.0]),
        // region: d has none (the null slice): as _fields 2 above.
        ("region", Value::Null, 1, [0.0, 0.0, 0.0, 0.0]),
        // N = {a, b}: TP 4, FP 1, FN 1: P = R = F1 = 0.8; acc (4+1)/(5+0+1) = 5/6.
        ("region", json!("N"), 2, [0.8, 0.8, 0.8, 5.0 / 6.0]),
        // S = {c}: TP 1, FP 1, FN 0: P 1/2, R 1, F1 2/3; acc 1/2.
        ("region", json!("S"), 1, [0.5, 1.0, 2.0 / 3.0, 0.5]),
    ];
    assert_eq!(rows.len(), want.len());
    for (row, (key, value, documents, scores)) in rows.iter().zip(&want) {
        assert_eq!((&row["key"], &row["value"]), (&json!(key), value));
        assert_eq!(row["documents"], json!(documents));
        let micro = &row["micro"];
        for (k, name) in ["precision", "recall", "f1", "accuracy"].iter().enumerate() {
            close(micro[name].as_f64().unwrap(), scores[k]);
        }
        // Four documents: fewer than 10 inside and outside, none tested.
        for k in ["delta", "p_value", "p_holm"] {
            assert_eq!(row[k], Value::Null);
        }
        assert_eq!(row["weak"], json!(false));
    }
    // Without --slice-by the report has neither `slices` nor the keys.
    let (_, plain, _) = eval(&args, &[]);
    let plain: Value = serde_json::from_str(&plain).unwrap();
    assert!(plain.get("slices").is_none());
    assert!(plain["config"].get("slice_by").is_none() && plain["config"].get("slices").is_none());
    let (code, _, err) = eval(&args, &["--slice-by", "region,"]);
    assert_eq!(code, 2);
    assert!(err.contains("--slice-by"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_schema_slice_names_each_documents_own_schema() {
    let dir = dir("schema");
    let truth = vec![
        json!({"id": "i1", "t": "inv", "total": 1}),
        json!({"id": "r1", "t": "rec", "amount": 2}),
        json!({"id": "i2", "t": "inv", "total": 3}),
        json!({"id": "m1", "t": "memo", "note": "x"}),
    ];
    write_jsonl(&dir.join("truth.jsonl"), &truth);
    write_jsonl(&dir.join("p.jsonl"), &truth);
    for name in ["inv", "rec"] {
        std::fs::write(
            dir.join(format!("schemas/{name}.json")),
            r#"{"type": "object"}"#,
        )
        .unwrap();
    }
    let (code, out, err) = fieldscope(&[
        "eval",
        "--truth",
        &s(&dir.join("truth.jsonl")),
        "--pred",
        &s(&dir.join("p.jsonl")),
        "--schema",
        &s(&dir.join("schemas/inv.json")),
        "--schema",
        &s(&dir.join("schemas/rec.json")),
        "--schema-by",
        "t",
        "--slice-by",
        "_schema",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let got: Vec<(Value, Value)> = report["slices"]["models"][0]["slices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["value"].clone(), r["documents"].clone()))
        .collect();
    // The memo names no given schema: the null slice.
    assert_eq!(
        got,
        vec![
            (Value::Null, json!(1)),
            (json!("inv"), json!(2)),
            (json!("rec"), json!(1)),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// 40 documents: 20 of region `hostile` (the model gets their field
/// wrong), 20 of region "ok" (right); one field each.
fn planted(dir: &Path, hostile: &str) -> Vec<String> {
    let mut truth = Vec::new();
    let mut pred = Vec::new();
    for d in 0..40 {
        let bad = d % 2 == 0;
        let region = if bad { hostile } else { "ok" };
        truth.push(json!({"id": format!("d{d}"), "region": region, "x": format!("v{d}")}));
        // Wrong on 9 of 10 bad documents, right on every other one.
        let x = if bad && d % 20 != 0 {
            "zzzz".to_string()
        } else {
            format!("v{d}")
        };
        pred.push(json!({"id": format!("d{d}"), "x": x}));
    }
    write_jsonl(&dir.join("truth.jsonl"), &truth);
    write_jsonl(&dir.join("m.jsonl"), &pred);
    vec![
        "--truth".into(),
        s(&dir.join("truth.jsonl")),
        "--pred".into(),
        format!("<i>|m={}", s(&dir.join("m.jsonl"))),
        "--slice-by".into(),
        "region".into(),
        "--preset".into(),
        "exact".into(),
    ]
}

#[test]
fn a_planted_weak_slice_is_found_and_hostile_values_are_escaped_everywhere() {
    let dir = dir("hostile");
    let hostile = "=HYPERLINK(\"x\")|<b>&_$\u{202e}";
    let args = planted(&dir, hostile);
    let (code, out, err) = eval(&args, &[]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let rows = report["slices"]["models"][0]["slices"].as_array().unwrap();
    // `region` is a field too (not ignored here): missed on every document.
    // The hostile region: x right on 2 of 20 (documents 0 and 20): TP 2,
    // FP = INC 18, FN = INC 18 + MIS 20 = 38: P 0.1, R 0.05,
    // F1 = 2·0.1·0.05/0.15 = 1/15. "ok": TP 20, FN = MIS 20: P 1, R 0.5,
    // F1 = 2/3. δ = 2/3 − 1/15 = 0.6; no resample reverses it: p = 1/1001.
    assert_eq!(rows[0]["value"], json!(hostile));
    assert_eq!(rows[0]["weak"], json!(true));
    close(rows[0]["micro"]["f1"].as_f64().unwrap(), 1.0 / 15.0);
    close(rows[0]["delta"].as_f64().unwrap(), 0.6);
    close(rows[0]["p_value"].as_f64().unwrap(), 1.0 / 1001.0);
    // Holm over the two tested slices: 2/1001.
    close(rows[0]["p_holm"].as_f64().unwrap(), 2.0 / 1001.0);
    assert_eq!(
        (&rows[1]["value"], &rows[1]["weak"]),
        (&json!("ok"), &json!(false))
    );

    let (_, md, _) = eval(&args, &["--format", "markdown"]);
    let table: Vec<&str> = md
        .lines()
        .skip_while(|l| !l.starts_with("Weak slices of"))
        .skip(2)
        .take(3)
        .collect();
    assert!(table[0].starts_with("| Key |"), "{md}");
    // The value's `|` is escaped: every row has 7 cells (8 unescaped bars).
    let bars = |l: &str| l.matches('|').count() - l.matches("\\|").count();
    assert_eq!(bars(table[2]), 8, "{}", table[2]);
    assert!(table[2].contains("\\<b>"), "{}", table[2]);
    assert!(!table[2].contains('\u{202e}'));

    let (_, tex, _) = eval(&args, &["--format", "latex"]);
    let row = tex.lines().find(|l| l.contains("HYPERLINK")).unwrap();
    assert!(
        row.contains("\\textbar{}") && row.contains("\\&") && row.contains("\\$"),
        "{row}"
    );
    assert!(tex.contains("tab:fieldscope-slices-1"));

    let (_, csv, _) = eval(&args, &["--format", "csv"]);
    let (_, second) = csv.split_once("\n\n").unwrap();
    assert!(second.starts_with("model,key,value,documents,"), "{second}");
    let line = second.lines().nth(1).unwrap();
    // The model name and the value start with a formula character: quoted.
    assert!(line.starts_with("<i>|m,region,\"'=HYPERLINK"), "{line}");
    assert!(line.ends_with(",true"), "{line}");

    let (_, html, _) = eval(&args, &["--format", "html"]);
    assert!(html.contains("<section id=\"errors\" class=\"major\">"));
    assert!(html.contains("<h3 id=\"slices\">Slices</h3>"));
    assert!(!html.contains("<b>&") && !html.contains("<i>|m"));
    assert!(html.contains("<td><strong>weak</strong></td>"));
    // The caption names the report key as code, in each format's markup
    // (the HTML page once showed literal backticks).
    assert!(
        html.contains("tested or not, is in the JSON report&#39;s <code>slices</code>.</p>"),
        "{html}"
    );
    assert!(!html.contains("`slices`"));
    assert!(md.contains("tested or not, is in the JSON report's `slices`."));
    assert!(tex.contains("tested or not, is in the JSON report's \\texttt{slices}."));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_gate_reads_each_models_weak_slice_count() {
    let dir = dir("gate");
    let args = planted(&dir, "bad");
    let gate = |require: &str| {
        let mut all = vec!["gate".to_string()];
        all.extend(args.iter().cloned());
        all.extend(["--require".to_string(), require.to_string()]);
        fieldscope(&all)
    };
    // One weak slice ("bad") of two tested.
    let (code, out, _) = gate("slices.weak <= 0");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("slices.weak"), "{out}");
    assert_eq!(gate("slices.weak <= 1").0, 0);
    assert_eq!(gate("slices.tested >= 2").0, 0);
    let _ = std::fs::remove_dir_all(&dir);
}
