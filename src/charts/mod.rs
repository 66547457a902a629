//! Charts for papers: a [`Report`] rendered as standalone SVG figures.
//!
//! Owns: the figures of a report — scores per model ([`metric_bars`]),
//! outcome shares ([`outcome_distribution`]), per-field F1
//! ([`field_f1_heatmap`]), value counts ([`pred_vs_truth`]), CER per field
//! ([`cer_distribution`]) and line-item scores ([`item_metrics`]) — each
//! with a title and a caption that says exactly which metric and which
//! average it shows.
//!
//! Three steps, each in its own module:
//!
//! 1. [`data`] — report → plain structs of labels and values (pure);
//! 2. [`layout`] — data → pixel geometry, labels shortened to fit (pure);
//! 3. `draw` — geometry → plotters elements on any `DrawingBackend`,
//!    rendered to a string with plotters' `SVGBackend::with_string`.
//!
//! A threshold sweep ([`crate::eval::sweep::SweepReport`]) is drawn as a
//! line chart ([`sweep`], [`sweep_charts`]; data and layout in [`lines`]).
//! Confidences (SPEC §8) give a reliability diagram per model
//! ([`reliability_diagram`]) and the risk–coverage curves of all models
//! ([`risk_coverage`]; data and layout in [`confidence`]); they are not in
//! [`all`]: the HTML report and `fieldscope figures` ask for them.
//!
//! Depends on: `crate::eval::report` (and `crate::eval::sweep`'s result
//! structs) and plotters (SVG backend only, no
//! font files) — no web types, no I/O. The app and the HTML report call
//! these functions and decide where the SVG goes.
//!
//! Look: white background, Okabe–Ito colours ordered so that series also
//! differ in lightness (readable in greyscale), axes labelled with their
//! range, a legend on every chart with more than one series, values printed
//! on bars and in cells. Sizes are in CSS pixels (96 per inch): a single
//! column is 317 px (3.3 in) wide, a full-width figure 672 px (7 in); fonts
//! follow [`ChartOptions::font_pt`].
//!
//! Untrusted text: model and field names are sanitised (control, bidi and
//! zero-width characters removed) and XML-escaped (by plotters' SVG
//! backend); long names are shortened with "…".
//!
//! ```
//! use fieldscope::charts::{self, ChartOptions};
//! use fieldscope::{eval, io};
//! let truth = io::parse_records("t.jsonl", br#"{"id":"a","total":10}"#).unwrap();
//! let pred = io::parse_records("m.jsonl", br#"{"id":"a","total":10}"#).unwrap();
//! let input = eval::EvalInput { truth, models: vec![eval::ModelInput::new("m", pred)], schema: None, schemas: Vec::new() };
//! let report = eval::evaluate(&input, &eval::Config::default(), false).unwrap();
//! let chart = charts::metric_bars(&report, &ChartOptions::default());
//! assert!(chart.svg.starts_with("<svg width=\"672\""));
//! assert_eq!(chart.width_px, 672);
//! ```

pub mod confidence;
pub mod data;
mod draw;
pub mod layout;
pub mod lines;
mod options;
pub mod style;
pub mod text;

use crate::eval::report::Report;
use crate::eval::sweep::{SweepParam, SweepReport};
use lines::SweepMetric;
use style::Metrics;

pub use options::{Average, ChartOptions, PaperSize};

/// One rendered chart.
#[derive(Clone, Debug)]
pub struct Chart {
    /// Stable identifier, e.g. `"metric_bars"` (file names, `data-testid`).
    pub id: &'static str,
    /// A short title (also the SVG's `<title>`).
    pub title: String,
    /// A caption for a paper: the metric, the average, the matching rule.
    pub caption: String,
    /// A standalone SVG document (`xmlns`, `width`, `height`, `viewBox`).
    pub svg: String,
    pub width_px: u32,
    pub height_px: u32,
}

fn chart(id: &'static str, words: data::Words, width: u32, height: u32, svg: String) -> Chart {
    Chart {
        id,
        title: words.title,
        caption: words.caption,
        svg,
        width_px: width.max(1),
        height_px: height.max(1),
    }
}

fn bar_chart(id: &'static str, bars: &data::Bars, words: data::Words, m: &Metrics) -> Chart {
    let l = layout::bars(bars, m);
    let svg = draw::svg(l.width, l.height, &words.title, |area| {
        draw::bars(area, &l, m)
    });
    chart(id, words, l.width, l.height, svg)
}

/// Grouped bars of precision, recall, F1 and accuracy per model under
/// `o.average`, values printed at the bar ends.
pub fn metric_bars(report: &Report, o: &ChartOptions) -> Chart {
    let m = Metrics::new(o);
    let bars = data::metric_bars(report, o.average);
    bar_chart(
        "metric_bars",
        &bars,
        data::metric_words(report, o.average),
        &m,
    )
}

/// One stacked bar per model: the shares of exact, partial, incorrect,
/// missed, spurious and true-negative outcomes, dark to light, with
/// percentages on segments wide enough and the number of pairs at the end.
pub fn outcome_distribution(report: &Report, o: &ChartOptions) -> Chart {
    let m = Metrics::new(o);
    let words = data::outcome_words(report);
    let l = layout::stacked(&data::outcome_distribution(report), &m);
    let svg = draw::svg(l.width, l.height, &words.title, |area| {
        draw::stacked(area, &l, &m)
    });
    chart("outcome_distribution", words, l.width, l.height, svg)
}

/// One stacked bar per model: its errors (SPEC §9.1) by type, as shares
/// of all its errors, with percentages on segments wide enough and the
/// number of errors at the end.
pub fn error_types(report: &Report, o: &ChartOptions) -> Chart {
    let m = Metrics::new(o);
    let words = data::error_words(report);
    let l = layout::stacked_in(&data::error_types(report), &m, &style::ERRORS);
    let svg = draw::svg(l.width, l.height, &words.title, |area| {
        draw::stacked(area, &l, &m)
    });
    chart("error_types", words, l.width, l.height, svg)
}

/// Fields (rows) × models (columns), each cell the field's strict F1 with
/// its value printed to two decimals; the chart grows with the fields.
pub fn field_f1_heatmap(report: &Report, o: &ChartOptions) -> Chart {
    let m = Metrics::new(o);
    let words = data::heatmap_words(report);
    let l = layout::heatmap(&data::field_f1_heatmap(report), &m);
    let svg = draw::svg(l.width, l.height, &words.title, |area| {
        draw::heatmap(area, &l, &m)
    });
    chart("field_f1_heatmap", words, l.width, l.height, svg)
}

/// [`field_f1_heatmap`] of the fields `names` only, in that order, with
/// `title` and `caption` said before the heatmap's own caption (the wide
/// HTML report's weakest fields and its groups' heatmaps).
pub fn field_f1_heatmap_of(
    report: &Report,
    o: &ChartOptions,
    names: &[&str],
    title: &str,
    caption: &str,
) -> Chart {
    let m = Metrics::new(o);
    let mut words = data::heatmap_words(report);
    words.title = format!("{} ({title})", words.title);
    words.caption = format!("{caption} {}", words.caption);
    let l = layout::heatmap(&data::field_f1_heatmap_of(report, names), &m);
    let svg = draw::svg(l.width, l.height, &words.title, |area| {
        draw::heatmap(area, &l, &m)
    });
    chart("field_f1_heatmap", words, l.width, l.height, svg)
}

/// The most fields one part of [`field_f1_heatmaps`] shows in a report
/// meant for print ([`paged`]): 30 rows of 1.6 lines at 10 pt, the column
/// headers and the colour scale come to at most about 820 px, so a part
/// with its caption fits one printed page (Letter or A4) without shrinking
/// any text.
pub const HEATMAP_ROWS_PER_PART: usize = 30;

/// [`field_f1_heatmap`] in parts of at most `rows` fields each, as even as
/// possible (31 fields: 16 and 15), the fields in the report's order; one
/// chart, the same as [`field_f1_heatmap`]'s, when they all fit. Each
/// part's title and caption say which fields it shows. Text keeps its size
/// in every part: a long list is split, never shrunk.
pub fn field_f1_heatmaps(report: &Report, o: &ChartOptions, rows: usize) -> Vec<Chart> {
    let data = data::field_f1_heatmap(report);
    let total = data.rows.len();
    let parts = total.div_ceil(rows.max(1)).max(1);
    if parts == 1 {
        return vec![field_f1_heatmap(report, o)];
    }
    let m = Metrics::new(o);
    let per = total.div_ceil(parts);
    (0..parts)
        .map(|part| {
            let range = part * per..((part + 1) * per).min(total);
            let slice = data::Heatmap {
                rows: data.rows[range.clone()].to_vec(),
                columns: data.columns.clone(),
                cells: data.cells[range.clone()].to_vec(),
                scale_label: data.scale_label.clone(),
            };
            let mut words = data::heatmap_words(report);
            words.title = format!(
                "{} (fields {}–{} of {total})",
                words.title,
                range.start + 1,
                range.end
            );
            words.caption = format!(
                "Part {} of {parts} (fields in name order). {}",
                part + 1,
                words.caption
            );
            let l = layout::heatmap(&slice, &m);
            let svg = draw::svg(l.width, l.height, &words.title, |area| {
                draw::heatmap(area, &l, &m)
            });
            chart("field_f1_heatmap", words, l.width, l.height, svg)
        })
        .collect()
}

/// |Truth|, |Pred| and M_total per model as grouped bars.
pub fn pred_vs_truth(report: &Report, o: &ChartOptions) -> Chart {
    let m = Metrics::new(o);
    bar_chart(
        "pred_vs_truth",
        &data::pred_vs_truth(report),
        data::pred_vs_truth_words(report),
        &m,
    )
}

/// Per model, the pooled CER of every field that has one (dots) and the
/// model's CER (a diamond, its value printed at the right); with
/// `string_match.method = "cer"` the threshold as a dashed line.
pub fn cer_distribution(report: &Report, o: &ChartOptions) -> Chart {
    let m = Metrics::new(o);
    let words = data::cer_words(report);
    let l = layout::strips(&data::cer_distribution(report), &m);
    let svg = draw::svg(l.width, l.height, &words.title, |area| {
        draw::strips(area, &l, &m)
    });
    chart("cer_distribution", words, l.width, l.height, svg)
}

/// Item precision, recall, F1, count accuracy and count match rate per
/// model; `None` when no model has line items.
pub fn item_metrics(report: &Report, o: &ChartOptions) -> Option<Chart> {
    let m = Metrics::new(o);
    let bars = data::item_metrics(report)?;
    Some(bar_chart(
        "item_metrics",
        &bars,
        data::item_words(report),
        &m,
    ))
}

/// Every chart that applies, in the order above.
pub fn all(report: &Report, o: &ChartOptions) -> Vec<Chart> {
    let mut charts = vec![
        metric_bars(report, o),
        outcome_distribution(report, o),
        field_f1_heatmap(report, o),
        pred_vs_truth(report, o),
        cer_distribution(report, o),
    ];
    charts.extend(item_metrics(report, o));
    charts
}

/// Whether a report of `fields` fields is *wide*: more than one heatmap
/// part shows ([`HEATMAP_ROWS_PER_PART`]).
pub fn is_wide(fields: usize) -> bool {
    fields > HEATMAP_ROWS_PER_PART
}

/// A wide report's per-field heatmap: its `weakest` fields (the first
/// [`HEATMAP_ROWS_PER_PART`] rows of its field matrix, `eval::groups`:
/// where the models disagree most or all fall short), in that order,
/// saying that `exact` fields, exact for every model, are left out;
/// `None` without weakest fields.
pub fn weakest_fields_heatmap(
    report: &Report,
    o: &ChartOptions,
    weakest: &[&str],
    exact: usize,
) -> Option<Chart> {
    (!weakest.is_empty()).then(|| {
        field_f1_heatmap_of(
            report,
            o,
            weakest,
            &format!("the {} weakest fields", weakest.len()),
            &format!(
                "The {} fields that matter most, in the field matrix's order (where the \
                 models disagree most or all fall short, see Per-field results); the {} \
                 fields exact for every model are left out, and each group's heatmap is in \
                 its section under Per-field results.",
                weakest.len(),
                exact
            ),
        )
    })
}

/// Every chart of [`all`] for a page that may be printed (the HTML
/// report): the per-field heatmap split into parts of at most
/// [`HEATMAP_ROWS_PER_PART`] fields ([`field_f1_heatmaps`]), so that each
/// chart fits a printed page at its own text size.
pub fn paged(report: &Report, o: &ChartOptions) -> Vec<Chart> {
    paged_with(
        report,
        o,
        field_f1_heatmaps(report, o, HEATMAP_ROWS_PER_PART),
    )
}

/// [`paged`] with `heatmaps` in the place of the per-field heatmap's parts
/// (the wide HTML report: the weakest fields' heatmap).
pub fn paged_with(report: &Report, o: &ChartOptions, heatmaps: Vec<Chart>) -> Vec<Chart> {
    let mut charts = vec![metric_bars(report, o), outcome_distribution(report, o)];
    charts.extend(heatmaps);
    charts.push(pred_vs_truth(report, o));
    charts.push(cer_distribution(report, o));
    charts.extend(item_metrics(report, o));
    charts
}

/// The reliability diagram of the report's model `index` (SPEC §8.3):
/// accuracy per confidence bin against the diagonal of perfect
/// calibration, each bin's count above its bar, the ECE in the title;
/// `None` when that model has no confidences.
pub fn reliability_diagram(report: &Report, index: usize, o: &ChartOptions) -> Option<Chart> {
    confidence::reliability(report, index).map(|data| reliability_chart(&data, o))
}

/// [`reliability_diagram`] of every model with confidences, in report
/// order, each with the model's position in the report.
pub fn reliability_diagrams(report: &Report, o: &ChartOptions) -> Vec<(usize, Chart)> {
    confidence::reliabilities(report)
        .iter()
        .map(|data| (data.model, reliability_chart(data, o)))
        .collect()
}

fn reliability_chart(data: &confidence::Reliability, o: &ChartOptions) -> Chart {
    let m = Metrics::new(o);
    let l = confidence::reliability_layout(data, &m);
    let svg = draw::svg(l.width, l.height, &data.words.title, |area| {
        draw::reliability(area, &l, &m)
    });
    chart(
        "reliability_diagram",
        data.words.clone(),
        l.width,
        l.height,
        svg,
    )
}

/// The risk–coverage curves of every model with confidences on one chart
/// (SPEC §8.3, step lines, coverage 0–1 against risk); `None` when no
/// model has confidences.
pub fn risk_coverage(report: &Report, o: &ChartOptions) -> Option<Chart> {
    let m = Metrics::new(o);
    let data = confidence::risk_coverage(report)?;
    let l = confidence::risk_coverage_layout(&data, &m);
    let svg = draw::svg(l.width, l.height, &data.words.title, |area| {
        draw::risk_coverage(area, &l, &m)
    });
    Some(chart("risk_coverage", data.words, l.width, l.height, svg))
}

/// A threshold sweep as a line chart: `metric` per model against the
/// threshold, one line per model (colour, marker and dash all differ), a
/// dashed vertical line at the configured threshold.
pub fn sweep(sweep: &SweepReport, metric: SweepMetric, o: &ChartOptions) -> Chart {
    let m = Metrics::new(o);
    let data = lines::sweep_lines(sweep, metric);
    let l = lines::layout(&data, &m);
    let svg = draw::svg(l.width, l.height, &data.title, |area| {
        draw::lines(area, &l, &m)
    });
    Chart {
        id: sweep_id(sweep.param, metric),
        title: data.title,
        caption: data.caption,
        svg,
        width_px: l.width.max(1),
        height_px: l.height.max(1),
    }
}

/// The charts of a sweep for a paper: micro F1 and micro accuracy for the
/// similarity and CER thresholds; item F1 and item-count accuracy for the
/// item threshold (field scores do not depend on it), or none when no
/// model has line items.
pub fn sweep_charts(s: &SweepReport, o: &ChartOptions) -> Vec<Chart> {
    let metrics = match s.param {
        SweepParam::Similarity | SweepParam::Cer => {
            [SweepMetric::MicroF1, SweepMetric::MicroAccuracy]
        }
        SweepParam::Item => {
            let any = s
                .models
                .iter()
                .flat_map(|m| &m.points)
                .any(|p| p.item_f1.is_some());
            if !any {
                return Vec::new();
            }
            [SweepMetric::ItemF1, SweepMetric::ItemCountAccuracy]
        }
    };
    metrics.iter().map(|&metric| sweep(s, metric, o)).collect()
}

/// `"sweep_<param>_<metric>"`.
fn sweep_id(param: SweepParam, metric: SweepMetric) -> &'static str {
    use SweepMetric as M;
    use SweepParam as P;
    match (param, metric) {
        (P::Similarity, M::MicroF1) => "sweep_similarity_micro_f1",
        (P::Similarity, M::MicroAccuracy) => "sweep_similarity_micro_accuracy",
        (P::Similarity, M::MacroDocumentsF1) => "sweep_similarity_macro_documents_f1",
        (P::Similarity, M::ItemF1) => "sweep_similarity_item_f1",
        (P::Similarity, M::ItemCountAccuracy) => "sweep_similarity_item_count_accuracy",
        (P::Cer, M::MicroF1) => "sweep_cer_micro_f1",
        (P::Cer, M::MicroAccuracy) => "sweep_cer_micro_accuracy",
        (P::Cer, M::MacroDocumentsF1) => "sweep_cer_macro_documents_f1",
        (P::Cer, M::ItemF1) => "sweep_cer_item_f1",
        (P::Cer, M::ItemCountAccuracy) => "sweep_cer_item_count_accuracy",
        (P::Item, M::MicroF1) => "sweep_item_micro_f1",
        (P::Item, M::MicroAccuracy) => "sweep_item_micro_accuracy",
        (P::Item, M::MacroDocumentsF1) => "sweep_item_macro_documents_f1",
        (P::Item, M::ItemF1) => "sweep_item_item_f1",
        (P::Item, M::ItemCountAccuracy) => "sweep_item_item_count_accuracy",
    }
}
