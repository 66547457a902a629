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
//! `serde_json` itself, see [`Forest::parse_record`]), the same strings, and
//! objects with the same keys in the same order, a repeated key keeping
//! its first position and its last value, as `serde_json::Map` does (with
//! `preserve_order`). Pure; depends on `serde`, `serde_json`, `nfc`.

use crate::eval::nfc::{is_nfc_fast, nfc_str};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// The index of a node in its forest.
pub type NodeId = u32;

/// No key: the node is an array element or a root.
const NO_KEY: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    tag: Tag,
    key: u32,
    a: u32,
    b: u32,
}

impl Node {
    fn scalar(tag: Tag) -> Node {
        Node {
            tag,
            key: NO_KEY,
            a: 0,
            b: 0,
        }
    }

    fn bits(tag: Tag, bits: u64) -> Node {
        Node {
            tag,
            key: NO_KEY,
            a: bits as u32,
            b: (bits >> 32) as u32,
        }
    }

    fn bits64(&self) -> u64 {
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
    nodes: Vec<Node>,
    text: String,
    keys: Vec<Box<str>>,
    /// For each key id, the id of its NFC form (itself when it is NFC).
    nfc_keys: Vec<u32>,
    key_ids: HashMap<Box<str>, u32, rustc_hash::FxBuildHasher>,
    /// Values whose container is still open, while building.
    stack: Vec<Node>,
}

impl Forest {
    /// Whether two forests hold the same values under the same node ids
    /// (the same records parsed the same way), whatever their names.
    pub fn same_content(&self, other: &Forest) -> bool {
        self.nodes == other.nodes && self.text == other.text && self.keys == other.keys
    }

    /// The value at `id`.
    #[inline(always)]
    pub fn get(&self, id: NodeId) -> Json<'_> {
        Json { forest: self, id }
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
        self.nodes.shrink_to_fit();
        self.text.shrink_to_fit();
    }

    /// Parses one JSON value from `text` with `serde_json` (so numbers,
    /// escapes and errors are exactly `serde_json`'s) into the forest, NFC-
    /// normalising strings and keys, and returns its node. On an error
    /// (syntax, trailing text, or [`TooLarge`]) the forest is left with
    /// unreachable nodes but otherwise intact.
    pub fn parse_record(&mut self, text: &str) -> Result<NodeId, serde_json::Error> {
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

    /// Adds a `serde_json::Value` (already NFC) and returns its node.
    pub fn add_value(&mut self, value: &Value) -> Result<NodeId, TooLarge> {
        self.push_value(value)?;
        self.close_root()
    }

    /// Adds the object `map` (already NFC) and returns its node.
    pub fn add_map(&mut self, map: &Map<String, Value>) -> Result<NodeId, TooLarge> {
        let mark = self.stack.len();
        for (k, v) in map {
            self.push_value(v)?;
            let key = self.key(k);
            self.set_last_key(key);
        }
        self.end_object(mark)?;
        self.close_root()
    }

    /// Adds a copy of `value` (of any forest) and returns its node: the
    /// same value, node for node (the parallel comparison pass copies a
    /// streamed file's records this way).
    pub fn add_json(&mut self, value: Json<'_>) -> Result<NodeId, TooLarge> {
        self.push_json(value)?;
        self.close_root()
    }

    fn push_json(&mut self, value: Json<'_>) -> Result<(), TooLarge> {
        let node = value.forest.nodes[value.id as usize];
        match node.tag {
            Tag::Str => self.push_str_as_is(value.as_str().unwrap_or_default())?,
            Tag::Array => {
                let mark = self.stack.len();
                for item in value.elements() {
                    self.push_json(item)?;
                }
                self.end_array(mark)?;
            }
            Tag::Object => {
                let mark = self.stack.len();
                for (k, v) in value.entries() {
                    self.push_json(v)?;
                    let key = self.key(k);
                    self.set_last_key(key);
                }
                self.end_object(mark)?;
            }
            _ => self.stack.push(Node {
                key: NO_KEY,
                ..node
            }),
        }
        Ok(())
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
            Value::Object(map) => {
                let mark = self.stack.len();
                for (k, v) in map {
                    self.push_value(v)?;
                    let key = self.key(k);
                    self.set_last_key(key);
                }
                self.end_object(mark)?;
            }
        }
        Ok(())
    }

    fn push_bool(&mut self, b: bool) {
        self.stack
            .push(Node::scalar(if b { Tag::True } else { Tag::False }));
    }

    fn push_number(&mut self, n: &Number) {
        let node = if let Some(u) = n.as_u64() {
            Node::bits(Tag::PosInt, u)
        } else if let Some(i) = n.as_i64() {
            Node::bits(Tag::NegInt, i as u64)
        } else {
            Node::bits(Tag::Float, n.as_f64().unwrap_or(0.0).to_bits())
        };
        self.stack.push(node);
    }

    fn push_str_as_is(&mut self, s: &str) -> Result<(), TooLarge> {
        let start = u32::try_from(self.text.len()).map_err(|_| TooLarge)?;
        let len = u32::try_from(s.len()).map_err(|_| TooLarge)?;
        start.checked_add(len).ok_or(TooLarge)?;
        self.text.push_str(s);
        self.stack.push(Node {
            tag: Tag::Str,
            key: NO_KEY,
            a: start,
            b: len,
        });
        Ok(())
    }

    /// A parsed string, NFC-normalised (SPEC §1.1).
    fn push_str_nfc(&mut self, s: &str) -> Result<(), TooLarge> {
        if is_nfc_fast(s) {
            self.push_str_as_is(s)
        } else {
            self.push_str_as_is(&nfc_str(s))
        }
    }

    /// The id of key `k` as written (interned).
    fn key(&mut self, k: &str) -> u32 {
        if let Some(&id) = self.key_ids.get(k) {
            return id;
        }
        let id = self.keys.len() as u32;
        self.keys.push(k.into());
        self.nfc_keys.push(id);
        self.key_ids.insert(k.into(), id);
        if !is_nfc_fast(k) {
            let nfc = self.key(&nfc_str(k));
            self.nfc_keys[id as usize] = nfc;
        }
        id
    }

    fn set_last_key(&mut self, key: u32) {
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

    fn end_array(&mut self, mark: usize) -> Result<(), TooLarge> {
        let (a, b) = self.close_children(mark)?;
        self.stack.push(Node {
            tag: Tag::Array,
            key: NO_KEY,
            a,
            b,
        });
        Ok(())
    }

    /// Closes an object: a repeated key keeps its first position and its
    /// last value (as `serde_json::Map::insert`); then keys are replaced by
    /// their NFC forms, with the same rule for keys that became equal (as
    /// the input adapters' NFC pass does).
    fn end_object(&mut self, mark: usize) -> Result<(), TooLarge> {
        dedup_keys(&mut self.stack, mark);
        if self.stack[mark..]
            .iter()
            .any(|n| self.nfc_keys[n.key as usize] != n.key)
        {
            for n in &mut self.stack[mark..] {
                n.key = self.nfc_keys[n.key as usize];
            }
            dedup_keys(&mut self.stack, mark);
        }
        let (a, b) = self.close_children(mark)?;
        self.stack.push(Node {
            tag: Tag::Object,
            key: NO_KEY,
            a,
            b,
        });
        Ok(())
    }

    fn close_root(&mut self) -> Result<NodeId, TooLarge> {
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

/// Keeps the first position and the last value of each key among
/// `stack[mark..]`.
fn dedup_keys(stack: &mut Vec<Node>, mark: usize) {
    let members = &stack[mark..];
    let repeated = if members.len() <= 32 {
        members
            .iter()
            .enumerate()
            .any(|(i, n)| members[..i].iter().any(|m| m.key == n.key))
    } else {
        let mut seen = std::collections::HashSet::with_capacity(members.len());
        !members.iter().all(|n| seen.insert(n.key))
    };
    if !repeated {
        return;
    }
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
        // As serde_json's own `Value`: a non-finite float is null.
        match Number::from_f64(v) {
            Some(n) => self.0.push_number(&n),
            None => self.0.stack.push(Node::scalar(Tag::Null)),
        }
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
        let mark = forest.stack.len();
        while let Some(key) = map.next_key_seed(KeySeed(forest))? {
            map.next_value_seed(ValueSeed(forest))?;
            forest.set_last_key(key);
        }
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

/// `n` in decimal digits.
fn push_decimal(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// The children of an array or object, in order.
#[derive(Debug, Clone)]
pub struct Children<'f> {
    forest: &'f Forest,
    next: u32,
    end: u32,
}

impl<'f> Iterator for Children<'f> {
    type Item = Json<'f>;

    fn next(&mut self) -> Option<Json<'f>> {
        (self.next < self.end).then(|| {
            let id = self.next;
            self.next += 1;
            Json {
                forest: self.forest,
                id,
            }
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Children<'_> {}

/// The members of an object, in order: key and value.
#[derive(Debug, Clone)]
pub struct Entries<'f>(Children<'f>);

impl<'f> Iterator for Entries<'f> {
    type Item = (&'f str, Json<'f>);

    fn next(&mut self) -> Option<Self::Item> {
        let child = self.0.next()?;
        let key = child.forest.keys.get(child.node().key as usize)?;
        Some((&**key, child))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

/// The JSON type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

/// A view of one value of a [`Forest`].
#[derive(Clone, Copy)]
pub struct Json<'f> {
    forest: &'f Forest,
    id: NodeId,
}

impl fmt::Debug for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_value())
    }
}

impl PartialEq for Json<'_> {
    /// The same value (not necessarily the same node).
    fn eq(&self, other: &Self) -> bool {
        self.to_value() == other.to_value()
    }
}

impl<'f> Json<'f> {
    #[inline(always)]
    fn node(self) -> Node {
        self.forest.nodes[self.id as usize]
    }

    /// The node's id in its forest.
    pub fn id(self) -> NodeId {
        self.id
    }

    #[inline(always)]
    pub fn json_type(self) -> JsonType {
        match self.node().tag {
            Tag::Null => JsonType::Null,
            Tag::False | Tag::True => JsonType::Bool,
            Tag::PosInt | Tag::NegInt | Tag::Float => JsonType::Number,
            Tag::Str => JsonType::String,
            Tag::Array => JsonType::Array,
            Tag::Object => JsonType::Object,
        }
    }

    #[inline(always)]
    pub fn is_null(self) -> bool {
        self.node().tag == Tag::Null
    }

    #[inline(always)]
    pub fn is_object(self) -> bool {
        self.node().tag == Tag::Object
    }

    #[inline(always)]
    pub fn as_str(self) -> Option<&'f str> {
        let n = self.node();
        (n.tag == Tag::Str).then(|| &self.forest.text[n.a as usize..(n.a + n.b) as usize])
    }

    pub fn as_bool(self) -> Option<bool> {
        match self.node().tag {
            Tag::True => Some(true),
            Tag::False => Some(false),
            _ => None,
        }
    }

    /// The number, as `serde_json` holds it.
    pub fn as_number(self) -> Option<Number> {
        let n = self.node();
        match n.tag {
            Tag::PosInt => Some(Number::from(n.bits64())),
            Tag::NegInt => Some(Number::from(n.bits64() as i64)),
            Tag::Float => Number::from_f64(f64::from_bits(n.bits64())),
            _ => None,
        }
    }

    /// A number as `f64` (`serde_json::Value::as_f64`).
    pub fn as_f64(self) -> Option<f64> {
        let n = self.node();
        match n.tag {
            Tag::PosInt => Some(n.bits64() as f64),
            Tag::NegInt => Some(n.bits64() as i64 as f64),
            Tag::Float => Some(f64::from_bits(n.bits64())),
            _ => None,
        }
    }

    /// The children of an array or object (none for a scalar).
    fn children(self) -> Children<'f> {
        let n = self.node();
        let (next, end) = match n.tag {
            Tag::Array | Tag::Object => (n.a, n.a + n.b),
            _ => (0, 0),
        };
        Children {
            forest: self.forest,
            next,
            end,
        }
    }

    /// The elements of an array (none for anything else).
    pub fn elements(self) -> Children<'f> {
        if self.node().tag == Tag::Array {
            self.children()
        } else {
            Children {
                forest: self.forest,
                next: 0,
                end: 0,
            }
        }
    }

    /// The number of elements of an array, or members of an object.
    pub fn len(self) -> usize {
        let n = self.node();
        match n.tag {
            Tag::Array | Tag::Object => n.b as usize,
            _ => 0,
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The first element of an array.
    pub fn first(self) -> Option<Json<'f>> {
        self.elements().next()
    }

    /// The members of an object, in order (none for anything else).
    pub fn entries(self) -> Entries<'f> {
        if self.node().tag == Tag::Object {
            Entries(self.children())
        } else {
            Entries(Children {
                forest: self.forest,
                next: 0,
                end: 0,
            })
        }
    }

    /// [`Self::entries`] with the forest's id of each key.
    pub fn entries_with_key_ids(self) -> impl Iterator<Item = (u32, &'f str, Json<'f>)> + 'f {
        let is_object = self.node().tag == Tag::Object;
        let forest = self.forest;
        self.children()
            .take(if is_object { usize::MAX } else { 0 })
            .map(move |c| {
                let key = c.node().key;
                (key, &*forest.keys[key as usize], c)
            })
    }

    /// The member `key` of an object.
    pub fn get(self, key: &str) -> Option<Json<'f>> {
        self.entries().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// A step of a JSON pointer: a member of an object, or an element of
    /// an array by its decimal index (as `serde_json::Value::pointer`).
    pub fn step(self, token: &str) -> Option<Json<'f>> {
        match self.node().tag {
            Tag::Object => self.get(token),
            Tag::Array => {
                if token.starts_with('+') || (token.starts_with('0') && token.len() > 1) {
                    return None;
                }
                let i: usize = token.parse().ok()?;
                self.elements().nth(i)
            }
            _ => None,
        }
    }

    /// The value as a `serde_json::Value`.
    pub fn to_value(self) -> Value {
        match self.node().tag {
            Tag::Null => Value::Null,
            Tag::False => Value::Bool(false),
            Tag::True => Value::Bool(true),
            Tag::PosInt | Tag::NegInt | Tag::Float => {
                self.as_number().map_or(Value::Null, Value::Number)
            }
            Tag::Str => Value::String(self.as_str().unwrap_or_default().to_owned()),
            Tag::Array => Value::Array(self.elements().map(Json::to_value).collect()),
            Tag::Object => Value::Object(
                self.entries()
                    .map(|(k, v)| (k.to_owned(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// Whether two values are the same, in the same forest or not: the same
    /// types, numbers with the same representation (`1` is not `1.0`), the
    /// same strings, and objects with the same keys in the same order.
    pub fn same(self, other: Json<'_>) -> bool {
        let (a, b) = (self.node(), other.node());
        if a.tag != b.tag {
            return false;
        }
        match a.tag {
            Tag::Null | Tag::False | Tag::True => true,
            Tag::PosInt | Tag::NegInt | Tag::Float => a.bits64() == b.bits64(),
            Tag::Str => self.as_str() == other.as_str(),
            Tag::Array => {
                a.b == b.b
                    && self
                        .elements()
                        .zip(other.elements())
                        .all(|(x, y)| x.same(y))
            }
            Tag::Object => {
                a.b == b.b
                    && self
                        .entries()
                        .zip(other.entries())
                        .all(|((kx, x), (ky, y))| kx == ky && x.same(y))
            }
        }
    }

    /// Feeds the value to `hasher` so that [`Self::same`] values hash
    /// alike, whatever their forest.
    pub fn hash_into(self, hasher: &mut impl std::hash::Hasher) {
        let n = self.node();
        hasher.write_u8(n.tag as u8);
        match n.tag {
            Tag::Null | Tag::False | Tag::True => {}
            Tag::PosInt | Tag::NegInt | Tag::Float => hasher.write_u64(n.bits64()),
            Tag::Str => {
                hasher.write_u32(n.b);
                hasher.write(self.as_str().unwrap_or_default().as_bytes());
            }
            Tag::Array => {
                hasher.write_u32(n.b);
                for e in self.elements() {
                    e.hash_into(hasher);
                }
            }
            Tag::Object => {
                hasher.write_u32(n.b);
                for (k, v) in self.entries() {
                    hasher.write_usize(k.len());
                    hasher.write(k.as_bytes());
                    v.hash_into(hasher);
                }
            }
        }
    }

    /// An object without the top-level members `skip` names, as a
    /// `serde_json::Value` (anything else as it is), every confidence
    /// wrapper beneath replaced by the value it stands for (SPEC §8.1:
    /// what the schema check and the literature metrics read).
    pub fn to_value_without(self, skip: &dyn Fn(&str) -> bool) -> Value {
        if !self.is_object() {
            return self.to_value_unwrapped();
        }
        Value::Object(
            self.entries()
                .filter(|(k, _)| !skip(k))
                .map(|(k, v)| (k.to_owned(), v.to_value_unwrapped()))
                .collect(),
        )
    }

    /// SPEC §8.1: when this value is a confidence wrapper — an object
    /// with the keys `_value` and `_confidence` and no key that does not
    /// start with `_` — the value it stands for and its `_confidence`
    /// (unchecked: `crate::eval::confidence_input` checks it).
    #[inline]
    pub fn confidence_wrapper(self) -> Option<(Json<'f>, Json<'f>)> {
        // Most objects are not wrappers: their first key does not start
        // with `_` (a wrapper's keys all do).
        if !self.is_object()
            || !self
                .entries()
                .next()
                .is_some_and(|(k, _)| k.starts_with('_'))
        {
            return None;
        }
        let (mut value, mut confidence) = (None, None);
        for (key, v) in self.entries() {
            match key {
                "_value" => value = Some(v),
                "_confidence" => confidence = Some(v),
                k if k.starts_with('_') => {}
                _ => return None,
            }
        }
        value.zip(confidence)
    }

    /// [`Self::to_value`] with every confidence wrapper replaced by the
    /// value it stands for.
    pub fn to_value_unwrapped(self) -> Value {
        if let Some((value, _)) = self.confidence_wrapper() {
            return value.to_value_unwrapped();
        }
        match self.node().tag {
            Tag::Array => Value::Array(self.elements().map(Json::to_value_unwrapped).collect()),
            Tag::Object => Value::Object(
                self.entries()
                    .map(|(k, v)| (k.to_owned(), v.to_value_unwrapped()))
                    .collect(),
            ),
            _ => self.to_value(),
        }
    }

    /// [`Self::text`] of a number, boolean or `null`, appended to `out`
    /// (nothing for other values).
    pub fn write_text(self, out: &mut String) {
        use std::fmt::Write;
        match self.node().tag {
            Tag::Null => out.push_str("null"),
            Tag::True => out.push_str("true"),
            Tag::False => out.push_str("false"),
            // Integers as `Display` writes them, without its machinery.
            Tag::PosInt => push_decimal(out, self.node().bits64()),
            Tag::NegInt => {
                let v = self.node().bits64() as i64;
                if v < 0 {
                    out.push('-');
                }
                push_decimal(out, v.unsigned_abs());
            }
            Tag::Float => {
                if let Some(n) = self.as_number() {
                    let _ = write!(out, "{n}");
                }
            }
            Tag::Str | Tag::Array | Tag::Object => {}
        }
    }

    /// The text compared for a value (SPEC §2.2): a string as it is,
    /// anything else as its JSON text.
    pub fn text(self) -> Cow<'f, str> {
        match self.node().tag {
            Tag::Str => Cow::Borrowed(self.as_str().unwrap_or_default()),
            Tag::Null => Cow::Borrowed("null"),
            Tag::True => Cow::Borrowed("true"),
            Tag::False => Cow::Borrowed("false"),
            Tag::PosInt | Tag::NegInt | Tag::Float => {
                Cow::Owned(self.as_number().map_or_else(String::new, |n| n.to_string()))
            }
            Tag::Array | Tag::Object => Cow::Owned(self.to_value().to_string()),
        }
    }
}

#[cfg(test)]
mod tests;
