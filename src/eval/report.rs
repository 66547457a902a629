//! The report: plain serde structs whose JSON form is the contract of
//! SPEC §5 (snake_case keys, numbers as JSON numbers, "not applicable" as
//! `null`).
//!
//! Owns: the shape of the report only. The numbers are filled in by
//! [`crate::eval::evaluate`]; exporters and the app read these structs.
//! Depends on: `serde` only.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The whole report (SPEC §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Format version; always 1.
    pub fieldscope_report: u32,
    /// The effective configuration (SPEC §4), every key spelled out.
    pub config: serde_json::Value,
    /// Everything that was unusual about the input, in plain words.
    pub warnings: Vec<String>,
    /// Number of ground-truth documents.
    pub documents: usize,
    pub models: Vec<ModelReport>,
    /// Paired tests between every pair of models (only with
    /// `--bootstrap`, and only with two models or more; see
    /// [`crate::eval::stats`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub significance: Option<Significance>,
}

/// Outcome counts (SPEC §2.3, §3.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub exact: u64,
    pub partial: u64,
    pub incorrect: u64,
    pub missed: u64,
    pub spurious: u64,
    pub true_negative: u64,
}

/// Precision, recall, F1 and accuracy under one average (SPEC §3.1, §3.2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
}

/// The macro average over fields, with the number of fields left out
/// because they have |Truth| = |Pred| = 0 (SPEC §3.2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct FieldAverage {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
    pub fields_left_out: usize,
}

/// Partial-credit scores (SPEC §3.1, M2's `field_f1_partial`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PartialScores {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

/// One model's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelReport {
    pub name: String,
    /// SPEC §3.6; `null` when no cost was given.
    pub cost: Option<f64>,
    pub counts: Counts,
    /// |Truth| = COR + PAR + INC + MIS.
    pub truth_count: u64,
    /// |Pred| = COR + PAR + INC + SPU.
    pub pred_count: u64,
    /// M_total = Σ credit = COR + 0.5·PAR.
    pub m_total: f64,
    pub micro: Scores,
    pub macro_documents: Scores,
    pub macro_fields: FieldAverage,
    /// The macro average over fields weighted by `field_weights` (only when
    /// the config gives `field_weights`; see [`WeightedFieldAverage`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub macro_fields_weighted: Option<WeightedFieldAverage>,
    pub partial: PartialScores,
    pub hallucination_rate: f64,
    pub abstention_rate: f64,
    pub numeric_precision: Option<f64>,
    pub field_f1_partial: f64,
    pub schema_validity_rate: f64,
    pub exact_match_rate: f64,
    pub document_extraction_score: f64,
    pub cer: Option<f64>,
    pub fields: Vec<FieldReport>,
    pub sets: BTreeMap<String, SetReport>,
    pub items: Option<ItemsReport>,
    /// Only with `--details`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_details: Option<Vec<DocumentDetail>>,
    /// Percentile bootstrap intervals of the headline scores (only with
    /// `--bootstrap`; see [`crate::eval::stats`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intervals: Option<Intervals>,
}

/// The macro average over fields with business weights (config key
/// `field_weights`): over the fields the unweighted macro average keeps
/// (|Truth| + |Pred| > 0), each score is Σ w_f·s_f / Σ w_f, where w_f is
/// the field's weight (1 when `field_weights` does not name it); Σ w_f = 0
/// gives `zero_division`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct WeightedFieldAverage {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
    /// Σ w_f over the fields kept.
    pub total_weight: f64,
}

/// Bootstrap confidence intervals of one model's headline scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Intervals {
    /// The interval's coverage, 1 − alpha (0.95 by default).
    pub confidence: f64,
    /// Number of bootstrap resamples of the documents.
    pub resamples: usize,
    /// The seed of the resampling.
    pub seed: u64,
    /// Keyed by score (`"micro.f1"`, `"macro_documents.precision"`,
    /// `"document_extraction_score"`, `"items.f1"`, …).
    pub scores: BTreeMap<String, Interval>,
}

/// A percentile interval around a point estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The score on the data as given (the report's number).
    pub estimate: f64,
    /// The alpha/2 quantile of the resampled scores.
    pub low: f64,
    /// The 1 − alpha/2 quantile of the resampled scores.
    pub high: f64,
}

/// Paired tests between models on the same documents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Significance {
    /// The test, in words.
    pub test: String,
    /// Number of random shuffles per pair of models.
    pub shuffles: usize,
    pub seed: u64,
    /// A difference is significant when its Holm-adjusted p-value ≤ alpha.
    pub alpha: f64,
    /// The multiple-comparison correction, in words.
    pub correction: String,
    /// One entry per score and pair of models (model `a` listed before
    /// model `b` in the report).
    pub comparisons: Vec<Comparison>,
}

/// One paired test: score of `a` minus score of `b`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub score: String,
    pub a: String,
    pub b: String,
    /// score(a) − score(b) on the data as given.
    pub difference: f64,
    /// The test's two-sided p-value.
    pub p_value: f64,
    /// Holm-adjusted over the pairs of models compared on this score.
    pub p_adjusted: f64,
    pub significant: bool,
}

/// One row of the per-field table: the field's pooled counts and strict
/// scores, and its CER (`null` when it has no present truth value or is a
/// set field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldReport {
    pub field: String,
    pub counts: Counts,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
    pub cer: Option<f64>,
    pub mean_cer: Option<f64>,
}

/// Set-field (M1) scores of one path (SPEC §3.3): means over the documents
/// where either side is non-empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetReport {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
    pub legacy_accuracy: f64,
    /// Keyed by k as a string (`"1"`, `"3"`, `"5"`).
    pub hit_at_k: BTreeMap<String, f64>,
    pub documents: usize,
}

/// Line-item (M3) scores of one model (SPEC §3.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemsReport {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub item_count_accuracy: f64,
    pub item_count_match_rate: f64,
    pub recognised: u64,
    pub truth_items: u64,
    pub pred_items: u64,
}

/// Per-document detail (only with `--details`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentDetail {
    pub id: String,
    /// False when the model has no record for this document.
    pub has_prediction: bool,
    pub schema_valid: bool,
    pub exact_match: bool,
    pub counts: Counts,
    /// Strict scores from this document's counts, with the empty-document
    /// rule of SPEC §3.2 for precision and recall.
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
    pub fields: Vec<FieldDetail>,
}

/// One compared value of one document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldDetail {
    pub field: String,
    /// For item fields: the truth item's index (0-based) in its list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truth_item: Option<usize>,
    /// For item fields: the predicted item's index (0-based) in its list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pred_item: Option<usize>,
    pub truth: serde_json::Value,
    pub prediction: serde_json::Value,
    pub outcome: Outcome,
    /// String similarity of the normalised values (strings only).
    pub similarity: Option<f64>,
    /// CER (present truth values of scalar and item fields only).
    pub cer: Option<f64>,
}

/// The outcome of one (document, field) pair (SPEC §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Exact,
    Partial,
    Incorrect,
    Missed,
    Spurious,
    TrueNegative,
}

impl Outcome {
    /// Every outcome, in the order of the report's `counts`.
    pub const ALL: [Outcome; 6] = [
        Outcome::Exact,
        Outcome::Partial,
        Outcome::Incorrect,
        Outcome::Missed,
        Outcome::Spurious,
        Outcome::TrueNegative,
    ];

    /// The snake_case name used in the report.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Exact => "exact",
            Outcome::Partial => "partial",
            Outcome::Incorrect => "incorrect",
            Outcome::Missed => "missed",
            Outcome::Spurious => "spurious",
            Outcome::TrueNegative => "true_negative",
        }
    }
}
