//! The exact assignment behind SPEC §3.4's item matching with §7.3's
//! tie-break: a square Hungarian algorithm over weights that are compared
//! exactly (pairs of integers, lexicographically), then the
//! lexicographically smallest optimal assignment in row order.
//!
//! Owns: [`Lex`], [`Weight`], [`solve`]. Pure; depends on `num-bigint`
//! only (for weights too large for `i128`).

use num_bigint::BigInt;

/// A weight compared lexicographically: first the primary total (item F1),
/// then the secondary (partial credit). Sums are taken component by
/// component, which keeps the order (an ordered group), so the Hungarian
/// algorithm maximises the primary total and, among its maxima, the
/// secondary.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Lex<T>(pub T, pub T);

/// What the solver needs of a weight: exact sums and differences.
pub trait Weight: Clone + Ord {
    fn plus(&self, other: &Self) -> Self;
    fn minus(&self, other: &Self) -> Self;
}

/// A single exact total (the first stage of item matching: item F1 alone).
impl Weight for i64 {
    fn plus(&self, o: &Self) -> Self {
        self + o
    }
    fn minus(&self, o: &Self) -> Self {
        self - o
    }
}

impl Weight for Lex<i128> {
    fn plus(&self, o: &Self) -> Self {
        Lex(self.0 + o.0, self.1 + o.1)
    }
    fn minus(&self, o: &Self) -> Self {
        Lex(self.0 - o.0, self.1 - o.1)
    }
}

impl Weight for Lex<BigInt> {
    fn plus(&self, o: &Self) -> Self {
        Lex(&self.0 + &o.0, &self.1 + &o.1)
    }
    fn minus(&self, o: &Self) -> Self {
        Lex(&self.0 - &o.0, &self.1 - &o.1)
    }
}

/// The assignment of the `k` × `k` problem (`weight(i, j)`) with the
/// maximal total weight, and among those the one whose sequence of
/// "matched" columns in row order is lexicographically smallest, where
/// row `i` counts as matched to column `j` when `matched(i, j)`, and an
/// unmatched row ranks after every column. Returns the column of each
/// row.
///
/// The Hungarian algorithm (shortest augmenting paths with potentials,
/// O(k³)) gives one maximal assignment and potentials `u`, `v` with
/// `u_i + v_j ≥ w_ij`, equal on the assignment; an assignment is maximal
/// exactly when it uses only such tight pairs (complementary slackness).
/// The rows are then fixed in order, each to the smallest matched column
/// it can take while the rows after it can still be assigned within the
/// tight pairs (one alternating path each try), else to "unmatched".
pub fn solve<W: Weight + Default>(
    k: usize,
    weight: impl Fn(usize, usize) -> W,
    matched: impl Fn(usize, usize) -> bool,
) -> Vec<usize> {
    let mut s = hungarian(k, k, weight);
    smallest_in_order(k, &s.tight, &matched, &mut s.col_of, &mut s.row_of);
    s.col_of
}

/// A maximal assignment and the pairs some maximal assignment may use.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The column of each row, and the row of each column.
    pub col_of: Vec<usize>,
    pub row_of: Vec<usize>,
    /// Row by row, `k` × `k`: whether the pair is tight (`u_i + v_j = w_ij`
    /// for the final potentials). An assignment is maximal exactly when
    /// it uses only tight pairs.
    pub tight: Vec<bool>,
}

/// The Hungarian algorithm on the `n` × `m` weights, `n` ≤ `m` (every
/// row assigned; maximising; shortest augmenting paths with potentials,
/// O(n²m)): one maximal assignment and the tight pairs (`n` × `m`, row by
/// row). With `n` < `m` the potentials of unassigned columns stay 0, so
/// an assignment is maximal exactly when it uses only tight pairs and
/// every column with a non-zero potential.
pub fn hungarian<W: Weight + Default>(
    n: usize,
    m: usize,
    weight: impl Fn(usize, usize) -> W,
) -> Solution {
    let k = m;
    if n == 0 || m == 0 || n > m {
        return Solution {
            col_of: Vec::new(),
            row_of: Vec::new(),
            tight: Vec::new(),
        };
    }
    // Minimise cost = −weight: u_i + v_j ≤ cost_ij (1-based, e-maxx).
    let zero = W::default();
    let costs: Vec<W> = (0..n * m)
        .map(|x| zero.minus(&weight(x / m, x % m)))
        .collect();
    let cost = |i: usize, j: usize| &costs[(i - 1) * m + (j - 1)];
    let mut u = vec![zero.clone(); n + 1];
    let mut v = vec![zero.clone(); k + 1];
    let mut p = vec![0usize; k + 1];
    let mut way = vec![0usize; k + 1];
    let mut minv: Vec<Option<W>> = vec![None; k + 1];
    let mut used = vec![false; k + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        minv.iter_mut().for_each(|m| *m = None);
        used.iter_mut().for_each(|b| *b = false);
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta: Option<W> = None;
            let mut j1 = 0;
            for j in 1..=k {
                if used[j] {
                    continue;
                }
                let cur = cost(i0, j).minus(&u[i0]).minus(&v[j]);
                if minv[j].as_ref().is_none_or(|m| cur < *m) {
                    minv[j] = Some(cur);
                    way[j] = j0;
                }
                if let Some(m) = &minv[j] {
                    if delta.as_ref().is_none_or(|d| m < d) {
                        delta = Some(m.clone());
                        j1 = j;
                    }
                }
            }
            let delta = delta.unwrap_or_default();
            for j in 0..=k {
                if used[j] {
                    u[p[j]] = u[p[j]].plus(&delta);
                    v[j] = v[j].minus(&delta);
                } else if let Some(m) = &mut minv[j] {
                    *m = m.minus(&delta);
                }
            }
            j0 = j1;
            if p[j0] == 0 || j1 == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut col_of = vec![0usize; n];
    let mut row_of = vec![usize::MAX; m];
    for j in 1..=k {
        if p[j] > 0 {
            col_of[p[j] - 1] = j - 1;
            row_of[j - 1] = p[j] - 1;
        }
    }
    let tight: Vec<bool> = (0..n * m)
        .map(|x| {
            let (i, j) = (x / m, x % m);
            u[i + 1].plus(&v[j + 1]) == *cost(i + 1, j + 1)
        })
        .collect();
    Solution {
        col_of,
        row_of,
        tight,
    }
}

/// Each row's state while the rows are fixed in order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lock {
    Open,
    /// Fixed to its current column.
    Matched,
    /// Fixed to "unmatched": may move between its unmatched tight columns.
    Unmatched,
}

/// Turns the tight perfect assignment (`col_of`, `row_of`) into the
/// lexicographically smallest one (see [`solve`]).
pub fn smallest_in_order(
    k: usize,
    tight: &[bool],
    matched: &impl Fn(usize, usize) -> bool,
    col_of: &mut [usize],
    row_of: &mut [usize],
) {
    let mut lock = vec![Lock::Open; k];
    let mut seen = vec![false; k];
    let mut path: Vec<(usize, usize)> = Vec::new();
    for i in 0..k {
        let current = col_of[i];
        let mut fixed = false;
        for j in (0..k).filter(|&j| tight[i * k + j] && matched(i, j)) {
            if j == current {
                fixed = true;
                break;
            }
            let other = row_of[j];
            if lock[other] == Lock::Matched {
                continue;
            }
            // Can `other` give up `j` and reach the column `i` frees?
            seen.iter_mut().for_each(|s| *s = false);
            seen[i] = true;
            path.clear();
            let ctx = Search {
                k,
                tight,
                matched,
                lock: &lock,
                col_of,
                row_of,
                banned: j,
                target: current,
            };
            if ctx.reach(other, &mut seen, &mut path) {
                for &(r, c) in &path {
                    col_of[r] = c;
                    row_of[c] = r;
                }
                col_of[i] = j;
                row_of[j] = i;
                fixed = true;
                break;
            }
        }
        lock[i] = if fixed && matched(i, col_of[i]) {
            Lock::Matched
        } else {
            Lock::Unmatched
        };
    }
}

/// A search for an alternating path of tight pairs.
struct Search<'s, M> {
    k: usize,
    tight: &'s [bool],
    matched: &'s M,
    lock: &'s [Lock],
    col_of: &'s [usize],
    row_of: &'s [usize],
    /// The column no row of the path may take.
    banned: usize,
    /// The free column the path must end in.
    target: usize,
}

impl<M: Fn(usize, usize) -> bool> Search<'_, M> {
    /// Whether row `r` can move to another tight column, the row there
    /// moving on in turn, until one takes `target`; `path` gets the moves.
    fn reach(&self, r: usize, seen: &mut [bool], path: &mut Vec<(usize, usize)>) -> bool {
        seen[r] = true;
        for c in 0..self.k {
            if c == self.banned || c == self.col_of[r] || !self.tight[r * self.k + c] {
                continue;
            }
            if self.lock[r] == Lock::Unmatched && (self.matched)(r, c) {
                continue;
            }
            let next = self.row_of[c];
            let ok = c == self.target
                || (!seen[next]
                    && self.lock[next] != Lock::Matched
                    && self.reach(next, seen, path));
            if ok {
                path.push((r, c));
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(w: &[&[i128]]) -> Vec<usize> {
        let k = w.len();
        solve(k, |i, j| Lex(w[i][j], 0), |i, j| w[i][j] > 0)
    }

    #[test]
    fn maximal_total() {
        assert_eq!(run(&[&[9, 8], &[8, 1]]), [1, 0]);
        assert_eq!(run(&[&[0, 0, 5], &[5, 1, 0], &[0, 5, 2]]), [2, 0, 1]);
    }

    #[test]
    fn ties_give_the_smallest_indices_in_row_order() {
        assert_eq!(run(&[&[1, 1], &[1, 1]]), [0, 1]);
        // Both assignments total 2; [1, 0] is not smaller than [0, 1]...
        assert_eq!(run(&[&[1, 1, 1], &[1, 1, 1], &[1, 1, 1]]), [0, 1, 2]);
        // ...and an unmatched row ranks after every column: one column
        // for two rows, the first row gets it.
        assert_eq!(run(&[&[1, 0], &[1, 0]]), [0, 1]);
        assert_eq!(run(&[&[0, 1], &[0, 1]]), [1, 0]);
    }

    #[test]
    fn secondary_decides_among_primary_maxima() {
        let w = [[Lex(1, 1), Lex(1, 5)], [Lex(0, 0), Lex(0, 0)]];
        assert_eq!(
            solve(2, |i, j| w[i][j].clone(), |i, j| w[i][j].0 > 0),
            [1, 0]
        );
        let w = [[Lex(1, 5), Lex(2, 0)], [Lex(0, 0), Lex(0, 0)]];
        assert_eq!(
            solve(2, |i, j| w[i][j].clone(), |i, j| w[i][j].0 > 0),
            [1, 0]
        );
    }

    #[test]
    fn big_integers_agree() {
        let w = [[3i64, 3, 1], [3, 3, 0], [1, 0, 0]];
        let small = solve(3, |i, j| Lex(w[i][j] as i128, 0), |i, j| w[i][j] > 0);
        let big = solve(
            3,
            |i, j| Lex(BigInt::from(w[i][j]), BigInt::from(0)),
            |i, j| w[i][j] > 0,
        );
        assert_eq!(small, big);
        // Totals 6 for [0, 1, 2] and [1, 0, 2] (row 2 unmatched in both).
        assert_eq!(small, [0, 1, 2]);
    }
}
