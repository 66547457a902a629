//! Confidence intervals and paired significance tests by resampling
//! documents (issue 5; beyond SPEC.md, which defines point estimates only).
//!
//! Owns: the percentile bootstrap over documents, the paired bootstrap test
//! between models, the Holm correction, and their report
//! ([`BootstrapReport`], the report's `bootstrap` key). Pure: it reads
//! each model's per-document counts (as `document_details` carry them) and
//! recomputes every score with the same functions as the report
//! ([`strict_scores`] for micro, [`macro_over_documents`]), so a resample
//! of all documents once each gives back the report's numbers. Depends on
//! `counts`, `config`, `report` and `fastrand`.
//!
//! **Resampling** (Efron & Tibshirani 1993): documents, not fields, are
//! drawn — the fields of one document are not independent. Resample `b`
//! draws `n` document indices uniformly with replacement (the same indices
//! for every model, so that models are compared on the same documents),
//! from one `fastrand` generator seeded with `seed` and drawing `u64`s (the
//! same sequence on every platform, wasm32 included).
//!
//! **Interval**: for a level of 95 %, the 2.5th and 97.5th percentiles of
//! the `B` resampled values, by linear interpolation between order
//! statistics (Hyndman & Fan's type 7, numpy's default): the `q`-quantile
//! of sorted values `v[0] ≤ … ≤ v[B−1]` is `v[⌊h⌋] + (h − ⌊h⌋)(v[⌊h⌋+1] −
//! v[⌊h⌋])` with `h = (B − 1) q`.
//!
//! **Paired test** (paired bootstrap, Koehn 2004; Berg-Kirkpatrick,
//! Burkett & Klein 2012): for models A and B and a score s, the observed
//! difference is `δ = s(A) − s(B)` on all documents and `δ_b` on resample
//! `b`. Under the null hypothesis the differences are centred on 0, so the
//! two-sided p-value is `(1 + #{b : |δ_b − δ| ≥ |δ|}) / (B + 1)`; with
//! `δ = 0` it is 1.
//!
//! **Holm–Bonferroni** (Holm 1979) over the `m` pairs of one score: with
//! the p-values sorted ascending `p(1) ≤ … ≤ p(m)`, the adjusted value is
//! `p̃(i) = max_{j ≤ i} min(1, (m − j + 1) · p(j))`; a pair differs
//! significantly when `p̃ ≤ alpha`.

use crate::eval::config::Config;
use crate::eval::counts::{macro_over_documents, strict_scores};
use crate::eval::report::{Counts, Report, Scores};
use serde::{Deserialize, Serialize};

/// How to resample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BootstrapOptions {
    /// Number of resamples `B` (default 1,000).
    pub resamples: usize,
    /// Seed of the generator (default 1).
    pub seed: u64,
    /// Coverage of the intervals (default 0.95).
    pub level: f64,
    /// Significance level of the paired tests, after Holm (default 0.05).
    pub alpha: f64,
}

impl Default for BootstrapOptions {
    fn default() -> Self {
        BootstrapOptions {
            resamples: 1000,
            seed: 1,
            level: 0.95,
            alpha: 0.05,
        }
    }
}

/// The scores resampled: micro and macro over documents, each P/R/F1/A.
pub const METRICS: [&str; 8] = [
    "micro.precision",
    "micro.recall",
    "micro.f1",
    "micro.accuracy",
    "macro_documents.precision",
    "macro_documents.recall",
    "macro_documents.f1",
    "macro_documents.accuracy",
];

/// The scores compared between models by the paired test.
pub const TESTED: [&str; 2] = ["micro.f1", "macro_documents.f1"];

/// An interval `[low, high]` around a point estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

/// Intervals of precision, recall, F1 and accuracy under one average.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ScoreIntervals {
    pub precision: Interval,
    pub recall: Interval,
    pub f1: Interval,
    pub accuracy: Interval,
}

/// One model's intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelIntervals {
    pub name: String,
    pub micro: ScoreIntervals,
    pub macro_documents: ScoreIntervals,
}

impl ModelIntervals {
    /// The interval of `metric` (one of [`METRICS`]).
    pub fn get(&self, metric: &str) -> Option<&Interval> {
        let (average, score) = metric.split_once('.')?;
        let s = match average {
            "micro" => &self.micro,
            "macro_documents" => &self.macro_documents,
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

/// The eight scores of [`METRICS`] for a multiset of documents, given as
/// how many times each document is drawn.
fn scores(doc_counts: &[Counts], weights: &[u32], config: &Config) -> [f64; 8] {
    let mut total = Counts::default();
    let mut drawn: Vec<Counts> = Vec::with_capacity(doc_counts.len());
    for (c, &w) in doc_counts.iter().zip(weights) {
        for _ in 0..w {
            total += *c;
            drawn.push(*c);
        }
    }
    let micro = strict_scores(&total, config);
    let macro_docs = macro_over_documents(&drawn, config);
    let flat = |s: Scores| [s.precision, s.recall, s.f1, s.accuracy];
    let (a, b) = (flat(micro), flat(macro_docs));
    [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]]
}

/// The `q`-quantile of sorted values by linear interpolation (type 7).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = (n - 1) as f64 * q.clamp(0.0, 1.0);
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

/// Holm-adjusted p-values, in the order given.
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        let value = ((m - rank) as f64 * p_values[i]).min(1.0);
        running = running.max(value);
        adjusted[i] = running;
    }
    adjusted
}

/// A bootstrap in progress: step it a few resamples at a time (the app
/// does, between frames), then finish.
pub struct Bootstrap<'c> {
    names: Vec<String>,
    doc_counts: Vec<Vec<Counts>>,
    config: &'c Config,
    options: BootstrapOptions,
    rng: fastrand::Rng,
    /// Per model, per resample, the eight scores.
    values: Vec<Vec<[f64; 8]>>,
    weights: Vec<u32>,
}

impl<'c> Bootstrap<'c> {
    /// `models`: each model's name and its documents' counts, every model
    /// over the same documents in the same order.
    pub fn new(
        models: Vec<(String, Vec<Counts>)>,
        config: &'c Config,
        options: BootstrapOptions,
    ) -> Self {
        let documents = models.first().map_or(0, |(_, d)| d.len());
        let (names, doc_counts): (Vec<_>, Vec<_>) = models.into_iter().unzip();
        Bootstrap {
            values: vec![Vec::with_capacity(options.resamples); names.len()],
            names,
            doc_counts,
            config,
            options,
            rng: fastrand::Rng::with_seed(options.seed),
            weights: vec![0; documents],
        }
    }

    /// Resamples done so far.
    pub fn done(&self) -> usize {
        self.values.first().map_or(0, Vec::len)
    }

    /// Runs up to `n` more resamples; returns how many are done in all.
    pub fn step(&mut self, n: usize) -> usize {
        let documents = self.weights.len();
        for _ in 0..n {
            if self.done() >= self.options.resamples || documents == 0 {
                break;
            }
            self.weights.iter_mut().for_each(|w| *w = 0);
            for _ in 0..documents {
                let i = self.rng.u64(0..documents as u64) as usize;
                self.weights[i] += 1;
            }
            for (m, docs) in self.doc_counts.iter().enumerate() {
                let s = scores(docs, &self.weights, self.config);
                self.values[m].push(s);
            }
        }
        self.done()
    }

    /// The intervals and the paired tests.
    pub fn finish(mut self) -> BootstrapReport {
        self.step(usize::MAX);
        let documents = self.weights.len();
        let ones = vec![1u32; documents];
        let estimates: Vec<[f64; 8]> = self
            .doc_counts
            .iter()
            .map(|d| scores(d, &ones, self.config))
            .collect();
        let tail = (1.0 - self.options.level) / 2.0;
        let models = self
            .names
            .iter()
            .enumerate()
            .map(|(m, name)| {
                let interval = |k: usize| {
                    let mut v: Vec<f64> = self.values[m].iter().map(|s| s[k]).collect();
                    v.sort_by(f64::total_cmp);
                    Interval {
                        estimate: estimates[m][k],
                        low: quantile(&v, tail),
                        high: quantile(&v, 1.0 - tail),
                    }
                };
                let four = |k: usize| ScoreIntervals {
                    precision: interval(k),
                    recall: interval(k + 1),
                    f1: interval(k + 2),
                    accuracy: interval(k + 3),
                };
                ModelIntervals {
                    name: name.clone(),
                    micro: four(0),
                    macro_documents: four(4),
                }
            })
            .collect();
        let mut paired = Vec::new();
        for metric in TESTED {
            let k = METRICS.iter().position(|m| *m == metric).unwrap_or(0);
            let mut tests = Vec::new();
            for a in 0..self.names.len() {
                for b in a + 1..self.names.len() {
                    let delta = estimates[a][k] - estimates[b][k];
                    let resamples = self.values[a].len();
                    let extreme = (0..resamples)
                        .filter(|&r| {
                            let d = self.values[a][r][k] - self.values[b][r][k];
                            (d - delta).abs() >= delta.abs()
                        })
                        .count();
                    let p = (1 + extreme) as f64 / (resamples + 1) as f64;
                    tests.push((a, b, delta, p.min(1.0)));
                }
            }
            let adjusted = holm(&tests.iter().map(|t| t.3).collect::<Vec<_>>());
            for ((a, b, delta, p), p_holm) in tests.into_iter().zip(adjusted) {
                paired.push(PairedTest {
                    metric: metric.to_string(),
                    a: self.names[a].clone(),
                    b: self.names[b].clone(),
                    difference: delta,
                    p_value: p,
                    p_holm,
                    significant: p_holm <= self.options.alpha,
                });
            }
        }
        BootstrapReport {
            method: "percentile bootstrap over documents (type-7 quantiles); paired bootstrap test, two-sided, Holm-adjusted per score".into(),
            resamples: self.done(),
            seed: self.options.seed,
            level: self.options.level,
            alpha: self.options.alpha,
            documents,
            models,
            paired,
        }
    }
}

/// The bootstrap of a report evaluated with document details (each
/// document's counts); models without details are left out.
pub fn bootstrap_report(
    report: &Report,
    config: &Config,
    options: BootstrapOptions,
) -> BootstrapReport {
    let models = report
        .models
        .iter()
        .filter_map(|m| {
            let docs = m.document_details.as_ref()?;
            Some((m.name.clone(), docs.iter().map(|d| d.counts).collect()))
        })
        .collect();
    Bootstrap::new(models, config, options).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(exact: u64, missed: u64, spurious: u64, true_negative: u64) -> Counts {
        Counts {
            exact,
            missed,
            spurious,
            true_negative,
            ..Counts::default()
        }
    }

    #[test]
    fn quantiles_interpolate_linearly() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 5.0);
        assert_eq!(quantile(&v, 0.5), 3.0);
        // h = 4 × 0.025 = 0.1: 1 + 0.1 × (2 − 1).
        assert!((quantile(&v, 0.025) - 1.1).abs() < 1e-12);
        // h = 4 × 0.975 = 3.9: 4 + 0.9 × (5 − 4).
        assert!((quantile(&v, 0.975) - 4.9).abs() < 1e-12);
        assert_eq!(quantile(&[7.0], 0.3), 7.0);
    }

    #[test]
    fn holm_by_hand() {
        // Sorted: 0.01 (×3 = 0.03), 0.02 (×2 = 0.04), 0.04 (×1 = 0.04).
        let adjusted = holm(&[0.04, 0.01, 0.02]);
        assert_eq!(adjusted, vec![0.04, 0.03, 0.04]);
        // The running maximum keeps adjusted values in order; capped at 1.
        assert_eq!(holm(&[0.3, 0.5, 0.001]), vec![0.6, 0.6, 0.003]);
        assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
    }

    #[test]
    fn one_document_gives_the_point_estimate_every_time() {
        let config = Config::default();
        let docs = vec![c(3, 1, 1, 2)];
        let b = Bootstrap::new(
            vec![("m".into(), docs)],
            &config,
            BootstrapOptions::default(),
        );
        let r = b.finish();
        assert_eq!(r.resamples, 1000);
        let micro_f1 = r.models[0].get("micro.f1").unwrap();
        // P = 3/4, R = 3/4 (FN = MIS = 1), F1 = 0.75.
        assert_eq!(micro_f1.estimate, 0.75);
        assert_eq!((micro_f1.low, micro_f1.high), (0.75, 0.75));
        let acc = r.models[0].get("micro.accuracy").unwrap();
        // (TP + TN) / N = 5/7.
        assert_eq!(
            (acc.estimate, acc.low, acc.high),
            (5.0 / 7.0, 5.0 / 7.0, 5.0 / 7.0)
        );
    }

    #[test]
    fn seeded_and_reproducible_and_incremental() {
        let config = Config::default();
        let docs: Vec<Counts> = (0..30).map(|i| c(i % 5, i % 3, i % 2, 1)).collect();
        let run = |steps: &[usize]| {
            let mut b = Bootstrap::new(
                vec![("m".into(), docs.clone())],
                &config,
                BootstrapOptions::default(),
            );
            for &s in steps {
                b.step(s);
            }
            b.finish()
        };
        let once = run(&[]);
        assert_eq!(once, run(&[1, 10, 100, 5000]));
        let other_seed = {
            let o = BootstrapOptions {
                seed: 2,
                ..BootstrapOptions::default()
            };
            Bootstrap::new(vec![("m".into(), docs.clone())], &config, o).finish()
        };
        assert_ne!(once.models, other_seed.models);
        let f1 = once.models[0].get("micro.f1").unwrap();
        assert!(f1.low < f1.estimate && f1.estimate < f1.high, "{f1:?}");
    }

    #[test]
    fn the_paired_test_tells_a_clearly_better_model_from_an_equal_one() {
        let config = Config::default();
        // 60 documents of 5 values each. A gets all right; B gets half the
        // documents entirely wrong (missed); C equals B document for document.
        let a: Vec<Counts> = (0..60).map(|_| c(5, 0, 0, 0)).collect();
        let b: Vec<Counts> = (0..60)
            .map(|i| {
                if i % 2 == 0 {
                    c(5, 0, 0, 0)
                } else {
                    c(0, 5, 0, 0)
                }
            })
            .collect();
        let r = Bootstrap::new(
            vec![("A".into(), a), ("B".into(), b.clone()), ("C".into(), b)],
            &config,
            BootstrapOptions::default(),
        )
        .finish();
        let test = |x: &str, y: &str, metric: &str| {
            r.paired
                .iter()
                .find(|t| t.a == x && t.b == y && t.metric == metric)
                .unwrap()
                .clone()
        };
        let ab = test("A", "B", "micro.f1");
        // F1(A) = 1; B: P = 1, R = 0.5, F1 = 2/3.
        assert!((ab.difference - (1.0 - 2.0 / 3.0)).abs() < 1e-12);
        assert!(ab.significant, "{ab:?}");
        assert!(ab.p_value < 0.01, "{ab:?}");
        let bc = test("B", "C", "micro.f1");
        assert_eq!(bc.difference, 0.0);
        assert_eq!(bc.p_value, 1.0);
        assert!(!bc.significant);
        // Holm over the three pairs of micro F1: adjusted ≥ raw.
        for t in r.paired.iter().filter(|t| t.metric == "micro.f1") {
            assert!(t.p_holm >= t.p_value);
        }
    }
}
