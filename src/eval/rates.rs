//! The per-model rates computed from a model's pooled outcome counts
//! (SPEC §3.1's "derived rates shown beside the scores"): each is declared
//! once, in [`RATES`], and every output reaches it from there.
//!
//! Owns: the declarations (report key, table label, formula, words for
//! captions, which way is better). Who reads them: `evaluate` fills
//! [`ModelReport::rates`] with [`Rates::of`] (the JSON report's keys, in
//! [`RATES`]' order); the gate's metric paths and its bootstrap
//! (`gate::metric`); the HTML micro table, its glossary and caption
//! (`export::html`); the Python binding's `RATE_KEYS` (the frames'
//! columns) and the app's micro table. Adding a rate is one declaration
//! here (recipe: `docs/contributing.md`).
//!
//! Depends on: [`crate::eval::report`] (the counts and the model's row)
//! and [`crate::eval::counts`] (the formulas). Pure.

use crate::eval::counts::{abstention_rate, hallucination_rate};
use crate::eval::report::{Counts, ModelReport, Rates};

/// One rate: a ratio in [0, 1] of the model's pooled counts, shown with
/// the ratio format of each output (`Number::Ratio` in the exports, the
/// app's `ratio`), so the declaration needs no format of its own.
#[derive(Debug, Clone, Copy)]
pub struct Rate {
    /// The key in the JSON report's model object, and the gate's metric
    /// path (`hallucination_rate`).
    pub key: &'static str,
    /// The column header (`Hallucination rate`).
    pub label: &'static str,
    /// The formula in the SPEC's symbols (`SPU / (SPU + TN)`), plain text.
    pub symbols: &'static str,
    /// The formula in words, for captions (`spurious / (spurious + true
    /// negatives)`).
    pub words: &'static str,
    /// What it measures, a clause without a capital or final stop.
    pub meaning: &'static str,
    /// The value from the pooled counts and `zero_division`.
    pub of: fn(&Counts, f64) -> f64,
    /// Whether a smaller value is better (the tables' bold marks and the
    /// gate's `--no-regression` direction).
    pub lower_is_better: bool,
}

/// SPEC §3.1: `hallucination_rate` = SPU/(SPU+TN) (M0).
pub const HALLUCINATION_RATE: Rate = Rate {
    key: "hallucination_rate",
    label: "Hallucination rate",
    symbols: "SPU / (SPU + TN)",
    words: "spurious / (spurious + true negatives)",
    meaning: "how often a field the document does not have gets a value",
    of: hallucination_rate,
    lower_is_better: true,
};

/// SPEC §3.1: `abstention_rate` = MIS/|Truth| (M0).
pub const ABSTENTION_RATE: Rate = Rate {
    key: "abstention_rate",
    label: "Abstention rate",
    symbols: "MIS / |Truth|",
    words: "missed / |Truth|",
    meaning: "how often a field the document has is left empty",
    of: abstention_rate,
    lower_is_better: true,
};

/// Every rate, in the JSON report's key order (SPEC §5: after `partial`).
pub const RATES: [Rate; 2] = [HALLUCINATION_RATE, ABSTENTION_RATE];

/// The rate of `key`, if one is declared.
pub fn rate(key: &str) -> Option<&'static Rate> {
    RATES.iter().find(|r| r.key == key)
}

impl Rate {
    /// This rate of `model` (NaN if its report lacks the key, which only a
    /// hand-made report can).
    pub fn value(&self, model: &ModelReport) -> f64 {
        model.rates.get(self.key).unwrap_or(f64::NAN)
    }
}

impl Rates {
    /// Every rate of [`RATES`] from the pooled `counts`.
    pub fn of(counts: &Counts, zero_division: f64) -> Rates {
        Rates::from_pairs(
            RATES
                .iter()
                .map(|r| (r.key.to_string(), (r.of)(counts, zero_division))),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_follow_their_formulas_in_key_order() {
        // COR 2, MIS 1, SPU 1, TN 3: hallucination = 1/(1+3) = 0.25;
        // abstention = 1/|Truth| = 1/(2+1) = 1/3.
        let c = Counts {
            exact: 2,
            missed: 1,
            spurious: 1,
            true_negative: 3,
            ..Counts::default()
        };
        let r = Rates::of(&c, 0.0);
        let keys: Vec<&str> = r.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["hallucination_rate", "abstention_rate"]);
        assert_eq!(r.get("hallucination_rate"), Some(0.25));
        assert_eq!(r.get("abstention_rate"), Some(1.0 / 3.0));
        assert_eq!(r.get("precision"), None);
    }

    #[test]
    fn empty_counts_give_zero_division() {
        // 0/0 on both sides: zero_division.
        let r = Rates::of(&Counts::default(), 1.0);
        assert_eq!(r.get("hallucination_rate"), Some(1.0));
        assert_eq!(r.get("abstention_rate"), Some(1.0));
    }

    #[test]
    fn serialises_as_the_model_objects_keys() {
        // SPU 1, TN 1: hallucination = 1/2; |Truth| = 0: abstention = zd = 0.
        let c = Counts {
            spurious: 1,
            true_negative: 1,
            ..Counts::default()
        };
        let r = Rates::of(&c, 0.0);
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"hallucination_rate":0.5,"abstention_rate":0.0}"#
        );
        let back: Rates =
            serde_json::from_str(r#"{"hallucination_rate":0.5,"abstention_rate":0.0}"#).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn lookup_by_key() {
        assert_eq!(
            rate("abstention_rate").map(|r| r.label),
            Some("Abstention rate")
        );
        assert!(rate("micro.f1").is_none());
        assert!(RATES.iter().all(|r| r.lower_is_better));
    }
}
