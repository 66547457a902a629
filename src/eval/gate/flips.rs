//! Flipped documents between two models (issue 17; beyond SPEC.md): the
//! (document, field) pairs whose outcome (SPEC §2.3) went from `exact` to
//! anything else — regressions — or from anything else to `exact` — fixes,
//! each with the truth, both predictions and both outcomes.
//!
//! Owns: [`Comparison`] (the report's `comparison` key with `eval
//! --compare`, and each candidate's part of the gate's report) and
//! [`compare_models`]. Pure; reads the models' `document_details` (an
//! evaluation with details). Depends on `report`.
//!
//! A pair is one row of a document's details: a scalar or set field, or
//! one field of one truth item (`truth_item`; items are paired with the
//! prediction's items per model, SPEC §3.4, so the two models' rows of one
//! truth item may hold different predicted items). Rows of predicted items
//! that match no truth item are never exact and are left out. Only `exact`
//! counts as right, as the issue says: a true negative that becomes
//! spurious is not listed (the hallucination rate shows it).

use crate::error::{Error, ErrorKind};
pub use crate::eval::report::{Comparison, FieldFlips, Flip};
use crate::eval::report::{FieldDetail, ModelReport, Outcome, Report};
use serde_json::Value;
use std::collections::BTreeMap;

fn model<'r>(report: &'r Report, name: &str, role: &str) -> Result<&'r ModelReport, Error> {
    report
        .models
        .iter()
        .find(|m| m.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = report.models.iter().map(|m| m.name.as_str()).collect();
            Error::new(
                ErrorKind::Usage,
                format!(
                    "the {role} {name:?} is not one of the models: {}",
                    names.join(", ")
                ),
            )
        })
}

/// The key of a row: field and truth item; `None` for rows of unmatched
/// predicted items.
fn key(d: &FieldDetail) -> Option<(&str, Option<usize>)> {
    if d.truth_item.is_none() && d.pred_item.is_some() {
        return None;
    }
    Some((d.field.as_str(), d.truth_item))
}

/// The flips from `baseline` to `candidate` in a report evaluated with
/// details. A usage error when either is not a model of the report; an
/// error when the report has no details.
pub fn compare_models(
    report: &Report,
    baseline: &str,
    candidate: &str,
) -> Result<Comparison, Error> {
    let (b, c) = (
        model(report, baseline, "baseline")?,
        model(report, candidate, "candidate")?,
    );
    let (Some(bd), Some(cd)) = (&b.document_details, &c.document_details) else {
        return Err(Error::new(
            ErrorKind::Usage,
            "comparing two models needs the report's document details",
        ));
    };
    let mut out = Comparison {
        baseline: baseline.to_string(),
        candidate: candidate.to_string(),
        documents: bd.len(),
        fields: Vec::new(),
        regressions: Vec::new(),
        fixes: Vec::new(),
    };
    let mut per_field: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (bdoc, cdoc) in bd.iter().zip(cd) {
        let crow: BTreeMap<_, &FieldDetail> = cdoc
            .fields
            .iter()
            .filter_map(|d| Some((key(d)?, d)))
            .collect();
        let brow: BTreeMap<_, &FieldDetail> = bdoc
            .fields
            .iter()
            .filter_map(|d| Some((key(d)?, d)))
            .collect();
        // The baseline's rows in order, then the candidate's others.
        let keys = bdoc.fields.iter().filter_map(key).chain(
            cdoc.fields
                .iter()
                .filter_map(key)
                .filter(|k| !brow.contains_key(k)),
        );
        for k in keys {
            let (x, y) = (brow.get(&k), crow.get(&k));
            let exact = |r: Option<&&FieldDetail>| r.is_some_and(|d| d.outcome == Outcome::Exact);
            let (was, is) = (exact(x), exact(y));
            if was == is {
                continue;
            }
            let prediction =
                |r: Option<&&FieldDetail>| r.map_or(Value::Null, |d| d.prediction.clone());
            let flip = Flip {
                id: bdoc.id.clone(),
                field: k.0.to_string(),
                truth_item: k.1,
                truth: x.or(y).map_or(Value::Null, |d| d.truth.clone()),
                baseline_prediction: prediction(x),
                candidate_prediction: prediction(y),
                baseline_outcome: x.map(|d| d.outcome),
                candidate_outcome: y.map(|d| d.outcome),
            };
            let entry = per_field.entry(flip.field.clone()).or_default();
            if was {
                entry.0 += 1;
                out.regressions.push(flip);
            } else {
                entry.1 += 1;
                out.fixes.push(flip);
            }
        }
    }
    out.fields = per_field
        .into_iter()
        .map(|(field, (regressions, fixes))| FieldFlips {
            field,
            regressions,
            fixes,
        })
        .collect();
    Ok(out)
}
