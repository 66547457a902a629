//! From records to documents (SPEC §1.1, §1.3): ids, duplicates, matching
//! predictions to ground truth, raw model output and cost.
//!
//! Owns: reading a record's id, choosing the id field, the extension
//! fallback, the raw-output payload extraction, and the warnings all of
//! these produce. Pure (parsing a model's text with `serde_json` is not
//! I/O); depends on `source`, `tree`, `config`.
//!
//! Files are read through [`RecordSource`], one pass each; what is kept
//! per record is its id and where its payload is (a record position, and
//! for a resident source the payload's node), never a copy of its value.

use crate::error::{Error, ErrorKind};
use crate::eval::confidence_input::check_record;
use crate::eval::nfc::nfc_map;
use crate::eval::pace::{run_now, should_stop, NoPause, Pace};
use crate::eval::source::RecordSource;
use crate::eval::tree::{Forest, Json, NodeId};
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Keys skipped at the top level of every record (SPEC §1.2).
pub const METADATA_KEYS: [&str; 4] = ["cost", "latency", "usage", "model"];

/// Id fields tried in order when `id_field` is not set (SPEC §1.1).
pub const ID_CANDIDATES: [&str; 5] = ["id", "filename", "doc_id", "document_id", "custom_id"];

/// Field names that may carry a model's raw text (SPEC §1.3).
pub const RAW_OUTPUT_KEYS: [&str; 6] = [
    "output",
    "response",
    "prediction",
    "completion",
    "content",
    "text",
];

/// How the ground truth's records are identified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdScheme {
    /// The records come from a JSON object mapping id → record.
    pub from_keys: bool,
    /// The id field (excluded from evaluation), if any.
    pub field: Option<String>,
    /// The key holding confidences beside the fields (SPEC §8.1, config
    /// `confidence.key`): never a field, and checked in predictions.
    pub confidence_key: String,
}

/// SPEC §8.1's default `confidence.key`.
pub const CONFIDENCE_KEY: &str = "_confidence";

impl IdScheme {
    /// Records are matched by position.
    pub fn by_position(&self) -> bool {
        !self.from_keys && self.field.is_none()
    }
}

/// A ground-truth document: its id and its record. The evaluated fields
/// are the record's members but the id field and the metadata keys
/// ([`IdScheme::is_evaluated`]).
#[derive(Debug, Clone)]
pub struct TruthDocument {
    pub id: String,
    /// The record's position in the truth's [`RecordSource`].
    pub record: usize,
}

/// Where a prediction's payload is (SPEC §1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payload {
    /// The model's raw output did not parse to a JSON object.
    Invalid,
    /// A node of a resident source's forest: the record, or the object
    /// parsed from its raw output.
    At(NodeId),
    /// The record itself, read again from a non-resident source.
    Record,
    /// The object parsed again from the record's raw output, read again
    /// from a non-resident source.
    Raw,
}

/// A prediction document.
#[derive(Debug, Clone)]
pub struct PredDocument {
    pub id: String,
    /// The record's position in the model's [`RecordSource`].
    pub record: usize,
    pub payload: Payload,
    /// Whether the payload is the model's raw output, parsed.
    pub raw: bool,
    /// The id key found by the fallback of SPEC §1.2, if any (it is not a
    /// field, and raw output is looked for beside it).
    pub fallback_key: Option<&'static str>,
}

impl PredDocument {
    /// A top-level key of the payload that is not evaluated: the fallback
    /// id key when the record is its own payload (the key an id came from
    /// is never a field).
    pub fn skip(&self) -> Option<&'static str> {
        if self.raw {
            None
        } else {
            self.fallback_key
        }
    }

    /// Whether a top-level key of this prediction is evaluated under
    /// `scheme` (SPEC §1.2): not the id field, not metadata, not the
    /// fallback id key.
    pub fn is_evaluated(&self, scheme: &IdScheme, key: &str) -> bool {
        scheme.is_evaluated(key) && Some(key) != self.skip()
    }
}

/// The ground truth, ready to evaluate.
#[derive(Debug, Clone)]
pub struct Truth<S> {
    pub scheme: IdScheme,
    pub documents: Vec<TruthDocument>,
    /// Top-level keys seen in any truth record (for raw-output detection).
    pub top_level_keys: HashSet<String>,
    /// The records.
    pub source: S,
}

impl<S: RecordSource> Truth<S> {
    /// Makes document `d` readable in `self.source.forest()`; its root.
    pub fn fetch(&mut self, d: usize) -> Result<NodeId, Error> {
        self.source.fetch(self.documents[d].record)
    }

    /// The evaluated fields of document `d` as a `serde_json` object.
    pub fn fields_value(&mut self, d: usize) -> Result<Value, Error> {
        let root = self.fetch(d)?;
        let skip = |k: &str| !self.scheme.is_evaluated(k);
        Ok(self.source.forest().get(root).to_value_without(&skip))
    }
}

/// What finding a record's raw output needs from the truth (SPEC §1.3).
#[derive(Debug, Clone)]
struct RawRule {
    id_field: Option<String>,
    truth_keys: HashSet<String>,
}

/// A model's predictions matched to the truth.
#[derive(Debug, Clone)]
pub struct Predictions<S> {
    /// For each truth document (same order), its prediction if any.
    pub by_truth: Vec<Option<PredDocument>>,
    /// Σ of numeric `cost` values on the file's records (SPEC §3.6).
    pub cost: Option<f64>,
    /// The records (and, when resident, the objects parsed from raw
    /// output).
    pub source: S,
    rule: RawRule,
}

impl<S: RecordSource> Predictions<S> {
    /// Makes the payload of the prediction for truth document `d`
    /// readable in `self.source.forest()`: its root, or `None` when there
    /// is no prediction or its raw output did not parse.
    pub fn fetch(&mut self, d: usize) -> Result<Option<NodeId>, Error> {
        let Some(doc) = self.by_truth.get(d).and_then(Option::as_ref) else {
            return Ok(None);
        };
        match doc.payload {
            Payload::Invalid => Ok(None),
            Payload::At(node) => Ok(Some(node)),
            Payload::Record => self.source.fetch(doc.record).map(Some),
            Payload::Raw => {
                let (record, fallback_key) = (doc.record, doc.fallback_key);
                let root = self.source.fetch(record)?;
                let rule = &self.rule;
                let text = payload_text(
                    self.source.forest().get(root),
                    rule.id_field.as_deref(),
                    fallback_key,
                    &rule.truth_keys,
                )
                .map(str::to_owned);
                let parsed =
                    text.and_then(|t| parse_model_output_into(self.source.forest_mut(), &t));
                match parsed {
                    Some(root) => Ok(Some(root)),
                    None => Err(Error::new(
                        ErrorKind::Io,
                        "the file changed while it was being read (a record's raw output no longer parses)",
                    )
                    .in_file(self.source.name())
                    .in_record(self.source.info(record).describe())),
                }
            }
        }
    }

    /// The evaluated fields of the prediction for truth document `d`, as a
    /// `serde_json` object (`None` when there is none or it did not parse).
    pub fn fields_value(&mut self, d: usize, scheme: &IdScheme) -> Result<Option<Value>, Error> {
        let Some(root) = self.fetch(d)? else {
            return Ok(None);
        };
        let Some(doc) = self.by_truth[d].as_ref() else {
            return Ok(None);
        };
        let skip = |k: &str| !doc.is_evaluated(scheme, k);
        Ok(Some(self.source.forest().get(root).to_value_without(&skip)))
    }
}

impl IdScheme {
    /// Whether a top-level key is evaluated: not the id field and not a
    /// metadata key (SPEC §1.2).
    pub fn is_evaluated(&self, key: &str) -> bool {
        Some(key) != self.field.as_deref()
            && !METADATA_KEYS.contains(&key)
            && key != self.confidence_key
    }
}

/// The text of an id value: a string trimmed, a number as its JSON text.
fn id_text(v: Json<'_>) -> Option<String> {
    if let Some(s) = v.as_str() {
        let t = s.trim();
        return (!t.is_empty()).then(|| t.to_string());
    }
    v.as_number().map(|n| n.to_string())
}

/// Reads the ground truth in one pass over `source`: chooses the id
/// field, drops duplicates (the first wins) and says so in `warnings`.
pub fn read_truth<S: RecordSource>(
    source: S,
    id_field: Option<&str>,
    warnings: &mut Vec<String>,
) -> Result<Truth<S>, Error> {
    let mut pace = NoPause;
    run_now(read_truth_paced(
        source,
        id_field,
        warnings,
        &mut pace,
        Progress::NONE,
    ))
    .and_then(Result::transpose)
    .unwrap_or_else(|| Err(Error::new(ErrorKind::Input, "the reading was paused")))
}

/// Where a pass over a file's records stands in a longer computation's
/// units (see `crate::eval::pace`): record `i` is at `start + min(i,
/// span - 1)` of `total`.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    pub start: usize,
    pub span: usize,
    pub total: usize,
}

impl Progress {
    /// For a pass no one watches.
    pub const NONE: Progress = Progress {
        start: 0,
        span: 1,
        total: 0,
    };

    fn at(&self, i: usize) -> usize {
        self.start + i.min(self.span.saturating_sub(1))
    }
}

/// [`read_truth`], asking `pace` before each record whether to wait or
/// stop (`Ok(None)`: stopped).
pub async fn read_truth_paced<S: RecordSource>(
    mut source: S,
    id_field: Option<&str>,
    warnings: &mut Vec<String>,
    pace: &mut dyn Pace,
    progress: Progress,
) -> Result<Option<Truth<S>>, Error> {
    let n = source.len();
    let from_keys = n > 0 && (0..n).all(|i| source.info(i).key.is_some());
    // Each candidate id field with the ids read so far; a candidate is
    // dropped at the first record without it (SPEC §1.1: the first
    // candidate every record carries), unless it was asked for.
    let names: Vec<&str> = match id_field {
        Some(f) => vec![f],
        None => ID_CANDIDATES.to_vec(),
    };
    let mut candidates: Vec<Option<Vec<Option<String>>>> =
        names.iter().map(|_| Some(Vec::with_capacity(n))).collect();
    let mut top_level_keys = HashSet::new();
    for i in 0..n {
        if should_stop(pace, progress.at(i), progress.total).await {
            return Ok(None);
        }
        let root = source.fetch(i)?;
        let fields = source.forest().get(root);
        for (k, _) in fields.entries() {
            if !top_level_keys.contains(k) {
                top_level_keys.insert(k.to_string());
            }
        }
        for (name, ids) in names.iter().zip(&mut candidates) {
            let Some(list) = ids else { continue };
            let id = fields.get(name).and_then(id_text);
            if id.is_none() && id_field.is_none() {
                *ids = None;
            } else {
                list.push(id);
            }
        }
    }
    let chosen = match id_field {
        Some(_) => candidates.swap_remove(0).map(|ids| (0, ids)),
        None if n == 0 => None,
        None => candidates
            .into_iter()
            .enumerate()
            .find_map(|(c, ids)| ids.map(|ids| (c, ids))),
    };
    let field = chosen.as_ref().map(|(c, _)| names[*c].to_string());
    let mut ids = chosen.map(|(_, ids)| ids).unwrap_or_default();
    let scheme = IdScheme {
        from_keys,
        field,
        confidence_key: CONFIDENCE_KEY.to_string(),
    };
    if scheme.by_position() && n > 0 {
        warnings.push(format!(
            "{}: no id field ({}) is carried by every record; documents are matched by their position",
            source.name(),
            ID_CANDIDATES.join(", ")
        ));
    }
    let mut seen = FxHashSet::default();
    let mut documents = Vec::with_capacity(n);
    let mut missing_ids = Vec::new();
    let mut duplicates = Vec::new();
    for i in 0..n {
        let r = source.info(i);
        let id = if scheme.from_keys {
            r.key.map(str::to_owned)
        } else if scheme.field.is_some() {
            ids.get_mut(i).and_then(Option::take)
        } else {
            Some(position_id(r.index))
        };
        let id = id.unwrap_or_else(|| {
            missing_ids.push(r.describe());
            position_id(r.index)
        });
        if !seen.insert(id.clone()) {
            duplicates.push(format!("{id:?} ({})", r.describe()));
            continue;
        }
        documents.push(TruthDocument { id, record: i });
    }
    if !missing_ids.is_empty() {
        warnings.push(format!(
            "{}: {} record(s) have no `{}` id and are identified by position: {}",
            source.name(),
            missing_ids.len(),
            scheme.field.as_deref().unwrap_or("id"),
            list_some(&missing_ids)
        ));
    }
    if !duplicates.is_empty() {
        warnings.push(format!(
            "{}: {} duplicate id(s); the first record with each id is used: {}",
            source.name(),
            duplicates.len(),
            list_some(&duplicates)
        ));
    }
    Ok(Some(Truth {
        scheme,
        documents,
        top_level_keys,
        source,
    }))
}

/// `#3` for the record at index 2.
fn position_id(index: usize) -> String {
    format!("#{}", index + 1)
}

/// At most ten items of a list, then "and N more".
pub fn list_some(items: &[String]) -> String {
    let shown: Vec<&str> = items.iter().take(10).map(|s| s.as_str()).collect();
    let mut s = shown.join(", ");
    if items.len() > 10 {
        s.push_str(&format!(", and {} more", items.len() - 10));
    }
    s
}

/// The id with a trailing file extension removed (`doc_001.jpg` →
/// `doc_001`): a final `.` that is not the first character, followed by 1
/// to 8 ASCII letters or digits with at least one letter.
pub fn strip_extension(id: &str) -> &str {
    match id.rfind('.') {
        Some(dot) if dot > 0 => {
            let ext = &id[dot + 1..];
            if (1..=8).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                && ext.bytes().any(|b| b.is_ascii_alphabetic())
            {
                &id[..dot]
            } else {
                id
            }
        }
        _ => id,
    }
}

/// Reads one model's prediction file and matches it to the truth: ids,
/// duplicates, the extension fallback, raw output (SPEC §1.1, §1.3) and
/// cost (SPEC §3.6).
pub fn read_predictions<S: RecordSource, T>(
    model: &str,
    source: S,
    truth: &Truth<T>,
    warnings: &mut Vec<String>,
) -> Result<Predictions<S>, Error> {
    let mut pace = NoPause;
    let read = read_predictions_paced(model, source, truth, warnings, &mut pace, Progress::NONE);
    run_now(read)
        .and_then(Result::transpose)
        .unwrap_or_else(|| Err(Error::new(ErrorKind::Input, "the reading was paused")))
}

/// [`read_predictions`], asking `pace` before each record whether to wait
/// or stop (`Ok(None)`: stopped).
pub async fn read_predictions_paced<S: RecordSource, T>(
    model: &str,
    mut source: S,
    truth: &Truth<T>,
    warnings: &mut Vec<String>,
    pace: &mut dyn Pace,
    progress: Progress,
) -> Result<Option<Predictions<S>>, Error> {
    let id_field = truth.scheme.field.as_deref();
    let resident = source.resident();
    let mut docs: Vec<PredDocument> = Vec::with_capacity(source.len());
    let mut seen = FxHashSet::default();
    let mut duplicates = Vec::new();
    let mut fallback_ids = 0usize;
    let mut unparsed = Vec::new();
    let mut cost: Option<f64> = None;
    for i in 0..source.len() {
        if should_stop(pace, progress.at(i), progress.total).await {
            return Ok(None);
        }
        let root = source.fetch(i)?;
        let r = source.info(i);
        let line = r.line;
        let fields = source.forest().get(root);
        if let Some(c) = fields.get("cost").and_then(Json::as_f64) {
            cost = Some(cost.unwrap_or(0.0) + c);
        }
        let batch = batch_content(fields).is_some();
        // The key a fallback id came from is not evaluated either.
        let mut fallback_key: Option<&'static str> = None;
        let id = if let Some(key) = r.key {
            key.to_owned()
        } else if batch {
            fields
                .get("custom_id")
                .and_then(id_text)
                .unwrap_or_else(|| position_id(r.index))
        } else if truth.scheme.by_position() {
            position_id(r.index)
        } else if let Some(id) = id_field.and_then(|f| fields.get(f)).and_then(id_text) {
            id
        } else if let Some((key, id)) = ID_CANDIDATES
            .iter()
            .find_map(|c| fields.get(c).and_then(id_text).map(|id| (*c, id)))
        {
            fallback_ids += 1;
            fallback_key = Some(key);
            id
        } else {
            fallback_ids += 1;
            position_id(r.index)
        };
        if !seen.insert(id.clone()) {
            duplicates.push(format!("{id:?} ({})", r.describe()));
            continue;
        }
        let raw_text =
            payload_text(fields, id_field, fallback_key, &truth.top_level_keys).map(str::to_owned);
        let raw = raw_text.is_some();
        let mut checked = None;
        let payload = match raw_text {
            Some(text) => match parse_model_output_into(source.forest_mut(), &text) {
                None => {
                    unparsed.push(format!("{id:?}"));
                    Payload::Invalid
                }
                Some(node) => {
                    checked = Some(node);
                    if resident {
                        Payload::At(node)
                    } else {
                        Payload::Raw
                    }
                }
            },
            None => {
                checked = Some(root);
                if resident {
                    Payload::At(root)
                } else {
                    Payload::Record
                }
            }
        };
        // SPEC §8.1: every confidence a number in [0, 1].
        if let Some(node) = checked {
            let key = &truth.scheme.confidence_key;
            check_record(
                source.forest().get(node),
                key,
                source.name(),
                line,
                &format!("record {id:?}"),
            )?;
        }
        docs.push(PredDocument {
            id,
            record: i,
            payload,
            raw,
            fallback_key,
        });
    }
    source.shrink();
    let file_name = source.name().to_owned();
    if fallback_ids > 0 {
        warnings.push(format!(
            "{} ({model}): {fallback_ids} record(s) have no `{}` field; another id field or the position was used",
            file_name,
            id_field.unwrap_or("id")
        ));
    }
    if !duplicates.is_empty() {
        warnings.push(format!(
            "{} ({model}): {} duplicate id(s); the first record with each id is used: {}",
            file_name,
            duplicates.len(),
            list_some(&duplicates)
        ));
    }
    if !unparsed.is_empty() {
        warnings.push(format!(
            "{} ({model}): the raw model output of {} record(s) did not parse to a JSON object; those documents are invalid and every truth value in them is missed: {}",
            file_name,
            unparsed.len(),
            list_some(&unparsed)
        ));
    }

    let truth_ids: FxHashMap<&str, usize> = truth
        .documents
        .iter()
        .enumerate()
        .map(|(i, d)| (d.id.as_str(), i))
        .collect();
    let any_exact = docs.iter().any(|d| truth_ids.contains_key(d.id.as_str()));
    let mut by_truth: Vec<Option<PredDocument>> =
        (0..truth.documents.len()).map(|_| None).collect();
    let mut unmatched = Vec::new();
    if any_exact || docs.is_empty() || truth.documents.is_empty() {
        for d in docs {
            match truth_ids.get(d.id.as_str()) {
                Some(&i) => by_truth[i] = Some(d),
                None => unmatched.push(format!("{:?}", d.id)),
            }
        }
    } else {
        let mut stripped: FxHashMap<&str, usize> = FxHashMap::default();
        for (i, t) in truth.documents.iter().enumerate() {
            stripped.entry(strip_extension(&t.id)).or_insert(i);
        }
        warnings.push(format!(
            "{} ({model}): no prediction id matched a ground-truth id exactly; ids were compared again with a trailing file extension removed",
            file_name
        ));
        for d in docs {
            match stripped.get(strip_extension(&d.id)) {
                Some(&i) if by_truth[i].is_none() => by_truth[i] = Some(d),
                Some(_) => unmatched.push(format!(
                    "{:?} (a second match after removing the extension)",
                    d.id
                )),
                None => unmatched.push(format!("{:?}", d.id)),
            }
        }
    }
    if !unmatched.is_empty() {
        warnings.push(format!(
            "{} ({model}): {} prediction record(s) have no ground-truth record and are ignored: {}",
            file_name,
            unmatched.len(),
            list_some(&unmatched)
        ));
    }
    let missing: Vec<String> = truth
        .documents
        .iter()
        .zip(&by_truth)
        .filter(|(_, p)| p.is_none())
        .map(|(t, _)| format!("{:?}", t.id))
        .collect();
    if !missing.is_empty() {
        warnings.push(format!(
            "{} ({model}): {} ground-truth document(s) have no prediction record and count as empty predictions (every truth value missed, not schema-valid): {}",
            file_name,
            missing.len(),
            list_some(&missing)
        ));
    }
    Ok(Some(Predictions {
        by_truth,
        cost,
        source,
        rule: RawRule {
            id_field: id_field.map(str::to_owned),
            truth_keys: truth.top_level_keys.clone(),
        },
    }))
}

/// The raw text of a record whose payload is a model's output (SPEC
/// §1.3): an OpenAI Batch API line's content, or the one raw-output field
/// ([`raw_output_text`]); `None` when the record is its own payload.
fn payload_text<'r>(
    fields: Json<'r>,
    id_field: Option<&str>,
    fallback_key: Option<&str>,
    truth_keys: &HashSet<String>,
) -> Option<&'r str> {
    match batch_content(fields) {
        Some(content) => Some(content),
        None => raw_output_text(fields, id_field, fallback_key, truth_keys),
    }
}

/// The raw text of a record whose payload is a model's output (SPEC §1.3):
/// apart from the id and metadata keys it has exactly one field, a string,
/// named one of [`RAW_OUTPUT_KEYS`], and the truth has no field of that name.
fn raw_output_text<'r>(
    fields: Json<'r>,
    id_field: Option<&str>,
    fallback_key: Option<&str>,
    truth_keys: &HashSet<String>,
) -> Option<&'r str> {
    let mut rest = fields.entries().filter(|(k, _)| {
        Some(*k) != id_field && Some(*k) != fallback_key && !METADATA_KEYS.contains(k)
    });
    let (key, value) = rest.next()?;
    if rest.next().is_some() || !RAW_OUTPUT_KEYS.contains(&key) || truth_keys.contains(key) {
        return None;
    }
    value.as_str()
}

/// An OpenAI Batch API output line: `custom_id` and
/// `response.body.choices[0].message.content`. Returns the content, or an
/// empty string (which will not parse) when the line reports an error.
fn batch_content(fields: Json<'_>) -> Option<&str> {
    fields.get("custom_id")?;
    let response = fields.get("response");
    let content = response
        .and_then(|r| r.step("body"))
        .and_then(|b| b.step("choices"))
        .and_then(|c| c.step("0"))
        .and_then(|c| c.step("message"))
        .and_then(|m| m.step("content"))
        .and_then(Json::as_str);
    match content {
        Some(c) => Some(c),
        None if response.is_some_and(|r| r.get("body").is_some())
            || fields.get("error").is_some_and(|e| !e.is_null()) =>
        {
            Some("")
        }
        None => None,
    }
}

/// Parses a model's raw text (SPEC §1.3): as JSON after removing a
/// Markdown code fence; failing that, the first balanced `{…}` block.
/// Returns the object, NFC-normalised, or `None` when nothing parses to an
/// object.
///
/// ```
/// use fieldscope::eval::dataset::parse_model_output;
/// let m = parse_model_output("Sure!\n```json\n{\"total\": 5}\n```").unwrap();
/// assert_eq!(m["total"], 5);
/// let m = parse_model_output("The answer is {\"a\": \"}\"} as asked.").unwrap();
/// assert_eq!(m["a"], "}");
/// assert!(parse_model_output("no json here").is_none());
/// ```
pub fn parse_model_output(text: &str) -> Option<Map<String, Value>> {
    let as_object = |t: &str| match serde_json::from_str::<Value>(t) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    };
    // A payload must be an object: text that parses to anything else counts
    // as a failure, and the first balanced block is tried.
    let mut map = as_object(strip_code_fence(text).trim())
        .or_else(|| first_balanced_object(text).and_then(as_object))?;
    nfc_map(&mut map);
    Some(map)
}

/// [`parse_model_output`] straight into `forest`: the object's node, or
/// `None` when nothing parses to an object (or, beyond 4 GiB of text,
/// the forest is full). The forest's parser is serde_json's, with the
/// same NFC rules, so the object is the one `parse_model_output` returns.
fn parse_model_output_into(forest: &mut Forest, text: &str) -> Option<NodeId> {
    // A payload must be an object: text that parses to anything else counts
    // as a failure, and the first balanced block is tried (the nodes of the
    // failed parse stay in the forest, unreferenced).
    let unfenced = strip_code_fence(text);
    let as_object = |forest: &mut Forest, t: &str| {
        let root = forest.parse_record(t).ok()?;
        forest.get(root).is_object().then_some(root)
    };
    as_object(forest, unfenced.trim()).or_else(|| as_object(forest, first_balanced_object(text)?))
}

/// The inside of the first Markdown code fence (```` ```json … ``` ````),
/// or the text itself when there is none.
fn strip_code_fence(text: &str) -> &str {
    let Some(open) = text.find("```") else {
        return text;
    };
    let after = &text[open + 3..];
    // Skip the info string (e.g. `json`) up to the end of the line.
    let body_start = after.find('\n').map(|i| i + 1).unwrap_or(after.len());
    let body = &after[body_start..];
    match body.find("```") {
        Some(close) => &body[..close],
        None => body,
    }
}

/// The first `{…}` block whose braces balance, skipping braces inside JSON
/// strings.
fn first_balanced_object(text: &str) -> Option<&str> {
    let start = text.find('{')?;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text[start..].char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[start..start + i + 1]);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests;
