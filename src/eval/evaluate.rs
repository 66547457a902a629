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
use crate::eval::report::Report;
use crate::eval::source::RecordSource;
use crate::eval::validate::ForestValidator;
use serde_json::Value;

mod comparison;
mod confidence_run;
mod doc_out;
mod fields;
mod input;
mod learn_threads;
mod learnt;
mod model_run;
mod partial;
mod pass;
mod prepared;
mod record;
mod several;
mod several_paths;
mod shard;
mod stored;
mod validity;
use comparison::compare_paced;
use fields::{FieldSet, FlatDoc, PathInfo, Paths};
use input::{into_doc_files, settle_schemas};
pub use input::{EvalInput, IntoDocFile, ModelInput};
use learnt::{learn_paced, Learnt};
use model_run::ModelRun;
pub use partial::{
    evaluate_partial, learn, merge_partials, read_learned, Learned, MergeOptions, PartialHeader,
    PathFacts, PARTIAL_FORMAT,
};
use pass::{Docs, COMPARE_FLATTENING, LEARN};
pub use prepared::{prepare_paced, prepare_settings, Prepared, STORED_LIMIT_BYTES};
pub use several::{documents_by_schema, schema_stem, NamedSchema};
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
