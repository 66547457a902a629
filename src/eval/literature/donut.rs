//! Donut's two metrics (Kim et al., 2022, "OCR-free Document Understanding
//! Transformer", ECCV; <https://github.com/clovaai/donut>), exactly as
//! `JSONParseEvaluator` in `donut/util.py` (PyPI `donut-python` 1.0.9)
//! computes them:
//!
//! * **nTED accuracy** (`cal_acc`):
//!   `max(0, 1 − TED(pred, gt) / TED(∅, gt))`, where TED is the ordered
//!   tree edit distance (Zhang & Shasha, 1989, as the `zss` package 1.2.0
//!   computes it) between the normalised documents' trees and ∅ is the tree
//!   of `{}` (a lone `<root>`).
//! * **field F1** (`cal_f1`): the normalised documents flattened into
//!   `(path, value)` pairs, matched as multisets;
//!   `F1 = TP / (TP + (FN + FP)/2)`, micro-averaged over the dataset.
//!
//! # Normalisation (`normalize_dict`), reproduced
//!
//! * A falsy value — `null`, `false`, `0`, `0.0`, `""`, `[]`, `{}` —
//!   becomes `{}` and disappears from its parent: **a zero or `false` is
//!   dropped**, the string `"0"` is kept.
//! * Object keys are sorted by (length in code points, then the key);
//!   every kept value becomes a list (a scalar `x` → `[str(x).strip()]`, an
//!   object → `[object]`).
//! * A list whose items are all objects keeps its non-empty normalised
//!   objects; any other list keeps only its strings and numbers (booleans,
//!   nulls, objects and lists in it are dropped) as `str(item).strip()`,
//!   dropping empty ones. A lone string of spaces is kept as `""`.
//! * Numbers and booleans become Python's `str()` (`1.0` → `"1.0"`,
//!   `true` → `"True"`; see [`super::python`]).
//!
//! # Trees and costs (`construct_tree_from_dict`, `update_cost`, …)
//!
//! An object is a node per key (label = the key) with its value's nodes as
//! children; a list of objects gives one `<subtree>` child per object; a
//! list of strings gives one leaf `<leaf>text` per string; the root is
//! `<root>`. A label containing `<leaf>` anywhere is a leaf, its text the
//! label with every `<leaf>` removed (so a *key* containing `<leaf>` is
//! treated as a leaf too — reproduced). Insert/remove: a leaf costs its
//! text's length, any other node 1. Update: two leaves cost the Levenshtein
//! distance of their texts (NLTK's `edit_distance`, code points); a leaf
//! and a non-leaf cost 1 + the leaf text's length; two non-leaves cost 0 if
//! the labels are equal, else 1.
//!
//! # Undefined cases, reproduced
//!
//! * **An empty normalised truth** has TED(∅, gt) = 0; Donut's `zss` runs on
//!   numpy arrays, so the division gives `inf` or `nan` (a warning, no
//!   error) and `max(0, ·)` turns both into 0: such a document scores
//!   **nTED 0**, even against an empty prediction.
//! * **F1 with no pair on either side** divides 0 by 0, which raises
//!   `ZeroDivisionError` in Python; we report `None` (JSON `null`).
//!
//! # Cost
//!
//! Zhang–Shasha takes Σ over the key-root pairs of the product of their
//! subtree sizes — (Σ_{key roots i of A} |A_i|) × (Σ_{key roots j of B}
//! |B_j|), at most |A|·|B|·min(depth, leaves)² — plus the Levenshtein
//! distances of the leaf pairs, and holds two |A|×|B| tables.
//! [`nted_bounded`] computes those numbers first and refuses
//! ([`super::TooLarge`]) what is over its budget ([`super::MAX_WORK`] for
//! the report; the tables count 8 bytes a cell) before allocating
//! anything; the leaf distances are charged as they are computed.
//!
//! Owns: normalisation, the tree, Zhang–Shasha, the pairs. Depends on:
//! `eval::distance` (Levenshtein, equal to NLTK's `edit_distance` with
//! unit costs), [`super::python`]. Pure.
//!
//! Zhang–Shasha is written here (about 60 lines): the crates.io search
//! found `tree-edit-distance` (a different algorithm and cost model, no
//! per-node label costs) and nothing maintained that implements
//! Zhang–Shasha with arbitrary insert/remove/update costs.

use super::budget::{Budget, TooLarge};
use super::python::{py_str, python_strip};
use crate::eval::distance::levenshtein;
use rustc_hash::FxHashMap;
use serde_json::{Map, Value};

/// Python truthiness of a JSON value.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// `JSONParseEvaluator.normalize_dict`: see the module documentation.
pub fn normalize(data: &Value) -> Value {
    if !truthy(data) {
        return Value::Object(Map::new());
    }
    match data {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| (a.chars().count(), a).cmp(&(b.chars().count(), b)));
            let mut out = Map::new();
            for k in keys {
                let value = normalize(&map[k]);
                if truthy(&value) {
                    let value = if value.is_array() {
                        value
                    } else {
                        Value::Array(vec![value])
                    };
                    out.insert(k.clone(), value);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) if items.iter().all(Value::is_object) => Value::Array(
            items
                .iter()
                .map(normalize)
                .filter(truthy)
                .collect::<Vec<_>>(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .filter(|item| item.is_string() || item.is_number())
                .map(|item| python_strip(&py_str(item)).to_string())
                .filter(|s| !s.is_empty())
                .map(Value::String)
                .collect(),
        ),
        scalar => Value::Array(vec![Value::String(
            python_strip(&py_str(scalar)).to_string(),
        )]),
    }
}

/// A tree in post-order: labels and each node's leftmost leaf descendant.
struct Tree {
    labels: Vec<String>,
    lmd: Vec<usize>,
}

impl Tree {
    /// `construct_tree_from_dict(normalize_dict(data))`.
    fn of(normalized: &Value) -> Tree {
        let mut t = Tree {
            labels: Vec::new(),
            lmd: Vec::new(),
        };
        t.push(normalized, "<root>".to_string());
        t
    }

    /// Appends the subtree of `data` named `label`; returns its leftmost
    /// leaf's index.
    fn push(&mut self, data: &Value, label: String) -> usize {
        let mut first: Option<usize> = None;
        let mut note = |l: usize| {
            first.get_or_insert(l);
        };
        match data {
            Value::Object(map) => {
                for (k, v) in map {
                    note(self.push(v, k.clone()));
                }
            }
            Value::Array(items) if items.iter().all(Value::is_object) => {
                for item in items {
                    note(self.push(item, "<subtree>".to_string()));
                }
            }
            Value::Array(items) => {
                for item in items {
                    let idx = self.labels.len();
                    self.labels.push(format!("<leaf>{}", py_str(item)));
                    self.lmd.push(idx);
                    note(idx);
                }
            }
            // Donut raises here; normalised data never gets here.
            _ => {}
        }
        let idx = self.labels.len();
        self.labels.push(label);
        let lmd = first.unwrap_or(idx);
        self.lmd.push(lmd);
        lmd
    }

    /// Key roots: for each leftmost-leaf value, the last node having it,
    /// in increasing order.
    fn keyroots(&self) -> Vec<usize> {
        let mut last = FxHashMap::default();
        for (i, &l) in self.lmd.iter().enumerate() {
            last.insert(l, i);
        }
        let mut roots: Vec<usize> = last.into_values().collect();
        roots.sort_unstable();
        roots
    }

    /// Σ over the key roots of their subtree sizes: one side's factor of
    /// Zhang–Shasha's work.
    fn keyroot_work(&self, keyroots: &[usize]) -> u64 {
        keyroots.iter().map(|&i| (i - self.lmd[i] + 1) as u64).sum()
    }
}

/// A node's label read as the cost functions read it.
struct Label<'a> {
    leaf: bool,
    /// The label without every `<leaf>` (for a leaf), the label otherwise.
    text: std::borrow::Cow<'a, str>,
    /// Its length in code points.
    chars: u64,
}

impl<'a> Label<'a> {
    fn of(label: &'a str) -> Label<'a> {
        if label.contains("<leaf>") {
            let text = label.replace("<leaf>", "");
            Label {
                leaf: true,
                chars: text.chars().count() as u64,
                text: text.into(),
            }
        } else {
            Label {
                leaf: false,
                chars: label.chars().count() as u64,
                text: label.into(),
            }
        }
    }

    /// `insert_and_remove_cost`.
    fn insert_remove(&self) -> u64 {
        if self.leaf {
            self.chars
        } else {
            1
        }
    }

    /// `update_cost`; two leaves' distance is charged to `budget`
    /// (`(shorter / 64 + 1) × longer`).
    fn update(&self, other: &Label<'_>, budget: &mut Budget) -> Result<u64, TooLarge> {
        Ok(match (self.leaf, other.leaf) {
            (true, true) => {
                let (a, b) = (self.chars, other.chars);
                budget.spend((a.min(b) / 64 + 1).saturating_mul(a.max(b)))?;
                levenshtein(&self.text, &other.text) as u64
            }
            (false, true) => 1 + other.chars,
            (true, false) => 1 + self.chars,
            (false, false) => u64::from(self.text != other.text),
        })
    }
}

/// The Zhang–Shasha tree edit distance from `a` to `b` (`zss.distance`),
/// within `budget` (see the module documentation).
///
/// `treedist(i, j)` is kept for every node pair (`td`); for each pair of
/// key roots `(i, j)` the forest distances between the prefixes
/// `lmd(i)..=x` and `lmd(j)..=y` are filled in (`fd`): removing `x`,
/// inserting `y`, and either updating `x` into `y` (when both prefixes are
/// whole subtrees, which also sets `td`) or replacing the two subtrees by
/// their `td`. Costs are integers, as `zss` computes them in floats.
fn ted(a: &Tree, b: &Tree, budget: &mut Budget) -> Result<u64, TooLarge> {
    let (ka, kb) = (a.keyroots(), b.keyroots());
    let (na, nb) = (a.labels.len(), b.labels.len());
    // Before anything is allocated: the time, then the two tables of
    // 4-byte cells.
    budget.spend(a.keyroot_work(&ka).saturating_mul(b.keyroot_work(&kb)))?;
    budget.spend(((na as u64 + 1) * (nb as u64 + 1)).saturating_mul(8))?;
    let la: Vec<Label<'_>> = a.labels.iter().map(|l| Label::of(l)).collect();
    let lb: Vec<Label<'_>> = b.labels.iter().map(|l| Label::of(l)).collect();
    let del: Vec<u64> = la.iter().map(Label::insert_remove).collect();
    let ins: Vec<u64> = lb.iter().map(Label::insert_remove).collect();
    // Every distance is at most removing all of `a` and inserting all of
    // `b`; when that fits in 32 bits, so does every cell.
    if del.iter().chain(&ins).sum::<u64>() > u64::from(u32::MAX) {
        return Err(TooLarge);
    }
    let (del, ins): (Vec<u32>, Vec<u32>) = (
        del.into_iter().map(|c| c as u32).collect(),
        ins.into_iter().map(|c| c as u32).collect(),
    );
    let mut td = vec![0u32; na * nb];
    let mut fd: Vec<u32> = Vec::new();
    for &i in &ka {
        for &j in &kb {
            let (li, lj) = (a.lmd[i], b.lmd[j]);
            let m = i - li + 2;
            let n = j - lj + 2;
            fd.clear();
            fd.resize(m * n, 0);
            for x in 1..m {
                fd[x * n] = fd[(x - 1) * n] + del[li + x - 1];
            }
            for y in 1..n {
                fd[y] = fd[y - 1] + ins[lj + y - 1];
            }
            for x in 1..m {
                let an = li + x - 1;
                for y in 1..n {
                    let bn = lj + y - 1;
                    let remove = fd[(x - 1) * n + y] + del[an];
                    let insert = fd[x * n + y - 1] + ins[bn];
                    if a.lmd[an] == li && b.lmd[bn] == lj {
                        // At most the cost of removing `an` and inserting
                        // `bn`, so it fits too.
                        let cost = la[an].update(&lb[bn], budget)? as u32;
                        let update = fd[(x - 1) * n + y - 1] + cost;
                        let best = remove.min(insert).min(update);
                        fd[x * n + y] = best;
                        td[an * nb + bn] = best;
                    } else {
                        let p = a.lmd[an] - li;
                        let q = b.lmd[bn] - lj;
                        let subtree = fd[p * n + q] + td[an * nb + bn];
                        fd[x * n + y] = remove.min(insert).min(subtree);
                    }
                }
            }
        }
    }
    // Both trees have a root, so neither is empty.
    Ok(u64::from(td.last().copied().unwrap_or(0)))
}

/// `JSONParseEvaluator().cal_acc(pred, answer)`: the nTED accuracy of one
/// document, `max(0, 1 − TED(pred, gt) / TED(∅, gt))`, with an empty
/// normalised truth scoring 0 (see the module documentation).
///
/// ```
/// use fieldscope::eval::literature::donut::nted;
/// use serde_json::json;
/// let gt = json!({"menu": [{"nm": "cake", "cnt": "2"}, {"nm": "juice", "cnt": "1"}]});
/// let pred = json!({"menu": [{"nm": "cake", "cnt": "2"}]});
/// // TED(∅, gt) = menu 1 + 2 subtrees + 4 keys + leaves 4+1+5+1 = 18;
/// // the prediction lacks one subtree: 1 + 2 + 5 + 1 = 9.
/// assert_eq!(nted(&pred, &gt), 0.5);
/// ```
///
/// No bound on the work: see [`nted_bounded`]. NaN only if the
/// documents hold more than 4×10⁹ characters between them (the tables'
/// cells are 32-bit).
pub fn nted(pred: &Value, gt: &Value) -> f64 {
    nted_bounded(pred, gt, u64::MAX).unwrap_or(f64::NAN)
}

/// [`nted`] within `max_work` units (see the module documentation);
/// [`TooLarge`] past it.
pub fn nted_bounded(pred: &Value, gt: &Value, max_work: u64) -> Result<f64, TooLarge> {
    let mut budget = Budget::new(max_work);
    let p = Tree::of(&normalize(pred));
    let g = Tree::of(&normalize(gt));
    let empty = Tree::of(&Value::Object(Map::new()));
    let d = ted(&p, &g, &mut budget)? as f64;
    let d0 = ted(&empty, &g, &mut budget)? as f64;
    // numpy: x / 0 is inf (or nan for 0 / 0); Python's max(0, v) keeps 0
    // unless v > 0.
    let v = 1.0 - d / d0;
    Ok(if v > 0.0 { v } else { 0.0 })
}

/// The flattened `(path, value)` pairs of a normalised document
/// (`JSONParseEvaluator.flatten`): object keys joined with `.` (no dot
/// after an empty path), list items sharing their parent's path.
pub fn flatten(normalized: &Value) -> Vec<(String, String)> {
    fn walk(v: &Value, key: &str, out: &mut Vec<(String, String)>) {
        match v {
            Value::Object(map) => {
                for (k, c) in map {
                    if key.is_empty() {
                        walk(c, k, out);
                    } else {
                        walk(c, &format!("{key}.{k}"), out);
                    }
                }
            }
            Value::Array(items) => {
                for item in items {
                    walk(item, key, out);
                }
            }
            leaf => out.push((key.to_string(), py_str(leaf))),
        }
    }
    let mut out = Vec::new();
    walk(normalized, "", &mut out);
    out
}

/// The counts `cal_f1` adds up for one document: true positives (pairs in
/// both, as multisets) and false negatives plus false positives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct F1Counts {
    pub tp: u64,
    pub fn_or_fp: u64,
}

impl F1Counts {
    /// The pairs of `pred` and `gt` matched as multisets.
    pub fn of(pred: &Value, gt: &Value) -> F1Counts {
        let mut answer: FxHashMap<(String, String), u64> = FxHashMap::default();
        for pair in flatten(&normalize(gt)) {
            *answer.entry(pair).or_insert(0) += 1;
        }
        let mut c = F1Counts::default();
        for pair in flatten(&normalize(pred)) {
            match answer.get_mut(&pair) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    c.tp += 1;
                }
                _ => c.fn_or_fp += 1,
            }
        }
        c.fn_or_fp += answer.values().sum::<u64>();
        c
    }

    /// `total_tp / (total_tp + total_fn_or_fp / 2)`; `None` when both are 0
    /// (Python raises `ZeroDivisionError`).
    pub fn f1(self) -> Option<f64> {
        let denominator = self.tp as f64 + self.fn_or_fp as f64 / 2.0;
        (denominator > 0.0).then(|| self.tp as f64 / denominator)
    }
}

impl std::ops::Add for F1Counts {
    type Output = F1Counts;
    fn add(self, o: F1Counts) -> F1Counts {
        F1Counts {
            tp: self.tp + o.tp,
            fn_or_fp: self.fn_or_fp + o.fn_or_fp,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn normalisation_drops_falsy_values_and_sorts_keys() {
        let n = normalize(
            &json!({"bb": 0, "a": " x ", "c": false, "dd": [1, true, null, " ", 2.5], "e": "0"}),
        );
        assert_eq!(n, json!({"a": ["x"], "e": ["0"], "dd": ["1", "2.5"]}));
        assert_eq!(
            serde_json::to_string(&n).unwrap(),
            r#"{"a":["x"],"e":["0"],"dd":["1","2.5"]}"#
        );
        assert_eq!(normalize(&json!({"a": "  "})), json!({"a": [""]}));
        assert_eq!(normalize(&json!(null)), json!({}));
    }

    #[test]
    fn f1_counts_pairs_as_multisets() {
        // pred pairs (a,x) (b,1) (b,2); truth (a,x) (b,2) (b,3): TP 2, one
        // FP, one FN → 2 / (2 + 1) = 2/3.
        let c = F1Counts::of(
            &json!({"a": "x", "b": ["1", "2"]}),
            &json!({"a": "x", "b": ["2", "3"]}),
        );
        assert_eq!(c, F1Counts { tp: 2, fn_or_fp: 2 });
        assert_eq!(c.f1(), Some(2.0 / 3.0));
        assert_eq!(F1Counts::of(&json!({}), &json!({})).f1(), None);
    }

    #[test]
    fn an_empty_truth_scores_zero() {
        assert_eq!(nted(&json!({}), &json!({})), 0.0);
        assert_eq!(nted(&json!({"a": "x"}), &json!({"a": null})), 0.0);
    }

    #[test]
    fn identical_documents_score_one_and_an_empty_prediction_zero() {
        let gt = json!({"k": "v", "items": [{"n": "a"}, {"n": "b"}]});
        assert_eq!(nted(&gt, &gt), 1.0);
        assert_eq!(nted(&json!(null), &gt), 0.0);
    }

    #[test]
    fn a_huge_document_is_refused_before_any_table_is_allocated() {
        // 20 000 leaves a side: 4×10⁸ cells (1.6 GB of tables) and more
        // time; refused at once.
        let big = |tag: &str| json!({"items": (0..20_000).map(|i| json!(format!("{tag}{i}"))).collect::<Vec<_>>()});
        let start = std::time::Instant::now();
        assert_eq!(
            nted_bounded(&big("a"), &big("b"), super::super::MAX_WORK),
            Err(TooLarge)
        );
        assert!(start.elapsed().as_secs() < 5);
    }

    #[test]
    fn the_budget_does_not_change_a_value_it_allows() {
        let gt = json!({"name": "cake", "items": [{"n": "a"}, {"n": "b"}]});
        let pred = json!({"name": "cave", "items": [{"n": "a"}]});
        // TED(∅, gt): name 1 + cake 4 + items 1 + 2 subtrees + 2 keys n +
        // 2 leaves = 12; pred: cake→cave 1, one subtree (1 + 1 + 1) = 4.
        assert_eq!(nted(&pred, &gt), 1.0 - 4.0 / 12.0);
        assert_eq!(nted_bounded(&pred, &gt, 10_000), Ok(1.0 - 4.0 / 12.0));
        assert_eq!(nted_bounded(&pred, &gt, 50), Err(TooLarge));
    }

    #[test]
    fn nesting_as_deep_as_the_readers_allow_is_fine() {
        let mut gt = json!("x");
        for level in 0..126 {
            gt = if level % 2 == 0 {
                json!([gt])
            } else {
                json!({ "k": gt })
            };
        }
        let gt = json!({ "k": gt });
        // Lists of one object keep it, the innermost ["x"] is a list of
        // strings: one pair under 64 keys (Donut gives the same).
        let path = vec!["k"; 64].join(".");
        assert_eq!(flatten(&normalize(&gt)), [(path, "x".to_string())]);
        assert_eq!(nted(&gt, &gt), 1.0);
        let mut deep = json!({"k": "x"});
        for _ in 0..126 {
            deep = json!({ "k": deep });
        }
        assert_eq!(nted(&deep, &deep), 1.0);
        assert_eq!(F1Counts::of(&deep, &deep), F1Counts { tp: 1, fn_or_fp: 0 });
    }

    #[test]
    fn leaf_edits_cost_their_levenshtein_distance() {
        // gt: <root> → name → <leaf>cake. TED(∅, gt) = 1 + 4 = 5;
        // "cake" → "cave" is one substitution: 1 − 1/5.
        assert_eq!(
            nted(&json!({"name": "cave"}), &json!({"name": "cake"})),
            1.0 - 1.0 / 5.0
        );
    }
}
