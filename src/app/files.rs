//! Loading data: the page-wide drop zone, the file picker, the example
//! button, and the list of loaded files with their roles, model names,
//! costs and errors. The files go to the evaluation worker as `File`s
//! (it reads them); the list is the worker's (`AppState::files`).

use super::evaluation::{drop_files, edit};
use super::state::AppState;
use crate::protocol::{Request, Role, SchemaOverview};
use crate::report_state::view::human_size;
use crate::report_state::ViewEvent;
use crate::session::SettingsEdit;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The largest file the app reads: the file, its parsed records and the
/// evaluation all live in this tab's memory (about 3× the file, plus
/// the schema worker's copy while it validates).
pub const MAX_FILE_BYTES: f64 = 300e6;
/// The most the app reads in one go (all files of one drop together).
pub const MAX_TOTAL_BYTES: f64 = 600e6;

/// File-list entries drawn per frame: a drop of 105 files drew them all
/// in one task of about 60–100 ms.
const ENTRIES_PER_FRAME: usize = 25;

/// Hands picked or dropped files to the evaluation worker, saying so.
/// Files over the size limits are refused, each with a message; the
/// others are read by the worker.
fn read(state: AppState, list: web_sys::FileList) {
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
    let mut refused = Vec::new();
    let mut total = 0.0;
    let accepted: Vec<web_sys::File> = files
        .into_iter()
        .filter(|f| {
            let size = f.size();
            let why = if size > MAX_FILE_BYTES {
                Some(format!(
                    "the browser app reads files up to {}",
                    human_size(MAX_FILE_BYTES as usize)
                ))
            } else if total + size > MAX_TOTAL_BYTES {
                Some(format!(
                    "the files of one drop may total {}",
                    human_size(MAX_TOTAL_BYTES as usize)
                ))
            } else {
                None
            };
            match why {
                Some(why) => {
                    refused.push(format!(
                        "{} is {} and was not loaded: {why}, since everything stays in this tab's memory. The command-line tool (fieldscope eval) has no such limit.",
                        f.name(),
                        human_size(size as usize)
                    ));
                    false
                }
                None => {
                    total += size;
                    true
                }
            }
        })
        .collect();
    super::evaluation::tell(
        state,
        ViewEvent::Reading {
            files: accepted.len(),
            bytes: total as usize,
            refused,
        },
    );
    if accepted.is_empty() {
        return;
    }
    drop_files(state, accepted);
}

/// The whole page is a drop target (`data-testid="drop-zone"`).
#[component]
pub fn DropZone(state: AppState, children: Children) -> impl IntoView {
    let dragging = RwSignal::new(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|dt| dt.files()) {
            read(state, files);
        }
    };
    view! {
        <div
            class="drop-zone"
            class:dragging=move || dragging.get()
            data-testid="drop-zone"
            on:dragenter=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
            on:dragleave=move |ev: web_sys::DragEvent| {
                if ev.related_target().is_none() {
                    dragging.set(false);
                }
            }
            on:drop=on_drop
        >
            <div class="drop-overlay" aria-hidden="true">"Drop ground truth, predictions, schema or config files"</div>
            {children()}
        </div>
    }
}

/// The file list and the loading controls.
#[component]
pub fn FilePanel(state: AppState) -> impl IntoView {
    let on_pick = move |ev: web_sys::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        if let Some(input) = input {
            if let Some(files) = input.files() {
                read(state, files);
            }
            input.set_value("");
        }
    };
    // A drop of many files (a schema per document type) adds its entries
    // [`ENTRIES_PER_FRAME`] a frame, not all in one task (issue 34).
    let count = Memo::new(move |_| state.files.with(Vec::len));
    let drawn = RwSignal::new(ENTRIES_PER_FRAME);
    Effect::new(move |_| {
        let (n, d) = (count.get(), drawn.get());
        if n <= ENTRIES_PER_FRAME && d > ENTRIES_PER_FRAME {
            drawn.set(ENTRIES_PER_FRAME);
        } else if n > d {
            super::browser::after_next_paint(move || {
                drawn.try_update(|d| *d += ENTRIES_PER_FRAME);
            });
        }
    });
    let ids = move || {
        let d = drawn.get();
        state
            .files
            .with(|f| f.iter().take(d).map(|f| f.id).collect::<Vec<_>>())
    };
    let overview = Memo::new(move |_| state.schemas.get());
    view! {
        <section class="panel files" aria-labelledby="files-heading">
            <h2 id="files-heading">"Data"</h2>
            <p class="hint">"Drop files anywhere on the page, or choose them. JSON, JSONL or CSV records; an optional JSON Schema and metrics_config.json. A bundle, or an HTML report written with its inputs embedded, re-opens its whole evaluation."</p>
            <div class="buttons">
                <label class="button primary">
                    "Choose files…"
                    <input type="file" multiple data-testid="file-input" class="visually-hidden"
                        accept=".json,.jsonl,.ndjson,.csv,.html,.htm,application/json,text/csv,text/html"
                        on:change=on_pick />
                </label>
                <button type="button" data-testid="load-example"
                    on:click=move |_| edit(state, Request::LoadExample)>
                    "Load example"
                </button>
                <button type="button" data-testid="clear-files" on:click=move |_| edit(state, Request::Clear)>
                    "Clear"
                </button>
            </div>
            {move || state.notice.get().map(|n| view! { <p class="notice" role="status">{n}</p> })}
            <SchemaBy state=state overview=overview />
            <ul class="file-list">
                <For each=ids key=|id| *id let:id>
                    <FileEntry state=state id=id overview=overview />
                </For>
            </ul>
        </section>
    }
}

/// With several schemas (SPEC §7.2): how a document names its schema
/// (`schema_by`: its id or a top-level truth field) and how many documents
/// name none.
#[component]
fn SchemaBy(state: AppState, overview: Memo<Option<SchemaOverview>>) -> impl IntoView {
    move || {
        overview.get().map(|o| {
            let current = o.schema_by.clone().unwrap_or_default();
            let options = o
                .choices
                .iter()
                .map(|c| {
                    let text = if c == "id" { "its id".to_string() } else { format!("field {c}") };
                    view! { <option value=c.clone() selected=*c == current>{text}</option> }
                })
                .collect_view();
            let (count, first) = o.unserved.clone();
            view! {
                <div class="schema-by" data-testid="schema-by-panel">
                    <label class="setting">
                        <span>"Several schemas: each document's schema is named by"</span>
                        <select data-testid="schema-by" prop:value=current.clone()
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                let value = (!v.is_empty()).then(|| serde_json::Value::String(v));
                                super::evaluation::edit_settings(state, SettingsEdit::Set { path: "schema_by".into(), value });
                            }>
                            <option value="" selected=current.is_empty()>"— choose —"</option>
                            {options}
                        </select>
                    </label>
                    <p class="hint">"Its value, trimmed, is the schema's file name without the last extension (SPEC §7.2). Each document is evaluated on its own schema's fields and the fields it or the prediction has."</p>
                    {(o.schema_by.is_some() && count > 0).then(|| view! {
                        <p class="hint" data-testid="schema-unserved" data-count=count>
                            {format!(
                                "{count} document{} name{} no loaded schema ({}{}) and {} evaluated without one.",
                                if count == 1 { "" } else { "s" },
                                if count == 1 { "s" } else { "" },
                                first.join(", "),
                                if count > first.len() { ", …" } else { "" },
                                if count == 1 { "is" } else { "are" },
                            )}
                        </p>
                    })}
                </div>
            }
        })
    }
}

#[component]
fn FileEntry(state: AppState, id: u32, overview: Memo<Option<SchemaOverview>>) -> impl IntoView {
    // How many documents this schema serves, among several.
    let serves = move || {
        overview.with(|o| {
            o.as_ref()
                .and_then(|o| o.served.iter().find(|(f, _)| *f == id).map(|(_, n)| *n))
        })
    };
    // One subscription to the file list per entry (a memo of this file):
    // the entry's parts read the memo, and an entry whose file did not
    // change is not drawn again when the list arrives (once per parsed
    // file of a drop: a hundred entries each reading the list in ten
    // places made each arrival re-run a thousand effects, issue 34).
    let this = Memo::new(move |_| {
        state
            .files
            .with(|files| files.iter().find(|f| f.id == id).cloned())
    });
    let file = move || this.get();
    let role = move || file().map_or(Role::Predictions, |f| f.role);
    // The name and cost inputs are set again only when their own value
    // changes: a file list that arrives while the user types in one (the
    // answer to an edit of the other, say) leaves what is typed alone.
    let model = Memo::new(move |_| file().map(|f| f.model).unwrap_or_default());
    let cost = Memo::new(move |_| {
        file()
            .and_then(|f| f.cost)
            .map(|c| c.to_string())
            .unwrap_or_default()
    });
    let status = move || match file() {
        Some(f) if f.error.is_some() => "error",
        Some(f) if f.pending => "pending",
        _ => "ok",
    };
    let on_role = move |ev: web_sys::Event| {
        if let Some(r) = Role::parse(&event_target_value(&ev)) {
            edit(state, Request::SetRole { id, role: r });
        }
    };
    view! {
        <li class="file-entry" data-testid="file-entry" data-role=move || role().name() data-status=status>
            <div class="file-head">
                <span class="file-name" title=move || file().map(|f| f.name).unwrap_or_default()>
                    {move || file().map(|f| f.name).unwrap_or_default()}
                </span>
                <button type="button" class="icon" aria-label="Remove this file"
                    on:click=move |_| edit(state, Request::Remove { id })>"×"</button>
            </div>
            <label class="inline">
                <span>"Role"</span>
                <select data-testid="role-select" on:change=on_role prop:value=move || role().name().to_string()>
                    {Role::ALL.into_iter().map(|r| view! { <option value=r.name()>{r.label()}</option> }).collect_view()}
                </select>
            </label>
            <Show when=move || role() == Role::Predictions>
                <label class="inline">
                    <span>"Model"</span>
                    <input type="text" data-testid="model-name" aria-label="Model name"
                        prop:value=move || model.get()
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            edit(state, Request::RenameModel { id, name: v });
                        } />
                </label>
                <label class="inline">
                    <span>"Cost"</span>
                    <input type="number" min="0" step="any" data-testid="model-cost" aria-label="Model cost"
                        placeholder="from records"
                        prop:value=move || cost.get()
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            let cost = v.trim().parse::<f64>().ok();
                            edit(state, Request::SetCost { id, cost });
                        } />
                </label>
            </Show>
            {move || {
                file().map(|f| match f.error {
                    Some(e) => view! { <p class="file-error" data-testid="file-error" role="alert">{e}</p> }.into_any(),
                    None => {
                        let what = match (f.records, f.pending) {
                            (Some(n), _) => format!("{n} records"),
                            (None, true) => "waiting to be parsed…".to_string(),
                            (None, false) => "loaded".to_string(),
                        };
                        view! {
                            <p class="file-ok">{what}
                                {move || serves().map(|n| match n {
                                    Some(n) => view! {
                                        <span data-testid="schema-serves" data-count=n>
                                            {format!(" · serves {n} document{}", if n == 1 { "" } else { "s" })}
                                        </span>
                                    }.into_any(),
                                    None => view! { <span data-testid="schema-serves">" · choose how documents name it"</span> }.into_any(),
                                })}
                            </p>
                        }.into_any()
                    }
                })
            }}
        </li>
    }
}
