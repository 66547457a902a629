//! LaTeX export: the two tables of M4 as `table` floats holding booktabs
//! `tabular`s, ready to paste into a paper.
//!
//! Owns: the LaTeX layout — the model comparison table (macro over
//! documents, with M_total, |Pred|, |Truth| and cost) and the micro table,
//! each with a `\caption` saying exactly which average it shows, and the
//! literature's metrics when the report has them (one more table); the best
//! value of each ranked column in `\textbf{}`; the report's warnings as `%`
//! comments — and [`escape`], the one escaper for untrusted text. Numbers are
//! printed by `Number::format` (in `mod.rs`) and never escaped.
//!
//! The output compiles in any document that loads `booktabs`
//! (`\usepackage{booktabs}`); with pdfLaTeX, non-ASCII letters in model
//! names need a font that has them (accented Latin letters are fine; CJK or
//! emoji need XeLaTeX/LuaLaTeX or extra packages).
//!
//! Depends on: `crate::eval::report` only.

use super::{
    best_of, convention_clause, documents_phrase, literature_columns, literature_sentence, Best,
    ExportOptions, MacroF1, Number,
};
use crate::eval::report::{ModelReport, Report};

/// What a missing cost reads as (an em dash).
const NO_COST: &str = "---";

/// One column of a table: the printed cells and, for a ranked column,
/// which end is best.
struct Column {
    cells: Vec<String>,
    best: Option<Best>,
}

impl Column {
    /// The cells, the best ones in bold. Ranks the values as printed, so
    /// cells that read the same tie; a cell that is not a number (a missing
    /// cost) is not ranked.
    fn finish(self) -> Vec<String> {
        let Some(best) = self.best else {
            return self.cells;
        };
        let printed: Vec<Option<f64>> = self.cells.iter().map(|cell| cell.parse().ok()).collect();
        let bold = best_of(&printed, best);
        self.cells
            .into_iter()
            .zip(bold)
            .map(|(cell, bold)| {
                if bold {
                    format!("\\textbf{{{cell}}}")
                } else {
                    cell
                }
            })
            .collect()
    }
}

/// The report as LaTeX: warnings as comments, then the comparison table and
/// the micro table. Ends with a newline.
pub fn render(report: &Report, options: &ExportOptions) -> String {
    let models = &report.models;
    let ratio = |get: fn(&ModelReport) -> f64| {
        let cells = models
            .iter()
            .map(|m| Number::Ratio(get(m)).format(options))
            .collect();
        Column {
            cells,
            best: Some(Best::Highest),
        }
    };
    let names: Vec<String> = models.iter().map(|m| escape(&m.name)).collect();
    let several = models.len() > 1;

    let mut out = format!(
        "% fieldscope report on {}. Needs \\usepackage{{booktabs}}.\n",
        documents_phrase(report)
    );
    for warning in &report.warnings {
        out.push_str("% Warning: ");
        out.push_str(&escape(warning));
        out.push('\n');
    }

    // Model comparison (M4).
    let column = |best: Option<Best>, cell: &dyn Fn(&ModelReport) -> String| Column {
        cells: models.iter().map(cell).collect(),
        best,
    };
    let columns = [
        column(Some(Best::Highest), &|m| {
            Number::Credit(m.m_total).format(options)
        }),
        column(None, &|m| Number::Count(m.pred_count).format(options)),
        column(None, &|m| Number::Count(m.truth_count).format(options)),
        ratio(|m| m.macro_documents.precision),
        ratio(|m| m.macro_documents.recall),
        ratio(|m| m.macro_documents.f1),
        column(Some(Best::Lowest), &|m| match m.cost {
            Some(cost) => Number::Cost(cost).format(options),
            None => NO_COST.to_string(),
        }),
    ];
    let f1 = match report.config.macro_f1 {
        MacroF1::Harmonic => "$F_1$ is the harmonic mean of macro precision and recall",
        MacroF1::Mean => "$F_1$ is the mean of per-document $F_1$",
    };
    let mut caption = format!(
        "Model comparison on {} (precision, recall and $F_1$ macro-averaged over documents; \
         {f1}; strict matching: a partial match counts as wrong{}; \
         $M_{{\\mathrm{{total}}}}$ = exact + 0.5 $\\times$ partial; \
         $|\\mathrm{{Pred}}|$ and $|\\mathrm{{Truth}}|$ count predicted and true values).",
        documents_phrase(report),
        convention_clause(report),
    );
    if several {
        caption.push_str(" Bold: the best value of each column (for cost, the lowest).");
    }
    push_table(
        &mut out,
        &caption,
        "tab:fieldscope-comparison",
        "lrrrrrrr",
        "Model & $M_{\\mathrm{total}}$ & $|\\mathrm{Pred}|$ & $|\\mathrm{Truth}|$ & Precision & Recall & $F_1$ & Cost",
        &names,
        columns,
    );

    // Micro averages.
    out.push('\n');
    let columns = [
        ratio(|m| m.micro.precision),
        ratio(|m| m.micro.recall),
        ratio(|m| m.micro.f1),
        ratio(|m| m.micro.accuracy),
    ];
    let mut caption = format!(
        "Micro averages on {} (counts pooled over all documents and fields, then each score \
         computed once; strict matching{}; accuracy also counts true negatives, so it can rank \
         models differently from $F_1$).",
        documents_phrase(report),
        convention_clause(report),
    );
    if several {
        caption.push_str(" Bold: the best value of each column.");
    }
    push_table(
        &mut out,
        &caption,
        "tab:fieldscope-micro",
        "lrrrr",
        "Model & Precision & Recall & $F_1$ & Accuracy",
        &names,
        columns,
    );

    // Bootstrap intervals, when asked for.
    if let Some(t) = super::bootstrap_table(report, options) {
        let caption = format!(
            "{:.0}\\,\\% bootstrap intervals, [low, high] after each estimate ({} resamples of the {} documents, seed {}; percentile method). $^\\dagger$~significantly below the best model's score in that column (paired bootstrap test, two-sided, Holm-adjusted over the model pairs, $\\alpha = {}$).",
            t.level * 100.0,
            t.resamples,
            t.documents,
            t.seed,
            t.alpha
        );
        push_bootstrap(&mut out, &t, &caption, "tab:fieldscope-bootstrap");
    }

    // The weighted macro average over fields, only with `field_weights`.
    if let Some(sentence) = super::weighted_sentence(report) {
        out.push('\n');
        let mut caption = escape(&sentence);
        if several {
            caption.push_str(" Bold: the best value of each column.");
        }
        let columns: Vec<Column> = super::WEIGHTED_COLUMNS
            .iter()
            .map(|(_, _, score)| Column {
                cells: models
                    .iter()
                    .map(|m| match &m.weighted_fields {
                        Some(s) => Number::Ratio(score(s)).format(options),
                        None => NO_COST.to_string(),
                    })
                    .collect(),
                best: Some(Best::Highest),
            })
            .collect();
        push_table(
            &mut out,
            &caption,
            "tab:fieldscope-weighted-fields",
            "lrrrr",
            "Model & Precision & Recall & F1 & Accuracy",
            &names,
            columns,
        );
    }

    // The literature's metrics, only when the report has them.
    if let Some(literature) = literature_columns(report) {
        out.push('\n');
        let header: Vec<String> = literature.iter().map(|(name, _)| escape(name)).collect();
        let mut caption = format!(
            "The literature's metrics on {}, computed as their reference implementations do \
             (not part of SPEC.md; --- where undefined): {}",
            documents_phrase(report),
            escape(&literature_sentence(&literature)),
        );
        if several {
            caption.push_str(" Bold: the best value of each column.");
        }
        let columns: Vec<Column> = literature
            .iter()
            .map(|(_, get)| Column {
                cells: models
                    .iter()
                    .map(|m| match m.literature.as_ref().and_then(get).flatten() {
                        Some(x) => Number::Ratio(x).format(options),
                        None => NO_COST.to_string(),
                    })
                    .collect(),
                best: Some(Best::Highest),
            })
            .collect();
        push_table(
            &mut out,
            &caption,
            "tab:fieldscope-literature",
            &format!("l{}", "r".repeat(columns.len())),
            &format!("Model & {}", header.join(" & ")),
            &names,
            columns,
        );
    }

    // Confidence (SPEC §8), only when some model has confidences.
    if let Some(rows) = super::confidence::model_rows(report, options) {
        out.push('\n');
        let dash = |c: &Option<String>| c.clone().unwrap_or_else(|| NO_COST.to_string());
        let columns: Vec<Column> = (0..super::confidence::COLUMNS.len())
            .map(|i| Column {
                cells: rows.iter().map(|(_, cells)| dash(&cells[i])).collect(),
                best: None,
            })
            .collect();
        let header: Vec<&str> = super::confidence::COLUMNS
            .iter()
            .map(|(_, latex, _)| *latex)
            .collect();
        push_table(
            &mut out,
            &escape(&super::confidence::caption(report)),
            "tab:fieldscope-confidence",
            &format!("l{}", "r".repeat(columns.len())),
            &format!("Model & {}", header.join(" & ")),
            &names,
            columns,
        );
        if let Some(t) = super::bootstrap_confidence_table(report, options) {
            let caption = format!(
                "{:.0}\\,\\% bootstrap intervals of the confidence scores (SPEC \\S 8.3), [low, high] after each estimate ({} resamples of the {} documents, seed {}; percentile method; a resample whose drawn values leave a score undefined --- no confidence, or AUROC with every value right or every one wrong --- is left out of that score's interval). ECE, Brier and AURC: lower is better. $^\\dagger$~AURC significantly above the lowest model's (paired bootstrap test, two-sided, Holm-adjusted over the model pairs, $\\alpha = {}$).",
                t.level * 100.0,
                t.resamples,
                t.documents,
                t.seed,
                t.alpha
            );
            push_bootstrap(
                &mut out,
                &t,
                &caption,
                "tab:fieldscope-bootstrap-confidence",
            );
        }
        let fields = super::confidence::field_rows(report, options);
        if !fields.is_empty() {
            out.push('\n');
            let labels: Vec<String> = fields
                .iter()
                .map(|(model, field, _)| format!("{} & {}", escape(model), escape(field)))
                .collect();
            let columns: Vec<Column> = (0..super::confidence::FIELD_HEADERS.len())
                .map(|i| Column {
                    cells: fields.iter().map(|(_, _, cells)| dash(&cells[i])).collect(),
                    best: None,
                })
                .collect();
            let header: Vec<&str> = super::confidence::FIELD_HEADERS
                .iter()
                .map(|(_, latex)| *latex)
                .collect();
            push_table(
                &mut out,
                &escape(super::confidence::FIELD_CAPTION),
                "tab:fieldscope-confidence-fields",
                &format!("ll{}", "r".repeat(columns.len())),
                &format!("Model & Field & {}", header.join(" & ")),
                &labels,
                columns,
            );
        }
    }

    // Error types (SPEC §9.1).
    push_errors(&mut out, report, options, &names);
    if let Some(slices) = &report.slices {
        push_slices(&mut out, report, slices, options);
    }
    out
}

/// The error-type tables (SPEC §9.1): per model, and per model and field
/// when the report has document details.
fn push_errors(out: &mut String, report: &Report, options: &ExportOptions, names: &[String]) {
    use super::errors::{caption, field_rows, model_rows, COLUMNS, FIELD_CAPTION};
    let header: Vec<&str> = COLUMNS.iter().map(|(_, latex, _)| *latex).collect();
    let columns = |rows: Vec<Vec<String>>| -> Vec<Column> {
        (0..COLUMNS.len())
            .map(|i| Column {
                cells: rows.iter().map(|cells| cells[i].clone()).collect(),
                best: None,
            })
            .collect()
    };
    out.push('\n');
    let rows = model_rows(report, options);
    push_table(
        out,
        &escape(&caption(report)),
        "tab:fieldscope-errors",
        &format!("l{}", "r".repeat(COLUMNS.len())),
        &format!("Model & {}", header.join(" & ")),
        names,
        columns(rows.into_iter().map(|(_, cells)| cells).collect()),
    );
    if let Some(rows) = field_rows(report, options) {
        out.push('\n');
        let labels: Vec<String> = rows
            .iter()
            .map(|(model, field, _)| format!("{} & {}", escape(model), escape(field)))
            .collect();
        push_table(
            out,
            &escape(FIELD_CAPTION),
            "tab:fieldscope-errors-fields",
            &format!("ll{}", "r".repeat(COLUMNS.len())),
            &format!("Model & Field & {}", header.join(" & ")),
            &labels,
            columns(rows.into_iter().map(|(_, _, cells)| cells).collect()),
        );
    }
}

/// SPEC §9.2: a table of each model's weak slices (`export::slices`'
/// columns); a `%` comment for a model without one.
fn push_slices(
    out: &mut String,
    report: &Report,
    slices: &crate::eval::report::SlicesReport,
    options: &ExportOptions,
) {
    use super::slices::{caption, none_weak, weak_rows, COLUMNS};
    let about = caption(report, slices, escape, |c| {
        format!("\\texttt{{{}}}", escape(c))
    });
    for (m, model) in slices.models.iter().enumerate() {
        out.push('\n');
        let rows = weak_rows(model, options);
        if rows.is_empty() {
            out.push_str(&format!("% {}\n", escape(&none_weak(model))));
            continue;
        }
        let cell = |c: &Option<String>| c.as_deref().map_or_else(|| NO_COST.to_string(), escape);
        let names: Vec<String> = rows.iter().map(|r| cell(&r[0])).collect();
        let columns: Vec<Column> = (1..COLUMNS.len())
            .map(|i| Column {
                cells: rows.iter().map(|r| cell(&r[i])).collect(),
                best: None,
            })
            .collect();
        let header: Vec<&str> = COLUMNS.iter().map(|(_, latex, _, _)| *latex).collect();
        push_table(
            out,
            &format!("Weak slices of {}. {about}", escape(&model.name)),
            &format!("tab:fieldscope-slices-{}", m + 1),
            &format!("ll{}", "r".repeat(COLUMNS.len() - 2)),
            &header.join(" & "),
            &names,
            columns,
        );
    }
}

/// A bootstrap table: per model "estimate [low, high]" (the interval in
/// small type after the estimate, so that six columns fit a page) with
/// $^\dagger$ when significantly worse than the best (-- where the model
/// has no such score).
fn push_bootstrap(out: &mut String, t: &super::BootstrapTable, caption: &str, label: &str) {
    out.push('\n');
    let columns: Vec<Column> = (0..t.columns.len())
        .map(|k| Column {
            cells: t
                .rows
                .iter()
                .map(|(_, cells, below)| match &cells[k] {
                    Some(c) => {
                        let (estimate, interval) = c.split_once(' ').unwrap_or((c, ""));
                        format!(
                            "{estimate}{}~{{\\footnotesize {interval}}}",
                            if below[k] { "$^\\dagger$" } else { "" }
                        )
                    }
                    None => "--".to_string(),
                })
                .collect(),
            best: None,
        })
        .collect();
    let names: Vec<String> = t.rows.iter().map(|(n, _, _)| escape(n)).collect();
    let header: Vec<&str> = std::iter::once("Model")
        .chain(t.columns.iter().map(|(_, _, tex)| *tex))
        .collect();
    push_table(
        out,
        caption,
        label,
        &format!("l{}", "r".repeat(t.columns.len())),
        &header.join(" & "),
        &names,
        columns,
    );
}

/// Appends one `table` float: caption, label, booktabs `tabular` with the
/// escaped `names` in the first column and `columns` after it.
fn push_table(
    out: &mut String,
    caption: &str,
    label: &str,
    spec: &str,
    header: &str,
    names: &[String],
    columns: impl IntoIterator<Item = Column>,
) {
    let columns: Vec<_> = columns.into_iter().map(Column::finish).collect();
    out.push_str("\\begin{table}[htbp]\n");
    out.push_str("  \\centering\n");
    out.push_str(&format!("  \\caption{{{caption}}}\n"));
    out.push_str(&format!("  \\label{{{label}}}\n"));
    out.push_str(&format!("  \\begin{{tabular}}{{{spec}}}\n"));
    out.push_str("    \\toprule\n");
    out.push_str(&format!("    {header} \\\\\n"));
    out.push_str("    \\midrule\n");
    for (row, name) in names.iter().enumerate() {
        out.push_str("    ");
        out.push_str(name);
        for column in &columns {
            out.push_str(" & ");
            out.push_str(&column[row]);
        }
        out.push_str(" \\\\\n");
    }
    out.push_str("    \\bottomrule\n");
    out.push_str("  \\end{tabular}\n");
    out.push_str("\\end{table}\n");
}

/// Makes untrusted text safe to typeset literally in a table cell, a
/// caption or a `%` comment:
///
/// * `\` `{` `}` `$` `&` `#` `^` `_` `%` `~` become `\textbackslash{}`,
///   `\{`, `\}`, `\$`, `\&`, `\#`, `\textasciicircum{}`, `\_`, `\%`,
///   `\textasciitilde{}`;
/// * `<` `>` `|` become `\textless{}`, `\textgreater{}`, `\textbar{}` (in
///   the default OT1 encoding the bare characters print as ¡, ¿ and —);
/// * `[` `]` `*` are wrapped in braces, so a cell that starts with one is
///   not taken for the optional argument or star of the `\\` or `\midrule`
///   before it;
/// * a `-` followed by another `-` gets `{}` after it, so `--` stays two
///   hyphens instead of becoming a dash;
/// * whitespace control characters (newline, tab, …) become spaces; other
///   characters that would hide or reorder text (control characters,
///   bidirectional controls, zero-width space) become a visible `[U+202E]`
///   ([`super::show_hidden`]).
pub fn escape(text: &str) -> String {
    // Hidden characters first, so that showing one cannot bring two
    // hyphens together unnoticed.
    let shown = super::show_hidden(text);
    let mut chars = shown.chars().peekable();
    let mut out = String::with_capacity(text.len() + 8);
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\textasciicircum{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '|' => out.push_str("\\textbar{}"),
            '[' | ']' | '*' => {
                out.push('{');
                out.push(c);
                out.push('}');
            }
            '-' if chars.peek() == Some(&'-') => out.push_str("-{}"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;
    use proptest::prelude::*;

    /// Reads escaped text back, accepting only what [`escape`] may write:
    /// `None` when a special character is left bare or a `--` ligature
    /// could form.
    fn unescape(text: &str) -> Option<String> {
        const TOKENS: [(&str, char); 17] = [
            ("\\textbackslash{}", '\\'),
            ("\\textasciicircum{}", '^'),
            ("\\textasciitilde{}", '~'),
            ("\\textless{}", '<'),
            ("\\textgreater{}", '>'),
            ("\\textbar{}", '|'),
            ("\\{", '{'),
            ("\\}", '}'),
            ("\\$", '$'),
            ("\\&", '&'),
            ("\\#", '#'),
            ("\\_", '_'),
            ("\\%", '%'),
            ("{[}", '['),
            ("{]}", ']'),
            ("{*}", '*'),
            ("-{}", '-'),
        ];
        let mut out = String::new();
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            if let Some((token, c)) = TOKENS.iter().find(|(t, _)| rest.starts_with(t)) {
                out.push(*c);
                rest = &rest[token.len()..];
                continue;
            }
            if "\\{}$&#^_%~<>|[]*".contains(c) || c.is_control() || rest.starts_with("--") {
                return None;
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        Some(out)
    }

    fn expected(text: &str) -> String {
        super::super::show_hidden(text).into_owned()
    }

    proptest! {
        #[test]
        fn escaped_text_is_inert_and_reads_back(
            text in prop_oneof![
                any::<String>(),
                "[\\\\{}$&#^_%~<>|\\[\\]*=+@`'\"!.()a-z0-9 \t\r\n\u{0}\u{7f}é-]{0,40}",
            ]
        ) {
            prop_assert_eq!(unescape(&escape(&text)), Some(expected(&text)));
        }
    }

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(escape("gpt-4o mini (v2.5)"), "gpt-4o mini (v2.5)");
        assert_eq!(escape("Señor"), "Señor");
    }

    #[test]
    fn the_ten_specials_are_escaped() {
        assert_eq!(
            escape(r"\ { } $ & # ^ _ % ~"),
            r"\textbackslash{} \{ \} \$ \& \# \textasciicircum{} \_ \% \textasciitilde{}"
        );
    }

    #[test]
    fn commands_cannot_run() {
        assert_eq!(escape(r"\input{x}"), r"\textbackslash{}input\{x\}");
        assert_eq!(escape("^^5c"), r"\textasciicircum{}\textasciicircum{}5c");
    }

    #[test]
    fn characters_ot1_would_misprint_are_spelled_out() {
        assert_eq!(escape("<a|b>"), r"\textless{}a\textbar{}b\textgreater{}");
    }

    #[test]
    fn brackets_and_stars_are_braced() {
        assert_eq!(escape("[base]*"), "{[}base{]}{*}");
    }

    #[test]
    fn double_hyphens_stay_hyphens() {
        assert_eq!(escape("a--b---c-d"), "a-{}-b-{}-{}-c-d");
    }

    #[test]
    fn control_characters_are_spaced_or_shown() {
        assert_eq!(
            escape("a\nb\r\tc\u{0}d\u{7f}e\u{1b}[0m"),
            "a b  c{[}U+0000{]}d{[}U+007F{]}e{[}U+001B{]}{[}0m"
        );
        // Bidirectional overrides and zero-width spaces are shown too.
        assert_eq!(escape("a\u{202E}b\u{200B}c"), "a{[}U+202E{]}b{[}U+200B{]}c");
        // A shown control character keeps two hyphens apart.
        assert_eq!(escape("-\u{0}-"), "-{[}U+0000{]}-");
    }
}
