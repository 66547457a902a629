//! The "Where it fails" view's pure part (SPEC §9.1–§9.2): the stacked
//! bars' segments ([`segments`]), the one-sentence explanation of a weak
//! slice ([`explain`]), the keys the `slice_by` picker offers
//! ([`slice_keys`]), the note a `swapped` value gets in the document view
//! ([`swapped_note`]), and what a click on a segment or a slice asks of
//! the document browser ([`Browse`]: which model, which field, and the
//! [`Narrowing`] that keeps the documents the segment or the slice counts).
//!
//! Pure and tested natively; `app::where_it_fails` draws it and
//! `app::documents` applies a [`Browse`]. Reads the report only (its
//! `errors` counts, its `slices` rows, its document details and their
//! per-document slice texts, which `crate::eval::slices::cut` turns into
//! each slice's documents exactly as the report's own slices were cut).
//! May depend on `eval` and `export::slices` (how a slice's value reads). Nothing here panics on user data.

use crate::eval::report::{DocumentDetail, ErrorCounts, ErrorType, FieldDetail, Report, SliceRow};
use crate::eval::slices::{cut, FIELDS, ITEMS, SCHEMA};
use crate::export::slices::value_text;

/// One segment of a stacked bar: an error type, its count and its share
/// of the bar's errors (0 when the bar has none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub error: ErrorType,
    pub count: u64,
    pub share: f64,
}

/// The segments of one bar (a model's or a field's `errors`), in the
/// report's order of the types ([`ErrorType::ALL`]), the empty ones left
/// out: share = count / Σ counts.
pub fn segments(errors: &ErrorCounts) -> Vec<Segment> {
    let total = errors.total();
    ErrorType::ALL
        .into_iter()
        .map(|error| (error, errors.get(error)))
        .filter(|&(_, count)| count > 0)
        .map(|(error, count)| Segment {
            error,
            count,
            share: count as f64 / total as f64,
        })
        .collect()
}

/// How an error type reads in the view (`near_miss` as "near miss").
pub fn error_label(error: ErrorType) -> &'static str {
    match error {
        ErrorType::NearMiss => "near miss",
        other => other.name(),
    }
}

/// A slice as a condition: "`key = value`" (a string value bare, a
/// quartile bin `[low, high]`, `null` for the documents without the key:
/// `export::slices::value_text`, the exports' own reading).
pub fn slice_condition(row: &SliceRow) -> String {
    format!("{} = {}", row.key, value_text(&row.value))
}

/// A ratio as the view prints it: two decimals.
fn two(x: f64) -> String {
    format!("{x:.2}")
}

/// A p-value as the view prints it: three decimals, "< 0.001" below that.
pub fn p_text(p: f64) -> String {
    if p < 0.0005 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    }
}

/// The one sentence that explains a tested slice of `model` (SPEC §9.2):
/// "on `vendor_country = DE` (7 documents) good's F1 is 0.62 against
/// 0.91 elsewhere; p = 0.002 after Holm". The F1 elsewhere is the slice's
/// micro F1 + δ (δ = F1 of the rest − F1 of the slice). `None` for an
/// untested slice (no δ, no p).
pub fn explain(model: &str, row: &SliceRow) -> Option<String> {
    let e = explanation(model, row)?;
    Some(format!("on `{}` {}", e.condition, e.rest))
}

/// [`explain`]'s sentence in its two parts, for a page that sets the
/// condition as code: "on `condition` rest".
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    pub condition: String,
    pub rest: String,
}

/// [`explain`] in parts; `None` for an untested slice.
pub fn explanation(model: &str, row: &SliceRow) -> Option<Explanation> {
    let (delta, p_holm) = (row.delta?, row.p_holm?);
    let f1 = row.micro.f1;
    Some(Explanation {
        condition: slice_condition(row),
        rest: format!(
            "({} document{}) {model}'s F1 is {} against {} elsewhere; {} after Holm",
            row.documents,
            if row.documents == 1 { "" } else { "s" },
            two(f1),
            two(f1 + delta),
            p_text(p_holm),
        ),
    })
}

/// At most this many of the report's own top-level keys are offered as
/// boxes in the `slice_by` picker: a wide benchmark has thousands (each
/// document type its own fields), and a box for each made the picker
/// 30,000 elements of the page (issue 34). The others are typed.
pub const MAX_SLICE_KEYS: usize = 50;

/// What the `slice_by` picker offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliceKeys {
    /// The boxes, in this order: the truth's top-level keys as the report
    /// knows them (the first step of every field's path in the per-field
    /// tables) — the [`MAX_SLICE_KEYS`] with the most truth values, the
    /// largest sum over one model's fields under the key, ties by name —
    /// and every `ignored_fields` entry without a path step (where a key
    /// kept only for slicing goes), sorted; then the built-ins `_items`
    /// and `_fields`; `_schema` when the config has several schemas
    /// (`schema_by`); and any key of the report's `slice_by` not among
    /// them (so a key given in the link stays unticked-able).
    pub offered: Vec<String>,
    /// The report's top-level keys left out by the cap.
    pub left_out: usize,
}

/// The keys the `slice_by` picker offers ([`SliceKeys`]).
pub fn slice_keys(report: &Report) -> SliceKeys {
    // Each key's truth values, per model; a key's support is its largest.
    let mut support: rustc_hash::FxHashMap<&str, u64> = Default::default();
    for m in &report.models {
        let mut of_model: rustc_hash::FxHashMap<&str, u64> = Default::default();
        for f in &m.fields {
            *of_model.entry(top_key(&f.field)).or_default() += f.counts.truth_count();
        }
        for (key, n) in of_model {
            let best = support.entry(key).or_default();
            *best = (*best).max(n);
        }
    }
    let mut ranked: Vec<(&str, u64)> = support
        .into_iter()
        .filter(|(k, _)| !k.is_empty() && !k.starts_with('_'))
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let left_out = ranked.len().saturating_sub(MAX_SLICE_KEYS);
    let mut keys: Vec<String> = ranked
        .into_iter()
        .take(MAX_SLICE_KEYS)
        .map(|(k, _)| k.to_string())
        .collect();
    keys.extend(
        report
            .config
            .ignored_fields
            .iter()
            .filter(|k| top_key(k) == k.as_str())
            .cloned(),
    );
    keys.retain(|k| !k.is_empty() && !k.starts_with('_'));
    keys.sort();
    keys.dedup();
    keys.push(ITEMS.to_string());
    keys.push(FIELDS.to_string());
    if report.config.schema_by.is_some() {
        keys.push(SCHEMA.to_string());
    }
    for key in slice_by(report) {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    SliceKeys {
        offered: keys,
        left_out,
    }
}

/// A field path's first step: `vendor` of `vendor.name`, `items` of
/// `items[].qty`.
fn top_key(path: &str) -> &str {
    let end = path.find(['.', '[']).unwrap_or(path.len());
    &path[..end]
}

/// The report's effective `slice_by` (its config's; empty without).
pub fn slice_by(report: &Report) -> Vec<String> {
    report.config.slice_by.clone()
}

/// The picker's new `slice_by` after ticking (`on`) or unticking `key`:
/// the keys in the order they were given, a new one last.
pub fn toggle_key(by: &[String], key: &str, on: bool) -> Vec<String> {
    let mut out: Vec<String> = by.iter().filter(|k| *k != key).cloned().collect();
    if on {
        out.push(key.to_string());
    }
    out
}

/// What the document view says of a `swapped` value (SPEC §9.1): "value
/// of `due_date` put in `invoice_date`"; `None` for any other value.
pub fn swapped_note(f: &FieldDetail) -> Option<String> {
    let (owner, field) = swapped_fields(f)?;
    Some(format!("value of `{owner}` put in `{field}`"))
}

/// A `swapped` value's two fields, (whose value it is, where it was
/// put), for a page that sets them as code; `None` for any other value.
pub fn swapped_fields(f: &FieldDetail) -> Option<(&str, &str)> {
    match (f.error_type, &f.belongs_to) {
        (Some(ErrorType::Swapped), Some(owner)) => Some((owner, &f.field)),
        _ => None,
    }
}

/// Which documents a click keeps, beside the browser's own filters.
#[derive(Debug, Clone, PartialEq)]
pub enum Narrowing {
    /// The documents with at least one value of this error type (in the
    /// [`Browse::field`] when there is one), a set field's missed or
    /// spurious elements included (`FieldDetail::counts_error`).
    Error(ErrorType),
    /// The documents of one slice: `documents` their indices in the
    /// truth's order (ascending).
    Slice {
        condition: String,
        documents: Vec<u32>,
    },
}

impl Narrowing {
    /// Whether the document at `index` (in the truth's order) with
    /// `detail` stays, `field` the browser's field filter ("" for any).
    pub fn keeps(&self, index: usize, detail: &DocumentDetail, field: &str) -> bool {
        match self {
            Narrowing::Error(error) => detail
                .fields
                .iter()
                .any(|f| (field.is_empty() || f.field == field) && f.counts_error(*error)),
            Narrowing::Slice { documents, .. } => {
                u32::try_from(index).is_ok_and(|i| documents.binary_search(&i).is_ok())
            }
        }
    }

    /// What the browser's line says it shows.
    pub fn label(&self) -> String {
        match self {
            Narrowing::Error(error) => format!("{} errors", error_label(*error)),
            Narrowing::Slice { condition, .. } => format!("slice {condition}"),
        }
    }
}

/// What a click in the view asks the document browser to show: the model
/// (its index in the report), the field ("" for any) and the narrowing.
#[derive(Debug, Clone, PartialEq)]
pub struct Browse {
    pub model: usize,
    pub field: String,
    pub narrowing: Narrowing,
}

impl Browse {
    /// A segment of a bar: model `model`'s errors of type `error`, in
    /// `field` (a per-field bar) or in any field (the model's bar).
    pub fn segment(model: usize, field: Option<&str>, error: ErrorType) -> Browse {
        Browse {
            model,
            field: field.unwrap_or_default().to_string(),
            narrowing: Narrowing::Error(error),
        }
    }

    /// A slice row of model `model`: its documents, found by cutting the
    /// documents' slice texts (carried by the first model's document
    /// details) the way the report was cut; `None` without details or
    /// when no slice of the report's cut has the row's key and value.
    pub fn slice(report: &Report, model: usize, row: &SliceRow) -> Option<Browse> {
        let details = report.models.first()?.document_details.as_ref()?;
        let texts: Vec<Vec<Option<String>>> = details.iter().map(|d| d.slice.clone()).collect();
        let by = slice_by(report);
        let slice = cut(&by, &texts)
            .into_iter()
            .find(|s| s.key == row.key && s.value == row.value)?;
        Some(Browse {
            model,
            field: String::new(),
            narrowing: Narrowing::Slice {
                condition: slice_condition(row),
                documents: slice.documents,
            },
        })
    }
}

#[cfg(test)]
mod tests;
