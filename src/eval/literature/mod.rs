//! The literature's metrics, computed beside SPEC.md's so that numbers can
//! be compared with published work (issue #5, part 4). They are not part of
//! SPEC §5: the report carries them only when asked for
//! ([`crate::eval::report::LiteratureReport`]).
//!
//! * [`anls_star`] — ANLS\* (Peer et al., 2024), as the `anls_star`
//!   package computes it, per document over the whole JSON;
//! * [`donut`] — Donut's nTED accuracy and field F1 (Kim et al., 2022), as
//!   `JSONParseEvaluator` in `donut/util.py` computes them;
//! * [`munkres`] — the `munkres` package's Hungarian algorithm, which
//!   ANLS\* inherits its tie-breaking from;
//! * [`python`] — the bits of Python semantics both references rely on.
//!
//! # Inputs
//!
//! Each truth document's evaluated fields as JSON
//! ([`Truth::fields_value`]: the record without its id field and metadata
//! keys) against the matched prediction's ([`Predictions::fields_value`]).
//! Values are taken as they were read — NFC-normalised like all of
//! fieldscope's input, but without SPEC's absent-value spellings,
//! `ignored_fields`, number or date rules, which the references do not
//! know. A **missing or unparsed prediction is `None`** (JSON `null`), what
//! a caller of the references passes when a model produced nothing usable:
//! ANLS\* then scores 0 (a truth object against `None` is a type mismatch),
//! Donut normalises it to `{}` (nTED 0, every truth pair a false negative).
//!
//! # Dataset values
//!
//! * `anls_star`: the mean over truth documents of the per-document score
//!   (the package scores one pair; the paper averages over documents).
//! * `nted`: the mean over truth documents (Donut's `test.py`:
//!   `np.mean(accs)`).
//! * `donut_f1`: micro over the dataset — TP and FN + FP summed over
//!   documents, then `TP / (TP + (FN + FP)/2)` (Donut's `cal_f1` over all
//!   predictions).
//!
//! The nTED mean sums as numpy does ([`python::numpy_sum`], pairwise), so
//! it is bit-identical to Donut's; the ANLS\* mean sums left to right
//! (Python's `sum`). With no documents a mean is `None`.
//!
//! Depends on: `eval::dataset`, `eval::model`, `eval::report`, serde_json,
//! strsim, rustc-hash. Pure: no I/O.

pub mod anls_star;
pub mod donut;
pub mod munkres;
pub mod python;

use crate::error::{Error, ErrorKind};
use crate::eval::dataset::{read_predictions, read_truth, Predictions, Truth};
use crate::eval::model::DocFile;
use crate::eval::report::{LiteratureDocument, LiteratureReport};
use serde_json::Value;

/// Which literature metrics to compute.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Metrics {
    pub anls_star: bool,
    pub nted: bool,
    pub donut_f1: bool,
}

impl Metrics {
    /// The names `--metrics` accepts.
    pub const NAMES: [&'static str; 3] = ["anls_star", "nted", "donut_f1"];

    /// Every metric.
    pub const ALL: Metrics = Metrics {
        anls_star: true,
        nted: true,
        donut_f1: true,
    };

    /// Parses a comma-separated list of [`Metrics::NAMES`] (or `all`);
    /// spaces around names are ignored, an unknown or empty name is an
    /// error naming it and the accepted ones.
    pub fn parse(list: &str) -> Result<Metrics, Error> {
        let mut m = Metrics::default();
        for name in list.split(',').map(str::trim) {
            match name {
                "anls_star" => m.anls_star = true,
                "nted" => m.nted = true,
                "donut_f1" => m.donut_f1 = true,
                "all" => m = Metrics::ALL,
                other => {
                    return Err(Error::new(
                        ErrorKind::Usage,
                        format!(
                            "--metrics {list:?}: unknown metric {other:?}; expected a comma-separated list of {} (or all)",
                            Metrics::NAMES.join(", ")
                        ),
                    ))
                }
            }
        }
        Ok(m)
    }

    /// Whether any metric is asked for.
    pub fn any(self) -> bool {
        self.anls_star || self.nted || self.donut_f1
    }
}

/// The literature metrics of every model, in the models' order: the truth
/// and prediction files are matched as the evaluation matches them (SPEC
/// §1.1, §1.3, with the configured id field); the matching's warnings are
/// the evaluation's and are not repeated.
pub fn evaluate(
    truth: DocFile,
    models: Vec<DocFile>,
    id_field: Option<&str>,
    metrics: Metrics,
    details: bool,
) -> Vec<LiteratureReport> {
    let mut warnings = Vec::new();
    let truth = read_truth(truth, id_field, &mut warnings);
    models
        .into_iter()
        .enumerate()
        .map(|(i, file)| {
            let preds = read_predictions(&format!("model {}", i + 1), file, &truth, &mut warnings);
            score_model(&truth, &preds, metrics, details)
        })
        .collect()
}

/// One model's literature metrics over the truth documents.
pub fn score_model(
    truth: &Truth,
    preds: &Predictions,
    metrics: Metrics,
    details: bool,
) -> LiteratureReport {
    let mut anls = Vec::new();
    let mut nted = Vec::new();
    let mut f1 = donut::F1Counts::default();
    let mut documents = Vec::new();
    for (d, doc) in truth.documents.iter().enumerate() {
        let gt = truth.fields_value(d);
        let pred = preds.fields_value(d, &truth.scheme).unwrap_or(Value::Null);
        let mut row = LiteratureDocument {
            id: doc.id.clone(),
            ..LiteratureDocument::default()
        };
        if metrics.anls_star {
            let s = anls_star::anls_star(&gt, &pred);
            anls.push(s);
            row.anls_star = Some(s);
        }
        if metrics.nted {
            let s = donut::nted(&pred, &gt);
            nted.push(s);
            row.nted = Some(Some(s));
        }
        if metrics.donut_f1 {
            let c = donut::F1Counts::of(&pred, &gt);
            f1 = f1 + c;
            row.donut_f1 = Some(c.f1());
        }
        if details {
            documents.push(row);
        }
    }
    LiteratureReport {
        anls_star: metrics.anls_star.then(|| mean_defined(&anls)),
        nted: metrics
            .nted
            .then(|| (!nted.is_empty()).then(|| python::numpy_sum(&nted) / nted.len() as f64)),
        donut_f1: metrics.donut_f1.then(|| f1.f1()),
        documents: details.then_some(documents),
    }
}

/// The mean of the defined values, summed left to right; `None` when there
/// is none.
fn mean_defined(values: &[Option<f64>]) -> Option<f64> {
    let defined: Vec<f64> = values.iter().flatten().copied().collect();
    (!defined.is_empty()).then(|| defined.iter().fold(0.0, |a, b| a + b) / defined.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing_the_metric_list() {
        assert_eq!(
            Metrics::parse("anls_star, nted").unwrap(),
            Metrics {
                anls_star: true,
                nted: true,
                donut_f1: false
            }
        );
        assert_eq!(Metrics::parse("all").unwrap(), Metrics::ALL);
        let e = Metrics::parse("anls,nted").unwrap_err();
        assert!(
            e.message.contains("unknown metric \"anls\""),
            "{}",
            e.message
        );
        assert!(Metrics::parse("").is_err());
    }

    #[test]
    fn the_mean_leaves_undefined_values_out() {
        assert_eq!(mean_defined(&[Some(1.0), None, Some(0.5)]), Some(0.75));
        assert_eq!(mean_defined(&[None]), None);
        assert_eq!(mean_defined(&[]), None);
    }
}
