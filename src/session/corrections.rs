//! The session's corrections of the truth (SPEC §9.3): what the app's
//! "Check the truth" panel decided, applied to the truth before every
//! evaluation the worker runs (the report, and the panels' details,
//! bootstrap, sweep and gate), as `fieldscope eval --corrections
//! corrections.json` applies them.
//!
//! Owns: the list as the corrections file's JSON ([`corrections_json`]),
//! the corrected truth kept between evaluations ([`CorrectedCache`], keyed
//! by the truth's bytes and name, the list, the id field and the absent
//! values: [`CorrectedKey`]), the corrected file's bytes ([`correct`]),
//! its records ([`corrected`]) and its download name ([`corrected_name`]).
//! The `Session` methods that hold the list and the cache
//! (`Session::set_corrections`, `apply_corrections`, `corrected_truth_file`)
//! are in `session.rs`. Applying and writing are
//! `io::correct_bytes`'s (pure over bytes), so the worker evaluates
//! exactly the bytes `fieldscope correct` writes; the evaluation's
//! warnings start with one per correction applied, named after the
//! user's corrections file when a bundle or report brought them
//! (`"corrections_file"`), else [`CORRECTIONS_FILE`], as `eval
//! --corrections FILE` names its file.
//!
//! May depend on `eval`, `io` and the sibling `files`; no web types.

use super::files::LoadedFile;
use crate::eval::corrections::Correction;
use crate::eval::{Config, DocFile};
use crate::io::correct_bytes;
use serde_json::Value;
use std::sync::Arc;

/// The corrections file the panel downloads, and the name the warnings
/// give it.
pub const CORRECTIONS_FILE: &str = "corrections.json";

/// The corrections as SPEC §9.3's corrections file: a JSON list of
/// `{"id", "field", "from", "to"}`.
pub fn corrections_json(list: &[Correction]) -> Value {
    Value::Array(
        list.iter()
            .map(|c| serde_json::json!({"id": c.id, "field": c.field, "from": c.from, "to": c.to}))
            .collect(),
    )
}

/// What a corrected truth is of: the truth file's bytes (by identity) and
/// name, the corrections, the id field and the absent values.
#[derive(Debug, Clone)]
pub struct CorrectedKey {
    bytes: Arc<Vec<u8>>,
    name: String,
    corrections: Vec<Correction>,
    corrections_file: String,
    id_field: Option<String>,
    absent_values: Vec<String>,
}

impl CorrectedKey {
    pub fn new(
        truth: &LoadedFile,
        corrections: &[Correction],
        corrections_file: &str,
        config: &Config,
    ) -> CorrectedKey {
        CorrectedKey {
            bytes: Arc::clone(&truth.bytes),
            name: truth.name.clone(),
            corrections: corrections.to_vec(),
            corrections_file: corrections_file.to_string(),
            id_field: config.id_field.clone(),
            absent_values: config.absent_values.clone(),
        }
    }

    pub fn same(&self, other: &CorrectedKey) -> bool {
        Arc::ptr_eq(&self.bytes, &other.bytes)
            && self.name == other.name
            && self.corrections == other.corrections
            && self.corrections_file == other.corrections_file
            && self.id_field == other.id_field
            && self.absent_values == other.absent_values
    }

    /// The truth file's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The corrected truth (its records and the warnings of the corrections
/// applied), or why a correction was refused.
pub type Corrected = Result<(Arc<DocFile>, Vec<String>), String>;

/// [`Corrected`] borrowed: the records and the warnings.
pub type CorrectedRef<'s> = Result<(&'s Arc<DocFile>, &'s [String]), String>;

/// The session's corrected truth and what it is of: a cache, so a clone
/// starts without it.
#[derive(Default)]
pub struct CorrectedCache(pub Option<(CorrectedKey, Corrected)>);

impl Clone for CorrectedCache {
    fn clone(&self) -> Self {
        CorrectedCache(None)
    }
}

impl std::fmt::Debug for CorrectedCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Corrected"
        } else {
            "None"
        })
    }
}

impl CorrectedCache {
    /// What it holds for `key`, if it is of `key`.
    pub fn of(&self, key: &CorrectedKey) -> Option<CorrectedRef<'_>> {
        match &self.0 {
            Some((k, Ok((docs, warnings)))) if k.same(key) => Some(Ok((docs, warnings.as_slice()))),
            Some((k, Err(why))) if k.same(key) => Some(Err(why.clone())),
            _ => None,
        }
    }
}

/// The truth file of `key` with its corrections applied, in the input's
/// shape (the bytes `fieldscope correct` writes), and one warning per
/// correction applied; or why a correction was refused.
pub fn correct(key: &CorrectedKey, config: &Config) -> Result<(Vec<u8>, Vec<String>), String> {
    let done = correct_bytes(
        &key.name,
        &key.bytes,
        &key.corrections,
        &key.corrections_file,
        config,
    )
    .map_err(|e| e.to_string())?;
    Ok((done.bytes, done.warnings))
}

/// The corrected truth's records, as the evaluation reads the file.
pub fn corrected(key: &CorrectedKey, config: &Config) -> Corrected {
    let (bytes, warnings) = correct(key, config)?;
    let docs = crate::io::parse_docs(&key.name, &bytes).map_err(|e| e.to_string())?;
    Ok((Arc::new(docs), warnings))
}

/// The download's name: the truth's, `.corrected` before its extension.
pub fn corrected_name(name: &str) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}.corrected.{ext}"),
        None => format!("{name}.corrected"),
    }
}

#[cfg(test)]
mod tests {
    use crate::session::Session;
    use serde_json::{json, Value};

    fn planted() -> Session {
        crate::report_state::truth::tests::planted()
    }

    fn corrections() -> Value {
        json!([{"id": "b", "field": "name", "from": null, "to": "Zed"},
               {"id": "a", "field": "items[1].qty", "from": 2, "to": 3},
               {"id": "a", "field": "total", "from": 100, "to": 200}])
    }

    #[test]
    fn the_evaluation_reads_the_corrected_truth_its_warnings_first() {
        let mut s = planted();
        let before = s.evaluate().unwrap();
        s.set_corrections(&corrections()).unwrap();
        let after = s.evaluate().unwrap();
        // m0: 7 of 7 values exact (a: total, 2 × qty, 2 × sku; b: total,
        // name), F1 = 1; m2: 5 of 7 (total 300 and qty 4 wrong), 5/7.
        assert!((before.models[0].micro.f1 - 8.0 / 13.0).abs() < 1e-12);
        assert_eq!(after.models[0].micro.f1, 1.0);
        assert!((after.models[2].micro.f1 - 5.0 / 7.0).abs() < 1e-12);
        assert_eq!(
            after.warnings[0],
            "corrections.json: correction 1 (id \"b\", field `name`) applied: null → \"Zed\""
        );
        assert!(after.warnings[2].starts_with("corrections.json: correction 3 (id \"a\""));
        assert!(after.suspected_truth_errors.is_empty());
        // The corrected file the truth file was, as `correct` writes it.
        s.set_corrections(&corrections()).unwrap();
        let (name, text) = s.corrected_truth_file().unwrap();
        assert_eq!(name, "truth.corrected.jsonl");
        assert_eq!(
            text,
            "{\"id\":\"a\",\"total\":200,\"items\":[{\"qty\":1,\"sku\":\"X\"},{\"qty\":3,\"sku\":\"Y\"}]}\n{\"id\":\"b\",\"total\":5,\"name\":\"Zed\"}\n"
        );
        // None: back to the report before, and no corrected file.
        s.set_corrections(&json!([])).unwrap();
        assert_eq!(s.evaluate().unwrap(), before);
        assert!(s.corrected_truth_file().is_err());
    }

    #[test]
    fn a_correction_that_does_not_fit_is_the_reports_error() {
        let mut s = planted();
        s.set_corrections(&json!([{"id": "a", "field": "total", "from": 1, "to": 2}]))
            .unwrap();
        assert_eq!(
            s.evaluate().unwrap_err(),
            "corrections.json: correction 1 (id \"a\", field `total`) refused: the truth there is 100, not 1"
        );
        // A list that does not read keeps the one before.
        assert!(s.set_corrections(&json!({"id": "a"})).is_err());
        assert_eq!(s.corrections().len(), 1);
    }

    #[test]
    fn a_bundle_keeps_the_corrections_and_one_without_stays_as_it_was() {
        let mut s = planted();
        let plain = s.to_bundle();
        assert!(!plain.contains("\"corrections\""));
        s.set_corrections(&corrections()).unwrap();
        let bundle = s.to_bundle();
        let v: Value = serde_json::from_str(&bundle).unwrap();
        assert_eq!(v["corrections"], corrections());
        let mut back = Session::from_bundle(&v).unwrap();
        assert_eq!(back.corrections(), s.corrections());
        assert_eq!(back.evaluate().unwrap(), s.evaluate().unwrap());
        // Without corrections the bundle is the one before.
        s.set_corrections(&json!([])).unwrap();
        assert_eq!(s.to_bundle(), plain);
        // Cleared files take their corrections with them.
        back.clear();
        assert!(back.corrections().is_empty());
    }

    #[test]
    fn corrections_from_the_users_file_keep_its_name_in_the_warnings_and_the_bundle() {
        let mut s = planted();
        s.set_corrections_from(Some("fixes (v2).json"), &corrections())
            .unwrap();
        let report = s.evaluate().unwrap();
        assert_eq!(
            report.warnings[0],
            "fixes (v2).json: correction 1 (id \"b\", field `name`) applied: null → \"Zed\""
        );
        let v: Value = serde_json::from_str(&s.to_bundle()).unwrap();
        assert_eq!(v["corrections_file"], "fixes (v2).json");
        let mut back = Session::from_bundle(&v).unwrap();
        assert_eq!(back.corrections_file(), "fixes (v2).json");
        assert_eq!(back.evaluate().unwrap().warnings, report.warnings);
        // A bad list names the user's file too.
        let bad = back.set_corrections_from(Some("fixes (v2).json"), &json!({}));
        assert!(bad.unwrap_err().starts_with("fixes (v2).json: "));
        // The panel's own list is the file it downloads.
        back.set_corrections(&corrections()).unwrap();
        assert_eq!(back.corrections_file(), "corrections.json");
        assert!(back.evaluate().unwrap().warnings[0].starts_with("corrections.json: "));
        let v: Value = serde_json::from_str(&back.to_bundle()).unwrap();
        assert!(v.get("corrections_file").is_none());
    }
}
