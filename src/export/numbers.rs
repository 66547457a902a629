//! How a table number is printed and which value of a column is best:
//! the options every exporter takes ([`ExportOptions`]), [`Number`] and its
//! rounding, [`best_of`], and configured numbers as the JSON writes them.
//!
//! Owns: number text for Markdown, LaTeX and HTML tables. Depends on
//! nothing else in the crate; every format and the app read it through
//! `export`'s re-exports.

/// Options shared by the exporters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportOptions {
    /// Decimals of the ratios (precision, recall, F1, accuracy, rates, CER)
    /// in Markdown, LaTeX and HTML, and the most decimals M_total is printed
    /// with. Default 4.
    /// JSON and CSV ignore it: they carry numbers at full precision. Values
    /// above [`MAX_DECIMALS`] are taken as [`MAX_DECIMALS`].
    pub decimals: usize,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions { decimals: 4 }
    }
}

/// The most decimals a table prints: an `f64` ratio carries about 17
/// significant digits, so more would only print noise.
pub const MAX_DECIMALS: usize = 17;

/// The decimals a cost is printed with at most (Markdown, LaTeX, HTML).
const COST_DECIMALS: usize = 4;

/// A number in a Markdown, LaTeX or HTML table, tagged with what it is; the tag
/// decides how [`Number::format`] prints it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Number {
    /// Precision, recall, F1, accuracy: exactly `decimals` decimals
    /// (`0.6667`, `1.0000`).
    Ratio(f64),
    /// M_total, a sum of credits (a multiple of 0.5): up to `decimals`
    /// decimals, trailing zeros trimmed, at least one kept (`12.5`, `12.0`).
    Credit(f64),
    /// |Pred|, |Truth| and other counts: an integer.
    Count(u64),
    /// A cost: up to 4 decimals, trailing zeros trimmed, at least one kept
    /// (`0.0123`, `1.5`, `2.0`). A non-zero cost too small to show at 4
    /// decimals gets two significant digits (`0.000041`) instead of reading
    /// as free.
    Cost(f64),
}

impl Number {
    /// The text of the number as the tables print it. Rounding is to
    /// nearest on the exact binary value (Rust's `{:.N}`); a value that
    /// rounds to zero never prints a minus sign; NaN and infinities print as
    /// `NaN`, `inf`, `-inf` (the report should never contain them).
    pub(crate) fn format(self, options: &ExportOptions) -> String {
        let decimals = options.decimals.min(MAX_DECIMALS);
        match self {
            Number::Ratio(x) => fixed(x, decimals),
            Number::Credit(x) => trimmed(x, decimals.max(1)),
            Number::Count(n) => n.to_string(),
            Number::Cost(x) => {
                let text = trimmed(x, COST_DECIMALS);
                if x != 0.0 && x.is_finite() && text.parse::<f64>() == Ok(0.0) {
                    // The first significant digit is at decimal
                    // ceil(-log10 |x|); show one more.
                    let first = (-x.abs().log10()).ceil() as usize;
                    trimmed(x, (first + 1).min(20))
                } else {
                    text
                }
            }
        }
    }
}

/// `x` with exactly `decimals` decimals, never `-0.00`.
pub(super) fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(unsigned) if unsigned.parse::<f64>() == Ok(0.0) => unsigned.to_string(),
        _ => text,
    }
}

/// `x` with at most `decimals` (≥ 1) decimals, trailing zeros trimmed but
/// one decimal kept.
fn trimmed(x: f64, decimals: usize) -> String {
    let text = fixed(x, decimals.max(1));
    if !x.is_finite() || !text.contains('.') {
        return text;
    }
    let text = text.trim_end_matches('0');
    if text.ends_with('.') {
        format!("{text}0")
    } else {
        text.to_string()
    }
}

/// Which end of a column is best.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Best {
    Highest,
    Lowest,
}

/// Marks the best values of a column: `true` at every position holding the
/// best value (ties are all best). Pass the values *as printed* (parsed
/// back from their text) so that two cells that read the same are ranked
/// the same. `None`, NaN and infinities are not ranked; when fewer than two
/// values are ranked, nothing is best (a column of one model has no
/// winner).
pub(crate) fn best_of(values: &[Option<f64>], best: Best) -> Vec<bool> {
    let ranked: Vec<f64> = values
        .iter()
        .flatten()
        .copied()
        .filter(|x| x.is_finite())
        .collect();
    if ranked.len() < 2 {
        return vec![false; values.len()];
    }
    let target = match best {
        Best::Highest => ranked.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Best::Lowest => ranked.iter().copied().fold(f64::INFINITY, f64::min),
    };
    values.iter().map(|value| *value == Some(target)).collect()
}

/// A configured number as the report's JSON writes it (`0.85`, `2.0`,
/// `0.0`), for captions that quote the configuration.
pub fn json_number(x: f64) -> String {
    serde_json::Value::from(x).to_string()
}
