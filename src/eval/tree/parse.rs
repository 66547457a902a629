//! JSON text into a [`Forest`], with `serde_json`'s own deserializer (so
//! numbers, escapes and errors are exactly `serde_json`'s), strings and
//! keys NFC-normalised (SPEC §1.1): [`Forest::parse_record`].
//!
//! A record whose last member is a flat object of plain numbers (the
//! confidences beside the fields) has that member read by `tail` and the
//! rest by `serde_json`: the same nodes, node for node.
//!
//! Owns: the deserializer's visitors. Depends on `forest`, `tail` and
//! `serde`.

use super::forest::{Forest, Node, NodeId, Tag, TooLarge};
use super::tail::{self, Entry, Tail};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Number;
use std::fmt;

impl Forest {
    /// Parses one JSON value from `text` with `serde_json` (so numbers,
    /// escapes and errors are exactly `serde_json`'s) into the forest, NFC-
    /// normalising strings and keys, and returns its node. A record's
    /// trailing flat object of plain numbers is read by `tail` into the
    /// very nodes `serde_json` would give. On an error (syntax, trailing
    /// text, or [`TooLarge`]) the forest is left with unreachable nodes
    /// but otherwise intact.
    pub fn parse_record(&mut self, text: &str) -> Result<NodeId, serde_json::Error> {
        if let Some(root) = self.parse_with_tail(text) {
            return Ok(root);
        }
        self.parse_whole(text)
    }

    /// [`Self::parse_record`] with `serde_json` reading every byte.
    pub(super) fn parse_whole(&mut self, text: &str) -> Result<NodeId, serde_json::Error> {
        let mark = self.stack.len();
        let mut de = serde_json::Deserializer::from_str(text);
        let result = ValueSeed(self)
            .deserialize(&mut de)
            .and_then(|()| de.end())
            .and_then(|()| {
                self.close_root()
                    .map_err(<serde_json::Error as serde::de::Error>::custom)
            });
        if result.is_err() {
            self.stack.truncate(mark);
        }
        result
    }
}

impl Forest {
    /// The record `text` when its last member is a flat object of plain
    /// numbers ([`tail::scan`]): the text before it parsed by `serde_json`
    /// as an object closed there, then the member added as `serde_json`
    /// would have read it. `None` when it is not such a record or the text
    /// before is not such an object, the forest as before but for the keys
    /// interned up to where `serde_json` stopped, which parsing the whole
    /// text interns first, in the same order.
    fn parse_with_tail(&mut self, text: &str) -> Option<NodeId> {
        let mut entries = std::mem::take(&mut self.tail_entries);
        let tail = tail::scan(text, &mut entries);
        let root = tail.and_then(|tail| {
            let mut before = std::mem::take(&mut self.tail_text);
            before.clear();
            before.push_str(&text[..tail.comma]);
            before.push('}');
            let marks = (self.stack.len(), self.nodes.len(), self.text.len());
            let mut de = serde_json::Deserializer::from_str(&before);
            let root = RootMembers(self)
                .deserialize(&mut de)
                .and_then(|mark| de.end().map(|()| mark))
                .ok()
                .and_then(|mark| self.add_tail(text, tail, &entries, mark).ok())
                .and_then(|()| self.close_root().ok());
            if root.is_none() {
                self.stack.truncate(marks.0);
                self.nodes.truncate(marks.1);
                self.text.truncate(marks.2);
            }
            self.tail_text = before;
            root
        });
        self.tail_entries = entries;
        root
    }

    /// Adds the member `tail` of `text` (its `entries`) to the record
    /// whose members are on the stack from `mark`, and closes the record,
    /// in the order `serde_json` reads them: the member's key, each entry's
    /// key and value, the entries' object, the record's.
    fn add_tail(
        &mut self,
        text: &str,
        tail: Tail,
        entries: &[Entry],
        mark: usize,
    ) -> Result<(), TooLarge> {
        let (start, end) = tail.key;
        let key = self.key(&text[start..end]);
        let inner = self.stack.len();
        for &(start, end, node) in entries {
            let entry = self.key(&text[start..end]);
            self.stack.push(node);
            self.set_last_key(entry);
        }
        self.end_object(inner)?;
        if let Some(object) = self.stack.last_mut() {
            object.unit_numbers = tail.unit_numbers;
        }
        self.set_last_key(key);
        self.end_object(mark)
    }
}

/// Reads the members of one object (after `{`) into the forest, each
/// value with its key, up to its `}`; returns the stack mark of the
/// object's first member.
fn read_members<'de, A: MapAccess<'de>>(
    forest: &mut Forest,
    map: &mut A,
) -> Result<usize, A::Error> {
    let mark = forest.stack.len();
    while let Some(key) = map.next_key_seed(KeySeed(forest))? {
        map.next_value_seed(ValueSeed(forest))?;
        forest.set_last_key(key);
    }
    Ok(mark)
}

/// The members of the record before its last member (an object, closed
/// where that member was), left on the stack: their mark is the value.
struct RootMembers<'f>(&'f mut Forest);

impl<'de> DeserializeSeed<'de> for RootMembers<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for RootMembers<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
        read_members(self.0, &mut map)
    }
}

/// Reads one value into the forest.
struct ValueSeed<'f>(&'f mut Forest);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

fn too_large<E: serde::de::Error>(_: TooLarge) -> E {
    E::custom(TooLarge)
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.0.push_bool(v);
        Ok(())
    }

    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.0.push_number(&Number::from(v));
        Ok(())
    }

    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.0.push_number(&Number::from(v));
        Ok(())
    }

    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        // As serde_json's own `Value`: a non-finite float is null, a
        // finite one a float (what `push_number` makes of
        // `Number::from_f64(v)`, without asking it for integers first).
        let node = if v.is_finite() {
            Node::bits(Tag::Float, v.to_bits())
        } else {
            Node::scalar(Tag::Null)
        };
        self.0.stack.push(node);
        Ok(())
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.0.push_str_nfc(v).map_err(too_large)
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        self.0.stack.push(Node::scalar(Tag::Null));
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        self.0.stack.push(Node::scalar(Tag::Null));
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let forest = self.0;
        let mark = forest.stack.len();
        while seq.next_element_seed(ValueSeed(forest))?.is_some() {}
        forest.end_array(mark).map_err(too_large)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let forest = self.0;
        let mark = read_members(forest, &mut map)?;
        forest.end_object(mark).map_err(too_large)
    }
}

/// Reads one object key and interns it.
struct KeySeed<'f>(&'f mut Forest);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = u32;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u32, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_str<E>(self, v: &str) -> Result<u32, E> {
        Ok(self.0.key(v))
    }
}
