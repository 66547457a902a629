//! Pairs indexed once, so that the scores the bootstrap resamples (SPEC
//! §8.5: ece, brier, auroc, aurc) are computed for many multisets of them
//! without sorting each one.
//!
//! A multiset is given as runs `(range, w)`: the pairs `range` repeated `w`
//! times in a row, the runs in order (the bootstrap's resample: each
//! document's pairs as often as it is drawn, documents in order).
//! [`PairIndex::scores`] gives, bit for bit, what [`group_scores`] gives on
//! that list written out: the sums (Σ(c − y)², each bin's Σc) are taken
//! pair by pair in the list's order; the counts per group of equal
//! confidence are integers, and the groups of a multiset are the
//! non-empty groups of all the pairs (equal confidences are adjacent in
//! `total_cmp` order, so a multiset's runs of equal values are exactly
//! those); the scores then come from the same functions. `tests.rs`
//! compares the two ways on random multisets.
//!
//! [`group_scores`]: super::group_scores

use super::sorted::{aurc, auroc, calibration_error, curve, width_bin, Bin, Pair, SortedPairs};
use std::ops::Range;

/// The pairs, each with its equal-width bin and its group of equal
/// confidence.
#[derive(Clone, Debug, PartialEq)]
pub struct PairIndex {
    pairs: Vec<Pair>,
    /// Number of equal-width bins (at least 1).
    bins: usize,
    /// Per pair: its bin (SPEC §8.3, [`width_bin`]).
    bin: Vec<u32>,
    /// Per pair: its group, groups numbered by confidence ascending.
    group: Vec<u32>,
    /// Per group: its confidence (the first in `total_cmp` order, as in
    /// [`SortedPairs`]).
    values: Vec<f64>,
}

/// The resampled scores of one multiset, as [`super::GroupScores`] has them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResampledScores {
    pub ece: f64,
    pub brier: f64,
    pub auroc: Option<f64>,
    pub aurc: f64,
}

impl PairIndex {
    /// Indexes `pairs` for `bins` equal-width bins (0 is treated as 1, as
    /// in [`super::group_scores`]). O(n log n).
    pub fn new(pairs: Vec<Pair>, bins: usize) -> PairIndex {
        let bins = bins.max(1);
        let bin = pairs
            .iter()
            .map(|p| width_bin(p.confidence, bins) as u32)
            .collect();
        let mut order: Vec<usize> = (0..pairs.len()).collect();
        order.sort_by(|&i, &j| pairs[i].confidence.total_cmp(&pairs[j].confidence));
        let mut group = vec![0u32; pairs.len()];
        let mut values: Vec<f64> = Vec::new();
        for i in order {
            let c = pairs[i].confidence;
            // `==` as in `SortedPairs::new`: -0.0 and 0.0 are one group.
            if values.last() != Some(&c) {
                values.push(c);
            }
            group[i] = (values.len() - 1) as u32;
        }
        PairIndex {
            pairs,
            bins,
            bin,
            group,
            values,
        }
    }

    /// The pairs, in the order given.
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// ece, brier, auroc and aurc of the multiset of `runs` (see the
    /// module documentation); `None` when it has no pair. O(pairs drawn +
    /// groups).
    pub fn scores(
        &self,
        runs: impl IntoIterator<Item = (Range<usize>, u32)>,
    ) -> Option<ResampledScores> {
        let mut bins = vec![Bin::default(); self.bins];
        let mut count = vec![0u64; self.values.len()];
        let mut ok = vec![0u64; self.values.len()];
        let mut sum_sq = 0.0;
        for (range, w) in runs {
            if w == 0 {
                continue;
            }
            for i in range.clone() {
                let g = self.group[i] as usize;
                count[g] += u64::from(w);
                ok[g] += u64::from(w) * u64::from(self.pairs[i].correct);
            }
            for _ in 0..w {
                for i in range.clone() {
                    let p = self.pairs[i];
                    let y = if p.correct { 1.0 } else { 0.0 };
                    let d = p.confidence - y;
                    sum_sq += d * d;
                    bins[self.bin[i] as usize].add(p);
                }
            }
        }
        let (mut values, mut counts, mut oks) = (Vec::new(), Vec::new(), Vec::new());
        for g in (0..self.values.len()).filter(|&g| count[g] > 0) {
            values.push(self.values[g]);
            counts.push(count[g]);
            oks.push(ok[g]);
        }
        let s = SortedPairs::from_groups(values, counts, oks);
        let n = s.len();
        if n == 0 {
            return None;
        }
        Some(ResampledScores {
            ece: calibration_error(&bins, n).0,
            brier: sum_sq / n as f64,
            auroc: auroc(&s),
            aurc: aurc(&curve(&s)),
        })
    }
}
