//! Reports at benchmark scale (issue 34): the field matrix, the groups of
//! fields and the "By document type" table. Presentation only: everything
//! here is computed from a [`Report`] (and, with several schemas, from
//! [`DocTypes`], what the caller read from the schemas it was given); no
//! key of the JSON report comes from here.
//!
//! Owns:
//! * [`FieldMatrix`] — one row per field path over every model (the union
//!   of the models' per-field rows, SPEC §5's `fields`), each model's F1,
//!   support and counts in its column; the rows **exact for every model**
//!   folded away; the others in the *what matters* order below.
//! * [`groups`] — the matrix's rows grouped by the document's type (with
//!   [`DocTypes`]: a schema's group holds the fields its schema names) or,
//!   without types, by the path's first segment (`vendor.*`, `items[].*`).
//! * [`type_table`] — one row per document type: its documents and each
//!   model's micro scores, the best model marked.
//!
//! Depends on `report`, `counts` (every ratio), `config` (the report's
//! effective configuration read back), `paths` (what a schema names). No
//! I/O, no formatting.
//!
//! **Folding.** A row is *exact for every model* when every model has the
//! row and none of its outcomes is partial, incorrect, missed or spurious
//! (counts: `partial + incorrect + missed + spurious = 0`). Those rows are
//! folded away ("N fields are exact for every model") and kept, by path,
//! in [`FieldMatrix::exact`].
//!
//! **What matters first.** For a row with F1 values `f_m` of the models
//! that have it (a model without the row has no value): spread
//! `s = max f − min f` (how much the models disagree), shortfall
//! `u = 1 − max f` (how far even the best model is from perfect; 1 when
//! every model fails), and **importance `i = max(s, u)`**. Rows are sorted
//! by `i` descending, then by the mean of the `f_m` ascending (of two rows
//! one model gets wrong and the others right, the one more models get
//! wrong first; a row every model fails before both), then
//! by support (truth values present, pooled over models: `Σ_m (COR + PAR +
//! INC + MIS)`) descending, then by path. Importance and mean are
//! compared at nine decimals, so rounding noise never decides. So a field every model fails
//! (`u = 1`) and a field where one model is perfect and another scores 0
//! (`s = 1`) both come first; a field all models get nearly right comes
//! last.

use crate::eval::counts::strict_scores;
use crate::eval::evaluate::NamedSchema;
use crate::eval::paths::{read_schema, Ignored};
use crate::eval::report::{Counts, Report, Scores};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The document types of an evaluation with several schemas (SPEC §7.2):
/// what the caller read from its schemas and the truth's choices.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocTypes {
    /// In the order of the schemas as given.
    pub types: Vec<DocType>,
}

/// One document type: one schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocType {
    /// The schema's file stem (what `schema_by` names).
    pub name: String,
    /// Truth documents that picked this schema.
    pub documents: usize,
    /// The per-field table's paths the schema names (scalars, sets, item
    /// fields as `items[].price`).
    pub fields: Vec<String>,
}

impl DocTypes {
    /// The types of `schemas`, `choices` being each truth document's
    /// schema index (`None`: no schema), as `eval::documents_by_schema`
    /// gives them.
    pub fn of(schemas: &[NamedSchema], choices: &[Option<usize>]) -> DocTypes {
        let ignored = Ignored::new(&[]);
        let types = schemas
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let info = read_schema(&s.schema, &|_| false, &ignored);
                let mut fields: Vec<String> = Vec::new();
                for (path, _) in &info.paths {
                    match info.item_fields.get(path) {
                        Some(items) => fields.extend(items.iter().cloned()),
                        None => fields.push(path.clone()),
                    }
                }
                DocType {
                    name: s.name.clone(),
                    documents: choices.iter().filter(|c| **c == Some(i)).count(),
                    fields,
                }
            })
            .collect();
        DocTypes { types }
    }
}

/// One model's cell of a matrix row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub f1: f64,
    /// Truth values present: COR + PAR + INC + MIS.
    pub support: u64,
    pub counts: Counts,
    pub cer: Option<f64>,
}

/// One field over every model.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixRow {
    pub field: String,
    /// One per model, in the report's model order; `None` when the model
    /// has no row for the field.
    pub cells: Vec<Option<Cell>>,
    /// `max f − min f` (module doc).
    pub spread: f64,
    /// `max(spread, 1 − max f)` (module doc).
    pub importance: f64,
}

impl MatrixRow {
    /// Σ support over the models.
    pub fn support(&self) -> u64 {
        self.cells.iter().flatten().map(|c| c.support).sum()
    }

    fn min_f1(&self) -> f64 {
        self.cells
            .iter()
            .flatten()
            .map(|c| c.f1)
            .fold(f64::INFINITY, f64::min)
    }

    /// The best F1 of the models that have the row (−∞ without cells).
    fn max_f1(&self) -> f64 {
        self.cells
            .iter()
            .flatten()
            .map(|c| c.f1)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The mean F1 over the models that have the row (0 without cells).
    pub fn mean_f1(&self) -> f64 {
        let (sum, n) = self
            .cells
            .iter()
            .flatten()
            .fold((0.0, 0usize), |(s, n), c| (s + c.f1, n + 1));
        if n == 0 {
            0.0
        } else {
            sum / n as f64
        }
    }

    /// The models whose F1 is the row's highest (indices), none for a row
    /// without cells.
    pub fn best(&self) -> Vec<usize> {
        best_of(self.cells.iter().map(|c| c.map(|c| c.f1)))
    }
}

/// The field matrix (module doc).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FieldMatrix {
    /// The model names, in the report's order.
    pub models: Vec<String>,
    /// The rows not exact for every model, what matters first.
    pub rows: Vec<MatrixRow>,
    /// The rows exact for every model, by path.
    pub exact: Vec<MatrixRow>,
}

impl FieldMatrix {
    /// How many fields (rows) the matrix has, folded ones included.
    pub fn len(&self) -> usize {
        self.rows.len() + self.exact.len()
    }

    /// Whether the matrix has no row.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The paths of the first `n` rows not exact for every model: the
    /// fields that matter most, in the matrix's order.
    pub fn first_fields(&self, n: usize) -> Vec<&str> {
        self.rows.iter().take(n).map(|r| r.field.as_str()).collect()
    }

    /// Every row, the shown ones first then the folded ones.
    pub fn all_rows(&self) -> impl Iterator<Item = &MatrixRow> {
        self.rows.iter().chain(&self.exact)
    }
}

/// The indices of the highest values (ties: all of them); none when every
/// value is `None` or NaN.
pub fn best_of(values: impl Iterator<Item = Option<f64>>) -> Vec<usize> {
    let values: Vec<Option<f64>> = values.collect();
    let max = values
        .iter()
        .flatten()
        .copied()
        .filter(|v| !v.is_nan())
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
    match max {
        None => Vec::new(),
        Some(max) => values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v == Some(max))
            .map(|(i, _)| i)
            .collect(),
    }
}

/// `x` at nine decimals, so that rounding noise (1 − 1/3 against 2/3)
/// never decides the order.
fn nine(x: f64) -> i64 {
    (x * 1e9).round() as i64
}

fn is_exact(c: &Counts) -> bool {
    c.partial + c.incorrect + c.missed + c.spurious == 0
}

/// The field matrix of `report` (module doc).
pub fn field_matrix(report: &Report) -> FieldMatrix {
    let n = report.models.len();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut rows: Vec<MatrixRow> = Vec::new();
    for (m, model) in report.models.iter().enumerate() {
        for f in &model.fields {
            let r = *index.entry(f.field.as_str()).or_insert_with(|| {
                rows.push(MatrixRow {
                    field: f.field.clone(),
                    cells: vec![None; n],
                    spread: 0.0,
                    importance: 0.0,
                });
                rows.len() - 1
            });
            rows[r].cells[m] = Some(Cell {
                f1: f.f1,
                support: f.counts.truth_count(),
                counts: f.counts,
                cer: f.cer,
            });
        }
    }
    let (mut exact, mut shown): (Vec<MatrixRow>, Vec<MatrixRow>) =
        rows.into_iter().partition(|r| {
            r.cells
                .iter()
                .all(|c| c.as_ref().is_some_and(|c| is_exact(&c.counts)))
        });
    for r in &mut shown {
        let max = r.max_f1();
        let min = r.min_f1();
        r.spread = if max.is_finite() { max - min } else { 0.0 };
        r.importance = if max.is_finite() {
            r.spread.max(1.0 - max)
        } else {
            0.0
        };
    }
    shown.sort_by(|a, b| {
        nine(b.importance)
            .cmp(&nine(a.importance))
            .then_with(|| nine(a.mean_f1()).cmp(&nine(b.mean_f1())))
            .then_with(|| b.support().cmp(&a.support()))
            .then_with(|| a.field.cmp(&b.field))
    });
    for r in &mut exact {
        let max = r.max_f1();
        r.spread = max - r.min_f1();
    }
    exact.sort_by(|a, b| a.field.cmp(&b.field));
    FieldMatrix {
        models: report.models.iter().map(|m| m.name.clone()).collect(),
        rows: shown,
        exact,
    }
}

/// A group of the matrix's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The document type's name, or the first segment followed by `.*`
    /// (`vendor.*`, `items[].*`), or the path itself for a top-level
    /// scalar (such fields share the group [`TOP_LEVEL`]).
    pub name: String,
    /// Indices into [`FieldMatrix::rows`] (in its order).
    pub rows: Vec<usize>,
    /// Indices into [`FieldMatrix::exact`] (by path).
    pub exact: Vec<usize>,
    /// With types: its documents; `None` for path groups.
    pub documents: Option<usize>,
}

/// The name of the group of top-level scalar fields (no `.` or `[]`).
pub const TOP_LEVEL: &str = "Top-level fields";
/// The name of the group of fields no type's schema names.
pub const OTHER: &str = "Other fields";

/// The first segment of a path as a group name: `vendor.name` →
/// `vendor.*`, `items[].price` → `items[].*`; a top-level path →
/// [`TOP_LEVEL`].
pub fn first_segment(path: &str) -> String {
    match path.find(['.', '[']) {
        Some(i) if path[i..].starts_with("[]") => format!("{}[].*", &path[..i]),
        Some(i) => format!("{}.*", &path[..i]),
        None => TOP_LEVEL.to_string(),
    }
}

/// The matrix's rows in groups: with `types`, one group per type in the
/// types' order (a field several schemas name is in each of their groups),
/// then [`OTHER`] for the fields none names (when there are some); without
/// types, one group per first segment ([`first_segment`]), [`TOP_LEVEL`]
/// first, then by name. Groups without rows are left out, except a type's
/// (so every type is named).
pub fn groups(matrix: &FieldMatrix, types: Option<&DocTypes>) -> Vec<Group> {
    let named = |f: &dyn Fn(&str) -> Vec<String>| {
        let mut map: BTreeMap<String, (Vec<usize>, Vec<usize>)> = BTreeMap::new();
        for (i, r) in matrix.rows.iter().enumerate() {
            for g in f(&r.field) {
                map.entry(g).or_default().0.push(i);
            }
        }
        for (i, r) in matrix.exact.iter().enumerate() {
            for g in f(&r.field) {
                map.entry(g).or_default().1.push(i);
            }
        }
        map
    };
    match types {
        Some(types) => {
            let mut of_field: HashMap<&str, Vec<String>> = HashMap::new();
            for t in &types.types {
                for f in &t.fields {
                    let v = of_field.entry(f.as_str()).or_default();
                    if !v.contains(&t.name) {
                        v.push(t.name.clone());
                    }
                }
            }
            let mut map = named(&|field| {
                of_field
                    .get(field)
                    .cloned()
                    .unwrap_or_else(|| vec![OTHER.to_string()])
            });
            let mut out: Vec<Group> = types
                .types
                .iter()
                .map(|t| {
                    let (rows, exact) = map.remove(&t.name).unwrap_or_default();
                    Group {
                        name: t.name.clone(),
                        rows,
                        exact,
                        documents: Some(t.documents),
                    }
                })
                .collect();
            if let Some((rows, exact)) = map.remove(OTHER) {
                out.push(Group {
                    name: OTHER.to_string(),
                    rows,
                    exact,
                    documents: None,
                });
            }
            out
        }
        None => {
            let mut map = named(&|field| vec![first_segment(field)]);
            let top = map.remove(TOP_LEVEL);
            top.map(|t| (TOP_LEVEL.to_string(), t))
                .into_iter()
                .chain(map)
                .map(|(name, (rows, exact))| Group {
                    name,
                    rows,
                    exact,
                    documents: None,
                })
                .collect()
        }
    }
}

/// One row of the "By document type" table.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeRow {
    pub name: String,
    pub documents: usize,
    /// Each model's micro scores over the type (report's model order);
    /// `None` when the model has no outcome in it.
    pub scores: Vec<Option<Scores>>,
    /// The models with the highest micro F1 (ties: all).
    pub best: Vec<usize>,
}

/// The "By document type" table (empty without types).
///
/// A type's scores are the report's own when it has them: the `slices`
/// rows of key `_schema` (SPEC §9.2, micro over the type's documents,
/// with `--slice-by _schema`). Otherwise they are the micro scores (SPEC
/// §3.1–§3.2, `counts::strict_scores` under the report's configuration) of
/// the counts pooled over the per-field rows of the type's **own** fields:
/// those its schema names and no other type's schema does. A path several
/// schemas name (a selector such as `doc_type`, a `date` every type has)
/// has one per-field row pooled over all their documents (SPEC §7.2), so
/// it cannot be split by type and is left out of every type's row
/// (`docs/spec-readings.md`); a type without own fields has no scores.
pub fn type_table(report: &Report, types: Option<&DocTypes>) -> Vec<TypeRow> {
    let Some(types) = types else {
        return Vec::new();
    };
    let config = &report.config;
    let slices = report.slices.as_ref();
    // Each model's counts by path, so that a type sums its own fields
    // (a hundred types × 10,000 fields is one pass, not a scan per type).
    let by_path: Vec<HashMap<&str, &Counts>> = report
        .models
        .iter()
        .map(|m| {
            m.fields
                .iter()
                .map(|f| (f.field.as_str(), &f.counts))
                .collect()
        })
        .collect();
    let mut shared: HashMap<&str, usize> = HashMap::new();
    for t in &types.types {
        let mut fields: Vec<&str> = t.fields.iter().map(String::as_str).collect();
        fields.sort_unstable();
        fields.dedup();
        for f in fields {
            *shared.entry(f).or_default() += 1;
        }
    }
    types
        .types
        .iter()
        .map(|t| {
            // The type's own fields: no other type's schema names them.
            let mut own: Vec<&str> = t
                .fields
                .iter()
                .map(String::as_str)
                .filter(|f| shared.get(f) == Some(&1))
                .collect();
            own.sort_unstable();
            own.dedup();
            let slice_scores = |m: usize| -> Option<Option<Scores>> {
                let model = slices?.models.get(m)?;
                let row = model.slices.iter().find(|s| {
                    s.key == crate::eval::slices::SCHEMA
                        && s.value.as_str() == Some(t.name.as_str())
                });
                Some(row.map(|r| r.micro))
            };
            let scores: Vec<Option<Scores>> = by_path
                .iter()
                .enumerate()
                .map(|(m, fields)| {
                    if let Some(s) = slice_scores(m) {
                        return s;
                    }
                    let counts: Counts =
                        own.iter().filter_map(|f| fields.get(f).map(|c| **c)).sum();
                    (counts.total() > 0).then(|| strict_scores(&counts, config))
                })
                .collect();
            let best = best_of(scores.iter().map(|s| s.map(|s| s.f1)));
            TypeRow {
                name: t.name.clone(),
                documents: t.documents,
                scores,
                best,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
