//! The typed configuration (SPEC §4): [`Config`] and its sections, the
//! presets and the named options, each with its serde form (the report's
//! `config` block).
//!
//! Owns: the types, their defaults and names. Never reads a layer or
//! checks one: building is `builder`'s job, checking `validate`'s.
//! Depends on `serde`, `serde_json` and [`crate::error`].

use crate::error::{Error, ErrorKind};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The effective configuration. Its JSON form (`to_json`) is the `config`
/// block of the report, every key spelled out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub preset: Preset,
    pub id_field: Option<String>,
    pub absent_values: Vec<String>,
    pub ignored_fields: Vec<String>,
    pub numeric_string_fields: Vec<String>,
    pub date_fields: Vec<String>,
    pub date_order: DateOrder,
    pub case_sensitive: bool,
    pub numeric_tolerance: f64,
    pub string_match: StringMatch,
    pub partial_matching: PartialMatching,
    pub incorrect_counts_as: IncorrectCountsAs,
    pub zero_division: f64,
    pub empty_document_score: f64,
    pub macro_f1: MacroF1,
    pub item_f1_threshold: f64,
    pub top_k: Vec<usize>,
    pub document_extraction_score: DocumentScoreConfig,
    /// How each listed field path is compared (SPEC §7.1), before the
    /// schema and the truth's JSON type. Default `{}`.
    #[serde(default)]
    pub field_types: std::collections::BTreeMap<String, FieldType>,
    /// With several schemas: how a document picks its schema (SPEC §7.2):
    /// `"id"` or the name of a top-level truth field. Default `null`.
    #[serde(default)]
    pub schema_by: Option<String>,
    /// Business weight of each field path (beyond SPEC §4; default 1 for
    /// every field not listed): gives the report's `weighted_fields`.
    /// Absent from the effective config when empty.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub field_weights: std::collections::BTreeMap<String, f64>,
    /// How confidence is read and scored (SPEC §8).
    #[serde(default)]
    pub confidence: ConfidenceConfig,
    /// Where the browser app is hosted (beyond SPEC §4; issue 32): an
    /// `http://` or `https://` address ([`check_app_url`]) the HTML report
    /// links to. Absent from the effective config when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_url: Option<String>,
    /// Suspected truth errors (SPEC §9.3).
    #[serde(default)]
    pub audit: AuditConfig,
    /// The error analysis (SPEC §9.1).
    #[serde(default)]
    pub errors: ErrorsConfig,
    /// SPEC §9.2: the keys documents are sliced by (top-level truth keys
    /// and the built-ins `_items`, `_fields`, `_schema`). Default `[]`:
    /// no slices, and the key is left out of the effective config (see
    /// [`Config::to_json`]) so that such a report is the one of before.
    #[serde(default)]
    pub slice_by: Vec<String>,
    /// SPEC §9.2's slice discovery (`slices.min_documents`,
    /// `slices.resamples`, `slices.alpha`).
    #[serde(default)]
    pub slices: SlicesConfig,
}

/// The `audit` section (SPEC §9.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditConfig {
    /// The share of the M models that must agree on one present value for
    /// a (document, field) to be suspect: at least max(2, ⌈agreement·M⌉)
    /// models. Default 0.5; between 0 and 1.
    pub agreement: f64,
}

impl Default for AuditConfig {
    fn default() -> Self {
        AuditConfig { agreement: 0.5 }
    }
}

/// The `errors` section (SPEC §9.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorsConfig {
    /// A wrong value whose string similarity (§2.2) reaches this is a
    /// `near_miss`. Default 0.8.
    pub near_miss: f64,
}

impl Default for ErrorsConfig {
    fn default() -> Self {
        ErrorsConfig { near_miss: 0.8 }
    }
}

/// The `slices` section (SPEC §9.2, §8.5), every default SPEC's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SlicesConfig {
    /// A slice is tested when it has at least this many documents and at
    /// least this many lie outside it. Default 10.
    pub min_documents: usize,
    /// Bootstrap resamples `B` of each test. Default 1,000.
    pub resamples: usize,
    /// A slice is weak when its Holm-adjusted p-value is at most this.
    /// Default 0.05.
    pub alpha: f64,
}

impl Default for SlicesConfig {
    fn default() -> Self {
        SlicesConfig {
            min_documents: 10,
            resamples: 1000,
            alpha: 0.05,
        }
    }
}

/// The `confidence` section (SPEC §8.1, §8.3–§8.4, §8.5), every default
/// SPEC's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceConfig {
    /// The top-level record key holding confidences beside the fields
    /// (§8.1). Default `"_confidence"`.
    pub key: String,
    /// Equal-width reliability bins (§8.3). Default 10.
    pub bins: usize,
    /// Thresholds reported with their coverage and accuracy (§8.3).
    pub thresholds: Vec<f64>,
    /// Targets of `coverage_at_accuracy` (§8.3).
    pub target_accuracy: Vec<f64>,
    /// Review budgets of `error_capture` (§8.3).
    pub review_budgets: Vec<f64>,
    /// The accuracy a field's recommended threshold must reach at the
    /// Wilson lower bound (§8.4). Default 0.95.
    pub review_target: f64,
    /// Fewer pairs than this: no recommended threshold (§8.4). Default 20.
    pub min_pairs: usize,
    /// A document's threshold for going straight through, for fields not
    /// in `field_thresholds` (§8.4). Default 0.95.
    pub straight_through: f64,
    /// Per-field thresholds for going straight through (§8.4), paths as in
    /// the per-field table. Default `{}`.
    pub field_thresholds: std::collections::BTreeMap<String, f64>,
}

impl Default for ConfidenceConfig {
    fn default() -> Self {
        Config::default().confidence
    }
}

impl ConfidenceConfig {
    /// The numbers the scores of §8.3–§8.4 read.
    pub fn settings(&self) -> crate::eval::confidence::ConfidenceSettings {
        crate::eval::confidence::ConfidenceSettings {
            bins: self.bins,
            thresholds: self.thresholds.clone(),
            target_accuracy: self.target_accuracy.clone(),
            review_budgets: self.review_budgets.clone(),
            review_target: self.review_target,
            min_pairs: self.min_pairs,
        }
    }

    /// The straight-through threshold of field `path` (§8.4).
    pub fn threshold_of(&self, path: &str) -> f64 {
        self.field_thresholds
            .get(path)
            .copied()
            .unwrap_or(self.straight_through)
    }
}

/// The named presets (SPEC §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Preset {
    #[serde(rename = "standard")]
    Standard,
    #[serde(rename = "exact")]
    Exact,
    #[serde(rename = "not-found")]
    NotFound,
    #[serde(rename = "invoice-cer")]
    InvoiceCer,
}

impl Preset {
    pub const ALL: [Preset; 4] = [
        Preset::Standard,
        Preset::Exact,
        Preset::NotFound,
        Preset::InvoiceCer,
    ];

    /// The preset's name as written in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Exact => "exact",
            Preset::NotFound => "not-found",
            Preset::InvoiceCer => "invoice-cer",
        }
    }

    /// Parses a preset name; the error lists the presets.
    pub fn parse(name: &str) -> Result<Preset, Error> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Config,
                    format!(
                        "unknown preset {:?}; the presets are: standard, exact, not-found, invoice-cer",
                        name
                    ),
                )
            })
    }

    /// The keys this preset sets over the defaults (SPEC §4).
    pub fn overrides(self) -> Value {
        match self {
            Preset::Standard => json!({}),
            Preset::Exact => json!({"string_match": {"method": "exact"}}),
            Preset::NotFound => json!({
                "string_match": {"method": "exact"},
                "incorrect_counts_as": ["fp"]
            }),
            Preset::InvoiceCer => json!({
                "string_match": {"method": "cer", "cer_threshold": 0.15},
                "item_f1_threshold": 0.85
            }),
        }
    }
}

/// A field type of `field_types` (SPEC §7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    Number,
    Integer,
    Date,
    NumericString,
    String,
    Boolean,
}

impl FieldType {
    pub const ALL: [FieldType; 6] = [
        FieldType::Number,
        FieldType::Integer,
        FieldType::Date,
        FieldType::NumericString,
        FieldType::String,
        FieldType::Boolean,
    ];

    /// The type's name as written in a config.
    pub fn name(self) -> &'static str {
        match self {
            FieldType::Number => "number",
            FieldType::Integer => "integer",
            FieldType::Date => "date",
            FieldType::NumericString => "numeric_string",
            FieldType::String => "string",
            FieldType::Boolean => "boolean",
        }
    }

    /// Parses a type name; the error lists the types.
    pub fn parse(name: &str) -> Option<FieldType> {
        FieldType::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// How day and month are ordered in `D/M/YYYY`-style dates (SPEC §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DateOrder {
    Dmy,
    Mdy,
}

/// String match method (SPEC §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchMethod {
    Similarity,
    Cer,
    Exact,
}

impl MatchMethod {
    /// The method's name as written in a config.
    pub fn name(self) -> &'static str {
        match self {
            MatchMethod::Similarity => "similarity",
            MatchMethod::Cer => "cer",
            MatchMethod::Exact => "exact",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StringMatch {
    pub method: MatchMethod,
    pub cer_threshold: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartialMatching {
    pub string: SimilarityThresholds,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimilarityThresholds {
    pub exact_threshold: f64,
    pub partial_threshold: f64,
}

/// Where an incorrect value is counted (SPEC §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncorrectCountsAs {
    /// `["fp", "fn"]`: a wrong value is both a false positive and a false
    /// negative (default).
    FpAndFn,
    /// `["fp"]`: a wrong value is a false positive only (M0).
    FpOnly,
}

impl Serialize for IncorrectCountsAs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            IncorrectCountsAs::FpAndFn => ["fp", "fn"].serialize(s),
            IncorrectCountsAs::FpOnly => ["fp"].serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for IncorrectCountsAs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<String>::deserialize(d)?;
        parse_incorrect_counts_as(&v).ok_or_else(|| {
            serde::de::Error::custom("incorrect_counts_as must be [\"fp\", \"fn\"] or [\"fp\"]")
        })
    }
}

pub(super) fn parse_incorrect_counts_as(v: &[String]) -> Option<IncorrectCountsAs> {
    let mut names: Vec<&str> = v.iter().map(|s| s.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    match names.as_slice() {
        ["fn", "fp"] => Some(IncorrectCountsAs::FpAndFn),
        ["fp"] => Some(IncorrectCountsAs::FpOnly),
        _ => None,
    }
}

/// How F1 is averaged over documents (SPEC §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MacroF1 {
    /// Harmonic mean of macro precision and macro recall (M4's table).
    Harmonic,
    /// Mean of per-document F1.
    Mean,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentScoreConfig {
    pub weights: DocumentScoreWeights,
}

/// Weights of `document_extraction_score` (SPEC §3.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentScoreWeights {
    pub numeric_precision: f64,
    pub field_f1_partial: f64,
    pub schema_validity: f64,
}

impl Config {
    /// The type `field_types` gives `path` (SPEC §7.1), if any.
    pub fn field_type(&self, path: &str) -> Option<FieldType> {
        self.field_types.get(path).copied()
    }
}
