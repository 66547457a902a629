//! The document browser: filter documents by model, field and outcome; open
//! one to see the truth beside every model's prediction, field by field and
//! item by item, with a character-level diff for near misses, and a
//! `swapped` value's owner ("value of `due_date` put in `invoice_date`",
//! SPEC §9.1). The "Where it fails" view narrows it to a segment's or a
//! slice's documents (`report_state::failures::Browse`). Only one page
//! of rows is in the DOM at a time.

use super::evaluation::run_panel;
use super::format::{opt_ratio, shown, text_of};
use crate::diff::{char_diff, DiffPart};
use crate::eval::report::{DocumentDetail, FieldDetail, Outcome, Report};
use crate::protocol::{Answer, Task};
use crate::report_state::failures::{swapped_fields, Browse, Narrowing};
use leptos::prelude::*;
use serde_json::Value;
use std::rc::Rc;
use std::sync::Arc;

const PAGE: usize = 25;
/// Up to this many fields the field filter holds every option from the
/// start; more are put in when it is first used.
const LAZY_FIELD_OPTIONS: usize = 200;

fn outcome_label(o: Outcome) -> &'static str {
    match o {
        Outcome::Exact => "exact",
        Outcome::Partial => "partial",
        Outcome::Incorrect => "incorrect",
        Outcome::Missed => "missed",
        Outcome::Spurious => "spurious",
        Outcome::TrueNegative => "true negative",
    }
}

/// Whether a document of a model matches the filters.
fn matches(d: &DocumentDetail, field: &str, outcome: Option<Outcome>) -> bool {
    if field.is_empty() && outcome.is_none() {
        return true;
    }
    d.fields
        .iter()
        .any(|f| (field.is_empty() || f.field == field) && outcome.is_none_or(|o| f.outcome == o))
}

/// The document browser (drawn once the report's details are all in,
/// `AppState::details`, without drawing the rest of the report again); a
/// line while they are on their way; or, when the report was computed
/// without document details (a large dataset), a button that computes
/// them.
#[component]
pub fn DocumentSection(state: super::state::AppState, report: Arc<Report>) -> impl IntoView {
    move || match state.details.get() {
        Some(detailed) => {
            // The report view is drawn again when the schema validity arrives.
            let pending = state.validity_unknown.get_untracked();
            view! { <DocumentBrowser report=detailed pending=pending open_request=state.open_document browse=state.browse /> }.into_any()
        }
        None => without_details(state, report.clone()),
    }
}

/// The document section of a report whose details are not (yet) here.
fn without_details(state: super::state::AppState, report: Arc<Report>) -> AnyView {
    let pending = state.validity_unknown.get_untracked();
    if report.documents <= crate::service::DETAILS_UP_TO {
        // A provisional report's details follow it (`Answer::Details`).
        return view! {
            <section class="card" aria-labelledby="docs-heading" data-testid="document-browser">
                <h2 id="docs-heading">"Documents"</h2>
                <p class="hint" data-testid="details-coming">"Each document's details follow in a moment."</p>
            </section>
        }
        .into_any();
    }
    let detailed = RwSignal::new(None::<Arc<Report>>);
    let failed = RwSignal::new(None::<String>);
    let (documents, models) = (report.documents, report.models.len());
    let loading = RwSignal::new(false);
    let load = move |_| {
        loading.set(true);
        // The section is made again with each new report: the answers of
        // an older run find its signals gone (`try_`).
        let sink = move |answer: Answer| {
            match answer {
                Answer::Report { report, .. } => {
                    detailed.try_set(Some(Arc::new(*report)));
                }
                Answer::Failed { reason, .. } => {
                    failed.try_set(Some(reason));
                }
                Answer::Progress { .. } => return,
                _ => {}
            }
            loading.try_set(false);
        };
        run_panel(state, Task::Details, Rc::new(sink));
    };
    view! {
        {move || match detailed.get() {
            Some(r) => view! { <DocumentBrowser report=r pending=pending open_request=state.open_document browse=state.browse /> }.into_any(),
            None => view! {
                <section class="card" aria-labelledby="docs-heading" data-testid="document-browser">
                    <h2 id="docs-heading">"Documents"</h2>
                    <p class="hint">{format!(
                        "With more than {} documents the report is computed without each document's details, which roughly halves the time to the report. Compute them to browse the documents, filter them by model, field and outcome, and compare the truth with every model's prediction.",
                        crate::service::DETAILS_UP_TO
                    )}</p>
                    <button type="button" class="button primary" data-testid="load-document-details" on:click=load disabled=move || loading.get()>"Compute document details"</button>
                    {move || loading.get().then(|| view! { <p class="hint">{format!(
                        "Computing the details of {documents} documents × {models} model{}…",
                        if models == 1 { "" } else { "s" }
                    )}</p> })}
                    {move || failed.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                </section>
            }.into_any(),
        }}
    }
    .into_any()
}

/// The documents of `report`; while `pending` (the schema validity not yet
/// known) each document's validity says "checking…". A document id put in
/// `open_request` (by the compare panel) is opened: the filters cleared,
/// its page shown, its detail open and scrolled to. A [`Browse`] put in
/// `browse` (by the "Where it fails" view) sets the model and field
/// filters and narrows the documents to a segment's or a slice's
/// (`Narrowing`, shown with a button that lifts it), then is taken.
#[component]
pub fn DocumentBrowser(
    report: Arc<Report>,
    pending: bool,
    open_request: RwSignal<Option<String>>,
    browse: RwSignal<Option<Browse>>,
) -> impl IntoView {
    let model = RwSignal::new(0usize);
    let field = RwSignal::new(String::new());
    let outcome = RwSignal::new(None::<Outcome>);
    let narrowing = RwSignal::new(None::<Narrowing>);
    let page = RwSignal::new(0usize);
    let open = RwSignal::new(None::<usize>);
    let mut field_names: Vec<String> = report
        .models
        .iter()
        .flat_map(|m| m.fields.iter().map(|f| f.field.clone()))
        .collect();
    field_names.sort();
    field_names.dedup();
    // Over LAZY_FIELD_OPTIONS fields (a wide benchmark's 10,000) the
    // filter holds only "any" and the chosen field until it is first
    // used (focus, pointer or keyboard): 10,000 options drawn with the
    // report were a quarter second of the drop (issue 34).
    let every_option = RwSignal::new(field_names.len() <= LAZY_FIELD_OPTIONS);
    let use_options = move || every_option.set(true);
    // Once every option is in, the list no longer follows the chosen field.
    let field_options = move || {
        let chosen = (!every_option.get()).then(|| field.get());
        field_names
            .iter()
            .filter(|n| chosen.as_ref().is_none_or(|c| *n == c))
            .map(|n| view! { <option value=n.clone()>{shown(n)}</option> })
            .collect_view()
    };
    let names: Vec<String> = report.models.iter().map(|m| m.name.clone()).collect();
    let r = report.clone();
    let filtered = Memo::new(move |_| {
        let Some(m) = r.models.get(model.get()) else {
            return Vec::new();
        };
        let Some(docs) = &m.document_details else {
            return Vec::new();
        };
        let f = field.get();
        let o = outcome.get();
        narrowing.with(|n| {
            docs.iter()
                .enumerate()
                .filter(|(i, d)| matches(d, &f, o) && n.as_ref().is_none_or(|n| n.keeps(*i, d, &f)))
                .map(|(i, _)| i)
                .collect::<Vec<usize>>()
        })
    });
    let r2 = report.clone();
    let rows = move || {
        let all = filtered.get();
        let start = page.get() * PAGE;
        let m = r2.models.get(model.get());
        all.iter()
            .skip(start)
            .take(PAGE)
            .filter_map(|&i| m.and_then(|m| m.document_details.as_ref()).and_then(|d| d.get(i)).map(|d| (i, d.clone())))
            .map(|(i, d)| {
                let errors = d.counts.partial + d.counts.incorrect + d.counts.missed + d.counts.spurious;
                view! {
                    <tr data-doc=d.id.clone() class:selected=move || open.get() == Some(i)>
                        <th scope="row"><button type="button" class="link" on:click=move |_| open.set(Some(i))>{d.id.clone()}</button></th>
                        <td class="num">{d.counts.exact}</td>
                        <td class="num">{errors}</td>
                        <td class="num">{opt_ratio(Some(d.f1))}</td>
                        <td>{match (pending, d.schema_valid) { (true, _) => "checking…", (_, true) => "valid", _ => "invalid" }}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    let pages = move || filtered.with(|f| f.len().div_ceil(PAGE).max(1));
    let at_start = move || page.get() == 0;
    let at_end = move || page.get() + 1 >= pages();
    let r4 = report.clone();
    Effect::new(move |_| {
        let Some(id) = open_request.get() else {
            return;
        };
        let index = r4
            .models
            .first()
            .and_then(|m| m.document_details.as_ref())
            .and_then(|docs| docs.iter().position(|d| d.id == id));
        if let Some(i) = index {
            field.set(String::new());
            outcome.set(None);
            page.set(i / PAGE);
            open.set(Some(i));
            super::browser::scroll_to_test_id("document-detail");
        }
    });
    // A segment's or a slice's documents, asked for by "Where it fails".
    Effect::new(move |_| {
        let Some(b) = browse.get() else {
            return;
        };
        browse.set(None);
        model.set(b.model);
        field.set(b.field);
        outcome.set(None);
        narrowing.set(Some(b.narrowing));
        page.set(0);
        open.set(None);
    });
    let narrowed = move || {
        narrowing.get().map(|n| {
            view! {
                <p class="narrowing" data-testid="doc-narrowing">
                    {format!("Only the documents of {} ", shown(&n.label()))}
                    <button type="button" class="link" data-testid="doc-narrowing-clear" on:click=move |_| { narrowing.set(None); page.set(0); }>"show all"</button>
                </p>
            }
        })
    };
    let r3 = report.clone();
    let detail = move || {
        open.get()
            .map(|i| view! { <DocumentDetailView report=r3.clone() index=i /> })
    };
    view! {
        <section class="card" aria-labelledby="docs-heading" data-testid="document-browser">
            <h2 id="docs-heading">"Documents"</h2>
            <div class="filters">
                <label class="inline"><span>"Model"</span>
                    <select data-testid="doc-model" prop:value=move || model.get().to_string() on:change=move |ev| { model.set(event_target_value(&ev).parse().unwrap_or(0)); page.set(0); }>
                        {names.into_iter().enumerate().map(|(i, n)| view! { <option value=i.to_string()>{shown(&n)}</option> }).collect_view()}
                    </select>
                </label>
                <label class="inline"><span>"Field"</span>
                    <select data-testid="doc-field" prop:value=move || field.get() on:change=move |ev| { field.set(event_target_value(&ev)); page.set(0); }
                        on:focus=move |_| use_options() on:pointerdown=move |_| use_options() on:keydown=move |_| use_options()>
                        <option value="">"any"</option>
                        {field_options}
                    </select>
                </label>
                <label class="inline"><span>"Outcome"</span>
                    <select data-testid="doc-outcome" prop:value=move || outcome.get().map_or("", |o| o.name()) on:change=move |ev| {
                        let v = event_target_value(&ev);
                        outcome.set(Outcome::ALL.into_iter().find(|o| o.name() == v));
                        page.set(0);
                    }>
                        <option value="">"any"</option>
                        {Outcome::ALL.into_iter().map(|o| view! { <option value=o.name()>{outcome_label(o)}</option> }).collect_view()}
                    </select>
                </label>
                <span class="count" data-testid="doc-count">{move || format!("{} documents", filtered.with(Vec::len))}</span>
            </div>
            {narrowed}
            <table class="data">
                <thead><tr><th scope="col">"Document"</th><th scope="col" class="num">"Exact"</th><th scope="col" class="num">"Errors"</th><th scope="col" class="num">"F1"</th><th scope="col">"Schema"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <div class="pager">
                <button type="button" on:click=move |_| page.update(|p| *p = p.saturating_sub(1)) disabled=at_start>"‹ Previous"</button>
                <span>{move || format!("page {} of {}", page.get() + 1, pages())}</span>
                <button type="button" on:click=move |_| page.update(|p| if *p + 1 < pages() { *p += 1 }) disabled=at_end>"Next ›"</button>
            </div>
            {detail}
        </section>
    }
}

/// A row of the document detail.
struct RowKey {
    field: String,
    truth_item: Option<usize>,
    truth: Value,
    /// For an item a model predicted beyond the truth's: (model, item).
    extra: Option<(usize, usize)>,
}

/// One document: the truth beside every model's prediction.
#[component]
fn DocumentDetailView(report: Arc<Report>, index: usize) -> impl IntoView {
    let id = report
        .models
        .first()
        .and_then(|m| m.document_details.as_ref())
        .and_then(|d| d.get(index))
        .map(|d| d.id.clone())
        .unwrap_or_default();
    // Rows keyed by (field, truth item) from the first model; every model's
    // prediction for the same key beside it.
    let per_model: Vec<(String, Vec<FieldDetail>)> = report
        .models
        .iter()
        .map(|m| {
            let fields = m
                .document_details
                .as_ref()
                .and_then(|d| d.get(index))
                .map(|d| d.fields.clone())
                .unwrap_or_default();
            (m.name.clone(), fields)
        })
        .collect();
    // Rows: every field of the truth (by field and truth item), then the
    // items a model predicted beyond the truth's (model-specific rows).
    let mut keys: Vec<RowKey> = Vec::new();
    for (_, fields) in &per_model {
        for f in fields
            .iter()
            .filter(|f| !(f.truth_item.is_none() && f.pred_item.is_some()))
        {
            if !keys
                .iter()
                .any(|k| k.field == f.field && k.truth_item == f.truth_item && k.extra.is_none())
            {
                keys.push(RowKey {
                    field: f.field.clone(),
                    truth_item: f.truth_item,
                    truth: f.truth.clone(),
                    extra: None,
                });
            }
        }
    }
    for (m, (_, fields)) in per_model.iter().enumerate() {
        for f in fields
            .iter()
            .filter(|f| f.truth_item.is_none() && f.pred_item.is_some())
        {
            keys.push(RowKey {
                field: f.field.clone(),
                truth_item: None,
                truth: Value::Null,
                extra: Some((m, f.pred_item.unwrap_or(0))),
            });
        }
    }
    let header = per_model
        .iter()
        .map(|(n, _)| view! { <th scope="col">{shown(n)}</th> })
        .collect_view();
    let body = keys
        .into_iter()
        .map(|RowKey { field, truth_item: item, truth, extra }| {
            let label = match (item, extra) {
                (Some(i), _) => format!("{field} (item {})", i + 1),
                (None, Some((m, j))) => format!("{field} (extra item {} of {})", j + 1, per_model[m].0),
                (None, None) => field.clone(),
            };
            let label = shown(&label);
            let truth_text = text_of(&truth);
            let cells = per_model
                .iter()
                .enumerate()
                .map(|(m, (_, fields))| {
                    let found = match extra {
                        Some((em, j)) if em == m => fields.iter().find(|f| f.field == field && f.truth_item.is_none() && f.pred_item == Some(j)),
                        Some(_) => None,
                        None => fields.iter().find(|f| f.field == field && f.truth_item == item && !(f.truth_item.is_none() && f.pred_item.is_some())),
                    };
                    match found {
                        None => view! { <td class="outcome-none">"—"</td> }.into_any(),
                        Some(f) => {
                            let pred = text_of(&f.prediction);
                            let near = matches!(f.outcome, Outcome::Partial | Outcome::Incorrect) && f.truth.is_string();
                            let content = if near {
                                char_diff(&truth_text, &pred)
                                    .into_iter()
                                    .map(|p| match p {
                                        DiffPart::Same(t) => view! { <span>{t}</span> }.into_any(),
                                        DiffPart::Deleted(t) => view! { <del>{t}</del> }.into_any(),
                                        DiffPart::Inserted(t) => view! { <ins>{t}</ins> }.into_any(),
                                    })
                                    .collect_view()
                                    .into_any()
                            } else {
                                view! { <span>{pred}</span> }.into_any()
                            };
                            let metrics = match (f.similarity, f.cer) {
                                (Some(s), Some(c)) => format!("similarity {s:.3} · CER {c:.3}"),
                                (None, Some(c)) => format!("CER {c:.3}"),
                                _ => String::new(),
                            };
                            let swapped = swapped_fields(f).map(|(owner, into)| view! {
                                <div class="meta swapped" data-testid="swapped-note">
                                    "value of "<code>{shown(owner)}</code>" put in "<code>{shown(into)}</code>
                                </div>
                            });
                            view! {
                                <td class=format!("outcome-{}", f.outcome.name()) title=outcome_label(f.outcome) data-error-type=f.error_type.map(|e| e.name())>
                                    <div class="value">{content}</div>
                                    <div class="meta">{outcome_label(f.outcome)}{(!metrics.is_empty()).then(|| format!(" · {metrics}"))}</div>
                                    {swapped}
                                </td>
                            }
                            .into_any()
                        }
                    }
                })
                .collect_view();
            view! { <tr><th scope="row"><code>{label}</code></th><td class="truth">{truth_text}</td>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div class="document-detail" data-testid="document-detail">
            <h3>{format!("Document {id}")}</h3>
            <div class="scroll">
                <table class="data compare">
                    <thead><tr><th scope="col">"Field"</th><th scope="col">"Truth"</th>{header}</tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </div>
    }
}
