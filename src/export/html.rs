//! HTML export: the whole report as one self-contained static HTML5 page,
//! for sharing with people who will open it in a browser or print it.
//!
//! Owns: the HTML layout — summary, warnings, the suggestions when there
//! are some (`super::suggestions`), the model comparison table
//! (macro over documents), the micro table with the hallucination and
//! abstention rates, the accuracy-paradox explanation when accuracy and F1
//! rank the models differently, the literature's metrics when the report
//! carries them, macro over fields, the document-level
//! scores, the per-field results overview first (the by-type table, the
//! field matrix, the groups: `super::wide`; each model's table collapsed), set fields, line items, "Where
//! it fails" (SPEC §9.1: the error-type tables of `super::errors` and their
//! chart when given), the confidence section when a model has confidences (SPEC §8: the tables of
//! `super::confidence`, with the charts of [`ConfidenceCharts`] when
//! given), the bootstrap intervals when the report has them, the charts it is given,
//! the definitions of every metric, the effective configuration and, when
//! given, the embedded inputs ([`Inputs`]) — and [`escape`], the one
//! escaper for untrusted text, and the check that refuses an SVG that could
//! run or load anything.
//!
//! [`render`] lays out what it is given; `super::page::render` (the one
//! function every entry point calls) decides what that is.
//!
//! What the page never holds: a script, an event handler, or anything that
//! loads from elsewhere (fonts, images, style sheets, links). Its own
//! `Content-Security-Policy` says so too (`default-src 'none'`), so a
//! browser would refuse a script even if one slipped in. The style is
//! inline, light on screen and black on white in print (page breaks before
//! the per-field tables, the charts and the definitions; tables are kept on
//! one page where they fit; each chart stays on one page with its
//! caption).
//!
//! The markup is also well-formed XML (every element closed, attributes
//! quoted, no named entities but the XML ones), so the tests parse it with
//! an XML parser; inlined SVG is checked to keep that true.
//!
//! Numbers are printed by `Number::format` (in `mod.rs`), as in the
//! Markdown and LaTeX exports, and never escaped. The output carries no
//! date, so the same report always renders to the same bytes.
//!
//! Depends on: `crate::eval::report`, and `super::embed` for the inputs.

use super::{
    best_of, bootstrap_caption, bootstrap_table, convention_clause, documents_phrase, json_number,
    literature_columns, literature_sentence, Best, ExportOptions, MacroF1, Number,
};
pub use crate::escape::html as escape;
use crate::eval::config::MatchMethod;
use crate::eval::rates::{Rate, HALLUCINATION_RATE, RATES};
use crate::eval::report::{Counts, ModelReport, Report};
use serde_json::Value;

/// A chart to inline in the report: an SVG document drawn elsewhere (the
/// charts module), with the title and caption shown under it. All three
/// are treated as untrusted: the title and caption are escaped, and an SVG
/// that fails [`check_svg`] is replaced by a note saying why.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HtmlChart {
    /// Short title, shown in bold at the start of the caption.
    pub title: String,
    /// What the chart shows and how to read it.
    pub caption: String,
    /// One `<svg>` element (an XML declaration or doctype before it is
    /// dropped).
    pub svg: String,
}

/// The optional parts of the page beyond the report's own tables, made by
/// `super::page::render`. A new optional section (say, a comparison with
/// another report) is one more field here and one `push_…` call in
/// [`render`], where marked.
#[derive(Debug, Default, Clone, Copy)]
pub struct Parts<'a> {
    /// The charts, in their own section (left out when empty).
    pub charts: &'a [HtmlChart],
    /// Inputs and settings to embed (nothing embedded when `None`).
    pub inputs: Option<&'a Inputs>,
    /// The charts of the "Confidence" section (SPEC §8; the section's
    /// tables are shown whenever a model has confidences, these only when
    /// given).
    pub confidence: Option<&'a ConfidenceCharts>,
    /// The stacked bar chart of error types per model in the "Where it
    /// fails" section (SPEC §9.1; the section's tables are always shown).
    pub errors: Option<&'a HtmlChart>,
    /// The document types (several schemas): the per-field results are
    /// grouped by type, with the "By document type" table (`super::wide`).
    pub types: Option<&'a crate::eval::groups::DocTypes>,
    /// A wide report's heatmaps of each group of fields, in the groups'
    /// order (`super::page::group_charts`); empty otherwise.
    pub group_charts: &'a [Vec<HtmlChart>],
}

/// The charts of the "Confidence" section, made by `super::page`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfidenceCharts {
    /// Every model's risk–coverage curve on one chart.
    pub risk_coverage: Option<HtmlChart>,
    /// (the model's position in the report, its reliability diagram), in
    /// report order; models without confidences have none.
    pub reliability: Vec<(usize, HtmlChart)>,
}

/// Inputs embedded in the page: the files it lists in the summary and the
/// report bundle itself, in an inert element (`super::embed`).
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// (name, role, model) of each file, as the bundle says.
    files: Vec<(String, String, String)>,
    /// The `<template>` element holding the bundle.
    element: String,
}

impl Inputs {
    /// The inputs of `bundle` (a bundle's JSON, `session::Session::to_bundle`).
    pub fn new(bundle: &str) -> Inputs {
        #[derive(serde::Deserialize)]
        struct Head {
            files: Vec<FileHead>,
        }
        #[derive(serde::Deserialize)]
        struct FileHead {
            name: String,
            #[serde(default)]
            role: String,
            #[serde(default)]
            model: String,
        }
        let files = serde_json::from_str::<Head>(bundle)
            .map(|head| {
                head.files
                    .into_iter()
                    .map(|f| (f.name, f.role, f.model))
                    .collect()
            })
            .unwrap_or_default();
        Inputs {
            files,
            element: super::embed::element(bundle),
        }
    }

    /// The summary's words: each file with its role (and model name),
    /// then how to re-open it: in the app of the "App" line when the
    /// config names `app_url`, else how to get the app.
    fn describe(&self, app_url: Option<&str>) -> String {
        let files: Vec<String> = self
            .files
            .iter()
            .map(|(name, role, model)| match role.as_str() {
                "predictions" => format!("{} (predictions of {})", bdi(name), bdi(model)),
                _ => format!("{} ({})", bdi(name), escape(role)),
            })
            .collect();
        let reopen = match app_url {
            Some(_) => {
                "Drop this file onto the fieldscope app (the App line) to re-open the \
                        evaluation."
            }
            None => GET_THE_APP,
        };
        format!(
            "embedded in this page with the settings ({}). {reopen}",
            if files.is_empty() {
                "a report bundle".to_string()
            } else {
                files.join(", ")
            }
        )
    }
}

/// How to re-open embedded inputs when the report names no app
/// (`app_url`): the app is static files anyone can build and host.
const GET_THE_APP: &str = "Drop this file onto the fieldscope app to re-open the evaluation \
     (the app is a folder of static files: <code>trunk build --release</code> in fieldscope's \
     repository writes it to <code>dist/</code> for any static host; see \
     <code>docs/browser-app.md</code>).";

/// A link to the app at `url`, escaped as an attribute and as text; only
/// the text when `url` is not an http or https address
/// (`config::check_app_url`: a report read back from JSON was never
/// checked).
fn app_link(url: &str) -> String {
    let text = escape(url);
    if crate::eval::config::check_app_url(url).is_err() {
        return text;
    }
    format!("<a href=\"{text}\" rel=\"noopener noreferrer\">{text}</a>")
}

/// The summary's "App" row when the config names `app_url`: where the app
/// is and how to re-open this report there.
fn app_row(url: &str, inputs: bool) -> String {
    let how = if inputs {
        "open it and drop this file onto its page to re-open the evaluation with its inputs \
         and settings."
    } else {
        "the inputs are not embedded in this page; write the report with \
         <code>--embed-inputs</code> (or open the input files there) to re-open the evaluation."
    };
    format!("<dt>App</dt><dd id=\"app\">{}: {how}</dd>\n", app_link(url))
}

/// Tables with more rows than this may break across printed pages (between
/// rows, the header repeated); shorter ones are kept on one page.
const LONG_TABLE: usize = 20;

/// What a missing value (`null`: not applicable) reads as.
const NONE: &str = "—";

/// The page's style: light on screen whatever the system theme, black on
/// white in print. No `<` or `&` in it, so the page stays well-formed XML.
pub(crate) const STYLE: &str = r#"
:root { color-scheme: light; --ink: #1b1f24; --muted: #4f5863; --rule: #d5dae0; --head: #f1f4f7; --accent: #1d4f91; --warn: #fff6dc; --warn-rule: #c98f00; }
* { box-sizing: border-box; }
html { background: #ffffff; }
body { margin: 0 auto; max-width: 76rem; padding: 2rem 1.5rem 4rem; color: var(--ink); background: #ffffff; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 2rem; margin: 0 0 0.75rem; letter-spacing: -0.01em; }
h2 { font-size: 1.35rem; margin: 2.5rem 0 0.75rem; padding-bottom: 0.3rem; border-bottom: 2px solid var(--rule); }
h3 { font-size: 1.05rem; margin: 1.75rem 0 0.4rem; }
p, li { max-width: 52rem; overflow-wrap: break-word; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
a { color: var(--accent); }
dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1.25rem; margin: 0 0 1rem; }
dl.summary dt { font-weight: 600; color: var(--muted); }
dl.summary dd { margin: 0; }
nav.contents { margin: 1rem 0 0; padding: 0.6rem 1rem; background: var(--head); border-radius: 4px; font-size: 0.9rem; }
nav.contents ol { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
section.warnings { background: var(--warn); border-left: 4px solid var(--warn-rule); padding: 0.25rem 1rem 0.5rem; margin-top: 1.5rem; }
section.warnings h2 { border: 0; margin-top: 0.75rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.25rem 0 1.5rem; min-width: min(100%, 44rem); font-variant-numeric: tabular-nums; }
caption { caption-side: top; text-align: left; color: var(--muted); font-size: 0.88rem; padding: 0 0 0.5rem; max-width: 60rem; }
th, td { padding: 0.3rem 0.65rem; border-bottom: 1px solid var(--rule); vertical-align: top; }
thead th { background: var(--head); border-bottom: 2px solid #9aa4ae; font-weight: 600; text-align: right; white-space: nowrap; }
thead th:first-child { text-align: left; }
tbody th { text-align: left; font-weight: 600; max-width: 24rem; overflow-wrap: break-word; }
td { text-align: right; white-space: nowrap; }
table.wide th, table.wide td { padding: 0.3rem 0.45rem; }
table.intervals td { white-space: normal; min-width: 6.5em; }
td strong { font-weight: 700; }
table.text td { text-align: left; white-space: normal; }
table.text thead th { text-align: left; }
table.defs { table-layout: fixed; width: 100%; }
table.defs thead th:nth-child(1) { width: 22%; }
table.defs thead th:nth-child(2) { width: 36%; }
table.defs td.formula { color: #0f2f57; }
.paradox { border-left: 4px solid var(--accent); padding: 0.1rem 1rem; margin-bottom: 1.25rem; background: #f5f8fc; }
figure { margin: 1.5rem 0; }
figure svg { display: block; max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 0.88rem; margin-top: 0.4rem; max-width: 60rem; }
.refused { border: 1px dashed var(--warn-rule); padding: 0.75rem 1rem; }
footer { margin-top: 3rem; color: var(--muted); font-size: 0.8rem; }
table.matrix { width: 100%; min-width: 0; table-layout: fixed; }
table.matrix.many { width: auto; table-layout: auto; }
table.matrix thead th { white-space: normal; overflow-wrap: anywhere; }
table.matrix thead th:first-child { width: 30%; }
table.matrix tbody th { max-width: none; overflow-wrap: anywhere; font-weight: 500; }
table.matrix td small { color: var(--muted); }
p.folded { color: var(--muted); }
details.group, details.model { border: 1px solid var(--rule); border-radius: 4px; padding: 0.35rem 0.8rem; margin: 0.4rem 0; }
details > summary { cursor: pointer; }
details > summary .name { font-weight: 600; }
details > summary small { color: var(--muted); margin-left: 0.5rem; }
details.folded p { max-width: none; font-size: 0.88rem; color: var(--muted); }
@page { margin: 14mm 12mm; }
@media print {
  :root { --ink: #000000; --muted: #000000; --rule: #999999; --head: #ffffff; --accent: #000000; --warn: #ffffff; --warn-rule: #000000; }
  html, body { background: #ffffff; color: #000000; }
  body { max-width: none; padding: 0; font-size: 9pt; }
  nav.contents { display: none; }
  section.major { break-before: page; }
  h2, h3, caption { break-after: avoid; }
  table, figure, .paradox, .refused { break-inside: avoid; page-break-inside: avoid; }
  figure { margin: 0 0 1rem; }
  figcaption { break-before: avoid; }
  table.long { break-inside: auto; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  .scroll { overflow: visible; }
  th, td { padding: 0.15rem 0.4rem; }
  thead th { white-space: normal; }
  thead th { border-bottom: 1.5px solid #000000; }
  section.warnings, .paradox { border: 1px solid #000000; background: #ffffff; }
  a { color: #000000; text-decoration: none; }
  table.defs td.formula { color: #000000; }
  details::details-content { content-visibility: visible; display: block; }
  details { border: 0; padding: 0; }
}
"#;

/// The report as one HTML5 document (also well-formed XML), with the
/// charts of `parts` inlined in their own section (left out when there are
/// none) and its inputs embedded. Ends with a newline.
pub fn render(report: &Report, options: &ExportOptions, parts: &Parts) -> String {
    let mut out = String::with_capacity(32 * 1024);
    out.push_str("<!DOCTYPE html>\n");
    out.push_str("<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n");
    out.push_str("<meta charset=\"utf-8\" />\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; img-src data:\" />\n",
    );
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light\" />\n");
    out.push_str("<title>fieldscope report</title>\n<style>");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n");
    push_body(&mut out, report, options, parts);
    if let Some(inputs) = parts.inputs {
        out.push_str(&inputs.element);
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// What the page's `<body>` shows, the embedded inputs aside: every
/// section and the footer. Also the content of `super::fragment`'s
/// notebook display.
pub(crate) fn push_body(out: &mut String, report: &Report, options: &ExportOptions, parts: &Parts) {
    let charts = parts.charts;
    push_summary(out, report, options, parts);
    push_warnings(out, report);
    super::suggestions::push_html(out, report);
    push_comparison(out, report, options);
    push_micro(out, report, options);
    push_paradox(out, report, options);
    push_bootstrap(out, report, options);
    push_literature(out, report, options);
    push_macro_fields(out, report, options);
    push_weighted_fields(out, report, options);
    push_document_scores(out, report, options);
    push_fields(out, report, options, parts);
    push_sets(out, report, options);
    push_items(out, report, options);
    push_errors(out, report, options, parts.errors);
    push_confidence(out, report, options, parts.confidence);
    super::comparison::push_html(out, report);
    super::audit::push_html(out, report, options);
    push_charts(out, charts);
    // Optional sections of `Parts` go here (each also in `section_list`).
    push_definitions(out, report);
    push_configuration(out, report);

    out.push_str(&format!(
        "<footer>Written by fieldscope {}. Every number is defined in the Definitions section \
         and in SPEC.md.</footer>\n",
        env!("CARGO_PKG_VERSION")
    ));
}

// ---------------------------------------------------------------------------
// Sections

/// The sections, in page order: (id, heading). The contents list links to
/// them.
fn section_list(
    report: &Report,
    options: &ExportOptions,
    parts: &Parts,
) -> Vec<(&'static str, &'static str)> {
    let mut list = Vec::new();
    if !report.warnings.is_empty() {
        list.push(("warnings", "Warnings"));
    }
    if !report.suggestions.is_empty() {
        list.push(super::suggestions::SECTION);
    }
    list.push(("comparison", "Model comparison"));
    list.push(("micro", "Micro averages"));
    if paradox_pair(report, options).is_some() {
        list.push(("accuracy-paradox", "Accuracy and F1 disagree"));
    }
    if report.bootstrap.is_some() {
        list.push(("bootstrap", "Bootstrap intervals"));
    }
    if literature_columns(report).is_some() {
        list.push(("literature", "Literature metrics"));
    }
    list.push(("macro-fields", "Macro over fields"));
    if super::weighted_sentence(report).is_some() {
        list.push(("weighted-fields", "Weighted over fields"));
    }
    list.push(("document-scores", "Document-level scores"));
    list.push(("fields", "Per-field results"));
    list.push(("sets", "Set fields"));
    list.push(("items", "Line items"));
    list.push(("errors", "Where it fails"));
    if has_confidence(report) {
        list.push(("confidence", "Confidence"));
    }
    if report.comparison.is_some() {
        list.push(super::comparison::SECTION);
    }
    if !report.suspected_truth_errors.is_empty() {
        list.push(super::audit::SECTION);
    }
    if !parts.charts.is_empty() {
        list.push(("charts", "Charts"));
    }
    list.push(("definitions", "Definitions"));
    list.push(("configuration", "Configuration"));
    list
}

fn push_summary(out: &mut String, report: &Report, options: &ExportOptions, parts: &Parts) {
    out.push_str("<header>\n<h1>fieldscope report</h1>\n<dl class=\"summary\">\n");
    let names: Vec<String> = report.models.iter().map(|m| bdi(&m.name)).collect();
    let models = match names.len() {
        0 => "none".to_string(),
        n => format!("{n}: {}", names.join(", ")),
    };
    let warnings = match report.warnings.len() {
        0 => "none".to_string(),
        n => format!("{n} (listed below)"),
    };
    let rows = [
        ("Documents", report.documents.to_string()),
        ("Models", models),
        ("Preset", code(report.config.preset.name())),
        ("String matching", string_matching(report)),
        ("Incorrect values", incorrect_values(report)),
        (
            "Macro F1 over documents",
            macro_f1_phrase(report).to_string(),
        ),
        (
            "Zero division (0/0)",
            code(&json_number(report.config.zero_division)),
        ),
        ("Warnings", warnings),
    ];
    for (term, description) in rows {
        out.push_str(&format!("<dt>{term}</dt><dd>{description}</dd>\n"));
    }
    let app_url = report.config.app_url.as_deref();
    if let Some(inputs) = parts.inputs {
        out.push_str(&format!(
            "<dt>Inputs</dt><dd id=\"inputs\">{}</dd>\n",
            inputs.describe(app_url)
        ));
    }
    if let Some(url) = app_url {
        out.push_str(&app_row(url, parts.inputs.is_some()));
    }
    out.push_str("</dl>\n");
    out.push_str("<nav class=\"contents\" aria-label=\"Contents\"><ol>\n");
    for (id, heading) in section_list(report, options, parts) {
        out.push_str(&format!("<li><a href=\"#{id}\">{heading}</a></li>\n"));
    }
    out.push_str("</ol></nav>\n</header>\n");
}

/// SPEC §9's "Where it fails" section, when the report has one of its
/// parts: the slices (§9.2, `export::slices::push_html`). Each part is
/// its own function, so further parts (§9.1's error types) join here.
fn push_warnings(out: &mut String, report: &Report) {
    if report.warnings.is_empty() {
        return;
    }
    out.push_str("<section id=\"warnings\" class=\"warnings\">\n<h2>Warnings</h2>\n<ul>\n");
    for warning in &report.warnings {
        out.push_str(&format!("<li>{}</li>\n", escape(warning)));
    }
    out.push_str("</ul>\n</section>\n");
}

fn push_comparison(out: &mut String, report: &Report, options: &ExportOptions) {
    open_section(out, "comparison", "Model comparison", false);
    let several = report.models.len() > 1;
    let f1 = match report.config.macro_f1 {
        MacroF1::Harmonic => "F1 is the harmonic mean of macro precision and macro recall",
        MacroF1::Mean => "F1 is the mean of per-document F1",
    };
    let mut caption = format!(
        "Model comparison on {}: precision, recall and F1 macro-averaged over documents \
         ({f1}); strict matching: a partial match counts as wrong{}. \
         M<sub>total</sub> = exact + 0.5 × partial; |Pred| and |Truth| count predicted and \
         true values.",
        documents_phrase(report),
        convention_clause(report),
    );
    if several {
        caption.push_str(" Bold: the best value of each column (for cost, the lowest).");
    }
    let m = &report.models;
    let columns = vec![
        Column::new(
            "M<sub>total</sub>",
            cells(m, |m| Number::Credit(m.m_total).format(options)),
        )
        .best(Best::Highest),
        Column::new(
            "|Pred|",
            cells(m, |m| Number::Count(m.pred_count).format(options)),
        ),
        Column::new(
            "|Truth|",
            cells(m, |m| Number::Count(m.truth_count).format(options)),
        ),
        ratio_column("Precision", m, options, |m| m.macro_documents.precision),
        ratio_column("Recall", m, options, |m| m.macro_documents.recall),
        ratio_column("F1", m, options, |m| m.macro_documents.f1),
        Column::new(
            "Cost",
            cells(m, |m| match m.cost {
                Some(cost) => Number::Cost(cost).format(options),
                None => NONE.to_string(),
            }),
        )
        .best(Best::Lowest),
    ];
    push_table(out, "", &caption, "Model", &model_names(report), columns);
    out.push_str("</section>\n");
}

fn push_micro(out: &mut String, report: &Report, options: &ExportOptions) {
    open_section(out, "micro", "Micro averages", false);
    let mut caption = format!(
        "Micro averages on {}: counts pooled over all documents and fields, then each score \
         computed once; strict matching{}. Accuracy also counts true negatives, so it can rank \
         models differently from F1.",
        documents_phrase(report),
        convention_clause(report),
    );
    for rate in &RATES {
        caption.push_str(&format!(
            " {} = {}: {}.",
            rate.label, rate.words, rate.meaning
        ));
    }
    if report.models.len() > 1 {
        caption.push_str(" Bold: the best value of each column (for the two rates, the lowest).");
    }
    let m = &report.models;
    let mut columns = vec![
        ratio_column("Precision", m, options, |m| m.micro.precision),
        ratio_column("Recall", m, options, |m| m.micro.recall),
        ratio_column("F1", m, options, |m| m.micro.f1),
        ratio_column("Accuracy", m, options, |m| m.micro.accuracy),
    ];
    columns.extend(RATES.iter().map(|rate| rate_column(rate, m, options)));
    push_table(out, "", &caption, "Model", &model_names(report), columns);
    out.push_str("</section>\n");
}

/// The bootstrap intervals and paired tests, only when the report has them
/// (`--bootstrap`, or computed in the app): the table of the Markdown and
/// LaTeX exports.
fn push_bootstrap(out: &mut String, report: &Report, options: &ExportOptions) {
    let Some(table) = bootstrap_table(report, options) else {
        return;
    };
    open_section(out, "bootstrap", "Bootstrap intervals", false);
    let caption = escape(&bootstrap_caption(&table));
    let columns = table
        .columns
        .iter()
        .enumerate()
        .map(|(j, (_, header, _))| {
            let cells = table
                .rows
                .iter()
                .map(|(_, cells, below)| match &cells[j] {
                    // May wrap before the interval, never inside it.
                    Some(cell) => format!(
                        "{}{}",
                        cell.replace(", ", ",\u{a0}"),
                        if below[j] { "\u{a0}†" } else { "" }
                    ),
                    None => NONE.to_string(),
                })
                .collect();
            Column::new(escape(header), cells)
        })
        .collect();
    let names: Vec<String> = table.rows.iter().map(|(name, _, _)| escape(name)).collect();
    push_table(out, "wide intervals", &caption, "Model", &names, columns);
    out.push_str("</section>\n");
}

/// The literature's metrics (ANLS\*, nTED, Donut F1), only when the
/// report carries them (`--metrics`, or computed in the app).
fn push_literature(out: &mut String, report: &Report, options: &ExportOptions) {
    let Some(literature) = literature_columns(report) else {
        return;
    };
    open_section(out, "literature", "Literature metrics", false);
    let mut caption = format!(
        "The literature's metrics on {}, computed as their reference implementations do \
         (not part of SPEC.md; — where undefined): {}",
        documents_phrase(report),
        escape(&literature_sentence(&literature)),
    );
    if report.models.len() > 1 {
        caption.push_str(" Bold: the best value of each column.");
    }
    let columns = literature
        .iter()
        .map(|(name, get)| {
            Column::new(
                escape(name),
                cells(&report.models, |m| {
                    optional_ratio(m.literature.as_ref().and_then(get).flatten(), options)
                }),
            )
            .best(Best::Highest)
        })
        .collect();
    push_table(out, "", &caption, "Model", &model_names(report), columns);
    out.push_str("</section>\n");
}

/// The macro average over fields weighted by `field_weights`, only when
/// the configuration gives them.
fn push_weighted_fields(out: &mut String, report: &Report, options: &ExportOptions) {
    let Some(sentence) = super::weighted_sentence(report) else {
        return;
    };
    open_section(out, "weighted-fields", "Weighted over fields", false);
    let mut caption = escape(&sentence);
    if report.models.len() > 1 {
        caption.push_str(" Bold: the best value of each column.");
    }
    let columns = super::WEIGHTED_COLUMNS
        .iter()
        .map(|(name, _, score)| {
            Column::new(
                escape(name),
                cells(&report.models, |m| {
                    optional_ratio(m.weighted_fields.as_ref().map(score), options)
                }),
            )
            .best(Best::Highest)
        })
        .collect();
    push_table(out, "", &caption, "Model", &model_names(report), columns);
    out.push_str("</section>\n");
}

/// Two models that accuracy and F1 (micro) rank in opposite orders, as
/// printed: `(a, b)` where `a` has the strictly higher accuracy and `b` the
/// strictly higher F1. The first such pair in model order; `None` when the
/// two scores never disagree.
fn paradox_pair(report: &Report, options: &ExportOptions) -> Option<(usize, usize)> {
    let printed = |x: f64| Number::Ratio(x).format(options).parse::<f64>().ok();
    let scores: Vec<(Option<f64>, Option<f64>)> = report
        .models
        .iter()
        .map(|m| (printed(m.micro.accuracy), printed(m.micro.f1)))
        .collect();
    for i in 0..scores.len() {
        for j in i + 1..scores.len() {
            let ((Some(acc_i), Some(f1_i)), (Some(acc_j), Some(f1_j))) = (scores[i], scores[j])
            else {
                continue;
            };
            if acc_i > acc_j && f1_i < f1_j {
                return Some((i, j));
            }
            if acc_j > acc_i && f1_j < f1_i {
                return Some((j, i));
            }
        }
    }
    None
}

fn push_paradox(out: &mut String, report: &Report, options: &ExportOptions) {
    let Some((by_accuracy, by_f1)) = paradox_pair(report, options) else {
        return;
    };
    let (a, b) = (&report.models[by_accuracy], &report.models[by_f1]);
    let ratio = |x: f64| Number::Ratio(x).format(options);
    open_section(out, "accuracy-paradox", "Accuracy and F1 disagree", false);
    out.push_str("<div class=\"paradox\">\n");
    out.push_str(&format!(
        "<p><strong>{}</strong> has the higher accuracy ({} against {}) but the lower F1 ({} \
         against {}) than <strong>{}</strong> (micro averages).</p>\n",
        bdi(&a.name),
        ratio(a.micro.accuracy),
        ratio(b.micro.accuracy),
        ratio(a.micro.f1),
        ratio(b.micro.f1),
        bdi(&b.name),
    ));
    out.push_str(
        "<p>This is the accuracy paradox, and it is not a bug. Accuracy counts true negatives: \
         a field the document does not have, correctly answered with NOT_FOUND (or left empty), \
         counts as a correct answer. Precision, recall and F1 leave true negatives out; they \
         only look at values that exist in the truth or in the prediction. A conservative model \
         that answers NOT_FOUND whenever it is unsure collects many true negatives, so it can \
         have the best accuracy and the worst F1 at the same time. A model that fills in fields \
         the document does not have turns true negatives into spurious values, which lowers its \
         accuracy; its hallucination rate shows how often that happens. When most fields are \
         absent, accuracy mostly measures how well a model stays silent.</p>\n",
    );
    out.push_str("</div>\n");
    let caption = "How much of each model's accuracy comes from true negatives: the true \
                   negatives among all its outcomes (one outcome per document and field), and \
                   its hallucination rate = spurious / (spurious + true negatives).";
    let m = &report.models;
    let columns = vec![
        ratio_column("Accuracy", m, options, |m| m.micro.accuracy).unranked(),
        ratio_column("F1", m, options, |m| m.micro.f1).unranked(),
        Column::new(
            "True negatives",
            cells(m, |m| {
                format!(
                    "{} of {}",
                    m.counts.true_negative,
                    Number::Count(outcomes(&m.counts)).format(options)
                )
            }),
        ),
        Column::new(
            "Share of outcomes",
            cells(m, |m| match outcomes(&m.counts) {
                0 => NONE.to_string(),
                n => ratio(m.counts.true_negative as f64 / n as f64),
            }),
        ),
        rate_column(&HALLUCINATION_RATE, m, options).unranked(),
    ];
    push_table(out, "", caption, "Model", &model_names(report), columns);
    out.push_str("</section>\n");
}

/// N = |Truth| + SPU + TN: every outcome of the model.
fn outcomes(c: &Counts) -> u64 {
    c.exact + c.partial + c.incorrect + c.missed + c.spurious + c.true_negative
}

fn push_macro_fields(out: &mut String, report: &Report, options: &ExportOptions) {
    open_section(out, "macro-fields", "Macro over fields", false);
    let mut caption = "Macro averages over fields: each field's precision, recall, F1 and \
                       accuracy from its pooled counts, then the mean over fields (F1 is the \
                       mean of per-field F1). A field with no true and no predicted value is \
                       left out of the means (last column)."
        .to_string();
    if report.models.len() > 1 {
        caption.push_str(" Bold: the best value of each column.");
    }
    let m = &report.models;
    let columns = vec![
        ratio_column("Precision", m, options, |m| m.macro_fields.precision),
        ratio_column("Recall", m, options, |m| m.macro_fields.recall),
        ratio_column("F1", m, options, |m| m.macro_fields.f1),
        ratio_column("Accuracy", m, options, |m| m.macro_fields.accuracy),
        Column::new(
            "Fields left out",
            cells(m, |m| m.macro_fields.fields_left_out.to_string()),
        ),
    ];
    push_table(out, "", &caption, "Model", &model_names(report), columns);
    out.push_str("</section>\n");
}

fn push_document_scores(out: &mut String, report: &Report, options: &ExportOptions) {
    open_section(out, "document-scores", "Document-level scores", false);
    let mut caption = "Document-level scores (M2, M3): numeric precision, field F1 with partial \
                       credit, schema validity and exact match, the weighted document extraction \
                       score, and the character error rate pooled over every scalar and item \
                       field. — : not applicable."
        .to_string();
    if report.models.len() > 1 {
        caption.push_str(" Bold: the best value of each column (for CER, the lowest).");
    }
    let m = &report.models;
    let columns = vec![
        optional_ratio_column("Numeric precision", m, options, |m| m.numeric_precision),
        ratio_column("Field F1 (partial)", m, options, |m| m.field_f1_partial),
        ratio_column("Schema validity", m, options, |m| m.schema_validity_rate),
        ratio_column("Exact match", m, options, |m| m.exact_match_rate),
        ratio_column("Document extraction score", m, options, |m| {
            m.document_extraction_score
        }),
        optional_ratio_column("CER", m, options, |m| m.cer).best(Best::Lowest),
    ];
    push_table(out, "", &caption, "Model", &model_names(report), columns);
    out.push_str("</section>\n");
}

/// "Per-field results": the overview of `super::wide` (by type, the field
/// matrix, the groups with their heatmaps), then each model's table of
/// counts, scores and CER per field, collapsed.
fn push_fields(out: &mut String, report: &Report, options: &ExportOptions, parts: &Parts) {
    open_section(out, "fields", "Per-field results", true);
    if report.models.is_empty() {
        out.push_str("<p>No models.</p>\n</section>\n");
        return;
    }
    let figures: Vec<String> = parts
        .group_charts
        .iter()
        .enumerate()
        .map(|(i, charts)| {
            let mut s = String::new();
            for (k, chart) in charts.iter().enumerate() {
                push_figure(&mut s, &format!("group-{}-heatmap-{}", i + 1, k + 1), chart);
            }
            s
        })
        .collect();
    let ratio = |x: f64| Number::Ratio(x).format(options);
    super::wide::push_overview(out, report, parts.types, &ratio, &figures);
    out.push_str("<h3 id=\"per-model\">Per model</h3>\n");
    for (index, model) in report.models.iter().enumerate() {
        let n = model.fields.len();
        out.push_str(&format!(
            "<details class=\"model\" id=\"fields-{}\">\n<summary><span class=\"name\">{}</span> \
             <small>counts, scores and CER of its {n} field{}</small></summary>\n",
            index + 1,
            escape(&model.name),
            if n == 1 { "" } else { "s" }
        ));
        let caption = format!(
            "Per-field outcome counts and strict scores of {}. CER is pooled over the field's \
             present truth values (total edits / total reference characters), mean CER is the \
             mean of the per-value CERs; — : not applicable (no present truth value, or a set \
             field).",
            bdi(&model.name)
        );
        let f = &model.fields;
        let count = |get: fn(&Counts) -> u64| cells(f, move |field| get(&field.counts).to_string());
        let ratio = |get: fn(&crate::eval::report::FieldReport) -> f64| {
            cells(f, move |field| Number::Ratio(get(field)).format(options))
        };
        let optional = |get: fn(&crate::eval::report::FieldReport) -> Option<f64>| {
            cells(f, move |field| optional_ratio(get(field), options))
        };
        let columns = vec![
            Column::new("Exact", count(|c| c.exact)),
            Column::new("Partial", count(|c| c.partial)),
            Column::new("Incorrect", count(|c| c.incorrect)),
            Column::new("Missed", count(|c| c.missed)),
            Column::new("Spurious", count(|c| c.spurious)),
            Column::new("True neg.", count(|c| c.true_negative)),
            Column::new("Precision", ratio(|f| f.precision)),
            Column::new("Recall", ratio(|f| f.recall)),
            Column::new("F1", ratio(|f| f.f1)),
            Column::new("Accuracy", ratio(|f| f.accuracy)),
            Column::new("CER", optional(|f| f.cer)),
            Column::new("Mean CER", optional(|f| f.mean_cer)),
        ];
        let names: Vec<String> = f.iter().map(|field| escape(&field.field)).collect();
        push_table(out, "wide", &caption, "Field", &names, columns);
        out.push_str("</details>\n");
    }
    out.push_str("</section>\n");
}

fn push_sets(out: &mut String, report: &Report, options: &ExportOptions) {
    open_section(out, "sets", "Set fields", false);
    let mut paths: Vec<&String> = report.models.iter().flat_map(|m| m.sets.keys()).collect();
    paths.sort();
    paths.dedup();
    if paths.is_empty() {
        out.push_str("<p>No set fields (lists of codes or labels) in this evaluation.</p>\n");
    }
    for path in paths {
        let rows: Vec<(&ModelReport, &crate::eval::report::SetReport)> = report
            .models
            .iter()
            .filter_map(|m| m.sets.get(path).map(|s| (m, s)))
            .collect();
        let mut ks: Vec<&String> = rows.iter().flat_map(|(_, s)| s.hit_at_k.keys()).collect();
        ks.sort_by_key(|k| (k.parse::<u64>().unwrap_or(u64::MAX), k.to_string()));
        ks.dedup();
        let mut caption = format!(
            "Set field <code>{}</code> (M1): precision = found / predicted, recall = found / \
             true, accuracy = (precision + recall) / 2, each the mean over the documents where \
             either list is non-empty (Documents); Hit@k: a true element among the first k \
             predicted.",
            escape(path)
        );
        if rows.len() > 1 {
            caption.push_str(" Bold: the best value of each column.");
        }
        let set_ratio = |header: String, get: &dyn Fn(&crate::eval::report::SetReport) -> f64| {
            Column::new(
                header,
                rows.iter()
                    .map(|(_, s)| Number::Ratio(get(s)).format(options))
                    .collect(),
            )
            .best(Best::Highest)
        };
        let mut columns = vec![
            Column::new(
                "Documents",
                rows.iter().map(|(_, s)| s.documents.to_string()).collect(),
            ),
            set_ratio("Precision".into(), &|s| s.precision),
            set_ratio("Recall".into(), &|s| s.recall),
            set_ratio("F1".into(), &|s| s.f1),
            set_ratio("Accuracy".into(), &|s| s.accuracy),
            set_ratio("Legacy accuracy".into(), &|s| s.legacy_accuracy),
        ];
        for k in ks {
            let cells = rows
                .iter()
                .map(|(_, s)| optional_ratio(s.hit_at_k.get(k).copied(), options))
                .collect();
            columns.push(Column::new(format!("Hit@{}", escape(k)), cells).best(Best::Highest));
        }
        let names: Vec<String> = rows.iter().map(|(m, _)| escape(&m.name)).collect();
        push_table(out, "", &caption, "Model", &names, columns);
    }
    out.push_str("</section>\n");
}

fn push_items(out: &mut String, report: &Report, options: &ExportOptions) {
    open_section(out, "items", "Line items", false);
    let rows: Vec<(&ModelReport, &crate::eval::report::ItemsReport)> = report
        .models
        .iter()
        .filter_map(|m| m.items.as_ref().map(|items| (m, items)))
        .collect();
    if rows.is_empty() {
        out.push_str("<p>No item lists (line items) in this evaluation.</p>\n</section>\n");
        return;
    }
    let threshold = format!(" ≥ {}", json_number(report.config.item_f1_threshold));
    let mut caption = format!(
        "Line items (M3), matched one to one by the Hungarian algorithm; an item is recognised \
         when matched with item F1{threshold}. Precision = recognised / predicted items, recall \
         = recognised / true items; item-count accuracy: share of documents where every true \
         item is recognised; item-count match: share of documents with as many predicted as \
         true items."
    );
    if rows.len() > 1 {
        caption.push_str(" Bold: the best value of each column.");
    }
    let item_ratio = |header: &'static str, get: fn(&crate::eval::report::ItemsReport) -> f64| {
        Column::new(
            header,
            rows.iter()
                .map(|(_, i)| Number::Ratio(get(i)).format(options))
                .collect(),
        )
        .best(Best::Highest)
    };
    let item_count = |header: &'static str, get: fn(&crate::eval::report::ItemsReport) -> u64| {
        Column::new(
            header,
            rows.iter().map(|(_, i)| get(i).to_string()).collect(),
        )
    };
    let columns = vec![
        item_ratio("Precision", |i| i.precision),
        item_ratio("Recall", |i| i.recall),
        item_ratio("F1", |i| i.f1),
        item_ratio("Item-count accuracy", |i| i.item_count_accuracy),
        item_ratio("Item-count match", |i| i.item_count_match_rate),
        item_count("Recognised", |i| i.recognised),
        item_count("True items", |i| i.truth_items),
        item_count("Predicted items", |i| i.pred_items),
    ];
    let names: Vec<String> = rows.iter().map(|(m, _)| escape(&m.name)).collect();
    push_table(out, "", &caption, "Model", &names, columns);
    out.push_str("</section>\n");
}

fn push_charts(out: &mut String, charts: &[HtmlChart]) {
    if charts.is_empty() {
        return;
    }
    open_section(out, "charts", "Charts", true);
    for (index, chart) in charts.iter().enumerate() {
        push_figure(out, &format!("chart-{}", index + 1), chart);
    }
    out.push_str("</section>\n");
}

/// One chart as a `<figure>` with its caption; an SVG that fails
/// [`check_svg`] is replaced by a note saying why.
fn push_figure(out: &mut String, id: &str, chart: &HtmlChart) {
    out.push_str(&format!("<figure id=\"{id}\">\n"));
    match check_svg(&chart.svg) {
        Ok(svg) => {
            out.push_str(svg);
            out.push('\n');
        }
        Err(reason) => out.push_str(&format!(
            "<p class=\"refused\">This chart was left out: its SVG {}. A chart never needs \
             that, and the report runs and loads nothing.</p>\n",
            escape(&reason)
        )),
    }
    out.push_str(&format!(
        "<figcaption><strong>{}.</strong> {}</figcaption>\n</figure>\n",
        escape(chart.title.trim_end_matches('.')),
        escape(&chart.caption)
    ));
}

/// SPEC §9.1: "Where it fails" — the error types per model (the columns
/// of `super::errors`, as in Markdown and LaTeX), the stacked bar chart
/// when given, and per model and field when the report has document
/// details.
fn push_errors(
    out: &mut String,
    report: &Report,
    options: &ExportOptions,
    chart: Option<&HtmlChart>,
) {
    use super::errors::{caption, field_rows, model_rows, COLUMNS, FIELD_CAPTION};
    open_section(out, "errors", "Where it fails", true);
    out.push_str(
        "<p>Why values are wrong: a value in another format, off by a power of ten, or \
         belonging to another field is a different problem from a wrong value or a missing \
         one.</p>\n",
    );
    let columns = |rows: &[Vec<String>]| -> Vec<Column> {
        COLUMNS
            .iter()
            .enumerate()
            .map(|(j, (header, _, _))| {
                Column::new(escape(header), rows.iter().map(|c| c[j].clone()).collect())
            })
            .collect()
    };
    let rows = model_rows(report, options);
    let names: Vec<String> = rows.iter().map(|(name, _)| escape(name)).collect();
    let cells: Vec<Vec<String>> = rows.into_iter().map(|(_, cells)| cells).collect();
    push_table(
        out,
        "wide",
        &escape(&caption(report)),
        "Model",
        &names,
        columns(&cells),
    );
    if let Some(chart) = chart {
        push_figure(out, "errors-chart", chart);
    }
    if let Some(rows) = field_rows(report, options) {
        for (index, model) in report.models.iter().enumerate() {
            let mine: Vec<_> = rows.iter().filter(|(m, _, _)| *m == model.name).collect();
            if mine.is_empty() {
                continue;
            }
            out.push_str(&format!(
                "<h3 id=\"errors-{}\">{}</h3>\n",
                index + 1,
                escape(&model.name)
            ));
            let names: Vec<String> = mine.iter().map(|(_, field, _)| escape(field)).collect();
            let cells: Vec<Vec<String>> = mine.iter().map(|(_, _, c)| c.clone()).collect();
            push_table(
                out,
                "",
                &escape(FIELD_CAPTION),
                "Field",
                &names,
                columns(&cells),
            );
        }
    }
    // SPEC §9.2: the slices' part, with `slice_by`.
    super::slices::push_html(out, report, options);
    out.push_str("</section>\n");
}

fn has_confidence(report: &Report) -> bool {
    report.models.iter().any(|m| m.confidence.is_some())
}

/// SPEC §8, only when some model has confidences: the model table and,
/// per model with confidences, its per-field table (both from
/// `super::confidence`, the Markdown and LaTeX tables' columns), the
/// risk–coverage chart and each model's reliability diagram (before its
/// field table) when given.
fn push_confidence(
    out: &mut String,
    report: &Report,
    options: &ExportOptions,
    charts: Option<&ConfidenceCharts>,
) {
    let Some(rows) = super::confidence::model_rows(report, options) else {
        return;
    };
    open_section(out, "confidence", "Confidence", true);
    out.push_str(
        "<p>Whether a model knows when it is right: a value accepted at a confidence should \
         be right about that often (calibration: ECE, Brier, the reliability diagrams), right \
         values should be more confident than wrong ones (AUROC), and accepting only confident \
         values should leave few errors (AURC, the risk–coverage curves).</p>\n",
    );
    let columns = super::confidence::COLUMNS
        .iter()
        .enumerate()
        .map(|(j, (header, _, _))| {
            let cells = rows
                .iter()
                .map(|(_, cells)| cells[j].clone().unwrap_or_else(|| NONE.to_string()))
                .collect();
            Column::new(escape(header), cells)
        })
        .collect();
    let names: Vec<String> = rows.iter().map(|(name, _)| escape(name)).collect();
    let caption = escape(&super::confidence::caption(report));
    push_table(out, "wide", &caption, "Model", &names, columns);
    if let Some(chart) = charts.and_then(|c| c.risk_coverage.as_ref()) {
        push_figure(out, "confidence-risk-coverage", chart);
    }
    let mut fields = super::confidence::field_rows(report, options).into_iter();
    for (index, model) in report.models.iter().enumerate() {
        let Some(confidence) = &model.confidence else {
            continue;
        };
        out.push_str(&format!(
            "<h3 id=\"confidence-{}\">{}</h3>\n",
            index + 1,
            escape(&model.name)
        ));
        let rows: Vec<_> = fields.by_ref().take(confidence.fields.len()).collect();
        let columns = super::confidence::FIELD_HEADERS
            .iter()
            .enumerate()
            .map(|(j, (header, _))| {
                let cells = rows
                    .iter()
                    .map(|(_, _, cells)| cells[j].clone().unwrap_or_else(|| NONE.to_string()))
                    .collect();
                Column::new(escape(header), cells)
            })
            .collect();
        let names: Vec<String> = rows.iter().map(|(_, field, _)| escape(field)).collect();
        let diagram = charts
            .into_iter()
            .flat_map(|c| &c.reliability)
            .find(|(i, _)| *i == index);
        if let Some((_, chart)) = diagram {
            push_figure(out, &format!("confidence-reliability-{}", index + 1), chart);
        }
        let caption = escape(super::confidence::FIELD_CAPTION);
        push_table(out, "", &caption, "Field", &names, columns);
    }
    out.push_str("</section>\n");
}

fn push_definitions(out: &mut String, report: &Report) {
    open_section(out, "definitions", "Definitions", true);
    out.push_str(
        "<p>Every score is computed from counts of outcomes, one outcome per document and \
         field (SPEC.md §2.3, §3). Strict scores count a partial match as wrong.</p>\n",
    );
    let fp_only = !convention_clause(report).is_empty();
    let fn_formula = if fp_only {
        "FN = MIS"
    } else {
        "FN = MIS + INC + PAR"
    };
    let fn_line = if fp_only {
        "Share of the true values found exactly. Here (<code>incorrect_counts_as: [\"fp\"]</code>, \
         M0) a wrong value is a false positive only, so recall leaves it out."
    } else {
        "Share of the true values found exactly (<code>incorrect_counts_as: [\"fp\", \
         \"fn\"]</code>: a wrong value is both a false positive and a false negative)."
    };
    let recall_partial = if fp_only {
        "credit / (COR + PAR + MIS)"
    } else {
        "credit / |Truth|"
    };
    let macro_f1 = match report.config.macro_f1 {
        MacroF1::Harmonic => "F1 = 2·P̄·R̄ / (P̄ + R̄) (harmonic mean of the macro averages)",
        MacroF1::Mean => "F1 = mean of per-document F1",
    };
    let config = &report.config;
    let empty_score = format!(" ({} here)", json_number(config.empty_document_score));
    let w = &config.document_extraction_score.weights;
    let weights_line = format!(
        "Weights here: w<sub>n</sub> = {}, w<sub>f</sub> = {}, w<sub>s</sub> = {}. ",
        json_number(w.numeric_precision),
        json_number(w.field_f1_partial),
        json_number(w.schema_validity)
    );
    let item_threshold = json_number(config.item_f1_threshold);
    let zero_division = format!(" ({} here)", json_number(config.zero_division));

    let mut rows: Vec<(&str, String, String)> = vec![
        (
            "Outcomes",
            "COR, PAR, INC, MIS, SPU, TN".into(),
            "Exact, partial, incorrect, missed (true value, no prediction), spurious (prediction, \
             no true value), true negative (neither: a correct NOT_FOUND)."
                .into(),
        ),
        ("|Truth|", "COR + PAR + INC + MIS".into(), "Values present in the truth.".into()),
        ("|Pred|", "COR + PAR + INC + SPU".into(), "Values present in the prediction.".into()),
        ("N", "|Truth| + SPU + TN".into(), "Every outcome.".into()),
        (
            "M<sub>total</sub>",
            "COR + 0.5·PAR".into(),
            "Matches, a partial match counting half (the credit).".into(),
        ),
        (
            "Precision",
            "TP / (TP + FP); TP = COR, FP = INC + PAR + SPU".into(),
            "Share of the predicted values that are exactly right.".into(),
        ),
        ("Recall", format!("TP / (TP + FN); {fn_formula}"), fn_line.into()),
        (
            "F1",
            "2·P·R / (P + R); 0 when P + R = 0".into(),
            "Harmonic mean of precision and recall.".into(),
        ),
        (
            "Accuracy",
            "(TP + TN) / N".into(),
            "Share of all outcomes that are right, true negatives included; the only one of the \
             four strict scores that counts them (see the accuracy paradox)."
                .into(),
        ),
        (
            "Micro",
            "pool the counts, then the formula".into(),
            "Counts pooled over all documents and fields, each score computed once.".into(),
        ),
        (
            "Macro over documents",
            format!("mean over documents of P, R, accuracy; {macro_f1}"),
            format!(
                "Each document weighs the same (M4). A document with no true and no predicted \
                 value scores P = R = empty_document_score{empty_score}."
            ),
        ),
        (
            "Macro over fields",
            "mean over fields of P, R, F1, accuracy".into(),
            "Each field weighs the same; a field with no true and no predicted value is left \
             out."
                .into(),
        ),
        (
            "Partial precision, recall",
            format!("credit / |Pred|; {recall_partial}"),
            "Like precision and recall, with a partial match counting half (M2).".into(),
        ),
        (
            "Field F1 (partial)",
            "2·P<sub>partial</sub>·R<sub>partial</sub> / (P<sub>partial</sub> + R<sub>partial</sub>)"
                .into(),
            "<code>field_f1_partial</code>: the micro F1 with partial credit.".into(),
        ),
    ];
    rows.extend(RATES.iter().map(|rate| {
        let mut meaning = rate.meaning.to_string();
        if let Some(first) = meaning.get(..1) {
            meaning.replace_range(..1, &first.to_uppercase());
        }
        (
            rate.label,
            escape(rate.symbols),
            format!("{}.", escape(&meaning)),
        )
    }));
    rows.extend(vec![
        (
            "Numeric precision",
            "exact / present numeric truth values".into(),
            "<code>numeric_precision</code>: share of number fields (item fields included) read \
             exactly, pooled; not applicable without numeric truth."
                .into(),
        ),
        (
            "Schema validity",
            "valid documents / documents".into(),
            "<code>schema_validity_rate</code>: the output parsed to an object that validates \
             against the schema."
                .into(),
        ),
        (
            "Exact match",
            "exact-match documents / documents".into(),
            "<code>exact_match_rate</code>: valid, every outcome exact or true negative, every \
             true item recognised and no extra item."
                .into(),
        ),
        (
            "Document extraction score",
            "w<sub>n</sub>·numeric_precision + w<sub>f</sub>·field_f1_partial + \
             w<sub>s</sub>·schema_validity_rate"
                .into(),
            format!(
                "{weights_line}Without numeric truth, w<sub>n</sub> is spread over the other two \
                 in proportion (M2)."
            ),
        ),
        (
            "CER",
            "(S + D + I) / N<sub>ref</sub>".into(),
            "Character error rate of one value: edits (substitutions, deletions, insertions) \
             over the true value's length, on normalised text; may exceed 1 (M3)."
                .into(),
        ),
        (
            "CER (pooled)",
            "Σ edits / Σ reference length".into(),
            "<code>cer</code> of a field or model, over its present truth values.".into(),
        ),
        (
            "Mean CER",
            "mean of per-value CER".into(),
            "<code>mean_cer</code>: each value weighs the same, whatever its length.".into(),
        ),
        (
            "Set precision, recall",
            "pred_in_true / |P|; true_in_pred / |T|".into(),
            "For lists of codes (M1), per document, then the mean over documents.".into(),
        ),
        (
            "Set accuracy",
            "(precision + recall) / 2".into(),
            "M1's accuracy of a code list.".into(),
        ),
        (
            "Legacy accuracy",
            "(pred_in_true + true_in_pred) / (2·max(|T|, |P|))".into(),
            "The older M1 formula, kept for comparison.".into(),
        ),
        (
            "Hit@k",
            "1 if a true element is among the first k predicted".into(),
            "Mean over documents.".into(),
        ),
        (
            "Item F1",
            "harmonic mean of correct / fields in p and correct / fields in t".into(),
            format!(
                "Of one true item t and predicted item p; an item is recognised when matched \
                 with item F1 ≥ {item_threshold}."
            ),
        ),
        (
            "Item precision, recall",
            "Σ recognised / Σ |P items|; Σ recognised / Σ |T items|".into(),
            "Line items (M3).".into(),
        ),
        (
            "Item-count accuracy",
            "documents with recognised = |T items| / documents".into(),
            "M3's definition.".into(),
        ),
        (
            "Item-count match",
            "documents with |P items| = |T items| / documents".into(),
            "Whether the number of items is right, matched or not.".into(),
        ),
        (
            "Zero division",
            "0 / 0 = zero_division".into(),
            format!(
                "The value of an undefined ratio{zero_division}; — in a table means not \
                 applicable."
            ),
        ),
    ]);
    out.push_str("<div class=\"scroll\">\n<table class=\"text defs long\">\n");
    out.push_str("<caption>Each metric in one line, with its formula (SPEC.md §3).</caption>\n");
    out.push_str(
        "<thead><tr><th scope=\"col\">Metric</th><th scope=\"col\">Formula</th>\
         <th scope=\"col\">Meaning</th></tr></thead>\n<tbody>\n",
    );
    for (name, formula, meaning) in rows {
        out.push_str(&format!(
            "<tr><th scope=\"row\">{name}</th><td class=\"formula\">{formula}</td><td>{meaning}</td></tr>\n"
        ));
    }
    out.push_str("</tbody>\n</table>\n</div>\n</section>\n");
}

fn push_configuration(out: &mut String, report: &Report) {
    open_section(out, "configuration", "Configuration", false);
    let mut rows = Vec::new();
    flatten("", &report.config.to_json(), &mut rows);
    let long = if rows.len() > LONG_TABLE { " long" } else { "" };
    out.push_str(&format!(
        "<div class=\"scroll\">\n<table class=\"text{long}\">\n"
    ));
    out.push_str(
        "<caption>The effective configuration (SPEC.md §4): defaults, then the preset, then \
         the configuration file, then command-line flags.</caption>\n",
    );
    out.push_str(
        "<thead><tr><th scope=\"col\">Key</th><th scope=\"col\">Value</th></tr></thead>\n<tbody>\n",
    );
    for (key, value) in rows {
        out.push_str(&format!(
            "<tr><th scope=\"row\"><code>{}</code></th><td><code>{}</code></td></tr>\n",
            escape(&key),
            escape(&value)
        ));
    }
    out.push_str("</tbody>\n</table>\n</div>\n</section>\n");
}

/// Flattens nested objects into dotted keys; any other value is shown as
/// its compact JSON text (so an empty string reads `""`).
fn flatten(prefix: &str, value: &Value, rows: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) if !map.is_empty() || prefix.is_empty() => {
            for (key, value) in map {
                let key = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(&key, value, rows);
            }
        }
        other => rows.push((prefix.to_string(), other.to_string())),
    }
}

// ---------------------------------------------------------------------------
// Configuration in words

/// A configured value in `<code>`, escaped.
fn code(text: &str) -> String {
    format!("<code>{}</code>", escape(text))
}

fn string_matching(report: &Report) -> String {
    let config = &report.config;
    let thresholds = &config.partial_matching.string;
    match config.string_match.method {
        MatchMethod::Similarity => format!(
            "<code>similarity</code>: exact at similarity ≥ {}, partial at ≥ {}",
            json_number(thresholds.exact_threshold),
            json_number(thresholds.partial_threshold),
        ),
        MatchMethod::Cer => format!(
            "<code>cer</code>: exact at CER ≤ {}, else incorrect",
            json_number(config.string_match.cer_threshold)
        ),
        MatchMethod::Exact => {
            "<code>exact</code>: equal after normalisation, else incorrect".into()
        }
    }
}

fn incorrect_values(report: &Report) -> String {
    let kinds = serde_json::to_string(&report.config.incorrect_counts_as).unwrap_or_default();
    let code = code(&kinds);
    if convention_clause(report).is_empty() {
        format!("{code}: a wrong value is a false positive and a false negative")
    } else {
        format!("{code}: a wrong value is a false positive only (M0)")
    }
}

fn macro_f1_phrase(report: &Report) -> &'static str {
    match report.config.macro_f1 {
        MacroF1::Harmonic => "harmonic mean of macro precision and macro recall",
        MacroF1::Mean => "mean of per-document F1",
    }
}

// ---------------------------------------------------------------------------
// Tables

/// One column of a table: the header (HTML), the printed cells and, for a
/// ranked column, which end is best.
struct Column {
    header: String,
    cells: Vec<String>,
    best: Option<Best>,
}

impl Column {
    fn new(header: impl Into<String>, cells: Vec<String>) -> Self {
        Column {
            header: header.into(),
            cells,
            best: None,
        }
    }

    fn best(mut self, best: Best) -> Self {
        self.best = Some(best);
        self
    }

    fn unranked(mut self) -> Self {
        self.best = None;
        self
    }

    /// The cells, the best in `<strong>`. Ranks the values as printed, so
    /// cells that read the same tie; a cell that is not a number (`—`) is
    /// not ranked, and one row has no winner.
    fn finish(self) -> (String, Vec<String>) {
        let Some(best) = self.best else {
            return (self.header, self.cells);
        };
        let printed: Vec<Option<f64>> = self.cells.iter().map(|cell| cell.parse().ok()).collect();
        let bold = best_of(&printed, best);
        let cells = self
            .cells
            .into_iter()
            .zip(bold)
            .map(|(cell, bold)| {
                if bold {
                    format!("<strong>{cell}</strong>")
                } else {
                    cell
                }
            })
            .collect();
        (self.header, cells)
    }
}

fn cells<T>(rows: &[T], cell: impl Fn(&T) -> String) -> Vec<String> {
    rows.iter().map(cell).collect()
}

/// A column of ratios, highest best.
fn ratio_column(
    header: &'static str,
    models: &[ModelReport],
    options: &ExportOptions,
    get: fn(&ModelReport) -> f64,
) -> Column {
    Column::new(
        header,
        cells(models, |m| Number::Ratio(get(m)).format(options)),
    )
    .best(Best::Highest)
}

/// The column of one of the declared rates, its best as declared.
fn rate_column(rate: &Rate, models: &[ModelReport], options: &ExportOptions) -> Column {
    let best = if rate.lower_is_better {
        Best::Lowest
    } else {
        Best::Highest
    };
    Column::new(
        rate.label,
        cells(models, |m| Number::Ratio(rate.value(m)).format(options)),
    )
    .best(best)
}

/// A column of ratios that may be not applicable, highest best.
fn optional_ratio_column(
    header: &'static str,
    models: &[ModelReport],
    options: &ExportOptions,
    get: fn(&ModelReport) -> Option<f64>,
) -> Column {
    Column::new(header, cells(models, |m| optional_ratio(get(m), options))).best(Best::Highest)
}

fn optional_ratio(x: Option<f64>, options: &ExportOptions) -> String {
    x.map_or_else(|| NONE.to_string(), |x| Number::Ratio(x).format(options))
}

fn model_names(report: &Report) -> Vec<String> {
    report.models.iter().map(|m| escape(&m.name)).collect()
}

fn open_section(out: &mut String, id: &str, heading: &str, major: bool) {
    let class = if major { " class=\"major\"" } else { "" };
    out.push_str(&format!(
        "<section id=\"{id}\"{class}>\n<h2>{heading}</h2>\n"
    ));
}

/// Appends a table: `caption` (HTML), a header row, and one row per name
/// (escaped HTML) with the columns' cells. No rows: a short note instead
/// ("No models.", "No fields.").
fn push_table(
    out: &mut String,
    class: &str,
    caption: &str,
    first_header: &str,
    names: &[String],
    columns: Vec<Column>,
) {
    if names.is_empty() {
        out.push_str(&format!("<p>No {}s.</p>\n", first_header.to_lowercase()));
        return;
    }
    let columns: Vec<(String, Vec<String>)> = columns.into_iter().map(Column::finish).collect();
    let mut classes: Vec<&str> = class.split_whitespace().collect();
    if names.len() > LONG_TABLE {
        classes.push("long");
    }
    let class = if classes.is_empty() {
        String::new()
    } else {
        format!(" class=\"{}\"", classes.join(" "))
    };
    out.push_str(&format!("<div class=\"scroll\">\n<table{class}>\n"));
    out.push_str(&format!("<caption>{caption}</caption>\n<thead><tr>"));
    out.push_str(&format!("<th scope=\"col\">{first_header}</th>"));
    for (header, _) in &columns {
        out.push_str(&format!("<th scope=\"col\">{header}</th>"));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (row, name) in names.iter().enumerate() {
        out.push_str(&format!("<tr><th scope=\"row\">{name}</th>"));
        for (_, cells) in &columns {
            out.push_str(&format!("<td>{}</td>", cells[row]));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

// ---------------------------------------------------------------------------
// Escaping

/// Untrusted text in running prose, isolated from the text around it so a
/// right-to-left name cannot reorder the sentence.
fn bdi(text: &str) -> String {
    format!("<bdi>{}</bdi>", escape(text))
}

// ---------------------------------------------------------------------------
// SVG

/// Elements a chart may use: shapes, text, grouping, paint servers,
/// clipping, and bitmap images from `data:` URLs. Anything else (scripts,
/// `foreignObject`, links, animation, …) is refused.
const SVG_ELEMENTS: [&str; 26] = [
    "svg",
    "g",
    "defs",
    "symbol",
    "use",
    "title",
    "desc",
    "path",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "text",
    "tspan",
    "textpath",
    "clippath",
    "mask",
    "lineargradient",
    "radialgradient",
    "stop",
    "pattern",
    "marker",
    "image",
    "style",
];

/// Checks an SVG string before it is inlined and returns the part to
/// inline: the `<svg>` element, without an XML declaration, doctype or
/// comment before it. The error says, in words, why the SVG is refused:
///
/// * it contains `<script`, `javascript:`, `<foreignObject` or an event
///   attribute (` onload=`, …), in any letter case;
/// * it could load something: `@import`, a `url(…)` or an `href`/`src`
///   that does not point inside the document (`#id`; an `<image>` may also
///   use a `data:image/png`, `jpeg`, `gif` or `webp` URL);
/// * it is not one well-formed `<svg>` element made of the elements a chart
///   needs ([`SVG_ELEMENTS`]): unbalanced tags, text after the root,
///   CDATA, processing instructions or a doctype with declarations.
pub fn check_svg(svg: &str) -> Result<&str, String> {
    let lower = svg.to_ascii_lowercase();
    // The reasons avoid repeating the dangerous text itself.
    for (needle, reason) in [
        ("<script", "contains a script"),
        ("javascript:", "contains a JavaScript URL"),
        ("<foreignobject", "contains a foreignObject element"),
    ] {
        if lower.contains(needle) {
            return Err(reason.into());
        }
    }
    if let Some(attribute) = event_attribute(&lower) {
        return Err(format!("has an event-handler attribute ({attribute})"));
    }
    if lower.contains("@import") {
        return Err("contains `@import`".into());
    }
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("url(") {
        rest = &rest[at + 4..];
        let target = rest.trim_start().trim_start_matches(['"', '\'']);
        if !target.starts_with('#') {
            return Err("refers to a `url(…)` outside the document".into());
        }
    }
    let start = skip_prolog(svg)?;
    let end = check_structure(&svg[start..])?;
    Ok(svg[start..start + end].trim_end())
}

/// The first ` on…=` event attribute: `on` and at least one letter,
/// optional space, `=`, after a space, `/` or quote.
fn event_attribute(lower: &str) -> Option<&str> {
    let bytes = lower.as_bytes();
    let mut from = 0;
    while let Some(at) = lower[from..].find("on") {
        let start = from + at;
        from = start + 2;
        let before = start.checked_sub(1).map(|i| bytes[i]);
        if !matches!(before, Some(b) if b.is_ascii_whitespace() || matches!(b, b'/' | b'"' | b'\''))
        {
            continue;
        }
        let letters = bytes[start + 2..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        if letters == 0 {
            continue;
        }
        let after = start + 2 + letters;
        let spaces = bytes[after..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        if bytes.get(after + spaces) == Some(&b'=') {
            return Some(&lower[start..after]);
        }
    }
    None
}

/// Skips whitespace, an XML declaration, a doctype without declarations
/// and comments before the root element; returns where the root starts.
fn skip_prolog(svg: &str) -> Result<usize, String> {
    let mut at = 0;
    loop {
        let rest = &svg[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with("<?xml") {
            let end = trimmed
                .find("?>")
                .ok_or("has an unclosed XML declaration")?;
            at += end + 2;
        } else if trimmed.starts_with("<!--") {
            at += comment_length(trimmed)?;
        } else if trimmed.len() >= 9 && trimmed[..9].eq_ignore_ascii_case("<!doctype") {
            let end = trimmed.find('>').ok_or("has an unclosed doctype")?;
            if trimmed[..end].contains('[') {
                return Err("has a doctype with declarations".into());
            }
            at += end + 1;
        } else {
            return Ok(at);
        }
    }
}

/// The length of the comment at the start of `text`, which must not
/// contain `--` (XML forbids it, and HTML would end it early at `--!>`).
fn comment_length(text: &str) -> Result<usize, String> {
    let body = &text[4..];
    let end = body.find("-->").ok_or("has an unclosed comment")?;
    if body[..end].contains("--") {
        return Err("has a comment containing `--`".into());
    }
    Ok(4 + end + 3)
}

/// Checks that `svg` is one element, `<svg …>…</svg>`, whose tags balance
/// and whose elements and attributes are ones a chart needs; trailing
/// whitespace and comments are allowed. Returns the end of the root
/// element.
fn check_structure(svg: &str) -> Result<usize, String> {
    let mut open: Vec<String> = Vec::new();
    let mut root_end = None;
    let mut at = 0;
    loop {
        let rest = &svg[at..];
        let lt = rest.find('<').unwrap_or(rest.len());
        if open.is_empty() && !rest[..lt].trim().is_empty() {
            return Err(match root_end {
                Some(_) => "has text after the `<svg>` element".into(),
                None => "has text outside the `<svg>` element".into(),
            });
        }
        at += lt;
        let tag = &rest[lt..];
        if tag.is_empty() {
            break;
        }
        if tag.starts_with("<!--") {
            at += comment_length(tag)?;
            continue;
        }
        if tag.starts_with("<!") || tag.starts_with("<?") {
            return Err("has a CDATA section, declaration or processing instruction".into());
        }
        if root_end.is_some() {
            return Err("has markup after the `<svg>` element".into());
        }
        if let Some(closing) = tag.strip_prefix("</") {
            let end = closing.find('>').ok_or("has an unclosed tag")?;
            let name = closing[..end].trim().to_ascii_lowercase();
            if open.pop().as_deref() != Some(name.as_str()) {
                return Err(format!("has an unbalanced `</{name}>`"));
            }
            at += 2 + end + 1;
        } else {
            let (name, length, self_closing) = check_start_tag(tag)?;
            if open.is_empty() && name != "svg" {
                return Err(format!("starts with `<{name}>`, not `<svg>`"));
            }
            at += length;
            if !self_closing {
                open.push(name);
            }
        }
        if open.is_empty() {
            root_end = Some(at);
        }
    }
    match (root_end, open.last()) {
        (_, Some(name)) => Err(format!("leaves `<{name}>` unclosed")),
        (Some(end), None) => Ok(end),
        (None, None) => Err("has no `<svg>` element".into()),
    }
}

/// Reads the start tag at the beginning of `tag`: (lowercased name,
/// length, self-closing). Refuses an element outside [`SVG_ELEMENTS`], an
/// unquoted or `<`-holding attribute value, an `on…` attribute and an
/// `href`/`src` that points outside the document.
fn check_start_tag(tag: &str) -> Result<(String, usize, bool), String> {
    let bytes = tag.as_bytes();
    let name_end = 1 + bytes[1..]
        .iter()
        .take_while(|b| !b.is_ascii_whitespace() && !matches!(b, b'>' | b'/'))
        .count();
    let name = tag[1..name_end].to_ascii_lowercase();
    if name.is_empty() {
        return Err("has a stray `<`".into());
    }
    if !SVG_ELEMENTS.contains(&name.as_str()) {
        return Err(format!(
            "has a `<{name}>` element, which a chart does not need"
        ));
    }
    let mut at = name_end;
    loop {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        match bytes.get(at) {
            None => return Err(format!("leaves the `<{name}>` tag unclosed")),
            Some(b'>') => return Ok((name, at + 1, false)),
            Some(b'/') if bytes.get(at + 1) == Some(&b'>') => return Ok((name, at + 2, true)),
            Some(_) => {}
        }
        let attr_start = at;
        while bytes
            .get(at)
            .is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'=' | b'>' | b'/'))
        {
            at += 1;
        }
        let attribute = tag[attr_start..at].to_ascii_lowercase();
        if attribute.is_empty() {
            return Err(format!("has a malformed `<{name}>` tag"));
        }
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        if bytes.get(at) != Some(&b'=') {
            return Err(format!("has an attribute `{attribute}` without a value"));
        }
        at += 1;
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let quote = match bytes.get(at) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return Err(format!("has an unquoted attribute `{attribute}`")),
        };
        let value_start = at + 1;
        let value_len = bytes[value_start..]
            .iter()
            .position(|&b| b == quote)
            .ok_or_else(|| format!("leaves the `<{name}>` tag unclosed"))?;
        let value = &tag[value_start..value_start + value_len];
        at = value_start + value_len + 1;
        if value.contains('<') {
            return Err(format!("has a `<` in the attribute `{attribute}`"));
        }
        if attribute.starts_with("on") {
            return Err(format!("has an event-handler attribute ({attribute})"));
        }
        let local = attribute.rsplit(':').next().unwrap_or(&attribute);
        if matches!(local, "href" | "src") && !inside_document(&name, value) {
            return Err(format!("has `{attribute}` pointing outside the document"));
        }
    }
}

/// Whether a link target stays inside the page: a fragment, or a bitmap
/// `data:` URL on an `<image>`.
fn inside_document(element: &str, target: &str) -> bool {
    let target = target.trim().to_ascii_lowercase();
    target.starts_with('#')
        || (element == "image"
            && ["png", "jpeg", "gif", "webp"]
                .iter()
                .any(|kind| target.starts_with(&format!("data:image/{kind};"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_handles_the_five_specials() {
        assert_eq!(
            escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("Señor 模型 — ok"), "Señor 模型 — ok");
        assert_eq!(escape("&amp;"), "&amp;amp;");
    }

    #[test]
    fn escape_spaces_whitespace_controls_and_shows_hidden_ones() {
        assert_eq!(escape("a\nb\tc\r\n"), "a b c  ");
        assert_eq!(escape("\u{202E}evil"), "[U+202E]evil");
        assert_eq!(
            escape("\u{200E}\u{200F}\u{202A}\u{2066}\u{2069}\u{061C}"),
            "[U+200E][U+200F][U+202A][U+2066][U+2069][U+061C]"
        );
        assert_eq!(
            escape("x\u{0}\u{1b}[0m\u{7f}"),
            "x[U+0000][U+001B][0m[U+007F]"
        );
        assert_eq!(
            escape("\u{FFFF}\u{FDD0}\u{1FFFE}"),
            "[U+FFFF][U+FDD0][U+1FFFE]"
        );
        // Joiners used by emoji and scripts are kept.
        assert_eq!(escape("👩\u{200D}🔬"), "👩\u{200D}🔬");
    }

    const OK: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50"><defs><clipPath id="c"><rect x="0" y="0" width="10" height="10"/></clipPath></defs><rect fill="url(#c)" x="1" y="2" width="3" height="4"/><text x="5" y="5" font-family="sans-serif">a &lt; b, based on data</text><polyline points="0,0 1,1" stroke="#000"/></svg>"##;

    #[test]
    fn a_chart_svg_passes() {
        assert_eq!(check_svg(OK), Ok(OK));
        let with_prolog =
            format!("<?xml version=\"1.0\"?>\n<!-- chart -->\n<!DOCTYPE svg>\n{OK}\n");
        assert_eq!(check_svg(&with_prolog), Ok(OK));
        let image = r#"<svg><image href="data:image/png;base64,AAAA" x="0"/></svg>"#;
        assert_eq!(check_svg(image), Ok(image));
    }

    #[test]
    fn scripts_and_handlers_are_refused_in_any_case() {
        for bad in [
            "<svg><script>alert(1)</script></svg>",
            "<svg><SCRIPT>alert(1)</SCRIPT></svg>",
            "<svg><a href=\"JavaScript:alert(1)\"><text>x</text></a></svg>",
            "<svg><foreignObject><p>x</p></foreignObject></svg>",
            "<svg onload=\"alert(1)\"></svg>",
            "<svg/onload=alert(1)>",
            "<svg><rect ONMOUSEOVER = 'x'/></svg>",
            "<svg><rect x=\"1\"onclick=\"x\"/></svg>",
        ] {
            assert!(check_svg(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn external_references_are_refused() {
        for bad in [
            "<svg><image href=\"https://example.org/x.png\"/></svg>",
            "<svg><use xlink:href=\"other.svg#a\"/></svg>",
            "<svg><rect style=\"fill: url( 'http://e/x' )\"/></svg>",
            "<svg><style>@import 'x.css';</style></svg>",
            "<svg><image href=\"data:image/svg+xml;base64,AAAA\"/></svg>",
            "<svg><use href=\"data:image/png;base64,AAAA\"/></svg>",
        ] {
            assert!(check_svg(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn broken_structure_is_refused() {
        for (bad, reason) in [
            ("<svg><g></svg>", "unbalanced `</svg>`"),
            ("<svg></svg></figure><p>x</p>", "markup after"),
            ("<svg></svg>trailing", "text after"),
            ("text<svg></svg>", "text outside"),
            ("<g></g>", "starts with `<g>`"),
            ("<svg><iframe></iframe></svg>", "`<iframe>` element"),
            ("<svg><a href=\"#x\"></a></svg>", "`<a>` element"),
            ("<svg><![CDATA[x]]></svg>", "CDATA"),
            ("<svg><rect x=1/></svg>", "unquoted"),
            ("<svg><rect x=\"<\"/></svg>", "`<` in the attribute"),
            ("<svg><!-- a -- b --></svg>", "`--`"),
            (
                "<!DOCTYPE svg [<!ENTITY x \"y\">]><svg></svg>",
                "declarations",
            ),
            ("<svg>", "unclosed"),
            ("", "no `<svg>`"),
        ] {
            let err = check_svg(bad).unwrap_err();
            assert!(err.contains(reason), "{bad}: {err}");
        }
    }

    #[test]
    fn event_attribute_needs_a_boundary_letters_and_equals() {
        assert_eq!(event_attribute(" onload=x"), Some("onload"));
        assert_eq!(event_attribute("/onerror =x"), Some("onerror"));
        assert_eq!(event_attribute("\"onclick=x"), Some("onclick"));
        assert_eq!(event_attribute("based on data"), None);
        assert_eq!(event_attribute("button=x"), None);
        assert_eq!(event_attribute(" on=x"), None);
    }
}
