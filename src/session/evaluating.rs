//! Turning the session's files and settings into an evaluation: the
//! configuration (config files, then the settings layer), the inputs,
//! [`Evaluation`] (one run that owns its inputs, so the session may change
//! while it runs) and the literature metrics' job.
//!
//! May depend on `eval`; never on web types.

use super::*;

impl Session {
    /// Evaluates everything that parsed, with every document's details.
    /// Returns the report, or why there is none (no truth, a bad config or
    /// schema).
    pub fn evaluate(&mut self) -> Result<Report, String> {
        self.evaluate_with(true)
    }

    /// [`Session::evaluate`]; `details` adds `document_details` (what the
    /// document browser shows; for large datasets the app asks for them
    /// only when the browser is opened). While [`Session::validity_pending`]
    /// (or after a [`Session::validity_failure`]) the report is provisional:
    /// every payload that parsed counts as schema-valid, so
    /// `schema_validity_rate`, `exact_match_rate`,
    /// `document_extraction_score` and each document's `schema_valid` and
    /// `exact_match` are not yet the real ones (everything else is), and
    /// `eval::complete_provisional` finishes it once the validity is
    /// known.
    pub fn evaluate_with(&mut self, details: bool) -> Result<Report, String> {
        let evaluation = self.evaluation(details)?;
        let (report, kept) = run_now(evaluation.run(&mut NoPause)).unwrap_or((None, None));
        if let Some(kept) = kept {
            self.keep(kept);
        }
        report.unwrap_or_else(|| Err("the evaluation was stopped".into()))
    }

    /// [`Session::evaluate_with`] as a job that owns what it needs (the
    /// parsed files, shared; the configuration; the validity as known
    /// now), for the evaluation worker to run with a pace
    /// ([`Evaluation::run`]) while the session may change meanwhile. It
    /// takes the session's prepared evaluation when that fits (the same
    /// files, model names and settings read before comparing: only the
    /// comparison runs), and gives back its own for [`Session::keep`].
    /// Errors: why there is no report (no truth, a bad config).
    pub fn evaluation(&mut self, details: bool) -> Result<Evaluation, String> {
        self.apply_corrections();
        self.truth_records()?;
        let config = self.config()?;
        let schema_name = self.schema_name().map(str::to_owned);
        let input = self.input()?;
        let validity = match (
            input.schema.is_some() || !input.schemas.is_empty(),
            self.stored_validity(&config),
        ) {
            (false, _) => SchemaValidity::NoSchema,
            (true, Some(Ok(validity))) => validity,
            // Not known yet, or the worker failed: the report without it
            // (the page says why and shows and exports none of what
            // depends on it).
            (true, Some(Err(_)) | None) => SchemaValidity::Pending,
        };
        let prepared_key = self.prepared_key(&config);
        // Taken if it fits; otherwise dropped (what it holds is of other
        // files or settings, and its memory is better freed before
        // preparing anew).
        let prepared = self
            .prepared
            .0
            .take()
            .filter(|(key, prepared)| key.same(&prepared_key) && prepared.fits(&config))
            .map(|(_, prepared)| prepared);
        Ok(Evaluation {
            corrected: self.corrected_warnings(),
            input,
            config,
            details,
            validity,
            prepared,
            prepared_key,
            schema_name,
        })
    }

    /// What a prepared evaluation of the current files under `config` is
    /// of (the settings aside, which it checks itself).
    pub(super) fn prepared_key(&self, config: &Config) -> PreparedKey {
        PreparedKey {
            files: ValidityKey::new(&self.files, config),
            models: self.files.iter().map(|f| f.model.clone()).collect(),
            corrections: self.corrections.clone(),
        }
    }

    /// The literature's metrics (`crate::eval::literature`) on the same
    /// files and id field as [`Session::evaluate`], as a job to run a
    /// slice at a time; the per-document values when `details`.
    pub fn literature_job(
        &self,
        metrics: literature::Metrics,
        details: bool,
    ) -> Result<literature::Job, String> {
        let (input, config) = self.inputs()?;
        let models = input.models.into_iter().map(|m| (m.name, m.file)).collect();
        literature::Job::new(
            input.truth,
            models,
            config.id_field.as_deref(),
            metrics,
            details,
        )
        .map_err(|e| e.to_string())
    }

    /// The configuration: the config files, then the settings
    /// (`settings::layered_config`).
    pub fn config(&self) -> Result<Config, String> {
        let files = self
            .files
            .iter()
            .filter(|f| f.role == Role::Config)
            .filter_map(|f| match &f.parsed {
                Ok(Parsed::Json(v)) => Some((f.name.as_str(), v)),
                _ => None,
            });
        super::layered_config(files, &self.settings)
    }

    /// The evaluation's input (the truth and every predictions file that
    /// parsed) and configuration (config files, then the settings), as
    /// [`Session::evaluate_with`] evaluates them: what a threshold sweep
    /// re-evaluates.
    pub fn inputs(&self) -> Result<(EvalInput<Arc<DocFile>>, Config), String> {
        self.truth_records()?;
        let config = self.config()?;
        Ok((self.input()?, config))
    }

    /// The evaluation's input: the truth's and every parsed predictions
    /// file's records (shared), and the schema.
    pub(super) fn input(&self) -> Result<EvalInput<Arc<DocFile>>, String> {
        let truth = Arc::clone(self.truth_records()?);
        self.check_schema_by()?;
        let (schema, schemas) = one_or_several(self.named_schemas());
        let models = self
            .files
            .iter()
            .filter(|f| f.role == Role::Predictions)
            .filter_map(|f| match &f.parsed {
                Ok(Parsed::Records(r)) => Some(ModelInput {
                    name: f.model.clone(),
                    file: Arc::clone(r),
                    cost: f.cost,
                }),
                _ => None,
            })
            .collect();
        Ok(EvalInput {
            truth,
            models,
            schema,
            schemas,
        })
    }

    /// The ground truth's records, or why there are none to evaluate.
    pub(super) fn truth_records(&self) -> Result<&Arc<DocFile>, String> {
        let records = self.raw_truth_records()?;
        match self.corrected() {
            None => Ok(records),
            Some(corrected) => corrected.map(|(docs, _)| docs),
        }
    }

    /// The ground truth's records as the file has them.
    fn raw_truth_records(&self) -> Result<&Arc<DocFile>, String> {
        match self.truth().map(|f| (&f.name, &f.parsed)) {
            None => Err("Load a ground-truth file to see a report.".into()),
            Some((name, Err(_))) => Err(format!(
                "The ground-truth file {name} has an error (see the file list)."
            )),
            Some((_, Ok(Parsed::Records(r)))) => Ok(r),
            Some((_, Ok(Parsed::Json(_)))) => Err("The ground truth is not a records file.".into()),
            Some((name, Ok(Parsed::Pending))) => {
                Err(format!("The ground-truth file {name} is being read."))
            }
        }
    }

    /// An evaluation error as a message; a schema error names the schema
    /// file.
    pub fn schema_error(&self, e: crate::error::Error) -> String {
        error_message(self.schema_name(), e)
    }
}

/// An evaluation error as a message; a schema error names the schema
/// file (`schema_name`).
pub(super) fn error_message(schema_name: Option<&str>, e: Error) -> String {
    match schema_name {
        Some(n) if e.kind == ErrorKind::Schema => format!("{n}: {}", e.message),
        _ => e.to_string(),
    }
}

/// One evaluation of a session's files and settings ([`Session::evaluation`]):
/// it owns its inputs, so the session may change while it runs.
pub struct Evaluation {
    /// The session's parsed files, shared.
    input: EvalInput<Arc<DocFile>>,
    config: Config,
    details: bool,
    validity: SchemaValidity,
    /// The session's prepared evaluation, if it fits (else it prepares
    /// one), and what it is of.
    prepared: Option<Prepared>,
    prepared_key: PreparedKey,
    schema_name: Option<String>,
    /// One warning per correction of the truth applied, put first in the
    /// report's warnings (as `eval --corrections` does).
    corrected: Vec<String>,
}

impl Evaluation {
    /// The number of truth documents and of models it evaluates.
    pub fn size(&self) -> (usize, usize) {
        (self.input.truth.records.len(), self.input.models.len())
    }

    /// Runs the evaluation, asking `pace` between documents whether to
    /// wait or stop: the report (`None` when it stopped), the same as
    /// [`Session::evaluate_with`]'s for the session it was made from, and
    /// what it prepared, for [`Session::keep`].
    pub async fn run(self, pace: &mut dyn Pace) -> (Option<Result<Report, String>>, Option<Kept>) {
        let Evaluation {
            input,
            config,
            details,
            validity,
            prepared,
            prepared_key,
            schema_name,
            corrected,
        } = self;
        let message = |e: Error| error_message(schema_name.as_deref(), e);
        let costs: Vec<Option<f64>> = input.models.iter().map(|m| m.cost).collect();
        let mut work = match prepared {
            Some(work) => work,
            None => match prepare_paced(input, &config, STORED_LIMIT_BYTES, pace).await {
                None => return (None, None),
                Some(Ok(work)) => work,
                Some(Err(e)) => return (Some(Err(message(e))), None),
            },
        };
        let report = work
            .evaluate_paced(&costs, &config, details, &validity, pace)
            .await
            .map(|r| {
                r.map_err(message).map(|mut report| {
                    report.warnings.splice(0..0, corrected);
                    report
                })
            });
        (report, Some(Kept(prepared_key, work)))
    }
}
