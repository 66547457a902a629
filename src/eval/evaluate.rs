//! The evaluation: records in, [`Report`] out (SPEC §1–§3, §5).
//!
//! Owns: putting the pieces together — the entry points, the pass over
//! documents that compares them for every model at once ([`compare_pass`];
//! each document by `shard::compare_doc`, which the pass on several
//! threads calls too) and the report built from the stored counts; the
//! inputs and the passes that learn paths and kinds are children (below).
//! Pure: no I/O, no web or plotting types.
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
//!
//! Child modules, each owning one part:
//! * `input` — [`EvalInput`], [`ModelInput`] and how files become forests;
//! * `learnt` — the passes before the comparison (`learn_paced`) and what
//!   they learn (`Learnt`);
//! * `fields` — what is learnt of the paths (kinds, types, where seen),
//!   a document flattened (`FlatDoc`) and each model's field set;
//! * `validity` — SPEC §3.5's schema validity apart from the evaluation
//!   ([`SchemaValidity`], [`schema_validity`], [`complete_provisional`])
//!   and the oracle the comparison pass asks;
//! * `record` — one document compared for one model (`Recorder`);
//!   `model_run` — a model's counts and report (`ModelRun`);
//! * `shard` — a document's contribution (`DocOut`), one document
//!   compared for every model (`compare_doc`) and the comparison pass on
//!   several threads; `learn_threads` — the ids, kinds and
//!   item-fields passes on several threads, learning what the one-thread
//!   passes learn; `prepared` — [`Prepared`]; `partial` — learnt fields,
//!   partial results and their merge.

use crate::error::{Error, ErrorKind};
use crate::eval::compare::Comparer;
use crate::eval::config::Config;
use crate::eval::dataset::{Predictions, Progress, Truth};
use crate::eval::items::F1Grid;
use crate::eval::pace::{run_now, should_stop, NoPause, Pace};
use crate::eval::paths::PathCache;
use crate::eval::report::{ModelReport, Report, Suggestion, Suspect};
use crate::eval::source::RecordSource;
use crate::eval::tree::NodeId;
use crate::eval::validate::ForestValidator;
use serde_json::Value;

mod confidence_run;
mod fields;
mod input;
mod learn_threads;
mod learnt;
mod model_run;
mod partial;
mod prepared;
mod record;
mod several;
mod several_paths;
mod shard;
mod validity;
use fields::{field_set, FieldSet, FlatDoc, PathInfo, Paths};
use input::{into_doc_files, settle_schemas};
pub use input::{EvalInput, IntoDocFile, ModelInput};
use learnt::{learn_paced, Learnt};
use model_run::ModelRun;
pub use partial::{
    evaluate_partial, learn, merge_partials, read_learned, Learned, MergeOptions, PartialHeader,
    PathFacts, PARTIAL_FORMAT,
};
pub use prepared::{prepare_paced, prepare_settings, Prepared, STORED_LIMIT_BYTES};
use prepared::{StoredForest, Storing};
use record::Recorder;
pub use several::{documents_by_schema, schema_stem, NamedSchema};
use shard::DocOut;
pub use validity::{complete_provisional, schema_validity, schema_validity_by, SchemaValidity};
use validity::{Known, ValidityOracle};

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
            schemas: input.schemas.clone(),
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
    let mut input = match into_doc_files(input) {
        Ok(input) => input,
        Err(e) => return Some(Err(e)),
    };
    if let Err(e) = settle_schemas(&mut input, config.schema_by.as_deref()) {
        return Some(Err(e));
    }
    let any_schema = input.schema.is_some() || input.has_several_schemas();
    if any_schema && *validity == SchemaValidity::NoSchema {
        return Some(Err(Error::new(
            ErrorKind::Input,
            "the schema validity of these files has not been computed",
        )));
    }
    evaluate_paced(input, config, details, &Known(validity), pace)
        .await
        .transpose()
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
    let mut input = input;
    settle_schemas(&mut input, config.schema_by.as_deref())?;
    if input.has_several_schemas() {
        let validators = validity::several_validators(&input.schemas)?;
        return evaluate_with_validity(input, config, details, &validators);
    }
    let validator = input
        .schema
        .as_ref()
        .map(ForestValidator::new)
        .transpose()?;
    evaluate_with_validity(input, config, details, &validator)
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

/// Where the comparison pass takes each document from.
enum Docs<'s> {
    /// Flattened as it is compared; and kept in the [`Storing`] given.
    Flatten(Option<&'s mut Storing>),
    /// Loaded, flattened by an earlier pass (the truth's, then each
    /// model's in the truth's order).
    Load(&'s [StoredForest]),
}

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
    let model_names: Vec<String> = models.iter().map(|(name, _, _)| name.clone()).collect();
    let mut suspects = Vec::new();
    let mut sink = |_: usize, id: &str, outs: &mut [DocOut]| -> Result<(), Error> {
        audit_document(comparer, paths, id, &model_names, outs, &mut suspects);
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
        suspects,
        config,
        documents,
        oracle.provisional(),
    )))
}

/// SPEC §9.3 at one document: the suspects among every model's notes
/// (`outs`, in model order), appended to `found`.
fn audit_document(
    comparer: &Comparer<'_>,
    paths: &Paths,
    id: &str,
    names: &[String],
    outs: &[DocOut],
    found: &mut Vec<Suspect>,
) {
    // A slot is suspect only where every model noted it.
    if names.len() < 2 || outs.iter().any(|o| o.audit.is_empty()) {
        return;
    }
    let name = |path: u32| paths.table.name(path as usize).to_string();
    crate::eval::audit::document_suspects(
        comparer,
        id,
        names,
        outs.iter().map(|o| o.audit.as_slice()),
        &name,
        found,
    );
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

    /// SPEC §9.2: the document's value of each `slice_by` key, noted in
    /// `out` (after its comparison, which gives `_items` and `_fields`).
    fn note_slices(&self, d: usize, record: crate::eval::tree::Json<'_>, out: &mut DocOut) {
        let by = &self.comparer.config.slice_by;
        if by.is_empty() {
            return;
        }
        let schema = self.paths.own_index(d).and_then(|s| {
            let several = self.paths.several.as_deref()?;
            several
                .by_name
                .iter()
                .find(|(_, &i)| i as usize == s)
                .map(|(name, _)| name.as_str())
        });
        let builtins = crate::eval::slices::BuiltIns {
            items: out.items.truth_items,
            fields: out.present_truth_fields(),
            schema,
        };
        out.slice = crate::eval::slices::document_texts(by, record, builtins);
    }

    fn recorder(&self) -> Recorder<'p, 'c> {
        Recorder {
            paths: self.paths,
            comparer: self.comparer,
            details: self.details,
            audit: self.fields.len() >= 2,
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
    docs: Docs<'_>,
    oracle: &V,
    pace: &mut dyn Pace,
    progress: Progress,
    sink: &mut Sink<'_>,
) -> Result<Option<()>, Error> {
    let documents = truth.documents.len();
    let forests = inputs.len() + 1;
    oracle.fits(inputs.len(), documents)?;
    let keeps = matches!(docs, Docs::Flatten(Some(_)));
    if shard::threads() > 1 && (!keeps || all_resident(truth, inputs)) {
        return shard::compare_parallel(truth, inputs, pass, docs, oracle, pace, progress, sink)
            .await;
    }
    let (stored, mut storing) = match docs {
        Docs::Load(stored) => (Some(stored), None),
        Docs::Flatten(storing) => (None, storing),
    };
    let mut outs: Vec<DocOut> = (0..inputs.len()).map(|_| DocOut::default()).collect();
    let mut buffers = shard::Buffers::default();
    let mut roots: Vec<Option<NodeId>> = Vec::with_capacity(inputs.len());
    for d in 0..documents {
        let done = progress.start + progress.span * forests * d;
        if should_stop(pace, done, progress.total).await {
            return Ok(None);
        }
        let root = truth.fetch(d)?;
        roots.clear();
        for (_, _, preds) in inputs.iter_mut() {
            roots.push(preds.fetch(d)?);
        }
        let models: Vec<shard::ModelDoc<'_>> = inputs
            .iter()
            .zip(&roots)
            .map(|((_, _, preds), root)| shard::ModelDoc {
                forest: preds.source.forest(),
                root: *root,
                prediction: preds.by_truth[d].as_ref(),
            })
            .collect();
        let mut keep = |f: usize, doc: &FlatDoc<'_>| {
            if let Some(storing) = storing.as_deref_mut() {
                storing.push(f, doc);
            }
        };
        shard::compare_doc(
            pass,
            d,
            (truth.source.forest(), root),
            &models,
            stored,
            caches,
            &mut buffers,
            oracle,
            &mut keep,
            &mut outs,
        );
        sink(d, &truth.documents[d].id, &mut outs)?;
        if let Some(storing) = storing.as_deref_mut() {
            storing.after(d, documents);
        }
    }
    if let Some(storing) = storing {
        storing.check();
    }
    Ok(Some(()))
}

/// Whether every file is held whole (each record's nodes readable at any
/// time, without fetching), as the passes on several threads need.
fn all_resident<S: RecordSource>(
    truth: &Truth<S>,
    models: &[(String, Option<f64>, Predictions<S>)],
) -> bool {
    truth.source.resident() && models.iter().all(|(_, _, p)| p.source.resident())
}

/// The report of SPEC §5 from each model's counts: `models` are the
/// models' names and costs (SPEC §3.6), `warnings` those of the passes
/// before the comparison, `suspects` SPEC §9.3's (sorted here).
#[allow(clippy::too_many_arguments)]
fn build_report(
    runs: Vec<ModelRun<'_, '_>>,
    models: &[(String, Option<f64>)],
    mut warnings: Vec<String>,
    suggestions: Vec<Suggestion>,
    mut suspects: Vec<Suspect>,
    config: &Config,
    documents: usize,
    provisional: bool,
) -> Report {
    crate::eval::audit::sort_suspects(&mut suspects);
    // SPEC §9.2: from each document's counts, before the runs are spent.
    let slices = (!config.slice_by.is_empty()).then(|| {
        let texts = runs.first().map_or(&[][..], |r| r.doc_slices.as_slice());
        let counts: Vec<(&str, &[crate::eval::report::Counts])> = runs
            .iter()
            .zip(models)
            .map(|(r, (name, _))| (name.as_str(), r.doc_counts.as_slice()))
            .collect();
        crate::eval::slices::slices_report(texts, &counts, config)
    });
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
        config: config.clone(),
        warnings,
        suggestions,
        documents,
        models: reports,
        suspected_truth_errors: suspects,
        slices,
        bootstrap: None,
        comparison: None,
    }
}
