//! Unit tests of `compare`: the match rules of each value type and string method, and CER.

use super::*;
use crate::eval::config::Preset;
use serde_json::json;

fn outcome(cfg: &Config, ty: ValueType, t: Value, p: Value) -> Outcome {
    Comparer::new(cfg).compare(ty, Some(&t), Some(&p)).outcome
}

#[test]
fn absent_present_table() {
    let cfg = Config::default();
    let c = Comparer::new(&cfg);
    let s = ValueType::String;
    assert_eq!(c.compare(s, None, None).outcome, Outcome::TrueNegative);
    assert_eq!(
        c.compare(s, Some(&json!("N/A")), Some(&json!(null)))
            .outcome,
        Outcome::TrueNegative
    );
    assert_eq!(
        c.compare(s, Some(&json!("x")), Some(&json!("NOT_FOUND")))
            .outcome,
        Outcome::Missed
    );
    assert_eq!(
        c.compare(s, None, Some(&json!("x"))).outcome,
        Outcome::Spurious
    );
    let missed = c.compare(s, Some(&json!("abc")), None);
    assert_eq!(missed.cer_rate, Some(1.0));
    assert_eq!(missed.cer, Some(CerCount { edits: 3, len: 3 }));
}

#[test]
fn similarity_method_thresholds() {
    let cfg = Config::default();
    let s = ValueType::String;
    assert_eq!(
        outcome(&cfg, s, json!(" ACME  Corp "), json!("acme corp")),
        Outcome::Exact
    );
    // 1 edit in 20 characters: similarity 0.95.
    assert_eq!(
        outcome(
            &cfg,
            s,
            json!("abcdefghijklmnopqrst"),
            json!("abcdefghijklmnopqrsx")
        ),
        Outcome::Exact
    );
    // "abcdef" vs "abcxyz": similarity 0.5 → partial.
    assert_eq!(
        outcome(&cfg, s, json!("abcdef"), json!("abcxyz")),
        Outcome::Partial
    );
    // "abcdef" vs "axyzuv": similarity 1/6 → incorrect.
    assert_eq!(
        outcome(&cfg, s, json!("abcdef"), json!("axyzuv")),
        Outcome::Incorrect
    );
    // Exactly at the exact threshold: 3 edits in 20 → 0.85.
    assert_eq!(
        outcome(
            &cfg,
            s,
            json!("abcdefghijklmnopqrst"),
            json!("abcdefghijklmnopqxyz")
        ),
        Outcome::Exact
    );
    // 0.40 exactly: 3 of 5 characters differ.
    assert_eq!(
        outcome(&cfg, s, json!("abcde"), json!("abxyz")),
        Outcome::Partial
    );
}

#[test]
fn cer_method_spec_example_4() {
    let cfg = Config::preset(Preset::InvoiceCer);
    let c = Comparer::new(&cfg);
    let r = c.compare(
        ValueType::String,
        Some(&json!("Invoice 1234")),
        Some(&json!("Invoice 1243")),
    );
    assert_eq!(r.outcome, Outcome::Incorrect);
    assert_eq!(r.cer_rate, Some(2.0 / 12.0));
    let r = c.compare(
        ValueType::String,
        Some(&json!("Invoice 1234")),
        Some(&json!("invoice 124")),
    );
    assert_eq!(r.outcome, Outcome::Exact);
    assert_eq!(r.cer_rate, Some(1.0 / 12.0));
}

#[test]
fn exact_method_never_partial() {
    let cfg = Config::preset(Preset::Exact);
    assert_eq!(
        outcome(&cfg, ValueType::String, json!("abcdef"), json!("abcxyz")),
        Outcome::Incorrect
    );
    assert_eq!(
        outcome(&cfg, ValueType::String, json!("Straße"), json!("STRASSE")),
        Outcome::Incorrect
    );
    assert_eq!(
        outcome(&cfg, ValueType::String, json!("ÉCOLE"), json!("école")),
        Outcome::Exact
    );
}

#[test]
fn numbers_are_exact_or_incorrect() {
    let cfg = Config::default();
    let n = ValueType::Number;
    assert_eq!(
        outcome(&cfg, n, json!(1500), json!("$1,500.00")),
        Outcome::Exact
    );
    assert_eq!(
        outcome(&cfg, n, json!(1500), json!("1.500,00 €")),
        Outcome::Exact
    );
    assert_eq!(
        outcome(&cfg, n, json!(1500), json!(1501)),
        Outcome::Incorrect
    );
    // 1500 vs 1050: similarity 0.75 would be partial as strings; never for numbers.
    assert_eq!(
        outcome(&cfg, n, json!(1500), json!(1050)),
        Outcome::Incorrect
    );
    assert_eq!(
        outcome(&cfg, n, json!(12.5), json!("12,50")),
        Outcome::Exact
    );
    // Unparseable: normalised string comparison.
    assert_eq!(
        outcome(&cfg, n, json!("twelve"), json!("TWELVE")),
        Outcome::Exact
    );
    assert_eq!(
        outcome(&cfg, n, json!(12), json!("twelve")),
        Outcome::Incorrect
    );
    let tol = Config {
        numeric_tolerance: 0.01,
        ..Config::default()
    };
    assert_eq!(
        outcome(&tol, n, json!(100.0), json!(100.01)),
        Outcome::Exact
    );
}

#[test]
fn field_types_come_first() {
    let cfg = Config::from_json(&json!({
        "numeric_string_fields": ["nr"],
        "field_types": {"nr": "numeric_string", "a": "number", "s": "string", "b": "boolean", "i": "integer"}
    }))
    .unwrap();
    let c = Comparer::new(&cfg);
    assert_eq!(
        c.value_type("a", Some(SchemaHint::String), Some(&json!("1"))),
        ValueType::Number
    );
    assert_eq!(
        c.value_type("i", None, Some(&json!("1"))),
        ValueType::Number
    );
    assert_eq!(
        c.value_type("s", Some(SchemaHint::Number), Some(&json!(12))),
        ValueType::String
    );
    assert_eq!(c.value_type("b", None, None), ValueType::TruthValue);
    assert_eq!(c.value_type("nr", None, None), ValueType::NumericString);
    let n = ValueType::Number;
    assert_eq!(
        outcome(&cfg, n, json!("1108605.0"), json!(1108605)),
        Outcome::Exact
    );
    assert_eq!(
        outcome(&cfg, n, json!("1108605.0"), json!("1,108,605")),
        Outcome::Exact
    );
    // As text, 12 and "012" are not equal (similarity 2/3: partial).
    assert_eq!(
        outcome(&cfg, ValueType::String, json!(12), json!("012")),
        Outcome::Partial
    );
    let b = ValueType::TruthValue;
    for (t, p) in [
        (json!(true), json!("YES")),
        (json!("no"), json!(false)),
        (json!(" True "), json!(1)),
        (json!("0"), json!("FALSE")),
    ] {
        assert_eq!(
            outcome(&cfg, b, t.clone(), p.clone()),
            Outcome::Exact,
            "{t} {p}"
        );
    }
    assert_eq!(outcome(&cfg, b, json!("yes"), json!(0)), Outcome::Incorrect);
    // Unreadable: compared as strings.
    assert_eq!(
        outcome(&cfg, b, json!("maybe"), json!("Maybe")),
        Outcome::Exact
    );
    assert_eq!(
        outcome(&cfg, b, json!("maybe"), json!(true)),
        Outcome::Incorrect
    );
}

#[test]
fn value_type_precedence() {
    let cfg = Config {
        numeric_string_fields: vec!["nr".into()],
        date_fields: vec!["when".into()],
        ..Config::default()
    };
    let c = Comparer::new(&cfg);
    assert_eq!(
        c.value_type("nr", Some(SchemaHint::Number), Some(&json!(1))),
        ValueType::NumericString
    );
    assert_eq!(
        c.value_type("when", None, Some(&json!("x"))),
        ValueType::Date
    );
    assert_eq!(
        c.value_type("a", Some(SchemaHint::Date), Some(&json!(1))),
        ValueType::Date
    );
    assert_eq!(
        c.value_type("a", Some(SchemaHint::String), Some(&json!(1))),
        ValueType::Number
    );
    assert_eq!(
        c.value_type("a", None, Some(&json!(true))),
        ValueType::Boolean
    );
    assert_eq!(
        c.value_type("a", None, Some(&json!("1"))),
        ValueType::String
    );
    assert_eq!(c.value_type("a", None, None), ValueType::String);
}

#[test]
fn numeric_strings_dates_booleans() {
    let cfg = Config::default();
    assert_eq!(
        outcome(&cfg, ValueType::NumericString, json!("0001"), json!("1")),
        Outcome::Exact
    );
    assert_eq!(
        outcome(&cfg, ValueType::NumericString, json!("0012"), json!("0013")),
        Outcome::Incorrect
    );
    assert_eq!(
        outcome(&cfg, ValueType::NumericString, json!("A-01"), json!("a-01")),
        Outcome::Exact
    );
    assert_eq!(
        outcome(
            &cfg,
            ValueType::Date,
            json!("2025-01-15"),
            json!("15.01.2025")
        ),
        Outcome::Exact
    );
    assert_eq!(
        outcome(
            &cfg,
            ValueType::Date,
            json!("2025-01-15"),
            json!("2025-01-15T00:00:00")
        ),
        Outcome::Exact
    );
    assert_eq!(
        outcome(
            &cfg,
            ValueType::Date,
            json!("2025-01-15"),
            json!("2025-01-16")
        ),
        Outcome::Incorrect
    );
    assert_eq!(
        outcome(
            &cfg,
            ValueType::Date,
            json!("15 Jan 2025"),
            json!("15 jan 2025")
        ),
        Outcome::Exact
    );
    assert_eq!(
        outcome(&cfg, ValueType::Boolean, json!(true), json!("True")),
        Outcome::Exact
    );
    assert_eq!(
        outcome(&cfg, ValueType::Boolean, json!(true), json!(false)),
        Outcome::Incorrect
    );
}

#[test]
fn character_signatures_bound_the_distance() {
    use proptest::prelude::*;
    let text = prop::collection::vec(
        prop_oneof![
            proptest::char::range('a', 'h'),
            proptest::char::range('0', '3'),
            Just('é'),
            Just('𝔸'),
            any::<char>()
        ],
        0..24,
    )
    .prop_map(|v| v.into_iter().collect::<String>());
    let mut runner = proptest::test_runner::TestRunner::default();
    runner
        .run(&(text.clone(), text), |(a, b)| {
            let (sa, sb) = (char_signature(&a), char_signature(&b));
            let least = (sa & !sb).count_ones().max((sb & !sa).count_ones());
            prop_assert!(least as usize <= levenshtein(&a, &b), "{a:?} {b:?}");
            Ok(())
        })
        .unwrap();
}

#[test]
fn is_exact_agrees_with_compare() {
    for preset in Preset::ALL {
        let cfg = Config::preset(preset);
        let c = Comparer::new(&cfg);
        let pairs = [
            ("abcdefghijklmnopqrst", "abcdefghijklmnopqxyz"),
            ("abcdef", "abcxyz"),
            ("Invoice 1234", "invoice 124"),
            ("Invoice 1234", "Invoice 1243"),
            ("x", "xyz"),
            ("same", "SAME"),
            ("SKU-25513", "SKU-20665"),
            ("SKU-25513", "SKU-25531"),
            ("Headset with microphone", "Headset with microphone."),
            ("Headset with microphone", "Skrivebordslampe LED"),
            ("Ersatzteil Pumpe Ø 40 mm", "Ersatzteil Pumpe Ø 40mm"),
            ("", "x"),
            ("abcdefghij", "abcdefghjj"),
        ];
        for (t, p) in pairs {
            let mut forest = Forest::default();
            let ids = [t, p].map(|s| forest.add_value(&json!(s)).unwrap());
            let norms = ids.map(|id| c.normalized(forest.get(id)));
            let cells: [Readings; 2] = Default::default();
            let side = |i: usize| Side {
                value: forest.get(ids[i]),
                norm: &norms[i],
                chars: norms[i].chars().count(),
                readings: &cells[i],
            };
            let full = c
                .compare(ValueType::String, Some(&json!(t)), Some(&json!(p)))
                .outcome
                == Outcome::Exact;
            assert_eq!(
                c.is_exact(ValueType::String, &side(0), &side(1)),
                full,
                "{preset:?} {t} {p}"
            );
        }
    }
}
