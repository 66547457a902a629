//! Confidence scores over (confidence, correct) pairs (SPEC §8.3–§8.4).
//!
//! Owns: the scores of one group of pairs (§8.3: accuracy, Brier, reliability
//! bins, ECE/MCE, AUROC, risk–coverage and AURC, threshold rows, coverage at
//! accuracy, error capture), the per-field scores of §8.4 (Wilson-bound
//! recommended threshold) and [`SortedPairs`], the sorted index that answers
//! "how many pairs have c ≥ τ, how many of them correct" in O(log n);
//! [`PairIndex`] (`index.rs`) scores many multisets of the same pairs
//! (the bootstrap's resamples) without sorting each, as `group_scores`
//! would.
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
pub use index::{PairIndex, ResampledScores};

/// One (confidence, correct) pair of §8.2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    pub confidence: f64,
    pub correct: bool,
}

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

/// One point of the risk–coverage step curve (one per distinct confidence,
/// highest first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub threshold: f64,
    pub accepted: u64,
    pub coverage: f64,
    pub risk: f64,
}

/// Pairs sorted once by confidence (`f64::total_cmp`), grouped into runs of
/// equal confidence, with cumulative counts: answers "how many pairs have
/// c ≥ τ and how many of them are correct" in O(log n). Built in O(n log n).
#[derive(Clone, Debug, PartialEq)]
pub struct SortedPairs {
    /// Distinct confidences, ascending.
    values: Vec<f64>,
    /// Per group: number of pairs, number of correct pairs.
    count: Vec<u64>,
    ok: Vec<u64>,
    /// `below_n[i]`/`below_ok[i]`: pairs (correct pairs) in groups before i;
    /// length groups + 1, the last entry being the totals.
    below_n: Vec<u64>,
    below_ok: Vec<u64>,
}

impl SortedPairs {
    /// The sorted index of `pairs` ([`SortedPairs::grouped`] without the
    /// pairs' groups).
    pub fn new(pairs: &[Pair]) -> SortedPairs {
        SortedPairs::grouped(pairs).0
    }

    /// The sorted index of `pairs` and, for each pair in input order, the
    /// index of its group in [`SortedPairs::values`]. The pairs are grouped
    /// by hashing their confidence (0.0 and −0.0 one group, whose value is
    /// the smaller under `total_cmp`, as a sort would put first) and only
    /// the G distinct values are sorted: O(n + G log G) expected, never
    /// more than a sort's O(n log n). A group keeps only its counts, so no
    /// order inside a tie can matter.
    pub fn grouped(pairs: &[Pair]) -> (SortedPairs, Vec<u32>) {
        let mut slot_of: rustc_hash::FxHashMap<u64, u32> = Default::default();
        let (mut value, mut count, mut ok) = (Vec::new(), Vec::<u64>::new(), Vec::<u64>::new());
        let mut slots: Vec<u32> = Vec::with_capacity(pairs.len());
        for p in pairs {
            let c = p.confidence;
            // `==` (not bits) so that -0.0 and 0.0 form one group.
            let key = if c == 0.0 { 0 } else { c.to_bits() };
            let slot = *slot_of.entry(key).or_insert_with(|| {
                value.push(c);
                count.push(0);
                ok.push(0);
                (value.len() - 1) as u32
            }) as usize;
            if c == 0.0 && c.total_cmp(&value[slot]).is_lt() {
                value[slot] = c;
            }
            count[slot] += 1;
            ok[slot] += u64::from(p.correct);
            slots.push(slot as u32);
        }
        let mut order: Vec<u32> = (0..value.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| value[a as usize].total_cmp(&value[b as usize]));
        let mut rank = vec![0u32; order.len()];
        for (r, &slot) in order.iter().enumerate() {
            rank[slot as usize] = r as u32;
        }
        let pick = |v: &[u64]| order.iter().map(|&s| v[s as usize]).collect();
        let sorted = SortedPairs::from_groups(
            order.iter().map(|&s| value[s as usize]).collect(),
            pick(&count),
            pick(&ok),
        );
        for slot in &mut slots {
            *slot = rank[*slot as usize];
        }
        (sorted, slots)
    }

    /// The sorted index of a subset of the pairs grouped here, and its
    /// pairs' groups in it: `pairs[i]` is in group `groups[i]` of `self`.
    /// Equal to [`SortedPairs::grouped`]`(pairs)` without hashing: the
    /// subset's groups are the groups it touches, already in order.
    /// `scratch` is reused between calls (any content; resized here).
    pub fn subset(
        &self,
        pairs: &[Pair],
        groups: &[u32],
        scratch: &mut Vec<u32>,
    ) -> (SortedPairs, Vec<u32>) {
        const UNSEEN: u32 = u32::MAX;
        scratch.clear();
        scratch.resize(self.values.len(), UNSEEN);
        let mut touched: Vec<u32> = Vec::new();
        for &g in groups {
            if scratch[g as usize] == UNSEEN {
                scratch[g as usize] = 0;
                touched.push(g);
            }
        }
        touched.sort_unstable();
        for (local, &g) in touched.iter().enumerate() {
            scratch[g as usize] = local as u32;
        }
        // A zero group's value is the subset's own smallest zero (−0.0
        // only if the subset has one), as `grouped` would give.
        let mut values: Vec<f64> = touched
            .iter()
            .map(|&g| {
                let v = self.values[g as usize];
                if v == 0.0 {
                    0.0
                } else {
                    v
                }
            })
            .collect();
        let (mut count, mut ok) = (vec![0u64; touched.len()], vec![0u64; touched.len()]);
        let local: Vec<u32> = pairs
            .iter()
            .zip(groups)
            .map(|(p, &g)| {
                let l = scratch[g as usize];
                count[l as usize] += 1;
                ok[l as usize] += u64::from(p.correct);
                if p.confidence == 0.0 && p.confidence.total_cmp(&values[l as usize]).is_lt() {
                    values[l as usize] = p.confidence;
                }
                l
            })
            .collect();
        (SortedPairs::from_groups(values, count, ok), local)
    }

    /// From the groups (distinct confidences ascending, each group's pairs
    /// and correct pairs, none empty): the cumulative counts.
    fn from_groups(values: Vec<f64>, count: Vec<u64>, ok: Vec<u64>) -> SortedPairs {
        let mut s = SortedPairs {
            values,
            count,
            ok,
            below_n: vec![0],
            below_ok: vec![0],
        };
        for i in 0..s.values.len() {
            s.below_n.push(s.below_n[i] + s.count[i]);
            s.below_ok.push(s.below_ok[i] + s.ok[i]);
        }
        s
    }

    /// n, the number of pairs.
    pub fn len(&self) -> u64 {
        *self.below_n.last().unwrap()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of correct pairs.
    pub fn correct(&self) -> u64 {
        *self.below_ok.last().unwrap()
    }

    /// The distinct confidence values, ascending.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// (accepted, correct accepted) at τ = `values()[i]`, i.e. over the pairs
    /// with c ≥ values()[i]. O(1).
    pub fn accepted_from(&self, i: usize) -> (u64, u64) {
        (
            self.len() - self.below_n[i],
            self.correct() - self.below_ok[i],
        )
    }

    /// (accepted, correct accepted) over the pairs with c ≥ τ (SPEC §8.3
    /// "accepting the pairs with c ≥ τ"). O(log n). A NaN τ accepts nothing.
    pub fn accepted_at(&self, threshold: f64) -> (u64, u64) {
        #[allow(clippy::neg_cmp_op_on_partial_ord)]
        let i = self.values.partition_point(|&v| !(v >= threshold));
        self.accepted_from(i)
    }
}

/// (accepted, correct accepted) over the pairs with c ≥ τ; see
/// [`SortedPairs::accepted_at`].
pub fn accepted_at(sorted: &SortedPairs, threshold: f64) -> (u64, u64) {
    sorted.accepted_at(threshold)
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

/// The equal-width bin of c among B bins (SPEC §8.3): bin k = [k/B, (k+1)/B),
/// the last closed at 1. Starts from ⌊c·B⌋ and corrects it by comparing c
/// with the edges k/B computed as `(k as f64) / (B as f64)`, so a confidence
/// on an edge (the decimal 0.3 with B = 10) goes to the upper bin.
fn width_bin(c: f64, b: usize) -> usize {
    let edge = |k: usize| k as f64 / b as f64;
    let mut k = ((c * b as f64).floor().max(0.0) as usize).min(b - 1);
    while k > 0 && c < edge(k) {
        k -= 1;
    }
    while k + 1 < b && c >= edge(k + 1) {
        k += 1;
    }
    k
}

/// Per-bin accumulator: count, correct, Σc (in input order).
#[derive(Clone, Copy, Default)]
struct Bin {
    n: u64,
    ok: u64,
    sum: f64,
}

/// (ece, mce) over bins (SPEC §8.3): ece = Σ_k (n_k/n)·|acc_k − conf_k|,
/// mce = max_k |acc_k − conf_k|, both over the non-empty bins, with
/// acc_k = correct_k/n_k and conf_k = Σ_{i∈k} c_i / n_k.
fn calibration_error(bins: &[Bin], n: u64) -> (f64, f64) {
    let (mut ece, mut mce) = (0.0, 0.0_f64);
    for b in bins.iter().filter(|b| b.n > 0) {
        let gap = (b.ok as f64 / b.n as f64 - b.sum / b.n as f64).abs();
        ece += b.n as f64 / n as f64 * gap;
        mce = mce.max(gap);
    }
    (ece, mce)
}

/// Equal-width bins (SPEC §8.3, see [`width_bin`]), filled in input order;
/// `groups` is [`SortedPairs::grouped`]'s, so each distinct confidence's bin
/// is computed once.
fn width_bins(pairs: &[Pair], sorted: &SortedPairs, groups: &[u32], b: usize) -> Vec<Bin> {
    let bin_of: Vec<usize> = sorted.values.iter().map(|&c| width_bin(c, b)).collect();
    fill_bins(pairs, groups, &bin_of, b)
}

/// B bins filled in input order, pair i going to `bin_of[groups[i]]`.
fn fill_bins(pairs: &[Pair], groups: &[u32], bin_of: &[usize], b: usize) -> Vec<Bin> {
    let mut bins = vec![Bin::default(); b];
    for (p, &g) in pairs.iter().zip(groups) {
        let bin = &mut bins[bin_of[g as usize]];
        bin.n += 1;
        bin.ok += u64::from(p.correct);
        bin.sum += p.confidence;
    }
    bins
}

/// `ece_equal_mass` (SPEC §8.3): B bins, a pair going to bin ⌊B·r/n⌋
/// (integer arithmetic) with r = #pairs of strictly smaller confidence (so
/// ties share a bin), then ece = Σ_k (n_k/n)·|acc_k − conf_k|.
fn ece_equal_mass(pairs: &[Pair], sorted: &SortedPairs, groups: &[u32], b: usize) -> f64 {
    let n = sorted.len();
    // r of group g is below_n[g]: the pairs of the groups before it.
    let bin_of: Vec<usize> = (0..sorted.values.len())
        .map(|g| (b as u128 * sorted.below_n[g] as u128 / n as u128) as usize)
        .collect();
    calibration_error(&fill_bins(pairs, groups, &bin_of, b), n).0
}

/// AUROC (SPEC §8.3, Mann–Whitney): P(c_correct > c_incorrect) with ties
/// counting ½ = Σ_g ok_g·(bad_below_g + ½·bad_g) / (P·N) over the groups g
/// of equal confidence (equivalent to average ranks over tie groups);
/// computed as an exact integer ratio Σ ok_g·(2·bad_below_g + bad_g) / (2PN).
/// None when P = 0 or N = 0 (all correct or all incorrect).
fn auroc(s: &SortedPairs) -> Option<f64> {
    let (pos, neg) = (s.correct(), s.len() - s.correct());
    if pos == 0 || neg == 0 {
        return None;
    }
    let mut num: u128 = 0;
    for i in 0..s.values.len() {
        let bad_below = s.below_n[i] - s.below_ok[i];
        let bad = s.count[i] - s.ok[i];
        num += s.ok[i] as u128 * (2 * bad_below as u128 + bad as u128);
    }
    Some(num as f64 / (2 * pos as u128 * neg as u128) as f64)
}

/// The risk–coverage curve (SPEC §8.3) over a sorted set: for each distinct
/// confidence τ from the highest down, accepting c ≥ τ: coverage =
/// accepted/n, risk = incorrect accepted / accepted.
impl SortedPairs {
    /// The risk–coverage curve of these pairs ([`risk_coverage`]).
    pub fn curve(&self) -> Vec<CurvePoint> {
        curve(self)
    }
}

fn curve(s: &SortedPairs) -> Vec<CurvePoint> {
    let n = s.len() as f64;
    (0..s.values.len())
        .rev()
        .map(|i| {
            let (acc, ok) = s.accepted_from(i);
            CurvePoint {
                threshold: s.values[i],
                accepted: acc,
                coverage: acc as f64 / n,
                risk: (acc - ok) as f64 / acc as f64,
            }
        })
        .collect()
}

/// The risk–coverage step curve of SPEC §8.3: one point per distinct
/// confidence, highest first (coverage = accepted/n, risk = incorrect
/// accepted / accepted). Empty for no pairs.
pub fn risk_coverage(pairs: &[Pair]) -> Vec<CurvePoint> {
    curve(&SortedPairs::new(pairs))
}

/// AURC (SPEC §8.3): Σ_j risk(τ_j)·(coverage(τ_j) − coverage(τ_{j−1})) over
/// the distinct values τ_1 > τ_2 > …, coverage(τ_0) = 0.
fn aurc(points: &[CurvePoint]) -> f64 {
    let mut prev = 0.0;
    let mut area = 0.0;
    for p in points {
        area += p.risk * (p.coverage - prev);
        prev = p.coverage;
    }
    area
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

/// (Σy, Σc, Σ(c − y)²) in input order.
fn sums(pairs: &[Pair]) -> (u64, f64, f64) {
    pairs.iter().fold((0, 0.0, 0.0), |(ok, c, sq), p| {
        let y = if p.correct { 1.0 } else { 0.0 };
        let d = p.confidence - y;
        (ok + u64::from(p.correct), c + p.confidence, sq + d * d)
    })
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
    group_scores_grouped(pairs, &sorted, &groups, settings)
}

/// [`group_scores`] with `pairs` already grouped (`(sorted, groups)` must
/// be `SortedPairs::grouped(pairs)`), for a caller that needs them again.
pub fn group_scores_grouped(
    pairs: &[Pair],
    sorted: &SortedPairs,
    groups: &[u32],
    settings: &ConfidenceSettings,
) -> Option<GroupScores> {
    if pairs.is_empty() {
        return None;
    }
    let s = sorted;
    let n = s.len();
    let nf = n as f64;
    let b = settings.bins.max(1);
    let (ok, sum_c, sum_sq) = sums(pairs);
    let width = width_bins(pairs, s, groups, b);
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
    Some(GroupScores {
        pairs: n,
        accuracy: ok as f64 / nf,
        mean_confidence: sum_c / nf,
        brier: sum_sq / nf,
        ece,
        ece_equal_mass: ece_equal_mass(pairs, s, groups, b),
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
    })
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
    let n = s.len();
    let (ok, sum_c, _) = sums(pairs);
    let (ece, _) = calibration_error(&width_bins(pairs, s, groups, settings.bins.max(1)), n);
    let recommended = if n < settings.min_pairs as u64 {
        None
    } else {
        (0..s.values.len()).find_map(|i| {
            let (acc, acc_ok) = s.accepted_from(i);
            (wilson_lower_bound(acc_ok, acc, 1.96) >= settings.review_target)
                .then(|| (s.values[i], acc as f64 / n as f64))
        })
    };
    Some(FieldConfidence {
        pairs: n,
        accuracy: ok as f64 / n as f64,
        mean_confidence: sum_c / n as f64,
        ece,
        auroc: auroc(s),
        recommended_threshold: recommended.map(|r| r.0),
        coverage: recommended.map_or(0.0, |r| r.1),
    })
}

#[cfg(test)]
mod tests;
