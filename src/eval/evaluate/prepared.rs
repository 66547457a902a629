//! Evaluating the same files again under other settings without redoing
//! what those settings cannot change: [`Prepared`].
//!
//! Owns: the work an evaluation of resident files ([`DocFile`]s) does
//! before it compares anything — the files themselves (the models' raw
//! output parsed into them, SPEC §1.3), the documents matched by id (SPEC
//! §1.1), the paths and their kinds (SPEC §1.2) and every document
//! flattened and normalised (SPEC §2.1, [`StoredForest`]) — kept so that
//! an evaluation whose settings differ only in how values are compared and
//! scores computed (the match method and thresholds, `incorrect_counts_as`,
//! the averaging rules, the weights: everything [`prepare_settings`]
//! resets) runs the comparison pass alone. The browser app keeps one for
//! its files, so a settings change re-evaluates in about half the time.
//! The flattened documents are not kept by the first evaluation (whose
//! report should come as soon as it can) but a slice at a time while the
//! page is idle after it ([`Prepared::keep_documents`]), or else by the
//! second evaluation as it compares.
//! The report is the same as a fresh evaluation's (a test compares them
//! for every setting). Pure, like the rest of `eval`; depends on the
//! parent module's passes.

use super::{
    compare_paced, learn_paced, Comparer, Docs, EvalInput, FlatDoc, Known, Learnt, Progress,
    SchemaValidity, COMPARE_FLATTENING, COMPARE_STORED, LEARN,
};
use crate::error::{Error, ErrorKind};
use crate::eval::compare::ValueType;
use crate::eval::config::Config;
use crate::eval::model::DocFile;
use crate::eval::pace::Pace;
use crate::eval::paths::{Leaf, PathId};
use crate::eval::report::Report;
use crate::eval::source::RecordSource;
use crate::eval::tree::{Forest, NodeId};
use std::ops::Range;
use std::sync::Arc;

/// The most the flattened documents may take (an estimate of their
/// bytes): beyond it they are not kept, and each evaluation flattens the
/// documents again as it compares them. They take about 1.6 times the
/// JSON text: 75 MB for the 47 MB of 10,000 invoices × 3 models; a 400 MB
/// dataset, whose files already take about 1 GB of the page's memory,
/// would need some 650 MB more.
pub const STORED_LIMIT_BYTES: usize = 256 << 20;

/// The settings an evaluation reads before it compares anything: `config`
/// with every key that only the comparison and the scores read set to its
/// default (the preset too, which only sets such keys). Two configurations
/// with the same prepare settings give the same [`Prepared`] work. A key
/// added to [`Config`] later counts as read before comparing until it is
/// listed here, which can only cost reuse, never correctness.
pub fn prepare_settings(config: &Config) -> Config {
    let defaults = Config::default();
    Config {
        preset: defaults.preset,
        numeric_tolerance: defaults.numeric_tolerance,
        string_match: defaults.string_match,
        partial_matching: defaults.partial_matching,
        incorrect_counts_as: defaults.incorrect_counts_as,
        zero_division: defaults.zero_division,
        empty_document_score: defaults.empty_document_score,
        macro_f1: defaults.macro_f1,
        item_f1_threshold: defaults.item_f1_threshold,
        top_k: defaults.top_k,
        document_extraction_score: defaults.document_extraction_score,
        field_weights: defaults.field_weights,
        ..config.clone()
    }
}

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

/// What an evaluation of shared resident files does before comparing —
/// the files with raw output parsed in, the ids, the paths and kinds —
/// and every document flattened (kept by [`Prepared::keep_documents`] or
/// by the second evaluation), for the
/// next evaluation of the same files and model names under settings with
/// the same [`prepare_settings`].
pub struct Prepared {
    settings: Config,
    learnt: Learnt<Arc<DocFile>>,
    stored: Stored,
    /// The most the flattened documents may take, in bytes.
    stored_limit: usize,
    has_schema: bool,
    /// No evaluation has run yet: the first one's progress continues the
    /// preparation's.
    fresh: bool,
}

/// The flattened documents of a [`Prepared`].
enum Stored {
    /// Not yet: the next evaluation but the first flattens them as it
    /// compares them, and keeps them (the first leaves them to
    /// [`Prepared::keep_documents`], so that its report comes sooner).
    Pending,
    /// Being kept by [`Prepared::keep_documents`]: those before `next`.
    /// An evaluation meanwhile starts again as for `Pending`.
    Partial { storing: Storing, next: usize },
    /// Every document of every forest.
    Kept(Vec<StoredForest>),
    /// Over the limit: each evaluation flattens them again.
    TooLarge,
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("documents", &self.learnt.truth.documents.len())
            .field("models", &self.learnt.models.len())
            .field("stored", &self.stored_bytes())
            .finish()
    }
}

/// Prepares `input` under `config`: the passes before the comparison (the
/// flattened documents are kept later, by [`Prepared::keep_documents`] or
/// the second evaluation, if they take at most `stored_limit` bytes:
/// [`STORED_LIMIT_BYTES`] in the app). Asks `pace` between documents whether to wait or stop
/// (`None`: stopped); its progress counts the first evaluation's too.
/// Errors: those of the evaluation's reading of the files.
pub async fn prepare_paced(
    input: EvalInput<Arc<DocFile>>,
    config: &Config,
    stored_limit: usize,
    pace: &mut dyn Pace,
) -> Option<Result<Prepared, Error>> {
    let comparer = Comparer::new(config);
    let has_schema = input.schema.is_some() || !input.schemas.is_empty();
    let size = input.truth.len() * (input.models.len() + 1);
    let total = (LEARN + COMPARE_FLATTENING) * size;
    let learnt = match learn_paced(input, &comparer, pace, total).await {
        Ok(Some(learnt)) => learnt,
        Ok(None) => return None,
        Err(e) => return Some(Err(e)),
    };
    Some(Ok(Prepared {
        settings: prepare_settings(config),
        learnt,
        stored: Stored::Pending,
        stored_limit,
        has_schema,
        fresh: true,
    }))
}

impl Prepared {
    /// Whether an evaluation under `config` can reuse this work (of the
    /// same files and model names): the same [`prepare_settings`].
    pub fn fits(&self, config: &Config) -> bool {
        self.settings == prepare_settings(config)
    }

    /// About how many bytes the flattened documents take (0 when they are
    /// not kept).
    pub fn stored_bytes(&self) -> usize {
        match &self.stored {
            Stored::Kept(forests) => forests.iter().map(StoredForest::bytes).sum(),
            Stored::Pending | Stored::Partial { .. } | Stored::TooLarge => 0,
        }
    }

    /// The evaluation of the prepared files under `config` (which must
    /// [`fit`](Self::fits)) with each model's cost as given (SPEC §3.6;
    /// `None`: the records' costs), the schema validity known beforehand
    /// as for `evaluate_owned_known`: the same report as
    /// `evaluate_owned_known` of the same files. Asks `pace` between
    /// documents whether to wait or stop (`None`: stopped).
    pub async fn evaluate_paced(
        &mut self,
        costs: &[Option<f64>],
        config: &Config,
        details: bool,
        validity: &SchemaValidity,
        pace: &mut dyn Pace,
    ) -> Option<Result<Report, Error>> {
        if !self.fits(config) || costs.len() != self.learnt.models.len() {
            return Some(Err(Error::new(
                ErrorKind::Input,
                "the evaluation was prepared for other settings or models",
            )));
        }
        if self.has_schema && *validity == SchemaValidity::NoSchema {
            return Some(Err(Error::new(
                ErrorKind::Input,
                "the schema validity of these files has not been computed",
            )));
        }
        for (model, &cost) in self.learnt.models.iter_mut().zip(costs) {
            model.1 = cost;
        }
        let size = self.learnt.size();
        let span = match self.stored {
            Stored::Kept(_) => COMPARE_STORED,
            Stored::Pending | Stored::Partial { .. } | Stored::TooLarge => COMPARE_FLATTENING,
        };
        let first = std::mem::take(&mut self.fresh);
        let before = if first { LEARN } else { 0 };
        let progress = Progress {
            start: before * size,
            span,
            total: (before + span) * size,
        };
        let comparer = Comparer::new(config);
        let mut storing = match self.stored {
            Stored::Pending | Stored::Partial { .. } if !first => Some(Storing::new(
                self.learnt.models.len() + 1,
                self.stored_limit,
            )),
            _ => None,
        };
        let docs = match (&self.stored, &mut storing) {
            (Stored::Kept(forests), _) => Docs::Load(forests),
            (_, storing) => Docs::Flatten(storing.as_mut()),
        };
        let report = compare_paced(
            &mut self.learnt,
            docs,
            &comparer,
            details,
            &Known(validity),
            pace,
            progress,
        )
        .await;
        if let (Ok(Some(_)), Some(storing)) = (&report, storing) {
            self.stored = if storing.over {
                Stored::TooLarge
            } else {
                Stored::Kept(storing.forests)
            };
        }
        report.transpose()
    }

    /// Keeps the flattened documents for the next evaluations, up to
    /// `documents` more documents of every forest at a time (the browser
    /// app calls it while the page is idle after the first report). `true`
    /// when there is nothing more to do: every document kept, or over the
    /// limit, or kept already.
    pub fn keep_documents(&mut self, documents: usize) -> bool {
        let total = self.learnt.truth.documents.len();
        let (mut storing, next) = match std::mem::replace(&mut self.stored, Stored::TooLarge) {
            Stored::Pending => (
                Storing::new(self.learnt.models.len() + 1, self.stored_limit),
                0,
            ),
            Stored::Partial { storing, next } => (storing, next),
            done => {
                self.stored = done;
                return true;
            }
        };
        // Flattened as the evaluation flattens them (only the settings
        // kept read by flattening).
        let comparer = Comparer::new(&self.settings);
        let end = total.min(next + documents.max(1));
        let kept = store_documents(&mut self.learnt, &comparer, &mut storing, next..end);
        if end == total {
            storing.check();
        }
        self.stored = match kept {
            _ if storing.over => Stored::TooLarge,
            // A source's read error (none for resident files): leave it to
            // the evaluations.
            Err(_) => Stored::Pending,
            Ok(()) if end == total => Stored::Kept(storing.forests),
            Ok(()) => Stored::Partial { storing, next: end },
        };
        !matches!(self.stored, Stored::Partial { .. })
    }
}

/// Flattens documents `range` of every forest into `storing` (in the
/// truth's order, each forest's documents one after another).
fn store_documents(
    learnt: &mut Learnt<Arc<DocFile>>,
    comparer: &Comparer<'_>,
    storing: &mut Storing,
    range: std::ops::Range<usize>,
) -> Result<(), Error> {
    let total = learnt.truth.documents.len();
    let Learnt {
        truth,
        models,
        paths,
        caches,
        ..
    } = learnt;
    let mut buf = FlatDoc::default();
    for d in range {
        if storing.over {
            break;
        }
        for (f, cache) in caches.iter_mut().enumerate() {
            let mut doc = buf.recycle();
            if f == 0 {
                let root = truth.fetch(d)?;
                let forest = truth.source.forest();
                paths.flatten_doc(comparer, forest, root, &mut doc, cache, None, paths.own(d));
            } else {
                let preds = &mut models[f - 1].2;
                if let Some(root) = preds.fetch(d)? {
                    let skip = preds.by_truth[d].as_ref().and_then(|p| p.skip());
                    let forest = preds.source.forest();
                    let own = paths.own(d);
                    paths.flatten_doc(comparer, forest, root, &mut doc, cache, skip, own);
                }
            }
            storing.push(f, &doc);
            buf = doc.recycle();
        }
        storing.after(d, total);
    }
    Ok(())
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
