//! The gate of `fieldscope gate` (issue 17; beyond SPEC.md): thresholds on
//! a model's scores and noise-aware no-regression checks of candidates
//! against a baseline, each with a verdict, for CI.
//!
//! Owns: [`run_gate`] (checks and verdicts from a report evaluated with
//! details), [`GateReport`] (what the Markdown, JSON and JUnit renderers of
//! `crate::export::gate` print) and the one-sided paired bootstrap test.
//! Pure: no I/O, no clock; the verdict depends only on the report, the
//! specification and the options (seed included). Depends on `bootstrap`
//! (the resampling: [`draw_weights`], the same draws as `--bootstrap`;
//! [`holm`]; [`quantile`]), `counts` (through [`metric::ResampleSums`]),
//! `report`, `config`. Submodules: [`metric`] (paths, `--require`
//! expressions, resampled metrics) and [`flips`] (flipped documents).
//!
//! **Threshold** (`--require [MODEL:]METRIC OP NUMBER`): passes when the
//! model's value in the report satisfies `value OP NUMBER`; a `null` value
//! (not applicable, SPEC §3.1, e.g. `cer` with no present truth value)
//! fails, since the requirement cannot be shown to hold. Without `MODEL:`
//! it applies to every model but the baseline (to every model when there
//! is no baseline). When the metric can be recomputed per resample the
//! check also carries the value's percentile interval (as `--bootstrap`'s).
//!
//! With SPEC §9.2's slices (`--slice-by`), `slices.weak` and
//! `slices.tested` (how many of the model's slices are weak, are tested)
//! are metric paths too: `--require "slices.weak <= 0"`.
//!
//! **No regression** (`--baseline B`, `--no-regression METRICS`): for each
//! candidate C and metric s, oriented so that larger is better (`o = 1`, or
//! `o = −1` for the rates of `crate::eval::rates` declared lower-is-better
//! (`hallucination_rate`, `abstention_rate`) and
//! `confidence.ece`, `.brier`, `.aurc`), the observed
//! drop is `d = o·(s(B) − s(C))` on all documents and `d_b` on resample
//! `b` (documents drawn with replacement, the same draws for both models,
//! [`draw_weights`] with the generator seeded by `seed`, exactly the
//! resamples of `eval --bootstrap` with that seed). The one-sided p-value
//! of "C is worse" is, as the two-sided test of `bootstrap` but one tail
//! (Berg-Kirkpatrick, Burkett & Klein 2012: the null distribution of `d`
//! is `d_b − d`), `p = (1 + #{b : d_b − d ≥ d}) / (B + 1)`, and `p = 1`
//! when `d ≤ 0` (no drop observed). The p-values of all the metrics checked
//! for one candidate are Holm-adjusted together (`bootstrap::holm`); the
//! check fails when `p̃ ≤ alpha` **and** `d > min_drop`, so a candidate
//! that is better (`d ≤ 0`) never fails. The interval shown is the
//! percentile interval (type 7) of the difference `s(C) − s(B)`. With `m`
//! checks the smallest adjusted p is `m/(B + 1)`; when that exceeds
//! `alpha` a warning says no check can fail. A confidence score (SPEC
//! §8.5) can be undefined on a resample (no pair drawn; `auroc` with every
//! pair right or every one wrong): that resample is left out of its
//! interval and of its test, as in `bootstrap`.

pub mod flips;
pub mod metric;

use crate::error::{Error, ErrorKind};
use crate::eval::bootstrap::{draw_weights, holm, quantile, ConfidenceResampler};
use crate::eval::config::Config;
use crate::eval::report::{ModelReport, Report};
use flips::{compare_models, Comparison};
use metric::{MetricPath, Op, Requirement, ResampleSums, Resampled};
use serde::{Deserialize, Serialize};

/// The metrics `--no-regression` checks when it is not given: micro F1,
/// macro-over-documents F1, and (`fields[*].f1`) every field's F1.
pub const DEFAULT_NO_REGRESSION: [&str; 3] = ["micro.f1", "macro_documents.f1", "fields[*].f1"];

/// How the gate resamples and decides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GateOptions {
    /// Resamples `B` (default 2,000).
    pub resamples: usize,
    /// Seed of the resampling (default 1, as `--bootstrap`'s).
    pub seed: u64,
    /// A no-regression check fails when its Holm-adjusted p ≤ `alpha`
    /// (default 0.05) …
    pub alpha: f64,
    /// … and the drop is larger than `min_drop` (default 0).
    pub min_drop: f64,
    /// Coverage of the intervals shown (0.95).
    pub level: f64,
}

impl Default for GateOptions {
    fn default() -> Self {
        GateOptions {
            resamples: 2000,
            seed: 1,
            alpha: 0.05,
            min_drop: 0.0,
            level: 0.95,
        }
    }
}

/// What to check.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GateSpec {
    pub requirements: Vec<Requirement>,
    pub baseline: Option<String>,
    /// `None`: [`DEFAULT_NO_REGRESSION`] (when there is a baseline).
    pub no_regression: Option<Vec<MetricPath>>,
}

/// The kind of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// A `--require` threshold.
    Require,
    /// A one-sided paired test against the baseline.
    NoRegression,
}

/// A percentile interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    pub low: f64,
    pub high: f64,
}

/// One check and its verdict. Keys that do not apply to its kind are
/// `null`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub model: String,
    pub kind: CheckKind,
    /// The metric path (`micro.f1`, `fields[total].f1`).
    pub metric: String,
    pub passed: bool,
    /// The model's value (`null`: not applicable).
    pub value: Option<f64>,
    /// `require`: the expression as given, its operator and number.
    pub expression: Option<String>,
    pub op: Option<Op>,
    pub threshold: Option<f64>,
    /// `no_regression`: the baseline, its value, `value − baseline_value`,
    /// the drop (oriented: positive is worse), the one-sided p-value and
    /// its Holm adjustment over the candidate's checks.
    pub baseline: Option<String>,
    pub baseline_value: Option<f64>,
    pub difference: Option<f64>,
    pub drop: Option<f64>,
    pub lower_is_better: Option<bool>,
    pub p_value: Option<f64>,
    pub p_holm: Option<f64>,
    /// `require`: the value's interval; `no_regression`: the difference's.
    /// `null` when the metric is not resampled.
    pub interval: Option<Bounds>,
}

/// The gate's verdict and every check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateReport {
    pub fieldscope_gate: u32,
    pub passed: bool,
    pub checks_failed: usize,
    pub documents: usize,
    pub models: Vec<String>,
    pub baseline: Option<String>,
    pub method: String,
    pub resamples: usize,
    pub seed: u64,
    pub level: f64,
    pub alpha: f64,
    pub min_drop: f64,
    /// Per model in the report's order: its `--require` checks in the order
    /// given, then its no-regression checks.
    pub checks: Vec<Check>,
    /// Per candidate: its flipped documents against the baseline.
    pub comparisons: Vec<Comparison>,
    /// The evaluation's warnings, then the gate's.
    pub warnings: Vec<String>,
}

fn usage(message: String) -> Error {
    Error::new(ErrorKind::Usage, message)
}

/// A model's per-resample values of the metrics asked of it.
struct Series {
    model: usize,
    /// The model's per-field rows, in its tallies' order.
    fields: Vec<String>,
    /// Whether any metric is one of `bootstrap::METRICS`.
    headline: bool,
    /// When any metric is one of `bootstrap::CONFIDENCE_METRICS`: the
    /// model's pairs indexed (`None` also for a model without pairs).
    confidence: Option<ConfidenceResampler>,
    metrics: Vec<Resampled>,
    /// `values[k]`: metric `k` on each resample.
    values: Vec<Vec<f64>>,
    /// Metric `k` on all documents once each.
    estimates: Vec<f64>,
}

impl Series {
    fn index(&self, metric: &Resampled) -> usize {
        self.metrics.iter().position(|m| m == metric).unwrap_or(0)
    }

    /// The row of field `name`.
    fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|n| n == name)
    }

    /// The sums of the documents drawn `weights[i]` times each.
    fn sums(&self, report: &Report, weights: &[u32], config: &Config) -> ResampleSums {
        let m = &report.models[self.model];
        let docs = m.document_tallies.as_deref().unwrap_or(&[]);
        ResampleSums::new(
            docs,
            weights,
            m.items.is_some(),
            self.headline,
            self.confidence.as_ref(),
            config,
        )
    }
}

/// Each wanted model's series, with the estimates (every document once):
/// an error when a model has no document tallies.
fn prepare_series(
    report: &Report,
    wanted: Vec<(usize, Vec<Resampled>)>,
    config: &Config,
) -> Result<Vec<Series>, Error> {
    let ones = vec![1u32; report.documents];
    let mut series = Vec::with_capacity(wanted.len());
    for (model, metrics) in wanted {
        let m = &report.models[model];
        if m.document_tallies.is_none() {
            return Err(Error::new(
                ErrorKind::Usage,
                "the gate needs a report evaluated with details",
            ));
        }
        let mut s = Series {
            model,
            fields: m.fields.iter().map(|f| f.field.clone()).collect(),
            headline: metrics.iter().any(|x| matches!(x, Resampled::Headline(_))),
            confidence: if metrics
                .iter()
                .any(|x| matches!(x, Resampled::Confidence(_)))
            {
                ConfidenceResampler::new(m.document_tallies.as_deref().unwrap_or(&[]), config)
            } else {
                None
            },
            values: vec![Vec::new(); metrics.len()],
            estimates: Vec::new(),
            metrics,
        };
        let all = s.sums(report, &ones, config);
        s.estimates = s
            .metrics
            .iter()
            .map(|x| all.value(x, |name| s.field(name), config))
            .collect();
        series.push(s);
    }
    Ok(series)
}

/// The percentile interval of `values` at `level` (type 7, as `bootstrap`).
fn interval(mut values: Vec<f64>, level: f64) -> Option<Bounds> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let tail = (1.0 - level) / 2.0;
    Some(Bounds {
        low: quantile(&values, tail),
        high: quantile(&values, 1.0 - tail),
    })
}

/// The resampled values of `metric` that enter its interval: all of them,
/// but for a confidence score only those of the resamples where it is
/// defined (not NaN), as `bootstrap`'s confidence intervals.
fn defined(metric: &Resampled, values: &[f64]) -> Vec<f64> {
    match metric {
        Resampled::Confidence(_) => values.iter().copied().filter(|x| !x.is_nan()).collect(),
        _ => values.to_vec(),
    }
}

/// The one-sided p-value of "worse" from the observed drop `d` and the
/// resampled drops (see the module documentation).
pub fn one_sided_p(drop: f64, resampled: &[f64]) -> f64 {
    if drop <= 0.0 || resampled.is_empty() {
        return 1.0;
    }
    let extreme = resampled.iter().filter(|&&d| d - drop >= drop).count();
    ((1 + extreme) as f64 / (resampled.len() + 1) as f64).min(1.0)
}

fn model_index(report: &Report, name: &str, what: &str) -> Result<usize, Error> {
    report
        .models
        .iter()
        .position(|m| m.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = report.models.iter().map(|m| m.name.as_str()).collect();
            usage(format!(
                "{what}: no model is named {name:?}; the models are: {}",
                names.join(", ")
            ))
        })
}

/// The no-regression metrics of one candidate against the baseline:
/// `fields[*].S` expanded to every field of either model (sorted by name),
/// each checked to be resampled and to exist.
fn regression_metrics(
    list: &[MetricPath],
    base: &ModelReport,
    cand: &ModelReport,
) -> Result<Vec<(String, Resampled)>, Error> {
    let mut fields: Vec<&str> = base
        .fields
        .iter()
        .chain(&cand.fields)
        .map(|f| f.field.as_str())
        .collect();
    fields.sort_unstable();
    fields.dedup();
    let mut out: Vec<(String, Resampled)> = Vec::new();
    for path in list {
        let expanded = match path.every_field() {
            Some(score) => fields.iter().map(|f| MetricPath::field(f, score)).collect(),
            None => vec![path.clone()],
        };
        for p in expanded {
            let Some(r) = Resampled::of(&p) else {
                let rates: Vec<&str> = crate::eval::rates::RATES.iter().map(|r| r.key).collect();
                return Err(usage(format!(
                    "--no-regression `{p}`: not a metric the bootstrap recomputes; use micro.*, macro_documents.*, macro_fields.* (precision, recall, f1, accuracy), document_extraction_score, items.precision/recall/f1, partial.*, field_f1_partial, {}, schema_validity_rate, fields[NAME].precision/recall/f1/accuracy (fields[*].f1: every field) or confidence.ece/brier/auroc/aurc",
                    rates.join(", ")
                )));
            };
            if let Resampled::Field(name, _) = &r {
                if !fields.contains(&name.as_str()) {
                    return Err(usage(format!(
                        "--no-regression `{p}`: no field is named `{name}`; the fields are: {}",
                        fields.join(", ")
                    )));
                }
            }
            if let Resampled::Confidence(k) = r {
                for m in [base, cand] {
                    let why = match &m.confidence {
                        None => "has no confidences",
                        Some(c) if k == 2 && c.auroc.is_none() => {
                            "has no AUROC (its values are all right or all wrong)"
                        }
                        Some(_) => continue,
                    };
                    return Err(usage(format!(
                        "--no-regression `{p}`: model {:?} {why}",
                        m.name
                    )));
                }
            }
            if r.is_items() {
                for m in [base, cand] {
                    if m.items.is_none() {
                        return Err(usage(format!(
                            "--no-regression `{p}`: model {:?} has no line items",
                            m.name
                        )));
                    }
                }
            }
            if !out.iter().any(|(t, _)| *t == p.to_string()) {
                out.push((p.to_string(), r));
            }
        }
    }
    Ok(out)
}

/// Runs every check of `spec` on `report` (evaluated with details, so
/// that each model has its document tallies and details). Usage errors
/// name the expression, model, metric or field that is wrong.
pub fn run_gate(
    report: &Report,
    config: &Config,
    spec: &GateSpec,
    options: &GateOptions,
) -> Result<GateReport, Error> {
    GateRun::new(report, config, spec, options)?.finish()
}

/// A threshold to check: the model, the requirement, its value, and its
/// resampled form (for the interval).
type Required = (usize, Requirement, Option<f64>, Option<Resampled>);

/// A gate in progress: [`GateRun::new`] checks the specification and
/// computes the estimates, [`GateRun::step`] runs a few resamples (the
/// browser app runs a slice between frames), [`GateRun::finish`] decides.
/// Stepping in any slices gives the report of [`run_gate`].
pub struct GateRun<'r> {
    report: &'r Report,
    config: &'r Config,
    options: GateOptions,
    baseline: Option<usize>,
    requires: Vec<Required>,
    candidates: Vec<(usize, Vec<(String, Resampled)>)>,
    series: Vec<Series>,
    rng: fastrand::Rng,
    weights: Vec<u32>,
    done: usize,
}

impl<'r> GateRun<'r> {
    /// Checks `spec` against `report` (usage errors as [`run_gate`]'s) and
    /// computes every estimate; no resample yet.
    pub fn new(
        report: &'r Report,
        config: &'r Config,
        spec: &GateSpec,
        options: &GateOptions,
    ) -> Result<GateRun<'r>, Error> {
        if spec.no_regression.is_some() && spec.baseline.is_none() {
            return Err(usage(
                "--no-regression compares candidates with a baseline: give --baseline NAME".into(),
            ));
        }
        if spec.requirements.is_empty() && spec.baseline.is_none() {
            return Err(usage(
                "nothing to check: give --require EXPR and/or --baseline NAME".into(),
            ));
        }
        let baseline = match &spec.baseline {
            Some(name) => Some(model_index(report, name, "--baseline")?),
            None => None,
        };
        if baseline.is_some() && report.models.len() < 2 {
            return Err(usage(
                "--baseline needs at least one other model (--pred) to compare with it".into(),
            ));
        }
        let mut json: Vec<serde_json::Value> = report
            .models
            .iter()
            .map(|m| serde_json::to_value(m).unwrap_or_default())
            .collect();
        // SPEC §9.2: with slices, each model's `slices.weak` and
        // `slices.tested` (counts of its slices) are metrics too.
        if let Some(slices) = &report.slices {
            for (j, m) in json.iter_mut().zip(&slices.models) {
                if let serde_json::Value::Object(map) = j {
                    let tested = m.slices.iter().filter(|r| r.p_value.is_some()).count();
                    let weak = m.slices.iter().filter(|r| r.weak).count();
                    map.insert(
                        "slices".into(),
                        serde_json::json!({"weak": weak, "tested": tested}),
                    );
                }
            }
        }

        // The thresholds: which models, and their metrics looked up.
        let mut requires: Vec<Required> = Vec::new();
        for r in &spec.requirements {
            let models: Vec<usize> = match &r.model {
                Some(name) => vec![model_index(
                    report,
                    name,
                    &format!("--require `{}`", r.text),
                )?],
                None => (0..report.models.len())
                    .filter(|&i| Some(i) != baseline)
                    .collect(),
            };
            for i in models {
                let value = r.metric.lookup(&json[i]).map_err(|why| {
                    usage(format!(
                        "--require `{}`: model {:?}: {why}",
                        r.text, report.models[i].name
                    ))
                })?;
                requires.push((i, r.clone(), value, Resampled::of(&r.metric)));
            }
        }

        // The no-regression metrics of each candidate.
        let mut candidates: Vec<(usize, Vec<(String, Resampled)>)> = Vec::new();
        if let Some(b) = baseline {
            let list = match &spec.no_regression {
                Some(list) => list.clone(),
                None => DEFAULT_NO_REGRESSION
                    .iter()
                    .map(|m| MetricPath::parse(m))
                    .collect::<Result<_, _>>()?,
            };
            for c in (0..report.models.len()).filter(|&c| c != b) {
                let metrics = regression_metrics(&list, &report.models[b], &report.models[c])?;
                candidates.push((c, metrics));
            }
        }

        // What each model resamples.
        let mut wanted: Vec<(usize, Vec<Resampled>)> = Vec::new();
        let mut want = |model: usize, metric: &Resampled| {
            let at = match wanted.iter().position(|(m, _)| *m == model) {
                Some(at) => at,
                None => {
                    wanted.push((model, Vec::new()));
                    wanted.len() - 1
                }
            };
            if !wanted[at].1.contains(metric) {
                wanted[at].1.push(metric.clone());
            }
        };
        for (i, _, _, r) in &requires {
            if let Some(r) = r {
                want(*i, r);
            }
        }
        for (c, metrics) in &candidates {
            for (_, r) in metrics {
                want(*c, r);
                want(baseline.unwrap_or(0), r);
            }
        }
        let series = prepare_series(report, wanted, config)?;
        Ok(GateRun {
            report,
            config,
            options: *options,
            baseline,
            requires,
            candidates,
            series,
            rng: fastrand::Rng::with_seed(options.seed),
            weights: vec![0; report.documents],
            done: 0,
        })
    }

    /// Resamples done so far.
    pub fn done(&self) -> usize {
        self.done
    }

    /// Resamples asked for.
    pub fn resamples(&self) -> usize {
        self.options.resamples
    }

    /// Runs up to `n` more resamples (each one's draws shared by every
    /// model, [`draw_weights`]); returns how many are done in all.
    pub fn step(&mut self, n: usize) -> usize {
        let (report, config) = (self.report, self.config);
        for _ in 0..n {
            if self.done >= self.options.resamples || self.weights.is_empty() {
                break;
            }
            draw_weights(&mut self.rng, &mut self.weights);
            for s in &mut self.series {
                let r = s.sums(report, &self.weights, config);
                for k in 0..s.metrics.len() {
                    let v = r.value(&s.metrics[k], |name| s.field(name), config);
                    s.values[k].push(v);
                }
            }
            self.done += 1;
        }
        self.done
    }

    /// Runs the resamples left and decides every check.
    pub fn finish(mut self) -> Result<GateReport, Error> {
        self.step(usize::MAX);
        let GateRun {
            report,
            options,
            baseline,
            requires,
            candidates,
            series,
            ..
        } = self;
        let options = &options;
        let series_of = |model: usize| series.iter().find(|s| s.model == model);

        let mut per_model: Vec<Vec<Check>> = vec![Vec::new(); report.models.len()];
        for (i, r, value, resampled) in &requires {
            let i = *i;
            let bounds = resampled.as_ref().and_then(|x| {
                let s = series_of(i)?;
                interval(defined(x, &s.values[s.index(x)]), options.level)
            });
            per_model[i].push(Check {
                model: report.models[i].name.clone(),
                kind: CheckKind::Require,
                metric: r.metric.to_string(),
                passed: value.is_some_and(|v| r.op.holds(v, r.threshold)),
                value: *value,
                expression: Some(r.text.clone()),
                op: Some(r.op),
                threshold: Some(r.threshold),
                baseline: None,
                baseline_value: None,
                difference: None,
                drop: None,
                lower_is_better: None,
                p_value: None,
                p_holm: None,
                interval: bounds,
            });
        }
        let mut warnings = report.warnings.clone();
        let mut comparisons = Vec::new();
        if let Some(b) = baseline {
            let bs = series_of(b);
            for (c, metrics) in &candidates {
                let cs = series_of(*c);
                let mut checks = Vec::with_capacity(metrics.len());
                let mut p_values = Vec::with_capacity(metrics.len());
                for (name, r) in metrics {
                    let (Some(bs), Some(cs)) = (bs, cs) else {
                        continue;
                    };
                    let (bk, ck) = (bs.index(r), cs.index(r));
                    let (bv, cv) = (bs.estimates[bk], cs.estimates[ck]);
                    let o = if r.lower_is_better() { -1.0 } else { 1.0 };
                    let drop = o * (bv - cv);
                    // The resamples where both values are defined (a
                    // confidence score can be undefined on a resample).
                    let both: Vec<(f64, f64)> = bs.values[bk]
                        .iter()
                        .zip(&cs.values[ck])
                        .map(|(&x, &y)| (x, y))
                        .filter(|(x, y)| !x.is_nan() && !y.is_nan())
                        .collect();
                    let drops: Vec<f64> = both.iter().map(|(x, y)| o * (x - y)).collect();
                    let differences: Vec<f64> = both.iter().map(|(x, y)| y - x).collect();
                    let p = one_sided_p(drop, &drops);
                    p_values.push(p);
                    checks.push(Check {
                        model: report.models[*c].name.clone(),
                        kind: CheckKind::NoRegression,
                        metric: name.clone(),
                        passed: true,
                        value: Some(cv),
                        expression: None,
                        op: None,
                        threshold: None,
                        baseline: Some(report.models[b].name.clone()),
                        baseline_value: Some(bv),
                        difference: Some(cv - bv),
                        drop: Some(drop),
                        lower_is_better: Some(r.lower_is_better()),
                        p_value: Some(p),
                        p_holm: None,
                        interval: interval(differences, options.level),
                    });
                }
                for (check, p_holm) in checks.iter_mut().zip(holm(&p_values)) {
                    check.p_holm = Some(p_holm);
                    let drop = check.drop.unwrap_or(0.0);
                    check.passed = !(p_holm <= options.alpha && drop > options.min_drop);
                }
                let m = checks.len() as f64;
                if !checks.is_empty() && m / (options.resamples as f64 + 1.0) > options.alpha {
                    warnings.push(format!(
                    "{}: with {} resamples and {} checks the smallest adjusted p-value is {}/{} > alpha {}, so no regression can be detected; use at least --resamples {}",
                    report.models[*c].name,
                    options.resamples,
                    checks.len(),
                    checks.len(),
                    options.resamples + 1,
                    options.alpha,
                    (m / options.alpha).ceil() as usize
                ));
                }
                per_model[*c].extend(checks);
                comparisons.push(compare_models(
                    report,
                    &report.models[b].name,
                    &report.models[*c].name,
                )?);
            }
        }
        let checks: Vec<Check> = per_model.into_iter().flatten().collect();
        let checks_failed = checks.iter().filter(|c| !c.passed).count();
        Ok(GateReport {
        fieldscope_gate: 1,
        passed: checks_failed == 0,
        checks_failed,
        documents: report.documents,
        models: report.models.iter().map(|m| m.name.clone()).collect(),
        baseline: baseline.map(|b| report.models[b].name.clone()),
        method: "thresholds on the report's values; no regression: paired bootstrap over documents (the resamples of --bootstrap), one-sided (candidate worse), Holm-adjusted over each candidate's checks; fails when the adjusted p <= alpha and the drop > min_drop".into(),
        resamples: options.resamples,
        seed: options.seed,
        level: options.level,
        alpha: options.alpha,
        min_drop: options.min_drop,
        checks,
        comparisons,
        warnings,
    })
    }
}

#[cfg(test)]
mod tests;
