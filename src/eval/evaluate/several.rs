//! SPEC §7.2: several schemas, each document evaluated with its own.
//!
//! Owns: [`Selector`] (how a document names its schema: `schema_by`),
//! [`OwnSchema`] (one schema as the evaluation reads it: its paths and
//! their kinds, its item fields, the comparison types it fixes),
//! [`Several`] (every schema and each truth document's choice) and
//! [`own_field_set`] (a document's own field set for one model: the
//! properties of its schema plus the paths present in its truth or in the
//! model's prediction for it). Used only when more than one schema is
//! given; with one or none nothing here runs, so the dataset-wide field
//! set of SPEC §1.2 and its speed stay as they are. May depend on the
//! sibling `fields` (paths, flattened documents), `paths`, `compare`,
//! `tree`; never on the passes, the counts or a validator.

use super::fields::{FieldSet, FlatDoc, Paths};
use super::NamedSchema;
use crate::error::{Error, ErrorKind};
use crate::eval::compare::{Comparer, SchemaHint, ValueType};
use crate::eval::dataset::Truth;
use crate::eval::paths::{Kind, PathId, SchemaInfo};
use crate::eval::source::RecordSource;
use crate::eval::tree::Json;
use std::collections::HashMap;

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
    fn item_fields_of(&self, list: PathId) -> &[PathId] {
        self.item_fields
            .binary_search_by_key(&list, |(l, _)| *l)
            .map_or(&[][..], |i| self.item_fields[i].1.as_slice())
    }

    /// Whether it lists `id` as an item field.
    fn has_item_field(&self, id: PathId) -> bool {
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

/// Reads each schema into `paths`: its paths interned, its kinds, item
/// fields and hints kept apart (never the dataset's: a schema decides for
/// its own documents only), and what every schema together says noted on
/// each path (an item list in some schema, a type in some schema).
/// `infos` are what `read_schema` read of each of `schemas`.
pub(super) fn read_schemas(
    paths: &mut Paths,
    schemas: &[NamedSchema],
    infos: Vec<SchemaInfo>,
    schema_by: &str,
    documents: usize,
) -> Several {
    let mut own = Vec::with_capacity(schemas.len());
    for info in infos {
        let mut s = OwnSchema::default();
        for (name, kind) in &info.paths {
            let id = paths.table.id(name);
            paths.info_mut(id);
            s.top.push((id, *kind));
            if *kind == Kind::Items {
                paths.info_mut(id).items_in_a_schema = true;
            }
        }
        for (list, fields) in &info.item_fields {
            let list_id = paths.table.id(list);
            let mut ids = Vec::with_capacity(fields.len());
            for f in fields {
                let id = paths.table.id(f);
                paths.info_mut(id).list = Some(list_id);
                ids.push(id);
            }
            ids.sort_unstable();
            ids.dedup();
            s.item_fields.push((list_id, ids));
        }
        for (name, hint) in &info.hints {
            let id = paths.table.id(name);
            paths.info_mut(id).typed_in_a_schema = true;
            s.hints.push((id, *hint));
        }
        s.top.sort_by_key(|&(p, _)| p);
        s.top.dedup_by_key(|&mut (p, _)| p);
        s.item_fields.sort_by_key(|(l, _)| *l);
        s.hints.sort_by_key(|&(p, _)| p);
        s.hints.dedup_by_key(|&mut (p, _)| p);
        own.push(s);
    }
    let by_name = schemas
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.clone(), i as u32))
        .collect();
    Several {
        selector: Selector::of(schema_by),
        schema_by: schema_by.to_string(),
        schemas: own,
        by_name,
        of_doc: vec![None; documents],
    }
}

/// Once the dataset's types are fixed: the comparison type each schema's
/// hints fix ([`Comparer::fixed_type`] with the hint).
pub(super) fn fix_schema_types(several: &mut Several, paths: &Paths, comparer: &Comparer<'_>) {
    for s in &mut several.schemas {
        s.types = s
            .hints
            .iter()
            .filter_map(|&(id, hint)| {
                comparer
                    .fixed_type(paths.table.name(id), Some(hint))
                    .map(|ty| (id, ty))
            })
            .collect();
    }
}

/// A document's own field set for one model (SPEC §7.2) into `out`: the
/// top-level paths of its schema `own` and those present (a key, even
/// `null`) in its truth `truth` or the model's prediction `pred`, in path
/// order; for each item list among them (a list by the document's kinds),
/// the item fields of its schema and those present in an item of either
/// side. As for the dataset's field set (SPEC §1.2), a path that only
/// holds other paths and never a present value is left out unless the
/// schema lists it.
pub(super) fn own_field_set(
    paths: &Paths,
    own: Option<&OwnSchema>,
    truth: &FlatDoc<'_>,
    pred: &FlatDoc<'_>,
    out: &mut FieldSet,
) {
    out.top.clear();
    out.item_fields.clear();
    if let Some(s) = own {
        out.top.extend(s.top.iter().map(|&(p, _)| p));
    }
    out.top.extend(truth.leaves.iter().map(|l| l.path));
    out.top.extend(pred.leaves.iter().map(|l| l.path));
    out.top.sort_unstable();
    out.top.dedup();
    out.top.retain(|&id| {
        let info = &paths.info[id];
        info.list.is_none()
            && !(info.has_children && !info.any_present && own.is_none_or(|s| s.kind(id).is_none()))
    });
    for &list in &out.top {
        if paths.kind_in(own, list) != Kind::Items {
            continue;
        }
        let mut fields: Vec<PathId> = own.map_or(Vec::new(), |s| s.item_fields_of(list).to_vec());
        for doc in [truth, pred] {
            fields.extend(
                doc.lists
                    .iter()
                    .filter(|(l, _)| *l == list)
                    .flat_map(|(_, r)| doc.items[r.clone()].iter())
                    .flat_map(|(r, _)| doc.item_leaves[r.clone()].iter().map(|l| l.path)),
            );
        }
        fields.sort_unstable();
        fields.dedup();
        fields.retain(|&id| {
            let info = &paths.info[id];
            !(info.has_children && !info.any_present && own.is_none_or(|s| !s.has_item_field(id)))
        });
        out.item_fields.push((list, fields));
    }
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
