//! A short path for a record whose last member is a flat object of plain
//! numbers — the confidences beside the fields (SPEC §8.1) where writers
//! put them, `{…, "_confidence": {"total": 0.98, "items[0]": 0.9}}`:
//! that object is read byte by byte here, and serde_json parses the rest
//! of the record ([`Forest::parse_record`]). On 2,000 × 3 documents with
//! confidences (129,290 entries) that is 28 M fewer instructions, about
//! 220 an entry of the 590 serde_json's key, colon, number and map steps
//! take.
//!
//! Only what is certainly valid JSON with one meaning is taken: an object
//! without escapes or control characters (so without tabs or line breaks
//! inside), and numbers that are a non-negative integer of at most 18
//! digits or a plain decimal of at most 18 digits whose digits, as an
//! integer d, are under 2^53, k of them after the point — d / 10^k, one
//! correctly rounded division of two exact values, the very f64
//! serde_json reads (its `float_roundtrip` parse is correctly rounded
//! too). Anything else (an exponent, a sign, an escape, a string value,
//! the member not last) gives `None`, and the record is parsed whole by
//! serde_json as before. Whether the text before the member is a JSON
//! object with at least one member is for serde_json to say: the caller
//! parses it closed by a `}`, and falls back on any error, so a `,` that
//! is not a member separator (inside a string, or deeper than the record)
//! never gets this path.
//!
//! Owns: [`scan`] and [`Tail`]. Pure: depends on `forest`'s node layout.
//!
//! [`Forest::parse_record`]: super::Forest::parse_record

use super::forest::{Node, Tag};

/// The record's last member, found by [`scan`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Tail {
    /// Byte index of the `,` before the member: the record without it is
    /// `text[..comma]` closed by `}`.
    pub comma: usize,
    /// The member's key (as written, between its quotes).
    pub key: (usize, usize),
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
    let end = skip_back(b, b.len()).checked_sub(1)?;
    if b[end] != b'}' {
        return None;
    }
    let close = skip_back(b, end).checked_sub(1)?;
    if b[close] != b'}' {
        return None;
    }
    let open = memchr::memrchr(b'{', &b[..close])?;
    // No escape and no control character anywhere inside: every `"` is
    // a key's quote, every key is as written.
    if !plain(&b[open + 1..close]) {
        return None;
    }
    read_entries(&b[open + 1..close], open + 1, entries)?;
    // `"key"` `:` before the object, and `,` before the key.
    let colon = skip_back(b, open).checked_sub(1)?;
    if b[colon] != b':' {
        return None;
    }
    let key_end = skip_back(b, colon).checked_sub(1)?;
    if b[key_end] != b'"' {
        return None;
    }
    let quote = memchr::memrchr(b'"', &b[..key_end])?;
    if !plain(&b[quote + 1..key_end]) {
        return None;
    }
    let comma = skip_back(b, quote).checked_sub(1)?;
    if b[comma] != b',' {
        return None;
    }
    // The record before the member has one: `{` there would make the
    // prefix's `{}` valid where `{,` is not.
    let before = skip_back(b, comma).checked_sub(1)?;
    if matches!(b[before], b'{' | b',') {
        return None;
    }
    Some(Tail {
        comma,
        key: (quote + 1, key_end),
    })
}

/// The index after the whitespace that ends `b[..end]`.
#[inline]
fn skip_back(b: &[u8], mut end: usize) -> usize {
    while end > 0 && is_space(b[end - 1]) {
        end -= 1;
    }
    end
}

/// `b` without the whitespace it starts with.
#[inline(always)]
fn trim(mut b: &[u8]) -> &[u8] {
    while let [c, rest @ ..] = b {
        if !is_space(*c) {
            break;
        }
        b = rest;
    }
    b
}

/// Text without an escape or a control character (so without JSON's
/// whitespace but the space). Without an early exit, so that it
/// vectorises.
#[inline]
fn plain(text: &[u8]) -> bool {
    text.iter()
        .fold(true, |ok, &c| ok & (c >= 0x20) & (c != b'\\'))
}

/// Reads `"key": number` entries separated by `,` from `inside` (an
/// object's inside, [`plain`]) into `entries`, their key ranges offset by
/// `base` (where `inside` starts in the record).
fn read_entries(inside: &[u8], base: usize, entries: &mut Vec<Entry>) -> Option<()> {
    let at = |rest: &[u8]| base + inside.len() - rest.len();
    let mut rest = trim(inside);
    if rest.is_empty() {
        return Some(());
    }
    loop {
        let [b'"', key @ ..] = rest else {
            return None;
        };
        let len = key.iter().position(|&c| c == b'"')?;
        let start = at(key);
        let [b':', value @ ..] = trim(&key[len + 1..]) else {
            return None;
        };
        let mut value = trim(value);
        let node = number(&mut value)?;
        entries.push((start, start + len, node));
        match trim(value) {
            [] => return Some(()),
            [b',', next @ ..] => rest = trim(next),
            _ => return None,
        }
    }
}

/// The leading digits of `b`: how many, and their value (wrapping past 19
/// digits).
#[inline(always)]
fn digits(b: &[u8]) -> (usize, u64) {
    let mut value = 0u64;
    for (n, &c) in b.iter().enumerate() {
        let x = c.wrapping_sub(b'0');
        if x > 9 {
            return (n, value);
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(x));
    }
    (b.len(), value)
}

/// A plain number at the start of `*b` (moving `*b` past it) as
/// serde_json's node: a non-negative integer of at most 18 digits, or a
/// decimal d/10^k with at most 18 digits in all, d < 2^53 and k after the
/// point (no exponent, no sign); else `None`.
#[inline]
fn number(b: &mut &[u8]) -> Option<Node> {
    let (n, whole) = digits(b);
    // JSON has no leading zero before a digit, and no empty integer part.
    if n == 0 || n > 18 || (n > 1 && b[0] == b'0') {
        return None;
    }
    let after = &b[n..];
    let fraction = match after {
        [b'.', fraction @ ..] => fraction,
        [b'e' | b'E', ..] => return None,
        _ => {
            *b = after;
            return Some(Node::bits(Tag::PosInt, whole));
        }
    };
    let (k, part) = digits(fraction);
    let rest = &fraction[k..];
    if k == 0 || n + k > 18 || matches!(rest, [b'e' | b'E', ..]) {
        return None;
    }
    *b = rest;
    let d = whole * POW10_INT[k] + part;
    (d < 1 << 53).then(|| Node::bits(Tag::Float, (d as f64 / POW10[k]).to_bits()))
}

/// 10^k as integers, for k ≤ 18.
const POW10_INT: [u64; 19] = {
    let mut p = [1u64; 19];
    let mut k = 1;
    while k < 19 {
        p[k] = p[k - 1] * 10;
        k += 1;
    }
    p
};
