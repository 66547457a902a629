//! What the comparison passes share: the work units of each pass (for
//! progress), where a pass takes each document from ([`Docs`]), what every
//! document's comparison needs ([`Pass`]), what a pass hands on
//! ([`Sink`]) and whether every file is held whole. Used by the sibling
//! passes (`comparison`, `shard`, `prepared`, `partial`); depends on the
//! siblings `fields`, `record`, `stored` and `doc_out`'s `DocOut`, never on
//! a pass.

use super::doc_out::DocOut;
use super::fields::{field_set, FieldSet, Paths};
use super::record::Recorder;
use super::stored::{StoredForest, Storing};
use crate::error::Error;
use crate::eval::compare::Comparer;
use crate::eval::dataset::{Predictions, Truth};
use crate::eval::source::RecordSource;

/// Work units of the passes, per truth record and forest (the truth and
/// each model): about the share of the time each takes. The passes that
/// read the ids and learn the kinds take [`LEARN`]; the comparison pass
/// takes [`COMPARE_FLATTENING`] when it flattens each document as it
/// compares it and [`COMPARE_STORED`] when it loads the documents a
/// [`Prepared`] kept.
pub(super) const LEARN: usize = 2;

pub(super) const COMPARE_FLATTENING: usize = 4;

pub(super) const COMPARE_STORED: usize = 2;

/// Where the comparison pass takes each document from.
pub(super) enum Docs<'s> {
    /// Flattened as it is compared; and kept in the [`Storing`] given.
    Flatten(Option<&'s mut Storing>),
    /// Loaded, flattened by an earlier pass (the truth's, then each
    /// model's in the truth's order).
    Load(&'s [StoredForest]),
}

/// What every document's comparison shares: the paths, the comparer and
/// whether to keep each compared value.
pub(super) struct Pass<'p, 'c> {
    pub(super) paths: &'p Paths,
    pub(super) comparer: &'p Comparer<'c>,
    pub(super) details: bool,
    /// Each model's fields.
    pub(super) fields: Vec<FieldSet>,
}

impl<'p, 'c> Pass<'p, 'c> {
    pub(super) fn new(
        paths: &'p Paths,
        comparer: &'p Comparer<'c>,
        details: bool,
        models: usize,
    ) -> Self {
        Pass {
            paths,
            comparer,
            details,
            fields: (0..models).map(|m| field_set(paths, m)).collect(),
        }
    }

    /// SPEC §9.2: the document's value of each `slice_by` key, noted in
    /// `out` (after its comparison, which gives `_items` and `_fields`).
    pub(super) fn note_slices(
        &self,
        d: usize,
        record: crate::eval::tree::Json<'_>,
        out: &mut DocOut,
    ) {
        let by = &self.comparer.config.slice_by;
        if by.is_empty() {
            return;
        }
        let schema = self.paths.own_index(d).and_then(|s| {
            let several = self.paths.several.as_deref()?;
            several
                .by_name
                .iter()
                .find(|(_, &i)| i as usize == s)
                .map(|(name, _)| name.as_str())
        });
        let builtins = crate::eval::slices::BuiltIns {
            items: out.items.truth_items,
            fields: out.present_truth_fields(),
            schema,
        };
        out.slice = crate::eval::slices::document_texts(by, record, builtins);
    }

    pub(super) fn recorder(&self) -> Recorder<'p, 'c> {
        Recorder {
            paths: self.paths,
            comparer: self.comparer,
            details: self.details,
            audit: self.fields.len() >= 2,
        }
    }
}

/// What a comparison pass hands on, document by document in the truth's
/// order: the document's index and id and each model's [`DocOut`].
pub(super) type Sink<'s> = dyn FnMut(usize, &str, &mut [DocOut]) -> Result<(), Error> + 's;

/// Whether every file is held whole (each record's nodes readable at any
/// time, without fetching), as the passes on several threads need.
pub(super) fn all_resident<S: RecordSource>(
    truth: &Truth<S>,
    models: &[(String, Option<f64>, Predictions<S>)],
) -> bool {
    truth.source.resident() && models.iter().all(|(_, _, p)| p.source.resident())
}
