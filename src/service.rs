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
use crate::eval::sweep::SweepRun;
use crate::eval::{complete_provisional, Report};
use crate::protocol::{
    split_details, Answer, FileSummary, Generation, Lane, NewFile, Request, Task, ValidityStatus,
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
            Request::Run { .. } | Request::Cancel { .. } | Request::Bundle { .. }
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
                let mut report = report;
                let details = split_details(&mut report);
                answers.push(Answer::Report {
                    generation,
                    report,
                    validity,
                    evaluation_ms,
                });
                if let Some(details) = details {
                    answers.push(Answer::Details {
                        generation,
                        details,
                    });
                }
                if !self.session.validity_pending() {
                    // The validity arrived while it ran.
                    let mut post = |a| answers.push(a);
                    again = self.finish_provisional(&mut post);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pace::{run_now, NoPause};
    use crate::session::{compute_validity, validity_answer_to_json};
    use serde_json::Map;

    /// Run `generation` of `task`, as the worker runs it: its answer.
    fn run(service: &mut Service, generation: Generation, task: Task) -> Answer {
        let run = service.handle(Request::Run { generation, task }, vec![], &mut |_| {});
        let (generation, task) = run.expect("a run");
        let (answer, kept) = match service.start(generation, task) {
            Ok(run) => run_now(run.run(&mut NoPause, &|| 0.0)).expect("never waits"),
            Err(answer) => (answer, None),
        };
        let (mut answers, _) = service.finish(generation, answer, kept);
        answers.retain(|a| !matches!(a, Answer::ValidityJob { .. }));
        match answers.pop().expect("an answer") {
            // A provisional report's details follow it: joined back.
            Answer::Details { details, .. } => {
                let Some(Answer::Report {
                    generation,
                    mut report,
                    validity,
                    evaluation_ms,
                }) = answers.pop()
                else {
                    panic!("details without their report");
                };
                crate::protocol::join_details(&mut report, details);
                Answer::Report {
                    generation,
                    report,
                    validity,
                    evaluation_ms,
                }
            }
            answer => answer,
        }
    }

    fn report_task() -> Task {
        Task::Report {
            settings: Map::new(),
        }
    }

    /// The answers to `request`.
    fn ask(
        service: &mut Service,
        request: Request,
        bytes: Vec<Vec<u8>>,
    ) -> (Vec<Answer>, Option<(Generation, Task)>) {
        let mut answers = Vec::new();
        let run = service.handle(request, bytes, &mut |a| answers.push(a));
        (answers, run)
    }

    /// The example's report: provisional until the schema worker's answer
    /// (relayed by the page) arrives; then finished (not evaluated again),
    /// equal to a fresh evaluation's.
    #[test]
    fn the_examples_report_pending_then_finished() {
        let mut service = Service::default();
        let (answers, _) = ask(&mut service, Request::LoadExample, vec![]);
        let job = answers
            .iter()
            .find_map(|a| match a {
                Answer::ValidityJob {
                    version,
                    files,
                    id_field,
                    ..
                } => Some((*version, files.clone(), id_field.clone())),
                _ => None,
            })
            .expect("a schema job");
        let first = run(&mut service, 1, report_task());
        let Answer::Report { validity, .. } = &first else {
            panic!("no report: {first:?}");
        };
        assert_eq!(*validity, ValidityStatus::Pending);
        // The schema worker's answer, computed from the bytes sent.
        let bytes = service.job_bytes();
        let files: Vec<_> = job
            .1
            .iter()
            .zip(bytes)
            .map(|((_, name, role), b)| (name.clone(), *role, b))
            .collect();
        let answer = validity_answer_to_json(&compute_validity(&files, job.2.as_deref(), None));
        let (answers, again) = ask(
            &mut service,
            Request::Validity {
                version: job.0,
                answer,
            },
            vec![],
        );
        assert_eq!(again, None, "finished, not evaluated again");
        let Some(Answer::Report {
            generation,
            report,
            validity,
            ..
        }) = answers
            .into_iter()
            .find(|a| matches!(a, Answer::Report { .. }))
        else {
            panic!("no report");
        };
        assert_eq!((generation, validity), (1, ValidityStatus::Final));
        let mut session = Session::example();
        session.compute_validity_now();
        assert_eq!(*report, session.evaluate().unwrap());
    }

    /// A provisional report goes out without its documents' details, which
    /// follow in a message of their own: joined back, the report made.
    #[test]
    fn a_provisional_reports_details_follow_it() {
        let mut service = Service::default();
        let request = Request::Run {
            generation: 1,
            task: report_task(),
        };
        let (generation, task) = service.handle(request, vec![], &mut |_| {}).expect("a run");
        let run = service.start(generation, task).expect("a run");
        let (answer, kept) = run_now(run.run(&mut NoPause, &|| 0.0)).expect("never waits");
        let (answers, _) = service.finish(generation, answer, kept);
        let kept_whole = service
            .provisional
            .clone()
            .and_then(|(_, r)| r)
            .expect("kept");
        let [Answer::Report {
            report,
            validity: ValidityStatus::Pending,
            ..
        }, Answer::Details {
            generation: 1,
            details,
        }] = &answers[..]
        else {
            panic!("not a report and its details: {} answers", answers.len());
        };
        assert!(report.models.iter().all(|m| m.document_details.is_none()));
        let mut joined = (**report).clone();
        crate::protocol::join_details(&mut joined, details.clone());
        assert_eq!(joined, kept_whole);
        assert!(joined
            .models
            .iter()
            .all(|m| m.document_details.as_ref().map(Vec::len) == Some(50)));
    }

    /// Dropped files replace the example; roles and names given when the
    /// page posts its files again are kept.
    #[test]
    fn a_drop_replaces_the_example_and_reposts_keep_roles() {
        let mut service = Service::default();
        let truth = br#"{"id":"a","total":1}"#.to_vec();
        let pred = br#"{"id":"a","total":2}"#.to_vec();
        let (answers, _) = ask(
            &mut service,
            Request::AddFiles {
                files: vec![
                    NewFile {
                        id: 100,
                        name: "t.jsonl".into(),
                        role: None,
                        model: None,
                        cost: None,
                    },
                    NewFile {
                        id: 101,
                        name: "p.jsonl".into(),
                        role: None,
                        model: None,
                        cost: None,
                    },
                ],
                replace_example: true,
            },
            vec![truth.clone(), pred.clone()],
        );
        let Some(Answer::Files {
            files,
            shows_example,
            ..
        }) = answers.first()
        else {
            panic!("no file list: {answers:?}");
        };
        assert!(!shows_example);
        assert_eq!(
            files.iter().map(|f| (f.id, f.role)).collect::<Vec<_>>(),
            vec![(100, Role::Truth), (101, Role::Predictions)]
        );
        // A restarted worker gets them back with the user's choices.
        let mut restarted = Service::default();
        ask(
            &mut restarted,
            Request::AddFiles {
                files: vec![
                    NewFile {
                        id: 100,
                        name: "t.jsonl".into(),
                        role: Some(Role::Predictions),
                        model: Some("renamed".into()),
                        cost: Some(2.0),
                    },
                    NewFile {
                        id: 101,
                        name: "p.jsonl".into(),
                        role: Some(Role::Truth),
                        model: Some("p".into()),
                        cost: None,
                    },
                ],
                replace_example: true,
            },
            vec![truth, pred],
        );
        let f = &restarted.session.files;
        assert_eq!(f.len(), 2);
        assert_eq!(
            (f[0].role, f[0].model.as_str(), f[0].cost),
            (Role::Predictions, "renamed", Some(2.0))
        );
        assert_eq!(f[1].role, Role::Truth);
        let Answer::Report { report, .. } = run(&mut restarted, 1, report_task()) else {
            panic!("no report");
        };
        assert_eq!(report.models[0].name, "renamed");
    }

    /// A bundle dropped brings files the page never held: the worker
    /// names them all (`Opened`) and hands their bytes over, and a
    /// restarted worker given those bytes with the listed roles makes the
    /// same report.
    #[test]
    fn a_bundles_files_go_to_the_page_for_a_restart() {
        let mut example = {
            let mut s = Session::example();
            s.compute_validity_now();
            s
        };
        let bundle = example.to_bundle().into_bytes();
        let mut service = Service::default();
        let dropped = NewFile {
            id: 1 << 20,
            name: "inputs.fieldscope.json".into(),
            role: None,
            model: None,
            cost: None,
        };
        let (answers, _) = ask(
            &mut service,
            Request::AddFiles {
                files: vec![dropped],
                replace_example: true,
            },
            vec![bundle],
        );
        let ids = answers
            .iter()
            .find_map(|a| match a {
                Answer::Opened { ids } => Some(ids.clone()),
                _ => None,
            })
            .expect("the bundle's files named");
        assert_eq!(ids.len(), example.files.len());
        let bytes = service.bytes_of(&ids);
        for (b, f) in bytes.iter().zip(&example.files) {
            assert_eq!(**b, *f.bytes, "{}", f.name);
        }
        let Answer::Files { files, .. } = service.files(None) else {
            panic!("no list");
        };
        let mut restarted = Service::default();
        ask(
            &mut restarted,
            Request::AddFiles {
                files: files.iter().map(FileSummary::again).collect(),
                replace_example: true,
            },
            bytes.iter().map(|b| b.to_vec()).collect(),
        );
        // Asked for a bundle before any report: the page's settings go in.
        let mut settings = Map::new();
        settings.insert("preset".into(), "exact".into());
        let (answers, _) = ask(
            &mut restarted,
            Request::Bundle {
                for_html: false,
                settings: settings.clone(),
            },
            vec![],
        );
        let Some(Answer::Bundle {
            bundle: Ok(text), ..
        }) = answers.first()
        else {
            panic!("no bundle: {answers:?}");
        };
        let bundle: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(bundle["settings"], serde_json::Value::Object(settings));
        restarted.session.settings = Map::new();
        restarted.session.compute_validity_now();
        service.session.compute_validity_now();
        assert_eq!(
            restarted.session.evaluate().unwrap(),
            service.session.evaluate().unwrap()
        );
        assert_eq!(
            restarted.session.evaluate().unwrap(),
            example.evaluate().unwrap()
        );
    }

    /// A newer run of the same lane, or a Cancel, makes a run stale; a
    /// panel's run is not made stale by a report's.
    #[test]
    fn staleness_by_lane_and_cancel() {
        let mut service = Service::default();
        ask(
            &mut service,
            Request::Run {
                generation: 3,
                task: Task::Literature,
            },
            vec![],
        );
        ask(
            &mut service,
            Request::Run {
                generation: 4,
                task: report_task(),
            },
            vec![],
        );
        assert!(!service.is_stale(3, Lane::Panel));
        ask(
            &mut service,
            Request::Run {
                generation: 5,
                task: report_task(),
            },
            vec![],
        );
        assert!(service.is_stale(4, Lane::Report));
        ask(&mut service, Request::Cancel { generation: 3 }, vec![]);
        assert!(service.is_stale(3, Lane::Panel));
    }

    /// Every panel's computation answers with its result.
    #[test]
    fn panels_answer() {
        let mut service = Service::default();
        service.session.compute_validity_now();
        assert!(matches!(
            run(&mut service, 1, Task::Details),
            Answer::Report { .. }
        ));
        let Answer::Literature { models, .. } = run(&mut service, 2, Task::Literature) else {
            panic!("no literature");
        };
        assert_eq!(models.len(), 3);
        let sweep = Task::Sweep {
            param: crate::eval::sweep::SweepParam::Similarity,
            values: vec![0.5, 0.9],
        };
        assert!(matches!(run(&mut service, 3, sweep), Answer::Sweep { .. }));
        let names: Vec<String> = service
            .session
            .files
            .iter()
            .filter(|f| f.role == Role::Predictions)
            .map(|f| f.model.clone())
            .collect();
        let gate = Task::Gate {
            baseline: names[0].clone(),
            candidate: names[1].clone(),
        };
        assert!(matches!(run(&mut service, 4, gate), Answer::Gate { .. }));
        assert!(matches!(
            run(&mut service, 5, Task::Bootstrap),
            Answer::Bootstrap { .. }
        ));
    }
}
