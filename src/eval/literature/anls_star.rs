//! ANLS\* (Peer, Schöpf, Nebendahl, Rietzler, Stabinger, 2024, "ANLS\* — A
//! Universal Document Processing Metric for Generative Large Language
//! Models", arXiv:2402.03848), exactly as the reference implementation
//! computes it: the PyPI package `anls_star` 1.0.1,
//! `anls_star/anls_star.py` (`anls_score(gt, pred)`), read line by line.
//!
//! # Definition
//!
//! Both documents become trees; comparing a truth node with a prediction
//! node gives a list of per-leaf scores `nls` and a length `ℓ` (the
//! package's `pairwise_len`), and the score is
//!
//! ```text
//! ANLS*(gt, pred) = Σ nls / ℓ      (1.0 when ℓ = 0)
//! ```
//!
//! summed left to right in the package's order. Per truth node:
//!
//! * **string, number, boolean** (a leaf): against a leaf,
//!   `s = 1 − lev(a, b) / max(|a|, |b|)` on the normalised texts, and
//!   `s = 0` when `s < 0.5` (the ANLS threshold τ = 0.5); against anything
//!   else 0. `ℓ = max(1, len(pred))`.
//! * **null**: 1 when the prediction is "None-y" — `null`, `""`, `[]` or
//!   `{}` — else 0; `ℓ = max(1, len(pred))`.
//! * **list**: against a list, every truth item is scored against every
//!   predicted item, the pairs are matched by the Hungarian algorithm on
//!   the pairs' mean scores (an exact match gets a one-ulp bonus,
//!   `math.nextafter(avg, inf)`, to win ties), `nls` is the matched pairs'
//!   lists in matching order and `ℓ` is the matched pairs' lengths plus
//!   `len` of every unmatched item on either side; against anything else
//!   `[0]` with `ℓ = max(len(gt), len(pred))`.
//! * **object**: against an object, each key of the truth (in its order)
//!   then each key only in the prediction, a missing value read as null;
//!   `ℓ` is the sum over the union of keys; against anything else `[0]`
//!   with `ℓ = max(len(gt), len(pred))`.
//!
//! `len` counts leaves: 1 for a leaf or null, the sum over the items of a
//! list or the values of an object (so `[]` and `{}` have length 0).
//!
//! # Quirks of the reference, reproduced
//!
//! * **Text normalisation**: `" ".join(str(x).strip().lower().split())` —
//!   Python's `str()` of the JSON value (booleans `True`/`False`, hence
//!   `true`/`false` after lower-casing; floats in Python's shortest `repr`,
//!   so `1.0` is `"1.0"` and `1e16` is `"1e+16"`; integers in decimal),
//!   Python's full lower-casing, and Python's whitespace (which includes
//!   U+001C–U+001F, unlike Rust's). So a number and a string are compared
//!   as text: `1.0` against `"1"` scores 0 (distance 2 of 3 < 0.5).
//! * **Levenshtein** over Unicode code points (the package's own DP),
//!   normalised by the longer text; two empty texts score 1.
//! * **null against a missing key is 1, `""`/`[]`/`{}` against a missing
//!   key is 0**: a truth leaf `""` or an empty container is not "None-y" on
//!   the truth side, so `{"a": ""}`, `{"a": []}` and `{"a": {}}` against
//!   `{}` all score 0, while `{"a": null}` against `{}` scores 1.
//! * **A predicted key absent from the truth with a None-y value adds 1 to
//!   ℓ and nothing to Σ nls** (`pairwise_len` counts it, `nls_list` skips
//!   it): `{"a": "x"}` against `{"a": "x", "b": null}` scores 0.5.
//! * **An empty list inside an object contributes nothing** (ℓ 0) when
//!   both sides are lists; an empty truth list against a non-empty
//!   predicted one scores 0 with ℓ = len(pred).
//! * **Ties in the list matching** are broken exactly as the `munkres`
//!   package (1.1.4) breaks them — see [`super::munkres`] — because the
//!   chosen pairs change ℓ and hence the score.
//! * **The exact-match bonus** compares the predicted item with the closest
//!   truth object by Python `==`: `1 == 1.0 == True`, objects ignore key
//!   order ([`python_eq`]).
//! * **Tuples** (1-of-n truths) do not exist in JSON; the package's
//!   compatibility mode — a truth that is a list of strings against a
//!   predicted string is read as a tuple of options, the best one wins — is
//!   reproduced at the top level ([`anls_star`]). An empty truth list
//!   against a string makes the package raise; we return `None`.
//!
//! # Cost
//!
//! Every level of lists scores all item pairs and runs the Hungarian
//! algorithm on them, so the work grows with the product of the lists'
//! sizes (and the cube of the longer). [`anls_star_bounded`] counts it —
//! one unit per node pair, per character pair of a Levenshtein distance
//! (over 64, the bit-parallel speed-up), per byte of a kept score or copied
//! value, per matrix cell of each Hungarian scan — and gives up past a
//! budget ([`super::MAX_WORK`] for the report).
//!
//! Owns: the score of one (truth, prediction) pair. Depends on:
//! `eval::distance` (Levenshtein, equal to `strsim`'s), [`super::munkres`],
//! [`super::python`]. Pure.

use super::budget::{Budget, TooLarge};
use super::munkres::{self, Failure};
use super::python::{py_str, python_eq, python_split_join};
use crate::eval::distance::levenshtein;
use serde_json::{Map, Value};

/// The package's threshold τ: similarities below it count as 0.
pub const THRESHOLD: f64 = 0.5;

/// `anls_score(gt, pred)` of the `anls_star` package for two JSON values.
///
/// `None` where the package raises or could not finish (an empty truth
/// list against a predicted string; a Hungarian run that does not finish,
/// never seen). No bound on the work: see [`anls_star_bounded`].
///
/// ```
/// use fieldscope::eval::literature::anls_star::anls_star;
/// use serde_json::json;
/// // The paper's example with a typo: 1 − 2/11 = 0.818…
/// let s = anls_star(&json!("Hello World"), &json!("Hello Wrold")).unwrap();
/// assert!((s - 9.0 / 11.0).abs() < 1e-15);
/// ```
pub fn anls_star(gt: &Value, pred: &Value) -> Option<f64> {
    anls_star_bounded(gt, pred, u64::MAX).ok().flatten()
}

/// [`anls_star`] within `max_work` units of work (see the module
/// documentation); [`TooLarge`] past it.
pub fn anls_star_bounded(gt: &Value, pred: &Value, max_work: u64) -> Result<Option<f64>, TooLarge> {
    let mut budget = Budget::new(max_work);
    if let (Value::Array(options), Value::String(_)) = (gt, pred) {
        if options.iter().all(Value::is_string) {
            // Compatibility mode for ST-VQA-like data: a tuple of options,
            // each a leaf of length 1; the best average wins.
            let mut best: Option<f64> = None;
            for o in options {
                let s = leaf_score(o, pred, &mut budget)?;
                best = Some(best.map_or(s, |b| b.max(s)));
            }
            return Ok(best);
        }
    }
    match score(gt, pred, &mut budget) {
        Ok(scored) => Ok(Some(mean(&scored.nls, scored.len))),
        Err(Stop::Undefined) => Ok(None),
        Err(Stop::TooLarge) => Err(TooLarge),
    }
}

/// Why a score could not be computed.
enum Stop {
    /// The package raises (or its Hungarian run would not finish).
    Undefined,
    /// Over the work budget.
    TooLarge,
}

impl From<TooLarge> for Stop {
    fn from(_: TooLarge) -> Stop {
        Stop::TooLarge
    }
}

/// `sum(nls) / length`, or 1.0 when the length is 0 (the package's
/// `anls()` and every per-pair average).
fn mean(nls: &[f64], len: usize) -> f64 {
    if len == 0 {
        1.0
    } else {
        // Python's `sum` of floats: left to right from 0.
        nls.iter().fold(0.0, |a, b| a + b) / len as f64
    }
}

/// What comparing a truth node with a prediction node gives: the package's
/// `nls_list`, `pairwise_len` and closest truth object.
struct Scored {
    nls: Vec<f64>,
    len: usize,
    chosen: Value,
}

/// `len(tree)`: 1 for a leaf or null, the sum over children otherwise.
fn tree_len(v: &Value) -> usize {
    match v {
        Value::Array(items) => items.iter().map(tree_len).sum(),
        Value::Object(map) => map.values().map(tree_len).sum(),
        _ => 1,
    }
}

/// `ANLSNone.check_if_none`: `value in (None, {}, [], "")`.
pub(crate) fn is_none_y(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

fn is_leaf(v: &Value) -> bool {
    matches!(v, Value::Bool(_) | Value::Number(_) | Value::String(_))
}

/// The thresholded similarity of two leaves (`ANLSLeaf.nls_list`):
/// `1 − lev(a, b) / max(|a|, |b|)` on the normalised texts, 0 below
/// [`THRESHOLD`]. Costs `(shorter / 64 + 1) × longer` units.
fn leaf_score(gt: &Value, pred: &Value, budget: &mut Budget) -> Result<f64, TooLarge> {
    let a = python_split_join(&py_str(gt).to_lowercase());
    let b = python_split_join(&py_str(pred).to_lowercase());
    let (la, lb) = (a.chars().count() as u64, b.chars().count() as u64);
    budget.spend(
        (la.min(lb) / 64 + 1)
            .saturating_mul(la.max(lb))
            .saturating_add(1),
    )?;
    let longest = la.max(lb);
    let value = if longest == 0 {
        0.0
    } else {
        levenshtein(&a, &b) as f64 / longest as f64
    };
    let s = 1.0 - value;
    Ok(if s < THRESHOLD { 0.0 } else { s })
}

/// The size of a value in units, about the bytes a copy of it holds (32
/// per node, plus its text): what cloning or comparing it costs.
fn units(v: &Value) -> u64 {
    match v {
        Value::Array(items) => 32 + items.iter().map(units).sum::<u64>(),
        Value::Object(map) => {
            32 + map
                .iter()
                .map(|(k, v)| k.len() as u64 + units(v))
                .sum::<u64>()
        }
        Value::String(s) => 32 + s.len() as u64,
        _ => 32,
    }
}

fn score(gt: &Value, pred: &Value, budget: &mut Budget) -> Result<Scored, Stop> {
    budget.spend(1)?;
    let mut mismatch = |gt: &Value| -> Result<Scored, Stop> {
        budget.spend(units(gt) + units(pred))?;
        Ok(Scored {
            nls: vec![0.0],
            len: tree_len(gt).max(tree_len(pred)),
            chosen: gt.clone(),
        })
    };
    Ok(match gt {
        Value::Null => {
            let hit = is_none_y(pred);
            budget.spend(units(pred))?;
            Scored {
                nls: vec![if hit { 1.0 } else { 0.0 }],
                len: 1.max(tree_len(pred)),
                chosen: if hit { pred.clone() } else { Value::Null },
            }
        }
        Value::Bool(_) | Value::Number(_) | Value::String(_) => {
            let s = if is_leaf(pred) {
                leaf_score(gt, pred, budget)?
            } else {
                budget.spend(units(pred))?;
                0.0
            };
            budget.spend(units(gt))?;
            Scored {
                nls: vec![s],
                len: 1.max(tree_len(pred)),
                chosen: gt.clone(),
            }
        }
        Value::Array(g) => match pred {
            Value::Array(p) => score_lists(g, p, budget)?,
            _ => mismatch(gt)?,
        },
        Value::Object(g) => match pred {
            Value::Object(p) => score_objects(g, p, budget)?,
            _ => mismatch(gt)?,
        },
    })
}

/// `ANLSList` against a list: Hungarian matching on the pairs' averages.
fn score_lists(g: &[Value], p: &[Value], budget: &mut Budget) -> Result<Scored, Stop> {
    let (n, m) = (g.len(), p.len());
    // The two tables, before they are allocated: a kept score and its
    // average hold about 72 bytes.
    budget.spend((n as u64).saturating_mul(m as u64).saturating_mul(72))?;
    let mut cells = Vec::with_capacity(n * m);
    let mut avg = Vec::with_capacity(n * m);
    for gt in g {
        for pred in p {
            let s = score(gt, pred, budget)?;
            budget.spend(8 * s.nls.len() as u64 + units(pred))?;
            let mut a = mean(&s.nls, s.len);
            if python_eq(pred, &s.chosen) {
                // "Slightly favor exact matches to break ties."
                a = a.next_up();
            }
            avg.push(a);
            cells.push(s);
        }
    }
    let pairs = if n == 0 || m == 0 {
        Vec::new()
    } else {
        let mut left = budget.0;
        let pairs = munkres::compute_bounded(&avg, n, m, &mut left);
        budget.0 = left;
        match pairs {
            Ok(pairs) => pairs,
            Err(Failure::Unsolvable) => return Err(Stop::Undefined),
            Err(Failure::OverBudget) => return Err(Stop::TooLarge),
        }
    };
    let mut row_used = vec![false; n];
    let mut col_used = vec![false; m];
    let mut nls = Vec::new();
    let mut len = 0;
    let mut chosen: Vec<(usize, Value)> = Vec::with_capacity(n);
    for &(r, c) in &pairs {
        row_used[r] = true;
        col_used[c] = true;
        let cell = &mut cells[r * m + c];
        nls.extend_from_slice(&cell.nls);
        len += cell.len;
        chosen.push((c, std::mem::take(&mut cell.chosen)));
    }
    chosen.sort_by_key(|(c, _)| *c);
    let mut chosen: Vec<Value> = chosen.into_iter().map(|(_, v)| v).collect();
    for (i, gt) in g.iter().enumerate() {
        if !row_used[i] {
            len += tree_len(gt);
            budget.spend(units(gt))?;
            chosen.push(gt.clone());
        }
    }
    for (j, pred) in p.iter().enumerate() {
        if !col_used[j] {
            len += tree_len(pred);
        }
    }
    Ok(Scored {
        nls,
        len,
        chosen: Value::Array(chosen),
    })
}

/// `ANLSDict` against an object.
fn score_objects(
    g: &Map<String, Value>,
    p: &Map<String, Value>,
    budget: &mut Budget,
) -> Result<Scored, Stop> {
    const MISSING: Value = Value::Null;
    let mut nls = Vec::new();
    let mut len = 0;
    let mut chosen = Map::new();
    for (k, gv) in g {
        let pv = p.get(k);
        let s = score(gv, pv.unwrap_or(&MISSING), budget)?;
        len += s.len;
        nls.extend_from_slice(&s.nls);
        if !(is_none_y(&s.chosen) && pv.is_none()) {
            chosen.insert(k.clone(), s.chosen);
        }
    }
    for (k, pv) in p {
        if g.contains_key(k) {
            continue;
        }
        let s = score(&MISSING, pv, budget)?;
        len += s.len;
        if is_none_y(pv) {
            // A hallucinated None-y key: counted in the length only.
            continue;
        }
        nls.extend_from_slice(&s.nls);
        chosen.insert(k.clone(), s.chosen);
    }
    Ok(Scored {
        nls,
        len,
        chosen: Value::Object(chosen),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn s(gt: Value, pred: Value) -> f64 {
        anls_star(&gt, &pred).expect("defined")
    }

    #[test]
    fn hand_computed_leaves() {
        // lev("hello world", "hello wrold") = 2 over 11 characters.
        assert_eq!(
            s(json!("Hello World"), json!("Hello Wrold")),
            1.0 - 2.0 / 11.0
        );
        // "31.12.2023" vs "31. dec 2023": 5 edits over 12 → 7/12 ≥ 0.5.
        assert_eq!(
            s(json!("31.12.2023"), json!("31. Dec 2023")),
            1.0 - 5.0 / 12.0
        );
        // Below the threshold: 0.
        assert_eq!(s(json!("0.2"), json!(0.199999)), 0.0);
        // Whitespace and case.
        assert_eq!(s(json!("Test Hello "), json!(" Test    Hello\n\n")), 1.0);
        // Python's str(True) lower-cased.
        assert_eq!(s(json!(true), json!("TRUE")), 1.0);
    }

    #[test]
    fn the_length_counts_hallucinated_none_keys() {
        assert_eq!(s(json!({"a": "x"}), json!({"a": "x", "b": null})), 0.5);
        assert_eq!(s(json!({"a": null}), json!({})), 1.0);
        assert_eq!(s(json!({"a": ""}), json!({})), 0.0);
        assert_eq!(s(json!({"a": []}), json!({})), 0.0);
        assert_eq!(s(json!({"a": {}}), json!({})), 0.0);
    }

    #[test]
    fn ties_in_the_matching_go_the_way_munkres_breaks_them() {
        // Both truth items average 1/3 against the prediction (one key of
        // three right). munkres 1.1.4 matches the first: 1 / (3 + 3), the
        // unmatched item adding its 3 leaves; the other choice would give
        // 1 / (3 + 2). The package itself returns 0.16666666666666666.
        let gt = json!([{"c": "x", "b": "z"}, {"b": "z", "c": "x", "a": "z"}]);
        let pred = json!([{"b": "z", "c": "y", "a": "y"}]);
        assert_eq!(s(gt, pred), 1.0 / 6.0);
    }

    #[test]
    fn a_huge_list_is_refused_quickly_not_computed() {
        // 3 000 × 3 000 items: 9 million pairs and a 3 000² Hungarian run
        // (hours in the package); over the budget before any pair is
        // scored.
        let gt = Value::Array((0..3000).map(|i| json!(format!("item {i}"))).collect());
        let pred = Value::Array(
            (0..3000)
                .map(|i| json!(format!("item {}", i + 1)))
                .collect(),
        );
        let start = std::time::Instant::now();
        assert_eq!(
            anls_star_bounded(
                &json!({"a": gt}),
                &json!({"a": pred}),
                crate::eval::literature::MAX_WORK
            ),
            Err(TooLarge)
        );
        assert!(start.elapsed().as_secs() < 5);
    }

    #[test]
    fn the_budget_does_not_change_a_score_it_allows() {
        let gt = json!({"items": [{"a": "x", "b": 1}, {"a": "y", "b": 2}], "t": "total"});
        let pred = json!({"items": [{"a": "y", "b": 2}, {"a": "x", "b": 3}], "t": "totl"});
        // By hand: items match crosswise, 3 of 4 leaves exact (b 3 vs "1":
        // 0); "totl" vs "total" 1 − 1/5. Σ = 3 + 0.8 over ℓ = 5.
        assert_eq!(anls_star(&gt, &pred), Some(3.8 / 5.0));
        assert_eq!(anls_star_bounded(&gt, &pred, 100_000), Ok(Some(3.8 / 5.0)));
        assert_eq!(anls_star_bounded(&gt, &pred, 100), Err(TooLarge));
    }

    #[test]
    fn nesting_as_deep_as_the_readers_allow_is_fine() {
        // 126 levels of objects and lists (the readers stop at 127).
        let mut gt = json!("x");
        let mut pred = json!("y");
        for level in 0..126 {
            if level % 2 == 0 {
                gt = json!([gt]);
                pred = json!([pred]);
            } else {
                gt = json!({ "k": gt });
                pred = json!({ "k": pred });
            }
        }
        // One leaf, "x" against "y": below the threshold.
        assert_eq!(anls_star(&gt, &pred), Some(0.0));
        assert_eq!(anls_star(&gt, &gt), Some(1.0));
    }

    #[test]
    fn an_empty_truth_list_against_a_string_is_undefined() {
        assert_eq!(anls_star(&json!([]), &json!("x")), None);
    }
}
