//! The threshold-sweep panel (`crate::eval::sweep`): pick the threshold
//! (string similarity, CER or item F1), then the whole evaluation runs
//! once per value in the evaluation worker, with a progress bar and a
//! cancel button. The
//! result is the line charts of `crate::charts::sweep_charts` (SVG / PNG / PDF
//! downloads, like the other charts) and a table of every point, each
//! cell's full value in `data-value` — the numbers of `fieldscope sweep
//! --format json` on the same files.

use super::charts_view::chart_options;
use super::evaluation::run_panel;
use super::format::{full, opt_ratio, ratio, shown};
use super::progress::{cancel, sink, status_line, Progress};
use super::state::AppState;
use crate::charts::{sweep_charts, PaperSize};
use crate::eval::sweep::{default_values, SweepParam, SweepReport};
use crate::protocol::{Answer, Task};
use leptos::prelude::*;
use std::sync::Arc;

fn label(param: SweepParam) -> &'static str {
    match param {
        SweepParam::Similarity => "String similarity",
        SweepParam::Cer => "CER",
        SweepParam::Item => "Item F1",
    }
}

#[component]
pub fn SweepPanel(state: AppState) -> impl IntoView {
    let param = RwSignal::new(SweepParam::Similarity);
    let progress = RwSignal::new(Progress::Idle);
    let size = RwSignal::new(PaperSize::FullWidth);
    // A result belongs to the files and settings it was computed from.
    Effect::new(move |_| {
        state.report.track();
        progress.set(Progress::Idle);
    });
    let start = move |_| {
        let values = default_values();
        progress.set(Progress::Running(0, values.len()));
        let result = |answer| match answer {
            Answer::Sweep { result, .. } => Ok(Arc::new(*result)),
            other => Err(other),
        };
        let answers = sink(progress, result, |_: &Arc<_>| {});
        let task = Task::Sweep {
            param: param.get_untracked(),
            values,
        };
        run_panel(state, task, answers);
    };
    let running = move || progress.with(Progress::is_running);
    let body = move || match progress.get() {
        Progress::Done(s) => {
            Some(view! { <SweepResult state=state sweep=s size=size /> }.into_any())
        }
        other => status_line(
            &other,
            "sweep",
            |done, total| format!(" {done} of {total} thresholds evaluated"),
            |done, total| format!("Cancelled after {done} of {total} thresholds."),
        ),
    };
    let param_button = move |p: SweepParam| {
        view! {
            <button type="button" role="radio" data-testid=format!("sweep-param-{}", p.name())
                class:selected=move || param.get() == p
                aria-checked=move || (param.get() == p).to_string()
                disabled=running
                on:click=move |_| param.set(p)>{label(p)}</button>
        }
    };
    view! {
        <section class="card" aria-labelledby="sweep-heading" data-testid="sweep">
            <div class="card-head">
                <h2 id="sweep-heading">"Threshold sweep"</h2>
                <div class="segmented" role="radiogroup" aria-label="Threshold">
                    {SweepParam::ALL.map(param_button)}
                </div>
                <div class="buttons">
                    <button type="button" class="button primary" data-testid="sweep-start" on:click=start disabled=move || running() || state.validity_unknown.get()>
                        "Sweep 0 to 1 (21 values)"
                    </button>
                    <button type="button" data-testid="sweep-cancel" on:click=move |_| cancel(state, progress) disabled=move || !running()>"Cancel"</button>
                </div>
            </div>
            <p class="hint">{move || format!(
                "Evaluates everything again at each threshold t = 0, 0.05, …, 1, changing only {} (every other setting as chosen), to show how much the scores and the ranking depend on that threshold. Same numbers as fieldscope sweep --param {}.",
                match param.get() {
                    SweepParam::Similarity => "partial_matching.string.exact_threshold (with string_match.method = similarity)",
                    SweepParam::Cer => "string_match.cer_threshold (with string_match.method = cer)",
                    SweepParam::Item => "item_f1_threshold (field scores do not depend on it; item F1 does)",
                },
                param.get().name()
            )}</p>
            {body}
        </section>
    }
}

#[component]
fn SweepResult(
    state: AppState,
    sweep: Arc<SweepReport>,
    size: RwSignal<PaperSize>,
) -> impl IntoView {
    let s = sweep.clone();
    let charts = move || {
        let options = chart_options(state.average.get(), size.get());
        let charts = sweep_charts(&s, &options);
        if charts.is_empty() {
            return view! { <p class="hint">"No chart: no model has line items, and field scores do not depend on the item threshold."</p> }.into_any();
        }
        charts
            .into_iter()
            .map(|chart| super::charts_view::figure(state, chart))
            .collect_view()
            .into_any()
    };
    let items = sweep
        .models
        .iter()
        .flat_map(|m| &m.points)
        .any(|p| p.item_f1.is_some());
    let rows = sweep.models.first().map_or(0, |m| m.points.len());
    let header = sweep
        .models
        .iter()
        .map(|m| {
            let span = if items { 5 } else { 3 };
            view! { <th scope="colgroup" colspan=span>{shown(&m.name)}</th> }
        })
        .collect_view();
    let subheader = sweep
        .models
        .iter()
        .map(|_| {
            view! {
                <th scope="col">"Micro F1"</th>
                <th scope="col">"Micro accuracy"</th>
                <th scope="col">"Macro F1 (documents)"</th>
                {items.then(|| view! { <th scope="col">"Item F1"</th><th scope="col">"Item-count accuracy"</th> })}
            }
        })
        .collect_view();
    let body = (0..rows)
        .map(|i| {
            let value = sweep.models[0].points[i].value;
            let cells = sweep
                .models
                .iter()
                .map(|m| {
                    let p = m.points[i];
                    let name = m.name.clone();
                    let cell = move |metric: &'static str, v: f64| {
                        view! { <td class="num" data-model=name.clone() data-metric=metric data-value=full(Some(v))>{ratio(v)}</td> }
                    };
                    let opt = {
                        let name = m.name.clone();
                        move |metric: &'static str, v: Option<f64>| {
                            view! { <td class="num" data-model=name.clone() data-metric=metric data-value=full(v)>{opt_ratio(v)}</td> }
                        }
                    };
                    view! {
                        {cell("micro_f1", p.micro_f1)}
                        {cell("micro_accuracy", p.micro_accuracy)}
                        {cell("macro_documents_f1", p.macro_documents_f1)}
                        {items.then(|| view! { {opt("item_f1", p.item_f1)}{opt("item_count_accuracy", p.item_count_accuracy)} })}
                    }
                })
                .collect_view();
            view! {
                <tr data-value=full(Some(value))><th scope="row" class="num">{format!("{value:.2}")}</th>{cells}</tr>
            }
        })
        .collect_view();
    view! {
        <div class="card-head">
            <p class="hint">{format!("{} on {} documents; the configuration's own value is {}.", sweep.key, sweep.documents, sweep.configured)}</p>
            <super::charts_view::PaperSizeToggle size=size />
        </div>
        <div class="chart-grid">{charts}</div>
        <div class="scroll">
            <table class="data numeric" data-testid="sweep-table" data-param=sweep.param.name()>
                <caption>{format!("Every point of the sweep: each row a full evaluation with {} = t. Strict scores (a partial match counts as wrong).", sweep.key)}</caption>
                <thead>
                    <tr><th scope="col" rowspan="2">"t"</th>{header}</tr>
                    <tr>{subheader}</tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
