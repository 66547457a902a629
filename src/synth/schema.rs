//! The JSON Schema (draft-07) of the synthetic truth records; why number
//! fields also allow strings is in the parent module's doc.
//!
//! Owns: the schema's shape only. Depends on `serde_json` alone.

use serde_json::{json, Map, Value};

/// The schema of the truth records (with the paradox data's fields when
/// `paradox`).
pub(super) fn schema(paradox: bool) -> Value {
    let string = json!({"type": ["string", "null"]});
    let number = json!({"type": ["number", "string", "null"]});
    let date = json!({"type": ["string", "null"], "format": "date"});
    let mut schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Invoice",
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "invoice_number": string,
            "invoice_date": date,
            "due_date": date,
            "currency": string,
            "vendor": {
                "type": "object",
                "properties": {
                    "name": string,
                    "address": {
                        "type": "object",
                        "properties": {"street": string, "city": string, "postcode": string}
                    },
                    "vat_id": string
                }
            },
            "customer": {"type": "object", "properties": {"name": string}},
            "total": number,
            "tax": number,
            "po_number": string,
            "payment_terms": string,
            "codes": {"type": ["array", "null"], "items": {"type": "string"}},
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "description": string,
                        "quantity": number,
                        "unit_price": number,
                        "amount": number,
                        "sku": string
                    }
                }
            }
        },
        "required": ["invoice_number", "invoice_date", "total", "items"],
        "additionalProperties": false
    });
    if paradox {
        let properties = &mut schema["properties"];
        properties["vendor"]["properties"]["phone"] = string.clone();
        properties["customer"]["properties"]["vat_id"] = string.clone();
        properties["customer"]["properties"]["reference"] = string;
        // `delivery_date` after `due_date`, as in the records.
        if let Value::Object(map) = properties {
            let mut ordered = Map::new();
            for (key, value) in std::mem::take(map) {
                let due = key == "due_date";
                ordered.insert(key, value);
                if due {
                    ordered.insert("delivery_date".into(), date.clone());
                }
            }
            *map = ordered;
        }
    }
    schema
}
