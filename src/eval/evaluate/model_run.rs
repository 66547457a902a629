//! A model's counts and report.
//!
//! Owns: [`ModelRun`] (a model's counts, absorbed document by document in
//! order from each document's [`DocOut`], and its [`ModelReport`], SPEC
//! §3) with its per-field and per-set accumulators. May depend on the
//! siblings `fields`, `doc_out`'s `DocOut` and `confidence_run`, and on
//! `counts`, `sets`, `report`; never on a source, the passes or a
//! validator.

use super::confidence_run::ConfidenceRun;
use super::doc_out::DocOut;
use super::fields::{field_set, FieldSet, Paths};
use crate::error::{Error, ErrorKind};
use crate::eval::config::Config;
use crate::eval::counts::{
    document_extraction_score, document_scores, is_kept_field, items_summary, macro_over_documents,
    macro_over_fields, mean, numeric_precision, partial_scores, ratio, strict_scores,
};
use crate::eval::paths::{Kind, PathId};
use crate::eval::report::{
    Counts, DocumentDetail, DocumentTally, ErrorCounts, ErrorType, FieldReport, ItemTally,
    ModelReport, Outcome, Rates, Scores, SetReport,
};
use crate::eval::sets::SetCounts;
use std::collections::BTreeMap;

/// Per-field accumulator: outcome counts and CER counts.
#[derive(Debug, Clone, Default)]
pub(super) struct FieldAcc {
    pub(super) counts: Counts,
    /// SPEC §9.1.
    pub(super) errors: ErrorCounts,
    pub(super) cer_edits: u64,
    pub(super) cer_len: u64,
    pub(super) cer_sum: f64,
    pub(super) cer_values: u64,
}

impl FieldAcc {
    pub(super) fn add_cer(&mut self, edits: u64, len: u64, rate: f64) {
        self.cer_edits += edits;
        self.cer_len += len;
        self.cer_sum += rate;
        self.cer_values += 1;
    }
}

/// Per-set-field accumulator (SPEC §3.3): sums of per-document scores over
/// the documents where either side is non-empty.
#[derive(Debug, Clone, Default)]
pub(super) struct SetAcc {
    pub(super) precision: f64,
    pub(super) recall: f64,
    pub(super) f1: f64,
    pub(super) accuracy: f64,
    pub(super) legacy_accuracy: f64,
    pub(super) hits: Vec<f64>,
    pub(super) documents: usize,
}

/// One model's evaluation in progress: what has been counted so far.
pub(super) struct ModelRun<'p, 'c> {
    pub(super) fields: FieldSet,
    /// The fields of the per-field table, in its (sorted) order.
    pub(super) row_ids: Vec<PathId>,
    pub(super) paths: &'p Paths,
    pub(super) config: &'c Config,
    /// Keep per-document details and tallies.
    pub(super) details: bool,
    pub(super) acc: Vec<FieldAcc>,
    /// SPEC §9.1: the model's error types.
    pub(super) errors: ErrorCounts,
    /// With details: this document's counts per field (indexed by path).
    pub(super) doc_fields: Option<Vec<Counts>>,
    pub(super) numeric_exact: u64,
    pub(super) numeric_total: u64,
    pub(super) sets: BTreeMap<PathId, SetAcc>,
    pub(super) doc_counts: Vec<Counts>,
    pub(super) tallies: Vec<ItemTally>,
    pub(super) doc_details: Vec<DocumentDetail>,
    /// With details: what each document contributes to the scores.
    pub(super) doc_tallies: Vec<DocumentTally>,
    /// Per document: the prediction is schema-valid; there is one.
    pub(super) valid: Vec<bool>,
    pub(super) has_prediction: Vec<bool>,
    /// With several schemas (SPEC §7.2): the rows, known once every
    /// document has said which paths it evaluates.
    pub(super) own: Option<OwnRows>,
    /// The confidence pairs (SPEC §8.2).
    pub(super) confidence: ConfidenceRun,
    /// SPEC §9.2: each document's `slice_by` values (empty without
    /// `slice_by`).
    pub(super) doc_slices: Vec<Vec<Option<String>>>,
}

/// The per-field table of a model evaluated with several schemas (SPEC
/// §7.2): its rows are the paths some document evaluates, and each
/// document's counts per row are kept by path until the rows are known.
#[derive(Debug, Default)]
pub(super) struct OwnRows {
    /// Per path: some document evaluates it.
    in_rows: Vec<bool>,
    /// Some document evaluates an item list.
    items: bool,
    /// With details: each document's counts of the paths it evaluates.
    doc_fields: Vec<Vec<(u32, Counts)>>,
}

impl<'p, 'c> ModelRun<'p, 'c> {
    pub(super) fn new(
        paths: &'p Paths,
        config: &'c Config,
        m: usize,
        details: bool,
        documents: usize,
    ) -> Self {
        let fields = field_set(paths, m);
        let row_ids = row_ids(paths, &fields);
        ModelRun {
            fields,
            row_ids,
            paths,
            config,
            details,
            acc: vec![FieldAcc::default(); paths.table.len()],
            errors: ErrorCounts::default(),
            doc_fields: details.then(|| vec![Counts::default(); paths.table.len()]),
            numeric_exact: 0,
            numeric_total: 0,
            sets: BTreeMap::new(),
            doc_counts: Vec::with_capacity(documents),
            tallies: Vec::with_capacity(documents),
            doc_details: Vec::new(),
            valid: Vec::with_capacity(documents),
            has_prediction: Vec::with_capacity(documents),
            doc_tallies: Vec::new(),
            own: paths.several.is_some().then(|| OwnRows {
                in_rows: vec![false; paths.table.len()],
                ..OwnRows::default()
            }),
            confidence: ConfidenceRun::new(documents),
            doc_slices: Vec::new(),
        }
    }

    /// Adds what the next document (`id`; documents come in order)
    /// contributes, `out` from [`Recorder::compare_document`] (its field
    /// details are taken). Integer counts add up in any order; each
    /// floating-point sum (a field's Σ CER, a set field's Σ scores) takes
    /// its terms in document order and, within a document, in comparison
    /// order — the order of one pass — whoever compared them (SPEC §3).
    pub(super) fn absorb(&mut self, id: &str, out: &mut DocOut) -> Result<(), Error> {
        let bad = || {
            Error::new(
                ErrorKind::Input,
                format!("document {id:?}: a count names a field that was not learnt"),
            )
        };
        let bad_event = || {
            Error::new(
                ErrorKind::Input,
                format!("document {id:?}: a partial or incorrect outcome has no error type"),
            )
        };
        self.valid.push(out.valid);
        self.has_prediction.push(out.has_prediction);
        self.confidence.absorb(out);
        let mut counts = Counts::default();
        match (&mut self.doc_fields, &self.own) {
            (Some(d), None) => d.fill(Counts::default()),
            // Only the paths the last document evaluated were counted.
            (Some(d), Some(own)) => {
                if let Some(last) = own.doc_fields.last() {
                    for &(p, _) in last {
                        d[p as usize] = Counts::default();
                    }
                }
            }
            (None, _) => {}
        }
        if let Some(own) = &mut self.own {
            for &p in &out.own_rows {
                *own.in_rows.get_mut(p as usize).ok_or_else(bad)? = true;
            }
            own.items |= out.own_items;
        }
        for e in &out.events {
            let path = e.path as usize;
            let a = self.acc.get_mut(path).ok_or_else(bad)?;
            a.counts.record(e.outcome);
            counts.record(e.outcome);
            if let Some(error) = e.error.or(ErrorType::of_outcome(e.outcome)) {
                a.errors.record(error);
                self.errors.record(error);
            } else if matches!(e.outcome, Outcome::Partial | Outcome::Incorrect) {
                return Err(bad_event());
            }
            if let Some(d) = &mut self.doc_fields {
                d[path].record(e.outcome);
            }
            if let Some((edits, len, rate)) = e.cer {
                a.add_cer(edits, len, rate);
            }
        }
        let top_k = self.config.top_k.len();
        for s in &out.sets {
            let path = s.path as usize;
            let [pred_in_true, true_in_pred, truth_len, pred_len] = s.counts.map(|n| n as usize);
            let sc = SetCounts {
                pred_in_true,
                true_in_pred,
                truth_len,
                pred_len,
            };
            let oc = sc.outcome_counts();
            // SPEC §9.1: a set field's missed and spurious elements keep
            // their names; it has no partial or incorrect outcome.
            let errors = ErrorCounts {
                missed: oc.missed,
                spurious: oc.spurious,
                ..ErrorCounts::default()
            };
            self.errors += errors;
            let a = self.acc.get_mut(path).ok_or_else(bad)?;
            a.counts += oc;
            a.errors += errors;
            counts += oc;
            if let Some(d) = &mut self.doc_fields {
                d[path] += oc;
            }
            let acc = self.sets.entry(path).or_insert_with(|| SetAcc {
                hits: vec![0.0; top_k],
                ..SetAcc::default()
            });
            if let Some(r) = &s.scores {
                if r.hits.len() != top_k {
                    return Err(bad());
                }
                acc.precision += r.precision;
                acc.recall += r.recall;
                acc.f1 += r.f1;
                acc.accuracy += r.accuracy;
                acc.legacy_accuracy += r.legacy_accuracy;
                for (h, v) in acc.hits.iter_mut().zip(&r.hits) {
                    *h += v;
                }
                acc.documents += 1;
            }
        }
        self.numeric_exact += out.numeric_exact;
        self.numeric_total += out.numeric_total;
        let tally = out.items;
        if self.details {
            let s = document_scores(&counts, self.config);
            let exact = document_exact_match(out.valid, &counts, &tally);
            self.doc_details.push(DocumentDetail {
                id: id.to_string(),
                has_prediction: out.has_prediction,
                schema_valid: out.valid,
                exact_match: exact,
                counts,
                precision: s.precision,
                recall: s.recall,
                f1: s.f1,
                accuracy: s.accuracy,
                fields: std::mem::take(&mut out.fields),
                slice: out.slice.clone(),
            });
        }
        if let Some(per_field) = &self.doc_fields {
            let fields = match &mut self.own {
                None => self.row_ids.iter().map(|&id| per_field[id]).collect(),
                Some(own) => {
                    let mut mine: Vec<(u32, Counts)> = out
                        .own_rows
                        .iter()
                        .map(|&p| (p, per_field[p as usize]))
                        .collect();
                    mine.sort_unstable_by_key(|&(p, _)| p);
                    own.doc_fields.push(mine);
                    Vec::new()
                }
            };
            self.doc_tallies.push(DocumentTally {
                counts,
                fields,
                numeric_exact: out.numeric_exact,
                numeric_total: out.numeric_total,
                schema_valid: out.valid,
                items: tally,
                confidence: self.confidence.last_document().collect(),
            });
        }
        if !self.config.slice_by.is_empty() {
            self.doc_slices.push(std::mem::take(&mut out.slice));
        }
        self.doc_counts.push(counts);
        self.tallies.push(tally);
        Ok(())
    }
    /// The model's report, from the counts (SPEC §3).
    pub(super) fn finish(
        self,
        warnings: &mut Vec<String>,
        name: &str,
        provisional: bool,
    ) -> ModelReport {
        let ModelRun {
            fields,
            row_ids: mut field_ids,
            paths,
            config,
            details,
            acc,
            errors,
            doc_fields: _,
            numeric_exact,
            numeric_total,
            sets,
            doc_counts,
            tallies,
            doc_details,
            mut doc_tallies,
            valid,
            has_prediction: _,
            own,
            confidence,
            doc_slices: _,
        } = self;
        // Several schemas (SPEC §7.2): the rows are the paths some
        // document evaluates; each document's tally gets its counts per
        // row (zero where it does not evaluate the path).
        let several = own.is_some();
        let mut has_items = !fields.item_fields.is_empty();
        if let Some(own) = own {
            field_ids = (0..own.in_rows.len())
                .filter(|&id| own.in_rows[id])
                .collect();
            field_ids.sort_by(|a, b| paths.table.name(*a).cmp(paths.table.name(*b)));
            has_items = own.items;
            let mut row_of = vec![usize::MAX; own.in_rows.len()];
            for (row, &id) in field_ids.iter().enumerate() {
                row_of[id] = row;
            }
            for (tally, mine) in doc_tallies.iter_mut().zip(own.doc_fields) {
                let mut dense = vec![Counts::default(); field_ids.len()];
                for (p, c) in mine {
                    if let Some(slot) = row_of.get(p as usize).and_then(|&r| dense.get_mut(r)) {
                        *slot = c;
                    }
                }
                tally.fields = dense;
            }
        }
        let valid = &valid;
        let numeric = (numeric_exact, numeric_total);
        let zd = config.zero_division;
        let total: Counts = doc_counts.iter().copied().sum();
        let micro = strict_scores(&total, config);
        let partial = partial_scores(&total, config);

        // Macro over documents (SPEC §3.2, M4).
        let macro_documents = macro_over_documents(&doc_counts, config);

        // Per-field rows and the macro over fields (SPEC §3.2, M0).
        let mut field_reports = Vec::with_capacity(field_ids.len());
        let mut weighted: Vec<(f64, Scores)> = Vec::new();
        for &id in &field_ids {
            let a = &acc[id];
            let s = strict_scores(&a.counts, config);
            if is_kept_field(&a.counts) {
                let name = paths.table.name(id);
                weighted.push((config.field_weights.get(name).copied().unwrap_or(1.0), s));
            }
            // (A set field has no CER values; with several schemas a path
            // may be a set in some documents only, so only that counts.)
            let is_set = !several && paths.kind(id) == Kind::Set && paths.info[id].list.is_none();
            let (cer, mean_cer) = if is_set || a.cer_values == 0 {
                (None, None)
            } else {
                (
                    Some(pooled_cer(a.cer_edits, a.cer_len, zd)),
                    Some(a.cer_sum / a.cer_values as f64),
                )
            };
            field_reports.push(FieldReport {
                field: paths.table.name(id).to_string(),
                counts: a.counts,
                errors: a.errors,
                precision: s.precision,
                recall: s.recall,
                f1: s.f1,
                accuracy: s.accuracy,
                cer,
                mean_cer,
            });
        }
        let macro_fields = macro_over_fields(field_ids.iter().map(|&id| &acc[id].counts), config);
        // Weighted macro over fields: Σ w·s / Σ w over the same fields
        // (zero_division when the weights sum to 0).
        let weighted_fields = (!config.field_weights.is_empty()).then(|| {
            let total: f64 = weighted.iter().map(|(w, _)| w).sum();
            let avg = |get: fn(&Scores) -> f64| {
                ratio(weighted.iter().map(|(w, s)| w * get(s)).sum(), total, zd)
            };
            Scores {
                precision: avg(|s| s.precision),
                recall: avg(|s| s.recall),
                f1: avg(|s| s.f1),
                accuracy: avg(|s| s.accuracy),
            }
        });

        // Set fields (SPEC §3.3).
        let set_reports: BTreeMap<String, SetReport> = sets
            .iter()
            .map(|(&id, s)| {
                let avg = |sum: f64| ratio(sum, s.documents as f64, zd);
                let hit_at_k = config
                    .top_k
                    .iter()
                    .zip(&s.hits)
                    .map(|(k, h)| (k.to_string(), avg(*h)))
                    .collect();
                (
                    paths.table.name(id).to_string(),
                    SetReport {
                        precision: avg(s.precision),
                        recall: avg(s.recall),
                        f1: avg(s.f1),
                        accuracy: avg(s.accuracy),
                        legacy_accuracy: avg(s.legacy_accuracy),
                        hit_at_k,
                        documents: s.documents,
                    },
                )
            })
            .collect();

        // Line items (SPEC §3.4).
        let items = has_items.then(|| items_summary(&tallies, config));

        // Document-level scores (SPEC §3.5).
        let schema_validity_rate = mean(valid.iter().map(|&v| f64::from(u8::from(v))), zd);
        let exact_match_rate = mean(
            doc_counts
                .iter()
                .zip(&tallies)
                .zip(valid)
                .map(|((c, t), &v)| f64::from(u8::from(document_exact_match(v, c, t)))),
            zd,
        );
        let numeric_precision = numeric_precision(numeric.0, numeric.1);
        if numeric_precision.is_none() {
            warnings.push(format!(
                "model {name:?}: numeric_precision is null (no numeric truth value is present), so its weight {} in document_extraction_score is spread over field_f1_partial and schema_validity in proportion",
                config.document_extraction_score.weights.numeric_precision
            ));
        }
        let document_extraction_score =
            document_extraction_score(numeric_precision, partial.f1, schema_validity_rate, config);
        let exact_if_valid = provisional.then(|| {
            doc_counts
                .iter()
                .zip(&tallies)
                .map(|(c, t)| document_exact_match(true, c, t))
                .collect()
        });

        // Model CER pooled over every scalar and item field (SPEC §2.2).
        let (edits, len, values) = field_ids
            .iter()
            .filter(|&&id| {
                several || !(paths.kind(id) == Kind::Set && paths.info[id].list.is_none())
            })
            .map(|&id| &acc[id])
            .fold((0u64, 0u64, 0u64), |(e, l, n), a| {
                (e + a.cer_edits, l + a.cer_len, n + a.cer_values)
            });
        let cer = (values > 0).then(|| pooled_cer(edits, len, zd));

        ModelReport {
            name: name.to_string(),
            cost: None,
            counts: total,
            errors,
            truth_count: total.truth_count(),
            pred_count: total.pred_count(),
            m_total: total.credit(),
            micro,
            macro_documents,
            macro_fields,
            weighted_fields,
            partial,
            rates: Rates::of(&total, zd),
            numeric_precision,
            field_f1_partial: partial.f1,
            schema_validity_rate,
            exact_match_rate,
            document_extraction_score,
            cer,
            fields: field_reports,
            sets: set_reports,
            items,
            confidence: confidence.finish(&config.confidence, |p| paths.table.name(p as PathId)),
            document_details: details.then_some(doc_details),
            literature: None,
            document_tallies: details.then_some(doc_tallies),
            exact_if_valid,
        }
    }
}

/// The fields of a model's per-field table, sorted by name: its scalar and
/// set fields, then every item field.
pub(super) fn row_ids(paths: &Paths, fields: &FieldSet) -> Vec<PathId> {
    let mut ids: Vec<PathId> = fields
        .top
        .iter()
        .filter(|&&id| paths.kind(id) != Kind::Items)
        .copied()
        .chain(
            fields
                .item_fields
                .iter()
                .flat_map(|(_, f)| f.iter().copied()),
        )
        .collect();
    ids.sort_by(|a, b| paths.table.name(*a).cmp(paths.table.name(*b)));
    ids
}

/// Σ edits / Σ len t (SPEC §2.2); when every truth value normalises to the
/// empty string, 0/0 gives `zero_division`.
pub(super) fn pooled_cer(edits: u64, len: u64, zero_division: f64) -> f64 {
    if len == 0 && edits > 0 {
        1.0
    } else {
        ratio(edits as f64, len as f64, zero_division)
    }
}

/// `exact_match` (SPEC §3.5): valid, every outcome exact or true negative,
/// every truth item recognised and no extra items.
pub(super) fn document_exact_match(valid: bool, c: &Counts, t: &ItemTally) -> bool {
    valid
        && c.partial + c.incorrect + c.missed + c.spurious == 0
        && t.recognised == t.truth_items
        && t.pred_items == t.truth_items
}
