//! Schema validity (SPEC §3.5) of records held in a [`Forest`].
//!
//! Owns: [`ForestValidator`]. A payload (a record minus some top-level
//! members: the id field and the metadata keys) is copied into a
//! `serde_json::Value` and validated by the same `jsonschema::Validator`
//! that [`compile_schema`] builds. The crate could also validate the forest
//! directly through its `Json` representation trait, but every validator
//! would then be compiled twice into the browser app (once for
//! `serde_json` values, which the crate's own meta-schema check needs, and
//! once for forests): 584 KB of WebAssembly code for a copy that costs a
//! few milliseconds per 10,000 records (see README, Performance).
//! Pure; depends on `jsonschema`, `tree`.

use crate::error::Error;
use crate::eval::compile_schema;
use crate::eval::tree::{Forest, NodeId};

/// Which top-level members of a payload are left out.
pub type Skip<'a> = &'a (dyn Fn(&str) -> bool + 'a);

/// A compiled schema that validates forest values.
pub struct ForestValidator(jsonschema::Validator);

impl ForestValidator {
    /// Compiles `schema` with [`compile_schema`] (draft-07, `format` an
    /// annotation only); a schema that is not valid JSON Schema is an error.
    pub fn new(schema: &serde_json::Value) -> Result<Self, Error> {
        compile_schema(schema).map(ForestValidator)
    }

    /// Whether the record at `root`, without the top-level members for
    /// which `skip` is true, is valid.
    pub fn is_valid(&self, forest: &Forest, root: NodeId, skip: Skip<'_>) -> bool {
        self.0.is_valid(&forest.get(root).to_value_without(skip))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn payloads_validate_as_serde_json_values_without_the_skipped_members() {
        let schema = json!({
            "type": "object",
            "required": ["total", "items"],
            "additionalProperties": false,
            "properties": {
                "total": {"type": "number", "minimum": 0},
                "n": {"type": "integer"},
                "currency": {"enum": ["EUR", "USD"]},
                "date": {"type": "string", "format": "date", "maxLength": 10},
                "codes": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                "vendor": {"type": "object", "properties": {"name": {"type": ["string", "null"]}},
                           "propertyNames": {"pattern": "^[a-z]+$"}},
                "items": {"type": "array", "items": {"type": "object", "properties": {
                    "amount": {"type": "number"}, "sku": {"type": "string", "minLength": 2}}}}
            }
        });
        let plain = crate::eval::compile_schema(&schema).unwrap();
        let forest_validator = ForestValidator::new(&schema).unwrap();
        let skip = |k: &str| k == "id" || k == "cost";
        let cases = [
            json!({"id": "a", "cost": 1, "total": 5, "items": []}),
            json!({"total": 5, "items": [], "extra": 1}),
            json!({"total": -1, "items": []}),
            json!({"total": "5", "items": []}),
            json!({"total": 5, "items": [{"amount": 1.5, "sku": "x"}]}),
            json!({"total": 5, "items": [{"amount": 1.5, "sku": "xy"}], "n": 2.0}),
            json!({"total": 5, "items": [], "n": 2.5}),
            json!({"total": 5, "items": [], "n": 1e2}),
            json!({"total": 5, "items": [], "currency": "GBP"}),
            json!({"total": 5.0, "items": [], "currency": "EUR", "date": "2025-13-45"}),
            json!({"total": 5, "items": [], "date": "2025-01-01T00:00"}),
            json!({"total": 5, "items": [], "codes": ["a", "a"]}),
            json!({"total": 5, "items": [], "codes": ["a", "b"], "vendor": {"name": null}}),
            json!({"total": 5, "items": [], "vendor": {"Name": "x"}}),
            json!({"items": []}),
            json!({"id": "only the id"}),
        ];
        for case in cases {
            let mut forest = Forest::default();
            let root = forest.add_value(&case).unwrap();
            let mut payload = case.clone();
            if let Value::Object(map) = &mut payload {
                map.retain(|k, _| !skip(k));
            }
            assert_eq!(
                forest_validator.is_valid(&forest, root, &skip),
                plain.is_valid(&payload),
                "{case}"
            );
        }
    }
}
