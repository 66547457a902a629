//! A short path for a record whose last member is a flat object of plain
//! numbers — the confidences beside the fields (SPEC §8.1) where writers
//! put them, `{…, "_confidence": {"total": 0.98, "items[0]": 0.9}}`:
//! that object is read byte by byte here, and serde_json parses the rest
//! of the record ([`Forest::parse_record`]). On 2,000 × 3 documents with
//! confidences (129,290 entries): 36 M fewer instructions, an entry read
//! (and interned) in about 310 against 590 through serde_json's key,
//! colon, number and map steps.
//!
//! Only what is certainly valid JSON with one meaning is taken: an object
//! without escapes or control characters (so without tabs or line breaks
//! inside), and numbers that are a non-negative integer of at most 18
//! digits or a plain decimal of at most 18 digits whose digits, as an
//! integer d, are under 2^53, k of them after the point — d / 10^k, one
//! correctly rounded division of two exact values, the very f64
//! serde_json reads (its `float_roundtrip` parse is correctly rounded
//! too) — or, for three decimals at most, the same value read from
//! [`THOUSANDTHS`]. Anything else (an exponent, a sign, an escape, a
//! string value, the member not last) gives `None`, and the record is
//! parsed whole by serde_json as before. Whether the text before the member is a JSON
//! object with at least one member is for serde_json to say: the caller
//! parses it closed by a `}`, and falls back on any error, so a `,` that
//! is not a member separator (inside a string, or deeper than the record)
//! never gets this path.
//!
//! Owns: [`scan`] and [`Tail`]. Pure: depends on `forest`'s node layout,
//! `memchr` and `eval::thousandths`.
//!
//! [`Forest::parse_record`]: super::Forest::parse_record

use super::forest::{Node, Tag};
use crate::eval::thousandths::THOUSANDTHS;

/// The record's last member, found by [`scan`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Tail {
    /// Byte index of the `,` before the member: the record without it is
    /// `text[..comma]` closed by `}`.
    pub comma: usize,
    /// The member's key (as written, between its quotes).
    pub key: (usize, usize),
    /// Every entry's number is in [0, 1] (a confidence, SPEC §8.1).
    pub unit_numbers: bool,
}

/// One entry of the flat object: its key's byte range and its value.
pub(super) type Entry = (usize, usize, Node);

/// JSON's whitespace.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// 10^k for k ≤ 18: every one exact in an f64.
const POW10: [f64; 19] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18,
];

/// The record `text`'s last member when it is a flat object of plain
/// numbers (see the module's rules), its entries in `entries` (cleared
/// first); `None` when it is not, or not certainly.
pub(super) fn scan(text: &str, entries: &mut Vec<Entry>) -> Option<Tail> {
    entries.clear();
    let b = text.as_bytes();
    // `…}` `}` at the end: the object's close, then the record's.
    let end = last_before(b, b.len(), b'}')?;
    let close = last_before(b, end, b'}')?;
    let open = memchr::memrchr(b'{', &b[..close])?;
    // No escape and no control character anywhere inside: every `"` is
    // a key's quote, every key is as written.
    if !plain(&b[open + 1..close]) {
        return None;
    }
    let unit_numbers = read_entries(&b[open + 1..close], open + 1, entries)?;
    // `"key"` `:` before the object, and `,` before the key.
    let colon = last_before(b, open, b':')?;
    let key_end = last_before(b, colon, b'"')?;
    let quote = memchr::memrchr(b'"', &b[..key_end])?;
    if !plain(&b[quote + 1..key_end]) {
        return None;
    }
    let comma = last_before(b, quote, b',')?;
    // The record before the member has one: `{` there would make the
    // prefix's `{}` valid where `{,` is not.
    let before = skip_back(b, comma).checked_sub(1)?;
    if matches!(b[before], b'{' | b',') {
        return None;
    }
    Some(Tail {
        comma,
        key: (quote + 1, key_end),
        unit_numbers,
    })
}

/// The index of the last byte of `b[..end]` that is not whitespace, when
/// it is `want`.
fn last_before(b: &[u8], end: usize, want: u8) -> Option<usize> {
    let at = skip_back(b, end).checked_sub(1)?;
    (b[at] == want).then_some(at)
}

/// The index after the whitespace that ends `b[..end]`.
#[inline]
fn skip_back(b: &[u8], mut end: usize) -> usize {
    while end > 0 && is_space(b[end - 1]) {
        end -= 1;
    }
    end
}

/// The index of the first byte from `i` on that is not whitespace.
#[inline(always)]
fn skip(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    i
}

/// The index of the first `"` in `b`: eight bytes at a time (a byte of
/// `w ^ "…"` is zero where `w` has a quote; the lowest such byte is the
/// lowest set bit of `(x − 0x01…) & !x & 0x80…`, borrows only running
/// upwards from it), then byte by byte for the last few.
#[inline(always)]
pub(super) fn quote_in(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut at = 0;
    while let Some(word) = b.get(at..at + 8) {
        let x = u64::from_le_bytes(word.try_into().ok()?) ^ (ONES * u64::from(b'"'));
        let found = x.wrapping_sub(ONES) & !x & (ONES << 7);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    b[at..].iter().position(|&c| c == b'"').map(|i| at + i)
}

/// Text without an escape or a control character (so without JSON's
/// whitespace but the space). Without an early exit, so that it
/// vectorises.
#[inline]
fn plain(text: &[u8]) -> bool {
    text.iter()
        .fold(true, |ok, &c| ok & (c >= 0x20) & (c != b'\\'))
}

/// d / 10^k correctly rounded, for d < 2^53 and k ≤ 18: the usual
/// confidence (k ≤ 3 and d·10^(3−k) ≤ 1000, the same rational as m/1000)
/// from [`THOUSANDTHS`], a load where the division costs 15–20 cycles
/// (a third of the scan's time); else one division of two exact values.
#[inline(always)]
fn decimal(d: u64, k: usize) -> f64 {
    // d < 2^53, so d · 1000 < 2^63: no overflow.
    const SCALE: [u64; 4] = [1000, 100, 10, 1];
    // (m compared as a u64: a 32-bit `usize` would wrap it.)
    if let Some(&scale) = SCALE.get(k) {
        let m = d * scale;
        if m <= 1000 {
            return THOUSANDTHS[m as usize];
        }
    }
    d as f64 / POW10[k]
}

/// Reads `"key": number` entries separated by `,` from `b` (an object's
/// inside, [`plain`]) into `entries`, their key ranges offset by `base`
/// (where `b` starts in the record); whether every number is at most 1.
/// One pass, index by index: numbers are a non-negative integer of at
/// most 18 digits, or a decimal of at most 18 digits d/10^k with d < 2^53
/// (no exponent, no sign). Out of `scan`'s line: inlined there, its loop
/// kept its number and index on the stack (2,000 × 3 documents with
/// confidences: 25 M instructions against 31 M).
#[inline(never)]
fn read_entries(b: &[u8], base: usize, entries: &mut Vec<Entry>) -> Option<bool> {
    let mut unit = true;
    let n = b.len();
    let mut i = skip(b, 0);
    while i < n {
        // The key: no escape inside, so it ends at the next quote.
        if b[i] != b'"' {
            return None;
        }
        let start = i + 1;
        let end = start + quote_in(&b[start..])?;
        i = skip(b, end + 1);
        if i >= n || b[i] != b':' {
            return None;
        }
        i = skip(b, i + 1);
        // The number: its digits, then those after a point, as one d.
        let first = i;
        let mut d = 0u64;
        while i < n && b[i].is_ascii_digit() {
            d = d.wrapping_mul(10).wrapping_add(u64::from(b[i] - b'0'));
            i += 1;
        }
        let whole = i - first;
        // JSON has no leading zero before a digit, and no empty integer part.
        if whole == 0 || whole > 18 || (whole > 1 && b[first] == b'0') {
            return None;
        }
        let node = if i < n && b[i] == b'.' {
            i += 1;
            let point = i;
            while i < n && b[i].is_ascii_digit() {
                d = d.wrapping_mul(10).wrapping_add(u64::from(b[i] - b'0'));
                i += 1;
            }
            let k = i - point;
            if k == 0 || whole + k > 18 || d >= 1 << 53 {
                return None;
            }
            let value = decimal(d, k);
            unit &= value <= 1.0;
            Node::bits(Tag::Float, value.to_bits())
        } else {
            unit &= d <= 1;
            Node::bits(Tag::PosInt, d)
        };
        if i < n && b[i] | 0x20 == b'e' {
            return None;
        }
        entries.push((base + start, base + end, node));
        i = skip(b, i);
        if i < n {
            if b[i] != b',' {
                return None;
            }
            i = skip(b, i + 1);
            if i >= n {
                return None;
            }
        }
    }
    Some(unit)
}
