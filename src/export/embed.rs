//! Inputs and settings embedded in an HTML report, so that the report
//! re-opens in the browser app (`fieldscope eval --format html
//! --embed-inputs`, or the app's "embed the inputs" checkbox).
//!
//! Owns: the encoding of a report bundle (`session::Session::to_bundle`:
//! every input file with its role, model name and cost, and the settings)
//! inside the page, reading it back, and the size limit.
//!
//! The bundle's JSON is compressed with zlib (miniz_oxide, level 9: JSON
//! records shrink about sixfold) and written in base64 as the only text of
//! a `<template id="fieldscope-inputs">` element at the end of the body.
//! Nothing runs it or shows it: a template's content is inert and never
//! rendered, and base64 holds no `<`, `&` or quote, so the page stays
//! well-formed XML and its Content-Security-Policy stays
//! `default-src 'none'`. `base64 -d | openssl zlib -d` (or Python's
//! `zlib.decompress`) gives the bundle back.
//!
//! The browser app's page reads reports back, so this module keeps it
//! light: miniz_oxide's inflate only (zlib's Adler-32, no CRC tables) and
//! a base64 codec of its own (the alphabet of RFC 4648 §4, with padding):
//! the page's release wasm is 30 KB smaller (1,374,402 bytes against
//! 1,404,557) than with flate2's gzip and the base64 crate.
//!
//! Depends on miniz_oxide only; no I/O.

/// The most input bytes (all files together) a report embeds: 50 MB. A
/// larger report would be slow to open and to share; a bundle or the files
/// themselves serve better.
pub const MAX_INPUT_BYTES: u64 = 50_000_000;

/// The most a bundle read back from a report may decompress to: eight
/// times [`MAX_INPUT_BYTES`] (JSON writes a byte that is not UTF-8 as up to
/// four characters and escapes control characters as six), so that a
/// hostile page cannot fill the tab's memory.
pub const MAX_BUNDLE_BYTES: u64 = 8 * MAX_INPUT_BYTES;

/// The `id` of the element holding the inputs.
pub const ELEMENT_ID: &str = "fieldscope-inputs";

/// What an input total over [`MAX_INPUT_BYTES`] is told (the caller adds
/// what to do instead); `Ok` within the limit.
pub fn check_size(total_bytes: u64) -> Result<(), String> {
    if total_bytes <= MAX_INPUT_BYTES {
        return Ok(());
    }
    Err(format!(
        "the inputs total {:.1} MB, and an HTML report embeds at most {} MB of inputs",
        total_bytes as f64 / 1e6,
        MAX_INPUT_BYTES / 1_000_000
    ))
}

/// The element that carries `bundle` (a bundle's JSON) in the page.
pub fn element(bundle: &str) -> String {
    let compressed = miniz_oxide::deflate::compress_to_vec_zlib(bundle.as_bytes(), 9);
    format!(
        "<template id=\"{ELEMENT_ID}\" data-encoding=\"zlib+base64\" \
         data-content=\"fieldscope report bundle\">{}</template>\n",
        base64_encode(&compressed)
    )
}

/// The bundle's JSON embedded in an HTML report by [`element`]: `None`
/// when the page holds none, an error when what it holds cannot be read
/// (not base64, not zlib, or larger than [`MAX_BUNDLE_BYTES`]).
pub fn extract(html: &[u8]) -> Option<Result<Vec<u8>, String>> {
    let marker = format!("<template id=\"{ELEMENT_ID}\"");
    let start = find(html, marker.as_bytes())?;
    let rest = &html[start..];
    let body = match (find(rest, b">"), find(rest, b"</template>")) {
        (Some(open), Some(close)) if open < close => &rest[open + 1..close],
        _ => return Some(Err("the embedded inputs are cut off".into())),
    };
    Some(decode(body, MAX_BUNDLE_BYTES))
}

/// base64, then zlib, refusing more than `limit` bytes.
fn decode(text: &[u8], limit: u64) -> Result<Vec<u8>, String> {
    let compressed =
        base64_decode(text).ok_or_else(|| "the embedded inputs are not base64".to_string())?;
    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&compressed, limit as usize).map_err(
        |e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => format!(
                "the embedded inputs unpack to more than {} MB",
                limit as f64 / 1e6
            ),
            status => format!("the embedded inputs are not zlib ({status:?})"),
        },
    )
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Each byte's value in [`ALPHABET`], 255 for a byte outside it.
const VALUES: [u8; 256] = {
    let mut values = [255u8; 256];
    let mut i = 0;
    while i < 64 {
        values[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    values
};

/// Base64 (RFC 4648 §4, padded with `=`).
fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes of base64 text (whitespace ignored, padding optional);
/// `None` for any other character or a length no encoding gives.
fn base64_decode(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut n, mut bits) = (0u32, 0u32);
    let mut padding = false;
    for &c in text.iter().filter(|c| !c.is_ascii_whitespace()) {
        if c == b'=' {
            padding = true;
            continue;
        }
        if padding {
            return None;
        }
        let value = VALUES[usize::from(c)];
        if value == 255 {
            return None;
        }
        n = n << 6 | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
            n &= (1 << bits) - 1;
        }
    }
    // 6 bits left over: a length no encoding gives.
    (bits < 6).then_some(out)
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_comes_back_byte_for_byte() {
        let bundle =
            r#"{"fieldscope_bundle":1,"files":[{"name":"a <b> & \"c\".jsonl","text":"é\u0000"}]}"#;
        let page = format!("<html><body><p>x</p>{}</body></html>", element(bundle));
        let inert = element(bundle);
        assert!(inert.starts_with("<template id=\"fieldscope-inputs\" "));
        let content = &inert[inert.find('>').unwrap() + 1..inert.rfind("</template>").unwrap()];
        assert!(content
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b)));
        assert_eq!(
            extract(page.as_bytes()),
            Some(Ok(bundle.as_bytes().to_vec()))
        );
        // The same bundle always gives the same bytes (no time stamp).
        assert_eq!(element(bundle), element(bundle));
    }

    #[test]
    fn pages_without_inputs_or_with_broken_ones_say_so() {
        assert_eq!(extract(b"<html><body>report</body></html>"), None);
        let cut = "<template id=\"fieldscope-inputs\" data-encoding=\"zlib+base64\">eNo";
        assert_eq!(
            extract(cut.as_bytes()),
            Some(Err("the embedded inputs are cut off".into()))
        );
        let not_base64 = "<template id=\"fieldscope-inputs\">***</template>";
        assert_eq!(
            extract(not_base64.as_bytes()),
            Some(Err("the embedded inputs are not base64".into()))
        );
        let not_zlib = "<template id=\"fieldscope-inputs\">aGVsbG8=</template>";
        assert!(extract(not_zlib.as_bytes())
            .unwrap()
            .unwrap_err()
            .starts_with("the embedded inputs are not zlib"));
    }

    #[test]
    fn base64_is_rfc_4648() {
        // RFC 4648 §10's test vectors.
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64_encode(plain.as_bytes()), encoded);
            assert_eq!(base64_decode(encoded.as_bytes()).unwrap(), plain.as_bytes());
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(base64_decode(base64_encode(&all).as_bytes()).unwrap(), all);
        assert_eq!(base64_decode(b"Zm9v\nYmFy\n").unwrap(), b"foobar");
        assert_eq!(base64_decode(b"Zm9vY"), None);
        assert_eq!(base64_decode(b"Zg==Zg"), None);
        assert_eq!(base64_decode(b"Zm9v!"), None);
    }

    #[test]
    fn a_bomb_is_refused() {
        // 2 MB of spaces compress to a few KB; the limit here is 1 MB (the
        // real one, 400 MB, works the same way).
        let compressed = miniz_oxide::deflate::compress_to_vec_zlib(&vec![b' '; 2_000_000], 9);
        assert!(compressed.len() < 10_000);
        let text = base64_encode(&compressed);
        assert_eq!(
            decode(text.as_bytes(), 1_000_000),
            Err("the embedded inputs unpack to more than 1 MB".into())
        );
        assert_eq!(decode(text.as_bytes(), 2_000_000).unwrap().len(), 2_000_000);
        assert_eq!(MAX_BUNDLE_BYTES, 400_000_000);
    }

    #[test]
    fn the_limit_is_50_mb_of_inputs() {
        assert_eq!(check_size(50_000_000), Ok(()));
        assert_eq!(
            check_size(61_234_567),
            Err(
                "the inputs total 61.2 MB, and an HTML report embeds at most 50 MB of inputs"
                    .into()
            )
        );
    }
}
