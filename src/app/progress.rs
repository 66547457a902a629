//! The state of a computation a panel asked the evaluation worker for
//! (bootstrap intervals, literature metrics, threshold sweeps, the gate)
//! and the line that shows how far it got. Owns no computation; used by
//! `uncertainty.rs`, `literature.rs`, `sweep_view.rs` and `compare.rs`.
//! May depend on leptos, `protocol` and `evaluation`'s `PanelSink`.

use super::evaluation::PanelSink;
use crate::protocol::Answer;
use leptos::prelude::*;
use std::rc::Rc;

/// Where a sliced computation is.
#[derive(Clone, PartialEq)]
pub enum Progress<T> {
    /// Not started (or reset because its input changed).
    Idle,
    /// `done` of `total` units of work so far.
    Running(usize, usize),
    /// Stopped by the user after `done` of `total` units.
    Cancelled(usize, usize),
    /// Finished, with its result.
    Done(T),
    /// Could not run; the message says why.
    Failed(String),
}

impl<T> Progress<T> {
    /// Whether the computation is under way.
    pub fn is_running(&self) -> bool {
        matches!(self, Progress::Running(..))
    }

    /// Takes the worker's progress, stop or failure for its run (a
    /// result is the panel's to take).
    pub fn answer(&mut self, answer: Answer) {
        match answer {
            Answer::Progress { done, total, .. } if self.is_running() => {
                *self = Progress::Running(done, total)
            }
            Answer::Stopped { done, total, .. } => {
                // A run stopped before it started says 0 of 0: the total
                // the line showed stays.
                let total = match *self {
                    Progress::Running(_, shown) if total == 0 => shown,
                    _ => total,
                };
                *self = Progress::Cancelled(done, total)
            }
            Answer::Failed { reason, .. } => *self = Progress::Failed(reason),
            _ => {}
        }
    }
}

/// What a panel does with its run's answers: `result` takes the answer
/// that carries the panel's result (or gives the answer back), `keep`
/// sees the result before the panel shows it, and every other answer
/// moves `progress`. The panel is made again with each new report: the
/// answers of an older run find its signals gone (`try_`).
pub fn sink<T: Clone + Send + Sync + 'static>(
    progress: RwSignal<Progress<T>>,
    result: fn(Answer) -> Result<T, Answer>,
    keep: impl Fn(&T) + 'static,
) -> PanelSink {
    Rc::new(move |answer: Answer| match result(answer) {
        Ok(done) => {
            keep(&done);
            progress.try_set(Progress::Done(done));
        }
        Err(other) => {
            progress.try_update(|p| p.answer(other));
        }
    })
}

/// The line for a running, cancelled or failed computation: a progress bar
/// and `running(done, total)`, the note `cancelled(done, total)`, or the
/// error as an alert; `None` when idle or done (the panel shows its result
/// itself). The lines carry `data-testid` `{name}-progress` and
/// `{name}-cancelled`.
pub fn status_line<T>(
    progress: &Progress<T>,
    name: &str,
    running: impl Fn(usize, usize) -> String,
    cancelled: impl Fn(usize, usize) -> String,
) -> Option<AnyView> {
    match progress {
        Progress::Idle | Progress::Done(_) => None,
        &Progress::Running(done, total) => Some(
            view! {
                <p class="hint" data-testid=format!("{name}-progress")>
                    <progress max=total value=done></progress>
                    {running(done, total)}
                </p>
            }
            .into_any(),
        ),
        &Progress::Cancelled(done, total) => Some(
            view! { <p class="hint" data-testid=format!("{name}-cancelled")>{cancelled(done, total)}</p> }
                .into_any(),
        ),
        Progress::Failed(e) => Some(view! { <p class="error" role="alert">{e.clone()}</p> }.into_any()),
    }
}
