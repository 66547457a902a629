//! The field matrix, the groups and the by-type table on a hand-made
//! dataset with three schemas (every figure worked out by hand below).
//!
//! Truth: invoices i1 (total 10, vendor ACME) and i2 (total 20, vendor
//! Beta), receipt r1 (amount 5, store Shop), tax form t1 (year 2020, payer
//! Ann); every schema also names `doc_type`, its selector.
//! Model A: all right but i2's vendor "Zzzzz" (incorrect: similarity 0)
//! and t1's payer NOT_FOUND (missed). Model B: all right but i1's total 11
//! (incorrect), r1's store NOT_FOUND and t1's payer NOT_FOUND (missed).

use super::*;
use crate::eval::config::Config;
use crate::eval::model::{Record, RecordFile};
use crate::eval::{evaluate, EvalInput, ModelInput, NamedSchema};
use serde_json::{json, Value};

fn file(name: &str, rows: Vec<Value>) -> RecordFile {
    RecordFile {
        name: name.into(),
        records: rows
            .into_iter()
            .enumerate()
            .map(|(i, v)| Record::new(i, v.as_object().cloned().unwrap()))
            .collect(),
    }
}

fn truth() -> Vec<Value> {
    vec![
        json!({"id": "i1", "doc_type": "inv", "total": 10, "vendor": "ACME"}),
        json!({"id": "i2", "doc_type": "inv", "total": 20, "vendor": "Beta"}),
        json!({"id": "r1", "doc_type": "rec", "amount": 5, "store": "Shop"}),
        json!({"id": "t1", "doc_type": "tax", "year": 2020, "payer": "Ann"}),
    ]
}

fn with(rows: &[Value], changes: &[(&str, &str, Value)]) -> Vec<Value> {
    let mut rows = rows.to_vec();
    for (id, key, value) in changes {
        let row = rows.iter_mut().find(|r| r["id"] == *id).unwrap();
        row[*key] = value.clone();
    }
    rows
}

fn schema(fields: &[(&str, &str)]) -> Value {
    let mut props = serde_json::Map::new();
    props.insert("doc_type".into(), json!({"type": "string"}));
    for (k, t) in fields {
        props.insert((*k).into(), json!({ "type": t }));
    }
    json!({"type": "object", "properties": props})
}

fn schemas() -> Vec<NamedSchema> {
    vec![
        NamedSchema::new("inv", schema(&[("total", "number"), ("vendor", "string")])),
        NamedSchema::new("rec", schema(&[("amount", "number"), ("store", "string")])),
        NamedSchema::new("tax", schema(&[("year", "integer"), ("payer", "string")])),
    ]
}

fn report(slice_by: &[&str]) -> Report {
    let t = truth();
    let a = with(
        &t,
        &[
            ("i2", "vendor", json!("Zzzzz")),
            ("t1", "payer", json!("NOT_FOUND")),
        ],
    );
    let b = with(
        &t,
        &[
            ("i1", "total", json!(11)),
            ("r1", "store", json!("NOT_FOUND")),
            ("t1", "payer", json!("NOT_FOUND")),
        ],
    );
    let input = EvalInput {
        truth: file("truth", t),
        models: vec![
            ModelInput::new("A".to_string(), file("a", a)),
            ModelInput::new("B".to_string(), file("b", b)),
        ],
        schema: None,
        schemas: schemas(),
    };
    let config =
        Config::from_json(&json!({"schema_by": "doc_type", "slice_by": slice_by})).unwrap();
    evaluate(&input, &config, false).unwrap()
}

fn types() -> DocTypes {
    let named: Vec<NamedSchema> = schemas();
    // i1, i2 → inv (0); r1 → rec (1); t1 → tax (2).
    DocTypes::of(&named, &[Some(0), Some(0), Some(1), Some(2)])
}

type GroupView<'a> = (&'a str, Vec<usize>, Vec<usize>, Option<usize>);

fn f1s(row: &MatrixRow) -> Vec<Option<f64>> {
    row.cells.iter().map(|c| c.map(|c| c.f1)).collect()
}

#[test]
fn the_types_name_their_schemas_fields_and_documents() {
    let t = types();
    let names: Vec<(&str, usize, Vec<&str>)> = t
        .types
        .iter()
        .map(|t| {
            (
                t.name.as_str(),
                t.documents,
                t.fields.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        names,
        vec![
            ("inv", 2, vec!["doc_type", "total", "vendor"]),
            ("rec", 1, vec!["doc_type", "amount", "store"]),
            ("tax", 1, vec!["doc_type", "year", "payer"]),
        ]
    );
}

#[test]
fn rows_exact_for_every_model_are_folded_and_the_rest_ordered_by_what_matters() {
    let m = field_matrix(&report(&[]));
    assert_eq!(m.models, vec!["A", "B"]);
    // Exact for both: doc_type (4 + 4 exact), amount (1 + 1), year (1 + 1).
    let exact: Vec<&str> = m.exact.iter().map(|r| r.field.as_str()).collect();
    assert_eq!(exact, vec!["amount", "doc_type", "year"]);
    // F1 (incorrect = FP and FN, zero_division 0):
    // payer: A, B missed (TP 0, FN 1) → 0, 0: spread 0, 1 − max = 1 → i = 1.
    // store: A exact → 1; B missed → 0: spread 1 → i = 1.
    // total: A 2 exact → 1; B 1 exact + 1 incorrect: P = R = 1/2 → 0.5;
    //        spread 0.5, 1 − max = 0 → i = 0.5.
    // vendor: A 0.5, B 1 → i = 0.5.
    // Ties on i: by mean F1, payer (0 + 0)/2 = 0 before store (1 + 0)/2 =
    // 0.5; total (1 + 0.5)/2 = vendor (0.5 + 1)/2 = 0.75 tie, and so does
    // their support (2 + 2 each): by path.
    let rows: Vec<(&str, Vec<Option<f64>>, f64, f64)> = m
        .rows
        .iter()
        .map(|r| (r.field.as_str(), f1s(r), r.spread, r.importance))
        .collect();
    assert_eq!(
        rows,
        vec![
            ("payer", vec![Some(0.0), Some(0.0)], 0.0, 1.0),
            ("store", vec![Some(1.0), Some(0.0)], 1.0, 1.0),
            ("total", vec![Some(1.0), Some(0.5)], 0.5, 0.5),
            ("vendor", vec![Some(0.5), Some(1.0)], 0.5, 0.5),
        ]
    );
    assert_eq!(m.rows[1].best(), vec![0]);
    assert_eq!(m.rows[0].best(), vec![0, 1]);
    assert_eq!(m.rows[2].support(), 4);
    assert_eq!(m.all_rows().count(), 7);
    assert_eq!((m.rows[0].mean_f1(), m.rows[2].mean_f1()), (0.0, 0.75));
}

#[test]
fn groups_follow_the_types_and_a_shared_field_is_in_each() {
    let m = field_matrix(&report(&[]));
    let g = groups(&m, Some(&types()));
    let got: Vec<GroupView> = g
        .iter()
        .map(|g| {
            (
                g.name.as_str(),
                g.rows.clone(),
                g.exact.clone(),
                g.documents,
            )
        })
        .collect();
    // rows: 0 payer, 1 store, 2 total, 3 vendor; exact: 0 amount,
    // 1 doc_type, 2 year.
    assert_eq!(
        got,
        vec![
            ("inv", vec![2, 3], vec![1], Some(2)),
            ("rec", vec![1], vec![0, 1], Some(1)),
            ("tax", vec![0], vec![1, 2], Some(1)),
        ]
    );
}

#[test]
fn without_types_groups_are_the_paths_first_segments() {
    let m = field_matrix(&report(&[]));
    let g = groups(&m, None);
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].name, TOP_LEVEL);
    assert_eq!(
        (g[0].rows.clone(), g[0].exact.clone()),
        (vec![0, 1, 2, 3], vec![0, 1, 2])
    );
    assert_eq!(first_segment("vendor.name"), "vendor.*");
    assert_eq!(first_segment("items[].price"), "items[].*");
    assert_eq!(first_segment("total"), TOP_LEVEL);
    assert_eq!(first_segment("Straße.名前"), "Straße.*");
    assert_eq!(first_segment("Straße[].名前"), "Straße[].*");
}

#[test]
fn a_field_no_schema_names_is_in_other_fields() {
    let m = field_matrix(&report(&[]));
    let t = DocTypes {
        types: vec![DocType {
            name: "inv".into(),
            documents: 2,
            fields: vec!["total".into()],
        }],
    };
    let g = groups(&m, Some(&t));
    let got: Vec<(&str, Vec<usize>, Vec<usize>)> = g
        .iter()
        .map(|g| (g.name.as_str(), g.rows.clone(), g.exact.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("inv", vec![2], vec![]),
            (OTHER, vec![0, 1, 3], vec![0, 1, 2])
        ]
    );
}

#[test]
fn the_by_type_table_pools_the_types_own_fields() {
    let rows = type_table(&report(&[]), Some(&types()));
    let f1 = |r: &TypeRow| -> Vec<f64> { r.scores.iter().map(|s| s.unwrap().f1).collect() };
    assert_eq!(rows.len(), 3);
    // doc_type is named by all three schemas: left out of every row.
    // inv, A: total 2 exact, vendor 1 exact + 1 incorrect: TP 3, FP 1,
    // FN 1 → P = R = F1 = 3/4, accuracy 3/4. B: total 1 exact + 1
    // incorrect, vendor 2 exact: the same 3/4. Both best.
    assert_eq!((rows[0].name.as_str(), rows[0].documents), ("inv", 2));
    assert_eq!(f1(&rows[0]), vec![0.75, 0.75]);
    assert_eq!(rows[0].scores[0].unwrap().accuracy, 0.75);
    assert_eq!(rows[0].best, vec![0, 1]);
    // rec, A: amount, store exact → 1. B: store missed: TP 1, FN 1 →
    // P = 1, R = 1/2, F1 = 2·(1/2)/(3/2) = 2/3.
    assert_eq!(f1(&rows[1]), vec![1.0, 2.0 / 3.0]);
    assert_eq!(rows[1].best, vec![0]);
    // tax: both miss the payer, get the year: 2/3 each.
    assert_eq!(f1(&rows[2]), vec![2.0 / 3.0, 2.0 / 3.0]);
    assert!(type_table(&report(&[]), None).is_empty());
}

#[test]
fn a_type_without_own_fields_has_no_scores() {
    let t = DocTypes {
        types: vec![
            DocType {
                name: "a".into(),
                documents: 1,
                fields: vec!["doc_type".into()],
            },
            DocType {
                name: "b".into(),
                documents: 1,
                fields: vec!["doc_type".into(), "total".into()],
            },
        ],
    };
    let rows = type_table(&report(&[]), Some(&t));
    assert_eq!(rows[0].scores, vec![None, None]);
    assert!(rows[0].best.is_empty());
    // b: total alone: A 1, B 1/2 (as in the matrix).
    assert_eq!(
        rows[1]
            .scores
            .iter()
            .map(|s| s.unwrap().f1)
            .collect::<Vec<_>>(),
        vec![1.0, 0.5]
    );
}

#[test]
fn the_by_type_table_takes_the_schema_slices_when_the_report_has_them() {
    let rows = type_table(&report(&["_schema"]), Some(&types()));
    // inv over its own documents i1, i2 only: A has doc_type, total
    // exact twice, vendor 1 exact + 1 incorrect: TP 5, FP 1, FN 1 →
    // F1 5/6. B: total 1 exact + 1 incorrect, vendor 2 exact: 5/6.
    let inv: Vec<f64> = rows[0].scores.iter().map(|s| s.unwrap().f1).collect();
    assert!(
        (inv[0] - 5.0 / 6.0).abs() < 1e-12 && (inv[1] - 5.0 / 6.0).abs() < 1e-12,
        "{inv:?}"
    );
    // rec over r1 alone: A 3 exact → 1; B doc_type, amount exact, store
    // missed: R = 2/3, F1 = 2·(2/3)/(5/3) = 0.8.
    let rec: Vec<f64> = rows[1].scores.iter().map(|s| s.unwrap().f1).collect();
    assert_eq!(rec[0], 1.0);
    assert!((rec[1] - 0.8).abs() < 1e-12, "{rec:?}");
    assert_eq!(rows[1].best, vec![0]);
}

#[test]
fn an_empty_report_has_an_empty_matrix_and_no_groups() {
    let mut r = report(&[]);
    r.models.clear();
    let m = field_matrix(&r);
    assert!(m.rows.is_empty() && m.exact.is_empty());
    assert!(groups(&m, None).is_empty());
    let g = groups(&m, Some(&types()));
    // Every type is still named, with no rows.
    assert_eq!(
        g.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(),
        vec!["inv", "rec", "tax"]
    );
    assert!(g.iter().all(|g| g.rows.is_empty() && g.exact.is_empty()));
}

#[test]
fn a_model_without_a_row_is_no_cell_and_the_row_is_not_folded() {
    let mut r = report(&[]);
    r.models[1].fields.retain(|f| f.field != "amount");
    let m = field_matrix(&r);
    let amount = m.rows.iter().find(|r| r.field == "amount").unwrap();
    // A alone: F1 1 → spread 0, 1 − max 0: importance 0, so it is last.
    assert_eq!(f1s(amount), vec![Some(1.0), None]);
    assert_eq!(m.rows.last().unwrap().field, "amount");
    assert_eq!(
        m.exact.iter().map(|r| r.field.as_str()).collect::<Vec<_>>(),
        vec!["doc_type", "year"]
    );
}

#[test]
fn best_of_keeps_ties_and_ignores_missing_values() {
    assert_eq!(
        best_of([Some(0.5), None, Some(0.5)].into_iter()),
        vec![0, 2]
    );
    assert_eq!(best_of([None, None].into_iter()), Vec::<usize>::new());
    assert_eq!(best_of(std::iter::empty()), Vec::<usize>::new());
}

#[test]
fn rounding_noise_never_decides_the_order() {
    // vendor.name's F1 1 and 1/3 (spread 1 − 1/3) against po_number's 0
    // and 2/3 (spread 2/3): the same importance, so the lower mean (1/3
    // against 2/3) comes first.
    let mut r = report(&[]);
    let set = |r: &mut Report, field: &str, f1: [f64; 2]| {
        for (m, f) in f1.into_iter().enumerate() {
            r.models[m]
                .fields
                .iter_mut()
                .find(|x| x.field == field)
                .unwrap()
                .f1 = f;
        }
    };
    set(&mut r, "total", [1.0, 1.0 / 3.0]);
    set(&mut r, "vendor", [0.0, 2.0 / 3.0]);
    let m = field_matrix(&r);
    assert_ne!(1.0 - 1.0 / 3.0, 2.0 / 3.0, "the noise this test is about");
    let order: Vec<&str> = m.rows.iter().map(|r| r.field.as_str()).collect();
    assert_eq!(order, vec!["payer", "store", "vendor", "total"]);
}
