//! Suggestions of field types (SPEC §7.4): which string-compared paths
//! the truth says are really numbers or dates.
//!
//! Owns: [`PathTally`] (what the learn pass counts of one path's present
//! truth values; summable, so that tallies of parts of a dataset merge by
//! `+`) and [`suggest`] (the decision, once, from the merged tallies).
//! Pure; depends on `normalize` (the Numbers and Dates rules of §2.1),
//! `tree` and the report's [`Suggestion`].

use crate::eval::config::DateOrder;
use crate::eval::normalize::{parse_date, parse_number_json};
use crate::eval::report::Suggestion;
use crate::eval::tree::{Json, JsonType};
use std::ops::{Add, AddAssign};

/// The least number of present truth values a suggestion needs.
pub const MIN_VALUES: u64 = 5;
/// The least share (in percent) of them that must read as the type.
pub const MIN_PERCENT: u64 = 95;

/// What one path's present truth values are: how many, how many are not
/// JSON strings, and how many of the strings read as numbers by §2.1's
/// Numbers rule and as dates by its Dates rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PathTally {
    pub present: u64,
    pub non_strings: u64,
    pub numbers: u64,
    pub dates: u64,
}

impl PathTally {
    /// Counts one present truth value. Shortcuts that never change
    /// [`Self::decide`], here or on a sum of tallies: once a non-string
    /// was seen no suggestion can follow (the sum keeps `non_strings > 0`),
    /// so strings are not read any more; a text with a letter other than
    /// `e`/`E` is no number (Rust's float syntax takes no other letter but
    /// in `inf`/`nan`, which are not finite), and a date starts with a
    /// digit (ISO, `D.M.YYYY`, `D/M/YYYY`), after trimming.
    pub fn add_value(&mut self, value: Json<'_>, date_order: DateOrder) {
        self.present += 1;
        if value.json_type() != JsonType::String {
            self.non_strings += 1;
            return;
        }
        if self.non_strings > 0 {
            return;
        }
        let text = value.as_str().unwrap_or_default();
        let no_letter = !text
            .chars()
            .any(|c| c.is_alphabetic() && c != 'e' && c != 'E');
        if no_letter && parse_number_json(value).is_some() {
            self.numbers += 1;
        }
        let digit_first = text.trim_start().starts_with(|c: char| c.is_ascii_digit());
        if digit_first && parse_date(text, date_order).is_some() {
            self.dates += 1;
        }
    }

    /// The suggested type and its share, if any (SPEC §7.4): every present
    /// value a string, at least [`MIN_VALUES`] of them, and at least
    /// [`MIN_PERCENT`] % reading as numbers — or, failing that, as dates.
    /// Compared in integers, so no rounding decides.
    pub fn decide(&self) -> Option<(&'static str, f64)> {
        if self.non_strings > 0 || self.present < MIN_VALUES {
            return None;
        }
        let enough = |n: u64| n * 100 >= MIN_PERCENT * self.present;
        let share = |n: u64| n as f64 / self.present as f64;
        if enough(self.numbers) {
            Some(("number", share(self.numbers)))
        } else if enough(self.dates) {
            Some(("date", share(self.dates)))
        } else {
            None
        }
    }
}

impl PathTally {
    /// This tally's values followed by `later`'s, counted exactly as
    /// [`Self::add_value`] counts them one by one — its shortcut
    /// included: once this tally saw a non-string, `later`'s strings are
    /// not read (their `numbers` and `dates` are not added). The kinds
    /// pass on several threads sums its shares with it, in document order.
    pub fn then(self, later: PathTally) -> PathTally {
        if self.non_strings == 0 {
            return self + later;
        }
        PathTally {
            present: self.present + later.present,
            non_strings: self.non_strings + later.non_strings,
            ..self
        }
    }
}

impl Add for PathTally {
    type Output = PathTally;
    fn add(self, o: PathTally) -> PathTally {
        PathTally {
            present: self.present + o.present,
            non_strings: self.non_strings + o.non_strings,
            numbers: self.numbers + o.numbers,
            dates: self.dates + o.dates,
        }
    }
}

impl AddAssign for PathTally {
    fn add_assign(&mut self, o: PathTally) {
        *self = *self + o;
    }
}

/// The suggestions of SPEC §7.4 for `paths` — (path, tally) of every path
/// compared as strings (no `field_types`, no schema type, no shorthand),
/// scalar or item fields — in field order (sorted by path, as the
/// per-field table).
pub fn suggest<'a>(paths: impl IntoIterator<Item = (&'a str, PathTally)>) -> Vec<Suggestion> {
    let mut out: Vec<Suggestion> = paths
        .into_iter()
        .filter_map(|(path, tally)| {
            let (ty, share) = tally.decide()?;
            Some(Suggestion {
                field: path.to_string(),
                r#type: ty.to_string(),
                share,
                config: serde_json::json!({ "field_types": { path: ty } }),
            })
        })
        .collect();
    out.sort_by(|a, b| a.field.cmp(&b.field));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tree::Forest;
    use serde_json::json;

    fn tally(values: &[serde_json::Value]) -> PathTally {
        let mut forest = Forest::default();
        let mut t = PathTally::default();
        for v in values {
            let id = forest.add_value(v).expect("value");
            t.add_value(forest.get(id), DateOrder::Dmy);
        }
        t
    }

    #[test]
    fn numbers_need_five_strings_and_95_percent() {
        let five = [
            json!("1108605.0"),
            json!("1,5"),
            json!("$3"),
            json!("7"),
            json!("9"),
        ];
        assert_eq!(tally(&five).decide(), Some(("number", 1.0)));
        assert_eq!(tally(&five[..4]).decide(), None);
        // 19 of 20 = 95 % reads as numbers; 18 of 20 does not.
        let mut v: Vec<_> = (0..19).map(|i| json!(i.to_string())).collect();
        v.push(json!("x"));
        assert_eq!(tally(&v).decide(), Some(("number", 0.95)));
        v[0] = json!("y");
        assert_eq!(tally(&v).decide(), None);
        // One JSON number among the strings: no suggestion.
        let mut v = five.to_vec();
        v.push(json!(3));
        assert_eq!(tally(&v).decide(), None);
    }

    #[test]
    fn dates_only_when_numbers_fail() {
        let v: Vec<_> = (1..=5).map(|d| json!(format!("2024-01-{d:02}"))).collect();
        assert_eq!(tally(&v).decide(), Some(("date", 1.0)));
    }

    /// `then` of the tallies of consecutive parts is the whole's tally,
    /// field for field, wherever a non-string falls.
    #[test]
    fn then_counts_as_one_pass_does() {
        let values = [
            json!("1"),
            json!("2024-01-02"),
            json!(3),
            json!("4"),
            json!("05.06.2024"),
            json!(null),
            json!("7"),
        ];
        for cut in 0..=values.len() {
            for cut2 in cut..=values.len() {
                let (a, rest) = values.split_at(cut);
                let (b, c) = rest.split_at(cut2 - cut);
                let whole = tally(&values);
                assert_eq!(tally(a).then(tally(b)).then(tally(c)), whole);
                assert_eq!(tally(a).then(tally(b).then(tally(c))), whole);
            }
        }
        // Before the non-string: every string read; after it: none.
        assert_eq!(
            tally(&values),
            PathTally {
                present: 7,
                non_strings: 2,
                numbers: 1,
                dates: 1
            }
        );
    }

    #[test]
    fn tallies_add_up_to_the_whole() {
        let a = [json!("1"), json!("2")];
        let b = [json!("3"), json!("4"), json!("5")];
        let whole: Vec<_> = a.iter().chain(&b).cloned().collect();
        assert_eq!(tally(&a) + tally(&b), tally(&whole));
        // With a non-string in one part the counts may differ from the
        // whole's, the decision never does.
        let c = [json!(6), json!("7")];
        let mixed: Vec<_> = whole.iter().chain(&c).cloned().collect();
        assert_eq!(
            (tally(&b) + tally(&c) + tally(&a)).decide(),
            tally(&mixed).decide()
        );
        assert_eq!(tally(&mixed).decide(), None);
        // The shortcuts read as the rules do.
        assert_eq!(
            tally(&[
                json!("1e3"),
                json!(" 2E1"),
                json!("€ 5"),
                json!("inf"),
                json!("Nr. 4")
            ])
            .numbers,
            3
        );
        assert_eq!(
            tally(&[
                json!(" 2024-01-05"),
                json!("x2024-01-05"),
                json!("5.1.2024")
            ])
            .dates,
            2
        );
        let s = suggest([("b", tally(&whole)), ("a", tally(&b))]);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].field, "b");
        assert_eq!(s[0].config, json!({"field_types": {"b": "number"}}));
    }
}
