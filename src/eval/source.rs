//! Where the evaluation reads a file's records from: [`RecordSource`].
//!
//! Owns: the trait through which [`crate::eval::dataset`] and
//! [`crate::eval::evaluate`] read records, and its in-memory
//! implementation on [`DocFile`] (every record resident in one forest, as
//! `crate::io::parse_docs` builds it). The command-line tool adds a
//! file-backed implementation (`crate::io::JsonlIndex`: an offset per
//! record, each record read back from the file when asked for and
//! forgotten at the next), so a JSONL file larger than memory can be
//! evaluated. Pure: the trait only hands out forests; whatever I/O an
//! implementation does stays outside `eval`.
//!
//! The contract every implementation keeps (and the evaluation relies on):
//!
//! * [`RecordSource::fetch`] of record `i` gives the same value every time
//!   (the value `parse_docs` would give for that record);
//! * nodes are valid until the next `fetch` — for a resident source, for
//!   ever ([`RecordSource::resident`]);
//! * fetching the same record again and then adding the same nodes (a
//!   model's raw output parsed into [`RecordSource::forest_mut`]) gives the
//!   same node ids, and the forest's key ids never change, so a per-forest
//!   path cache stays valid.
//!
//! The evaluation reads a file in several passes (ids, paths and kinds,
//! item fields, the comparison); a resident source makes each a walk over
//! memory, a file-backed one a read of the file.

use crate::error::Error;
use crate::eval::model::DocFile;
use crate::eval::tree::{Forest, NodeId};
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

/// Where one record came from (the parts of a [`crate::eval::DocRecord`]
/// that are not its value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordInfo<'a> {
    /// 0-based position of the record in its file.
    pub index: usize,
    /// 1-based line where the record starts, when the format knows it.
    pub line: Option<usize>,
    /// The id given by the file's shape (an id → record map), if any.
    pub key: Option<&'a str>,
}

impl RecordInfo<'_> {
    /// How an error or warning names this record: `record 3 (line 7)`.
    pub fn describe(&self) -> String {
        match self.line {
            Some(line) => format!("record {} (line {line})", self.index + 1),
            None => format!("record {}", self.index + 1),
        }
    }
}

/// The records of one file, read by position (see the [module
/// docs](self) for the contract).
/// `Send + Sync`: the passes on several threads (`--jobs`) read
/// different files on different threads and share the truth's.
pub trait RecordSource: Send + Sync {
    /// The file name as the user gave it (used in errors and warnings).
    fn name(&self) -> &str;

    /// The number of records.
    fn len(&self) -> usize;

    /// Whether the file has no records.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where record `i` (`i < len()`) came from.
    fn info(&self, i: usize) -> RecordInfo<'_>;

    /// Makes record `i` readable in [`Self::forest`] and returns its root
    /// (a JSON object). Errors only when the record can no longer be read
    /// (a file-backed source whose file changed or vanished).
    fn fetch(&mut self, i: usize) -> Result<NodeId, Error>;

    /// The forest holding the fetched record(s).
    fn forest(&self) -> &Forest;

    /// The same forest, to parse a model's raw output into (SPEC §1.3);
    /// such nodes live as long as the record's.
    fn forest_mut(&mut self) -> &mut Forest;

    /// Whether every record stays in the forest, so that a node id stays
    /// valid across fetches (the evaluation then keeps parsed raw output
    /// instead of parsing it again).
    fn resident(&self) -> bool;

    /// The in-memory file, when this source is one (for the exact and
    /// cheap same-records check of [`DocFile::same_records`]).
    fn as_doc_file(&self) -> Option<&DocFile> {
        None
    }

    /// A digest of every record's value and key, in order: equal for
    /// files whose records are [`same`](crate::eval::tree::Json::same),
    /// almost surely different otherwise (a prefilter; equality is then
    /// checked record by record). The default fetches every record.
    fn digest(&mut self) -> Result<u64, Error> {
        let mut hasher = rustc_hash::FxBuildHasher.build_hasher();
        for i in 0..self.len() {
            let root = self.fetch(i)?;
            self.forest().get(root).hash_into(&mut hasher);
            hash_key(&mut hasher, self.info(i).key);
        }
        Ok(hasher.finish())
    }

    /// Frees what building needed once the records are read (spare
    /// capacity); nothing by default.
    fn shrink(&mut self) {}
}

/// Adds a record's key to a digest.
pub fn hash_key(hasher: &mut impl Hasher, key: Option<&str>) {
    match key {
        Some(k) => {
            hasher.write_u8(1);
            hasher.write_usize(k.len());
            hasher.write(k.as_bytes());
        }
        None => hasher.write_u8(0),
    }
}

/// Whether two files hold exactly the same records (the same values in
/// the same order, the same keys): e.g. the truth file given again as a
/// prediction file. In-memory files are compared as [`DocFile::same_records`]
/// does; otherwise by digest, then record by record.
pub fn same_records(a: &mut impl RecordSource, b: &mut impl RecordSource) -> Result<bool, Error> {
    if let (Some(x), Some(y)) = (a.as_doc_file(), b.as_doc_file()) {
        return Ok(x.same_records(y));
    }
    let n = a.len();
    if n == 0 || n != b.len() || (0..n).any(|i| a.info(i).key != b.info(i).key) {
        return Ok(false);
    }
    if a.digest()? != b.digest()? {
        return Ok(false);
    }
    for i in 0..n {
        let (ra, rb) = (a.fetch(i)?, b.fetch(i)?);
        if !a.forest().get(ra).same(b.forest().get(rb)) {
            return Ok(false);
        }
    }
    Ok(true)
}

impl RecordSource for DocFile {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> usize {
        self.records.len()
    }

    fn info(&self, i: usize) -> RecordInfo<'_> {
        let r = &self.records[i];
        RecordInfo {
            index: r.index,
            line: r.line,
            key: r.key.as_deref(),
        }
    }

    fn fetch(&mut self, i: usize) -> Result<NodeId, Error> {
        Ok(self.records[i].root)
    }

    fn forest(&self) -> &Forest {
        &self.forest
    }

    fn forest_mut(&mut self) -> &mut Forest {
        &mut self.forest
    }

    fn resident(&self) -> bool {
        true
    }

    fn as_doc_file(&self) -> Option<&DocFile> {
        Some(self)
    }

    fn shrink(&mut self) {
        self.forest.shrink();
    }
}

/// A shared in-memory file (the browser app's session and its prepared
/// evaluation hold the same one): read as the file itself; the first
/// model raw output parsed into it (SPEC §1.3) copies it for this holder
/// alone (copy on write), so the other holders never see those nodes.
impl RecordSource for Arc<DocFile> {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> usize {
        self.records.len()
    }

    fn info(&self, i: usize) -> RecordInfo<'_> {
        DocFile::info(self, i)
    }

    fn fetch(&mut self, i: usize) -> Result<NodeId, Error> {
        Ok(self.records[i].root)
    }

    fn forest(&self) -> &Forest {
        &self.forest
    }

    fn forest_mut(&mut self) -> &mut Forest {
        &mut Arc::make_mut(self).forest
    }

    fn resident(&self) -> bool {
        true
    }

    fn as_doc_file(&self) -> Option<&DocFile> {
        Some(self)
    }

    /// Only a file no one else holds (a shared one was shrunk when read).
    fn shrink(&mut self) {
        if let Some(file) = Arc::get_mut(self) {
            file.shrink();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A [`DocFile`] seen only through the trait's defaults (not resident,
    /// no fast comparison), to test [`same_records`]'s general path.
    struct Opaque(DocFile);

    impl RecordSource for Opaque {
        fn name(&self) -> &str {
            &self.0.name
        }
        fn len(&self) -> usize {
            self.0.len()
        }
        fn info(&self, i: usize) -> RecordInfo<'_> {
            self.0.info(i)
        }
        fn fetch(&mut self, i: usize) -> Result<NodeId, Error> {
            self.0.fetch(i)
        }
        fn forest(&self) -> &Forest {
            &self.0.forest
        }
        fn forest_mut(&mut self) -> &mut Forest {
            &mut self.0.forest
        }
        fn resident(&self) -> bool {
            false
        }
    }

    #[test]
    fn same_records_agrees_with_the_in_memory_check() {
        let files = [
            vec![json!({"id": "a", "x": 1}), json!({"id": "b", "x": [1, 2]})],
            vec![json!({"id": "a", "x": 1}), json!({"id": "b", "x": [1, 2]})],
            vec![json!({"id": "a", "x": 1}), json!({"id": "b", "x": [2, 1]})],
            vec![
                json!({"id": "a", "x": 1.0}),
                json!({"id": "b", "x": [1, 2]}),
            ],
            vec![json!({"x": 1, "id": "a"}), json!({"id": "b", "x": [1, 2]})],
            vec![json!({"id": "a", "x": 1})],
            vec![],
        ];
        for (i, a) in files.iter().enumerate() {
            for (j, b) in files.iter().enumerate() {
                let mut x = DocFile::of_values("a", a.clone());
                let mut y = DocFile::of_values("b", b.clone());
                let fast = same_records(&mut x, &mut y).unwrap();
                assert_eq!(fast, x.same_records(&y), "{i} {j}");
                let (mut x, mut y) = (Opaque(x), Opaque(y));
                assert_eq!(same_records(&mut x, &mut y).unwrap(), fast, "{i} {j}");
                assert_eq!(fast, !a.is_empty() && (i == j || i + j == 1), "{i} {j}");
            }
        }
    }
}
