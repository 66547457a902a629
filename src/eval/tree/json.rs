//! The views of a forest: [`Json`], a copyable view of one value (its
//! type, scalars, children and members, its `serde_json::Value`), the
//! iterators over children and members, and copying a view into another
//! forest ([`Forest::add_json`]).
//!
//! Owns: reading values. The evaluation reads records only through
//! [`Json`]. Depends on `forest`.

use super::forest::{Forest, Node, NodeId, Tag, TooLarge, NO_KEY};
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::fmt;

impl Forest {
    /// The value at `id`.
    #[inline(always)]
    pub fn get(&self, id: NodeId) -> Json<'_> {
        Json { forest: self, id }
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

    /// Whether the parser found this object to hold only numbers in
    /// [0, 1]: a record's last member read by `tail` (the confidences
    /// beside its fields, SPEC §8.1), which read each of its numbers. True
    /// only then; false says nothing (such an object parsed any other way).
    pub fn known_unit_numbers(self) -> bool {
        self.node().unit_numbers
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

    /// The member whose key has the forest's id `key` ([`Forest::key_id`]):
    /// what [`Self::get`] of that key finds, without comparing strings.
    /// An object holds a key once, so it is looked for from the end,
    /// where writers put a record's confidences (SPEC §8.1).
    pub fn member_with_key_id(self, key: u32) -> Option<Json<'f>> {
        let n = self.node();
        if n.tag != Tag::Object {
            return None;
        }
        let forest = self.forest;
        (n.a..n.a + n.b)
            .rev()
            .find(|&id| forest.nodes[id as usize].key == key)
            .map(|id| Json { forest, id })
    }

    /// Loads one node of each cache line the children of this array or
    /// object fill, all at once: a reader that goes through them one by
    /// one then waits for memory once, not once per line (a record's
    /// confidences beside the fields, 22 nodes on 6 lines, are read after
    /// the rest of the record, when they have left the cache).
    pub fn touch_children(self) {
        let n = self.node();
        if !matches!(n.tag, Tag::Array | Tag::Object) {
            return;
        }
        let nodes = &self.forest.nodes[n.a as usize..(n.a + n.b) as usize];
        // 16-byte nodes: four to a 64-byte line; every fourth from the
        // first, and the last (its line may lie past the fourths' when the
        // first starts inside a line).
        let sum = nodes.iter().step_by(4).fold(0u32, |s, c| s ^ c.key);
        std::hint::black_box(sum ^ nodes.last().map_or(0, |c| c.key));
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
