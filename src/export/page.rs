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
//! heatmap split so each chart fits a printed page, or for a wide report
//! the weakest fields' heatmap and one per group of fields; the confidence charts,
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
use crate::charts::{self, Chart, ChartOptions, PaperSize};
use crate::eval::groups::{self, DocTypes};
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
    /// With several schemas (SPEC §7.2): the document types, so that the
    /// per-field results are grouped and summarised by type
    /// (`eval::groups`); `None`: grouped by the paths' first segments.
    pub types: Option<DocTypes>,
}

impl Default for HtmlInclude {
    fn default() -> Self {
        HtmlInclude {
            charts: true,
            inputs: None,
            types: None,
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
///
/// A report of more than [`charts::HEATMAP_ROWS_PER_PART`] fields is
/// *wide*: its per-field heatmap shows only the weakest fields (the first
/// rows of the field matrix, `eval::groups`), and each group of fields has
/// its own heatmap in its collapsed section ([`group_charts`]).
pub fn report_charts(report: &Report) -> Vec<HtmlChart> {
    if report.models.is_empty() {
        return Vec::new();
    }
    with_weakest_fields(report, &chart_options(), charts::paged)
        .into_iter()
        .map(html_chart)
        .collect()
}

/// The report's charts as `narrow` draws them (`charts::paged` for the
/// HTML report, `charts::all` for the app's screen), except for a wide
/// report (`charts::is_wide`): its per-field heatmap is then its weakest
/// fields' (`charts::weakest_fields_heatmap`, the first rows of the field
/// matrix), in the place of one figure, or many parts, of every field.
pub fn with_weakest_fields(
    report: &Report,
    o: &ChartOptions,
    narrow: fn(&Report, &ChartOptions) -> Vec<Chart>,
) -> Vec<Chart> {
    let matrix = groups::field_matrix(report);
    if !charts::is_wide(matrix.len()) {
        return narrow(report, o);
    }
    let weakest = matrix.first_fields(charts::HEATMAP_ROWS_PER_PART);
    let heatmap = charts::weakest_fields_heatmap(report, o, &weakest, matrix.exact.len());
    charts::paged_with(report, o, heatmap.into_iter().collect())
}

/// The heatmaps of each group of a wide report's fields, in the groups'
/// order: the group's fields not exact for every model, in parts of at
/// most [`charts::HEATMAP_ROWS_PER_PART`] fields so that each fits a
/// printed page (none for a group whose fields are all exact); empty for
/// a report that is not wide.
pub fn group_charts(report: &Report, types: Option<&DocTypes>) -> Vec<Vec<HtmlChart>> {
    let matrix = groups::field_matrix(report);
    if report.models.is_empty() || !charts::is_wide(matrix.len()) {
        return Vec::new();
    }
    let o = chart_options();
    groups::groups(&matrix, types)
        .iter()
        .map(|g| {
            let names: Vec<&str> = g
                .rows
                .iter()
                .map(|&i| matrix.rows[i].field.as_str())
                .collect();
            let per = charts::HEATMAP_ROWS_PER_PART;
            let parts = names.len().div_ceil(per);
            names
                .chunks(per)
                .enumerate()
                .map(|(k, chunk)| {
                    let title = if parts == 1 {
                        g.name.clone()
                    } else {
                        format!(
                            "{}, fields {}–{} of {}",
                            g.name,
                            k * per + 1,
                            k * per + chunk.len(),
                            names.len()
                        )
                    };
                    html_chart(charts::field_f1_heatmap_of(
                        report,
                        &o,
                        chunk,
                        &title,
                        &format!(
                            "The fields of {} not exact for every model, in the field matrix's \
                             order.",
                            g.name
                        ),
                    ))
                })
                .collect()
        })
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
    let types = include.types.as_ref();
    let group_charts = if include.charts {
        group_charts(report, types)
    } else {
        Vec::new()
    };
    layout(&Parts {
        charts: &charts,
        inputs: inputs.as_ref(),
        confidence: confidence.as_ref(),
        errors: errors.as_ref(),
        types,
        group_charts: &group_charts,
    })
}
