//! The bit-parallel Levenshtein of `fieldscope::eval::distance` against
//! `strsim::levenshtein` (the definition, SPEC §2.2) on arbitrary strings,
//! short and long (over 64 characters takes the fallback path). The input
//! is split at its first 0xFF byte (never part of UTF-8) into the two
//! strings, each decoded lossily.
#![no_main]

use fieldscope::eval::distance::{levenshtein, similarity, CerCount};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (a, b) = match data.iter().position(|&x| x == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => data.split_at(data.len() / 2),
    };
    let a = String::from_utf8_lossy(a);
    let b = String::from_utf8_lossy(b);
    let expected = strsim::levenshtein(&a, &b);
    assert_eq!(levenshtein(&a, &b), expected, "a={a:?} b={b:?}");
    assert_eq!(levenshtein(&b, &a), expected, "b={b:?} a={a:?}");
    let s = similarity(&a, &b);
    assert!((0.0..=1.0).contains(&s), "similarity {s} for {a:?} {b:?}");
    let cer = CerCount::of(&a, &b);
    let rate = cer.rate(false);
    assert!(
        rate.is_finite() && rate >= 0.0,
        "CER {rate} for {a:?} {b:?}"
    );
});
