//! The uncertainty panel: 95 % bootstrap intervals and paired tests
//! (`crate::eval::bootstrap`), computed on demand by the evaluation
//! worker, with a progress bar and a cancel button. The table's text is the Markdown export's
//! (`export::bootstrap_table`).

use super::evaluation::run_panel;
use super::progress::{cancel, sink, status_line, Progress};
use super::state::AppState;
use crate::eval::bootstrap::BootstrapOptions;
use crate::eval::report::Report;
use crate::export::{bootstrap_caption, bootstrap_table, ExportOptions};
use crate::protocol::{Answer, Task};
use crate::report_state::ViewEvent;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn UncertaintyPanel(state: AppState, report: Arc<Report>) -> impl IntoView {
    let progress = RwSignal::new(Progress::Idle);
    let options = BootstrapOptions::default();
    let start = move |_| {
        progress.set(Progress::Running(0, options.resamples));
        let result = |answer| match answer {
            Answer::Bootstrap { result, .. } => Ok(Arc::new(*result)),
            other => Err(other),
        };
        let keep = move |done: &Arc<crate::eval::bootstrap::BootstrapReport>| {
            super::evaluation::tell(state, ViewEvent::Bootstrap(done.clone()));
        };
        run_panel(state, Task::Bootstrap, sink(progress, result, keep));
    };
    let running = move || progress.with(Progress::is_running);
    let r = report.clone();
    let body = move || match progress.get() {
        Progress::Done(b) => {
            let mut with = (*r).clone();
            with.bootstrap = Some((*b).clone());
            let table = bootstrap_table(&with, &ExportOptions::default());
            Some(match table {
                None => view! { <p class="hint">"No model to resample."</p> }.into_any(),
                Some(t) => {
                    let caption = bootstrap_caption(&t);
                    let head = t
                        .columns
                        .iter()
                        .map(|(_, header, _)| view! { <th scope="col">{*header}</th> })
                        .collect_view();
                    let rows = t
                        .rows
                        .into_iter()
                        .map(|(name, cells, below)| {
                            let cells = cells
                                .into_iter()
                                .zip(below)
                                .map(|(cell, below)| {
                                    let text = match cell {
                                        Some(c) => format!("{c}{}", if below { " †" } else { "" }),
                                        None => "—".to_string(),
                                    };
                                    view! { <td class="num">{text}</td> }
                                })
                                .collect_view();
                            view! {
                                <tr data-model=name.clone()>
                                    <th scope="row">{super::format::shown(&name)}</th>
                                    {cells}
                                </tr>
                            }
                        })
                        .collect_view();
                    let tests = b
                        .paired
                        .iter()
                        .map(|p| {
                            view! {
                                <li>{format!(
                                    "{}: {} − {} = {:+.4}, p = {:.4} (Holm {:.4}) — {}",
                                    p.metric,
                                    p.a,
                                    p.b,
                                    p.difference,
                                    p.p_value,
                                    p.p_holm,
                                    if p.significant { "significant" } else { "not significant" }
                                )}</li>
                            }
                        })
                        .collect_view();
                    view! {
                        <div class="scroll">
                        <table class="data numeric intervals" data-testid="bootstrap-table">
                            <caption>{caption}</caption>
                            <thead><tr><th scope="col">"Model"</th>{head}</tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                        </div>
                        <details><summary>"Paired tests"</summary><ul data-testid="bootstrap-tests">{tests}</ul></details>
                    }
                    .into_any()
                }
            })
        }
        other => status_line(
            &other,
            "bootstrap",
            |done, total| format!(" {done} of {total} resamples"),
            |done, _| {
                format!(
                    "Cancelled after {done} resample{}.",
                    if done == 1 { "" } else { "s" }
                )
            },
        ),
    };
    view! {
        <section class="card" aria-labelledby="uncertainty-heading" data-testid="uncertainty">
            <div class="card-head">
                <h2 id="uncertainty-heading">"Uncertainty"</h2>
                <div class="buttons">
                    <button type="button" class="button primary" data-testid="bootstrap-start" on:click=start disabled=move || running() || state.validity_unknown.get()>
                        {format!("Compute 95 % intervals ({} resamples)", options.resamples)}
                    </button>
                    <button type="button" data-testid="bootstrap-cancel" on:click=move |_| cancel(state, progress) disabled=move || !running()>"Cancel"</button>
                </div>
            </div>
            <p class="hint">"Resamples the documents with replacement (the fields of one document are not independent) and recomputes every score, to show how much each number could move with other documents, and whether one model is really better than another. Same method and numbers as fieldscope eval --bootstrap."</p>
            {body}
        </section>
    }
}
