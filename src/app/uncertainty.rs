//! The uncertainty panel: 95 % bootstrap intervals and paired tests
//! (`crate::eval::bootstrap`), computed on demand a slice of resamples at a
//! time between frames, with a progress bar and a cancel button, so the
//! page never freezes. The table's text is the Markdown export's
//! (`export::bootstrap_table`).

use super::progress::{status_line, Progress};
use super::{browser, AppState};
use crate::eval::bootstrap::{Bootstrap, BootstrapOptions, ModelTallies};
use crate::eval::report::Report;
use crate::eval::Config;
use crate::export::{bootstrap_caption, bootstrap_table, ExportOptions};
use leptos::prelude::*;
use std::sync::Arc;

/// Resamples per slice of work (one slice between two frames).
const SLICE: usize = 25;

#[component]
pub fn UncertaintyPanel(state: AppState, report: Arc<Report>) -> impl IntoView {
    let progress = RwSignal::new(Progress::Idle);
    let cancel = RwSignal::new(false);
    let options = BootstrapOptions::default();
    let start = move |_| {
        cancel.set(false);
        progress.set(Progress::Running(0, options.resamples));
        // The panel is made again with each new report: a run of an older
        // one finds its signals gone, and stops without a word (`try_`).
        leptos::task::spawn_local(async move {
            browser::yield_to_browser().await;
            // Each document's counts come with the details; a large
            // dataset's report was computed without them.
            let detailed = super::evaluation::evaluate_with_details(state).await;
            let detailed = match detailed {
                Some(Ok(r)) => r,
                Some(Err(e)) => {
                    progress.try_set(Progress::Failed(e));
                    return;
                }
                // The files or settings changed meanwhile (the panel is
                // made again for the new report).
                None => return,
            };
            let config = match Config::from_json(&detailed.config) {
                Ok(c) => c,
                Err(e) => {
                    progress.try_set(Progress::Failed(e.to_string()));
                    return;
                }
            };
            let models = detailed
                .models
                .iter()
                .filter_map(ModelTallies::of)
                .collect();
            let mut bootstrap = Bootstrap::new(models, &config, options);
            loop {
                match cancel.try_get_untracked() {
                    None => return,
                    Some(true) => {
                        progress.try_set(Progress::Cancelled(bootstrap.done(), options.resamples));
                        return;
                    }
                    Some(false) => {}
                }
                let done = bootstrap.step(SLICE);
                progress.try_set(Progress::Running(done, options.resamples));
                if done >= options.resamples {
                    break;
                }
                browser::yield_to_browser().await;
            }
            if cancel.try_get_untracked().is_none() {
                return;
            }
            let result = Arc::new(bootstrap.finish());
            state.bootstrap.set(Some(result.clone()));
            progress.try_set(Progress::Done(result));
        });
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
            |done, _| format!("Cancelled after {done} resamples."),
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
                    <button type="button" data-testid="bootstrap-cancel" on:click=move |_| cancel.set(true) disabled=move || !running()>"Cancel"</button>
                </div>
            </div>
            <p class="hint">"Resamples the documents with replacement (the fields of one document are not independent) and recomputes every score, to show how much each number could move with other documents, and whether one model is really better than another. Same method and numbers as fieldscope eval --bootstrap."</p>
            {body}
        </section>
    }
}
