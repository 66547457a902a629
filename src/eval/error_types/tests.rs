//! SPEC §9.1 by hand: every error type, each precedence collision, the
//! readings of numbers and dates, Unicode letters and digits.

use super::*;
use crate::eval::compare::Readings;
use crate::eval::config::{Config, ConfigBuilder};
use crate::eval::tree::{Forest, NodeId};
use serde_json::{json, Value};

/// One present value as the pass holds it: its forest node, normalised
/// text and readings.
struct Held {
    forest: Forest,
    id: NodeId,
    norm: String,
    readings: Readings,
}

impl Held {
    fn new(c: &Comparer<'_>, v: Value) -> Held {
        let mut forest = Forest::default();
        let id = forest.add_value(&v).expect("small value");
        let norm = c.normalized(forest.get(id));
        Held {
            forest,
            id,
            norm,
            readings: Readings::default(),
        }
    }

    fn side(&self) -> Side<'_> {
        Side {
            value: self.forest.get(self.id),
            norm: &self.norm,
            chars: self.norm.chars().count(),
            readings: &self.readings,
        }
    }
}

/// The outcome and error type of truth `t` against prediction `p`
/// compared as `ty`, with `others` the other fields' (name, type, truth).
fn typed(
    cfg: &Config,
    ty: ValueType,
    t: Value,
    p: Value,
    others: &[(&'static str, ValueType, Value)],
) -> (Outcome, (ErrorType, Option<&'static str>)) {
    let c = Comparer::new(cfg);
    let (t, p) = (Held::new(&c, t), Held::new(&c, p));
    let held: Vec<(&'static str, ValueType, Held)> = others
        .iter()
        .map(|(k, ty, v)| (*k, *ty, Held::new(&c, v.clone())))
        .collect();
    let cmp = c.compare_present(ty, &t.side(), &p.side());
    let cands = held.iter().map(|(key, ty, h)| Candidate {
        key: *key,
        name: key,
        ty: *ty,
        truth: h.side(),
    });
    let similarity = cmp.similarity.expect("both present");
    (
        cmp.outcome,
        classify(&c, ty, &t.side(), &p.side(), similarity, cands),
    )
}

fn error(ty: ValueType, t: Value, p: Value) -> ErrorType {
    let cfg = Config::default();
    let (outcome, (e, _)) = typed(&cfg, ty, t, p, &[]);
    assert!(
        matches!(outcome, Outcome::Partial | Outcome::Incorrect),
        "only non-exact pairs are classified, got {outcome:?}"
    );
    e
}

use ValueType::{Date, Number, String as Text};

#[test]
fn number_readings_under_every_convention() {
    use crate::eval::normalize::number_readings_str;
    // §2.1 reads "1.500" as 1.5; `,` as the decimal separator makes the
    // `.` a thousands separator between "1" and "500": 1500.
    assert_eq!(number_readings_str("1.500"), vec![1.5, 1.5, 1500.0]);
    // "1,500": §2.1 1500; `.` decimal (the `,` between "1" and "500"):
    // 1500; `,` decimal: 1.5.
    assert_eq!(number_readings_str("1,500"), vec![1500.0, 1500.0, 1.5]);
    // "12.3456": "3456" is no group of three, so only the decimal reading.
    assert_eq!(number_readings_str("12.3456"), vec![12.3456, 12.3456]);
    // Groups after the first must have exactly three digits; the first
    // one to three.
    assert_eq!(
        number_readings_str("€ 1.234.567,89"),
        vec![1234567.89, 1234567.89]
    );
    assert_eq!(number_readings_str("1234.567,8"), vec![1234567.8]);
    assert_eq!(number_readings_str("abc"), Vec::<f64>::new());
    assert_eq!(number_readings_str(""), Vec::<f64>::new());
}

#[test]
fn format_numbers_read_under_another_convention() {
    // 1500 vs "1.500": §2.1 reads 1.5 (incorrect); read with `,` as the
    // decimal separator it is 1500.
    assert_eq!(
        error(Number, json!(1500), json!("1.500")),
        ErrorType::Format
    );
    // 1.5 vs "1,500": §2.1 reads 1500; with `,` decimal 1.5.
    assert_eq!(error(Number, json!(1.5), json!("1,500")), ErrorType::Format);
    // 12345 vs "12.345": "12" then the group "345": 12345 under `,`-decimal.
    assert_eq!(
        error(Number, json!(12345), json!("12.345")),
        ErrorType::Format
    );
}

#[test]
fn thousands_separators_only_between_groups_of_three() {
    // "1363.26" has no reading as 136326 ("26" is no group of three), so
    // it is not `format`: 1363.26 · 10^2 = 136326 is `scale`.
    assert_eq!(
        error(Number, json!(136326), json!("1363.26")),
        ErrorType::Scale
    );
    assert_eq!(
        error(Number, json!("1363.26"), json!("136326")),
        ErrorType::Scale
    );
    // "1.2345" (a group of four) reads only 1.2345 = 12345 · 10^-4.
    assert_eq!(
        error(Number, json!(12345), json!("1.2345")),
        ErrorType::Scale
    );
    // "1,5" reads only 1.5 ("5" is no group of three): 15 = 1.5 · 10.
    assert_eq!(error(Number, json!(15), json!("1,5")), ErrorType::Scale);
}

#[test]
fn format_dates_in_either_order() {
    // Under `dmy`, "01/15/2025" does not read (month 15) and is compared as
    // a string; read month first it is 2025-01-15.
    assert_eq!(
        error(Date, json!("2025-01-15"), json!("01/15/2025")),
        ErrorType::Format
    );
    // "03/04/2025" reads 3 April under `dmy`; 4 March month first.
    assert_eq!(
        error(Date, json!("2025-03-04"), json!("03/04/2025")),
        ErrorType::Format
    );
    // Another day: no reading agrees; "2025-01-15" vs "2025-01-16"
    // normalised differ by 1 edit of 10 characters: similarity 0.9.
    assert_eq!(
        error(Date, json!("2025-01-15"), json!("2025-01-16")),
        ErrorType::NearMiss
    );
    // A month name is not read, so the date side compares as a string:
    // letters and digits "15january2025" vs "20250115" differ.
    assert_eq!(
        error(Date, json!("2025-01-15"), json!("15 January 2025")),
        ErrorType::Wrong
    );
}

#[test]
fn format_strings_by_letters_and_digits() {
    // "a.c.m.e." vs "acme": 4 deletions of 8, similarity 0.5 (partial);
    // letters and digits "acme" on both sides.
    assert_eq!(
        error(Text, json!("A.C.M.E."), json!("acme")),
        ErrorType::Format
    );
    // Unicode letters, lowercased: "ørsted a/s" vs "ørsted-as" is 2 edits
    // of 10 (similarity 0.8, partial); both reduce to "ørstedas".
    assert_eq!(
        error(Text, json!("Ørsted A/S"), json!("ØRSTED-AS")),
        ErrorType::Format
    );
    // Arabic-Indic digits are category Nd: "١٢٣" on both sides.
    assert_eq!(error(Text, json!("١-٢-٣"), json!("١٢٣")), ErrorType::Format);
    // A number field whose prediction does not read as a number is
    // compared as a string: "USD 12" → "usd12" vs "12".
    assert_eq!(error(Number, json!(12), json!("USD 12")), ErrorType::Wrong);
}

#[test]
fn letters_and_digits_are_categories_l_and_n() {
    // Ⓐ (U+24B6) is alphabetic but category So; a combining acute (Mn)
    // is not a letter either; ² (No) and Ⅻ (Nl) are numbers.
    assert_eq!(letters_and_digits("Ⓐb\u{301}²Ⅻ"), "b²ⅻ");
    assert_eq!(letters_and_digits("—/ .,"), "");
    assert_eq!(letters_and_digits("ΣΑΣ"), "σασ");
}

#[test]
fn scale_bounds_and_signs() {
    // 1 vs 10^6 (k = 6) is scale; 1 vs 10^7 (k = 7) is not.
    assert_eq!(error(Number, json!(1), json!(1_000_000)), ErrorType::Scale);
    assert_eq!(error(Number, json!(1), json!(10_000_000)), ErrorType::Wrong);
    // Cents for units: 12.34 vs 1234 (k = 2), either way round.
    assert_eq!(error(Number, json!(1234), json!(12.34)), ErrorType::Scale);
    assert_eq!(error(Number, json!(-5), json!(-500)), ErrorType::Scale);
    // Signs differ: -5 · 10^2 = -500 ≠ 500.
    assert_eq!(error(Number, json!(-5), json!(500)), ErrorType::Wrong);
    // Zero is never scale.
    assert_eq!(error(Number, json!(0), json!(10)), ErrorType::Wrong);
    // 2 vs 30 is no power of ten.
    assert_eq!(error(Number, json!(2), json!(30)), ErrorType::Wrong);
}

#[test]
fn scale_comes_before_near_miss() {
    // String field: "1000" vs "10000" is 1 edit of 5, similarity 0.8 ≥
    // `errors.near_miss` (and < 0.85: partial); 1000 · 10 = 10000 first.
    assert_eq!(error(Text, json!("1000"), json!("10000")), ErrorType::Scale);
}

#[test]
fn format_comes_before_swapped() {
    // "1.500" is `format` for total = 1500 and an exact match for
    // discount = 1.5: format wins.
    let cfg = Config::default();
    let (_, got) = typed(
        &cfg,
        Number,
        json!(1500),
        json!("1.500"),
        &[("discount", Number, json!(1.5))],
    );
    assert_eq!(got, (ErrorType::Format, None));
}

#[test]
fn swapped_names_the_field_and_comes_before_near_miss() {
    // invoice_date's prediction is due_date's truth (similarity 0.9 with its
    // own truth would make it a near miss).
    let cfg = Config::default();
    let (_, got) = typed(
        &cfg,
        Date,
        json!("2025-01-15"),
        json!("16.01.2025"),
        &[
            ("currency", Text, json!("EUR")),
            ("due_date", Date, json!("2025-01-16")),
        ],
    );
    assert_eq!(got, (ErrorType::Swapped, Some("due_date")));
    // The other field's comparison decides: 110 vs "110.00" is exact as
    // numbers; the net amount where the total belongs.
    let (_, got) = typed(
        &cfg,
        Number,
        json!(131.9),
        json!("110.00"),
        &[("net", Number, json!(110))],
    );
    assert_eq!(got, (ErrorType::Swapped, Some("net")));
    // The candidate first by name is the one named, whatever the order.
    let (_, got) = typed(
        &cfg,
        Text,
        json!("Acme"),
        json!("Globex"),
        &[
            ("c", Text, json!("Initech")),
            ("b", Text, json!("Globex")),
            ("a", Text, json!("Globex")),
        ],
    );
    assert_eq!(got, (ErrorType::Swapped, Some("a")));
}

#[test]
fn near_miss_follows_its_threshold() {
    // Similarity 0.9 (above): near miss at 0.8, wrong at 0.95.
    let cfg = Config::default();
    let (_, (e, _)) = typed(&cfg, Date, json!("2025-01-15"), json!("2025-01-16"), &[]);
    assert_eq!(e, ErrorType::NearMiss);
    let strict = ConfigBuilder::new()
        .layer(&json!({"errors": {"near_miss": 0.95}}))
        .and_then(ConfigBuilder::build)
        .expect("valid");
    let (_, (e, _)) = typed(&strict, Date, json!("2025-01-15"), json!("2025-01-16"), &[]);
    assert_eq!(e, ErrorType::Wrong);
    // Exactly at the threshold counts: "abcde" vs "abcdx", 1 edit of 5 =
    // 0.8 (partial, < 0.85).
    assert_eq!(
        error(Text, json!("abcde"), json!("abcdx")),
        ErrorType::NearMiss
    );
}

#[test]
fn wrong_otherwise_and_empty_letters() {
    assert_eq!(
        error(Text, json!("Acme"), json!("Globex")),
        ErrorType::Wrong
    );
    // Both reduce to no letters or digits: equal, so format ("-" vs "/").
    assert_eq!(error(Text, json!("-"), json!("/")), ErrorType::Format);
}

#[test]
fn missed_and_spurious_keep_their_names() {
    assert_eq!(
        ErrorType::of_outcome(Outcome::Missed),
        Some(ErrorType::Missed)
    );
    assert_eq!(
        ErrorType::of_outcome(Outcome::Spurious),
        Some(ErrorType::Spurious)
    );
    for o in [
        Outcome::Exact,
        Outcome::TrueNegative,
        Outcome::Partial,
        Outcome::Incorrect,
    ] {
        assert_eq!(ErrorType::of_outcome(o), None);
    }
}

#[test]
fn counts_add_up_in_key_order() {
    let mut c = ErrorCounts::default();
    for e in ErrorType::ALL {
        c.record(e);
    }
    c.record(ErrorType::Scale);
    let mut d = c;
    d += c;
    assert_eq!(d.scale, 4);
    assert_eq!(d.total(), 16);
    let keys: Vec<String> = serde_json::to_value(c)
        .expect("serialises")
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        keys,
        [
            "format",
            "scale",
            "swapped",
            "near_miss",
            "wrong",
            "missed",
            "spurious"
        ]
    );
    assert_eq!(
        ErrorType::ALL.map(ErrorType::name),
        [
            "format",
            "scale",
            "swapped",
            "near_miss",
            "wrong",
            "missed",
            "spurious"
        ]
    );
}

#[test]
fn config_key_is_validated() {
    let bad = ConfigBuilder::new()
        .layer(&json!({"errors": {"near_miss": 1.5}}))
        .and_then(ConfigBuilder::build)
        .unwrap_err();
    assert!(
        bad.message
            .contains("key `errors.near_miss` expects a number between 0 and 1, found 1.5"),
        "{}",
        bad.message
    );
    let bad = ConfigBuilder::new()
        .layer(&json!({"errors": {"near": 0.5}}))
        .unwrap_err();
    assert!(
        bad.message.contains("unknown key `errors.near`"),
        "{}",
        bad.message
    );
    let bad = ConfigBuilder::new()
        .layer(&json!({"errors": {"near_miss": "high"}}))
        .unwrap_err();
    assert!(
        bad.message.contains("`errors.near_miss` expects a number"),
        "{}",
        bad.message
    );
    assert_eq!(
        Config::default().to_json()["errors"],
        json!({"near_miss": 0.8})
    );
}
