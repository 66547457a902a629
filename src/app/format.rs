//! Number formatting for the page (the exports have their own).

/// A ratio with 4 decimals.
pub fn ratio(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        "—".into()
    }
}

/// An optional ratio; `—` for "not applicable".
pub fn opt_ratio(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), ratio)
}

/// The full-precision text of a number for `data-value` (`null` for none).
pub fn full(x: Option<f64>) -> String {
    x.map_or_else(|| "null".into(), |v| v.to_string())
}

/// A cost: up to 4 decimals, trimmed.
pub fn cost(x: Option<f64>) -> String {
    match x {
        None => "—".into(),
        Some(v) => {
            let s = format!("{v:.4}");
            let s = s.trim_end_matches('0').trim_end_matches('.');
            s.to_string()
        }
    }
}

/// A share as a percentage with one decimal.
pub fn percent(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// Untrusted text as the page shows it: control characters, bidirectional
/// controls and zero-width spaces made visible as `[U+202E]` (the exports'
/// rule, `export::show_hidden`), so that a value cannot hide or reorder
/// what a reader sees. Leptos sets it as text, never as HTML.
pub fn shown(text: &str) -> String {
    crate::export::show_hidden(text).into_owned()
}

/// A value as the panels show it: a string as it is, anything else its
/// JSON text, an absent one `—` (hidden characters made visible).
pub fn text_of(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "—".into(),
        serde_json::Value::String(s) => shown(s),
        other => shown(&other.to_string()),
    }
}
