//! The "Where it fails" view (SPEC §9.1–§9.2): each model's errors as a
//! stacked bar of error types (and, opened, one bar per field), every
//! segment a button that shows the documents it counts in the document
//! browser; the `slice_by` picker (a settings key, so in the URL fragment
//! like every setting); each weak slice in one sentence; and a table of
//! every slice per model, each row's button showing its documents.
//!
//! The bars are Leptos elements (one `<button>` per segment, its width its
//! share, its count and type in its text, title and aria-label), coloured
//! with the charts' error palette (`charts::style::ERRORS`). What a click
//! asks of the browser is a [`Browse`] put in `AppState::browse`; the
//! reading of the report (segments, sentences, keys, a slice's documents)
//! is `crate::report_state::failures`, tested natively. Every number
//! shown is also in a `data-` attribute for the browser tests.

use super::format::{full, opt_ratio, percent, shown};
use crate::charts::style::ERRORS;
use crate::eval::report::{ErrorCounts, ErrorType, ModelSlices, Report};
use crate::report_state::failures::{
    error_label, explanation, segments, slice_by, slice_condition, slice_keys, toggle_key, Browse,
    Explanation, MAX_SLICE_KEYS,
};
use crate::report_state::{Navigate, ViewEvent};
use crate::session::SettingsEdit;
use leptos::prelude::*;
use serde_json::Value;
use std::sync::Arc;

/// A segment's colour and the text colour that reads on it.
fn colours(error: ErrorType) -> (String, &'static str) {
    let i = ErrorType::ALL.iter().position(|&e| e == error).unwrap_or(0);
    let c = ERRORS[i % ERRORS.len()];
    let text = if c.lightness() > 55.0 { "#000" } else { "#fff" };
    (format!("rgb({}, {}, {})", c.0, c.1, c.2), text)
}

/// The app's signals the view reads and sets (the parts of `AppState` it
/// needs, so that it imports nothing of its parent).
#[derive(Clone, Copy)]
pub struct Signals {
    /// Sends a settings change to the report state (the picker's
    /// `slice_by`).
    pub edit_settings: Callback<SettingsEdit>,
    /// The report with its document details (a slice's documents).
    pub details: RwSignal<Option<Arc<Report>>>,
    /// Tells the report state what to show: the documents to browse, a
    /// notice.
    pub tell: Callback<ViewEvent>,
}

/// Asks the document browser for `browse` and scrolls to it.
fn show(state: Signals, browse: Browse) {
    state
        .tell
        .run(ViewEvent::Navigate(Navigate::Browse(browse)));
}

/// One stacked bar: `who` names it (the model, or the model and field).
fn bar(
    state: Signals,
    errors: &ErrorCounts,
    model: usize,
    field: Option<String>,
    who: String,
) -> impl IntoView {
    let total = errors.total();
    let parts = segments(errors)
        .into_iter()
        .map(|s| {
            let (fill, ink) = colours(s.error);
            let label = format!(
                "{who}: {} {} error{} ({}), show the documents",
                s.count,
                error_label(s.error),
                if s.count == 1 { "" } else { "s" },
                percent(s.share)
            );
            // Set through the CSSOM (`style:`), which the page's
            // Content-Security-Policy allows; a `style` attribute it blocks.
            let width = format!("{:.3}%", 100.0 * s.share);
            let field = field.clone();
            let text = if s.share >= 0.06 {
                s.count.to_string()
            } else {
                String::new()
            };
            view! {
                <button
                    type="button"
                    class="segment"
                    style:width=width
                    style:background-color=fill
                    style:color=ink
                    title=label.clone()
                    aria-label=label
                    data-testid="error-segment"
                    data-model-index=model.to_string()
                    data-field=field.clone().unwrap_or_default()
                    data-error=s.error.name()
                    data-count=s.count.to_string()
                    on:click=move |_| show(state, Browse::segment(model, field.as_deref(), s.error))
                >{text}</button>
            }
        })
        .collect_view();
    view! {
        <div class="stack-row">
            <span class="stack-label">{shown(&who)}</span>
            <div class="stack" data-total=total.to_string()>
                {parts}
                {(total == 0).then(|| view! { <span class="hint">"no errors"</span> })}
            </div>
            <span class="stack-total num">{format!("n = {total}")}</span>
        </div>
    }
}

/// The error types' legend.
fn legend() -> impl IntoView {
    let items = ErrorType::ALL
        .into_iter()
        .map(|e| {
            let (fill, _) = colours(e);
            view! {
                <li><span class="swatch" style:background-color=fill aria-hidden="true"></span>{error_label(e)}</li>
            }
        })
        .collect_view();
    view! { <ul class="legend" aria-label="Error types">{items}</ul> }
}

#[component]
pub fn WhereItFails(state: Signals, report: Arc<Report>) -> impl IntoView {
    let model_bars = report
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| bar(state, &m.errors, i, None, m.name.clone()))
        .collect_view();
    // A model's bars per field are drawn when its section is first opened
    // (a wide benchmark has thousands: issue 34).
    let field_bars = report
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let opened = RwSignal::new(false);
            let r = Arc::clone(&report);
            let bars = move || {
                opened.get().then(|| {
                    r.models[i]
                        .fields
                        .iter()
                        .filter(|f| f.errors.total() > 0)
                        .map(|f| bar(state, &f.errors, i, Some(f.field.clone()), f.field.clone()))
                        .collect_view()
                })
            };
            let on_toggle = move |ev: leptos::ev::Event| {
                if event_target::<web_sys::Element>(&ev).has_attribute("open") {
                    opened.set(true);
                }
            };
            view! {
                <details class="field-errors" data-testid="field-errors" data-model=m.name.clone()
                    on:toggle=on_toggle>
                    <summary>{format!("{} by field", shown(&m.name))}</summary>
                    {bars}
                </details>
            }
        })
        .collect_view();
    let near = report.config.errors.near_miss;
    view! {
        <section class="card where" aria-labelledby="where-heading" data-testid="where-it-fails">
            <h2 id="where-heading">"Where it fails"</h2>
            <h3>"Error types"</h3>
            <p class="hint">{format!(
                "Every value a model got wrong, by error type (SPEC §9.1), as a share of its errors (n = its errors): format (the same value in another number or date convention, or the same letters and digits), scale (off by a power of ten), swapped (another field's true value), near miss (string similarity at least {near}), wrong (otherwise), missed (truth present, no prediction), spurious (prediction without truth). Click a segment to see its documents below."
            )}</p>
            {legend()}
            <div class="stacks" data-testid="error-bars">{model_bars}</div>
            {field_bars}
            <SlicesPart state=state report=report.clone() />
        </section>
    }
}

/// The slices: the picker, the weak slices in words, a table per model.
#[component]
fn SlicesPart(state: Signals, report: Arc<Report>) -> impl IntoView {
    let by = slice_by(&report);
    let keys = slice_keys(&report);
    // Over the cap, any other top-level key is typed (and ticked).
    let typed = (keys.left_out > 0).then(|| {
        let by = by.clone();
        let on_change = move |ev: leptos::ev::Event| {
            let key = event_target_value(&ev).trim().to_string();
            if key.is_empty() {
                return;
            }
            let next = toggle_key(&by, &key, true);
            let value = Value::Array(next.into_iter().map(Value::String).collect());
            state.edit_settings.run(SettingsEdit::Set {
                path: "slice_by".into(),
                value: Some(value),
            });
        };
        view! {
            <label class="inline" data-testid="slice-key-more">
                {format!(
                    "{} more key{} (the {MAX_SLICE_KEYS} with the most truth values are shown); another: ",
                    keys.left_out,
                    if keys.left_out == 1 { "" } else { "s" }
                )}
                <input type="text" data-testid="slice-key-typed" size="16" on:change=on_change />
            </label>
        }
    });
    let boxes = keys
        .offered
        .into_iter()
        .map(|key| {
            let checked = by.contains(&key);
            let by = by.clone();
            let k = key.clone();
            let on_change = move |ev: leptos::ev::Event| {
                let next = toggle_key(&by, &k, event_target_checked(&ev));
                let value = Value::Array(next.into_iter().map(Value::String).collect());
                state.edit_settings.run(SettingsEdit::Set {
                    path: "slice_by".into(),
                    value: Some(value),
                });
            };
            view! {
                <label class="inline check">
                    <input type="checkbox" data-testid="slice-key" data-key=key.clone() prop:checked=checked on:change=on_change />
                    <code>{shown(&key)}</code>
                </label>
            }
        })
        .collect_view();
    let body = match &report.slices {
        None => view! {
            <p class="hint" data-testid="no-slices">"Tick a key to cut the documents into slices by its values, score each model on each slice and find the slices where a model is significantly worse than on the rest (SPEC §9.2)."</p>
        }
        .into_any(),
        Some(slices) => {
            let sentences: Vec<Explanation> = slices
                .models
                .iter()
                .flat_map(|m| {
                    m.slices
                        .iter()
                        .filter(|r| r.weak)
                        .filter_map(|r| explanation(&m.name, r))
                })
                .collect();
            let words = if sentences.is_empty() {
                view! { <p data-testid="no-weak-slice">"No model has a weak slice."</p> }.into_any()
            } else {
                sentences
                    .into_iter()
                    .map(|e| view! {
                        <p class="weak-sentence" data-testid="weak-slice-sentence">
                            "On "<code>{shown(&e.condition)}</code>" "{shown(&e.rest)}"."
                        </p>
                    })
                    .collect_view()
                    .into_any()
            };
            let tables = slices
                .models
                .iter()
                .enumerate()
                .map(|(i, m)| slice_table(state, i, m))
                .collect_view();
            let caption = crate::export::slices::caption(&report, slices, str::to_string, str::to_string);
            view! {
                {words}
                <p class="hint">{caption}</p>
                {tables}
            }
            .into_any()
        }
    };
    view! {
        <h3 id="slices-heading">"Slices"</h3>
        <fieldset class="slice-picker" data-testid="slice-picker">
            <legend>"Slice by"</legend>
            {boxes}
            {typed}
        </fieldset>
        {body}
    }
}

/// One model's slices, as the report orders them (weak ones first).
fn slice_table(state: Signals, model: usize, m: &ModelSlices) -> impl IntoView {
    let rows = m
        .slices
        .iter()
        .map(|r| {
            let condition = slice_condition(r);
            let row = r.clone();
            // A slice's documents come from the report's details (the
            // report drawn here is without them until they are in).
            let click = move |_| {
                let browse = state.details.with_untracked(|d| {
                    d.as_deref().and_then(|d| Browse::slice(d, model, &row))
                });
                match browse {
                    Some(b) => show(state, b),
                    None => state.tell.run(ViewEvent::Notice(
                        "The documents' details are needed to show a slice's documents: compute them in the Documents section first.".to_string(),
                    )),
                }
            };
            let button = view! {
                <button type="button" class="link" data-testid="slice-documents" title="show these documents" on:click=click>
                    {shown(&condition)}
                </button>
            };
            view! {
                <tr data-key=r.key.clone() data-value=r.value.to_string() class:weak=r.weak>
                    <th scope="row">{button}</th>
                    <td class="num" data-metric="documents" data-value=r.documents.to_string()>{r.documents}</td>
                    <td class="num" data-metric="precision" data-value=full(Some(r.micro.precision))>{opt_ratio(Some(r.micro.precision))}</td>
                    <td class="num" data-metric="recall" data-value=full(Some(r.micro.recall))>{opt_ratio(Some(r.micro.recall))}</td>
                    <td class="num" data-metric="f1" data-value=full(Some(r.micro.f1))>{opt_ratio(Some(r.micro.f1))}</td>
                    <td class="num" data-metric="delta" data-value=full(r.delta)>{opt_ratio(r.delta)}</td>
                    <td class="num" data-metric="p_value" data-value=full(r.p_value)>{opt_ratio(r.p_value)}</td>
                    <td class="num" data-metric="p_holm" data-value=full(r.p_holm)>{opt_ratio(r.p_holm)}</td>
                    <td data-metric="weak" data-value=r.weak.to_string()>{if r.weak { "weak" } else { "" }}</td>
                </tr>
            }
        })
        .collect_view();
    let weak = m.slices.iter().filter(|r| r.weak).count();
    let tested = m.slices.iter().filter(|r| r.p_value.is_some()).count();
    view! {
        <div class="scroll">
            <table class="data numeric" data-testid="slice-table" data-model=m.name.clone()>
                <caption>{format!("Slices of {}: {weak} weak of {tested} tested, {} in all. Click a slice to see its documents below.", shown(&m.name), m.slices.len())}</caption>
                <thead><tr>
                    <th scope="col">"Slice"</th><th scope="col">"Documents"</th><th scope="col">"Precision"</th><th scope="col">"Recall"</th>
                    <th scope="col">"F1"</th><th scope="col">"Δ F1"</th><th scope="col">"p"</th><th scope="col">"p (Holm)"</th><th scope="col">"Weak"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
