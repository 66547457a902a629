//! The evaluation: records in, [`Report`] out (SPEC §1–§3, §5).
//!
//! Owns: putting the pieces together — documents and their flattened
//! paths, the kind and comparison type of each path, the per-model field
//! set, the pass over documents that records every outcome, and the report
//! built from the stored counts. Pure: no I/O, no web or plotting types.
//!
//! Records are read through a [`RecordSource`] per file: one compact
//! forest per file ([`DocFile`]), or a file read one record at a time.
//! Paths and kinds are learnt in passes over every document that keep
//! nothing but what they learn; then every model is evaluated one document
//! at a time: the truth document and each prediction are fetched,
//! flattened into reused buffers, compared, counted, and forgotten. Memory
//! is the sources (all the records for in-memory files, offsets for
//! streamed ones) plus one document's work and the per-document counts.
//! A [`Prepared`] evaluation (child module `prepared`, for the browser
//! app) keeps what those passes learnt and the flattened documents, so
//! that the next evaluation under other matching settings only compares.

use crate::error::{Error, ErrorKind};
use crate::eval::compare::{Comparer, SchemaHint, Side, ValueType};
use crate::eval::config::Config;
use crate::eval::counts::{
    abstention_rate, document_extraction_score, document_scores, hallucination_rate, is_kept_field,
    items_summary, macro_over_documents, macro_over_fields, mean, numeric_precision,
    partial_scores, ratio, strict_scores,
};
use crate::eval::dataset::{
    read_predictions, read_predictions_paced, read_truth, read_truth_paced, IdScheme, Predictions,
    Progress, Truth,
};
use crate::eval::items::{match_items, partial_credit, sort_fields, F1Grid, Item};
use crate::eval::model::{DocFile, RecordFile};
use crate::eval::pace::{run_now, should_stop, NoPause, Pace};
use crate::eval::paths::{
    find_leaf, flatten, kind_of_value, read_schema, Ignored, Kind, Leaf, PathCache, PathId,
    PathTable, SchemaInfo,
};
use crate::eval::report::Suggestion;
use crate::eval::report::{
    Counts, DocumentDetail, DocumentTally, FieldDetail, FieldReport, ItemTally, ModelReport,
    Outcome, Report, Scores, SetReport,
};
use crate::eval::sets::{set_scores, SetCounts};
use crate::eval::source::{same_records, RecordSource};
use crate::eval::suggest::{suggest, PathTally};
use crate::eval::tree::{Forest, Json, JsonType, NodeId};
use crate::eval::validate::{ForestValidator, Skip};
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;

mod partial;
mod prepared;
mod shard;
pub use partial::{
    evaluate_partial, learn, merge_partials, read_learned, Learned, MergeOptions, PartialHeader,
    PathFacts, PARTIAL_FORMAT,
};
use prepared::StoredForest;
pub use prepared::{prepare_paced, prepare_settings, Prepared, STORED_LIMIT_BYTES};
use shard::{DocOut, Event, SetEvent, SetSums};

/// Everything one evaluation needs. The files are [`RecordFile`]s
/// (`serde_json` objects) by default, or [`DocFile`]s (compact forests, as
/// `crate::io::parse_docs` reads them; no conversion needed).
#[derive(Debug, Clone)]
pub struct EvalInput<F = RecordFile> {
    pub truth: F,
    pub models: Vec<ModelInput<F>>,
    /// An optional JSON Schema (draft-07).
    pub schema: Option<Value>,
}

/// One model: its name, its prediction file and an optional cost that
/// overrides the sum of the records' `cost` values (SPEC §3.6).
#[derive(Debug, Clone)]
pub struct ModelInput<F = RecordFile> {
    pub name: String,
    pub file: F,
    pub cost: Option<f64>,
}

impl EvalInput<DocFile> {
    /// A copy whose files can be shared (what a [`Prepared`] evaluation
    /// and the browser app's session read).
    pub fn to_shared(&self) -> EvalInput<std::sync::Arc<DocFile>> {
        EvalInput {
            truth: std::sync::Arc::new(self.truth.clone()),
            models: self
                .models
                .iter()
                .map(|m| ModelInput {
                    name: m.name.clone(),
                    file: std::sync::Arc::new(m.file.clone()),
                    cost: m.cost,
                })
                .collect(),
            schema: self.schema.clone(),
        }
    }
}

impl<F> ModelInput<F> {
    pub fn new(name: impl Into<String>, file: F) -> Self {
        ModelInput {
            name: name.into(),
            file,
            cost: None,
        }
    }
}

/// A file the evaluation can read: a [`RecordFile`] is copied into a
/// forest (and dropped), a [`DocFile`] is used as it is.
pub trait IntoDocFile {
    fn into_doc_file(self) -> Result<DocFile, Error>;
}

impl IntoDocFile for DocFile {
    fn into_doc_file(self) -> Result<DocFile, Error> {
        Ok(self)
    }
}

/// A shared forest: copied unless this is its last holder.
impl IntoDocFile for std::sync::Arc<DocFile> {
    fn into_doc_file(self) -> Result<DocFile, Error> {
        Ok(std::sync::Arc::unwrap_or_clone(self))
    }
}

impl IntoDocFile for RecordFile {
    fn into_doc_file(self) -> Result<DocFile, Error> {
        (&self).into_doc_file()
    }
}

impl IntoDocFile for &RecordFile {
    fn into_doc_file(self) -> Result<DocFile, Error> {
        DocFile::from_records(self)
            .map_err(|e| Error::new(ErrorKind::Input, e.to_string()).in_file(self.name.clone()))
    }
}

/// Compiles a JSON Schema as draft-07 with `format` as an annotation only
/// (SPEC §3.5). A schema that is not valid JSON Schema is an error.
pub fn compile_schema(schema: &Value) -> Result<jsonschema::Validator, Error> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(false)
        .build(schema)
        .map_err(|e| {
            Error::new(
                ErrorKind::Schema,
                format!("the schema is not a valid JSON Schema (draft-07): {e}"),
            )
        })
}

/// One document flattened for comparison: its leaves sorted by path, its
/// item lists, and the normalised texts of both. Reused from document to
/// document (cleared, never freed).
#[derive(Debug, Default)]
struct FlatDoc<'a> {
    leaves: Vec<Leaf<'a>>,
    /// Item lists: list path and range in `items`.
    lists: Vec<(PathId, Range<usize>)>,
    /// Items: range in `item_leaves` and number of present fields.
    items: Vec<(Range<usize>, usize)>,
    item_leaves: Vec<Leaf<'a>>,
    /// How each item leaf is compared when it is the truth side.
    item_types: Vec<ValueType>,
    /// Normalised texts of the leaves.
    text: String,
    /// Scratch space for flattening.
    path: String,
    raw: Vec<(PathId, Json<'a>)>,
    fields: Vec<Leaf<'a>>,
}

impl<'a> FlatDoc<'a> {
    /// The same buffers, emptied, for values of another lifetime (a
    /// record read from a file lives until the next is read). Keeps every
    /// allocation: a `Vec` collected in place from its own emptied
    /// iterator reuses its memory when the element layouts agree.
    fn recycle<'b>(self) -> FlatDoc<'b> {
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

    fn clear(&mut self) {
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
    fn get(&self, path: PathId) -> Option<&Leaf<'a>> {
        find_leaf(&self.leaves, path)
    }

    /// The items of list `list` (none when the document has no such list);
    /// `sides` are [`Self::item_sides`].
    fn items<'s>(
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
    fn item_sides(&self) -> Vec<Option<Side<'_>>> {
        self.item_leaves
            .iter()
            .map(|l| l.side(&self.text))
            .collect()
    }
}

/// What is known about one path across the whole dataset.
#[derive(Debug, Clone, Default)]
struct PathInfo {
    kind: Option<Kind>,
    hint: Option<SchemaHint>,
    /// The comparison type when it does not depend on the truth value.
    fixed_type: Option<ValueType>,
    in_schema: bool,
    in_truth: bool,
    /// Seen in each model's predictions.
    in_model: Vec<bool>,
    /// A present value was seen somewhere.
    any_present: bool,
    /// The path of the item list this item field belongs to.
    list: Option<PathId>,
    /// Some other path lies beneath this one.
    has_children: bool,
    /// The present truth values seen here (SPEC §7.4's suggestions).
    tally: PathTally,
}

/// The paths, their kinds and what was seen where. Built in passes:
/// schema, truth, every prediction file (SPEC §1.2: the schema decides a
/// path's kind, else the truth's present values, else all predictions
/// together); then item fields, once kinds are final.
struct Paths {
    table: PathTable,
    info: Vec<PathInfo>,
    models: usize,
    ignored: Ignored,
    scheme: IdScheme,
    /// Reusable buffers.
    buf: String,
    raw: Vec<(PathId, NodeId)>,
}

impl Paths {
    fn info_mut(&mut self, id: PathId) -> &mut PathInfo {
        if self.info.len() <= id {
            let models = self.models;
            self.info.resize_with(id + 1, || PathInfo {
                in_model: vec![false; models],
                ..PathInfo::default()
            });
        }
        &mut self.info[id]
    }

    fn kind(&self, id: PathId) -> Kind {
        self.info[id].kind.unwrap_or(Kind::Scalar)
    }

    fn note(&mut self, id: PathId, source: Option<usize>, present: bool) -> &mut PathInfo {
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
    fn note_top(
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
        let skip = |k: &str| !scheme.is_evaluated(k) || Some(k) == extra_skip;
        let top = cache.prefix("");
        flatten(
            forest.get(root),
            top,
            cache,
            &mut self.table,
            &self.ignored,
            Some(&skip),
            &mut out,
        );
        // Noted in flattening order, as kinds are first come, first served.
        let date_order = comparer.config.date_order;
        for &(id, value) in &out {
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
        self.raw.extend(out.iter().map(|&(p, v)| (p, v.id())));
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
    fn note_items(
        &mut self,
        comparer: &Comparer<'_>,
        forest: &Forest,
        lists: &[(usize, PathId, NodeId)],
        source: Option<usize>,
        cache: &mut PathCache,
    ) {
        let mut out = Vec::new();
        for &(_, list, value) in lists {
            if self.info[list].kind != Some(Kind::Items) {
                continue;
            }
            let mut buf = std::mem::take(&mut self.buf);
            buf.clear();
            buf.push_str(self.table.name(list));
            buf.push_str("[]");
            let prefix = cache.prefix(&buf);
            for element in forest.get(value).elements() {
                out.clear();
                if element.is_object() {
                    flatten(
                        element,
                        prefix,
                        cache,
                        &mut self.table,
                        &self.ignored,
                        None,
                        &mut out,
                    );
                }
                for &(id, v) in &out {
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
    fn mark_parents(&mut self) {
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

    /// Decides the comparison type of paths whose type does not depend on
    /// their values.
    fn fix_types(&mut self, comparer: &Comparer<'_>) {
        for id in 0..self.info.len() {
            let ty = comparer.fixed_type(self.table.name(id), self.info[id].hint);
            self.info[id].fixed_type = ty;
        }
    }

    /// SPEC §7.4: the suggestions for the scalar and item fields compared
    /// as strings (no `field_types`, no schema type, no shorthand).
    fn suggestions(&self) -> Vec<Suggestion> {
        suggest(self.info.iter().enumerate().filter_map(|(id, info)| {
            let scalar = info.list.is_some() || self.kind(id) == Kind::Scalar;
            let typed = info.fixed_type.is_some() || info.hint.is_some();
            (scalar && !typed).then(|| (self.table.name(id), info.tally))
        }))
    }

    /// The comparison type of a path given its truth value.
    fn value_type(&self, id: PathId, truth: Option<Json<'_>>) -> ValueType {
        self.info[id]
            .fixed_type
            .unwrap_or_else(|| Comparer::type_of_truth(truth.map(Json::json_type)))
    }

    /// Flattens one record (kinds must be final) into `doc`: its leaves,
    /// normalised texts of present scalars, and items.
    fn flatten_doc<'a>(
        &self,
        comparer: &Comparer<'_>,
        forest: &'a Forest,
        root: NodeId,
        doc: &mut FlatDoc<'a>,
        cache: &mut PathCache,
        extra_skip: Option<&str>,
    ) {
        doc.clear();
        let mut buf = std::mem::take(&mut doc.path);
        let mut out = std::mem::take(&mut doc.raw);
        let mut fields = std::mem::take(&mut doc.fields);
        let mut table = &self.table;
        let skip = |k: &str| !self.scheme.is_evaluated(k) || Some(k) == extra_skip;
        let top = cache.prefix("");
        flatten(
            forest.get(root),
            top,
            cache,
            &mut table,
            &self.ignored,
            Some(&skip),
            &mut out,
        );
        for &(id, value) in &out {
            let present = !comparer.is_absent_json(Some(value));
            doc.leaves.push(Leaf::new(id, value, present));
        }
        doc.leaves.sort_by_key(|l| l.path);
        doc.leaves.dedup_by_key(|l| l.path);
        for leaf in &mut doc.leaves {
            if leaf.present && self.kind(leaf.path) == Kind::Scalar {
                prepare(comparer, leaf, &mut doc.text);
            }
        }
        for l in 0..doc.leaves.len() {
            let (list, value) = (doc.leaves[l].path, doc.leaves[l].value);
            if self.info[list].kind != Some(Kind::Items) || value.json_type() != JsonType::Array {
                continue;
            }
            buf.clear();
            buf.push_str(self.table.name(list));
            buf.push_str("[]");
            let prefix = cache.prefix(&buf);
            let first_item = doc.items.len();
            for element in value.elements() {
                out.clear();
                if element.is_object() {
                    flatten(
                        element,
                        prefix,
                        cache,
                        &mut table,
                        &self.ignored,
                        None,
                        &mut out,
                    );
                }
                fields.clear();
                for &(id, v) in &out {
                    let present = !comparer.is_absent_json(Some(v));
                    fields.push(Leaf::new(id, v, present));
                }
                let present = sort_fields(&mut fields);
                let start = doc.item_leaves.len();
                for mut leaf in fields.drain(..) {
                    if leaf.present {
                        prepare(comparer, &mut leaf, &mut doc.text);
                    }
                    doc.item_types
                        .push(self.value_type(leaf.path, Some(leaf.value)));
                    doc.item_leaves.push(leaf);
                }
                doc.items.push((start..doc.item_leaves.len(), present));
            }
            doc.lists.push((list, first_item..doc.items.len()));
        }
        doc.path = buf;
        doc.raw = out;
        doc.fields = fields;
    }
}

/// Normalises a present leaf's value into `text` (SPEC §2.1).
fn prepare(comparer: &Comparer<'_>, leaf: &mut Leaf<'_>, text: &mut String) {
    let start = text.len();
    comparer.normalize_into(text, leaf.value);
    leaf.chars = text[start..].chars().count() as u32;
    leaf.norm = Some(start..text.len());
}

/// Per-field accumulator: outcome counts and CER counts.
#[derive(Debug, Clone, Default)]
struct FieldAcc {
    counts: Counts,
    cer_edits: u64,
    cer_len: u64,
    cer_sum: f64,
    cer_values: u64,
}

impl FieldAcc {
    fn add_cer(&mut self, edits: u64, len: u64, rate: f64) {
        self.cer_edits += edits;
        self.cer_len += len;
        self.cer_sum += rate;
        self.cer_values += 1;
    }
}

/// Per-set-field accumulator (SPEC §3.3): sums of per-document scores over
/// the documents where either side is non-empty.
#[derive(Debug, Clone, Default)]
struct SetAcc {
    precision: f64,
    recall: f64,
    f1: f64,
    accuracy: f64,
    legacy_accuracy: f64,
    hits: Vec<f64>,
    documents: usize,
}

/// Evaluates every model against the ground truth (the whole of SPEC §1–§3)
/// and returns the report of SPEC §5. `details` adds `document_details`.
///
/// Errors: a schema that is not valid JSON Schema, or a file too large
/// for a forest (over 4 GiB of text). Everything else that is unusual
/// about the input becomes a warning in the report. (Copies the records
/// into forests; [`evaluate_owned`] drops each file once it is copied.)
pub fn evaluate(input: &EvalInput, config: &Config, details: bool) -> Result<Report, Error> {
    let models = input
        .models
        .iter()
        .map(|m| {
            Ok(ModelInput {
                name: m.name.clone(),
                file: (&m.file).into_doc_file()?,
                cost: m.cost,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    evaluate_sources(
        EvalInput {
            truth: (&input.truth).into_doc_file()?,
            models,
            schema: input.schema.clone(),
        },
        config,
        details,
    )
}

/// [`evaluate`], consuming the input: each file is turned into a forest
/// (when it is not one already) and dropped, and each model's forest is
/// dropped as soon as the model is evaluated, which keeps memory near the
/// input's size.
pub fn evaluate_owned<F: IntoDocFile>(
    input: EvalInput<F>,
    config: &Config,
    details: bool,
) -> Result<Report, Error> {
    evaluate_sources(into_doc_files(input)?, config, details)
}

/// The input with every file as a forest.
fn into_doc_files<F: IntoDocFile>(input: EvalInput<F>) -> Result<EvalInput<DocFile>, Error> {
    let EvalInput {
        truth,
        models,
        schema,
    } = input;
    let truth = truth.into_doc_file()?;
    let models = models
        .into_iter()
        .map(|m| {
            Ok(ModelInput {
                name: m.name,
                file: m.file.into_doc_file()?,
                cost: m.cost,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(EvalInput {
        truth,
        models,
        schema,
    })
}

/// Schema validity (SPEC §3.5) of every model's prediction for every
/// ground-truth document, computed by [`schema_validity`] and used by
/// [`evaluate_owned_known`]. It depends only on the files (truth and
/// predictions, in order), the schema and the id field, never on the other
/// settings, so it is computed once for any number of evaluations: the
/// browser app computes it in a worker of its own (the page's code then
/// carries no JSON Schema validator), and a threshold sweep reuses it at
/// every value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SchemaValidity {
    /// There is no schema: a payload that parsed to an object is valid.
    #[default]
    NoSchema,
    /// There is a schema, and the validity is being computed elsewhere:
    /// every payload that parsed to an object counts as valid meanwhile
    /// (the schema still decides paths and types). A report evaluated with
    /// it is provisional in `schema_validity_rate`, `exact_match_rate`,
    /// `document_extraction_score` and each document's `schema_valid` and
    /// `exact_match`, which the browser app does not show until the real
    /// validity arrives ([`complete_provisional`]); every other value is
    /// final.
    Pending,
    /// Per model (in input order), per ground-truth document (in file
    /// order), whether the payload validates.
    Known(Vec<Vec<bool>>),
}

impl SchemaValidity {
    /// The validity per model, per ground-truth document; `None` when it
    /// is not known (no schema, or pending).
    pub fn per_model(&self) -> Option<&[Vec<bool>]> {
        match self {
            SchemaValidity::Known(valid) => Some(valid),
            SchemaValidity::NoSchema | SchemaValidity::Pending => None,
        }
    }

    /// Whether a payload that parsed to an object is valid for no other
    /// reason: no schema, or the validity pending.
    fn is_known(&self) -> bool {
        !matches!(self, SchemaValidity::Pending)
    }
}

/// Validates every model's payloads against `input.schema` (SPEC §3.5), as
/// [`evaluate_owned`] would, and nothing else: what
/// [`evaluate_owned_known`] needs. The documents are those of the truth
/// read with `id_field` (the config's `id_field`).
///
/// Errors: a schema that is not valid JSON Schema; a file that cannot be
/// read as a forest.
pub fn schema_validity<F: IntoDocFile>(
    input: EvalInput<F>,
    id_field: Option<&str>,
) -> Result<SchemaValidity, Error> {
    let Some(validator) = input
        .schema
        .as_ref()
        .map(ForestValidator::new)
        .transpose()?
    else {
        return Ok(SchemaValidity::NoSchema);
    };
    let input = into_doc_files(input)?;
    let mut warnings = Vec::new();
    let truth = read_truth(input.truth, id_field, &mut warnings)?;
    let scheme = truth.scheme.clone();
    let valid = input
        .models
        .into_iter()
        .map(|m| {
            let mut preds = read_predictions(&m.name, m.file, &truth, &mut warnings)?;
            (0..truth.documents.len())
                .map(|d| {
                    let root = preds.fetch(d)?;
                    Ok(match (root, preds.by_truth[d].as_ref()) {
                        (Some(root), Some(p)) => {
                            validator.is_valid(preds.source.forest(), root, &|k: &str| {
                                !p.is_evaluated(&scheme, k)
                            })
                        }
                        _ => false,
                    })
                })
                .collect::<Result<Vec<bool>, Error>>()
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(SchemaValidity::Known(valid))
}

/// [`evaluate_owned`] with the schema validity known beforehand: computed
/// by [`schema_validity`] for the same files, schema and id field. The
/// report is then byte-identical to [`evaluate_owned`]'s (a test compares
/// the two for every setting). This path never validates, so code that
/// only calls it (the browser app's page) links no JSON Schema validator.
///
/// Errors: those of [`evaluate`] but the schema's; a `validity` that does
/// not fit the input (no validity with a schema, or other numbers of
/// models or documents).
pub fn evaluate_owned_known<F: IntoDocFile>(
    input: EvalInput<F>,
    config: &Config,
    details: bool,
    validity: &SchemaValidity,
) -> Result<Report, Error> {
    let mut pace = NoPause;
    run_now(evaluate_owned_known_paced(
        input, config, details, validity, &mut pace,
    ))
    .flatten()
    .unwrap_or_else(|| Err(Error::new(ErrorKind::Input, "the evaluation was paused")))
}

/// [`evaluate_owned_known`] a slice at a time: `pace` is asked between
/// documents whether to wait (the browser app lets the page paint and
/// handle input) or stop. `None` when it stopped; otherwise the same
/// result as [`evaluate_owned_known`] (a test compares them).
pub async fn evaluate_owned_known_paced<F: IntoDocFile>(
    input: EvalInput<F>,
    config: &Config,
    details: bool,
    validity: &SchemaValidity,
    pace: &mut dyn Pace,
) -> Option<Result<Report, Error>> {
    let input = match into_doc_files(input) {
        Ok(input) => input,
        Err(e) => return Some(Err(e)),
    };
    if input.schema.is_some() && *validity == SchemaValidity::NoSchema {
        return Some(Err(Error::new(
            ErrorKind::Input,
            "the schema validity of these files has not been computed",
        )));
    }
    evaluate_paced(input, config, details, &Known(validity), pace)
        .await
        .transpose()
}

/// Finishes a report evaluated with [`SchemaValidity::Pending`] for the
/// same input and `config` once `validity` (from [`schema_validity`]) is
/// known, without evaluating again: the values that depend on validity
/// (SPEC §3.5) are computed as the evaluation computes them —
/// `schema_validity_rate` = mean of valid, `exact_match_rate` = mean of
/// (valid ∧ exact if valid), `document_extraction_score` from those, and
/// each document's `schema_valid` and `exact_match` — so the result equals
/// [`evaluate_owned_known`]'s (a test compares them, every setting).
///
/// Errors: a report that is not provisional, or a `validity` that does not
/// fit it.
pub fn complete_provisional(
    report: &mut Report,
    validity: &SchemaValidity,
    config: &Config,
) -> Result<(), Error> {
    let not_fitting = || {
        Error::new(
            ErrorKind::Input,
            "the schema validity does not fit this report",
        )
    };
    if !validity.is_known() {
        return Err(not_fitting());
    }
    let zd = config.zero_division;
    for (m, model) in report.models.iter_mut().enumerate() {
        let exact_if_valid = model.exact_if_valid.take().ok_or_else(not_fitting)?;
        let valid: Vec<bool> = match validity.per_model() {
            // No schema: the provisional report is the final one.
            None => {
                continue;
            }
            Some(v) => v.get(m).cloned().ok_or_else(not_fitting)?,
        };
        if valid.len() != exact_if_valid.len() {
            return Err(not_fitting());
        }
        let exact = |d: usize| valid[d] && exact_if_valid[d];
        model.schema_validity_rate = mean(valid.iter().map(|&v| f64::from(u8::from(v))), zd);
        model.exact_match_rate = mean((0..valid.len()).map(|d| f64::from(u8::from(exact(d)))), zd);
        model.document_extraction_score = document_extraction_score(
            model.numeric_precision,
            model.field_f1_partial,
            model.schema_validity_rate,
            config,
        );
        if let Some(details) = &mut model.document_details {
            for (d, detail) in details.iter_mut().enumerate() {
                detail.schema_valid = valid[d];
                detail.exact_match = exact(d);
            }
        }
        if let Some(tallies) = &mut model.document_tallies {
            for (d, tally) in tallies.iter_mut().enumerate() {
                tally.schema_valid = valid[d];
            }
        }
    }
    Ok(())
}

/// [`evaluate_owned`] on any [`RecordSource`]s: the in-memory [`DocFile`]s
/// or files read one record at a time (the command-line tool's
/// `crate::io::JsonlIndex`). The report is the same whatever the source;
/// only where records wait between passes differs. Each file is read in
/// several passes (ids, paths and kinds, item fields, the comparison),
/// the predictions in the truth's document order.
///
/// Errors: those of [`evaluate`], and a source's read errors.
pub fn evaluate_sources<S: RecordSource>(
    input: EvalInput<S>,
    config: &Config,
    details: bool,
) -> Result<Report, Error> {
    let validator = input
        .schema
        .as_ref()
        .map(ForestValidator::new)
        .transpose()?;
    evaluate_with_validity(input, config, details, &validator)
}

/// Where the evaluation's pass over documents takes each prediction's
/// schema validity from (generic, so that an evaluation with a known
/// validity carries no validator code).
trait ValidityOracle: Sync {
    /// Whether model `m`'s payload at `root` for truth document `d` (its
    /// members for which `skip` is true left out) is valid.
    fn is_valid(&self, m: usize, d: usize, forest: &Forest, root: NodeId, skip: Skip<'_>) -> bool;

    /// An error when the oracle does not fit `models` × `documents`.
    fn fits(&self, _models: usize, _documents: usize) -> Result<(), Error> {
        Ok(())
    }

    /// Whether the validity is a stand-in ([`SchemaValidity::Pending`]):
    /// the report then keeps what [`complete_provisional`] needs.
    fn provisional(&self) -> bool {
        false
    }
}

/// Validates each payload (no schema: every payload that parsed is valid).
impl ValidityOracle for Option<ForestValidator> {
    fn is_valid(&self, _: usize, _: usize, forest: &Forest, root: NodeId, skip: Skip<'_>) -> bool {
        self.as_ref().is_none_or(|v| v.is_valid(forest, root, skip))
    }
}

/// Looks the validity up in what [`schema_validity`] computed.
struct Known<'a>(&'a SchemaValidity);

impl ValidityOracle for Known<'_> {
    fn is_valid(&self, m: usize, d: usize, _: &Forest, _: NodeId, _: Skip<'_>) -> bool {
        self.0.per_model().is_none_or(|v| v[m][d])
    }

    fn provisional(&self) -> bool {
        !self.0.is_known()
    }

    fn fits(&self, models: usize, documents: usize) -> Result<(), Error> {
        match self.0.per_model() {
            Some(v) if v.len() != models || v.iter().any(|m| m.len() != documents) => {
                Err(Error::new(
                    ErrorKind::Input,
                    "the schema validity was computed for other files",
                ))
            }
            _ => Ok(()),
        }
    }
}

/// The evaluation proper, with each payload's validity from `oracle`.
fn evaluate_with_validity<S: RecordSource, V: ValidityOracle>(
    input: EvalInput<S>,
    config: &Config,
    details: bool,
    oracle: &V,
) -> Result<Report, Error> {
    run_now(evaluate_paced(input, config, details, oracle, &mut NoPause))
        .and_then(Result::transpose)
        .unwrap_or_else(|| Err(Error::new(ErrorKind::Input, "the evaluation was paused")))
}

/// Work units of the passes, per truth record and forest (the truth and
/// each model): about the share of the time each takes. The passes that
/// read the ids and learn the kinds take [`LEARN`]; the comparison pass
/// takes [`COMPARE_FLATTENING`] when it flattens each document as it
/// compares it and [`COMPARE_STORED`] when it loads the documents a
/// [`Prepared`] kept.
const LEARN: usize = 2;
const COMPARE_FLATTENING: usize = 4;
const COMPARE_STORED: usize = 2;

/// What the passes before the comparison learn of the files: the
/// documents matched by id (SPEC §1.1), the paths and their kinds (SPEC
/// §1.2), and the warnings so far. It depends on the files, the model
/// names and the settings [`prepare_settings`] keeps, never on how values
/// are compared or scores averaged.
struct Learnt<S> {
    truth: Truth<S>,
    /// Each model's name, cost and predictions.
    models: Vec<(String, Option<f64>, Predictions<S>)>,
    warnings: Vec<String>,
    /// SPEC §7.4, decided once the paths are known.
    suggestions: Vec<Suggestion>,
    paths: Paths,
    /// One path cache per forest: the truth's, then each model's.
    caches: Vec<PathCache>,
}

impl<S: RecordSource> Learnt<S> {
    /// Truth records × forests: what the work units are counted in.
    fn size(&self) -> usize {
        self.truth.source.len() * (self.models.len() + 1)
    }
}

/// [`evaluate_with_validity`], asking `pace` between documents whether to
/// wait or stop (`Ok(None)`: stopped): [`learn_paced`], then
/// [`compare_paced`], which flattens each document as it compares it.
async fn evaluate_paced<S: RecordSource, V: ValidityOracle>(
    input: EvalInput<S>,
    config: &Config,
    details: bool,
    oracle: &V,
    pace: &mut dyn Pace,
) -> Result<Option<Report>, Error> {
    let comparer = Comparer::new(config);
    let size = input.truth.len() * (input.models.len() + 1);
    let total = (LEARN + COMPARE_FLATTENING) * size;
    let Some(mut learnt) = learn_paced(input, &comparer, pace, total).await? else {
        return Ok(None);
    };
    let progress = Progress {
        start: LEARN * size,
        span: COMPARE_FLATTENING,
        total,
    };
    compare_paced(
        &mut learnt,
        Docs::Flatten(None),
        &comparer,
        details,
        oracle,
        pace,
        progress,
    )
    .await
}

/// The passes before the comparison: the ids (one unit per record and
/// file), then the paths and kinds (one per document and forest), the
/// units counted from 0 of `total`.
async fn learn_paced<S: RecordSource>(
    input: EvalInput<S>,
    comparer: &Comparer<'_>,
    pace: &mut dyn Pace,
    total: usize,
) -> Result<Option<Learnt<S>>, Error> {
    let config = comparer.config;
    let mut warnings = Vec::new();
    let EvalInput {
        truth: mut truth_file,
        mut models,
        schema,
    } = input;

    let truth_name = truth_file.name().to_owned();
    for m in &mut models {
        if same_records(&mut m.file, &mut truth_file)? {
            warnings.push(format!(
                "{} ({}): the predictions are the ground truth's records, exactly as in {truth_name}; was the truth file given as a prediction file by mistake?",
                m.file.name(), m.name
            ));
        }
    }
    let records = truth_file.len();
    let forests = models.len() + 1;
    let in_pass = |start: usize| Progress {
        start,
        span: records,
        total,
    };
    let id_field = config.id_field.as_deref();
    let read = read_truth_paced(truth_file, id_field, &mut warnings, pace, in_pass(0)).await?;
    let Some(mut truth) = read else {
        return Ok(None);
    };
    if truth.documents.is_empty() {
        warnings.push(format!("{truth_name}: the ground truth has no records"));
    }
    let mut names = std::collections::HashSet::new();
    for m in &models {
        if !names.insert(m.name.as_str()) {
            warnings.push(format!(
                "two models are named {:?}; give each a distinct name",
                m.name
            ));
        }
    }
    let mut inputs: Vec<(String, Option<f64>, Predictions<S>)> = Vec::with_capacity(models.len());
    for (i, m) in models.into_iter().enumerate() {
        let progress = in_pass((i + 1) * records);
        let read =
            read_predictions_paced(&m.name, m.file, &truth, &mut warnings, pace, progress).await?;
        let Some(preds) = read else {
            return Ok(None);
        };
        inputs.push((m.name, m.cost, preds));
    }

    let scheme = truth.scheme.clone();
    let skip_top = |k: &str| !scheme.is_evaluated(k);
    let ignored = Ignored::new(&config.ignored_fields);
    let schema_info = schema
        .as_ref()
        .map(|s| read_schema(s, &skip_top, &ignored))
        .unwrap_or_default();

    let mut paths = Paths {
        table: PathTable::default(),
        info: Vec::new(),
        models: inputs.len(),
        ignored,
        scheme: scheme.clone(),
        buf: String::new(),
        raw: Vec::new(),
    };
    note_schema(&mut paths, &schema_info);
    let mut caches: Vec<PathCache> = (0..=inputs.len()).map(|_| PathCache::default()).collect();
    let (truth_cache, model_caches) = caches.split_at_mut(1);
    let truth_cache = &mut truth_cache[0];
    let documents = truth.documents.len();
    let kinds_pass = forests * records;
    // The truth's present values decide kinds before any prediction's.
    let mut truth_lists = Vec::new();
    for d in 0..documents {
        if should_stop(pace, kinds_pass + d, total).await {
            return Ok(None);
        }
        let root = truth.fetch(d)?;
        paths.note_top(
            comparer,
            truth.source.forest(),
            root,
            None,
            truth_cache,
            &mut truth_lists,
            None,
            d,
        );
    }
    // Then each model's, in the truth's order.
    let mut model_lists = vec![Vec::new(); inputs.len()];
    for (m, ((_, _, preds), cache)) in inputs.iter_mut().zip(model_caches.iter_mut()).enumerate() {
        for d in 0..documents {
            if should_stop(pace, kinds_pass + (m + 1) * records + d, total).await {
                return Ok(None);
            }
            let Some(root) = preds.fetch(d)? else {
                continue;
            };
            let skip = preds.by_truth[d].as_ref().and_then(|p| p.skip());
            paths.note_top(
                comparer,
                preds.source.forest(),
                root,
                Some(m),
                cache,
                &mut model_lists[m],
                skip,
                d,
            );
        }
    }
    // Kinds are final: item fields, in the same order (each document read
    // again, which gives the nodes noted above).
    for lists in truth_lists.chunk_by(|a, b| a.0 == b.0) {
        truth.fetch(lists[0].0)?;
        paths.note_items(comparer, truth.source.forest(), lists, None, truth_cache);
    }
    drop(truth_lists);
    for (m, ((_, _, preds), cache)) in inputs.iter_mut().zip(model_caches.iter_mut()).enumerate() {
        for lists in model_lists[m].chunk_by(|a, b| a.0 == b.0) {
            preds.fetch(lists[0].0)?;
            paths.note_items(comparer, preds.source.forest(), lists, Some(m), cache);
        }
    }
    drop(model_lists);
    paths.mark_parents();
    paths.fix_types(comparer);
    let suggestions = paths.suggestions();
    Ok(Some(Learnt {
        truth,
        models: inputs,
        warnings,
        suggestions,
        paths,
        caches,
    }))
}

/// Where the comparison pass takes each document from.
enum Docs<'s> {
    /// Flattened as it is compared; and kept in the [`Storing`] given.
    Flatten(Option<&'s mut Storing>),
    /// Loaded, flattened by an earlier pass (the truth's, then each
    /// model's in the truth's order).
    Load(&'s [StoredForest]),
}

/// The pass over the documents that flattens them also keeps them, until
/// they take more than `limit` bytes.
struct Storing {
    forests: Vec<StoredForest>,
    limit: usize,
    /// They outgrew the limit (and `forests` was emptied).
    over: bool,
}

impl Storing {
    fn new(forests: usize, limit: usize) -> Storing {
        Storing {
            forests: (0..forests).map(|_| StoredForest::new()).collect(),
            limit,
            over: false,
        }
    }

    /// Keeps `doc` as the next document of forest `f`.
    fn push(&mut self, f: usize, doc: &FlatDoc<'_>) {
        if let Some(forest) = self.forests.get_mut(f) {
            forest.push(doc);
        }
    }

    /// Makes room for `documents` in each forest at the rate of those
    /// kept so far (see [`StoredForest::reserve_for`]); gives up keeping
    /// them if at that rate they would take more than the limit.
    fn reserve_for(&mut self, documents: usize) {
        let pushed = self.forests.first().map_or(0, |f| f.documents());
        let bytes: usize = self.forests.iter().map(StoredForest::bytes).sum();
        if pushed == 0 {
            return;
        }
        if bytes / pushed * documents > self.limit {
            self.over = true;
            self.forests = Vec::new();
            return;
        }
        for forest in &mut self.forests {
            forest.reserve_for(documents);
        }
    }

    /// After document `d` of `documents` was kept: makes room for the
    /// rest after the first [`RESERVE_AFTER`], and looks at the limit
    /// every 256.
    fn after(&mut self, d: usize, documents: usize) {
        if d == RESERVE_AFTER {
            self.reserve_for(documents);
        }
        if d % 256 == 255 {
            self.check();
        }
    }

    /// Gives up keeping once the documents take more than the limit.
    fn check(&mut self) {
        if !self.over && self.forests.iter().map(StoredForest::bytes).sum::<usize>() > self.limit {
            self.over = true;
            self.forests = Vec::new();
        }
    }
}

/// The documents the comparison pass keeps before it makes room for the
/// rest at their rate.
const RESERVE_AFTER: usize = 64;

/// The comparison pass: every model in one pass over the documents, so
/// that each truth document is flattened (or loaded) once;
/// `progress.span` units per document and forest. The report of SPEC §5.
async fn compare_paced<S: RecordSource, V: ValidityOracle>(
    learnt: &mut Learnt<S>,
    docs: Docs<'_>,
    comparer: &Comparer<'_>,
    details: bool,
    oracle: &V,
    pace: &mut dyn Pace,
    progress: Progress,
) -> Result<Option<Report>, Error> {
    let config = comparer.config;
    let Learnt {
        truth,
        models,
        warnings,
        suggestions,
        paths,
        caches,
    } = learnt;
    let paths = &*paths;
    let documents = truth.documents.len();
    let mut runs: Vec<ModelRun<'_, '_>> = (0..models.len())
        .map(|m| ModelRun::new(paths, config, m, details, documents))
        .collect();
    let mut sink = |_: usize, id: &str, outs: &mut [DocOut]| -> Result<(), Error> {
        for (run, out) in runs.iter_mut().zip(outs) {
            run.absorb(id, out)?;
        }
        Ok(())
    };
    let pass = Pass::new(paths, comparer, details, models.len());
    let done = compare_pass(
        truth, models, caches, &pass, docs, oracle, pace, progress, &mut sink,
    )
    .await?;
    if done.is_none() {
        return Ok(None);
    }
    let names: Vec<(String, Option<f64>)> = models
        .iter()
        .map(|(name, cost, preds)| (name.clone(), cost.or(preds.cost)))
        .collect();
    Ok(Some(build_report(
        runs,
        &names,
        warnings.clone(),
        suggestions.clone(),
        config,
        documents,
        oracle.provisional(),
    )))
}

/// What every document's comparison shares: the paths, the comparer and
/// whether to keep each compared value.
struct Pass<'p, 'c> {
    paths: &'p Paths,
    comparer: &'p Comparer<'c>,
    details: bool,
    /// Each model's fields.
    fields: Vec<FieldSet>,
}

impl<'p, 'c> Pass<'p, 'c> {
    fn new(paths: &'p Paths, comparer: &'p Comparer<'c>, details: bool, models: usize) -> Self {
        Pass {
            paths,
            comparer,
            details,
            fields: (0..models).map(|m| field_set(paths, m)).collect(),
        }
    }

    fn recorder(&self) -> Recorder<'p, 'c> {
        Recorder {
            paths: self.paths,
            comparer: self.comparer,
            details: self.details,
        }
    }
}

/// What a comparison pass hands on, document by document in the truth's
/// order: the document's index and id and each model's [`DocOut`].
type Sink<'s> = dyn FnMut(usize, &str, &mut [DocOut]) -> Result<(), Error> + 's;

/// The comparison pass: every model in one pass over the documents, so
/// that each truth document is flattened (or loaded) once;
/// `progress.span` units per document and forest. Each document's
/// [`DocOut`]s go to `sink` in the truth's order. On a thread pool of
/// more than one thread (`--jobs`, native only) the documents are compared
/// in batches on every thread ([`shard::compare_parallel`]), the sink
/// still called in order, unless the pass keeps the flattened documents.
#[allow(clippy::too_many_arguments)]
async fn compare_pass<S: RecordSource, V: ValidityOracle>(
    truth: &mut Truth<S>,
    inputs: &mut [(String, Option<f64>, Predictions<S>)],
    caches: &mut [PathCache],
    pass: &Pass<'_, '_>,
    mut docs: Docs<'_>,
    oracle: &V,
    pace: &mut dyn Pace,
    progress: Progress,
    sink: &mut Sink<'_>,
) -> Result<Option<()>, Error> {
    let paths = pass.paths;
    let comparer = pass.comparer;
    let scheme = &paths.scheme;
    let documents = truth.documents.len();
    let forests = inputs.len() + 1;
    oracle.fits(inputs.len(), documents)?;
    if shard::threads() > 1 && !matches!(docs, Docs::Flatten(Some(_))) {
        return shard::compare_parallel(truth, inputs, pass, &docs, oracle, pace, progress, sink)
            .await;
    }
    let (truth_cache, model_caches) = caches.split_at_mut(1);
    let truth_cache = &mut truth_cache[0];
    let recorder = pass.recorder();
    let mut outs: Vec<DocOut> = (0..inputs.len()).map(|_| DocOut::default()).collect();
    let (mut truth_buf, mut pred_buf) = (FlatDoc::default(), FlatDoc::default());
    let mut grid = F1Grid::default();
    for d in 0..documents {
        let done = progress.start + progress.span * forests * d;
        if should_stop(pace, done, progress.total).await {
            return Ok(None);
        }
        let root = truth.fetch(d)?;
        let mut truth_doc = truth_buf.recycle();
        let forest = truth.source.forest();
        match &mut docs {
            Docs::Load(stored) => stored[0].load(d, forest, &mut truth_doc),
            Docs::Flatten(storing) => {
                paths.flatten_doc(comparer, forest, root, &mut truth_doc, truth_cache, None);
                if let Some(storing) = storing {
                    storing.push(0, &truth_doc);
                }
            }
        }
        let truth_sides = truth_doc.item_sides();
        for (m, (((_, _, preds), cache), out)) in inputs
            .iter_mut()
            .zip(model_caches.iter_mut())
            .zip(outs.iter_mut())
            .enumerate()
        {
            let mut pred_doc = pred_buf.recycle();
            let has_prediction = preds.by_truth[d].is_some();
            let root = preds.fetch(d)?;
            let valid = match (root, preds.by_truth[d].as_ref()) {
                (Some(root), Some(p)) => {
                    let forest = preds.source.forest();
                    match &docs {
                        Docs::Load(stored) => stored[m + 1].load(d, forest, &mut pred_doc),
                        Docs::Flatten(_) => paths.flatten_doc(
                            comparer,
                            forest,
                            root,
                            &mut pred_doc,
                            cache,
                            p.skip(),
                        ),
                    }
                    oracle.is_valid(m, d, forest, root, &|k: &str| !p.is_evaluated(scheme, k))
                }
                _ => false,
            };
            if let Docs::Flatten(Some(storing)) = &mut docs {
                storing.push(m + 1, &pred_doc);
            }
            recorder.compare_document(
                &pass.fields[m],
                &truth_doc,
                &truth_sides,
                &pred_doc,
                &mut grid,
                valid,
                has_prediction,
                out,
            );
            pred_buf = pred_doc.recycle();
        }
        drop(truth_sides);
        truth_buf = truth_doc.recycle();
        sink(d, &truth.documents[d].id, &mut outs)?;
        if let Docs::Flatten(Some(storing)) = &mut docs {
            storing.after(d, documents);
        }
    }
    if let Docs::Flatten(Some(storing)) = &mut docs {
        storing.check();
    }
    Ok(Some(()))
}

/// The report of SPEC §5 from each model's counts: `models` are the
/// models' names and costs (SPEC §3.6), `warnings` those of the passes
/// before the comparison.
fn build_report(
    runs: Vec<ModelRun<'_, '_>>,
    models: &[(String, Option<f64>)],
    mut warnings: Vec<String>,
    suggestions: Vec<Suggestion>,
    config: &Config,
    documents: usize,
    provisional: bool,
) -> Report {
    let mut reports = Vec::with_capacity(models.len());
    for (run, (name, cost)) in runs.into_iter().zip(models) {
        let mut report = run.finish(&mut warnings, name, provisional);
        report.cost = *cost;
        reports.push(report);
    }

    for field in config.field_weights.keys() {
        let known = reports
            .iter()
            .any(|m: &ModelReport| m.fields.iter().any(|f| &f.field == field));
        if !known {
            warnings.push(format!(
                "field_weights: no field is named `{field}`; its weight is not used (the fields are named as in the per-field table, e.g. `vendor.name`, `items[].qty`)"
            ));
        }
    }

    for field in config.field_types.keys() {
        let known = reports
            .iter()
            .any(|m: &ModelReport| m.fields.iter().any(|f| &f.field == field));
        if !known {
            warnings.push(format!(
                "field_types: no field is named `{field}`; its type is not used (the fields are named as in the per-field table, e.g. `vendor.name`, `items[].amount`)"
            ));
        }
    }

    Report {
        fieldscope_report: 1,
        config: config.to_json(),
        warnings,
        suggestions,
        documents,
        models: reports,
        bootstrap: None,
        comparison: None,
    }
}

/// What the schema says about paths comes first (SPEC §1.2).
fn note_schema(paths: &mut Paths, schema: &SchemaInfo) {
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
struct FieldSet {
    /// Top-level paths (scalar, set, item list), in table order.
    top: Vec<PathId>,
    /// Item fields per item list.
    item_fields: Vec<(PathId, Vec<PathId>)>,
}

fn field_set(paths: &Paths, m: usize) -> FieldSet {
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

/// The elements of a set field, normalised (SPEC §3.3): an absent value is
/// the empty list and a lone present scalar a one-element list.
fn set_elements(comparer: &Comparer<'_>, v: Option<Json<'_>>) -> Vec<String> {
    match v {
        _ if comparer.is_absent_json(v) => Vec::new(),
        Some(a) if a.json_type() == JsonType::Array => {
            a.elements().map(|e| comparer.normalized(e)).collect()
        }
        Some(other) => vec![comparer.normalized(other)],
        None => Vec::new(),
    }
}

/// The display outcome of a set field in `document_details`: true negative
/// when both sides are empty, missed / spurious when one is, exact when the
/// lists agree element for element, incorrect when they share nothing, and
/// partial otherwise. (The scores use the element counts, not this.)
fn set_display_outcome(c: &SetCounts) -> Outcome {
    match (c.truth_len, c.pred_len) {
        (0, 0) => Outcome::TrueNegative,
        (_, 0) => Outcome::Missed,
        (0, _) => Outcome::Spurious,
        _ if c.pred_in_true == c.pred_len && c.true_in_pred == c.truth_len => Outcome::Exact,
        _ if c.pred_in_true == 0 => Outcome::Incorrect,
        _ => Outcome::Partial,
    }
}

/// Compares the (document, field) pairs of one document for one model and
/// notes, in the order it compares them, what each contributes
/// ([`DocOut`]); [`ModelRun::absorb`] then adds it to the model's counts.
/// Shared by every model and, with `--jobs`, by every thread.
struct Recorder<'p, 'c> {
    paths: &'p Paths,
    comparer: &'p Comparer<'c>,
    /// Keep each compared value (`document_details`).
    details: bool,
}

impl Recorder<'_, '_> {
    /// Compares one (document, field) pair and notes its outcome, CER and
    /// numeric-ness in `out`; `slots` are the item indices for item fields.
    /// `t` and `p` are leaves with the text buffers of their documents.
    fn record(
        &self,
        id: PathId,
        t: Option<(&Leaf<'_>, &str)>,
        p: Option<(&Leaf<'_>, &str)>,
        slots: (Option<usize>, Option<usize>),
        out: &mut DocOut,
    ) {
        let ty = self.paths.value_type(id, t.map(|(l, _)| l.value));
        let (ts, ps) = (
            t.and_then(|(l, text)| l.side(text)),
            p.and_then(|(l, text)| l.side(text)),
        );
        let c = self.comparer.compare_sides(ty, ts.as_ref(), ps.as_ref());
        let (t, p) = (t.map(|(l, _)| l), p.map(|(l, _)| l));
        out.events.push(Event {
            path: id as u32,
            outcome: c.outcome,
            cer: c
                .cer
                .zip(c.cer_rate)
                .map(|(cer, rate)| (cer.edits as u64, cer.len as u64, rate)),
        });
        if ty == ValueType::Number && t.is_some_and(|l| l.present) {
            out.numeric_total += 1;
            out.numeric_exact += u64::from(c.outcome == Outcome::Exact);
        }
        if self.details {
            out.fields.push(FieldDetail {
                field: self.paths.table.name(id).to_string(),
                truth_item: slots.0,
                pred_item: slots.1,
                truth: t.map_or(Value::Null, |l| l.value.to_value()),
                prediction: p.map_or(Value::Null, |l| l.value.to_value()),
                outcome: c.outcome,
                similarity: c.similarity,
                cer: c.cer_rate,
            });
        }
    }

    /// Compares document `truth` with one model's prediction `pred`
    /// (empty when there is none), whose schema validity is `valid`, over
    /// the model's fields `plan`, into `out` (emptied first).
    #[allow(clippy::too_many_arguments)]
    fn compare_document(
        &self,
        plan: &FieldSet,
        truth: &FlatDoc<'_>,
        truth_sides: &[Option<Side<'_>>],
        pred: &FlatDoc<'_>,
        grid: &mut F1Grid,
        valid: bool,
        has_prediction: bool,
        out: &mut DocOut,
    ) {
        out.clear();
        out.valid = valid;
        out.has_prediction = has_prediction;
        let paths = self.paths;
        let comparer = self.comparer;
        let config = comparer.config;
        // Every item leaf of the prediction as a side, once asked for.
        let mut pred_sides = None;
        for &id in &plan.top {
            let (t, p) = (truth.get(id), pred.get(id));
            match paths.kind(id) {
                Kind::Scalar => self.record(
                    id,
                    t.map(|l| (l, truth.text.as_str())),
                    p.map(|l| (l, pred.text.as_str())),
                    (None, None),
                    out,
                ),
                Kind::Set => {
                    let (t, p) = (t.map(|l| l.value), p.map(|l| l.value));
                    let (te, pe) = (set_elements(comparer, t), set_elements(comparer, p));
                    let sc = SetCounts::of(&te, &pe);
                    let scores = (!sc.both_empty()).then(|| {
                        let r = set_scores(&te, &pe, &config.top_k, config.zero_division);
                        SetSums {
                            precision: r.precision,
                            recall: r.recall,
                            f1: r.f1,
                            accuracy: r.accuracy,
                            legacy_accuracy: r.legacy_accuracy,
                            hits: r.hit_at_k,
                        }
                    });
                    out.sets.push(SetEvent {
                        path: id as u32,
                        counts: [sc.pred_in_true, sc.true_in_pred, sc.truth_len, sc.pred_len]
                            .map(|n| n as u64),
                        scores,
                    });
                    if self.details {
                        out.fields.push(FieldDetail {
                            field: paths.table.name(id).to_string(),
                            truth_item: None,
                            pred_item: None,
                            truth: t.map_or(Value::Null, Json::to_value),
                            prediction: p.map_or(Value::Null, Json::to_value),
                            outcome: set_display_outcome(&sc),
                            similarity: None,
                            cer: None,
                        });
                    }
                }
                Kind::Items => {
                    let sub = plan
                        .item_fields
                        .iter()
                        .find(|(l, _)| *l == id)
                        .map_or(&[][..], |(_, f)| f.as_slice());
                    let p_sides = pred_sides.get_or_insert_with(|| pred.item_sides());
                    let ti: Vec<Item<'_, '_>> = truth.items(id, truth_sides).collect();
                    let pi: Vec<Item<'_, '_>> = pred.items(id, p_sides).collect();
                    grid.fill(comparer, &ti, &pi);
                    let matches = match_items(grid, |i, j, out| {
                        partial_credit(comparer, &ti[i], &pi[j], out)
                    });
                    out.items.truth_items += ti.len() as u64;
                    out.items.pred_items += pi.len() as u64;
                    out.items.recognised += matches
                        .iter()
                        .filter(|x| x.f1 >= config.item_f1_threshold)
                        .count() as u64;
                    let mut t_matched = vec![false; ti.len()];
                    let mut p_matched = vec![false; pi.len()];
                    for x in &matches {
                        t_matched[x.truth] = true;
                        p_matched[x.pred] = true;
                        for &s in sub {
                            self.record(
                                s,
                                ti[x.truth].get(s).map(|l| (l, ti[x.truth].text)),
                                pi[x.pred].get(s).map(|l| (l, pi[x.pred].text)),
                                (Some(x.truth), Some(x.pred)),
                                out,
                            );
                        }
                    }
                    for (i, item) in ti.iter().enumerate().filter(|(i, _)| !t_matched[*i]) {
                        for &s in sub {
                            self.record(
                                s,
                                item.get(s).map(|l| (l, item.text)),
                                None,
                                (Some(i), None),
                                out,
                            );
                        }
                    }
                    for (j, item) in pi.iter().enumerate().filter(|(j, _)| !p_matched[*j]) {
                        for &s in sub {
                            self.record(
                                s,
                                None,
                                item.get(s).map(|l| (l, item.text)),
                                (None, Some(j)),
                                out,
                            );
                        }
                    }
                }
            }
        }
    }
}

/// One model's evaluation in progress: what has been counted so far.
struct ModelRun<'p, 'c> {
    fields: FieldSet,
    /// The fields of the per-field table, in its (sorted) order.
    row_ids: Vec<PathId>,
    paths: &'p Paths,
    config: &'c Config,
    /// Keep per-document details and tallies.
    details: bool,
    acc: Vec<FieldAcc>,
    /// With details: this document's counts per field (indexed by path).
    doc_fields: Option<Vec<Counts>>,
    numeric_exact: u64,
    numeric_total: u64,
    sets: BTreeMap<PathId, SetAcc>,
    doc_counts: Vec<Counts>,
    tallies: Vec<ItemTally>,
    doc_details: Vec<DocumentDetail>,
    /// With details: what each document contributes to the scores.
    doc_tallies: Vec<DocumentTally>,
    /// Per document: the prediction is schema-valid; there is one.
    valid: Vec<bool>,
    has_prediction: Vec<bool>,
}

impl<'p, 'c> ModelRun<'p, 'c> {
    fn new(
        paths: &'p Paths,
        config: &'c Config,
        m: usize,
        details: bool,
        documents: usize,
    ) -> Self {
        let fields = field_set(paths, m);
        let row_ids = row_ids(paths, &fields);
        ModelRun {
            fields,
            row_ids,
            paths,
            config,
            details,
            acc: vec![FieldAcc::default(); paths.table.len()],
            doc_fields: details.then(|| vec![Counts::default(); paths.table.len()]),
            numeric_exact: 0,
            numeric_total: 0,
            sets: BTreeMap::new(),
            doc_counts: Vec::with_capacity(documents),
            tallies: Vec::with_capacity(documents),
            doc_details: Vec::new(),
            valid: Vec::with_capacity(documents),
            has_prediction: Vec::with_capacity(documents),
            doc_tallies: Vec::new(),
        }
    }

    /// Adds what the next document (`id`; documents come in order)
    /// contributes, `out` from [`Recorder::compare_document`] (its field
    /// details are taken). Integer counts add up in any order; each
    /// floating-point sum (a field's Σ CER, a set field's Σ scores) takes
    /// its terms in document order and, within a document, in comparison
    /// order — the order of one pass — whoever compared them (SPEC §3).
    fn absorb(&mut self, id: &str, out: &mut DocOut) -> Result<(), Error> {
        let bad = || {
            Error::new(
                ErrorKind::Input,
                format!("document {id:?}: a count names a field that was not learnt"),
            )
        };
        self.valid.push(out.valid);
        self.has_prediction.push(out.has_prediction);
        let mut counts = Counts::default();
        if let Some(d) = &mut self.doc_fields {
            d.fill(Counts::default());
        }
        for e in &out.events {
            let path = e.path as usize;
            let a = self.acc.get_mut(path).ok_or_else(bad)?;
            a.counts.record(e.outcome);
            counts.record(e.outcome);
            if let Some(d) = &mut self.doc_fields {
                d[path].record(e.outcome);
            }
            if let Some((edits, len, rate)) = e.cer {
                a.add_cer(edits, len, rate);
            }
        }
        let top_k = self.config.top_k.len();
        for s in &out.sets {
            let path = s.path as usize;
            let [pred_in_true, true_in_pred, truth_len, pred_len] = s.counts.map(|n| n as usize);
            let sc = SetCounts {
                pred_in_true,
                true_in_pred,
                truth_len,
                pred_len,
            };
            let oc = sc.outcome_counts();
            self.acc.get_mut(path).ok_or_else(bad)?.counts += oc;
            counts += oc;
            if let Some(d) = &mut self.doc_fields {
                d[path] += oc;
            }
            let acc = self.sets.entry(path).or_insert_with(|| SetAcc {
                hits: vec![0.0; top_k],
                ..SetAcc::default()
            });
            if let Some(r) = &s.scores {
                if r.hits.len() != top_k {
                    return Err(bad());
                }
                acc.precision += r.precision;
                acc.recall += r.recall;
                acc.f1 += r.f1;
                acc.accuracy += r.accuracy;
                acc.legacy_accuracy += r.legacy_accuracy;
                for (h, v) in acc.hits.iter_mut().zip(&r.hits) {
                    *h += v;
                }
                acc.documents += 1;
            }
        }
        self.numeric_exact += out.numeric_exact;
        self.numeric_total += out.numeric_total;
        let tally = out.items;
        if self.details {
            let s = document_scores(&counts, self.config);
            let exact = document_exact_match(out.valid, &counts, &tally);
            self.doc_details.push(DocumentDetail {
                id: id.to_string(),
                has_prediction: out.has_prediction,
                schema_valid: out.valid,
                exact_match: exact,
                counts,
                precision: s.precision,
                recall: s.recall,
                f1: s.f1,
                accuracy: s.accuracy,
                fields: std::mem::take(&mut out.fields),
            });
        }
        if let Some(per_field) = &self.doc_fields {
            self.doc_tallies.push(DocumentTally {
                counts,
                fields: self.row_ids.iter().map(|&id| per_field[id]).collect(),
                numeric_exact: out.numeric_exact,
                numeric_total: out.numeric_total,
                schema_valid: out.valid,
                items: tally,
            });
        }
        self.doc_counts.push(counts);
        self.tallies.push(tally);
        Ok(())
    }
    /// The model's report, from the counts (SPEC §3).
    fn finish(self, warnings: &mut Vec<String>, name: &str, provisional: bool) -> ModelReport {
        let ModelRun {
            fields,
            row_ids: field_ids,
            paths,
            config,
            details,
            acc,
            doc_fields: _,
            numeric_exact,
            numeric_total,
            sets,
            doc_counts,
            tallies,
            doc_details,
            doc_tallies,
            valid,
            has_prediction: _,
        } = self;
        let valid = &valid;
        let numeric = (numeric_exact, numeric_total);
        let zd = config.zero_division;
        let total: Counts = doc_counts.iter().copied().sum();
        let micro = strict_scores(&total, config);
        let partial = partial_scores(&total, config);

        // Macro over documents (SPEC §3.2, M4).
        let macro_documents = macro_over_documents(&doc_counts, config);

        // Per-field rows and the macro over fields (SPEC §3.2, M0).
        let mut field_reports = Vec::with_capacity(field_ids.len());
        let mut weighted: Vec<(f64, Scores)> = Vec::new();
        for &id in &field_ids {
            let a = &acc[id];
            let s = strict_scores(&a.counts, config);
            if is_kept_field(&a.counts) {
                let name = paths.table.name(id);
                weighted.push((config.field_weights.get(name).copied().unwrap_or(1.0), s));
            }
            let is_set = paths.kind(id) == Kind::Set && paths.info[id].list.is_none();
            let (cer, mean_cer) = if is_set || a.cer_values == 0 {
                (None, None)
            } else {
                (
                    Some(pooled_cer(a.cer_edits, a.cer_len, zd)),
                    Some(a.cer_sum / a.cer_values as f64),
                )
            };
            field_reports.push(FieldReport {
                field: paths.table.name(id).to_string(),
                counts: a.counts,
                precision: s.precision,
                recall: s.recall,
                f1: s.f1,
                accuracy: s.accuracy,
                cer,
                mean_cer,
            });
        }
        let macro_fields = macro_over_fields(field_ids.iter().map(|&id| &acc[id].counts), config);
        // Weighted macro over fields: Σ w·s / Σ w over the same fields
        // (zero_division when the weights sum to 0).
        let weighted_fields = (!config.field_weights.is_empty()).then(|| {
            let total: f64 = weighted.iter().map(|(w, _)| w).sum();
            let avg = |get: fn(&Scores) -> f64| {
                ratio(weighted.iter().map(|(w, s)| w * get(s)).sum(), total, zd)
            };
            Scores {
                precision: avg(|s| s.precision),
                recall: avg(|s| s.recall),
                f1: avg(|s| s.f1),
                accuracy: avg(|s| s.accuracy),
            }
        });

        // Set fields (SPEC §3.3).
        let set_reports: BTreeMap<String, SetReport> = sets
            .iter()
            .map(|(&id, s)| {
                let avg = |sum: f64| ratio(sum, s.documents as f64, zd);
                let hit_at_k = config
                    .top_k
                    .iter()
                    .zip(&s.hits)
                    .map(|(k, h)| (k.to_string(), avg(*h)))
                    .collect();
                (
                    paths.table.name(id).to_string(),
                    SetReport {
                        precision: avg(s.precision),
                        recall: avg(s.recall),
                        f1: avg(s.f1),
                        accuracy: avg(s.accuracy),
                        legacy_accuracy: avg(s.legacy_accuracy),
                        hit_at_k,
                        documents: s.documents,
                    },
                )
            })
            .collect();

        // Line items (SPEC §3.4).
        let items = (!fields.item_fields.is_empty()).then(|| items_summary(&tallies, config));

        // Document-level scores (SPEC §3.5).
        let schema_validity_rate = mean(valid.iter().map(|&v| f64::from(u8::from(v))), zd);
        let exact_match_rate = mean(
            doc_counts
                .iter()
                .zip(&tallies)
                .zip(valid)
                .map(|((c, t), &v)| f64::from(u8::from(document_exact_match(v, c, t)))),
            zd,
        );
        let numeric_precision = numeric_precision(numeric.0, numeric.1);
        if numeric_precision.is_none() {
            warnings.push(format!(
                "model {name:?}: numeric_precision is null (no numeric truth value is present), so its weight {} in document_extraction_score is spread over field_f1_partial and schema_validity in proportion",
                config.document_extraction_score.weights.numeric_precision
            ));
        }
        let document_extraction_score =
            document_extraction_score(numeric_precision, partial.f1, schema_validity_rate, config);
        let exact_if_valid = provisional.then(|| {
            doc_counts
                .iter()
                .zip(&tallies)
                .map(|(c, t)| document_exact_match(true, c, t))
                .collect()
        });

        // Model CER pooled over every scalar and item field (SPEC §2.2).
        let (edits, len, values) = field_ids
            .iter()
            .filter(|&&id| !(paths.kind(id) == Kind::Set && paths.info[id].list.is_none()))
            .map(|&id| &acc[id])
            .fold((0u64, 0u64, 0u64), |(e, l, n), a| {
                (e + a.cer_edits, l + a.cer_len, n + a.cer_values)
            });
        let cer = (values > 0).then(|| pooled_cer(edits, len, zd));

        ModelReport {
            name: name.to_string(),
            cost: None,
            counts: total,
            truth_count: total.truth_count(),
            pred_count: total.pred_count(),
            m_total: total.credit(),
            micro,
            macro_documents,
            macro_fields,
            weighted_fields,
            partial,
            hallucination_rate: hallucination_rate(&total, zd),
            abstention_rate: abstention_rate(&total, zd),
            numeric_precision,
            field_f1_partial: partial.f1,
            schema_validity_rate,
            exact_match_rate,
            document_extraction_score,
            cer,
            fields: field_reports,
            sets: set_reports,
            items,
            document_details: details.then_some(doc_details),
            literature: None,
            document_tallies: details.then_some(doc_tallies),
            exact_if_valid,
        }
    }
}

/// The fields of a model's per-field table, sorted by name: its scalar and
/// set fields, then every item field.
fn row_ids(paths: &Paths, fields: &FieldSet) -> Vec<PathId> {
    let mut ids: Vec<PathId> = fields
        .top
        .iter()
        .filter(|&&id| paths.kind(id) != Kind::Items)
        .copied()
        .chain(
            fields
                .item_fields
                .iter()
                .flat_map(|(_, f)| f.iter().copied()),
        )
        .collect();
    ids.sort_by(|a, b| paths.table.name(*a).cmp(paths.table.name(*b)));
    ids
}

/// Σ edits / Σ len t (SPEC §2.2); when every truth value normalises to the
/// empty string, 0/0 gives `zero_division`.
fn pooled_cer(edits: u64, len: u64, zero_division: f64) -> f64 {
    if len == 0 && edits > 0 {
        1.0
    } else {
        ratio(edits as f64, len as f64, zero_division)
    }
}

/// `exact_match` (SPEC §3.5): valid, every outcome exact or true negative,
/// every truth item recognised and no extra items.
fn document_exact_match(valid: bool, c: &Counts, t: &ItemTally) -> bool {
    valid
        && c.partial + c.incorrect + c.missed + c.spurious == 0
        && t.recognised == t.truth_items
        && t.pred_items == t.truth_items
}
