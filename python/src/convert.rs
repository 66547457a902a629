//! Python objects → the main crate's records and JSON values.
//!
//! Owns: turning a list of dicts, a dict id → record, or a DataFrame's rows
//! (as `DataFrame.to_dict("records")` gives them) into a
//! [`RecordFile`], and a dict (schema, config) into a JSON value, with the
//! same rules as the files: strings and keys NFC-normalised
//! ([`fieldscope::io::nfc_value`]), the id of an id → record dict trimmed,
//! at most 127 levels of nesting, no NaN or infinity. Errors are the main
//! crate's [`Error`]s, naming the input, the record and the key.
//!
//! What becomes what: `None` → null; `bool` → boolean; `int` → an integer
//! (beyond 64 bits: the nearest float, as a JSON file's digits are read);
//! `float` → a number (NaN and ±infinity are errors, except that a
//! DataFrame's missing values — NaN, `pd.NA`, `pd.NaT` — are null); `str`
//! → string; `dict` with `str` keys → object; `list` / `tuple` → array;
//! dates, times and timestamps (anything with `isoformat()`) → their ISO
//! 8601 string; numpy scalars and arrays → their Python values
//! (`item()`, `tolist()`); `Decimal` and other numbers with `__float__` →
//! a float. Anything else is an error naming its type.

use fieldscope::eval::{Record, RecordFile};
use fieldscope::{Error, ErrorKind};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Arrays and objects nest at most this deep (the JSON reader's limit).
const MAX_DEPTH: usize = 127;

/// How one Python value is read.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// NaN, `pd.NA` and `pd.NaT` are null (a DataFrame's missing values).
    pub missing_is_null: bool,
}

/// A conversion error on its way up: the message and the keys and
/// indices from the value that failed up to the record (innermost first).
struct Failure {
    message: String,
    path: Vec<String>,
}

impl Failure {
    fn new(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            path: Vec::new(),
        }
    }

    fn at(mut self, step: String) -> Self {
        self.path.push(step);
        self
    }

    /// `key `a.b[2]`: message`, or the message alone.
    fn describe(self) -> String {
        if self.path.is_empty() {
            return self.message;
        }
        let mut path = String::new();
        for step in self.path.iter().rev() {
            if step.starts_with('[') || path.is_empty() {
                path.push_str(step);
            } else {
                path.push('.');
                path.push_str(step);
            }
        }
        format!("key `{path}`: {}", self.message)
    }
}

/// The Python type's name, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string())
}

/// The type's name with its article: `an int`, `a list`.
fn a_type(obj: &Bound<'_, PyAny>) -> String {
    let name = type_name(obj);
    let article = match name.chars().next() {
        Some(c) if "aeiouAEIOU".contains(c) => "an",
        _ => "a",
    };
    format!("{article} {name}")
}

/// The module the type comes from (`numpy`, `pandas._libs…`).
fn type_module(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .module()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

fn float(x: f64, rules: Rules) -> Result<Value, Failure> {
    match Number::from_f64(x) {
        Some(n) => Ok(Value::Number(n)),
        None if rules.missing_is_null && x.is_nan() => Ok(Value::Null),
        None => Err(Failure::new(
            "NaN and infinity are not JSON numbers; use None or a string",
        )),
    }
}

/// One Python value as JSON (not yet NFC-normalised).
fn value(obj: &Bound<'_, PyAny>, rules: Rules, depth: usize) -> Result<Value, Failure> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_cow()
            .map(|s| Value::String(s.into_owned()))
            .map_err(|e| Failure::new(format!("the string is not valid Unicode text: {e}")));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        if let Ok(v) = i.extract::<i64>() {
            return Ok(Value::from(v));
        }
        if let Ok(v) = i.extract::<u64>() {
            return Ok(Value::from(v));
        }
        return match i.extract::<f64>() {
            Ok(x) if x.is_finite() => float(x, rules),
            _ => Err(Failure::new(
                "number out of range: JSON numbers must lie within ±1.8e308 (give larger numbers as strings)",
            )),
        };
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return float(f.value(), rules);
    }
    if depth >= MAX_DEPTH {
        return Err(Failure::new(
            "nesting too deep: lists and dicts may be nested at most 127 levels deep",
        ));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        return object(d, rules, depth + 1).map(Value::Object);
    }
    if let Ok(l) = obj.cast::<PyList>() {
        let mut items = Vec::with_capacity(l.len());
        for (i, item) in l.iter().enumerate() {
            items.push(value(&item, rules, depth + 1).map_err(|f| f.at(format!("[{i}]")))?);
        }
        return Ok(Value::Array(items));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let mut items = Vec::with_capacity(t.len());
        for (i, item) in t.iter().enumerate() {
            items.push(value(&item, rules, depth + 1).map_err(|f| f.at(format!("[{i}]")))?);
        }
        return Ok(Value::Array(items));
    }
    other(obj, rules, depth)
}

/// Values of other types: pandas' missing values, numpy's scalars and
/// arrays, dates, `Decimal`.
fn other(obj: &Bound<'_, PyAny>, rules: Rules, depth: usize) -> Result<Value, Failure> {
    let name = type_name(obj);
    let module = type_module(obj);
    if module.starts_with("pandas") && (name == "NAType" || name == "NaTType") {
        return if rules.missing_is_null {
            Ok(Value::Null)
        } else {
            Err(Failure::new(format!(
                "found pandas' {name} (a missing value); use None"
            )))
        };
    }
    let call = |method: &str| {
        obj.call_method0(method)
            .map_err(|e| Failure::new(format!("{name}.{method}() failed: {e}")))
    };
    if module.starts_with("numpy") {
        if obj.hasattr("tolist").unwrap_or(false) && name == "ndarray" {
            return value(&call("tolist")?, rules, depth);
        }
        if obj.hasattr("item").unwrap_or(false) {
            return value(&call("item")?, rules, depth);
        }
    }
    if obj.hasattr("isoformat").unwrap_or(false) {
        return value(&call("isoformat")?, rules, depth);
    }
    if obj.hasattr("__float__").unwrap_or(false) {
        return match obj.extract::<f64>() {
            Ok(x) => float(x, rules),
            Err(e) => Err(Failure::new(format!("float() of this {name} failed: {e}"))),
        };
    }
    Err(Failure::new(format!(
        "found {}, which is not a JSON value (expected a dict, list, str, int, float, bool or None)",
        a_type(obj)
    )))
}

/// A dict with `str` keys as a JSON object.
fn object(
    d: &Bound<'_, PyDict>,
    rules: Rules,
    depth: usize,
) -> Result<Map<String, Value>, Failure> {
    let mut map = Map::with_capacity(d.len());
    for (k, v) in d.iter() {
        let Ok(key) = k.cast::<PyString>() else {
            return Err(Failure::new(format!(
                "the key {} is {}; every key must be a str",
                k.repr().map(|r| r.to_string()).unwrap_or_default(),
                a_type(&k)
            )));
        };
        let key = key
            .to_cow()
            .map_err(|e| Failure::new(format!("the key is not valid Unicode text: {e}")))?
            .into_owned();
        let v = value(&v, rules, depth).map_err(|f| f.at(key.clone()))?;
        map.insert(key, v);
    }
    Ok(map)
}

/// One record's fields, NFC-normalised.
fn record_fields(
    obj: &Bound<'_, PyAny>,
    rules: Rules,
    name: &str,
    describe: impl Fn() -> String,
    expected: &str,
) -> Result<Map<String, Value>, Error> {
    let shape = |found: String| {
        Error::new(
            ErrorKind::Shape,
            format!("expected a record (a dict){expected}, found {found}"),
        )
        .in_file(name)
        .in_record(describe())
    };
    let Ok(d) = obj.cast::<PyDict>() else {
        return Err(shape(a_type(obj)));
    };
    let map = object(d, rules, 1).map_err(|f| {
        Error::new(ErrorKind::Shape, f.describe())
            .in_file(name)
            .in_record(describe())
    })?;
    let mut value = Value::Object(map);
    fieldscope::io::nfc_value(&mut value);
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(shape("something else".into())),
    }
}

/// A list (or any sequence) of dicts as the records of input `name`:
/// record `i` is the `i`-th dict.
pub fn records_of_list(
    items: &Bound<'_, PyAny>,
    name: &str,
    rules: Rules,
) -> Result<RecordFile, Error> {
    let mut records = Vec::new();
    let iter = items.try_iter().map_err(|_| {
        Error::new(
            ErrorKind::Shape,
            format!(
                "expected a list of records (dicts), found {}",
                a_type(items)
            ),
        )
        .in_file(name)
    })?;
    for (index, item) in iter.enumerate() {
        let item = item.map_err(|e| {
            Error::new(ErrorKind::Input, format!("reading the records failed: {e}")).in_file(name)
        })?;
        let fields = record_fields(&item, rules, name, || format!("record {}", index + 1), "")?;
        records.push(Record::new(index, fields));
    }
    Ok(RecordFile {
        name: name.to_owned(),
        records,
    })
}

/// A dict id → record as the records of input `name`: each key, trimmed,
/// is the record's id (as in a JSON file mapping id → record).
pub fn records_of_id_map(
    map: &Bound<'_, PyDict>,
    name: &str,
    rules: Rules,
) -> Result<RecordFile, Error> {
    let mut records = Vec::with_capacity(map.len());
    for (index, (k, v)) in map.iter().enumerate() {
        let key = match k.cast::<PyString>() {
            Ok(s) => s.to_cow().map(|c| c.into_owned()).ok(),
            Err(_) => None,
        };
        let Some(key) = key else {
            return Err(Error::new(
                ErrorKind::Shape,
                format!(
                    "the id {} is {}; the keys of a dict id → record must be str",
                    k.repr().map(|r| r.to_string()).unwrap_or_default(),
                    a_type(&k)
                ),
            )
            .in_file(name)
            .in_record(format!("record {}", index + 1)));
        };
        let mut id = Value::String(key.trim().to_owned());
        fieldscope::io::nfc_value(&mut id);
        let id = match id {
            Value::String(id) => id,
            _ => key.trim().to_owned(),
        };
        let fields = record_fields(&v, rules, name, || format!("record {id:?}"), " for this id")?;
        records.push(Record {
            index,
            line: None,
            key: Some(id),
            fields,
        });
    }
    Ok(RecordFile {
        name: name.to_owned(),
        records,
    })
}

/// A JSON document given as a Python value (a schema or a metrics
/// config), NFC-normalised as a file's would be; `what` names it in
/// errors.
pub fn document(obj: &Bound<'_, PyAny>, what: &str) -> Result<Value, Error> {
    let mut v = value(
        obj,
        Rules {
            missing_is_null: false,
        },
        0,
    )
    .map_err(|f| Error::new(ErrorKind::Shape, format!("{what}: {}", f.describe())))?;
    fieldscope::io::nfc_value(&mut v);
    Ok(v)
}
