//! What is learnt of the paths and how a document is laid out for
//! comparison (SPEC §1.2).
//!
//! Owns: [`Paths`] (every path's kind, schema hint, fixed comparison type,
//! where it was seen, its §7.4 tally; learnt in the parent's passes),
//! [`FlatDoc`] (one document flattened into reused buffers, its present
//! values normalised) and [`FieldSet`] (the fields one model is evaluated
//! on). May depend on `paths`, `compare`, `items`, `suggest`, `tree`,
//! `dataset`'s id scheme; never on the passes, the counts or a report.

use super::several::{OwnSchema, Several};
use crate::eval::compare::{Comparer, SchemaHint, Side, ValueType};
use crate::eval::dataset::IdScheme;
use crate::eval::items::{sort_fields, Item};
use crate::eval::paths::{
    find_leaf, flatten, kind_of_value, unwrap_confidence, FlatLeaf, Ignored, Kind, Leaf, PathCache,
    PathId, PathTable, SchemaInfo, TopSkip,
};
use crate::eval::report::Suggestion;
use crate::eval::suggest::{suggest, PathTally};
use crate::eval::tree::{Forest, Json, JsonType, NodeId};
use std::ops::Range;

/// One document flattened for comparison: its leaves sorted by path, its
/// item lists, and the normalised texts of both. Reused from document to
/// document (cleared, never freed).
#[derive(Debug, Default)]
pub(super) struct FlatDoc<'a> {
    pub(super) leaves: Vec<Leaf<'a>>,
    /// Item lists: list path and range in `items`.
    pub(super) lists: Vec<(PathId, Range<usize>)>,
    /// Items: range in `item_leaves` and number of present fields.
    pub(super) items: Vec<(Range<usize>, usize)>,
    pub(super) item_leaves: Vec<Leaf<'a>>,
    /// How each item leaf is compared when it is the truth side.
    pub(super) item_types: Vec<ValueType>,
    /// Normalised texts of the leaves.
    pub(super) text: String,
    /// Scratch space for flattening.
    pub(super) path: String,
    pub(super) raw: Vec<FlatLeaf<'a>>,
    pub(super) fields: Vec<Leaf<'a>>,
}

impl<'a> FlatDoc<'a> {
    /// The same buffers, emptied, for values of another lifetime (a
    /// record read from a file lives until the next is read). Keeps every
    /// allocation: a `Vec` collected in place from its own emptied
    /// iterator reuses its memory when the element layouts agree.
    pub(super) fn recycle<'b>(self) -> FlatDoc<'b> {
        fn empty<T, U>(mut v: Vec<T>) -> Vec<U> {
            v.clear();
            v.into_iter().filter_map(|_| None).collect()
        }
        let FlatDoc {
            leaves,
            mut lists,
            mut items,
            item_leaves,
            mut item_types,
            mut text,
            mut path,
            raw,
            fields,
        } = self;
        lists.clear();
        items.clear();
        item_types.clear();
        text.clear();
        path.clear();
        FlatDoc {
            leaves: empty(leaves),
            lists,
            items,
            item_leaves: empty(item_leaves),
            item_types,
            text,
            path,
            raw: empty(raw),
            fields: empty(fields),
        }
    }

    pub(super) fn clear(&mut self) {
        self.leaves.clear();
        self.lists.clear();
        self.items.clear();
        self.item_leaves.clear();
        self.item_types.clear();
        self.text.clear();
        self.path.clear();
        self.raw.clear();
        self.fields.clear();
    }

    #[inline(always)]
    pub(super) fn get(&self, path: PathId) -> Option<&Leaf<'a>> {
        find_leaf(&self.leaves, path)
    }

    /// The items of list `list` (none when the document has no such list);
    /// `sides` are [`Self::item_sides`].
    pub(super) fn items<'s>(
        &'s self,
        list: PathId,
        sides: &'s [Option<Side<'s>>],
    ) -> impl ExactSizeIterator<Item = Item<'s, 'a>> + 's {
        let range = self
            .lists
            .iter()
            .find(|(p, _)| *p == list)
            .map_or(0..0, |(_, r)| r.clone());
        self.items[range].iter().map(move |(r, present)| Item {
            fields: &self.item_leaves[r.clone()],
            sides: sides.get(r.clone()).unwrap_or_default(),
            types: &self.item_types[r.clone()],
            present: *present,
            text: &self.text,
        })
    }

    /// Every item leaf as a side of a comparison (`None` when absent).
    pub(super) fn item_sides(&self) -> Vec<Option<Side<'_>>> {
        self.item_leaves
            .iter()
            .map(|l| l.side(&self.text))
            .collect()
    }
}

/// What is known about one path across the whole dataset.
#[derive(Debug, Clone, Default)]
pub(super) struct PathInfo {
    pub(super) kind: Option<Kind>,
    pub(super) hint: Option<SchemaHint>,
    /// The comparison type when it does not depend on the truth value.
    pub(super) fixed_type: Option<ValueType>,
    pub(super) in_schema: bool,
    pub(super) in_truth: bool,
    /// Seen in each model's predictions.
    pub(super) in_model: Vec<bool>,
    /// A present value was seen somewhere.
    pub(super) any_present: bool,
    /// The path of the item list this item field belongs to.
    pub(super) list: Option<PathId>,
    /// Some other path lies beneath this one.
    pub(super) has_children: bool,
    /// The present truth values seen here (SPEC §7.4's suggestions).
    pub(super) tally: PathTally,
    /// With several schemas (SPEC §7.2), which leave `kind` and `hint` to
    /// the data: some schema makes it an item list (its item fields are
    /// learnt), some schema gives it a type (no suggestion for it).
    pub(super) items_in_a_schema: bool,
    pub(super) typed_in_a_schema: bool,
}

/// The paths, their kinds and what was seen where. Built in passes:
/// schema, truth, every prediction file (SPEC §1.2: the schema decides a
/// path's kind, else the truth's present values, else all predictions
/// together); then item fields, once kinds are final.
pub(super) struct Paths {
    pub(super) table: PathTable,
    pub(super) info: Vec<PathInfo>,
    pub(super) models: usize,
    pub(super) ignored: Ignored,
    pub(super) scheme: IdScheme,
    /// Reusable buffers.
    pub(super) buf: String,
    pub(super) raw: Vec<(PathId, NodeId)>,
    /// Several schemas (SPEC §7.2): each document's own. `None` with one
    /// schema or none: then every kind and type is the dataset's.
    pub(super) several: Option<Box<Several>>,
}

impl Paths {
    pub(super) fn info_mut(&mut self, id: PathId) -> &mut PathInfo {
        if self.info.len() <= id {
            let models = self.models;
            self.info.resize_with(id + 1, || PathInfo {
                in_model: vec![false; models],
                ..PathInfo::default()
            });
        }
        &mut self.info[id]
    }

    pub(super) fn kind(&self, id: PathId) -> Kind {
        self.info[id].kind.unwrap_or(Kind::Scalar)
    }

    /// The schema of truth document `d` when each document has its own
    /// (SPEC §7.2); `None` with one schema or none, or when `d` names no
    /// given schema.
    #[inline]
    pub(super) fn own(&self, d: usize) -> Option<&OwnSchema> {
        let several = self.several.as_deref()?;
        let s = (*several.of_doc.get(d)?)?;
        several.schemas.get(s as usize)
    }

    /// The index among several schemas of document `d`'s (see [`Self::own`]).
    #[inline]
    pub(super) fn own_index(&self, d: usize) -> Option<usize> {
        let several = self.several.as_deref()?;
        several.of_doc.get(d).copied().flatten().map(|s| s as usize)
    }

    /// The kind of `id` in a document whose own schema is `own` (SPEC
    /// §7.2: its schema's, else what the data say); [`Self::kind`] when
    /// `own` is `None`.
    #[inline]
    pub(super) fn kind_in(&self, own: Option<&OwnSchema>, id: PathId) -> Kind {
        match own.and_then(|s| s.kind(id)) {
            Some(kind) => kind,
            None => self.kind(id),
        }
    }

    pub(super) fn note(
        &mut self,
        id: PathId,
        source: Option<usize>,
        present: bool,
    ) -> &mut PathInfo {
        let info = self.info_mut(id);
        match source {
            None => info.in_truth = true,
            Some(m) => info.in_model[m] = true,
        }
        info.any_present |= present;
        info
    }

    /// First pass over a record: notes its top-level paths, their presence
    /// and, for a present value, the kind it suggests when none is known
    /// yet. `source` is `None` for the truth, `Some(m)` for model `m`.
    /// Adds to `lists` the record's arrays holding an object (sorted by
    /// path, each path once), tagged with `doc`: the item lists, once
    /// kinds are final.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn note_top(
        &mut self,
        comparer: &Comparer<'_>,
        forest: &Forest,
        root: NodeId,
        source: Option<usize>,
        cache: &mut PathCache,
        lists: &mut Vec<(usize, PathId, NodeId)>,
        extra_skip: Option<&str>,
        doc: usize,
    ) {
        let mut out = Vec::new();
        let scheme = &self.scheme;
        let keys = |k: &str| !scheme.is_evaluated(k);
        let skip = TopSkip {
            keys: &keys,
            record: extra_skip,
        };
        let top = cache.prefix("");
        flatten(
            forest.get(root),
            top,
            cache,
            &mut self.table,
            &self.ignored,
            Some(skip),
            None,
            &mut out,
        );
        // Noted in flattening order, as kinds are first come, first served.
        let date_order = comparer.config.date_order;
        for &(id, value, _) in &out {
            let present = !comparer.is_absent_json(Some(value));
            let info = self.note(id, source, present);
            if info.kind.is_none() && present {
                info.kind = kind_of_value(value);
            }
            if present && source.is_none() {
                info.tally.add_value(value, date_order);
            }
        }
        self.raw.clear();
        self.raw.extend(out.iter().map(|&(p, v, _)| (p, v.id())));
        self.raw.sort_by_key(|&(p, _)| p);
        self.raw.dedup_by_key(|&mut (p, _)| p);
        lists.extend(
            self.raw
                .iter()
                .filter(|&&(_, v)| forest.get(v).elements().any(Json::is_object))
                .map(|&(p, v)| (doc, p, v)),
        );
    }

    /// Second pass, once kinds are final: notes the item fields of the
    /// item lists among `lists` (from [`Self::note_top`], one document's,
    /// read again into `forest` with the same node ids).
    pub(super) fn note_items(
        &mut self,
        comparer: &Comparer<'_>,
        forest: &Forest,
        lists: &[(usize, PathId, NodeId)],
        source: Option<usize>,
        cache: &mut PathCache,
    ) {
        let mut out = Vec::new();
        for &(_, list, value) in lists {
            let info = &self.info[list];
            if info.kind != Some(Kind::Items) && !info.items_in_a_schema {
                continue;
            }
            let mut buf = std::mem::take(&mut self.buf);
            buf.clear();
            buf.push_str(self.table.name(list));
            buf.push_str("[]");
            let prefix = cache.prefix(&buf);
            for element in forest.get(value).elements() {
                out.clear();
                let (element, _) = unwrap_confidence(element, None);
                if element.is_object() {
                    flatten(
                        element,
                        prefix,
                        cache,
                        &mut self.table,
                        &self.ignored,
                        None,
                        None,
                        &mut out,
                    );
                }
                for &(id, v, _) in &out {
                    let present = !comparer.is_absent_json(Some(v));
                    let info = self.note(id, source, present);
                    info.list = Some(list);
                    if present && source.is_none() {
                        info.tally.add_value(v, comparer.config.date_order);
                    }
                }
            }
            buf.clear();
            self.buf = buf;
        }
    }

    /// Marks paths that have other paths beneath them.
    pub(super) fn mark_parents(&mut self) {
        let n = self.table.len();
        if n > 0 {
            self.info_mut(n - 1);
        }
        for id in 0..n {
            let name = self.table.name(id);
            let parents: Vec<PathId> = name
                .char_indices()
                .filter(|&(i, c)| c == '.' || name[i..].starts_with("[]"))
                .filter_map(|(i, _)| self.table.get(&name[..i]))
                .collect();
            for parent in parents {
                self.info[parent].has_children = true;
            }
        }
    }

    /// Empty paths of the same dataset (models, ignored paths, id scheme)
    /// for one share of a pass on several threads (sibling
    /// `learn_threads`), to be added back with [`Self::then`].
    pub(super) fn share(&self) -> Paths {
        Paths {
            table: PathTable::default(),
            info: Vec::new(),
            models: self.models,
            ignored: self.ignored.clone(),
            scheme: self.scheme.clone(),
            buf: String::new(),
            raw: Vec::new(),
            several: None,
        }
    }

    /// [`Self::share`] that knows every path and its final kind (and
    /// nothing else), for the item-fields pass.
    pub(super) fn share_with_kinds(&self) -> Paths {
        let mut share = self.share();
        share.table = self.table.clone();
        share.info = self
            .info
            .iter()
            .map(|info| PathInfo {
                kind: info.kind,
                items_in_a_schema: info.items_in_a_schema,
                in_model: vec![false; self.models],
                ..PathInfo::default()
            })
            .collect();
        share
    }

    /// Adds what `later` (a [`Self::share`]) learnt after what these
    /// paths learnt, as if one pass had seen both in order: `later`'s
    /// paths in the order it first saw them (new ones get the next ids),
    /// a kind only where none is known yet, presence or'ed, tallies by
    /// [`PathTally::then`]. Returns each of `later`'s path ids' id here.
    pub(super) fn then(&mut self, later: Paths) -> Vec<PathId> {
        let ids: Vec<PathId> = (0..later.table.len())
            .map(|id| self.table.id(later.table.name(id)))
            .collect();
        for (id, info) in later.info.into_iter().enumerate() {
            let here = self.info_mut(ids[id]);
            here.in_truth |= info.in_truth;
            for (a, b) in here.in_model.iter_mut().zip(&info.in_model) {
                *a |= *b;
            }
            here.any_present |= info.any_present;
            if here.kind.is_none() {
                here.kind = info.kind;
            }
            if let Some(list) = info.list {
                here.list = Some(ids[list]);
            }
            here.tally = here.tally.then(info.tally);
        }
        ids
    }

    /// Decides the comparison type of paths whose type does not depend on
    /// their values.
    pub(super) fn fix_types(&mut self, comparer: &Comparer<'_>) {
        for id in 0..self.info.len() {
            let ty = comparer.fixed_type(self.table.name(id), self.info[id].hint);
            self.info[id].fixed_type = ty;
        }
    }

    /// SPEC §7.4: the suggestions for the scalar and item fields compared
    /// as strings (no `field_types`, no schema type, no shorthand).
    pub(super) fn suggestions(&self) -> Vec<Suggestion> {
        suggest(self.info.iter().enumerate().filter_map(|(id, info)| {
            let scalar = info.list.is_some() || self.kind(id) == Kind::Scalar;
            let typed = info.fixed_type.is_some() || info.hint.is_some() || info.typed_in_a_schema;
            (scalar && !typed).then(|| (self.table.name(id), info.tally))
        }))
    }

    /// The comparison type of a path given its truth value.
    pub(super) fn value_type(&self, id: PathId, truth: Option<Json<'_>>) -> ValueType {
        self.info[id]
            .fixed_type
            .unwrap_or_else(|| Comparer::type_of_truth(truth.map(Json::json_type)))
    }

    /// [`Self::value_type`] in a document whose own schema is `own` (SPEC
    /// §7.2: the type its schema fixes, else the dataset's rule).
    #[inline]
    pub(super) fn value_type_in(
        &self,
        own: Option<&OwnSchema>,
        id: PathId,
        truth: Option<Json<'_>>,
    ) -> ValueType {
        match own.and_then(|s| s.fixed_type(id)) {
            Some(ty) => ty,
            None => self.value_type(id, truth),
        }
    }

    /// Flattens one record (kinds must be final) into `doc`: its leaves,
    /// normalised texts of present scalars, and items; kinds and types
    /// those of a document whose own schema is `own` (SPEC §7.2; `None`:
    /// the dataset's).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn flatten_doc<'a>(
        &self,
        comparer: &Comparer<'_>,
        forest: &'a Forest,
        root: NodeId,
        doc: &mut FlatDoc<'a>,
        cache: &mut PathCache,
        extra_skip: Option<&str>,
        own: Option<&OwnSchema>,
    ) {
        doc.clear();
        let mut buf = std::mem::take(&mut doc.path);
        let mut out = std::mem::take(&mut doc.raw);
        let mut fields = std::mem::take(&mut doc.fields);
        let mut table = &self.table;
        let keys = |k: &str| !self.scheme.is_evaluated(k);
        let skip = TopSkip {
            keys: &keys,
            record: extra_skip,
        };
        let top = cache.prefix("");
        flatten(
            forest.get(root),
            top,
            cache,
            &mut table,
            &self.ignored,
            Some(skip),
            None,
            &mut out,
        );
        for &(id, value, confidence) in &out {
            let present = !comparer.is_absent_json(Some(value));
            let mut leaf = Leaf::new(id, value, present);
            leaf.confidence = confidence;
            doc.leaves.push(leaf);
        }
        doc.leaves.sort_by_key(|l| l.path);
        doc.leaves.dedup_by_key(|l| l.path);
        // SPEC §8.1: an inline confidence beats any entry beside the fields.
        let beside = cache
            .beside
            .read(forest, forest.get(root), &self.scheme.confidence_key);
        for leaf in &mut doc.leaves {
            if leaf.present && self.kind_in(own, leaf.path) == Kind::Scalar {
                prepare(comparer, leaf, &mut doc.text);
            }
        }
        for l in 0..doc.leaves.len() {
            let (list, value) = (doc.leaves[l].path, doc.leaves[l].value);
            // Inline on the list (the leaves' entries beside the fields
            // are resolved after the items, per item field here).
            let list_confidence = doc.leaves[l].confidence;
            if self.kind_in(own, list) != Kind::Items || value.json_type() != JsonType::Array {
                continue;
            }
            buf.clear();
            buf.push_str(self.table.name(list));
            buf.push_str("[]");
            let prefix = cache.prefix(&buf);
            let first_item = doc.items.len();
            // Beside the fields: when no entry names an item field of this
            // list, each item's confidence is looked up once.
            let list_name = self.table.name(list);
            let per_item = beside && !cache.beside.names_item_fields(list_name);
            for (index, element) in value.elements().enumerate() {
                out.clear();
                let (element, inherited) = unwrap_confidence(element, list_confidence);
                let whole_item =
                    per_item.then(|| cache.beside.whole_item(forest, list, list_name, index));
                if element.is_object() {
                    flatten(
                        element,
                        prefix,
                        cache,
                        &mut table,
                        &self.ignored,
                        None,
                        inherited,
                        &mut out,
                    );
                }
                fields.clear();
                for &(id, v, confidence) in &out {
                    let present = !comparer.is_absent_json(Some(v));
                    let mut leaf = Leaf::new(id, v, present);
                    leaf.confidence = confidence.or_else(|| match whole_item {
                        Some(c) => c,
                        None if beside => {
                            cache
                                .beside
                                .of(forest, id, self.table.name(id), Some(index))
                        }
                        None => None,
                    });
                    fields.push(leaf);
                }
                let present = sort_fields(&mut fields);
                let start = doc.item_leaves.len();
                for mut leaf in fields.drain(..) {
                    if leaf.present {
                        prepare(comparer, &mut leaf, &mut doc.text);
                    }
                    doc.item_types
                        .push(self.value_type_in(own, leaf.path, Some(leaf.value)));
                    doc.item_leaves.push(leaf);
                }
                doc.items.push((start..doc.item_leaves.len(), present));
            }
            doc.lists.push((list, first_item..doc.items.len()));
        }
        if beside {
            for leaf in doc.leaves.iter_mut().filter(|l| l.confidence.is_none()) {
                leaf.confidence =
                    cache
                        .beside
                        .of(forest, leaf.path, self.table.name(leaf.path), None);
            }
        }
        doc.path = buf;
        doc.raw = out;
        doc.fields = fields;
    }
}

/// Normalises a present leaf's value into `text` (SPEC §2.1).
pub(super) fn prepare(comparer: &Comparer<'_>, leaf: &mut Leaf<'_>, text: &mut String) {
    let start = text.len();
    comparer.normalize_into(text, leaf.value);
    leaf.chars = text[start..].chars().count() as u32;
    leaf.norm = Some(start..text.len());
}

/// What the schema says about paths comes first (SPEC §1.2).
pub(super) fn note_schema(paths: &mut Paths, schema: &SchemaInfo) {
    for (name, kind) in &schema.paths {
        let id = paths.table.id(name);
        let info = paths.info_mut(id);
        info.in_schema = true;
        info.kind = Some(*kind);
    }
    for (list, fields) in &schema.item_fields {
        let list_id = paths.table.id(list);
        for f in fields {
            let id = paths.table.id(f);
            let info = paths.info_mut(id);
            info.in_schema = true;
            info.list = Some(list_id);
        }
    }
    for (name, hint) in &schema.hints {
        let id = paths.table.id(name);
        paths.info_mut(id).hint = Some(*hint);
    }
}

/// The fields one model is evaluated on (SPEC §1.2): the union of the
/// schema's, the truth's and this model's paths.
#[derive(Debug, Default)]
pub(super) struct FieldSet {
    /// Top-level paths (scalar, set, item list), in table order.
    pub(super) top: Vec<PathId>,
    /// Item fields per item list.
    pub(super) item_fields: Vec<(PathId, Vec<PathId>)>,
}

pub(super) fn field_set(paths: &Paths, m: usize) -> FieldSet {
    let in_set = |info: &PathInfo| info.in_schema || info.in_truth || info.in_model[m];
    let mut top = Vec::new();
    let mut item_fields: Vec<(PathId, Vec<PathId>)> = Vec::new();
    for (id, info) in paths.info.iter().enumerate() {
        if !in_set(info) || info.list.is_some() {
            continue;
        }
        if info.has_children && !info.any_present && !info.in_schema {
            continue;
        }
        top.push(id);
        if paths.kind(id) == Kind::Items {
            item_fields.push((id, Vec::new()));
        }
    }
    for (id, info) in paths.info.iter().enumerate() {
        if let Some(list) = info.list {
            if !in_set(info) || (info.has_children && !info.any_present && !info.in_schema) {
                continue;
            }
            if let Some((_, fields)) = item_fields.iter_mut().find(|(l, _)| *l == list) {
                fields.push(id);
            }
        }
    }
    FieldSet { top, item_fields }
}
