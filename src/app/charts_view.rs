//! The charts (SVG from `crate::charts`), each with its caption and SVG /
//! PNG / PDF downloads sized for a paper ([`figure`], also used by the
//! sweep panel). The PDF is made by the export worker
//! (`src/bin/export_worker.rs`), loaded only when an export is asked for.

use super::browser::{download, download_svg_as_png, svg_to_pdf};
use super::state::AppState;
use crate::charts::{self, Average, Chart, ChartOptions, PaperSize};
use crate::eval::report::Report;
use crate::export::page::with_weakest_fields;
use crate::report_state::AverageView;
use leptos::prelude::*;
use std::sync::Arc;

/// The chart options for the page's current average and paper size.
pub fn chart_options(average: AverageView, size: PaperSize) -> ChartOptions {
    ChartOptions {
        average: match average {
            AverageView::Micro => Average::Micro,
            AverageView::MacroDocuments => Average::MacroDocuments,
            AverageView::MacroFields => Average::MacroFields,
        },
        size,
        ..ChartOptions::default()
    }
}

/// The paper-size switch of a chart panel: single column (3.3 in) or full
/// width (7 in), as radio buttons.
#[component]
pub fn PaperSizeToggle(size: RwSignal<PaperSize>) -> impl IntoView {
    let button = move |value: PaperSize, label: &'static str| {
        view! {
            <button type="button" role="radio" class:selected=move || size.get() == value
                aria-checked=move || (size.get() == value).to_string()
                on:click=move |_| size.set(value)>{label}</button>
        }
    };
    view! {
        <div class="segmented" role="radiogroup" aria-label="Paper size">
            {button(PaperSize::SingleColumn, "Single column (3.3 in)")}
            {button(PaperSize::FullWidth, "Full width (7 in)")}
        </div>
    }
}

/// A flag set in a task of its own once the tables have been painted:
/// charts drawn when it is set are neither part of a new report's drawing
/// task nor of its first layout (a zero-delay timer alone could run before
/// that paint: issue 34's invoice drop).
pub fn after_the_tables() -> RwSignal<bool> {
    let drawn = RwSignal::new(false);
    super::browser::after_next_paint(move || {
        drawn.try_set(true);
    });
    drawn
}

#[component]
pub fn ChartsView(state: AppState, report: Arc<Report>) -> impl IntoView {
    let size = RwSignal::new(PaperSize::FullWidth);
    let drawn = after_the_tables();
    let charts = move || {
        if !drawn.get() {
            return None;
        }
        let options = chart_options(state.average.get(), size.get());
        // With bootstrap intervals computed, the score chart has error bars.
        let with_intervals = state.bootstrap.get().map(|b| {
            let mut r = (*report).clone();
            r.bootstrap = Some((*b).clone());
            r
        });
        // A wide report's heatmap is its weakest fields' (issue 34).
        let charts = with_weakest_fields(
            with_intervals.as_ref().unwrap_or(&report),
            &options,
            charts::all,
        )
        .into_iter()
        .map(|chart| figure(state, chart))
        .collect_view();
        Some(charts)
    };
    view! {
        <section class="card charts" data-testid="charts" aria-labelledby="charts-heading">
            <div class="card-head">
                <h2 id="charts-heading">"Charts"</h2>
                <PaperSizeToggle size=size />
            </div>
            <p class="hint">"The score chart follows the average chosen above. Colours are the Okabe–Ito colour-blind-safe palette and stay distinguishable in greyscale."</p>
            <div class="chart-grid">{charts}</div>
        </section>
    }
}

/// One chart: the SVG, its caption, and its downloads (SVG; PNG at 300
/// dpi; PDF with embedded fonts, converted by the export worker).
pub fn figure(state: AppState, chart: Chart) -> impl IntoView {
    let key = chart.id.to_string();
    figure_as(state, chart, key)
}

/// [`figure`] under `key` instead of the chart's id (in its file names and
/// `data-testid`s): a chart drawn once per model, such as
/// `reliability_diagram_2` (the name `fieldscope figures` gives it).
pub fn figure_as(state: AppState, chart: Chart, key: String) -> impl IntoView {
    let svg_name = format!("fieldscope-{key}.svg");
    let png_name = format!("fieldscope-{key}.png");
    let pdf_name = format!("fieldscope-{key}.pdf");
    let svg_for_download = chart.svg.clone();
    let svg_for_png = chart.svg.clone();
    let svg_for_pdf = chart.svg.clone();
    let (w, h) = (chart.width_px, chart.height_px);
    let converting = RwSignal::new(false);
    let pdf = move |_| {
        converting.set(true);
        let svg = svg_for_pdf.clone();
        let name = pdf_name.clone();
        leptos::task::spawn_local(async move {
            let exporter = state.helpers.get_value().export;
            let result = svg_to_pdf(&exporter, &svg)
                .await
                .and_then(|bytes| download(&name, "application/pdf", &bytes));
            if let Err(e) = result {
                super::evaluation::notify(state, format!("{name}: {e}"));
            }
            converting.set(false);
        });
    };
    view! {
        <figure data-testid=format!("chart-{key}")>
            <div class="svg" inner_html=chart.svg.clone()></div>
            <figcaption>{chart.caption.clone()}</figcaption>
            <div class="chart-actions">
                <button type="button" data-testid=format!("svg-{key}") on:click=move |_| {
                    if let Err(e) = download(&svg_name, "image/svg+xml", svg_for_download.as_bytes()) {
                        super::evaluation::notify(state, e);
                    }
                }>"SVG"</button>
                <button type="button" data-testid=format!("png-{key}") on:click=move |_| {
                    if let Err(e) = download_svg_as_png(&png_name, &svg_for_png, w, h, 300.0 / 96.0) {
                        super::evaluation::notify(state, e);
                    }
                }>"PNG (300 dpi)"</button>
                <button type="button" data-testid=format!("pdf-{key}") on:click=pdf disabled=move || converting.get()>
                    {move || if converting.get() { "PDF …" } else { "PDF" }}
                </button>
            </div>
        </figure>
    }
}
