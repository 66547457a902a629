//! Partial results: an evaluation split over shards of the documents and
//! merged into the report one evaluation of all of them gives, byte for
//! byte (`fieldscope learn`, `eval --partial`, `fieldscope merge`; the
//! design and the format: docs/partial-results.md).
//!
//! Owns: [`Learned`] (what the passes before the comparison learn of the
//! whole dataset: ids, warnings, costs, the paths and their kinds, SPEC
//! §1.1–§1.3 — the decisions one run makes, made once by [`learn`] over
//! every document and given to each shard), the partial result's format (a
//! CBOR sequence: a [`PartialHeader`], then one item per document: its id
//! and each model's `DocOut`), [`evaluate_partial`] (one shard's
//! comparison pass, as bytes) and [`merge_partials`] (the bytes of every
//! shard → the [`Report`], the per-document contributions absorbed in
//! order as one pass absorbs them), with every check that refuses
//! partials which do not belong together. Pure: bytes in, bytes or a
//! report out; depends on the parent's passes and on ciborium.

use super::comparison::{audit_document, build_report, compare_pass};
use super::doc_out::DocOut;
use super::pass::{Docs, Pass, COMPARE_FLATTENING, LEARN};
use super::{
    into_doc_files, learn_paced, settle_schemas, Comparer, EvalInput, IntoDocFile, Learnt,
    ModelRun, PathInfo, Paths, Progress,
};
use crate::error::{Error, ErrorKind};
use crate::eval::bootstrap::{bootstrap_report, BootstrapOptions};
use crate::eval::compare::SchemaHint;
use crate::eval::config::Config;
use crate::eval::dataset::IdScheme;
use crate::eval::pace::{run_now, NoPause};
use crate::eval::paths::{Ignored, Kind, PathCache, PathTable};
use crate::eval::report::Report;
use crate::eval::source::RecordSource;
use crate::eval::suggest::PathTally;
use crate::eval::validate::ForestValidator;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// The version of the partial-result and learned-fields formats; a file
/// of another version is refused.
/// Format 2: [`PathFacts::tally`] and [`PartialHeader::tallies`] (SPEC
/// §7.4's suggestions). Format 3: each comparison's error type (SPEC
/// §9.1).
pub const PARTIAL_FORMAT: u32 = 3;

/// This build's version, carried by every partial and learned file.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What one evaluation learns of the whole dataset before it compares
/// anything, in a form that can be stored and given to each shard: the
/// effective configuration and the schema's fingerprint it was learnt
/// under, the model names, the truth's document ids in order (SPEC §1.1),
/// the warnings of the passes that read the files, each model's cost
/// (SPEC §3.6), the id scheme and every path with what was learnt of it
/// (SPEC §1.2: [`PathFacts`]). Equal for every shard of one evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Learned {
    pub fieldscope_learned: u32,
    pub fieldscope_version: String,
    /// `Config::to_json` of the effective configuration.
    pub config: Value,
    /// FNV-1a 64 of the schema's JSON text (compact, keys in order), if any.
    pub schema: Option<String>,
    pub models: Vec<String>,
    /// Each model's cost: `--cost` or the sum of its records' costs.
    pub costs: Vec<Option<f64>>,
    pub documents: Vec<String>,
    pub warnings: Vec<String>,
    pub id_from_keys: bool,
    pub id_field: Option<String>,
    /// Every path, in the order the evaluation met it (its id).
    pub paths: Vec<PathFacts>,
}

/// What is known of one path across the whole dataset (SPEC §1.2): its
/// kind (from the schema, else the truth's first present value, else the
/// predictions'), the schema's type hint, where it was seen, whether a
/// present value was seen, its item list, whether other paths lie beneath
/// it. Facts about the truth values that later reports need (SPEC §7.4's
/// suggestions, say) belong here too: [`learn`] sees every truth value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathFacts {
    pub name: String,
    /// `scalar`, `set` or `items`; none when no present value was seen.
    pub kind: Option<String>,
    /// `string`, `number`, `date` or `boolean`.
    pub hint: Option<String>,
    pub in_schema: bool,
    pub in_truth: bool,
    /// Seen in each model's predictions.
    pub in_model: Vec<bool>,
    pub any_present: bool,
    /// The path id of its item list.
    pub list: Option<usize>,
    pub has_children: bool,
    /// What was counted of its present truth values (SPEC §7.4).
    pub tally: PathTally,
}

/// The first item of a partial result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartialHeader {
    pub fieldscope_partial: u32,
    pub fieldscope_version: String,
    /// The documents of this shard.
    pub documents: usize,
    /// Whether each compared value is kept (`merge --details` needs it).
    pub details: bool,
    pub learned: Learned,
    /// This shard's own count of each learnt path's present truth values
    /// (SPEC §7.4), in the order of `learned.paths`: `merge` sums them
    /// over the shards and decides the suggestions once.
    pub tallies: Vec<PathTally>,
}

/// What `merge` adds to the report: `document_details` (partials made
/// with details), the bootstrap.
#[derive(Debug, Clone, Default)]
pub struct MergeOptions {
    pub details: bool,
    pub bootstrap: Option<BootstrapOptions>,
}

const KINDS: [(Kind, &str); 3] = [
    (Kind::Scalar, "scalar"),
    (Kind::Set, "set"),
    (Kind::Items, "items"),
];
const HINTS: [(SchemaHint, &str); 4] = [
    (SchemaHint::String, "string"),
    (SchemaHint::Number, "number"),
    (SchemaHint::Date, "date"),
    (SchemaHint::Boolean, "boolean"),
];

fn bad_file(name: &str, what: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Input, what.to_string()).in_file(name)
}

/// FNV-1a, 64 bits, in hex: a fingerprint that is the same on every
/// platform and in every build.
fn fingerprint(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn schema_fingerprint(schema: Option<&Value>) -> Option<String> {
    schema.map(|s| fingerprint(s.to_string().as_bytes()))
}

impl Learned {
    /// What `learnt` (one run's passes before the comparison) learnt.
    fn of<S: RecordSource>(learnt: &Learnt<S>, config: &Config, schema: Option<&Value>) -> Self {
        let paths = &learnt.paths;
        Learned {
            fieldscope_learned: PARTIAL_FORMAT,
            fieldscope_version: VERSION.to_string(),
            config: config.to_json(),
            schema: schema_fingerprint(schema),
            models: learnt.models.iter().map(|(n, _, _)| n.clone()).collect(),
            costs: learnt
                .models
                .iter()
                .map(|(_, cost, preds)| cost.or(preds.cost))
                .collect(),
            documents: learnt
                .truth
                .documents
                .iter()
                .map(|d| d.id.clone())
                .collect(),
            warnings: learnt.warnings.clone(),
            id_from_keys: paths.scheme.from_keys,
            id_field: paths.scheme.field.clone(),
            paths: (0..paths.table.len())
                .map(|id| {
                    let info = &paths.info[id];
                    PathFacts {
                        name: paths.table.name(id).to_string(),
                        kind: info
                            .kind
                            .and_then(|k| KINDS.iter().find(|(x, _)| *x == k))
                            .map(|(_, n)| n.to_string()),
                        hint: info
                            .hint
                            .and_then(|h| HINTS.iter().find(|(x, _)| *x == h))
                            .map(|(_, n)| n.to_string()),
                        in_schema: info.in_schema,
                        in_truth: info.in_truth,
                        in_model: info.in_model.clone(),
                        any_present: info.any_present,
                        list: info.list,
                        has_children: info.has_children,
                        tally: info.tally,
                    }
                })
                .collect(),
        }
    }

    /// The paths as the evaluation holds them (comparison types fixed
    /// under `comparer`'s settings). `name` names the file in errors.
    fn to_paths(&self, comparer: &Comparer<'_>, name: &str) -> Result<Paths, Error> {
        let config = comparer.config;
        let mut table = PathTable::default();
        let mut info = Vec::with_capacity(self.paths.len());
        let models = self.models.len();
        for (i, p) in self.paths.iter().enumerate() {
            if table.id(&p.name) != i || p.in_model.len() != models {
                return Err(bad_file(
                    name,
                    format!("path {:?} is not well formed", p.name),
                ));
            }
            let kind = match &p.kind {
                None => None,
                Some(k) => Some(
                    KINDS
                        .iter()
                        .find(|(_, n)| n == k)
                        .map(|(x, _)| *x)
                        .ok_or_else(|| {
                            bad_file(name, format!("path {:?}: unknown kind {k:?}", p.name))
                        })?,
                ),
            };
            let hint = match &p.hint {
                None => None,
                Some(h) => Some(
                    HINTS
                        .iter()
                        .find(|(_, n)| n == h)
                        .map(|(x, _)| *x)
                        .ok_or_else(|| {
                            bad_file(name, format!("path {:?}: unknown type {h:?}", p.name))
                        })?,
                ),
            };
            if p.list.is_some_and(|l| l >= self.paths.len()) {
                return Err(bad_file(
                    name,
                    format!("path {:?}: no such item list", p.name),
                ));
            }
            info.push(PathInfo {
                kind,
                hint,
                fixed_type: None,
                in_schema: p.in_schema,
                in_truth: p.in_truth,
                in_model: p.in_model.clone(),
                any_present: p.any_present,
                list: p.list,
                has_children: p.has_children,
                tally: p.tally,
                items_in_a_schema: false,
                typed_in_a_schema: false,
            });
        }
        let mut paths = Paths {
            table,
            info,
            models,
            ignored: Ignored::new(&config.ignored_fields),
            scheme: IdScheme {
                from_keys: self.id_from_keys,
                field: self.id_field.clone(),
                confidence_key: config.confidence.key.clone(),
            },
            buf: String::new(),
            raw: Vec::new(),
            several: None,
        };
        paths.fix_types(comparer);
        Ok(paths)
    }

    /// The encoded learned fields (what `fieldscope learn` writes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // Writing to a vector cannot fail.
        let _ = ciborium::into_writer(self, &mut out);
        out
    }

    /// The first difference from `other` that makes their shards
    /// incompatible, in words; `None` when they are equal.
    fn difference(&self, other: &Learned) -> Option<String> {
        if self.fieldscope_version != other.fieldscope_version {
            return Some(format!(
                "fieldscope version {} vs {}",
                self.fieldscope_version, other.fieldscope_version
            ));
        }
        if self.config != other.config {
            let keys = differing_keys(&self.config, &other.config);
            return Some(format!(
                "the configuration differs (keys: {})",
                keys.join(", ")
            ));
        }
        if self.schema != other.schema {
            return Some("the schema differs".to_string());
        }
        if self.models != other.models {
            return Some(format!(
                "the model names differ ({} vs {})",
                self.models.join(", "),
                other.models.join(", ")
            ));
        }
        if self != other {
            return Some(
                "they were learnt from other documents (make every partial with the same --learned file, written by `fieldscope learn` over all the documents)"
                    .to_string(),
            );
        }
        None
    }
}

/// The top-level keys (or `a.b` for nested objects) where two
/// configurations differ.
fn differing_keys(a: &Value, b: &Value) -> Vec<String> {
    let (Value::Object(a), Value::Object(b)) = (a, b) else {
        return vec!["(the whole value)".to_string()];
    };
    let mut keys: Vec<String> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// Reads a learned-fields file (from [`Learned::to_bytes`]).
pub fn read_learned(name: &str, bytes: &[u8]) -> Result<Learned, Error> {
    let probe: Value = ciborium::from_reader(bytes)
        .map_err(|_| bad_file(name, "not a fieldscope learned-fields file (not CBOR)"))?;
    check_version(name, &probe, "fieldscope_learned", "learned-fields file")?;
    ciborium::from_reader(bytes)
        .map_err(|e| bad_file(name, format!("a broken learned-fields file: {e}")))
}

/// Refuses a file of another format version or fieldscope version,
/// naming both.
fn check_version(name: &str, probe: &Value, key: &str, what: &str) -> Result<(), Error> {
    let format = probe.get(key).and_then(Value::as_u64);
    let version = probe.get("fieldscope_version").and_then(Value::as_str);
    match (format, version) {
        (Some(f), _) if f != u64::from(PARTIAL_FORMAT) => Err(bad_file(
            name,
            format!("a {what} of format {f}; this fieldscope ({VERSION}) reads format {PARTIAL_FORMAT}"),
        )),
        (Some(_), Some(v)) if v != VERSION => Err(bad_file(
            name,
            format!("a {what} written by fieldscope {v}; this is fieldscope {VERSION} (use the same version everywhere)"),
        )),
        (Some(_), Some(_)) => Ok(()),
        _ => Err(bad_file(name, format!("not a fieldscope {what}"))),
    }
}

/// Several schemas (SPEC §7.2) are refused: a learnt-fields file and a
/// partial result hold one dataset-wide field set, while with several
/// each document has its own. (A lone named schema is the dataset's.)
fn refuse_several<F>(input: &mut EvalInput<F>, config: &Config) -> Result<(), Error> {
    settle_schemas(input, config.schema_by.as_deref())?;
    if input.has_several_schemas() {
        return Err(Error::new(
            ErrorKind::Usage,
            "several schemas cannot be learnt or evaluated in shards (learn, partial results, merge): a learnt-fields file holds one dataset-wide field set, and with several schemas each document has its own (SPEC §7.2); evaluate every document in one run",
        ));
    }
    Ok(())
}

/// The passes before the comparison over every document (SPEC
/// §1.1–§1.3): what each shard's [`evaluate_partial`] takes, so that
/// every shard compares with the decisions of the whole run.
///
/// Errors: those of [`super::evaluate`].
pub fn learn<F: IntoDocFile>(input: EvalInput<F>, config: &Config) -> Result<Learned, Error> {
    let mut input = into_doc_files(input)?;
    refuse_several(&mut input, config)?;
    if let Some(schema) = &input.schema {
        ForestValidator::new(schema)?;
    }
    let schema = input.schema.clone();
    let comparer = Comparer::new(config);
    let learnt = run_now(learn_paced(input, &comparer, &mut NoPause, 1))
        .transpose()?
        .flatten()
        .ok_or_else(|| Error::new(ErrorKind::Input, "the evaluation was paused"))?;
    Ok(Learned::of(&learnt, config, schema.as_ref()))
}

/// One shard's partial result: its documents compared under `learned`
/// (from [`learn`] over every document; `None`: what this shard alone
/// learns, which merges only with itself), as bytes (a CBOR sequence:
/// [`PartialHeader`], then per document its id and each model's
/// contribution). `details` keeps each compared value.
///
/// Errors: those of [`super::evaluate`]; a `learned` made under another
/// configuration, schema or model names, or a shard holding a field the
/// learnt fields do not know (the shard is not among the documents
/// `learn` read).
pub fn evaluate_partial<S: RecordSource>(
    input: EvalInput<S>,
    config: &Config,
    learned: Option<&Learned>,
    details: bool,
) -> Result<Vec<u8>, Error> {
    let mut input = input;
    refuse_several(&mut input, config)?;
    let validator = input
        .schema
        .as_ref()
        .map(ForestValidator::new)
        .transpose()?;
    let schema = input.schema.clone();
    let comparer = Comparer::new(config);
    let size = input.truth.len() * (input.models.len() + 1);
    let total = (LEARN + COMPARE_FLATTENING) * size;
    let mut learnt = run_now(learn_paced(input, &comparer, &mut NoPause, total))
        .transpose()?
        .flatten()
        .ok_or_else(|| Error::new(ErrorKind::Input, "the evaluation was paused"))?;
    let own = Learned::of(&learnt, config, schema.as_ref());
    let own_tallies: HashMap<String, PathTally> = own
        .paths
        .iter()
        .map(|p| (p.name.clone(), p.tally))
        .collect();
    let learned = match learned {
        None => own,
        Some(given) => {
            let mut probe = own.clone();
            probe.documents.clone_from(&given.documents);
            probe.warnings.clone_from(&given.warnings);
            probe.costs.clone_from(&given.costs);
            probe.paths.clone_from(&given.paths);
            if let Some(diff) = given.difference(&probe) {
                return Err(Error::new(
                    ErrorKind::Input,
                    format!("--learned does not fit this evaluation: {diff}"),
                ));
            }
            for p in &own.paths {
                if !given.paths.iter().any(|g| g.name == p.name) {
                    return Err(Error::new(
                        ErrorKind::Input,
                        format!(
                            "--learned does not know the field {:?} of these files: was it learnt from other documents?",
                            p.name
                        ),
                    ));
                }
            }
            let known: HashSet<&str> = given.documents.iter().map(String::as_str).collect();
            for id in learnt.truth.documents.iter().map(|d| d.id.as_str()) {
                if !known.contains(id) {
                    return Err(Error::new(
                        ErrorKind::Input,
                        format!("--learned does not know the document {id:?}: it was learnt from other documents"),
                    ));
                }
            }
            learnt.paths = given.to_paths(&comparer, "--learned")?;
            learnt.caches = learnt.caches.iter().map(|_| PathCache::default()).collect();
            given.clone()
        }
    };
    let tallies = learned
        .paths
        .iter()
        .map(|p| own_tallies.get(&p.name).copied().unwrap_or_default())
        .collect();
    let header = PartialHeader {
        fieldscope_partial: PARTIAL_FORMAT,
        fieldscope_version: VERSION.to_string(),
        documents: learnt.truth.documents.len(),
        details,
        learned,
        tallies,
    };
    let mut out = Vec::new();
    write_item(&mut out, &header)?;
    let Learnt {
        truth,
        models,
        paths,
        caches,
        ..
    } = &mut learnt;
    let pass = Pass::new(paths, &comparer, details, models.len());
    let progress = Progress {
        start: LEARN * size,
        span: COMPARE_FLATTENING,
        total,
    };
    let mut sink = |_: usize, id: &str, outs: &mut [DocOut]| -> Result<(), Error> {
        write_item(&mut out, &(id, &*outs))
    };
    run_now(compare_pass(
        truth,
        models,
        caches,
        &pass,
        Docs::Flatten(None),
        &validator,
        &mut NoPause,
        progress,
        &mut sink,
    ))
    .transpose()?
    .flatten()
    .ok_or_else(|| Error::new(ErrorKind::Input, "the evaluation was paused"))?;
    Ok(out)
}

/// Appends one CBOR item to a partial result.
fn write_item<T: Serialize>(out: &mut Vec<u8>, item: &T) -> Result<(), Error> {
    ciborium::into_writer(item, out)
        .map_err(|e| Error::new(ErrorKind::Input, format!("cannot encode: {e}")))
}

/// One partial result being read: its header, then its documents.
struct Reader<'b> {
    name: &'b str,
    rest: &'b [u8],
    header: PartialHeader,
}

impl<'b> Reader<'b> {
    fn open(name: &'b str, bytes: &'b [u8]) -> Result<Self, Error> {
        let mut rest = bytes;
        let probe: Value = ciborium::from_reader(&mut rest)
            .map_err(|_| bad_file(name, "not a fieldscope partial result (not CBOR)"))?;
        check_version(name, &probe, "fieldscope_partial", "partial result")?;
        let header: PartialHeader = serde_json::from_value(probe)
            .map_err(|e| bad_file(name, format!("a broken partial result header: {e}")))?;
        Ok(Reader { name, rest, header })
    }

    /// The next document: its id and each model's contribution.
    fn next(&mut self, index: usize) -> Result<Option<(String, Vec<DocOut>)>, Error> {
        if self.rest.is_empty() {
            return Ok(None);
        }
        ciborium::from_reader(&mut self.rest)
            .map(Some)
            .map_err(|e| {
                bad_file(
                    self.name,
                    format!(
                        "document {} of the partial result is broken: {e}",
                        index + 1
                    ),
                )
            })
    }
}

/// Merges partial results (`(name, bytes)`, in the order their documents
/// are to follow each other) into the report one evaluation of all their
/// documents gives, byte for byte, with `options`' details and bootstrap.
///
/// Errors (naming the file and what differs): a file that is not a
/// partial result, of another format or fieldscope version; partials
/// learnt under other configurations, schemas or model names, or from
/// other documents; a document in two partials; documents that are not,
/// in order, those the learnt fields list; `details` asked of partials
/// made without them.
pub fn merge_partials(partials: &[(&str, &[u8])], options: &MergeOptions) -> Result<Report, Error> {
    let mut readers = partials
        .iter()
        .map(|(name, bytes)| Reader::open(name, bytes))
        .collect::<Result<Vec<_>, Error>>()?;
    let Some(first) = readers.first() else {
        return Err(Error::new(
            ErrorKind::Usage,
            "merge needs at least one partial result",
        ));
    };
    let learned = first.header.learned.clone();
    for r in &readers[1..] {
        if let Some(diff) = learned.difference(&r.header.learned) {
            return Err(bad_file(
                r.name,
                format!(
                    "this partial result does not merge with {}: {diff}",
                    first.name
                ),
            ));
        }
    }
    if options.details {
        if let Some(r) = readers.iter().find(|r| !r.header.details) {
            return Err(bad_file(
                r.name,
                "--details needs partial results made with --details",
            ));
        }
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let expected: usize = readers.iter().map(|r| r.header.documents).sum();
    if expected != learned.documents.len() {
        return Err(Error::new(
            ErrorKind::Input,
            format!(
                "the partial results hold {expected} documents; the learnt fields list {} (is a shard missing, or given twice?)",
                learned.documents.len()
            ),
        ));
    }
    let config = Config::from_json(&learned.config)?;
    let comparer = Comparer::new(&config);
    let mut paths = learned.to_paths(&comparer, readers[0].name)?;
    // SPEC §7.4: the shards' tallies summed, the suggestions decided once.
    let mut tallies = vec![PathTally::default(); learned.paths.len()];
    for r in &readers {
        if r.header.tallies.len() != tallies.len() {
            return Err(bad_file(
                r.name,
                "the tallies of the header do not list every learnt field",
            ));
        }
        for (sum, t) in tallies.iter_mut().zip(&r.header.tallies) {
            *sum += *t;
        }
    }
    for (info, t) in paths.info.iter_mut().zip(tallies) {
        info.tally = t;
    }
    let suggestions = paths.suggestions();
    let paths = paths;
    let tallies = options.details || options.bootstrap.is_some();
    let documents = learned.documents.len();
    let mut runs: Vec<ModelRun<'_, '_>> = (0..learned.models.len())
        .map(|m| ModelRun::new(&paths, &config, m, tallies, documents))
        .collect();
    let mut suspects = Vec::new();
    let mut d = 0;
    for (i, r) in readers.iter_mut().enumerate() {
        let mut k = 0;
        while let Some((id, mut outs)) = r.next(k)? {
            if k >= r.header.documents {
                return Err(bad_file(r.name, "more documents than its header says"));
            }
            if let Some(&j) = seen.get(id.as_str()) {
                return Err(bad_file(
                    r.name,
                    format!(
                        "document {id:?} is in two partial results: {} and {}",
                        partials[j].0, r.name
                    ),
                ));
            }
            if learned.documents[d] != id {
                return Err(bad_file(
                    r.name,
                    format!(
                        "document {} of the merge is {id:?}, but the learnt fields have {:?} there (give the partial results in the order of the truth that was learnt)",
                        d + 1,
                        learned.documents[d]
                    ),
                ));
            }
            if outs.len() != runs.len() {
                return Err(bad_file(
                    r.name,
                    format!("document {id:?}: not one result per model"),
                ));
            }
            audit_document(
                &comparer,
                &paths,
                &id,
                &learned.models,
                &outs,
                &mut suspects,
            );
            for (run, out) in runs.iter_mut().zip(&mut outs) {
                run.absorb(&id, out).map_err(|e| e.in_file(r.name))?;
            }
            let id: &str = learned.documents[d].as_str();
            seen.insert(id, i);
            k += 1;
            d += 1;
        }
        if k != r.header.documents {
            return Err(bad_file(
                r.name,
                format!("{k} documents, but its header says {}", r.header.documents),
            ));
        }
    }
    let names: Vec<(String, Option<f64>)> = learned
        .models
        .iter()
        .cloned()
        .zip(learned.costs.iter().copied())
        .collect();
    let mut report = build_report(
        runs,
        &names,
        learned.warnings.clone(),
        suggestions,
        suspects,
        &config,
        documents,
        false,
    );
    if let Some(bootstrap) = &options.bootstrap {
        report.bootstrap = Some(bootstrap_report(&report, &config, *bootstrap));
    }
    if !options.details {
        for m in &mut report.models {
            m.document_details = None;
        }
    }
    Ok(report)
}
