//! Synthetic data of several document types (`fieldscope synth --types N
//! --fields-per-type M`): the shape of a wide benchmark such as DocuBench
//! (one schema per document type, hundreds of fields, several systems),
//! for the wide reports of issue 34.
//!
//! Owns: the type and field names, the truth records, the models'
//! predictions and one schema per type. Same absences as the parent
//! module: no I/O, no clock, no global random state; the same
//! [`TypesOptions`] give the same bytes.
//!
//! **The data.** Type `t` (1-based) is named [`type_name`]`(t)`
//! (`bank_statement`, `insurance_declaration`, …; past the list, the name
//! with a number). Each has `fields_per_type` top-level fields of its own
//! (`{type}_{word}`, no path shared between types) — amounts and counts
//! numbers, the rest strings — and `documents_per_type` documents (`id`
//! `"{type}_001"`, key `doc_type` = the type's name, its selector: evaluate
//! with `--schema-by doc_type` and each `schemas/{type}.json`). About 10 %
//! of the truth values are `"NOT_FOUND"` (absent).
//!
//! **The models** `sys_1` … `sys_K`: model `k` (1-based) gets a value
//! wrong with probability `0.004·k` (a changed value), misses it with
//! probability `0.004·k` (`"NOT_FOUND"`) and answers an absent value with
//! probability `0.008·k` (spurious). Field `j` of type `t` is *hard* when
//! `(7t + j) mod 29 = 0` (about one field in 29): every model gets it
//! wrong. Model 2 is weak on every fifth type
//! (its rates there are five times as high), so the by-type table has a
//! story to tell.

use fastrand::Rng;
use serde_json::{json, Map, Value};

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct TypesOptions {
    pub types: usize,
    pub fields_per_type: usize,
    pub documents_per_type: usize,
    pub models: usize,
    pub seed: u64,
}

/// The generated files.
#[derive(Debug, Clone, PartialEq)]
pub struct TypesData {
    /// One record per line, types in order, ending in a newline.
    pub truth_jsonl: String,
    /// `(model name, JSONL)`, `sys_1` first.
    pub predictions: Vec<(String, String)>,
    /// `(type name, pretty-printed draft-07 schema)`, in type order.
    pub schemas: Vec<(String, String)>,
}

const TYPES: [&str; 24] = [
    "bank_statement",
    "insurance_declaration",
    "utility_bill",
    "pay_slip",
    "purchase_order",
    "tax_return",
    "lease_agreement",
    "medical_claim",
    "shipping_manifest",
    "customs_declaration",
    "loan_application",
    "credit_card_statement",
    "vehicle_registration",
    "hotel_folio",
    "airline_ticket",
    "court_filing",
    "land_title",
    "pension_statement",
    "school_transcript",
    "grant_report",
    "energy_certificate",
    "warranty_card",
    "membership_form",
    "donation_receipt",
];

const WORDS: [&str; 30] = [
    "reference",
    "issue_date",
    "holder_name",
    "amount_due",
    "account_number",
    "period_start",
    "period_end",
    "issuer",
    "address",
    "city",
    "postcode",
    "country",
    "currency",
    "balance",
    "tax_amount",
    "signatory",
    "phone",
    "email",
    "policy_number",
    "premium",
    "deductible",
    "branch",
    "iban",
    "bic",
    "due_date",
    "status",
    "category",
    "quantity",
    "unit_price",
    "notes",
];

/// The name of type `t` (1-based): the list's, then `{name}_{n}` past it.
pub fn type_name(t: usize) -> String {
    let base = TYPES[(t - 1) % TYPES.len()];
    match (t - 1) / TYPES.len() {
        0 => base.to_string(),
        n => format!("{base}_{}", n + 1),
    }
}

/// The name of field `j` (1-based) of type `t`.
pub fn field_name(t: usize, j: usize) -> String {
    let word = WORDS[(j - 1) % WORDS.len()];
    match (j - 1) / WORDS.len() {
        0 => format!("{}_{word}", type_name(t)),
        n => format!("{}_{word}_{}", type_name(t), n + 1),
    }
}

/// Fields whose word names an amount or a count hold numbers.
fn is_number(j: usize) -> bool {
    matches!(
        WORDS[(j - 1) % WORDS.len()],
        "amount_due"
            | "balance"
            | "tax_amount"
            | "premium"
            | "deductible"
            | "quantity"
            | "unit_price"
    )
}

fn is_hard(t: usize, j: usize) -> bool {
    (7 * t + j).is_multiple_of(29)
}

fn value(rng: &mut Rng, j: usize) -> Value {
    if is_number(j) {
        json!(rng.u32(1..100_000) as f64 / 100.0)
    } else {
        let letters: String = (0..rng.usize(5..12))
            .map(|_| char::from(b'a' + rng.u8(0..26)))
            .collect();
        json!(letters)
    }
}

/// The seed of random stream `n` (0: the truth, k: model k): `seed` mixed
/// with `n` times the 64-bit golden ratio, so that the streams differ.
fn stream(seed: u64, n: u64) -> u64 {
    seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Generates the truth, the predictions and the schemas.
pub fn generate(o: &TypesOptions) -> TypesData {
    let mut rng = Rng::with_seed(stream(o.seed, 0));
    let mut truth: Vec<Map<String, Value>> = Vec::new();
    for t in 1..=o.types {
        for d in 1..=o.documents_per_type {
            let mut r = Map::new();
            r.insert("id".into(), json!(format!("{}_{d:03}", type_name(t))));
            r.insert("doc_type".into(), json!(type_name(t)));
            for j in 1..=o.fields_per_type {
                let v = if rng.f64() < 0.1 {
                    json!("NOT_FOUND")
                } else {
                    value(&mut rng, j)
                };
                r.insert(field_name(t, j), v);
            }
            truth.push(r);
        }
    }
    let predictions = (1..=o.models)
        .map(|k| {
            let name = format!("sys_{k}");
            let mut rng = Rng::with_seed(stream(o.seed, k as u64));
            let mut out = String::new();
            for (i, r) in truth.iter().enumerate() {
                let t = i / o.documents_per_type.max(1) + 1;
                let weak = if k == 2 && t.is_multiple_of(5) {
                    5.0
                } else {
                    1.0
                };
                let rate = 0.004 * k as f64 * weak;
                let mut p = Map::new();
                p.insert("id".into(), r["id"].clone());
                p.insert("doc_type".into(), r["doc_type"].clone());
                for j in 1..=o.fields_per_type {
                    let key = field_name(t, j);
                    let v = &r[&key];
                    let absent = v == "NOT_FOUND";
                    let roll = rng.f64();
                    let answer = if absent {
                        if roll < 2.0 * rate {
                            value(&mut rng, j)
                        } else {
                            json!("NOT_FOUND")
                        }
                    } else if is_hard(t, j) || roll < rate {
                        wrong(v, &mut rng, j)
                    } else if roll < 2.0 * rate {
                        json!("NOT_FOUND")
                    } else {
                        v.clone()
                    };
                    p.insert(key, answer);
                }
                out.push_str(&Value::Object(p).to_string());
                out.push('\n');
            }
            (name, out)
        })
        .collect();
    let mut truth_jsonl = String::new();
    for r in truth {
        truth_jsonl.push_str(&Value::Object(r).to_string());
        truth_jsonl.push('\n');
    }
    let schemas = (1..=o.types)
        .map(|t| {
            let mut props = Map::new();
            props.insert("doc_type".into(), json!({"type": "string"}));
            for j in 1..=o.fields_per_type {
                let ty = if is_number(j) {
                    json!(["number", "string", "null"])
                } else {
                    json!(["string", "null"])
                };
                props.insert(field_name(t, j), json!({ "type": ty }));
            }
            let schema = json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "title": type_name(t),
                "type": "object",
                "properties": props,
            });
            (
                type_name(t),
                serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n",
            )
        })
        .collect();
    TypesData {
        truth_jsonl,
        predictions,
        schemas,
    }
}

/// A value that is not `v`: another number (far from it) or another
/// string (no letter in common: `v`'s letters shifted by 13).
fn wrong(v: &Value, rng: &mut Rng, j: usize) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) + 1000.0 + rng.u32(0..100) as f64),
        Value::String(s) => json!(s
            .chars()
            .map(|c| match c {
                'a'..='z' => char::from(b'a' + (c as u8 - b'a' + 13) % 26),
                c => c,
            })
            .collect::<String>()),
        _ => value(rng, j),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> TypesOptions {
        TypesOptions {
            types: 3,
            fields_per_type: 4,
            documents_per_type: 2,
            models: 2,
            seed: 7,
        }
    }

    #[test]
    fn names_are_distinct_past_the_lists() {
        assert_eq!(type_name(1), "bank_statement");
        assert_eq!(type_name(25), "bank_statement_2");
        assert_eq!(field_name(2, 1), "insurance_declaration_reference");
        assert_eq!(field_name(1, 31), "bank_statement_reference_2");
        let mut all: Vec<String> = (1..=60)
            .flat_map(|t| (1..=40).map(move |j| field_name(t, j)))
            .collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 60 * 40);
    }

    #[test]
    fn the_files_have_every_type_document_and_field() {
        let data = generate(&options());
        let lines: Vec<Value> = data
            .truth_jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        // 3 types × 2 documents; each: id, doc_type and 4 fields.
        assert_eq!(lines.len(), 6);
        assert_eq!(lines[2]["id"], "insurance_declaration_001");
        assert_eq!(lines[2]["doc_type"], "insurance_declaration");
        assert!(lines.iter().all(|l| l.as_object().unwrap().len() == 6));
        assert_eq!(data.predictions.len(), 2);
        assert_eq!(data.predictions[1].0, "sys_2");
        assert_eq!(data.predictions[0].1.lines().count(), 6);
        let names: Vec<&str> = data.schemas.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            vec!["bank_statement", "insurance_declaration", "utility_bill"]
        );
        let schema: Value = serde_json::from_str(&data.schemas[0].1).unwrap();
        assert_eq!(schema["properties"].as_object().unwrap().len(), 5);
        assert_eq!(
            schema["properties"]["bank_statement_amount_due"]["type"],
            json!(["number", "string", "null"])
        );
        assert_eq!(generate(&options()), data, "deterministic");
    }

    #[test]
    fn a_wrong_value_differs() {
        let mut rng = Rng::with_seed(1);
        assert_eq!(wrong(&json!("abz"), &mut rng, 1), json!("nom"));
        let n = wrong(&json!(2.5), &mut rng, 3).as_f64().unwrap();
        assert!((1002.5..1102.5).contains(&n));
    }
}
