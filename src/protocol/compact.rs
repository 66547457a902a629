//! The form document details take in an [`super::Answer::Details`] part:
//! each document and each compared value as a tuple (a CBOR array)
//! instead of a map with its field names, and an outcome as its index in
//! [`Outcome::ALL`]. The report's own serialisation (SPEC §5's JSON keys)
//! is untouched; this is only the worker-to-page wire form, for
//! `#[serde(with = "compact")]`. Each field name of `DocumentDetail` and
//! `FieldDetail` repeated in every entry was about half the bytes.
//! Pure; depends on serde and the report types.

use crate::eval::report::{Counts, DocumentDetail, FieldDetail, Outcome};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A document as sent: id, has_prediction, schema_valid, exact_match,
/// counts (in the order of [`Outcome::ALL`]),
/// [precision, recall, f1, accuracy], its compared values.
type Document<F> = (String, bool, bool, bool, [u64; 6], [f64; 4], Vec<F>);
/// A compared value as sent: field, truth_item, pred_item, truth,
/// prediction, outcome (index in [`Outcome::ALL`]), similarity, cer.
type Field = (
    String,
    Option<usize>,
    Option<usize>,
    Value,
    Value,
    u8,
    Option<f64>,
    Option<f64>,
);

#[derive(Serialize)]
struct FieldOut<'a>(
    &'a str,
    Option<usize>,
    Option<usize>,
    &'a Value,
    &'a Value,
    u8,
    Option<f64>,
    Option<f64>,
);

#[derive(Serialize)]
struct DocumentOut<'a>(
    &'a str,
    bool,
    bool,
    bool,
    [u64; 6],
    [f64; 4],
    Vec<FieldOut<'a>>,
);

fn code(outcome: Outcome) -> u8 {
    Outcome::ALL.iter().position(|&o| o == outcome).unwrap_or(0) as u8
}

pub fn serialize<S: Serializer>(
    details: &[Option<Vec<DocumentDetail>>],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let models: Vec<Option<Vec<DocumentOut<'_>>>> = details
        .iter()
        .map(|model| {
            model.as_ref().map(|documents| {
                documents
                    .iter()
                    .map(|d| {
                        let c = &d.counts;
                        DocumentOut(
                            &d.id,
                            d.has_prediction,
                            d.schema_valid,
                            d.exact_match,
                            Outcome::ALL.map(|o| c.get(o)),
                            [d.precision, d.recall, d.f1, d.accuracy],
                            d.fields
                                .iter()
                                .map(|f| {
                                    FieldOut(
                                        &f.field,
                                        f.truth_item,
                                        f.pred_item,
                                        &f.truth,
                                        &f.prediction,
                                        code(f.outcome),
                                        f.similarity,
                                        f.cer,
                                    )
                                })
                                .collect(),
                        )
                    })
                    .collect()
            })
        })
        .collect();
    models.serialize(serializer)
}

pub fn deserialize<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<Option<Vec<DocumentDetail>>>, D::Error> {
    let models = Vec::<Option<Vec<Document<Field>>>>::deserialize(deserializer)?;
    models
        .into_iter()
        .map(|model| {
            model
                .map(|documents| documents.into_iter().map(document).collect())
                .transpose()
        })
        .collect()
}

fn document<E: serde::de::Error>(d: Document<Field>) -> Result<DocumentDetail, E> {
    let (
        id,
        has_prediction,
        schema_valid,
        exact_match,
        c,
        [precision, recall, f1, accuracy],
        fields,
    ) = d;
    let mut counts = Counts::default();
    for (outcome, n) in Outcome::ALL.into_iter().zip(c) {
        counts.record_n(outcome, n);
    }
    Ok(DocumentDetail {
        id,
        has_prediction,
        schema_valid,
        exact_match,
        counts,
        precision,
        recall,
        f1,
        accuracy,
        fields: fields.into_iter().map(field).collect::<Result<_, E>>()?,
    })
}

fn field<E: serde::de::Error>(f: Field) -> Result<FieldDetail, E> {
    let (field, truth_item, pred_item, truth, prediction, outcome, similarity, cer) = f;
    let outcome = *Outcome::ALL
        .get(outcome as usize)
        .ok_or_else(|| E::custom(format!("no outcome {outcome}")))?;
    Ok(FieldDetail {
        field,
        truth_item,
        pred_item,
        truth,
        prediction,
        outcome,
        similarity,
        cer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::Error;

    /// Every outcome crosses as its index; an index past the last is an
    /// error, not a panic.
    #[test]
    fn outcomes_cross_as_their_index() {
        let sent = |code| {
            let cer = Some(0.5);
            (
                "total".to_string(),
                None,
                None,
                Value::Null,
                Value::Null,
                code,
                None,
                cer,
            )
        };
        for (i, outcome) in Outcome::ALL.into_iter().enumerate() {
            assert_eq!(code(outcome), i as u8);
            let detail = field::<Error>(sent(i as u8)).unwrap();
            assert_eq!((detail.outcome, detail.cer), (outcome, Some(0.5)));
        }
        assert_eq!(
            field::<Error>(sent(6)).unwrap_err().to_string(),
            "no outcome 6"
        );
    }
}
