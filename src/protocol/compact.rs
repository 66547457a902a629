//! The form document details take in an [`super::Answer::Details`] part:
//! each document and each compared value as a tuple (a CBOR array)
//! instead of a map with its field names, an outcome as its index in
//! [`Outcome::ALL`], and each compared field's name once per part (the
//! values carry its index in that list). The report's own serialisation
//! (SPEC §5's JSON keys) is untouched; this is only the worker-to-page
//! wire form, for `#[serde(with = "compact")]`. Each field name of
//! `DocumentDetail` and `FieldDetail` repeated in every entry was about
//! half the bytes; the compared field's name in every value, a fifth of
//! the rest. Pure; depends on serde and the report types.

use crate::eval::report::{Counts, DocumentDetail, ErrorType, FieldDetail, Outcome};
use rustc_hash::FxHashMap;
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A document as sent: id, has_prediction, schema_valid, exact_match,
/// counts (in the order of [`Outcome::ALL`]),
/// [precision, recall, f1, accuracy], its compared values, its value of
/// each `slice_by` key (SPEC §9.2; not in the JSON report).
type Document = (
    String,
    bool,
    bool,
    bool,
    [u64; 6],
    [f64; 4],
    Vec<Field>,
    Vec<Option<String>>,
);
/// A compared value as sent: field (its index in the part's names),
/// truth_item, pred_item, truth, prediction, outcome (index in
/// [`Outcome::ALL`]), similarity, cer, confidence, error type (index in
/// [`ErrorType::ALL`], SPEC §9.1), belongs_to (index in the names), a
/// set field's [missed, spurious] elements (not in the JSON report).
type Field = (
    u32,
    Option<usize>,
    Option<usize>,
    Value,
    Value,
    u8,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<u8>,
    Option<u32>,
    Option<[u64; 2]>,
);

/// Each field name of a part, numbered in the order first compared.
type Names<'a> = FxHashMap<&'a str, u32>;

/// A part's models, written as they are read (no copy gathered first).
struct ModelsOut<'a>(&'a [Option<Vec<DocumentDetail>>], &'a Names<'a>);
struct DocumentsOut<'a>(&'a [DocumentDetail], &'a Names<'a>);
struct DocumentOut<'a>(&'a DocumentDetail, &'a Names<'a>);
struct FieldsOut<'a>(&'a [FieldDetail], &'a Names<'a>);

impl Serialize for ModelsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.0
                .iter()
                .map(|model| model.as_deref().map(|docs| DocumentsOut(docs, self.1))),
        )
    }
}

impl Serialize for DocumentsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|d| DocumentOut(d, self.1)))
    }
}

impl Serialize for DocumentOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (d, names) = (self.0, self.1);
        let mut t = serializer.serialize_tuple(8)?;
        t.serialize_element(&d.id)?;
        t.serialize_element(&d.has_prediction)?;
        t.serialize_element(&d.schema_valid)?;
        t.serialize_element(&d.exact_match)?;
        t.serialize_element(&Outcome::ALL.map(|o| d.counts.get(o)))?;
        t.serialize_element(&[d.precision, d.recall, d.f1, d.accuracy])?;
        t.serialize_element(&FieldsOut(&d.fields, names))?;
        t.serialize_element(&d.slice)?;
        t.end()
    }
}

impl Serialize for FieldsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|f| {
            (
                // Every name is listed (`serialize` listed them from
                // these very values); 0 only to never panic.
                self.1.get(f.field.as_str()).copied().unwrap_or(0),
                f.truth_item,
                f.pred_item,
                &f.truth,
                &f.prediction,
                code(f.outcome),
                f.similarity,
                f.cer,
                f.confidence,
                f.error_type
                    .map(|e| ErrorType::ALL.iter().position(|&x| x == e).unwrap_or(0) as u8),
                f.belongs_to
                    .as_deref()
                    .map(|b| self.1.get(b).copied().unwrap_or(0)),
                f.set_errors,
            )
        }))
    }
}

fn code(outcome: Outcome) -> u8 {
    Outcome::ALL.iter().position(|&o| o == outcome).unwrap_or(0) as u8
}

pub fn serialize<S: Serializer>(
    details: &[Option<Vec<DocumentDetail>>],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut names = Names::default();
    let mut listed: Vec<&str> = Vec::new();
    let fields = details.iter().flatten().flatten().flat_map(|d| &d.fields);
    for f in fields {
        for name in std::iter::once(&f.field).chain(&f.belongs_to) {
            names.entry(name).or_insert_with(|| {
                listed.push(name);
                (listed.len() - 1) as u32
            });
        }
    }
    (listed, ModelsOut(details, &names)).serialize(serializer)
}

pub fn deserialize<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<Option<Vec<DocumentDetail>>>, D::Error> {
    let (names, models) = <(Vec<String>, Vec<Option<Vec<Document>>>)>::deserialize(deserializer)?;
    models
        .into_iter()
        .map(|model| {
            model
                .map(|documents| documents.into_iter().map(|d| document(d, &names)).collect())
                .transpose()
        })
        .collect()
}

fn document<E: serde::de::Error>(d: Document, names: &[String]) -> Result<DocumentDetail, E> {
    let (
        id,
        has_prediction,
        schema_valid,
        exact_match,
        c,
        [precision, recall, f1, accuracy],
        fields,
        slice,
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
        fields: fields
            .into_iter()
            .map(|f| field(f, names))
            .collect::<Result<_, E>>()?,
        slice,
    })
}

fn field<E: serde::de::Error>(f: Field, names: &[String]) -> Result<FieldDetail, E> {
    let (
        name,
        truth_item,
        pred_item,
        truth,
        prediction,
        outcome,
        similarity,
        cer,
        confidence,
        error_type,
        belongs_to,
        set_errors,
    ) = f;
    let outcome = *Outcome::ALL
        .get(outcome as usize)
        .ok_or_else(|| E::custom(format!("no outcome {outcome}")))?;
    let name_of = |i: u32| {
        names
            .get(i as usize)
            .cloned()
            .ok_or_else(|| E::custom(format!("no field {i}")))
    };
    let field = name_of(name)?;
    let error_type = error_type
        .map(|e| {
            ErrorType::ALL
                .get(usize::from(e))
                .copied()
                .ok_or_else(|| E::custom(format!("no error type {e}")))
        })
        .transpose()?;
    let belongs_to = belongs_to.map(name_of).transpose()?;
    Ok(FieldDetail {
        field,
        truth_item,
        pred_item,
        truth,
        prediction,
        outcome,
        error_type,
        belongs_to,
        similarity,
        cer,
        confidence,
        set_errors,
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
        let names = ["total".to_string()];
        let sent = |code| {
            let cer = Some(0.5);
            (
                0,
                None,
                None,
                Value::Null,
                Value::Null,
                code,
                None,
                cer,
                None,
                Some(2),
                Some(0),
                Some([1, 3]),
            )
        };
        for (i, outcome) in Outcome::ALL.into_iter().enumerate() {
            assert_eq!(code(outcome), i as u8);
            let detail = field::<Error>(sent(i as u8), &names).unwrap();
            assert_eq!(
                (detail.field.as_str(), detail.outcome, detail.cer),
                ("total", outcome, Some(0.5))
            );
            assert_eq!(
                (detail.error_type, detail.belongs_to.as_deref()),
                (Some(ErrorType::Swapped), Some("total"))
            );
            assert_eq!(detail.set_errors, Some([1, 3]));
        }
        assert_eq!(
            field::<Error>(sent(6), &names).unwrap_err().to_string(),
            "no outcome 6"
        );
        let mut bad = sent(0);
        bad.9 = Some(7);
        assert_eq!(
            field::<Error>(bad, &names).unwrap_err().to_string(),
            "no error type 7"
        );
        let mut unnamed = sent(0);
        unnamed.0 = 1;
        assert_eq!(
            field::<Error>(unnamed, &names).unwrap_err().to_string(),
            "no field 1"
        );
    }
}
