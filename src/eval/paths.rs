//! Field paths (SPEC §1.2): flattening records, the kind of each path, and
//! what a JSON Schema says about paths.
//!
//! Owns: [`PathTable`] (interned path names), [`flatten`], [`Kind`] and
//! [`SchemaInfo`]. A scalar nested in objects is a scalar field
//! (`vendor.name`); an array of scalars is a set field; an array of objects
//! is an item list whose items' fields are `items[].price`. Pure; depends on
//! `serde_json`, `tree` and `compare`.

use crate::eval::compare::{Readings, SchemaHint, Side};
use crate::eval::confidence_input::BesideIndex;
use crate::eval::tree::{Json, JsonType};
use serde_json::Value;
use std::collections::HashMap;
use std::ops::Range;

/// An interned path name.
pub type PathId = usize;

/// One flattened value of a document or an item: its path, the value, and
/// what comparing it needs, computed once: the normalised text (SPEC §2.1,
/// a range of its document's text buffer) and its length in characters
/// when the value is present and compared as a scalar, and its reading as
/// a number and as a date when a comparison first asks.
#[derive(Debug, Clone)]
pub struct Leaf<'a> {
    pub path: PathId,
    pub value: Json<'a>,
    /// The value is present (SPEC §1.4).
    pub present: bool,
    /// The normalised text in the document's buffer, for present scalar
    /// values (`None` otherwise).
    pub norm: Option<Range<usize>>,
    /// Characters (Unicode scalar values) of the normalised text.
    pub chars: u32,
    /// The confidence the prediction carries for this value (SPEC §8.1),
    /// inline or beside the fields; `None` on the truth's side.
    pub confidence: Option<f64>,
    readings: Readings,
}

impl<'a> Leaf<'a> {
    pub fn new(path: PathId, value: Json<'a>, present: bool) -> Self {
        Leaf {
            path,
            value,
            present,
            norm: None,
            chars: 0,
            confidence: None,
            readings: Readings::default(),
        }
    }

    /// The leaf as one side of a comparison, when it is present and has a
    /// normalised text in `text` (its document's buffer).
    #[inline(always)]
    pub fn side<'s>(&'s self, text: &'s str) -> Option<Side<'s>> {
        let norm = self.norm.as_ref().filter(|_| self.present)?;
        Some(Side {
            value: self.value,
            norm: text.get(norm.clone())?,
            chars: self.chars as usize,
            readings: &self.readings,
        })
    }
}

/// The leaf at `path` among `leaves` (sorted by path, each path once). A
/// binary search written out, so that it is inlined even in the
/// size-optimised browser build: the comparisons look leaves up by path
/// for every field of every pair of documents and items.
#[inline(always)]
pub fn find_leaf<'l, 'a>(leaves: &'l [Leaf<'a>], path: PathId) -> Option<&'l Leaf<'a>> {
    let (mut low, mut high) = (0, leaves.len());
    while low < high {
        let mid = low + (high - low) / 2;
        let leaf = &leaves[mid];
        match leaf.path.cmp(&path) {
            std::cmp::Ordering::Less => low = mid + 1,
            std::cmp::Ordering::Greater => high = mid,
            std::cmp::Ordering::Equal => return Some(leaf),
        }
    }
    None
}

/// The kind of a path (SPEC §1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Scalar,
    Set,
    Items,
}

/// Interned path names, so documents store small ids instead of strings.
#[derive(Debug, Default, Clone)]
pub struct PathTable {
    names: Vec<String>,
    ids: HashMap<String, PathId, rustc_hash::FxBuildHasher>,
}

impl PathTable {
    pub fn id(&mut self, name: &str) -> PathId {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len();
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }

    pub fn get(&self, name: &str) -> Option<PathId> {
        self.ids.get(name).copied()
    }

    pub fn name(&self, id: PathId) -> &str {
        &self.names[id]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// `ignored_fields`: full paths that are not evaluated, with every path
/// beneath them (SPEC §1.2).
#[derive(Debug, Clone, Default)]
pub struct Ignored(Vec<String>);

impl Ignored {
    pub fn new(paths: &[String]) -> Self {
        Ignored(paths.to_vec())
    }

    /// Whether `path` is an ignored path or lies beneath one.
    pub fn covers(&self, path: &str) -> bool {
        self.0.iter().any(|ig| {
            path == ig
                || path
                    .strip_prefix(ig.as_str())
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with("[]"))
        })
    }
}

/// Where [`flatten`] finds path ids: a [`PathTable`] that adds new names,
/// or one that is only read (a name it lacks is skipped).
pub trait Interner {
    fn intern(&mut self, name: &str) -> Option<PathId>;
}

impl Interner for PathTable {
    fn intern(&mut self, name: &str) -> Option<PathId> {
        Some(self.id(name))
    }
}

impl Interner for &PathTable {
    fn intern(&mut self, name: &str) -> Option<PathId> {
        self.get(name)
    }
}

/// What [`flatten`] has learnt about the members of one forest: for each
/// path prefix (`""` for a record's top level, `vendor`, `items[]` …) and
/// each key (by the forest's key id), whether the member is skipped or
/// ignored, its path id when it is a leaf, and its prefix when it is an
/// object. So a path name is built and looked up once per forest, not
/// once per value. A cache serves one forest, one `skip` and one
/// [`Ignored`].
///
/// It also carries the forest's [`BesideIndex`] (the confidences beside
/// the fields, SPEC §8.1), whose answers per path are likewise worked out
/// once per forest.
#[derive(Debug, Default)]
pub struct PathCache {
    prefixes: Vec<(String, Vec<Slot>)>,
    by_name: HashMap<String, u32, rustc_hash::FxBuildHasher>,
    pub beside: BesideIndex,
}

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// Whether `skipped` has been decided.
    known: bool,
    skipped: bool,
    leaf: Option<PathId>,
    child: Option<u32>,
}

impl PathCache {
    /// The id of the prefix `name`.
    pub fn prefix(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.by_name.get(name) {
            return id;
        }
        let id = self.prefixes.len() as u32;
        self.prefixes.push((name.to_owned(), Vec::new()));
        self.by_name.insert(name.to_owned(), id);
        id
    }

    fn slot(&mut self, prefix: u32, key: u32) -> &mut Slot {
        let slots = &mut self.prefixes[prefix as usize].1;
        if slots.len() <= key as usize {
            slots.resize(key as usize + 1, Slot::default());
        }
        &mut slots[key as usize]
    }

    /// The path of `key` below `prefix`: `vendor` + `name` → `vendor.name`.
    fn path(&self, prefix: u32, key: &str) -> String {
        let base = &self.prefixes[prefix as usize].0;
        if base.is_empty() {
            key.to_owned()
        } else {
            format!("{base}.{key}")
        }
    }
}

/// The top-level members of a record that are not evaluated (SPEC §1.1,
/// §1.2). `keys` answers for the whole file (the id field, metadata): its
/// answer is cached per key in the [`PathCache`], so it must be the same
/// function for every record flattened with one cache. `record` is one
/// record's own: the key its fallback id came from, asked afresh for
/// every record (a cached answer would carry one record's fallback key
/// over to the next record, which may hold that key as a field).
#[derive(Clone, Copy)]
pub struct TopSkip<'s> {
    pub keys: &'s dyn Fn(&str) -> bool,
    pub record: Option<&'s str>,
}

/// One leaf as [`flatten`] finds it: its path, its value and the inline
/// confidence it carries (SPEC §8.1: its own wrapper's, else the nearest
/// enclosing wrapper's, else `inherited`).
pub type FlatLeaf<'a> = (PathId, Json<'a>, Option<f64>);

/// The leaves of an object: every value that is not an object, with its
/// dotted path (below `prefix`, see [`PathCache::prefix`]) interned in
/// `table`. Objects recurse; arrays are leaves (their kind is decided
/// later). Ignored paths are skipped, and so are the top-level members
/// that `skip` (given for a record's top level only) names. A confidence
/// wrapper (SPEC §8.1, [`Json::confidence_wrapper`]) stands for its
/// `_value`, and its confidence goes to every leaf beneath it; `inherited`
/// is the confidence of the wrapper around `fields`, if any.
#[allow(clippy::too_many_arguments)]
pub fn flatten<'a>(
    fields: Json<'a>,
    prefix: u32,
    cache: &mut PathCache,
    table: &mut impl Interner,
    ignored: &Ignored,
    skip: Option<TopSkip<'_>>,
    inherited: Option<f64>,
    out: &mut Vec<FlatLeaf<'a>>,
) {
    for (key_id, key, value) in fields.entries_with_key_ids() {
        if skip.is_some_and(|skip| skip.record == Some(key)) {
            continue;
        }
        let slot = *cache.slot(prefix, key_id);
        let skipped = if slot.known {
            slot.skipped
        } else {
            let skipped = skip.is_some_and(|skip| (skip.keys)(key))
                || ignored.covers(&cache.path(prefix, key));
            let slot = cache.slot(prefix, key_id);
            slot.known = true;
            slot.skipped = skipped;
            skipped
        };
        if skipped {
            continue;
        }
        // After the skip: a member left out (a record's confidences beside
        // its fields, SPEC §8.1) is never looked into.
        let (value, confidence) = unwrap_confidence(value, inherited);
        if value.is_object() {
            let child = match slot.child {
                Some(child) => child,
                None => {
                    let child = cache.prefix(&cache.path(prefix, key));
                    cache.slot(prefix, key_id).child = Some(child);
                    child
                }
            };
            flatten(value, child, cache, table, ignored, None, confidence, out);
        } else {
            let leaf = match slot.leaf {
                Some(leaf) => Some(leaf),
                None => {
                    let leaf = table.intern(&cache.path(prefix, key));
                    cache.slot(prefix, key_id).leaf = leaf;
                    leaf
                }
            };
            if let Some(id) = leaf {
                out.push((id, value, confidence));
            }
        }
    }
}

/// SPEC §8.1: the value `value` stands for (through nested confidence
/// wrappers) and the confidence it carries: the innermost wrapper's, else
/// `inherited`. A `_confidence` that is not a number is none (the dataset
/// pass refuses it before any flattening).
#[inline]
pub fn unwrap_confidence(mut value: Json<'_>, inherited: Option<f64>) -> (Json<'_>, Option<f64>) {
    let mut confidence = inherited;
    while let Some((inner, c)) = value.confidence_wrapper() {
        confidence = c.as_f64().or(confidence);
        value = inner;
    }
    (value, confidence)
}

/// The kind a present value suggests: an array of objects is an item list,
/// another non-empty array a set, a scalar a scalar. `null` and empty arrays
/// decide nothing.
pub fn kind_of_value(v: Json<'_>) -> Option<Kind> {
    match v.json_type() {
        JsonType::Null => None,
        JsonType::Array => match v.first() {
            None => None,
            Some(first) if first.is_object() => Some(Kind::Items),
            Some(_) => Some(Kind::Set),
        },
        _ => Some(Kind::Scalar),
    }
}

/// What a JSON Schema says about paths.
#[derive(Debug, Clone, Default)]
pub struct SchemaInfo {
    /// Leaf paths (scalars, sets, item lists) in schema order, with kinds.
    pub paths: Vec<(String, Kind)>,
    /// Item-field paths (`items[].price`) per item-list path.
    pub item_fields: HashMap<String, Vec<String>>,
    /// Type hints of scalar and item-field paths.
    pub hints: HashMap<String, SchemaHint>,
}

/// Walks a schema's `properties` (following local `$ref`s to
/// `#/definitions/…` or `#/$defs/…`). The id field and the metadata keys
/// at the top level, and ignored paths, are left out.
pub fn read_schema(
    schema: &Value,
    skip_top: &dyn Fn(&str) -> bool,
    ignored: &Ignored,
) -> SchemaInfo {
    let mut info = SchemaInfo::default();
    walk(schema, schema, "", None, skip_top, ignored, &mut info, 0);
    info
}

const MAX_SCHEMA_DEPTH: usize = 64;

fn resolve<'s>(root: &'s Value, node: &'s Value) -> &'s Value {
    let mut node = node;
    for _ in 0..16 {
        match node.get("$ref").and_then(Value::as_str) {
            Some(r) if r.starts_with('#') => match root.pointer(&r[1..]) {
                Some(target) => node = target,
                None => return node,
            },
            _ => return node,
        }
    }
    node
}

/// The first non-`null` type of a schema node, or what its keywords imply.
fn schema_type(node: &Value) -> Option<&str> {
    match node.get("type") {
        Some(Value::String(s)) => Some(s.as_str()),
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ if node.get("properties").is_some() => Some("object"),
        _ if node.get("items").is_some() => Some("array"),
        _ => None,
    }
}

fn hint_of(node: &Value) -> Option<SchemaHint> {
    if matches!(
        node.get("format").and_then(Value::as_str),
        Some("date" | "date-time")
    ) {
        return Some(SchemaHint::Date);
    }
    match schema_type(node) {
        Some("number" | "integer") => Some(SchemaHint::Number),
        Some("boolean") => Some(SchemaHint::Boolean),
        Some("string") => Some(SchemaHint::String),
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn walk(
    root: &Value,
    node: &Value,
    prefix: &str,
    item_list: Option<&str>,
    skip_top: &dyn Fn(&str) -> bool,
    ignored: &Ignored,
    info: &mut SchemaInfo,
    depth: usize,
) {
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    let node = resolve(root, node);
    let Some(Value::Object(props)) = node.get("properties") else {
        return;
    };
    for (key, sub) in props {
        if prefix.is_empty() && item_list.is_none() && skip_top(key) {
            continue;
        }
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        if ignored.covers(&path) {
            continue;
        }
        let sub = resolve(root, sub);
        match schema_type(sub) {
            Some("object") => walk(
                root,
                sub,
                &path,
                item_list,
                skip_top,
                ignored,
                info,
                depth + 1,
            ),
            Some("array") if item_list.is_none() => {
                let items = sub.get("items").map(|i| resolve(root, i));
                let of_objects = items.is_some_and(|i| schema_type(i) == Some("object"));
                if of_objects {
                    info.paths.push((path.clone(), Kind::Items));
                    info.item_fields.entry(path.clone()).or_default();
                    if let Some(items) = items {
                        walk(
                            root,
                            items,
                            &format!("{path}[]"),
                            Some(&path),
                            skip_top,
                            ignored,
                            info,
                            depth + 1,
                        );
                    }
                } else {
                    info.paths.push((path, Kind::Set));
                }
            }
            _ => {
                if let Some(h) = hint_of(sub) {
                    info.hints.insert(path.clone(), h);
                }
                match item_list {
                    Some(list) => info
                        .item_fields
                        .entry(list.to_string())
                        .or_default()
                        .push(path),
                    None => info.paths.push((path, Kind::Scalar)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tree::Forest;
    use serde_json::json;

    fn forest(v: &Value) -> (Forest, u32) {
        let mut f = Forest::default();
        let id = f.add_value(v).unwrap();
        (f, id)
    }

    #[test]
    fn flatten_nests_with_dots_and_stops_at_arrays() {
        let v = json!({"id": 7, "a": 1, "vendor": {"name": "x", "address": {"city": "y"}}, "codes": ["1"], "items": [{"p": 1}]});
        let (f, root) = forest(&v);
        let mut table = PathTable::default();
        let mut cache = PathCache::default();
        let top = cache.prefix("");
        let skip = |k: &str| k == "id";
        let ignored = Ignored::new(&["vendor.address".into()]);
        for _ in 0..2 {
            // The second time from the cache.
            let mut out = vec![];
            flatten(
                f.get(root),
                top,
                &mut cache,
                &mut table,
                &ignored,
                Some(TopSkip {
                    keys: &skip,
                    record: None,
                }),
                None,
                &mut out,
            );
            let names: Vec<&str> = out.iter().map(|(p, _, _)| table.name(*p)).collect();
            assert_eq!(names, ["a", "vendor.name", "codes", "items"]);
        }
        let items = cache.prefix("items[]");
        let element = f.get(root).get("items").and_then(|i| i.first()).unwrap();
        let mut out = vec![];
        flatten(
            element, items, &mut cache, &mut table, &ignored, None, None, &mut out,
        );
        assert_eq!(table.name(out[0].0), "items[].p");
        // A table that is only read skips names it lacks.
        let mut read_only = &table;
        let (g, other) = forest(&json!({"a": 2, "new": 3}));
        let mut cache = PathCache::default();
        let top = cache.prefix("");
        let mut more = vec![];
        flatten(
            g.get(other),
            top,
            &mut cache,
            &mut read_only,
            &ignored,
            None,
            None,
            &mut more,
        );
        assert_eq!(more.len(), 1);
    }

    /// SPEC §8.1: a wrapper stands for its `_value` (other `_` keys
    /// ignored), its confidence reaches every leaf beneath it, the
    /// innermost wrapper wins, and an object with another key is no
    /// wrapper.
    #[test]
    fn confidence_wrappers_stand_for_their_values() {
        let v = json!({
            "total": {"_value": "10.00", "_confidence": 0.9, "_bbox": [1, 2]},
            "vendor": {"_value": {"name": "x", "vat": {"_value": "y", "_confidence": 0.25}}, "_confidence": 0.5},
            "due": {"_value": null, "_confidence": 1},
            "plain": {"_value": 1, "_confidence": 0.3, "other": 2},
            "codes": {"_value": ["a"], "_confidence": 0}
        });
        let (f, root) = forest(&v);
        let mut table = PathTable::default();
        let mut cache = PathCache::default();
        let top = cache.prefix("");
        let mut out = vec![];
        let ignored = Ignored::new(&[]);
        flatten(
            f.get(root),
            top,
            &mut cache,
            &mut table,
            &ignored,
            None,
            Some(0.125),
            &mut out,
        );
        let got: Vec<(&str, Value, Option<f64>)> = out
            .iter()
            .map(|(p, v, c)| (table.name(*p), v.to_value(), *c))
            .collect();
        assert_eq!(
            got,
            [
                ("total", json!("10.00"), Some(0.9)),
                ("vendor.name", json!("x"), Some(0.5)),
                ("vendor.vat", json!("y"), Some(0.25)),
                ("due", json!(null), Some(1.0)),
                ("plain._value", json!(1), Some(0.125)),
                ("plain._confidence", json!(0.3), Some(0.125)),
                ("plain.other", json!(2), Some(0.125)),
                ("codes", json!(["a"]), Some(0.0)),
            ]
        );
        assert_eq!(
            f.get(root).to_value_without(&|k| k == "plain"),
            json!({"total": "10.00", "vendor": {"name": "x", "vat": "y"}, "due": null, "codes": ["a"]})
        );
    }

    #[test]
    fn ignored_fields_cover_paths_beneath() {
        let ig = Ignored::new(&["vendor.address".into(), "items[].sku".into()]);
        assert!(ig.covers("vendor.address"));
        assert!(ig.covers("vendor.address.city"));
        assert!(!ig.covers("vendor.addressee"));
        assert!(ig.covers("items[].sku"));
        assert!(!ig.covers("items[].price"));
        let ig = Ignored::new(&["items".into()]);
        assert!(ig.covers("items[].price"));
    }

    #[test]
    fn kinds_from_values() {
        let kind = |v: Value| {
            let (f, id) = forest(&v);
            kind_of_value(f.get(id))
        };
        assert_eq!(kind(json!(null)), None);
        assert_eq!(kind(json!([])), None);
        assert_eq!(kind(json!(["a"])), Some(Kind::Set));
        assert_eq!(kind(json!([{"a": 1}])), Some(Kind::Items));
        assert_eq!(kind(json!("x")), Some(Kind::Scalar));
        assert_eq!(kind(json!("")), Some(Kind::Scalar));
    }

    #[test]
    fn schema_paths_kinds_and_hints() {
        let schema = json!({
            "type": "object",
            "definitions": {"money": {"type": ["number", "null"]}},
            "properties": {
                "id": {"type": "string"},
                "cost": {"type": "number"},
                "date": {"type": "string", "format": "date"},
                "vendor": {"type": "object", "properties": {"name": {"type": "string"}}},
                "codes": {"type": "array", "items": {"type": "string"}},
                "total": {"$ref": "#/definitions/money"},
                "paid": {"type": "boolean"},
                "items": {"type": "array", "items": {"type": "object", "properties": {
                    "amount": {"$ref": "#/definitions/money"},
                    "product": {"type": "object", "properties": {"name": {"type": "string"}}}
                }}}
            }
        });
        let skip = |k: &str| k == "id" || k == "cost";
        let info = read_schema(&schema, &skip, &Ignored::default());
        let paths: Vec<(&str, Kind)> = info.paths.iter().map(|(p, k)| (p.as_str(), *k)).collect();
        assert_eq!(
            paths,
            [
                ("date", Kind::Scalar),
                ("vendor.name", Kind::Scalar),
                ("codes", Kind::Set),
                ("total", Kind::Scalar),
                ("paid", Kind::Scalar),
                ("items", Kind::Items),
            ]
        );
        assert_eq!(
            info.item_fields["items"],
            ["items[].amount", "items[].product.name"]
        );
        assert_eq!(info.hints["date"], SchemaHint::Date);
        assert_eq!(info.hints["total"], SchemaHint::Number);
        assert_eq!(info.hints["items[].amount"], SchemaHint::Number);
        assert_eq!(info.hints["paid"], SchemaHint::Boolean);
    }
}
