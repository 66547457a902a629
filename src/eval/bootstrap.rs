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

    /// A document of one field with these counts, valid, no numbers, no items.
    fn doc(counts: Counts) -> DocumentTally {
        DocumentTally {
            counts,
            fields: vec![counts],
            schema_valid: true,
            ..DocumentTally::default()
        }
    }

    fn model(name: &str, documents: Vec<DocumentTally>, has_items: bool) -> ModelTallies {
        ModelTallies {
            name: name.into(),
            documents,
            has_items,
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
        let b = Bootstrap::new(
            vec![model("m", vec![doc(c(3, 1, 1, 2))], false)],
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
        // One field: the macro over fields is that field's scores.
        let mf = r.models[0].get("macro_fields.f1").unwrap();
        assert_eq!((mf.estimate, mf.low, mf.high), (0.75, 0.75, 0.75));
        assert!(r.models[0].items.is_none());
        assert!(r.models[0].get("items.f1").is_none());
    }

    /// Three documents, two fields `a` (a number) and `b`:
    /// D1 — a exact, b exact; valid; 1 of 1 items recognised.
    /// D2 — a missed, b exact; valid; 0 of 1 recognised (1 predicted).
    /// D3 — a true negative, b spurious; not valid; no items.
    fn three_documents() -> Vec<DocumentTally> {
        let items = |recognised, truth_items, pred_items| ItemTally {
            recognised,
            truth_items,
            pred_items,
        };
        vec![
            DocumentTally {
                counts: c(2, 0, 0, 0),
                fields: vec![c(1, 0, 0, 0), c(1, 0, 0, 0)],
                numeric_exact: 1,
                numeric_total: 1,
                schema_valid: true,
                items: items(1, 1, 1),
                confidence: Vec::new(),
            },
            DocumentTally {
                counts: c(1, 1, 0, 0),
                fields: vec![c(0, 1, 0, 0), c(1, 0, 0, 0)],
                numeric_exact: 0,
                numeric_total: 1,
                schema_valid: true,
                items: items(0, 1, 1),
                confidence: Vec::new(),
            },
            DocumentTally {
                counts: c(0, 0, 1, 1),
                fields: vec![c(0, 0, 0, 1), c(0, 0, 1, 0)],
                numeric_exact: 0,
                numeric_total: 0,
                schema_valid: false,
                items: items(0, 0, 0),
                confidence: Vec::new(),
            },
        ]
    }

    #[test]
    fn five_resamples_of_three_documents_by_hand() {
        let config = Config::default();
        let options = BootstrapOptions {
            resamples: 5,
            seed: 3,
            ..BootstrapOptions::default()
        };
        // The draws of seed 3 (fastrand's WyRand; the Python reference
        // reproduces them): how many times D1, D2, D3 are drawn.
        let mut rng = fastrand::Rng::with_seed(3);
        let draws: Vec<[u32; 3]> = (0..5)
            .map(|_| {
                let mut w = [0; 3];
                for _ in 0..3 {
                    w[rng.u64(0..3) as usize] += 1;
                }
                w
            })
            .collect();
        assert_eq!(
            draws,
            vec![[1, 2, 0], [0, 0, 3], [1, 1, 1], [2, 0, 1], [0, 2, 1]]
        );
        // With weights (w1, w2, w3), per field (default config, 0/0 = 0):
        // a: TP = w1, FN = w2, TN = w3, no FP — P = 1 (0 when w1 = 0),
        //    R = w1/(w1 + w2); left out when w1 = w2 = 0.
        // b: TP = w1 + w2, FP = w3 — P = (w1 + w2)/3, R = 1 (0 when w1 + w2 = 0).
        // Macro F1 over fields, per resample:
        //  (1,2,0): a F1 = 2·1·⅓/(4/3) = ½, b F1 = 1       → ¾
        //  (0,0,3): a left out, b P = R = 0                 → 0
        //  (1,1,1): a F1 = ⅔, b F1 = 2·⅔/(5/3) = ⅘          → 11/15
        //  (2,0,1): a F1 = 1, b F1 = ⅘                      → 9/10
        //  (0,2,1): a P = 0/0 = 0, R = 0, F1 = 0; b ⅘       → 2/5
        // sorted 0, 2/5, 11/15, 3/4, 9/10; type 7 with B = 5: h = 0.1 and 3.9.
        let r =
            Bootstrap::new(vec![model("m", three_documents(), true)], &config, options).finish();
        let m = &r.models[0];
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        let mf = m.macro_fields.f1;
        assert!(close(mf.estimate, 11.0 / 15.0), "{mf:?}");
        assert!(close(mf.low, 0.1 * 0.4), "{mf:?}");
        assert!(close(mf.high, 0.75 + 0.9 * (0.9 - 0.75)), "{mf:?}");
        // document_extraction_score = 0.5·np + 0.35·f1_partial + 0.15·validity,
        // np = w1/(w1 + w2); credit = 2w1 + w2, |Pred| = 2w1 + w2 + w3,
        // |Truth| = 2w1 + 2w2; validity = (w1 + w2)/3:
        //  (1,2,0): np ⅓, f1p = 2·1·⅔/(5/3) = ⅘, v 1 → 1/6 + 0.28 + 0.15
        //  (0,0,3): np null → weights re-spread: 2·(0.35·0 + 0.15·0) = 0
        //  (1,1,1): np ½, f1p ¾, v ⅔          → 0.25 + 0.2625 + 0.1 = 0.6125
        //  (2,0,1): np 1, f1p = 2·0.8/1.8 = 8/9, v ⅔ → 0.6 + 0.35·8/9
        //  (0,2,1): np 0, f1p = 2·⅔·½/(7/6) = 4/7, v ⅔ → 0.2 + 0.1 = 0.3
        let des = m.document_extraction_score;
        let des_4 = 0.6 + 0.35 * 8.0 / 9.0;
        assert!(close(des.estimate, 0.6125), "{des:?}");
        assert!(close(des.low, 0.1 * 0.3), "{des:?}");
        assert!(close(des.high, 0.6125 + 0.9 * (des_4 - 0.6125)), "{des:?}");
        // Item F1 = w1/(w1 + w2) (P = R), 0/0 = 0: ⅓, 0, ½, 1, 0.
        let items = m.items.unwrap().f1;
        assert!(close(items.estimate, 0.5), "{items:?}");
        assert!(close(items.low, 0.0), "{items:?}");
        assert!(close(items.high, 0.5 + 0.9 * 0.5), "{items:?}");
        // Micro F1 for comparison: TP = 2w1 + w2, FP = w3, FN = w2 — the
        // resample of all three documents once each is the estimate.
        let micro = m.micro.f1;
        assert!(close(micro.estimate, 0.75), "{micro:?}");
    }

    #[test]
    fn seeded_and_reproducible_and_incremental() {
        let config = Config::default();
        let docs: Vec<DocumentTally> = (0..30).map(|i| doc(c(i % 5, i % 3, i % 2, 1))).collect();
        let run = |steps: &[usize]| {
            let mut b = Bootstrap::new(
                vec![model("m", docs.clone(), false)],
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
            Bootstrap::new(vec![model("m", docs.clone(), false)], &config, o).finish()
        };
        assert_ne!(once.models, other_seed.models);
        let f1 = once.models[0].get("micro.f1").unwrap();
        assert!(f1.low < f1.estimate && f1.estimate < f1.high, "{f1:?}");
    }

    /// 60 documents of two fields (`f` a number, `g`) and one item each.
    /// A gets everything right; B gets the odd documents entirely wrong
    /// (both fields missed, not schema-valid, the item not recognised); C
    /// equals B document for document; D is A without item lists.
    fn better_and_equal() -> BootstrapReport {
        let right = DocumentTally {
            counts: c(2, 0, 0, 0),
            fields: vec![c(1, 0, 0, 0); 2],
            numeric_exact: 1,
            numeric_total: 1,
            schema_valid: true,
            items: ItemTally {
                recognised: 1,
                truth_items: 1,
                pred_items: 1,
            },
            confidence: Vec::new(),
        };
        let wrong = DocumentTally {
            counts: c(0, 2, 0, 0),
            fields: vec![c(0, 1, 0, 0); 2],
            numeric_exact: 0,
            numeric_total: 1,
            schema_valid: false,
            items: ItemTally {
                recognised: 0,
                truth_items: 1,
                pred_items: 1,
            },
            confidence: Vec::new(),
        };
        let a: Vec<DocumentTally> = (0..60).map(|_| right.clone()).collect();
        let b: Vec<DocumentTally> = (0..60)
            .map(|i| {
                if i % 2 == 0 {
                    right.clone()
                } else {
                    wrong.clone()
                }
            })
            .collect();
        Bootstrap::new(
            vec![
                model("A", a.clone(), true),
                model("B", b.clone(), true),
                model("C", b, true),
                model("D", a, false),
            ],
            &Config::default(),
            BootstrapOptions::default(),
        )
        .finish()
    }

    #[test]
    fn the_paired_test_tells_a_clearly_better_model_from_an_equal_one() {
        let r = better_and_equal();
        let test = |x: &str, y: &str, metric: &str| r.test(metric, x, y).unwrap().clone();
        // B: P = 1, R = ½ on micro and on each field; item P = R = ½;
        // document_extraction_score = 0.5·½ + 0.35·⅔ + 0.15·½.
        let b_des = 0.25 + 0.35 * 2.0 / 3.0 + 0.075;
        for (metric, difference) in [
            ("micro.f1", 1.0 - 2.0 / 3.0),
            ("micro.accuracy", 0.5),
            // Per document P = R = 1 or 0 (0/0 = 0): macro P = R = F1 = ½.
            ("macro_documents.f1", 0.5),
            ("macro_fields.f1", 1.0 - 2.0 / 3.0),
            ("document_extraction_score", 1.0 - b_des),
            ("items.f1", 0.5),
        ] {
            let ab = test("A", "B", metric);
            assert!((ab.difference - difference).abs() < 1e-12, "{ab:?}");
            assert!(ab.significant, "{ab:?}");
            assert!(ab.p_value < 0.01, "{ab:?}");
            // Equal models: no difference, p = 1, not significant.
            let bc = test("B", "C", metric);
            assert_eq!((bc.difference, bc.p_value), (0.0, 1.0), "{bc:?}");
            assert!(!bc.significant);
            // Holm over the pairs of one score: adjusted ≥ raw.
            for t in r.paired.iter().filter(|t| t.metric == metric) {
                assert!(t.p_holm >= t.p_value);
            }
            assert!(r.below_best(metric, "B"), "{metric}");
            assert!(!r.below_best(metric, "A"), "{metric}");
        }
        // Estimates are the full-sample scores.
        let b = r.model("B").unwrap();
        assert!((b.document_extraction_score.estimate - b_des).abs() < 1e-12);
        assert_eq!(b.items.unwrap().f1.estimate, 0.5);
        assert_eq!(b.macro_fields.f1.estimate, 2.0 / 3.0);
        // D has no item lists: no item intervals and no item tests; it
        // ties with A everywhere else (difference 0, p = 1).
        assert!(r.model("D").unwrap().items.is_none());
        assert!(r
            .paired
            .iter()
            .all(|t| t.metric != "items.f1" || (t.a != "D" && t.b != "D")));
        assert_eq!(
            r.paired.iter().filter(|t| t.metric == "items.f1").count(),
            3
        );
        assert_eq!(test("A", "D", "macro_fields.f1").p_value, 1.0);
        // Six scores tested: 6 pairs each, 3 for items.
        assert_eq!(r.paired.len(), 5 * 6 + 3);
    }

    fn pair(confidence: f64, correct: bool) -> Pair {
        Pair {
            confidence,
            correct,
        }
    }

    /// `doc` with these confidence pairs.
    fn with_pairs(counts: Counts, pairs: &[(f64, bool)]) -> DocumentTally {
        DocumentTally {
            confidence: pairs.iter().map(|&(c, y)| pair(c, y)).collect(),
            ..doc(counts)
        }
    }

    #[test]
    fn five_resamples_of_confidence_pairs_by_hand() {
        let config = Config::default();
        let options = BootstrapOptions {
            resamples: 5,
            seed: 3,
            ..BootstrapOptions::default()
        };
        // D1: (0.9, right), (0.4, wrong); D2: (0.8, right); D3: no pair.
        // Seed 3 draws (D1, D2, D3) = (1,2,0), (0,0,3), (1,1,1), (2,0,1),
        // (0,2,1) (see five_resamples_of_three_documents_by_hand).
        let docs = vec![
            with_pairs(c(1, 1, 0, 0), &[(0.9, true), (0.4, false)]),
            with_pairs(c(1, 0, 0, 0), &[(0.8, true)]),
            doc(c(0, 0, 0, 1)),
        ];
        // One resample worked by hand from its draw, (1,2,0): pairs 0.9 ✓,
        // 0.4 ✗, 0.8 ✓, 0.8 ✓ (D2's twice). Bins of 0.1: [0.9, 1] 1 pair,
        // gap |1 − 0.9|; [0.8, 0.9) 2 pairs, gap 0.2; [0.4, 0.5) 1 pair,
        // gap |0 − 0.4|: ece = ¼·0.1 + ½·0.2 + ¼·0.4 = 0.225.
        let settings = confidence_settings(&config);
        let mut buffer = Vec::new();
        let r1 = confidence_scores(&docs, &[1, 2, 0], &settings, &mut buffer);
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        assert!(close(r1[0], 0.225), "{r1:?}");
        // brier = (0.01 + 0.16 + 0.04 + 0.04) / 4; every right pair above
        // the wrong one: auroc 1; aurc: only at 0.4 (coverage ¾ → 1) is
        // there a risk, ¼: ¼ · ¼.
        assert!(close(r1[1], 0.0625) && r1[2] == 1.0 && close(r1[3], 0.0625));
        // (0,0,3) draws no pair: every score undefined. (0,2,1): two right
        // pairs of 0.8: auroc undefined, ece 0.2, brier 0.04, aurc 0.
        let r2 = confidence_scores(&docs, &[0, 0, 3], &settings, &mut buffer);
        assert!(r2.iter().all(|x| x.is_nan()), "{r2:?}");
        let r5 = confidence_scores(&docs, &[0, 2, 1], &settings, &mut buffer);
        assert!(close(r5[0], 0.2) && close(r5[1], 0.04) && r5[3] == 0.0);
        assert!(r5[2].is_nan());

        let r = Bootstrap::new(vec![model("m", docs, false)], &config, options).finish();
        let ci = r.models[0].confidence.expect("the model has pairs");
        // Estimate (1,1,1): 0.9 ✓, 0.4 ✗, 0.8 ✓: ece = (0.1 + 0.2 + 0.4)/3,
        // brier = 0.21/3, aurc = ⅓ · ⅓. (2,0,1): ece ½·0.1 + ½·0.4 = 0.25,
        // brier 0.085, aurc ½ · ½.
        // ece over the 4 resamples with a pair: 0.2, 0.225, 0.7/3, 0.25;
        // type 7 with B' = 4: h = 0.075 and 2.925.
        assert_eq!((ci.resamples, ci.auroc_resamples), (4, 3));
        let ece = ci.ece;
        assert!(close(ece.estimate, 0.7 / 3.0), "{ece:?}");
        assert!(close(ece.low, 0.2 + 0.075 * 0.025), "{ece:?}");
        assert!(close(ece.high, 0.7 / 3.0 + 0.925 * (0.25 - 0.7 / 3.0)));
        let brier = ci.brier;
        assert!(close(brier.estimate, 0.07), "{brier:?}");
        // 0.04, 0.0625, 0.07, 0.085.
        assert!(close(brier.low, 0.04 + 0.075 * 0.0225), "{brier:?}");
        assert!(close(brier.high, 0.07 + 0.925 * 0.015), "{brier:?}");
        let aurc = ci.aurc;
        assert!(close(aurc.estimate, 1.0 / 9.0), "{aurc:?}");
        // 0, 0.0625, 1/9, 0.25.
        assert!(close(aurc.low, 0.075 * 0.0625), "{aurc:?}");
        assert!(close(aurc.high, 1.0 / 9.0 + 0.925 * (0.25 - 1.0 / 9.0)));
        // auroc is 1 on the three resamples where it is defined.
        let auroc = ci.auroc.unwrap();
        assert_eq!((auroc.estimate, auroc.low, auroc.high), (1.0, 1.0, 1.0));
        assert_eq!(r.models[0].get("confidence.aurc"), Some(&aurc));
        // The headline scores are untouched by the pairs.
        assert!(r.models[0].get("micro.f1").is_some());
        // One model: no test.
        assert!(r.paired.is_empty());
    }

    #[test]
    fn the_indexed_pairs_give_the_plain_rule_bit_for_bit() {
        // Documents of 0–4 pairs (confidences in tenths: ties and bin
        // edges), resampled by draw_weights: the resampler's scores are
        // confidence_scores' (group_scores over the pairs written out).
        let config = Config::default();
        let mut rng = fastrand::Rng::with_seed(12);
        let docs: Vec<DocumentTally> = (0..25)
            .map(|_| {
                let pairs: Vec<(f64, bool)> = (0..rng.usize(0..5))
                    .map(|_| (f64::from(rng.u8(0..=10)) / 10.0, rng.bool()))
                    .collect();
                with_pairs(c(1, 0, 0, 0), &pairs)
            })
            .collect();
        let resampler = ConfidenceResampler::new(&docs, &config).unwrap();
        let settings = confidence_settings(&config);
        let mut weights = vec![0; docs.len()];
        let mut buffer = Vec::new();
        for _ in 0..200 {
            draw_weights(&mut rng, &mut weights);
            let fast = resampler.scores(&weights).map(f64::to_bits);
            let plain = confidence_scores(&docs, &weights, &settings, &mut buffer);
            assert_eq!(fast, plain.map(f64::to_bits), "{weights:?}");
        }
        assert!(ConfidenceResampler::new(&[doc(c(1, 0, 0, 0))], &config).is_none());
    }

    #[test]
    fn an_undefined_auroc_estimate_has_no_interval() {
        // Every pair right: auroc null in the report and here.
        let docs: Vec<DocumentTally> = (0..10)
            .map(|i| with_pairs(c(1, 0, 0, 0), &[(0.5 + f64::from(i) / 40.0, true)]))
            .collect();
        let config = Config::default();
        let r = Bootstrap::new(
            vec![model("m", docs, false)],
            &config,
            BootstrapOptions::default(),
        )
        .finish();
        let ci = r.models[0].confidence.unwrap();
        assert_eq!((ci.auroc, ci.auroc_resamples), (None, 0));
        assert_eq!(ci.resamples, 1000);
        // All right: aurc 0 on every resample.
        assert_eq!(
            (ci.aurc.estimate, ci.aurc.low, ci.aurc.high),
            (0.0, 0.0, 0.0)
        );
        assert!(r.models[0].get("confidence.auroc").is_none());
    }

    /// 60 documents, one field, two pairs each: A ranks its right value
    /// (0.9) above its wrong one (0.2); B the other way round; C equals B;
    /// D has no confidence.
    fn ranked() -> BootstrapReport {
        let counts = c(1, 1, 0, 0);
        let good = with_pairs(counts, &[(0.9, true), (0.2, false)]);
        let bad = with_pairs(counts, &[(0.2, true), (0.9, false)]);
        let models = vec![
            model("A", vec![good; 60], false),
            model("B", vec![bad.clone(); 60], false),
            model("C", vec![bad; 60], false),
            model("D", vec![doc(counts); 60], false),
        ];
        Bootstrap::new(models, &Config::default(), BootstrapOptions::default()).finish()
    }

    #[test]
    fn the_paired_aurc_test_finds_the_better_ranking_model() {
        let r = ranked();
        let aurc = |name: &str| r.model(name).unwrap().get("confidence.aurc").copied();
        // A: accepting 0.9 first, risk 0 over coverage ½, then ½ over the
        // rest: aurc ¼. B: risk 1 over the first half, ½ then: ¾.
        assert_eq!(aurc("A").unwrap().estimate, 0.25);
        assert_eq!(aurc("B").unwrap().estimate, 0.75);
        assert!(aurc("D").is_none());
        assert!(r.model("D").unwrap().confidence.is_none());
        // Every document alike: every resample gives the estimate.
        let a = aurc("A").unwrap();
        assert_eq!((a.low, a.high), (0.25, 0.25));
        let tests: Vec<&PairedTest> = r
            .paired
            .iter()
            .filter(|t| t.metric == "confidence.aurc")
            .collect();
        // Only between the models with pairs: A–B, A–C, B–C.
        assert_eq!(tests.len(), 3);
        let ab = r.test("confidence.aurc", "A", "B").unwrap();
        assert_eq!((ab.a.as_str(), ab.b.as_str()), ("A", "B"));
        // A − B < 0: A's AURC is lower, so A is better.
        assert_eq!(ab.difference, -0.5);
        // δ_b = δ on every resample: |δ_b − δ| = 0 < |δ| — p = 1/1001, and
        // Holm over the three pairs: 3/1001 for the smallest two.
        assert_eq!(ab.p_value, 1.0 / 1001.0);
        assert_eq!(ab.p_holm, 3.0 / 1001.0);
        assert!(ab.significant);
        let bc = r.test("confidence.aurc", "B", "C").unwrap();
        assert_eq!(
            (bc.difference, bc.p_value, bc.significant),
            (0.0, 1.0, false)
        );
        // Lower is better: B is significantly above (worse than) A, the best.
        assert!(r.below_best("confidence.aurc", "B"));
        assert!(!r.below_best("confidence.aurc", "A"));
        // ece is not tested, so no mark.
        assert!(!r.below_best("confidence.ece", "B"));
    }

    #[test]
    fn a_model_without_confidence_serialises_no_confidence_key() {
        let r = ranked();
        let json = serde_json::to_value(&r).unwrap();
        let d = &json["models"][3];
        assert_eq!(d["name"], "D");
        assert!(d.get("confidence").is_none());
        assert!(json["models"][0]["confidence"]["aurc"]["estimate"].is_number());
        assert_eq!(json["models"][0]["confidence"]["resamples"], 1000);
    }
}
