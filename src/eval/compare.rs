//! The outcome of one (document, field) pair (SPEC §2.1–§2.3).
//!
//! Owns: choosing how a value is compared ([`ValueType`]), the match rules
//! of each type and string method, and the per-value CER. Pure; depends on
//! `normalize`, `distance`, `tree`, the config and the report's `Outcome`.

use crate::eval::config::{Config, FieldType, MatchMethod};
use crate::eval::distance::{levenshtein, CerCount};
use crate::eval::normalize::{
    micros, micros_equal, normalize_into, numeric_strings_equal, parse_bool_json, parse_date,
    parse_number_json, AbsentValues,
};
use crate::eval::report::Outcome;
use crate::eval::tree::{Forest, Json, JsonType};
use chrono::NaiveDate;
use serde_json::Value;
use std::cell::OnceCell;

/// How the values of a field are compared (SPEC §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ValueType {
    /// Normalised strings under `string_match.method` (exact / partial /
    /// incorrect).
    String,
    /// Parsed numbers, equal within `numeric_tolerance` (exact or incorrect).
    Number,
    /// `numeric_string_fields`: integers with leading zeros removed.
    NumericString,
    /// Calendar dates.
    Date,
    /// Booleans.
    Boolean,
    /// `field_types` `"boolean"` (SPEC §7.1): equal when both sides read as
    /// the same truth value (`true`/`false`, `"yes"`/`"no"`,
    /// `"true"`/`"false"`, `1`/`0`, case-insensitive), else as strings.
    TruthValue,
}

/// The type hint a JSON Schema gives a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaHint {
    String,
    Number,
    Date,
    Boolean,
}

/// The result of comparing one pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    pub outcome: Outcome,
    /// `similarity(t, p)` when both sides are present and compared as strings.
    pub similarity: Option<f64>,
    /// The CER counts when the truth is present (SPEC §2.2).
    pub cer: Option<CerCount>,
    /// The per-value CER (`cer` as a ratio), when the truth is present.
    pub cer_rate: Option<f64>,
}

/// A value's readings as a number and as a date, kept once a comparison
/// has asked for them (a value of an item is compared with every item of
/// the other side).
#[derive(Debug, Clone, Default)]
pub struct Readings {
    /// The number and its rounded millionths.
    number: OnceCell<Option<(f64, f64)>>,
    /// The characters of the normalised text ([`char_signature`]).
    signature: OnceCell<u64>,
    date: OnceCell<Option<NaiveDate>>,
}

/// One present value, ready to compare: the value, its normalised text,
/// that text's length in characters, and its readings.
#[derive(Debug, Clone, Copy)]
pub struct Side<'s> {
    pub value: Json<'s>,
    pub norm: &'s str,
    pub chars: usize,
    pub readings: &'s Readings,
}

/// The readings are asked for once per pair of items compared (SPEC §3.4
/// compares every item with every item of the other side), so the
/// already-read case is inlined even in the size-optimised browser build,
/// and the first reading is a call.
impl Side<'_> {
    #[inline(always)]
    fn signature(&self) -> u64 {
        match self.readings.signature.get() {
            Some(&sig) => sig,
            None => self.read_signature(),
        }
    }

    #[inline(never)]
    fn read_signature(&self) -> u64 {
        *self
            .readings
            .signature
            .get_or_init(|| char_signature(self.norm))
    }

    /// The value read as a number (§2.1) and its rounded millionths.
    #[inline(always)]
    pub(crate) fn number(&self) -> Option<(f64, f64)> {
        match self.readings.number.get() {
            Some(&number) => number,
            None => self.read_number(),
        }
    }

    #[inline(never)]
    fn read_number(&self) -> Option<(f64, f64)> {
        *self
            .readings
            .number
            .get_or_init(|| parse_number_json(self.value).map(|x| (x, micros(x))))
    }

    fn date(&self, c: &Config) -> Option<NaiveDate> {
        *self
            .readings
            .date
            .get_or_init(|| parse_date(&self.value.text(), c.date_order))
    }
}

/// Compares values under one configuration.
#[derive(Debug, Clone)]
pub struct Comparer<'c> {
    pub config: &'c Config,
    pub absent: AbsentValues,
    /// `numeric_tolerance` in rounded millionths.
    tolerance_micros: f64,
}

impl<'c> Comparer<'c> {
    pub fn new(config: &'c Config) -> Self {
        Comparer {
            config,
            absent: AbsentValues::new(&config.absent_values),
            tolerance_micros: micros(config.numeric_tolerance),
        }
    }

    /// Whether a value is absent (SPEC §1.4).
    pub fn is_absent(&self, v: Option<&Value>) -> bool {
        self.absent.is_absent(v)
    }

    /// [`Self::is_absent`] for a value of a forest.
    pub fn is_absent_json(&self, v: Option<Json<'_>>) -> bool {
        self.absent.is_absent_json(v)
    }

    /// The normalised text of a value (SPEC §2.1 strings; non-strings as
    /// their JSON text).
    pub fn normalized(&self, v: Json<'_>) -> String {
        let mut out = String::new();
        self.normalize_into(&mut out, v);
        out
    }

    /// [`Self::normalized`], appended to `out`.
    pub fn normalize_into(&self, out: &mut String, v: Json<'_>) {
        let case_sensitive = self.config.case_sensitive;
        match v.json_type() {
            JsonType::String => normalize_into(out, v.as_str().unwrap_or_default(), case_sensitive),
            // ASCII text without white space: normalising only lowercases.
            JsonType::Number | JsonType::Bool | JsonType::Null => {
                let start = out.len();
                v.write_text(out);
                if !case_sensitive {
                    out[start..].make_ascii_lowercase();
                }
            }
            JsonType::Array | JsonType::Object => normalize_into(out, &v.text(), case_sensitive),
        }
    }

    /// The comparison type a path has whatever its values: decided by
    /// `field_types` (SPEC §7.1), then `numeric_string_fields`, then
    /// `date_fields`, then the schema's `format: date`/`date-time`,
    /// `number`/`integer`, `boolean`.
    pub fn fixed_type(&self, path: &str, hint: Option<SchemaHint>) -> Option<ValueType> {
        if let Some(ty) = self.config.field_type(path) {
            return Some(match ty {
                FieldType::Number | FieldType::Integer => ValueType::Number,
                FieldType::Date => ValueType::Date,
                FieldType::NumericString => ValueType::NumericString,
                FieldType::String => ValueType::String,
                FieldType::Boolean => ValueType::TruthValue,
            });
        }
        if self.config.numeric_string_fields.iter().any(|f| f == path) {
            return Some(ValueType::NumericString);
        }
        if self.config.date_fields.iter().any(|f| f == path) {
            return Some(ValueType::Date);
        }
        match hint {
            Some(SchemaHint::Date) => Some(ValueType::Date),
            Some(SchemaHint::Number) => Some(ValueType::Number),
            Some(SchemaHint::Boolean) => Some(ValueType::Boolean),
            _ => None,
        }
    }

    /// The comparison type given the truth value's JSON type, when
    /// [`Self::fixed_type`] says nothing: a JSON number, a JSON boolean,
    /// otherwise a string.
    pub fn type_of_truth(truth: Option<JsonType>) -> ValueType {
        match truth {
            Some(JsonType::Number) => ValueType::Number,
            Some(JsonType::Bool) => ValueType::Boolean,
            _ => ValueType::String,
        }
    }

    /// How a field's value is compared, decided in this order: the field is
    /// listed in `numeric_string_fields`, then `date_fields`; the schema says
    /// `format: date`/`date-time`, `number`/`integer`, `boolean`; the truth
    /// value is a JSON number, a JSON boolean; otherwise a string.
    pub fn value_type(
        &self,
        path: &str,
        hint: Option<SchemaHint>,
        truth: Option<&Value>,
    ) -> ValueType {
        self.fixed_type(path, hint).unwrap_or_else(|| {
            Self::type_of_truth(truth.map(|t| match t {
                Value::Number(_) => JsonType::Number,
                Value::Bool(_) => JsonType::Bool,
                _ => JsonType::String,
            }))
        })
    }

    /// The outcome of one pair (SPEC §2.3): absent/absent is a true
    /// negative, present/absent missed, absent/present spurious; two
    /// present values are exact, partial or incorrect by their type's rule.
    pub fn compare(
        &self,
        ty: ValueType,
        truth: Option<&Value>,
        pred: Option<&Value>,
    ) -> Comparison {
        let mut forest = Forest::default();
        let mut add = |v: Option<&Value>| {
            v.filter(|v| !self.is_absent(Some(v)))
                .and_then(|v| forest.add_value(v).ok())
        };
        let (t, p) = (add(truth), add(pred));
        let (mut text, mut ranges) = (String::new(), Vec::new());
        for id in [t, p].into_iter().flatten() {
            let start = text.len();
            self.normalize_into(&mut text, forest.get(id));
            ranges.push((id, start..text.len()));
        }
        let cells: Vec<Readings> = ranges.iter().map(|_| Readings::default()).collect();
        let sides: Vec<Side<'_>> = ranges
            .iter()
            .zip(&cells)
            .map(|((id, r), readings)| Side {
                value: forest.get(*id),
                norm: &text[r.clone()],
                chars: text[r.clone()].chars().count(),
                readings,
            })
            .collect();
        let mut sides = sides.into_iter();
        let t_side = t.and_then(|_| sides.next());
        let p_side = p.and_then(|_| sides.next());
        self.compare_sides(ty, t_side.as_ref(), p_side.as_ref())
    }

    /// [`Self::compare`] for prepared values: `None` for a missing or
    /// absent value.
    pub fn compare_sides(
        &self,
        ty: ValueType,
        t: Option<&Side<'_>>,
        p: Option<&Side<'_>>,
    ) -> Comparison {
        match (t, p) {
            (Some(t), Some(p)) => self.compare_present(ty, t, p),
            (Some(t), None) => {
                let cer = CerCount {
                    edits: t.chars,
                    len: t.chars,
                };
                Comparison {
                    outcome: Outcome::Missed,
                    similarity: None,
                    cer: Some(cer),
                    cer_rate: Some(cer.rate(true)),
                }
            }
            (None, p) => Comparison {
                outcome: if p.is_some() {
                    Outcome::Spurious
                } else {
                    Outcome::TrueNegative
                },
                similarity: None,
                cer: None,
                cer_rate: None,
            },
        }
    }

    /// Two present values.
    pub fn compare_present(&self, ty: ValueType, t: &Side<'_>, p: &Side<'_>) -> Comparison {
        let (nt, np) = (t.norm, p.norm);
        let edits = levenshtein(nt, np);
        let (lt, lp) = (t.chars, p.chars);
        let cer = CerCount { edits, len: lt };
        let cer_rate = cer.rate(false);
        let longest = lt.max(lp);
        let similarity = if longest == 0 {
            1.0
        } else {
            1.0 - edits as f64 / longest as f64
        };
        let outcome = match ty {
            ValueType::String => self.string_outcome(nt == np, similarity, cer_rate),
            _ => exact_or_incorrect(self.typed_equal(ty, t, p)),
        };
        Comparison {
            outcome,
            similarity: Some(similarity),
            cer: Some(cer),
            cer_rate: Some(cer_rate),
        }
    }

    /// Whether two present values match exactly (partial does not count):
    /// the test item matching uses (SPEC §3.4), without computing CER where
    /// it can be avoided.
    #[inline(always)]
    pub fn is_exact(&self, ty: ValueType, t: &Side<'_>, p: &Side<'_>) -> bool {
        if ty != ValueType::String {
            return self.typed_equal(ty, t, p);
        }
        let (nt, np) = (t.norm, p.norm);
        if nt == np {
            return true;
        }
        let (lt, lp) = (t.chars, p.chars);
        // A lower bound of the distance decides most unequal pairs: the
        // similarity (CER) can only fall (rise) as the distance grows.
        let (ts, ps) = (t.signature(), p.signature());
        let least = lt
            .abs_diff(lp)
            .max((ts & !ps).count_ones() as usize)
            .max((ps & !ts).count_ones() as usize);
        match self.config.string_match.method {
            MatchMethod::Exact => false,
            MatchMethod::Similarity => {
                let longest = lt.max(lp);
                let similarity = |edits: usize| 1.0 - edits as f64 / longest as f64;
                let threshold = self.config.partial_matching.string.exact_threshold;
                similarity(least) >= threshold && similarity(levenshtein(nt, np)) >= threshold
            }
            MatchMethod::Cer => {
                let cer = |edits: usize| CerCount { edits, len: lt }.rate(false);
                let threshold = self.config.string_match.cer_threshold;
                cer(least) <= threshold && cer(levenshtein(nt, np)) <= threshold
            }
        }
    }

    /// SPEC §2.3 string rule by `string_match.method`.
    fn string_outcome(&self, equal: bool, similarity: f64, cer: f64) -> Outcome {
        let c = self.config;
        match c.string_match.method {
            MatchMethod::Exact => exact_or_incorrect(equal),
            MatchMethod::Cer => exact_or_incorrect(cer <= c.string_match.cer_threshold),
            MatchMethod::Similarity => {
                let th = &c.partial_matching.string;
                if equal || similarity >= th.exact_threshold {
                    Outcome::Exact
                } else if similarity >= th.partial_threshold {
                    Outcome::Partial
                } else {
                    Outcome::Incorrect
                }
            }
        }
    }

    /// Equality of numbers, numeric strings, dates and booleans; a value
    /// that does not read as its type is compared as a normalised string.
    #[inline(always)]
    fn typed_equal(&self, ty: ValueType, t: &Side<'_>, p: &Side<'_>) -> bool {
        let c = self.config;
        let typed = match ty {
            ValueType::Number => match (t.number(), p.number()) {
                (Some(a), Some(b)) => Some(micros_equal(
                    a,
                    b,
                    c.numeric_tolerance,
                    self.tolerance_micros,
                )),
                _ => None,
            },
            ValueType::NumericString => numeric_strings_equal(t.norm, p.norm),
            ValueType::Date => match (t.date(c), p.date(c)) {
                (Some(a), Some(b)) => Some(a == b),
                _ => None,
            },
            ValueType::Boolean => match (parse_bool_json(t.value), parse_bool_json(p.value)) {
                (Some(a), Some(b)) => Some(a == b),
                _ => None,
            },
            ValueType::TruthValue => match (truth_value(t.value), truth_value(p.value)) {
                (Some(a), Some(b)) => Some(a == b),
                _ => None,
            },
            ValueType::String => None,
        };
        typed.unwrap_or(t.norm == p.norm)
    }
}

/// Which characters a text has, hashed to 64 bits. A character of one
/// text whose bit the other text lacks must be deleted or substituted, and
/// one edit removes at most one such character from each side, so
/// Levenshtein(a, b) ≥ popcount(sig a ∧ ¬sig b) (and the other way round).
pub fn char_signature(text: &str) -> u64 {
    text.chars().fold(0u64, |sig, c| {
        sig | 1u64 << ((c as u32).wrapping_mul(0x9E37_79B1) >> 26)
    })
}

/// A value read as a truth value for `field_types` `"boolean"` (SPEC
/// §7.1): JSON `true`/`false`, the numbers 1 and 0, and the strings
/// `true`/`false`/`yes`/`no`/`1`/`0` (trimmed, case-insensitive).
fn truth_value(value: Json<'_>) -> Option<bool> {
    if let Some(b) = value.as_bool() {
        return Some(b);
    }
    let text = match value.json_type() {
        JsonType::Number => value.text().into_owned(),
        JsonType::String => value.as_str().unwrap_or_default().trim().to_string(),
        _ => return None,
    };
    match text.to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" => Some(true),
        "false" | "no" | "0" => Some(false),
        _ => None,
    }
}

fn exact_or_incorrect(equal: bool) -> Outcome {
    if equal {
        Outcome::Exact
    } else {
        Outcome::Incorrect
    }
}

#[cfg(test)]
mod tests;
