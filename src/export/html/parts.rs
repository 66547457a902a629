//! What the page is given beyond the report: the charts ([`HtmlChart`],
//! [`ConfidenceCharts`]), the optional [`Parts`] of the page, and the
//! embedded inputs ([`Inputs`]) with the summary's words on how to re-open
//! them (in the app named by `app_url`, or how to get the app).
//!
//! Owns: those types and the "Inputs" and "App" rows' text. May depend on
//! `table`'s escaping helpers and `super::super::embed`; never on a section.

use super::table::bdi;
use crate::escape::html as escape;

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
/// `crate::export::page::render`. A new optional section (say, a comparison with
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
    /// grouped by type, with the "By document type" table (`crate::export::wide`).
    pub types: Option<&'a crate::eval::groups::DocTypes>,
    /// A wide report's heatmaps of each group of fields, in the groups'
    /// order (`crate::export::page::group_charts`); empty otherwise.
    pub group_charts: &'a [Vec<HtmlChart>],
}

/// The charts of the "Confidence" section, made by `crate::export::page`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfidenceCharts {
    /// Every model's risk–coverage curve on one chart.
    pub risk_coverage: Option<HtmlChart>,
    /// (the model's position in the report, its reliability diagram), in
    /// report order; models without confidences have none.
    pub reliability: Vec<(usize, HtmlChart)>,
}

/// Inputs embedded in the page: the files it lists in the summary and the
/// report bundle itself, in an inert element (`crate::export::embed`).
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// (name, role, model) of each file, as the bundle says.
    pub(super) files: Vec<(String, String, String)>,
    /// The `<template>` element holding the bundle.
    pub(super) element: String,
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
            element: crate::export::embed::element(bundle),
        }
    }

    /// The summary's words: each file with its role (and model name),
    /// then how to re-open it: in the app of the "App" line when the
    /// config names `app_url`, else how to get the app.
    pub(super) fn describe(&self, app_url: Option<&str>) -> String {
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
pub(super) const GET_THE_APP: &str =
    "Drop this file onto the fieldscope app to re-open the evaluation \
     (the app is a folder of static files: <code>trunk build --release</code> in fieldscope's \
     repository writes it to <code>dist/</code> for any static host; see \
     <code>docs/browser-app.md</code>).";

/// A link to the app at `url`, escaped as an attribute and as text; only
/// the text when `url` is not an http or https address
/// (`config::check_app_url`: a report read back from JSON was never
/// checked).
pub(super) fn app_link(url: &str) -> String {
    let text = escape(url);
    if crate::eval::config::check_app_url(url).is_err() {
        return text;
    }
    format!("<a href=\"{text}\" rel=\"noopener noreferrer\">{text}</a>")
}

/// The summary's "App" row when the config names `app_url`: where the app
/// is and how to re-open this report there.
pub(super) fn app_row(url: &str, inputs: bool) -> String {
    let how = if inputs {
        "open it and drop this file onto its page to re-open the evaluation with its inputs \
         and settings."
    } else {
        "the inputs are not embedded in this page; write the report with \
         <code>--embed-inputs</code> (or open the input files there) to re-open the evaluation."
    };
    format!("<dt>App</dt><dd id=\"app\">{}: {how}</dd>\n", app_link(url))
}
