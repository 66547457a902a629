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

use super::comparison::compare_paced;
use super::pass::{Docs, COMPARE_FLATTENING, COMPARE_STORED, LEARN};
use super::stored::{StoredForest, Storing};
use super::{learn_paced, Comparer, EvalInput, FlatDoc, Known, Learnt, Progress, SchemaValidity};
use crate::error::{Error, ErrorKind};
use crate::eval::config::Config;
use crate::eval::model::DocFile;
use crate::eval::pace::Pace;
use crate::eval::report::Report;
use crate::eval::source::RecordSource;
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
