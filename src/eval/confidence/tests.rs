//! Hand-computed cases for every formula of SPEC §8.3–§8.4.

use super::sorted::width_bin;
use super::*;

fn p(confidence: f64, correct: bool) -> Pair {
    Pair {
        confidence,
        correct,
    }
}

/// Pairs from confidences and 0/1 correctness, in that order.
fn ps(c: &[f64], y: &[u8]) -> Vec<Pair> {
    c.iter().zip(y).map(|(&c, &y)| p(c, y == 1)).collect()
}

/// One tuple per row, to compare a table in one assertion.
fn cols<T, U>(rows: &[T], f: impl Fn(&T) -> U) -> Vec<U> {
    rows.iter().map(f).collect()
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() <= 1e-12, "{a} != {b}");
}

/// Tiny set, input order mixed: correct {1.0, 0.75}, incorrect {0.75, 0.25}.
fn tiny() -> Vec<Pair> {
    ps(&[0.75, 0.25, 1.0, 0.75], &[1, 0, 1, 0])
}

fn tiny_settings() -> ConfidenceSettings {
    ConfidenceSettings {
        bins: 2,
        thresholds: vec![0.0, 0.5, 0.8],
        target_accuracy: vec![0.5, 0.6, 0.9],
        review_budgets: vec![0.25, 0.5, 0.6],
        review_target: 0.2,
        min_pairs: 1,
    }
}

#[test]
fn tiny_set_every_score() {
    let g = group_scores(&tiny(), &tiny_settings()).unwrap();
    // accuracy 2/4; mean_confidence (0.75+0.25+1+0.75)/4 = 2.75/4
    assert_eq!((g.pairs, g.accuracy, g.mean_confidence), (4, 0.5, 0.6875));
    // (0.25² + 0.25² + 0² + 0.75²)/4 = (0.0625+0.0625+0.5625)/4 = 0.6875/4
    assert_eq!(g.brier, 0.171875);
    // bin0 [0,0.5): {0.25 F}: acc 0, conf 0.25. bin1 [0.5,1]: {0.75T,1T,0.75F}:
    // acc 2/3, conf 2.5/3 = 5/6.
    let b0 = &g.bins[0];
    assert_eq!((b0.low, b0.high, b0.count), (0.0, 0.5, 1));
    assert_eq!((b0.accuracy, b0.mean_confidence), (Some(0.0), Some(0.25)));
    let b1 = &g.bins[1];
    assert_eq!((b1.low, b1.high, b1.count), (0.5, 1.0, 3));
    close(b1.accuracy.unwrap(), 2.0 / 3.0);
    close(b1.mean_confidence.unwrap(), 5.0 / 6.0);
    // ece = 1/4·0.25 + 3/4·|2/3 − 5/6| = 1/16 + 3/4·1/6 = 0.0625 + 0.125
    close(g.ece, 0.1875);
    // mce = max(0.25, 1/6)
    assert_eq!(g.mce, 0.25);
    // equal mass, B = 2: r(0.25) = 0 → bin 0; r(0.75) = 1 → ⌊2/4⌋ = 0;
    // r(1.0) = 3 → ⌊6/4⌋ = 1. bin0 {0.25F,0.75T,0.75F}: acc 1/3, conf 1.75/3
    // = 7/12, gap 3/12, weight 3/4 → 3/16; bin1 {1.0T}: gap 0.
    close(g.ece_equal_mass, 0.1875);
    // (1.0>0.75, 1.0>0.25, 0.75=0.75 → ½, 0.75>0.25) = 3.5 / (2·2)
    assert_eq!(g.auroc, Some(0.875));
    // curve: τ=1: cov 1/4 risk 0; τ=0.75: cov 3/4 risk 1/3; τ=0.25: cov 1 risk 1/2
    // aurc = 0·1/4 + 1/3·(3/4 − 1/4) + 1/2·(1 − 3/4) = 1/6 + 1/8 = 7/24
    close(g.aurc, 7.0 / 24.0);
    let rows = cols(&g.thresholds, |r| {
        (r.threshold, r.accepted, r.coverage, r.accuracy)
    });
    assert_eq!(rows[0], (0.0, 4, 1.0, Some(0.5)));
    assert_eq!(rows[1], (0.5, 3, 0.75, Some(2.0 / 3.0))); // 2/3 one division
    assert_eq!(rows[2], (0.8, 1, 0.25, Some(1.0)));
    // accuracy by τ: 0.25 → 2/4, 0.75 → 2/3, 1.0 → 1/1
    assert_eq!(
        cols(&g.coverage_at_accuracy, |c| (
            c.target,
            c.threshold,
            c.coverage
        )),
        vec![
            (0.5, Some(0.25), 1.0),  // 2 ≥ 0.5·4
            (0.6, Some(0.75), 0.75), // 2 < 2.4 at 0.25; 2 ≥ 1.8 at 0.75
            (0.9, Some(1.0), 0.25)   // 2 < 2.7 at 0.75
        ]
    );
    // b = 0.25: k = 1, {0.25F} → 1/2. b = 0.5: k = 2, cut inside the 0.75
    // group (1 of 2 taken, 1 incorrect in it): 1 + 1·1/2 = 1.5 → 3/4.
    // b = 0.6: k = ⌈2.4⌉ = 3, both groups whole → 2/2.
    assert_eq!(
        cols(&g.error_capture, |e| (e.budget, e.reviewed, e.share)),
        vec![
            (0.25, 1, Some(0.5)),
            (0.5, 2, Some(0.75)),
            (0.6, 3, Some(1.0))
        ]
    );
    let curve = risk_coverage(&tiny());
    assert_eq!(
        cols(&curve, |c| (c.threshold, c.accepted, c.coverage, c.risk)),
        vec![
            (1.0, 1, 0.25, 0.0),
            (0.75, 3, 0.75, 1.0 / 3.0),
            (0.25, 4, 1.0, 0.5)
        ]
    );
}

#[test]
fn tiny_set_field_scores() {
    let mut s = tiny_settings();
    let f = field_scores(&tiny(), &s).unwrap();
    assert_eq!((f.pairs, f.accuracy, f.mean_confidence), (4, 0.5, 0.6875));
    close(f.ece, 0.1875);
    assert_eq!(f.auroc, Some(0.875));
    // Wilson z=1.96: τ=0.25 (2/4): (0.5 + 0.4802 − 1.96·√(0.0625+0.060025))
    // / 1.9604 = 0.150036 < 0.2; τ=0.75 (2/3): (2/3 + 0.640267 −
    // 1.96·√(2/27 + 0.106711)) / 2.280533 = 0.207655 ≥ 0.2.
    assert_eq!(f.recommended_threshold, Some(0.75));
    assert_eq!(f.coverage, 0.75);
    s.min_pairs = 5; // 4 pairs < 5
    let f = field_scores(&tiny(), &s).unwrap();
    assert_eq!((f.recommended_threshold, f.coverage), (None, 0.0));
}

#[test]
fn accepted_at_counts() {
    let s = SortedPairs::new(&tiny());
    assert_eq!((s.len(), s.correct()), (4, 2));
    assert_eq!(s.values(), &[0.25, 0.75, 1.0]);
    assert_eq!(accepted_at(&s, 0.0), (4, 2));
    assert_eq!(accepted_at(&s, 0.25), (4, 2));
    assert_eq!(accepted_at(&s, 0.2500001), (3, 2));
    assert_eq!(accepted_at(&s, 0.75), (3, 2));
    assert_eq!(accepted_at(&s, 0.76), (1, 1));
    assert_eq!(accepted_at(&s, 1.0), (1, 1));
    assert_eq!(accepted_at(&s, 1.01), (0, 0));
    assert_eq!(accepted_at(&s, f64::NAN), (0, 0));
}

#[test]
fn bin_edges() {
    // 0.8999999999999999·10 rounds to 9.0 but it is < 0.9 (bin 8);
    // 0.1·3 is 0.30000000000000004 (bin 3).
    let c = [0.0, 0.3, 0.7, 1.0, 0.8999999999999999, 0.1 * 3.0];
    let pairs = ps(&c, &[0, 1, 1, 1, 0, 0]);
    let g = group_scores(&pairs, &ConfidenceSettings::default()).unwrap();
    assert_eq!(cols(&g.bins, |b| b.count), [1, 0, 0, 2, 0, 0, 0, 1, 1, 1]);
    assert_eq!((g.bins[3].low, g.bins[3].high), (0.3, 0.4));
    assert_eq!((g.bins[9].low, g.bins[9].high), (0.9, 1.0));
    assert_eq!(g.bins[9].mean_confidence, Some(1.0));
    assert_eq!(g.bins[1].accuracy, None);
    // B = 3: the f64 edges 1/3 and 2/3 open bins 1 and 2.
    assert_eq!(width_bin(1.0 / 3.0, 3), 1);
    assert_eq!(width_bin(2.0 / 3.0, 3), 2);
    assert_eq!(width_bin(1.0, 3), 2);
    assert_eq!(width_bin(0.0, 3), 0);
    // (15/22)·22 = 14.999999999999998 in f64, yet 15/22 opens bin 15.
    assert_eq!(width_bin(15.0 / 22.0, 22), 15);
}

#[test]
fn auroc_with_ties() {
    let pairs = ps(&[0.6, 0.6, 0.9, 0.2, 0.6], &[1, 0, 1, 0, 1]);
    // 0.9: beats 0.6 and 0.2 → 2; each correct 0.6: ½ (vs 0.6) + 1 (vs 0.2)
    // → 1.5·2 = 3; total 5 / (3·2)
    let g = group_scores(&pairs, &ConfidenceSettings::default()).unwrap();
    assert_eq!(g.auroc, Some(5.0 / 6.0));
}

#[test]
fn aurc_and_capture_with_tie() {
    let pairs = ps(&[0.5, 0.9, 0.5, 0.5], &[0, 1, 1, 0]);
    let s = ConfidenceSettings {
        review_budgets: vec![0.5],
        ..Default::default()
    };
    let g = group_scores(&pairs, &s).unwrap();
    // τ=0.9: cov 1/4 risk 0; τ=0.5: cov 1 risk 2/4 → 0.5·(1 − 1/4) = 0.375
    assert_eq!(g.aurc, 0.375);
    // k = ⌈0.5·4⌉ = 2, inside the 0.5 group (3 pairs, 2 incorrect):
    // caught 2·2/3 = 4/3 of 2 incorrect → 2/3
    assert_eq!(g.error_capture[0].reviewed, 2);
    assert_eq!(g.error_capture[0].share, Some(2.0 / 3.0));
}

#[test]
fn budget_times_n_is_snapped() {
    // c = i/100 for i = 1..=25, the 8 lowest incorrect.
    let pairs: Vec<Pair> = (1..=25).map(|i| p(i as f64 / 100.0, i > 8)).collect();
    let s = ConfidenceSettings {
        review_budgets: vec![0.28, 0.2, 0.0, 1.5],
        ..Default::default()
    };
    let g = group_scores(&pairs, &s).unwrap();
    let cap = cols(&g.error_capture, |e| (e.reviewed, e.share));
    // 0.28·25 = 7 exactly (f64: 7.000000000000001, whose ceiling is 8) → 7/8;
    // 0.2·25 = 5 → 5/8; 0 → 0 reviewed; 1.5·25 capped at 25 → 8/8
    assert_eq!(
        cap,
        vec![
            (7, Some(0.875)),
            (5, Some(0.625)),
            (0, Some(0.0)),
            (25, Some(1.0))
        ]
    );
}

#[test]
fn wilson_hand_values() {
    // 19/20, z = 1.96: p = 0.95, z² = 3.8416; z²/(2n) = 0.09604;
    // p(1−p)/n = 0.002375; z²/(4n²) = 0.002401; √0.004776 = 0.0691086101727;
    // ·1.96 = 0.1354528759385; (1.04604 − 0.1354528759385) / 1.19208
    // = 0.9105871240615 / 1.19208 = 0.763864106487433
    close(wilson_lower_bound(19, 20, 1.96), 0.763864106487433);
    // n/n: (1 + z²/(2n) − z·z/(2n)) / (1 + z²/n) = n / (n + z²)
    close(wilson_lower_bound(73, 73, 1.96), 73.0 / 76.8416);
    assert_eq!(wilson_lower_bound(0, 0, 1.96), 0.0);
}

#[test]
fn equal_mass_bins_with_ties() {
    let pairs = ps(&[0.2, 0.1, 0.9, 0.2, 0.2], &[1, 0, 1, 0, 1]);
    let (s, g) = SortedPairs::grouped(&pairs);
    // B = 2: r(0.1)=0 → 0; r(0.2)=1 → ⌊2/5⌋ = 0; r(0.9)=4 → ⌊8/5⌋ = 1.
    // bin0: acc 2/4, conf 0.7/4 = 0.175 → 4/5·0.325 = 0.26; bin1: 1/5·0.1 = 0.02
    close(ece_equal_mass(&pairs, &s, &g, 2), 0.28);
    // B = 5: 0.2s → ⌊5/5⌋ = 1 together although B = n; 0.9 → 4.
    // bin0 {0.1F}: 1/5·0.1; bin1: acc 2/3, conf 0.2 → 3/5·(2/3 − 0.2) = 0.28;
    // bin4 {0.9T}: 1/5·0.1 → 0.02 + 0.28 + 0.02
    close(ece_equal_mass(&pairs, &s, &g, 5), 0.32);
}

#[test]
fn all_correct() {
    let pairs = ps(&[0.9, 0.4, 0.4], &[1, 1, 1]);
    let g = group_scores(&pairs, &ConfidenceSettings::default()).unwrap();
    assert_eq!((g.accuracy, g.auroc, g.aurc), (1.0, None, 0.0));
    close(g.brier, 0.73 / 3.0); // 0.1² + 0.6² + 0.6²
    assert!(g.error_capture.iter().all(|e| e.share.is_none()));
    let c = &g.coverage_at_accuracy[2]; // 0.99: every τ has accuracy 1
    assert_eq!((c.threshold, c.coverage), (Some(0.4), 1.0));
}

#[test]
fn all_incorrect() {
    let pairs = ps(&[0.9, 0.4], &[0, 0]);
    let g = group_scores(&pairs, &ConfidenceSettings::default()).unwrap();
    assert_eq!((g.accuracy, g.auroc), (0.0, None));
    assert_eq!(g.aurc, 1.0); // 1·(1/2 − 0) + 1·(1 − 1/2)
    for c in &g.coverage_at_accuracy {
        assert_eq!((c.threshold, c.coverage), (None, 0.0));
    }
    // 0.05·2 = 0.1 → k = 1: the 0.4 pair, 1 of 2 incorrect
    assert_eq!(g.error_capture[0].reviewed, 1);
    assert_eq!(g.error_capture[0].share, Some(0.5));
    let f = field_scores(&pairs, &ConfidenceSettings::default()).unwrap();
    assert_eq!((f.auroc, f.recommended_threshold), (None, None));
}

#[test]
fn single_pair() {
    let g = group_scores(&[p(0.7, true)], &ConfidenceSettings::default()).unwrap();
    assert_eq!((g.pairs, g.accuracy, g.mean_confidence), (1, 1.0, 0.7));
    close(g.brier, 0.09); // (0.7 − 1)²
    close(g.ece, 0.3); // 1·|1 − 0.7|
    close(g.mce, 0.3);
    close(g.ece_equal_mass, 0.3);
    assert_eq!((g.auroc, g.aurc), (None, 0.0));
    assert_eq!(g.bins[7].count, 1);
    assert_eq!(g.thresholds[0].accuracy, Some(1.0)); // τ 0.5
    assert_eq!(g.thresholds[1].accepted, 0); // τ 0.8
    assert_eq!(g.thresholds[1].accuracy, None);
    // ⌈0.05·1⌉ = 1 reviewed, no incorrect pair
    assert_eq!(g.error_capture[0].reviewed, 1);
    assert_eq!(g.error_capture[0].share, None);
}

#[test]
fn empty_is_none() {
    let s = ConfidenceSettings::default();
    assert_eq!(group_scores(&[], &s), None);
    assert_eq!(field_scores(&[], &s), None);
    assert!(risk_coverage(&[]).is_empty());
    let sorted = SortedPairs::new(&[]);
    assert!(sorted.is_empty());
    assert_eq!(accepted_at(&sorted, 0.5), (0, 0));
}

#[test]
fn accuracy_target_compared_exactly() {
    // 25 pairs at 0.5, 7 correct: 0.28·25 is 7.000000000000001 in f64,
    // yet 7/25 = 0.28 reaches a target of 0.28.
    let pairs: Vec<Pair> = (0..25).map(|i| p(0.5, i < 7)).collect();
    let c = coverage_at(&SortedPairs::new(&pairs), 0.28);
    assert_eq!((c.threshold, c.coverage), (Some(0.5), 1.0));
    // 19 of 20 reaches 0.95; 0.96 is reached by none.
    let pairs: Vec<Pair> = (0..20).map(|i| p(0.8, i < 19)).collect();
    let s = SortedPairs::new(&pairs);
    assert_eq!(coverage_at(&s, 0.95).threshold, Some(0.8));
    let none = coverage_at(&s, 0.96);
    assert_eq!((none.threshold, none.coverage), (None, 0.0));
}

#[test]
fn recommended_threshold() {
    // n/n at z = 1.96 has lower bound n/(n + 3.8416): 73/76.8416 ≥ 0.95
    // (76.8416·0.95 = 72.99952 < 73) but 72/75.8416 < 0.95 (72.04952 > 72).
    // τ = 0.5 (73/74) is below 0.95: p = 0.98649, bound ≈ 0.927.
    let field = |good| [vec![p(0.9, true); good], vec![p(0.5, false)]].concat();
    let s = ConfidenceSettings::default();
    let f = field_scores(&field(73), &s).unwrap();
    assert_eq!(f.recommended_threshold, Some(0.9));
    assert_eq!(f.coverage, 73.0 / 74.0);
    let f = field_scores(&field(72), &s).unwrap();
    assert_eq!((f.recommended_threshold, f.coverage), (None, 0.0));
    let few = ConfidenceSettings {
        min_pairs: 100, // 74 pairs < 100
        ..Default::default()
    };
    let f = field_scores(&field(73), &few).unwrap();
    assert_eq!((f.recommended_threshold, f.coverage), (None, 0.0));
}

/// Numbers equal within 1e-12, everything else equal.
fn json_close(a: &serde_json::Value, b: &serde_json::Value) {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => close(x.as_f64().unwrap(), y.as_f64().unwrap()),
        (Array(x), Array(y)) => {
            assert_eq!(x.len(), y.len());
            x.iter().zip(y).for_each(|(x, y)| json_close(x, y));
        }
        (Object(x), Object(y)) => {
            assert_eq!(x.len(), y.len());
            x.iter().for_each(|(k, v)| json_close(v, &y[k]));
        }
        _ => assert_eq!(a, b),
    }
}

#[test]
fn permutation_invariant() {
    let mut state: u64 = 12345;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state >> 33
    };
    let pairs: Vec<Pair> = (0..300)
        .map(|_| p((next() % 21) as f64 / 20.0, next() % 3 != 0))
        .collect();
    let mut shuffled = pairs.clone();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, next() as usize % (i + 1));
    }
    assert_ne!(pairs, shuffled);
    let s = ConfidenceSettings::default();
    let (a, b) = (
        group_scores(&pairs, &s).unwrap(),
        group_scores(&shuffled, &s).unwrap(),
    );
    // Sorting-based scores are exactly equal; sums within rounding.
    assert_eq!(
        (&a.auroc, a.aurc, &a.thresholds),
        (&b.auroc, b.aurc, &b.thresholds)
    );
    assert_eq!(a.coverage_at_accuracy, b.coverage_at_accuracy);
    assert_eq!(a.error_capture, b.error_capture);
    assert_eq!(risk_coverage(&pairs), risk_coverage(&shuffled));
    let json = |g: &GroupScores| serde_json::to_value(g).unwrap();
    json_close(&json(&a), &json(&b));
    let (fa, fb) = (
        field_scores(&pairs, &s).unwrap(),
        field_scores(&shuffled, &s).unwrap(),
    );
    assert_eq!(
        (fa.auroc, fa.recommended_threshold, fa.coverage),
        (fb.auroc, fb.recommended_threshold, fb.coverage)
    );
    close(fa.ece, fb.ece);
}

#[test]
fn serialises_nulls_in_spec_order() {
    let g = group_scores(&[p(0.5, true)], &ConfidenceSettings::default()).unwrap();
    assert_eq!(
        serde_json::to_string(&g.thresholds[1]).unwrap(),
        r#"{"threshold":0.8,"accepted":0,"coverage":0.0,"accuracy":null}"#
    );
    let text = serde_json::to_string(&g).unwrap();
    assert!(text.starts_with(r#"{"pairs":1,"accuracy":1.0,"mean_confidence":0.5,"brier":0.25,"ece":0.5,"ece_equal_mass":0.5,"mce":0.5,"auroc":null,"aurc":0.0,"bins":[{"low":0.0,"high":0.1,"count":0,"accuracy":null,"mean_confidence":null}"#));
    assert_eq!(serde_json::from_str::<GroupScores>(&text).unwrap(), g);
}

/// A random confidence for the bit-for-bit tests: −0.0, 0.0 and 1.0 a
/// tenth of the time each, else a multiple of 1/`decimals` (ties, bin
/// edges).
fn random_confidence(rng: &mut fastrand::Rng, decimals: f64) -> f64 {
    match rng.u8(0..10) {
        0 => -0.0,
        1 => 0.0,
        2 => 1.0,
        _ => (rng.f64() * decimals).round() / decimals,
    }
}

/// `PairIndex::scores` is `group_scores` on the multiset written out, bit
/// for bit: random pairs (ties, values on bin edges, -0.0 beside 0.0),
/// random runs repeated 0–3 times, several bin counts.
#[test]
fn the_index_gives_group_scores_bit_for_bit() {
    let mut rng = fastrand::Rng::with_seed(8);
    for case in 0..300 {
        let n = rng.usize(0..60);
        let decimals = [1.0, 10.0, 100.0, 1e6][case % 4];
        let pairs: Vec<Pair> = (0..n)
            .map(|_| {
                let c = random_confidence(&mut rng, decimals);
                p(c, rng.bool())
            })
            .collect();
        let bins = [0, 1, 3, 10][case % 4];
        let index = PairIndex::new(pairs.clone(), bins);
        // Runs: consecutive ranges (some empty), each with a weight.
        let mut cuts: Vec<usize> = (0..rng.usize(0..6)).map(|_| rng.usize(0..=n)).collect();
        cuts.extend([0, n]);
        cuts.sort_unstable();
        let runs: Vec<(std::ops::Range<usize>, u32)> = cuts
            .windows(2)
            .map(|w| (w[0]..w[1], rng.u32(0..4)))
            .collect();
        let written: Vec<Pair> = runs
            .iter()
            .flat_map(|(r, w)| (0..*w).flat_map(move |_| r.clone()))
            .map(|i| pairs[i])
            .collect();
        let settings = ConfidenceSettings {
            bins,
            ..ConfidenceSettings::default()
        };
        let fast = index.scores(runs.iter().cloned());
        match group_scores(&written, &settings) {
            None => assert_eq!(fast, None, "case {case}"),
            Some(g) => {
                let f = fast.expect("pairs drawn");
                let bits = |x: f64| x.to_bits();
                assert_eq!(bits(f.ece), bits(g.ece), "case {case}");
                assert_eq!(bits(f.brier), bits(g.brier), "case {case}");
                assert_eq!(f.auroc.map(bits), g.auroc.map(bits), "case {case}");
                assert_eq!(bits(f.aurc), bits(g.aurc), "case {case}");
            }
        }
    }
}

/// The groups as (value bits, pairs, correct), to compare a whole index
/// including the sign of a zero.
fn groups_of(s: &SortedPairs) -> Vec<(u64, u64, u64)> {
    (0..s.values().len())
        .map(|i| {
            let (from, ok_from) = s.accepted_from(i);
            let (next, ok_next) = s.accepted_from(i + 1);
            (s.values()[i].to_bits(), from - next, ok_from - ok_next)
        })
        .collect()
}

#[test]
fn grouping_by_hash_and_subsets_equal_a_sort() {
    // Correct at i = 0, 3, 6, 9 (0.5, 0.0, 0.9, 0.3).
    let c = [0.5, -0.0, 0.9, 0.0, 0.5, 0.3, 0.9, 0.0, 1.0, 0.3];
    let pairs: Vec<Pair> = c
        .iter()
        .enumerate()
        .map(|(i, &c)| p(c, i % 3 == 0))
        .collect();
    let (s, groups) = SortedPairs::grouped(&pairs);
    // Zero group {i 1 (−0.0, wrong), 3 (ok), 7 (wrong)}: 3 pairs, 1 correct,
    // its value −0.0 (first under total_cmp); 0.3 {5, 9 ok}; 0.5 {0 ok, 4};
    // 0.9 {2, 6 ok}; 1.0 {8}.
    let zero = (-0.0f64).to_bits();
    assert_eq!(
        groups_of(&s),
        [
            (zero, 3, 1),
            (0.3f64.to_bits(), 2, 1),
            (0.5f64.to_bits(), 2, 1),
            (0.9f64.to_bits(), 2, 1),
            (1.0f64.to_bits(), 1, 0)
        ]
    );
    assert_eq!(groups, [2, 0, 3, 0, 2, 1, 3, 0, 4, 1]);
    assert_eq!(s.accepted_at(0.5), (5, 2));
    let mut scratch = Vec::new();
    for pick in [vec![1, 3, 5, 7, 9], vec![0, 2, 4, 6, 8], vec![3, 7], vec![]] {
        let sub: Vec<Pair> = pick.iter().map(|&i| pairs[i]).collect();
        let sub_groups: Vec<u32> = pick.iter().map(|&i| groups[i]).collect();
        let (t, local) = s.subset(&sub, &sub_groups, &mut scratch);
        let (u, own) = SortedPairs::grouped(&sub);
        assert_eq!(
            (groups_of(&t), local),
            (groups_of(&u), own),
            "subset {pick:?}"
        );
    }
    // {3, 7}: only +0.0, so the subset's zero is +0.0, not the set's −0.0.
    let (t, _) = s.subset(&[pairs[3], pairs[7]], &[0, 0], &mut scratch);
    assert_eq!(groups_of(&t), [(0.0f64.to_bits(), 2, 1)]);
}

/// `all_field_scores` is `field_scores` of each field's pairs alone, bit
/// for bit (Debug strings, so −0.0 is told from 0.0): random fields (some
/// without pairs), ties, −0.0 beside 0.0, values on bin edges, several
/// bin counts, review targets and minimum pair counts.
#[test]
fn every_field_in_one_pass_is_each_field_alone_bit_for_bit() {
    let mut rng = fastrand::Rng::with_seed(29);
    for case in 0..400 {
        let n = rng.usize(0..80);
        let field_count = rng.usize(1..6);
        let decimals = [1.0, 10.0, 100.0, 1e6][case % 4];
        let pairs: Vec<Pair> = (0..n)
            .map(|_| {
                let c = random_confidence(&mut rng, decimals);
                p(c, rng.u8(0..4) > 0)
            })
            .collect();
        let fields: Vec<u32> = (0..n).map(|_| rng.u32(0..field_count as u32)).collect();
        let settings = ConfidenceSettings {
            bins: [0, 1, 3, 10][case % 4],
            review_target: [0.5, 0.8, 0.95][case % 3],
            min_pairs: rng.usize(0..4),
            ..ConfidenceSettings::default()
        };
        let (sorted, groups) = SortedPairs::grouped(&pairs);
        let all = all_field_scores(
            with_fields(&pairs, &fields, &groups),
            field_count,
            &sorted,
            &settings,
        )
        .unwrap();
        assert_eq!(all.len(), field_count);
        // The same pairs kept in a `PairLog`: the same sorted index and,
        // field by field and for the whole group, the same bits.
        let mut log = PairLog::default();
        for (q, &f) in pairs.iter().zip(&fields) {
            log.push(q.confidence, q.correct, f);
        }
        let (log_sorted, rank) = log.grouped();
        assert_eq!(log_sorted, sorted, "case {case}");
        let from_log =
            all_field_scores(log.with_groups(&rank), field_count, &log_sorted, &settings).unwrap();
        assert_eq!(format!("{from_log:?}"), format!("{all:?}"), "case {case}");
        let whole = log.with_groups(&rank).map(|(q, _, g)| (q, g));
        assert_eq!(
            format!("{:?}", group_scores_grouped(whole, &log_sorted, &settings)),
            format!("{:?}", group_scores(&pairs, &settings)),
            "case {case}"
        );
        // Both in one pass: the same bits again (nothing without pairs).
        let both = group_and_field_scores(log.with_groups(&rank), field_count, &sorted, &settings);
        let want = group_scores(&pairs, &settings).map(|g| (g, Some(all.clone())));
        assert_eq!(format!("{both:?}"), format!("{want:?}"), "case {case}");
        for (f, got) in all.iter().enumerate() {
            let own: Vec<Pair> = pairs
                .iter()
                .zip(&fields)
                .filter(|(_, &g)| g as usize == f)
                .map(|(p, _)| *p)
                .collect();
            let want = field_scores(&own, &settings);
            assert_eq!(
                format!("{got:?}"),
                format!("{want:?}"),
                "case {case}, field {f}"
            );
        }
    }
    // A field with only −0.0 and one with only 0.0 beside it: each its own
    // zero (the recommended threshold keeps the sign).
    let pairs = ps(&[-0.0, 0.0, -0.0, 0.0], &[1, 1, 1, 1]);
    let (sorted, groups) = SortedPairs::grouped(&pairs);
    let settings = ConfidenceSettings {
        min_pairs: 0,
        review_target: 0.0,
        ..ConfidenceSettings::default()
    };
    let all = all_field_scores(
        with_fields(&pairs, &[0, 1, 0, 1], &groups),
        2,
        &sorted,
        &settings,
    )
    .unwrap();
    let thresholds: Vec<String> = all
        .iter()
        .map(|f| format!("{:?}", f.as_ref().unwrap().recommended_threshold))
        .collect();
    assert_eq!(thresholds, ["Some(-0.0)", "Some(0.0)"]);
    // Many distinct confidences over many fields: the table would be too
    // large, so the caller gathers each field's pairs instead.
    let pairs: Vec<Pair> = (0..100).map(|i| p(i as f64 / 100.0, true)).collect();
    let (sorted, groups) = SortedPairs::grouped(&pairs);
    let fields = vec![0u32; 100];
    let all = |count| {
        all_field_scores(
            with_fields(&pairs, &fields, &groups),
            count,
            &sorted,
            &settings,
        )
    };
    assert!(all(1000).is_none());
    assert!(all(600).is_some());
    // In one pass with the group's scores: the group's all the same, the
    // fields left to the caller.
    let (group, fields) = group_and_field_scores(
        with_fields(&pairs, &fields, &groups),
        1000,
        &sorted,
        &settings,
    )
    .unwrap();
    assert_eq!(Some(group), group_scores(&pairs, &settings));
    assert!(fields.is_none());
}

/// Each pair with its field and its group, as `all_field_scores` takes them.
fn with_fields<'a>(
    pairs: &'a [Pair],
    fields: &'a [u32],
    groups: &'a [u32],
) -> impl Iterator<Item = (Pair, u32, u32)> + 'a {
    pairs
        .iter()
        .zip(fields)
        .zip(groups)
        .map(|((&q, &f), &g)| (q, f, g))
}
