//! The report's field matrix for wide benchmarks (issue 34 item 4): with
//! several schemas the "By document type" table, then one row per field
//! with each model's F1 and support, grouped like the HTML report (by
//! document type, or by the path's first segment), the rows exact for
//! every model folded behind a button, a search box over the paths,
//! sorting by any column, and only the rows in view (and a margin) drawn:
//! spacer rows keep the scroll height, so 10,000 fields stay smooth. A
//! click on a row shows that field's per-model counts and CER below.
//!
//! Owns only the drawing: every figure and order comes from
//! `eval::groups` (the matrix, the groups, the by-type table), the search,
//! the sorts and the window from `crate::matrix_view` (pure, tested
//! natively). The document types come with the file list
//! (`protocol::SchemaOverview::types`, read in the evaluation worker).
//! Depends on `super::format`, `super::browser` (the clock) and the
//! page's `schemas` signal (given, not its parent's `AppState`).

use super::format::{full, opt_ratio, ratio, shown};
use crate::eval::groups::{self, MatrixRow};
use crate::eval::report::Report;
use crate::matrix_view::{self, Column, Line, RowId, Sort};
use crate::protocol::SchemaOverview;
use leptos::prelude::*;
use std::sync::Arc;

/// Every line's height in pixels (`style/matrix.css` fixes it).
const ROW_HEIGHT: f64 = 28.0;
/// The scrolling box's height in pixels (`style/matrix.css`).
const VIEWPORT: f64 = 560.0;
/// Lines drawn beyond the visible ones on either side.
const MARGIN: usize = 12;

#[component]
pub fn FieldMatrixCard(
    schemas: RwSignal<Option<SchemaOverview>>,
    report: Arc<Report>,
) -> impl IntoView {
    let started = super::browser::now();
    let matrix = Arc::new(groups::field_matrix(&report));
    let types = Memo::new(move |_| schemas.get().and_then(|o| o.types));
    let m = Arc::clone(&matrix);
    let groups = Memo::new(move |_| types.with(|t| groups::groups(&m, t.as_ref())));
    let query = RwSignal::new(String::new());
    let sort = RwSignal::new(None::<Sort>);
    let show_exact = RwSignal::new(false);
    let scroll = RwSignal::new(0.0f64);
    let selected = RwSignal::new(None::<RowId>);
    let scroller = NodeRef::<leptos::html::Div>::new();
    // A new search starts at the top of the box.
    let to_top = move || {
        if let Some(el) = scroller.get_untracked() {
            el.set_scroll_top(0);
        }
        scroll.set(0.0);
    };
    let m = Arc::clone(&matrix);
    let lines = Memo::new(move |_| {
        groups.with(|g| matrix_view::lines(&m, g, &query.get(), sort.get(), show_exact.get()))
    });
    // The matrix, its groups and the first lines, timed (`data-build-ms`).
    lines.with_untracked(|_| ());
    let build_ms = (super::browser::now() - started).round();
    let models = matrix.models.clone();
    let n_models = models.len();
    let exact = matrix.exact.len();
    let fields = matrix.rows.len() + exact;

    let header = move |column: Column, text: String, title: String, testid: String| {
        view! {
            <th scope="col" title=title aria-sort=move || match sort.get() {
                Some(s) if s.column == column => if s.descending { "descending" } else { "ascending" },
                _ => "none",
            }>
                <button type="button" class="sort" data-testid=testid
                    on:click=move |_| sort.update(|s| *s = Some(Sort::click(*s, column)))>{text}</button>
            </th>
        }
    };
    let heads = models
        .iter()
        .enumerate()
        .map(|(i, name)| {
            view! {
                {header(Column::F1(i), format!("F1 {}", shown(name)), format!("{}: strict F1 of the field", shown(name)), format!("matrix-sort-f1-{i}"))}
                {header(Column::Support(i), "Sup.".to_string(), format!("{}: support, truth values present (exact + partial + incorrect + missed)", shown(name)), format!("matrix-sort-support-{i}"))}
            }
        })
        .collect_view();

    let m = Arc::clone(&matrix);
    let body = move || {
        let lines = lines.get();
        let (start, end) =
            matrix_view::window(lines.len(), ROW_HEIGHT, scroll.get(), VIEWPORT, MARGIN);
        let top = start as f64 * ROW_HEIGHT;
        let bottom = (lines.len() - end) as f64 * ROW_HEIGHT;
        let g = groups.get();
        let span = (1 + 2 * n_models).to_string();
        let drawn = lines[start..end]
            .iter()
            .map(|line| match *line {
                Line::Group { group, rows } => {
                    let gr = &g[group];
                    let docs = gr.documents.map(|d| format!(" · {d} document{}", if d == 1 { "" } else { "s" })).unwrap_or_default();
                    view! {
                        <tr class="group-line" data-group=gr.name.clone()>
                            <th scope="rowgroup" colspan=(1 + 2 * n_models).to_string()>
                                {format!("{}{docs} · {rows} field{}", shown(&gr.name), if rows == 1 { "" } else { "s" })}
                            </th>
                        </tr>
                    }
                    .into_any()
                }
                Line::Row { row, .. } => matrix_row(row.of(&m), row, selected).into_any(),
            })
            .collect_view();
        view! {
            <tr class="spacer" aria-hidden="true"><td colspan=span.clone() style:height=format!("{top}px")></td></tr>
            {drawn}
            <tr class="spacer" aria-hidden="true"><td colspan=span style:height=format!("{bottom}px")></td></tr>
        }
    };
    let shown_rows = move || {
        lines.with(|l| {
            let mut seen = std::collections::HashSet::new();
            l.iter()
                .filter_map(|x| match x {
                    Line::Row { row, .. } => Some(*row),
                    _ => None,
                })
                .filter(|r| seen.insert(*r))
                .count()
        })
    };
    let m = Arc::clone(&matrix);
    let detail = move || {
        selected
            .get()
            .map(|row| view! { <RowDetail row=row.of(&m).clone() models=m.models.clone() /> })
    };
    let by_type = {
        let report = Arc::clone(&report);
        move || types.with(|t| by_type_table(&report, t.as_ref()))
    };

    view! {
        <section class="card field-matrix" aria-labelledby="matrix-heading" data-testid="field-matrix" data-build-ms=build_ms data-fields=fields>
            <div class="card-head">
                <h2 id="matrix-heading">"Field matrix"</h2>
                <label class="inline"><span>"Search fields"</span>
                    <input type="search" data-testid="matrix-search" placeholder="path, e.g. vendor."
                        prop:value=move || query.get()
                        on:input=move |ev| { query.set(event_target_value(&ev)); to_top(); } />
                </label>
            </div>
            {by_type}
            <p class="hint">
                "One row per field: each model's strict F1 and its support (truth values present). Grouped by document type (with several schemas) or by the path's first segment; within a group the fields that matter first — where the models disagree most, or even the best falls short (importance = max(spread, 1 − best F1)). Click a header to sort, a field for its counts and CER."
            </p>
            <p class="matrix-status" data-testid="matrix-status">
                {move || format!("{} of {fields} field{} shown", shown_rows(), if fields == 1 { "" } else { "s" })}
                {(exact > 0).then(|| view! {
                    " · "
                    <span data-testid="matrix-exact">{format!("{exact} field{} exact for every model", if exact == 1 { " is" } else { "s are" })}</span>
                    " "
                    <button type="button" class="link" data-testid="matrix-show-exact" aria-pressed=move || show_exact.get().to_string()
                        on:click=move |_| show_exact.update(|s| *s = !*s)>
                        {move || if show_exact.get() { "fold them" } else { "show them" }}
                    </button>
                })}
                {move || sort.get().is_some().then(|| view! {
                    " · "
                    <button type="button" class="link" data-testid="matrix-sort-default" on:click=move |_| sort.set(None)>"what matters first"</button>
                })}
            </p>
            <div class="matrix-scroll" data-testid="matrix-scroll" node_ref=scroller
                on:scroll=move |ev| scroll.set(event_target::<web_sys::Element>(&ev).scroll_top() as f64)>
                <table class="data numeric matrix" data-testid="matrix-table" data-models=n_models>
                    <colgroup>
                        <col class="field-col" />
                        {(0..2 * n_models).map(|_| view! { <col /> }).collect_view()}
                    </colgroup>
                    <thead><tr>
                        {header(Column::Field, "Field".to_string(), "The field's path".to_string(), "matrix-sort-field".to_string())}
                        {heads}
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            {detail}
        </section>
    }
}

/// One field's line: each model's F1 (the best in bold) and support.
fn matrix_row(r: &MatrixRow, id: RowId, selected: RwSignal<Option<RowId>>) -> impl IntoView {
    let best = r.best();
    let cells = r
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| match c {
            Some(c) => view! {
                <td class="num" class:best=best.len() < r.cells.len() && best.contains(&i) data-metric="f1" data-model-index=i data-value=full(Some(c.f1))>{ratio(c.f1)}</td>
                <td class="num" data-metric="support" data-model-index=i>{c.support}</td>
            }
            .into_any(),
            None => view! {
                <td class="num" data-metric="f1" data-model-index=i data-value="null">"—"</td>
                <td class="num" data-metric="support" data-model-index=i>"—"</td>
            }
            .into_any(),
        })
        .collect_view();
    let path = shown(&r.field);
    let title = path.clone();
    view! {
        <tr class="field-line" data-field=r.field.clone() class:selected=move || selected.get() == Some(id)>
            <th scope="row">
                <button type="button" class="link" title=title on:click=move |_| selected.update(|s| *s = if *s == Some(id) { None } else { Some(id) })>
                    <code>{path}</code>
                </button>
            </th>
            {cells}
        </tr>
    }
}

/// The selected field's counts and CER per model.
#[component]
fn RowDetail(row: MatrixRow, models: Vec<String>) -> impl IntoView {
    let lines = models
        .iter()
        .zip(&row.cells)
        .map(|(name, c)| match c {
            Some(c) => view! {
                <tr data-model=name.clone()>
                    <th scope="row">{shown(name)}</th>
                    <td class="num">{c.counts.exact}</td><td class="num">{c.counts.partial}</td><td class="num">{c.counts.incorrect}</td>
                    <td class="num">{c.counts.missed}</td><td class="num">{c.counts.spurious}</td><td class="num">{c.counts.true_negative}</td>
                    <td class="num" data-metric="f1" data-value=full(Some(c.f1))>{ratio(c.f1)}</td>
                    <td class="num" data-metric="cer" data-value=full(c.cer)>{opt_ratio(c.cer)}</td>
                </tr>
            }
            .into_any(),
            None => view! {
                <tr data-model=name.clone()><th scope="row">{shown(name)}</th><td colspan="8">"no row for this field"</td></tr>
            }
            .into_any(),
        })
        .collect_view();
    view! {
        <table class="data numeric matrix-detail" data-testid="matrix-detail" data-field=row.field.clone()>
            <caption>{format!("{} — counts pooled over documents per model; CER pooled (Σ edits / Σ truth characters).", shown(&row.field))}</caption>
            <thead><tr>
                <th scope="col">"Model"</th><th scope="col">"Exact"</th><th scope="col">"Partial"</th><th scope="col">"Incorrect"</th>
                <th scope="col">"Missed"</th><th scope="col">"Spurious"</th><th scope="col">"TN"</th><th scope="col">"F1"</th><th scope="col">"CER"</th>
            </tr></thead>
            <tbody>{lines}</tbody>
        </table>
    }
}

/// The "By document type" table (`eval::groups::type_table`): nothing
/// without several schemas.
fn by_type_table(report: &Report, types: Option<&groups::DocTypes>) -> Option<AnyView> {
    let rows = groups::type_table(report, types);
    if rows.is_empty() {
        return None;
    }
    let heads = report
        .models
        .iter()
        .map(|m| view! { <th scope="col">{format!("F1 {}", shown(&m.name))}</th> })
        .collect_view();
    let body = rows
        .into_iter()
        .map(|r| {
            let cells = r
                .scores
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let f1 = s.map(|s| s.f1);
                    view! { <td class="num" class:best=r.best.contains(&i) data-value=full(f1)>{opt_ratio(f1)}</td> }
                })
                .collect_view();
            view! {
                <tr data-type=r.name.clone()><th scope="row">{shown(&r.name)}</th><td class="num">{r.documents}</td>{cells}</tr>
            }
        })
        .collect_view();
    Some(
        view! {
            <details class="by-type" data-testid="by-type" open>
                <summary>"By document type"</summary>
                <div class="scroll">
                    <table class="data numeric" data-testid="by-type-table">
                        <caption>"One row per document type (schema): its documents and each model's micro F1 over its own fields (the report's _schema slices when evaluated with them). Bold: the row's best."</caption>
                        <thead><tr><th scope="col">"Type"</th><th scope="col">"Documents"</th>{heads}</tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
            </details>
        }
        .into_any(),
    )
}
