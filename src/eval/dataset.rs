//! From records to documents (SPEC §1.1, §1.3): ids, duplicates, matching
//! predictions to ground truth, raw model output and cost.
//!
//! Owns: reading a record's id, choosing the id field, the extension
//! fallback, the raw-output payload extraction, and the warnings all of
//! these produce. Pure (parsing a model's text with `serde_json` is not
//! I/O); depends on `model`, `config`.

use crate::eval::model::{DocFile, DocRecord};
use crate::eval::nfc::nfc_map;
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
}

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
    /// A JSON object in [`Truth::forest`].
    pub root: NodeId,
}

/// A prediction document.
#[derive(Debug, Clone)]
pub struct PredDocument {
    pub id: String,
    /// The payload (an object in [`Predictions::forest`]: the record, or
    /// the object parsed from its raw output); `None` when the model's raw
    /// output did not parse to a JSON object (SPEC §1.3).
    pub root: Option<NodeId>,
    /// A top-level key of the record that is not evaluated: the id key
    /// found by the fallback of SPEC §1.2 when the record is its own
    /// payload (the key an id came from is never a field).
    pub skip: Option<&'static str>,
}

impl PredDocument {
    /// Whether a top-level key of this prediction is evaluated under
    /// `scheme` (SPEC §1.2): not the id field, not metadata, not the
    /// fallback id key.
    pub fn is_evaluated(&self, scheme: &IdScheme, key: &str) -> bool {
        scheme.is_evaluated(key) && Some(key) != self.skip
    }
}

/// The ground truth, ready to evaluate.
#[derive(Debug, Clone)]
pub struct Truth {
    pub scheme: IdScheme,
    pub documents: Vec<TruthDocument>,
    /// Top-level keys seen in any truth record (for raw-output detection).
    pub top_level_keys: HashSet<String>,
    /// The records.
    pub forest: Forest,
}

impl Truth {
    /// The evaluated fields of document `d` as a `serde_json` object.
    pub fn fields_value(&self, d: usize) -> Value {
        let skip = |k: &str| !self.scheme.is_evaluated(k);
        self.forest
            .get(self.documents[d].root)
            .to_value_without(&skip)
    }
}

/// A model's predictions matched to the truth.
#[derive(Debug, Clone)]
pub struct Predictions {
    /// For each truth document (same order), its prediction if any.
    pub by_truth: Vec<Option<PredDocument>>,
    /// Σ of numeric `cost` values on the file's records (SPEC §3.6).
    pub cost: Option<f64>,
    /// The records and the objects parsed from raw output.
    pub forest: Forest,
}

impl Predictions {
    /// The evaluated fields of the prediction for truth document `d`, as a
    /// `serde_json` object (`None` when there is none or it did not parse).
    pub fn fields_value(&self, d: usize, scheme: &IdScheme) -> Option<Value> {
        let doc = self.by_truth.get(d)?.as_ref()?;
        let root = doc.root?;
        let skip = |k: &str| !doc.is_evaluated(scheme, k);
        Some(self.forest.get(root).to_value_without(&skip))
    }
}

impl IdScheme {
    /// Whether a top-level key is evaluated: not the id field and not a
    /// metadata key (SPEC §1.2).
    pub fn is_evaluated(&self, key: &str) -> bool {
        Some(key) != self.field.as_deref() && !METADATA_KEYS.contains(&key)
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

fn has_id(forest: &Forest, r: &DocRecord, field: &str) -> bool {
    forest.get(r.root).get(field).and_then(id_text).is_some()
}

/// Reads the ground truth: chooses the id field, drops duplicates (the
/// first wins) and says so in `warnings`.
pub fn read_truth(file: DocFile, id_field: Option<&str>, warnings: &mut Vec<String>) -> Truth {
    let from_keys = !file.records.is_empty() && file.records.iter().all(|r| r.key.is_some());
    let forest = &file.forest;
    let field = match id_field {
        Some(f) => Some(f.to_string()),
        None => ID_CANDIDATES
            .iter()
            .find(|c| !file.records.is_empty() && file.records.iter().all(|r| has_id(forest, r, c)))
            .map(|c| c.to_string()),
    };
    let scheme = IdScheme { from_keys, field };
    if scheme.by_position() && !file.records.is_empty() {
        warnings.push(format!(
            "{}: no id field ({}) is carried by every record; documents are matched by their position",
            file.name,
            ID_CANDIDATES.join(", ")
        ));
    }
    let mut seen = FxHashSet::default();
    let mut documents = Vec::with_capacity(file.records.len());
    let mut top_level_keys = HashSet::new();
    let mut missing_ids = Vec::new();
    let mut duplicates = Vec::new();
    for r in file.records {
        let fields = forest.get(r.root);
        for (k, _) in fields.entries() {
            if !top_level_keys.contains(k) {
                top_level_keys.insert(k.to_string());
            }
        }
        let id = if scheme.from_keys {
            r.key.clone()
        } else if let Some(f) = &scheme.field {
            fields.get(f).and_then(id_text)
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
        documents.push(TruthDocument { id, root: r.root });
    }
    if !missing_ids.is_empty() {
        warnings.push(format!(
            "{}: {} record(s) have no `{}` id and are identified by position: {}",
            file.name,
            missing_ids.len(),
            scheme.field.as_deref().unwrap_or("id"),
            list_some(&missing_ids)
        ));
    }
    if !duplicates.is_empty() {
        warnings.push(format!(
            "{}: {} duplicate id(s); the first record with each id is used: {}",
            file.name,
            duplicates.len(),
            list_some(&duplicates)
        ));
    }
    Truth {
        scheme,
        documents,
        top_level_keys,
        forest: file.forest,
    }
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
pub fn read_predictions(
    model: &str,
    file: DocFile,
    truth: &Truth,
    warnings: &mut Vec<String>,
) -> Predictions {
    let id_field = truth.scheme.field.as_deref();
    let DocFile {
        name: file_name,
        mut forest,
        records,
    } = file;
    let mut docs: Vec<PredDocument> = Vec::with_capacity(records.len());
    let mut seen = FxHashSet::default();
    let mut duplicates = Vec::new();
    let mut fallback_ids = 0usize;
    let mut unparsed = Vec::new();
    let mut cost: Option<f64> = None;
    for r in records {
        let fields = forest.get(r.root);
        if let Some(c) = fields.get("cost").and_then(Json::as_f64) {
            cost = Some(cost.unwrap_or(0.0) + c);
        }
        let batch = batch_content(fields);
        // The key a fallback id came from is not evaluated either.
        let mut fallback_key: Option<&'static str> = None;
        let id = if let Some(key) = &r.key {
            key.clone()
        } else if batch.is_some() {
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
        let raw_text = match batch {
            Some(content) => Some(content),
            None => raw_output_text(fields, id_field, fallback_key, &truth.top_level_keys),
        };
        let raw_text = raw_text.map(str::to_owned);
        let (root, skip) = match raw_text {
            Some(text) => {
                let parsed = parse_model_output_into(&mut forest, &text);
                if parsed.is_none() {
                    unparsed.push(format!("{id:?}"));
                }
                (parsed, None)
            }
            None => (Some(r.root), fallback_key),
        };
        docs.push(PredDocument { id, root, skip });
    }
    forest.shrink();
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
    Predictions {
        by_truth,
        cost,
        forest,
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
mod tests {
    use super::*;
    use serde_json::json;

    fn file(name: &str, values: Vec<Value>) -> DocFile {
        DocFile::of_values(name, values)
    }

    /// The evaluated fields of a model's prediction for truth document `d`.
    fn pred(preds: &Predictions, truth: &Truth, d: usize) -> Option<Value> {
        preds.fields_value(d, &truth.scheme)
    }

    #[test]
    fn id_field_is_the_first_candidate_every_record_carries() {
        let t = file(
            "t.json",
            vec![
                json!({"filename": "a.png", "doc_id": 1}),
                json!({"filename": "b.png", "doc_id": 2}),
            ],
        );
        let mut w = vec![];
        let truth = read_truth(t.clone(), None, &mut w);
        assert_eq!(truth.scheme.field.as_deref(), Some("filename"));
        assert_eq!(truth.documents[1].id, "b.png");
        assert!(truth.fields_value(0).get("filename").is_none());
        assert!(w.is_empty());
        let truth = read_truth(t.clone(), Some("doc_id"), &mut w);
        assert_eq!(truth.documents[0].id, "1");
    }

    #[test]
    fn position_ids_are_warned() {
        let t = file("t.json", vec![json!({"a": 1}), json!({"a": 2})]);
        let mut w = vec![];
        let truth = read_truth(t.clone(), None, &mut w);
        assert!(truth.scheme.by_position());
        assert_eq!(truth.documents[1].id, "#2");
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("matched by their position"));
    }

    #[test]
    fn duplicates_keep_the_first_and_warn() {
        let t = file(
            "t.json",
            vec![json!({"id": "a", "x": 1}), json!({"id": " a ", "x": 2})],
        );
        let mut w = vec![];
        let truth = read_truth(t.clone(), None, &mut w);
        assert_eq!(truth.documents.len(), 1);
        assert_eq!(truth.fields_value(0)["x"], 1);
        assert!(w[0].contains("1 duplicate id(s)"), "{w:?}");
    }

    #[test]
    fn predictions_match_by_id_and_fall_back_to_stripped_extensions() {
        let t = file(
            "t.json",
            vec![
                json!({"id": "doc_001.jpg", "x": 1}),
                json!({"id": "doc_002.jpg", "x": 2}),
            ],
        );
        let p = file(
            "p.json",
            vec![
                json!({"id": "doc_002", "x": 2}),
                json!({"id": "doc_009", "x": 9}),
            ],
        );
        let mut w = vec![];
        let truth = read_truth(t.clone(), None, &mut w);
        let preds = read_predictions("m", p, &truth, &mut w);
        assert!(preds.by_truth[0].is_none());
        assert_eq!(preds.by_truth[1].as_ref().unwrap().id, "doc_002");
        assert!(w
            .iter()
            .any(|m| m.contains("trailing file extension removed")));
        assert!(w.iter().any(
            |m| m.contains("1 prediction record(s) have no ground-truth record")
                && m.contains("doc_009")
        ));
        assert!(w.iter().any(|m| m
            .contains("1 ground-truth document(s) have no prediction record")
            && m.contains("doc_001.jpg")));
    }

    #[test]
    fn a_fallback_id_key_is_not_a_field() {
        let t = file("t.json", vec![json!({"filename": "a.png", "x": 1})]);
        let p = file(
            "p.json",
            vec![
                json!({"id": "a.png", "x": 1}),
                json!({"doc_id": "b", "output": "{\"x\": 2}"}),
            ],
        );
        let mut w = vec![];
        let truth = read_truth(t, None, &mut w);
        let preds = read_predictions("m", p, &truth, &mut w);
        assert_eq!(pred(&preds, &truth, 0), Some(json!({"x": 1})));
        assert!(
            w.iter()
                .any(|m| m.contains("2 record(s) have no `filename` field")),
            "{w:?}"
        );
    }

    #[test]
    fn strip_extension_rules() {
        assert_eq!(strip_extension("doc_001.jpg"), "doc_001");
        assert_eq!(strip_extension("a.b.PDF"), "a.b");
        assert_eq!(strip_extension(".env"), ".env");
        assert_eq!(strip_extension("v1.2"), "v1.2");
        assert_eq!(strip_extension("doc"), "doc");
    }

    #[test]
    fn raw_output_records_are_parsed() {
        let t = file(
            "t.json",
            vec![
                json!({"id": "a", "total": 5}),
                json!({"id": "b", "total": 6}),
            ],
        );
        let p = file(
            "p.jsonl",
            vec![
                json!({"id": "a", "output": "```json\n{\"total\": 5}\n```", "cost": 0.5}),
                json!({"id": "b", "response": "sorry, I can't", "cost": 0.25}),
            ],
        );
        let mut w = vec![];
        let truth = read_truth(t.clone(), None, &mut w);
        let preds = read_predictions("m", p, &truth, &mut w);
        assert_eq!(pred(&preds, &truth, 0).unwrap()["total"], 5);
        assert!(preds.by_truth[1].as_ref().unwrap().root.is_none());
        assert!(pred(&preds, &truth, 1).is_none());
        assert_eq!(preds.cost, Some(0.75));
        assert!(w.iter().any(|m| m.contains("did not parse")));
    }

    #[test]
    fn raw_output_key_that_the_truth_has_is_a_field() {
        let t = file("t.json", vec![json!({"id": "a", "text": "hello"})]);
        let p = file("p.json", vec![json!({"id": "a", "text": "{\"x\": 1}"})]);
        let mut w = vec![];
        let truth = read_truth(t.clone(), None, &mut w);
        let preds = read_predictions("m", p, &truth, &mut w);
        assert_eq!(pred(&preds, &truth, 0).unwrap()["text"], "{\"x\": 1}");
    }

    #[test]
    fn openai_batch_lines() {
        let t = file("t.json", vec![json!({"id": "a", "total": 5})]);
        let p = file(
            "batch.jsonl",
            vec![json!({
                "id": "batch_req_1", "custom_id": "a",
                "response": {"status_code": 200, "body": {"choices": [{"message": {"content": "{\"total\": 5}"}}]}},
                "error": null
            })],
        );
        let mut w = vec![];
        let truth = read_truth(t.clone(), None, &mut w);
        let preds = read_predictions("m", p, &truth, &mut w);
        let doc = preds.by_truth[0].as_ref().unwrap();
        assert_eq!(doc.id, "a");
        assert_eq!(pred(&preds, &truth, 0).unwrap()["total"], 5);
        // The id field and the metadata keys are not among the fields.
        assert_eq!(pred(&preds, &truth, 0).unwrap(), json!({"total": 5}));
    }

    #[test]
    fn model_output_parsed_into_a_forest_is_the_same() {
        for text in [
            "{\"a\":1}",
            "```\n{\"a\":1}\n```",
            "```json\n{\"a\": [1, {\"b\": \"x\"}]}\n``` trailing",
            "Here: {\"a\": {\"b\": 2}} done {\"c\":3}",
            "[1,2]",
            "[{\"a\": 1}]",
            "```json\n[{\"a\": 2}]\n```",
            "{unbalanced",
            "",
            "null",
            "{\"e\\u0301\": \"cafe\\u0301\", \"é\": 2, \"a\": 1, \"a\": 3}",
            "text {\"a\": \"}\"} more",
            "{\"a\": 1e400}",
        ] {
            let mut forest = Forest::default();
            let via_forest =
                parse_model_output_into(&mut forest, text).map(|root| forest.get(root).to_value());
            let via_value = parse_model_output(text).map(Value::Object);
            assert_eq!(via_forest, via_value, "{text:?}");
        }
    }

    #[test]
    fn model_output_parsing() {
        assert_eq!(parse_model_output("{\"a\":1}").unwrap()["a"], 1);
        assert_eq!(parse_model_output("```\n{\"a\":1}\n```").unwrap()["a"], 1);
        assert_eq!(
            parse_model_output("Here: {\"a\": {\"b\": 2}} done {\"c\":3}").unwrap()["a"]["b"],
            2
        );
        assert!(parse_model_output("[1,2]").is_none());
        assert_eq!(parse_model_output("[{\"a\": 1}]").unwrap()["a"], 1);
        assert!(parse_model_output("{unbalanced").is_none());
        assert!(parse_model_output("").is_none());
        let m = parse_model_output("{\"e\\u0301\": \"cafe\\u0301\"}").unwrap();
        assert_eq!(m["é"], "café");
    }
}
