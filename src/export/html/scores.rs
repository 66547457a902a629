//! The model-level sections: the model comparison, the micro averages
//! with the declared rates, the accuracy paradox, the bootstrap
//! intervals, the literature's metrics, macro and weighted over fields,
//! and the document-level scores.
//!
//! Owns: those sections' tables and captions. May depend on `table`,
//! `export`'s shared rules and the report.

use super::table::{
    bdi, cells, model_names, open_section, optional_ratio, optional_ratio_column, outcomes,
    push_table, rate_column, ratio_column, Column, NONE,
};
use crate::escape::html as escape;
use crate::eval::rates::{HALLUCINATION_RATE, RATES};
use crate::eval::report::Report;
use crate::export::{
    bootstrap_caption, bootstrap_table, convention_clause, documents_phrase, literature_columns,
    literature_sentence, Best, ExportOptions, MacroF1, Number,
};

pub(super) fn push_comparison(out: &mut String, report: &Report, options: &ExportOptions) {
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

pub(super) fn push_micro(out: &mut String, report: &Report, options: &ExportOptions) {
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
pub(super) fn push_bootstrap(out: &mut String, report: &Report, options: &ExportOptions) {
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
pub(super) fn push_literature(out: &mut String, report: &Report, options: &ExportOptions) {
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
pub(super) fn push_weighted_fields(out: &mut String, report: &Report, options: &ExportOptions) {
    let Some(sentence) = crate::export::weighted_sentence(report) else {
        return;
    };
    open_section(out, "weighted-fields", "Weighted over fields", false);
    let mut caption = escape(&sentence);
    if report.models.len() > 1 {
        caption.push_str(" Bold: the best value of each column.");
    }
    let columns = crate::export::WEIGHTED_COLUMNS
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
pub(super) fn paradox_pair(report: &Report, options: &ExportOptions) -> Option<(usize, usize)> {
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

pub(super) fn push_paradox(out: &mut String, report: &Report, options: &ExportOptions) {
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

pub(super) fn push_macro_fields(out: &mut String, report: &Report, options: &ExportOptions) {
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

pub(super) fn push_document_scores(out: &mut String, report: &Report, options: &ExportOptions) {
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
