//! Exporters: a [`Report`] rendered as text, one sibling module per
//! [`Format`].
//!
//! Owns: the text forms of a report — [`json`] (the machine contract of
//! SPEC §5, unrounded), [`markdown`] and [`latex`] (the two tables of M4 for
//! papers and READMEs), [`csv`] (the per-field table, full precision),
//! [`html`] (the whole report as one self-contained page to share) — and
//! the rules they share: how a table number is printed (`Number`) and
//! which value of a column is the best one (`best_of`).
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
pub mod by_type;
pub mod comparison;
pub mod confidence;
pub mod csv;
pub mod embed;
pub mod errors;
pub mod fragment;
pub mod gate;
pub mod html;
pub mod json;
pub mod latex;
pub mod markdown;
pub mod page;
// SVG → PDF with embedded fonts (in the browser, only the export worker
// calls it).
pub mod pdf;
pub mod slices;
pub mod suggestions;
pub mod sweep;
pub mod wide;

use crate::error::{Error, ErrorKind};
use crate::eval::config::IncorrectCountsAs;
use crate::eval::report::{LiteratureReport, Report, Scores};
use std::fmt;
use std::str::FromStr;

pub use html::HtmlChart;
pub use page::{render as render_html, HtmlInclude};

/// Options shared by the exporters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportOptions {
    /// Decimals of the ratios (precision, recall, F1, accuracy, rates, CER)
    /// in Markdown, LaTeX and HTML, and the most decimals M_total is printed
    /// with. Default 4.
    /// JSON and CSV ignore it: they carry numbers at full precision. Values
    /// above [`MAX_DECIMALS`] are taken as [`MAX_DECIMALS`].
    pub decimals: usize,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions { decimals: 4 }
    }
}

/// The most decimals a table prints: an `f64` ratio carries about 17
/// significant digits, so more would only print noise.
pub const MAX_DECIMALS: usize = 17;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// The report as pretty-printed JSON (SPEC §5).
    Json,
    /// GitHub-flavoured Markdown tables.
    Markdown,
    /// LaTeX `tabular`s with booktabs rules.
    Latex,
    /// The per-field table as CSV.
    Csv,
    /// The whole report as one self-contained HTML page.
    Html,
}

impl Format {
    /// Every format, in the order they are listed to users.
    pub const ALL: [Format; 5] = [
        Format::Json,
        Format::Markdown,
        Format::Latex,
        Format::Csv,
        Format::Html,
    ];

    /// The name accepted by [`Format::from_str`] (`--format NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Latex => "latex",
            Format::Csv => "csv",
            Format::Html => "html",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Markdown => "md",
            Format::Latex => "tex",
            Format::Csv => "csv",
            Format::Html => "html",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;

    /// Parses a format name (`json`, `markdown`, `latex`, `csv`, `html`), ignoring
    /// ASCII case and surrounding whitespace. An unknown name is an
    /// [`ErrorKind::Usage`] error that lists the accepted names.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        Format::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                Error::new(
                    ErrorKind::Usage,
                    format!(
                        "unknown format `{wanted}`; expected one of: {}",
                        names.join(", ")
                    ),
                )
            })
    }
}

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

/// A column of the weighted-fields table: its header, its key in the JSON
/// report (under `weighted_fields`) and the score.
pub type WeightedColumn = (&'static str, &'static str, fn(&Scores) -> f64);

/// The columns of the weighted-fields table, in every format and the app.
pub const WEIGHTED_COLUMNS: [WeightedColumn; 4] = [
    ("Precision", "weighted_fields.precision", |s| s.precision),
    ("Recall", "weighted_fields.recall", |s| s.recall),
    ("F1", "weighted_fields.f1", |s| s.f1),
    ("Accuracy", "weighted_fields.accuracy", |s| s.accuracy),
];

/// What the weighted-fields table shows (the config key `field_weights`,
/// beyond SPEC §4), with the weights as the configuration gives them: one
/// plain sentence that each format escapes. `None` when no model has
/// `weighted_fields`, so reports without the key export as before.
pub fn weighted_sentence(report: &Report) -> Option<String> {
    if report.models.iter().all(|m| m.weighted_fields.is_none()) {
        return None;
    }
    let weights = report
        .config
        .field_weights
        .iter()
        .map(|(field, weight)| format!("{field} {}", json_number(*weight)))
        .collect::<Vec<_>>()
        .join(", ");
    Some(format!(
        "Macro average over fields, each field's score weighted by its field_weights \
         entry w (a field not listed weighs 1): the sum of w times the score divided by the \
         sum of w, over the fields of the macro average over fields (strict matching). \
         Weights: {weights}."
    ))
}

/// A column of the literature table: its header and how to read it from a
/// model's [`LiteratureReport`] (`None` when not asked for,
/// `Some(None)` when undefined).
pub(crate) type LiteratureColumn = (&'static str, fn(&LiteratureReport) -> Option<Option<f64>>);

/// The literature metrics any model of the report carries, in a fixed
/// order (ANLS\*, nTED, Donut F1); `None` when no model has any, so the
/// default report's exports are unchanged.
pub(crate) fn literature_columns(report: &Report) -> Option<Vec<LiteratureColumn>> {
    let all: [LiteratureColumn; 3] = [
        ("ANLS*", |l| l.anls_star),
        ("nTED", |l| l.nted),
        ("Donut F1", |l| l.donut_f1),
    ];
    let columns: Vec<LiteratureColumn> = all
        .into_iter()
        .filter(|(_, get)| {
            report
                .models
                .iter()
                .any(|m| m.literature.as_ref().and_then(get).is_some())
        })
        .collect();
    (!columns.is_empty()).then_some(columns)
}

/// One plain sentence defining the literature columns shown (shared by the
/// Markdown and LaTeX captions; the LaTeX exporter escapes it).
pub(crate) fn literature_sentence(columns: &[LiteratureColumn]) -> String {
    let parts: Vec<&str> = columns
        .iter()
        .map(|(name, _)| match *name {
            "ANLS*" => "ANLS* is the mean over documents of the ANLS* score of the whole record (Peer et al., 2024; threshold 0.5)",
            "nTED" => "nTED is the mean over documents of max(0, 1 - TED(pred, truth) / TED(empty, truth)) on Donut's normalised trees (Kim et al., 2022)",
            _ => "Donut F1 is Donut's field F1 over flattened (path, value) pairs, micro over documents",
        })
        .collect();
    format!("{}.", parts.join("; "))
}

/// The decimals a cost is printed with at most (Markdown, LaTeX, HTML).
const COST_DECIMALS: usize = 4;

/// A number in a Markdown, LaTeX or HTML table, tagged with what it is; the tag
/// decides how [`Number::format`] prints it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Number {
    /// Precision, recall, F1, accuracy: exactly `decimals` decimals
    /// (`0.6667`, `1.0000`).
    Ratio(f64),
    /// M_total, a sum of credits (a multiple of 0.5): up to `decimals`
    /// decimals, trailing zeros trimmed, at least one kept (`12.5`, `12.0`).
    Credit(f64),
    /// |Pred|, |Truth| and other counts: an integer.
    Count(u64),
    /// A cost: up to 4 decimals, trailing zeros trimmed, at least one kept
    /// (`0.0123`, `1.5`, `2.0`). A non-zero cost too small to show at 4
    /// decimals gets two significant digits (`0.000041`) instead of reading
    /// as free.
    Cost(f64),
}

impl Number {
    /// The text of the number as the tables print it. Rounding is to
    /// nearest on the exact binary value (Rust's `{:.N}`); a value that
    /// rounds to zero never prints a minus sign; NaN and infinities print as
    /// `NaN`, `inf`, `-inf` (the report should never contain them).
    pub(crate) fn format(self, options: &ExportOptions) -> String {
        let decimals = options.decimals.min(MAX_DECIMALS);
        match self {
            Number::Ratio(x) => fixed(x, decimals),
            Number::Credit(x) => trimmed(x, decimals.max(1)),
            Number::Count(n) => n.to_string(),
            Number::Cost(x) => {
                let text = trimmed(x, COST_DECIMALS);
                if x != 0.0 && x.is_finite() && text.parse::<f64>() == Ok(0.0) {
                    // The first significant digit is at decimal
                    // ceil(-log10 |x|); show one more.
                    let first = (-x.abs().log10()).ceil() as usize;
                    trimmed(x, (first + 1).min(20))
                } else {
                    text
                }
            }
        }
    }
}

/// `x` with exactly `decimals` decimals, never `-0.00`.
fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(unsigned) if unsigned.parse::<f64>() == Ok(0.0) => unsigned.to_string(),
        _ => text,
    }
}

/// `x` with at most `decimals` (≥ 1) decimals, trailing zeros trimmed but
/// one decimal kept.
fn trimmed(x: f64, decimals: usize) -> String {
    let text = fixed(x, decimals.max(1));
    if !x.is_finite() || !text.contains('.') {
        return text;
    }
    let text = text.trim_end_matches('0');
    if text.ends_with('.') {
        format!("{text}0")
    } else {
        text.to_string()
    }
}

/// Which end of a column is best.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Best {
    Highest,
    Lowest,
}

/// Marks the best values of a column: `true` at every position holding the
/// best value (ties are all best). Pass the values *as printed* (parsed
/// back from their text) so that two cells that read the same are ranked
/// the same. `None`, NaN and infinities are not ranked; when fewer than two
/// values are ranked, nothing is best (a column of one model has no
/// winner).
pub(crate) fn best_of(values: &[Option<f64>], best: Best) -> Vec<bool> {
    let ranked: Vec<f64> = values
        .iter()
        .flatten()
        .copied()
        .filter(|x| x.is_finite())
        .collect();
    if ranked.len() < 2 {
        return vec![false; values.len()];
    }
    let target = match best {
        Best::Highest => ranked.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Best::Lowest => ranked.iter().copied().fold(f64::INFINITY, f64::min),
    };
    values.iter().map(|value| *value == Some(target)).collect()
}

/// How F1 under `macro_documents` was computed (config `macro_f1`, SPEC
/// §3.2); captions say which.
pub(crate) use crate::eval::config::MacroF1;

/// A configured number as the report's JSON writes it (`0.85`, `2.0`,
/// `0.0`), for captions that quote the configuration.
pub fn json_number(x: f64) -> String {
    serde_json::Value::from(x).to_string()
}

/// The caption clause on where an incorrect value goes, empty under the
/// default `incorrect_counts_as: ["fp", "fn"]`. Under `["fp"]` (M0) a wrong
/// value is a false positive only and recall's denominator leaves it out
/// (SPEC §3.1). Plain text: safe in Markdown, LaTeX and HTML alike.
pub(crate) fn convention_clause(report: &Report) -> &'static str {
    if report.config.incorrect_counts_as == IncorrectCountsAs::FpOnly {
        "; an incorrect value counts as a false positive only, so recall leaves it out"
    } else {
        ""
    }
}

/// `"1 document"`, `"3 documents"`.
pub(crate) fn documents_phrase(report: &Report) -> String {
    match report.documents {
        1 => "1 document".to_string(),
        n => format!("{n} documents"),
    }
}

/// The bootstrap table of the Markdown and LaTeX exports (and the app's
/// uncertainty panel), when the report has one: per model (names
/// unescaped), the cells "estimate [low, high]" of the headline scores of
/// [`BOOTSTRAP_COLUMNS`] (item F1 only when some model has item lists; a
/// model without them has no cell there), and per cell whether the model is
/// significantly below the best model of that column (the Holm-adjusted
/// paired test between the two, [`BootstrapReport::below_best`]).
///
/// [`BootstrapReport::below_best`]: crate::eval::bootstrap::BootstrapReport::below_best
pub struct BootstrapTable {
    pub resamples: usize,
    pub seed: u64,
    pub level: f64,
    pub alpha: f64,
    pub documents: usize,
    /// The columns shown: (metric, Markdown header, LaTeX header).
    pub columns: Vec<(&'static str, &'static str, &'static str)>,
    /// (model, one cell per column (`None`: the model has no such score),
    /// per column: significantly below the best).
    pub rows: Vec<(String, Vec<Option<String>>, Vec<bool>)>,
}

/// The columns of the bootstrap table: (metric as in the report's
/// `bootstrap`, Markdown header, LaTeX header). Every one is a tested score
/// (`eval::bootstrap::TESTED`).
pub const BOOTSTRAP_COLUMNS: [(&str, &str, &str); 6] = [
    ("micro.f1", "Micro F1", "Micro $F_1$"),
    (
        "macro_documents.f1",
        "Macro F1 (documents)",
        "Macro $F_1$ (documents)",
    ),
    (
        "macro_fields.f1",
        "Macro F1 (fields)",
        "Macro $F_1$ (fields)",
    ),
    ("micro.accuracy", "Micro accuracy", "Micro accuracy"),
    (
        "document_extraction_score",
        "Extraction score",
        "Extraction score",
    ),
    ("items.f1", "Item F1", "Item $F_1$"),
];

pub fn bootstrap_table(report: &Report, options: &ExportOptions) -> Option<BootstrapTable> {
    let b = report.bootstrap.as_ref()?;
    let any_items = b.models.iter().any(|m| m.items.is_some());
    let columns: Vec<_> = BOOTSTRAP_COLUMNS
        .into_iter()
        .filter(|(metric, _, _)| any_items || !metric.starts_with("items."))
        .collect();
    Some(interval_table(b, b.models.iter(), columns, options))
}

/// The columns of the confidence bootstrap table (SPEC §8.5: ece, brier,
/// auroc, aurc), as [`BOOTSTRAP_COLUMNS`]; only `confidence.aurc` is
/// tested between models (a smaller value is better).
pub const BOOTSTRAP_CONFIDENCE_COLUMNS: [(&str, &str, &str); 4] = [
    ("confidence.ece", "ECE", "ECE"),
    ("confidence.brier", "Brier", "Brier"),
    ("confidence.auroc", "AUROC", "AUROC"),
    ("confidence.aurc", "AURC", "AURC"),
];

/// The confidence scores' bootstrap table of the Markdown and LaTeX
/// exports, when the report has a bootstrap and some model has confidence
/// pairs: one row per such model, cells and marks as [`bootstrap_table`]'s
/// (the mark on AURC meaning significantly above the lowest).
pub fn bootstrap_confidence_table(
    report: &Report,
    options: &ExportOptions,
) -> Option<BootstrapTable> {
    let b = report.bootstrap.as_ref()?;
    let models: Vec<_> = b.models.iter().filter(|m| m.confidence.is_some()).collect();
    if models.is_empty() {
        return None;
    }
    let columns = BOOTSTRAP_CONFIDENCE_COLUMNS.to_vec();
    Some(interval_table(b, models.into_iter(), columns, options))
}

/// The rows of `models` under `columns`: "estimate [low, high]" (`None`
/// where the model has no such interval) and the marks of
/// [`BootstrapReport::below_best`].
///
/// [`BootstrapReport::below_best`]: crate::eval::bootstrap::BootstrapReport::below_best
fn interval_table<'b>(
    b: &'b crate::eval::bootstrap::BootstrapReport,
    models: impl Iterator<Item = &'b crate::eval::bootstrap::ModelIntervals>,
    columns: Vec<(&'static str, &'static str, &'static str)>,
    options: &ExportOptions,
) -> BootstrapTable {
    let cell = |i: &crate::eval::bootstrap::Interval| {
        let f = |x: f64| Number::Ratio(x).format(options);
        format!("{} [{}, {}]", f(i.estimate), f(i.low), f(i.high))
    };
    let rows = models
        .map(|m| {
            (
                m.name.clone(),
                columns
                    .iter()
                    .map(|(metric, _, _)| m.get(metric).map(cell))
                    .collect(),
                columns
                    .iter()
                    .map(|(metric, _, _)| b.below_best(metric, &m.name))
                    .collect(),
            )
        })
        .collect();
    BootstrapTable {
        resamples: b.resamples,
        seed: b.seed,
        level: b.level,
        alpha: b.alpha,
        documents: b.documents,
        columns,
        rows,
    }
}

/// The caption of the bootstrap table (plain text; the LaTeX exporter
/// writes its own with the same words).
pub fn bootstrap_caption(t: &BootstrapTable) -> String {
    format!(
        "{:.0} % bootstrap intervals, [low, high] after each estimate ({} resamples of the {} documents, seed {}; percentile method). † = significantly below the best model's score in that column (paired bootstrap test, two-sided, Holm-adjusted over the model pairs, α = {}).",
        t.level * 100.0,
        t.resamples,
        t.documents,
        t.seed,
        t.alpha
    )
}

/// The caption of the confidence bootstrap table (plain text; the LaTeX
/// exporter writes its own with the same words).
pub fn bootstrap_confidence_caption(t: &BootstrapTable) -> String {
    format!(
        "{:.0} % bootstrap intervals of the confidence scores (SPEC §8.3), [low, high] after each estimate ({} resamples of the {} documents, seed {}; percentile method; a resample whose drawn values leave a score undefined — no confidence, or AUROC with every value right or every one wrong — is left out of that score's interval). ECE, Brier and AURC: lower is better. † = AURC significantly above the lowest model's (paired bootstrap test, two-sided, Holm-adjusted over the model pairs, α = {}).",
        t.level * 100.0,
        t.resamples,
        t.documents,
        t.seed,
        t.alpha
    )
}

pub use crate::escape::{is_hidden, show_hidden};

#[cfg(test)]
mod tests {
    use super::*;

    /// What the export worker renders from the page's JSON request (the
    /// report without its document details) is what the CLI renders from
    /// the report itself, in every format, the literature metrics included.
    #[test]
    fn a_text_export_sent_as_json_renders_as_the_report_itself() {
        let mut session = crate::session::Session::example();
        session.compute_validity_now();
        let mut report = session.evaluate().unwrap();
        let (input, config) = session.inputs().unwrap();
        let models = input.models.into_iter().map(|m| (m.name, m.file)).collect();
        let (literature, _) = crate::eval::literature::evaluate(
            input.truth,
            models,
            config.id_field.as_deref(),
            crate::eval::literature::Metrics::ALL,
            false,
        )
        .unwrap();
        for (m, l) in report.models.iter_mut().zip(literature) {
            m.literature = Some(l);
        }
        let include = HtmlInclude {
            charts: true,
            inputs: Some(session.to_bundle()),
            types: None,
        };
        let options = ExportOptions::default();
        assert!(report.models.iter().all(|m| m.document_details.is_some()));
        // What the CLI writes without --details.
        let mut plain = report.clone();
        for m in &mut plain.models {
            m.document_details = None;
        }
        for format in Format::ALL {
            let direct = match format {
                Format::Html => render_html(&plain, &options, &include),
                _ => render(&plain, format, &options),
            };
            let request = TextExport::new(format, &report, include.clone());
            assert!(request
                .report
                .models
                .iter()
                .all(|m| m.document_details.is_none()));
            let json = serde_json::to_string(&request).unwrap();
            if format != Format::Json {
                assert_eq!(TextExport::render_json(&json).unwrap(), direct, "{format}");
            }
        }
        assert!(TextExport::render_json("{}")
            .unwrap_err()
            .starts_with("the export request is not readable: "));
        let unknown = TextExport {
            format: "docx".into(),
            report,
            include: HtmlInclude::default(),
        };
        assert_eq!(
            TextExport::render_json(&serde_json::to_string(&unknown).unwrap()).unwrap_err(),
            "unknown format `docx`; expected one of: json, markdown, latex, csv, html"
        );
    }

    fn f(number: Number) -> String {
        number.format(&ExportOptions::default())
    }

    #[test]
    fn ratio_has_fixed_decimals() {
        assert_eq!(f(Number::Ratio(0.666666)), "0.6667");
        assert_eq!(f(Number::Ratio(2.0 / 3.0)), "0.6667");
        assert_eq!(f(Number::Ratio(1.0)), "1.0000");
        assert_eq!(f(Number::Ratio(0.0)), "0.0000");
        assert_eq!(f(Number::Ratio(6.0 / 11.0)), "0.5455");
        let two = ExportOptions { decimals: 2 };
        assert_eq!(Number::Ratio(0.125).format(&two), "0.12"); // ties to even on the exact value
        assert_eq!(
            Number::Ratio(0.5).format(&ExportOptions { decimals: 0 }),
            "0"
        );
    }

    #[test]
    fn ratio_never_prints_negative_zero() {
        assert_eq!(f(Number::Ratio(-0.0)), "0.0000");
        assert_eq!(f(Number::Ratio(-0.00001)), "0.0000");
        assert_eq!(f(Number::Ratio(-0.5)), "-0.5000");
    }

    #[test]
    fn credit_is_trimmed_but_keeps_one_decimal() {
        assert_eq!(f(Number::Credit(12.5)), "12.5");
        assert_eq!(f(Number::Credit(12.0)), "12.0");
        assert_eq!(f(Number::Credit(0.0)), "0.0");
        assert_eq!(f(Number::Credit(1234.25)), "1234.25");
        assert_eq!(
            Number::Credit(12.5).format(&ExportOptions { decimals: 0 }),
            "12.5"
        );
    }

    #[test]
    fn count_is_an_integer() {
        assert_eq!(f(Number::Count(0)), "0");
        assert_eq!(f(Number::Count(12345)), "12345");
    }

    #[test]
    fn cost_has_at_most_four_decimals_trimmed() {
        assert_eq!(f(Number::Cost(0.0123)), "0.0123");
        assert_eq!(f(Number::Cost(1.5)), "1.5");
        assert_eq!(f(Number::Cost(2.0)), "2.0");
        assert_eq!(f(Number::Cost(0.0)), "0.0");
        assert_eq!(f(Number::Cost(0.123456)), "0.1235");
        // Decimals of the ratios do not change the cost.
        assert_eq!(
            Number::Cost(0.0123).format(&ExportOptions { decimals: 2 }),
            "0.0123"
        );
    }

    #[test]
    fn tiny_cost_gets_two_significant_digits() {
        assert_eq!(f(Number::Cost(0.00004)), "0.00004");
        assert_eq!(f(Number::Cost(0.000041234)), "0.000041");
        assert_eq!(f(Number::Cost(0.0000001)), "0.0000001");
        // 0.00005 rounds to 0.0001 at four decimals: no fallback needed.
        assert_eq!(f(Number::Cost(0.00006)), "0.0001");
    }

    #[test]
    fn non_finite_numbers_print_as_rust_does() {
        assert_eq!(f(Number::Ratio(f64::NAN)), "NaN");
        assert_eq!(f(Number::Credit(f64::INFINITY)), "inf");
        assert_eq!(f(Number::Cost(f64::NEG_INFINITY)), "-inf");
    }

    #[test]
    fn best_of_marks_highest_and_all_ties() {
        let values = [Some(0.5), Some(0.8), Some(0.8), Some(0.1)];
        assert_eq!(best_of(&values, Best::Highest), [false, true, true, false]);
        assert_eq!(best_of(&values, Best::Lowest), [false, false, false, true]);
    }

    #[test]
    fn best_of_all_equal_marks_all() {
        assert_eq!(
            best_of(&[Some(1.0), Some(1.0)], Best::Highest),
            [true, true]
        );
    }

    #[test]
    fn best_of_skips_missing_and_needs_two_values() {
        assert_eq!(best_of(&[Some(0.3)], Best::Highest), [false]);
        assert_eq!(best_of(&[], Best::Highest), Vec::<bool>::new());
        assert_eq!(
            best_of(&[None, Some(2.0), None], Best::Lowest),
            [false, false, false]
        );
        assert_eq!(
            best_of(&[None, Some(2.0), Some(1.5)], Best::Lowest),
            [false, false, true]
        );
        assert_eq!(
            best_of(&[Some(f64::NAN), Some(0.2), Some(0.1)], Best::Highest),
            [false, true, false]
        );
    }

    #[test]
    fn best_of_printed_values_ties_what_reads_the_same() {
        let options = ExportOptions::default();
        let printed: Vec<Option<f64>> = [0.66671, 0.66669, 0.5]
            .iter()
            .map(|&x| Number::Ratio(x).format(&options).parse().ok())
            .collect();
        assert_eq!(best_of(&printed, Best::Highest), [true, true, false]);
    }

    #[test]
    fn format_names_round_trip() {
        for format in Format::ALL {
            assert_eq!(format.name().parse::<Format>().unwrap(), format);
            assert_eq!(format.to_string(), format.name());
        }
        assert_eq!(" LaTeX ".parse::<Format>().unwrap(), Format::Latex);
    }

    #[test]
    fn unknown_format_lists_accepted_names() {
        let err = "html5".parse::<Format>().unwrap_err();
        assert_eq!(err.kind, ErrorKind::Usage);
        assert_eq!(
            err.to_string(),
            "unknown format `html5`; expected one of: json, markdown, latex, csv, html"
        );
    }
}
