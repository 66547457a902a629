//! Exporters: a [`Report`] rendered as text, one sibling module per
//! [`Format`].
//!
//! Owns: the text forms of a report — [`json`] (the machine contract of
//! SPEC §5, unrounded), [`markdown`] and [`latex`] (the two tables of M4 for
//! papers and READMEs), [`csv`] (the per-field table, full precision),
//! [`html`] (the whole report as one self-contained page to share) — and
//! the rules they share, each in a private sibling re-exported here: how a
//! table number is printed and which value of a column is the best one
//! (`numbers`: `Number`, `best_of`, [`ExportOptions`]), the columns and
//! caption words every format shows alike (`captions`), and the bootstrap
//! tables of Markdown, LaTeX and the app (`bootstrap`).
//!
//! Every exporter is `render(&Report, &ExportOptions) -> String` with one
//! number formatter and one escaper for its format. Untrusted text (model
//! names, field names, warnings) always goes through the escaper; numbers
//! never do. The HTML report is [`render_html`] ([`page::render`]): the
//! report, the options and what to include ([`HtmlInclude`]: the charts,
//! the inputs to embed); [`render`] gives it the default (charts, no
//! inputs). Every entry point writes the HTML report through it.
//!
//! Two siblings are not report formats: [`sweep`] writes a threshold sweep
//! as a table, and [`pdf`] converts a chart's SVG to a PDF
//! with embedded fonts. [`embed`] puts inputs into an HTML report and reads
//! them back.
//!
//! Depends on: `crate::eval::report` (plus `crate::eval::sweep`'s result in
//! [`sweep`], svg2pdf in `pdf`, `crate::charts` in [`page`], miniz_oxide in
//! [`embed`], and `crate::error` for the errors). Never
//! does I/O: the caller writes the string (or bytes) wherever it wants.
//!
//! Adding a format: a sibling module with the same `render`
//! signature, a [`Format`] variant, its entry in [`Format::ALL`] and one arm
//! in [`render`]; the accepted names in error messages follow from
//! [`Format::ALL`].

pub mod audit;
mod bootstrap;
pub mod by_type;
mod captions;
pub mod comparison;
pub mod confidence;
pub mod csv;
pub mod embed;
pub mod errors;
mod format;
pub mod fragment;
pub mod gate;
pub mod html;
pub mod json;
pub mod latex;
pub mod markdown;
mod numbers;
pub mod page;
// SVG → PDF with embedded fonts (in the browser, only the export worker
// calls it: feature `pdf`).
#[cfg(any(not(target_arch = "wasm32"), feature = "pdf"))]
pub mod pdf;
pub mod slices;
pub mod suggestions;
pub mod sweep;
pub mod wide;

use crate::error::Error;
use crate::eval::report::Report;

pub use bootstrap::{
    bootstrap_caption, bootstrap_confidence_caption, bootstrap_confidence_table, bootstrap_table,
    BootstrapTable, BOOTSTRAP_COLUMNS, BOOTSTRAP_CONFIDENCE_COLUMNS,
};
pub(crate) use captions::{
    convention_clause, documents_phrase, literature_columns, literature_sentence, LiteratureColumn,
};
pub use captions::{weighted_sentence, WeightedColumn, WEIGHTED_COLUMNS};
pub use format::Format;
pub use html::HtmlChart;
use numbers::fixed;
pub(crate) use numbers::{best_of, Best, Number};
pub use numbers::{json_number, ExportOptions, MAX_DECIMALS};
pub use page::{render as render_html, HtmlInclude};

/// A text export rendered away from the page: the browser app sends it as
/// JSON to its export worker (`src/bin/export_worker.rs`), which renders
/// it with [`TextExport::render_json`], so that the page's own code carries
/// no Markdown, LaTeX, CSV or HTML writer.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TextExport {
    /// A [`Format`] name.
    pub format: String,
    /// The report (its `document_details` are not needed: no table or
    /// chart shows them; only whether there were any, which asks for the
    /// per-field error tables of SPEC §9.1, `export::errors`).
    pub report: Report,
    /// What the HTML report includes (ignored by the other formats).
    #[serde(default)]
    pub include: HtmlInclude,
}

impl TextExport {
    /// The request for `report` in `format`: the report without its
    /// document details (they would only make the message longer), so the
    /// export is what `fieldscope eval --format` writes without
    /// `--details`.
    pub fn new(format: Format, report: &Report, include: HtmlInclude) -> TextExport {
        let mut report = report.clone();
        for m in &mut report.models {
            m.document_details = None;
        }
        TextExport {
            format: format.name().to_string(),
            report,
            include,
        }
    }

    /// The export's text, as `fieldscope eval --format` writes it (HTML
    /// through [`render_html`] with [`Self::include`]), with the default
    /// options.
    pub fn render(&self) -> Result<String, Error> {
        let options = ExportOptions::default();
        Ok(render_including(
            &self.report,
            self.format.parse::<Format>()?,
            &options,
            &self.include,
        ))
    }

    /// [`Self::render`] on the JSON of a `TextExport`; an error says what
    /// was wrong.
    pub fn render_json(json: &str) -> Result<String, String> {
        let request: TextExport = serde_json::from_str(json)
            .map_err(|e| format!("the export request is not readable: {e}"))?;
        request.render().map_err(|e| e.to_string())
    }
}

/// Renders `report` in `format`; HTML with [`HtmlInclude::default`] (the
/// charts, no inputs: [`render_html`] chooses).
pub fn render(report: &Report, format: Format, options: &ExportOptions) -> String {
    match format {
        Format::Json => json::render(report, options),
        Format::Markdown => markdown::render(report, options),
        Format::Latex => latex::render(report, options),
        Format::Csv => csv::render(report, options),
        Format::Html => render_html(report, options, &HtmlInclude::default()),
    }
}

/// [`render`] with what the HTML report includes (`include`); Markdown
/// also reads its document types: with several schemas it ends with the
/// by-type table ([`by_type`]). Other formats ignore `include`.
pub fn render_including(
    report: &Report,
    format: Format,
    options: &ExportOptions,
    include: &HtmlInclude,
) -> String {
    match format {
        Format::Html => render_html(report, options, include),
        Format::Markdown => {
            let mut out = markdown::render(report, options);
            let ratio = |x: f64| Number::Ratio(x).format(options);
            if let Some(table) = by_type::markdown(report, include.types.as_ref(), &ratio) {
                out.push('\n');
                out.push_str(&table);
            }
            out
        }
        format => render(report, format, options),
    }
}

/// How F1 under `macro_documents` was computed (config `macro_f1`, SPEC
/// §3.2); captions say which.
pub(crate) use crate::eval::config::MacroF1;

pub use crate::escape::{is_hidden, show_hidden};

#[cfg(test)]
mod tests;
