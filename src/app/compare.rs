//! The "Compare two models" panel (issue 17): pick a baseline and a
//! candidate; the one-sided paired bootstrap test of micro F1,
//! macro-document F1 and every field's F1 (`crate::eval::gate`, the
//! numbers of `fieldscope gate --baseline B` with its defaults: 2,000
//! resamples, seed 1, Holm over the candidate's checks, alpha 0.05),
//! computed by the evaluation worker; the flipped documents; the gate's
//! Markdown summary to copy. Owns no computation.

use super::browser;
use super::evaluation::run_panel;
use super::progress::{cancel, sink, status_line, Progress};
use super::state::AppState;
use crate::eval::gate::flips::Flip;
use crate::eval::gate::{CheckKind, GateOptions, GateReport};
use crate::eval::report::Report;
use crate::export::{gate as gate_export, ExportOptions};
use crate::protocol::{Answer, Task};
use crate::report_state::{Navigate, ViewEvent};
use leptos::prelude::*;
use std::sync::Arc;

/// Flipped documents listed each way.
const FLIPS_SHOWN: usize = 20;

fn fixed(x: Option<f64>) -> String {
    x.map_or("—".to_string(), |x| format!("{x:.4}"))
}

fn exact(x: Option<f64>) -> String {
    x.map_or("null".to_string(), |x| x.to_string())
}

fn flip_rows(state: AppState, flips: &[Flip]) -> impl IntoView {
    flips
        .iter()
        .take(FLIPS_SHOWN)
        .map(|f| {
            let field = match f.truth_item {
                Some(i) => format!("{} (item {})", f.field, i + 1),
                None => f.field.clone(),
            };
            let outcome = |o: Option<crate::eval::report::Outcome>| o.map_or("no row", |o| o.name());
            view! {
                <tr data-document=f.id.clone() data-field=f.field.clone()>
                    <th scope="row">
                        <button type="button" class="link" data-testid="flip-open" title="Open this document in the document browser"
                            on:click={
                                let id = f.id.clone();
                                move |_| super::evaluation::tell(state, ViewEvent::Navigate(Navigate::OpenDocument(id.clone())))
                            }>
                            {super::format::shown(&f.id)}
                        </button>
                    </th>
                    <td>{super::format::shown(&field)}</td>
                    <td><code>{f.truth.to_string()}</code></td>
                    <td><code>{f.baseline_prediction.to_string()}</code>{format!(" ({})", outcome(f.baseline_outcome))}</td>
                    <td><code>{f.candidate_prediction.to_string()}</code>{format!(" ({})", outcome(f.candidate_outcome))}</td>
                </tr>
            }
        })
        .collect_view()
}

fn result_view(state: AppState, g: &GateReport) -> AnyView {
    let candidate = g
        .checks
        .first()
        .map(|c| c.model.clone())
        .unwrap_or_default();
    let verdict = if g.passed {
        format!(
            "No regression of {candidate} (all {} checks pass).",
            g.checks.len()
        )
    } else {
        format!("{} of {} checks fail.", g.checks_failed, g.checks.len())
    };
    let rows = g
        .checks
        .iter()
        .filter(|c| c.kind == CheckKind::NoRegression)
        .map(|c| {
            let interval = c.interval.map_or("—".to_string(), |b| {
                format!("[{:+.4}, {:+.4}]", b.low, b.high)
            });
            view! {
                <tr data-metric=c.metric.clone() data-passed=c.passed.to_string()>
                    <th scope="row">{super::format::shown(&c.metric)}</th>
                    <td class="num" data-key="baseline_value" data-value=exact(c.baseline_value)>{fixed(c.baseline_value)}</td>
                    <td class="num" data-key="value" data-value=exact(c.value)>{fixed(c.value)}</td>
                    <td class="num" data-key="difference" data-value=exact(c.difference)>{c.difference.map_or("—".to_string(), |d| format!("{d:+.4}"))}</td>
                    <td class="num">{interval}</td>
                    <td class="num" data-key="p_value" data-value=exact(c.p_value)>{fixed(c.p_value)}</td>
                    <td class="num" data-key="p_holm" data-value=exact(c.p_holm)>{fixed(c.p_holm)}</td>
                    <td>{if c.passed { "pass" } else { "FAIL" }}</td>
                </tr>
            }
        })
        .collect_view();
    let flips = g.comparisons.first().map(|c| {
        let (b, k) = (c.baseline.clone(), c.candidate.clone());
        let table = |title: &'static str, id: &'static str, list: &[Flip]| {
            (!list.is_empty()).then(|| {
                let caption = format!(
                    "{title}: {} of {}",
                    list.len().min(FLIPS_SHOWN),
                    list.len()
                );
                view! {
                    <div class="scroll">
                    <table class="data" data-testid=id>
                        <caption>{caption}</caption>
                        <thead><tr><th scope="col">"Document"</th><th scope="col">"Field"</th><th scope="col">"Truth"</th><th scope="col">{super::format::shown(&b)}</th><th scope="col">{super::format::shown(&k)}</th></tr></thead>
                        <tbody>{flip_rows(state, list)}</tbody>
                    </table>
                    </div>
                }
            })
        };
        view! {
            <p data-testid="compare-flips" data-regressions=c.regressions.len() data-fixes=c.fixes.len()>
                {format!("{} regressions (exact in {} and not in {}), {} fixes.", c.regressions.len(), c.baseline, c.candidate, c.fixes.len())}
            </p>
            {table("Regressions", "compare-regressions", &c.regressions)}
            {table("Fixes", "compare-fixes", &c.fixes)}
        }
    });
    let markdown = gate_export::markdown(g, &ExportOptions::default());
    let download = {
        let markdown = markdown.clone();
        move |_| {
            let _ = browser::download("gate.md", "text/markdown", markdown.as_bytes());
        }
    };
    view! {
        <p data-testid="compare-verdict" data-passed=g.passed.to_string()>{verdict}</p>
        <div class="scroll">
        <table class="data numeric" data-testid="compare-table">
            <caption>"One-sided paired bootstrap test (candidate worse), Holm over the candidate's checks; a check fails when the adjusted p ≤ 0.05 and the drop > 0. Difference = candidate − baseline, with its 95 % interval."</caption>
            <thead><tr><th scope="col">"Metric"</th><th scope="col">"Baseline"</th><th scope="col">"Candidate"</th><th scope="col">"Difference"</th><th scope="col">"95 % interval"</th><th scope="col">"p"</th><th scope="col">"Adjusted p"</th><th scope="col">"Verdict"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
        </div>
        {flips}
        <details>
            <summary>"Markdown summary (fieldscope gate's)"</summary>
            <textarea readonly rows="12" class="markdown" data-testid="compare-markdown">{markdown}</textarea>
            <button type="button" data-testid="compare-download" on:click=download>"Download gate.md"</button>
        </details>
    }
    .into_any()
}

#[component]
pub fn ComparePanel(state: AppState, report: Arc<Report>) -> impl IntoView {
    let names: Vec<String> = report.models.iter().map(|m| m.name.clone()).collect();
    let baseline = RwSignal::new(names.first().cloned().unwrap_or_default());
    let candidate = RwSignal::new(names.get(1).cloned().unwrap_or_default());
    let progress = RwSignal::new(Progress::<Arc<GateReport>>::Idle);
    let total = GateOptions::default().resamples;
    let start = move |_| {
        let (b, c) = (baseline.get_untracked(), candidate.get_untracked());
        if b == c {
            progress.set(Progress::Failed("Pick two different models.".into()));
            return;
        }
        progress.set(Progress::Running(0, total));
        let result = |answer| match answer {
            Answer::Gate { result, .. } => Ok(Arc::new(*result)),
            other => Err(other),
        };
        let answers = sink(progress, result, |_: &Arc<_>| {});
        let task = Task::Gate {
            baseline: b,
            candidate: c,
        };
        run_panel(state, task, answers);
    };
    let running = move || progress.with(Progress::is_running);
    let options = |selected: RwSignal<String>| {
        names
            .iter()
            .map(|n| {
                let n = n.clone();
                let value = n.clone();
                view! { <option value=value selected=move || selected.get() == n>{super::format::shown(&n)}</option> }
            })
            .collect_view()
    };
    let (base_options, cand_options) = (options(baseline), options(candidate));
    let body = move || match progress.get() {
        Progress::Done(g) => Some(result_view(state, &g)),
        other => status_line(
            &other,
            "compare",
            |done, total| format!(" {done} of {total} resamples"),
            |done, _| {
                format!(
                    "Cancelled after {done} resample{}.",
                    if done == 1 { "" } else { "s" }
                )
            },
        ),
    };
    let few = report.models.len() < 2;
    view! {
        <section class="card" aria-labelledby="compare-heading" data-testid="compare">
            <div class="card-head">
                <h2 id="compare-heading">"Compare two models"</h2>
                <div class="buttons">
                    <label>"Baseline "<select data-testid="compare-baseline" on:change=move |e| baseline.set(event_target_value(&e))>{base_options}</select></label>
                    <label>"Candidate "<select data-testid="compare-candidate" on:change=move |e| candidate.set(event_target_value(&e))>{cand_options}</select></label>
                    <button type="button" class="button primary" data-testid="compare-start" on:click=start disabled=move || few || running() || state.validity_unknown.get()>
                        "Compare"
                    </button>
                    <button type="button" data-testid="compare-cancel" on:click=move |_| cancel(state, progress) disabled=move || !running()>"Cancel"</button>
                </div>
            </div>
            <p class="hint">"Is the candidate worse than the baseline beyond noise? The same test and numbers as fieldscope gate --baseline with its defaults, and the documents whose fields went from exact to wrong or back."</p>
            {body}
        </section>
    }
}
