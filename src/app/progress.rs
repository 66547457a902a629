//! A panel's run on the page (bootstrap intervals, literature metrics,
//! threshold sweeps, the gate): its [`Progress`] in a signal
//! (`report_state::panel`, pure and tested natively), the sink that
//! moves it with the run's answers, the Cancel button's action, and the
//! line that shows how far it got. Owns no computation; used by
//! `uncertainty.rs`, `literature.rs`, `sweep_view.rs` and `compare.rs`.
//! May depend on leptos, `protocol`, `report_state` and `evaluation`'s
//! `PanelSink` and `dispatch`.

use super::evaluation::dispatch;
use super::link::PanelSink;
use super::state::AppState;
use crate::protocol::Answer;
pub use crate::report_state::panel::Progress;
use crate::report_state::Event;
use leptos::prelude::*;
use std::rc::Rc;

/// The panel's Cancel button: the line says "Cancelled" at once, and the
/// worker is told to stop (its answer settles the line).
pub fn cancel<T: Send + Sync + 'static>(state: AppState, progress: RwSignal<Progress<T>>) {
    progress.update(Progress::cancel);
    dispatch(state, Event::CancelPanel);
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
/// `{name}-cancelled` (with `data-settled` once the worker let go of the
/// run).
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
        &Progress::Cancelled {
            done,
            total,
            settled,
        } => Some(
            view! {
                <p class="hint" data-testid=format!("{name}-cancelled") data-settled=settled.then_some("true")>
                    {cancelled(done, total)}
                </p>
            }
            .into_any(),
        ),
        Progress::Failed(e) => Some(view! { <p class="error" role="alert">{e.clone()}</p> }.into_any()),
    }
}
