//! The settings panel: the top configuration layer (SPEC §4). Every change
//! re-evaluates at once and is written to the URL fragment.

use super::state::AppState;
use crate::eval::config::default_json;
use crate::eval::Preset;
use crate::session::SettingsEdit;
use leptos::prelude::*;
use serde_json::{json, Value};

pub use crate::session::{
    settings_from_fragment as from_fragment, settings_to_fragment as to_fragment,
};

/// The effective value of a config key (from the last report, else the
/// defaults), by JSON pointer.
fn effective(state: AppState, pointer: &str) -> Value {
    state
        .report
        .with(|r| {
            r.as_ref()
                .ok()
                .and_then(|r| r.config.to_json().pointer(pointer).cloned())
        })
        .or_else(|| default_json().pointer(pointer).cloned())
        .unwrap_or(Value::Null)
}

fn set(state: AppState, path: &str, value: Option<Value>) {
    let path = path.to_string();
    super::evaluation::edit_settings(state, SettingsEdit::Set { path, value });
}

/// A `<select>` bound to a config key whose options are JSON values.
#[component]
fn ChoiceSetting(
    state: AppState,
    label: &'static str,
    path: &'static str,
    options: Vec<(&'static str, Value)>,
    #[prop(optional)] testid: Option<&'static str>,
    #[prop(optional)] help: Option<&'static str>,
) -> impl IntoView {
    let pointer = format!("/{}", path.replace('.', "/"));
    let opts = options.clone();
    let current = move || {
        let v = effective(state, &pointer);
        opts.iter()
            .position(|(_, o)| *o == v)
            .map(|i| i.to_string())
            .unwrap_or_default()
    };
    let opts2 = options.clone();
    let on_change = move |ev: web_sys::Event| {
        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
            if let Some((_, v)) = opts2.get(i) {
                set(state, path, Some(v.clone()));
            }
        }
    };
    view! {
        <label class="setting" title=help.unwrap_or("")>
            <span>{label}</span>
            <select data-testid=testid.unwrap_or(path) on:change=on_change prop:value=current>
                {options.into_iter().enumerate().map(|(i, (text, _))| view! { <option value=i.to_string()>{text}</option> }).collect_view()}
            </select>
        </label>
    }
}

/// A number input bound to a config key.
#[component]
fn NumberSetting(
    state: AppState,
    label: &'static str,
    path: &'static str,
    min: f64,
    max: f64,
    step: f64,
    #[prop(optional)] help: Option<&'static str>,
) -> impl IntoView {
    let pointer = format!("/{}", path.replace('.', "/"));
    let current = move || {
        effective(state, &pointer)
            .as_f64()
            .map(|v| v.to_string())
            .unwrap_or_default()
    };
    let on_change = move |ev: web_sys::Event| {
        let v = event_target_value(&ev);
        match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && (min..=max).contains(&x) => set(state, path, Some(json!(x))),
            Ok(_) => super::evaluation::notify(
                state,
                format!("{label}: enter a number between {min} and {max}"),
            ),
            Err(_) if v.trim().is_empty() => set(state, path, None),
            Err(_) => super::evaluation::notify(state, format!("{label}: {v:?} is not a number")),
        }
    };
    view! {
        <label class="setting" title=help.unwrap_or("")>
            <span>{label}</span>
            <input type="number" data-testid=path min=min max=max step=step prop:value=current on:change=on_change />
        </label>
    }
}

#[component]
pub fn SettingsPanel(state: AppState) -> impl IntoView {
    let preset_value = move || {
        effective(state, "/preset")
            .as_str()
            .unwrap_or("standard")
            .to_string()
    };
    let on_preset = move |ev: web_sys::Event| {
        let name = event_target_value(&ev);
        if Preset::parse(&name).is_ok() {
            // A preset replaces the panel's other choices.
            super::evaluation::edit_settings(state, SettingsEdit::Preset(name));
        }
    };
    let absent = move || {
        effective(state, "/absent_values")
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    };
    let id_field = move || {
        effective(state, "/id_field")
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let case_sensitive = move || {
        effective(state, "/case_sensitive")
            .as_bool()
            .unwrap_or(false)
    };
    view! {
        <section class="panel settings" aria-labelledby="settings-heading">
            <h2 id="settings-heading">"Rules"</h2>
            <label class="setting">
                <span>"Preset"</span>
                <select data-testid="preset-select" on:change=on_preset prop:value=preset_value>
                    {Preset::ALL.into_iter().map(|p| view! { <option value=p.name()>{p.name()}</option> }).collect_view()}
                </select>
            </label>
            <ChoiceSetting state=state label="String match" path="string_match.method"
                options=vec![("similarity (exact / partial)", json!("similarity")), ("CER ≤ threshold", json!("cer")), ("exact after normalisation", json!("exact"))] />
            <NumberSetting state=state label="Exact if similarity ≥" path="partial_matching.string.exact_threshold" min=0.0 max=1.0 step=0.01 />
            <NumberSetting state=state label="Partial if similarity ≥" path="partial_matching.string.partial_threshold" min=0.0 max=1.0 step=0.01 />
            <NumberSetting state=state label="Exact if CER ≤" path="string_match.cer_threshold" min=0.0 max=10.0 step=0.01 />
            <NumberSetting state=state label="Item recognised if item F1 ≥" path="item_f1_threshold" min=0.0 max=1.0 step=0.01 />
            <NumberSetting state=state label="Numeric tolerance" path="numeric_tolerance" min=0.0 max=1e12 step=0.01 />
            <ChoiceSetting state=state label="An incorrect value counts as" path="incorrect_counts_as"
                options=vec![("FP and FN (standard IE)", json!(["fp", "fn"])), ("FP only (M0)", json!(["fp"]))] />
            <ChoiceSetting state=state label="0/0 gives" path="zero_division"
                options=vec![("0", json!(0.0)), ("1", json!(1.0))] />
            <ChoiceSetting state=state label="Empty document scores (macro)" path="empty_document_score"
                options=vec![("P = R = 1", json!(1.0)), ("P = R = 0", json!(0.0))] />
            <ChoiceSetting state=state label="Macro F1 over documents" path="macro_f1"
                options=vec![("harmonic mean of macro P and R", json!("harmonic")), ("mean of per-document F1", json!("mean"))] />
            <ChoiceSetting state=state label="Dates like 01/02/2025" path="date_order"
                options=vec![("day first", json!("dmy")), ("month first", json!("mdy"))] />
            <label class="setting checkbox">
                <input type="checkbox" data-testid="case_sensitive" prop:checked=case_sensitive
                    on:change=move |ev| {
                        let checked = event_target_checked(&ev);
                        set(state, "case_sensitive", Some(Value::Bool(checked)));
                    } />
                <span>"Case-sensitive strings"</span>
            </label>
            <label class="setting">
                <span>"Absent values (comma-separated)"</span>
                <input type="text" data-testid="absent_values" prop:value=absent
                    on:change=move |ev| {
                        let list: Vec<Value> = event_target_value(&ev)
                            .split(',')
                            .map(|s| Value::String(s.trim().to_string()))
                            .collect();
                        set(state, "absent_values", Some(Value::Array(list)));
                    } />
            </label>
            <label class="setting">
                <span>"Id field (empty: detect)"</span>
                <input type="text" data-testid="id_field" prop:value=id_field
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        let v = v.trim();
                        set(state, "id_field", (!v.is_empty()).then(|| Value::String(v.to_string())));
                    } />
            </label>
            <super::field_types::FieldTypesSetting state=state />
            <button type="button" data-testid="reset-settings" on:click=move |_| super::evaluation::edit_settings(state, SettingsEdit::Reset)>
                "Reset to the config file"
            </button>
        </section>
    }
}
