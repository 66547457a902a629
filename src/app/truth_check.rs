//! The "Check the truth" panel (SPEC §9.3, issue 31): the suspects of the
//! report evaluated without corrections, most support first, each with the
//! truth and every model's value side by side (a character diff against
//! the truth, as the document browser shows it); Accept (the proposed
//! value), Edit (a typed value), Reject, and Undo; the downloads of
//! `corrections.json` and of the corrected truth in the input's shape; and
//! the summary's line "3 truth values corrected; micro F1 of good moves
//! from … to …".
//!
//! The state is the page's `report_state::truth::TruthCheck` (the app
//! state's `truth` signal, set from the page's state); each decision goes
//! to the `decide` callback the report view gives (an `Event::Truth`
//! through `evaluation::dispatch`, which posts the corrections and asks
//! the worker for the report: nothing is evaluated on the page), and the
//! corrected truth is written by the worker (`ask_truth`:
//! `Request::CorrectedTruth`). Takes signals and callbacks, not the app
//! state, so that it imports nothing of its parent. May depend on leptos,
//! `browser.rs`, `format`, `report_state`, `diff`, `eval::audit`.

use super::browser::download;
use super::format::{ratio, shown, text_of};
use crate::diff::{char_diff, DiffPart};
use crate::eval::audit::slot_name;
use crate::eval::report::Report;
use crate::report_state::truth::{Decision, Message, TruthCheck};
use crate::session::CORRECTIONS_FILE;
use leptos::prelude::*;
use serde_json::Value;
use std::sync::Arc;

/// At most this many suspects are listed (most support first).
const ROWS: usize = 200;

/// The suspects listed at first; the rest, up to [`ROWS`], on a click (a
/// row is some 30 elements of the page: a wide benchmark's 200 made the
/// drop's layout slow, issue 34).
const FIRST_ROWS: usize = 50;

/// `value` against the truth `truth`: a character diff when both are
/// there and differ, else the value.
fn diffed(truth: &Value, value: &Value) -> AnyView {
    let (t, v) = (text_of(truth), text_of(value));
    if truth.is_null() || value.is_null() || t == v {
        return view! { <span>{v}</span> }.into_any();
    }
    char_diff(&t, &v)
        .into_iter()
        .map(|p| match p {
            DiffPart::Same(t) => view! { <span>{t}</span> }.into_any(),
            DiffPart::Deleted(t) => view! { <del>{t}</del> }.into_any(),
            DiffPart::Inserted(t) => view! { <ins>{t}</ins> }.into_any(),
        })
        .collect_view()
        .into_any()
}

/// Each model's prediction at (id, field) from the report's document
/// details (`None` for a model without details there; `null` when it
/// answered nothing).
fn values_at(details: Option<&Report>, models: usize, id: &str, field: &str) -> Vec<Option<Value>> {
    let Some(report) = details else {
        return vec![None; models];
    };
    report
        .models
        .iter()
        .map(|m| {
            let doc = m.document_details.as_ref()?.iter().find(|d| d.id == id)?;
            Some(
                doc.fields
                    .iter()
                    .find(|f| slot_name(&f.field, f.truth_item.map(|i| i as u32)) == field)
                    .map_or(Value::Null, |f| f.prediction.clone()),
            )
        })
        .collect()
}

/// The summary's line: how many truth values are corrected and how far
/// each model's micro F1 moves; nothing without corrections.
#[component]
pub fn TruthLine(truth: RwSignal<TruthCheck>, report: Arc<Report>) -> impl IntoView {
    move || {
        truth.with(|t| t.summary(&report, ratio)).map(|line| {
            let corrected = truth.with_untracked(|t| t.corrected());
            view! {
                <p class="summary truth-summary" data-testid="truth-summary" data-corrected=corrected.to_string()>
                    <a href="#truth-check">{line}</a>
                </p>
            }
        })
    }
}

/// One row: a suspect (or a correction a bundle brought), its truth, the
/// proposed value, every model's value and the decision's buttons.
struct Row {
    id: String,
    field: String,
    truth: Value,
    proposed: Option<Value>,
    support: Option<usize>,
    decision: Option<Decision>,
}

fn decision_word(row: &Row) -> &'static str {
    match &row.decision {
        None => "open",
        Some(Decision { to: None, .. }) => "rejected",
        Some(Decision { to: Some(to), .. }) if Some(to) == row.proposed.as_ref() => "accepted",
        // A correction a bundle brought, of a slot no suspect names now.
        Some(_) if row.proposed.is_none() => "corrected",
        Some(_) => "edited",
    }
}

/// What is typed in each row's "another value" box, by (document id,
/// field): kept by the page (`AppState::truth_drafts`), not the row, so
/// that the text survives the panel drawing its rows anew (after each
/// decision's re-evaluation, and when its document details arrive) while
/// the user types; a row's text is dropped when Set sends it.
pub type Drafts = StoredValue<std::collections::HashMap<(String, String), String>>;

fn row_view(
    decide: Callback<Message>,
    drafts: Drafts,
    row: Row,
    values: Vec<Option<Value>>,
    names: &[String],
) -> AnyView {
    let word = decision_word(&row);
    let Row {
        id,
        field,
        truth,
        proposed,
        support,
        decision,
    } = row;
    let cells = values
        .into_iter()
        .zip(names)
        .map(|(v, name)| {
            let content = match &v {
                None => view! { <span class="muted">"no details"</span> }.into_any(),
                Some(v) => diffed(&truth, v),
            };
            let value = v.as_ref().map_or_else(|| "null".into(), |v| v.to_string());
            view! { <td class="truth-model" data-model=name.clone() data-value=value>{content}</td> }
        })
        .collect_view();
    let now = match &decision {
        Some(Decision { to: Some(to), .. }) => format!("→ {}", text_of(to)),
        Some(Decision { to: None, .. }) => "(the truth kept)".to_string(),
        None => String::new(),
    };
    let slot = (id.clone(), field.clone());
    let typed = drafts.with_value(|d| d.get(&slot).cloned().unwrap_or_default());
    let (i, f) = (id.clone(), field.clone());
    let accept = proposed.is_some().then(|| {
        let (i, f) = (i.clone(), f.clone());
        view! {
            <button type="button" data-testid="truth-accept"
                on:click=move |_| decide.run(Message::Accept { id: i.clone(), field: f.clone() })>"Accept"</button>
        }
    });
    let typed_slot = slot.clone();
    let on_edit = move || {
        let text = drafts
            .try_update_value(|d| d.remove(&slot))
            .flatten()
            .unwrap_or_default();
        decide.run(Message::Edit {
            id: slot.0.clone(),
            field: slot.1.clone(),
            text,
        })
    };
    let on_edit_key = on_edit.clone();
    view! {
        <tr data-testid="truth-row" data-id=id.clone() data-field=field.clone() data-decision=word>
            <td><code>{shown(&id)}</code></td>
            <td><code>{shown(&field)}</code></td>
            <td class="truth-value" data-testid="truth-value" data-value=truth.to_string()>{text_of(&truth)}</td>
            <td class="truth-proposed" data-value=proposed.as_ref().map(Value::to_string)>
                {proposed.as_ref().map(|p| diffed(&truth, p))}
                {support.map(|s| view! { <span class="meta">{format!(" ({s} models)")}</span> })}
            </td>
            {cells}
            <td class="truth-decision" data-testid="truth-decision">{word}" "{now}</td>
            <td class="truth-actions">
                {accept}
                <input type="text" data-testid="truth-edit-input" aria-label=format!("Another value for {field} of {id}")
                    prop:value=typed
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        drafts.update_value(|d| {
                            d.insert(typed_slot.clone(), text);
                        });
                    }
                    on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" { on_edit_key() } />
                <button type="button" data-testid="truth-edit" on:click=move |_| on_edit()>"Set"</button>
                <button type="button" data-testid="truth-reject"
                    on:click=move |_| decide.run(Message::Reject { id: i.clone(), field: f.clone() })>"Reject"</button>
            </td>
        </tr>
    }
    .into_any()
}

/// The panel, when there is a suspect or a decision.
#[component]
pub fn TruthCheckPanel(
    truth: RwSignal<TruthCheck>,
    /// What is typed in the rows' boxes (kept across the panel's re-draws).
    drafts: Drafts,
    /// The report with its document details, once they are in.
    details: RwSignal<Option<Arc<Report>>>,
    /// Says a message in the notice line (through the report state).
    notify: Callback<String>,
    report: Arc<Report>,
    decide: Callback<Message>,
    /// Asks the worker for the corrected truth (its answer downloads).
    ask_truth: Callback<()>,
) -> impl IntoView {
    let names: Vec<String> = report.models.iter().map(|m| m.name.clone()).collect();
    let listed = RwSignal::new(FIRST_ROWS);
    move || {
        let check = truth.get();
        let limit = listed.get();
        let suspects = check
            .baseline
            .as_ref()
            .map(|b| b.suspects.clone())
            .unwrap_or_default();
        let mut rows: Vec<Row> = suspects
            .iter()
            .take(limit)
            .map(|s| Row {
                id: s.id.clone(),
                field: s.field.clone(),
                truth: s.truth.clone(),
                proposed: Some(s.proposed.clone()),
                support: Some(s.support),
                decision: check.decision(&s.id, &s.field).cloned(),
            })
            .collect();
        // Decisions on slots the baseline does not list (a bundle's).
        for d in check.decisions() {
            if !suspects.iter().any(|s| s.id == d.id && s.field == d.field) {
                rows.push(Row {
                    id: d.id.clone(),
                    field: d.field.clone(),
                    truth: d.from.clone(),
                    proposed: None,
                    support: None,
                    decision: Some(d.clone()),
                });
            }
        }
        if rows.is_empty() {
            return None;
        }
        let details = details.get();
        let head = names
            .iter()
            .map(|n| view! { <th scope="col">{shown(n)}</th> })
            .collect_view();
        let body = rows
            .into_iter()
            .map(|row| {
                let values = values_at(details.as_deref(), names.len(), &row.id, &row.field);
                row_view(decide, drafts, row, values, &names)
            })
            .collect_view();
        let more = suspects.len().saturating_sub(limit);
        let can_list = ROWS.saturating_sub(limit).min(more);
        let can_undo = check.can_undo();
        let corrected = check.corrected();
        let corrections = check.corrections();
        let on_corrections = move |_| {
            let text = serde_json::to_string_pretty(&corrections).unwrap_or_default();
            if let Err(e) = download(CORRECTIONS_FILE, "application/json", text.as_bytes()) {
                notify.run(e);
            }
        };
        Some(view! {
            <section class="card truth-check" id="truth-check" data-testid="truth-check" aria-labelledby="truth-heading">
                <h2 id="truth-heading">"Check the truth"</h2>
                <p class="hint">"Where the models agree with each other and none agrees with the truth (SPEC §9.3), most support first. Accept takes the proposed value, Set takes the value typed (read as JSON when it is JSON: 3, \"3\", null), Reject keeps the truth. Each decision evaluates again; Undo takes back the last."</p>
                {check.baseline.is_none().then(|| view! {
                    <p class="hint" data-testid="truth-no-baseline">"The suspects are those of the report without corrections, which is not at hand for these files and settings: below are the corrections in force."</p>
                })}
                <div class="buttons">
                    <button type="button" data-testid="truth-undo" disabled=!can_undo
                        on:click=move |_| decide.run(Message::Undo)>"Undo"</button>
                    <button type="button" data-testid="truth-download-corrections" disabled=corrected == 0
                        on:click=on_corrections>{format!("Download {CORRECTIONS_FILE}")}</button>
                    <button type="button" data-testid="truth-download-truth" disabled=corrected == 0
                        on:click=move |_| ask_truth.run(())>"Download the corrected truth"</button>
                </div>
                <div class="scroll">
                    <table class="truth-table" data-testid="truth-table">
                        <thead><tr>
                            <th scope="col">"Document"</th><th scope="col">"Field"</th><th scope="col">"Truth"</th><th scope="col">"Proposed"</th>
                            {head}
                            <th scope="col">"Decision"</th><th scope="col">"Actions"</th>
                        </tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
                {(more > 0).then(|| view! {
                    <p class="hint">
                        {format!("{more} more suspects not listed (the report's JSON lists them all). ")}
                        {(can_list > 0).then(|| view! {
                            <button type="button" class="link" data-testid="truth-more" on:click=move |_| listed.set(ROWS)>
                                {format!("List {can_list} more")}
                            </button>
                        })}
                    </p>
                })}
            </section>
        })
    }
}

/// Where there is no report because a correction no longer fits the truth
/// (another truth file, other absent values): Undo and a way to drop every
/// correction, so that the page is never stuck.
#[component]
pub fn TruthRecovery(truth: RwSignal<TruthCheck>, decide: Callback<Message>) -> impl IntoView {
    move || {
        let (corrected, can_undo) = truth.with(|t| (t.corrected(), t.can_undo()));
        (corrected > 0).then(|| view! {
            <p class="hint" data-testid="truth-recovery">
                {format!("{corrected} correction{} of the truth in force. ", if corrected == 1 { "" } else { "s" })}
                <button type="button" data-testid="truth-undo" disabled=!can_undo
                    on:click=move |_| decide.run(Message::Undo)>"Undo"</button>
                " "
                <button type="button" data-testid="truth-clear"
                    on:click=move |_| decide.run(Message::Clear)>"Drop every correction"</button>
            </p>
        })
    }
}

/// The corrected truth the worker wrote, downloaded; else why there is
/// none (for the notice line).
pub fn download_corrected(file: Result<(String, String), String>) -> Result<(), String> {
    file.and_then(|(name, text)| {
        let mime = match name.rsplit('.').next() {
            Some("csv") => "text/csv",
            Some("json") => "application/json",
            _ => "application/x-ndjson",
        };
        download(&name, mime, text.as_bytes())
    })
}
