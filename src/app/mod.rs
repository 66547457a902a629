//! The browser app (Leptos, client-side rendered): drop files, see the whole
//! evaluation, take it into a paper.
//!
//! Owns: the root component, which draws the one app state
//! ([`state::AppState`], in `state`) that wraps
//! the page's part of the session (its [`Settings`]) and the report state
//! in signals. All evaluation logic lives in
//! `crate::session` and `crate::eval` (tested natively); `browser.rs` is the
//! only file that touches web APIs. Nothing here may panic: a panic kills
//! the page.

mod browser;
mod charts_view;
mod compare;
mod confidence;
mod definitions;
mod documents;
mod evaluation;
mod exports;
mod field_matrix;
mod field_types;
mod files;
mod format;
mod link;
mod literature;
mod progress;
mod report_view;
mod settings;
mod stages;
mod state;
mod sweep_view;
mod truth_check;
mod uncertainty;
mod where_it_fails;

use crate::report_state;
use crate::session::Settings;
use leptos::prelude::*;
use state::AppState;

/// Mounts the app on the page's body.
pub fn start() {
    browser::install_panic_panel();
    leptos::mount::mount_to_body(App);
    if browser::query_flag("panic-test") {
        panic!("a test of the panic panel (the page was opened with ?panic-test)");
    }
}

#[component]
fn App() -> impl IntoView {
    let layer = browser::read_fragment()
        .and_then(|f| settings::from_fragment(&f))
        .unwrap_or_default();
    let state = AppState::new(Settings::new(layer));
    // The worker loads the example; its report is asked for at once.
    // The panels send their settings changes to the report state
    // (`evaluation::edit_settings`), which asks for the reports.
    evaluation::open(state);
    let settings = Memo::new(move |_| state.settings.with(|s| s.layer.clone()));
    // Settings live in the URL fragment, so a link reproduces the view
    // (never the data).
    Effect::new(move |_| {
        let fragment = settings.with(settings::to_fragment);
        browser::write_fragment(&fragment);
    });
    // The status bar's parts, each redrawn only when it changes (an
    // evaluation's progress moves many times a second).
    let busy_text = Memo::new(move |_| {
        state
            .busy
            .get()
            .or_else(|| state.evaluating.with(|e| e.map(|e| e.label())))
    });
    // The bar's `done` of `total`: what `busy` says, else the evaluation's.
    let progress = Memo::new(move |_| match state.busy.with(Option::is_some) {
        true => None,
        false => state
            .evaluating
            .with(|e| e.filter(|e| e.total > 0).map(|e| (e.done, e.total))),
    });
    let progress_shown = Memo::new(move |_| progress.with(Option::is_some));
    let evaluating = Memo::new(move |_| state.evaluating.with(Option::is_some));
    // The report's column (`report_view::ReportView` keeps its height while
    // a large report draws in stages).
    let content = NodeRef::<leptos::html::Section>::new();
    view! {
        <files::DropZone state=state>
            <header class="top">
                <h1>"fieldscope"</h1>
                <p class="tagline">"How well does each model extract structured data? Everything runs in this browser tab; no file leaves your machine."</p>
                {browser::query_flag("worker-panic-test").then(|| view! {
                    <button
                        data-testid="worker-panic-test"
                        on:click=move |_| evaluation::dispatch(
                            state,
                            report_state::Event::Ask(crate::protocol::Request::PanicTest),
                        )
                    >"Make the evaluation worker panic (test)"</button>
                })}
            </header>
            <div class="busy-bar" role="status" aria-live="polite">
                {move || busy_text.get().map(|text| view! {
                    <p class="busy" data-testid="busy">
                        <span class="spinner" aria-hidden="true"></span>
                        {text}
                        <Show when=move || progress_shown.get()>
                            <progress
                                data-testid="busy-progress"
                                aria-label="Progress"
                                max=move || progress.get().map_or(0, |p| p.1)
                                value=move || progress.get().map_or(0, |p| p.0)
                            ></progress>
                        </Show>
                    </p>
                })}
            </div>
            <main class="layout">
                <aside class="sidebar">
                    <files::FilePanel state=state />
                    <settings::SettingsPanel state=state />
                </aside>
                <section class="content" node_ref=content aria-busy=move || evaluating.get().to_string()>
                    <report_view::ReportView state=state holder=content />
                </section>
            </main>
        </files::DropZone>
    }
}
