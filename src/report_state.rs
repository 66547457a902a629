//! The browser app's one report state and its pure transition function
//! ([`Page::on`]: state and event in, state and commands out), in the
//! manner of Elm's `update`: the page keeps a [`Page`] in a signal, turns
//! every user action, worker answer and worker failure into an [`Event`],
//! and carries out the [`Command`]s returned (posting to the evaluation
//! worker, restarting it, handing a job to the schema worker, giving a
//! panel its answer). Tested natively with the sequences that matter.
//! The schema worker's queue is a second pure machine inside it
//! ([`schema_queue::SchemaQueue`]: one job at a time, the newest waiting,
//! the first held until a report is drawn), fed by [`Page::on`].
//!
//! ```text
//!     Settings / Again / Dropped / Edited      Answer::Report (newest)
//!  Empty ─────────────────────────► Evaluating ─────────────────────────► Ready
//!  Ready ─────────────────────────►  {previous,  ─── Answer::Failed ────► Failed
//!  Failed ────────────────────────►   progress}  ─── WorkerFailed ──────► Failed
//!                                        ▲  │ Answer::Progress (newest)
//!                                        └──┘
//!  Ready{Pending} ── Answer::Report (newest, the validity in) ──► Ready{Final}
//!
//!  Answer::ValidityJob ──► schema_queue ──► CheckSchema{v} (now, or once
//!  a report is drawn) … SchemaAnswered{v} / SchemaFailed{v} ──► Post Validity{v}
//! ```
//!
//! Pure: no web types, no evaluation; answers older than the newest
//! request are dropped here, so the page never shows a stale report.

use crate::eval::report::DocumentDetail;
use crate::eval::Report;
use crate::protocol::{
    append_details, documents_in, join_details, lacks_details, Answer, FileSummary, Generation,
    NewFile, Request, Role, Task, ValidityStatus, OPENING_RUN,
};
use crate::session::{Settings, SettingsEdit};
use schema_queue::{SchemaCommand, SchemaEvent, SchemaJob, SchemaQueue};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The report the page shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ReportState {
    /// No report asked for yet.
    #[default]
    Empty,
    /// The worker evaluates; the last report stays in view (dimmed).
    Evaluating {
        previous: Option<Arc<Report>>,
        /// `done` of `total` units, once the worker has said.
        progress: Option<(usize, usize)>,
    },
    Ready {
        report: Arc<Report>,
        validity: ValidityStatus,
    },
    /// Why there is no report (no truth file, a bad config, a worker that
    /// failed).
    Failed { reason: String },
}

impl ReportState {
    /// The report to draw: the ready one, or the one before while an
    /// evaluation runs.
    pub fn report(&self) -> Option<&Arc<Report>> {
        match self {
            ReportState::Ready { report, .. } => Some(report),
            ReportState::Evaluating { previous, .. } => previous.as_ref(),
            ReportState::Empty | ReportState::Failed { .. } => None,
        }
    }

    pub fn is_evaluating(&self) -> bool {
        matches!(self, ReportState::Evaluating { .. })
    }
}

/// Whether the evaluation worker is there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Worker {
    #[default]
    Running,
    /// It failed to start or stopped: the next request starts a new one.
    Down,
}

/// What happens to the page.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Files were dropped (the page gives them ids): a new report.
    Dropped { files: Vec<NewFile> },
    /// The files were edited (a role, a model's name or cost, a file
    /// removed, the example loaded, a bundle opened): `edits` go to the
    /// worker, then a new report is asked for.
    Edited { edits: Vec<Request> },
    /// A settings panel, type menu, suggestion or picker changed the
    /// settings: when the layer changes, the page shows the new settings
    /// ([`Command::ShowSettings`]) and asks for a new report under them.
    Settings(SettingsEdit),
    /// The report again, under the same files and settings (the error
    /// panel's restart: a worker that is down starts again).
    Again,
    /// A panel asks for `task` (bootstrap, literature, sweep, gate, or a
    /// report with details).
    Panel(Task),
    /// The panel's Cancel button.
    CancelPanel,
    /// Ask the worker something that changes no report (a bundle).
    Ask(Request),
    /// The evaluation worker answered.
    Answer(Answer),
    /// The answers the worker gives first to [`OPENING_RUN`], made when
    /// the app was built (`protocol::OPENING_FILE`, then its details in
    /// `protocol::OPENING_DETAILS_FILE`): taken only while that run is
    /// awaited and they are not shown yet, as if the worker had sent them
    /// (its own, equal, follow; a later drop or setting makes them stale
    /// like any answer).
    Prebuilt { answers: Vec<Answer> },
    /// The evaluation worker failed to start or stopped (a panic).
    WorkerFailed { reason: String },
    /// The schema worker answered job `version`.
    SchemaAnswered { version: u64, answer: String },
    /// A decision of the "Check the truth" panel ([`truth::Message`]):
    /// when it changes the corrections, they go to the worker and a new
    /// report is asked for.
    Truth(truth::Message),
    /// The schema worker could not load or failed on job `version`.
    SchemaFailed { version: u64, reason: String },
    /// A panel changed what the page shows beside the report ([`View`]):
    /// a notice, the files being read, the average, the document browser,
    /// a panel's result.
    View(ViewEvent),
}

/// What the page must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Post this to the evaluation worker.
    Post(Request),
    /// Start a new evaluation worker, then post these files to it (their
    /// bytes are the page's `File`s of these ids) — or the built-in
    /// example when `example` — before the commands that follow.
    Restart { files: Vec<NewFile>, example: bool },
    /// Hand the schema worker these files (the page's `File`s of these
    /// ids, with their roles) and id field; its answer comes back as
    /// [`Event::SchemaAnswered`] (or [`Event::SchemaFailed`]).
    /// `after_draw`: in a task after the one that draws the report shown.
    CheckSchema {
        version: u64,
        files: Vec<(u32, String, Role)>,
        id_field: Option<String>,
        schema_by: Option<String>,
        after_draw: bool,
    },
    /// Give the panel that asked its answer (progress, result, failure).
    ToPanel(Answer),
    /// Show the file list as the worker has it now.
    ShowFiles {
        files: Vec<FileSummary>,
        schemas: Option<Box<crate::protocol::SchemaOverview>>,
    },
    /// Show these settings (the panels read them; the URL fragment
    /// carries their layer).
    ShowSettings(Settings),
    /// The shown report's document details are in, joined to it: draw
    /// them (the document browser), not the report's tables again (a
    /// panel under way keeps its run).
    ShowDetails,
    /// Draw what the view says ([`View`]): a notice, the status line,
    /// the average, the document browser's destination, the panels'
    /// results.
    View(ViewCommand),
    /// Download the bundle asked for (or put it in the HTML report), or
    /// say why there is none.
    Bundle {
        for_html: bool,
        bundle: Result<String, String>,
    },
    /// Download the corrected truth asked for (file name, text), or say
    /// why there is none.
    CorrectedTruth(Result<(String, String), String>),
}

/// The page's state: the report, and what it needs to tell answers apart
/// and to restart the worker.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Page {
    pub report: ReportState,
    /// The newest run asked for (any lane).
    generation: Generation,
    /// The newest report run.
    report_run: Generation,
    /// The panels' runs under way (a newer one stops the older in the
    /// worker, whose `Stopped` still goes to the older panel).
    panel_runs: Vec<Generation>,
    /// The panels' runs the user cancelled, until the worker lets go of
    /// each (its `Stopped`, or the answer it had finished before the
    /// Cancel reached it): the panel says "Cancelled" at the click
    /// ([`panel::Progress::cancel`]); this only settles it.
    stopping: Vec<Generation>,
    worker: Worker,
    /// The files as the worker last listed them.
    pub files: Vec<FileSummary>,
    /// The files are the built-in example's: the next drop replaces them.
    pub shows_example: bool,
    /// Reports whose details are coming in parts (`protocol::in_parts`),
    /// at most one per run awaited.
    coming: Vec<Coming>,
    /// The "Check the truth" panel: its decisions (the corrections the
    /// worker applies) and the baseline (the suspects and scores of the
    /// last report evaluated without corrections).
    pub truth: truth::TruthCheck,
    /// The newest report run was asked for with corrections in force.
    run_corrected: bool,
    /// The run of the report without corrections asked for the panel's
    /// baseline ([`Task::Uncorrected`]), while it runs.
    baseline_run: Option<Generation>,
    /// The schema worker's queue.
    schema: SchemaQueue,
    /// The settings panel's layer over the config files' JSON: the
    /// settings every report is asked for under.
    settings: Settings,
    /// What the page shows beside the report ([`View`]).
    pub view: View,
}

/// A report's details arriving in parts, put together here so that the
/// page draws them once, whole.
#[derive(Debug, Clone, PartialEq)]
struct Coming {
    generation: Generation,
    /// The report's answer itself, held back until its details are in: a
    /// panel's, or the report run's when the one shown has details (its
    /// validity just in), so that the document browser never goes blank.
    /// `None`: the report is shown already, without details.
    held: Option<Answer>,
    /// The details so far, per model, and the next part's first document.
    details: Vec<Option<Vec<DocumentDetail>>>,
    next: usize,
}

impl Page {
    /// The page as it opens on the example. A worker that `opens` makes
    /// the example's report under the empty settings layer unasked
    /// ([`OPENING_RUN`]): with those settings the page waits for that run;
    /// otherwise (settings from the link, or a worker started without
    /// `open`) it asks for the report, numbered after that run.
    pub fn opening(layer: Map<String, Value>, opens: bool) -> (Page, Vec<Command>) {
        let mut page = Page {
            shows_example: true,
            generation: OPENING_RUN,
            settings: Settings::new(layer),
            ..Page::default()
        };
        if opens && page.settings.layer.is_empty() {
            page.report_run = OPENING_RUN;
            page.report = ReportState::Evaluating {
                previous: None,
                progress: None,
            };
            return (page, Vec::new());
        }
        page.on(Event::Again)
    }

    /// The settings reports are asked for under.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The panels' runs under way.
    pub fn panel_runs(&self) -> &[Generation] {
        &self.panel_runs
    }

    /// The panels' runs whose answers still go to their panel: those under
    /// way and those cancelled but not yet let go of by the worker.
    pub fn panels_listening(&self) -> Vec<Generation> {
        self.panel_runs
            .iter()
            .chain(&self.stopping)
            .copied()
            .collect()
    }

    /// Whether the worker is down (a panic or a failed start).
    pub fn worker(&self) -> Worker {
        self.worker
    }

    /// The schema worker's queue.
    pub fn schema(&self) -> &SchemaQueue {
        &self.schema
    }

    /// The transition function: the state after `event`, and what the
    /// page must do.
    pub fn on(mut self, event: Event) -> (Page, Vec<Command>) {
        let mut commands = Vec::new();
        match event {
            Event::Dropped { files } => {
                self.files_changed();
                self.wake(&mut commands);
                let replace_example = std::mem::take(&mut self.shows_example);
                commands.push(Command::Post(Request::AddFiles {
                    files,
                    replace_example,
                }));
                self.ask_report(&mut commands);
            }
            Event::Edited { edits } => {
                self.files_changed();
                self.wake(&mut commands);
                for edit in edits {
                    match edit {
                        // The worker's session goes, with its corrections.
                        Request::LoadExample => {
                            self.shows_example = true;
                            self.truth.reset();
                        }
                        Request::Clear => {
                            self.shows_example = false;
                            self.truth.reset();
                        }
                        _ => {}
                    }
                    commands.push(Command::Post(edit));
                }
                self.ask_report(&mut commands);
            }
            Event::Settings(edit) => {
                if self.settings.apply(edit) {
                    commands.push(Command::ShowSettings(self.settings.clone()));
                    self.files_changed();
                    self.wake(&mut commands);
                    self.ask_report(&mut commands);
                }
            }
            Event::Again => {
                self.files_changed();
                self.wake(&mut commands);
                self.ask_report(&mut commands);
            }
            Event::Truth(message) => {
                if self.truth.update(message) {
                    self.wake(&mut commands);
                    commands.push(Command::Post(Request::SetCorrections {
                        corrections: self.truth.corrections(),
                    }));
                    self.ask_report(&mut commands);
                }
            }
            Event::Panel(task) => {
                self.wake(&mut commands);
                self.generation += 1;
                self.panel_runs.push(self.generation);
                commands.push(Command::Post(Request::Run {
                    generation: self.generation,
                    task,
                }));
            }
            Event::CancelPanel => {
                for generation in std::mem::take(&mut self.panel_runs) {
                    commands.push(Command::Post(Request::Cancel { generation }));
                    self.stopping.push(generation);
                }
            }
            Event::Ask(request) => {
                self.wake(&mut commands);
                commands.push(Command::Post(request));
            }
            Event::Answer(answer) => self.answer(answer, &mut commands),
            Event::Prebuilt { answers } => {
                for answer in answers {
                    if self.awaits_prebuilt(&answer) {
                        self.answer(answer, &mut commands);
                    }
                }
            }
            // Said once per worker: a panic posts its message, then the
            // trap raises an error event; the first reason stays.
            Event::WorkerFailed { .. } if self.worker == Worker::Down => {}
            Event::WorkerFailed { reason } => {
                self.worker = Worker::Down;
                self.baseline_run = None;
                self.report = ReportState::Failed {
                    reason: format!("The evaluation stopped: {reason}"),
                };
                for generation in std::mem::take(&mut self.panel_runs) {
                    commands.push(Command::ToPanel(Answer::Failed {
                        generation,
                        reason: format!("The evaluation stopped: {reason}"),
                    }));
                }
                // The cancelled runs died with the worker: settled.
                for generation in std::mem::take(&mut self.stopping) {
                    commands.push(Command::ToPanel(Answer::stopped_uncounted(generation)));
                }
            }
            Event::SchemaAnswered { version, answer } => {
                self.move_schema(SchemaEvent::Answered { version, answer }, &mut commands);
            }
            Event::SchemaFailed { version, reason } => {
                self.move_schema(SchemaEvent::Failed { version, reason }, &mut commands);
            }
            Event::View(event) => {
                let mut said = Vec::new();
                self.view.on(event, &mut said);
                commands.extend(said.into_iter().map(Command::View));
            }
        }
        // The report the page draws (the one shown while another is
        // evaluated; none once failed): the panels' results go with it.
        let drawn = match &self.report {
            ReportState::Ready { report, .. } => Some(Arc::as_ptr(report) as usize),
            ReportState::Failed { .. } => Some(0),
            ReportState::Evaluating { .. } | ReportState::Empty => None,
        };
        if let Some(drawn) = drawn {
            let joined = commands.contains(&Command::ShowDetails);
            let mut said = Vec::new();
            self.view.report_drawn(drawn, joined, &mut said);
            commands.extend(said.into_iter().map(Command::View));
        }
        let shown = self.report.report().is_some();
        if shown != self.schema.report_shown() {
            self.move_schema(SchemaEvent::ReportShown(shown), &mut commands);
        }
        (self, commands)
    }

    /// Moves the schema worker's queue; its commands become the page's.
    fn move_schema(&mut self, event: SchemaEvent, commands: &mut Vec<Command>) {
        let (schema, said) = std::mem::take(&mut self.schema).on(event);
        self.schema = schema;
        commands.extend(said.into_iter().map(|command| match command {
            SchemaCommand::Start { job, after_draw } => Command::CheckSchema {
                version: job.version,
                files: job.files,
                id_field: job.id_field,
                schema_by: job.schema_by,
                after_draw,
            },
            SchemaCommand::Relay { version, answer } => {
                Command::Post(Request::Validity { version, answer })
            }
        }));
    }

    /// Whether `answer`, one the build made for [`OPENING_RUN`], is still
    /// wanted: anything while that run is awaited and nothing is shown;
    /// a part of its details while the report shown is that run's
    /// provisional one without them (the worker's report with the validity
    /// in carries details of its own).
    fn awaits_prebuilt(&self, answer: &Answer) -> bool {
        if self.report_run != OPENING_RUN {
            return false;
        }
        match (&self.report, answer) {
            (ReportState::Evaluating { previous: None, .. }, _) => true,
            (
                ReportState::Ready {
                    report,
                    validity: ValidityStatus::Pending,
                },
                Answer::Details { .. },
            ) => lacks_details(report),
            _ => false,
        }
    }

    /// A new worker first, if the last one is down; every file the page
    /// listed is posted to it again.
    fn wake(&mut self, commands: &mut Vec<Command>) {
        if self.worker == Worker::Down {
            self.worker = Worker::Running;
            self.move_schema(SchemaEvent::Restarted, commands);
            let files = self.files.iter().map(FileSummary::again).collect();
            commands.push(Command::Restart {
                files,
                example: self.shows_example,
            });
            // The new worker applies the corrections too.
            if self.truth.corrected() > 0 {
                commands.push(Command::Post(Request::SetCorrections {
                    corrections: self.truth.corrections(),
                }));
            }
        }
    }

    /// The files or settings change: with corrections in force, the
    /// baseline (of the report before) is of other inputs; without, the
    /// next report is the baseline.
    fn files_changed(&mut self) {
        if self.truth.corrected() > 0 {
            self.truth.baseline = None;
        }
        // One under way is of the inputs before.
        self.baseline_run = None;
    }

    /// Asks for the report under the settings; the one under way, and the
    /// panel's run (of the report before), stop.
    fn ask_report(&mut self, commands: &mut Vec<Command>) {
        let settings = self.settings.layer.clone();
        self.stop_panel(commands);
        self.generation += 1;
        self.report_run = self.generation;
        self.run_corrected = self.truth.corrected() > 0;
        let previous = self.report.report().cloned();
        self.report = ReportState::Evaluating {
            previous,
            progress: None,
        };
        commands.push(Command::Post(Request::Run {
            generation: self.generation,
            task: Task::Report { settings },
        }));
    }

    /// The worker listed its files: the config files' JSON goes under the
    /// settings, and a bundle's settings layer (`layer`) replaces the
    /// page's, asking for the report under it.
    fn files_listed(&mut self, layer: Option<Map<String, Value>>, commands: &mut Vec<Command>) {
        let before = self.settings.clone();
        self.settings.set_config_files(
            self.files
                .iter()
                .filter_map(|f| Some((f.name.clone(), f.config.clone()?)))
                .collect(),
        );
        let new_layer = layer.filter(|l| *l != self.settings.layer);
        let asks = new_layer.is_some();
        if let Some(layer) = new_layer {
            self.settings.layer = layer;
        }
        if self.settings != before {
            commands.push(Command::ShowSettings(self.settings.clone()));
        }
        if asks {
            self.files_changed();
            self.wake(commands);
            self.ask_report(commands);
        }
    }

    fn stop_panel(&mut self, commands: &mut Vec<Command>) {
        for generation in std::mem::take(&mut self.panel_runs) {
            commands.push(Command::Post(Request::Cancel { generation }));
        }
    }

    fn answer(&mut self, answer: Answer, commands: &mut Vec<Command>) {
        let Some(generation) = answer.generation() else {
            match answer {
                Answer::Files {
                    files,
                    shows_example,
                    settings,
                    schemas,
                } => {
                    self.files = files.clone();
                    self.shows_example = shows_example;
                    commands.push(Command::ShowFiles { files, schemas });
                    self.files_listed(settings, commands);
                }
                Answer::ValidityJob {
                    version,
                    files,
                    id_field,
                    schema_by,
                } => {
                    let job = SchemaJob {
                        version,
                        files,
                        id_field,
                        schema_by,
                    };
                    self.move_schema(SchemaEvent::Job(job), commands);
                }
                Answer::Notice { message } => {
                    commands.push(Command::View(ViewCommand::Notice(message)))
                }
                Answer::Bundle { for_html, bundle } => {
                    commands.push(Command::Bundle { for_html, bundle })
                }
                Answer::Corrections { corrections } => {
                    // A bundle opened: the report asked for is evaluated
                    // with its corrections.
                    self.truth.load(&corrections);
                    self.run_corrected = self.truth.corrected() > 0;
                }
                Answer::CorrectedTruth { file } => commands.push(Command::CorrectedTruth(file)),
                _ => {}
            }
            return;
        };
        if self.baseline_run == Some(generation) {
            // The report without corrections: the panel's baseline.
            match answer {
                Answer::Report { report, .. } => {
                    self.baseline_run = None;
                    self.truth.baseline = Some(truth::Baseline::of(&report));
                }
                Answer::Progress { .. } => {}
                _ => self.baseline_run = None,
            }
            return;
        }
        if let Some(i) = self.stopping.iter().position(|&g| g == generation) {
            // A run the user cancelled: its progress and result are no
            // longer wanted. Its first other answer (the worker's
            // `Stopped`, or the result it had finished first) says the
            // worker let go of it; later parts of that answer are dropped
            // like any stale one.
            if !matches!(answer, Answer::Progress { .. }) {
                self.stopping.remove(i);
                let stopped = match answer {
                    Answer::Stopped { .. } => answer,
                    _ => Answer::stopped_uncounted(generation),
                };
                commands.push(Command::ToPanel(stopped));
            }
            return;
        }
        let Some(answer) = self.assemble(generation, answer) else {
            return;
        };
        if self.panel_runs.contains(&generation) {
            if !matches!(answer, Answer::Progress { .. }) {
                self.panel_runs.retain(|&g| g != generation);
            }
            commands.push(Command::ToPanel(answer));
            return;
        }
        if generation != self.report_run {
            // Stale: a newer request was made since.
            return;
        }
        match answer {
            Answer::Progress { done, total, .. } => {
                if let ReportState::Evaluating { progress, .. } = &mut self.report {
                    *progress = Some((done, total));
                }
            }
            Answer::Report {
                report, validity, ..
            } => {
                // The same report again (the worker's after the prebuilt
                // one) keeps the one shown: nothing is drawn twice.
                if !self.run_corrected {
                    self.truth.baseline = Some(truth::Baseline::of(&report));
                } else if self.truth.baseline.is_none() && self.baseline_run.is_none() {
                    // Corrected, with no baseline at hand: the worker
                    // evaluates once more without the corrections.
                    self.generation += 1;
                    self.baseline_run = Some(self.generation);
                    commands.push(Command::Post(Request::Run {
                        generation: self.generation,
                        task: Task::Uncorrected,
                    }));
                }
                let same = matches!(&self.report, ReportState::Ready { report: shown, validity: v }
                    if *v == validity && **shown == *report);
                if !same {
                    self.report = ReportState::Ready {
                        report: Arc::new(*report),
                        validity,
                    };
                }
            }
            Answer::Details { details, .. } => {
                // Joined to the report they follow (shown without them);
                // whole ([`Page::assemble`]).
                if let ReportState::Ready { report, validity } = &self.report {
                    if lacks_details(report) {
                        let mut whole = Report::clone(report);
                        join_details(&mut whole, details);
                        self.report = ReportState::Ready {
                            report: Arc::new(whole),
                            validity: validity.clone(),
                        };
                        commands.push(Command::ShowDetails);
                    }
                }
            }
            Answer::Failed { reason, .. } => self.report = ReportState::Failed { reason },
            Answer::Stopped { .. } => {
                self.report = match self.report.report().cloned() {
                    Some(report) => ReportState::Ready {
                        report,
                        validity: ValidityStatus::Final,
                    },
                    None => ReportState::Empty,
                }
            }
            _ => {}
        }
    }

    /// Puts a report's details parts together: `None` while they come
    /// (and for a part out of order or of no report awaited); then the
    /// report held back with its details, or the details whole, as if
    /// they had come in one answer. Any other answer passes.
    fn assemble(&mut self, generation: Generation, answer: Answer) -> Option<Answer> {
        let (report_run, panels) = (self.report_run, &self.panel_runs);
        self.coming
            .retain(|c| c.generation == report_run || panels.contains(&c.generation));
        let awaited = generation == report_run || panels.contains(&generation);
        match answer {
            Answer::Report {
                details_follow: true,
                ..
            } if awaited => {
                self.coming.retain(|c| c.generation != generation);
                let shown_whole = matches!(&self.report, ReportState::Ready { report, .. }
                    if !lacks_details(report));
                let hold = generation != report_run || shown_whole;
                let (held, pass) = if hold {
                    (Some(answer), None)
                } else {
                    (None, Some(answer))
                };
                self.coming.push(Coming {
                    generation,
                    held,
                    details: Vec::new(),
                    next: 0,
                });
                pass
            }
            Answer::Details {
                from,
                details,
                last,
                ..
            } => {
                let i = self
                    .coming
                    .iter()
                    .position(|c| c.generation == generation && c.next == from)?;
                let coming = &mut self.coming[i];
                coming.next += documents_in(&details);
                append_details(&mut coming.details, details);
                if !last {
                    return None;
                }
                let coming = self.coming.remove(i);
                Some(match coming.held {
                    Some(Answer::Report {
                        mut report,
                        validity,
                        evaluation_ms,
                        ..
                    }) => {
                        join_details(&mut report, coming.details);
                        Answer::Report {
                            generation,
                            report,
                            validity,
                            evaluation_ms,
                            details_follow: false,
                        }
                    }
                    _ => Answer::Details {
                        generation,
                        from: 0,
                        details: coming.details,
                        last: true,
                    },
                })
            }
            answer => Some(answer),
        }
    }
}

pub mod confidence;
pub mod failures;
pub mod panel;
pub mod schema_queue;
pub mod truth;
pub mod view;
pub use view::{
    AverageView, LiteratureComputed, Navigate, PanelResults, View, ViewCommand, ViewEvent,
};

#[cfg(test)]
mod tests;
