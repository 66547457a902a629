//! SPEC §9.3: suspected truth errors — one hand-made case per rule — and
//! corrections (`eval --corrections`, `fieldscope correct` for every
//! input shape, the round trip).

use super::common::{close, run, run_cli};
use fieldscope::eval::corrections::parse_corrections;
use fieldscope::eval::report::Suspect;

use fieldscope::eval::{evaluate_owned, Config, ConfigBuilder, EvalInput, ModelInput};
use fieldscope::io::{correct_bytes, parse_docs};
use serde_json::{json, Value};
use std::path::PathBuf;

fn config_with(layer: Value) -> Config {
    ConfigBuilder::new().layer(&layer).unwrap().build().unwrap()
}

/// The suspects of `truth` against models named m0, m1, … (one record
/// each, id "a" added).
fn suspects_of(truth: Value, preds: Vec<Value>, config: &Config) -> Vec<Suspect> {
    let with_id = |v: Value| {
        let mut v = v;
        v["id"] = json!("a");
        v
    };
    let names: Vec<String> = (0..preds.len()).map(|m| format!("m{m}")).collect();
    let models = names
        .iter()
        .zip(preds)
        .map(|(n, p)| (n.as_str(), vec![with_id(p)]))
        .collect();
    run(vec![with_id(truth)], models, None, config).suspected_truth_errors
}

fn fields(s: &[Suspect]) -> Vec<(&str, &str)> {
    s.iter()
        .map(|x| (x.id.as_str(), x.field.as_str()))
        .collect()
}

#[test]
fn three_models_need_two_in_agreement() {
    // M = 3: max(2, ⌈0.5·3⌉) = max(2, ⌈1.5⌉) = 2. Truth 100; m0 and m1
    // say 200 (each the other's exact match), m2 says 300: no model is
    // exact, 200 has 2 supporters → suspect.
    let c = Config::default();
    let s = suspects_of(
        json!({"total": 100}),
        vec![
            json!({"total": 200}),
            json!({"total": 200.0}),
            json!({"total": 300}),
        ],
        &c,
    );
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].field, "total");
    assert_eq!(s[0].truth, json!(100));
    assert_eq!(s[0].proposed, json!(200));
    assert_eq!(s[0].models, vec!["m0", "m1"]);
    assert_eq!(s[0].support, 2);
    assert_eq!(s[0].mean_confidence, None);
    // Three different answers: every value has 1 supporter < 2.
    let s = suspects_of(
        json!({"total": 100}),
        vec![
            json!({"total": 200}),
            json!({"total": 250}),
            json!({"total": 300}),
        ],
        &c,
    );
    assert!(s.is_empty());
}

#[test]
fn five_models_need_three_and_two_models_need_two() {
    let c = Config::default();
    // M = 5: ⌈0.5·5⌉ = ⌈2.5⌉ = 3. Two agreeing on 200 are not enough …
    let five = |third: i64| {
        vec![
            json!({"total": 200}),
            json!({"total": 200}),
            json!({"total": third}),
            json!({"total": 400}),
            json!({"total": 500}),
        ]
    };
    assert!(suspects_of(json!({"total": 100}), five(300), &c).is_empty());
    // … three are.
    let s = suspects_of(json!({"total": 100}), five(200), &c);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].support, 3);
    assert_eq!(s[0].models, vec!["m0", "m1", "m2"]);
    // M = 2: ⌈0.5·2⌉ = 1, but never fewer than 2: both must agree.
    assert!(suspects_of(
        json!({"total": 100}),
        vec![json!({"total": 200}), json!({"total": 300})],
        &c
    )
    .is_empty());
    let s = suspects_of(
        json!({"total": 100}),
        vec![json!({"total": 200}), json!({"total": 200})],
        &c,
    );
    assert_eq!(s[0].support, 2);
    // audit.agreement 1 with M = 3: ⌈1·3⌉ = 3, two agreeing are not enough.
    let strict = config_with(json!({"audit": {"agreement": 1.0}}));
    assert!(suspects_of(
        json!({"total": 100}),
        vec![
            json!({"total": 200}),
            json!({"total": 200}),
            json!({"total": 300})
        ],
        &strict
    )
    .is_empty());
}

#[test]
fn an_absent_truth_with_agreement_is_suspect_and_agreement_on_absence_is_not() {
    let c = Config::default();
    // Truth has no `name` (and "N/A" is absent too): both models answer
    // "Zed"/"zed " (equal after normalisation: exact) → spurious for both,
    // a possible missing label.
    for truth in [json!({"total": 1}), json!({"total": 1, "name": "N/A"})] {
        let s = suspects_of(
            truth,
            vec![
                json!({"total": 1, "name": "Zed"}),
                json!({"total": 1, "name": "zed "}),
            ],
            &c,
        );
        assert_eq!(fields(&s), vec![("a", "name")]);
        assert_eq!(s[0].truth, Value::Null);
        assert_eq!(s[0].proposed, json!("Zed"));
    }
    // A present truth the models leave empty: agreement on nothing.
    let s = suspects_of(
        json!({"total": 1, "name": "Acme"}),
        vec![
            json!({"total": 1}),
            json!({"total": 1, "name": "NOT_FOUND"}),
            json!({"total": 1, "name": null}),
        ],
        &c,
    );
    assert!(s.is_empty());
    // Two of three leave it empty, the third alone answers: 1 < 2.
    let s = suspects_of(
        json!({"total": 1, "name": "Acme"}),
        vec![
            json!({"total": 1}),
            json!({"total": 1}),
            json!({"total": 1, "name": "Zed"}),
        ],
        &c,
    );
    assert!(s.is_empty());
}

#[test]
fn one_exact_model_or_one_true_negative_clears_the_slot() {
    let c = Config::default();
    // m0 is exact: not suspect although m1 and m2 agree on 200.
    let s = suspects_of(
        json!({"total": 100}),
        vec![
            json!({"total": 100}),
            json!({"total": 200}),
            json!({"total": 200}),
        ],
        &c,
    );
    assert!(s.is_empty());
    // Truth absent, m0 absent too (true negative): not suspect.
    let s = suspects_of(
        json!({"total": 1}),
        vec![
            json!({"total": 1}),
            json!({"total": 1, "name": "x"}),
            json!({"total": 1, "name": "x"}),
        ],
        &c,
    );
    assert!(s.is_empty());
}

#[test]
fn proposed_is_the_first_prediction_with_the_most_supporters() {
    // M = 4 (need max(2, ⌈0.5·4⌉) = 2): 300 (m0, m3) and 200 (m1, m2)
    // have 2 supporters each; m0's comes first.
    let s = suspects_of(
        json!({"total": 100}),
        vec![
            json!({"total": 300}),
            json!({"total": 200}),
            json!({"total": 200}),
            json!({"total": 300}),
        ],
        &Config::default(),
    );
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].proposed, json!(300));
    assert_eq!(s[0].models, vec!["m0", "m3"]);
    // A later value with more supporters wins: 200 has 3.
    let s = suspects_of(
        json!({"total": 100}),
        vec![
            json!({"total": 300}),
            json!({"total": 200}),
            json!({"total": 200}),
            json!({"total": 200}),
        ],
        &Config::default(),
    );
    assert_eq!(s[0].proposed, json!(200));
    assert_eq!(s[0].models, vec!["m1", "m2", "m3"]);
}

#[test]
fn suspects_sort_by_support_then_confidence_with_null_last_then_id_and_field() {
    // Documents a–e, three models. conf: the `_confidence` of each model.
    let truth = vec![
        json!({"id": "a", "x": 1, "y": 1}),
        json!({"id": "b", "x": 1}),
        json!({"id": "c", "x": 1}),
        json!({"id": "d", "x": 1}),
    ];
    let model = |answers: [(i64, i64); 4], conf: Option<f64>| -> Vec<Value> {
        ["a", "b", "c", "d"]
            .iter()
            .zip(answers)
            .map(|(id, (x, y))| {
                let mut r = json!({"id": id, "x": x});
                if *id == "a" {
                    r["y"] = json!(y);
                }
                if let Some(c) = conf {
                    r["_confidence"] = json!(c);
                }
                r
            })
            .collect()
    };
    // a: x (support 2: m0, m1; mean conf (0.9 + 0.5)/2 = 0.7), y (support
    // 2: m0, m1, 0.7); b: x support 3 (m0, m1, m2; mean (0.9+0.5)/2 =
    // 0.7: m2 has none); c: x support 2 (m1, m2: only m1's 0.5 → 0.5);
    // d: x support 2 (m2 and … no: m0 exact) → not suspect.
    let m0 = model([(2, 2), (5, 0), (7, 0), (1, 0)], Some(0.9));
    let m1 = model([(2, 2), (5, 0), (8, 0), (6, 0)], Some(0.5));
    let m2 = model([(3, 3), (5, 0), (8, 0), (6, 0)], None);
    let r = run(
        truth,
        vec![("m0", m0), ("m1", m1), ("m2", m2)],
        None,
        &Config::default(),
    );
    let s = &r.suspected_truth_errors;
    assert_eq!(
        fields(s),
        vec![("b", "x"), ("a", "x"), ("a", "y"), ("c", "x")]
    );
    assert_eq!(s[0].support, 3);
    close(s[0].mean_confidence.unwrap(), 0.7);
    close(s[1].mean_confidence.unwrap(), 0.7);
    close(s[3].mean_confidence.unwrap(), 0.5);
    assert_eq!(s[3].models, vec!["m1", "m2"]);
    // b with support 2 and no confidence goes after every number.
    let mut sorted = s.clone();
    sorted[0].mean_confidence = None;
    sorted[0].support = 2;
    fieldscope::eval::audit::sort_suspects(&mut sorted);
    // (a, x) 0.7, (a, y) 0.7, (c, x) 0.5, then (b, x) null (support 2 now).
    assert_eq!(
        fields(&sorted),
        vec![("a", "x"), ("a", "y"), ("c", "x"), ("b", "x")]
    );
}

#[test]
fn an_item_slot_is_named_by_its_truth_item_and_answered_by_each_models_match() {
    // Truth items t0 = {qty 1, sku X}, t1 = {qty 2, sku Y}. m0 lists them
    // in order with qty 3 for Y; m1 lists Y first (its matching pairs t1
    // with its p0): both answer 3 in slot items[1].qty.
    let truth = json!({"items": [{"qty": 1, "sku": "X"}, {"qty": 2, "sku": "Y"}]});
    let s = suspects_of(
        truth,
        vec![
            json!({"items": [{"qty": 1, "sku": "X"}, {"qty": 3, "sku": "Y"}]}),
            json!({"items": [{"qty": 3, "sku": "Y"}, {"qty": 1, "sku": "X"}], "_confidence": 0.8}),
        ],
        &Config::default(),
    );
    assert_eq!(fields(&s), vec![("a", "items[1].qty")]);
    assert_eq!(s[0].truth, json!(2));
    assert_eq!(s[0].proposed, json!(3));
    // Only m1 carries a confidence: the mean over the supporters that do.
    close(s[0].mean_confidence.unwrap(), 0.8);
}

#[test]
fn unicode_values_agree_after_nfc_and_set_fields_are_not_audited() {
    // m0 writes è/û/é composed, m1 decomposed: equal after NFC (exact
    // with each other); against the truth "Creme Brulee Co" each is
    // partial (similarity 1 − 6/16 = 0.625). Set field `codes`: both
    // models say ["b"] against ["a"], not audited (SPEC §9.3: scalar and
    // item fields).
    // Read from files, as the CLI does (NFC is applied when reading).
    let file = |name: &str, v: Value| parse_docs(name, v.to_string().as_bytes()).unwrap();
    let input = EvalInput {
        truth: file(
            "t.json",
            json!([{"id": "a", "name": "Creme Brulee Co", "codes": ["a"]}]),
        ),
        models: vec![
            ModelInput::new(
                "m0",
                file(
                    "m0.json",
                    json!([{"id": "a", "name": "Crème brûlée Ltd", "codes": ["b"]}]),
                ),
            ),
            ModelInput::new(
                "m1",
                file(
                    "m1.json",
                    json!([{"id": "a", "name": "Cre\u{300}me bru\u{302}le\u{301}e Ltd", "codes": ["b"]}]),
                ),
            ),
        ],
        schema: None,
        schemas: Vec::new(),
    };
    let s = evaluate_owned(input, &Config::default(), false)
        .unwrap()
        .suspected_truth_errors;
    assert_eq!(fields(&s), vec![("a", "name")]);
    assert_eq!(s[0].proposed, json!("Crème brûlée Ltd"));
    assert_eq!(s[0].support, 2);
}

#[test]
fn one_model_gives_an_empty_list_and_the_key_is_always_in_the_json() {
    let r = run(
        vec![json!({"id": "a", "total": 1})],
        vec![("only", vec![json!({"id": "a", "total": 2})])],
        None,
        &Config::default(),
    );
    assert!(r.suspected_truth_errors.is_empty());
    let text =
        fieldscope::export::render(&r, fieldscope::export::Format::Json, &Default::default());
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["suspected_truth_errors"], json!([]));
}

#[test]
fn empty_files_and_absent_values_give_no_suspect() {
    let c = Config::default();
    // No truth document at all.
    let r = run(
        vec![],
        vec![
            ("m0", vec![json!({"id": "a", "x": 1})]),
            ("m1", vec![json!({"id": "a", "x": 1})]),
        ],
        None,
        &c,
    );
    assert!(r.suspected_truth_errors.is_empty());
    // Empty predictions: every truth value missed by both, agreement on nothing.
    let r = run(
        vec![json!({"id": "a", "x": 1, "items": [{"q": 1}]})],
        vec![("m0", vec![]), ("m1", vec![])],
        None,
        &c,
    );
    assert!(r.suspected_truth_errors.is_empty());
    // Both empty, and everything absent on both sides (true negatives).
    let r = run(
        vec![json!({"id": "a", "x": null, "y": "N/A"})],
        vec![
            ("m0", vec![json!({"id": "a", "x": "NOT_FOUND"})]),
            ("m1", vec![json!({"id": "a", "y": ""})]),
        ],
        None,
        &c,
    );
    assert!(r.suspected_truth_errors.is_empty());
}

#[test]
fn markdown_and_html_list_the_suspects_escaped() {
    let truth = vec![json!({"id": "<b>|x", "name": "A"})];
    let hostile = "*Zed* | <script>";
    let r = run(
        truth,
        vec![
            ("m|0", vec![json!({"id": "<b>|x", "name": hostile})]),
            ("m1", vec![json!({"id": "<b>|x", "name": hostile})]),
        ],
        None,
        &Config::default(),
    );
    assert_eq!(r.suspected_truth_errors.len(), 1);
    let opts = Default::default();
    let md = fieldscope::export::render(&r, fieldscope::export::Format::Markdown, &opts);
    assert!(
        md.contains("| \\<b>\\|x | name | A | \\*Zed\\* \\| \\<script> | m\\|0, m1 | 2 | — |"),
        "{md}"
    );
    let html = fieldscope::export::render(&r, fieldscope::export::Format::Html, &opts);
    assert!(html.contains("<section id=\"suspected-truth-errors\">"));
    assert!(html.contains("<td>*Zed* | &lt;script&gt;</td>"), "{html}");
    assert!(!html.contains("<script>"));
}

// ---------------------------------------------------------------------------
// Corrections

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fieldscope-audit-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn correct(name: &str, text: &str, corrections: Value) -> Result<(String, Vec<String>), String> {
    let list = parse_corrections("c.json", &corrections).map_err(|e| e.to_string())?;
    correct_bytes(name, text.as_bytes(), &list, "c.json", &Config::default())
        .map(|c| (String::from_utf8(c.bytes).unwrap(), c.warnings))
        .map_err(|e| e.to_string())
}

#[test]
fn jsonl_keeps_untouched_lines_verbatim() {
    let text =
        "{\"id\": \"a\",  \"total\": 100, \"name\": \"x\"}\r\n\n{\"id\":\"b\",\"total\":1.50}\n";
    let (out, warnings) = correct(
        "t.jsonl",
        text,
        json!([{"id": "b", "field": "total", "from": 1.5, "to": 2}]),
    )
    .unwrap();
    assert_eq!(
        out,
        "{\"id\": \"a\",  \"total\": 100, \"name\": \"x\"}\r\n\n{\"id\":\"b\",\"total\":2}\n"
    );
    assert_eq!(
        warnings,
        vec!["c.json: correction 1 (id \"b\", field `total`) applied: 1.5 → 2"]
    );
}

#[test]
fn a_json_array_keeps_field_order_and_the_other_records() {
    let text = "[\n  {\"id\": \"a\", \"z\": 1, \"b\": {\"n\": \"Ünï\"}},\n  {\n    \"id\": \"b\",\n    \"z\": 2,\n    \"items\": [{\"qty\": 1}, {\"qty\": 2}]\n  }\n]\n";
    let (out, _) = correct(
        "t.json",
        text,
        json!([
            {"id": "b", "field": "items[1].qty", "from": 2.0, "to": 5},
            {"id": "b", "field": "note", "from": null, "to": "new"}
        ]),
    )
    .unwrap();
    assert_eq!(
        out,
        "[\n  {\"id\": \"a\", \"z\": 1, \"b\": {\"n\": \"Ünï\"}},\n  {\n    \"id\": \"b\",\n    \"z\": 2,\n    \"items\": [\n      {\n        \"qty\": 1\n      },\n      {\n        \"qty\": 5\n      }\n    ],\n    \"note\": \"new\"\n  }\n]\n"
    );
}

#[test]
fn an_id_map_and_a_csv_file_are_corrected_in_their_shape() {
    let text = "{\"a\": {\"total\": 1}, \"b\": {\"total\": 2, \"vendor\": {\"name\": \"N/A\"}}}";
    let (out, _) = correct(
        "t.json",
        text,
        json!([{"id": "b", "field": "vendor.name", "from": null, "to": "Acme, \"Inc\""}]),
    )
    .unwrap();
    assert_eq!(
        out,
        "{\"a\": {\"total\": 1}, \"b\": {\"total\":2,\"vendor\":{\"name\":\"Acme, \\\"Inc\\\"\"}}}"
    );
    // CSV: cells stay strings; a header `vendor.name` is one key; the
    // corrected row is quoted by the CSV writer, the other rows as they were.
    let csv = "id,total,vendor.name\r\na,\"1\",x\r\nb,2,\r\n";
    let (out, _) = correct(
        "t.csv",
        csv,
        json!([
            {"id": "b", "field": "vendor.name", "from": null, "to": "Acme, \"Inc\""},
            {"id": "b", "field": "total", "from": "2", "to": 3}
        ]),
    )
    .unwrap();
    assert_eq!(
        out,
        "id,total,vendor.name\r\na,\"1\",x\r\nb,3,\"Acme, \"\"Inc\"\"\"\r\n"
    );
    // A CSV truth has no column to add.
    let e = correct(
        "t.csv",
        csv,
        json!([{"id": "a", "field": "note", "from": null, "to": "x"}]),
    )
    .unwrap_err();
    assert!(e.contains("`note` is not a column"), "{e}");
}

#[test]
fn corrections_that_do_not_fit_are_refused_with_their_name() {
    let text = "[{\"id\": \"a\", \"total\": 100, \"name\": \"N/A\", \"items\": [{\"qty\": 1}]}]";
    let cases = [
        (
            json!([{"id": "a", "field": "total", "from": 101, "to": 5}]),
            "c.json: correction 1 (id \"a\", field `total`) refused: the truth there is 100, not 101",
        ),
        (
            json!([{"id": "a", "field": "total", "from": 100, "to": 5},
                   {"id": "zz", "field": "total", "from": 1, "to": 2}]),
            "c.json: correction 2 (id \"zz\", field `total`) refused: no truth document has this id",
        ),
        (
            json!([{"id": "a", "field": "items[3].qty", "from": 1, "to": 2}]),
            "c.json: correction 1 (id \"a\", field `items[3].qty`) refused: `items` has no item 3 (it has 1; indices count from 0)",
        ),
        (
            json!([{"id": "a", "field": "totl", "from": 100, "to": 2}]),
            "c.json: correction 1 (id \"a\", field `totl`) refused: the record has no `totl`",
        ),
        (
            json!([{"id": "a", "field": "total.x", "from": null, "to": 2}]),
            "c.json: correction 1 (id \"a\", field `total.x`) refused: `total` is not an object",
        ),
        (
            json!([{"id": "a", "field": "items[].qty", "from": 1, "to": 2}]),
            "c.json: correction 1 (id \"a\", field `items[].qty`) refused: not a field path (keys joined by `.`, items as `items[0]`, 0-based)",
        ),
        (
            json!([{"id": "a", "field": "name", "from": "N/A", "to": "x"}]),
            "c.json: correction 1 (id \"a\", field `name`) refused: the truth is absent there (\"N/A\"); `from` must be null",
        ),
        (
            json!([{"id": "a", "field": "total", "from": null, "to": 1}]),
            "c.json: correction 1 (id \"a\", field `total`) refused: the truth there is 100, not null",
        ),
        (
            json!([{"id": "a", "field": "id", "from": "a", "to": "b"}]),
            "c.json: correction 1 (id \"a\", field `id`) refused: `id` is the id field; it cannot be corrected",
        ),
        (
            json!([{"id": "a", "field": "total", "to": 1}]),
            "c.json: correction 1: `from` and `to` are required (`from` null for an absent truth)",
        ),
    ];
    for (list, expected) in cases {
        assert_eq!(correct("t.json", text, list).unwrap_err(), expected);
    }
    // An absent value corrected from null; a number by value (100 = 100.0).
    let (out, w) = correct(
        "t.json",
        text,
        json!([{"id": "a", "field": "name", "from": null, "to": "Zed"},
               {"id": "a", "field": "total", "from": 100.0, "to": 200}]),
    )
    .unwrap();
    assert_eq!(
        out,
        "[{\"id\":\"a\",\"total\":200,\"name\":\"Zed\",\"items\":[{\"qty\":1}]}]"
    );
    assert_eq!(w.len(), 2);
}

#[test]
fn eval_with_corrections_gives_the_report_of_the_corrected_file() {
    let dir = scratch("roundtrip");
    let p = |n: &str| dir.join(n).display().to_string();
    std::fs::write(
        dir.join("t.jsonl"),
        "{\"id\":\"a\",\"total\":100,\"items\":[{\"qty\":1,\"sku\":\"X\"},{\"qty\":2,\"sku\":\"Y\"}]}\n{\"id\":\"b\",\"total\":5}\n",
    )
    .unwrap();
    for (m, total, qty) in [("m0", 200, 3), ("m1", 200, 3), ("m2", 300, 4)] {
        std::fs::write(
            dir.join(format!("{m}.jsonl")),
            format!(
                "{{\"id\":\"a\",\"total\":{total},\"items\":[{{\"qty\":1,\"sku\":\"X\"}},{{\"qty\":{qty},\"sku\":\"Y\"}}]}}\n{{\"id\":\"b\",\"total\":5,\"name\":\"Zed\"}}\n"
            ),
        )
        .unwrap();
    }
    let preds = [
        "--pred",
        &p("m0.jsonl"),
        "--pred",
        &p("m1.jsonl"),
        "--pred",
        &p("m2.jsonl"),
    ];
    let (code, before, _) = run_cli(&[&["eval", "--truth", &p("t.jsonl")][..], &preds].concat());
    assert_eq!(code, 0);
    let before: Value = serde_json::from_str(&before).unwrap();
    let suspects = before["suspected_truth_errors"].as_array().unwrap();
    // b.name: support 3 (truth absent); a.items[1].qty and a.total: 2.
    assert_eq!(
        suspects
            .iter()
            .map(|s| s["field"].as_str().unwrap())
            .collect::<Vec<_>>(),
        vec!["name", "items[1].qty", "total"]
    );
    // The suspects as corrections (what the app's panel writes).
    let corrections: Vec<Value> = suspects
        .iter()
        .map(|s| json!({"id": s["id"], "field": s["field"], "from": s["truth"], "to": s["proposed"]}))
        .collect();
    std::fs::write(
        dir.join("c.json"),
        serde_json::to_string(&corrections).unwrap(),
    )
    .unwrap();
    let (code, _, err) = run_cli(&[
        "correct",
        "--truth",
        &p("t.jsonl"),
        "--corrections",
        &p("c.json"),
        "--out",
        &p("fixed.jsonl"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("warning: ").count(), 3);
    let (code, with_flag, err) = run_cli(
        &[
            &[
                "eval",
                "--truth",
                &p("t.jsonl"),
                "--corrections",
                &p("c.json"),
            ][..],
            &preds,
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");
    let (code, from_file, _) =
        run_cli(&[&["eval", "--truth", &p("fixed.jsonl")][..], &preds].concat());
    assert_eq!(code, 0);
    let mut with_flag: Value = serde_json::from_str(&with_flag).unwrap();
    // (The corrected file's warnings name it: m0 and m1 now equal it.)
    let from_file: Value =
        serde_json::from_str(&from_file.replace("fixed.jsonl", "t.jsonl")).unwrap();
    let warnings = with_flag["warnings"].as_array().unwrap().clone();
    // The three corrections first, then the warnings of the corrected file.
    assert_eq!(
        warnings.len(),
        3 + from_file["warnings"].as_array().unwrap().len()
    );
    assert!(warnings[0]
        .as_str()
        .unwrap()
        .ends_with("correction 1 (id \"b\", field `name`) applied: null → \"Zed\""));
    with_flag["warnings"] = json!(warnings[3..]);
    assert_eq!(with_flag, from_file);
    // Corrected, nothing is suspect any more; m0 and m1 are exact on total.
    assert_eq!(from_file["suspected_truth_errors"], json!([]));
    // a: total, items[0].qty, sku, items[1].qty, sku; b: total, name: 7.
    assert_eq!(from_file["models"][0]["counts"]["exact"], json!(7));
    // A refused correction: exit 2, the message names it and the file.
    std::fs::write(
        dir.join("bad.json"),
        r#"[{"id": "a", "field": "total", "from": 1, "to": 2}]"#,
    )
    .unwrap();
    let (code, _, err) = run_cli(
        &[
            &[
                "eval",
                "--truth",
                &p("t.jsonl"),
                "--corrections",
                &p("bad.json"),
            ][..],
            &preds,
        ]
        .concat(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.json: correction 1 (id \"a\", field `total`) refused"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
