//! The gate's expressions: metric paths into a model's JSON report, the
//! `--require` thresholds `[MODEL:]METRIC OP NUMBER`, and which metrics the
//! bootstrap can recompute per resample (issue 17; beyond SPEC.md).
//!
//! Owns: parsing (every error a [`ErrorKind::Usage`] naming the
//! expression and the part that is wrong), looking a path up in a model's
//! report (`serde_json` form of [`ModelReport`], SPEC §5's keys), and
//! [`Resampled`]: a metric's value on a multiset of documents from the
//! documents' tallies, with the report's own functions of `counts`. Pure;
//! depends on `bootstrap`, `counts`, `config`, `report`.
//!
//! **Paths.** A metric is a path of keys separated by `.`, as in the JSON
//! report's model object: `micro.f1`, `hallucination_rate`, `items.f1`.
//! `KEY[NAME]` selects inside `KEY`: in the `fields` array the row whose
//! `field` is `NAME` (`fields[vendor.name].f1`, `fields[items[].qty].f1`;
//! brackets nest), in an object its key `NAME` (`sets[tags].f1`,
//! `sets[tags].hit_at_k[1]`). `fields[*].f1` (only in `--no-regression`)
//! stands for every field.

use crate::error::{Error, ErrorKind};
use crate::eval::bootstrap::{self, ConfidenceResampler, CONFIDENCE_METRICS, METRICS};
use crate::eval::config::Config;
use crate::eval::counts::{mean, partial_scores, strict_scores};
use crate::eval::rates::RATES;
use crate::eval::report::{Counts, DocumentTally};
use serde_json::Value;
use std::fmt;

/// One step of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// `KEY`: an object's key.
    Key(String),
    /// `[NAME]`: the `fields` row named `NAME`, or an object's key `NAME`.
    Select(String),
}

/// A path into a model's report (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetricPath {
    steps: Vec<Step>,
}

impl fmt::Display for MetricPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.steps.iter().enumerate() {
            match step {
                Step::Key(k) if i == 0 => write!(f, "{k}")?,
                Step::Key(k) => write!(f, ".{k}")?,
                Step::Select(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

fn usage(message: String) -> Error {
    Error::new(ErrorKind::Usage, message)
}

impl MetricPath {
    /// Parses `micro.f1`, `fields[total].f1`, `sets[tags].hit_at_k[1]`.
    pub fn parse(text: &str) -> Result<MetricPath, Error> {
        let text = text.trim();
        let bad = |why: &str| usage(format!("metric `{text}`: {why}"));
        let mut steps = Vec::new();
        let mut key = String::new();
        let mut chars = text.chars().peekable();
        let mut after_select = false;
        while let Some(c) = chars.next() {
            match c {
                '.' => {
                    if key.is_empty() && !after_select {
                        return Err(bad("an empty key (two dots, or a dot at the start)"));
                    }
                    if !key.is_empty() {
                        steps.push(Step::Key(std::mem::take(&mut key)));
                    }
                    after_select = false;
                    if chars.peek().is_none() {
                        return Err(bad("a dot at the end"));
                    }
                }
                '[' => {
                    if key.is_empty() && !after_select {
                        return Err(bad("`[` must follow a key, as in fields[total].f1"));
                    }
                    if !key.is_empty() {
                        steps.push(Step::Key(std::mem::take(&mut key)));
                    }
                    let mut depth = 1;
                    let mut name = String::new();
                    for c in chars.by_ref() {
                        match c {
                            '[' => depth += 1,
                            ']' => depth -= 1,
                            _ => {}
                        }
                        if depth == 0 {
                            break;
                        }
                        name.push(c);
                    }
                    if depth != 0 {
                        return Err(bad("a `[` without its `]`"));
                    }
                    if name.is_empty() {
                        return Err(bad("an empty name in `[]`"));
                    }
                    steps.push(Step::Select(name));
                    after_select = true;
                }
                ']' => return Err(bad("a `]` without its `[`")),
                c if c.is_whitespace() => return Err(bad("a space inside the path")),
                c => {
                    if after_select {
                        return Err(bad("a `.` or `[` must follow `]`"));
                    }
                    key.push(c);
                }
            }
        }
        if !key.is_empty() {
            steps.push(Step::Key(key));
        }
        if steps.is_empty() {
            return Err(usage("an empty metric".to_string()));
        }
        Ok(MetricPath { steps })
    }

    /// `fields[NAME].SCORE` for a field name and a score key.
    pub fn field(name: &str, score: &str) -> MetricPath {
        MetricPath {
            steps: vec![
                Step::Key("fields".into()),
                Step::Select(name.into()),
                Step::Key(score.into()),
            ],
        }
    }

    /// For `fields[*].SCORE`: `SCORE`.
    pub fn every_field(&self) -> Option<&str> {
        match self.steps.as_slice() {
            [Step::Key(f), Step::Select(star), Step::Key(score)]
                if f == "fields" && star == "*" =>
            {
                Some(score)
            }
            _ => None,
        }
    }

    /// The value at this path in a model's report (its JSON form):
    /// `Ok(Some(x))` a number, `Ok(None)` `null` (not applicable, SPEC
    /// §3.1), `Err` a message naming the step that does not exist, or
    /// saying that the value is not a number.
    pub fn lookup(&self, model: &Value) -> Result<Option<f64>, String> {
        let mut at = model;
        let mut here = String::new();
        for step in &self.steps {
            let place = if here.is_empty() {
                "the model's report".to_string()
            } else {
                format!("`{here}`")
            };
            at = match (step, at) {
                (Step::Key(k), Value::Object(map)) => map.get(k).ok_or_else(|| {
                    format!("{place} has no key `{k}`; its keys are: {}", keys(map))
                })?,
                (Step::Select(n), Value::Array(rows)) => rows
                    .iter()
                    .find(|r| r.get("field").and_then(Value::as_str) == Some(n.as_str()))
                    .ok_or_else(|| {
                        let names: Vec<&str> = rows
                            .iter()
                            .filter_map(|r| r.get("field").and_then(Value::as_str))
                            .collect();
                        format!(
                            "{place} has no field `{n}`; the fields are: {}",
                            list(&names)
                        )
                    })?,
                (Step::Select(n), Value::Object(map)) => map.get(n).ok_or_else(|| {
                    format!("{place} has no key `{n}`; its keys are: {}", keys(map))
                })?,
                (Step::Key(k), Value::Array(_)) => {
                    return Err(format!(
                        "{place} is a list: select one of its rows, as in {here}[NAME].{k}"
                    ))
                }
                (_, Value::Null) => return Ok(None),
                (_, _) => return Err(format!("{place} is a number, it has no `{step}`")),
            };
            match step {
                Step::Key(k) if here.is_empty() => here.push_str(k),
                Step::Key(k) => here.push_str(&format!(".{k}")),
                Step::Select(n) => here.push_str(&format!("[{n}]")),
            }
        }
        match at {
            Value::Null => Ok(None),
            Value::Number(n) => Ok(n.as_f64()),
            Value::Object(map) => Err(format!(
                "`{here}` is not a number; pick one of its keys: {}",
                keys(map)
            )),
            _ => Err(format!("`{here}` is not a number")),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Key(k) => write!(f, "{k}"),
            Step::Select(n) => write!(f, "[{n}]"),
        }
    }
}

fn keys(map: &serde_json::Map<String, Value>) -> String {
    let names: Vec<&str> = map.keys().map(String::as_str).collect();
    list(&names)
}

/// At most 30 names, then how many more.
fn list(names: &[&str]) -> String {
    if names.is_empty() {
        return "(none)".to_string();
    }
    let mut text = names
        .iter()
        .take(30)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > 30 {
        text.push_str(&format!(" and {} more", names.len() - 30));
    }
    text
}

/// A comparison operator of `--require`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Op {
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = "<")]
    Lt,
    /// `==`: for counts, such as `errors.scale == 0` (SPEC §9.1).
    #[serde(rename = "==")]
    Eq,
}

impl Op {
    /// `value OP threshold`.
    pub fn holds(self, value: f64, threshold: f64) -> bool {
        match self {
            Op::Ge => value >= threshold,
            Op::Gt => value > threshold,
            Op::Le => value <= threshold,
            Op::Lt => value < threshold,
            Op::Eq => value == threshold,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Op::Ge => ">=",
            Op::Gt => ">",
            Op::Le => "<=",
            Op::Lt => "<",
            Op::Eq => "==",
        }
    }
}

/// One `--require` expression: `[MODEL:]METRIC OP NUMBER`.
#[derive(Debug, Clone, PartialEq)]
pub struct Requirement {
    /// The expression as given.
    pub text: String,
    /// `None`: every model but the baseline.
    pub model: Option<String>,
    pub metric: MetricPath,
    pub op: Op,
    pub threshold: f64,
}

impl Requirement {
    /// Parses an expression. The number is what follows the last `<` or
    /// `>` (and its `=`), so field names may hold any character; the model
    /// is what precedes the last `:` outside brackets (a metric path has
    /// none there), so model names may hold `:` too.
    pub fn parse(text: &str) -> Result<Requirement, Error> {
        let bad = |why: String| usage(format!("--require `{text}`: {why}"));
        let t = text.trim();
        let (order, equal) = (t.rfind(['<', '>']), t.rfind("=="));
        let (at, op_end, op) = match (order, equal) {
            (_, Some(e)) if order.is_none_or(|o| e > o + 1) => (e, e + 2, Op::Eq),
            (Some(at), _) => match (&t[at..at + 1], t[at + 1..].starts_with('=')) {
                (">", true) => (at, at + 2, Op::Ge),
                (">", false) => (at, at + 1, Op::Gt),
                ("<", true) => (at, at + 2, Op::Le),
                _ => (at, at + 1, Op::Lt),
            },
            (None, _) => return Err(bad(
                "no comparison: expected [MODEL:]METRIC OP NUMBER with OP one of >=, >, <=, <, =="
                    .into(),
            )),
        };
        let number = t[op_end..].trim();
        if number.starts_with('=') {
            return Err(bad(
                "`=` is not a comparison here; use >=, >, <=, < or ==".into()
            ));
        }
        let threshold: f64 = number
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| bad(format!("{number:?} is not a number")))?;
        let left = t[..at].trim();
        let mut depth = 0i32;
        let mut colon = None;
        for (i, c) in left.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                ':' if depth == 0 => colon = Some(i),
                _ => {}
            }
        }
        let (model, metric) = match colon {
            Some(i) => {
                let model = left[..i].trim();
                if model.is_empty() {
                    return Err(bad("the model name before `:` is empty".into()));
                }
                (Some(model.to_string()), left[i + 1..].trim())
            }
            None => (None, left),
        };
        if metric.is_empty() {
            return Err(bad("no metric before the comparison".into()));
        }
        let metric = MetricPath::parse(metric).map_err(|e| bad(e.message))?;
        if metric.every_field().is_some() {
            return Err(bad(
                "`fields[*]` is for --no-regression; name one field, as in fields[total].f1".into(),
            ));
        }
        Ok(Requirement {
            text: t.to_string(),
            model,
            metric,
            op,
            threshold,
        })
    }
}

/// A metric the bootstrap recomputes per resample from each document's
/// [`DocumentTally`] (the others, such as `cer` or `items.item_count_accuracy`,
/// need what tallies do not keep).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resampled {
    /// One of [`METRICS`] (by position), from [`bootstrap::scores`].
    Headline(usize),
    /// `partial.precision`, `.recall`, `.f1` (0, 1, 2; `field_f1_partial` is 2).
    Partial(usize),
    /// One of [`RATES`] (by position), from the pooled counts.
    Rate(usize),
    SchemaValidityRate,
    /// A field's strict precision, recall, F1 or accuracy (0–3), by name.
    Field(String, usize),
    /// One of [`CONFIDENCE_METRICS`] (by position; SPEC §8.5), from
    /// [`bootstrap::confidence_scores`]: NaN on a resample where it is
    /// undefined (no pair drawn; `auroc` with every pair right or every
    /// one wrong), which the gate leaves out.
    Confidence(usize),
}

const FOUR: [&str; 4] = ["precision", "recall", "f1", "accuracy"];

impl Resampled {
    /// The resampled form of `path`, if it has one.
    pub fn of(path: &MetricPath) -> Option<Resampled> {
        let text = path.to_string();
        if let Some(k) = METRICS.iter().position(|m| *m == text) {
            return Some(Resampled::Headline(k));
        }
        if let Some(k) = CONFIDENCE_METRICS.iter().position(|m| *m == text) {
            return Some(Resampled::Confidence(k));
        }
        if let Some(k) = RATES.iter().position(|r| r.key == text) {
            return Some(Resampled::Rate(k));
        }
        match text.as_str() {
            "partial.precision" => return Some(Resampled::Partial(0)),
            "partial.recall" => return Some(Resampled::Partial(1)),
            "partial.f1" | "field_f1_partial" => return Some(Resampled::Partial(2)),
            "schema_validity_rate" => return Some(Resampled::SchemaValidityRate),
            _ => {}
        }
        match path.steps.as_slice() {
            [Step::Key(f), Step::Select(name), Step::Key(score)] if f == "fields" => {
                let k = FOUR.iter().position(|s| s == score)?;
                Some(Resampled::Field(name.clone(), k))
            }
            _ => None,
        }
    }

    /// Whether a smaller value is better (as each of [`RATES`] declares,
    /// and `confidence.ece`, `.brier`, `.aurc`: [`bootstrap::lower_is_better`]);
    /// every other resampled metric is better larger.
    pub fn lower_is_better(&self) -> bool {
        match self {
            Resampled::Rate(k) => RATES[*k].lower_is_better,
            Resampled::Confidence(k) => bootstrap::lower_is_better(CONFIDENCE_METRICS[*k]),
            _ => false,
        }
    }

    /// Whether this is a `items.*` score.
    pub fn is_items(&self) -> bool {
        matches!(self, Resampled::Headline(k) if METRICS[*k].starts_with("items."))
    }
}

/// What one model's tallies give on one resample: the sums every
/// [`Resampled`] metric is computed from.
pub struct ResampleSums {
    headline: Option<[f64; 16]>,
    confidence: Option<[f64; 4]>,
    total: Counts,
    per_field: Vec<Counts>,
    valid: Vec<f64>,
}

impl ResampleSums {
    /// Sums the documents drawn `weights[i]` times each. `fields` are the
    /// model's per-field rows (the order of each tally's `fields`);
    /// `headline` says whether any of [`METRICS`] is needed; `confidence`
    /// is the model's pairs indexed when any of [`CONFIDENCE_METRICS`] is
    /// (`None`: not needed, or the model has no pairs).
    pub fn new(
        docs: &[DocumentTally],
        weights: &[u32],
        has_items: bool,
        headline: bool,
        confidence: Option<&ConfidenceResampler>,
        config: &Config,
    ) -> ResampleSums {
        let fields = docs.first().map_or(0, |d| d.fields.len());
        let mut total = Counts::default();
        let mut per_field = vec![Counts::default(); fields];
        let mut valid = Vec::with_capacity(docs.len());
        for (d, &w) in docs.iter().zip(weights) {
            for _ in 0..w {
                total += d.counts;
                for (sum, c) in per_field.iter_mut().zip(&d.fields) {
                    *sum += *c;
                }
                valid.push(f64::from(u8::from(d.schema_valid)));
            }
        }
        ResampleSums {
            headline: headline.then(|| bootstrap::scores(docs, weights, has_items, config)),
            confidence: confidence.map(|r| r.scores(weights)),
            total,
            per_field,
            valid,
        }
    }

    /// The value of `metric`; `field_index` gives a field's row (`None`: the
    /// model has no such field, whose counts are then all 0). Every value
    /// comes from the report's own functions (SPEC §3.1–§3.5).
    pub fn value(
        &self,
        metric: &Resampled,
        field_index: impl Fn(&str) -> Option<usize>,
        config: &Config,
    ) -> f64 {
        let zd = config.zero_division;
        match metric {
            Resampled::Headline(k) => self.headline.map_or(f64::NAN, |h| h[*k]),
            Resampled::Confidence(k) => self.confidence.map_or(f64::NAN, |c| c[*k]),
            Resampled::Partial(k) => {
                let p = partial_scores(&self.total, config);
                [p.precision, p.recall, p.f1][*k]
            }
            Resampled::Rate(k) => (RATES[*k].of)(&self.total, zd),
            Resampled::SchemaValidityRate => mean(self.valid.iter().copied(), zd),
            Resampled::Field(name, k) => {
                let c = field_index(name)
                    .and_then(|i| self.per_field.get(i).copied())
                    .unwrap_or_default();
                let s = strict_scores(&c, config);
                [s.precision, s.recall, s.f1, s.accuracy][*k]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_parse_and_print() {
        for text in [
            "micro.f1",
            "hallucination_rate",
            "fields[total].f1",
            "fields[items[].qty].f1",
            "sets[tags].hit_at_k[1]",
            "fields[a.b:c].recall",
        ] {
            assert_eq!(MetricPath::parse(text).unwrap().to_string(), text);
        }
        for bad in [
            "",
            "micro..f1",
            ".f1",
            "micro.",
            "[x].f1",
            "fields[total",
            "a]",
            "fields[]",
            "fields[a]f1",
            "micro f1",
        ] {
            let e = MetricPath::parse(bad).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Usage, "{bad}");
        }
        assert_eq!(
            MetricPath::parse("fields[*].f1").unwrap().every_field(),
            Some("f1")
        );
    }

    #[test]
    fn lookups_name_what_is_missing() {
        let m = json!({
            "micro": {"precision": 0.5, "f1": 0.25},
            "cer": null,
            "items": null,
            "fields": [{"field": "total", "f1": 0.75}, {"field": "items[].qty", "f1": 1}],
            "sets": {"tags": {"hit_at_k": {"1": 0.5}}}
        });
        let get = |p: &str| MetricPath::parse(p).unwrap().lookup(&m);
        assert_eq!(get("micro.f1"), Ok(Some(0.25)));
        assert_eq!(get("fields[total].f1"), Ok(Some(0.75)));
        assert_eq!(get("fields[items[].qty].f1"), Ok(Some(1.0)));
        assert_eq!(get("sets[tags].hit_at_k[1]"), Ok(Some(0.5)));
        assert_eq!(get("cer"), Ok(None));
        assert_eq!(get("items.f1"), Ok(None));
        assert_eq!(
            get("micro.f2").unwrap_err(),
            "`micro` has no key `f2`; its keys are: precision, f1"
        );
        assert_eq!(
            get("fields[totl].f1").unwrap_err(),
            "`fields` has no field `totl`; the fields are: total, items[].qty"
        );
        assert_eq!(
            get("micro").unwrap_err(),
            "`micro` is not a number; pick one of its keys: precision, f1"
        );
        assert!(get("fields.f1").unwrap_err().contains("is a list"));
        assert!(get("nope").unwrap_err().contains("has no key `nope`"));
    }

    #[test]
    fn requirements_parse() {
        let r = Requirement::parse(" good:fields[a<b].f1 >= 0.9 ").unwrap();
        assert_eq!(r.model.as_deref(), Some("good"));
        assert_eq!(r.metric.to_string(), "fields[a<b].f1");
        assert_eq!((r.op, r.threshold), (Op::Ge, 0.9));
        let r = Requirement::parse("v1:2024:hallucination_rate<0.05").unwrap();
        assert_eq!(r.model.as_deref(), Some("v1:2024"));
        assert_eq!((r.op, r.threshold), (Op::Lt, 0.05));
        let r = Requirement::parse("fields[a:b].recall > 1e-1").unwrap();
        assert_eq!(r.model, None);
        assert_eq!(r.metric.to_string(), "fields[a:b].recall");
        assert_eq!((r.op, r.threshold), (Op::Gt, 0.1));
        assert_eq!(Requirement::parse("micro.f1<=1").unwrap().op, Op::Le);
        // `==` for counts (SPEC §9.1's error types).
        let r = Requirement::parse("good:errors.scale == 0").unwrap();
        assert_eq!(r.metric.to_string(), "errors.scale");
        assert_eq!(
            (r.model.as_deref(), r.op, r.threshold),
            (Some("good"), Op::Eq, 0.0)
        );
        let r = Requirement::parse("fields[a==b].errors.wrong==2").unwrap();
        assert_eq!(r.metric.to_string(), "fields[a==b].errors.wrong");
        assert_eq!((r.op, r.threshold), (Op::Eq, 2.0));
        assert!(Op::Eq.holds(0.0, 0.0) && !Op::Eq.holds(1.0, 0.0));
        for bad in [
            "micro.f1",
            "micro.f1 >= x",
            "micro.f1 = 0.5",
            "micro.f1 >== 0.5",
            ">= 0.5",
            ":micro.f1 >= 0.5",
            "micro.f1 >= inf",
            "fields[*].f1 >= 0.5",
        ] {
            let e = Requirement::parse(bad).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Usage, "{bad}");
            assert!(e.message.contains(bad.trim()), "{}", e.message);
        }
        assert!(Op::Ge.holds(0.5, 0.5) && !Op::Gt.holds(0.5, 0.5));
        assert!(Op::Le.holds(0.5, 0.5) && !Op::Lt.holds(0.5, 0.5));
    }

    #[test]
    fn which_metrics_resample() {
        let of = |p: &str| Resampled::of(&MetricPath::parse(p).unwrap());
        assert_eq!(of("micro.f1"), Some(Resampled::Headline(2)));
        assert_eq!(of("field_f1_partial"), Some(Resampled::Partial(2)));
        assert_eq!(
            of("fields[total].accuracy"),
            Some(Resampled::Field("total".into(), 3))
        );
        assert!(of("hallucination_rate").unwrap().lower_is_better());
        assert!(!of("micro.f1").unwrap().lower_is_better());
        assert!(of("items.f1").unwrap().is_items());
        assert_eq!(of("confidence.aurc"), Some(Resampled::Confidence(3)));
        assert!(of("confidence.ece").unwrap().lower_is_better());
        assert!(!of("confidence.auroc").unwrap().lower_is_better());
        for none in [
            "cer",
            "items.item_count_accuracy",
            "fields[total].cer",
            "counts.exact",
            "confidence.mce",
            "confidence.fields[total].auroc",
        ] {
            assert_eq!(of(none), None, "{none}");
        }
    }
}
