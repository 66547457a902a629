//! Field paths (SPEC §1.2): flattening records, the kind of each path, and
//! what a JSON Schema says about paths.
//!
//! Owns: [`PathTable`] (interned path names), [`flatten`], [`Kind`] and
//! [`SchemaInfo`]. A scalar nested in objects is a scalar field
//! (`vendor.name`); an array of scalars is a set field; an array of objects
//! is an item list whose items' fields are `items[].price`. Pure; depends on
//! `serde_json` and `compare::SchemaHint`.

use crate::eval::compare::SchemaHint;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// An interned path name.
pub type PathId = usize;

/// One flattened value of a document or an item: its path, the value, and
/// the normalised text (SPEC §2.1) when the value is present and compared
/// as a scalar.
#[derive(Debug, Clone)]
pub struct Leaf<'a> {
    pub path: PathId,
    pub value: &'a Value,
    /// The value is present (SPEC §1.4).
    pub present: bool,
    /// The normalised text, for present scalar values.
    pub norm: Option<String>,
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
    ids: HashMap<String, PathId>,
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

/// The leaves of an object: every value that is not an object, with its
/// dotted path (below the prefix already in `path`) interned in `table`.
/// Objects recurse; arrays are leaves (their kind is decided later).
/// Ignored paths are skipped. `path` is a reusable buffer and is left as
/// it was found.
pub fn flatten<'a>(
    fields: &'a Map<String, Value>,
    path: &mut String,
    table: &mut PathTable,
    ignored: &Ignored,
    out: &mut Vec<(PathId, &'a Value)>,
) {
    for (key, value) in fields {
        let len = path.len();
        if len > 0 {
            path.push('.');
        }
        path.push_str(key);
        if !ignored.covers(path) {
            match value {
                Value::Object(inner) => flatten(inner, path, table, ignored, out),
                _ => out.push((table.id(path), value)),
            }
        }
        path.truncate(len);
    }
}

/// The kind a present value suggests: an array of objects is an item list,
/// another non-empty array a set, a scalar a scalar. `null` and empty arrays
/// decide nothing.
pub fn kind_of_value(v: &Value) -> Option<Kind> {
    match v {
        Value::Null => None,
        Value::Array(a) => match a.first() {
            None => None,
            Some(Value::Object(_)) => Some(Kind::Items),
            Some(_) => Some(Kind::Set),
        },
        _ => Some(Kind::Scalar),
    }
}

/// The name of an item field: `items` + `price` → `items[].price`.
pub fn item_path(list: &str, sub: &str) -> String {
    format!("{list}[].{sub}")
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
    use serde_json::json;

    #[test]
    fn flatten_nests_with_dots_and_stops_at_arrays() {
        let v = json!({"a": 1, "vendor": {"name": "x", "address": {"city": "y"}}, "codes": ["1"], "items": [{"p": 1}]});
        let mut out = vec![];
        let mut table = PathTable::default();
        let mut buf = String::new();
        flatten(
            v.as_object().unwrap(),
            &mut buf,
            &mut table,
            &Ignored::default(),
            &mut out,
        );
        assert!(buf.is_empty());
        let names: Vec<&str> = out.iter().map(|(p, _)| table.name(*p)).collect();
        assert_eq!(
            names,
            ["a", "vendor.name", "vendor.address.city", "codes", "items"]
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
        assert_eq!(kind_of_value(&json!(null)), None);
        assert_eq!(kind_of_value(&json!([])), None);
        assert_eq!(kind_of_value(&json!(["a"])), Some(Kind::Set));
        assert_eq!(kind_of_value(&json!([{"a": 1}])), Some(Kind::Items));
        assert_eq!(kind_of_value(&json!("x")), Some(Kind::Scalar));
        assert_eq!(kind_of_value(&json!("")), Some(Kind::Scalar));
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
