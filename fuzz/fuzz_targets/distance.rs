//! The hand-written Levenshtein distance (bit-parallel, diagonal
//! transition, blocks) against `strsim`'s plain table, on arbitrary pairs
//! of strings of up to a few hundred characters.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Some((a, b)) = text.split_once('\u{0}') else {
        return;
    };
    assert_eq!(
        fieldscope::eval::distance::levenshtein(a, b),
        strsim::levenshtein(a, b),
        "{a:?} {b:?}"
    );
});
