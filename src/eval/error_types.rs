//! Error types (SPEC §9.1): why an outcome that is not `exact` went wrong.
//!
//! Owns: the error type of one outcome — the five tests of a pair whose
//! truth and prediction are both present (`format`, `scale`, `swapped`,
//! `near_miss`, `wrong`, in that precedence) and the two outcomes that keep
//! their names (`missed`, `spurious`) — and adding error types to
//! [`ErrorCounts`]. Pure; depends on `compare` (sides, the exact-match rule
//! of §2.3), `normalize` (§2.1's number and date readings), the config and
//! the report's types. The pass (`evaluate::record`) asks only for the
//! outcomes that are `partial` or `incorrect`, so a plain evaluation pays
//! nothing for the exact ones.
//!
//! Readings of the SPEC chosen here are in `docs/error-analysis.md`.

use crate::eval::compare::{Comparer, Side, ValueType};
use crate::eval::config::DateOrder;
use crate::eval::normalize::{number_readings_json, numbers_equal, parse_date};
use crate::eval::report::{ErrorCounts, ErrorType, Outcome};
use std::ops::AddAssign;
use unicode_general_category::{get_general_category, GeneralCategory as G};

impl ErrorCounts {
    /// Adds one error.
    pub fn record(&mut self, error: ErrorType) {
        *self.slot(error) += 1;
    }

    /// The count of one error type.
    pub fn get(&self, error: ErrorType) -> u64 {
        match error {
            ErrorType::Format => self.format,
            ErrorType::Scale => self.scale,
            ErrorType::Swapped => self.swapped,
            ErrorType::NearMiss => self.near_miss,
            ErrorType::Wrong => self.wrong,
            ErrorType::Missed => self.missed,
            ErrorType::Spurious => self.spurious,
        }
    }

    fn slot(&mut self, error: ErrorType) -> &mut u64 {
        match error {
            ErrorType::Format => &mut self.format,
            ErrorType::Scale => &mut self.scale,
            ErrorType::Swapped => &mut self.swapped,
            ErrorType::NearMiss => &mut self.near_miss,
            ErrorType::Wrong => &mut self.wrong,
            ErrorType::Missed => &mut self.missed,
            ErrorType::Spurious => &mut self.spurious,
        }
    }

    /// Every error: `partial` + `incorrect` + `missed` + `spurious` of the
    /// same outcomes.
    pub fn total(&self) -> u64 {
        ErrorType::ALL.iter().map(|&e| self.get(e)).sum()
    }
}

impl AddAssign for ErrorCounts {
    fn add_assign(&mut self, o: ErrorCounts) {
        for e in ErrorType::ALL {
            *self.slot(e) += o.get(e);
        }
    }
}

impl ErrorType {
    /// The error type an outcome has by its name alone: `missed` and
    /// `spurious`; `None` for the others (`exact` and `true_negative` are
    /// no error; `partial` and `incorrect` need [`classify`]).
    pub fn of_outcome(outcome: Outcome) -> Option<ErrorType> {
        match outcome {
            Outcome::Missed => Some(ErrorType::Missed),
            Outcome::Spurious => Some(ErrorType::Spurious),
            _ => None,
        }
    }
}

/// Another present field's truth that a prediction may belong to
/// (`swapped`): a key the caller names it by, its name (the per-field
/// table's), how that field is compared, and its truth value.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'s, K> {
    pub key: K,
    pub name: &'s str,
    pub ty: ValueType,
    pub truth: Side<'s>,
}

/// The error type of a pair whose truth `t` and prediction `p` are both
/// present and whose outcome is not `exact` (SPEC §9.1), the first that
/// holds:
///
/// 1. `format` ([`is_format`]);
/// 2. `scale` ([`is_scale`]);
/// 3. `swapped`: `p` is an exact match (§2.3, under that field's
///    comparison) for the truth of one of `others` — the one first by name
///    (the first given among equal names), whose key is returned beside;
/// 4. `near_miss`: `similarity` (§2.2, of the normalised texts) ≥
///    `errors.near_miss`;
/// 5. `wrong`.
pub fn classify<'s, K>(
    comparer: &Comparer<'_>,
    ty: ValueType,
    t: &Side<'_>,
    p: &Side<'_>,
    similarity: f64,
    others: impl IntoIterator<Item = Candidate<'s, K>>,
) -> (ErrorType, Option<K>) {
    if is_format(comparer, ty, t, p) {
        return (ErrorType::Format, None);
    }
    if is_scale(comparer, t, p) {
        return (ErrorType::Scale, None);
    }
    let mut belongs: Option<Candidate<'s, K>> = None;
    for c in others {
        if belongs.as_ref().is_some_and(|b| b.name <= c.name) {
            continue;
        }
        if comparer.is_exact(c.ty, &c.truth, p) {
            belongs = Some(c);
        }
    }
    if let Some(c) = belongs {
        return (ErrorType::Swapped, Some(c.key));
    }
    if similarity >= comparer.config.errors.near_miss {
        (ErrorType::NearMiss, None)
    } else {
        (ErrorType::Wrong, None)
    }
}

/// `format` (SPEC §9.1 rule 1). Numbers: equal (§2.1's equality, with
/// `numeric_tolerance`) when each side is read under any of §2.1's
/// conventions ([`number_readings_json`]). Dates: equal when each side is
/// read in either date order. A side of a number or date field that has
/// no such reading is compared as §2.1 compares it then, as a string; and
/// every other value is equal when both sides, reduced to their letters
/// and digits (Unicode categories L and N) and lowercased, are.
pub fn is_format(comparer: &Comparer<'_>, ty: ValueType, t: &Side<'_>, p: &Side<'_>) -> bool {
    let tolerance = comparer.config.numeric_tolerance;
    match ty {
        ValueType::Number => {
            let (a, b) = (number_readings_json(t.value), number_readings_json(p.value));
            if !a.is_empty() && !b.is_empty() {
                return a
                    .iter()
                    .any(|&x| b.iter().any(|&y| numbers_equal(x, y, tolerance)));
            }
        }
        ValueType::Date => {
            let (a, b) = (date_readings(t), date_readings(p));
            if a.iter().any(Option::is_some) && b.iter().any(Option::is_some) {
                return a
                    .iter()
                    .flatten()
                    .any(|x| b.iter().flatten().any(|y| x == y));
            }
        }
        _ => {}
    }
    letters(&t.value.text()).eq(letters(&p.value.text()))
}

/// A date in both orders (ISO 8601 and `D.M.YYYY` read the same in both).
fn date_readings(s: &Side<'_>) -> [Option<chrono::NaiveDate>; 2] {
    let text = s.value.text();
    [
        parse_date(&text, DateOrder::Dmy),
        parse_date(&text, DateOrder::Mdy),
    ]
}

/// The letters and digits of `s` (Unicode general categories L and N),
/// in order, lowercased (Unicode lowercase, as §2.1's strings).
///
/// ```
/// use fieldscope::eval::error_types::letters_and_digits;
/// assert_eq!(letters_and_digits("INV-2024/0042"), "inv20240042");
/// assert_eq!(letters_and_digits("Ørsted A/S ②"), "ørstedas②");
/// ```
pub fn letters_and_digits(s: &str) -> String {
    letters(s).collect()
}

/// [`letters_and_digits`] as an iterator (compared without a copy).
fn letters(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars()
        .filter(|&c| {
            matches!(
                get_general_category(c),
                G::UppercaseLetter
                    | G::LowercaseLetter
                    | G::TitlecaseLetter
                    | G::ModifierLetter
                    | G::OtherLetter
                    | G::DecimalNumber
                    | G::LetterNumber
                    | G::OtherNumber
            )
        })
        .flat_map(char::to_lowercase)
}

/// `scale` (SPEC §9.1 rule 2): both sides read as non-zero numbers (§2.1's
/// reading, whatever the field's type) and one is the other times 10^k for
/// an integer k with 1 ≤ |k| ≤ 6, "is" being §2.1's equality (six
/// decimals, `numeric_tolerance`).
pub fn is_scale(comparer: &Comparer<'_>, t: &Side<'_>, p: &Side<'_>) -> bool {
    let (Some(a), Some(b)) = (t.number(), p.number()) else {
        return false;
    };
    let (a, b) = (a.0, b.0);
    if a == 0.0 || b == 0.0 {
        return false;
    }
    let (small, big) = if a.abs() <= b.abs() { (a, b) } else { (b, a) };
    let tolerance = comparer.config.numeric_tolerance;
    (1..=6).any(|k| numbers_equal(small * 10f64.powi(k), big, tolerance))
}

#[cfg(test)]
mod tests;
