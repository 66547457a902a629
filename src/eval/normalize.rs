//! Normalisation of values before they are compared (SPEC §1.4, §2.1).
//!
//! Owns: the absent-value test, string normalisation, number parsing
//! (currency symbols, thousands and decimal separators), numeric strings and
//! date parsing. Pure functions; depends on `serde_json` and `chrono` (for
//! calendar validity) only.

use crate::eval::tree::{Json, JsonType};
use chrono::NaiveDate;
use serde_json::Value;

/// Absent values, prepared once: trimmed and lowercased (SPEC §1.4); whether
/// they are all ASCII; and the most bytes a string equal to one of them
/// can have.
#[derive(Debug, Clone)]
pub struct AbsentValues(Vec<String>, bool, usize);

impl AbsentValues {
    pub fn new(values: &[String]) -> Self {
        let values: Vec<String> = values.iter().map(|v| v.trim().to_lowercase()).collect();
        let all_ascii = values.iter().all(|v| v.is_ascii());
        // Lowercasing never makes fewer characters, and a character is at
        // most 4 bytes: a trimmed string whose lowercase equals `a` has at
        // most `chars(a)` characters, so at most 4 × chars(a) bytes.
        let longest = values.iter().map(|v| 4 * v.chars().count()).max();
        AbsentValues(values, all_ascii, longest.unwrap_or(0))
    }

    /// A value is absent when it is missing (`None`), `null`, an empty
    /// array, or a string that, trimmed and compared case-insensitively, is
    /// one of the absent values. Everything else is present (SPEC §1.4).
    pub fn is_absent(&self, value: Option<&Value>) -> bool {
        match value {
            None | Some(Value::Null) => true,
            Some(Value::Array(a)) => a.is_empty(),
            Some(Value::String(s)) => self.is_absent_str(s),
            Some(_) => false,
        }
    }

    /// [`Self::is_absent`] for a value of a forest.
    pub fn is_absent_json(&self, value: Option<Json<'_>>) -> bool {
        let Some(v) = value else {
            return true;
        };
        match v.json_type() {
            JsonType::Null => true,
            JsonType::Array => v.is_empty(),
            JsonType::String => self.is_absent_str(v.as_str().unwrap_or_default()),
            _ => false,
        }
    }

    /// The string case of [`Self::is_absent`].
    pub fn is_absent_str(&self, s: &str) -> bool {
        let t = s.trim();
        if t.len() > self.2 {
            false
        } else if t.is_ascii() {
            self.0.iter().any(|a| a.eq_ignore_ascii_case(t))
        } else if self.1 && t.chars().any(|c| !c.is_ascii() && c != KELVIN_SIGN) {
            // The lowercase of a non-ASCII character other than the Kelvin
            // sign holds a non-ASCII character (a test checks every
            // character), so it cannot equal an ASCII absent value.
            false
        } else if t.contains('Σ') {
            // Only `str::to_lowercase` knows the final form of sigma.
            let lower = t.to_lowercase();
            self.0.contains(&lower)
        } else {
            // Without a capital sigma, `str::to_lowercase` is the
            // lowercase of each character: compare without allocating.
            self.0
                .iter()
                .any(|a| t.chars().flat_map(char::to_lowercase).eq(a.chars()))
        }
    }
}

/// U+212A, the one non-ASCII character whose lowercase is ASCII (`k`).
const KELVIN_SIGN: char = '\u{212A}';

/// String normalisation (SPEC §2.1): trim, collapse runs of Unicode
/// whitespace to one space, and Unicode lowercase unless `case_sensitive`.
/// (Lowercase, not full case folding: `ß` stays `ß`.)
pub fn normalize_str(s: &str, case_sensitive: bool) -> String {
    let mut out = String::with_capacity(s.len());
    normalize_into(&mut out, s, case_sensitive);
    out
}

/// [`normalize_str`], appended to `out` (no allocation when `out` has room
/// and the text is ASCII or needs no lowercasing).
pub fn normalize_into(out: &mut String, s: &str, case_sensitive: bool) {
    let start = out.len();
    // ASCII without U+000B: `split_ascii_whitespace` splits where
    // `split_whitespace` does (U+000B is white space to the latter only).
    if s.is_ascii() && !s.as_bytes().contains(&0x0B) {
        for (i, word) in s.split_ascii_whitespace().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(word);
        }
        if !case_sensitive {
            out[start..].make_ascii_lowercase();
        }
        return;
    }
    for (i, word) in s.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    if case_sensitive {
        return;
    }
    let added = &mut out[start..];
    if added.is_ascii() {
        added.make_ascii_lowercase();
    } else {
        let lower = added.to_lowercase();
        out.truncate(start);
        out.push_str(&lower);
    }
}

/// Parses a number as SPEC §2.1 reads it. A JSON number is itself; a string
/// may carry currency symbols (Unicode category Sc), spaces and thousands
/// separators:
///
/// * when both `.` and `,` occur, the last one is the decimal separator and
///   the other is a thousands separator (`"1.500,00"` = 1500);
/// * a lone `,` followed by one or two digits that end the string is decimal
///   (`"12,50"` = 12.5); every other comma is a thousands separator
///   (`"1,500"` = 1500);
/// * a single `.` alone is decimal (`"1.500"` = 1.5); several `.` alone are
///   thousands separators (`"1.500.000"` = 1500000; the spec is silent,
///   this is the mirror of the comma rule).
///
/// Returns `None` when the text still does not parse (the caller then
/// compares normalised strings).
///
/// ```
/// use fieldscope::eval::normalize::parse_number;
/// use serde_json::json;
/// assert_eq!(parse_number(&json!("$1,500.00")), Some(1500.0));
/// assert_eq!(parse_number(&json!("1.500,00")), Some(1500.0));
/// assert_eq!(parse_number(&json!("1,5")), Some(1.5));
/// assert_eq!(parse_number(&json!("1.500")), Some(1.5));
/// assert_eq!(parse_number(&json!("abc")), None);
/// ```
pub fn parse_number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64().filter(|x| x.is_finite()),
        Value::String(s) => parse_number_str(s),
        _ => None,
    }
}

/// [`parse_number`] for a value of a forest.
pub fn parse_number_json(value: Json<'_>) -> Option<f64> {
    match value.json_type() {
        JsonType::Number => value.as_f64().filter(|x| x.is_finite()),
        JsonType::String => parse_number_str(value.as_str().unwrap_or_default()),
        _ => None,
    }
}

/// The string case of [`parse_number`].
pub fn parse_number_str(s: &str) -> Option<f64> {
    // Already a plain decimal literal (no space, currency, comma, and at
    // most one dot): what the rules below would leave as it is, without
    // their copies.
    if is_decimal_literal(s) {
        return s.parse::<f64>().ok().filter(|x| x.is_finite());
    }
    parse_number_by_rules(s)
}

/// [`parse_number_str`] by the separator rules, for any text.
fn parse_number_by_rules(s: &str) -> Option<f64> {
    let cleaned = without_spaces_and_currency(s);
    let last_dot = cleaned.rfind('.');
    let last_comma = cleaned.rfind(',');
    let plain: String = match (last_dot, last_comma) {
        (Some(d), Some(c)) => {
            let (decimal, thousands) = if d > c { ('.', ',') } else { (',', '.') };
            let without: String = cleaned.chars().filter(|&ch| ch != thousands).collect();
            if without.matches(decimal).count() != 1 {
                return None;
            }
            without.replace(decimal, ".")
        }
        (None, Some(c)) => {
            let tail = &cleaned[c + 1..];
            let lone = cleaned.matches(',').count() == 1;
            if lone && (1..=2).contains(&tail.len()) && tail.bytes().all(|b| b.is_ascii_digit()) {
                cleaned.replace(',', ".")
            } else {
                cleaned.replace(',', "")
            }
        }
        (Some(_), None) => {
            if cleaned.matches('.').count() == 1 {
                cleaned
            } else {
                cleaned.replace('.', "")
            }
        }
        (None, None) => cleaned,
    };
    if !is_decimal_literal(&plain) {
        return None;
    }
    plain.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// The text of a number without its white space and currency symbols
/// (SPEC §2.1).
fn without_spaces_and_currency(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && !is_currency_symbol(*c))
        .collect()
}

/// Every number a value reads as under any of SPEC §2.1's conventions
/// (SPEC §9.1's `format`): a JSON number as itself; a string as
/// [`parse_number_str`] reads it, and with `.` and then `,` as the decimal
/// separator, the other one a thousands separator only between digit
/// groups of exactly three digits ([`grouped_reading`]). At most three
/// readings, possibly equal; none when the value is not a number or a
/// string.
///
/// ```
/// use fieldscope::eval::normalize::number_readings_str;
/// assert_eq!(number_readings_str("1.500"), vec![1.5, 1.5, 1500.0]);
/// assert_eq!(number_readings_str("1363.26"), vec![1363.26, 1363.26]);
/// assert_eq!(number_readings_str("1,50"), vec![1.5, 1.5]);
/// ```
pub fn number_readings_json(value: Json<'_>) -> Vec<f64> {
    match value.json_type() {
        JsonType::Number => value
            .as_f64()
            .filter(|x| x.is_finite())
            .into_iter()
            .collect(),
        JsonType::String => number_readings_str(value.as_str().unwrap_or_default()),
        _ => Vec::new(),
    }
}

/// The string case of [`number_readings_json`].
pub fn number_readings_str(s: &str) -> Vec<f64> {
    let cleaned = without_spaces_and_currency(s);
    [
        parse_number_str(s),
        grouped_reading(&cleaned, '.', ','),
        grouped_reading(&cleaned, ',', '.'),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// `cleaned` read with `decimal` as the decimal separator (at most once)
/// and `thousands` as a thousands separator only in the integer part and
/// only between digit groups of exactly three digits (the first group,
/// before any separator, has one to three): `[+-]? groups [decimal
/// digits]`. `None` for any other text.
fn grouped_reading(cleaned: &str, decimal: char, thousands: char) -> Option<f64> {
    let unsigned = cleaned.trim_start_matches(['+', '-']);
    let sign = &cleaned[..cleaned.len() - unsigned.len()];
    if sign.len() > 1 {
        return None;
    }
    let (int, frac) = match unsigned.split_once(decimal) {
        Some((i, f)) => (i, Some(f)),
        None => (unsigned, None),
    };
    let digits = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
    if frac.is_some_and(|f| !digits(f)) {
        return None;
    }
    let groups: Vec<&str> = int.split(thousands).collect();
    let grouped = match groups.as_slice() {
        [one] => digits(one),
        [first, rest @ ..] => {
            (1..=3).contains(&first.len())
                && digits(first)
                && rest.iter().all(|g| g.len() == 3 && digits(g))
        }
        [] => false,
    };
    let plain = format!("{sign}{}.{}", groups.concat(), frac.unwrap_or_default());
    if !grouped || groups.concat().len() + frac.map_or(0, str::len) == 0 {
        return None;
    }
    plain.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// `[+-]? digits [. digits] ([eE] [+-]? digits)?` with at least one digit in
/// the mantissa. Rejects `inf`, `NaN`, hex and empty strings.
fn is_decimal_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// Unicode general category Sc (currency symbols), Unicode 15.
fn is_currency_symbol(c: char) -> bool {
    matches!(c,
        '$' | '\u{A2}'..='\u{A5}' | '\u{58F}' | '\u{60B}' | '\u{7FE}' | '\u{7FF}'
        | '\u{9F2}' | '\u{9F3}' | '\u{9FB}' | '\u{AF1}' | '\u{BF9}' | '\u{E3F}'
        | '\u{17DB}' | '\u{20A0}'..='\u{20C0}' | '\u{A838}' | '\u{FDFC}'
        | '\u{FE69}' | '\u{FF04}' | '\u{FFE0}' | '\u{FFE1}' | '\u{FFE5}' | '\u{FFE6}'
        | '\u{11FDD}'..='\u{11FE0}' | '\u{1E2FF}' | '\u{1ECB0}')
}

/// Two numbers are equal when |a − b| ≤ tolerance after rounding both to 6
/// decimals (SPEC §2.1). The comparison is done in whole millionths so that
/// binary floating point cannot make `100.01 − 100.00` exceed a tolerance
/// of `0.01`.
pub fn numbers_equal(a: f64, b: f64, tolerance: f64) -> bool {
    micros_equal((a, micros(a)), (b, micros(b)), tolerance, micros(tolerance))
}

/// `x` in whole millionths, rounded (SPEC §2.1's six decimals).
pub fn micros(x: f64) -> f64 {
    (x * 1e6).round()
}

/// [`numbers_equal`] for numbers given with their [`micros`] (so that a
/// number compared many times is rounded once).
pub fn micros_equal(
    (a, ma): (f64, f64),
    (b, mb): (f64, f64),
    tolerance: f64,
    tolerance_micros: f64,
) -> bool {
    if !ma.is_finite() || !mb.is_finite() {
        return a == b;
    }
    // Beyond 2^53 millionths f64 no longer holds every integer; compare the
    // values themselves there.
    if ma.abs() > 9.0e15 || mb.abs() > 9.0e15 {
        return (a - b).abs() <= tolerance;
    }
    (ma - mb).abs() <= tolerance_micros
}

/// Numeric strings (SPEC §2.1, `numeric_string_fields`): compared as
/// integers after removing leading zeros (`"0001"` = `"1"`). Returns `None`
/// when either side is not an integer; the caller compares strings then.
pub fn numeric_strings_equal(t: &str, p: &str) -> Option<bool> {
    fn digits(s: &str) -> Option<&str> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let stripped = s.trim_start_matches('0');
        Some(if stripped.is_empty() { "0" } else { stripped })
    }
    Some(digits(t)? == digits(p)?)
}

/// Reads a calendar date (SPEC §2.1): ISO 8601 (`YYYY-MM-DD`, optionally
/// followed by `T` or a space and a time, and a zone; the date is taken as
/// written), `D.M.YYYY` (always day first), and `D/M/YYYY` or `M/D/YYYY`
/// by `date_order`. Month names and two-digit years are not parsed.
///
/// ```
/// use fieldscope::eval::normalize::parse_date;
/// use fieldscope::eval::DateOrder;
/// let d = parse_date("2025-01-15T00:00:00", DateOrder::Dmy);
/// assert_eq!(d, parse_date("15.1.2025", DateOrder::Mdy));
/// assert_eq!(d, parse_date("1/15/2025", DateOrder::Mdy));
/// assert_eq!(d, parse_date("15/01/2025", DateOrder::Dmy));
/// assert_eq!(parse_date("15/01/25", DateOrder::Dmy), None);
/// ```
pub fn parse_date(s: &str, order: crate::eval::DateOrder) -> Option<NaiveDate> {
    let s = s.trim();
    if let Some(d) = parse_iso(s) {
        return Some(d);
    }
    for (sep, day_first) in [('.', true), ('/', order == crate::eval::DateOrder::Dmy)] {
        let parts: Vec<&str> = s.split(sep).collect();
        if let [a, b, y] = parts.as_slice() {
            let small =
                |x: &str| (1..=2).contains(&x.len()) && x.bytes().all(|c| c.is_ascii_digit());
            if small(a) && small(b) && y.len() == 4 && y.bytes().all(|c| c.is_ascii_digit()) {
                let (a, b, y): (u32, u32, i32) =
                    (a.parse().ok()?, b.parse().ok()?, y.parse().ok()?);
                let (day, month) = if day_first { (a, b) } else { (b, a) };
                return NaiveDate::from_ymd_opt(y, month, day);
            }
        }
    }
    None
}

/// `YYYY-MM-DD` with an optional time part.
fn parse_iso(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() < 10 {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(|c| c.is_ascii_digit());
    if !(digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)) {
        return None;
    }
    let rest = &s[10..];
    if !rest.is_empty() && !is_iso_time(rest) {
        return None;
    }
    let y: i32 = s[0..4].parse().ok()?;
    let m: u32 = s[5..7].parse().ok()?;
    let d: u32 = s[8..10].parse().ok()?;
    NaiveDate::from_ymd_opt(y, m, d)
}

/// `T` or space, `HH:MM[:SS[.fff]]`, then optionally `Z` or `±HH[:MM]`.
fn is_iso_time(rest: &str) -> bool {
    let b = rest.as_bytes();
    if b[0] != b'T' && b[0] != b't' && b[0] != b' ' {
        return false;
    }
    let t = &b[1..];
    let two = |i: usize| t.len() >= i + 2 && t[i].is_ascii_digit() && t[i + 1].is_ascii_digit();
    let value = |i: usize| u32::from(t[i] - b'0') * 10 + u32::from(t[i + 1] - b'0');
    // Hours 00–23, minutes 00–59, seconds 00–60 (a leap second).
    if !(two(0) && t.len() >= 5 && t[2] == b':' && two(3)) || value(0) > 23 || value(3) > 59 {
        return false;
    }
    let mut i = 5;
    if t.len() > i && t[i] == b':' {
        if !two(i + 1) || value(i + 1) > 60 {
            return false;
        }
        i += 3;
        if t.len() > i && (t[i] == b'.' || t[i] == b',') {
            i += 1;
            let start = i;
            while i < t.len() && t[i].is_ascii_digit() {
                i += 1;
            }
            if i == start {
                return false;
            }
        }
    }
    let zone = &t[i..];
    match zone {
        [] | [b'Z'] | [b'z'] => true,
        [b'+' | b'-', h1, h2] => h1.is_ascii_digit() && h2.is_ascii_digit(),
        [b'+' | b'-', h1, h2, b':', m1, m2] | [b'+' | b'-', h1, h2, m1, m2] => {
            [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit())
        }
        _ => false,
    }
}

/// Reads a boolean: a JSON boolean, or the string `true`/`false` in any case.
pub fn parse_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) => parse_bool_str(s),
        _ => None,
    }
}

/// [`parse_bool`] for a value of a forest.
pub fn parse_bool_json(value: Json<'_>) -> Option<bool> {
    value
        .as_bool()
        .or_else(|| value.as_str().and_then(parse_bool_str))
}

fn parse_bool_str(s: &str) -> Option<bool> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("true") {
        Some(true)
    } else if t.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::DateOrder;
    use serde_json::json;

    #[test]
    fn absent_values_are_trimmed_and_case_insensitive() {
        let a = AbsentValues::new(&["NOT_FOUND".into(), "N/A".into(), "".into()]);
        for v in [
            json!(null),
            json!([]),
            json!(" not_found "),
            json!("n/a"),
            json!("   "),
            json!(""),
        ] {
            assert!(a.is_absent(Some(&v)), "{v}");
        }
        assert!(a.is_absent(None));
        for v in [
            json!(0),
            json!(false),
            json!("NOT FOUND"),
            json!(["x"]),
            json!("na"),
        ] {
            assert!(!a.is_absent(Some(&v)), "{v}");
        }
        let none = AbsentValues::new(&[]);
        assert!(!none.is_absent(Some(&json!(""))));
        let unicode = AbsentValues::new(&["KEINE ANGABE".into()]);
        assert!(unicode.is_absent(Some(&json!("keine angabe"))));
        let umlaut = AbsentValues::new(&["ÜBERSPRUNGEN".into()]);
        assert!(umlaut.is_absent(Some(&json!("übersprungen"))));
    }

    #[test]
    fn absent_values_lowercase_like_str_to_lowercase() {
        let a = AbsentValues::new(&["ΟΔΟΣ".into(), "kelvin".into(), "i\u{307}x".into()]);
        // Final sigma: "ΟΔΟΣ" lowercases to "οδος".
        assert!(a.is_absent_str("ΟΔΟΣ"));
        assert!(a.is_absent_str("οδος"));
        assert!(!a.is_absent_str("οδοσ"));
        // U+212A KELVIN SIGN lowercases to ASCII k; U+0130 to i + U+0307.
        assert!(a.is_absent_str("\u{212A}ELVIN"));
        assert!(a.is_absent_str("\u{130}X"));
        assert!(!a.is_absent_str("\u{130}Y"));
    }

    /// The length bound that rejects long strings early never rejects a
    /// string whose lowercase is an absent value: every character, twice,
    /// against its own lowercase.
    #[test]
    fn the_length_bound_keeps_every_lowercase_match() {
        for c in (0..=char::MAX as u32).filter_map(char::from_u32) {
            let s: String = [c, c].iter().collect();
            let lower = s.to_lowercase();
            if lower.trim() != lower || lower.is_empty() {
                continue;
            }
            let a = AbsentValues::new(std::slice::from_ref(&lower));
            assert!(a.is_absent_str(&s), "{c:?}");
        }
        let a = AbsentValues::new(&["NOT_FOUND".into()]);
        assert!(!a.is_absent_str(&"NOT_FOUND".repeat(5)));
    }

    #[test]
    fn only_the_kelvin_sign_lowercases_to_ascii() {
        let to_ascii: Vec<char> = (0..=char::MAX as u32)
            .filter_map(char::from_u32)
            .filter(|c| !c.is_ascii() && c.to_lowercase().all(|l| l.is_ascii()))
            .collect();
        assert_eq!(to_ascii, [KELVIN_SIGN]);
        let a = AbsentValues::new(&["NOT_FOUND".into()]);
        assert!(a.is_absent_str("NOT_FOUND"));
        assert!(!a.is_absent_str("NOT_FOUNDé"));
        let kelvin = AbsentValues::new(&["kelvin".into()]);
        assert!(kelvin.is_absent_str("\u{212A}ELVIN"));
        assert!(!kelvin.is_absent_str("\u{212A}ELVİN"));
    }

    #[test]
    fn ascii_and_unicode_whitespace_collapse_alike() {
        for s in [
            "a\u{0B}b",
            "a\u{0C}b",
            " a \t\r\n b ",
            "a\u{85}b",
            "a\u{A0}b",
            "A\u{1C}B",
            "",
            "  ",
            "MiXeD Case",
        ] {
            let general: String = s
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            assert_eq!(normalize_str(s, false), general, "{s:?}");
        }
    }

    #[test]
    fn strings_are_trimmed_collapsed_and_lowercased() {
        assert_eq!(normalize_str("  Hello\t\n  World  ", false), "hello world");
        assert_eq!(normalize_str("ÉCOLE\u{00A0}Straße", false), "école straße");
        assert_eq!(normalize_str("ÉCOLE", true), "ÉCOLE");
        assert_eq!(normalize_str("", false), "");
        assert_eq!(normalize_str("𝔸 b", false), "𝔸 b");
    }

    #[test]
    fn plain_literals_read_as_the_rules_read_them() {
        for s in [
            "12",
            "-3.5",
            "+7",
            "1e3",
            "2.5E-2",
            "1.",
            ".5",
            "000120.5000",
            "0",
            "-0",
            "1e400",
            "123456789012345678901234567890",
            "4.99",
        ] {
            assert!(is_decimal_literal(s), "{s}");
            assert_eq!(
                parse_number_str(s).map(f64::to_bits),
                parse_number_by_rules(s).map(f64::to_bits),
                "{s}"
            );
        }
        assert_eq!(parse_number_str("1e400"), None);
        assert_eq!(parse_number_str("000120.5000"), Some(120.5));
    }

    #[test]
    fn numbers_follow_the_separator_rules() {
        let cases = [
            ("$1,500.00", Some(1500.0)),
            ("1.500,00", Some(1500.0)),
            ("1,5", Some(1.5)),
            ("12,50", Some(12.5)),
            ("1,500", Some(1500.0)),
            ("1.500", Some(1.5)),
            ("1,234,567.89", Some(1234567.89)),
            ("1.234.567,89", Some(1234567.89)),
            ("1.500.000", Some(1500000.0)),
            ("€ 1 500,00", Some(1500.0)),
            ("1 500,00 €", Some(1500.0)),
            ("-12.5", Some(-12.5)),
            ("£3", Some(3.0)),
            ("₹1,00,000", Some(100000.0)),
            ("1,2,3", Some(123.0)),
            ("1,50,", Some(150.0)),
            ("abc", None),
            ("", None),
            ("NaN", None),
            ("inf", None),
            ("1e3", Some(1000.0)),
            ("12%", None),
            ("1.2.3,4,5", None),
        ];
        for (s, want) in cases {
            assert_eq!(parse_number_str(s), want, "{s}");
        }
        assert_eq!(parse_number(&json!(1500)), Some(1500.0));
        assert_eq!(parse_number(&json!(true)), None);
    }

    #[test]
    fn numbers_compare_after_rounding_to_six_decimals() {
        assert!(numbers_equal(1500.0, 1500.0, 0.0));
        assert!(numbers_equal(0.1 + 0.2, 0.3, 0.0));
        assert!(numbers_equal(1.0000004, 1.0, 0.0));
        assert!(!numbers_equal(1.000001, 1.0, 0.0));
        assert!(numbers_equal(100.01, 100.0, 0.01));
        assert!(!numbers_equal(100.02, 100.0, 0.01));
        assert!(numbers_equal(1e300, 1e300, 0.0));
    }

    #[test]
    fn numeric_strings_ignore_leading_zeros() {
        assert_eq!(numeric_strings_equal("0001", "1"), Some(true));
        assert_eq!(numeric_strings_equal("000", "0"), Some(true));
        assert_eq!(numeric_strings_equal("0012", "120"), Some(false));
        assert_eq!(numeric_strings_equal("12a", "12"), None);
        assert_eq!(numeric_strings_equal("-1", "1"), None);
    }

    #[test]
    fn dates_parse_iso_day_first_and_by_order() {
        let d = NaiveDate::from_ymd_opt(2025, 1, 15);
        assert_eq!(parse_date("2025-01-15", DateOrder::Dmy), d);
        assert_eq!(parse_date("2025-01-15T00:00:00", DateOrder::Dmy), d);
        assert_eq!(
            parse_date("2025-01-15T23:59:59.123+05:00", DateOrder::Dmy),
            d
        );
        assert_eq!(parse_date("2025-01-15 10:30Z", DateOrder::Dmy), d);
        assert_eq!(parse_date("15.01.2025", DateOrder::Mdy), d);
        assert_eq!(parse_date("15/1/2025", DateOrder::Dmy), d);
        assert_eq!(parse_date("1/15/2025", DateOrder::Mdy), d);
        assert_eq!(parse_date("1/15/2025", DateOrder::Dmy), None);
        assert_eq!(parse_date("15/01/25", DateOrder::Dmy), None);
        assert_eq!(parse_date("15 January 2025", DateOrder::Dmy), None);
        assert_eq!(parse_date("2025-02-30", DateOrder::Dmy), None);
        assert_eq!(parse_date("2025-01-15Tnoon", DateOrder::Dmy), None);
        assert_eq!(parse_date("2025-01-15T24:00", DateOrder::Dmy), None);
        assert_eq!(parse_date("2025-01-15T23:60", DateOrder::Dmy), None);
        assert_eq!(parse_date("2025-01-15T23:59:61", DateOrder::Dmy), None);
        assert_eq!(parse_date("2025-01-15T23:59:60Z", DateOrder::Dmy), d);
        assert_eq!(parse_date("", DateOrder::Dmy), None);
    }

    #[test]
    fn booleans() {
        assert_eq!(parse_bool(&json!(true)), Some(true));
        assert_eq!(parse_bool(&json!(" FALSE ")), Some(false));
        assert_eq!(parse_bool(&json!("yes")), None);
        assert_eq!(parse_bool(&json!(1)), None);
    }
}
