//! Set fields: multi-label / top-k code lists (SPEC §3.3, M1).
//!
//! Owns: the per-document counts and scores of one set field and how they
//! enter the pooled outcome counts. Pure; depends on `counts` and the
//! report structs.

use crate::eval::counts::{harmonic, ratio};
use crate::eval::report::Counts;

/// The per-document counts of one set field. Elements are compared as
/// normalised strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SetCounts {
    /// Elements of P found in T (duplicates in P each count).
    pub pred_in_true: usize,
    /// Elements of T found in P.
    pub true_in_pred: usize,
    /// |T|
    pub truth_len: usize,
    /// |P|
    pub pred_len: usize,
}

impl SetCounts {
    pub fn of(truth: &[String], pred: &[String]) -> SetCounts {
        SetCounts {
            pred_in_true: pred.iter().filter(|p| truth.contains(p)).count(),
            true_in_pred: truth.iter().filter(|t| pred.contains(t)).count(),
            truth_len: truth.len(),
            pred_len: pred.len(),
        }
    }

    /// Both sides empty: the document is not averaged (SPEC §3.3).
    pub fn both_empty(&self) -> bool {
        self.truth_len == 0 && self.pred_len == 0
    }

    /// The contribution to the pooled outcome counts (SPEC §3.3):
    /// COR += true_in_pred, SPU += |P| − pred_in_true,
    /// MIS += |T| − true_in_pred; a set empty on both sides is one true
    /// negative.
    pub fn outcome_counts(&self) -> Counts {
        if self.both_empty() {
            return Counts {
                true_negative: 1,
                ..Counts::default()
            };
        }
        Counts {
            exact: self.true_in_pred as u64,
            spurious: (self.pred_len - self.pred_in_true) as u64,
            missed: (self.truth_len - self.true_in_pred) as u64,
            ..Counts::default()
        }
    }
}

/// One document's set-field scores (SPEC §3.3).
#[derive(Debug, Clone, PartialEq)]
pub struct SetScores {
    /// pred_in_true / |P| (`zero_division` when P is empty).
    pub precision: f64,
    /// true_in_pred / |T| (`zero_division` when T is empty).
    pub recall: f64,
    /// Harmonic mean of precision and recall (0 when both are 0).
    pub f1: f64,
    /// (precision + recall) / 2.
    pub accuracy: f64,
    /// (pred_in_true + true_in_pred) / (2·max(|T|, |P|)).
    pub legacy_accuracy: f64,
    /// For each k of `top_k`: 1 when any element of T is among the first k
    /// of P (0 when T is empty).
    pub hit_at_k: Vec<f64>,
}

/// Scores one document's set field.
///
/// ```
/// // SPEC §6 example 2.
/// use fieldscope::eval::sets::set_scores;
/// let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
/// let r = set_scores(&s(&["12345"]), &s(&["12345", "67890", "11111", "22222", "33333"]), &[1, 3, 5], 0.0);
/// assert_eq!((r.precision, r.recall, r.accuracy, r.legacy_accuracy), (0.2, 1.0, 0.6, 0.2));
/// ```
pub fn set_scores(
    truth: &[String],
    pred: &[String],
    top_k: &[usize],
    zero_division: f64,
) -> SetScores {
    let c = SetCounts::of(truth, pred);
    let precision = ratio(c.pred_in_true as f64, c.pred_len as f64, zero_division);
    let recall = ratio(c.true_in_pred as f64, c.truth_len as f64, zero_division);
    let longest = c.truth_len.max(c.pred_len);
    SetScores {
        precision,
        recall,
        f1: harmonic(precision, recall),
        accuracy: (precision + recall) / 2.0,
        legacy_accuracy: ratio(
            (c.pred_in_true + c.true_in_pred) as f64,
            2.0 * longest as f64,
            zero_division,
        ),
        hit_at_k: top_k
            .iter()
            .map(|&k| {
                let hit = pred.iter().take(k).any(|p| truth.contains(p));
                if hit {
                    1.0
                } else {
                    0.0
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn spec_example_2() {
        let r = set_scores(
            &s(&["12345"]),
            &s(&["12345", "67890", "11111", "22222", "33333"]),
            &[1, 3, 5],
            0.0,
        );
        assert_eq!(r.precision, 0.2);
        assert_eq!(r.recall, 1.0);
        assert_eq!(r.accuracy, 0.6);
        assert_eq!(r.legacy_accuracy, 0.2);
        assert_eq!(format!("{:.4}", r.f1), "0.3333");
        assert_eq!(r.hit_at_k, vec![1.0, 1.0, 1.0]);
        // Top-3 with one correct.
        let r = set_scores(
            &s(&["12345"]),
            &s(&["67890", "12345", "11111"]),
            &[1, 3, 5],
            0.0,
        );
        assert_eq!(format!("{:.4}", r.accuracy), "0.6667");
        assert_eq!(format!("{:.4}", r.legacy_accuracy), "0.3333");
        assert_eq!(r.hit_at_k, vec![0.0, 1.0, 1.0]);
        // Two truth codes, two predicted, one correct.
        let r = set_scores(&s(&["a", "b"]), &s(&["a", "c"]), &[1], 0.0);
        assert_eq!((r.accuracy, r.legacy_accuracy), (0.5, 0.5));
    }

    #[test]
    fn duplicates_in_p_each_count() {
        let c = SetCounts::of(&s(&["a"]), &s(&["a", "a", "b"]));
        assert_eq!((c.pred_in_true, c.true_in_pred), (2, 1));
        let oc = c.outcome_counts();
        assert_eq!((oc.exact, oc.spurious, oc.missed), (1, 1, 0));
    }

    #[test]
    fn one_side_empty_uses_zero_division() {
        let r = set_scores(&s(&[]), &s(&["x"]), &[1], 0.0);
        assert_eq!(
            (r.precision, r.recall, r.f1, r.accuracy),
            (0.0, 0.0, 0.0, 0.0)
        );
        assert_eq!(r.hit_at_k, vec![0.0]);
        let r = set_scores(&s(&["x"]), &s(&[]), &[1], 1.0);
        assert_eq!((r.precision, r.recall), (1.0, 0.0));
        assert_eq!(r.accuracy, 0.5);
        assert_eq!(r.legacy_accuracy, 0.0);
    }

    #[test]
    fn both_empty_is_one_true_negative() {
        let c = SetCounts::of(&[], &[]);
        assert!(c.both_empty());
        assert_eq!(c.outcome_counts().true_negative, 1);
        assert_eq!(c.outcome_counts().total(), 1);
    }
}
