//! The random draws every part of `synth` shares: picks, samples,
//! pattern fills, typos, swapped digits, shuffles and the per-stream
//! seeds, all drawn from 64-bit numbers so that wasm32 and native runs
//! give the same data.
//!
//! Owns: draws from a given `fastrand::Rng`; no global random state.
//! Depends on nothing else in `synth`.

use fastrand::Rng;

pub(super) fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.u64(..items.len() as u64) as usize]
}

/// `n` distinct elements in random order.
pub(super) fn sample<T: Copy>(rng: &mut Rng, items: &[T], n: usize) -> Vec<T> {
    let mut all = items.to_vec();
    shuffle(rng, &mut all);
    all.truncate(n);
    all
}

/// Fills a pattern: `9` becomes a digit, `A` an uppercase ASCII letter.
pub(super) fn fill(rng: &mut Rng, pattern: &str) -> String {
    pattern
        .chars()
        .map(|c| match c {
            '9' => rng.digit(10),
            'A' => letter(rng, b'A'),
            c => c,
        })
        .collect()
}

/// One character substituted (a digit by a digit, anything else by a
/// letter), deleted or inserted. The result always differs from `s`.
pub(super) fn typo(rng: &mut Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    if chars.is_empty() {
        return letter(rng, b'a').to_string();
    }
    let i = rng.u64(..chars.len() as u64) as usize;
    match rng.u8(0..3) {
        0 => {
            let old = chars[i];
            chars[i] = loop {
                let new = if old.is_ascii_digit() {
                    rng.digit(10)
                } else if old.is_uppercase() {
                    letter(rng, b'A')
                } else {
                    letter(rng, b'a')
                };
                if new != old {
                    break new;
                }
            };
        }
        1 if chars.len() > 1 => {
            chars.remove(i);
        }
        _ => chars.insert(i, letter(rng, b'a')),
    }
    chars.into_iter().collect()
}

/// Swaps two different adjacent ASCII digits; `None` when there are none.
pub(super) fn swap_digits(rng: &mut Rng, s: &str) -> Option<String> {
    let mut chars: Vec<char> = s.chars().collect();
    let spots: Vec<usize> = chars
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0].is_ascii_digit() && w[1].is_ascii_digit() && w[0] != w[1])
        .map(|(i, _)| i)
        .collect();
    if spots.is_empty() {
        return None;
    }
    let i = *pick(rng, &spots);
    chars.swap(i, i + 1);
    Some(chars.into_iter().collect())
}

/// An independent seed for each stream (truth, each model) so that one
/// stream's draws never shift another's.
pub(super) fn stream_seed(seed: u64, stream: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325; // FNV-1a
    for byte in stream.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    splitmix64(seed ^ splitmix64(hash))
}

pub(super) fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random ASCII letter from `base` (`b'A'` or `b'a'`), drawn as
/// `fastrand::Rng::uppercase` and `lowercase` draw it natively (an index
/// below 26) but from a 64-bit number on every platform, for the reason
/// given at [`shuffle`].
pub(super) fn letter(rng: &mut Rng, base: u8) -> char {
    char::from(base + rng.u64(..26) as u8)
}

/// Fisher–Yates as `fastrand::Rng::shuffle` does it, but drawing 64-bit
/// numbers on every platform: fastrand draws `usize`s from 32-bit numbers
/// on wasm32, which would make the browser's example differ from
/// `fieldscope synth` run natively. (Every `usize` range in this module is
/// drawn as a `u64` range for the same reason.)
pub(super) fn shuffle<T>(rng: &mut Rng, slice: &mut [T]) {
    for i in 1..slice.len() {
        slice.swap(i, rng.u64(..=i as u64) as usize);
    }
}
