//! Schema validity (SPEC §3.5) apart from the evaluation.
//!
//! Owns: [`SchemaValidity`] (each model's payload for each document valid
//! or not), [`schema_validity`] (computes it, the one caller of a
//! validator besides [`super::evaluate_sources`]), [`complete_provisional`]
//! (a report evaluated before the validity was known, finished), and the
//! `ValidityOracle` the comparison pass asks. May depend on `validate`,
//! `dataset`, `counts`, `report`; never on how values are compared.

use super::input::{into_doc_files, settle_schemas, EvalInput, IntoDocFile};
use super::several::{self, NamedSchema};
use crate::error::{Error, ErrorKind};
use crate::eval::config::Config;
use crate::eval::counts::{document_extraction_score, mean};
use crate::eval::dataset::{read_predictions, read_truth};
use crate::eval::report::Report;
use crate::eval::source::RecordSource;
use crate::eval::tree::{Forest, NodeId};
use crate::eval::validate::{ForestValidator, Skip};

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
    /// reason than the validity pending.
    fn is_known(&self) -> bool {
        !matches!(self, SchemaValidity::Pending)
    }
}

/// Validates every model's payloads against `input.schema` (SPEC §3.5), as
/// [`evaluate_owned`] would, and nothing else: what
/// [`evaluate_owned_known`] needs. The documents are those of the truth
/// read with `id_field` (the config's `id_field`). With several schemas
/// (SPEC §7.2) it needs the config's `schema_by`: see
/// [`schema_validity_by`].
///
/// Errors: a schema that is not valid JSON Schema; a file that cannot be
/// read as a forest; several schemas.
pub fn schema_validity<F: IntoDocFile>(
    input: EvalInput<F>,
    id_field: Option<&str>,
) -> Result<SchemaValidity, Error> {
    schema_validity_by(input, id_field, None)
}

/// [`schema_validity`] for one schema, none or several (SPEC §7.2): with
/// several (`input.schemas`), each prediction is validated against the
/// schema its truth document names by `schema_by` (the config's: `"id"`
/// or a top-level truth field; the schema's name is its file stem), and
/// the prediction for a document that names none is valid when its
/// payload parsed to an object, as when no schema is given. `id_field`
/// and `schema_by` are the config's.
///
/// Errors: those of [`schema_validity`]; several schemas without
/// `schema_by`, or two with one name.
pub fn schema_validity_by<F: IntoDocFile>(
    input: EvalInput<F>,
    id_field: Option<&str>,
    schema_by: Option<&str>,
) -> Result<SchemaValidity, Error> {
    let mut input = input;
    settle_schemas(&mut input, schema_by)?;
    if input.has_several_schemas() {
        return several_validity(input, id_field, schema_by.unwrap_or("id"));
    }
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

/// Compiles several schemas (SPEC §7.2); an error names the schema.
pub(super) fn several_validators(schemas: &[NamedSchema]) -> Result<Vec<ForestValidator>, Error> {
    schemas
        .iter()
        .map(|s| ForestValidator::new(&s.schema).map_err(|e| e.in_file(s.name.clone())))
        .collect()
}

/// [`schema_validity_by`] with several schemas.
fn several_validity<F: IntoDocFile>(
    input: EvalInput<F>,
    id_field: Option<&str>,
    schema_by: &str,
) -> Result<SchemaValidity, Error> {
    let validators = several_validators(&input.schemas)?;
    let input = into_doc_files(input)?;
    let mut warnings = Vec::new();
    let mut truth = read_truth(input.truth, id_field, &mut warnings)?;
    let chosen = several::choose_all(&mut truth, &input.schemas, schema_by)?;
    let scheme = truth.scheme.clone();
    let valid = input
        .models
        .into_iter()
        .enumerate()
        .map(|(m, model)| {
            let mut preds = read_predictions(&model.name, model.file, &truth, &mut warnings)?;
            (0..truth.documents.len())
                .map(|d| {
                    let root = preds.fetch(d)?;
                    Ok(match (root, preds.by_truth[d].as_ref()) {
                        (Some(root), Some(p)) => {
                            let skip = |k: &str| !p.is_evaluated(&scheme, k);
                            validators.is_valid(m, d, chosen[d], preds.source.forest(), root, &skip)
                        }
                        _ => false,
                    })
                })
                .collect::<Result<Vec<bool>, Error>>()
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(SchemaValidity::Known(valid))
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

/// Where the evaluation's pass over documents takes each prediction's
/// schema validity from (generic, so that an evaluation with a known
/// validity carries no validator code).
pub(super) trait ValidityOracle: Sync {
    /// Whether model `m`'s payload at `root` for truth document `d` (its
    /// members for which `skip` is true left out) is valid; `own` is the
    /// index of the document's schema among several (SPEC §7.2).
    fn is_valid(
        &self,
        m: usize,
        d: usize,
        own: Option<usize>,
        forest: &Forest,
        root: NodeId,
        skip: Skip<'_>,
    ) -> bool;

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
    fn is_valid(
        &self,
        _: usize,
        _: usize,
        _: Option<usize>,
        forest: &Forest,
        root: NodeId,
        skip: Skip<'_>,
    ) -> bool {
        self.as_ref().is_none_or(|v| v.is_valid(forest, root, skip))
    }
}

/// Several schemas (SPEC §7.2): validates each payload against its
/// document's own schema; a document that names none is valid as when no
/// schema is given.
impl ValidityOracle for Vec<ForestValidator> {
    fn is_valid(
        &self,
        _: usize,
        _: usize,
        own: Option<usize>,
        forest: &Forest,
        root: NodeId,
        skip: Skip<'_>,
    ) -> bool {
        own.and_then(|s| self.get(s))
            .is_none_or(|v| v.is_valid(forest, root, skip))
    }
}

/// Looks the validity up in what [`schema_validity`] computed.
pub(super) struct Known<'a>(pub(super) &'a SchemaValidity);

impl ValidityOracle for Known<'_> {
    fn is_valid(
        &self,
        m: usize,
        d: usize,
        _: Option<usize>,
        _: &Forest,
        _: NodeId,
        _: Skip<'_>,
    ) -> bool {
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
