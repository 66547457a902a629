//! Take it away: the report as JSON (the same document the CLI prints),
//! Markdown, LaTeX and CSV tables, the self-contained HTML report, and a
//! bundle of inputs + settings that re-opens to the same view. The
//! literature metrics, once computed, are in the HTML, Markdown and LaTeX.
//! The JSON is written here; the other formats by the export worker
//! (`crate::export::TextExport`, `src/bin/export_worker.rs`), so that the
//! page's own code carries no table or HTML writer.

use super::browser::{download, render_text_export};
use super::charts_view::chart_options;
use super::AppState;
use crate::charts::{all, PaperSize};
use crate::eval::report::Report;
use crate::export::{json, ExportOptions, Format, HtmlChart, TextExport};
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
    let buttons = Format::ALL
        .into_iter()
        .map(|format| {
            let report = report.clone();
            let on_click = move |_| {
                // The literature metrics, once computed, go into the tables
                // and the HTML report (not the JSON: that stays the CLI's
                // default report).
                let r = match (format, state.literature.get_untracked()) {
                    (Format::Html | Format::Markdown | Format::Latex, Some(lit)) => {
                        Arc::new(super::literature::with_literature(&report, &lit))
                    }
                    _ => report.clone(),
                };
                let name = format!("fieldscope-report.{}", format.extension());
                if format == Format::Json {
                    let text = json::render(&r, &ExportOptions::default());
                    if let Err(e) = download(&name, mime(format), text.as_bytes()) {
                        state.notice.set(Some(e));
                    }
                    return;
                }
                let charts: Vec<HtmlChart> = if format == Format::Html {
                    let options = chart_options(state.average.get_untracked(), PaperSize::FullWidth);
                    all(&r, &options)
                        .into_iter()
                        .map(|c| HtmlChart { title: c.title, caption: c.caption, svg: c.svg })
                        .collect()
                } else {
                    Vec::new()
                };
                let mut report = (*r).clone();
                for m in &mut report.models {
                    m.document_details = None;
                }
                let request = TextExport { format: format.name().to_string(), report, charts };
                let request = match serde_json::to_string(&request) {
                    Ok(json) => json,
                    Err(e) => {
                        state.notice.set(Some(format!("the export could not be prepared: {e}")));
                        return;
                    }
                };
                exporting.set(true);
                leptos::task::spawn_local(async move {
                    let result = render_text_export(&request)
                        .await
                        .and_then(|bytes| download(&name, mime(format), &bytes));
                    exporting.try_set(false);
                    if let Err(e) = result {
                        state.notice.try_set(Some(e));
                    }
                });
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
        let bundle = state.session.with(|s| s.to_bundle());
        if let Err(e) = download(
            "fieldscope-bundle.json",
            "application/json",
            bundle.as_bytes(),
        ) {
            state.notice.set(Some(e));
        }
    };
    view! {
        <section class="card exports" aria-labelledby="exports-heading">
            <h2 id="exports-heading">"Export"</h2>
            <p class="hint">"Tables for papers (LaTeX with booktabs, best value in bold; Markdown; CSV), the full report as JSON (identical to the command line's), or a bundle of your files and settings that this page re-opens when you drop it."</p>
            {move || state.validity_unknown.get().then(|| view! {
                <p class="hint">"The report can be exported once every prediction has been checked against the schema (its validity counts in the document-level scores)."</p>
            })}
            <div class="buttons">
                {buttons}
                <button type="button" data-testid="export-bundle" on:click=on_bundle>"Bundle (inputs + settings)"</button>
            </div>
        </section>
    }
}
