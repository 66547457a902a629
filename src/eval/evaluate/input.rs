//! What an evaluation is given ([`EvalInput`]: the truth, each model's
//! predictions ([`ModelInput`]) and the schemas) and how its files become
//! forests ([`IntoDocFile`]); the schemas settled as the evaluation reads
//! them.
//!
//! Owns: the input types and their conversions. Depends on `several` (the
//! names of several schemas) and the record files; no I/O.

use super::several::{self, NamedSchema};
use crate::error::{Error, ErrorKind};
use crate::eval::model::{DocFile, RecordFile};
use serde_json::Value;

/// Everything one evaluation needs. The files are [`RecordFile`]s
/// (`serde_json` objects) by default, or [`DocFile`]s (compact forests, as
/// `crate::io::parse_docs` reads them; no conversion needed).
#[derive(Debug, Clone)]
pub struct EvalInput<F = RecordFile> {
    pub truth: F,
    pub models: Vec<ModelInput<F>>,
    /// An optional JSON Schema (draft-07), the whole dataset's.
    pub schema: Option<Value>,
    /// SPEC §7.2: several JSON Schemas, each named by its file stem, of
    /// which each document picks its own by the config's `schema_by`
    /// (then `schema` is `None`). Empty: `schema` alone; one: the same as
    /// giving it as `schema` (the dataset-wide field set of SPEC §1.2).
    pub schemas: Vec<NamedSchema>,
}

impl<F> EvalInput<F> {
    /// Whether each document is evaluated with its own schema: more than
    /// one in [`Self::schemas`] (SPEC §7.2).
    pub fn has_several_schemas(&self) -> bool {
        self.schemas.len() > 1
    }
}

/// The schemas of `input` as the evaluation reads them: a lone entry of
/// `schemas` becomes `schema`. Errors: `schema` and `schemas` both given;
/// several schemas without `schema_by`, or two with one name (SPEC §7.2).
pub(super) fn settle_schemas<F>(
    input: &mut EvalInput<F>,
    schema_by: Option<&str>,
) -> Result<(), Error> {
    if input.schema.is_some() && !input.schemas.is_empty() {
        return Err(Error::new(
            ErrorKind::Usage,
            "give the dataset's one schema or several named schemas, not both",
        ));
    }
    if input.schemas.len() == 1 {
        input.schema = input.schemas.pop().map(|s| s.schema);
    }
    several::check_names(&input.schemas, schema_by)
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
            schemas: self.schemas.clone(),
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

/// The input with every file as a forest.
pub(super) fn into_doc_files<F: IntoDocFile>(
    input: EvalInput<F>,
) -> Result<EvalInput<DocFile>, Error> {
    let EvalInput {
        truth,
        models,
        schema,
        schemas,
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
        schemas,
    })
}
