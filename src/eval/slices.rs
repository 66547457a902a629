//! SPEC §9.2: slices of the documents and weak-slice discovery.
//!
//! Owns: a document's value for each `slice_by` key ([`document_texts`]),
//! cutting the documents into slices ([`cut`]), each model's micro
//! scores per slice and the report's `slices` key ([`slices_report`]);
//! the bootstrap test of each slice lives in [`discovery`]. Pure: it
//! reads each document's [`Counts`] (what the evaluation keeps per
//! document for every model, `ModelRun::doc_counts`) and each document's
//! key values (JSON texts, carried by the comparison pass beside the
//! counts, and by partial results); every ratio is [`strict_scores`]'.
//! Depends on `counts`, `bootstrap` (its type-7 [`quantile`], its Holm
//! correction, its seeded generator), `config`, `report` and `tree`.
//!
//! **Keys.** A `slice_by` key is a top-level truth key, or one of the
//! built-ins: `_items` (the number of truth items, summed over the
//! document's item lists), `_fields` (the number of the document's
//! fields whose truth is present: a scalar field once, a set field once
//! when its truth list is non-empty, an item field once per truth item
//! that has it — the truth-present outcomes of the per-field table) and
//! `_schema` (with several schemas, the stem of the document's own
//! schema). A built-in name wins over a truth key of the same name. A
//! document's value is kept as its JSON text; a missing key and a JSON
//! `null` are both `None`: the slice `null`.
//!
//! **Cutting** ([`cut`]). A key whose non-null values are all numbers
//! with more than [`MAX_CATEGORIES`] distinct values is cut into
//! quartiles: with the documents' values sorted, `x₍₀₎ ≤ … ≤ x₍ₙ₋₁₎`,
//! the edges are `e₀ = x₍₀₎`, `e₁ = Q(0.25)`, `e₂ = Q(0.5)`,
//! `e₃ = Q(0.75)`, `e₄ = x₍ₙ₋₁₎`, where (Hyndman & Fan type 7, numpy's
//! default) `Q(q) = x₍⌊h⌋₎ + (h − ⌊h⌋)(x₍⌊h⌋+1₎ − x₍⌊h⌋₎)`,
//! `h = (n − 1)q`. Bin `k` (1 ≤ k ≤ 4) is `[e₍ₖ₋₁₎, eₖ]`, reported as
//! that pair; a value goes to the **first** bin whose upper edge it does
//! not exceed (`x ≤ eₖ`), so a value on an edge is in the lower bin and
//! bin 1 is closed on both sides, the others `(e₍ₖ₋₁₎, eₖ]`. A bin no
//! document falls in (equal edges) is no slice. Any other key is a slice
//! per distinct JSON text (so `1` and `1.0` differ, as JSON texts do),
//! reported as the JSON value itself.
//!
//! **Order.** The slices of a model are the weak ones first, δ
//! descending, then the others by key (string order of the key's name)
//! and value: `null` first, then numbers by value (bins by their edges),
//! then every other value by its JSON text.

pub mod discovery;
#[cfg(test)]
mod tests;

use crate::eval::bootstrap::quantile;
use crate::eval::config::Config;
use crate::eval::counts::strict_scores;
use crate::eval::report::{Counts, ModelSlices, SliceRow, SlicesReport};
use crate::eval::tree::{Json, JsonType};
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The built-in key: the number of truth items.
pub const ITEMS: &str = "_items";
/// The built-in key: the number of present truth fields.
pub const FIELDS: &str = "_fields";
/// The built-in key: the document's own schema (several schemas).
pub const SCHEMA: &str = "_schema";
/// A numeric key with more distinct values than this is cut into quartiles.
pub const MAX_CATEGORIES: usize = 10;

/// What a document is besides its truth record, for the built-in keys.
#[derive(Debug, Clone, Copy, Default)]
pub struct BuiltIns<'a> {
    /// Truth items over every item list of the document.
    pub items: u64,
    /// Present truth fields (see the module's doc).
    pub fields: u64,
    /// The stem of the document's own schema, if it has one.
    pub schema: Option<&'a str>,
}

/// The document's value of each key of `by` as JSON text (`None`: missing
/// or `null`): a built-in from `builtins`, any other key from the truth
/// record `record` (a top-level key).
pub fn document_texts(
    by: &[String],
    record: Json<'_>,
    builtins: BuiltIns<'_>,
) -> Vec<Option<String>> {
    by.iter()
        .map(|key| match key.as_str() {
            ITEMS => Some(builtins.items.to_string()),
            FIELDS => Some(builtins.fields.to_string()),
            SCHEMA => builtins.schema.map(json_string),
            _ => record
                .get(key)
                .filter(|v| !v.is_null())
                .map(|v| match v.json_type() {
                    JsonType::String => json_string(v.as_str().unwrap_or_default()),
                    JsonType::Array | JsonType::Object => {
                        serde_json::to_string(&v.to_value()).unwrap_or_default()
                    }
                    JsonType::Null | JsonType::Bool | JsonType::Number => v.text().into_owned(),
                }),
        })
        .collect()
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// One slice: its key, its value as reported, and its documents (indices,
/// ascending).
#[derive(Debug, Clone, PartialEq)]
pub struct Slice {
    pub key: String,
    pub value: Value,
    pub documents: Vec<u32>,
    /// Where it sorts among its key's slices (see [`ValueRank`]).
    rank: ValueRank,
}

/// The order of a key's slices: `null`, numbers (bins) by value, then
/// other values by JSON text.
#[derive(Debug, Clone, PartialEq)]
enum ValueRank {
    Null,
    Number(f64, f64),
    Text(String),
}

impl ValueRank {
    fn cmp(&self, other: &ValueRank) -> Ordering {
        use ValueRank::*;
        match (self, other) {
            (Null, Null) => Ordering::Equal,
            (Null, _) => Ordering::Less,
            (_, Null) => Ordering::Greater,
            (Number(a, b), Number(c, d)) => a.total_cmp(c).then(b.total_cmp(d)),
            (Number(..), Text(_)) => Ordering::Less,
            (Text(_), Number(..)) => Ordering::Greater,
            (Text(a), Text(b)) => a.cmp(b),
        }
    }
}

/// A JSON text read as a number, if it is one (JSON numbers start with a
/// digit or `-`; Rust's float syntax accepts every JSON number).
fn number(text: &str) -> Option<f64> {
    let first = *text.as_bytes().first()?;
    if first == b'-' || first.is_ascii_digit() {
        text.parse::<f64>().ok().filter(|x| x.is_finite())
    } else {
        None
    }
}

/// The slices of every key of `by` (duplicates counted once), from each
/// document's texts (`texts[d][k]` the text of key `k`; a short row is
/// `null` for the keys it lacks), in key and value order.
pub fn cut(by: &[String], texts: &[Vec<Option<String>>]) -> Vec<Slice> {
    let mut slices = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (k, key) in by.iter().enumerate() {
        if seen.contains(&key.as_str()) {
            continue;
        }
        seen.push(key);
        let text = |d: usize| texts[d].get(k).and_then(Option::as_deref);
        let mut nulls = Vec::new();
        let mut numbers: Vec<(u32, f64)> = Vec::new();
        let mut all_numbers = true;
        for d in 0..texts.len() {
            match text(d) {
                None => nulls.push(d as u32),
                Some(t) => match number(t) {
                    Some(x) if all_numbers => numbers.push((d as u32, x)),
                    _ => all_numbers = false,
                },
            }
        }
        let mut distinct: Vec<f64> = numbers.iter().map(|&(_, x)| x).collect();
        distinct.sort_by(f64::total_cmp);
        let sorted = distinct.clone();
        distinct.dedup_by(|a, b| a == b);
        let mut own: Vec<Slice> = Vec::new();
        if !nulls.is_empty() {
            own.push(Slice {
                key: key.clone(),
                value: Value::Null,
                documents: nulls,
                rank: ValueRank::Null,
            });
        }
        if all_numbers && distinct.len() > MAX_CATEGORIES {
            let edges = quartile_edges(&sorted);
            let mut bins: [Vec<u32>; 4] = Default::default();
            for &(d, x) in &numbers {
                bins[bin_of(&edges, x)].push(d);
            }
            for (b, documents) in bins.into_iter().enumerate() {
                if documents.is_empty() {
                    continue;
                }
                let (low, high) = (edges[b], edges[b + 1]);
                own.push(Slice {
                    key: key.clone(),
                    value: serde_json::json!([low, high]),
                    documents,
                    rank: ValueRank::Number(low, high),
                });
            }
        } else {
            let mut groups: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
            for d in 0..texts.len() {
                if let Some(t) = text(d) {
                    groups.entry(t).or_default().push(d as u32);
                }
            }
            for (t, documents) in groups {
                let rank = match number(t) {
                    Some(x) => ValueRank::Number(x, x),
                    None => ValueRank::Text(t.to_string()),
                };
                own.push(Slice {
                    key: key.clone(),
                    value: serde_json::from_str(t).unwrap_or_else(|_| Value::String(t.into())),
                    documents,
                    rank,
                });
            }
        }
        own.sort_by(|a, b| a.rank.cmp(&b.rank));
        slices.extend(own);
    }
    // Stable: each key's slices keep their value order.
    slices.sort_by(|a, b| a.key.cmp(&b.key));
    slices
}

/// The quartile edges `[min, Q(0.25), Q(0.5), Q(0.75), max]` of sorted
/// values (type 7, [`quantile`]).
pub fn quartile_edges(sorted: &[f64]) -> [f64; 5] {
    [0.0, 0.25, 0.5, 0.75, 1.0].map(|q| quantile(sorted, q))
}

/// The bin (0–3) of `x`: the first whose upper edge `x` does not exceed.
pub fn bin_of(edges: &[f64; 5], x: f64) -> usize {
    (0..3).find(|&b| x <= edges[b + 1]).unwrap_or(3)
}

/// The micro counts of a slice: its documents' counts summed.
pub fn slice_counts(counts: &[Counts], documents: &[u32]) -> Counts {
    documents
        .iter()
        .filter_map(|&d| counts.get(d as usize))
        .copied()
        .sum()
}

/// The report's `slices` key (SPEC §9.2): `texts` each document's key
/// texts (as [`cut`] reads them), `models` each model's name and its
/// documents' counts (in the truth's document order), the settings from
/// `config` (`slice_by`, `slices.*`).
pub fn slices_report(
    texts: &[Vec<Option<String>>],
    models: &[(&str, &[Counts])],
    config: &Config,
) -> SlicesReport {
    let slices = cut(&config.slice_by, texts);
    let settings = discovery::Settings::of(config);
    let counts: Vec<&[Counts]> = models.iter().map(|&(_, c)| c).collect();
    let tests = discovery::test_slices(&slices, &counts, texts.len(), &settings, config);
    let models = models
        .iter()
        .zip(tests)
        .map(|(&(name, counts), tested)| {
            let p: Vec<f64> = tested.iter().flatten().map(|t| t.p_value).collect();
            let holm = crate::eval::bootstrap::holm(&p);
            let mut adjusted = holm.into_iter();
            let mut rows: Vec<SliceRow> = slices
                .iter()
                .zip(&tested)
                .map(|(s, t)| {
                    let p_holm = t.as_ref().and_then(|_| adjusted.next());
                    SliceRow {
                        key: s.key.clone(),
                        value: s.value.clone(),
                        documents: s.documents.len(),
                        micro: strict_scores(&slice_counts(counts, &s.documents), config),
                        delta: t.as_ref().map(|t| t.delta),
                        p_value: t.as_ref().map(|t| t.p_value),
                        p_holm,
                        weak: p_holm.is_some_and(|p| p <= settings.alpha),
                    }
                })
                .collect();
            order_rows(&mut rows);
            ModelSlices {
                name: name.to_string(),
                slices: rows,
            }
        })
        .collect();
    SlicesReport {
        by: config.slice_by.clone(),
        models,
    }
}

/// SPEC §9.2's order: weak slices first by δ descending (ties: key and
/// value order), then the rest in key and value order (the order the rows
/// come in, which is [`cut`]'s: the sort is stable).
pub fn order_rows(rows: &mut [SliceRow]) {
    rows.sort_by(|a, b| match (a.weak, b.weak) {
        (true, true) => {
            let (x, y) = (a.delta.unwrap_or(0.0), b.delta.unwrap_or(0.0));
            y.total_cmp(&x)
        }
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => Ordering::Equal,
    });
}
