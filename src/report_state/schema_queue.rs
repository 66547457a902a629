//! The schema worker's queue (SPEC §3.5's validity, checked in the page's
//! schema worker): which job the worker checks, which waits, and which
//! answers go on to the evaluation worker. A second pure machine beside
//! [`super::Page`], which owns one, feeds it the evaluation worker's jobs,
//! the schema worker's answers and whether a report is shown, and turns
//! what it says into its own commands (the page's `app::evaluation` only
//! carries them out). Tested natively (`schema_queue/tests.rs`, and with
//! the page in `report_state/tests.rs`). May depend on `session` and
//! `error` only.
//!
//! ```text
//!                 Job (loaded, or a report shown)
//!   Idle ───────────────────────────────────────────────► Checking{v}
//!    │ Job (not loaded, no report shown yet):                 │ Job: waits
//!    ▼   held, so the worker's module compiles after          │ (a newer one
//!   Idle{waiting} the page's first report, not beside it      │  replaces it)
//!    │ ReportShown(true) ──► Start{waiting, after_draw}       │
//!    └────────────────────────────────────────────────────────┘
//!   Checking{v} ── Answered{v} / Failed{v} ──► Idle (then the waiting job
//!                                              starts, if it may)
//! ```
//!
//! One job at a time: the worker answers in order, so an answer is the
//! job checked's. It is relayed ([`SchemaCommand::Relay`]) only while it
//! is still wanted — no newer job waits (the evaluation worker keeps only
//! its newest job and would drop it) and the evaluation worker that sent
//! it is the one running (a restarted one numbers its jobs from 1 again,
//! so an old answer could pass for one of its own). A worker that fails
//! answers with the failure (`session::validity_answer_to_json`'s error)
//! and counts as not loaded again: the next job waits for a report, as
//! the first did.

use crate::error::{Error, ErrorKind};
use crate::protocol::Role;
use crate::session::validity_answer_to_json;

/// A job for the schema worker (`protocol::Answer::ValidityJob`): its
/// version, the files (ids, names, roles; their bytes are the page's),
/// the id field and `schema_by`.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaJob {
    pub version: u64,
    pub files: Vec<(u32, String, Role)>,
    pub id_field: Option<String>,
    pub schema_by: Option<String>,
}

/// What happens to the queue.
#[derive(Debug, Clone, PartialEq)]
pub enum SchemaEvent {
    /// The evaluation worker made a job.
    Job(SchemaJob),
    /// The schema worker answered job `version`.
    Answered { version: u64, answer: String },
    /// The schema worker could not load or failed on job `version` (it is
    /// dropped, to be started again by the next job).
    Failed { version: u64, reason: String },
    /// Whether the page shows a report now (told when it changes).
    ReportShown(bool),
    /// The evaluation worker was started again: the jobs of the old one
    /// are nobody's.
    Restarted,
}

/// What the page must do.
#[derive(Debug, Clone, PartialEq)]
pub enum SchemaCommand {
    /// Hand the schema worker `job`; `after_draw`: in a task after the
    /// one that draws the report just shown.
    Start { job: SchemaJob, after_draw: bool },
    /// Post the answer to job `version` to the evaluation worker.
    Relay { version: u64, answer: String },
}

/// The job the worker checks.
#[derive(Debug, Clone, PartialEq)]
struct Checking {
    version: u64,
    /// Sent by the evaluation worker running now (not one restarted since).
    current: bool,
}

/// The schema worker's queue.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SchemaQueue {
    /// The worker has answered, and not failed since: its module is
    /// compiled.
    loaded: bool,
    /// The page shows a report (one drawn, perhaps dimmed).
    report_shown: bool,
    checking: Option<Checking>,
    /// The newest job not handed over yet.
    waiting: Option<SchemaJob>,
}

impl SchemaQueue {
    /// The version of the job waiting, if any (its bytes are kept by the
    /// page until it starts).
    pub fn waiting(&self) -> Option<u64> {
        self.waiting.as_ref().map(|j| j.version)
    }

    /// Whether the worker checks a job now.
    pub fn is_checking(&self) -> bool {
        self.checking.is_some()
    }

    /// Whether the queue knows a report is shown.
    pub fn report_shown(&self) -> bool {
        self.report_shown
    }

    /// The transition function.
    pub fn on(mut self, event: SchemaEvent) -> (SchemaQueue, Vec<SchemaCommand>) {
        let mut commands = Vec::new();
        let mut after_draw = false;
        match event {
            SchemaEvent::Job(job) => self.waiting = Some(job),
            SchemaEvent::Answered { version, answer } => {
                self.loaded = true;
                self.answered(version, answer, &mut commands);
            }
            SchemaEvent::Failed { version, reason } => {
                self.loaded = false;
                let answer = validity_answer_to_json(&Err(Error::new(ErrorKind::Input, reason)));
                self.answered(version, answer, &mut commands);
            }
            SchemaEvent::ReportShown(shown) => {
                after_draw = shown && !self.report_shown;
                self.report_shown = shown;
            }
            SchemaEvent::Restarted => {
                self.waiting = None;
                if let Some(checking) = &mut self.checking {
                    checking.current = false;
                }
            }
        }
        let may_start = self.checking.is_none() && (self.loaded || self.report_shown);
        if may_start {
            if let Some(job) = self.waiting.take() {
                self.checking = Some(Checking {
                    version: job.version,
                    current: true,
                });
                commands.push(SchemaCommand::Start { job, after_draw });
            }
        }
        (self, commands)
    }

    /// The worker is free again; the answer goes on if still wanted.
    fn answered(&mut self, version: u64, answer: String, commands: &mut Vec<SchemaCommand>) {
        let checked = self.checking.take();
        let wanted =
            checked.is_some_and(|c| c.current && c.version == version) && self.waiting.is_none();
        if wanted {
            commands.push(SchemaCommand::Relay { version, answer });
        }
    }
}

#[cfg(test)]
mod tests;
