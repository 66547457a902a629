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
//! (Python's `sum`). With no documents, or when any document's value is
//! undefined (the reference raises on it, or it is over [`MAX_WORK`]), a
//! mean is `None`.
//!
//! # Cost, and what bounds it
//!
//! Both references are super-linear: ANLS\* scores every truth item of a
//! list against every predicted item and runs the Hungarian algorithm
//! (`munkres` pads to a square and takes O(n³)–O(n⁴) steps) at each list
//! of each level; Zhang–Shasha takes O(|A|·|B|·min(depth, leaves)²) time
//! and |A|·|B| memory. Nesting is bounded by the readers (at most 127
//! levels), so the recursion cannot overflow the stack; size is bounded
//! per document by [`MAX_WORK`]. Donut's F1 is linear and never bounded.
//!
//! Depends on: `eval::dataset`, `eval::model`, `eval::report`, serde_json,
//! `eval::distance` (Levenshtein), rustc-hash. Pure: no I/O.

pub mod anls_star;
mod budget;
pub mod donut;
pub mod munkres;
pub mod python;

use crate::error::{Error, ErrorKind};
use crate::eval::dataset::{read_predictions, read_truth, Predictions, Truth};
use crate::eval::model::DocFile;
use crate::eval::report::{LiteratureDocument, LiteratureReport};
use crate::eval::source::RecordSource;
use serde_json::Value;
use std::sync::Arc;

pub use budget::{Budget, TooLarge, MAX_WORK};

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

/// The literature metrics of every model (`(name, file)`), in the models'
/// order, and the warnings about documents too large to score: the truth
/// and prediction files are matched as the evaluation matches them (SPEC
/// §1.1, §1.3, with the configured id field); the matching's warnings are
/// the evaluation's and are not repeated.
pub fn evaluate(
    truth: Arc<DocFile>,
    models: Vec<(String, Arc<DocFile>)>,
    id_field: Option<&str>,
    metrics: Metrics,
    details: bool,
) -> Result<(Vec<LiteratureReport>, Vec<String>), Error> {
    let mut job = Job::new(truth, models, id_field, metrics, details)?;
    while job.done() < job.total() {
        job.step(usize::MAX)?;
    }
    let (reports, warnings) = job.finish();
    Ok((reports.into_iter().map(|(_, r)| r).collect(), warnings))
}

/// [`evaluate`] a slice at a time, for the app: [`Job::step`] scores the
/// next documents (model by model, in the truth file's order) until
/// [`Job::done`] reaches [`Job::total`], then [`Job::finish`]. The result
/// is the same as [`evaluate`]'s, however the steps are sliced.
#[derive(Debug)]
pub struct Job {
    truth: Truth<Arc<DocFile>>,
    models: Vec<(String, Predictions<Arc<DocFile>>, Accumulator)>,
    /// Document–model pairs scored so far.
    done: usize,
}

impl Job {
    /// Reads and matches the files; scores nothing yet. (Files in memory
    /// give no error; the `Result` is the record readers'.)
    pub fn new(
        truth: Arc<DocFile>,
        models: Vec<(String, Arc<DocFile>)>,
        id_field: Option<&str>,
        metrics: Metrics,
        details: bool,
    ) -> Result<Job, Error> {
        let mut matching = Vec::new();
        let truth = read_truth(truth, id_field, &mut matching)?;
        let mut scored = Vec::with_capacity(models.len());
        for (name, file) in models {
            let preds = read_predictions(&name, file, &truth, &mut matching)?;
            scored.push((name, preds, Accumulator::new(metrics, details)));
        }
        Ok(Job {
            truth,
            models: scored,
            done: 0,
        })
    }

    /// Document–model pairs to score.
    pub fn total(&self) -> usize {
        self.truth.documents.len() * self.models.len()
    }

    /// Document–model pairs scored.
    pub fn done(&self) -> usize {
        self.done
    }

    /// Scores up to `pairs` more document–model pairs; returns
    /// [`Job::done`].
    pub fn step(&mut self, pairs: usize) -> Result<usize, Error> {
        let documents = self.truth.documents.len();
        let end = self.done.saturating_add(pairs).min(self.total());
        while self.done < end {
            let (model, d) = (self.done / documents, self.done % documents);
            let (_, preds, acc) = &mut self.models[model];
            acc.add_document(&mut self.truth, preds, d)?;
            self.done += 1;
        }
        Ok(self.done)
    }

    /// Each model's report (with its name) and the warnings about
    /// documents too large to score, each naming its model.
    pub fn finish(self) -> (Vec<(String, LiteratureReport)>, Vec<String>) {
        let mut warnings = Vec::new();
        let reports = self
            .models
            .into_iter()
            .map(|(name, _, acc)| {
                let (report, too_large) = acc.finish();
                warnings.extend(too_large.iter().map(|w| format!("{name}: {w}")));
                (name, report)
            })
            .collect();
        (reports, warnings)
    }
}

/// One model's literature metrics, a document at a time (so that the app
/// can spread the work over frames): [`Accumulator::add_document`] for
/// each truth document in order, then [`Accumulator::finish`].
#[derive(Debug, Clone)]
pub struct Accumulator {
    metrics: Metrics,
    details: bool,
    anls: Vec<Option<f64>>,
    nted: Vec<Option<f64>>,
    f1: donut::F1Counts,
    documents: Vec<LiteratureDocument>,
    too_large: Vec<String>,
}

impl Accumulator {
    /// An empty accumulator for `metrics`, keeping the per-document values
    /// when `details`.
    pub fn new(metrics: Metrics, details: bool) -> Accumulator {
        Accumulator {
            metrics,
            details,
            anls: Vec::new(),
            nted: Vec::new(),
            f1: donut::F1Counts::default(),
            documents: Vec::new(),
            too_large: Vec::new(),
        }
    }

    /// Scores truth document `d` against its prediction in `preds` (the
    /// evaluated fields only; a missing or unparsed prediction is `null`).
    pub fn add_document<S: RecordSource, T: RecordSource>(
        &mut self,
        truth: &mut Truth<S>,
        preds: &mut Predictions<T>,
        d: usize,
    ) -> Result<(), Error> {
        let gt = truth.fields_value(d)?;
        let pred = preds.fields_value(d, &truth.scheme)?.unwrap_or(Value::Null);
        let id = truth.documents.get(d).map_or("", |doc| doc.id.as_str());
        self.add(id, &gt, &pred);
        Ok(())
    }

    /// Scores one document given as JSON values.
    pub fn add(&mut self, id: &str, gt: &Value, pred: &Value) {
        let mut row = LiteratureDocument {
            id: id.to_string(),
            ..LiteratureDocument::default()
        };
        let mut too_large = |metric: &str| {
            self.too_large.push(format!(
                "document {id:?} is too large for {metric} (more than {MAX_WORK} steps); \
                 it and the dataset's {metric} are left undefined"
            ))
        };
        if self.metrics.anls_star {
            let s = match anls_star::anls_star_bounded(gt, pred, MAX_WORK) {
                Ok(s) => s,
                Err(TooLarge) => {
                    too_large("ANLS*");
                    None
                }
            };
            self.anls.push(s);
            row.anls_star = Some(s);
        }
        if self.metrics.nted {
            let s = match donut::nted_bounded(pred, gt, MAX_WORK) {
                Ok(s) => Some(s),
                Err(TooLarge) => {
                    too_large("nTED");
                    None
                }
            };
            self.nted.push(s);
            row.nted = Some(s);
        }
        if self.metrics.donut_f1 {
            let c = donut::F1Counts::of(pred, gt);
            self.f1 = self.f1 + c;
            row.donut_f1 = Some(c.f1());
        }
        if self.details {
            self.documents.push(row);
        }
    }

    /// The model's report, and one message per document left unscored.
    pub fn finish(self) -> (LiteratureReport, Vec<String>) {
        let report = LiteratureReport {
            anls_star: self
                .metrics
                .anls_star
                .then(|| mean_all(&self.anls, |v| v.iter().fold(0.0, |a, b| a + b))),
            nted: self
                .metrics
                .nted
                .then(|| mean_all(&self.nted, python::numpy_sum)),
            donut_f1: self.metrics.donut_f1.then(|| self.f1.f1()),
            documents: self.details.then_some(self.documents),
        };
        (report, self.too_large)
    }
}

/// `sum(values) / len(values)` with `sum` as the reference sums; `None`
/// when there are no values or any is undefined (the reference would have
/// raised on it, or it was too large to compute: a mean over the others
/// would not be the reference's number).
fn mean_all(values: &[Option<f64>], sum: fn(&[f64]) -> f64) -> Option<f64> {
    let all: Option<Vec<f64>> = values.iter().copied().collect();
    let all = all?;
    (!all.is_empty()).then(|| sum(&all) / all.len() as f64)
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

    fn left_to_right(v: &[f64]) -> f64 {
        v.iter().fold(0.0, |a, b| a + b)
    }

    #[test]
    fn the_mean_is_undefined_when_any_value_is() {
        assert_eq!(mean_all(&[Some(1.0), Some(0.5)], left_to_right), Some(0.75));
        assert_eq!(mean_all(&[Some(1.0), None, Some(0.5)], left_to_right), None);
        assert_eq!(mean_all(&[None], left_to_right), None);
        assert_eq!(mean_all(&[], left_to_right), None);
    }

    /// An invoice with 30 line items (vendor, dates, totals), and a
    /// prediction with the items in reverse order, a few values changed and
    /// one item missing.
    fn invoice() -> (Value, Value) {
        use serde_json::json;
        let item = |i: usize, name: &str| {
            json!({"description": format!("{name} {i}"), "qty": i % 7 + 1,
                   "unit_price": format!("{}.50", i * 3), "amount": format!("{}.00", i * 11)})
        };
        let gt_items: Vec<Value> = (0..30).map(|i| item(i, "Widget")).collect();
        let pred_items: Vec<Value> = (1..30)
            .rev()
            .map(|i| item(i, if i % 4 == 0 { "Wdget" } else { "Widget" }))
            .collect();
        let head = json!({"invoice_number": "INV-2024-0042", "date": "2024-01-31",
                          "vendor": {"name": "ACME Corp", "address": "1 Main St", "vat": "DE123456789"},
                          "total": "1234.50", "currency": "EUR"});
        let mut gt = head.clone();
        gt["items"] = Value::Array(gt_items);
        let mut pred = head;
        pred["total"] = json!("1243.50");
        pred["items"] = Value::Array(pred_items);
        (gt, pred)
    }

    #[test]
    fn an_invoice_with_30_line_items_takes_under_1_percent_of_the_budget() {
        let (gt, pred) = invoice();
        let a = anls_star::anls_star_bounded(&gt, &pred, MAX_WORK / 100);
        assert_eq!(a.map(|s| s.is_some()), Ok(true));
        assert_eq!(a.ok().flatten(), anls_star::anls_star(&gt, &pred));
        let n = donut::nted_bounded(&pred, &gt, MAX_WORK / 100);
        assert_eq!(n, Ok(donut::nted(&pred, &gt)));
    }

    #[test]
    fn a_budget_spends_down_and_refuses_what_is_not_left() {
        let mut b = Budget::new(10);
        assert_eq!(b.spend(4), Ok(()));
        assert_eq!(b.spend(7), Err(TooLarge));
        assert_eq!(b.spend(6), Ok(()));
        assert_eq!(b.spend(1), Err(TooLarge));
    }
}
