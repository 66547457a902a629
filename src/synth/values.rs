//! How the synthetic records write values: JSONL lines, `NOT_FOUND`, ISO
//! dates, amounts in minor units as JSON numbers or as formatted text.
//!
//! Owns: value text only; draws nothing. May depend on the tables.

use super::tables::{MoneyStyle, NOT_FOUND};
use chrono::{Datelike, NaiveDate};
use serde_json::{json, Map, Value};

pub(super) fn push_line(out: &mut String, value: &Value) {
    out.push_str(&value.to_string());
    out.push('\n');
}

pub(super) fn put(map: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        map.insert(key.into(), value);
    }
}

pub(super) fn or_not_found(value: Option<String>) -> Value {
    Value::String(value.unwrap_or_else(|| NOT_FOUND.into()))
}

pub(super) fn iso(date: NaiveDate) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), date.month(), date.day())
}

/// `minor / 10^decimals` as a JSON number; an integer when it is whole.
pub(super) fn decimal(minor: i64, decimals: u32) -> Value {
    let scale = 10i64.pow(decimals);
    if minor % scale == 0 {
        json!(minor / scale)
    } else {
        json!(minor as f64 / scale as f64)
    }
}

/// Rounds `a / b` half up, for non-negative `a` and positive `b`.
pub(super) fn round_div(a: i64, b: i64) -> i64 {
    (a + b / 2) / b
}

/// `123450` with 2 decimals in a style: `"1.234,50 €"`, `"$1,234.50"`.
pub(super) fn format_money(minor: i64, decimals: u32, style: &MoneyStyle) -> String {
    let scale = 10i64.pow(decimals);
    let digits = (minor / scale).to_string();
    let mut number = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            number.push(style.group);
        }
        number.push(c);
    }
    if decimals > 0 {
        number.push(style.decimal);
        number.push_str(&format!(
            "{:0width$}",
            minor % scale,
            width = decimals as usize
        ));
    }
    match (style.symbol, style.symbol_first) {
        ("", _) => number,
        (symbol, true) => format!("{symbol}{number}"),
        (symbol, false) => format!("{number} {symbol}"),
    }
}
