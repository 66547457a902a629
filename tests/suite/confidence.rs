//! SPEC §8 (issue 29): confidence read inline and beside the fields, the
//! pairs it gives, and each model's `confidence` block, on a dataset small
//! enough to work every number out by hand.

use super::common::{close, run, run_cli};
use fieldscope::eval::{Config, ConfigBuilder};
use serde_json::{json, Value};

pub(super) fn truth() -> Vec<Value> {
    vec![
        json!({"id": "d1", "total": "10.00", "date": "2024-01-05",
               "items": [{"desc": "pen", "amount": 2}, {"desc": "ink", "amount": 5}]}),
        json!({"id": "d2", "total": "7.50", "date": "2024-02-01", "items": []}),
        json!({"id": "d3", "total": "3.00", "date": null, "items": [{"desc": "cap", "amount": 1}]}),
    ]
}

/// Inline wrappers (d1, with a list's confidence inherited by its item
/// fields and an item field's own beating it), a map beside the fields
/// (d2), and one number for the whole document (d3).
pub(super) fn predictions() -> Vec<Value> {
    vec![
        json!({"id": "d1",
               "total": {"_value": "10.00", "_confidence": 0.9, "_page": 1},
               "date": {"_value": "March", "_confidence": 0.8},
               "items": {"_value": [
                   {"desc": "pen", "amount": 2},
                   {"desc": "ink", "amount": {"_value": 6, "_confidence": 0.3}}
               ], "_confidence": 0.6}}),
        json!({"id": "d2", "total": "7.50", "date": "2024-02-01",
               "_confidence": {"total": 0.95, "date": 0.4}}),
        json!({"id": "d3", "total": "3.00", "date": null, "_confidence": 0.99}),
    ]
}

fn config(layer: Value) -> Config {
    ConfigBuilder::new().layer(&layer).unwrap().build().unwrap()
}

/// The pairs, worked out by hand (confidence, correct):
/// d1 total (0.9, 1), date (0.8, 0: "March" is incorrect), items[].desc
/// (0.6, 1) twice, items[].amount (0.6, 1) and (0.3, 0: 6 for 5);
/// d2 total (0.95, 1), date (0.4, 1); d3 total (0.99, 1), date (0.99, 1: a
/// true negative). d3's truth item is missed: no prediction, no pair.
/// Slots: d1 2 + 2 items × 2 fields, d2 2, d3 2 + 1 item × 2 = 12.
#[test]
fn every_score_of_a_hand_computed_dataset() {
    let report = run(
        truth(),
        vec![("m", predictions())],
        None,
        &Config::default(),
    );
    let m = &report.models[0];
    // The wrappers stand for their values: nothing is spurious and no
    // `_value` / `_confidence` field appears.
    assert_eq!(m.counts.spurious, 0);
    let names: Vec<&str> = m.fields.iter().map(|f| f.field.as_str()).collect();
    assert!(names.iter().all(|n| !n.contains('_')), "{names:?}");
    assert_eq!(m.counts.exact, 7);
    let c = m.confidence.as_ref().expect("the model has pairs");
    assert_eq!(c.pairs, 10);
    close(c.with_confidence, 10.0 / 12.0);
    close(c.accuracy, 0.8);
    // Σc = 0.9 + 0.8 + 3 × 0.6 + 0.3 + 0.95 + 0.4 + 2 × 0.99 = 7.13.
    close(c.mean_confidence, 0.713);
    // Σ(c − y)² = 0.01 + 0.64 + 3 × 0.16 + 0.09 + 0.0025 + 0.36 + 2 × 0.0001.
    close(c.brier, 0.15827);
    // Bins: [0.9, 1] 4 pairs, acc 1, conf 3.83 / 4: 0.4 × 0.0425; [0.8, 0.9)
    // 0.1 × 0.8; [0.6, 0.7) 0.3 × 0.4; [0.4, 0.5) 0.1 × 0.6; [0.3, 0.4) 0.1 × 0.3.
    close(c.ece, 0.017 + 0.08 + 0.12 + 0.06 + 0.03);
    close(c.mce, 0.8);
    assert_eq!(c.bins.len(), 10);
    assert_eq!(
        c.bins.iter().map(|b| b.count).collect::<Vec<_>>(),
        [0, 0, 0, 1, 1, 0, 3, 0, 1, 4]
    );
    // Correct {0.9, 0.6 ×3, 0.95, 0.4, 0.99 ×2} against incorrect {0.8, 0.3}:
    // 4 of 8 above 0.8, all 8 above 0.3: 12 / 16.
    assert_eq!(c.auroc, Some(0.75));
    // Risk at each distinct confidence from 0.99 down: 0, 0, 0, 1/5, 1/8,
    // 1/9, 2/10 over coverage steps 0.2, 0.1, 0.1, 0.1, 0.3, 0.1, 0.1.
    close(c.aurc, 0.2 * 0.1 + 0.125 * 0.3 + 0.1 / 9.0 + 0.2 * 0.1);
    let rows: Vec<(f64, u64, Option<f64>)> = c
        .thresholds
        .iter()
        .map(|t| (t.threshold, t.accepted, t.accuracy))
        .collect();
    assert_eq!(
        rows,
        [
            (0.5, 8, Some(0.875)),
            (0.8, 5, Some(0.8)),
            (0.9, 4, Some(1.0)),
            (0.95, 3, Some(1.0)),
            (0.99, 2, Some(1.0))
        ]
    );
    // Accuracy ≥ 0.9 holds down to 0.9 (4 of 4), not at 0.8 (4 of 5),
    // 0.6 (7 of 8), 0.4 (8 of 9) or 0.3 (8 of 10).
    for target in &c.coverage_at_accuracy {
        assert_eq!((target.threshold, target.coverage), (Some(0.9), 0.4));
    }
    // Reviewing 1, 1, 2, 3 of the lowest (0.3 wrong, 0.4 right, then the
    // 0.6 group, all right) catches 1 of the 2 wrong values each time.
    let capture: Vec<(u64, Option<f64>)> = c
        .error_capture
        .iter()
        .map(|e| (e.reviewed, e.share))
        .collect();
    assert_eq!(
        capture,
        [
            (1, Some(0.5)),
            (1, Some(0.5)),
            (2, Some(0.5)),
            (3, Some(0.5))
        ]
    );
    // Only d3 is at 0.95 or more everywhere; its truth item is missed.
    let st = &c.straight_through;
    assert_eq!(
        (st.threshold, st.documents, st.accuracy),
        (0.95, 1, Some(0.0))
    );
    close(st.rate, 1.0 / 3.0);
    // Per field.
    let total = &c.fields["total"];
    assert_eq!((total.pairs, total.accuracy, total.auroc), (3, 1.0, None));
    close(total.mean_confidence, (0.9 + 0.95 + 0.99) / 3.0);
    // Under `min_pairs` (20): no recommended threshold.
    assert_eq!((total.recommended_threshold, total.coverage), (None, 0.0));
    let date = &c.fields["date"];
    assert_eq!(date.pairs, 3);
    // Correct {0.4, 0.99} against incorrect {0.8}: 1 of 2.
    assert_eq!(date.auroc, Some(0.5));
    assert_eq!(c.fields["items[].amount"].auroc, Some(1.0));
    assert_eq!(c.fields["items[].desc"].pairs, 2);
    assert_eq!(c.fields.len(), 4);
    // The charts' and the slider's views: the whole curve (7 distinct
    // confidences), and at τ = 0.6 8 values accepted (7 right) and d3
    // through (lowest 0.99; d1's lowest is 0.3, d2's 0.4).
    let views = c.views.as_ref().unwrap();
    let curve: Vec<(f64, u64)> = views
        .curve
        .iter()
        .map(|p| (p.threshold, p.accepted))
        .collect();
    assert_eq!(
        curve,
        [
            (0.99, 2),
            (0.95, 3),
            (0.9, 4),
            (0.8, 5),
            (0.6, 8),
            (0.4, 9),
            (0.3, 10)
        ]
    );
    assert_eq!(views.sweep.len(), 101);
    let at = |k: usize| {
        let p = &views.sweep[k];
        (
            p.threshold,
            p.accepted,
            p.correct,
            p.documents,
            p.documents_right,
        )
    };
    assert_eq!(at(60), (0.6, 8, 7, 1, 0));
    assert_eq!(at(0), (0.0, 10, 8, 3, 1));
    assert_eq!(at(100), (1.0, 0, 0, 0, 0));
    assert_eq!(at(40), (0.4, 9, 8, 2, 1));
}

/// SPEC §8.4: a field's own threshold lets d2 through (0.4 ≥ 0.3), and d2
/// is wholly right; d3 still goes and is not.
#[test]
fn field_thresholds_decide_straight_through() {
    let config = config(json!({"confidence": {"field_thresholds": {"date": 0.3}}}));
    let report = run(truth(), vec![("m", predictions())], None, &config);
    let st = &report.models[0]
        .confidence
        .as_ref()
        .unwrap()
        .straight_through;
    assert_eq!((st.documents, st.accuracy), (2, Some(0.5)));
}

/// A present value without a confidence holds its document back; a model
/// without any confidence has `confidence: null`; the truth given as
/// predictions has no pair either.
#[test]
fn uncovered_values_and_models_without_confidence() {
    let mut preds = predictions();
    // d3's map names only `total`: its date ("x") has no confidence.
    preds[2] = json!({"id": "d3", "total": "3.00", "date": "x", "_confidence": {"total": 0.99}});
    let report = run(
        truth(),
        vec![("m", preds), ("plain", truth())],
        None,
        &Config::default(),
    );
    let c = report.models[0].confidence.as_ref().unwrap();
    assert_eq!(c.straight_through.documents, 0);
    assert_eq!(c.straight_through.accuracy, None);
    // d3's date has no confidence now: 9 pairs.
    assert_eq!(c.pairs, 9);
    assert!(report.models[1].confidence.is_none());
    let json: Value = serde_json::from_str(&fieldscope::export::render(
        &report,
        fieldscope::export::Format::Json,
        &fieldscope::export::ExportOptions::default(),
    ))
    .unwrap();
    assert_eq!(json["models"][1]["confidence"], Value::Null);
    let keys: Vec<&str> = json["models"][0]["confidence"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "pairs",
            "with_confidence",
            "accuracy",
            "mean_confidence",
            "brier",
            "ece",
            "ece_equal_mass",
            "mce",
            "auroc",
            "aurc",
            "bins",
            "thresholds",
            "coverage_at_accuracy",
            "error_capture",
            "straight_through",
            "fields"
        ]
    );
}

/// Edge cases: empty truth, empty predictions, both empty, every value
/// absent (a confidence on an absent value still gives a pair), Unicode.
#[test]
fn edge_cases() {
    let none = |truth: Vec<Value>, preds: Vec<Value>| {
        run(truth, vec![("m", preds)], None, &Config::default()).models[0]
            .confidence
            .clone()
    };
    assert_eq!(none(vec![], vec![]), None);
    assert_eq!(none(truth(), vec![]), None);
    // Empty truth: a prediction without a truth document is not compared
    // (SPEC §1.1), so it gives no pair.
    let c = none(
        vec![],
        vec![json!({"id": "d1", "a": {"_value": "x", "_confidence": 0.25}})],
    );
    assert_eq!(
        c, None,
        "a prediction without a truth document is not compared"
    );
    // All absent: null against null is a true negative, held at 0.7.
    let c = none(
        vec![json!({"id": "d1", "a": null})],
        vec![json!({"id": "d1", "a": {"_value": null, "_confidence": 0.7}})],
    )
    .unwrap();
    assert_eq!((c.pairs, c.accuracy), (1, 1.0));
    close(c.brier, 0.09);
    assert_eq!(c.auroc, None);
    // Unicode keys and values, beside the fields.
    let c = none(
        vec![json!({"id": "d1", "señal": "ñandú 🦤", "価格": "千円"})],
        vec![json!({"id": "d1", "señal": "ñandú 🦤", "価格": "万円",
                    "_confidence": {"señal": 0.5, "価格": 0.75}})],
    )
    .unwrap();
    assert_eq!((c.pairs, c.accuracy), (2, 0.5));
    assert_eq!(c.fields["価格"].accuracy, 0.0);
    close(c.mean_confidence, 0.625);
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fieldscope-confidence-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn jsonl(values: &[Value]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

/// SPEC §8.1: a confidence out of [0, 1] is an error naming the file, the
/// line, the record, the path and the value; `--jobs` gives the same
/// report; the gate reads `confidence.*` paths.
#[test]
fn cli_errors_jobs_and_gate() {
    let dir = scratch("cli");
    let t = dir.join("truth.jsonl");
    let p = dir.join("m.jsonl");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&t, jsonl(&truth())).unwrap();
    std::fs::write(&p, jsonl(&predictions())).unwrap();
    let mut broken = predictions();
    broken[1] = json!({"id": "d2", "total": "7.50", "_confidence": {"total": 87}});
    std::fs::write(&bad, jsonl(&broken)).unwrap();
    let (t, p, bad) = (
        t.display().to_string(),
        p.display().to_string(),
        bad.display().to_string(),
    );
    let (code, _, err) = run_cli(&["eval", "--truth", &t, "--pred", &bad]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        format!("error: {bad}:2: record \"d2\": the confidence at `_confidence.total` must be a number in [0, 1], found 87; percentages must be divided by 100")
    );
    let one = run_cli(&[
        "eval",
        "--truth",
        &t,
        "--pred",
        &p,
        "--jobs",
        "1",
        "--details",
    ]);
    let two = run_cli(&[
        "eval",
        "--truth",
        &t,
        "--pred",
        &p,
        "--jobs",
        "2",
        "--details",
    ]);
    assert_eq!(one.0, 0, "{}", one.2);
    assert_eq!(one.1, two.1);
    let r: Value = serde_json::from_str(&one.1).unwrap();
    assert_eq!(r["models"][0]["confidence"]["auroc"], json!(0.75));
    // `--details`: each compared value's confidence, null when none.
    let fields = &r["models"][0]["document_details"][0]["fields"];
    let amount = fields
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["field"] == "items[].amount" && f["truth"] == json!(5))
        .unwrap();
    assert_eq!(amount["confidence"], json!(0.3));
    let (code, out, err) = run_cli(&[
        "gate",
        "--truth",
        &t,
        "--pred",
        &format!("m={p}"),
        "--require",
        "confidence.auroc >= 0.75",
        "--require",
        "confidence.fields[date].auroc >= 0.6",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("| ❌ fail | m | confidence.fields\\[date\\].auroc | 0.5000 | ≥ 0.6 |"),
        "{out}"
    );
    assert!(
        out.contains("| ✅ pass | m | confidence.auroc | 0.7500 | ≥ 0.75 |"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text exports' confidence tables (issue 29): one row per model (a
/// model without confidences shows dashes) and one per model and field;
/// none when no model has a confidence.
#[test]
fn markdown_and_latex_tables() {
    use fieldscope::export::{render, ExportOptions, Format};
    let report = run(
        truth(),
        vec![("m", predictions()), ("plain", truth())],
        None,
        &Config::default(),
    );
    let options = ExportOptions::default();
    let md = render(&report, Format::Markdown, &options);
    assert!(md.contains(
        "| Model | Covered | Accuracy | ECE | Brier | AUROC | AURC | Coverage at 95 % | Straight-through |\n\
         | :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n\
         | m | 0.8333 | 0.8000 | 0.3070 | 0.1583 | 0.7500 | 0.0886 | 0.4000 | 0.3333 |\n\
         | plain | — | — | — | — | — | — | — | — |\n"
    ), "{md}");
    assert!(
        md.contains("| m | date | 3 | 0.6667 | 0.4700 | 0.5000 | — | 0.0000 |\n"),
        "{md}"
    );
    let tex = render(&report, Format::Latex, &options);
    assert!(
        tex.contains(
            "    m & 0.8333 & 0.8000 & 0.3070 & 0.1583 & 0.7500 & 0.0886 & 0.4000 & 0.3333 \\\\\n\
         \x20   plain & --- & --- & --- & --- & --- & --- & --- & --- \\\\\n"
        ),
        "{tex}"
    );
    assert!(
        tex.contains(
            "    m & items{[}{]}.amount & 2 & 0.5000 & 0.3500 & 1.0000 & --- & 0.0000 \\\\\n"
        ),
        "{tex}"
    );
    let plain = run(truth(), vec![("plain", truth())], None, &Config::default());
    assert!(!render(&plain, Format::Markdown, &options).contains("Covered"));
    assert!(!render(&plain, Format::Latex, &options).contains("Covered"));
}

/// CSV: the per-field table gains the fields' confidence columns when some
/// model has confidences (none otherwise), empty for a model without.
#[test]
fn csv_confidence_columns() {
    use fieldscope::export::{render, ExportOptions, Format};
    let report = run(
        truth(),
        vec![("m", predictions()), ("plain", truth())],
        None,
        &Config::default(),
    );
    let csv = render(&report, Format::Csv, &ExportOptions::default());
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(
        ",mean_cer,error_format,error_scale,error_swapped,error_near_miss,error_wrong,confidence_pairs,confidence_accuracy,mean_confidence,confidence_ece,confidence_auroc,recommended_threshold,threshold_coverage"
    ));
    let date = csv.lines().find(|l| l.starts_with("m,date,")).unwrap();
    // date: pairs 0.8 (wrong), 0.4 and 0.99 (right): accuracy 2/3, mean
    // 2.19 / 3, ECE (0.8 + 0.6 + 0.01) / 3, AUROC 1/2, no threshold.
    // After the 14 per-field columns and the 5 error types (SPEC §9.1).
    let cells: Vec<&str> = date.split(',').skip(19).collect();
    assert_eq!(
        (cells[0], cells[4], cells[5], cells[6]),
        ("3", "0.5", "", "0")
    );
    let num = |i: usize| cells[i].parse::<f64>().unwrap();
    close(num(1), 2.0 / 3.0);
    close(num(2), 0.73);
    close(num(3), 0.47);
    let plain = csv.lines().find(|l| l.starts_with("plain,date,")).unwrap();
    assert!(plain.ends_with(",,,,,,,"), "{plain}");
    let none = run(truth(), vec![("plain", truth())], None, &Config::default());
    assert!(!render(&none, Format::Csv, &ExportOptions::default()).contains("confidence_pairs"));
}
