//! The literature's metrics against their reference implementations'
//! published cases (`tests/data/literature/`: the `anls_star` package's own
//! test suite, Donut's docstring examples and hand computations), and the
//! CLI's `--metrics` end to end on the example, with values computed by the
//! reference packages (`anls_star` 1.0.1 with `munkres` 1.1.4,
//! `donut-python` 1.0.9 with `zss` 1.2.0) on the same records.

use super::common::{example, run_cli};
use fieldscope::eval::literature::anls_star::anls_star;
use fieldscope::eval::literature::donut::{flatten, nted, F1Counts};
use serde_json::Value;
use std::path::Path;

fn data(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/literature")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("test data");
    serde_json::from_str(&text).expect("valid JSON")
}

fn cases(doc: &Value) -> &Vec<Value> {
    doc["cases"].as_array().expect("cases")
}

#[test]
fn anls_star_reproduces_the_packages_test_suite() {
    let doc = data("anls_star_cases.json");
    assert!(cases(&doc).len() >= 40);
    for case in cases(&doc) {
        let expected = case["expected"].as_f64().expect("expected");
        let got = anls_star(&case["gt"], &case["pred"])
            .unwrap_or_else(|| panic!("{}: undefined", case["test"]));
        assert!(
            (got - expected).abs() <= 1e-12,
            "{}: gt {} pred {}: got {got}, expected {expected}",
            case["test"],
            case["gt"],
            case["pred"]
        );
    }
}

#[test]
fn donut_reproduces_its_examples() {
    let doc = data("donut_cases.json");
    for case in cases(&doc) {
        let name = &case["name"];
        let (gt, pred) = (&case["gt"], &case["pred"]);
        assert_eq!(nted(pred, gt), case["nted"].as_f64().unwrap(), "{name}");
        assert_eq!(
            F1Counts::of(pred, gt).f1(),
            case["donut_f1"].as_f64(),
            "{name}"
        );
    }
    let example = &doc["flatten_example"];
    let pairs: Vec<Value> = flatten(&example["input"])
        .into_iter()
        .map(|(k, v)| serde_json::json!([k, v]))
        .collect();
    assert_eq!(Value::Array(pairs), example["output"]);
}

fn fieldscope(extra: &[&str]) -> (i32, String, String) {
    let truth = example("truth.jsonl");
    let careful = example("careful.jsonl");
    let eager = format!("eager={}", example("eager.json"));
    let args: Vec<&str> = [
        "eval", "--truth", &truth, "--pred", &careful, "--pred", &eager,
    ]
    .into_iter()
    .chain(extra.iter().copied())
    .collect();
    run_cli(&args)
}

/// (model, ANLS*, nTED, Donut F1, per-document ANLS*, per-document nTED)
type Reference = (&'static str, f64, f64, f64, [f64; 3], [f64; 3]);

/// The example's values from the reference packages (on each truth record
/// and its prediction without `id` and `cost`): per model ANLS*, nTED
/// (`np.mean`), Donut F1 (`cal_f1` over the three documents), then the
/// per-document ANLS* and nTED.
const REFERENCE: [Reference; 2] = [
    (
        "careful",
        0.7934583934583935,
        0.7919111693368633,
        0.7076923076923077,
        [0.705050505050505, 0.8181818181818182, 0.8571428571428571],
        [0.7203389830508475, 0.8148148148148149, 0.8405797101449275],
    ),
    (
        "eager",
        0.7463284157363105,
        0.693112378734257,
        0.6571428571428571,
        [0.662280701754386, 0.7329545454545454, 0.84375],
        [0.5677966101694916, 0.6419753086419753, 0.8695652173913043],
    ),
];

#[test]
fn the_cli_reports_the_references_values_when_asked() {
    let (code, out, err) = fieldscope(&["--metrics", "all", "--details"]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    for (m, (name, anls, ted, f1, docs_anls, docs_ted)) in REFERENCE.iter().enumerate() {
        let model = &report["models"][m];
        assert_eq!(model["name"], *name);
        let lit = &model["literature"];
        assert_eq!(lit["anls_star"].as_f64(), Some(*anls), "{name}");
        assert_eq!(lit["nted"].as_f64(), Some(*ted), "{name}");
        assert_eq!(lit["donut_f1"].as_f64(), Some(*f1), "{name}");
        let docs = lit["documents"].as_array().unwrap();
        assert_eq!(docs.len(), 3);
        for (d, doc) in docs.iter().enumerate() {
            assert_eq!(doc["id"], format!("inv-00{}", d + 1));
            assert_eq!(doc["anls_star"].as_f64(), Some(docs_anls[d]));
            assert_eq!(doc["nted"].as_f64(), Some(docs_ted[d]));
        }
    }
}

#[test]
fn only_the_requested_metrics_appear_and_the_default_report_is_unchanged() {
    let (_, plain, _) = fieldscope(&[]);
    assert!(!plain.contains("literature"));
    let (code, out, _) = fieldscope(&["--metrics", "nted"]);
    assert_eq!(code, 0);
    let report: Value = serde_json::from_str(&out).unwrap();
    let lit = report["models"][0]["literature"].as_object().unwrap();
    assert_eq!(lit.keys().collect::<Vec<_>>(), ["nted"]);
    // Everything else is the default report.
    let mut stripped = report.clone();
    for m in stripped["models"].as_array_mut().unwrap() {
        m.as_object_mut().unwrap().remove("literature");
    }
    assert_eq!(stripped, serde_json::from_str::<Value>(&plain).unwrap());
}

#[test]
fn markdown_and_latex_gain_one_table() {
    let (_, md, _) = fieldscope(&["--metrics", "anls_star,donut_f1", "--format", "markdown"]);
    assert!(md.contains("| Model | ANLS\\* | Donut F1 |"), "{md}");
    assert!(md.contains("| careful | 0.7935 | 0.7077 |"), "{md}");
    assert!(md.contains("| eager | 0.7463 | 0.6571 |"), "{md}");
    let (_, plain, _) = fieldscope(&["--format", "markdown"]);
    assert!(!plain.contains("ANLS"));
    let (_, tex, _) = fieldscope(&["--metrics", "nted", "--format", "latex"]);
    assert!(tex.contains("Model & nTED \\\\"), "{tex}");
    assert!(tex.contains("careful & \\textbf{0.7919} \\\\"), "{tex}");
    assert!(tex.contains("eager & 0.6931 \\\\"), "{tex}");
}

#[test]
fn an_unknown_metric_is_a_usage_error_naming_it() {
    let (code, out, err) = fieldscope(&["--metrics", "anls_star,ted"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("unknown metric \"ted\"") && err.contains("anls_star, nted, donut_f1"),
        "{err}"
    );
}

fn docs(name: &str, text: &str) -> std::sync::Arc<fieldscope::eval::DocFile> {
    std::sync::Arc::new(fieldscope::io::parse_docs(name, text.as_bytes()).expect("parses"))
}

#[test]
fn a_job_run_one_document_at_a_time_gives_what_evaluate_gives() {
    use fieldscope::eval::literature::{evaluate, Job, Metrics};
    let read = |name: &str| std::fs::read_to_string(example(name)).unwrap();
    let truth = docs("truth.jsonl", &read("truth.jsonl"));
    let models = vec![
        (
            "careful".to_string(),
            docs("careful.jsonl", &read("careful.jsonl")),
        ),
        ("eager".to_string(), docs("eager.json", &read("eager.json"))),
    ];
    let (whole, warnings) =
        evaluate(truth.clone(), models.clone(), None, Metrics::ALL, true).unwrap();
    assert!(warnings.is_empty());
    let mut job = Job::new(truth, models, None, Metrics::ALL, true).unwrap();
    assert_eq!(job.total(), 6);
    let mut steps = 0;
    while job.done() < job.total() {
        assert_eq!(job.step(1).unwrap(), steps + 1);
        steps += 1;
    }
    assert_eq!(job.step(5).unwrap(), 6, "nothing left to do");
    let (sliced, warnings) = job.finish();
    assert!(warnings.is_empty());
    assert_eq!(sliced.len(), 2);
    for (((name, lit), whole), reference) in sliced.iter().zip(&whole).zip(&REFERENCE) {
        assert_eq!(name, reference.0);
        assert_eq!(lit, whole);
        assert_eq!(lit.anls_star, Some(Some(reference.1)));
        assert_eq!(lit.nted, Some(Some(reference.2)));
        assert_eq!(lit.donut_f1, Some(Some(reference.3)));
    }
}

#[test]
fn a_document_too_large_is_refused_with_a_warning_and_leaves_the_mean_undefined() {
    use fieldscope::eval::literature::{evaluate, Metrics};
    // d1 is small; d2 holds 6 000 strings on both sides: 36 million ANLS*
    // pairs and 36 million Zhang–Shasha cells, over MAX_WORK, refused
    // before anything is allocated. Donut F1 is linear and still computed.
    let many: Vec<String> = (0..6000).map(|i| format!("\"v{i}\"")).collect();
    let big = format!("{{\"id\": \"d2\", \"tags\": [{}]}}", many.join(","));
    let truth = format!("{{\"id\": \"d1\", \"a\": \"x\"}}\n{big}\n");
    let pred = format!("{{\"id\": \"d1\", \"a\": \"x\"}}\n{big}\n");
    let (reports, warnings) = evaluate(
        docs("truth.jsonl", &truth),
        vec![("m".to_string(), docs("m.jsonl", &pred))],
        None,
        Metrics::ALL,
        true,
    )
    .unwrap();
    let lit = &reports[0];
    assert_eq!(lit.anls_star, Some(None));
    assert_eq!(lit.nted, Some(None));
    // 6 001 pairs, all found: F1 1.
    assert_eq!(lit.donut_f1, Some(Some(1.0)));
    let docs = lit.documents.as_ref().unwrap();
    assert_eq!(docs[0].anls_star, Some(Some(1.0)));
    assert_eq!(docs[0].nted, Some(Some(1.0)));
    assert_eq!(docs[1].anls_star, Some(None));
    assert_eq!(docs[1].nted, Some(None));
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].starts_with("m: document \"d2\" is too large for ANLS*"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[1].starts_with("m: document \"d2\" is too large for nTED"),
        "{}",
        warnings[1]
    );
}

#[test]
fn the_html_report_gains_a_section_only_when_asked() {
    let (code, html, err) = fieldscope(&["--metrics", "all", "--format", "html"]);
    assert_eq!(code, 0, "{err}");
    assert!(html.contains("<section id=\"literature\">\n<h2>Literature metrics</h2>"));
    assert!(
        html.contains("<a href=\"#literature\">"),
        "listed in the contents"
    );
    // careful's ANLS*, nTED and Donut F1 (the references' values, rounded),
    // the best of each column in bold.
    for cell in [
        "<strong>0.7935</strong>",
        "<strong>0.7919</strong>",
        "<strong>0.7077</strong>",
        "0.7463",
        "0.6931",
        "0.6571",
    ] {
        assert!(html.contains(cell), "{cell}");
    }
    let (_, plain, _) = fieldscope(&["--format", "html"]);
    assert!(!plain.contains("literature"));
}

#[test]
fn the_apps_job_on_the_built_in_example_equals_the_files_evaluated_directly() {
    use fieldscope::eval::literature::{evaluate, Metrics};
    use fieldscope::synth::{generate, SynthOptions};
    // The example's data (its truth has `vendor_country`).
    let mut options = SynthOptions::paradox(50, 19);
    options.vendor_country = true;
    let data = generate(&options);
    let truth = docs("truth.jsonl", &data.truth_jsonl);
    let models: Vec<_> = data
        .predictions
        .iter()
        .map(|(name, jsonl)| (name.clone(), docs(&format!("{name}.jsonl"), jsonl)))
        .collect();
    // nTED left out: it is the slow one in a debug build, and this checks
    // the plumbing (files, matching, order), not the metric.
    let metrics = Metrics {
        nted: false,
        ..Metrics::ALL
    };
    let (direct, _) = evaluate(truth, models, None, metrics, true).unwrap();
    let session = fieldscope::session::Session::example();
    let mut job = session.literature_job(metrics, true).unwrap();
    job.step(usize::MAX).unwrap();
    let (from_app, _) = job.finish();
    for ((name, lit), direct) in from_app.iter().zip(&direct) {
        let (a, b) = (
            lit.documents.as_ref().unwrap(),
            direct.documents.as_ref().unwrap(),
        );
        for (x, y) in a.iter().zip(b) {
            assert_eq!(x, y, "{name}");
        }
        assert_eq!(lit, direct, "{name}");
    }
}
