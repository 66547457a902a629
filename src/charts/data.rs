//! The pure step: a [`Report`] becomes plain structs of what a chart shows —
//! labels, values, axis ranges, titles and captions. No drawing, no pixels.
//!
//! Owns: which numbers of the report each chart shows and how they are
//! worded. Every label here is already sanitised ([`text::sanitize`]) but
//! not shortened: shortening depends on the room the drawing step has.
//! The numbers are the report's own, unrounded; only the `text` of a
//! heatmap cell is rounded (to two decimals).

use super::options::Average;
use super::text::{fixed, sanitize};
use crate::eval::config::{IncorrectCountsAs, MacroF1, MatchMethod};
use crate::eval::report::{ErrorType, FieldReport, ModelReport, Report};
use std::collections::HashMap;

/// A value axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Axis title with its unit or range, e.g. "Score (0–1)".
    pub label: String,
    pub min: f64,
    pub max: f64,
    /// Tick positions, `min` and `max` included.
    pub ticks: Vec<f64>,
    /// Decimals of the tick labels.
    pub tick_decimals: usize,
}

impl Axis {
    /// The 0–1 axis of scores and shares.
    pub fn unit(label: &str) -> Axis {
        Axis {
            label: label.to_string(),
            min: 0.0,
            max: 1.0,
            ticks: (0..=5).map(|i| f64::from(i) / 5.0).collect(),
            tick_decimals: 1,
        }
    }

    /// A 0-based axis reaching at least `max`, with 1-2-5 steps.
    pub fn up_to(label: &str, max: f64, integer: bool) -> Axis {
        let max = if max.is_finite() && max > 0.0 {
            max
        } else {
            1.0
        };
        let rough = max / 5.0;
        let mag = 10f64.powf(rough.log10().floor());
        let mut step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * mag)
            .find(|s| *s >= rough)
            .unwrap_or(10.0 * mag);
        if integer {
            step = step.max(1.0).round();
        }
        let n = (max / step - 1e-9).ceil().max(1.0) as u32;
        let tick_decimals = if step >= 1.0 {
            0
        } else {
            (-step.log10().floor()) as usize
        };
        Axis {
            label: label.to_string(),
            min: 0.0,
            max: step * f64::from(n),
            ticks: (0..=n).map(|i| step * f64::from(i)).collect(),
            tick_decimals,
        }
    }

    /// Where `v` falls on the axis, 0 at `min` and 1 at `max`, clamped; 0
    /// for a value that is not finite.
    pub fn fraction(&self, v: f64) -> f64 {
        if !v.is_finite() || self.max <= self.min {
            return 0.0;
        }
        ((v - self.min) / (self.max - self.min)).clamp(0.0, 1.0)
    }
}

/// Grouped bars: one group per model, one bar per series.
#[derive(Clone, Debug, PartialEq)]
pub struct Bars {
    /// Legend labels, one per series, in drawing order.
    pub series: Vec<String>,
    pub groups: Vec<BarGroup>,
    pub axis: Axis,
    /// Decimals of the value printed at the end of each bar.
    pub value_decimals: usize,
    /// The values are counts: whole numbers print without decimals.
    pub counts: bool,
    /// Error bars: per group, per series, an interval `(low, high)` (the
    /// bootstrap's, when the report has one); empty for none.
    pub intervals: Vec<Vec<(f64, f64)>>,
}

/// One model's bars.
#[derive(Clone, Debug, PartialEq)]
pub struct BarGroup {
    pub label: String,
    /// One value per series; empty when `note` says why there is none.
    pub values: Vec<f64>,
    pub note: Option<String>,
}

/// Stacked bars of shares: one bar per model, one segment per category.
#[derive(Clone, Debug, PartialEq)]
pub struct Stacked {
    pub categories: Vec<String>,
    pub rows: Vec<StackedRow>,
    pub axis: Axis,
    /// What a bar with a total of 0 says instead.
    pub empty: &'static str,
}

/// One model's stacked bar.
#[derive(Clone, Debug, PartialEq)]
pub struct StackedRow {
    pub label: String,
    /// One count per category.
    pub counts: Vec<u64>,
    pub total: u64,
    /// count / total per category (all 0 when total is 0).
    pub shares: Vec<f64>,
}

/// A grid of values in 0–1 with the value printed in each cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Heatmap {
    /// Row labels (fields).
    pub rows: Vec<String>,
    /// Column labels (models).
    pub columns: Vec<String>,
    /// `cells[row][column]`.
    pub cells: Vec<Vec<Cell>>,
    /// What the colour scale shows.
    pub scale_label: String,
}

/// One heatmap cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The value, or `None` when it does not apply (coloured neutral).
    pub value: Option<f64>,
    /// What is printed in the cell.
    pub text: String,
}

/// Points on a value axis, one row per model, with a marker per row.
#[derive(Clone, Debug, PartialEq)]
pub struct Strips {
    pub rows: Vec<StripRow>,
    pub axis: Axis,
    /// Legend labels of the points and of the marker.
    pub point_label: String,
    pub marker_label: String,
    /// A reference line (e.g. the CER threshold) with its legend label.
    pub threshold: Option<(f64, String)>,
}

/// One model's points.
#[derive(Clone, Debug, PartialEq)]
pub struct StripRow {
    pub label: String,
    /// (field, value) in report order.
    pub points: Vec<(String, f64)>,
    pub marker: Option<f64>,
    /// Shown instead of points when there are none.
    pub note: Option<String>,
}

/// A title and a caption.
#[derive(Clone, Debug, PartialEq)]
pub struct Words {
    pub title: String,
    pub caption: String,
}

/// A model's name for a chart: sanitised, "model N" when nothing is left.
pub(super) fn model_label(m: &ModelReport, i: usize) -> String {
    let s = sanitize(&m.name);
    if s.is_empty() {
        format!("model {}", i + 1)
    } else {
        s
    }
}

fn fp_only(report: &Report) -> bool {
    report.config.incorrect_counts_as == IncorrectCountsAs::FpOnly
}

/// The four strict scores of one model under `average`.
pub fn scores(m: &ModelReport, average: Average) -> [f64; 4] {
    match average {
        Average::Micro => [
            m.micro.precision,
            m.micro.recall,
            m.micro.f1,
            m.micro.accuracy,
        ],
        Average::MacroDocuments => [
            m.macro_documents.precision,
            m.macro_documents.recall,
            m.macro_documents.f1,
            m.macro_documents.accuracy,
        ],
        Average::MacroFields => [
            m.macro_fields.precision,
            m.macro_fields.recall,
            m.macro_fields.f1,
            m.macro_fields.accuracy,
        ],
    }
}

/// Short name of an average, for titles.
pub fn average_name(average: Average) -> &'static str {
    match average {
        Average::Micro => "micro",
        Average::MacroDocuments => "macro over documents",
        Average::MacroFields => "macro over fields",
    }
}

/// Precision, recall, F1 and accuracy per model under `average`.
pub fn metric_bars(report: &Report, average: Average) -> Bars {
    Bars {
        series: ["Precision", "Recall", "F1", "Accuracy"]
            .map(String::from)
            .to_vec(),
        groups: report
            .models
            .iter()
            .enumerate()
            .map(|(i, m)| BarGroup {
                label: model_label(m, i),
                values: scores(m, average).to_vec(),
                note: None,
            })
            .collect(),
        axis: Axis::unit("Score (0–1)"),
        value_decimals: 2,
        counts: false,
        intervals: score_intervals(report, average),
    }
}

/// The bootstrap intervals of precision, recall, F1 and accuracy per model
/// under `average`, when the report carries them.
fn score_intervals(report: &Report, average: Average) -> Vec<Vec<(f64, f64)>> {
    let Some(b) = &report.bootstrap else {
        return Vec::new();
    };
    let prefix = match average {
        Average::Micro => "micro",
        Average::MacroDocuments => "macro_documents",
        Average::MacroFields => "macro_fields",
    };
    report
        .models
        .iter()
        .map(|m| {
            let Some(mi) = b.models.iter().find(|x| x.name == m.name) else {
                return Vec::new();
            };
            ["precision", "recall", "f1", "accuracy"]
                .iter()
                .filter_map(|s| mi.get(&format!("{prefix}.{s}")).map(|i| (i.low, i.high)))
                .collect()
        })
        .collect()
}

/// The caption of [`metric_bars`]: the metric, the average, how F1 is
/// formed under it, and the matching rule.
pub fn metric_words(report: &Report, average: Average) -> Words {
    let how = match average {
        Average::Micro => "micro-averaged (counts pooled over all documents and fields; F1 = harmonic mean of micro P and R)".to_string(),
        Average::MacroDocuments => {
            let f1 = if report.config.macro_f1 == MacroF1::Mean {
                "F1 = mean of per-document F1"
            } else {
                "F1 = harmonic mean of macro P and R"
            };
            let empty = report.config.empty_document_score;
            format!(
                "macro-averaged over documents ({f1}; a document with neither truth nor prediction scores P = R = {})",
                fixed(empty, if empty.fract() == 0.0 { 0 } else { 2 })
            )
        }
        Average::MacroFields => "macro-averaged over fields (F1 = mean of per-field F1; fields with neither truth nor prediction are left out)".to_string(),
    };
    let mut caption = format!("Precision, recall, F1 and accuracy per model, {how}. ");
    caption.push_str(&strictness(report));
    caption.push_str(" Accuracy = (TP + TN) / N counts true negatives.");
    if let (Some(b), false) = (
        &report.bootstrap,
        score_intervals(report, average).is_empty(),
    ) {
        caption.push_str(&format!(
            " Error bars: {:.0} % percentile bootstrap interval ({} resamples of the {} documents).",
            b.level * 100.0,
            b.resamples,
            b.documents
        ));
    }
    Words {
        title: format!(
            "Precision, recall, F1 and accuracy ({})",
            average_name(average)
        ),
        caption,
    }
}

fn strictness(report: &Report) -> String {
    let mut s = "Strict matching: partial matches count as wrong.".to_string();
    if fp_only(report) {
        s.push_str(
            " Incorrect values count as false positives only, so recall = exact / (exact + missed).",
        );
    }
    s
}

/// The outcome labels of SPEC §2.3, in report order.
pub const OUTCOME_LABELS: [&str; 6] = [
    "exact",
    "partial",
    "incorrect",
    "missed",
    "spurious",
    "true negative",
];

/// Each model's outcome counts as shares of all its compared pairs.
pub fn outcome_distribution(report: &Report) -> Stacked {
    Stacked {
        categories: OUTCOME_LABELS.map(String::from).to_vec(),
        rows: report
            .models
            .iter()
            .enumerate()
            .map(|(i, m)| stacked_row(model_label(m, i), m.counts.as_array().to_vec()))
            .collect(),
        axis: Axis::unit("Share of compared pairs (0–1)"),
        empty: "no compared values",
    }
}

/// One stacked bar: its counts, their total and each count's share of it
/// (all 0 when the total is 0).
fn stacked_row(label: String, counts: Vec<u64>) -> StackedRow {
    let total: u64 = counts.iter().sum();
    let shares = counts
        .iter()
        .map(|&c| {
            if total == 0 {
                0.0
            } else {
                c as f64 / total as f64
            }
        })
        .collect();
    StackedRow {
        label,
        counts,
        total,
        shares,
    }
}

/// Each model's errors (SPEC §9.1) by type, as shares of all its errors,
/// in the report's key order.
pub fn error_types(report: &Report) -> Stacked {
    Stacked {
        categories: ErrorType::ALL.map(|e| e.name().replace('_', " ")).to_vec(),
        rows: report
            .models
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let counts = ErrorType::ALL.map(|e| m.errors.get(e)).to_vec();
                stacked_row(model_label(m, i), counts)
            })
            .collect(),
        axis: Axis::unit("Share of errors (0–1)"),
        empty: "no errors",
    }
}

pub fn error_words(report: &Report) -> Words {
    let near_miss = report.config.errors.near_miss;
    Words {
        title: "Error types per model".to_string(),
        caption: format!(
            "Every value a model got wrong, by error type (SPEC §9.1), as a share of its \
             errors (n = number of errors): format (the same value in another number or date \
             convention, or the same letters and digits); scale (off by a power of ten, 10 to \
             1,000,000 either way); swapped (another field's true value); near miss (string \
             similarity at least {near_miss}); wrong (otherwise); missed (truth present, no \
             prediction); spurious (prediction without truth). Counts pooled over all \
             documents and fields."
        ),
    }
}

pub fn outcome_words(_report: &Report) -> Words {
    Words {
        title: "Outcomes per model".to_string(),
        caption: "Outcome of every compared (document, field) pair per model, as a share of all \
                  pairs (n = number of pairs): exact; partial (near match); incorrect; missed \
                  (truth present, no prediction); spurious (prediction without truth); true \
                  negative (both absent). Counts pooled over all documents and fields; the \
                  averaging option does not apply."
            .to_string(),
    }
}

/// Fields × models, each cell the field's strict F1.
///
/// Rows are the union of the models' fields, sorted by name (the report's
/// order). A field with neither truth nor prediction for a model (only
/// true negatives, or no row at all) shows "n/a": its F1 would be a
/// zero-division value, not a measurement.
pub fn field_f1_heatmap(report: &Report) -> Heatmap {
    let mut names: Vec<&str> = report
        .models
        .iter()
        .flat_map(|m| m.fields.iter().map(|f| f.field.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    field_f1_heatmap_of(report, &names)
}

/// [`field_f1_heatmap`] of the fields `names`, in that order (the wide
/// report's weakest fields and groups, `crate::eval::groups`).
pub fn field_f1_heatmap_of(report: &Report, names: &[&str]) -> Heatmap {
    // Each model's fields by path, looked up once per cell (a scan per
    // cell made 10,000 fields a quadratic wait).
    let by_path: Vec<HashMap<&str, &FieldReport>> = report
        .models
        .iter()
        .map(|m| {
            let mut by_path = HashMap::with_capacity(m.fields.len());
            for f in &m.fields {
                // The first row of a path, as a scan would find it.
                by_path.entry(f.field.as_str()).or_insert(f);
            }
            by_path
        })
        .collect();
    let cells = names
        .iter()
        .map(|name| {
            by_path
                .iter()
                .map(|fields| match fields.get(*name) {
                    // The model saw the field in neither truth nor
                    // prediction, or it would have a row.
                    None => Cell {
                        value: None,
                        text: "n/a".to_string(),
                    },
                    Some(f) => {
                        let c = &f.counts;
                        let seen = c.exact + c.partial + c.incorrect + c.missed + c.spurious;
                        if seen == 0 {
                            Cell {
                                value: None,
                                text: "n/a".to_string(),
                            }
                        } else {
                            Cell {
                                value: Some(f.f1),
                                text: fixed(f.f1, 2),
                            }
                        }
                    }
                })
                .collect()
        })
        .collect();
    Heatmap {
        rows: names.iter().map(|n| sanitize(n)).collect(),
        columns: report
            .models
            .iter()
            .enumerate()
            .map(|(i, m)| model_label(m, i))
            .collect(),
        cells,
        scale_label: "F1 per field (0–1)".to_string(),
    }
}

pub fn heatmap_words(report: &Report) -> Words {
    Words {
        title: "F1 per field and model".to_string(),
        caption: format!(
            "Strict F1 of each field (rows) for each model (columns), from the field's counts \
             pooled over all documents. {} n/a: the field has neither truth nor prediction in any \
             document. The averaging option does not apply.",
            strictness(report)
        ),
    }
}

/// |Truth|, |Pred| and M_total per model.
pub fn pred_vs_truth(report: &Report) -> Bars {
    let groups: Vec<BarGroup> = report
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| BarGroup {
            label: model_label(m, i),
            values: vec![m.truth_count as f64, m.pred_count as f64, m.m_total],
            note: None,
        })
        .collect();
    let max = groups
        .iter()
        .flat_map(|g| g.values.iter().copied())
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let half = groups
        .iter()
        .any(|g| g.values.iter().any(|v| v.is_finite() && v.fract() != 0.0));
    Bars {
        series: ["|Truth|", "|Pred|", "M_total"].map(String::from).to_vec(),
        groups,
        axis: Axis::up_to("Number of field values", max, true),
        value_decimals: if half { 1 } else { 0 },
        counts: true,
        intervals: Vec::new(),
    }
}

pub fn pred_vs_truth_words(_report: &Report) -> Words {
    Words {
        title: "Predicted and true values per model".to_string(),
        caption: "Number of field values per model, pooled over all documents and fields: \
                  |Truth| = values present in the truth (exact + partial + incorrect + missed); \
                  |Pred| = values predicted (exact + partial + incorrect + spurious); M_total = \
                  exact + 0.5 × partial, the matched credit. The averaging option does not apply."
            .to_string(),
    }
}

/// Per-field CER of each model (fields with a CER only), and the model's
/// pooled CER as the marker.
pub fn cer_distribution(report: &Report) -> Strips {
    let rows: Vec<StripRow> = report
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let points: Vec<(String, f64)> = m
                .fields
                .iter()
                .filter_map(|f| f.cer.map(|c| (sanitize(&f.field), c)))
                .filter(|(_, c)| c.is_finite())
                .collect();
            let note = (points.is_empty() && m.cer.is_none())
                .then(|| "no CER (no truth text)".to_string());
            StripRow {
                label: model_label(m, i),
                points,
                marker: m.cer.filter(|c| c.is_finite()),
                note,
            }
        })
        .collect();
    let max = rows
        .iter()
        .flat_map(|r| r.points.iter().map(|p| p.1).chain(r.marker))
        .fold(0.0, f64::max);
    let axis = if max <= 1.0 {
        Axis::unit("CER (0 = identical)")
    } else {
        Axis::up_to("CER (0 = identical; can exceed 1)", max, false)
    };
    let threshold =
        cer_threshold(report).map(|t| (t, format!("match threshold ({})", fixed(t, 2))));
    Strips {
        rows,
        axis,
        point_label: "field CER".to_string(),
        marker_label: "model CER".to_string(),
        threshold,
    }
}

/// The CER threshold when strings are matched by CER.
fn cer_threshold(report: &Report) -> Option<f64> {
    let sm = &report.config.string_match;
    (sm.method == MatchMethod::Cer && sm.cer_threshold.is_finite()).then_some(sm.cer_threshold)
}

pub fn cer_words(report: &Report) -> Words {
    let mut caption = "Character error rate (CER = character edits / truth characters) of each \
                       field with a present truth value, per model: dots are fields (each pooled \
                       over documents), the diamond is the model's CER pooled over all scalar and \
                       item fields (its value at the right). Lower is better; set fields have no CER. The averaging option \
                       does not apply."
        .to_string();
    if let Some(t) = cer_threshold(report) {
        caption.push_str(&format!(
            " Dashed line: the matching threshold (a value with CER ≤ {} counts as exact).",
            fixed(t, 2)
        ));
    }
    Words {
        title: "CER per field and model".to_string(),
        caption,
    }
}

/// Item precision, recall, F1, count accuracy and count match rate per
/// model; `None` when no model has line items.
pub fn item_metrics(report: &Report) -> Option<Bars> {
    if report.models.iter().all(|m| m.items.is_none()) {
        return None;
    }
    Some(Bars {
        series: [
            "Item precision",
            "Item recall",
            "Item F1",
            "Count accuracy",
            "Count match",
        ]
        .map(String::from)
        .to_vec(),
        groups: report
            .models
            .iter()
            .enumerate()
            .map(|(i, m)| match &m.items {
                Some(it) => BarGroup {
                    label: model_label(m, i),
                    values: vec![
                        it.precision,
                        it.recall,
                        it.f1,
                        it.item_count_accuracy,
                        it.item_count_match_rate,
                    ],
                    note: None,
                },
                None => BarGroup {
                    label: model_label(m, i),
                    values: Vec::new(),
                    note: Some("no line items".to_string()),
                },
            })
            .collect(),
        axis: Axis::unit("Score (0–1)"),
        value_decimals: 2,
        counts: false,
        intervals: Vec::new(),
    })
}

pub fn item_words(report: &Report) -> Words {
    let threshold = report.config.item_f1_threshold;
    Words {
        title: "Line-item scores per model".to_string(),
        caption: format!(
            "Line items per model, pooled over all documents: item precision = recognised / \
             predicted items; item recall = recognised / truth items; item F1 = their harmonic \
             mean. An item is recognised when it is matched one-to-one (Hungarian assignment) \
             with item F1 ≥ {}. Count accuracy = share of documents whose truth items are all \
             recognised; count match = share of documents with as many predicted as truth items. \
             The averaging option does not apply.",
            fixed(threshold, 2)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_axis_has_six_ticks() {
        let a = Axis::unit("x");
        assert_eq!(a.ticks, vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(a.fraction(0.25), 0.25);
        assert_eq!(a.fraction(2.0), 1.0);
        assert_eq!(a.fraction(f64::NAN), 0.0);
    }

    #[test]
    fn count_axis_uses_nice_steps() {
        let a = Axis::up_to("n", 1234.0, true);
        assert_eq!(a.max, 1500.0);
        assert_eq!(a.ticks.len(), 4);
        assert_eq!(a.tick_decimals, 0);
        let z = Axis::up_to("n", 0.0, true);
        assert_eq!((z.max, z.ticks.len()), (1.0, 2));
        let small = Axis::up_to("n", 3.0, true);
        assert_eq!(small.ticks, vec![0.0, 1.0, 2.0, 3.0]);
        let cer = Axis::up_to("cer", 1.7, false);
        assert_eq!(cer.max, 2.0);
        assert_eq!(cer.tick_decimals, 1);
    }
}
