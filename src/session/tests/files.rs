//! The example and the files: what the example holds, roles, drops,
//! failed files, renaming, costs and removing.

use super::*;

#[test]
fn the_example_has_truth_three_models_and_a_schema() {
    let mut s = Session::example();
    let roles: Vec<Role> = s.files.iter().map(|f| f.role).collect();
    assert_eq!(
        roles,
        [
            Role::Truth,
            Role::Predictions,
            Role::Predictions,
            Role::Predictions,
            Role::Schema,
            Role::Config
        ]
    );
    assert!(s.files.iter().all(|f| f.parsed.is_ok()));
    let r = s.evaluate().unwrap();
    assert_eq!(r.documents, 50);
    assert_eq!(r.models.len(), 3);
    assert!(r.models.iter().all(|m| m.items.is_some()));
}

/// The example is sliced by `vendor_country` (its config file, not the
/// page's settings layer), which is no scored field, and the good model's
/// German invoices are its weak slice: 12 of the 50 documents, F1 0.902
/// against 0.953 elsewhere, p (Holm) 0.006 (the CLI's report of `synth
/// --documents 50 --seed 19 --paradox --vendor-country` with its schema
/// and that config).
#[test]
fn the_example_has_a_weak_slice_to_show() {
    let r = Session::example().evaluate().unwrap();
    assert_eq!(r.config.slice_by, ["vendor_country"]);
    assert!(r
        .models
        .iter()
        .all(|m| m.fields.iter().all(|f| f.field != "vendor_country")));
    let slices = r.slices.as_ref().expect("slices");
    let weak: Vec<(&str, &serde_json::Value, usize)> = slices
        .models
        .iter()
        .flat_map(|m| {
            m.slices
                .iter()
                .filter(|s| s.weak)
                .map(move |s| (m.name.as_str(), &s.value, s.documents))
        })
        .collect();
    assert_eq!(weak, [("good", &serde_json::json!("DE"), 12)]);
    let de = &slices.models[0].slices[0];
    assert_eq!(format!("{:.3}", de.micro.f1), "0.902");
    assert_eq!(format!("{:.3}", de.micro.f1 + de.delta.unwrap()), "0.953");
    assert_eq!(format!("{:.3}", de.p_holm.unwrap()), "0.006");
}

/// The example shows M0's accuracy paradox to a newcomer: the
/// conservative model has the better accuracy, the aggressive one the
/// better F1 (as printed, four decimals), so the report explains it.
#[test]
fn the_example_shows_the_accuracy_paradox() {
    let r = Session::example().evaluate().unwrap();
    let names: Vec<&str> = r.models.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["good", "conservative", "aggressive"]);
    let (c, a) = (&r.models[1], &r.models[2]);
    assert!(c.micro.accuracy - a.micro.accuracy > 0.005, "{c:?} {a:?}");
    assert!(a.micro.f1 - c.micro.f1 > 0.005, "{c:?} {a:?}");
    assert!(c.counts.true_negative > a.counts.true_negative);
    assert!(a.counts.spurious > 10 * c.counts.spurious);
    let options = crate::export::ExportOptions::default();
    let html = crate::export::html::render(&r, &options, &Default::default());
    assert_eq!(html.matches("<section id=\"accuracy-paradox\">").count(), 1);
}

/// Issue 14: the first drop of the user's own files replaces the
/// example (the example's truth must not become a model named
/// "truth"); files dropped after that are added to the user's set; a
/// bundle replaces everything as before; "Load example" brings the
/// example back.
#[test]
fn the_first_drop_replaces_the_example_and_later_drops_add() {
    let mut s = Session::example();
    assert!(s.shows_example);
    s.settings
        .insert("case_sensitive".into(), Value::Bool(true));
    let truth = b"{\"id\":\"a\",\"total\":1}\n{\"id\":\"b\",\"total\":2}\n".to_vec();
    let pred = b"{\"id\":\"a\",\"total\":1}\n{\"id\":\"b\",\"total\":3}\n".to_vec();
    s.load("truth.jsonl", truth).unwrap();
    assert!(!s.shows_example);
    s.load("mine.jsonl", pred.clone()).unwrap();
    let names: Vec<&str> = s.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["truth.jsonl", "mine.jsonl"]);
    assert_eq!(s.settings.get("case_sensitive"), Some(&Value::Bool(true)));
    let r = s.evaluate().unwrap();
    assert_eq!(r.documents, 2);
    assert_eq!(r.models.len(), 1);
    assert_eq!(r.models[0].counts.exact, 1);
    assert_eq!(r.models[0].counts.incorrect, 1);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // A later drop adds to the user's files.
    s.load("other.jsonl", pred).unwrap();
    assert_eq!(s.files.len(), 3);
    assert_eq!(s.evaluate().unwrap().models.len(), 2);
    // Clearing is not the example either.
    let mut e = Session::example();
    e.clear();
    assert!(!e.shows_example && e.files.is_empty());
}

#[test]
fn roles_are_detected_by_name_and_content() {
    let mut s = Session::default();
    s.add_file("preds.jsonl", b"{\"id\":\"a\",\"x\":1}\n".to_vec());
    assert_eq!(
        s.files[0].role,
        Role::Truth,
        "the first records file is the truth"
    );
    s.add_file("model.jsonl", b"{\"id\":\"a\",\"x\":2}\n".to_vec());
    assert_eq!(s.files[1].role, Role::Predictions);
    s.add_file("gold.jsonl", b"{\"id\":\"a\",\"x\":1}\n".to_vec());
    assert_eq!(s.files[2].role, Role::Truth);
    assert_eq!(
        s.files[0].role,
        Role::Predictions,
        "a named truth file takes over"
    );
    s.add_file(
        "s.json",
        br#"{"type":"object","properties":{"x":{"type":"number"}}}"#.to_vec(),
    );
    assert_eq!(s.files[3].role, Role::Schema);
    s.add_file("m.json", br#"{"preset":"exact"}"#.to_vec());
    assert_eq!(s.files[4].role, Role::Config);
    assert_eq!(s.files[1].model, "model");
}

#[test]
fn a_failed_file_keeps_its_error_and_the_rest_still_evaluates() {
    let mut s = Session::default();
    s.add_file("truth.jsonl", b"{\"id\":\"a\",\"x\":\"1\"}\n".to_vec());
    s.add_file("good.jsonl", b"{\"id\":\"a\",\"x\":\"1\"}\n".to_vec());
    let bad = s.add_file("bad.jsonl", b"{\"id\":\"a\",\n".to_vec());
    let f = s.files.iter().find(|f| f.id == bad).unwrap();
    assert_eq!(
        f.error().unwrap().to_string(),
        "bad.jsonl:1:10: unexpected end of line while parsing a value (is it truncated?)"
    );
    let r = s.evaluate().unwrap();
    assert_eq!(r.models.len(), 1);
    assert_eq!(r.models[0].micro.f1, 1.0);
}

#[test]
fn rename_cost_remove() {
    let mut s = Session::default();
    s.add_file("truth.jsonl", b"{\"id\":\"a\",\"x\":1}\n".to_vec());
    let m = s.add_file("m.jsonl", b"{\"id\":\"a\",\"x\":1,\"cost\":0.5}\n".to_vec());
    s.rename_model(m, " GPT ");
    s.set_cost(m, Some(2.0));
    let r = s.evaluate().unwrap();
    assert_eq!(r.models[0].name, "GPT");
    assert_eq!(r.models[0].cost, Some(2.0));
    s.set_cost(m, None);
    assert_eq!(s.evaluate().unwrap().models[0].cost, Some(0.5));
    s.remove(m);
    assert!(s.evaluate().unwrap().models.is_empty());
    s.clear();
    assert_eq!(
        s.evaluate().unwrap_err(),
        "Load a ground-truth file to see a report."
    );
}

#[test]
fn file_stems() {
    assert_eq!(file_stem("preds/gpt-4o.jsonl"), "gpt-4o");
    assert_eq!(file_stem("a.b.json"), "a.b");
    assert_eq!(file_stem(".hidden"), ".hidden");
    assert_eq!(file_stem("C:\\x\\m.csv"), "m");
}
