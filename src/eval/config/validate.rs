//! The checks of a configuration: a user layer against the shape of the
//! defaults (unknown keys and wrong types are errors that name the key and
//! the allowed keys or the expected type and the value found), the keys
//! with a fixed list of values, `app_url`, `field_types`, `field_weights`,
//! and the ranges and consistency of a built [`Config`].
//!
//! Owns: every configuration error message. Depends on `types`; no I/O.

use super::types::{parse_incorrect_counts_as, Config, FieldType};
use crate::error::{Error, ErrorKind};
use serde_json::Value;

pub(super) fn describe_json(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 60 {
        let short: String = text.chars().take(57).collect();
        format!("{short}...")
    } else {
        text
    }
}

/// The JSON type of `v` with its article, for messages ("a string"):
/// the configuration's and the input adapters' (`crate::io`).
pub(crate) fn type_name(v: &Value) -> &'static str {
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
pub(super) fn check_layer(layer: &Value, defaults: &Value, prefix: &str) -> Result<(), Error> {
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
pub(super) const FIELD_WEIGHTS: &str = "field_weights";

/// The config key of [`Config::app_url`].
pub(super) const APP_URL: &str = "app_url";

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

pub(super) fn app_url_error(value: &Value) -> Error {
    Error::new(
        ErrorKind::Config,
        format!(
            "key `app_url` expects an http:// or https:// address of the fieldscope app, found {} {}",
            type_name(value),
            describe_json(value)
        ),
    )
}

pub(super) const FIELD_TYPES: &str = "field_types";

/// `field_types` (SPEC §7.1): an object mapping field paths to type names.
pub(super) fn check_field_types(value: &Value) -> Result<(), Error> {
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
pub(super) fn check_field_weights(value: &Value) -> Result<(), Error> {
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
pub(super) fn check_unit_map(key: &str, value: &Value) -> Result<(), Error> {
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

pub(super) enum Expected {
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

pub(super) fn expected_type(path: &str, default: &Value) -> Expected {
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
pub(super) fn check_enum(path: &str, value: &Value) -> Result<(), Error> {
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
    pub(super) fn check_ranges(&self) -> Result<(), Error> {
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
