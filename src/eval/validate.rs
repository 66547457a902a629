//! Schema validity (SPEC §3.5) of values in a [`Forest`], without
//! building `serde_json::Value`s.
//!
//! Owns: [`ForestJson`], the `jsonschema` crate's representation trait
//! implemented for forest values, and [`ForestValidator`]. `jsonschema`
//! validates any representation that implements its `Json` trait; this
//! one answers from the forest, with numbers as `serde_json::Number`s (the
//! crate's own number semantics), so a payload validates exactly as the
//! same payload as a `serde_json::Value` would (a test compares the two).
//! A payload is a record minus some top-level members (the id field and
//! the metadata keys): [`Payload`] leaves them out without copying.
//! Pure; depends on `jsonschema`, `tree`.

use crate::eval::tree::{Children, Entries, Forest, Json, JsonType, NodeId};
use jsonschema::json::{self as js, NodeIdentity};
use serde_json::Value;
use std::borrow::Cow;

/// Which top-level members of a payload are left out.
pub type Skip<'a> = &'a (dyn Fn(&str) -> bool + 'a);

/// Forest values as a `jsonschema` representation.
pub struct ForestJson;

/// A value of a forest; at the top of a payload, some members left out.
#[derive(Clone, Copy)]
pub struct Payload<'a> {
    json: Json<'a>,
    skip: Option<Skip<'a>>,
}

impl<'a> Payload<'a> {
    /// The value `json`, without the top-level members for which `skip`
    /// is true.
    pub fn new(json: Json<'a>, skip: Option<Skip<'a>>) -> Self {
        Payload { json, skip }
    }

    fn child(json: Json<'a>) -> Self {
        Payload { json, skip: None }
    }

    fn kept(&self, key: &str) -> bool {
        self.skip.is_none_or(|skip| !skip(key))
    }
}

impl js::Json for ForestJson {
    type Node<'a> = Payload<'a>;
    type PreparedKey = String;
    type StringBuffer = Forest;

    // A member lookup is a scan of the object's members, so a pass over
    // the members beats lookups for any object of a record's size.
    const KEYS_PER_LOOKUP: usize = 64;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(
        buffer: &mut Forest,
        string: &str,
        f: impl FnOnce(Payload<'_>) -> T,
    ) -> T {
        *buffer = Forest::default();
        let id = buffer.add_value(&Value::String(string.to_owned())).ok();
        match id {
            Some(id) => f(Payload::child(buffer.get(id))),
            // Only a string over 4 GiB: validate it as a serde_json value.
            None => {
                let mut fallback = Forest::default();
                let id = fallback.add_value(&Value::Null).unwrap_or_default();
                f(Payload::child(fallback.get(id)))
            }
        }
    }
}

impl<'a> js::Node<'a, ForestJson> for Payload<'a> {
    type Object = Payload<'a>;
    type Array = Payload<'a>;
    type Number = serde_json::Number;

    fn as_object(&self) -> Option<Payload<'a>> {
        self.json.is_object().then_some(*self)
    }

    fn as_array(&self) -> Option<Payload<'a>> {
        (self.json.json_type() == JsonType::Array).then_some(*self)
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        self.json.as_str().map(Cow::Borrowed)
    }

    fn as_number(&self) -> Option<serde_json::Number> {
        self.json.as_number()
    }

    fn as_boolean(&self) -> Option<bool> {
        self.json.as_bool()
    }

    fn is_null(&self) -> bool {
        self.json.is_null()
    }

    fn json_type(&self) -> jsonschema::JsonType {
        match self.json.json_type() {
            JsonType::Null => jsonschema::JsonType::Null,
            JsonType::Bool => jsonschema::JsonType::Boolean,
            JsonType::Number => jsonschema::JsonType::Number,
            JsonType::String => jsonschema::JsonType::String,
            JsonType::Array => jsonschema::JsonType::Array,
            JsonType::Object => jsonschema::JsonType::Object,
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(match self.skip {
            Some(skip) => self.json.to_value_without(skip),
            None => self.json.to_value(),
        })
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::tagged(
            self.json.forest_address(),
            self.json.id(),
        ))
    }
}

impl<'a> js::Object<'a, ForestJson> for Payload<'a> {
    type Node = Payload<'a>;
    type MemberName = &'a str;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        match self.skip {
            Some(_) => self.json.entries().filter(|(k, _)| self.kept(k)).count(),
            None => self.json.len(),
        }
    }

    fn get(&self, key: &String) -> Option<Payload<'a>> {
        if !self.kept(key) {
            return None;
        }
        self.json.get(key).map(Payload::child)
    }

    fn members(&self) -> Members<'a> {
        Members {
            entries: self.json.entries(),
            skip: self.skip,
        }
    }
}

impl<'a> js::Array<'a, ForestJson> for Payload<'a> {
    type Node = Payload<'a>;
    type ElementsIter = std::iter::Map<Children<'a>, fn(Json<'a>) -> Payload<'a>>;

    fn len(&self) -> usize {
        self.json.len()
    }

    fn elements(&self) -> Self::ElementsIter {
        self.json
            .elements()
            .map(Payload::child as fn(Json<'a>) -> Payload<'a>)
    }
}

/// The members of a payload's object, the skipped ones left out.
pub struct Members<'a> {
    entries: Entries<'a>,
    skip: Option<Skip<'a>>,
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, Payload<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let skip = self.skip;
        self.entries
            .find(|(k, _)| skip.is_none_or(|skip| !skip(k)))
            .map(|(k, v)| (k, Payload::child(v)))
    }
}

/// A compiled schema that validates forest values.
pub struct ForestValidator(jsonschema::Validator<ForestJson>);

impl ForestValidator {
    /// Compiles `schema` with the options of
    /// [`compile_schema`](crate::eval::compile_schema) (draft-07, `format`
    /// an annotation only).
    pub fn new(schema: &Value) -> Result<Self, jsonschema::ValidationError<'static>> {
        jsonschema::options_for::<ForestJson>()
            .with_draft(jsonschema::Draft::Draft7)
            .should_validate_formats(false)
            .build(schema)
            .map(ForestValidator)
    }

    /// Whether the record at `root`, without the top-level members for
    /// which `skip` is true, is valid.
    pub fn is_valid(&self, forest: &Forest, root: NodeId, skip: Skip<'_>) -> bool {
        self.0.is_valid(Payload::new(forest.get(root), Some(skip)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn forest_values_validate_as_serde_json_values() {
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
