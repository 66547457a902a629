//! The page's side of the evaluation worker: every event goes through
//! [`dispatch`] into the one report state (`crate::report_state::Page`,
//! pure and tested natively), and the commands it returns are carried out
//! here — posting to the worker (with the dropped `File`s it names),
//! restarting it, handing the schema worker its job, giving a panel its
//! answer — and the signals the views read are set from the state. No
//! pacing, no computation: the worker runs, the page renders. May depend
//! on leptos, `browser.rs`, `protocol`, `report_state`.

use super::browser::{self, EvalWorker, Opening, WorkerMessage};
use super::link::PanelSink;
use super::state::{AppState, EvaluationProgress};
use crate::protocol::{decode, encode, lacks_details, Answer, Lane, NewFile, Request, Role};
use crate::report_state::{
    Command, Event, Navigate, Page, ReportState, ViewCommand, ViewEvent, Worker,
};
use crate::session::SettingsEdit;
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// Starts the evaluation worker; its messages become events.
fn start_worker(state: AppState) -> Option<EvalWorker> {
    // Each answer is carried out in a task after the one that decoded it,
    // so that a large report's decoding and its first drawing are two
    // tasks, not one (issue 34). Every message goes the same way, so the
    // answers keep their order.
    let on = move |message: WorkerMessage| match message {
        Err(reason) => browser::next_task(move || dispatch(state, Event::WorkerFailed { reason })),
        Ok((bytes, buffers)) => match decode::<Answer>(&bytes) {
            Ok(answer) => browser::next_task(move || {
                match &answer {
                    Answer::ValidityJob { version, .. } => {
                        let job = Some((*version, buffers));
                        state.link.update_value(|l| l.job_buffers = job);
                    }
                    Answer::Opened { ids } => state.link.update_value(|l| {
                        l.files.retain(|(id, _)| !ids.contains(id));
                        l.files.extend(ids.iter().copied().zip(buffers));
                    }),
                    _ => {}
                }
                dispatch(state, Event::Answer(answer));
            }),
            Err(e) => browser::next_task(move || notify(state, e)),
        },
    };
    match EvalWorker::start(on) {
        Ok(worker) => Some(worker),
        Err(reason) => {
            // Said once the state is there.
            leptos::task::spawn_local(async move {
                dispatch(state, Event::WorkerFailed { reason });
            });
            None
        }
    }
}

/// Starts the worker and asks for the first report (the example's, which
/// the worker loads itself), or waits for the one the worker makes
/// unasked (`Page::opening`). Meanwhile the build's answers to that run
/// (`protocol::OPENING_FILE`), if they come first, draw the example's
/// report.
pub fn open(state: AppState) {
    let worker = start_worker(state);
    let opens = worker.as_ref().is_some_and(EvalWorker::opens);
    let opening = worker.as_ref().and_then(EvalWorker::opening);
    state.link.update_value(|l| l.worker = worker);
    let settings = state.settings.with_untracked(|s| s.layer.clone());
    let (page, commands) = Page::opening(settings, opens);
    state.page.set_value(page);
    carry_out_all(state, commands);
    // A worker started with `wait` loads its module once the page has
    // painted the build's report (the two do not compile on the same two
    // cores), or at once without one; any request lets it load too.
    let go = move || {
        state
            .link
            .with_value(|l| l.worker.as_ref().map(EvalWorker::go));
    };
    let prebuilt =
        move |bytes: Option<Vec<u8>>| match bytes.map(|bytes| decode::<Vec<Answer>>(&bytes)) {
            Some(Ok(answers)) => {
                // Fetched now, shown once the report is painted; then
                // the worker's module loads.
                let details = browser::fetch_bytes(crate::protocol::OPENING_DETAILS_FILE);
                dispatch(state, Event::Prebuilt { answers });
                browser::after_next_paint(move || prebuilt_details(state, details, go));
            }
            _ => go(),
        };
    match opening {
        // Fetched while the page's module loaded: drawn in the page's
        // first frame.
        Some(Opening::Here(bytes)) => prebuilt(Some(bytes)),
        Some(Opening::Coming(bytes)) => {
            leptos::task::spawn_local(async move { prebuilt(bytes.await) })
        }
        None => go(),
    }
}

/// The example's document details as the build made them
/// (`protocol::OPENING_DETAILS_FILE`, `details` the fetch started with the
/// page), shown once its report is painted: the document browser's rows
/// then need not wait for the worker's module to load and evaluate
/// (without them the worker's own details come). `then` after they are
/// painted (or at once if they cannot be had).
fn prebuilt_details(
    state: AppState,
    details: impl std::future::Future<Output = Option<Vec<u8>>> + 'static,
    then: impl FnOnce() + 'static,
) {
    leptos::task::spawn_local(async move {
        match details.await.map(|bytes| decode::<Vec<Answer>>(&bytes)) {
            Some(Ok(answers)) => {
                dispatch(state, Event::Prebuilt { answers });
                browser::after_next_paint(then);
            }
            _ => then(),
        }
    });
}

/// Files dropped or picked: given ids, kept, handed to the worker.
pub fn drop_files(state: AppState, files: Vec<web_sys::File>) {
    let base = state.link.with_value(|l| {
        l.files
            .iter()
            .map(|(id, _)| *id)
            .max()
            .map_or(FIRST_DROPPED_ID, |m| m + 1)
    });
    let mut new = Vec::new();
    state.link.update_value(|l| {
        l.dropped.clear();
        for (i, file) in files.into_iter().enumerate() {
            let id = base + i as u32;
            new.push(NewFile {
                id,
                name: file.name(),
                role: None,
                model: None,
                cost: None,
            });
            l.dropped.push(id);
            l.files.push((id, file.into()));
        }
    });
    browser::mark("fieldscope:read");
    dispatch(state, Event::Dropped { files: new });
}

/// The ids of dropped files start here (the worker numbers the example's
/// and a bundle's files from 0).
const FIRST_DROPPED_ID: u32 = 1 << 20;

/// An edit of the files (a role, a name, a cost, a removal, the example),
/// then a new report.
pub fn edit(state: AppState, edit: Request) {
    if let Request::Remove { id } = edit {
        state
            .link
            .update_value(|l| l.files.retain(|(f, _)| *f != id));
    }
    if matches!(edit, Request::Clear | Request::LoadExample) {
        state.link.update_value(|l| l.files.clear());
    }
    dispatch(state, Event::Edited { edits: vec![edit] });
}

/// A panel asks for `task`; `sink` gets the answers.
pub fn run_panel(state: AppState, task: crate::protocol::Task, sink: PanelSink) {
    state.link.update_value(|l| l.next_panel = Some(sink));
    dispatch(state, Event::Panel(task));
}

/// Starts a new evaluation worker with the files listed (the error
/// panel's button; any other request does the same).
pub fn restart(state: AppState) {
    dispatch(state, Event::Again);
}

/// A settings panel, type menu, suggestion or picker changes the
/// settings: the report state applies it, shows the settings
/// (`Command::ShowSettings`) and asks for the report under them.
pub fn edit_settings(state: AppState, edit: SettingsEdit) {
    dispatch(state, Event::Settings(edit));
}

/// A panel changed what the page shows beside the report (a notice, the
/// files being read, the average, the document browser, its result): the
/// report state moves its view (`report_state::view`) and says what to
/// draw.
pub fn tell(state: AppState, event: ViewEvent) {
    dispatch(state, Event::View(event));
}

/// Says `message` in the notice line, through the report state.
pub fn notify(state: AppState, message: impl Into<String>) {
    tell(state, ViewEvent::Notice(message.into()));
}

/// Asks the worker for the bundle; `then` gets it.
pub fn ask_bundle(
    state: AppState,
    for_html: bool,
    then: impl FnOnce(Result<String, String>) + 'static,
) {
    state.link.update_value(|l| l.bundle = Some(Box::new(then)));
    let settings = state.settings.with_untracked(|s| s.layer.clone());
    dispatch(state, Event::Ask(Request::Bundle { for_html, settings }));
}

/// Runs `event` through the report state, sets the signals the views
/// read, and carries out the commands.
pub fn dispatch(state: AppState, event: Event) {
    let evaluation_ms = match &event {
        Event::Answer(Answer::Report { evaluation_ms, .. }) => Some(*evaluation_ms),
        _ => None,
    };
    let Some(commands) = state.page.try_update_value(|page| {
        let (next, commands) = std::mem::take(page).on(event);
        *page = next;
        commands
    }) else {
        return;
    };
    let details_only = commands.contains(&Command::ShowDetails);
    show(state, evaluation_ms, details_only);
    carry_out_all(state, commands);
    // Sinks of runs that ended (or were dropped with their report), and
    // the bytes of a schema job the queue dropped.
    let (live, waiting) = state
        .page
        .with_value(|p| (p.panels_listening(), p.schema().waiting()));
    state.link.update_value(|l| {
        l.panels.retain(|(g, _)| live.contains(g));
        if l.job_buffers
            .as_ref()
            .is_some_and(|(v, _)| Some(*v) != waiting)
        {
            l.job_buffers = None;
        }
    });
}

fn carry_out_all(state: AppState, commands: Vec<Command>) {
    for command in commands {
        carry_out(state, command);
    }
}

/// Sets the signals the views read from the report state; when only the
/// shown report's details joined it (`details_only`), just `details`.
fn show(state: AppState, evaluation_ms: Option<f64>, details_only: bool) {
    let (report, files) = state
        .page
        .with_value(|p| (p.report.clone(), p.files.clone()));
    match report {
        ReportState::Empty => {}
        ReportState::Evaluating { progress, .. } => {
            let documents = files
                .iter()
                .find(|f| f.role == Role::Truth)
                .and_then(|f| f.records)
                .unwrap_or(0);
            let models = files
                .iter()
                .filter(|f| f.role == Role::Predictions && f.records.is_some())
                .count();
            let (done, total) = progress.unwrap_or((0, 0));
            state.evaluating.set(Some(EvaluationProgress {
                documents,
                models,
                done,
                total,
            }));
        }
        ReportState::Ready { report, validity } => {
            // The report drawn, or the one whose details joined it.
            let same =
                state.report.with_untracked(|r| {
                    r.as_ref().is_ok_and(|r| std::sync::Arc::ptr_eq(r, &report))
                }) || state.details.with_untracked(|d| {
                    d.as_ref()
                        .is_some_and(|d| std::sync::Arc::ptr_eq(d, &report))
                }) || state.link.with_value(|l| {
                    l.details_waiting
                        .as_ref()
                        .is_some_and(|d| std::sync::Arc::ptr_eq(d, &report))
                });
            if let Some(ms) = evaluation_ms {
                state.evaluation_ms.set(ms);
            }
            if !same {
                drop_after_paint(state);
            }
            if details_only && !same {
                show_details_after_paint(state, report);
            } else if !same {
                browser::mark("fieldscope:evaluation-end");
                let details = (!lacks_details(&report)).then(|| report.clone());
                state.report.set(Ok(report));
                state.details.set(details);
            }
            if state.validity.with_untracked(|v| *v != validity) {
                state.validity.set(validity);
            }
            state.evaluating.set(None);
        }
        ReportState::Failed { reason } => {
            state.report.set(Err(reason));
            state.evaluating.set(None);
        }
    }
    let truth = state.page.with_value(|p| p.truth.clone());
    if state.truth.with_untracked(|t| *t != truth) {
        state.truth.set(truth);
    }
    let stopped = state.page.with_value(|p| p.worker() == Worker::Down);
    if state.worker_stopped.get_untracked() != stopped {
        state.worker_stopped.set(stopped);
    }
}

/// Keeps the report and details the page shows now until after the next
/// paint, so that freeing them (30,000 field rows and every compared
/// value on a wide benchmark, tens of milliseconds) happens in a task of
/// its own, not in the one that draws their successor (issue 34).
fn drop_after_paint(state: AppState) {
    let report = state.report.with_untracked(|r| r.as_ref().ok().cloned());
    let details = state.details.get_untracked();
    if report.is_some() || details.is_some() {
        browser::after_next_paint(move || drop((report, details)));
    }
}

/// Shows the details that joined the report drawn once that report has
/// been painted, and only if it is still the one shown: the worker sends
/// them right after the report, and drawn in the same frame the two were
/// one layout of the whole page (the invoice benchmark's drop, issue 34).
fn show_details_after_paint(state: AppState, report: std::sync::Arc<crate::eval::report::Report>) {
    let drawn = state.report.with_untracked(|r| r.as_ref().ok().cloned());
    state
        .link
        .update_value(|l| l.details_waiting = Some(report.clone()));
    browser::after_next_paint(move || {
        let waiting = state.link.try_update_value(|l| {
            let ours = l
                .details_waiting
                .as_ref()
                .is_some_and(|w| std::sync::Arc::ptr_eq(w, &report));
            if ours {
                l.details_waiting = None;
            }
            ours
        });
        let still = state.report.with_untracked(|r| match (r, &drawn) {
            (Ok(shown), Some(drawn)) => std::sync::Arc::ptr_eq(shown, drawn),
            _ => false,
        });
        if waiting == Some(true) && still {
            state.details.set(Some(report));
        }
    });
}

fn carry_out(state: AppState, command: Command) {
    match command {
        Command::Post(request) => post(state, &request),
        Command::Restart { mut files, example } => {
            state.link.update_value(|l| l.worker = None);
            let worker = start_worker(state);
            state.link.update_value(|l| l.worker = worker);
            let request = if example {
                Request::LoadExample
            } else {
                // Only what the page holds can go again (its bytes follow
                // the list, in order).
                let held = state
                    .link
                    .with_value(|l| l.files.iter().map(|(id, _)| *id).collect::<Vec<_>>());
                files.retain(|f| held.contains(&f.id));
                Request::AddFiles {
                    files,
                    replace_example: true,
                }
            };
            post(state, &request);
        }
        Command::CheckSchema {
            version,
            files,
            id_field,
            schema_by,
            after_draw,
        } => {
            let buffers = state
                .link
                .try_update_value(|l| match l.job_buffers.take() {
                    Some((v, buffers)) if v == version => buffers,
                    other => {
                        l.job_buffers = other;
                        Vec::new()
                    }
                })
                .unwrap_or_default();
            let files = files
                .into_iter()
                .map(|(_, name, role)| (name, role))
                .collect();
            let check = move || check_schema(state, version, files, buffers, id_field, schema_by);
            if after_draw {
                // In a task after the one that draws the report.
                leptos::prelude::set_timeout(check, std::time::Duration::ZERO);
            } else {
                check();
            }
        }
        Command::ToPanel(answer) => {
            let sink = answer.generation().and_then(|g| {
                state.link.with_value(|l| {
                    l.panels
                        .iter()
                        .find(|(run, _)| *run == g)
                        .map(|(_, s)| Rc::clone(s))
                })
            });
            if let Some(sink) = sink {
                sink(answer);
            }
        }
        Command::ShowFiles { files, schemas } => {
            state.schemas.set(schemas.map(|s| *s));
            show_files(state, files);
        }
        Command::ShowSettings(settings) => state.settings.set(settings),
        Command::View(command) => show_view(state, command),
        // Drawn by `show`, which sets `details` alone for it.
        Command::ShowDetails => {}
        Command::CorrectedTruth(file) => {
            if let Err(e) = super::truth_check::download_corrected(file) {
                state.notice.set(Some(e));
            }
        }
        Command::Bundle { bundle, .. } => {
            let then = state.link.try_update_value(|l| l.bundle.take()).flatten();
            if let Some(then) = then {
                then(bundle);
            }
        }
    }
}

/// Sets the signals of the view beside the report (`report_state::view`).
fn show_view(state: AppState, command: ViewCommand) {
    match command {
        ViewCommand::Notice(message) => state.notice.set(Some(message)),
        ViewCommand::ClearNotice => state.notice.set(None),
        ViewCommand::Busy(line) => state.busy.set(line),
        ViewCommand::ShowAverage(average) => state.average.set(average),
        ViewCommand::Navigate(Navigate::OpenDocument(id)) => state.open_document.set(Some(id)),
        ViewCommand::Navigate(Navigate::Browse(browse)) => {
            state.browse.set(Some(browse));
            browser::scroll_to_test_id("document-browser");
        }
        ViewCommand::ShowResults(results) => {
            if state.bootstrap.with_untracked(|b| *b != results.bootstrap) {
                state.bootstrap.set(results.bootstrap);
            }
            if state
                .literature
                .with_untracked(|l| *l != results.literature)
            {
                state.literature.set(results.literature);
            }
        }
    }
}

/// Posts `request` with the files it names.
fn post(state: AppState, request: &Request) {
    if let Request::Run { generation, task } = request {
        if task.lane() == Lane::Report {
            browser::mark("fieldscope:evaluation-start");
        }
        if task.lane() == Lane::Panel {
            state.link.update_value(|l| {
                if let Some(sink) = l.next_panel.take() {
                    l.panels.push((*generation, sink));
                }
            });
        }
    }
    let bytes = encode(request);
    state.link.with_value(|l| {
        let Some(worker) = &l.worker else { return };
        let files: Vec<JsValue> = match request {
            Request::AddFiles { files, .. } => files
                .iter()
                .filter_map(|f| l.files.iter().find(|(id, _)| *id == f.id))
                .map(|(_, file)| file.clone())
                .collect(),
            _ => Vec::new(),
        };
        worker.post(&bytes, &files);
    });
}

/// The file list as the worker has it: the panel's list and the status
/// line while files of a drop are parsed (the config files' JSON and a
/// bundle's settings reach the settings through the report state).
fn show_files(state: AppState, files: Vec<crate::protocol::FileSummary>) {
    let dropped = state.link.with_value(|l| l.dropped.clone());
    let parsing = dropped.iter().enumerate().find_map(|(i, id)| {
        files
            .iter()
            .find(|f| f.id == *id && f.pending)
            .map(|f| (i, f))
    });
    match parsing {
        Some((i, f)) => state.busy.set(Some(format!(
            "Parsing {} ({} of {}, {})…",
            f.name,
            i + 1,
            dropped.len(),
            crate::report_state::view::human_size(f.bytes as usize)
        ))),
        None if !dropped.is_empty() => {
            browser::mark("fieldscope:parsed");
            state.link.update_value(|l| l.dropped.clear());
            state.busy.set(None);
        }
        None => {}
    }
    state.files.set(files);
}

/// Hands the schema worker job `version` (the page state's queue has
/// decided it may start); its answer, or its failure, is an event.
fn check_schema(
    state: AppState,
    version: u64,
    files: Vec<(String, Role)>,
    buffers: Vec<JsValue>,
    id_field: Option<String>,
    schema_by: Option<String>,
) {
    leptos::task::spawn_local(async move {
        browser::mark("fieldscope:validity-start");
        let validator = state.helpers.get_value().schema;
        let answer = browser::schema_check(&validator, files, buffers, id_field, schema_by).await;
        browser::mark("fieldscope:validity-end");
        let event = match answer {
            Ok(answer) => Event::SchemaAnswered { version, answer },
            Err(reason) => Event::SchemaFailed { version, reason },
        };
        dispatch(state, event);
    });
}
