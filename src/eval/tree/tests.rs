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

/// `text` parsed by `parse_record` (with the short path for a trailing
/// flat object of numbers) and by `serde_json` alone: the same forest,
/// node for node, the same keys in the same order, or the same error.
fn same_as_whole(text: &str) {
    let (mut short, mut whole) = (Forest::default(), Forest::default());
    let a = short.parse_record(text).map_err(|e| e.to_string());
    let b = whole.parse_whole(text).map_err(|e| e.to_string());
    assert_eq!(a, b, "{text}");
    if a.is_ok() {
        assert!(short.same_content(&whole), "{text}");
    }
}

/// A trailing object read by the short path is known to hold numbers in
/// [0, 1] when every one is; not when one is above 1, nor when
/// `serde_json` read it (known or not, it is the same value).
#[test]
fn a_trailing_object_of_numbers_in_0_1_is_known_to_be() {
    let known = |text: &str| {
        let mut f = Forest::default();
        let root = f.parse_record(text).unwrap();
        let c = f.get(root).get("c").unwrap();
        same_as_whole(text);
        c.known_unit_numbers()
    };
    assert!(known(
        r#"{"id":1,"c":{"a":0.5,"b":1,"d":0,"e":1.0,"f":0.000}}"#
    ));
    assert!(known(r#"{"id":1,"c":{}}"#));
    assert!(!known(r#"{"id":1,"c":{"a":0.5,"b":2}}"#));
    assert!(!known(r#"{"id":1,"c":{"a":1.001,"b":0.5}}"#));
    assert!(!known(r#"{"id":1,"c":{"a":10}}"#));
    // Read by serde_json: an exponent, and a member that is not last.
    assert!(!known(r#"{"id":1,"c":{"a":1e-3}}"#));
    assert!(!known(r#"{"c":{"a":0.5},"id":1}"#));
}

/// Whether the short path takes `text`'s last member.
fn takes_the_tail(text: &str) -> bool {
    tail::scan(text, &mut Vec::new()).is_some()
}

#[test]
fn a_trailing_object_of_numbers_is_read_as_serde_json_reads_it() {
    let taken = [
        r#"{"id":"a","x":[1,{"y":2}],"_confidence":{"total":0.985,"items[0]":1,"v.n":0.0,"z":1.0}}"#,
        "{ \"id\" : \"a\" , \"_confidence\" : { \"a\" : 0.5 , \"b\" :0.25 } } \r",
        r#"{"id":1,"c":{}}"#,
        r#"{"id":1,"c":{ }}"#,
        // A repeated member keeps its first place and its last value; a
        // repeated entry its last value.
        r#"{"_confidence":{"a":0.1},"id":1,"_confidence":{"b":0.2,"b":0.3}}"#,
        // Keys that are not NFC become NFC, and then repeat.
        "{\"id\":1,\"c\":{\"Cafe\u{301}\":0.5,\"Caf\u{e9}\":0.25,\"名前\":0.75}}",
        "{\"Stra\u{df}e\":\"x\",\"c\":{\"lieferant.stra\u{df}e\":0.125}}",
        // Integers up to 18 digits; decimals up to 18 digits under 2^53.
        r#"{"id":1,"c":{"a":0,"b":7,"c":123456789012345678,"d":0.1,"e":12.05,"f":0.000001}}"#,
        r#"{"id":1,"c":{"a":9007199254740.991,"b":900719925474099.1,"bb":9007199254740991,"c":0.3333333333333333}}"#,
    ];
    for text in taken {
        assert!(takes_the_tail(text), "{text}");
        same_as_whole(text);
    }
    let left_to_serde_json = [
        r#"{"id":1,"c":{"a":1e-3}}"#,
        r#"{"id":1,"c":{"a":-0.5}}"#,
        r#"{"id":1,"c":{"a":-0.0}}"#,
        r#"{"id":1,"c":{"a\"b":0.5}}"#,
        r#"{"id":1,"c":{"a\u00e9":0.5}}"#,
        r#"{"id":1,"c":{"a":"0.5"}}"#,
        r#"{"id":1,"c":{"a":{"b":0.5}}}"#,
        r#"{"id":1,"c":{"a":0.5},"d":2}"#,
        "{\"id\":1,\"c\":{\"a\":\t0.5}}",
        r#"{"id":1,"c":{"a":1234567890123456789}}"#,
        r#"{"id":1,"c":{"a":0.30000000000000004}}"#,
        r#"{"id":1,"c":{"a":9007199254740993.0}}"#,
        r#"{"c":{"a":0.5}}"#,
        r#"{"id":1,"c\"":{"a":0.5}}"#,
        r#"{"id":1,"c":{"a":true}}"#,
    ];
    for text in left_to_serde_json {
        assert!(!takes_the_tail(text), "{text}");
        same_as_whole(text);
    }
}

#[test]
fn text_that_only_looks_like_a_trailing_member_gets_serde_json_s_answer() {
    // How many the scan takes, for serde_json to refuse the rest.
    let mut scanned = 0;
    for text in [
        // The `,` inside a string, or deeper than the record.
        r#"{"a":"x,"c":{"b":1}}"#,
        r#"{"a":{"x":1,"c":{"b":1}}"#,
        r#"{"a":[1,"c":{"b":1}}"#,
        // No member before it, or an empty one.
        r#"{,"c":{"b":1}}"#,
        r#"{"a":1,,"c":{"b":1}}"#,
        // Not JSON inside the object.
        r#"{"a":1,"c":{"b":01}}"#,
        r#"{"a":1,"c":{"b":1.}}"#,
        r#"{"a":1,"c":{"b":.5}}"#,
        r#"{"a":1,"c":{"b":1,}}"#,
        r#"{"a":1,"c":{"b" 1}}"#,
        r#"{"a":1,"c":{b:1}}"#,
        r#"{"a":1,"c":{"b":1}} x}"#,
        // Text after the record before the member: no key of the member
        // is interned.
        r#"{"a":1} x,"c":{"b":1}}"#,
        // Nested deeper: the record's close is missing or doubled.
        r#"{"a":1,"c":{"b":1}}}"#,
        r#"[1,"c":{"b":1}}"#,
    ] {
        same_as_whole(text);
        scanned += usize::from(takes_the_tail(text));
        // A line refused leaves the forest as serde_json alone leaves it:
        // the next line gets the same node ids.
        let (mut short, mut whole) = (Forest::default(), Forest::default());
        assert!(short.parse_record(text).is_err(), "{text}");
        assert!(whole.parse_whole(text).is_err(), "{text}");
        let next = r#"{"k":2,"c":{"b":0.5}}"#;
        assert_eq!(
            short.parse_record(next).unwrap(),
            whole.parse_whole(next).unwrap(),
            "{text}"
        );
        assert!(short.same_content(&whole), "{text}");
    }
    assert_eq!(scanned, 5);
}

#[test]
fn synthetic_predictions_with_confidences_read_as_serde_json_reads_them() {
    use crate::synth::{generate, ModelProfile, SynthOptions};
    let data = generate(&SynthOptions {
        documents: 40,
        seed: 7,
        models: vec![ModelProfile::good(), ModelProfile::aggressive()],
        paradox: false,
        confidence: true,
        vendor_country: false,
    });
    let (mut short, mut whole) = (Forest::default(), Forest::default());
    let mut taken = 0;
    for (_, jsonl) in &data.predictions {
        for line in jsonl.lines() {
            taken += usize::from(takes_the_tail(line));
            assert_eq!(
                short.parse_record(line).map_err(|e| e.to_string()),
                whole.parse_whole(line).map_err(|e| e.to_string()),
                "{line}"
            );
        }
    }
    assert!(short.same_content(&whole));
    assert!(taken >= 40, "the short path took {taken} lines");
}

#[test]
fn a_key_ends_at_its_first_quote_wherever_it_falls_in_a_word() {
    // Bytes one off the quote (0x21, 0x23), its high-bit twin (0xA2) and
    // UTF-8 (ß), before and after it, at every place within and past a
    // word of eight.
    let filler = "a!#ß\u{a2}z";
    for len in 0..26 {
        let mut text: String = filler.chars().cycle().take(len).collect();
        assert_eq!(tail::quote_in(text.as_bytes()), None, "{text}");
        let at = text.len();
        text.push('"');
        text.push_str("b\"c");
        assert_eq!(tail::quote_in(text.as_bytes()), Some(at), "{text}");
    }
}

#[test]
fn mutated_records_get_the_same_answer_both_ways() {
    // Records of the short path's shape, then one to three bytes
    // replaced, inserted or removed, from the characters its scan and
    // serde_json's grammar turn on: whatever the scan takes must be what
    // serde_json alone gives, and every refusal serde_json's own error.
    let shapes = [
        r#"{"id":"a","v":{"n":"x"},"_confidence":{"a.b":0.5,"items[0]":1,"c":0.25}}"#,
        r#"{"id":1, "_confidence": {"a": 0.125, "b": 10}}"#,
        r#"{"x":[1,{"y":"}"}],"c":{"k":0.75}}"#,
        // One step from a member-less record before the object.
        r#"{0,"c":{"k":0.5}}"#,
    ];
    let alphabet = b"{}[]\",:0123456789.-+eE \t\\au\xc3\xa9";
    let mut rng = fastrand::Rng::with_seed(29);
    let (mut taken, mut valid) = (0, 0);
    for _ in 0..20_000 {
        let mut bytes = shapes[rng.usize(..shapes.len())].as_bytes().to_vec();
        for _ in 0..rng.usize(1..=3) {
            let at = rng.usize(..=bytes.len());
            let c = alphabet[rng.usize(..alphabet.len())];
            match rng.u8(..3) {
                0 if at < bytes.len() => bytes[at] = c,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, c),
            }
        }
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        taken += usize::from(takes_the_tail(text));
        valid += usize::from(serde_json::from_str::<Value>(text).is_ok());
        same_as_whole(text);
    }
    // The mutations reach both sides of the scan, and of the grammar.
    assert!(
        taken > 2_000 && valid > 2_000,
        "taken {taken}, valid {valid}"
    );
}

#[test]
fn a_member_found_by_key_id_is_the_one_get_finds() {
    let mut f = Forest::default();
    let lines = [
        r#"{"a": 1, "b": {"c": 2}, "_confidence": {"a": 0.5}}"#,
        // Repeated: one member, its first position and last value.
        r#"{"a": 1, "b": 2, "a": {"x": 3}}"#,
        // Two spellings of one key: the record keeps the NFC one.
        "{\"Mu\u{0308}ller\": 1, \"M\u{00FC}ller\": 2, \"z\": 3}",
        "{}",
        r#"[{"a": 1}]"#,
        r#""a""#,
    ];
    let roots: Vec<NodeId> = lines.iter().map(|l| f.parse_record(l).unwrap()).collect();
    let names = [
        "a",
        "b",
        "c",
        "x",
        "z",
        "_confidence",
        "Müller",
        "Mu\u{0308}ller",
    ];
    let mut found = 0;
    for &root in &roots {
        let record = f.get(root);
        for name in names {
            let by_id = f.key_id(name).and_then(|id| record.member_with_key_id(id));
            let by_name = record.get(name);
            assert_eq!(
                by_id.map(|j| j.to_value()),
                by_name.map(|j| j.to_value()),
                "{name}"
            );
            found += usize::from(by_id.is_some());
        }
    }
    // a, b, _confidence; a, b; Müller, z.
    assert_eq!(found, 7);
    let second = f.get(roots[1]);
    assert_eq!(
        second
            .member_with_key_id(f.key_id("a").unwrap())
            .map(|j| j.to_value()),
        Some(json!({"x": 3}))
    );
    // An array, a string and an absent key have no member.
    assert!(f
        .get(roots[4])
        .member_with_key_id(f.key_id("a").unwrap())
        .is_none());
    assert!(f.get(roots[5]).member_with_key_id(0).is_none());
    assert!(f.get(roots[0]).member_with_key_id(u32::MAX - 1).is_none());
}

#[test]
fn decimals_of_up_to_three_places_read_from_the_table_as_serde_json_reads_them() {
    // Every d/10^k for k ≤ 3 around the table's end (m = d·10^(3−k) up to
    // 1000 from the table, past it by division): "0.983", "1.0", "0.07",
    // "1.001", "12.05", "100.0", "0.000".
    let mut text = String::from(r#"{"id":1,"c":{"#);
    let mut n = 0;
    for k in 1..=3u32 {
        for d in 0..=1_200u64 {
            let scale = 10u64.pow(k);
            let number = format!("{}.{:0width$}", d / scale, d % scale, width = k as usize);
            if n > 0 {
                text.push(',');
            }
            text.push_str(&format!("\"k{n}\":{number}"));
            n += 1;
        }
    }
    text.push_str("}}");
    assert!(takes_the_tail(&text));
    same_as_whole(&text);
    // And each value is the one serde_json gives its text.
    let mut entries = Vec::new();
    tail::scan(&text, &mut entries).unwrap();
    assert_eq!(entries.len(), 3 * 1_201);
    let want: Value = serde_json::from_str(&text).unwrap();
    let want = want["c"].as_object().unwrap();
    let mut f = Forest::default();
    let root = f.parse_record(&text).unwrap();
    for (k, v) in f.get(root).get("c").unwrap().entries() {
        assert_eq!(
            v.as_f64().map(f64::to_bits),
            want[k].as_f64().map(f64::to_bits),
            "{k}"
        );
    }
}
