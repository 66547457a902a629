//! How a [`Config`] is built from layers (SPEC §4): the built-in
//! defaults ([`default_json`]) < preset < config file < overrides, nested
//! objects merged key by key ([`merge`]), each user layer checked by
//! `validate` before it is merged and the result checked for ranges.
//!
//! Owns: the defaults' JSON and the layering. Depends on `types` and
//! `validate`; no I/O.

use super::types::{Config, Preset};
use super::validate::check_layer;
use crate::error::{Error, ErrorKind};
use serde_json::{json, Map, Value};

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

/// Builds a [`Config`] from layers: defaults < preset < config file <
/// overrides (SPEC §4).
#[derive(Debug, Clone)]
pub struct ConfigBuilder {
    /// A preset chosen explicitly (command line), which beats the config file's.
    pub(super) forced_preset: Option<Preset>,
    /// The user layers, merged in order, without their `preset` key.
    pub(super) layers: Value,
    /// The preset named by the last layer that named one.
    pub(super) layer_preset: Option<Preset>,
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
