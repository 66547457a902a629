//! Suspected truth errors (SPEC §9.3): the (document, field) slots where
//! the models agree with each other and not with the truth.
//!
//! Owns: what one model's comparison notes of a slot for the audit
//! ([`AuditSlot`], noted only where its outcome is neither `exact` nor
//! `true_negative`), the agreement threshold ([`required_support`]), the
//! suspects of one document from every model's notes
//! ([`document_suspects`]) and their order ([`sort_suspects`]).
//!
//! May depend on `compare` (every agreement is an outcome of §2.3, never a
//! rule of its own), `report` and `config`; pure: no I/O, no passes. The
//! evaluation calls [`document_suspects`] where each document's
//! [`DocOut`](crate::eval::evaluate)s of every model are at hand (the
//! comparison pass's sink, and `merge` over partial results), so a report
//! is the same for every `--jobs` and for partial results merged.
//!
//! Readings (docs/truth-audit.md): a model whose field set has no such
//! path notes nothing there and counts as a true negative (its answer is
//! absent, as is the truth's, or the path would be in its field set); a
//! supporter's confidence enters `mean_confidence` only when it carries
//! one; set fields (§3.3) are not audited (§9.3 names scalar and item
//! fields).

use crate::eval::compare::{Comparer, ValueType};
use crate::eval::report::{Outcome, Suspect};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// One model's answer at one slot whose outcome is neither `exact` nor
/// `true_negative` (the only slots that can be suspect): the path, the
/// truth item's index for an item field, the truth (`null` when absent),
/// the model's present prediction (`None` when absent: `missed`), how
/// that prediction is compared when taken as the truth (SPEC §9.3) and
/// its confidence (SPEC §8.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditSlot {
    pub path: u32,
    pub item: Option<u32>,
    pub truth: Value,
    pub pred: Option<Value>,
    pub as_truth: ValueType,
    pub confidence: Option<f64>,
}

impl AuditSlot {
    /// Whether an outcome is one the audit notes: neither `exact` nor
    /// `true_negative` (SPEC §9.3: a slot where some model is either is
    /// not suspect).
    pub fn notes(outcome: Outcome) -> bool {
        !matches!(outcome, Outcome::Exact | Outcome::TrueNegative)
    }
}

/// A slot: its path and, for an item field, the truth item's index.
type SlotKey = (u32, Option<u32>);
/// Each model's note at one slot, as (model, note), models in order.
type Answers<'n> = Vec<(usize, &'n AuditSlot)>;

/// The support a value needs among `models` models: max(2,
/// ⌈agreement·M⌉) (SPEC §9.3; ⌈0.5·3⌉ = 2, ⌈0.5·5⌉ = 3). A product within
/// 1e-9 of a whole number is that number (0.1·30 is 3.0000000000000004 in
/// floating point, and ⌈·⌉ must not make it 4).
pub fn required_support(agreement: f64, models: usize) -> usize {
    let x = agreement * models as f64;
    let nearest = x.round();
    let ceil = if (x - nearest).abs() < 1e-9 {
        nearest
    } else {
        x.ceil()
    };
    (ceil.max(0.0) as usize).max(2)
}

/// A slot's name in the report: the per-field table's `path`, with the
/// first `[]` given the truth item's 0-based index (`items[2].qty`).
pub fn slot_name(path: &str, item: Option<u32>) -> String {
    match item {
        Some(i) => path.replacen("[]", &format!("[{i}]"), 1),
        None => path.to_string(),
    }
}

/// The suspects of one document `id` (SPEC §9.3), appended to `found`:
/// `notes[m]` is model m's [`AuditSlot`]s (models in the order given,
/// `names[m]` their names), `path_name` names a path as the per-field
/// table does. A slot is suspect when every model noted it (none was
/// `exact` or `true_negative` there) and the first present prediction
/// with the most supporters — the models whose prediction is an `exact`
/// match of it, it taken as the truth — has at least
/// [`required_support`]. With fewer than two models nothing is suspect.
pub fn document_suspects<'n>(
    comparer: &Comparer<'_>,
    id: &str,
    names: &[String],
    notes: impl IntoIterator<Item = &'n [AuditSlot]>,
    path_name: &dyn Fn(u32) -> String,
    found: &mut Vec<Suspect>,
) {
    let models = names.len();
    if models < 2 {
        return;
    }
    let need = required_support(comparer.config.audit.agreement, models);
    // Per slot, in slot order: each model's note (models in order).
    let mut slots: BTreeMap<SlotKey, Answers<'_>> = BTreeMap::new();
    for (m, list) in notes.into_iter().enumerate() {
        for slot in list {
            slots
                .entry((slot.path, slot.item))
                .or_default()
                .push((m, slot));
        }
    }
    for ((path, item), answers) in slots {
        if answers.len() != models {
            continue;
        }
        let present: Vec<(usize, &AuditSlot, &Value)> = answers
            .iter()
            .filter_map(|&(m, s)| s.pred.as_ref().map(|p| (m, s, p)))
            .collect();
        if present.len() < need {
            continue;
        }
        let mut best: Option<(usize, Vec<usize>)> = None;
        for (k, &(_, a, av)) in present.iter().enumerate() {
            let supporters: Vec<usize> = present
                .iter()
                .enumerate()
                .filter(|(_, &(_, _, bv))| {
                    comparer.compare(a.as_truth, Some(av), Some(bv)).outcome == Outcome::Exact
                })
                .map(|(j, _)| j)
                .collect();
            if best
                .as_ref()
                .is_none_or(|(_, most)| supporters.len() > most.len())
            {
                best = Some((k, supporters));
            }
        }
        let Some((k, supporters)) = best else {
            continue;
        };
        if supporters.len() < need {
            continue;
        }
        let (_, proposer, proposed) = present[k];
        let confidences: Vec<f64> = supporters
            .iter()
            .filter_map(|&j| present[j].1.confidence)
            .collect();
        let mean_confidence = (!confidences.is_empty())
            .then(|| confidences.iter().sum::<f64>() / confidences.len() as f64);
        found.push(Suspect {
            id: id.to_string(),
            field: slot_name(&path_name(path), item),
            truth: proposer.truth.clone(),
            proposed: proposed.clone(),
            models: supporters
                .iter()
                .map(|&j| names[present[j].0].clone())
                .collect(),
            support: supporters.len(),
            mean_confidence,
        });
    }
}

/// SPEC §9.3's order: most support first, then the higher mean
/// confidence (`null` after every number), then id, then field (as
/// strings).
pub fn sort_suspects(suspects: &mut [Suspect]) {
    suspects.sort_by(|a, b| {
        b.support
            .cmp(&a.support)
            .then_with(|| match (a.mean_confidence, b.mean_confidence) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            })
            .then_with(|| a.id.cmp(&b.id))
            .then_with(|| a.field.cmp(&b.field))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_support_is_the_larger_of_two_and_the_ceiling() {
        // ⌈0.5·3⌉ = ⌈1.5⌉ = 2; ⌈0.5·5⌉ = ⌈2.5⌉ = 3; ⌈0.5·2⌉ = 1 → 2.
        assert_eq!(required_support(0.5, 3), 2);
        assert_eq!(required_support(0.5, 5), 3);
        assert_eq!(required_support(0.5, 2), 2);
        assert_eq!(required_support(0.5, 4), 2);
        // ⌈0.1·30⌉ = 3 (not 4 from 3.0000000000000004), ⌈1·7⌉ = 7, 0 → 2.
        assert_eq!(required_support(0.1, 30), 3);
        assert_eq!(required_support(1.0, 7), 7);
        assert_eq!(required_support(0.0, 7), 2);
    }

    #[test]
    fn slot_names_index_the_first_item_list() {
        assert_eq!(slot_name("items[].qty", Some(1)), "items[1].qty");
        assert_eq!(slot_name("total", None), "total");
        assert_eq!(
            slot_name("items[].product.name", Some(0)),
            "items[0].product.name"
        );
    }
}
