//! Confidence in the input (SPEC §8.1): checking a prediction's
//! confidences, and the confidences given beside the fields.
//!
//! Owns: [`check_record`] (every confidence of one prediction record is a
//! number in [0, 1], else an error naming the file, line, record, path and
//! value) and [`BesideIndex`] (a record's `_confidence` key: one number
//! for the document, or field paths mapped to numbers, resolved for a leaf
//! by the most specific entry; entries held by the forest's key ids, each
//! path's candidate keys worked out once per forest). Inline wrappers
//! (`{"_value", "_confidence"}`) are unwrapped where records are flattened
//! (`paths::flatten`, [`crate::eval::tree::Json::confidence_wrapper`]);
//! this module only checks them. Pure: depends on `tree` and `error`;
//! never on the passes, the counts or a report.

use crate::error::{Error, ErrorKind};
use crate::eval::tree::{Forest, Json, JsonType};

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
                // The parser has read these numbers (`tail`): all in
                // [0, 1], so they are not walked again.
                JsonType::Object if value.known_unit_numbers() => {}
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

/// The candidate lists of [`BesideIndex`]: for each slot, the key ids of
/// the entries that could give its confidence, most specific first.
type Candidates = Vec<Option<Box<[u32]>>>;

/// The confidences beside the fields (SPEC §8.1) of one forest's records,
/// one record at a time: [`Self::read`] takes a record's `_confidence`
/// key (one number for the document, or field paths mapped to numbers),
/// and [`Self::of`] / [`Self::whole_item`] resolve a leaf by the most
/// specific entry.
///
/// Entries are held by the forest's key id (the parser interned each
/// path as an object key), so a record is read without hashing a string.
/// Which key ids could cover a field (and in which order) depends only on
/// its path and item index, so it is worked out once per forest from
/// [`candidates`] and the forest's interned keys, and again only when a
/// record read since added keys.
#[derive(Debug, Default)]
pub struct BesideIndex {
    /// [`Forest::key_count`] when the candidate lists were made.
    ///
    /// [`Forest::key_count`]: crate::eval::tree::Forest::key_count
    keys: usize,
    /// Per path id of a field outside items (one column).
    fields: Vec<Candidates>,
    /// Per path id of an item field, per item index.
    items: Vec<Candidates>,
    /// Per path id of a list, per item index: the item as a whole.
    whole: Vec<Candidates>,
    /// Per key id, once known: the list an entry with this path names a
    /// field inside of (the first segment, without brackets, of a path
    /// with a `.`), `None` for a path without a `.`.
    list_of_key: Vec<Option<Option<Box<str>>>>,
    /// The record's entries by key id (NaN: none), and which are set.
    values: Vec<f64>,
    set: Vec<u32>,
    /// The record's number for every field, losing to every path.
    document: Option<f64>,
    /// Key ids of the record's entries that name a field inside a list.
    item_lists: Vec<u32>,
}

impl BesideIndex {
    /// Reads the confidences under the top-level key `key` of `record`
    /// (a record of `forest`); false when it has none. Forgets the record
    /// read before. Entries that are not numbers are left out (the
    /// dataset pass refused them already).
    pub fn read(&mut self, forest: &Forest, record: Json<'_>, key: &str) -> bool {
        for &id in &self.set {
            self.values[id as usize] = f64::NAN;
        }
        self.set.clear();
        self.item_lists.clear();
        self.document = None;
        let Some(value) = forest
            .key_id(key)
            .and_then(|id| record.member_with_key_id(id))
        else {
            return false;
        };
        value.touch_children();
        if self.keys != forest.key_count() {
            self.keys = forest.key_count();
            self.fields.clear();
            self.items.clear();
            self.whole.clear();
        }
        self.document = value.as_f64();
        for (id, path, c) in value.entries_with_key_ids() {
            let Some(c) = c.as_f64() else { continue };
            let at = id as usize;
            if self.values.len() <= at {
                self.values.resize(at + 1, f64::NAN);
                self.list_of_key.resize(at + 1, None);
            }
            self.values[at] = c;
            self.set.push(id);
            let names_a_list = self.list_of_key[at]
                .get_or_insert_with(|| list_named_by(path))
                .is_some();
            if names_a_list && !self.names_item_fields(self.list_of(id)) {
                self.item_lists.push(id);
            }
        }
        true
    }

    /// Whether some entry of the record names a field inside `list`
    /// (`items[].amount`, `items[2].amount`, `items.amount`: its first
    /// segment, without brackets, is `list`): if not, every field of an
    /// item has the item's confidence, [`Self::whole_item`].
    pub fn names_item_fields(&self, list: &str) -> bool {
        self.item_lists.iter().any(|&k| self.list_of(k) == list)
    }

    /// The list the entry with key `k` names a field inside of (empty
    /// when none or not yet known).
    fn list_of(&self, k: u32) -> &str {
        match self.list_of_key.get(k as usize) {
            Some(Some(Some(list))) => list,
            _ => "",
        }
    }

    /// The confidence of predicted item `item` of list `list` (path id
    /// `list_id`) as a whole: `list[item]`, else `list[]`, else `list`,
    /// else the document's.
    pub fn whole_item(
        &mut self,
        forest: &Forest,
        list_id: usize,
        list: &str,
        item: usize,
    ) -> Option<f64> {
        let ids = slot(&mut self.whole, list_id, item, || {
            let mut buf = String::new();
            let mut ids = Vec::new();
            whole_item_candidates(list, item, &mut buf, |name| ids.extend(forest.key_id(name)));
            ids
        });
        first_set(&self.values, ids).or(self.document)
    }

    /// The confidence of the field at `path` (path id `id`; a
    /// per-field-table path: `total`, `vendor.name`, `items[].amount`), in
    /// predicted item `item` for an item field: the first of
    /// [`candidates`] the record has, else the document's number.
    pub fn of(
        &mut self,
        forest: &Forest,
        id: usize,
        path: &str,
        item: Option<usize>,
    ) -> Option<f64> {
        let make = || {
            let mut buf = String::new();
            let mut ids = Vec::new();
            candidates(path, item, &mut buf, |name| ids.extend(forest.key_id(name)));
            ids
        };
        let ids = match item {
            Some(i) => slot(&mut self.items, id, i, make),
            None => slot(&mut self.fields, id, 0, make),
        };
        first_set(&self.values, ids).or(self.document)
    }
}

/// The candidate list of `(row, column)` in `table`, made by `make` the
/// first time.
fn slot(
    table: &mut Vec<Candidates>,
    row: usize,
    column: usize,
    make: impl FnOnce() -> Vec<u32>,
) -> &[u32] {
    if table.len() <= row {
        table.resize(row + 1, Vec::new());
    }
    let row = &mut table[row];
    if row.len() <= column {
        row.resize(column + 1, None);
    }
    row[column].get_or_insert_with(|| make().into_boxed_slice())
}

/// The value of the first of `ids` set in `values`.
fn first_set(values: &[f64], ids: &[u32]) -> Option<f64> {
    ids.iter()
        .filter_map(|&k| values.get(k as usize).copied())
        .find(|c| !c.is_nan())
}

/// The list an entry at `path` names a field inside of: the first
/// segment, without brackets, of a path with a `.`.
fn list_named_by(path: &str) -> Option<Box<str>> {
    // Bytes: `.` and `[` are ASCII, so each is a whole character.
    let bytes = path.as_bytes();
    let dot = bytes.iter().position(|&b| b == b'.')?;
    let end = bytes[..dot].iter().position(|&b| b == b'[').unwrap_or(dot);
    Some(path[..end].into())
}

/// The entries that could give predicted item `item` of `list` its
/// confidence as a whole, most specific first: `list[item]`, `list[]`,
/// `list` (each passed to `f`).
fn whole_item_candidates(list: &str, item: usize, buf: &mut String, mut f: impl FnMut(&str)) {
    buf.clear();
    buf.push_str(list);
    push_index(buf, item);
    f(buf);
    buf.truncate(list.len());
    buf.push_str("[]");
    f(buf);
    f(list);
}

/// The entries that could give the field at `path` (a per-field-table
/// path: `total`, `vendor.name`, `items[].amount`; `item` its predicted
/// item for an item field) its confidence, most specific first (each
/// passed to `f`): more segments first, then, for the list's segment, an
/// index (`items[2]`) over `items[]` over the bare `items`.
pub fn candidates(path: &str, item: Option<usize>, buf: &mut String, mut f: impl FnMut(&str)) {
    // Bytes, not `str` searchers: `.`, `[` and `]` are ASCII, so in UTF-8
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
                    f(buf);
                }
                f(prefix);
                buf.clear();
                buf.push_str(list);
                buf.push_str(rest);
                f(buf);
            }
            _ => f(prefix),
        }
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
    use serde_json::json;

    /// A record's confidences as the evaluation reads them: `of(path,
    /// item)`, `whole(list, item)` and `names(list)` on the record `v`
    /// under key `key` (path ids handed out by name, as a path table
    /// would).
    struct Read {
        forest: Forest,
        index: BesideIndex,
        ids: Vec<String>,
    }

    impl Read {
        fn new(v: serde_json::Value, key: &str) -> Option<Read> {
            let mut forest = Forest::default();
            let root = forest.add_value(&v).unwrap();
            let mut index = BesideIndex::default();
            index.read(&forest, forest.get(root), key).then_some(Read {
                forest,
                index,
                ids: Vec::new(),
            })
        }

        fn id(&mut self, path: &str) -> usize {
            match self.ids.iter().position(|p| p == path) {
                Some(i) => i,
                None => {
                    self.ids.push(path.to_owned());
                    self.ids.len() - 1
                }
            }
        }

        fn of(&mut self, path: &str, item: Option<usize>) -> Option<f64> {
            let id = self.id(path);
            self.index.of(&self.forest, id, path, item)
        }

        fn whole(&mut self, list: &str, item: usize) -> Option<f64> {
            let id = self.id(list);
            self.index.whole_item(&self.forest, id, list, item)
        }

        fn names(&self, list: &str) -> bool {
            self.index.names_item_fields(list)
        }
    }

    #[test]
    fn unicode_paths_are_cut_at_their_dots_and_brackets() {
        let v = json!({"_confidence": {
            "lieferant": 0.5, "lieferant.straße": 0.6,
            "posten[]": 0.2, "posten[1].größe": 0.4, "名前": 0.9
        }});
        let mut b = Read::new(v, "_confidence").unwrap();
        assert_eq!(b.of("lieferant.straße", None), Some(0.6));
        assert_eq!(b.of("lieferant.ort.größe", None), Some(0.5));
        assert_eq!(b.of("posten[].größe", Some(1)), Some(0.4));
        assert_eq!(b.of("posten[].größe", Some(0)), Some(0.2));
        assert_eq!(b.of("名前", None), Some(0.9));
        assert_eq!(b.of("名前x.ü", None), None);
    }

    #[test]
    fn the_most_specific_entry_wins() {
        let v = json!({"_confidence": {
            "vendor": 0.5, "vendor.name": 0.6,
            "items": 0.1, "items[]": 0.2, "items[].amount": 0.3, "items[2].amount": 0.4, "items[1]": 0.7
        }});
        let mut b = Read::new(v, "_confidence").unwrap();
        assert_eq!(b.of("vendor.name", None), Some(0.6));
        assert_eq!(b.of("vendor.city", None), Some(0.5));
        assert_eq!(b.of("vendor.address.city", None), Some(0.5));
        assert_eq!(b.of("total", None), None);
        // Two segments beat one; at equal depth the indexed one wins.
        assert_eq!(b.of("items[].amount", Some(2)), Some(0.4));
        assert_eq!(b.of("items[].amount", Some(0)), Some(0.3));
        assert_eq!(b.of("items[].qty", Some(1)), Some(0.7));
        assert_eq!(b.of("items[].qty", Some(0)), Some(0.2));
        // The list itself (a list's leaf) by its bare name.
        assert_eq!(b.of("items", None), Some(0.1));
        assert!(b.names("items") && b.names("vendor"));
        assert!(!b.names("lines"));
        assert_eq!(b.whole("items", 1), Some(0.7));
        assert_eq!(b.whole("items", 5), Some(0.2));

        let mut b = Read::new(json!({"c": 0.8}), "c").unwrap();
        // A document's number covers every field.
        assert_eq!(b.of("items[].qty", Some(0)), Some(0.8));
        assert_eq!(b.of("total", None), Some(0.8));

        let mut b = Read::new(json!({"c": {"items.qty": 0.3, "items[]": 0.9}}), "c").unwrap();
        // `items.qty` (two segments) beats `items[]` (one); `items[]`
        // beats the bare `items` at equal depth.
        assert_eq!(b.of("items[].qty", Some(4)), Some(0.3));
        assert_eq!(b.of("items[].sku", Some(4)), Some(0.9));

        assert!(Read::new(json!({"total": 1}), "c").is_none());
    }

    #[test]
    fn each_record_is_read_afresh_and_keys_added_later_are_found() {
        // One forest, records parsed one after another (as a file read a
        // record at a time): the second record's entries replace the
        // first's, and a key the forest learns after a field's candidates
        // were worked out is still found.
        let mut forest = Forest::default();
        let first = forest
            .add_value(&json!({"c": {"total": 0.9, "items[0]": 0.8}}))
            .unwrap();
        let mut index = BesideIndex::default();
        assert!(index.read(&forest, forest.get(first), "c"));
        assert_eq!(index.of(&forest, 0, "total", None), Some(0.9));
        assert_eq!(index.of(&forest, 1, "vendor.name", None), None);
        assert_eq!(index.whole_item(&forest, 2, "items", 0), Some(0.8));
        assert!(!index.names_item_fields("items"));
        let second = forest
            .add_value(&json!({"c": {"vendor": 0.3, "items[].sku": 0.2, "items[0]": 0.7}}))
            .unwrap();
        assert!(index.read(&forest, forest.get(second), "c"));
        assert_eq!(index.of(&forest, 0, "total", None), None);
        assert_eq!(index.of(&forest, 1, "vendor.name", None), Some(0.3));
        assert_eq!(index.whole_item(&forest, 2, "items", 0), Some(0.7));
        assert!(index.names_item_fields("items"));
        assert_eq!(index.of(&forest, 3, "items[].sku", Some(0)), Some(0.2));
        let third = forest.add_value(&json!({"total": 5})).unwrap();
        assert!(!index.read(&forest, forest.get(third), "c"));
        assert!(!index.names_item_fields("items"));
    }

    #[test]
    fn bad_confidences_name_file_line_record_path_and_value() {
        let check = |v: serde_json::Value| {
            let mut forest = Forest::default();
            let root = forest.add_value(&v).unwrap();
            check_record(
                forest.get(root),
                "_confidence",
                "p.jsonl",
                Some(4),
                "record \"d1\"",
            )
            .map_err(|e| e.to_string())
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

    /// A record read from text, its confidences beside the fields last
    /// (the parser's short path, which notes that they are all in [0, 1]
    /// or not): the same verdicts as the record built from a value.
    #[test]
    fn confidences_read_by_the_short_path_are_checked_as_any() {
        let check = |text: &str| {
            let mut forest = Forest::default();
            let root = forest.parse_record(text).unwrap();
            check_record(
                forest.get(root),
                "_confidence",
                "p.jsonl",
                Some(2),
                "record \"d1\"",
            )
            .map_err(|e| e.to_string())
        };
        assert_eq!(
            check(r#"{"id":"d1","total":"1","_confidence":{"total":0.5,"tax":1,"items[0]":0.0}}"#),
            Ok(())
        );
        assert_eq!(
            check(r#"{"id":"d1","total":"1","_confidence":{"tax":0.5,"total":87}}"#),
            Err("p.jsonl:2: record \"d1\": the confidence at `_confidence.total` must be a number in [0, 1], found 87; percentages must be divided by 100".into())
        );
        assert_eq!(
            check(r#"{"id":"d1","_confidence":{"total":1.5}}"#),
            Err("p.jsonl:2: record \"d1\": the confidence at `_confidence.total` must be a number in [0, 1], found 1.5; percentages must be divided by 100".into())
        );
    }
}
