//! Markdown export: the two tables of M4 as GitHub-flavoured Markdown.
//!
//! Owns: the Markdown layout — the model comparison table (macro over
//! documents, with M_total, |Pred|, |Truth| and cost), the micro table, a
//! one-line caption before each saying exactly which average it shows, and
//! the literature's metrics when the report has them (ANLS\*, nTED, Donut
//! F1: one more caption and table), the suspected truth errors
//! (`super::audit`, when there are any), the report's warnings under a
//! "Warnings" heading, then SPEC §7.4's suggestions when there are some
//! (`super::suggestions`) — and [`escape`], the
//! one escaper for untrusted text. Numbers are printed by
//! `Number::format` (in `mod.rs`) and never escaped.
//!
//! Depends on: `crate::eval::report` only.

use super::{
    convention_clause, documents_phrase, literature_columns, literature_sentence, ExportOptions,
    LiteratureColumn, MacroF1, Number,
};
pub use crate::escape::markdown as escape;
use crate::eval::report::{ModelReport, Report};

/// What a missing cost reads as.
const NO_COST: &str = "—";

/// The report as Markdown: caption, comparison table, caption, micro
/// table, then the warnings if any. Ends with a newline.
pub fn render(report: &Report, options: &ExportOptions) -> String {
    let mut out = String::new();

    out.push_str(&comparison_caption(report));
    out.push_str("\n\n");
    out.push_str(
        "| Model | M_total | \\|Pred\\| | \\|Truth\\| | Precision | Recall | F1 | Cost |\n",
    );
    out.push_str("| :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for model in &report.models {
        push_row(&mut out, &comparison_cells(model, options));
    }

    out.push('\n');
    out.push_str(&micro_caption(report));
    out.push_str("\n\n");
    out.push_str("| Model | Precision | Recall | F1 | Accuracy |\n");
    out.push_str("| :--- | ---: | ---: | ---: | ---: |\n");
    for model in &report.models {
        push_row(&mut out, &micro_cells(model, options));
    }

    if let Some(sentence) = super::weighted_sentence(report) {
        out.push('\n');
        out.push_str(&escape(&sentence));
        out.push_str("\n\n| Model | Precision | Recall | F1 | Accuracy |\n");
        out.push_str("| :--- | ---: | ---: | ---: | ---: |\n");
        for model in &report.models {
            let mut cells = vec![escape(&model.name)];
            for (_, _, score) in super::WEIGHTED_COLUMNS {
                cells.push(match &model.weighted_fields {
                    Some(s) => Number::Ratio(score(s)).format(options),
                    None => NO_COST.to_string(),
                });
            }
            push_row(&mut out, &cells);
        }
    }

    if let Some(t) = super::bootstrap_table(report, options) {
        push_bootstrap(&mut out, &t, &super::bootstrap_caption(&t));
    }

    if let Some(columns) = literature_columns(report) {
        out.push('\n');
        out.push_str(&literature_caption(report, &columns));
        out.push_str("\n\n| Model |");
        for (name, _) in &columns {
            out.push_str(&format!(" {} |", name.replace('*', "\\*")));
        }
        out.push_str("\n| :--- |");
        out.push_str(&" ---: |".repeat(columns.len()));
        out.push('\n');
        for model in &report.models {
            let mut cells = vec![escape(&model.name)];
            for (_, get) in &columns {
                cells.push(match model.literature.as_ref().and_then(get).flatten() {
                    Some(x) => Number::Ratio(x).format(options),
                    None => NO_COST.to_string(),
                });
            }
            push_row(&mut out, &cells);
        }
    }

    if let Some(rows) = super::confidence::model_rows(report, options) {
        out.push('\n');
        out.push_str(&escape(&super::confidence::caption(report)));
        out.push_str("\n\n| Model |");
        for (header, _, _) in &super::confidence::COLUMNS {
            out.push_str(&format!(" {} |", escape(header)));
        }
        out.push_str("\n| :--- |");
        out.push_str(&" ---: |".repeat(super::confidence::COLUMNS.len()));
        out.push('\n');
        let dash = |c: &Option<String>| c.clone().unwrap_or_else(|| NO_COST.to_string());
        for (name, cells) in &rows {
            let mut row = vec![escape(name)];
            row.extend(cells.iter().map(dash));
            push_row(&mut out, &row);
        }
        if let Some(t) = super::bootstrap_confidence_table(report, options) {
            push_bootstrap(&mut out, &t, &super::bootstrap_confidence_caption(&t));
        }
        let fields = super::confidence::field_rows(report, options);
        if !fields.is_empty() {
            out.push('\n');
            out.push_str(&escape(super::confidence::FIELD_CAPTION));
            out.push_str("\n\n| Model | Field |");
            for (header, _) in &super::confidence::FIELD_HEADERS {
                out.push_str(&format!(" {} |", escape(header)));
            }
            out.push_str("\n| :--- | :--- |");
            out.push_str(&" ---: |".repeat(super::confidence::FIELD_HEADERS.len()));
            out.push('\n');
            for (name, field, cells) in &fields {
                let mut row = vec![escape(name), escape(field)];
                row.extend(cells.iter().map(dash));
                push_row(&mut out, &row);
            }
        }
    }

    super::audit::push_markdown(&mut out, report, options);
    push_errors(&mut out, report, options);
    if let Some(slices) = &report.slices {
        push_slices(&mut out, report, slices, options);
    }

    if !report.warnings.is_empty() {
        out.push_str("\n## Warnings\n\n");
        for warning in &report.warnings {
            out.push_str("- ");
            out.push_str(&escape(warning));
            out.push('\n');
        }
    }
    super::suggestions::push_markdown(&mut out, report);
    out
}

/// The error-type tables (SPEC §9.1): per model, and per model and field
/// when the report has document details.
fn push_errors(out: &mut String, report: &Report, options: &ExportOptions) {
    use super::errors::{caption, field_rows, model_rows, COLUMNS, FIELD_CAPTION};
    let headers: String = COLUMNS.iter().map(|(h, _, _)| format!(" {h} |")).collect();
    let rules = " ---: |".repeat(COLUMNS.len());
    out.push('\n');
    out.push_str(&escape(&caption(report)));
    out.push_str(&format!("\n\n| Model |{headers}\n| :--- |{rules}\n"));
    for (name, cells) in model_rows(report, options) {
        let mut row = vec![escape(&name)];
        row.extend(cells);
        push_row(out, &row);
    }
    if let Some(rows) = field_rows(report, options) {
        out.push('\n');
        out.push_str(&escape(FIELD_CAPTION));
        out.push_str(&format!(
            "\n\n| Model | Field |{headers}\n| :--- | :--- |{rules}\n"
        ));
        for (name, field, cells) in rows {
            let mut row = vec![escape(&name), escape(&field)];
            row.extend(cells);
            push_row(out, &row);
        }
    }
}

/// A bootstrap table: its caption, then per model "estimate [low, high]"
/// with † when significantly worse than the best (— where the model has
/// no such score).
fn push_bootstrap(out: &mut String, t: &super::BootstrapTable, caption: &str) {
    out.push('\n');
    out.push_str(caption);
    out.push_str("\n\n| Model |");
    for (_, header, _) in &t.columns {
        out.push_str(&format!(" {header} |"));
    }
    out.push_str("\n| :--- |");
    out.push_str(&" ---: |".repeat(t.columns.len()));
    out.push('\n');
    for (name, cells, below) in &t.rows {
        let mut row = vec![escape(name)];
        for (cell, &below) in cells.iter().zip(below) {
            row.push(match cell {
                Some(c) => format!("{c}{}", if below { " †" } else { "" }),
                None => "—".to_string(),
            });
        }
        push_row(out, &row);
    }
}

/// A row of the comparison table: macro over documents (M4).
fn comparison_cells(model: &ModelReport, options: &ExportOptions) -> [String; 8] {
    let cost = match model.cost {
        Some(cost) => Number::Cost(cost).format(options),
        None => NO_COST.to_string(),
    };
    [
        escape(&model.name),
        Number::Credit(model.m_total).format(options),
        Number::Count(model.pred_count).format(options),
        Number::Count(model.truth_count).format(options),
        Number::Ratio(model.macro_documents.precision).format(options),
        Number::Ratio(model.macro_documents.recall).format(options),
        Number::Ratio(model.macro_documents.f1).format(options),
        cost,
    ]
}

/// A row of the micro table.
fn micro_cells(model: &ModelReport, options: &ExportOptions) -> [String; 5] {
    [
        escape(&model.name),
        Number::Ratio(model.micro.precision).format(options),
        Number::Ratio(model.micro.recall).format(options),
        Number::Ratio(model.micro.f1).format(options),
        Number::Ratio(model.micro.accuracy).format(options),
    ]
}

/// SPEC §9.2: each model's weak slices (`export::slices`' columns), or a
/// sentence saying there is none.
fn push_slices(
    out: &mut String,
    report: &Report,
    slices: &crate::eval::report::SlicesReport,
    options: &ExportOptions,
) {
    use super::slices::{caption, none_weak, weak_rows, COLUMNS};
    out.push('\n');
    out.push_str(&caption(report, slices, escape, |c| format!("`{c}`")));
    out.push('\n');
    let dash = |c: &Option<String>| c.as_deref().map_or_else(|| NO_COST.to_string(), escape);
    for model in &slices.models {
        let rows = weak_rows(model, options);
        out.push('\n');
        if rows.is_empty() {
            out.push_str(&escape(&none_weak(model)));
            out.push('\n');
            continue;
        }
        out.push_str(&format!("Weak slices of {}:\n\n|", escape(&model.name)));
        for (header, _, _, _) in &COLUMNS {
            out.push_str(&format!(" {} |", escape(header)));
        }
        out.push_str("\n| :--- | :--- |");
        out.push_str(&" ---: |".repeat(COLUMNS.len() - 2));
        out.push('\n');
        for cells in &rows {
            let row: Vec<String> = cells.iter().map(dash).collect();
            push_row(out, &row);
        }
    }
}

fn push_row(out: &mut String, cells: &[String]) {
    out.push('|');
    for cell in cells {
        out.push(' ');
        out.push_str(cell);
        out.push_str(" |");
    }
    out.push('\n');
}

fn comparison_caption(report: &Report) -> String {
    let f1 = match report.config.macro_f1 {
        MacroF1::Harmonic => "F1 is the harmonic mean of macro precision and recall",
        MacroF1::Mean => "F1 is the mean of per-document F1",
    };
    format!(
        "Model comparison on {} (precision, recall and F1 macro-averaged over documents; {f1}; \
         strict matching: a partial match counts as wrong{}; \
         M_total = exact + 0.5 × partial; \\|Pred\\| and \\|Truth\\| count predicted and true values).",
        documents_phrase(report),
        convention_clause(report),
    )
}

fn micro_caption(report: &Report) -> String {
    format!(
        "Micro averages on {} (counts pooled over all documents and fields, then each score \
         computed once; strict matching{}; accuracy also counts true negatives, so it can rank \
         models differently from F1).",
        documents_phrase(report),
        convention_clause(report),
    )
}

/// The caption of the literature table (only when `--metrics` asked).
fn literature_caption(report: &Report, columns: &[LiteratureColumn]) -> String {
    format!(
        "The literature's metrics on {}, computed as their reference implementations do \
         (not part of SPEC.md; — where undefined): {}",
        documents_phrase(report),
        literature_sentence(columns).replace('*', "\\*")
    )
}

#[cfg(test)]
mod tests {
    use super::escape;
    use proptest::prelude::*;

    /// Reads escaped text back as a Markdown renderer would show it,
    /// accepting only what [`escape`] may write: `None` when a
    /// metacharacter is left bare, a control character remains, or the
    /// text could open a block.
    fn unescape(text: &str) -> Option<String> {
        let bare_start = text.starts_with(['#', '+', '-', '=', '>'])
            || text
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .strip_prefix(['.', ')'])
                .is_some_and(|rest| {
                    text.starts_with(|c: char| c.is_ascii_digit())
                        && (rest.is_empty() || rest.starts_with(' '))
                });
        if bare_start || text.starts_with(' ') || text.ends_with(' ') {
            return None;
        }
        let mut out = String::new();
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            let after = &rest[c.len_utf8()..];
            if let Some(tail) = rest.strip_prefix("&amp;") {
                out.push('&');
                rest = tail;
            } else if c == '\\' {
                let next = after.chars().next()?;
                if !"\\`*_[]|~$#+-=.)<>".contains(next) {
                    return None;
                }
                out.push(next);
                rest = &after[next.len_utf8()..];
            } else if "`*_[]|~$".contains(c)
                || c.is_control()
                || (c == '<' && crate::escape::opens_html(after))
                || (c == '&' && crate::escape::forms_reference(after))
            {
                return None;
            } else {
                out.push(c);
                rest = after;
            }
        }
        Some(out)
    }

    fn expected(text: &str) -> String {
        super::super::show_hidden(text).trim().to_string()
    }

    proptest! {
        #[test]
        fn escaped_text_is_inert_and_reads_back(
            text in prop_oneof![
                any::<String>(),
                "[\\\\`*_\\[\\]|~$<>&#+=.)(!?/;:a-z0-9 \t\r\n\u{0}é-]{0,40}",
            ]
        ) {
            prop_assert_eq!(unescape(&escape(&text)), Some(expected(&text)));
        }
    }

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(escape("gpt-4o mini (2024)"), "gpt-4o mini (2024)");
        assert_eq!(escape("Señor modèle 模型"), "Señor modèle 模型");
    }

    #[test]
    fn pipes_and_inline_markup_are_backslashed() {
        assert_eq!(escape("a|b"), "a\\|b");
        assert_eq!(
            escape("*bold* _it_ `code`"),
            "\\*bold\\* \\_it\\_ \\`code\\`"
        );
        assert_eq!(escape("[x](http://e)"), "\\[x\\](http://e)");
        assert_eq!(
            escape("~~gone~~ $x$ a\\b"),
            "\\~\\~gone\\~\\~ \\$x\\$ a\\\\b"
        );
    }

    #[test]
    fn html_is_inert_and_readable() {
        // A `<` that could open a tag gets a backslash; `>` and a lone `&`
        // stay; an `&` forming a reference becomes `&amp;`.
        assert_eq!(
            escape("<script>alert('x')</script> & &amp;"),
            "\\<script>alert('x')\\</script> & &amp;amp;"
        );
        assert_eq!(escape("<good>"), "\\<good>");
        assert_eq!(escape("a < b, <3, 2 > 1"), "a < b, <3, 2 > 1");
        assert_eq!(
            escape("<!-- x --> <?php <https://e.org> </b>"),
            "\\<!-- x --> \\<?php \\<https://e.org> \\</b>"
        );
        assert_eq!(
            escape("AT&T &#38; &#x26; &copy; &# &x;y &;"),
            "AT&T &amp;#38; &amp;#x26; &amp;copy; &# &amp;x;y &;"
        );
        assert_eq!(escape("&#12345678;"), "&#12345678;");
        assert_eq!(escape("> quote"), "\\> quote");
    }

    #[test]
    fn newlines_and_controls_become_spaces() {
        assert_eq!(
            escape("line one\nline two\r\n\tend\u{0}"),
            "line one line two   end\\[U+0000\\]"
        );
        assert_eq!(escape("a\u{2066}b\u{2069}"), "a\\[U+2066\\]b\\[U+2069\\]");
        assert_eq!(escape("\n  padded  \n"), "padded");
    }

    #[test]
    fn leading_block_markers_are_backslashed() {
        assert_eq!(escape("# heading"), "\\# heading");
        assert_eq!(escape("- item"), "\\- item");
        assert_eq!(escape("+ item"), "\\+ item");
        assert_eq!(escape("=cmd()"), "\\=cmd()");
        assert_eq!(escape("12. item"), "12\\. item");
        assert_eq!(escape("3) item"), "3\\) item");
        assert_eq!(escape("\n- after newline"), "\\- after newline");
        // Only at the start.
        assert_eq!(escape("a-b #1 = 2. x"), "a-b #1 = 2. x");
        assert_eq!(escape("2.5 points"), "2.5 points");
        assert_eq!(escape("7."), "7\\.");
        assert_eq!(escape("v2.5"), "v2.5");
    }
}
