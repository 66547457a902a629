//! SPEC §7.2 over the learned paths: each schema read into the dataset's
//! [`Paths`] ([`read_schemas`]), the comparison types the schemas fix
//! ([`fix_schema_types`]) and a document's own field set for one model
//! ([`own_field_set`]: the properties of its schema plus the paths present
//! in its truth or in the model's prediction for it).
//!
//! May depend on the siblings `fields` (paths, flattened documents) and
//! `several` (the schemas' data); never on the passes or the counts.

use super::fields::{FieldSet, FlatDoc, Paths};
use super::several::{NamedSchema, OwnSchema, Selector, Several};
use crate::eval::compare::Comparer;
use crate::eval::paths::{Kind, PathId, SchemaInfo};

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
