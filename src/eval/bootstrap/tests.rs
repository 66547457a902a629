//! Unit tests of `bootstrap` (moved out of bootstrap.rs to keep it readable).

use super::*;

fn c(exact: u64, missed: u64, spurious: u64, true_negative: u64) -> Counts {
    Counts {
        exact,
        missed,
        spurious,
        true_negative,
        ..Counts::default()
    }
}

/// A document of one field with these counts, valid, no numbers, no items.
fn doc(counts: Counts) -> DocumentTally {
    DocumentTally {
        counts,
        fields: vec![counts],
        schema_valid: true,
        ..DocumentTally::default()
    }
}

fn model(name: &str, documents: Vec<DocumentTally>, has_items: bool) -> ModelTallies {
    ModelTallies {
        name: name.into(),
        documents,
        has_items,
    }
}

#[test]
fn quantiles_interpolate_linearly() {
    let v = [1.0, 2.0, 3.0, 4.0, 5.0];
    assert_eq!(quantile(&v, 0.0), 1.0);
    assert_eq!(quantile(&v, 1.0), 5.0);
    assert_eq!(quantile(&v, 0.5), 3.0);
    // h = 4 × 0.025 = 0.1: 1 + 0.1 × (2 − 1).
    assert!((quantile(&v, 0.025) - 1.1).abs() < 1e-12);
    // h = 4 × 0.975 = 3.9: 4 + 0.9 × (5 − 4).
    assert!((quantile(&v, 0.975) - 4.9).abs() < 1e-12);
    assert_eq!(quantile(&[7.0], 0.3), 7.0);
}

#[test]
fn holm_by_hand() {
    // Sorted: 0.01 (×3 = 0.03), 0.02 (×2 = 0.04), 0.04 (×1 = 0.04).
    let adjusted = holm(&[0.04, 0.01, 0.02]);
    assert_eq!(adjusted, vec![0.04, 0.03, 0.04]);
    // The running maximum keeps adjusted values in order; capped at 1.
    assert_eq!(holm(&[0.3, 0.5, 0.001]), vec![0.6, 0.6, 0.003]);
    assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
}

#[test]
fn one_document_gives_the_point_estimate_every_time() {
    let config = Config::default();
    let b = Bootstrap::new(
        vec![model("m", vec![doc(c(3, 1, 1, 2))], false)],
        &config,
        BootstrapOptions::default(),
    );
    let r = b.finish();
    assert_eq!(r.resamples, 1000);
    let micro_f1 = r.models[0].get("micro.f1").unwrap();
    // P = 3/4, R = 3/4 (FN = MIS = 1), F1 = 0.75.
    assert_eq!(micro_f1.estimate, 0.75);
    assert_eq!((micro_f1.low, micro_f1.high), (0.75, 0.75));
    let acc = r.models[0].get("micro.accuracy").unwrap();
    // (TP + TN) / N = 5/7.
    assert_eq!(
        (acc.estimate, acc.low, acc.high),
        (5.0 / 7.0, 5.0 / 7.0, 5.0 / 7.0)
    );
    // One field: the macro over fields is that field's scores.
    let mf = r.models[0].get("macro_fields.f1").unwrap();
    assert_eq!((mf.estimate, mf.low, mf.high), (0.75, 0.75, 0.75));
    assert!(r.models[0].items.is_none());
    assert!(r.models[0].get("items.f1").is_none());
}

/// Three documents, two fields `a` (a number) and `b`:
/// D1 — a exact, b exact; valid; 1 of 1 items recognised.
/// D2 — a missed, b exact; valid; 0 of 1 recognised (1 predicted).
/// D3 — a true negative, b spurious; not valid; no items.
fn three_documents() -> Vec<DocumentTally> {
    let items = |recognised, truth_items, pred_items| ItemTally {
        recognised,
        truth_items,
        pred_items,
    };
    vec![
        DocumentTally {
            counts: c(2, 0, 0, 0),
            fields: vec![c(1, 0, 0, 0), c(1, 0, 0, 0)],
            numeric_exact: 1,
            numeric_total: 1,
            schema_valid: true,
            items: items(1, 1, 1),
            confidence: Vec::new(),
        },
        DocumentTally {
            counts: c(1, 1, 0, 0),
            fields: vec![c(0, 1, 0, 0), c(1, 0, 0, 0)],
            numeric_exact: 0,
            numeric_total: 1,
            schema_valid: true,
            items: items(0, 1, 1),
            confidence: Vec::new(),
        },
        DocumentTally {
            counts: c(0, 0, 1, 1),
            fields: vec![c(0, 0, 0, 1), c(0, 0, 1, 0)],
            numeric_exact: 0,
            numeric_total: 0,
            schema_valid: false,
            items: items(0, 0, 0),
            confidence: Vec::new(),
        },
    ]
}

#[test]
fn five_resamples_of_three_documents_by_hand() {
    let config = Config::default();
    let options = BootstrapOptions {
        resamples: 5,
        seed: 3,
        ..BootstrapOptions::default()
    };
    // The draws of seed 3 (fastrand's WyRand; the Python reference
    // reproduces them): how many times D1, D2, D3 are drawn.
    let mut rng = fastrand::Rng::with_seed(3);
    let draws: Vec<[u32; 3]> = (0..5)
        .map(|_| {
            let mut w = [0; 3];
            for _ in 0..3 {
                w[rng.u64(0..3) as usize] += 1;
            }
            w
        })
        .collect();
    assert_eq!(
        draws,
        vec![[1, 2, 0], [0, 0, 3], [1, 1, 1], [2, 0, 1], [0, 2, 1]]
    );
    // With weights (w1, w2, w3), per field (default config, 0/0 = 0):
    // a: TP = w1, FN = w2, TN = w3, no FP — P = 1 (0 when w1 = 0),
    //    R = w1/(w1 + w2); left out when w1 = w2 = 0.
    // b: TP = w1 + w2, FP = w3 — P = (w1 + w2)/3, R = 1 (0 when w1 + w2 = 0).
    // Macro F1 over fields, per resample:
    //  (1,2,0): a F1 = 2·1·⅓/(4/3) = ½, b F1 = 1       → ¾
    //  (0,0,3): a left out, b P = R = 0                 → 0
    //  (1,1,1): a F1 = ⅔, b F1 = 2·⅔/(5/3) = ⅘          → 11/15
    //  (2,0,1): a F1 = 1, b F1 = ⅘                      → 9/10
    //  (0,2,1): a P = 0/0 = 0, R = 0, F1 = 0; b ⅘       → 2/5
    // sorted 0, 2/5, 11/15, 3/4, 9/10; type 7 with B = 5: h = 0.1 and 3.9.
    let r = Bootstrap::new(vec![model("m", three_documents(), true)], &config, options).finish();
    let m = &r.models[0];
    let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
    let mf = m.macro_fields.f1;
    assert!(close(mf.estimate, 11.0 / 15.0), "{mf:?}");
    assert!(close(mf.low, 0.1 * 0.4), "{mf:?}");
    assert!(close(mf.high, 0.75 + 0.9 * (0.9 - 0.75)), "{mf:?}");
    // document_extraction_score = 0.5·np + 0.35·f1_partial + 0.15·validity,
    // np = w1/(w1 + w2); credit = 2w1 + w2, |Pred| = 2w1 + w2 + w3,
    // |Truth| = 2w1 + 2w2; validity = (w1 + w2)/3:
    //  (1,2,0): np ⅓, f1p = 2·1·⅔/(5/3) = ⅘, v 1 → 1/6 + 0.28 + 0.15
    //  (0,0,3): np null → weights re-spread: 2·(0.35·0 + 0.15·0) = 0
    //  (1,1,1): np ½, f1p ¾, v ⅔          → 0.25 + 0.2625 + 0.1 = 0.6125
    //  (2,0,1): np 1, f1p = 2·0.8/1.8 = 8/9, v ⅔ → 0.6 + 0.35·8/9
    //  (0,2,1): np 0, f1p = 2·⅔·½/(7/6) = 4/7, v ⅔ → 0.2 + 0.1 = 0.3
    let des = m.document_extraction_score;
    let des_4 = 0.6 + 0.35 * 8.0 / 9.0;
    assert!(close(des.estimate, 0.6125), "{des:?}");
    assert!(close(des.low, 0.1 * 0.3), "{des:?}");
    assert!(close(des.high, 0.6125 + 0.9 * (des_4 - 0.6125)), "{des:?}");
    // Item F1 = w1/(w1 + w2) (P = R), 0/0 = 0: ⅓, 0, ½, 1, 0.
    let items = m.items.unwrap().f1;
    assert!(close(items.estimate, 0.5), "{items:?}");
    assert!(close(items.low, 0.0), "{items:?}");
    assert!(close(items.high, 0.5 + 0.9 * 0.5), "{items:?}");
    // Micro F1 for comparison: TP = 2w1 + w2, FP = w3, FN = w2 — the
    // resample of all three documents once each is the estimate.
    let micro = m.micro.f1;
    assert!(close(micro.estimate, 0.75), "{micro:?}");
}

#[test]
fn seeded_and_reproducible_and_incremental() {
    let config = Config::default();
    let docs: Vec<DocumentTally> = (0..30).map(|i| doc(c(i % 5, i % 3, i % 2, 1))).collect();
    let run = |steps: &[usize]| {
        let mut b = Bootstrap::new(
            vec![model("m", docs.clone(), false)],
            &config,
            BootstrapOptions::default(),
        );
        for &s in steps {
            b.step(s);
        }
        b.finish()
    };
    let once = run(&[]);
    assert_eq!(once, run(&[1, 10, 100, 5000]));
    let other_seed = {
        let o = BootstrapOptions {
            seed: 2,
            ..BootstrapOptions::default()
        };
        Bootstrap::new(vec![model("m", docs.clone(), false)], &config, o).finish()
    };
    assert_ne!(once.models, other_seed.models);
    let f1 = once.models[0].get("micro.f1").unwrap();
    assert!(f1.low < f1.estimate && f1.estimate < f1.high, "{f1:?}");
}

/// 60 documents of two fields (`f` a number, `g`) and one item each.
/// A gets everything right; B gets the odd documents entirely wrong
/// (both fields missed, not schema-valid, the item not recognised); C
/// equals B document for document; D is A without item lists.
fn better_and_equal() -> BootstrapReport {
    let right = DocumentTally {
        counts: c(2, 0, 0, 0),
        fields: vec![c(1, 0, 0, 0); 2],
        numeric_exact: 1,
        numeric_total: 1,
        schema_valid: true,
        items: ItemTally {
            recognised: 1,
            truth_items: 1,
            pred_items: 1,
        },
        confidence: Vec::new(),
    };
    let wrong = DocumentTally {
        counts: c(0, 2, 0, 0),
        fields: vec![c(0, 1, 0, 0); 2],
        numeric_exact: 0,
        numeric_total: 1,
        schema_valid: false,
        items: ItemTally {
            recognised: 0,
            truth_items: 1,
            pred_items: 1,
        },
        confidence: Vec::new(),
    };
    let a: Vec<DocumentTally> = (0..60).map(|_| right.clone()).collect();
    let b: Vec<DocumentTally> = (0..60)
        .map(|i| {
            if i % 2 == 0 {
                right.clone()
            } else {
                wrong.clone()
            }
        })
        .collect();
    Bootstrap::new(
        vec![
            model("A", a.clone(), true),
            model("B", b.clone(), true),
            model("C", b, true),
            model("D", a, false),
        ],
        &Config::default(),
        BootstrapOptions::default(),
    )
    .finish()
}

#[test]
fn the_paired_test_tells_a_clearly_better_model_from_an_equal_one() {
    let r = better_and_equal();
    let test = |x: &str, y: &str, metric: &str| r.test(metric, x, y).unwrap().clone();
    // B: P = 1, R = ½ on micro and on each field; item P = R = ½;
    // document_extraction_score = 0.5·½ + 0.35·⅔ + 0.15·½.
    let b_des = 0.25 + 0.35 * 2.0 / 3.0 + 0.075;
    for (metric, difference) in [
        ("micro.f1", 1.0 - 2.0 / 3.0),
        ("micro.accuracy", 0.5),
        // Per document P = R = 1 or 0 (0/0 = 0): macro P = R = F1 = ½.
        ("macro_documents.f1", 0.5),
        ("macro_fields.f1", 1.0 - 2.0 / 3.0),
        ("document_extraction_score", 1.0 - b_des),
        ("items.f1", 0.5),
    ] {
        let ab = test("A", "B", metric);
        assert!((ab.difference - difference).abs() < 1e-12, "{ab:?}");
        assert!(ab.significant, "{ab:?}");
        assert!(ab.p_value < 0.01, "{ab:?}");
        // Equal models: no difference, p = 1, not significant.
        let bc = test("B", "C", metric);
        assert_eq!((bc.difference, bc.p_value), (0.0, 1.0), "{bc:?}");
        assert!(!bc.significant);
        // Holm over the pairs of one score: adjusted ≥ raw.
        for t in r.paired.iter().filter(|t| t.metric == metric) {
            assert!(t.p_holm >= t.p_value);
        }
        assert!(r.below_best(metric, "B"), "{metric}");
        assert!(!r.below_best(metric, "A"), "{metric}");
    }
    // Estimates are the full-sample scores.
    let b = r.model("B").unwrap();
    assert!((b.document_extraction_score.estimate - b_des).abs() < 1e-12);
    assert_eq!(b.items.unwrap().f1.estimate, 0.5);
    assert_eq!(b.macro_fields.f1.estimate, 2.0 / 3.0);
    // D has no item lists: no item intervals and no item tests; it
    // ties with A everywhere else (difference 0, p = 1).
    assert!(r.model("D").unwrap().items.is_none());
    assert!(r
        .paired
        .iter()
        .all(|t| t.metric != "items.f1" || (t.a != "D" && t.b != "D")));
    assert_eq!(
        r.paired.iter().filter(|t| t.metric == "items.f1").count(),
        3
    );
    assert_eq!(test("A", "D", "macro_fields.f1").p_value, 1.0);
    // Six scores tested: 6 pairs each, 3 for items.
    assert_eq!(r.paired.len(), 5 * 6 + 3);
}

fn pair(confidence: f64, correct: bool) -> Pair {
    Pair {
        confidence,
        correct,
    }
}

/// `doc` with these confidence pairs.
fn with_pairs(counts: Counts, pairs: &[(f64, bool)]) -> DocumentTally {
    DocumentTally {
        confidence: pairs.iter().map(|&(c, y)| pair(c, y)).collect(),
        ..doc(counts)
    }
}

#[test]
fn five_resamples_of_confidence_pairs_by_hand() {
    let config = Config::default();
    let options = BootstrapOptions {
        resamples: 5,
        seed: 3,
        ..BootstrapOptions::default()
    };
    // D1: (0.9, right), (0.4, wrong); D2: (0.8, right); D3: no pair.
    // Seed 3 draws (D1, D2, D3) = (1,2,0), (0,0,3), (1,1,1), (2,0,1),
    // (0,2,1) (see five_resamples_of_three_documents_by_hand).
    let docs = vec![
        with_pairs(c(1, 1, 0, 0), &[(0.9, true), (0.4, false)]),
        with_pairs(c(1, 0, 0, 0), &[(0.8, true)]),
        doc(c(0, 0, 0, 1)),
    ];
    // One resample worked by hand from its draw, (1,2,0): pairs 0.9 ✓,
    // 0.4 ✗, 0.8 ✓, 0.8 ✓ (D2's twice). Bins of 0.1: [0.9, 1] 1 pair,
    // gap |1 − 0.9|; [0.8, 0.9) 2 pairs, gap 0.2; [0.4, 0.5) 1 pair,
    // gap |0 − 0.4|: ece = ¼·0.1 + ½·0.2 + ¼·0.4 = 0.225.
    let settings = confidence_settings(&config);
    let mut buffer = Vec::new();
    let r1 = confidence_scores(&docs, &[1, 2, 0], &settings, &mut buffer);
    let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
    assert!(close(r1[0], 0.225), "{r1:?}");
    // brier = (0.01 + 0.16 + 0.04 + 0.04) / 4; every right pair above
    // the wrong one: auroc 1; aurc: only at 0.4 (coverage ¾ → 1) is
    // there a risk, ¼: ¼ · ¼.
    assert!(close(r1[1], 0.0625) && r1[2] == 1.0 && close(r1[3], 0.0625));
    // (0,0,3) draws no pair: every score undefined. (0,2,1): two right
    // pairs of 0.8: auroc undefined, ece 0.2, brier 0.04, aurc 0.
    let r2 = confidence_scores(&docs, &[0, 0, 3], &settings, &mut buffer);
    assert!(r2.iter().all(|x| x.is_nan()), "{r2:?}");
    let r5 = confidence_scores(&docs, &[0, 2, 1], &settings, &mut buffer);
    assert!(close(r5[0], 0.2) && close(r5[1], 0.04) && r5[3] == 0.0);
    assert!(r5[2].is_nan());

    let r = Bootstrap::new(vec![model("m", docs, false)], &config, options).finish();
    let ci = r.models[0].confidence.expect("the model has pairs");
    // Estimate (1,1,1): 0.9 ✓, 0.4 ✗, 0.8 ✓: ece = (0.1 + 0.2 + 0.4)/3,
    // brier = 0.21/3, aurc = ⅓ · ⅓. (2,0,1): ece ½·0.1 + ½·0.4 = 0.25,
    // brier 0.085, aurc ½ · ½.
    // ece over the 4 resamples with a pair: 0.2, 0.225, 0.7/3, 0.25;
    // type 7 with B' = 4: h = 0.075 and 2.925.
    assert_eq!((ci.resamples, ci.auroc_resamples), (4, 3));
    let ece = ci.ece;
    assert!(close(ece.estimate, 0.7 / 3.0), "{ece:?}");
    assert!(close(ece.low, 0.2 + 0.075 * 0.025), "{ece:?}");
    assert!(close(ece.high, 0.7 / 3.0 + 0.925 * (0.25 - 0.7 / 3.0)));
    let brier = ci.brier;
    assert!(close(brier.estimate, 0.07), "{brier:?}");
    // 0.04, 0.0625, 0.07, 0.085.
    assert!(close(brier.low, 0.04 + 0.075 * 0.0225), "{brier:?}");
    assert!(close(brier.high, 0.07 + 0.925 * 0.015), "{brier:?}");
    let aurc = ci.aurc;
    assert!(close(aurc.estimate, 1.0 / 9.0), "{aurc:?}");
    // 0, 0.0625, 1/9, 0.25.
    assert!(close(aurc.low, 0.075 * 0.0625), "{aurc:?}");
    assert!(close(aurc.high, 1.0 / 9.0 + 0.925 * (0.25 - 1.0 / 9.0)));
    // auroc is 1 on the three resamples where it is defined.
    let auroc = ci.auroc.unwrap();
    assert_eq!((auroc.estimate, auroc.low, auroc.high), (1.0, 1.0, 1.0));
    assert_eq!(r.models[0].get("confidence.aurc"), Some(&aurc));
    // The headline scores are untouched by the pairs.
    assert!(r.models[0].get("micro.f1").is_some());
    // One model: no test.
    assert!(r.paired.is_empty());
}

#[test]
fn the_indexed_pairs_give_the_plain_rule_bit_for_bit() {
    // Documents of 0–4 pairs (confidences in tenths: ties and bin
    // edges), resampled by draw_weights: the resampler's scores are
    // confidence_scores' (group_scores over the pairs written out).
    let config = Config::default();
    let mut rng = fastrand::Rng::with_seed(12);
    let docs: Vec<DocumentTally> = (0..25)
        .map(|_| {
            let pairs: Vec<(f64, bool)> = (0..rng.usize(0..5))
                .map(|_| (f64::from(rng.u8(0..=10)) / 10.0, rng.bool()))
                .collect();
            with_pairs(c(1, 0, 0, 0), &pairs)
        })
        .collect();
    let resampler = ConfidenceResampler::new(&docs, &config).unwrap();
    let settings = confidence_settings(&config);
    let mut weights = vec![0; docs.len()];
    let mut buffer = Vec::new();
    for _ in 0..200 {
        draw_weights(&mut rng, &mut weights);
        let fast = resampler.scores(&weights).map(f64::to_bits);
        let plain = confidence_scores(&docs, &weights, &settings, &mut buffer);
        assert_eq!(fast, plain.map(f64::to_bits), "{weights:?}");
    }
    assert!(ConfidenceResampler::new(&[doc(c(1, 0, 0, 0))], &config).is_none());
}

#[test]
fn an_undefined_auroc_estimate_has_no_interval() {
    // Every pair right: auroc null in the report and here.
    let docs: Vec<DocumentTally> = (0..10)
        .map(|i| with_pairs(c(1, 0, 0, 0), &[(0.5 + f64::from(i) / 40.0, true)]))
        .collect();
    let config = Config::default();
    let r = Bootstrap::new(
        vec![model("m", docs, false)],
        &config,
        BootstrapOptions::default(),
    )
    .finish();
    let ci = r.models[0].confidence.unwrap();
    assert_eq!((ci.auroc, ci.auroc_resamples), (None, 0));
    assert_eq!(ci.resamples, 1000);
    // All right: aurc 0 on every resample.
    assert_eq!(
        (ci.aurc.estimate, ci.aurc.low, ci.aurc.high),
        (0.0, 0.0, 0.0)
    );
    assert!(r.models[0].get("confidence.auroc").is_none());
}

/// 60 documents, one field, two pairs each: A ranks its right value
/// (0.9) above its wrong one (0.2); B the other way round; C equals B;
/// D has no confidence.
fn ranked() -> BootstrapReport {
    let counts = c(1, 1, 0, 0);
    let good = with_pairs(counts, &[(0.9, true), (0.2, false)]);
    let bad = with_pairs(counts, &[(0.2, true), (0.9, false)]);
    let models = vec![
        model("A", vec![good; 60], false),
        model("B", vec![bad.clone(); 60], false),
        model("C", vec![bad; 60], false),
        model("D", vec![doc(counts); 60], false),
    ];
    Bootstrap::new(models, &Config::default(), BootstrapOptions::default()).finish()
}

#[test]
fn the_paired_aurc_test_finds_the_better_ranking_model() {
    let r = ranked();
    let aurc = |name: &str| r.model(name).unwrap().get("confidence.aurc").copied();
    // A: accepting 0.9 first, risk 0 over coverage ½, then ½ over the
    // rest: aurc ¼. B: risk 1 over the first half, ½ then: ¾.
    assert_eq!(aurc("A").unwrap().estimate, 0.25);
    assert_eq!(aurc("B").unwrap().estimate, 0.75);
    assert!(aurc("D").is_none());
    assert!(r.model("D").unwrap().confidence.is_none());
    // Every document alike: every resample gives the estimate.
    let a = aurc("A").unwrap();
    assert_eq!((a.low, a.high), (0.25, 0.25));
    let tests: Vec<&PairedTest> = r
        .paired
        .iter()
        .filter(|t| t.metric == "confidence.aurc")
        .collect();
    // Only between the models with pairs: A–B, A–C, B–C.
    assert_eq!(tests.len(), 3);
    let ab = r.test("confidence.aurc", "A", "B").unwrap();
    assert_eq!((ab.a.as_str(), ab.b.as_str()), ("A", "B"));
    // A − B < 0: A's AURC is lower, so A is better.
    assert_eq!(ab.difference, -0.5);
    // δ_b = δ on every resample: |δ_b − δ| = 0 < |δ| — p = 1/1001, and
    // Holm over the three pairs: 3/1001 for the smallest two.
    assert_eq!(ab.p_value, 1.0 / 1001.0);
    assert_eq!(ab.p_holm, 3.0 / 1001.0);
    assert!(ab.significant);
    let bc = r.test("confidence.aurc", "B", "C").unwrap();
    assert_eq!(
        (bc.difference, bc.p_value, bc.significant),
        (0.0, 1.0, false)
    );
    // Lower is better: B is significantly above (worse than) A, the best.
    assert!(r.below_best("confidence.aurc", "B"));
    assert!(!r.below_best("confidence.aurc", "A"));
    // ece is not tested, so no mark.
    assert!(!r.below_best("confidence.ece", "B"));
}

#[test]
fn a_model_without_confidence_serialises_no_confidence_key() {
    let r = ranked();
    let json = serde_json::to_value(&r).unwrap();
    let d = &json["models"][3];
    assert_eq!(d["name"], "D");
    assert!(d.get("confidence").is_none());
    assert!(json["models"][0]["confidence"]["aurc"]["estimate"].is_number());
    assert_eq!(json["models"][0]["confidence"]["resamples"], 1000);
}
