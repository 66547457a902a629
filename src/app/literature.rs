//! The literature-metrics panel: ANLS\*, Donut's nTED accuracy and field
//! F1 per model (`crate::eval::literature`, the numbers of `fieldscope eval
//! --metrics anls_star,nted,donut_f1`), computed by the evaluation worker
//! with a progress bar and a cancel button (the built-in example takes a
//! moment). They are computed
//! only when asked for, like `--metrics`: then, and only then, they also
//! go into the HTML, Markdown and LaTeX exports (`AppState::literature`),
//! so the default exports stay the CLI's default ones.

use super::evaluation::run_panel;
use super::format::{full, opt_ratio, shown};
use super::progress::{cancel, sink, status_line, Progress};
use super::state::AppState;
use crate::eval::literature::MAX_WORK;
use crate::eval::report::Report;
use crate::protocol::{Answer, Task};
use leptos::prelude::*;
use std::sync::Arc;

/// The literature metrics of every model (in the report's order) and the
/// warnings about documents too large to score.
pub use crate::report_state::LiteratureComputed as Computed;
use crate::report_state::ViewEvent;

/// `report` with each model's literature metrics from `computed` (matched
/// by name, as the job keeps the report's model order) and its warnings
/// after the report's, as `fieldscope eval --metrics` adds them.
pub fn with_literature(report: &Report, computed: &Computed) -> Report {
    let mut with = report.clone();
    for (m, (name, lit)) in with.models.iter_mut().zip(computed.0.iter()) {
        if &m.name == name {
            m.literature = Some(lit.clone());
        }
    }
    with.warnings.extend(computed.1.iter().cloned());
    with
}

#[component]
pub fn LiteraturePanel(state: AppState, report: Arc<Report>) -> impl IntoView {
    let pairs = report.documents * report.models.len();
    let progress = RwSignal::new(match state.literature.get_untracked() {
        Some(done) => Progress::Done(done),
        None => Progress::Idle,
    });
    let start = move || {
        progress.set(Progress::Running(0, pairs));
        let result = |answer| match answer {
            Answer::Literature {
                models, warnings, ..
            } => Ok(Arc::new((models, warnings))),
            other => Err(other),
        };
        let keep = move |done: &Computed| {
            super::evaluation::tell(state, ViewEvent::Literature(done.clone()));
        };
        run_panel(state, Task::Literature, sink(progress, result, keep));
    };
    let running = move || progress.with(Progress::is_running);
    let body = move || match progress.get() {
        Progress::Done(computed) => Some(table(&computed).into_any()),
        other => status_line(
            &other,
            "literature",
            |done, total| format!(" {done} of {total} documents (all models)"),
            |done, _| {
                format!(
                    "Cancelled after {done} document{}.",
                    if done == 1 { "" } else { "s" }
                )
            },
        ),
    };
    view! {
        <section class="card" aria-labelledby="literature-heading" data-testid="literature">
            <div class="card-head">
                <h2 id="literature-heading">"Literature metrics"</h2>
                <div class="buttons">
                    <button type="button" class="button" data-testid="literature-start" on:click=move |_| start() disabled=running>
                        "Compute ANLS*, nTED, Donut F1"
                    </button>
                    <button type="button" data-testid="literature-cancel" on:click=move |_| cancel(state, progress) disabled=move || !running()>"Cancel"</button>
                </div>
            </div>
            <p class="hint">"The metrics papers report, computed exactly as their reference implementations do, on each record's evaluated fields without this page's settings (no NOT_FOUND spellings, number or date rules). Not part of SPEC.md. Same numbers as fieldscope eval --metrics anls_star,nted,donut_f1."</p>
            <ul class="hint">
                <li><strong>"ANLS*"</strong>" — mean over documents of Σ similarity / ℓ over the whole record: leaves scored 1 − Levenshtein / longer length (0 below 0.5), lists matched by the Hungarian algorithm, missing and extra keys counted in ℓ. Peer et al. 2024 (arXiv:2402.03848), package anls_star 1.0.1 with munkres 1.1.4."</li>
                <li><strong>"nTED"</strong>" — mean over documents of max(0, 1 − TED(prediction, truth) / TED(empty, truth)), the tree edit distance (Zhang–Shasha) between Donut's normalised trees. Kim et al. 2022 (Donut, ECCV), donut-python 1.0.9 with zss 1.2.0."</li>
                <li><strong>"Donut F1"</strong>" — TP / (TP + (FN + FP)/2) over the flattened (path, value) pairs of all documents (micro). Kim et al. 2022, JSONParseEvaluator.cal_f1."</li>
            </ul>
            {body}
        </section>
    }
}

/// The table of the computed metrics, and the documents left unscored.
fn table(computed: &Computed) -> impl IntoView {
    let rows = computed
        .0
        .iter()
        .map(|(name, lit)| {
            let cell = |metric: &'static str, value: Option<Option<f64>>| {
                let value = value.flatten();
                view! { <td class="num" data-metric=metric data-value=full(value)>{opt_ratio(value)}</td> }
            };
            view! {
                <tr data-model=name.clone()>
                    <th scope="row">{shown(name)}</th>
                    {cell("anls_star", lit.anls_star)}
                    {cell("nted", lit.nted)}
                    {cell("donut_f1", lit.donut_f1)}
                </tr>
            }
        })
        .collect_view();
    let warnings = computed
        .1
        .iter()
        .map(|w| view! { <li>{shown(w)}</li> })
        .collect_view();
    let has_warnings = !computed.1.is_empty();
    view! {
        <table class="data numeric" data-testid="literature-table">
            <caption>"The literature's metrics (— where undefined). Also in the HTML, Markdown and LaTeX exports."</caption>
            <thead><tr><th scope="col">"Model"</th><th scope="col">"ANLS*"</th><th scope="col">"nTED"</th><th scope="col">"Donut F1"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
        {has_warnings.then(|| view! {
            <p class="hint">{format!("Not scored (over {MAX_WORK} steps each, so the dataset's value is left undefined):")}</p>
            <ul class="hint" data-testid="literature-warnings">{warnings}</ul>
        })}
    }
}
