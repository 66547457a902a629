//! The HTML report as every entry point writes it: `fieldscope eval
//! --format html`, the browser app's "HTML report" export (rendered by its
//! export worker from a [`super::TextExport`]) and anything else that
//! shares a report (the Python package's `to_html()`) call [`render`]
//! with the report, the export options and what to include
//! ([`HtmlInclude`]); the callers only gather those. The same three give
//! the same bytes wherever they are rendered.
//!
//! Owns: which charts the report shows and how they are drawn
//! ([`chart_options`]: full width at [`CHART_FONT_PT`], the per-field
//! heatmap split so each chart fits a printed page; the confidence charts,
//! [`confidence_charts`], and the error types' chart (SPEC §9.1) in their
//! own sections), and turning the
//! inputs to embed into the page's inert data ([`super::embed`]). What the
//! report's tables show follows from the report itself: the bootstrap
//! table when it has `bootstrap`, the literature table when its models have
//! `literature`, the weighted table when its configuration has
//! `field_weights`. The layout is [`super::html`]'s.
//!
//! Depends on: `crate::eval::report`, `crate::charts` (pure: report → SVG
//! strings), [`super::html`], [`super::embed`]. No I/O.

use super::html::{self, ConfidenceCharts, HtmlChart, Parts};
use super::ExportOptions;
use crate::charts::{self, ChartOptions, PaperSize};
use crate::eval::report::Report;

/// Text size of the report's charts (axis titles, labels, legends), in
/// points: tick labels and heatmap values are 90 % of it (9 pt), values
/// printed on bars 83 % (8.3 pt). The page prints a chart at its own size
/// (672 px = 7 in, narrower than a Letter or A4 page's text), so no chart
/// text is below 8 pt on paper. (Figures for papers, `fieldscope figures`,
/// stay at 8.5 pt.)
pub const CHART_FONT_PT: f64 = 10.0;

/// What the HTML report includes besides the report's own tables. The
/// default: the charts, no inputs.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct HtmlInclude {
    /// Every chart of the report (`charts::paged`), inline SVG.
    pub charts: bool,
    /// A report bundle's JSON (`session::Session::to_bundle`: the input
    /// files with their roles, model names and costs, and the settings) to
    /// embed, so that dropping the report onto the app re-opens the
    /// evaluation; `None`: nothing is embedded. The caller checks the
    /// inputs' size first (`embed::check_size`).
    pub inputs: Option<String>,
}

impl Default for HtmlInclude {
    fn default() -> Self {
        HtmlInclude {
            charts: true,
            inputs: None,
        }
    }
}

/// How the report's charts are drawn: the score chart macro-averaged over
/// documents (the report's first table), full width, [`CHART_FONT_PT`].
pub fn chart_options() -> ChartOptions {
    ChartOptions {
        size: PaperSize::FullWidth,
        font_pt: CHART_FONT_PT,
        ..ChartOptions::default()
    }
}

/// The report's charts as the page inlines them (none for a report without
/// models: there would be nothing to draw).
pub fn report_charts(report: &Report) -> Vec<HtmlChart> {
    if report.models.is_empty() {
        return Vec::new();
    }
    charts::paged(report, &chart_options())
        .into_iter()
        .map(html_chart)
        .collect()
}

fn html_chart(c: charts::Chart) -> HtmlChart {
    HtmlChart {
        title: c.title,
        caption: c.caption,
        svg: c.svg,
    }
}

/// The charts of the report's "Confidence" section (SPEC §8): the
/// risk–coverage curves of every model with confidences and a reliability
/// diagram per such model, drawn as the other charts are; `None` when no
/// model has confidences.
pub fn confidence_charts(report: &Report) -> Option<ConfidenceCharts> {
    let o = chart_options();
    let risk_coverage = charts::risk_coverage(report, &o)?;
    Some(ConfidenceCharts {
        risk_coverage: Some(html_chart(risk_coverage)),
        reliability: charts::reliability_diagrams(report, &o)
            .into_iter()
            .map(|(model, c)| (model, html_chart(c)))
            .collect(),
    })
}

/// The HTML report: one self-contained page (see [`super::html`]) with
/// what `include` asks for.
pub fn render(report: &Report, options: &ExportOptions, include: &HtmlInclude) -> String {
    with_parts(report, include, |parts| {
        html::render(report, options, parts)
    })
}

/// The HTML report as a fragment for someone else's page (a notebook's
/// output): the page's sections and charts inside one
/// `<div class="fieldscope-report">` whose style applies only inside it
/// (see [`super::fragment`]); inputs are never embedded in it.
pub fn render_fragment(report: &Report, options: &ExportOptions, include: &HtmlInclude) -> String {
    with_parts(report, include, |parts| {
        super::fragment::render(report, options, parts)
    })
}

/// Gathers what `include` asks for and lays it out with `layout`.
fn with_parts(
    report: &Report,
    include: &HtmlInclude,
    layout: impl FnOnce(&Parts) -> String,
) -> String {
    let charts = if include.charts {
        report_charts(report)
    } else {
        Vec::new()
    };
    let confidence = include.charts.then(|| confidence_charts(report)).flatten();
    let errors = (include.charts && !report.models.is_empty())
        .then(|| html_chart(charts::error_types(report, &chart_options())));
    let inputs = include.inputs.as_deref().map(html::Inputs::new);
    layout(&Parts {
        charts: &charts,
        inputs: inputs.as_ref(),
        confidence: confidence.as_ref(),
        errors: errors.as_ref(),
    })
}
