//! The metrics configuration (SPEC §4): defaults, presets, merging and
//! validation.
//!
//! Owns: [`Config`] and how it is built from layers. Precedence, lowest
//! first: built-in defaults < preset < `metrics_config.json` < command-line
//! flags / the app's settings panel. Nested objects merge key by key. Unknown
//! keys and wrong types are errors that name the key (and the allowed keys or
//! the expected type and the value found).
//!
//! Depends on: `serde_json`, [`crate::error`]. No I/O.

use crate::error::{Error, ErrorKind};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

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

fn parse_incorrect_counts_as(v: &[String]) -> Option<IncorrectCountsAs> {
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

/// The built-in defaults as JSON (SPEC §4, the `standard` preset).
pub fn default_json() -> Value {
    json!({
        "preset": "standard",
        "id_field": null,
        "absent_values": ["NOT_FOUND", "N/A", ""],
        "ignored_fields": [],
        "numeric_string_fields": [],
        "date_fields": [],
        "date_order": "dmy",
        "case_sensitive": false,
        "numeric_tolerance": 0,
        "string_match": {"method": "similarity", "cer_threshold": 0.15},
        "partial_matching": {"string": {"exact_threshold": 0.85, "partial_threshold": 0.40}},
        "incorrect_counts_as": ["fp", "fn"],
        "zero_division": 0,
        "empty_document_score": 1,
        "macro_f1": "harmonic",
        "item_f1_threshold": 0.85,
        "top_k": [1, 3, 5],
        "document_extraction_score": {"weights": {
            "numeric_precision": 0.50, "field_f1_partial": 0.35, "schema_validity": 0.15
        }},
        "field_types": {},
        "schema_by": null,
        "confidence": {
            "key": "_confidence",
            "bins": 10,
            "thresholds": [0.5, 0.8, 0.9, 0.95, 0.99],
            "target_accuracy": [0.9, 0.95, 0.99],
            "review_budgets": [0.05, 0.1, 0.2, 0.3],
            "review_target": 0.95,
            "min_pairs": 20,
            "straight_through": 0.95,
            "field_thresholds": {}
        },
        "audit": {"agreement": 0.5},
        "errors": {"near_miss": 0.8},
        "slice_by": [],
        "slices": {"min_documents": 10, "resamples": 1000, "alpha": 0.05}
    })
}

impl Default for Config {
    fn default() -> Self {
        Config::preset(Preset::Standard)
    }
}

impl Config {
    /// The defaults with a preset applied.
    pub fn preset(preset: Preset) -> Config {
        ConfigBuilder::new()
            .preset(preset)
            .build()
            .unwrap_or_else(|_| unreachable_config())
    }

    /// The configuration as the report's `config` object. SPEC §9.2's
    /// `slice_by` and `slices` are spelled out only when slices are asked
    /// for (`slice_by` non-empty) or `slices` is not the default, so a
    /// report without slices is byte for byte the one of before §9.
    pub fn to_json(&self) -> Value {
        let mut value = serde_json::to_value(self).unwrap_or(Value::Null);
        if let Value::Object(map) = &mut value {
            if self.slice_by.is_empty() {
                map.remove("slice_by");
                if self.slices == SlicesConfig::default() {
                    map.remove("slices");
                }
            }
        }
        value
    }

    /// Reads a metrics config file's JSON over the defaults (and the preset
    /// it names). Shorthand for [`ConfigBuilder`] with one layer.
    pub fn from_json(value: &Value) -> Result<Config, Error> {
        ConfigBuilder::new().layer(value)?.build()
    }
}

// The defaults and presets are constants that always validate; this is only
// reached if they were edited into something invalid, which the tests catch.
fn unreachable_config() -> Config {
    serde_json::from_value(default_json()).expect("built-in default config is valid")
}

/// Builds a [`Config`] from layers: defaults < preset < config file <
/// overrides (SPEC §4).
#[derive(Debug, Clone)]
pub struct ConfigBuilder {
    /// A preset chosen explicitly (command line), which beats the config file's.
    forced_preset: Option<Preset>,
    /// The user layers, merged in order, without their `preset` key.
    layers: Value,
    /// The preset named by the last layer that named one.
    layer_preset: Option<Preset>,
}

impl Default for ConfigBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ConfigBuilder {
    pub fn new() -> Self {
        ConfigBuilder {
            forced_preset: None,
            layers: Value::Object(Map::new()),
            layer_preset: None,
        }
    }

    /// Chooses the preset, even when a config layer names another
    /// (`--preset` on the command line).
    pub fn preset(mut self, preset: Preset) -> Self {
        self.forced_preset = Some(preset);
        self
    }

    /// Merges a config layer (a `metrics_config.json` or the app's
    /// settings) over the previous ones, key by key. The layer is checked:
    /// unknown keys and wrong types are errors naming the key.
    pub fn layer(mut self, layer: &Value) -> Result<Self, Error> {
        let defaults = default_json();
        check_layer(layer, &defaults, "")?;
        if let Value::Object(map) = layer {
            let mut map = map.clone();
            if let Some(p) = map.remove("preset") {
                let name = p.as_str().unwrap_or_default();
                self.layer_preset = Some(Preset::parse(name)?);
            }
            merge(&mut self.layers, &Value::Object(map));
        }
        Ok(self)
    }

    /// The effective configuration.
    pub fn build(self) -> Result<Config, Error> {
        let preset = self
            .forced_preset
            .or(self.layer_preset)
            .unwrap_or(Preset::Standard);
        let mut value = default_json();
        merge(&mut value, &preset.overrides());
        merge(&mut value, &self.layers);
        if let Value::Object(map) = &mut value {
            map.insert("preset".into(), Value::String(preset.name().into()));
        }
        let config: Config = serde_json::from_value(value)
            .map_err(|e| Error::new(ErrorKind::Config, format!("metrics config: {e}")))?;
        config.check_ranges()?;
        Ok(config)
    }
}

/// Merges `over` into `base`, objects key by key, everything else replaced.
pub fn merge(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}

fn describe_json(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 60 {
        let short: String = text.chars().take(57).collect();
        format!("{short}...")
    } else {
        text
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Checks a user layer against the shape of the defaults: every key must
/// exist there and every value must have the default's type.
fn check_layer(layer: &Value, defaults: &Value, prefix: &str) -> Result<(), Error> {
    let (Value::Object(map), Value::Object(allowed)) = (layer, defaults) else {
        let what = if prefix.is_empty() {
            "the metrics config".to_string()
        } else {
            format!("key `{prefix}`")
        };
        return Err(Error::new(
            ErrorKind::Config,
            format!(
                "{what} expects an object, found {} {}",
                type_name(layer),
                describe_json(layer)
            ),
        ));
    };
    for (key, value) in map {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        if prefix.is_empty() && key == FIELD_WEIGHTS {
            check_field_weights(value)?;
            continue;
        }
        if prefix.is_empty() && key == FIELD_TYPES {
            check_field_types(value)?;
            continue;
        }
        if prefix.is_empty() && key == APP_URL {
            match value {
                Value::String(url) => check_app_url(url)?,
                _ => return Err(app_url_error(value)),
            };
            continue;
        }
        if path == "confidence.field_thresholds" {
            check_unit_map(&path, value)?;
            continue;
        }
        let Some(default) = allowed.get(key) else {
            let mut names: Vec<&str> = allowed.keys().map(|k| k.as_str()).collect();
            if prefix.is_empty() {
                names.push(FIELD_WEIGHTS);
                names.push(APP_URL);
            }
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "unknown key `{path}`; the allowed keys{} are: {}",
                    if prefix.is_empty() {
                        String::new()
                    } else {
                        format!(" in `{prefix}`")
                    },
                    names.join(", ")
                ),
            ));
        };
        let expected = expected_type(&path, default);
        let ok = match expected {
            Expected::Object => {
                check_layer(value, default, &path)?;
                true
            }
            Expected::Number => value.as_f64().is_some_and(f64::is_finite),
            Expected::Bool => value.is_boolean(),
            Expected::String => value.is_string(),
            Expected::StringOrNull => value.is_string() || value.is_null(),
            Expected::Strings => value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)),
            Expected::PositiveIntegers => value
                .as_array()
                .is_some_and(|a| a.iter().all(|n| n.as_u64().is_some_and(|k| k >= 1))),
            Expected::UnitNumbers => value.as_array().is_some_and(|a| {
                a.iter()
                    .all(|n| n.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x)))
            }),
            Expected::PositiveInteger => value.as_u64().is_some_and(|k| k >= 1),
        };
        if !ok {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "key `{path}` expects {}, found {} {}",
                    expected.describe(),
                    type_name(value),
                    describe_json(value)
                ),
            ));
        }
        check_enum(&path, value)?;
    }
    Ok(())
}

/// The config key of [`Config::field_weights`].
const FIELD_WEIGHTS: &str = "field_weights";
/// The config key of [`Config::app_url`].
const APP_URL: &str = "app_url";

/// Checks an `app_url` (the config key, `--app-url`, Python's `app_url=`)
/// and returns it: an absolute address whose scheme is `http` or `https`
/// (any case), with a host (something before the first `/`, `?` or `#`
/// after `//`), and no whitespace, control character or any of
/// `"` `<` `>` `\` `` ` `` `{` `}` `|` `^` (which a URL never holds
/// unencoded). Anything else — `javascript:`, `data:`, `file:`, a relative
/// path — is an error naming the key. The report escapes it anyway.
pub fn check_app_url(url: &str) -> Result<String, Error> {
    let lower = url.to_ascii_lowercase();
    let rest = ["https://", "http://"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme));
    let host_ok = rest.is_some_and(|r| !r.is_empty() && !r.starts_with(['/', '?', '#']));
    let chars_ok = !url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || "\"<>\\`{}|^".contains(c));
    if host_ok && chars_ok {
        Ok(url.to_string())
    } else {
        Err(app_url_error(&Value::String(url.to_string())))
    }
}

fn app_url_error(value: &Value) -> Error {
    Error::new(
        ErrorKind::Config,
        format!(
            "key `app_url` expects an http:// or https:// address of the fieldscope app, found {} {}",
            type_name(value),
            describe_json(value)
        ),
    )
}
const FIELD_TYPES: &str = "field_types";

/// `field_types` (SPEC §7.1): an object mapping field paths to type names.
fn check_field_types(value: &Value) -> Result<(), Error> {
    let Value::Object(map) = value else {
        return Err(Error::new(
            ErrorKind::Config,
            format!(
                "key `field_types` expects an object mapping field paths to types, found {} {}",
                type_name(value),
                describe_json(value)
            ),
        ));
    };
    for (field, ty) in map {
        if ty.as_str().and_then(FieldType::parse).is_none() {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "key `field_types.{field}` expects one of {}, found {}",
                    FieldType::ALL
                        .iter()
                        .map(|t| format!("\"{}\"", t.name()))
                        .collect::<Vec<_>>()
                        .join(", "),
                    describe_json(ty)
                ),
            ));
        }
    }
    Ok(())
}

/// `field_weights` is an object mapping field paths to non-negative numbers.
fn check_field_weights(value: &Value) -> Result<(), Error> {
    let Value::Object(map) = value else {
        return Err(Error::new(
            ErrorKind::Config,
            format!(
                "key `field_weights` expects an object mapping field paths to weights, found {} {}",
                type_name(value),
                describe_json(value)
            ),
        ));
    };
    for (field, weight) in map {
        if !weight.as_f64().is_some_and(|w| w.is_finite() && w >= 0.0) {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "key `field_weights.{field}` expects a number ≥ 0, found {} {}",
                    type_name(weight),
                    describe_json(weight)
                ),
            ));
        }
    }
    Ok(())
}

/// An object mapping field paths to numbers in [0, 1] (`confidence.field_thresholds`).
fn check_unit_map(key: &str, value: &Value) -> Result<(), Error> {
    let Value::Object(map) = value else {
        return Err(Error::new(
            ErrorKind::Config,
            format!(
                "key `{key}` expects an object mapping field paths to thresholds, found {} {}",
                type_name(value),
                describe_json(value)
            ),
        ));
    };
    for (field, t) in map {
        if !t.as_f64().is_some_and(|t| (0.0..=1.0).contains(&t)) {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "key `{key}.{field}` expects a number between 0 and 1, found {} {}",
                    type_name(t),
                    describe_json(t)
                ),
            ));
        }
    }
    Ok(())
}

enum Expected {
    Object,
    Number,
    Bool,
    String,
    StringOrNull,
    Strings,
    PositiveIntegers,
    UnitNumbers,
    PositiveInteger,
}

impl Expected {
    fn describe(&self) -> &'static str {
        match self {
            Expected::Object => "an object",
            Expected::Number => "a number",
            Expected::Bool => "a boolean (true or false)",
            Expected::String => "a string",
            Expected::StringOrNull => "a string or null",
            Expected::Strings => "an array of strings",
            Expected::PositiveIntegers => "an array of whole numbers ≥ 1",
            Expected::UnitNumbers => "an array of numbers between 0 and 1",
            Expected::PositiveInteger => "a whole number ≥ 1",
        }
    }
}

fn expected_type(path: &str, default: &Value) -> Expected {
    match (path, default) {
        ("id_field" | "schema_by", _) => Expected::StringOrNull,
        ("top_k", _) => Expected::PositiveIntegers,
        (
            "confidence.thresholds" | "confidence.target_accuracy" | "confidence.review_budgets",
            _,
        ) => Expected::UnitNumbers,
        ("confidence.bins" | "confidence.min_pairs", _) => Expected::PositiveInteger,
        ("slices.min_documents" | "slices.resamples", _) => Expected::PositiveInteger,
        (_, Value::Object(_)) => Expected::Object,
        (_, Value::Number(_)) => Expected::Number,
        (_, Value::Bool(_)) => Expected::Bool,
        (_, Value::String(_)) => Expected::String,
        _ => Expected::Strings,
    }
}

/// Checks the keys whose values come from a fixed list.
fn check_enum(path: &str, value: &Value) -> Result<(), Error> {
    let allowed: &[&str] = match path {
        "preset" => &["standard", "exact", "not-found", "invoice-cer"],
        "date_order" => &["dmy", "mdy"],
        "string_match.method" => &["similarity", "cer", "exact"],
        "macro_f1" => &["harmonic", "mean"],
        "incorrect_counts_as" => {
            let names: Vec<String> = value
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            if parse_incorrect_counts_as(&names).is_none() {
                return Err(Error::new(
                    ErrorKind::Config,
                    format!(
                        "key `incorrect_counts_as` expects [\"fp\", \"fn\"] or [\"fp\"], found {}",
                        describe_json(value)
                    ),
                ));
            }
            return Ok(());
        }
        _ => return Ok(()),
    };
    let s = value.as_str().unwrap_or_default();
    if allowed.contains(&s) {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::Config,
            format!(
                "key `{path}` expects one of {}, found {}",
                allowed
                    .iter()
                    .map(|a| format!("\"{a}\""))
                    .collect::<Vec<_>>()
                    .join(", "),
                describe_json(value)
            ),
        ))
    }
}

impl Config {
    /// The type `field_types` gives `path` (SPEC §7.1), if any.
    pub fn field_type(&self, path: &str) -> Option<FieldType> {
        self.field_types.get(path).copied()
    }

    /// SPEC §7.1: a path named in `date_fields` or `numeric_string_fields`
    /// and in `field_types` with another type is an error naming the path.
    fn check_field_types(&self) -> Result<(), Error> {
        let shorthands = [
            ("date_fields", &self.date_fields, FieldType::Date),
            (
                "numeric_string_fields",
                &self.numeric_string_fields,
                FieldType::NumericString,
            ),
        ];
        for (key, paths, ty) in shorthands {
            for path in paths {
                match self.field_type(path) {
                    Some(other) if other != ty => {
                        return Err(Error::new(
                            ErrorKind::Config,
                            format!(
                                "field `{path}` is in `{key}` and has type \"{}\" in `field_types`; give it one type",
                                other.name()
                            ),
                        ))
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Values that have the right type but make no sense.
    fn check_ranges(&self) -> Result<(), Error> {
        self.check_field_types()?;
        let unit = [
            (
                "string_match.cer_threshold",
                self.string_match.cer_threshold,
                f64::INFINITY,
            ),
            (
                "partial_matching.string.exact_threshold",
                self.partial_matching.string.exact_threshold,
                1.0,
            ),
            (
                "partial_matching.string.partial_threshold",
                self.partial_matching.string.partial_threshold,
                1.0,
            ),
            ("zero_division", self.zero_division, 1.0),
            ("empty_document_score", self.empty_document_score, 1.0),
            ("item_f1_threshold", self.item_f1_threshold, 1.0),
            ("numeric_tolerance", self.numeric_tolerance, f64::INFINITY),
            (
                "confidence.review_target",
                self.confidence.review_target,
                1.0,
            ),
            (
                "confidence.straight_through",
                self.confidence.straight_through,
                1.0,
            ),
            ("audit.agreement", self.audit.agreement, 1.0),
            ("errors.near_miss", self.errors.near_miss, 1.0),
            ("slices.alpha", self.slices.alpha, 1.0),
            (
                "document_extraction_score.weights.numeric_precision",
                self.document_extraction_score.weights.numeric_precision,
                f64::INFINITY,
            ),
            (
                "document_extraction_score.weights.field_f1_partial",
                self.document_extraction_score.weights.field_f1_partial,
                f64::INFINITY,
            ),
            (
                "document_extraction_score.weights.schema_validity",
                self.document_extraction_score.weights.schema_validity,
                f64::INFINITY,
            ),
        ];
        for (key, value, max) in unit {
            if !(0.0..=max).contains(&value) {
                let range = if max.is_finite() {
                    format!("between 0 and {max}")
                } else {
                    "of at least 0".to_string()
                };
                return Err(Error::new(
                    ErrorKind::Config,
                    format!("key `{key}` expects a number {range}, found {value}"),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_types_merge_by_path_and_check_types_and_shorthands() {
        let c = ConfigBuilder::new()
            .layer(&json!({"field_types": {"a": "number", "b": "date"}}))
            .unwrap()
            .layer(&json!({"field_types": {"a": "string"}}))
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(c.field_type("a"), Some(FieldType::String));
        assert_eq!(c.field_type("b"), Some(FieldType::Date));
        assert_eq!(
            c.to_json()["field_types"],
            json!({"a": "string", "b": "date"})
        );
        assert_eq!(Config::default().to_json()["field_types"], json!({}));
        assert_eq!(Config::default().to_json()["schema_by"], json!(null));
        let err = Config::from_json(&json!({"field_types": {"a": "money"}})).unwrap_err();
        assert!(err.message.contains("`field_types.a` expects one of \"number\", \"integer\", \"date\", \"numeric_string\", \"string\", \"boolean\", found \"money\""), "{}", err.message);
        let err = Config::from_json(&json!({"field_types": ["a"]})).unwrap_err();
        assert!(
            err.message.contains("`field_types` expects an object"),
            "{}",
            err.message
        );
        // A shorthand and field_types agreeing is fine; disagreeing is an error naming the path.
        assert!(
            Config::from_json(&json!({"date_fields": ["d"], "field_types": {"d": "date"}})).is_ok()
        );
        let err = Config::from_json(
            &json!({"numeric_string_fields": ["n"], "field_types": {"n": "number"}}),
        )
        .unwrap_err();
        assert_eq!(err.message, "field `n` is in `numeric_string_fields` and has type \"number\" in `field_types`; give it one type");
        let err = Config::from_json(&json!({"schema_by": 3})).unwrap_err();
        assert!(
            err.message.contains("`schema_by` expects a string or null"),
            "{}",
            err.message
        );
    }

    #[test]
    fn defaults_match_the_spec() {
        let c = Config::default();
        assert_eq!(c.preset, Preset::Standard);
        assert_eq!(c.absent_values, vec!["NOT_FOUND", "N/A", ""]);
        assert_eq!(c.string_match.method, MatchMethod::Similarity);
        assert_eq!(c.string_match.cer_threshold, 0.15);
        assert_eq!(c.partial_matching.string.exact_threshold, 0.85);
        assert_eq!(c.partial_matching.string.partial_threshold, 0.40);
        assert_eq!(c.incorrect_counts_as, IncorrectCountsAs::FpAndFn);
        assert_eq!(c.top_k, vec![1, 3, 5]);
        assert_eq!(c.document_extraction_score.weights.numeric_precision, 0.5);
        assert_eq!(c.to_json()["incorrect_counts_as"], json!(["fp", "fn"]));
        assert_eq!(c.to_json()["preset"], json!("standard"));
    }

    #[test]
    fn presets_set_their_keys() {
        assert_eq!(
            Config::preset(Preset::Exact).string_match.method,
            MatchMethod::Exact
        );
        let nf = Config::preset(Preset::NotFound);
        assert_eq!(nf.string_match.method, MatchMethod::Exact);
        assert_eq!(nf.incorrect_counts_as, IncorrectCountsAs::FpOnly);
        let inv = Config::preset(Preset::InvoiceCer);
        assert_eq!(inv.string_match.method, MatchMethod::Cer);
        assert_eq!(inv.to_json()["preset"], json!("invoice-cer"));
    }

    #[test]
    fn nested_objects_merge_key_by_key() {
        let c = Config::from_json(&json!({
            "preset": "invoice-cer",
            "string_match": {"cer_threshold": 0.25}
        }))
        .unwrap();
        assert_eq!(c.string_match.method, MatchMethod::Cer);
        assert_eq!(c.string_match.cer_threshold, 0.25);
    }

    #[test]
    fn forced_preset_beats_the_config_files_preset() {
        let c = ConfigBuilder::new()
            .preset(Preset::Exact)
            .layer(&json!({"preset": "invoice-cer", "zero_division": 1}))
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(c.preset, Preset::Exact);
        assert_eq!(c.string_match.method, MatchMethod::Exact);
        assert_eq!(c.zero_division, 1.0);
    }

    #[test]
    fn later_layers_win() {
        let c = ConfigBuilder::new()
            .layer(&json!({"string_match": {"method": "exact"}, "zero_division": 1}))
            .unwrap()
            .layer(&json!({"string_match": {"method": "cer"}}))
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(c.string_match.method, MatchMethod::Cer);
        assert_eq!(c.zero_division, 1.0);
    }

    #[test]
    fn app_url_is_an_http_address_and_absent_when_unset() {
        assert!(Config::default().to_json().get("app_url").is_none());
        let c = Config::from_json(&json!({"app_url": "https://example.org/fieldscope/"})).unwrap();
        assert_eq!(
            c.app_url.as_deref(),
            Some("https://example.org/fieldscope/")
        );
        assert_eq!(
            c.to_json()["app_url"],
            json!("https://example.org/fieldscope/")
        );
        for ok in [
            "http://localhost:8080",
            "HTTPS://x.org/a?b=1#c",
            "https://例え.jp/",
        ] {
            assert_eq!(check_app_url(ok).unwrap(), ok);
        }
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "file:///etc/passwd",
            "/relative",
            "https://",
            "https:///path",
            "http://a b",
            "https://x.org/\"onmouseover=\"x",
            "https://x.org/<script>",
            "",
        ] {
            let e = check_app_url(bad).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Config);
            assert!(
                e.message
                    .starts_with("key `app_url` expects an http:// or https:// address"),
                "{bad}: {}",
                e.message
            );
        }
        let e = Config::from_json(&json!({"app_url": 3})).unwrap_err();
        assert_eq!(
            e.message,
            "key `app_url` expects an http:// or https:// address of the fieldscope app, found a number 3"
        );
    }

    #[test]
    fn unknown_key_names_the_key_and_the_allowed_keys() {
        let e = Config::from_json(&json!({"zero_divison": 1})).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Config);
        assert!(
            e.message.starts_with(
                "unknown key `zero_divison`; the allowed keys are: preset, id_field, absent_values"
            ),
            "{}",
            e.message
        );
        let e = Config::from_json(&json!({"string_match": {"methd": "cer"}})).unwrap_err();
        assert_eq!(
            e.message,
            "unknown key `string_match.methd`; the allowed keys in `string_match` are: method, cer_threshold"
        );
    }

    #[test]
    fn wrong_type_names_key_expected_type_and_value() {
        let e = Config::from_json(&json!({"zero_division": "zero"})).unwrap_err();
        assert_eq!(
            e.message,
            "key `zero_division` expects a number, found a string \"zero\""
        );
        let e = Config::from_json(&json!({"top_k": [0, 3]})).unwrap_err();
        assert_eq!(
            e.message,
            "key `top_k` expects an array of whole numbers ≥ 1, found an array [0,3]"
        );
        let e = Config::from_json(&json!({"string_match": {"method": "fuzzy"}})).unwrap_err();
        assert_eq!(
            e.message,
            "key `string_match.method` expects one of \"similarity\", \"cer\", \"exact\", found \"fuzzy\""
        );
        let e = Config::from_json(&json!({"incorrect_counts_as": ["fn"]})).unwrap_err();
        assert!(e.message.contains("[\"fp\", \"fn\"] or [\"fp\"]"));
        let e = Config::from_json(&json!([1])).unwrap_err();
        assert_eq!(
            e.message,
            "the metrics config expects an object, found an array [1]"
        );
        let e = Config::from_json(&json!({"item_f1_threshold": 1.5})).unwrap_err();
        assert_eq!(
            e.message,
            "key `item_f1_threshold` expects a number between 0 and 1, found 1.5"
        );
    }

    #[test]
    fn id_field_may_be_null_or_a_string() {
        let c = Config::from_json(&json!({"id_field": "doc"})).unwrap();
        assert_eq!(c.id_field.as_deref(), Some("doc"));
        assert!(Config::from_json(&json!({"id_field": 3})).is_err());
    }

    #[test]
    fn audit_agreement_defaults_to_a_half_and_is_checked() {
        assert_eq!(Config::default().audit.agreement, 0.5);
        assert_eq!(
            Config::default().to_json()["audit"],
            json!({"agreement": 0.5})
        );
        let c = Config::from_json(&json!({"audit": {"agreement": 0.75}})).unwrap();
        assert_eq!(c.audit.agreement, 0.75);
        let e = Config::from_json(&json!({"audit": {"agreement": 1.5}})).unwrap_err();
        assert_eq!(
            e.message,
            "key `audit.agreement` expects a number between 0 and 1, found 1.5"
        );
        let e = Config::from_json(&json!({"audit": {"agree": 0.5}})).unwrap_err();
        assert!(
            e.message.contains("unknown key `audit.agree`"),
            "{}",
            e.message
        );
        let e = Config::from_json(&json!({"audit": {"agreement": "half"}})).unwrap_err();
        assert!(
            e.message.contains("`audit.agreement` expects a number"),
            "{}",
            e.message
        );
    }
}
