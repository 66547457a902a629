//! The files a user loaded (SPEC §1.1's inputs, as the app holds them):
//! their roles and how a role is guessed from a name and the bytes, the
//! parsed form of each, and the parse job the worker runs per file.
//!
//! Owns: how a [`Role`] (the protocol's) is guessed, [`Parsed`], [`LoadedFile`], [`ParseJob`]/[`ParsedFile`]
//! and the sniffing helpers. May depend on `io`, `eval`; never on the
//! settings, the caches or the evaluation.

use super::*;
pub use crate::protocol::Role;

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
    pub(super) fn reparse_as(&mut self, role: Role) {
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
pub(super) fn looks_like_schema(v: &Value) -> bool {
    v.get("$schema").is_some()
        || (v.get("properties").is_some_and(Value::is_object) && v.get("type").is_some())
}

/// Whether a JSON document looks like a metrics config: an object whose keys
/// are all config keys.
pub(super) fn looks_like_config(v: &Value) -> bool {
    let defaults = crate::eval::config::default_json();
    match (v, defaults) {
        (Value::Object(m), Value::Object(d)) => {
            !m.is_empty() && m.keys().all(|k| d.contains_key(k))
        }
        _ => false,
    }
}

/// Whether `haystack` contains `needle` (a cheap test before parsing).
pub(super) fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// Whether a `.json` file is worth parsing to see if it is a schema or a
/// config: one object of at most 4 MB (schemas and configs are small; a
/// large records file is not parsed twice).
pub(super) fn may_be_schema_or_config(bytes: &[u8]) -> bool {
    pub(super) const SNIFF_LIMIT: usize = 4 << 20;
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
    pub(super) id: u32,
    pub(super) name: String,
    pub(super) role: Role,
    pub(super) bytes: Arc<Vec<u8>>,
}

/// What a [`ParseJob`] read, to be kept by [`Session::store_parsed`].
pub struct ParsedFile {
    pub(super) job: ParseJob,
    pub(super) parsed: Result<Parsed, Error>,
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

pub(super) fn parse_as(name: &str, bytes: &[u8], role: Role) -> Result<Parsed, Error> {
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
