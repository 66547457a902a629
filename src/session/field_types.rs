//! The app's field types (SPEC §7.1): what a field row's type menu and the
//! settings panel's list of typed fields show and set, and what a click on
//! a suggestion (SPEC §7.4) adds.
//!
//! Owns: reading a path's declared type from an effective [`Config`]
//! (`field_types`, else the shorthands `date_fields` and
//! `numeric_string_fields`) and writing `field_types` into a settings
//! layer so that the result is a valid config (`settings::Layered` calls
//! it for the session and the page alike). Depends on `eval::config`
//! only; knows no web types.
//!
//! Readings (docs/real-data.md): the settings layer merges over the config
//! files key by key, so a type that a config *file* gives cannot be
//! cleared here ("automatic" then still shows the file's type); a path
//! that a shorthand names gets out of that shorthand's list (in the
//! settings layer) when another type is chosen for it, since §7.1 makes a
//! path with two types a config error.

use crate::eval::config::FieldType;
use crate::eval::Config;
use serde_json::{Map, Value};

/// A shorthand's list in a configuration.
type ListOf = fn(&Config) -> &[String];

/// The config keys that are shorthands for one type (SPEC §7.1), with
/// the list each one holds in a configuration.
pub(super) const SHORTHANDS: [(&str, FieldType, ListOf); 2] = [
    ("date_fields", FieldType::Date, |c| &c.date_fields),
    ("numeric_string_fields", FieldType::NumericString, |c| {
        &c.numeric_string_fields
    }),
];

/// The type `config` gives `path` (SPEC §7.1): its `field_types` entry,
/// else `date` or `numeric_string` when a shorthand names it; `None` when
/// nothing declares it (compared by its schema or its JSON values).
pub fn declared_type(config: &Config, path: &str) -> Option<FieldType> {
    config.field_type(path).or_else(|| {
        SHORTHANDS
            .into_iter()
            .find_map(|(_, ty, list)| list(config).iter().any(|p| p == path).then_some(ty))
    })
}

/// Every path `config` declares a type for, with that type, sorted by
/// path (the settings panel's list).
pub fn declared_types(config: &Config) -> Vec<(String, FieldType)> {
    let mut paths: Vec<&String> = config.field_types.keys().collect();
    for (_, _, list) in SHORTHANDS {
        paths.extend(list(config));
    }
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .filter_map(|p| declared_type(config, p).map(|t| (p.clone(), t)))
        .collect()
}

/// Writes the type of `path` into the settings `layer` (`Some`), or
/// removes the layer's type for it (`None`); `lists` are the shorthand
/// lists as the configuration has them now (key, its type, its paths),
/// each of which loses `path` when `path` gets another type (the layer
/// replaces a list whole). An empty path is ignored. The one writer of
/// `settings::Layered::set_field_type`.
pub(super) fn set_field_type(
    layer: &mut Map<String, Value>,
    lists: &[(&str, FieldType, Vec<String>)],
    path: &str,
    ty: Option<FieldType>,
) {
    let path = path.trim();
    if path.is_empty() {
        return;
    }
    for (key, shorthand, list) in lists {
        if Some(*shorthand) != ty && list.iter().any(|p| p == path) {
            let kept: Vec<Value> = list
                .iter()
                .filter(|p| *p != path)
                .cloned()
                .map(Value::String)
                .collect();
            layer.insert(key.to_string(), Value::Array(kept));
        }
    }
    let types = layer
        .entry("field_types")
        .or_insert_with(|| Value::Object(Map::new()));
    if !types.is_object() {
        *types = Value::Object(Map::new());
    }
    if let Value::Object(map) = types {
        match ty {
            Some(t) => {
                map.insert(path.to_string(), Value::String(t.name().to_string()));
            }
            None => {
                map.remove(path);
            }
        }
        if map.is_empty() {
            layer.remove("field_types");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::report::Suggestion;
    use crate::session::{Layered, Role, Session};
    use serde_json::json;

    fn session_with_config(config: &Value) -> Session {
        let mut s = Session::default();
        s.load("config.json", config.to_string().into_bytes())
            .expect("loads");
        assert_eq!(s.files[0].role, Role::Config);
        s
    }

    #[test]
    fn a_type_goes_into_the_settings_and_the_config() {
        let mut s = Session::default();
        s.set_field_type("answers[].main_question", Some(FieldType::Number));
        assert_eq!(
            Value::Object(s.settings.clone()),
            json!({"field_types": {"answers[].main_question": "number"}})
        );
        let config = s.config().expect("valid");
        assert_eq!(
            declared_type(&config, "answers[].main_question"),
            Some(FieldType::Number)
        );
        assert_eq!(declared_type(&config, "answers[].year"), None);
        // Automatic again: the key leaves the settings entirely.
        s.set_field_type("answers[].main_question", None);
        assert!(s.settings.is_empty(), "{:?}", s.settings);
    }

    #[test]
    fn another_type_takes_the_path_out_of_a_shorthand_of_the_config_file() {
        let mut s = session_with_config(
            &json!({"date_fields": ["issued", "due"], "numeric_string_fields": ["iban"]}),
        );
        let before = s.config().expect("valid");
        assert_eq!(declared_type(&before, "due"), Some(FieldType::Date));
        assert_eq!(
            declared_type(&before, "iban"),
            Some(FieldType::NumericString)
        );
        // Without taking `due` out of date_fields this config is an error
        // (SPEC §7.1: a path with two types).
        s.set_field_type("due", Some(FieldType::String));
        let config = s.config().expect("still valid");
        assert_eq!(config.date_fields, vec!["issued".to_string()]);
        assert_eq!(declared_type(&config, "due"), Some(FieldType::String));
        // The same type as the shorthand keeps the shorthand.
        s.set_field_type("issued", Some(FieldType::Date));
        assert_eq!(
            s.config().expect("valid").date_fields,
            vec!["issued".to_string()]
        );
        // Automatic takes it out of the shorthand as well.
        s.set_field_type("iban", None);
        let config = s.config().expect("valid");
        assert!(config.numeric_string_fields.is_empty());
        assert_eq!(declared_type(&config, "iban"), None);
        assert_eq!(
            declared_types(&config),
            vec![
                ("due".to_string(), FieldType::String),
                ("issued".to_string(), FieldType::Date)
            ]
        );
    }

    #[test]
    fn a_type_of_the_config_file_cannot_be_cleared_by_the_settings() {
        let mut s = session_with_config(&json!({"field_types": {"total": "number"}}));
        s.set_field_type("total", None);
        let config = s.config().expect("valid");
        assert_eq!(declared_type(&config, "total"), Some(FieldType::Number));
        // But another type in the settings wins (SPEC §4: the settings are
        // the top layer; `field_types` merges path by path).
        s.set_field_type("total", Some(FieldType::String));
        assert_eq!(
            declared_type(&s.config().expect("valid"), "total"),
            Some(FieldType::String)
        );
    }

    #[test]
    fn suggestions_add_their_field_types_and_keep_other_settings() {
        let mut s = Session::default();
        s.set_setting("numeric_tolerance", Some(json!(0.5)));
        s.set_field_type("vendor.name", Some(FieldType::String));
        let suggestion = |field: &str, ty: &str| Suggestion {
            field: field.into(),
            r#type: ty.into(),
            share: 1.0,
            config: json!({"field_types": {field: ty}}),
        };
        s.apply_suggestions(&[
            suggestion("answers[].duration", "date"),
            suggestion("answers[].main_question", "number"),
        ]);
        assert_eq!(
            Value::Object(s.settings.clone()),
            json!({
                "numeric_tolerance": 0.5,
                "field_types": {
                    "answers[].duration": "date",
                    "answers[].main_question": "number",
                    "vendor.name": "string"
                }
            })
        );
    }

    #[test]
    fn unicode_paths_and_empty_paths() {
        let mut s = Session::default();
        s.set_field_type("  ", Some(FieldType::Number));
        assert!(s.settings.is_empty());
        s.set_field_type(" größe.betrag ", Some(FieldType::Integer));
        let config = s.config().expect("valid");
        assert_eq!(
            declared_types(&config),
            vec![("größe.betrag".to_string(), FieldType::Integer)]
        );
    }
}
