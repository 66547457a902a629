//! Field types in the app (SPEC §7.1) and the suggestions that propose
//! them (SPEC §7.4): the type menu of a field row, the settings panel's
//! list of typed fields, and the suggestions card above the field table.
//!
//! Owns only views: what a path's type is and how setting one keeps the
//! config valid live in `session::field_types` (tested natively). Every
//! change goes into the settings layer, so it re-evaluates at once and
//! lands in the URL fragment like any other setting.

use super::evaluation::edit_settings;
use super::format::shown;
use super::state::AppState;
use crate::eval::config::FieldType;
use crate::eval::report::{Report, Suggestion};
use crate::eval::Config;
use crate::session::{declared_type, declared_types, Layered, SettingsEdit};
use leptos::prelude::*;
use std::sync::Arc;

/// The menu's choices: "automatic" (no declared type) and every type.
const CHOICES: [(&str, Option<FieldType>); 7] = [
    ("automatic", None),
    ("number", Some(FieldType::Number)),
    ("integer", Some(FieldType::Integer)),
    ("date", Some(FieldType::Date)),
    ("numeric string", Some(FieldType::NumericString)),
    ("string", Some(FieldType::String)),
    ("boolean", Some(FieldType::Boolean)),
];

/// The menu's value for a type: the config's name, "" for automatic.
fn value_of(ty: Option<FieldType>) -> &'static str {
    ty.map_or("", FieldType::name)
}

/// The effective configuration a report was evaluated with (read once per
/// table, not per row).
pub fn report_config(report: &Report) -> Option<Config> {
    Some(report.config.clone())
}

/// The type a report's configuration declares for `path`.
pub fn type_in(config: Option<&Config>, path: &str) -> Option<FieldType> {
    config.and_then(|c| declared_type(c, path))
}

/// A `<select>` of [`CHOICES`] showing `current`; choosing sets the type
/// of `path` in the settings (`data-testid="field-type"`, `data-field`).
#[component]
pub fn TypeMenu(state: AppState, path: String, current: Option<FieldType>) -> impl IntoView {
    let label = format!("How {} is compared", shown(&path));
    let field = path.clone();
    let on_change = move |ev: web_sys::Event| {
        let field_type = FieldType::parse(&event_target_value(&ev));
        let path = path.clone();
        edit_settings(state, SettingsEdit::FieldType { path, field_type });
    };
    view! {
        <select class="type-menu" data-testid="field-type" data-field=field aria-label=label
            prop:value=value_of(current) on:change=on_change>
            {CHOICES.into_iter().map(|(text, ty)| view! {
                <option value=value_of(ty) selected=ty == current>{text}</option>
            }).collect_view()}
        </select>
    }
}

/// The settings panel's "Field types": every path the configuration types
/// (its menu and a × that clears it) and a row that types a path by name.
#[component]
pub fn FieldTypesSetting(state: AppState) -> impl IntoView {
    let typed = Memo::new(move |_| {
        state
            .settings
            .with(|s| s.config().map(|c| declared_types(&c)).unwrap_or_default())
    });
    let new_path = RwSignal::new(String::new());
    let new_type = RwSignal::new(FieldType::Number);
    let add = move || {
        let path = new_path.get_untracked();
        if path.trim().is_empty() {
            super::evaluation::notify(
                state,
                "Field types: enter a field path, e.g. answers[].amount",
            );
            return;
        }
        let field_type = Some(new_type.get_untracked());
        edit_settings(state, SettingsEdit::FieldType { path, field_type });
        new_path.set(String::new());
    };
    view! {
        <fieldset class="setting field-types" data-testid="field-types">
            <legend>"Field types (SPEC §7.1)"</legend>
            <Show when=move || typed.with(Vec::is_empty)>
                <p class="hint">"None: each field is compared by its schema type or by its values."</p>
            </Show>
            <ul class="typed-fields">
                <For each=move || typed.get() key=|(p, t)| (p.clone(), t.name()) let:entry>
                    {
                        let (path, ty) = entry;
                        let clear = path.clone();
                        view! {
                            <li data-testid="typed-field" data-field=path.clone()>
                                <code>{shown(&path)}</code>
                                <TypeMenu state=state path=path.clone() current=Some(ty) />
                                <button type="button" class="icon" data-testid="clear-field-type"
                                    aria-label=format!("Clear the type of {}", shown(&path)) title="Clear"
                                    on:click=move |_| edit_settings(state, SettingsEdit::FieldType { path: clear.clone(), field_type: None })>"×"</button>
                            </li>
                        }
                    }
                </For>
            </ul>
            <form class="add-field-type" on:submit=move |ev| { ev.prevent_default(); add(); }>
                <input type="text" data-testid="new-field-type-path" placeholder="field path" aria-label="Field path"
                    prop:value=move || new_path.get() on:input=move |ev| new_path.set(event_target_value(&ev)) />
                <select data-testid="new-field-type" aria-label="Type"
                    on:change=move |ev| if let Some(t) = FieldType::parse(&event_target_value(&ev)) { new_type.set(t) }>
                    {CHOICES.into_iter().filter_map(|(text, ty)| ty.map(|t| view! {
                        <option value=t.name() selected=t == FieldType::Number>{text}</option>
                    })).collect_view()}
                </select>
                <button type="submit" data-testid="add-field-type">"Add"</button>
            </form>
        </fieldset>
    }
}

/// What a suggestion proposes, in words: the reports' own wording
/// (`export::suggestions`, also in the HTML, Markdown and notebook
/// reports).
fn proposal(s: &Suggestion) -> String {
    crate::export::suggestions::Wording::of(s).proposal
}

/// The suggestions of SPEC §7.4 above the field table, each applied with
/// one click (and all at once when there are several).
#[component]
pub fn SuggestionsCard(state: AppState, report: Arc<Report>) -> impl IntoView {
    (!report.suggestions.is_empty()).then(|| {
        let all = report.suggestions.clone();
        let several = all.len() > 1;
        let items = report
            .suggestions
            .iter()
            .map(|s| {
                let one = vec![s.clone()];
                let ty = if s.r#type == "date" { "a date" } else { "a number" };
                view! {
                    <li data-testid="suggestion" data-field=s.field.clone() data-type=s.r#type.clone() data-share=s.share>
                        <span>"Treat "<code>{shown(&s.field)}</code>{format!(" as {ty}: ")}{proposal(s)}</span>
                        <button type="button" data-testid="apply-suggestion"
                            on:click=move |_| edit_settings(state, SettingsEdit::Suggestions(one.clone()))>"Apply"</button>
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="card suggestions" id="suggestions" aria-labelledby="suggestions-heading" data-testid="suggestions">
                <div class="card-head">
                    <h2 id="suggestions-heading">"Suggestions"</h2>
                    <Show when=move || several>
                        {
                            let all = all.clone();
                            view! {
                                <button type="button" data-testid="apply-all-suggestions"
                                    on:click=move |_| edit_settings(state, SettingsEdit::Suggestions(all.clone()))>"Apply all"</button>
                            }
                        }
                    </Show>
                </div>
                <p class="hint">"Fields whose truth values are all strings, at least 5, of which at least 95 % read as numbers (or dates). A type makes them compared as such; suggestions never change a score until applied."</p>
                <ul class="suggestion-list">{items}</ul>
            </section>
        }
    })
}
