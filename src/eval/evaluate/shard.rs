//! One document compared for every model ([`compare_doc`], the one
//! routine of both passes) and the comparison pass on several threads
//! ([`compare_parallel`], `--jobs N`).
//!
//! Owns: filling each model's [`DocOut`] (sibling `doc_out`: what one
//! document contributes, which `ModelRun::absorb` adds to a model's counts
//! and a partial result stores) and the batched pass over documents on the
//! caller's rayon pool. Depends on the siblings `pass`, `stored`,
//! `doc_out`, `record`.
//!
//! Why the report is byte-identical for every number of threads: each
//! document is compared exactly as the one-thread pass compares it (the
//! same routine, [`compare_doc`], which both passes call), into its own
//! [`DocOut`];
//! the [`DocOut`]s are then absorbed on the calling thread in the truth's
//! document order, so every floating-point sum (a field's Σ CER, a set
//! field's Σ scores) adds the same terms in the same order; everything
//! else is an integer count. The hand-off of one batch runs while the
//! pool compares the next, so memory beyond the one-thread pass is two
//! batches ([`CHUNK`] × [`CHUNKS_PER_THREAD`] × threads documents each) of
//! [`DocOut`]s (the units' path caches and buffers serve both) and, for a
//! source that is not resident (a streamed JSONL file), one batch's
//! records copied out of the file (the source's one-record forest cannot
//! be shared): at most `jobs × 64` documents of each file at once.
//!
//! Pure, like the rest of `eval`: the threads are the caller's (rayon's
//! current pool; the CLI installs one of `--jobs` threads); rayon is not
//! compiled for wasm32, where the pass is the one-thread one.

use super::doc_out::DocOut;
use super::pass::{all_resident, Docs, Pass, Sink};
use super::stored::StoredForest;
use super::{
    should_stop, F1Grid, FieldSet, FlatDoc, Pace, PathCache, Predictions, Progress, RecordSource,
    Truth, ValidityOracle,
};
use crate::error::{Error, ErrorKind};
use crate::eval::dataset::PredDocument;

use crate::eval::tree::{Forest, NodeId};

/// Documents per unit of work of the parallel pass. Small, so that a
/// batch's [`DocOut`]s (a few KB per document and model) stay in the
/// cores' caches until they are absorbed: 16 was faster than 64 and held
/// less memory (docs/partial-results.md).
pub const CHUNK: usize = 16;
/// Units of work per thread in one batch (so that a slow unit, one with
/// long line-item lists, does not leave the other threads idle). Two
/// batches are in flight (one compared, one handed on), so 4 keeps the
/// memory of the 8 that one batch at a time had (2026-12-05: peak RSS at
/// two jobs 94–97 MB without confidences against 107 MB with 8, as fast).
pub const CHUNKS_PER_THREAD: usize = 4;

/// The threads of the current pool (rayon's; 1 on wasm32).
pub(super) fn threads() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    {
        rayon::current_num_threads()
    }
    #[cfg(target_arch = "wasm32")]
    {
        1
    }
}

/// `work` of every item on the current pool, the results in order.
pub(super) fn on_pool<T: Send, R: Send>(
    items: Vec<T>,
    work: impl Fn(T) -> R + Sync + Send,
) -> Vec<R> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        items.into_par_iter().map(work).collect()
    }
    #[cfg(target_arch = "wasm32")]
    {
        items.into_iter().map(work).collect()
    }
}

/// `a()` and `b()`, side by side on a pool of more than one thread
/// (native only), else one after the other.
pub(super) fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(not(target_arch = "wasm32"))]
    if threads() > 1 {
        return rayon::join(a, b);
    }
    (a(), b())
}

/// One unit of work: a run of documents, with its own buffers, path
/// caches and (for sources that are not resident) copies of its records.
#[derive(Default)]
struct Unit {
    start: usize,
    /// Per document: the truth root, then each model's payload root.
    roots: Vec<(NodeId, Vec<Option<NodeId>>)>,
    /// Copies of the records, one forest per file (when not resident).
    copies: Vec<Forest>,
    /// One path cache per forest (the source's or the copy's).
    caches: Vec<PathCache>,
    buffers: Buffers,
    /// Per document, per model.
    outs: Vec<Vec<DocOut>>,
    /// The unit's documents flattened, one per forest, when the pass
    /// keeps them (a [`Storing`](super::stored::Storing); empty otherwise).
    kept: Vec<StoredForest>,
}

/// The comparison pass on the current pool's threads, in batches: the
/// calling thread fetches a batch's records (copying them when a source
/// is not resident), the threads compare its units, and the calling thread
/// hands each document's [`DocOut`]s to `sink` in order — and, when the
/// pass keeps the flattened documents ([`Docs::Flatten`] with a
/// [`Storing`](super::stored::Storing)), adds each unit's to them in order.
/// A batch is handed on while the pool compares the next one, so the
/// other threads do not wait for the hand-off (which adds every pair and
/// count to the models' runs: 1–3 % of a one-thread run).
#[allow(clippy::too_many_arguments)]
pub(super) async fn compare_parallel<S: RecordSource, V: ValidityOracle>(
    truth: &mut Truth<S>,
    inputs: &mut [(String, Option<f64>, Predictions<S>)],
    pass: &Pass<'_, '_>,
    docs: Docs<'_>,
    oracle: &V,
    pace: &mut dyn Pace,
    progress: Progress,
    sink: &mut Sink<'_>,
) -> Result<Option<()>, Error> {
    let documents = truth.documents.len();
    let models = inputs.len();
    let forests = models + 1;
    let resident = all_resident(truth, inputs);
    let (stored, mut storing) = match docs {
        Docs::Load(stored) => (Some(stored), None),
        Docs::Flatten(storing) => (None, storing),
    };
    if (stored.is_some() || storing.is_some()) && !resident {
        return Err(Error::new(
            ErrorKind::Input,
            "stored documents need resident files",
        ));
    }
    let per_batch = threads().max(1) * CHUNKS_PER_THREAD;
    let new_kept = || -> Vec<StoredForest> {
        match storing {
            Some(_) => (0..forests).map(|_| StoredForest::new()).collect(),
            None => Vec::new(),
        }
    };
    let mut units: Vec<Unit> = (0..per_batch)
        .map(|_| Unit {
            copies: if resident {
                Vec::new()
            } else {
                (0..forests).map(|_| Forest::default()).collect()
            },
            caches: (0..forests).map(|_| PathCache::default()).collect(),
            kept: new_kept(),
            ..Unit::default()
        })
        .collect();
    // The batch compared last, waiting to be handed on while the pool
    // compares the next: each unit's results, moved out of it.
    let mut compared: Vec<Compared> = (0..per_batch)
        .map(|_| Compared {
            start: 0,
            outs: Vec::new(),
            kept: new_kept(),
        })
        .collect();
    let mut waiting = 0;
    let mut start = 0;
    loop {
        let done = progress.start + progress.span * forests * start;
        if should_stop(pace, done, progress.total).await {
            return Ok(None);
        }
        // Fetch (and, from a file, copy) the next batch's records in order.
        let mut used = 0;
        for unit in &mut units {
            if start >= documents {
                break;
            }
            let end = (start + CHUNK).min(documents);
            unit.start = start;
            unit.roots.clear();
            for forest in &mut unit.copies {
                forest.clear_values();
            }
            for d in start..end {
                let root = truth.fetch(d)?;
                let root = match unit.copies.first_mut() {
                    Some(copy) => copy_record(copy, truth.source.forest(), root)?,
                    None => root,
                };
                let mut preds = Vec::with_capacity(models);
                for (m, (_, _, p)) in inputs.iter_mut().enumerate() {
                    let root = match p.fetch(d)? {
                        Some(root) => match unit.copies.get_mut(m + 1) {
                            Some(copy) => Some(copy_record(copy, p.source.forest(), root)?),
                            None => Some(root),
                        },
                        None => None,
                    };
                    preds.push(root);
                }
                unit.roots.push((root, preds));
            }
            start = end;
            used += 1;
        }
        if used == 0 && waiting == 0 {
            break;
        }
        // Compare the batch on the pool's threads while this thread hands
        // on the batch before it.
        let truth_forest = truth.source.forest();
        let truth_docs = &truth.documents;
        let model_views: Vec<(&Forest, &[Option<PredDocument>])> = inputs
            .iter()
            .map(|(_, _, p)| (p.source.forest(), p.by_truth.as_slice()))
            .collect();
        let work = |unit: &mut Unit| {
            compare_unit(unit, truth_forest, &model_views, pass, stored, oracle);
        };
        let mut hand_on = || {
            for c in &mut compared[..waiting] {
                if let Some(storing) = storing.as_deref_mut() {
                    for (f, kept) in c.kept.iter_mut().enumerate() {
                        storing.append(f, kept);
                        kept.clear();
                    }
                }
                for (i, outs) in c.outs.iter_mut().enumerate() {
                    let d = c.start + i;
                    sink(d, &truth_docs[d].id, outs)?;
                    if let Some(storing) = storing.as_deref_mut() {
                        storing.after(d, documents);
                    }
                }
            }
            Ok::<(), Error>(())
        };
        #[cfg(not(target_arch = "wasm32"))]
        let handed = rayon::in_place_scope(|scope| {
            let work = &work;
            for unit in &mut units[..used] {
                scope.spawn(move |_| work(unit));
            }
            hand_on()
        });
        #[cfg(target_arch = "wasm32")]
        let handed = {
            units[..used].iter_mut().for_each(work);
            hand_on()
        };
        handed?;
        // The batch just compared waits for the next round; its units
        // take the handed-on buffers back for their next documents.
        for (unit, c) in units[..used].iter_mut().zip(&mut compared) {
            c.start = unit.start;
            std::mem::swap(&mut c.outs, &mut unit.outs);
            std::mem::swap(&mut c.kept, &mut unit.kept);
        }
        waiting = used;
    }
    if let Some(storing) = storing {
        storing.check();
    }
    Ok(Some(()))
}

/// One unit's results of the batch compared last, until they are handed
/// on: its first document, per document and model its [`DocOut`], and its
/// documents flattened (when the pass keeps them).
struct Compared {
    start: usize,
    outs: Vec<Vec<DocOut>>,
    kept: Vec<StoredForest>,
}

/// Copies record `root` of `from` into `to` (a batch's copy of a record
/// read from a file); a copy of the same value, node for node.
fn copy_record(to: &mut Forest, from: &Forest, root: NodeId) -> Result<NodeId, Error> {
    to.add_json(from.get(root))
        .map_err(|e| Error::new(ErrorKind::Input, e.to_string()))
}

/// Compares the documents of one unit, as the one-thread pass does
/// ([`compare_doc`]), each into its own [`DocOut`]s.
fn compare_unit<V: ValidityOracle>(
    unit: &mut Unit,
    truth_forest: &Forest,
    models: &[(&Forest, &[Option<PredDocument>])],
    pass: &Pass<'_, '_>,
    stored: Option<&[StoredForest]>,
    oracle: &V,
) {
    let Unit {
        start,
        roots,
        copies,
        caches,
        buffers,
        outs,
        kept,
    } = unit;
    outs.resize_with(roots.len(), Vec::new);
    let mut docs: Vec<ModelDoc<'_>> = Vec::with_capacity(models.len());
    for (i, (root, preds)) in roots.iter().enumerate() {
        let d = *start + i;
        let forest = copies.first().unwrap_or(truth_forest);
        docs.clear();
        docs.extend(
            models
                .iter()
                .enumerate()
                .map(|(m, (source_forest, by_truth))| ModelDoc {
                    forest: copies.get(m + 1).unwrap_or(source_forest),
                    root: preds[m],
                    prediction: by_truth[d].as_ref(),
                }),
        );
        let doc_outs = &mut outs[i];
        doc_outs.resize_with(models.len(), DocOut::default);
        let mut keep = |f: usize, doc: &FlatDoc<'_>| {
            if let Some(kept) = kept.get_mut(f) {
                kept.push(doc);
            }
        };
        compare_doc(
            pass,
            d,
            (forest, *root),
            &docs,
            stored,
            caches,
            buffers,
            oracle,
            &mut keep,
            doc_outs,
        );
    }
}

/// The buffers one document's comparison reuses: the flattened truth and
/// prediction, the item F1 grid and a document's own field set (several
/// schemas, SPEC §7.2).
#[derive(Default)]
pub(super) struct Buffers {
    truth: FlatDoc<'static>,
    pred: FlatDoc<'static>,
    grid: F1Grid,
    own_plan: FieldSet,
}

/// One model's side of a document: the forest its payload is read from,
/// the payload's root and the prediction (`None`: the model has no
/// prediction for the document).
pub(super) struct ModelDoc<'a> {
    pub forest: &'a Forest,
    pub root: Option<NodeId>,
    pub prediction: Option<&'a PredDocument>,
}

/// Document `d` compared for every model: the one routine of both passes
/// (the one-thread pass of `comparison::compare_pass` and [`compare_unit`]),
/// so that a document's [`DocOut`]s are the same whatever the number of
/// threads. The truth's document (at `truth`) is loaded from `stored` or
/// flattened (with `caches[0]`), then each model's (with `caches[m + 1]`),
/// its payload's validity asked of `oracle`; each model's comparison goes
/// into `outs[m]` with the document's slices noted. `keep` sees every
/// flattened document in order (forest 0 the truth, m + 1 model m), for a
/// pass that keeps them.
#[allow(clippy::too_many_arguments)]
pub(super) fn compare_doc<V: ValidityOracle>(
    pass: &Pass<'_, '_>,
    d: usize,
    truth: (&Forest, NodeId),
    models: &[ModelDoc<'_>],
    stored: Option<&[StoredForest]>,
    caches: &mut [PathCache],
    buffers: &mut Buffers,
    oracle: &V,
    keep: &mut dyn FnMut(usize, &FlatDoc<'_>),
    outs: &mut [DocOut],
) {
    let paths = pass.paths;
    let comparer = pass.comparer;
    let scheme = &paths.scheme;
    let recorder = pass.recorder();
    let (truth_cache, model_caches) = caches.split_at_mut(1);
    let truth_cache = &mut truth_cache[0];
    let (forest, root) = truth;
    let mut truth_doc = std::mem::take(&mut buffers.truth).recycle();
    let own = paths.own(d);
    match stored {
        Some(stored) => stored[0].load(d, forest, &mut truth_doc),
        None => paths.flatten_doc(
            comparer,
            forest,
            root,
            &mut truth_doc,
            truth_cache,
            None,
            own,
        ),
    }
    keep(0, &truth_doc);
    let truth_sides = truth_doc.item_sides();
    let truth_record = forest.get(root);
    for (m, ((model, cache), out)) in models
        .iter()
        .zip(model_caches.iter_mut())
        .zip(outs.iter_mut())
        .enumerate()
    {
        let mut pred_doc = std::mem::take(&mut buffers.pred).recycle();
        let forest = model.forest;
        let valid = match (model.root, model.prediction) {
            (Some(root), Some(p)) => {
                match stored {
                    Some(stored) => stored[m + 1].load(d, forest, &mut pred_doc),
                    None => paths.flatten_doc(
                        comparer,
                        forest,
                        root,
                        &mut pred_doc,
                        cache,
                        p.skip(),
                        own,
                    ),
                }
                let skip = |k: &str| !p.is_evaluated(scheme, k);
                oracle.is_valid(m, d, paths.own_index(d), forest, root, &skip)
            }
            _ => false,
        };
        keep(m + 1, &pred_doc);
        recorder.compare_document(
            &pass.fields[m],
            own,
            &mut buffers.own_plan,
            &truth_doc,
            &truth_sides,
            &pred_doc,
            &mut buffers.grid,
            valid,
            model.prediction.is_some(),
            out,
        );
        pass.note_slices(d, truth_record, out);
        buffers.pred = pred_doc.recycle();
    }
    drop(truth_sides);
    buffers.truth = truth_doc.recycle();
}
