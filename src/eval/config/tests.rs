//! Unit tests of `config`: defaults, presets, layers and their merge, and
//! the errors that name the key.

use super::*;
use crate::error::ErrorKind;
use serde_json::json;

#[test]
fn field_types_merge_by_path_and_check_types_and_shorthands() {
    let c = ConfigBuilder::new()
        .layer(&json!({"field_types": {"a": "number", "b": "date"}}))
        .unwrap()
        .layer(&json!({"field_types": {"a": "string"}}))
        .unwrap()
        .build()
        .unwrap();
    assert_eq!(c.field_type("a"), Some(FieldType::String));
    assert_eq!(c.field_type("b"), Some(FieldType::Date));
    assert_eq!(
        c.to_json()["field_types"],
        json!({"a": "string", "b": "date"})
    );
    assert_eq!(Config::default().to_json()["field_types"], json!({}));
    assert_eq!(Config::default().to_json()["schema_by"], json!(null));
    let err = Config::from_json(&json!({"field_types": {"a": "money"}})).unwrap_err();
    assert!(err.message.contains("`field_types.a` expects one of \"number\", \"integer\", \"date\", \"numeric_string\", \"string\", \"boolean\", found \"money\""), "{}", err.message);
    let err = Config::from_json(&json!({"field_types": ["a"]})).unwrap_err();
    assert!(
        err.message.contains("`field_types` expects an object"),
        "{}",
        err.message
    );
    // A shorthand and field_types agreeing is fine; disagreeing is an error naming the path.
    assert!(
        Config::from_json(&json!({"date_fields": ["d"], "field_types": {"d": "date"}})).is_ok()
    );
    let err =
        Config::from_json(&json!({"numeric_string_fields": ["n"], "field_types": {"n": "number"}}))
            .unwrap_err();
    assert_eq!(err.message, "field `n` is in `numeric_string_fields` and has type \"number\" in `field_types`; give it one type");
    let err = Config::from_json(&json!({"schema_by": 3})).unwrap_err();
    assert!(
        err.message.contains("`schema_by` expects a string or null"),
        "{}",
        err.message
    );
}

#[test]
fn defaults_match_the_spec() {
    let c = Config::default();
    assert_eq!(c.preset, Preset::Standard);
    assert_eq!(c.absent_values, vec!["NOT_FOUND", "N/A", ""]);
    assert_eq!(c.string_match.method, MatchMethod::Similarity);
    assert_eq!(c.string_match.cer_threshold, 0.15);
    assert_eq!(c.partial_matching.string.exact_threshold, 0.85);
    assert_eq!(c.partial_matching.string.partial_threshold, 0.40);
    assert_eq!(c.incorrect_counts_as, IncorrectCountsAs::FpAndFn);
    assert_eq!(c.top_k, vec![1, 3, 5]);
    assert_eq!(c.document_extraction_score.weights.numeric_precision, 0.5);
    assert_eq!(c.to_json()["incorrect_counts_as"], json!(["fp", "fn"]));
    assert_eq!(c.to_json()["preset"], json!("standard"));
}

#[test]
fn presets_set_their_keys() {
    assert_eq!(
        Config::preset(Preset::Exact).string_match.method,
        MatchMethod::Exact
    );
    let nf = Config::preset(Preset::NotFound);
    assert_eq!(nf.string_match.method, MatchMethod::Exact);
    assert_eq!(nf.incorrect_counts_as, IncorrectCountsAs::FpOnly);
    let inv = Config::preset(Preset::InvoiceCer);
    assert_eq!(inv.string_match.method, MatchMethod::Cer);
    assert_eq!(inv.to_json()["preset"], json!("invoice-cer"));
}

#[test]
fn nested_objects_merge_key_by_key() {
    let c = Config::from_json(&json!({
        "preset": "invoice-cer",
        "string_match": {"cer_threshold": 0.25}
    }))
    .unwrap();
    assert_eq!(c.string_match.method, MatchMethod::Cer);
    assert_eq!(c.string_match.cer_threshold, 0.25);
}

#[test]
fn forced_preset_beats_the_config_files_preset() {
    let c = ConfigBuilder::new()
        .preset(Preset::Exact)
        .layer(&json!({"preset": "invoice-cer", "zero_division": 1}))
        .unwrap()
        .build()
        .unwrap();
    assert_eq!(c.preset, Preset::Exact);
    assert_eq!(c.string_match.method, MatchMethod::Exact);
    assert_eq!(c.zero_division, 1.0);
}

#[test]
fn later_layers_win() {
    let c = ConfigBuilder::new()
        .layer(&json!({"string_match": {"method": "exact"}, "zero_division": 1}))
        .unwrap()
        .layer(&json!({"string_match": {"method": "cer"}}))
        .unwrap()
        .build()
        .unwrap();
    assert_eq!(c.string_match.method, MatchMethod::Cer);
    assert_eq!(c.zero_division, 1.0);
}

#[test]
fn app_url_is_an_http_address_and_absent_when_unset() {
    assert!(Config::default().to_json().get("app_url").is_none());
    let c = Config::from_json(&json!({"app_url": "https://example.org/fieldscope/"})).unwrap();
    assert_eq!(
        c.app_url.as_deref(),
        Some("https://example.org/fieldscope/")
    );
    assert_eq!(
        c.to_json()["app_url"],
        json!("https://example.org/fieldscope/")
    );
    for ok in [
        "http://localhost:8080",
        "HTTPS://x.org/a?b=1#c",
        "https://例え.jp/",
    ] {
        assert_eq!(check_app_url(ok).unwrap(), ok);
    }
    for bad in [
        "javascript:alert(1)",
        "data:text/html,x",
        "file:///etc/passwd",
        "/relative",
        "https://",
        "https:///path",
        "http://a b",
        "https://x.org/\"onmouseover=\"x",
        "https://x.org/<script>",
        "",
    ] {
        let e = check_app_url(bad).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Config);
        assert!(
            e.message
                .starts_with("key `app_url` expects an http:// or https:// address"),
            "{bad}: {}",
            e.message
        );
    }
    let e = Config::from_json(&json!({"app_url": 3})).unwrap_err();
    assert_eq!(
        e.message,
        "key `app_url` expects an http:// or https:// address of the fieldscope app, found a number 3"
    );
}

#[test]
fn unknown_key_names_the_key_and_the_allowed_keys() {
    let e = Config::from_json(&json!({"zero_divison": 1})).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Config);
    assert!(
        e.message.starts_with(
            "unknown key `zero_divison`; the allowed keys are: preset, id_field, absent_values"
        ),
        "{}",
        e.message
    );
    let e = Config::from_json(&json!({"string_match": {"methd": "cer"}})).unwrap_err();
    assert_eq!(
        e.message,
        "unknown key `string_match.methd`; the allowed keys in `string_match` are: method, cer_threshold"
    );
}

#[test]
fn wrong_type_names_key_expected_type_and_value() {
    let e = Config::from_json(&json!({"zero_division": "zero"})).unwrap_err();
    assert_eq!(
        e.message,
        "key `zero_division` expects a number, found a string \"zero\""
    );
    let e = Config::from_json(&json!({"top_k": [0, 3]})).unwrap_err();
    assert_eq!(
        e.message,
        "key `top_k` expects an array of whole numbers ≥ 1, found an array [0,3]"
    );
    let e = Config::from_json(&json!({"string_match": {"method": "fuzzy"}})).unwrap_err();
    assert_eq!(
        e.message,
        "key `string_match.method` expects one of \"similarity\", \"cer\", \"exact\", found \"fuzzy\""
    );
    let e = Config::from_json(&json!({"incorrect_counts_as": ["fn"]})).unwrap_err();
    assert!(e.message.contains("[\"fp\", \"fn\"] or [\"fp\"]"));
    let e = Config::from_json(&json!([1])).unwrap_err();
    assert_eq!(
        e.message,
        "the metrics config expects an object, found an array [1]"
    );
    let e = Config::from_json(&json!({"item_f1_threshold": 1.5})).unwrap_err();
    assert_eq!(
        e.message,
        "key `item_f1_threshold` expects a number between 0 and 1, found 1.5"
    );
}

#[test]
fn id_field_may_be_null_or_a_string() {
    let c = Config::from_json(&json!({"id_field": "doc"})).unwrap();
    assert_eq!(c.id_field.as_deref(), Some("doc"));
    assert!(Config::from_json(&json!({"id_field": 3})).is_err());
}

#[test]
fn audit_agreement_defaults_to_a_half_and_is_checked() {
    assert_eq!(Config::default().audit.agreement, 0.5);
    assert_eq!(
        Config::default().to_json()["audit"],
        json!({"agreement": 0.5})
    );
    let c = Config::from_json(&json!({"audit": {"agreement": 0.75}})).unwrap();
    assert_eq!(c.audit.agreement, 0.75);
    let e = Config::from_json(&json!({"audit": {"agreement": 1.5}})).unwrap_err();
    assert_eq!(
        e.message,
        "key `audit.agreement` expects a number between 0 and 1, found 1.5"
    );
    let e = Config::from_json(&json!({"audit": {"agree": 0.5}})).unwrap_err();
    assert!(
        e.message.contains("unknown key `audit.agree`"),
        "{}",
        e.message
    );
    let e = Config::from_json(&json!({"audit": {"agreement": "half"}})).unwrap_err();
    assert!(
        e.message.contains("`audit.agreement` expects a number"),
        "{}",
        e.message
    );
}

#[test]
fn type_names_read_as_messages_say_them() {
    assert_eq!(type_name(&json!("x")), "a string");
    assert_eq!(type_name(&json!(null)), "null");
    assert_eq!(type_name(&json!([1])), "an array");
}
