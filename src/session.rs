//! The browser app's state, as plain Rust (tested natively).
//!
//! Owns: the files a user loaded (name, bytes, detected and chosen role,
//! parse result, model name and cost), the settings panel's configuration
//! layer, the built-in example, and turning all of it into an evaluation
//! (and, on request, into the literature metrics' job).
//! A file that fails keeps its error beside it and every other file stays
//! loaded and evaluated.
//!
//! Schema validity ([`SchemaValidity`]) is computed apart from the
//! evaluation: the page asks for a [`ValidityJob`] (the files and the id
//! field), runs it in its schema worker ([`compute_validity`], a separate
//! wasm module, so the page's own code carries no JSON Schema validator)
//! and stores the answer ([`Session::store_validity`]); the session keeps
//! it while the files and the id field stay the same, so a settings change
//! does not validate every record again. Until the answer is stored,
//! [`Session::evaluate_with`] gives a provisional report whose
//! validity-dependent values the page does not show
//! ([`Session::validity_pending`]). Depends on `io`, `eval`, `synth`;
//! knows no web types (the Leptos components in `app` wrap it in a
//! signal).

use crate::error::{Error, ErrorKind};
use crate::eval::evaluate::{prepare_paced, Prepared, STORED_LIMIT_BYTES};
use crate::eval::literature;
use crate::eval::pace::{run_now, NoPause, Pace};
use crate::eval::{
    schema_stem, schema_validity_by, Config, ConfigBuilder, DocFile, EvalInput, ModelInput,
    NamedSchema, Report, SchemaValidity,
};
use crate::io::{parse_docs, parse_docs_paced, parse_json_value};
use crate::synth::{generate, SynthOptions};
use serde_json::{Map, Value};
use std::sync::Arc;

mod field_types;
mod schemas;
pub use field_types::{declared_type, declared_types};
pub use schemas::SchemaOverview;

/// What a loaded file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Role {
    Truth,
    Predictions,
    Schema,
    Config,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Truth, Role::Predictions, Role::Schema, Role::Config];

    /// The name used in `data-role` and the role selector.
    pub fn name(self) -> &'static str {
        match self {
            Role::Truth => "truth",
            Role::Predictions => "predictions",
            Role::Schema => "schema",
            Role::Config => "config",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Role::Truth => "Ground truth",
            Role::Predictions => "Predictions",
            Role::Schema => "JSON Schema",
            Role::Config => "Metrics config",
        }
    }

    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// A parsed file.
#[derive(Debug, Clone)]
pub enum Parsed {
    /// Truth or predictions, as the compact forest the evaluation reads
    /// (shared with the evaluations that read it; the evaluation that
    /// prepares a [`Prepared`] copies it, a few flat arrays).
    Records(Arc<DocFile>),
    Json(Value),
    /// Not parsed yet: [`Session::load_pending`] adds the files of a drop
    /// at once (so their roles, and the schema worker's job, are known
    /// before the first is parsed) and [`Session::parse_file`] parses them
    /// one at a time. Counts as parsed for the schema validity's job (the
    /// worker parses the same bytes itself) and as absent for the
    /// evaluation.
    Pending,
}

/// One loaded file.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    pub id: u32,
    pub name: String,
    pub bytes: Arc<Vec<u8>>,
    pub role: Role,
    /// The parse result for the current role.
    pub parsed: Result<Parsed, Error>,
    /// For predictions: the model's name (the file stem unless renamed).
    pub model: String,
    /// For predictions: a cost typed by the user (overrides the records').
    pub cost: Option<f64>,
}

impl LoadedFile {
    pub fn error(&self) -> Option<&Error> {
        self.parsed.as_ref().err()
    }

    pub fn records(&self) -> Option<usize> {
        match &self.parsed {
            Ok(Parsed::Records(r)) => Some(r.records.len()),
            _ => None,
        }
    }

    /// Gives the file `role`, parsing it again unless it is already read
    /// as that role would read it (truth and predictions are both records,
    /// read the same way) or waits to be parsed.
    fn reparse_as(&mut self, role: Role) {
        let records = |r: Role| matches!(r, Role::Truth | Role::Predictions);
        let same = (records(role) && records(self.role)) || role == self.role;
        self.role = role;
        if !same && !self.is_pending() {
            self.parsed = parse_as(&self.name, &self.bytes, role);
        }
    }

    /// Whether it waits for [`Session::parse_file`].
    pub fn is_pending(&self) -> bool {
        matches!(self.parsed, Ok(Parsed::Pending))
    }
}

/// The file stem: `preds/gpt-4o.jsonl` → `gpt-4o`.
pub fn file_stem(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    match base.rfind('.') {
        Some(i) if i > 0 => base[..i].to_string(),
        _ => base.to_string(),
    }
}

/// Whether a JSON document looks like a JSON Schema.
fn looks_like_schema(v: &Value) -> bool {
    v.get("$schema").is_some()
        || (v.get("properties").is_some_and(Value::is_object) && v.get("type").is_some())
}

/// Whether a JSON document looks like a metrics config: an object whose keys
/// are all config keys.
fn looks_like_config(v: &Value) -> bool {
    let defaults = crate::eval::config::default_json();
    match (v, defaults) {
        (Value::Object(m), Value::Object(d)) => {
            !m.is_empty() && m.keys().all(|k| d.contains_key(k))
        }
        _ => false,
    }
}

/// All the user's inputs and settings.
#[derive(Debug, Clone, Default)]
pub struct Session {
    pub files: Vec<LoadedFile>,
    /// The settings panel's layer over the config file (SPEC §4: it has the
    /// highest precedence). Always a JSON object.
    pub settings: Map<String, Value>,
    /// The files are the built-in example's, untouched by a drop: the
    /// first drop of the user's own files replaces them (they are a demo,
    /// not a dataset to add to); "Load example" brings them back.
    pub shows_example: bool,
    next_id: u32,
    /// The last schema validity stored, or why it could not be computed,
    /// and what it was computed from (the key tells whether it is of the
    /// current files).
    validity: StoredValidity,
    /// The prepared evaluation of the files (`eval::Prepared`: the ids,
    /// paths, kinds and flattened documents), for the next evaluation of
    /// the same files under settings that do not change them.
    prepared: PreparedCache,
}

/// What a [`Prepared`] is of besides the settings it checks itself
/// (`Prepared::fits`): the files and the model names.
#[derive(Debug, Clone)]
struct PreparedKey {
    files: ValidityKey,
    models: Vec<String>,
}

impl PreparedKey {
    fn same(&self, other: &PreparedKey) -> bool {
        self.files.same(&other.files) && self.models == other.models
    }
}

/// The session's [`Prepared`] evaluation and what it is of: a cache, so a
/// clone of the session starts without it. An [`Evaluation`] takes it out
/// while it runs, and [`Session::keep`] puts it back if it is still of the
/// session's files.
#[derive(Default)]
struct PreparedCache(Option<(PreparedKey, Prepared)>);

impl Clone for PreparedCache {
    fn clone(&self) -> Self {
        PreparedCache(None)
    }
}

impl std::fmt::Debug for PreparedCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Prepared" } else { "None" })
    }
}

/// What an evaluation leaves for the next one of the same files
/// ([`Session::keep`]).
pub struct Kept(PreparedKey, Prepared);

/// What [`Session::store_validity`] keeps.
type StoredValidity = Option<(ValidityKey, Result<SchemaValidity, String>)>;

/// A file of a [`ValidityJob`]: its name, role and bytes.
pub type JobFile = (String, Role, Arc<Vec<u8>>);

/// What the schema worker validates: the files of an evaluation (the truth,
/// each predictions file that parsed, the schema) with their roles, and the
/// id field. Its answer goes back with [`Session::store_validity`].
#[derive(Debug, Clone)]
pub struct ValidityJob {
    key: ValidityKey,
    /// In the session's order.
    pub files: Vec<JobFile>,
    pub id_field: Option<String>,
    /// The config's `schema_by` (SPEC §7.2), for several schemas.
    pub schema_by: Option<String>,
}

impl ValidityJob {
    /// Whether `other` is of the same files and id field.
    pub fn same(&self, other: &ValidityJob) -> bool {
        self.key.same(&other.key)
    }
}

/// The schema worker's answer as text, for `postMessage`: `{"valid":
/// ["0110…", …]}` (a string per model, a character per truth document,
/// `1` valid) or `{"valid": null}` without a schema, or `{"error": …,
/// "schema": true|false, "file": …}`. Read back by
/// [`validity_answer_from_json`].
pub fn validity_answer_to_json(answer: &Result<SchemaValidity, Error>) -> String {
    let value = match answer {
        Ok(v) => serde_json::json!({
            "valid": v.per_model().map(|models| models
                .iter()
                .map(|m| m.iter().map(|&b| if b { '1' } else { '0' }).collect::<String>())
                .collect::<Vec<_>>()),
        }),
        Err(e) => serde_json::json!({
            "error": e.message,
            "schema": e.kind == ErrorKind::Schema,
            "file": e.file,
        }),
    };
    value.to_string()
}

/// Reads [`validity_answer_to_json`]'s text; anything else is an error
/// saying so.
pub fn validity_answer_from_json(text: &str) -> Result<SchemaValidity, Error> {
    let bad = || {
        Error::new(
            ErrorKind::Input,
            "the schema validator gave an answer this page cannot read",
        )
    };
    let value: Value = serde_json::from_str(text).map_err(|_| bad())?;
    if let Some(message) = value.get("error").and_then(Value::as_str) {
        let kind = match value.get("schema") {
            Some(Value::Bool(true)) => ErrorKind::Schema,
            _ => ErrorKind::Input,
        };
        let mut e = Error::new(kind, message);
        e.file = value.get("file").and_then(Value::as_str).map(str::to_owned);
        return Err(e);
    }
    match value.get("valid") {
        Some(Value::Null) => Ok(SchemaValidity::NoSchema),
        Some(Value::Array(models)) => models
            .iter()
            .map(|m| {
                m.as_str()
                    .ok_or_else(bad)?
                    .chars()
                    .map(|c| match c {
                        '1' => Ok(true),
                        '0' => Ok(false),
                        _ => Err(bad()),
                    })
                    .collect::<Result<Vec<bool>, Error>>()
            })
            .collect::<Result<Vec<_>, Error>>()
            .map(SchemaValidity::Known),
        _ => Err(bad()),
    }
}

/// Computes what a [`ValidityJob`] asks (in the schema worker; natively in
/// tests): `files` are parsed for their roles exactly as the session
/// parsed them, so the models and documents line up with its evaluation.
///
/// Errors: a schema that is not valid JSON Schema (kind
/// [`ErrorKind::Schema`]), or a file that does not parse (which the
/// session would not have sent).
pub fn compute_validity(
    files: &[JobFile],
    id_field: Option<&str>,
    schema_by: Option<&str>,
) -> Result<SchemaValidity, Error> {
    let mut truth = None;
    let mut models = Vec::new();
    let mut schemas = Vec::new();
    for (name, role, bytes) in files {
        match (role, parse_as(name, bytes, *role)?) {
            (Role::Truth, Parsed::Records(r)) => truth = Some(r),
            (Role::Predictions, Parsed::Records(r)) => models.push(ModelInput::new(name, r)),
            (Role::Schema, Parsed::Json(v)) => schemas.push(NamedSchema::new(schema_stem(name), v)),
            _ => {}
        }
    }
    let truth = truth.ok_or_else(|| Error::new(ErrorKind::Input, "no ground-truth file"))?;
    let schema_files: Vec<&str> = files
        .iter()
        .filter(|f| f.1 == Role::Schema)
        .map(|f| f.0.as_str())
        .collect();
    let (schema, schemas) = one_or_several(schemas);
    schema_validity_by(
        EvalInput {
            truth,
            models,
            schema,
            schemas,
        },
        id_field,
        schema_by,
    )
    .map_err(|e| match schema_file_of(&e, &schema_files) {
        Some(name) if e.kind == ErrorKind::Schema => e.in_file(name.to_string()),
        _ => e,
    })
}

/// One schema as `EvalInput::schema` (the dataset-wide field set of SPEC
/// §1.2), several as `EvalInput::schemas` (SPEC §7.2).
fn one_or_several(mut schemas: Vec<NamedSchema>) -> (Option<Value>, Vec<NamedSchema>) {
    if schemas.len() == 1 {
        (schemas.pop().map(|s| s.schema), Vec::new())
    } else {
        (None, schemas)
    }
}

/// The schema file a schema error is about: the only one, or, among
/// several, the one whose stem the error names.
fn schema_file_of<'a>(e: &Error, schema_files: &[&'a str]) -> Option<&'a str> {
    match schema_files {
        [only] => Some(only),
        several => several
            .iter()
            .find(|name| e.file.as_deref() == Some(schema_stem(name).as_str()))
            .copied(),
    }
}

/// What the schema validity of an evaluation depends on: every file (the
/// same bytes, by identity — they are never changed in place —, name and
/// role, which decide how the bytes parse, and whether they parsed, which
/// decides which files are evaluated) and the id field. A file waiting to
/// be parsed counts as parsed: the worker's answer for a drop is then
/// kept once every file has parsed.
#[derive(Debug, Clone)]
struct ValidityKey {
    /// Bytes, name, role, and whether it parsed (or waits to be parsed).
    files: Vec<(Arc<Vec<u8>>, String, Role, bool)>,
    id_field: Option<String>,
    /// How a document names its schema among several (SPEC §7.2).
    schema_by: Option<String>,
}

impl ValidityKey {
    fn new(files: &[LoadedFile], config: &Config) -> Self {
        ValidityKey {
            files: files
                .iter()
                .map(|f| {
                    (
                        Arc::clone(&f.bytes),
                        f.name.clone(),
                        f.role,
                        f.parsed.is_ok(),
                    )
                })
                .collect(),
            id_field: config.id_field.clone(),
            schema_by: config.schema_by.clone(),
        }
    }

    fn same(&self, other: &ValidityKey) -> bool {
        self.id_field == other.id_field
            && self.schema_by == other.schema_by
            && self.files.len() == other.files.len()
            && self
                .files
                .iter()
                .zip(&other.files)
                .all(|((a, an, ar, ak), (b, bn, br, bk))| {
                    Arc::ptr_eq(a, b) && an == bn && ar == br && ak == bk
                })
    }
}

impl Session {
    /// The built-in example: 50 synthetic invoices with nested vendors,
    /// line items, NOT_FOUND-heavy fields and a code list, and three models
    /// (a good one, a conservative one, an aggressive one that hallucinates),
    /// with the invoice schema.
    pub fn example() -> Session {
        let data = generate(&SynthOptions::paradox(50, 19));
        let mut s = Session::default();
        s.add_file("truth.jsonl", data.truth_jsonl.into_bytes());
        for (name, jsonl) in data.predictions {
            s.add_file(&format!("{name}.jsonl"), jsonl.into_bytes());
        }
        s.add_file("invoice.schema.json", data.schema_json.into_bytes());
        s.shows_example = true;
        s
    }

    /// Loads a dropped file: a report bundle replaces the whole session;
    /// anything else is added with [`Session::add_file`] — after removing
    /// the built-in example's files if they are what the page shows
    /// ([`Session::shows_example`]).
    pub fn load(&mut self, name: &str, bytes: Vec<u8>) -> Result<(), String> {
        if let Some(id) = self.load_pending(name, bytes)? {
            self.parse_file(id);
        }
        Ok(())
    }

    /// [`Session::load`] without parsing: a report bundle replaces the
    /// whole session (`None`), and so does an HTML report with its inputs
    /// embedded (`fieldscope eval --format html --embed-inputs`: the
    /// bundle is in it, `export::embed`); an HTML page without them is
    /// refused with a message. Anything else is added with
    /// [`Session::add_file_pending`] and its id returned, to be parsed with
    /// [`Session::parse_file`].
    pub fn load_pending(&mut self, name: &str, bytes: Vec<u8>) -> Result<Option<u32>, String> {
        self.load_pending_as(self.next_id, name, bytes)
    }

    /// [`Session::load_pending`] under the page's id `id`.
    pub fn load_pending_as(
        &mut self,
        id: u32,
        name: &str,
        bytes: Vec<u8>,
    ) -> Result<Option<u32>, String> {
        let lower = name.to_lowercase();
        if lower.ends_with(".html") || lower.ends_with(".htm") {
            let bundle = match crate::export::embed::extract(&bytes) {
                Some(Ok(bundle)) => bundle,
                Some(Err(e)) => return Err(format!("{name}: {e}")),
                None => {
                    return Err(format!(
                        "{name}: this HTML report has no inputs embedded (it was written without \
                         --embed-inputs), so it cannot be re-opened; drop its input files instead"
                    ))
                }
            };
            let v = parse_json_value(name, &bundle).map_err(|e| format!("{name}: {e}"))?;
            *self = Session::from_bundle(&v).map_err(|e| format!("{name}: {e}"))?;
            return Ok(None);
        }
        if lower.ends_with(".json") && contains(&bytes, BUNDLE_KEY.as_bytes()) {
            if let Ok(v) = parse_json_value(name, &bytes) {
                if v.get(BUNDLE_KEY).is_some() {
                    *self = Session::from_bundle(&v).map_err(|e| format!("{name}: {e}"))?;
                    return Ok(None);
                }
            }
        }
        if self.shows_example {
            self.clear();
        }
        self.add_file_as(id, name, bytes, None, None, None);
        Ok(Some(id))
    }

    /// Adds a file, detects its role and parses it. Returns its id.
    pub fn add_file(&mut self, name: &str, bytes: Vec<u8>) -> u32 {
        let id = self.add_file_pending(name, bytes);
        self.parse_file(id);
        id
    }

    /// Adds a file and detects its role; it is parsed by
    /// [`Session::parse_file`]. Returns its id.
    pub fn add_file_pending(&mut self, name: &str, bytes: Vec<u8>) -> u32 {
        let id = self.next_id;
        self.add_file_as(id, name, bytes, None, None, None);
        id
    }

    /// Adds a file under the page's id `id` (the evaluation worker's
    /// files are the page's): its role detected unless given, its model
    /// named after it unless given. It is parsed by
    /// [`Session::parse_file`].
    pub fn add_file_as(
        &mut self,
        id: u32,
        name: &str,
        bytes: Vec<u8>,
        role: Option<Role>,
        model: Option<String>,
        cost: Option<f64>,
    ) {
        self.next_id = self.next_id.max(id.saturating_add(1));
        let role = match role {
            Some(role) => role,
            None => self.detect_role(name, &bytes),
        };
        if role == Role::Truth {
            for f in self.files.iter_mut().filter(|f| f.role == Role::Truth) {
                f.reparse_as(Role::Predictions);
            }
        }
        self.files.push(LoadedFile {
            id,
            name: name.to_string(),
            bytes: Arc::new(bytes),
            role,
            parsed: Ok(Parsed::Pending),
            model: model.unwrap_or_else(|| file_stem(name)),
            cost: cost.filter(|c| c.is_finite()),
        });
    }

    /// Parses a file added by [`Session::add_file_pending`] for its role
    /// (nothing if it is parsed already).
    pub fn parse_file(&mut self, id: u32) {
        let job = self.parse_job(id);
        if let Some(parsed) = job.and_then(|job| run_now(job.run(&mut NoPause)).flatten()) {
            self.store_parsed(parsed);
        }
    }

    /// [`Session::parse_file`] as a job that owns what it reads, for the
    /// page to run a slice at a time ([`ParseJob::run`]) and store with
    /// [`Session::store_parsed`]; `None` if the file is parsed already or
    /// gone.
    pub fn parse_job(&self, id: u32) -> Option<ParseJob> {
        let f = self.files.iter().find(|f| f.id == id && f.is_pending())?;
        Some(ParseJob {
            id,
            name: f.name.clone(),
            role: f.role,
            bytes: Arc::clone(&f.bytes),
        })
    }

    /// Keeps what a [`ParseJob`] read, if its file still waits for it
    /// with the same bytes and role (otherwise it was removed, replaced or
    /// given another role meanwhile, and the result is of nothing here).
    pub fn store_parsed(&mut self, parsed: ParsedFile) {
        let ParsedFile { job, parsed } = parsed;
        if let Some(f) = self
            .file_mut(job.id)
            .filter(|f| f.is_pending() && f.role == job.role && Arc::ptr_eq(&f.bytes, &job.bytes))
        {
            f.parsed = parsed;
        }
    }

    /// Role detection: a JSON Schema or a metrics config by content; records
    /// are the ground truth when the name says so (`truth`, `gold`, `ground`,
    /// `label`, `reference`, `annotation`) or when no truth is loaded yet,
    /// otherwise predictions.
    fn detect_role(&self, name: &str, bytes: &[u8]) -> Role {
        let lower = name.to_lowercase();
        // The name decides first, so that a broken schema or config shows
        // its own error (not a records error).
        if lower.ends_with(".json") && lower.contains("schema") {
            return Role::Schema;
        }
        if lower.ends_with(".json") && lower.contains("config") {
            return Role::Config;
        }
        if lower.ends_with(".json") && may_be_schema_or_config(bytes) {
            if let Ok(v) = parse_json_value(name, bytes) {
                if lower.contains("schema") || looks_like_schema(&v) {
                    return Role::Schema;
                }
                if lower.contains("config") || looks_like_config(&v) {
                    return Role::Config;
                }
            }
        }
        let truthy = [
            "truth",
            "gold",
            "ground",
            "label",
            "reference",
            "annotation",
        ];
        if truthy.iter().any(|t| lower.contains(t))
            || !self.files.iter().any(|f| f.role == Role::Truth)
        {
            Role::Truth
        } else {
            Role::Predictions
        }
    }

    fn file_mut(&mut self, id: u32) -> Option<&mut LoadedFile> {
        self.files.iter_mut().find(|f| f.id == id)
    }

    /// Changes a file's role and parses it again for that role.
    pub fn set_role(&mut self, id: u32, role: Role) {
        if role == Role::Truth {
            for f in self
                .files
                .iter_mut()
                .filter(|f| f.id != id && f.role == Role::Truth)
            {
                f.reparse_as(Role::Predictions);
            }
        }
        if let Some(f) = self.file_mut(id) {
            f.reparse_as(role);
        }
    }

    pub fn rename_model(&mut self, id: u32, name: &str) {
        if let Some(f) = self.file_mut(id) {
            f.model = name.trim().to_string();
        }
    }

    /// Sets a typed cost; `None` clears it (the records' costs count again).
    pub fn set_cost(&mut self, id: u32, cost: Option<f64>) {
        if let Some(f) = self.file_mut(id) {
            f.cost = cost.filter(|c| c.is_finite());
        }
    }

    /// Removes a file (and the prepared evaluation, of files no longer all
    /// here: its memory is freed).
    pub fn remove(&mut self, id: u32) {
        self.files.retain(|f| f.id != id);
        self.prepared = PreparedCache(None);
    }

    /// Removes every file.
    pub fn clear(&mut self) {
        self.shows_example = false;
        self.files.clear();
        self.prepared = PreparedCache(None);
    }

    /// The browser page's copy of the session: no records, only the
    /// metrics config files' JSON (what [`Session::config`] layers under
    /// the settings), as the evaluation worker lists them.
    pub fn set_config_files(&mut self, configs: Vec<(u32, String, Value)>) {
        self.files = configs
            .into_iter()
            .map(|(id, name, v)| LoadedFile {
                id,
                model: file_stem(&name),
                name,
                bytes: Arc::default(),
                role: Role::Config,
                parsed: Ok(Parsed::Json(v)),
                cost: None,
            })
            .collect();
    }

    /// Keeps up to `documents` more documents of the prepared evaluation
    /// of the current files and settings flattened
    /// (`eval::Prepared::keep_documents`), for the evaluation worker to
    /// call while it is idle after a report. `Some(true)` when that is
    /// done, `None` when there is nothing to do (no prepared evaluation of
    /// these files and settings).
    pub fn keep_documents(&mut self, documents: usize) -> Option<bool> {
        let config = self.config().ok()?;
        let key = self.prepared_key(&config);
        let (held_key, prepared) = self.prepared.0.as_mut()?;
        if !held_key.same(&key) || !prepared.fits(&config) {
            return None;
        }
        Some(prepared.keep_documents(documents))
    }

    /// Puts back what an evaluation prepared, if it is of the current
    /// files and model names (else it is dropped, its memory freed).
    pub fn keep(&mut self, kept: Kept) {
        let Ok(config) = self.config() else { return };
        if kept.0.same(&self.prepared_key(&config)) {
            self.prepared = PreparedCache(Some((kept.0, kept.1)));
        }
    }

    /// Sets one key of the settings layer (`path` like `string_match.method`);
    /// `None` removes it so the lower layers decide again.
    pub fn set_setting(&mut self, path: &str, value: Option<Value>) {
        let mut parts: Vec<&str> = path.split('.').collect();
        let Some(last) = parts.pop() else { return };
        let mut map = &mut self.settings;
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

    /// The truth file, if one parsed.
    pub fn truth(&self) -> Option<&LoadedFile> {
        self.files.iter().find(|f| f.role == Role::Truth)
    }

    /// Evaluates everything that parsed, with every document's details.
    /// Returns the report, or why there is none (no truth, a bad config or
    /// schema).
    pub fn evaluate(&mut self) -> Result<Report, String> {
        self.evaluate_with(true)
    }

    /// [`Session::evaluate`]; `details` adds `document_details` (what the
    /// document browser shows; for large datasets the app asks for them
    /// only when the browser is opened). While [`Session::validity_pending`]
    /// (or after a [`Session::validity_failure`]) the report is provisional:
    /// every payload that parsed counts as schema-valid, so
    /// `schema_validity_rate`, `exact_match_rate`,
    /// `document_extraction_score` and each document's `schema_valid` and
    /// `exact_match` are not yet the real ones (everything else is), and
    /// `eval::complete_provisional` finishes it once the validity is
    /// known.
    pub fn evaluate_with(&mut self, details: bool) -> Result<Report, String> {
        let evaluation = self.evaluation(details)?;
        let (report, kept) = run_now(evaluation.run(&mut NoPause)).unwrap_or((None, None));
        if let Some(kept) = kept {
            self.keep(kept);
        }
        report.unwrap_or_else(|| Err("the evaluation was stopped".into()))
    }

    /// [`Session::evaluate_with`] as a job that owns what it needs (the
    /// parsed files, shared; the configuration; the validity as known
    /// now), for the evaluation worker to run with a pace
    /// ([`Evaluation::run`]) while the session may change meanwhile. It
    /// takes the session's prepared evaluation when that fits (the same
    /// files, model names and settings read before comparing: only the
    /// comparison runs), and gives back its own for [`Session::keep`].
    /// Errors: why there is no report (no truth, a bad config).
    pub fn evaluation(&mut self, details: bool) -> Result<Evaluation, String> {
        self.truth_records()?;
        let config = self.config()?;
        let schema_name = self.schema_name().map(str::to_owned);
        let input = self.input()?;
        let validity = match (
            input.schema.is_some() || !input.schemas.is_empty(),
            self.stored_validity(&config),
        ) {
            (false, _) => SchemaValidity::NoSchema,
            (true, Some(Ok(validity))) => validity,
            // Not known yet, or the worker failed: the report without it
            // (the page says why and shows and exports none of what
            // depends on it).
            (true, Some(Err(_)) | None) => SchemaValidity::Pending,
        };
        let prepared_key = self.prepared_key(&config);
        // Taken if it fits; otherwise dropped (what it holds is of other
        // files or settings, and its memory is better freed before
        // preparing anew).
        let prepared = self
            .prepared
            .0
            .take()
            .filter(|(key, prepared)| key.same(&prepared_key) && prepared.fits(&config))
            .map(|(_, prepared)| prepared);
        Ok(Evaluation {
            input,
            config,
            details,
            validity,
            prepared,
            prepared_key,
            schema_name,
        })
    }

    /// What a prepared evaluation of the current files under `config` is
    /// of (the settings aside, which it checks itself).
    fn prepared_key(&self, config: &Config) -> PreparedKey {
        PreparedKey {
            files: ValidityKey::new(&self.files, config),
            models: self.files.iter().map(|f| f.model.clone()).collect(),
        }
    }

    /// The stored validity for the current files and `config`'s id field.
    fn stored_validity(&self, config: &Config) -> Option<Result<SchemaValidity, String>> {
        let key = ValidityKey::new(&self.files, config);
        self.validity
            .as_ref()
            .filter(|(k, _)| k.same(&key))
            .map(|(_, v)| v.clone())
    }

    /// The schema validity of the current files, if it is known (with no
    /// schema, the default): what a threshold sweep reuses at every value.
    pub fn known_validity(&self) -> Result<SchemaValidity, String> {
        if !self.has_parsed(Role::Schema) {
            return Ok(SchemaValidity::default());
        }
        self.stored_validity(&self.config()?).unwrap_or_else(|| {
            Err("The predictions are still being checked against the schema.".into())
        })
    }

    /// Whether a file of `role` parsed (or waits to be parsed).
    fn has_parsed(&self, role: Role) -> bool {
        self.files
            .iter()
            .any(|f| f.role == role && f.parsed.is_ok())
    }

    /// Why the schema validity of the current files could not be computed
    /// (the schema worker failed or could not be loaded), if it could not;
    /// [`Session::evaluate_with`] then gives the provisional report.
    pub fn validity_failure(&self) -> Option<String> {
        if !self.has_parsed(Role::Schema) {
            return None;
        }
        match self.stored_validity(&self.config().ok()?) {
            Some(Err(message)) => Some(message),
            _ => None,
        }
    }

    /// Whether a schema is loaded whose validity for the current files is
    /// not stored yet (the page's schema worker is computing it).
    pub fn validity_pending(&self) -> bool {
        self.validity_job().is_some()
    }

    /// What the schema worker must compute: `None` without a usable truth
    /// or schema, or when the validity of the current files is stored.
    pub fn validity_job(&self) -> Option<ValidityJob> {
        if !self.has_parsed(Role::Truth) || !self.has_parsed(Role::Schema) {
            return None;
        }
        self.check_schema_by().ok()?;
        let config = self.config().ok()?;
        if self.stored_validity(&config).is_some() {
            return None;
        }
        let files = self
            .files
            .iter()
            .filter(|f| f.parsed.is_ok() && f.role != Role::Config)
            .map(|f| (f.name.clone(), f.role, Arc::clone(&f.bytes)))
            .collect();
        Some(ValidityJob {
            key: ValidityKey::new(&self.files, &config),
            files,
            id_field: config.id_field,
            schema_by: config.schema_by,
        })
    }

    /// Stores the schema worker's answer to `job` (see
    /// [`compute_validity`]). A schema that is not valid JSON Schema becomes
    /// that file's error (the rest is evaluated without it, as with any file
    /// that fails); any other error is the report's.
    pub fn store_validity(&mut self, job: ValidityJob, answer: Result<SchemaValidity, Error>) {
        let answer = match answer {
            Err(e) if e.kind == ErrorKind::Schema => {
                let schema = job
                    .files
                    .iter()
                    .filter(|f| f.1 == Role::Schema)
                    .find(|f| e.file.as_deref().is_none_or(|file| file == f.0));
                if let Some((_, _, bytes)) = schema {
                    for f in &mut self.files {
                        if f.role == Role::Schema && Arc::ptr_eq(&f.bytes, bytes) {
                            f.parsed = Err(e.clone());
                        }
                    }
                }
                return;
            }
            Err(e) => Err(e.to_string()),
            Ok(v) => Ok(v),
        };
        self.validity = Some((job.key, answer));
    }

    /// Computes and stores the validity of the current files here, as the
    /// schema worker would (the native tests; the page never calls it).
    pub fn compute_validity_now(&mut self) {
        if let Some(job) = self.validity_job() {
            let answer = compute_validity(
                &job.files,
                job.id_field.as_deref(),
                job.schema_by.as_deref(),
            );
            self.store_validity(job, answer);
        }
    }

    /// The literature's metrics (`crate::eval::literature`) on the same
    /// files and id field as [`Session::evaluate`], as a job to run a
    /// slice at a time; the per-document values when `details`.
    pub fn literature_job(
        &self,
        metrics: literature::Metrics,
        details: bool,
    ) -> Result<literature::Job, String> {
        let (input, config) = self.inputs()?;
        let models = input.models.into_iter().map(|m| (m.name, m.file)).collect();
        literature::Job::new(
            input.truth,
            models,
            config.id_field.as_deref(),
            metrics,
            details,
        )
        .map_err(|e| e.to_string())
    }

    /// The configuration: the config files, then the settings.
    pub fn config(&self) -> Result<Config, String> {
        let mut builder = ConfigBuilder::new();
        for f in self.files.iter().filter(|f| f.role == Role::Config) {
            if let Ok(Parsed::Json(v)) = &f.parsed {
                builder = builder
                    .layer(v)
                    .map_err(|e| format!("{}: {}", f.name, e.message))?;
            }
        }
        builder = builder
            .layer(&Value::Object(self.settings.clone()))
            .map_err(|e| format!("settings: {}", e.message))?;
        builder.build().map_err(|e| e.to_string())
    }

    /// The evaluation's input (the truth and every predictions file that
    /// parsed) and configuration (config files, then the settings), as
    /// [`Session::evaluate_with`] evaluates them: what a threshold sweep
    /// re-evaluates.
    pub fn inputs(&self) -> Result<(EvalInput<Arc<DocFile>>, Config), String> {
        self.truth_records()?;
        let config = self.config()?;
        Ok((self.input()?, config))
    }

    /// The evaluation's input: the truth's and every parsed predictions
    /// file's records (shared), and the schema.
    fn input(&self) -> Result<EvalInput<Arc<DocFile>>, String> {
        let truth = Arc::clone(self.truth_records()?);
        self.check_schema_by()?;
        let (schema, schemas) = one_or_several(self.named_schemas());
        let models = self
            .files
            .iter()
            .filter(|f| f.role == Role::Predictions)
            .filter_map(|f| match &f.parsed {
                Ok(Parsed::Records(r)) => Some(ModelInput {
                    name: f.model.clone(),
                    file: Arc::clone(r),
                    cost: f.cost,
                }),
                _ => None,
            })
            .collect();
        Ok(EvalInput {
            truth,
            models,
            schema,
            schemas,
        })
    }

    /// The ground truth's records, or why there are none to evaluate.
    fn truth_records(&self) -> Result<&Arc<DocFile>, String> {
        match self.truth().map(|f| (&f.name, &f.parsed)) {
            None => Err("Load a ground-truth file to see a report.".into()),
            Some((name, Err(_))) => Err(format!(
                "The ground-truth file {name} has an error (see the file list)."
            )),
            Some((_, Ok(Parsed::Records(r)))) => Ok(r),
            Some((_, Ok(Parsed::Json(_)))) => Err("The ground truth is not a records file.".into()),
            Some((name, Ok(Parsed::Pending))) => {
                Err(format!("The ground-truth file {name} is being read."))
            }
        }
    }

    /// An evaluation error as a message; a schema error names the schema
    /// file.
    pub fn schema_error(&self, e: crate::error::Error) -> String {
        error_message(self.schema_name(), e)
    }
}

/// An evaluation error as a message; a schema error names the schema
/// file (`schema_name`).
fn error_message(schema_name: Option<&str>, e: Error) -> String {
    match schema_name {
        Some(n) if e.kind == ErrorKind::Schema => format!("{n}: {}", e.message),
        _ => e.to_string(),
    }
}

/// One evaluation of a session's files and settings ([`Session::evaluation`]):
/// it owns its inputs, so the session may change while it runs.
pub struct Evaluation {
    /// The session's parsed files, shared.
    input: EvalInput<Arc<DocFile>>,
    config: Config,
    details: bool,
    validity: SchemaValidity,
    /// The session's prepared evaluation, if it fits (else it prepares
    /// one), and what it is of.
    prepared: Option<Prepared>,
    prepared_key: PreparedKey,
    schema_name: Option<String>,
}

impl Evaluation {
    /// The number of truth documents and of models it evaluates.
    pub fn size(&self) -> (usize, usize) {
        (self.input.truth.records.len(), self.input.models.len())
    }

    /// Runs the evaluation, asking `pace` between documents whether to
    /// wait or stop: the report (`None` when it stopped), the same as
    /// [`Session::evaluate_with`]'s for the session it was made from, and
    /// what it prepared, for [`Session::keep`].
    pub async fn run(self, pace: &mut dyn Pace) -> (Option<Result<Report, String>>, Option<Kept>) {
        let Evaluation {
            input,
            config,
            details,
            validity,
            prepared,
            prepared_key,
            schema_name,
        } = self;
        let message = |e: Error| error_message(schema_name.as_deref(), e);
        let costs: Vec<Option<f64>> = input.models.iter().map(|m| m.cost).collect();
        let mut work = match prepared {
            Some(work) => work,
            None => match prepare_paced(input, &config, STORED_LIMIT_BYTES, pace).await {
                None => return (None, None),
                Some(Ok(work)) => work,
                Some(Err(e)) => return (Some(Err(message(e))), None),
            },
        };
        let report = work
            .evaluate_paced(&costs, &config, details, &validity, pace)
            .await
            .map(|r| r.map_err(message));
        (report, Some(Kept(prepared_key, work)))
    }
}

/// One run of a character-level diff between a truth and a prediction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffPart {
    Same(String),
    /// In the truth, missing from the prediction.
    Deleted(String),
    /// In the prediction, not in the truth.
    Inserted(String),
}

/// A character-level diff (Unicode scalar values) of two texts, for showing
/// near misses; adjacent runs of one kind are merged.
///
/// Myers' algorithm with `similar`'s compaction and replace hooks, exactly
/// what `similar::TextDiff::from_chars` computes (a test compares the two),
/// called directly so that the browser app carries one diff algorithm
/// instead of all of `TextDiff`'s (about 100 KB of WebAssembly).
pub fn char_diff(truth: &str, prediction: &str) -> Vec<DiffPart> {
    use similar::algorithms::{myers, Capture, Compact, Replace};
    let old: Vec<char> = truth.chars().collect();
    let new: Vec<char> = prediction.chars().collect();
    let mut hook = Compact::new(Replace::new(Capture::new()), &old[..], &new[..]);
    // Capture never fails (its error type is `Infallible`).
    let Ok(()) = myers::diff(&mut hook, &old[..], 0..old.len(), &new[..], 0..new.len());
    let text = |chars: &[char]| chars.iter().collect::<String>();
    let mut parts: Vec<DiffPart> = Vec::new();
    let mut push = |part: DiffPart| match (parts.last_mut(), part) {
        (Some(DiffPart::Same(a)), DiffPart::Same(b))
        | (Some(DiffPart::Deleted(a)), DiffPart::Deleted(b))
        | (Some(DiffPart::Inserted(a)), DiffPart::Inserted(b)) => a.push_str(&b),
        (_, part) => parts.push(part),
    };
    for op in hook.into_inner().into_inner().into_ops() {
        let (tag, o, n) = op.as_tag_tuple();
        let (o, n) = (
            old.get(o).unwrap_or_default(),
            new.get(n).unwrap_or_default(),
        );
        match tag {
            similar::DiffTag::Equal => push(DiffPart::Same(text(o))),
            similar::DiffTag::Delete => push(DiffPart::Deleted(text(o))),
            similar::DiffTag::Insert => push(DiffPart::Inserted(text(n))),
            // A replacement reads as its deletion, then its insertion.
            similar::DiffTag::Replace => {
                push(DiffPart::Deleted(text(o)));
                push(DiffPart::Inserted(text(n)));
            }
        }
    }
    parts
}

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

/// Whether `haystack` contains `needle` (a cheap test before parsing).
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// Whether a `.json` file is worth parsing to see if it is a schema or a
/// config: one object of at most 4 MB (schemas and configs are small; a
/// large records file is not parsed twice).
fn may_be_schema_or_config(bytes: &[u8]) -> bool {
    const SNIFF_LIMIT: usize = 4 << 20;
    let first = bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(bytes)
        .iter()
        .find(|b| !b.is_ascii_whitespace());
    first == Some(&b'{') && bytes.len() <= SNIFF_LIMIT
}

/// Parses a file for a role: records for truth and predictions, one JSON
/// document for schema and config (a config checked here).
/// The parse of one file for its role ([`Session::parse_job`]).
pub struct ParseJob {
    id: u32,
    name: String,
    role: Role,
    bytes: Arc<Vec<u8>>,
}

/// What a [`ParseJob`] read, to be kept by [`Session::store_parsed`].
pub struct ParsedFile {
    job: ParseJob,
    parsed: Result<Parsed, Error>,
}

impl ParseJob {
    /// Reads the file for its role, a records file a line at a time
    /// asking `pace` before each line whether to wait or stop (the units:
    /// bytes read); `None` when it stopped.
    pub async fn run(self, pace: &mut dyn Pace) -> Option<ParsedFile> {
        let parsed = match self.role {
            Role::Truth | Role::Predictions => parse_docs_paced(&self.name, &self.bytes, pace)
                .await?
                .map(|r| Parsed::Records(Arc::new(r))),
            role => parse_as(&self.name, &self.bytes, role),
        };
        Some(ParsedFile { job: self, parsed })
    }
}

fn parse_as(name: &str, bytes: &[u8], role: Role) -> Result<Parsed, Error> {
    match role {
        Role::Truth | Role::Predictions => {
            parse_docs(name, bytes).map(|r| Parsed::Records(Arc::new(r)))
        }
        // Whether it is valid JSON Schema is the schema worker's to say
        // (see `compute_validity`).
        Role::Schema => parse_json_value(name, bytes).map(Parsed::Json),
        Role::Config => {
            let v = parse_json_value(name, bytes)?;
            ConfigBuilder::new()
                .layer(&v)
                .map_err(|e| e.in_file(name))?;
            Ok(Parsed::Json(v))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_example_has_truth_three_models_and_a_schema() {
        let mut s = Session::example();
        let roles: Vec<Role> = s.files.iter().map(|f| f.role).collect();
        assert_eq!(
            roles,
            [
                Role::Truth,
                Role::Predictions,
                Role::Predictions,
                Role::Predictions,
                Role::Schema
            ]
        );
        assert!(s.files.iter().all(|f| f.parsed.is_ok()));
        let r = s.evaluate().unwrap();
        assert_eq!(r.documents, 50);
        assert_eq!(r.models.len(), 3);
        assert!(r.models.iter().all(|m| m.items.is_some()));
    }

    /// The example shows M0's accuracy paradox to a newcomer: the
    /// conservative model has the better accuracy, the aggressive one the
    /// better F1 (as printed, four decimals), so the report explains it.
    #[test]
    fn the_example_shows_the_accuracy_paradox() {
        let r = Session::example().evaluate().unwrap();
        let names: Vec<&str> = r.models.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["good", "conservative", "aggressive"]);
        let (c, a) = (&r.models[1], &r.models[2]);
        assert!(c.micro.accuracy - a.micro.accuracy > 0.005, "{c:?} {a:?}");
        assert!(a.micro.f1 - c.micro.f1 > 0.005, "{c:?} {a:?}");
        assert!(c.counts.true_negative > a.counts.true_negative);
        assert!(a.counts.spurious > 10 * c.counts.spurious);
        let options = crate::export::ExportOptions::default();
        let html = crate::export::html::render(&r, &options, &Default::default());
        assert_eq!(html.matches("<section id=\"accuracy-paradox\">").count(), 1);
    }

    /// Issue 14: the first drop of the user's own files replaces the
    /// example (the example's truth must not become a model named
    /// "truth"); files dropped after that are added to the user's set; a
    /// bundle replaces everything as before; "Load example" brings the
    /// example back.
    #[test]
    fn the_first_drop_replaces_the_example_and_later_drops_add() {
        let mut s = Session::example();
        assert!(s.shows_example);
        s.settings
            .insert("case_sensitive".into(), Value::Bool(true));
        let truth = b"{\"id\":\"a\",\"total\":1}\n{\"id\":\"b\",\"total\":2}\n".to_vec();
        let pred = b"{\"id\":\"a\",\"total\":1}\n{\"id\":\"b\",\"total\":3}\n".to_vec();
        s.load("truth.jsonl", truth).unwrap();
        assert!(!s.shows_example);
        s.load("mine.jsonl", pred.clone()).unwrap();
        let names: Vec<&str> = s.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["truth.jsonl", "mine.jsonl"]);
        assert_eq!(s.settings.get("case_sensitive"), Some(&Value::Bool(true)));
        let r = s.evaluate().unwrap();
        assert_eq!(r.documents, 2);
        assert_eq!(r.models.len(), 1);
        assert_eq!(r.models[0].counts.exact, 1);
        assert_eq!(r.models[0].counts.incorrect, 1);
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        // A later drop adds to the user's files.
        s.load("other.jsonl", pred).unwrap();
        assert_eq!(s.files.len(), 3);
        assert_eq!(s.evaluate().unwrap().models.len(), 2);
        // Clearing is not the example either.
        let mut e = Session::example();
        e.clear();
        assert!(!e.shows_example && e.files.is_empty());
    }

    #[test]
    fn roles_are_detected_by_name_and_content() {
        let mut s = Session::default();
        s.add_file("preds.jsonl", b"{\"id\":\"a\",\"x\":1}\n".to_vec());
        assert_eq!(
            s.files[0].role,
            Role::Truth,
            "the first records file is the truth"
        );
        s.add_file("model.jsonl", b"{\"id\":\"a\",\"x\":2}\n".to_vec());
        assert_eq!(s.files[1].role, Role::Predictions);
        s.add_file("gold.jsonl", b"{\"id\":\"a\",\"x\":1}\n".to_vec());
        assert_eq!(s.files[2].role, Role::Truth);
        assert_eq!(
            s.files[0].role,
            Role::Predictions,
            "a named truth file takes over"
        );
        s.add_file(
            "s.json",
            br#"{"type":"object","properties":{"x":{"type":"number"}}}"#.to_vec(),
        );
        assert_eq!(s.files[3].role, Role::Schema);
        s.add_file("m.json", br#"{"preset":"exact"}"#.to_vec());
        assert_eq!(s.files[4].role, Role::Config);
        assert_eq!(s.files[1].model, "model");
    }

    #[test]
    fn a_failed_file_keeps_its_error_and_the_rest_still_evaluates() {
        let mut s = Session::default();
        s.add_file("truth.jsonl", b"{\"id\":\"a\",\"x\":\"1\"}\n".to_vec());
        s.add_file("good.jsonl", b"{\"id\":\"a\",\"x\":\"1\"}\n".to_vec());
        let bad = s.add_file("bad.jsonl", b"{\"id\":\"a\",\n".to_vec());
        let f = s.files.iter().find(|f| f.id == bad).unwrap();
        assert_eq!(
            f.error().unwrap().to_string(),
            "bad.jsonl:1:10: unexpected end of line while parsing a value (is it truncated?)"
        );
        let r = s.evaluate().unwrap();
        assert_eq!(r.models.len(), 1);
        assert_eq!(r.models[0].micro.f1, 1.0);
    }

    #[test]
    fn settings_are_the_top_layer_and_bad_settings_say_so() {
        let mut s = Session::default();
        s.add_file("truth.jsonl", b"{\"id\":\"a\",\"x\":\"abcdef\"}\n".to_vec());
        s.add_file("m.jsonl", b"{\"id\":\"a\",\"x\":\"abcxyz\"}\n".to_vec());
        s.add_file("c.json", br#"{"preset":"standard"}"#.to_vec());
        assert_eq!(s.evaluate().unwrap().models[0].counts.partial, 1);
        s.set_setting("string_match.method", Some(Value::String("exact".into())));
        let r = s.evaluate().unwrap();
        assert_eq!(r.models[0].counts.incorrect, 1);
        assert_eq!(r.config["string_match"]["method"], "exact");
        s.set_setting("string_match.method", None);
        assert_eq!(s.evaluate().unwrap().models[0].counts.partial, 1);
        s.set_setting("zero_division", Some(Value::String("x".into())));
        assert_eq!(
            s.evaluate().unwrap_err(),
            "settings: key `zero_division` expects a number, found a string \"x\""
        );
    }

    #[test]
    fn rename_cost_remove() {
        let mut s = Session::default();
        s.add_file("truth.jsonl", b"{\"id\":\"a\",\"x\":1}\n".to_vec());
        let m = s.add_file("m.jsonl", b"{\"id\":\"a\",\"x\":1,\"cost\":0.5}\n".to_vec());
        s.rename_model(m, " GPT ");
        s.set_cost(m, Some(2.0));
        let r = s.evaluate().unwrap();
        assert_eq!(r.models[0].name, "GPT");
        assert_eq!(r.models[0].cost, Some(2.0));
        s.set_cost(m, None);
        assert_eq!(s.evaluate().unwrap().models[0].cost, Some(0.5));
        s.remove(m);
        assert!(s.evaluate().unwrap().models.is_empty());
        s.clear();
        assert_eq!(
            s.evaluate().unwrap_err(),
            "Load a ground-truth file to see a report."
        );
    }

    #[test]
    fn settings_round_trip_through_the_fragment() {
        let mut s = Session::default();
        assert_eq!(settings_to_fragment(&s.settings), "");
        s.set_setting("preset", Some(Value::String("exact".into())));
        s.set_setting(
            "partial_matching.string.exact_threshold",
            Some(serde_json::json!(0.9)),
        );
        let f = settings_to_fragment(&s.settings);
        assert_eq!(
            f,
            r#"settings={"preset":"exact","partial_matching":{"string":{"exact_threshold":0.9}}}"#
        );
        assert_eq!(settings_from_fragment(&f), Some(s.settings.clone()));
        assert_eq!(settings_from_fragment("settings={\"bogus\":1}"), None);
        assert_eq!(settings_from_fragment("other"), None);
    }

    #[test]
    fn a_bundle_reopens_to_the_same_report() {
        let mut s = Session::example();
        let m = s.files[2].id;
        s.rename_model(m, "renamed");
        s.set_cost(m, Some(3.5));
        s.set_setting("preset", Some(Value::String("exact".into())));
        s.add_file("broken.jsonl", vec![0xff, 0xfe, 0x00]);
        let bundle = s.to_bundle();
        let mut t = Session::default();
        t.load("fieldscope-bundle.json", bundle.into_bytes())
            .unwrap();
        assert_eq!(t.files.len(), s.files.len());
        assert_eq!(t.evaluate().unwrap(), s.evaluate().unwrap());
        assert!(t.files.last().unwrap().error().is_some());
        assert_eq!(t.settings, s.settings);
    }

    /// A report computed with the schema validity kept from the previous
    /// evaluation is byte-identical to one computed from scratch, for every
    /// key of the settings (each preset and a non-default value of every
    /// other key, one at a time and accumulated), for id-field changes
    /// (which change the validity) and for file changes in between.
    /// Every preset and a value other than the default of every setting
    /// (the settings panel's keys).
    fn settings_to_try() -> Vec<(&'static str, Value)> {
        vec![
            ("preset", json!("exact")),
            ("preset", json!("not-found")),
            ("preset", json!("invoice-cer")),
            ("preset", json!("standard")),
            ("id_field", json!("id")),
            ("id_field", json!("no_such_field")),
            ("id_field", Value::Null),
            ("absent_values", json!(["NOT_FOUND"])),
            ("ignored_fields", json!(["notes"])),
            ("numeric_string_fields", json!(["invoice_number"])),
            ("date_fields", json!(["due_date"])),
            ("date_order", json!("mdy")),
            ("case_sensitive", json!(true)),
            ("numeric_tolerance", json!(0.01)),
            ("string_match.method", json!("cer")),
            ("string_match.cer_threshold", json!(0.3)),
            ("partial_matching.string.exact_threshold", json!(0.9)),
            ("partial_matching.string.partial_threshold", json!(0.2)),
            ("incorrect_counts_as", json!(["fp"])),
            ("zero_division", json!(1)),
            ("empty_document_score", json!(0)),
            ("macro_f1", json!("mean")),
            ("item_f1_threshold", json!(0.5)),
            ("top_k", json!([1, 2])),
            (
                "document_extraction_score.weights.schema_validity",
                json!(0.5),
            ),
            ("field_weights", json!({"total": 2})),
        ]
    }

    #[test]
    fn cached_validity_gives_the_reports_of_a_fresh_evaluation() {
        let settings = settings_to_try();
        // Fresh: the core validating every payload itself.
        let fresh = |s: &Session| {
            let (input, config) = s.inputs().unwrap();
            let report = crate::eval::evaluate_owned(input, &config, true);
            serde_json::to_string(&report.map_err(|e| s.schema_error(e))).unwrap()
        };
        // Stored: the session's evaluation with the validity computed as
        // the schema worker computes it, and only when it is not stored.
        let stored = |s: &mut Session| {
            s.compute_validity_now();
            assert!(!s.validity_pending());
            serde_json::to_string(&s.evaluate()).unwrap()
        };
        let mut s = Session::example();
        assert!(s.validity_pending());
        assert_eq!(stored(&mut s), fresh(&s));
        let mut cumulative = s.clone();
        for (path, value) in &settings {
            let mut one = s.clone();
            one.set_setting(path, Some(value.clone()));
            // No setting but the id field asks for the validity again.
            if *path != "id_field" {
                assert!(!one.validity_pending(), "{path} = {value}");
            }
            assert!(one.evaluate().is_ok(), "{path} = {value}");
            assert_eq!(stored(&mut one), fresh(&one), "{path} = {value}");
            cumulative.set_setting(path, Some(value.clone()));
            assert_eq!(
                stored(&mut cumulative),
                fresh(&cumulative),
                "accumulated up to {path} = {value}"
            );
        }
        // The validity does change with the files: a model removed, a
        // prediction file made the truth, the schema removed.
        let ids: Vec<u32> = s.files.iter().map(|f| f.id).collect();
        s.remove(ids[2]);
        assert!(s.validity_pending());
        assert_eq!(stored(&mut s), fresh(&s));
        s.set_role(ids[1], Role::Truth);
        assert!(s.validity_pending());
        assert_eq!(stored(&mut s), fresh(&s));
        s.remove(ids[4]);
        assert!(!s.validity_pending(), "no schema, nothing to validate");
        assert_eq!(stored(&mut s), fresh(&s));
    }

    /// The files of a drop are added before they are parsed, so the schema
    /// worker's job starts at once; its answer is kept when every file
    /// parses, and asked again when one does not (the evaluated files
    /// changed).
    #[test]
    fn a_drops_validity_job_starts_before_parsing_and_is_kept_after() {
        let example = Session::example();
        let fresh = |s: &Session| {
            let (input, config) = s.inputs().unwrap();
            serde_json::to_string(&crate::eval::evaluate_owned(input, &config, true).unwrap())
                .unwrap()
        };
        for broken in [false, true] {
            let mut s = Session::default();
            let mut ids = Vec::new();
            for f in &example.files {
                let mut bytes = f.bytes.to_vec();
                if broken && f.name == "conservative.jsonl" {
                    bytes.extend_from_slice(b"{not json\n");
                }
                ids.push(s.load_pending(&f.name, bytes).unwrap().unwrap());
            }
            assert!(s.files.iter().all(LoadedFile::is_pending));
            let roles: Vec<Role> = s.files.iter().map(|f| f.role).collect();
            assert_eq!(
                roles,
                example.files.iter().map(|f| f.role).collect::<Vec<_>>()
            );
            assert!(s.inputs().is_err(), "nothing to evaluate before parsing");
            // The worker's job, with every file, before any is parsed.
            let job = s.validity_job().unwrap();
            assert_eq!(job.files.len(), 5);
            let answer = compute_validity(
                &job.files,
                job.id_field.as_deref(),
                job.schema_by.as_deref(),
            );
            assert_eq!(
                answer.is_err(),
                broken,
                "the worker parses the broken file too"
            );
            s.store_validity(job, answer);
            for id in ids {
                s.parse_file(id);
            }
            assert!(!s.files.iter().any(LoadedFile::is_pending));
            assert_eq!(s.validity_pending(), broken);
            s.compute_validity_now();
            assert!(!s.validity_pending());
            assert_eq!(
                serde_json::to_string(&s.evaluate().unwrap()).unwrap(),
                fresh(&s)
            );
            assert_eq!(
                s.evaluate().unwrap().models.len(),
                if broken { 2 } else { 3 }
            );
        }
    }

    /// The worker's answer survives its trip as text: validity, no schema,
    /// a schema error with its file, and anything unreadable.
    #[test]
    fn validity_answers_round_trip_through_text() {
        let valid = SchemaValidity::Known(vec![vec![true, false, true], vec![]]);
        let text = validity_answer_to_json(&Ok(valid.clone()));
        assert_eq!(text, r#"{"valid":["101",""]}"#);
        assert_eq!(validity_answer_from_json(&text), Ok(valid));
        let none = SchemaValidity::NoSchema;
        assert_eq!(
            validity_answer_from_json(&validity_answer_to_json(&Ok(none.clone()))),
            Ok(none)
        );
        let e = Error::new(
            ErrorKind::Schema,
            "the schema is not a valid JSON Schema (draft-07): x",
        )
        .in_file("s.json");
        assert_eq!(
            validity_answer_from_json(&validity_answer_to_json(&Err(e.clone()))),
            Err(e)
        );
        for junk in [
            "",
            "[]",
            r#"{"valid":["12"]}"#,
            r#"{"valid":[1]}"#,
            r#"{"other":1}"#,
        ] {
            let e = validity_answer_from_json(junk).unwrap_err();
            assert_eq!(
                e.message, "the schema validator gave an answer this page cannot read",
                "{junk}"
            );
        }
    }

    /// A provisional report, finished when the validity arrives, is the
    /// report a fresh evaluation gives, for every setting, with and without
    /// details (the hidden per-document tallies included).
    #[test]
    fn a_provisional_report_finished_with_the_validity_equals_a_fresh_evaluation() {
        for (path, value) in settings_to_try() {
            for details in [true, false] {
                let mut s = Session::example();
                s.set_setting(path, Some(value.clone()));
                assert!(s.validity_pending());
                let mut finished = s.evaluate_with(details).unwrap();
                assert!(finished.models.iter().all(|m| m.exact_if_valid.is_some()));
                s.compute_validity_now();
                let (input, config) = s.inputs().unwrap();
                let validity = s.known_validity().unwrap();
                crate::eval::complete_provisional(&mut finished, &validity, &config).unwrap();
                let fresh = crate::eval::evaluate_owned(input, &config, details).unwrap();
                assert!(finished == fresh, "{path} = {value}, details {details}");
                assert_eq!(
                    serde_json::to_string(&finished).unwrap(),
                    serde_json::to_string(&fresh).unwrap()
                );
            }
        }
        // A rename between the two evaluates again (the provisional report
        // has the old name).
        let mut s = Session::example();
        s.evaluate().unwrap();
        s.compute_validity_now();
        let id = s.files.iter().find(|f| f.model == "good").unwrap().id;
        s.rename_model(id, "renamed");
        let finished = s.evaluate().unwrap();
        assert!(finished.models.iter().any(|m| m.name == "renamed"));
        let (input, config) = s.inputs().unwrap();
        assert!(finished == crate::eval::evaluate_owned(input, &config, true).unwrap());
    }

    /// Pauses at every slice, stops at the `stop_at`-th (if any), and
    /// records what it was told.
    struct Recording {
        stop_at: Option<usize>,
        seen: Vec<(usize, usize)>,
    }

    impl Pace for Recording {
        fn pause(&mut self, done: usize, total: usize) -> Option<crate::eval::pace::PauseFuture> {
            use std::ops::ControlFlow;
            self.seen.push((done, total));
            let go = if Some(self.seen.len()) == self.stop_at {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            };
            Some(Box::pin(std::future::ready(go)))
        }
    }

    /// The session's evaluation, all at once, and how many pauses it asked
    /// for: 450 when it prepared (the example: 50 documents, 4 forests),
    /// 50 when it reused what was prepared.
    fn evaluated(s: &mut Session, details: bool) -> (Report, usize) {
        let mut pace = Recording {
            stop_at: None,
            seen: Vec::new(),
        };
        let evaluation = s.evaluation(details).unwrap();
        let (report, kept) = on_page(|| run_now(evaluation.run(&mut pace))).unwrap();
        s.keep(kept.unwrap());
        (report.unwrap().unwrap(), pace.seen.len())
    }

    /// Runs `f` on one thread, as the page runs (wasm32 has one): natively
    /// the comparison pass would otherwise run on rayon's pool in batches,
    /// pausing once a batch rather than once a document.
    fn on_page<R: Send>(f: impl FnOnce() -> R + Send) -> R {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a thread pool")
            .install(f)
    }

    /// The core's evaluation of the session's files from scratch, the
    /// schema validity computed by the core itself.
    fn fresh_report(s: &Session, details: bool) -> Report {
        let (input, config) = s.inputs().unwrap();
        crate::eval::evaluate_owned(input, &config, details).unwrap()
    }

    /// A settings change reuses the prepared evaluation (only the
    /// comparison pass runs) unless the setting is read before comparing
    /// (the ids, the absent values, the paths, the types, the
    /// normalisation) or a model is renamed; either way the report is the
    /// one evaluated from scratch, setting after setting.
    #[test]
    fn a_settings_change_reuses_the_prepared_evaluation_only_when_it_may() {
        let prepares_again = [
            "id_field",
            "absent_values",
            "ignored_fields",
            "numeric_string_fields",
            "date_fields",
            "date_order",
            "case_sensitive",
        ];
        let mut s = Session::example();
        s.compute_validity_now();
        assert_eq!(evaluated(&mut s, false).1, 450);
        assert_eq!(evaluated(&mut s, true).1, 50, "the details too");
        for (path, value) in settings_to_try() {
            s.set_setting(path, Some(value.clone()));
            s.compute_validity_now();
            let (report, pauses) = evaluated(&mut s, true);
            let expected = if prepares_again.contains(&path) {
                450
            } else {
                50
            };
            assert_eq!(pauses, expected, "{path} = {value}");
            assert!(report == fresh_report(&s, true), "{path} = {value}");
        }
        let good = s.files.iter().find(|f| f.model == "good").unwrap().id;
        s.set_cost(good, Some(2.5));
        let (report, pauses) = evaluated(&mut s, false);
        assert_eq!((pauses, report.models[0].cost), (50, Some(2.5)));
        assert!(report == fresh_report(&s, false));
        s.rename_model(good, "better");
        let (report, pauses) = evaluated(&mut s, false);
        assert_eq!((pauses, report.models[0].name.as_str()), (450, "better"));
        assert!(report == fresh_report(&s, false));
    }

    /// A threshold sweep prepares the files once and reuses them at every
    /// value: each point is still the full evaluation with that value.
    #[test]
    fn every_point_of_a_sweep_is_the_fresh_evaluation_at_its_value() {
        use crate::eval::sweep::{SweepParam, SweepRun};
        let mut s = Session::example();
        s.compute_validity_now();
        let (input, config) = s.inputs().unwrap();
        let validity = s.known_validity().unwrap();
        for param in SweepParam::ALL {
            let values = vec![0.3, 0.6, 0.9];
            let mut run = SweepRun::new(&input, &config, param, values.clone(), validity.clone());
            while !run.step(&input).unwrap() {}
            let report = run.finish();
            for (i, &value) in values.iter().enumerate() {
                let at = param.apply(&config, value).unwrap();
                let fresh = crate::eval::evaluate_owned(input.clone(), &at, false).unwrap();
                for (curve, model) in report.models.iter().zip(&fresh.models) {
                    let point = &curve.points[i];
                    assert_eq!(point.micro_f1, model.micro.f1, "{param:?} {value}");
                    assert_eq!(point.micro_accuracy, model.micro.accuracy);
                    assert_eq!(point.macro_documents_f1, model.macro_documents.f1);
                    assert_eq!(point.item_f1, model.items.as_ref().map(|i| i.f1));
                }
            }
        }
    }

    /// Removing files frees the prepared evaluation, even one that an
    /// evaluation under way holds (it is not taken back).
    #[test]
    fn removing_files_frees_the_prepared_evaluation() {
        let held = |s: &Session| s.prepared.0.is_some();
        let mut s = Session::example();
        s.compute_validity_now();
        assert!(!held(&s));
        evaluated(&mut s, false);
        assert!(held(&s));
        let schema = s.files.iter().find(|f| f.role == Role::Schema).unwrap().id;
        s.remove(schema);
        assert!(!held(&s));
        assert_eq!(evaluated(&mut s, false).1, 450, "prepared anew");
        assert!(held(&s));
        // A file removed while an evaluation runs: the report is made, the
        // prepared evaluation not kept.
        let evaluation = s.evaluation(true).unwrap();
        assert!(!held(&s), "the evaluation holds it");
        let model = s
            .files
            .iter()
            .find(|f| f.role == Role::Predictions)
            .unwrap()
            .id;
        s.remove(model);
        let (report, kept) = run_now(evaluation.run(&mut NoPause)).unwrap();
        assert!(matches!(report, Some(Ok(_))));
        s.keep(kept.unwrap());
        assert!(!held(&s));
    }

    /// Prepared without keeping the flattened documents (over the limit),
    /// an evaluation flattens them again and gives the same report; one
    /// under settings the preparation did not have is refused.
    #[test]
    fn a_prepared_evaluation_over_the_limit_flattens_again() {
        use crate::eval::evaluate::prepare_paced;
        let mut s = Session::example();
        s.compute_validity_now();
        let validity = s.known_validity().unwrap();
        let input = s.input().unwrap();
        let config = s.config().unwrap();
        let costs = vec![None; input.models.len()];
        let mut prepared = run_now(prepare_paced(input.clone(), &config, 0, &mut NoPause))
            .flatten()
            .unwrap()
            .unwrap();
        let mut kept = run_now(prepare_paced(input, &config, usize::MAX, &mut NoPause))
            .flatten()
            .unwrap()
            .unwrap();
        assert_eq!((prepared.stored_bytes(), kept.stored_bytes()), (0, 0));
        for (i, preset) in ["exact", "invoice-cer", "standard"].into_iter().enumerate() {
            s.set_setting("preset", Some(json!(preset)));
            let config = s.config().unwrap();
            for p in [&mut prepared, &mut kept] {
                let report =
                    run_now(p.evaluate_paced(&costs, &config, true, &validity, &mut NoPause))
                        .flatten()
                        .unwrap()
                        .unwrap();
                assert!(report == fresh_report(&s, true), "{preset}");
            }
            // Kept by the second evaluation (the first leaves them to
            // `keep_documents`), unless over the limit.
            assert_eq!(prepared.stored_bytes(), 0);
            assert_eq!(kept.stored_bytes() > 0, i > 0, "{preset}");
        }
        s.set_setting("case_sensitive", Some(json!(true)));
        let config = s.config().unwrap();
        let refused =
            run_now(prepared.evaluate_paced(&costs, &config, false, &validity, &mut NoPause))
                .flatten()
                .unwrap();
        assert!(refused.is_err());
    }

    /// Over the limit already by the rate of the first documents kept
    /// (100 documents: the rate is checked after 64), the evaluation stops
    /// keeping them at once and still gives the fresh report.
    #[test]
    fn a_prepared_evaluation_projected_over_the_limit_keeps_nothing() {
        use crate::eval::evaluate::prepare_paced;
        let data = generate(&SynthOptions::paradox(100, 3));
        let mut s = Session::default();
        s.add_file("truth.jsonl", data.truth_jsonl.into_bytes());
        for (name, jsonl) in data.predictions {
            s.add_file(&format!("{name}.jsonl"), jsonl.into_bytes());
        }
        let (input, config) = s.inputs().unwrap();
        let costs = vec![None; input.models.len()];
        let validity = SchemaValidity::default();
        for (limit, kept) in [(1, false), (usize::MAX, true)] {
            let mut prepared = run_now(prepare_paced(input.clone(), &config, limit, &mut NoPause))
                .flatten()
                .unwrap()
                .unwrap();
            // The second evaluation keeps them.
            for _ in 0..2 {
                let report = run_now(prepared.evaluate_paced(
                    &costs,
                    &config,
                    true,
                    &validity,
                    &mut NoPause,
                ))
                .flatten()
                .unwrap()
                .unwrap();
                assert!(report == fresh_report(&s, true), "limit {limit}");
            }
            assert_eq!(prepared.stored_bytes() > 0, kept, "limit {limit}");
        }
    }

    /// The documents kept a slice at a time after the first report (what
    /// the page does while idle): then an evaluation only loads them; an
    /// evaluation that starts half-way keeps them itself; either way the
    /// reports are the fresh ones.
    #[test]
    fn documents_kept_while_idle_serve_the_next_evaluation() {
        let mut s = Session::example();
        s.compute_validity_now();
        assert_eq!(s.keep_documents(7), None, "nothing prepared yet");
        assert_eq!(evaluated(&mut s, false).1, 450);
        // 50 documents, 7 at a time: done at the eighth call.
        let calls: Vec<Option<bool>> = (0..9).map(|_| s.keep_documents(7)).collect();
        assert_eq!(calls[..7], [Some(false); 7]);
        assert_eq!(calls[7..], [Some(true); 2]);
        let stored = |s: &Session| s.prepared.0.as_ref().map_or(0, |(_, p)| p.stored_bytes());
        assert!(stored(&s) > 0);
        let mut pace = Recording {
            stop_at: None,
            seen: Vec::new(),
        };
        s.set_setting("preset", Some(json!("invoice-cer")));
        let (report, kept) = run_now(s.evaluation(true).unwrap().run(&mut pace)).unwrap();
        s.keep(kept.unwrap());
        let report = report.unwrap().unwrap();
        assert!(
            pace.seen.iter().all(|&(_, total)| total == 2 * 4 * 50),
            "loaded"
        );
        assert!(report == fresh_report(&s, true));
        // Another setting read before comparing: kept half-way, then an
        // evaluation (which keeps them itself), then nothing left to keep.
        s.set_setting("case_sensitive", Some(json!(true)));
        assert_eq!(evaluated(&mut s, false).1, 450);
        assert_eq!(s.keep_documents(20), Some(false));
        let (report, pauses) = evaluated(&mut s, true);
        assert_eq!(pauses, 50);
        assert!(report == fresh_report(&s, true));
        assert_eq!(s.keep_documents(20), Some(true));
        // Other settings than the prepared evaluation's: not for it.
        s.set_setting("case_sensitive", None);
        assert_eq!(s.keep_documents(20), None);
    }

    /// Raw model output is parsed into the prepared evaluation's copy of
    /// the file (copy on write): the session's own file stays as read.
    #[test]
    fn raw_output_parsed_for_an_evaluation_leaves_the_sessions_file_as_read() {
        let truth = "{\"id\": \"a\", \"total\": \"5\"}\n{\"id\": \"b\", \"total\": \"7\"}\n";
        let preds = "{\"id\": \"a\", \"output\": \"```json\\n{\\\"total\\\": \\\"5\\\"}\\n```\"}\n{\"id\": \"b\", \"output\": \"no JSON here\"}\n";
        let mut s = Session::default();
        s.add_file("truth.jsonl", truth.as_bytes().to_vec());
        s.add_file("raw.jsonl", preds.as_bytes().to_vec());
        let read = crate::io::parse_docs("raw.jsonl", preds.as_bytes()).unwrap();
        let (report, pauses) = evaluated(&mut s, true);
        assert_eq!(pauses, 2 * 2 + 2 * 2 + 2);
        let counts = report.models[0].counts;
        assert_eq!((counts.exact, counts.missed), (1, 1));
        s.set_setting("preset", Some(json!("exact")));
        let (again, pauses) = evaluated(&mut s, true);
        assert_eq!(pauses, 2, "reused");
        assert!(again == fresh_report(&s, true));
        let file = s.files.iter().find(|f| f.name == "raw.jsonl").unwrap();
        match &file.parsed {
            Ok(Parsed::Records(r)) => assert!(r.forest.same_content(&read.forest)),
            other => panic!("not records: {other:?}"),
        }
    }

    /// The worker's evaluation, run with a pace, gives the report the
    /// session gives at once, in each validity state; a pace that stops
    /// it gives none; its progress climbs to the whole.
    #[test]
    fn an_evaluation_run_in_slices_equals_one_run_at_once_and_can_be_stopped() {
        let sliced = |s: &mut Session, details: bool| {
            let mut pace = Recording {
                stop_at: None,
                seen: Vec::new(),
            };
            let evaluation = s.evaluation(details).unwrap();
            let (documents, models) = evaluation.size();
            let (report, kept) = on_page(|| run_now(evaluation.run(&mut pace))).unwrap();
            s.keep(kept.unwrap());
            (report.unwrap().unwrap(), pace.seen, documents, models)
        };
        let mut s = Session::example();
        s.set_setting("preset", Some(json!("invoice-cer")));
        // Validity pending: the provisional report.
        let (report, seen, documents, models) = sliced(&mut s, true);
        assert_eq!((documents, models), (50, 3));
        assert!(report == s.clone().evaluate_with(true).unwrap());
        // Preparing: one pause per record and file while the ids are read,
        // one per document and forest while the kinds are learnt, then one
        // per document in the comparison pass, which flattens the
        // documents as it goes (worth four units a forest); the units
        // climb to (but not past) the total of 6 × forests × records.
        assert_eq!(seen.len(), 4 * 50 + 4 * 50 + 50);
        assert!(seen.iter().all(|&(_, total)| total == 6 * 4 * 50));
        assert!(seen.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(seen[200].0, 4 * 50, "the kinds pass starts after the ids");
        assert_eq!(
            seen[400].0,
            2 * 4 * 50,
            "the comparison pass after the kinds"
        );
        assert_eq!(seen.last().unwrap().0, 2 * 4 * 50 + 4 * 4 * 49);
        // Validity known: the files and the settings read before comparing
        // are the same: only the comparison pass runs, its units the
        // whole, loading the documents (two units a forest) kept while
        // the worker was idle; the reports are the fresh ones.
        s.compute_validity_now();
        while s.keep_documents(7) == Some(false) {}
        for details in [false, true] {
            let (again, seen, ..) = sliced(&mut s, details);
            assert_eq!(seen.len(), 50);
            assert!(seen.iter().all(|&(_, total)| total == 2 * 4 * 50));
            assert_eq!(seen.last().unwrap().0, 2 * 4 * 49);
            assert!(again == fresh_report(&s, details), "details {details}");
        }
        // No schema.
        let schema = s.files.iter().find(|f| f.role == Role::Schema).unwrap().id;
        s.remove(schema);
        let (report, ..) = sliced(&mut s, false);
        assert!(report == s.clone().evaluate_with(false).unwrap());
        // Stopped: no report, and the pace was asked no further. Stopped
        // while preparing (each time under other absent values, so
        // prepared anew), the next evaluation prepares again; stopped
        // while comparing, the next reuses what was prepared.
        for (stop_at, next) in [(1, 450), (120, 450), (300, 450), (420, 50)] {
            let absent = json!(["NOT_FOUND", "N/A", "", format!("none {stop_at}")]);
            s.set_setting("absent_values", Some(absent));
            let mut pace = Recording {
                stop_at: Some(stop_at),
                seen: Vec::new(),
            };
            let evaluation = s.evaluation(false).unwrap();
            let (stopped, kept) = on_page(|| run_now(evaluation.run(&mut pace))).unwrap();
            assert!(stopped.is_none());
            if let Some(kept) = kept {
                s.keep(kept);
            }
            assert_eq!(pace.seen.len(), stop_at);
            let (report, seen, ..) = sliced(&mut s, false);
            assert_eq!(seen.len(), next, "stopped at {stop_at}");
            let (input, config) = s.inputs().unwrap();
            assert!(report == crate::eval::evaluate_owned(input, &config, false).unwrap());
        }
        // No truth: no evaluation, the session's message. A schema the
        // worker rejects is that file's error; the rest evaluates.
        let mut small = Session::default();
        assert_eq!(
            small.evaluation(false).err(),
            small.evaluate_with(false).err()
        );
        small.add_file("truth.jsonl", b"{\"id\": \"a\", \"x\": 1}\n".to_vec());
        small.add_file("broken.schema.json", br#"{"type": 7}"#.to_vec());
        small.compute_validity_now();
        let (report, _) = run_now(small.evaluation(false).unwrap().run(&mut NoPause)).unwrap();
        assert_eq!(
            report.as_ref().map(|r| r.as_ref().map(|r| r.documents)),
            Some(Ok(1))
        );
        assert_eq!(report, Some(small.evaluate_with(false)));
    }

    /// The page's parse, a line at a time, keeps what parse_file keeps; its
    /// progress climbs through the file's bytes; a result for a file that
    /// was given another role or replaced meanwhile is not kept.
    #[test]
    fn a_file_parsed_in_slices_equals_one_parsed_at_once() {
        let data = generate(&SynthOptions {
            documents: 20,
            seed: 5,
            ..SynthOptions::default()
        });
        let bytes = data.truth_jsonl.clone().into_bytes();
        let mut at_once = Session::default();
        at_once.add_file("truth.jsonl", bytes.clone());
        let mut sliced = Session::default();
        let id = sliced.add_file_pending("truth.jsonl", bytes.clone());
        let job = sliced.parse_job(id).unwrap();
        let mut pace = Recording {
            stop_at: None,
            seen: Vec::new(),
        };
        let parsed = run_now(job.run(&mut pace)).unwrap().unwrap();
        sliced.store_parsed(parsed);
        assert!(sliced.parse_job(id).is_none(), "parsed: no job left");
        assert_eq!(sliced.files[0].records(), Some(20));
        assert!(sliced.evaluate().unwrap() == at_once.evaluate().unwrap());
        // A pause before every line (and the empty one after the last).
        assert_eq!(pace.seen.len(), 21);
        assert!(pace.seen.iter().all(|&(_, total)| total == bytes.len()));
        assert!(pace.seen.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(pace.seen[20].0, bytes.len());
        // Stopped: nothing to store.
        let mut other = Session::default();
        let id = other.add_file_pending("good.jsonl", data.predictions[0].1.clone().into_bytes());
        let mut stop = Recording {
            stop_at: Some(3),
            seen: Vec::new(),
        };
        assert!(run_now(other.parse_job(id).unwrap().run(&mut stop))
            .unwrap()
            .is_none());
        // A result that comes back after the file was given another role
        // is not kept (the file is read again for its new role).
        let job = other.parse_job(id).unwrap();
        assert_eq!(other.files[0].role, Role::Truth, "the first records file");
        let parsed = run_now(job.run(&mut NoPause)).unwrap().unwrap();
        other.set_role(id, Role::Predictions);
        other.store_parsed(parsed);
        assert!(other.files[0].is_pending());
        other.parse_file(id);
        assert_eq!(other.files[0].records(), Some(20));
        // Or after it was removed.
        let id = other.add_file_pending("again.jsonl", bytes);
        let job = other.parse_job(id).unwrap();
        other.remove(id);
        other.store_parsed(run_now(job.run(&mut NoPause)).unwrap().unwrap());
        assert_eq!(other.files.len(), 1);
    }

    /// Before the worker's answer the report is provisional in the
    /// validity-dependent values only.
    #[test]
    fn a_provisional_report_differs_only_where_validity_counts() {
        let mut s = Session::example();
        assert!(s.validity_pending());
        let provisional = s.evaluate().unwrap();
        assert!(s.known_validity().is_err());
        s.compute_validity_now();
        let last = s.evaluate().unwrap();
        let validity = s.known_validity().unwrap();
        let per_model = validity.per_model().unwrap();
        assert_eq!(per_model.len(), 3);
        assert!(per_model.iter().all(|m| m.len() == 50));
        for (p, f) in provisional.models.iter().zip(&last.models) {
            assert_eq!(p.name, f.name);
            assert_eq!(
                serde_json::to_value(p.micro).unwrap(),
                serde_json::to_value(f.micro).unwrap()
            );
            assert_eq!(p.macro_documents.f1, f.macro_documents.f1);
            assert_eq!(p.numeric_precision, f.numeric_precision);
            // Every payload of the example parses, so provisionally all
            // are valid; the schema then says which are not.
            assert_eq!(p.schema_validity_rate, 1.0);
            let invalid = per_model[last.models.iter().position(|m| m.name == f.name).unwrap()]
                .iter()
                .filter(|v| !**v)
                .count();
            assert_eq!(f.schema_validity_rate, 1.0 - invalid as f64 / 50.0);
        }
        let aggressive = last.models.iter().find(|m| m.name == "aggressive").unwrap();
        assert!(aggressive.schema_validity_rate < 1.0);
    }

    /// A worker that fails (here: cannot be loaded) leaves the provisional
    /// report, says why, and is not asked again for the same files.
    #[test]
    fn a_failed_worker_leaves_the_provisional_report_and_says_why() {
        let mut s = Session::example();
        let provisional = s.evaluate().unwrap();
        let job = s.validity_job().unwrap();
        let why = "the schema validator could not be loaded or failed";
        s.store_validity(job, Err(Error::new(ErrorKind::Input, why)));
        assert_eq!(s.validity_failure().as_deref(), Some(why));
        assert!(!s.validity_pending());
        assert!(s.validity_job().is_none(), "not asked again");
        let report = s.evaluate().unwrap();
        assert_eq!(
            serde_json::to_string(&report).unwrap(),
            serde_json::to_string(&provisional).unwrap()
        );
        // Other files: asked again, and the failure is gone.
        let id = s.files.iter().find(|f| f.model == "good").unwrap().id;
        s.remove(id);
        assert!(s.validity_pending());
        assert_eq!(s.validity_failure(), None);
    }

    /// A schema that is not JSON Schema is found by the worker and shown
    /// as that file's error; the rest is evaluated without it.
    #[test]
    fn a_schema_the_worker_rejects_becomes_that_files_error() {
        let mut s = Session::example();
        let schema = s.files.iter().find(|f| f.role == Role::Schema).unwrap().id;
        s.remove(schema);
        s.add_file("bad.schema.json", br#"{"type": 12}"#.to_vec());
        assert!(s.files.last().unwrap().parsed.is_ok());
        assert!(s.validity_pending());
        s.compute_validity_now();
        let bad = s.files.last().unwrap();
        let message = bad.error().unwrap().to_string();
        assert!(
            message
                .starts_with("bad.schema.json: the schema is not a valid JSON Schema (draft-07)"),
            "{message}"
        );
        assert!(!s.validity_pending());
        let report = s.evaluate().unwrap();
        assert_eq!(report.models.len(), 3);
        assert!(report.models.iter().all(|m| m.schema_validity_rate == 1.0));
    }

    #[test]
    fn char_diff_marks_insertions_and_deletions() {
        assert_eq!(
            char_diff("Invoice 1234", "Invoice 1243"),
            vec![
                DiffPart::Same("Invoice 12".into()),
                DiffPart::Inserted("4".into()),
                DiffPart::Same("3".into()),
                DiffPart::Deleted("4".into()),
            ]
        );
        assert_eq!(char_diff("", "x"), vec![DiffPart::Inserted("x".into())]);
        assert_eq!(char_diff("é𝔸", "é𝔸"), vec![DiffPart::Same("é𝔸".into())]);
    }

    /// `char_diff` against `similar::TextDiff::from_chars` (what it
    /// replaces) on random texts over a small alphabet, short and long
    /// (over 100 characters, where `TextDiff` takes other paths).
    #[test]
    fn char_diff_equals_textdiff_from_chars() {
        fn reference(truth: &str, prediction: &str) -> Vec<DiffPart> {
            let diff = similar::TextDiff::from_chars(truth, prediction);
            let mut parts: Vec<DiffPart> = Vec::new();
            for change in diff.iter_all_changes() {
                let text = change.value().to_string();
                let part = match change.tag() {
                    similar::ChangeTag::Equal => DiffPart::Same(text),
                    similar::ChangeTag::Delete => DiffPart::Deleted(text),
                    similar::ChangeTag::Insert => DiffPart::Inserted(text),
                };
                match (parts.last_mut(), part) {
                    (Some(DiffPart::Same(a)), DiffPart::Same(b))
                    | (Some(DiffPart::Deleted(a)), DiffPart::Deleted(b))
                    | (Some(DiffPart::Inserted(a)), DiffPart::Inserted(b)) => a.push_str(&b),
                    (_, part) => parts.push(part),
                }
            }
            parts
        }
        let mut rng = fastrand::Rng::with_seed(7);
        let alphabet = ['a', 'b', 'c', ' ', '1', 'é', '𝔸'];
        let mut random = |len: usize| -> String {
            (0..len)
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect()
        };
        for round in 0..3000 {
            let max = if round % 10 == 0 { 400 } else { 30 };
            let truth = random(round % (max + 1));
            let mut prediction: Vec<char> = truth.chars().collect();
            // Edits of a copy, so that most pairs are near misses.
            for _ in 0..(round % 7) {
                let at = (round * 31 + prediction.len()) % (prediction.len() + 1);
                match round % 3 {
                    0 => prediction.insert(at, 'x'),
                    1 if at < prediction.len() => {
                        prediction.remove(at);
                    }
                    _ => prediction.insert(at, 'é'),
                }
            }
            let prediction: String = if round % 5 == 4 {
                random(round % (max + 1))
            } else {
                prediction.into_iter().collect()
            };
            assert_eq!(
                char_diff(&truth, &prediction),
                reference(&truth, &prediction),
                "{truth:?} vs {prediction:?}"
            );
        }
    }

    #[test]
    fn file_stems() {
        assert_eq!(file_stem("preds/gpt-4o.jsonl"), "gpt-4o");
        assert_eq!(file_stem("a.b.json"), "a.b");
        assert_eq!(file_stem(".hidden"), ".hidden");
        assert_eq!(file_stem("C:\\x\\m.csv"), "m");
    }
}
