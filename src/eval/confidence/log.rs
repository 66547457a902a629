//! Pairs kept in input order in 4 bytes each (8 past 65,536 distinct
//! confidences or 32,768 fields): [`PairLog`].
//!
//! Owns: the log (each pair as its confidence's slot and its field id with
//! the correct bit), the slots (each distinct confidence once, by its bits,
//! with its pairs and correct pairs counted as they come) and the sorted
//! index made from the slots alone, and with them
//! [`SortedPairs::grouped`] of a slice of pairs (here, so that `sorted`
//! does not import this module). Depends on the sibling `sorted`'s types,
//! `eval::thousandths` and `rustc-hash` only.

use super::sorted::{Pair, SortedPairs};
use crate::eval::thousandths::THOUSANDTHS;

/// Every pair of a run in input order, with its field, as a [`Pair`] slice
/// would hold them but in 4 bytes a pair (8 past 65,536 distinct
/// confidences or 32,768 fields, [`Packed`]) instead of 20 (a confidence,
/// a flag and a field id): a run with a confidence on every value writes
/// and reads a sixth of the memory (10,000 documents × 3 models: 5.6 MB
/// against 34 MB with the groups) and groups its confidences as they come
/// rather than in a pass of its own.
///
/// A confidence is kept by its bits, so −0.0 and 0.0 are two slots and
/// every pair reads back exactly as pushed; [`Self::grouped`] joins them
/// as [`SortedPairs::grouped`] does.
#[derive(Debug, Default)]
pub struct PairLog {
    /// Per pair: the slot of its confidence, and its field id shifted
    /// left once with the low bit set when it is correct (one vector: one
    /// stream written, one capacity checked).
    pairs: Packed,
    /// Per slot: the confidence, and its pairs and correct pairs (side by
    /// side: one cache line per pair pushed).
    values: Vec<f64>,
    tally: Vec<[u64; 2]>,
    /// Per k in 0..=1000, the slot + 1 of the confidence k/1000 (0: none
    /// yet): the usual confidences (at most three decimals) find their
    /// slot in 4 KiB, which stays in cache while documents are compared,
    /// where the front table's 64 KiB does not (half of `push`'s time,
    /// 10,000 × 3 at one job, was that table's cache misses).
    thousandths: Vec<u32>,
    /// A direct-mapped table of recent confidences in front of `slot_of`
    /// (a multiply and a compare per pair where the map hashes, probes and
    /// compares): (bits, slot + 1), 0 for an empty entry.
    front: Vec<(u64, u32)>,
    slot_of: rustc_hash::FxHashMap<u64, u32>,
    /// One more than the largest field id pushed.
    fields: usize,
}

/// The pairs of a [`PairLog`]: each its slot and its mark (field id
/// shifted left once, the low bit set when correct), in one `u32` while
/// every slot is below 2^16 and every mark below 2^16 — the usual run
/// (at most 1,001 distinct confidences when they have three decimals,
/// tens of fields) — else in two. Half the bytes written while the
/// comparison runs and read again by the scores: at 10,000 documents × 3
/// models with a confidence on every value, 0.8 % of the run's time.
#[derive(Debug)]
enum Packed {
    /// `slot << 16 | mark`.
    Narrow(Vec<u32>),
    /// `[slot, mark]`.
    Wide(Vec<[u32; 2]>),
}

impl Default for Packed {
    fn default() -> Packed {
        Packed::Narrow(Vec::new())
    }
}

impl Packed {
    #[inline(always)]
    fn push(&mut self, slot: u32, mark: u32) {
        match self {
            Packed::Narrow(v) if slot < 1 << 16 && mark < 1 << 16 => v.push(slot << 16 | mark),
            Packed::Narrow(_) => self.widen_and_push(slot, mark),
            Packed::Wide(v) => v.push([slot, mark]),
        }
    }

    /// The first pair that does not fit in 32 bits: every pair so far
    /// moves to two words (once per log).
    #[cold]
    #[inline(never)]
    fn widen_and_push(&mut self, slot: u32, mark: u32) {
        if let Packed::Narrow(v) = self {
            let mut wide = Vec::with_capacity(v.capacity().max(v.len() + 1));
            wide.extend(v.iter().map(|&w| [w >> 16, w & 0xFFFF]));
            *self = Packed::Wide(wide);
        }
        if let Packed::Wide(v) = self {
            v.push([slot, mark]);
        }
    }

    /// Pair `i`'s slot and mark.
    #[inline(always)]
    fn get(&self, i: usize) -> (u32, u32) {
        match self {
            Packed::Narrow(v) => (v[i] >> 16, v[i] & 0xFFFF),
            Packed::Wide(v) => (v[i][0], v[i][1]),
        }
    }

    fn len(&self) -> usize {
        match self {
            Packed::Narrow(v) => v.len(),
            Packed::Wide(v) => v.len(),
        }
    }

    fn reserve(&mut self, additional: usize) {
        match self {
            Packed::Narrow(v) => v.reserve(additional),
            Packed::Wide(v) => v.reserve(additional),
        }
    }
}

/// The pair a mark (field id shifted left once, the low bit set when
/// correct) of a slot whose value is `confidence` stands for, and its field.
#[inline(always)]
fn unmark(confidence: f64, mark: u32) -> (Pair, u32) {
    let pair = Pair {
        confidence,
        correct: mark & 1 == 1,
    };
    (pair, mark >> 1)
}

/// Entries of [`PairLog::front`] at most: 4,096 (64 KiB, made at the
/// first pair unless [`PairLog::for_pairs`] made a smaller one).
const FRONT_BITS: u32 = 12;

impl PairLog {
    /// A log for about `n` pairs: room for them, and a front table of at
    /// most as many entries (16 to 4,096), so that a short log does not
    /// clear 64 KiB.
    pub fn for_pairs(n: usize) -> PairLog {
        let bits = (usize::BITS - n.leading_zeros()).clamp(4, FRONT_BITS);
        let mut log = PairLog {
            front: vec![(0, 0); 1 << bits],
            ..PairLog::default()
        };
        log.reserve(n);
        log
    }

    /// Appends one pair of field `field` (an id below 2³¹).
    #[inline(always)]
    pub fn push(&mut self, confidence: f64, correct: bool, field: u32) {
        debug_assert!(field < 1 << 31, "field ids fit in 31 bits");
        let slot = self.slot(confidence);
        let tally = &mut self.tally[slot as usize];
        tally[0] += 1;
        tally[1] += u64::from(correct);
        self.pairs.push(slot, field << 1 | u32::from(correct));
        self.fields = self.fields.max(field as usize + 1);
    }

    /// The slot of `confidence`, made when it is new: by
    /// [`Self::thousandths`] when it is k/1000 to the bit, else by
    /// [`Self::front`] and the map.
    #[inline(always)]
    fn slot(&mut self, confidence: f64) -> u32 {
        // k = ⌊1000·c + ½⌋ (saturating: NaN and negatives give 0), then
        // k/1000 (correctly rounded, from a table: a division here was a
        // fifth of `absorb`'s time) must be c's very bits.
        let k = (confidence * 1000.0 + 0.5) as u32;
        if THOUSANDTHS
            .get(k as usize)
            .is_some_and(|t| t.to_bits() == confidence.to_bits())
        {
            return match self.thousandths.get(k as usize) {
                Some(&s) if s != 0 => s - 1,
                _ => self.new_thousandth(k, confidence),
            };
        }
        self.hashed_slot(confidence)
    }

    /// The slot of `confidence` = k/1000 the first time it is seen (out
    /// of [`Self::push`]'s line: once per distinct confidence).
    #[cold]
    #[inline(never)]
    fn new_thousandth(&mut self, k: u32, confidence: f64) -> u32 {
        if self.thousandths.is_empty() {
            self.thousandths = vec![0; 1001];
        }
        let slot = self.hashed_slot(confidence);
        self.thousandths[k as usize] = slot + 1;
        slot
    }

    /// The slot of `confidence` by the front table and the map.
    #[inline(never)]
    fn hashed_slot(&mut self, confidence: f64) -> u32 {
        let key = confidence.to_bits();
        if self.front.is_empty() {
            self.front = vec![(0, 0); 1 << FRONT_BITS];
        }
        let bits = self.front.len().trailing_zeros();
        let at = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
        match self.front[at] {
            (k, s) if s != 0 && k == key => s - 1,
            _ => {
                let next = self.values.len() as u32;
                let slot = *self.slot_of.entry(key).or_insert(next);
                if slot == next {
                    self.values.push(confidence);
                    self.tally.push([0, 0]);
                }
                self.front[at] = (key, slot + 1);
                slot
            }
        }
    }

    /// Makes room for `additional` more pairs.
    pub fn reserve(&mut self, additional: usize) {
        self.pairs.reserve(additional);
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.len() == 0
    }

    /// One more than the largest field id (0 without pairs): the length
    /// of a vector indexed by field id.
    pub fn field_count(&self) -> usize {
        self.fields
    }

    /// Pair `i`, its field and its confidence's slot.
    #[inline(always)]
    fn get(&self, i: usize) -> (Pair, u32, u32) {
        let (slot, mark) = self.pairs.get(i);
        let (pair, field) = unmark(self.values[slot as usize], mark);
        (pair, field, slot)
    }

    /// The pairs `range` (in input order) with their fields.
    pub fn pairs(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl ExactSizeIterator<Item = (Pair, u32)> + '_ {
        range.map(|i| {
            let (pair, field, _) = self.get(i);
            (pair, field)
        })
    }

    /// Every pair in input order with its field and its group in the
    /// sorted index `rank` belongs to (`rank` from [`Self::grouped`]).
    pub fn with_groups<'a>(
        &'a self,
        rank: &'a [u32],
    ) -> impl ExactSizeIterator<Item = (Pair, u32, u32)> + Clone + 'a {
        // Each slot's confidence and group side by side: one lookup a pair.
        let of_slot: Vec<(f64, u32)> = self
            .values
            .iter()
            .copied()
            .zip(rank.iter().copied())
            .collect();
        (0..self.pairs.len()).map(move |i| {
            let (slot, mark) = self.pairs.get(i);
            let (confidence, group) = of_slot[slot as usize];
            let (pair, field) = unmark(confidence, mark);
            (pair, field, group)
        })
    }

    /// The sorted index of the pairs, equal to [`SortedPairs::grouped`]
    /// of them, and for each slot the index of its group: made from the
    /// slots' counts alone (the G distinct confidences sorted, O(G log G)),
    /// without a pass over the pairs. 0.0 and −0.0 are one group whose
    /// value is −0.0 when a pair has it (the smaller under `total_cmp`).
    pub fn grouped(&self) -> (SortedPairs, Vec<u32>) {
        let mut order: Vec<u32> = (0..self.values.len() as u32).collect();
        order
            .sort_unstable_by(|&a, &b| self.values[a as usize].total_cmp(&self.values[b as usize]));
        let (mut values, mut count, mut ok) = (Vec::new(), Vec::new(), Vec::new());
        let mut rank = vec![0u32; order.len()];
        for &slot in &order {
            let (v, s) = (self.values[slot as usize], slot as usize);
            // Sorted by `total_cmp`, so −0.0 comes right before 0.0: the
            // only two slots that are `==` without the same bits.
            if values.last() != Some(&v) {
                values.push(v);
                count.push(0);
                ok.push(0);
            }
            let g = values.len() - 1;
            count[g] += self.tally[s][0];
            ok[g] += self.tally[s][1];
            rank[s] = g as u32;
        }
        (SortedPairs::from_groups(values, count, ok), rank)
    }
}

impl SortedPairs {
    /// The sorted index of `pairs` and, for each pair in input order, the
    /// index of its group in [`SortedPairs::values`]: the pairs put in a
    /// [`PairLog`], which groups them by hashing their confidence (0.0 and
    /// −0.0 one group, whose value is the smaller under `total_cmp`, as a
    /// sort would put first) and sorts only the G distinct values: O(n + G
    /// log G) expected, never more than a sort's O(n log n). A group keeps
    /// only its counts, so no order inside a tie can matter.
    pub fn grouped(pairs: &[Pair]) -> (SortedPairs, Vec<u32>) {
        let mut log = PairLog::for_pairs(pairs.len());
        for p in pairs {
            log.push(p.confidence, p.correct, 0);
        }
        let (sorted, rank) = log.grouped();
        let groups = log.with_groups(&rank).map(|(_, _, g)| g).collect();
        (sorted, groups)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(confidence: f64, correct: bool) -> Pair {
        Pair {
            confidence,
            correct,
        }
    }

    /// The log reads back what was pushed, bit for bit, and groups as
    /// `SortedPairs::grouped` of the same pairs: ties, both zeros (one
    /// group, valued −0.0), a value seen again after others.
    #[test]
    fn reads_back_and_groups_as_the_slice() {
        let pushed = [
            (pair(0.9, true), 3),
            (pair(0.0, false), 0),
            (pair(0.5, true), 1),
            (pair(-0.0, true), 0),
            (pair(0.9, false), 2),
            (pair(1.0, true), 3),
            (pair(0.5, false), 1),
            (pair(0.0, true), 2),
        ];
        let mut log = PairLog::default();
        for &(p, f) in &pushed {
            log.push(p.confidence, p.correct, f);
        }
        assert_eq!(log.len(), 8);
        assert_eq!(log.field_count(), 4);
        let back: Vec<(Pair, u32)> = log.pairs(0..8).collect();
        for ((p, f), (q, g)) in back.iter().zip(&pushed) {
            assert_eq!(p.confidence.to_bits(), q.confidence.to_bits());
            assert_eq!((p.correct, f), (q.correct, g));
        }
        let pairs: Vec<Pair> = pushed.iter().map(|&(p, _)| p).collect();
        let (expected, expected_groups) = SortedPairs::grouped(&pairs);
        let (sorted, rank) = log.grouped();
        assert_eq!(sorted, expected);
        assert_eq!(sorted.values()[0].to_bits(), (-0.0f64).to_bits());
        // Groups: {−0.0, 0.0} 3 pairs (1 correct), 0.5: 2 (1), 0.9: 2 (1), 1.0: 1 (1).
        assert_eq!(sorted.values(), &[0.0, 0.5, 0.9, 1.0]);
        assert_eq!((sorted.len(), sorted.correct()), (8, 5));
        assert_eq!(sorted.accepted_from(1), (5, 3));
        let groups: Vec<u32> = log.with_groups(&rank).map(|(_, _, g)| g).collect();
        assert_eq!(groups, expected_groups);
        assert_eq!(groups, [2, 0, 1, 0, 2, 3, 1, 0]);
    }

    /// With 0.0 alone, the zero group keeps +0.0; an empty log groups
    /// nothing.
    #[test]
    fn a_positive_zero_alone_and_an_empty_log() {
        let mut log = PairLog::default();
        log.push(0.0, false, 0);
        log.push(0.25, true, 0);
        let (sorted, _) = log.grouped();
        assert_eq!(sorted.values()[0].to_bits(), 0.0f64.to_bits());
        let (empty, rank) = PairLog::default().grouped();
        assert!(empty.is_empty() && rank.is_empty());
        assert!(PairLog::default().is_empty());
    }

    /// Thousandths (k/1000 to the bit) and their neighbours one bit away
    /// keep separate slots and read back exactly: 0.3 against 0.1 + 0.2
    /// (0.30000000000000004), 1.0 against the next float below, and 0.0
    /// against −0.0 (k = 0, but not its bits).
    #[test]
    fn thousandths_and_their_neighbours_are_apart() {
        let below_one = f64::from_bits(1.0f64.to_bits() - 1);
        let values = [0.3, 0.1 + 0.2, 1.0, below_one, 0.0, -0.0, 0.125, 0.3, 1.0];
        let mut log = PairLog::default();
        for (i, &c) in values.iter().enumerate() {
            log.push(c, i % 2 == 0, 0);
        }
        let back: Vec<u64> = log
            .pairs(0..values.len())
            .map(|(p, _)| p.confidence.to_bits())
            .collect();
        let bits: Vec<u64> = values.iter().map(|c| c.to_bits()).collect();
        assert_eq!(back, bits);
        let (sorted, _) = log.grouped();
        // −0.0 and 0.0 join; every other distinct value is its own group.
        assert_eq!(
            sorted.values(),
            &[-0.0, 0.125, 0.3, 0.1 + 0.2, below_one, 1.0]
        );
        // 0.3 twice (pushes 0 and 7: correct, wrong), 1.0 twice (2 and 8:
        // correct, correct).
        assert_eq!(sorted.accepted_from(2), (6, 3));
        assert_eq!(sorted.accepted_from(5), (2, 2));
    }

    /// More distinct confidences than the front table holds (4,096): each
    /// still gets one slot, found again through the map.
    #[test]
    fn many_distinct_confidences_share_nothing() {
        let mut log = PairLog::default();
        for round in 0..2 {
            for i in 0..10_000u32 {
                log.push(f64::from(i) / 10_000.0, round == 0, i % 7);
            }
        }
        let (sorted, _) = log.grouped();
        assert_eq!(sorted.values().len(), 10_000);
        assert_eq!((sorted.len(), sorted.correct()), (20_000, 10_000));
        assert!(sorted.values().windows(2).all(|w| w[0] < w[1]));
        assert_eq!(log.field_count(), 7);
    }

    /// Past 65,536 slots, or a field id of 2^15, every pair moves to two
    /// words: each still reads back as pushed, in order, before and after.
    #[test]
    fn a_log_past_sixteen_bits_reads_back_every_pair() {
        for (slots, big_field) in [(70_000u32, 3u32), (100, 1 << 15), (100, (1 << 31) - 1)] {
            let mut log = PairLog::for_pairs(16);
            let mut pushed = Vec::new();
            for i in 0..slots {
                // Confidences i / slots (distinct), fields 0..5.
                let (c, ok, field) = (f64::from(i) / f64::from(slots), i % 3 == 0, i % 5);
                log.push(c, ok, field);
                pushed.push((c, ok, field));
            }
            // A big field id at the end (the last pair widens when it is
            // the first that needs it).
            log.push(0.5, true, big_field);
            pushed.push((0.5, true, big_field));
            log.push(0.25, false, 1);
            pushed.push((0.25, false, 1));
            assert!(
                matches!(log.pairs, Packed::Wide(_)) == (slots > 1 << 16 || big_field >= 1 << 15)
            );
            assert_eq!(log.len(), pushed.len());
            let read: Vec<(f64, bool, u32)> = log
                .pairs(0..log.len())
                .map(|(p, f)| (p.confidence, p.correct, f))
                .collect();
            assert_eq!(read, pushed);
            let (sorted, rank) = log.grouped();
            let again: Vec<(f64, bool, u32)> = log
                .with_groups(&rank)
                .map(|(p, f, g)| {
                    assert_eq!(sorted.values()[g as usize], p.confidence);
                    (p.confidence, p.correct, f)
                })
                .collect();
            assert_eq!(again, pushed);
            assert_eq!(log.field_count(), (big_field as usize + 1).max(5));
        }
    }

    #[test]
    fn a_short_log_stays_in_one_word_a_pair() {
        let mut log = PairLog::default();
        for i in 0..1_001u32 {
            log.push(f64::from(i) / 1000.0, i % 2 == 0, 40);
        }
        assert!(matches!(log.pairs, Packed::Narrow(_)));
        assert_eq!(
            log.pairs(1000..1001)
                .next()
                .map(|(p, f)| (p.confidence, p.correct, f)),
            Some((1.0, true, 40))
        );
    }
}
