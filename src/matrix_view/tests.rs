//! The page's matrix lines and window on a hand-made matrix (every order
//! and number worked out by hand in the comments).
//!
//! Models a (0) and b (1). Shown rows, in the matrix's *what matters*
//! order: S0 `vendor.name` (a: F1 0.5, support 4; b: 1.0, 4), S1
//! `items[].price` (a: 0.0, 10; b: 0.25, 10), S2 `Échéance` (a: 0.8, 5;
//! b has no row), S3 `total` (a: 0.9, 2; b: 0.7, 2). Folded (exact for
//! every model): E0 `date` (a: 1.0, 3; b: 1.0, 3). Groups: `inv` holds
//! S0, S2, S3 and E0; `rec` holds S1.

use super::*;
use crate::eval::groups::Cell;
use crate::eval::report::Counts;

fn c(f1: f64, support: u64) -> Option<Cell> {
    Some(Cell {
        f1,
        support,
        counts: Counts::default(),
        cer: None,
    })
}

fn row(field: &str, cells: Vec<Option<Cell>>) -> MatrixRow {
    MatrixRow {
        field: field.into(),
        cells,
        spread: 0.0,
        importance: 0.0,
    }
}

fn matrix() -> FieldMatrix {
    FieldMatrix {
        models: vec!["a".into(), "b".into()],
        rows: vec![
            row("vendor.name", vec![c(0.5, 4), c(1.0, 4)]),
            row("items[].price", vec![c(0.0, 10), c(0.25, 10)]),
            row("Échéance", vec![c(0.8, 5), None]),
            row("total", vec![c(0.9, 2), c(0.7, 2)]),
        ],
        exact: vec![row("date", vec![c(1.0, 3), c(1.0, 3)])],
    }
}

fn groups() -> Vec<Group> {
    vec![
        Group {
            name: "inv".into(),
            rows: vec![0, 2, 3],
            exact: vec![0],
            documents: Some(2),
        },
        Group {
            name: "rec".into(),
            rows: vec![1],
            exact: vec![],
            documents: Some(1),
        },
    ]
}

use RowId::{Exact as E, Shown as S};

fn rows_of(lines: &[Line], group: usize) -> Vec<RowId> {
    lines
        .iter()
        .filter_map(|l| match l {
            Line::Row { group: g, row } if *g == group => Some(*row),
            _ => None,
        })
        .collect()
}

#[test]
fn search_is_a_case_insensitive_substring_of_the_path() {
    assert!(matches("vendor.name", "VENDOR"));
    assert!(matches("vendor.name", "dor.na"));
    assert!(matches("items[].price", "[].p"));
    // Unicode: É lower-cases to é, so both spellings find the path.
    assert!(matches("Échéance", "éché"));
    assert!(matches("Échéance", "ÉCHÉ"));
    assert!(!matches("Echeance", "éché"));
    assert!(!matches("vendor.name", "total"));
    // A blank query matches everything; the query is trimmed.
    assert!(matches("total", ""));
    assert!(matches("total", "   "));
    assert!(matches("total", " tot "));
}

#[test]
fn default_lines_are_the_groups_in_the_matrix_order_without_the_fold() {
    let m = matrix();
    let lines = lines(&m, &groups(), "", None, false);
    assert_eq!(
        lines,
        vec![
            Line::Group { group: 0, rows: 3 },
            Line::Row {
                group: 0,
                row: S(0)
            },
            Line::Row {
                group: 0,
                row: S(2)
            },
            Line::Row {
                group: 0,
                row: S(3)
            },
            Line::Group { group: 1, rows: 1 },
            Line::Row {
                group: 1,
                row: S(1)
            },
        ]
    );
}

#[test]
fn showing_the_fold_adds_the_exact_rows_after_the_others() {
    let m = matrix();
    let lines = lines(&m, &groups(), "", None, true);
    assert_eq!(lines[0], Line::Group { group: 0, rows: 4 });
    assert_eq!(rows_of(&lines, 0), vec![S(0), S(2), S(3), E(0)]);
    assert_eq!(lines.len(), 7); // 2 headings + 5 rows
}

#[test]
fn the_search_keeps_matching_rows_and_drops_empty_groups() {
    let m = matrix();
    let g = groups();
    assert_eq!(
        lines(&m, &g, "ÉCHÉ", None, false),
        vec![
            Line::Group { group: 0, rows: 1 },
            Line::Row {
                group: 0,
                row: S(2)
            }
        ]
    );
    // "r" is in vendor.name and items[].price only.
    let l = lines(&m, &g, "r", None, true);
    assert_eq!(rows_of(&l, 0), vec![S(0)]);
    assert_eq!(rows_of(&l, 1), vec![S(1)]);
    // "a" is in every inv path (échéance too), not in items[].price: the
    // group rec has no line at all.
    let l = lines(&m, &g, "a", None, true);
    assert_eq!(rows_of(&l, 0), vec![S(0), S(2), S(3), E(0)]);
    assert_eq!(l.len(), 5);
    // "date" only in the fold: hidden while folded.
    assert!(lines(&m, &g, "date", None, false).is_empty());
    assert!(lines(&m, &g, "nothing", None, true).is_empty());
}

#[test]
fn sorting_by_a_models_f1_puts_missing_cells_last_and_keeps_ties_stable() {
    let m = matrix();
    let g = groups();
    // Group inv, model b's F1: S0 1.0, S2 none, S3 0.7, E0 1.0.
    let asc = Sort::click(None, Column::F1(1));
    assert!(!asc.descending);
    let l = lines(&m, &g, "", Some(asc), true);
    assert_eq!(rows_of(&l, 0), vec![S(3), S(0), E(0), S(2)]);
    let desc = Sort::click(Some(asc), Column::F1(1));
    assert!(desc.descending);
    let l = lines(&m, &g, "", Some(desc), true);
    assert_eq!(rows_of(&l, 0), vec![S(0), E(0), S(3), S(2)]);
}

#[test]
fn sorting_by_support_and_by_path() {
    let m = matrix();
    let g = groups();
    // Model a's support in inv: S0 4, S2 5, S3 2, E0 3 → descending 5, 4, 3, 2.
    let s = Sort {
        column: Column::Support(0),
        descending: true,
    };
    assert_eq!(
        rows_of(&lines(&m, &g, "", Some(s), true), 0),
        vec![S(2), S(0), E(0), S(3)]
    );
    // Paths by code point: "date" < "total" < "vendor.name" < "Échéance"
    // (É is U+00C9, after every ASCII letter).
    let s = Sort::click(Some(s), Column::Field);
    assert_eq!(
        s,
        Sort {
            column: Column::Field,
            descending: false
        }
    );
    assert_eq!(
        rows_of(&lines(&m, &g, "", Some(s), true), 0),
        vec![E(0), S(3), S(0), S(2)]
    );
}

#[test]
fn an_empty_matrix_has_no_lines() {
    let m = FieldMatrix::default();
    assert!(lines(&m, &[], "", None, true).is_empty());
    let g = vec![Group {
        name: "inv".into(),
        rows: vec![],
        exact: vec![],
        documents: Some(0),
    }];
    assert!(lines(&m, &g, "x", None, true).is_empty());
}

#[test]
fn the_window_is_the_visible_lines_and_a_margin() {
    // 10,000 lines of 28 px, scrolled 2,800 px into a 560 px box: lines
    // 2800/28 = 100 to ⌈3360/28⌉ = 120 visible, 5 more either side.
    assert_eq!(window(10_000, 28.0, 2800.0, 560.0, 5), (95, 125));
    // At the top: 0 to 560/28 = 20, plus 5 below.
    assert_eq!(window(10_000, 28.0, 0.0, 560.0, 5), (0, 25));
    // At the bottom: 9980 × 28 = 279,440 px; 9980 to 10,000 (clamped).
    assert_eq!(window(10_000, 28.0, 279_440.0, 560.0, 5), (9975, 10_000));
    // Partial lines: ⌊30/28⌋ = 1 to ⌈130/28 = 4.64⌉ = 5.
    assert_eq!(window(100, 28.0, 30.0, 100.0, 0), (1, 5));
    // Fewer lines than the box holds: all of them.
    assert_eq!(window(3, 28.0, 0.0, 560.0, 5), (0, 3));
    // A negative offset (elastic scrolling) is the top.
    assert_eq!(window(100, 28.0, -40.0, 56.0, 0), (0, 2));
    // Nothing to draw: no lines, or no row height.
    assert_eq!(window(0, 28.0, 0.0, 560.0, 5), (0, 0));
    assert_eq!(window(100, 0.0, 0.0, 560.0, 5), (0, 0));
    assert_eq!(window(100, f64::NAN, 0.0, 560.0, 5), (0, 0));
}
