//! SPEC §9.2 by hand: quartile cuts, slice scores, Holm, order, the
//! built-in keys, and discovery on planted and unplanted weaknesses.

use super::discovery::{is_tested, test_slices, weighted_sum, Settings};
use super::*;
use crate::eval::bootstrap::holm;
use crate::eval::tree::Forest;
use serde_json::json;

fn by(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| k.to_string()).collect()
}

/// One key's texts, one row per document.
fn texts(values: &[Option<&str>]) -> Vec<Vec<Option<String>>> {
    values.iter().map(|v| vec![v.map(String::from)]).collect()
}

fn numbers(range: std::ops::RangeInclusive<i32>) -> Vec<Vec<Option<String>>> {
    range.map(|i| vec![Some(i.to_string())]).collect()
}

fn c(exact: u64, partial: u64, incorrect: u64, missed: u64, spurious: u64, tn: u64) -> Counts {
    Counts {
        exact,
        partial,
        incorrect,
        missed,
        spurious,
        true_negative: tn,
    }
}

#[test]
fn twelve_distinct_numbers_are_cut_at_type_7_quartiles() {
    // 1..=12, n = 12, h = 11q:
    // Q(.25): h = 2.75 → x₍₂₎ + .75(x₍₃₎ − x₍₂₎) = 3 + .75 = 3.75
    // Q(.5):  h = 5.5  → 6 + .5 = 6.5
    // Q(.75): h = 8.25 → 9 + .25 = 9.25
    let sorted: Vec<f64> = (1..=12).map(f64::from).collect();
    assert_eq!(quartile_edges(&sorted), [1.0, 3.75, 6.5, 9.25, 12.0]);
    let slices = cut(&by(&["n"]), &numbers(1..=12));
    let got: Vec<(Value, Vec<u32>)> = slices
        .iter()
        .map(|s| (s.value.clone(), s.documents.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (json!([1.0, 3.75]), vec![0, 1, 2]),
            (json!([3.75, 6.5]), vec![3, 4, 5]),
            (json!([6.5, 9.25]), vec![6, 7, 8]),
            (json!([9.25, 12.0]), vec![9, 10, 11]),
        ]
    );
}

#[test]
fn a_value_on_an_edge_goes_to_the_lower_bin() {
    // 1..=13, h = 12q: Q(.25) = x₍₃₎ = 4, Q(.5) = x₍₆₎ = 7, Q(.75) = x₍₉₎ = 10.
    // 4, 7 and 10 lie on edges: [1,4] holds 1–4, (4,7] 5–7, (7,10] 8–10, (10,13] 11–13.
    let slices = cut(&by(&["n"]), &numbers(1..=13));
    let sizes: Vec<(Value, usize)> = slices
        .iter()
        .map(|s| (s.value.clone(), s.documents.len()))
        .collect();
    assert_eq!(
        sizes,
        vec![
            (json!([1.0, 4.0]), 4),
            (json!([4.0, 7.0]), 3),
            (json!([7.0, 10.0]), 3),
            (json!([10.0, 13.0]), 3),
        ]
    );
    let edges = [1.0, 4.0, 7.0, 10.0, 13.0];
    assert_eq!(bin_of(&edges, 4.0), 0);
    assert_eq!(bin_of(&edges, 4.5), 1);
    assert_eq!(bin_of(&edges, 13.0), 3);
}

#[test]
fn equal_edges_leave_no_empty_bin_and_ten_distinct_values_are_categories() {
    // Values 0 ×9, then 1..=11 (12 distinct), n = 20, h = 19q:
    // Q(.25): h = 4.75 → 0; Q(.5): h = 9.5 → x₍₉₎ = 1, x₍₁₀₎ = 2 → 1.5;
    // Q(.75): h = 14.25 → x₍₁₄₎ = 6 + .25·1 = 6.25. Edges [0, 0, 1.5, 6.25, 11]:
    // bin 1 [0,0] holds the nine 0s, (0,1.5] holds 1, (1.5,6.25] 2–6, (6.25,11] 7–11.
    let mut rows: Vec<Vec<Option<String>>> = (0..9).map(|_| vec![Some("0".into())]).collect();
    rows.extend(numbers(1..=11));
    let slices = cut(&by(&["n"]), &rows);
    let sizes: Vec<(Value, usize)> = slices
        .iter()
        .map(|s| (s.value.clone(), s.documents.len()))
        .collect();
    assert_eq!(
        sizes,
        vec![
            (json!([0.0, 0.0]), 9),
            (json!([0.0, 1.5]), 1),
            (json!([1.5, 6.25]), 5),
            (json!([6.25, 11.0]), 5),
        ]
    );
    // Exactly 10 distinct numbers: a slice each, in numeric order (10 after 9).
    let slices = cut(&by(&["n"]), &numbers(1..=10));
    assert_eq!(slices.len(), 10);
    assert_eq!(slices[8].value, json!(9));
    assert_eq!(slices[9].value, json!(10));
}

#[test]
fn missing_and_null_are_the_null_slice_and_mixed_values_are_categories() {
    // 11 distinct numbers and one string: not all numbers, so categories.
    let mut rows = numbers(1..=11);
    rows.push(vec![Some("\"x\"".into())]);
    rows.push(vec![None]);
    rows.push(Vec::new()); // a short row: the key is missing
    let slices = cut(&by(&["k"]), &rows);
    assert_eq!(slices.len(), 13);
    assert_eq!(slices[0].value, Value::Null);
    assert_eq!(slices[0].documents, vec![12, 13]);
    assert_eq!(slices[1].value, json!(1));
    assert_eq!(slices[12].value, json!("x"));
}

#[test]
fn keys_sort_by_name_and_unicode_values_by_json_text() {
    let rows: Vec<Vec<Option<String>>> = [
        ("\"Zürich\"", "2"),
        ("\"Ålesund\"", "1"),
        ("\"Zürich\"", "1"),
    ]
    .iter()
    .map(|(a, b)| vec![Some(a.to_string()), Some(b.to_string())])
    .collect();
    let slices = cut(&by(&["city", "_items", "city"]), &rows);
    let got: Vec<(&str, Value, usize)> = slices
        .iter()
        .map(|s| (s.key.as_str(), s.value.clone(), s.documents.len()))
        .collect();
    // `_items` sorts before `city`; "Zürich" (Z, U+005A) before "Ålesund" (U+00C5).
    assert_eq!(
        got,
        vec![
            ("_items", json!(1), 2),
            ("_items", json!(2), 1),
            ("city", json!("Zürich"), 2),
            ("city", json!("Ålesund"), 1),
        ]
    );
}

#[test]
fn document_texts_read_top_level_keys_and_the_built_ins() {
    let mut forest = Forest::default();
    let root = forest
        .parse_record(r#"{"country": "DE", "n": 3.5, "flag": true, "none": null, "tags": ["a", 1], "o": {"b": "é"}}"#)
        .unwrap();
    let record = forest.get(root);
    let keys = by(&[
        "country", "n", "flag", "none", "missing", "tags", "o", ITEMS, FIELDS, SCHEMA,
    ]);
    let builtins = BuiltIns {
        items: 4,
        fields: 7,
        schema: Some("inv_01"),
    };
    let got = document_texts(&keys, record, builtins);
    let want: Vec<Option<String>> = [
        Some("\"DE\""),
        Some("3.5"),
        Some("true"),
        None,
        None,
        Some("[\"a\",1]"),
        Some("{\"b\":\"é\"}"),
        Some("4"),
        Some("7"),
        Some("\"inv_01\""),
    ]
    .iter()
    .map(|t| t.map(String::from))
    .collect();
    assert_eq!(got, want);
    // Without a schema of its own, `_schema` is null.
    let got = document_texts(&by(&[SCHEMA]), record, BuiltIns::default());
    assert_eq!(got, vec![None]);
}

#[test]
fn a_slices_micro_scores_pool_its_documents_counts() {
    // Slice = documents 0 and 2: COR 2+1 = 3, INC 1, MIS 1, SPU 1.
    // TP = 3; FP = INC + PAR + SPU = 2; FN = MIS + INC + PAR = 2 (["fp","fn"]).
    // P = 3/5 = 0.6, R = 3/5 = 0.6, F1 = 0.6; |Truth| = 3+1+1 = 5,
    // N = 5 + SPU 1 + TN 0 = 6, accuracy = 3/6 = 0.5.
    let counts = [
        c(2, 0, 1, 1, 0, 0),
        c(9, 0, 0, 0, 0, 9),
        c(1, 0, 0, 0, 1, 0),
    ];
    let sum = slice_counts(&counts, &[0, 2]);
    assert_eq!(sum, c(3, 0, 1, 1, 1, 0));
    let s = strict_scores(&sum, &Config::default());
    assert_eq!(
        (s.precision, s.recall, s.f1, s.accuracy),
        (0.6, 0.6, 0.6, 0.5)
    );
    // Weighted sums are the counts of a resample: doc 0 twice, doc 2 once.
    assert_eq!(weighted_sum(&counts, &[2, 0, 1]), c(5, 0, 2, 2, 1, 0));
}

#[test]
fn holm_by_hand() {
    // Sorted 0.01, 0.03, 0.04: 3·0.01 = 0.03; 2·0.03 = 0.06; 1·0.04 = 0.04 → max(0.06, 0.04).
    assert_eq!(holm(&[0.01, 0.04, 0.03]), vec![0.03, 0.06, 0.06]);
}

fn row(key: &str, value: Value, delta: Option<f64>, weak: bool) -> SliceRow {
    SliceRow {
        key: key.into(),
        value,
        documents: 1,
        micro: Default::default(),
        delta,
        p_value: delta.map(|_| 0.5),
        p_holm: delta.map(|_| 0.5),
        weak,
    }
}

#[test]
fn weak_slices_come_first_by_delta_then_the_rest_in_key_and_value_order() {
    let mut rows = vec![
        row("a", json!(1), Some(0.1), false),
        row("a", json!(2), Some(0.2), true),
        row("b", Value::Null, None, false),
        row("b", json!("x"), Some(0.3), true),
        row("b", json!("y"), Some(0.25), false),
    ];
    order_rows(&mut rows);
    let got: Vec<(&str, Value)> = rows
        .iter()
        .map(|r| (r.key.as_str(), r.value.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("b", json!("x")),
            ("a", json!(2)),
            ("a", json!(1)),
            ("b", Value::Null),
            ("b", json!("y")),
        ]
    );
}

#[test]
fn only_slices_with_enough_documents_inside_and_outside_are_tested() {
    assert!(is_tested(10, 20, 10));
    assert!(!is_tested(10, 19, 10));
    assert!(!is_tested(9, 100, 10));
    assert!(!is_tested(0, 0, 10));
}

/// `documents` documents of 4 fields each, in `groups` groups (the key's
/// value is the group); a field is exact with probability `right[g]`,
/// else incorrect.
fn planted(seed: u64, documents: usize, right: &[f64]) -> (Vec<Vec<Option<String>>>, Vec<Counts>) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let groups = right.len();
    let mut rows = Vec::new();
    let mut counts = Vec::new();
    for d in 0..documents {
        let g = d % groups;
        rows.push(vec![Some(format!("\"g{g}\""))]);
        let exact = (0..4).filter(|_| rng.f64() < right[g]).count() as u64;
        counts.push(c(exact, 0, 4 - exact, 0, 0, 0));
    }
    (rows, counts)
}

fn config(resamples: usize) -> Config {
    Config {
        slice_by: by(&["group"]),
        slices: crate::eval::config::SlicesConfig {
            resamples,
            ..Default::default()
        },
        ..Config::default()
    }
}

#[test]
fn a_planted_weak_slice_is_found_and_put_first() {
    // 200 documents in 4 groups of 50; group g2 is right 60 % of the time,
    // the others 90 %: micro F1 about 0.6 against 0.9, δ about 0.3.
    let (rows, counts) = planted(5, 200, &[0.9, 0.9, 0.6, 0.9]);
    let config = config(999);
    let report = slices_report(&rows, &[("m", &counts)], &config);
    let rows = &report.models[0].slices;
    assert_eq!(report.by, by(&["group"]));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0].value, json!("g2"));
    assert!(rows[0].weak);
    // No resample reverses a δ this large: p = 1/(B + 1) = 0.001, Holm ×4.
    assert_eq!(rows[0].p_value, Some(1.0 / 1000.0));
    assert_eq!(rows[0].p_holm, Some(4.0 / 1000.0));
    // δ is the micro F1 of the rest minus the slice's, from the counts.
    let inside = slice_counts(
        &counts,
        &(0..200).filter(|d| d % 4 == 2).collect::<Vec<u32>>(),
    );
    let outside = slice_counts(
        &counts,
        &(0..200).filter(|d| d % 4 != 2).collect::<Vec<u32>>(),
    );
    let f1 = |c: &Counts| strict_scores(c, &config).f1;
    assert_eq!(rows[0].delta, Some(f1(&outside) - f1(&inside)));
    assert!(rows[0].delta.unwrap() > 0.2);
    assert!(rows[1..].iter().all(|r| !r.weak));
    // The rest in value order.
    let rest: Vec<Value> = rows[1..].iter().map(|r| r.value.clone()).collect();
    assert_eq!(rest, vec![json!("g0"), json!("g1"), json!("g3")]);
    // p-values as the definition says: (1 + k)/(B + 1) for an integer k.
    for r in rows {
        let k = r.p_value.unwrap() * 1000.0 - 1.0;
        assert!((k - k.round()).abs() < 1e-9, "{k}");
    }
}

#[test]
fn untested_slices_have_null_delta_and_p_and_are_not_weak() {
    let (rows, counts) = planted(1, 30, &[0.9, 0.2, 0.9]);
    // 10 documents per group, 20 outside: tested at min 10, not at min 11.
    let mut config = config(99);
    config.slices.min_documents = 11;
    let report = slices_report(&rows, &[("m", &counts)], &config);
    for r in &report.models[0].slices {
        assert_eq!(
            (r.delta, r.p_value, r.p_holm, r.weak),
            (None, None, None, false)
        );
        assert_eq!(r.documents, 10);
    }
    config.slices.min_documents = 10;
    let report = slices_report(&rows, &[("m", &counts)], &config);
    assert!(report.models[0].slices.iter().all(|r| r.p_value.is_some()));
}

#[test]
fn without_a_planted_weakness_the_false_positive_rate_is_at_most_alpha() {
    // 100 data sets, every document right 80 % of the time in 4 groups of
    // 25; B = 199. A data set counts once if any of its slices is weak
    // (Holm bounds that family-wise rate by alpha = 0.05).
    let config = config(199);
    let mut with_weak = 0;
    for seed in 0..100 {
        let (rows, counts) = planted(1000 + seed, 100, &[0.8, 0.8, 0.8, 0.8]);
        let report = slices_report(&rows, &[("m", &counts)], &config);
        if report.models[0].slices.iter().any(|r| r.weak) {
            with_weak += 1;
        }
    }
    assert!(
        with_weak <= 5,
        "{with_weak} of 100 data sets had a weak slice"
    );
}

#[test]
fn every_model_is_tested_on_the_same_draws_and_the_result_does_not_depend_on_threads() {
    let (rows, a) = planted(9, 120, &[0.9, 0.5, 0.9]);
    let slices = cut(&by(&["group"]), &rows);
    let settings = Settings::of(&config(200));
    let cfg = config(200);
    // The same model twice gives the same p-values (paired draws).
    let tests = test_slices(&slices, &[&a, &a], rows.len(), &settings, &cfg);
    assert_eq!(tests[0], tests[1]);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| test_slices(&slices, &[&a], rows.len(), &settings, &cfg));
    assert_eq!(one[0], tests[0]);
}

#[test]
fn no_documents_and_no_models_give_no_rows() {
    let config = config(10);
    let report = slices_report(&[], &[("m", &[])], &config);
    assert!(report.models[0].slices.is_empty());
    let report = slices_report(&texts(&[Some("1")]), &[], &config);
    assert!(report.models.is_empty());
}

#[test]
fn slice_config_keys_are_checked_and_left_out_of_the_default_config() {
    let e = Config::from_json(&json!({"slices": {"resamples": 0}})).unwrap_err();
    assert_eq!(
        e.message,
        "key `slices.resamples` expects a whole number ≥ 1, found a number 0"
    );
    let e = Config::from_json(&json!({"slices": {"alpha": 2}})).unwrap_err();
    assert_eq!(
        e.message,
        "key `slices.alpha` expects a number between 0 and 1, found 2"
    );
    let e = Config::from_json(&json!({"slice_by": "country"})).unwrap_err();
    assert!(
        e.message.contains("`slice_by` expects an array of strings"),
        "{}",
        e.message
    );
    let e = Config::from_json(&json!({"slices": {"min_docs": 3}})).unwrap_err();
    assert!(
        e.message.contains("unknown key `slices.min_docs`"),
        "{}",
        e.message
    );
    let d = Config::default().to_json();
    assert!(d.get("slice_by").is_none() && d.get("slices").is_none());
    let c = Config::from_json(&json!({"slice_by": ["country"]})).unwrap();
    assert_eq!(c.to_json()["slice_by"], json!(["country"]));
    assert_eq!(
        c.to_json()["slices"],
        json!({"min_documents": 10, "resamples": 1000, "alpha": 0.05})
    );
    assert_eq!(Config::from_json(&c.to_json()).unwrap(), c);
}

#[test]
fn a_slices_p_value_does_not_depend_on_the_other_keys() {
    let (rows, counts) = planted(3, 120, &[0.9, 0.6, 0.9]);
    let alone = slices_report(&rows, &[("m", &counts)], &config(300));
    // The same documents with a second key before it (`_items`: 0..=11).
    let two: Vec<Vec<Option<String>>> = rows
        .iter()
        .enumerate()
        .map(|(d, r)| vec![Some((d % 12).to_string()), r[0].clone()])
        .collect();
    let mut cfg = config(300);
    cfg.slice_by = by(&["_items", "group"]);
    let both = slices_report(&two, &[("m", &counts)], &cfg);
    for r in &alone.models[0].slices {
        let same = both.models[0]
            .slices
            .iter()
            .find(|s| s.key == "group" && s.value == r.value)
            .unwrap();
        assert_eq!((same.delta, same.p_value), (r.delta, r.p_value));
    }
}

/// The test written out with the statistics' own `draw_weights` and
/// weighted sums of whole counts: the p-values of `slices_report` (which
/// adds each drawn document's packed counts as it is drawn) are these,
/// exactly.
#[test]
fn discovery_is_draw_weights_and_weighted_sums_written_out() {
    use crate::eval::bootstrap::{draw_weights, named_seed};
    // Partial credit and true negatives too: F1 must not depend on packing.
    let mut rng = fastrand::Rng::with_seed(4);
    let rows: Vec<Vec<Option<String>>> = (0..90)
        .map(|d| vec![Some(format!("\"g{}\"", d % 3))])
        .collect();
    let counts: Vec<Counts> = (0..90)
        .map(|_| {
            c(
                rng.u64(0..5),
                rng.u64(0..2),
                rng.u64(0..2),
                rng.u64(0..2),
                rng.u64(0..2),
                rng.u64(0..3),
            )
        })
        .collect();
    for preset in [crate::eval::Preset::Standard, crate::eval::Preset::NotFound] {
        let mut cfg = config(150);
        cfg.incorrect_counts_as = Config::preset(preset).incorrect_counts_as;
        let report = slices_report(&rows, &[("m", &counts)], &cfg);
        let f1 = |c: &Counts| strict_scores(c, &cfg).f1;
        for row in &report.models[0].slices {
            let inside: Vec<Counts> = (0..90)
                .filter(|d| format!("\"g{}\"", d % 3) == format!("{}", row.value))
                .map(|d| counts[d])
                .collect();
            let outside: Vec<Counts> = (0..90)
                .filter(|d| format!("\"g{}\"", d % 3) != format!("{}", row.value))
                .map(|d| counts[d])
                .collect();
            let mut rng = fastrand::Rng::with_seed(named_seed(1, &format!("group\0{}", row.value)));
            let (mut w_in, mut w_out) = (vec![0; inside.len()], vec![0; outside.len()]);
            let mut le = 0;
            for _ in 0..150 {
                draw_weights(&mut rng, &mut w_in);
                draw_weights(&mut rng, &mut w_out);
                if f1(&weighted_sum(&outside, &w_out)) - f1(&weighted_sum(&inside, &w_in)) <= 0.0 {
                    le += 1;
                }
            }
            assert_eq!(row.p_value, Some((1 + le) as f64 / 151.0), "{row:?}");
            let all = |v: &[Counts]| v.iter().copied().sum::<Counts>();
            assert_eq!(row.delta, Some(f1(&all(&outside)) - f1(&all(&inside))));
        }
    }
}
