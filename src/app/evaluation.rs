//! Running evaluations (and reading files) on the page without freezing
//! it.
//!
//! Owns: the report's evaluation loop ([`request_report`]: the latest
//! files and settings win; an evaluation made stale by a change stops at
//! its next pause, one that only waits for the schema validity is let
//! finish and then completed), the page's [`Pace`] ([`PagePace`]: after
//! every [`SLICE_MS`] of work the page paints and handles input, and the
//! status bar's progress moves; also used to read a dropped file and for
//! each value of a sweep) and [`evaluate_with_details`] for the
//! evaluations a panel asks for (the document details of a large dataset,
//! the bootstrap's per-document counts). The evaluation itself is
//! `crate::session::Evaluation`, which knows nothing of the page. May
//! depend on leptos, `browser.rs` and `session`.

use super::{browser, AppState, LAST_EVALUATION_MS};
use crate::eval::pace::{Pace, PauseFuture};
use crate::eval::Report;
use crate::session::{Evaluation, Work};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;

/// Work between two pauses, in milliseconds: short enough that typing, a
/// click or a scroll waits no longer than a few frames, long enough that
/// the pauses cost little.
pub const SLICE_MS: f64 = 50.0;

/// The clock is read at every this many pauses asked for (a pause is
/// asked for every document and forest, some tens of microseconds of
/// work).
const CLOCK_EVERY: u32 = 16;

/// The progress shown moves at most this often (each move redraws a
/// little of the page, which a pause then paints).
pub const PROGRESS_EVERY_MS: f64 = 200.0;

/// How far an evaluation got, for the status bar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvaluationProgress {
    pub documents: usize,
    pub models: usize,
    /// `done` of `total` units (see `crate::eval::pace`); `(0, 0)` before
    /// the first pause.
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

thread_local! {
    /// The newest report evaluation asked for (a counter).
    static LATEST: Cell<u64> = const { Cell::new(0) };
    /// Evaluations older than this one stop at their next pause.
    static STOP_BEFORE: Cell<u64> = const { Cell::new(0) };
    /// The request waiting to run after the evaluation running.
    static QUEUED: Cell<Option<u64>> = const { Cell::new(None) };
    /// Whether the report loop runs.
    static LOOPING: Cell<bool> = const { Cell::new(false) };
    /// What the running report evaluation evaluates.
    static RUNNING: RefCell<Option<Work>> = const { RefCell::new(None) };
}

/// The page's pace: after [`SLICE_MS`] of work, it reports the progress,
/// gives the browser its turn, and stops the evaluation if `stop` says so
/// by then.
pub struct PagePace {
    /// Pauses asked for since the clock was last read (reading it from
    /// wasm costs about as much as the work between two pauses).
    asked: u32,
    slice_start: Rc<Cell<f64>>,
    /// When the progress shown last moved.
    shown_at: f64,
    progress: Box<dyn Fn(usize, usize)>,
    stop: Rc<dyn Fn() -> bool>,
}

impl PagePace {
    pub fn new(
        progress: impl Fn(usize, usize) + 'static,
        stop: impl Fn() -> bool + 'static,
    ) -> Self {
        PagePace {
            asked: 0,
            slice_start: Rc::new(Cell::new(js_sys::Date::now())),
            shown_at: f64::NEG_INFINITY,
            progress: Box::new(progress),
            stop: Rc::new(stop),
        }
    }
}

impl Pace for PagePace {
    fn pause(&mut self, done: usize, total: usize) -> Option<PauseFuture> {
        self.asked += 1;
        if self.asked < CLOCK_EVERY {
            return None;
        }
        self.asked = 0;
        let now = js_sys::Date::now();
        if now - self.slice_start.get() < SLICE_MS {
            return None;
        }
        if now - self.shown_at >= PROGRESS_EVERY_MS {
            self.shown_at = now;
            (self.progress)(done, total);
        }
        let (slice_start, stop) = (Rc::clone(&self.slice_start), Rc::clone(&self.stop));
        Some(Box::pin(async move {
            browser::yield_now().await;
            slice_start.set(js_sys::Date::now());
            if stop() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }))
    }
}

/// Asks for the report of the session's files and settings as they are
/// now (`work`: what that is, `None` when there is no report to make; see
/// `Session::work`). The newest request wins: a running evaluation of
/// other work stops at its next pause; one of the same work (only the
/// schema validity arrived since) finishes, and the request then
/// completes it. The evaluation is made from the session when it starts,
/// so a request costs no copy of the files.
pub fn request_report(state: AppState, work: Option<Work>) {
    let generation = LATEST.get() + 1;
    LATEST.set(generation);
    let same_work = RUNNING.with_borrow(|running| match (running, &work) {
        (Some(running), Some(work)) => running.same(work),
        _ => false,
    });
    if !same_work {
        STOP_BEFORE.set(generation);
    }
    QUEUED.set(Some(generation));
    if !LOOPING.replace(true) {
        leptos::task::spawn_local(report_loop(state));
    }
}

/// Stops the report evaluation under way, if any, and forgets the one
/// waiting: the report stays as it is until the next request.
pub fn stop_reports() {
    let generation = LATEST.get() + 1;
    LATEST.set(generation);
    STOP_BEFORE.set(generation);
    QUEUED.set(None);
}

/// The page's pace for `evaluation`, its progress shown in the status bar
/// (from now on: before its first pause, as having started), stopping it
/// when `stop` says so.
fn evaluation_pace(
    state: AppState,
    evaluation: &Evaluation,
    stop: impl Fn() -> bool + 'static,
) -> PagePace {
    let (documents, models) = evaluation.size();
    let shown = EvaluationProgress {
        documents,
        models,
        done: 0,
        total: 0,
    };
    state.evaluating.set(Some(shown));
    PagePace::new(
        move |done, total| {
            state.evaluating.set(Some(EvaluationProgress {
                done,
                total,
                ..shown
            }))
        },
        stop,
    )
}

/// Runs the queued requests one after another until none waits, showing
/// each one's report unless a newer request came meanwhile.
async fn report_loop(state: AppState) {
    while let Some(generation) = QUEUED.take() {
        let evaluation = state
            .session
            .with_untracked(|s| s.evaluation(super::wants_details(s)));
        let evaluation = match evaluation {
            Ok(evaluation) => evaluation,
            Err(message) => {
                state.report.set(Err(message));
                continue;
            }
        };
        RUNNING.set(Some(evaluation.work()));
        let mut pace = evaluation_pace(state, &evaluation, move || STOP_BEFORE.get() > generation);
        browser::mark("fieldscope:evaluation-start");
        let start = browser::now_ms();
        let result = evaluation.run(&mut pace).await;
        browser::mark("fieldscope:evaluation-end");
        RUNNING.set(None);
        if let Some(report) = result {
            if LATEST.get() == generation {
                LAST_EVALUATION_MS.set(browser::now_ms() - start);
                let old = state.report.get_untracked();
                state.report.set(report.map(Arc::new));
                if let Ok(old) = old {
                    release_later(old);
                }
                keep_documents_later(state, generation);
            }
        }
    }
    LOOPING.set(false);
    state.evaluating.set(None);
}

/// Documents (of every forest) kept per slice of idle work: about 30 ms
/// of flattening for invoices like the benchmark's.
const KEEP_PER_SLICE: usize = 1_000;

/// After the report of request `generation` is shown, keeps the files'
/// flattened documents for the next evaluations (`Session::keep_documents`)
/// a slice at a time while the page is idle: the first evaluation of new
/// files does not keep them, so that its report comes sooner. Stops at
/// once when another report is asked for; an evaluation that starts
/// meanwhile keeps them itself.
fn keep_documents_later(state: AppState, generation: u64) {
    leptos::task::spawn_local(async move {
        loop {
            // Let the report paint, then give every turn to the page.
            browser::yield_to_browser().await;
            if LATEST.get() != generation || LOOPING.get() {
                return;
            }
            let kept = state
                .session
                .try_with_untracked(|s| s.keep_documents(KEEP_PER_SLICE));
            if kept != Some(Some(false)) {
                return;
            }
        }
    });
}

/// Frees a report that is no longer shown after the new one has been
/// drawn, a slice at a time: the report a view held is otherwise freed
/// while the new one is drawn, and freeing 30,000 documents' details took
/// about 200 ms at a stretch. A no-op beyond dropping this reference when
/// someone else still holds the report.
pub fn release_later(report: Arc<Report>) {
    leptos::task::spawn_local(async move {
        // Let the new report's views replace the old ones (which drop
        // their references) and the page paint.
        browser::yield_to_browser().await;
        let Ok(mut report) = Arc::try_unwrap(report) else {
            return;
        };
        let mut slice_start = browser::now_ms();
        for model in &mut report.models {
            let Some(mut details) = model.document_details.take() else {
                continue;
            };
            while !details.is_empty() {
                details.truncate(details.len().saturating_sub(RELEASE_CHUNK));
                if browser::now_ms() - slice_start >= SLICE_MS {
                    browser::yield_now().await;
                    slice_start = browser::now_ms();
                }
            }
        }
    });
}

/// Documents' details freed between two looks at the clock.
const RELEASE_CHUNK: usize = 256;

/// The report of the session's files and settings with every document's
/// details (what the document browser and the bootstrap need for a large
/// dataset, whose report has none), evaluated a slice at a time with its
/// progress in the status bar; `None` if the files or settings changed
/// meanwhile (the result would be of other work; the schema validity
/// arriving is no change).
pub async fn evaluate_with_details(state: AppState) -> Option<Result<Report, String>> {
    let evaluation = match state.session.with_untracked(|s| s.evaluation(true)) {
        Ok(evaluation) => evaluation,
        Err(message) => return Some(Err(message)),
    };
    let work = evaluation.work();
    let mut pace = evaluation_pace(state, &evaluation, move || {
        let now = state.session.with_untracked(|s| s.work(true));
        now.is_none_or(|now| !now.same(&work))
    });
    let result = evaluation.run(&mut pace).await;
    if !LOOPING.get() {
        state.evaluating.set(None);
    }
    result
}
