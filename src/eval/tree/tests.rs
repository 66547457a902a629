//! Unit tests of `tree` (moved out of tree.rs to keep it readable).

use super::*;
use serde_json::json;
use serde_json::Value;

fn round_trip(text: &str) -> Value {
    let mut f = Forest::default();
    let id = f.parse_record(text).unwrap();
    f.get(id).to_value()
}

#[test]
fn parses_what_serde_json_parses() {
    for text in [
        r#"{"a": 1, "b": [1, -2, 3.5, 1e3, "x", null, true, false, {}], "c": {"d": "é"}}"#,
        r#"[18446744073709551615, -9223372036854775808, 0.1, 1.0, -0.0, 5e-324]"#,
        r#""\u00e9\ud83d\ude00""#,
        r#"{"a": 1, "b": 2, "a": 3}"#,
        "{}",
        "[]",
        "null",
    ] {
        let want: Value = serde_json::from_str(text).unwrap();
        assert_eq!(round_trip(text), want, "{text}");
        assert_eq!(round_trip(text).to_string(), want.to_string(), "{text}");
    }
}

#[test]
fn repeated_keys_keep_the_first_position_and_the_last_value() {
    let v = round_trip(r#"{"a": 1, "b": 2, "a": {"x": 3}}"#);
    assert_eq!(v, json!({"a": {"x": 3}, "b": 2}));
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["a", "b"]);
}

#[test]
fn strings_and_keys_become_nfc() {
    let v = round_trip("{\"Mu\u{0308}ller\": \"Cafe\u{0301}\", \"M\u{00FC}ller\": 2}");
    assert_eq!(v, json!({"Müller": 2}));
    let v = round_trip(r#"["e\u0301"]"#);
    assert_eq!(v, json!(["é"]));
}

#[test]
fn errors_leave_the_forest_usable() {
    let mut f = Forest::default();
    assert!(f.parse_record(r#"{"a": [1, 2"#).is_err());
    assert!(f.parse_record(r#"{"a": 1} x"#).is_err());
    let id = f.parse_record(r#"{"b": 2}"#).unwrap();
    assert_eq!(f.get(id).to_value(), json!({"b": 2}));
}

#[test]
fn numbers_are_written_as_serde_json_writes_them() {
    for text in [
        "0",
        "7",
        "-1",
        "-0",
        "10",
        "18446744073709551615",
        "-9223372036854775808",
        "1.0",
        "-0.0",
        "1e300",
        "0.1",
        "-12.5",
        "123456789012345678901234567890",
    ] {
        let want: Value = serde_json::from_str(text).unwrap();
        let mut f = Forest::default();
        let id = f.parse_record(text).unwrap();
        let mut out = String::new();
        f.get(id).write_text(&mut out);
        assert_eq!(out, want.to_string(), "{text}");
        assert_eq!(f.get(id).text(), want.to_string(), "{text}");
    }
}

#[test]
fn same_values_across_forests_and_after_a_clear() {
    use std::hash::{BuildHasher, Hasher};
    let hash = |j: Json<'_>| {
        let mut h = rustc_hash::FxBuildHasher.build_hasher();
        j.hash_into(&mut h);
        h.finish()
    };
    let mut f = Forest::default();
    let mut g = Forest::default();
    let a = f
        .parse_record(r#"{"a": [1, "x", {"b": null}], "c": 2.5}"#)
        .unwrap();
    g.parse_record(r#"{"zz": 1}"#).unwrap();
    let b = g
        .parse_record(r#"{"a":[1,"x",{"b":null}],"c":2.5}"#)
        .unwrap();
    assert!(f.get(a).same(g.get(b)));
    assert_eq!(hash(f.get(a)), hash(g.get(b)));
    for other in [
        r#"{"c": 2.5, "a": [1, "x", {"b": null}]}"#,
        r#"{"a": [1.0, "x", {"b": null}], "c": 2.5}"#,
        r#"{"a": [1, "x", {"b": false}], "c": 2.5}"#,
        r#"{"a": [1, "x"], "c": 2.5}"#,
    ] {
        let c = g.parse_record(other).unwrap();
        assert!(!f.get(a).same(g.get(c)), "{other}");
        assert_ne!(hash(f.get(a)), hash(g.get(c)), "{other}");
    }
    // A clear keeps the keys: the same text gets the same nodes.
    let keys = f.keys.len();
    f.clear_values();
    let again = f
        .parse_record(r#"{"a": [1, "x", {"b": null}], "c": 2.5}"#)
        .unwrap();
    assert_eq!(f.keys.len(), keys);
    assert_eq!(again, a);
    assert!(f.get(again).same(g.get(b)));
}

#[test]
fn views() {
    let mut f = Forest::default();
    let v = json!({"s": "x", "n": 2.5, "i": -3, "a": [{"k": 1}], "o": {"p": true}});
    let id = f.add_value(&v).unwrap();
    let j = f.get(id);
    assert_eq!(j.get("s").and_then(Json::as_str), Some("x"));
    assert_eq!(j.get("n").and_then(Json::as_f64), Some(2.5));
    assert_eq!(j.get("i").and_then(Json::as_f64), Some(-3.0));
    assert_eq!(j.get("i").map(|v| v.text().into_owned()), Some("-3".into()));
    assert_eq!(j.get("a").map(Json::len), Some(1));
    assert_eq!(
        j.step("a")
            .and_then(|a| a.step("0"))
            .and_then(|e| e.step("k"))
            .and_then(Json::as_f64),
        Some(1.0)
    );
    assert!(j.step("a").and_then(|a| a.step("00")).is_none());
    assert_eq!(
        j.get("o").map(|o| o.text().into_owned()),
        Some(r#"{"p":true}"#.into())
    );
    assert_eq!(
        j.to_value_without(&|k| k == "s" || k == "a"),
        json!({"n": 2.5, "i": -3, "o": {"p": true}})
    );
    let m = f.add_map(v.as_object().unwrap()).unwrap();
    assert_eq!(f.get(m).to_value(), v);
}

/// Keys found by the guess of the key that came next last time are the
/// keys the map gives: records whose keys come in a changing order, a
/// key met again after others, a repeated key and a key that is not NFC
/// (its NFC form interned beside it) read back as serde_json reads them.
#[test]
fn keys_in_a_changing_order_read_back() {
    let records = [
        r#"{"a": 1, "b": {"c": 2, "d": 3}, "e": 4}"#,
        r#"{"a": 1, "b": {"c": 2, "d": 3}, "e": 4}"#,
        r#"{"e": 4, "a": 1, "b": {"d": 3, "c": 2}}"#,
        r#"{"a": 1, "a": 5, "x": {"c": 6}}"#,
        "{\"Cafe\u{301}\": 1, \"a\": 2, \"Caf\u{e9}\": 3}",
        r#"{"b": {"c": 2, "d": 3}, "a": 1}"#,
    ];
    let mut f = Forest::default();
    for text in records {
        let id = f.parse_record(text).unwrap();
        let mut want: Value = serde_json::from_str(text).unwrap();
        crate::eval::nfc::nfc_value(&mut want);
        assert_eq!(f.get(id).to_value(), want, "{text}");
    }
    // Each key interned once: a b c d e x, "Cafe\u{301}" and "Café".
    assert_eq!(f.key_count(), 8);
}
