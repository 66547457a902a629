//! Confidence intervals and paired significance tests by resampling
//! documents (issue 5; beyond SPEC.md, which defines point estimates only).
//!
//! Owns: the percentile bootstrap over documents, the paired bootstrap test
//! between models, the Holm correction, and their report
//! ([`BootstrapReport`], the report's `bootstrap` key). Pure: it reads
//! what each document contributes to each model's scores (the
//! [`DocumentTally`]s an evaluation with details keeps) and recomputes
//! every headline score of a resample with the report's own functions of
//! `counts` — [`strict_scores`] (micro), [`macro_over_documents`],
//! [`macro_over_fields`] (each field's counts summed over the drawn
//! documents; a field with |Truth| = |Pred| = 0 in the resample is left
//! out, as SPEC §3.2 says), [`partial_scores`], [`numeric_precision`] and
//! [`document_extraction_score`] (SPEC §3.5, the weights re-spread when a
//! resample has no numeric truth value), [`items_summary`] (SPEC §3.4) —
//! so a resample of all documents once each gives back the report's
//! numbers exactly, and there is no second formula. Depends on `counts`,
//! `config`, `report` and `fastrand`.
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
//! The scores tested are [`TESTED`]; `items.f1` only between models that
//! both have item lists.
//!
//! **Confidence** (SPEC §8.5: "ece, brier, auroc and aurc get intervals
//! and each pair of models a paired test on aurc"): for a model with
//! confidence pairs, [`CONFIDENCE_METRICS`] are recomputed per resample by
//! [`group_scores`] over the drawn documents' pairs (each document's
//! [`DocumentTally::confidence`], in document order, a document drawn `k`
//! times giving its pairs `k` times in a row), so the resample of every
//! document once is the report's `confidence` block. The pairs are
//! indexed once per model ([`ConfidenceResampler`], through
//! `confidence::PairIndex`: each pair's bin and group of equal confidence),
//! so a resample costs O(pairs drawn) instead of a sort, and gives
//! [`confidence_scores`]' numbers — `group_scores` over the pairs written
//! out — bit for bit (tested both here and in `confidence`). A score the report
//! would give as `null` on a resample — every score when the drawn
//! documents have no pair, `auroc` when their pairs are all correct or all
//! incorrect — is undefined there: as the report's own function says (no
//! number, not `zero_division`, which SPEC §8.3 does not apply to these
//! scores), that resample is left out of that score's interval, and the
//! intervals say over how many resamples they are taken. The paired test
//! on `confidence.aurc` (between models that both have pairs; a smaller
//! AURC is better) is taken over the resamples where both models have a
//! pair: `p = (1 + #{b : |δ_b − δ| ≥ |δ|}) / (B' + 1)`, `B'` of them.
//!
//! **Holm–Bonferroni** (Holm 1979) over the `m` pairs of one score: with
//! the p-values sorted ascending `p(1) ≤ … ≤ p(m)`, the adjusted value is
//! `p̃(i) = max_{j ≤ i} min(1, (m − j + 1) · p(j))`; a pair differs
//! significantly when `p̃ ≤ alpha`.

use crate::eval::confidence::{group_scores, ConfidenceSettings, Pair, PairIndex};
use crate::eval::config::Config;
use crate::eval::counts::{
    document_extraction_score, items_summary, macro_over_documents, macro_over_fields, mean,
    numeric_precision, partial_scores, strict_scores,
};
pub use crate::eval::intervals::{
    lower_is_better, BootstrapReport, ConfidenceIntervals, Interval, ItemIntervals, ModelIntervals,
    PairedTest, ScoreIntervals,
};
use crate::eval::report::{Counts, DocumentTally, ItemTally, ModelReport, Report, Scores};

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

/// The scores resampled, as named in the report: precision, recall, F1
/// and accuracy under the three averages, `document_extraction_score`, and
/// the line-item precision, recall and F1 (`items.*`, for models with item
/// lists).
pub const METRICS: [&str; 16] = [
    "micro.precision",
    "micro.recall",
    "micro.f1",
    "micro.accuracy",
    "macro_documents.precision",
    "macro_documents.recall",
    "macro_documents.f1",
    "macro_documents.accuracy",
    "macro_fields.precision",
    "macro_fields.recall",
    "macro_fields.f1",
    "macro_fields.accuracy",
    "document_extraction_score",
    "items.precision",
    "items.recall",
    "items.f1",
];

/// Position of the first `items.*` score in [`METRICS`].
const ITEMS: usize = 13;

/// The scores compared between models by the paired test (Holm over the
/// model pairs of each one separately).
pub const TESTED: [&str; 6] = [
    "micro.f1",
    "micro.accuracy",
    "macro_documents.f1",
    "macro_fields.f1",
    "document_extraction_score",
    "items.f1",
];

/// The confidence scores resampled (SPEC §8.5), as named in the report's
/// model object (`confidence.ece` is the `ece` of its `confidence` block),
/// for models with confidence pairs.
pub const CONFIDENCE_METRICS: [&str; 4] = [
    "confidence.ece",
    "confidence.brier",
    "confidence.auroc",
    "confidence.aurc",
];

/// The confidence score compared between models by the paired test (Holm
/// over the pairs of models that both have confidence pairs).
pub const CONFIDENCE_TESTED: &str = "confidence.aurc";

/// One model's input to the bootstrap: each document's tally (every model
/// over the same documents in the same order) and whether the model has
/// item lists (its report's `items` is not null).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelTallies {
    pub name: String,
    pub documents: Vec<DocumentTally>,
    pub has_items: bool,
}

impl ModelTallies {
    /// From a model's report evaluated with details; `None` without them.
    pub fn of(m: &ModelReport) -> Option<ModelTallies> {
        Some(ModelTallies {
            name: m.name.clone(),
            documents: m.document_tallies.clone()?,
            has_items: m.items.is_some(),
        })
    }
}

/// The settings [`confidence_scores`] needs of the config's: the number of
/// bins (`ece`); the threshold rows, targets and review budgets, which no
/// resampled score reads, are left empty so that they are not computed.
pub fn confidence_settings(config: &Config) -> ConfidenceSettings {
    ConfidenceSettings {
        thresholds: Vec::new(),
        target_accuracy: Vec::new(),
        review_budgets: Vec::new(),
        ..config.confidence.settings()
    }
}

/// The scores of [`CONFIDENCE_METRICS`] for a multiset of documents, given
/// as how many times each document is drawn: [`group_scores`] over the
/// drawn documents' pairs in document order (a document drawn `k` times
/// gives its pairs `k` times in a row), NaN where the report would say
/// `null` (no pair drawn; `auroc` with every pair drawn correct, or every
/// one incorrect). `pairs` is a buffer, overwritten.
pub fn confidence_scores(
    docs: &[DocumentTally],
    weights: &[u32],
    settings: &ConfidenceSettings,
    pairs: &mut Vec<Pair>,
) -> [f64; 4] {
    pairs.clear();
    for (d, &w) in docs.iter().zip(weights) {
        for _ in 0..w {
            pairs.extend_from_slice(&d.confidence);
        }
    }
    match group_scores(pairs, settings) {
        Some(g) => [g.ece, g.brier, g.auroc.unwrap_or(f64::NAN), g.aurc],
        None => [f64::NAN; 4],
    }
}

/// A model's confidence pairs indexed for resampling ([`PairIndex`]):
/// every document's pairs in document order, and where each document's
/// are. Its [`ConfidenceResampler::scores`] are [`confidence_scores`]'
/// bit for bit, without sorting the pairs of each resample.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfidenceResampler {
    index: PairIndex,
    /// Per document, its pairs' positions in the index.
    documents: Vec<std::ops::Range<usize>>,
}

impl ConfidenceResampler {
    /// The pairs of `docs` for `config`'s bins; `None` when there is none
    /// (a model without confidences).
    pub fn new(docs: &[DocumentTally], config: &Config) -> Option<ConfidenceResampler> {
        let mut pairs = Vec::new();
        let mut documents = Vec::with_capacity(docs.len());
        for d in docs {
            let start = pairs.len();
            pairs.extend_from_slice(&d.confidence);
            documents.push(start..pairs.len());
        }
        if pairs.is_empty() {
            return None;
        }
        Some(ConfidenceResampler {
            index: PairIndex::new(pairs, config.confidence.bins),
            documents,
        })
    }

    /// The scores of [`CONFIDENCE_METRICS`] for the documents drawn
    /// `weights[i]` times each, NaN where undefined (as
    /// [`confidence_scores`]).
    pub fn scores(&self, weights: &[u32]) -> [f64; 4] {
        let runs = self.documents.iter().cloned().zip(weights.iter().copied());
        match self.index.scores(runs) {
            Some(s) => [s.ece, s.brier, s.auroc.unwrap_or(f64::NAN), s.aurc],
            None => [f64::NAN; 4],
        }
    }
}

/// The percentile interval (type 7, `level`) of the values that are
/// defined (not NaN), around `estimate`, and how many there are; NaN
/// bounds when none is.
fn interval_of_defined(estimate: f64, values: &[f64], level: f64) -> (Interval, usize) {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    v.sort_by(f64::total_cmp);
    let tail = (1.0 - level) / 2.0;
    let interval = Interval {
        estimate,
        low: quantile(&v, tail),
        high: quantile(&v, 1.0 - tail),
    };
    (interval, v.len())
}

/// One score compared between models: its estimate per model and each
/// model's resampled values (NaN where a model has no such score).
struct Tested {
    metric: &'static str,
    estimates: Vec<f64>,
    values: Vec<Vec<f64>>,
}

/// The two-sided paired tests of one score between every pair of models
/// whose estimate is defined (not NaN), Holm-adjusted together:
/// `(a, b, δ, p, p_holm)`. A resample where either model's value is NaN
/// is left out of that pair's test (the headline scores never are).
fn paired_tests(estimates: &[f64], values: &[Vec<f64>]) -> Vec<(usize, usize, f64, f64, f64)> {
    let mut tests = Vec::new();
    for a in 0..estimates.len() {
        for b in a + 1..estimates.len() {
            if estimates[a].is_nan() || estimates[b].is_nan() {
                continue;
            }
            let delta = estimates[a] - estimates[b];
            let (mut resamples, mut extreme) = (0usize, 0usize);
            for (x, y) in values[a].iter().zip(&values[b]) {
                let d = x - y;
                if d.is_nan() {
                    continue;
                }
                resamples += 1;
                if (d - delta).abs() >= delta.abs() {
                    extreme += 1;
                }
            }
            let p = (1 + extreme) as f64 / (resamples + 1) as f64;
            tests.push((a, b, delta, p.min(1.0)));
        }
    }
    let adjusted = holm(&tests.iter().map(|t| t.3).collect::<Vec<_>>());
    tests
        .into_iter()
        .zip(adjusted)
        .map(|((a, b, delta, p), p_holm)| (a, b, delta, p, p_holm))
        .collect()
}

/// The scores of [`METRICS`] for a multiset of documents, given as how
/// many times each document is drawn, each from the report's own function
/// (`items.*` are NaN when the model has no item list). `crate::eval::gate`
/// reads its one-sided tests' headline scores from here too.
pub fn scores(
    docs: &[DocumentTally],
    weights: &[u32],
    has_items: bool,
    config: &Config,
) -> [f64; 16] {
    let fields = docs.first().map_or(0, |d| d.fields.len());
    let mut total = Counts::default();
    let mut per_field = vec![Counts::default(); fields];
    let mut drawn: Vec<&Counts> = Vec::with_capacity(docs.len());
    let mut items: Vec<&ItemTally> = Vec::with_capacity(docs.len());
    let mut valid: Vec<f64> = Vec::with_capacity(docs.len());
    let (mut numeric_exact, mut numeric_total) = (0, 0);
    for (d, &w) in docs.iter().zip(weights) {
        for _ in 0..w {
            total += d.counts;
            for (sum, c) in per_field.iter_mut().zip(&d.fields) {
                *sum += *c;
            }
            drawn.push(&d.counts);
            items.push(&d.items);
            valid.push(f64::from(u8::from(d.schema_valid)));
            numeric_exact += d.numeric_exact;
            numeric_total += d.numeric_total;
        }
    }
    let micro = strict_scores(&total, config);
    let macro_docs = macro_over_documents(drawn, config);
    let mf = macro_over_fields(&per_field, config);
    let macro_fields = Scores {
        precision: mf.precision,
        recall: mf.recall,
        f1: mf.f1,
        accuracy: mf.accuracy,
    };
    let schema_validity_rate = mean(valid, config.zero_division);
    let des = document_extraction_score(
        numeric_precision(numeric_exact, numeric_total),
        partial_scores(&total, config).f1,
        schema_validity_rate,
        config,
    );
    let (ip, ir, if1) = if has_items {
        let s = items_summary(items, config);
        (s.precision, s.recall, s.f1)
    } else {
        (f64::NAN, f64::NAN, f64::NAN)
    };
    let mut out = [0.0; 16];
    for (k, s) in [micro, macro_docs, macro_fields].iter().enumerate() {
        out[4 * k..4 * k + 4].copy_from_slice(&[s.precision, s.recall, s.f1, s.accuracy]);
    }
    out[12] = des;
    out[ITEMS..].copy_from_slice(&[ip, ir, if1]);
    out
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

/// One resample: `weights.len()` document indices drawn uniformly with
/// replacement (`u64` draws), `weights[i]` set to how many times document
/// `i` is drawn. Every resampling of fieldscope draws through this
/// function, so one seed gives the same resamples to `--bootstrap` and to
/// `fieldscope gate`.
pub fn draw_weights(rng: &mut fastrand::Rng, weights: &mut [u32]) {
    let documents = weights.len();
    weights.iter_mut().for_each(|w| *w = 0);
    for _ in 0..documents {
        let i = rng.u64(0..documents as u64) as usize;
        weights[i] += 1;
    }
}

/// The seed of a named stream of draws from the generator seeded `seed`:
/// `seed` XOR the FNV-1a 64 hash of `name`'s bytes, the same on every
/// platform, so that each stream (SPEC §9.2: each slice's test) has its
/// own draws whatever other streams there are.
pub fn named_seed(seed: u64, name: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in name.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    seed ^ hash
}

/// A bootstrap in progress: step it a few resamples at a time (the app
/// does, between frames), then finish.
pub struct Bootstrap<'c> {
    models: Vec<ModelTallies>,
    config: &'c Config,
    options: BootstrapOptions,
    rng: fastrand::Rng,
    /// Per model, per resample, the scores of [`METRICS`].
    values: Vec<Vec<[f64; 16]>>,
    weights: Vec<u32>,
    /// Per model: its pairs indexed, `None` without confidences.
    resamplers: Vec<Option<ConfidenceResampler>>,
    /// Per model with confidence pairs (empty for the others), per
    /// resample, the scores of [`CONFIDENCE_METRICS`] (NaN: undefined).
    confidence: Vec<Vec<[f64; 4]>>,
}

impl<'c> Bootstrap<'c> {
    /// `models`: each model's tallies, every model over the same documents
    /// in the same order.
    pub fn new(models: Vec<ModelTallies>, config: &'c Config, options: BootstrapOptions) -> Self {
        let documents = models.first().map_or(0, |m| m.documents.len());
        let resamplers: Vec<Option<ConfidenceResampler>> = models
            .iter()
            .map(|m| ConfidenceResampler::new(&m.documents, config))
            .collect();
        Bootstrap {
            values: vec![Vec::with_capacity(options.resamples); models.len()],
            confidence: resamplers
                .iter()
                .map(|r| Vec::with_capacity(if r.is_some() { options.resamples } else { 0 }))
                .collect(),
            resamplers,
            models,
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
            draw_weights(&mut self.rng, &mut self.weights);
            for (m, model) in self.models.iter().enumerate() {
                let s = scores(
                    &model.documents,
                    &self.weights,
                    model.has_items,
                    self.config,
                );
                self.values[m].push(s);
                if let Some(r) = &self.resamplers[m] {
                    self.confidence[m].push(r.scores(&self.weights));
                }
            }
        }
        self.done()
    }

    /// The intervals and the paired tests.
    pub fn finish(mut self) -> BootstrapReport {
        self.step(usize::MAX);
        let documents = self.weights.len();
        let ones = vec![1u32; documents];
        let estimates: Vec<[f64; 16]> = self
            .models
            .iter()
            .map(|m| scores(&m.documents, &ones, m.has_items, self.config))
            .collect();
        // NaN for a model without pairs (no score), and where undefined.
        let confidence_estimates: Vec<[f64; 4]> = self
            .resamplers
            .iter()
            .map(|r| r.as_ref().map_or([f64::NAN; 4], |r| r.scores(&ones)))
            .collect();
        let level = self.options.level;
        let tail = (1.0 - level) / 2.0;
        let models = self
            .models
            .iter()
            .enumerate()
            .map(|(m, model)| {
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
                    name: model.name.clone(),
                    micro: four(0),
                    macro_documents: four(4),
                    macro_fields: four(8),
                    document_extraction_score: interval(12),
                    items: model.has_items.then(|| ItemIntervals {
                        precision: interval(ITEMS),
                        recall: interval(ITEMS + 1),
                        f1: interval(ITEMS + 2),
                    }),
                    confidence: self.resamplers[m].is_some().then(|| {
                        let e = &confidence_estimates[m];
                        let of = |k: usize| {
                            let v: Vec<f64> = self.confidence[m].iter().map(|s| s[k]).collect();
                            interval_of_defined(e[k], &v, level)
                        };
                        let (ece, resamples) = of(0);
                        let (auroc, auroc_resamples) = of(2);
                        ConfidenceIntervals {
                            resamples,
                            ece,
                            brier: of(1).0,
                            auroc: (!e[2].is_nan()).then_some(auroc),
                            auroc_resamples,
                            aurc: of(3).0,
                        }
                    }),
                }
            })
            .collect();
        // Per score, its estimates and each model's resampled values (NaN
        // where a model has no such score: items.* without item lists,
        // confidence.aurc without pairs).
        let mut scored: Vec<Tested> = Vec::new();
        for metric in TESTED {
            let Some(k) = METRICS.iter().position(|m| *m == metric) else {
                continue;
            };
            let values = self
                .values
                .iter()
                .map(|v| v.iter().map(|s| s[k]).collect())
                .collect();
            scored.push(Tested {
                metric,
                estimates: estimates.iter().map(|e| e[k]).collect(),
                values,
            });
        }
        if let Some(k) = CONFIDENCE_METRICS
            .iter()
            .position(|m| *m == CONFIDENCE_TESTED)
        {
            let values = self
                .confidence
                .iter()
                .map(|v| v.iter().map(|s| s[k]).collect())
                .collect();
            let estimates = confidence_estimates.iter().map(|e| e[k]).collect();
            scored.push(Tested {
                metric: CONFIDENCE_TESTED,
                estimates,
                values,
            });
        }
        let mut paired = Vec::new();
        for Tested {
            metric,
            estimates,
            values,
        } in scored
        {
            for (a, b, delta, p, p_holm) in paired_tests(&estimates, &values) {
                paired.push(PairedTest {
                    metric: metric.to_string(),
                    a: self.models[a].name.clone(),
                    b: self.models[b].name.clone(),
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

/// The bootstrap of a report evaluated with details (each document's
/// tallies); models without them are left out.
pub fn bootstrap_report(
    report: &Report,
    config: &Config,
    options: BootstrapOptions,
) -> BootstrapReport {
    let models = report.models.iter().filter_map(ModelTallies::of).collect();
    Bootstrap::new(models, config, options).finish()
}

#[cfg(test)]
mod tests;
