//! The report's `bootstrap` key as data (not part of SPEC §5): intervals
//! per model and paired tests, with the questions the exports and the app
//! ask of them. Computed by `eval::bootstrap`; embedded in `eval::report`.
//!
//! Owns: [`BootstrapReport`] and its parts. Depends on serde only, so the
//! report can hold it without depending on the bootstrap.

use serde::{Deserialize, Serialize};

/// Whether a smaller value of `metric` is better: the calibration errors
/// and AURC (`confidence.ece`, `.brier`, `.aurc`); every other resampled
/// score is better larger.
pub fn lower_is_better(metric: &str) -> bool {
    matches!(
        metric,
        "confidence.ece" | "confidence.brier" | "confidence.aurc"
    )
}

/// An interval `[low, high]` around a point estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// Half the width of the interval, `(high − low) / 2` (the app shows
    /// it as `± h`; percentile intervals need not be symmetric).
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// Intervals of precision, recall, F1 and accuracy under one average.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ScoreIntervals {
    pub precision: Interval,
    pub recall: Interval,
    pub f1: Interval,
    pub accuracy: Interval,
}

/// Intervals of the line-item precision, recall and F1 (SPEC §3.4).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ItemIntervals {
    pub precision: Interval,
    pub recall: Interval,
    pub f1: Interval,
}

/// Intervals of a model's confidence scores (SPEC §8.5), each over the
/// resamples where the score is defined (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceIntervals {
    /// Resamples whose drawn documents have at least one pair: `ece`,
    /// `brier` and `aurc` are taken over these.
    pub resamples: usize,
    pub ece: Interval,
    pub brier: Interval,
    /// `null` when the report's `auroc` is (all pairs correct, or all
    /// incorrect).
    pub auroc: Option<Interval>,
    /// Resamples whose `auroc` is defined: its interval is taken over these.
    pub auroc_resamples: usize,
    pub aurc: Interval,
}

/// One model's intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelIntervals {
    pub name: String,
    pub micro: ScoreIntervals,
    pub macro_documents: ScoreIntervals,
    pub macro_fields: ScoreIntervals,
    pub document_extraction_score: Interval,
    /// `null` when the model has no item list (its report's `items` is).
    pub items: Option<ItemIntervals>,
    /// Only for a model with confidence pairs (its report's `confidence`
    /// is not `null`); absent otherwise, so that a report without
    /// confidences is unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<ConfidenceIntervals>,
}

impl ModelIntervals {
    /// The interval of `metric` (one of [`METRICS`](crate::eval::bootstrap::METRICS) or
    /// [`CONFIDENCE_METRICS`](crate::eval::bootstrap::CONFIDENCE_METRICS)).
    pub fn get(&self, metric: &str) -> Option<&Interval> {
        if metric == "document_extraction_score" {
            return Some(&self.document_extraction_score);
        }
        let (average, score) = metric.split_once('.')?;
        if average == "confidence" {
            let c = self.confidence.as_ref()?;
            return match score {
                "ece" => Some(&c.ece),
                "brier" => Some(&c.brier),
                "auroc" => c.auroc.as_ref(),
                "aurc" => Some(&c.aurc),
                _ => None,
            };
        }
        if average == "items" {
            let i = self.items.as_ref()?;
            return match score {
                "precision" => Some(&i.precision),
                "recall" => Some(&i.recall),
                "f1" => Some(&i.f1),
                _ => None,
            };
        }
        let s = match average {
            "micro" => &self.micro,
            "macro_documents" => &self.macro_documents,
            "macro_fields" => &self.macro_fields,
            _ => return None,
        };
        match score {
            "precision" => Some(&s.precision),
            "recall" => Some(&s.recall),
            "f1" => Some(&s.f1),
            "accuracy" => Some(&s.accuracy),
            _ => None,
        }
    }
}

/// One paired test between two models on one score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedTest {
    pub metric: String,
    pub a: String,
    pub b: String,
    /// `s(A) − s(B)` on all documents.
    pub difference: f64,
    pub p_value: f64,
    /// Holm-adjusted over the pairs of this metric.
    pub p_holm: f64,
    pub significant: bool,
}

/// The report's `bootstrap` key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapReport {
    pub method: String,
    pub resamples: usize,
    pub seed: u64,
    pub level: f64,
    pub alpha: f64,
    pub documents: usize,
    pub models: Vec<ModelIntervals>,
    pub paired: Vec<PairedTest>,
}

impl BootstrapReport {
    /// The intervals of the model named `name`.
    pub fn model(&self, name: &str) -> Option<&ModelIntervals> {
        self.models.iter().find(|m| m.name == name)
    }

    /// The paired test of `metric` between models `x` and `y` (either way
    /// round).
    pub fn test(&self, metric: &str, x: &str, y: &str) -> Option<&PairedTest> {
        self.paired
            .iter()
            .find(|t| t.metric == metric && ((t.a == x && t.b == y) || (t.a == y && t.b == x)))
    }

    /// Whether model `name` is significantly below the best model on
    /// `metric` (the highest estimate, or the lowest where a smaller value
    /// is better, [`lower_is_better`]; the Holm-adjusted paired test
    /// between the two). False for the best model itself, for a tie with
    /// it, and when there is no such test.
    pub fn below_best(&self, metric: &str, name: &str) -> bool {
        // Oriented so that larger is better.
        let o = if lower_is_better(metric) { -1.0 } else { 1.0 };
        let estimate = |m: &ModelIntervals| m.get(metric).map(|i| o * i.estimate);
        let best = self
            .models
            .iter()
            .filter_map(|m| Some((m, estimate(m)?)))
            .max_by(|x, y| x.1.total_cmp(&y.1));
        let (Some((best, top)), Some(own)) = (best, self.model(name).and_then(estimate)) else {
            return false;
        };
        if best.name == name || own == top {
            return false;
        }
        self.test(metric, name, &best.name)
            .is_some_and(|t| t.significant)
    }
}
