//! The per-field sections: "Per-field results" (the overview of
//! `export::wide`, then each model's table, collapsed), set fields and
//! line items.
//!
//! Owns: those sections' tables and captions. May depend on `table`,
//! `svg` (the groups' heatmaps), `parts` and `export::wide`.

use super::parts::Parts;
use super::svg::push_figure;
use super::table::{bdi, cells, open_section, optional_ratio, push_table, Column};
use crate::escape::html as escape;
use crate::eval::report::{Counts, ModelReport, Report};
use crate::export::{json_number, Best, ExportOptions, Number};

/// "Per-field results": the overview of `crate::export::wide` (by type, the field
/// matrix, the groups with their heatmaps), then each model's table of
/// counts, scores and CER per field, collapsed.
pub(super) fn push_fields(
    out: &mut String,
    report: &Report,
    options: &ExportOptions,
    parts: &Parts,
) {
    open_section(out, "fields", "Per-field results", true);
    if report.models.is_empty() {
        out.push_str("<p>No models.</p>\n</section>\n");
        return;
    }
    let figures: Vec<String> = parts
        .group_charts
        .iter()
        .enumerate()
        .map(|(i, charts)| {
            let mut s = String::new();
            for (k, chart) in charts.iter().enumerate() {
                push_figure(&mut s, &format!("group-{}-heatmap-{}", i + 1, k + 1), chart);
            }
            s
        })
        .collect();
    let ratio = |x: f64| Number::Ratio(x).format(options);
    crate::export::wide::push_overview(out, report, parts.types, &ratio, &figures);
    out.push_str("<h3 id=\"per-model\">Per model</h3>\n");
    for (index, model) in report.models.iter().enumerate() {
        let n = model.fields.len();
        out.push_str(&format!(
            "<details class=\"model\" id=\"fields-{}\">\n<summary><span class=\"name\">{}</span> \
             <small>counts, scores and CER of its {n} field{}</small></summary>\n",
            index + 1,
            escape(&model.name),
            if n == 1 { "" } else { "s" }
        ));
        let caption = format!(
            "Per-field outcome counts and strict scores of {}. CER is pooled over the field's \
             present truth values (total edits / total reference characters), mean CER is the \
             mean of the per-value CERs; — : not applicable (no present truth value, or a set \
             field).",
            bdi(&model.name)
        );
        let f = &model.fields;
        let count = |get: fn(&Counts) -> u64| cells(f, move |field| get(&field.counts).to_string());
        let ratio = |get: fn(&crate::eval::report::FieldReport) -> f64| {
            cells(f, move |field| Number::Ratio(get(field)).format(options))
        };
        let optional = |get: fn(&crate::eval::report::FieldReport) -> Option<f64>| {
            cells(f, move |field| optional_ratio(get(field), options))
        };
        let columns = vec![
            Column::new("Exact", count(|c| c.exact)),
            Column::new("Partial", count(|c| c.partial)),
            Column::new("Incorrect", count(|c| c.incorrect)),
            Column::new("Missed", count(|c| c.missed)),
            Column::new("Spurious", count(|c| c.spurious)),
            Column::new("True neg.", count(|c| c.true_negative)),
            Column::new("Precision", ratio(|f| f.precision)),
            Column::new("Recall", ratio(|f| f.recall)),
            Column::new("F1", ratio(|f| f.f1)),
            Column::new("Accuracy", ratio(|f| f.accuracy)),
            Column::new("CER", optional(|f| f.cer)),
            Column::new("Mean CER", optional(|f| f.mean_cer)),
        ];
        let names: Vec<String> = f.iter().map(|field| escape(&field.field)).collect();
        push_table(out, "wide", &caption, "Field", &names, columns);
        out.push_str("</details>\n");
    }
    out.push_str("</section>\n");
}

pub(super) fn push_sets(out: &mut String, report: &Report, options: &ExportOptions) {
    open_section(out, "sets", "Set fields", false);
    let mut paths: Vec<&String> = report.models.iter().flat_map(|m| m.sets.keys()).collect();
    paths.sort();
    paths.dedup();
    if paths.is_empty() {
        out.push_str("<p>No set fields (lists of codes or labels) in this evaluation.</p>\n");
    }
    for path in paths {
        let rows: Vec<(&ModelReport, &crate::eval::report::SetReport)> = report
            .models
            .iter()
            .filter_map(|m| m.sets.get(path).map(|s| (m, s)))
            .collect();
        let mut ks: Vec<&String> = rows.iter().flat_map(|(_, s)| s.hit_at_k.keys()).collect();
        ks.sort_by_key(|k| (k.parse::<u64>().unwrap_or(u64::MAX), k.to_string()));
        ks.dedup();
        let mut caption = format!(
            "Set field <code>{}</code> (M1): precision = found / predicted, recall = found / \
             true, accuracy = (precision + recall) / 2, each the mean over the documents where \
             either list is non-empty (Documents); Hit@k: a true element among the first k \
             predicted.",
            escape(path)
        );
        if rows.len() > 1 {
            caption.push_str(" Bold: the best value of each column.");
        }
        let set_ratio = |header: String, get: &dyn Fn(&crate::eval::report::SetReport) -> f64| {
            Column::new(
                header,
                rows.iter()
                    .map(|(_, s)| Number::Ratio(get(s)).format(options))
                    .collect(),
            )
            .best(Best::Highest)
        };
        let mut columns = vec![
            Column::new(
                "Documents",
                rows.iter().map(|(_, s)| s.documents.to_string()).collect(),
            ),
            set_ratio("Precision".into(), &|s| s.precision),
            set_ratio("Recall".into(), &|s| s.recall),
            set_ratio("F1".into(), &|s| s.f1),
            set_ratio("Accuracy".into(), &|s| s.accuracy),
            set_ratio("Legacy accuracy".into(), &|s| s.legacy_accuracy),
        ];
        for k in ks {
            let cells = rows
                .iter()
                .map(|(_, s)| optional_ratio(s.hit_at_k.get(k).copied(), options))
                .collect();
            columns.push(Column::new(format!("Hit@{}", escape(k)), cells).best(Best::Highest));
        }
        let names: Vec<String> = rows.iter().map(|(m, _)| escape(&m.name)).collect();
        push_table(out, "", &caption, "Model", &names, columns);
    }
    out.push_str("</section>\n");
}

pub(super) fn push_items(out: &mut String, report: &Report, options: &ExportOptions) {
    open_section(out, "items", "Line items", false);
    let rows: Vec<(&ModelReport, &crate::eval::report::ItemsReport)> = report
        .models
        .iter()
        .filter_map(|m| m.items.as_ref().map(|items| (m, items)))
        .collect();
    if rows.is_empty() {
        out.push_str("<p>No item lists (line items) in this evaluation.</p>\n</section>\n");
        return;
    }
    let threshold = format!(" ≥ {}", json_number(report.config.item_f1_threshold));
    let mut caption = format!(
        "Line items (M3), matched one to one by the Hungarian algorithm; an item is recognised \
         when matched with item F1{threshold}. Precision = recognised / predicted items, recall \
         = recognised / true items; item-count accuracy: share of documents where every true \
         item is recognised; item-count match: share of documents with as many predicted as \
         true items."
    );
    if rows.len() > 1 {
        caption.push_str(" Bold: the best value of each column.");
    }
    let item_ratio = |header: &'static str, get: fn(&crate::eval::report::ItemsReport) -> f64| {
        Column::new(
            header,
            rows.iter()
                .map(|(_, i)| Number::Ratio(get(i)).format(options))
                .collect(),
        )
        .best(Best::Highest)
    };
    let item_count = |header: &'static str, get: fn(&crate::eval::report::ItemsReport) -> u64| {
        Column::new(
            header,
            rows.iter().map(|(_, i)| get(i).to_string()).collect(),
        )
    };
    let columns = vec![
        item_ratio("Precision", |i| i.precision),
        item_ratio("Recall", |i| i.recall),
        item_ratio("F1", |i| i.f1),
        item_ratio("Item-count accuracy", |i| i.item_count_accuracy),
        item_ratio("Item-count match", |i| i.item_count_match_rate),
        item_count("Recognised", |i| i.recognised),
        item_count("True items", |i| i.truth_items),
        item_count("Predicted items", |i| i.pred_items),
    ];
    let names: Vec<String> = rows.iter().map(|(m, _)| escape(&m.name)).collect();
    push_table(out, "", &caption, "Model", &names, columns);
    out.push_str("</section>\n");
}
