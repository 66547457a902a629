//! Statistics over documents: percentile bootstrap intervals of the
//! headline scores, paired approximate-randomisation tests between models
//! and Holm's correction.
//!
//! Owns: [`Samples`] (each model's per-document counts — exactly what
//! [`crate::eval::evaluate`] sums into the report), the headline scores
//! recomputed from weighted sums of them ([`Score`]), the incremental
//! [`StatsJob`] (step it N units at a time, read its progress, finish it;
//! the app can run it in chunks and drop it to cancel), [`quantile`] and
//! [`holm`]. Pure: no I/O, no clock, no unseeded randomness. Depends on
//! `counts`, `config`, `report` and `fastrand`.
//!
//! # Why documents
//!
//! Fields inside one document are not independent (one bad scan spoils
//! them all), so the unit of resampling and of swapping is the document:
//! a document's counts move together.
//!
//! # The bootstrap (Efron & Tibshirani 1993, *An Introduction to the
//! Bootstrap*, ch. 13, the percentile interval)
//!
//! For each of B resamples (1,000 by default): draw n document indices
//! uniformly with replacement (n = number of truth documents), i.e. give
//! document d the weight w_d = how often it was drawn; recompute every
//! score from the weighted sums (Σ w_d·counts_d for pooled scores, weighted
//! means Σ w_d·s_d / Σ w_d for the means over documents; the per-field
//! counts Σ w_d·counts_{d,f} for the macro over fields). The same resampled
//! indices serve every model. The interval at confidence 1 − α (α = 0.05 by
//! default) is [Q(α/2), Q(1 − α/2)] of the B resampled values, with [`quantile`]
//! the linear interpolation between order statistics (Hyndman & Fan 1996,
//! type 7; numpy's and R's default).
//!
//! # The paired test (approximate randomisation: Noreen 1989,
//! *Computer-Intensive Methods for Testing Hypotheses*; Yeh 2000, "More
//! accurate tests for the statistical significance of result differences",
//! COLING, for F-scores)
//!
//! For models A and B and a score s, δ = s(A) − s(B) on the data as given.
//! Under the null hypothesis the two models' outputs are exchangeable per
//! document: each of R shuffles (R = B) swaps A's and B's counts of each
//! document independently with probability ½ and recomputes δ′. With c the
//! number of shuffles where |δ′| ≥ |δ| − 10⁻¹² (the tolerance absorbs
//! floating-point noise from summing the same values in another order),
//! the two-sided p-value is (c + 1)/(R + 1). Two identical models get
//! p = 1. With more than two models, each score's p-values over the
//! k(k−1)/2 pairs are adjusted by [`holm`] (Holm 1979); a difference is
//! significant when the adjusted p-value ≤ α.
//!
//! # Randomness
//!
//! One `fastrand::Rng::with_seed(seed)` (WyRand, 64-bit arithmetic only, so
//! the same stream natively and in wasm32), consumed in this order: the B
//! resamples (n draws `rng.u64(..n)` each, Lemire's nearly divisionless
//! bounded draw), then for each pair in report order (0,1), (0,2), …,
//! (1,2), … its R shuffles (for each document `rng.u64(..2) == 1` means
//! "swap"). Stepping in chunks changes nothing. `tests/reference/stats_ref.py`
//! re-implements the generator, the resampling and every score; the tests
//! compare with its output, so a change of fastrand's stream would fail
//! them.

use crate::error::{Error, ErrorKind};
use crate::eval::config::{Config, MacroF1};
use crate::eval::counts::{
    document_extraction_score, document_scores, harmonic, partial_scores, ratio, strict_scores,
};
use crate::eval::report::{Comparison, Counts, Interval, Intervals, Report, Scores, Significance};
use std::collections::BTreeMap;

/// The default number of bootstrap resamples (and of shuffles per pair).
pub const DEFAULT_RESAMPLES: usize = 1000;
/// The default seed.
pub const DEFAULT_SEED: u64 = 0;
/// The default significance level; intervals have confidence 1 − α.
pub const DEFAULT_ALPHA: f64 = 0.05;
/// Ties within this distance count as "at least as extreme" in the test.
const TIE_TOLERANCE: f64 = 1e-12;

/// What one document contributed to one model's report.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DocSample {
    /// The document's outcome counts over every field (SPEC §3.1).
    pub counts: Counts,
    /// Numeric fields with a present truth value, and how many were exact
    /// (SPEC §3.5's `numeric_precision`).
    pub numeric_exact: u64,
    pub numeric_total: u64,
    /// The prediction is schema-valid (SPEC §3.5).
    pub valid: bool,
    /// Line items (SPEC §3.4): recognised, truth and predicted items.
    pub recognised: u64,
    pub truth_items: u64,
    pub pred_items: u64,
}

/// One model's per-document contributions.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSamples {
    pub name: String,
    /// One per truth document, in the report's order.
    pub docs: Vec<DocSample>,
    /// Per document, per field of [`Samples::fields`] (document-major:
    /// index `d * fields + f`): the document's counts of that field; zero
    /// for a field the model is not evaluated on.
    pub field_counts: Vec<Counts>,
    /// The model's report has an `items` block.
    pub has_items: bool,
}

/// Every model's per-document contributions, over the same documents.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Samples {
    /// The union of the models' field rows, sorted by name (the report's
    /// order).
    pub fields: Vec<String>,
    pub models: Vec<ModelSamples>,
}

/// A headline score, recomputed from per-document counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    MicroPrecision,
    MicroRecall,
    MicroF1,
    MicroAccuracy,
    MacroDocumentsPrecision,
    MacroDocumentsRecall,
    MacroDocumentsF1,
    MacroDocumentsAccuracy,
    MacroFieldsPrecision,
    MacroFieldsRecall,
    MacroFieldsF1,
    MacroFieldsAccuracy,
    DocumentExtractionScore,
    /// Only for models with line items.
    ItemsF1,
    /// Only when the config gives `field_weights`.
    WeightedFieldsF1,
}

impl Score {
    /// Every score, in the order of the report.
    pub const ALL: [Score; 15] = [
        Score::MicroPrecision,
        Score::MicroRecall,
        Score::MicroF1,
        Score::MicroAccuracy,
        Score::MacroDocumentsPrecision,
        Score::MacroDocumentsRecall,
        Score::MacroDocumentsF1,
        Score::MacroDocumentsAccuracy,
        Score::MacroFieldsPrecision,
        Score::MacroFieldsRecall,
        Score::MacroFieldsF1,
        Score::MacroFieldsAccuracy,
        Score::DocumentExtractionScore,
        Score::ItemsF1,
        Score::WeightedFieldsF1,
    ];

    /// The score's key in `intervals.scores` and `significance`: its path
    /// in the model's report, dotted.
    pub fn key(self) -> &'static str {
        match self {
            Score::MicroPrecision => "micro.precision",
            Score::MicroRecall => "micro.recall",
            Score::MicroF1 => "micro.f1",
            Score::MicroAccuracy => "micro.accuracy",
            Score::MacroDocumentsPrecision => "macro_documents.precision",
            Score::MacroDocumentsRecall => "macro_documents.recall",
            Score::MacroDocumentsF1 => "macro_documents.f1",
            Score::MacroDocumentsAccuracy => "macro_documents.accuracy",
            Score::MacroFieldsPrecision => "macro_fields.precision",
            Score::MacroFieldsRecall => "macro_fields.recall",
            Score::MacroFieldsF1 => "macro_fields.f1",
            Score::MacroFieldsAccuracy => "macro_fields.accuracy",
            Score::DocumentExtractionScore => "document_extraction_score",
            Score::ItemsF1 => "items.f1",
            Score::WeightedFieldsF1 => "macro_fields_weighted.f1",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Settings of a [`StatsJob`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StatsSettings {
    /// Bootstrap resamples, and shuffles per pair of models (≥ 1).
    pub resamples: usize,
    pub seed: u64,
    /// Significance level, in (0, 1); intervals have confidence 1 − alpha.
    pub alpha: f64,
}

impl Default for StatsSettings {
    fn default() -> Self {
        StatsSettings {
            resamples: DEFAULT_RESAMPLES,
            seed: DEFAULT_SEED,
            alpha: DEFAULT_ALPHA,
        }
    }
}

impl StatsSettings {
    /// Checks the ranges; the error names the setting.
    pub fn check(&self) -> Result<(), Error> {
        if self.resamples == 0 {
            return Err(Error::new(
                ErrorKind::Usage,
                "bootstrap: the number of resamples must be at least 1, found 0",
            ));
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "alpha: expected a number strictly between 0 and 1, found {}",
                    self.alpha
                ),
            ));
        }
        Ok(())
    }
}

/// The q-quantile of ascending `sorted` values by linear interpolation
/// between order statistics (Hyndman & Fan 1996, type 7): with
/// h = (B − 1)·q, Q = x₍⌊h⌋₎ + (h − ⌊h⌋)·(x₍⌊h⌋+1₎ − x₍⌊h⌋₎), 0-based,
/// q clamped to [0, 1]. NaN for no values.
///
/// ```
/// use fieldscope::eval::stats::quantile;
/// // h = 3 × 0.25 = 0.75: 1 + 0.75 × (2 − 1).
/// assert_eq!(quantile(&[1.0, 2.0, 4.0, 8.0], 0.25), 1.75);
/// ```
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let Some(last) = sorted.len().checked_sub(1) else {
        return f64::NAN;
    };
    let h = last as f64 * q.clamp(0.0, 1.0);
    let lo = (h.floor() as usize).min(last);
    let hi = (lo + 1).min(last);
    let frac = h - lo as f64;
    if frac == 0.0 || sorted[hi] == sorted[lo] {
        sorted[lo]
    } else {
        sorted[lo] + frac * (sorted[hi] - sorted[lo])
    }
}

/// Holm's step-down adjusted p-values (Holm 1979, "A simple sequentially
/// rejective multiple test procedure", Scand. J. Statist. 6:65–70): with
/// the m p-values sorted ascending p₍₁₎ ≤ … ≤ p₍ₘ₎ (ties in input order),
/// p̃₍ᵢ₎ = max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎). Rejecting where
/// p̃ ≤ α is Holm's procedure at level α. Returned in input order.
///
/// ```
/// use fieldscope::eval::stats::holm;
/// assert_eq!(holm(&[0.01, 0.04, 0.03]), vec![0.03, 0.06, 0.06]);
/// ```
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (j, &i) in order.iter().enumerate() {
        let scaled = ((m - j) as f64 * p[i]).min(1.0);
        running = running.max(scaled);
        adjusted[i] = running;
    }
    adjusted
}

/// A model ready for resampling: its samples and each document's scores
/// for the macro average over documents (SPEC §3.2).
#[derive(Debug, Clone)]
struct Prepared {
    samples: ModelSamples,
    doc_scores: Vec<Scores>,
}

/// Weighted sums of per-document contributions: the sufficient statistics
/// of every headline score.
#[derive(Debug, Clone, Default)]
struct Acc {
    counts: Counts,
    /// Σ w·(precision, recall, f1, accuracy) of the documents.
    doc_scores: [f64; 4],
    weight: u64,
    numeric: (u64, u64),
    valid: u64,
    items: (u64, u64, u64),
    fields: Vec<Counts>,
}

fn add_scaled(into: &mut Counts, c: &Counts, w: u64) {
    into.exact += w * c.exact;
    into.partial += w * c.partial;
    into.incorrect += w * c.incorrect;
    into.missed += w * c.missed;
    into.spurious += w * c.spurious;
    into.true_negative += w * c.true_negative;
}

impl Acc {
    fn new(fields: usize) -> Acc {
        Acc {
            fields: vec![Counts::default(); fields],
            ..Acc::default()
        }
    }

    fn clear(&mut self) {
        self.counts = Counts::default();
        self.doc_scores = [0.0; 4];
        self.weight = 0;
        self.numeric = (0, 0);
        self.valid = 0;
        self.items = (0, 0, 0);
        self.fields.fill(Counts::default());
    }

    /// Adds document `d` of model `m` with weight `w`.
    fn add(&mut self, m: &Prepared, d: usize, w: u64) {
        let (Some(doc), Some(s)) = (m.samples.docs.get(d), m.doc_scores.get(d)) else {
            return;
        };
        add_scaled(&mut self.counts, &doc.counts, w);
        let wf = w as f64;
        self.doc_scores[0] += wf * s.precision;
        self.doc_scores[1] += wf * s.recall;
        self.doc_scores[2] += wf * s.f1;
        self.doc_scores[3] += wf * s.accuracy;
        self.weight += w;
        self.numeric.0 += w * doc.numeric_exact;
        self.numeric.1 += w * doc.numeric_total;
        self.valid += w * u64::from(doc.valid);
        self.items.0 += w * doc.recognised;
        self.items.1 += w * doc.truth_items;
        self.items.2 += w * doc.pred_items;
        let f = self.fields.len();
        if let Some(row) = m.samples.field_counts.get(d * f..(d + 1) * f) {
            for (into, c) in self.fields.iter_mut().zip(row) {
                add_scaled(into, c, w);
            }
        }
    }

    /// Every score of [`Score::ALL`] from the sums, by the report's
    /// formulas (SPEC §3.1–§3.5); `field_weights` per field of
    /// [`Samples::fields`].
    fn scores(&self, config: &Config, field_weights: &[f64]) -> [f64; 15] {
        let zd = config.zero_division;
        let micro = strict_scores(&self.counts, config);
        let partial = partial_scores(&self.counts, config);
        let n = self.weight as f64;
        let macro_p = ratio(self.doc_scores[0], n, zd);
        let macro_r = ratio(self.doc_scores[1], n, zd);
        let macro_f1 = match config.macro_f1 {
            MacroF1::Harmonic => harmonic(macro_p, macro_r),
            MacroF1::Mean => ratio(self.doc_scores[2], n, zd),
        };
        let macro_acc = ratio(self.doc_scores[3], n, zd);

        // Macro over fields: fields with |Truth| + |Pred| > 0 only.
        let (mut sum, mut kept) = ([0.0f64; 4], 0usize);
        let (mut wsum, mut wtotal) = (0.0f64, 0.0f64);
        for (c, &w) in self.fields.iter().zip(field_weights) {
            if c.truth_count() + c.pred_count() == 0 {
                continue;
            }
            let s = strict_scores(c, config);
            sum[0] += s.precision;
            sum[1] += s.recall;
            sum[2] += s.f1;
            sum[3] += s.accuracy;
            kept += 1;
            wsum += w * s.f1;
            wtotal += w;
        }
        let k = kept as f64;

        let numeric_precision =
            (self.numeric.1 > 0).then(|| self.numeric.0 as f64 / self.numeric.1 as f64);
        let validity = ratio(self.valid as f64, n, zd);
        let des = document_extraction_score(
            numeric_precision,
            partial.f1,
            validity,
            &config.document_extraction_score.weights,
            zd,
        );
        let (rec, truth, pred) = self.items;
        let item_p = ratio(rec as f64, pred as f64, zd);
        let item_r = ratio(rec as f64, truth as f64, zd);
        [
            micro.precision,
            micro.recall,
            micro.f1,
            micro.accuracy,
            macro_p,
            macro_r,
            macro_f1,
            macro_acc,
            ratio(sum[0], k, zd),
            ratio(sum[1], k, zd),
            ratio(sum[2], k, zd),
            ratio(sum[3], k, zd),
            des,
            harmonic(item_p, item_r),
            ratio(wsum, wtotal, zd),
        ]
    }
}

/// The scores that apply to a model: item F1 only with line items, the
/// weighted field F1 only with `field_weights`.
fn applies(score: Score, has_items: bool, weighted: bool) -> bool {
    match score {
        Score::ItemsF1 => has_items,
        Score::WeightedFieldsF1 => weighted,
        _ => true,
    }
}

/// Bootstrap intervals and paired tests, computed a step at a time.
///
/// A step is one bootstrap resample (for every model) or one shuffle of one
/// pair of models; [`StatsJob::total`] steps in all (B + pairs·B).
/// [`StatsJob::step`] runs a few; [`StatsJob::finish`] runs what is left
/// and applies the results to a report. Dropping the job cancels it.
///
/// ```
/// use fieldscope::eval::stats::{DocSample, ModelSamples, Samples, StatsJob, StatsSettings};
/// use fieldscope::eval::{Config, Counts};
/// let doc = DocSample { counts: Counts { exact: 3, missed: 1, ..Counts::default() }, ..DocSample::default() };
/// let samples = Samples {
///     fields: vec![],
///     models: vec![ModelSamples { name: "m".into(), docs: vec![doc], field_counts: vec![], has_items: false }],
/// };
/// let mut job = StatsJob::new(samples, Config::default(), StatsSettings::default()).unwrap();
/// while !job.step(100) {}
/// assert_eq!(job.done(), job.total());
/// ```
#[derive(Debug, Clone)]
pub struct StatsJob {
    models: Vec<Prepared>,
    config: Config,
    settings: StatsSettings,
    field_weights: Vec<f64>,
    weighted: bool,
    documents: usize,
    rng: fastrand::Rng,
    /// Per model: the scores on the data as given.
    point: Vec<[f64; 15]>,
    /// Per model, per score: the resampled values.
    draws: Vec<Vec<Vec<f64>>>,
    resampled: usize,
    /// The pairs of models, in report order, and per pair and score the
    /// number of shuffles at least as extreme.
    pairs: Vec<(usize, usize)>,
    extreme: Vec<[usize; 15]>,
    shuffled: usize,
    /// Scratch.
    weights: Vec<u64>,
    acc: Acc,
    acc_b: Acc,
}

impl StatsJob {
    /// Prepares the job. Errors when the samples are inconsistent (models
    /// over different numbers of documents, or field counts of the wrong
    /// length) or the settings are out of range.
    pub fn new(samples: Samples, config: Config, settings: StatsSettings) -> Result<Self, Error> {
        settings.check()?;
        let documents = samples.models.first().map_or(0, |m| m.docs.len());
        let nf = samples.fields.len();
        for m in &samples.models {
            if m.docs.len() != documents || m.field_counts.len() != documents * nf {
                return Err(Error::new(
                    ErrorKind::Input,
                    format!(
                        "statistics: model {:?} has {} documents and {} field counts; expected {} and {}",
                        m.name,
                        m.docs.len(),
                        m.field_counts.len(),
                        documents,
                        documents * nf
                    ),
                ));
            }
        }
        let weighted = !config.field_weights.is_empty();
        let field_weights: Vec<f64> = samples
            .fields
            .iter()
            .map(|f| config.field_weights.get(f).copied().unwrap_or(1.0))
            .collect();
        let models: Vec<Prepared> = samples
            .models
            .into_iter()
            .map(|m| Prepared {
                doc_scores: m
                    .docs
                    .iter()
                    .map(|d| document_scores(&d.counts, &config))
                    .collect(),
                samples: m,
            })
            .collect();
        let mut acc = Acc::new(nf);
        let point = models
            .iter()
            .map(|m| {
                acc.clear();
                for d in 0..documents {
                    acc.add(m, d, 1);
                }
                acc.scores(&config, &field_weights)
            })
            .collect();
        let k = models.len();
        let pairs: Vec<(usize, usize)> = (0..k)
            .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
            .collect();
        Ok(StatsJob {
            draws: (0..k)
                .map(|_| {
                    (0..15)
                        .map(|_| Vec::with_capacity(settings.resamples))
                        .collect()
                })
                .collect(),
            extreme: vec![[0; 15]; pairs.len()],
            pairs,
            config,
            field_weights,
            weighted,
            documents,
            rng: fastrand::Rng::with_seed(settings.seed),
            settings,
            point,
            resampled: 0,
            shuffled: 0,
            weights: vec![0; documents],
            acc_b: Acc::new(nf),
            acc,
            models,
        })
    }

    /// Steps in all: B resamples plus B shuffles per pair of models.
    pub fn total(&self) -> usize {
        self.settings.resamples * (1 + self.pairs.len())
    }

    /// Steps done so far.
    pub fn done(&self) -> usize {
        self.resampled + self.shuffled
    }

    /// Runs up to `max` steps; true when the job is complete.
    pub fn step(&mut self, max: usize) -> bool {
        let b = self.settings.resamples;
        for _ in 0..max {
            if self.resampled < b {
                self.resample();
            } else if self.shuffled < b * self.pairs.len() {
                self.shuffle();
            } else {
                break;
            }
        }
        self.done() >= self.total()
    }

    /// One bootstrap resample of the documents, for every model.
    fn resample(&mut self) {
        let n = self.documents;
        self.weights.fill(0);
        for _ in 0..n {
            let i = self.rng.u64(..n as u64) as usize;
            if let Some(w) = self.weights.get_mut(i) {
                *w += 1;
            }
        }
        for (m, model) in self.models.iter().enumerate() {
            self.acc.clear();
            for (d, &w) in self.weights.iter().enumerate() {
                if w > 0 {
                    self.acc.add(model, d, w);
                }
            }
            let values = self.acc.scores(&self.config, &self.field_weights);
            for (draws, v) in self.draws[m].iter_mut().zip(values) {
                draws.push(v);
            }
        }
        self.resampled += 1;
    }

    /// One shuffle of the current pair.
    fn shuffle(&mut self) {
        let b = self.settings.resamples;
        let p = self.shuffled / b;
        let (i, j) = self.pairs[p];
        self.acc.clear();
        self.acc_b.clear();
        for d in 0..self.documents {
            let swap = self.rng.u64(..2) == 1;
            let (x, y) = if swap { (j, i) } else { (i, j) };
            self.acc.add(&self.models[x], d, 1);
            self.acc_b.add(&self.models[y], d, 1);
        }
        let va = self.acc.scores(&self.config, &self.field_weights);
        let vb = self.acc_b.scores(&self.config, &self.field_weights);
        for k in 0..15 {
            let observed = (self.point[i][k] - self.point[j][k]).abs();
            if (va[k] - vb[k]).abs() >= observed - TIE_TOLERANCE {
                self.extreme[p][k] += 1;
            }
        }
        self.shuffled += 1;
    }

    /// The score of model `m` on the data as given (None when it does not
    /// apply to the model).
    pub fn estimate(&self, m: usize, score: Score) -> Option<f64> {
        let model = self.models.get(m)?;
        applies(score, model.samples.has_items, self.weighted).then(|| self.point[m][score.index()])
    }

    /// Runs what is left and returns the intervals (one per model, in
    /// order) and, with two models or more, the paired tests.
    pub fn finish(mut self) -> StatsResult {
        while !self.step(usize::MAX) {}
        let alpha = self.settings.alpha;
        let intervals = self
            .models
            .iter()
            .enumerate()
            .map(|(m, model)| {
                let scores = Score::ALL
                    .iter()
                    .filter(|s| applies(**s, model.samples.has_items, self.weighted))
                    .map(|&s| {
                        let mut values = std::mem::take(&mut self.draws[m][s.index()]);
                        values.sort_by(f64::total_cmp);
                        (
                            s.key().to_string(),
                            Interval {
                                estimate: self.point[m][s.index()],
                                low: quantile(&values, alpha / 2.0),
                                high: quantile(&values, 1.0 - alpha / 2.0),
                            },
                        )
                    })
                    .collect();
                Intervals {
                    confidence: 1.0 - alpha,
                    resamples: self.settings.resamples,
                    seed: self.settings.seed,
                    scores,
                }
            })
            .collect();
        let significance = (self.models.len() > 1).then(|| self.significance());
        StatsResult {
            intervals,
            significance,
        }
    }

    fn significance(&self) -> Significance {
        let r = self.settings.resamples;
        let mut comparisons = Vec::new();
        for score in Score::ALL {
            let k = score.index();
            let pairs: Vec<usize> = (0..self.pairs.len())
                .filter(|&p| {
                    let (i, j) = self.pairs[p];
                    let ok =
                        |m: usize| applies(score, self.models[m].samples.has_items, self.weighted);
                    ok(i) && ok(j)
                })
                .collect();
            let p_values: Vec<f64> = pairs
                .iter()
                .map(|&p| (self.extreme[p][k] + 1) as f64 / (r + 1) as f64)
                .collect();
            let adjusted = holm(&p_values);
            for ((&p, &p_value), &p_adjusted) in pairs.iter().zip(&p_values).zip(&adjusted) {
                let (i, j) = self.pairs[p];
                comparisons.push(Comparison {
                    score: score.key().to_string(),
                    a: self.models[i].samples.name.clone(),
                    b: self.models[j].samples.name.clone(),
                    difference: self.point[i][k] - self.point[j][k],
                    p_value,
                    p_adjusted,
                    significant: p_adjusted <= self.settings.alpha,
                });
            }
        }
        Significance {
            test: "two-sided paired approximate randomisation over documents (Noreen 1989): each shuffle swaps the two models' results on each document with probability 1/2; p = (c + 1)/(R + 1)".to_string(),
            shuffles: r,
            seed: self.settings.seed,
            alpha: self.settings.alpha,
            correction: "Holm (1979) over the pairs of models compared on each score".to_string(),
            comparisons,
        }
    }
}

/// What a finished [`StatsJob`] gives.
#[derive(Debug, Clone, PartialEq)]
pub struct StatsResult {
    /// One per model, in the samples' order.
    pub intervals: Vec<Intervals>,
    /// With two models or more.
    pub significance: Option<Significance>,
}

impl StatsResult {
    /// Puts the intervals into the report's models (matched by position;
    /// the samples come from the same evaluation) and the tests at the top.
    pub fn apply(self, report: &mut Report) {
        for (model, intervals) in report.models.iter_mut().zip(self.intervals) {
            model.intervals = Some(intervals);
        }
        report.significance = self.significance;
    }
}

/// The intervals by score key, for exporters: `(low, high)`.
pub fn interval_of(intervals: &Intervals, key: &str) -> Option<(f64, f64)> {
    intervals.scores.get(key).map(|i| (i.low, i.high))
}

/// Per-score map of comparisons, for exporters.
pub fn comparisons_by_score(s: &Significance) -> BTreeMap<&str, Vec<&Comparison>> {
    let mut map: BTreeMap<&str, Vec<&Comparison>> = BTreeMap::new();
    for c in &s.comparisons {
        map.entry(c.score.as_str()).or_default().push(c);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(exact: u64, incorrect: u64, missed: u64, spurious: u64, tn: u64) -> Counts {
        Counts {
            exact,
            incorrect,
            missed,
            spurious,
            true_negative: tn,
            ..Counts::default()
        }
    }

    fn model(name: &str, docs: Vec<Counts>) -> ModelSamples {
        let n = docs.len();
        ModelSamples {
            name: name.into(),
            docs: docs
                .into_iter()
                .map(|counts| DocSample {
                    counts,
                    valid: true,
                    ..DocSample::default()
                })
                .collect(),
            // One field holding all of each document's counts.
            field_counts: Vec::with_capacity(n),
            has_items: false,
        }
    }

    fn one_field(mut m: ModelSamples) -> ModelSamples {
        m.field_counts = m.docs.iter().map(|d| d.counts).collect();
        m
    }

    #[test]
    fn quantile_by_hand() {
        let x = [1.0, 2.0, 4.0, 8.0];
        // h = 3q.
        assert_eq!(quantile(&x, 0.0), 1.0);
        assert_eq!(quantile(&x, 1.0), 8.0);
        assert_eq!(quantile(&x, 0.5), 3.0); // h = 1.5: 2 + 0.5 × 2
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(quantile(&x, 0.025), 1.075)); // h = 0.075: 1 + 0.075 × 1
        assert!(close(quantile(&x, 0.975), 7.7)); // h = 2.925: 4 + 0.925 × 4
        assert_eq!(quantile(&[5.0], 0.3), 5.0);
        assert!(quantile(&[], 0.5).is_nan());
        // Out-of-range q is clamped.
        assert_eq!(quantile(&x, 2.0), 8.0);
    }

    #[test]
    fn holm_by_hand() {
        // Sorted 0.01, 0.03, 0.04: 3 × 0.01 = 0.03; max(0.03, 2 × 0.03);
        // max(0.06, 1 × 0.04).
        let a = holm(&[0.01, 0.04, 0.03]);
        assert_eq!(a, vec![0.03, 0.06, 0.06]);
        // Capped at 1; one p-value is unchanged.
        assert_eq!(holm(&[0.5, 0.6]), vec![1.0, 1.0]);
        assert_eq!(holm(&[0.2]), vec![0.2]);
        assert_eq!(holm(&[]), Vec::<f64>::new());
        // Four tests at α = 0.05: 0.01·4 = 0.04 rejected, 0.02·3 = 0.06 not,
        // and nothing after it.
        // Sorted 0.01, 0.012, 0.02, 0.9: 4 × 0.01 = 0.04; 3 × 0.012 = 0.036
        // → 0.04 (monotone); 2 × 0.02 = 0.04; 1 × 0.9.
        let a = holm(&[0.02, 0.01, 0.9, 0.012]);
        assert_eq!(a, vec![0.04, 0.04, 0.9, 0.04]);
    }

    #[test]
    fn one_document_gives_the_point_estimate_every_time() {
        let m = one_field(model("m", vec![c(3, 1, 1, 1, 2)]));
        let samples = Samples {
            fields: vec!["f".into()],
            models: vec![m],
        };
        let job = StatsJob::new(samples, Config::default(), StatsSettings::default()).unwrap();
        let r = job.finish();
        // micro: P = 3/5, R = 3/5, accuracy = 5/8.
        let i = &r.intervals[0].scores;
        assert_eq!(i["micro.precision"].estimate, 0.6);
        assert_eq!(i["micro.accuracy"].estimate, 5.0 / 8.0);
        for interval in i.values() {
            assert_eq!(interval.low, interval.estimate);
            assert_eq!(interval.high, interval.estimate);
        }
        assert!(r.significance.is_none());
        assert!(!i.contains_key("items.f1"));
        assert!(!i.contains_key("macro_fields_weighted.f1"));
    }

    #[test]
    fn the_same_seed_gives_the_same_result_in_any_chunks() {
        let docs: Vec<Counts> = (0..17).map(|d| c(d % 4, d % 3, d % 2, d % 5, 1)).collect();
        let other: Vec<Counts> = (0..17).map(|d| c(d % 3, d % 4, 1, d % 2, 2)).collect();
        let samples = Samples {
            fields: vec!["f".into()],
            models: vec![one_field(model("a", docs)), one_field(model("b", other))],
        };
        let settings = StatsSettings {
            resamples: 50,
            seed: 7,
            alpha: 0.1,
        };
        let whole = StatsJob::new(samples.clone(), Config::default(), settings)
            .unwrap()
            .finish();
        let mut job = StatsJob::new(samples.clone(), Config::default(), settings).unwrap();
        assert_eq!(job.total(), 100);
        let mut chunks = 0;
        while !job.step(7) {
            chunks += 1;
        }
        assert_eq!(chunks, 14);
        assert_eq!(job.finish(), whole);
        let other_seed = StatsJob::new(
            samples,
            Config::default(),
            StatsSettings {
                seed: 8,
                ..settings
            },
        )
        .unwrap()
        .finish();
        assert_ne!(other_seed.intervals, whole.intervals);
    }

    #[test]
    fn identical_models_are_not_significantly_different() {
        let docs: Vec<Counts> = (0..30).map(|d| c(d % 4, d % 3, d % 2, d % 5, 1)).collect();
        let samples = Samples {
            fields: vec!["f".into()],
            models: vec![
                one_field(model("a", docs.clone())),
                one_field(model("b", docs)),
            ],
        };
        let r = StatsJob::new(samples, Config::default(), StatsSettings::default())
            .unwrap()
            .finish();
        let s = r.significance.unwrap();
        assert_eq!(s.comparisons.len(), 13);
        for cmp in &s.comparisons {
            assert_eq!(cmp.difference, 0.0);
            assert_eq!(cmp.p_value, 1.0, "{}", cmp.score);
            assert!(!cmp.significant);
        }
    }

    #[test]
    fn a_clearly_better_model_is_significant() {
        // 60 documents of one field: A is right on all, B wrong on half.
        let a: Vec<Counts> = (0..60).map(|_| c(1, 0, 0, 0, 0)).collect();
        let b: Vec<Counts> = (0..60)
            .map(|d| {
                if d % 2 == 0 {
                    c(1, 0, 0, 0, 0)
                } else {
                    c(0, 1, 0, 0, 0)
                }
            })
            .collect();
        let samples = Samples {
            fields: vec!["f".into()],
            models: vec![one_field(model("A", a)), one_field(model("B", b))],
        };
        let r = StatsJob::new(samples, Config::default(), StatsSettings::default())
            .unwrap()
            .finish();
        let s = r.significance.unwrap();
        let f1 = s
            .comparisons
            .iter()
            .find(|c| c.score == "micro.f1")
            .unwrap();
        // A: F1 = 1; B: P = R = 30/60, F1 = 0.5.
        assert_eq!(f1.difference, 0.5);
        // |δ′| ≥ 0.5 needs all 30 differing documents swapped the same
        // way: probability 2/2³⁰, so no shuffle of 1,000 is that extreme.
        assert_eq!(f1.p_value, 1.0 / 1001.0);
        assert!(f1.significant);
        // B's micro-F1 interval lies below A's (which is [1, 1]).
        let ib = &r.intervals[1].scores["micro.f1"];
        assert!(ib.high < 1.0 && ib.low < 0.5 && ib.high > 0.5);
        assert_eq!(r.intervals[0].scores["micro.f1"].low, 1.0);
    }

    #[test]
    fn inconsistent_samples_and_settings_are_errors() {
        let mut m = model("m", vec![c(1, 0, 0, 0, 0)]);
        m.field_counts = vec![];
        let samples = Samples {
            fields: vec!["f".into()],
            models: vec![m],
        };
        let e = StatsJob::new(samples, Config::default(), StatsSettings::default()).unwrap_err();
        assert!(e
            .message
            .contains("model \"m\" has 1 documents and 0 field counts"));
        let e = StatsSettings {
            resamples: 0,
            ..StatsSettings::default()
        }
        .check()
        .unwrap_err();
        assert!(e.message.contains("at least 1"));
        let e = StatsSettings {
            alpha: 1.0,
            ..StatsSettings::default()
        }
        .check()
        .unwrap_err();
        assert!(e.message.contains("strictly between 0 and 1"));
    }

    #[test]
    fn no_documents_do_not_panic() {
        let samples = Samples {
            fields: vec![],
            models: vec![model("a", vec![]), model("b", vec![])],
        };
        let r = StatsJob::new(samples, Config::default(), StatsSettings::default())
            .unwrap()
            .finish();
        assert_eq!(r.intervals[0].scores["micro.f1"].low, 0.0);
        assert!(r
            .significance
            .unwrap()
            .comparisons
            .iter()
            .all(|c| c.p_value == 1.0));
    }
}
