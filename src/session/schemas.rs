//! Several schemas in the app (SPEC §7.2): which loaded schema files the
//! evaluation takes and by what name, whether `schema_by` is set when it
//! must be, and what the file list shows — how many documents each
//! schema serves, how many name none, and which truth fields a document
//! could name its schema by.
//!
//! Owns only the session's side; each document's choice is the core's
//! (`eval::documents_by_schema`, the evaluation's own reading). Depends on
//! `eval`; knows no web types.

use super::{Parsed, Role, Session};
use crate::eval::groups::DocTypes;
use crate::eval::tree::JsonType;
use crate::eval::{documents_by_schema, schema_stem, NamedSchema};
pub use crate::protocol::SchemaOverview;
use std::collections::BTreeMap;

/// At most this many top-level fields are offered for `schema_by`.
pub const MAX_CHOICES: usize = 50;

impl Session {
    /// The parsed schema files, in the list's order, each named by its file
    /// stem (SPEC §7.2).
    pub(super) fn named_schemas(&self) -> Vec<NamedSchema> {
        self.parsed_schema_files()
            .map(|(f, v)| NamedSchema::new(schema_stem(&f.name), v.clone()))
            .collect()
    }

    fn parsed_schema_files(
        &self,
    ) -> impl Iterator<Item = (&super::LoadedFile, &serde_json::Value)> {
        self.files
            .iter()
            .filter_map(|f| match (&f.role, &f.parsed) {
                (Role::Schema, Ok(Parsed::Json(v))) => Some((f, v)),
                _ => None,
            })
    }

    /// The schema file's name when exactly one is loaded (what a schema
    /// error names); among several, errors carry the schema's stem.
    pub(super) fn schema_name(&self) -> Option<&str> {
        let mut files = self.parsed_schema_files();
        match (files.next(), files.next()) {
            (Some((f, _)), None) => Some(f.name.as_str()),
            _ => None,
        }
    }

    /// Several schemas need `schema_by` (SPEC §7.2: otherwise a usage
    /// error); the message says where the page sets it.
    pub(super) fn check_schema_by(&self) -> Result<(), String> {
        let n = self.parsed_schema_files().count();
        if n < 2 {
            return Ok(());
        }
        match self.config()?.schema_by {
            Some(by) if !by.trim().is_empty() => Ok(()),
            _ => Err(format!(
                "{n} schemas are loaded: choose above the file list how each document names its schema — by its id or by a top-level field of the ground truth whose value is the schema's file name without .json (SPEC §7.2)."
            )),
        }
    }

    /// What the file list shows about several schemas; `None` with one
    /// schema or none.
    pub fn schema_overview(&self) -> Option<SchemaOverview> {
        let files: Vec<u32> = self.parsed_schema_files().map(|(f, _)| f.id).collect();
        if files.len() < 2 {
            return None;
        }
        let config = self.config().ok();
        let schema_by = config
            .as_ref()
            .and_then(|c| c.schema_by.clone())
            .filter(|s| !s.trim().is_empty());
        let truth = self.truth_records().ok();
        let chosen = match (&schema_by, truth) {
            (Some(by), Some(truth)) => documents_by_schema(
                std::sync::Arc::clone(truth),
                config.as_ref().and_then(|c| c.id_field.as_deref()),
                &self.named_schemas(),
                by,
            )
            .ok(),
            _ => None,
        };
        let types = chosen.as_ref().map(|c| {
            let choices: Vec<Option<usize>> = c.iter().map(|(_, s)| *s).collect();
            DocTypes::of(&self.named_schemas(), &choices)
        });
        let served = files
            .iter()
            .enumerate()
            .map(|(i, &id)| {
                let n = chosen
                    .as_ref()
                    .map(|c| c.iter().filter(|(_, s)| *s == Some(i)).count());
                (id, n)
            })
            .collect();
        let unserved: Vec<&String> = chosen
            .iter()
            .flatten()
            .filter(|(_, s)| s.is_none())
            .map(|(id, _)| id)
            .collect();
        let mut choices = vec!["id".to_string()];
        if let Some(truth) = truth {
            // How many records give each top-level field a value that reads
            // as a string (a string or a number, SPEC §7.2).
            let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
            for r in &truth.records {
                for (k, v) in truth.forest.get(r.root).entries() {
                    if matches!(v.json_type(), JsonType::String | JsonType::Number) {
                        *counts.entry(k).or_default() += 1;
                    }
                }
            }
            let mut fields: Vec<(&str, usize)> =
                counts.into_iter().filter(|(f, _)| *f != "id").collect();
            // The most used first (a benchmark of many types has thousands
            // of top-level fields, each in a few records), then by name.
            fields.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            let mut names: Vec<&str> = fields.iter().take(MAX_CHOICES).map(|f| f.0).collect();
            names.sort_unstable();
            choices.extend(names.into_iter().map(str::to_owned));
            if let Some(current) = &schema_by {
                if !choices.contains(current) {
                    choices.push(current.clone());
                }
            }
        }
        Some(SchemaOverview {
            schema_by,
            served,
            unserved: (
                unserved.len(),
                unserved.iter().take(5).map(|s| s.to_string()).collect(),
            ),
            choices,
            types,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::SchemaValidity;
    use crate::session::Layered;
    use serde_json::json;

    fn jsonl(records: &[serde_json::Value]) -> Vec<u8> {
        records
            .iter()
            .map(|r| format!("{r}\n"))
            .collect::<String>()
            .into_bytes()
    }

    fn schema(properties: serde_json::Value) -> Vec<u8> {
        json!({"type": "object", "properties": properties})
            .to_string()
            .into_bytes()
    }

    /// Two document types: an invoice (total) and a receipt (store), named
    /// by the truth's `kind`; d3 names no schema.
    fn two_types() -> Session {
        let mut s = Session::default();
        let truth = [
            json!({"id": "d1", "kind": " invoice ", "total": 10}),
            json!({"id": "d2", "kind": "receipt", "store": "Aldi"}),
            json!({"id": "d3", "kind": "memo", "note": "hi"}),
        ];
        let pred = [
            json!({"id": "d1", "total": 10}),
            json!({"id": "d2", "store": "Lidl"}),
            json!({"id": "d3", "note": "hi"}),
        ];
        s.load("truth.jsonl", jsonl(&truth)).expect("truth");
        s.load("m.jsonl", jsonl(&pred)).expect("model");
        s.load(
            "invoice.json",
            schema(json!({"total": {"type": "number"}, "kind": {"type": "string"}})),
        )
        .expect("schema");
        s.load(
            "receipt.json",
            schema(json!({"store": {"type": "string"}, "kind": {"type": "string"}})),
        )
        .expect("schema");
        s
    }

    #[test]
    fn schema_by_offers_the_fields_in_the_most_records_and_keeps_the_current_one() {
        let mut s = Session::default();
        // `kind` in every record, `nested` an object, then 60 fields in one
        // record each (a wide benchmark's fields).
        let truth: Vec<serde_json::Value> = (0..60)
            .map(|i| json!({"id": format!("d{i}"), "kind": "invoice", "nested": {"a": 1}, format!("f{i:02}"): "x"}))
            .collect();
        s.load("truth.jsonl", jsonl(&truth)).expect("truth");
        s.load("invoice.json", schema(json!({"kind": {"type": "string"}})))
            .expect("schema");
        s.load("receipt.json", schema(json!({"kind": {"type": "string"}})))
            .expect("schema");
        let choices = s.schema_overview().expect("several").choices;
        assert_eq!(choices.len(), 1 + MAX_CHOICES);
        assert_eq!(&choices[..4], ["id", "f00", "f01", "f02"]);
        assert!(choices.contains(&"kind".to_string()));
        assert!(!choices.contains(&"nested".to_string()) && !choices.contains(&"f59".to_string()));
        // A `schema_by` outside the list is offered too, last.
        s.set_setting("schema_by", Some(json!("f59")));
        let choices = s.schema_overview().expect("several").choices;
        assert_eq!(choices.last().map(String::as_str), Some("f59"));
    }

    #[test]
    fn several_schemas_need_schema_by_and_then_evaluate_each_document_on_its_own_fields() {
        let mut s = two_types();
        assert_eq!(
            s.files.iter().map(|f| f.role).collect::<Vec<_>>(),
            [Role::Truth, Role::Predictions, Role::Schema, Role::Schema]
        );
        let err = s.evaluate().expect_err("schema_by missing");
        assert!(err.starts_with("2 schemas are loaded"), "{err}");
        let overview = s.schema_overview().expect("several");
        assert_eq!(overview.schema_by, None);
        assert_eq!(overview.served, vec![(2, None), (3, None)]);
        assert_eq!(overview.choices, ["id", "kind", "note", "store", "total"]);
        assert_eq!(overview.types, None);

        s.set_setting("schema_by", Some(json!("kind")));
        let overview = s.schema_overview().expect("several");
        assert_eq!(overview.served, vec![(2, Some(1)), (3, Some(1))]);
        assert_eq!(overview.unserved, (1, vec!["d3".to_string()]));
        // The types the field matrix groups by: each schema's stem, its
        // documents (d1; d2) and the fields it names.
        let types = overview.types.expect("schema_by is set").types;
        let named: Vec<(&str, usize, Vec<&str>)> = types
            .iter()
            .map(|t| {
                let mut f: Vec<&str> = t.fields.iter().map(String::as_str).collect();
                f.sort_unstable();
                (t.name.as_str(), t.documents, f)
            })
            .collect();
        assert_eq!(
            named,
            [
                ("invoice", 1, vec!["kind", "total"]),
                ("receipt", 1, vec!["kind", "store"])
            ]
        );

        s.compute_validity_now();
        let report = s.evaluate().expect("evaluates");
        // Own field sets (SPEC §7.2): d1 {kind, total}, d2 {kind, store},
        // d3 {kind, note}; no true negatives from the other types' fields.
        let m = &report.models[0];
        let field = |name: &str| m.fields.iter().find(|f| f.field == name).expect(name);
        assert_eq!(field("total").counts.exact, 1);
        assert_eq!(field("total").counts.true_negative, 0);
        assert_eq!(field("store").counts.incorrect, 1);
        assert_eq!(field("store").counts.true_negative, 0);
        assert_eq!(field("note").counts.exact, 1);
        // `kind` is absent from every prediction: missed in all three.
        assert_eq!(field("kind").counts.missed, 3);
        assert!(
            report.warnings.iter().any(|w| w.contains("d3")),
            "{:?}",
            report.warnings
        );
    }

    #[test]
    fn the_validity_job_carries_schema_by_and_checks_each_document_against_its_own_schema() {
        let mut s = two_types();
        s.set_setting("schema_by", Some(json!("kind")));
        let job = s.validity_job().expect("a job");
        assert_eq!(job.schema_by.as_deref(), Some("kind"));
        let answer = super::super::compute_validity(&job.files, None, Some("kind"));
        // d1's prediction lacks nothing its invoice schema requires; d2's
        // store is a string: all valid.
        assert_eq!(
            answer
                .as_ref()
                .map(SchemaValidity::per_model)
                .ok()
                .flatten(),
            Some(&[vec![true, true, true]][..])
        );
        s.store_validity(job, answer);
        assert!(!s.validity_pending());
        // Another schema_by makes the stored validity stale.
        s.set_setting("schema_by", Some(json!("id")));
        assert!(s.validity_pending());
        assert!(s.validity_job().is_some());
    }

    #[test]
    fn one_schema_stays_the_dataset_wide_schema() {
        let mut s = two_types();
        let receipt = s.files[3].id;
        s.remove(receipt);
        assert_eq!(s.schema_overview(), None);
        assert_eq!(s.schema_name(), Some("invoice.json"));
        s.compute_validity_now();
        let report = s.evaluate().expect("one schema needs no schema_by");
        // The dataset-wide field set (SPEC §1.2): `total` is compared in
        // every document, a true negative where both leave it out.
        let m = &report.models[0];
        let total = m.fields.iter().find(|f| f.field == "total").expect("total");
        assert_eq!(total.counts.exact, 1);
        assert_eq!(total.counts.true_negative, 2);
    }
}
