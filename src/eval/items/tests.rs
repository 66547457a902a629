//! Unit tests of `items`: the assignment of predicted to true items (ties, totals, brute force).

use super::*;

fn pairs(m: &[ItemMatch]) -> Vec<(usize, usize)> {
    m.iter().map(|p| (p.truth, p.pred)).collect()
}

fn grid(rows: &[Vec<f64>]) -> F1Grid {
    F1Grid {
        rows: rows.len(),
        cols: rows.first().map_or(0, Vec::len),
        values: rows.concat(),
        ..F1Grid::default()
    }
}

fn match_items(rows: &[Vec<f64>]) -> Vec<ItemMatch> {
    super::match_items(&grid(rows), |_, _, c| *c = Credit::default())
}

#[test]
fn equal_item_f1_is_decided_by_partial_credit_then_order() {
    // SPEC §7.3's example: t0–p0 and t0–p1 both have item F1 0.5;
    // credits 1 + 1/8 and 1 + 6/8; t1 matches neither.
    let f1 = grid(&[vec![0.5, 0.5], vec![0.0, 0.0]]);
    let credit = |i: usize, j: usize, c: &mut Credit| {
        *c = Credit {
            exact: 1,
            fractions: vec![(if (i, j) == (0, 0) { 1 } else { 6 }, 8)],
        }
    };
    assert_eq!(pairs(&super::match_items(&f1, credit)), [(0, 1)]);
    // The old reading (ties keep the original order) took (0, 0).
    assert_eq!(
        pairs(&match_items(&[vec![0.5, 0.5], vec![0.0, 0.0]])),
        [(0, 0)]
    );
    // Credits that differ by less than any float rounding could hide:
    // 1/999_999_999_989 against 1/999_999_999_999 (both primes' sized).
    let credit = |_: usize, j: usize, c: &mut Credit| {
        *c = Credit {
            exact: 0,
            fractions: vec![(
                1,
                if j == 0 {
                    999_999_999_999
                } else {
                    999_999_999_989
                },
            )],
        }
    };
    assert_eq!(pairs(&super::match_items(&f1, credit)), [(0, 1)]);
}

#[test]
fn totals_too_large_for_i128_are_still_exact() {
    // 40 distinct large denominators: their product overflows i128,
    // so the big-integer path decides; credit 1/d_j is largest for the
    // smallest denominator, the last column.
    let dens: Vec<u128> = (0..40).map(|j| 1_000_000_007 - 2 * j as u128).collect();
    let f1 = grid(&[vec![0.5; 40]]);
    let credit = |_: usize, j: usize, c: &mut Credit| {
        *c = Credit {
            exact: 0,
            fractions: vec![(1, dens[j])],
        }
    };
    assert_eq!(pairs(&super::match_items(&f1, credit)), [(0, 39)]);
}

#[test]
fn distinct_strict_bests_are_the_only_maximal_assignment() {
    // t0's best is p1 (0.75 > 0.5), t1's is p0 (1 > 0.25): distinct,
    // so the answer needs no solve; it is the brute-force optimum.
    let g = grid(&[vec![0.5, 0.75], vec![1.0, 0.25]]);
    assert_eq!(
        distinct_best_assignment(&g).as_deref().map(pairs),
        Some(vec![(0, 1), (1, 0)])
    );
    assert_eq!(
        pairs(&match_items(&[vec![0.5, 0.75], vec![1.0, 0.25]])),
        [(0, 1), (1, 0)]
    );
    // A row whose best is tied, or two rows with one best, are left to
    // the solver (the assignment there is decided by §7.3).
    assert!(distinct_best_assignment(&grid(&[vec![0.5, 0.5], vec![0.0, 0.25]])).is_none());
    assert!(distinct_best_assignment(&grid(&[vec![1.0, 0.75], vec![0.5, 0.25]])).is_none());
    // A row of zeros stays unmatched.
    let g = grid(&[vec![0.0, 0.0], vec![0.25, 0.5]]);
    assert_eq!(
        distinct_best_assignment(&g).as_deref().map(pairs),
        Some(vec![(1, 1)])
    );
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

/// The matcher against brute force on random small grids built from
/// counts: every one-to-one partial assignment (pairs with item F1 > 0
/// only) is ranked by total item F1 (×60: exact for |t| + |p| ≤ 6),
/// then total credit (×8), then the sequence of prediction indices in
/// truth order (unmatched last).
#[test]
fn agrees_with_brute_force_on_random_grids() {
    /// The best (totals, index key, sequence) so far.
    type Best = Option<((u64, u64), Vec<usize>, Vec<Option<usize>>)>;
    fn best(
        rows: usize,
        cols: usize,
        f: &dyn Fn(usize, usize) -> Option<(u64, u64)>,
    ) -> Vec<Option<usize>> {
        let mut best: Best = None;
        let mut seq = vec![None; rows];
        fn rec(
            i: usize,
            rows: usize,
            cols: usize,
            used: &mut Vec<bool>,
            seq: &mut Vec<Option<usize>>,
            f: &dyn Fn(usize, usize) -> Option<(u64, u64)>,
            best: &mut Best,
        ) {
            if i == rows {
                let mut total = (0, 0);
                for (r, c) in seq.iter().enumerate() {
                    if let Some(c) = c {
                        let (a, b) = f(r, *c).unwrap_or((0, 0));
                        total = (total.0 + a, total.1 + b);
                    }
                }
                let key: Vec<usize> = seq.iter().map(|c| c.unwrap_or(usize::MAX)).collect();
                let better = match best {
                    None => true,
                    Some((t, k, _)) => total > *t || (total == *t && key < *k),
                };
                if better {
                    *best = Some((total, key, seq.clone()));
                }
                return;
            }
            seq[i] = None;
            rec(i + 1, rows, cols, used, seq, f, best);
            for c in 0..cols {
                if !used[c] && f(i, c).is_some() {
                    used[c] = true;
                    seq[i] = Some(c);
                    rec(i + 1, rows, cols, used, seq, f, best);
                    used[c] = false;
                    seq[i] = None;
                }
            }
        }
        rec(
            0,
            rows,
            cols,
            &mut vec![false; cols],
            &mut seq,
            f,
            &mut best,
        );
        best.map(|b| b.2).unwrap_or_default()
    }
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..3000 {
        let (rows, cols) = (rng.usize(1..=4), rng.usize(1..=4));
        let tp: Vec<u32> = (0..rows).map(|_| rng.u32(1..=3)).collect();
        let pp: Vec<u32> = (0..cols).map(|_| rng.u32(1..=3)).collect();
        let mut grid = F1Grid {
            rows,
            cols,
            truth_present: tp.clone(),
            pred_present: pp.clone(),
            ..F1Grid::default()
        };
        let mut credits = Vec::new();
        for &t in &tp {
            for &p in &pp {
                let c = if rng.bool() { 0 } else { rng.u32(0..=t.min(p)) };
                grid.correct.push(c);
                let (pr, rc) = (f64::from(c) / f64::from(p), f64::from(c) / f64::from(t));
                grid.values.push(harmonic(pr, rc));
                credits.push((u64::from(c) + rng.u64(0..=1), rng.u64(0..8)));
            }
        }
        let f = |i: usize, j: usize| {
            let c = u64::from(grid.correct[i * cols + j]);
            (c > 0).then(|| {
                let (e, x) = credits[i * cols + j];
                (120 * c / u64::from(tp[i] + pp[j]), 8 * e + x)
            })
        };
        let expected = best(rows, cols, &f);
        let got = super::match_items(&grid, |i, j, out| {
            let (e, x) = credits[i * cols + j];
            *out = Credit {
                exact: e,
                fractions: vec![(u128::from(x), 8)],
            };
        });
        let mut seq = vec![None; rows];
        for m in &got {
            seq[m.truth] = Some(m.pred);
        }
        assert_eq!(seq, expected, "{grid:?} {credits:?}");
    }
}
