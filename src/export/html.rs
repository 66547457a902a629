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
//!
//! This file holds the page's frame (head, summary, contents, warnings,
//! footer) and the section order; the sections are its children, by
//! report section: `scores` (comparison, micro, paradox, bootstrap,
//! literature, macro and weighted over fields, document scores), `fields`
//! (per field, sets, items), `failures` (§9), `confidence` (§8),
//! `definitions` (definitions, configuration). `table` and `svg` hold the
//! markup they share, `parts` what the page is given, `style` its CSS.

mod confidence;
mod definitions;
mod failures;
mod fields;
mod parts;
mod scores;
mod style;
mod svg;
mod table;

use super::{convention_clause, json_number, literature_columns, ExportOptions, MacroF1};
pub use crate::escape::html as escape;
use crate::eval::config::MatchMethod;
use crate::eval::report::Report;
use confidence::{has_confidence, push_confidence};
use definitions::{push_configuration, push_definitions};
use failures::push_errors;
use fields::{push_fields, push_items, push_sets};
use parts::app_row;
pub use parts::{ConfidenceCharts, HtmlChart, Inputs, Parts};
use scores::{
    paradox_pair, push_bootstrap, push_comparison, push_document_scores, push_literature,
    push_macro_fields, push_micro, push_paradox, push_weighted_fields,
};
pub(crate) use style::STYLE;
pub use svg::check_svg;
use svg::push_charts;
use table::{bdi, code};

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

#[cfg(test)]
mod tests;
