//! Edit distance, similarity and character error rate (SPEC §2.2).
//!
//! Owns: Levenshtein distance over Unicode scalar values (via `strsim`),
//! `similarity` and per-value CER as *counts* (edits, reference length), so
//! that a field's or a model's CER is pooled from counts, never averaged
//! from ratios. Pure; depends on `strsim` only.

/// Levenshtein distance between two strings, counted in Unicode scalar
/// values (`char`s): insertions, deletions and substitutions cost 1.
pub fn levenshtein(a: &str, b: &str) -> usize {
    if a == b {
        return 0;
    }
    strsim::levenshtein(a, b)
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

    #[test]
    fn levenshtein_counts_unicode_scalars() {
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("é", "e"), 1);
        assert_eq!(levenshtein("𝔸𝔹", "𝔸"), 1);
        assert_eq!(levenshtein("日本語", "日本"), 1);
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
