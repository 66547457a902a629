//! The session as text: a report bundle (every input and the settings in
//! one JSON file, what `--embed-inputs` and the app's "Save bundle" write;
//! with the corrections of the truth, SPEC §9.3, as `"corrections"` when
//! there are any, and the user's file they came from as
//! `"corrections_file"` when it was not the app's own) and the settings
//! as a URL fragment.
//!
//! May depend on `eval` (a fragment's settings are checked as a config
//! layer); never on web types.

use super::*;

/// A file given to [`Session::of_files`]: name, bytes, role, model name
/// and cost.
pub type GivenFile = (String, Vec<u8>, Role, Option<String>, Option<f64>);

/// The name that marks a bundle file.
pub const BUNDLE_KEY: &str = "fieldscope_bundle";

impl Session {
    /// A report bundle: every input file (with its role, model name and
    /// cost) and the settings, in one JSON file that [`Session::add_file`]
    /// re-opens to the same view.
    pub fn to_bundle(&self) -> String {
        let files: Vec<Value> = self
            .files
            .iter()
            .map(|f| {
                let mut o = Map::new();
                o.insert("name".into(), Value::String(f.name.clone()));
                o.insert("role".into(), Value::String(f.role.name().into()));
                o.insert("model".into(), Value::String(f.model.clone()));
                o.insert(
                    "cost".into(),
                    f.cost.map_or(Value::Null, |c| serde_json::json!(c)),
                );
                match std::str::from_utf8(&f.bytes) {
                    Ok(text) => o.insert("text".into(), Value::String(text.to_string())),
                    Err(_) => o.insert(
                        "bytes".into(),
                        Value::Array(f.bytes.iter().map(|b| Value::from(*b)).collect()),
                    ),
                };
                Value::Object(o)
            })
            .collect();
        let mut root = Map::new();
        root.insert(BUNDLE_KEY.into(), Value::from(1));
        root.insert("settings".into(), Value::Object(self.settings.clone()));
        root.insert("files".into(), Value::Array(files));
        // Only with corrections: a bundle without them stays as it was.
        if !self.corrections.is_empty() {
            root.insert(
                "corrections".into(),
                super::corrections_json(&self.corrections),
            );
            if let Some(file) = &self.corrections_file {
                root.insert("corrections_file".into(), Value::String(file.clone()));
            }
        }
        Value::Object(root).to_string()
    }

    /// The bytes of every loaded file together: what an HTML report with
    /// the inputs embedded would carry (`export::embed::check_size`).
    pub fn input_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes.len() as u64).sum()
    }

    /// A session of files given with their roles, model names and costs,
    /// and `settings`, none of them parsed: what the command line's `eval
    /// --embed-inputs` turns into a bundle ([`Session::to_bundle`]), so
    /// that the bundle is the one the app would write for the same files.
    /// A model name of `None` keeps the file stem, as the app does.
    pub fn of_files(files: Vec<GivenFile>, settings: Map<String, Value>) -> Session {
        let mut s = Session::default();
        let mut given = Vec::new();
        for (name, bytes, role, model, cost) in files {
            given.push((s.add_file_pending(&name, bytes), role, model, cost));
        }
        // Every role set as given, the truth's first (setting a truth
        // turns any other truth into predictions).
        given.sort_by_key(|(_, role, _, _)| *role != Role::Truth);
        for (id, role, model, cost) in given {
            s.set_role(id, role);
            if let Some(model) = model {
                s.rename_model(id, &model);
            }
            s.set_cost(id, cost);
        }
        s.settings = settings;
        s
    }

    /// Re-opens a bundle made by [`Session::to_bundle`].
    pub fn from_bundle(bundle: &Value) -> Result<Session, String> {
        let files = bundle
            .get("files")
            .and_then(Value::as_array)
            .ok_or("the bundle has no `files` list")?;
        let mut s = Session::default();
        for (i, f) in files.iter().enumerate() {
            let name = f
                .get("name")
                .and_then(Value::as_str)
                .ok_or(format!("bundle file {}: no name", i + 1))?;
            let bytes = match (
                f.get("text").and_then(Value::as_str),
                f.get("bytes").and_then(Value::as_array),
            ) {
                (Some(t), _) => t.as_bytes().to_vec(),
                (None, Some(b)) => b
                    .iter()
                    .map(|x| x.as_u64().unwrap_or(0).min(255) as u8)
                    .collect(),
                _ => return Err(format!("bundle file {name:?}: no contents")),
            };
            let id = s.add_file(name, bytes);
            if let Some(role) = f.get("role").and_then(Value::as_str).and_then(Role::parse) {
                s.set_role(id, role);
            }
            if let Some(model) = f.get("model").and_then(Value::as_str) {
                s.rename_model(id, model);
            }
            s.set_cost(id, f.get("cost").and_then(Value::as_f64));
        }
        if let Some(Value::Object(settings)) = bundle.get("settings") {
            s.settings = settings.clone();
        }
        if let Some(list) = bundle.get("corrections") {
            let file = bundle.get("corrections_file").and_then(Value::as_str);
            s.set_corrections_from(file, list)
                .map_err(|e| format!("the bundle's corrections: {e}"))?;
        }
        Ok(s)
    }
}

/// The settings layer as a URL fragment: `settings=` + compact JSON
/// (empty when there are no settings). The data never goes into the URL.
pub fn settings_to_fragment(settings: &Map<String, Value>) -> String {
    if settings.is_empty() {
        String::new()
    } else {
        format!("settings={}", Value::Object(settings.clone()))
    }
}

/// Reads settings back from a fragment made by [`settings_to_fragment`];
/// anything else (or settings that are not a valid config layer) is `None`.
pub fn settings_from_fragment(fragment: &str) -> Option<Map<String, Value>> {
    let json = fragment.strip_prefix("settings=")?;
    let value: Value = serde_json::from_str(json).ok()?;
    ConfigBuilder::new().layer(&value).ok()?;
    match value {
        Value::Object(m) => Some(m),
        _ => None,
    }
}
