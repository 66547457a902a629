//! Corrections of the truth (SPEC §9.3): a list of `{"id", "field",
//! "from", "to"}` applied to the ground truth before evaluating.
//!
//! Owns: reading a corrections list ([`parse_corrections`]), a correction's
//! field path with 0-based item indices ([`parse_field`]), applying one to
//! a record's fields ([`apply_to_record`]) and a whole list to the truth's
//! records by id ([`apply_corrections`]), with the warnings that list what
//! was applied and the errors that name the correction refused (its
//! 1-based position, id and field, and the corrections file).
//!
//! May depend on `normalize` (§1.4's absent values) and `nfc`; pure: the
//! caller reads the files (`io::correct` writes a corrected file in the
//! input's own shape; the CLI and the Python package evaluate it).
//!
//! Readings (docs/truth-audit.md): `from` is compared with the truth as
//! JSON, NFC-normalised, numbers by value (`1` = `1.0`), object keys in any
//! order; an absent truth (§1.4: missing, `null`, `[]`, an
//! `absent_values` string) needs `from: null`, and a present one cannot be
//! matched by `null`. A field whose key is missing may be set when `from`
//! is null (a missing label), objects on its way created; an item index
//! must name an existing truth item. A record holding the whole `field`
//! as one key (a CSV header `vendor.name`) is corrected at that key. The
//! id field cannot be corrected.

use crate::error::{Error, ErrorKind};
use crate::eval::config::Config;
use crate::eval::dataset::read_truth;
use crate::eval::model::{DocFile, RecordFile};
use crate::eval::nfc::nfc_value;
use crate::eval::normalize::AbsentValues;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// One correction: at document `id`, set `field` from `from` to `to`.
#[derive(Debug, Clone, PartialEq)]
pub struct Correction {
    pub id: String,
    pub field: String,
    pub from: Value,
    pub to: Value,
}

/// One step of a field path: an object key or a 0-based item index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Reads a corrections list: a JSON array of objects with exactly the keys
/// `id` (a string, or a number taken as its JSON text; trimmed), `field`
/// (a string), `from` and `to` (any JSON values). Errors name the file and
/// the correction's 1-based position.
pub fn parse_corrections(file_name: &str, value: &Value) -> Result<Vec<Correction>, Error> {
    let bad = |msg: String| Error::new(ErrorKind::Input, msg).in_file(file_name);
    let Value::Array(list) = value else {
        return Err(bad(
            "a corrections file holds a JSON array of {\"id\", \"field\", \"from\", \"to\"} objects"
                .to_string(),
        ));
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, entry) in list.iter().enumerate() {
        let n = i + 1;
        let Value::Object(map) = entry else {
            return Err(bad(format!("correction {n} is not an object")));
        };
        if let Some(k) = map
            .keys()
            .find(|k| !["id", "field", "from", "to"].contains(&k.as_str()))
        {
            return Err(bad(format!(
                "correction {n}: unknown key `{k}`; the keys are id, field, from, to"
            )));
        }
        let id = match map.get("id") {
            Some(Value::String(s)) => s.trim().to_string(),
            Some(Value::Number(x)) => x.to_string(),
            _ => return Err(bad(format!("correction {n}: `id` must be a string"))),
        };
        let Some(Value::String(field)) = map.get("field") else {
            return Err(bad(format!("correction {n}: `field` must be a string")));
        };
        let (Some(from), Some(to)) = (map.get("from"), map.get("to")) else {
            return Err(bad(format!(
                "correction {n}: `from` and `to` are required (`from` null for an absent truth)"
            )));
        };
        let (mut from, mut to) = (from.clone(), to.clone());
        nfc_value(&mut from);
        nfc_value(&mut to);
        out.push(Correction {
            id,
            field: crate::eval::nfc::nfc_str(field.trim()),
            from,
            to,
        });
    }
    Ok(out)
}

/// A per-field-table path with 0-based item indices (`items[1].qty`,
/// `vendor.name`, `total`) as steps; `None` when it is not one (an empty
/// segment, `[]` without an index, text after `]`).
pub fn parse_field(field: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    for segment in field.split('.') {
        let (key, rest) = match segment.find('[') {
            Some(at) => segment.split_at(at),
            None => (segment, ""),
        };
        if key.is_empty() {
            return None;
        }
        steps.push(Step::Key(key.to_string()));
        let mut rest = rest;
        while let Some(inner) = rest.strip_prefix('[') {
            let close = inner.find(']')?;
            let digits = &inner[..close];
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            steps.push(Step::Index(digits.parse().ok()?));
            rest = &inner[close + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(steps)
}

/// Whether two JSON values are equal as JSON with numbers by value (`1` =
/// `1.0`) and object keys in any order.
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// A value for a message: its JSON text, cut at 80 characters.
fn shown(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(80).collect::<String>())
    } else {
        text
    }
}

/// Applies one correction to a record's `fields`; `id_field` is the
/// truth's id field (never corrected). `Err` is why it is refused.
pub fn apply_to_record(
    fields: &mut Map<String, Value>,
    c: &Correction,
    absent: &AbsentValues,
    id_field: Option<&str>,
) -> Result<(), String> {
    let steps = if fields.contains_key(&c.field) {
        vec![Step::Key(c.field.clone())]
    } else {
        parse_field(&c.field).ok_or_else(|| {
            "not a field path (keys joined by `.`, items as `items[0]`, 0-based)".to_string()
        })?
    };
    if let (Some(Step::Key(first)), Some(id)) = (steps.first(), id_field) {
        if first == id && steps.len() == 1 {
            return Err(format!("`{id}` is the id field; it cannot be corrected"));
        }
    }
    let target = slot(fields, &steps, c.from.is_null())?;
    if absent.is_absent(Some(target)) {
        if !c.from.is_null() {
            return Err(format!(
                "the truth is absent there ({}); `from` must be null",
                shown(target)
            ));
        }
    } else if !json_equal(target, &c.from) {
        return Err(format!(
            "the truth there is {}, not {}",
            shown(target),
            shown(&c.from)
        ));
    }
    *target = c.to.clone();
    Ok(())
}

/// The value `steps` name in `fields`; a missing key is added (as `null`)
/// when `creating`, else refused.
fn slot<'a>(
    fields: &'a mut Map<String, Value>,
    steps: &[Step],
    creating: bool,
) -> Result<&'a mut Value, String> {
    let Some((Step::Key(key), rest)) = steps.split_first() else {
        return Err("a field path starts with a key".to_string());
    };
    if !fields.contains_key(key) {
        if !creating {
            return Err(format!("the record has no `{key}`"));
        }
        fields.insert(key.clone(), Value::Null);
    }
    match fields.get_mut(key) {
        Some(v) => descend(v, key, rest, creating),
        None => Err(format!("the record has no `{key}`")),
    }
}

/// The value `rest` names below `v` (reached by `key`).
fn descend<'a>(
    v: &'a mut Value,
    key: &str,
    rest: &[Step],
    creating: bool,
) -> Result<&'a mut Value, String> {
    match rest.split_first() {
        None => Ok(v),
        Some((Step::Key(_), _)) => {
            if v.is_null() && creating {
                *v = Value::Object(Map::new());
            }
            match v {
                Value::Object(m) => slot(m, rest, creating),
                _ => Err(format!("`{key}` is not an object")),
            }
        }
        Some((Step::Index(i), more)) => match v {
            Value::Array(items) => {
                let len = items.len();
                match items.get_mut(*i) {
                    Some(item) => descend(item, key, more, creating),
                    None => Err(format!(
                        "`{key}` has no item {i} (it has {len}; indices count from 0)"
                    )),
                }
            }
            _ => Err(format!("`{key}` is not a list of items")),
        },
    }
}

/// Applies `corrections` (read from `file_name`) in order to the truth's
/// records, given as (id, fields) in the truth's order (the first record
/// with an id wins, SPEC §1.1). Returns which records were touched (by
/// position in `records`) and one warning per applied correction; the
/// first correction refused is an error naming it and the file.
pub fn apply_corrections(
    records: &mut [(String, &mut Map<String, Value>)],
    corrections: &[Correction],
    file_name: &str,
    absent: &AbsentValues,
    id_field: Option<&str>,
) -> Result<(Vec<usize>, Vec<String>), Error> {
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    for (i, (id, _)) in records.iter().enumerate() {
        by_id.entry(id.as_str()).or_insert(i);
    }
    let by_id: HashMap<String, usize> =
        by_id.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let mut touched = Vec::new();
    let mut warnings = Vec::new();
    for (n, c) in corrections.iter().enumerate() {
        let name = format!("correction {} (id {:?}, field `{}`)", n + 1, c.id, c.field);
        let refuse = |why: String| {
            Error::new(ErrorKind::Input, format!("{name} refused: {why}")).in_file(file_name)
        };
        let Some(&i) = by_id.get(&c.id) else {
            return Err(refuse("no truth document has this id".to_string()));
        };
        apply_to_record(records[i].1, c, absent, id_field).map_err(refuse)?;
        if !touched.contains(&i) {
            touched.push(i);
        }
        warnings.push(format!(
            "{file_name}: {name} applied: {} → {}",
            shown(&c.from),
            shown(&c.to)
        ));
    }
    touched.sort_unstable();
    Ok((touched, warnings))
}

/// Applies `corrections` (read from `corrections_name`) to a truth file's
/// records in place, the records' ids chosen as the evaluation chooses
/// them (`config.id_field`, else SPEC §1.1's candidates, else positions;
/// the first record of an id wins) and absent values as `config` says.
/// Returns the positions of the records touched and one warning per
/// correction applied.
pub fn correct_records(
    file: &mut RecordFile,
    corrections: &[Correction],
    corrections_name: &str,
    config: &Config,
) -> Result<(Vec<usize>, Vec<String>), Error> {
    let docs = DocFile::from_records(file)
        .map_err(|e| Error::new(ErrorKind::Input, e.to_string()).in_file(file.name.as_str()))?;
    let mut ignored = Vec::new();
    let truth = read_truth(docs, config.id_field.as_deref(), &mut ignored)?;
    let id_field = truth.scheme.field.clone();
    let mut chosen: Vec<Option<String>> = vec![None; file.records.len()];
    for d in &truth.documents {
        if let Some(slot) = chosen.get_mut(d.record) {
            *slot = Some(d.id.clone());
        }
    }
    drop(truth);
    let mut records: Vec<(String, &mut Map<String, Value>)> = Vec::new();
    let mut positions = Vec::new();
    for (i, (record, id)) in file.records.iter_mut().zip(chosen).enumerate() {
        if let Some(id) = id {
            records.push((id, &mut record.fields));
            positions.push(i);
        }
    }
    let absent = AbsentValues::new(&config.absent_values);
    let (touched, warnings) = apply_corrections(
        &mut records,
        corrections,
        corrections_name,
        &absent,
        id_field.as_deref(),
    )?;
    Ok((
        touched.into_iter().map(|k| positions[k]).collect(),
        warnings,
    ))
}
