//! The Munkres (Hungarian) algorithm exactly as the `munkres` Python
//! package 1.1.4 (Brian M. Clapper, <https://software.clapper.org/munkres/>)
//! runs it, floating-point steps and tie-breaking included, because ANLS\*
//! (`anls_star`) takes its list matching from that package.
//!
//! Why not `pathfinding::kuhn_munkres`, which the line items use? Both find
//! an optimal *total*, but when several assignments reach it they may pick
//! different ones, and ANLS\* divides by a length that depends on the pairs
//! chosen. Truth `[{"c":"x","b":"z"}, {"b":"z","c":"x","a":"z"}]` against
//! `[{"b":"z","c":"y","a":"y"}]`: both pairs average 1/3 (one key of
//! three right); munkres matches the first truth item, giving
//! 1 / (3 + 3) = 1/6 (the unmatched item's 3 leaves count), where matching
//! the second would give 1 / (3 + 2) = 1/5. Scaling the weights to integers
//! (as `items.rs` does, ×1e9) would also merge values closer than 1e-9 and
//! lose the one-ulp bonus `anls_star` gives exact matches. Reproducing the
//! reference means running its algorithm: this port (about 200 lines). Its
//! optimality is checked against `pathfinding` in the tests below.
//!
//! Owns: [`compute`] and its bounded form [`compute_bounded`]. Depends on:
//! nothing.

/// The cell marks of the algorithm.
const NONE: u8 = 0;
const STAR: u8 = 1;
const PRIME: u8 = 2;

/// `munkres.make_cost_matrix(profit)` followed by `Munkres().compute(cost)`
/// for a non-empty rectangular profit matrix (`rows × cols`, row-major):
/// the `(row, column)` pairs of a maximum-profit assignment, in the order
/// the package returns them (by row, then column). The cost of a cell is
/// `max(profit) − profit` (f64, as Python computes it); a non-square matrix
/// is padded with cost 0 to `n × n`, `n = max(rows, cols)`.
///
/// Returns `None` where the package would raise (`UnsolvableMatrix`,
/// which cannot happen for finite input) or when the step budget runs out
/// (a guard against floating-point cycling, which would hang the
/// reference; never seen). No bound on the work: see [`compute_bounded`].
pub fn compute(profit: &[f64], rows: usize, cols: usize) -> Option<Vec<(usize, usize)>> {
    let mut unbounded = u64::MAX;
    compute_bounded(profit, rows, cols, &mut unbounded).ok()
}

/// Why [`compute_bounded`] gave no assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Where the package raises (or would cycle).
    Unsolvable,
    /// The work would exceed the budget.
    OverBudget,
}

/// [`compute`] within `budget` units of work, taken from it: 9 n² for the
/// padded matrix and its marks (bytes), then n² for each step and for
/// each search for a zero inside step 4 (each scans the matrix at most a
/// constant number of times). Fails with [`Failure::OverBudget`] before
/// allocating when the matrix alone is over it, and as soon as the budget
/// runs out.
pub fn compute_bounded(
    profit: &[f64],
    rows: usize,
    cols: usize,
    budget: &mut u64,
) -> Result<Vec<(usize, usize)>, Failure> {
    if rows == 0 || cols == 0 || profit.len() != rows * cols {
        return Err(Failure::Unsolvable);
    }
    let n = rows.max(cols);
    let square = (n as u64)
        .checked_mul(n as u64)
        .ok_or(Failure::OverBudget)?;
    *budget = budget
        .checked_sub(square.saturating_mul(9))
        .ok_or(Failure::OverBudget)?;
    let maximum = profit.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut c = vec![0.0f64; n * n];
    for i in 0..rows {
        for j in 0..cols {
            c[i * n + j] = maximum - profit[i * cols + j];
        }
    }
    let mut m = State {
        n,
        c,
        marked: vec![NONE; n * n],
        row_covered: vec![false; n],
        col_covered: vec![false; n],
        z0: (0, 0),
        square,
        budget: *budget,
    };
    let mut step = 1u8;
    // Each pass through steps 3–6 either adds a starred zero (at most n
    // times) or covers a row (at most n times between additions); the
    // step count is far above what a correct run needs.
    let mut steps: u64 = (n as u64)
        .saturating_pow(3)
        .saturating_mul(16)
        .saturating_add(64);
    loop {
        if steps == 0 {
            return Err(Failure::Unsolvable);
        }
        steps -= 1;
        if !m.charge() {
            *budget = 0;
            return Err(Failure::OverBudget);
        }
        step = match step {
            1 => m.step1(),
            2 => m.step2(),
            3 => m.step3(),
            4 => m.step4(),
            5 => m.step5(),
            6 => m.step6().ok_or(Failure::Unsolvable)?,
            OVER_BUDGET => {
                *budget = 0;
                return Err(Failure::OverBudget);
            }
            _ => break,
        };
    }
    *budget = m.budget;
    let mut out = Vec::new();
    for i in 0..rows {
        for j in 0..cols {
            if m.marked[i * n + j] == STAR {
                out.push((i, j));
            }
        }
    }
    Ok(out)
}

struct State {
    n: usize,
    c: Vec<f64>,
    marked: Vec<u8>,
    row_covered: Vec<bool>,
    col_covered: Vec<bool>,
    z0: (usize, usize),
    /// n², what one scan of the matrix costs.
    square: u64,
    /// The work left.
    budget: u64,
}

/// What step 4 returns when the budget runs out.
const OVER_BUDGET: u8 = 0;

impl State {
    /// Takes one scan's cost from the budget; `false` when it is spent.
    fn charge(&mut self) -> bool {
        match self.budget.checked_sub(self.square) {
            Some(left) => {
                self.budget = left;
                true
            }
            None => false,
        }
    }

    fn at(&self, i: usize, j: usize) -> f64 {
        self.c[i * self.n + j]
    }

    /// Subtract each row's minimum from the row.
    fn step1(&mut self) -> u8 {
        let n = self.n;
        for i in 0..n {
            let row = &mut self.c[i * n..(i + 1) * n];
            let minval = row.iter().copied().fold(f64::INFINITY, f64::min);
            for x in row.iter_mut() {
                *x -= minval;
            }
        }
        2
    }

    /// Star the first zero of each row whose row and column hold no star.
    fn step2(&mut self) -> u8 {
        let n = self.n;
        for i in 0..n {
            for j in 0..n {
                if self.at(i, j) == 0.0 && !self.col_covered[j] && !self.row_covered[i] {
                    self.marked[i * n + j] = STAR;
                    self.col_covered[j] = true;
                    self.row_covered[i] = true;
                    break;
                }
            }
        }
        self.clear_covers();
        3
    }

    /// Cover starred columns; done when all n are covered.
    fn step3(&mut self) -> u8 {
        let n = self.n;
        let mut count = 0;
        for i in 0..n {
            for j in 0..n {
                if self.marked[i * n + j] == STAR && !self.col_covered[j] {
                    self.col_covered[j] = true;
                    count += 1;
                }
            }
        }
        if count >= n {
            7
        } else {
            4
        }
    }

    /// Prime uncovered zeros until one has no star in its row.
    fn step4(&mut self) -> u8 {
        let (mut row, mut col) = (0usize, 0usize);
        loop {
            if !self.charge() {
                return OVER_BUDGET;
            }
            match self.find_a_zero(row, col) {
                None => return 6,
                Some((r, c)) => {
                    // The next search starts at this row and, when the row
                    // holds a star, at the star's column.
                    row = r;
                    self.marked[r * self.n + c] = PRIME;
                    match self.find_in_row(r, STAR) {
                        Some(star_col) => {
                            col = star_col;
                            self.row_covered[r] = true;
                            self.col_covered[star_col] = false;
                        }
                        None => {
                            self.z0 = (r, c);
                            return 5;
                        }
                    }
                }
            }
        }
    }

    /// Augment along the alternating path of primes and stars.
    fn step5(&mut self) -> u8 {
        let n = self.n;
        let mut path = vec![self.z0];
        loop {
            let last_col = path[path.len() - 1].1;
            let Some(row) = (0..n).find(|&i| self.marked[i * n + last_col] == STAR) else {
                break;
            };
            path.push((row, last_col));
            // The package indexes with -1 (the last column) if no prime is
            // found; the algorithm guarantees one.
            let col = self.find_in_row(row, PRIME).unwrap_or(n - 1);
            path.push((row, col));
        }
        for &(i, j) in &path {
            let cell = &mut self.marked[i * n + j];
            *cell = if *cell == STAR { NONE } else { STAR };
        }
        self.clear_covers();
        for cell in self.marked.iter_mut() {
            if *cell == PRIME {
                *cell = NONE;
            }
        }
        3
    }

    /// Add the smallest uncovered value to covered rows, subtract it from
    /// uncovered columns.
    fn step6(&mut self) -> Option<u8> {
        let n = self.n;
        let mut minval = f64::INFINITY;
        for i in 0..n {
            for j in 0..n {
                if !self.row_covered[i] && !self.col_covered[j] && minval > self.at(i, j) {
                    minval = self.at(i, j);
                }
            }
        }
        if !minval.is_finite() {
            return None;
        }
        let mut events = 0i64;
        for i in 0..n {
            for j in 0..n {
                if self.row_covered[i] {
                    self.c[i * n + j] += minval;
                    events += 1;
                }
                if !self.col_covered[j] {
                    self.c[i * n + j] -= minval;
                    events += 1;
                }
                if self.row_covered[i] && !self.col_covered[j] {
                    events -= 2;
                }
            }
        }
        if events == 0 {
            return None;
        }
        Some(4)
    }

    /// The package's `__find_a_zero(i0, j0)`: scan rows from `i0` (wrapping),
    /// each from column `j0` (wrapping); the last uncovered zero found in
    /// the first row that has one.
    fn find_a_zero(&self, i0: usize, j0: usize) -> Option<(usize, usize)> {
        let n = self.n;
        let mut found = None;
        let mut i = i0;
        loop {
            let mut j = j0;
            loop {
                if self.at(i, j) == 0.0 && !self.row_covered[i] && !self.col_covered[j] {
                    found = Some((i, j));
                }
                j = (j + 1) % n;
                if j == j0 {
                    break;
                }
            }
            if found.is_some() {
                return found;
            }
            i = (i + 1) % n;
            if i == i0 {
                return None;
            }
        }
    }

    fn find_in_row(&self, row: usize, mark: u8) -> Option<usize> {
        (0..self.n).find(|&j| self.marked[row * self.n + j] == mark)
    }

    fn clear_covers(&mut self) {
        self.row_covered.fill(false);
        self.col_covered.fill(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathfinding::kuhn_munkres::kuhn_munkres;
    use pathfinding::matrix::Matrix;

    fn total(profit: &[f64], cols: usize, pairs: &[(usize, usize)]) -> f64 {
        pairs.iter().map(|&(i, j)| profit[i * cols + j]).sum()
    }

    #[test]
    fn the_packages_documented_example() {
        // munkres 1.1.4's module docs use the cost matrix
        // [[5,9,1],[10,3,2],[8,7,4]]; as profits (negated) two assignments
        // tie at cost 12 — the diagonal (5+3+4) and (0,2),(1,1),(2,0)
        // (1+3+8) — and the package (run on the same profits through
        // make_cost_matrix) returns the second.
        let profit = [-5.0, -9.0, -1.0, -10.0, -3.0, -2.0, -8.0, -7.0, -4.0];
        assert_eq!(compute(&profit, 3, 3), Some(vec![(0, 2), (1, 1), (2, 0)]));
    }

    #[test]
    fn rectangular_matrices_leave_the_extra_rows_or_columns_out() {
        // By hand: (0,0)+(1,1) = 0.4+0.8 = 1.2 < (0,1)+(1,0) = 0.9+0.5 =
        // 1.4, so the second.
        let profit = [0.4, 0.9, 0.5, 0.8];
        assert_eq!(compute(&profit, 2, 2), Some(vec![(0, 1), (1, 0)]));
        // 1 × 3: the best column.
        assert_eq!(compute(&[0.1, 0.7, 0.3], 1, 3), Some(vec![(0, 1)]));
        // 3 × 1: the best row.
        assert_eq!(compute(&[0.1, 0.7, 0.3], 3, 1), Some(vec![(1, 0)]));
    }

    #[test]
    fn ties_go_where_the_package_puts_them() {
        // All zero profits: the package stars the diagonal (step 2 stars
        // the first zero of each row in a free column).
        assert_eq!(compute(&[0.0; 6], 2, 3), Some(vec![(0, 0), (1, 1)]));
        assert_eq!(compute(&[0.0; 6], 3, 2), Some(vec![(0, 0), (1, 1)]));
    }

    #[test]
    fn the_budget_is_checked_before_the_matrix_is_allocated() {
        // 1 × 100 000 pads to 10¹⁰ cells: refused at once.
        let profit = vec![0.5; 100_000];
        assert_eq!(
            compute_bounded(&profit, 1, 100_000, &mut 1_000_000),
            Err(Failure::OverBudget)
        );
        // A 2 × 2 needs 36 for the matrix and 4 per step or search.
        let mut budget = 1000;
        assert!(compute_bounded(&[0.4, 0.9, 0.5, 0.8], 2, 2, &mut budget).is_ok());
        assert!(budget < 1000 - 36 && budget % 4 == 0, "{budget}");
        assert_eq!(
            compute_bounded(&[0.4, 0.9, 0.5, 0.8], 2, 2, &mut 40),
            Err(Failure::OverBudget)
        );
        // A 300 × 300 matrix of distinct profits runs out of 10⁶ units
        // (the matrix alone takes 810 000) instead of running on.
        let profit: Vec<f64> = (0..90_000).map(|k| ((k * 7919) % 90_001) as f64).collect();
        assert_eq!(
            compute_bounded(&profit, 300, 300, &mut 1_000_000),
            Err(Failure::OverBudget)
        );
    }

    #[test]
    fn empty_or_malformed_input_is_none() {
        assert_eq!(compute(&[], 0, 3), None);
        assert_eq!(compute(&[1.0, 2.0], 2, 2), None);
    }

    #[test]
    fn the_total_is_optimal_as_pathfinding_finds_it() {
        // An independent check of optimality on random matrices: the total
        // profit of this port's assignment equals pathfinding's optimum on
        // the same profits scaled to integers (values are multiples of 1/8,
        // so the scaling is exact).
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..300 {
            let rows = rng.usize(1..7);
            let cols = rng.usize(1..7);
            let profit: Vec<f64> = (0..rows * cols)
                .map(|_| rng.u8(0..9) as f64 / 8.0)
                .collect();
            let pairs = compute(&profit, rows, cols).expect("solvable");
            assert_eq!(pairs.len(), rows.min(cols));
            let (r, c) = if rows <= cols {
                (rows, cols)
            } else {
                (cols, rows)
            };
            let weights = Matrix::from_fn(r, c, |(i, j)| {
                let v = if rows <= cols {
                    profit[i * cols + j]
                } else {
                    profit[j * cols + i]
                };
                (v * 8.0) as i64
            });
            let (best, _) = kuhn_munkres(&weights);
            assert_eq!(total(&profit, cols, &pairs) * 8.0, best as f64);
        }
    }
}
