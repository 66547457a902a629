//! The comparison pass and the report built from it (SPEC §5): every
//! model in one pass over the documents ([`compare_pass`], on one thread
//! here or on several through `shard`), each document's notes audited
//! (SPEC §9.3, [`audit_document`]), and each model's counts made into the
//! report ([`build_report`]). Depends on the siblings `pass`, `shard`,
//! `stored`, `model_run`, `learnt`; never on an entry point.

use super::doc_out::DocOut;
use super::fields::{FlatDoc, Paths};
use super::learnt::Learnt;
use super::model_run::ModelRun;
use super::pass::{all_resident, Docs, Pass, Sink};
use super::shard;
use super::validity::ValidityOracle;
use crate::error::Error;
use crate::eval::compare::Comparer;
use crate::eval::config::Config;
use crate::eval::dataset::{Predictions, Progress, Truth};
use crate::eval::pace::{should_stop, Pace};
use crate::eval::paths::PathCache;
use crate::eval::report::{ModelReport, Report, Suggestion, Suspect};
use crate::eval::source::RecordSource;
use crate::eval::tree::NodeId;

/// The comparison pass: every model in one pass over the documents, so
/// that each truth document is flattened (or loaded) once;
/// `progress.span` units per document and forest. The report of SPEC §5.
pub(super) async fn compare_paced<S: RecordSource, V: ValidityOracle>(
    learnt: &mut Learnt<S>,
    docs: Docs<'_>,
    comparer: &Comparer<'_>,
    details: bool,
    oracle: &V,
    pace: &mut dyn Pace,
    progress: Progress,
) -> Result<Option<Report>, Error> {
    let config = comparer.config;
    let Learnt {
        truth,
        models,
        warnings,
        suggestions,
        paths,
        caches,
    } = learnt;
    let paths = &*paths;
    let documents = truth.documents.len();
    let mut runs: Vec<ModelRun<'_, '_>> = (0..models.len())
        .map(|m| ModelRun::new(paths, config, m, details, documents))
        .collect();
    let model_names: Vec<String> = models.iter().map(|(name, _, _)| name.clone()).collect();
    let mut suspects = Vec::new();
    let mut sink = |_: usize, id: &str, outs: &mut [DocOut]| -> Result<(), Error> {
        audit_document(comparer, paths, id, &model_names, outs, &mut suspects);
        for (run, out) in runs.iter_mut().zip(outs) {
            run.absorb(id, out)?;
        }
        Ok(())
    };
    let pass = Pass::new(paths, comparer, details, models.len());
    let done = compare_pass(
        truth, models, caches, &pass, docs, oracle, pace, progress, &mut sink,
    )
    .await?;
    if done.is_none() {
        return Ok(None);
    }
    let names: Vec<(String, Option<f64>)> = models
        .iter()
        .map(|(name, cost, preds)| (name.clone(), cost.or(preds.cost)))
        .collect();
    Ok(Some(build_report(
        runs,
        &names,
        warnings.clone(),
        suggestions.clone(),
        suspects,
        config,
        documents,
        oracle.provisional(),
    )))
}

/// SPEC §9.3 at one document: the suspects among every model's notes
/// (`outs`, in model order), appended to `found`.
pub(super) fn audit_document(
    comparer: &Comparer<'_>,
    paths: &Paths,
    id: &str,
    names: &[String],
    outs: &[DocOut],
    found: &mut Vec<Suspect>,
) {
    // A slot is suspect only where every model noted it.
    if names.len() < 2 || outs.iter().any(|o| o.audit.is_empty()) {
        return;
    }
    let name = |path: u32| paths.table.name(path as usize).to_string();
    crate::eval::audit::document_suspects(
        comparer,
        id,
        names,
        outs.iter().map(|o| o.audit.as_slice()),
        &name,
        found,
    );
}

/// The comparison pass: every model in one pass over the documents, so
/// that each truth document is flattened (or loaded) once;
/// `progress.span` units per document and forest. Each document's
/// [`DocOut`]s go to `sink` in the truth's order. On a thread pool of
/// more than one thread (`--jobs`, native only) the documents are compared
/// in batches on every thread ([`shard::compare_parallel`]), the sink
/// still called in order, unless the pass keeps the flattened documents.
#[allow(clippy::too_many_arguments)]
pub(super) async fn compare_pass<S: RecordSource, V: ValidityOracle>(
    truth: &mut Truth<S>,
    inputs: &mut [(String, Option<f64>, Predictions<S>)],
    caches: &mut [PathCache],
    pass: &Pass<'_, '_>,
    docs: Docs<'_>,
    oracle: &V,
    pace: &mut dyn Pace,
    progress: Progress,
    sink: &mut Sink<'_>,
) -> Result<Option<()>, Error> {
    let documents = truth.documents.len();
    let forests = inputs.len() + 1;
    oracle.fits(inputs.len(), documents)?;
    let keeps = matches!(docs, Docs::Flatten(Some(_)));
    if shard::threads() > 1 && (!keeps || all_resident(truth, inputs)) {
        return shard::compare_parallel(truth, inputs, pass, docs, oracle, pace, progress, sink)
            .await;
    }
    let (stored, mut storing) = match docs {
        Docs::Load(stored) => (Some(stored), None),
        Docs::Flatten(storing) => (None, storing),
    };
    let mut outs: Vec<DocOut> = (0..inputs.len()).map(|_| DocOut::default()).collect();
    let mut buffers = shard::Buffers::default();
    let mut roots: Vec<Option<NodeId>> = Vec::with_capacity(inputs.len());
    for d in 0..documents {
        let done = progress.start + progress.span * forests * d;
        if should_stop(pace, done, progress.total).await {
            return Ok(None);
        }
        let root = truth.fetch(d)?;
        roots.clear();
        for (_, _, preds) in inputs.iter_mut() {
            roots.push(preds.fetch(d)?);
        }
        let models: Vec<shard::ModelDoc<'_>> = inputs
            .iter()
            .zip(&roots)
            .map(|((_, _, preds), root)| shard::ModelDoc {
                forest: preds.source.forest(),
                root: *root,
                prediction: preds.by_truth[d].as_ref(),
            })
            .collect();
        let mut keep = |f: usize, doc: &FlatDoc<'_>| {
            if let Some(storing) = storing.as_deref_mut() {
                storing.push(f, doc);
            }
        };
        shard::compare_doc(
            pass,
            d,
            (truth.source.forest(), root),
            &models,
            stored,
            caches,
            &mut buffers,
            oracle,
            &mut keep,
            &mut outs,
        );
        sink(d, &truth.documents[d].id, &mut outs)?;
        if let Some(storing) = storing.as_deref_mut() {
            storing.after(d, documents);
        }
    }
    if let Some(storing) = storing {
        storing.check();
    }
    Ok(Some(()))
}

/// Each model's report ([`ModelRun::finish`]) and the warnings it adds, in
/// model order. On a pool of several threads (`--jobs`, native only) the
/// models are finished side by side (their SPEC §8 scores sort and bin
/// every confidence pair): the same reports and warnings as one thread
/// gives, since a model's report reads only its own run and the warnings
/// are taken in model order.
fn finish_models(
    runs: Vec<ModelRun<'_, '_>>,
    models: &[(String, Option<f64>)],
    provisional: bool,
) -> Vec<(ModelReport, Vec<String>)> {
    let finish = |(run, (name, _)): (ModelRun<'_, '_>, &(String, Option<f64>))| {
        let mut added = Vec::new();
        let report = run.finish(&mut added, name, provisional);
        (report, added)
    };
    #[cfg(not(target_arch = "wasm32"))]
    if shard::threads() > 1 {
        use rayon::prelude::*;
        return runs
            .into_par_iter()
            .zip(models.par_iter())
            .map(finish)
            .collect();
    }
    runs.into_iter().zip(models).map(finish).collect()
}

/// The report of SPEC §5 from each model's counts: `models` are the
/// models' names and costs (SPEC §3.6), `warnings` those of the passes
/// before the comparison, `suspects` SPEC §9.3's (sorted here).
#[allow(clippy::too_many_arguments)]
pub(super) fn build_report(
    runs: Vec<ModelRun<'_, '_>>,
    models: &[(String, Option<f64>)],
    mut warnings: Vec<String>,
    suggestions: Vec<Suggestion>,
    mut suspects: Vec<Suspect>,
    config: &Config,
    documents: usize,
    provisional: bool,
) -> Report {
    crate::eval::audit::sort_suspects(&mut suspects);
    // SPEC §9.2: from each document's counts, before the runs are spent.
    let slices = (!config.slice_by.is_empty()).then(|| {
        let texts = runs.first().map_or(&[][..], |r| r.doc_slices.as_slice());
        let counts: Vec<(&str, &[crate::eval::report::Counts])> = runs
            .iter()
            .zip(models)
            .map(|(r, (name, _))| (name.as_str(), r.doc_counts.as_slice()))
            .collect();
        crate::eval::slices::slices_report(texts, &counts, config)
    });
    let mut reports = Vec::with_capacity(models.len());
    for ((mut report, added), (_, cost)) in finish_models(runs, models, provisional)
        .into_iter()
        .zip(models)
    {
        warnings.extend(added);
        report.cost = *cost;
        reports.push(report);
    }

    for field in config.field_weights.keys() {
        let known = reports
            .iter()
            .any(|m: &ModelReport| m.fields.iter().any(|f| &f.field == field));
        if !known {
            warnings.push(format!(
                "field_weights: no field is named `{field}`; its weight is not used (the fields are named as in the per-field table, e.g. `vendor.name`, `items[].qty`)"
            ));
        }
    }

    for field in config.field_types.keys() {
        let known = reports
            .iter()
            .any(|m: &ModelReport| m.fields.iter().any(|f| &f.field == field));
        if !known {
            warnings.push(format!(
                "field_types: no field is named `{field}`; its type is not used (the fields are named as in the per-field table, e.g. `vendor.name`, `items[].amount`)"
            ));
        }
    }

    Report {
        fieldscope_report: 1,
        config: config.clone(),
        warnings,
        suggestions,
        documents,
        models: reports,
        suspected_truth_errors: suspects,
        slices,
        bootstrap: None,
        comparison: None,
    }
}
