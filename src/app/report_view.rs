//! The report: model comparison, accuracy paradox, uncertainty, literature
//! metrics, charts, confidence, per-field table,
//! set fields, line items, document-level scores, warnings and exports;
//! a report of over 2,000 per-field rows drawn in stages (`super::stages`).

use super::format::{cost, full, opt_ratio, percent, ratio, shown};
use super::stages::{self, Later, Pace};
use super::state::AppState;
use super::{documents, exports};
use crate::eval::bootstrap::{BootstrapReport, Interval};
use crate::eval::config::MacroF1;
use crate::eval::rates::{ABSTENTION_RATE, HALLUCINATION_RATE, RATES};
use crate::eval::report::{ModelReport, Report};
use crate::export::json_number;
use crate::matrix_view;
use crate::protocol::Request;
use crate::report_state::truth::Message;
use crate::report_state::{AverageView, Event, ViewEvent};
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn ReportView(
    state: AppState,
    /// The element the sections are drawn in (the page's content column);
    /// while a large report draws in stages it keeps its least height
    /// (`stages::Pace`).
    holder: NodeRef<leptos::html::Section>,
) -> impl IntoView {
    // Tracked apart from the report: the validity may leave the report as
    // it was (every payload valid) and still end the provisional state.
    let sections = move || match (state.validity_unknown.track(), state.report.get()).1 {
        Err(message) if state.worker_stopped.get() => {
            stages::release(holder);
            view! {
            <div class="worker-failed" role="alert" data-testid="worker-failed">
                <h2>"The evaluation stopped because of an internal error"</h2>
                <pre>{message}</pre>
                <p>"Your files are still listed. The next change you make, or this button, starts the evaluation again with them."</p>
                <button data-testid="worker-restart" on:click=move |_| super::evaluation::restart(state)>
                    "Start again"
                </button>
            </div>
        }
        .into_any()
        }
        Err(message) => {
            stages::release(holder);
            view! {
                <div class="empty-report" data-testid="no-report"><p>{message}</p></div>
                <super::truth_check::TruthRecovery truth=state.truth decide=truth_decisions(state) />
            }
                .into_any()
        }
        Ok(report) => {
            let rows = report.models.iter().map(|m| m.fields.len()).sum();
            let pace = Pace::new(rows, holder);
            let r1 = report.clone();
            let r2 = report.clone();
            let r3 = report.clone();
            let r4 = report.clone();
            let r5 = report.clone();
            let r6 = report.clone();
            let r7 = report.clone();
            let r8 = report.clone();
            let r9 = report.clone();
            view! {
            <Summary state=state report=report.clone() />
            <super::truth_check::TruthLine truth=state.truth report=report.clone() />
            <Warnings report=report.clone() />
            <ModelTable state=state report=report.clone() />
            <ParadoxPanel state=state report=report.clone() />
            <WeightedFields report=report.clone() />
            <Later pace=pace step=1>
                <super::uncertainty::UncertaintyPanel state=state report=r1.clone() />
                <super::literature::LiteraturePanel state=state report=r1.clone() />
            </Later>
            <Later pace=pace step=2>
                <super::charts_view::ChartsView state=state report=r2.clone() />
            </Later>
            <Later pace=pace step=3>
                <super::confidence::ConfidencePanel state=state report=r3.clone() />
                <super::sweep_view::SweepPanel state=state />
                <super::compare::ComparePanel state=state report=r3.clone() />
            </Later>
            <Later pace=pace step=4>
                <super::where_it_fails::WhereItFails state=super::where_it_fails::Signals {
                    edit_settings: Callback::new(move |edit| super::evaluation::edit_settings(state, edit)),
                    details: state.details,
                    tell: Callback::new(move |event| super::evaluation::tell(state, event)),
                } report=r4.clone() />
            </Later>
            <Later pace=pace step=5>
                <super::truth_check::TruthCheckPanel truth=state.truth drafts=state.truth_drafts details=state.details
                    notify=Callback::new(move |message| super::evaluation::notify(state, message))
                    report=r5.clone() decide=truth_decisions(state)
                    ask_truth=Callback::new(move |()| super::evaluation::dispatch(state, Event::Ask(Request::CorrectedTruth))) />
                <DocumentScores state=state report=r5.clone() />
                <super::field_types::SuggestionsCard state=state report=r5.clone() />
            </Later>
            <Later pace=pace step=6>
                <super::field_matrix::FieldMatrixCard schemas=state.schemas report=r6.clone() />
            </Later>
            <Later pace=pace step=7>
                <FieldTable state=state report=r7.clone() />
            </Later>
            <Later pace=pace step=8>
                <SetsSection report=r8.clone() />
                <ItemsSection state=state report=r8.clone() />
                <documents::DocumentSection state=state report=r8.clone() />
            </Later>
            <Later pace=pace step=9 last=true>
                <exports::ExportPanel state=state report=r9.clone() />
                <super::definitions::Definitions />
            </Later>
        }
        .into_any()
        }
    };
    sections
}

/// The "Check the truth" panel's decisions, as page events
/// (`report_state::Event::Truth`).
fn truth_decisions(state: AppState) -> Callback<Message> {
    Callback::new(move |message| super::evaluation::dispatch(state, Event::Truth(message)))
}

type Shared = std::sync::Arc<Report>;

#[component]
fn Summary(state: AppState, report: Shared) -> impl IntoView {
    let preset = report.config.preset.name();
    let method = report.config.string_match.method.name();
    view! {
        <p class="summary" data-testid="summary" data-evaluation-ms=state.evaluation_ms.get_untracked().round()>
            {format!(
                "{} documents · {} model{} · preset {preset} · strings compared by {method}",
                report.documents,
                report.models.len(),
                if report.models.len() == 1 { "" } else { "s" }
            )}
            {(!report.suggestions.is_empty()).then(|| {
                let n = report.suggestions.len();
                view! {
                    " · "
                    <a href="#suggestions" data-testid="suggestions-link">
                        {format!("{n} suggestion{}", if n == 1 { "" } else { "s" })}
                    </a>
                }
            })}
        </p>
    }
}

#[component]
fn Warnings(report: Shared) -> impl IntoView {
    (!report.warnings.is_empty()).then(|| {
        let items = report.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view();
        view! {
            <details class="warnings" data-testid="warnings">
                <summary>{format!("{} warning{}", report.warnings.len(), if report.warnings.len() == 1 { "" } else { "s" })}</summary>
                <ul>{items}</ul>
            </details>
        }
    })
}

/// The best (max) value of a column, for highlighting.
fn best(values: &[f64]) -> Option<f64> {
    (values.len() > 1).then(|| values.iter().copied().fold(f64::NEG_INFINITY, f64::max))
}

fn scores_of(m: &ModelReport, avg: AverageView) -> (f64, f64, f64, f64) {
    match avg {
        AverageView::Micro => (
            m.micro.precision,
            m.micro.recall,
            m.micro.f1,
            m.micro.accuracy,
        ),
        AverageView::MacroDocuments => (
            m.macro_documents.precision,
            m.macro_documents.recall,
            m.macro_documents.f1,
            m.macro_documents.accuracy,
        ),
        AverageView::MacroFields => (
            m.macro_fields.precision,
            m.macro_fields.recall,
            m.macro_fields.f1,
            m.macro_fields.accuracy,
        ),
    }
}

/// A number cell with the full value in `data-value` and the rounded text;
/// with a bootstrap interval, `± half-width` after the number, the interval
/// in `data-low` / `data-high` and the tooltip, and † when the model is
/// significantly below the best (`below`).
#[component]
fn NumCell(
    metric: &'static str,
    value: Option<f64>,
    text: String,
    #[prop(optional)] best: bool,
    #[prop(optional_no_strip)] interval: Option<Interval>,
    #[prop(optional)] below: bool,
) -> impl IntoView {
    let low = interval.map(|i| i.low.to_string());
    let high = interval.map(|i| i.high.to_string());
    let title =
        interval.map(|i| format!("bootstrap interval [{}, {}]", ratio(i.low), ratio(i.high)));
    view! {
        <td class="num" class:best=best data-metric=metric data-value=full(value) data-low=low data-high=high title=title>
            {text}
            {interval.map(|i| view! { <span class="pm">{format!(" ± {}", ratio(i.half_width()))}</span> })}
            {below.then(|| view! { <span class="dagger" aria-label="significantly below the best model">" †"</span> })}
        </td>
    }
}

/// The interval of `metric` for model `name`, when the intervals are computed.
fn interval_of(b: &Option<Arc<BootstrapReport>>, name: &str, metric: &str) -> Option<Interval> {
    b.as_ref()?.model(name)?.get(metric).copied()
}

/// Whether model `name` is significantly below the best on `metric`.
fn below_of(b: &Option<Arc<BootstrapReport>>, name: &str, metric: &str) -> bool {
    b.as_ref().is_some_and(|b| b.below_best(metric, name))
}

/// The sentence a caption adds once intervals are computed: the method,
/// and the test behind † (`marked`: which columns carry it).
fn interval_note(b: &Option<Arc<BootstrapReport>>, marked: &str) -> String {
    let Some(b) = b else {
        return String::new();
    };
    format!(
        " ± = half the width of the {:.0} % percentile bootstrap interval over documents ({} resamples of the {} documents, seed {}; the interval itself in each cell's tooltip). † = {marked} significantly below the best model's (paired bootstrap test, two-sided, Holm-adjusted over the model pairs, α = {}).",
        b.level * 100.0,
        b.resamples,
        b.documents,
        b.seed,
        b.alpha
    )
}

#[component]
fn ModelTable(state: AppState, report: Shared) -> impl IntoView {
    let r = report.clone();
    let table = move || {
        let avg = state.average.get();
        let boot = state.bootstrap.get();
        let key = avg.key();
        let metric = |score: &str| format!("{key}.{score}");
        let rows: Vec<(f64, f64, f64)> = r
            .models
            .iter()
            .map(|m| {
                let s = scores_of(m, avg);
                (s.0, s.1, s.2)
            })
            .collect();
        let bp = best(&rows.iter().map(|x| x.0).collect::<Vec<_>>());
        let br = best(&rows.iter().map(|x| x.1).collect::<Vec<_>>());
        let bf = best(&rows.iter().map(|x| x.2).collect::<Vec<_>>());
        let is = |v: f64, b: Option<f64>| b.is_some_and(|b| (v - b).abs() < 1e-12);
        let f1_note = match (avg, r.config.macro_f1) {
            (AverageView::MacroDocuments, MacroF1::Mean) => "F1 is the mean of per-document F1.",
            (AverageView::MacroDocuments, _) => {
                "F1 is the harmonic mean of macro precision and macro recall (M4)."
            }
            (AverageView::Micro, _) => {
                "Counts pooled over all documents and fields, then each score computed once."
            }
            (AverageView::MacroFields, _) => {
                "Per-field scores averaged over fields; F1 is the mean of per-field F1."
            }
        };
        view! {
            <table class="data numeric" data-testid="model-table" data-average=avg.key()>
                <caption>{format!("Model comparison — precision, recall and F1 {}. {f1_note} Strict matching: a partial match counts as wrong; M_total = exact + 0.5 × partial.{}", avg.label().to_lowercase(), interval_note(&boot, "F1"))}</caption>
                <thead><tr>
                    <th scope="col">"Model"</th><th scope="col">"M_total"</th><th scope="col">"|Pred|"</th><th scope="col">"|Truth|"</th>
                    <th scope="col">"Precision"</th><th scope="col">"Recall"</th><th scope="col">"F1"</th><th scope="col">"Cost"</th>
                </tr></thead>
                <tbody>
                    {r.models.iter().map(|m| {
                        let (p, rc, f, _) = scores_of(m, avg);
                        let iv = |score: &str| interval_of(&boot, &m.name, &metric(score));
                        let below = below_of(&boot, &m.name, &metric("f1"));
                        view! {
                            <tr data-model=m.name.clone()>
                                <th scope="row">{shown(&m.name)}</th>
                                <NumCell metric="m_total" value=Some(m.m_total) text=format!("{:.1}", m.m_total) />
                                <NumCell metric="pred_count" value=Some(m.pred_count as f64) text=m.pred_count.to_string() />
                                <NumCell metric="truth_count" value=Some(m.truth_count as f64) text=m.truth_count.to_string() />
                                <NumCell metric="precision" value=Some(p) text=ratio(p) best=is(p, bp) interval=iv("precision") />
                                <NumCell metric="recall" value=Some(rc) text=ratio(rc) best=is(rc, br) interval=iv("recall") />
                                <NumCell metric="f1" value=Some(f) text=ratio(f) best=is(f, bf) interval=iv("f1") below=below />
                                <NumCell metric="cost" value=m.cost text=cost(m.cost) />
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        }
    };
    view! {
        <section class="card" aria-labelledby="models-heading">
            <div class="card-head">
                <h2 id="models-heading">"Models"</h2>
                <div class="segmented" role="radiogroup" aria-label="Average">
                    {AverageView::ALL.into_iter().map(|a| view! {
                        <button type="button" role="radio" data-testid=format!("average-{}", a.key())
                            aria-checked=move || (state.average.get() == a).to_string()
                            class:selected=move || state.average.get() == a
                            on:click=move |_| super::evaluation::tell(state, ViewEvent::Average(a))>{a.label()}</button>
                    }).collect_view()}
                </div>
            </div>
            {table}
        </section>
    }
}

/// The ranking of models by a score (indices, best first).
fn ranking(models: &[ModelReport], score: impl Fn(&ModelReport) -> f64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..models.len()).collect();
    idx.sort_by(|&a, &b| score(&models[b]).total_cmp(&score(&models[a])));
    idx
}

/// M0's accuracy paradox: the explanation when accuracy and F1 rank the
/// models differently.
pub fn paradox_explanation(report: &Report) -> Option<String> {
    let models = &report.models;
    if models.len() < 2 {
        return None;
    }
    let by_acc = ranking(models, |m| m.micro.accuracy);
    let by_f1 = ranking(models, |m| m.micro.f1);
    if by_acc == by_f1 {
        return None;
    }
    let top_acc = &models[by_acc[0]];
    let top_f1 = &models[by_f1[0]];
    let tn_share = |m: &ModelReport| m.counts.true_negative as f64 / m.counts.total().max(1) as f64;
    let mut text = String::new();
    if top_acc.name != top_f1.name {
        text.push_str(&format!(
            "Accuracy and F1 disagree: {} has the best accuracy ({}) but {} has the best F1 ({}). ",
            top_acc.name,
            ratio(top_acc.micro.accuracy),
            top_f1.name,
            ratio(top_f1.micro.f1)
        ));
    } else {
        text.push_str("Accuracy and F1 rank the other models differently. ");
    }
    text.push_str("Accuracy counts true negatives — fields absent in the truth that a model correctly leaves empty (NOT_FOUND) — while precision, recall and F1 ignore them. ");
    for m in models {
        let worst_field = m
            .fields
            .iter()
            .filter(|f| f.counts.spurious > 0)
            .max_by_key(|f| f.counts.spurious)
            .map(|f| format!("; most in {} ({} values)", f.field, f.counts.spurious))
            .unwrap_or_default();
        text.push_str(&format!(
            "{}: {} of its outcomes are true negatives, it abstains on {} of the present fields, and gives a value to {} of the absent ones (hallucination rate{worst_field}). ",
            m.name,
            percent(tn_share(m)),
            percent(ABSTENTION_RATE.value(m)),
            percent(HALLUCINATION_RATE.value(m)),
        ));
    }
    text.push_str("A conservative model gains accuracy from true negatives while losing recall; an eager one gains recall while hallucinating on absent fields.");
    Some(text)
}

/// The macro average over fields weighted by `field_weights` (beyond
/// SPEC §4), beside the unweighted one; only when a metrics config gives
/// the key. The caption is the exports' (`export::weighted_sentence`).
#[component]
fn WeightedFields(report: Shared) -> impl IntoView {
    let caption = crate::export::weighted_sentence(&report)?;
    let columns = crate::export::WEIGHTED_COLUMNS;
    let bests: Vec<Option<f64>> = columns
        .iter()
        .map(|(_, _, score)| {
            best(
                &report
                    .models
                    .iter()
                    .filter_map(|m| m.weighted_fields.as_ref().map(score))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let rows = report
        .models
        .iter()
        .map(|m| {
            let cells = columns
                .iter()
                .zip(&bests)
                .map(|((_, metric, score), b)| {
                    let value = m.weighted_fields.as_ref().map(score);
                    let best = matches!((value, b), (Some(v), Some(b)) if (v - b).abs() < 1e-12);
                    view! { <NumCell metric=metric value=value text=opt_ratio(value) best=best /> }
                })
                .collect_view();
            view! { <tr data-model=m.name.clone()><th scope="row">{shown(&m.name)}</th>{cells}</tr> }
        })
        .collect_view();
    let head = columns
        .iter()
        .map(|(h, _, _)| view! { <th scope="col">{*h}</th> })
        .collect_view();
    Some(view! {
        <section class="card" aria-labelledby="weighted-heading">
            <h2 id="weighted-heading">"Weighted over fields"</h2>
            <table class="data numeric" data-testid="weighted-table">
                <caption>{shown(&caption)}</caption>
                <thead><tr><th scope="col">"Model"</th>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    })
}

#[component]
fn ParadoxPanel(state: AppState, report: Shared) -> impl IntoView {
    let ba = best(
        &report
            .models
            .iter()
            .map(|m| m.micro.accuracy)
            .collect::<Vec<_>>(),
    );
    let bf = best(&report.models.iter().map(|m| m.micro.f1).collect::<Vec<_>>());
    let is = |v: f64, b: Option<f64>| b.is_some_and(|b| (v - b).abs() < 1e-12);
    let explanation = paradox_explanation(&report);
    // "Hallucination rate = …; abstention rate = …" from the declarations.
    let rate_words = RATES
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let label = if i == 0 {
                r.label.to_string()
            } else {
                r.label.to_lowercase()
            };
            format!("{label} = {}", r.words)
        })
        .collect::<Vec<_>>()
        .join("; ");
    let table = move || {
        let boot = state.bootstrap.get();
        let iv = |m: &ModelReport, metric: &str| interval_of(&boot, &m.name, metric);
        let below = |m: &ModelReport, metric: &str| below_of(&boot, &m.name, metric);
        view! {
            <table class="data numeric" data-testid="paradox-table">
                <caption>{format!("Micro averages. Accuracy = (TP + TN) / N also counts true negatives; precision, recall and F1 do not. {rate_words}.{}", interval_note(&boot, "F1 or accuracy"))}</caption>
                <thead><tr>
                    <th scope="col">"Model"</th><th scope="col">"Precision"</th><th scope="col">"Recall"</th><th scope="col">"F1"</th>
                    <th scope="col">"Accuracy"</th>{RATES.iter().map(|r| view! { <th scope="col">{r.label}</th> }).collect_view()}
                </tr></thead>
                <tbody>
                    {report.models.iter().map(|m| view! {
                        <tr data-model=m.name.clone()>
                            <th scope="row">{shown(&m.name)}</th>
                            <NumCell metric="precision" value=Some(m.micro.precision) text=ratio(m.micro.precision) interval=iv(m, "micro.precision") />
                            <NumCell metric="recall" value=Some(m.micro.recall) text=ratio(m.micro.recall) interval=iv(m, "micro.recall") />
                            <NumCell metric="f1" value=Some(m.micro.f1) text=ratio(m.micro.f1) best=is(m.micro.f1, bf) interval=iv(m, "micro.f1") below=below(m, "micro.f1") />
                            <NumCell metric="accuracy" value=Some(m.micro.accuracy) text=ratio(m.micro.accuracy) best=is(m.micro.accuracy, ba) interval=iv(m, "micro.accuracy") below=below(m, "micro.accuracy") />
                            {RATES.iter().map(|r| view! { <NumCell metric=r.key value=Some(r.value(m)) text=ratio(r.value(m)) /> }).collect_view()}
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        }
    };
    view! {
        <section class="card" aria-labelledby="paradox-heading">
            <h2 id="paradox-heading">"Accuracy versus F1"</h2>
            {table}
            {explanation.map(|t| view! { <p class="paradox" data-testid="paradox-explanation">{t}</p> })}
        </section>
    }
}

#[component]
fn DocumentScores(state: AppState, report: Shared) -> impl IntoView {
    let w = &report.config.document_extraction_score.weights;
    let weights = format!(
        "{} · numeric_precision + {} · field_f1_partial + {} · schema_validity",
        json_number(w.numeric_precision),
        json_number(w.field_f1_partial),
        json_number(w.schema_validity)
    );
    let table = move || {
        if let Some(why) = state.validity_failure.get() {
            return view! {
                <p class="error" role="alert" data-testid="validity-failed">{format!("The predictions could not be checked against the JSON Schema ({why}), so the extraction score, schema validity and exact match are not shown. Everything else in the report is final.")}</p>
            }
            .into_any();
        }
        if state.validity_unknown.get() {
            return view! {
                <p class="hint" data-testid="validity-pending">"Checking every prediction against the JSON Schema (in a background worker); the extraction score, schema validity and exact match follow in a moment."</p>
            }
            .into_any();
        }
        let boot = state.bootstrap.get();
        let metric = "document_extraction_score";
        view! {
            <table class="data numeric" data-testid="document-scores">
                <caption>{format!("M2's headline: document_extraction_score = {weights} (weights re-spread when numeric_precision is not applicable). CER is pooled: Σ edits / Σ truth characters.{}", interval_note(&boot, "the extraction score"))}</caption>
                <thead><tr>
                    <th scope="col">"Model"</th><th scope="col">"Extraction score"</th><th scope="col">"Numeric precision"</th>
                    <th scope="col">"Field F1 (partial)"</th><th scope="col">"Schema validity"</th><th scope="col">"Exact match"</th><th scope="col">"CER"</th>
                </tr></thead>
                <tbody>
                    {report.models.iter().map(|m| view! {
                        <tr data-model=m.name.clone()>
                            <th scope="row">{shown(&m.name)}</th>
                            <NumCell metric="document_extraction_score" value=Some(m.document_extraction_score) text=ratio(m.document_extraction_score) interval=interval_of(&boot, &m.name, metric) below=below_of(&boot, &m.name, metric) />
                            <NumCell metric="numeric_precision" value=m.numeric_precision text=opt_ratio(m.numeric_precision) />
                            <NumCell metric="field_f1_partial" value=Some(m.field_f1_partial) text=ratio(m.field_f1_partial) />
                            <NumCell metric="schema_validity_rate" value=Some(m.schema_validity_rate) text=ratio(m.schema_validity_rate) />
                            <NumCell metric="exact_match_rate" value=Some(m.exact_match_rate) text=ratio(m.exact_match_rate) />
                            <NumCell metric="cer" value=m.cer text=opt_ratio(m.cer) />
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        }
        .into_any()
    };
    view! {
        <section class="card" aria-labelledby="doc-heading">
            <h2 id="doc-heading">"Document-level scores"</h2>
            {table}
        </section>
    }
}

/// Up to this many fields the per-field table draws every row; a wider
/// report (a benchmark of many document types) gets a box that scrolls,
/// with only the rows in view and [`FIELD_MARGIN`] more drawn
/// (`matrix_view::window`) and spacers for the rest, so that 10,000
/// fields never hold the page (issue 34).
const FIELD_ROWS_ALL_UP_TO: usize = 200;
/// A row's height in the scrolling box (`style/layout.css` fixes it).
const FIELD_ROW_PX: f64 = 36.0;
/// The scrolling box's height (`style/layout.css`).
const FIELD_VIEWPORT_PX: f64 = 560.0;
/// Rows drawn beyond the visible ones on either side.
const FIELD_MARGIN: usize = 10;

/// Sort keys of the per-field table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FieldSort {
    Field,
    F1,
    Precision,
    Recall,
    Cer,
    Errors,
}

#[component]
fn FieldTable(state: AppState, report: Shared) -> impl IntoView {
    let model = RwSignal::new(0usize);
    let config = Arc::new(super::field_types::report_config(&report));
    let sort = RwSignal::new((FieldSort::Field, false));
    let names: Vec<String> = report.models.iter().map(|m| m.name.clone()).collect();
    let r = report.clone();
    let header = move |key: FieldSort, text: &'static str| {
        view! {
            <th scope="col" aria-sort=move || {
                let (k, desc) = sort.get();
                if k == key { if desc { "descending" } else { "ascending" } } else { "none" }
            }>
                <button type="button" class="sort" on:click=move |_| sort.update(|(k, d)| { if *k == key { *d = !*d } else { *k = key; *d = key != FieldSort::Field } })>{text}</button>
            </th>
        }
    };
    let windowed = report
        .models
        .iter()
        .map(|m| m.fields.len())
        .max()
        .unwrap_or(0)
        > FIELD_ROWS_ALL_UP_TO;
    let scroll = RwSignal::new(0.0f64);
    let sorted = Memo::new(move |_| {
        let Some(m) = r.models.get(model.get()) else {
            return Vec::new();
        };
        let mut fields = m.fields.clone();
        let (key, desc) = sort.get();
        fields.sort_by(|a, b| {
            let o = match key {
                FieldSort::Field => a.field.cmp(&b.field),
                FieldSort::F1 => a.f1.total_cmp(&b.f1),
                FieldSort::Precision => a.precision.total_cmp(&b.precision),
                FieldSort::Recall => a.recall.total_cmp(&b.recall),
                FieldSort::Cer => a.cer.unwrap_or(-1.0).total_cmp(&b.cer.unwrap_or(-1.0)),
                FieldSort::Errors => {
                    let e = |f: &crate::eval::report::FieldReport| {
                        f.counts.incorrect + f.counts.missed + f.counts.spurious + f.counts.partial
                    };
                    e(a).cmp(&e(b))
                }
            };
            if desc {
                o.reverse()
            } else {
                o
            }
        });
        fields
    });
    // The rows in the page: all of them, or (windowed) those in view.
    let window = move |total: usize| match windowed {
        true => matrix_view::window(
            total,
            FIELD_ROW_PX,
            scroll.get(),
            FIELD_VIEWPORT_PX,
            FIELD_MARGIN,
        ),
        false => (0, total),
    };
    let on_scroll = move |ev: leptos::ev::Event| {
        if windowed {
            scroll.set(event_target::<web_sys::Element>(&ev).scroll_top() as f64);
        }
    };
    let spacer = move |rows: usize| {
        (windowed && rows > 0).then(|| view! {
            <tr class="spacer" aria-hidden="true"><td colspan="15" style:height=format!("{}px", rows as f64 * FIELD_ROW_PX)></td></tr>
        })
    };
    view! {
        <section class="card" aria-labelledby="fields-heading">
            <div class="card-head">
                <h2 id="fields-heading">"Fields"</h2>
                <label class="inline"><span>"Model"</span>
                    <select data-testid="field-model" on:change=move |ev| model.set(event_target_value(&ev).parse().unwrap_or(0))>
                        {names.into_iter().enumerate().map(|(i, n)| view! { <option value=i.to_string()>{shown(&n)}</option> }).collect_view()}
                    </select>
                </label>
            </div>
            {windowed.then(|| view! {
                <p class="hint" data-testid="field-table-windowed">{move || format!(
                    "{} fields: the rows are drawn as they scroll into view (the field matrix above has the search box).",
                    sorted.with(Vec::len)
                )}</p>
            })}
            <div class="scroll" class:field-window=windowed on:scroll=on_scroll>
            <table class="data fields numeric" data-testid="field-table">
                <caption>"Per field, counts pooled over documents; strict scores (partial counts as wrong). Click a header to sort."</caption>
                <thead><tr>
                    {header(FieldSort::Field, "Field")}
                    <th scope="col" title="How the field's values are compared (SPEC §7.1); a change re-evaluates">"Type"</th>
                    <th scope="col">"Exact"</th><th scope="col">"Partial"</th><th scope="col">"Incorrect"</th><th scope="col">"Missed"</th><th scope="col">"Spurious"</th><th scope="col">"TN"</th>
                    {header(FieldSort::Precision, "P")}{header(FieldSort::Recall, "R")}{header(FieldSort::F1, "F1")}
                    <th scope="col">"Accuracy"</th>{header(FieldSort::Cer, "CER")}<th scope="col">"Mean CER"</th>{header(FieldSort::Errors, "Errors")}
                </tr></thead>
                <tbody>
                    {move || sorted.with(|fields| {
                    let (start, end) = window(fields.len());
                    let rows = fields[start..end].iter().map(|f| {
                        let errors = f.counts.incorrect + f.counts.missed + f.counts.spurious + f.counts.partial;
                        let ty = super::field_types::type_in(config.as_ref().as_ref(), &f.field);
                        view! {
                            <tr data-field=f.field.clone()>
                                <th scope="row"><code>{shown(&f.field)}</code></th>
                                <td><super::field_types::TypeMenu state=state path=f.field.clone() current=ty /></td>
                                <td class="num">{f.counts.exact}</td><td class="num">{f.counts.partial}</td><td class="num">{f.counts.incorrect}</td>
                                <td class="num">{f.counts.missed}</td><td class="num">{f.counts.spurious}</td><td class="num">{f.counts.true_negative}</td>
                                <NumCell metric="precision" value=Some(f.precision) text=ratio(f.precision) />
                                <NumCell metric="recall" value=Some(f.recall) text=ratio(f.recall) />
                                <NumCell metric="f1" value=Some(f.f1) text=ratio(f.f1) />
                                <NumCell metric="accuracy" value=Some(f.accuracy) text=ratio(f.accuracy) />
                                <NumCell metric="cer" value=f.cer text=opt_ratio(f.cer) />
                                <NumCell metric="mean_cer" value=f.mean_cer text=opt_ratio(f.mean_cer) />
                                <td class="num">{errors}</td>
                            </tr>
                        }
                    }).collect_view();
                    view! { {spacer(start)} {rows} {spacer(fields.len() - end)} }
                    })}
                </tbody>
            </table>
            </div>
        </section>
    }
}

#[component]
fn SetsSection(report: Shared) -> impl IntoView {
    let rows: Vec<_> = report
        .models
        .iter()
        .flat_map(|m| {
            m.sets
                .iter()
                .map(move |(path, s)| (m.name.clone(), path.clone(), s.clone()))
        })
        .collect();
    (!rows.is_empty()).then(|| {
        let ks: Vec<String> = rows.first().map(|r| r.2.hit_at_k.keys().cloned().collect()).unwrap_or_default();
        let mut ks_sorted = ks.clone();
        ks_sorted.sort_by_key(|k| k.parse::<usize>().unwrap_or(usize::MAX));
        let ks_head = ks_sorted.clone();
        view! {
            <section class="card" aria-labelledby="sets-heading">
                <h2 id="sets-heading">"Set fields (multi-label codes, M1)"</h2>
                <table class="data numeric numeric-from-3" data-testid="sets-table">
                    <caption>"Means over documents where truth or prediction is non-empty. Precision = pred_in_true / |P|, recall = true_in_pred / |T|, accuracy = (P + R) / 2; legacy accuracy = (pred_in_true + true_in_pred) / (2·max(|T|, |P|)); hit@k = a truth code among the first k predicted."</caption>
                    <thead><tr>
                        <th scope="col">"Model"</th><th scope="col">"Field"</th><th scope="col">"Docs"</th><th scope="col">"P"</th><th scope="col">"R"</th><th scope="col">"F1"</th>
                        <th scope="col">"Accuracy"</th><th scope="col">"Legacy"</th>
                        {ks_head.into_iter().map(|k| view! { <th scope="col">{format!("hit@{k}")}</th> }).collect_view()}
                    </tr></thead>
                    <tbody>
                        {rows.into_iter().map(|(model, path, s)| {
                            let hits = ks_sorted.iter().map(|k| { let v = s.hit_at_k.get(k).copied(); view! { <td class="num" data-value=full(v)>{opt_ratio(v)}</td> } }).collect_view();
                            view! {
                                <tr data-model=model.clone()>
                                    <th scope="row">{shown(&model)}</th><td><code>{shown(&path)}</code></td><td class="num">{s.documents}</td>
                                    <td class="num">{ratio(s.precision)}</td><td class="num">{ratio(s.recall)}</td><td class="num">{ratio(s.f1)}</td>
                                    <td class="num">{ratio(s.accuracy)}</td><td class="num">{ratio(s.legacy_accuracy)}</td>{hits}
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </section>
        }
    })
}

#[component]
fn ItemsSection(state: AppState, report: Shared) -> impl IntoView {
    let any = report.models.iter().any(|m| m.items.is_some());
    let threshold = report.config.item_f1_threshold;
    let table = move || {
        let boot = state.bootstrap.get();
        view! {
            <table class="data numeric" data-testid="items-table">
                <caption>{format!("Items matched one-to-one maximising total item F1; an item is recognised when matched with item F1 ≥ {threshold}. Item-count accuracy: share of documents whose recognised items equal the truth's count; count match: share where the predicted count equals it.{}", interval_note(&boot, "item F1"))}</caption>
                <thead><tr>
                    <th scope="col">"Model"</th><th scope="col">"Recognised"</th><th scope="col">"|P items|"</th><th scope="col">"|T items|"</th>
                    <th scope="col">"Item P"</th><th scope="col">"Item R"</th><th scope="col">"Item F1"</th><th scope="col">"Count accuracy"</th><th scope="col">"Count match"</th>
                </tr></thead>
                <tbody>
                    {report.models.iter().filter_map(|m| m.items.clone().map(|i| (m.name.clone(), i))).map(|(name, i)| {
                        let iv = |metric: &str| interval_of(&boot, &name, metric);
                        view! {
                            <tr data-model=name.clone()>
                                <th scope="row">{shown(&name)}</th><td class="num">{i.recognised}</td><td class="num">{i.pred_items}</td><td class="num">{i.truth_items}</td>
                                <NumCell metric="items.precision" value=Some(i.precision) text=ratio(i.precision) interval=iv("items.precision") />
                                <NumCell metric="items.recall" value=Some(i.recall) text=ratio(i.recall) interval=iv("items.recall") />
                                <NumCell metric="items.f1" value=Some(i.f1) text=ratio(i.f1) interval=iv("items.f1") below=below_of(&boot, &name, "items.f1") />
                                <td class="num">{ratio(i.item_count_accuracy)}</td><td class="num">{ratio(i.item_count_match_rate)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        }
    };
    any.then(|| {
        view! {
            <section class="card" aria-labelledby="items-heading">
                <h2 id="items-heading">"Line items (M3)"</h2>
                {table}
            </section>
        }
    })
}
