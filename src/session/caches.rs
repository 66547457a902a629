//! What the session keeps between evaluations: the [`Prepared`]
//! evaluation of the files ([`PreparedCache`], [`Kept`]) and the stored
//! schema validity ([`StoredValidity`]), each with the key that says what
//! it is of ([`PreparedKey`], [`ValidityKey`]).
//!
//! Owns: the keys and the cache cells. May depend on `eval`; never runs an
//! evaluation or a validation itself.

use super::*;

/// What a [`Prepared`] is of besides the settings it checks itself
/// (`Prepared::fits`): the files and the model names.
#[derive(Debug, Clone)]
pub(super) struct PreparedKey {
    pub(super) files: ValidityKey,
    pub(super) models: Vec<String>,
    /// The corrections of the truth applied (SPEC §9.3).
    pub(super) corrections: Vec<crate::eval::corrections::Correction>,
}

impl PreparedKey {
    pub(super) fn same(&self, other: &PreparedKey) -> bool {
        self.files.same(&other.files)
            && self.models == other.models
            && self.corrections == other.corrections
    }
}

/// The session's [`Prepared`] evaluation and what it is of: a cache, so a
/// clone of the session starts without it. An [`Evaluation`] takes it out
/// while it runs, and [`Session::keep`] puts it back if it is still of the
/// session's files.
#[derive(Default)]
pub(super) struct PreparedCache(pub(super) Option<(PreparedKey, Prepared)>);

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
pub struct Kept(pub(super) PreparedKey, pub(super) Prepared);

/// What [`Session::store_validity`] keeps.
pub(super) type StoredValidity = Option<(ValidityKey, Result<SchemaValidity, String>)>;

/// What the schema validity of an evaluation depends on: every file (the
/// same bytes, by identity — they are never changed in place —, name and
/// role, which decide how the bytes parse, and whether they parsed, which
/// decides which files are evaluated) and the id field. A file waiting to
/// be parsed counts as parsed: the worker's answer for a drop is then
/// kept once every file has parsed.
#[derive(Debug, Clone)]
pub(super) struct ValidityKey {
    /// Bytes, name, role, and whether it parsed (or waits to be parsed).
    files: Vec<(Arc<Vec<u8>>, String, Role, bool)>,
    id_field: Option<String>,
    /// How a document names its schema among several (SPEC §7.2).
    schema_by: Option<String>,
}

impl ValidityKey {
    pub(super) fn new(files: &[LoadedFile], config: &Config) -> Self {
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

    pub(super) fn same(&self, other: &ValidityKey) -> bool {
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
