//! Take it away: the report as JSON (the same document the CLI prints),
//! Markdown, LaTeX and CSV tables, the self-contained HTML report (with the
//! inputs and settings embedded when asked: it then re-opens here), and a
//! bundle of inputs + settings that re-opens to the same view. The
//! literature metrics and the bootstrap intervals, once computed, are in
//! the HTML, Markdown and LaTeX, as the CLI's `--metrics all` and
//! `--bootstrap` put them. The JSON is written here; the other formats by
//! the export worker (`crate::export::TextExport`,
//! `src/bin/export_worker.rs`, the HTML report by `export::render_html`, as
//! the CLI's), so that the page's own code carries no table, chart-page or
//! HTML writer.

use super::browser::{download, render_text_export};
use super::evaluation::ask_bundle;
use super::state::AppState;
use crate::eval::report::Report;
use crate::export::{json, ExportOptions, Format, HtmlInclude, TextExport};
use leptos::prelude::*;
use std::sync::Arc;

fn mime(format: Format) -> &'static str {
    match format {
        Format::Json => "application/json",
        Format::Markdown => "text/markdown",
        Format::Latex => "application/x-tex",
        Format::Csv => "text/csv",
        Format::Html => "text/html",
    }
}

#[component]
pub fn ExportPanel(state: AppState, report: Arc<Report>) -> impl IntoView {
    // While the export worker writes a file (one at a time).
    let exporting = RwSignal::new(false);
    // Whether the HTML report embeds the inputs and settings.
    let embed_inputs = RwSignal::new(false);
    let buttons = Format::ALL
        .into_iter()
        .map(|format| {
            let report = report.clone();
            let on_click = move |_| {
                // The report with its document details once they are in.
                // The literature metrics and the bootstrap intervals, once
                // computed, go into the tables and the HTML report (not the
                // JSON: that stays the CLI's default report).
                let mut r = state.details.get_untracked().unwrap_or_else(|| report.clone());
                if matches!(format, Format::Html | Format::Markdown | Format::Latex) {
                    if let Some(lit) = state.literature.get_untracked() {
                        r = Arc::new(super::literature::with_literature(&r, &lit));
                    }
                    if let Some(b) = state.bootstrap.get_untracked() {
                        Arc::make_mut(&mut r).bootstrap = Some((*b).clone());
                    }
                }
                let name = format!("fieldscope-report.{}", format.extension());
                if format == Format::Json {
                    let text = json::render(&r, &ExportOptions::default());
                    if let Err(e) = download(&name, mime(format), text.as_bytes()) {
                        super::evaluation::notify(state, e);
                    }
                    return;
                }
                // The inputs, when asked, exactly as the bundle has them
                // (which the evaluation worker, holding the files, makes).
                // With several schemas, the document types the field matrix
                // groups by: the HTML report's "By document type" table and
                // its per-type sections, as the CLI's report has them.
                let types = state.schemas.get_untracked().and_then(|o| o.types);
                let export = move |inputs: Option<String>| {
                    let request = TextExport::new(format, &r, HtmlInclude { charts: true, inputs, types });
                    let request = match serde_json::to_string(&request) {
                        Ok(json) => json,
                        Err(e) => {
                            super::evaluation::notify(state, format!("the export could not be prepared: {e}"));
                            return;
                        }
                    };
                    exporting.set(true);
                    leptos::task::spawn_local(async move {
                        let exporter = state.helpers.get_value().export;
                        let result = render_text_export(&exporter, &request)
                            .await
                            .and_then(|bytes| download(&name, mime(format), &bytes));
                        exporting.try_set(false);
                        if let Err(e) = result {
                            super::evaluation::notify(state, e);
                        }
                    });
                };
                if format == Format::Html && embed_inputs.get_untracked() {
                    ask_bundle(state, true, move |bundle| match bundle {
                        Ok(bundle) => export(Some(bundle)),
                        Err(e) => super::evaluation::notify(state, format!(
                            "The HTML report was not written: {e}. Export it without the inputs, or export a bundle."
                        )),
                    });
                } else {
                    export(None);
                }
            };
            view! {
                <button type="button" data-testid=format!("export-{}", format.name()) on:click=on_click disabled=move || state.validity_unknown.get() || exporting.get()>
                    {match format {
                        Format::Html => "HTML report (self-contained)".to_string(),
                        Format::Json => "Report (JSON)".to_string(),
                        Format::Markdown => "Tables (Markdown)".to_string(),
                        Format::Latex => "Tables (LaTeX)".to_string(),
                        Format::Csv => "Per-field table (CSV)".to_string(),
                    }}
                </button>
            }
        })
        .collect_view();
    let on_bundle = move |_| {
        ask_bundle(state, false, move |bundle| {
            let done = bundle.and_then(|bundle| {
                download(
                    "fieldscope-bundle.json",
                    "application/json",
                    bundle.as_bytes(),
                )
            });
            if let Err(e) = done {
                super::evaluation::notify(state, e);
            }
        });
    };
    view! {
        <section class="card exports" aria-labelledby="exports-heading">
            <h2 id="exports-heading">"Export"</h2>
            <p class="hint">"Tables for papers (LaTeX with booktabs, best value in bold; Markdown; CSV), the full report as JSON (identical to the command line's), or a bundle of your files and settings that this page re-opens when you drop it. The HTML report is the command line's (`--format html`), with the bootstrap intervals and literature metrics once computed."</p>
            {move || state.validity_unknown.get().then(|| view! {
                <p class="hint">"The report can be exported once every prediction has been checked against the schema (its validity counts in the document-level scores)."</p>
            })}
            <label class="check">
                <input type="checkbox" data-testid="export-embed-inputs"
                    prop:checked=move || embed_inputs.get()
                    on:change=move |ev| embed_inputs.set(event_target_checked(&ev)) />
                " Embed the input files and settings in the HTML report (at most 50 MB): dropped onto this page, it re-opens the evaluation"
            </label>
            <div class="buttons">
                {buttons}
                <button type="button" data-testid="export-bundle" on:click=on_bundle>"Bundle (inputs + settings)"</button>
            </div>
        </section>
    }
}
