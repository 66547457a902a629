//! Unicode NFC normalisation of JSON values (SPEC §1.1: all text is
//! NFC-normalised when it is read).
//!
//! Owns: the fast "already NFC?" test and in-place normalisation of
//! strings, object keys and whole values. Used by the input adapters and by
//! the raw-model-output parser. Pure; depends on `unicode-normalization`.

use serde_json::{Map, Value};
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// Whether `s` has a character at or above U+0300, the first one whose NFC
/// quick check is not "yes": only such text can fail to be NFC. In UTF-8
/// those are exactly the characters whose first byte is 0xCC or more
/// (continuation bytes are below 0xC0). Chunked so that it vectorises.
pub fn has_char_from_u0300(s: &str) -> bool {
    s.as_bytes()
        .chunks(256)
        .any(|chunk| chunk.iter().fold(0, |max, &b| max.max(b)) >= 0xCC)
}

/// Whether `s` is certainly NFC already (cheap: no character at or above
/// U+0300, else the quick check).
pub fn is_nfc_fast(s: &str) -> bool {
    !has_char_from_u0300(s) || is_nfc_quick(s.chars()) == IsNormalized::Yes
}

/// `s` in NFC, reusing the allocation when it already is.
pub fn nfc_string(s: String) -> String {
    if is_nfc_fast(&s) {
        s
    } else {
        s.nfc().collect()
    }
}

/// `s` in NFC as a new string.
pub fn nfc_str(s: &str) -> String {
    if is_nfc_fast(s) {
        s.to_owned()
    } else {
        s.nfc().collect()
    }
}

/// NFC-normalises every string and every object key in `value`, in place.
///
/// Strings that are already NFC (all ASCII text, for one) are left alone.
/// Walks the value with an explicit stack, so any depth is safe. When two
/// keys of one object become equal after normalisation, the later value
/// wins (as with duplicate keys in JSON), at the earlier key's position.
pub fn nfc_value(value: &mut Value) {
    let mut stack: Vec<&mut Value> = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                if !is_nfc_fast(s) {
                    *s = s.nfc().collect();
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => {
                nfc_keys(map);
                stack.extend(map.values_mut());
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

/// NFC-normalises the keys of `map` (not its values).
pub fn nfc_keys(map: &mut Map<String, Value>) {
    if map.keys().all(|k| is_nfc_fast(k)) {
        return;
    }
    let old = std::mem::take(map);
    for (k, v) in old {
        map.insert(nfc_string(k), v);
    }
}

/// NFC-normalises the keys and values of one record, in place.
pub fn nfc_map(map: &mut Map<String, Value>) {
    nfc_keys(map);
    for v in map.values_mut() {
        nfc_value(v);
    }
}
