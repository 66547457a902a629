//! Sweep export: a [`Sweep`] (F1 and accuracy per model as one threshold
//! varies) as JSON, Markdown, CSV or LaTeX.
//!
//! Owns: the sweep table's layout — one row per model × threshold with
//! micro F1, micro accuracy, F1 macro over documents and, when any model
//! has line items, item F1 and item-count accuracy — and its caption
//! ([`caption`]), which names the key, the method and the averages. Each
//! format uses its sibling's escaper (`markdown::escape`, `latex::escape`,
//! `csv::neutralise`) for model names and the table formatter `Number` for
//! ratios; JSON and CSV carry full precision.
//!
//! Depends on: `crate::eval::sweep` (plain data) and the sibling
//! exporters' escapers. No I/O.

use super::{csv::neutralise, latex, markdown, ExportOptions, Format, Number};
use crate::error::{Error, ErrorKind};
use crate::eval::sweep::{Sweep, SweepParam, SweepPoint};

/// The sweep in `format`. HTML is not a sweep format (a usage error).
pub fn render(sweep: &Sweep, format: Format, options: &ExportOptions) -> Result<String, Error> {
    match format {
        Format::Json => Ok(json(sweep)),
        Format::Markdown => Ok(markdown(sweep, options)),
        Format::Latex => Ok(latex(sweep, options)),
        Format::Csv => Ok(csv(sweep)),
        Format::Html => Err(Error::new(
            ErrorKind::Usage,
            "a sweep is written as json, markdown, csv or latex, not html",
        )),
    }
}

/// Whether any point has item scores (the item columns are shown then).
fn has_items(sweep: &Sweep) -> bool {
    sweep
        .models
        .iter()
        .flat_map(|m| &m.points)
        .any(|p| p.item_f1.is_some())
}

/// `t` as typed: the shortest text that reads back as the same `f64`.
fn threshold(t: f64) -> String {
    format!("{t}")
}

/// The caption, plain text (each format escapes it): what was swept, the
/// method, the configured value, and exactly which averages the columns
/// are.
pub fn caption(sweep: &Sweep) -> String {
    let docs = match sweep.documents {
        1 => "1 document".to_string(),
        n => format!("{n} documents"),
    };
    let what = match sweep.param {
        SweepParam::Similarity => "a string is exact when its similarity is at least t",
        SweepParam::Cer => "a string is exact when its CER is at most t",
        SweepParam::Item => {
            "an item is recognised when it is matched with item F1 at least t; field scores do not depend on t"
        }
    };
    let macro_f1 = match sweep.config.get("macro_f1").and_then(|v| v.as_str()) {
        Some("mean") => "the mean of per-document F1",
        _ => "the harmonic mean of macro precision and recall",
    };
    let mut text = format!(
        "Threshold sweep on {docs}: {} = t ({what}; string_match.method = {}; every other key as configured; configured t = {}). \
         Micro F1 and accuracy pool the counts over all documents and fields (strict: a partial match counts as wrong; \
         accuracy also counts true negatives); macro-document F1 is {macro_f1}.",
        sweep.key,
        sweep.method_name(),
        threshold(sweep.configured),
    );
    if has_items(sweep) {
        text.push_str(
            " Item F1 and item-count accuracy are the line-item scores of SPEC §3.4 (empty: no item list).",
        );
    }
    text
}

fn json(sweep: &Sweep) -> String {
    let mut out = serde_json::to_string_pretty(sweep).unwrap_or_else(|e| {
        // Only reachable with a non-finite number, which the evaluation
        // never produces; say so instead of panicking.
        format!("{{\"error\": \"the sweep could not be written as JSON: {e}\"}}")
    });
    out.push('\n');
    out
}

/// The column headers after model and threshold, plain.
fn headers(items: bool) -> Vec<&'static str> {
    let mut h = vec!["Micro F1", "Micro accuracy", "Macro-document F1"];
    if items {
        h.extend(["Item F1", "Item-count accuracy"]);
    }
    h
}

fn ratio_cells(p: &SweepPoint, items: bool, options: &ExportOptions, none: &str) -> Vec<String> {
    let r = |x: f64| Number::Ratio(x).format(options);
    let mut cells = vec![r(p.micro_f1), r(p.micro_accuracy), r(p.macro_documents_f1)];
    if items {
        for x in [p.item_f1, p.item_count_accuracy] {
            cells.push(x.map_or_else(|| none.to_string(), r));
        }
    }
    cells
}

fn markdown(sweep: &Sweep, options: &ExportOptions) -> String {
    let items = has_items(sweep);
    let mut out = markdown::escape(&caption(sweep));
    out.push_str("\n\n| Model | t |");
    for h in headers(items) {
        out.push(' ');
        out.push_str(h);
        out.push_str(" |");
    }
    out.push_str("\n| :--- | ---: |");
    for _ in headers(items) {
        out.push_str(" ---: |");
    }
    out.push('\n');
    for m in &sweep.models {
        let name = markdown::escape(&m.model);
        for p in &m.points {
            out.push_str(&format!("| {name} | {} |", threshold(p.threshold)));
            for cell in ratio_cells(p, items, options, "—") {
                out.push(' ');
                out.push_str(&cell);
                out.push_str(" |");
            }
            out.push('\n');
        }
    }
    push_warnings(&mut out, sweep, "\n## Warnings\n\n", "- ", markdown::escape);
    out
}

fn latex(sweep: &Sweep, options: &ExportOptions) -> String {
    let items = has_items(sweep);
    let mut out = String::from("% fieldscope threshold sweep. Needs \\usepackage{booktabs}.\n");
    push_warnings(&mut out, sweep, "", "% Warning: ", latex::escape);
    let cols = headers(items).len();
    out.push_str("\\begin{table}\n\\centering\n");
    out.push_str(&format!(
        "\\caption{{{}}}\n",
        latex::escape(&caption(sweep))
    ));
    out.push_str(&format!(
        "\\label{{tab:fieldscope-sweep-{}}}\n",
        sweep.param.name()
    ));
    out.push_str(&format!(
        "\\begin{{tabular}}{{lr{}}}\n\\toprule\n",
        "r".repeat(cols)
    ));
    out.push_str("Model & $t$");
    for h in headers(items) {
        out.push_str(" & ");
        out.push_str(&h.replace("F1", "$F_1$"));
    }
    out.push_str(" \\\\\n\\midrule\n");
    for (i, m) in sweep.models.iter().enumerate() {
        if i > 0 {
            out.push_str("\\addlinespace\n");
        }
        let name = latex::escape(&m.model);
        for p in &m.points {
            out.push_str(&format!("{name} & {}", threshold(p.threshold)));
            for cell in ratio_cells(p, items, options, "---") {
                out.push_str(" & ");
                out.push_str(&cell);
            }
            out.push_str(" \\\\\n");
        }
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n\\end{table}\n");
    out
}

/// The CSV header.
pub const CSV_HEADER: [&str; 7] = [
    "model",
    "threshold",
    "micro_f1",
    "micro_accuracy",
    "macro_documents_f1",
    "item_f1",
    "item_count_accuracy",
];

/// Full precision, `null` as an empty cell; always all seven columns so
/// the layout does not depend on the data.
fn csv(sweep: &Sweep) -> String {
    let mut writer = ::csv::Writer::from_writer(Vec::new());
    let mut rows: Vec<Vec<String>> = vec![CSV_HEADER.iter().map(|h| h.to_string()).collect()];
    for m in &sweep.models {
        let name = neutralise(&m.model).into_owned();
        for p in &m.points {
            let opt = |x: Option<f64>| x.map_or_else(String::new, |x| format!("{x}"));
            rows.push(vec![
                name.clone(),
                format!("{}", p.threshold),
                format!("{}", p.micro_f1),
                format!("{}", p.micro_accuracy),
                format!("{}", p.macro_documents_f1),
                opt(p.item_f1),
                opt(p.item_count_accuracy),
            ]);
        }
    }
    for row in &rows {
        if let Err(e) = writer.write_record(row) {
            return format!("error: the sweep could not be written as CSV: {e}\n");
        }
    }
    match writer.into_inner() {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => format!("error: the sweep could not be written as CSV: {e}\n"),
    }
}

fn push_warnings(
    out: &mut String,
    sweep: &Sweep,
    heading: &str,
    bullet: &str,
    escape: fn(&str) -> String,
) {
    if sweep.warnings.is_empty() {
        return;
    }
    out.push_str(heading);
    for w in &sweep.warnings {
        out.push_str(bullet);
        out.push_str(&escape(w));
        out.push('\n');
    }
}
