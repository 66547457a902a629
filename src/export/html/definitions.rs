//! The closing sections: the definitions of every metric the page shows
//! and the effective configuration, flattened to dotted keys.
//!
//! Owns: the definitions' wording (SPEC's formulas in words and symbols).
//! May depend on `table`, `export`'s shared rules and the report.

use super::table::{open_section, LONG_TABLE};
use crate::escape::html as escape;
use crate::eval::rates::RATES;
use crate::eval::report::Report;
use crate::export::{convention_clause, json_number, MacroF1};
use serde_json::Value;

pub(super) fn push_definitions(out: &mut String, report: &Report) {
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

pub(super) fn push_configuration(out: &mut String, report: &Report) {
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
pub(super) fn flatten(prefix: &str, value: &Value, rows: &mut Vec<(String, String)>) {
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
