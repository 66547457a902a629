//! The evaluation worker's state and work, as plain Rust (tested natively;
//! `src/bin/eval_worker.rs` is its thin web glue).
//!
//! Owns: the [`Session`] (the files, their bytes and parsed forms, the
//! settings, the prepared evaluation, the schema validity), the newest
//! [`Generation`] of each [`Lane`], the schema worker's job sent, and
//! every computation the page asks for ([`Service::start`] →
//! [`Run::run`] → [`Service::finish`]): the report, document details,
//! bootstrap, literature metrics, sweeps and the gate (each run's work is
//! in `runs`). A run checks between documents (its
//! [`Pace`](crate::eval::pace::Pace)) whether a newer run of its lane, or
//! a Cancel, has made it stale. A report evaluated before the schema
//! validity is known is finished in one place when it arrives: the same
//! run again, which `Session::evaluation` completes without evaluating.
//!
//! Depends on `session`, `eval`, `protocol`; no web types.

use crate::eval::literature::Metrics;
use crate::eval::pace::{run_now, NoPause};
use crate::eval::sweep::SweepRun;
use crate::eval::{complete_provisional, Report};
use crate::protocol::{
    in_parts, opening_request, Answer, FileSummary, Generation, Lane, NewFile, Request, Task,
    ValidityStatus,
};
use crate::session::{validity_answer_from_json, Kept, Parsed, Role, Session, ValidityJob};
use std::sync::Arc;

mod runs;
pub use runs::Run;
use runs::Work;

/// Up to this many documents the report carries every document's details
/// at once; beyond it the document browser asks for them when it is
/// opened ([`Task::Details`]: they roughly double the evaluation time and
/// its memory).
pub const DETAILS_UP_TO: usize = 2_000;

/// Documents (of every forest) kept per idle step: about 30 ms of
/// flattening for invoices like the benchmark's.
const KEEP_PER_STEP: usize = 1_000;

/// The evaluation worker's state.
pub struct Service {
    pub session: Session,
    /// The newest run asked for in each lane ([`Lane::Report`],
    /// [`Lane::Panel`]).
    newest: [Generation; 2],
    /// Runs the page cancelled.
    cancelled: Vec<Generation>,
    /// The job handed to the schema worker, and its version.
    job: Option<(u64, ValidityJob)>,
    /// The report run whose report goes out provisional (the schema
    /// validity pending), and once it has, the report (with what
    /// `complete_provisional` needs): finished when the validity arrives.
    provisional: Option<(Generation, Option<Report>)>,
}
fn lane_index(lane: Lane) -> usize {
    match lane {
        Lane::Report => 0,
        Lane::Panel => 1,
    }
}

impl Default for Service {
    fn default() -> Self {
        Service::new(Session::example())
    }
}

impl Service {
    pub fn new(session: Session) -> Self {
        Service {
            session,
            newest: [0, 0],
            cancelled: Vec::new(),
            job: None,
            provisional: None,
        }
    }

    /// The file list answer.
    pub fn files(&self, settings: Option<serde_json::Map<String, serde_json::Value>>) -> Answer {
        let files = self
            .session
            .files
            .iter()
            .map(|f| FileSummary {
                id: f.id,
                name: f.name.clone(),
                role: f.role,
                bytes: f.bytes.len() as u64,
                records: f.records(),
                pending: f.is_pending(),
                error: f.error().map(ToString::to_string),
                model: f.model.clone(),
                cost: f.cost,
                config: match (&f.role, &f.parsed) {
                    (Role::Config, Ok(Parsed::Json(v))) => Some(v.clone()),
                    _ => None,
                },
            })
            .collect();
        Answer::Files {
            files,
            shows_example: self.session.shows_example,
            settings,
            schemas: self.session.schema_overview().map(Box::new),
        }
    }

    /// Whether run `generation` of `lane` should stop: a newer one of its
    /// lane was asked for, or it was cancelled.
    pub fn is_stale(&self, generation: Generation, lane: Lane) -> bool {
        self.newest[lane_index(lane)] > generation || self.cancelled.contains(&generation)
    }

    /// Handles `request` (with the bytes of the files it names, in
    /// order), posting its answers as they come (`post`: a file list
    /// after each file parsed); the run to start, if any (a
    /// [`Request::Run`], or the provisional report's run again when the
    /// schema validity arrives).
    pub fn handle(
        &mut self,
        request: Request,
        bytes: Vec<Vec<u8>>,
        post: &mut dyn FnMut(Answer),
    ) -> Option<(Generation, Task)> {
        let mut run = None;
        let mut settings = None;
        let lists_files = !matches!(
            request,
            Request::Run { .. }
                | Request::Cancel { .. }
                | Request::Bundle { .. }
                | Request::SetCorrections { .. }
                | Request::CorrectedTruth
        );
        match request {
            Request::AddFiles {
                files,
                replace_example,
            } => {
                if replace_example && self.session.shows_example {
                    self.session.clear();
                }
                self.session.shows_example = false;
                let mut added = Vec::new();
                let mut bytes = bytes.into_iter();
                for file in files {
                    match self.add(file, bytes.next().unwrap_or_default()) {
                        Ok(Some(id)) => added.push(id),
                        Ok(None) => {
                            settings = Some(self.session.settings.clone());
                            // The page holds only the files it was given:
                            // a bundle's it keeps from here.
                            post(Answer::Opened {
                                ids: self.session.files.iter().map(|f| f.id).collect(),
                            });
                            post(Answer::Corrections {
                                corrections: crate::session::corrections_json(
                                    self.session.corrections(),
                                ),
                            });
                        }
                        Err(message) => post(Answer::Notice { message }),
                    }
                }
                // Listed before each is parsed, then after each.
                for id in added {
                    post(self.files(None));
                    self.session.parse_file(id);
                }
            }
            Request::SetRole { id, role } => self.session.set_role(id, role),
            Request::RenameModel { id, name } => self.session.rename_model(id, &name),
            Request::SetCost { id, cost } => self.session.set_cost(id, cost),
            Request::Remove { id } => self.session.remove(id),
            Request::Clear => self.session.clear(),
            Request::LoadExample => {
                let settings = std::mem::take(&mut self.session.settings);
                self.session = Session::example();
                self.session.settings = settings;
            }
            Request::Run { generation, task } => {
                let lane = lane_index(task.lane());
                self.newest[lane] = self.newest[lane].max(generation);
                run = Some((generation, task));
            }
            Request::Cancel { generation } => self.cancelled.push(generation),
            Request::Bundle { for_html, settings } => {
                // The page's settings: a restarted worker may not have run
                // a report under them yet.
                self.session.settings = settings;
                let bundle = if for_html {
                    crate::export::embed::check_size(self.session.input_bytes())
                        .map(|()| self.session.to_bundle())
                        .map_err(|e| e.to_string())
                } else {
                    Ok(self.session.to_bundle())
                };
                post(Answer::Bundle { for_html, bundle });
            }
            Request::SetCorrections { corrections } => {
                if let Err(message) = self.session.set_corrections(&corrections) {
                    post(Answer::Notice { message });
                }
            }
            Request::CorrectedTruth => post(Answer::CorrectedTruth {
                file: self.session.corrected_truth_file(),
            }),
            Request::PanicTest => {
                panic!("a test of the evaluation worker's panic (the page was opened with ?worker-panic-test)")
            }
            Request::Validity { version, answer } => match self.job.take() {
                Some((sent, job)) if sent == version => {
                    self.session
                        .store_validity(job, validity_answer_from_json(&answer));
                    run = self.finish_provisional(post);
                }
                other => self.job = other,
            },
        }
        if lists_files {
            post(self.files(settings));
        }
        if let Some(job) = self.validity_job() {
            post(job);
        }
        run
    }

    /// Adds a file: a fresh drop's role is detected, and a bundle or a
    /// report with its inputs replaces everything (`Ok(None)`); a file
    /// posted again keeps its role, model name and cost. Its id, to
    /// parse.
    fn add(&mut self, file: NewFile, bytes: Vec<u8>) -> Result<Option<u32>, String> {
        let NewFile {
            id,
            name,
            role,
            model,
            cost,
        } = file;
        if role.is_none() && model.is_none() {
            return self.session.load_pending_as(id, &name, bytes);
        }
        self.session
            .add_file_as(id, &name, bytes, role, model, cost);
        Ok(Some(id))
    }

    /// The schema worker's job for the current files, if it is another
    /// than the one sent.
    fn validity_job(&mut self) -> Option<Answer> {
        let job = self.session.validity_job()?;
        if let Some((_, sent)) = &self.job {
            if sent.same(&job) {
                return None;
            }
        }
        let version = self.job.as_ref().map_or(1, |(v, _)| v + 1);
        let files = job
            .files
            .iter()
            .filter_map(|(name, role, bytes)| {
                let f = self
                    .session
                    .files
                    .iter()
                    .find(|f| Arc::ptr_eq(&f.bytes, bytes))?;
                Some((f.id, name.clone(), *role))
            })
            .collect();
        let answer = Answer::ValidityJob {
            version,
            files,
            id_field: job.id_field.clone(),
            schema_by: job.schema_by.clone(),
        };
        self.job = Some((version, job));
        Some(answer)
    }

    /// The bytes of the files `ids`, in that order (the worker posts them
    /// beside [`Answer::Opened`]).
    pub fn bytes_of(&self, ids: &[u32]) -> Vec<Arc<Vec<u8>>> {
        ids.iter()
            .filter_map(|id| self.session.files.iter().find(|f| f.id == *id))
            .map(|f| Arc::clone(&f.bytes))
            .collect()
    }

    /// The bytes of the schema worker's job's files, in its order (the
    /// worker posts them beside [`Answer::ValidityJob`]).
    pub fn job_bytes(&self) -> Vec<Arc<Vec<u8>>> {
        self.job
            .iter()
            .flat_map(|(_, job)| job.files.iter().map(|(_, _, b)| Arc::clone(b)))
            .collect()
    }

    /// The provisional report finished now that the validity is stored —
    /// the one place where a report is completed rather than evaluated —
    /// or, if the schema turned out unusable, its run again.
    fn finish_provisional(&mut self, post: &mut dyn FnMut(Answer)) -> Option<(Generation, Task)> {
        let (generation, report) = self.provisional.take()?;
        if self.is_stale(generation, Lane::Report) {
            return None;
        }
        let again = Some((
            generation,
            Task::Report {
                settings: self.session.settings.clone(),
            },
        ));
        // Still being evaluated: it will find the validity stored.
        let Some(mut report) = report else {
            self.provisional = Some((generation, None));
            return None;
        };
        let validity = match self.session.known_validity() {
            Ok(validity) => validity,
            Err(reason) => {
                let validity = match self.session.validity_failure() {
                    Some(_) => ValidityStatus::Failed(reason),
                    None => return again,
                };
                post(Answer::Report {
                    generation,
                    report: Box::new(report),
                    validity,
                    evaluation_ms: 0.0,
                    details_follow: false,
                });
                return None;
            }
        };
        let Ok(config) = self.session.config() else {
            return again;
        };
        match complete_provisional(&mut report, &validity, &config) {
            Ok(()) => {
                post(Answer::Report {
                    generation,
                    report: Box::new(report),
                    validity: ValidityStatus::Final,
                    evaluation_ms: 0.0,
                    details_follow: false,
                });
                None
            }
            Err(_) => again,
        }
    }

    /// The run of `task` as the session is now, or the answer that it
    /// cannot run.
    pub fn start(&mut self, generation: Generation, task: Task) -> Result<Run, Answer> {
        let failed = |reason: String| Answer::Failed { generation, reason };
        if let Task::Report { settings, .. } = &task {
            self.session.settings = settings.clone();
        }
        // Every run evaluates the truth with its corrections (SPEC §9.3).
        self.session.apply_corrections();
        let details = |s: &mut Session| s.evaluation(true).map_err(failed);
        let work = match task.clone() {
            Task::Report { .. } => {
                let details = self.wants_details();
                let evaluation = self.session.evaluation(details).map_err(failed)?;
                let validity = self.validity_status();
                self.provisional =
                    (validity == ValidityStatus::Pending).then_some((generation, None));
                Work::Report {
                    evaluation,
                    validity,
                }
            }
            Task::Details => Work::Report {
                evaluation: details(&mut self.session)?,
                validity: self.validity_status(),
            },
            Task::Uncorrected => {
                // The session's corrections aside while the evaluation is
                // made (it owns its inputs), then back.
                let corrections = self.session.take_corrections();
                let evaluation = self.session.evaluation(false);
                self.session.restore_corrections(corrections);
                Work::Report {
                    evaluation: evaluation.map_err(failed)?,
                    validity: self.validity_status(),
                }
            }
            Task::Bootstrap | Task::Gate { .. }
                if self.validity_status() == ValidityStatus::Pending =>
            {
                return Err(failed(
                    "The predictions are still being checked against the schema.".into(),
                ))
            }
            Task::Bootstrap => Work::Bootstrap(details(&mut self.session)?),
            Task::Gate {
                baseline,
                candidate,
            } => Work::Gate {
                evaluation: details(&mut self.session)?,
                baseline,
                candidate,
            },
            Task::Literature => Work::Literature(
                self.session
                    .literature_job(Metrics::ALL, false)
                    .map_err(failed)?,
            ),
            Task::Sweep { param, values } => {
                let (input, config) = self.session.inputs().map_err(failed)?;
                let validity = self.session.known_validity().map_err(failed)?;
                let run = SweepRun::new(&input, &config, param, values, validity);
                Work::Sweep { input, run }
            }
        };
        Ok(Run { generation, work })
    }

    /// Whether the report carries every document's details: up to
    /// [`DETAILS_UP_TO`] documents.
    fn wants_details(&self) -> bool {
        self.session.truth().and_then(|t| t.records()).unwrap_or(0) <= DETAILS_UP_TO
    }

    /// Keeps some more of the prepared evaluation's documents while the
    /// worker is idle after a report (the first evaluation of new files
    /// does not, so that its report comes sooner); `true` while there is
    /// more to keep.
    pub fn idle_step(&mut self) -> bool {
        self.session.keep_documents(KEEP_PER_STEP) == Some(false)
    }

    /// What the page knows of the current files' schema validity.
    fn validity_status(&self) -> ValidityStatus {
        match self.session.validity_failure() {
            Some(reason) => ValidityStatus::Failed(reason),
            None if self.session.validity_pending() => ValidityStatus::Pending,
            None => ValidityStatus::Final,
        }
    }

    /// Handles `request` and runs the run it asks for to the end, without
    /// a pause and with a clock at 0 (natively: the build's opening
    /// answers, the tests): the answers [`Service::finish`] gives, none if
    /// it asks for no run.
    pub fn answer_now(&mut self, request: Request) -> Vec<Answer> {
        let Some((generation, task)) = self.handle(request, Vec::new(), &mut |_| {}) else {
            return Vec::new();
        };
        let (answer, kept) = match self.start(generation, task) {
            Ok(run) => match run_now(run.run(&mut NoPause, &|| 0.0)) {
                Some(done) => done,
                None => return Vec::new(),
            },
            Err(answer) => (answer, None),
        };
        self.finish(generation, answer, kept).0
    }

    /// Takes back what a run prepared and forgets its cancellation; a
    /// provisional report is kept to be finished. The answers to send: the
    /// run's (finished at once if the validity arrived while it ran), and
    /// a new schema job if the report changed what is known.
    pub fn finish(
        &mut self,
        generation: Generation,
        answer: Answer,
        kept: Option<Kept>,
    ) -> (Vec<Answer>, Option<(Generation, Task)>) {
        self.cancelled.retain(|&g| g != generation);
        if let Some(kept) = kept {
            self.session.keep(kept);
        }
        let mut answers = Vec::new();
        let mut again = None;
        match (&mut self.provisional, answer) {
            (
                Some((g, slot @ None)),
                Answer::Report {
                    report,
                    validity,
                    evaluation_ms,
                    ..
                },
            ) if *g == generation && validity == ValidityStatus::Pending => {
                *slot = Some((*report).clone());
                let provisional = Answer::Report {
                    generation,
                    report,
                    validity,
                    evaluation_ms,
                    details_follow: false,
                };
                if self.session.validity_pending() {
                    answers.push(provisional);
                } else {
                    // The validity arrived while it ran: the finished
                    // report alone goes out (its details would otherwise
                    // go to the page twice), with the run's time; the
                    // provisional one only if it cannot be finished yet.
                    let mut finished = Vec::new();
                    again = self.finish_provisional(&mut |a| finished.push(a));
                    if finished.is_empty() {
                        answers.push(provisional);
                    }
                    for mut answer in finished {
                        if let Answer::Report {
                            evaluation_ms: ms, ..
                        } = &mut answer
                        {
                            *ms = evaluation_ms;
                        }
                        answers.push(answer);
                    }
                }
            }
            (provisional, answer) => {
                if provisional.as_ref().is_some_and(|(g, _)| *g == generation) {
                    *provisional = None;
                }
                answers.push(answer);
            }
        }
        answers.extend(self.validity_job());
        (answers, again)
    }
}

/// What a worker started with `open` answers first to
/// [`OPENING_RUN`], exactly as the worker posts them (this code and
/// [`in_parts`]), `evaluation_ms` 0: `first`, the example's file list and
/// its provisional report without its details; `details`, the
/// [`Answer::Details`] parts that follow it. Shipped with the app
/// (`assets/opening/` holds them as [`crate::protocol::OPENING_FILE`]
/// and [`crate::protocol::OPENING_DETAILS_FILE`], which the test
/// `tests/suite/opening.rs` keeps equal to this) so that the page can draw
/// the example's report, then its documents, before its worker is ready;
/// the worker's own answers follow and the page takes them as usual.
pub fn opening_answers() -> OpeningAnswers {
    let mut service = Service::default();
    let mut first = vec![service.files(None)];
    let (details, rest): (Vec<Answer>, Vec<Answer>) = service
        .answer_now(opening_request())
        .into_iter()
        .flat_map(in_parts)
        .partition(|a| matches!(a, Answer::Details { .. }));
    first.extend(
        rest.into_iter()
            .filter(|a| matches!(a, Answer::Report { .. } | Answer::Failed { .. }))
            .take(1),
    );
    OpeningAnswers { first, details }
}

/// [`opening_answers`]: the report's answers, and its details' parts.
#[derive(Debug, Clone, PartialEq)]
pub struct OpeningAnswers {
    pub first: Vec<Answer>,
    pub details: Vec<Answer>,
}

#[cfg(test)]
mod tests;
