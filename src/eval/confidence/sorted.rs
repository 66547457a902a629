//! The sorted index of (confidence, correct) pairs and the scores read off
//! it or filled from it (SPEC §8.3): [`Pair`], [`SortedPairs`], the
//! equal-width bins and calibration error, equal-mass ECE, AUROC and the
//! risk–coverage curve with its area. The parent's group and field scores
//! and the sibling `index` (the bootstrap's resamples) both build on it.
//! Depends on `std` and `serde` only; [`SortedPairs::grouped`] is the
//! sibling `log`'s, which groups the pairs.

use serde::{Deserialize, Serialize};

/// One (confidence, correct) pair of §8.2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    pub confidence: f64,
    pub correct: bool,
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
    pub(super) values: Vec<f64>,
    /// Per group: number of pairs, number of correct pairs.
    pub(super) count: Vec<u64>,
    pub(super) ok: Vec<u64>,
    /// `below_n[i]`/`below_ok[i]`: pairs (correct pairs) in groups before i;
    /// length groups + 1, the last entry being the totals.
    pub(super) below_n: Vec<u64>,
    pub(super) below_ok: Vec<u64>,
}

impl SortedPairs {
    /// The sorted index of `pairs` ([`SortedPairs::grouped`] without the
    /// pairs' groups).
    pub fn new(pairs: &[Pair]) -> SortedPairs {
        SortedPairs::grouped(pairs).0
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
    pub(super) fn from_groups(values: Vec<f64>, count: Vec<u64>, ok: Vec<u64>) -> SortedPairs {
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

/// The equal-width bin of c among B bins (SPEC §8.3): bin k = [k/B, (k+1)/B),
/// the last closed at 1. Starts from ⌊c·B⌋ and corrects it by comparing c
/// with the edges k/B computed as `(k as f64) / (B as f64)`, so a confidence
/// on an edge (the decimal 0.3 with B = 10) goes to the upper bin.
pub(super) fn width_bin(c: f64, b: usize) -> usize {
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
pub(super) struct Bin {
    pub(super) n: u64,
    pub(super) ok: u64,
    pub(super) sum: f64,
}

impl Bin {
    /// Counts one pair in the bin (its Σc in the order of the calls).
    #[inline]
    pub(super) fn add(&mut self, pair: Pair) {
        self.n += 1;
        self.ok += u64::from(pair.correct);
        self.sum += pair.confidence;
    }
}

/// (ece, mce) over bins (SPEC §8.3): ece = Σ_k (n_k/n)·|acc_k − conf_k|,
/// mce = max_k |acc_k − conf_k|, both over the non-empty bins, with
/// acc_k = correct_k/n_k and conf_k = Σ_{i∈k} c_i / n_k.
pub(super) fn calibration_error(bins: &[Bin], n: u64) -> (f64, f64) {
    let (mut ece, mut mce) = (0.0, 0.0_f64);
    for b in bins.iter().filter(|b| b.n > 0) {
        let gap = (b.ok as f64 / b.n as f64 - b.sum / b.n as f64).abs();
        ece += b.n as f64 / n as f64 * gap;
        mce = mce.max(gap);
    }
    (ece, mce)
}

/// Each distinct confidence's equal-width bin (SPEC §8.3, see
/// [`width_bin`]): `groups` of [`SortedPairs::grouped`] index it, so each
/// bin is computed once per distinct confidence.
pub(super) fn width_bin_of(sorted: &SortedPairs, b: usize) -> Vec<usize> {
    sorted.values.iter().map(|&c| width_bin(c, b)).collect()
}

/// (Σy, Σc, Σ(c − y)²) of the pairs, with y = 1 for a correct pair.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Sums {
    pub ok: u64,
    pub confidence: f64,
    pub squared_error: f64,
}

/// One pass over the pairs (each with its group in `sorted`) in input
/// order: their [`Sums`] and, for each map of `maps`, B bins with a pair
/// of group g in bin `map[g]` (a [`Tally`] of every pair).
pub(super) fn sums_and_bins<const M: usize>(
    pairs: impl IntoIterator<Item = (Pair, u32)>,
    sorted: &SortedPairs,
    maps: [&[usize]; M],
    b: usize,
) -> (Sums, [Vec<Bin>; M]) {
    let mut tally = Tally::new(b);
    for (p, g) in pairs {
        tally.add(p, g as usize, maps);
    }
    tally.finish(sorted, maps)
}

/// [`Sums`] and, per map, B bins, as pairs are added one at a time. Only
/// the sums of floats are taken pair by pair (in the order of the calls,
/// as a pass of its own would take them: the same bits, the chains of
/// additions side by side); the counts (pairs and correct pairs, overall
/// and per bin) are read off the sorted index's groups at the end.
pub(super) struct Tally<const M: usize> {
    confidence: f64,
    squared_error: f64,
    /// Per map, per bin: Σc.
    bin_sums: [Vec<f64>; M],
}

impl<const M: usize> Tally<M> {
    pub(super) fn new(b: usize) -> Tally<M> {
        Tally {
            confidence: 0.0,
            squared_error: 0.0,
            bin_sums: std::array::from_fn(|_| vec![0.0; b]),
        }
    }

    /// Adds pair `p` of group `g`: to bin `map[g]` of each map.
    #[inline(always)]
    pub(super) fn add(&mut self, p: Pair, g: usize, maps: [&[usize]; M]) {
        self.add_to_bins(p, maps.map(|map| map[g]));
    }

    /// Adds pair `p` to bin `bins[m]` of each map m.
    #[inline(always)]
    pub(super) fn add_to_bins(&mut self, p: Pair, bins: [usize; M]) {
        let y = if p.correct { 1.0 } else { 0.0 };
        let d = p.confidence - y;
        self.confidence += p.confidence;
        self.squared_error += d * d;
        for (sums, bin) in self.bin_sums.iter_mut().zip(bins) {
            sums[bin] += p.confidence;
        }
    }

    /// The sums and bins once every pair of `sorted` is added (with the
    /// same `maps`): each bin's pairs and correct pairs are its groups'.
    pub(super) fn finish(self, sorted: &SortedPairs, maps: [&[usize]; M]) -> (Sums, [Vec<Bin>; M]) {
        let sums = Sums {
            ok: sorted.correct(),
            confidence: self.confidence,
            squared_error: self.squared_error,
        };
        let bins = std::array::from_fn(|m| {
            let mut bins: Vec<Bin> = self.bin_sums[m]
                .iter()
                .map(|&sum| Bin { n: 0, ok: 0, sum })
                .collect();
            for (g, &k) in maps[m].iter().enumerate() {
                bins[k].n += sorted.count[g];
                bins[k].ok += sorted.ok[g];
            }
            bins
        });
        (sums, bins)
    }
}

/// `pairs` beside their `groups`, as [`sums_and_bins`] takes them.
pub(super) fn in_groups<'a>(
    pairs: &'a [Pair],
    groups: &'a [u32],
) -> impl Iterator<Item = (Pair, u32)> + 'a {
    pairs.iter().copied().zip(groups.iter().copied())
}

/// Each distinct confidence's bin for `ece_equal_mass` (SPEC §8.3): bin
/// ⌊B·r/n⌋ (integer arithmetic) with r = #pairs of strictly smaller
/// confidence (so ties share a bin).
pub(super) fn equal_mass_bin_of(sorted: &SortedPairs, b: usize) -> Vec<usize> {
    let n = sorted.len().max(1);
    // r of group g is below_n[g]: the pairs of the groups before it.
    (0..sorted.values.len())
        .map(|g| (b as u128 * sorted.below_n[g] as u128 / n as u128) as usize)
        .collect()
}

/// `ece_equal_mass` (SPEC §8.3): the bins of [`equal_mass_bin_of`], then
/// ece = Σ_k (n_k/n)·|acc_k − conf_k|.
#[cfg(test)]
pub(super) fn ece_equal_mass(
    pairs: &[Pair],
    sorted: &SortedPairs,
    groups: &[u32],
    b: usize,
) -> f64 {
    let (_, [bins]) = sums_and_bins(
        in_groups(pairs, groups),
        sorted,
        [&equal_mass_bin_of(sorted, b)],
        b,
    );
    calibration_error(&bins, sorted.len()).0
}

/// AUROC (SPEC §8.3, Mann–Whitney): P(c_correct > c_incorrect) with ties
/// counting ½ = Σ_g ok_g·(bad_below_g + ½·bad_g) / (P·N) over the groups g
/// of equal confidence (equivalent to average ranks over tie groups);
/// computed as an exact integer ratio Σ ok_g·(2·bad_below_g + bad_g) / (2PN).
/// None when P = 0 or N = 0 (all correct or all incorrect).
pub(super) fn auroc(s: &SortedPairs) -> Option<f64> {
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

pub(super) fn curve(s: &SortedPairs) -> Vec<CurvePoint> {
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
pub(super) fn aurc(points: &[CurvePoint]) -> f64 {
    let mut prev = 0.0;
    let mut area = 0.0;
    for p in points {
        area += p.risk * (p.coverage - prev);
        prev = p.coverage;
    }
    area
}
