//! The charts (SVG from `crate::charts`), each with its caption and SVG /
//! PNG downloads.

use super::{AppState, AverageView};
use crate::eval::report::Report;
use leptos::prelude::*;

#[component]
pub fn ChartsView(state: AppState, report: std::sync::Arc<Report>) -> impl IntoView {
    let _ = (state, AverageView::Micro, report);
    view! { <section class="card charts" data-testid="charts"></section> }
}
