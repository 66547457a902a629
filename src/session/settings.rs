//! The settings: the settings panel's layer (SPEC §4: the
//! highest-precedence config layer) over the metrics config files' JSON.
//! The evaluation worker's `Session` holds the layer beside its files;
//! the browser page holds only a [`Settings`] (the layer and the config
//! files' JSON as the worker lists them), so that its settings panel,
//! type menus and suggestions read and write the same configuration the
//! worker evaluates.
//!
//! Owns: the [`Layered`] trait — how a key, a field type (SPEC §7.1) or a
//! suggestion (§7.4) is written into the layer, one implementation for
//! both holders — and the configuration the layers make
//! ([`layered_config`]). Depends on `eval::config` and `eval::report`
//! only; no web types.

use super::field_types::{set_field_type, SHORTHANDS};
use crate::eval::config::FieldType;
use crate::eval::report::Suggestion;
use crate::eval::{Config, ConfigBuilder};
use serde_json::{Map, Value};

/// The configuration of `files` (each config file's name and JSON, in
/// order), then the settings `layer` over them (SPEC §4). An error names
/// the config file, or "settings".
pub fn layered_config<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a Value)>,
    layer: &Map<String, Value>,
) -> Result<Config, String> {
    let mut builder = ConfigBuilder::new();
    for (name, json) in files {
        builder = builder
            .layer(json)
            .map_err(|e| format!("{name}: {}", e.message))?;
    }
    builder = builder
        .layer(&Value::Object(layer.clone()))
        .map_err(|e| format!("settings: {}", e.message))?;
    builder.build().map_err(|e| e.to_string())
}

/// A holder of the settings layer: the worker's `Session` (its
/// implementation is in `session.rs`) and the page's [`Settings`]. What the settings panel, the type menus and the
/// suggestions write is written once, here.
pub trait Layered {
    /// The settings layer (always a JSON object).
    fn layer(&mut self) -> &mut Map<String, Value>;

    /// The configuration: the config files, then the settings layer.
    fn config(&self) -> Result<Config, String>;

    /// Sets one key of the settings layer (`path` like
    /// `string_match.method`); `None` removes it so the lower layers
    /// decide again.
    fn set_setting(&mut self, path: &str, value: Option<Value>) {
        let mut parts: Vec<&str> = path.split('.').collect();
        let Some(last) = parts.pop() else { return };
        let mut map = self.layer();
        for p in parts {
            let entry = map
                .entry(p.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(Map::new());
            }
            let Value::Object(inner) = entry else { return };
            map = inner;
        }
        match value {
            Some(v) => {
                map.insert(last.to_string(), v);
            }
            None => {
                map.remove(last);
            }
        }
    }

    /// Sets the type of `path` in the settings layer (`Some`) or removes
    /// the settings' type for it (`None`, "automatic"). Either way a
    /// shorthand list that names `path` with another type loses it, so
    /// the configuration stays valid; the rest of the settings stay as
    /// they are. An empty path is ignored.
    fn set_field_type(&mut self, path: &str, ty: Option<FieldType>) {
        // The lists as they stand now (config files, then settings): the
        // settings layer replaces a list whole.
        let lists: Vec<(&str, FieldType, Vec<String>)> = match self.config() {
            Ok(config) => SHORTHANDS
                .into_iter()
                .map(|(key, t, list)| (key, t, list(&config).to_vec()))
                .collect(),
            Err(_) => Vec::new(),
        };
        set_field_type(self.layer(), &lists, path, ty);
    }

    /// Adds what the suggestions propose (SPEC §7.4: each one's
    /// `config.field_types`) to the settings layer, as the type menu
    /// would set each path.
    fn apply_suggestions(&mut self, suggestions: &[Suggestion]) {
        for s in suggestions {
            let Some(Value::Object(types)) = s.config.get("field_types") else {
                continue;
            };
            for (path, ty) in types {
                if let Some(t) = ty.as_str().and_then(FieldType::parse) {
                    self.set_field_type(path, Some(t));
                }
            }
        }
    }
}

/// The page's settings: the settings panel's layer and, under it, the
/// config files' JSON as the evaluation worker lists them (name, JSON).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// The settings layer (always a JSON object).
    pub layer: Map<String, Value>,
    /// The config files under it, in the worker's order.
    config_files: Vec<(String, Value)>,
}

impl Settings {
    /// Settings with `layer` over no config file.
    pub fn new(layer: Map<String, Value>) -> Settings {
        Settings {
            layer,
            config_files: Vec::new(),
        }
    }

    /// The config files under the layer, as the worker lists them.
    pub fn set_config_files(&mut self, files: Vec<(String, Value)>) {
        self.config_files = files;
    }
}

/// A change the page makes to its [`Settings`]: what the settings panel,
/// the type menus, the suggestions, the slice picker and the schema-by
/// input send to the report state (`report_state::Event::Settings`),
/// which applies it with [`Settings::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum SettingsEdit {
    /// One key (`path` like `string_match.method`); `None` removes it so
    /// the lower layers decide again ([`Layered::set_setting`]).
    Set { path: String, value: Option<Value> },
    /// A preset (SPEC §4) replaces the panel's other choices.
    Preset(String),
    /// A field's type (SPEC §7.1); `None` is "automatic"
    /// ([`Layered::set_field_type`]).
    FieldType {
        path: String,
        field_type: Option<FieldType>,
    },
    /// What these suggestions propose (SPEC §7.4,
    /// [`Layered::apply_suggestions`]).
    Suggestions(Vec<Suggestion>),
    /// Every choice of the panel undone: the config files decide.
    Reset,
}

impl Settings {
    /// Applies `edit` to the layer; whether the layer changed (an edit
    /// that sets what is already there asks for no new report).
    pub fn apply(&mut self, edit: SettingsEdit) -> bool {
        let before = self.layer.clone();
        match edit {
            SettingsEdit::Set { path, value } => self.set_setting(&path, value),
            SettingsEdit::Preset(name) => {
                self.layer.clear();
                self.set_setting("preset", Some(Value::String(name)));
            }
            SettingsEdit::FieldType { path, field_type } => self.set_field_type(&path, field_type),
            SettingsEdit::Suggestions(list) => self.apply_suggestions(&list),
            SettingsEdit::Reset => self.layer.clear(),
        }
        self.layer != before
    }

    /// The config files' JSON as the worker lists them.
    pub fn config_files(&self) -> &[(String, Value)] {
        &self.config_files
    }
}

impl Layered for Settings {
    fn layer(&mut self) -> &mut Map<String, Value> {
        &mut self.layer
    }

    fn config(&self) -> Result<Config, String> {
        layered_config(
            self.config_files.iter().map(|(n, v)| (n.as_str(), v)),
            &self.layer,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_bad_layer_or_config_file_is_named_in_the_error() {
        let mut page = Settings::new(Map::new());
        page.set_config_files(vec![("mine.json".into(), json!({"zero_division": "x"}))]);
        assert!(page.config().unwrap_err().starts_with("mine.json: "));
        page.set_config_files(Vec::new());
        page.set_setting("zero_division", Some(json!("x")));
        assert!(page.config().unwrap_err().starts_with("settings: "));
    }

    #[test]
    fn an_edit_says_whether_it_changed_the_layer() {
        let mut s = Settings::new(Map::new());
        let set = |v: Option<Value>| SettingsEdit::Set {
            path: "string_match.method".into(),
            value: v,
        };
        assert!(s.apply(set(Some(json!("levenshtein")))));
        assert_eq!(
            Value::Object(s.layer.clone()),
            json!({"string_match": {"method": "levenshtein"}})
        );
        // The same value again changes nothing.
        assert!(!s.apply(set(Some(json!("levenshtein")))));
        // A preset replaces the other choices.
        assert!(s.apply(SettingsEdit::Preset("lenient".into())));
        assert_eq!(Value::Object(s.layer.clone()), json!({"preset": "lenient"}));
        // A field type, then "automatic" again: the key goes.
        assert!(s.apply(SettingsEdit::FieldType {
            path: "total".into(),
            field_type: Some(FieldType::Number),
        }));
        assert_eq!(s.layer["field_types"], json!({"total": "number"}));
        assert!(s.apply(SettingsEdit::FieldType {
            path: "total".into(),
            field_type: None,
        }));
        assert!(s.layer.get("field_types").is_none_or(|t| t == &json!({})));
        // A suggestion sets the types it proposes.
        let suggestion = Suggestion {
            field: "date".into(),
            r#type: "date".into(),
            share: 1.0,
            config: json!({"field_types": {"date": "date"}}),
        };
        assert!(s.apply(SettingsEdit::Suggestions(vec![suggestion.clone()])));
        assert_eq!(s.layer["field_types"], json!({"date": "date"}));
        assert!(!s.apply(SettingsEdit::Suggestions(vec![suggestion])));
        assert!(s.apply(SettingsEdit::Reset));
        assert!(s.layer.is_empty());
        assert!(!s.apply(SettingsEdit::Reset));
    }
}
