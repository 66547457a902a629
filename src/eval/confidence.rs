//! Confidence scores over (confidence, correct) pairs (SPEC §8.3–§8.4).
//!
//! Owns: the scores of one group of pairs (§8.3: accuracy, Brier, reliability
//! bins, ECE/MCE, AUROC, risk–coverage and AURC, threshold rows, coverage at
//! accuracy, error capture), the per-field scores of §8.4 (Wilson-bound
//! recommended threshold) and [`SortedPairs`], the sorted index that answers
//! "how many pairs have c ≥ τ, how many of them correct" in O(log n);
//! [`PairIndex`] (`index.rs`) scores many multisets of the same pairs
//! (the bootstrap's resamples) without sorting each, as `group_scores`
//! would; [`PairLog`] (`log.rs`) keeps a run's pairs in input order in 8
//! bytes each, grouped as they come.
//! Depends on: `std`, `serde` (derive) and `rustc-hash` only. Never: I/O, config parsing,
//! web types; the caller builds the pairs (§8.1–§8.2) and the settings.
//!
//! Conventions: confidences are finite and in [0, 1] (validated upstream).
//! Sorting uses `f64::total_cmp` on the confidence only and a run of equal
//! confidences is one group, so every sorting-based score is invariant under
//! permuting the input. Sums (Σc, Σ(c − y)²) are taken in the input order
//! (the caller passes document order, so results are reproducible).

use serde::{Deserialize, Serialize};

mod index;
mod log;
mod sorted;
pub use index::{PairIndex, ResampledScores};
pub use log::PairLog;
#[cfg(test)]
use sorted::ece_equal_mass;
pub use sorted::{accepted_at, risk_coverage, CurvePoint, Pair, SortedPairs};
use sorted::{
    aurc, auroc, calibration_error, curve, equal_mass_bin_of, in_groups, sums_and_bins,
    width_bin_of, Bin, Tally,
};

/// The `confidence` config section's numeric settings (§8.3–§8.4), with
/// SPEC's defaults in `Default`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfidenceSettings {
    /// Number of reliability bins B (`confidence.bins`); 0 is treated as 1.
    pub bins: usize,
    pub thresholds: Vec<f64>,
    pub target_accuracy: Vec<f64>,
    pub review_budgets: Vec<f64>,
    pub review_target: f64,
    pub min_pairs: usize,
}

impl Default for ConfidenceSettings {
    fn default() -> Self {
        ConfidenceSettings {
            bins: 10,
            thresholds: vec![0.5, 0.8, 0.9, 0.95, 0.99],
            target_accuracy: vec![0.9, 0.95, 0.99],
            review_budgets: vec![0.05, 0.1, 0.2, 0.3],
            review_target: 0.95,
            min_pairs: 20,
        }
    }
}

/// One equal-width reliability bin (§8.3, §8.5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReliabilityBin {
    pub low: f64,
    pub high: f64,
    pub count: u64,
    pub accuracy: Option<f64>,
    pub mean_confidence: Option<f64>,
}

/// One row of `thresholds` (§8.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThresholdRow {
    pub threshold: f64,
    pub accepted: u64,
    pub coverage: f64,
    pub accuracy: Option<f64>,
}

/// One row of `coverage_at_accuracy` (§8.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoverageAtAccuracy {
    pub target: f64,
    pub threshold: Option<f64>,
    pub coverage: f64,
}

/// One row of `error_capture` (§8.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorCapture {
    pub budget: f64,
    pub reviewed: u64,
    pub share: Option<f64>,
}

/// §8.3 over one group of pairs (n ≥ 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupScores {
    pub pairs: u64,
    pub accuracy: f64,
    pub mean_confidence: f64,
    pub brier: f64,
    pub ece: f64,
    pub ece_equal_mass: f64,
    pub mce: f64,
    pub auroc: Option<f64>,
    pub aurc: f64,
    pub bins: Vec<ReliabilityBin>,
    pub thresholds: Vec<ThresholdRow>,
    pub coverage_at_accuracy: Vec<CoverageAtAccuracy>,
    pub error_capture: Vec<ErrorCapture>,
}

/// §8.4 per field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldConfidence {
    pub pairs: u64,
    pub accuracy: f64,
    pub mean_confidence: f64,
    pub ece: f64,
    pub auroc: Option<f64>,
    pub recommended_threshold: Option<f64>,
    pub coverage: f64,
}

/// Wilson score lower bound (SPEC §8.4, z = 1.96 there):
/// (p + z²/(2n) − z·√(p(1−p)/n + z²/(4n²))) / (1 + z²/n), p = correct/n.
/// Returns 0 when n = 0.
pub fn wilson_lower_bound(correct: u64, n: u64, z: f64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let n = n as f64;
    let p = correct as f64 / n;
    let z2 = z * z;
    (p + z2 / (2.0 * n) - z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt()) / (1.0 + z2 / n)
}

/// Snaps x to the nearest integer when within 1e-9 of it, so that a decimal
/// setting times a count is the exact product: 0.28·25 is 7, not
/// 7.000000000000001 as in f64 (likewise 0.07·100, 0.55·100).
fn snap(x: f64) -> f64 {
    let r = x.round();
    if (x - r).abs() <= 1e-9 {
        r
    } else {
        x
    }
}

/// Coverage at accuracy (SPEC §8.3): the smallest distinct τ (= the largest
/// coverage) whose accepted accuracy ≥ a. "accuracy ≥ a" is decided without
/// a division as correct ≥ a·accepted, the product snapped to the nearest
/// integer when within 1e-9 of it (see [`snap`]), so a decimal target is
/// compared exactly (19 of 20 reaches 0.95).
fn coverage_at(s: &SortedPairs, target: f64) -> CoverageAtAccuracy {
    let n = s.len() as f64;
    for i in 0..s.values.len() {
        let (acc, ok) = s.accepted_from(i);
        if ok as f64 >= snap(target * acc as f64) {
            return CoverageAtAccuracy {
                target,
                threshold: Some(s.values[i]),
                coverage: acc as f64 / n,
            };
        }
    }
    CoverageAtAccuracy {
        target,
        threshold: None,
        coverage: 0.0,
    }
}

/// Error capture (SPEC §8.3): review the k = ⌈b·n⌉ pairs of lowest
/// confidence (b·n snapped to an integer within 1e-9, see [`snap`]; k
/// clamped to [0, n]). Groups wholly below the cut contribute their incorrect
/// pairs; the group g the cut falls in contributes k_in/|g| of its incorrect
/// pairs. share = caught / all incorrect, computed as the single ratio
/// (bad_below·|g| + bad_g·k_in) / (|g|·N); None when N = 0.
fn error_capture(s: &SortedPairs, budget: f64) -> ErrorCapture {
    let n = s.len();
    let x = snap(budget * n as f64);
    let k = if x > 0.0 { (x.ceil() as u64).min(n) } else { 0 };
    let all_bad = n - s.correct();
    let share = (all_bad > 0).then(|| {
        if k == 0 {
            return 0.0;
        }
        // The group holding the k-th lowest pair: the last i with below_n[i] < k.
        let g = s.below_n[..s.values.len()].partition_point(|&b| b < k) - 1;
        let size = s.count[g] as u128;
        let k_in = (k - s.below_n[g]) as u128;
        let bad_below = (s.below_n[g] - s.below_ok[g]) as u128;
        let bad_g = (s.count[g] - s.ok[g]) as u128;
        (bad_below * size + bad_g * k_in) as f64 / (size * all_bad as u128) as f64
    });
    ErrorCapture {
        budget,
        reviewed: k,
        share,
    }
}

/// The scores of SPEC §8.3 over one group of pairs; None when empty.
/// accuracy = Σy/n, mean_confidence = Σc/n, brier = Σ(c − y)²/n (sums in
/// input order); bins/ece/mce see [`width_bin`] and [`calibration_error`];
/// ece_equal_mass see [`ece_equal_mass`]; auroc see [`auroc`]; aurc see
/// [`aurc`]; thresholds: per τ, accepted = #(c ≥ τ), coverage = accepted/n,
/// accuracy = correct accepted / accepted (None when 0 accepted);
/// coverage_at_accuracy see [`coverage_at`]; error_capture see
/// [`error_capture`].
pub fn group_scores(pairs: &[Pair], settings: &ConfidenceSettings) -> Option<GroupScores> {
    let (sorted, groups) = SortedPairs::grouped(pairs);
    group_scores_grouped(in_groups(pairs, &groups), &sorted, settings)
}

/// [`group_scores`] of pairs already grouped: `pairs` yields each pair in
/// input order with its group in `sorted` (`sorted` and the groups must
/// be `SortedPairs::grouped` of the pairs), for a caller that needs them
/// again or keeps its pairs another way.
pub fn group_scores_grouped(
    pairs: impl IntoIterator<Item = (Pair, u32)>,
    sorted: &SortedPairs,
    settings: &ConfidenceSettings,
) -> Option<GroupScores> {
    if sorted.is_empty() {
        return None;
    }
    let mut tally = GroupTally::new(sorted, settings);
    for (p, g) in pairs {
        tally.add(p, g as usize);
    }
    Some(tally.scores(sorted, settings))
}

/// What [`group_scores_grouped`] adds up pair by pair: Σy, Σc, Σ(c − y)²,
/// the equal-width and the equal-mass bins (each group's bins worked out
/// once), every sum in the order of the calls.
struct GroupTally {
    tally: Tally<2>,
    width_of: Vec<usize>,
    mass_of: Vec<usize>,
}

impl GroupTally {
    fn new(sorted: &SortedPairs, settings: &ConfidenceSettings) -> GroupTally {
        let b = settings.bins.max(1);
        GroupTally {
            tally: Tally::new(b),
            width_of: width_bin_of(sorted, b),
            mass_of: equal_mass_bin_of(sorted, b),
        }
    }

    /// Adds pair `p` of group `g`.
    #[inline(always)]
    fn add(&mut self, p: Pair, g: usize) {
        self.tally.add(p, g, [&self.width_of, &self.mass_of]);
    }

    /// The scores, once every pair of the (non-empty) `s` is added.
    fn scores(self, s: &SortedPairs, settings: &ConfidenceSettings) -> GroupScores {
        let n = s.len();
        let nf = n as f64;
        let b = settings.bins.max(1);
        let (sums, [width, mass]) = self.tally.finish(s, [&self.width_of, &self.mass_of]);
        let (ece, mce) = calibration_error(&width, n);
        let bins = width
            .iter()
            .enumerate()
            .map(|(k, w)| ReliabilityBin {
                low: k as f64 / b as f64,
                high: (k + 1) as f64 / b as f64,
                count: w.n,
                accuracy: (w.n > 0).then(|| w.ok as f64 / w.n as f64),
                mean_confidence: (w.n > 0).then(|| w.sum / w.n as f64),
            })
            .collect();
        let thresholds = settings
            .thresholds
            .iter()
            .map(|&t| {
                let (acc, acc_ok) = s.accepted_at(t);
                ThresholdRow {
                    threshold: t,
                    accepted: acc,
                    coverage: acc as f64 / nf,
                    accuracy: (acc > 0).then(|| acc_ok as f64 / acc as f64),
                }
            })
            .collect();
        GroupScores {
            pairs: n,
            accuracy: sums.ok as f64 / nf,
            mean_confidence: sums.confidence / nf,
            brier: sums.squared_error / nf,
            ece,
            ece_equal_mass: calibration_error(&mass, n).0,
            mce,
            auroc: auroc(s),
            aurc: aurc(&curve(s)),
            bins,
            thresholds,
            coverage_at_accuracy: settings
                .target_accuracy
                .iter()
                .map(|&a| coverage_at(s, a))
                .collect(),
            error_capture: settings
                .review_budgets
                .iter()
                .map(|&bud| error_capture(s, bud))
                .collect(),
        }
    }
}

/// The per-field scores of SPEC §8.4; None when empty. accuracy,
/// mean_confidence, ece (equal-width, `settings.bins`) and auroc as in §8.3.
/// recommended_threshold: the smallest distinct confidence τ whose accepted
/// pairs (c ≥ τ) have a Wilson lower bound (z = 1.96, see
/// [`wilson_lower_bound`]) ≥ `review_target`, with coverage = accepted/n;
/// None and coverage 0 when no τ reaches it or n < `min_pairs`.
pub fn field_scores(pairs: &[Pair], settings: &ConfidenceSettings) -> Option<FieldConfidence> {
    let (sorted, groups) = SortedPairs::grouped(pairs);
    field_scores_grouped(pairs, &sorted, &groups, settings)
}

/// [`field_scores`] with `pairs` already grouped (`(s, groups)` must be
/// `SortedPairs::grouped(pairs)` or a [`SortedPairs::subset`] equal to it).
pub fn field_scores_grouped(
    pairs: &[Pair],
    s: &SortedPairs,
    groups: &[u32],
    settings: &ConfidenceSettings,
) -> Option<FieldConfidence> {
    if pairs.is_empty() {
        return None;
    }
    let b = settings.bins.max(1);
    let (sums, [width]) = sums_and_bins(in_groups(pairs, groups), s, [&width_bin_of(s, b)], b);
    Some(field_scores_from(
        s,
        sums.ok,
        sums.confidence,
        &width,
        settings,
    ))
}

/// [`field_scores`] of every field at once: `pairs` yields each pair in
/// input order with its field (an id below `field_count`) and its group
/// in `sorted` (`sorted` and the groups must be `SortedPairs::grouped` of
/// the pairs). One pass over the pairs in input order
/// adds each pair to its field's Σy, Σc, equal-width bin and group count:
/// each field's sums are taken over its own pairs in input order, as
/// [`field_scores`] of those pairs alone takes them (the same bits). Entry
/// f is None for a field without pairs. None altogether when the table of
/// fields × distinct confidences would exceed 4·n + 65,536 cells (many
/// distinct confidences): the caller then gathers each field's pairs.
pub fn all_field_scores(
    pairs: impl IntoIterator<Item = (Pair, u32, u32)>,
    field_count: usize,
    sorted: &SortedPairs,
    settings: &ConfidenceSettings,
) -> Option<Vec<Option<FieldConfidence>>> {
    let mut tally = FieldTally::new(field_count, sorted, settings)?;
    for (p, f, g) in pairs {
        tally.add(p, f as usize, g as usize);
    }
    Some(tally.scores(sorted, settings))
}

/// [`group_scores_grouped`] and [`all_field_scores`] of the same pairs in
/// one pass over them (each sum the same bits as in a pass of its own):
/// the group's scores, and every field's, or None for the fields when
/// [`all_field_scores`] would give None (the caller gathers each field's
/// pairs). None when there are no pairs.
pub fn group_and_field_scores(
    pairs: impl IntoIterator<Item = (Pair, u32, u32)>,
    field_count: usize,
    sorted: &SortedPairs,
    settings: &ConfidenceSettings,
) -> Option<(GroupScores, Option<Vec<Option<FieldConfidence>>>)> {
    if sorted.is_empty() {
        return None;
    }
    let mut group = GroupTally::new(sorted, settings);
    let fields = match FieldTally::new(field_count, sorted, settings) {
        Some(mut fields) => {
            // Each group's equal-width and equal-mass bins side by side:
            // one lookup a pair for the model's bins and the field's.
            let bins_of: Vec<[usize; 2]> = (group.width_of.iter())
                .zip(&group.mass_of)
                .map(|(&w, &m)| [w, m])
                .collect();
            for (p, f, g) in pairs {
                let bins = bins_of[g as usize];
                group.tally.add_to_bins(p, bins);
                fields.add_in_bin(p, f as usize, g as usize, bins[0]);
            }
            Some(fields.scores(sorted, settings))
        }
        None => {
            for (p, _, g) in pairs {
                group.add(p, g as usize);
            }
            None
        }
    };
    Some((group.scores(sorted, settings), fields))
}

/// What [`all_field_scores`] adds up pair by pair: per field Σc, each
/// equal-width bin's Σc (every sum in the order of the calls) and the
/// pairs and correct pairs of each group (a table of fields × distinct
/// confidences), from which the field's and its bins' counts are read.
struct FieldTally {
    /// B, the groups (distinct confidences) and each group's bin.
    b: usize,
    distinct: usize,
    width_of: Vec<usize>,
    sums: Vec<f64>,
    bin_sums: Vec<f64>,
    table: Vec<(u64, u64)>,
    /// Whether a field has a −0.0 (only looked at when `sorted` has a
    /// zero).
    negative_zero: Vec<bool>,
    has_zero: bool,
}

impl FieldTally {
    /// None when the table would exceed 4·n + 65,536 cells.
    fn new(
        field_count: usize,
        sorted: &SortedPairs,
        settings: &ConfidenceSettings,
    ) -> Option<FieldTally> {
        let distinct = sorted.values().len();
        let cells = field_count.checked_mul(distinct)?;
        let n = usize::try_from(sorted.len()).unwrap_or(usize::MAX);
        if cells > n.saturating_mul(4).saturating_add(1 << 16) {
            return None;
        }
        let b = settings.bins.max(1);
        Some(FieldTally {
            b,
            distinct,
            width_of: width_bin_of(sorted, b),
            sums: vec![0.0; field_count],
            bin_sums: vec![0.0; field_count * b],
            table: vec![(0, 0); cells],
            negative_zero: vec![false; field_count],
            has_zero: sorted.values().contains(&0.0),
        })
    }

    /// Adds pair `p` of field `f` and group `g`.
    #[inline(always)]
    fn add(&mut self, p: Pair, f: usize, g: usize) {
        self.add_in_bin(p, f, g, self.width_of[g]);
    }

    /// [`Self::add`] with the group's equal-width bin `bin` known.
    #[inline(always)]
    fn add_in_bin(&mut self, p: Pair, f: usize, g: usize, bin: usize) {
        self.sums[f] += p.confidence;
        self.bin_sums[f * self.b + bin] += p.confidence;
        let cell = &mut self.table[f * self.distinct + g];
        cell.0 += 1;
        cell.1 += u64::from(p.correct);
        if self.has_zero && p.confidence == 0.0 && p.confidence.is_sign_negative() {
            self.negative_zero[f] = true;
        }
    }

    /// Each field's scores (None for a field without pairs), once every
    /// pair is added.
    fn scores(
        self,
        sorted: &SortedPairs,
        settings: &ConfidenceSettings,
    ) -> Vec<Option<FieldConfidence>> {
        let (b, distinct) = (self.b, self.distinct);
        (0..self.sums.len())
            .map(|f| {
                let row = &self.table[f * distinct..(f + 1) * distinct];
                let (mut values, mut count, mut ok) = (Vec::new(), Vec::new(), Vec::new());
                let mut bins: Vec<Bin> = self.bin_sums[f * b..(f + 1) * b]
                    .iter()
                    .map(|&sum| Bin { n: 0, ok: 0, sum })
                    .collect();
                for (g, &(n, k)) in row.iter().enumerate().filter(|(_, c)| c.0 > 0) {
                    bins[self.width_of[g]].n += n;
                    bins[self.width_of[g]].ok += k;
                    // A zero group's value is the field's own smallest
                    // zero (−0.0 only if it has one), as `grouped` of its
                    // pairs would give.
                    let v = sorted.values()[g];
                    values.push(match (v == 0.0, self.negative_zero[f]) {
                        (true, true) => -0.0,
                        (true, false) => 0.0,
                        _ => v,
                    });
                    count.push(n);
                    ok.push(k);
                }
                if values.is_empty() {
                    return None;
                }
                let s = SortedPairs::from_groups(values, count, ok);
                Some(field_scores_from(
                    &s,
                    s.correct(),
                    self.sums[f],
                    &bins,
                    settings,
                ))
            })
            .collect()
    }
}

/// A field's scores from its sorted groups `s`, Σy, Σc (in input order)
/// and equal-width bins: see [`field_scores`].
fn field_scores_from(
    s: &SortedPairs,
    ok: u64,
    sum_c: f64,
    width: &[Bin],
    settings: &ConfidenceSettings,
) -> FieldConfidence {
    let n = s.len();
    let (ece, _) = calibration_error(width, n);
    let recommended = if n < settings.min_pairs as u64 {
        None
    } else {
        (0..s.values.len()).find_map(|i| {
            let (acc, acc_ok) = s.accepted_from(i);
            (wilson_lower_bound(acc_ok, acc, 1.96) >= settings.review_target)
                .then(|| (s.values[i], acc as f64 / n as f64))
        })
    };
    FieldConfidence {
        pairs: n,
        accuracy: ok as f64 / n as f64,
        mean_confidence: sum_c / n as f64,
        ece,
        auroc: auroc(s),
        recommended_threshold: recommended.map(|r| r.0),
        coverage: recommended.map_or(0.0, |r| r.1),
    }
}

#[cfg(test)]
mod tests;
