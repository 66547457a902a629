//! Compact JSON trees: the records of one file in one arena.
//!
//! Owns: [`Forest`] (every value of a file as 16-byte nodes in one vector,
//! every string in one text buffer, object keys interned) and [`Json`], a
//! copyable view of one value. A parsed `serde_json::Value` costs about ten
//! times its JSON text (a heap block per string, key and container); a
//! forest costs about 1.2 times. The evaluation reads records only
//! through [`Json`]; `serde_json::Value`s are built from it where a library
//! needs one (schema validation, `document_details`).
//!
//! A forest holds exactly what `serde_json` would parse, after the input
//! adapters' NFC normalisation (SPEC §1.1): the same numbers (read by
//! `serde_json` itself, or to the same bits by `tail`, see
//! [`Forest::parse_record`]), the same strings, and objects with the same
//! keys in the same order, a repeated key keeping its first position and
//! its last value, as `serde_json::Map` does (with `preserve_order`).
//! Pure; depends on `serde`, `serde_json`, `memchr`, `nfc`.

//!
//! The arena and how values are added is `forest`; parsing text into it,
//! `parse`, with `tail`'s short path for a record's trailing object of
//! numbers; the views ([`Json`]), `json`. This file re-exports them.

mod forest;
mod json;
mod parse;
mod tail;

pub use forest::{Forest, NodeId, TooLarge};
pub use json::{Children, Entries, Json, JsonType};

#[cfg(test)]
mod tests;
