//! `--corrections FILE` on `gate`, `sweep` and `figures` (SPEC §9.3, issue
//! 31): the same meaning as on `eval` — the numbers move as `eval
//! --corrections` says, and each applied correction is a warning.

use super::common::run_cli;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fieldscope-corrections-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The truth, three models (m0 and m1 agree on `a.total` 200 and
/// `a.items[1].qty` 3 against the truth's 100 and 2; all three say
/// `b.name` "Zed" where the truth has none) and the three corrections that
/// the suspects propose.
fn planted(dir: &Path) {
    std::fs::write(
        dir.join("t.jsonl"),
        "{\"id\":\"a\",\"total\":100,\"items\":[{\"qty\":1,\"sku\":\"X\"},{\"qty\":2,\"sku\":\"Y\"}]}\n{\"id\":\"b\",\"total\":5}\n",
    )
    .unwrap();
    for (m, total, qty) in [("m0", 200, 3), ("m1", 200, 3), ("m2", 300, 4)] {
        std::fs::write(
            dir.join(format!("{m}.jsonl")),
            format!(
                "{{\"id\":\"a\",\"total\":{total},\"items\":[{{\"qty\":1,\"sku\":\"X\"}},{{\"qty\":{qty},\"sku\":\"Y\"}}]}}\n{{\"id\":\"b\",\"total\":5,\"name\":\"Zed\"}}\n"
            ),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("c.json"),
        r#"[{"id":"b","field":"name","from":null,"to":"Zed"},
            {"id":"a","field":"items[1].qty","from":2,"to":3},
            {"id":"a","field":"total","from":100,"to":200}]"#,
    )
    .unwrap();
}

fn args<'a>(command: &'a str, dir: &'a str, rest: &[&'a str]) -> Vec<String> {
    let p = |n: &str| format!("{dir}/{n}");
    let mut v = vec![
        command.to_string(),
        "--truth".into(),
        p("t.jsonl"),
        "--pred".into(),
        p("m0.jsonl"),
        "--pred".into(),
        p("m1.jsonl"),
        "--pred".into(),
        p("m2.jsonl"),
    ];
    v.extend(rest.iter().map(|s| s.to_string()));
    v
}

fn micro_f1(report: &Value, model: usize) -> f64 {
    report["models"][model]["micro"]["f1"].as_f64().unwrap()
}

#[test]
fn gate_sweep_and_figures_take_the_corrections_as_eval_does() {
    let dir = scratch("commands");
    planted(&dir);
    let d = dir.display().to_string();
    let c = format!("{d}/c.json");

    let (code, before, _) = run_cli(&args("eval", &d, &[]));
    assert_eq!(code, 0);
    let (code, after, _) = run_cli(&args("eval", &d, &["--corrections", &c]));
    assert_eq!(code, 0);
    let (before, after): (Value, Value) = (
        serde_json::from_str(&before).unwrap(),
        serde_json::from_str(&after).unwrap(),
    );
    // Before, each model: 4 exact of 6 truth values (a.items[0].qty,
    // a.items[0].sku, a.items[1].sku, b.total), 2 wrong, 1 hallucinated
    // name: P = 4/7, R = 4/6, F1 = 2·(4/7)(2/3)/(4/7 + 2/3) = 8/13.
    // After, m0 is exact on all 7 values: F1 = 1; m2 has 5 exact of 7
    // (total 300 and qty 4 still wrong against 200 and 3): P = R = 5/7.
    for m in 0..3 {
        assert!((micro_f1(&before, m) - 8.0 / 13.0).abs() < 1e-12);
    }
    assert_eq!(micro_f1(&after, 0), 1.0);
    assert!((micro_f1(&after, 2) - 5.0 / 7.0).abs() < 1e-12);

    // gate: m0's micro F1 ≥ 0.99 fails on the truth (0.6154), passes
    // corrected (1.0), with the corrections' warnings first.
    let require = ["--require", "m0:micro.f1 >= 0.99"];
    let (code, summary, _) = run_cli(&args("gate", &d, &require));
    assert_eq!(code, 1, "{summary}");
    assert!(summary.contains("| 0.6154 |"), "{summary}");
    let json = format!("{d}/gate.json");
    let mut with = require.to_vec();
    with.extend(["--corrections", &c, "--json", &json]);
    let (code, summary, err) = run_cli(&args("gate", &d, &with));
    assert_eq!(code, 0, "{summary}{err}");
    let gate: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(
        gate["checks"][0]["value"].as_f64(),
        Some(micro_f1(&after, 0))
    );
    assert!(
        err.starts_with(&format!(
            "warning: {c}: correction 1 (id \"b\", field `name`) applied: null → \"Zed\"\n"
        )),
        "{err}"
    );
    assert_eq!(err.matches("applied: ").count(), 3, "{err}");

    // sweep: at the configured similarity threshold (0.85) each model's
    // micro F1 is eval's, before and after.
    let sweep = |extra: &[&str]| -> (Value, String) {
        let mut rest = vec!["--param", "similarity", "--values", "0.85"];
        rest.extend_from_slice(extra);
        let (code, out, err) = run_cli(&args("sweep", &d, &rest));
        assert_eq!(code, 0, "{err}");
        (serde_json::from_str(&out).unwrap(), err)
    };
    let (plain, _) = sweep(&[]);
    let (corrected, err) = sweep(&["--corrections", &c]);
    for m in 0..3 {
        let at = |s: &Value| s["models"][m]["points"][0]["micro_f1"].as_f64().unwrap();
        assert_eq!(at(&plain), micro_f1(&before, m));
        assert_eq!(at(&corrected), micro_f1(&after, m));
    }
    assert_eq!(err.matches("applied: ").count(), 3, "{err}");

    // figures: with --corrections, the files of the corrected truth
    // written by `correct` (and not those of the truth as it is).
    let (code, _, err) = run_cli(&[
        "correct",
        "--truth",
        &format!("{d}/t.jsonl"),
        "--corrections",
        &c,
        "--out",
        &format!("{d}/fixed.jsonl"),
    ]);
    assert_eq!(code, 0, "{err}");
    let figures = |truth: &str, extra: &[&str], out: &str| -> String {
        let mut a = args("figures", &d, &["--format", "svg", "--out", out]);
        a[2] = format!("{d}/{truth}");
        a.extend(extra.iter().map(|s| s.to_string()));
        let (code, _, err) = run_cli(&a);
        assert_eq!(code, 0, "{err}");
        err
    };
    let err = figures("t.jsonl", &["--corrections", &c], &format!("{d}/with"));
    assert_eq!(err.matches("applied: ").count(), 3, "{err}");
    figures("fixed.jsonl", &[], &format!("{d}/fixed"));
    figures("t.jsonl", &[], &format!("{d}/plain"));
    let bars = "metric_bars.svg";
    let read = |sub: &str| std::fs::read_to_string(format!("{d}/{sub}/{bars}")).unwrap();
    assert_eq!(read("with"), read("fixed"));
    assert_ne!(read("with"), read("plain"));

    // A correction that does not fit stops each command (status 2).
    std::fs::write(
        dir.join("bad.json"),
        r#"[{"id": "a", "field": "total", "from": 1, "to": 2}]"#,
    )
    .unwrap();
    let bad = format!("{d}/bad.json");
    for command in ["gate", "sweep", "figures"] {
        let mut rest = vec!["--corrections", bad.as_str()];
        match command {
            "gate" => rest.extend(require),
            "sweep" => rest.extend(["--param", "similarity"]),
            _ => rest.extend(["--out", d.as_str()]),
        }
        let (code, _, err) = run_cli(&args(command, &d, &rest));
        assert_eq!(code, 2, "{command}");
        assert!(
            err.contains("bad.json: correction 1 (id \"a\", field `total`) refused"),
            "{command}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_html_report_with_its_inputs_keeps_the_corrections() {
    let dir = scratch("embed");
    planted(&dir);
    let d = dir.display().to_string();
    let c = format!("{d}/c.json");
    let (code, html, err) = run_cli(&args(
        "eval",
        &d,
        &["--corrections", &c, "--format", "html", "--embed-inputs"],
    ));
    assert_eq!(code, 0, "{err}");
    let bundle = fieldscope::export::embed::extract(html.as_bytes())
        .expect("inputs embedded")
        .expect("readable");
    let bundle: Value = serde_json::from_slice(&bundle).unwrap();
    let list: Value = serde_json::from_str(&std::fs::read_to_string(&c).unwrap()).unwrap();
    assert_eq!(bundle["corrections"], list);
    // The truth as given (the app applies the corrections itself) …
    let truth = bundle["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["role"] == "truth")
        .unwrap();
    assert_eq!(
        truth["text"].as_str(),
        Some(
            std::fs::read_to_string(dir.join("t.jsonl"))
                .unwrap()
                .as_str()
        )
    );
    // … and re-opened, the scores of `eval --corrections`: m0 1, m2 5/7.
    let mut session = fieldscope::session::Session::from_bundle(&bundle).unwrap();
    let report = session.evaluate().unwrap();
    assert_eq!(report.models[0].micro.f1, 1.0);
    assert!((report.models[2].micro.f1 - 5.0 / 7.0).abs() < 1e-12);
    let (code, json, _) = run_cli(&args("eval", &d, &["--corrections", &c]));
    assert_eq!(code, 0);
    let cli: Value = serde_json::from_str(&json).unwrap();
    for (m, model) in report.models.iter().enumerate() {
        assert_eq!(
            cli["models"][m]["micro"]["f1"].as_f64(),
            Some(model.micro.f1)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
