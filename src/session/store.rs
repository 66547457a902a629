//! The worker's session state: [`Session`] — the files the user loaded
//! (their roles and parses), the settings layer, the corrections of the
//! truth and the caches between evaluations — with the built-in example
//! and the methods that add, parse, re-role and remove files.
//!
//! Owns the struct and its file-store methods; its jobs (evaluating,
//! validity, caches, codecs, corrections) are `impl Session` blocks in the
//! sibling modules, which import it from here. Depends on `io`, `eval`,
//! `synth` and its siblings; knows no web types.

use super::caches::{PreparedCache, StoredValidity};
use super::corrections::{self, CorrectedCache, CorrectedKey, CorrectedRef};
use super::files::{
    contains, file_stem, looks_like_config, looks_like_schema, may_be_schema_or_config, LoadedFile,
    ParseJob, Parsed, ParsedFile, Role,
};
use super::settings::Layered;
use super::{Kept, BUNDLE_KEY, CORRECTIONS_FILE};
use crate::eval::corrections::Correction;
use crate::eval::pace::{run_now, NoPause};
use crate::eval::Config;
use crate::io::parse_json_value;
use crate::synth::{generate, SynthOptions};
use serde_json::{Map, Value};
use std::sync::Arc;

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
    pub(super) next_id: u32,
    /// The last schema validity stored, or why it could not be computed,
    /// and what it was computed from (the key tells whether it is of the
    /// current files).
    pub(super) validity: StoredValidity,
    /// The prepared evaluation of the files (`eval::Prepared`: the ids,
    /// paths, kinds and flattened documents), for the next evaluation of
    /// the same files under settings that do not change them.
    pub(super) prepared: PreparedCache,
    /// The corrections of the truth (SPEC §9.3) applied before every
    /// evaluation (the app's "Check the truth" panel; a bundle keeps them).
    pub(super) corrections: Vec<Correction>,
    /// The file the corrections came from, which the warnings name: the
    /// user's, for corrections re-opened from a bundle or a report the
    /// CLI wrote (`eval --corrections FILE --embed-inputs`); `None` for
    /// the panel's own, named [`CORRECTIONS_FILE`] as it downloads them.
    pub(super) corrections_file: Option<String>,
    /// The corrected truth of the current truth, settings and corrections.
    pub(super) corrected: CorrectedCache,
}

/// The built-in example's metrics config: sliced by the vendor's country,
/// which is no scored field (SPEC §9.2's `ignored_fields` reading). A
/// config file, not the page's settings layer: the example's first report
/// is the one made under the empty layer (the prebuilt opening report).
pub const EXAMPLE_CONFIG: &str =
    "{\"slice_by\": [\"vendor_country\"], \"ignored_fields\": [\"vendor_country\"]}\n";

impl Session {
    /// The built-in example: 50 synthetic invoices with nested vendors,
    /// line items, NOT_FOUND-heavy fields and a code list, and three models
    /// (a good one, a conservative one, an aggressive one that hallucinates),
    /// with the invoice schema; the truth has each vendor's country
    /// (`vendor_country`, SPEC §9.2), on whose German invoices the good
    /// model is weak, and a metrics config (`config.json`,
    /// [`EXAMPLE_CONFIG`]) slices by it, so that the "Where it fails" view
    /// has a weak slice to show on first load. (`fieldscope synth
    /// --documents 50 --seed 19 --paradox --vendor-country`, that config.)
    pub fn example() -> Session {
        Session::example_of(50)
    }

    /// The built-in example's files and config with `documents` invoices
    /// (the tests that evaluate it many times use fewer).
    pub(crate) fn example_of(documents: usize) -> Session {
        let mut options = SynthOptions::paradox(documents, 19);
        options.vendor_country = true;
        let data = generate(&options);
        let mut s = Session::default();
        s.add_file("truth.jsonl", data.truth_jsonl.into_bytes());
        for (name, jsonl) in data.predictions {
            s.add_file(&format!("{name}.jsonl"), jsonl.into_bytes());
        }
        s.add_file("invoice.schema.json", data.schema_json.into_bytes());
        s.add_file("config.json", EXAMPLE_CONFIG.as_bytes().to_vec());
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
    pub(super) fn detect_role(&self, name: &str, bytes: &[u8]) -> Role {
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

    pub(super) fn file_mut(&mut self, id: u32) -> Option<&mut LoadedFile> {
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
        self.corrections.clear();
        self.corrections_file = None;
        self.prepared = PreparedCache(None);
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

    /// The truth file, if one parsed.
    pub fn truth(&self) -> Option<&LoadedFile> {
        self.files.iter().find(|f| f.role == Role::Truth)
    }

    /// The corrections of the truth applied before evaluating (SPEC §9.3).
    pub fn corrections(&self) -> &[Correction] {
        &self.corrections
    }

    /// Sets the corrections from a corrections file's JSON (SPEC §9.3): the
    /// panel's list, named [`CORRECTIONS_FILE`] as it downloads it; a list
    /// that does not read keeps the one before and says why.
    pub fn set_corrections(&mut self, list: &Value) -> Result<(), String> {
        self.set_corrections_from(None, list)
    }

    /// [`Session::set_corrections`] with the corrections read from the
    /// user's file `file` (its name without folders), which the warnings
    /// and errors then name, as `eval --corrections FILE` names it.
    pub fn set_corrections_from(&mut self, file: Option<&str>, list: &Value) -> Result<(), String> {
        let name = file.unwrap_or(CORRECTIONS_FILE);
        self.corrections =
            crate::eval::corrections::parse_corrections(name, list).map_err(|e| e.to_string())?;
        self.corrections_file = file.map(str::to_string);
        Ok(())
    }

    /// The name the corrections' warnings give their file.
    pub fn corrections_file(&self) -> &str {
        self.corrections_file.as_deref().unwrap_or(CORRECTIONS_FILE)
    }

    /// The corrections, taken out (the session evaluates without them
    /// until [`Session::restore_corrections`]).
    pub fn take_corrections(&mut self) -> Vec<Correction> {
        std::mem::take(&mut self.corrections)
    }

    /// Puts back corrections taken by [`Session::take_corrections`].
    pub fn restore_corrections(&mut self, corrections: Vec<Correction>) {
        self.corrections = corrections;
    }

    /// The key of the corrected truth of the current truth file, settings
    /// and corrections; `None` without corrections (or truth, or config).
    pub(super) fn corrected_key(&self) -> Option<(CorrectedKey, Config)> {
        if self.corrections.is_empty() {
            return None;
        }
        let config = self.config().ok()?;
        let key = CorrectedKey::new(
            self.truth()?,
            &self.corrections,
            self.corrections_file(),
            &config,
        );
        Some((key, config))
    }

    /// Applies the corrections to the truth (`corrections::corrected`),
    /// unless the corrected truth kept is of the same truth, settings and
    /// corrections: called before each run, which reads it through
    /// [`Session::truth_records`].
    pub fn apply_corrections(&mut self) {
        let Some((key, config)) = self.corrected_key() else {
            self.corrected = CorrectedCache(None);
            return;
        };
        if self.corrected.of(&key).is_none() {
            let records = corrections::corrected(&key, &config);
            self.corrected = CorrectedCache(Some((key, records)));
        }
    }

    /// With corrections: the corrected truth and the warnings of the
    /// corrections applied, as [`Session::apply_corrections`] last made
    /// them for the current truth, settings and corrections, or why a
    /// correction was refused; `None` without corrections.
    pub(super) fn corrected(&self) -> Option<CorrectedRef<'_>> {
        let (key, _) = self.corrected_key()?;
        Some(
            self.corrected.of(&key).unwrap_or_else(|| {
                Err("the corrections of the truth are not applied yet".to_string())
            }),
        )
    }

    /// The warnings of the corrections applied (one per correction, first
    /// in the report's warnings, as `eval --corrections` puts them).
    pub(super) fn corrected_warnings(&self) -> Vec<String> {
        match self.corrected() {
            Some(Ok((_, warnings))) => warnings.to_vec(),
            _ => Vec::new(),
        }
    }

    /// The corrected truth file for a download: its name (the truth's,
    /// `.corrected` before the extension) and text, in the input's shape
    /// — the bytes `fieldscope correct` writes.
    pub fn corrected_truth_file(&self) -> Result<(String, String), String> {
        let (key, config) = self
            .corrected_key()
            .ok_or("there are no corrections of the truth to apply")?;
        let (bytes, _) = corrections::correct(&key, &config)?;
        let text = String::from_utf8(bytes).map_err(|e| e.to_string())?;
        Ok((corrections::corrected_name(key.name()), text))
    }
}

impl Layered for Session {
    fn layer(&mut self) -> &mut Map<String, Value> {
        &mut self.settings
    }

    fn config(&self) -> Result<Config, String> {
        Session::config(self)
    }
}
