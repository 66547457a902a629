//! SPEC §7.2: several schemas, each document evaluated with its own.
//!
//! Owns: [`Selector`] (how a document names its schema: `schema_by`),
//! [`OwnSchema`] (one schema as the evaluation reads it: its paths and
//! their kinds, its item fields, the comparison types it fixes),
//! [`Several`] (every schema and each truth document's choice). Used only
//! when more than one schema is given; with one or none nothing here runs,
//! so the dataset-wide field set of SPEC §1.2 and its speed stay as they
//! are. What needs the learned paths (reading the schemas into them, a
//! document's own field set) is the sibling `several_paths`. May depend on
//! `paths`, `compare`, `tree`; never on `fields`, the passes, the counts or
//! a validator.

use crate::error::{Error, ErrorKind};
use crate::eval::compare::{SchemaHint, ValueType};
use crate::eval::dataset::Truth;
use crate::eval::paths::{Kind, PathId};
use crate::eval::source::RecordSource;
use crate::eval::tree::Json;
use serde_json::Value;
use std::collections::HashMap;

/// One of several schemas (SPEC §7.2): its name (the file stem of its
/// file, [`schema_stem`]: what a document's selector names) and the
/// schema.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedSchema {
    pub name: String,
    pub schema: Value,
}

impl NamedSchema {
    pub fn new(name: impl Into<String>, schema: Value) -> Self {
        NamedSchema {
            name: name.into(),
            schema,
        }
    }
}

/// How a document picks its schema (config `schema_by`, SPEC §7.2): by
/// its id, or by the value of a top-level truth field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Selector {
    Id,
    Field(String),
}

impl Selector {
    /// `schema_by`'s value: `"id"` or a field name.
    pub(super) fn of(schema_by: &str) -> Selector {
        if schema_by == "id" {
            Selector::Id
        } else {
            Selector::Field(schema_by.to_string())
        }
    }

    /// The text a document's selector reads, given its truth record
    /// (`record`) and its id: the id itself, or the field's value — a
    /// string trimmed, a number or a boolean as its JSON text; `None` when
    /// the field is missing, `null`, an array or an object.
    pub(super) fn text(&self, record: Json<'_>, id: &str) -> Option<String> {
        match self {
            Selector::Id => Some(id.to_string()),
            Selector::Field(name) => {
                let v = record.get(name)?;
                if let Some(s) = v.as_str() {
                    Some(s.trim().to_string())
                } else if let Some(b) = v.as_bool() {
                    Some(b.to_string())
                } else {
                    v.as_number().map(|n| n.to_string())
                }
            }
        }
    }
}

/// The schema's name of a path: its file name without the last extension
/// (`schemas/inv_0042.json` → `inv_0042`, `x.schema.json` → `x.schema`,
/// `README` → `README`). What `--schema` files and the Python package's
/// paths are named by (SPEC §7.2's "file stem").
pub fn schema_stem(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    match base.rfind('.') {
        Some(i) if i > 0 => base[..i].to_string(),
        _ => base.to_string(),
    }
}

/// One of several schemas, as the evaluation reads it.
#[derive(Debug, Clone, Default)]
pub(super) struct OwnSchema {
    /// Its top-level paths (scalars, sets, item lists) with their kinds,
    /// sorted by path id.
    pub(super) top: Vec<(PathId, Kind)>,
    /// Its item fields per item list, sorted by list id, each sorted.
    pub(super) item_fields: Vec<(PathId, Vec<PathId>)>,
    /// Its type hints, sorted by path id.
    pub(super) hints: Vec<(PathId, SchemaHint)>,
    /// The comparison types its hints fix (SPEC §2.1, after `field_types`
    /// and the shorthands), sorted by path id.
    pub(super) types: Vec<(PathId, ValueType)>,
}

impl OwnSchema {
    /// The kind this schema gives `id`, if it lists it.
    #[inline]
    pub(super) fn kind(&self, id: PathId) -> Option<Kind> {
        self.top
            .binary_search_by_key(&id, |&(p, _)| p)
            .ok()
            .map(|i| self.top[i].1)
    }

    /// The comparison type this schema fixes for `id`, if it does.
    #[inline]
    pub(super) fn fixed_type(&self, id: PathId) -> Option<ValueType> {
        self.types
            .binary_search_by_key(&id, |&(p, _)| p)
            .ok()
            .map(|i| self.types[i].1)
    }

    /// Its item fields of list `list` (sorted by id).
    pub(super) fn item_fields_of(&self, list: PathId) -> &[PathId] {
        self.item_fields
            .binary_search_by_key(&list, |(l, _)| *l)
            .map_or(&[][..], |i| self.item_fields[i].1.as_slice())
    }

    /// Whether it lists `id` as an item field.
    pub(super) fn has_item_field(&self, id: PathId) -> bool {
        self.item_fields
            .iter()
            .any(|(_, f)| f.binary_search(&id).is_ok())
    }
}

/// Every schema of an evaluation with several, and each truth document's.
#[derive(Debug, Clone)]
pub(super) struct Several {
    pub(super) selector: Selector,
    /// The config's `schema_by`, as given (for the warning).
    pub(super) schema_by: String,
    pub(super) schemas: Vec<OwnSchema>,
    /// Each schema's index by name.
    pub(super) by_name: HashMap<String, u32>,
    /// Per truth document (in order): the index of its schema.
    pub(super) of_doc: Vec<Option<u32>>,
}

impl Several {
    /// The index of the schema a document (its truth record `record`, its
    /// id `id`) names.
    pub(super) fn choose(&self, record: Json<'_>, id: &str) -> Option<u32> {
        let text = self.selector.text(record, id)?;
        self.by_name.get(&text).copied()
    }

    /// SPEC §7.2's one warning: how many documents name no given schema,
    /// and the first five ids. `None` when every document names one.
    pub(super) fn warning(&self, ids: impl Iterator<Item = String>) -> Option<String> {
        let without: Vec<String> = ids
            .zip(&self.of_doc)
            .filter(|(_, s)| s.is_none())
            .map(|(id, _)| id)
            .collect();
        let n = without.len();
        if n == 0 {
            return None;
        }
        let shown: Vec<String> = without.iter().take(5).map(|id| format!("{id:?}")).collect();
        let (verb, which) = match n {
            1 => ("names no given schema and is", "its id:".to_string()),
            2..=5 => ("name no given schema and are", "their ids:".to_string()),
            _ => (
                "name no given schema and are",
                "the first five ids:".to_string(),
            ),
        };
        let s = if n == 1 { "" } else { "s" };
        Some(format!(
            "schema_by {:?}: {n} document{s} {verb} evaluated without a schema (kinds and types as without one, schema_valid as when no schema is given); {which} {}",
            self.schema_by,
            shown.join(", ")
        ))
    }
}

/// The index of the schema each truth document names by `schema_by`
/// (each record fetched once): for the validity computed apart.
pub(super) fn choose_all<S: RecordSource>(
    truth: &mut Truth<S>,
    schemas: &[NamedSchema],
    schema_by: &str,
) -> Result<Vec<Option<usize>>, Error> {
    let selector = Selector::of(schema_by);
    let by_name: HashMap<&str, usize> = schemas
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i))
        .collect();
    (0..truth.documents.len())
        .map(|d| {
            let root = truth.fetch(d)?;
            let text = selector.text(truth.source.forest().get(root), &truth.documents[d].id);
            Ok(text.and_then(|t| by_name.get(t.as_str()).copied()))
        })
        .collect()
}

/// Which schema each truth document names by `schema_by` (SPEC §7.2),
/// with its id, in the truth's order: an index into `schemas`, `None` when
/// it names none (evaluated without a schema). The documents are those of
/// the truth read with `id_field`, as the evaluation reads them; what the
/// app's file list counts per schema.
pub fn documents_by_schema<S: RecordSource>(
    truth: S,
    id_field: Option<&str>,
    schemas: &[NamedSchema],
    schema_by: &str,
) -> Result<Vec<(String, Option<usize>)>, Error> {
    let mut warnings = Vec::new();
    let mut truth = crate::eval::dataset::read_truth(truth, id_field, &mut warnings)?;
    let chosen = choose_all(&mut truth, schemas, schema_by)?;
    Ok(truth
        .documents
        .iter()
        .map(|d| d.id.clone())
        .zip(chosen)
        .collect())
}

/// Checks several named schemas (SPEC §7.2): more than one needs
/// `schema_by`, and each name is given once. The error says which rule
/// was broken.
pub(super) fn check_names(schemas: &[NamedSchema], schema_by: Option<&str>) -> Result<(), Error> {
    if schemas.len() > 1 && schema_by.is_none_or(|s| s.trim().is_empty()) {
        return Err(Error::new(
            ErrorKind::Usage,
            format!(
                "{} schemas are given but not how a document picks its own: set the config key schema_by (\"id\" or a top-level truth field naming each document's schema by its file stem, SPEC §7.2)",
                schemas.len()
            ),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for s in schemas {
        if !seen.insert(s.name.as_str()) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "two schemas are named {:?}; a schema is named by its file stem, so give each a distinct one",
                    s.name
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stem_drops_only_the_last_extension_and_the_folders() {
        assert_eq!(schema_stem("schemas/inv_0042.json"), "inv_0042");
        assert_eq!(schema_stem("x.schema.json"), "x.schema");
        assert_eq!(schema_stem("C:\\s\\a.json"), "a");
        assert_eq!(schema_stem("README"), "README");
        assert_eq!(schema_stem(".hidden"), ".hidden");
    }

    #[test]
    fn a_selector_reads_strings_trimmed_and_numbers_and_booleans_as_json_text() {
        let mut forest = crate::eval::tree::Forest::default();
        let record =
            serde_json::json!({"t": "  inv_1 ", "n": 42, "b": true, "z": null, "a": ["x"]});
        let root = forest.add_value(&record).unwrap();
        let rec = forest.get(root);
        let field = |k: &str| Selector::of(k).text(rec, "the id");
        assert_eq!(field("t").as_deref(), Some("inv_1"));
        assert_eq!(field("n").as_deref(), Some("42"));
        assert_eq!(field("b").as_deref(), Some("true"));
        assert_eq!(field("z"), None);
        assert_eq!(field("a"), None);
        assert_eq!(field("missing"), None);
        assert_eq!(field("id").as_deref(), Some("the id"));
    }
}
