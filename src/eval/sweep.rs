//! Threshold sweeps: F1 and accuracy as a function of one matching
//! threshold, per model (issue #5, part 3).
//!
//! Owns: which configuration key each sweepable threshold is, the default
//! grid, and the literal re-evaluation — for every value of the grid the
//! configuration is copied, the one key is set, and the whole evaluation
//! ([`crate::eval::evaluate`]) runs again on the same parsed input. No
//! shortcut: each point is exactly the report `fieldscope eval` would give
//! with that threshold in the config.
//!
//! The three thresholds (SPEC §2.3, §3.4, §4):
//!
//! * [`SweepParam::Similarity`] — `partial_matching.string.exact_threshold`:
//!   a string is exact when similarity ≥ it (SPEC §2.3, method
//!   `"similarity"`). Of the two similarity thresholds it is the one strict
//!   F1 and accuracy depend on: `partial_threshold` only moves outcomes
//!   between *partial* and *incorrect*, which the strict scores count alike
//!   (SPEC §3.1). The sweep sets `string_match.method` to `"similarity"`:
//!   under another method the threshold is never read and every point
//!   would be the same.
//! * [`SweepParam::Cer`] — `string_match.cer_threshold`: exact when
//!   cer ≤ it (SPEC §2.3, method `"cer"`); the sweep sets the method to
//!   `"cer"` for the same reason.
//! * [`SweepParam::Item`] — `item_f1_threshold`: an item is recognised when
//!   matched with item_f1 ≥ it (SPEC §3.4). The method is left as
//!   configured. Field outcomes — and so micro F1, accuracy and macro F1 —
//!   do not depend on it (SPEC §3.4: matched pairs' fields become outcomes
//!   whether or not the item is recognised); item F1 and item-count
//!   accuracy do, so every point also carries those.
//!
//! Every other key keeps its configured value. The values are evaluated
//! in ascending order, each distinct value once.
//!
//! Depends on: [`crate::eval::evaluate`], [`crate::eval::config`],
//! [`crate::eval::report`], [`crate::error`]. Pure: no I/O.

use crate::error::{Error, ErrorKind};
use crate::eval::config::{Config, MatchMethod};
use crate::eval::evaluate::{evaluate_owned, EvalInput, IntoDocFile, ModelInput};
use crate::eval::model::DocFile;
use crate::eval::report::Report;
use serde::{Deserialize, Serialize};

/// A threshold that can be swept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SweepParam {
    /// `partial_matching.string.exact_threshold` under method `"similarity"`.
    Similarity,
    /// `string_match.cer_threshold` under method `"cer"`.
    Cer,
    /// `item_f1_threshold`.
    Item,
}

impl SweepParam {
    pub const ALL: [SweepParam; 3] = [SweepParam::Similarity, SweepParam::Cer, SweepParam::Item];

    /// The name used on the command line (`--param NAME`) and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            SweepParam::Similarity => "similarity",
            SweepParam::Cer => "cer",
            SweepParam::Item => "item",
        }
    }

    /// The configuration key the sweep sets (SPEC §4).
    pub fn key(self) -> &'static str {
        match self {
            SweepParam::Similarity => "partial_matching.string.exact_threshold",
            SweepParam::Cer => "string_match.cer_threshold",
            SweepParam::Item => "item_f1_threshold",
        }
    }

    /// Words for axis titles and captions.
    pub fn label(self) -> &'static str {
        match self {
            SweepParam::Similarity => "String similarity threshold (exact when similarity ≥ t)",
            SweepParam::Cer => "CER threshold (exact when CER ≤ t)",
            SweepParam::Item => "Item F1 threshold (item recognised when item F1 ≥ t)",
        }
    }

    /// Parses a name; the error lists the names.
    pub fn parse(name: &str) -> Result<SweepParam, Error> {
        let wanted = name.trim();
        SweepParam::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Usage,
                    format!("unknown threshold {wanted:?}; expected one of: similarity, cer, item"),
                )
            })
    }

    /// The value `config` has for this threshold.
    pub fn configured(self, config: &Config) -> f64 {
        match self {
            SweepParam::Similarity => config.partial_matching.string.exact_threshold,
            SweepParam::Cer => config.string_match.cer_threshold,
            SweepParam::Item => config.item_f1_threshold,
        }
    }

    /// The largest value the key accepts (SPEC §4: similarities and item
    /// F1 are at most 1; a CER can exceed 1).
    fn max(self) -> f64 {
        match self {
            SweepParam::Cer => f64::INFINITY,
            SweepParam::Similarity | SweepParam::Item => 1.0,
        }
    }

    /// `config` with this threshold set to `value` (and, for similarity
    /// and CER, the method that reads it). Errors when `value` is outside
    /// the key's range, naming the key, as the config check does.
    pub fn apply(self, config: &Config, value: f64) -> Result<Config, Error> {
        if !(value.is_finite() && (0.0..=self.max()).contains(&value)) {
            let range = if self.max().is_finite() {
                "between 0 and 1"
            } else {
                "of at least 0"
            };
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "key `{}` expects a number {range}, found {value}",
                    self.key()
                ),
            ));
        }
        let mut c = config.clone();
        match self {
            SweepParam::Similarity => {
                c.string_match.method = MatchMethod::Similarity;
                c.partial_matching.string.exact_threshold = value;
            }
            SweepParam::Cer => {
                c.string_match.method = MatchMethod::Cer;
                c.string_match.cer_threshold = value;
            }
            SweepParam::Item => c.item_f1_threshold = value,
        }
        Ok(c)
    }
}

/// The default grid: 0.00, 0.05, …, 1.00 (21 values), each computed as
/// i / 20 so that it is the `f64` nearest the decimal (0.15 here equals
/// 0.15 typed in a config).
pub fn default_grid() -> Vec<f64> {
    (0..=20).map(|i| f64::from(i) / 20.0).collect()
}

/// One model at one threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub threshold: f64,
    /// Micro F1 (SPEC §3.1–§3.2: counts pooled, strict).
    pub micro_f1: f64,
    /// Micro accuracy, (TP + TN) / N pooled.
    pub micro_accuracy: f64,
    /// F1 macro over documents (SPEC §3.2, as `macro_f1` configures).
    pub macro_documents_f1: f64,
    /// Item F1 (SPEC §3.4); `null` when the model has no item list.
    pub item_f1: Option<f64>,
    /// Item-count accuracy (SPEC §3.4); `null` without item lists.
    pub item_count_accuracy: Option<f64>,
}

impl SweepPoint {
    fn of(threshold: f64, report: &crate::eval::report::ModelReport) -> SweepPoint {
        SweepPoint {
            threshold,
            micro_f1: report.micro.f1,
            micro_accuracy: report.micro.accuracy,
            macro_documents_f1: report.macro_documents.f1,
            item_f1: report.items.as_ref().map(|i| i.f1),
            item_count_accuracy: report.items.as_ref().map(|i| i.item_count_accuracy),
        }
    }
}

/// One model's points, in ascending threshold order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepSeries {
    pub model: String,
    pub points: Vec<SweepPoint>,
}

/// A whole sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// Which threshold was swept.
    pub param: SweepParam,
    /// Its configuration key.
    pub key: String,
    /// The string-match method every point used.
    pub method: MatchMethod,
    /// The value the configuration gives the key (the chart marks it).
    pub configured: f64,
    /// The configuration the sweep started from (SPEC §4, every key; the
    /// swept key and the method are set per point as described above).
    pub config: serde_json::Value,
    /// The thresholds evaluated, ascending.
    pub values: Vec<f64>,
    /// Number of ground-truth documents.
    pub documents: usize,
    pub models: Vec<SweepSeries>,
    /// The warnings of the evaluation (every point reads the same input;
    /// each distinct warning once, in order).
    pub warnings: Vec<String>,
}

/// Evaluates `input` once per value of `values` with `param` set to that
/// value, everything else as `config` says. The input is turned into
/// forests once ([`IntoDocFile`]) and each evaluation gets a copy of them,
/// so nothing is parsed twice.
///
/// Errors: an empty `values`, a value outside the key's range (the message
/// names the key), and whatever [`crate::eval::evaluate`] returns.
pub fn sweep<F: IntoDocFile>(
    input: EvalInput<F>,
    config: &Config,
    param: SweepParam,
    values: &[f64],
) -> Result<Sweep, Error> {
    let mut values: Vec<f64> = values.to_vec();
    if values.is_empty() {
        return Err(Error::new(
            ErrorKind::Usage,
            "a sweep needs at least one threshold value",
        ));
    }
    // Every value is checked before anything is evaluated.
    for &v in &values {
        param.apply(config, v)?;
    }
    values.sort_by(f64::total_cmp);
    values.dedup();

    let docs = to_docs(input)?;
    let mut models: Vec<SweepSeries> = docs
        .models
        .iter()
        .map(|m| SweepSeries {
            model: m.name.clone(),
            points: Vec::with_capacity(values.len()),
        })
        .collect();
    let mut warnings: Vec<String> = Vec::new();
    let mut documents = 0;
    let mut method = config.string_match.method;
    for &value in &values {
        let c = param.apply(config, value)?;
        method = c.string_match.method;
        let report: Report = evaluate_owned(docs.clone(), &c, false)?;
        documents = report.documents;
        for w in report.warnings {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
        for (series, m) in models.iter_mut().zip(&report.models) {
            series.points.push(SweepPoint::of(value, m));
        }
    }
    Ok(Sweep {
        param,
        key: param.key().to_string(),
        method,
        configured: param.configured(config),
        config: config.to_json(),
        values,
        documents,
        models,
        warnings,
    })
}

impl Sweep {
    /// The string-match method's name as configs write it.
    pub fn method_name(&self) -> &'static str {
        match self.method {
            MatchMethod::Similarity => "similarity",
            MatchMethod::Cer => "cer",
            MatchMethod::Exact => "exact",
        }
    }
}

fn to_docs<F: IntoDocFile>(input: EvalInput<F>) -> Result<EvalInput<DocFile>, Error> {
    let EvalInput {
        truth,
        models,
        schema,
    } = input;
    Ok(EvalInput {
        truth: truth.into_doc_file()?,
        models: models
            .into_iter()
            .map(|m| {
                Ok(ModelInput {
                    name: m.name,
                    file: m.file.into_doc_file()?,
                    cost: m.cost,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?,
        schema,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_grid_is_0_to_1_in_steps_of_0_05() {
        let g = default_grid();
        assert_eq!(g.len(), 21);
        assert_eq!(g[0], 0.0);
        assert_eq!(g[3], 0.15);
        assert_eq!(g[17], 0.85);
        assert_eq!(g[20], 1.0);
    }

    #[test]
    fn each_param_sets_its_key_and_method() {
        let c = Config::default();
        let s = SweepParam::Similarity.apply(&c, 0.3).unwrap();
        assert_eq!(s.partial_matching.string.exact_threshold, 0.3);
        assert_eq!(s.string_match.method, MatchMethod::Similarity);
        let s = SweepParam::Cer.apply(&c, 0.3).unwrap();
        assert_eq!(s.string_match.cer_threshold, 0.3);
        assert_eq!(s.string_match.method, MatchMethod::Cer);
        let s = SweepParam::Item.apply(&c, 0.3).unwrap();
        assert_eq!(s.item_f1_threshold, 0.3);
        assert_eq!(s.string_match.method, c.string_match.method);
        assert_eq!(SweepParam::Similarity.configured(&c), 0.85);
        assert_eq!(SweepParam::Cer.configured(&c), 0.15);
        assert_eq!(SweepParam::Item.configured(&c), 0.85);
    }

    #[test]
    fn out_of_range_values_name_the_key() {
        let c = Config::default();
        let e = SweepParam::Similarity.apply(&c, 1.5).unwrap_err();
        assert_eq!(
            e.message,
            "key `partial_matching.string.exact_threshold` expects a number between 0 and 1, found 1.5"
        );
        let e = SweepParam::Cer.apply(&c, -0.1).unwrap_err();
        assert_eq!(
            e.message,
            "key `string_match.cer_threshold` expects a number of at least 0, found -0.1"
        );
        assert!(SweepParam::Cer.apply(&c, 2.0).is_ok());
        assert!(SweepParam::Item.apply(&c, f64::NAN).is_err());
    }

    #[test]
    fn names_parse_case_insensitively_and_unknown_ones_are_listed() {
        assert_eq!(SweepParam::parse(" CER ").unwrap(), SweepParam::Cer);
        let e = SweepParam::parse("sim").unwrap_err();
        assert_eq!(
            e.message,
            "unknown threshold \"sim\"; expected one of: similarity, cer, item"
        );
    }
}
