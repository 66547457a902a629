//! A model's per-field rows: [`FieldReport`] with its [`Counts`] and
//! [`ErrorCounts`], and `ModelReport::fields` in two forms, chosen
//! by the format: the report's own form, SPEC §5's objects with their
//! keys, for a human-readable format (JSON); and, for a binary one (the
//! CBOR the evaluation worker sends the page), each row as a tuple
//! `(field, [exact, partial, incorrect, missed, spurious, true_negative],
//! [format, scale, swapped, near_miss, wrong, missed, spurious],
//! [precision, recall, f1, accuracy], cer, mean_cer)`.
//!
//! Why: on a wide benchmark (10,000 fields × 3 models) the rows were
//! nearly all of the report's bytes, each carrying its 23 key names, and
//! the page decoded them in the task that draws the report (issue 34).
//! Both forms hold the same numbers bit for bit. Pure; depends on serde
//! only.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Outcome counts (SPEC §2.3, §3.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub exact: u64,
    pub partial: u64,
    pub incorrect: u64,
    pub missed: u64,
    pub spurious: u64,
    pub true_negative: u64,
}

/// Error-type counts (SPEC §9.1), in the report's key order. `missed`
/// and `spurious` are the outcome counts of the same names; the other five
/// split `partial` + `incorrect`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorCounts {
    pub format: u64,
    pub scale: u64,
    pub swapped: u64,
    pub near_miss: u64,
    pub wrong: u64,
    pub missed: u64,
    pub spurious: u64,
}

/// One row of the per-field table: the field's pooled counts and strict
/// scores, and its CER (`null` when it has no present truth value or is a
/// set field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldReport {
    pub field: String,
    pub counts: Counts,
    /// SPEC §9.1: the error types of the field's outcomes.
    #[serde(default)]
    pub errors: ErrorCounts,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub accuracy: f64,
    pub cer: Option<f64>,
    pub mean_cer: Option<f64>,
}

/// A row as a binary format carries it.
type Row<S> = (S, [u64; 6], [u64; 7], [f64; 4], Option<f64>, Option<f64>);

/// Writes the rows: objects for a human-readable format, tuples otherwise.
pub fn serialize<S: Serializer>(rows: &[FieldReport], serializer: S) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() {
        return rows.serialize(serializer);
    }
    serializer.collect_seq(rows.iter().map(|r| -> Row<&str> {
        let (c, e) = (&r.counts, &r.errors);
        (
            &r.field,
            [
                c.exact,
                c.partial,
                c.incorrect,
                c.missed,
                c.spurious,
                c.true_negative,
            ],
            [
                e.format,
                e.scale,
                e.swapped,
                e.near_miss,
                e.wrong,
                e.missed,
                e.spurious,
            ],
            [r.precision, r.recall, r.f1, r.accuracy],
            r.cer,
            r.mean_cer,
        )
    }))
}

/// Reads the rows [`serialize`] wrote in the same format.
pub fn deserialize<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<FieldReport>, D::Error> {
    if deserializer.is_human_readable() {
        return Vec::<FieldReport>::deserialize(deserializer);
    }
    let rows = Vec::<Row<String>>::deserialize(deserializer)?;
    Ok(rows
        .into_iter()
        .map(
            |(field, c, e, [precision, recall, f1, accuracy], cer, mean_cer)| FieldReport {
                field,
                counts: Counts {
                    exact: c[0],
                    partial: c[1],
                    incorrect: c[2],
                    missed: c[3],
                    spurious: c[4],
                    true_negative: c[5],
                },
                errors: ErrorCounts {
                    format: e[0],
                    scale: e[1],
                    swapped: e[2],
                    near_miss: e[3],
                    wrong: e[4],
                    missed: e[5],
                    spurious: e[6],
                },
                precision,
                recall,
                f1,
                accuracy,
                cer,
                mean_cer,
            },
        )
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(field: &str, cer: Option<f64>) -> FieldReport {
        FieldReport {
            field: field.to_string(),
            counts: Counts {
                exact: 1,
                partial: 2,
                incorrect: 3,
                missed: 4,
                spurious: 5,
                true_negative: 6,
            },
            errors: ErrorCounts {
                format: 7,
                scale: 8,
                swapped: 9,
                near_miss: 10,
                wrong: 11,
                missed: 4,
                spurious: 5,
            },
            precision: 0.1,
            recall: 1.0 / 3.0,
            f1: 0.0,
            accuracy: -0.0,
            cer,
            mean_cer: cer.map(|c| c / 7.0),
        }
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Holder(#[serde(with = "super")] Vec<FieldReport>);

    #[test]
    fn cbor_carries_tuples_and_reads_them_back_bit_for_bit() {
        let rows = Holder(vec![row("vendor.name", Some(0.125)), row("tötal €", None)]);
        let mut bytes = Vec::new();
        ciborium::into_writer(&rows, &mut bytes).unwrap();
        // The first row is an array of six, not a map: no key is written.
        let value: ciborium::Value = ciborium::from_reader(&bytes[..]).unwrap();
        let first = &value.as_array().unwrap()[0];
        assert_eq!(first.as_array().unwrap().len(), 6);
        assert!(!bytes.windows(9).any(|w| w == b"precision"));
        let back: Holder = ciborium::from_reader(&bytes[..]).unwrap();
        assert_eq!(back, rows);
        assert!(back.0[0].accuracy.is_sign_negative());
        assert_eq!(back.0[0].recall.to_bits(), (1.0f64 / 3.0).to_bits());
    }

    #[test]
    fn json_keeps_the_reports_objects() {
        let rows = Holder(vec![row("a", None)]);
        let json = serde_json::to_value(&rows).unwrap();
        assert_eq!(json[0]["field"], "a");
        assert_eq!(json[0]["counts"]["true_negative"], 6);
        assert_eq!(json[0]["errors"]["near_miss"], 10);
        assert_eq!(json[0]["cer"], serde_json::Value::Null);
        let back: Holder = serde_json::from_value(json).unwrap();
        assert_eq!(back, rows);
    }

    #[test]
    fn an_empty_list_in_both_forms() {
        let mut bytes = Vec::new();
        ciborium::into_writer(&Holder(Vec::new()), &mut bytes).unwrap();
        assert_eq!(bytes, [0x80]);
        let back: Holder = ciborium::from_reader(&bytes[..]).unwrap();
        assert!(back.0.is_empty());
        assert_eq!(serde_json::to_string(&Holder(Vec::new())).unwrap(), "[]");
    }
}
