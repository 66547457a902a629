//! The page's one app state ([`AppState`]): the signals every component
//! reads (the settings, the files, the report shown and what the panels
//! computed for it) and the report state machine they are set from, passed
//! to every component (it is `Copy`); and which average the tables show
//! ([`AverageView`]).
//!
//! Owns: the state's shape and its initial values, and the plain types of
//! its parts (an evaluation's progress, the literature metrics computed).
//! Drawn by `app` (the root component) and read by its sibling panels; it
//! uses only `link` and `browser` (which use nothing of it) and nothing
//! above `app`, so that no panel it holds a part of imports it in a cycle.

use super::browser;
use super::link::Link;
use crate::eval::Report;
use crate::protocol::{FileSummary, ValidityStatus};
use crate::report_state::{AverageView, LiteratureComputed, Page};
use crate::session::Settings;
use leptos::prelude::*;
use std::sync::Arc;

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
    pub schemas: RwSignal<Option<crate::protocol::SchemaOverview>>,
    /// The one report state (`crate::report_state`), changed only by
    /// `evaluation::dispatch`.
    pub page: StoredValue<Page, LocalStorage>,
    /// The evaluation worker and what the page keeps beside the state.
    pub link: StoredValue<Link, LocalStorage>,
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
    pub evaluating: RwSignal<Option<EvaluationProgress>>,
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
    pub literature: RwSignal<Option<LiteratureComputed>>,
    /// The "Check the truth" panel's state, as the page's state has it
    /// (set from `page` by `evaluation::dispatch`).
    pub truth: RwSignal<crate::report_state::truth::TruthCheck>,
    /// What is typed in the "Check the truth" rows' value boxes, by
    /// (document id, field): the panel is drawn anew with each report, and
    /// the text stays until Set sends it (`truth_check::Drafts`).
    pub truth_drafts: super::truth_check::Drafts,
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
    pub fn new(settings: Settings) -> Self {
        let validity = RwSignal::new(ValidityStatus::Final);
        AppState {
            settings: RwSignal::new(settings),
            files: RwSignal::new(Vec::new()),
            schemas: RwSignal::new(None),
            page: StoredValue::new_local(Page::default()),
            link: StoredValue::new_local(Link::default()),
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
            truth_drafts: StoredValue::new(Default::default()),
            open_document: RwSignal::new(None),
            browse: RwSignal::new(None),
            validity_unknown: Memo::new(move |_| validity.with(validity_unknown)),
            validity_failure: Memo::new(move |_| match validity.get() {
                ValidityStatus::Failed(why) => Some(why),
                _ => None,
            }),
        }
    }
}

/// How far an evaluation got, for the status bar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvaluationProgress {
    pub documents: usize,
    pub models: usize,
    /// `done` of `total` units; `(0, 0)` before the worker has said.
    pub done: usize,
    pub total: usize,
}

impl EvaluationProgress {
    /// "Evaluating 10000 documents × 3 models…"
    pub fn label(&self) -> String {
        format!(
            "Evaluating {} documents × {} model{}…",
            self.documents,
            self.models,
            if self.models == 1 { "" } else { "s" }
        )
    }
}

/// Whether the report's validity-dependent values wait (pending) or are
/// missing (the schema worker failed).
pub fn validity_unknown(validity: &ValidityStatus) -> bool {
    *validity != ValidityStatus::Final
}
