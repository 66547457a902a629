//! Line items (SPEC §3.4, M3): item-level F1 and the optimal one-to-one
//! assignment of predicted to truth items.
//!
//! Owns: [`Item`], [`item_f1`] and [`match_items`] (Hungarian algorithm from
//! the `pathfinding` crate). Pure; depends on `compare`, `counts`, `paths`.

use crate::eval::assign::{hungarian, smallest_in_order, Lex, Solution};
use crate::eval::compare::{Comparer, Side, ValueType};
use crate::eval::counts::{harmonic, ratio};
use crate::eval::paths::find_leaf;
pub use crate::eval::paths::Leaf;
use crate::eval::paths::PathId;
use crate::eval::report::Outcome;
use num_bigint::BigInt;

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

/// The number of fields present in both `t` and `p` that match exactly
/// (SPEC §3.4's `correct`; partial is not correct). A field is compared by
/// its type in `t`.
pub fn correct_fields(comparer: &Comparer<'_>, t: &Item<'_, '_>, p: &Item<'_, '_>) -> usize {
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
    correct
}

/// Item-level F1 of a truth item `t` and a predicted item `p` (SPEC §3.4):
/// correct = fields present in both that match exactly (partial is not
/// correct); precision = correct / fields present in p; recall = correct /
/// fields present in t (`zero_division` for a side with no present field);
/// item_f1 = harmonic mean. A field is compared by its type in `t`.
pub fn item_f1(comparer: &Comparer<'_>, t: &Item<'_, '_>, p: &Item<'_, '_>) -> f64 {
    f1_of(
        comparer,
        correct_fields(comparer, t, p),
        t.present,
        p.present,
    )
}

fn f1_of(comparer: &Comparer<'_>, correct: usize, t_present: usize, p_present: usize) -> f64 {
    let zd = comparer.config.zero_division;
    let precision = ratio(correct as f64, p_present as f64, zd);
    let recall = ratio(correct as f64, t_present as f64, zd);
    harmonic(precision, recall)
}

/// The partial credit of a matched pair (SPEC §7.3): over the fields
/// present in the truth item, 1 for an exact outcome, the string
/// similarity (§2.2) for a partial or incorrect outcome of a field
/// compared as a string, 0 otherwise — kept exactly, as a count of exact
/// outcomes plus the similarities as fractions `(L − edits) / L`.
pub fn partial_credit(
    comparer: &Comparer<'_>,
    t: &Item<'_, '_>,
    p: &Item<'_, '_>,
    out: &mut Credit,
) {
    out.exact = 0;
    out.fractions.clear();
    let (mut i, mut j) = (0, 0);
    while i < t.fields.len() && j < p.fields.len() {
        let (a, b) = (&t.fields[i], &p.fields[j]);
        match a.path.cmp(&b.path) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if let (Some(Some(sa)), Some(Some(sb))) = (t.sides.get(i), p.sides.get(j)) {
                    let ty = t.types.get(i).copied().unwrap_or(ValueType::String);
                    let c = comparer.compare_present(ty, sa, sb);
                    if c.outcome == Outcome::Exact {
                        out.exact += 1;
                    } else if ty == ValueType::String {
                        let longest = sa.chars.max(sb.chars) as u128;
                        let edits = c.cer.map_or(longest, |x| x.edits as u128);
                        if longest > 0 && edits < longest {
                            out.fractions.push((longest - edits, longest));
                        }
                    }
                }
                i += 1;
                j += 1;
            }
        }
    }
}

/// A partial credit kept exactly: `exact` + Σ numerator / denominator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credit {
    pub exact: u64,
    pub fractions: Vec<(u128, u128)>,
}

/// A matched pair: truth item index, predicted item index, item F1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ItemMatch {
    pub truth: usize,
    pub pred: usize,
    pub f1: f64,
}

/// The item F1 of every (truth item, predicted item) pair: `rows` truth
/// items by `cols` predicted items, row by row, with the counts it is
/// computed from (so that totals can be compared exactly).
#[derive(Debug, Clone, Default)]
pub struct F1Grid {
    pub rows: usize,
    pub cols: usize,
    pub values: Vec<f64>,
    /// `correct` of each pair, row by row.
    pub correct: Vec<u32>,
    /// Present fields of each truth item and of each predicted item.
    pub truth_present: Vec<u32>,
    pub pred_present: Vec<u32>,
    /// `zero_division` (the item F1 of two items without a present field).
    pub zero_division: f64,
}

impl F1Grid {
    /// An empty grid of `rows` × `cols` (keeping the allocation).
    pub fn reset(&mut self, rows: usize, cols: usize) {
        self.rows = rows;
        self.cols = cols;
        self.values.clear();
        self.values.reserve(rows * cols);
        self.correct.clear();
        self.truth_present.clear();
        self.pred_present.clear();
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
        self.zero_division = comparer.config.zero_division;
        self.truth_present
            .extend(truth.iter().map(|t| t.present as u32));
        self.pred_present
            .extend(predicted.iter().map(|p| p.present as u32));
        for t in truth {
            for p in predicted {
                let correct = correct_fields(comparer, t, p);
                self.correct.push(correct as u32);
                self.values
                    .push(f1_of(comparer, correct, t.present, p.present));
            }
        }
    }

    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.values[i * self.cols + j]
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.values[i * self.cols..(i + 1) * self.cols]
    }

    /// The item F1 of pair (i, j) as an exact fraction (numerator,
    /// denominator): 2·correct / (|t| + |p|), which equals the harmonic
    /// mean of correct/|p| and correct/|t|; `zero_division` (an `f64`, a
    /// dyadic fraction exactly) when neither item has a present field; 0
    /// when only one has none. A grid built by hand (no counts) gives
    /// `None`.
    fn exact_f1(&self, i: usize, j: usize) -> Option<(u128, u128)> {
        let correct = u128::from(*self.correct.get(i * self.cols + j)?);
        let (t, p) = (
            u128::from(*self.truth_present.get(i)?),
            u128::from(*self.pred_present.get(j)?),
        );
        Some(match (t, p) {
            (0, 0) => dyadic(self.zero_division)?,
            (0, _) | (_, 0) => (0, 1),
            _ => (2 * correct, t + p),
        })
    }
}

/// A finite `x` ≥ 0 as an exact fraction with a power-of-two denominator
/// (at most 2⁶⁰; `None` beyond).
fn dyadic(x: f64) -> Option<(u128, u128)> {
    let mut den: u128 = 1;
    let mut scaled = x;
    for _ in 0..=60 {
        if scaled.fract() == 0.0 && scaled.is_finite() && scaled < 1e30 {
            return Some((scaled as u128, den));
        }
        scaled *= 2.0;
        den *= 2;
    }
    None
}

/// The one-to-one assignment of SPEC §3.4 with §7.3's tie-break.
/// `f1.at(i, j)` is the item F1 of truth item `i` and predicted item `j`;
/// `credit(i, j, out)` writes the partial credit of the pair (asked only
/// for pairs with item F1 > 0, and only when the assignment is not
/// forced). Chosen, in this order: the maximal total item F1; among
/// those, the maximal total partial credit; among those, the
/// lexicographically smallest sequence of matched prediction indices in
/// truth order (an unmatched truth item ranks after every index). Totals
/// are compared exactly: each pair's item F1 and credit are fractions
/// brought to one common denominator per grid (integers, `i128`, or big
/// integers when that would not fit), so no rounding decides a tie. Pairs
/// with item F1 = 0 stay unmatched. Returns the pairs sorted by truth
/// index.
pub fn match_items(
    f1: &F1Grid,
    mut credit: impl FnMut(usize, usize, &mut Credit),
) -> Vec<ItemMatch> {
    let (rows, cols) = (f1.rows, f1.cols);
    if rows == 0 || cols == 0 || f1.values.len() != rows * cols {
        return Vec::new();
    }
    // Fast path: every truth item's only non-zero partner is distinct and
    // mutual, so the assignment is forced (and the only maximal one).
    if let Some(forced) = forced_assignment(f1) {
        return forced;
    }
    if let Some(best) = distinct_best_assignment(f1) {
        return best;
    }
    // Only items with a non-zero partner can be matched: the others are
    // left out of the solved problem (an unmatched truth item is
    // unmatched in every assignment, so the order is unchanged).
    let live_rows: Vec<usize> = (0..rows)
        .filter(|&i| f1.row(i).iter().any(|&v| v > 0.0))
        .collect();
    let live_cols: Vec<usize> = (0..cols)
        .filter(|&j| (0..rows).any(|i| f1.at(i, j) > 0.0))
        .collect();
    let (n, m) = (live_rows.len(), live_cols.len());
    let k = n.max(m);
    let positive = |r: usize, c: usize| r < n && c < m && f1.at(live_rows[r], live_cols[c]) > 0.0;
    // Stage 1: the total item F1 alone, exactly.
    let mut cells: Vec<Option<((u128, u128), Credit)>> = Vec::with_capacity(n * m);
    for &i in &live_rows {
        for &j in &live_cols {
            let exact = (f1.at(i, j) > 0.0)
                .then(|| f1.exact_f1(i, j).or_else(|| dyadic(f1.at(i, j))))
                .flatten();
            cells.push(exact.map(|a| (a, Credit::default())));
        }
    }
    let first = primary_tight(&cells, n, m);
    let tight = |r: usize, c: usize| positive(r, c) && first[r * m + c];
    let pair = |r: usize, c: usize| {
        let (i, j) = (live_rows[r], live_cols[c]);
        ItemMatch {
            truth: i,
            pred: j,
            f1: f1.at(i, j),
        }
    };
    // Every maximal assignment holds every tight pair with item F1 > 0
    // (weights are ≥ 0: leaving one out loses its weight), so when no row
    // and no column has two of them, they are the one answer.
    let mut per_col = vec![0u32; m];
    let mut unique = true;
    for r in 0..n {
        let mut in_row = 0;
        for c in (0..m).filter(|&c| tight(r, c)) {
            in_row += 1;
            per_col[c] += 1;
            unique &= in_row < 2 && per_col[c] < 2;
        }
    }
    if unique {
        return (0..n)
            .flat_map(|r| (0..m).filter(move |&c| tight(r, c)).map(move |c| (r, c)))
            .map(|(r, c)| pair(r, c))
            .collect();
    }
    // Stage 2: the partial credit decides among the maximal totals, which
    // use only tight pairs (a pair outside them keeps credit 0); then the
    // order of prediction indices.
    for r in 0..n {
        for c in 0..m {
            if tight(r, c) {
                if let Some((_, credit_of)) = &mut cells[r * m + c] {
                    credit(live_rows[r], live_cols[c], credit_of);
                }
            }
        }
    }
    let mut second = run_hungarian(&cells, k, n, m);
    smallest_in_order(
        k,
        &second.tight,
        &positive,
        &mut second.col_of,
        &mut second.row_of,
    );
    (0..n)
        .filter(|&r| positive(r, second.col_of[r]))
        .map(|r| pair(r, second.col_of[r]))
        .collect()
}

/// The pairs some assignment with the maximal total item F1 uses
/// (`n` × `m`, row by row): [`hungarian`] on the item F1 alone (the
/// smaller side as rows), as `i64` over one common denominator when every
/// sum the solver forms fits (the usual case: item F1 denominators are
/// small), else as [`run_hungarian`] does.
fn primary_tight(cells: &[Option<((u128, u128), Credit)>], n: usize, m: usize) -> Vec<bool> {
    let k = n.max(m);
    let mut den = 1u128;
    let mut fits = true;
    for ((_, d), _) in cells.iter().flatten() {
        match lcm(den, *d) {
            Some(l) if l <= (i64::MAX as u128) / (8 * (k as u128 + 1)) => den = l,
            _ => {
                fits = false;
                break;
            }
        }
    }
    if !fits {
        let s = run_hungarian(cells, k, n, m);
        return (0..n * m).map(|x| s.tight[(x / m) * k + x % m]).collect();
    }
    let w: Vec<i64> = cells
        .iter()
        .map(|c| {
            c.as_ref()
                .map_or(0, |((num, d), _)| (num * (den / d)) as i64)
        })
        .collect();
    if n <= m {
        hungarian(n, m, |r, c| w[r * m + c]).tight
    } else {
        let t = hungarian(m, n, |c, r| w[r * m + c]).tight;
        (0..n * m).map(|x| t[(x % m) * n + x / m]).collect()
    }
}

/// [`hungarian`] on the cells' exact weights (item F1, credit) over
/// common denominators: `i128` when they fit, else big integers. Cells
/// beyond `n` × `m` (padding to `k` × `k`) weigh 0.
fn run_hungarian(
    cells: &[Option<((u128, u128), Credit)>],
    k: usize,
    n: usize,
    m: usize,
) -> Solution {
    match small_weights(cells, k) {
        Some(w) => hungarian(k, k, |r, c| {
            if r < n && c < m {
                w[r * m + c].clone()
            } else {
                Lex::<i128>::default()
            }
        }),
        None => {
            let w = big_weights(cells);
            hungarian(k, k, |r, c| {
                if r < n && c < m {
                    w[r * m + c].clone()
                } else {
                    Lex::<BigInt>::default()
                }
            })
        }
    }
}

/// When each row and each column has at most one non-zero entry, the
/// optimal assignment is those entries (and the only optimal one).
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

/// When every truth item with a non-zero partner has one strictly best
/// partner (its item F1 compared as exact fractions) and no two truth
/// items share it, matching each with it is the only assignment with the
/// maximal total item F1: each truth item then gets its own maximum, and
/// an assignment that gave any of them another partner would total
/// strictly less. So no solve and no partial credit is needed (SPEC §3.4
/// and §7.3 pick this very assignment). `None` when that does not hold
/// or a value has no exact form.
fn distinct_best_assignment(f1: &F1Grid) -> Option<Vec<ItemMatch>> {
    let exact = |i: usize, j: usize| {
        let v = f1.at(i, j);
        if v > 0.0 {
            f1.exact_f1(i, j).or_else(|| dyadic(v)).map(Some)
        } else {
            Some(None)
        }
    };
    let mut col_used = vec![false; f1.cols];
    let mut pairs = Vec::new();
    for i in 0..f1.rows {
        // The row's best (numerator, denominator, column) and whether
        // another column equals it.
        let mut best: Option<(u128, u128, usize)> = None;
        let mut tied = false;
        for j in 0..f1.cols {
            let Some((num, den)) = exact(i, j)? else {
                continue;
            };
            match best {
                Some((b_num, b_den, _)) => {
                    // a/b vs c/d as a·d vs c·b: numerators and
                    // denominators are small (counts of fields, or
                    // dyadic fractions up to 2⁶⁰ from a hand-built grid).
                    let (l, r) = (num.checked_mul(b_den)?, b_num.checked_mul(den)?);
                    if l > r {
                        best = Some((num, den, j));
                        tied = false;
                    } else if l == r {
                        tied = true;
                    }
                }
                None => best = Some((num, den, j)),
            }
        }
        if let Some((_, _, j)) = best {
            if tied || col_used[j] {
                return None;
            }
            col_used[j] = true;
            pairs.push(ItemMatch {
                truth: i,
                pred: j,
                f1: f1.at(i, j),
            });
        }
    }
    Some(pairs)
}

/// Least common multiple, `None` on overflow.
fn lcm(a: u128, b: u128) -> Option<u128> {
    fn gcd(mut a: u128, mut b: u128) -> u128 {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    }
    (a / gcd(a, b)).checked_mul(b)
}

/// The cells' fractions over one denominator each (item F1, credit) as
/// `i128`, when every sum the solver forms stays far inside `i128`.
fn small_weights(cells: &[Option<((u128, u128), Credit)>], k: usize) -> Option<Vec<Lex<i128>>> {
    let (mut da, mut db) = (1u128, 1u128);
    let mut most_fields = 1u128;
    for ((_, den), c) in cells.iter().flatten() {
        da = lcm(da, *den)?;
        for &(_, d) in &c.fractions {
            db = lcm(db, d)?;
        }
        most_fields = most_fields.max(u128::from(c.exact) + c.fractions.len() as u128);
    }
    // Potentials and sums stay below 4·(k + 1)·(largest weight).
    let limit = (i128::MAX as u128) / (8 * (k as u128 + 1));
    if da > limit || db.checked_mul(most_fields)? > limit {
        return None;
    }
    Some(
        cells
            .iter()
            .map(|cell| match cell {
                None => Lex::default(),
                Some(((num, den), c)) => {
                    let a = num * (da / den);
                    let b = u128::from(c.exact) * db
                        + c.fractions.iter().map(|&(n, d)| n * (db / d)).sum::<u128>();
                    Lex(a as i128, b as i128)
                }
            })
            .collect(),
    )
}

/// [`small_weights`] as big integers (no bound; the common denominators
/// are the products of the distinct denominators).
fn big_weights(cells: &[Option<((u128, u128), Credit)>]) -> Vec<Lex<BigInt>> {
    let mut dens_a = std::collections::BTreeSet::new();
    let mut dens_b = std::collections::BTreeSet::new();
    for ((_, den), c) in cells.iter().flatten() {
        dens_a.insert(*den);
        dens_b.extend(c.fractions.iter().map(|&(_, d)| d));
    }
    let product = |dens: &std::collections::BTreeSet<u128>| {
        dens.iter()
            .fold(BigInt::from(1u8), |acc, &d| acc * BigInt::from(d))
    };
    let (da, db) = (product(&dens_a), product(&dens_b));
    cells
        .iter()
        .map(|cell| match cell {
            None => Lex::default(),
            Some(((num, den), c)) => {
                let a = BigInt::from(*num) * (&da / BigInt::from(*den));
                let mut b = BigInt::from(c.exact) * &db;
                for &(n, d) in &c.fractions {
                    b += BigInt::from(n) * (&db / BigInt::from(d));
                }
                Lex(a, b)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
