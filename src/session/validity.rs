//! Schema validity (SPEC §3.5) apart from the evaluation: the job the
//! page hands to its schema worker ([`ValidityJob`]), the work itself
//! ([`compute_validity`], tested natively), the answer's text for
//! `postMessage`, and the session's side (asking, storing, telling
//! whether an answer is pending).
//!
//! May depend on `eval`, `io`; the worker binary (`schema_worker`) is its
//! only caller besides the session.

use super::*;

/// A file of a [`ValidityJob`]: its name, role and bytes.
pub type JobFile = (String, Role, Arc<Vec<u8>>);

/// What the schema worker validates: the files of an evaluation (the truth,
/// each predictions file that parsed, the schema) with their roles, and the
/// id field. Its answer goes back with [`Session::store_validity`].
#[derive(Debug, Clone)]
pub struct ValidityJob {
    pub(super) key: ValidityKey,
    /// In the session's order.
    pub files: Vec<JobFile>,
    pub id_field: Option<String>,
    /// The config's `schema_by` (SPEC §7.2), for several schemas.
    pub schema_by: Option<String>,
}

impl ValidityJob {
    /// Whether `other` is of the same files and id field.
    pub fn same(&self, other: &ValidityJob) -> bool {
        self.key.same(&other.key)
    }
}

/// The schema worker's answer as text, for `postMessage`: `{"valid":
/// ["0110…", …]}` (a string per model, a character per truth document,
/// `1` valid) or `{"valid": null}` without a schema, or `{"error": …,
/// "schema": true|false, "file": …}`. Read back by
/// [`validity_answer_from_json`].
pub fn validity_answer_to_json(answer: &Result<SchemaValidity, Error>) -> String {
    let value = match answer {
        Ok(v) => serde_json::json!({
            "valid": v.per_model().map(|models| models
                .iter()
                .map(|m| m.iter().map(|&b| if b { '1' } else { '0' }).collect::<String>())
                .collect::<Vec<_>>()),
        }),
        Err(e) => serde_json::json!({
            "error": e.message,
            "schema": e.kind == ErrorKind::Schema,
            "file": e.file,
        }),
    };
    value.to_string()
}

/// Reads [`validity_answer_to_json`]'s text; anything else is an error
/// saying so.
pub fn validity_answer_from_json(text: &str) -> Result<SchemaValidity, Error> {
    let bad = || {
        Error::new(
            ErrorKind::Input,
            "the schema validator gave an answer this page cannot read",
        )
    };
    let value: Value = serde_json::from_str(text).map_err(|_| bad())?;
    if let Some(message) = value.get("error").and_then(Value::as_str) {
        let kind = match value.get("schema") {
            Some(Value::Bool(true)) => ErrorKind::Schema,
            _ => ErrorKind::Input,
        };
        let mut e = Error::new(kind, message);
        e.file = value.get("file").and_then(Value::as_str).map(str::to_owned);
        return Err(e);
    }
    match value.get("valid") {
        Some(Value::Null) => Ok(SchemaValidity::NoSchema),
        Some(Value::Array(models)) => models
            .iter()
            .map(|m| {
                m.as_str()
                    .ok_or_else(bad)?
                    .chars()
                    .map(|c| match c {
                        '1' => Ok(true),
                        '0' => Ok(false),
                        _ => Err(bad()),
                    })
                    .collect::<Result<Vec<bool>, Error>>()
            })
            .collect::<Result<Vec<_>, Error>>()
            .map(SchemaValidity::Known),
        _ => Err(bad()),
    }
}

/// Computes what a [`ValidityJob`] asks (in the schema worker; natively in
/// tests): `files` are parsed for their roles exactly as the session
/// parsed them, so the models and documents line up with its evaluation.
///
/// Errors: a schema that is not valid JSON Schema (kind
/// [`ErrorKind::Schema`]), or a file that does not parse (which the
/// session would not have sent).
pub fn compute_validity(
    files: &[JobFile],
    id_field: Option<&str>,
    schema_by: Option<&str>,
) -> Result<SchemaValidity, Error> {
    let mut truth = None;
    let mut models = Vec::new();
    let mut schemas = Vec::new();
    for (name, role, bytes) in files {
        match (role, parse_as(name, bytes, *role)?) {
            (Role::Truth, Parsed::Records(r)) => truth = Some(r),
            (Role::Predictions, Parsed::Records(r)) => models.push(ModelInput::new(name, r)),
            (Role::Schema, Parsed::Json(v)) => schemas.push(NamedSchema::new(schema_stem(name), v)),
            _ => {}
        }
    }
    let truth = truth.ok_or_else(|| Error::new(ErrorKind::Input, "no ground-truth file"))?;
    let schema_files: Vec<&str> = files
        .iter()
        .filter(|f| f.1 == Role::Schema)
        .map(|f| f.0.as_str())
        .collect();
    let (schema, schemas) = one_or_several(schemas);
    schema_validity_by(
        EvalInput {
            truth,
            models,
            schema,
            schemas,
        },
        id_field,
        schema_by,
    )
    .map_err(|e| match schema_file_of(&e, &schema_files) {
        Some(name) if e.kind == ErrorKind::Schema => e.in_file(name.to_string()),
        _ => e,
    })
}

/// One schema as `EvalInput::schema` (the dataset-wide field set of SPEC
/// §1.2), several as `EvalInput::schemas` (SPEC §7.2).
pub(super) fn one_or_several(mut schemas: Vec<NamedSchema>) -> (Option<Value>, Vec<NamedSchema>) {
    if schemas.len() == 1 {
        (schemas.pop().map(|s| s.schema), Vec::new())
    } else {
        (None, schemas)
    }
}

/// The schema file a schema error is about: the only one, or, among
/// several, the one whose stem the error names.
pub(super) fn schema_file_of<'a>(e: &Error, schema_files: &[&'a str]) -> Option<&'a str> {
    match schema_files {
        [only] => Some(only),
        several => several
            .iter()
            .find(|name| e.file.as_deref() == Some(schema_stem(name).as_str()))
            .copied(),
    }
}

impl Session {
    /// The stored validity for the current files and `config`'s id field.
    pub(super) fn stored_validity(
        &self,
        config: &Config,
    ) -> Option<Result<SchemaValidity, String>> {
        let key = ValidityKey::new(&self.files, config);
        self.validity
            .as_ref()
            .filter(|(k, _)| k.same(&key))
            .map(|(_, v)| v.clone())
    }

    /// The schema validity of the current files, if it is known (with no
    /// schema, the default): what a threshold sweep reuses at every value.
    pub fn known_validity(&self) -> Result<SchemaValidity, String> {
        if !self.has_parsed(Role::Schema) {
            return Ok(SchemaValidity::default());
        }
        self.stored_validity(&self.config()?).unwrap_or_else(|| {
            Err("The predictions are still being checked against the schema.".into())
        })
    }

    /// Whether a file of `role` parsed (or waits to be parsed).
    pub(super) fn has_parsed(&self, role: Role) -> bool {
        self.files
            .iter()
            .any(|f| f.role == role && f.parsed.is_ok())
    }

    /// Why the schema validity of the current files could not be computed
    /// (the schema worker failed or could not be loaded), if it could not;
    /// [`Session::evaluate_with`] then gives the provisional report.
    pub fn validity_failure(&self) -> Option<String> {
        if !self.has_parsed(Role::Schema) {
            return None;
        }
        match self.stored_validity(&self.config().ok()?) {
            Some(Err(message)) => Some(message),
            _ => None,
        }
    }

    /// Whether a schema is loaded whose validity for the current files is
    /// not stored yet (the page's schema worker is computing it).
    pub fn validity_pending(&self) -> bool {
        self.validity_job().is_some()
    }

    /// What the schema worker must compute: `None` without a usable truth
    /// or schema, or when the validity of the current files is stored.
    pub fn validity_job(&self) -> Option<ValidityJob> {
        if !self.has_parsed(Role::Truth) || !self.has_parsed(Role::Schema) {
            return None;
        }
        self.check_schema_by().ok()?;
        let config = self.config().ok()?;
        if self.stored_validity(&config).is_some() {
            return None;
        }
        let files = self
            .files
            .iter()
            .filter(|f| f.parsed.is_ok() && f.role != Role::Config)
            .map(|f| (f.name.clone(), f.role, Arc::clone(&f.bytes)))
            .collect();
        Some(ValidityJob {
            key: ValidityKey::new(&self.files, &config),
            files,
            id_field: config.id_field,
            schema_by: config.schema_by,
        })
    }

    /// Stores the schema worker's answer to `job` (see
    /// [`compute_validity`]). A schema that is not valid JSON Schema becomes
    /// that file's error (the rest is evaluated without it, as with any file
    /// that fails); any other error is the report's.
    pub fn store_validity(&mut self, job: ValidityJob, answer: Result<SchemaValidity, Error>) {
        let answer = match answer {
            Err(e) if e.kind == ErrorKind::Schema => {
                let schema = job
                    .files
                    .iter()
                    .filter(|f| f.1 == Role::Schema)
                    .find(|f| e.file.as_deref().is_none_or(|file| file == f.0));
                if let Some((_, _, bytes)) = schema {
                    for f in &mut self.files {
                        if f.role == Role::Schema && Arc::ptr_eq(&f.bytes, bytes) {
                            f.parsed = Err(e.clone());
                        }
                    }
                }
                return;
            }
            Err(e) => Err(e.to_string()),
            Ok(v) => Ok(v),
        };
        self.validity = Some((job.key, answer));
    }

    /// Computes and stores the validity of the current files here, as the
    /// schema worker would (the native tests; the page never calls it).
    pub fn compute_validity_now(&mut self) {
        if let Some(job) = self.validity_job() {
            let answer = compute_validity(
                &job.files,
                job.id_field.as_deref(),
                job.schema_by.as_deref(),
            );
            self.store_validity(job, answer);
        }
    }
}
