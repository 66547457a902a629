//! The settings layer, the URL fragment and the bundle.

use super::*;

#[test]
fn settings_are_the_top_layer_and_bad_settings_say_so() {
    let mut s = Session::default();
    s.add_file("truth.jsonl", b"{\"id\":\"a\",\"x\":\"abcdef\"}\n".to_vec());
    s.add_file("m.jsonl", b"{\"id\":\"a\",\"x\":\"abcxyz\"}\n".to_vec());
    s.add_file("c.json", br#"{"preset":"standard"}"#.to_vec());
    assert_eq!(s.evaluate().unwrap().models[0].counts.partial, 1);
    s.set_setting("string_match.method", Some(Value::String("exact".into())));
    let r = s.evaluate().unwrap();
    assert_eq!(r.models[0].counts.incorrect, 1);
    assert_eq!(r.config.string_match.method, MatchMethod::Exact);
    s.set_setting("string_match.method", None);
    assert_eq!(s.evaluate().unwrap().models[0].counts.partial, 1);
    s.set_setting("zero_division", Some(Value::String("x".into())));
    assert_eq!(
        s.evaluate().unwrap_err(),
        "settings: key `zero_division` expects a number, found a string \"x\""
    );
}

#[test]
fn settings_round_trip_through_the_fragment() {
    let mut s = Session::default();
    assert_eq!(settings_to_fragment(&s.settings), "");
    s.set_setting("preset", Some(Value::String("exact".into())));
    s.set_setting(
        "partial_matching.string.exact_threshold",
        Some(serde_json::json!(0.9)),
    );
    let f = settings_to_fragment(&s.settings);
    assert_eq!(
        f,
        r#"settings={"preset":"exact","partial_matching":{"string":{"exact_threshold":0.9}}}"#
    );
    assert_eq!(settings_from_fragment(&f), Some(s.settings.clone()));
    assert_eq!(settings_from_fragment("settings={\"bogus\":1}"), None);
    assert_eq!(settings_from_fragment("other"), None);
}

#[test]
fn a_bundle_reopens_to_the_same_report() {
    let mut s = Session::example();
    let m = s.files[2].id;
    s.rename_model(m, "renamed");
    s.set_cost(m, Some(3.5));
    s.set_setting("preset", Some(Value::String("exact".into())));
    s.add_file("broken.jsonl", vec![0xff, 0xfe, 0x00]);
    let bundle = s.to_bundle();
    let mut t = Session::default();
    t.load("fieldscope-bundle.json", bundle.into_bytes())
        .unwrap();
    assert_eq!(t.files.len(), s.files.len());
    assert_eq!(t.evaluate().unwrap(), s.evaluate().unwrap());
    assert!(t.files.last().unwrap().error().is_some());
    assert_eq!(t.settings, s.settings);
}

/// The page's settings and a session with the same config file make the
/// same configuration and are written the same way (`Layered`).
#[test]
fn the_pages_settings_and_the_session_write_and_layer_alike() {
    use crate::eval::config::FieldType;
    use serde_json::json;
    let file = json!({"date_fields": ["issued", "due"], "numeric_tolerance": 0.5});
    let mut session = Session::default();
    session
        .load("config.json", file.to_string().into_bytes())
        .expect("loads");
    let mut page = Settings::default();
    page.set_config_files(vec![("config.json".into(), file)]);
    for s in [&mut session as &mut dyn Layered, &mut page] {
        s.set_setting("string_match.method", Some(json!("exact")));
        s.set_field_type("due", Some(FieldType::String));
        s.set_setting("zero_division", Some(json!(1)));
        s.set_setting("zero_division", None);
    }
    let expected = json!({
        "string_match": {"method": "exact"},
        "date_fields": ["issued"],
        "field_types": {"due": "string"}
    });
    assert_eq!(Value::Object(session.settings.clone()), expected);
    assert_eq!(Value::Object(page.layer.clone()), expected);
    let (a, b) = (
        Layered::config(&session).unwrap(),
        Layered::config(&page).unwrap(),
    );
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(a.numeric_tolerance, 0.5);
    assert_eq!(a.date_fields, ["issued"]);
}
