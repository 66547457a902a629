//! The browser app (Leptos, client-side rendered): drop files, see the whole
//! evaluation, take it into a paper.
//!
//! Owns: the components and the one app state ([`AppState`]) that wraps
//! the page's part of the session (its [`Settings`]) and the report state
//! in signals. All evaluation logic lives in
//! `crate::session` and `crate::eval` (tested natively); `browser.rs` is the
//! only file that touches web APIs. Nothing here may panic: a panic kills
//! the page.

mod browser;
mod charts_view;
mod compare;
mod confidence;
mod documents;
mod evaluation;
mod exports;
mod field_matrix;
mod field_types;
mod files;
mod format;
mod literature;
mod progress;
mod report_view;
mod settings;
mod sweep_view;
mod truth_check;
mod uncertainty;
mod where_it_fails;

use crate::eval::Report;
use crate::protocol::{FileSummary, ValidityStatus};
use crate::report_state::{self, Page};
use crate::session::Settings;
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
/// at once (the worker decides; see `crate::service`).
pub use crate::service::DETAILS_UP_TO;

/// The one app state, passed to every component (it is `Copy`).
#[derive(Clone, Copy)]
pub struct AppState {
    /// The settings panel's layer (and the config files' JSON under it):
    /// the page's part of the session. The files themselves are the
    /// evaluation worker's (`files` lists them).
    pub settings: RwSignal<Settings>,
    /// The files as the evaluation worker lists them.
    pub files: RwSignal<Vec<FileSummary>>,
    /// With several schemas (SPEC §7.2): what the file list shows.
    pub schemas: RwSignal<Option<crate::session::SchemaOverview>>,
    /// The one report state (`crate::report_state`), changed only by
    /// `evaluation::dispatch`.
    pub page: StoredValue<Page, LocalStorage>,
    /// The evaluation worker and what the page keeps beside the state.
    pub link: StoredValue<evaluation::Link, LocalStorage>,
    /// The export and schema workers, started when first asked.
    pub helpers: StoredValue<browser::Helpers, LocalStorage>,
    /// The report of the session's files and settings, or why there is
    /// none; while an evaluation runs it keeps the last report. Set from
    /// `page`. The report view is drawn again when it changes, but not
    /// when its document details join it (`details`).
    pub report: RwSignal<Result<Arc<Report>, String>>,
    /// The report shown, with every document's details once they are all
    /// in (`report_state::Command::ShowDetails`): what the document browser
    /// and the exports read; `None` until then (or without details).
    pub details: RwSignal<Option<Arc<Report>>>,
    /// What the page knows of the report's schema validity.
    pub validity: RwSignal<ValidityStatus>,
    /// How long the worker took for the report shown (ms), on the summary
    /// line as `data-evaluation-ms` for the benchmark.
    pub evaluation_ms: RwSignal<f64>,
    /// The evaluation worker stopped (a panic, or it could not start):
    /// the report area says why and offers a restart. Set from `page`.
    pub worker_stopped: RwSignal<bool>,
    /// The evaluation under way, if any, and how far it got.
    pub evaluating: RwSignal<Option<evaluation::EvaluationProgress>>,
    pub average: RwSignal<AverageView>,
    /// A message about the last action (an export, a file read).
    pub notice: RwSignal<Option<String>>,
    /// What the app is busy with (reading, parsing), shown in the status
    /// bar while it lasts.
    pub busy: RwSignal<Option<String>>,
    /// Bootstrap intervals computed for the current report (error bars in
    /// the score chart); cleared whenever the report changes.
    pub bootstrap: RwSignal<Option<Arc<crate::eval::bootstrap::BootstrapReport>>>,
    /// The literature metrics computed for the current report (the
    /// literature panel, and the HTML, Markdown and LaTeX exports);
    /// cleared whenever the report changes.
    pub literature: RwSignal<Option<literature::Computed>>,
    /// The "Check the truth" panel's state, as the page's state has it
    /// (set from `page` by `evaluation::dispatch`).
    pub truth: RwSignal<crate::report_state::truth::TruthCheck>,
    /// The document the user asked to see from elsewhere on the page (a
    /// flipped document of the "Compare two models" panel): the document
    /// browser opens it, its details computed first if needed.
    pub open_document: RwSignal<Option<String>>,
    /// What the "Where it fails" view asked the document browser to show
    /// (a segment's or a slice's documents): the browser takes it, sets
    /// its filters from it and clears it.
    pub browse: RwSignal<Option<crate::report_state::failures::Browse>>,
    /// Whether the schema validity of the report is unknown — the schema
    /// worker is still checking the predictions, or it failed: the
    /// validity-dependent values are not shown and not exported.
    pub validity_unknown: Memo<bool>,
    /// Why the schema worker could not compute the validity, if it could
    /// not.
    pub validity_failure: Memo<Option<String>>,
}

impl AppState {
    fn new(settings: Settings) -> Self {
        let validity = RwSignal::new(ValidityStatus::Final);
        AppState {
            settings: RwSignal::new(settings),
            files: RwSignal::new(Vec::new()),
            schemas: RwSignal::new(None),
            page: StoredValue::new_local(Page::default()),
            link: StoredValue::new_local(evaluation::Link::default()),
            helpers: StoredValue::new_local(browser::Helpers::default()),
            report: RwSignal::new(Err("Loading the example…".to_string())),
            details: RwSignal::new(None),
            validity,
            evaluation_ms: RwSignal::new(0.0),
            worker_stopped: RwSignal::new(false),
            evaluating: RwSignal::new(None),
            average: RwSignal::new(AverageView::MacroDocuments),
            notice: RwSignal::new(None),
            busy: RwSignal::new(None),
            bootstrap: RwSignal::new(None),
            literature: RwSignal::new(None),
            truth: RwSignal::new(Default::default()),
            open_document: RwSignal::new(None),
            browse: RwSignal::new(None),
            validity_unknown: Memo::new(move |_| validity.with(evaluation::validity_unknown)),
            validity_failure: Memo::new(move |_| match validity.get() {
                ValidityStatus::Failed(why) => Some(why),
                _ => None,
            }),
        }
    }
}

/// Mounts the app on the page's body.
pub fn start() {
    browser::install_panic_panel();
    leptos::mount::mount_to_body(App);
    if browser::query_flag("panic-test") {
        panic!("a test of the panic panel (the page was opened with ?panic-test)");
    }
}

#[component]
fn App() -> impl IntoView {
    let layer = browser::read_fragment()
        .and_then(|f| settings::from_fragment(&f))
        .unwrap_or_default();
    let state = AppState::new(Settings::new(layer));
    // The worker loads the example; its report is asked for at once.
    evaluation::open(state);
    // Every change of the settings asks for a new report (the files'
    // changes ask for theirs as they are made).
    let settings = Memo::new(move |_| state.settings.with(|s| s.layer.clone()));
    Effect::new(move |first: Option<()>| {
        let settings = settings.get();
        if first.is_some() {
            evaluation::dispatch(state, report_state::Event::Changed { settings });
        }
    });
    // Intervals belong to the report they were computed for.
    Effect::new(move |_| {
        state.report.track();
        state.bootstrap.set(None);
        state.literature.set(None);
    });
    // Settings live in the URL fragment, so a link reproduces the view
    // (never the data).
    Effect::new(move |_| {
        let fragment = settings.with(settings::to_fragment);
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
        true => None,
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
                {browser::query_flag("worker-panic-test").then(|| view! {
                    <button
                        data-testid="worker-panic-test"
                        on:click=move |_| evaluation::dispatch(
                            state,
                            report_state::Event::Ask(crate::protocol::Request::PanicTest),
                        )
                    >"Make the evaluation worker panic (test)"</button>
                })}
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
