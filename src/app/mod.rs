//! The browser app (Leptos, client-side rendered): drop files, see the whole
//! evaluation, take it into a paper.
//!
//! Owns: the components and the one app state ([`AppState`]) that wraps
//! the plain [`Session`] in signals. All evaluation logic lives in
//! `crate::session` and `crate::eval` (tested natively); `browser.rs` is the
//! only file that touches web APIs. Nothing here may panic: a panic kills
//! the page.

mod browser;
mod charts_view;
mod compare;
mod documents;
mod evaluation;
mod exports;
mod field_types;
mod files;
mod format;
mod literature;
mod progress;
mod report_view;
mod settings;
mod sweep_view;
mod uncertainty;

use crate::eval::Report;
use crate::session::Session;
use leptos::prelude::*;
use std::sync::Arc;

/// Which average the model table and the bar chart show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AverageView {
    MacroDocuments,
    Micro,
    MacroFields,
}

impl AverageView {
    pub const ALL: [AverageView; 3] = [
        AverageView::MacroDocuments,
        AverageView::Micro,
        AverageView::MacroFields,
    ];

    pub fn key(self) -> &'static str {
        match self {
            AverageView::MacroDocuments => "macro_documents",
            AverageView::Micro => "micro",
            AverageView::MacroFields => "macro_fields",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            AverageView::MacroDocuments => "Macro over documents",
            AverageView::Micro => "Micro",
            AverageView::MacroFields => "Macro over fields",
        }
    }
}

/// Up to this many documents the report carries every document's details
/// at once; beyond it the document browser asks for them when it is opened
/// (they roughly double the evaluation time and its memory).
pub const DETAILS_UP_TO: usize = 2_000;

thread_local! {
    /// How long the last evaluation took (ms), shown on the summary line as
    /// `data-evaluation-ms` for the benchmark (evaluation versus rendering).
    pub static LAST_EVALUATION_MS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
    /// Whether a job is with the schema worker.
    static VALIDATING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The one app state, passed to every component (it is `Copy`).
#[derive(Clone, Copy)]
pub struct AppState {
    pub session: RwSignal<Session>,
    /// The report of the session's files and settings, or why there is
    /// none. Set by `evaluation::request_report` when an evaluation ends;
    /// while one runs it keeps the last report.
    pub report: RwSignal<Result<Arc<Report>, String>>,
    /// The evaluation under way, if any, and how far it got.
    pub evaluating: RwSignal<Option<evaluation::EvaluationProgress>>,
    pub average: RwSignal<AverageView>,
    /// A message about the last action (an export, a file read).
    pub notice: RwSignal<Option<String>>,
    /// What the app is busy with (reading, parsing, evaluating), shown in
    /// the status bar while it lasts.
    pub busy: RwSignal<Option<String>>,
    /// How far what `busy` says has got (`done` of `total`), if it says.
    pub busy_progress: RwSignal<Option<(usize, usize)>>,
    /// While true the report keeps its last value: files are being added
    /// one by one and the evaluation runs once, at the end.
    pub hold_report: RwSignal<bool>,
    /// Bootstrap intervals computed for the current report (error bars in
    /// the score chart); cleared whenever the report changes.
    pub bootstrap: RwSignal<Option<Arc<crate::eval::bootstrap::BootstrapReport>>>,
    /// The literature metrics computed for the current report (the
    /// literature panel, and the HTML, Markdown and LaTeX exports);
    /// cleared whenever the report changes.
    pub literature: RwSignal<Option<literature::Computed>>,
    /// The document the user asked to see from elsewhere on the page (a
    /// flipped document of the "Compare two models" panel): the document
    /// browser opens it, its details computed first if needed.
    pub open_document: RwSignal<Option<String>>,
    /// Whether the schema validity of the current files is unknown — the
    /// schema worker is still checking the predictions, or it failed: the
    /// report is then provisional in the values that depend on validity,
    /// which are not shown and not exported (see `Session::evaluate_with`).
    pub validity_unknown: Memo<bool>,
    /// Why the schema worker could not compute the validity, if it could
    /// not.
    pub validity_failure: Memo<Option<String>>,
}

impl AppState {
    fn new(session: Session) -> Self {
        let session = RwSignal::new(session);
        let hold_report = RwSignal::new(false);
        // The first report (the example, or a bundle) is evaluated at once,
        // so the page opens on it; later ones a slice at a time.
        let start = js_sys::Date::now();
        let report = session.with_untracked(|s| s.evaluate_with(wants_details(s)));
        LAST_EVALUATION_MS.set(js_sys::Date::now() - start);
        let report = RwSignal::new(report.map(Arc::new));
        AppState {
            session,
            report,
            evaluating: RwSignal::new(None),
            average: RwSignal::new(AverageView::MacroDocuments),
            notice: RwSignal::new(None),
            busy: RwSignal::new(None),
            busy_progress: RwSignal::new(None),
            hold_report,
            bootstrap: RwSignal::new(None),
            literature: RwSignal::new(None),
            open_document: RwSignal::new(None),
            validity_unknown: Memo::new(move |_| {
                session.with(|s| s.validity_pending() || s.validity_failure().is_some())
            }),
            validity_failure: Memo::new(move |_| session.with(Session::validity_failure)),
        }
    }
}

/// Whether the report carries every document's details: up to
/// [`DETAILS_UP_TO`] documents.
pub(crate) fn wants_details(session: &Session) -> bool {
    session.truth().and_then(|t| t.records()).unwrap_or(0) <= DETAILS_UP_TO
}

/// Mounts the app on the page's body.
pub fn start() {
    browser::install_panic_panel();
    leptos::mount::mount_to_body(App);
    if browser::panic_test_requested() {
        panic!("a test of the panic panel (the page was opened with ?panic-test)");
    }
}

#[component]
fn App() -> impl IntoView {
    let mut session = Session::example();
    if let Some(settings) = browser::read_fragment().and_then(|f| settings::from_fragment(&f)) {
        session.settings = settings;
    }
    let state = AppState::new(session);
    // Every change of the files or settings asks for a new report (while
    // files are being added, once at the end). The first report is
    // already there.
    Effect::new(move |first: Option<()>| {
        let held = state.hold_report.get();
        state.session.track();
        if held {
            // Files are being added: an evaluation of the files before
            // would only slow their parsing down.
            evaluation::stop_reports();
        }
        if first.is_none() || held {
            return;
        }
        let work = state.session.with_untracked(|s| s.work(wants_details(s)));
        evaluation::request_report(state, work);
    });
    // Intervals belong to the report they were computed for.
    Effect::new(move |_| {
        state.report.track();
        state.bootstrap.set(None);
        state.literature.set(None);
    });
    // Schema validity comes from the schema worker, a job at a time; its
    // answer changes the session, which asks again if the files or the id
    // field changed meanwhile.
    Effect::new(move |_| {
        let Some(job) = state.session.with(Session::validity_job) else {
            return;
        };
        if VALIDATING.replace(true) {
            return;
        }
        leptos::task::spawn_local(async move {
            browser::mark("fieldscope:validity-start");
            let answer = browser::schema_validity(&job).await;
            browser::mark("fieldscope:validity-end");
            VALIDATING.set(false);
            state.session.try_update(|s| s.store_validity(job, answer));
        });
    });
    // Settings live in the URL fragment, so a link reproduces the view
    // (never the data).
    Effect::new(move |_| {
        let fragment = state.session.with(|s| settings::to_fragment(&s.settings));
        browser::write_fragment(&fragment);
    });
    // The status bar's parts, each redrawn only when it changes (an
    // evaluation's progress moves many times a second).
    let busy_text = Memo::new(move |_| {
        state
            .busy
            .get()
            .or_else(|| state.evaluating.with(|e| e.map(|e| e.label())))
    });
    // The bar's `done` of `total`: what `busy` says, else the evaluation's.
    let progress = Memo::new(move |_| match state.busy.with(Option::is_some) {
        true => state.busy_progress.get().filter(|&(_, total)| total > 0),
        false => state
            .evaluating
            .with(|e| e.filter(|e| e.total > 0).map(|e| (e.done, e.total))),
    });
    let progress_shown = Memo::new(move |_| progress.with(Option::is_some));
    let evaluating = Memo::new(move |_| state.evaluating.with(Option::is_some));
    view! {
        <files::DropZone state=state>
            <header class="top">
                <h1>"fieldscope"</h1>
                <p class="tagline">"How well does each model extract structured data? Everything runs in this browser tab; no file leaves your machine."</p>
            </header>
            <div class="busy-bar" role="status" aria-live="polite">
                {move || busy_text.get().map(|text| view! {
                    <p class="busy" data-testid="busy">
                        <span class="spinner" aria-hidden="true"></span>
                        {text}
                        <Show when=move || progress_shown.get()>
                            <progress
                                data-testid="busy-progress"
                                aria-label="Progress"
                                max=move || progress.get().map_or(0, |p| p.1)
                                value=move || progress.get().map_or(0, |p| p.0)
                            ></progress>
                        </Show>
                    </p>
                })}
            </div>
            <main class="layout">
                <aside class="sidebar">
                    <files::FilePanel state=state />
                    <settings::SettingsPanel state=state />
                </aside>
                <section class="content" aria-busy=move || evaluating.get().to_string()>
                    <report_view::ReportView state=state />
                </section>
            </main>
        </files::DropZone>
    }
}
