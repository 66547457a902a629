//! What one document contributes to one model ([`DocOut`]): every
//! comparison's outcome and CER counts in the order the pass makes them
//! ([`Event`]), each set field's element counts and scores ([`SetEvent`]),
//! the line-item tallies, the numeric counts and the compared values when
//! details are asked for — and their compact form in a partial result.
//! Made by `record` and `shard::compare_doc`, absorbed by `model_run`,
//! stored by `partial`. Depends on `report`, `audit`, `serde`; never on a
//! pass.

use crate::eval::audit::AuditSlot;
use crate::eval::report::{ErrorType, FieldDetail, ItemTally, Outcome};
use serde::{Deserialize, Serialize};

/// One comparison of a (document, field) pair: the field's path id, the
/// outcome and, when the comparison has one, the CER as (edits, len t,
/// rate) (SPEC §2.2, §2.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "EventTuple", try_from = "EventTuple")]
pub(crate) struct Event {
    pub path: u32,
    pub outcome: Outcome,
    pub cer: Option<(u64, u64, f64)>,
    /// The prediction's confidence (SPEC §8.2: with it, a pair).
    pub confidence: Option<f64>,
    /// SPEC §9.1: the error type of a `partial` or `incorrect` outcome
    /// (`None` for the others, whose error type is their outcome's name).
    pub error: Option<ErrorType>,
}

/// An [`Event`] as stored: `[path, outcome code, cer, confidence, error
/// type code]`.
#[derive(Serialize, Deserialize)]
struct EventTuple(u32, u8, Option<(u64, u64, f64)>, Option<f64>, Option<u8>);

impl From<Event> for EventTuple {
    fn from(e: Event) -> Self {
        EventTuple(
            e.path,
            outcome_code::of(e.outcome),
            e.cer,
            e.confidence,
            e.error.map(error_code::of),
        )
    }
}

impl TryFrom<EventTuple> for Event {
    type Error = String;

    fn try_from(t: EventTuple) -> Result<Self, String> {
        Ok(Event {
            path: t.0,
            outcome: outcome_code::outcome(t.1)?,
            cer: t.2,
            confidence: t.3,
            error: t.4.map(error_code::error).transpose()?,
        })
    }
}

/// One set field of one document (SPEC §3.3): its element counts
/// (`pred_in_true`, `true_in_pred`, |T|, |P|) and, unless both sides are
/// empty, its scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SetEvent {
    pub path: u32,
    pub counts: [u64; 4],
    pub scores: Option<SetSums>,
    /// The predicted list's confidence (SPEC §8.2).
    pub confidence: Option<f64>,
}

/// A set field's per-document scores, the terms of its sums.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SetSums {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
    pub legacy_accuracy: f64,
    pub hits: Vec<f64>,
}

/// What one document contributes to one model's report, in the order the
/// comparison pass records it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct DocOut {
    pub valid: bool,
    pub has_prediction: bool,
    pub events: Vec<Event>,
    pub sets: Vec<SetEvent>,
    #[serde(with = "tally")]
    pub items: ItemTally,
    pub numeric_exact: u64,
    pub numeric_total: u64,
    /// Whether a present predicted value carries no confidence (SPEC
    /// §8.4: the document cannot go straight through).
    pub uncovered: bool,
    /// The compared values (empty unless details were asked for).
    pub fields: Vec<FieldDetail>,
    /// The slots SPEC §9.3's audit may find suspect: those whose outcome
    /// is neither `exact` nor `true_negative` (noted only with two
    /// models or more).
    #[serde(default)]
    pub audit: Vec<AuditSlot>,
    /// SPEC §9.2: the document's value of each `slice_by` key, as JSON
    /// text (`None`: missing or null); empty without `slice_by`, and then
    /// not written to a partial result (which stays as before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slice: Vec<Option<String>>,
    /// With several schemas (SPEC §7.2; never in a partial result): the
    /// rows of the document's own field set (its scalar, set and item
    /// fields), and whether it holds an item list.
    #[serde(skip)]
    pub own_rows: Vec<u32>,
    #[serde(skip)]
    pub own_items: bool,
}

impl DocOut {
    /// The document's fields whose truth is present (SPEC §9.2's
    /// `_fields`): its truth-present outcomes (scalar and item fields,
    /// an item field once per truth item) and its set fields with a
    /// non-empty truth list. The same for every model.
    pub(crate) fn present_truth_fields(&self) -> u64 {
        let scalars = self
            .events
            .iter()
            .filter(|e| {
                !matches!(
                    e.outcome,
                    crate::eval::report::Outcome::Spurious
                        | crate::eval::report::Outcome::TrueNegative
                )
            })
            .count();
        let sets = self.sets.iter().filter(|s| s.counts[2] > 0).count();
        (scalars + sets) as u64
    }

    pub(crate) fn clear(&mut self) {
        self.valid = false;
        self.has_prediction = false;
        self.events.clear();
        self.sets.clear();
        self.items = ItemTally::default();
        self.numeric_exact = 0;
        self.numeric_total = 0;
        self.uncovered = false;
        self.fields.clear();
        self.audit.clear();
        self.slice.clear();
        self.own_rows.clear();
        self.own_items = false;
    }
}

/// An outcome as one small number in a partial result.
mod outcome_code {
    use crate::eval::report::Outcome;

    const ALL: [Outcome; 6] = [
        Outcome::Exact,
        Outcome::Partial,
        Outcome::Incorrect,
        Outcome::Missed,
        Outcome::Spurious,
        Outcome::TrueNegative,
    ];

    /// The outcome's code: its place in [`ALL`].
    pub fn of(o: Outcome) -> u8 {
        ALL.iter().position(|x| *x == o).unwrap_or(0) as u8
    }

    /// The outcome of a code.
    pub fn outcome(code: u8) -> Result<Outcome, String> {
        ALL.get(usize::from(code))
            .copied()
            .ok_or_else(|| format!("unknown outcome code {code}"))
    }
}

/// An error type as one small number in a partial result: its place in
/// [`ErrorType::ALL`].
mod error_code {
    use crate::eval::report::ErrorType;

    pub fn of(e: ErrorType) -> u8 {
        ErrorType::ALL.iter().position(|x| *x == e).unwrap_or(0) as u8
    }

    pub fn error(code: u8) -> Result<ErrorType, String> {
        ErrorType::ALL
            .get(usize::from(code))
            .copied()
            .ok_or_else(|| format!("unknown error type code {code}"))
    }
}

/// Line-item tallies as (recognised, truth items, predicted items).
mod tally {
    use crate::eval::report::ItemTally;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(t: &ItemTally, s: S) -> Result<S::Ok, S::Error> {
        (t.recognised, t.truth_items, t.pred_items).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ItemTally, D::Error> {
        let (recognised, truth_items, pred_items) = <(u64, u64, u64)>::deserialize(d)?;
        Ok(ItemTally {
            recognised,
            truth_items,
            pred_items,
        })
    }
}
