//! The flattened documents an evaluation keeps (SPEC §2.1's normalised
//! leaves, [`StoredForest`]: one per forest, the truth's and each
//! model's) and the comparison pass's [`Storing`], which keeps them until
//! they take more than a limit. Read back by the pass that loads them
//! (`Docs::Load`) and owned by a [`Prepared`](super::Prepared). Depends on
//! the sibling `fields` (`FlatDoc`) and on `paths`, `compare`, `tree`.

use super::fields::FlatDoc;
use crate::eval::compare::ValueType;
use crate::eval::paths::{Leaf, PathId};
use crate::eval::tree::{Forest, NodeId};
use std::ops::Range;

/// A leaf of a stored document: a [`Leaf`] without its forest (the node
/// is looked up again in the forest that holds it) and without readings
/// (a comparison reads them again when it asks). Path ids and offsets in a
/// document's text fit 32 bits (a forest holds at most 4 GiB of text).
#[derive(Debug, Clone, Copy)]
struct StoredLeaf {
    path: u32,
    node: NodeId,
    chars: u32,
    /// The normalised text, in the document's text ([`NO_TEXT`] at the
    /// start: none).
    norm: (u32, u32),
    present: bool,
    /// The prediction's confidence (SPEC §8.1), NaN for none.
    confidence: f64,
}

/// [`StoredLeaf::norm`] of a leaf without a normalised text.
const NO_TEXT: u32 = u32::MAX;

impl StoredLeaf {
    fn of(leaf: &Leaf<'_>) -> StoredLeaf {
        StoredLeaf {
            path: leaf.path as u32,
            node: leaf.value.id(),
            chars: leaf.chars,
            norm: leaf
                .norm
                .as_ref()
                .map_or((NO_TEXT, 0), |r| (r.start as u32, r.end as u32)),
            present: leaf.present,
            confidence: leaf.confidence.unwrap_or(f64::NAN),
        }
    }

    fn leaf(self, forest: &Forest) -> Leaf<'_> {
        let mut leaf = Leaf::new(self.path as PathId, forest.get(self.node), self.present);
        leaf.chars = self.chars;
        let (start, end) = self.norm;
        leaf.norm = (start != NO_TEXT).then_some(start as usize..end as usize);
        leaf.confidence = (!self.confidence.is_nan()).then_some(self.confidence);
        leaf
    }
}

/// Where one stored document's parts start in a [`StoredForest`].
#[derive(Debug, Clone, Copy, Default)]
struct DocStart {
    leaves: usize,
    lists: usize,
    items: usize,
    item_leaves: usize,
    text: usize,
}

/// Every document of one forest (the truth's, or a model's in the truth's
/// order) as [`FlatDoc`]s hold them, one after another: [`Self::load`]
/// gives back the document the flattening gave. Ranges inside a document
/// (lists, items, texts) are the document's own, as in a `FlatDoc`.
#[derive(Debug, Default)]
pub(super) struct StoredForest {
    /// Document `d`'s parts run from `starts[d]` to `starts[d + 1]`.
    starts: Vec<DocStart>,
    leaves: Vec<StoredLeaf>,
    lists: Vec<(PathId, Range<usize>)>,
    items: Vec<(Range<usize>, usize)>,
    item_leaves: Vec<StoredLeaf>,
    item_types: Vec<ValueType>,
    text: String,
}

impl StoredForest {
    pub(super) fn new() -> StoredForest {
        StoredForest {
            starts: vec![DocStart::default()],
            ..StoredForest::default()
        }
    }

    /// Appends the next document (`doc`; empty for a model with no
    /// prediction for it).
    pub(super) fn push(&mut self, doc: &FlatDoc<'_>) {
        self.leaves.extend(doc.leaves.iter().map(StoredLeaf::of));
        self.lists.extend(doc.lists.iter().cloned());
        self.items.extend(doc.items.iter().cloned());
        self.item_leaves
            .extend(doc.item_leaves.iter().map(StoredLeaf::of));
        self.item_types.extend_from_slice(&doc.item_types);
        self.text.push_str(&doc.text);
        self.starts.push(DocStart {
            leaves: self.leaves.len(),
            lists: self.lists.len(),
            items: self.items.len(),
            item_leaves: self.item_leaves.len(),
            text: self.text.len(),
        });
    }

    /// Appends every document of `other` (documents kept on another
    /// thread, in order), as if each had been pushed here.
    pub(super) fn append(&mut self, other: &StoredForest) {
        let base = self.starts.last().copied().unwrap_or_default();
        self.leaves.extend_from_slice(&other.leaves);
        self.lists.extend(other.lists.iter().cloned());
        self.items.extend(other.items.iter().cloned());
        self.item_leaves.extend_from_slice(&other.item_leaves);
        self.item_types.extend_from_slice(&other.item_types);
        self.text.push_str(&other.text);
        self.starts
            .extend(other.starts.iter().skip(1).map(|s| DocStart {
                leaves: base.leaves + s.leaves,
                lists: base.lists + s.lists,
                items: base.items + s.items,
                item_leaves: base.item_leaves + s.item_leaves,
                text: base.text + s.text,
            }));
    }

    /// Forgets every document, keeping the memory.
    pub(super) fn clear(&mut self) {
        self.starts.truncate(1);
        self.leaves.clear();
        self.lists.clear();
        self.items.clear();
        self.item_leaves.clear();
        self.item_types.clear();
        self.text.clear();
    }

    /// Documents pushed.
    pub(super) fn documents(&self) -> usize {
        self.starts.len() - 1
    }

    /// Makes room for `documents` in all, at the rate of those pushed so
    /// far plus a quarter (documents vary; room never written is never
    /// touched), so that the vectors are not copied as they grow.
    pub(super) fn reserve_for(&mut self, documents: usize) {
        let pushed = self.documents();
        if pushed == 0 || documents <= pushed {
            return;
        }
        let more = |len: usize| (len * (documents - pushed)).div_ceil(pushed) * 5 / 4;
        self.starts.reserve(documents - pushed);
        self.leaves.reserve(more(self.leaves.len()));
        self.lists.reserve(more(self.lists.len()));
        self.items.reserve(more(self.items.len()));
        self.item_leaves.reserve(more(self.item_leaves.len()));
        self.item_types.reserve(more(self.item_types.len()));
        self.text.reserve(more(self.text.len()));
    }

    /// About how many bytes it takes.
    pub(super) fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.starts.len() * size_of::<DocStart>()
            + (self.leaves.len() + self.item_leaves.len()) * size_of::<StoredLeaf>()
            + self.lists.len() * size_of::<(PathId, Range<usize>)>()
            + self.items.len() * size_of::<(Range<usize>, usize)>()
            + self.item_types.len() * size_of::<ValueType>()
            + self.text.len()
    }

    /// Document `d` into `doc`, its values in `forest` (the forest it was
    /// flattened from).
    pub(super) fn load<'a>(&self, d: usize, forest: &'a Forest, doc: &mut FlatDoc<'a>) {
        doc.clear();
        let (Some(a), Some(b)) = (self.starts.get(d), self.starts.get(d + 1)) else {
            return;
        };
        doc.leaves.extend(
            self.leaves[a.leaves..b.leaves]
                .iter()
                .map(|l| l.leaf(forest)),
        );
        doc.lists
            .extend(self.lists[a.lists..b.lists].iter().cloned());
        doc.items
            .extend(self.items[a.items..b.items].iter().cloned());
        doc.item_leaves.extend(
            self.item_leaves[a.item_leaves..b.item_leaves]
                .iter()
                .map(|l| l.leaf(forest)),
        );
        doc.item_types
            .extend_from_slice(&self.item_types[a.item_leaves..b.item_leaves]);
        doc.text.push_str(&self.text[a.text..b.text]);
    }
}

/// The pass over the documents that flattens them also keeps them, until
/// they take more than `limit` bytes.
pub(super) struct Storing {
    pub(super) forests: Vec<StoredForest>,
    pub(super) limit: usize,
    /// They outgrew the limit (and `forests` was emptied).
    pub(super) over: bool,
}

impl Storing {
    pub(super) fn new(forests: usize, limit: usize) -> Storing {
        Storing {
            forests: (0..forests).map(|_| StoredForest::new()).collect(),
            limit,
            over: false,
        }
    }

    /// Keeps `doc` as the next document of forest `f`.
    pub(super) fn push(&mut self, f: usize, doc: &FlatDoc<'_>) {
        if let Some(forest) = self.forests.get_mut(f) {
            forest.push(doc);
        }
    }

    /// Appends the documents of forest `f` kept on another thread.
    pub(super) fn append(&mut self, f: usize, other: &StoredForest) {
        if let Some(forest) = self.forests.get_mut(f) {
            forest.append(other);
        }
    }

    /// Makes room for `documents` in each forest at the rate of those
    /// kept so far (see [`StoredForest::reserve_for`]); gives up keeping
    /// them if at that rate they would take more than the limit.
    pub(super) fn reserve_for(&mut self, documents: usize) {
        let pushed = self.forests.first().map_or(0, |f| f.documents());
        let bytes: usize = self.forests.iter().map(StoredForest::bytes).sum();
        if pushed == 0 {
            return;
        }
        if bytes / pushed * documents > self.limit {
            self.over = true;
            self.forests = Vec::new();
            return;
        }
        for forest in &mut self.forests {
            forest.reserve_for(documents);
        }
    }

    /// After document `d` of `documents` was kept: makes room for the
    /// rest after the first [`RESERVE_AFTER`], and looks at the limit
    /// every 256.
    pub(super) fn after(&mut self, d: usize, documents: usize) {
        if d == RESERVE_AFTER {
            self.reserve_for(documents);
        }
        if d % 256 == 255 {
            self.check();
        }
    }

    /// Gives up keeping once the documents take more than the limit.
    pub(super) fn check(&mut self) {
        if !self.over && self.forests.iter().map(StoredForest::bytes).sum::<usize>() > self.limit {
            self.over = true;
            self.forests = Vec::new();
        }
    }
}

/// The documents the comparison pass keeps before it makes room for the
/// rest at their rate.
pub(super) const RESERVE_AFTER: usize = 64;
