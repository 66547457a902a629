//! Threshold sweeps (issue #5, part 3): hand-computed values on tiny
//! datasets where a threshold flips specific outcomes, the exporters, the
//! chart and `fieldscope sweep`.

use super::common::{close, records};
use fieldscope::charts::{self, lines::SweepMetric, ChartOptions, PaperSize};
use fieldscope::eval::sweep::{sweep, Sweep, SweepParam};
use fieldscope::eval::{evaluate, Config, EvalInput, MatchMethod, ModelInput, Preset};
use fieldscope::export::{sweep::render, ExportOptions, Format};
use serde_json::{json, Value};
use std::ffi::OsString;

/// Two documents, two string near misses with known similarity and CER:
///
/// * a: `name` "abcdefghij" vs "abcdefghiX": Levenshtein 1 over 10
///   characters — similarity 1 − 1/10 = 0.9, CER 1/10 = 0.1; `total` 10 = 10
///   (exact whatever the threshold);
/// * b: `name` "abcd" vs "abXY": Levenshtein 2 over 4 — similarity 0.5,
///   CER 0.5; `total` null on both sides (a true negative).
fn near_misses() -> (Vec<Value>, Vec<Value>) {
    (
        vec![
            json!({"id": "a", "name": "abcdefghij", "total": 10}),
            json!({"id": "b", "name": "abcd", "total": null}),
        ],
        vec![
            json!({"id": "a", "name": "abcdefghiX", "total": 10}),
            json!({"id": "b", "name": "abXY", "total": null}),
        ],
    )
}

fn input(truth: Vec<Value>, models: Vec<(&str, Vec<Value>)>) -> EvalInput {
    EvalInput {
        truth: records("truth.json", truth),
        models: models
            .into_iter()
            .map(|(name, preds)| ModelInput::new(name, records(&format!("{name}.json"), preds)))
            .collect(),
        schema: None,
    }
}

fn near_miss_sweep(config: &Config, param: SweepParam, values: &[f64]) -> Sweep {
    let (truth, pred) = near_misses();
    sweep(input(truth, vec![("m", pred)]), config, param, values).expect("the sweep runs")
}

/// (threshold, micro F1, micro accuracy, macro-document F1).
#[track_caller]
fn check(s: &Sweep, expected: &[(f64, f64, f64, f64)]) {
    let points = &s.models[0].points;
    assert_eq!(points.len(), expected.len());
    for (p, &(t, f1, acc, macro_f1)) in points.iter().zip(expected) {
        assert_eq!(p.threshold, t);
        close(p.micro_f1, f1);
        close(p.micro_accuracy, acc);
        close(p.macro_documents_f1, macro_f1);
    }
}

/// Similarity threshold t (partial threshold 0.40 as configured):
///
/// * t ≤ 0.5: both names exact. TP = 3 (two names, total a), FP = FN = 0,
///   TN = 1: F1 = 1, accuracy = (3 + 1)/4 = 1; both documents P = R = 1.
/// * 0.5 < t ≤ 0.9: name b is partial (0.5 ≥ 0.40), strict counts it
///   wrong: TP = 2, FP = 1, FN = 1 → P = R = F1 = 2/3, accuracy =
///   (2 + 1)/4 = 0.75; document a P = R = 1, document b P = R = 0 → macro
///   P = R = 0.5, F1 0.5.
/// * t > 0.9: both names partial: TP = 1, FP = FN = 2 → F1 = 1/3,
///   accuracy (1 + 1)/4 = 0.5; document a P = R = 1/2, b 0 → macro 0.25.
#[test]
fn the_similarity_threshold_flips_the_two_near_misses_where_computed() {
    let s = near_miss_sweep(
        &Config::default(),
        SweepParam::Similarity,
        &[0.95, 0.5, 0.7, 0.9, 0.5],
    );
    assert_eq!(s.values, vec![0.5, 0.7, 0.9, 0.95], "ascending, once each");
    check(
        &s,
        &[
            (0.5, 1.0, 1.0, 1.0),
            (0.7, 2.0 / 3.0, 0.75, 0.5),
            (0.9, 2.0 / 3.0, 0.75, 0.5),
            (0.95, 1.0 / 3.0, 0.5, 0.25),
        ],
    );
    assert_eq!(s.key, "partial_matching.string.exact_threshold");
    assert_eq!(s.configured, 0.85);
    assert_eq!(s.method, MatchMethod::Similarity);
    assert_eq!(s.models[0].points[0].item_f1, None);
}

/// Under the `exact` preset the similarity threshold is never read; the
/// sweep switches the method to `similarity` (documented) and gives the
/// same numbers as above.
#[test]
fn a_similarity_sweep_uses_the_similarity_method_whatever_is_configured() {
    let s = near_miss_sweep(
        &Config::preset(Preset::Exact),
        SweepParam::Similarity,
        &[0.5, 0.95],
    );
    assert_eq!(s.method, MatchMethod::Similarity);
    check(&s, &[(0.5, 1.0, 1.0, 1.0), (0.95, 1.0 / 3.0, 0.5, 0.25)]);
}

/// CER threshold t (exact when CER ≤ t, else incorrect):
///
/// * t < 0.1: both names incorrect: TP = 1, FP = FN = 2 → F1 1/3,
///   accuracy 0.5, macro 0.25 (as above);
/// * 0.1 ≤ t < 0.5: name a exact: F1 2/3, accuracy 0.75, macro 0.5;
/// * t ≥ 0.5: both exact: 1, 1, 1.
#[test]
fn the_cer_threshold_flips_the_two_near_misses_where_computed() {
    let s = near_miss_sweep(
        &Config::default(),
        SweepParam::Cer,
        &[0.05, 0.1, 0.3, 0.5, 2.0],
    );
    assert_eq!(s.method, MatchMethod::Cer);
    assert_eq!(s.key, "string_match.cer_threshold");
    assert_eq!(s.configured, 0.15);
    check(
        &s,
        &[
            (0.05, 1.0 / 3.0, 0.5, 0.25),
            (0.1, 2.0 / 3.0, 0.75, 0.5),
            (0.3, 2.0 / 3.0, 0.75, 0.5),
            (0.5, 1.0, 1.0, 1.0),
            (2.0, 1.0, 1.0, 1.0),
        ],
    );
}

/// Item F1 threshold t. Document a has two truth items, widget×2 and
/// gadget×1; the model predicts widget×2 and gizmo×1. Pair 1 matches both
/// fields: item F1 = 1. Pair 2 matches `qty` only ("gadget" vs "gizmo":
/// 5 edits over 6 characters, similarity 1/6): precision = recall = 1/2,
/// item F1 = 0.5. Document b has no items on either side (a match for the
/// count rule).
///
/// * t ≤ 0.5: 2 recognised of 2 predicted and 2 true → item F1 1; both
///   documents have recognised = |T items| → item-count accuracy 1.
/// * t > 0.5: 1 recognised → item P = R = F1 = 1/2; document a fails →
///   item-count accuracy 1/2.
///
/// Field outcomes do not depend on t (SPEC §3.4): total a, total b,
/// widget, 2, 1 exact and "gadget"/"gizmo" incorrect → TP = 5, FP = FN = 1,
/// micro F1 = 5/6 at every t.
#[test]
fn the_item_threshold_changes_item_scores_only() {
    let truth = vec![
        json!({"id": "a", "total": 5, "items": [{"desc": "widget", "qty": 2}, {"desc": "gadget", "qty": 1}]}),
        json!({"id": "b", "total": 7, "items": []}),
    ];
    let pred = vec![
        json!({"id": "a", "total": 5, "items": [{"desc": "widget", "qty": 2}, {"desc": "gizmo", "qty": 1}]}),
        json!({"id": "b", "total": 7, "items": []}),
    ];
    let s = sweep(
        input(truth, vec![("m", pred)]),
        &Config::default(),
        SweepParam::Item,
        &[0.3, 0.5, 0.6, 1.0],
    )
    .unwrap();
    let expected = [
        (0.3, 1.0, 1.0),
        (0.5, 1.0, 1.0),
        (0.6, 0.5, 0.5),
        (1.0, 0.5, 0.5),
    ];
    let points = &s.models[0].points;
    assert_eq!(points.len(), 4);
    let accuracy = points[0].micro_accuracy;
    for (p, (t, item_f1, count_accuracy)) in points.iter().zip(expected) {
        assert_eq!(p.threshold, t);
        close(p.item_f1.unwrap(), item_f1);
        close(p.item_count_accuracy.unwrap(), count_accuracy);
        close(p.micro_f1, 5.0 / 6.0);
        assert_eq!(p.micro_accuracy, accuracy);
    }
}

/// Literal: each point is the report `evaluate` gives with the key set.
#[test]
fn each_point_is_a_full_evaluation_with_the_key_set() {
    let (truth, pred) = near_misses();
    let inp = input(truth, vec![("m", pred.clone()), ("n", pred)]);
    let s = sweep(inp.clone(), &Config::default(), SweepParam::Cer, &[0.1]).unwrap();
    let mut config = Config::default();
    config.string_match.method = MatchMethod::Cer;
    config.string_match.cer_threshold = 0.1;
    let report = evaluate(&inp, &config, false).unwrap();
    for (series, model) in s.models.iter().zip(&report.models) {
        assert_eq!(series.model, model.name);
        assert_eq!(series.points[0].micro_f1, model.micro.f1);
        assert_eq!(series.points[0].micro_accuracy, model.micro.accuracy);
        assert_eq!(
            series.points[0].macro_documents_f1,
            model.macro_documents.f1
        );
    }
}

#[test]
fn bad_values_are_errors_naming_the_key() {
    let (truth, pred) = near_misses();
    let e = sweep(
        input(truth.clone(), vec![("m", pred.clone())]),
        &Config::default(),
        SweepParam::Item,
        &[0.5, 1.2],
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "key `item_f1_threshold` expects a number between 0 and 1, found 1.2"
    );
    let e = sweep(
        input(truth, vec![("m", pred)]),
        &Config::default(),
        SweepParam::Cer,
        &[],
    )
    .unwrap_err();
    assert_eq!(e.message, "a sweep needs at least one threshold value");
}

fn hostile_sweep() -> Sweep {
    let (truth, pred) = near_misses();
    sweep(
        input(truth, vec![("=cmd|' <b>*x*</b> & $\\", pred)]),
        &Config::default(),
        SweepParam::Similarity,
        &[0.5, 0.95],
    )
    .unwrap()
}

#[test]
fn csv_has_every_point_at_full_precision_and_defuses_formulas() {
    let text = render(&hostile_sweep(), Format::Csv, &ExportOptions::default()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "model,threshold,micro_f1,micro_accuracy,macro_documents_f1,item_f1,item_count_accuracy"
    );
    assert_eq!(lines[1], "'=cmd|' <b>*x*</b> & $\\,0.5,1,1,1,,");
    assert_eq!(
        lines[2],
        "'=cmd|' <b>*x*</b> & $\\,0.95,0.3333333333333333,0.5,0.25,,"
    );
    assert_eq!(lines.len(), 3);
}

#[test]
fn markdown_and_latex_escape_names_and_print_four_decimals() {
    let s = hostile_sweep();
    let md = render(&s, Format::Markdown, &ExportOptions::default()).unwrap();
    assert!(
        md.contains("| \\=cmd\\|' &lt;b&gt;\\*x\\*&lt;/b&gt; &amp; \\$\\\\ | 0.95 | 0.3333 | 0.5000 | 0.2500 |"),
        "{md}"
    );
    assert!(md.contains("partial\\_matching.string.exact\\_threshold = t"));
    let tex = render(&s, Format::Latex, &ExportOptions::default()).unwrap();
    assert!(
        tex.contains("=cmd\\textbar{}' \\textless{}b\\textgreater{}{*}x{*}\\textless{}/b\\textgreater{} \\& \\$\\textbackslash{} & 0.95 & 0.3333 & 0.5000 & 0.2500 \\\\"),
        "{tex}"
    );
    assert!(tex.contains("\\toprule") && tex.contains("\\bottomrule"));
    let json: Value =
        serde_json::from_str(&render(&s, Format::Json, &ExportOptions::default()).unwrap())
            .unwrap();
    assert_eq!(json["param"], "similarity");
    assert_eq!(json["models"][0]["points"][1]["macro_documents_f1"], 0.25);
    assert!(render(&s, Format::Html, &ExportOptions::default()).is_err());
}

#[test]
fn the_chart_is_a_labelled_svg_with_the_configured_threshold_marked() {
    let s = hostile_sweep();
    for (size, width) in [(PaperSize::FullWidth, 672), (PaperSize::SingleColumn, 317)] {
        let o = ChartOptions {
            size,
            ..ChartOptions::default()
        };
        let chart = charts::sweep(&s, SweepMetric::MicroF1, &o);
        assert_eq!(chart.id, "sweep_similarity_micro_f1");
        assert_eq!(chart.width_px, width);
        let doc = roxmltree::Document::parse(&chart.svg).expect("well-formed SVG");
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some(width.to_string().as_str()));
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        for wanted in [
            "Micro F1",
            "Similarity threshold t",
            "configured t = 0.85",
            "0.0",
            "1.0",
        ] {
            assert!(texts.contains(&wanted), "{wanted:?} not in {texts:?}");
        }
        assert!(
            texts.iter().any(|t| t.starts_with("=cmd|' <b>")),
            "the model name is text, not markup: {texts:?}"
        );
        assert!(!doc.descendants().any(|n| n.has_tag_name("b")));
    }
    let chart = charts::sweep(&s, SweepMetric::MicroF1, &ChartOptions::default());
    assert!(chart
        .caption
        .starts_with("Micro F1 (counts pooled over all documents and fields"));
    assert!(chart
        .caption
        .contains("partial_matching.string.exact_threshold = t"));
    assert!(chart.caption.contains("configured t = 0.85"));
    // Two metrics per threshold; none for the item threshold without items.
    let ids: Vec<&str> = charts::sweep_charts(&s, &ChartOptions::default())
        .iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(
        ids,
        [
            "sweep_similarity_micro_f1",
            "sweep_similarity_micro_accuracy"
        ]
    );
}

fn cli(args: &[String]) -> (i32, String, String) {
    let argv: Vec<OsString> = std::iter::once("fieldscope".to_string())
        .chain(args.iter().cloned())
        .map(OsString::from)
        .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = fieldscope::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// A fresh directory under the system's temp dir.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fieldscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the near-miss dataset as JSONL files; returns (truth, pred).
pub fn near_miss_files(dir: &std::path::Path) -> (String, String) {
    let (truth, pred) = near_misses();
    let jsonl = |v: Vec<Value>| v.iter().map(|r| format!("{r}\n")).collect::<String>();
    let t = dir.join("truth.jsonl");
    let p = dir.join("m.jsonl");
    std::fs::write(&t, jsonl(truth)).unwrap();
    std::fs::write(&p, jsonl(pred)).unwrap();
    (t.display().to_string(), p.display().to_string())
}

#[test]
fn fieldscope_sweep_prints_the_table() {
    let dir = temp_dir("sweep-cli");
    let (truth, pred) = near_miss_files(&dir);
    let args: Vec<String> = [
        "sweep",
        "--truth",
        &truth,
        "--pred",
        &pred,
        "--param",
        "cer",
        "--values",
        "0.05, 0.1,0.5",
        "--format",
        "csv",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (code, out, err) = cli(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "model,threshold,micro_f1,micro_accuracy,macro_documents_f1,item_f1,item_count_accuracy\n\
         m,0.05,0.3333333333333333,0.5,0.25,,\n\
         m,0.1,0.6666666666666666,0.75,0.5,,\n\
         m,0.5,1,1,1,,\n"
    );

    let mut bad = args.clone();
    bad[8] = "0,x".into();
    let (code, _, err) = cli(&bad);
    assert_eq!(code, 2);
    assert_eq!(err, "error: --values \"0,x\": \"x\" is not a number\n");

    let mut bad = args.clone();
    bad[8] = "0,-0.1".into();
    let (code, _, err) = cli(&bad);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --values: key `string_match.cer_threshold` expects a number of at least 0, found -0.1\n"
    );

    let mut bad = args.clone();
    bad[6] = "sim".into();
    let (code, _, err) = cli(&bad);
    assert_eq!(code, 2);
    assert!(err.contains("--param: unknown threshold \"sim\""), "{err}");

    // Default grid: 21 rows after the header.
    let (code, out, err) = cli(&args[..7]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["values"].as_array().unwrap().len(), 21);
    let _ = std::fs::remove_dir_all(&dir);
}
