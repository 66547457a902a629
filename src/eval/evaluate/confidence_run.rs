//! One model's confidence pairs as the comparison pass absorbs them, and
//! its `confidence` block (SPEC §8.2, §8.4–§8.5).
//!
//! Owns: [`ConfidenceRun`] — every (confidence, correct) pair in document
//! order with its field, the slots, and per document what straight-through
//! processing needs — and `finish`, which hands the pairs to
//! [`crate::eval::confidence`] for every score. May depend on the siblings
//! `doc_out` ([`DocOut`]) and `shard` (its thread pool), `confidence`,
//! `config`, `report`; never on the passes or on how a document was
//! compared.

use super::doc_out::DocOut;
use super::shard;
use crate::eval::confidence::{
    all_field_scores, field_scores_grouped, group_and_field_scores, group_scores_grouped,
    ConfidenceSettings, FieldConfidence, Pair, PairLog, SortedPairs,
};
use crate::eval::config::ConfidenceConfig;
use crate::eval::report::{
    ConfidenceReport, ConfidenceViews, Outcome, StraightThrough, ThresholdSweepPoint,
};
use std::collections::BTreeMap;

/// What a document says about going straight through (SPEC §8.4).
#[derive(Debug, Clone, Copy)]
struct DocumentPairs {
    /// Its pairs end here in [`ConfidenceRun::log`].
    end: usize,
    /// A present predicted value carries no confidence.
    uncovered: bool,
    /// Every outcome is `exact` or `true_negative` (a set's: F1 1, or
    /// both sides empty).
    all_correct: bool,
    /// The smallest confidence of its pairs (infinite without a pair).
    lowest: f64,
}

/// One slot of a document (field `path`, `correct`, its `confidence`):
/// what `doc` says about going straight through, and a pair in `log`
/// when it has a confidence.
#[inline(always)]
fn note(log: &mut PairLog, doc: &mut DocumentPairs, path: u32, correct: bool, c: Option<f64>) {
    doc.all_correct &= correct;
    if let Some(c) = c {
        doc.lowest = doc.lowest.min(c);
        log.push(c, correct, path);
    }
}

/// SPEC §8.2: correct is `exact` or `true_negative` (`partial` is not).
fn correct(outcome: Outcome) -> bool {
    matches!(outcome, Outcome::Exact | Outcome::TrueNegative)
}

/// One model's pairs, absorbed in document order.
#[derive(Debug, Default)]
pub(super) struct ConfidenceRun {
    /// Every pair with its path id, in document order, grouped as it
    /// comes: what the model's scores read as it is (no copy).
    log: PairLog,
    /// SPEC §8.2: one per (document, field): a scalar per document, an
    /// item field per item slot, a set field once per document.
    slots: u64,
    documents: Vec<DocumentPairs>,
    /// The documents the run will absorb (for sizing `pairs` once).
    expected: usize,
}

/// After this many documents a run sizes its pairs for all of them.
const SAMPLE: usize = 32;

impl ConfidenceRun {
    /// A run for `documents` documents.
    pub(super) fn new(documents: usize) -> ConfidenceRun {
        ConfidenceRun {
            documents: Vec::with_capacity(documents),
            expected: documents,
            ..ConfidenceRun::default()
        }
    }

    /// Adds one document's outcomes (`out`, in comparison order).
    pub(super) fn absorb(&mut self, out: &DocOut) {
        // (path, correct, confidence) of every slot, scalars and item
        // fields first, then sets — SPEC §8.2: a set is correct when its
        // F1 is 1 or both sides are empty (no scores). Two plain loops (a
        // chain of the two checks which half it is in at every event).
        let mut doc = DocumentPairs {
            end: 0,
            uncovered: out.uncovered,
            all_correct: true,
            lowest: f64::INFINITY,
        };
        for e in &out.events {
            note(
                &mut self.log,
                &mut doc,
                e.path,
                correct(e.outcome),
                e.confidence,
            );
        }
        for s in &out.sets {
            let ok = s.scores.as_ref().is_none_or(|x| x.f1 == 1.0);
            note(&mut self.log, &mut doc, s.path, ok, s.confidence);
        }
        self.slots += (out.events.len() + out.sets.len()) as u64;
        doc.end = self.log.len();
        self.documents.push(doc);
        if self.documents.len() == SAMPLE {
            self.size_for_all();
        }
    }

    /// Reserves the pairs of every document to come at the first ones'
    /// rate, and a quarter more: growing by doubling copies the pairs
    /// again and touches more memory (10,000 × 3 with a confidence on
    /// every value, one thread: peak memory 120 against 125 MB, 1,650
    /// fewer page faults). Only the memory written is resident, so an
    /// estimate too high costs address space, not memory; one too low
    /// grows as before.
    fn size_for_all(&mut self) {
        let rate = self.log.len().div_ceil(SAMPLE);
        let total = rate
            .saturating_mul(self.expected)
            .saturating_add(rate.saturating_mul(self.expected) / 4);
        self.log.reserve(total.saturating_sub(self.log.len()));
    }

    /// The pairs of the document absorbed last, in the order the model's
    /// block takes them (what its [`DocumentTally`] keeps for the
    /// bootstrap).
    ///
    /// [`DocumentTally`]: crate::eval::report::DocumentTally
    pub(super) fn last_document(&self) -> impl Iterator<Item = Pair> + '_ {
        let n = self.documents.len();
        let start = match n {
            0 | 1 => 0,
            _ => self.documents[n - 2].end,
        };
        let end = self.documents.last().map_or(0, |d| d.end);
        self.log.pairs(start..end).map(|(pair, _)| pair)
    }

    /// The model's `confidence` block (SPEC §8.5); `None` without a pair.
    /// `name` gives a path's per-field-table name.
    pub(super) fn finish<'n>(
        &self,
        config: &ConfidenceConfig,
        name: impl Fn(u32) -> &'n str + Sync,
    ) -> Option<ConfidenceReport> {
        let settings = config.settings();
        // `rank`: each slot's group in `sorted`.
        let (sorted, rank) = self.log.grouped();
        // Few distinct confidences (the usual case): the model's scores and
        // every field's in one pass over the pairs, or in two side by side
        // on a pool of several threads (three models on two threads leave
        // one idle for a third of the time); else each field's pairs
        // gathered and scored on their own.
        let paths = self.log.field_count();
        let named = |all: Vec<Option<FieldConfidence>>| -> BTreeMap<String, FieldConfidence> {
            all.into_iter()
                .enumerate()
                .filter_map(|(path, scores)| Some((name(path as u32).to_string(), scores?)))
                .collect()
        };
        let (g, fields) = if shard::threads() > 1 {
            let (g, fields) = shard::join(
                || {
                    let pairs = self.log.with_groups(&rank).map(|(p, _, g)| (p, g));
                    group_scores_grouped(pairs, &sorted, &settings)
                },
                || all_field_scores(self.log.with_groups(&rank), paths, &sorted, &settings),
            );
            (g?, fields)
        } else {
            group_and_field_scores(self.log.with_groups(&rank), paths, &sorted, &settings)?
        };
        let fields = match fields {
            Some(all) => named(all),
            None => self.field_scores(&sorted, &rank, &settings, &name),
        };
        Some(ConfidenceReport {
            pairs: g.pairs,
            with_confidence: g.pairs as f64 / self.slots as f64,
            accuracy: g.accuracy,
            mean_confidence: g.mean_confidence,
            brier: g.brier,
            ece: g.ece,
            ece_equal_mass: g.ece_equal_mass,
            mce: g.mce,
            auroc: g.auroc,
            aurc: g.aurc,
            bins: g.bins,
            thresholds: g.thresholds,
            coverage_at_accuracy: g.coverage_at_accuracy,
            error_capture: g.error_capture,
            straight_through: self.straight_through(config, &name),
            fields,
            views: Some(self.views(&sorted)),
        })
    }

    /// Each field's scores (SPEC §8.5 `fields`), by its per-field-table
    /// name, when there are too many distinct confidences for
    /// [`group_and_field_scores`]' table: each field's pairs and their
    /// groups among all pairs (`sorted`; `rank`, each slot's group), in
    /// document order — a counting sort by path id (ids are dense), so
    /// field `path`'s are `at[path]..at[path + 1]` of `field_pairs` —
    /// scored on their own, side by side on a pool of several threads.
    fn field_scores<'n>(
        &self,
        sorted: &SortedPairs,
        rank: &[u32],
        settings: &ConfidenceSettings,
        name: &(impl Fn(u32) -> &'n str + Sync),
    ) -> BTreeMap<String, FieldConfidence> {
        let paths = self.log.field_count();
        let mut at = vec![0usize; paths + 1];
        for (_, p) in self.log.pairs(0..self.log.len()) {
            at[p as usize + 1] += 1;
        }
        for i in 1..=paths {
            at[i] += at[i - 1];
        }
        let mut next = at.clone();
        let unset = Pair {
            confidence: 0.0,
            correct: false,
        };
        let mut field_pairs = vec![unset; self.log.len()];
        let mut field_groups = vec![0u32; self.log.len()];
        for (p, path, g) in self.log.with_groups(rank) {
            let slot = &mut next[path as usize];
            field_pairs[*slot] = p;
            field_groups[*slot] = g;
            *slot += 1;
        }
        let score = |path: usize, scratch: &mut Vec<u32>| {
            let range = at[path]..at[path + 1];
            let (pairs, in_groups) = (&field_pairs[range.clone()], &field_groups[range]);
            let (s, groups) = sorted.subset(pairs, in_groups, scratch);
            let scores = field_scores_grouped(pairs, &s, &groups, settings)?;
            Some((name(path as u32).to_string(), scores))
        };
        let used = (0..paths).filter(|&path| at[path] < at[path + 1]);
        if shard::threads() > 1 {
            let used: Vec<usize> = used.collect();
            return shard::on_pool(used, |path| score(path, &mut Vec::new()))
                .into_iter()
                .flatten()
                .collect();
        }
        let mut scratch = Vec::new();
        used.filter_map(|path| score(path, &mut scratch)).collect()
    }

    /// The curve (thinned to [`ConfidenceViews::CURVE_POINTS`]) and the
    /// approval at τ = k/100: values by [`SortedPairs::accepted_at`];
    /// documents by the smallest confidence of each document that could go
    /// through (a pair, nothing uncovered).
    fn views(&self, sorted: &SortedPairs) -> ConfidenceViews {
        let full = sorted.curve();
        let keep = ConfidenceViews::CURVE_POINTS;
        let curve = if full.len() <= keep {
            full
        } else {
            let last = full.len() - 1;
            let mut picked: Vec<usize> = (0..keep).map(|i| i * last / (keep - 1)).collect();
            picked.dedup();
            picked.into_iter().map(|i| full[i].clone()).collect()
        };
        // (smallest confidence, all correct) of each document that could
        // go, ascending, so that the documents at τ are a suffix.
        let mut lowest: Vec<(f64, bool)> = Vec::new();
        let mut start = 0;
        for d in &self.documents {
            let has_pairs = d.end > start;
            start = d.end;
            if has_pairs && !d.uncovered {
                lowest.push((d.lowest, d.all_correct));
            }
        }
        lowest.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        // right_from[i]: the right documents among lowest[i..].
        let mut right_from = vec![0u64; lowest.len() + 1];
        for i in (0..lowest.len()).rev() {
            right_from[i] = right_from[i + 1] + u64::from(lowest[i].1);
        }
        let sweep = (0..=100)
            .map(|k| {
                let threshold = k as f64 / 100.0;
                let (accepted, correct) = sorted.accepted_at(threshold);
                let first = lowest.partition_point(|&(low, _)| low < threshold);
                ThresholdSweepPoint {
                    threshold,
                    accepted,
                    correct,
                    documents: (lowest.len() - first) as u64,
                    documents_right: right_from[first],
                }
            })
            .collect();
        ConfidenceViews { curve, sweep }
    }

    /// SPEC §8.4: a document goes straight through when it has a pair,
    /// every present predicted value carries a confidence, and every
    /// confidence is at least its field's threshold
    /// (`confidence.field_thresholds`, else `confidence.straight_through`);
    /// `accuracy` is the share of those whose every outcome is correct.
    fn straight_through<'n>(
        &self,
        config: &ConfidenceConfig,
        name: &impl Fn(u32) -> &'n str,
    ) -> StraightThrough {
        let (mut through, mut right) = (0u64, 0u64);
        // Each path's threshold, looked up by name once (path ids are
        // dense: a vector, not a map, read once per pair).
        let mut thresholds: Vec<Option<f64>> = vec![None; self.log.field_count()];
        let mut threshold_of = |path: u32| {
            *thresholds[path as usize].get_or_insert_with(|| config.threshold_of(name(path)))
        };
        let mut start = 0;
        for d in &self.documents {
            let mut pairs = self.log.pairs(start..d.end);
            start = d.end;
            let goes = pairs.len() > 0
                && !d.uncovered
                && pairs.all(|(p, path)| p.confidence >= threshold_of(path));
            if goes {
                through += 1;
                right += u64::from(d.all_correct);
            }
        }
        let documents = self.documents.len() as u64;
        StraightThrough {
            threshold: config.straight_through,
            documents: through,
            rate: if documents == 0 {
                0.0
            } else {
                through as f64 / documents as f64
            },
            accuracy: (through > 0).then(|| right as f64 / through as f64),
        }
    }
}
