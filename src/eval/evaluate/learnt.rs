//! The passes before the comparison: the documents matched by id (SPEC
//! §1.1), the paths and their kinds (SPEC §1.2), several schemas' choices
//! (SPEC §7.2), the warnings and suggestions so far — all kept in
//! [`Learnt`], on one thread or several (`learn_threads`).
//!
//! Owns: [`Learnt`] and [`learn_paced`]. Depends on `input`, `fields`, `several_paths`,
//! `learn_threads` and `shard` (the pool's threads); never on how values
//! are compared or scores averaged.

use super::fields::{note_schema, Paths};
use super::input::{settle_schemas, EvalInput};
use super::{learn_threads, several_paths, shard};
use crate::error::Error;
use crate::eval::compare::Comparer;
use crate::eval::dataset::{
    read_predictions_paced, read_truth_paced, Predictions, Progress, Truth,
};
use crate::eval::pace::{should_stop, Pace};
use crate::eval::paths::{read_schema, Ignored, PathCache, PathTable, SchemaInfo};
use crate::eval::report::Suggestion;
use crate::eval::source::{same_records, RecordSource};

/// What the passes before the comparison learn of the files: the
/// documents matched by id (SPEC §1.1), the paths and their kinds (SPEC
/// §1.2), and the warnings so far. It depends on the files, the model
/// names and the settings [`prepare_settings`] keeps, never on how values
/// are compared or scores averaged.
pub(super) struct Learnt<S> {
    pub(super) truth: Truth<S>,
    /// Each model's name, cost and predictions.
    pub(super) models: Vec<(String, Option<f64>, Predictions<S>)>,
    pub(super) warnings: Vec<String>,
    /// SPEC §7.4, decided once the paths are known.
    pub(super) suggestions: Vec<Suggestion>,
    pub(super) paths: Paths,
    /// One path cache per forest: the truth's, then each model's.
    pub(super) caches: Vec<PathCache>,
}

impl<S: RecordSource> Learnt<S> {
    /// Truth records × forests: what the work units are counted in.
    pub(super) fn size(&self) -> usize {
        self.truth.source.len() * (self.models.len() + 1)
    }
}

/// The passes before the comparison: the ids (one unit per record and
/// file), then the paths and kinds (one per document and forest), the
/// units counted from 0 of `total`.
pub(super) async fn learn_paced<S: RecordSource>(
    input: EvalInput<S>,
    comparer: &Comparer<'_>,
    pace: &mut dyn Pace,
    total: usize,
) -> Result<Option<Learnt<S>>, Error> {
    let config = comparer.config;
    let mut warnings = Vec::new();
    let mut input = input;
    settle_schemas(&mut input, config.schema_by.as_deref())?;
    let EvalInput {
        truth: mut truth_file,
        mut models,
        schema,
        schemas,
    } = input;

    let truth_name = truth_file.name().to_owned();
    for m in &mut models {
        if same_records(&mut m.file, &mut truth_file)? {
            warnings.push(format!(
                "{} ({}): the predictions are the ground truth's records, exactly as in {truth_name}; was the truth file given as a prediction file by mistake?",
                m.file.name(), m.name
            ));
        }
    }
    let records = truth_file.len();
    let forests = models.len() + 1;
    let in_pass = |start: usize| Progress {
        start,
        span: records,
        total,
    };
    let id_field = config.id_field.as_deref();
    let read = read_truth_paced(truth_file, id_field, &mut warnings, pace, in_pass(0)).await?;
    let Some(mut truth) = read else {
        return Ok(None);
    };
    truth.scheme.confidence_key = config.confidence.key.clone();
    if truth.documents.is_empty() {
        warnings.push(format!("{truth_name}: the ground truth has no records"));
    }
    let mut names = std::collections::HashSet::new();
    for m in &models {
        if !names.insert(m.name.as_str()) {
            warnings.push(format!(
                "two models are named {:?}; give each a distinct name",
                m.name
            ));
        }
    }
    let threads = shard::threads();
    let mut inputs: Vec<(String, Option<f64>, Predictions<S>)> = if threads > 1 {
        learn_threads::read_models(models, &truth, &mut warnings)?
    } else {
        let mut inputs = Vec::with_capacity(models.len());
        for (i, m) in models.into_iter().enumerate() {
            let progress = in_pass((i + 1) * records);
            let read =
                read_predictions_paced(&m.name, m.file, &truth, &mut warnings, pace, progress)
                    .await?;
            let Some(preds) = read else {
                return Ok(None);
            };
            inputs.push((m.name, m.cost, preds));
        }
        inputs
    };

    let scheme = truth.scheme.clone();
    let skip_top = |k: &str| !scheme.is_evaluated(k);
    let ignored = Ignored::new(&config.ignored_fields);
    let schema_info = schema
        .as_ref()
        .map(|s| read_schema(s, &skip_top, &ignored))
        .unwrap_or_default();
    let several_infos: Vec<SchemaInfo> = schemas
        .iter()
        .map(|s| read_schema(&s.schema, &skip_top, &ignored))
        .collect();
    if schemas.is_empty() {
        if let Some(by) = &config.schema_by {
            let given = if schema.is_some() {
                "one schema is"
            } else {
                "no schema is"
            };
            warnings.push(format!(
                "schema_by {by:?} is not used: {given} given, and documents pick their own schema only among several (SPEC §7.2)"
            ));
        }
    }

    let mut paths = Paths {
        table: PathTable::default(),
        info: Vec::new(),
        models: inputs.len(),
        ignored,
        scheme: scheme.clone(),
        buf: String::new(),
        raw: Vec::new(),
        several: None,
    };
    note_schema(&mut paths, &schema_info);
    let mut several = match (schemas.len() > 1, config.schema_by.as_deref()) {
        (true, Some(by)) => Some(several_paths::read_schemas(
            &mut paths,
            &schemas,
            several_infos,
            by,
            truth.documents.len(),
        )),
        _ => None,
    };
    drop(schemas);
    let mut caches: Vec<PathCache> = (0..=inputs.len()).map(|_| PathCache::default()).collect();
    let (truth_cache, model_caches) = caches.split_at_mut(1);
    let truth_cache = &mut truth_cache[0];
    let documents = truth.documents.len();
    if learn_threads::applies(threads, &truth, &inputs, several.is_some()) {
        let (truth_lists, model_lists) =
            learn_threads::note_tops(&mut paths, comparer, &mut truth, &mut inputs, threads)?;
        learn_threads::note_items(
            &mut paths,
            comparer,
            &truth,
            &inputs,
            &truth_lists,
            &model_lists,
            threads,
        );
    } else {
        let kinds_pass = forests * records;
        // The truth's present values decide kinds before any prediction's.
        let mut truth_lists = Vec::new();
        for d in 0..documents {
            if should_stop(pace, kinds_pass + d, total).await {
                return Ok(None);
            }
            let root = truth.fetch(d)?;
            if let Some(several) = &mut several {
                let chosen =
                    several.choose(truth.source.forest().get(root), &truth.documents[d].id);
                several.of_doc[d] = chosen;
            }
            paths.note_top(
                comparer,
                truth.source.forest(),
                root,
                None,
                truth_cache,
                &mut truth_lists,
                None,
                d,
            );
        }
        if let Some(several) = &several {
            let ids = truth.documents.iter().map(|doc| doc.id.clone());
            warnings.extend(several.warning(ids));
        }
        // Then each model's, in the truth's order.
        let mut model_lists = vec![Vec::new(); inputs.len()];
        for (m, ((_, _, preds), cache)) in
            inputs.iter_mut().zip(model_caches.iter_mut()).enumerate()
        {
            for d in 0..documents {
                if should_stop(pace, kinds_pass + (m + 1) * records + d, total).await {
                    return Ok(None);
                }
                let Some(root) = preds.fetch(d)? else {
                    continue;
                };
                let skip = preds.by_truth[d].as_ref().and_then(|p| p.skip());
                paths.note_top(
                    comparer,
                    preds.source.forest(),
                    root,
                    Some(m),
                    cache,
                    &mut model_lists[m],
                    skip,
                    d,
                );
            }
        }
        // Kinds are final: item fields, in the same order (each document read
        // again, which gives the nodes noted above).
        for lists in truth_lists.chunk_by(|a, b| a.0 == b.0) {
            truth.fetch(lists[0].0)?;
            paths.note_items(comparer, truth.source.forest(), lists, None, truth_cache);
        }
        drop(truth_lists);
        for (m, ((_, _, preds), cache)) in
            inputs.iter_mut().zip(model_caches.iter_mut()).enumerate()
        {
            for lists in model_lists[m].chunk_by(|a, b| a.0 == b.0) {
                preds.fetch(lists[0].0)?;
                paths.note_items(comparer, preds.source.forest(), lists, Some(m), cache);
            }
        }
        drop(model_lists);
    }
    paths.mark_parents();
    paths.fix_types(comparer);
    if let Some(mut several) = several {
        several_paths::fix_schema_types(&mut several, &paths, comparer);
        paths.several = Some(Box::new(several));
    }
    let suggestions = paths.suggestions();
    Ok(Some(Learnt {
        truth,
        models: inputs,
        warnings,
        suggestions,
        paths,
        caches,
    }))
}
