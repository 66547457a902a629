//! The arena: [`Forest`] (every value of a file as 16-byte nodes in one
//! vector, every string in one text buffer, object keys interned) and
//! how values are added to it — from a `serde_json::Value`, with NFC keys
//! and the repeated-key rule of `serde_json::Map`.
//!
//! Owns: the node layout and building. Knows nothing of the views
//! (`json`) or of parsing text (`parse`), which add their own methods to
//! [`Forest`]. Depends on `serde_json` and `nfc`.

use crate::eval::nfc::{is_nfc_fast, nfc_str};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use std::fmt;

/// The index of a node in its forest.
pub type NodeId = u32;

/// No key: the node is an array element or a root.
pub(super) const NO_KEY: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tag {
    Null,
    False,
    True,
    /// A non-negative integer: `a` and `b` are the low and high halves.
    PosInt,
    /// A negative integer, as the bits of an `i64`.
    NegInt,
    /// A finite float, as the bits of an `f64`.
    Float,
    /// `a` is the byte offset in the text buffer, `b` the byte length.
    Str,
    /// `a` is the first child's node index, `b` the number of children.
    Array,
    Object,
}

/// One value. Object members carry their interned key.
#[derive(Debug, Clone, Copy)]
pub(super) struct Node {
    pub(super) tag: Tag,
    pub(super) key: u32,
    pub(super) a: u32,
    pub(super) b: u32,
    /// An object whose members the parser found to be numbers in [0, 1]
    /// (a record's confidences beside its fields, read by `tail`): a hint
    /// that spares walking them again, not content — false says nothing,
    /// and equality ignores it. Free: it sits in the tag's padding.
    pub(super) unit_numbers: bool,
}

// The hint costs no memory: a node stays 16 bytes.
const _: () = assert!(std::mem::size_of::<Node>() == 16);

/// The value, not the hint: nodes parsed by `tail` equal `serde_json`'s.
impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        (self.tag, self.key, self.a, self.b) == (other.tag, other.key, other.a, other.b)
    }
}

impl Eq for Node {}

impl Node {
    pub(super) fn scalar(tag: Tag) -> Node {
        Node {
            tag,
            key: NO_KEY,
            a: 0,
            b: 0,
            unit_numbers: false,
        }
    }

    pub(super) fn bits(tag: Tag, bits: u64) -> Node {
        Node {
            tag,
            key: NO_KEY,
            a: bits as u32,
            b: (bits >> 32) as u32,
            unit_numbers: false,
        }
    }

    pub(super) fn bits64(&self) -> u64 {
        u64::from(self.a) | (u64::from(self.b) << 32)
    }
}

/// Too much text or too many values for one forest's 32-bit indices
/// (over 4 GiB of strings, or over 4 billion values in one file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the file is too large: over 4 GiB of text or 4 billion values")
    }
}

/// The values of one file: nodes, string text and interned keys.
#[derive(Debug, Default, Clone)]
pub struct Forest {
    pub(super) nodes: Vec<Node>,
    pub(super) text: String,
    pub(super) keys: Vec<Box<str>>,
    /// For each key id, the id of its NFC form (itself when it is NFC).
    nfc_keys: Vec<u32>,
    key_ids: HashMap<Box<str>, u32, rustc_hash::FxBuildHasher>,
    /// Values whose container is still open, while building.
    pub(super) stack: Vec<Node>,
    /// Per key id, the last object (by [`Self::object_stamp`]) it was
    /// seen in: finds a repeated key in one pass without hashing.
    key_seen: Vec<u32>,
    object_stamp: u32,
    /// Per key id, the key asked for right after it the last time, and
    /// the key asked for last ([`Self::key`]): records of one schema
    /// give their keys in the same order, so the next key is usually
    /// found by one comparison, without hashing.
    key_after: Vec<u32>,
    last_key: u32,
    /// Reused by `parse`'s short path for a record's last member: its
    /// entries, and the text before it closed by `}`.
    pub(super) tail_entries: Vec<(usize, usize, Node)>,
    pub(super) tail_text: String,
}

impl Forest {
    /// Whether two forests hold the same values under the same node ids
    /// (the same records parsed the same way), whatever their names.
    pub fn same_content(&self, other: &Forest) -> bool {
        self.nodes == other.nodes && self.text == other.text && self.keys == other.keys
    }

    /// Makes room for the values of about `json_len` bytes of JSON text,
    /// so that building copies nothing while the vectors grow. Generous:
    /// pages never written are never resident, and [`Self::shrink`]
    /// returns the rest.
    pub fn reserve_for(&mut self, json_len: usize) {
        self.nodes.reserve(json_len / 8);
        self.text.reserve(json_len);
    }

    /// Forgets every value but keeps the interned keys, so that a key has
    /// the same id before and after (what a per-forest path cache relies
    /// on). A file read one record at a time reuses one forest this way:
    /// parsing the same text again after a clear gives the same node ids.
    pub fn clear_values(&mut self) {
        self.nodes.clear();
        self.text.clear();
        self.stack.clear();
    }

    /// Frees what building needed (the key index, spare capacity).
    pub fn shrink(&mut self) {
        self.stack = Vec::new();
        self.key_seen = Vec::new();
        self.tail_entries = Vec::new();
        self.tail_text = String::new();
        self.nodes.shrink_to_fit();
        self.text.shrink_to_fit();
    }

    /// Adds a `serde_json::Value` (already NFC) and returns its node.
    pub fn add_value(&mut self, value: &Value) -> Result<NodeId, TooLarge> {
        self.push_value(value)?;
        self.close_root()
    }

    /// Adds the object `map` (already NFC) and returns its node.
    pub fn add_map(&mut self, map: &Map<String, Value>) -> Result<NodeId, TooLarge> {
        self.push_map(map)?;
        self.close_root()
    }

    fn push_value(&mut self, value: &Value) -> Result<(), TooLarge> {
        match value {
            Value::Null => self.stack.push(Node::scalar(Tag::Null)),
            Value::Bool(b) => self.push_bool(*b),
            Value::Number(n) => self.push_number(n),
            Value::String(s) => self.push_str_as_is(s)?,
            Value::Array(items) => {
                let mark = self.stack.len();
                for item in items {
                    self.push_value(item)?;
                }
                self.end_array(mark)?;
            }
            Value::Object(map) => self.push_map(map)?,
        }
        Ok(())
    }

    fn push_map(&mut self, map: &Map<String, Value>) -> Result<(), TooLarge> {
        let mark = self.stack.len();
        for (k, v) in map {
            self.push_value(v)?;
            let key = self.key(k);
            self.set_last_key(key);
        }
        self.end_object(mark)
    }

    pub(super) fn push_bool(&mut self, b: bool) {
        self.stack
            .push(Node::scalar(if b { Tag::True } else { Tag::False }));
    }

    pub(super) fn push_number(&mut self, n: &Number) {
        let node = if let Some(u) = n.as_u64() {
            Node::bits(Tag::PosInt, u)
        } else if let Some(i) = n.as_i64() {
            Node::bits(Tag::NegInt, i as u64)
        } else {
            Node::bits(Tag::Float, n.as_f64().unwrap_or(0.0).to_bits())
        };
        self.stack.push(node);
    }

    pub(super) fn push_str_as_is(&mut self, s: &str) -> Result<(), TooLarge> {
        let start = u32::try_from(self.text.len()).map_err(|_| TooLarge)?;
        let len = u32::try_from(s.len()).map_err(|_| TooLarge)?;
        start.checked_add(len).ok_or(TooLarge)?;
        self.text.push_str(s);
        self.stack.push(Node {
            tag: Tag::Str,
            key: NO_KEY,
            a: start,
            b: len,
            unit_numbers: false,
        });
        Ok(())
    }

    /// A parsed string, NFC-normalised (SPEC §1.1).
    pub(super) fn push_str_nfc(&mut self, s: &str) -> Result<(), TooLarge> {
        if is_nfc_fast(s) {
            self.push_str_as_is(s)
        } else {
            self.push_str_as_is(&nfc_str(s))
        }
    }

    /// The id of key `k` if some member of this forest has (or had) it,
    /// without interning it.
    pub fn key_id(&self, k: &str) -> Option<u32> {
        self.key_ids.get(k).copied()
    }

    /// How many keys are interned: a cache of [`Self::key_id`]'s answers
    /// holds while this stays the same.
    pub fn key_count(&self) -> usize {
        self.keys.len()
    }

    /// Appends the values of `other` after this forest's and returns the
    /// number added to `other`'s node ids: a forest built on its own (the
    /// second half of a file, parsed on another thread) joined to the
    /// first. The nodes, text and key ids are those of building `other`'s
    /// values into this forest after its own: keys new here are interned
    /// in `other`'s order of ids, which is the order they were met in.
    pub fn append(&mut self, other: &Forest) -> Result<u32, TooLarge> {
        let node_offset = u32::try_from(self.nodes.len()).map_err(|_| TooLarge)?;
        let text_offset = u32::try_from(self.text.len()).map_err(|_| TooLarge)?;
        u32::try_from(self.nodes.len() + other.nodes.len()).map_err(|_| TooLarge)?;
        u32::try_from(self.text.len() + other.text.len()).map_err(|_| TooLarge)?;
        let keys: Vec<u32> = other.keys.iter().map(|k| self.key(k)).collect();
        self.text.push_str(&other.text);
        self.nodes.extend(other.nodes.iter().map(|&n| {
            let mut n = n;
            if n.key != NO_KEY {
                n.key = keys[n.key as usize];
            }
            match n.tag {
                Tag::Str => n.a += text_offset,
                Tag::Array | Tag::Object => n.a += node_offset,
                _ => {}
            }
            n
        }));
        Ok(node_offset)
    }

    /// The id of key `k` as written (interned).
    #[inline]
    pub(super) fn key(&mut self, k: &str) -> u32 {
        if let Some(&guess) = self.key_after.get(self.last_key as usize) {
            if self.keys.get(guess as usize).is_some_and(|key| **key == *k) {
                self.last_key = guess;
                return guess;
            }
        }
        let id = self.key_slow(k);
        if let Some(after) = self.key_after.get_mut(self.last_key as usize) {
            *after = id;
        }
        self.last_key = id;
        id
    }

    /// [`Self::key`] by the map, interning a new key.
    fn key_slow(&mut self, k: &str) -> u32 {
        if let Some(&id) = self.key_ids.get(k) {
            return id;
        }
        let id = self.keys.len() as u32;
        self.key_after.push(u32::MAX);
        self.keys.push(k.into());
        self.nfc_keys.push(id);
        self.key_ids.insert(k.into(), id);
        if !is_nfc_fast(k) {
            let nfc = self.key_slow(&nfc_str(k));
            self.nfc_keys[id as usize] = nfc;
        }
        id
    }

    pub(super) fn set_last_key(&mut self, key: u32) {
        if let Some(last) = self.stack.last_mut() {
            last.key = key;
        }
    }

    /// Moves the values above `mark` into the node vector as one run of
    /// children; returns (first, count).
    fn close_children(&mut self, mark: usize) -> Result<(u32, u32), TooLarge> {
        let first = u32::try_from(self.nodes.len()).map_err(|_| TooLarge)?;
        let count = u32::try_from(self.stack.len() - mark).map_err(|_| TooLarge)?;
        first.checked_add(count).ok_or(TooLarge)?;
        // A copy of plain nodes (one `memcpy`), not a drain's loop.
        self.nodes.extend_from_slice(&self.stack[mark..]);
        self.stack.truncate(mark);
        Ok((first, count))
    }

    pub(super) fn end_array(&mut self, mark: usize) -> Result<(), TooLarge> {
        let (a, b) = self.close_children(mark)?;
        self.stack.push(Node {
            tag: Tag::Array,
            key: NO_KEY,
            a,
            b,
            unit_numbers: false,
        });
        Ok(())
    }

    /// Closes an object: a repeated key keeps its first position and its
    /// last value (as `serde_json::Map::insert`); then keys are replaced by
    /// their NFC forms, with the same rule for keys that became equal (as
    /// the input adapters' NFC pass does).
    pub(super) fn end_object(&mut self, mark: usize) -> Result<(), TooLarge> {
        if self.repeats_a_key(mark) {
            dedup_keys(&mut self.stack, mark);
        }
        if self.stack[mark..]
            .iter()
            .any(|n| self.nfc_keys[n.key as usize] != n.key)
        {
            for n in &mut self.stack[mark..] {
                n.key = self.nfc_keys[n.key as usize];
            }
            if self.repeats_a_key(mark) {
                dedup_keys(&mut self.stack, mark);
            }
        }
        let (a, b) = self.close_children(mark)?;
        self.stack.push(Node {
            tag: Tag::Object,
            key: NO_KEY,
            a,
            b,
            unit_numbers: false,
        });
        Ok(())
    }

    pub(super) fn close_root(&mut self) -> Result<NodeId, TooLarge> {
        let id = u32::try_from(self.nodes.len()).map_err(|_| TooLarge)?;
        if id == u32::MAX {
            return Err(TooLarge);
        }
        match self.stack.pop() {
            Some(node) => self.nodes.push(node),
            None => self.nodes.push(Node::scalar(Tag::Null)),
        }
        Ok(id)
    }
}

impl Forest {
    /// Whether two of the members `stack[mark..]` have the same key: one
    /// pass, each key id stamped with this object's number (no hashing,
    /// no allocation once `key_seen` covers every key).
    fn repeats_a_key(&mut self, mark: usize) -> bool {
        self.object_stamp = self.object_stamp.wrapping_add(1);
        if self.object_stamp == 0 {
            self.key_seen.fill(0);
            self.object_stamp = 1;
        }
        if self.key_seen.len() < self.keys.len() {
            self.key_seen.resize(self.keys.len(), 0);
        }
        let stamp = self.object_stamp;
        for n in &self.stack[mark..] {
            match self.key_seen.get_mut(n.key as usize) {
                Some(seen) if *seen == stamp => return true,
                Some(seen) => *seen = stamp,
                // Not an interned key (never for a member): let the
                // general rule decide.
                None => return true,
            }
        }
        false
    }
}

/// Keeps the first position and the last value of each key among
/// `stack[mark..]`.
fn dedup_keys(stack: &mut Vec<Node>, mark: usize) {
    let members: Vec<Node> = stack.drain(mark..).collect();
    let mut kept: Vec<Node> = Vec::with_capacity(members.len());
    for n in members {
        match kept.iter_mut().find(|m| m.key == n.key) {
            Some(m) => *m = n,
            None => kept.push(n),
        }
    }
    stack.extend(kept);
}
