//! The report: plain serde structs whose JSON form is the contract of
//! SPEC §5 (snake_case keys, numbers as JSON numbers, "not applicable" as
//! `null`).
//!
//! Owns: the shape of the report only. The numbers are filled in by
//! [`crate::eval::evaluate`]; exporters and the app read these structs.
//! Depends on: `serde` and the typed configuration of
//! [`crate::eval::config`].

use crate::eval::config::Config;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod field_rows;
pub use field_rows::{Counts, ErrorCounts, FieldReport};

/// The whole report (SPEC §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Format version; always 1.
    pub fieldscope_report: u32,
    /// The effective configuration (SPEC §4), every key spelled out; its
    /// JSON is [`Config::to_json`]'s (so a report without slices has no
    /// `slice_by`/`slices`). Exporters and the app read these typed fields.
    #[serde(serialize_with = "effective_config")]
    pub config: Config,
    /// Everything that was unusual about the input, in plain words.
    pub warnings: Vec<String>,
    /// Field types the truth suggests (SPEC §7.4); never changes a score.
    #[serde(default)]
    pub suggestions: Vec<Suggestion>,
    /// Number of ground-truth documents.
    pub documents: usize,
    pub models: Vec<ModelReport>,
    /// Suspected truth errors (SPEC §9.3): always present, empty with
    /// fewer than two models or when no (document, field) is suspect.
    #[serde(default)]
    pub suspected_truth_errors: Vec<Suspect>,
    /// SPEC §9.2: each model's scores per slice and its weak slices; only
    /// when the config's `slice_by` is non-empty (absent otherwise, so a
    /// report without slices is SPEC §5's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slices: Option<SlicesReport>,
    /// Bootstrap intervals and paired tests, when asked for (`--bootstrap`;
    /// not part of SPEC §5, so absent from the default report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bootstrap: Option<crate::eval::intervals::BootstrapReport>,
    /// Flipped documents between two models, when asked for (`eval
    /// --compare BASELINE,CANDIDATE`; not part of SPEC §5, so absent from
    /// the default report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Box<Comparison>>,
}

/// The report's `config` as [`Config::to_json`] writes it.
fn effective_config<S: serde::Serializer>(config: &Config, s: S) -> Result<S::Ok, S::Error> {
    config.to_json().serialize(s)
}

/// One suspected truth error (SPEC §9.3): at document `id`, `field`
/// (`items[i].field` for the slot of truth item i, 0-based), the truth
/// (`null` when absent, §1.4) and the value `proposed` by the `models`
/// (names in model order) that support it; `support` is their number and
/// `mean_confidence` the mean of their confidences (over the supporters
/// that carry one; `null` when none does).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suspect {
    pub id: String,
    pub field: String,
    pub truth: serde_json::Value,
    pub proposed: serde_json::Value,
    pub models: Vec<String>,
    pub support: usize,
    pub mean_confidence: Option<f64>,
}

/// SPEC §9.2: the report's `slices` key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SlicesReport {
    /// The config's `slice_by`, as given.
    pub by: Vec<String>,
    pub models: Vec<ModelSlices>,
}

/// One model's slices: the weak ones first (δ descending), then the rest
/// by key and value (`crate::eval::slices` says how values are ordered).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelSlices {
    pub name: String,
    pub slices: Vec<SliceRow>,
}

/// One slice of one model (SPEC §9.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SliceRow {
    /// The `slice_by` key.
    pub key: String,
    /// The documents' value (`null`: the key is missing or null), or a
    /// quartile bin `[low, high]` of a numeric key.
    pub value: serde_json::Value,
    pub documents: usize,
    /// Micro scores over the slice's documents' outcomes (SPEC §3.2).
    pub micro: Scores,
    /// micro F1 of the rest − micro F1 of the slice; `null` when the slice
    /// is not tested (fewer than `slices.min_documents` inside or outside).
    pub delta: Option<f64>,
    /// The bootstrap p-value; `null` when not tested.
    pub p_value: Option<f64>,
    /// Holm-adjusted over the model's tested slices; `null` when not tested.
    pub p_holm: Option<f64>,
    /// `p_holm` ≤ `slices.alpha` (false when not tested).
    pub weak: bool,
}

/// One suggestion (SPEC §7.4): treat `field` as `type` (`"number"` or
/// `"date"`), which `share` of its present truth values read as; `config`
/// is the setting that does it (`{"field_types": {field: type}}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suggestion {
    pub field: String,
    #[serde(rename = "type")]
    pub r#type: String,
    pub share: f64,
    pub config: serde_json::Value,
}

/// One flipped (document, field) pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flip {
    /// The document's id.
    pub id: String,
    pub field: String,
    /// For item fields: the truth item's index (0-based) in its list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truth_item: Option<usize>,
    pub truth: serde_json::Value,
    pub baseline_prediction: serde_json::Value,
    pub candidate_prediction: serde_json::Value,
    /// `null` when the model has no row for the pair.
    pub baseline_outcome: Option<Outcome>,
    pub candidate_outcome: Option<Outcome>,
}

/// How many pairs of one field flipped each way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldFlips {
    pub field: String,
    pub regressions: usize,
    pub fixes: usize,
}

/// Baseline against candidate, document by document (the report's
/// `comparison` key with `eval --compare`, and each candidate's part of
/// the gate's report; computed by `eval::gate::flips`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub baseline: String,
    pub candidate: String,
    /// Truth documents compared.
    pub documents: usize,
    /// Per field with at least one flip, sorted by field name.
    pub fields: Vec<FieldFlips>,
    /// Exact in the baseline, not in the candidate; in the truth file's
    /// document order, then the order of the document's rows.
    pub regressions: Vec<Flip>,
    /// Not exact in the baseline, exact in the candidate; same order.
    pub fixes: Vec<Flip>,
}

/// The error type of one outcome that is not `exact` or `true_negative`
/// (SPEC §9.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorType {
    Format,
    Scale,
    Swapped,
    NearMiss,
    Wrong,
    Missed,
    Spurious,
}

impl ErrorType {
    /// Every error type, in the order of the report's `errors`.
    pub const ALL: [ErrorType; 7] = [
        ErrorType::Format,
        ErrorType::Scale,
        ErrorType::Swapped,
        ErrorType::NearMiss,
        ErrorType::Wrong,
        ErrorType::Missed,
        ErrorType::Spurious,
    ];

    /// The snake_case name used in the report.
    pub fn name(self) -> &'static str {
        match self {
            ErrorType::Format => "format",
            ErrorType::Scale => "scale",
            ErrorType::Swapped => "swapped",
            ErrorType::NearMiss => "near_miss",
            ErrorType::Wrong => "wrong",
            ErrorType::Missed => "missed",
            ErrorType::Spurious => "spurious",
        }
    }
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
    /// SPEC §9.1: the error types of the model's outcomes.
    #[serde(default)]
    pub errors: ErrorCounts,
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
    /// the config has field weights; beyond SPEC §5): each score is
    /// Σ w_f · s_f / Σ w_f over the fields `macro_fields` averages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weighted_fields: Option<Scores>,
    pub partial: PartialScores,
    /// The rates of [`crate::eval::rates::RATES`] (`hallucination_rate`,
    /// `abstention_rate`, …), each a key of the model object.
    #[serde(flatten)]
    pub rates: Rates,
    pub numeric_precision: Option<f64>,
    pub field_f1_partial: f64,
    pub schema_validity_rate: f64,
    pub exact_match_rate: f64,
    pub document_extraction_score: f64,
    pub cer: Option<f64>,
    /// Objects in JSON; tuples in the worker's CBOR (`field_rows`).
    #[serde(with = "field_rows")]
    pub fields: Vec<FieldReport>,
    pub sets: BTreeMap<String, SetReport>,
    pub items: Option<ItemsReport>,
    /// SPEC §8.5: how well the model's confidences tell right values from
    /// wrong ones; `null` when no value carries a confidence.
    pub confidence: Option<ConfidenceReport>,
    /// Only with `--details`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_details: Option<Vec<DocumentDetail>>,
    /// The literature's metrics (ANLS\*, Donut's nTED and field F1), only
    /// when asked for (`--metrics`); absent otherwise, so the default report
    /// is exactly SPEC §5. Filled in by `crate::eval::literature`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub literature: Option<LiteratureReport>,
    /// What each document contributes to the scores (with details only;
    /// never serialised, so the JSON report is SPEC §5's): the bootstrap
    /// recomputes every score from these.
    #[serde(skip)]
    pub document_tallies: Option<Vec<DocumentTally>>,
    /// Only in a report evaluated before the schema validity was known
    /// (`crate::eval::SchemaValidity::Pending`): whether each document
    /// would be an exact match if its payload were valid (SPEC §3.5:
    /// `exact_match` = valid ∧ this), which is what
    /// `crate::eval::complete_provisional` needs to finish the report once
    /// the validity is known. Never serialised.
    #[serde(skip)]
    pub exact_if_valid: Option<Vec<bool>>,
}

/// A model's rates by report key, in the order they are declared
/// (`crate::eval::rates`, which fills them); serialised as keys of the
/// model object (`#[serde(flatten)]`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rates(Vec<(String, f64)>);

impl Rates {
    /// The rates as given, in this order.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, f64)>) -> Rates {
        Rates(pairs.into_iter().collect())
    }

    /// The value of `key`, if the model has it.
    pub fn get(&self, key: &str) -> Option<f64> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// Every (key, value), in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }
}

impl Serialize for Rates {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Rates {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Rates;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("rates by key")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Rates, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry::<String, f64>()? {
                    pairs.push(pair);
                }
                Ok(Rates(pairs))
            }
        }
        d.deserialize_map(Visitor)
    }
}

/// SPEC §8.5: a model's `confidence` block (the scores of §8.3 over all
/// its pairs, §8.2's coverage, §8.4's straight-through documents and
/// per-field scores).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceReport {
    pub pairs: u64,
    /// Pairs over slots (SPEC §8.2).
    pub with_confidence: f64,
    pub accuracy: f64,
    pub mean_confidence: f64,
    pub brier: f64,
    pub ece: f64,
    pub ece_equal_mass: f64,
    pub mce: f64,
    pub auroc: Option<f64>,
    pub aurc: f64,
    pub bins: Vec<crate::eval::confidence::ReliabilityBin>,
    pub thresholds: Vec<crate::eval::confidence::ThresholdRow>,
    pub coverage_at_accuracy: Vec<crate::eval::confidence::CoverageAtAccuracy>,
    pub error_capture: Vec<crate::eval::confidence::ErrorCapture>,
    pub straight_through: StraightThrough,
    /// Per field with at least one pair, by path.
    pub fields: BTreeMap<String, crate::eval::confidence::FieldConfidence>,
    /// Beyond SPEC, for the charts and the app's threshold slider; never
    /// in the JSON report (`crate::export::json` leaves it out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<ConfidenceViews>,
}

/// What the confidence charts and the app's threshold slider draw: the
/// risk–coverage curve (at most [`ConfidenceViews::CURVE_POINTS`] of its
/// points, highest confidence first, the first and last always kept) and
/// the approval at each threshold k/100.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceViews {
    pub curve: Vec<crate::eval::confidence::CurvePoint>,
    /// τ = 0, 0.01, …, 1 (101 rows).
    pub sweep: Vec<ThresholdSweepPoint>,
}

impl ConfidenceViews {
    pub const CURVE_POINTS: usize = 200;
}

/// Accepting the values with confidence ≥ `threshold` (SPEC §8.3) and the
/// documents going straight through at that one threshold for every
/// field (§8.4, `field_thresholds` aside).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThresholdSweepPoint {
    pub threshold: f64,
    pub accepted: u64,
    /// Correct among the accepted.
    pub correct: u64,
    /// Documents going straight through.
    pub documents: u64,
    /// Of those, documents whose every outcome is correct.
    pub documents_right: u64,
}

/// SPEC §8.4: the documents that go straight through.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StraightThrough {
    /// `confidence.straight_through` (fields in `field_thresholds` use
    /// their own).
    pub threshold: f64,
    pub documents: u64,
    /// `documents` over all documents.
    pub rate: f64,
    /// The share of them whose every outcome is `exact` or
    /// `true_negative`; `null` when none goes through.
    pub accuracy: Option<f64>,
}

/// Line-item tallies of one document (SPEC §3.4): recognised items, truth
/// items and predicted items, over every item list of the document.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ItemTally {
    pub recognised: u64,
    pub truth_items: u64,
    pub pred_items: u64,
}

/// Everything one document contributes to one model's scores, so that a
/// score over any multiset of documents can be recomputed from tallies
/// alone (the bootstrap does): its counts, its counts per field (in the
/// order of the model's `fields` rows), its numeric truth values present
/// and exact (SPEC §3.5's `numeric_precision`), schema validity, its
/// line-item tallies and its confidence pairs (SPEC §8.2).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocumentTally {
    pub counts: Counts,
    pub fields: Vec<Counts>,
    pub numeric_exact: u64,
    pub numeric_total: u64,
    pub schema_valid: bool,
    pub items: ItemTally,
    /// The document's (confidence, correct) pairs in comparison order, as
    /// the model's `confidence` block takes them (empty without any).
    pub confidence: Vec<crate::eval::confidence::Pair>,
}

/// The literature's metrics for one model (not part of SPEC §5; see
/// `crate::eval::literature`). Each key is present only when its metric
/// was asked for; its value is `null` where the metric is undefined (no
/// documents; Donut's F1 with no field on either side; a document the
/// reference raises on, or one over `literature::MAX_WORK`, which also
/// makes the dataset's mean `null`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LiteratureReport {
    /// Mean over the truth documents of ANLS\* (Peer et al., 2024).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "requested"
    )]
    pub anls_star: Option<Option<f64>>,
    /// Mean over the truth documents of Donut's nTED accuracy.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "requested"
    )]
    pub nted: Option<Option<f64>>,
    /// Donut's field F1, micro over the dataset.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "requested"
    )]
    pub donut_f1: Option<Option<f64>>,
    /// Per truth document, in the truth file's order (only with
    /// `--details`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documents: Option<Vec<LiteratureDocument>>,
}

/// One document's literature metrics (only with `--details`); keys as in
/// [`LiteratureReport`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LiteratureDocument {
    pub id: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "requested"
    )]
    pub anls_star: Option<Option<f64>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "requested"
    )]
    pub nted: Option<Option<f64>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "requested"
    )]
    pub donut_f1: Option<Option<f64>>,
}

/// A key that is present was requested: `null` reads as `Some(None)`, not
/// as an absent key.
fn requested<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<f64>>, D::Error> {
    Option::<f64>::deserialize(d).map(Some)
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
    /// SPEC §9.2: the document's value of each `slice_by` key, as JSON
    /// text (`None`: missing or `null`), in the order of `slice_by`; empty
    /// without `slice_by`. Not in the JSON report (SPEC §5 and §9.2 name
    /// no such key): it reaches the browser app in the worker's compact
    /// details (`protocol::compact`), where a slice's row filters the
    /// document browser (`crate::eval::slices::cut` over these texts gives
    /// each slice's documents).
    #[serde(skip)]
    pub slice: Vec<Option<String>>,
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
    /// SPEC §9.1: the outcome's error type; `null` for `exact` and
    /// `true_negative` outcomes and for set fields (whose errors are
    /// counted element by element).
    #[serde(default)]
    pub error_type: Option<ErrorType>,
    /// SPEC §9.1: for a `swapped` value, the field whose truth it matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub belongs_to: Option<String>,
    /// String similarity of the normalised values (strings only).
    pub similarity: Option<f64>,
    /// CER (present truth values of scalar and item fields only).
    pub cer: Option<f64>,
    /// The prediction's confidence (SPEC §8.5), `null` when none.
    #[serde(default)]
    pub confidence: Option<f64>,
    /// For a set field: its `[missed, spurious]` element counts (SPEC
    /// §3.3), which its `errors` count (§9.1) while its `error_type` is
    /// null. Not a key of the JSON report; the app's wire form carries it
    /// so a `missed` or `spurious` segment finds its documents.
    #[serde(skip)]
    pub set_errors: Option<[u64; 2]>,
}

impl FieldDetail {
    /// Whether this value counts an `error` of SPEC §9.1: its error type,
    /// or, for a set field, a missed or spurious element.
    pub fn counts_error(&self, error: ErrorType) -> bool {
        self.error_type == Some(error)
            || match (error, self.set_errors) {
                (ErrorType::Missed, Some([missed, _])) => missed > 0,
                (ErrorType::Spurious, Some([_, spurious])) => spurious > 0,
                _ => false,
            }
    }
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
