//! The imaginary models: how each gets things wrong ([`ModelProfile`], its
//! named profiles) and how its confidences behave ([`ConfidenceStyle`],
//! [`draw_confidence`]).
//!
//! Owns: the profiles' rates and one value's confidence draw. May depend
//! on `fastrand` only; knows nothing of invoices or records.

use fastrand::Rng;

/// How an imaginary model gets things wrong. Rates are probabilities in
/// 0..=1, drawn independently.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelProfile {
    /// The model's name: the prediction file's name in [`SynthData`], and
    /// part of the seed of its predictions.
    pub name: String,
    /// Per string value: one character substituted, deleted or inserted.
    pub typo_rate: f64,
    /// Per value: two different adjacent digits swapped (identifiers,
    /// postcodes, dates, amounts, quantities); no-op when there are none.
    pub digit_swap_rate: f64,
    /// Per value present in the truth: the model answers absent instead.
    pub omission_rate: f64,
    /// Per value absent in the truth (`NOT_FOUND`, missing `tax`, empty
    /// `codes`): the model invents a plausible value. Also adds an extra
    /// code to a non-empty `codes` at this rate, and an unknown top-level
    /// key `iban` at a tenth of it.
    pub hallucination_rate: f64,
    /// Whether half of the documents get their items in shuffled order.
    pub item_reorder: bool,
    /// Per truth item: the item is left out.
    pub item_drop_rate: f64,
    /// Per truth item (once for a document without items): an invented
    /// item (shipping, discount, a product) follows it.
    pub item_extra_rate: f64,
    /// Per record: written as raw model text
    /// `{"id": …, "output": "```json\n{…}\n```", "cost": …}` (SPEC §1.3);
    /// with [`Self::unparseable_raw`], a tenth of those do not parse (a
    /// refusal or a truncated answer).
    pub raw_output_rate: f64,
    /// Whether a tenth of its raw outputs are planted not to parse (a
    /// deliberate fault, which the evaluation warns about); `good` plants
    /// none, so its data gives no such warning. The random draws are the
    /// same either way: only those records' text differs.
    pub unparseable_raw: bool,
    /// Mean `cost` of one record; the actual cost grows with the number of
    /// items (longer output) and varies ±10 %.
    pub cost_per_doc: f64,
    /// How its confidences behave, when [`SynthOptions::confidence`] asks
    /// for them.
    pub confidence: ConfidenceStyle,
}

/// How a synthetic model's confidences behave (SPEC §8). Each value's
/// confidence comes from a noisy signal of whether the model got it right:
/// s = 1 (right) or 0 (wrong) plus a normal error (σ = 0.45), and the
/// calibrated confidence is the chance of being right given s when a share
/// π of values are right, P = π·φ(s − 1) / (π·φ(s − 1) + (1 − π)·φ(s))
/// (π about what the kind of profile gets right: 0.95, 0.85, 0.8), rounded
/// to 3 decimals. A record written as raw model text carries none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfidenceStyle {
    /// The calibrated confidence, on every value and line item.
    Calibrated,
    /// Overconfident: 1 − (1 − P)/4, so that most values claim 0.9 or more.
    Overconfident,
    /// Calibrated, on the top-level scalar fields only (no vendor or
    /// customer fields, codes or line items).
    Partial,
}

impl ModelProfile {
    /// Accurate and fairly expensive: few errors of any kind.
    pub fn good() -> Self {
        ModelProfile {
            name: "good".into(),
            typo_rate: 0.02,
            digit_swap_rate: 0.01,
            omission_rate: 0.03,
            hallucination_rate: 0.05,
            item_reorder: true,
            item_drop_rate: 0.02,
            item_extra_rate: 0.02,
            raw_output_rate: 0.05,
            unparseable_raw: false,
            cost_per_doc: 0.012,
            confidence: ConfidenceStyle::Calibrated,
        }
    }

    /// Says `NOT_FOUND` whenever unsure: many omissions and dropped items,
    /// almost no hallucination — high accuracy on NOT_FOUND-heavy fields,
    /// low recall (SPEC's M0).
    pub fn conservative() -> Self {
        ModelProfile {
            name: "conservative".into(),
            typo_rate: 0.02,
            digit_swap_rate: 0.01,
            omission_rate: 0.20,
            hallucination_rate: 0.01,
            item_reorder: false,
            item_drop_rate: 0.12,
            item_extra_rate: 0.005,
            raw_output_rate: 0.02,
            unparseable_raw: true,
            cost_per_doc: 0.006,
            confidence: ConfidenceStyle::Partial,
        }
    }

    /// Cheap and eager: always answers, often wrongly — typos, swapped
    /// digits, invented values and items, sloppy raw output.
    pub fn aggressive() -> Self {
        ModelProfile {
            name: "aggressive".into(),
            typo_rate: 0.08,
            digit_swap_rate: 0.05,
            omission_rate: 0.02,
            hallucination_rate: 0.50,
            item_reorder: true,
            item_drop_rate: 0.03,
            item_extra_rate: 0.12,
            raw_output_rate: 0.15,
            unparseable_raw: true,
            cost_per_doc: 0.002,
            confidence: ConfidenceStyle::Overconfident,
        }
    }

    /// [`Self::conservative`] on the paradox data: a little fewer
    /// omissions and dropped items. Higher accuracy than
    /// [`Self::aggressive_paradox`] (its true negatives), lower recall and F1.
    pub fn conservative_paradox() -> Self {
        ModelProfile {
            omission_rate: 0.19,
            item_drop_rate: 0.11,
            ..Self::conservative()
        }
    }

    /// [`Self::aggressive`] on the paradox data: invents a value for most
    /// absent fields (70 %), with fewer typos, swapped digits and invented
    /// items. Higher F1 than [`Self::conservative_paradox`], lower accuracy.
    pub fn aggressive_paradox() -> Self {
        ModelProfile {
            typo_rate: 0.03,
            digit_swap_rate: 0.02,
            hallucination_rate: 0.70,
            item_extra_rate: 0.10,
            ..Self::aggressive()
        }
    }
}

/// One value's confidence (see [`ConfidenceStyle`]): the noisy signal
/// s = right + 0.45·z (z standard normal, Box–Muller), the calibrated
/// P(right | s) for a model right on 85 % of values, made overconfident
/// or not, rounded to 3 decimals.
pub(super) fn draw_confidence(rng: &mut Rng, wrong: bool, style: ConfidenceStyle) -> f64 {
    const SIGMA: f64 = 0.45;
    // About the share of values each kind of profile gets right.
    let right_share = match style {
        ConfidenceStyle::Calibrated => 0.95,
        ConfidenceStyle::Partial => 0.85,
        ConfidenceStyle::Overconfident => 0.8,
    };
    let (u1, u2) = (1.0 - rng.f64(), rng.f64());
    let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
    let s = if wrong { 0.0 } else { 1.0 } + SIGMA * z;
    let density = |x: f64| (-x * x / (2.0 * SIGMA * SIGMA)).exp();
    let right = right_share * density(s - 1.0);
    let p = right / (right + (1.0 - right_share) * density(s));
    let c = match style {
        ConfidenceStyle::Overconfident => 1.0 - (1.0 - p) / 4.0,
        ConfidenceStyle::Calibrated | ConfidenceStyle::Partial => p,
    };
    ((c * 1000.0).round() / 1000.0).clamp(0.0, 1.0)
}
