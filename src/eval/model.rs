//! Input records as the evaluation sees them.
//!
//! Owns: [`Record`] and [`RecordFile`], the hand-off point between the input
//! adapters (`crate::io`) and the evaluation. A record is a JSON object whose
//! text is already NFC-normalised (SPEC §1.1). Depends on: `serde_json`.

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
