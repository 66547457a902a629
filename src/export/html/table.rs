//! The building blocks every section uses: a section's opening, a table
//! of named rows and ranked columns ([`Column`], [`push_table`]), cells of
//! ratios and rates, and untrusted text in `<code>` or `<bdi>`.
//!
//! Owns: table markup (the best value of a column in `<strong>`, long
//! tables allowed to break across printed pages). May depend on
//! `export`'s number rules and the report; never on a section.

use crate::escape::html as escape;
use crate::eval::rates::Rate;
use crate::eval::report::{Counts, ModelReport, Report};
use crate::export::{best_of, Best, ExportOptions, Number};

/// Tables with more rows than this may break across printed pages (between
/// rows, the header repeated); shorter ones are kept on one page.
pub(super) const LONG_TABLE: usize = 20;

/// What a missing value (`null`: not applicable) reads as.
pub(super) const NONE: &str = "—";

/// A configured value in `<code>`, escaped.
pub(super) fn code(text: &str) -> String {
    format!("<code>{}</code>", escape(text))
}

/// One column of a table: the header (HTML), the printed cells and, for a
/// ranked column, which end is best.
pub(super) struct Column {
    pub(super) header: String,
    pub(super) cells: Vec<String>,
    pub(super) best: Option<Best>,
}

impl Column {
    pub(super) fn new(header: impl Into<String>, cells: Vec<String>) -> Self {
        Column {
            header: header.into(),
            cells,
            best: None,
        }
    }

    pub(super) fn best(mut self, best: Best) -> Self {
        self.best = Some(best);
        self
    }

    pub(super) fn unranked(mut self) -> Self {
        self.best = None;
        self
    }

    /// The cells, the best in `<strong>`. Ranks the values as printed, so
    /// cells that read the same tie; a cell that is not a number (`—`) is
    /// not ranked, and one row has no winner.
    pub(super) fn finish(self) -> (String, Vec<String>) {
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

pub(super) fn cells<T>(rows: &[T], cell: impl Fn(&T) -> String) -> Vec<String> {
    rows.iter().map(cell).collect()
}

/// A column of ratios, highest best.
pub(super) fn ratio_column(
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
pub(super) fn rate_column(rate: &Rate, models: &[ModelReport], options: &ExportOptions) -> Column {
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
pub(super) fn optional_ratio_column(
    header: &'static str,
    models: &[ModelReport],
    options: &ExportOptions,
    get: fn(&ModelReport) -> Option<f64>,
) -> Column {
    Column::new(header, cells(models, |m| optional_ratio(get(m), options))).best(Best::Highest)
}

pub(super) fn optional_ratio(x: Option<f64>, options: &ExportOptions) -> String {
    x.map_or_else(|| NONE.to_string(), |x| Number::Ratio(x).format(options))
}

pub(super) fn model_names(report: &Report) -> Vec<String> {
    report.models.iter().map(|m| escape(&m.name)).collect()
}

pub(super) fn open_section(out: &mut String, id: &str, heading: &str, major: bool) {
    let class = if major { " class=\"major\"" } else { "" };
    out.push_str(&format!(
        "<section id=\"{id}\"{class}>\n<h2>{heading}</h2>\n"
    ));
}

/// Appends a table: `caption` (HTML), a header row, and one row per name
/// (escaped HTML) with the columns' cells. No rows: a short note instead
/// ("No models.", "No fields.").
pub(super) fn push_table(
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

/// Untrusted text in running prose, isolated from the text around it so a
/// right-to-left name cannot reorder the sentence.
pub(super) fn bdi(text: &str) -> String {
    format!("<bdi>{}</bdi>", escape(text))
}

/// N = |Truth| + SPU + TN: every outcome of the model.
pub(super) fn outcomes(c: &Counts) -> u64 {
    c.exact + c.partial + c.incorrect + c.missed + c.spurious + c.true_negative
}
