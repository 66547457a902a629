//! The passes before the comparison on several threads (`--jobs N`),
//! learning exactly what the parent's one-thread passes learn.
//!
//! Owns: [`read_models`] (the ids pass of the prediction files, SPEC
//! §1.1: one file per thread, each read against the truth, which it only
//! reads; the warnings then taken in model order), [`note_tops`] (the
//! kinds pass of SPEC §1.2: every forest's documents, the truth's first)
//! and [`note_items`] (the item fields, once kinds are final). The last
//! two cut the work into shares — one forest's run of consecutive
//! documents — that the current rayon pool notes into fresh [`Paths`] of
//! their own, then added to the dataset's paths one after the other in
//! the one-thread pass's order ([`Paths::then`]).
//!
//! Why that is the one-thread result: a path's id is its place in the
//! order paths are first seen, and the shares, taken in order, see them
//! in that order; a path's kind is the first one a present value
//! suggests, which is the first share's that has one (a schema's kind,
//! noted before, comes first still); presence is an "or"; §7.4's tallies
//! follow [`PathTally::then`](crate::eval::suggest::PathTally::then),
//! exact for any cut. The kinds passes run here only for resident
//! sources (every root known without reading) and one schema or none
//! (several schemas choose each document's schema in the kinds pass, in
//! order); otherwise the parent runs its one-thread passes. Pure:
//! rayon's current pool is the caller's; rayon is not compiled for
//! wasm32, where the parent never calls this module (one thread).

use super::fields::Paths;
use super::shard::on_pool;
use super::ModelInput;
use crate::error::{Error, ErrorKind};
use crate::eval::compare::Comparer;
use crate::eval::dataset::{read_predictions_paced, Predictions, Progress, Truth};
use crate::eval::pace::{run_now, NoPause};
use crate::eval::paths::{PathCache, PathId};
use crate::eval::source::RecordSource;
use crate::eval::tree::{Forest, NodeId};

/// An item list a record holds: (document, list path, list node); see
/// [`Paths::note_top`].
pub(super) type ListAt = (usize, PathId, NodeId);

/// A model as the passes read it: its name, its cost and its predictions.
pub(super) type ModelRead<S> = (String, Option<f64>, Predictions<S>);

/// One forest's documents, as the kinds pass reads them: the forest, and
/// per document its root (`None`: no prediction) and its fallback id key
/// (SPEC §1.1: not a field of that record).
struct Records<'f> {
    forest: &'f Forest,
    /// `None` for the truth, `Some(m)` for model `m`.
    source: Option<usize>,
    docs: Vec<Option<(NodeId, Option<&'static str>)>>,
}

/// The ids pass of every prediction file (SPEC §1.1), one file per
/// thread of the current pool: what the parent's one-thread loop reads,
/// the warnings added to `warnings` in model order, the first error in
/// model order returned.
pub(super) fn read_models<S: RecordSource>(
    models: Vec<ModelInput<S>>,
    truth: &Truth<S>,
    warnings: &mut Vec<String>,
) -> Result<Vec<ModelRead<S>>, Error> {
    let read = on_pool(models, |m| {
        let mut said = Vec::new();
        let read = run_now(read_predictions_paced(
            &m.name,
            m.file,
            truth,
            &mut said,
            &mut NoPause,
            Progress::NONE,
        ));
        (m.name, m.cost, read, said)
    });
    let mut inputs = Vec::with_capacity(read.len());
    for (name, cost, read, said) in read {
        let paused = || Error::new(ErrorKind::Input, "the evaluation was paused");
        let preds = read.ok_or_else(paused)??.ok_or_else(paused)?;
        warnings.extend(said);
        inputs.push((name, cost, preds));
    }
    Ok(inputs)
}

/// Whether the passes of this module can run: more than one thread,
/// every file resident, one schema or none.
pub(super) fn applies<S: RecordSource>(
    threads: usize,
    truth: &Truth<S>,
    models: &[ModelRead<S>],
    several: bool,
) -> bool {
    threads > 1 && !several && super::pass::all_resident(truth, models)
}

/// The kinds pass of every forest on the current pool: `paths` learns
/// what the parent's one-thread pass over the truth, then each model,
/// teaches it. Returns the item lists of the truth and of each model, in
/// document order, with the dataset's path ids.
pub(super) fn note_tops<S: RecordSource>(
    paths: &mut Paths,
    comparer: &Comparer<'_>,
    truth: &mut Truth<S>,
    models: &mut [ModelRead<S>],
    threads: usize,
) -> Result<(Vec<ListAt>, Vec<Vec<ListAt>>), Error> {
    let documents = truth.documents.len();
    let mut truth_docs = Vec::with_capacity(documents);
    for d in 0..documents {
        truth_docs.push(Some((truth.fetch(d)?, None)));
    }
    let mut model_docs = Vec::with_capacity(models.len());
    for (_, _, preds) in models.iter_mut() {
        let mut docs = Vec::with_capacity(documents);
        for d in 0..documents {
            let skip = preds.by_truth[d].as_ref().and_then(|p| p.skip());
            docs.push(preds.fetch(d)?.map(|root| (root, skip)));
        }
        model_docs.push(docs);
    }
    let mut forests = vec![Records {
        forest: truth.source.forest(),
        source: None,
        docs: truth_docs,
    }];
    for (m, ((_, _, preds), docs)) in models.iter().zip(model_docs).enumerate() {
        forests.push(Records {
            forest: preds.source.forest(),
            source: Some(m),
            docs,
        });
    }
    let size = share_size(documents, threads);
    let shares: Vec<(usize, std::ops::Range<usize>)> = (0..forests.len())
        .flat_map(|f| {
            (0..documents)
                .step_by(size)
                .map(move |start| (f, start..(start + size).min(documents)))
        })
        .collect();
    let base = &*paths;
    let learnt = on_pool(shares.iter().collect(), |(f, range)| {
        let records = &forests[*f];
        let mut share = base.share();
        let mut cache = PathCache::default();
        let mut lists = Vec::new();
        for d in range.clone() {
            if let Some((root, skip)) = records.docs[d] {
                share.note_top(
                    comparer,
                    records.forest,
                    root,
                    records.source,
                    &mut cache,
                    &mut lists,
                    skip,
                    d,
                );
            }
        }
        (share, lists)
    });
    let mut truth_lists = Vec::new();
    let mut model_lists = vec![Vec::new(); models.len()];
    for ((f, _), (share, lists)) in shares.iter().zip(learnt) {
        let ids = paths.then(share);
        let to = match f {
            0 => &mut truth_lists,
            m => &mut model_lists[m - 1],
        };
        to.extend(lists.into_iter().map(|(d, p, v)| (d, ids[p], v)));
    }
    Ok((truth_lists, model_lists))
}

/// The item-fields pass on the current pool, once kinds are final:
/// `paths` learns what the parent's one-thread pass over `truth_lists`,
/// then each model's lists, teaches it.
pub(super) fn note_items<S: RecordSource>(
    paths: &mut Paths,
    comparer: &Comparer<'_>,
    truth: &Truth<S>,
    models: &[ModelRead<S>],
    truth_lists: &[ListAt],
    model_lists: &[Vec<ListAt>],
    threads: usize,
) {
    let mut all: Vec<(&Forest, Option<usize>, &[ListAt])> =
        vec![(truth.source.forest(), None, truth_lists)];
    for (m, ((_, _, preds), lists)) in models.iter().zip(model_lists).enumerate() {
        all.push((preds.source.forest(), Some(m), lists));
    }
    // Shares of whole documents: the lists of one document stay together.
    let mut shares = Vec::new();
    for (f, (_, _, lists)) in all.iter().enumerate() {
        let size = share_size(lists.len(), threads);
        let mut start = 0;
        while start < lists.len() {
            let mut end = (start + size).min(lists.len());
            while end < lists.len() && lists[end].0 == lists[end - 1].0 {
                end += 1;
            }
            shares.push((f, start..end));
            start = end;
        }
    }
    let base = &*paths;
    let learnt = on_pool(shares.iter().collect(), |(f, range)| {
        let (forest, source, lists) = all[*f];
        let mut share = base.share_with_kinds();
        let mut cache = PathCache::default();
        for doc in lists[range.clone()].chunk_by(|a, b| a.0 == b.0) {
            share.note_items(comparer, forest, doc, source, &mut cache);
        }
        share
    });
    for share in learnt {
        paths.then(share);
    }
}

/// Documents (or lists) per share: about four shares per thread, so that
/// a slow share does not leave the other threads idle, and not fewer than
/// 64 (the cost of a share's fresh paths).
fn share_size(n: usize, threads: usize) -> usize {
    n.div_ceil(threads.max(1) * 4).max(64)
}
