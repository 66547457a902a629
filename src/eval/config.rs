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
//!
//! The typed configuration is in `types`, the layering in `builder`, the
//! checks in `validate`; this file joins them ([`Config::preset`],
//! [`Config::from_json`]) and re-exports their public items.

mod builder;
mod types;
mod validate;

use crate::error::Error;
use serde_json::Value;

pub use builder::{default_json, merge, ConfigBuilder};
pub use types::{
    AuditConfig, ConfidenceConfig, Config, DateOrder, DocumentScoreConfig, DocumentScoreWeights,
    ErrorsConfig, FieldType, IncorrectCountsAs, MacroF1, MatchMethod, PartialMatching, Preset,
    SimilarityThresholds, SlicesConfig, StringMatch,
};
pub use validate::check_app_url;
pub(crate) use validate::type_name;

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

#[cfg(test)]
mod tests;
