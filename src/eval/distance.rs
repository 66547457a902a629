//! Edit distance, similarity and character error rate (SPEC §2.2).
//!
//! Owns: Levenshtein distance over Unicode scalar values, `similarity` and
//! per-value CER as *counts* (edits, reference length), so that a field's
//! or a model's CER is pooled from counts, never averaged from ratios.
//! Pure; depends on `strsim` only.
//!
//! The distance is defined by `strsim::levenshtein`. [`levenshtein`]
//! computes the same number faster: it drops the common prefix and suffix
//! (which never changes a Levenshtein distance) and, when the shorter rest
//! has at most 64 characters, runs the bit-parallel algorithm of Myers
//! (1999) in Hyyrö's formulation for the global distance (2003), one
//! machine word per text character. Longer strings never take quadratic
//! time in the common case and at most 1/64 of it otherwise: first the
//! diagonal-transition algorithm (Ukkonen 1985; Landau & Vishkin 1989),
//! which costs about (length × distance) and so answers at once for long
//! strings that differ in a few places, is tried up to a distance of
//! length/64 + 16; beyond that the block-based bit-parallel algorithm
//! (Myers 1999, Hyyrö 2003) processes the pattern 64 characters per
//! machine word, (length × length / 64). Property tests compare every path
//! with `strsim` on random Unicode strings, short and long.

/// Levenshtein distance between two strings, counted in Unicode scalar
/// values (`char`s): insertions, deletions and substitutions cost 1.
/// Equal to `strsim::levenshtein(a, b)` (see the module docs).
pub fn levenshtein(a: &str, b: &str) -> usize {
    if a == b {
        return 0;
    }
    let (a, b) = trim_common(a, b);
    if a.is_empty() || b.is_empty() {
        return a.chars().count() + b.chars().count();
    }
    let (la, lb) = (a.chars().count(), b.chars().count());
    let (pattern, pattern_len, text) = if la <= lb { (a, la, b) } else { (b, lb, a) };
    if pattern_len <= 64 {
        return bit_parallel(pattern, pattern_len, text);
    }
    let (pattern, text): (Vec<char>, Vec<char>) =
        (pattern.chars().collect(), text.chars().collect());
    diagonal_transition(&pattern, &text, pattern.len() / 64 + 16)
        .unwrap_or_else(|| bit_parallel_blocks(&pattern, &text))
}

/// The Levenshtein distance of `a` and `b` if it is at most `max_edits`,
/// by diagonal transition: for e = 0, 1, 2, … the furthest row reached on
/// every diagonal `d = j − i` with `e` edits, extended along the diagonal
/// while the characters agree. Time O((len a + len b) · distance).
fn diagonal_transition(a: &[char], b: &[char], max_edits: usize) -> Option<usize> {
    const UNREACHED: isize = -1;
    let (m, n) = (a.len() as isize, b.len() as isize);
    let slide = |mut i: isize, d: isize| {
        while i < m && i + d < n && a[i as usize] == b[(i + d) as usize] {
            i += 1;
        }
        i
    };
    // The furthest row of each diagonal −m..=n (stored at d + m).
    let at = |rows: &[isize], d: isize| {
        if d < -m || d > n {
            UNREACHED
        } else {
            rows[(d + m) as usize]
        }
    };
    let target = n - m;
    let mut rows = vec![UNREACHED; (m + n + 1) as usize];
    rows[m as usize] = slide(0, 0);
    if at(&rows, target) >= m {
        return Some(0);
    }
    let mut previous = rows.clone();
    for e in 1..=max_edits as isize {
        previous.copy_from_slice(&rows);
        for d in (-e).max(-m)..=e.min(n) {
            // With one more edit: a substitution stays on the diagonal, a
            // deletion from `a` comes from d + 1, an insertion from d − 1.
            let (same, from_above, from_left) =
                (at(&previous, d), at(&previous, d + 1), at(&previous, d - 1));
            let mut i = UNREACHED;
            if same != UNREACHED {
                i = i.max(same + 1);
            }
            if from_above != UNREACHED {
                i = i.max(from_above + 1);
            }
            if from_left != UNREACHED {
                i = i.max(from_left);
            }
            if i == UNREACHED {
                continue;
            }
            let i = i.min(m).min(n - d);
            rows[(d + m) as usize] = slide(i, d);
        }
        if at(&rows, target) >= m {
            return Some(e as usize);
        }
    }
    None
}

/// Global Levenshtein distance for a pattern of any length: the bit-parallel
/// algorithm of [`bit_parallel`] with the pattern cut into blocks of 64
/// characters, each text character updating the blocks top to bottom and
/// passing the horizontal difference (+1, 0, −1) at a block's last row to
/// the next block (Hyyrö 2003, after Myers 1999). Time
/// O(len text · ⌈len pattern / 64⌉).
fn bit_parallel_blocks(pattern: &[char], text: &[char]) -> usize {
    let blocks = pattern.len().div_ceil(64);
    let mut ascii = vec![0u64; blocks * 128];
    let mut other: Vec<(char, Vec<u64>)> = Vec::new();
    for (i, &c) in pattern.iter().enumerate() {
        let (block, bit) = (i / 64, 1u64 << (i % 64));
        if c.is_ascii() {
            ascii[c as usize * blocks + block] |= bit;
        } else if let Some((_, bits)) = other.iter_mut().find(|(o, _)| *o == c) {
            bits[block] |= bit;
        } else {
            let mut bits = vec![0u64; blocks];
            bits[block] |= bit;
            other.push((c, bits));
        }
    }
    other.sort_by_key(|(c, _)| *c);
    let no_match = vec![0u64; blocks];
    let mut pv = vec![u64::MAX; blocks];
    let mut mv = vec![0u64; blocks];
    let last_bit = 1u64 << ((pattern.len() - 1) % 64);
    let mut score = pattern.len();
    for &c in text {
        let eqs: &[u64] = if c.is_ascii() {
            &ascii[c as usize * blocks..(c as usize + 1) * blocks]
        } else {
            other
                .binary_search_by_key(&c, |(o, _)| *o)
                .map_or(&no_match[..], |k| &other[k].1[..])
        };
        // The first row grows by one per text character: +1 into block 0.
        let mut h_in: i8 = 1;
        for b in 0..blocks {
            let high = if b + 1 == blocks {
                last_bit
            } else {
                1u64 << 63
            };
            let (p, m) = (pv[b], mv[b]);
            let mut eq = eqs[b];
            let xv = eq | m;
            if h_in < 0 {
                eq |= 1;
            }
            let xh = ((eq & p).wrapping_add(p) ^ p) | eq;
            let mut ph = m | !(xh | p);
            let mut mh = p & xh;
            let h_out: i8 = if ph & high != 0 {
                1
            } else if mh & high != 0 {
                -1
            } else {
                0
            };
            ph <<= 1;
            mh <<= 1;
            if h_in < 0 {
                mh |= 1;
            } else if h_in > 0 {
                ph |= 1;
            }
            pv[b] = mh | !(xv | ph);
            mv[b] = ph & xv;
            h_in = h_out;
        }
        score = (score as isize + h_in as isize) as usize;
    }
    score
}

/// `a` and `b` without their common prefix and common suffix (cut at
/// character boundaries).
fn trim_common<'s>(a: &'s str, b: &'s str) -> (&'s str, &'s str) {
    let prefix = common_prefix_len(a.as_bytes(), b.as_bytes());
    // Equal bytes up to `prefix`, so a boundary of `a` is one of `b`.
    let prefix = (0..=prefix)
        .rev()
        .find(|&i| a.is_char_boundary(i))
        .unwrap_or(0);
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a
        .bytes()
        .rev()
        .zip(b.bytes().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let suffix = (0..=suffix)
        .rev()
        .find(|&n| a.is_char_boundary(a.len() - n))
        .unwrap_or(0);
    (&a[..a.len() - suffix], &b[..b.len() - suffix])
}

fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    // Eight bytes at a time, then byte by byte.
    let whole = a
        .chunks_exact(8)
        .zip(b.chunks_exact(8))
        .take_while(|(x, y)| x == y)
        .count()
        * 8;
    whole
        + a[whole..]
            .iter()
            .zip(&b[whole..])
            .take_while(|(x, y)| x == y)
            .count()
}

/// Which positions of the pattern hold a character: a table for ASCII and
/// a short list for the rest.
struct PatternBits {
    ascii: [u64; 128],
    other: Vec<(char, u64)>,
}

impl PatternBits {
    fn new(pattern: &str) -> Self {
        let mut bits = PatternBits {
            ascii: [0; 128],
            other: Vec::new(),
        };
        for (i, c) in pattern.chars().enumerate() {
            let bit = 1u64 << i;
            if c.is_ascii() {
                bits.ascii[c as usize] |= bit;
            } else if let Some(entry) = bits.other.iter_mut().find(|(o, _)| *o == c) {
                entry.1 |= bit;
            } else {
                bits.other.push((c, bit));
            }
        }
        bits
    }

    fn get(&self, c: char) -> u64 {
        if c.is_ascii() {
            self.ascii[c as usize]
        } else {
            self.other
                .iter()
                .find(|(o, _)| *o == c)
                .map_or(0, |(_, bits)| *bits)
        }
    }
}

/// Global Levenshtein distance with one bit per pattern character
/// (`1 ≤ pattern_len ≤ 64`): the vertical differences of one column of the
/// dynamic-programming matrix are kept as the bit vectors `pv` (+1) and `mv`
/// (−1), and each text character updates the whole column at once. `score`
/// follows the last row, which starts at `pattern_len`.
fn bit_parallel(pattern: &str, pattern_len: usize, text: &str) -> usize {
    let bits = PatternBits::new(pattern);
    let last = 1u64 << (pattern_len - 1);
    let mut pv = u64::MAX;
    let mut mv = 0u64;
    let mut score = pattern_len;
    for c in text.chars() {
        let eq = bits.get(c);
        let xv = eq | mv;
        let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
        let mut ph = mv | !(xh | pv);
        let mut mh = pv & xh;
        if ph & last != 0 {
            score += 1;
        } else if mh & last != 0 {
            score -= 1;
        }
        // The first row of the matrix grows by one per text character.
        ph = (ph << 1) | 1;
        mh <<= 1;
        pv = mh | !(xv | ph);
        mv = ph & xv;
    }
    score
}

/// `similarity(t, p) = 1 − Levenshtein(t, p) / max(len t, len p)` over the
/// (already normalised) strings; 1 when both are empty (SPEC §2.2).
///
/// ```
/// use fieldscope::eval::distance::similarity;
/// assert_eq!(similarity("abcd", "abcf"), 0.75);
/// assert_eq!(similarity("", ""), 1.0);
/// assert_eq!(similarity("ab", ""), 0.0);
/// ```
pub fn similarity(t: &str, p: &str) -> f64 {
    let longest = t.chars().count().max(p.chars().count());
    if longest == 0 {
        return 1.0;
    }
    1.0 - levenshtein(t, p) as f64 / longest as f64
}

/// The CER of one truth value as counts: `edits` = Levenshtein(t, p) and
/// `len` = len t (SPEC §2.2). The pooled CER of a group is Σ edits / Σ len.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CerCount {
    pub edits: usize,
    pub len: usize,
}

impl CerCount {
    /// CER of a present truth `t` against a present prediction `p`, both
    /// normalised.
    pub fn of(t: &str, p: &str) -> CerCount {
        CerCount {
            edits: levenshtein(t, p),
            len: t.chars().count(),
        }
    }

    /// CER of a present truth `t` (normalised) against an absent
    /// prediction: every character is an edit, CER = 1.
    pub fn absent_prediction(t: &str) -> CerCount {
        let len = t.chars().count();
        CerCount { edits: len, len }
    }

    /// `cer(t, p) = edits / len t`; it may exceed 1. A truth that
    /// normalises to the empty string has CER 0 against an empty prediction
    /// and 1 otherwise (SPEC §2.2). `prediction_absent` gives CER 1.
    pub fn rate(self, prediction_absent: bool) -> f64 {
        if prediction_absent {
            1.0
        } else if self.len == 0 {
            if self.edits == 0 {
                0.0
            } else {
                1.0
            }
        } else {
            self.edits as f64 / self.len as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Characters that often repeat, across every UTF-8 length (1 to 4
    /// bytes: ASCII, Latin-1, the rest of the BMP, beyond the BMP, with
    /// shared leading or trailing bytes), and any character at all.
    fn character() -> impl Strategy<Value = char> {
        prop_oneof![
            4 => proptest::char::range('a', 'd'),
            1 => Just(' '),
            2 => prop_oneof![Just('é'), Just('ê'), Just('ß'), Just('\u{A2}'), Just('\u{162}')],
            1 => proptest::char::range('\u{3041}', '\u{3043}'),
            2 => proptest::char::range('\u{1D538}', '\u{1D53A}'),
            1 => any::<char>(),
        ]
    }

    fn text(max: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(character(), 0..max).prop_map(|v| v.into_iter().collect())
    }

    /// `a` with each edit applied: 0 inserts `c` at the index, 1 deletes
    /// there, anything else substitutes `c` (or appends it to nothing).
    fn apply_edits(a: &str, edits: Vec<(prop::sample::Index, u8, char)>) -> String {
        let mut b: Vec<char> = a.chars().collect();
        for (at, op, c) in edits {
            let i = if b.is_empty() { 0 } else { at.index(b.len()) };
            match op {
                0 => b.insert(i, c),
                1 if !b.is_empty() => {
                    b.remove(i);
                }
                _ if !b.is_empty() => b[i] = c,
                _ => b.push(c),
            }
        }
        b.into_iter().collect()
    }

    /// Every path of [`levenshtein`] beyond one machine word, against
    /// `strsim`: the diagonal transition alone (with room for any distance)
    /// and the block-based bit-parallel algorithm alone.
    fn long_paths_agree(a: &str, b: &str) {
        let expected = strsim::levenshtein(a, b);
        let (ac, bc): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let (pattern, text) = if ac.len() <= bc.len() {
            (&ac, &bc)
        } else {
            (&bc, &ac)
        };
        assert_eq!(levenshtein(a, b), expected, "{a:?} {b:?}");
        assert_eq!(
            diagonal_transition(&ac, &bc, ac.len() + bc.len()),
            Some(expected),
            "diagonal transition: {a:?} {b:?}"
        );
        if expected > 0 {
            assert_eq!(diagonal_transition(&ac, &bc, expected - 1), None);
        }
        if !pattern.is_empty() {
            assert_eq!(
                bit_parallel_blocks(pattern, text),
                expected,
                "blocks: {a:?} {b:?}"
            );
        }
    }

    #[test]
    fn long_strings_take_linear_time_when_they_differ_little() {
        // One million characters each, two edits apart: answered by the
        // diagonal transition at once (strsim would take minutes).
        let a = "ab".repeat(500_000);
        let b = "ba".repeat(500_000);
        assert_eq!(levenshtein(&a, &b), 2);
        let c = format!("{}x{}", "é".repeat(300_000), "🦀".repeat(300_000));
        let d = format!("{}y{}", "é".repeat(300_000), "🦀".repeat(299_999));
        assert_eq!(levenshtein(&c, &d), 2);
    }

    #[test]
    fn block_boundaries() {
        for len in [63, 64, 65, 127, 128, 129, 200] {
            let a: String = (0..len).map(|i| char::from(b'a' + (i % 7) as u8)).collect();
            let b: String = (0..len + 3)
                .map(|i| char::from(b'a' + (i % 5) as u8))
                .collect();
            long_paths_agree(&a, &b);
            long_paths_agree(&a, &a.replacen('c', "Ω", 3));
            long_paths_agree(&a, "");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn long_paths_equal_strsim(a in text(300), b in text(300)) {
            long_paths_agree(&a, &b);
        }

        #[test]
        fn long_paths_equal_strsim_on_near_copies(
            a in text(400),
            edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, character()), 0..12),
        ) {
            let b = apply_edits(&a, edits);
            long_paths_agree(&a, &b);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        #[test]
        fn levenshtein_equals_strsim(a in text(80), b in text(80)) {
            prop_assert_eq!(levenshtein(&a, &b), strsim::levenshtein(&a, &b));
        }

        #[test]
        fn levenshtein_equals_strsim_on_near_copies(
            a in text(100),
            edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, character()), 0..6),
        ) {
            let b = apply_edits(&a, edits);
            prop_assert_eq!(levenshtein(&a, &b), strsim::levenshtein(&a, &b));
        }
    }

    #[test]
    fn levenshtein_counts_unicode_scalars() {
        assert_eq!(levenshtein("abc", "abc"), 0);
        assert_eq!(levenshtein("flaw", "lawn"), 2);
        assert_eq!(levenshtein("a", "b"), 1);
        assert_eq!(levenshtein("ab", "ba"), 2);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("é", "e"), 1);
        assert_eq!(levenshtein("𝔸𝔹", "𝔸"), 1);
        assert_eq!(levenshtein("日本語", "日本"), 1);
    }

    #[test]
    fn levenshtein_trims_at_character_boundaries() {
        // "é" (C3 A9) and "ê" (C3 AA) share their first byte, "ä" and "ö"
        // (C3 A4, C3 B6) too: the common prefix must not split them.
        assert_eq!(levenshtein("é", "ê"), 1);
        assert_eq!(levenshtein("xé", "xê"), 1);
        assert_eq!(levenshtein("äx", "öx"), 1);
        // "¢" (C2 A2) and "¢" after "Ţ" (C5 A2): a shared last byte only.
        assert_eq!(levenshtein("a\u{A2}", "a\u{162}"), 1);
    }

    #[test]
    fn levenshtein_beyond_one_machine_word() {
        let a = "abcdefghij".repeat(8);
        let b = format!("x{}", &a[1..]);
        assert_eq!(levenshtein(&a, &b), 1);
        assert_eq!(
            levenshtein(&a, &"z".repeat(65)),
            strsim::levenshtein(&a, &"z".repeat(65))
        );
        let c = "é".repeat(64);
        assert_eq!(levenshtein(&c, &"e".repeat(64)), 64);
        assert_eq!(levenshtein(&"é".repeat(65), &"e".repeat(70)), 70);
    }

    #[test]
    fn similarity_edges() {
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("a", ""), 0.0);
        assert_eq!(similarity("", "a"), 0.0);
        assert_eq!(similarity("abc", "abc"), 1.0);
        assert_eq!(similarity("𝔸bc", "abc"), 1.0 - 1.0 / 3.0);
    }

    #[test]
    fn cer_spec_example_4() {
        // SPEC §6 example 4, normalised (lowercased) strings.
        let c = CerCount::of("invoice 1234", "invoice 1243");
        assert_eq!((c.edits, c.len), (2, 12));
        assert_eq!(c.rate(false), 2.0 / 12.0);
        let c = CerCount::of("invoice 1234", "invoice 124");
        assert_eq!(c.rate(false), 1.0 / 12.0);
    }

    #[test]
    fn cer_edges() {
        assert_eq!(CerCount::of("ab", "abcdef").rate(false), 2.0);
        assert_eq!(CerCount::absent_prediction("abc").rate(true), 1.0);
        assert_eq!(CerCount::of("", "").rate(false), 0.0);
        assert_eq!(CerCount::of("", "x").rate(false), 1.0);
    }
}
