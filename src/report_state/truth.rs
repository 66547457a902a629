//! The "Check the truth" panel's state (SPEC §9.3, issue 31): the
//! suspects of the report evaluated without corrections (the baseline),
//! the decisions taken on them — Accept (the proposed value), Edit (a
//! typed value), Reject — in the order taken, and the decisions before
//! each change, for Undo. The corrections (the decisions that set a
//! value, in that order) are the corrections file the worker applies
//! before evaluating (`Request::SetCorrections`), the panel downloads and
//! a bundle keeps.
//!
//! Pure and tested natively; `report_state::Page` holds one and turns each
//! [`Message`] that changes the corrections into a new report request, so
//! a decision re-evaluates through the worker, never on the page.
//!
//! Readings (docs/truth-audit.md): a typed value is read as JSON when it
//! is JSON (`3`, `"3"`, `null`, `true`), else taken as the string typed
//! (trimmed); rejections stay in the panel (dismissed, undoable) but are
//! no corrections, so a bundle does not keep them; "F1" in the summary
//! line is each model's micro F1 (SPEC §3.1), before against after.

use crate::eval::report::Suspect;
use crate::eval::Report;
use serde_json::{json, Value};

/// A decision on one (document, field) slot: `to` is the value the truth
/// takes (`None`: rejected, the truth stays).
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub id: String,
    pub field: String,
    /// The truth's value as the suspect shows it (`null` when absent).
    pub from: Value,
    pub to: Option<Value>,
}

/// What the report evaluated without corrections says: its suspects (most
/// support first, SPEC §9.3's order) and each model's micro F1.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Baseline {
    pub suspects: Vec<Suspect>,
    pub f1: Vec<(String, f64)>,
}

impl Baseline {
    pub fn of(report: &Report) -> Baseline {
        Baseline {
            suspects: report.suspected_truth_errors.clone(),
            f1: report
                .models
                .iter()
                .map(|m| (m.name.clone(), m.micro.f1))
                .collect(),
        }
    }
}

/// What the user does in the panel (a suspect named by id and field).
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// Take the proposed value.
    Accept { id: String, field: String },
    /// Take the value typed.
    Edit {
        id: String,
        field: String,
        text: String,
    },
    /// Keep the truth; the suspect is dismissed.
    Reject { id: String, field: String },
    /// The decisions as they were before the last change.
    Undo,
    /// Every decision dropped (one step of Undo brings them back): the
    /// way out of corrections that no longer fit the truth.
    Clear,
}

/// The panel's one state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TruthCheck {
    /// Of the last report evaluated without corrections, while it is of
    /// the current files and settings.
    pub baseline: Option<Baseline>,
    decisions: Vec<Decision>,
    history: Vec<Vec<Decision>>,
}

/// A typed value: JSON when it reads as JSON, else the text (trimmed);
/// `None` when nothing is typed.
pub fn read_typed(text: &str) -> Option<Value> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    Some(serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string())))
}

impl TruthCheck {
    /// The decisions, in the order taken.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// The decision on (id, field), if any.
    pub fn decision(&self, id: &str, field: &str) -> Option<&Decision> {
        self.decisions
            .iter()
            .find(|d| d.id == id && d.field == field)
    }

    /// Whether there is a change to undo.
    pub fn can_undo(&self) -> bool {
        !self.history.is_empty()
    }

    /// The corrections: the decisions that set a value, in the order
    /// taken, as SPEC §9.3's corrections file.
    pub fn corrections(&self) -> Value {
        Value::Array(
            self.decisions
                .iter()
                .filter_map(|d| {
                    d.to.as_ref()
                        .map(|to| json!({"id": d.id, "field": d.field, "from": d.from, "to": to}))
                })
                .collect(),
        )
    }

    /// How many truth values the corrections change.
    pub fn corrected(&self) -> usize {
        self.decisions.iter().filter(|d| d.to.is_some()).count()
    }

    /// The suspect of (id, field) in the baseline.
    fn suspect(&self, id: &str, field: &str) -> Option<&Suspect> {
        self.baseline
            .as_ref()?
            .suspects
            .iter()
            .find(|s| s.id == id && s.field == field)
    }

    /// The truth's value at (id, field): the suspect's, else that of a
    /// decision already there (a correction a bundle brought).
    fn from(&self, id: &str, field: &str) -> Option<Value> {
        self.suspect(id, field)
            .map(|s| s.truth.clone())
            .or_else(|| self.decision(id, field).map(|d| d.from.clone()))
    }

    /// Applies `message`; `true` when the corrections changed (the page
    /// then asks for a new report under them).
    pub fn update(&mut self, message: Message) -> bool {
        let before = self.corrections();
        let (id, field, to) = match message {
            Message::Undo => {
                let Some(previous) = self.history.pop() else {
                    return false;
                };
                self.decisions = previous;
                return self.corrections() != before;
            }
            Message::Clear => {
                if self.decisions.is_empty() {
                    return false;
                }
                self.history.push(std::mem::take(&mut self.decisions));
                return self.corrections() != before;
            }
            Message::Accept { id, field } => {
                let Some(proposed) = self.suspect(&id, &field).map(|s| s.proposed.clone()) else {
                    return false;
                };
                (id, field, Some(proposed))
            }
            Message::Edit { id, field, text } => {
                let Some(to) = read_typed(&text) else {
                    return false;
                };
                (id, field, Some(to))
            }
            Message::Reject { id, field } => (id, field, None),
        };
        let Some(from) = self.from(&id, &field) else {
            return false;
        };
        let decision = Decision {
            id,
            field,
            from,
            to,
        };
        if self.decision(&decision.id, &decision.field) == Some(&decision) {
            return false;
        }
        self.history.push(self.decisions.clone());
        match self
            .decisions
            .iter_mut()
            .find(|d| d.id == decision.id && d.field == decision.field)
        {
            Some(d) => *d = decision,
            None => self.decisions.push(decision),
        }
        self.corrections() != before
    }

    /// The corrections a bundle brought (a corrections file's JSON list):
    /// the decisions from now on, with nothing to undo; the baseline is of
    /// files no longer shown.
    pub fn load(&mut self, list: &Value) {
        let decisions = list
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| {
                Some(Decision {
                    id: match c.get("id")? {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    },
                    field: c.get("field")?.as_str()?.to_string(),
                    from: c.get("from")?.clone(),
                    to: Some(c.get("to")?.clone()),
                })
            })
            .collect();
        *self = TruthCheck {
            decisions,
            ..TruthCheck::default()
        };
    }

    /// Every decision and the baseline gone (the files were cleared or
    /// the example loaded).
    pub fn reset(&mut self) {
        *self = TruthCheck::default();
    }

    /// The summary line: "3 truth values corrected; micro F1 of good
    /// moves from 0.8800 to 0.9100, of …" (`report` evaluated with the
    /// corrections; without a baseline, the count alone). `None` without
    /// corrections.
    pub fn summary(&self, report: &Report, number: impl Fn(f64) -> String) -> Option<String> {
        let n = self.corrected();
        if n == 0 {
            return None;
        }
        let count = match n {
            1 => "1 truth value corrected".to_string(),
            n => format!("{n} truth values corrected"),
        };
        let Some(baseline) = &self.baseline else {
            return Some(count);
        };
        let moves: Vec<String> = report
            .models
            .iter()
            .filter_map(|m| {
                let (_, before) = baseline.f1.iter().find(|(name, _)| *name == m.name)?;
                Some((m.name.as_str(), number(*before), number(m.micro.f1)))
            })
            .enumerate()
            .map(|(i, (name, a, b))| match i {
                0 => format!("micro F1 of {name} moves from {a} to {b}"),
                _ => format!("of {name} from {a} to {b}"),
            })
            .collect();
        if moves.is_empty() {
            return Some(count);
        }
        Some(format!("{count}; {}", moves.join(", ")))
    }
}

#[cfg(test)]
pub(crate) mod tests;
