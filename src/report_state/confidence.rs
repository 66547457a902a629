//! The Confidence panel's state (SPEC §8): where the threshold slider
//! stands, the per-field thresholds typed into its table and the model
//! whose thresholds the download writes — one value, changed only by
//! [`ConfidencePanel::update`] — and what the panel reads off a report at
//! the slider's threshold (each model's [`Reading`] from the report's
//! `views.sweep` rows, its sentence in words) and the metrics config the
//! download writes ([`ConfidencePanel::thresholds_config`]).
//!
//! Pure and tested natively; `app::confidence` keeps one in a signal and
//! draws it. Nothing here panics on user data: a threshold typed into the
//! table is text until it reads as a number in [0, 1].

use crate::eval::confidence::FieldConfidence;
use crate::eval::report::{ConfidenceReport, ThresholdSweepPoint};
use crate::eval::Report;
use std::collections::BTreeMap;

/// The slider's steps: τ = k / 100, k = 0..=100 (the `views.sweep` rows).
pub const STEPS: usize = 100;

/// How far a model's mean confidence may stray from its accuracy and the
/// model still be called calibrated.
pub const CALIBRATION_MARGIN: f64 = 0.05;

/// Room for the rounding of a difference of decimals (0.75 − 0.80 is
/// −0.05000000000000004): a gap of exactly the margin is within it.
const ROUNDING: f64 = 1e-9;

/// The file the download writes.
pub const CONFIG_FILE: &str = "confidence-thresholds.json";

/// The panel's one state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConfidencePanel {
    /// The slider, in hundredths (0..=[`STEPS`]).
    step: usize,
    /// Thresholds typed into the per-field table, as typed, by (model
    /// index in the report, field path). A row without an entry shows its
    /// recommended threshold.
    edits: BTreeMap<(usize, String), String>,
    /// The model whose thresholds the download writes (its index in the
    /// report; a model with confidences).
    model: usize,
}

/// What the user does in the panel.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// The slider moved; its value as the input gives it (`"0.6"`).
    Slide(String),
    /// A threshold typed into the row of (model, field).
    Edit {
        model: usize,
        path: String,
        text: String,
    },
    /// The model whose thresholds the download writes, as the menu gives
    /// its index (`"2"`).
    Choose(String),
    /// Every row back to its recommended threshold.
    Reset,
}

/// How a model's confidences compare with its accuracy, over all its
/// values: `mean_confidence − accuracy` above [`CALIBRATION_MARGIN`] is
/// overconfident, below its negative underconfident (a gap of exactly
/// the margin, as the decimals say it, is calibrated: 0.75 against 0.80
/// is −0.05000000000000004 in floating point).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Calibration {
    Overconfident,
    Calibrated,
    Underconfident,
}

impl Calibration {
    pub fn of(c: &ConfidenceReport) -> Calibration {
        let gap = c.mean_confidence - c.accuracy;
        if gap > CALIBRATION_MARGIN + ROUNDING {
            Calibration::Overconfident
        } else if gap < -(CALIBRATION_MARGIN + ROUNDING) {
            Calibration::Underconfident
        } else {
            Calibration::Calibrated
        }
    }

    /// The word (also the `data-calibration` attribute).
    pub fn word(self) -> &'static str {
        match self {
            Calibration::Overconfident => "overconfident",
            Calibration::Calibrated => "calibrated",
            Calibration::Underconfident => "underconfident",
        }
    }
}

/// One model at the slider's threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading<'r> {
    /// The model's index in the report.
    pub model: usize,
    pub name: &'r str,
    /// The sweep row's τ.
    pub threshold: f64,
    /// All the model's pairs (values with a confidence).
    pub pairs: u64,
    pub accepted: u64,
    pub correct: u64,
    /// Documents going straight through at τ for every field, and how many
    /// of them are wholly right.
    pub documents: u64,
    pub documents_right: u64,
    /// All documents of the report.
    pub all_documents: u64,
    /// Over all the model's values (the sweep rows carry no mean
    /// confidence of the accepted values).
    pub mean_confidence: f64,
    pub accuracy_overall: f64,
    pub calibration: Calibration,
}

fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

impl Reading<'_> {
    /// The share of values approved: accepted / pairs.
    pub fn approved(&self) -> Option<f64> {
        share(self.accepted, self.pairs)
    }

    /// Their accuracy: correct / accepted (none when nothing is accepted).
    pub fn accuracy(&self) -> Option<f64> {
        share(self.correct, self.accepted)
    }

    /// The wrong values let through per 1,000 values: (accepted − correct)
    /// / pairs × 1000.
    pub fn errors_per_1000(&self) -> Option<f64> {
        share(self.accepted.saturating_sub(self.correct), self.pairs).map(|x| x * 1000.0)
    }

    /// The share of all documents going straight through.
    pub fn straight_through(&self) -> Option<f64> {
        share(self.documents, self.all_documents)
    }

    /// Whether the values approved at τ are overconfident by the rule of
    /// [`Calibration`]: each claims at least τ, so their mean confidence
    /// is at least τ, and an accuracy more than [`CALIBRATION_MARGIN`]
    /// below τ already puts the gap over the margin. (The sweep rows carry
    /// no mean confidence of the values approved, so the other verdicts
    /// cannot be told at a threshold.)
    pub fn overconfident_here(&self) -> bool {
        self.accuracy()
            .is_some_and(|a| a + CALIBRATION_MARGIN + ROUNDING < self.threshold)
    }

    /// The sentence in words: "At confidence ≥ 0.90, aggressive is right
    /// 71 % of the time (412 of 580 values approved): overconfident there,
    /// as every value approved claims at least 0.90; over all its 2250
    /// values it is overconfident (mean confidence 0.92 against accuracy
    /// 0.79)." Names go in as they are; the page shows hidden characters
    /// (`format::shown`).
    pub fn sentence(&self) -> String {
        let overall = format!(
            "over all its {} it is {} (mean confidence {:.2} against accuracy {:.2})",
            values(self.pairs),
            self.calibration.word(),
            self.mean_confidence,
            self.accuracy_overall
        );
        let at = format!("At confidence ≥ {:.2}, {}", self.threshold, self.name);
        if self.accepted == 0 {
            return format!("{at} approves none of its values; {overall}.");
        }
        let here = if self.overconfident_here() {
            format!(
                ": overconfident there, as every value approved claims at least {:.2}",
                self.threshold
            )
        } else {
            String::new()
        };
        format!(
            "{at} is right {} of the time ({} of {} approved){here}; {overall}.",
            whole_percent(self.correct, self.accepted),
            self.correct,
            values(self.accepted)
        )
    }
}

/// "1 value", "2 values".
fn values(n: u64) -> String {
    match n {
        1 => "1 value".into(),
        n => format!("{n} values"),
    }
}

/// `part / whole` as a whole percentage ("71 %"), with one decimal where
/// rounding would say 100 % or 0 % of something that is not all or
/// nothing ("99.6 %"); "—" when `whole` is 0.
pub fn whole_percent(part: u64, whole: u64) -> String {
    let Some(x) = share(part, whole) else {
        return "—".into();
    };
    let p = 100.0 * x;
    let rounded = p.round();
    if (rounded == 100.0 && part < whole) || (rounded == 0.0 && part > 0) {
        format!("{p:.1} %")
    } else {
        format!("{rounded:.0} %")
    }
}

/// A threshold as typed: empty is none (the field falls back to
/// `confidence.straight_through`), else a number in [0, 1].
pub fn parse_threshold(text: &str) -> Result<Option<f64>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(Some(x)),
        Ok(_) => Err("a threshold is between 0 and 1".into()),
        Err(_) => Err("not a number".into()),
    }
}

/// One row of the per-field table.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldRow<'r> {
    pub model: usize,
    pub name: &'r str,
    pub path: &'r str,
    pub field: &'r FieldConfidence,
    /// The threshold as the row's input shows it: typed, else the
    /// recommended one, else empty.
    pub text: String,
    pub edited: bool,
}

impl FieldRow<'_> {
    pub fn threshold(&self) -> Result<Option<f64>, String> {
        parse_threshold(&self.text)
    }
}

/// The recommended threshold as an input shows it (the shortest text that
/// reads back as the same number).
fn recommended_text(field: &FieldConfidence) -> String {
    field
        .recommended_threshold
        .map(|x| x.to_string())
        .unwrap_or_default()
}

/// The models with confidences: (index, name, block).
fn with_confidence(report: &Report) -> impl Iterator<Item = (usize, &str, &ConfidenceReport)> {
    report
        .models
        .iter()
        .enumerate()
        .filter_map(|(i, m)| m.confidence.as_ref().map(|c| (i, m.name.as_str(), c)))
}

impl ConfidencePanel {
    /// The panel for `report`: the slider at the configured
    /// `straight_through` threshold (so that its documents are the
    /// report's, `field_thresholds` aside), the download for the first
    /// model with confidences, nothing typed.
    pub fn new(report: &Report) -> ConfidencePanel {
        let first = with_confidence(report).next();
        let threshold = first.map_or(0.95, |(_, _, c)| c.straight_through.threshold);
        ConfidencePanel {
            step: to_step(threshold).unwrap_or(95),
            edits: BTreeMap::new(),
            model: first.map_or(0, |(i, _, _)| i),
        }
    }

    /// The one transition.
    pub fn update(&mut self, report: &Report, message: Message) {
        match message {
            Message::Slide(text) => {
                if let Some(step) = text.trim().parse::<f64>().ok().and_then(to_step) {
                    self.step = step;
                }
            }
            Message::Edit { model, path, text } => {
                let known = report
                    .models
                    .get(model)
                    .and_then(|m| m.confidence.as_ref())
                    .is_some_and(|c| c.fields.contains_key(&path));
                if known {
                    self.edits.insert((model, path), text);
                }
            }
            Message::Choose(text) => {
                let chosen = text
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&i| report.models.get(i).is_some_and(|m| m.confidence.is_some()));
                if let Some(i) = chosen {
                    self.model = i;
                }
            }
            Message::Reset => self.edits.clear(),
        }
    }

    /// The slider's step (hundredths).
    pub fn step(&self) -> usize {
        self.step
    }

    /// The slider's threshold, τ = step / 100.
    pub fn threshold(&self) -> f64 {
        self.step as f64 / STEPS as f64
    }

    /// The model whose thresholds the download writes.
    pub fn model(&self) -> usize {
        self.model
    }

    /// Everything typed into the table, by (model index, field path).
    pub fn edits(&self) -> &BTreeMap<(usize, String), String> {
        &self.edits
    }

    /// The text typed into the row of (model, field), if any.
    pub fn typed(&self, model: usize, path: &str) -> Option<&str> {
        self.edits
            .get(&(model, path.to_string()))
            .map(String::as_str)
    }

    /// The threshold text of the row of (model, field): typed, else the
    /// recommended one, else empty.
    pub fn text_of(&self, model: usize, path: &str, field: &FieldConfidence) -> String {
        self.typed(model, path)
            .map_or_else(|| recommended_text(field), str::to_string)
    }

    /// Whether anything was typed into the table.
    pub fn edited(&self) -> bool {
        !self.edits.is_empty()
    }

    /// Each model with confidences at the slider's threshold; a model
    /// whose report has no `views` is left out.
    pub fn readings<'r>(&self, report: &'r Report) -> Vec<Reading<'r>> {
        with_confidence(report)
            .filter_map(|(model, name, c)| {
                let row = sweep_row(&c.views.as_ref()?.sweep, self.threshold())?;
                Some(Reading {
                    model,
                    name,
                    threshold: row.threshold,
                    pairs: c.pairs,
                    accepted: row.accepted,
                    correct: row.correct,
                    documents: row.documents,
                    documents_right: row.documents_right,
                    all_documents: report.documents as u64,
                    mean_confidence: c.mean_confidence,
                    accuracy_overall: c.accuracy,
                    calibration: Calibration::of(c),
                })
            })
            .collect()
    }

    /// The per-field table: every model with confidences, its fields by
    /// path.
    pub fn field_rows<'r>(&self, report: &'r Report) -> Vec<FieldRow<'r>> {
        with_confidence(report)
            .flat_map(|(model, name, c)| {
                c.fields.iter().map(move |(path, field)| FieldRow {
                    model,
                    name,
                    path,
                    field,
                    text: self.text_of(model, path, field),
                    edited: self.typed(model, path).is_some(),
                })
            })
            .collect()
    }

    /// The metrics config for the chosen model's thresholds, as the
    /// download writes it: `{"confidence": {"field_thresholds": {PATH: τ,
    /// …}}}`, paths sorted, rows left empty left out. An error names the
    /// first field whose threshold does not read.
    pub fn thresholds_config(&self, report: &Report) -> Result<String, String> {
        let mut thresholds = serde_json::Map::new();
        for row in self
            .field_rows(report)
            .into_iter()
            .filter(|r| r.model == self.model)
        {
            match row.threshold() {
                Ok(Some(t)) => {
                    thresholds.insert(row.path.to_string(), serde_json::Value::from(t));
                }
                Ok(None) => {}
                Err(why) => {
                    return Err(format!(
                        "The threshold of {} ({}) is not usable: {why}.",
                        row.path,
                        row.text.trim()
                    ))
                }
            }
        }
        let config = serde_json::json!({"confidence": {"field_thresholds": thresholds}});
        serde_json::to_string_pretty(&config)
            .map(|mut s| {
                s.push('\n');
                s
            })
            .map_err(|e| e.to_string())
    }
}

/// A threshold in [0, 1] as a slider step (nearest hundredth).
fn to_step(x: f64) -> Option<usize> {
    (x.is_finite() && (0.0..=1.0).contains(&x)).then(|| (x * STEPS as f64).round() as usize)
}

/// The sweep row of τ (the row k/100 nearest it).
fn sweep_row(rows: &[ThresholdSweepPoint], threshold: f64) -> Option<&ThresholdSweepPoint> {
    rows.iter().min_by(|a, b| {
        (a.threshold - threshold)
            .abs()
            .total_cmp(&(b.threshold - threshold).abs())
    })
}

#[cfg(test)]
mod tests;
