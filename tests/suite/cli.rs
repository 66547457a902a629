//! The command-line tool end to end: flags, exit statuses, messages and the
//! report it prints for the example in `tests/data/example/`.

use super::common::{example, run_cli as fieldscope};
use super::exporters::check_golden;
use serde_json::Value;
use std::path::PathBuf;

fn example_args(extra: &[&str]) -> Vec<String> {
    let mut v = vec![
        "eval".to_string(),
        "--truth".into(),
        example("truth.jsonl"),
        "--pred".into(),
        example("careful.jsonl"),
        "--pred".into(),
        format!("eager={}", example("eager.json")),
        "--schema".into(),
        example("schema.json"),
    ];
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run_example(extra: &[&str]) -> (i32, String, String) {
    let args = example_args(extra);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    fieldscope(&refs)
}

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fieldscope-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("temp file");
    path
}

#[test]
fn help_documents_every_flag() {
    let (code, out, _) = fieldscope(&["eval", "--help"]);
    assert_eq!(code, 0);
    for flag in [
        "--truth",
        "--pred",
        "--schema",
        "--config",
        "--preset",
        "--cost",
        "--format",
        "--details",
        "--out",
    ] {
        assert!(out.contains(flag), "--help lacks {flag}:\n{out}");
    }
    let (code, out, _) = fieldscope(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("eval"));
}

#[test]
fn json_report_of_the_example() {
    let (code, out, _) = run_example(&[]);
    assert_eq!(code, 0);
    let r: Value = serde_json::from_str(&out).expect("the report is JSON");
    assert_eq!(r["fieldscope_report"], 1);
    assert_eq!(r["documents"], 3);
    let careful = &r["models"][0];
    assert_eq!(careful["name"], "careful");
    // Hand count (README): 25 exact, 5 missed, 4 true negatives.
    assert_eq!(
        careful["counts"],
        serde_json::json!({"exact": 25, "partial": 0, "incorrect": 0, "missed": 5, "spurious": 0, "true_negative": 4})
    );
    assert_eq!(careful["micro"]["precision"], 1.0);
    assert_eq!(careful["micro"]["recall"].as_f64(), Some(25.0 / 30.0));
    assert_eq!(careful["micro"]["accuracy"].as_f64(), Some(29.0 / 34.0));
    // Macro over documents: recalls 12/14, 8/10, 5/6.
    let macro_r = (12.0 / 14.0 + 8.0 / 10.0 + 5.0 / 6.0) / 3.0;
    assert!((careful["macro_documents"]["recall"].as_f64().unwrap() - macro_r).abs() < 1e-15);
    assert!((careful["cost"].as_f64().unwrap() - 0.033).abs() < 1e-12);
    assert_eq!(careful["items"]["recognised"], 3);
    assert_eq!(careful["sets"]["codes"]["documents"], 2);
    let keys: Vec<&str> = careful
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "name",
            "cost",
            "counts",
            "errors",
            "truth_count",
            "pred_count",
            "m_total",
            "micro",
            "macro_documents",
            "macro_fields",
            "partial",
            "hallucination_rate",
            "abstention_rate",
            "numeric_precision",
            "field_f1_partial",
            "schema_validity_rate",
            "exact_match_rate",
            "document_extraction_score",
            "cer",
            "fields",
            "sets",
            "items",
            "confidence"
        ]
    );
    assert_eq!(r["models"][1]["name"], "eager");
}

#[test]
fn markdown_latex_and_csv_of_the_example_match_their_golden_files() {
    for (format, ext) in [("markdown", "md"), ("latex", "tex"), ("csv", "csv")] {
        let (code, out, _) = run_example(&["--format", format]);
        assert_eq!(code, 0, "{format}");
        check_golden(&format!("example.{ext}"), &out);
    }
}

#[test]
fn preset_flag_beats_the_config_files_preset_and_keeps_its_other_keys() {
    let config = example("metrics_config.json");
    let (code, out, _) = run_example(&["--config", &config]);
    assert_eq!(code, 0);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["config"]["preset"], "exact");
    assert_eq!(r["config"]["string_match"]["method"], "exact");
    assert_eq!(r["config"]["string_match"]["cer_threshold"], 0.2);
    let (code, out, _) = run_example(&["--config", &config, "--preset", "invoice-cer"]);
    assert_eq!(code, 0);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["config"]["preset"], "invoice-cer");
    assert_eq!(r["config"]["string_match"]["method"], "cer");
    assert_eq!(r["config"]["string_match"]["cer_threshold"], 0.2);
}

#[test]
fn cost_flag_overrides_the_records_costs() {
    let (code, out, _) = run_example(&["--cost", "eager=1.25"]);
    assert_eq!(code, 0);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["models"][1]["cost"], 1.25);
    let (code, _, err) = run_example(&["--cost", "nobody=1"]);
    assert_eq!(code, 2);
    assert_eq!(err, "error: --cost \"nobody=1\": no model is named \"nobody\"; the models are: careful, eager\n");
}

#[test]
fn details_add_each_documents_fields() {
    let (code, out, _) = run_example(&["--details"]);
    assert_eq!(code, 0);
    let r: Value = serde_json::from_str(&out).unwrap();
    let docs = r["models"][0]["document_details"]
        .as_array()
        .expect("details present");
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[0]["id"], "inv-001");
    let vat = docs[0]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["field"] == "vendor.vat_id")
        .unwrap();
    assert_eq!(vat["outcome"], "missed");
    assert_eq!(vat["cer"], 1.0);
    let (_, out, _) = run_example(&[]);
    assert!(!out.contains("document_details"));
}

#[test]
fn out_writes_the_report_to_a_file() {
    let path = temp_file("report.md", b"");
    let p = path.display().to_string();
    let (code, out, _) = run_example(&["--format", "markdown", "--out", &p]);
    assert_eq!(code, 0);
    assert!(out.is_empty());
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.contains("| Model | M_total |"));
}

#[test]
fn a_bad_jsonl_line_exits_2_naming_file_line_and_column() {
    let bad = temp_file(
        "bad.jsonl",
        b"{\"id\": \"inv-001\"}\n{\"id\": \"inv-002\", \"total\": }\n",
    );
    let b = bad.display().to_string();
    let (code, out, err) = fieldscope(&["eval", "--truth", &example("truth.jsonl"), "--pred", &b]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.starts_with(&format!("error: {b}:2:28: ")), "{err}");
}

#[test]
fn usage_and_input_errors_exit_2_with_a_message() {
    let (code, _, err) = fieldscope(&[
        "eval",
        "--truth",
        "/nonexistent/truth.jsonl",
        "--pred",
        "x.jsonl",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: /nonexistent/truth.jsonl: cannot read the file:"),
        "{err}"
    );

    let (code, _, err) = fieldscope(&["eval", "--truth", &example("truth.jsonl")]);
    assert_eq!(code, 2);
    assert!(err.contains("--pred"), "{err}");

    let (code, _, err) = run_example(&["--format", "yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown format `yaml`"), "{err}");

    let (code, _, err) = run_example(&["--preset", "lenient"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown preset \"lenient\""), "{err}");

    let config = temp_file("bad_config.json", br#"{"zero_divison": 1}"#);
    let c = config.display().to_string();
    let (code, _, err) = run_example(&["--config", &c]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!(
            "error: {c}: unknown key `zero_divison`; the allowed keys are: preset, id_field"
        )),
        "{err}"
    );

    let schema = temp_file("bad_schema.json", br#"{"type": 12}"#);
    let s = schema.display().to_string();
    let args = [
        "eval",
        "--truth",
        &example("truth.jsonl"),
        "--pred",
        &example("careful.jsonl"),
        "--schema",
        &s,
    ];
    let (code, _, err) = fieldscope(&args);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!(
            "error: {s}: the schema is not a valid JSON Schema (draft-07)"
        )),
        "{err}"
    );
}

#[test]
fn warnings_go_to_stderr_and_into_the_report() {
    let preds = temp_file(
        "partial.jsonl",
        b"{\"id\": \"inv-001\", \"total\": 1500}\n{\"id\": \"inv-999\"}\n",
    );
    let p = preds.display().to_string();
    let (code, out, err) = fieldscope(&["eval", "--truth", &example("truth.jsonl"), "--pred", &p]);
    assert_eq!(code, 0);
    assert!(err.contains("warning: "), "{err}");
    assert!(err.contains("\"inv-999\""));
    let r: Value = serde_json::from_str(&out).unwrap();
    let warnings = r["warnings"].as_array().unwrap();
    assert!(warnings.iter().any(|w| w
        .as_str()
        .unwrap()
        .contains("2 ground-truth document(s) have no prediction record")));
    assert_eq!(r["models"][0]["name"], "partial");
}

#[test]
fn the_binary_exits_with_the_status() {
    let exe = env!("CARGO_BIN_EXE_fieldscope");
    let status = std::process::Command::new(exe)
        .args(["eval", "--truth", "/nonexistent.jsonl", "--pred", "p.jsonl"])
        .output()
        .expect("the binary runs");
    assert_eq!(status.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&status.stderr).contains("cannot read the file"));
    let ok = std::process::Command::new(exe)
        .args(example_args(&["--format", "csv"]))
        .output()
        .expect("runs");
    assert_eq!(ok.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("model,field,exact,"));
}

#[test]
fn synth_writes_a_dataset_the_eval_command_reads() {
    let dir = std::env::temp_dir().join(format!("fieldscope-synth-test-{}", std::process::id()));
    let out = dir.display().to_string();
    let (code, _, err) = fieldscope(&["synth", "--documents", "4", "--seed", "7", "--out", &out]);
    assert_eq!(code, 0, "{err}");
    let truth = std::fs::read_to_string(dir.join("truth.jsonl")).unwrap();
    assert_eq!(truth.lines().count(), 4);
    for model in ["good", "conservative", "aggressive"] {
        let text = std::fs::read_to_string(dir.join(format!("{model}.jsonl"))).unwrap();
        assert_eq!(text.lines().count(), 4, "{model}");
    }
    // The same seed gives the same files.
    let again = dir.join("again");
    let (code, _, _) = fieldscope(&[
        "synth",
        "--documents",
        "4",
        "--seed",
        "7",
        "--out",
        &again.display().to_string(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read(again.join("good.jsonl")).unwrap(),
        std::fs::read(dir.join("good.jsonl")).unwrap()
    );
    let path = |n: &str| dir.join(n).display().to_string();
    let (code, report, err) = fieldscope(&[
        "eval",
        "--truth",
        &path("truth.jsonl"),
        "--pred",
        &path("good.jsonl"),
        "--schema",
        &path("invoice.schema.json"),
    ]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["documents"], 4);
    assert_eq!(report["models"][0]["name"], "good");
    let (code, _, err) = fieldscope(&["synth", "--out", "/proc/fieldscope-cannot-write-here"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: cannot write to /proc/"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bootstrap_intervals_and_paired_tests() {
    // These numbers are reproduced by an independent implementation of the
    // resampling, scores, quantiles and tests
    // (tests/reference/bootstrap_compare.py, to 1e-12).
    let (code, out, err) = run_example(&["--bootstrap"]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let b = &report["bootstrap"];
    assert_eq!(b["resamples"], 1000);
    assert_eq!(b["seed"], 1);
    assert_eq!(b["level"], 0.95);
    assert_eq!(b["documents"], 3);
    let careful = &b["models"][0];
    assert_eq!(careful["name"], "careful");
    // The estimate is the report's own number: micro recall 25/30.
    assert_eq!(careful["micro"]["recall"]["estimate"], 25.0 / 30.0);
    assert_eq!(careful["micro"]["recall"]["low"], 0.8);
    assert_eq!(careful["micro"]["recall"]["high"], 0.8571428571428571);
    let eager = &b["models"][1];
    assert_eq!(
        eager["micro"]["f1"]["estimate"],
        report["models"][1]["micro"]["f1"]
    );
    assert_eq!(eager["micro"]["f1"]["low"], 0.761904761904762);
    assert_eq!(eager["micro"]["f1"]["high"], 0.7878787878787878);
    assert_eq!(
        eager["macro_documents"]["accuracy"]["low"],
        0.6842105263157895
    );
    assert_eq!(eager["macro_documents"]["accuracy"]["high"], 0.75);
    // The new scores: macro over fields, document_extraction_score and the
    // line items; every estimate is the report's own number, exactly.
    for (k, m) in b["models"].as_array().unwrap().iter().enumerate() {
        let r = &report["models"][k];
        for avg in ["micro", "macro_documents", "macro_fields"] {
            for s in ["precision", "recall", "f1", "accuracy"] {
                assert_eq!(m[avg][s]["estimate"], r[avg][s], "{avg}.{s}");
            }
        }
        assert_eq!(
            m["document_extraction_score"]["estimate"],
            r["document_extraction_score"]
        );
        for s in ["precision", "recall", "f1"] {
            assert_eq!(m["items"][s]["estimate"], r["items"][s], "items.{s}");
        }
    }
    assert_eq!(careful["macro_fields"]["f1"]["low"], 0.7597402597402598);
    assert_eq!(careful["macro_fields"]["f1"]["high"], 0.8666666666666666);
    assert_eq!(
        eager["document_extraction_score"]["low"],
        0.7666666666666667
    );
    assert_eq!(
        eager["document_extraction_score"]["high"],
        0.9461538461538462
    );
    // careful has its 3 items recognised (item F1 = 1); the third document
    // has no items, and the resamples that draw only it (1 in 27) have
    // 0/0 = zero_division = 0.
    assert_eq!(careful["items"]["f1"]["low"], 0.0);
    assert_eq!(careful["items"]["f1"]["high"], 1.0);
    // Six scores tested, one pair each.
    let metrics: Vec<&str> = b["paired"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["metric"].as_str().unwrap())
        .collect();
    assert_eq!(
        metrics,
        [
            "micro.f1",
            "micro.accuracy",
            "macro_documents.f1",
            "macro_fields.f1",
            "document_extraction_score",
            "items.f1"
        ]
    );
    let p = |k: usize| b["paired"][k]["p_value"].as_f64().unwrap();
    // 34 of 1000 resamples as extreme as the observed difference; macro
    // over fields and item F1 do not differ significantly on 3 documents.
    assert_eq!(p(4), 34.0 / 1001.0);
    assert_eq!(b["paired"][4]["significant"], true);
    assert_eq!(p(3), 539.0 / 1001.0);
    assert_eq!(b["paired"][3]["significant"], false);
    assert_eq!(p(5), 276.0 / 1001.0);
    // careful beats eager on every resample: p = 1 / 1001.
    let test = &b["paired"][0];
    assert_eq!(test["metric"], "micro.f1");
    assert_eq!(
        (test["a"].as_str(), test["b"].as_str()),
        (Some("careful"), Some("eager"))
    );
    assert_eq!(test["p_value"], 1.0 / 1001.0);
    assert_eq!(test["significant"], true);
    // Details were needed for the resampling, not asked for: not printed.
    assert!(report["models"][0].get("document_details").is_none());
    // The default report has no bootstrap key (SPEC §5 exactly).
    let (_, plain, _) = run_example(&[]);
    assert!(serde_json::from_str::<Value>(&plain)
        .unwrap()
        .get("bootstrap")
        .is_none());
    // A seed gives the same intervals; another seed, others.
    let (_, again, _) = run_example(&["--bootstrap", "1000", "--seed", "1"]);
    assert_eq!(
        serde_json::from_str::<Value>(&again).unwrap()["bootstrap"],
        *b
    );
    let (_, other, _) = run_example(&["--bootstrap", "1000", "--seed", "2"]);
    assert_ne!(
        serde_json::from_str::<Value>(&other).unwrap()["bootstrap"],
        *b
    );
    // The Markdown and LaTeX tables: intervals and the significance mark.
    let (_, md, _) = run_example(&["--bootstrap", "--format", "markdown"]);
    assert!(md.contains(
        "| Model | Micro F1 | Macro F1 (documents) | Macro F1 (fields) | Micro accuracy | Extraction score | Item F1 |\n"
    ), "{md}");
    assert!(md.contains(
        "| eager | 0.7761 [0.7619, 0.7879] † | 0.7745 [0.7619, 0.7879] † | 0.7686 [0.7143, 0.8152] | 0.7105 [0.6842, 0.7500] † | 0.8818 [0.7667, 0.9462] † | 0.8571 [0.0000, 1.0000] |\n"
    ), "{md}");
    assert!(md.contains(
        "| careful | 0.9091 [0.8889, 0.9231] | 0.9072 [0.8889, 0.9231] | 0.7818 [0.7597, 0.8667] | 0.8529 [0.8182, 0.8750] | 0.9682 [0.9611, 0.9731] | 1.0000 [0.0000, 1.0000] |\n"
    ));
    let (_, tex, _) = run_example(&["--bootstrap", "--format", "latex"]);
    assert!(tex.contains(
        "    eager & 0.7761$^\\dagger$~{\\footnotesize [0.7619, 0.7879]} & 0.7745$^\\dagger$~{\\footnotesize [0.7619, 0.7879]} & 0.7686~{\\footnotesize [0.7143, 0.8152]} & 0.7105$^\\dagger$~{\\footnotesize [0.6842, 0.7500]} & 0.8818$^\\dagger$~{\\footnotesize [0.7667, 0.9462]} & 0.8571~{\\footnotesize [0.0000, 1.0000]} \\\\\n"
    ), "{tex}");
    // Usage errors.
    let (code, _, err) = run_example(&["--bootstrap", "0"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --bootstrap needs at least 1 resample (1000 is the usual number)\n"
    );
    let (code, _, err) = run_example(&["--bootstrap", "--alpha", "2"]);
    assert_eq!(code, 2);
    assert_eq!(err, "error: --alpha 2: expected a number between 0 and 1\n");
}

#[test]
fn sweep_prints_scores_at_each_threshold() {
    // "kitten" → "sitten": CER 1/6, similarity 5/6; "abcd" → "abcf": CER
    // 0.25, similarity 0.75.
    let truth = temp_file(
        "sweep-truth.jsonl",
        b"{\"id\": \"1\", \"a\": \"kitten\"}\n{\"id\": \"2\", \"a\": \"abcd\"}\n",
    );
    let pred = temp_file(
        "sweep-pred.jsonl",
        b"{\"id\": \"1\", \"a\": \"sitten\"}\n{\"id\": \"2\", \"a\": \"abcf\"}\n",
    );
    let (t, p) = (truth.display().to_string(), pred.display().to_string());
    let (code, out, err) = fieldscope(&[
        "sweep",
        "--truth",
        &t,
        "--pred",
        &format!("m={p}"),
        "--param",
        "cer",
        "--values",
        "0.1,0.2,0.3",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["key"], "string_match.cer_threshold");
    let f1: Vec<f64> = report["models"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["micro_f1"].as_f64().unwrap())
        .collect();
    // Neither, one, both within the threshold: TP 0/1/2 of 2 (an incorrect
    // value is an FP and an FN).
    assert_eq!(f1, [0.0, 0.5, 1.0]);
    let (code, md, _) = fieldscope(&[
        "sweep",
        "--truth",
        &t,
        "--pred",
        &format!("m={p}"),
        "--param",
        "similarity",
        "--values",
        "0.8",
        "--format",
        "markdown",
    ]);
    assert_eq!(code, 0);
    // At 0.8 "kitten" (0.833) is exact, "abcd" (0.75) only partial.
    assert!(
        md.ends_with("| 0.8000 | 0.5000 | 0.5000 | 0.5000 |\n"),
        "{md}"
    );
    let (code, _, err) = fieldscope(&["sweep", "--truth", &t, "--pred", &p, "--param", "f1"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --param: unknown sweep parameter \"f1\"; expected one of: similarity, cer, item\n"
    );
    let (code, _, err) = fieldscope(&[
        "sweep", "--truth", &t, "--pred", &p, "--param", "cer", "--values", "0.1,x",
    ]);
    assert_eq!(code, 2);
    assert_eq!(err, "error: --values: \"x\" is not a non-negative number\n");
}

#[test]
fn field_weights_give_a_weighted_macro_over_fields() {
    let truth = temp_file(
        "fw-truth.jsonl",
        b"{\"id\": \"1\", \"iban\": \"DE89370400440532013000\", \"phone\": \"+49 30 1234\"}\n",
    );
    let pred = temp_file(
        "fw-pred.jsonl",
        b"{\"id\": \"1\", \"iban\": \"DE89370400440532013000\", \"phone\": \"+1 555 0000\"}\n",
    );
    let config = temp_file(
        "fw-config.json",
        br#"{"field_weights": {"iban": 3, "phone": 1, "ibna": 2}}"#,
    );
    let (t, p, c) = (
        truth.display().to_string(),
        pred.display().to_string(),
        config.display().to_string(),
    );
    let (code, out, err) = fieldscope(&["eval", "--truth", &t, "--pred", &p, "--config", &c]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let m = &report["models"][0];
    // iban exact (F1 1, accuracy 1); phone incorrect (P = R = F1 = 0,
    // accuracy 0). Unweighted macro over fields: 0.5; weighted 3:1:
    // (3·1 + 1·0) / 4 = 0.75.
    assert_eq!(m["macro_fields"]["f1"], 0.5);
    assert_eq!(m["weighted_fields"]["f1"], 0.75);
    assert_eq!(m["weighted_fields"]["precision"], 0.75);
    assert_eq!(m["weighted_fields"]["accuracy"], 0.75);
    assert_eq!(report["config"]["field_weights"]["iban"], 3.0);
    assert!(report["warnings"].as_array().unwrap().iter().any(|w| w
        .as_str()
        .unwrap()
        .starts_with("field_weights: no field is named `ibna`; its weight is not used")));
    // Markdown and LaTeX add the weighted table, its caption naming the
    // weights.
    let args = ["eval", "--truth", &t, "--pred", &p, "--config", &c];
    let (_, md, _) = fieldscope(&[&args[..], &["--format", "markdown"]].concat());
    assert!(
        md.contains(
            "Weights: iban 3.0, ibna 2.0, phone 1.0.\n\n\
             | Model | Precision | Recall | F1 | Accuracy |\n\
             | :--- | ---: | ---: | ---: | ---: |\n\
             | fw-pred | 0.7500 | 0.7500 | 0.7500 | 0.7500 |\n"
        ),
        "{md}"
    );
    let (_, tex, _) = fieldscope(&[&args[..], &["--format", "latex"]].concat());
    assert!(
        tex.contains("\\label{tab:fieldscope-weighted-fields}"),
        "{tex}"
    );
    assert!(
        tex.contains("    fw-pred & 0.7500 & 0.7500 & 0.7500 & 0.7500 \\\\\n"),
        "{tex}"
    );
    let (_, html, _) = fieldscope(&[&args[..], &["--format", "html"]].concat());
    assert!(html.contains("<section id=\"weighted-fields\">"), "{html}");
    assert!(
        html.contains("Weights: iban 3.0, ibna 2.0, phone 1.0."),
        "{html}"
    );
    // Without weights the report has no such key.
    let (_, plain_md, _) =
        fieldscope(&["eval", "--truth", &t, "--pred", &p, "--format", "markdown"]);
    assert!(!plain_md.contains("field_weights"), "{plain_md}");
    let (_, plain, _) = fieldscope(&["eval", "--truth", &t, "--pred", &p]);
    let plain: Value = serde_json::from_str(&plain).unwrap();
    assert!(plain["models"][0].get("weighted_fields").is_none());
    assert!(plain["config"].get("field_weights").is_none());
    // A negative weight is an error naming the key.
    let bad = temp_file("fw-bad.json", br#"{"field_weights": {"iban": -1}}"#);
    let (code, _, err) = fieldscope(&[
        "eval",
        "--truth",
        &t,
        "--pred",
        &p,
        "--config",
        &bad.display().to_string(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.ends_with(
            "fw-bad.json: key `field_weights.iban` expects a number ≥ 0, found a number -1\n"
        ),
        "{err}"
    );
}

/// SPEC §7.1 and §7.4 on the command line: suggestions on standard error
/// after the warnings; `--field-type` beats the config file's type for the
/// same path; a bad type is a usage error (status 2).
#[test]
fn field_types_and_suggestions() {
    let truth = temp_file(
        "ft_truth.jsonl",
        br#"{"id":"1","amount":"1108605.0","code":"A"}
{"id":"2","amount":"2,500","code":"B"}
{"id":"3","amount":"7","code":"C"}
{"id":"4","amount":"12.5","code":"D"}
{"id":"5","amount":"$3","code":"E"}
{"id":"6","amount":"9","code":"F","extra":"x"}
"#,
    );
    let pred = temp_file(
        "ft_pred.jsonl",
        br#"{"id":"1","amount":1108605,"code":"A"}
{"id":"6","amount":"1,108,605"}
"#,
    );
    let (t, p) = (truth.display().to_string(), format!("m={}", pred.display()));
    let (code, out, err) = fieldscope(&["eval", "--truth", &t, "--pred", &p]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = err.lines().collect();
    let first_suggestion = lines.iter().position(|l| l.starts_with("suggestion:"));
    assert!(
        lines.iter().rposition(|l| l.starts_with("warning:")) < first_suggestion,
        "{err}"
    );
    assert_eq!(
        lines.last().copied(),
        Some(
            r#"suggestion: compare `amount` as a number (100.0 % of its truth values read as one): {"field_types":{"amount":"number"}}"#
        )
    );
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let keys: Vec<&String> = report.as_object().unwrap().keys().collect();
    assert_eq!(keys[2..4], ["warnings", "suggestions"]);
    assert_eq!(report["suggestions"][0]["field"], "amount");
    // As a string, "1108605.0" vs 1108605 is partial (similarity 7/9).
    assert_eq!(report["models"][0]["fields"][0]["counts"]["partial"], 1);

    let config = temp_file(
        "ft_config.json",
        br#"{"field_types": {"amount": "string", "code": "string"}}"#,
    );
    let c = config.display().to_string();
    let (code, out, err) = fieldscope(&[
        "eval",
        "--truth",
        &t,
        "--pred",
        &p,
        "--config",
        &c,
        "--field-type",
        "amount=number",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("suggestion:"), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        report["config"]["field_types"],
        serde_json::json!({"amount": "number", "code": "string"})
    );
    assert_eq!(report["suggestions"], serde_json::json!([]));
    // 1108605 = "1108605.0"; "1,108,605" ≠ "9": one exact, one incorrect.
    let amount = &report["models"][0]["fields"][0];
    assert_eq!(
        (
            amount["counts"]["exact"].as_u64(),
            amount["counts"]["incorrect"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(report["models"][0]["numeric_precision"], 1.0 / 6.0);

    let (code, _, err) = fieldscope(&[
        "eval",
        "--truth",
        &t,
        "--pred",
        &p,
        "--field-type",
        "amount=money",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--field-type \"amount=money\": \"money\" is not a type; the types are: number, integer, date, numeric_string, string, boolean"), "{err}");
    let (code, _, err) = fieldscope(&[
        "eval",
        "--truth",
        &t,
        "--pred",
        &p,
        "--field-type",
        "amount",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--field-type \"amount\": expected PATH=TYPE"),
        "{err}"
    );
}

/// Issue 32: the suggestions of SPEC §7.4 in the Markdown and HTML reports
/// (as the app words them: what it changes, one line of config), and no
/// such section when there are none.
#[test]
fn suggestions_in_markdown_and_html_reports() {
    // Six truth values, all strings reading as numbers: share 6/6 = 100.0 %.
    let truth = temp_file(
        "sg_truth.jsonl",
        br#"{"id":"1","amount":"10.0"}
{"id":"2","amount":"2,500"}
{"id":"3","amount":"7"}
{"id":"4","amount":"12.5"}
{"id":"5","amount":"$3"}
{"id":"6","amount":"9"}
"#,
    );
    let pred = temp_file("sg_pred.jsonl", br#"{"id":"1","amount":10}"#);
    let (t, p) = (truth.display().to_string(), format!("m={}", pred.display()));
    let sentence = "Treat amount as a number: 100.0 % of its truth values are strings that read \
                    as numbers; compared as strings, equal numbers written differently count as \
                    wrong. Config: ";
    let (code, md, err) =
        fieldscope(&["eval", "--truth", &t, "--pred", &p, "--format", "markdown"]);
    assert_eq!(code, 0, "{err}");
    assert!(md.contains("\n## Suggestions\n\n"), "{md}");
    assert!(
        md.contains(&format!(
            "- {sentence}{{\"field\\_types\":{{\"amount\":\"number\"}}}}\n"
        )),
        "{md}"
    );
    let (code, html, err) = fieldscope(&["eval", "--truth", &t, "--pred", &p, "--format", "html"]);
    assert_eq!(code, 0, "{err}");
    assert!(html.contains("<li><a href=\"#suggestions\">Suggestions</a></li>"));
    assert!(html.contains(
        "<li>Treat <code>amount</code> as a number: 100.0 % of its truth values are strings \
         that read as numbers; compared as strings, equal numbers written differently count \
         as wrong. Config: <code>{&quot;field_types&quot;:{&quot;amount&quot;:&quot;number&quot;}}</code></li>"
    ));
    // Applied: no suggestion, no section.
    for format in ["markdown", "html"] {
        let (code, out, err) = fieldscope(&[
            "eval",
            "--truth",
            &t,
            "--pred",
            &p,
            "--field-type",
            "amount=number",
            "--format",
            format,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("Suggestions"), "{format}: {out}");
    }
}

/// Issue 32: `--app-url URL` (config `app_url`) makes the HTML report link
/// to the app and say how to re-open the report there; without it, a
/// report with embedded inputs says how to get the app. Only http and
/// https addresses are accepted (status 2 otherwise), and the address is
/// escaped.
#[test]
fn app_url_links_the_report_to_the_app() {
    let truth = temp_file("au_truth.jsonl", br#"{"id":"1","a":"x"}"#);
    let pred = temp_file("au_pred.jsonl", br#"{"id":"1","a":"x"}"#);
    let (t, p) = (truth.display().to_string(), format!("m={}", pred.display()));
    let url = "https://example.org/fs/?a=1&b=2";
    let args = ["eval", "--truth", &t, "--pred", &p, "--format", "html"];
    let with = |extra: &[&str]| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend_from_slice(extra);
        fieldscope(&all)
    };
    let link = "<a href=\"https://example.org/fs/?a=1&amp;b=2\" rel=\"noopener noreferrer\">\
                https://example.org/fs/?a=1&amp;b=2</a>";
    let (code, html, err) = with(&["--app-url", url, "--embed-inputs"]);
    assert_eq!(code, 0, "{err}");
    assert!(html.contains(&format!(
        "<dt>App</dt><dd id=\"app\">{link}: open it and drop this file onto its page to \
         re-open the evaluation with its inputs and settings.</dd>"
    )));
    assert!(html.contains(
        "Drop this file onto the fieldscope app (the App line) to re-open the evaluation.</dd>"
    ));
    let (code, html, _) = with(&["--app-url", url]);
    assert_eq!(code, 0);
    assert!(html.contains(&format!(
        "<dt>App</dt><dd id=\"app\">{link}: the inputs are not embedded in this page; write \
         the report with <code>--embed-inputs</code> (or open the input files there) to \
         re-open the evaluation.</dd>"
    )));
    // The config file's key does the same; the JSON report carries it.
    let config = temp_file(
        "au_config.json",
        br#"{"app_url": "http://localhost:8080/"}"#,
    );
    let c = config.display().to_string();
    let (code, json, _) = fieldscope(&["eval", "--truth", &t, "--pred", &p, "--config", &c]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["config"]["app_url"], "http://localhost:8080/");
    // Without it: no App row, and the embedded inputs say how to get the app.
    let (code, html, _) = with(&["--embed-inputs"]);
    assert_eq!(code, 0);
    assert!(!html.contains("<dt>App</dt>"));
    assert!(html.contains(
        "Drop this file onto the fieldscope app to re-open the evaluation (the app is a folder \
         of static files: <code>trunk build --release</code> in fieldscope's repository writes \
         it to <code>dist/</code> for any static host; see <code>docs/browser-app.md</code>)."
    ));
    let (_, plain, _) = with(&[]);
    assert!(!plain.contains("app_url") && !plain.contains("<dt>App</dt>"));
    for bad in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://x/\"><b>",
    ] {
        let (code, out, err) = with(&["--app-url", bad]);
        assert_eq!(code, 2, "{bad}");
        assert_eq!(out, "");
        assert!(
            err.contains("--app-url: key `app_url` expects an http:// or https:// address"),
            "{err}"
        );
    }
}

/// Issue 32: `docs/cli.md`'s usage block (its first code block) names
/// every flag of `fieldscope eval --help`, and no flag `--help` lacks.
#[test]
fn the_usage_line_lists_every_flag() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md"))
        .expect("docs/cli.md");
    let block = doc
        .split("```")
        .nth(1)
        .expect("docs/cli.md opens with a code block");
    let flags = |text: &str| -> std::collections::BTreeSet<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|w| w.starts_with("--") && w.len() > 2)
            .map(str::to_string)
            .collect()
    };
    let (code, help, _) = fieldscope(&["eval", "--help"]);
    assert_eq!(code, 0);
    // The options' own lines (`  -x, --flag <V>` or `      --flag`), not
    // flags named in another flag's description.
    let options: String = help
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let t = t.strip_prefix("-h, ").unwrap_or(t);
            (t.starts_with("--") && l.starts_with("  ")).then(|| t.split_whitespace().next())
        })
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let mut expected = flags(&options);
    expected.remove("--help");
    assert!(
        expected.contains("--app-url") && expected.len() > 15,
        "{expected:?}"
    );
    assert_eq!(
        flags(block),
        expected,
        "docs/cli.md's usage block vs eval --help"
    );
}
