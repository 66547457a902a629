//! A model's per-field rows: [`FieldReport`] with its [`Counts`] and
//! [`ErrorCounts`], and `ModelReport::fields` in two forms, chosen
//! by the format: the report's own form, SPEC §5's objects with their
//! keys, for a human-readable format (JSON); and, for a binary one (the
//! CBOR the evaluation worker sends the page), each row as a pair: its
//! field name and one byte string holding its numbers ([`Packed`]).
//!
//! Why: on a wide benchmark (10,000 fields × 3 models) the rows were
//! nearly all of the report's bytes, each with its 23 key names and 19
//! numbers as CBOR items, and the page decoded them in the task that draws
//! the report (issue 34); ciborium's cost is per item.
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

/// The numbers of a row, packed little-endian: the six outcome counts and
/// the seven error-type counts (u64 each), precision, recall, F1 and
/// accuracy (f64 bits), then `cer` and `mean_cer` each as a presence byte
/// and f64 bits.
const PACKED: usize = 13 * 8 + 4 * 8 + 2 * 9;

/// A row's numbers as one byte string: a binary format reads it as one
/// item, not nineteen (ciborium's cost is per item).
struct Packed([u8; PACKED]);

impl Packed {
    fn of(r: &FieldReport) -> Packed {
        let (c, e) = (&r.counts, &r.errors);
        let mut out = [0u8; PACKED];
        let errors = [
            e.format,
            e.scale,
            e.swapped,
            e.near_miss,
            e.wrong,
            e.missed,
            e.spurious,
        ];
        let ratios = [r.precision, r.recall, r.f1, r.accuracy].map(f64::to_bits);
        let words = c.as_array().into_iter().chain(errors).chain(ratios);
        for (chunk, w) in out.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        for (at, v) in [(17 * 8, r.cer), (17 * 8 + 9, r.mean_cer)] {
            if let Some(v) = v {
                out[at] = 1;
                out[at + 1..at + 9].copy_from_slice(&v.to_bits().to_le_bytes());
            }
        }
        Packed(out)
    }

    /// The row named `field`.
    fn row(&self, field: String) -> FieldReport {
        let b = &self.0;
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i * 8..i * 8 + 8]);
            u64::from_le_bytes(w)
        };
        let float = |i: usize| f64::from_bits(word(i));
        let optional = |at: usize| {
            (b[at] == 1).then(|| {
                let mut w = [0u8; 8];
                w.copy_from_slice(&b[at + 1..at + 9]);
                f64::from_bits(u64::from_le_bytes(w))
            })
        };
        FieldReport {
            field,
            counts: Counts {
                exact: word(0),
                partial: word(1),
                incorrect: word(2),
                missed: word(3),
                spurious: word(4),
                true_negative: word(5),
            },
            errors: ErrorCounts {
                format: word(6),
                scale: word(7),
                swapped: word(8),
                near_miss: word(9),
                wrong: word(10),
                missed: word(11),
                spurious: word(12),
            },
            precision: float(13),
            recall: float(14),
            f1: float(15),
            accuracy: float(16),
            cer: optional(17 * 8),
            mean_cer: optional(17 * 8 + 9),
        }
    }
}

impl Serialize for Packed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Packed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Packed, D::Error> {
        struct Bytes;
        impl serde::de::Visitor<'_> for Bytes {
            type Value = Packed;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a per-field row's {PACKED} bytes of numbers")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Packed, E> {
                <[u8; PACKED]>::try_from(v)
                    .map(Packed)
                    .map_err(|_| E::invalid_length(v.len(), &self))
            }
        }
        deserializer.deserialize_bytes(Bytes)
    }
}

/// Writes the rows: objects for a human-readable format; otherwise each
/// row as (field, its [`Packed`] numbers).
pub fn serialize<S: Serializer>(rows: &[FieldReport], serializer: S) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() {
        return rows.serialize(serializer);
    }
    serializer.collect_seq(rows.iter().map(|r| (&r.field, Packed::of(r))))
}

/// Reads the rows [`serialize`] wrote in the same format.
pub fn deserialize<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<FieldReport>, D::Error> {
    if deserializer.is_human_readable() {
        return Vec::<FieldReport>::deserialize(deserializer);
    }
    let rows = Vec::<(String, Packed)>::deserialize(deserializer)?;
    Ok(rows
        .into_iter()
        .map(|(field, numbers)| numbers.row(field))
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
    fn cbor_carries_a_name_and_packed_numbers_read_back_bit_for_bit() {
        let rows = Holder(vec![row("vendor.name", Some(0.125)), row("tötal €", None)]);
        let mut bytes = Vec::new();
        ciborium::into_writer(&rows, &mut bytes).unwrap();
        // The first row is its name and one byte string, not a map: no
        // key is written.
        let value: ciborium::Value = ciborium::from_reader(&bytes[..]).unwrap();
        let first = value.as_array().unwrap()[0].as_array().unwrap();
        assert_eq!(first[0].as_text(), Some("vendor.name"));
        assert_eq!(first[1].as_bytes().map(Vec::len), Some(PACKED));
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
    fn a_row_of_the_wrong_length_is_an_error_not_a_panic() {
        let mut bytes = Vec::new();
        let short: Vec<(&str, ciborium::Value)> =
            vec![("a", ciborium::Value::Bytes(vec![0; PACKED - 1]))];
        ciborium::into_writer(&short, &mut bytes).unwrap();
        let read: Result<Holder, _> = ciborium::from_reader(&bytes[..]);
        let message = read.unwrap_err().to_string();
        assert!(message.contains("bytes of numbers"), "{message}");
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
