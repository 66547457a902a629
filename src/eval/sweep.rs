//! Threshold sweeps (issue 5; beyond SPEC.md): how F1 and accuracy move
//! when one matching threshold moves, so a reader sees how much a ranking
//! depends on the chosen threshold.
//!
//! Owns: [`SweepParam`], [`sweep`] and its report. Pure: for every value
//! the evaluation is run again, the configuration changed in that one key
//! (the schema validity, which no threshold changes, is computed once; the
//! files are prepared once, [`Prepared`], since no threshold changes what
//! is read before comparing), so each point is exactly the report
//! `fieldscope eval` would give with that threshold.
//! Depends on `evaluate`, `config`, `counts`, `report`, `pace`.
//!
//! The parameters and the keys they set (SPEC §2.2, §3.4):
//! * `similarity`: `partial_matching.string.exact_threshold`, with
//!   `string_match.method` set to `"similarity"` (the threshold means
//!   nothing under another method) and `partial_threshold` capped at the
//!   swept value (a partial match never needs more than an exact one);
//! * `cer`: `string_match.cer_threshold`, with `string_match.method` set to
//!   `"cer"`;
//! * `item`: `item_f1_threshold` (which matched items count as recognised).

use crate::error::{Error, ErrorKind};
use crate::eval::config::{merge, Config};
use crate::eval::evaluate::{
    prepare_paced, schema_validity_by, EvalInput, Prepared, SchemaValidity, STORED_LIMIT_BYTES,
};
use crate::eval::model::DocFile;
use crate::eval::pace::{run_now, NoPause, Pace};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;

/// The threshold a sweep moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SweepParam {
    Similarity,
    Cer,
    Item,
}

impl SweepParam {
    pub const ALL: [SweepParam; 3] = [SweepParam::Similarity, SweepParam::Cer, SweepParam::Item];

    pub fn name(self) -> &'static str {
        match self {
            SweepParam::Similarity => "similarity",
            SweepParam::Cer => "cer",
            SweepParam::Item => "item",
        }
    }

    /// The configuration key it sets.
    pub fn key(self) -> &'static str {
        match self {
            SweepParam::Similarity => "partial_matching.string.exact_threshold",
            SweepParam::Cer => "string_match.cer_threshold",
            SweepParam::Item => "item_f1_threshold",
        }
    }

    pub fn parse(name: &str) -> Result<SweepParam, Error> {
        SweepParam::ALL
            .into_iter()
            .find(|p| p.name() == name.trim())
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Usage,
                    format!(
                        "unknown sweep parameter {name:?}; expected one of: similarity, cer, item"
                    ),
                )
            })
    }

    /// The value `config` has for this parameter.
    pub fn current(self, config: &Config) -> f64 {
        let json = config.to_json();
        let at = |path: &[&str]| {
            path.iter()
                .try_fold(&json, |v, k| v.get(k))
                .and_then(Value::as_f64)
                .unwrap_or(f64::NAN)
        };
        match self {
            SweepParam::Similarity => at(&["partial_matching", "string", "exact_threshold"]),
            SweepParam::Cer => at(&["string_match", "cer_threshold"]),
            SweepParam::Item => at(&["item_f1_threshold"]),
        }
    }

    /// `config` with this parameter at `value` (see the module docs).
    pub fn apply(self, config: &Config, value: f64) -> Result<Config, Error> {
        let mut json = config.to_json();
        let partial = json["partial_matching"]["string"]["partial_threshold"]
            .as_f64()
            .unwrap_or(value);
        let change = match self {
            SweepParam::Similarity => json!({
                "string_match": {"method": "similarity"},
                "partial_matching": {"string": {"exact_threshold": value, "partial_threshold": partial.min(value)}}
            }),
            SweepParam::Cer => json!({"string_match": {"method": "cer", "cer_threshold": value}}),
            SweepParam::Item => json!({"item_f1_threshold": value}),
        };
        merge(&mut json, &change);
        Config::from_json(&json)
    }
}

/// The default grid: 0, 0.05, …, 1.
pub fn default_values() -> Vec<f64> {
    (0..=20).map(|i| f64::from(i) / 20.0).collect()
}

/// One model's scores at one threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub value: f64,
    pub micro_f1: f64,
    pub micro_accuracy: f64,
    pub macro_documents_f1: f64,
    /// Item F1 (SPEC §3.4); absent when the model has no line items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_f1: Option<f64>,
    /// Item-count accuracy (SPEC §3.4); absent without line items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_count_accuracy: Option<f64>,
}

/// One model's curve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepModel {
    pub name: String,
    pub points: Vec<SweepPoint>,
}

/// A sweep's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepReport {
    pub param: SweepParam,
    /// The configuration key moved.
    pub key: String,
    /// The value the configuration itself has (a marker on the chart).
    pub configured: f64,
    pub documents: usize,
    pub models: Vec<SweepModel>,
}

/// Evaluates `input` once per value of `param` (see the module docs).
pub fn sweep(
    input: &EvalInput<DocFile>,
    config: &Config,
    param: SweepParam,
    values: &[f64],
) -> Result<SweepReport, Error> {
    let validity = schema_validity_by(
        input.clone(),
        config.id_field.as_deref(),
        config.schema_by.as_deref(),
    )?;
    let input = input.to_shared();
    let mut run = SweepRun::new(&input, config, param, values.to_vec(), validity);
    while !run.step(&input)? {}
    Ok(run.finish())
}

/// A sweep computed one value at a time, so that the browser app can run
/// one evaluation per frame (and stop); [`sweep`] runs it to the end. Each
/// step is the same full evaluation, so the points do not depend on how
/// the work was sliced.
#[derive(Debug)]
pub struct SweepRun {
    param: SweepParam,
    config: Config,
    values: Vec<f64>,
    next: usize,
    documents: usize,
    models: Vec<SweepModel>,
    validity: SchemaValidity,
    /// The input prepared, from the first value on.
    prepared: Option<Prepared>,
}

impl SweepRun {
    /// A sweep of `param` over `values` (in that order) for the models of
    /// `input`, whose schema validity is `validity` (from
    /// [`schema_validity_by`]: computed once, not at every value); nothing is
    /// evaluated yet.
    pub fn new(
        input: &EvalInput<Arc<DocFile>>,
        config: &Config,
        param: SweepParam,
        values: Vec<f64>,
        validity: SchemaValidity,
    ) -> SweepRun {
        let models = input
            .models
            .iter()
            .map(|m| SweepModel {
                name: m.name.clone(),
                points: Vec::with_capacity(values.len()),
            })
            .collect();
        SweepRun {
            param,
            config: config.clone(),
            values,
            next: 0,
            documents: 0,
            models,
            validity,
            prepared: None,
        }
    }

    /// Values evaluated so far.
    pub fn done(&self) -> usize {
        self.next
    }

    /// Values in the sweep.
    pub fn total(&self) -> usize {
        self.values.len()
    }

    /// Evaluates the next value on `input` (the same input given to
    /// [`SweepRun::new`]); `Ok(true)` once every value is done.
    pub fn step(&mut self, input: &EvalInput<Arc<DocFile>>) -> Result<bool, Error> {
        run_now(self.step_paced(input, &mut NoPause))
            .flatten()
            .unwrap_or_else(|| Err(Error::new(ErrorKind::Input, "the sweep was paused")))
    }

    /// [`SweepRun::step`], the evaluation asking `pace` between documents
    /// whether to wait or stop (`None`: stopped; the value is not done).
    pub async fn step_paced(
        &mut self,
        input: &EvalInput<Arc<DocFile>>,
        pace: &mut dyn Pace,
    ) -> Option<Result<bool, Error>> {
        let Some(&value) = self.values.get(self.next) else {
            return Some(Ok(true));
        };
        let config = match self.param.apply(&self.config, value) {
            Ok(config) => config,
            Err(e) => return Some(Err(e)),
        };
        let mut prepared = match self.prepared.take() {
            Some(prepared) if prepared.fits(&config) => prepared,
            _ => match prepare_paced(input.clone(), &config, STORED_LIMIT_BYTES, pace).await? {
                Ok(prepared) => prepared,
                Err(e) => return Some(Err(e)),
            },
        };
        let costs: Vec<Option<f64>> = input.models.iter().map(|m| m.cost).collect();
        let report = prepared
            .evaluate_paced(&costs, &config, false, &self.validity, pace)
            .await;
        self.prepared = Some(prepared);
        let report = match report? {
            Ok(report) => report,
            Err(e) => return Some(Err(e)),
        };
        self.documents = report.documents;
        for (curve, m) in self.models.iter_mut().zip(&report.models) {
            curve.points.push(SweepPoint {
                value,
                micro_f1: m.micro.f1,
                micro_accuracy: m.micro.accuracy,
                macro_documents_f1: m.macro_documents.f1,
                item_f1: m.items.as_ref().map(|i| i.f1),
                item_count_accuracy: m.items.as_ref().map(|i| i.item_count_accuracy),
            });
        }
        self.next += 1;
        Some(Ok(self.next >= self.values.len()))
    }

    /// The result (only the values evaluated so far, if stopped early).
    pub fn finish(self) -> SweepReport {
        SweepReport {
            param: self.param,
            key: self.param.key().to_string(),
            configured: self.param.current(&self.config),
            documents: self.documents,
            models: self.models,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate::ModelInput;
    fn file(name: &str, values: [Value; 2]) -> DocFile {
        DocFile::of_values(name, values)
    }

    fn input() -> EvalInput<DocFile> {
        // Two documents. "kitten" → "sitten": similarity 5/6 ≈ 0.833 and CER
        // 1/6; "abcd" → "abcf": similarity 0.75 and CER 0.25.
        let truth = file(
            "t.jsonl",
            [
                json!({"id": "1", "a": "kitten"}),
                json!({"id": "2", "a": "abcd"}),
            ],
        );
        let pred = file(
            "p.jsonl",
            [
                json!({"id": "1", "a": "sitten"}),
                json!({"id": "2", "a": "abcf"}),
            ],
        );
        EvalInput {
            truth,
            models: vec![ModelInput::new("m", pred)],
            schema: None,
            schemas: Vec::new(),
        }
    }

    #[test]
    fn similarity_sweep_flips_the_near_misses_where_their_similarity_lies() {
        let config = Config::default();
        let r = sweep(&input(), &config, SweepParam::Similarity, &[0.7, 0.8, 0.9]).unwrap();
        assert_eq!(r.key, "partial_matching.string.exact_threshold");
        assert_eq!(r.configured, 0.85);
        let p = &r.models[0].points;
        // At 0.7 both are exact: F1 = 1, accuracy = 1.
        assert_eq!((p[0].micro_f1, p[0].micro_accuracy), (1.0, 1.0));
        // At 0.8 only "kitten" (0.833) is exact; "abcd" (0.75) is partial,
        // which strict scores count as wrong: TP 1, FP 1, FN 1 → P = R = F1
        // = 0.5; accuracy = 1/2.
        assert_eq!((p[1].micro_f1, p[1].micro_accuracy), (0.5, 0.5));
        // At 0.9 neither: F1 = 0.
        assert_eq!((p[2].micro_f1, p[2].micro_accuracy), (0.0, 0.0));
        // Macro over documents: per document F1 1 and 0 at 0.8 → P = R =
        // 0.5 → harmonic 0.5.
        assert_eq!(p[1].macro_documents_f1, 0.5);
    }

    #[test]
    fn cer_sweep() {
        let config = Config::default();
        let r = sweep(&input(), &config, SweepParam::Cer, &[0.1, 0.2, 0.3]).unwrap();
        let f1: Vec<f64> = r.models[0].points.iter().map(|p| p.micro_f1).collect();
        // CERs 1/6 ≈ 0.167 and 0.25: none, one, both within the threshold.
        assert_eq!(f1, [0.0, 0.5, 1.0]);
    }

    #[test]
    fn unknown_parameter() {
        assert_eq!(
            SweepParam::parse("f1").unwrap_err().to_string(),
            "unknown sweep parameter \"f1\"; expected one of: similarity, cer, item"
        );
        assert_eq!(default_values().len(), 21);
        assert_eq!(default_values()[1], 0.05);
    }
}
