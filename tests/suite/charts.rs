//! Charts: every SVG is well-formed XML of the promised size, shows the
//! report's numbers, labels its axes and legends, keeps hostile names inert,
//! and survives empty reports.
//!
//! `FIELDSCOPE_CHART_DIR=/tmp/charts cargo test charts` also writes the
//! charts of a synthetic three-model report there, to look at.

use super::common::{close, run};
use fieldscope::charts::{self, data, Average, Chart, ChartOptions, PaperSize};
use fieldscope::eval::config::{
    Config, IncorrectCountsAs, MacroF1, MatchMethod, Preset, StringMatch,
};
use fieldscope::eval::report::{
    Counts, FieldAverage, FieldReport, ItemsReport, ModelReport, PartialScores, Rates, Report,
    Scores,
};
use fieldscope::{eval, io, synth};
use serde_json::json;
use std::collections::BTreeMap;

fn counts(exact: u64, partial: u64, incorrect: u64, missed: u64, spurious: u64, tn: u64) -> Counts {
    Counts {
        exact,
        partial,
        incorrect,
        missed,
        spurious,
        true_negative: tn,
    }
}

fn field(name: &str, c: Counts, f1: f64, cer: Option<f64>) -> FieldReport {
    FieldReport {
        field: name.to_string(),
        counts: c,
        errors: super::exporters::errors_of(c),
        precision: f1,
        recall: f1,
        f1,
        accuracy: f1,
        cer,
        mean_cer: cer,
    }
}

fn model(name: &str, fields: Vec<FieldReport>, items: Option<ItemsReport>) -> ModelReport {
    let c = counts(7, 1, 1, 1, 2, 3);
    ModelReport {
        name: name.to_string(),
        cost: None,
        counts: c,
        errors: super::exporters::errors_of(c),
        truth_count: 10,
        pred_count: 11,
        m_total: 7.5,
        micro: Scores {
            precision: 0.7,
            recall: 0.636,
            f1: 0.6667,
            accuracy: 0.6,
        },
        macro_documents: Scores {
            precision: 0.81,
            recall: 0.42,
            f1: 0.553,
            accuracy: 0.93,
        },
        macro_fields: FieldAverage {
            precision: 0.25,
            recall: 0.5,
            f1: 0.3333,
            accuracy: 0.75,
            fields_left_out: 0,
        },
        weighted_fields: None,
        partial: PartialScores {
            precision: 0.68,
            recall: 0.75,
            f1: 0.71,
        },
        rates: Rates::from_pairs([
            ("hallucination_rate".to_string(), 0.4),
            ("abstention_rate".to_string(), 0.1),
        ]),
        numeric_precision: None,
        field_f1_partial: 0.71,
        schema_validity_rate: 1.0,
        exact_match_rate: 0.5,
        document_extraction_score: 0.8,
        cer: Some(0.125),
        fields,
        sets: BTreeMap::new(),
        items,
        confidence: None,
        document_details: None,
        literature: None,
        document_tallies: None,
        exact_if_valid: None,
    }
}

fn report(models: Vec<ModelReport>) -> Report {
    Report {
        fieldscope_report: 1,
        suspected_truth_errors: Vec::new(),
        suggestions: Vec::new(),
        config: Config::default(),
        warnings: Vec::new(),
        documents: 4,
        models,
        bootstrap: None,
        comparison: None,
        slices: None,
    }
}

fn items() -> ItemsReport {
    ItemsReport {
        precision: 0.9,
        recall: 0.6,
        f1: 0.72,
        item_count_accuracy: 0.5,
        item_count_match_rate: 0.75,
        recognised: 6,
        truth_items: 10,
        pred_items: 7,
    }
}

/// Two models, three fields, one with only true negatives.
fn sample() -> Report {
    report(vec![
        model(
            "alpha",
            vec![
                field("date", counts(3, 0, 1, 0, 0, 0), 0.857_142_857, Some(0.1)),
                field("empty", counts(0, 0, 0, 0, 0, 4), 0.0, None),
                field("total", counts(2, 0, 0, 2, 0, 0), 0.666_666_667, Some(0.5)),
            ],
            Some(items()),
        ),
        model(
            "beta",
            vec![
                field("date", counts(4, 0, 0, 0, 0, 0), 1.0, Some(0.0)),
                field("total", counts(1, 0, 2, 1, 0, 0), 0.333_333_333, Some(1.4)),
            ],
            None,
        ),
    ])
}

/// Parses the SVG and checks the root element.
#[track_caller]
fn parse(chart: &Chart) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(&chart.svg)
        .unwrap_or_else(|e| panic!("{} is not well-formed XML: {e}\n{}", chart.id, chart.svg));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert_eq!(
        root.attribute("width"),
        Some(chart.width_px.to_string().as_str())
    );
    assert_eq!(
        root.attribute("height"),
        Some(chart.height_px.to_string().as_str())
    );
    assert_eq!(
        root.attribute("viewBox"),
        Some(format!("0 0 {} {}", chart.width_px, chart.height_px).as_str())
    );
    doc
}

/// The text content of every `<text>` element, trimmed.
fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

fn options(size: PaperSize, average: Average) -> ChartOptions {
    ChartOptions {
        average,
        size,
        ..ChartOptions::default()
    }
}

#[test]
fn every_chart_is_well_formed_svg_of_the_paper_width() {
    let r = sample();
    for (size, w) in [(PaperSize::SingleColumn, 317), (PaperSize::FullWidth, 672)] {
        let all = charts::all(&r, &options(size, Average::Micro));
        let ids: Vec<&str> = all.iter().map(|c| c.id).collect();
        assert_eq!(
            ids,
            [
                "metric_bars",
                "outcome_distribution",
                "field_f1_heatmap",
                "pred_vs_truth",
                "cer_distribution",
                "item_metrics"
            ]
        );
        for chart in &all {
            assert_eq!(chart.width_px, w, "{}", chart.id);
            assert!(
                chart.height_px > 60 && chart.height_px < 1000,
                "{}",
                chart.id
            );
            let doc = parse(chart);
            let title = doc
                .root_element()
                .children()
                .find(|n| n.has_tag_name("title"))
                .and_then(|n| n.text());
            assert_eq!(title, Some(chart.title.as_str()));
            assert!(!chart.caption.is_empty());
        }
    }
}

#[test]
fn metric_bars_show_the_scores_of_the_chosen_average() {
    let r = sample();
    for (average, expected, word) in [
        (Average::Micro, [0.7, 0.636, 0.6667, 0.6], "micro-averaged"),
        (
            Average::MacroDocuments,
            [0.81, 0.42, 0.553, 0.93],
            "macro-averaged over documents",
        ),
        (
            Average::MacroFields,
            [0.25, 0.5, 0.3333, 0.75],
            "macro-averaged over fields",
        ),
    ] {
        let d = data::metric_bars(&r, average);
        assert_eq!(d.series, ["Precision", "Recall", "F1", "Accuracy"]);
        assert_eq!(d.groups.len(), 2);
        assert_eq!(d.groups[0].label, "alpha");
        assert_eq!(d.groups[0].values, expected);
        assert_eq!((d.axis.min, d.axis.max), (0.0, 1.0));

        let chart = charts::metric_bars(&r, &options(PaperSize::FullWidth, average));
        assert!(chart.caption.contains(word), "{}", chart.caption);
        assert!(chart.caption.contains("Strict matching"));
        let doc = parse(&chart);
        let t = texts(&doc);
        for label in [
            "Precision",
            "Recall",
            "F1",
            "Accuracy",
            "Score (0–1)",
            "alpha",
            "beta",
            "0.0",
            "1.0",
        ] {
            assert!(t.iter().any(|s| s == label), "{label} missing from {t:?}");
        }
        for v in expected {
            let printed = format!("{v:.2}");
            assert!(t.contains(&printed), "{printed} missing from {t:?}");
        }
    }
}

#[test]
fn metric_bar_lengths_in_the_svg_are_proportional_to_the_scores() {
    let mut r = sample();
    r.models[1].macro_documents.f1 = 0.2765;
    let chart = charts::metric_bars(&r, &options(PaperSize::FullWidth, Average::MacroDocuments));
    let doc = parse(&chart);
    // F1 is the third series, drawn black: the legend swatch, then one bar
    // per model.
    let black: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#000000"))
        .map(|n| n.attribute("width").unwrap().parse::<f64>().unwrap())
        .collect();
    assert_eq!(black.len(), 3, "{black:?}");
    let l = charts::layout::bars(
        &data::metric_bars(&r, Average::MacroDocuments),
        &charts::style::Metrics::new(&ChartOptions::default()),
    );
    let full = l.axis.x1 - l.axis.x0;
    assert!(
        (black[1] - 0.553 * full).abs() <= 1.0,
        "{} vs {}",
        black[1],
        0.553 * full
    );
    assert!(
        (black[2] - 0.2765 * full).abs() <= 1.0,
        "{} vs {}",
        black[2],
        0.2765 * full
    );
}

#[test]
fn macro_f1_wording_follows_the_config() {
    let mut r = sample();
    let o = options(PaperSize::FullWidth, Average::MacroDocuments);
    assert!(charts::metric_bars(&r, &o)
        .caption
        .contains("F1 = harmonic mean of macro P and R"));
    r.config.macro_f1 = MacroF1::Mean;
    assert!(charts::metric_bars(&r, &o)
        .caption
        .contains("F1 = mean of per-document F1"));
    r.config.incorrect_counts_as = IncorrectCountsAs::FpOnly;
    assert!(charts::metric_bars(&r, &o)
        .caption
        .contains("false positives only"));
}

#[test]
fn heatmap_cells_print_the_per_field_f1_to_two_decimals() {
    let r = sample();
    let d = data::field_f1_heatmap(&r);
    assert_eq!(d.rows, ["date", "empty", "total"]);
    assert_eq!(d.columns, ["alpha", "beta"]);
    let cell_texts: Vec<Vec<&str>> = d
        .cells
        .iter()
        .map(|row| row.iter().map(|c| c.text.as_str()).collect())
        .collect();
    // beta has no "empty" field at all; alpha's has only true negatives.
    assert_eq!(
        cell_texts,
        [
            vec!["0.86", "1.00"],
            vec!["n/a", "n/a"],
            vec!["0.67", "0.33"]
        ]
    );
    assert_eq!(d.cells[0][0].value, Some(0.857_142_857));
    assert_eq!(d.cells[1][0].value, None);

    let chart = charts::field_f1_heatmap(&r, &ChartOptions::default());
    let t = texts(&parse(&chart));
    for s in [
        "0.86",
        "1.00",
        "n/a",
        "0.67",
        "0.33",
        "date",
        "total",
        "alpha",
        "beta",
        "F1 per field (0–1)",
    ] {
        assert!(t.iter().any(|x| x == s), "{s} missing from {t:?}");
    }
}

#[test]
fn heatmap_grows_with_the_fields() {
    let many: Vec<FieldReport> = (0..40)
        .map(|i| {
            field(
                &format!("field_{i:02}"),
                counts(1, 0, 0, 0, 0, 0),
                1.0,
                None,
            )
        })
        .collect();
    let few = charts::field_f1_heatmap(
        &report(vec![model("m", many[..5].to_vec(), None)]),
        &ChartOptions::default(),
    );
    let lots = charts::field_f1_heatmap(
        &report(vec![model("m", many, None)]),
        &ChartOptions::default(),
    );
    assert!(
        lots.height_px > few.height_px + 35 * 15,
        "{} vs {}",
        lots.height_px,
        few.height_px
    );
    parse(&lots);
}

#[test]
fn outcome_distribution_shares_sum_to_one_and_keep_the_counts() {
    let r = sample();
    let d = data::outcome_distribution(&r);
    assert_eq!(
        d.categories,
        [
            "exact",
            "partial",
            "incorrect",
            "missed",
            "spurious",
            "true negative"
        ]
    );
    let row = &d.rows[0];
    assert_eq!(row.counts, [7, 1, 1, 1, 2, 3]);
    assert_eq!(row.total, 15);
    close(row.shares[0], 7.0 / 15.0);
    close(row.shares.iter().sum::<f64>(), 1.0);

    let chart = charts::outcome_distribution(&r, &ChartOptions::default());
    let t = texts(&parse(&chart));
    for s in ["exact", "true negative", "n = 15", "47%"] {
        assert!(t.iter().any(|x| x == s), "{s} missing from {t:?}");
    }
    assert!(chart.caption.contains("averaging option does not apply"));
}

#[test]
fn pred_vs_truth_shows_the_counts_and_m_total() {
    let r = sample();
    let d = data::pred_vs_truth(&r);
    assert_eq!(d.series, ["|Truth|", "|Pred|", "M_total"]);
    assert_eq!(d.groups[0].values, [10.0, 11.0, 7.5]);
    assert!(d.axis.max >= 11.0);
    let t = texts(&parse(&charts::pred_vs_truth(&r, &ChartOptions::default())));
    for s in [
        "|Truth|",
        "|Pred|",
        "M_total",
        "10",
        "11",
        "7.5",
        "Number of field values",
    ] {
        assert!(t.iter().any(|x| x == s), "{s} missing from {t:?}");
    }
}

#[test]
fn cer_distribution_has_a_point_per_field_with_a_cer_and_marks_the_model_cer() {
    let mut r = sample();
    let d = data::cer_distribution(&r);
    let points: Vec<f64> = d.rows[0].points.iter().map(|p| p.1).collect();
    assert_eq!(points, [0.1, 0.5]); // "empty" has no CER
    assert_eq!(d.rows[0].marker, Some(0.125));
    assert!(d.axis.max >= 1.4, "a CER above 1 stays on the axis");
    assert!(d.threshold.is_none());

    r.config.string_match = StringMatch {
        method: MatchMethod::Cer,
        cer_threshold: 0.15,
    };
    let chart = charts::cer_distribution(&r, &ChartOptions::default());
    assert!(chart.caption.contains("CER ≤ 0.15"));
    let doc = parse(&chart);
    let t = texts(&doc);
    for s in ["field CER", "model CER", "match threshold (0.15)", "0.125"] {
        assert!(t.iter().any(|x| x == s), "{s} missing from {t:?}");
    }
    let dots = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .count();
    assert_eq!(dots, 4 + 1, "four field CERs and the legend dot");
}

#[test]
fn item_metrics_is_none_without_items_and_notes_models_without_them() {
    let r = sample();
    let d = data::item_metrics(&r).expect("alpha has items");
    assert_eq!(d.groups[0].values, [0.9, 0.6, 0.72, 0.5, 0.75]);
    assert_eq!(d.groups[1].note.as_deref(), Some("no line items"));
    let chart = charts::item_metrics(&r, &ChartOptions::default()).unwrap();
    let t = texts(&parse(&chart));
    assert!(t.iter().any(|x| x == "no line items"));
    assert!(t.iter().any(|x| x == "Item F1"));

    let without = report(vec![model("m", vec![], None)]);
    assert!(charts::item_metrics(&without, &ChartOptions::default()).is_none());
    assert_eq!(charts::all(&without, &ChartOptions::default()).len(), 5);
}

#[test]
fn hostile_names_are_escaped_sanitised_and_inert() {
    let evil = "<script>alert('x')</script> & \"q\" \u{202E}evil\u{0007}\u{0000}";
    let r = report(vec![
        model(
            evil,
            vec![field(evil, counts(1, 0, 0, 0, 0, 0), 1.0, Some(0.0))],
            Some(items()),
        ),
        model("ok", vec![], None),
    ]);
    let all = charts::all(&r, &options(PaperSize::FullWidth, Average::Micro));
    write_if_asked("hostile", &all);
    for chart in all {
        let doc = parse(&chart);
        assert!(
            !doc.descendants().any(|n| n.has_tag_name("script")),
            "{}: a script element",
            chart.id
        );
        assert!(!chart.svg.contains("<script"), "{}", chart.id);
        assert!(!chart.svg.contains('\u{202E}'), "{}", chart.id);
        assert!(!chart.svg.contains('\u{0007}'), "{}", chart.id);
        let t = texts(&doc);
        // The name is there, escaped in the source and intact (up to the
        // removed controls, maybe shortened) in the parsed text.
        assert!(
            t.iter().any(|s| s.starts_with("<script>alert")),
            "{}: {t:?}",
            chart.id
        );
        assert!(chart.svg.contains("&lt;script&gt;"), "{}", chart.id);
        // Every element is one plotters or we write.
        for n in doc.descendants().filter(|n| n.is_element()) {
            assert!(
                ["svg", "title", "rect", "line", "polyline", "polygon", "circle", "text"]
                    .contains(&n.tag_name().name()),
                "{}: unexpected <{}>",
                chart.id,
                n.tag_name().name()
            );
            for a in n.attributes() {
                assert!(
                    !a.name().starts_with("on"),
                    "{}: {} attribute",
                    chart.id,
                    a.name()
                );
            }
        }
    }
}

#[test]
fn long_names_are_shortened_with_an_ellipsis() {
    let long = "an-extraordinarily-long-model-name-from-a-sweep-with-many-hyperparameters-v2";
    let r = report(vec![model(
        long,
        vec![field(long, counts(1, 0, 0, 0, 0, 0), 1.0, None)],
        None,
    )]);
    let o = options(PaperSize::SingleColumn, Average::Micro);
    for chart in charts::all(&r, &o) {
        let t = texts(&parse(&chart));
        assert!(!t.iter().any(|s| s == long), "{}: full name", chart.id);
        assert!(
            t.iter().any(|s| s.starts_with("an-") && s.contains('…')),
            "{}: {t:?}",
            chart.id
        );
    }
}

#[test]
fn an_empty_report_and_a_model_without_fields_do_not_panic() {
    let empty = report(vec![]);
    for size in [PaperSize::SingleColumn, PaperSize::FullWidth] {
        let all = charts::all(&empty, &options(size, Average::MacroFields));
        assert_eq!(all.len(), 5, "no item chart without models");
        write_if_asked(&format!("empty_{size:?}"), &all);
        for chart in &all {
            let t = texts(&parse(chart));
            assert!(
                t.iter().any(|s| s == "No models in the report"),
                "{}: {t:?}",
                chart.id
            );
        }
    }
    let mut bare = model("solo", vec![], None);
    bare.counts = Counts::default();
    bare.cer = None;
    let one = report(vec![bare]);
    let all = charts::all(&one, &ChartOptions::default());
    write_if_asked("bare", &all);
    for chart in &all {
        parse(chart);
    }
    let heat = charts::field_f1_heatmap(&one, &ChartOptions::default());
    assert!(texts(&parse(&heat))
        .iter()
        .any(|s| s == "No fields in the report"));
    let cer = charts::cer_distribution(&one, &ChartOptions::default());
    assert!(texts(&parse(&cer))
        .iter()
        .any(|s| s == "no CER (no truth text)"));
}

#[test]
fn odd_numbers_and_font_sizes_do_not_break_the_svg() {
    let mut m = model(
        "m",
        vec![field(
            "f",
            counts(1, 0, 0, 0, 0, 0),
            f64::NAN,
            Some(f64::INFINITY),
        )],
        None,
    );
    m.micro.precision = f64::NAN;
    m.micro.recall = -0.5;
    m.micro.f1 = 7.0;
    m.m_total = f64::INFINITY;
    let r = report(vec![m]);
    for font_pt in [0.0, 3.0, 30.0, f64::NAN] {
        let o = ChartOptions {
            font_pt,
            average: Average::Micro,
            ..ChartOptions::default()
        };
        for chart in charts::all(&r, &o) {
            parse(&chart);
        }
    }
}

#[test]
fn an_evaluated_report_charts_end_to_end() {
    let r = run(
        vec![
            json!({"id": "a", "name": "ACME Corp", "total": 10, "items": [{"sku": "x", "qty": 1}]}),
            json!({"id": "b", "name": "Globex", "total": 20, "items": []}),
        ],
        vec![
            (
                "m1",
                vec![
                    json!({"id": "a", "name": "ACME Corp.", "total": 10, "items": [{"sku": "x", "qty": 1}]}),
                    json!({"id": "b", "name": "Initech", "total": 21}),
                ],
            ),
            ("m2", vec![json!({"id": "a", "name": "ACME", "total": 10})]),
        ],
        None,
        &Config::preset(Preset::InvoiceCer),
    );
    let all = charts::all(&r, &ChartOptions::default());
    assert_eq!(all.len(), 6);
    for chart in &all {
        parse(chart);
    }
    let heat = data::field_f1_heatmap(&r);
    for (i, name) in heat.rows.iter().enumerate() {
        for (j, m) in r.models.iter().enumerate() {
            let f = m.fields.iter().find(|f| &f.field == name).unwrap();
            let cell = &heat.cells[i][j];
            if cell.value.is_some() {
                assert_eq!(cell.text, format!("{:.2}", f.f1));
            }
        }
    }
    write_if_asked("end_to_end", &all);
}

/// Writes the charts of a synthetic report (and `extra`) to
/// `FIELDSCOPE_CHART_DIR` when it is set.
fn write_if_asked(prefix: &str, extra: &[Chart]) {
    let Some(dir) = std::env::var_os("FIELDSCOPE_CHART_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    for c in extra {
        std::fs::write(dir.join(format!("{prefix}_{}.svg", c.id)), &c.svg).unwrap();
    }
}

#[test]
fn synthetic_report_charts_for_looking_at() {
    let data = synth::generate(&synth::SynthOptions {
        documents: 40,
        ..synth::SynthOptions::default()
    });
    let truth = io::parse_records("truth.jsonl", data.truth_jsonl.as_bytes()).unwrap();
    let models = data
        .predictions
        .iter()
        .map(|(name, jsonl)| {
            eval::ModelInput::new(name, io::parse_records(name, jsonl.as_bytes()).unwrap())
        })
        .collect();
    let input = eval::EvalInput {
        truth,
        models,
        schema: None,
        schemas: Vec::new(),
    };
    let r = eval::evaluate(&input, &Config::preset(Preset::InvoiceCer), false).unwrap();
    for (tag, size) in [
        ("full", PaperSize::FullWidth),
        ("single", PaperSize::SingleColumn),
    ] {
        let all = charts::all(&r, &options(size, Average::MacroDocuments));
        assert_eq!(all.len(), 6);
        for chart in &all {
            parse(chart);
        }
        write_if_asked(&format!("synth_{tag}"), &all);
    }
}

#[test]
fn score_bars_carry_bootstrap_error_bars() {
    use fieldscope::eval::bootstrap::{bootstrap_report, BootstrapOptions};
    use fieldscope::eval::{evaluate, Config, EvalInput, ModelInput};
    use fieldscope::io::parse_records;
    // Two models over six documents; the intervals come from the bootstrap.
    let truth: String = (0..6)
        .map(|i| format!("{{\"id\": \"{i}\", \"a\": \"x{i}\", \"b\": \"y\"}}\n"))
        .collect();
    let good = truth.clone();
    let half: String = (0..6)
        .map(|i| {
            format!(
                "{{\"id\": \"{i}\", \"a\": \"{}\", \"b\": \"y\"}}\n",
                if i % 2 == 0 {
                    format!("x{i}")
                } else {
                    "zzz".into()
                }
            )
        })
        .collect();
    let input = EvalInput {
        truth: parse_records("t.jsonl", truth.as_bytes()).unwrap(),
        models: vec![
            ModelInput::new("good", parse_records("g.jsonl", good.as_bytes()).unwrap()),
            ModelInput::new("half", parse_records("h.jsonl", half.as_bytes()).unwrap()),
        ],
        schema: None,
        schemas: Vec::new(),
    };
    let config = Config::default();
    let mut report = evaluate(&input, &config, true).unwrap();
    report.bootstrap = Some(bootstrap_report(
        &report,
        &config,
        BootstrapOptions::default(),
    ));
    let b = report.bootstrap.clone().unwrap();
    let bars = data::metric_bars(&report, Average::Micro);
    // One interval per bar, the bootstrap's.
    assert_eq!(bars.intervals.len(), 2);
    let f1 = b.models[1].get("micro.f1").unwrap();
    assert_eq!(bars.intervals[1][2], (f1.low, f1.high));
    assert!(f1.low < f1.high, "{f1:?}");
    // The good model is right everywhere: a zero-width interval at 1.
    assert_eq!(bars.intervals[0][2], (1.0, 1.0));
    // The macro average over fields is resampled too.
    let mf = b.models[1].get("macro_fields.f1").unwrap();
    assert_eq!(
        data::metric_bars(&report, Average::MacroFields).intervals[1][2],
        (mf.low, mf.high)
    );
    let chart = charts::metric_bars(&report, &options(PaperSize::FullWidth, Average::Micro));
    assert!(
        chart.caption.contains(
            "Error bars: 95 % percentile bootstrap interval (1000 resamples of the 6 documents)."
        ),
        "{}",
        chart.caption
    );
    roxmltree::Document::parse(&chart.svg).unwrap();
    // Without a bootstrap: no error bars, no such caption.
    report.bootstrap = None;
    let plain = charts::metric_bars(&report, &options(PaperSize::FullWidth, Average::Micro));
    assert!(!plain.caption.contains("Error bars"));
    assert!(
        plain.svg.len() < chart.svg.len(),
        "the error bars add lines"
    );
}
