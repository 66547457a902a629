//! The one HTML report of every entry point (`export::render_html`): the
//! browser app's export path and `fieldscope eval --format html` write the
//! same bytes for the same inputs and settings (charts, bootstrap
//! intervals, literature metrics and weighted table included); a report
//! with `--embed-inputs` re-opens in the app's session to the CLI's
//! numbers; nothing is embedded without the flag; the size limit; the
//! per-field heatmap split rather than shrunk.

use super::common::run_cli;
use fieldscope::charts::{self, HEATMAP_ROWS_PER_PART};
use fieldscope::eval::bootstrap::{Bootstrap, BootstrapOptions, ModelTallies};
use fieldscope::eval::literature::Metrics;
use fieldscope::eval::report::Report;
use fieldscope::eval::Config;
use fieldscope::export::{self, page, ExportOptions, Format, HtmlInclude, TextExport};
use fieldscope::session::{Layered, Role, Session};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A fresh folder under the system's temporary one.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fieldscope-html-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The app's built-in example with a metrics config (field weights, and
/// the example's own config's slicing, since the command line takes one
/// config: the example's `config.json` is removed), the preset
/// `not-found` chosen in the settings and a cost typed for `good`; its
/// files written to `dir` under the same names.
fn example_session(dir: &Path) -> Session {
    let mut s = Session::example();
    let own = s.files.iter().find(|f| f.name == "config.json").unwrap().id;
    s.remove(own);
    let weights = json!({"field_weights": {"total": 3, "vendor.name": 2},
        "slice_by": ["vendor_country"], "ignored_fields": ["vendor_country"]});
    let id = s.add_file("weights.json", weights.to_string().into_bytes());
    // (A config of field_weights alone is not recognised as one.)
    s.set_role(id, Role::Config);
    s.set_setting("preset", Some(json!("not-found")));
    let good = s.files.iter().find(|f| f.model == "good").unwrap().id;
    s.set_cost(good, Some(0.25));
    for f in &s.files {
        std::fs::write(dir.join(&f.name), f.bytes.as_slice()).unwrap();
    }
    s
}

/// The same inputs and settings on the command line.
fn example_args(dir: &Path) -> Vec<String> {
    let p = |name: &str| dir.join(name).display().to_string();
    let mut args = vec!["eval".to_string(), "--truth".into(), p("truth.jsonl")];
    for model in ["good", "conservative", "aggressive"] {
        args.extend(["--pred".into(), p(&format!("{model}.jsonl"))]);
    }
    args.extend([
        "--schema".into(),
        p("invoice.schema.json"),
        "--config".into(),
        p("weights.json"),
        "--preset".into(),
        "not-found".into(),
        "--cost".into(),
        "good=0.25".into(),
    ]);
    args
}

/// What the app's export panel sends its export worker after the
/// literature and uncertainty panels have run (`app/exports.rs`,
/// `app/literature.rs`, `app/uncertainty.rs`): the session's report with
/// the literature metrics (and their warnings) and the bootstrap computed
/// a slice at a time, and the session's bundle.
fn app_request(s: &mut Session) -> TextExport {
    let mut report: Report = s.evaluate().unwrap();
    let mut job = s.literature_job(Metrics::ALL, false).unwrap();
    while job.done() < job.total() {
        job.step(7).unwrap();
    }
    let (literature, warnings) = job.finish();
    for (m, (name, lit)) in report.models.iter_mut().zip(literature) {
        assert_eq!(m.name, name);
        m.literature = Some(lit);
    }
    report.warnings.extend(warnings);
    let config = report.config.clone();
    let models = report.models.iter().filter_map(ModelTallies::of).collect();
    let mut bootstrap = Bootstrap::new(models, &config, BootstrapOptions::default());
    while bootstrap.step(25) < BootstrapOptions::default().resamples {}
    report.bootstrap = Some(bootstrap.finish());
    let include = HtmlInclude {
        charts: true,
        inputs: Some(s.to_bundle()),
        types: None,
    };
    TextExport::new(Format::Html, &report, include)
}

#[test]
fn the_app_and_the_cli_write_the_same_html_report() {
    let dir = temp_dir("same");
    let mut session = example_session(&dir);
    session.compute_validity_now();
    // The export worker renders the request's JSON.
    let request = serde_json::to_string(&app_request(&mut session)).unwrap();
    let app = TextExport::render_json(&request).unwrap();

    let mut args = example_args(&dir);
    args.extend(
        [
            "--bootstrap",
            "--metrics",
            "all",
            "--embed-inputs",
            "--format",
            "html",
        ]
        .map(String::from),
    );
    let (code, cli, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    if app != cli {
        std::fs::write("/tmp/html-notes/app.html", &app).unwrap();
        std::fs::write("/tmp/html-notes/cli.html", &cli).unwrap();
    }
    assert!(app == cli, "the app's HTML report differs from the CLI's");

    // Everything the issue asks for is in it.
    for part in [
        "<section id=\"bootstrap\">",
        "<section id=\"literature\">",
        "<section id=\"weighted-fields\">",
        "<section id=\"charts\" class=\"major\">",
        "<template id=\"fieldscope-inputs\" data-encoding=\"zlib+base64\"",
        "<bdi>good.jsonl</bdi> (predictions of <bdi>good</bdi>)",
    ] {
        assert!(cli.contains(part), "{part}");
    }
    // Every chart the app shows, at the report's size: six for the example
    // (it has line items), each a 672 px wide inline SVG, checked.
    let figures = cli.matches("<figure id=\"chart-").count();
    assert_eq!(figures, 6);
    // And, since the example carries confidences (SPEC §8), three
    // reliability diagrams and the risk–coverage chart; and the error
    // types' chart (SPEC §9.1).
    assert_eq!(cli.matches("<svg width=\"672\"").count(), 11);
    assert!(!cli.contains("class=\"refused\""));
    // No chart text is below 8 pt at print size (the page prints a chart at
    // its own size: 672 px are narrower than a page's text).
    for svg in cli.split("<svg ").skip(1) {
        let svg = format!("<svg {}", &svg[..svg.find("</svg>").unwrap() + 6]);
        let sizes = font_sizes(&svg);
        assert!(sizes.iter().all(|&s| s >= 8.0 * 96.0 / 72.0), "{sizes:?}");
    }
    // The score chart has the bootstrap's error bars.
    assert!(cli.contains("Error bars: 95 % percentile bootstrap interval (1000 resamples"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without `--embed-inputs` (or the app's checkbox) nothing is embedded.
#[test]
fn nothing_is_embedded_without_the_flag() {
    let dir = temp_dir("plain");
    let mut session = example_session(&dir);
    let mut args = example_args(&dir);
    args.extend(["--format", "html"].map(String::from));
    let (code, plain, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    assert!(!plain.contains("<template"));
    assert!(!plain.contains("fieldscope-inputs"));
    assert!(!plain.contains("<dt>Inputs</dt>"));
    assert_eq!(plain.matches("<figure id=\"chart-").count(), 6);
    // The default page is `export::render`'s.
    let report = session.evaluate().unwrap();
    let default = export::render(&report, Format::Html, &ExportOptions::default());
    assert!(!default.contains("<template"));
    // --embed-inputs belongs to the HTML report only.
    let mut json = example_args(&dir);
    json.extend(["--embed-inputs"].map(String::from));
    let (code, _, err) = run_cli(&json);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --embed-inputs puts the inputs into the HTML report: use it with --format html\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The report is the bundle: dropped onto the app's session, it re-opens
/// the files, model names, costs and settings, and evaluates to the CLI's
/// JSON report.
#[test]
fn an_embedded_report_reopens_to_the_cli_numbers() {
    let dir = temp_dir("reopen");
    let original = example_session(&dir);
    let mut args = example_args(&dir);
    args.extend(["--embed-inputs", "--format", "html"].map(String::from));
    let (code, html, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    let mut json_args = example_args(&dir);
    json_args.extend(["--format", "json"].map(String::from));
    let (code, json, err) = run_cli(&json_args);
    assert_eq!(code, 0, "{err}");
    let cli: Value = serde_json::from_str(&json).unwrap();

    // A session with other files is replaced by the report's.
    let mut s = Session::example();
    s.load("fieldscope-report.html", html.into_bytes()).unwrap();
    let files: Vec<(&str, &str, &str, Option<f64>)> = s
        .files
        .iter()
        .map(|f| (f.name.as_str(), f.role.name(), f.model.as_str(), f.cost))
        .collect();
    assert_eq!(
        files,
        [
            ("truth.jsonl", "truth", "truth", None),
            ("good.jsonl", "predictions", "good", Some(0.25)),
            ("conservative.jsonl", "predictions", "conservative", None),
            ("aggressive.jsonl", "predictions", "aggressive", None),
            ("invoice.schema.json", "schema", "invoice.schema", None),
            ("weights.json", "config", "weights", None),
        ]
    );
    assert_eq!(s.settings, original.settings);
    for (a, b) in s.files.iter().zip(&original.files) {
        assert_eq!(a.bytes, b.bytes, "{}", a.name);
    }
    s.compute_validity_now();
    // As the JSON report has it (the confidence views are not SPEC's keys).
    let reopened = fieldscope::export::json::render(
        &s.evaluate_with(false).unwrap(),
        &fieldscope::export::ExportOptions::default(),
    );
    let mut reopened: Value = serde_json::from_str(&reopened).unwrap();
    // Only the warnings could differ: they name the files, the CLI's with
    // their folder. The example has none.
    assert_eq!(cli["warnings"], json!([]));
    reopened["warnings"] = cli["warnings"].clone();
    assert_eq!(reopened, cli);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_page_without_inputs_or_with_broken_ones_is_refused_clearly() {
    let mut s = Session::example();
    let report = s.evaluate().unwrap();
    let plain = export::render(&report, Format::Html, &ExportOptions::default());
    assert_eq!(
        s.load("report.html", plain.into_bytes()).unwrap_err(),
        "report.html: this HTML report has no inputs embedded (it was written without \
         --embed-inputs), so it cannot be re-opened; drop its input files instead"
    );
    let broken = "<html><body><template id=\"fieldscope-inputs\">@@@</template></body></html>";
    assert!(s
        .load("r.htm", broken.as_bytes().to_vec())
        .unwrap_err()
        .starts_with("r.htm: the embedded inputs are not base64"));
    // An embedded bundle that is not one says so too.
    let page = page::render(
        &report,
        &ExportOptions::default(),
        &HtmlInclude {
            charts: false,
            inputs: Some("{\"fieldscope_bundle\": 1}".into()),
            types: None,
        },
    );
    assert_eq!(
        s.load("x.html", page.into_bytes()).unwrap_err(),
        "x.html: the bundle has no `files` list"
    );
    // The session was left as it was (the example's five files and its
    // config).
    assert_eq!(s.files.len(), 6);
}

#[test]
fn more_than_50_mb_of_inputs_is_refused_before_reading() {
    let dir = temp_dir("big");
    let _session = example_session(&dir);
    // A sparse file: 50 MB of predictions and one byte more.
    let big = dir.join("big.jsonl");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(50_000_001 - std::fs::metadata(dir.join("truth.jsonl")).unwrap().len())
        .unwrap();
    let args = [
        "eval",
        "--truth",
        &dir.join("truth.jsonl").display().to_string(),
        "--pred",
        &big.display().to_string(),
        "--format",
        "html",
        "--embed-inputs",
    ]
    .map(String::from);
    let (code, out, err) = run_cli(&args);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: --embed-inputs: the inputs total 50.0 MB, and an HTML report embeds at most \
         50 MB of inputs; leave the flag out and share the input files instead\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A report of `fields` fields for two models.
fn many_fields(fields: usize) -> Report {
    let mut truth = serde_json::Map::new();
    truth.insert("id".into(), json!("a"));
    for i in 0..fields {
        truth.insert(format!("field_{i:03}"), json!(format!("value {i}")));
    }
    let truth = vec![Value::Object(truth.clone())];
    let mut half = truth[0].clone();
    for i in (0..fields).step_by(2) {
        half[format!("field_{i:03}")] = json!("wrong");
    }
    super::common::run(
        truth.clone(),
        vec![("same", truth), ("half", vec![half])],
        None,
        &Config::default(),
    )
}

/// The font sizes (px) an SVG uses.
fn font_sizes(svg: &str) -> Vec<f64> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter_map(|n| n.attribute("font-size"))
        .map(|s| s.trim_end_matches("px").parse::<f64>().unwrap())
        .collect()
}

#[test]
fn the_heatmap_of_many_fields_is_split_not_shrunk() {
    let o = page::chart_options();
    // 8 pt at 96 px per inch.
    let eight_pt = 8.0 * 96.0 / 72.0;
    let few = many_fields(HEATMAP_ROWS_PER_PART);
    let one = charts::field_f1_heatmaps(&few, &o, HEATMAP_ROWS_PER_PART);
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].svg, charts::field_f1_heatmap(&few, &o).svg);

    let report = many_fields(75);
    let parts = charts::field_f1_heatmaps(&report, &o, HEATMAP_ROWS_PER_PART);
    let titles: Vec<&str> = parts.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "F1 per field and model (fields 1–25 of 75)",
            "F1 per field and model (fields 26–50 of 75)",
            "F1 per field and model (fields 51–75 of 75)",
        ]
    );
    assert!(parts[1]
        .caption
        .starts_with("Part 2 of 3 (fields in name order). Strict F1"));
    let whole = charts::field_f1_heatmap(&report, &o);
    for part in &parts {
        // Every part fits a printed page (Letter's text is 950 px high;
        // the caption takes the rest) at the page's width.
        assert!(
            part.height_px <= 820,
            "{}: {} px",
            part.title,
            part.height_px
        );
        assert_eq!(part.width_px, 672);
        // The text is as large as in the unsplit chart, and never below
        // 8 pt.
        let sizes = font_sizes(&part.svg);
        assert!(!sizes.is_empty());
        assert!(sizes.iter().all(|&s| s >= eight_pt), "{sizes:?}");
        assert_eq!(
            sizes.iter().copied().fold(f64::INFINITY, f64::min),
            font_sizes(&whole.svg)
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min)
        );
    }
    // The first part's rows are the first 25 fields, the last's the last.
    assert!(parts[0].svg.contains("field_000") && parts[0].svg.contains("field_024"));
    assert!(!parts[0].svg.contains("field_025"));
    assert!(parts[2].svg.contains("field_074") && !parts[2].svg.contains("field_049"));
    // The HTML report of this wide report (issue 34): among the charts, the
    // heatmap of the 30 weakest fields (the 38 even fields `half` gets
    // wrong come first; the 37 odd ones are exact for both and folded), the
    // other charts once each; in the one group's collapsed section, its 38
    // fields not exact for every model in parts of 30 and 8. Each title is
    // in the SVG's <title> and in the caption.
    let html = export::render(&report, Format::Html, &ExportOptions::default());
    assert_eq!(
        html.matches("F1 per field and model (the 30 weakest fields)")
            .count(),
        2
    );
    assert_eq!(html.matches("F1 per field and model (fields ").count(), 0);
    assert_eq!(html.matches("<figure id=\"chart-").count(), 4 + 1);
    assert_eq!(
        html.matches("F1 per field and model (Top-level fields, fields 1–30 of 38)")
            .count(),
        2
    );
    assert_eq!(
        html.matches("F1 per field and model (Top-level fields, fields 31–38 of 38)")
            .count(),
        2
    );
    assert_eq!(html.matches("<figure id=\"group-1-heatmap-").count(), 2);
}

/// The app's charts (issue 34): up to one heatmap part of fields, the
/// same as `charts::all`; wider, the heatmap of the weakest fields (the
/// 30 even fields `half` gets wrong first, in the matrix's order; the
/// exact odd ones left out) in the place of one figure of every field.
#[test]
fn on_screen_a_wide_reports_heatmap_is_its_weakest_fields_too() {
    let o = page::chart_options();
    let few = many_fields(HEATMAP_ROWS_PER_PART);
    let svgs = |charts: Vec<charts::Chart>| charts.into_iter().map(|c| c.svg).collect::<Vec<_>>();
    assert_eq!(
        svgs(page::with_weakest_fields(&few, &o, charts::all)),
        svgs(charts::all(&few, &o))
    );

    let wide = many_fields(75);
    let shown = page::with_weakest_fields(&wide, &o, charts::all);
    let all = charts::all(&wide, &o);
    assert_eq!(shown.len(), all.len());
    let titles: Vec<&str> = shown.iter().map(|c| c.title.as_str()).collect();
    assert!(
        titles.contains(&"F1 per field and model (the 30 weakest fields)"),
        "{titles:?}"
    );
    let heatmap = shown.iter().find(|c| c.id == "field_f1_heatmap").unwrap();
    for i in (0..60).step_by(2) {
        assert!(
            heatmap.svg.contains(&format!("field_{i:03}")),
            "field_{i:03}"
        );
    }
    assert!(!heatmap.svg.contains("field_060") && !heatmap.svg.contains("field_001"));
    // The other charts are `all`'s.
    for (a, b) in shown
        .iter()
        .zip(&all)
        .filter(|(a, _)| a.id != "field_f1_heatmap")
    {
        assert_eq!(a.svg, b.svg, "{}", a.id);
    }
}
