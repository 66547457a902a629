//! Inputs and settings embedded in an HTML report, so that the report
//! re-opens in the browser app (`fieldscope eval --format html
//! --embed-inputs`, or the app's "embed the inputs" checkbox).
//!
//! Owns: the encoding of a report bundle (`session::Session::to_bundle`:
//! every input file with its role, model name and cost, and the settings)
//! inside the page, reading it back, and the size limit.
//!
//! The bundle's JSON is compressed with gzip (flate2, level 9: JSON
//! records shrink about sevenfold) and written in base64 as the only text
//! of a `<template id="fieldscope-inputs">` element at the end of the
//! body. Nothing runs it or shows it: a template's content is inert and
//! never rendered, and base64 holds no `<`, `&` or quote, so the page stays
//! well-formed XML and its Content-Security-Policy stays
//! `default-src 'none'`. `base64 -d | gunzip` gives the bundle back.
//!
//! Depends on flate2 and base64 only; no I/O.

use base64::Engine;
use std::io::{Read, Write};

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
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = gz.write_all(bundle.as_bytes());
    let compressed = gz.finish().unwrap_or_default();
    format!(
        "<template id=\"{ELEMENT_ID}\" data-encoding=\"gzip+base64\" \
         data-content=\"fieldscope report bundle\">{}</template>\n",
        base64::engine::general_purpose::STANDARD.encode(compressed)
    )
}

/// The bundle's JSON embedded in an HTML report by [`element`]: `None`
/// when the page holds none, an error when what it holds cannot be read
/// (not base64, not gzip, or larger than [`MAX_BUNDLE_BYTES`]).
pub fn extract(html: &[u8]) -> Option<Result<Vec<u8>, String>> {
    let marker = format!("<template id=\"{ELEMENT_ID}\"");
    let start = find(html, marker.as_bytes())?;
    let rest = &html[start..];
    let body = match (find(rest, b">"), find(rest, b"</template>")) {
        (Some(open), Some(close)) if open < close => &rest[open + 1..close],
        _ => return Some(Err("the embedded inputs are cut off".into())),
    };
    let text: Vec<u8> = body
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    Some(decode(&text, MAX_BUNDLE_BYTES))
}

/// base64, then gzip, refusing more than `limit` bytes.
fn decode(text: &[u8], limit: u64) -> Result<Vec<u8>, String> {
    let compressed = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| format!("the embedded inputs are not base64 ({e})"))?;
    let mut bundle = Vec::new();
    flate2::read::GzDecoder::new(compressed.as_slice())
        .take(limit + 1)
        .read_to_end(&mut bundle)
        .map_err(|e| format!("the embedded inputs are not gzip ({e})"))?;
    if bundle.len() as u64 > limit {
        return Err(format!(
            "the embedded inputs unpack to more than {} MB",
            limit as f64 / 1e6
        ));
    }
    Ok(bundle)
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
        let cut = "<template id=\"fieldscope-inputs\" data-encoding=\"gzip+base64\">H4sI";
        assert_eq!(
            extract(cut.as_bytes()),
            Some(Err("the embedded inputs are cut off".into()))
        );
        let not_base64 = "<template id=\"fieldscope-inputs\">***</template>";
        assert!(extract(not_base64.as_bytes())
            .unwrap()
            .unwrap_err()
            .starts_with("the embedded inputs are not base64"));
        let not_gzip = "<template id=\"fieldscope-inputs\">aGVsbG8=</template>";
        assert!(extract(not_gzip.as_bytes())
            .unwrap()
            .unwrap_err()
            .starts_with("the embedded inputs are not gzip"));
    }

    #[test]
    fn a_bomb_is_refused() {
        // 2 MB of spaces compress to a few KB; the limit here is 1 MB (the
        // real one, 400 MB, works the same way).
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&vec![b' '; 2_000_000]).unwrap();
        let compressed = gz.finish().unwrap();
        assert!(compressed.len() < 10_000);
        let text = base64::engine::general_purpose::STANDARD.encode(compressed);
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
