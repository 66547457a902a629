//! Line items (SPEC §3.4, M3): item-level F1 and the optimal one-to-one
//! assignment of predicted to truth items.
//!
//! Owns: [`Item`], [`item_f1`] and [`match_items`] (Hungarian algorithm from
//! the `pathfinding` crate). Pure; depends on `compare`, `counts`, `paths`.

use crate::eval::compare::{Comparer, Side, ValueType};
use crate::eval::counts::{harmonic, ratio};
use crate::eval::paths::find_leaf;
pub use crate::eval::paths::Leaf;
use crate::eval::paths::PathId;
use pathfinding::kuhn_munkres::kuhn_munkres;
use pathfinding::matrix::Matrix;

/// One item of an item list: its fields, sorted by path with each path
/// once, each as a side of a comparison (`None` when absent) and with its
/// comparison type when it is the truth side, and the buffer holding their
/// normalised texts.
#[derive(Debug, Clone, Copy)]
pub struct Item<'d, 'a> {
    pub fields: &'d [Leaf<'a>],
    pub sides: &'d [Option<Side<'d>>],
    pub types: &'d [ValueType],
    /// Number of present fields.
    pub present: usize,
    pub text: &'d str,
}

impl<'d, 'a> Item<'d, 'a> {
    /// The field at `path`, if the item has one.
    #[inline(always)]
    pub fn get(&self, path: PathId) -> Option<&'d Leaf<'a>> {
        find_leaf(self.fields, path)
    }

    /// The field at `path` as a side of a comparison, when present.
    pub fn side(&self, leaf: &'d Leaf<'a>) -> Option<Side<'d>> {
        leaf.side(self.text)
    }
}

/// Sorts an item's flattened fields by path, keeping the first of a path
/// given twice; returns the number of present fields.
pub fn sort_fields(fields: &mut Vec<Leaf<'_>>) -> usize {
    fields.sort_by_key(|f| f.path);
    fields.dedup_by_key(|f| f.path);
    fields.iter().filter(|f| f.present).count()
}

/// Item-level F1 of a truth item `t` and a predicted item `p` (SPEC §3.4):
/// correct = fields present in both that match exactly (partial is not
/// correct); precision = correct / fields present in p; recall = correct /
/// fields present in t (`zero_division` for a side with no present field);
/// item_f1 = harmonic mean. A field is compared by its type in `t`.
pub fn item_f1(comparer: &Comparer<'_>, t: &Item<'_, '_>, p: &Item<'_, '_>) -> f64 {
    let mut correct = 0usize;
    let (mut i, mut j) = (0, 0);
    while i < t.fields.len() && j < p.fields.len() {
        let (a, b) = (&t.fields[i], &p.fields[j]);
        match a.path.cmp(&b.path) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if let (Some(Some(sa)), Some(Some(sb))) = (t.sides.get(i), p.sides.get(j)) {
                    let ty = t.types.get(i).copied().unwrap_or(ValueType::String);
                    if comparer.is_exact(ty, sa, sb) {
                        correct += 1;
                    }
                }
                i += 1;
                j += 1;
            }
        }
    }
    let zd = comparer.config.zero_division;
    let precision = ratio(correct as f64, p.present as f64, zd);
    let recall = ratio(correct as f64, t.present as f64, zd);
    harmonic(precision, recall)
}

/// A matched pair: truth item index, predicted item index, item F1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ItemMatch {
    pub truth: usize,
    pub pred: usize,
    pub f1: f64,
}

/// Scale of item F1 in the integer weights given to the Hungarian solver.
/// Item F1 values are ratios of small integers, so rounding them to 10⁻⁹
/// keeps distinct sums distinct.
const F1_SCALE: f64 = 1e9;

/// The item F1 of every (truth item, predicted item) pair: `rows` truth
/// items by `cols` predicted items, row by row.
#[derive(Debug, Clone, Default)]
pub struct F1Grid {
    pub rows: usize,
    pub cols: usize,
    pub values: Vec<f64>,
}

impl F1Grid {
    /// An empty grid of `rows` × `cols` (keeping the allocation).
    pub fn reset(&mut self, rows: usize, cols: usize) {
        self.rows = rows;
        self.cols = cols;
        self.values.clear();
        self.values.reserve(rows * cols);
    }

    /// The grid of `truth` × `predicted` items: [`item_f1`] of every pair.
    pub fn fill(
        &mut self,
        comparer: &Comparer<'_>,
        truth: &[Item<'_, '_>],
        predicted: &[Item<'_, '_>],
    ) {
        let cols = predicted.len();
        self.reset(truth.len(), cols);
        self.values.resize(truth.len() * cols, 0.0);
        for (row, t) in self.values.chunks_exact_mut(cols.max(1)).zip(truth) {
            for (cell, p) in row.iter_mut().zip(predicted) {
                *cell = item_f1(comparer, t, p);
            }
        }
    }

    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.values[i * self.cols + j]
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.values[i * self.cols..(i + 1) * self.cols]
    }
}

/// The one-to-one assignment maximising the total item F1 (SPEC §3.4).
/// `f1.at(i, j)` is the item F1 of truth item `i` and predicted item `j`.
/// Among assignments with the same total, pairs in original order
/// (truth `i` with prediction `i`) are preferred: each such pair adds a
/// bonus smaller than any difference in total F1. Pairs with item F1 = 0
/// stay unmatched. Returns the pairs sorted by truth index.
pub fn match_items(f1: &F1Grid) -> Vec<ItemMatch> {
    let (rows, cols) = (f1.rows, f1.cols);
    if rows == 0 || cols == 0 || f1.values.len() != rows * cols {
        return Vec::new();
    }
    // Fast path: every truth item's only non-zero partner is distinct and
    // mutual, so the assignment is forced.
    if let Some(forced) = forced_assignment(f1) {
        return forced;
    }
    let transpose = rows > cols;
    let (n, m) = if transpose {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let bonus_scale = (n.min(m) + 1) as i64;
    let weight = |r: usize, c: usize| -> i64 {
        let (i, j) = if transpose { (c, r) } else { (r, c) };
        let w = (f1.at(i, j) * F1_SCALE).round() as i64 * bonus_scale;
        w + i64::from(i == j && f1.at(i, j) > 0.0)
    };
    let mut data = Vec::with_capacity(n * m);
    for r in 0..n {
        for c in 0..m {
            data.push(weight(r, c));
        }
    }
    let Ok(matrix) = Matrix::from_vec(n, m, data) else {
        return Vec::new();
    };
    let (_, assignment) = kuhn_munkres(&matrix);
    let mut pairs: Vec<ItemMatch> = assignment
        .iter()
        .enumerate()
        .map(|(r, &c)| if transpose { (c, r) } else { (r, c) })
        .filter(|&(i, j)| f1.at(i, j) > 0.0)
        .map(|(i, j)| ItemMatch {
            truth: i,
            pred: j,
            f1: f1.at(i, j),
        })
        .collect();
    pairs.sort_by_key(|p| p.truth);
    pairs
}

/// When each row and each column has at most one non-zero entry, the
/// optimal assignment is those entries.
fn forced_assignment(f1: &F1Grid) -> Option<Vec<ItemMatch>> {
    let mut col_used = vec![false; f1.cols];
    let mut pairs = Vec::new();
    for i in 0..f1.rows {
        let mut nonzero = f1.row(i).iter().enumerate().filter(|(_, &v)| v > 0.0);
        if let Some((j, &v)) = nonzero.next() {
            if nonzero.next().is_some() || col_used[j] {
                return None;
            }
            col_used[j] = true;
            pairs.push(ItemMatch {
                truth: i,
                pred: j,
                f1: v,
            });
        }
    }
    Some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(m: &[ItemMatch]) -> Vec<(usize, usize)> {
        m.iter().map(|p| (p.truth, p.pred)).collect()
    }

    fn match_items(rows: &[Vec<f64>]) -> Vec<ItemMatch> {
        super::match_items(&F1Grid {
            rows: rows.len(),
            cols: rows.first().map_or(0, Vec::len),
            values: rows.concat(),
        })
    }

    #[test]
    fn maximises_total_f1_not_greedy() {
        // Greedy would take (0,0)=0.9 and leave (1,1)=0.1: total 1.0.
        // Optimal: (0,1)=0.8 + (1,0)=0.8 = 1.6.
        let f1 = vec![vec![0.9, 0.8], vec![0.8, 0.1]];
        assert_eq!(pairs(&match_items(&f1)), [(0, 1), (1, 0)]);
    }

    #[test]
    fn ties_keep_original_order() {
        let f1 = vec![vec![1.0, 1.0], vec![1.0, 1.0]];
        assert_eq!(pairs(&match_items(&f1)), [(0, 0), (1, 1)]);
        let f1 = vec![vec![0.5; 3]; 3];
        assert_eq!(pairs(&match_items(&f1)), [(0, 0), (1, 1), (2, 2)]);
    }

    #[test]
    fn zero_pairs_stay_unmatched_and_shapes_may_differ() {
        let f1 = vec![vec![0.0, 0.0, 1.0], vec![0.0, 0.0, 0.0]];
        assert_eq!(pairs(&match_items(&f1)), [(0, 2)]);
        let f1 = vec![vec![0.5], vec![0.7], vec![0.0]];
        assert_eq!(pairs(&match_items(&f1)), [(1, 0)]);
        assert!(match_items(&[]).is_empty());
        assert!(match_items(&[vec![], vec![]]).is_empty());
        // Reordered items: the solver finds the permutation.
        let f1 = vec![
            vec![0.0, 0.0, 1.0],
            vec![1.0, 0.2, 0.0],
            vec![0.0, 1.0, 0.3],
        ];
        assert_eq!(pairs(&match_items(&f1)), [(0, 2), (1, 0), (2, 1)]);
    }
}
