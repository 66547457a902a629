//! Confidence in the input (SPEC §8.1): checking a prediction's
//! confidences, and the confidences given beside the fields.
//!
//! Owns: [`check_record`] (every confidence of one prediction record is a
//! number in [0, 1], else an error naming the file, line, record, path and
//! value) and [`Beside`] (a record's `_confidence` key: one number for the
//! document, or field paths mapped to numbers, resolved for a leaf by the
//! most specific entry). Inline wrappers (`{"_value", "_confidence"}`) are
//! unwrapped where records are flattened (`paths::flatten`,
//! [`crate::eval::tree::Json::confidence_wrapper`]); this module only
//! checks them. Pure: depends on `tree` and `error`; never on the passes,
//! the counts or a report.

use crate::error::{Error, ErrorKind};
use crate::eval::tree::{Json, JsonType};

/// Checks every confidence of one prediction record (its payload
/// `fields`): each inline wrapper's `_confidence`, and the top-level key
/// `key` (a number, or an object mapping field paths to numbers). The
/// error names `file`, `line` (when known), the record and the path.
pub fn check_record(
    fields: Json<'_>,
    key: &str,
    file: &str,
    line: Option<usize>,
    record: &str,
) -> Result<(), Error> {
    let fail = |path: &str, value: Json<'_>, what: &str| {
        let mut e = Error::new(
            ErrorKind::Shape,
            format!("{what} `{path}` {}", expectation(value)),
        )
        .in_file(file)
        .in_record(record.to_string());
        if let Some(line) = line {
            e = e.at_line(line);
        }
        e
    };
    let mut path = String::new();
    for (name, value) in fields.entries() {
        if name == key {
            match value.json_type() {
                JsonType::Number => {
                    if !valid(value) {
                        return Err(fail(key, value, "the document's confidence"));
                    }
                }
                JsonType::Object => {
                    for (field, c) in value.entries() {
                        if !valid(c) {
                            return Err(fail(&format!("{key}.{field}"), c, "the confidence at"));
                        }
                    }
                }
                _ => {
                    let mut e = Error::new(
                        ErrorKind::Shape,
                        format!(
                            "`{key}` expects a number in [0, 1] or an object mapping field paths to numbers, found {}",
                            shown(value)
                        ),
                    )
                    .in_file(file)
                    .in_record(record.to_string());
                    if let Some(line) = line {
                        e = e.at_line(line);
                    }
                    return Err(e);
                }
            }
            continue;
        }
        // The path is spelled out only for a record that has a bad one.
        if all_valid(value) {
            continue;
        }
        path.clear();
        path.push_str(name);
        if let Some((at, c)) = first_bad(value, &mut path) {
            return Err(fail(&at, c, "the confidence of"));
        }
    }
    Ok(())
}

/// Whether every inline confidence beneath `value` is a number in [0, 1].
fn all_valid(value: Json<'_>) -> bool {
    if let Some((inner, c)) = value.confidence_wrapper() {
        return valid(c) && all_valid(inner);
    }
    match value.json_type() {
        JsonType::Object => value.entries().all(|(_, v)| all_valid(v)),
        JsonType::Array => value.elements().all(all_valid),
        _ => true,
    }
}

/// The first inline confidence beneath `value` (at `path`) that is not a
/// number in [0, 1]: its path and value.
fn first_bad<'f>(value: Json<'f>, path: &mut String) -> Option<(String, Json<'f>)> {
    if let Some((inner, c)) = value.confidence_wrapper() {
        if !valid(c) {
            return Some((path.clone(), c));
        }
        return first_bad(inner, path);
    }
    let len = path.len();
    match value.json_type() {
        JsonType::Object => {
            for (k, v) in value.entries() {
                path.truncate(len);
                path.push('.');
                path.push_str(k);
                if let Some(bad) = first_bad(v, path) {
                    return Some(bad);
                }
            }
        }
        JsonType::Array => {
            for (i, v) in value.elements().enumerate() {
                path.truncate(len);
                path.push_str(&format!("[{i}]"));
                if let Some(bad) = first_bad(v, path) {
                    return Some(bad);
                }
            }
        }
        _ => {}
    }
    path.truncate(len);
    None
}

/// Whether a confidence is a finite number in [0, 1] (SPEC §8.1).
fn valid(c: Json<'_>) -> bool {
    c.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x))
}

fn shown(v: Json<'_>) -> String {
    let text = v.to_value().to_string();
    if text.chars().count() > 60 {
        format!("{}...", text.chars().take(57).collect::<String>())
    } else {
        text
    }
}

/// What a bad confidence should have been, with the value found.
fn expectation(v: Json<'_>) -> String {
    let hint = match v.as_f64() {
        Some(x) if x > 1.0 && x <= 100.0 => "; percentages must be divided by 100",
        _ => "",
    };
    format!("must be a number in [0, 1], found {}{hint}", shown(v))
}

/// A record's confidences beside its fields (SPEC §8.1): the entries of
/// its `_confidence` object by path, borrowed from the record (one small
/// map per record; no path is parsed or copied).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Beside<'f> {
    /// The document's number: every field's, losing to every path.
    document: Option<f64>,
    /// Field paths as written and their confidences (entries that are not
    /// numbers are left out: the dataset pass refused them already).
    entries: rustc_hash::FxHashMap<&'f str, f64>,
    /// The lists some entry names a field inside of (the first segment,
    /// without brackets, of each path with a `.`), found once per record
    /// for [`Self::names_item_fields`].
    item_lists: Vec<&'f str>,
}

impl<'f> Beside<'f> {
    /// The confidences under the record's top-level key `key` (`None`
    /// when it has none).
    pub fn read(record: Json<'f>, key: &str) -> Option<Beside<'f>> {
        let value = record.get(key)?;
        let mut entries =
            rustc_hash::FxHashMap::with_capacity_and_hasher(value.len(), rustc_hash::FxBuildHasher);
        let mut item_lists: Vec<&'f str> = Vec::new();
        for (path, c) in value.entries() {
            let Some(c) = c.as_f64() else { continue };
            entries.insert(path, c);
            // Bytes: `.` and `[` are ASCII, so each is a whole character.
            let bytes = path.as_bytes();
            if let Some(dot) = bytes.iter().position(|&b| b == b'.') {
                let end = bytes[..dot].iter().position(|&b| b == b'[').unwrap_or(dot);
                let list = &path[..end];
                if !item_lists.contains(&list) {
                    item_lists.push(list);
                }
            }
        }
        Some(Beside {
            document: value.as_f64(),
            entries,
            item_lists,
        })
    }

    /// Whether some entry names a field inside `list` (`items[].amount`,
    /// `items[2].amount`, `items.amount`: its first segment, without
    /// brackets, is `list`): if not, every field of an item has the item's
    /// confidence, [`Self::whole_item`]. The lists were found when the
    /// record was read.
    pub fn names_item_fields(&self, list: &str) -> bool {
        self.item_lists.contains(&list)
    }

    /// The confidence of predicted item `item` of `list` as a whole:
    /// `list[item]`, else `list[]`, else `list`, else the document's.
    pub fn whole_item(&self, list: &str, item: usize, buf: &mut String) -> Option<f64> {
        buf.clear();
        buf.push_str(list);
        push_index(buf, item);
        let indexed = self.entries.get(buf.as_str());
        buf.truncate(list.len());
        buf.push_str("[]");
        indexed
            .or_else(|| self.entries.get(buf.as_str()))
            .or_else(|| self.entries.get(list))
            .copied()
            .or(self.document)
    }

    /// The confidence of the field at `path` (a per-field-table path:
    /// `total`, `vendor.name`, `items[].amount`), in predicted item `item`
    /// for an item field: the most specific entry covering it — more
    /// segments first, then, for the list's segment, an index
    /// (`items[2]`) over `items[]` over the bare `items` — else the
    /// document's number. `buf` is scratch space for the indexed names.
    pub fn of(&self, path: &str, item: Option<usize>, buf: &mut String) -> Option<f64> {
        // Bytes, not `str` searchers (whose set-up cost more than the
        // search, once per value): `.`, `[` and `]` are ASCII, so in UTF-8
        // each of their bytes is a whole character and a `str` boundary.
        let bytes = path.as_bytes();
        // The list's segment ends where `[]` is (one list level: item
        // fields are `list[].field`).
        let list_end = bytes.windows(2).position(|w| w == b"[]");
        // Prefix ends, longest first: the whole path, then before each `.`.
        let dots = (0..bytes.len()).rev().filter(|&i| bytes[i] == b'.');
        let ends = std::iter::once(path.len()).chain(dots);
        for end in ends {
            let prefix = &path[..end];
            match list_end {
                Some(at) if end > at => {
                    // `list[]…`: the indexed name, `[]`, then the bare name.
                    let (list, rest) = (&path[..at], &path[at + 2..end]);
                    if let Some(i) = item {
                        buf.clear();
                        buf.push_str(list);
                        push_index(buf, i);
                        buf.push_str(rest);
                        if let Some(&c) = self.entries.get(buf.as_str()) {
                            return Some(c);
                        }
                    }
                    if let Some(&c) = self.entries.get(prefix) {
                        return Some(c);
                    }
                    buf.clear();
                    buf.push_str(list);
                    buf.push_str(rest);
                    if let Some(&c) = self.entries.get(buf.as_str()) {
                        return Some(c);
                    }
                }
                _ => {
                    if let Some(&c) = self.entries.get(prefix) {
                        return Some(c);
                    }
                }
            }
        }
        self.document
    }
}

/// Appends `[i]` (without `fmt`'s machinery: once per item value).
fn push_index(buf: &mut String, i: usize) {
    buf.push('[');
    buf.push_str(itoa::Buffer::new().format(i));
    buf.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tree::Forest;
    use serde_json::json;

    fn with<R>(v: serde_json::Value, f: impl FnOnce(Json<'_>) -> R) -> R {
        let mut forest = Forest::default();
        let root = forest.add_value(&v).unwrap();
        f(forest.get(root))
    }

    #[test]
    fn unicode_paths_are_cut_at_their_dots_and_brackets() {
        let v = json!({"_confidence": {
            "lieferant": 0.5, "lieferant.straße": 0.6,
            "posten[]": 0.2, "posten[1].größe": 0.4, "名前": 0.9
        }});
        with(v, |r| {
            let b = Beside::read(r, "_confidence").unwrap();
            let buf = &mut String::new();
            assert_eq!(b.of("lieferant.straße", None, buf), Some(0.6));
            assert_eq!(b.of("lieferant.ort.größe", None, buf), Some(0.5));
            assert_eq!(b.of("posten[].größe", Some(1), buf), Some(0.4));
            assert_eq!(b.of("posten[].größe", Some(0), buf), Some(0.2));
            assert_eq!(b.of("名前", None, buf), Some(0.9));
            assert_eq!(b.of("名前x.ü", None, buf), None);
        });
    }

    #[test]
    fn the_most_specific_entry_wins() {
        let v = json!({"_confidence": {
            "vendor": 0.5, "vendor.name": 0.6,
            "items": 0.1, "items[]": 0.2, "items[].amount": 0.3, "items[2].amount": 0.4, "items[1]": 0.7
        }});
        with(v, |r| {
            let b = Beside::read(r, "_confidence").unwrap();
            let buf = &mut String::new();
            assert_eq!(b.of("vendor.name", None, buf), Some(0.6));
            assert_eq!(b.of("vendor.city", None, buf), Some(0.5));
            assert_eq!(b.of("vendor.address.city", None, buf), Some(0.5));
            assert_eq!(b.of("total", None, buf), None);
            // Two segments beat one; at equal depth the indexed one wins.
            assert_eq!(b.of("items[].amount", Some(2), buf), Some(0.4));
            assert_eq!(b.of("items[].amount", Some(0), buf), Some(0.3));
            assert_eq!(b.of("items[].qty", Some(1), buf), Some(0.7));
            assert_eq!(b.of("items[].qty", Some(0), buf), Some(0.2));
            // The list itself (a list's leaf) by its bare name.
            assert_eq!(b.of("items", None, buf), Some(0.1));
            assert!(b.names_item_fields("items") && b.names_item_fields("vendor"));
            assert!(!b.names_item_fields("lines"));
            assert_eq!(b.whole_item("items", 1, buf), Some(0.7));
            assert_eq!(b.whole_item("items", 5, buf), Some(0.2));
        });
        with(json!({"c": 0.8}), |r| {
            let b = Beside::read(r, "c").unwrap();
            let buf = &mut String::new();
            // A document's number covers every field.
            assert_eq!(b.of("items[].qty", Some(0), buf), Some(0.8));
            assert_eq!(b.of("total", None, buf), Some(0.8));
        });
        with(json!({"c": {"items.qty": 0.3, "items[]": 0.9}}), |r| {
            let b = Beside::read(r, "c").unwrap();
            let buf = &mut String::new();
            // `items.qty` (two segments) beats `items[]` (one); `items[]`
            // beats the bare `items` at equal depth.
            assert_eq!(b.of("items[].qty", Some(4), buf), Some(0.3));
            assert_eq!(b.of("items[].sku", Some(4), buf), Some(0.9));
        });
        with(json!({"total": 1}), |r| {
            assert_eq!(Beside::read(r, "c"), None)
        });
    }

    #[test]
    fn bad_confidences_name_file_line_record_path_and_value() {
        let check = |v: serde_json::Value| {
            with(v, |r| {
                check_record(r, "_confidence", "p.jsonl", Some(4), "record \"d1\"")
                    .map_err(|e| e.to_string())
            })
        };
        assert_eq!(
            check(json!({"total": {"_value": "1", "_confidence": 0.5}})),
            Ok(())
        );
        assert_eq!(
            check(json!({"total": {"_value": "1", "_confidence": 87}})),
            Err("p.jsonl:4: record \"d1\": the confidence of `total` must be a number in [0, 1], found 87; percentages must be divided by 100".into())
        );
        assert_eq!(
            check(json!({"items": [{"a": 1}, {"a": {"_value": 2, "_confidence": "high"}}]})),
            Err("p.jsonl:4: record \"d1\": the confidence of `items[1].a` must be a number in [0, 1], found \"high\"".into())
        );
        assert_eq!(
            check(json!({"_confidence": {"vendor.name": -0.1}})),
            Err("p.jsonl:4: record \"d1\": the confidence at `_confidence.vendor.name` must be a number in [0, 1], found -0.1".into())
        );
        assert_eq!(
            check(json!({"_confidence": 101})),
            Err("p.jsonl:4: record \"d1\": the document's confidence `_confidence` must be a number in [0, 1], found 101".into())
        );
        assert!(check(json!({"_confidence": "x"}))
            .unwrap_err()
            .contains("`_confidence` expects a number in [0, 1] or an object"));
    }
}
