//! The app's field matrix as the page lays it out (issue 34 item 4): the
//! lines of the matrix after the search box and the sort, grouped like the
//! HTML report, and the window of lines the page draws for a scroll offset.
//!
//! Owns:
//! * [`matches`] — the search over field paths: case-insensitive
//!   (Unicode lower case), a substring of the path; an empty (or blank)
//!   query matches every path.
//! * [`Sort`] / [`Column`] — sorting by any column (the path, a model's
//!   F1, a model's support); no sort is `eval::groups`' *what matters
//!   first* order.
//! * [`lines`] — the flat list the page scrolls through: each group of
//!   `eval::groups::groups` as a heading line, then its matching rows;
//!   the rows exact for every model only when shown (the fold), after the
//!   others in the default order.
//! * [`window`] — which lines are in the page for a scroll offset (the
//!   visible ones and a margin; spacers stand for the rest), so that
//!   10,000 fields stay smooth.
//!
//! Pure: depends on `eval::groups` only; no web types, tested natively.

use crate::eval::groups::{FieldMatrix, Group, MatrixRow};
use std::cmp::Ordering;

/// A sortable column of the matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// The field's path (by code points).
    Field,
    /// A model's F1 (the model's index in the report).
    F1(usize),
    /// A model's support: truth values present, COR + PAR + INC + MIS.
    Support(usize),
}

/// A sort of the matrix's rows within each group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort {
    pub column: Column,
    pub descending: bool,
}

impl Sort {
    /// The sort after a click on `column`'s header: the same column turns
    /// its direction; another one sorts ascending (the lowest F1, the
    /// smallest support, A before Z first).
    pub fn click(current: Option<Sort>, column: Column) -> Sort {
        match current {
            Some(s) if s.column == column => Sort {
                column,
                descending: !s.descending,
            },
            _ => Sort {
                column,
                descending: false,
            },
        }
    }
}

/// A row of the matrix: a shown row (index into `FieldMatrix::rows`) or a
/// folded one (index into `FieldMatrix::exact`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowId {
    Shown(usize),
    Exact(usize),
}

impl RowId {
    pub fn of(self, matrix: &FieldMatrix) -> &MatrixRow {
        match self {
            RowId::Shown(i) => &matrix.rows[i],
            RowId::Exact(i) => &matrix.exact[i],
        }
    }
}

/// One line of the page's matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// A group's heading: the group's index and its matching rows' number.
    Group { group: usize, rows: usize },
    /// A field's row in group `group`.
    Row { group: usize, row: RowId },
}

/// Whether `field` matches the search `query`: the query, trimmed and in
/// lower case, is a substring of the path in lower case (Unicode's
/// `to_lowercase`, so `É` finds `é`); a blank query matches everything.
pub fn matches(field: &str, query: &str) -> bool {
    let q = query.trim();
    q.is_empty() || field.to_lowercase().contains(&q.to_lowercase())
}

/// The order of two rows under `column`, ascending. A model's F1 or
/// support compares the model's cell; a row the model has no cell for is
/// not ordered here ([`sort_rows`] puts it last either way).
fn compare(a: &MatrixRow, b: &MatrixRow, column: Column) -> Ordering {
    match column {
        Column::Field => a.field.cmp(&b.field),
        Column::F1(m) => cell(a, m)
            .map(|c| c.f1)
            .zip(cell(b, m).map(|c| c.f1))
            .map_or(Ordering::Equal, |(x, y)| x.total_cmp(&y)),
        Column::Support(m) => cell(a, m)
            .map(|c| c.support)
            .zip(cell(b, m).map(|c| c.support))
            .map_or(Ordering::Equal, |(x, y)| x.cmp(&y)),
    }
}

fn cell(row: &MatrixRow, m: usize) -> Option<&crate::eval::groups::Cell> {
    row.cells.get(m).and_then(Option::as_ref)
}

/// Sorts `ids` (given in the default order) by `sort`; ties keep the
/// default order (a stable sort), and rows without the sorted model's
/// cell come last in both directions.
pub fn sort_rows(matrix: &FieldMatrix, ids: &mut [RowId], sort: Sort) {
    let missing = |id: &RowId| match sort.column {
        Column::Field => false,
        Column::F1(m) | Column::Support(m) => cell(id.of(matrix), m).is_none(),
    };
    ids.sort_by(|a, b| {
        missing(a).cmp(&missing(b)).then_with(|| {
            let o = compare(a.of(matrix), b.of(matrix), sort.column);
            if sort.descending {
                o.reverse()
            } else {
                o
            }
        })
    });
}

/// The page's lines: for each group (in `groups`' order) with at least
/// one row matching `query`, its heading then its matching rows — the
/// shown ones in the matrix's order, then (with `show_exact`) the folded
/// ones by path — sorted by `sort` within the group when given.
pub fn lines(
    matrix: &FieldMatrix,
    groups: &[Group],
    query: &str,
    sort: Option<Sort>,
    show_exact: bool,
) -> Vec<Line> {
    let mut out = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let exact: &[usize] = if show_exact { &group.exact } else { &[] };
        let mut ids: Vec<RowId> = group
            .rows
            .iter()
            .map(|&i| RowId::Shown(i))
            .chain(exact.iter().map(|&i| RowId::Exact(i)))
            .filter(|id| matches(&id.of(matrix).field, query))
            .collect();
        if ids.is_empty() {
            continue;
        }
        if let Some(sort) = sort {
            sort_rows(matrix, &mut ids, sort);
        }
        out.push(Line::Group {
            group: g,
            rows: ids.len(),
        });
        out.extend(ids.into_iter().map(|row| Line::Row { group: g, row }));
    }
    out
}

/// The lines in the page: `[start, end)` of `total` lines of `row_height`
/// pixels each, scrolled `scroll_top` pixels into a box `viewport` pixels
/// high, with `margin` lines more on either side. The first visible line
/// is `⌊scroll_top / row_height⌋`, the last one before
/// `⌈(scroll_top + viewport) / row_height⌉`; both are clamped to
/// `[0, total]`. A non-positive row height draws nothing.
pub fn window(
    total: usize,
    row_height: f64,
    scroll_top: f64,
    viewport: f64,
    margin: usize,
) -> (usize, usize) {
    if row_height.is_nan() || row_height <= 0.0 || total == 0 {
        return (0, 0);
    }
    let top = scroll_top.max(0.0);
    let first = ((top / row_height).floor() as usize).min(total);
    let last = (((top + viewport.max(0.0)) / row_height).ceil() as usize).min(total);
    (first.saturating_sub(margin), (last + margin).min(total))
}

#[cfg(test)]
mod tests;
