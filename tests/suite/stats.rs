//! Statistics (README "Statistics"): bootstrap intervals and paired tests
//! against the independent Python reference (`tests/reference/stats_ref.py`
//! on `tests/data/stats/fixture.json`), the per-document samples against the
//! report they come from, `field_weights` by hand, and the CLI flags.

use super::common::records;
use fieldscope::cli::run;
use fieldscope::eval::stats::{DocSample, ModelSamples, Samples, Score, StatsJob, StatsSettings};
use fieldscope::eval::{
    evaluate, evaluate_with_samples, Config, ConfigBuilder, Counts, EvalInput, ModelInput, Preset,
};
use fieldscope::io::parse_records;
use serde_json::{json, Value};
use std::ffi::OsString;
use std::path::Path;

fn data(path: &str) -> Value {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn counts(v: &Value) -> Counts {
    serde_json::from_value(v.clone()).expect("counts")
}

fn counts_of_array(v: &Value) -> Counts {
    let a: Vec<u64> = serde_json::from_value(v.clone()).expect("six counts");
    Counts {
        exact: a[0],
        partial: a[1],
        incorrect: a[2],
        missed: a[3],
        spurious: a[4],
        true_negative: a[5],
    }
}

/// The fixture's case as samples, config and settings.
fn case(c: &Value) -> (Samples, Config, StatsSettings) {
    let fields: Vec<String> = serde_json::from_value(c["fields"].clone()).unwrap();
    let models = c["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let docs = m["docs"].as_array().unwrap();
            ModelSamples {
                name: m["name"].as_str().unwrap().to_string(),
                docs: docs
                    .iter()
                    .map(|d| DocSample {
                        counts: counts(&d["counts"]),
                        numeric_exact: d["numeric_exact"].as_u64().unwrap(),
                        numeric_total: d["numeric_total"].as_u64().unwrap(),
                        valid: d["valid"].as_bool().unwrap(),
                        recognised: d["recognised"].as_u64().unwrap(),
                        truth_items: d["truth_items"].as_u64().unwrap(),
                        pred_items: d["pred_items"].as_u64().unwrap(),
                    })
                    .collect(),
                field_counts: docs
                    .iter()
                    .flat_map(|d| d["fields"].as_array().unwrap().iter().map(counts_of_array))
                    .collect(),
                has_items: m["has_items"].as_bool().unwrap(),
            }
        })
        .collect();
    let config = ConfigBuilder::new()
        .layer(&c["config"])
        .unwrap()
        .build()
        .unwrap();
    let s = &c["settings"];
    let settings = StatsSettings {
        resamples: s["resamples"].as_u64().unwrap() as usize,
        seed: s["seed"].as_u64().unwrap(),
        alpha: s["alpha"].as_f64().unwrap(),
    };
    (Samples { fields, models }, config, settings)
}

#[track_caller]
fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-12 * b.abs().max(1.0),
        "{what}: {a} (Rust) vs {b} (Python)"
    );
}

#[test]
fn the_random_stream_is_the_reference_generators() {
    let expected = data("tests/data/stats/expected.json");
    let mut rng = fastrand::Rng::with_seed(42);
    let raw: Vec<String> = (0..4).map(|_| rng.u64(..).to_string()).collect();
    assert_eq!(json!(raw), expected["wyrand_seed_42"]);
    let mut rng = fastrand::Rng::with_seed(42);
    let below: Vec<u64> = (0..8).map(|_| rng.u64(..10)).collect();
    assert_eq!(json!(below), expected["below_10_seed_42"]);
}

#[test]
fn intervals_and_tests_agree_with_the_python_reference() {
    let fixture = data("tests/data/stats/fixture.json");
    let expected = data("tests/data/stats/expected.json");
    let cases = fixture["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    for (k, c) in cases.iter().enumerate() {
        let (samples, config, settings) = case(c);
        let want = &expected["cases"][k];
        let result = StatsJob::new(samples, config, settings).unwrap().finish();
        for (m, intervals) in result.intervals.iter().enumerate() {
            let want_m = want["intervals"][m].as_object().unwrap();
            let keys: Vec<&String> = intervals.scores.keys().collect();
            let want_keys: Vec<&String> = want_m.keys().collect();
            let mut want_sorted = want_keys.clone();
            want_sorted.sort();
            assert_eq!(keys, want_sorted, "case {k}, model {m}: scores");
            for (key, i) in &intervals.scores {
                let w = &want_m[key];
                let at = format!("case {k}, model {m}, {key}");
                close(
                    i.estimate,
                    w["estimate"].as_f64().unwrap(),
                    &format!("{at} estimate"),
                );
                close(i.low, w["low"].as_f64().unwrap(), &format!("{at} low"));
                close(i.high, w["high"].as_f64().unwrap(), &format!("{at} high"));
                if k == 2 {
                    // One document: every resample is the data itself.
                    assert_eq!((i.low, i.high), (i.estimate, i.estimate), "{at}");
                }
            }
        }
        let got = result.significance.expect("three models").comparisons;
        let want_c = want["comparisons"].as_array().unwrap();
        assert_eq!(got.len(), want_c.len(), "case {k}: comparisons");
        for (g, w) in got.iter().zip(want_c) {
            let at = format!("case {k}, {} {} vs {}", g.score, g.a, g.b);
            assert_eq!(
                (g.score.as_str(), g.a.as_str(), g.b.as_str()),
                (
                    w["score"].as_str().unwrap(),
                    w["a"].as_str().unwrap(),
                    w["b"].as_str().unwrap()
                ),
                "{at}"
            );
            close(g.difference, w["difference"].as_f64().unwrap(), &at);
            close(g.p_value, w["p_value"].as_f64().unwrap(), &at);
            close(g.p_adjusted, w["p_adjusted"].as_f64().unwrap(), &at);
            assert_eq!(g.significant, w["significant"].as_bool().unwrap(), "{at}");
        }
    }
}

/// Pinned values of the reference for case 0 (seed 42, 200 resamples),
/// spelled out so that a change shows in the diff of this file.
#[test]
fn pinned_values_for_seed_42() {
    let fixture = data("tests/data/stats/fixture.json");
    let (samples, config, settings) = case(&fixture["cases"][0]);
    let r = StatsJob::new(samples, config, settings).unwrap().finish();
    let f1 = &r.intervals[0].scores["micro.f1"];
    // From `python3 tests/reference/stats_ref.py`.
    close(f1.estimate, 0.7519582245430809, "estimate");
    close(f1.low, 0.6920416296317883, "low");
    close(f1.high, 0.8000549450549451, "high");
    let s = r.significance.unwrap();
    let c: Vec<_> = s
        .comparisons
        .iter()
        .filter(|c| c.score == "micro.f1")
        .collect();
    // good vs fair and good vs poor: no shuffle as extreme, p = 1/201,
    // Holm × 3; fair vs poor: p = 6/201, Holm × 1.
    assert_eq!(c[0].p_value, 1.0 / 201.0);
    close(c[0].p_adjusted, 3.0 / 201.0, "holm");
    close(c[2].p_value, 6.0 / 201.0, "p");
    close(c[2].p_adjusted, 6.0 / 201.0, "holm");
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/example")
        .join(name)
        .display()
        .to_string()
}

fn example_input() -> EvalInput {
    let read = |n: &str| parse_records(n, &std::fs::read(example(n)).unwrap()).unwrap();
    EvalInput {
        truth: read("truth.jsonl"),
        models: vec![
            ModelInput::new("careful", read("careful.jsonl")),
            ModelInput::new("eager", read("eager.json")),
        ],
        schema: Some(
            serde_json::from_slice(&std::fs::read(example("schema.json")).unwrap()).unwrap(),
        ),
    }
}

#[test]
fn samples_give_back_every_number_of_the_report() {
    for config in [
        Config::default(),
        ConfigBuilder::new()
            .preset(Preset::NotFound)
            .layer(&json!({"macro_f1": "mean", "field_weights": {"total": 4, "vendor.name": 0}}))
            .unwrap()
            .build()
            .unwrap(),
    ] {
        let input = example_input();
        let plain = evaluate(&input, &config, false).unwrap();
        let (report, samples) = evaluate_with_samples(&input, &config, false).unwrap();
        assert_eq!(report, plain, "keeping samples changes no number");
        assert_eq!(samples.models.len(), 2);
        let job = StatsJob::new(samples, config.clone(), StatsSettings::default()).unwrap();
        for (m, r) in report.models.iter().enumerate() {
            let get = |s: Score| job.estimate(m, s).unwrap();
            assert_eq!(get(Score::MicroPrecision), r.micro.precision);
            assert_eq!(get(Score::MicroRecall), r.micro.recall);
            assert_eq!(get(Score::MicroF1), r.micro.f1);
            assert_eq!(get(Score::MicroAccuracy), r.micro.accuracy);
            assert_eq!(
                get(Score::MacroDocumentsPrecision),
                r.macro_documents.precision
            );
            assert_eq!(get(Score::MacroDocumentsRecall), r.macro_documents.recall);
            assert_eq!(get(Score::MacroDocumentsF1), r.macro_documents.f1);
            assert_eq!(
                get(Score::MacroDocumentsAccuracy),
                r.macro_documents.accuracy
            );
            assert_eq!(get(Score::MacroFieldsPrecision), r.macro_fields.precision);
            assert_eq!(get(Score::MacroFieldsRecall), r.macro_fields.recall);
            assert_eq!(get(Score::MacroFieldsF1), r.macro_fields.f1);
            assert_eq!(get(Score::MacroFieldsAccuracy), r.macro_fields.accuracy);
            assert_eq!(
                get(Score::DocumentExtractionScore),
                r.document_extraction_score
            );
            assert_eq!(get(Score::ItemsF1), r.items.as_ref().unwrap().f1);
            match &r.macro_fields_weighted {
                Some(w) => assert_eq!(get(Score::WeightedFieldsF1), w.f1),
                None => assert_eq!(job.estimate(m, Score::WeightedFieldsF1), None),
            }
        }
    }
}

#[test]
fn field_weights_by_hand() {
    // Field a: 2 exact → P = R = F1 = accuracy = 1. Field b: 1 exact and
    // 1 incorrect → P = R = F1 = accuracy = 1/2 (["fp", "fn"]).
    let truth = vec![
        json!({"id": "1", "a": "x", "b": "y"}),
        json!({"id": "2", "a": "x2", "b": "y2"}),
    ];
    let pred = vec![
        json!({"id": "1", "a": "x", "b": "wrong"}),
        json!({"id": "2", "a": "x2", "b": "y2"}),
    ];
    let report_with = |weights: Value| {
        let config = ConfigBuilder::new()
            .preset(Preset::Exact)
            .layer(&json!({"id_field": "id", "field_weights": weights}))
            .unwrap()
            .build()
            .unwrap();
        let input = EvalInput {
            truth: records("truth.json", truth.clone()),
            models: vec![ModelInput::new("m", records("m.json", pred.clone()))],
            schema: None,
        };
        evaluate(&input, &config, false).unwrap()
    };
    let r = report_with(json!({"a": 3, "b": 1, "c": 2}));
    let m = &r.models[0];
    assert_eq!(m.macro_fields.f1, 0.75);
    let w = m.macro_fields_weighted.unwrap();
    // (3·1 + 1·0.5) / (3 + 1) = 0.875; "c" is no field and weighs nothing.
    assert_eq!(
        (w.precision, w.recall, w.f1, w.accuracy),
        (0.875, 0.875, 0.875, 0.875)
    );
    assert_eq!(w.total_weight, 4.0);
    assert!(
        r.warnings
            .iter()
            .any(|x| x.starts_with("field_weights names \"c\", which is not a field of the data")),
        "{:?}",
        r.warnings
    );
    // A field not named weighs 1: (0.5·1 + 1·0.5) / 1.5.
    let w = report_with(json!({"a": 0.5})).models[0]
        .macro_fields_weighted
        .unwrap();
    assert_eq!(w.f1, 1.0 / 1.5);
    // Every weight 0: Σ w = 0 gives zero_division (0).
    let w = report_with(json!({"a": 0, "b": 0})).models[0]
        .macro_fields_weighted
        .unwrap();
    assert_eq!((w.f1, w.total_weight), (0.0, 0.0));
    // No field_weights: no weighted block, nothing in the config.
    let r = report_with(json!({}));
    assert!(r.models[0].macro_fields_weighted.is_none());
    let text = serde_json::to_string(&r).unwrap();
    assert!(!text.contains("field_weights") && !text.contains("macro_fields_weighted"));
}

/// Runs the tool in-process: (exit status, stdout, stderr).
fn fieldscope(extra: &[&str]) -> (i32, String, String) {
    let mut argv: Vec<OsString> = vec!["fieldscope".into(), "eval".into()];
    for a in [
        "--truth".to_string(),
        example("truth.jsonl"),
        "--pred".into(),
        example("careful.jsonl"),
        "--pred".into(),
        format!("eager={}", example("eager.json")),
        "--schema".into(),
        example("schema.json"),
    ] {
        argv.push(a.into());
    }
    argv.extend(extra.iter().map(OsString::from));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn cli_bootstrap_flags() {
    // Off by default: exactly SPEC §5's keys.
    let (code, out, _) = fieldscope(&[]);
    assert_eq!(code, 0);
    assert!(!out.contains("\"intervals\"") && !out.contains("\"significance\""));

    let (code, out, err) = fieldscope(&["--bootstrap", "--seed", "3"]);
    assert_eq!(code, 0, "{err}");
    let r: Value = serde_json::from_str(&out).unwrap();
    let iv = &r["models"][0]["intervals"];
    assert_eq!(iv["resamples"], 1000);
    assert_eq!(iv["seed"], 3);
    assert_eq!(iv["confidence"], 0.95);
    assert_eq!(
        iv["scores"]["micro.f1"]["estimate"],
        r["models"][0]["micro"]["f1"]
    );
    let low = iv["scores"]["micro.f1"]["low"].as_f64().unwrap();
    let high = iv["scores"]["micro.f1"]["high"].as_f64().unwrap();
    assert!(low <= r["models"][0]["micro"]["f1"].as_f64().unwrap() && low <= high);
    let s = &r["significance"];
    assert_eq!(s["alpha"], 0.05);
    assert_eq!(s["shuffles"], 1000);
    // 3 documents: 2³ = 8 equally likely swap patterns, so no p-value is
    // below 1/8 in expectation; nothing is significant.
    assert!(s["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["significant"] == false));

    // Same seed, same report; --bootstrap N and --alpha.
    let (_, again, _) = fieldscope(&["--bootstrap", "--seed", "3"]);
    assert_eq!(again, out);
    let (code, out, _) = fieldscope(&["--bootstrap", "50", "--alpha", "0.1"]);
    assert_eq!(code, 0);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["models"][1]["intervals"]["resamples"], 50);
    assert_eq!(r["models"][1]["intervals"]["seed"], 0);
    assert!((r["models"][1]["intervals"]["confidence"].as_f64().unwrap() - 0.9).abs() < 1e-12);

    // Errors name the flag and what was expected.
    let (code, _, err) = fieldscope(&["--seed", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--bootstrap"), "{err}");
    let (code, _, err) = fieldscope(&["--bootstrap", "--alpha", "1.5"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --alpha: expected a number strictly between 0 and 1, found 1.5\n"
    );
    let (code, _, err) = fieldscope(&["--bootstrap", "0"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --bootstrap: the number of resamples must be at least 1, found 0\n"
    );
}

/// 60 documents of one field: model A is right on every one, model B
/// wrong on every second one (and a copy of A, to test "not different").
fn constructed_report() -> fieldscope::eval::Report {
    let truth: Vec<Value> = (0..60)
        .map(|d| json!({"id": d.to_string(), "total": format!("v{d}")}))
        .collect();
    let a = truth.clone();
    let b: Vec<Value> = (0..60)
        .map(|d| {
            let v = if d % 2 == 0 {
                format!("v{d}")
            } else {
                "wrong".to_string()
            };
            json!({"id": d.to_string(), "total": v})
        })
        .collect();
    let config = ConfigBuilder::new()
        .preset(Preset::Exact)
        .layer(&json!({"id_field": "id"}))
        .unwrap()
        .build()
        .unwrap();
    let input = EvalInput {
        truth: records("truth.json", truth),
        models: vec![
            ModelInput::new("A", records("a.json", a.clone())),
            ModelInput::new("B", records("b.json", b)),
            ModelInput::new("A_copy", records("c.json", a)),
        ],
        schema: None,
    };
    let (mut report, samples) = evaluate_with_samples(&input, &config, false).unwrap();
    StatsJob::new(samples, config, StatsSettings::default())
        .unwrap()
        .finish()
        .apply(&mut report);
    report
}

#[test]
fn a_clearly_better_model_is_marked_and_identical_ones_are_not() {
    let report = constructed_report();
    let sig = report.significance.as_ref().unwrap();
    let find = |score: &str, a: &str, b: &str| {
        sig.comparisons
            .iter()
            .find(|c| c.score == score && c.a == a && c.b == b)
            .unwrap()
    };
    // A vs B: F1 1 vs 0.5 (B: 30 exact, 30 incorrect → P = R = 1/2). Only
    // swap patterns putting all 30 differing documents on one side are as
    // extreme (probability 2/2³⁰): p = 1/1001, Holm × 3 pairs (A vs B and
    // A_copy vs B share the smallest p; A vs A_copy has p = 1).
    let ab = find("micro.f1", "A", "B");
    assert_eq!(ab.difference, 0.5);
    assert_eq!(ab.p_value, 1.0 / 1001.0);
    assert_eq!(ab.p_adjusted, 3.0 / 1001.0);
    assert!(ab.significant);
    let same = find("micro.f1", "A", "A_copy");
    assert_eq!(
        (same.difference, same.p_value, same.p_adjusted),
        (0.0, 1.0, 1.0)
    );
    assert!(!same.significant);

    let md = fieldscope::export::render(
        &report,
        fieldscope::export::Format::Markdown,
        &Default::default(),
    );
    let row = |name: &str| {
        md.lines()
            .filter(|l| l.starts_with(&format!("| {name} |")))
            .nth(1)
            .unwrap()
            .to_string()
    };
    // Micro table: A's interval is [1, 1]; B is significantly worse than
    // the best (A) in precision, recall, F1 and accuracy; A_copy is not.
    assert_eq!(
        row("A"),
        "| A | 1.0000 ± 0.0000 | 1.0000 ± 0.0000 | 1.0000 ± 0.0000 | 1.0000 ± 0.0000 |"
    );
    assert_eq!(row("B").matches(" †").count(), 4, "{}", row("B"));
    assert!(!row("A\\_copy").contains('†'));
    assert!(md.contains(
        "± is half the width of the 95% percentile bootstrap interval (1000 resamples of the documents, seed 0"
    ));
    assert!(md.contains("Holm-corrected over the 3 pairs of models; α = 0.05)"));

    let tex = fieldscope::export::render(
        &report,
        fieldscope::export::Format::Latex,
        &Default::default(),
    );
    assert!(tex.contains(
        "A & \\textbf{1.0000} $\\pm$ 0.0000 & \\textbf{1.0000} $\\pm$ 0.0000 & \\textbf{1.0000} $\\pm$ 0.0000 & \\textbf{1.0000} $\\pm$ 0.0000 \\\\"
    ), "{tex}");
    assert!(tex.contains("$^{\\dagger}$ &"));
    assert!(tex.contains("the 95\\% percentile bootstrap interval"));
    assert!(!tex.contains("95%"));
}
