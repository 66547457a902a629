//! Input records as the evaluation sees them.
//!
//! Owns: [`Record`] and [`RecordFile`], the hand-off point between the input
//! adapters (`crate::io`) and the evaluation, in two forms: `serde_json`
//! objects ([`RecordFile`], easy to build and inspect) and one compact
//! [`Forest`] per file ([`DocFile`], what the evaluation reads; about a
//! tenth of the memory). A record is a JSON object whose text is already
//! NFC-normalised (SPEC §1.1). Depends on: `serde_json`, `tree`.

use crate::eval::tree::{Forest, NodeId, TooLarge};
use serde_json::{Map, Value};

/// One record of a ground-truth or prediction file.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// 0-based position of the record in its file (blank JSONL lines and the
    /// CSV header are not records).
    pub index: usize,
    /// 1-based line where the record starts, when the format knows it.
    pub line: Option<usize>,
    /// The id given by the file's shape: the key of a JSON object that maps
    /// id → record. `None` for arrays, JSONL and CSV.
    pub key: Option<String>,
    /// The record's fields.
    pub fields: Map<String, Value>,
}

impl Record {
    /// A record at `index` with `fields`, no line and no key.
    pub fn new(index: usize, fields: Map<String, Value>) -> Self {
        Record {
            index,
            line: None,
            key: None,
            fields,
        }
    }

    /// How an error or warning names this record: `record 3 (line 7)`.
    pub fn describe(&self) -> String {
        match self.line {
            Some(line) => format!("record {} (line {line})", self.index + 1),
            None => format!("record {}", self.index + 1),
        }
    }
}

/// The parsed records of one file.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordFile {
    /// The file name as the user gave it (used in errors and warnings).
    pub name: String,
    pub records: Vec<Record>,
}

/// One record of a [`DocFile`]: where it came from and its root object.
#[derive(Debug, Clone, PartialEq)]
pub struct DocRecord {
    /// 0-based position of the record in its file.
    pub index: usize,
    /// 1-based line where the record starts, when the format knows it.
    pub line: Option<usize>,
    /// The id given by the file's shape (an id → record map), if any.
    pub key: Option<String>,
    /// The record's object in the file's forest.
    pub root: NodeId,
}

impl DocRecord {
    /// How an error or warning names this record: `record 3 (line 7)`.
    pub fn describe(&self) -> String {
        match self.line {
            Some(line) => format!("record {} (line {line})", self.index + 1),
            None => format!("record {}", self.index + 1),
        }
    }
}

/// The records of one file in one [`Forest`].
#[derive(Debug, Clone, Default)]
pub struct DocFile {
    /// The file name as the user gave it (used in errors and warnings).
    pub name: String,
    pub forest: Forest,
    pub records: Vec<DocRecord>,
}

impl DocFile {
    /// A file of the given records (objects; anything else becomes an empty
    /// record), for tests.
    #[cfg(test)]
    pub(crate) fn of_values(name: &str, values: impl IntoIterator<Item = Value>) -> DocFile {
        let records = RecordFile {
            name: name.into(),
            records: values
                .into_iter()
                .enumerate()
                .map(|(i, v)| Record::new(i, v.as_object().cloned().unwrap_or_default()))
                .collect(),
        };
        DocFile::from_records(&records).expect("a small test file fits a forest")
    }

    /// Whether `other` holds exactly the same records (same values, same
    /// order, same keys), e.g. the same file given twice.
    pub fn same_records(&self, other: &DocFile) -> bool {
        !self.records.is_empty()
            && self.records.len() == other.records.len()
            && self
                .records
                .iter()
                .zip(&other.records)
                .all(|(a, b)| a.root == b.root && a.key == b.key)
            && self.forest.same_content(&other.forest)
    }

    /// An empty file named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        DocFile {
            name: name.into(),
            ..DocFile::default()
        }
    }

    /// The records of `file`, copied into a forest.
    pub fn from_records(file: &RecordFile) -> Result<DocFile, TooLarge> {
        let mut doc = DocFile::new(file.name.clone());
        doc.records.reserve(file.records.len());
        for r in &file.records {
            let root = doc.forest.add_map(&r.fields)?;
            doc.records.push(DocRecord {
                index: r.index,
                line: r.line,
                key: r.key.clone(),
                root,
            });
        }
        doc.forest.shrink();
        Ok(doc)
    }

    /// The records as `serde_json` objects.
    pub fn to_records(&self) -> RecordFile {
        RecordFile {
            name: self.name.clone(),
            records: self
                .records
                .iter()
                .map(|r| Record {
                    index: r.index,
                    line: r.line,
                    key: r.key.clone(),
                    fields: match self.forest.get(r.root).to_value() {
                        Value::Object(map) => map,
                        _ => Map::new(),
                    },
                })
                .collect(),
        }
    }
}
