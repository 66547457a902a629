//! The Confidence panel (SPEC §8), shown when a model has confidences:
//! a threshold slider that moves, per model, the share of values
//! approved, their accuracy, the errors let through per 1,000 values and
//! the documents that go straight through (read off the report's
//! `views.sweep` rows: no worker round-trip), a sentence in words per
//! model, the risk–coverage chart and a reliability diagram per model
//! (`crate::charts`, with the other charts' downloads), and the per-field
//! table whose thresholds can be edited and downloaded as a metrics
//! config. The state is one [`ConfidencePanel`] (`crate::report_state::
//! confidence`, tested natively) in a signal; every number shown is also
//! in a `data-value`.

use super::browser::download;
use super::charts_view::{after_the_tables, chart_options, figure, figure_as, PaperSizeToggle};
use super::format::{full, opt_ratio, percent, ratio, shown};
use super::state::AppState;
use crate::charts::{reliability_diagrams, risk_coverage, PaperSize};
use crate::eval::report::Report;
use crate::export::confidence::{
    caption as confidence_caption, COLUMNS, FIELD_CAPTION, FIELD_HEADERS,
};
use crate::report_state::confidence::{
    ConfidencePanel as Panel, Message, Reading, CALIBRATION_MARGIN, CONFIG_FILE,
};
use leptos::prelude::*;
use std::sync::Arc;

/// A number cell: the text, the full value in `data-value`, and a count
/// beside it in `data-count` when there is one.
fn cell(
    metric: &'static str,
    value: Option<f64>,
    count: Option<u64>,
    text: String,
) -> impl IntoView {
    view! {
        <td class="num" data-metric=metric data-value=full(value) data-count=count.map(|c| c.to_string())>{text}</td>
    }
}

/// A reading's cell: its number, and under it what it counts (`sub`);
/// the full value in `data-value`, the count in `data-count` (and the
/// wholly right documents in `data-right`).
fn reading_cell(
    metric: &'static str,
    value: Option<f64>,
    count: u64,
    right: Option<u64>,
    main: String,
    sub: String,
) -> impl IntoView {
    view! {
        <td class="num" data-metric=metric data-value=full(value) data-count=count.to_string() data-right=right.map(|r| r.to_string())>
            <span class="main">{main}</span>
            <span class="sub">{sub}</span>
        </td>
    }
}

fn share_text(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), percent)
}

fn reading_row(r: &Reading) -> impl IntoView {
    let errors = r.errors_per_1000();
    let wrong = r.accepted.saturating_sub(r.correct);
    let documents = match r.documents {
        0 => format!("0 of {} documents", r.all_documents),
        n => format!(
            "{n} of {} documents, {} wholly right",
            r.all_documents, r.documents_right
        ),
    };
    view! {
        <tr data-model=r.name.to_string() data-model-index=r.model.to_string()>
            <th scope="row">{shown(r.name)}</th>
            {reading_cell("pairs", Some(r.pairs as f64), r.pairs, None, r.pairs.to_string(), "values".into())}
            {reading_cell("approved", r.approved(), r.accepted, None, share_text(r.approved()), format!("{} of {}", r.accepted, r.pairs))}
            {reading_cell("accuracy", r.accuracy(), r.correct, None, share_text(r.accuracy()), format!("{} right", r.correct))}
            {reading_cell("errors_per_1000", errors, wrong, None, errors.map_or_else(|| "—".into(), |e| format!("{e:.1}")), format!("{wrong} wrong approved"))}
            {reading_cell("straight_through", r.straight_through(), r.documents, Some(r.documents_right), share_text(r.straight_through()), documents)}
        </tr>
    }
}

/// A column header as a `data-metric` key: "Coverage at 95 %" →
/// `coverage_at_95`.
fn metric_key(header: &str) -> String {
    let mut key = String::new();
    for c in header.chars() {
        if c.is_ascii_alphanumeric() {
            key.push(c.to_ascii_lowercase());
        } else if !key.ends_with('_') {
            key.push('_');
        }
    }
    key.trim_matches('_').to_string()
}

/// Each model's scores over all its values with a confidence: the text
/// exports' table (`export::confidence::COLUMNS`, its caption too).
fn model_table(report: &Report) -> impl IntoView {
    let head = COLUMNS
        .iter()
        .map(|(header, _, _)| view! { <th scope="col">{*header}</th> })
        .collect_view();
    let rows = report
        .models
        .iter()
        .enumerate()
        .filter_map(|(i, m)| m.confidence.as_ref().map(|c| (i, m, c)))
        .map(|(i, m, c)| {
            let cells = COLUMNS
                .iter()
                .map(|(header, _, get)| {
                    let value = get(c);
                    let key = metric_key(header);
                    view! { <td class="num" data-metric=key data-value=full(value)>{opt_ratio(value)}</td> }
                })
                .collect_view();
            view! {
                <tr data-model=m.name.clone() data-model-index=i.to_string()>
                    <th scope="row">{shown(&m.name)}</th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="scroll">
        <table class="data numeric" data-testid="confidence-models">
            <caption>{confidence_caption(report)}</caption>
            <thead><tr><th scope="col">"Model"</th>{head}</tr></thead>
            <tbody>{rows}</tbody>
        </table>
        </div>
    }
}

#[component]
pub fn ConfidencePanel(state: AppState, report: Arc<Report>) -> impl IntoView {
    if report.models.iter().all(|m| m.confidence.is_none()) {
        return None;
    }
    let panel = RwSignal::new(Panel::new(&report));
    let shared = StoredValue::new(report.clone());
    let send = move |message: Message| {
        shared.with_value(|r| panel.update(|p| p.update(r, message)));
    };
    let step = Memo::new(move |_| panel.with(Panel::step));
    let threshold = move || step.get() as f64 / 100.0;

    // The slider's readings and sentences, drawn again when it moves.
    let readings = move || {
        step.track();
        shared.with_value(|r| {
            let readings = panel.with_untracked(|p| p.readings(r));
            let rows = readings.iter().map(reading_row).collect_view();
            let sentences = readings
                .iter()
                .map(|r| {
                    view! {
                        <li data-model=r.name.to_string() data-model-index=r.model.to_string() data-calibration=r.calibration.word() data-overconfident-here=r.overconfident_here().to_string()>
                            {shown(&r.sentence())}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="scroll">
                <table class="data numeric" data-testid="confidence-readings" data-threshold=full(Some(threshold()))>
                    <caption>{format!(
                        "Accepting the values whose confidence is at least {:.2}: of each model's values with a confidence, the share approved, how many of them are right, the wrong values let through per 1,000 values with a confidence, and the documents that go straight through (every value with a confidence, all at least {:.2}) with how many of them are wholly right.",
                        threshold(), threshold()
                    )}</caption>
                    <thead><tr>
                        <th scope="col">"Model"</th><th scope="col">"With a confidence"</th><th scope="col">"Approved"</th>
                        <th scope="col">"Their accuracy"</th><th scope="col">"Errors per 1,000"</th><th scope="col">"Straight through"</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
                </div>
                <ul class="confidence-sentences" data-testid="confidence-sentences">{sentences}</ul>
            }
        })
    };

    // The charts, in a task of their own after the tables (as the Charts
    // panel draws its own).
    let size = RwSignal::new(PaperSize::FullWidth);
    let drawn = after_the_tables();
    let charts = move || {
        if !drawn.get() {
            return None;
        }
        let options = chart_options(state.average.get(), size.get());
        Some(shared.with_value(|r| {
            let curve = risk_coverage(r, &options).map(|c| figure(state, c));
            let diagrams = reliability_diagrams(r, &options)
                .into_iter()
                .map(|(i, c)| figure_as(state, c, format!("reliability_diagram_{}", i + 1)))
                .collect_view();
            view! { {curve}{diagrams} }
        }))
    };

    Some(view! {
        <section class="card charts confidence" data-testid="confidence" aria-labelledby="confidence-heading">
            <div class="card-head">
                <h2 id="confidence-heading">"Confidence"</h2>
                <PaperSizeToggle size=size />
            </div>
            <p class="hint">{format!(
                "Each value a model gives with a confidence (SPEC §8) can be accepted without review when its confidence is at least a threshold. Move the threshold to see, per model, how much would go through and how much of it is right. Calibration, in each model's sentence: over all its values with a confidence, a model is overconfident when its mean confidence exceeds its accuracy by more than {CALIBRATION_MARGIN}, underconfident when it falls short by more than {CALIBRATION_MARGIN}, else calibrated. At the threshold t, the values approved are called overconfident when their accuracy is more than {CALIBRATION_MARGIN} below t (each claims at least t, so their mean confidence is at least t); nothing else can be told there."
            )}</p>
            {model_table(&report)}
            <div class="threshold-slider">
                <label for="confidence-threshold">"Accept values with confidence ≥"</label>
                <input id="confidence-threshold" type="range" min="0" max="1" step="0.01"
                    data-testid="confidence-threshold"
                    prop:value=move || format!("{:.2}", threshold())
                    on:input=move |ev| send(Message::Slide(event_target_value(&ev)))
                />
                <output for="confidence-threshold" data-testid="confidence-threshold-value" data-value=move || full(Some(threshold()))>
                    {move || format!("{:.2}", threshold())}
                </output>
            </div>
            {readings}
            <div class="chart-grid">{charts}</div>
            {field_thresholds(state, &report, panel, send)}
        </section>
    })
}

/// The per-field table (model, field, pairs, accuracy, ECE, AUROC,
/// recommended threshold — editable — and its coverage) and the download
/// of one model's thresholds as a metrics config.
fn field_thresholds(
    state: AppState,
    report: &Arc<Report>,
    panel: RwSignal<Panel>,
    send: impl Fn(Message) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let shared = StoredValue::new(report.clone());
    // What the table reads of the panel, apart from the slider (a step of
    // the slider redraws none of the table).
    let typed = Memo::new(move |_| panel.with(|p| p.edits().clone()));
    let chosen = Memo::new(move |_| panel.with(Panel::model));
    let edited = Memo::new(move |_| typed.with(|t| !t.is_empty()));
    let config = Memo::new(move |_| {
        typed.track();
        chosen.track();
        shared.with_value(|r| panel.with_untracked(|p| p.thresholds_config(r)))
    });
    let choices = report
        .models
        .iter()
        .enumerate()
        .filter(|(_, m)| m.confidence.is_some())
        .map(|(i, m)| {
            view! { <option value=i.to_string() selected=move || chosen.get() == i>{shown(&m.name)}</option> }
        })
        .collect_view();
    let chosen_name = move || {
        shared.with_value(|r| {
            r.models
                .get(chosen.get())
                .map(|m| shown(&m.name))
                .unwrap_or_default()
        })
    };
    let save = move |_| {
        let result = config
            .get_untracked()
            .and_then(|json| download(CONFIG_FILE, "application/json", json.as_bytes()));
        if let Err(why) = result {
            super::evaluation::notify(state, why);
        }
    };
    let rows = panel.with_untracked(|p| {
        p.field_rows(report)
            .into_iter()
            .map(|row| {
                let (model, path) = (row.model, row.path.to_string());
                let field = row.field.clone();
                let recommended = field.recommended_threshold;
                let text = {
                    let (path, field) = (path.clone(), field.clone());
                    move || {
                        typed.track();
                        panel.with_untracked(|p| p.text_of(model, &path, &field))
                    }
                };
                let invalid = {
                    let text = text.clone();
                    move || crate::report_state::confidence::parse_threshold(&text()).err()
                };
                let invalid_flag = {
                    let invalid = invalid.clone();
                    move || invalid().is_some().to_string()
                };
                let edited_here = {
                    let path = path.clone();
                    move || typed.with(|t| t.contains_key(&(model, path.clone())))
                };
                let label = format!("Threshold of {} for {}", shown(&path), shown(row.name));
                let input_path = path.clone();
                view! {
                    <tr data-model=row.name.to_string() data-model-index=model.to_string() data-field=path.clone()>
                        <th scope="row">{shown(row.name)}</th>
                        <td><code>{shown(&path)}</code></td>
                        {cell("pairs", Some(field.pairs as f64), Some(field.pairs), field.pairs.to_string())}
                        {cell("accuracy", Some(field.accuracy), None, ratio(field.accuracy))}
                        {cell("ece", Some(field.ece), None, ratio(field.ece))}
                        {cell("auroc", field.auroc, None, opt_ratio(field.auroc))}
                        <td class="num" data-metric="recommended_threshold" data-value=full(recommended)>
                            <input type="text" inputmode="decimal" size="6" class="threshold-input"
                                data-testid="confidence-field-threshold"
                                aria-label=label
                                placeholder="none"
                                aria-invalid=invalid_flag
                                title=move || invalid().unwrap_or_default()
                                prop:value=text
                                on:input=move |ev| send(Message::Edit {
                                    model,
                                    path: input_path.clone(),
                                    text: event_target_value(&ev),
                                })
                            />
                            <Show when=edited_here>
                                <span class="recommended" data-testid="confidence-field-recommended">
                                    {format!(" recommended {}", recommended.map_or_else(|| "none".to_string(), |t| t.to_string()))}
                                </span>
                            </Show>
                        </td>
                        {cell("coverage", Some(field.coverage), None, ratio(field.coverage))}
                    </tr>
                }
            })
            .collect_view()
    });
    let settings = &report.config.confidence;
    let review_target = settings.review_target.to_string();
    let straight_through = settings.straight_through.to_string();
    let min_pairs = format!("at least {}", settings.min_pairs);
    view! {
        <h3 id="confidence-fields-heading">"Thresholds per field"</h3>
        <p class="hint">{format!(
            "Here the review target is {review_target} and a field needs {min_pairs} pairs for a recommended threshold; its coverage is the share of the field's values that threshold accepts. Edit the thresholds, then download one model's as a metrics config (confidence.field_thresholds) to use in production: a field left empty falls back to confidence.straight_through ({straight_through})."
        )}</p>
        <div class="card-head">
            <label class="inline"><span>"Model"</span>
                <select data-testid="confidence-config-model" on:change=move |ev| send(Message::Choose(event_target_value(&ev)))>
                    {choices}
                </select>
            </label>
            <div class="buttons">
                <button type="button" class="button primary" data-testid="confidence-config-download"
                    disabled=move || config.with(Result::is_err) on:click=save>
                    {move || format!("Download {}'s thresholds ({CONFIG_FILE})", chosen_name())}
                </button>
                <button type="button" data-testid="confidence-config-reset" disabled=move || !edited.get()
                    on:click=move |_| send(Message::Reset)>"Back to the recommended"</button>
            </div>
        </div>
        {move || config.get().err().map(|why| view! {
            <p class="error" role="alert" data-testid="confidence-config-error">{shown(&why)}</p>
        })}
        <div class="scroll fields-scroll">
            <table class="data numeric numeric-from-3" data-testid="confidence-fields" aria-labelledby="confidence-fields-heading">
                <caption>{FIELD_CAPTION}</caption>
                <thead><tr>
                    <th scope="col">"Model"</th><th scope="col">"Field"</th>
                    {FIELD_HEADERS.map(|(header, _)| view! { <th scope="col">{header}</th> })}
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
