//! One document compared for one model.
//!
//! Owns: [`Recorder`] (the (document, field) pairs of one document
//! compared over a model's field set, SPEC §2.3, §3.3, §3.4, noted as a
//! [`DocOut`], which the sibling `model_run` absorbs into a model's
//! counts). May depend on the sibling `fields` (paths, kinds, field
//! sets), `doc_out`'s `DocOut`, `compare`, `items`, `sets`, `report`; never
//! on a source, the passes or a validator.

use super::doc_out::{DocOut, Event, SetEvent, SetSums};
use super::fields::{FieldSet, FlatDoc, Paths};
use super::several::OwnSchema;
use super::several_paths::own_field_set;
use crate::eval::audit::AuditSlot;
use crate::eval::compare::{Comparer, Side, ValueType};
use crate::eval::error_types::{classify, Candidate};
use crate::eval::items::{match_items, partial_credit, F1Grid, Item};
use crate::eval::paths::{Kind, Leaf, PathId};
use crate::eval::report::{ErrorType, FieldDetail, Outcome};
use crate::eval::sets::{set_scores, SetCounts};
use crate::eval::tree::{Json, JsonType};
use serde_json::Value;

/// The elements of a set field, normalised (SPEC §3.3): an absent value is
/// the empty list and a lone present scalar a one-element list.
pub(super) fn set_elements(comparer: &Comparer<'_>, v: Option<Json<'_>>) -> Vec<String> {
    match v {
        _ if comparer.is_absent_json(v) => Vec::new(),
        Some(a) if a.json_type() == JsonType::Array => {
            a.elements().map(|e| comparer.normalized(e)).collect()
        }
        Some(other) => vec![comparer.normalized(other)],
        None => Vec::new(),
    }
}

/// The display outcome of a set field in `document_details`: true negative
/// when both sides are empty, missed / spurious when one is, exact when the
/// lists agree element for element, incorrect when they share nothing, and
/// partial otherwise. (The scores use the element counts, not this.)
pub(super) fn set_display_outcome(c: &SetCounts) -> Outcome {
    match (c.truth_len, c.pred_len) {
        (0, 0) => Outcome::TrueNegative,
        (_, 0) => Outcome::Missed,
        (0, _) => Outcome::Spurious,
        _ if c.pred_in_true == c.pred_len && c.true_in_pred == c.truth_len => Outcome::Exact,
        _ if c.pred_in_true == 0 => Outcome::Incorrect,
        _ => Outcome::Partial,
    }
}

/// Where a value that is not exact may belong instead (SPEC §9.1's
/// `swapped`): the other scalar fields of the truth document, or the other
/// fields of the truth item.
#[derive(Clone, Copy)]
pub(super) enum Others<'x, 'a> {
    /// The document's top-level paths (only its scalar fields are taken).
    Document(&'x [PathId], &'x FlatDoc<'a>),
    /// The item fields of the list and the truth item.
    Item(&'x [PathId], &'x Item<'x, 'a>),
    /// No truth to belong to (the truth side is absent).
    None,
}

/// Where [`Others`]' leaves are looked up.
#[derive(Clone, Copy)]
enum Source<'x, 'a> {
    Document(&'x FlatDoc<'a>),
    Item(&'x Item<'x, 'a>),
    None,
}

/// Compares the (document, field) pairs of one document for one model and
/// notes, in the order it compares them, what each contributes
/// ([`DocOut`]); `ModelRun::absorb` (sibling `model_run`) then adds it to
/// the model's counts.
/// Shared by every model and, with `--jobs`, by every thread.
pub(super) struct Recorder<'p, 'c> {
    pub(super) paths: &'p Paths,
    pub(super) comparer: &'p Comparer<'c>,
    /// Keep each compared value (`document_details`).
    pub(super) details: bool,
    /// Note the slots SPEC §9.3's audit may find suspect (two models or
    /// more).
    pub(super) audit: bool,
}

impl Recorder<'_, '_> {
    /// Compares one (document, field) pair and notes its outcome, CER and
    /// numeric-ness in `out`; `slots` are the item indices for item fields.
    /// `t` and `p` are leaves with the text buffers of their documents.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record(
        &self,
        own: Option<&OwnSchema>,
        id: PathId,
        t: Option<(&Leaf<'_>, &str)>,
        p: Option<(&Leaf<'_>, &str)>,
        slots: (Option<usize>, Option<usize>),
        others: Others<'_, '_>,
        out: &mut DocOut,
    ) {
        let ty = self.paths.value_type_in(own, id, t.map(|(l, _)| l.value));
        let (ts, ps) = (
            t.and_then(|(l, text)| l.side(text)),
            p.and_then(|(l, text)| l.side(text)),
        );
        let c = self.comparer.compare_sides(ty, ts.as_ref(), ps.as_ref());
        // SPEC §9.1: only partial and incorrect outcomes (both sides
        // present, rare) are classified; the others are named by outcome.
        let (error, belongs_to) = match (c.outcome, &ts, &ps) {
            (Outcome::Partial | Outcome::Incorrect, Some(ts), Some(ps)) => {
                let (e, to) = self.error_type(own, id, ty, (ts, ps), c.similarity, others);
                (Some(e), to)
            }
            _ => (None, None),
        };
        let (t, p) = (t.map(|(l, _)| l), p.map(|(l, _)| l));
        let confidence = p.and_then(|l| l.confidence);
        out.uncovered |= p.is_some_and(|l| l.present) && confidence.is_none();
        out.events.push(Event {
            path: id as u32,
            outcome: c.outcome,
            cer: c
                .cer
                .zip(c.cer_rate)
                .map(|(cer, rate)| (cer.edits as u64, cer.len as u64, rate)),
            confidence,
            error,
        });
        // SPEC §9.3: a slot of the truth (a scalar, or a field of truth
        // item i) that is neither exact nor a true negative.
        let truth_slot = slots.0.is_some() || slots.1.is_none();
        if self.audit && truth_slot && AuditSlot::notes(c.outcome) {
            let pred = p.filter(|l| l.present);
            out.audit.push(AuditSlot {
                path: id as u32,
                item: slots.0.map(|i| i as u32),
                truth: t
                    .filter(|l| l.present)
                    .map_or(Value::Null, |l| l.value.to_value()),
                pred: pred.map(|l| l.value.to_value()),
                as_truth: pred.map_or(ty, |l| self.paths.value_type_in(own, id, Some(l.value))),
                confidence,
            });
        }
        if ty == ValueType::Number && t.is_some_and(|l| l.present) {
            out.numeric_total += 1;
            out.numeric_exact += u64::from(c.outcome == Outcome::Exact);
        }
        if self.details {
            out.fields.push(FieldDetail {
                field: self.paths.table.name(id).to_string(),
                truth_item: slots.0,
                pred_item: slots.1,
                truth: t.map_or(Value::Null, |l| l.value.to_value()),
                prediction: p.map_or(Value::Null, |l| l.value.to_value()),
                outcome: c.outcome,
                error_type: error.or(ErrorType::of_outcome(c.outcome)),
                belongs_to: belongs_to.map(|b| self.paths.table.name(b).to_string()),
                similarity: c.similarity,
                cer: c.cer_rate,
                confidence,
                set_errors: None,
            });
        }
    }

    /// The error type of a partial or incorrect pair of field `id` (SPEC
    /// §9.1), and for `swapped` the field the prediction belongs to: the
    /// first by name among `others` whose truth it matches exactly.
    fn error_type<'x>(
        &'x self,
        own: Option<&'x OwnSchema>,
        id: PathId,
        ty: ValueType,
        (t, p): (&Side<'_>, &Side<'_>),
        similarity: Option<f64>,
        others: Others<'x, '_>,
    ) -> (ErrorType, Option<PathId>) {
        let paths = self.paths;
        let candidate = |(other, leaf, text): (PathId, &'x Leaf<'_>, &'x str)| {
            leaf.side(text).map(|truth| Candidate {
                key: other,
                name: paths.table.name(other),
                ty: paths.value_type_in(own, other, Some(leaf.value)),
                truth,
            })
        };
        let (ids, source): (&[PathId], Source<'_, '_>) = match others {
            Others::Document(ids, doc) => (ids, Source::Document(doc)),
            Others::Item(ids, item) => (ids, Source::Item(item)),
            Others::None => (&[], Source::None),
        };
        let found = ids
            .iter()
            .filter(|&&o| o != id)
            .filter_map(|&o| match source {
                Source::Document(doc) if paths.kind_in(own, o) == Kind::Scalar => {
                    doc.get(o).map(|l| (o, l, doc.text.as_str()))
                }
                Source::Item(item) => item.get(o).map(|l| (o, l, item.text)),
                _ => None,
            })
            .filter_map(candidate);
        classify(self.comparer, ty, t, p, similarity.unwrap_or(0.0), found)
    }

    /// Compares document `truth` with one model's prediction `pred`
    /// (empty when there is none), whose schema validity is `valid`, over
    /// the model's fields `plan`, into `out` (emptied first). With several
    /// schemas (SPEC §7.2) the document's own schema is `own` and its own
    /// field set, built in `own_plan`, replaces `plan`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn compare_document(
        &self,
        plan: &FieldSet,
        own: Option<&OwnSchema>,
        own_plan: &mut FieldSet,
        truth: &FlatDoc<'_>,
        truth_sides: &[Option<Side<'_>>],
        pred: &FlatDoc<'_>,
        grid: &mut F1Grid,
        valid: bool,
        has_prediction: bool,
        out: &mut DocOut,
    ) {
        out.clear();
        out.valid = valid;
        out.has_prediction = has_prediction;
        let paths = self.paths;
        let comparer = self.comparer;
        let config = comparer.config;
        let plan: &FieldSet = if paths.several.is_some() {
            own_field_set(paths, own, truth, pred, own_plan);
            let lists = |id: &&PathId| paths.kind_in(own, **id) != Kind::Items;
            out.own_rows
                .extend(own_plan.top.iter().filter(lists).map(|&id| id as u32));
            out.own_rows.extend(
                own_plan
                    .item_fields
                    .iter()
                    .flat_map(|(_, f)| f.iter().map(|&id| id as u32)),
            );
            out.own_items = !own_plan.item_fields.is_empty();
            own_plan
        } else {
            plan
        };
        // Every item leaf of the prediction as a side, once asked for.
        let mut pred_sides = None;
        for &id in &plan.top {
            let (t, p) = (truth.get(id), pred.get(id));
            match paths.kind_in(own, id) {
                Kind::Scalar => self.record(
                    own,
                    id,
                    t.map(|l| (l, truth.text.as_str())),
                    p.map(|l| (l, pred.text.as_str())),
                    (None, None),
                    Others::Document(&plan.top, truth),
                    out,
                ),
                Kind::Set => {
                    let confidence = p.and_then(|l| l.confidence);
                    out.uncovered |= p.is_some_and(|l| l.present) && confidence.is_none();
                    let (t, p) = (t.map(|l| l.value), p.map(|l| l.value));
                    let (te, pe) = (set_elements(comparer, t), set_elements(comparer, p));
                    let sc = SetCounts::of(&te, &pe);
                    let scores = (!sc.both_empty()).then(|| {
                        let r = set_scores(&te, &pe, &config.top_k, config.zero_division);
                        SetSums {
                            precision: r.precision,
                            recall: r.recall,
                            f1: r.f1,
                            accuracy: r.accuracy,
                            legacy_accuracy: r.legacy_accuracy,
                            hits: r.hit_at_k,
                        }
                    });
                    out.sets.push(SetEvent {
                        path: id as u32,
                        counts: [sc.pred_in_true, sc.true_in_pred, sc.truth_len, sc.pred_len]
                            .map(|n| n as u64),
                        scores,
                        confidence,
                    });
                    if self.details {
                        let oc = sc.outcome_counts();
                        out.fields.push(FieldDetail {
                            field: paths.table.name(id).to_string(),
                            truth_item: None,
                            pred_item: None,
                            truth: t.map_or(Value::Null, Json::to_value),
                            prediction: p.map_or(Value::Null, Json::to_value),
                            outcome: set_display_outcome(&sc),
                            error_type: None,
                            belongs_to: None,
                            similarity: None,
                            cer: None,
                            confidence,
                            set_errors: Some([oc.missed, oc.spurious]),
                        });
                    }
                }
                Kind::Items => {
                    let sub = plan
                        .item_fields
                        .iter()
                        .find(|(l, _)| *l == id)
                        .map_or(&[][..], |(_, f)| f.as_slice());
                    let p_sides = pred_sides.get_or_insert_with(|| pred.item_sides());
                    let ti: Vec<Item<'_, '_>> = truth.items(id, truth_sides).collect();
                    let pi: Vec<Item<'_, '_>> = pred.items(id, p_sides).collect();
                    grid.fill(comparer, &ti, &pi);
                    let matches = match_items(grid, |i, j, out| {
                        partial_credit(comparer, &ti[i], &pi[j], out)
                    });
                    out.items.truth_items += ti.len() as u64;
                    out.items.pred_items += pi.len() as u64;
                    out.items.recognised += matches
                        .iter()
                        .filter(|x| x.f1 >= config.item_f1_threshold)
                        .count() as u64;
                    let mut t_matched = vec![false; ti.len()];
                    let mut p_matched = vec![false; pi.len()];
                    for x in &matches {
                        t_matched[x.truth] = true;
                        p_matched[x.pred] = true;
                        for &s in sub {
                            self.record(
                                own,
                                s,
                                ti[x.truth].get(s).map(|l| (l, ti[x.truth].text)),
                                pi[x.pred].get(s).map(|l| (l, pi[x.pred].text)),
                                (Some(x.truth), Some(x.pred)),
                                Others::Item(sub, &ti[x.truth]),
                                out,
                            );
                        }
                    }
                    for (i, item) in ti.iter().enumerate().filter(|(i, _)| !t_matched[*i]) {
                        for &s in sub {
                            self.record(
                                own,
                                s,
                                item.get(s).map(|l| (l, item.text)),
                                None,
                                (Some(i), None),
                                Others::None,
                                out,
                            );
                        }
                    }
                    for (j, item) in pi.iter().enumerate().filter(|(j, _)| !p_matched[*j]) {
                        for &s in sub {
                            self.record(
                                own,
                                s,
                                None,
                                item.get(s).map(|l| (l, item.text)),
                                (None, Some(j)),
                                Others::None,
                                out,
                            );
                        }
                    }
                }
            }
        }
    }
}
