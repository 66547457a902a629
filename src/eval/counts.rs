//! Counts and every ratio computed from them (SPEC §3.1, §3.2).
//!
//! Owns: adding outcomes to [`Counts`], the two `incorrect_counts_as`
//! conventions, strict and partial-credit scores, the behaviour rates, the
//! zero-division rule and the per-document rule for empty documents, the
//! three averages, the line-item summary and `document_extraction_score`. Counts
//! are what is stored; every ratio in the report is computed here, from
//! counts, in one place. Pure; depends on the report structs and the config.

use crate::eval::config::{Config, IncorrectCountsAs, MacroF1};
use crate::eval::report::{
    Counts, FieldAverage, ItemTally, ItemsReport, Outcome, PartialScores, Scores,
};
use std::ops::{Add, AddAssign};

impl Counts {
    /// Adds one outcome.
    pub fn record(&mut self, outcome: Outcome) {
        self.record_n(outcome, 1);
    }

    /// Adds `n` outcomes of one kind.
    pub fn record_n(&mut self, outcome: Outcome, n: u64) {
        let slot = match outcome {
            Outcome::Exact => &mut self.exact,
            Outcome::Partial => &mut self.partial,
            Outcome::Incorrect => &mut self.incorrect,
            Outcome::Missed => &mut self.missed,
            Outcome::Spurious => &mut self.spurious,
            Outcome::TrueNegative => &mut self.true_negative,
        };
        *slot += n;
    }

    /// The count of one outcome.
    pub fn get(&self, outcome: Outcome) -> u64 {
        match outcome {
            Outcome::Exact => self.exact,
            Outcome::Partial => self.partial,
            Outcome::Incorrect => self.incorrect,
            Outcome::Missed => self.missed,
            Outcome::Spurious => self.spurious,
            Outcome::TrueNegative => self.true_negative,
        }
    }

    /// The six counts in the order of [`Outcome::ALL`] (the report's
    /// `counts`).
    pub fn as_array(&self) -> [u64; 6] {
        Outcome::ALL.map(|o| self.get(o))
    }

    /// |Truth| = COR + PAR + INC + MIS.
    pub fn truth_count(&self) -> u64 {
        self.exact + self.partial + self.incorrect + self.missed
    }

    /// |Pred| = COR + PAR + INC + SPU.
    pub fn pred_count(&self) -> u64 {
        self.exact + self.partial + self.incorrect + self.spurious
    }

    /// N = |Truth| + SPU + TN: every outcome.
    pub fn total(&self) -> u64 {
        self.truth_count() + self.spurious + self.true_negative
    }

    /// credit = COR + 0.5·PAR (partial-credit true positives); M_total is
    /// its sum over the dataset (SPEC §3.1).
    pub fn credit(&self) -> f64 {
        self.exact as f64 + 0.5 * self.partial as f64
    }
}

impl AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.exact += o.exact;
        self.partial += o.partial;
        self.incorrect += o.incorrect;
        self.missed += o.missed;
        self.spurious += o.spurious;
        self.true_negative += o.true_negative;
    }
}

impl Add for Counts {
    type Output = Counts;
    fn add(mut self, o: Counts) -> Counts {
        self += o;
        self
    }
}

impl std::iter::Sum for Counts {
    fn sum<I: Iterator<Item = Counts>>(iter: I) -> Counts {
        iter.fold(Counts::default(), Add::add)
    }
}

/// `num / den`, or `zero_division` when `den` = 0 (SPEC §3.1).
pub fn ratio(num: f64, den: f64, zero_division: f64) -> f64 {
    if den == 0.0 {
        zero_division
    } else {
        num / den
    }
}

/// Harmonic mean `2PR / (P + R)`, and 0 when P + R = 0 (SPEC §3.1).
pub fn harmonic(p: f64, r: f64) -> f64 {
    if p + r == 0.0 {
        0.0
    } else {
        2.0 * p * r / (p + r)
    }
}

/// The arithmetic mean, or `empty` for no values.
pub fn mean(values: impl IntoIterator<Item = f64>, empty: f64) -> f64 {
    let (sum, n) = values
        .into_iter()
        .fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        empty
    } else {
        sum / n as f64
    }
}

/// The confusion counts of the strict scores, where `partial` counts as
/// `incorrect` (SPEC §3.1):
///
/// * TP = COR
/// * FP = INC + PAR + SPU
/// * FN = MIS + INC + PAR under `["fp", "fn"]`, MIS under `["fp"]`
/// * TN = TN
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Confusion {
    pub tp: u64,
    pub fp: u64,
    pub fn_: u64,
    pub tn: u64,
}

impl Confusion {
    pub fn of(c: &Counts, convention: IncorrectCountsAs) -> Confusion {
        let wrong = c.incorrect + c.partial;
        Confusion {
            tp: c.exact,
            fp: wrong + c.spurious,
            fn_: match convention {
                IncorrectCountsAs::FpAndFn => c.missed + wrong,
                IncorrectCountsAs::FpOnly => c.missed,
            },
            tn: c.true_negative,
        }
    }
}

/// Strict scores of a group of outcomes (SPEC §3.1):
/// precision = TP/(TP+FP), recall = TP/(TP+FN), f1 = 2PR/(P+R) (0 when
/// P + R = 0), accuracy = (TP+TN)/N with N = |Truth| + SPU + TN. Only
/// accuracy counts true negatives. 0/0 gives `zero_division`.
///
/// ```
/// // SPEC §6 example 1 under the `not-found` preset: 3 right, 2 wrong,
/// // 3 missed, 9 true negatives.
/// use fieldscope::eval::{counts::strict_scores, Config, Preset, Counts};
/// let c = Counts { exact: 3, incorrect: 2, missed: 3, true_negative: 9, ..Default::default() };
/// let s = strict_scores(&c, &Config::preset(Preset::NotFound));
/// assert_eq!((s.precision, s.recall, s.accuracy), (0.6, 0.5, 12.0 / 17.0));
/// ```
pub fn strict_scores(c: &Counts, config: &Config) -> Scores {
    let m = Confusion::of(c, config.incorrect_counts_as);
    let zd = config.zero_division;
    let precision = ratio(m.tp as f64, (m.tp + m.fp) as f64, zd);
    let recall = ratio(m.tp as f64, (m.tp + m.fn_) as f64, zd);
    Scores {
        precision,
        recall,
        f1: harmonic(precision, recall),
        accuracy: ratio((m.tp + m.tn) as f64, c.total() as f64, zd),
    }
}

/// Partial-credit scores (SPEC §3.1, M2's `field_f1_partial`):
/// precision = credit/|Pred|; recall = credit/|Truth| under `["fp","fn"]`,
/// credit/(COR + PAR + MIS) under `["fp"]`; f1 = harmonic mean.
pub fn partial_scores(c: &Counts, config: &Config) -> PartialScores {
    let zd = config.zero_division;
    let credit = c.credit();
    let recall_den = match config.incorrect_counts_as {
        IncorrectCountsAs::FpAndFn => c.truth_count(),
        IncorrectCountsAs::FpOnly => c.exact + c.partial + c.missed,
    };
    let precision = ratio(credit, c.pred_count() as f64, zd);
    let recall = ratio(credit, recall_den as f64, zd);
    PartialScores {
        precision,
        recall,
        f1: harmonic(precision, recall),
    }
}

/// `hallucination_rate` = SPU/(SPU+TN): how often an absent field gets a
/// value (SPEC §3.1, M0).
pub fn hallucination_rate(c: &Counts, zero_division: f64) -> f64 {
    ratio(
        c.spurious as f64,
        (c.spurious + c.true_negative) as f64,
        zero_division,
    )
}

/// `abstention_rate` = MIS/|Truth|: how often a present field is left empty
/// (SPEC §3.1, M0).
pub fn abstention_rate(c: &Counts, zero_division: f64) -> f64 {
    ratio(c.missed as f64, c.truth_count() as f64, zero_division)
}

/// One document's strict scores for the macro average over documents
/// (SPEC §3.2, M4): as [`strict_scores`], except that a document with
/// |Truth| = |Pred| = 0 scores precision = recall = `empty_document_score`.
/// Its F1 is the harmonic mean of its precision and recall.
pub fn document_scores(c: &Counts, config: &Config) -> Scores {
    let mut s = strict_scores(c, config);
    if c.truth_count() == 0 && c.pred_count() == 0 {
        s.precision = config.empty_document_score;
        s.recall = config.empty_document_score;
        s.f1 = harmonic(s.precision, s.recall);
    }
    s
}

/// The macro average over documents (SPEC §3.2, M4) from each document's
/// counts: precision, recall and accuracy are the means of the documents'
/// [`document_scores`] (`zero_division` for no documents); F1 is the
/// harmonic mean of the macro precision and recall, or the mean of the
/// documents' F1 under `macro_f1: "mean"`.
pub fn macro_over_documents<'c>(
    doc_counts: impl IntoIterator<Item = &'c Counts>,
    config: &Config,
) -> Scores {
    let zd = config.zero_division;
    let per_doc: Vec<Scores> = doc_counts
        .into_iter()
        .map(|c| document_scores(c, config))
        .collect();
    let precision = mean(per_doc.iter().map(|s| s.precision), zd);
    let recall = mean(per_doc.iter().map(|s| s.recall), zd);
    Scores {
        precision,
        recall,
        f1: match config.macro_f1 {
            MacroF1::Harmonic => harmonic(precision, recall),
            MacroF1::Mean => mean(per_doc.iter().map(|s| s.f1), zd),
        },
        accuracy: mean(per_doc.iter().map(|s| s.accuracy), zd),
    }
}

/// The macro average over fields (SPEC §3.2, M0) from each field's pooled
/// counts: the mean of each field's [`strict_scores`] (F1 the mean of the
/// per-field F1, as scikit-learn's macro average), over the fields with
/// |Truth| + |Pred| > 0; the others are left out and counted in
/// `fields_left_out`. No field kept gives `zero_division`.
pub fn macro_over_fields<'c>(
    field_counts: impl IntoIterator<Item = &'c Counts>,
    config: &Config,
) -> FieldAverage {
    let zd = config.zero_division;
    let mut left_out = 0;
    let kept: Vec<Scores> = field_counts
        .into_iter()
        .filter_map(|c| {
            let keep = is_kept_field(c);
            left_out += usize::from(!keep);
            keep.then(|| strict_scores(c, config))
        })
        .collect();
    FieldAverage {
        precision: mean(kept.iter().map(|s| s.precision), zd),
        recall: mean(kept.iter().map(|s| s.recall), zd),
        f1: mean(kept.iter().map(|s| s.f1), zd),
        accuracy: mean(kept.iter().map(|s| s.accuracy), zd),
        fields_left_out: left_out,
    }
}

/// Whether a field counts in the macro average over fields: |Truth| +
/// |Pred| > 0 (SPEC §3.2).
pub fn is_kept_field(c: &Counts) -> bool {
    c.truth_count() + c.pred_count() > 0
}

/// The line-item summary (SPEC §3.4, M3) from each document's tallies:
/// item precision = Σ recognised / Σ |P items|, item recall = Σ recognised
/// / Σ |T items| (`zero_division` for 0/0), item F1 = their harmonic mean;
/// `item_count_accuracy` = share of documents with recognised = |T items|,
/// `item_count_match_rate` = share with |P items| = |T items|.
pub fn items_summary<'t>(
    tallies: impl IntoIterator<Item = &'t ItemTally>,
    config: &Config,
) -> ItemsReport {
    let zd = config.zero_division;
    let (mut recognised, mut truth_items, mut pred_items) = (0u64, 0u64, 0u64);
    let (mut count_ok, mut count_match, mut documents) = (0u64, 0u64, 0u64);
    for t in tallies {
        recognised += t.recognised;
        truth_items += t.truth_items;
        pred_items += t.pred_items;
        count_ok += u64::from(t.recognised == t.truth_items);
        count_match += u64::from(t.pred_items == t.truth_items);
        documents += 1;
    }
    let precision = ratio(recognised as f64, pred_items as f64, zd);
    let recall = ratio(recognised as f64, truth_items as f64, zd);
    ItemsReport {
        precision,
        recall,
        f1: harmonic(precision, recall),
        item_count_accuracy: ratio(count_ok as f64, documents as f64, zd),
        item_count_match_rate: ratio(count_match as f64, documents as f64, zd),
        recognised,
        truth_items,
        pred_items,
    }
}

/// `numeric_precision` (SPEC §3.5): exact numeric truth values / present
/// numeric truth values, pooled; `None` (null) when none is present.
pub fn numeric_precision(exact: u64, total: u64) -> Option<f64> {
    (total > 0).then(|| exact as f64 / total as f64)
}

/// `document_extraction_score` (SPEC §3.5, M2) = w_n·numeric_precision +
/// w_f·field_f1_partial + w_s·schema_validity_rate, with the config's
/// weights; when numeric_precision is null, w_n is spread over the other
/// two in proportion: (1 + w_n / (w_f + w_s))·(w_f·field_f1_partial +
/// w_s·schema_validity_rate), and `zero_division` when w_f + w_s = 0.
pub fn document_extraction_score(
    numeric_precision: Option<f64>,
    field_f1_partial: f64,
    schema_validity_rate: f64,
    config: &Config,
) -> f64 {
    let w = &config.document_extraction_score.weights;
    match numeric_precision {
        Some(np) => {
            w.numeric_precision * np
                + w.field_f1_partial * field_f1_partial
                + w.schema_validity * schema_validity_rate
        }
        None => {
            let rest = w.field_f1_partial + w.schema_validity;
            if rest == 0.0 {
                config.zero_division
            } else {
                let scale = 1.0 + w.numeric_precision / rest;
                scale
                    * (w.field_f1_partial * field_f1_partial
                        + w.schema_validity * schema_validity_rate)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::config::Preset;

    fn counts(cor: u64, par: u64, inc: u64, mis: u64, spu: u64, tn: u64) -> Counts {
        Counts {
            exact: cor,
            partial: par,
            incorrect: inc,
            missed: mis,
            spurious: spu,
            true_negative: tn,
        }
    }

    #[test]
    fn spec_example_1_conservative_model() {
        // 17 fields, 8 present: 3 right, 2 wrong, 3 left empty, 9 NOT_FOUND.
        let c = counts(3, 0, 2, 3, 0, 9);
        let nf = strict_scores(&c, &Config::preset(Preset::NotFound));
        assert_eq!(nf.accuracy, 12.0 / 17.0);
        assert_eq!(format!("{:.4}", nf.accuracy), "0.7059");
        assert_eq!(nf.precision, 0.6);
        assert_eq!(nf.recall, 0.5);
        assert_eq!(format!("{:.4}", nf.f1), "0.5455");
        let ex = strict_scores(&c, &Config::preset(Preset::Exact));
        assert_eq!(ex.recall, 0.375);
        assert_eq!(ex.precision, 0.6);
    }

    #[test]
    fn partial_counts_as_incorrect_in_strict_and_half_in_partial() {
        let c = counts(2, 2, 0, 0, 0, 0);
        let cfg = Config::default();
        let s = strict_scores(&c, &cfg);
        assert_eq!((s.precision, s.recall), (0.5, 0.5));
        let p = partial_scores(&c, &cfg);
        assert_eq!((p.precision, p.recall, p.f1), (0.75, 0.75, 0.75));
        assert_eq!(c.credit(), 3.0);
        // Under ["fp"], partial recall's denominator is COR + PAR + MIS.
        let c = counts(1, 2, 3, 1, 0, 0);
        let p = partial_scores(&c, &Config::preset(Preset::NotFound));
        assert_eq!(p.recall, 2.0 / 4.0);
        assert_eq!(p.precision, 2.0 / 6.0);
    }

    #[test]
    fn zero_division_applies_to_0_over_0() {
        let c = Counts::default();
        let mut cfg = Config::default();
        let s = strict_scores(&c, &cfg);
        assert_eq!(
            (s.precision, s.recall, s.f1, s.accuracy),
            (0.0, 0.0, 0.0, 0.0)
        );
        cfg.zero_division = 1.0;
        let s = strict_scores(&c, &cfg);
        assert_eq!(
            (s.precision, s.recall, s.f1, s.accuracy),
            (1.0, 1.0, 1.0, 1.0)
        );
        assert_eq!(hallucination_rate(&c, 1.0), 1.0);
        assert_eq!(abstention_rate(&c, 0.0), 0.0);
    }

    #[test]
    fn empty_document_scores_one_under_macro() {
        let cfg = Config::default();
        let only_tn = counts(0, 0, 0, 0, 0, 4);
        let s = document_scores(&only_tn, &cfg);
        assert_eq!(
            (s.precision, s.recall, s.f1, s.accuracy),
            (1.0, 1.0, 1.0, 1.0)
        );
        // SPEC §6 example 3, document B: a hallucination on an empty truth.
        let b = counts(0, 0, 0, 0, 1, 0);
        let s = document_scores(&b, &cfg);
        assert_eq!((s.precision, s.recall), (0.0, 0.0));
    }

    #[test]
    fn rates() {
        let c = counts(5, 0, 1, 2, 3, 9);
        assert_eq!(hallucination_rate(&c, 0.0), 0.25);
        assert_eq!(abstention_rate(&c, 0.0), 0.25);
        assert_eq!(c.total(), 20);
        assert_eq!(c.truth_count(), 8);
        assert_eq!(c.pred_count(), 9);
    }
}
